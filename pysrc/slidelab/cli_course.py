"""The course commands of `slidelab`: `exercise` (read one, answer it, grade your own work, save a hand-in) and
`grade` (a class's hand-ins, as a table, JSON or CSV). docs/exercises.md describes both."""

from __future__ import annotations

import json
import locale
import os
import sys
from pathlib import Path

from . import __version__
from .cli_args import EXIT_INVALID, EXIT_OK
from .errors import SlideLabError
from .exercises import Exercise, ExerciseError, make_handin, read_exercise, shipped, shipped_text
from .exercises.format import described, say
from .exercises.grade import failed_row, problem, write_csv

MAX_FILE = 5_000_000  # bytes of an exercise or a hand-in read


def add_parsers(sub) -> None:
    exercise = sub.add_parser(
        "exercise", help="read an exercise, answer it, grade your own work",
        description="Without EXERCISE, list the exercises that come with Slide Lab. With it (a name from that list "
                    "or a .toml file), print its tasks; with --answer or --set, grade your answers as a teacher's "
                    "`slidelab grade` would, and with --hand-in save them as a file to hand in.")
    exercise.add_argument("exercise", metavar="EXERCISE", nargs="?", help="an exercise's name or .toml file")
    exercise.add_argument("--lang", help="the language of the texts (default: the locale's, else English)")
    exercise.add_argument("--answer", metavar="FILE", help="your work: a .py file (the code of every heuristic task) "
                          "or a hand-in .json")
    exercise.add_argument("--set", action="append", default=[], metavar="TASK=ANSWER",
                          help="the answer to a task (a number, or a choice's id), e.g. --set expanded-h0=147132")
    exercise.add_argument("--student", help="your name, in the hand-in")
    exercise.add_argument("--hand-in", dest="hand_in", metavar="OUT.json", help="save your answers and code as a "
                          "hand-in file")
    exercise.add_argument("--json", action="store_true", help="print one JSON object")
    grade = sub.add_parser(
        "grade", help="grade a class's hand-ins",
        description="Grade every hand-in file afresh against EXERCISE (never trusting what a file says of itself): "
                    "each student's code runs in a process of its own, with the task's time limit, so code that "
                    "loops or crashes costs its own task alone. Prints a table (student, each task's points, total, "
                    "the first problem), or --json, or --csv.")
    grade.add_argument("exercise", metavar="EXERCISE", help="an exercise's name or .toml file")
    grade.add_argument("handins", metavar="HANDED_IN", nargs="+", help="hand-in files")
    grade.add_argument("--workers", type=int, default=1, help="hand-ins graded at once, one process each (default 1; "
                       "0: one per core)")
    output = grade.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object")
    output.add_argument("--csv", action="store_true", help="print the table as CSV")


def run(args) -> int:
    try:
        if args.command == "grade":
            return _grade(args)
        return _exercise(args)
    except (ExerciseError, _Refused) as e:
        print(f"slidelab: invalid: {e}", file=sys.stderr)
        return EXIT_INVALID
    except SlideLabError as e:
        print(f"slidelab: {e.code}: {e}", file=sys.stderr)
        return e.exit_status


class _Refused(Exception):
    """A file or option the course commands cannot take (the message says why)."""


def _read(path: str, what: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(MAX_FILE + 1)
    except UnicodeDecodeError:
        raise _Refused(f"cannot read {what} {path}: it is not UTF-8 text") from None
    except OSError as e:
        raise _Refused(f"cannot read {what} {path}: {e.strerror or e}") from None
    if len(text) > MAX_FILE:
        raise _Refused(f"{what} {path} is larger than {MAX_FILE:,} characters")
    return text


def load_exercise(name: str) -> Exercise:
    """A shipped exercise by name, or an exercise file."""
    if name.endswith(".toml") or os.sep in name or Path(name).exists():
        text = _read(name, "the exercise")
        try:
            return read_exercise(text)
        except ExerciseError as e:
            raise ExerciseError(f"{name}: {e}") from None
    return read_exercise(shipped_text(name))


def _language(args) -> str:
    if args.lang:
        return args.lang
    found = locale.getlocale()[0] or os.environ.get("LANG", "")
    return "ja" if found.lower().startswith("ja") else "en"


def _exercise(args) -> int:
    if args.exercise is None:
        for name in shipped():
            print(f"{name}: {say(read_exercise(shipped_text(name)).title, _language(args))}")
        return EXIT_OK
    exercise = load_exercise(args.exercise)
    language = _language(args)
    if not (args.answer or args.set):
        if args.hand_in:
            raise _Refused("--hand-in saves your answers: give them with --answer or --set")
        if args.json:
            print(json.dumps(described(exercise)))
        else:
            _print_exercise(exercise, language)
        return EXIT_OK
    handin = _own_handin(args, exercise)
    if args.hand_in:
        try:
            Path(args.hand_in).write_text(json.dumps(handin, indent=1), encoding="utf-8")
        except OSError as e:
            raise _Refused(f"cannot write {args.hand_in}: {e.strerror or e}") from None
    from .exercises.grade import grade_handin, truths

    row = grade_handin(exercise, json.dumps(handin), args.answer or "--set", truths(exercise))
    if args.json:
        print(json.dumps(row))
    else:
        _print_own(exercise, row, language)
        if args.hand_in:
            print(f"saved to hand in: {args.hand_in}")
    return EXIT_OK


def _own_handin(args, exercise: Exercise) -> dict:
    """The hand-in of the answers given on the command line: a hand-in file's, or a .py file's code for every
    heuristic task, and --set's answers."""
    answers: dict = {}
    code: dict = {}
    student = args.student or ""
    if args.answer:
        text = _read(args.answer, "your answer")
        if args.answer.endswith(".json"):
            from .exercises import read_handin

            given = read_handin(text, exercise)
            answers, code, student = dict(given["answers"]), dict(given["code"]), args.student or given["student"]
        else:
            code = {task.id: text for task in exercise.tasks if task.kind == "heuristic"}
    tasks = {task.id: task for task in exercise.tasks}
    for item in args.set:
        task_id, _, value = item.partition("=")
        task = tasks.get(task_id.strip())
        if task is None or not value:
            raise _Refused(f"--set {item[:60]}: give TASK=ANSWER, TASK one of {', '.join(tasks)}")
        if task.kind == "heuristic":
            raise _Refused(f"--set {task.id}: a heuristic task takes your code (--answer FILE.py)")
        answers[task.id] = value.strip() if task.kind == "predict" else _number(value, item)
    return make_handin(exercise, student, answers, code, f"slidelab {__version__} (command line)")


def _number(value: str, item: str):
    try:
        number = float(value.replace(",", "").replace("_", ""))
    except ValueError:
        raise _Refused(f"--set {item[:60]}: the answer to a measure task is a number") from None
    return int(number) if number.is_integer() else number


def _print_exercise(exercise: Exercise, language: str) -> None:
    print(f"{say(exercise.title, language)} ({exercise.id}, {exercise.max_points:g} points)")
    if exercise.text:
        print(say(exercise.text, language))
    if exercise.positions:
        print("positions: " + ", ".join(f"{name} = {board}" for name, board in exercise.positions.items()))
    for number, task in enumerate(exercise.tasks, 1):
        print(f"\n{number}. [{task.id}] {say(task.title, language)} ({task.max_points:g} points)")
        if task.text:
            print(f"   {say(task.text, language)}")
        if task.kind == "measure":
            print(f"   answer: a number (--set {task.id}=N)")
        elif task.kind == "predict":
            for choice in task.choices:
                print(f"   {choice.id}: {say(choice.text, language)}")
            print(f"   answer: a choice (--set {task.id}=ID)")
        else:
            for criterion in task.criteria:
                print(f"   - {_criterion_text(criterion)} ({criterion.points:g} points)")
            print(f"   answer: a Python file defining {task.function}(board) (--answer FILE.py)")
            if task.starter:
                print("   to start from:")
                print("".join(f"     {line}\n" for line in task.starter.splitlines()), end="")


def _criterion_text(criterion) -> str:
    if criterion.check == "nodes":
        return (f"{criterion.algorithm} expands at most {criterion.at_most:,} positions on "
                f"{', '.join(criterion.positions)}")
    if criterion.check == "informed":
        return f"never below {criterion.reference}"
    return {"admissible": "never overestimates", "consistent": "consistent"}[criterion.check]


def _print_own(exercise: Exercise, row: dict, language: str) -> None:
    if not row["ok"]:
        print(row["error"])
        return
    for task in exercise.tasks:
        result = row["tasks"][task.id]
        print(f"{task.id}: {result['points']:g}/{result['max']:g} {result['status']}: {result['detail']}")
        for criterion in result.get("criteria", []):
            print(f"  {criterion['check']}: {criterion['points']:g}/{criterion['max']:g}: {criterion['detail']}")
    print(f"total: {row['total']:g}/{row['max']:g}")


def _grade(args) -> int:
    from .exercises.grade import grade_all
    from .workers import cores

    exercise = load_exercise(args.exercise)
    if not 0 <= args.workers <= 256:
        raise _Refused("--workers must be from 0 (one per core) to 256")
    files, rows = [], []
    for path in args.handins:
        try:
            files.append((path, _read(path, "the hand-in")))
        except _Refused as e:  # a file that cannot be read is a row of its own
            rows.append(failed_row(exercise, path, str(e)))
    live = sys.stderr.isatty()
    for row in grade_all(exercise, files, args.workers or cores()):
        rows.append(row)
        if live:
            print(f"\r  graded {len(rows)}/{len(files)}", end="", file=sys.stderr, flush=True)
    if live:
        print(file=sys.stderr)
    rows.sort(key=lambda r: ((r.get("student") or "").lower(), r["file"]))
    if args.json:
        print(json.dumps({"ok": True, "exercise": exercise.id, "max": exercise.max_points, "rows": rows}))
    elif args.csv:
        write_csv(exercise, rows, sys.stdout)
    else:
        _print_table(exercise, rows)
    return EXIT_OK


def _print_table(exercise: Exercise, rows: list) -> None:
    ids = [task.id for task in exercise.tasks]
    names = [row.get("student") or Path(row["file"]).name for row in rows]
    width = max([len("student"), *map(len, names)])
    print(f"{'student':<{width}}  " + "  ".join(ids) + f"  {'total':>7}  problem")
    for name, row in zip(names, rows, strict=True):
        cells = [f"{row['tasks'][i]['points']:>{len(i)}g}" if row["ok"] else f"{'-':>{len(i)}}" for i in ids]
        print(f"{name:<{width}}  " + "  ".join(cells) + f"  {row['total']:>3g}/{row['max']:<3g}  {problem(row)}")

