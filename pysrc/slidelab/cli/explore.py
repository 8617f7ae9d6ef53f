"""`slidelab explore`: every position that can reach the goal, by distance."""

from __future__ import annotations

from slidelab.cli.args import request_of
from slidelab.cli.text import ExploreProgress, print_explore, report


def run(args) -> int:
    from slidelab.api.space import explore

    bar = ExploreProgress()
    answer = explore(request_of(args), on_progress=bar)
    bar.close()
    return report(args, answer, print_explore)
