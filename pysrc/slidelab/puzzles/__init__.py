"""What a puzzle is: state encoding, legal moves, goal, validation, text formats.

Every puzzle offers the same small interface used by the generic search algorithms:
`start`, `goal`, `moves(state)` yielding (move, next_state), `is_goal(state)`, `format(state)`,
`state_count()` (an upper bound on reachable states, used to refuse searches too large to hold).
"""

from .sliding import SlidingPuzzle, format_board, parse_board

__all__ = ["SlidingPuzzle", "parse_board", "format_board"]
