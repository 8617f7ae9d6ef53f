"""`auto`: the strongest heuristic at hand for the puzzle, without waiting for anything to be built.

Sliding puzzles: the largest set of pattern databases whose tables are all at hand (pdb.auto_table_set: the 7-8 tables
of the 15-puzzle once `slidelab pdb 4x4-78` has built them, the 7-7-1 ones (the package carries them; the page once the
user chose its download), the standard ones when in memory, in the cache folder or quick to build); else walking
distance where its tables are small (boards up to 4x4); else linear conflict (any board).
"""

from __future__ import annotations

from slidelab.heuristics import pdb


def strongest(puzzle, chosen_tables=None):
    """The estimator `auto` stands for on a sliding puzzle; its `name` says which it is. `chosen_tables`: the set of
    pattern databases the page chose (see pdb.auto_table_set)."""
    table_set = pdb.auto_table_set(puzzle, chosen_tables)
    if table_set is not None:
        return pdb.pattern_database(puzzle, table_set=table_set)
    from slidelab.heuristics.walking_distance import MAX_SIDE, walking_distance

    if max(puzzle.rows, puzzle.cols) <= MAX_SIDE:
        return walking_distance(puzzle)
    from slidelab.heuristics.linear_conflict import linear_conflict

    return linear_conflict(puzzle)
