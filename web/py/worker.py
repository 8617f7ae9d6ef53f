"""The solver worker: a thin message loop over slidelab.api, run by PyScript in a web worker.

Long requests drive the api's step generators from an `async def`, posting each progress dict to the page and
awaiting `asyncio.sleep(0)` between two steps, so that a `cancel()` call from the page is handled while a search runs
(the engine yields only about every 0.1 s, which keeps this cheap).
"""

import asyncio
import json
import os

import js
from polyscript import xworker
from pyodide.ffi import can_run_sync, run_sync, to_js

from slidelab import api  # its parts are imported on first use: the page's first answer loads only what it needs

# Requests are numbered; cancel() cancels every one started before it (a flag that a new request cleared could lose
# a cancel aimed at the previous one).
_started = 0
_cancel_below = 0


def _js(value):
    return to_js(value, dict_converter=js.Object.fromEntries)


# Code of the user's own heuristic runs in this worker with this origin's rights. Before the first such code runs,
# the worker gives up what could change what the app keeps: Cache Storage (the app's files, the tables, the memory
# snapshot every later start restores), IndexedDB, new workers (a fresh global would have both back) and the
# storage manager, and the network (code that sends what it reads, or fetches what it should compute), same origin
# included. Deleted from the prototypes, they cannot be reached again from this global. So that no new JavaScript can
# be compiled here (import() needs source: the only way left to load a module), eval, every kind of function's
# constructor and timers given text are replaced by a function that refuses. Nothing the worker does after its start
# needs any of them (tables come from the page as bytes).
_LOCK_DOWN = """
const NETWORK = ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'WebTransport'];
for (const [owner, names] of [
  [globalThis, ['caches', 'indexedDB', 'Worker', 'SharedWorker', 'BroadcastChannel', 'importScripts', ...NETWORK]],
  [Object.getPrototypeOf(globalThis), ['caches', 'indexedDB', 'importScripts', 'fetch']],
  [globalThis.WorkerGlobalScope?.prototype, ['caches', 'indexedDB', 'importScripts', 'fetch']],
  [globalThis.WorkerNavigator?.prototype, ['serviceWorker', 'storage']],
]) {
  for (const name of names) if (owner) delete owner[name];
}
const refuse = () => { throw new EvalError('no code is compiled in this worker'); };
// a constructor that refuses, with its original's prototype: `instanceof` keeps working
const refusing = original => Object.defineProperty(function () { refuse(); }, 'prototype',
  { value: original.prototype });
const kinds = [function () {}, async function () {}, function* () {}, async function* () {}];
for (const kind of kinds) {
  const prototype = Object.getPrototypeOf(kind);
  Object.defineProperty(prototype, 'constructor', { value: refusing(prototype.constructor), writable: false,
    configurable: false });
}
Object.defineProperty(globalThis, 'Function', { value: Function.prototype.constructor, writable: false,
  configurable: false });
Object.defineProperty(globalThis, 'eval', { value: refuse, writable: false, configurable: false });
for (const name of ['setTimeout', 'setInterval']) {
  const timer = globalThis[name];
  Object.defineProperty(globalThis, name, { writable: false, configurable: false,
    value: (callback, ...rest) => typeof callback === 'function' ? timer(callback, ...rest) : refuse() });
}
let compiles = true;
try { (0, globalThis.eval)('1'); } catch { compiles = false; }
return typeof caches === 'undefined' && typeof indexedDB === 'undefined' && typeof Worker === 'undefined'
  && typeof fetch === 'undefined' && !compiles;
"""
_locked = False


def _hold_recursion_limit():
    """Keep Python's recursion limit at most where it is (1000). Code that raises it recurses on in a browser (a
    Python call takes no stack of the browser's) until the limit, slowly, and then overflows the browser's stack while
    the frames are let go (at about 4,000 frames in Chromium): it would get the time limit or a crash of the runtime
    where the command line says it recursed too deeply, with the line and the board. Held, it says the same here."""
    import sys

    get_limit, set_limit = sys.getrecursionlimit, sys.setrecursionlimit
    held = get_limit()

    def setrecursionlimit(limit):
        set_limit(limit)  # its own checks and messages
        set_limit(min(get_limit(), held))

    sys.setrecursionlimit = setrecursionlimit


def _py(value):
    global _locked
    value = value.to_py() if hasattr(value, "to_py") else value
    if not _locked and isinstance(value, dict) and value.get("heuristic_code") is not None:
        if not js.Function(_LOCK_DOWN)():
            raise RuntimeError("this browser keeps storage reachable from the worker: your heuristic cannot run here")
        _hold_recursion_limit()
        _locked = True
    return value


async def _drive(steps, kept=None):
    """Run a generator of steps to its answer: each progress event is posted to the page; an event {"ask": ...}
    (grading) is a question to the page, whose reply() is sent back into the generator. A search whose checkpoint
    the page keeps (`kept`, a _KeptCheckpoint) posts the file each time it was written."""
    global _started
    number = _started
    _started += 1
    answer = None
    try:
        while True:
            event = steps.send(answer)
            answer = None
            if "ask" in event:
                answer = await _asked(event)
            else:
                xworker.postMessage(_js(event))
                if kept is not None:
                    kept.post()
                await asyncio.sleep(0)
            if number < _cancel_below:
                steps.close()  # a split search writes its checkpoint as it stops
                return api.error("cancelled", "the search was cancelled")
    except StopIteration as stop:
        return stop.value
    finally:
        if kept is not None:
            kept.post()


class _KeptCheckpoint:
    """The checkpoint of a page's split search (the command line's `--checkpoint` file format), kept in this worker's
    own file system and posted to the page, which keeps it in the browser's storage, as {"type": "checkpoint",
    "text"} each time the search wrote it. The page asks for it with two keys of its own: `keep_checkpoint` (true),
    and `resume_text`, a checkpoint to go on from (one the page kept, or a file from the command line)."""

    FILE = "page-search-checkpoint.json"

    def __init__(self, request):
        resume_text = request.pop("resume_text", None)
        self.wanted = request.pop("keep_checkpoint", False) or resume_text is not None
        self.wanted = self.wanted and request.get("engine") == "page"  # only a split search keeps one
        self.posted = resume_text
        if not self.wanted:
            return
        if os.path.exists(self.FILE):
            os.remove(self.FILE)
        if isinstance(resume_text, str):
            with open(self.FILE, "w", encoding="utf-8") as file:
                file.write(resume_text)
            request["resume"] = self.FILE
        request["checkpoint"] = self.FILE

    def post(self):
        try:
            with open(self.FILE, encoding="utf-8") as file:
                text = file.read()
        except OSError:
            return
        if text != self.posted:
            self.posted = text
            xworker.postMessage(_js({"type": "checkpoint", "text": text}))


async def solve(request):
    request = _py(request)
    kept = _KeptCheckpoint(request)
    return _js(await _drive(api.solve_steps(request), kept if kept.wanted else None))


async def explore(request):
    return _js(await _drive(api.explore_steps(_py(request))))


async def trace(request):
    # a trace is large (about 1 MB of JSON for 2,000 expansions): as one string it crosses to the page in a few ms,
    # where a converted object took about 40 ms of the page's main thread (bench/bench_watch.py); the bridge parses it
    return json.dumps(await _drive(api.trace_steps(_py(request))), separators=(",", ":"))


# a pool worker of the page's split search (web/js/pool.js): the subtrees the page's solver hands it, reporting every
# PageCarrier.PROGRESS_S (a stop reaches this worker when it reports)
async def subtree(request):
    from slidelab.run.carriers import PageCarrier

    return _js(await _drive(api.subtree_steps(_py(request), PageCarrier.PROGRESS_S)))


async def check_heuristic(request):
    return _js(await _drive(api.check_heuristic_steps(_py(request))))


def check(request):
    return _js(api.check(_py(request)))


def describe():
    return _js(api.describe())


def splits(request):
    return _js(api.splits(_py(request)))


def warm(request):
    return _js(api.warm(_py(request)))


def pattern_databases(request):
    return _js(api.pattern_databases(_py(request)))


class _PageFile:
    """A file's bytes the page holds (a Uint8Array), read as a file a chunk at a time: the whole file (85 MB for the
    7-8 set's larger table) is never copied into Python's memory at once."""

    def __init__(self, array):
        self.array, self.at, self.size = array, 0, array.length

    def read(self, n=-1):
        end = self.size if n < 0 else min(self.size, self.at + n)
        chunk = self.array.subarray(self.at, end).to_bytes()
        self.at = end
        return chunk


def install_pattern_database(data):
    # the page fetches the file and passes its bytes (a copy, this worker's own), which are let go once read: the
    # message that brought them keeps them otherwise (92 MB of a worker holding the 7-8 tables)
    if not hasattr(data, "subarray"):
        return _js(api.install_pattern_database(_py(data)))
    try:
        return _js(api.install_pattern_database(_PageFile(data)))
    finally:
        if hasattr(data.buffer, "transfer"):
            data.buffer.transfer(0)  # the buffer is detached: its bytes are freed with the copy


def _course():
    """What the page's workers answer of exercises (course/page.py), imported by the first request that needs it."""
    from slidelab.course import page

    return page


def exercise(name, request):
    """open, hand_in or table (course/page.py): no code runs."""
    return _js(_course().answer(name, _py(request)))


# A hand-in's heuristic, in a worker of its own that is started afresh for each hand-in and runs nothing else
# (grading.js): compile it, then h of the states the grading worker asks for through the page.
def evaluator_start(request):
    return _js(_course().answer("evaluator_start", _py(request)))


def evaluate(request):
    return _js(_course().answer("evaluate", _py(request)))


# The grading worker: it never runs anyone's code (a worker that did is refused), and asks the page for h's values,
# which the page asks of the evaluating worker; reply() brings each answer. Where the whole space fits, the values are
# asked for before the grading begins (an "ask" step of the generator, awaited by _drive); on a larger board the
# grading code asks as it goes, a plain call that waits for the same question by a stack switch (run_sync:
# JavaScript Promise Integration) while this worker's loop takes the reply.
_reply = {}


async def _asked(event):
    answered = asyncio.get_running_loop().create_future()
    _reply["settle"] = answered.set_result
    xworker.postMessage(_js(event))
    return await answered


def _ask_page(message):
    return run_sync(_asked({"ask": message}))


def reply(answer):
    """The page's answer to this worker's question (the grading worker's, or the pool's scheduler's)."""
    settle = _reply.pop("settle", None)
    if settle is not None:
        settle(answer.to_py() if hasattr(answer, "to_py") else answer)


async def grade(request):
    if _locked:
        return _js(api.error("invalid", "this worker ran someone's code: it does not grade"))
    ask = _ask_page if can_run_sync() else None
    return _js(await _drive(_course().grading_steps(_py(request), ask)))


def cancel():
    global _cancel_below
    _cancel_below = _started


__export__ = ["solve", "explore", "trace", "check", "splits", "warm", "describe", "pattern_databases",
              "install_pattern_database", "cancel", "subtree", "check_heuristic", "exercise", "evaluator_start",
              "evaluate", "grade", "reply"]
