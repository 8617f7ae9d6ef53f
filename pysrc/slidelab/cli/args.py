"""The command line's arguments as api requests: files read, your heuristic's code attached, a request run (your
code supervised), what the command line refuses (`Refused`), and exit statuses (the package's docstring lists them)."""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Mapping
from typing import Any

from slidelab.core.errors import exit_status

EXIT_OK, EXIT_NO_SOLUTION, EXIT_INVALID = 0, 1, 2  # the others come from the error's code (errors.exit_status)
EXIT_WRITE_FAILED = 6  # batch: the resume file could not be written (a full disk)
EXIT_STOPPED = 130  # Ctrl-C or SIGTERM, as a shell reports an interrupted command
SHAPE = re.compile(r"\s*\d+\s*[xX×]\s*\d+\s*")  # explore's POSITION when it is a shape (3x3), not a board


class Refused(Exception):
    """A file or option the command line cannot take (the message says why): `slidelab: invalid: ...`, exit status 2."""


def read_text(path: str, what: str, limit: int | None = None) -> str:
    """The text of a file named on the command line, at most `limit` characters; Refused if it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read() if limit is None else f.read(limit + 1)
    except UnicodeDecodeError:
        raise Refused(f"cannot read {what} {path}: it is not UTF-8 text") from None
    except OSError as e:
        raise Refused(f"cannot read {what} {path}: {e.strerror or e}") from None
    if limit is not None and len(text) > limit:
        raise Refused(f"{what} {path} is larger than {limit:,} characters")
    return text


def request_of(args) -> dict:
    request = {k: v for k, v in vars(args).items() if k not in ("command", "json") and v is not None}
    if "heuristic_file" in request:  # your own heuristic: its code travels in the request
        refuse_other_heuristics(request)
        path = request.pop("heuristic_file")
        request.update(heuristic_code=read_text(path, "the heuristic file"), heuristic_filename=path)
    elif "heuristic_function" in request:
        raise Refused("--heuristic-function names a function of --heuristic-file; give the file too")
    if "all_solutions" in request and not request["all_solutions"]:
        del request["all_solutions"]
    if "position" in request:  # explore: a shape like 3x3, or a board
        position = request.pop("position")
        request["shape" if SHAPE.fullmatch(position) else "board"] = position
    return request


def refuse_other_heuristics(request: dict) -> None:
    """--heuristic-file names the heuristic: another --heuristic, or an algorithm that uses none, is refused."""
    from slidelab.contract.request import DEFAULT_ALGORITHM
    from slidelab.search import ALGORITHMS

    other = request.get("heuristic")
    if other not in (None, "yours"):
        raise Refused(f"--heuristic-file is your own heuristic, so --heuristic {str(other)[:20]} cannot go with "
                         "it: leave one of them out")
    algorithm = ALGORITHMS.get(request.get("algorithm", DEFAULT_ALGORITHM))
    if algorithm is not None and not algorithm.uses_heuristic:
        able = ", ".join(a.name for a in ALGORITHMS.values() if a.uses_heuristic and a.traceable)
        raise Refused(f"{algorithm.name} uses no heuristic, so --heuristic-file would be ignored; choose an "
                         f"algorithm that takes one ({able})")


def run_code(call, request: dict, on_progress=None) -> dict:
    """The api's `call` on a request: with your own heuristic in a supervised process of its own (supervised.py),
    where it cannot hang, end or print into the answer; otherwise here."""
    if request.get("heuristic_code") is None:
        return call(request, on_progress=on_progress)
    from slidelab.run import supervised

    say_unsandboxed()
    if not supervised.available():
        return call(request, on_progress=on_progress)
    return supervised.run(call, request, on_progress)


def exit_code(answer: Mapping[str, Any]) -> int:
    if answer["ok"]:
        return EXIT_OK
    return exit_status(answer["error"]["code"])


def say_error(answer: Mapping[str, Any]) -> int:
    """Say an error answer on stderr in one line, `slidelab: CODE: reason` (a message made where your code ran may hold
    anything: its control characters are shown as escapes); its exit status."""
    from slidelab.run.sandbox import visible

    error = answer["error"]
    print(f"slidelab: {visible(error['code'], 40)}: {visible(error['message'], 4000)}", file=sys.stderr)
    return exit_code(answer)


@functools.cache  # said once a process
def say_unsandboxed() -> None:
    """Where this machine gives no sandbox, say in one line that your code runs with your rights."""
    from slidelab.run import sandbox

    if not sandbox.available():
        print(f"slidelab: notice: {sandbox.status()['detail']}: your heuristic runs in a process of its own, with "
              "your rights", file=sys.stderr)
