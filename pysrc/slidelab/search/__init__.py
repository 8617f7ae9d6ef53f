"""Puzzle-agnostic search algorithms, by name.

Each entry of ALGORITHMS says what the algorithm is and how to start it: `start(puzzle, heuristic, limits, options)`
returns a search generator (see control.py). Optimal algorithms return shortest paths. The options: "all_solutions"
(for those that can list them), "weight" (weighted A*), "parallel" (IDA* split over workers: the search generator
`parallel(puzzle, heuristic, limits, all_solutions)` that runs it, scheduler.py), "record" (a trace.Recorder told
every step, for those that can be traced).
"""

from __future__ import annotations


class Algorithm:
    """A search algorithm by name: what it is (title, a one-line description), whether its paths are shortest
    (`optimal`), whether it takes a heuristic, `start(puzzle, heuristic, limits, options)` giving its search generator,
    whether it can list every shortest solution, the puzzle kinds it solves, whether it ends on an unreachable goal
    (`exhaustive`; depth-first searches deepen for ever), whether it is worth waiting for pattern databases first
    (with auto or pdb; quick answers at once with the tables at hand), the weight W it uses by default when it takes
    one (f = g + W * h; None: it takes none) and whether it can be traced step by step (trace.py)."""

    def __init__(self, name, title, description, optimal, uses_heuristic, start, all_solutions=False,
                 kinds=frozenset({"sliding", "tokens"}), exhaustive=True, waits_for_tables=True, default_weight=None,
                 traceable=True, label=None):
        self.name = name
        self.title = title
        self.label = label or title  # how a sentence names it: "Greedy best-first", "IDDFS"
        self.description = description
        self.optimal = optimal
        self.uses_heuristic = uses_heuristic
        self.start = start
        self.all_solutions = all_solutions
        self.kinds = kinds
        self.exhaustive = exhaustive
        self.waits_for_tables = waits_for_tables
        self.default_weight = default_weight
        self.traceable = traceable


DEFAULT_WEIGHT = 2  # weighted A*'s W when none is given


def _bfs(puzzle, heuristic, limits, options):
    from slidelab.search.bfs import bfs
    return bfs(puzzle, limits, record=options.get("record"))


def _bidirectional(puzzle, heuristic, limits, options):
    from slidelab.search.bidirectional import bidirectional
    return bidirectional(puzzle, limits, record=options.get("record"))


def _iddfs(puzzle, heuristic, limits, options):
    from slidelab.search.iddfs import iddfs
    return iddfs(puzzle, limits, options.get("all_solutions", False), options.get("record"))


def _idastar(puzzle, heuristic, limits, options):
    parallel = options.get("parallel")
    if parallel is not None and options.get("record") is None:
        return parallel(puzzle, heuristic, limits, options.get("all_solutions", False))
    from slidelab.search.idastar import idastar
    return idastar(puzzle, heuristic, limits, options.get("all_solutions", False), options.get("record"))


def _astar(puzzle, heuristic, limits, options):
    from slidelab.search.best_first import best_first
    return best_first(puzzle, heuristic, limits, record=options.get("record"))


def _greedy(puzzle, heuristic, limits, options):
    from slidelab.search.best_first import best_first
    return best_first(puzzle, heuristic, limits, 0, 1, reopen=False, record=options.get("record"))


def _weighted(puzzle, heuristic, limits, options):
    from slidelab.search.best_first import best_first
    return best_first(puzzle, heuristic, limits, 1, options.get("weight", DEFAULT_WEIGHT), reopen=False,
                      record=options.get("record"))


def _quick(puzzle, heuristic, limits, options):
    from slidelab.search.quick import quick
    return quick(puzzle, heuristic, limits)


ALGORITHMS = {
    a.name: a
    for a in [
        Algorithm("bfs", "Breadth-first search", "Expands positions one depth at a time; shortest paths, but stores "
                  "every position it reaches.", True, False, _bfs, label="Breadth-first"),
        Algorithm("bidirectional", "Bidirectional BFS", "Breadth-first from the start and from the goal at once "
                  "until they meet; shortest paths, far fewer positions stored than one-way BFS.",
                  True, False, _bidirectional, label="Bidirectional"),
        Algorithm("iddfs", "Iterative deepening DFS", "Depth-first searches with a depth limit raised until the "
                  "goal is reached; no heuristic, memory only for the current path.", True, False, _iddfs, True,
                  exhaustive=False, label="IDDFS"),
        Algorithm("idastar", "IDA*", "Iterative deepening A*: depth-first contours bounded by g + h, raised until "
                  "the goal is reached; optimal with an admissible heuristic, memory only for the current path.",
                  True, True, _idastar, True, exhaustive=False),
        Algorithm("astar", "A*", "Best-first search: always expands the open position with the least g + h; "
                  "uniform-cost search with the zero heuristic; stores every position it reaches.", True, True, _astar),
        Algorithm("greedy", "Greedy best-first (not shortest)", "Best-first on h alone: always expands the open "
                  "position that looks closest to the goal, never reopening one; often fast, but a misleading "
                  "estimate leads it to long paths.", False, True, _greedy, label="Greedy best-first"),
        Algorithm("weighted", "Weighted A* (not shortest)", "Best-first on g + W * h (W = 2 unless chosen), never "
                  "reopening a position: fewer positions than A*; with a consistent heuristic, paths at most W times "
                  "the shortest.", False, True, _weighted, default_weight=DEFAULT_WEIGHT, label="Weighted A*"),
        Algorithm("quick", "Quick (not shortest)", "Solves the board line by line, the last 3x3 optimally: a "
                  "solution in a moment on any board, not necessarily shortest, shown with the best lower bound.",
                  False, True, _quick, kinds=frozenset({"sliding"}), waits_for_tables=False, traceable=False,
                  label="Quick"),
    ]
}
