"""Dask explore: the indexed explore spread over the workers of a Dask cluster (dask.distributed).

A position's index in indexed_explore is `blank cell * half + rank`. Here the ranks 0 .. half - 1 are cut into P
equal ranges, and partition p holds the positions whose rank is in its range, with the blank on any cell: its
one-byte depth record is one block per blank cell. A sideways move keeps the rank, and a vertical one changes only
the Lehmer digits of the tiles it rotates, so most moves stay in their partition; only those that rotate the leading
tiles of the order can leave it. Every partition holds the same mix of blank cells, so all are of equal work over the
search; but a level's positions are not spread evenly over the ranks, so each worker thread gets
PARTITIONS_PER_THREAD of them, dealt out in turn (on 3x4 with two workers, the busier one made 4.8% more children per
level than the mean with four partitions, 14.8% with two: docs/explore-at-scale.md). Each record lives on one worker
for the whole search, as the value of a future pinned there (`workers=`), and is changed in place only by tasks
pinned to the same worker, one after the other.

A level is one step task per partition, with the same per-chunk code as on one machine (`frontier`, `Index.children`,
`mark`): the step marks the children sent to its partition that it has not seen yet at the current depth, then
expands its positions at that depth. A child in its own partition is marked at once, as on one machine; the others go
into one bucket per partition (int32 offsets there). Small tasks on the same worker hand out each bucket and the
step's counts; the next level's step of a partition takes the buckets sent to it as arguments, so its worker fetches
them straight from the workers that made them (the scheduler only says where they are). Duplicates are thus removed
where their record is, once the level's moves are made: delayed duplicate detection, as in Korf's disk-based search.
The client submits LOOKAHEAD levels ahead (a level waits for the buckets on the workers, not for the client), adds
up the counts, reports progress, checks the limits, and ends at the first empty level.
"""

from __future__ import annotations

import functools
import queue
import uuid
from collections import defaultdict

from slidelab.core.cluster import dask_client
from slidelab.core.control import PROGRESS_INTERVAL, Counts, Meter
from slidelab.core.errors import BadRequest, TooLarge
from slidelab.core.extras import require
from slidelab.space.explore import ExploreResult
from slidelab.space.indexed_explore import UNSEEN, Index, check_board, frontier, mark, progress

PARTITIONS_PER_THREAD = 2  # unless `partitions` is given: a worker's ranks are not all of one part of the space
LOOKAHEAD = 2  # levels submitted before the counts of the one before them are in
FETCH_TIMEOUT = 1  # seconds to wait for a result before looking whether its worker is still there


def dask_explore(puzzle, limits, scheduler=None, workers=2, partitions=None):
    """Search generator exploring every position of a sliding `puzzle` (up to 12 cells) on a Dask cluster.

    The same search, progress reports and result as `indexed_explore`; `extra` tells "workers", "partitions",
    "memory_bytes" (the records and tables on all workers), "worker_memory_bytes" and "worker_positions" (per
    worker), "bytes_sent" (the children sent between partitions, 4 bytes each), "bytes_sent_per_level" (by the level
    that made them), "bytes_between_workers" and "generated_per_worker" (per level, the children each worker made).
    `scheduler` is the address of a running cluster, all of whose workers are used and which is left running; without
    it a local cluster of `workers` processes (one thread each) is started, and closed at the end. `partitions`
    defaults to PARTITIONS_PER_THREAD per worker thread. Raises TooLarge at once for a larger board, or when a worker
    leaves the cluster; Unavailable when numpy or dask.distributed (the `scale` extra) is missing, or when the
    scheduler cannot be reached.
    """
    check_board(puzzle)
    if partitions is not None and not 0 < partitions < 1 << 16:
        raise BadRequest(f"partitions must be from 1 to 65,535, not {partitions}")
    numpy = require("exploring on Dask", "numpy", "distributed")
    return _search(numpy, puzzle, limits, scheduler, workers, partitions)


def _search(np, puzzle, limits, scheduler, workers, partitions):
    meter = Meter(limits, Counts(stored=1))  # its clock counts the cluster's start too
    with dask_client(scheduler, workers, "exploring on Dask") as client:
        run = Levels(client, ("positions", puzzle.rows, puzzle.cols, tuple(puzzle.goal)), partitions)
        index = run.index
        depths = yield from run.search([index.of(puzzle.goal)], meter)
        last = len(depths) - 1
        deepest = [run.fetch(run.submit(f"deepest-{p}", p, _deepest, run.records[p], last))
                   for p in range(run.count)]
        farthest = [index.state(run.layout.index_at(p, offset)) for p, offsets in enumerate(deepest)
                    for offset in offsets]
        start = index.of(puzzle.start)
        start_depth = None
        if start is not None:
            p, offset = run.layout.place(start)
            start_depth = run.fetch(run.submit("start", p, _depth_at, run.records[p], offset))
        meter.finish()
        return ExploreResult(depths, sorted(farthest), meter.stats, start_depth, run.extra(last))


class _Layout:
    """The partitions: partition p holds the ranks ranges[p] = lo .. hi - 1 (`length` of them, the last may hold
    fewer) with the blank on any cell, in a record of one block of hi - lo bytes per cell. `owners[p]` is its worker:
    `slots` names a worker once per thread, and the partitions are dealt out to the slots in turn."""

    def __init__(self, index, slots, count):
        self.index = index
        self.length = -(-index.half // count)
        self.ranges = [(lo, min(lo + self.length, index.half)) for lo in range(0, index.half, self.length)]
        self.owners = [slots[p % len(slots)] for p in range(len(self.ranges))]

    def place(self, i):
        """(the partition holding index i, its offset in that partition's record)."""
        b, rank = divmod(i, self.index.half)
        p = rank // self.length
        lo, hi = self.ranges[p]
        return p, b * (hi - lo) + rank - lo

    def index_at(self, p, offset):
        """The index of the position at `offset` in partition p's record."""
        lo, hi = self.ranges[p]
        b, rank = divmod(offset, hi - lo)
        return b * self.index.half + lo + rank

    def destinations(self, p):
        """The other partitions that moves from partition p may reach (the index says which ranks)."""
        (lo, hi), reached = self.ranges[p], set[int]()
        for first, last in self.index.reached(lo, hi):
            reached.update(range(first // self.length, last // self.length + 1))
        return sorted(reached - {p})


class Levels:
    """The breadth-first search over an index (`spec`, see `_index`) on a Dask cluster: its partitions, their
    records on the workers (`records`, futures), and how to run tasks where a partition lives (`submit`, `fetch`)."""

    def __init__(self, client, spec, partitions=None):
        self.client, self.spec = client, spec
        self.index = _index(spec)
        threads = client.nthreads()
        self.addresses = sorted(threads)
        slots = [address for address in self.addresses for _ in range(threads[address])]
        self.layout = _Layout(self.index, slots, partitions or PARTITIONS_PER_THREAD * len(slots))
        self.count = len(self.layout.ranges)
        self.run = uuid.uuid4().hex[:8]
        self.records = []
        self.sent = defaultdict(int)  # per level: bytes of the children made there and sent to other partitions
        # per level: the children each worker made
        self.made: defaultdict = defaultdict(lambda: [0] * len(self.addresses))
        self.between_workers = 0

    def submit(self, key, p, function, *args):
        """Run function(*args) on the worker of partition p."""
        return self.client.submit(function, *args, key=f"{key}-{self.run}", workers=[self.layout.owners[p]],
                                  pure=False)

    def check_workers(self):
        lost = set(self.layout.owners) - set(self.client.nthreads())
        if lost:  # its records are gone, and the tasks pinned to it would wait for it for ever
            raise TooLarge(f"the Dask worker {min(lost)} left the cluster (out of memory?) with its partitions")

    def fetch(self, future):
        """The result of `future`, unless its worker has left the cluster."""
        while True:
            try:
                return future.result(timeout=FETCH_TIMEOUT)
            except TimeoutError:
                self.check_workers()

    def search(self, starts, meter):
        """Search generator: the levels from the positions at indices `starts`, counted in `meter`; returns how many
        positions lie at each depth. The records stay on the workers, in `records`."""
        index, layout, count = self.index, self.layout, self.count
        destinations = [layout.destinations(p) for p in range(count)]
        at = defaultdict(list)
        for start in starts:
            p, offset = layout.place(start)
            at[p].append(offset)
        self.records = [self.submit(f"record-{p}", p, _new_record, index.size * (hi - lo), at.get(p, []))
                        for p, (lo, hi) in enumerate(layout.ranges)]
        # the buckets made by the last level submitted, per partition: (source, future)
        incoming: defaultdict = defaultdict(list)
        summaries: list = [None] * count  # the last level's summary future, per partition
        waiting: dict = {}  # summary future: (level, partition, the partitions its buckets came from)
        # the summary futures done, put there by Dask's callback thread
        finished: queue.SimpleQueue = queue.SimpleQueue()

        def submit_level(d):
            nonlocal incoming
            outgoing = defaultdict(list)
            for p, (lo, _) in enumerate(layout.ranges):
                sources = incoming.pop(p, [])
                step = self.submit(f"step-{d}-{p}", p, _step, self.records[p], summaries[p], self.spec, lo,
                                   layout.length, d, *(future for _, future in sources))
                summaries[p] = self.submit(f"summary-{d}-{p}", p, _summary, step)
                waiting[summaries[p]] = d, p, [source for source, _ in sources]
                summaries[p].add_done_callback(finished.put)
                for j in destinations[p]:
                    outgoing[j].append((p, self.submit(f"bucket-{d}-{p}-{j}", p, _bucket, step, j)))
            incoming = outgoing

        for d in range(LOOKAHEAD):
            submit_level(d)
        stats = meter.stats
        depths: list = []
        counts: defaultdict = defaultdict(int)
        left: defaultdict = defaultdict(lambda: count)  # per level: positions, steps to come
        while True:
            try:
                done = [finished.get(timeout=PROGRESS_INTERVAL)]
                while not finished.empty():
                    done.append(finished.get())
            except queue.Empty:
                done = []
                self.check_workers()
            for future in done:
                expanded, generated, sizes, _ = self.fetch(future)
                d, p, sources = waiting.pop(future)
                counts[d] += expanded
                left[d] -= 1
                stats.expanded += expanded
                stats.generated += generated
                self.made[d][self.addresses.index(layout.owners[p])] += generated
                self.sent[d - 1] += 4 * sum(sizes)
                self.between_workers += 4 * sum(size for source, size in zip(sources, sizes, strict=True)
                                                if layout.owners[source] != layout.owners[p])
            while not left[len(depths)] and counts[len(depths)]:  # a level is complete: submit one more
                depths.append(counts[len(depths)])
                submit_level(len(depths) + LOOKAHEAD - 1)
            if not left[len(depths)]:  # the level after the last is complete, and empty
                break
            stats.stored = stats.expanded
            if meter.due(stats.expanded):
                yield progress(meter, len(depths), index.total)
        self.client.cancel(list(waiting))  # the levels submitted beyond the last, which find nothing
        stats.stored = stats.expanded
        return depths

    def extra(self, last):
        """What the search's `extra` tells of the cluster (see dask_explore)."""
        layout, index = self.layout, self.index
        owned = [sum(index.size * (hi - lo)
                     for (lo, hi), owner in zip(layout.ranges, layout.owners, strict=True) if owner == address)
                 for address in self.addresses]
        per_worker = [index.nbytes + positions for positions in owned]
        return {"memory_bytes": sum(per_worker), "worker_memory_bytes": per_worker, "worker_positions": owned,
                "workers": len(self.addresses), "partitions": self.count, "bytes_sent": sum(self.sent.values()),
                "bytes_sent_per_level": [self.sent[d] for d in range(last + 1)],
                "bytes_between_workers": self.between_workers,
                "generated_per_worker": [self.made[d] for d in range(last + 1)]}


# The tasks: each runs on the worker owning the partition whose record it takes.

@functools.lru_cache(maxsize=8)
def _index(spec):
    """The index a spec names, built once per process (on the client and on every worker): ("positions", rows, cols,
    goal) is the explore's Index, ("placements", rows, cols, (cells, blank)) a pattern database's PlacementIndex."""
    import numpy

    kind, rows, cols, data = spec
    if kind == "placements":
        from slidelab.heuristics.pdb.placement_index import PlacementIndex

        return PlacementIndex(numpy, rows, cols, *data)
    return Index(numpy, rows, cols, data)


def _new_record(size, offsets):
    import numpy as np

    record = np.full(size, UNSEEN, np.uint8)
    record[offsets] = 0
    return record


def _step(record, after, spec, lo, length, depth, *buckets):
    """One level of the partition of the ranks from `lo`, once its level before is done (`after`, that level's
    summary): mark the children in `buckets` not reached yet at `depth`, then expand the positions at `depth`,
    marking their children in this partition at depth + 1 at once. Returns the summary (positions expanded, children
    made, the sizes of `buckets`, children marked here) and the other children: {partition: their int32 offsets
    there, in pieces of no duplicates}."""
    import numpy as np

    sizes = [sum(len(piece) for piece in bucket) for bucket in buckets]
    found = sum(mark(record, piece, depth) for bucket in buckets for piece in bucket)
    if depth and not found and not after[3]:
        return (0, 0, sizes, 0), {}
    index = _index(spec)
    width, own = len(record) // index.size, lo // length
    expanded = generated = ahead = 0
    children = defaultdict(list)
    for b in index.blocks_at(depth):
        for ranks in frontier(np, record[b * width:(b + 1) * width], depth):
            expanded += len(ranks)
            ranks += lo
            for q, targets in index.children(b, ranks):  # one move: no two targets are equal
                generated += len(targets)
                for p, offsets in _scatter(np, targets, q, length, index.half):
                    if p == own:
                        ahead += mark(record, offsets, depth + 1)
                    else:
                        children[p].append(offsets)
    return (expanded, generated, sizes, ahead), dict(children)


def _scatter(np, ranks, q, length, half):
    """Split the ranks of positions with the blank on cell q by partition: (partition, offsets in its record)."""
    if length >= half:
        return [(0, ranks + q * half)]
    low, high = int(ranks.min()) // length, int(ranks.max()) // length
    if low == high:
        return [(low, ranks + (q * min(length, half - low * length) - low * length))]
    parts = (ranks // length - low).astype(np.uint16)
    pieces = np.split(ranks[np.argsort(parts, kind="stable")], np.cumsum(np.bincount(parts))[:-1])
    return [(p, piece + (q * min(length, half - p * length) - p * length))
            for p, piece in enumerate(pieces, low) if len(piece)]


def _summary(step):
    return step[0]


def _bucket(step, p):
    return step[1].get(p, [])


def _deepest(record, depth):
    import numpy as np

    return [offset for offsets in frontier(np, record, depth) for offset in offsets.tolist()]


def _depth_at(record, offset):
    return int(record[offset])
