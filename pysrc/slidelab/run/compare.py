"""Compare: several algorithm and heuristic pairs run one after another on the same position, each under a time limit,
the page's Compare table (web/js/compare.js, which takes its lists from api.describe()) and `slidelab compare`.

A run that reaches its time limit (or the memory cap of the searches that store positions) is a row too: it says so,
and the others go on. Your own heuristic's runs are solved by whatever `solve` the caller gives (the command line's
runs it in a supervised process: supervised.py).
"""

from __future__ import annotations

from collections.abc import Callable

from slidelab.search import ALGORITHMS

# Per puzzle kind; IDDFS is left out for token puzzles, where it needs minutes for the knight exchange's 16 moves.
RUNS = {
    "sliding": [("bfs", "auto"), ("bidirectional", "auto"), ("iddfs", "auto"), ("astar", "manhattan"),
                ("idastar", "manhattan"), ("idastar", "linear_conflict"), ("idastar", "auto")],
    "tokens": [("bfs", "auto"), ("bidirectional", "auto"), ("astar", "nearest"), ("astar", "matching"),
               ("idastar", "nearest"), ("idastar", "auto")],
}
# The assignment's table: A* closing nodes with no estimate, the simple heuristics and yours.
ASSIGNMENT = {
    "sliding": [("astar", "zero"), ("astar", "misplaced"), ("astar", "manhattan"), ("astar", "yours")],
    "tokens": [("astar", "zero"), ("astar", "nearest"), ("astar", "matching"), ("astar", "yours")],
}
TIME_LIMITS_S = (2, 5, 10, 30)  # the choices the page offers for each run
DEFAULT_SECONDS = 10
LIMIT_CODES = frozenset({"limit", "too_large"})  # answers that mean a run reached a limit, not that it failed


def catalogue() -> dict:
    """What api.describe() tells the page of Compare: the default pairs and the assignment's, per puzzle kind, and the
    time limits."""
    return {"runs": {kind: [list(pair) for pair in pairs] for kind, pairs in RUNS.items()},
            "assignment": {kind: [list(pair) for pair in pairs] for kind, pairs in ASSIGNMENT.items()},
            "time_limits_s": list(TIME_LIMITS_S), "default_time_limit_s": DEFAULT_SECONDS}


def parse_runs(texts: list[str]) -> list[tuple[str, str | None]]:
    """Pairs given as 'algorithm' or 'algorithm:heuristic' (each checked by the solve that runs it)."""
    pairs: list[tuple[str, str | None]] = []
    for text in texts:
        algorithm, _, heuristic = text.partition(":")
        pairs.append((algorithm.strip(), heuristic.strip() or None))
    return pairs


def compare(request: dict, runs, seconds: float, solve: Callable[[dict], dict], on_row=None) -> dict:
    """Solve the position of `request` (a solve request without algorithm and heuristic) with each (algorithm,
    heuristic) of `runs` in turn, each within `seconds`: {"ok": true, "board", "time_limit_s", "rows": [{"algorithm",
    "heuristic", "status": "done" | "limit" | "error", "length"?, "optimal"?, "expanded"?, "stored"?, "elapsed_s"?,
    "error"?}]}; `on_row(row)` is told each row as it is made. The position is the caller's to check first."""
    rows = []
    for algorithm, heuristic in runs:
        asked = dict(request, algorithm=algorithm, max_seconds=seconds)
        known = ALGORITHMS.get(algorithm)
        if known is not None and not known.uses_heuristic:  # as the page does: bfs takes no heuristic, not even auto
            heuristic = None
        if heuristic is not None:
            asked["heuristic"] = heuristic
        if heuristic != "yours":
            for key in ("heuristic_code", "heuristic_filename", "heuristic_function"):
                asked.pop(key, None)
        answer = solve(asked)
        row = _row(algorithm, heuristic, answer)
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return {"ok": True, "board": request.get("board"), "time_limit_s": seconds, "rows": rows}


def _row(algorithm: str, heuristic: str | None, answer: dict) -> dict:
    row: dict = {"algorithm": algorithm, "heuristic": heuristic}
    if answer["ok"]:
        stats = answer["stats"]
        row.update(status="done", heuristic=answer.get("heuristic"), length=answer["length"],
                   optimal=answer["optimal"], expanded=stats["expanded"], stored=stats["stored"],
                   elapsed_s=stats["elapsed_s"])
        if answer.get("heuristic_used"):
            row["heuristic_used"] = answer["heuristic_used"]
        for key in ("longer_by", "shortest_length", "printed"):
            if key in answer:
                row[key] = answer[key]
    else:
        row.update(status="limit" if answer["error"]["code"] in LIMIT_CODES else "error", error=answer["error"])
        if "printed" in answer:
            row["printed"] = answer["printed"]
    return row
