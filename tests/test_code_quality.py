"""The lint and type gate: ruff (pyflakes, pycodestyle, bugbear, import order, pyupgrade at 120 columns, complexity)
over the Python of the project, no function of pysrc/ over 80 lines but in the kernels' files, mypy over pysrc/,
both tools pinned in the test extra and configured in pyproject.toml, and eslint over the page's JavaScript, pinned
by tests/eslint/package-lock.json; each with zero findings."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing():
    done = _run("ruff", "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr


MAX_FUNCTION_LINES = 80


def test_no_function_is_over_80_lines_but_in_a_kernel():
    ignores = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]["per-file-ignores"]
    kernels = {path for path, rules in ignores.items() if "C901" in rules}
    assert kernels and all((ROOT / path).is_file() for path in kernels)  # the list names files that are there
    long = []
    for path in sorted((ROOT / "pysrc").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and name not in kernels:
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{name}: {node.name}, {lines} lines")
    assert not long, long


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
