"""State spaces: how the breadth-first algorithms (BFS, bidirectional BFS) see a puzzle.

A space names each state by a hashable key and lists the keys next to a key. The algorithms are written once over
this small interface; `space_for` picks the representation:
- `PuzzleSpace` works for any puzzle: the key is the puzzle's own state and the neighbours are its `children`;
- `PackedSlidingSpace` is the sliding-tile kernel: a position is one int (a few bits per cell, the blank's cell in
  the lowest bits) and a move is integer arithmetic on a precomputed per-(blank, target) table, which is several
  times faster and smaller in memory than tuples.
Both keep no move in the search itself: `moves_along` recovers the moves of a path of states afterwards, so the path
replays forward whichever direction it was found in (every puzzle here has reversible moves).
"""

from __future__ import annotations

from itertools import pairwise

from slidelab.core.errors import SlideLabError


class PuzzleSpace:
    """Any puzzle through its interface: keys are states."""

    def __init__(self, puzzle):
        self.puzzle = puzzle
        self.start = puzzle.start
        self.goal = puzzle.goal
        self.neighbours = puzzle.children

    def state(self, key):
        return key


class PackedSlidingSpace:
    """A sliding puzzle with each position packed into one int: blank cell | cell p's tile << (p + 1) * width."""

    def __init__(self, puzzle):
        self.puzzle = puzzle
        self.size = size = puzzle.size
        self.width = width = max(1, (size - 1).bit_length())
        self.mask = mask = (1 << width) - 1
        # per blank cell b: for each neighbour cell q, (shift of q, change of the key by the tile t at q): t slides
        # to b, so the key grows by t * ((1 << shift of b) - (1 << shift of q)) and the blank field by q - b
        table = [
            [((q + 1) * width, [t * ((1 << (b + 1) * width) - (1 << (q + 1) * width)) + q - b for t in range(size)])
             for q in puzzle.neighbours[b]]
            for b in range(size)
        ]
        self.start = self.pack(puzzle.start)
        self.goal = self.pack(puzzle.goal)

        def neighbours(key):
            result = []
            for shift, change in table[key & mask]:
                result.append(key + change[(key >> shift) & mask])
            return result

        self.neighbours = neighbours

    def pack(self, state) -> int:
        key = state.index(0)
        for p, t in enumerate(state):
            key |= t << (p + 1) * self.width
        return key

    def state(self, key) -> tuple:
        width, mask = self.width, self.mask
        return tuple((key >> (p + 1) * width) & mask for p in range(self.size))


def space_for(puzzle, packed=True):
    """The fastest space that represents `puzzle` exactly (with `packed` false, one whose keys are the states, as a
    traced search wants them)."""
    if packed and puzzle.kind == "sliding":
        return PackedSlidingSpace(puzzle)
    return PuzzleSpace(puzzle)


def moves_along(puzzle, states) -> list:
    """The moves that take each state of `states` to the next one."""
    moves = []
    for state, following in pairwise(states):
        for move, child in puzzle.moves(state):
            if child == following:
                moves.append(move)
                break
        else:
            raise SlideLabError("internal error: two states of a path are not one move apart")
    return moves


def path_to(parent, key) -> list:
    """The keys from the root of a parent map (whose parent is None) to `key`."""
    path = []
    while key is not None:
        path.append(key)
        key = parent[key]
    path.reverse()
    return path
