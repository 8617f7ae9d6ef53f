"""Admissible lower bounds on the number of moves to the goal, by name.

An entry builds an Estimator (estimator.py) for one puzzle: a callable `h(state) -> int` with a `name`, which also
declares the IDA* kernel that can follow it move by move on sliding boards (`kernel`, see search/idastar.py).
"""

from __future__ import annotations

import importlib

from slidelab.core.errors import BadRequest


class Heuristic:
    """A heuristic by name: what it is (a title, a label for sentences, a description), and per puzzle kind it
    applies to, the "module:function" (in this package) that builds its Estimator for a puzzle, imported only when it
    is used (a command-line call imports only what it needs)."""

    def __init__(self, name, title, description, builders, label=None, browser=True):
        self.name = name
        self.browser = browser  # whether the page's picker offers it (the 7-8 tables come through the download line)
        self.title = title
        self.label = label or title.lower()  # how a sentence names it: "Manhattan distance", "misplaced tiles"
        self.description = description
        self.builders = builders

    @property
    def kinds(self) -> frozenset:
        return frozenset(self.builders)

    def build(self, puzzle):
        """The Estimator of this heuristic for `puzzle` (a kind it applies to)."""
        module, function = self.builders[puzzle.kind].split(":")
        return getattr(importlib.import_module(f"{__name__}.{module}"), function)(puzzle)


HEURISTICS = {
    h.name: h
    for h in [
        Heuristic("zero", "h = 0", "No information: A* becomes uniform-cost search, IDA* becomes iterative "
                  "deepening.", {"sliding": "sliding:zero", "tokens": "tokens:zero"}, label="h = 0"),
        Heuristic("misplaced", "Misplaced tiles", "How many tiles are not on their goal cell (the blank not "
                  "counted); each needs at least one move.", {"sliding": "sliding:misplaced"}),
        Heuristic("manhattan", "Manhattan distance", "The sum over tiles of their row plus column distance to "
                  "their goal cell; each move changes it by exactly one.", {"sliding": "sliding:manhattan"},
                  label="Manhattan distance"),
        Heuristic("nearest", "Nearest goal cell", "The sum over pieces of the fewest moves (on the move graph, other "
                  "pieces ignored) to the nearest goal cell of the piece's kind.", {"tokens": "tokens:nearest"},
                  label="nearest"),
        Heuristic("matching", "Optimal assignment", "The pieces of each kind assigned one to one to that kind's goal "
                  "cells at the least total move-graph distance (Hungarian method); never below nearest.",
                  {"tokens": "tokens:matching"}, label="matching"),
        Heuristic("linear_conflict", "Linear conflict", "Manhattan distance plus two moves for each tile that must "
                  "leave its goal row or column to let others pass (the fewest such tiles per line); any board.",
                  {"sliding": "linear_conflict:linear_conflict"}),
        Heuristic("walking_distance", "Walking distance", "Takahashi's row-wise and column-wise walking distances "
                  "(exact move counts of relaxed puzzles, from tables), each raised to the inversion distance; boards "
                  "up to 4x4.", {"sliding": "walking_distance:walking_distance"}),
        Heuristic("pdb", "Pattern databases", "Additive disjoint pattern databases (two 6-6-3 partitions on 4x4, "
                  "two 6-5 on 3x4): exact move counts of tile groups, added up; the largest sum counts, each "
                  "partition also mirrored on square boards; the tables come with the package or are built on "
                  "first use (slidelab pdb).", {"sliding": "pdb:pattern_database"}),
        Heuristic("pdb78", "Pattern databases 7-8", "Korf and Felner's 7-8 partition of the 15-puzzle (one 7-tile "
                  "and one 8-tile table, each also mirrored): 13 times fewer positions than pdb on Korf's 100; "
                  "the tables (92 MB of files, 580 MB in memory) are built once with numpy, about 35 minutes of one "
                  "core and 4.7 GB of memory (slidelab pdb 4x4-78); the page offers them as a download where the "
                  "site serves them.", {"sliding": "pdb:large_pattern_database"},
                  label="7-8 pattern databases", browser=False),
        Heuristic("pdb771", "Pattern databases 7-7-1", "A 7-7-1 partition of the 15-puzzle (two 7-tile tables and "
                  "one for tile 15, each also mirrored): 4 times fewer positions than pdb on Korf's 100; the page "
                  "offers its tables as a download (15 MB of files, 115 MB in memory); the package carries them for "
                  "the command line.",
                  {"sliding": "pdb:page_pattern_database"}, label="7-7-1 pattern databases"),
        Heuristic("pdb78dual", "Pattern databases 7-8, dual lookups", "The 7-8 tables looked up on the position "
                  "and its mirror image, and on its dual (the inverse permutation, where the tile named after the "
                  "blank's cell plays the blank) two more ways, with three more 7-tile tables (21 MB of files, 173 MB "
                  "in memory; slidelab pdb 4x4-78dual): half the positions of pdb78 on Korf's 100, for several times "
                  "its time.", {"sliding": "pdb:dual_pattern_database"}, label="7-8 pattern databases with dual "
                  "lookups", browser=False),
        Heuristic("pdb771dual", "Pattern databases 7-7-1, dual lookups", "The 7-7-1 tables with the dual lookups "
                  "of pdb78dual (the same three more tables; slidelab pdb 4x4-771dual).",
                  {"sliding": "pdb:dual_page_pattern_database"}, label="7-7-1 pattern databases with dual lookups",
                  browser=False),
        Heuristic("pdb6666", "Pattern databases 6-6-6-6", "Korf and Felner's 6-6-6-6 partition of the 24-puzzle "
                  "(four 6-tile tables, each sum also mirrored), for its optimal solutions; the tables (13 MB of "
                  "files, 127.5 M entries each) are built once with numpy, on one machine or a Dask cluster "
                  "(slidelab pdb 5x5-6666); the page offers them as a download where the site serves them.",
                  {"sliding": "pdb:twenty_four_pattern_database"}, label="6-6-6-6 pattern databases",
                  browser=False),
        Heuristic("yours", "Your heuristic", "Your own function h(board) in Python, checked on every call (a whole "
                  "number of at least 0, 0 at the goal); `slidelab check-heuristic` tells whether it is admissible "
                  "and consistent.", {"sliding": "user:needs_code", "tokens": "user:needs_code"}),
        Heuristic("auto", "Strongest available", "Pattern databases when their tables are at hand (the largest set "
                  "first: 7-8, 7-7-1, then the standard ones; 6-6-6-6 on 5x5), else walking distance, else linear "
                  "conflict (sliding); the optimal assignment (tokens).",
                  {"sliding": "auto:strongest", "tokens": "tokens:matching"}, label="auto"),
    ]
}


def heuristic_spec(name: str) -> Heuristic:
    """The named heuristic's entry; BadRequest if there is none."""
    spec = HEURISTICS.get(name)
    if spec is None:
        raise BadRequest(f"unknown heuristic '{name}'; choose one of: {', '.join(HEURISTICS)}")
    return spec


def get_heuristic(name: str, puzzle, chosen_tables=None):
    """The named heuristic's estimator for `puzzle`; BadRequest if unknown or not for this kind of puzzle.
    `chosen_tables`: the set of pattern databases `auto` uses, chosen by the page (pdb.auto_table_set)."""
    spec = heuristic_spec(name)
    if puzzle.kind not in spec.kinds:
        raise BadRequest(f"the {name} heuristic does not apply to {puzzle.kind} puzzles")
    if chosen_tables is not None and name == "auto" and puzzle.kind == "sliding":
        from slidelab.heuristics.auto import strongest
        return strongest(puzzle, chosen_tables)
    return spec.build(puzzle)
