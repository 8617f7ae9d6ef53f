"""Slide Lab: optimal solvers for sliding-tile and token puzzles."""

__version__ = "0.1.0"
