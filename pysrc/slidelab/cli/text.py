"""The command line's text output: answers of solve, trace, check-heuristic, explore and compare as readable lines,
and progress on stderr."""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Mapping
from typing import Any

from slidelab import api
from slidelab.core.control import iteration_ahead

PRINTED_LINES = 20  # lines of what your heuristic printed that the text output shows


def n_moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


def method_text(answer: Mapping[str, Any]) -> str:
    """The algorithm, with its weight and heuristic, as the text output names it: `astar with auto (pdb)`."""
    method = answer["algorithm"] + (f" (W = {answer['weight']})" if "weight" in answer else "")
    if answer.get("heuristic"):
        method += f" with {answer['heuristic']}"
    if answer.get("heuristic_used"):
        method += f" ({answer['heuristic_used']})"
    return method


def shortness(answer: Mapping[str, Any]) -> str:
    """'optimal', or why not: 'not necessarily shortest' (greedy and weighted searches never promise it)."""
    if answer["optimal"]:
        return "optimal"
    algorithm = api.ALGORITHMS.get(answer["algorithm"])
    if algorithm is None or algorithm.optimal:
        return "not necessarily shortest"
    return f"not necessarily shortest: {algorithm.name} never promises it"


def print_solve(answer: Mapping[str, Any]) -> None:
    print(f"{n_moves(answer['length'])} ({shortness(answer)}), {method_text(answer)}")
    if not answer["optimal"] and "lower_bound" in answer:
        print(f"the shortest solution has at least {answer['lower_bound']} moves")
    print_shortest(answer)
    print_moves(answer)
    if "solution_count" in answer:
        print(f"{answer['solution_count']} shortest solutions")
        for s in answer["solutions"]:
            print("  " + " ".join(map(str, s)))
    print_stats(answer["stats"])
    if "parallel" in answer:
        print_parallel(answer["parallel"])
    for path in answer.get("tables_rewritten", []):
        print(f"note: {path} had changed since it was written: it was refused, and written again from its .slpdb "
              "file", file=sys.stderr)


def print_shortest(answer: Mapping[str, Any]) -> None:
    """What is known of a path found with your own heuristic against the shortest."""
    if "shortest_length" not in answer:
        return
    shortest = answer["shortest_length"]
    if shortest is None and not answer.get("compared", True):
        print("not known to be shortest: your heuristic is not known to be admissible, and --no-compare left the "
              "comparison with the shortest out")
    elif shortest is None:
        print("not known to be shortest: your heuristic is not known to be admissible, and the shortest length was "
              f"not found within {answer.get('compare_s', api.VERIFY_SECONDS):g} s (as long as the search took) to "
              "compare")
    elif answer.get("longer_by"):
        print(f"{n_moves(answer['longer_by'])} longer than the shortest ({shortest}): your heuristic overestimates "
              "somewhere (slidelab check-heuristic shows where)")
    else:
        print(f"as short as the shortest ({shortest}, found with the built-in heuristics)")


def print_moves(answer: Mapping[str, Any]) -> None:
    print("moves: " + (" ".join(map(str, answer.get("notation", answer["moves"]))) or "(already solved)"))


def print_stats(s: dict) -> None:
    stored = f", stored {s['stored']:,}" if "stored" in s else ""  # a truncated trace has no stored count
    open_peak = f", open list peak {s['open_peak']:,}" if "open_peak" in s else ""
    reopened = f", reopened {s['reopened']:,}" if s.get("reopened") else ""
    print(f"expanded {s['expanded']:,}, generated {s['generated']:,}{stored}{open_peak}{reopened}, "
          f"{s['elapsed_s']:.3f} s")


def print_parallel(p: dict) -> None:
    """Load balance of a parallel search: "2 workers, 64 subtrees, expanded per worker 51,234 / 49,870 (...)"."""
    nodes = [w["expanded"] for w in p["workers"]]
    memory = f", {p['worker_memory_bytes'] / 2**20:.0f} MB in the workers" if "worker_memory_bytes" in p else ""
    replaced = f", {p['workers_replaced']} replaced" if p["workers_replaced"] else ""
    on = " Dask" if p.get("engine") == "dask" else ""
    print(f"{len(nodes)}{on} workers, {p['subtrees']} subtrees, expanded per worker "
          f"{' / '.join(f'{n:,}' for n in nodes)}{memory}{replaced}")
    checkpoint = p.get("checkpoint")
    if checkpoint:
        earlier = f", resumed after {checkpoint['earlier_s']:,.1f} s of earlier runs" if checkpoint["resumed"] else ""
        print(f"checkpoint {checkpoint['file']}{earlier}"
              + (f" ({checkpoint['failed']})" if checkpoint.get("failed") else ""))


def print_trace(answer: Mapping[str, Any]) -> None:
    nodes = answer["nodes"]

    def node(node_id, f=None):  # "#12  g=3 h=5 f=8  1 2 3/4 0 6/7 5 8"
        n = nodes[node_id]
        side = f" {n['side']}" if "side" in n else ""
        f = "" if f is None else f" f={f:g}"
        return f"#{node_id}{side}  g={n['g']} h={n['h']}{f}  {n['board']}"

    print(f"trace of {method_text(answer)}: {answer['board']} to {answer['goal']}")
    for step in answer["steps"]:
        kind = step["type"]
        if kind == "expand":
            print(f"expand {node(step['node'], step.get('f'))}")
        elif kind == "generate":
            name = nodes[step["node"]]["name"]
            print(f"  {step['status']:<7} move {name:<6} {node(step['node'], step['f'])}")
        elif kind == "iteration":
            print(f"iteration: bound {step['bound']}")
        elif kind == "side":
            print(f"{step['side']} side, depth {step['depth']}")
        elif kind == "goal":
            print(f"goal {node(step['node'])}")
        elif kind == "meet":
            print(f"meet {node(step['forward'])} = {node(step['backward'])}")
        else:
            print(f"solution, {n_moves(answer['length'])} ({shortness(answer)}): "
                  + " ".join(f"#{i}" for i in step["path"]))
            print_shortest(answer)
            print_moves(answer)
    if answer["truncated"]:
        print(answer["note"])
    print_stats(answer["stats"])


def print_check(answer: Mapping[str, Any]) -> None:
    n = answer["positions"]
    source = f" ({answer['file']})" if answer.get("file") else ""
    print(f"{answer['heuristic']}{source}, goal {answer['goal']}, {answer['engine']} engine")
    if answer["complete"]:
        print(f"every position that can reach the goal checked, {n:,} positions")
    else:
        sample = answer["sample"]
        print(f"a sample of {n:,} positions of known distance checked (Korf's 100: "
              f"{sample['korf100']}, random positions solved: {sample['random_solved']}), too many positions to "
              "check them all: a counterexample disproves, none proves nothing")
        if "complete_with" in sample:
            print(f"({sample['complete_with']})")
    verdict = {True: "yes", False: "no", None: "no counterexample found (not proved)"}
    worst = answer.get("worst")
    line = f"admissible: {verdict[answer['admissible']]}"
    if worst:
        line += (f"; it overestimates on {answer['overestimated']:,} positions, the most at {worst['board']}: h "
                 f"{worst['h']}, true distance {worst['distance']}")
    print(line)
    if worst and "path" in worst:
        moves = " ".join(map(str, worst.get("notation", worst["path"])))
        print(f"  a shortest path from {worst['board']} ({n_moves(len(worst['path']))}): {moves}")
    if answer.get("examples"):
        print(f"the {len(answer['examples'])} largest overestimates:")
        for example in answer["examples"]:
            print(f"  {example['board']}: h {example['h']}, true distance {example['distance']}")
    move = answer.get("move")
    line = f"consistent: {verdict[answer['consistent']]}"
    if move:
        line += (f"; h drops by {move['h_from'] - move['h_to']} in one move, from {move['from']} (h {move['h_from']})"
                 f" to {move['to']} (h {move['h_to']})")
    print(line)
    print(f"informed: mean h {answer['mean_h']:.2f} against a mean true distance {answer['mean_distance']:.2f}; h "
          f"exact on {100 * answer['exact_share']:.1f}% of the positions")
    print_stats(answer["stats"])


def print_explore(answer: Mapping[str, Any]) -> None:
    from_start = answer.get("root") == "start"  # token puzzles
    print(f"start: {answer['board']}" if from_start else f"goal: {answer['goal']}")
    shown = len(answer["farthest"])
    cut = f", the first {shown} shown" if answer["farthest_count"] > shown else ""
    count = answer["farthest_count"]
    reach = "can be reached from the start" if from_start else "can reach the goal"
    print(f"{answer['states']:,} positions {reach}; the farthest are {answer['max_depth']} moves away: "
          f"{count:,} position{'s' if count != 1 else ''}{cut}")
    for board in answer["farthest"]:
        print("  " + board)
    print("positions at each distance:")
    cells = [f"{d:>3}: {n:<8,}" for d, n in enumerate(answer["depths"])]
    for i in range(0, len(cells), 6):
        print("  " + " ".join(cells[i:i + 6]).rstrip())
    depth = answer.get("board_depth", False)  # absent when a token puzzle was explored without a goal
    if depth is not False and from_start:
        print(f"goal {answer['goal']}: " + ("cannot be reached" if depth is None else f"{depth} moves from the start"))
    elif depth is not False:
        where = "cannot reach the goal" if depth is None else f"{depth} move{'s' if depth != 1 else ''} from the goal"
        print(f"{answer['board']}: {where}")
    if answer.get("memory_bytes"):
        print(f"{answer['engine']} engine, {answer['memory_bytes'] / 1e6:,.0f} MB of records and tables")
    print_stats(answer["stats"])


class ProgressBar:
    """A one-line progress bar on stderr for pattern-database builds (a plain notice when it is not a terminal)."""

    def __init__(self):
        self.table = None

    def __call__(self, event):
        live = sys.stderr.isatty()
        if event["table"] != self.table:
            if self.table is not None and live:
                print(file=sys.stderr)
            self.table = event["table"]
            print(f"slidelab: building pattern database {self.table} (once; cached)", file=sys.stderr,
                  end="" if live else "\n", flush=True)
        if live:
            done = event["done"] / max(event["total"], 1)
            bar = "#" * int(30 * done)
            print(f"\r  {self.table} [{bar:<30}] {100 * done:5.1f}%", end="", file=sys.stderr, flush=True)

    def close(self):
        if self.table is not None and sys.stderr.isatty():
            print(file=sys.stderr)


class ExploreProgress:
    """A one-line progress report on stderr while an exploration or a check runs (depth or stage, positions, rate,
    time left), shown on a terminal only and only once it has run a second."""

    def __init__(self):
        self.shown = False

    def __call__(self, event):
        if event.get("type") != "progress" or event["elapsed_s"] < 1 or not sys.stderr.isatty():
            return
        positions, total = event.get("positions", event["expanded"]), event.get("total")
        stage = {"h": "h evaluated on", "moves": "moves checked from"}.get(event.get("phase"))
        text = f"{stage} {positions:,}" if stage else f"depth {event['depth']}, {positions:,}"
        if total:
            rate = positions / max(event["elapsed_s"], 1e-9)
            text += f" of {total:,} positions ({100 * positions / total:.1f}%), {rate / 1e6:.1f} M/s"
            text += f", about {max(total - positions, 0) / max(rate, 1):.0f} s left"
        else:
            text += f" positions, {event['nodes_per_s']:,}/s"
        print(f"\r  {text:<100}", end="", file=sys.stderr, flush=True)
        self.shown = True

    def close(self):
        if self.shown:
            print(file=sys.stderr)


class SearchProgress:
    """While a solve runs: on a terminal, a line on stderr (rewritten) once it has run a second; otherwise a line a
    minute once it has run one. It says the bound, the nodes, the rate since the last report and, from the growth of
    the iterations before, how far the iteration has got and about how long it has left."""

    QUIET_S = 60  # a line this often when stderr is not a terminal (a log file)
    RATE_S = 10  # the rate is the nodes of the last this many seconds (workers report in bursts)

    def __init__(self):
        self.shown = False
        self.reports: deque = deque()  # (elapsed_s, expanded) of the reports of the last RATE_S
        self.said = 0.0

    def __call__(self, event):
        if event.get("type") != "progress" or "bound" not in event:
            return
        elapsed, expanded = event["elapsed_s"], event["expanded"]
        self.reports.append((elapsed, expanded))
        while len(self.reports) > 2 and elapsed - self.reports[1][0] >= self.RATE_S:
            self.reports.popleft()
        live = sys.stderr.isatty()
        first = self.reports[0]
        if (first[0] == elapsed or elapsed < (1 if live else self.QUIET_S)
                or not live and elapsed - self.said < self.QUIET_S):
            return
        rate = (expanded - first[1]) / (elapsed - first[0])
        text = f"bound {event['bound']}, {expanded:,} nodes, {_rate(rate)}"
        estimate = self._estimate(event.get("iterations", []), expanded, rate)
        if estimate:
            text += f", {estimate}"
        self.said = elapsed
        if live:
            print(f"\r  {text:<100}", end="", file=sys.stderr, flush=True)
            self.shown = True
        else:
            print(f"slidelab: {text}", file=sys.stderr, flush=True)

    @staticmethod
    def _estimate(iterations: list, expanded: int, rate: float) -> str:
        """The iteration's share done and time left (control.iteration_ahead), at the rate of the last reports."""
        ahead = iteration_ahead(iterations, expanded, rate)
        if ahead is None:
            return ""
        return (f"iteration about {100 * ahead['share']:.0f}% (growth {ahead['growth']:.1f}), "
                f"~{_duration(ahead['left_s'])} left")

    def close(self):
        if self.shown:
            print(file=sys.stderr)


def _rate(per_s: float) -> str:
    return f"{per_s / 1e6:.2f} M nodes/s" if per_s >= 1e6 else f"{per_s:,.0f} nodes/s"


def _duration(seconds: float) -> str:
    if seconds >= 5400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 60:.0f} min" if seconds >= 90 else f"{seconds:.0f} s"


class CompareProgress:
    """On a terminal, a line on stderr as each run of a comparison ends."""

    def __call__(self, row: dict) -> None:
        if sys.stderr.isatty():
            print(f"  {compare_method(row)}: {row['status']}", file=sys.stderr, flush=True)


def compare_method(row: dict) -> str:
    method = row["algorithm"] + (f" with {row['heuristic']}" if row.get("heuristic") else "")
    return method + (f" ({row['heuristic_used']})" if row.get("heuristic_used") else "")


def print_compare(answer: Mapping[str, Any]) -> None:
    rows = answer["rows"]
    width = max(len(compare_method(row)) for row in rows)
    print(f"{'method':<{width}}  {'length':>8}  {'expanded':>12}  {'stored':>12}  {'time':>9}")
    for row in rows:
        method = f"{compare_method(row):<{width}}"
        if row["status"] != "done":
            limit = "time or memory limit: " if row["status"] == "limit" else ""
            print(f"{method}  {limit}{row['error']['message']}")
            continue
        length = str(row["length"]) + ("" if row["optimal"] else "*")
        print(f"{method}  {length:>8}  {row['expanded']:>12,}  {row['stored']:>12,}  {row['elapsed_s']:>8.3f}s")
    if any(row["status"] == "done" and not row["optimal"] for row in rows):
        print("* not known to be shortest")
    print(f"each run within {answer['time_limit_s']:g} s")
    for row in rows:
        print_printed(row)


def print_printed(answer: Mapping[str, Any]) -> None:
    """What your heuristic printed, after the answer and apart from it."""
    if answer.get("printed"):
        from slidelab.run.sandbox import visible

        lines = answer["printed"].splitlines()
        print("your heuristic printed:")
        for line in lines[:PRINTED_LINES]:
            print(f"  | {visible(line, 1000)}")  # its control characters made visible: no line it writes is ours
        if len(lines) > PRINTED_LINES:
            print(f"  | ... ({len(lines) - PRINTED_LINES:,} more lines kept; --json has them)")


def report(args, answer: Mapping[str, Any], printer) -> int:
    """Print a command's answer (one JSON object with --json, else `printer`'s text, and what your code printed) and
    say its error on stderr; the command's exit status."""
    import json
    import os

    from slidelab.cli.args import EXIT_INVALID, exit_code, say_error

    try:
        if args.json:
            print(json.dumps(answer))
        else:
            if answer["ok"]:
                printer(answer)
            elif isinstance(recorded := answer.get("trace"), Mapping):  # what a trace kept before your code failed
                printer(recorded)
            print_printed(answer)
    except (KeyError, TypeError, AttributeError):  # made up by a process that ran your code (never by slidelab's)
        print("slidelab: user_code: the process running your heuristic answered something that is not an answer",
              file=sys.stderr)
        return EXIT_INVALID
    except BrokenPipeError:  # the reader stopped early (`slidelab trace ... | head`): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so that the exit's flush is quiet
    return say_error(answer) if not answer["ok"] else exit_code(answer)
