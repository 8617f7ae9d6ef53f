"""Tries what the namespaces alone leave open: tracing the sandbox's first process (to take away its death signal),
the judge's session keyring, a user namespace of its own, changing the device nodes it is shown, and living on
after the run (its death signal cleared, its exit made a sleep, a child doing the same). Each that works makes h
overestimate (100 times Manhattan distance), so a check that says "admissible" proves that every one failed."""
import ctypes
import os
import signal
import subprocess
import sys
import time

_libc = ctypes.CDLL(None, use_errno=True)
_ARCH = os.uname().machine
_PTRACE, _KEYCTL, _UNSHARE = {"x86_64": (101, 250, 272), "aarch64": (117, 219, 97)}[_ARCH]
BROKEN = []
if _libc.syscall(_PTRACE, 16, 1, 0, 0) == 0:  # PTRACE_ATTACH to pid 1
    BROKEN.append("ptrace")
if _libc.syscall(_KEYCTL, 0, -3, 0) >= 0:  # KEYCTL_GET_KEYRING_ID of the session keyring
    BROKEN.append("keyring")
if _libc.syscall(_UNSHARE, 0x10000000) == 0:  # CLONE_NEWUSER
    BROKEN.append("unshare")
for _node in ("/dev/null", "/dev/zero"):
    try:
        os.utime(_node, (1_000_000_000, 1_000_000_000))
        BROKEN.append("utime " + _node)
    except OSError:
        pass
    try:
        os.chmod(_node, 0o1666)
        BROKEN.append("chmod " + _node)
    except OSError:
        pass
STAY = "import ctypes, time; ctypes.CDLL(None).prctl(1, 0, 0, 0, 0); time.sleep(30)  # MARKER"
subprocess.Popen([sys.executable, "-c", STAY], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_libc.prctl(1, 0, 0, 0, 0)  # no death signal for this process
signal.signal(signal.SIGTERM, signal.SIG_IGN)
os._exit = lambda status=0: time.sleep(30)  # the evaluator's last call: a sleep instead


def h(board):
    total = 0
    for cell, tile in enumerate(board.tiles):
        if tile:
            row, col = divmod(cell, board.cols)
            goal_row, goal_col = divmod(board.home(tile), board.cols)
            total += abs(row - goal_row) + abs(col - goal_col)
    return 100 * total if BROKEN else total
