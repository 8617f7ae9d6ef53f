"""The interface every puzzle offers, the only way the algorithms know puzzles (declared here; tests check that
every puzzle has it)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, runtime_checkable


@runtime_checkable
class Puzzle(Protocol):
    """A start, a goal and the moves between states (a state is a flat tuple or an int, hashable, never mutated).

    The capabilities below are part of the interface: every puzzle has them, answering "nothing" where they do not
    apply, so that no algorithm has to probe for them.
    """

    kind: str  # "sliding" or "tokens": which kernels and heuristics apply
    rows: int
    cols: int
    size: int  # cells
    start: object
    goal: object

    def moves(self, state) -> Iterable[tuple[object, object]]:
        """(move, next state) for every legal move of `state`."""

    def children(self, state) -> list:
        """The next states alone, for searches that name no moves until the end (faster than `moves`)."""

    def is_goal(self, state) -> bool: ...

    def apply(self, state, move):
        """The state after `move`; InvalidBoard if it is not legal there."""

    def replay(self, moves, state=None):
        """The state after `moves` from `state` (default: the start), each checked by `apply`."""

    def format(self, state) -> str:
        """The board text of a state (docs/formats.md); `parse` reads it back."""

    def parse(self, text: str): ...

    def move_name(self, move) -> str:
        """A move as people write it: the tile's number, or squares like `a4-b2`."""

    def state_count(self) -> int:
        """An upper bound on the states reachable from any one (used to refuse searches too large to hold)."""

    def check_solvable(self) -> None:
        """Raise Unsolvable, with a one-sentence reason, when the goal provably cannot be reached."""

    def solution_parity(self) -> int | None:
        """Every solution's length has this parity (0 or 1), or None when the puzzle cannot tell."""

    def commuting_before(self, move) -> frozenset:
        """Moves a depth-first search may skip right after `move`, because the other order reaches the same state
        (empty when no two moves commute, as on sliding boards)."""
