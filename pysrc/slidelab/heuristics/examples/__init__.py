"""Heuristics written against the user contract (heuristics/user.py), one file each: the page offers them as starting
points, the docs show them and the tests check what the lab says of each."""

from __future__ import annotations

from importlib import resources

# (file name without .py, title, the puzzles it is for)
EXAMPLES = [
    ("manhattan", "Manhattan distance", "sliding"),
    ("misplaced", "Misplaced tiles", "sliding"),
    ("twice_manhattan", "Twice Manhattan (overestimates)", "sliding"),
    ("sometimes_manhattan", "Manhattan on some positions (inconsistent)", "sliding"),
    ("nearest_goal", "Nearest goal cell (token puzzles)", "tokens"),
]


def source(name: str) -> str:
    """The code of one example."""
    return resources.files(__package__).joinpath(f"{name}.py").read_text(encoding="utf-8")


def examples() -> list[dict]:
    """Every example: {"name", "title", "puzzle", "code"}."""
    return [{"name": name, "title": title, "puzzle": puzzle, "code": source(name)} for name, title, puzzle in EXAMPLES]
