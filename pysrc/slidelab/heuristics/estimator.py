"""The interface every heuristic builds for one puzzle (declared here; the searches rely on it, tests check it)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Estimator(Protocol):
    """What a heuristic builds for one puzzle.

    kernel: "tile_table" (a sum of per-tile tables, `tile_table[tile][cell]`), "tracker" (`tracker(state)` follows a
    board move by move: `probe(tile, frm, to)` gives the next h, `push()` makes the move), "pdb" (pattern-database
    `orientations`), or None (the generic search calls h on every state). An estimator may also declare
    `consistent = True` (a move never lowers h by more than one): A* then keeps no record to count reopenings.
    """

    name: str
    kernel: str | None

    def __call__(self, state) -> int: ...
