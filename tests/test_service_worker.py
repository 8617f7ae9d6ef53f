"""build.write_service_worker on a tiny site: the build's id names the shell (stable on a rebuild, new when a shell
file changes), the data's id names the cache of pattern databases and data (new only when one of those changes),
and every file is listed with its SHA-256 (what the worker checks before it keeps a file); what it precaches is the
shell, never pdb/ or data/."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (the project's build script)


def make_site(folder: Path) -> Path:
    files = {"index.html": "<!doctype html>", "js/app.js": "export {};", "css/app.css": "body {}",
             "pdb/4x4_1-2-3.slpdb": "table one", "pdb/3x4_1-4-5-8-9.slpdb": "table two",
             "data/explored.json": "{}"}
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def written(site: Path) -> dict:
    """Build the worker from web/sw.js as build.py does; its build id, data id and precache list."""
    shutil.copy2(build.WEB / "sw.js", site / "sw.js")
    build.write_service_worker(site)
    text = (site / "sw.js").read_text()
    assert "__" not in re.sub(r"//.*", "", text)  # every placeholder filled in
    return {"build": re.search(r'^const BUILD = "([0-9a-f]{16})";$', text, re.M)[1],
            "data": re.search(r'^const DATA_BUILD = "([0-9a-f]{16})";$', text, re.M)[1],
            "files": json.loads(re.search(r"^const FILES = (\{.*\});", text, re.M)[1])}


def precache(files: dict) -> list:
    """What the worker precaches: every file but pdb/ and data/ (its FETCHED_ONCE)."""
    return [path for path in files if not re.match(r"^\./(pdb|data)/", path)]


@pytest.fixture
def site(tmp_path):
    return make_site(tmp_path / "site")


def test_the_precache_list_is_the_shell_without_pattern_databases_data_or_the_worker(site):
    assert precache(written(site)["files"]) == ["./", "./css/app.css", "./index.html", "./js/app.js"]


def test_every_file_comes_with_its_sha256_and_the_root_with_index_htmls(site):
    files = written(site)["files"]
    assert sorted(files) == sorted(["./", "./css/app.css", "./index.html", "./js/app.js", "./pdb/4x4_1-2-3.slpdb",
                                    "./pdb/3x4_1-4-5-8-9.slpdb", "./data/explored.json"])
    for path, integrity in files.items():
        body = (site / ("index.html" if path == "./" else path[2:])).read_bytes()
        assert integrity == "sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode()


def test_a_rebuild_with_nothing_changed_keeps_both_ids(site, tmp_path):
    first = written(site)
    assert first == written(site)
    assert first == written(make_site(tmp_path / "elsewhere"))  # ids of the contents, not of the folder


def test_a_changed_shell_file_changes_the_build_id_and_keeps_the_data_id(site):
    first = written(site)
    (site / "js" / "app.js").write_text("export const changed = 1;")
    second = written(site)
    assert second["build"] != first["build"] and second["data"] == first["data"]


def test_a_new_shell_file_changes_the_build_id(site):
    first = written(site)
    (site / "js" / "more.js").write_text("")
    second = written(site)
    assert second["build"] != first["build"] and second["data"] == first["data"]
    assert "./js/more.js" in precache(second["files"])


@pytest.mark.parametrize("name", ["pdb/4x4_1-2-3.slpdb", "data/explored.json"])
def test_a_changed_table_or_data_file_changes_the_data_id_and_keeps_the_build_id(site, name):
    first = written(site)
    (site / name).write_text("rebuilt")
    second = written(site)
    assert second["data"] != first["data"] and second["build"] == first["build"]


def test_a_renamed_table_changes_the_data_id(site):
    first = written(site)
    (site / "pdb" / "4x4_1-2-3.slpdb").rename(site / "pdb" / "4x4_13-14-15.slpdb")
    assert written(site)["data"] != first["data"]


def test_the_worker_names_its_caches_by_the_apps_path_and_the_two_ids():
    text = (build.WEB / "sw.js").read_text()
    assert "const APP = `slidelab ${new URL(self.registration.scope).pathname} `;" in text
    assert "const SHELL = `${APP}shell ${BUILD}`;" in text
    assert "const DATA = `${APP}data ${DATA_BUILD}`;" in text
    assert "const SNAPSHOT = `${APP}snapshot`;" in text
    snapshot = (build.WEB / "js" / "pyodide_start.mjs").read_text()
    assert "const CACHE = `slidelab ${new URL('../', import.meta.url).pathname} snapshot`;" in snapshot


def test_a_worker_already_filled_in_is_refused_with_a_reason(site):
    written(site)
    with pytest.raises(ValueError, match="has no '__BUILD__' to fill in"):
        build.write_service_worker(site)


def test_a_download_that_is_not_the_pinned_one_stops_the_build(tmp_path):
    package = tmp_path / "package.tgz"
    package.write_bytes(b"the real bytes")
    build.check_download(package, "sha256-" + base64.b64encode(hashlib.sha256(b"the real bytes").digest()).decode(),
                         "a package")
    package.write_bytes(b"the real bytes, changed")
    with pytest.raises(SystemExit, match="a package is not the pinned one"):
        build.check_download(package, "sha256-" + base64.b64encode(hashlib.sha256(b"the real bytes").digest())
                             .decode(), "a package")


def test_a_cached_micropip_wheel_that_is_not_the_pinned_one_is_refused_and_dropped(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "CACHE", tmp_path)
    wheel = tmp_path / "wheels" / f"micropip-{build.MICROPIP_VERSION}-py3-none-any.whl"
    wheel.parent.mkdir()
    wheel.write_bytes(b"not micropip")
    with pytest.raises(SystemExit, match="is not the pinned one"):
        build.micropip_wheel()
    assert not wheel.exists()


def test_every_npm_package_the_build_fetches_is_pinned_by_its_integrity():
    text = (ROOT / "build.py").read_text()
    fetched = set(re.findall(r'npm_package\("([^"]+)", (\w+)\)', text))
    assert {(name, getattr(build, version)) for name, version in fetched} == set(build.NPM_INTEGRITY)
    assert all(re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", pin) for pin in build.NPM_INTEGRITY.values())


@pytest.mark.skipif(not (build.DIST / "pyodide" / "pyodide-lock.json").exists(), reason="the site is not built")
def test_the_built_lock_names_the_pinned_micropip_and_serves_it():
    lock = json.loads((build.DIST / "pyodide" / "pyodide-lock.json").read_text())
    entry = lock["packages"]["micropip"]
    assert entry["sha256"] == build.MICROPIP_SHA256
    assert hashlib.sha256((build.DIST / "pyodide" / entry["file_name"]).read_bytes()).hexdigest() == entry["sha256"]
