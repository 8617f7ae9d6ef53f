"""Grades into the course's own tools: a graded row as Gradescope's autograder results and PrairieLearn's external
grader results (one submission each, as both grade them), the table as the CSV Canvas's gradebook imports, and a
ready Gradescope autograder bundle for an exercise (its setup and run scripts install Slide Lab from a wheel inside
the bundle, so it needs no package index). The CSV with a student id column that Moodle imports is grade.py's
(`write_csv`). docs/exercises.md, "Grades into your course's tools".
"""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

from slidelab import __version__
from slidelab.course.format import Exercise, say

RESULTS = "/autograder/results/results.json"  # where Gradescope reads a submission's results


def _title(exercise: Exercise, task_id: str) -> str:
    task = next(t for t in exercise.tasks if t.id == task_id)
    return say(task.title, "en")


def _output(result: dict) -> str:
    """A task's result as text: what was found, each criterion, and the explanation (after grading: now)."""
    lines = [result["detail"]]
    lines += [f"{c['check']}: {c['points']:g}/{c['max']:g}: {c['detail']}" for c in result.get("criteria", [])]
    if result.get("board"):
        lines.append(f"board: {result['board']}")
    if result.get("explanation"):
        lines.append(say(result["explanation"], "en"))
    return "\n".join(lines)


def _summary(row: dict) -> str:
    if not row["ok"]:
        return row["error"]
    said = f"{row['total']:g} of {row['max']:g} points"
    if row.get("positions"):
        said += "; your positions: " + ", ".join(f"{k} = {v}" for k, v in row["positions"].items())
    return said + (f"\nnote: {row['note']}" if row.get("note") else "")


def gradescope(exercise: Exercise, row: dict) -> dict:
    """The results.json Gradescope's autograder reads for one submission: its score, and a test per task with its
    score, max_score, status, output and visibility."""
    if not row["ok"]:
        return {"score": 0, "output": _summary(row), "tests": []}
    tests = []
    for number, (task_id, result) in enumerate(row["tasks"].items(), 1):
        tests.append({"name": _title(exercise, task_id), "number": str(number), "score": result["points"],
                      "max_score": result["max"], "status": "passed" if result["points"] == result["max"]
                      else "failed", "output": _output(result), "visibility": "visible"})
    return {"score": row["total"], "output": _summary(row), "tests": tests}


def prairielearn(exercise: Exercise, row: dict) -> dict:
    """The results.json of PrairieLearn's external grader for one submission: gradable, a score from 0 to 1, and a
    test per task with its points and max_points."""
    if not row["ok"]:
        return {"gradable": False, "score": 0, "message": _summary(row), "tests": []}
    tests = [{"name": _title(exercise, task_id), "description": task_id, "points": result["points"],
              "max_points": result["max"], "message": result["detail"], "output": _output(result)}
             for task_id, result in row["tasks"].items()]
    score = row["total"] / row["max"] if row["max"] else 0
    return {"gradable": True, "score": round(score, 6), "message": _summary(row), "tests": tests}


def one_submission(exercise: Exercise, rows: list, form) -> dict:
    """A tool that grades one submission at a time, given one row: its results; given none or several, results
    that say so (the student sees them), scored 0."""
    if len(rows) == 1:
        return form(exercise, rows[0])
    said = (f"{len(rows)} files were handed in: hand in one .slidelab.json file" if rows else
            "no hand-in was found: hand in the .slidelab.json file the page's Hand in saves")
    return form(exercise, {"ok": False, "error": said})


def write_canvas(exercise: Exercise, rows: list, out) -> None:
    """The table as Canvas's gradebook imports it: Student, ID, SIS User ID, SIS Login ID, Section, then the
    exercise's column with each total. Canvas matches a row by its SIS User ID: the student id of the hand-in."""
    writer = csv.writer(out)
    writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", say(exercise.title, "en")])
    writer.writerow(["Points Possible", "", "", "", "", f"{exercise.max_points:g}"])
    for row in rows:
        if row["ok"]:
            writer.writerow([row.get("student") or "", "", row.get("student_id", ""), "", "", f"{row['total']:g}"])


SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, when it builds the autograder's image: Slide Lab from the wheel beside this file (no
# package index needed), and bubblewrap for its sandbox where the image's packages have it.
set -e
cd /autograder/source
apt-get install -y bubblewrap >/dev/null 2>&1 || true
python3 -m pip install --no-index --no-deps ./{wheel}
"""

RUN = """#!/usr/bin/env bash
# Gradescope runs this for each submission: grade its hand-in against the exercise, into results.json.
cd /autograder/source
mkdir -p /autograder/results
shopt -s nullglob
handins=(/autograder/submission/*.json)
# each submission runs in a container of its own: where that container gives no sandbox, grade in it as it is
sandbox=""
if slidelab --version | grep -q "no sandbox"; then sandbox="--no-sandbox"; fi
slidelab grade exercise.toml "${{handins[@]}}" --format gradescope $sandbox > {results}
"""


def gradescope_bundle(text: str, exercise: Exercise, out: Path) -> list[str]:
    """Write Gradescope's autograder bundle (a zip: setup.sh, run_autograder, the exercise as `text` and a wheel
    of this Slide Lab) to `out`; the names it holds."""
    from slidelab.core.wheel import package_files, wheel

    package = Path(__file__).resolve().parents[1]
    # without the 15-puzzle's pattern databases (21 MB): an exercise that needs one builds it where it runs
    wheel_name, wheel_data = wheel(package_files(package, lambda path: "/data/pdb/" not in path), __version__)
    files: dict[str, str | bytes] = {"setup.sh": SETUP.format(wheel=wheel_name),
                                     "run_autograder": RUN.format(results=RESULTS), "exercise.toml": text,
                                     wheel_name: wheel_data}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name in ("setup.sh", "run_autograder") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    out.write_bytes(buffer.getvalue())
    return list(files)
