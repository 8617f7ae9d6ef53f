"""Compare a benchmark script on two checkouts, run in turn so that a busy moment of the machine hurts both alike.

    python3 bench/compare_revisions.py OLD_CHECKOUT NEW_CHECKOUT [--rounds N] -- bench/bench_search.py --runs 5

Runs `python SCRIPT ARGS` from each checkout (its own copy of the script and of pysrc/), alternately, N rounds, reads
every output line of the form `<label>  <number> ms cpu` or `... <number> s cpu ...`, and prints per label the median
CPU time of each checkout and their ratio (new / old). Make a checkout of another revision with
`git worktree add --detach ../old REV`.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import statistics
import subprocess
import sys

FIGURE = re.compile(r"^(?P<label>.*?)\s+(?P<value>[\d.,]+) (?P<unit>ms|s) cpu")


def figures(output: str) -> dict:
    """{label: CPU seconds} of a benchmark's output."""
    found = {}
    for line in output.splitlines():
        match = FIGURE.search(line)
        if match:
            value = float(match["value"].replace(",", ""))
            found[match["label"].strip()] = value / 1000 if match["unit"] == "ms" else value
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=pathlib.Path)
    parser.add_argument("new", type=pathlib.Path)
    parser.add_argument("--rounds", type=int, default=3)
    argv = sys.argv[1:]
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        parser.error("name the benchmark script after --")
    args = parser.parse_args(argv[:argv.index("--")])
    command = argv[argv.index("--") + 1:]
    runs = {"old": [], "new": []}
    for _ in range(args.rounds):
        for name in ("old", "new"):
            checkout = getattr(args, name).resolve()
            done = subprocess.run([sys.executable, str(checkout / command[0]), *command[1:]], cwd=checkout,
                                  capture_output=True, text=True, check=True)
            runs[name].append(figures(done.stdout))
    labels = [label for label in runs["old"][0] if all(label in r for r in runs["old"] + runs["new"])]
    print(f"median CPU of {args.rounds} alternating rounds: {' '.join(command)}")
    print(f"{'':<52} {'old':>10} {'new':>10} {'new/old':>8}")
    for label in labels:
        old = statistics.median(r[label] for r in runs["old"])
        new = statistics.median(r[label] for r in runs["new"])
        print(f"{label[:52]:<52} {old * 1000:8.1f}ms {new * 1000:8.1f}ms {new / old:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
