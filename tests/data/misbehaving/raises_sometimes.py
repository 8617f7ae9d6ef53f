def h(board):
    if board.tiles[0] == 0:
        return 1 // 0
    return 0
