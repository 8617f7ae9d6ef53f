"""The package's layers (docs/how-it-works.md, "Layers"): every import, at the top of a module or inside a function,
goes to a module of the same layer or of one below; the few that still go up are listed here with why, and the list
is kept true (an arrow that has gone must leave it)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pysrc" / "slidelab"

# From the bottom up; a module belongs to the layer of its longest matching prefix.
LAYERS = [
    ("core", ["puzzles", "errors", "answers", "extras", "search.control", "search.contour", "workers", "cluster"]),
    ("heuristics", ["heuristics"]),
    ("search", ["search"]),
    ("space", ["search.explore", "search.indexed_explore", "search.dask_explore", "heuristics.check",
               "heuristics.indexed_check", "heuristics.pdb.builder", "heuristics.pdb.builder_numpy"]),
    ("run", ["scheduler", "checkpoint", "carriers", "supervised", "compare"]),
    ("requests", ["requests", "schema"]),
    ("api", ["api", "api_request", "api_solve", "api_pool", "api_space", "exercises"]),
    ("batch", ["batch", "batch_split"]),
    ("cli", ["cli", "cli_args", "cli_text", "cli_tables", "cli_batch", "cli_course", "__main__"]),
]

# Arrows that still go up, and why.
UPWARDS = {
    # a missing table is built where it is loaded: the small ones in a moment, the ranked (7-8) ones with numpy,
    # whose builders reuse the explore engines' level loops
    ("heuristics.pdb.files", "heuristics.pdb.builder"),
    ("heuristics.pdb.files", "heuristics.pdb.builder_numpy"),
}


def layer(module: str) -> int:
    matches = [(len(prefix), index) for index, (_, prefixes) in enumerate(LAYERS) for prefix in prefixes
               if module == prefix or module.startswith(prefix + ".")]
    assert matches, f"{module} is in no layer: add it to LAYERS"
    return max(matches)[1]


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts:
            found[".".join(parts)] = path
    return found


def imports(found: dict[str, Path]) -> set[tuple[str, str]]:
    """(importer, imported) for every import of a module of the package by another."""
    def known(name: str) -> str:
        while name and name not in found:
            name = name.rpartition(".")[0]
        return name

    arrows = set()
    for module, path in found.items():
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package[:len(package) - node.level + 1]
                if node.module:
                    targets = [".".join(base + [node.module])]
                targets += [".".join(base + ([node.module] if node.module else []) + [a.name]) for a in node.names]
            elif isinstance(node, ast.ImportFrom | ast.Import):
                names = [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                targets = [n[len("slidelab."):] for n in names if n and n.startswith("slidelab.")]
            for target in {known(t) for t in targets}:
                if target and target != module:
                    arrows.add((module, target))
    return arrows


def test_the_arrows_go_down_but_the_listed_ones():
    found = modules()
    arrows = imports(found)
    assert ("api_solve", "carriers") in arrows and ("scheduler", "search.parallel_idastar") in arrows  # it reads
    upwards = {(a, b) for a, b in arrows if layer(b) > layer(a)}
    assert upwards - UPWARDS == set(), "new arrows up the layers"
    assert UPWARDS - upwards == set(), "arrows that have gone: take them off UPWARDS"


def test_every_module_is_in_a_layer():
    for module in modules():
        layer(module)
