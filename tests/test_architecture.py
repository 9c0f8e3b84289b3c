"""The package's import graph, read from the source with `ast`: no cycles, and
dependencies pointing down (DESIGN.md, "Packages").

Every import counts: module level and function level (heavy libraries are imported
where they are used, which hides circles from linters that only read the top),
`TYPE_CHECKING` blocks, relative imports, and string references to a module
(`"diagbench.x.y"` or `"diagbench.x.y:attr"`, which `diagbench.references.load`
imports; an f-string starting with `"diagbench.x."` names a module of package x).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "diagbench"
#: packages below `benchmarks` and `cli` in DESIGN.md's order of concepts.
LOWER = ("models", "render", "formats", "compare", "scoring", "diagram", "languages")
UPPER = ("benchmarks", "cli")
#: the one module allowed to import the CLI: `python -m diagbench` runs it.
ENTRY_POINT = "diagbench.__main__"
_REFERENCE = re.compile(rf"^{PACKAGE}(?:\.\w+)+(?::[\w.]+)?$")
_PREFIX = re.compile(rf"^{PACKAGE}(?:\.\w+)*\.$")


@dataclass(frozen=True, slots=True)
class Edge:
    """`source` imports (or names) `target`, on `line` of the source module's file."""

    source: str
    target: str
    line: int
    how: str  # "import" or "string"

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} ({self.how}, {self.file}:{self.line})"

    @property
    def file(self) -> str:
        return module_file(self.source).relative_to(SRC.parent).as_posix()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_file(name: str) -> Path:
    base = SRC.joinpath(*name.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


MODULES = {module_name(p): p for p in sorted((SRC / PACKAGE).rglob("*.py"))}


def resolve(name: str) -> str | None:
    """The module `name` is, or lies in (`a.b.attr` → `a.b`); None outside the package."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _package_of(module: str) -> str:
    return module if module_file(module).name == "__init__.py" else module.rpartition(".")[0]


def _absolute(module: str, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = _package_of(module).split(".")
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _named(module: str, tree: ast.Module) -> Iterator[tuple[str, int, str]]:
    """(named module or attribute, line, how) for every import and reference in `tree`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno, "import"
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, node)
            for alias in node.names:
                # `from a import b`: b is a module of a, or a name a defines
                yield (f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base,
                       node.lineno, "import")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and _REFERENCE.match(node.value):
            yield node.value.partition(":")[0], node.lineno, "string"
        elif isinstance(node, ast.JoinedStr) and node.values \
                and isinstance(first := node.values[0], ast.Constant) \
                and isinstance(first.value, str) and _PREFIX.match(first.value):
            yield first.value.rstrip("."), node.lineno, "string"


def _edges() -> list[Edge]:
    found: dict[tuple[str, str, str], Edge] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for name, line, how in _named(module, tree):
            target = resolve(name)
            if target is not None and target != module:
                found.setdefault((module, target, how), Edge(module, target, line, how))
    return sorted(found.values(), key=lambda e: (e.source, e.target, e.how))


EDGES = _edges()


def _cycles(edges: list[Edge]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for edge in edges:
        graph[edge.source].add(edge.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


def _top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_the_walk_sees_function_level_imports_strings_and_relative_imports():
    tree = ast.parse("import json\n"
                     "def f():\n    from diagbench.formats import parsed\n"
                     "    from .parsed import Parsed\n"
                     "    return 'diagbench.render.engines:ENGINES', f'diagbench.scoring.{x}'\n")
    named = {name for name, _, _ in _named("diagbench.formats.dot", tree)}
    assert {resolve(n) for n in named} == {None, "diagbench.formats.parsed",
                                           "diagbench.render.engines", "diagbench.scoring"}
    cycle = [Edge("diagbench.a", "diagbench.b", 1, "import"),
             Edge("diagbench.b", "diagbench.a", 9, "string")]
    assert _cycles([e for e in cycle if e.source in MODULES]) == []
    assert resolve("diagbench.formats.plantuml.graph.parse_graph") == \
        "diagbench.formats.plantuml.graph"


def test_no_import_cycles():
    cycles = _cycles(EDGES)
    message = []
    for component in cycles:
        inside = set(component)
        message.append("cycle between " + ", ".join(component) + ":")
        message += [f"  {e}" for e in EDGES if e.source in inside and e.target in inside]
    assert not cycles, "\n".join(message)


@pytest.mark.parametrize("upper", UPPER)
def test_lower_packages_do_not_reach_up(upper):
    offending = [e for e in EDGES if _top(e.source) in LOWER and _top(e.target) == upper]
    assert not offending, f"imports into {upper}:\n" + "\n".join(f"  {e}" for e in offending)


def test_nothing_imports_the_cli():
    offending = [e for e in EDGES if _top(e.target) == "cli" and _top(e.source) != "cli"
                 and e.source != ENTRY_POINT]
    assert not offending, "imports of cli:\n" + "\n".join(f"  {e}" for e in offending)
