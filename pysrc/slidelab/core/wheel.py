"""A py3-none-any wheel written with zipfile (Slide Lab is pure Python: no build backend is needed): the browser's
copy of the package (build.py) and the copy a Gradescope bundle installs (course/exports.py). The same files give
the same bytes."""

from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from pathlib import Path

NAME = "slidelab"
SCRIPTS = {"slidelab": "slidelab.cli:main"}
SUMMARY = "Optimal solvers for sliding-tile and token puzzles, in the browser and on the command line"
REQUIRES_PYTHON = ">=3.11"


def package_files(package: Path, keep=lambda relative: True) -> dict[str, bytes]:
    """The files of the package folder `package` (its source and data, no compiled caches) by their path in a
    wheel (slidelab/...), those `keep(path)` keeps."""
    files = {}
    for path in sorted(package.rglob("*")):
        relative = f"{package.name}/{path.relative_to(package).as_posix()}"
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc" and keep(relative):
            files[relative] = path.read_bytes()
    return files


def wheel(files: dict[str, bytes], version: str, name: str = NAME, summary: str = SUMMARY,
          requires_python: str = REQUIRES_PYTHON, scripts: dict | None = None) -> tuple[str, bytes]:
    """(the wheel's file name, its bytes) holding `files` and the metadata pip reads."""
    dist_info = f"{name}-{version}.dist-info"
    files = dict(files)
    files[f"{dist_info}/METADATA"] = (f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
                                      f"Summary: {summary}\nRequires-Python: {requires_python}\n").encode()
    files[f"{dist_info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: slidelab\nRoot-Is-Purelib: true\n" \
                                  b"Tag: py3-none-any\n"
    entry = "".join(f"{k} = {v}\n" for k, v in (SCRIPTS if scripts is None else scripts).items())
    files[f"{dist_info}/entry_points.txt"] = f"[console_scripts]\n{entry}".encode()
    record = "".join(f"{p},{_hash(d)},{len(d)}\n" for p, d in files.items()) + f"{dist_info}/RECORD,,\n"
    files[f"{dist_info}/RECORD"] = record.encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for path, data in files.items():
            info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return f"{name}-{version}-py3-none-any.whl", out.getvalue()


def _hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
