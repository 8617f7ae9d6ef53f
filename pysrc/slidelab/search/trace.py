"""A trace of a search: every step the real algorithm takes, written down as it takes it, for teaching.

`trace` runs an algorithm with a Recorder as its "record" option, and the search itself tells the recorder each step
(best_first.py, bfs.py, bidirectional.py, and the generic IDA* of idastar.py, which IDDFS runs too). A traced IDA* or
IDDFS is the generic search on every puzzle: its counts are those of the generic contour, not the sliding kernels'
(a few positions apart in the last contour; with h = 0 far fewer, as they never expand a position at the bound:
docs/algorithms.md, "Statistics"). The
answer (`api.trace` adds "ok", "algorithm", "heuristic", "puzzle", "board", "goal", "optimal" and, for weighted A*,
"weight"):

    {"nodes": {"0": {"board": text, "parent": null, "move": null, "name": null, "g": 0, "h": 12},
               "1": {"board": text, "parent": "0", "move": 5, "name": "5", "g": 1, "h": 13}, ...},
     "steps": [...], "expanded": n, "truncated": false, "length": 25 or null, "solution": ["0", "4", ...] or null,
     "moves": [5, ...] or null, "stats": {...}, "note": text (when truncated)}

Nodes have the ids "0", "1", ... in the order they are made: a root (the start; for bidirectional BFS the goal too, as
node "1"; for IDA* and IDDFS the start again at each iteration), then every child generated, whatever became of it.
Depth-first searches are tree searches: a board reached again is a new node there. `move` is the move from the
parent's board to the node's (as a solve answer's `moves` holds it; on the backward side of bidirectional BFS, from
the board nearer the goal), `name` the same as people write it, g the moves from the root, h the heuristic's value (0
without one); in a bidirectional trace every node has "side": "forward" or "backward".

Steps, in the order the search takes them:
- {"type": "expand", "node": id} (best-first searches add its "f"): the node's children are generated next;
- {"type": "generate", "node": id, "parent": id, "status": status, "f": f}: a child and what became of it: "new"
  (added to the open list, the frontier or the stack), "open" (its board waits already, at no greater g), "closed"
  (its board was expanded already), "better" (its board was reached more cheaply than before: it waits again with this
  g, reopened if it was closed (A*)), "pruned" (f over the IDA*/IDDFS bound); f is the node's priority: g + h (h = 0
  for the uninformed searches), h for greedy search, g + W * h for weighted A*;
- {"type": "iteration", "bound": b}: IDA* and IDDFS start a contour, from a new root;
- {"type": "side", "side": "forward" or "backward", "depth": d}: bidirectional BFS starts that side's layer d;
- {"type": "goal", "node": id}: the goal is reached (best-first searches: when it leaves the open list; the others:
  when it is generated);
- {"type": "meet", "forward": id, "backward": id}: bidirectional BFS reached one board from both sides;
- {"type": "solution", "path": [ids]}: last, the nodes from the start to the goal (bidirectional BFS: the forward ones
  up to the meeting, then the backward ones).

After `max_steps` expansions, or when it has `max_nodes` nodes (a puzzle with many moves per position, such as
tokens with the king's rule on a large board, makes dozens of children per expansion), the trace stops where it is:
"truncated": true, no solution, the "limit" that stopped it (max_steps or max_nodes), a "note" that says so, and
"stats" with only expanded, generated and elapsed_s. A finished trace has the search's own statistics, as in a solve
answer; its expand steps are as many as the same search expands untraced.

While it records, the search yields a progress event (the usual schema) every REPORT_NODES nodes, at its next
expansion (`Recorder.due`), so that a trace can be cancelled between two of them as a solve is.
"""

from __future__ import annotations

import time

from slidelab.core.control import Limits
from slidelab.core.errors import SearchLimit, UserCodeError
from slidelab.core.puzzles import move_record

REPORT_NODES = 500  # nodes recorded between two progress events: a few hundred expansions on a sliding board


class Truncated(Exception):
    """The trace has its `max_steps` expansions or its `max_nodes` nodes: the recorder stops the search there (`trace`
    catches it; the message names the limit)."""


class Recorder:
    """Nodes and steps of a search (the format above), written as the search tells them.

    A search calls `root`, `expand` and `generate` (breadth-first ones call `expansion`, which does both, once per
    expansion: their children cost so little that a test per child would show), `goal`, and as they apply
    `iteration`, `side` and `meet`. The parent of a child generated at depth g is the node expanded last at depth
    g - 1: breadth- and best-first searches generate a node's children right after expanding it, and a depth-first
    one generates below its current path. A board's node is found again as its live node: the one that last added it
    to the open list, frontier or stack (on this side).
    """

    def __init__(self, puzzle, max_steps, max_nodes):
        self.puzzle = puzzle
        self.max_steps = max_steps
        self.max_nodes = max_nodes
        self.nodes = {}
        self.steps = []
        self.expanded = 0
        self.generated = 0
        self.end = None  # the goal's node, or (forward, backward) nodes of the meeting
        self._states = []  # the state of each node, by number
        self._live = {}  # (side, state) -> id
        self._closed = set()  # the ids expanded
        self._last = {}  # depth -> the id expanded last at that depth
        self._side = None
        # (a node's id, its children's states -> the moves to them), made once per parent
        self._moves: tuple = (None, {})
        self._reported = 0  # nodes made at the last progress event

    def due(self) -> bool:
        """Whether the search should yield a progress event now (REPORT_NODES nodes since the last one): a search
        asks once per expansion and yields when told so."""
        if len(self._states) - self._reported < REPORT_NODES:
            return False
        self._reported = len(self._states)
        return True

    def _node(self, state, parent, g, h) -> str:
        if len(self._states) == self.max_nodes:
            raise Truncated("max_nodes")
        node = {"board": self.puzzle.format(state), "parent": parent, "move": None, "name": None, "g": g, "h": h}
        if parent is not None:
            if self._moves[0] != parent:
                self._moves = parent, {child: move for move, child in self.puzzle.moves(self._states[int(parent)])}
            move = self._moves[1][state]
            node.update(move=move_record(move), name=self.puzzle.move_name(move))
        if self._side is not None:
            node["side"] = self._side
        node_id = str(len(self._states))
        self._states.append(state)
        self.nodes[node_id] = node
        return node_id

    def root(self, state, h=0, side=None) -> None:
        """A root: the start (the goal too, for the backward side); depth-first searches make one per iteration."""
        self._side = side
        self._live[(side, state)] = self._node(state, None, 0, h)

    def expand(self, state, f=None) -> None:
        """The board's live node is expanded (Truncated when the trace has its expansions already)."""
        if self.expanded == self.max_steps:
            raise Truncated("max_steps")
        self.expanded += 1
        node_id = self._live[(self._side, state)]
        self._closed.add(node_id)
        self._last[self.nodes[node_id]["g"]] = node_id
        step = {"type": "expand", "node": node_id}
        if f is not None:
            step["f"] = f
        self.steps.append(step)

    def generate(self, state, g, status, h=0, f=None) -> None:
        """A child at depth g: `status` is final ("new", "pruned"), or "seen" (already stored: open or closed, which
        the recorder knows) or "added" (a best-first search pushed it: new, or better if its board had a node)."""
        key = (self._side, state)
        if status == "seen":
            status = "closed" if self._live[key] in self._closed else "open"
        elif status == "added":
            status = "better" if key in self._live else "new"
        parent = self._last[g - 1]
        node_id = self._node(state, parent, g, h)
        if status in ("new", "better"):
            self._live[key] = node_id
        self.generated += 1
        self.steps.append({"type": "generate", "node": node_id, "parent": parent, "status": status,
                           "f": g + h if f is None else f})

    def expansion(self, state, children, g) -> None:
        """A breadth-first expansion, told after it: the board's node, then its children at depth g, each new (its
        board has no node yet on this side: breadth-first searches never reach a board more cheaply), open or
        closed."""
        self.expand(state)
        for child in children:
            self.generate(child, g, "seen" if (self._side, child) in self._live else "new")

    def goal(self, state) -> None:
        self.end = self._live[(self._side, state)]
        self.steps.append({"type": "goal", "node": self.end})

    def meet(self, state) -> None:
        self.end = self._live[("forward", state)], self._live[("backward", state)]
        self.steps.append({"type": "meet", "forward": self.end[0], "backward": self.end[1]})

    def iteration(self, bound) -> None:
        self.steps.append({"type": "iteration", "bound": bound})

    def side(self, side, depth) -> None:
        self._side = side
        self.steps.append({"type": "side", "side": side, "depth": depth})

    def solution(self) -> list:
        """The ids of the path found, from the start to the goal."""
        if isinstance(self.end, tuple):
            forward, backward = self.end
            return self._chain(forward) + self._chain(backward)[-2::-1]
        return self._chain(self.end)

    def _chain(self, node_id) -> list:
        ids = []
        while node_id is not None:
            ids.append(node_id)
            node_id = self.nodes[node_id]["parent"]
        return ids[::-1]


def trace(puzzle, algorithm, heuristic, max_steps, max_nodes, options, limits=None):
    """Search generator: run `algorithm` (an ALGORITHMS entry) on `puzzle`, recording at most `max_steps`
    expansions and `max_nodes` nodes, within `limits` (a time limit); returns the trace (the format above).
    `options` are the algorithm's (a weight). When the user's heuristic fails or the time runs out, the trace so far
    is returned as a truncated one, with the error in "stopped" (the api answers it beside the error)."""
    started = time.perf_counter()
    recorder = Recorder(puzzle, max_steps, max_nodes)
    answer = {"nodes": recorder.nodes, "steps": recorder.steps}

    def cut(limit: str, note: str, **more) -> dict:
        return dict(answer, expanded=recorder.expanded, truncated=True, length=None, solution=None, moves=None,
                    limit=limit, note=note, **more,
                    stats={"expanded": recorder.expanded, "generated": recorder.generated,
                           "elapsed_s": round(time.perf_counter() - started, 6)})

    try:
        if puzzle.is_goal(puzzle.start):  # every search stops before its first step: the trace is the start alone
            recorder.root(puzzle.start, heuristic(puzzle.start))
            recorder.goal(puzzle.start)
        else:
            options = dict(options, record=recorder)
        result = yield from algorithm.start(puzzle, heuristic, limits or Limits(), options)
    except Truncated as limit:
        expanded = recorder.expanded
        done = f"{expanded:,} expansion{'' if expanded == 1 else 's'}"
        if str(limit) == "max_nodes":
            done += f" and {max_nodes:,} nodes"
        return cut(str(limit), f"stopped after {done} ({limit}), before reaching the goal")
    except (UserCodeError, SearchLimit) as e:
        return cut(e.reason or e.code, f"stopped after {recorder.expanded:,} expansions: {e}", stopped=e)
    path = recorder.solution()
    boards = [puzzle.format(puzzle.start)]
    state = puzzle.start
    for move in result.moves:
        state = puzzle.apply(state, move)
        boards.append(puzzle.format(state))
    if [recorder.nodes[node_id]["board"] for node_id in path] != boards:
        raise AssertionError(f"the traced path is not the path {algorithm.name} returned")
    recorder.steps.append({"type": "solution", "path": path})
    return dict(answer, expanded=recorder.expanded, truncated=False, length=len(result.moves), solution=path,
                moves=[move_record(move) for move in result.moves], stats=result.stats.as_dict())
