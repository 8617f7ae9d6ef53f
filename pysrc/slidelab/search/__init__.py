"""Puzzle-agnostic search algorithms, by name.

Each entry of ALGORITHMS says what the algorithm is and how to start it: `start(puzzle, heuristic, limits, options)`
returns a search generator (see control.py). Optimal algorithms return shortest paths.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Algorithm:
    name: str
    title: str
    description: str
    optimal: bool
    uses_heuristic: bool
    start: Callable


def _idastar(puzzle, heuristic, limits, options):
    from .idastar import idastar
    return idastar(puzzle, heuristic, limits, all_solutions=options.get("all_solutions", False))


ALGORITHMS = {
    a.name: a
    for a in [
        Algorithm("idastar", "IDA*", "Iterative deepening A*: depth-first contours bounded by g + h, raised until "
                  "the goal is reached; optimal with an admissible heuristic, memory only for the current path.",
                  True, True, _idastar),
    ]
}
