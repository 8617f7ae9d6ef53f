"""Starts a child that would live on, then waits at import long past the test's patience: the judge is killed in
the meantime, and nothing of the sandbox may outlive it."""
import subprocess
import sys
import time

subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)  # MARKER"], stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL, start_new_session=True)
time.sleep(60)


def h(board):
    return 0
