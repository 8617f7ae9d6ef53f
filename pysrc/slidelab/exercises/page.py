"""Exercises in the page: what its workers answer to open an exercise, hand it in, and grade hand-ins.

Grading in the page keeps a hand-in's code apart from its grade as the command line does, with two workers instead
of two processes: a *grading* worker that never runs anyone's code reads the exercise and the hand-in, finds the
right answers and checks and searches with h's values, which it asks of an *evaluating* worker through the page
(`grade(request, ask)`: `ask` carries a message to the page and waits for its answer). The evaluating worker is
locked down, started afresh for each hand-in, and only compiles the code (`evaluator_start`) and computes h of the
states it is sent (`evaluate`); every value is checked again where it is used.
"""

from __future__ import annotations

import hashlib

from ..errors import BadRequest
from ..heuristics import user
from ..supervised import _state_codec, answered_error, checked_values
from .format import Exercise, ExerciseError, described, make_handin, read_exercise, shipped, shipped_text
from .grade import grade_handin, problem, truths, write_csv

MAX_EXERCISE_CHARS = 200_000  # an exercise is a page of text: a larger one is refused before it is read
MAX_HANDIN_CHARS = 2_000_000  # a hand-in holds code and answers


def catalogue() -> list[dict]:
    """The exercises that come with Slide Lab: [{"id", "title": {language: text}}] (describe()["exercises"])."""
    return [{"id": name, "title": read_exercise(shipped_text(name)).title} for name in shipped()]


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
    """An exercise to show: described() with its TOML ("toml") and its "sha256" (a student's work is kept under it)."""
    exercise, text = _exercise(request)
    return dict(described(exercise), toml=text, sha256=exercise.sha256)


def hand_in(request) -> dict:
    """{"ok", "file": the hand-in as JSON text, "name": a file name} from {"text" or "id", "student", "answers",
    "code", "app"?}: the same file as `slidelab exercise --hand-in` writes."""
    import json

    exercise, _ = _exercise(request)
    student = request.get("student")
    answers, code = request.get("answers") or {}, request.get("code") or {}
    if not isinstance(student, str) or not student.strip():
        raise BadRequest("give your name (the teacher sees it in the grades)", reason="no_student")
    if not isinstance(answers, dict) or not isinstance(code, dict) or not all(isinstance(v, str)
                                                                              for v in code.values()):
        raise BadRequest("answers and code are objects by task id, code as text")
    known = {task.id for task in exercise.tasks}
    answers = {k: v for k, v in answers.items() if k in known}
    code = {k: v for k, v in code.items() if k in known}
    from .. import __version__

    app = str(request.get("app") or f"slidelab {__version__} (page)")[:200]
    handin = make_handin(exercise, student.strip()[:200], answers, code, app)
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in student.strip())[:40].strip("-") or "student"
    return {"ok": True, "file": json.dumps(handin, ensure_ascii=False, indent=1),
            "name": f"{exercise.id}-{safe}.slidelab.json"}


def answer(name: str, request, ask=None) -> dict:
    """The answer of one of the page's exercise calls (open, hand_in, table, evaluator_start, evaluate, grade), its
    errors answered as the api answers them."""
    from .. import api

    calls = {"open": open_exercise, "hand_in": hand_in, "table": table, "evaluator_start": evaluator_start,
             "evaluate": evaluate}
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
    from .. import api

    _evaluating.clear()
    puzzle = api.make_puzzle(request.get("puzzle") or {})
    function = request.get("function") or user.DEFAULT_FUNCTION
    heuristic = user.user_heuristic(puzzle, request.get("heuristic_code"), function, filename="<hand-in>")
    _evaluating.update(heuristic=heuristic, decode=_state_codec(puzzle)[1])
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
    ({"start": ...} or {"states": ...} to {"ok", "values"} or {"ok": false, "error"}). The page counts the code's time
    and ends a worker that overruns it (the answer is then a "limit" error)."""

    def __init__(self, ask, puzzle, request: dict, code: str, function: str, seconds: float):
        self._ask = ask
        self.format = puzzle.format
        self._encode = _state_codec(puzzle)[0]
        self.asked: list | None = None
        self.seconds = seconds
        self._answer({"start": {"puzzle": request, "heuristic_code": code, "function": function,
                                "max_seconds": seconds}})

    def _answer(self, message: dict):
        answer = self._ask(message)
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
        return checked_values(self._answer({"states": self._encode(states)}), states, self.format, "worker")

    def close(self) -> str:
        return ""


_truths: dict = {}  # the right answers of the exercises graded in this worker, by the exercise's sha256


def grade(request, ask) -> dict:
    """A hand-in's row ({"exercise": TOML text, "handin": its JSON text, "name": its file name}), as grade.py's
    grade_handin makes it on the command line, with h's values from the page (see PageEvaluator)."""
    exercise, _ = _exercise({"text": request.get("exercise") if isinstance(request, dict) else None})
    text, name = request.get("handin"), str(request.get("name") or "hand-in")[:200]
    if not isinstance(text, str) or len(text) > MAX_HANDIN_CHARS:
        return {"ok": False, "file": name, "student": None, "total": 0, "max": exercise.max_points,
                "error": "the file is not a hand-in (too large, or not text)"}
    if exercise.sha256 not in _truths:
        _truths[exercise.sha256] = truths(exercise)

    def evaluator(puzzle, code, function, filename, seconds):
        board = exercise.goal or next(iter(exercise.positions.values()), None)
        return PageEvaluator(ask, puzzle, exercise.request(board), code, function, seconds)

    row = grade_handin(exercise, text, name, _truths[exercise.sha256], evaluator)
    return dict(row, problem=problem(row), file_sha256=hashlib.sha256(text.encode()).hexdigest())


def table(request) -> dict:
    """{"ok", "csv"}: the rows of {"text" (the exercise), "rows"} as `slidelab grade --csv` writes them."""
    import io

    exercise, _ = _exercise(request)
    rows = request.get("rows")
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        raise BadRequest("rows: a list of graded rows")
    out = io.StringIO()
    write_csv(exercise, [row for row in rows if row.get("ok") is not None and "file" in row], out)
    return {"ok": True, "csv": out.getvalue()}

