"""The scheduler of parallel IDA* without processes: a scripted carrier plays its workers, so that each rule of a
round (a lost task queued again first, a failed task's error raised as the search's, the first solution ending the
round while other tasks run, the nodes those had reported counted, a task given up after MAX_TRIES deaths, a task
handed back untried not counted as a try, a lost task going on from where its search had got) is checked event by
event."""

from __future__ import annotations

import pytest

from slidelab.core.control import Counts, Limits, Meter
from slidelab.core.workers import MAX_TRIES
from slidelab.run.scheduler import Done, Lost, Scheduler, Task, TaskFailed, TaskProgress
from slidelab.search.contour import INF
from slidelab.search.parallel_idastar import Partial, Round, Searched

PATH = [5, 6, 8]  # a solution's moves, as a worker would report them


class ScriptedCarrier:
    """Two workers, "a" and "b"; `script[subtree]` is a list of what each start of that subtree's task does at the
    next poll: ("lost", tried), ("fail", error), ("done", expanded, solutions), ("progress", expanded, at?) (the task
    keeps running and reports, maybe where its search has got), or ("run",) (it keeps running silently)."""

    def __init__(self, script: dict):
        self.script = {subtree: list(plays) for subtree, plays in script.items()}
        self.running: dict = {}  # worker -> Task
        self.started: list = []  # the subtrees of every task started, in order
        self.partials: list = []  # the partial of every task started, in order
        self.closed = False

    def idle(self) -> int:
        return 2 - len(self.running)

    def start(self, task: Task) -> None:
        worker = next(w for w in ("a", "b") if w not in self.running)
        self.running[worker] = task
        self.started.append(task.subtrees)
        self.partials.append(task.partial)

    def poll(self, timeout: float) -> list:
        events = []
        for worker, task in list(self.running.items()):
            plays = self.script[task.subtrees[0]]
            play = plays.pop(0) if len(plays) > 1 else plays[0]
            if play[0] == "lost":
                events.append(Lost(task.id, "killed by SIGKILL", play[1]))
            elif play[0] == "fail":
                events.append(TaskFailed(task.id, play[1]))
            elif play[0] == "done":
                expanded, solutions = play[1], play[2]
                over = INF if solutions else task.bound + 2
                events.append(Done(task.id, worker, Searched({task.subtrees[0]: expanded}, solutions, over,
                                                             expanded, 2 * expanded)))
            elif play[0] == "progress":
                events.append(TaskProgress(task.id, worker, play[1], 2 * play[1], *play[2:]))
                continue
            else:
                continue
            del self.running[worker]
        return events

    def workers(self) -> list:
        return ["a", "b"]

    def extra(self) -> dict:
        return {}

    def close(self) -> None:
        self.closed = True


def run_round(carrier, subtrees=4, all_solutions=False):
    scheduler = Scheduler(carrier, Meter(Limits(), Counts()), 2, all_solutions)
    steps = scheduler.round(Round(10, list(range(subtrees)), [0] * subtrees))
    try:
        while True:
            next(steps)  # progress events, when due
    except StopIteration as stop:
        return scheduler, stop.value


def test_a_lost_task_goes_again_first_and_a_solution_ends_the_round_counting_the_running_tasks_nodes():
    carrier = ScriptedCarrier({
        0: [("lost", True), ("done", 100, [])],  # its worker is killed once, then it is searched
        1: [("progress", 40)],  # still running when the solution comes: its 40 nodes count
        2: [("done", 7, [PATH])],
        3: [("done", 1000, [])],  # never started: the round ended first
    })
    scheduler, searched = run_round(carrier)
    assert carrier.started == [(0,), (1,), (0,), (2,)]  # the lost task went again before subtree 2
    assert [part.expanded for part in searched] == [100, 7, 40]  # the stopped task's nodes, last and without sizes
    assert searched[1].solutions == [PATH] and searched[2].sizes == {}
    assert scheduler.per_worker() == [107, 40]  # worker a searched 0 and 2; b's running task is counted as b's


def test_all_solutions_lets_the_round_finish():
    carrier = ScriptedCarrier({0: [("done", 5, [PATH])], 1: [("done", 6, [])], 2: [("done", 7, [PATH])],
                               3: [("done", 8, [])]})
    _, searched = run_round(carrier, all_solutions=True)
    assert sorted(part.expanded for part in searched) == [0, 5, 6, 7, 8]
    assert sum(len(part.solutions) for part in searched) == 2


def test_a_task_that_raises_ends_the_search_with_its_error():
    carrier = ScriptedCarrier({0: [("done", 3, [])], 1: [("fail", ValueError("h gave -1 for 1 2 3/4 5 6/7 8 0"))],
                               2: [("run",)], 3: [("run",)]})
    with pytest.raises(ValueError, match="h gave -1"):
        run_round(carrier)


def test_a_task_whose_worker_dies_each_time_is_given_up_after_max_tries():
    carrier = ScriptedCarrier({0: [("lost", True)], 1: [("done", 3, [])], 2: [("done", 3, [])],
                               3: [("done", 3, [])]})
    with pytest.raises(RuntimeError, match=f"a worker died each of the {MAX_TRIES} times it searched subtrees"):
        run_round(carrier)
    assert carrier.started.count((0,)) == MAX_TRIES


def test_a_task_handed_back_untried_is_not_a_try():
    untried = [("lost", False)] * (MAX_TRIES + 2)  # a smaller pool gave it back, again and again
    carrier = ScriptedCarrier({0: [*untried, ("done", 9, [])], 1: [("done", 3, [])], 2: [("done", 3, [])],
                               3: [("done", 3, [])]})
    _, searched = run_round(carrier)
    assert carrier.started.count((0,)) == MAX_TRIES + 3
    assert sum(part.expanded for part in searched) == 9 + 3 * 3


def test_a_lost_task_goes_on_from_where_its_search_had_got_and_its_nodes_count_once():
    carrier = ScriptedCarrier({
        0: [("progress", 30, [1, 0, 2]), ("progress", 60, [1, 2]), ("lost", True), ("done", 90, [])],
        1: [("run",), ("run",), ("run",), ("done", 5, [])],
        2: [("done", 6, [])], 3: [("done", 7, [])],
    })
    _, searched = run_round(carrier)
    assert carrier.started == [(0,), (1,), (0,), (2,), (3,)]
    # the second start of subtree 0 goes on from its last report, whose 60 nodes its answer counts (90 in all)
    assert carrier.partials == [None, None, Partial(0, [1, 2], 60, 120), None, None]
    assert sum(part.expanded for part in searched) == 90 + 5 + 6 + 7
