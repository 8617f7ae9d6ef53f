"""The complete check of a heuristic on a sliding board of up to 12 cells (numpy, the `scale` extra): every one of a
3x4 board's 239,500,800 positions and every move, a proof either way like check.py's on smaller boards.

Three passes over the perfect index of indexed_explore.py:
1. the depth record, by that module's breadth-first search (the exact distance of every position);
2. h of every position, into a flat array at the position's index. This is the only pass that runs the heuristic,
   once per position, so it takes most of the time; it is split over forked workers that write into one shared
   array. A task is the positions with the blank on one cell and the tile order starting with one prefix: their
   Lehmer ranks are consecutive, so `itertools.permutations` of the other tiles walks them in index order, two ranks
   a position (the index dropped the last bit, which the parity tables give back);
3. the tally, vectorised: a histogram of (distance, h) pairs gives the counts, sums, extremes and overestimates, and
   every move of every position, found by `Index.children` as in the search, gives the largest drop of h.

Memory: one byte a position for the depths and two for h: about 720 MB for a 3x4 board. A value of h above 65,535 is
refused with the board it was given on (it overestimates anyway: no position of 12 cells is that far).
"""

from __future__ import annotations

import itertools
import math
import mmap
from collections import deque

from slidelab.core.control import Counts, Meter
from slidelab.core.errors import UserCodeError
from slidelab.core.extras import require
from slidelab.core.workers import MAX_TRIES, ForkedPool, GaveUp, fork_unavailable, portable, serve
from slidelab.space.indexed_explore import CHUNK, check_board, depth_record

H_CAP = 65_535  # the largest h the array holds (uint16)
TASK_TILES = 9  # a task walks the orders of this many tiles (9!/2 = 181,440 positions), the others fixed
POLL_S = 0.05  # how often the driver looks at the clock while workers evaluate


def indexed_check_steps(puzzle, heuristic, limits, workers: int = 1, examples: int = 0, evaluators=None):
    """Search generator: the complete check of `heuristic` on a sliding `puzzle` of up to 12 cells, h evaluated by
    `workers` forked processes (1: in this one), or by `evaluators` (a function of the tasks that yields each task
    and its values as 16-bit bytes, as they come: processes where the heuristic's code runs alone, which is then
    never run here). Returns the report of check.py's `check_steps` (plus "memory_bytes"), with the `examples`
    largest overestimates. Raises TooLarge for a larger board and Unavailable without numpy."""
    check_board(puzzle)
    numpy = require("a complete check of this board", "numpy")
    return (yield from _check(numpy, puzzle, heuristic, limits, workers, examples, evaluators))


def _check(np, puzzle, heuristic, limits, workers, examples, evaluators):
    from slidelab.space.check import Tally

    meter = Meter(limits, Counts(stored=1))
    stats = meter.stats
    index, record, depths = yield from depth_record(np, puzzle, meter)
    searched = stats.expanded
    values = np.frombuffer(mmap.mmap(-1, 2 * index.total), np.uint16)  # anonymous, shared: workers write into it
    tasks = Tasks(index)
    done = 0
    evaluated = (_evaluate(np, index, tasks, heuristic, values, workers) if evaluators is None
                 else _evaluated_by(np, index, tasks, values, evaluators))
    for count in evaluated:
        done += count
        stats.expanded = searched + done
        if meter.due(stats.expanded):
            yield meter.progress(stored=index.total, depth=len(depths) - 1, phase="h", positions=done,
                                 total=index.total)
    tally = Tally(examples)
    yield from _tally(np, index, record, values, tally, meter)
    _exact_extremes(index, heuristic, tally)
    answer = tally.report(puzzle, True, heuristic.name)
    stats.expanded, stats.stored = searched, index.total  # each position expanded once, by the search
    meter.finish()
    answer["stats"] = stats.as_dict()
    answer["memory_bytes"] = record.nbytes + 2 * index.total + index.nbytes
    return answer


class Tasks:
    """The evaluation's tasks, (blank cell, prefix number): the positions with the blank on that cell whose tile order
    starts with the prefix-th k-tile prefix in lexicographic order, at half ranks prefix * span .. + span."""

    def __init__(self, index):
        m = index.size - 1
        k = max(0, m - TASK_TILES)
        self.prefixes = list(itertools.permutations(range(1, m + 1), k))
        self.span = math.factorial(m - k) // 2
        self.all = [(b, p) for b in range(index.size) for p in range(len(self.prefixes))]


def _evaluate(np, index, tasks, heuristic, values, workers):
    """Fill `values` with h of every position; yields the positions done as tasks finish."""
    if workers > 1 and fork_unavailable() is None:
        pool = ForkedPool(min(workers, len(tasks.all)), _serve, (np, index, tasks, heuristic, values))
        try:
            for event in pool.feed(deque(tasks.all), lambda task: task, POLL_S):
                if event is None:
                    yield 0
                    continue
                if isinstance(event, GaveUp):  # the heuristic ends its process (os._exit), or crashes it
                    raise UserCodeError(f"the process evaluating {heuristic.name} died each of the {MAX_TRIES} "
                                        f"times it evaluated h on a part of the board (last: {event.how}); the check "
                                        "is given up", reason="ended", how=event.how)
                worker, message = event
                pool.finish(worker)
                if message[0] == "error":
                    raise message[1]
                yield tasks.span
        finally:
            pool.close()
        return
    for task in tasks.all:
        _evaluate_task(np, index, tasks, heuristic, values, task)
        yield tasks.span


def _evaluated_by(np, index, tasks, values, evaluators):
    """Fill `values` with what `evaluators` send for each task (checked to be one 16-bit value a position); yields
    the positions done as tasks finish (0 while none does)."""
    for task, data in evaluators(list(tasks.all)):
        if task is None:
            yield 0
            continue
        if len(data) != 2 * tasks.span:
            raise UserCodeError("the process running your heuristic sent something else than its values",
                                reason="ended", how="sent something else")
        b, number = task
        at = b * index.half + number * tasks.span
        values[at:at + tasks.span] = np.frombuffer(data, np.uint16)
        yield tasks.span


def _serve(conn, np, index, tasks, heuristic, values):
    """A worker: evaluate the tasks the driver sends until the pipe closes."""

    def answer(task):
        try:
            _evaluate_task(np, index, tasks, heuristic, values, task)
        except Exception as e:
            return "error", portable(e)
        return ("done",)

    serve(conn, answer)


def _evaluate_task(np, index, tasks, heuristic, values, task) -> None:
    """h of the positions of one task, written at their indices."""
    b, number = task
    at = b * index.half + number * tasks.span
    values[at:at + tasks.span] = task_values(np, index, tasks, heuristic, task)


def task_values(np, index, tasks, heuristic, task):
    """h of the positions of one task, in index order, as 16-bit values (above H_CAP: the heuristic's bad value)."""
    b, number = task
    head = tasks.prefixes[number]
    k = len(head)
    start = number * tasks.span
    half = np.arange(start, start + tasks.span, dtype=np.int64)
    # Two consecutive ranks differ in the order of the last two tiles; the parity the blank's cell allows picks one.
    second = index.low_parity[half % index.low_count] ^ index.high_parity[half // index.low_count] ^ index.parity[b]
    rest = [t for t in range(1, index.size) if t not in head]
    orders = itertools.permutations(rest)
    h = heuristic
    found: list[int] = []
    keep = found.append
    pairs = zip(zip(orders, orders, strict=True), second.tolist(), strict=True)  # two ranks a position
    if b < k:  # the blank among the fixed tiles
        before = head[:b] + (0,) + head[b:]
        for (first, other), pick in pairs:
            keep(h(before + (other if pick else first)))
    else:
        cut = b - k
        for (first, other), pick in pairs:
            order = other if pick else first
            keep(h(head + order[:cut] + (0,) + order[cut:]))
    at = b * index.half + start
    if max(found) > H_CAP:
        i = next(i for i, value in enumerate(found) if value > H_CAP)
        state = index.state(at + i)
        refuse = getattr(heuristic, "bad_value", None)
        why = f"the numpy engine holds values of h up to {H_CAP:,} (no position of 12 cells is that far: it " \
              "overestimates)"
        if refuse is None:
            raise ValueError(f"h is {found[i]} on a position, above {H_CAP:,}")
        refuse(state, found[i], why)
    return np.array(found, np.uint16)


def _tally(np, index, record, values, tally, meter):
    """The counts, sums, extremes, overestimates and the worst drop along a move, from the two arrays."""
    width = int(values.max()) + 1
    histogram = np.zeros(int(record.max() + 1) * width, np.int64)
    worst_gap, worst_at = 0, None
    for start in range(0, index.total, CHUNK):
        h = values[start:start + CHUNK].astype(np.int64)
        distance = record[start:start + CHUNK].astype(np.int64)
        histogram += np.bincount(distance * width + h, minlength=len(histogram))
        gap = h - distance
        j = int(gap.argmax())
        if gap[j] > worst_gap:
            worst_gap, worst_at = int(gap[j]), start + j
        if tally.wanted and gap[j] > 0:
            over = np.flatnonzero(gap > 0)
            if len(over) > tally.wanted:
                over = over[np.argsort(-gap[over], kind="stable")[:tally.wanted]]
            for i in over.tolist():
                tally.example(int(gap[i]), start + i, start + i, int(h[i]), int(distance[i]))
    pairs = histogram.reshape(-1, width)
    h_values = np.arange(width)
    for distance, row in enumerate(pairs):
        count = int(row.sum())
        if not count:
            continue
        seen = np.flatnonzero(row)
        sum_h = int((row * h_values).sum())
        tally.by_distance[distance] = [count, sum_h, int(seen[0]), int(seen[-1])]
        tally.positions += count
        tally.sum_h += sum_h
        tally.sum_distance += count * distance
        if distance < width:
            tally.exact += int(row[distance])
        tally.over += int(row[distance + 1:].sum())
    if worst_at is not None:
        tally.worst = (worst_gap, worst_at, int(record[worst_at]))  # an index: _exact_extremes makes it a position
    drop, drop_at = 1, None  # a drop of 1 along a move of cost 1 is allowed
    for b in range(index.size):
        here = index.block(values, b)
        for start in range(0, index.half, CHUNK):
            ranks = np.arange(start, min(start + CHUNK, index.half), dtype=np.int32)
            h_from = here[start:start + CHUNK].astype(np.int32)
            for q, targets in index.children(b, ranks):
                fall = h_from - index.block(values, q)[targets]
                j = int(fall.argmax())
                if fall[j] > drop:
                    drop, drop_at = int(fall[j]), (b * index.half + start + j, q * index.half + int(targets[j]))
            if meter.due(meter.stats.expanded):
                yield meter.progress(stored=index.total, depth=int(record.max()), phase="moves",
                                     positions=b * index.half + start, total=index.total)
    if drop_at is not None:
        tally.drop = (drop, *drop_at)


def _exact_extremes(index, heuristic, tally) -> None:
    """The worst overestimate and the worst drop as check.py reports them: positions, and h computed again (the array
    holds at most H_CAP)."""
    if tally.worst is not None:
        _, at, distance = tally.worst
        state = index.state(at)
        h = heuristic(state)
        tally.worst = (h - distance, state, h, distance)
    tally.examples = [(gap, order, index.state(at), h, distance) for gap, order, at, h, distance in tally.examples]
    if tally.drop is not None:
        _, frm, to = tally.drop
        frm, to = index.state(frm), index.state(to)
        h_from, h_to = heuristic(frm), heuristic(to)
        tally.drop = (h_from - h_to, frm, to, h_from, h_to)
