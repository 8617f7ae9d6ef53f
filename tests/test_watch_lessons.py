"""The numbers of Watch the search's lessons are the engine's: the lessons are exercises (pysrc/slidelab/data/lessons,
read by course/lessons.py into api.describe()["lessons"], which the page shows), and each figure their texts quote
(a measure task's `expected`) is checked here against what `solve` and `trace` report, and against the grading's own
right answers."""

from __future__ import annotations

import pytest

from slidelab import api
from slidelab.course.grade import truths
from slidelab.course.lessons import lessons as lesson_exercises
from slidelab.heuristics.examples import source

TRACE_STEPS = api.MAX_TRACE_STEPS  # what the panel lets a student watch (from api.describe())
# IDA*'s iterations as the iterations lesson's text gives them (bound: expanded)
ITERATIONS = {"misplaced": {8: 1, 10: 19, 12: 59, 14: 181, 16: 562, 18: 1708, 20: 212},
              "manhattan": {12: 10, 14: 31, 16: 90, 18: 243, 20: 30},
              "linear_conflict": {12: 1, 14: 6, 16: 25, 18: 94, 20: 22}}

LESSONS = api.describe()["lessons"]
METHODS = [(lesson, method) for lesson in LESSONS for method in lesson["methods"]]


def test_the_page_has_its_lessons_in_both_languages():
    assert [lesson["id"] for lesson in LESSONS] == ["heuristics", "greedy", "iterations", "overestimate", "knights"]
    heuristics = LESSONS[0]
    assert heuristics["board"] == "7 8 2/6 3 4/5 0 1"  # the assignment's position and numbers, from the issue
    assert [(m["heuristic"], m["moves"], m["expanded"]) for m in heuristics["methods"]] == [
        ("zero", 25, 147_132), ("misplaced", 25, 18_575), ("manhattan", 25, 875)]
    assert "25 moves" in heuristics["text"]["en"]
    assert LESSONS[2]["text"]["en"].endswith("the least f among them is the next bound.")
    for lesson in LESSONS:
        assert lesson["title"]["en"] and lesson["title"]["ja"] and lesson["text"]["en"] and lesson["text"]["ja"]


def test_every_quoted_figure_is_the_gradings_right_answer():
    for lesson in lesson_exercises():
        right = truths(lesson)
        assert {task.id: task.expected for task in lesson.tasks} == right, lesson.id


@pytest.mark.parametrize("lesson, method", METHODS,
                         ids=[f"{lesson['id']}-{m['algorithm']}-{m['heuristic']}" for lesson, m in METHODS])
def test_a_lessons_numbers_are_what_solve_reports(lesson, method):
    request = {"puzzle": lesson["puzzle"], "board": lesson["board"], "algorithm": method["algorithm"],
               "heuristic": method["heuristic"]}
    if method["heuristic"] == "yours":  # the lesson puts one of the examples in Your heuristic
        request["heuristic_code"] = source(lesson["example"])
    answer = api.solve(request)
    assert (answer["length"], answer["stats"]["expanded"]) == (method["moves"], method["expanded"])
    shortest = min(m["moves"] for m in lesson["methods"] if m["algorithm"] not in ("greedy", "weighted"))
    assert answer["optimal"] == (method["algorithm"] not in ("greedy", "weighted") and answer["length"] == shortest)
    iterations = answer["stats"].get("iterations", [])
    expected = ITERATIONS.get(method["heuristic"], {}) if lesson["id"] == "iterations" else {}
    assert {i["bound"]: i["expanded"] for i in iterations} == expected
    if method["expanded"] > TRACE_STEPS:  # the page says it is too many to watch: a trace indeed stops
        traced = api.trace(request)
        assert traced["truncated"] and traced["expanded"] == TRACE_STEPS
        return
    traced = api.trace(request)  # what Watch shows for it: the same path, and for best-first searches the same count
    assert not traced["truncated"] and traced["length"] == method["moves"]
    if expected:  # the generic IDA*: the same bounds, the last iteration's count a few nodes apart
        assert [i["bound"] for i in traced["stats"]["iterations"]] == list(expected)
        assert [i["expanded"] for i in traced["stats"]["iterations"]][:-1] == list(expected.values())[:-1]
    else:
        assert traced["expanded"] == method["expanded"]


def test_the_overestimating_lessons_path_is_longer_and_said_so():
    lesson = next(lesson for lesson in LESSONS if lesson["id"] == "overestimate")
    answer = api.solve({"board": lesson["board"], "algorithm": "astar", "heuristic_code": source(lesson["example"])})
    assert answer["longer_by"] == 4 and answer["shortest_length"] == 25
    assert api.check_heuristic({"shape": "3x3", "heuristic_code": source(lesson["example"])})["admissible"] is False


def test_the_misleading_lessons_greedy_path_is_longer_than_a_stars():
    for lesson in LESSONS:
        moves = {m["algorithm"]: m["moves"] for m in lesson["methods"]}
        if "greedy" in moves:
            assert moves["greedy"] > moves["astar"], lesson["id"]
