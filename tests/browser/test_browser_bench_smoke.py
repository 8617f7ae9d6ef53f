"""Every benchmark script that drives the browser still runs: each at its smallest setting against the built site,
so that a change of the page that breaks a benchmark fails here (the CPython ones: tests/test_bench_smoke.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# script -> (its smallest arguments, a text its output must hold)
SMOKE = {
    "bench_browser.py": (["--loads", "1", "--solves", "1"], "ready"),
    "bench_browser_interpreter.py": (["--loops", "20000", "--rounds", "1"], "bytes table reads"),
    "bench_browser_korf.py": (["--count", "1", "--runs", "1"], "positions"),
    "bench_browser_pool.py": (["--runs", "1", "--korf", "79"], "workers"),
    "bench_browser_start.py": (["--runs", "1"], "repeat"),
    "bench_browser_worker_memory.py": (["--runs", "1", "--workers", "2"], "per added worker"),
    "bench_first_visit.py": (["--runs", "1"], "distinct files"),
    "bench_watch.py": (["--runs", "1"], "Watch the search"),
}


def _cpython_smoke():
    """tests/test_bench_smoke.py (a module of the same base name lives here: loaded by path)."""
    spec = importlib.util.spec_from_file_location("cpython_smoke", ROOT / "tests" / "test_bench_smoke.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CPYTHON_SMOKE = _cpython_smoke()


def test_the_list_is_the_cpython_tests_browser_list():
    assert set(SMOKE) | {"bench_browser_24.py"} == CPYTHON_SMOKE.BROWSER  # that one: test_the_24_puzzle_bench_runs


@pytest.mark.slow
def test_the_24_puzzle_bench_runs(tmp_path, monkeypatch):
    """bench_browser_24.py on a site serving the stand-in 6-6-6-6 tables (test_24_puzzle.py), one 44-move position:
    the page and this CPython (the same stand-ins) find its length."""
    from test_24_puzzle import GOAL, QUICK, STAND_INS, stand_in_site

    site = stand_in_site(tmp_path)
    positions = tmp_path / "one.txt"
    positions.write_text(f"kf1: {QUICK}  # 44 moves\n")
    monkeypatch.setenv("SLIDELAB_PDB_DIR", str(STAND_INS))
    CPYTHON_SMOKE.run_benchmark("bench_browser_24.py", ["--site", str(site), "--file", str(positions), "--goal", GOAL,
                                                        "--ids", "1"], "page / CPython: time", timeout=900)


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(SMOKE))
def test_browser_benchmark_runs_at_its_smallest_setting(script):
    CPYTHON_SMOKE.run_benchmark(script, *SMOKE[script], timeout=900)


@pytest.mark.slow
def test_the_pictures_script_makes_its_pictures(tmp_path):
    """docs/make_pictures.py still drives the page: one picture, made into a scratch folder (a PNG, not empty)."""
    import os
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(ROOT / "docs" / "make_pictures.py"), "--only", "knights", "--out",
                           str(tmp_path)], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT / "pysrc")),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert (tmp_path / "knights.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
