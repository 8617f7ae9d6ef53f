import sys


def h(board):
    sys.exit(0)
