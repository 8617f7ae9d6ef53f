"""A course for real, end to end: a teacher writes an exercise in the page (an error said at its line, then valid,
its answer key computed) and copies a student link; two students open it, each gets a position of their own, answer
and hand in; nothing either student's page stores or links holds an answer; the teacher grades both in the page,
the command line gives the same totals, and each export format meets its specification."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest
from playwright.sync_api import expect
from test_offline import open_ready

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from slidelab import api  # noqa: E402
from slidelab.course import read_exercise  # noqa: E402
from slidelab.course.exports import gradescope, prairielearn, write_canvas  # noqa: E402
from slidelab.course.grade import grade_all  # noqa: E402
from slidelab.heuristics.examples import source  # noqa: E402

pytestmark = pytest.mark.browser
FORMATS = Path(__file__).resolve().parents[1] / "data" / "formats"

COURSE = """format = 1
id = "week-4"
title = { en = "Week 4: your own position", ja = "第4週: あなたの局面" }
goal = "1 2 3/4 5 6/7 8 0"
check_my_work = "right_or_wrong"

[positions]
mine = { distance = [8, 12] }

[[tasks]]
id = "length"
kind = "measure"
title = { en = "How many moves does mine take?" }
position = "mine"
algorithm = "astar"
heuristic = "manhattan"
quantity = "length"

[[tasks]]
id = "which"
kind = "predict"
title = { en = "Which never overestimates?" }
answer = "manhattan"
explanation = { en = "SECRET-EXPLANATION: a tile needs at least its Manhattan distance in moves." }
choices = [{ id = "manhattan", text = { en = "Manhattan distance" } },
           { id = "twice", text = { en = "Twice Manhattan distance" } }]

[[tasks]]
id = "yours"
kind = "heuristic"
title = { en = "Your heuristic" }
max_seconds = 10
criteria = [{ check = "admissible", points = 2 }]
"""


def test_a_teacher_writes_an_exercise_and_two_students_get_their_own_positions(browser, base_url, tmp_path):
    teacher = browser.new_context(accept_downloads=True, permissions=["clipboard-read", "clipboard-write"])
    page = teacher.new_page()
    open_ready(page, base_url)
    page.click("#exercise .write-view summary")
    editor = page.locator("#exercise .editor-text")
    editor.fill(COURSE.replace('kind = "predict"', 'kind = "guess"'))
    status = page.locator("#exercise .editor-status")
    line = COURSE.splitlines().index('kind = "predict"') + 1
    expect(status).to_contain_text(f"Line {line}: tasks[1].kind: must be one of measure, predict, heuristic",
                                   timeout=30_000)
    editor.fill(COURSE)
    expect(status).to_have_text("Valid. Tasks: 3; points: 4.", timeout=30_000)
    page.click("#exercise .editor-key")
    expect(page.locator("#exercise .editor-answers")).to_contain_text("which (Which never overestimates?): manhattan")
    page.click("#exercise .editor-link")
    expect(status).to_contain_text("Student link copied (no answers in it): ")
    link = status.inner_text().split(": ", 1)[1]
    assert "#exercise-text=" in link and '"answer"' not in unquote(link) and "SECRET" not in unquote(link)

    handed, boards = {}, {}
    for name in ("Ann Lee", "Bob Ray"):
        context = browser.new_context(accept_downloads=True)
        student = context.new_page()
        open_ready(student, link)
        expect(student.locator("#exercise .exercise-title")).to_contain_text("Week 4", timeout=30_000)
        expect(student.locator("#exercise .exercise-positions")).to_contain_text("drawn for you once you give")
        student.fill("#exercise .exercise-student", name)
        button = student.locator("#exercise .exercise-positions button")
        expect(button).to_have_count(1, timeout=30_000)
        boards[name] = _board_of(button.inner_text())
        length = api.solve({"puzzle": "sliding", "board": boards[name]})["length"]
        student.fill("#exercise-length", str(length))
        student.check("#exercise input[value=manhattan]")
        student.fill("#exercise textarea[data-task=yours]", source("manhattan"))
        student.click("#exercise .exercise-check")  # right or wrong only; the choice is the teacher's to grade
        expect(student.locator("#exercise .exercise-status")).to_have_text(
            "Checked here: 3 of 4 points, not counting the choices your teacher grades.", timeout=180_000)
        assert "the engine finds" not in student.locator("#exercise .exercise-result").inner_text()
        with student.expect_download() as download:
            student.click("#exercise .exercise-hand-in")
        path = tmp_path / download.value.suggested_filename
        download.value.save_as(path)
        handed[name] = path
        stored = student.evaluate("() => Object.values(localStorage)")  # the exercise and the work it keeps
        assert any(name in value for value in stored) and any("week-4" in value for value in stored)
        assert not [value for value in stored if '"answer"' in value or "SECRET" in value]
        context.close()
    assert boards["Ann Lee"] != boards["Bob Ray"]  # each their own start

    # the teacher grades both in the page (the exercise written is open: Preview), and on the command line
    page.click("#exercise .editor-preview")
    expect(page.locator("#exercise .exercise-title")).to_contain_text("Week 4", timeout=30_000)
    page.click("#exercise .exercise-link")  # the panel's Copy a link: the same student form, the same link
    expect(page.locator("#exercise .exercise-status")).to_have_text(f"Link copied: {link}")
    page.click("#exercise .grade-view summary")
    page.set_input_files("#exercise .grade-files", [str(p) for p in handed.values()])
    page.click("#exercise .grade-run")
    expect(page.locator("#exercise .grade-progress")).to_contain_text("Graded 2 of 2 in", timeout=300_000)
    rows = [[cell.strip() for cell in row.split("\t")]
            for row in page.locator("#exercise .grade-table tbody tr").all_inner_texts()]
    assert [(row[0], row[-2]) for row in rows] == [("Ann Lee", "4 / 4"), ("Bob Ray", "4 / 4")]
    exercise = read_exercise(COURSE)
    files = [(p.name, p.read_text()) for p in handed.values()]
    cli_rows = sorted(grade_all(exercise, files, 2), key=lambda r: r["student"])
    assert [(r["student"], r["total"]) for r in cli_rows] == [("Ann Lee", 4), ("Bob Ray", 4)]
    assert [r["positions"]["mine"] for r in cli_rows] == [boards["Ann Lee"], boards["Bob Ray"]]

    jsonschema = pytest.importorskip("jsonschema")
    for form, name in ((gradescope, "gradescope"), (prairielearn, "prairielearn")):
        schema = json.loads((FORMATS / f"{name}-results.schema.json").read_text())
        for row in cli_rows:
            results = form(exercise, row)
            assert not list(jsonschema.Draft202012Validator(schema).iter_errors(results))
    assert "SECRET-EXPLANATION" in gradescope(exercise, cli_rows[0])["tests"][1]["output"]  # after grading: now
    out = io.StringIO()
    write_canvas(exercise, cli_rows, out)
    assert list(csv.reader(io.StringIO(out.getvalue())))[2] == ["Ann Lee", "", "", "", "", "4"]
    teacher.close()


def _board_of(text: str) -> str:
    """The board a position button shows ("Put mine on the board (1 2 3/...)" or the board itself)."""
    import re

    found = re.search(r"(\d+(?: \d+)*(?:/\d+(?: \d+)*)+)", text)
    return found[1] if found else text
