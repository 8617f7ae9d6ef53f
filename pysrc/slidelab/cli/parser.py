"""The command line's parser: every command and its options, built from the table of commands. Building it imports
only the request layer's names (defaults, engines, limits); a command's own module is imported once it runs."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NamedTuple

from slidelab.cli.args import EXIT_INVALID
from slidelab.contract import request as names
from slidelab.core.puzzles.tokens import PRESETS, RULES

_PUZZLE_HELP = (f"puzzle type: sliding (the default), tokens (BOARD, --goal and --rule), or a token preset: "
                f"{', '.join(PRESETS)}")


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors in one line with exit code 2, like every other invalid input."""

    def error(self, message):
        self.exit(EXIT_INVALID, f"slidelab: error: {message}\n")

    def format_help(self):
        if getattr(self, "catalogue", False):  # made when asked for: a command that runs pays nothing for it
            from slidelab.heuristics import HEURISTICS
            from slidelab.search import ALGORITHMS

            self.epilog = f"algorithms:\n{_catalogue(ALGORITHMS.values())}\n\nheuristics:\n" \
                          f"{_catalogue(HEURISTICS.values())}"
        return super().format_help()


class _Version(argparse.Action):
    """--version: slidelab's version and which sandbox someone else's code runs in here (probed when asked)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from slidelab import __version__
        from slidelab.run import sandbox

        print(f"slidelab {__version__}\nsandbox for someone else's code: {sandbox.status()['detail']}")
        parser.exit(0)


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
    _puzzle_arguments(parser, "the goal position (default: 1..N-1, blank bottom right; a preset's goal)")
    parser.add_argument("--algorithm", default=names.DEFAULT_ALGORITHM,
                        help="search algorithm (listed by `slidelab solve --help`)")
    parser.add_argument("--heuristic", help=f"heuristic for informed searches (default {names.DEFAULT_HEURISTIC}; "
                        "'yours' with --heuristic-file)")
    parser.add_argument("--heuristic-file", metavar="FILE.py", help="your own heuristic: a Python file defining "
                        "h(board) (board.tiles, board.goal, board.rows, board.cols; see docs/your-heuristic.md)")
    _function_argument(parser)
    parser.add_argument("--weight", type=float, help="W of the weighted algorithm, f = g + W * h (default 2)")
    parser.add_argument("--no-compare", dest="compare", action="store_false", default=None,
                        help="with --heuristic-file and A* or IDA*: do not find the shortest length to compare the "
                        "path with (the path is then not known to be shortest)")


def _puzzle_arguments(parser, goal_help: str, puzzle_more: str = "") -> None:
    """--goal, --puzzle and --rule: what puzzle a position is of (solve, trace, compare, batch, explore, check)."""
    parser.add_argument("--goal", help=goal_help)
    parser.add_argument("--puzzle", default="sliding", help=_PUZZLE_HELP + puzzle_more)
    parser.add_argument("--rule", choices=RULES, help="how token pieces move (with --puzzle tokens)")


def _function_argument(parser) -> None:
    """--heuristic-function (--function: the same): the function of your heuristic's file."""
    parser.add_argument("--heuristic-function", "--function", dest="heuristic_function", metavar="NAME",
                        help="the function of your heuristic's file to use (default h)")


def _solve(sub, name, help) -> None:
    from slidelab.run.checkpoint import EVERY_S as CHECKPOINT_EVERY_S

    solve = _search_parser(sub, name, help, "Find a shortest solution.")
    solve.add_argument("--all-solutions", action="store_true", help="list every shortest solution")
    solve.add_argument("--max-nodes", type=int, help="give up after expanding this many nodes (checked every few "
                       "thousand)")
    solve.add_argument("--max-seconds", type=float, help="give up after this many seconds")
    solve.add_argument("--workers", type=int, help="split IDA* over this many processes (default 1; 0: one per core)")
    solve.add_argument("--engine", choices=names.MACHINE_ENGINES,
                       help="what carries a split IDA*: forked processes (default) or a Dask cluster (the scale "
                       "extra), local with --workers workers (default one per core) unless --scheduler names one")
    solve.add_argument("--scheduler", metavar="ADDRESS", help="split IDA* over the workers of this Dask cluster "
                       "(tcp://host:port; it means --engine dask)")
    solve.add_argument("--checkpoint", metavar="FILE", help="record a split IDA* in FILE as it goes (at least every "
                       f"{CHECKPOINT_EVERY_S} s of finished work), so that --resume FILE goes on after a stop")
    solve.add_argument("--resume", metavar="FILE", help="go on with the search a --checkpoint FILE recorded (the "
                       "same board and options; its finished work kept), recording on in FILE")
    solve.add_argument("--json", action="store_true", help="print one JSON object")


def _trace(sub, name, help) -> None:
    trace = _search_parser(sub, name, help,
                           "Show what a search does, step by step: each position expanded, its children and what "
                           "became of them, until the goal (or --max-steps expansions).")
    trace.add_argument("--max-steps", type=int, help=f"expansions recorded (default and most: "
                       f"{names.MAX_TRACE_STEPS:,})")
    trace.add_argument("--max-seconds", type=float, help="stop after this many seconds (the trace so far is shown)")
    trace.add_argument("--json", action="store_true",
                       help="print one JSON object (the trace format: docs/algorithms.md)")


def _compare(sub, name, help) -> None:
    from slidelab.run.compare import DEFAULT_SECONDS as COMPARE_SECONDS

    compare = _search_parser(sub, name, help,
                             "Solve one position with several algorithm and heuristic pairs in turn, each within a "
                             "time limit, and compare length, nodes expanded, positions stored and time (the page's "
                             "Compare). The pairs: --run, else with --heuristic-file the assignment's (A* with h = 0, "
                             "misplaced tiles, Manhattan distance and yours), else the page's defaults.")
    compare.add_argument("--run", action="append", metavar="ALGORITHM[:HEURISTIC]",
                         help="a pair to run (repeat it for more), e.g. --run astar:manhattan --run bfs")
    compare.add_argument("--max-seconds", type=float, help=f"the time limit of each run (default "
                         f"{COMPARE_SECONDS} s)")
    compare.add_argument("--json", action="store_true", help="print one JSON object")


def _explore(sub, name, help) -> None:
    explore = sub.add_parser(
        name, help=help,
        description="Breadth-first search of the whole state space from the goal: how many positions can reach "
                    "it, how many at each distance, the largest distance and the positions at it.")
    explore.add_argument("position", metavar="SHAPE|BOARD", nargs="?",
                         help="a board shape like 3x3, or a board (whose distance from the goal is also given)")
    _puzzle_arguments(explore, "the goal position (default: 1..N-1, blank bottom right)",
                      "; token puzzles are explored from their start")
    explore.add_argument("--engine", choices=names.EXPLORE_ENGINES,
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


def _batch(sub, name, help) -> None:
    batch = sub.add_parser(name, help=help,
                           description="Solve every position of FILE (one board per line; '#' comments, at a line's "
                           "start or after a space; a line may start with 'name:'), printing one line per position "
                           "as it finishes and a summary; on a terminal, a progress line on stderr.")
    batch.add_argument("file", help="the positions ('-': standard input)")
    _method_arguments(batch)
    batch.add_argument("--max-nodes", type=int, help="give up on a position after this many nodes")
    batch.add_argument("--max-seconds", type=float, help="give up on a position after this many seconds")
    batch.add_argument("--workers", type=int, default=1, help="positions solved at once, one process each "
                       "(default 1; 0: one per core)")
    batch.add_argument("--engine", choices=names.MACHINE_ENGINES, default="processes",
                       help="processes on this machine (the default), or a Dask cluster (the scale extra)")
    batch.add_argument("--scheduler", metavar="ADDRESS", help="the Dask cluster to use (tcp://host:port); "
                       "without it --engine dask starts a local one with --workers workers")
    batch.add_argument("--resume", metavar="OUT", help="JSON lines of an earlier run: skip the positions it "
                       "answered for good (solved, unsolvable, invalid; a limit or a missing table is tried again), "
                       "append the new answers to it; one run at a time")
    batch.add_argument("--carry-on", action="store_true", help="resume even though OUT holds answers to other "
                       "problems (another goal, algorithm or heuristic): solve these positions again beside them")
    batch.add_argument("--json", action="store_true", help="print JSON lines (the summary last)")


def _check(sub, name, help) -> None:
    check = sub.add_parser(
        name, help=help,
        description="Check a heuristic against the true distances: on boards of up to 2,000,000 positions every "
                    "position that can reach the goal and every move (a proof either way, with the worst "
                    "counterexample); on larger boards a sample of positions of known distance (no proof). "
                    "FILE.py defines h(board); see docs/your-heuristic.md.")
    check.add_argument("heuristic_file", metavar="FILE.py", help="your heuristic: a Python file defining h(board)")
    check.add_argument("board", metavar="GOAL", nargs="?", help="the goal, a board (or a shape like 3x3, with its "
                       "default goal); the checked positions are all those that can reach it")
    check.add_argument("--shape", help="a board shape like 3x3, with the default goal (1..N-1, blank bottom right)")
    _puzzle_arguments(check, "the goal, as GOAL gives it (a token preset's start is its board)")
    _function_argument(check)
    check.add_argument("--engine", choices=names.CHECK_ENGINES,
                       help="python (every position up to 2,000,000, a sample beyond) or numpy (every position of a "
                       "sliding board of up to 12 cells, e.g. all 239,500,800 of a 3x4: the scale extra); default: "
                       "python, else numpy for a larger board when numpy is installed")
    check.add_argument("--workers", type=int, help="processes evaluating h with the numpy engine (default: one per "
                       "core)")
    check.add_argument("--examples", type=int, metavar="N", help=f"list the N largest overestimates (at most "
                       f"{names.MAX_EXAMPLES})")
    check.add_argument("--max-seconds", type=float, help="give up after this many seconds (default for your own code: "
                       "an hour)")
    check.add_argument("--json", action="store_true", help="print one JSON object")


def _pdb(sub, name, help) -> None:
    from slidelab.heuristics.pdb.files import ENV_DIR

    pdb = sub.add_parser(
        name, help=help,
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


def _exercise(sub, name, help) -> None:
    exercise = sub.add_parser(
        name, help=help,
        description="Without EXERCISE, list the exercises that come with Slide Lab. With it (a name from that list "
                    "or a .toml file, or a student form), print its tasks; with --answer or --set, grade your "
                    "answers as a teacher's `slidelab grade` would (but the choices, where the file holds no "
                    "answers), and with --hand-in save them as a file to hand in; --key and --student-form are "
                    "for the teacher.")
    exercise.add_argument("exercise", metavar="EXERCISE", nargs="?", help="an exercise's name, .toml file or "
                          "student form (.json)")
    exercise.add_argument("--lang", help="the language of the texts (default: the locale's, else English)")
    exercise.add_argument("--answer", metavar="FILE", help="your work: a .py file (the code of every heuristic task) "
                          "or a hand-in .json")
    exercise.add_argument("--set", action="append", default=[], metavar="TASK=ANSWER",
                          help="the answer to a task (a number, or a choice's id), e.g. --set expanded-h0=147132")
    exercise.add_argument("--student", help="your name, in the hand-in (the positions drawn for you follow it)")
    exercise.add_argument("--student-id", dest="student_id", help="your student id, where your course gives one (the "
                          "positions drawn for you then follow it)")
    exercise.add_argument("--hand-in", dest="hand_in", metavar="OUT.json", help="save your answers and code as a "
                          "hand-in file")
    exercise.add_argument("--key", action="store_true", help="print the answer key: each choice question's "
                          "answer, each measure task's right figure (found by the engine), each heuristic's criteria")
    exercise.add_argument("--student-form", dest="student_form", action="store_true",
                          help="print the exercise's student form: the same exercise with every answer left out "
                               "(JSON), to give students or put on a site")
    exercise.add_argument("--gradescope-bundle", dest="gradescope_bundle", metavar="OUT.zip",
                          help="write a Gradescope autograder bundle that grades each submission's hand-in")
    exercise.add_argument("--json", action="store_true", help="print one JSON object")


def _grade(sub, name, help) -> None:
    grade = sub.add_parser(
        name, help=help,
        description="Grade every hand-in file afresh against EXERCISE (never trusting what a file says of itself): "
                    "each student's code runs in a process of its own, with the task's time limit, so code that "
                    "loops or crashes costs its own task alone. Prints a table (student, each task's points, total, "
                    "the first problem), or --json, or --csv.")
    grade.add_argument("exercise", metavar="EXERCISE", help="an exercise's name or .toml file")
    grade.add_argument("handins", metavar="HANDED_IN", nargs="*", help="hand-in files (at least one, but for "
                       "gradescope and prairielearn, whose results say when a submission holds none)")
    grade.add_argument("--workers", type=int, default=1, help="hand-ins graded at once, one process each (default 1; "
                       "0: one per core)")
    grade.add_argument("--no-sandbox", action="store_true", help="grade even where this machine gives no sandbox "
                       "(`slidelab --version` says which it gives): each hand-in then runs in a process of its own, "
                       "with your rights")
    output = grade.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object (as --format json)")
    output.add_argument("--csv", action="store_true", help="print the table as CSV, with a student id column that "
                        "Moodle imports (as --format csv)")
    output.add_argument("--format", choices=GRADE_FORMATS, default="table",
                        help="table (default), json, csv, canvas (the CSV Canvas's gradebook imports), gradescope or "
                             "prairielearn (the results JSON of one submission, as their autograders read it)")


GRADE_FORMATS = ("table", "json", "csv", "canvas", "gradescope", "prairielearn")


class Command(NamedTuple):
    module: str  # the module of this folder whose run(args) runs it, imported only then
    help: str  # its line in `slidelab --help`
    define: Callable  # declares its sub-parser and options


COMMANDS = {
    "solve": Command("solve", "find a shortest solution", _solve),
    "trace": Command("trace", "show a search step by step", _trace),
    "compare": Command("compare", "compare algorithms and heuristics on one position", _compare),
    "explore": Command("explore", "explore every position that can reach the goal", _explore),
    "batch": Command("batch", "solve every position of a file, in parallel", _batch),
    "check-heuristic": Command("check", "check your own heuristic: admissible? consistent? how informed?", _check),
    "exercise": Command("course", "read an exercise, answer it, grade your own work", _exercise),
    "grade": Command("course", "grade a class's hand-ins", _grade),
    "pdb": Command("pdb", "build the pattern databases for a board shape", _pdb),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: one sub-parser per command. Given the `command` to run, only its sub-parser is
    made (argparse's parsers are slow to make): a run pays for its own."""
    parser = _Parser(prog="slidelab", description="Solve sliding-tile and token puzzles optimally.")
    parser.add_argument("--version", action=_Version, nargs=0, help="say the version, and the sandbox this machine "
                        "gives someone else's code")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, (_, help, define) in COMMANDS.items():
        if command in (None, name) or command not in COMMANDS:
            define(sub, name, help)
    return parser


def command_of(argv: list[str]) -> str | None:
    """The command that `argv` names, if it names one (its first word that is not an option)."""
    return next((word for word in argv if not word.startswith("-")), None)
