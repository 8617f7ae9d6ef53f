import time


def h(board):
    time.sleep(1000)
    return 0
