"""A batch's hard positions split over every worker (batch/split.py): the same optimal answers as one worker, the
split search meeting subtrees in the serial search's order, every worker on the last hard position, and a worker
that dies on a subtree replaced."""

import multiprocessing
import os
import signal
import tempfile
from pathlib import Path

from slidelab import api, batch
from slidelab.api.solving import estimator_of
from slidelab.batch import split as batch_split
from slidelab.contract.request import parse_solve
from slidelab.core.control import Limits, run
from slidelab.core.puzzles.sliding import SlidingPuzzle
from slidelab.run.carriers import ForkedCarrier
from slidelab.run.scheduler import parallel_idastar

HARD = "8 6 7/2 5 4/3 0 1"  # 31 moves; with the misplaced-tiles count, iterations of over 100,000 nodes
EASY = ["1 2 3/4 5 6/7 0 8", "1 2 3/4 0 6/7 5 8", "4 1 3/7 2 6/0 5 8", "1 2 3/5 0 6/4 7 8"]
KORF_11 = "5 9 13 14/6 3 7 12/10 8 4 0/15 2 11 1"  # 57 moves; its serial last iteration is short (11,529 nodes)
KORF_GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"


def _replays(board, moves, goal="1 2 3/4 5 6/7 8 0"):
    puzzle = SlidingPuzzle.from_text(board, goal)
    state = puzzle.start
    for move in moves:
        state = dict(puzzle.moves(state))[move]
    return puzzle.is_goal(state)


def _run(boards, workers, **options):
    positions = batch.read_positions("\n".join(f"p{i}: {b}" for i, b in enumerate(boards)))
    return {r["name"]: r for r in batch.run(positions, dict(options), workers=workers)}


def test_the_split_search_meets_the_subtrees_in_the_serial_searchs_order():
    """Searched on one worker (as a batch's split position is while the other positions hold the rest), the split
    search expands what the serial one does in every iteration, the last included (the split's own few nodes apart):
    the pattern-database kernel ranks children near the root, and the scheduler hands the subtrees out in that order
    (in the split's breadth-first order, the last iteration expanded 431,803 nodes here)."""
    request = {"board": KORF_11, "goal": KORF_GOAL, "heuristic": "pdb"}
    serial = api.solve(request)["stats"]
    parsed = parse_solve(request)
    heuristic = estimator_of(parsed)
    search = parallel_idastar(parsed.puzzle, heuristic, Limits(), False, 2,  # split for two, carried by one
                              lambda frontier: ForkedCarrier(1, parsed.puzzle, heuristic, frontier, False))
    split = run(search).stats.iterations
    serial_of = {i["bound"]: i["expanded"] for i in serial["iterations"]}
    assert len(split) > 3 and split[-1]["bound"] == serial["iterations"][-1]["bound"] == 57
    for mine in split:  # (a bound whose f only the split's levels reach is skipped: a small one)
        assert 0 <= serial_of[mine["bound"]] - mine["expanded"] <= 64, (mine, serial)  # the split's levels, once


def test_a_hard_position_is_split_over_every_worker_with_the_same_answers():
    """The hard position comes first: it runs whole while the easy ones go by, and is split once none is left to
    start (the batch's tail)."""
    boards = [HARD] + EASY + [HARD.replace("8 6 7", "6 8 7")]  # the last one is unsolvable
    serial = _run(boards, 1, heuristic="misplaced")
    split = _run(boards, 2, heuristic="misplaced")
    assert serial.keys() == split.keys() and len(split) == len(boards)
    for name, record in split.items():
        if not serial[name]["ok"]:
            assert record["error"]["code"] == serial[name]["error"]["code"] == "unsolvable"
            continue
        assert record["ok"] and record["optimal"] and record["length"] == serial[name]["length"], record
        assert _replays(record["board"], record["moves"])
    hard = split["p0"]
    assert len(hard["workers"]) == 2 and all(n > 0 for n in hard["workers"]), hard  # both searched it
    bounds = [i["bound"] for i in hard["stats"]["iterations"]]
    assert set(bounds) <= {i["bound"] for i in serial["p0"]["stats"]["iterations"]} and bounds[-1] == 31
    assert hard["stats"]["expanded"] >= serial["p0"]["stats"]["expanded"] * 0.9
    assert all("workers" not in split[f"p{i}"] for i in range(1, 1 + len(EASY)))  # solved whole: never split
    assert not multiprocessing.active_children()


def test_a_worker_that_dies_on_a_subtree_is_replaced_and_the_position_solved(monkeypatch):
    deaths = Path(tempfile.mkdtemp()) / "deaths"
    search = api.subtree_steps

    def die_once(request):
        if not deaths.exists():
            deaths.write_text("x")
            os.kill(os.getpid(), signal.SIGKILL)
        return search(request)

    monkeypatch.setattr(api, "subtree_steps", die_once)
    records = _run([HARD], 2, heuristic="misplaced")
    assert deaths.exists() and records["p0"]["ok"] and records["p0"]["length"] == 31
    assert not multiprocessing.active_children()


def test_only_unlimited_ida_star_batches_split():
    assert batch_split.splits_tail({"heuristic": "pdb"}, 2)
    assert not batch_split.splits_tail({"heuristic": "pdb"}, 1)
    assert not batch_split.splits_tail({"algorithm": "astar"}, 2)
    assert not batch_split.splits_tail({"max_nodes": 1000}, 2)
