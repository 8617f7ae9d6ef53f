"""Parallel IDA* (search/parallel_idastar.py): the same lengths and solution counts as the serial search on every kind
of puzzle and kernel, statistics per worker, and no worker left behind by a cancel, a limit or a death."""

import multiprocessing
import os
import random
import signal

import pytest

from slidelab import api
from slidelab.puzzles.sliding import SlidingPuzzle, random_position
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
    assert parallel["parallel"]["subtrees"] >= workers * 8 or parallel["parallel"]["subtrees"] == 0
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
    for s, p in zip(serial["stats"]["iterations"][-3:-1], parallel["stats"]["iterations"][-3:-1]):
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


def test_all_solutions_are_every_workers_solutions():
    request = {"board": "8 6 7/2 5 4/3 0 1", "heuristic": "manhattan", "all_solutions": True}
    serial, parallel = _both(request)
    assert parallel["solution_count"] == serial["solution_count"] == 40
    assert sorted(map(tuple, parallel["solutions"])) == sorted(map(tuple, serial["solutions"]))


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
    event = next(steps)
    while event["type"] != "progress":
        event = next(steps)
    pids = [p.pid for p in multiprocessing.active_children()]
    assert len(pids) == 2
    assert len(event["workers"]) == 2 and sum(event["workers"]) > 0
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
    steps = api.solve_steps({"board": KORF_79, "goal": KORF_GOAL, "heuristic": "manhattan", "workers": 2})
    killed = False
    try:
        while True:
            event = next(steps)
            if event["type"] == "progress" and not killed:
                os.kill(multiprocessing.active_children()[0].pid, signal.SIGKILL)
                killed = True
    except StopIteration as stop:
        answer = stop.value
    assert killed and answer["ok"], answer
    assert answer["length"] == 42
    assert answer["parallel"]["workers_replaced"] >= 1
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
    assert answer["length"] == 31 and len(answer["parallel"]["workers"]) == (os.cpu_count() or 1)


def _drive_as_the_page_does(request, workers=2):
    """web/js/pool.js's loop, in CPython: split, every subtree that fits the bound, next bound, join."""
    from slidelab.search.control import run

    base = dict(request, subtrees=16 * workers)
    split_answer = api.split(base)
    if "length" in split_answer or not split_answer["ok"]:
        return split_answer
    bound, f = split_answer["bound"], split_answer["f"]
    expanded, iterations = split_answer["expanded"], []
    while True:
        over = min([v for v in f if v > bound], default=None)
        solutions, before = [], expanded
        for index in [i for i, v in enumerate(f) if v <= bound]:
            answer = run(api.subtree_steps(dict(base, subtree=index, bound=bound)))
            assert answer["ok"] and answer["subtree"] == index, answer
            expanded += answer["expanded"]
            if answer["over"] is not None:
                over = answer["over"] if over is None else min(over, answer["over"])
            solutions += answer["solutions"]
        iterations.append({"bound": bound, "expanded": expanded - before})
        if solutions:
            return api.join(request, {"moves": solutions[0], "solutions": solutions,
                                      "stats": {"expanded": expanded, "iterations": iterations},
                                      "parallel": {"workers": [], "subtrees": len(f)}})
        parity = split_answer["parity"]
        bound = over if parity is None or (over - parity) % 2 == 0 else over + 1


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
    parallel, serial = _drive_as_the_page_does(request_), api.solve(request_)
    if not serial["ok"]:
        assert serial["error"]["code"] == "unsolvable"
        assert parallel == serial
        return
    assert parallel["ok"] and parallel["length"] == serial["length"] and parallel["optimal"]
    assert parallel.get("solution_count") == serial.get("solution_count")


def test_a_token_split_probes_and_proves_as_a_solve_does():
    reachable = {"puzzle": "tokens", "rule": "orthogonal", "board": "ABC/DEF/GH.", "goal": "HB./ADE/GCF",
                 "heuristic": "zero", "subtrees": 32}
    answer = api.split(reachable)
    assert answer["ok"] and "length" not in answer and answer["subtrees"] >= 32
    events = []  # a long proof reports progress and can be cancelled (the page's Cancel)
    answer = api.split(dict(reachable, goal="BAC/DEF/GH.", heuristic="auto"), on_progress=events.append,
                       should_cancel=lambda: True)
    assert answer["error"]["code"] == "cancelled" and [event["type"] for event in events] == ["progress"]
    quick = api.split(dict(reachable, goal="DAC/GH./FBE"))  # 13 moves: the probe finds it, no split needed
    assert quick["ok"] and quick["length"] == 13 and quick["optimal"]
    assert api.split(dict(reachable, max_seconds=5))["error"]["message"].startswith(
        "a search split over workers takes no max_nodes or max_seconds")


@pytest.mark.parametrize("request_, message", [
    ({"board": "8 6 7/2 5 4/3 0 1", "algorithm": "astar", "subtrees": 8}, "only IDA*"),
    ({"board": "8 6 7/2 5 4/3 0 1", "subtrees": 0}, "'subtrees' must be"),
    ({"board": "8 6 7/2 5 4/3 0 1", "subtrees": 10 ** 6}, "'subtrees' must be"),
    ({"board": "8 6 7/2 5 4/3 0 0", "subtrees": 8}, "appears more than once"),
])
def test_bad_split_requests_are_refused(request_, message):
    answer = api.split(request_)
    assert answer["error"]["code"] == "invalid" and message in answer["error"]["message"]


def test_bad_subtree_requests_and_results_are_refused():
    from slidelab.search.control import run

    base = {"board": "8 6 7/2 5 4/3 0 1", "subtrees": 8}
    for extra in ({"subtree": 99, "bound": 30}, {"subtree": "0", "bound": 30}, {"subtree": 0, "bound": None}):
        answer = run(api.subtree_steps(dict(base, **extra)))
        assert answer["error"]["code"] == "invalid" and "'subtree' must be" in answer["error"]["message"]
    assert api.join(base, {"moves": [1, 2]})["error"]["message"] == "tile 2 is not next to the blank"
    assert api.join(base, {"moves": "12"})["error"]["code"] == "invalid"
    assert api.join({"puzzle": "knights"}, {"moves": [[0, 99]]})["error"]["code"] == "invalid"


def test_a_group_of_subtrees_is_searched_as_its_members_are_one_by_one():
    from slidelab.search.control import run

    base = {"board": "8 6 7/2 5 4/3 0 1", "heuristic": "manhattan", "subtrees": 32}
    split_answer = api.split(base)
    bound = split_answer["bound"] + 6
    members = [run(api.subtree_steps(dict(base, subtree=i, bound=bound))) for i in range(5)]
    group = run(api.subtree_steps(dict(base, subtree=list(range(5)), bound=bound)))
    assert group["sizes"] == [m["expanded"] for m in members] and group["subtree"] == [0, 1, 2, 3, 4]
    assert group["expanded"] == sum(m["expanded"] for m in members)
    assert group["over"] == min(m["over"] for m in members if m["over"] is not None)
    assert group["solutions"] == []  # none within a bound below the solution's 31
