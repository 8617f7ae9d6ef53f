"""`slidelab compare`: several algorithm and heuristic pairs on one position, each within a time limit."""

from __future__ import annotations

from slidelab import api
from slidelab.cli.args import request_of, run_code
from slidelab.cli.text import CompareProgress, print_compare, report
from slidelab.core.answers import Failed
from slidelab.run import compare as pairs


def run(args) -> int:
    return report(args, compare(request_of(args)), print_compare)


def compare(request: dict) -> dict | Failed:
    """`slidelab compare`: the position checked, then each pair solved in turn (your heuristic supervised)."""
    runs: list = pairs.parse_runs(request.pop("run", []))
    if request.pop("heuristic", None) is not None:
        return api.error("invalid", "compare names each run's heuristic: --run ALGORITHM:HEURISTIC")
    if request.pop("algorithm", api.DEFAULT_ALGORITHM) != api.DEFAULT_ALGORITHM:
        return api.error("invalid", "compare names each run's algorithm: --run ALGORITHM:HEURISTIC")
    seconds = request.pop("max_seconds", pairs.DEFAULT_SECONDS)
    if not seconds > 0:
        return api.error("invalid", "--max-seconds must be a positive number")
    checked = api.check(request)
    if not checked["ok"]:
        return checked
    if not checked["solvable"]:
        return {"ok": False, "error": checked["why"]}
    kind = checked["puzzle"]
    if not runs:
        runs = (pairs.ASSIGNMENT if "heuristic_code" in request else pairs.RUNS)[kind]
    elif "heuristic_code" in request and not any(heuristic == "yours" for _, heuristic in runs):
        return api.error("invalid", "--heuristic-file is your heuristic: name it in a run (--run astar:yours)")
    request["board"] = checked["board"]
    return pairs.compare(request, runs, seconds, lambda asked: run_code(api.solve, asked),
                         on_row=CompareProgress())
