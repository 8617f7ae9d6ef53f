"""One long split search stopped twice, a Dask worker killed and then the client, and resumed from its checkpoint,
against the same search uninterrupted: the same length, and how many nodes each counted (docs/benchmarks.md, "The
24-puzzle").

    PYTHONPATH=pysrc SLIDELAB_PDB_DIR=.cache/pdb python3 bench/bench_resume.py --id 44 [--kill-worker-at 20]
        [--kill-client-at 45] [--workers 2]

A local Dask cluster of --workers processes serves every run, each a `slidelab solve` process of its own (the
client). First the search uninterrupted; then with --checkpoint: --kill-worker-at seconds in, one worker process is
killed (SIGKILL; its nanny starts another, which joins); --kill-client-at seconds in, the client is killed (SIGKILL);
then `--resume` goes on to the end. The positions are Korf and Felner's (bench_24.py: --file, --goal and
--heuristic choose others).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pysrc"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_24 import add_position_options, read_positions  # noqa: E402
from slidelab.core import cluster  # noqa: E402


def command(board, args, address, *more) -> list:
    return [sys.executable, "-m", "slidelab", "solve", board, "--goal", args.goal, "--heuristic", args.heuristic,
            "--scheduler", address, "--json", *more]


def environment() -> dict:
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "pysrc"), os.environ.get("PYTHONPATH", "")]))


def solved(args_list) -> tuple[dict, float]:
    started = time.perf_counter()
    out = subprocess.run(args_list, capture_output=True, text=True, env=environment(), check=False).stdout
    return json.loads(out), time.perf_counter() - started


def dask_workers() -> list:
    """The local cluster's worker processes (multiprocessing's spawn, started by the nannies of this process)."""
    import psutil

    return [p for p in psutil.Process().children(recursive=True) if "spawn_main" in " ".join(p.cmdline())]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--id", type=int, default=44)
    add_position_options(parser)
    parser.add_argument("--kill-worker-at", type=float, default=20)
    parser.add_argument("--kill-client-at", type=float, default=45)
    args = parser.parse_args()
    board, length, _ = read_positions(args.file)[args.id]
    checkpoint = os.path.join(tempfile.mkdtemp(), f"{args.id}.json")
    with cluster.local_cluster(args.workers) as local:
        address = local.scheduler_address
        whole, whole_s = solved(command(board, args, address))
        print(f"#{args.id} uninterrupted: {whole['length']} moves, generated {whole['stats']['generated']:,}, "
              f"expanded {whole['stats']['expanded']:,}, {whole_s:.1f} s", flush=True)

        client = subprocess.Popen(command(board, args, address, "--checkpoint", checkpoint), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, env=environment())
        started = time.perf_counter()
        time.sleep(args.kill_worker_at)
        victim = dask_workers()[0]
        victim.kill()
        print(f"{time.perf_counter() - started:.1f} s: killed worker process {victim.pid}", flush=True)
        time.sleep(max(args.kill_client_at - (time.perf_counter() - started), 0))
        client.send_signal(signal.SIGKILL)
        client.wait()
        first_s = time.perf_counter() - started
        with open(checkpoint, encoding="utf-8") as file:
            state = json.load(file)
        recorded = state["counted"]["generated"] + sum(d["generated"] for d in state["done"])
        print(f"{first_s:.1f} s: killed the client; its checkpoint: bound {state['bound']}, "
              f"{len(state['done'])} tasks of the iteration done, {recorded:,} generated recorded", flush=True)

        resumed, resumed_s = solved(command(board, args, address, "--resume", checkpoint))
    if not resumed.get("ok"):
        print(f"resumed: {resumed.get('error')}")
        return 1
    ratio = resumed["stats"]["generated"] / whole["stats"]["generated"]
    print(f"resumed: {resumed['length']} moves, generated {resumed['stats']['generated']:,} in all "
          f"({ratio:.3f} of the uninterrupted run's), {resumed_s:.1f} s; both runs {first_s + resumed_s:.1f} s "
          f"against {whole_s:.1f} s")
    return 0 if resumed["length"] == whole["length"] == length else 1


if __name__ == "__main__":
    sys.exit(main())
