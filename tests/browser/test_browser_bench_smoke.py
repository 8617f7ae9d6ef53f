"""Every benchmark script that drives the browser still runs: each at its smallest setting against the built site,
so that a change of the page that breaks a benchmark fails here (the CPython ones: tests/test_bench_smoke.py)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"

# script -> (its smallest arguments, a text its output must hold)
SMOKE = {
    "bench_browser.py": (["--loads", "1", "--solves", "1"], "ready"),
    "bench_browser_korf.py": (["--count", "1", "--runs", "1"], "positions"),
    "bench_browser_pool.py": (["--runs", "1", "--korf", "79"], "workers"),
    "bench_browser_start.py": (["--runs", "1"], "repeat"),
    "bench_watch.py": (["--runs", "1"], "Watch the search"),
}


def test_the_list_is_the_cpython_tests_browser_list():
    spec = importlib.util.spec_from_file_location("cpython_smoke", ROOT / "tests" / "test_bench_smoke.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert set(SMOKE) == module.BROWSER


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(SMOKE))
def test_browser_benchmark_runs_at_its_smallest_setting(script):
    args, expected = SMOKE[script]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "pysrc"))
    done = subprocess.run([sys.executable, str(BENCH / script), *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert expected in done.stdout, done.stdout[-3000:]
