"""The lint and type gate: ruff (pyflakes, pycodestyle, bugbear, import order, pyupgrade at 120 columns) over the
Python of the project and mypy over pysrc/, both pinned in the test extra and configured in pyproject.toml, with zero
findings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing():
    done = _run("ruff", "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing():
    done = _run("mypy", "--no-incremental")
    assert done.returncode == 0, done.stdout + done.stderr
