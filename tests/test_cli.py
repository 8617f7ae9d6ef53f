"""The `slidelab` command: algorithm and heuristic choice, explore, text and JSON output, exit codes."""

import json

import pytest

from slidelab import cli
from slidelab.heuristics import HEURISTICS
from slidelab.search import ALGORITHMS

HARDEST = "8 6 7/2 5 4/3 0 1"


def slidelab(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_help_lists_every_algorithm_and_heuristic(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["solve", "--help"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0
    for name in list(ALGORITHMS) + list(HEURISTICS):
        assert f"\n  {name} " in out


@pytest.mark.parametrize("algorithm, heuristic", [("bfs", None), ("bidirectional", None), ("iddfs", None),
                                                  ("idastar", "manhattan"), ("astar", "zero"),
                                                  ("astar", "misplaced"), ("astar", "manhattan")])
def test_every_algorithm_solves_from_the_command_line(capsys, algorithm, heuristic):
    argv = ["solve", "1 2 3/7 4 6/5 0 8", "--algorithm", algorithm] + (["--heuristic", heuristic] if heuristic else [])
    code, out, err = slidelab(capsys, *argv, "--json")
    answer = json.loads(out)
    assert code == 0 and err == ""
    assert answer["length"] == 5 and answer["algorithm"] == algorithm and answer["optimal"] is True
    assert answer["heuristic"] == heuristic
    code, out, _ = slidelab(capsys, *argv)
    assert code == 0
    assert out.startswith(f"5 moves (optimal), {algorithm}")
    assert "expanded" in out and "stored" in out


def test_astar_text_reports_the_open_list(capsys):
    code, out, _ = slidelab(capsys, "solve", "7 8 2/6 3 4/5 0 1", "--algorithm", "astar", "--heuristic", "manhattan")
    assert code == 0
    assert out.splitlines()[0] == "25 moves (optimal), astar with manhattan"
    assert "expanded 875," in out and "open list peak" in out


def test_greedy_and_weighted_from_the_command_line(capsys):
    code, out, _ = slidelab(capsys, "solve", "7 8 2/6 3 4/5 0 1", "--algorithm", "weighted", "--weight", "3",
                            "--heuristic", "manhattan")
    assert code == 0 and out.startswith("37 moves (not necessarily shortest: weighted never promises it), "
                                        "weighted (W = 3) with manhattan\n")
    code, out, _ = slidelab(capsys, "solve", "1 3 6/4 0 8/7 2 5", "--algorithm", "greedy", "--heuristic", "manhattan",
                            "--json")
    answer = json.loads(out)
    assert code == 0 and answer["length"] == 32 and answer["optimal"] is False
    code, _, err = slidelab(capsys, "solve", HARDEST, "--algorithm", "astar", "--weight", "2")
    assert code == 2 and "a weight is for weighted A*" in err


def test_all_solutions(capsys):
    code, out, _ = slidelab(capsys, "solve", HARDEST, "--heuristic", "manhattan", "--all-solutions", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["solution_count"] == 40 and len(answer["solutions"]) == 40
    code, out, _ = slidelab(capsys, "solve", "0 8 2/3 4 5/1 7 6", "--algorithm", "iddfs", "--all-solutions")
    assert code == 0 and "4 shortest solutions" in out
    code, _, err = slidelab(capsys, "solve", HARDEST, "--algorithm", "bfs", "--all-solutions")
    assert code == 2 and "all shortest solutions are listed by: iddfs, idastar" in err


def test_limits_and_refusals_exit_1(capsys):
    code, out, err = slidelab(capsys, "solve", HARDEST, "--algorithm", "bfs", "--max-nodes", "10")
    assert code == 1 and out == "" and err.startswith("slidelab: limit: ")
    code, _, err = slidelab(capsys, "explore", "4x4")
    assert code == 1 and err.startswith("slidelab: too_large: ") and len(err.splitlines()) == 1


def test_unknown_algorithm_exits_2(capsys):
    code, _, err = slidelab(capsys, "solve", HARDEST, "--algorithm", "dijkstra")
    assert code == 2 and "unknown algorithm 'dijkstra'" in err


def test_explore_a_shape(capsys):
    code, out, err = slidelab(capsys, "explore", "3x3")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "goal: 1 2 3/4 5 6/7 8 0"
    assert lines[1] == "181,440 positions can reach the goal; the farthest are 31 moves away: 2 positions"
    assert sorted(lines[2:4]) == ["  6 4 7/8 5 0/3 2 1", "  8 6 7/2 5 4/3 0 1"]
    assert "   31: 2" in out and "   22: 23,952" in out


def test_explore_json_with_a_board_and_a_goal(capsys):
    code, out, _ = slidelab(capsys, "explore", "1 3/0 2", "--goal", "0 1/2 3", "--json")
    answer = json.loads(out)
    assert code == 0
    assert answer["states"] == 12 and answer["max_depth"] == 6 and answer["goal"] == "0 1/2 3"
    assert answer["board"] == "1 3/0 2" and answer["board_depth"] == 3  # 2 left, 3 down, 1 right
    code, out, _ = slidelab(capsys, "explore", "1 2/0 3", "--goal", "0 1/2 3")
    assert code == 0 and "1 2/0 3: cannot reach the goal" in out


def test_explore_bad_input_exits_2(capsys):
    code, out, err = slidelab(capsys, "explore", "3x")
    assert code == 2 and out == "" and err.startswith("slidelab: invalid: ")
    code, _, err = slidelab(capsys, "explore", "3x3", "--goal", "1 2/3 0")
    assert code == 2 and "the goal is 2x2 but the shape is 3x3" in err


def test_workers_split_idastar_and_show_the_load_balance(capsys):
    code, out, err = slidelab(capsys, "solve", HARDEST, "--heuristic", "manhattan", "--workers", "2")
    assert code == 0 and out.startswith("31 moves (optimal)")
    line = out.splitlines()[-1]
    assert line.startswith("2 workers, ") and "subtrees, expanded per worker " in line and line.count(" / ") == 1
    code, out, err = slidelab(capsys, "solve", HARDEST, "--algorithm", "bfs", "--workers", "2")
    assert code == 2 and "only IDA* is split over workers" in err


def test_where_no_sandbox_can_be_made_grading_refuses_and_your_own_file_runs_with_a_notice(capsys, monkeypatch,
                                                                                           tmp_path):
    from slidelab.cli import args
    from slidelab.heuristics.examples import source
    from slidelab.run import sandbox

    monkeypatch.setattr(sandbox, "_status", {"kind": "none", "detail": "no sandbox: bubblewrap is not installed"})
    args.say_unsandboxed.cache_clear()  # a fresh process's: not said yet
    mine = tmp_path / "mine.py"
    mine.write_text(source("manhattan"))
    code, out, err = slidelab(capsys, "solve", "1 2 3/4 0 6/7 5 8", "--heuristic-file", mine)
    assert code == 0 and out.startswith("2 moves (optimal)")
    assert err.splitlines() == ["slidelab: notice: no sandbox: bubblewrap is not installed: your heuristic runs in a "
                                "process of its own, with your rights"]
    code, out, err = slidelab(capsys, "grade", "astar-8-puzzle", mine)
    assert code == 2 and out == "" and "--no-sandbox" in err and "Grade view" in err
    code, out, err = slidelab(capsys, "grade", "astar-8-puzzle", mine, "--no-sandbox")
    assert code == 0 and "notice: no sandbox" in err and "mine.py" in out  # a row: not a hand-in, said so
    with pytest.raises(SystemExit) as exited:
        cli.main(["--version"])
    out = capsys.readouterr().out
    assert exited.value.code == 0 and out.splitlines()[1] == "sandbox for someone else's code: no sandbox: " \
                                                             "bubblewrap is not installed"
