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
    all_solutions: bool = False  # can enumerate every shortest solution
    kinds: frozenset = frozenset({"sliding", "tokens"})  # puzzle kinds it solves
    exhaustive: bool = True  # ends on an unreachable goal (False: depth-first, it deepens for ever)
    waits_for_tables: bool = True  # with auto or pdb, worth building or fetching pattern databases first (quick:
    # it answers at once with the tables at hand)


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
