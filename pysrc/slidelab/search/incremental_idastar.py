"""IDA* kernel for sliding puzzles whose heuristic follows the board move by move (linear conflict, walking
distance): the heuristic's tracker gives each child's h from the moved tile alone (`probe`), makes a move (`push`),
and takes it back by pushing the reverse move. The board is one mutable list, the path an explicit stack.
Tested against the generic IDA*.
"""

from __future__ import annotations

from slidelab.core.control import CHECK_EVERY, Meter
from slidelab.search.contour import INF, deepen


def incremental_idastar(puzzle, heuristic, limits, all_solutions=False, came_by=(), one_contour=None):
    """Search generator: IDA* with a heuristic that has `tracker(state)`; returns a SearchResult. `came_by` and
    `one_contour` serve parallel searches (see tile_table_idastar)."""
    meter = Meter(limits)
    stats = meter.stats
    size = puzzle.size
    nbrs = puzzle.neighbours
    excl = [[tuple(q for q in nbrs[b] if q != prev) for prev in range(size)] + [nbrs[b]] for b in range(size)]
    board = list(puzzle.start)
    goal = list(puzzle.goal)
    b0 = board.index(0)
    tracker = heuristic.tracker(puzzle.start)
    probe, push = tracker.probe, tracker.push
    h0 = tracker.h
    solutions = []
    mask = CHECK_EVERY - 1

    def contour(bound):
        cap = bound + 2
        blanks, moved, ci = [0] * cap, [0] * cap, [0] * cap
        cands: list = [()] * cap
        blanks[0], cands[0] = b0, excl[b0][came_by[-1].index(0) if came_by else size]
        depth = 0
        over = INF
        expanded = stats.expanded
        generated = stats.generated
        expanded += 1  # the root
        b = b0
        while depth >= 0:
            i = ci[depth]
            cl = cands[depth]
            if i < len(cl):
                ci[depth] = i + 1
                nb = cl[i]
                t = board[nb]
                generated += 1
                h = probe(t, nb, b)
                f = depth + 1 + h
                if f > bound:
                    if f < over:
                        over = f
                    continue
                push()
                board[b] = t
                board[nb] = 0
                depth += 1
                moved[depth] = t
                if h == 0 and board == goal:
                    solutions.append(moved[1:depth + 1])
                    if not all_solutions:
                        break
                else:
                    blanks[depth] = nb
                    cands[depth] = excl[nb][b]
                    ci[depth] = 0
                    b = nb
                    expanded += 1
                    if not expanded & mask and meter.due(expanded):
                        stats.expanded, stats.generated = expanded, generated
                        yield meter.progress(stored=depth + 1, bound=bound)
                    continue
            else:
                if depth == 0:
                    break
                nb, b = blanks[depth], blanks[depth - 1]
                t = moved[depth]
            # take back tile t: it goes home to cell nb, the blank back to cell b
            probe(t, b, nb)
            push()
            board[nb] = t
            board[b] = 0
            depth -= 1
        stats.expanded, stats.generated = expanded, generated
        return over

    return (yield from deepen(contour, h0, puzzle.solution_parity(), meter, solutions, all_solutions, board == goal,
                              one_contour))
