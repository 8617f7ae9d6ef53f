"""The `slidelab` command: a thin shell over slidelab.api.

Exit codes: 0 success, 1 no solution exists or none was found within the limits, 2 invalid input (a bad board,
option or file, or an error in the user's own heuristic), 3 a bug in slidelab (the message says what failed), 4 data
missing or damaged (a pattern database not built, a damaged table file), 5 not available here (an optional package,
a Dask cluster that cannot be reached, a platform without the processes parallel search needs), 6 batch could not
write its resume file (a full disk), 130 stopped by
Ctrl-C or SIGTERM (every worker process stopped with it).
With --json one JSON object is printed on stdout; otherwise readable text. Errors go to stderr in one line.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Mapping
from typing import Any

from . import api, cli_course
from . import compare as compare_runs
from .answers import Failed
from .checkpoint import EVERY_S as CHECKPOINT_EVERY_S
from .cli_args import EXIT_INVALID, EXIT_STOPPED, SHAPE, FileError, exit_code, request_of, run_code, say_error
from .cli_batch import run_batch
from .cli_tables import pdb_command, prepare_databases, print_pdb
from .cli_text import (
    CompareProgress,
    ExploreProgress,
    SearchProgress,
    print_check,
    print_compare,
    print_explore,
    print_printed,
    print_solve,
    print_trace,
)
from .heuristics import HEURISTICS
from .heuristics.pdb import ENV_DIR
from .puzzles.tokens import PRESETS, RULES

_PUZZLE_HELP = (f"puzzle type: sliding (the default), tokens (BOARD, --goal and --rule), or a token preset: "
                f"{', '.join(PRESETS)}")


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors in one line with exit code 2, like every other invalid input."""

    def error(self, message):
        self.exit(EXIT_INVALID, f"slidelab: error: {message}\n")

    def format_help(self):
        if getattr(self, "catalogue", False):  # made when asked for: a command that runs pays nothing for it
            self.epilog = f"algorithms:\n{_catalogue(api.ALGORITHMS.values())}\n\nheuristics:\n" \
                          f"{_catalogue(HEURISTICS.values())}"
        return super().format_help()


def _catalogue(items) -> str:
    """Names and descriptions of algorithms or heuristics, for --help."""
    import textwrap

    return "\n".join(textwrap.fill(i.description, 100, initial_indent=f"  {i.name:<17} ",
                                   subsequent_indent=" " * 20) for i in items)


def _search_parser(sub, name, help, description):
    """A subcommand that runs a search: the board, the goal, the puzzle and how to search it (solve and trace)."""
    parser = sub.add_parser(
        name, help=help, formatter_class=argparse.RawDescriptionHelpFormatter,
        description=f"{description} BOARD is rows separated by '/', e.g. '8 6 7/2 5 4/3 0 1'; token boards have one "
                    "character per cell (a letter a piece, '.' empty, '#' removed), e.g. 'BBB/.../.../WWW'.",
    )
    parser.catalogue = True  # its --help lists every algorithm and heuristic
    parser.add_argument("board", nargs="?", help="the start position (a token preset has its own)")
    _method_arguments(parser)
    return parser


def _method_arguments(parser) -> None:
    """The puzzle and method options of solve, trace and batch."""
    parser.add_argument("--goal", help="the goal position (default: 1..N-1, blank bottom right; a preset's goal)")
    parser.add_argument("--puzzle", default="sliding", help=_PUZZLE_HELP)
    parser.add_argument("--rule", choices=RULES, help="how token pieces move (with --puzzle tokens)")
    parser.add_argument("--algorithm", default=api.DEFAULT_ALGORITHM,
                        help="search algorithm (listed by `slidelab solve --help`)")
    parser.add_argument("--heuristic", help=f"heuristic for informed searches (default {api.DEFAULT_HEURISTIC}; "
                        "'yours' with --heuristic-file)")
    parser.add_argument("--heuristic-file", metavar="FILE.py", help="your own heuristic: a Python file defining "
                        "h(board) (board.tiles, board.goal, board.rows, board.cols; see docs/your-heuristic.md)")
    _function_argument(parser)
    parser.add_argument("--weight", type=float, help="W of the weighted algorithm, f = g + W * h (default 2)")
    parser.add_argument("--no-compare", dest="compare", action="store_false", default=None,
                        help="with --heuristic-file and A* or IDA*: do not find the shortest length to compare the "
                        "path with (the path is then not known to be shortest)")


def _function_argument(parser) -> None:
    """--heuristic-function (--function: the same): the function of your heuristic's file."""
    parser.add_argument("--heuristic-function", "--function", dest="heuristic_function", metavar="NAME",
                        help="the function of your heuristic's file to use (default h)")


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser: one sub-parser per command."""
    parser = _Parser(prog="slidelab", description="Solve sliding-tile and token puzzles optimally.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _search_commands(sub)
    _explore_command(sub)
    _batch_command(sub)
    _check_command(sub)
    cli_course.add_parsers(sub)
    _pdb_command(sub)
    return parser


def _search_commands(sub) -> None:
    """solve, trace and compare: one position, one search or several."""
    solve = _search_parser(sub, "solve", "find a shortest solution", "Find a shortest solution.")
    solve.add_argument("--all-solutions", action="store_true", help="list every shortest solution")
    solve.add_argument("--max-nodes", type=int, help="give up after expanding this many nodes (checked every few "
                       "thousand)")
    solve.add_argument("--max-seconds", type=float, help="give up after this many seconds")
    solve.add_argument("--workers", type=int, help="split IDA* over this many processes (default 1; 0: one per core)")
    solve.add_argument("--engine", choices=api.SOLVE_ENGINES[:2],
                       help="what carries a split IDA*: forked processes (default) or a Dask cluster (the scale "
                       "extra), local with --workers workers (default one per core) unless --scheduler names one")
    solve.add_argument("--scheduler", metavar="ADDRESS", help="split IDA* over the workers of this Dask cluster "
                       "(tcp://host:port; it means --engine dask)")
    solve.add_argument("--checkpoint", metavar="FILE", help="record a split IDA* in FILE as it goes (at least every "
                       f"{CHECKPOINT_EVERY_S} s of finished work), so that --resume FILE goes on after a stop")
    solve.add_argument("--resume", metavar="FILE", help="go on with the search a --checkpoint FILE recorded (the "
                       "same board and options; its finished work kept), recording on in FILE")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    trace = _search_parser(sub, "trace", "show a search step by step",
                           "Show what a search does, step by step: each position expanded, its children and what "
                           "became of them, until the goal (or --max-steps expansions).")
    trace.add_argument("--max-steps", type=int, help=f"expansions recorded (default and most: "
                       f"{api.MAX_TRACE_STEPS:,})")
    trace.add_argument("--max-seconds", type=float, help="stop after this many seconds (the trace so far is shown)")
    trace.add_argument("--json", action="store_true",
                       help="print one JSON object (the trace format: docs/algorithms.md)")
    compare = _search_parser(sub, "compare", "compare algorithms and heuristics on one position",
                             "Solve one position with several algorithm and heuristic pairs in turn, each within a "
                             "time limit, and compare length, nodes expanded, positions stored and time (the page's "
                             "Compare). The pairs: --run, else with --heuristic-file the assignment's (A* with h = 0, "
                             "misplaced tiles, Manhattan distance and yours), else the page's defaults.")
    compare.add_argument("--run", action="append", metavar="ALGORITHM[:HEURISTIC]",
                         help="a pair to run (repeat it for more), e.g. --run astar:manhattan --run bfs")
    compare.add_argument("--max-seconds", type=float, help=f"the time limit of each run (default "
                         f"{compare_runs.DEFAULT_SECONDS} s)")
    compare.add_argument("--json", action="store_true", help="print one JSON object")


def _explore_command(sub) -> None:
    explore = sub.add_parser(
        "explore", help="explore every position that can reach the goal",
        description="Breadth-first search of the whole state space from the goal: how many positions can reach "
                    "it, how many at each distance, the largest distance and the positions at it.")
    explore.add_argument("position", metavar="SHAPE|BOARD", nargs="?",
                         help="a board shape like 3x3, or a board (whose distance from the goal is also given)")
    explore.add_argument("--goal", help="the goal position (default: 1..N-1, blank bottom right)")
    explore.add_argument("--puzzle", default="sliding", help=_PUZZLE_HELP + "; token puzzles are explored from "
                         "their start")
    explore.add_argument("--rule", choices=RULES, help="how token pieces move (with --puzzle tokens)")
    explore.add_argument("--engine", choices=api.EXPLORE_ENGINES,
                         help="python (any puzzle, up to 2,000,000 positions), numpy (sliding boards of up to 12 "
                         "cells: "
                         "a few bits a position) or dask (the same on a Dask cluster); default: python, else numpy "
                         "for a larger board when numpy is installed")
    explore.add_argument("--scheduler", metavar="ADDRESS",
                         help="run the dask engine on this cluster (tcp://host:port); "
                         "without it --engine dask starts a local one")
    explore.add_argument("--workers", type=int,
                         help="worker processes of the local Dask cluster (default 2; 0: one per core)")
    explore.add_argument("--max-nodes", type=int, help="give up after expanding this many positions")
    explore.add_argument("--max-seconds", type=float, help="give up after this many seconds")
    explore.add_argument("--json", action="store_true", help="print one JSON object")


def _batch_command(sub) -> None:
    batch = sub.add_parser("batch", help="solve every position of a file, in parallel",
                           description="Solve every position of FILE (one board per line; '#' comments, at a line's "
                           "start or after a space; a line may start with 'name:'), printing one line per position "
                           "as it finishes and a summary; on a terminal, a progress line on stderr.")
    batch.add_argument("file", help="the positions ('-': standard input)")
    _method_arguments(batch)
    batch.add_argument("--max-nodes", type=int, help="give up on a position after this many nodes")
    batch.add_argument("--max-seconds", type=float, help="give up on a position after this many seconds")
    batch.add_argument("--workers", type=int, default=1, help="positions solved at once, one process each "
                       "(default 1; 0: one per core)")
    batch.add_argument("--engine", choices=("processes", "dask"), default="processes",
                       help="processes on this machine (the default), or a Dask cluster (the scale extra)")
    batch.add_argument("--scheduler", metavar="ADDRESS", help="the Dask cluster to use (tcp://host:port); "
                       "without it --engine dask starts a local one with --workers workers")
    batch.add_argument("--resume", metavar="OUT", help="JSON lines of an earlier run: skip the positions it "
                       "answered for good (solved, unsolvable, invalid; a limit or a missing table is tried again), "
                       "append the new answers to it; one run at a time")
    batch.add_argument("--carry-on", action="store_true", help="resume even though OUT holds answers to other "
                       "problems (another goal, algorithm or heuristic): solve these positions again beside them")
    batch.add_argument("--json", action="store_true", help="print JSON lines (the summary last)")


def _check_command(sub) -> None:
    check = sub.add_parser(
        "check-heuristic", help="check your own heuristic: admissible? consistent? how informed?",
        description="Check a heuristic against the true distances: on boards of up to 2,000,000 positions every "
                    "position that can reach the goal and every move (a proof either way, with the worst "
                    "counterexample); on larger boards a sample of positions of known distance (no proof). "
                    "FILE.py defines h(board); see docs/your-heuristic.md.")
    check.add_argument("heuristic_file", metavar="FILE.py", help="your heuristic: a Python file defining h(board)")
    check.add_argument("board", metavar="GOAL", nargs="?", help="the goal, a board (or a shape like 3x3, with its "
                       "default goal); the checked positions are all those that can reach it")
    check.add_argument("--shape", help="a board shape like 3x3, with the default goal (1..N-1, blank bottom right)")
    check.add_argument("--goal", help="the goal, as GOAL gives it (a token preset's start is its board)")
    check.add_argument("--puzzle", default="sliding", help=_PUZZLE_HELP)
    check.add_argument("--rule", choices=RULES, help="how token pieces move (with --puzzle tokens)")
    _function_argument(check)
    check.add_argument("--engine", choices=api.EXPLORE_ENGINES[:2],
                       help="python (every position up to 2,000,000, a sample beyond) or numpy (every position of a "
                       "sliding board of up to 12 cells, e.g. all 239,500,800 of a 3x4: the scale extra); default: "
                       "python, else numpy for a larger board when numpy is installed")
    check.add_argument("--workers", type=int, help="processes evaluating h with the numpy engine (default: one per "
                       "core)")
    check.add_argument("--examples", type=int, metavar="N", help=f"list the N largest overestimates (at most "
                       f"{api.MAX_EXAMPLES})")
    check.add_argument("--max-seconds", type=float, help="give up after this many seconds (default for your own code: "
                       "an hour)")
    check.add_argument("--json", action="store_true", help="print one JSON object")


def _pdb_command(sub) -> None:
    pdb = sub.add_parser(
        "pdb", help="build the pattern databases for a board shape",
        description="Build (once) the pattern-database tables for boards of a shape, with the goal's blank in a "
                    f"corner, into the cache folder (${ENV_DIR}, else the user's cache folder).")
    pdb.add_argument("shapes", nargs="*", default=["4x4", "3x4"], metavar="SHAPE",
                     help="board shapes like 4x4 (default: 4x4 3x4); 4x4-78 is the 15-puzzle's 7-8 tables (92 MB of "
                     "files, 580 MB in memory; built with numpy in about 35 minutes of one core and 4.7 GB), 4x4-771 "
                     "its 7-7-1 tables (15 MB of files, 115 MB in memory; the package carries them)")
    pdb.add_argument("--goal", help="a goal position, for a goal whose blank is not in a corner")
    pdb.add_argument("--out", metavar="DIR", help="also write every table of these shapes as files into DIR (what "
                     "the site serves to the browser)")
    pdb.add_argument("--engine", choices=("numpy", "dask"), default="numpy",
                     help="build the large (ranked) tables with numpy on this machine, or on a Dask cluster (the "
                     "scale extra)")
    pdb.add_argument("--scheduler", metavar="ADDRESS", help="the Dask cluster to build on (tcp://host:port); "
                     "without it --engine dask starts a local one with --workers workers")
    pdb.add_argument("--workers", type=int, default=2, help="workers of the local Dask cluster (default 2)")
    pdb.add_argument("--json", action="store_true", help="print one JSON object")


def _check_request(request: dict) -> dict:
    """check-heuristic's request: the file's code and the goal, given as GOAL (a board, or a shape like 3x3 for its
    default goal), --goal or --shape."""
    request = dict(request)
    given = request.pop("board", None)
    if given is not None and SHAPE.fullmatch(given):
        if "shape" in request:
            raise FileError(f"give the shape once: {given} or --shape {request['shape']}")
        request["shape"] = given
    elif given is not None:
        if "goal" in request:
            raise FileError("give the goal once: as GOAL or as --goal")
        if "shape" in request:
            raise FileError("give either a shape (its default goal) or a goal board, not both")
        request["goal"] = given
    if "goal" in request and "shape" not in request:  # the positions checked are those that can reach the goal
        request["board"] = request["goal"]
    return request


def _terminated(signum, frame):
    raise KeyboardInterrupt  # SIGTERM ends a run as Ctrl-C does: workers stopped, files closed, one line said


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        previous = signal.signal(signal.SIGTERM, _terminated)
    except ValueError:  # not the main thread (main called from another program's thread): its signals are its own
        previous = None
    try:
        return _command(args)
    except KeyboardInterrupt:
        print("slidelab: stopped", file=sys.stderr)
        return EXIT_STOPPED
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _command(args) -> int:
    answer: Mapping[str, Any]
    if args.command == "batch":
        return run_batch(args)
    if args.command in ("exercise", "grade"):
        return cli_course.run(args)
    try:
        request = request_of(args) if args.command != "pdb" else {}
        if args.command == "check-heuristic":
            request = _check_request(request)
    except FileError as e:
        print(f"slidelab: invalid: {e}", file=sys.stderr)
        return EXIT_INVALID
    if args.command == "compare":
        answer, printer = _compare(request), print_compare
    elif args.command in ("solve", "trace"):
        failed = prepare_databases(request)  # an error answer when its tables could not be built
        printer = print_solve if args.command == "solve" else print_trace
        if args.command == "solve":
            progress = SearchProgress()
            answer = failed or run_code(api.solve, request, on_progress=progress)
            progress.close()
        else:
            answer = failed or run_code(api.trace, request)
    elif args.command == "check-heuristic":
        bar = ExploreProgress()
        # isolate: the check runs where your code never does, and asks a process of its own for h's values
        answer = run_code(api.check_heuristic, dict(request, isolate=True), on_progress=bar)
        printer = print_check
        bar.close()
    elif args.command == "pdb":
        answer = pdb_command(args)
        printer = print_pdb
    else:
        bar = ExploreProgress()
        answer = api.explore(request, on_progress=bar)
        bar.close()
        printer = print_explore
    try:
        if args.json:
            print(json.dumps(answer))
        else:
            if answer["ok"]:
                printer(answer)
            elif isinstance(recorded := answer.get("trace"), Mapping):  # what a trace kept before your code failed
                printer(recorded)
            print_printed(answer)
    except (KeyError, TypeError, AttributeError):  # made up by a process that ran your code (never by slidelab's)
        print("slidelab: user_code: the process running your heuristic answered something that is not an answer",
              file=sys.stderr)
        return EXIT_INVALID
    except BrokenPipeError:  # the reader stopped early (`slidelab trace ... | head`): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so that the exit's flush is quiet
    return say_error(answer) if not answer["ok"] else exit_code(answer)


def _compare(request: dict) -> dict | Failed:
    """`slidelab compare`: the position checked, then each pair solved in turn (your heuristic supervised)."""
    runs: list = compare_runs.parse_runs(request.pop("run", []))
    if request.pop("heuristic", None) is not None:
        return api.error("invalid", "compare names each run's heuristic: --run ALGORITHM:HEURISTIC")
    if request.pop("algorithm", api.DEFAULT_ALGORITHM) != api.DEFAULT_ALGORITHM:
        return api.error("invalid", "compare names each run's algorithm: --run ALGORITHM:HEURISTIC")
    seconds = request.pop("max_seconds", compare_runs.DEFAULT_SECONDS)
    if not seconds > 0:
        return api.error("invalid", "--max-seconds must be a positive number")
    checked = api.check(request)
    if not checked["ok"]:
        return checked
    if not checked["solvable"]:
        return {"ok": False, "error": checked["why"]}
    kind = checked["puzzle"]
    if not runs:
        runs = (compare_runs.ASSIGNMENT if "heuristic_code" in request else compare_runs.RUNS)[kind]
    elif "heuristic_code" in request and not any(heuristic == "yours" for _, heuristic in runs):
        return api.error("invalid", "--heuristic-file is your heuristic: name it in a run (--run astar:yours)")
    request["board"] = checked["board"]
    return compare_runs.compare(request, runs, seconds, lambda asked: run_code(api.solve, asked),
                                on_row=CompareProgress())
