"""Pattern databases on the command line: `slidelab pdb`, and the tables a solve needs built first, the cost said."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from slidelab import api
from slidelab.cli.text import ProgressBar
from slidelab.heuristics.pdb import SHAPE_SUFFIX, cache_dir, parse_table_name, write_files

if TYPE_CHECKING:
    from slidelab.core.answers import Failed


def cost_line(table: Mapping[str, Any]) -> str:
    """What building a table costs, said before it is built."""

    def size(n):
        return f"{n / 1e6:,.0f} MB" if n >= 1e7 else f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.0f} kB"

    text = f"{table['name']}: {table['entries']:,} entries, {size(table['memory_bytes'])} in memory"
    if "build_s" in table:
        minutes = table["build_s"] / 60
        text += (f", a file of about {size(table['file_bytes'])}, "
                 + (f"about {minutes:,.0f} minutes" if minutes >= 1.5 else "under two minutes") + " of one core"
                 + f" and {size(table['build_memory_bytes'])} of memory to build")
    return text


def say_costs(status: Mapping[str, Any]) -> None:
    """On stderr, what each table of a pattern_databases answer that is not ready yet will cost to build."""
    for table in status["tables"]:
        if not table["ready"]:
            print(f"building {cost_line(table)}", file=sys.stderr)


def prepare_databases(request: dict) -> Failed | None:
    """Before a solve: build the pattern databases that search would use and the cache folder lacks (the api says
    which), saying first what each costs; the api's error answer if a build failed (numpy missing, a full disk),
    else None (a bad request is left for the solve to answer)."""
    status = api.pattern_databases(request)
    if status["ok"] and not status["ready"]:
        build_s = sum(table.get("build_s", 0) for table in status["tables"] if not table["ready"])
        seconds = request.get("max_seconds")
        if seconds and build_s > seconds:  # the time limit is the user's: no half-hour build before the search
            rows, cols, _ = parse_table_name(status["tables"][0]["name"])
            shape = f"{rows}x{cols}{SHAPE_SUFFIX[status['set'] or 'pdb']}"
            return api.error("limit", f"the {status['set']} tables are not built yet, and building them takes about "
                             f"{build_s / 60:.0f} minutes, beyond --max-seconds {seconds:g}: build them first "
                             f"(slidelab pdb {shape})")
        say_costs(status)
        bar = ProgressBar()
        built = api.pattern_databases(request, build=True, on_progress=bar)
        bar.close()
        if not built["ok"]:
            return built
    return None


def run(args) -> int:
    from slidelab.cli.text import report

    return report(args, pdb_command(args), print_pdb)


def pdb_command(args) -> dict | Failed:
    if args.scheduler and args.engine != "dask":
        return api.error("invalid", "--scheduler is for --engine dask")
    if not 1 <= args.workers <= api.MAX_WORKERS:
        return api.error("invalid", f"--workers must be from 1 to {api.MAX_WORKERS}")
    dask = {"scheduler": args.scheduler, "workers": args.workers} if args.engine == "dask" else None
    answers = []
    bar = ProgressBar()
    for shape in args.shapes:
        table_set = next((name for name, suffix in SHAPE_SUFFIX.items() if suffix and shape.endswith(suffix)), "pdb")
        board = shape[:len(shape) - len(SHAPE_SUFFIX[table_set])]
        query = {"shape": board, "tables": table_set, **({"goal": args.goal} if args.goal else {})}
        status = api.pattern_databases(query)
        if not status["ok"]:
            return status
        if not args.json:
            say_costs(status)
        answer = api.pattern_databases(query, build=True, on_progress=bar, dask=dask)
        if not answer["ok"]:
            bar.close()
            return answer
        answers.append({"shape": shape, "tables": answer["tables"]})
        if args.out:
            try:
                write_files([table["name"] for table in answer["tables"]], args.out)
            except OSError as e:
                bar.close()
                return api.error("invalid", f"cannot write the tables into {args.out}: {e.strerror or e}")
    bar.close()
    return {"ok": True, "folder": str(cache_dir()), "shapes": answers}


def print_pdb(answer: Mapping[str, Any]) -> None:
    for entry in answer["shapes"]:
        print(f"{entry['shape']}: " + ", ".join(t["name"] for t in entry["tables"]))
    print(f"ready, in {answer['folder']}")
