"""Exercises: one plain-text format (TOML, read by the standard library) for what a teacher sets, its student form
(the same fields as JSON, every answer left out: what a student's page stores, links and hands in against), and the
hand-in file a student's work is saved in. docs/exercises.md describes every field; SCHEMA (a JSON Schema, written into
docs/exercise.schema.json) says the same for tools, and a test holds the two and this reader together.

An exercise is data only: reading one runs no code (a task's starting code is text shown to the student). A malformed
one is refused with the field and the reason, and the line where TOML gives one.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import NoReturn

from slidelab.core.errors import BadRequest
from slidelab.heuristics import HEURISTICS
from slidelab.heuristics.examples import EXAMPLES
from slidelab.search import ALGORITHMS

FORMAT = 1  # the exercise format this version reads
HANDIN_VERSION = 1  # the hand-in format this version writes and reads
KINDS = ("measure", "predict", "heuristic")
SEARCH_QUANTITIES = ("length", "expanded", "generated", "stored")  # of a solve with the task's method
SPACE_QUANTITIES = ("positions", "max_depth", "positions_at_distance", "unreachable", "distance")  # of the space
CHECKS = ("admissible", "consistent", "nodes", "informed")
NODE_ALGORITHMS = ("astar", "idastar")
CHECK_MY_WORK = ("figures", "right_or_wrong", "nothing")  # what a student's own check tells, most first
STUDENT_FORM = "student"  # the `form` of an exercise with its answers left out
ANSWER_FIELDS = ("answer", "expected", "explanation")  # a task's fields that only the teacher's file holds
DEFAULT_CODE_SECONDS = 30  # how long a student's heuristic may run for one task when the exercise names no limit
_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
_LANGUAGE = re.compile(r"[a-z]{2}(-[A-Za-z]{2,4})?")


class ExerciseError(BadRequest):
    """An exercise (or a hand-in) that cannot be read: the message names the field and the reason."""


@dataclass(frozen=True)
class Criterion:
    """One criterion of a heuristic task, and its points."""

    check: str
    points: float
    algorithm: str | None = None  # nodes: the search that counts them
    positions: tuple[str, ...] = ()  # nodes: the positions searched
    at_most: int | None = None  # nodes: the most nodes expanded in all
    reference: str | None = None  # informed: a built-in heuristic h must never be under


@dataclass(frozen=True)
class Draw:
    """A position drawn per student (variants.py): one of `boards`, or one whose distance from the goal lies in
    `distance` (low, high)."""

    boards: tuple[str, ...] = ()
    distance: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class Choice:
    id: str
    text: dict


@dataclass(frozen=True)
class ExerciseTask:
    """One task; which fields mean something depends on its kind (docs/exercises.md)."""

    id: str
    kind: str
    title: dict
    text: dict = field(default_factory=dict)
    points: float = 1
    position: str | None = None  # measure
    algorithm: str | None = None
    heuristic: str | None = None
    quantity: str | None = None
    distance: int | None = None
    tolerance: float = 0
    expected: float | None = None  # the figure the texts quote (a lesson shows it); grading uses the engine's
    choices: tuple[Choice, ...] = ()  # predict
    answer: str | None = None
    function: str = "h"  # heuristic
    starter: str | None = None
    criteria: tuple[Criterion, ...] = ()
    max_seconds: float = DEFAULT_CODE_SECONDS
    explanation: dict = field(default_factory=dict)  # shown with the grade, never before

    @property
    def max_points(self) -> float:
        return sum(c.points for c in self.criteria) if self.kind == "heuristic" else self.points


@dataclass(frozen=True)
class Exercise:
    id: str
    title: dict
    text: dict
    puzzle: str
    rule: str | None
    goal: str | None
    positions: dict  # the fixed boards by name
    tasks: tuple[ExerciseTask, ...]
    sha256: str  # of the exercise's text as read
    example: str | None = None  # an example heuristic (heuristics/examples) that measure tasks name as "yours"
    check_my_work: str = "figures"  # what a student's own check tells (CHECK_MY_WORK)
    student_text: str = ""  # the student form (student_form): no answer of any task
    student_sha256: str = ""  # of the student form: a hand-in names the exercise it was made for by it
    has_key: bool = True  # False for a student form: the right choices of predict tasks are not known
    draws: dict = field(default_factory=dict)  # the positions drawn per student, by name (Draw)

    @property
    def max_points(self) -> float:
        return sum(task.max_points for task in self.tasks)

    @property
    def space_board(self) -> str | None:
        """The board whose state space the exercise's heuristics and space quantities are about: its goal, else its
        first position (None for a preset with neither: its own goal)."""
        return self.goal or next(iter(self.positions.values()), None)

    def request(self, board: str | None = None) -> dict:
        """The puzzle part of an api request: this exercise's puzzle, goal and rule, with a board."""
        request = {"puzzle": self.puzzle, "board": board}
        if self.goal is not None:
            request["goal"] = self.goal
        if self.rule is not None:
            request["rule"] = self.rule
        return {k: v for k, v in request.items() if v is not None}


def shipped() -> list[str]:
    """The ids of the exercises that come with the package."""
    folder = resources.files("slidelab").joinpath("data").joinpath("exercises")
    return sorted(item.name[:-5] for item in folder.iterdir() if item.name.endswith(".toml"))


def shipped_text(exercise_id: str) -> str:
    if exercise_id not in shipped():
        raise ExerciseError(f"no exercise '{exercise_id[:64]}' comes with Slide Lab; these do: {', '.join(shipped())}")
    folder = resources.files("slidelab").joinpath("data").joinpath("exercises")
    return folder.joinpath(f"{exercise_id}.toml").read_text(encoding="utf-8")


def catalogue() -> list[dict]:
    """The exercises that come with Slide Lab: [{"id", "title": {language: text}}] (describe()["exercises"])."""
    return [{"id": name, "title": read_exercise(shipped_text(name)).title} for name in shipped()]


def read_exercise(text: str) -> Exercise:
    """The exercise a TOML text (a teacher's file) or a JSON text (its student form) describes; ExerciseError naming
    the field (or the line) and the reason."""
    if not isinstance(text, str):
        raise ExerciseError("an exercise is TOML text")
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except ValueError as e:
            raise ExerciseError(f"the exercise is not valid JSON: {e}", reason="exercise_syntax",
                                problem=str(e)) from None
        if not isinstance(data, dict) or data.get("form") != STUDENT_FORM:
            raise ExerciseError("an exercise in JSON is a student form (form = \"student\"); a teacher writes TOML",
                                reason="exercise_field", field="form", problem="not a student form")
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            found = re.search(r"line (\d+)", str(e))
            raise ExerciseError(f"the exercise is not valid TOML: {e}", reason="exercise_syntax", problem=str(e),
                                line=int(found[1]) if found else None) from None
    try:
        return _exercise(data, hashlib.sha256(text.encode()).hexdigest())
    except ExerciseError as e:
        if e.details.get("field") and not text.lstrip().startswith("{"):
            e.details["line"] = line_of(text, e.details["field"])
        raise


def line_of(text: str, field: str) -> int | None:
    """The line of a TOML exercise where `field` (a path such as tasks[2].criteria[1].check) is written, as near as
    the text tells: the line of its key in its table, else of its table, else None."""
    lines = text.splitlines()
    start, end, parts = 0, len(lines), re.findall(r"([A-Za-z_][\w-]*)(?:\[(\d+)\])?", field)
    table = ""
    for depth, (name, index) in enumerate(parts):
        last = depth == len(parts) - 1
        if index:  # the index-th [[table]] within the current range
            table = f"{table}.{name}" if table else name
            headers = [i for i in range(start, end) if re.match(rf"\s*\[\[\s*{re.escape(table)}\s*\]\]", lines[i])]
            if int(index) >= len(headers):
                return _key_line(lines, start, end, name)
            start = headers[int(index)]
            following = [i for i in range(start + 1, end) if re.match(r"\s*\[", lines[i])
                         and not re.match(rf"\s*\[\[\s*{re.escape(table)}\.", lines[i])]
            end = following[0] if following else end
            if last:
                return start + 1
        else:
            found = _key_line(lines, start, end, name)
            if found is None:
                header = [i for i in range(start, end) if re.match(rf"\s*\[\s*{re.escape(name)}\s*\]", lines[i])]
                return header[0] + 1 if header else (start + 1 if start else None)
            if last:
                return found
            start = found - 1
    return None


def _key_line(lines: list, start: int, end: int, key: str) -> int | None:
    for i in range(start, end):
        if re.match(rf"\s*{re.escape(key)}\s*[=.]", lines[i]):
            return i + 1
    return None


def student_form(data: dict) -> str:
    """The student form of an exercise's fields: the same, every task's answers (ANSWER_FIELDS) left out, marked
    `form = "student"`, as JSON with its keys in order (so the same exercise always gives the same text)."""
    tasks = [{k: v for k, v in task.items() if k not in ANSWER_FIELDS} if isinstance(task, dict) else task
             for task in data.get("tasks", [])]
    return json.dumps(dict(data, tasks=tasks, form=STUDENT_FORM), sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))


def _exercise(data: dict, sha256: str) -> Exercise:
    at = _Fields(data, "")
    version = at.integer("format", required=True)
    if version != FORMAT:
        at.fail("format", f"is {version}; this version of Slide Lab reads exercises of format {FORMAT}")
    student = at.choice("form", (STUDENT_FORM,)) is not None
    positions_data = at.table("positions")
    positions, draws = {}, {}
    for name, board in positions_data.items():
        if not _ID.fullmatch(name):
            at.fail(f"positions.{name}", "a position's name is lower-case letters, digits, - and _")
        if isinstance(board, dict):
            draws[name] = _draw(board, f"positions.{name}")
        elif not isinstance(board, str) or not board.strip():
            at.fail(f"positions.{name}", "must be a board, as text (rows separated by '/'), or a draw ({ distance "
                                         "= N } or { boards = [...] })")
        else:
            positions[name] = board
    if draws and data.get("goal") is None and not positions and data.get("puzzle", "sliding") == "sliding":
        at.fail("goal", "is needed to draw positions (it gives the board's size)")
    tasks_data = data.get("tasks")
    if not isinstance(tasks_data, list) or not tasks_data:
        at.fail("tasks", "an exercise has at least one task ([[tasks]])")
    example = at.choice("example", tuple(name for name, _, _ in EXAMPLES))
    named = dict(positions) | dict.fromkeys(draws, "")  # every position a task may name
    tasks = tuple(_task(t, f"tasks[{i}]", named, example, student) for i, t in enumerate(tasks_data))
    ids = [task.id for task in tasks]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        at.fail("tasks", f"two tasks have the id '{repeated[0]}'")
    at.no_others(("format", "form", "id", "title", "text", "puzzle", "rule", "goal", "positions", "example",
                  "check_my_work", "tasks"))
    shown = student_form(data)  # every field checked: JSON values only
    return Exercise(id=at.identifier("id"), title=at.texts("title", required=True), text=at.texts("text"),
                    puzzle=at.text("puzzle", "sliding"), rule=at.text("rule"), goal=at.text("goal"),
                    positions=positions, tasks=tasks, sha256=sha256, example=example,
                    check_my_work=at.choice("check_my_work", CHECK_MY_WORK) or CHECK_MY_WORK[0],
                    student_text=shown, student_sha256=hashlib.sha256(shown.encode()).hexdigest(),
                    has_key=not student, draws=draws)


def _draw(data: dict, path: str) -> Draw:
    at = _Fields(data, path)
    boards, distance = data.get("boards"), data.get("distance")
    if (boards is None) == (distance is None):
        at.fail("distance", "a drawn position gives either distance (N, or [LOW, HIGH]) or boards (a list)")
    at.no_others(("boards", "distance"))
    if boards is not None:
        if not isinstance(boards, list) or not boards or not all(isinstance(b, str) and b.strip() for b in boards):
            at.fail("boards", "the boards to draw from, as a list of text")
        return Draw(boards=tuple(boards))
    if isinstance(distance, int) and not isinstance(distance, bool):
        distance = [distance, distance]
    if not (isinstance(distance, list) and len(distance) == 2 and all(isinstance(d, int) and not isinstance(d, bool)
                                                                       for d in distance)
            and 0 <= distance[0] <= distance[1]):
        at.fail("distance", "a number of moves from the goal, or [LOW, HIGH] with 0 <= LOW <= HIGH")
    return Draw(distance=(distance[0], distance[1]))


def _task(data, path: str, positions: dict, example: str | None = None, student: bool = False) -> ExerciseTask:
    """One task; in a student form (`student`) its answers are absent."""
    if not isinstance(data, dict):
        raise ExerciseError(f"{path}: a task is a table of fields")
    at = _Fields(data, path)
    kind = at.choice("kind", KINDS, required=True)
    common = {"id": at.identifier("id"), "kind": kind, "title": at.texts("title", required=True),
              "text": at.texts("text"), "explanation": at.texts("explanation")}
    known = ["id", "kind", "title", "text"] + ([] if student else ["explanation"])
    if kind == "measure":
        quantity = at.choice("quantity", SEARCH_QUANTITIES + SPACE_QUANTITIES, required=True)
        position = at.text("position", required=quantity != "positions" and quantity != "max_depth"
                           and quantity != "positions_at_distance" and quantity != "unreachable")
        if position is not None and position not in positions:
            at.fail("position", f"names no position of the exercise ('{position}'; [positions] has "
                                f"{', '.join(positions) or 'none'})")
        algorithm = at.choice("algorithm", tuple(ALGORITHMS), required=quantity in SEARCH_QUANTITIES)
        distance = at.integer("distance", required=quantity == "positions_at_distance")
        task = ExerciseTask(**common, points=at.number("points", 1), position=position, algorithm=algorithm,
                    heuristic=at.choice("heuristic", tuple(HEURISTICS) + (("yours",) if example else ())),
                    quantity=quantity, distance=distance, tolerance=at.number("tolerance", 0, positive=False),
                    expected=at.number("expected", None, positive=False))
        known += ["points", "position", "algorithm", "heuristic", "quantity", "distance", "tolerance"]
        known += [] if student else ["expected"]
    elif kind == "predict":
        choices_data = data.get("choices")
        if not isinstance(choices_data, list) or len(choices_data) < 2:
            at.fail("choices", "a prediction offers at least two choices ([[tasks.choices]])")
        choices = []
        for i, choice in enumerate(choices_data):
            inner = _Fields(choice if isinstance(choice, dict) else {}, f"{path}.choices[{i}]")
            choices.append(Choice(inner.identifier("id"), inner.texts("text", required=True)))
            inner.no_others(("id", "text"))
        answer = None if student else at.text("answer", required=True)
        if not student and answer not in {c.id for c in choices}:
            at.fail("answer", f"must be the id of one of the choices, not '{answer}'")
        task = ExerciseTask(**common, points=at.number("points", 1), choices=tuple(choices), answer=answer)
        known += ["points", "choices"] + ([] if student else ["answer"])
    else:
        criteria_data = data.get("criteria")
        if not isinstance(criteria_data, list) or not criteria_data:
            at.fail("criteria", "a heuristic task has at least one criterion ([[tasks.criteria]])")
        criteria = tuple(_criterion(c, f"{path}.criteria[{i}]", positions) for i, c in enumerate(criteria_data))
        function = at.text("function", "h")
        if not function.isidentifier():
            at.fail("function", f"'{function[:40]}' is not a Python function name")
        task = ExerciseTask(**common, function=function, starter=at.text("starter"), criteria=criteria,
                    max_seconds=at.number("max_seconds", DEFAULT_CODE_SECONDS))
        known += ["function", "starter", "criteria", "max_seconds"]
    at.no_others(known)
    return task


def _criterion(data, path: str, positions: dict) -> Criterion:
    at = _Fields(data if isinstance(data, dict) else {}, path)
    check = at.choice("check", CHECKS, required=True)
    known = ["check", "points"]
    criterion = Criterion(check=check, points=at.number("points", 1))
    if check == "nodes":
        names = data.get("positions")
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            at.fail("positions", "the names of the positions searched, as a list")
        for name in names:
            if name not in positions:
                at.fail("positions", f"names no position of the exercise ('{name}')")
        at_most = at.integer("at_most", required=True)
        if at_most < 0:
            at.fail("at_most", "must be at least 0")
        criterion = Criterion(check, criterion.points, at.choice("algorithm", NODE_ALGORITHMS, required=True),
                              tuple(names), at_most)
        known += ["algorithm", "positions", "at_most"]
    elif check == "informed":
        criterion = Criterion(check, criterion.points,
                              reference=at.choice("reference", tuple(n for n in HEURISTICS if n != "yours"),
                                                  required=True))
        known += ["reference"]
    at.no_others(known)
    return criterion


class _Fields:
    """Reads the fields of one table, each checked, failing with its path."""

    def __init__(self, data: dict, path: str):
        self.data, self.path = data, path

    def fail(self, name: str, reason: str) -> NoReturn:
        where = f"{self.path}.{name}" if self.path else name
        raise ExerciseError(f"{where}: {reason}", reason="exercise_field", field=where, problem=reason)

    def _get(self, name, required):
        value = self.data.get(name)
        if value is None and required:
            self.fail(name, "is missing")
        return value

    def text(self, name, default=None, required=False):
        value = self._get(name, required)
        if value is None:
            return default
        if not isinstance(value, str):
            self.fail(name, "must be text")
        return value

    def identifier(self, name):
        value = self.text(name, required=True)
        if not _ID.fullmatch(value):
            self.fail(name, "must be 1 to 64 lower-case letters, digits, - and _, starting with a letter or digit")
        return value

    def choice(self, name, choices, required=False):
        value = self.text(name, required=required)
        if value is not None and value not in choices:
            self.fail(name, f"must be one of {', '.join(choices)}, not '{value[:40]}'")
        return value

    def integer(self, name, required=False):
        value = self._get(name, required)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            self.fail(name, "must be a whole number")
        return value

    def number(self, name, default, positive=True):
        value = self._get(name, False)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or positive and value == 0:
            self.fail(name, "must be a positive number" if positive else "must be a number of at least 0")
        return value

    def table(self, name):
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            self.fail(name, "must be a table")
        return value

    def texts(self, name, required=False):
        """A text in any number of languages: {"en": ..., "ja": ...}, English required."""
        value = self._get(name, required)
        if value is None:
            return {}
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            self.fail(name, "must be a table of texts by language (en = \"...\", ja = \"...\")")
        for language in value:
            if not _LANGUAGE.fullmatch(language):
                self.fail(name, f"'{language}' is not a language code (en, ja, ...)")
        if "en" not in value:
            self.fail(name, "must have an English text (en)")
        return dict(value)

    def no_others(self, known):
        others = sorted(set(self.data) - set(known))
        if others:
            self.fail(others[0], "is not a field of this format here (a typo?)")


def criterion_text(criterion: Criterion) -> str:
    """A heuristic task's criterion, in English (the answer key, the command line's listing)."""
    if criterion.check == "nodes":
        return (f"{criterion.algorithm} expands at most {criterion.at_most:,} positions on "
                f"{', '.join(criterion.positions)}")
    if criterion.check == "informed":
        return f"never below {criterion.reference}"
    return {"admissible": "never overestimates", "consistent": "consistent"}[criterion.check]


def say(texts: dict, language: str) -> str:
    """A text in `language`, else in English."""
    return texts.get(language) or texts.get(language.split("-")[0]) or texts.get("en", "")


def described(exercise: Exercise) -> dict:
    """An exercise as JSON, for the command line's `exercise --json` and the page: its texts in every language,
    its positions and its tasks (never an answer: a student's page holds this), what a student's own check tells,
    and whether the exercise read holds its answers (`key`: a teacher's file) or not (a student form)."""
    return {"ok": True, "id": exercise.id, "title": exercise.title, "text": exercise.text, "puzzle": exercise.puzzle,
            "goal": exercise.goal, "positions": exercise.positions, "drawn": sorted(exercise.draws),
            "max_points": exercise.max_points,
            "check_my_work": exercise.check_my_work, "key": exercise.has_key,
            "tasks": [_described_task(task) for task in exercise.tasks]}


def _described_task(task) -> dict:
    described = {"id": task.id, "kind": task.kind, "title": task.title, "text": task.text, "points": task.max_points}
    if task.position:
        described["position"] = task.position
    if task.kind == "predict":
        described["choices"] = [{"id": c.id, "text": c.text} for c in task.choices]
    if task.kind == "heuristic":
        described.update(starter=task.starter, function=task.function,
                         criteria=[dict(c.__dict__, positions=list(c.positions)) for c in task.criteria])
    return described


# ---- hand-ins ----

HANDIN_MARK = "slidelab-hand-in"


def make_handin(exercise: Exercise, student: str, answers: dict, code: dict, app: str,
                student_id: str | None = None) -> dict:
    """A hand-in: the student's answers and code for one exercise, and what made it (nothing of it is a verdict);
    `student_id` where the course gives one (the positions drawn for the student follow it)."""
    handin = {"format": HANDIN_MARK, "version": HANDIN_VERSION, "exercise": exercise.id,
              "exercise_sha256": exercise.student_sha256, "student": student, "answers": answers, "code": code,
              "app": app}
    if student_id:
        handin["student_id"] = student_id
    return handin


def read_handin(text: str, exercise: Exercise) -> dict:
    """The hand-in a file holds, checked to be one for this exercise; ExerciseError saying why not (damaged, another
    exercise, a newer version)."""
    try:
        data = json.loads(text)
    except ValueError:
        raise ExerciseError("the file is damaged: it is not a hand-in (not JSON)", reason="handin_damaged") from None
    if not isinstance(data, dict) or data.get("format") != HANDIN_MARK:
        raise ExerciseError("the file is not a Slide Lab hand-in", reason="handin_damaged")
    version = data.get("version")
    if not isinstance(version, int) or version > HANDIN_VERSION:
        raise ExerciseError(f"the hand-in is of a newer version ({str(version)[:10]}) than this Slide Lab reads "
                            f"({HANDIN_VERSION}): update Slide Lab", reason="handin_version")
    if data.get("exercise") != exercise.id:
        raise ExerciseError(f"the hand-in is for another exercise ('{str(data.get('exercise'))[:64]}', not "
                            f"'{exercise.id}')", reason="handin_exercise")
    student, answers, code = data.get("student"), data.get("answers"), data.get("code")
    if not isinstance(student, str) or not isinstance(answers, dict) or not isinstance(code, dict):
        raise ExerciseError("the hand-in is damaged: its student, answers or code are missing", reason="handin_damaged")
    if not all(isinstance(v, str) for v in code.values()):
        raise ExerciseError("the hand-in is damaged: its code is not text", reason="handin_damaged")
    if not isinstance(data.get("student_id", ""), str):
        raise ExerciseError("the hand-in is damaged: its student id is not text", reason="handin_damaged")
    return data


def schema() -> dict:
    """The JSON Schema of an exercise (the TOML read as JSON): what read_exercise takes, for editors and tools;
    written into docs/exercise.schema.json, which a test keeps current and checks against this reader."""
    texts = {"type": "object", "required": ["en"], "propertyNames": {"pattern": f"^{_LANGUAGE.pattern}$"},
             "additionalProperties": {"type": "string"}, "description": "a text by language: en (required), ja, ..."}
    identifier = {"type": "string", "pattern": f"^{_ID.pattern}$"}
    points = {"type": "number", "exclusiveMinimum": 0, "default": 1}
    common = {"id": identifier, "title": texts, "text": texts,
              "explanation": dict(texts, description="shown with the grade, never before (not in the student form)")}

    def kind(name, fields, required=()):
        return {"type": "object", "required": ["id", "kind", "title", *required], "additionalProperties": False,
                "properties": {**common, "kind": {"const": name}, **fields}}

    criterion = {"type": "object", "required": ["check"], "additionalProperties": False, "properties": {
        "check": {"enum": list(CHECKS)}, "points": points, "algorithm": {"enum": list(NODE_ALGORITHMS)},
        "positions": {"type": "array", "minItems": 1, "items": {"type": "string"}},
        "at_most": {"type": "integer", "minimum": 0}, "reference": {"type": "string"}},
        "allOf": [{"if": {"properties": {"check": {"const": "nodes"}}},
                   "then": {"required": ["algorithm", "positions", "at_most"]}},
                  {"if": {"properties": {"check": {"const": "informed"}}}, "then": {"required": ["reference"]}}]}
    measure = kind("measure", {
        "points": points, "position": {"type": "string"}, "algorithm": {"type": "string"},
        "heuristic": {"type": "string"}, "quantity": {"enum": list(SEARCH_QUANTITIES + SPACE_QUANTITIES)},
        "distance": {"type": "integer"}, "tolerance": {"type": "number", "minimum": 0, "default": 0},
        "expected": {"type": "number", "minimum": 0}}, ["quantity"])
    measure["allOf"] = [
        {"if": {"properties": {"quantity": {"enum": list(SEARCH_QUANTITIES)}}},
         "then": {"required": ["position", "algorithm"]}},
        {"if": {"properties": {"quantity": {"const": "distance"}}}, "then": {"required": ["position"]}},
        {"if": {"properties": {"quantity": {"const": "positions_at_distance"}}}, "then": {"required": ["distance"]}}]
    predict = kind("predict", {
        "points": points, "answer": {"type": "string"},
        "choices": {"type": "array", "minItems": 2, "items": {
            "type": "object", "required": ["id", "text"], "additionalProperties": False,
            "properties": {"id": identifier, "text": texts}}}}, ["choices"])
    heuristic = kind("heuristic", {
        "function": {"type": "string", "default": "h"}, "starter": {"type": "string"},
        "max_seconds": {"type": "number", "exclusiveMinimum": 0, "default": DEFAULT_CODE_SECONDS},
        "criteria": {"type": "array", "minItems": 1, "items": criterion}}, ["criteria"])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "A Slide Lab exercise", "type": "object", "required": ["format", "id", "title", "tasks"],
        "additionalProperties": False,
        "properties": {
            "format": {"const": FORMAT}, "id": identifier, "title": texts, "text": texts,
            "form": {"const": STUDENT_FORM, "description": "a student form: the answers left out (JSON only)"},
            "check_my_work": {"enum": list(CHECK_MY_WORK), "default": CHECK_MY_WORK[0],
                              "description": "what a student's own check tells"},
            "puzzle": {"type": "string", "default": "sliding"}, "rule": {"type": "string"},
            "goal": {"type": "string"}, "example": {"enum": [name for name, _, _ in EXAMPLES]},
            "positions": {"type": "object", "propertyNames": {"pattern": f"^{_ID.pattern}$"},
                          "additionalProperties": {"oneOf": [
                              {"type": "string", "minLength": 1, "description": "a board, the same for everyone"},
                              {"type": "object", "required": ["distance"], "additionalProperties": False,
                               "description": "drawn per student: a position this many moves from the goal",
                               "properties": {"distance": {"oneOf": [
                                   {"type": "integer", "minimum": 0},
                                   {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2,
                                    "maxItems": 2}]}}},
                              {"type": "object", "required": ["boards"], "additionalProperties": False,
                               "description": "drawn per student: one of these boards",
                               "properties": {"boards": {"type": "array", "minItems": 1,
                                                         "items": {"type": "string", "minLength": 1}}}}]}},
            "tasks": {"type": "array", "minItems": 1, "items": {"oneOf": [measure, predict, heuristic]}},
        },
        "allOf": [  # a teacher's file names each prediction's answer; a student form holds no answer at all
            {"if": {"not": {"required": ["form"]}}, "then": {"properties": {"tasks": {"items": {
                "if": {"properties": {"kind": {"const": "predict"}}}, "then": {"required": ["answer"]}}}}}},
            {"if": {"required": ["form"]}, "then": {"properties": {"tasks": {"items": {
                "not": {"anyOf": [{"required": [name]} for name in ANSWER_FIELDS]}}}}}},
        ],
    }
