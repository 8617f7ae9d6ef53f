"""The package's layers (docs/how-it-works.md, "The layers"): each is a folder of pysrc/slidelab/, and every import,
at the top of a module or inside a function, goes to a module of the same layer or of one below; the few that still
go up are listed here with why, and the list is kept true (an arrow that has gone must leave it)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pysrc" / "slidelab"

# From the bottom up: each layer is a folder of the package (two folders share the api layer: the course's exercises
# are the api's catalogue as much as its callers).
LAYERS = [
    ("core", ["core"]),
    ("heuristics", ["heuristics"]),
    ("search", ["search"]),
    ("space", ["space"]),
    ("run", ["run"]),
    ("contract", ["contract"]),
    ("api", ["api", "course"]),
    ("batch", ["batch"]),
    ("cli", ["cli", "__main__"]),
]

# Arrows that still go up, and why.
UPWARDS = {
    # a missing table is built where it is loaded: the small ones in a moment, the ranked (7-8) ones with numpy,
    # whose builders reuse the explore engines' level loops
    ("heuristics.pdb.files", "space.pdb_builder"),
    ("heuristics.pdb.files", "space.pdb_builder_numpy"),
}


def layer(module: str) -> int:
    folder = module.split(".")[0]
    found = [index for index, (_, folders) in enumerate(LAYERS) if folder in folders]
    assert found, f"{module} is in no layer's folder: put it in one, or add its folder to LAYERS"
    return found[0]


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
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "slidelab":
                base = node.module.split(".")[1:]
                targets = [".".join(base + [a.name]) for a in node.names] + ([".".join(base)] if base else [])
            elif isinstance(node, ast.Import):
                targets = [a.name[len("slidelab."):] for a in node.names if a.name.startswith("slidelab.")]
            for target in {known(t) for t in targets}:
                if target and target != module:
                    arrows.add((module, target))
    return arrows


def test_the_arrows_go_down_but_the_listed_ones():
    found = modules()
    arrows = imports(found)
    assert ("api.solving", "run.carriers") in arrows  # the test reads imports inside functions
    assert ("run.scheduler", "search.parallel_idastar") in arrows
    upwards = {(a, b) for a, b in arrows if layer(b) > layer(a)}
    assert upwards - UPWARDS == set(), "new arrows up the layers"
    assert UPWARDS - upwards == set(), "arrows that have gone: take them off UPWARDS"


def test_every_module_is_in_a_layer_folder():
    for module in modules():
        layer(module)
    assert {path.parent.name for path in PACKAGE.glob("*.py")} == {"slidelab"}
    assert sorted(path.name for path in PACKAGE.glob("*.py")) == ["__init__.py", "__main__.py"]


# The map: docs/how-it-works.md opens with this picture of the layers, drawn from the package (`python
# tests/test_layers.py` prints it), and with the way one request travels, each step a module that a step before it
# imports.
MAP = PACKAGE.parents[1] / "docs" / "how-it-works.md"
WIDTH = 116


def picture() -> str:
    """The layers, top first: each layer's folders and their modules (a package inside one as name/{modules})."""
    import textwrap

    found = modules()
    lines = []
    for name, folders in reversed(LAYERS):
        for folder in (f for f in folders if (PACKAGE / f).is_dir()):
            inside = sorted(m.split(".")[1:] for m in found if m.startswith(folder + "."))
            names = []
            for parts in inside:
                if len(parts) == 1 and not any(other[:1] == parts and len(other) > 1 for other in inside):
                    names.append(parts[0])
                elif len(parts) == 1:
                    names.append(parts[0] + "/{" + ", ".join(o[1] for o in inside if o[0] == parts[0] and len(o) == 2)
                                 + "}")
            lines += textwrap.wrap(", ".join(names), WIDTH - 24, initial_indent=f"{name:<11}{folder + '/':<13}",
                                   subsequent_indent=" " * 24, break_on_hyphens=False, break_long_words=False)
            name = ""
    return "\n".join(lines)


def _block(after: str) -> str:
    text = MAP.read_text(encoding="utf-8")
    start = text.index("```\n", text.index(after)) + 4
    return text[start:text.index("```", start)].rstrip("\n")


def test_the_map_draws_the_layers_as_the_package_holds_them():
    assert _block("<!-- the layers: drawn by tests/test_layers.py -->") == picture(), \
        "redraw it: python tests/test_layers.py"


def test_the_map_follows_a_request_through_modules_that_import_each_other():
    from slidelab.cli.parser import COMMANDS

    steps = [line.split()[0] for line in _block("<!-- one request: checked by tests/test_layers.py -->").splitlines()
             if line.startswith("  ")]
    found, arrows = modules(), imports(modules())
    named = [".".join(Path(step).with_suffix("").parts).removesuffix(".__init__") for step in steps]
    assert len(named) >= 6 and all(module in found for module in named), named
    commands = {f"cli.{command.module}" for command in COMMANDS.values()}  # cli/__init__ imports these by name
    for index, module in enumerate(named[1:], 1):
        before = named[:index]
        assert any((b, module) in arrows for b in before) or (module in commands and "cli" in before), module


if __name__ == "__main__":
    print(picture())
