"""`slidelab trace`: what a search does, step by step."""

from __future__ import annotations

from slidelab.cli.args import request_of, run_code
from slidelab.cli.pdb import prepare_databases
from slidelab.cli.text import print_trace, report


def run(args) -> int:
    from slidelab.api.solving import trace

    request = request_of(args)
    failed = prepare_databases(request)  # an error answer when its tables could not be built
    return report(args, failed or run_code(trace, request), print_trace)
