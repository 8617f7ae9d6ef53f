def h(board):
    return 0.0
