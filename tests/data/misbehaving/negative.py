def h(board):
    return 0 if board.tiles == board.goal else -1
