"""Tries to damage what it can find: a canary file and the pattern databases' cache (both named here by the test),
files under $HOME and the working folder; h is 0."""
import os

for _path in ("{CANARY}", os.path.join("{CACHE}", "damaged.slpdb"), os.path.expanduser("~/damaged"), "damaged",
              "/work/damaged"):
    try:
        with open(_path, "w") as _f:
            _f.write("damaged by a hand-in")
    except OSError:
        pass
for _name in os.listdir("{CACHE}") if os.path.isdir("{CACHE}") else []:
    try:
        with open(os.path.join("{CACHE}", _name), "r+b") as _f:
            _f.write(b"\xff" * 64)
    except OSError:
        pass


def h(board):
    return 0
