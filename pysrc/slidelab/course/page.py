"""Exercises in the page: what its workers answer to open an exercise, hand it in, and grade hand-ins.

Grading in the page keeps a hand-in's code apart from its grade as the command line does, with two workers instead
of two processes: a *grading* worker that never runs anyone's code reads the exercise and the hand-in, finds the
right answers and checks and searches with h's values, which it asks of an *evaluating* worker through the page.
The evaluating worker is locked down, started afresh for each hand-in, and only compiles the code
(`evaluator_start`) and computes h of the states it is sent (`evaluate`); every value is checked again where it is
used. Where the puzzle's whole space fits the complete check (the 8-puzzle's 181,440 positions), h of every position
is asked for first, in one exchange, and the grading runs on those values (`grade_steps`: any browser); on a larger
space the grading asks as it goes (`grade(request, ask)`: `ask` waits for the page's answer in the middle of the
grading code, which needs a stack switch in the worker).
"""

from __future__ import annotations

import hashlib
import io
import json

from slidelab import __version__, api
from slidelab.core.answers import Failed
from slidelab.core.errors import BadRequest
from slidelab.course.format import (
    Exercise,
    ExerciseError,
    described,
    make_handin,
    read_exercise,
    read_handin,
    shipped_text,
)
from slidelab.course.grade import Truths, failed_row, for_student, grade_handin, problem, write_csv
from slidelab.course.variants import positions_of
from slidelab.heuristics import user
from slidelab.run.supervised import answered_error, checked_values, state_codec
from slidelab.space.explore import MAX_POSITIONS

MAX_EXERCISE_CHARS = 200_000  # an exercise is a page of text: a larger one is refused before it is read
MAX_HANDIN_CHARS = 2_000_000  # a hand-in holds code and answers


def _exercise(request) -> tuple[Exercise, str]:
    """The exercise a request names: {"id": a shipped one} or {"text": its TOML}."""
    if not isinstance(request, dict):
        raise BadRequest("the request is not an object")
    text = request.get("text")
    if text is None and isinstance(request.get("id"), str):
        text = shipped_text(request["id"])
    if not isinstance(text, str):
        raise ExerciseError("give the exercise as 'text' (its TOML) or the 'id' of one that comes with Slide Lab")
    if len(text) > MAX_EXERCISE_CHARS:
        raise ExerciseError(f"the exercise is too long ({len(text):,} characters; at most {MAX_EXERCISE_CHARS:,})",
                            reason="too_long")
    return read_exercise(text), text


def open_exercise(request) -> dict:
    """An exercise to show: described() with the text opened ("toml", held in memory to grade with), its student
    form ("student_text": what the page stores and links, no answer in it) and that form's "sha256" (a student's
    work is kept under it, and a hand-in names it). With "student" (and "student_id"), its positions are that
    student's, the drawn ones included; without, the fixed ones alone."""
    exercise, text = _exercise(request)
    return dict(described(exercise), toml=text, student_text=exercise.student_text, sha256=exercise.student_sha256,
                text_sha256=exercise.sha256,  # the key a student's work was kept under before student forms
                positions=positions_of(exercise, request.get("student"), request.get("student_id")))


def key(request) -> dict:
    """{"ok", "key": {task id: its right answer}, "positions"} of the exercise {"text"} (a teacher's: the editor
    shows it), on the positions of {"student"} when it names one (grade.answer_key)."""
    from slidelab.course.grade import answer_key

    exercise, _ = _exercise(request)
    if not exercise.has_key:
        raise ExerciseError("this is a student form: it holds no answers", reason="no_key")
    positions = positions_of(exercise, request.get("student"), request.get("student_id"))
    return {"ok": True, "key": answer_key(exercise, positions), "positions": positions}


def hand_in(request) -> dict:
    """{"ok", "file": the hand-in as JSON text, "name": a file name} from {"text" or "id", "student", "answers",
    "code", "app"?}: the same file as `slidelab exercise --hand-in` writes."""
    exercise, _ = _exercise(request)
    student, student_id = request.get("student"), request.get("student_id") or None
    answers, code = request.get("answers") or {}, request.get("code") or {}
    if not isinstance(student, str) or not student.strip():
        raise BadRequest("give your name (the teacher sees it in the grades)", reason="no_student")
    if student_id is not None and not isinstance(student_id, str):
        raise BadRequest("a student id is text")
    if not isinstance(answers, dict) or not isinstance(code, dict) or not all(isinstance(v, str)
                                                                              for v in code.values()):
        raise BadRequest("answers and code are objects by task id, code as text")
    known = {task.id for task in exercise.tasks}
    answers = {k: v for k, v in answers.items() if k in known}
    code = {k: v for k, v in code.items() if k in known}
    app = str(request.get("app") or f"slidelab {__version__} (page)")[:200]
    handin = make_handin(exercise, student.strip()[:200], answers, code, app,
                         student_id.strip()[:100] if student_id else None)
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in student.strip())[:40].strip("-") or "student"
    return {"ok": True, "file": json.dumps(handin, ensure_ascii=False, indent=1),
            "name": f"{exercise.id}-{safe}.slidelab.json"}


def answer(name: str, request, ask=None) -> dict | Failed:
    """The answer of one of the page's exercise calls (open, hand_in, table, evaluator_start, evaluate, grade), its
    errors answered as the api answers them."""
    calls = {"open": open_exercise, "hand_in": hand_in, "table": table, "evaluator_start": evaluator_start,
             "evaluate": evaluate, "key": key}
    try:
        if name == "grade":
            return grade(request, ask)
        return calls[name](request)
    except Exception as e:
        return api.failure(e)


# ---- the evaluating worker: h of the states it is sent, nothing else ----

_evaluating: dict = {}


def evaluator_start(request) -> dict:
    """Compile a hand-in's heuristic ({"puzzle": an api request's puzzle part, "heuristic_code", "function"}) for the
    `evaluate` calls that follow; its error (syntax, h at the goal) answers here."""
    _evaluating.clear()
    puzzle = api.make_puzzle(request.get("puzzle") or {})
    function = request.get("function") or user.DEFAULT_FUNCTION
    heuristic = user.user_heuristic(puzzle, request.get("heuristic_code"), function, filename="<hand-in>")
    _evaluating.update(heuristic=heuristic, decode=state_codec(puzzle)[1])
    return {"ok": True}


def evaluate(request) -> dict:
    """{"ok", "values"}: h of each state of {"states": bytes (or JSON text of token positions)}."""
    if "heuristic" not in _evaluating:
        raise BadRequest("no heuristic was started in this worker")
    states = _evaluating["decode"](bytes(request.get("states") or b""))
    heuristic = _evaluating["heuristic"]
    return {"ok": True, "values": [heuristic(state) for state in states]}


# ---- the grading worker: never runs the code ----

class PageEvaluator:
    """supervised.Evaluator's part for the page: the values come from the page's evaluating worker, through `ask`
    ({"start": ...} or {"states": ...} to {"ok", "values"} or {"ok": false, "error"}), or from `known`, the answers
    to those two questions asked before the grading began ((start answer, states, values answer)). The page counts
    the code's time and ends a worker that overruns it (the answer is then a "limit" error)."""

    def __init__(self, ask, puzzle, request: dict, code: str, function: str, seconds: float, known=None):
        self._ask = ask
        self.format = puzzle.format
        self._encode = state_codec(puzzle)[0]
        self.asked: list | None = None
        self.seconds = seconds
        self.known: dict = {}
        if known is not None:
            started, states, found = known
            self._answered(started)
            self.known = dict(zip(states, checked_values(self._answered(found), states, self.format, "worker"),
                                  strict=True))
            return
        self._answer(_start(puzzle, request, code, function, seconds))

    def _answer(self, message: dict):
        return self._answered(self._ask(message))

    def _answered(self, answer):
        if not isinstance(answer, dict) or not answer.get("ok"):
            raise answered_error(answer.get("error") if isinstance(answer, dict) else None, self.seconds)
        return answer.get("values")

    def values(self, states: list) -> list[int]:
        self.ask(states)
        return self.take()

    def ask(self, states: list) -> None:
        self.asked = states

    def take(self) -> list[int]:
        states, self.asked = self.asked, None
        if not states:
            return []
        if self.known:
            return [self.known[state] for state in states]  # the whole space: every position is known
        return checked_values(self._answer({"states": self._encode(states)}), states, self.format, "worker")

    def close(self) -> str:
        return ""


_truths: dict = {}  # the right answers of the exercises graded in this worker, by the exercise's sha256


def grade(request, ask) -> dict:
    """A hand-in's row ({"exercise": TOML text, "handin": its JSON text, "name": its file name}), as grade.py's
    grade_handin makes it on the command line, with h's values from the page, asked for as the grading goes."""
    steps = grade_steps(request, ask)
    answer = None
    try:
        while True:
            answer = ask(steps.send(answer)["ask"])
    except StopIteration as stop:
        return stop.value


def grading_steps(request, ask=None):
    """grade_steps for the worker: its errors answered as the api answers them."""
    try:
        return (yield from grade_steps(request, ask))
    except Exception as e:
        return api.failure(e)


def grade_steps(request, ask=None):
    """grade() as a generator: where the whole space fits the complete check, h of every position is asked for
    first (`answer = yield {"ask": message}`), then the grading runs on those values; on a larger space `ask` is
    called as the grading goes (None: the row says that this browser cannot grade it)."""
    exercise, _ = _exercise({"text": request.get("exercise") if isinstance(request, dict) else None})
    text, name = request.get("handin"), str(request.get("name") or "hand-in")[:200]
    if not isinstance(text, str) or len(text) > MAX_HANDIN_CHARS:
        return failed_row(exercise, name, "the file is not a hand-in (too large, or not text)")
    if exercise.sha256 not in _truths:
        _truths[exercise.sha256] = Truths(exercise)
    request_of = exercise.request(exercise.space_board)
    puzzle = api.make_puzzle(request_of)
    known: dict = {}  # (code, function) -> (start answer, states, values answer)
    for task, code in _heuristic_code(exercise, text):
        if puzzle.state_count() > MAX_POSITIONS:
            if ask is None:
                return failed_row(exercise, name, NO_WAITING)
            break
        if (code, task.function) not in known:
            started = yield {"ask": _start(puzzle, request_of, code, task.function, task.max_seconds)}
            states = _space(puzzle) if isinstance(started, dict) and started.get("ok") else []
            found = (yield {"ask": {"states": state_codec(puzzle)[0](states)}}) if states else started
            known[(code, task.function)] = (started, states, found)

    def evaluator(puzzle, code, function, filename, seconds):
        return PageEvaluator(ask, puzzle, request_of, code, function, seconds, known.get((code, function)))

    row = grade_handin(exercise, text, name, _truths[exercise.sha256], evaluator)
    if request.get("student"):  # a student's own check: what the exercise lets it tell
        row = for_student(row, exercise)
    return dict(row, problem=problem(row), file_sha256=hashlib.sha256(text.encode()).hexdigest())


NO_WAITING = ("grading this exercise in the page needs a browser with WebAssembly JavaScript Promise "
              "Integration (Chrome or Edge 137 or later): its board is too large to evaluate whole; grade on the "
              "command line with slidelab grade")


def _start(puzzle, request: dict, code: str, function: str, seconds: float) -> dict:
    return {"start": {"puzzle": request, "heuristic_code": code, "function": function, "max_seconds": seconds}}


def _heuristic_code(exercise: Exercise, text: str) -> list:
    """(task, code) of each heuristic task the hand-in has code for (none when it is not a hand-in: its row says
    so)."""
    try:
        handin = read_handin(text, exercise)
    except ExerciseError:
        return []
    found = []
    for task in exercise.tasks:
        code = handin["code"].get(task.id)
        if task.kind == "heuristic" and isinstance(code, str) and code.strip():
            found.append((task, code))
    return found


def _space(puzzle) -> list:
    """Every position that reaches the goal, breadth-first from it (the order the complete check takes them in, so
    the code meets them, and fails on them, in the same order)."""
    children_of = puzzle.children
    seen = {puzzle.goal: None}
    layer = [puzzle.goal]
    while layer:
        following = []
        for state in layer:
            for child in children_of(state):
                if child not in seen:
                    seen[child] = None
                    following.append(child)
        layer = following
    return list(seen)


def table(request) -> dict:
    """{"ok", "csv"}: the rows of {"text" (the exercise), "rows"} as `slidelab grade --csv` writes them."""
    exercise, _ = _exercise(request)
    rows = request.get("rows")
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        raise BadRequest("rows: a list of graded rows")
    out = io.StringIO()
    write_csv(exercise, [row for row in rows if row.get("ok") is not None and "file" in row], out)
    return {"ok": True, "csv": out.getvalue()}

