"""Exercises and grading: the format (read, refused with the field, data only), the shipped exercises' right
answers, hand-ins graded afresh (code that loops, ends, patches the checker or is missing), the CLI's exercise and
grade."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from slidelab import cli
from slidelab.course import ExerciseError, make_handin, read_exercise, read_handin, shipped, shipped_text
from slidelab.course.format import HANDIN_VERSION, schema
from slidelab.course.grade import Truths, grade_all, grade_handin, truths
from slidelab.heuristics.examples import source

ROOT = Path(__file__).resolve().parents[1]
MISBEHAVING = ROOT / "tests" / "data" / "misbehaving"
FORGING = ROOT / "tests" / "data" / "forging"

SMALL = """
format = 1
id = "small"
title = { en = "A small exercise", ja = "小さな演習" }
[positions]
near = "1 2 3/4 0 6/7 5 8"
far = "8 6 7/2 5 4/3 0 1"

[[tasks]]
id = "length"
kind = "measure"
title = { en = "Length?" }
position = "far"
algorithm = "idastar"
heuristic = "manhattan"
quantity = "length"

[[tasks]]
id = "pick"
kind = "predict"
title = { en = "Pick" }
answer = "b"
choices = [{ id = "a", text = { en = "A" } }, { id = "b", text = { en = "B" } }]

[[tasks]]
id = "yours"
kind = "heuristic"
title = { en = "Yours" }
max_seconds = 8
criteria = [
  { check = "admissible", points = 2 },
  { check = "consistent" },
  { check = "nodes", algorithm = "astar", positions = ["far"], at_most = 6744 },
  { check = "informed", reference = "misplaced" },
]
"""


@pytest.fixture(scope="module")
def small():
    return read_exercise(SMALL)


def handin(exercise, code=None, answers=None, student="S"):
    return json.dumps(make_handin(exercise, student, answers or {}, {"yours": code} if code else {}, "test"))


def test_every_shipped_exercise_reads_and_speaks_english_and_japanese():
    assert shipped() == ["astar-8-puzzle", "bidirectional-search", "hardest-8-puzzle"]
    for name in shipped():
        exercise = read_exercise(shipped_text(name))
        assert exercise.id == name
        assert {"en", "ja"} <= set(exercise.title) and {"en", "ja"} <= set(exercise.text)
        for task in exercise.tasks:
            assert {"en", "ja"} <= set(task.title), (name, task.id)
            for choice in task.choices:
                assert {"en", "ja"} <= set(choice.text), (name, task.id, choice.id)


def test_the_shipped_exercises_right_answers_are_the_engines():
    assert truths(read_exercise(shipped_text("astar-8-puzzle"))) == {
        "length": 25, "expanded-h0": 147_132, "expanded-misplaced": 18_575, "expanded-manhattan": 875,
        "no-answer": 181_440}
    assert truths(read_exercise(shipped_text("bidirectional-search"))) == {
        "length": 31, "bfs-expanded": 181_380, "bidirectional-expanded": 10_068, "bidirectional-stored": 15_973}
    assert truths(read_exercise(shipped_text("hardest-8-puzzle"))) == {
        "positions": 181_440, "farthest": 31, "how-many-farthest": 2, "candidate": 31}


@pytest.mark.parametrize(("change", "field", "reason"), [
    (lambda t: t.replace('format = 1', 'format = 2'), "format", "reads exercises of format 1"),
    (lambda t: t.replace('kind = "measure"', 'kind = "guess"'), "tasks[0].kind", "must be one of"),
    (lambda t: t.replace('position = "far"', 'position = "nowhere"'), "tasks[0].position", "names no position"),
    (lambda t: t.replace('answer = "b"', 'answer = "c"'), "tasks[1].answer", "one of the choices"),
    (lambda t: t.replace('{ check = "consistent" }', '{ check = "consistant" }'), "tasks[2].criteria[1].check",
     "must be one of"),
    (lambda t: t.replace('at_most = 6744', 'at_most = "many"'), "tasks[2].criteria[2].at_most", "whole number"),
    (lambda t: t.replace('title = { en = "Pick" }', 'title = { ja = "選ぶ" }'), "tasks[1].title", "English"),
    (lambda t: t.replace('id = "small"', 'id = "Small One"'), "id", "lower-case"),
    (lambda t: t.replace('quantity = "length"', 'quantity = "length"\ncolour = "red"'), "tasks[0].colour",
     "not a field"),
    (lambda t: t.replace('id = "pick"', 'id = "length"'), "tasks", "two tasks have the id 'length'"),
])
def test_a_malformed_exercise_is_refused_with_its_field_and_reason_by_the_reader_and_the_schema(change, field,
                                                                                                reason):
    jsonschema = pytest.importorskip("jsonschema")
    import tomllib

    text = change(SMALL)
    with pytest.raises(ExerciseError) as refused:
        read_exercise(text)
    assert str(refused.value).startswith(f"{field}: ") and reason in str(refused.value)
    if field not in ("tasks", "tasks[0].position", "tasks[1].answer"):  # references are beyond a JSON Schema
        assert list(jsonschema.Draft202012Validator(schema()).iter_errors(tomllib.loads(text)))


def test_the_schema_in_the_docs_is_current_and_every_exercise_meets_it():
    jsonschema = pytest.importorskip("jsonschema")
    import tomllib

    assert json.loads((ROOT / "docs" / "exercise.schema.json").read_text()) == schema()
    validator = jsonschema.Draft202012Validator(schema())
    for text in [SMALL, DRAWN] + [shipped_text(name) for name in shipped()]:
        assert not list(validator.iter_errors(tomllib.loads(text)))
        assert not list(validator.iter_errors(json.loads(read_exercise(text).student_text)))
    with_answer = json.loads(read_exercise(SMALL).student_text)
    with_answer["tasks"][1]["answer"] = "b"
    assert list(validator.iter_errors(with_answer))


def test_the_docs_describe_every_field_of_the_format():
    reference = (ROOT / "docs" / "exercises.md").read_text()
    found = schema()
    fields = set(found["properties"])
    for task in found["properties"]["tasks"]["items"]["oneOf"]:
        fields |= set(task["properties"])
        fields |= set(task["properties"].get("criteria", {}).get("items", {}).get("properties", {}))
    missing = sorted(f for f in fields if f"`{f}`" not in reference)
    assert not missing, missing


def test_a_toml_error_names_its_line():
    with pytest.raises(ExerciseError, match=r"at line 3"):
        read_exercise('format = 1\nid = "x"\ntitle = {en = \n')


def test_opening_an_exercise_runs_no_code(tmp_path):
    marker = tmp_path / "ran"
    text = SMALL.replace('max_seconds = 8', f'max_seconds = 8\nstarter = "open({str(marker)!r}, \\"w\\")"')
    exercise = read_exercise(text)
    assert "open(" in exercise.tasks[2].starter and not marker.exists()
    assert cli.main(["exercise", str(_write(tmp_path, text))]) == 0 and not marker.exists()


def _write(folder: Path, text: str, name: str = "ex.toml") -> Path:
    path = folder / name
    path.write_text(text)
    return path


def test_a_hand_in_is_graded_afresh_task_by_task(small):
    assert truths(small) == {"length": 31}
    right = Truths(small)
    row = grade_handin(small, handin(small, source("manhattan"), {"length": 31, "pick": "a"}), "a.json", right)
    tasks = row["tasks"]
    assert row["ok"] and row["total"] == 1 + 5 and row["max"] == 7
    assert tasks["length"]["status"] == "right" and tasks["pick"]["status"] == "wrong"
    assert [c["passed"] for c in tasks["yours"]["criteria"]] == [True, True, True, True]
    assert tasks["yours"]["criteria"][2]["detail"] == "6,744 nodes expanded by astar (at most 6,744)"
    forged = json.loads(handin(small, source("misplaced"), {"length": 30}))
    forged["grades"] = {"total": 7}  # what a file says of itself is never read
    row = grade_handin(small, json.dumps(forged), "b.json", right)
    assert row["total"] == 2 + 1 + 1  # admissible, consistent, informed; too many nodes
    assert row["tasks"]["yours"]["criteria"][2]["detail"] == "more than 6,744 nodes expanded by astar"


def test_an_overestimating_heuristic_loses_its_points_with_the_board(small):
    row = grade_handin(small, handin(small, source("twice_manhattan")), "c.json", Truths(small))
    yours = row["tasks"]["yours"]
    assert yours["status"] == "partly" and yours["points"] == 2  # nodes and informed
    assert yours["board"] == "5 7 4/8 0 2/6 3 1" and "overestimates on 157,176 positions" in yours["detail"]


@pytest.mark.parametrize(("name", "status", "words"), [
    ("bare_except_loop", "failed", "stopped after 2 s (the time limit)"),
    ("os_exit", "failed", "ended with exit status 0"),
    ("exit", "failed", "called sys.exit(0)"),
    ("negative", "failed", "returned -1"),
])
def test_code_that_hangs_or_ends_fails_its_task_alone(name, status, words):
    small = read_exercise(SMALL.replace("max_seconds = 8", "max_seconds = 2"))
    row = grade_handin(small, handin(small, (MISBEHAVING / f"{name}.py").read_text(), {"length": 31}), "d",
                       Truths(small))
    assert row["ok"] and row["tasks"]["length"]["points"] == 1
    assert row["tasks"]["yours"]["status"] == status and words in row["tasks"]["yours"]["detail"]


@pytest.mark.parametrize("name", ["patches_json", "patches_checker"])
def test_code_that_patches_the_checker_is_graded_as_it_is(small, name):
    row = grade_handin(small, handin(small, (FORGING / f"{name}.py").read_text()), "e", Truths(small))
    criteria = {c["check"]: c["passed"] for c in row["tasks"]["yours"]["criteria"]}
    assert criteria["admissible"] is False and criteria["consistent"] is False


@pytest.mark.parametrize(("text", "words"), [
    ("not json", "damaged"),
    (json.dumps({"format": "slidelab-hand-in", "version": HANDIN_VERSION + 1}), "newer version"),
    (json.dumps({"format": "slidelab-hand-in", "version": 1, "exercise": "other", "student": "x", "answers": {},
                 "code": {}}), "another exercise"),
])
def test_a_file_that_is_not_a_hand_in_of_this_exercise_is_a_row_of_its_own(small, text, words):
    row = grade_handin(small, text, "f.json", Truths(small))
    assert row["ok"] is False and words in row["error"] and row["total"] == 0
    with pytest.raises(ExerciseError):
        read_handin(text, small)


def test_answers_of_any_size_or_kind_are_graded_never_crash(small):
    right = Truths(small)
    for given, status in [(10 ** 400, "wrong"), (31.0, "right"), (float("nan"), "wrong"), ("31", "wrong"),
                          ([31], "wrong"), (True, "wrong")]:
        row = grade_handin(small, handin(small, None, {"length": given}), "g", right)
        assert row["tasks"]["length"]["status"] == status, given


def test_a_hand_in_that_writes_into_its_graders_pipes_cannot_forge_its_row(small):
    code = (FORGING / "writes_to_every_pipe.py").read_text()
    files = [("forger.json", handin(small, code, student="mallory")),
             ("good.json", handin(small, source("manhattan"), student="ann"))]
    rows = {r["file"]: r for r in grade_all(small, files, 2)}
    forger = rows["forger.json"]
    assert forger["student"] == "mallory" and forger["total"] == 0  # what it wrote on its channel is its failure
    assert forger["tasks"]["yours"]["status"] == "failed" and "not JSON" in forger["tasks"]["yours"]["detail"]
    assert rows["good.json"]["total"] == 5


def test_an_unknown_reference_or_algorithm_is_refused_when_the_exercise_is_read():
    with pytest.raises(ExerciseError, match=r"tasks\[2\]\.criteria\[3\]\.reference: must be one of"):
        read_exercise(SMALL.replace('reference = "misplaced"', 'reference = "manhatan"'))
    with pytest.raises(ExerciseError, match=r"tasks\[0\]\.algorithm: must be one of"):
        read_exercise(SMALL.replace('algorithm = "idastar"', 'algorithm = "ida"'))


def test_many_hand_ins_on_two_workers_give_the_rows_of_one(small):
    files = [(f"{n}.json", handin(small, source(n), student=n)) for n in ("manhattan", "misplaced", "twice_manhattan")]
    files.append(("exits.json", handin(small, (MISBEHAVING / "os_exit.py").read_text(), student="exits")))
    files.append(("junk.json", "{"))

    def by_file(rows):
        return {r["file"]: (r["total"], r.get("error")) for r in rows}

    one = by_file(grade_all(small, files, 1))
    assert by_file(grade_all(small, files, 2)) == one
    assert {name: total for name, (total, _) in one.items()} == {
        "manhattan.json": 5, "misplaced.json": 4, "twice_manhattan.json": 2, "exits.json": 0, "junk.json": 0}


def test_the_command_line_exercise_and_grade(tmp_path, capsys):
    assert cli.main(["exercise"]) == 0
    assert "astar-8-puzzle: A* and its heuristics on the 8-puzzle" in capsys.readouterr().out
    assert cli.main(["exercise", "astar-8-puzzle", "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("8パズルで A* とヒューリスティックを比べる (astar-8-puzzle, 11 points)")
    assert "zero: h = 0" in out and "answer: a choice (--set fewest=ID)" in out
    exercise = _write(tmp_path, SMALL)
    mine = tmp_path / "mine.json"
    code = tmp_path / "h.py"
    code.write_text(source("manhattan"))
    assert cli.main(["exercise", str(exercise), "--answer", str(code), "--set", "length=31", "--set", "pick=b",
                     "--student", "Ann", "--hand-in", str(mine)]) == 0
    out = capsys.readouterr().out
    assert "length: 1/1 right: answered 31" in out and "total: 7/7" in out
    theirs = tmp_path / "theirs.json"
    theirs.write_text(handin(read_exercise(SMALL), source("twice_manhattan"), {"length": 30}, "Bob"))
    (tmp_path / "junk.json").write_text("junk")
    files = [str(mine), str(theirs), str(tmp_path / "junk.json")]
    assert cli.main(["grade", str(exercise), *files, "--workers", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["student", "length", "pick", "yours", "total", "problem"]
    assert re.match(r"Ann\s+1\s+1\s+5\s+7/7\s*$", lines[2])
    assert re.match(r"Bob\s+0\s+0\s+2\s+2/7\s+length: answered 30 \(the engine finds 31\)$", lines[3])
    assert "junk.json" in lines[1] and "damaged" in lines[1]
    assert cli.main(["grade", str(exercise), *files, "--csv"]) == 0
    csv_lines = capsys.readouterr().out.splitlines()
    assert csv_lines[0] == "student,student_id,file,length,pick,yours,total,max,problem"
    assert csv_lines[2].startswith(f"Ann,,{mine},1,1,5,7,7,")
    assert cli.main(["grade", str(exercise), str(mine), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["rows"][0]["total"] == 7 and answer["exercise"] == "small"


def test_the_command_line_refuses_a_broken_exercise_with_its_field(tmp_path, capsys):
    broken = _write(tmp_path, SMALL.replace('kind = "measure"', 'kind = "guess"'))
    assert cli.main(["exercise", str(broken)]) == 2
    assert "tasks[0].kind: must be one of measure, predict, heuristic" in capsys.readouterr().err
    assert cli.main(["exercise", "no-such-exercise"]) == 2
    assert "no exercise 'no-such-exercise'" in capsys.readouterr().err


def test_the_student_form_holds_no_answer_and_hands_in_against_the_same_digest(small):
    teacher = read_exercise(shipped_text("astar-8-puzzle"))
    form = json.loads(teacher.student_text)
    assert form["form"] == "student" and [t["id"] for t in form["tasks"]] == [t.id for t in teacher.tasks]
    assert not any({"answer", "expected", "explanation"} & set(task) for task in form["tasks"])
    assert "is never below misplaced tiles" not in teacher.student_text  # the explanation stays with the teacher
    student = read_exercise(teacher.student_text)
    assert not student.has_key and teacher.has_key
    assert [t.answer for t in student.tasks if t.kind == "predict"] == [None]
    assert student.student_sha256 == teacher.student_sha256 and student.student_text == teacher.student_text
    assert make_handin(student, "S", {}, {}, "t")["exercise_sha256"] == teacher.student_sha256
    with pytest.raises(ExerciseError, match=r"tasks\[4\]\.answer: is not a field"):
        read_exercise(json.dumps(dict(form, tasks=[*form["tasks"][:4], dict(form["tasks"][4], answer="zero"),
                                                   *form["tasks"][5:]])))
    with pytest.raises(ExerciseError, match="a student form"):
        read_exercise(json.dumps({"format": 1, "id": "x"}))


def test_choices_are_graded_by_the_teachers_file_alone(small):
    from slidelab.course.grade import OTHER_VERSION

    student = read_exercise(small.student_text)
    text = handin(student, answers={"pick": "b", "length": 31})
    by_teacher = grade_handin(small, text, "f", Truths(small))
    assert by_teacher["tasks"]["pick"]["status"] == "right" and by_teacher["tasks"]["pick"]["points"] == 1
    assert "note" not in by_teacher
    by_student = grade_handin(student, text, "f", Truths(student))
    assert by_student["tasks"]["pick"] == {"points": 0, "max": 1, "status": "ungraded",
                                           "detail": "chose b: your teacher grades it"}
    changed = read_exercise(SMALL.replace('title = { en = "Pick" }', 'title = { en = "Pick one" }'))
    assert grade_handin(changed, text, "f", Truths(changed))["note"] == OTHER_VERSION


@pytest.mark.parametrize("level", ["figures", "right_or_wrong", "nothing"])
def test_a_students_own_check_tells_what_the_exercise_lets_it(level):
    from slidelab.course.grade import for_student

    exercise = read_exercise(SMALL.replace('[positions]', f'check_my_work = "{level}"\n[positions]'))
    text = handin(exercise, source("twice_manhattan"), {"length": 30, "pick": "b"})
    row = for_student(grade_handin(exercise, text, "f", Truths(exercise)), exercise)
    length, pick, yours = (row["tasks"][name] for name in ("length", "pick", "yours"))
    assert pick["status"] == "ungraded" and pick["points"] == 0
    if level == "figures":
        assert length["detail"] == "answered 30 (the engine finds 31)" and row["total"] == 2
        assert yours["criteria"][0]["detail"].startswith("overestimates on ") and "board" in yours
    elif level == "right_or_wrong":
        assert length == {"points": 0, "max": 1, "status": "wrong", "detail": "answered 30"} and row["total"] == 2
        assert yours["detail"] == "some criteria met" and "board" not in yours and "criteria" not in yours
    else:
        assert row["total"] is None and all(t == {"points": 0, "max": t["max"], "status": "ungraded",
                                                  "detail": "answered"} for t in row["tasks"].values())


def test_the_answer_key_and_the_student_form_on_the_command_line(tmp_path, capsys):
    assert cli.main(["exercise", "astar-8-puzzle", "--key"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "expanded-h0 (measure, 1 point): 147,132" in out and "length (measure, 1 point): 25" in out
    assert "fewest (predict, 1 point): manhattan: Manhattan distance" in out
    assert "no-answer (measure, 1 point): 181,440" in out
    assert any(line.startswith("  Manhattan distance: it is never below misplaced tiles") for line in out)
    assert cli.main(["exercise", "astar-8-puzzle", "--key", "--json"]) == 0
    key = json.loads(capsys.readouterr().out)["key"]
    assert key["expanded-misplaced"] == 18_575 and key["expanded-manhattan"] == 875 and key["fewest"] == "manhattan"
    assert cli.main(["exercise", "astar-8-puzzle", "--student-form"]) == 0
    form = tmp_path / "astar.json"
    form.write_text(capsys.readouterr().out)
    assert cli.main(["exercise", str(form)]) == 0
    assert "answer: a choice (--set fewest=ID)" in capsys.readouterr().out
    assert cli.main(["exercise", str(form), "--key"]) == 2
    assert "this is a student form: it holds no answers" in capsys.readouterr().err
    assert cli.main(["exercise", str(form), "--set", "fewest=manhattan", "--set", "length=25"]) == 0
    out = capsys.readouterr().out
    assert "fewest: 0/1 ungraded: chose manhattan: your teacher grades it" in out and "length: 1/1 right" in out


DRAWN = """
format = 1
id = "drawn"
title = { en = "Your own positions" }
goal = "1 2 3/4 5 6/7 8 0"
[positions]
start = { distance = [18, 22] }
pick = { boards = ["1 2 3/4 5 6/0 7 8", "4 1 3/0 2 6/7 5 8", "1 2 3/4 0 6/7 5 8"] }

[[tasks]]
id = "length"
kind = "measure"
title = { en = "Length of start?" }
position = "start"
algorithm = "idastar"
heuristic = "manhattan"
quantity = "length"

[[tasks]]
id = "far"
kind = "measure"
title = { en = "How far is pick?" }
position = "pick"
quantity = "distance"
"""


def test_each_student_draws_their_own_positions_the_same_every_time():
    from slidelab import api
    from slidelab.course.variants import positions_for, student_key

    exercise = read_exercise(DRAWN)
    assert exercise.positions == {} and sorted(exercise.draws) == ["pick", "start"]
    names = ["Ann Lee", "Bob", "Cy", "Dee", "Eve", "Fay"]
    drawn = {name: positions_for(exercise, student_key(name)) for name in names}
    assert positions_for(exercise, student_key("  ann   LEE ")) == drawn["Ann Lee"]  # spacing and case evened out
    assert positions_for(read_exercise(DRAWN), student_key("Ann Lee")) == drawn["Ann Lee"]  # afresh: the same
    assert len({d["start"] for d in drawn.values()}) == len(names)  # six students, six starts
    assert len({d["pick"] for d in drawn.values()}) > 1
    for d in drawn.values():
        assert 18 <= api.solve({"puzzle": "sliding", "board": d["start"]})["length"] <= 22
        assert d["pick"] in exercise.draws["pick"].boards
    assert positions_for(exercise, student_key("Ann Lee", "s-123")) == positions_for(exercise, student_key("X",
                                                                                                          "S-123"))


def test_a_hand_in_is_graded_on_its_students_positions():
    from slidelab import api
    from slidelab.course.grade import Truths
    from slidelab.course.variants import positions_for, student_key

    exercise = read_exercise(DRAWN)
    right = Truths(exercise)
    lengths = {}
    for name in ("Ann", "Bob", "Cy", "Dee"):
        board = positions_for(exercise, student_key(name))["start"]
        lengths[name] = api.solve({"puzzle": "sliding", "board": board})["length"]
        row = grade_handin(exercise, handin(exercise, answers={"length": lengths[name]}, student=name), "f", right)
        assert row["tasks"]["length"]["status"] == "right" and row["positions"]["start"] == board
    other = next(name for name in lengths if lengths[name] != lengths["Ann"])  # another start, another length
    copied = grade_handin(exercise, handin(exercise, answers={"length": lengths[other]}, student="Ann"), "f", right)
    assert copied["tasks"]["length"]["status"] == "wrong"
    assert len([key for key in right.found if key[0] == "length"]) == 4  # found once per board


@pytest.mark.parametrize(("positions", "field", "reason"), [
    ('start = { distance = [22, 18] }', "positions.start.distance", "0 <= LOW <= HIGH"),
    ('start = { distance = 3, boards = ["1 2 3/4 5 6/7 0 8"] }', "positions.start.distance", "either distance"),
    ('start = { boards = [] }', "positions.start.boards", "as a list of text"),
    ('start = { distance = 3, near = 1 }', "positions.start.near", "is not a field"),
])
def test_a_malformed_draw_is_refused_with_its_field(positions, field, reason):
    text = DRAWN.replace('start = { distance = [18, 22] }', positions)
    with pytest.raises(ExerciseError, match=re.escape(field) + ".*" + re.escape(reason)):
        read_exercise(text)
    with pytest.raises(ExerciseError, match="goal: is needed to draw positions"):
        read_exercise(DRAWN.replace('goal = "1 2 3/4 5 6/7 8 0"\n', ""))


def test_a_draw_no_position_meets_is_refused_when_it_is_drawn():
    from slidelab.course.variants import positions_for, student_key

    exercise = read_exercise(DRAWN.replace("[18, 22]", "40"))  # no 8-puzzle position is 40 moves away
    with pytest.raises(ExerciseError, match="no position 40 moves from the goal was found"):
        positions_for(exercise, student_key("Ann"))


def test_the_command_line_shows_and_keys_a_students_positions(tmp_path, capsys):
    from slidelab.course.variants import positions_for, student_key

    exercise = _write(tmp_path, DRAWN)
    board = positions_for(read_exercise(DRAWN), student_key("Ann"))["start"]
    assert cli.main(["exercise", str(exercise)]) == 0
    assert "start = drawn per student (--student NAME)" in capsys.readouterr().out
    assert cli.main(["exercise", str(exercise), "--student", "Ann"]) == 0
    assert f"start = {board}" in capsys.readouterr().out
    assert cli.main(["exercise", str(exercise), "--key", "--student", "Ann", "--json"]) == 0
    key = json.loads(capsys.readouterr().out)
    assert key["positions"]["start"] == board and 18 <= key["key"]["length"] <= 22


def test_every_complete_example_in_the_docs_reads_and_every_task_kind_has_one():
    jsonschema = pytest.importorskip("jsonschema")
    import tomllib

    text = (ROOT / "docs" / "exercises.md").read_text()
    examples = [block for block in re.findall(r"```toml\n(.*?)```", text, re.S) if block.startswith("format = 1")]
    kinds = set()
    for example in examples:
        exercise = read_exercise(example)
        assert not list(jsonschema.Draft202012Validator(schema()).iter_errors(tomllib.loads(example)))
        right = truths(exercise)
        assert all(not isinstance(value, dict) for value in right.values()), (exercise.id, right)
        kinds |= {task.kind for task in exercise.tasks}
    assert kinds == {"measure", "predict", "heuristic"} and len(examples) >= 4
