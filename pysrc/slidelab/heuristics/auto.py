"""`auto`: the strongest heuristic at hand for the puzzle, without waiting for anything to be built.

Sliding puzzles: the 7-8 pattern databases when their tables are in the cache folder (the 15-puzzle, once
`slidelab pdb 4x4-78` has built them); else pattern databases when every table is in memory, in the cache folder or
quick to build (3x3 and smaller boards); else walking distance where its tables are small (boards up to 4x4); else
linear conflict (any board).
"""

from __future__ import annotations

from . import pdb
from .linear_conflict import linear_conflict
from .walking_distance import MAX_SIDE, walking_distance


def strongest(puzzle):
    """The estimator `auto` stands for on a sliding puzzle; its `name` says which it is."""
    if pdb.available(puzzle, table_set="pdb78"):
        return pdb.large_pattern_database(puzzle)
    if pdb.available(puzzle):
        return pdb.pattern_database(puzzle)
    if max(puzzle.rows, puzzle.cols) <= MAX_SIDE:
        return walking_distance(puzzle)
    return linear_conflict(puzzle)
