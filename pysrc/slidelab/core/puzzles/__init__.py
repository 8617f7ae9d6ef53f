"""What a puzzle is: state encoding, legal moves, goal, validation, text formats.

`interface.Puzzle` declares what every puzzle offers; the algorithms know puzzles only through it. The puzzles:
`sliding.SlidingPuzzle` (any rows x cols board) and `tokens.TokenPuzzle` (pieces on a graph).
"""


def with_start(puzzle, state):
    """The same puzzle (goal, tables, rules) started from `state`: a subtree of a split search, a sampled position."""
    import copy

    other = copy.copy(puzzle)
    other.start = state
    return other


def move_record(move):
    """A move as JSON answers hold it: the tile's number (sliding), or [from, to] cell indices (tokens)."""
    return list(move) if isinstance(move, tuple) else move
