"""Every benchmark script still runs: each at its smallest setting (one position, one run), so that a change that
breaks a benchmark fails here and not for the next person who measures. The figures themselves are not judged
(docs/benchmarks.md holds them); each script must exit 0 and print its figures. The scripts that drive the browser
are in tests/browser/test_browser_bench_smoke.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"

# script -> (its smallest arguments, a text its output must hold)
KORF_100 = ["--file", "tests/data/korf100-batch.txt", "--goal", "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"]
SMOKE = {
    "bench_24.py": ([*KORF_100, "--heuristic", "pdb", "--engine", "processes", "--ids", "79"], "#79: 42 moves"),
    "bench_resume.py": ([*KORF_100, "--heuristic", "linear_conflict", "--id", "1", "--kill-worker-at", "2",
                         "--kill-client-at", "4"], "resumed: 57 moves"),
    "bench_batch_tail.py": (["--runs", "1", "--korf", "12", "79"], "ratio"),
    "bench_check_12.py": (["--shape", "2x4", "--workers", "2"], "positions/s"),
    "bench_cli.py": (["--runs", "1"], "python -c pass"),
    "bench_dask_explore.py": (["2x3", "--workers", "1"], "worker(s)"),
    "bench_explore_scale.py": (["2x3"], "positions"),
    "bench_grade.py": (["--students", "3", "--looping", "1", "--max-seconds", "1"], "tables equal"),
    "bench_heuristics.py": (["--runs", "1", "--max-seconds", "0.5"], "quick"),
    "bench_korf.py": (["--ids", "79"], "79"),
    "bench_split_cost.py": (["--ids", "3,12", "--tables", "pdb771", "--runs", "1"], "split ms"),
    "bench_parallel.py": (["--runs", "1", "--korf", "79"], "79"),
    "bench_sandbox.py": (["--runs", "1"], "evaluator"),
    "bench_search.py": (["--runs", "1", "--skip-2x5"], "cpu"),
    "bench_tokens.py": (["--runs", "1"], "knights"),
    "bench_user_heuristic.py": (["--runs", "1"], "ratio"),
    "plan_explore_scale.py": (["3x3", "--workers", "2", "--samples", "200"], "workers"),
    "bench_last_iteration.py": (["--korf", "12"], "worst"),
    "bench_pdb_build.py": (["--shape", "3x4", "--cells", "1,4,5,8,9"], "half-excess"),
    "bench_partition.py": (["--groups", "1-2-3-4-5,6-7-8-9-10,11-12-13-14-15", "--first", "1"], "against pdb"),
    "compare_revisions.py": ([".", ".", "--rounds", "1", "--", "bench/bench_tokens.py", "--runs", "1"], "new/old"),
}
BROWSER = {"bench_browser.py", "bench_browser_interpreter.py", "bench_browser_korf.py", "bench_browser_pool.py",
           "bench_browser_start.py", "bench_browser_worker_memory.py", "bench_first_visit.py", "bench_watch.py",
           "bench_browser_24.py"}


def test_every_benchmark_script_has_a_smoke_run():
    scripts = {p.name for p in BENCH.iterdir() if p.suffix in (".py", ".mjs")}
    assert scripts == set(SMOKE) | BROWSER | {"bench_pdb_pyodide.mjs"}


def run_benchmark(script: str, args: list[str], expected: str, timeout: int = 600) -> None:
    """Run a bench script as a person would; it must exit 0 and print `expected`."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "pysrc"))
    done = subprocess.run([sys.executable, str(BENCH / script), *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert expected in done.stdout, done.stdout[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(SMOKE))
def test_benchmark_runs_at_its_smallest_setting(script):
    run_benchmark(script, *SMOKE[script])
