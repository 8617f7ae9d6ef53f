"""Grading: a hand-in's answers and heuristics against an exercise, afresh (nothing the file says of itself is
trusted), the same way for one student (`slidelab exercise --answer`) and for a class (`slidelab grade`).

The right answers of measure tasks are the engine's, found once per exercise by searches that run no one's code. A
student's heuristic is evaluated in a process of its own (supervised.Evaluator), which only computes h; the checks,
the searches that count its nodes and the comparison with a reference run here, on the values it gave, so code that
patches what its own process uses cannot change its grade, and code that loops or crashes costs its own task alone,
within the task's time limit. Many hand-ins are graded on forked worker processes (workers.py), which never run a
student's code either.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

from slidelab import api
from slidelab.core.control import Limits, run
from slidelab.core.errors import SearchLimit, SlideLabError, TooLarge, internal
from slidelab.core.puzzles import with_start
from slidelab.course.format import Exercise, ExerciseError, ExerciseTask, read_handin
from slidelab.heuristics import get_heuristic
from slidelab.run import supervised
from slidelab.search import ALGORITHMS

TRUTH_SECONDS = 120  # how long the engine may take to find the right answer of a measure task
GRADER_SECONDS = 600  # how long the grading's own checks and searches of one task may take (the student's code has
# the task's max_seconds, counted in its own process)


def truths(exercise: Exercise, positions: dict | None = None) -> dict:
    """The right answer of every measure task, {task id: number}, or {task id: {"error"}} where the engine could not
    find it (the task's row says so), on `positions` (a student's, variants.positions_for; default the fixed
    ones)."""
    return Truths(exercise).of(exercise.positions if positions is None else positions)


def answer_key(exercise: Exercise, positions: dict | None = None) -> dict:
    """{task id: its right answer}: a choice's id, a measure task's figure as the engine finds it on `positions` (a
    student's; default the fixed ones: a task on a drawn position then has {"error"}), a heuristic task's criteria
    as text. For the teacher: a student form has no key (its choices are None)."""
    from slidelab.course.format import criterion_text

    right = truths(exercise, positions)
    return {task.id: task.answer if task.kind == "predict" else right[task.id] if task.kind == "measure" else
            [criterion_text(c) for c in task.criteria] for task in exercise.tasks}


class Truths:
    """The right answers of an exercise's measure tasks, each found once per board it is asked on (the students
    who draw the same position, and the tasks on no position, share theirs)."""

    def __init__(self, exercise: Exercise):
        self.exercise = exercise
        self.found: dict = {}  # (task id, board) -> the answer

    def of(self, positions: dict) -> dict:
        right = {}
        for task in self.exercise.tasks:
            if task.kind != "measure":
                continue
            board = positions.get(task.position) if task.position else None
            if (task.id, board) not in self.found:
                try:
                    self.found[task.id, board] = _measure(self.exercise, task, board)
                except SlideLabError as e:
                    self.found[task.id, board] = {"error": str(e)}
            right[task.id] = self.found[task.id, board]
        return right


def _measure(exercise: Exercise, task: ExerciseTask, board: str | None):
    if task.position and board is None:
        raise ExerciseError(f"task {task.id}: its position '{task.position}' is drawn per student")
    if task.quantity in ("length", "expanded", "generated", "stored"):
        request = dict(exercise.request(board), algorithm=task.algorithm, max_seconds=TRUTH_SECONDS)
        if task.heuristic is not None:
            request["heuristic"] = task.heuristic
        if task.heuristic == "yours" and exercise.example:  # the exercise's example (ours): it runs here
            from slidelab.heuristics.examples import source

            request["heuristic_code"] = source(exercise.example)
        answer = api.solve(request)
        if not answer["ok"]:
            raise SlideLabError(answer["error"]["message"])
        stats: Mapping[str, Any] = answer["stats"]
        return answer["length"] if task.quantity == "length" else stats[task.quantity]
    if board is None:
        board = exercise.space_board
    request = exercise.request(board)
    if board is None and exercise.puzzle == "sliding":
        raise ExerciseError(f"task {task.id}: the board to explore is not known: give the exercise a goal")
    explored = api.explore(dict(request, max_seconds=TRUTH_SECONDS))
    if not explored["ok"]:
        raise SlideLabError(explored["error"]["message"])
    if task.quantity == "positions":
        return explored["states"]
    if task.quantity == "max_depth":
        return explored["max_depth"]
    if task.quantity == "distance":
        return explored.get("board_depth")
    if task.quantity == "positions_at_distance":
        depths = explored["depths"]
        return depths[task.distance] if task.distance is not None and 0 <= task.distance < len(depths) else 0
    puzzle = api.make_puzzle(request)  # unreachable: the arrangements of the tiles that cannot reach the goal
    return math.factorial(puzzle.size) - explored["states"]


def grade_handin(exercise: Exercise, text: str, name: str, right: Truths, evaluator=None) -> dict:
    """One hand-in's row: {"file", "student", "student_id"?, "ok", "tasks": {id: {"points", "max", "status",
    "detail", "board"?}}, "total", "max", "positions"?}, or {"file", "ok": false, "error"} for a file that is not a
    hand-in of this exercise. Its positions are the student's (the drawn ones, listed in the row). `evaluator(puzzle,
    code, function, filename, seconds)` makes what computes a heuristic's values: a process of its own by default
    (supervised.Evaluator), the page's evaluating worker in the page."""
    from slidelab.course.variants import positions_for, student_key

    try:
        handin = read_handin(text, exercise)
        positions = positions_for(exercise, student_key(handin["student"], handin.get("student_id")))
    except ExerciseError as e:
        return failed_row(exercise, name, str(e))
    answers = right.of(positions)
    tasks = {}
    for task in exercise.tasks:
        if task.kind == "heuristic":
            tasks[task.id] = grade_heuristic(exercise, task, handin["code"].get(task.id), evaluator, positions)
        else:
            tasks[task.id] = _grade_answer(task, handin["answers"].get(task.id), answers.get(task.id))
        if task.explanation:
            tasks[task.id]["explanation"] = task.explanation
    total = round(sum(t["points"] for t in tasks.values()), 6)
    row = {"file": name, "student": handin["student"][:200], "ok": True, "tasks": tasks, "total": total,
           "max": exercise.max_points}
    if handin.get("student_id"):
        row["student_id"] = handin["student_id"][:100]
    if exercise.draws:
        row["positions"] = {name: positions[name] for name in exercise.draws}
    if handin.get("exercise_sha256") != exercise.student_sha256:
        row["note"] = OTHER_VERSION
    return row


# what a row's detail adds, written once here and taken off again by for_student
TEACHER_GRADES = ": your teacher grades it"
ENGINE_FINDS = " (the engine finds "
OTHER_VERSION = ("made for another version of this exercise (its text changed since the student opened it): "
                 "graded against this one")


def for_student(row: dict, exercise: Exercise) -> dict:
    """A row as a student's own check shows it, by what the exercise lets it tell (`check_my_work`): "figures"
    everything but the right choices of predictions (those a student could find by trying each); "right_or_wrong"
    the points without the engine's figures; "nothing" only whether each task was answered. Never an
    explanation: those come with the teacher's grade."""
    if not row.get("ok"):
        return row
    level = exercise.check_my_work
    tasks = {}
    for task in exercise.tasks:
        result = {k: v for k, v in row["tasks"][task.id].items() if k != "explanation"}
        answered = result["status"] != "unanswered"
        if level == "nothing" and answered:
            result = {"points": 0, "max": result["max"], "status": "ungraded", "detail": "answered"}
        elif task.kind == "predict" and answered:
            detail = result["detail"].removesuffix(TEACHER_GRADES)  # a student form's says it already
            result = dict(result, points=0, status="ungraded", detail=detail + TEACHER_GRADES)
        elif level == "right_or_wrong" and task.kind == "measure":
            result["detail"] = result["detail"].split(ENGINE_FINDS)[0]
        elif level == "right_or_wrong":
            result = {k: v for k, v in result.items() if k not in ("board", "criteria")}
            result["detail"] = {"right": "every criterion met", "partly": "some criteria met"}.get(
                result["status"], "no criterion met" if result["status"] == "wrong" else result["detail"])
        tasks[task.id] = result
    total = round(sum(t["points"] for t in tasks.values()), 6)
    return dict(row, tasks=tasks, total=None if level == "nothing" else total, checked=level)


def failed_row(exercise: Exercise, name: str, error: str) -> dict:
    """The row of a file that was not graded (not a hand-in of this exercise, unreadable, or its grading failed)."""
    return {"file": name, "student": None, "ok": False, "error": error, "total": 0, "max": exercise.max_points}


def _grade_answer(task: ExerciseTask, given, right) -> dict:
    result = {"points": 0, "max": task.points}
    if given is None or given == "":
        return dict(result, status="unanswered", detail="not answered")
    if task.kind == "predict" and task.answer is None:  # a student form: the right choice is not known here
        return dict(result, status="ungraded", detail=f"chose {str(given)[:40]}{TEACHER_GRADES}")
    if task.kind == "predict":
        right_choice = given == task.answer
        return dict(result, points=task.points if right_choice else 0, status="right" if right_choice else "wrong",
                    detail=f"chose {str(given)[:40]}")
    if isinstance(right, dict):
        return dict(result, status="failed", detail=f"the engine could not find the answer: {right['error']}")
    if isinstance(given, bool) or not isinstance(given, (int, float)) or (isinstance(given, float)
                                                                          and not math.isfinite(given)):
        return dict(result, status="wrong", detail=f"{str(given)[:40]} is not a number")
    if right is None:  # a position that cannot reach the goal has no distance
        return dict(result, status="wrong", detail=f"answered {str(given)[:40]}; the position cannot reach the goal")
    close = abs(given - right) <= task.tolerance  # exact for ints of any size
    shown = f"{given:g}" if isinstance(given, float) else str(given)[:40]
    return dict(result, points=task.points if close else 0, status="right" if close else "wrong",
                detail=f"answered {shown}" + ("" if close else f"{ENGINE_FINDS}{right:,})"))


def grade_heuristic(exercise: Exercise, task: ExerciseTask, code, evaluator=None, positions=None) -> dict:
    """A heuristic task: each criterion's points, from h's values alone, which `evaluator` (see grade_handin)
    computed apart from here, its searches on `positions` (the student's; default the fixed ones)."""
    positions = exercise.positions if positions is None else positions
    result: dict = {"points": 0, "max": task.max_points, "criteria": []}
    if not isinstance(code, str) or not code.strip():
        return dict(result, status="unanswered", detail="no code handed in")
    puzzle = api.make_puzzle(exercise.request(exercise.space_board))  # a preset without a board: its goal's puzzle
    values = None
    try:
        values = (evaluator or supervised.Evaluator)(puzzle, code, task.function, "<hand-in>", task.max_seconds)
        heuristic = supervised.IsolatedHeuristic(values)
        check = None
        if any(c.check != "nodes" for c in task.criteria):
            from slidelab.space.check import check_steps

            check = run(check_steps(puzzle, heuristic, Limits(None, GRADER_SECONDS)))
        for criterion in task.criteria:
            passed, detail, at = _criterion(positions, puzzle, heuristic, criterion, check)
            entry = {"check": criterion.check, "points": criterion.points if passed else 0, "max": criterion.points,
                     "passed": passed, "detail": detail}
            if at is not None:
                entry["board"] = at
            result["criteria"].append(entry)
    except SlideLabError as e:  # the code failed, looped or ended: the task is marked, the others go on
        details = getattr(e, "details", {}) or {}
        for entry in result["criteria"]:  # what was met before it failed counts for nothing
            entry["points"] = 0
        failed = dict(result, status="failed", detail=str(e))
        if details.get("board"):
            failed["board"] = details["board"]
        return failed
    finally:
        if values is not None:
            values.close()
    result["points"] = round(sum(c["points"] for c in result["criteria"]), 6)
    result["status"] = "right" if result["points"] == result["max"] else "partly" if result["points"] else "wrong"
    failing = next((c for c in result["criteria"] if not c["passed"]), None)
    result["detail"] = failing["detail"] if failing else "every criterion met"
    if failing and "board" in failing:
        result["board"] = failing["board"]
    return result


def _criterion(positions, puzzle, heuristic, criterion, check):
    """(passed, what was found, the board that shows it or None)."""
    proved = "" if check is None or check["complete"] else " (on a sample: not proved)"
    if criterion.check == "admissible":
        worst = check.get("worst")
        if worst:
            return False, (f"overestimates on {check['overestimated']:,} positions, the most at {worst['board']}: "
                           f"h {worst['h']}, true distance {worst['distance']}"), worst["board"]
        return True, "never overestimates" + proved, None
    if criterion.check == "consistent":
        move = check.get("move")
        if move:
            return False, (f"h drops by {move['h_from'] - move['h_to']} in one move, from {move['from']} to "
                           f"{move['to']}"), move["from"]
        return True, "never drops by more than a move" + proved, None
    if criterion.check == "informed":
        reference = get_heuristic(criterion.reference, puzzle)
        for state, h in heuristic.known.items():
            if h < reference(state):
                board = puzzle.format(state)
                return False, f"under {criterion.reference} at {board} (h {h}, {criterion.reference} " \
                              f"{reference(state)})", board
        return True, f"never under {criterion.reference}" + proved, None
    total = 0
    algorithm = ALGORITHMS[criterion.algorithm]
    for name in criterion.positions:
        start = with_start(puzzle, puzzle.parse(positions[name]))
        left = max(criterion.at_most - total, 0) + 1
        try:
            result = run(algorithm.start(start, heuristic, Limits(left, GRADER_SECONDS),
                                         {"all_solutions": False, "weight": None}))
        except (SearchLimit, TooLarge) as e:
            if isinstance(e, SearchLimit) and e.reason != "node_limit":  # the code's time ran out: the task fails
                raise
            return False, f"more than {criterion.at_most:,} nodes expanded by {criterion.algorithm}", None
        if not start.is_goal(start.replay(result.moves)):
            return False, f"{criterion.algorithm} found no path to the goal", None
        total += result.stats.expanded
    passed = total <= criterion.at_most
    return passed, f"{total:,} nodes expanded by {criterion.algorithm} (at most {criterion.at_most:,})", None


def grade_all(exercise: Exercise, files: list, workers: int = 1) -> Iterator[dict]:
    """The rows of many hand-ins [(name, text)], as each is graded: on `workers` forked processes when more than one
    (each grading one hand-in at a time), in the order they finish."""
    right = Truths(exercise)
    if workers <= 1 or len(files) <= 1 or not supervised.available():
        for name, text in files:
            yield grade_handin(exercise, text, name, right)
        return
    from collections import deque

    from slidelab.core.workers import ForkedPool, GaveUp

    pool = ForkedPool(min(workers, len(files)), _serve, (exercise, right))
    queue: Any = deque(files)
    try:
        for event in pool.feed(queue, lambda file: file):
            if isinstance(event, GaveUp):
                name, _ = event.task
                yield failed_row(exercise, name, f"grading it stopped its worker each time ({event.how})")
                continue
            worker, row = event
            pool.finish(worker)
            yield row
    finally:
        pool.close()


def _serve(conn, exercise, right) -> None:
    """A grading worker (workers.py): grade the hand-ins it is sent until the pipe closes."""

    def answer(task):
        name, text = task
        try:
            return grade_handin(exercise, text, name, right)
        except Exception as e:  # a bug: the row says it, the others go on
            return failed_row(exercise, name, internal(e)["message"])

    from slidelab.core.workers import serve

    serve(conn, answer)


def problem(row: dict) -> str:
    """The first thing that cost a row points, with its board: the table's last column."""
    if not row["ok"]:
        return row["error"]
    for task_id, result in row["tasks"].items():
        if result["points"] < result["max"] and result["status"] not in ("unanswered", "ungraded"):
            board = f" (board {result['board']})" if result.get("board") else ""
            return f"{task_id}: {result['detail']}{board}"
    return row.get("note", "")


def write_csv(exercise: Exercise, rows: list, out) -> None:
    """The table as CSV: a row per hand-in (student, student id, file, each task's points, total, max, problem);
    Moodle imports it, matching its students by the id column."""
    import csv

    writer = csv.writer(out)
    writer.writerow(["student", "student_id", "file", *(task.id for task in exercise.tasks), "total", "max",
                     "problem"])
    for row in rows:
        points = [row["tasks"][task.id]["points"] if row["ok"] else "" for task in exercise.tasks]
        writer.writerow([row.get("student") or "", row.get("student_id", ""), row["file"], *points, row["total"],
                         row["max"], problem(row)])
