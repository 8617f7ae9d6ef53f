"""Puzzle-agnostic search algorithms, by name.

Each entry of ALGORITHMS says what the algorithm is and how to start it: `start(puzzle, heuristic, limits, options)`
returns a search generator (see control.py). Optimal algorithms return shortest paths.
"""

from __future__ import annotations


class Algorithm:
    """A search algorithm by name: what it is (title, a one-line description), whether its paths are shortest
    (`optimal`), whether it takes a heuristic, `start(puzzle, heuristic, limits, options)` giving its search generator,
    whether it can list every shortest solution, the puzzle kinds it solves, whether it ends on an unreachable goal
    (`exhaustive`; depth-first searches deepen for ever), and whether it is worth waiting for pattern databases first
    (with auto or pdb; quick answers at once with the tables at hand)."""

    def __init__(self, name, title, description, optimal, uses_heuristic, start, all_solutions=False,
                 kinds=frozenset({"sliding", "tokens"}), exhaustive=True, waits_for_tables=True):
        self.name = name
        self.title = title
        self.description = description
        self.optimal = optimal
        self.uses_heuristic = uses_heuristic
        self.start = start
        self.all_solutions = all_solutions
        self.kinds = kinds
        self.exhaustive = exhaustive
        self.waits_for_tables = waits_for_tables


def _bfs(puzzle, heuristic, limits, options):
    from .bfs import bfs
    return bfs(puzzle, limits)


def _bidirectional(puzzle, heuristic, limits, options):
    from .bidirectional import bidirectional
    return bidirectional(puzzle, limits)


def _iddfs(puzzle, heuristic, limits, options):
    from .iddfs import iddfs
    return iddfs(puzzle, limits, all_solutions=options.get("all_solutions", False))


def _idastar(puzzle, heuristic, limits, options):
    from .idastar import idastar
    return idastar(puzzle, heuristic, limits, all_solutions=options.get("all_solutions", False))


def _astar(puzzle, heuristic, limits, options):
    from .astar import astar
    return astar(puzzle, heuristic, limits)


def _quick(puzzle, heuristic, limits, options):
    from .quick import quick
    return quick(puzzle, heuristic, limits)


ALGORITHMS = {
    a.name: a
    for a in [
        Algorithm("bfs", "Breadth-first search", "Expands positions one depth at a time; shortest paths, but stores "
                  "every position it reaches.", True, False, _bfs),
        Algorithm("bidirectional", "Bidirectional BFS", "Breadth-first from the start and from the goal at once "
                  "until they meet; shortest paths, far fewer positions stored than one-way BFS.",
                  True, False, _bidirectional),
        Algorithm("iddfs", "Iterative deepening DFS", "Depth-first searches with a depth limit raised until the "
                  "goal is reached; no heuristic, memory only for the current path.", True, False, _iddfs, True,
                  exhaustive=False),
        Algorithm("idastar", "IDA*", "Iterative deepening A*: depth-first contours bounded by g + h, raised until "
                  "the goal is reached; optimal with an admissible heuristic, memory only for the current path.",
                  True, True, _idastar, True, exhaustive=False),
        Algorithm("astar", "A*", "Best-first search: always expands the open position with the least g + h; "
                  "uniform-cost search with the zero heuristic; stores every position it reaches.", True, True, _astar),
        Algorithm("quick", "Quick (not shortest)", "Solves the board line by line, the last 3x3 optimally: a "
                  "solution in a moment on any board, not necessarily shortest, shown with the best lower bound.",
                  False, True, _quick, kinds=frozenset({"sliding"}), waits_for_tables=False),
    ]
}
