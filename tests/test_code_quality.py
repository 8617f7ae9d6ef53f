"""The lint and type gate: ruff (pyflakes, pycodestyle, bugbear, import order, pyupgrade at 120 columns) over the
Python of the project and mypy over pysrc/, both pinned in the test extra and configured in pyproject.toml, and eslint
over the page's JavaScript, pinned by tests/eslint/package-lock.json; each with zero findings."""

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


ESLINT = ROOT / "tests" / "eslint"  # its package.json and lock pin eslint; node_modules is made here by npm ci


def test_eslint_finds_nothing_in_the_page_and_the_service_worker():
    """eslint's recommended rules and a few of style (tests/eslint/eslint.config.mjs) over web/js and web/sw.js."""
    binary = ESLINT / "node_modules" / "eslint" / "bin" / "eslint.js"
    installed = ESLINT / "node_modules" / ".package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < (ESLINT / "package-lock.json").stat().st_mtime:
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=ESLINT, check=True, timeout=600)
    done = subprocess.run(["node", str(binary), "-c", str(ESLINT / "eslint.config.mjs"), "web/js", "web/sw.js"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
