"""lv's imports run one way (issue 18, point 5): no import circle between lv's modules, and no import from a lower
layer to a higher one, against the one table of layers, drawn in docs/design.md ("Layers"), which this test reads.

The modules are parsed with ``ast``, never imported. Every import statement counts, wherever it stands: at module
level, inside a function or a class, relative or absolute; ``from . import x`` and ``from lv import x`` are an
import of the submodule ``x`` when ``x`` is one. An import of ``lv.actions.build`` from outside ``lv.actions``
also runs ``lv/actions/__init__.py`` first (Python imports a package before its modules), so it counts as an
import of ``lv.actions`` too; the root package ``lv`` runs first for every module and imports nothing of lv at
run time, so it sits in the bottom layer; but its public names load their modules on first use (``_LAZY``, PEP
562), so ``from lv import Game``, or ``lv.Game`` after ``import lv``, counts as an import of lv.game. Only imports
under
``if TYPE_CHECKING:`` may point anywhere: they never run (annotations are strings, ``from __future__ import
annotations``), and a type may well be defined higher up than the code that receives a value of it. An import
made by name at run time (``importlib.import_module``: ``lv/__init__.py``'s lazy names, the discovery of action
families in ``lv/actions/__init__.py``) is not a statement and is not seen here; those two go downward.

A module may import its own layer or any layer below it; within a layer, the circles test keeps the order.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "lv"
DESIGN = ROOT / "docs" / "design.md"
MARK = "<!-- layers: tests/test_layers.py reads this table -->"

Edges = dict[str, dict[str, list[int]]]  # importer -> imported -> line numbers of the statements


def module_name(path: Path, root: Path) -> str:
    """``lv/actions/build.py`` -> ``lv.actions.build``; ``lv/__init__.py`` -> ``lv``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(package: Path) -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    return {module_name(p, package.parent): p for p in sorted(package.rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_nodes(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement at any depth, but those under ``if TYPE_CHECKING:`` (its ``else:`` runs: counted)."""
    found: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If) and _type_checking(node):
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))
    return sorted(found, key=lambda n: n.lineno)


def lazy_names(package: Path) -> dict[str, str]:
    """The package's public names loaded on first use: ``_LAZY`` in its ``__init__.py`` (name -> module, entries
    written as ``"name": "module"`` or ``**dict.fromkeys((names...), "module")``), as name -> dotted module."""
    tree = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_LAZY" for t in node.targets) \
                and isinstance(node.value, ast.Dict):
            for key, value in zip(node.value.keys, node.value.values):
                if key is None and isinstance(value, ast.Call) and len(value.args) == 2:
                    names, module = value.args
                    assert isinstance(names, ast.Tuple) and isinstance(module, ast.Constant)
                    out.update((ast.literal_eval(n), f"{package.name}.{module.value}") for n in names.elts)
                elif isinstance(key, ast.Constant) and isinstance(value, ast.Constant):
                    out[key.value] = f"{package.name}.{value.value}"
    return out


def imported(name: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: set[str],
             lazy: dict[str, str] | None = None) -> set[str]:
    """The modules of ``known`` that one import statement in module ``name`` runs (``lazy``: the root package's
    names loaded on first use)."""
    if isinstance(node, ast.Import):
        targets = {alias.name for alias in node.names}
    else:
        if node.level:
            base = name.split(".") if is_package else name.split(".")[:-1]
            base = base[:len(base) - (node.level - 1)]
            module = ".".join([*base, *([node.module] if node.module else [])])
        else:
            module = node.module or ""
        subs = {f"{module}.{alias.name}" for alias in node.names} & known
        # the package itself counts unless every name imported is one of its submodules
        targets = subs if len(subs) == len(node.names) else subs | {module}
        if lazy and "." not in module:
            targets |= {lazy[alias.name] for alias in node.names if alias.name in lazy}
    out = set()
    for target in targets & known:
        out.add(target)
        # a package between the root and the target runs first, unless the importer is inside it already
        parts = target.split(".")
        for i in range(2, len(parts)):
            package = ".".join(parts[:i])
            if not (name == package or name.startswith(package + ".")):
                out.add(package)
    out.discard(name)
    return out


def import_graph(package: Path) -> Edges:
    """Who imports whom among the package's modules, with the lines of the statements."""
    found = modules(package)
    known = set(found)
    lazy = lazy_names(package)
    edges: Edges = {name: {} for name in found}
    for name, path in found.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        nodes = import_nodes(tree)
        for node in nodes:
            for target in imported(name, path.name == "__init__.py", node, known, lazy):
                edges[name].setdefault(target, []).append(node.lineno)
        if any(isinstance(n, ast.Import) and any(a.name == package.name and a.asname is None for a in n.names)
               for n in nodes):  # import lv, then lv.Game
            for attribute in ast.walk(tree):
                if isinstance(attribute, ast.Attribute) and isinstance(attribute.value, ast.Name) \
                        and attribute.value.id == package.name and attribute.attr in lazy \
                        and lazy[attribute.attr] != name:
                    edges[name].setdefault(lazy[attribute.attr], []).append(attribute.lineno)
    return edges


def circles(edges: Edges) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each sorted: every module
    of one reaches every other through imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(components)


def _cycle(component: set[str], edges: Edges) -> list[str]:
    """A shortest cycle through the component's first module (breadth-first, staying inside the component)."""
    start = min(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(edges[v]):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if w in component and w not in came_from:
                    came_from[w] = v
                    following.append(w)
        frontier = following
    raise AssertionError(f"no cycle through {start}")  # a component of two or more always has one


def read_layers(text: str) -> list[tuple[str, list[str]]]:
    """The table in docs/design.md after ``MARK``: a fenced block whose first two lines are its heading, then one
    line per layer, top first: the layer's name, two or more spaces, its modules as paths under lv/ without
    ``.py`` (``__init__`` is the package lv, ``actions/__init__`` the package lv.actions); a line that starts
    with spaces goes on with the layer above. Returned bottom first, modules as dotted names."""
    block = text.split(MARK, 1)[1].split("```", 2)[1]
    layers: list[tuple[str, list[str]]] = []
    for line in block.splitlines()[3:]:
        if not line.strip():
            continue
        if line[0] != " ":
            name, _, rest = line.partition("  ")
            layers.append((name.strip(), []))
        else:
            rest = line
        for word in rest.split():
            dotted = ".".join(["lv", *word.split("/")])
            layers[-1][1].append(dotted.removesuffix(".__init__"))
    return layers[::-1]


def layer_of(layers: list[tuple[str, list[str]]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for level, (_, names) in enumerate(layers):
        for name in names:
            assert name not in out, f"docs/design.md's layers place {name} twice"
            out[name] = level
    return out


def upward(edges: Edges, layers: list[tuple[str, list[str]]]) -> list[str]:
    """Every import from a layer to a higher one, as ``lv/x.py:12 imports lv.y (layer a -> layer b)``."""
    level = layer_of(layers)
    out = []
    for importer, targets in sorted(edges.items()):
        for target, lines in sorted(targets.items()):
            if level[target] > level[importer]:
                for line in lines:
                    out.append(f"{importer} line {line} imports {target} "
                               f"({layers[level[importer]][0]} -> {layers[level[target]][0]})")
    return out


@pytest.fixture(scope="module")
def edges() -> Edges:
    return import_graph(PACKAGE)


@pytest.fixture(scope="module")
def layers() -> list[tuple[str, list[str]]]:
    return read_layers(DESIGN.read_text(encoding="utf-8"))


def test_no_import_circle(edges: Edges) -> None:
    found = circles(edges)
    assert not found, "import circles in lv/:\n" + "\n".join(
        f"{', '.join(c)}: e.g. {' -> '.join(_cycle(set(c), edges))}" for c in found)


def test_every_module_has_its_layer(edges: Edges, layers: list[tuple[str, list[str]]]) -> None:
    placed = layer_of(layers)
    missing = sorted(set(edges) - set(placed))
    assert not missing, (f"place {', '.join(missing)} in a layer of the table in docs/design.md (\"Layers\"): "
                         "the lowest layer above everything it imports")
    gone = sorted(set(placed) - set(edges))
    assert not gone, f"docs/design.md's layers name modules lv/ does not have: {', '.join(gone)}"


def test_imports_go_downward_only(edges: Edges, layers: list[tuple[str, list[str]]]) -> None:
    placed = layer_of(layers)
    found = upward({k: v for k, v in edges.items() if k in placed}, layers) if set(edges) <= set(placed) else []
    assert not found, "imports from a lower layer to a higher one:\n" + "\n".join(found)


# ------------------------------------------------------------------------------------- the check itself


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / "lv" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path / "lv"


def test_a_circle_through_a_function_level_import_is_found(tmp_path: Path) -> None:
    package = _package(tmp_path, {
        "__init__.py": "",
        "low.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .high import H\n"
                  "def f():\n    from . import high\n",
        "high.py": "from lv.low import f\n",
        "side.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .high import H\n"})
    graph = import_graph(package)
    assert circles(graph) == [["lv.high", "lv.low"]]
    assert _cycle({"lv.high", "lv.low"}, graph) == ["lv.high", "lv.low", "lv.high"]


def test_a_subpackage_runs_its_init_first(tmp_path: Path) -> None:
    package = _package(tmp_path, {
        "__init__.py": "", "ids.py": "def f():\n    from lv.fam._base import X\n",
        "fam/__init__.py": "from .one import ONE\n", "fam/_base.py": "", "fam/one.py": "from ..ids import f\n"})
    graph = import_graph(package)
    assert graph["lv.ids"] == {"lv.fam._base": [2], "lv.fam": [2]}
    assert graph["lv.fam.one"] == {"lv.ids": [1]}  # its own package is running already: no edge
    assert circles(graph) == [["lv.fam", "lv.fam.one", "lv.ids"]]
    assert _cycle({"lv.fam", "lv.fam.one", "lv.ids"}, graph) == ["lv.fam", "lv.fam.one", "lv.ids", "lv.fam"]


LAYERED = f"""# x

{MARK}

```
layer    modules
-----    -------

top      cli
middle   game  render
           position
bottom   __init__  errors
```
"""


def test_a_public_name_loaded_on_first_use_counts_as_its_module(tmp_path: Path) -> None:
    package = _package(tmp_path, {
        "__init__.py": '_LAZY = {**dict.fromkeys(("Game", "new_game"), "game"), "Board": "board"}\n',
        "game.py": "", "board.py": "",
        "low.py": "def f():\n    from lv import Board\n",
        "cli.py": "import lv\n\ndef g():\n    return lv.new_game()\n"})
    graph = import_graph(package)
    assert graph["lv.low"] == {"lv": [2], "lv.board": [2]}
    assert graph["lv.cli"] == {"lv": [1], "lv.game": [4]}
    assert lazy_names(PACKAGE)["Game"] == "lv.game"


def test_the_table_is_read_and_an_upward_import_is_found(tmp_path: Path) -> None:
    layers = read_layers(LAYERED)
    assert layers == [("bottom", ["lv", "lv.errors"]), ("middle", ["lv.game", "lv.render", "lv.position"]),
                      ("top", ["lv.cli"])]
    package = _package(tmp_path, {
        "__init__.py": "", "cli.py": "import lv.game\n", "game.py": "from . import render, errors\n",
        "render.py": "", "position.py": "", "errors.py": "class E:\n    def f(self):\n        from lv import cli\n"})
    assert upward(import_graph(package), layers) == ["lv.errors line 3 imports lv.cli (bottom -> top)"]
