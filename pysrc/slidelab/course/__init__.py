"""Exercises a teacher sets, hand-ins a student saves, and grading (docs/exercises.md)."""

from slidelab.course.format import (
           Exercise,
           ExerciseError,
           ExerciseTask,
           make_handin,
           read_exercise,
           read_handin,
           shipped,
           shipped_text,
)

__all__ = ["Exercise", "ExerciseError", "ExerciseTask", "make_handin", "read_exercise", "read_handin", "shipped",
           "shipped_text"]
