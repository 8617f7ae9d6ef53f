def h(board):
    """Manhattan distance where the blank is on an even cell, 0 elsewhere: never more than the true distance, but
    it drops by more than one along some moves. Admissible, not consistent: A* still finds a shortest path, reopening
    positions it had closed."""
    if board.where(0) % 2:
        return 0
    cols = board.cols
    total = 0
    for cell, tile in enumerate(board.tiles):
        if tile:
            row, col = divmod(cell, cols)
            goal_row, goal_col = divmod(board.home(tile), cols)
            total += abs(row - goal_row) + abs(col - goal_col)
    return total
