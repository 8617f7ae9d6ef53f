def h(board):
    print("looking at", board.tiles)
    cols = board.cols
    total = 0
    for cell, tile in enumerate(board.tiles):
        if tile:
            row, col = divmod(cell, cols)
            goal_row, goal_col = divmod(board.home(tile), cols)
            total += abs(row - goal_row) + abs(col - goal_col)
    return total
