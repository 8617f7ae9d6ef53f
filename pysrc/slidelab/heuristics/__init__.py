"""Admissible lower bounds on the number of moves to the goal, by name.

An entry builds an estimator for one puzzle: a callable `h(state) -> int`. Estimators that are sums of per-tile
tables (zero, misplaced, manhattan) also expose `tile_table[tile][cell]`, which the fast sliding-tile kernels update
incrementally per move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..errors import InvalidBoard
from . import auto, sliding, tokens
from .linear_conflict import linear_conflict
from .pdb import pattern_database
from .walking_distance import walking_distance

_BUILD_ZERO = {"sliding": sliding.zero, "tokens": tokens.zero}  # h = 0, in the form each kind's search uses


@dataclass(frozen=True)
class Heuristic:
    name: str
    title: str
    description: str
    kinds: frozenset  # puzzle kinds it applies to
    build: Callable  # puzzle -> estimator


HEURISTICS = {
    h.name: h
    for h in [
        Heuristic("zero", "h = 0", "No information: A* becomes uniform-cost search, IDA* becomes iterative "
                  "deepening.", frozenset({"sliding", "tokens"}), lambda puzzle: _BUILD_ZERO[puzzle.kind](puzzle)),
        Heuristic("misplaced", "Misplaced tiles", "How many tiles are not on their goal cell (the blank not "
                  "counted); each needs at least one move.", frozenset({"sliding"}), sliding.misplaced),
        Heuristic("manhattan", "Manhattan distance", "The sum over tiles of their row plus column distance to "
                  "their goal cell; each move changes it by exactly one.", frozenset({"sliding"}), sliding.manhattan),
        Heuristic("nearest", "Nearest goal cell", "The sum over pieces of the fewest moves (on the move graph, other "
                  "pieces ignored) to the nearest goal cell of the piece's kind.", frozenset({"tokens"}),
                  tokens.nearest),
        Heuristic("matching", "Optimal assignment", "The pieces of each kind assigned one to one to that kind's goal "
                  "cells at the least total move-graph distance (Hungarian method); never below nearest.",
                  frozenset({"tokens"}), tokens.matching),
        Heuristic("linear_conflict", "Linear conflict", "Manhattan distance plus two moves for each tile that must "
                  "leave its goal row or column to let others pass (the fewest such tiles per line); any board.",
                  frozenset({"sliding"}), linear_conflict),
        Heuristic("walking_distance", "Walking distance", "Takahashi's row-wise and column-wise walking distances "
                  "(exact move counts of relaxed puzzles, from tables), each raised to the inversion distance; boards "
                  "up to 4x4.", frozenset({"sliding"}), walking_distance),
        Heuristic("pdb", "Pattern databases", "Additive disjoint pattern databases (two 6-6-3 partitions on 4x4, "
                  "two 6-5 on 3x4): exact move counts of tile groups, added up; the largest sum counts, each "
                  "partition also mirrored on square boards. Needs "
                  "tables built once (slidelab pdb).", frozenset({"sliding"}), pattern_database),
        Heuristic("auto", "Strongest available", "Pattern databases when their tables are at hand, else walking "
                  "distance, else linear conflict (sliding); the optimal assignment (tokens).",
                  frozenset({"sliding", "tokens"}), auto.strongest),
    ]
}


def heuristic_spec(name: str) -> Heuristic:
    """The named heuristic's entry; InvalidBoard if there is none."""
    spec = HEURISTICS.get(name)
    if spec is None:
        raise InvalidBoard(f"unknown heuristic '{name}'; choose one of: {', '.join(HEURISTICS)}")
    return spec


def get_heuristic(name: str, puzzle):
    """The named heuristic's estimator for `puzzle`; InvalidBoard if unknown or not for this kind of puzzle."""
    spec = heuristic_spec(name)
    if puzzle.kind not in spec.kinds:
        raise InvalidBoard(f"the {name} heuristic does not apply to {puzzle.kind} puzzles")
    return spec.build(puzzle)
