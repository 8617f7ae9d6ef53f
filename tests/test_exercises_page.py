"""The page's exercise calls (course/page.py) as its workers answer them: open, hand in, and grading with h's
values from another worker, which must give the command line's rows."""

from __future__ import annotations

import json

import pytest

from slidelab import api
from slidelab.course import page, read_exercise
from slidelab.course.grade import Truths, grade_handin
from slidelab.heuristics.examples import source
from test_exercises import MISBEHAVING, SMALL, handin


def evaluating_worker():
    """An `ask` that answers as the page does: each message to a worker's evaluator_start or evaluate, here
    in-process (the page runs them in a locked-down worker of its own)."""
    asked = []

    def ask(message):
        asked.append(next(iter(message)))
        if "start" in message:
            return page.answer("evaluator_start", message["start"])
        return page.answer("evaluate", {"states": message["states"]})

    return ask, asked


def test_describe_lists_the_shipped_exercises_with_their_titles_in_both_languages():
    listed = {e["id"]: e["title"] for e in api.describe()["exercises"]}
    assert set(listed) == {"astar-8-puzzle", "bidirectional-search", "hardest-8-puzzle"}
    assert all(set(title) >= {"en", "ja"} for title in listed.values())


def test_open_gives_the_exercise_without_its_answers_and_refuses_bad_text_with_the_reason():
    opened = page.answer("open", {"id": "astar-8-puzzle"})
    assert opened["ok"] and opened["positions"] == {"start": "7 8 2/6 3 4/5 0 1"} and opened["max_points"] == 11
    assert opened["toml"].startswith("# A* with h = 0") and len(opened["sha256"]) == 64
    assert all("answer" not in task for task in opened["tasks"])
    assert page.answer("open", {"text": opened["toml"]})["sha256"] == opened["sha256"]
    broken = page.answer("open", {"text": "format = 1\nid = 'x'\n"})
    assert broken["error"] == dict(broken["error"], code="invalid",
                                   message="tasks: an exercise has at least one task ([[tasks]])")
    assert page.answer("open", {"text": "x" * (page.MAX_EXERCISE_CHARS + 1)})["error"]["reason"] == "too_long"
    assert page.answer("open", {"id": "nope"})["error"]["code"] == "invalid"
    assert page.answer("open", "junk")["ok"] is False


def test_a_hand_in_from_the_page_is_the_command_lines_file():
    made = page.answer("hand_in", {"text": SMALL, "student": " Ann Lee ", "answers": {"length": 31, "other": 1},
                                   "code": {"yours": "def h(s):\n    return 0\n"}, "app": "slidelab 0.1.0 (page)"})
    assert made["ok"] and made["name"] == "small-Ann-Lee.slidelab.json"
    data = json.loads(made["file"])
    assert data["student"] == "Ann Lee" and data["answers"] == {"length": 31} and data["exercise"] == "small"
    assert page.answer("hand_in", {"text": SMALL, "student": ""})["error"]["reason"] == "no_student"
    assert page.answer("hand_in", {"text": SMALL, "student": "x", "code": {"yours": 3}})["ok"] is False


@pytest.mark.parametrize(("code", "answers"), [
    (source("manhattan"), {"length": 31, "pick": "b"}),
    (source("twice_manhattan"), {"length": 30}),
    ((MISBEHAVING / "negative.py").read_text(), {}),
    ("def h(state:\n", {"pick": "a"}),
])
def test_grading_with_values_from_another_worker_gives_the_command_lines_row(code, answers):
    small = read_exercise(SMALL)
    text = handin(small, code, answers)
    ask, asked = evaluating_worker()
    row = page.answer("grade", {"exercise": SMALL, "handin": text, "name": "a.json"}, ask)
    assert asked == (["start", "states"] if code.startswith("def h(board)") else ["start"])  # the whole space at once
    expected = grade_handin(small, text, "a.json", Truths(small))
    assert {k: v for k, v in row.items() if k not in ("file_sha256", "problem")} == expected


def test_a_value_the_page_answers_is_checked_again_and_a_limit_is_the_tasks_failure():
    small = read_exercise(SMALL)
    text = handin(small, source("manhattan"))

    def lying(message):
        return {"ok": True, "values": None} if "start" in message else {"ok": True, "values": [1, 2]}

    row = page.answer("grade", {"exercise": SMALL, "handin": text, "name": "b"}, lying)
    assert row["tasks"]["yours"]["status"] == "failed" and "answered something else" in row["tasks"]["yours"]["detail"]

    def overran(message):
        return {"ok": False, "error": {"code": "limit", "message": "(in the page's language)"}}

    row = page.answer("grade", {"exercise": SMALL, "handin": text, "name": "c"}, overran)
    assert row["tasks"]["yours"] == dict(row["tasks"]["yours"], status="failed", points=0,
                                         detail="stopped after 8 s (the time limit) while your heuristic was running")


def test_a_damaged_or_huge_hand_in_is_a_row_of_its_own():
    row = page.answer("grade", {"exercise": SMALL, "handin": "{", "name": "junk.json"}, None)
    assert row["ok"] is False and "damaged" in row["error"]
    row = page.answer("grade", {"exercise": SMALL, "handin": "x" * (page.MAX_HANDIN_CHARS + 1), "name": "big"}, None)
    assert row["ok"] is False and "too large" in row["error"]


def test_the_pages_csv_is_the_command_lines():
    import io

    from slidelab.course.grade import write_csv

    small = read_exercise(SMALL)
    ask, _ = evaluating_worker()
    rows = [page.answer("grade", {"exercise": SMALL, "handin": text, "name": name}, ask)
            for name, text in [("a.json", handin(small, source("twice_manhattan"), {"length": 31}, "Ann, \"A\"")),
                               ("junk.json", "{")]]
    out = io.StringIO()
    write_csv(small, rows, out)
    made = page.answer("table", {"text": SMALL, "rows": rows})
    assert made["csv"] == out.getvalue()
    assert made["csv"].splitlines()[1].startswith('"Ann, ""A""",,a.json,1,0,2,3,7,"yours: overestimates on 157,176')
    assert rows[0]["problem"].startswith("yours: overestimates") and rows[1]["problem"].startswith("the file is")


BIG = """
format = 1
id = "big"
title = { en = "On a 3x4 board" }
goal = "1 2 3 4/5 6 7 8/9 10 11 0"
[positions]
near = "1 2 3 4/5 6 7 8/9 10 0 11"
[[tasks]]
id = "yours"
kind = "heuristic"
title = { en = "Yours" }
criteria = [{ check = "nodes", algorithm = "idastar", positions = ["near"], at_most = 5 }]
"""


def test_on_a_board_too_large_to_evaluate_whole_the_grading_asks_as_it_goes_or_says_it_cannot():
    big = read_exercise(BIG)
    text = handin(big, source("manhattan"))
    ask, asked = evaluating_worker()
    row = page.answer("grade", {"exercise": BIG, "handin": text, "name": "a"}, ask)
    assert row["total"] == 1 and asked[0] == "start" and len(asked) > 2  # a question per node it met
    steps = page.grading_steps({"exercise": BIG, "handin": text, "name": "a"})
    with pytest.raises(StopIteration) as stop:
        next(steps)
    assert stop.value.value["ok"] is False and "JavaScript Promise Integration" in stop.value.value["error"]
    assert page.answer("grade", {"exercise": BIG, "handin": handin(big, None), "name": "b"}, None)["total"] == 0
