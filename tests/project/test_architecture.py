"""The layers of docs/architecture.md, enforced on the source: every import of every module
(inside functions too) read from its syntax tree, no cycle among them, no import of a higher layer,
the search blind to its executors and the executors to the search, the player and the book reader
on the standard library alone."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "treegen"

#: Layers from the bottom: a module may import its own layer and those below, never above.
LAYERS = [
    ("foundation", ["treegen.version", "treegen.errors", "treegen.data", "treegen.settings", "treegen.faults",
                    "treegen.notation", "treegen.player", "treegen.files", "treegen.notebook",
                    "treegen.compiled", "treegen.certificate"]),
    ("rules", ["treegen.rules"]),
    ("strategies", ["treegen.strategies", "treegen.compiler", "treegen.run.seam", "treegen.run"]),
    ("search and executors", ["treegen.search", "treegen.run.local", "treegen.run.ray",
                              "treegen.book"]),
    ("choosing", ["treegen.run.engines", "treegen.registry"]),
    ("front", ["treegen.api", "treegen.views", "treegen.sessions", "treegen.proofs",
               "treegen.presets"]),
    ("library", ["treegen.library"]),
    ("command line", ["treegen.cli", "treegen.__main__"]),
]
#: Files that are not part of the layered code: the package's lazy front door.
OUTSIDE = {"treegen"}

def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = modules()


def imports(name: str, path: Path, for_types: bool = False) -> set[str]:
    """The modules ``name`` imports at run time (and with ``for_types`` in ``if TYPE_CHECKING``
    blocks), inside its functions too, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test) and not for_types:
            typing_only |= {id(n) for n in ast.walk(node)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}  # submodules imported
    return {m for m in found if m in MODULES or not m.startswith("treegen")}


GRAPH = {name: imports(name, path) for name, path in MODULES.items()}


def layer(module: str) -> int:
    best = (-1, -1)  # (length of the prefix matched, layer)
    for rank, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                best = max(best, (len(prefix), rank))
    assert best[1] >= 0, f"{module} is in no layer of the architecture"
    return best[1]


def test_every_module_is_in_a_layer():
    for module in MODULES:
        if module not in OUTSIDE:
            layer(module)


def test_no_import_cycle_even_inside_functions():
    graph = nx.DiGraph((a, b) for a, targets in GRAPH.items() for b in targets
                       if b.startswith("treegen") and a not in OUTSIDE and b not in OUTSIDE)
    cycles = [c for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert cycles == []
    assert all(a not in GRAPH[a] for a in GRAPH)


def test_no_cycle_of_modules_even_through_imports_for_types_only():
    """A cycle hidden behind ``TYPE_CHECKING`` is still two modules that cannot be read apart."""
    typed = {name: imports(name, path, for_types=True) for name, path in MODULES.items()}
    graph = nx.DiGraph((a, b) for a, targets in typed.items() for b in targets
                       if b in MODULES and a not in OUTSIDE and b not in OUTSIDE and a != b
                       and not b.startswith(a + ".") and not a.startswith(b + "."))
    assert [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1] == []


def test_no_module_imports_a_higher_layer():
    upward = [(a, b) for a, targets in GRAPH.items() for b in targets
              if b.startswith("treegen") and a not in OUTSIDE and b not in OUTSIDE
              and layer(b) > layer(a)]
    assert upward == []


def test_the_search_sees_only_the_seam_and_the_executors_never_the_search():
    for module, targets in GRAPH.items():
        if module.startswith("treegen.search"):
            executors = {t for t in targets if t.startswith("treegen.run") and
                         t not in ("treegen.run", "treegen.run.seam")}
            assert executors == set(), module
        if module in ("treegen.run.local", "treegen.run.ray", "treegen.run.seam"):
            assert {t for t in targets if t.startswith("treegen.search")} == set(), module


def test_no_module_reaches_up_to_the_package_s_front():
    """``from treegen import X`` inside the package names a submodule, never a name of the front
    (whose lazy exports are the top of every layer): the version is in ``treegen.version``."""
    reaching = []
    for name, path in MODULES.items():
        if name in OUTSIDE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "treegen" and not node.level:
                reaching += [f"{name}: {alias.name}" for alias in node.names
                             if f"treegen.{alias.name}" not in MODULES]
    assert reaching == []


def closure(module: str) -> set[str]:
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += [t for t in GRAPH.get(name, ()) if t.startswith("treegen")]
    return seen


@pytest.mark.parametrize("module", ["treegen.player", "treegen.book.format", "treegen.book",
                                    "treegen.book.reader", "treegen.book.writer"])
def test_the_player_and_the_book_reader_need_the_standard_library_only(module):
    outside = {t.split(".")[0] for name in closure(module) for t in GRAPH[name]
               if not t.startswith("treegen")}
    assert outside - set(sys.stdlib_module_names) == set()
    if module == "treegen.player":  # one file: it imports nothing of treegen
        assert {t for t in GRAPH[module] if t.startswith("treegen")} == set()


def test_the_certificate_checker_shares_nothing_with_the_search():
    """The checker is a second program: the standard library, numpy, its own modules and its own
    compiled kernels (numba), loaded through the compiled-module seam, which knows no search."""
    checker = {name for name in MODULES if name.startswith("treegen.certificate")}
    for name in checker:
        ours = {t for t in GRAPH[name] if t.startswith("treegen")}
        assert ours <= checker | {"treegen.compiled"}, name
        others = {t.split(".")[0] for t in GRAPH[name] if not t.startswith("treegen")}
        assert others - set(sys.stdlib_module_names) <= {"numpy", "numba"}, name
    assert not any(t.startswith(("treegen.search", "treegen.rules"))
                   for t in closure("treegen.compiled"))


def test_references_in_docstrings_name_what_exists():
    """A module or name a docstring refers to by its full dotted name must still be there."""
    import importlib
    stale = []
    for path in MODULES.values():
        text = path.read_text(encoding="utf-8")
        for ref in set(re.findall(r":(?:mod|func|class):`(treegen(?:\.\w+)*)`", text)):
            parts = ref.split(".")
            for cut in range(len(parts), 0, -1):
                try:
                    target = importlib.import_module(".".join(parts[:cut]))
                except ImportError:
                    continue
                try:
                    for attribute in parts[cut:]:
                        target = getattr(target, attribute)
                except AttributeError:
                    stale.append(f"{path.name}: {ref}")
                break
            else:
                stale.append(f"{path.name}: {ref}")
    assert stale == []
