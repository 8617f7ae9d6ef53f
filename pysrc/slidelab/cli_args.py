"""The command line's arguments as api requests: files read, your heuristic's code attached, a request run (your
code supervised), and exit statuses (cli.py lists them)."""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from typing import Any

from . import api
from .errors import exit_status

EXIT_OK, EXIT_NO_SOLUTION, EXIT_INVALID = 0, 1, 2  # the others come from the error's code (errors.exit_status)
EXIT_WRITE_FAILED = 6  # batch: the resume file could not be written (a full disk)
EXIT_STOPPED = 130  # Ctrl-C or SIGTERM, as a shell reports an interrupted command
SHAPE = re.compile(r"\s*\d+\s*[xX×]\s*\d+\s*")  # explore's POSITION when it is a shape (3x3), not a board


class FileError(Exception):
    """A file named on the command line cannot be read (the message says why)."""


def read_text(path: str, what: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError:
        raise FileError(f"cannot read {what} {path}: it is not UTF-8 text") from None
    except OSError as e:
        raise FileError(f"cannot read {what} {path}: {e.strerror or e}") from None


def request_of(args) -> dict:
    request = {k: v for k, v in vars(args).items() if k not in ("command", "json") and v is not None}
    if "heuristic_file" in request:  # your own heuristic: its code travels in the request
        refuse_other_heuristics(request)
        path = request.pop("heuristic_file")
        request.update(heuristic_code=read_text(path, "the heuristic file"), heuristic_filename=path)
    elif "heuristic_function" in request:
        raise FileError("--heuristic-function names a function of --heuristic-file; give the file too")
    if "all_solutions" in request and not request["all_solutions"]:
        del request["all_solutions"]
    if "position" in request:  # explore: a shape like 3x3, or a board
        position = request.pop("position")
        request["shape" if SHAPE.fullmatch(position) else "board"] = position
    return request


def refuse_other_heuristics(request: dict) -> None:
    """--heuristic-file names the heuristic: another --heuristic, or an algorithm that uses none, is refused."""
    from .search import ALGORITHMS

    other = request.get("heuristic")
    if other not in (None, "yours"):
        raise FileError(f"--heuristic-file is your own heuristic, so --heuristic {str(other)[:20]} cannot go with "
                         "it: leave one of them out")
    algorithm = ALGORITHMS.get(request.get("algorithm", api.DEFAULT_ALGORITHM))
    if algorithm is not None and not algorithm.uses_heuristic:
        able = ", ".join(a.name for a in ALGORITHMS.values() if a.uses_heuristic and a.traceable)
        raise FileError(f"{algorithm.name} uses no heuristic, so --heuristic-file would be ignored; choose an "
                         f"algorithm that takes one ({able})")


def run_code(call, request: dict, on_progress=None) -> dict:
    """The api's `call` on a request: with your own heuristic in a supervised process of its own (supervised.py),
    where it cannot hang, end or print into the answer; otherwise here."""
    from . import supervised

    if request.get("heuristic_code") is None or not supervised.available():
        return call(request, on_progress=on_progress)
    return supervised.run(call, request, on_progress)


def exit_code(answer: Mapping[str, Any]) -> int:
    if answer["ok"]:
        return EXIT_OK
    return exit_status(answer["error"]["code"])


def say_error(answer: Mapping[str, Any]) -> int:
    """Say an error answer on stderr in one line, `slidelab: CODE: reason`; its exit status."""
    print(f"slidelab: {answer['error']['code']}: {answer['error']['message']}", file=sys.stderr)
    return exit_code(answer)
