"""Dask explore: on a 2-worker local cluster, the same answers as the indexed explore; its own cluster; limits."""

import sys
import time
from itertools import pairwise

import pytest

distributed = pytest.importorskip("distributed")
pytest.importorskip("numpy")
psutil = pytest.importorskip("psutil")  # comes with distributed

from slidelab.core import cluster  # noqa: E402
from slidelab.core.control import Limits, run  # noqa: E402
from slidelab.core.errors import BadRequest, SearchLimit, TooLarge, Unavailable  # noqa: E402
from slidelab.core.puzzles.sliding import SlidingPuzzle, default_goal  # noqa: E402
from slidelab.space.dask_explore import dask_explore  # noqa: E402
from slidelab.space.explore import ExploreResult  # noqa: E402
from slidelab.space.indexed_explore import indexed_explore  # noqa: E402
from test_indexed_explore import DEPTHS_3X4  # noqa: E402

PROGRESS_KEYS = {"type", "expanded", "generated", "stored", "depth", "elapsed_s", "nodes_per_s", "positions", "total"}


@pytest.fixture(scope="module")
def scheduler():
    with cluster.local_cluster(2) as local:
        yield local.scheduler_address


def worker_processes():
    """The pids of the processes this one spawned for Dask workers (multiprocessing's spawn)."""
    return {p.pid for p in psutil.Process().children(recursive=True) if "spawn_main" in " ".join(p.cmdline())}


def no_new_workers(before, seconds=10):
    deadline = time.monotonic() + seconds
    while worker_processes() - before and time.monotonic() < deadline:
        time.sleep(0.1)
    return not worker_processes() - before


def assert_same(result, puzzle):
    expected = run(indexed_explore(puzzle, Limits()))
    assert isinstance(result, ExploreResult)
    assert result.depths == expected.depths
    assert result.farthest == expected.farthest
    assert result.start_depth == expected.start_depth
    assert result.stats.expanded == result.stats.stored == puzzle.state_count()
    assert result.stats.generated == expected.stats.generated
    extra = result.extra
    assert extra["workers"] == len(extra["worker_memory_bytes"]) == 2
    assert extra["memory_bytes"] == sum(extra["worker_memory_bytes"]) >= puzzle.state_count()
    assert extra["bytes_sent"] == sum(extra["bytes_sent_per_level"]) >= extra["bytes_between_workers"] > 0
    assert sum(map(sum, extra["generated_per_worker"])) == result.stats.generated


@pytest.mark.parametrize("start, goal, partitions, start_depth", [
    ("8 6 7/2 5 4/3 0 1", "1 2 3/4 5 6/7 8 0", None, 31),  # two partitions per worker
    ("2 1 0/3 4 5/6 7 8", "0 1 2/3 4 5/6 7 8", 5, None),  # unsolvable; partitions split cells and span them
])
def test_3x3_as_indexed_explore(scheduler, start, goal, partitions, start_depth):
    puzzle = SlidingPuzzle.from_text(start, goal)
    result = run(dask_explore(puzzle, Limits(), scheduler, partitions=partitions))
    assert result.states == 181440 and result.max_depth == 31 and result.start_depth == start_depth
    assert_same(result, puzzle)
    assert result.extra["partitions"] == (partitions or 4)
    if partitions is None:  # 34,560 of the 483,840 children leave their partition, 23,040 their worker
        assert (result.extra["bytes_sent"], result.extra["bytes_between_workers"]) == (4 * 34560, 4 * 23040)


def test_2x5_as_indexed_explore_with_progress(scheduler):
    puzzle = SlidingPuzzle(2, 5, default_goal(2, 5))
    events = []
    result = run(dask_explore(puzzle, Limits(), scheduler, partitions=2), events.append)
    assert result.states == 1814400 and result.max_depth == 55 and result.start_depth == 0
    assert_same(result, puzzle)
    assert events and all(set(event) == PROGRESS_KEYS and event["total"] == 1814400 for event in events)
    assert all(b["elapsed_s"] - a["elapsed_s"] >= 0.099 for a, b in pairwise(events))
    assert all(a["expanded"] <= b["expanded"] and a["depth"] <= b["depth"] for a, b in pairwise(events))


@pytest.mark.slow
def test_3x4(scheduler):
    puzzle = SlidingPuzzle(3, 4, default_goal(3, 4))
    result = run(dask_explore(puzzle, Limits(), scheduler))
    assert result.states == 239500800 and result.max_depth == 53 and len(result.farthest) == 18
    assert result.depths == DEPTHS_3X4
    assert puzzle.parse("0 3 2 1/8 7 6 5/4 11 10 9") in result.farthest
    assert max(result.extra["worker_memory_bytes"]) < 150 * 2 ** 20


def test_own_local_cluster_is_closed_at_the_end():
    before = worker_processes()
    puzzle = SlidingPuzzle.from_text("8 6 7/2 5 4/3 0 1")
    result = run(dask_explore(puzzle, Limits(), workers=2))
    assert result.start_depth == 31 and result.extra["workers"] == 2
    assert_same(result, puzzle)
    assert no_new_workers(before)


def test_a_limit_stops_it_and_closes_its_cluster():
    class WatchedLimits(Limits):
        def check(self, nodes, now):
            running.append(len(worker_processes() - before))
            super().check(nodes, now)

    before, running = worker_processes(), []
    with pytest.raises(SearchLimit, match="time limit"):
        run(dask_explore(SlidingPuzzle(2, 5, default_goal(2, 5)), WatchedLimits(max_seconds=0.5)))
    assert running and max(running) == 2  # its two workers were there when the limit was checked
    assert no_new_workers(before)


def test_a_lost_worker_stops_it():
    before = worker_processes()
    search = dask_explore(SlidingPuzzle(2, 5, default_goal(2, 5)), Limits())
    next(search)  # its cluster is up
    psutil.Process(min(worker_processes() - before)).kill()
    with pytest.raises(TooLarge, match="left the cluster"):
        run(search)
    assert no_new_workers(before)


def test_closing_it_leaves_a_given_cluster_running(scheduler):
    search = dask_explore(SlidingPuzzle(2, 5, default_goal(2, 5)), Limits(), scheduler)
    assert next(search)["type"] == "progress"
    search.close()
    result = run(dask_explore(SlidingPuzzle.from_text("1 2 3/4 5 6/7 0 8"), Limits(), scheduler))
    assert result.start_depth == 1


def test_refusals(monkeypatch):
    with pytest.raises(TooLarge, match="up to 12 cells"):
        dask_explore(SlidingPuzzle(4, 4, default_goal(4, 4)), Limits())
    with pytest.raises(BadRequest, match="partitions must be from 1"):
        dask_explore(SlidingPuzzle(2, 2, default_goal(2, 2)), Limits(), partitions=0)
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 0.5)
    with pytest.raises(Unavailable, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        run(dask_explore(SlidingPuzzle(2, 2, default_goal(2, 2)), Limits(), "tcp://127.0.0.1:9"))
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` raises ImportError
    with pytest.raises(Unavailable, match=r'pip install "\.\[scale\]"'):
        dask_explore(SlidingPuzzle(3, 3, default_goal(3, 3)), Limits())
