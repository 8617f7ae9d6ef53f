"""Parallel IDA* (search/parallel_idastar.py): the same lengths and solution counts as the serial search on every kind
of puzzle and kernel, statistics per worker, and no worker left behind by a cancel, a limit or a death."""

import importlib
import multiprocessing
import os
import random
import signal
import sys

import pytest

from slidelab import api
from slidelab.contract import request as requests
from slidelab.core.puzzles.sliding import SlidingPuzzle, random_position
from slidelab.core.workers import MAX_TRIES, ForkedPool, cores
from slidelab.search.parallel_idastar import split

KORF_79 = "0 1 9 7/11 13 5 3/14 12 4 2/8 6 10 15"  # 42 moves, the easiest of Korf's 100 (540,860 nodes with Manhattan)
KORF_GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"


def _board(cells, cols):
    return "/".join(" ".join(map(str, cells[i:i + cols])) for i in range(0, len(cells), cols))


def _both(request, workers=2):
    serial = api.solve(request)
    parallel = api.solve(dict(request, workers=workers))
    assert serial["ok"] and parallel["ok"], (serial, parallel)
    assert parallel["length"] == serial["length"]
    assert parallel["optimal"]
    assert "parallel" not in serial and len(parallel["parallel"]["workers"]) == workers  # the split search ran
    assert parallel["parallel"]["subtrees"] >= workers * 8 or parallel["parallel"]["subtrees"] == 0
    if parallel["parallel"]["subtrees"] and sys.platform == "linux":  # workers ran, and /proc tells their memory
        memory = parallel["parallel"]["worker_memory_bytes"]
        assert isinstance(memory, int) and memory > 0
    return serial, parallel


@pytest.mark.parametrize("heuristic", ["manhattan", "misplaced", "linear_conflict", "walking_distance", "pdb"])
def test_random_3x3_positions_agree_with_the_serial_search(heuristic):
    rng = random.Random(7)
    for _ in range(12):
        board = _board(random_position(3, 3, rng=rng), 3)
        _both({"board": board, "algorithm": "idastar", "heuristic": heuristic})


def test_3x4_and_4x4_positions_agree_with_the_serial_search():
    rng = random.Random(11)
    for rows, cols, heuristic in [(3, 4, "auto"), (3, 4, "walking_distance"), (4, 4, "pdb"), (4, 4, "auto")]:
        puzzle = SlidingPuzzle(rows, cols, tuple(range(1, rows * cols)) + (0,))
        state = puzzle.goal
        for _ in range(3):
            for _ in range(40):  # a random walk: hard enough to need several iterations, quick to solve
                state = rng.choice([child for _, child in puzzle.moves(state)])
            _both({"board": _board(state, cols), "heuristic": heuristic})


def test_korf_79_with_pattern_databases_and_the_work_split_evenly():
    serial, parallel = _both({"board": KORF_79, "goal": KORF_GOAL, "heuristic": "pdb"})
    assert parallel["length"] == 42
    per_worker = [w["expanded"] for w in parallel["parallel"]["workers"]]
    assert len(per_worker) == 2 and min(per_worker) > 0
    # every iteration but the last searches the same tree: the same nodes, but for the start's split
    for s, p in zip(serial["stats"]["iterations"][-3:-1], parallel["stats"]["iterations"][-3:-1], strict=True):
        assert s["bound"] == p["bound"]
        assert abs(s["expanded"] - p["expanded"]) <= 100


def test_knights_and_token_puzzles_agree_with_the_serial_search():
    _both({"puzzle": "knights"})
    _both({"puzzle": "guarini"})
    rng = random.Random(3)
    cells = list("BBBWWW......")
    for _ in range(6):
        rng.shuffle(cells)
        goal = cells[:]
        rng.shuffle(goal)
        board = "/".join("".join(cells[i:i + 3]) for i in range(0, 12, 3))
        goal_text = "/".join("".join(goal[i:i + 3]) for i in range(0, 12, 3))
        _both({"puzzle": "knights", "board": board, "goal": goal_text, "max_seconds": 60})


@pytest.mark.parametrize("request_, count", [
    ({"board": "8 6 7/2 5 4/3 0 1", "heuristic": "manhattan"}, 40),
    ({"board": "6 4 7/8 5 0/3 2 1", "heuristic": "linear_conflict"}, 40),
    ({"board": "2 5 1 3/6 0 7 4/9 10 11 8/13 14 15 12"}, 2),
    ({"puzzle": "tokens", "board": "W#B/.../B#W", "goal": "B#W/.../W#B", "rule": "orthogonal"}, 296),
])
def test_all_solutions_are_every_workers_solutions(request_, count):
    serial, parallel = _both(dict(request_, all_solutions=True))
    assert parallel["solution_count"] == serial["solution_count"] == count
    assert sorted(map(tuple, map(_hashable, parallel["solutions"]))) == sorted(
        map(tuple, map(_hashable, serial["solutions"])))


def _hashable(moves):
    return [tuple(m) if isinstance(m, list) else m for m in moves]


def test_a_goal_inside_the_split_is_found_there():
    answer = api.solve({"board": "1 2 3/4 5 6/7 0 8", "workers": 2})
    assert answer["ok"] and answer["length"] == 1 and answer["parallel"]["subtrees"] == 0
    goals, frontier, _, _ = split(SlidingPuzzle.from_text("1 2 3/4 0 6/7 5 8"), 100)
    assert goals and frontier is None and all(len(g) == 2 for g in goals)
    assert api.solve({"board": "1 2 3/4 5 6/7 8 0", "workers": 2})["length"] == 0


def _no_workers_left():
    children = multiprocessing.active_children()  # also reaps finished ones
    return not children


def test_cancel_leaves_no_worker_running():
    steps = api.solve_steps({"board": KORF_79, "goal": KORF_GOAL, "heuristic": "manhattan", "workers": 2})
    try:
        # a busy machine may report before the workers have: wait (a little) for their first nodes
        for _ in range(50):
            event = next(steps)
            if event["type"] == "progress" and sum(event["workers"]) > 0:
                break
        pids = [p.pid for p in multiprocessing.active_children()]
        assert len(pids) == 2
        assert len(event["workers"]) == 2 and sum(event["workers"]) > 0
    finally:
        steps.close()
    assert _no_workers_left()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_a_limit_stops_every_worker():
    answer = api.solve({"board": KORF_79, "goal": KORF_GOAL, "heuristic": "manhattan", "workers": 2,
                        "max_nodes": 50_000})
    assert answer["error"]["code"] == "limit"
    assert _no_workers_left()


def test_a_worker_that_dies_is_replaced_and_its_subtree_searched_again():
    request = {"board": KORF_79, "goal": KORF_GOAL, "heuristic": "manhattan", "workers": 2}
    undisturbed = api.solve(request)
    steps = api.solve_steps(request)
    killed_in = None  # the iteration (counted from 0) in which a worker was killed
    iterations = 0
    try:
        while True:
            event = next(steps)
            if event["type"] == "iteration":
                iterations += 1
            elif event["type"] == "progress" and killed_in is None and iterations >= 1:
                os.kill(multiprocessing.active_children()[0].pid, signal.SIGKILL)
                killed_in = iterations
    except StopIteration as stop:
        answer = stop.value
    assert killed_in is not None and answer["ok"], answer
    assert answer["length"] == 42
    assert answer["parallel"]["workers_replaced"] >= 1
    done = answer["stats"]["iterations"]
    assert killed_in < len(done) - 1  # the iteration it died in completed, and was not the last one
    # every complete iteration counts the nodes of the whole tree within its bound, as the undisturbed run's do: the
    # dead worker's subtree was searched again in full (its partial count is dropped with it)
    assert done[:-1] == undisturbed["stats"]["iterations"][:-1]
    assert _no_workers_left()


def _kernel_replaced(monkeypatch, kernel):
    """The IDA* kernel the (forked) workers run, replaced; and a list that grows by one per worker started."""
    monkeypatch.setattr(importlib.import_module("slidelab.search.idastar"), "idastar", kernel)
    started = []
    start = ForkedPool._start

    def counted(pool):
        started.append(1)
        if len(started) > 20:  # workers started without end: fail, rather than hang
            raise AssertionError("more than 20 workers started")
        return start(pool)

    monkeypatch.setattr(ForkedPool, "_start", counted)
    return started


def test_an_exception_in_a_worker_is_answered_not_redone(monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("the kernel broke")

    started = _kernel_replaced(monkeypatch, broken)
    answer = api.solve({"board": KORF_79, "goal": KORF_GOAL, "heuristic": "manhattan", "workers": 2})
    assert answer["error"]["code"] == "internal"
    assert "ValueError: the kernel broke" in answer["error"]["message"]
    assert len(started) == 2  # no worker was replaced
    assert _no_workers_left()


def test_a_subtree_that_kills_every_worker_ends_the_search(monkeypatch):
    def fatal(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGKILL)

    started = _kernel_replaced(monkeypatch, fatal)
    answer = api.solve({"board": KORF_79, "goal": KORF_GOAL, "heuristic": "manhattan", "workers": 2})
    assert answer["error"]["code"] == "internal"
    assert f"died each of the {MAX_TRIES} times it searched subtree" in answer["error"]["message"]
    assert "SIGKILL" in answer["error"]["message"]
    # each of the two subtrees being searched is tried MAX_TRIES times at most (one retry policy with batch's)
    assert MAX_TRIES <= len(started) <= 2 + 2 * MAX_TRIES
    assert _no_workers_left()


@pytest.mark.parametrize("workers, message", [(-1, "'workers' must be"), ("two", "'workers' must be"),
                                              (10_000, "'workers' must be"), (True, "'workers' must be")])
def test_bad_worker_counts_are_refused(workers, message):
    answer = api.solve({"board": "8 6 7/2 5 4/3 0 1", "workers": workers})
    assert answer["error"]["code"] == "invalid" and message in answer["error"]["message"]


def test_only_idastar_is_split_and_zero_means_one_per_core():
    answer = api.solve({"board": "8 6 7/2 5 4/3 0 1", "algorithm": "astar", "workers": 2})
    assert answer["error"]["code"] == "invalid" and "only IDA*" in answer["error"]["message"]
    assert api.solve({"board": "8 6 7/2 5 4/3 0 1", "algorithm": "astar", "workers": 1})["ok"]
    answer = api.solve({"board": "8 6 7/2 5 4/3 0 1", "heuristic": "manhattan", "workers": 0})
    assert answer["length"] == 31 and len(answer["parallel"]["workers"]) == cores()


def test_one_per_core_counts_the_cores_this_process_may_use(monkeypatch):
    if not hasattr(os, "sched_getaffinity"):
        pytest.skip("no CPU affinity on this platform")
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2})
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    assert cores() == 3
    answer = api.solve({"board": "8 6 7/2 5 4/3 0 1", "heuristic": "manhattan", "workers": 0})
    assert answer["length"] == 31 and len(answer["parallel"]["workers"]) == 3


def _drive_as_the_page_does(request, workers=2, lose=0, fail=False, forge=False):
    """web/js/pool.js, in CPython: the page's solver runs the scheduler ("engine": "page") and asks the page to queue
    tasks (in the round's order), for the next one when it takes one, and for what the other workers reported; here
    the other worker searches one queued task per question (api.subtree_steps, as a Web Worker would); the first
    `lose` tasks it is handed are lost once (their runtime died), with `fail` the first answers an error, and with
    `forge` every answer claims a solution that is not one. Returns (the solve answer, its iteration events)."""
    from slidelab.core.control import run

    steps = api.solve_steps(dict(request, engine="page", workers=workers, split_after_s=0))
    base, waiting, events, reply = None, [], [], None
    while True:
        try:
            event = steps.send(reply)
        except StopIteration as stop:
            return stop.value, events
        reply = None
        if "ask" not in event:
            if event["type"] == "iteration":
                events.append(event)
            continue
        question = event["ask"]["pool"]
        base = question.get("request", base)
        assert base["split_for"] == workers and "engine" not in base
        waiting = sorted(waiting + question["start"], key=lambda task: task["place"])
        taken = waiting.pop(0)["id"] if question["take"] and waiting else None
        told = []
        if waiting:
            task = waiting.pop(0)
            if lose:
                lose -= 1
                told.append({"type": "lost", "task": task["id"], "how": "its runtime died", "died": True})
            elif fail:
                told.append({"type": "failed", "task": task["id"], "error": {"code": "missing_data",
                                                                             "message": "no tables here"}})
            else:
                answer = run(api.subtree_steps(dict(base, subtree=task["subtrees"], bound=task["bound"])))
                answer = dict(answer, solutions=[[1, 2]]) if forge else answer
                told.append({"type": "done", "task": task["id"], "worker": 1, "answer": answer})
        reply = {"workers": list(range(1, workers)), "take": taken, "events": told}


@pytest.mark.parametrize("request_", [
    {"board": "8 6 7/2 5 4/3 0 1", "heuristic": "manhattan"},
    {"board": "8 6 7/2 5 4/3 0 1", "heuristic": "manhattan", "all_solutions": True},
    {"board": "1 2 3/4 5 6/7 0 8"},
    {"puzzle": "knights"},
    {"board": KORF_79, "goal": KORF_GOAL, "heuristic": "pdb"},
    # 16 moves, over 20,000 nodes without a heuristic: the split's probe stops, the goal is proved reachable, it splits
    {"puzzle": "tokens", "rule": "orthogonal", "board": "ABC/DEF/GH.", "goal": "HB./ADE/GCF", "heuristic": "zero"},
    # two tokens swapped (an odd permutation): no check proves it unreachable, the split's proof does, as a solve's
    {"puzzle": "tokens", "rule": "orthogonal", "board": "ABC/DEF/GH.", "goal": "BAC/DEF/GH."},
])
def test_the_pages_pool_protocol_gives_the_serial_answer(request_):
    (parallel, events), serial = _drive_as_the_page_does(request_), api.solve(request_)
    if not serial["ok"]:
        assert serial["error"]["code"] == "unsolvable"
        assert parallel["error"] == serial["error"]
        return
    assert parallel["ok"] and parallel["length"] == serial["length"] and parallel["optimal"]
    assert parallel.get("solution_count") == serial.get("solution_count")
    # searched in rounds (not met by the split; a token puzzle's probe, split too, reports no iterations)
    if parallel.get("parallel", {}).get("subtrees") and (events or request_.get("puzzle") is None):
        iterations = parallel["stats"]["iterations"]
        assert [{"bound": e["bound"], "expanded": e["expanded"]} for e in events] == iterations
        # the serial search's bounds, but those whose contours lie inside the split
        bounds, serial_bounds = [i["bound"] for i in iterations], [i["bound"] for i in serial["stats"]["iterations"]]
        assert set(bounds) <= set(serial_bounds) and bounds[-1] == serial_bounds[-1] == serial["length"]


def test_the_pages_pool_and_the_processes_run_the_same_iterations():
    """One scheduler: the page's pool and the command line's processes give the same events and node counts (every
    subtree is searched in full but in the last iteration, where the first solution stops the others)."""
    request = {"board": "8 6 7/2 5 4/3 0 1", "heuristic": "manhattan"}
    page, events = _drive_as_the_page_does(request, workers=2)
    processes, process_events = [], []
    answer = api.solve(dict(request, workers=2), on_progress=process_events.append)
    processes = [e for e in process_events if e["type"] == "iteration"]
    assert [(e["bound"], e["expanded"]) for e in events][:-1] == [(e["bound"], e["expanded"])
                                                                  for e in processes][:-1]
    assert page["length"] == answer["length"] == 31
    assert page["stats"]["iterations"][:-1] == answer["stats"]["iterations"][:-1]
    assert [w["expanded"] > 0 for w in page["parallel"]["workers"]] == [True, True]


def test_a_task_lost_in_the_page_is_searched_again_and_an_error_ends_the_search():
    request = {"board": KORF_79, "goal": KORF_GOAL, "heuristic": "pdb"}
    undisturbed, _ = _drive_as_the_page_does(request)
    answer, _ = _drive_as_the_page_does(request, lose=2)
    assert answer["length"] == 42 and answer["parallel"]["workers_replaced"] == 2
    assert answer["stats"]["iterations"][:-1] == undisturbed["stats"]["iterations"][:-1]
    failed, _ = _drive_as_the_page_does(request, fail=True)
    assert failed["error"]["code"] == "missing_data" and failed["error"]["message"] == "no tables here"
    forged, _ = _drive_as_the_page_does(request, forge=True)  # every answer is replayed: a made-up path never passes
    assert forged["error"]["code"] == "internal" and "does not reach the goal" in forged["error"]["message"]


def test_a_token_search_split_over_workers_proves_its_goal_reachable_as_a_solve_does():
    reachable = {"puzzle": "tokens", "rule": "orthogonal", "board": "ABC/DEF/GH.", "goal": "HB./ADE/GCF",
                 "heuristic": "zero"}
    split = api.solve(dict(reachable, workers=2))
    assert split["length"] == api.solve(reachable)["length"] == 16 and split["parallel"]["subtrees"] >= 32
    unreachable = api.solve(dict(reachable, goal="BAC/DEF/GH.", heuristic="auto", workers=2))
    assert unreachable["error"]["code"] == "unsolvable"  # proved, never deepened for ever
    quick = api.solve(dict(reachable, goal="DAC/GH./FBE", workers=2))
    assert quick["length"] == 13 and quick["optimal"]


@pytest.mark.parametrize("request_, message", [
    ({"board": "8 6 7/2 5 4/3 0 1", "algorithm": "astar", "split_for": 2}, "only IDA*"),
    ({"board": "8 6 7/2 5 4/3 0 1", "split_for": 0}, "'split_for' must be"),
    ({"board": "8 6 7/2 5 4/3 0 1", "split_for": 10 ** 6}, "'split_for' must be"),
    ({"board": "8 6 7/2 5 4/3 0 1", "split_for": "2"}, "'split_for' must be"),
    ({"board": "8 6 7/2 5 4/3 0 0", "split_for": 2}, "appears more than once"),
    ({"board": "8 6 7/2 5 4/3 0 1", "split_for": 2, "max_seconds": 5}, "a search split over workers takes no"),
])
def test_bad_split_requests_are_refused(request_, message):
    from slidelab.core.control import run

    answer = run(api.subtree_steps(dict(request_, subtree=0, bound=30)))
    assert answer["error"]["code"] == "invalid" and message in answer["error"]["message"]


def test_a_subtree_request_reports_as_often_as_it_is_asked():
    """The page's pool workers report every PageCarrier.PROGRESS_S (a stop reaches them when they report); a batch's
    keep the default interval."""
    from slidelab.api.split_search import split_of
    from slidelab.core.control import CHECK_EVERY

    request = {"board": "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3", "goal": "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15",
               "heuristic": "manhattan", "split_for": 1}  # Korf's #1: 57 moves
    everything = dict(request, subtree=list(range(len(split_of(request).frontier))), bound=47)  # no solution
    for progress_s, least, most in ((0, 3, None), (3600, 0, 0)):
        steps, reports = api.subtree_steps(everything, progress_s), 0
        try:
            while True:
                reports += next(steps)["type"] == "progress"
        except StopIteration as stop:
            answer = stop.value
        assert answer["ok"] and answer["solutions"] == [] and answer["expanded"] > 2 * CHECK_EVERY
        assert reports >= least and (most is None or reports <= most)


def test_bad_subtree_requests_and_answers_are_refused():
    from slidelab.api.split_search import searched_of
    from slidelab.core.control import run
    from slidelab.core.errors import BadRequest

    base = {"board": "8 6 7/2 5 4/3 0 1", "split_for": 2}
    for extra in ({"subtree": 99, "bound": 30}, {"subtree": "0", "bound": 30}, {"subtree": 0, "bound": None}):
        answer = run(api.subtree_steps(dict(base, **extra)))
        assert answer["error"]["code"] == "invalid" and "'subtree' must be" in answer["error"]["message"]
    good = {"subtree": [0], "sizes": [5], "solutions": [], "over": 24, "expanded": 5, "generated": 9}
    assert searched_of(good, 32).sizes == {0: 5}
    for bad in (dict(good, subtree=[99]), dict(good, sizes="5"), dict(good, expanded=-1), {"subtree": 0}, None):
        with pytest.raises(BadRequest):
            searched_of(bad, 32)


def test_a_group_of_subtrees_is_searched_as_its_members_are_one_by_one():
    from slidelab.core.control import run

    base = {"board": "8 6 7/2 5 4/3 0 1", "heuristic": "manhattan", "split_for": 2}
    bound = 21 + 6  # Manhattan's 21 is the first bound
    members = [run(api.subtree_steps(dict(base, subtree=i, bound=bound))) for i in range(5)]
    group = run(api.subtree_steps(dict(base, subtree=list(range(5)), bound=bound)))
    assert group["sizes"] == [m["expanded"] for m in members] and group["subtree"] == [0, 1, 2, 3, 4]
    assert group["expanded"] == sum(m["expanded"] for m in members)
    assert group["over"] == min(m["over"] for m in members if m["over"] is not None)
    assert group["solutions"] == []  # none within a bound below the solution's 31


def test_groups_join_small_neighbours_and_leave_every_worker_two_tasks():
    from slidelab.search.parallel_idastar import GROUP_NODES, Round, groups

    small, big = GROUP_NODES // 4, GROUP_NODES
    round_ = Round(40, list(range(8)), [small, small, small, big, small, small, 1, 1])
    assert groups(round_, 1) == [[0, 1, 2], [3], [4, 5, 6, 7]]
    assert groups(round_, 2) == [[0, 1], [2], [3], [4, 5], [6, 7]]  # at most 8 / (2 x 2) subtrees a task
    assert groups(Round(40, [5], [0]), 4) == [[5]]
    # a subtree of unknown size (0) goes alone, whatever its neighbours
    assert groups(Round(40, list(range(6)), [1, 1, 0, 1, 0, 0]), 1) == [[0, 1], [2], [3], [4], [5]]


def test_a_first_round_tells_which_subtrees_are_a_handful_of_nodes():
    """Before a subtree is searched its size is unknown (0), but for one whose root's f is the bound: 1 (its root,
    and children cut but those that keep f), so that such subtrees travel together."""
    from slidelab.core.control import Counts
    from slidelab.heuristics import get_heuristic
    from slidelab.search.parallel_idastar import iterations

    puzzle = SlidingPuzzle(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1), (1, 2, 3, 4, 5, 6, 7, 8, 0))
    heuristic = get_heuristic("manhattan", puzzle)
    _, frontier, _, _ = split(puzzle, 16)
    f_of = {i: g + heuristic(state) for i, (g, state, _, _) in enumerate(frontier)}
    first = next(iterations(puzzle, heuristic, frontier, Counts(), from_bound=max(f_of.values())))
    assert first.bound == max(f_of.values()) and len(first.todo) == len(frontier)
    assert first.sizes == [int(f_of[i] == first.bound) for i in first.todo]
    assert 0 in first.sizes and 1 in first.sizes  # both kinds occur here


def test_the_engine_says_which_searches_a_pool_splits():
    """web/js/pool.js and a batch ask the one rule (requests.may_split): IDA* without limits or your heuristic."""
    board = {"board": "8 6 7/2 5 4/3 0 1"}
    assert api.splits(board) == {"ok": True, "splits": True}
    assert api.splits({})["splits"]  # a batch's options carry no board
    for other in ({"algorithm": "astar"}, {"max_nodes": 1000}, {"max_seconds": 2.5},
                  {"heuristic_code": "def h(board):\n    return 0\n"}):
        assert api.splits(dict(board, **other)) == {"ok": True, "splits": False}, other
    assert api.splits(dict(board, algorithm="dfs"))["error"]["code"] == "invalid"


def test_a_search_begins_in_one_runtime_and_is_split_once_its_next_iteration_is_predicted_long():
    """With split_after_s, an easy search never pays for a split, and a long one is split from the bound the serial
    iterations reached, which are counted with it."""
    request = {"board": KORF_79, "goal": KORF_GOAL, "heuristic": "pdb"}
    serial = api.solve(request)["stats"]
    never = api.solve(dict(request, workers=2, split_after_s=1000))  # no iteration is predicted to take that long
    assert "parallel" not in never and never["length"] == 42
    assert never["stats"]["iterations"] == serial["iterations"] and never["stats"]["expanded"] == serial["expanded"]
    early = api.solve(dict(request, workers=2, split_after_s=1e-9))  # split after the first iteration
    first = serial["iterations"][0]
    assert early["length"] == 42 and len(early["parallel"]["workers"]) == 2
    assert early["stats"]["iterations"][0] == first  # the serial one, counted
    assert [i["bound"] for i in early["stats"]["iterations"]] == [i["bound"] for i in serial["iterations"]]
    assert early["stats"]["expanded"] > first["expanded"]
    assert requests.parse_solve({"board": KORF_79, "engine": "page", "workers": 2}).parallel.after_s == 0.05
    assert requests.parse_solve({"board": KORF_79, "workers": 2}).parallel.after_s == 0  # --workers: at once
    assert api.solve(dict(request, workers=2, split_after_s=-1))["error"]["message"].startswith("'split_after_s'")


def test_warm_prepares_the_kernel_for_a_split_search_before_it_starts():
    """api.warm, which the page's pool asks of an extra worker while the search begins alone: the pattern-database
    kernel's move tables for the request's goal are built then, not in the first subtree; a request that is not split
    is left alone, and one that cannot be searched says why."""
    from slidelab.search import pdb_idastar

    pdb_idastar._MOVE_TABLES.clear()
    request = {"board": "8 6 7/2 5 4/3 0 1", "heuristic": "pdb"}
    assert api.warm(request) == {"ok": True, "warmed": True}
    assert len(pdb_idastar._MOVE_TABLES) == 1
    assert api.warm(request) == {"ok": True, "warmed": True} and len(pdb_idastar._MOVE_TABLES) == 1  # kept
    assert api.warm(dict(request, algorithm="astar")) == {"ok": True, "warmed": False}
    assert api.warm(dict(request, max_nodes=10)) == {"ok": True, "warmed": False}
    assert api.warm({"board": "1 2 3/4 5 6/7 8 8"})["error"]["code"] == "invalid"


def test_the_pages_solver_ends_at_once_when_its_own_task_finds_a_solution():
    """PageCarrier.poll: a solution in the solver's own task is handed to the scheduler at once (the page stops the
    other workers when the answer comes); a task that ends without one is reported with the next question."""
    from slidelab.run.carriers import PageCarrier
    from slidelab.run.scheduler import Ask, Done, Task
    from slidelab.search.contour import INF
    from slidelab.search.parallel_idastar import Searched

    def task_ending_with(solutions):
        return Searched({0: 5}, solutions, INF, 5, 9)
        yield  # a search generator that ends at once

    carrier = PageCarrier(None, None, [None], False, {}, None)
    carrier.local = Task(0, (0,), 30, 0), task_ending_with([[(1, 2)]])
    events = carrier.poll(0.05)
    assert isinstance(events, list) and [type(e) for e in events] == [Done] and events[0].searched.solutions
    carrier.local = Task(1, (0,), 30, 1), task_ending_with([])
    asked = carrier.poll(0.05)
    assert isinstance(asked, Ask) and asked.step["ask"]["pool"]["take"]
    assert [type(e) for e in asked.read({"workers": [], "events": []})] == [Done]


KORF_88 = "15 2 12 11/14 13 9 5/1 3 8 7/0 10 6 4"  # 65 moves


def _subtree_search(index, bound, resume=None, progress_s=None):
    """Search subtree `index` of Korf's #88 split into 64, with the 7-7-1 tables, in the contour of `bound`: (its
    SearchResult, the progress events that say where it had got)."""
    from slidelab.core.control import Limits
    from slidelab.core.puzzles import with_start
    from slidelab.heuristics import get_heuristic
    from slidelab.search.idastar import idastar

    puzzle = SlidingPuzzle.from_text(KORF_88, KORF_GOAL)
    _, frontier, _, _ = split(puzzle, 64)
    g, state, came_by, _ = frontier[index]
    steps = idastar(with_start(puzzle, state), get_heuristic("pdb771", puzzle), Limits(progress_s=progress_s),
                    came_by=came_by, one_contour=bound - g, resume=resume)
    events = []
    try:
        while True:
            event = next(steps)
            if "at" in event:
                events.append(event)
    except StopIteration as stop:
        return stop.value, events


@pytest.mark.parametrize("bound, index", [(63, 1), (65, 19)])  # a whole contour; the one that finds the solution
def test_a_subtree_search_goes_on_from_wherever_it_said_it_had_got(bound, index):
    """The pattern-database kernel's progress says where it is ("at"); a search resumed there with the nodes it had
    then (a checkpoint's partial subtree, a lost worker's task) ends exactly as the uninterrupted search: the same
    nodes, the same least f over the bound, the same solution."""
    whole, events = _subtree_search(index, bound, progress_s=0)
    assert len(events) >= 8 and whole.stats.expanded > 40_000
    assert (whole.moves is not None) == (bound == 65)
    for event in events:
        resumed, _ = _subtree_search(index, bound, {key: event[key] for key in ("at", "expanded", "generated")})
        assert (resumed.stats.expanded, resumed.stats.generated, resumed.extra, resumed.moves) == (
            whole.stats.expanded, whole.stats.generated, whole.extra, whole.moves)


@pytest.mark.parametrize("at", [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [99], [0, 99]])
def test_a_place_not_in_the_subtree_is_refused(at):
    from slidelab.core.errors import BadRequest

    with pytest.raises(BadRequest, match="is not in its tree|deeper than its frames"):
        _subtree_search(1, 63, {"at": at, "expanded": 5, "generated": 9})


def test_a_subtree_request_goes_on_from_its_partial_as_the_page_sends_it():
    """The page's pool hands a task its partial subtree ("partial"), whose numbers JavaScript may write as floats;
    the answer is the uninterrupted search's. A partial that is not one, or of another subtree, is refused."""
    from slidelab.core.control import run

    whole, events = _subtree_search(1, 63, progress_s=0)
    request = {"board": KORF_88, "goal": KORF_GOAL, "heuristic": "pdb771", "split_for": 2, "subtree": 1, "bound": 63}
    halfway = events[len(events) // 2]
    partial = {"subtree": 1.0, "at": [float(i) for i in halfway["at"]], "expanded": float(halfway["expanded"]),
               "generated": float(halfway["generated"])}
    answer = run(api.subtree_steps(dict(request, partial=partial)))
    assert answer["ok"] and (answer["expanded"], answer["generated"], answer["sizes"]) == (
        whole.stats.expanded, whole.stats.generated, [whole.stats.expanded]), answer
    for bad, message in ((dict(partial, at="0 1"), "in a form that is not one"),
                         (dict(partial, subtree=2), "names a subtree the request does not search")):
        answer = run(api.subtree_steps(dict(request, partial=bad)))
        assert answer["error"]["code"] == "invalid" and message in answer["error"]["message"], answer
