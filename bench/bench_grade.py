"""Grading a class: N hand-ins of an 8-puzzle heuristic task (each proved over all 181,440 positions and searched on
5 positions), some looping, one inadmissible, graded by `slidelab grade` on one worker and on two, in the same run,
and with --page in the page too (headless Chromium on dist/, its Grade view) (docs/benchmarks.md, "Grading a
class").

    .venv/bin/python bench/bench_grade.py [--students 30] [--looping 2] [--max-seconds 10] [--workers 2] [--page]

Prints the wall time of each run, their ratio and the rows' totals (the tables must be equal).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pysrc"))

from slidelab.course import make_handin, read_exercise  # noqa: E402
from slidelab.heuristics.examples import source  # noqa: E402

EXERCISE = """
format = 1
id = "bench-grade"
title = {{ en = "Grading a class" }}
goal = "1 2 3/4 5 6/7 8 0"
{positions}
[[tasks]]
id = "length"
kind = "measure"
title = {{ en = "Length of a" }}
position = "a"
algorithm = "astar"
heuristic = "manhattan"
quantity = "length"

[[tasks]]
id = "yours"
kind = "heuristic"
title = {{ en = "Yours" }}
max_seconds = {seconds}
criteria = [
  {{ check = "admissible", points = 2 }},
  {{ check = "consistent" }},
  {{ check = "nodes", algorithm = "astar", positions = ["a", "b", "c", "d", "e"], at_most = 40000 }},
  {{ check = "informed", reference = "misplaced" }},
]
"""
FIXED = """[positions]
a = "8 6 7/2 5 4/3 0 1"
b = "6 4 7/8 5 0/3 2 1"
c = "7 8 2/6 3 4/5 0 1"
d = "0 8 2/3 4 5/1 7 6"
e = "1 3 6/4 0 8/7 2 5"
"""
DRAWN = """[positions]
a = { distance = [24, 28] }
b = { distance = [24, 28] }
c = { distance = [24, 28] }
d = { distance = [24, 28] }
e = { distance = [24, 28] }
"""  # each student their own five positions, as far as the fixed ones are (25 to 31 moves)
LOOPING = "def h(board):\n    while True:\n        try:\n            while True:\n                pass\n" \
          "        except:  # noqa: E722\n            pass\n"
KINDS = ["manhattan", "misplaced", "sometimes_manhattan"]


def hand_ins(folder: Path, exercise, students: int, looping: int) -> list[str]:
    paths = []
    for n in range(students):
        if n < looping:
            code = LOOPING
        elif n == looping:
            code = source("twice_manhattan")
        else:
            code = source(KINDS[n % len(KINDS)]) + f"\n# student {n}\n"
        path = folder / f"student{n:02}.json"
        path.write_text(json.dumps(make_handin(exercise, f"student {n:02}", {}, {"yours": code}, "bench")))
        paths.append(str(path))
    return paths


def grade(exercise_file: Path, paths: list[str], workers: int) -> tuple[float, list]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "slidelab", "grade", str(exercise_file), *paths, "--workers",
                           str(workers), "--json"], capture_output=True, text=True, cwd=ROOT, check=True,
                          env={"PYTHONPATH": str(ROOT / "pysrc"), "PATH": "/usr/bin:/bin"})
    return time.perf_counter() - started, json.loads(done.stdout)["rows"]


def grade_in_page(text: str, paths: list[str]) -> tuple[float, list]:
    """Grade the files in the page's Grade view: (seconds from the click on Grade to the last row, [(student,
    total)]). The page's start is not counted."""
    import shutil
    from urllib.parse import quote

    from playwright.sync_api import expect, sync_playwright

    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    import build

    from bench_browser import ARGS

    server, url = build.serve_in_thread(build.DIST)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium") or None, args=ARGS)
        page = browser.new_page()
        page.goto(url + "#exercise-text=" + quote(text, safe=""))
        expect(page.locator("#exercise .exercise-title")).to_be_visible(timeout=120_000)
        page.click("#exercise .grade-view summary")
        page.set_input_files("#exercise .grade-files", paths)
        started = time.perf_counter()
        page.click("#exercise .grade-run")
        expect(page.locator("#exercise .grade-progress")).to_contain_text(
            f"Graded {len(paths)} of {len(paths)} in", timeout=1800_000)
        seconds = time.perf_counter() - started
        rows = [row.split("\t") for row in page.locator("#exercise .grade-table tbody tr").all_inner_texts()]
        browser.close()
    server.shutdown()
    return seconds, [(row[0], float(row[-2].split("/")[0])) for row in rows]


def variants(args) -> None:
    """The same class graded with fixed positions and with each student's own, in turn (--rounds 1 each)."""
    times = {}
    for name, positions in (("fixed", FIXED), ("drawn", DRAWN)):
        text = EXERCISE.format(seconds=args.max_seconds, positions=positions)
        exercise = read_exercise(text)
        with tempfile.TemporaryDirectory() as folder:
            exercise_file = Path(folder) / "bench-grade.toml"
            exercise_file.write_text(text)
            paths = hand_ins(Path(folder), exercise, args.students, args.looping)
            times[name], rows = grade(exercise_file, paths, args.workers)
            if args.page and name == "drawn":
                page_s, page_totals = grade_in_page(text, paths)
                same = sorted(page_totals) == sorted((row["student"], row["total"]) for row in rows)
                print(f"drawn positions in the page: {page_s:.1f} s; table {'equal' if same else 'DIFFERENT'}")
        starts = {row["positions"]["a"] for row in rows if row.get("positions")}
        print(f"{name} positions: {times[name]:.1f} s on {args.workers} workers"
              + (f" ({len(starts)} different starts a)" if starts else ""))
    print(f"each student their own positions: {times['drawn'] / times['fixed']:.2f} of the fixed ones' time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--looping", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--page", action="store_true", help="grade them in the page too (build dist/ first)")
    parser.add_argument("--variants", action="store_true", help="each student their own five positions (drawn), "
                        "graded on --workers beside the same class with the fixed ones")
    args = parser.parse_args()
    if args.variants:
        return variants(args)
    text = EXERCISE.format(seconds=args.max_seconds, positions=FIXED)
    exercise = read_exercise(text)
    with tempfile.TemporaryDirectory() as folder:
        exercise_file = Path(folder) / "bench-grade.toml"
        exercise_file.write_text(text)
        paths = hand_ins(Path(folder), exercise, args.students, args.looping)
        one_s, one = grade(exercise_file, paths, 1)
        many_s, many = grade(exercise_file, paths, args.workers)
        if args.page:
            page_s, page_totals = grade_in_page(text, paths)
    totals = [(row["student"], row["total"]) for row in one]
    same = totals == [(row["student"], row["total"]) for row in many]
    print(f"{args.students} hand-ins ({args.looping} looping, each stopped at {args.max_seconds:g} s of its code; "
          "1 inadmissible)")
    print(f"1 worker: {one_s:.1f} s; {args.workers} workers: {many_s:.1f} s; ratio {many_s / one_s:.2f}; "
          f"tables {'equal' if same else 'DIFFERENT'}")
    print("totals: " + ", ".join(f"{total:g}" for _, total in totals))
    if args.page:
        same_page = sorted(totals) == sorted(page_totals)
        print(f"in the page: {page_s:.1f} s ({page_s / one_s:.2f} of 1 worker on the command line); "
              f"table {'equal' if same_page else 'DIFFERENT'}")
        same = same and same_page
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
