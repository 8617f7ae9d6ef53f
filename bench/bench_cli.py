"""Whole-process time of the `slidelab` command on easy positions, next to a bare Python start (docs/benchmarks.md,
"Command line").

    python3 bench/bench_cli.py [--runs N] [--python PATH [--python PATH2 ...] [--installed]] [--pdb-dir DIR]

Each command runs N times, in turn with the others (so a busy moment hurts every command alike); the median wall time
of each is printed with its ratio to `python -c pass`. Several --python interpreters (two revisions, each installed
in a venv of its own) are timed in the same turns, each against its own `python -c pass`. The pattern databases the
solves need are built once first, into a temporary cache folder, as a user's first call would. With `--pdb-dir DIR`
(a folder holding the 4x4 tables, such as .cache/pdb), their .slpdb files are copied into that folder too and an easy
4x4 is timed as well (its first call, not timed, decodes them once and leaves the mapped form beside them). With
`--installed` the slidelab that PATH has installed is timed (`python3 -m venv V && V/bin/pip install .`), as a user
runs it.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

COMMANDS = [
    ("python -c pass", ["-c", "pass"]),
    ("import slidelab.cli", ["-c", "import slidelab.cli"]),
    ("solve 3x3, 1 move", ["-m", "slidelab", "solve", "1 2 3/4 5 6/7 0 8"]),
    ("solve 3x3, 31 moves", ["-m", "slidelab", "solve", "8 6 7/2 5 4/3 0 1"]),
    ("solve knights, 16 moves", ["-m", "slidelab", "solve", "--puzzle", "knights"]),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--python", action="append", help="an interpreter to time (default: this one); give several "
                        "to time them in the same turns")
    parser.add_argument("--pdb-dir", help="a folder with the 4x4 tables: time an easy 4x4 too")
    parser.add_argument("--installed", action="store_true", help="time the slidelab that --python has installed "
                        "(pip install .), not this checkout's sources")
    args = parser.parse_args()
    pythons = args.python or [sys.executable]
    commands = list(COMMANDS)
    with tempfile.TemporaryDirectory() as cache:
        if args.pdb_dir:
            for table in pathlib.Path(args.pdb_dir).glob("4x4_*.slpdb"):
                shutil.copy(table, cache)
            commands.append(("solve 4x4, 1 move", ["-m", "slidelab", "solve", "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"]))
        env = dict(os.environ, SLIDELAB_PDB_DIR=cache)
        if not args.installed:
            env["PYTHONPATH"] = str(ROOT / "pysrc")
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode cached (the warm-up writes it)
        runs = [(python, name, command) for python in pythons for name, command in commands]
        for python, _, command in runs:  # warm: tables built and cached, files in the page cache
            subprocess.run([python, *command], env=env, check=True, capture_output=True)
        times: dict = {(python, name): [] for python, name, _ in runs}
        for _ in range(args.runs):
            for python, name, command in runs:
                started = time.perf_counter()
                subprocess.run([python, *command], env=env, check=True, capture_output=True)
                times[python, name].append(time.perf_counter() - started)
    for python in pythons:
        base = statistics.median(times[python, COMMANDS[0][0]])
        print(f"{python}, median of {args.runs} runs")
        for name, _ in commands:
            median = statistics.median(times[python, name])
            print(f"{name:<26} {median * 1000:7.1f} ms   {median / base:4.2f} x python -c pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
