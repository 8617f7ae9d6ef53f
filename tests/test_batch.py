"""`slidelab batch`: the file format, one complete line per position (errors too), a summary, parallel over positions
with the same answers, resuming, Dask, and Korf's 100 as one command."""

import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slidelab import batch, cli
from slidelab.cli import args as cli_args
from slidelab.cli import batch as cli_batch
from slidelab.core.puzzles.sliding import random_position

DATA = Path(__file__).parent / "data"
KORF_GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"
FILE = """# a batch
8 6 7/2 5 4/3 0 1
easy: 1 2 3/4 5 6/7 0 8   # one move

bad: 1 2 3/4 5 6/7 8 8
odd: 1 2 3/4 5 6/8 7 0
easy: 1 2 3/4 5 6/0 7 8
"""


def slidelab(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_positions_are_named_by_name_or_line_number():
    positions = batch.read_positions(FILE + "x:\n" + "9" * 3000 + "\n")
    assert [p.name for p in positions] == ["2", "easy", "bad", "odd", "easy", "x", "9"]
    assert positions[1].board == "1 2 3/4 5 6/7 0 8"
    assert positions[4].board is None and "used twice" in positions[4].problem
    assert positions[5].board is None and "expected 'name: board'" in positions[5].problem
    assert positions[6].board is None and "longer than" in positions[6].problem


def test_every_position_gets_a_line_and_the_summary_counts_them(capsys, tmp_path):
    path = tmp_path / "b.txt"
    path.write_text(FILE)
    code, out, err = slidelab(capsys, "batch", str(path), "--json")
    records = json_lines(out)
    summary = records.pop()["summary"]
    by_name = {r["name"]: r for r in records}
    assert code == 1 and len(records) == 5 and set(by_name) == {"2", "easy", "bad", "odd"}
    assert by_name["2"]["length"] == 31 and by_name["2"]["optimal"] and len(by_name["2"]["moves"]) == 31
    assert by_name["bad"]["error"]["code"] == "invalid" and by_name["odd"]["error"]["code"] == "unsolvable"
    assert [r["error"]["code"] for r in records if r["name"] == "easy" and not r["ok"]] == ["invalid"]
    assert summary["positions"] == 5 and summary["solved"] == 2 and summary["failed"] == 3
    assert summary["total_length"] == 32 and summary["worst"]["name"] == "2"
    code, out, _ = slidelab(capsys, "batch", str(path))
    assert re.search(r"^2  31 moves \(optimal\)  [\d,]+ expanded", out, re.M)
    assert "odd  unsolvable: " in out and out.splitlines()[-1].startswith("5 positions: 2 solved (2 optimal), 3 failed")


def test_workers_solve_positions_in_parallel_with_the_same_answers(capsys, tmp_path):
    rng = random.Random(5)
    boards = ["/".join(" ".join(map(str, b[i:i + 3])) for i in range(0, 9, 3))
              for b in (random_position(3, 3, rng=rng) for _ in range(16))]
    path = tmp_path / "b.txt"
    path.write_text("\n".join(boards))
    answers = {}
    for workers in ("1", "2", "0"):
        code, out, _ = slidelab(capsys, "batch", str(path), "--workers", workers, "--heuristic", "manhattan", "--json")
        records = json_lines(out)[:-1]
        assert code == 0 and len(records) == 16
        answers[workers] = {r["name"]: r["length"] for r in records}
        summary = json_lines(out)[-1]["summary"]
        assert summary["engine"] == "processes" and summary["workers"] == batch.cpu_workers(int(workers))
    assert answers["1"] == answers["2"] == answers["0"]


def test_resume_skips_what_is_done_and_completes_the_rest(capsys, tmp_path):
    path, out_path = tmp_path / "b.txt", tmp_path / "out.jsonl"
    boards = [f"p{k}: " + b for k, b in enumerate(["8 6 7/2 5 4/3 0 1", "1 2 3/4 5 6/7 0 8", "1 2 3/4 0 6/7 5 8",
                                                    "4 1 3/0 2 6/7 5 8", "1 2 3/4 5 6/0 7 8"])]
    path.write_text("\n".join(boards))
    code, out, _ = slidelab(capsys, "batch", str(path), "--json")
    done = json_lines(out)[:2]  # an interrupted run: two answers and half a line
    out_path.write_text("".join(json.dumps(r) + "\n" for r in done) + '{"name": "p4", "bo')
    code, out, _ = slidelab(capsys, "batch", str(path), "--resume", str(out_path), "--json")
    assert code == 0
    new = json_lines(out)
    assert new[-1]["summary"]["skipped"] == 2 and len(new) == 4
    names = [r["name"] for r in batch_records(out_path)]
    assert sorted(names) == sorted(f"p{k}" for k in range(5))
    code, out, _ = slidelab(capsys, "batch", str(path), "--resume", str(out_path))
    assert code == 0 and "5 positions: 0 solved" in out and "5 already done" in out


def batch_records(path):
    records = []
    for line in path.read_text().splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if "summary" not in record:
            records.append(record)
    return records


@pytest.mark.parametrize("argv, message", [
    (["no-such-file.txt"], "cannot read no-such-file.txt"),
    (["FILE", "--workers", "-1"], "--workers must be"),
    (["FILE", "--algorithm", "dfs"], "unknown algorithm 'dfs'"),
    (["FILE", "--heuristic", "nope"], "unknown heuristic 'nope'"),
    (["FILE", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler is for --engine dask"),
])
def test_bad_arguments_are_refused_clearly(capsys, tmp_path, argv, message):
    path = tmp_path / "b.txt"
    path.write_text(FILE)
    code, out, err = slidelab(capsys, "batch", *[str(path) if a == "FILE" else a for a in argv])
    assert code == 2 and out == "" and message in err


def test_korfs_100_batch_file_holds_the_published_positions():
    published = {}
    for line in (Path(__file__).parents[1] / "pysrc" / "slidelab" / "data" / "korf100.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            head, tiles = line.split("|")
            t = tiles.split()
            published["k" + head.split()[0]] = ("/".join(" ".join(t[i:i + 4]) for i in range(0, 16, 4)),
                                                  int(head.split()[1]))
    text = (DATA / "korf100-batch.txt").read_text()
    positions = batch.read_positions(text)
    assert {p.name: p.board for p in positions} == {k: v[0] for k, v in published.items()}
    lengths = dict(re.findall(r"^(k\d+): .*# (\d+) moves$", text, re.M))
    assert {k: int(v) for k, v in lengths.items()} == {k: v[1] for k, v in published.items()}


def test_korf_positions_solve_in_a_batch_with_their_optimal_lengths(capsys, tmp_path):
    easiest = ["k79", "k12", "k42"]  # the three with the fewest nodes in Korf's table
    text = (DATA / "korf100-batch.txt").read_text()
    lines = [line for line in text.splitlines() if line.split(":")[0] in easiest]
    path = tmp_path / "k.txt"
    path.write_text("\n".join(lines))
    code, out, _ = slidelab(capsys, "batch", str(path), "--goal", KORF_GOAL, "--workers", "2", "--json")
    records = json_lines(out)
    assert code == 0 and {r["name"]: r["length"] for r in records[:-1]} == {"k79": 42, "k12": 45, "k42": 42}
    assert records[-1]["summary"]["optimal"] == 3


def test_the_dask_engine_gives_the_same_answers(capsys, tmp_path):
    pytest.importorskip("distributed")
    path = tmp_path / "b.txt"
    path.write_text(FILE)
    code, out, _ = slidelab(capsys, "batch", str(path), "--json")
    expected = sorted((r["name"], r.get("length", -1), r["ok"]) for r in json_lines(out)[:-1])
    code, out, err = slidelab(capsys, "batch", str(path), "--engine", "dask", "--workers", "2", "--json")
    assert code == 1, err
    summary = json_lines(out)[-1]["summary"]
    assert summary["engine"] == "dask" and summary["workers"] == 2
    assert sorted((r["name"], r.get("length", -1), r["ok"]) for r in json_lines(out)[:-1]) == expected


EASY = {"p0": "8 6 7/2 5 4/3 0 1", "p1": "1 2 3/4 5 6/7 0 8", "p2": "1 2 3/4 0 6/7 5 8", "p3": "4 1 3/0 2 6/7 5 8",
        "p4": "1 2 3/4 5 6/0 7 8", "p5": "1 2 3/0 4 6/7 5 8"}
EASY_LENGTHS = {"p0": 31, "p1": 1, "p2": 2, "p3": 5, "p4": 2, "p5": 3}


def _killing(monkeypatch, board, times):
    """batch's solve, replaced: a worker solving `board` kills itself, the first `times` times (counted in a file,
    as the workers are separate processes)."""
    import os
    import signal
    import tempfile

    solve, counter = batch._solve_one, Path(tempfile.mkdtemp()) / "deaths"

    def solve_or_die(request, *hooks):
        if request["board"] == board:
            deaths = len(counter.read_text()) if counter.exists() else 0
            if deaths < times:
                counter.write_text("x" * (deaths + 1))
                os.kill(os.getpid(), signal.SIGKILL)
        return solve(request, *hooks)

    monkeypatch.setattr(batch, "_solve_one", solve_or_die)
    return counter


@pytest.mark.parametrize("times", [1, batch.MAX_TRIES + 5])
def test_a_dying_worker_fails_only_its_own_position(monkeypatch, times):
    counter = _killing(monkeypatch, EASY["p2"], times)
    positions = batch.read_positions("\n".join(f"{k}: {b}" for k, b in EASY.items()))
    used = {}
    records = {r["name"]: r for r in batch.run(positions, {"heuristic": "manhattan"}, workers=2, used=used)}
    assert used == {"engine": "processes", "workers": 2}
    assert set(records) == set(EASY)
    for name, length in EASY_LENGTHS.items():
        if name == "p2" and times > batch.MAX_TRIES:  # it killed every worker given it: an error line, no loop
            assert records[name]["error"]["code"] == "internal"
            message = records[name]["error"]["message"]
            assert f"died, each of {batch.MAX_TRIES} times (last: killed by SIGKILL)" in message
            assert len(counter.read_text()) == batch.MAX_TRIES
        else:  # the rest, p2 too when its worker died once, are solved by the workers that took over
            assert records[name]["ok"] and records[name]["length"] == length, records[name]
    assert not __import__("multiprocessing").active_children()


def test_resume_solves_again_what_failed_internally_or_was_named_twice(capsys, tmp_path):
    path, out_path = tmp_path / "b.txt", tmp_path / "out.jsonl"
    path.write_text("p0: 1 2 3/4 5 6/7 0 8\np1: 1 2 3/4 0 6/7 5 8\np1: 4 1 3/0 2 6/7 5 8\np2: 1 2 3/4 5 6/0 7 8\n")
    out_path.write_text("".join(json.dumps(r) + "\n" for r in [
        {"name": "p1", "board": None, "ok": False, "error": {"code": "invalid", "message": "used twice"}},
        {"name": "p0", "board": "1 2 3/4 5 6/7 0 8", "ok": False,
         "error": {"code": "internal", "message": "the worker solving it died"}},
        {"name": "p2", "board": "1 2 3/0 5 6/4 7 8", "ok": True, "length": 3},  # p2 was another board then
    ]))
    assert batch.Resume(out_path.read_text().splitlines(), {}).done == {("p2", "1 2 3/0 5 6/4 7 8")}
    code, out, _ = slidelab(capsys, "batch", str(path), "--resume", str(out_path), "--json")
    records = json_lines(out)
    assert code == 1 and records[-1]["summary"]["skipped"] == 0
    by_key = {(r["name"], r["board"]): r for r in records[:-1]}
    assert by_key[("p0", "1 2 3/4 5 6/7 0 8")]["length"] == 1
    assert by_key[("p1", "1 2 3/4 0 6/7 5 8")]["length"] == 2
    assert by_key[("p1", None)]["error"]["code"] == "invalid"  # reported again: it is still named twice
    assert by_key[("p2", "1 2 3/4 5 6/0 7 8")]["length"] == 2
    code, out, _ = slidelab(capsys, "batch", str(path), "--resume", str(out_path), "--json")
    records = json_lines(out)
    assert records[-1]["summary"]["skipped"] == 3 and [r["name"] for r in records[:-1]] == ["p1"]


def test_a_hash_is_a_comment_only_at_a_lines_start_or_after_a_space():
    text = ("  # a comment line\n"
            "g: W#B/.../B#W   # a token board, then a comment\n"
            "W#B/.../B#W#\n"
            "h: #WB/..W/B#.\n"
            "i: # nothing here\n"
            "1 2 3/4 5 6/7 0 8 #no space after it\n"
            "j:1 2 3/4 5 6/7 0 8# not a comment: an invalid board\n")
    assert [(p.name, p.board) for p in batch.read_positions(text)] == [
        ("g", "W#B/.../B#W"), ("3", "W#B/.../B#W#"), ("h", "#WB/..W/B#."), ("i", None), ("6", "1 2 3/4 5 6/7 0 8"),
        ("j", "1 2 3/4 5 6/7 0 8# not a comment: an invalid board")]


def test_token_boards_with_removed_cells_solve_in_a_batch(capsys, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("# the swap on a board with two cells removed\ng: W#B/.../B#W\nW#B/.../B#W  # unnamed\n")
    code, out, err = slidelab(capsys, "batch", str(path), "--puzzle", "tokens", "--rule", "orthogonal",
                              "--goal", "B#W/.../W#B", "--json")
    records = json_lines(out)
    assert code == 0, err
    assert [(r["name"], r["board"], r["length"]) for r in records[:-1]] == [("g", "W#B/.../B#W", 12),
                                                                             ("3", "W#B/.../B#W", 12)]


class _Terminal(io.StringIO):
    """Standard output and error on one terminal."""

    def isatty(self):
        return True


def _screen(text):
    """The lines a terminal shows after `text` (carriage return, erase to the end of the line, new lines)."""
    lines, line, col, i = [], [], 0, 0
    while i < len(text):
        if text.startswith("\x1b[K", i):
            del line[col:]
            i += 3
            continue
        char = text[i]
        if char == "\n":
            lines.append("".join(line))
            line, col = [], 0
        elif char == "\r":
            col = 0
        else:
            line[col:col + 1] = [char]
            col += 1
        i += 1
    return lines + (["".join(line)] if line else [])


def test_the_progress_line_is_cleared_before_every_record(monkeypatch, tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("\n".join(f"{k}: {b}" for k, b in EASY.items()))
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli.main(["batch", str(path), "--heuristic", "manhattan"]) == 0
    text = terminal.getvalue()
    assert "  0/6 positions" in text and re.search(r"  3/6 positions, [\d.]+/s, about \d+ s left", text)
    shown = _screen(text)
    assert len(shown) == 7 and shown[-1].startswith("6 positions: 6 solved"), shown
    assert [line.split()[0] for line in shown[:-1]] == list(EASY) and not any("/s, about" in s for s in shown)


def test_tables_are_loaded_for_the_workers_and_nothing_is_solved_twice(monkeypatch):
    from slidelab import api
    from slidelab.heuristics import walking_distance
    from slidelab.heuristics.pdb import files

    monkeypatch.setattr(files, "_TABLES", {})  # nothing in memory yet
    solved = []
    solve = api.solve
    monkeypatch.setattr(api, "solve", lambda request, *a, **k: solved.append(request) or solve(request, *a, **k))
    positions = batch.read_positions("bad: 1 2 3/4 5 6/7 8 8\n" + "\n".join(EASY.values()))
    records = list(batch.run(positions, {"heuristic": "pdb"}, workers=2))
    assert sorted(r["length"] for r in records if r["ok"]) == sorted(EASY_LENGTHS.values())
    assert solved == []  # in this process: the workers solved them all, once each
    tables = api.pattern_databases({"board": EASY["p0"], "heuristic": "pdb"})["tables"]
    assert sorted(files._TABLES) == sorted(t["name"] for t in tables) and files._TABLES
    walking_distance.walking_table.cache_clear()
    list(batch.run(batch.read_positions("\n".join(EASY.values())), {"heuristic": "walking_distance"}, workers=2))
    assert walking_distance.walking_table.cache_info().currsize > 0 and solved == []


def test_one_per_core_counts_the_cores_this_process_may_use(monkeypatch):
    import os

    if not hasattr(os, "sched_getaffinity"):
        pytest.skip("no CPU affinity on this platform")
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    assert batch.cpu_workers(0) == 2 and batch.cpu_workers(5) == 5


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path):
    import os
    import subprocess

    path = tmp_path / "b.txt"
    path.write_text("\n".join(["1 2 3/4 5 6/7 0 8"] * 3000))
    process = subprocess.Popen([sys.executable, "-m", "slidelab", "batch", str(path)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=dict(os.environ))
    assert process.stdout.readline().startswith(b"1  1 move")  # as `| head -1` does
    process.stdout.close()
    _, err = process.communicate(timeout=120)
    assert err == b"" and process.returncode == 1


def test_a_resume_retries_what_a_larger_limit_may_solve_and_says_so(capsys, tmp_path):
    path, out_path = tmp_path / "b.txt", tmp_path / "out.jsonl"
    path.write_text("easy: 1 2 3/4 5 6/7 0 8\nhard: 8 6 7/2 5 4/3 0 1\nbad: 1 2 3/4 5 6/8 7 0\n")
    code, out, _ = slidelab(capsys, "batch", str(path), "--max-nodes", "5000", "--heuristic", "manhattan",
                            "--resume", str(out_path), "--json")
    first = {r["name"]: r for r in json_lines(out)[:-1]}
    assert first["hard"]["error"]["code"] == "limit" and first["bad"]["error"]["code"] == "unsolvable"
    assert all(r["method"] == {"heuristic": "manhattan", "algorithm": "idastar", "puzzle": "sliding",
                               "max_nodes": 5000} for r in first.values())
    code, out, _ = slidelab(capsys, "batch", str(path), "--max-nodes", "1000000", "--heuristic", "manhattan",
                            "--resume", str(out_path))
    assert "3 positions: 1 solved" in out and "2 already done, 1 retried" in out
    assert out.splitlines()[0].startswith("hard  31 moves")


def test_a_resume_with_other_options_is_refused_unless_asked_to_carry_on(capsys, tmp_path):
    path, out_path = tmp_path / "b.txt", tmp_path / "out.jsonl"
    path.write_text("a: 1 2 3/4 5 6/7 0 8\n")
    assert slidelab(capsys, "batch", str(path), "--resume", str(out_path))[0] == 0
    code, out, err = slidelab(capsys, "batch", str(path), "--goal", "1 2 3/4 5 6/0 7 8", "--resume", str(out_path))
    assert code == 2 and out == "" and err.count("\n") == 1 and "holds answers to other problems" in err
    code, out, err = slidelab(capsys, "batch", str(path), "--goal", "1 2 3/4 5 6/0 7 8", "--resume", str(out_path),
                              "--carry-on")
    assert code == 0 and "1 solved" in out
    code, out, err = slidelab(capsys, "batch", str(path), "--goal", "1 2 3/4 5 6/0 7 8", "--resume", str(out_path))
    assert code == 2  # the file now holds both


def test_a_resume_file_with_stray_lines_is_read_without_a_traceback(capsys, tmp_path):
    path, out_path = tmp_path / "b.txt", tmp_path / "out.jsonl"
    path.write_text("a: 1 2 3/4 5 6/7 0 8\nb: 1 2 3/4 0 6/7 5 8\n")
    good = {"name": "a", "board": "1 2 3/4 5 6/7 0 8", "ok": True, "length": 1}
    out_path.write_bytes(b'{"name": "b", "board": [1, 2]}\n' + json.dumps(good).encode() + b"\n"
                         b"\xff\xfe not text\n" + b"[1, 2, 3]\n" + b"x" * 100_000 + b"\n" + b'"just a string"\n')
    code, out, err = slidelab(capsys, "batch", str(path), "--resume", str(out_path), "--json")
    assert code == 0 and err == ""
    records = json_lines(out)
    assert [r["name"] for r in records[:-1]] == ["b"] and records[-1]["summary"]["skipped"] == 1
    assert json.dumps(good).encode() in out_path.read_bytes()  # nothing of the file was lost


def test_a_second_run_on_one_resume_file_is_refused(capsys, tmp_path):
    fcntl = pytest.importorskip("fcntl")
    path, out_path = tmp_path / "b.txt", tmp_path / "out.jsonl"
    path.write_text("a: 1 2 3/4 5 6/7 0 8\n")
    with open(out_path, "a") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)  # as a running batch holds it
        code, out, err = slidelab(capsys, "batch", str(path), "--resume", str(out_path))
    assert code == 2 and "being written by another run" in err and out_path.read_text() == ""


def test_a_full_disk_is_said_in_one_line_with_its_own_status(capsys, tmp_path, monkeypatch):
    path, out_path = tmp_path / "b.txt", tmp_path / "out.jsonl"
    path.write_text("a: 1 2 3/4 5 6/7 0 8\nb: 1 2 3/4 0 6/7 5 8\n")
    real_open = open

    class Full(io.TextIOWrapper):
        def write(self, text):
            raise OSError(28, "No space left on device")

    def full_open(name, mode="r", **kwargs):
        if str(name) == str(out_path):
            return Full(real_open(name, mode.replace("+", "") + "b+" if "+" in mode else mode + "b"), **{
                k: v for k, v in kwargs.items() if k in ("encoding", "errors")})
        return real_open(name, mode, **kwargs)

    monkeypatch.setattr(cli_batch, "open", full_open, raising=False)  # where batch opens its resume file
    code, out, err = slidelab(capsys, "batch", str(path), "--resume", str(out_path))
    assert code == cli_args.EXIT_WRITE_FAILED and err.count("\n") == 1
    assert "cannot write" in err and "No space left on device" in err


SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                               st.sampled_from(["name", "board", "ok", "error", "code", "method", "summary", "x"]),
                               inner, max_size=5), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(JSON_VALUES.map(json.dumps), st.text(max_size=200),
                          st.binary(max_size=60).map(lambda b: b.decode("utf-8", "replace"))), max_size=12))
def test_any_resume_file_is_read_without_an_exception(lines):
    state = batch.Resume(lines, {"algorithm": "idastar"})
    assert all(isinstance(name, str) and isinstance(board, str) for name, board in state.done | state.retry)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=3000))
def test_any_batch_file_is_read_without_an_exception(text):
    positions = batch.read_positions(text)
    for position in positions:
        assert (position.board is None) == (position.problem is not None)
    # no line lost: every line but blank and comment lines gives a position (a malformed one an error record)
    assert len(positions) == sum(1 for line in text.splitlines() if line.strip() and not line.strip().startswith("#"))


LARGE_RUN = """
import sys
from slidelab import batch, cli
ANSWER = {"ok": True, "length": 1, "optimal": True, "moves": [8], "stats": {"expanded": 1, "generated": 2,
          "stored": 2, "elapsed_s": 1e-05}}
batch._solve_one = lambda request, *hooks: ANSWER  # the solver itself is not what this measures
code = cli.main(["batch", sys.argv[1], "--resume", sys.argv[2], "--workers", sys.argv[3]])
# this program's own peak (VmHWM): ru_maxrss would also count the forking test process's, before the exec
with open("/proc/self/status") as status:
    print("peak_kb", next(line.split()[1] for line in status if line.startswith("VmHWM:")), file=sys.stderr)
sys.exit(code)
"""


@pytest.mark.slow
@pytest.mark.parametrize("workers, count", [("1", 1_000_000), ("2", 300_000)])
def test_a_large_batch_runs_in_constant_memory(tmp_path, workers, count):
    """Positions are read, solved, written and summed up one at a time, also when a pool of workers solves them: the
    run's memory does not grow with the file (a run that held every position and record would need well over
    150 MB here)."""
    positions, out, printed = tmp_path / "positions.txt", tmp_path / "out.jsonl", tmp_path / "printed.txt"
    with open(positions, "w") as f:
        for _ in range(count // 10):
            f.write("1 2 3/4 5 6/7 0 8\n" * 10)
    with open(printed, "w") as stdout:
        done = subprocess.run([sys.executable, "-c", LARGE_RUN, str(positions), str(out), workers],
                              stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    peak_mb = int(re.search(r"peak_kb (\d+)", done.stderr)[1]) / 1024
    assert peak_mb < 150, peak_mb
    last = {}
    for path in (printed, out):  # every record and the summary, printed and on disk as they came
        with open(path) as f:
            lines = 0
            for last[path] in f:
                lines += 1
        assert lines == count + 1, path
    assert last[printed].startswith(f"{count} positions: {count} solved")
    assert json.loads(last[out])["summary"]["solved"] == count
