"""The JSON boundary: every entry point takes JSON-able values and returns a JSON-able dict.

Used by the browser worker and the CLI alike. Nothing here raises for bad input: errors come back as
{"ok": false, "error": {"code": ..., "message": ...}} with code invalid, unsolvable, too_large, limit or cancelled,
or internal for a bug (an answer that does not replay, an unexpected exception): never a traceback.
Long requests come in two forms: `solve(request)` runs to the end; `solve_steps(request)` is a generator yielding
progress dicts and returning the answer, which the worker drives from an async loop so that it can cancel
(likewise `explore` and `explore_steps`, `trace` and `trace_steps`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, cast

from slidelab.api.error_answers import error, error_of, failure
from slidelab.core.errors import BadRequest, SlideLabError

# The api is this module: its entry points, limits and names come from the module of each concern, each imported on
# first use (a command or the page's first answer loads only what it runs).
_FROM = {
    "slidelab.api.solving": ("COMPARE_FLOOR_S", "MAX_SOLUTIONS", "MAX_TRACE_NODES", "PROBE_NODES", "VERIFY_SECONDS",
                             "solve", "solve_steps", "trace", "trace_steps"),
    "slidelab.api.space": ("MAX_FARTHEST", "PATH_SECONDS", "check_heuristic", "check_heuristic_steps", "explore",
                           "explore_puzzle", "explore_steps"),
    "slidelab.api.split_search": ("subtree_steps", "warm"),
    "slidelab.contract.request": ("DEFAULT_ALGORITHM", "DEFAULT_HEURISTIC", "EXPLORE_ENGINES", "MAX_EXAMPLES",
                                  "MAX_TRACE_STEPS", "MAX_WORKERS", "SOLVE_ENGINES", "make_puzzle", "may_split",
                                  "method_of", "option_of", "parse_solve"),
    "slidelab.heuristics": ("HEURISTICS",),
    "slidelab.search": ("ALGORITHMS",),
}
_MODULE_OF = {name: module for module, names in _FROM.items() for name in names}

if TYPE_CHECKING:  # the answers' types, for annotations only: an easy solve does not import them
    from slidelab.core.answers import Checked, Failed, Tables, TableStatus

if TYPE_CHECKING:
    from slidelab.api.solving import (  # noqa: F401 (the names __getattr__ gives)
        COMPARE_FLOOR_S,
        MAX_SOLUTIONS,
        MAX_TRACE_NODES,
        PROBE_NODES,
        VERIFY_SECONDS,
        solve,
        solve_steps,
        trace,
        trace_steps,
    )
    from slidelab.api.space import (  # noqa: F401 (the names __getattr__ gives)
        MAX_FARTHEST,
        PATH_SECONDS,
        check_heuristic,
        check_heuristic_steps,
        explore,
        explore_puzzle,
        explore_steps,
    )
    from slidelab.api.split_search import subtree_steps, warm  # noqa: F401
    from slidelab.contract.request import (  # noqa: F401 (the names __getattr__ gives)
        DEFAULT_ALGORITHM,
        DEFAULT_HEURISTIC,
        EXPLORE_ENGINES,
        MAX_EXAMPLES,
        MAX_TRACE_STEPS,
        MAX_WORKERS,
        SOLVE_ENGINES,
        make_puzzle,
        may_split,
        method_of,
        option_of,
        parse_solve,
    )
    from slidelab.heuristics import HEURISTICS  # noqa: F401
    from slidelab.search import ALGORITHMS  # noqa: F401

__all__ = ["error", "error_of", "failure", "pattern_databases", "install_pattern_database", "check", "splits",
           "describe", "preload", *_MODULE_OF]


def preload() -> None:
    """Import the parts the page's first answers use (describe, check, the tables a solve needs, solve), so that a
    memory snapshot taken after this holds them (web/js/pyodide_start.mjs); the rest is imported on first use."""
    for module in ("slidelab.api.solving", "slidelab.course.format", "slidelab.course.lessons",
                   "slidelab.heuristics.examples", "slidelab.run.compare", "slidelab.search.pdb_idastar"):
        importlib.import_module(module)


def __getattr__(name: str):
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'slidelab.api' has no attribute '{name}'")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def pattern_databases(request: dict, build: bool = False, on_progress=None, dask=None) -> Tables | Failed:
    """The pattern-database tables a request needs, and whether each is at hand: {"ok": true, "set" (the table set; None
    without tables), "tables": [{"name", "ready", "entries", "memory_bytes", and for the large tables "file_bytes",
    "build_s" and "build_memory_bytes" (estimates, said before building)}], "ready": bool}. A shape ({"shape": "4x4",
    "goal"?, "tables"?: one of pdb.TABLE_SETS}) asks for every table of that board; any other request is a solve
    request, answered with the tables that very search would use (none, "tables": [], when it waits for no pattern
    databases: a token puzzle, an algorithm without a heuristic or that answers at once (quick), a heuristic other
    than auto and the table sets, a board too large for tables with auto; auto uses the largest set at hand, or the
    one the request chooses: pdb.auto_table_set). This is the one place that decides it, for the CLI and the page
    alike. With `build`, missing tables are built and saved in the cache folder (the large ones on a Dask cluster
    with `dask`: {"scheduler", "workers"}), `on_progress({"type": "build", "table", "done", "total"})` told as it
    goes.
    """
    from slidelab.contract.request import option_of, parse_solve
    from slidelab.heuristics import pdb

    try:
        if isinstance(request, dict) and request.get("shape") is not None:
            from slidelab.api.space import explore_puzzle

            table_set = option_of(request, "tables", str, "pdb")
            if table_set not in pdb.TABLE_SETS:
                raise BadRequest(f"tables must be one of {', '.join(pdb.TABLE_SETS)}, not '{table_set[:20]}'")
            puzzle = explore_puzzle({k: v for k, v in request.items() if k != "tables"})
            if not pdb.plan(puzzle, table_set):
                raise pdb.no_tables(table_set)
        else:
            parsed = parse_solve(request)
            puzzle, method = parsed.puzzle, parsed.method
            heuristic_name = method.used
            uses = (method.spec.waits_for_tables and puzzle.kind == "sliding"
                    and heuristic_name in ("auto", *pdb.TABLE_SETS))
            table_set = heuristic_name if heuristic_name in pdb.TABLE_SETS else "pdb"
            if heuristic_name == "auto" and uses:
                table_set = pdb.auto_table_set(puzzle, method.tables) or "pdb"
            if heuristic_name in pdb.TABLE_SETS and uses and not pdb.plan(puzzle, table_set):
                raise pdb.no_tables(table_set)
            puzzle = puzzle if uses else None
        plan = pdb.plan(puzzle, table_set) if puzzle is not None else []
        if build:
            for name, rows, cols, cells in plan:
                def report(done, total, name=name):
                    if on_progress is not None:
                        on_progress({"type": "build", "table": name, "done": done, "total": total})
                pdb.ensure_table(name, rows, cols, cells, progress=report, dask=dask)
        tables = [cast("TableStatus", {"name": name, "ready": pdb.is_ready(name, rows, cols, cells),
                                     **pdb.cost(rows, cols, cells, pdb.is_ranked(name))})
                  for name, rows, cols, cells in plan]
        return {"ok": True, "set": table_set if tables else None, "tables": tables,
                "ready": all(t["ready"] for t in tables)}
    except Exception as e:
        return failure(e)


def install_pattern_database(data) -> dict | Failed:
    """Keep a pattern-database file's bytes (fetched by the browser worker) in memory for this session:
    {"ok": true, "name"}, or an error answer if the bytes are not a sound file."""
    from slidelab.heuristics import pdb

    try:
        return {"ok": True, "name": pdb.install(data)}
    except Exception as e:
        return failure(e)


def check(request: dict) -> Checked | Failed:
    """Validate a position without searching: its shape, formatted text and whether it is solvable."""
    from slidelab.contract.request import make_puzzle

    try:
        puzzle = make_puzzle(request)
        answer: Checked = {"ok": True, "puzzle": puzzle.kind, "board": puzzle.format(puzzle.start),
                           "goal": puzzle.format(puzzle.goal), "solvable": True, "rows": puzzle.rows,
                           "cols": puzzle.cols}
        if puzzle.kind == "tokens":  # rule, square names, removed cells
            drawn = puzzle.describe()
            answer.update({"rule": drawn["rule"], "squares": drawn["squares"], "removed": drawn["removed"]})
        puzzle.check_solvable()
        return answer
    except SlideLabError as e:
        if e.code == "unsolvable":
            answer.update({"solvable": False, "reason": str(e), "why": e.as_dict()})
            return answer
        return error_of(e)


def splits(request: dict) -> dict | Failed:
    """Whether the page's pool splits this solve request's search over its workers ({"ok": true, "splits": bool}):
    the engine's rule (requests.may_split), which web/js/pool.js asks rather than keeps."""
    from slidelab.contract.request import may_split

    try:
        return {"ok": True, "splits": may_split(request)}
    except Exception as e:
        return failure(e)


def describe() -> dict:
    """Every algorithm and heuristic with a one-line description (for selectors and `--help`; an algorithm also says
    whether its paths are shortest, whether it uses a heuristic, the puzzles it solves, the weight it takes by default
    (null for none) and whether it can be traced), the token-puzzle presets and move rules, and example heuristics
    in Python written against the user contract (heuristics/user.py), and the sets of pattern databases the page
    may offer to download, largest first ("download_tables": [{"name", "files": {shape: [file names]},
    "memory_bytes", "install_s"?}]; a solve request's "tables" names the one chosen), Compare's default pairs and
    time limits ("compare": compare.catalogue()), and the exercises and the lessons of Watch the search that come
    with Slide Lab ("exercises": [{"id", "title"}], "lessons": course/lessons.py's catalogue())."""
    from slidelab.api.solving import MAX_TRACE_NODES
    from slidelab.contract.request import MAX_TRACE_STEPS
    from slidelab.core.puzzles.tokens import PRESETS, RULE_DESCRIPTIONS
    from slidelab.course.format import catalogue as exercise_catalogue
    from slidelab.course.lessons import catalogue as lessons
    from slidelab.heuristics import HEURISTICS, pdb
    from slidelab.heuristics.examples import examples
    from slidelab.run.compare import catalogue as compare_catalogue
    from slidelab.search import ALGORITHMS

    return {
        "algorithms": [{"name": a.name, "title": a.title, "label": a.label, "description": a.description,
                        "optimal": a.optimal,
                        "uses_heuristic": a.uses_heuristic, "puzzles": sorted(a.kinds),
                        "default_weight": a.default_weight, "traceable": a.traceable} for a in ALGORITHMS.values()],
        "heuristics": [{"name": h.name, "title": h.title, "label": h.label, "description": h.description,
                        "puzzles": sorted(h.kinds), "browser": h.browser} for h in HEURISTICS.values()],
        "presets": [p.as_dict() for p in PRESETS.values()],
        "rules": [{"name": name, "description": text} for name, text in RULE_DESCRIPTIONS.items()],
        "heuristic_examples": examples(),
        "trace": {"max_steps": MAX_TRACE_STEPS, "max_nodes": MAX_TRACE_NODES},
        "download_tables": pdb.download_tables(),
        "compare": compare_catalogue(),
        "exercises": exercise_catalogue(),
        "lessons": lessons(),
    }
