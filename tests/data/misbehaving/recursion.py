def h(board):
    return deeper(0) if board.tiles != board.goal else 0


def deeper(n):
    return deeper(n + 1)
