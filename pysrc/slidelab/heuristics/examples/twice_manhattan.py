def h(board):
    """Twice the Manhattan distance: it overestimates, so A* and IDA* may return a path longer than the shortest
    (fewer positions searched, no guarantee). Not admissible."""
    cols = board.cols
    total = 0
    for cell, tile in enumerate(board.tiles):
        if tile:
            row, col = divmod(cell, cols)
            goal_row, goal_col = divmod(board.home(tile), cols)
            total += abs(row - goal_row) + abs(col - goal_col)
    return 2 * total
