"""Batch solving (`slidelab batch`): many positions, one JSON line each as it finishes, in parallel over positions.

A batch file holds one board per line; `#` starts a comment, blank lines are skipped, and a line may start with a
name and a colon (`k60: 11 14 13 1/...`); unnamed lines are named by their line number. Every position is solved by
`api.solve` with the same options (goal, puzzle, algorithm, heuristic, limits), each on one core: the positions are
spread over forked worker processes (which share the parent's pattern databases copy-on-write), or over a Dask
cluster (`engine="dask"`, the `scale` extra). A position that fails (invalid, unsolvable, a limit) gets an error line
and the rest go on. Results already in a resume file are not solved again.
"""

from __future__ import annotations

import json
import os
import statistics
import time

from . import api

ENGINES = ("processes", "dask")
MAX_LINE = 2000  # characters in one batch line (a 16x16 board fits)


class Position:
    """One line of a batch file: its name, the board text (None when the line is malformed) and why not."""

    def __init__(self, name, board, problem=None):
        self.name, self.board, self.problem = name, board, problem


def read_positions(text: str) -> list:
    """The positions of a batch file's text, in order (names must be unique: a repeated one is an error line)."""
    positions, names = [], set()
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, board = str(number), line
        if ":" in line:
            name, board = (part.strip() for part in line.split(":", 1))
        problem = None
        if len(line) > MAX_LINE:
            board, problem = None, f"line {number} is longer than {MAX_LINE:,} characters"
        elif not name or not board:
            board, problem = None, f"line {number}: expected 'name: board' or a board"
        elif name in names:
            board, problem = None, f"line {number}: the name '{name}' is used twice"
        names.add(name)
        positions.append(Position(name, board, problem))
    return positions


def done_names(lines) -> set:
    """The names already answered in a resume file's JSON lines (a line cut short by an interrupted run is not)."""
    names = set()
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and "name" in record and "summary" not in record:
            names.add(str(record["name"]))
    return names


def _solve_one(request):
    return api.solve(request)


def _record(position, answer) -> dict:
    record = {"name": position.name, "board": position.board}
    if answer["ok"]:
        record.update(ok=True, length=answer["length"], optimal=answer["optimal"], moves=answer["moves"],
                      stats=answer["stats"])
    else:
        record.update(ok=False, error=answer["error"])
    return record


def run(positions, options: dict, workers: int = 1, engine: str = "processes", scheduler: str | None = None):
    """Solve every position with the solve options (goal, puzzle, algorithm, ...); yields one record per position
    as it finishes: {"name", "board", "ok", "length", "optimal", "moves", "stats"} or {..., "ok": false, "error"}."""
    todo = []
    for position in positions:
        if position.board is None:
            yield {"name": position.name, "board": None, "ok": False,
                   "error": {"code": "invalid", "message": position.problem}}
        else:
            todo.append(position)
    requests = [dict(options, board=p.board) for p in todo]
    if engine == "dask":
        yield from _on_dask(todo, requests, workers, scheduler)
    elif workers <= 1 or len(todo) <= 1:
        for position, request in zip(todo, requests):
            yield _record(position, api.solve(request))
    else:
        yield from _on_processes(todo, requests, workers)


def _on_processes(todo, requests, workers):
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    api.solve(requests[0])  # the tables it needs are loaded here once, and forked workers share them
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        pending = {pool.submit(_solve_one, request): position for position, request in zip(todo, requests)}
        try:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    position = pending.pop(future)
                    try:
                        answer = future.result()
                    except Exception as e:  # a worker that died (killed, out of memory): say so, go on
                        answer = api.error("internal", f"the worker solving it stopped ({type(e).__name__})")
                    yield _record(position, answer)
        finally:
            for future in pending:
                future.cancel()
            for process in list(getattr(pool, "_processes", {}).values()):  # stop the ones still solving
                process.kill()


def _on_dask(todo, requests, workers, scheduler):
    """Solve on a Dask cluster: the one at `scheduler`, else a local one of `workers` processes (as explore's dask
    engine does); each Dask worker loads its own tables."""
    import distributed

    from .search.dask_explore import connect, local_cluster

    cluster = local_cluster(max(workers, 1)) if scheduler is None else None
    client = connect(distributed, scheduler or cluster)
    try:
        futures = {client.submit(_solve_one, request, pure=False): position
                   for position, request in zip(todo, requests)}
        for future in distributed.as_completed(futures, loop=client.loop):
            position = futures[future]
            try:
                answer = future.result()
            except Exception as e:  # a worker lost with its task, after Dask's own retries
                answer = api.error("internal", f"the Dask worker solving it failed ({type(e).__name__})")
            yield _record(position, answer)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def summary(records, skipped: int, elapsed: float) -> dict:
    """Totals over the records of one run: counts, lengths, nodes, the median and worst solve times."""
    solved = [r for r in records if r["ok"]]
    times = [r["stats"]["elapsed_s"] for r in solved]
    worst = max(solved, key=lambda r: r["stats"]["elapsed_s"], default=None)
    return {"summary": {
        "positions": len(records) + skipped, "solved": len(solved), "failed": len(records) - len(solved),
        "skipped": skipped, "optimal": sum(1 for r in solved if r["optimal"]),
        "total_length": sum(r["length"] for r in solved),
        "expanded": sum(r["stats"]["expanded"] for r in solved),
        "wall_s": round(elapsed, 3), "solve_s": round(sum(times), 3),
        "median_s": round(statistics.median(times), 6) if times else None,
        "worst": {"name": worst["name"], "length": worst["length"], "elapsed_s": worst["stats"]["elapsed_s"]}
        if worst else None,
    }}


def cpu_workers(workers: int) -> int:
    """A worker count as given on the command line: 0 means one per core."""
    return workers or os.cpu_count() or 1


class Clock:
    """Wall time of a batch run, and an estimate of the time left from the rate so far."""

    def __init__(self):
        self.started = time.perf_counter()

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def left(self, done: int, total: int):
        if not done:
            return None
        return (total - done) * self.elapsed() / done
