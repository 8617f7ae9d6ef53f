"""A split search's checkpoint: the file that lets a long IDA* search (the 24-puzzle's: hours) stop, with its
client, a worker or the whole cluster, and go on later without losing its finished work.

The scheduler (scheduler.py) tells the checkpoint each task that finished (its subtrees and what searching them gave)
and each iteration that ended; the file says the search (`search`: its position, goal, heuristic and how it was
split), the iteration under way (`bound`), the statistics of the iterations before it (`counted`) and the tasks of
this iteration already searched (`done`), and where the subtrees running had got (`partial`: the pattern-database
kernel says where its search is as it reports, parallel_idastar.Partial). It is written whole to a temporary file and
renamed over the old one (never half written), at least every EVERY_S seconds while tasks report (PAGE_EVERY_S in
the page), at each iteration's end and when the search stops. A resume (`--resume FILE`) splits the same search the
same way, starts at the recorded bound with the recorded statistics, searches only the subtrees not done, and those
searched in part from where they had got: what a stop loses is the work since the last write (with the other
kernels, a task that was running is searched again whole). A resume with another search's options is refused, and so
is one of a search that finished. The page keeps its split searches' checkpoints in the
browser's storage (web/py/worker.py posts the file, web/js/kept_search.js keeps it), in the same format.
"""

from __future__ import annotations

import json
import os
import time

from slidelab.core.control import Counts
from slidelab.core.errors import BadRequest
from slidelab.search.contour import INF
from slidelab.search.parallel_idastar import Partial, Searched, partial_of

FORMAT = 1  # the file's "slidelab_checkpoint": a later format is refused, not misread
OLD_SUBTREES_PER_WORKER = 32  # a file that does not name its subtrees was split by the command line's runtime
EVERY_S = 10  # the work done is written at least this often: at most this much of it is lost with the client
PAGE_EVERY_S = 1  # the page's searches (a closed tab writes nothing on its way out); a write there costs about 1 ms


class Checkpoint:
    """The checkpoint file at `path` of the search `search` ({"board", "goal", "puzzle", "heuristic", "tables",
    "all_solutions", "split_for"}): `resumed` holds what an earlier run recorded (read by `resume_from`), else
    nothing was."""

    def __init__(self, path: str, search: dict, resumed: dict | None = None, every_s: float = EVERY_S):
        self.path, self.search, self.every_s = path, dict(search, split_for=None), every_s
        state = resumed or {}
        if resumed is not None:
            recorded = resumed["search"]
            self.search["split_for"] = recorded["split_for"]
            self.search["subtrees"] = recorded.get("subtrees", recorded["split_for"] * OLD_SUBTREES_PER_WORKER)
        self.bound = state.get("bound")
        self.counted = state.get("counted", {"expanded": 0, "generated": 0, "iterations": []})
        self.done: list = list(state.get("done", []))
        self.partial: dict = {p["subtree"]: p for p in state.get("partial", [])}  # subtree -> where it had got
        self.sizes: dict = {int(k): v for k, v in state.get("sizes", {}).items()}  # each subtree's nodes, last searched
        self.earlier_s = float(state.get("elapsed_s", 0))
        self.resumed = resumed is not None
        self.started = time.perf_counter()
        self.written = 0.0  # when the file was last written (perf_counter)
        self.dirty = True
        self.failed: str | None = None
        self.length: int | None = None  # the solution's, once found

    @property
    def subtrees(self) -> int:
        """The subtrees a resumed search's start was split into: the page and the command line split the same
        workers into different numbers of subtrees, so the file names them."""
        return self.search["subtrees"]

    @property
    def split_for(self) -> int:
        """The workers the search is split for (its subtrees': scheduler.frontier_size)."""
        return self.search["split_for"]

    def counted_stats(self) -> Counts | None:
        """The statistics of the iterations a resumed search had finished (None when it starts afresh)."""
        if not self.resumed:
            return None
        stats = Counts(self.counted["expanded"], self.counted["generated"])
        stats.iterations = list(self.counted["iterations"])
        return stats

    def done_in(self, bound: int, todo) -> list:
        """The tasks of the iteration of `bound` recorded as done: [(subtrees, Searched)]; BadRequest when they name
        subtrees that are not the iteration's (`todo`)."""
        if bound != self.bound:
            return []
        todo = set(todo)
        if any(i not in todo for d in self.done for i in d["subtrees"]):
            raise BadRequest(f"{self.path} names subtrees this search's split does not have: it is damaged")
        return [(tuple(d["subtrees"]), Searched({}, [], INF if d["over"] is None else d["over"], d["expanded"],
                                                d["generated"])) for d in self.done]  # sizes: in self.sizes

    def partial_in(self, bound: int, todo) -> dict:
        """The subtrees of the iteration of `bound` recorded as searched in part: {index: Partial}; BadRequest when
        one is not a subtree of the iteration's (`todo`) or is recorded done too."""
        if bound != self.bound:
            return {}
        todo = set(todo) - {i for d in self.done for i in d["subtrees"]}
        partial = [partial_of(p, self.path) for p in self.partial.values()]
        if any(p.subtree not in todo for p in partial):
            raise BadRequest(f"{self.path} names subtrees this search's split does not have: it is damaged")
        return {p.subtree: p for p in partial}

    def sizes_within(self, subtrees: int) -> dict:
        """Each subtree's nodes the last time it was searched, {index: nodes}, for the split of `subtrees`
        (BadRequest if the file names others)."""
        if any(not 0 <= i < subtrees for i in self.sizes):
            raise BadRequest(f"{self.path} names subtrees this search's split does not have: it is damaged")
        return self.sizes

    def round_started(self, bound: int) -> None:
        if bound != self.bound:
            first = self.bound is None
            self.bound, self.done, self.partial, self.dirty = bound, [], {}, True
            if first:  # a file that names its bound can be resumed at once
                self.write()

    def task_done(self, subtrees, searched: Searched) -> None:
        self.done.append({"subtrees": list(subtrees), "over": None if searched.over == INF else searched.over,
                          "expanded": searched.expanded, "generated": searched.generated})
        self.sizes.update(searched.sizes)
        for index in subtrees:
            self.partial.pop(index, None)
        self.dirty = True
        self.tick()

    def got_to(self, partial: Partial) -> None:
        """A running subtree's search reported where it had got."""
        self.partial[partial.subtree] = partial._asdict()
        self.dirty = True

    def iteration_ended(self, stats: Counts, next_bound) -> None:
        """An iteration ended without a solution: the next starts at `next_bound` from `stats`."""
        self.counted = {"expanded": stats.expanded, "generated": stats.generated,
                        "iterations": list(stats.iterations)}
        self.bound, self.done, self.partial, self.dirty = next_bound, [], {}, True
        self.write()

    def finished(self, length: int) -> None:
        self.length, self.dirty = length, True
        self.write()

    def tick(self) -> None:
        """Write the file if there is news and `every_s` have passed since it was last written."""
        if self.dirty and time.perf_counter() - self.written >= self.every_s:
            self.write()

    def write(self) -> None:
        """Write the file now (a failure after the first write is kept in `failed`: the search goes on)."""
        state = {"slidelab_checkpoint": FORMAT, "search": self.search, "bound": self.bound, "counted": self.counted,
                 "done": self.done, "partial": [self.partial[k] for k in sorted(self.partial)],
                 "sizes": {str(k): v for k, v in sorted(self.sizes.items())},
                 "elapsed_s": round(self.elapsed_s(), 3)}
        if self.length is not None:
            state["finished"] = {"length": self.length}
        temporary = f"{self.path}.writing"
        try:
            with open(temporary, "w", encoding="utf-8") as file:
                json.dump(state, file)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, self.path)
        except OSError as e:
            why = f"cannot write the checkpoint {self.path}: {e.strerror or e}"
            if not self.written:
                raise BadRequest(why) from None
            self.failed = why
        else:
            self.failed = None
        self.written, self.dirty = time.perf_counter(), False

    def elapsed_s(self) -> float:
        """The search's time so far, the earlier runs' too."""
        return self.earlier_s + time.perf_counter() - self.started

    def told(self) -> dict:
        """What the answer's "parallel" says of it: {"file", "resumed", "earlier_s", "failed"?}."""
        told = {"file": self.path, "resumed": self.resumed, "earlier_s": round(self.earlier_s, 3)}
        if self.failed:
            told["failed"] = self.failed
        return told


def resume_from(path: str, search: dict) -> dict:
    """What the checkpoint at `path` recorded, checked to be a checkpoint of the search `search` (all but
    "split_for", which the file decides); BadRequest when it cannot be read, is not a checkpoint, records another
    search or one that finished."""
    try:
        with open(path, encoding="utf-8") as file:
            state = json.load(file)
    except OSError as e:
        raise BadRequest(f"cannot read the checkpoint {path}: {e.strerror or e}") from None
    except ValueError:
        raise BadRequest(f"{path} is not a checkpoint of slidelab solve (it is not JSON)") from None
    if not _well_formed(state):
        raise BadRequest(f"{path} is not a checkpoint of slidelab solve (or one of another version)")
    recorded = state["search"]
    differs = [key for key in search if key not in ("split_for", "subtrees") and recorded.get(key) != search[key]]
    if differs:
        said = ", ".join(f"{key} {recorded.get(key)!r} where this one has {search[key]!r}" for key in differs)
        raise BadRequest(f"{path} is the checkpoint of another search ({said}); resume with the same options")
    if "finished" in state:
        raise BadRequest(f"{path} is the checkpoint of a search that finished (a solution of "
                         f"{state['finished'].get('length')} moves): solve it again without --resume")
    return state


def _well_formed(state) -> bool:
    try:
        counted, search = state["counted"], state["search"]
        return (state["slidelab_checkpoint"] == FORMAT and isinstance(search, dict)
                and isinstance(search.get("split_for"), int) and search["split_for"] >= 1
                and isinstance(search.get("subtrees", 1), int) and search.get("subtrees", 1) >= 1
                and isinstance(state["bound"], int)
                and all(isinstance(counted[k], int) for k in ("expanded", "generated"))
                and isinstance(counted["iterations"], list)
                and all(isinstance(d["subtrees"], list) and all(isinstance(i, int) for i in d["subtrees"])
                        and isinstance(d["expanded"], int)
                        and isinstance(d["generated"], int) and (d["over"] is None or isinstance(d["over"], int))
                        for d in state["done"])
                and isinstance(state.get("partial", []), list)
                and all(isinstance(p, dict) and type(p.get("subtree")) is int for p in state.get("partial", []))
                and isinstance(state.get("sizes", {}), dict)
                and all(k.isdigit() and isinstance(v, int) for k, v in state.get("sizes", {}).items())
                and isinstance(state.get("elapsed_s", 0), (int, float)))
    except (KeyError, TypeError):
        return False
