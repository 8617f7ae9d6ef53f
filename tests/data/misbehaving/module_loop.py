while True:
    pass


def h(board):
    return 0
