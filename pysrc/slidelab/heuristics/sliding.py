"""Per-tile table heuristics for sliding puzzles: zero, misplaced tiles, Manhattan distance."""

from __future__ import annotations


class TileTableHeuristic:
    """h(state) = sum of tile_table[tile][cell] over the tiles (the blank's row is all zeros); consistent: a move
    changes one tile's entry, by at most one."""

    kernel = "tile_table"
    consistent = True

    def __init__(self, name, tile_table):
        self.name = name
        self.tile_table = tile_table

    def __call__(self, state) -> int:
        table = self.tile_table
        return sum(table[t][p] for p, t in enumerate(state))


def _table(puzzle, cost):
    cols = puzzle.cols
    table = [[0] * puzzle.size for _ in range(puzzle.size)]
    for t in range(1, puzzle.size):
        g = puzzle.goal_pos[t]
        for p in range(puzzle.size):
            table[t][p] = cost(divmod(p, cols), divmod(g, cols))
    return table


def zero(puzzle):
    return TileTableHeuristic("zero", [[0] * puzzle.size for _ in range(puzzle.size)])


def misplaced(puzzle):
    return TileTableHeuristic("misplaced", _table(puzzle, lambda a, b: int(a != b)))


def manhattan(puzzle):
    return TileTableHeuristic("manhattan", _table(puzzle, lambda a, b: abs(a[0] - b[0]) + abs(a[1] - b[1])))
