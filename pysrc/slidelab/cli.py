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
import itertools
import json
import os
import re
import signal
import sys

from . import api, cli_course
from . import compare as compare_runs
from .errors import SlideLabError, exit_status
from .heuristics import HEURISTICS
from .heuristics.pdb import ENV_DIR, SHAPE_SUFFIX, cache_dir, parse_table_name, write_files
from .puzzles.tokens import PRESETS, RULES

EXIT_OK, EXIT_NO_SOLUTION, EXIT_INVALID = 0, 1, 2
EXIT_WRITE_FAILED = 6  # batch: the resume file could not be written (a full disk)
EXIT_STOPPED = 130  # Ctrl-C or SIGTERM, as a shell reports an interrupted command
PRINTED_LINES = 20  # lines of what your heuristic printed that the text output shows
_PUZZLE_HELP = (f"puzzle type: sliding (the default), tokens (BOARD, --goal and --rule), or a token preset: "
                f"{', '.join(PRESETS)}")
_SHAPE = re.compile(r"\s*\d+\s*[xX×]\s*\d+\s*")


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
    parser = _Parser(prog="slidelab", description="Solve sliding-tile and token puzzles optimally.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    solve = _search_parser(sub, "solve", "find a shortest solution", "Find a shortest solution.")
    solve.add_argument("--all-solutions", action="store_true", help="list every shortest solution")
    solve.add_argument("--max-nodes", type=int, help="give up after expanding this many nodes (checked every few "
                       "thousand)")
    solve.add_argument("--max-seconds", type=float, help="give up after this many seconds")
    solve.add_argument("--workers", type=int, help="split IDA* over this many processes (default 1; 0: one per core)")
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
    cli_course.add_parsers(sub)
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
    return parser


class _FileError(Exception):
    """A file named on the command line cannot be read (the message says why)."""


def _read_text(path: str, what: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError:
        raise _FileError(f"cannot read {what} {path}: it is not UTF-8 text") from None
    except OSError as e:
        raise _FileError(f"cannot read {what} {path}: {e.strerror or e}") from None


def _request(args) -> dict:
    request = {k: v for k, v in vars(args).items() if k not in ("command", "json") and v is not None}
    if "heuristic_file" in request:  # your own heuristic: its code travels in the request
        _refuse_other_heuristics(request)
        path = request.pop("heuristic_file")
        request.update(heuristic_code=_read_text(path, "the heuristic file"), heuristic_filename=path)
    elif "heuristic_function" in request:
        raise _FileError("--heuristic-function names a function of --heuristic-file; give the file too")
    if "all_solutions" in request and not request["all_solutions"]:
        del request["all_solutions"]
    if "position" in request:  # explore: a shape like 3x3, or a board
        position = request.pop("position")
        request["shape" if _SHAPE.fullmatch(position) else "board"] = position
    return request


def _refuse_other_heuristics(request: dict) -> None:
    """--heuristic-file names the heuristic: another --heuristic, or an algorithm that uses none, is refused."""
    from .search import ALGORITHMS

    other = request.get("heuristic")
    if other not in (None, "yours"):
        raise _FileError(f"--heuristic-file is your own heuristic, so --heuristic {str(other)[:20]} cannot go with "
                         "it: leave one of them out")
    algorithm = ALGORITHMS.get(request.get("algorithm", api.DEFAULT_ALGORITHM))
    if algorithm is not None and not algorithm.uses_heuristic:
        able = ", ".join(a.name for a in ALGORITHMS.values() if a.uses_heuristic and a.traceable)
        raise _FileError(f"{algorithm.name} uses no heuristic, so --heuristic-file would be ignored; choose an "
                         f"algorithm that takes one ({able})")


def _run_code(call, request: dict, on_progress=None) -> dict:
    """The api's `call` on a request: with your own heuristic in a supervised process of its own (supervised.py),
    where it cannot hang, end or print into the answer; otherwise here."""
    from . import supervised

    if request.get("heuristic_code") is None or not supervised.available():
        return call(request, on_progress=on_progress)
    return supervised.run(call, request, on_progress)


def _exit_code(answer: dict) -> int:
    if answer["ok"]:
        return EXIT_OK
    return exit_status(answer["error"]["code"])


def _n_moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


def _method(answer: dict) -> str:
    """The algorithm, with its weight and heuristic, as the text output names it: `astar with auto (pdb)`."""
    method = answer["algorithm"] + (f" (W = {answer['weight']})" if "weight" in answer else "")
    if answer.get("heuristic"):
        method += f" with {answer['heuristic']}"
    if answer.get("heuristic_used"):
        method += f" ({answer['heuristic_used']})"
    return method


def _shortness(answer: dict) -> str:
    """'optimal', or why not: 'not necessarily shortest' (greedy and weighted searches never promise it)."""
    if answer["optimal"]:
        return "optimal"
    algorithm = api.ALGORITHMS.get(answer["algorithm"])
    if algorithm is None or algorithm.optimal:
        return "not necessarily shortest"
    return f"not necessarily shortest: {algorithm.name} never promises it"


def _print_solve(answer: dict) -> None:
    print(f"{_n_moves(answer['length'])} ({_shortness(answer)}), {_method(answer)}")
    if not answer["optimal"] and "lower_bound" in answer:
        print(f"the shortest solution has at least {answer['lower_bound']} moves")
    _print_shortest(answer)
    _print_moves(answer)
    if "solution_count" in answer:
        print(f"{answer['solution_count']} shortest solutions")
        for s in answer["solutions"]:
            print("  " + " ".join(map(str, s)))
    _print_stats(answer["stats"])
    if "parallel" in answer:
        _print_parallel(answer["parallel"])


def _print_shortest(answer: dict) -> None:
    """What is known of a path found with your own heuristic against the shortest."""
    if "shortest_length" not in answer:
        return
    shortest = answer["shortest_length"]
    if shortest is None and not answer.get("compared", True):
        print("not known to be shortest: your heuristic is not known to be admissible, and --no-compare left the "
              "comparison with the shortest out")
    elif shortest is None:
        print("not known to be shortest: your heuristic is not known to be admissible, and the shortest length was "
              f"not found within {answer.get('compare_s', api.VERIFY_SECONDS):g} s (as long as the search took) to "
              "compare")
    elif answer.get("longer_by"):
        print(f"{_n_moves(answer['longer_by'])} longer than the shortest ({shortest}): your heuristic overestimates "
              "somewhere (slidelab check-heuristic shows where)")
    else:
        print(f"as short as the shortest ({shortest}, found with the built-in heuristics)")


def _print_moves(answer: dict) -> None:
    print("moves: " + (" ".join(map(str, answer.get("notation", answer["moves"]))) or "(already solved)"))


def _print_stats(s: dict) -> None:
    stored = f", stored {s['stored']:,}" if "stored" in s else ""  # a truncated trace has no stored count
    open_peak = f", open list peak {s['open_peak']:,}" if "open_peak" in s else ""
    reopened = f", reopened {s['reopened']:,}" if s.get("reopened") else ""
    print(f"expanded {s['expanded']:,}, generated {s['generated']:,}{stored}{open_peak}{reopened}, "
          f"{s['elapsed_s']:.3f} s")


def _print_parallel(p: dict) -> None:
    """Load balance of a parallel search: "2 workers, 64 subtrees, expanded per worker 51,234 / 49,870 (...)"."""
    nodes = [w["expanded"] for w in p["workers"]]
    memory = f", {p['worker_memory_bytes'] / 2**20:.0f} MB in the workers" if "worker_memory_bytes" in p else ""
    replaced = f", {p['workers_replaced']} replaced" if p["workers_replaced"] else ""
    print(f"{len(nodes)} workers, {p['subtrees']} subtrees, expanded per worker "
          f"{' / '.join(f'{n:,}' for n in nodes)}{memory}{replaced}")


def _print_trace(answer: dict) -> None:
    nodes = answer["nodes"]

    def node(node_id, f=None):  # "#12  g=3 h=5 f=8  1 2 3/4 0 6/7 5 8"
        n = nodes[node_id]
        side = f" {n['side']}" if "side" in n else ""
        f = "" if f is None else f" f={f:g}"
        return f"#{node_id}{side}  g={n['g']} h={n['h']}{f}  {n['board']}"

    print(f"trace of {_method(answer)}: {answer['board']} to {answer['goal']}")
    for step in answer["steps"]:
        kind = step["type"]
        if kind == "expand":
            print(f"expand {node(step['node'], step.get('f'))}")
        elif kind == "generate":
            name = nodes[step["node"]]["name"]
            print(f"  {step['status']:<7} move {name:<6} {node(step['node'], step['f'])}")
        elif kind == "iteration":
            print(f"iteration: bound {step['bound']}")
        elif kind == "side":
            print(f"{step['side']} side, depth {step['depth']}")
        elif kind == "goal":
            print(f"goal {node(step['node'])}")
        elif kind == "meet":
            print(f"meet {node(step['forward'])} = {node(step['backward'])}")
        else:
            print(f"solution, {_n_moves(answer['length'])} ({_shortness(answer)}): "
                  + " ".join(f"#{i}" for i in step["path"]))
            _print_shortest(answer)
            _print_moves(answer)
    if answer["truncated"]:
        print(answer["note"])
    _print_stats(answer["stats"])


def _check_request(request: dict) -> dict:
    """check-heuristic's request: the file's code and the goal, given as GOAL (a board, or a shape like 3x3 for its
    default goal), --goal or --shape."""
    request = dict(request)
    given = request.pop("board", None)
    if given is not None and _SHAPE.fullmatch(given):
        if "shape" in request:
            raise _FileError(f"give the shape once: {given} or --shape {request['shape']}")
        request["shape"] = given
    elif given is not None:
        if "goal" in request:
            raise _FileError("give the goal once: as GOAL or as --goal")
        if "shape" in request:
            raise _FileError("give either a shape (its default goal) or a goal board, not both")
        request["goal"] = given
    if "goal" in request and "shape" not in request:  # the positions checked are those that can reach the goal
        request["board"] = request["goal"]
    return request


def _print_check(answer: dict) -> None:
    n = answer["positions"]
    source = f" ({answer['file']})" if answer.get("file") else ""
    print(f"{answer['heuristic']}{source}, goal {answer['goal']}, {answer['engine']} engine")
    if answer["complete"]:
        print(f"every position that can reach the goal checked, {n:,} positions")
    else:
        sample = answer["sample"]
        print(f"a sample of {n:,} positions of known distance checked (Korf's 100: "
              f"{sample['korf100']}, random positions solved: {sample['random_solved']}), too many positions to "
              "check them all: a counterexample disproves, none proves nothing")
        if "complete_with" in sample:
            print(f"({sample['complete_with']})")
    verdict = {True: "yes", False: "no", None: "no counterexample found (not proved)"}
    worst = answer.get("worst")
    line = f"admissible: {verdict[answer['admissible']]}"
    if worst:
        line += (f"; it overestimates on {answer['overestimated']:,} positions, the most at {worst['board']}: h "
                 f"{worst['h']}, true distance {worst['distance']}")
    print(line)
    if worst and "path" in worst:
        moves = " ".join(map(str, worst.get("notation", worst["path"])))
        print(f"  a shortest path from {worst['board']} ({_n_moves(len(worst['path']))}): {moves}")
    if answer.get("examples"):
        print(f"the {len(answer['examples'])} largest overestimates:")
        for example in answer["examples"]:
            print(f"  {example['board']}: h {example['h']}, true distance {example['distance']}")
    move = answer.get("move")
    line = f"consistent: {verdict[answer['consistent']]}"
    if move:
        line += (f"; h drops by {move['h_from'] - move['h_to']} in one move, from {move['from']} (h {move['h_from']})"
                 f" to {move['to']} (h {move['h_to']})")
    print(line)
    print(f"informed: mean h {answer['mean_h']:.2f} against a mean true distance {answer['mean_distance']:.2f}; h "
          f"exact on {100 * answer['exact_share']:.1f}% of the positions")
    _print_stats(answer["stats"])


def _print_explore(answer: dict) -> None:
    from_start = answer.get("root") == "start"  # token puzzles
    print(f"start: {answer['board']}" if from_start else f"goal: {answer['goal']}")
    shown = len(answer["farthest"])
    cut = f", the first {shown} shown" if answer["farthest_count"] > shown else ""
    count = answer["farthest_count"]
    reach = "can be reached from the start" if from_start else "can reach the goal"
    print(f"{answer['states']:,} positions {reach}; the farthest are {answer['max_depth']} moves away: "
          f"{count:,} position{'s' if count != 1 else ''}{cut}")
    for board in answer["farthest"]:
        print("  " + board)
    print("positions at each distance:")
    cells = [f"{d:>3}: {n:<8,}" for d, n in enumerate(answer["depths"])]
    for i in range(0, len(cells), 6):
        print("  " + " ".join(cells[i:i + 6]).rstrip())
    depth = answer.get("board_depth", False)  # absent when a token puzzle was explored without a goal
    if depth is not False and from_start:
        print(f"goal {answer['goal']}: " + ("cannot be reached" if depth is None else f"{depth} moves from the start"))
    elif depth is not False:
        where = "cannot reach the goal" if depth is None else f"{depth} move{'s' if depth != 1 else ''} from the goal"
        print(f"{answer['board']}: {where}")
    if answer.get("memory_bytes"):
        print(f"{answer['engine']} engine, {answer['memory_bytes'] / 1e6:,.0f} MB of records and tables")
    _print_stats(answer["stats"])


class _ProgressBar:
    """A one-line progress bar on stderr for pattern-database builds (a plain notice when it is not a terminal)."""

    def __init__(self):
        self.table = None

    def __call__(self, event):
        live = sys.stderr.isatty()
        if event["table"] != self.table:
            if self.table is not None and live:
                print(file=sys.stderr)
            self.table = event["table"]
            print(f"slidelab: building pattern database {self.table} (once; cached)", file=sys.stderr,
                  end="" if live else "\n", flush=True)
        if live:
            done = event["done"] / max(event["total"], 1)
            bar = "#" * int(30 * done)
            print(f"\r  {self.table} [{bar:<30}] {100 * done:5.1f}%", end="", file=sys.stderr, flush=True)

    def close(self):
        if self.table is not None and sys.stderr.isatty():
            print(file=sys.stderr)


class _ExploreProgress:
    """A one-line progress report on stderr while an exploration or a check runs (depth or stage, positions, rate,
    time left), shown on a terminal only and only once it has run a second."""

    def __init__(self):
        self.shown = False

    def __call__(self, event):
        if event.get("type") != "progress" or event["elapsed_s"] < 1 or not sys.stderr.isatty():
            return
        positions, total = event.get("positions", event["expanded"]), event.get("total")
        stage = {"h": "h evaluated on", "moves": "moves checked from"}.get(event.get("phase"))
        text = f"{stage} {positions:,}" if stage else f"depth {event['depth']}, {positions:,}"
        if total:
            rate = positions / max(event["elapsed_s"], 1e-9)
            text += f" of {total:,} positions ({100 * positions / total:.1f}%), {rate / 1e6:.1f} M/s"
            text += f", about {max(total - positions, 0) / max(rate, 1):.0f} s left"
        else:
            text += f" positions, {event['nodes_per_s']:,}/s"
        print(f"\r  {text:<100}", end="", file=sys.stderr, flush=True)
        self.shown = True

    def close(self):
        if self.shown:
            print(file=sys.stderr)


def _cost_line(table: dict) -> str:
    """What building a table costs, said before it is built."""

    def size(n):
        return f"{n / 1e6:,.0f} MB" if n >= 1e7 else f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.0f} kB"

    text = f"{table['name']}: {table['entries']:,} entries, {size(table['memory_bytes'])} in memory"
    if "build_s" in table:
        minutes = table["build_s"] / 60
        text += (f", a file of about {size(table['file_bytes'])}, "
                 + (f"about {minutes:,.0f} minutes" if minutes >= 1.5 else "under two minutes") + " of one core"
                 + f" and {size(table['build_memory_bytes'])} of memory to build")
    return text


def _say_costs(status: dict) -> None:
    """On stderr, what each table of a pattern_databases answer that is not ready yet will cost to build."""
    for table in status["tables"]:
        if not table["ready"]:
            print(f"building {_cost_line(table)}", file=sys.stderr)


def _prepare_databases(request: dict) -> dict | None:
    """Before a solve: build the pattern databases that search would use and the cache folder lacks (the api says
    which), saying first what each costs; the api's error answer if a build failed (numpy missing, a full disk),
    else None (a bad request is left for the solve to answer)."""
    status = api.pattern_databases(request)
    if status["ok"] and not status["ready"]:
        build_s = sum(table.get("build_s", 0) for table in status["tables"] if not table["ready"])
        seconds = request.get("max_seconds")
        if seconds and build_s > seconds:  # the time limit is the user's: no half-hour build before the search
            rows, cols, _ = parse_table_name(status["tables"][0]["name"])
            shape = f"{rows}x{cols}{SHAPE_SUFFIX[status['set']]}"
            return api.error("limit", f"the {status['set']} tables are not built yet, and building them takes about "
                             f"{build_s / 60:.0f} minutes, beyond --max-seconds {seconds:g}: build them first "
                             f"(slidelab pdb {shape})")
        _say_costs(status)
        bar = _ProgressBar()
        built = api.pattern_databases(request, build=True, on_progress=bar)
        bar.close()
        if not built["ok"]:
            return built
    return None


def _pdb(args) -> dict:
    if args.scheduler and args.engine != "dask":
        return api.error("invalid", "--scheduler is for --engine dask")
    if not 1 <= args.workers <= api.MAX_WORKERS:
        return api.error("invalid", f"--workers must be from 1 to {api.MAX_WORKERS}")
    dask = {"scheduler": args.scheduler, "workers": args.workers} if args.engine == "dask" else None
    answers = []
    bar = _ProgressBar()
    for shape in args.shapes:
        table_set = next((name for name, suffix in SHAPE_SUFFIX.items() if suffix and shape.endswith(suffix)), "pdb")
        board = shape[:len(shape) - len(SHAPE_SUFFIX[table_set])]
        query = {"shape": board, "tables": table_set, **({"goal": args.goal} if args.goal else {})}
        status = api.pattern_databases(query)
        if not status["ok"]:
            return status
        if not args.json:
            _say_costs(status)
        answer = api.pattern_databases(query, build=True, on_progress=bar, dask=dask)
        if not answer["ok"]:
            bar.close()
            return answer
        answers.append({"shape": shape, "tables": answer["tables"]})
        if args.out:
            try:
                write_files([table["name"] for table in answer["tables"]], args.out)
            except OSError as e:
                bar.close()
                return api.error("invalid", f"cannot write the tables into {args.out}: {e.strerror or e}")
    bar.close()
    return {"ok": True, "folder": str(cache_dir()), "shapes": answers}


def _print_pdb(answer: dict) -> None:
    for entry in answer["shapes"]:
        print(f"{entry['shape']}: " + ", ".join(t["name"] for t in entry["tables"]))
    print(f"ready, in {answer['folder']}")


def _batch(args) -> int:
    """`slidelab batch`: solve every position of a file; one line per position as it finishes, then a summary."""
    from . import batch
    from .search import ALGORITHMS

    def refuse(message):
        print(f"slidelab: invalid: {message}", file=sys.stderr)
        return EXIT_INVALID

    if args.algorithm not in ALGORITHMS:
        return refuse(f"unknown algorithm '{args.algorithm}'; choose one of: {', '.join(ALGORITHMS)}")
    if args.heuristic is not None and args.heuristic not in HEURISTICS:
        return refuse(f"unknown heuristic '{args.heuristic}'; choose one of: {', '.join(HEURISTICS)}")
    if not 0 <= args.workers <= api.MAX_WORKERS:
        return refuse(f"--workers must be from 0 (one per core) to {api.MAX_WORKERS}")
    if args.scheduler and args.engine != "dask":
        return refuse("--scheduler is for --engine dask")
    try:
        method = _request(args)
    except _FileError as e:
        return refuse(str(e))
    options = {k: v for k, v in method.items() if k in batch.PROBLEM_KEYS + batch.LIMIT_KEYS + batch.CODE_KEYS}
    reading = "standard input" if args.file == "-" else args.file
    resume = state = source = None
    try:
        if args.resume:
            reading = args.resume
            resume = open(args.resume, "a+", encoding="utf-8", errors="replace")  # a stray byte spoils one line
            if not _lock(resume):
                resume.close()
                return refuse(f"{args.resume} is being written by another run of slidelab batch; wait for it to end")
            resume.seek(0)
            state = batch.Resume(resume, batch.method_of(options))
            if resume.tell():
                resume.seek(resume.tell() - 1)
                if resume.read(1) != "\n":  # an interrupted run's last line, cut short: start a new one
                    resume.write("\n")
        reading = "standard input" if args.file == "-" else args.file
        done = state.done if state else set()
        if args.file == "-":
            source, total = sys.stdin, None  # read once, as it comes: no count ahead
        else:
            source = open(args.file, encoding="utf-8")
            # a first pass, in little memory: how many positions there are to solve, and any byte that is not UTF-8
            total = sum(1 for p in batch.stream_positions(batch.lines_of(source))
                        if p.board is None or (p.name, p.board) not in done)
            source.seek(0)
    except UnicodeDecodeError:
        _close(resume, source)
        return refuse(f"cannot read {reading}: it is not UTF-8 text")
    except OSError as e:
        _close(resume, source)
        return refuse(f"cannot read {e.filename or reading}: {e.strerror or e}")
    if resume is not None and state is not None and state.other is not None and not args.carry_on:
        _close(resume, source)
        made_by = ", ".join(f"{k} {v}" for k, v in state.other.items()) or "the defaults"
        return refuse(f"{args.resume} holds answers to other problems ({made_by}); resume with the same options, "
                      "or add --carry-on to solve these positions again beside them")
    counts = {"skipped": 0, "retried": 0}

    def to_solve():
        for p in batch.stream_positions(batch.lines_of(source)):
            if p.board is not None and (p.name, p.board) in done:
                counts["skipped"] += 1
                continue
            if state and (p.name, p.board) in state.retry:
                counts["retried"] += 1
            yield p

    positions = to_solve()
    try:
        first = next(positions, None)
    except UnicodeDecodeError:
        _close(resume, source)
        return refuse(f"cannot read {reading}: it is not UTF-8 text")
    if first is not None and first.board is not None:
        failed = _prepare_databases(dict(options, board=first.board))
        if failed is not None:
            _close(resume, source)
            return _say_error(failed)
    clock, totals, used = batch.Clock(), batch.Totals(), dict[str, object]()
    progress = _BatchProgress(clock, total)
    runner = batch.run(itertools.chain([first] if first else [], positions), options,
                       batch.cpu_workers(args.workers), args.engine, args.scheduler, used)
    try:
        progress.draw(0)
        for record in runner:
            totals.add(record)
            line = json.dumps(record)
            if resume:
                resume.write(line + "\n")
                resume.flush()
            progress.clear()  # stdout shares the terminal: the record starts on a clean line
            print(line if args.json else _batch_line(record), flush=True)
            progress.draw(totals.records)
        total_line = totals.summary(counts["skipped"], clock.elapsed(), used, counts["retried"])
        if resume:
            resume.write(json.dumps(total_line) + "\n")
            resume.flush()
    except SlideLabError as e:  # the Dask cluster cannot be reached, say
        progress.clear()
        print(f"slidelab: {e.code}: {e}", file=sys.stderr)
        return e.exit_status
    except KeyboardInterrupt:
        progress.clear()
        print(f"slidelab: stopped after {totals.records} positions"
              + (f"; --resume {args.resume} goes on from there" if resume else ""), file=sys.stderr)
        return EXIT_NO_SOLUTION
    except UnicodeDecodeError:  # standard input, read as it comes
        progress.clear()
        print(f"slidelab: invalid: cannot read {reading} past its position {totals.records + counts['skipped']}: "
              "it is not UTF-8 text", file=sys.stderr)
        return EXIT_INVALID
    except BrokenPipeError:  # the reader stopped early (`slidelab batch ... | head`): stop quietly
        _quiet_stdout()
        return EXIT_NO_SOLUTION
    except OSError as e:  # the resume file could not be written: a full disk, say
        progress.clear()
        print(f"slidelab: cannot write {args.resume}: {e.strerror or e}; {totals.records} answers were written "
              "before", file=sys.stderr)
        return EXIT_WRITE_FAILED
    finally:
        runner.close()  # stops the workers still solving
        progress.clear()
        _close(resume, source)
    try:
        print(json.dumps(total_line) if args.json else _batch_summary(total_line["summary"]), flush=True)
    except BrokenPipeError:
        _quiet_stdout()
    return EXIT_OK if totals.failed == 0 else EXIT_NO_SOLUTION


def _close(*files) -> None:
    """Close the files that were opened (a resume file, a batch file; never standard input)."""
    for file in files:
        if file is not None and file is not sys.stdin:
            try:
                file.close()
            except OSError:  # what could not be written was said where it failed
                pass


def _lock(file) -> bool:
    """Take the only lock on an open file (False: another process holds it); no locks where fcntl is missing."""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


class _BatchProgress:
    """The batch's progress line on stderr (positions done, rate, time left), on a terminal only. The records go to
    stdout, on the same screen: `clear` wipes the line before each one, `draw` puts it back after."""

    def __init__(self, clock, total, stream=None):
        self.stream = sys.stderr if stream is None else stream
        self.live = self.stream.isatty()
        self.clock, self.total = clock, total
        self.shown = False

    def draw(self, done: int) -> None:
        if not self.live:
            return
        text = f"  {done}/{self.total} positions" if self.total is not None else f"  {done} positions"
        if done:
            text += f", {done / max(self.clock.elapsed(), 1e-9):.2f}/s"
            if self.total is not None:
                text += f", about {self.clock.left(done, self.total):.0f} s left"
        self.stream.write("\r\x1b[K" + text)
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def _quiet_stdout() -> None:
    """Point stdout at the null device, so that the exit's flush to a closed pipe says nothing."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _batch_line(record: dict) -> str:
    """One position's text line: "k60  66 moves (optimal)  3,170,143 expanded  2.70 s", or its error."""
    if not record["ok"]:
        return f"{record['name']}  {record['error']['code']}: {record['error']['message']}"
    s = record["stats"]
    kind = "optimal" if record["optimal"] else "not necessarily shortest"
    return (f"{record['name']}  {_n_moves(record['length'])} ({kind})  {s['expanded']:,} expanded  "
            f"{s['elapsed_s']:.2f} s")


def _batch_summary(s: dict) -> str:
    worst = s["worst"]
    retried = f", {s['retried']} retried" if s.get("retried") else ""
    text = (f"{s['positions']} positions: {s['solved']} solved ({s['optimal']} optimal), {s['failed']} failed, "
            f"{s['skipped']} already done{retried}; {s['expanded']:,} expanded; {s['wall_s']:.1f} s wall, "
            f"{s['solve_s']:.1f} s of solving")
    if worst:
        text += f"; median {s['median_s']:.3f} s, worst {worst['name']} ({worst['elapsed_s']:.2f} s)"
    return text


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
    if args.command == "batch":
        return _batch(args)
    if args.command in ("exercise", "grade"):
        return cli_course.run(args)
    try:
        request = _request(args) if args.command != "pdb" else {}
        if args.command == "check-heuristic":
            request = _check_request(request)
    except _FileError as e:
        print(f"slidelab: invalid: {e}", file=sys.stderr)
        return EXIT_INVALID
    if args.command == "compare":
        answer, printer = _compare(request), _print_compare
    elif args.command in ("solve", "trace"):
        failed = _prepare_databases(request)  # an error answer when its tables could not be built
        printer = _print_solve if args.command == "solve" else _print_trace
        answer = failed or _run_code(api.solve if args.command == "solve" else api.trace, request)
    elif args.command == "check-heuristic":
        bar = _ExploreProgress()
        # isolate: the check runs where your code never does, and asks a process of its own for h's values
        answer = _run_code(api.check_heuristic, dict(request, isolate=True), on_progress=bar)
        printer = _print_check
        bar.close()
    elif args.command == "pdb":
        answer = _pdb(args)
        printer = _print_pdb
    else:
        bar = _ExploreProgress()
        answer = api.explore(request, on_progress=bar)
        bar.close()
        printer = _print_explore
    try:
        if args.json:
            print(json.dumps(answer))
        else:
            if answer["ok"]:
                printer(answer)
            elif "trace" in answer:  # what a trace recorded before your heuristic failed or the time ran out
                printer(answer["trace"])
            _print_printed(answer)
    except (KeyError, TypeError, AttributeError):  # made up by a process that ran your code (never by slidelab's)
        print("slidelab: user_code: the process running your heuristic answered something that is not an answer",
              file=sys.stderr)
        return EXIT_INVALID
    except BrokenPipeError:  # the reader stopped early (`slidelab trace ... | head`): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so that the exit's flush is quiet
    return _say_error(answer) if not answer["ok"] else _exit_code(answer)


def _compare(request: dict) -> dict:
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
    return compare_runs.compare(request, runs, seconds, lambda asked: _run_code(api.solve, asked),
                                on_row=_CompareProgress())


class _CompareProgress:
    """On a terminal, a line on stderr as each run of a comparison ends."""

    def __call__(self, row: dict) -> None:
        if sys.stderr.isatty():
            print(f"  {_compare_method(row)}: {row['status']}", file=sys.stderr, flush=True)


def _compare_method(row: dict) -> str:
    method = row["algorithm"] + (f" with {row['heuristic']}" if row.get("heuristic") else "")
    return method + (f" ({row['heuristic_used']})" if row.get("heuristic_used") else "")


def _print_compare(answer: dict) -> None:
    rows = answer["rows"]
    width = max(len(_compare_method(row)) for row in rows)
    print(f"{'method':<{width}}  {'length':>8}  {'expanded':>12}  {'stored':>12}  {'time':>9}")
    for row in rows:
        method = f"{_compare_method(row):<{width}}"
        if row["status"] != "done":
            limit = "time or memory limit: " if row["status"] == "limit" else ""
            print(f"{method}  {limit}{row['error']['message']}")
            continue
        length = str(row["length"]) + ("" if row["optimal"] else "*")
        print(f"{method}  {length:>8}  {row['expanded']:>12,}  {row['stored']:>12,}  {row['elapsed_s']:>8.3f}s")
    if any(row["status"] == "done" and not row["optimal"] for row in rows):
        print("* not known to be shortest")
    print(f"each run within {answer['time_limit_s']:g} s")
    for row in rows:
        _print_printed(row)


def _print_printed(answer: dict) -> None:
    """What your heuristic printed, after the answer and apart from it."""
    if answer.get("printed"):
        lines = answer["printed"].splitlines()
        print("your heuristic printed:")
        for line in lines[:PRINTED_LINES]:
            print(f"  | {line}")
        if len(lines) > PRINTED_LINES:
            print(f"  | ... ({len(lines) - PRINTED_LINES:,} more lines kept; --json has them)")


def _say_error(answer: dict) -> int:
    """Say an error answer on stderr in one line, `slidelab: CODE: reason`; its exit status."""
    print(f"slidelab: {answer['error']['code']}: {answer['error']['message']}", file=sys.stderr)
    return _exit_code(answer)
