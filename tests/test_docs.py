"""The README and docs/ hold together: every link to a file or a heading points at one that exists, every picture
they show exists, the README stays short, and the command-line reference names every command and option the real
parser has (so it cannot go stale)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from slidelab.cli.parser import build_parser

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for a page's headings."""
    found = set()
    in_code = False
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        m = re.match(r"^#{1,6} (.*)", line)
        if m and not in_code:
            found.add(re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-"))
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_and_picture_points_at_something_that_exists(page):
    broken = []
    for target in LINK.findall(page.read_text()):
        if re.match(r"[a-z]+:", target):  # http:, mailto:
            continue
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(target)
        elif fragment and file.suffix == ".md" and fragment not in anchors(file):
            broken.append(target)
    assert not broken, broken


def test_the_readme_fits_on_a_few_screens():
    assert len((ROOT / "README.md").read_bytes()) <= 15_000


def test_the_command_line_reference_names_every_command_and_option():
    reference = (ROOT / "docs" / "cli.md").read_text()
    parser = build_parser()
    commands = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices
    missing = []
    for name, sub in commands.items():
        if f"slidelab {name}" not in reference:
            missing.append(name)
        for action in sub._actions:
            for option in action.option_strings:
                if option.startswith("--") and option != "--help" and option not in reference:
                    missing.append(f"{name} {option}")
    assert not missing, missing
