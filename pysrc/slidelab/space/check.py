"""Check a heuristic against the truth: is it admissible (never above the true distance), consistent (never dropping
by more than a move's cost along a move), and how informed is it?

On a puzzle with at most MAX_POSITIONS positions the check is complete: a breadth-first search from the goal gives
the exact distance of every position that can reach it, h is evaluated once on each, and every move of every position
is looked at (moves are reversible, so each is seen from both ends). The answer is a proof either way, with the worst
counterexample. Sliding boards of up to 12 cells (3x4: 239,500,800 positions) get the same complete check on numpy,
in indexed_check.py. On a larger puzzle, or without numpy, it checks a sample: positions whose distance is known
(Korf's 100 on a 4x4, mapped onto the goal; random walks from the goal solved optimally by the strongest built-in
heuristic, every position along each solution), and it never claims a proof: `admissible` and `consistent` are
then false (a counterexample was found) or None (none was).

`check_steps` is a search generator (progress events, cancellable) returning the report dict documented in
`check_heuristic`.
"""

from __future__ import annotations

import heapq
import random
import time
from importlib import resources

from slidelab.core.control import CHECK_EVERY, Counts, Limits, Meter
from slidelab.core.errors import MissingData, SearchLimit, TooLarge
from slidelab.core.puzzles import with_start
from slidelab.heuristics.pdb.frames import symmetries
from slidelab.space.explore import MAX_POSITIONS

SAMPLE_WALKS = 60  # random positions solved optimally in a sample check
SAMPLE_SOLVE_SECONDS = 2.0  # a random position not solved in this time is left out of the sample
KORF_GOAL = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)


class Tally:
    """What the check has seen so far: counts, sums, the worst overestimate and the worst drop, and the `examples`
    largest overestimates (a heap of (h - distance, n, state, h, distance), n breaking ties in the order met)."""

    def __init__(self, examples: int = 0):
        self.wanted = examples
        self.examples: list = []
        self.positions = 0
        self.sum_h = 0
        self.sum_distance = 0
        self.exact = 0
        self.over = 0  # positions where h > distance
        self.worst: tuple | None = None  # (h - distance, state, h, distance)
        self.drop: tuple | None = None  # (h(from) - h(to), from, to, h(from), h(to))
        self.by_distance: dict[int, list[int]] = {}  # distance -> [count, sum of h, min h, max h]

    def position(self, state, h, distance) -> None:
        self.positions += 1
        self.sum_h += h
        self.sum_distance += distance
        if h == distance:
            self.exact += 1
        elif h > distance:
            self.over += 1
            if self.worst is None or h - distance > self.worst[0]:
                self.worst = (h - distance, state, h, distance)
            if self.wanted:
                self.example(h - distance, self.over, state, h, distance)
        row = self.by_distance.get(distance)
        if row is None:
            self.by_distance[distance] = [1, h, h, h]
        else:
            row[0] += 1
            row[1] += h
            if h < row[2]:
                row[2] = h
            elif h > row[3]:
                row[3] = h

    def example(self, gap, order, state, h, distance) -> None:
        """An overestimate, kept if it is among the `wanted` largest so far (of equal ones, the least `order`)."""
        item = (gap, -order, state, h, distance)
        if len(self.examples) < self.wanted:
            heapq.heappush(self.examples, item)
        elif item > self.examples[0]:
            heapq.heapreplace(self.examples, item)

    def move(self, frm, to, h_from, h_to) -> None:
        if h_from - h_to > 1 and (self.drop is None or h_from - h_to > self.drop[0]):
            self.drop = (h_from - h_to, frm, to, h_from, h_to)

    def report(self, puzzle, complete: bool, name: str) -> dict:
        answer = {
            "ok": True, "heuristic": name, "complete": complete, "positions": self.positions,
            "admissible": self.worst is None if complete else (False if self.worst else None),
            "consistent": self.drop is None if complete else (False if self.drop else None),
            "overestimated": self.over,
            "mean_h": round(self.sum_h / max(self.positions, 1), 4),
            "mean_distance": round(self.sum_distance / max(self.positions, 1), 4),
            "exact_share": round(self.exact / max(self.positions, 1), 4),
            "by_distance": [{"distance": d, "count": c, "mean_h": round(s / c, 4), "min_h": lo, "max_h": hi}
                            for d, (c, s, lo, hi) in sorted(self.by_distance.items())],
        }
        if self.worst is not None:
            _, state, h, distance = self.worst
            answer["worst"] = {"board": puzzle.format(state), "h": h, "distance": distance}
        if self.wanted:
            answer["examples"] = [{"board": puzzle.format(state), "h": h, "distance": distance}
                                  for _, _, state, h, distance in sorted(self.examples, reverse=True)]
        if self.drop is not None:
            _, frm, to, h_from, h_to = self.drop
            answer["move"] = {"from": puzzle.format(frm), "to": puzzle.format(to), "h_from": h_from, "h_to": h_to}
        return answer


def check_steps(puzzle, heuristic, limits=None, rng=None, examples: int = 0):
    """Search generator checking `heuristic` (an Estimator) on `puzzle` (its goal; its start is not used): complete
    when the puzzle has at most MAX_POSITIONS positions, else on a sample (random walks drawn from `rng`); the
    `examples` largest overestimates are listed."""
    limits = limits or Limits()
    if puzzle.state_count() <= MAX_POSITIONS:
        return (yield from _complete(puzzle, heuristic, limits, Tally(examples)))
    return (yield from _sample(puzzle, heuristic, limits, rng or random.Random(1), Tally(examples)))


def _complete(puzzle, heuristic, limits, tally):
    """Breadth-first from the goal, three layers kept (explore.py's frontier search), h kept for those layers. Each
    layer is made before its values are taken; then h of the next layer is asked for (`asked`) and this layer's
    positions and moves are tallied: an isolated heuristic computes one layer in its own process while this one
    tallies the one before and makes the one after. The moves into a layer are tallied when its values come."""
    meter = Meter(limits, Counts(stored=1))
    stats = meter.stats
    children_of = puzzle.children
    before: dict = {}  # state -> h, the layer before
    states, take = [puzzle.goal], asked(heuristic, [puzzle.goal])
    waiting: list = []  # (from, to, h(from)): the moves into this layer
    distance = 0
    while states:
        here = dict.fromkeys(states)
        kids = []
        following: dict = {}
        for state in states:
            children = children_of(state)
            kids.append(children)
            for child in children:
                if child not in before and child not in here:
                    following[child] = None
        layer = dict(zip(states, take(), strict=True))
        take_next = asked(heuristic, list(following))  # computed there while this layer is tallied here
        for frm, to, h in waiting:
            tally.move(frm, to, h, layer[to])
        waiting = []
        wait = waiting.append
        for (state, h), children in zip(layer.items(), kids, strict=True):
            tally.position(state, h, distance)
            stats.expanded += 1
            stats.generated += len(children)
            for child in children:
                h_child = before.get(child)
                if h_child is None:
                    h_child = layer.get(child)
                    if h_child is None:
                        wait((state, child, h))
                        continue
                tally.move(state, child, h, h_child)
            if not stats.expanded % CHECK_EVERY and meter.due(stats.expanded, len(layer) + len(following)):
                yield meter.progress(len(before) + len(layer) + len(following), depth=distance)
        stats.stored = max(stats.stored, len(before) + len(layer) + len(following))
        before, states, take = layer, list(following), take_next
        distance += 1
    meter.finish()
    answer = tally.report(puzzle, True, heuristic.name)
    answer["stats"] = stats.as_dict()
    return answer


def asked(heuristic, states: list):
    """A function giving h of each state: at once for a heuristic of this process; an isolated heuristic
    (supervised.py) is asked now, computes in its own process, and the function waits for its answer."""
    ask = getattr(heuristic, "ask", None)
    if ask is not None:
        return ask(states)
    found = [heuristic(state) for state in states]
    return lambda: found


def values(heuristic, states: list) -> list:
    """h of each state, in one exchange for an isolated heuristic."""
    return asked(heuristic, states)()


def _sample(puzzle, heuristic, limits, rng, tally):
    """Positions of known distance: Korf's 100 (4x4), and random walks solved optimally, every position of each
    solution (its distance is the moves left); each one's moves are checked for consistency."""
    from slidelab.heuristics import get_heuristic
    from slidelab.search.idastar import idastar

    meter = Meter(limits)
    stats = meter.stats
    korf = _korf_positions(puzzle)
    known = list(korf)
    strongest = get_heuristic("auto", puzzle)
    solved = 0
    for _ in range(SAMPLE_WALKS):
        state = _random_walk(puzzle, rng, rng.randint(10, 60 if puzzle.size <= 16 else 30))
        walk_puzzle = with_start(puzzle, state)
        try:
            result = yield from idastar(walk_puzzle, strongest, Limits(None, SAMPLE_SOLVE_SECONDS))
        except (SearchLimit, TooLarge, MissingData):
            continue
        solved += 1
        length = len(result.moves)
        for step, move in enumerate([None, *result.moves]):
            if move is not None:
                state = puzzle.apply(state, move)
            known.append((state, length - step))
        limits.check(stats.expanded, time.perf_counter())
    kids = [puzzle.children(state) for state, _ in known]
    asked = dict.fromkeys([state for state, _ in known] + [child for children in kids for child in children])
    h_of = dict(zip(asked, values(heuristic, list(asked)), strict=True))
    for (state, distance), children in zip(known, kids, strict=True):
        h = h_of[state]
        tally.position(state, h, distance)
        stats.expanded += 1
        for child in children:
            stats.generated += 1
            tally.move(state, child, h, h_of[child])
        if not stats.expanded % 256 and meter.due(stats.expanded):
            yield meter.progress(stats.expanded, depth=distance)
    stats.stored = len(known)
    meter.finish()
    answer = tally.report(puzzle, False, heuristic.name)
    answer["sample"] = {"korf100": len(korf), "random_solved": solved,
                        "note": "a sample of positions whose distance is known: a counterexample disproves, "
                                "no counterexample proves nothing"}
    answer["stats"] = stats.as_dict()
    return answer


def _random_walk(puzzle, rng, length: int):
    """A position `length` random moves from the goal, never undoing the move before."""
    state, previous = puzzle.goal, None
    for _ in range(length):
        children = [c for c in puzzle.children(state) if c != previous]
        previous, state = state, rng.choice(children)
    return state


def _korf_positions(puzzle) -> list:
    """Korf's 100 random 15-puzzle positions with their optimal lengths, mapped onto this puzzle's goal (a board
    symmetry takes Korf's blank cell to the goal's, then the tiles are renamed), as (state, distance); none unless
    the puzzle is a 4x4 sliding one."""
    if puzzle.kind != "sliding" or (puzzle.rows, puzzle.cols) != (4, 4):
        return []
    symmetry = next((cmap for _, _, cmap in symmetries(4, 4) if cmap[0] == list(puzzle.goal).index(0)), None)
    if symmetry is None:  # the blank of a 4x4 goal on a middle cell: no symmetry takes a corner there
        return []
    moved_goal = [0] * 16
    for cell, tile in enumerate(KORF_GOAL):
        moved_goal[symmetry[cell]] = tile
    rename = {tile: puzzle.goal[cell] for cell, tile in enumerate(moved_goal)}
    positions = []
    text = resources.files("slidelab").joinpath("data").joinpath("korf100.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        head, cells = line.split("|")
        length, tiles = int(head.split()[1]), [int(t) for t in cells.split()]
        state = [0] * 16
        for cell, tile in enumerate(tiles):
            state[symmetry[cell]] = rename[tile]
        positions.append((tuple(state), length))
    return positions

