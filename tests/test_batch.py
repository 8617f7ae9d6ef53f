"""`slidelab batch`: the file format, one complete line per position (errors too), a summary, parallel over positions
with the same answers, resuming, Dask, and Korf's 100 as one command."""

import json
import random
import re
from pathlib import Path

import pytest

from slidelab import batch, cli
from slidelab.puzzles.sliding import random_position

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
    for line in (DATA / "korf100.txt").read_text().splitlines():
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
    assert sorted((r["name"], r.get("length", -1), r["ok"]) for r in json_lines(out)[:-1]) == expected
