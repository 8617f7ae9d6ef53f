"""One search split over a Dask cluster's workers (`solve --engine dask`): the scheduler of forked processes, the same
answers and counts; a worker killed mid-search costs nothing but time; bad requests refused."""

import functools
import time

import pytest

distributed = pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")  # comes with distributed

from slidelab import api, cli  # noqa: E402
from slidelab.core import cluster  # noqa: E402
from test_dask_explore import no_new_workers, worker_processes  # noqa: E402
from test_parallel_idastar import KORF_79, KORF_GOAL  # noqa: E402

KORF_60 = "11 14 13 1/2 3 12 4/15 7 9 5/10 6 8 0"  # 66 moves


@pytest.fixture(scope="module")
def scheduler():
    with cluster.local_cluster(2) as local:
        yield local.scheduler_address


def complete_iterations(answer):
    """The iterations every worker searched to the end (the last stops at the first solution)."""
    return [(i["bound"], i["expanded"]) for i in answer["stats"]["iterations"][:-1]]


def test_korf_79_as_on_forked_processes(scheduler):
    request = {"board": KORF_79, "goal": KORF_GOAL, "heuristic": "pdb"}
    forked = api.solve(dict(request, workers=2))
    dask = api.solve(dict(request, scheduler=scheduler))
    assert dask["ok"] and dask["length"] == forked["length"] == 42 and dask["optimal"]
    assert dask["parallel"]["engine"] == "dask" and dask["parallel"]["subtrees"] == forked["parallel"]["subtrees"]
    per_worker = [w["expanded"] for w in dask["parallel"]["workers"]]
    assert len(per_worker) == 2 and min(per_worker) > 0
    assert sum(per_worker) <= dask["stats"]["expanded"]  # the split's own nodes come on top
    assert complete_iterations(dask) == complete_iterations(forked)  # one scheduler, one order, the same tree


def test_all_solutions_and_a_goal_met_while_splitting(scheduler):
    serial = api.solve({"board": "8 6 7/2 5 4/3 0 1", "heuristic": "manhattan", "all_solutions": True})
    dask = api.solve({"board": "8 6 7/2 5 4/3 0 1", "heuristic": "manhattan", "all_solutions": True,
                      "engine": "dask", "scheduler": scheduler})
    assert dask["length"] == serial["length"] == 31
    assert sorted(map(str, dask["solutions"])) == sorted(map(str, serial["solutions"]))
    near = api.solve({"board": "1 2 3/4 5 6/7 0 8", "scheduler": scheduler})
    assert near["length"] == 1 and near["parallel"]["subtrees"] == 0


def test_a_killed_worker_s_subtrees_go_to_another():
    request = {"board": KORF_79, "goal": KORF_GOAL, "heuristic": "manhattan"}
    undisturbed = api.solve(dict(request, workers=2))
    before = worker_processes()
    with cluster.local_cluster(2) as local:
        steps = api.solve_steps(dict(request, scheduler=local.scheduler_address))
        killed = False
        try:
            while True:
                event = next(steps)
                if event["type"] == "progress" and not killed and sum(event["workers"]) > 50_000:
                    psutil.Process(min(worker_processes() - before)).kill()
                    killed = True
        except StopIteration as stop:
            answer = stop.value
    assert killed and answer["ok"], answer
    assert answer["length"] == 42
    # every complete iteration still counts the whole tree within its bound: the lost subtrees were searched again
    assert complete_iterations(answer) == complete_iterations(undisturbed)
    assert no_new_workers(before)


def test_a_limit_ends_it_and_its_own_cluster():
    before = worker_processes()
    started = time.perf_counter()
    answer = api.solve({"board": KORF_79, "goal": KORF_GOAL, "heuristic": "manhattan", "engine": "dask",
                        "workers": 2, "max_seconds": 0.5})
    assert answer["error"]["code"] == "limit"
    assert time.perf_counter() - started < 30
    assert no_new_workers(before)


@pytest.mark.parametrize("request_, code, message", [
    ({"engine": "gpu"}, "invalid", "'engine' must be one of processes, dask"),
    ({"engine": "processes", "scheduler": "tcp://127.0.0.1:8786"}, "invalid", "for the dask engine"),
    ({"engine": "dask", "algorithm": "astar"}, "invalid", "only IDA*"),
    ({"engine": "dask", "heuristic_code": "def h(board, goal):\n    return 0\n"}, "invalid", "never on a Dask"),
    ({"scheduler": "not an address"}, "unavailable", "cannot reach the Dask scheduler"),
])
def test_refusals(request_, code, message):
    answer = api.solve(dict({"board": "8 6 7/2 5 4/3 0 1"}, **request_))
    assert answer["error"]["code"] == code and message in answer["error"]["message"], answer


def test_the_command_line(scheduler, capsys):
    assert cli.main(["solve", "8 6 7/2 5 4/3 0 1", "--heuristic", "manhattan", "--scheduler", scheduler]) == 0
    out = capsys.readouterr().out
    assert "31 moves (optimal)" in out and "2 Dask workers, 82 subtrees" in out
    assert cli.main(["solve", "8 6 7/2 5 4/3 0 1", "--engine", "processes", "--scheduler", scheduler]) == 2
    assert "for the dask engine" in capsys.readouterr().err


def test_a_task_stops_at_its_next_report_once_its_search_has_ended(scheduler):
    """A Python thread cannot be killed: a task of a search that has ended (its Dask Event set) stops itself."""
    from slidelab.api.split_search import split_of
    from slidelab.run.carriers import _search_on_dask
    from slidelab.run.scheduler import Task

    client = distributed.Client(scheduler, set_as_default=False)
    try:
        build = functools.partial(split_of, {"board": KORF_60, "goal": KORF_GOAL, "heuristic": "manhattan",
                                             "split_for": 2})
        topic = "slidelab-search-a-test"
        started = time.perf_counter()
        # a subtree of Korf's #60 with Manhattan distance, to a bound past its solution's: minutes, unless stopped
        searching = client.submit(_search_on_dask, build, Task(0, (0,), 72, 0), topic, pure=False)
        time.sleep(1)
        distributed.Event(topic, client=client).set()
        _, searched = searching.result(timeout=30)
        assert searched is None and time.perf_counter() - started < 10
    finally:
        client.close()


def test_a_search_stopped_on_dask_goes_on_from_its_checkpoint(scheduler, tmp_path):
    path = str(tmp_path / "korf79.json")
    request = {"board": KORF_79, "goal": KORF_GOAL, "heuristic": "manhattan", "scheduler": scheduler}
    undisturbed = api.solve(request)
    stopped = api.solve(dict(request, checkpoint=path, max_nodes=150_000))  # 104,805 before the last iteration
    assert stopped["error"]["code"] == "limit"
    resumed = api.solve(dict(request, resume=path))
    assert resumed["ok"] and resumed["length"] == 42 and resumed["parallel"]["checkpoint"]["resumed"]
    assert complete_iterations(resumed) == complete_iterations(undisturbed)


def test_a_worker_that_joins_gets_work(monkeypatch):
    from slidelab.run.carriers import DaskCarrier

    monkeypatch.setattr(DaskCarrier, "COUNT_EVERY_S", 0.2)
    before = worker_processes()
    with cluster.local_cluster(1) as local:
        steps = api.solve_steps({"board": "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3", "goal": KORF_GOAL,
                                 "heuristic": "linear_conflict", "scheduler": local.scheduler_address})
        try:
            while True:
                event = next(steps)
                if event["type"] == "progress" and len(local.workers) == 1:
                    local.scale(2)
        except StopIteration as stop:
            answer = stop.value
    assert answer["length"] == 57, answer
    assert 32 <= answer["parallel"]["subtrees"] < 64  # split for the one worker there at the start
    assert [w["expanded"] > 0 for w in answer["parallel"]["workers"]] == [True, True]
    assert no_new_workers(before)


def test_a_gone_client_s_task_frees_its_worker():
    """A client killed mid-search leaves its tasks cancelled: each stops at its next report, and the worker (one
    thread) takes the next client's work at once, not minutes later."""
    from slidelab.api.split_search import split_of
    from slidelab.run.carriers import _search_on_dask
    from slidelab.run.scheduler import Task

    with cluster.local_cluster(1) as local:
        gone = distributed.Client(local.scheduler_address, set_as_default=False)
        build = functools.partial(split_of, {"board": KORF_60, "goal": KORF_GOAL, "heuristic": "manhattan",
                                             "split_for": 2})
        # minutes of search, unless stopped
        searching = gone.submit(_search_on_dask, build, Task(0, (0,), 72, 0), "slidelab-search-gone", pure=False)
        deadline = time.monotonic() + 30
        while not searching.status == "pending" or not local.scheduler.tasks.get(searching.key) or \
                local.scheduler.tasks[searching.key].state != "processing":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(1)
        gone.close()
        client = distributed.Client(local.scheduler_address, set_as_default=False)
        try:
            started = time.perf_counter()
            assert client.submit(sum, [1, 2], pure=False).result(timeout=30) == 3
            assert time.perf_counter() - started < 5
        finally:
            client.close()
