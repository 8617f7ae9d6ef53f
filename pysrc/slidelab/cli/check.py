"""`slidelab check-heuristic`: a heuristic checked against the true distances, where your code never runs (a process of
its own gives h's values)."""

from __future__ import annotations

from slidelab.cli.args import SHAPE, Refused, request_of, run_code
from slidelab.cli.text import ExploreProgress, print_check, report


def run(args) -> int:
    from slidelab.api.space import check_heuristic
    request = check_request(request_of(args))
    bar = ExploreProgress()
    # isolate: the check runs where your code never does, and asks a process of its own for h's values
    answer = run_code(check_heuristic, dict(request, isolate=True), on_progress=bar)
    bar.close()
    return report(args, answer, print_check)


def check_request(request: dict) -> dict:
    """check-heuristic's request: the file's code and the goal, given as GOAL (a board, or a shape like 3x3 for its
    default goal), --goal or --shape."""
    request = dict(request)
    given = request.pop("board", None)
    if given is not None and SHAPE.fullmatch(given):
        if "shape" in request:
            raise Refused(f"give the shape once: {given} or --shape {request['shape']}")
        request["shape"] = given
    elif given is not None:
        if "goal" in request:
            raise Refused("give the goal once: as GOAL or as --goal")
        if "shape" in request:
            raise Refused("give either a shape (its default goal) or a goal board, not both")
        request["goal"] = given
    if "goal" in request and "shape" not in request:  # the positions checked are those that can reach the goal
        request["board"] = request["goal"]
    return request
