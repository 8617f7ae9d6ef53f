"""The course commands of `slidelab`: `exercise` (read one, answer it, grade your own work, save a hand-in) and
`grade` (a class's hand-ins, as a table, JSON or CSV). docs/exercises.md describes both."""

from __future__ import annotations

import json
import locale
import os
import sys
from pathlib import Path

from slidelab import __version__
from slidelab.cli.args import EXIT_INVALID, EXIT_OK, Refused, read_text
from slidelab.core.errors import SlideLabError
from slidelab.course import Exercise, ExerciseError, make_handin, read_exercise, shipped, shipped_text
from slidelab.course.format import criterion_text, described, say
from slidelab.course.grade import failed_row, problem, write_csv
from slidelab.course.variants import positions_of

MAX_FILE = 5_000_000  # bytes of an exercise or a hand-in read


def run(args) -> int:
    try:
        if args.command == "grade":
            return _grade(args)
        return _exercise(args)
    except ExerciseError as e:
        print(f"slidelab: invalid: {e}", file=sys.stderr)
        return EXIT_INVALID
    except SlideLabError as e:
        print(f"slidelab: {e.code}: {e}", file=sys.stderr)
        return e.exit_status


def load_exercise(name: str) -> Exercise:
    """A shipped exercise by name, or an exercise file."""
    if name.endswith(".toml") or os.sep in name or Path(name).exists():
        text = read_text(name, "the exercise", MAX_FILE)
        try:
            return read_exercise(text)
        except ExerciseError as e:
            line = e.details.get("line")
            raise ExerciseError(f"{name}{f':{line}' if line else ''}: {e}") from None
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
    positions = positions_of(exercise, args.student, args.student_id)
    if args.key or args.student_form or args.gradescope_bundle:
        if args.answer or args.set or args.hand_in:
            raise Refused("--key, --student-form and --gradescope-bundle are the teacher's: leave out --answer, "
                          "--set and --hand-in")
        if args.gradescope_bundle:
            _bundle(args, exercise)
        elif args.student_form:
            print(exercise.student_text)
        else:
            _print_key(exercise, positions, language, args.json)
        return EXIT_OK
    if not (args.answer or args.set):
        if args.hand_in:
            raise Refused("--hand-in saves your answers: give them with --answer or --set")
        if args.json:
            print(json.dumps(dict(described(exercise), positions=positions)))
        else:
            _print_exercise(exercise, positions, language)
        return EXIT_OK
    handin = _own_handin(args, exercise)
    if args.hand_in:
        try:
            Path(args.hand_in).write_text(json.dumps(handin, indent=1), encoding="utf-8")
        except OSError as e:
            raise Refused(f"cannot write {args.hand_in}: {e.strerror or e}") from None
    from slidelab.course.grade import Truths, grade_handin

    row = grade_handin(exercise, json.dumps(handin), args.answer or "--set", Truths(exercise))
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
    student, student_id = args.student or "", args.student_id
    if args.answer:
        text = read_text(args.answer, "your answer", MAX_FILE)
        if args.answer.endswith(".json"):
            from slidelab.course import read_handin

            given = read_handin(text, exercise)
            answers, code, student = dict(given["answers"]), dict(given["code"]), args.student or given["student"]
            student_id = args.student_id or given.get("student_id")
        else:
            code = {task.id: text for task in exercise.tasks if task.kind == "heuristic"}
    tasks = {task.id: task for task in exercise.tasks}
    for item in args.set:
        task_id, _, value = item.partition("=")
        task = tasks.get(task_id.strip())
        if task is None or not value:
            raise Refused(f"--set {item[:60]}: give TASK=ANSWER, TASK one of {', '.join(tasks)}")
        if task.kind == "heuristic":
            raise Refused(f"--set {task.id}: a heuristic task takes your code (--answer FILE.py)")
        answers[task.id] = value.strip() if task.kind == "predict" else _number(value, item)
    return make_handin(exercise, student, answers, code, f"slidelab {__version__} (command line)", student_id)


def _number(value: str, item: str):
    try:
        number = float(value.replace(",", "").replace("_", ""))
    except ValueError:
        raise Refused(f"--set {item[:60]}: the answer to a measure task is a number") from None
    return int(number) if number.is_integer() else number


def _bundle(args, exercise: Exercise) -> None:
    """Write a Gradescope autograder bundle for the exercise (the teacher's file: it holds the answers)."""
    from slidelab.course.exports import gradescope_bundle

    if not exercise.has_key:
        raise Refused("this is a student form: it holds no answers; give the teacher's .toml file")
    text = read_text(args.exercise, "the exercise", MAX_FILE) if Path(args.exercise).exists() else \
        shipped_text(args.exercise)
    try:
        names = gradescope_bundle(text, exercise, Path(args.gradescope_bundle))
    except OSError as e:
        raise Refused(f"cannot write {args.gradescope_bundle}: {e.strerror or e}") from None
    print(f"wrote {args.gradescope_bundle}: {', '.join(names)}; upload it as the assignment's autograder "
          "(Configure Autograder, zip file upload)")


def _print_exercise(exercise: Exercise, positions: dict, language: str) -> None:
    print(f"{say(exercise.title, language)} ({exercise.id}, {_points(exercise.max_points)})")
    if exercise.text:
        print(say(exercise.text, language))
    shown = [f"{name} = {positions[name]}" if name in positions else f"{name} = drawn per student (--student NAME)"
             for name in [*exercise.positions, *exercise.draws]]
    if shown:
        print("positions: " + ", ".join(shown))
    for number, task in enumerate(exercise.tasks, 1):
        print(f"\n{number}. [{task.id}] {say(task.title, language)} ({_points(task.max_points)})")
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
                print(f"   - {criterion_text(criterion)} ({_points(criterion.points)})")
            print(f"   answer: a Python file defining {task.function}(board) (--answer FILE.py)")
            if task.starter:
                print("   to start from:")
                print("".join(f"     {line}\n" for line in task.starter.splitlines()), end="")


def _points(points: float) -> str:
    return f"{points:g} point" + ("" if points == 1 else "s")


def _print_key(exercise: Exercise, positions: dict, language: str, as_json: bool) -> None:
    """The answer key: each task's right answer (a choice, the engine's figure) or criteria, on `positions` (a
    student's, or the fixed ones: a task on a drawn position then says so)."""
    if not exercise.has_key:
        raise Refused("this is a student form: it holds no answers; give the teacher's .toml file")
    from slidelab.course.grade import answer_key

    key = answer_key(exercise, positions)
    if as_json:
        print(json.dumps({"ok": True, "id": exercise.id, "student_sha256": exercise.student_sha256,
                          "positions": positions, "key": key}))
        return
    print(f"answer key: {say(exercise.title, language)} ({exercise.id}, {_points(exercise.max_points)})")
    for task in exercise.tasks:
        given = key[task.id]
        if task.kind == "predict":
            choice = next(c for c in task.choices if c.id == given)
            shown = f"{given}: {say(choice.text, language)}"
        elif task.kind == "measure":
            shown = f"could not be found: {given['error']}" if isinstance(given, dict) else \
                ("none (the position cannot reach the goal)" if given is None else f"{given:,}")
            if task.tolerance:
                shown += f" (within {task.tolerance:g})"
        else:
            shown = "; ".join(given)
        print(f"{task.id} ({task.kind}, {_points(task.max_points)}): {shown}")
        if task.explanation:
            print(f"  {say(task.explanation, language)}")
    drawn = [name for name in exercise.draws if name not in positions]
    if drawn:
        print(f"drawn per student: {', '.join(drawn)} (--student NAME or --student-id ID gives a student's key)")
    print(f"student form's sha256 (hand-ins name it): {exercise.student_sha256}")


def _print_own(exercise: Exercise, row: dict, language: str) -> None:
    if not row["ok"]:
        print(row["error"])
        return
    for task in exercise.tasks:
        result = row["tasks"][task.id]
        print(f"{task.id}: {result['points']:g}/{result['max']:g} {result['status']}: {result['detail']}")
        for criterion in result.get("criteria", []):
            print(f"  {criterion['check']}: {criterion['points']:g}/{criterion['max']:g}: {criterion['detail']}")
        if result.get("explanation"):
            print(f"  {say(result['explanation'], language)}")
    print(f"total: {row['total']:g}/{row['max']:g}")
    if row.get("note"):
        print(f"note: {row['note']}")


def _grade(args) -> int:
    from slidelab.core.workers import cores
    from slidelab.course.grade import grade_all
    from slidelab.run import sandbox

    exercise = load_exercise(args.exercise)
    if not 0 <= args.workers <= 256:
        raise Refused("--workers must be from 0 (one per core) to 256")
    if not args.handins and (args.json or args.csv or args.format not in ("gradescope", "prairielearn")):
        raise Refused("give the hand-in files to grade")
    if not sandbox.available():
        if not args.no_sandbox:
            raise Refused(f"{sandbox.status()['detail']}; hand-ins are strangers' code, so grade them in the page's "
                          "Grade view (its workers are sandboxed), or give --no-sandbox to run each in a process "
                          "of its own with your rights")
        print(f"slidelab: notice: {sandbox.status()['detail']}: each hand-in runs in a process of its own, with "
              "your rights (--no-sandbox)", file=sys.stderr)
    files, rows = [], []
    for path in args.handins:
        try:
            files.append((path, read_text(path, "the hand-in", MAX_FILE)))
        except Refused as e:  # a file that cannot be read is a row of its own
            rows.append(failed_row(exercise, path, str(e)))
    live = sys.stderr.isatty()
    for row in grade_all(exercise, files, args.workers or cores()):
        rows.append(row)
        if live:
            print(f"\r  graded {len(rows)}/{len(files)}", end="", file=sys.stderr, flush=True)
    if live:
        print(file=sys.stderr)
    rows.sort(key=lambda r: ((r.get("student") or "").lower(), r["file"]))
    form = "json" if args.json else "csv" if args.csv else args.format
    if form == "json":
        print(json.dumps({"ok": True, "exercise": exercise.id, "max": exercise.max_points, "rows": rows}))
    elif form == "csv":
        write_csv(exercise, rows, sys.stdout)
    elif form == "table":
        _print_table(exercise, rows)
    else:
        from slidelab.course import exports

        if form == "canvas":
            exports.write_canvas(exercise, rows, sys.stdout)
        else:
            print(json.dumps(exports.one_submission(exercise, rows, getattr(exports, form)), indent=1))
    return EXIT_OK


def _print_table(exercise: Exercise, rows: list) -> None:
    from slidelab.run.sandbox import visible

    ids = [task.id for task in exercise.tasks]
    names = [visible(row.get("student") or Path(row["file"]).name, 60) for row in rows]  # a hand-in's own words
    width = max([len("student"), *map(len, names)])
    print(f"{'student':<{width}}  " + "  ".join(ids) + f"  {'total':>7}  problem")
    for name, row in zip(names, rows, strict=True):
        cells = [f"{row['tasks'][i]['points']:>{len(i)}g}" if row["ok"] else f"{'-':>{len(i)}}" for i in ids]
        print(f"{name:<{width}}  " + "  ".join(cells) + f"  {row['total']:>3g}/{row['max']:<3g}  "
              f"{visible(problem(row), 300)}")

