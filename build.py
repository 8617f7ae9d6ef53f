#!/usr/bin/env python3
"""Set up, build, serve and test Slide Lab (standard library only).

    python3 build.py serve [--port N]   build dist/ and serve it on 127.0.0.1 (default port 8000)
    python3 build.py build              build the static site into dist/ only
    ... serve|build --with-78           the same, the page also offering the 15-puzzle's 7-8 tables (92 MB; the first
                                        time builds them: about half an hour of one core and 4.7 GB of memory)
    ... serve|build --with-6666         the same, the page also offering the 24-puzzle's 6-6-6-6 tables (13 MB; the
                                        first time builds them: about half an hour of one core and 2.6 GB of memory)
    python3 build.py test [PYTEST ARGS] set up .venv and a Chromium, build, run every test (unit and browser)

Everything downloaded is pinned and cached under .cache/, so a second run is fast and needs no network. The built
site needs no network at all: Pyodide, PyScript, micropip and the slidelab wheel are all served from dist/.
"""

from __future__ import annotations

import argparse
import base64
import functools
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import tarfile
import threading
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent
CACHE = ROOT / ".cache"
DIST = ROOT / "dist"
VENV = ROOT / ".venv"
WEB = ROOT / "web"
PYSRC = ROOT / "pysrc"

PYODIDE_VERSION = "314.0.7"
PYSCRIPT_VERSION = "0.7.31"
AXE_VERSION = "4.14.1"  # axe-core, for the accessibility checks of the browser tests only (never in dist/)
MICROPIP_VERSION = "0.11.1"  # the version pyodide 314's lock file names; PyPI's wheel has another hash (patched)
# What each download must be, byte for byte: a changed package fails the build instead of shipping. npm's
# `dist.integrity` (npm view NAME@VERSION dist.integrity) of each tarball, and the SHA-256 of PyPI's micropip wheel.
NPM_INTEGRITY = {
    ("pyodide", PYODIDE_VERSION):
        "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A==",
    ("@pyscript/core", PYSCRIPT_VERSION):
        "sha512-GqM1aonc1N4RTkNZ1zJ8jJk8+i2cqeztZslPsAiQtn+wHHkUX9Z1FgIg4HjCvhBylB68UKmbTVTzOobpgPIMVQ==",
    ("axe-core", AXE_VERSION):
        "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==",
}
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"]
TEST_EXTRAS = "test,build,scale"  # the optional-dependencies groups of pyproject.toml installed into .venv
BUILD_VENV = CACHE / "build-venv"  # numpy only, for `build` and `serve`
BUILD_NUMPY = "numpy>=1.26"
# the command line's alone, not in the browser's wheel (a folder: all it holds): the command line and batches, numpy
# code, the Linux sandbox, wheels and course bundles
BUILD_ONLY = {"slidelab/cli/", "slidelab/batch/", "slidelab/__main__.py", "slidelab/space/pdb_builder_numpy.py",
              "slidelab/run/namespaces.py", "slidelab/run/seccomp.py", "slidelab/core/wheel.py",
              "slidelab/course/exports.py"}
# pattern databases served to the browser (3x4 tables also serve 4x3); 4x4-771: the 7-7-1 tables the page offers as a
# download (they come with the package: copied, not built); the large sets served only when asked (--with-78,
# --with-6666): the 15-puzzle's 7-8 tables, the 24-puzzle's 6-6-6-6 ones
PDB_SHAPES = ["4x4", "3x4", "4x4-771"]
PDB_ASKED = {"78": "4x4-78", "6666": "5x5-6666"}
PDB_CACHE = CACHE / "pdb"  # built once, reused by every later build and by the tests (SLIDELAB_PDB_DIR)
EXPLORED_SHAPES = ["3x4", "4x3", "2x6", "6x2"]  # 12-cell boards: explored once with numpy, served as data/explored.json
EXPLORED_CACHE = CACHE / "explored"

MIME_TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".py": "text/x-python",
    ".bin": "application/octet-stream",
}


def log(message: str) -> None:
    print(f"[build] {message}", flush=True)


def run(cmd, **kwargs) -> None:
    log("$ " + " ".join(str(c) for c in cmd))
    subprocess.run([str(c) for c in cmd], check=True, **kwargs)


def project_version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


# ---------------------------------------------------------------------------------------------------------------
# Fetching the pinned runtime (npm packages and the micropip wheel), cached under .cache/


def npm_package(name: str, version: str) -> Path:
    """The unpacked `package/` folder of an npm package, fetched with `npm pack` once, checked against its pinned
    integrity (NPM_INTEGRITY) and cached; the cache records that integrity, so a changed pin fetches it again."""
    pinned = NPM_INTEGRITY[name, version]
    target = CACHE / "npm" / f"{name.replace('/', '_')}-{version}"
    marker = target / "integrity"
    if not (target / "package" / "package.json").exists() or not marker.exists() or marker.read_text() != pinned:
        if shutil.which("npm") is None:
            sys.exit("build.py: npm is needed to fetch Pyodide and PyScript (apt-get install npm)")
        download = CACHE / "npm" / "download"
        shutil.rmtree(download, ignore_errors=True)
        download.mkdir(parents=True)
        run(["npm", "pack", "--silent", f"{name}@{version}", "--pack-destination", download], cwd=download,
            stdout=subprocess.DEVNULL)
        (tgz,) = download.glob("*.tgz")
        check_download(tgz, pinned, f"the npm package {name}@{version}")
        partial = target.with_name(target.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        with tarfile.open(tgz) as archive:
            archive.extractall(partial, filter="data")
        (partial / "integrity").write_text(pinned)
        shutil.rmtree(target, ignore_errors=True)
        partial.rename(target)
        shutil.rmtree(download)
    return target / "package"


def micropip_wheel() -> Path:
    """micropip for Pyodide's Python (3.14), downloaded with pip once, checked against MICROPIP_SHA256, cached."""
    folder = CACHE / "wheels"
    wheel = folder / f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
    if not wheel.exists():
        run([sys.executable, "-m", "pip", "download", f"micropip=={MICROPIP_VERSION}", "--no-deps",
             "--python-version", "3.14", "--only-binary=:all:", "-d", folder, "--quiet"])
    try:
        check_download(wheel, "sha256-" + base64.b64encode(bytes.fromhex(MICROPIP_SHA256)).decode(),
                       f"micropip {MICROPIP_VERSION}")
    except SystemExit:
        wheel.unlink()  # not kept: the next build downloads it again
        raise
    return wheel


def check_download(path: Path, integrity: str, what: str) -> None:
    """Stop the build unless the file's bytes have the pinned integrity ("sha512-<base64>" or "sha256-<base64>")."""
    algorithm, _, expected = integrity.partition("-")
    found = base64.b64encode(hashlib.new(algorithm, path.read_bytes()).digest()).decode()
    if found != expected:
        sys.exit(f"build.py: {what} is not the pinned one ({algorithm} {found}, pinned {expected}); the build stops "
                 "rather than ship a changed package")


# ---------------------------------------------------------------------------------------------------------------
# The slidelab wheel for the browser


def build_wheel(out_dir: Path) -> Path:
    """Pack pysrc/slidelab (its modules less BUILD_ONLY, and its data/: tables, exercises) into a py3-none-any wheel
    for the browser (slidelab/core/wheel.py); deterministic for the same sources."""
    sys.path.insert(0, str(PYSRC))
    from slidelab.core.wheel import package_files, wheel

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

    def browser(path: str) -> bool:
        if path in BUILD_ONLY or any(path.startswith(folder) for folder in BUILD_ONLY if folder.endswith("/")):
            return False
        return path.endswith(".py") or path.startswith(f"{meta['name']}/data/") and (
            path.endswith(".toml") or path.count("/") == 2 and path.endswith(".txt"))

    name, data = wheel(package_files(PYSRC / meta["name"], browser), meta["version"], meta["name"],
                       meta["description"], meta["requires-python"], meta.get("scripts", {}))
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / name).write_bytes(data)
    return out_dir / name


# ---------------------------------------------------------------------------------------------------------------
# Assembling dist/


def build_pattern_databases(out_dir: Path, python: str = sys.executable, asked: tuple = ()) -> None:
    """Write the served pattern-database files into out_dir, building missing ones into .cache/pdb first, and their
    sizes into out_dir/files.json ({"files": {name: bytes}}: which tables the page may offer, and what a download
    costs).

    The first build takes minutes (faster when numpy is importable by `python`); later builds copy the cache. The
    large sets `asked` (keys of PDB_ASKED) too: the first build of each takes about half an hour of one core.
    """
    env = dict(os.environ, PYTHONPATH=str(PYSRC), SLIDELAB_PDB_DIR=str(PDB_CACHE))
    shapes = [*PDB_SHAPES, *(PDB_ASKED[name] for name in asked)]
    run([python, "-m", "slidelab", "pdb", *shapes, "--out", out_dir], env=env)
    sizes = {path.name: path.stat().st_size for path in sorted(Path(out_dir).glob("*.slpdb"))}
    (Path(out_dir) / "files.json").write_text(json.dumps({"files": sizes}, indent=0) + "\n")


def build_explored(out_file: Path, python: str = sys.executable) -> None:
    """Write the whole state spaces of the 12-cell boards (default goal) to `out_file`, exploring each once with the
    numpy engine into .cache/explored/ (about 20 s of CPU a board). Without numpy the file is left out, and the page
    says those boards are too large to explore."""
    env = dict(os.environ, PYTHONPATH=str(PYSRC))
    boards = {}
    for shape in EXPLORED_SHAPES:
        cached = EXPLORED_CACHE / f"{shape}.json"
        if not cached.exists():
            command = [python, "-m", "slidelab", "explore", shape, "--engine", "numpy", "--json"]
            log("$ " + " ".join(map(str, command)))
            done = subprocess.run(command, env=env, capture_output=True, text=True)
            if done.returncode:
                log(f"no explore data for {shape} (this Python has no numpy?): {done.stderr.strip()[:200]}")
                return
            EXPLORED_CACHE.mkdir(parents=True, exist_ok=True)
            cached.write_text(done.stdout)
        boards[shape] = json.loads(cached.read_text())
    out_file.parent.mkdir(parents=True, exist_ok=True)
    out_file.write_text(json.dumps({"command": "slidelab explore SHAPE --engine numpy --json", "boards": boards}))


def build_site(python: str | None = None, asked: tuple = ()) -> Path:
    """Assemble the static site in dist/: the web app, Pyodide, PyScript, micropip, the slidelab wheel and the
    pattern databases (the large sets `asked` too: PDB_ASKED), and the explored state spaces of the 12-cell boards."""
    pyodide = npm_package("pyodide", PYODIDE_VERSION)
    pyscript = npm_package("@pyscript/core", PYSCRIPT_VERSION)
    micropip = micropip_wheel()
    staging = ROOT / "dist.partial"
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(WEB, staging)

    runtime = staging / "pyodide"
    runtime.mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide / name, runtime / name)
    lock = json.loads((pyodide / "pyodide-lock.json").read_text())
    entry = lock["packages"]["micropip"]
    entry["file_name"] = micropip.name
    entry["sha256"] = MICROPIP_SHA256  # the pinned wheel, checked when it was fetched
    (runtime / "pyodide-lock.json").write_text(json.dumps(lock))
    shutil.copy2(micropip, runtime / micropip.name)

    core = staging / "pyscript"
    core.mkdir()
    for path in sorted((pyscript / "dist").iterdir()):
        if path.suffix in (".js", ".css"):
            shutil.copy2(path, core / path.name)

    python = python or build_python()
    build_pattern_databases(staging / "pdb", python, asked)
    build_explored(staging / "data" / "explored.json", python)
    wheel = build_wheel(staging / "wheels")
    # passthrough: PyScript hands the wheel to the worker's loadPyodide (web/js/pyodide_start.mjs), never to micropip
    config = {"interpreter": "./pyodide/pyodide.mjs", "packages": [f"./wheels/{wheel.name}"],
              "packages_cache": "passthrough"}
    (staging / "pyscript.json").write_text(json.dumps(config, indent=2) + "\n")
    (staging / "build-info.json").write_text(json.dumps(
        {"slidelab": project_version(), "pyodide": PYODIDE_VERSION, "pyscript": PYSCRIPT_VERSION}) + "\n")

    write_service_worker(staging)

    shutil.rmtree(DIST, ignore_errors=True)
    staging.rename(DIST)
    size = sum(p.stat().st_size for p in DIST.rglob("*") if p.is_file())
    log(f"built {DIST.relative_to(ROOT)}/ ({size / 1e6:.1f} MB)")
    return DIST


def write_service_worker(site: Path) -> None:
    """Fill in the service worker (web/sw.js): every file of the site with its SHA-256 (the worker precaches all
    but the pattern databases and data, cached when first fetched, and keeps only bytes that match), the build's id,
    a hash of those files, and the data's id, a hash of the pdb/ and data/ files, which names the cache that keeps
    them. A rebuild with nothing changed keeps both, so browsers see no new version; a change to either side changes
    sw.js, so they do."""
    shell, data = [], []
    hashes = {"./": _integrity(site / "index.html")}  # the app's root is its index.html
    for path in sorted(p for p in site.rglob("*") if p.is_file() and p.name != "sw.js"):
        (data if path.relative_to(site).parts[0] in ("pdb", "data") else shell).append(path)
        hashes[f"./{path.relative_to(site).as_posix()}"] = _integrity(path)

    def content_id(files: list[Path]) -> str:
        digest = hashlib.sha256()
        for path in files:
            digest.update(path.relative_to(site).as_posix().encode() + b"\0"
                          + hashlib.sha256(path.read_bytes()).digest())
        return digest.hexdigest()[:16]

    worker = site / "sw.js"
    text = worker.read_text()
    for placeholder, value in [("'__BUILD__'", json.dumps(content_id(shell))),
                               ("'__DATA_BUILD__'", json.dumps(content_id(data))),
                               ("__FILES__", json.dumps(hashes, indent=0).replace("\n", ""))]:
        if placeholder not in text:
            raise ValueError(f"{worker} has no {placeholder} to fill in (is it web/sw.js as written?)")
        text = text.replace(placeholder, value)
    worker.write_text(text)


def _integrity(path: Path) -> str:
    """The file's Subresource Integrity value, "sha256-<base64>" (what fetch's `integrity` and sw.js check)."""
    return "sha256-" + base64.b64encode(hashlib.sha256(path.read_bytes()).digest()).decode()


# ---------------------------------------------------------------------------------------------------------------
# Serving


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide needs, and no caching so a rebuild is seen at once."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):
        if os.environ.get("SLIDELAB_SERVER_LOG"):
            super().log_message(format, *args)


def make_server(directory: Path = DIST, port: int = 8000, host: str = "127.0.0.1"):
    """A threading HTTP server for `directory` (port 0 picks a free port)."""
    handler = functools.partial(SiteHandler, directory=str(directory))
    return http.server.ThreadingHTTPServer((host, port), handler)


def serve_in_thread(directory: Path = DIST):
    """Start a server on a free port in a daemon thread; returns (server, base URL)."""
    server = make_server(directory, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


# ---------------------------------------------------------------------------------------------------------------
# Test set-up: .venv with the test dependencies, and a Chromium


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _apt_install(*packages: str) -> bool:
    if not (_is_root() and shutil.which("apt-get")):
        return False
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(["apt-get", "update", "-qq"], env=env)
    run(["apt-get", "install", "-y", "-qq", *packages], env=env, stdout=subprocess.DEVNULL)
    return True


def make_venv(folder: Path, install_args: list[str]) -> Path:
    """A virtual environment in `folder` with `pip install *install_args`; reinstalled only when they or
    pyproject.toml change. Returns its python."""
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if not python.exists():
        try:
            run([sys.executable, "-m", "venv", folder])
        except subprocess.CalledProcessError:  # Debian splits venv out of python3
            shutil.rmtree(folder, ignore_errors=True)
            minor = f"python3.{sys.version_info.minor}-venv"
            if not _apt_install(minor) and not _apt_install("python3-venv"):
                sys.exit("build.py: cannot create a virtual environment; install python3-venv")
            run([sys.executable, "-m", "venv", folder])
    stamp = folder / ".slidelab-installed"
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + repr(install_args).encode()).hexdigest()
    if not stamp.exists() or stamp.read_text() != wanted:
        run([python, "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
        run([python, "-m", "pip", "install", "--quiet", *install_args], cwd=ROOT)
        stamp.write_text(wanted)
    return python


def build_python() -> str:
    """A Python with numpy for building the pattern databases (2-3x faster); this one if numpy is missing and no
    environment can be made (the pure-Python build gives the same bytes)."""
    if subprocess.run([sys.executable, "-c", "import numpy"], capture_output=True).returncode == 0:
        return sys.executable
    try:
        return str(make_venv(BUILD_VENV, [BUILD_NUMPY]))
    except (subprocess.CalledProcessError, SystemExit) as e:
        log(f"no numpy for the build ({e}); building the pattern databases in pure Python")
        return sys.executable


def find_chromium(python: Path) -> str:
    """Path of a Chromium for Playwright: Debian's, installed with apt when missing; '' means Playwright's own."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    if _apt_install("chromium"):
        path = shutil.which("chromium")
        if path:
            return path
    run([python, "-m", "playwright", "install", "chromium"])
    return ""


def find_bubblewrap() -> None:
    """Debian's bubblewrap, which makes the sandbox someone else's heuristic runs in (installed with apt when running
    as root); without it the sandbox is made by Slide Lab's own namespaces, and bubblewrap's tests are skipped."""
    if sys.platform.startswith("linux") and not shutil.which("bwrap") and not _apt_install("bubblewrap"):
        log("bubblewrap is not installed (apt-get install bubblewrap): its tests of the sandbox will be skipped")


def run_tests(pytest_args: list[str]) -> int:
    python = make_venv(VENV, ["-e", f".[{TEST_EXTRAS}]"])
    chromium = find_chromium(python)
    find_bubblewrap()
    build_site(str(python))
    axe = npm_package("axe-core", AXE_VERSION) / "axe.min.js"
    env = dict(os.environ, SLIDELAB_CHROMIUM=chromium, SLIDELAB_PDB_DIR=str(PDB_CACHE), SLIDELAB_AXE=str(axe))
    log("running the test suite")
    return subprocess.run([str(python), "-m", "pytest", *pytest_args], cwd=ROOT, env=env).returncode


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="build dist/ and serve it on 127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    build = sub.add_parser("build", help="build dist/ only")
    for command in (serve, build):
        command.add_argument("--with-78", action="store_true",
                             help="also serve the 15-puzzle's 7-8 tables (92 MB; the first time builds them: about "
                                  "half an hour of one core and 4.7 GB of memory)")
        command.add_argument("--with-6666", action="store_true",
                             help="also serve the 24-puzzle's 6-6-6-6 tables (13 MB; the first time builds them: "
                                  "about half an hour of one core and 2.6 GB of memory)")
    sub.add_parser("test", help="set up, build and run every test; extra arguments go to pytest")
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    asked = tuple(name for name in PDB_ASKED if getattr(args, f"with_{name}", False))
    if args.command == "build":
        build_site(asked=asked)
    elif args.command == "serve":
        build_site(asked=asked)
        server = make_server(DIST, args.port)
        print(f"Slide Lab is served at http://127.0.0.1:{server.server_address[1]}/ (Ctrl+C stops)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    elif args.command == "test":
        return run_tests(extra)
    return 0


if __name__ == "__main__":
    sys.exit(main())
