"""Leaves processes behind in sessions of their own (a double fork with setsid, a Popen with a new session), each
meant to outlive the run and rewrite OUTPUT afterwards; h is 0."""
import os
import subprocess
import sys

LATER = "import time; time.sleep(3); open(OUTPUT, 'w').write('rewritten by a hand-in')  # MARKER"
subprocess.Popen([sys.executable, "-c", LATER.replace("OUTPUT", repr("{OUTPUT}"))], start_new_session=True,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, [sys.executable, "-c", LATER.replace("OUTPUT", repr("{OUTPUT}"))])
    os._exit(0)


def h(board):
    return 0
