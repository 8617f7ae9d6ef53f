def h(board):
    """Token puzzles: for every piece, the fewest moves to the nearest goal cell of its kind on an empty board.
    Each move moves one piece one step of the move graph. Admissible and consistent."""
    total = 0
    for cell, piece in enumerate(board.cells):
        if piece not in ".#":
            moves = [board.distance(cell, goal) for goal, wanted in enumerate(board.goal) if wanted == piece]
            total += min((m for m in moves if m is not None), default=0)
    return total
