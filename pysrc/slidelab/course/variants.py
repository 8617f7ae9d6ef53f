"""Each student their own positions: a position an exercise draws per student ([positions] name = { distance = ... }
or { boards = [...] }), seeded by the exercise's id, the position's name and the student (their id, else their name
with its spacing and case evened out), so the page, the hand-in and the grader draw the same board and nothing is
stored. A draw by distance takes seeded random positions that can reach the goal and the first whose shortest
solution (found by the engine) has a length in the range.
"""

from __future__ import annotations

import hashlib
import random

from slidelab import api
from slidelab.course.format import Draw, Exercise, ExerciseError

MAX_KEPT = 4096  # students' drawn positions kept, per process
MAX_DRAWS = 1000  # random positions tried for a distance before the draw is refused
DRAW_SECONDS = 5  # how long the engine may take to find one drawn position's distance
WALK = 200  # moves of the random walk that draws a position of a puzzle without uniform draws (token puzzles)


def student_key(name: str | None, student_id: str | None = None) -> str:
    """What a student's positions are drawn by: their id when there is one, else their name, spacing and case
    evened out ("Ann  Lee" and "ann lee" draw the same)."""
    if student_id and student_id.strip():
        return "id:" + " ".join(student_id.split()).casefold()
    return "name:" + " ".join((name or "").split()).casefold()


def positions_of(exercise: Exercise, student=None, student_id=None) -> dict:
    """The positions of the student a request or a command names (`student`, `student_id`: text, or anything else
    for none), drawn ones included; with no one named, the fixed ones alone."""
    name = student if isinstance(student, str) else ""
    number = student_id if isinstance(student_id, str) else None
    if not exercise.draws or not (name.strip() or (number or "").strip()):
        return dict(exercise.positions)
    return positions_for(exercise, student_key(name, number))


def positions_for(exercise: Exercise, key: str) -> dict:
    """Every position of the exercise for the student `key` (student_key): the fixed ones, and each drawn one as
    that student draws it. ExerciseError when a draw finds no position."""
    if not exercise.draws:
        return dict(exercise.positions)
    found = _kept.get((exercise.sha256, key))
    if found is None:
        if len(_kept) >= MAX_KEPT:
            _kept.clear()
        found = _kept[exercise.sha256, key] = {name: _draw(exercise, name, draw, key)
                                               for name, draw in exercise.draws.items()}
    return dict(exercise.positions) | found


_kept: dict = {}  # (exercise's sha256, student key) -> the positions drawn


def _draw(exercise: Exercise, name: str, draw: Draw, key: str) -> str:
    seed = int.from_bytes(hashlib.sha256(f"{exercise.id}\n{name}\n{key}".encode()).digest()[:16], "big")
    rng = random.Random(seed)
    if draw.boards:
        return draw.boards[rng.randrange(len(draw.boards))]
    low, high = draw.distance
    puzzle = api.make_puzzle(exercise.request(exercise.space_board))
    for _ in range(MAX_DRAWS):
        board = puzzle.format(_random_state(puzzle, rng))
        answer = api.solve(dict(exercise.request(board), max_seconds=DRAW_SECONDS))
        if answer["ok"] and answer.get("optimal") and low <= answer["length"] <= high:
            return board
    wanted = f"{low}" if low == high else f"{low} to {high}"
    raise ExerciseError(f"positions.{name}: no position {wanted} moves from the goal was found in {MAX_DRAWS:,} "
                        "draws: give a distance that more positions have", reason="exercise_field",
                        field=f"positions.{name}", problem="no position drawn")


def _random_state(puzzle, rng: random.Random):
    """A random position that can reach the puzzle's goal: uniform for a sliding puzzle, else the end of a random
    walk from the goal."""
    from slidelab.core.puzzles.sliding import SlidingPuzzle, random_position

    if isinstance(puzzle, SlidingPuzzle):
        return random_position(puzzle.rows, puzzle.cols, puzzle.goal, rng)
    state = puzzle.goal
    for _ in range(WALK):
        children = list(puzzle.children(state))
        state = children[rng.randrange(len(children))]
    return state
