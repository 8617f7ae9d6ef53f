"""`slidelab solve`: a shortest solution (or several), its tables built first when the cost is small."""

from __future__ import annotations

from slidelab.cli.args import request_of, run_code
from slidelab.cli.pdb import prepare_databases
from slidelab.cli.text import SearchProgress, print_solve, report


def run(args) -> int:
    from slidelab.api.solving import solve

    request = request_of(args)
    failed = prepare_databases(request)  # an error answer when its tables could not be built
    progress = SearchProgress()
    answer = failed or run_code(solve, request, on_progress=progress)
    progress.close()
    return report(args, answer, print_solve)
