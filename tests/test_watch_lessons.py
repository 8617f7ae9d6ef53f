"""The numbers of Watch the search's lessons are the engine's: they are read from the file the page loads
(web/js/lessons.json), so a lesson whose numbers drift from what `solve` reports fails here."""

from __future__ import annotations

import json
import pathlib

import pytest

from slidelab import api
from slidelab.heuristics.examples import source

LESSONS_JSON = pathlib.Path(__file__).resolve().parent.parent / "web" / "js" / "lessons.json"
TRACE_STEPS = api.MAX_TRACE_STEPS  # what the panel lets a student watch (from api.describe())


def lessons():
    """The lessons as the page loads them (web/js/lessons.json)."""
    return json.loads(LESSONS_JSON.read_text(encoding="utf-8"))


LESSONS = lessons()
METHODS = [(lesson, method) for lesson in LESSONS for method in lesson["methods"]]


def test_the_page_has_its_lessons():
    assert [lesson["id"] for lesson in LESSONS] == ["heuristics", "greedy", "iterations", "overestimate", "knights"]
    heuristics = LESSONS[0]
    assert heuristics["board"] == "7 8 2/6 3 4/5 0 1"  # the assignment's position and numbers, from the issue
    assert [(m["heuristic"], m["moves"], m["expanded"]) for m in heuristics["methods"]] == [
        ("zero", 25, 147_132), ("misplaced", 25, 18_575), ("manhattan", 25, 875)]
    english = json.loads((LESSONS_JSON.parent.parent / "i18n" / "en.json").read_text(encoding="utf-8"))
    assert "25 moves" in english["lesson.heuristics.text"]  # each lesson's words are in the page's catalogues
    assert english["lesson.iterations.text"].endswith("the least f among them is the next bound.")


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
    assert [i["bound"] for i in iterations] == method.get("bounds", [])
    assert [i["expanded"] for i in iterations] == method.get("iterations", [])
    if method["expanded"] > TRACE_STEPS:  # the page says it is too many to watch: a trace indeed stops
        traced = api.trace(request)
        assert traced["truncated"] and traced["expanded"] == TRACE_STEPS
        return
    traced = api.trace(request)  # what Watch shows for it: the same path, and for best-first searches the same count
    assert not traced["truncated"] and traced["length"] == method["moves"]
    if "iterations" in method:  # the generic IDA*: the same bounds, the last iteration's count a few nodes apart
        assert [i["bound"] for i in traced["stats"]["iterations"]] == method["bounds"]
        assert [i["expanded"] for i in traced["stats"]["iterations"]][:-1] == method["iterations"][:-1]
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
