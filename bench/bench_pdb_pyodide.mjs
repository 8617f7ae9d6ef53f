// Pattern databases in Pyodide (the browser's Python), run by Node: how long installing the 4x4 and 3x4 files takes
// and how fast two hard positions are solved (docs/benchmarks.md, "heuristics and pattern databases").
//
//     node bench/bench_pdb_pyodide.mjs
//
// Needs dist/pyodide (python3 build.py builds it) and the tables in the cache folder ($SLIDELAB_PDB_DIR, else
// ~/.cache/slidelab/pdb; `slidelab pdb 4x4 3x4` builds them).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { loadPyodide } = await import(pathToFileURL(path.join(root, "dist", "pyodide", "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: path.join(root, "dist", "pyodide") + path.sep });

function copyTree(src, dst) {
  py.FS.mkdirTree(dst);
  for (const name of fs.readdirSync(src)) {
    const from = path.join(src, name);
    if (fs.statSync(from).isDirectory()) {
      if (name !== "__pycache__") copyTree(from, dst + "/" + name);
    } else {
      py.FS.writeFile(dst + "/" + name, fs.readFileSync(from));
    }
  }
}
copyTree(path.join(root, "pysrc", "slidelab"), "/home/pyodide/slidelab");

const folder = process.env.SLIDELAB_PDB_DIR || path.join(os.homedir(), ".cache", "slidelab", "pdb");
const names = fs.readdirSync(folder).filter((n) => /^(4x4|3x4)_.*\.slpdb$/.test(n)).sort();
py.globals.set("files", names.map((n) => [n, new Uint8Array(fs.readFileSync(path.join(folder, n)))]));
console.log(await py.runPythonAsync(`
import sys, time
sys.path.insert(0, "/home/pyodide")
from slidelab import api
lines = [f"Pyodide, Python {sys.version.split()[0]}"]
started = time.perf_counter()
for name, blob in files.to_py():
    data = bytes(blob)
    t = time.perf_counter()
    answer = api.install_pattern_database(data)
    lines.append(f"install {answer['name']}: {len(data):,} bytes, {time.perf_counter() - t:.2f} s")
lines.append(f"all installed in {time.perf_counter() - started:.2f} s")
for board, goal in [("13 5 4 10/9 12 8 14/2 3 7 1/0 15 11 6", "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"),
                    ("0 3 2 1/8 7 6 5/4 11 10 9", None)]:
    t = time.perf_counter()
    a = api.solve({"board": board, "goal": goal})
    s = a["stats"]
    lines.append(f"solve {board}: {a['length']} moves with {a['heuristic_used']}, {s['generated']:,} generated, "
                 f"{time.perf_counter() - t:.2f} s")
"\\n".join(lines)
`));
