"""What a puzzle is: state encoding, legal moves, goal, validation, text formats.

Every puzzle offers the same small interface used by the generic search algorithms:
`start`, `goal`, `moves(state)` yielding (move, next_state), `is_goal(state)`, `format(state)`,
`state_count()` (an upper bound on reachable states, used to refuse searches too large to hold).
Optional, where true and useful: `solution_parity()` (every solution's length has this parity), `children(state)`
(the next states alone, for searches that name no moves), `commuting_before(move)` (moves a depth-first search may
skip right after `move` because the other order reaches the same state).
"""

from .sliding import SlidingPuzzle, format_board, parse_board
from .tokens import TokenPuzzle

__all__ = ["SlidingPuzzle", "TokenPuzzle", "parse_board", "format_board"]
