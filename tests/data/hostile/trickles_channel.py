"""Announces a small message on every descriptor it may have, sends three bytes of it, and sleeps."""
import os
import struct
import time

for _fd in range(0, 100):
    try:
        os.write(_fd, struct.pack("!i", 1000) + b"[1,")
    except OSError:
        pass
time.sleep(600)


def h(board):
    return 0
