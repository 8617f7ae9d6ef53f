"""`slidelab batch`: every position of a file solved, one line each as it finishes, resumable, then a summary."""

from __future__ import annotations

import itertools
import json
import os
import sys

from slidelab import api
from slidelab.cli.args import (
    EXIT_INVALID,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_WRITE_FAILED,
    Refused,
    request_of,
    say_error,
    say_unsandboxed,
)
from slidelab.cli.pdb import prepare_databases
from slidelab.cli.text import n_moves
from slidelab.core.errors import SlideLabError


class Files:
    """The files a batch reads and writes: its positions (`source`), the resume file, and the name errors give."""

    def __init__(self, args):
        self.reading = "standard input" if args.file == "-" else args.file
        self.resume = self.source = None

    def close(self) -> None:
        close_files(self.resume, self.source)


def run(args) -> int:
    """`slidelab batch`: solve every position of a file; one line per position as it finishes, then a summary."""
    files = Files(args)
    counts = {"skipped": 0, "retried": 0}
    try:
        options = _options(args)
        if options.get("heuristic_code") is not None:
            say_unsandboxed()
        state, total = _open(args, options, files)
        positions = _to_solve(files, state, counts)
        first = next(positions, None)
        if first is not None and first.board is not None:
            failed = prepare_databases(dict(options, board=first.board))
            if failed is not None:
                files.close()
                return say_error(failed)
    except UnicodeDecodeError:
        files.close()
        raise Refused(f"cannot read {files.reading}: it is not UTF-8 text") from None
    except Refused:
        files.close()
        raise
    return _solve_all(args, options, itertools.chain([first] if first else [], positions), total, files, counts)


def _options(args) -> dict:
    """The solve options of every position, checked as every solve will check them (requests.method_of)."""
    from slidelab import batch
    from slidelab.contract.request import method_of

    if not 0 <= args.workers <= api.MAX_WORKERS:
        raise Refused(f"--workers must be from 0 (one per core) to {api.MAX_WORKERS}")
    if args.scheduler and args.engine != "dask":
        raise Refused("--scheduler is for --engine dask")
    try:
        method = request_of(args)
        method_of(method)
    except SlideLabError as e:
        raise Refused(str(e)) from None
    return {k: v for k, v in method.items() if k in batch.PROBLEM_KEYS + batch.LIMIT_KEYS + batch.CODE_KEYS}


def _open(args, options, files: Files):
    """Open the resume file (locked, read) and the positions (counted, when they are a file): (the resume's state or
    None, the positions to solve or None when they come from standard input)."""
    from slidelab import batch

    state = None
    try:
        if args.resume:
            files.reading = args.resume
            # errors="replace": a stray byte spoils one line, not the run
            resume = files.resume = open(args.resume, "a+", encoding="utf-8", errors="replace")
            if not lock_file(resume):
                raise Refused(f"{args.resume} is being written by another run of slidelab batch; wait for it to end")
            resume.seek(0)
            state = batch.Resume(resume, batch.method_of(options))
            if resume.tell():
                resume.seek(resume.tell() - 1)
                if resume.read(1) != "\n":  # an interrupted run's last line, cut short: start a new one
                    resume.write("\n")
        files.reading = "standard input" if args.file == "-" else args.file
        done = state.done if state else set()
        total = None  # standard input is read once, as it comes: no count ahead
        if args.file == "-":
            files.source = sys.stdin
        else:
            files.source = open(args.file, encoding="utf-8")
            # a first pass, in little memory: how many positions there are to solve, and any byte that is not UTF-8
            total = sum(1 for p in batch.stream_positions(batch.lines_of(files.source))
                        if p.board is None or (p.name, p.board) not in done)
            files.source.seek(0)
    except OSError as e:
        raise Refused(f"cannot read {e.filename or files.reading}: {e.strerror or e}") from None
    if state is not None and state.other is not None and not args.carry_on:
        made_by = ", ".join(f"{k} {v}" for k, v in state.other.items()) or "the defaults"
        raise Refused(f"{args.resume} holds answers to other problems ({made_by}); resume with the same options, "
                      "or add --carry-on to solve these positions again beside them")
    return state, total


def _to_solve(files: Files, state, counts: dict):
    """The positions left to solve, counting those a resume skips and those it solves again."""
    from slidelab import batch

    done = state.done if state else set()
    for p in batch.stream_positions(batch.lines_of(files.source)):
        if p.board is not None and (p.name, p.board) in done:
            counts["skipped"] += 1
            continue
        if state and (p.name, p.board) in state.retry:
            counts["retried"] += 1
        yield p


def _solve_all(args, options, positions, total, files: Files, counts: dict) -> int:
    """Solve the positions, a record each as it comes (to stdout and the resume file), then the summary."""
    from slidelab import batch

    clock, totals, used = batch.Clock(), batch.Totals(), dict[str, object]()
    progress = BatchProgress(clock, total)
    runner = batch.run(positions, options, batch.cpu_workers(args.workers), args.engine, args.scheduler, used)
    resume = files.resume
    try:
        progress.draw(0)
        for record in runner:
            totals.add(record)
            line = json.dumps(record)
            if resume:
                resume.write(line + "\n")
                resume.flush()
            progress.clear()  # stdout shares the terminal: the record starts on a clean line
            print(line if args.json else batch_line(record), flush=True)
            progress.draw(totals.records)
        total_line = totals.summary(counts["skipped"], clock.elapsed(), used, counts["retried"])
        if resume:
            resume.write(json.dumps(total_line) + "\n")
            resume.flush()
    except SlideLabError as e:  # the Dask cluster cannot be reached, say
        progress.clear()
        print(f"slidelab: {e.code}: {e}", file=sys.stderr)
        return e.exit_status
    except KeyboardInterrupt:
        progress.clear()
        print(f"slidelab: stopped after {totals.records} positions"
              + (f"; --resume {args.resume} goes on from there" if resume else ""), file=sys.stderr)
        return EXIT_NO_SOLUTION
    except UnicodeDecodeError:  # standard input, read as it comes
        progress.clear()
        print(f"slidelab: invalid: cannot read {files.reading} past its position "
              f"{totals.records + counts['skipped']}: it is not UTF-8 text", file=sys.stderr)
        return EXIT_INVALID
    except BrokenPipeError:  # the reader stopped early (`slidelab batch ... | head`): stop quietly
        quiet_stdout()
        return EXIT_NO_SOLUTION
    except OSError as e:  # the resume file could not be written: a full disk, say
        progress.clear()
        print(f"slidelab: cannot write {args.resume}: {e.strerror or e}; {totals.records} answers were written "
              "before", file=sys.stderr)
        return EXIT_WRITE_FAILED
    finally:
        runner.close()  # stops the workers still solving
        progress.clear()
        files.close()
    try:
        print(json.dumps(total_line) if args.json else batch_summary(total_line["summary"]), flush=True)
    except BrokenPipeError:
        quiet_stdout()
    return EXIT_OK if totals.failed == 0 else EXIT_NO_SOLUTION


def close_files(*files) -> None:
    """Close the files that were opened (a resume file, a batch file; never standard input)."""
    for file in files:
        if file is not None and file is not sys.stdin:
            try:
                file.close()
            except OSError:  # what could not be written was said where it failed
                pass


def lock_file(file) -> bool:
    """Take the only lock on an open file (False: another process holds it); no locks where fcntl is missing."""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


class BatchProgress:
    """The batch's progress line on stderr (positions done, rate, time left), on a terminal only. The records go to
    stdout, on the same screen: `clear` wipes the line before each one, `draw` puts it back after."""

    def __init__(self, clock, total, stream=None):
        self.stream = sys.stderr if stream is None else stream
        self.live = self.stream.isatty()
        self.clock, self.total = clock, total
        self.shown = False

    def draw(self, done: int) -> None:
        if not self.live:
            return
        text = f"  {done}/{self.total} positions" if self.total is not None else f"  {done} positions"
        if done:
            text += f", {done / max(self.clock.elapsed(), 1e-9):.2f}/s"
            if self.total is not None:
                text += f", about {self.clock.left(done, self.total):.0f} s left"
        self.stream.write("\r\x1b[K" + text)
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def quiet_stdout() -> None:
    """Point stdout at the null device, so that the exit's flush to a closed pipe says nothing."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def batch_line(record: dict) -> str:
    """One position's text line: "k60  66 moves (optimal)  3,170,143 expanded  2.70 s", or its error."""
    if not record["ok"]:
        return f"{record['name']}  {record['error']['code']}: {record['error']['message']}"
    s = record["stats"]
    kind = "optimal" if record["optimal"] else "not necessarily shortest"
    return (f"{record['name']}  {n_moves(record['length'])} ({kind})  {s['expanded']:,} expanded  "
            f"{s['elapsed_s']:.2f} s")


def batch_summary(s: dict) -> str:
    worst = s["worst"]
    retried = f", {s['retried']} retried" if s.get("retried") else ""
    text = (f"{s['positions']} positions: {s['solved']} solved ({s['optimal']} optimal), {s['failed']} failed, "
            f"{s['skipped']} already done{retried}; {s['expanded']:,} expanded; {s['wall_s']:.1f} s wall, "
            f"{s['solve_s']:.1f} s of solving")
    if worst:
        text += f"; median {s['median_s']:.3f} s, worst {worst['name']} ({worst['elapsed_s']:.2f} s)"
    return text
