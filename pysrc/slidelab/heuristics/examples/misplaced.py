def h(board):
    """Misplaced tiles: every tile off its goal cell needs at least one move (the blank is not counted).
    Admissible and consistent, and less informed than Manhattan distance."""
    return sum(1 for tile, goal in zip(board.tiles, board.goal, strict=True) if tile and tile != goal)
