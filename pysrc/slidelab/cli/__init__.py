"""The `slidelab` command: a thin shell over slidelab.api.

Exit codes: 0 success, 1 no solution exists or none was found within the limits, 2 invalid input (a bad board,
option or file, or an error in the user's own heuristic), 3 a bug in slidelab (the message says what failed), 4 data
missing or damaged (a pattern database not built, a damaged table file), 5 not available here (an optional package,
a Dask cluster that cannot be reached, a platform without the processes parallel search needs), 6 batch could not
write its resume file (a full disk), 130 stopped by
Ctrl-C or SIGTERM (every worker process stopped with it).
With --json one JSON object is printed on stdout; otherwise readable text. Errors go to stderr in one line.
"""

from __future__ import annotations

import importlib
import signal
import sys


def _terminated(signum, frame):
    raise KeyboardInterrupt  # SIGTERM ends a run as Ctrl-C does: workers stopped, files closed, one line said


def main(argv=None) -> int:
    from slidelab.cli.args import EXIT_INVALID, EXIT_STOPPED, Refused
    from slidelab.cli.parser import COMMANDS, build_parser, command_of

    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(command_of(argv)).parse_args(argv)
    try:
        previous = signal.signal(signal.SIGTERM, _terminated)
    except ValueError:  # not the main thread (main called from another program's thread): its signals are its own
        previous = None
    try:
        return importlib.import_module(f"slidelab.cli.{COMMANDS[args.command].module}").run(args)
    except Refused as e:
        print(f"slidelab: invalid: {e}", file=sys.stderr)
        return EXIT_INVALID
    except KeyboardInterrupt:
        print("slidelab: stopped", file=sys.stderr)
        return EXIT_STOPPED
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
