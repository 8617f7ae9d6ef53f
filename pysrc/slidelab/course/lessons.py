"""The lessons of Watch the search: exercises (format.py) that come with Slide Lab in data/lessons/, in file-name
order. A lesson's methods are its measure tasks, grouped by algorithm and heuristic; the figures its text quotes
are the tasks' `expected` values, which tests/test_watch_lessons.py holds to the engine's."""

from __future__ import annotations

from importlib import resources

from slidelab.course.format import Exercise, read_exercise


def lessons() -> list[Exercise]:
    folder = resources.files("slidelab").joinpath("data").joinpath("lessons")
    names = sorted(item.name for item in folder.iterdir() if item.name.endswith(".toml"))
    return [read_exercise(folder.joinpath(name).read_text(encoding="utf-8")) for name in names]


def catalogue() -> list[dict]:
    """Every lesson as the page shows it (describe()["lessons"]): {"id", "title", "text" (by language), "puzzle",
    "board", "example" (or null), "methods": [{"algorithm", "heuristic", "moves", "expanded"}]}."""
    found = []
    for lesson in lessons():
        methods: dict = {}
        for task in lesson.tasks:
            method = methods.setdefault((task.algorithm, task.heuristic),
                                        {"algorithm": task.algorithm, "heuristic": task.heuristic})
            method["moves" if task.quantity == "length" else task.quantity] = task.expected
        found.append({"id": lesson.id, "title": lesson.title, "text": lesson.text, "puzzle": lesson.puzzle,
                      "board": lesson.positions["start"], "example": lesson.example, "methods": list(methods.values())})
    return found
