"""IDA*: depth-first contours bounded by f = g + h, the bound raised until the goal is found (contour.py).

`idastar` picks the kernel the heuristic declares (`Estimator.kernel`, heuristics/estimator.py) on sliding
puzzles: per-tile tables (tile_table_idastar.py), a move-by-move tracker (incremental_idastar.py) or pattern
databases (pdb_idastar.py); every other case runs `generic_idastar` here, for any puzzle interface and any h(state).
All of them are the same algorithm, tested against each other: they never undo the previous move and step the bound
by the solution parity when the puzzle knows it. The generic one also skips, right after a move, the moves the puzzle
lists as `commuting_before(move)` (token puzzles: two moves on four different cells, in one fixed order only), except
when enumerating all solutions. A traced search (one given a `record`, trace.py) runs the generic one on any puzzle.
"""

from __future__ import annotations

from slidelab.core.control import CHECK_EVERY, Meter
from slidelab.search.contour import INF, deepen


def idastar(puzzle, heuristic, limits, all_solutions=False, record=None, came_by=(), one_contour=None, resume=None):
    """Search generator for IDA*; returns a SearchResult with optimal moves (and all optimal ones if asked). `came_by`
    (the positions a parallel search came by to this start, its parent last: not searched again) and `one_contour` (run
    just the contour of that bound) search one subtree of a parallel search (parallel_idastar.py). The
    pattern-database kernel tells where such a search is (its progress events' "at") and goes on from there
    (`resume`: such an event's "at", "expanded" and "generated"); the other kernels tell nothing and are never given
    a place to resume at."""
    kernel = heuristic.kernel if puzzle.kind == "sliding" and record is None else None
    if kernel == "tile_table":
        from slidelab.search.tile_table_idastar import tile_table_idastar
        return tile_table_idastar(puzzle, heuristic, limits, all_solutions, came_by, one_contour)
    if kernel == "pdb":
        from slidelab.search.pdb_idastar import pdb_idastar
        return pdb_idastar(puzzle, heuristic, limits, all_solutions, came_by, one_contour, resume)
    if kernel == "tracker":
        from slidelab.search.incremental_idastar import incremental_idastar
        return incremental_idastar(puzzle, heuristic, limits, all_solutions, came_by, one_contour)
    return generic_idastar(puzzle, heuristic, limits, all_solutions, record, came_by, one_contour)


def search_order(puzzle, heuristic, frontier):
    """The order IDA*'s search of the whole tree meets the subtrees of a parallel search's frontier (parallel_idastar
    .split), as a function of (indices into the frontier, the bound) -> those indices in that order. Most kernels
    search children in move order, the split's own (the identity); the pattern-database kernel ranks them near the
    root (pdb_idastar.search_order)."""
    if puzzle.kind == "sliding" and heuristic.kernel == "pdb":
        from slidelab.search.pdb_idastar import search_order as ranked_order
        return ranked_order(puzzle, heuristic, frontier)
    return lambda todo, bound: list(todo)


def generic_idastar(puzzle, heuristic, limits, all_solutions=False, record=None, came_by=(), one_contour=None):
    """Search generator: IDA* over the puzzle interface with any h(state); returns a SearchResult. A `record`
    (trace.Recorder) is told every step: each contour starts from a new root, and every child is a new node."""
    meter = Meter(limits)
    stats = meter.stats
    goal_test = puzzle.is_goal
    moves_of = puzzle.moves
    many = getattr(heuristic, "many", None)  # h of many states in one exchange (your code in a process of its own)

    def asked_moves(state, parent, skip) -> list:
        """A state's moves, the h of the children the search may evaluate asked for in one exchange."""
        moves = list(moves_of(state))
        many([child for move, child in moves if child != parent and move not in skip])  # type: ignore[misc]
        return moves

    no_skip: frozenset = frozenset()
    commuting_before = (lambda move: no_skip) if all_solutions else puzzle.commuting_before
    mask = CHECK_EVERY - 1
    start = puzzle.start
    solutions = []

    def contour(bound):
        over = INF
        # stack of (state, parent state, iterator over its moves, moves to skip); path holds the moves taken
        path: list = []
        stack = [(start, came_by[-1] if came_by else None, iter(moves_of(start)), no_skip)]
        stats.expanded += 1
        if record is not None:
            record.iteration(bound)
            record.root(start, heuristic(start))
            record.expand(start)
        while stack:
            state, parent, it, skip = stack[-1]
            for move, child in it:
                if child == parent or move in skip:
                    continue
                stats.generated += 1
                g = len(stack)
                f = g + heuristic(child)
                if f > bound:
                    if record is not None:
                        record.generate(child, g, "pruned", f - g, f)
                    if f < over:
                        over = f
                    continue
                if record is not None:
                    record.generate(child, g, "new", f - g, f)
                if goal_test(child):
                    if record is not None:
                        record.goal(child)
                    solutions.append(path + [move])
                    if not all_solutions:
                        return over
                    continue
                path.append(move)
                skip = commuting_before(move)
                stack.append((child, state, iter(asked_moves(child, state, skip) if many else moves_of(child)), skip))
                stats.expanded += 1
                if record is not None:
                    record.expand(child)
                if not stats.expanded & mask and meter.due(stats.expanded) or record is not None and record.due():
                    yield meter.progress(stored=len(stack), bound=bound)
                break
            else:
                stack.pop()
                if path:
                    path.pop()
        return over

    return (yield from deepen(contour, heuristic(start), puzzle.solution_parity(), meter, solutions, all_solutions,
                              goal_test(start), one_contour))
