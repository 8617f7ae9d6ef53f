"""Batch solving (`slidelab batch`): many positions, one JSON line each as it finishes, in parallel over positions.

A batch file holds one board per line; blank lines are skipped, a line may start with a name and a colon
(`k60: 11 14 13 1/...`), and unnamed lines are named by their line number. `#` starts a comment at the start of a
line or after a space; elsewhere it is a token board's removed cell (`g: W#B/.../B#W`, and `g: #WB/...` too: the
first cell of a named board). Every position is solved by `api.solve` with the same options (goal, puzzle,
algorithm, heuristic, limits), each on one core: the positions are spread over forked worker processes (which share
the parent's pattern databases copy-on-write), or over a Dask cluster (`engine="dask"`, the `scale` extra). A
position that fails (invalid, unsolvable, a limit) gets an error line and the rest go on; so does one whose worker
dies MAX_TRIES times (a new worker takes over the others). Results already in a resume file are not solved again.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from collections import deque

from slidelab import api
from slidelab.batch import split
from slidelab.core.cluster import dask_client
from slidelab.core.errors import SlideLabError, internal
from slidelab.core.workers import MAX_TRIES, ForkedPool, GaveUp, cores, serve
from slidelab.run import supervised

MAX_LINE = 2000  # characters in one batch line (a 16x16 board fits)
_COMMENT = re.compile(r"\s#")  # a comment after a space (one at the start of a line is a comment line)


class Line:
    """One line of a batch file: its name, the board text (None when the line is malformed) and why not."""

    def __init__(self, name, board, problem=None):
        self.name, self.board, self.problem = name, board, problem


def read_positions(text: str) -> list:
    """The positions of a batch file's whole text, in order (stream_positions over its lines)."""
    return list(stream_positions(text.splitlines()))


def stream_positions(lines):
    """The positions of a batch file's lines, in order, one at a time (names must be unique: a repeated one is an
    error line). Memory: the names lines give, and one bit per line for the lines named by their number."""
    names: set = set()
    unnamed = bytearray()  # bit n: line n has no name of its own (its number is its name)
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\r\n")
        parsed = _name_and_board(line[:MAX_LINE + 1])
        if parsed is None:
            continue
        given, board = parsed
        name = str(number) if given is None else given
        if given is None:
            if len(unnamed) <= number >> 3:
                unnamed.extend(bytes(max(len(unnamed), 1024)))
            unnamed[number >> 3] |= 1 << (number & 7)
            repeated = name in names
        else:
            earlier = int(name) if name.isdigit() and name == str(int(name)) else 0
            repeated = name in names or (0 < earlier < number and bool(unnamed[earlier >> 3] >> (earlier & 7) & 1))
            names.add(name)
        problem = None
        if len(line) > MAX_LINE:
            board, problem = None, f"line {number} is longer than {MAX_LINE:,} characters"
        elif not name or not board:
            board, problem = None, f"line {number}: expected 'name: board' or a board"
        elif repeated:
            board, problem = None, f"line {number}: the name '{name}' is used twice"
        yield Line(name, board, problem)


def lines_of(file):
    """The lines of a text file, read as they are needed, each cut after MAX_LINE + 1 characters (the rest of a
    longer line is read past in pieces, never held), so a file of any size and any line length runs in little
    memory."""
    while True:
        line = file.readline(MAX_LINE + 2)
        if not line:
            return
        if len(line) > MAX_LINE + 1 and not line.endswith("\n"):
            while (rest := file.readline(1 << 16)) and not rest.endswith("\n"):
                pass
        yield line


def _name_and_board(line: str):
    """(name or None, board text) of a batch line, its comment cut off; None for a blank or comment line."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    comment = _COMMENT.search(text)
    colon = text.find(":")
    if colon < 0 or comment is not None and comment.start() < colon:
        return None, _uncommented(text)
    board = text[colon + 1:].strip()
    if re.match(r"#(\s|$)", board):  # `name: # ...`: a comment, no board
        board = ""
    return text[:colon].strip(), _uncommented(board)  # a `#` first in the board is a removed cell


def _uncommented(text: str) -> str:
    comment = _COMMENT.search(text)
    return (text if comment is None else text[:comment.start()]).strip()


FINAL_CODES = frozenset({"unsolvable", "invalid"})  # error answers a rerun would give again (a limit, too_large,
# tables not built or an internal error may not: those positions are solved again on a resume)
PROBLEM_KEYS = ("goal", "puzzle", "rule", "algorithm", "heuristic", "weight", "heuristic_function")
CODE_KEYS = ("heuristic_code", "heuristic_filename", "compare")  # your own heuristic's, passed to every solve
LIMIT_KEYS = ("max_nodes", "max_seconds")


def method_of(options: dict) -> dict:
    """What produced a run's answers, as its records say: the problem and method (the options in PROBLEM_KEYS, and
    the SHA-256 of your own heuristic's code) and the limits. Two runs solve the same problems when their methods
    agree but for the limits (a larger limit only turns some "limit" answers into solutions)."""
    method = {k: options[k] for k in PROBLEM_KEYS + LIMIT_KEYS if options.get(k) is not None}
    if options.get("heuristic_code") is not None:
        method["heuristic_sha256"] = hashlib.sha256(options["heuristic_code"].encode()).hexdigest()
    return method


def same_problems(a: dict, b: dict) -> bool:
    return {k: v for k, v in a.items() if k not in LIMIT_KEYS} == {k: v for k, v in b.items() if k not in LIMIT_KEYS}


class Resume:
    """What a resume file's JSON lines say: `done`, the (name, board) pairs answered for good (solved, unsolvable,
    invalid: a rerun would answer the same); `retry`, those answered otherwise (a limit, tables not built, an internal
    error: solved again); `other`, the method of the first record made with other options than `method` (None: none
    was). Lines that are not records (cut short by an interrupted run, a malformed position's, not this program's)
    are passed over."""

    def __init__(self, lines, method: dict):
        self.done: set = set()
        self.retry: set = set()
        self.other: dict | None = None
        for line in lines:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if not isinstance(record, dict) or "summary" in record:
                continue
            name, board, error = record.get("name"), record.get("board"), record.get("error")
            if not isinstance(name, str) or not isinstance(board, str) or board == "":
                continue
            made_by = record.get("method")
            if isinstance(made_by, dict) and not same_problems(made_by, method):
                self.other = self.other or made_by
                continue
            code = error.get("code") if isinstance(error, dict) else None
            if record.get("ok") is True or code in FINAL_CODES:
                self.done.add((name, board))
            else:
                self.retry.add((name, board))
        self.retry -= self.done


def _solve_one(request, on_progress=None, should_cancel=None):
    """One position's answer: where every way of running a batch solves (this process, a forked worker, Dask), with
    api.solve's progress and cancel hooks (split.py's workers watch its iterations). Your own heuristic runs in
    a supervised process of its own for each position (supervised.py): one that hangs or ends its process costs
    that position alone."""
    if request.get("heuristic_code") is not None and supervised.available():
        return supervised.run(api.solve, request, on_progress, should_cancel)
    return api.solve(request, on_progress, should_cancel)


def _record(position, answer) -> dict:
    try:
        return _made_record(position, answer)
    except (KeyError, TypeError, AttributeError):  # an answer from a process that ran someone's code, made up
        return _made_record(position, api.error("user_code", "the process running your heuristic answered "
                                                             "something that is not an answer"))


def _made_record(position, answer) -> dict:
    record = {"name": position.name, "board": position.board}
    if answer["ok"]:
        record.update(ok=True, length=answer["length"], optimal=answer["optimal"], moves=answer["moves"],
                      stats=answer["stats"])
        if "parallel" in answer:  # split over the workers: each one's nodes
            record["workers"] = [w["expanded"] for w in answer["parallel"]["workers"]]
        for key in ("shortest_length", "longer_by"):  # with your own heuristic: what is known of the shortest
            if key in answer:
                record[key] = answer[key]
    else:
        record.update(ok=False, error=answer["error"])
    if "printed" in answer:  # what your heuristic printed, kept apart from the answer
        record["printed"] = answer["printed"]
    return record


def run(positions, options: dict, workers: int = 1, engine: str = "processes", scheduler: str | None = None,
        used: dict | None = None):
    """Solve every position with the solve options (goal, puzzle, algorithm, ...); yields one record per position
    as it finishes: {"name", "board", "ok", "length", "optimal", "moves", "stats", "method"} or {..., "ok": false,
    "error", "method"}, where "method" says what produced it (method_of). `used`, a dict if given, is told how they
    are solved: {"engine": "processes" or "dask", "workers": n} (n positions at once; 1: one after another in this
    process)."""
    method = method_of(options)
    for record in _run(positions, options, workers, engine, scheduler, used):
        record["method"] = method
        yield record


def _run(positions, options, workers, engine, scheduler, used):
    used = {} if used is None else used
    todo = _Valid(positions)  # the malformed lines' records are yielded as they are passed
    if engine == "dask":
        yield from _on_dask(todo, options, workers, scheduler, used)
        return
    if split.splits_tail(options, workers) and todo:  # IDA*: hard positions are split over the workers
        todo.peek(workers)  # the tables of the first that is valid among the first few
        load_tables(dict(options, board=position.board) for position in todo.ahead())
        used.update(engine="processes", workers=workers)
        yield from split.on_processes(todo, options, workers, _record, _solve_one)
        return
    ahead = next((n for n in range(1, workers + 1) if todo.peek(n) is None), workers + 1) - 1  # at most `workers`
    if ahead > 1:
        used.update(engine="processes", workers=ahead)
        yield from _on_processes(todo, options, ahead)
        return
    used.update(engine="processes", workers=1)
    while todo:
        yield from todo.passed()
        position = todo.popleft()
        yield _record(position, _solve_one(dict(options, board=position.board)))
    yield from todo.passed()


class _Valid:
    """The positions with a board, taken one at a time from a stream of positions (a queue for ForkedPool.feed:
    popleft, appendleft, truth); the records of the malformed ones met on the way wait in `passed()`."""

    def __init__(self, positions):
        self._positions = iter(positions)
        self._ahead: deque = deque()
        self._passed: list = []

    def peek(self, n: int = 1):
        """The n-th position ahead (1: the next), or None when there are fewer."""
        while len(self._ahead) < n:
            position = next(self._positions, None)
            if position is None:
                return None
            if position.board is None:
                self._passed.append({"name": position.name, "board": None, "ok": False,
                                     "error": {"code": "invalid", "message": position.problem}})
            else:
                self._ahead.append(position)
        return self._ahead[n - 1]

    def __bool__(self) -> bool:
        return self.peek() is not None

    def popleft(self):
        self.peek()
        return self._ahead.popleft()

    def appendleft(self, position) -> None:
        self._ahead.appendleft(position)

    def ahead(self) -> list:
        """The positions peeked at and not taken yet."""
        return list(self._ahead)

    def passed(self):
        """Yield (and forget) the records of the malformed lines passed so far."""
        while self._passed:
            yield self._passed.pop(0)


def load_tables(requests) -> None:
    """Build in this process the heuristic that the first valid request's search uses, loading its tables (pattern
    databases, walking distance's), so that forked workers share them; nothing is solved here."""
    from slidelab.api.solving import estimator_of
    from slidelab.contract.request import parse_solve
    from slidelab.heuristics import user

    for request in requests:
        try:
            parsed = parse_solve(request)
        except SlideLabError:
            continue
        if parsed.method.used not in ("zero", user.NAME):
            try:
                estimator_of(parsed)
            except SlideLabError:
                pass  # a table not built: each position's answer says so
        return


def _serve(conn) -> None:
    """A worker (workers.py): solve the requests the driver sends and answer each, until the pipe closes."""

    def answer(request):
        try:
            return _solve_one(request)
        except Exception as e:  # the api answers every error; this is only a last guard
            return {"ok": False, "error": internal(e)}

    serve(conn, answer)


def _on_processes(todo, options, workers):
    """Solve on `workers` forked processes (workers.py), each given the next position when it is free. A worker that
    dies (killed, out of memory) is replaced and its position given again, MAX_TRIES times in all; then it gets an
    error line."""
    load_tables(dict(options, board=position.board) for position in todo.ahead())
    pool = ForkedPool(workers, _serve)
    try:
        for event in pool.feed(todo, lambda position: dict(options, board=position.board)):
            yield from todo.passed()
            if isinstance(event, GaveUp):
                yield _record(event.task, api.error("internal", f"the worker solving it died, each of "
                                                    f"{MAX_TRIES} times (last: {event.how})"))
                continue
            worker, answer = event
            position = worker.task
            pool.finish(worker)
            yield _record(position, answer)
        yield from todo.passed()
    finally:
        pool.close()


IN_FLIGHT_PER_WORKER = 4  # positions handed to a Dask cluster ahead of its answers, per worker


def _on_dask(todo, options, workers, scheduler, used):
    """Solve on a Dask cluster (cluster.py): the one at `scheduler`, else a local one of `workers` processes (as
    explore's dask engine does); each Dask worker loads its own tables. A few positions per worker are handed out
    ahead, the next one as each answer comes, so a file of any length is held a few lines at a time."""
    with dask_client(scheduler, max(workers, 1), "solving on Dask") as client:
        import distributed

        size = max(workers, 1) if scheduler is None else len(client.scheduler_info()["workers"])
        used.update(engine="dask", workers=size)
        positions: dict = {}

        def submit():
            position = todo.popleft()
            future = client.submit(_solve_one, dict(options, board=position.board), pure=False)
            positions[future] = position
            return future

        running = distributed.as_completed([submit() for _ in range(IN_FLIGHT_PER_WORKER * max(size, 1))
                                            if todo], loop=client.loop)
        yield from todo.passed()
        for future in running:
            position = positions.pop(future)
            try:
                answer = future.result()
            except Exception as e:  # a worker lost with its task, after Dask's own retries
                answer = api.error("internal", f"the Dask worker solving it failed ({type(e).__name__})")
            if todo:
                running.add(submit())
            yield from todo.passed()
            yield _record(position, answer)
        yield from todo.passed()


class Totals:
    """The summary of a run, kept as its records come, in constant memory: counts and sums, the worst solve, and the
    solve times in a histogram of buckets 0.1 % wide, which gives the median to that precision."""

    BUCKET = math.log(1.001)

    def __init__(self):
        self.records = self.solved = self.optimal = self.total_length = self.expanded = 0
        self.solve_s = 0.0
        self.worst: dict | None = None
        self._times: dict = {}  # bucket -> solve times in it (None: 0 s)

    def add(self, record: dict) -> None:
        self.records += 1
        if not record["ok"]:
            return
        elapsed = record["stats"]["elapsed_s"]
        self.solved += 1
        self.optimal += bool(record["optimal"])
        self.total_length += record["length"]
        self.expanded += record["stats"]["expanded"]
        self.solve_s += elapsed
        if self.worst is None or elapsed > self.worst["elapsed_s"]:
            self.worst = {"name": record["name"], "length": record["length"], "elapsed_s": elapsed}
        bucket = round(math.log(elapsed) / self.BUCKET) if elapsed > 0 else None
        self._times[bucket] = self._times.get(bucket, 0) + 1

    @property
    def failed(self) -> int:
        return self.records - self.solved

    def median_s(self) -> float | None:
        if not self.solved:
            return None
        buckets = sorted(self._times, key=lambda b: -math.inf if b is None else b)
        middle, seen = (self.solved - 1) / 2, 0
        values = []
        for bucket in buckets:  # the one or two middle times, each its bucket's middle
            count = self._times[bucket]
            for wanted in {math.floor(middle), math.ceil(middle)}:
                if seen <= wanted < seen + count:
                    values.append(0.0 if bucket is None else math.exp(bucket * self.BUCKET))
            seen += count
        return sum(values) / len(values)

    def summary(self, skipped: int, elapsed: float, used: dict | None = None, retried: int = 0) -> dict:
        """Totals over the records of one run: counts, lengths, nodes, the median and worst solve times, how they
        were solved (`used`, as run tells it: "engine" and "workers"), and how many positions a resume solved again
        because their earlier answer was not final (`retried`)."""
        median = self.median_s()
        return {"summary": {
            "positions": self.records + skipped, "solved": self.solved, "failed": self.failed, "skipped": skipped,
            "retried": retried, "optimal": self.optimal, "total_length": self.total_length,
            "expanded": self.expanded, "wall_s": round(elapsed, 3), "solve_s": round(self.solve_s, 3),
            "median_s": None if median is None else round(median, 6), "worst": self.worst,
            **(used or {}),
        }}


def cpu_workers(workers: int) -> int:
    """A worker count as given on the command line: 0 means one per core (that this process may use)."""
    return workers or cores()


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
