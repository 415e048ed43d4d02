"""No import cycles inside the package: no deckhand module imports a module that imports it
back, directly or through others. Every import counts, also one under `if TYPE_CHECKING:` or
inside a function: a cycle hidden that way still ties the two modules together, and the day
someone moves the import it breaks at run time. Where one module needs a little of another
that already imports it, it declares a Protocol of what it needs (page.PageHost,
flows.FlowsOwner). The package's `__init__` re-exports every module and is left out as an
importer; a module importing the package itself (`from deckhand import ...`) still counts."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "deckhand"
INIT = "__init__"


def imports_of(source: str, modules: set[str]) -> set[str]:
    """The package's modules that `source` (a module of the package) imports, wherever."""
    found: set[str] = set()

    def sibling(dotted: str) -> None:
        # `deckhand.page.x` or `page.x` (relative): the module is its first part.
        found.add(dotted.split(".")[0] if dotted.split(".")[0] in modules else INIT)

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "deckhand":
                    found.add(INIT)
                elif alias.name.startswith("deckhand."):
                    sibling(alias.name.removeprefix("deckhand."))
        elif isinstance(node, ast.ImportFrom):
            if node.level > 1:
                continue  # the package has no subpackages; `..` would leave it
            if node.level == 1:
                base = node.module or ""
            elif node.module == "deckhand" or (node.module or "").startswith("deckhand."):
                base = (node.module or "").removeprefix("deckhand").lstrip(".")
            else:
                continue  # another package's import
            if base:
                sibling(base)
            else:
                # `from . import x` / `from deckhand import x`: a submodule when x is one,
                # else a name the package's __init__ provides.
                for alias in node.names:
                    found.add(alias.name if alias.name in modules else INIT)
    return found


def import_graph(package: Path) -> dict[str, set[str]]:
    modules = {p.stem for p in package.glob("*.py")}
    return {m: imports_of((package / f"{m}.py").read_text("utf-8"), modules) - {m} for m in sorted(modules)}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One import path per cycle found, e.g. ['browser', 'page', 'browser']. `__init__` is not
    followed as an importer (its re-exports are how a package is built), only as imported."""
    found: list[list[str]] = []
    seen_cycles: set[frozenset[str]] = set()

    def walk(start: str, node: str, path: list[str]) -> None:
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                key = frozenset(path)
                if key not in seen_cycles:
                    seen_cycles.add(key)
                    found.append([*path, start])
            elif nxt not in path and nxt != INIT:
                walk(start, nxt, [*path, nxt])

    for m in graph:
        if m != INIT:
            walk(m, m, [m])
    # The package itself: a module importing `deckhand` that `__init__` imports.
    for m, deps in graph.items():
        if m != INIT and INIT in deps:
            found.append([m, INIT, m])
    return found


def test_no_deckhand_module_imports_a_module_that_imports_it_back() -> None:
    graph = import_graph(PACKAGE)
    assert {"page", "browser", "deckhand", "flows", "options"} <= set(graph)  # the walk found the package
    assert "page" in graph["browser"] and "page" in graph["options"] and "flows" in graph["deckhand"]
    found = cycles(graph)
    assert found == [], "import cycles: " + "; ".join(" -> ".join(c) for c in found)


def test_the_check_sees_imports_however_they_are_written(tmp_path: Path) -> None:
    """Each way of importing that once hid a cycle is found."""
    files = {
        "a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n",
        "b": "from . import c\n",
        "c": "def f() -> None:\n    from deckhand.a import A\n",
        "d": "import deckhand.e\n",
        "e": "from .d import D\n",
        "f": "from deckhand import Deckhand\n",
        "g": "from .h import x\n",
        "h": "import os\n",
        INIT: "from .f import F\nfrom . import g\n",
    }
    for name, text in files.items():
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(text))
    graph = import_graph(tmp_path)
    assert graph["a"] == {"b"} and graph["b"] == {"c"} and graph["c"] == {"a"}
    assert graph["f"] == {INIT} and graph["h"] == set()
    found = {frozenset(c) for c in cycles(graph)}
    assert found == {frozenset({"a", "b", "c"}), frozenset({"d", "e"}), frozenset({"f", INIT})}
