"""A split search's checkpoint (checkpoint.py): stopped by a limit, by its client killed or on a Dask cluster, and
resumed, it gives the same answer, counts every complete iteration as an uninterrupted search does and searches
again only what was not finished; a resume with other options, of a finished search or of a damaged file is
refused."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from slidelab import api, cli
from slidelab.contract import request as requests
from test_parallel_idastar import KORF_79, KORF_GOAL

LIMITED = 150_000  # nodes: Korf's #79 with Manhattan distance on 2 workers has 104,805 before its last iteration
KORF_1 = "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3"  # 57 moves; with linear conflicts, 6.5 million nodes (2 workers)


def complete_iterations(answer):
    """The iterations every worker searched to the end (the last stops at the first solution)."""
    return [(i["bound"], i["expanded"]) for i in answer["stats"]["iterations"][:-1]]


def korf_79(**more):
    return dict({"board": KORF_79, "goal": KORF_GOAL, "heuristic": "manhattan", "workers": 2}, **more)


def read(path):
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def test_a_search_stopped_by_a_limit_goes_on_from_its_checkpoint(tmp_path):
    path = str(tmp_path / "korf79.json")
    undisturbed = api.solve(korf_79())
    stopped = api.solve(korf_79(checkpoint=path, max_nodes=LIMITED))
    assert stopped["error"]["code"] == "limit"
    state = read(path)
    assert state["search"] == {"puzzle": "sliding", "rule": None, "board": KORF_79, "goal": KORF_GOAL,
                               "heuristic": "manhattan", "tables": [], "all_solutions": False, "split_for": 2,
                               "subtrees": 64}
    assert state["bound"] == 42 and "finished" not in state
    assert [(i["bound"], i["expanded"]) for i in state["counted"]["iterations"]] == complete_iterations(undisturbed)
    assert state["done"] and all(task["expanded"] > 0 for task in state["done"])
    done = {index for task in state["done"] for index in task["subtrees"]}

    resumed = api.solve(korf_79(resume=path))
    assert resumed["ok"] and resumed["length"] == 42 and resumed["optimal"], resumed
    assert complete_iterations(resumed) == complete_iterations(undisturbed)
    assert resumed["parallel"]["checkpoint"] == {"file": path, "resumed": True, "earlier_s": state["elapsed_s"]}
    last = resumed["stats"]["iterations"][-1]["expanded"]
    assert last >= sum(task["expanded"] for task in state["done"])  # the finished tasks count, searched once
    assert read(path)["finished"] == {"length": 42}
    assert done and len(done) < resumed["parallel"]["subtrees"]


def test_a_resume_may_record_in_another_file_and_takes_the_recorded_split(tmp_path):
    first, second = str(tmp_path / "a.json"), str(tmp_path / "b.json")
    assert api.solve(korf_79(checkpoint=first, max_nodes=LIMITED))["error"]["code"] == "limit"
    resumed = api.solve(korf_79(workers=3, resume=first, checkpoint=second))  # 3 processes, the split for 2
    assert resumed["length"] == 42 and len(resumed["parallel"]["workers"]) == 3
    assert read(second)["search"]["split_for"] == 2 and "finished" not in read(first)


def test_a_search_begun_serially_is_checkpointed_from_its_split(tmp_path):
    """With `split_after_s` (the page's way) the serial iterations are recorded as the split search's own, and the
    resume goes on split at once from the recorded bound: it counts the iterations as an uninterrupted search does."""
    path = str(tmp_path / "korf79.json")
    stopped = api.solve(korf_79(checkpoint=path, split_after_s=0.001, max_nodes=LIMITED))
    assert stopped["error"]["code"] == "limit"
    state = read(path)
    assert state["bound"] == 42 and state["counted"]["iterations"], state
    recorded = [(i["bound"], i["expanded"]) for i in state["counted"]["iterations"]]
    resumed = api.solve(korf_79(resume=path, split_after_s=0.001))
    assert resumed["ok"] and resumed["length"] == 42, resumed
    assert complete_iterations(resumed) == recorded  # each bound once: the serial ones, then the split ones
    assert [b for b, _ in recorded] == list(range(28, 42, 2))


@pytest.mark.parametrize("change, message", [
    ({"heuristic": "linear_conflict"}, "heuristic 'manhattan' where this one has 'linear_conflict'"),
    ({"board": "1 0 9 7/11 13 5 3/14 12 4 2/8 6 10 15"}, "another search (board"),
    ({"all_solutions": True}, "all_solutions False where this one has True"),
    ({"heuristic": "pdb"}, "tables [] where this one has ['4x4_1-2-3.slpdb'"),
])
def test_a_resume_with_other_options_is_refused(tmp_path, change, message):
    path = str(tmp_path / "korf79.json")
    assert api.solve(korf_79(checkpoint=path, max_nodes=LIMITED))["error"]["code"] == "limit"
    answer = api.solve(korf_79(resume=path, **change))
    assert answer["error"]["code"] == "invalid" and message in answer["error"]["message"], answer
    assert "resume with the same options" in answer["error"]["message"]


def test_a_finished_search_is_not_resumed(tmp_path):
    path = str(tmp_path / "korf79.json")
    assert api.solve(korf_79(checkpoint=path))["ok"]
    answer = api.solve(korf_79(resume=path))
    assert answer["error"]["code"] == "invalid"
    assert "a search that finished (a solution of 42 moves)" in answer["error"]["message"]


@pytest.mark.parametrize("text, message", [
    (None, "cannot read the checkpoint"),
    ("not json", "is not a checkpoint of slidelab solve (it is not JSON)"),
    ('{"slidelab_checkpoint": 1, "search": {}}', "is not a checkpoint of slidelab solve (or one of another"),
    ("[1, 2]", "is not a checkpoint"),
])
def test_a_file_that_is_not_a_checkpoint_is_refused(tmp_path, text, message):
    path = tmp_path / "bad.json"
    if text is not None:
        path.write_text(text)
    answer = api.solve(korf_79(resume=str(path)))
    assert answer["error"]["code"] == "invalid" and message in answer["error"]["message"], answer


def test_a_checkpoint_naming_subtrees_the_split_lacks_is_refused(tmp_path):
    path = str(tmp_path / "korf79.json")
    assert api.solve(korf_79(checkpoint=path, max_nodes=LIMITED))["error"]["code"] == "limit"
    state = read(path)
    state["done"][0]["subtrees"] = [10_000]
    with open(path, "w", encoding="utf-8") as file:
        json.dump(state, file)
    answer = api.solve(korf_79(resume=path))
    assert answer["error"]["code"] == "invalid" and "it is damaged" in answer["error"]["message"], answer


@pytest.mark.parametrize("request_, message", [
    ({"checkpoint": "x.json", "algorithm": "astar"}, "leave 'checkpoint' and 'resume' out"),
    ({"checkpoint": ""}, "needs a file name"),
    ({"checkpoint": 3}, "'checkpoint' must be text"),
])
def test_requests_refused(request_, message):
    answer = api.solve(dict({"board": KORF_79, "goal": KORF_GOAL}, **request_))
    assert answer["error"]["code"] == "invalid" and message in answer["error"]["message"], answer


def test_a_checkpoint_that_cannot_be_written_is_said_before_any_search(tmp_path):
    answer = api.solve(korf_79(checkpoint=str(tmp_path / "no such folder" / "k.json")))
    assert answer["error"]["code"] == "invalid" and "cannot write the checkpoint" in answer["error"]["message"]


def test_one_process_is_checkpointed_too(tmp_path):
    """A checkpoint splits the search even on one worker: what is recorded is its subtrees."""
    path = str(tmp_path / "one.json")
    parsed = requests.parse_solve(korf_79(workers=1, checkpoint=path))
    assert parsed.parallel.workers == 1 and parsed.parallel.checkpoint == path
    answer = api.solve(korf_79(workers=None, checkpoint=path))
    assert answer["length"] == 42 and len(answer["parallel"]["workers"]) == 1


def _children(pid):
    import psutil

    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


@pytest.mark.skipif(sys.platform != "linux", reason="forked workers and PR_SET_PDEATHSIG")
def test_a_killed_client_s_search_is_resumed_from_the_command_line(tmp_path, capsys):
    """The command line killed (SIGKILL) in its last iteration, its workers with it, then --resume: the same
    answer, every complete iteration counted as by an uninterrupted search."""
    pytest.importorskip("psutil")
    path = str(tmp_path / "korf1.json")
    command = [sys.executable, "-m", "slidelab", "solve", KORF_1, "--goal", KORF_GOAL, "--heuristic",
               "linear_conflict", "--workers", "2", "--checkpoint", path]
    client = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:  # the iteration of 55 is written when it ends: the last one has begun
            if os.path.exists(path) and read(path)["bound"] == 57:
                break
            time.sleep(0.02)
        workers = _children(client.pid)
        client.send_signal(signal.SIGKILL)
    finally:
        client.wait(30)
    assert client.returncode == -signal.SIGKILL and len(workers) == 2
    state = read(path)
    assert state["bound"] == 57 and [i["bound"] for i in state["counted"]["iterations"]][-1] == 55
    deadline = time.monotonic() + 10
    while any(w.is_running() and w.status() != "zombie" for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(w.is_running() and w.status() != "zombie" for w in workers)  # they died with it

    assert cli.main(["solve", KORF_1, "--goal", KORF_GOAL, "--heuristic", "linear_conflict", "--workers", "2",
                     "--resume", path, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["length"] == 57 and answer["parallel"]["checkpoint"]["resumed"]
    assert [i["bound"] for i in answer["stats"]["iterations"]] == [43, 45, 47, 49, 51, 53, 55, 57]
    assert answer["stats"]["iterations"][-2]["expanded"] == 1_960_715


def test_the_progress_line_says_the_bound_nodes_rate_and_time_left(capsys):
    """In a log (stderr not a terminal), a line a minute: the rate of the last ten seconds, and the iteration's share
    and time left predicted from the last iteration's nodes times its growth (7,000 / 1,000: 49,000 predicted)."""
    from slidelab.cli.text import SearchProgress

    progress = SearchProgress()
    done = 8_000  # the two iterations ended
    for second in range(0, 131):
        progress({"type": "progress", "bound": 60, "elapsed_s": float(second), "expanded": done + 200 * second,
                  "iterations": [1_000, 7_000]})
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "slidelab: bound 60, 20,000 nodes, 200 nodes/s, iteration about 24% (growth 7.0), ~3 min left",
        "slidelab: bound 60, 32,000 nodes, 200 nodes/s, iteration about 49% (growth 7.0), ~2 min left",
    ]


def test_a_split_search_says_how_far_its_iteration_has_got():
    """The page says what the command line says: a split search's progress events carry the prediction
    (control.iteration_ahead) once two iterations ended with nodes, and none before."""
    from slidelab.core.control import iteration_ahead

    assert iteration_ahead([1_000, 7_000], 20_000, 200) == {"share": 0.245, "growth": 7.0, "left_s": 185.0}
    assert iteration_ahead([7_000], 20_000, 200) is None
    assert iteration_ahead([1_000, 0], 20_000, 200) is None  # an iteration of no nodes (split from the start)
    events = []  # Korf's #1 with linear conflicts: seconds of search, 3 million nodes of them
    api.solve(korf_79(board=KORF_1, heuristic="linear_conflict", max_nodes=3_000_000), on_progress=events.append)
    split = [e for e in events if e.get("type") == "progress" and "workers" in e]
    assert split, "the search reported no progress of its split"
    for event in split:
        assert event.get("iteration") == iteration_ahead(event["iterations"], event["expanded"], event["nodes_per_s"])
    assert any("iteration" in e and 0 < e["iteration"]["share"] < 1 and e["iteration"]["left_s"] > 0 for e in split)


def test_a_checkpoint_names_its_subtrees_so_that_another_runtime_splits_it_the_same(tmp_path, monkeypatch):
    """The page splits a worker's share into 16 subtrees, the command line into 32: a file written by one and resumed
    by the other is split as it was written (its "subtrees"), or it would skip subtrees it never searched. A file
    that names none was split by the command line."""
    from slidelab.run import scheduler

    path = str(tmp_path / "page.json")
    monkeypatch.setattr(scheduler, "SUBTREES_PER_WORKER", 16)  # as the page's runtime
    page_split = api.solve(korf_79())
    assert api.solve(korf_79(checkpoint=path, max_nodes=LIMITED))["error"]["code"] == "limit"
    assert read(path)["search"]["subtrees"] == 32 and read(path)["search"]["split_for"] == 2
    monkeypatch.setattr(scheduler, "SUBTREES_PER_WORKER", 32)  # the command line's
    cli_split = api.solve(korf_79())
    assert page_split["parallel"]["subtrees"] < cli_split["parallel"]["subtrees"]
    resumed = api.solve(korf_79(resume=path))
    assert resumed["length"] == 42 and resumed["parallel"]["subtrees"] == page_split["parallel"]["subtrees"]
    assert complete_iterations(resumed) == complete_iterations(page_split)

    old = str(tmp_path / "old.json")
    assert api.solve(korf_79(checkpoint=old, max_nodes=LIMITED))["error"]["code"] == "limit"
    state = read(old)
    del state["search"]["subtrees"]
    with open(old, "w", encoding="utf-8") as file:
        json.dump(state, file)
    monkeypatch.setattr(scheduler, "SUBTREES_PER_WORKER", 16)
    resumed = api.solve(korf_79(resume=old))
    assert resumed["length"] == 42 and resumed["parallel"]["subtrees"] == cli_split["parallel"]["subtrees"]


def test_a_subtree_searched_in_part_goes_on_from_where_it_had_got(tmp_path):
    """A checkpoint records where the running subtrees had got (the pattern-database kernel says it as it reports);
    a resume searches only the rest of such a subtree and counts its nodes once: every complete iteration, the one
    the search stopped in too, has exactly the nodes of an uninterrupted search."""
    from test_parallel_idastar import KORF_88, _subtree_search

    request = {"board": KORF_88, "goal": KORF_GOAL, "heuristic": "pdb771", "workers": 2}
    undisturbed = api.solve(request)
    path = str(tmp_path / "korf88.json")
    stopped = api.solve(dict(request, checkpoint=path, max_nodes=200_000))  # in the iteration of bound 63
    assert stopped["error"]["code"] == "limit"
    state = read(path)
    assert state["bound"] == 63 and state["search"]["subtrees"] == 64 and isinstance(state["partial"], list)
    done = {index for task in state["done"] for index in task["subtrees"]}
    index = next(i for i in (1, 8, 17, 15) if i not in done)  # the iteration's largest subtrees
    whole, events = _subtree_search(index, 63, progress_s=0)
    halfway = events[len(events) // 2]
    state["partial"] = [{"subtree": index, "at": halfway["at"], "expanded": halfway["expanded"],
                         "generated": halfway["generated"]}]
    with open(path, "w", encoding="utf-8") as file:
        json.dump(state, file)

    resumed = api.solve(dict(request, resume=path))
    assert resumed["ok"] and resumed["length"] == 65, resumed
    assert complete_iterations(resumed) == complete_iterations(undisturbed)
    assert read(path)["sizes"][str(index)] == whole.stats.expanded


@pytest.mark.parametrize("partial, message", [
    ({"subtree": 3, "at": "1 2"}, "names a subtree searched in part in a form that is not one: it is damaged"),
    ({"subtree": 3, "at": [99], "expanded": 5, "generated": 9}, "is not in its tree: the checkpoint is damaged"),
])
def test_a_damaged_partial_subtree_is_refused(tmp_path, partial, message):
    from test_parallel_idastar import KORF_88

    request = {"board": KORF_88, "goal": KORF_GOAL, "heuristic": "pdb771", "workers": 2}
    path = str(tmp_path / "korf88.json")
    api.solve(dict(request, checkpoint=path, max_nodes=200_000))
    state = read(path)
    state["done"], state["partial"] = [], [partial]
    with open(path, "w", encoding="utf-8") as file:
        json.dump(state, file)
    answer = api.solve(dict(request, resume=path))
    assert not answer["ok"] and message in answer["error"]["message"], answer
