"""Grades into the course's own tools (course/exports.py): Gradescope's and PrairieLearn's results JSON, each held to
a JSON Schema written from its published specification (tests/data/formats/), Canvas's gradebook CSV and the CSV
with a student id that Moodle imports, and a Gradescope autograder bundle installed without a package index and run
as Gradescope runs it."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from slidelab import cli
from slidelab.course import make_handin, read_exercise
from slidelab.heuristics.examples import source

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_exercises import SMALL  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FORMATS = ROOT / "tests" / "data" / "formats"


def validator(name):
    jsonschema = pytest.importorskip("jsonschema")
    return jsonschema.Draft202012Validator(json.loads((FORMATS / f"{name}-results.schema.json").read_text()))


@pytest.fixture
def files(tmp_path):
    exercise = read_exercise(SMALL)
    (tmp_path / "small.toml").write_text(SMALL)
    ann = tmp_path / "ann.slidelab.json"
    ann.write_text(json.dumps(make_handin(exercise, "Ann", {"length": 31, "pick": "b"}, {"yours": source("manhattan")},
                                          "test", "s-1")))
    bob = tmp_path / "bob.slidelab.json"
    bob.write_text(json.dumps(make_handin(exercise, "Bob", {"length": 30}, {"yours": source("twice_manhattan")},
                                          "test")))
    junk = tmp_path / "junk.json"
    junk.write_text("junk")
    return tmp_path / "small.toml", ann, bob, junk


def grade(capsys, *argv):
    assert cli.main(["grade", *map(str, argv)]) == 0
    return capsys.readouterr().out


def test_gradescope_results_meet_its_specification(files, capsys):
    exercise, ann, bob, junk = files
    check = validator("gradescope")
    answer = json.loads(grade(capsys, exercise, ann, "--format", "gradescope"))
    assert not list(check.iter_errors(answer))
    assert answer["score"] == 7 and [t["name"] for t in answer["tests"]] == ["Length?", "Pick", "Yours"]
    assert [(t["score"], t["max_score"], t["status"]) for t in answer["tests"]] == [
        (1, 1, "passed"), (1, 1, "passed"), (5, 5, "passed")]
    answer = json.loads(grade(capsys, exercise, bob, "--format", "gradescope"))
    assert not list(check.iter_errors(answer)) and answer["score"] == 2
    assert answer["tests"][0]["output"] == "answered 30 (the engine finds 31)"
    assert "admissible: 0/2: overestimates on" in answer["tests"][2]["output"]
    for argv, said in (([junk], "it is not a hand-in"), ([ann, bob], "2 files were handed in")):
        answer = json.loads(grade(capsys, exercise, *argv, "--format", "gradescope"))
        assert not list(check.iter_errors(answer)) and answer["score"] == 0 and said in answer["output"]


def test_prairielearn_results_meet_its_specification(files, capsys):
    exercise, ann, bob, junk = files
    check = validator("prairielearn")
    answer = json.loads(grade(capsys, exercise, bob, "--format", "prairielearn"))
    assert not list(check.iter_errors(answer))
    assert answer["gradable"] is True and answer["score"] == round(2 / 7, 6)
    assert [(t["points"], t["max_points"]) for t in answer["tests"]] == [(0, 1), (0, 1), (2, 5)]
    answer = json.loads(grade(capsys, exercise, junk, "--format", "prairielearn"))
    assert not list(check.iter_errors(answer)) and answer["gradable"] is False


def test_canvas_and_moodle_csv(files, capsys):
    exercise, ann, bob, junk = files
    rows = list(csv.reader(io.StringIO(grade(capsys, exercise, ann, bob, junk, "--format", "canvas"))))
    # Canvas's gradebook import: these five columns first, then one per assignment; "Points Possible" below them
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "A small exercise"]
    assert rows[1] == ["Points Possible", "", "", "", "", "7"]
    assert rows[2:] == [["Ann", "", "s-1", "", "", "7"], ["Bob", "", "", "", "", "2"]]
    rows = list(csv.DictReader(io.StringIO(grade(capsys, exercise, ann, bob, "--csv"))))
    assert [(r["student"], r["student_id"], r["total"]) for r in rows] == [("Ann", "s-1", "7"), ("Bob", "", "2")]


def test_a_gradescope_bundle_installs_without_an_index_and_grades_a_submission(files, tmp_path, capsys):
    exercise, ann, bob, junk = files
    bundle = tmp_path / "autograder.zip"
    assert cli.main(["exercise", str(exercise), "--gradescope-bundle", str(bundle)]) == 0
    names = zipfile.ZipFile(bundle).namelist()
    assert names[:3] == ["setup.sh", "run_autograder", "exercise.toml"] and names[3].endswith("-py3-none-any.whl")
    assert zipfile.ZipFile(bundle).read("exercise.toml").decode() == SMALL  # the teacher's file: the answers
    root = tmp_path / "autograder"  # Gradescope's /autograder, here
    (root / "source").mkdir(parents=True)
    (root / "submission").mkdir()
    zipfile.ZipFile(bundle).extractall(root / "source")
    (root / "submission" / "ann.slidelab.json").write_text(ann.read_text())
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = dict(os.environ, PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}")
    env.pop("PYTHONPATH", None)
    for script in ("setup.sh", "run_autograder"):
        text = (root / "source" / script).read_text().replace("/autograder", str(root))
        text = text.replace("apt-get install", "true")  # the image's packages: not this machine's
        done = subprocess.run(["bash", "-c", text], env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assert not list(validator("gradescope").iter_errors(results)) and results["score"] == 7
    (root / "submission" / "ann.slidelab.json").unlink()  # a submission with no hand-in: its results say so
    text = (root / "source" / "run_autograder").read_text().replace("/autograder", str(root))
    assert subprocess.run(["bash", "-c", text], env=env, capture_output=True, timeout=300).returncode == 0
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == 0 and results["output"].startswith("no hand-in was found")
    (tmp_path / "student.json").write_text(read_exercise(SMALL).student_text)
    capsys.readouterr()
    assert cli.main(["exercise", str(tmp_path / "student.json"), "--gradescope-bundle", str(bundle)]) == 2
    assert "this is a student form: it holds no answers" in capsys.readouterr().err
