"""The imports inside `diagbench.benchmarks`, read from the source (an AST walk, so that
imports in functions and under TYPE_CHECKING count as much as those at the top): no
circle among its modules, and no benchmark package imports another one."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "diagbench.benchmarks"


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, name: str) -> set[str]:
    """Every module `path` (module `name`) imports, wherever the import stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


def _graph() -> dict[str, set[str]]:
    paths = {_module(p): p for p in (ROOT / PACKAGE.replace(".", "/")).rglob("*.py")}
    return {name: {m for m in _imports(path, name) if m in paths and m != name}
            for name, path in paths.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of `graph` (module → modules it imports), or [] when there is none."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_cycle_finder_finds_a_hidden_circle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_no_circle_among_the_benchmark_modules():
    graph = _graph()
    assert f"{PACKAGE}.structure.judging" in graph[f"{PACKAGE}.structure.build"]
    assert _cycle(graph) == []


def test_no_benchmark_imports_another():
    graph = _graph()
    benchmarks = {n.split(".")[2] for n in graph if n.count(".") >= 3}
    for name, imported in graph.items():
        if name.count(".") < 3:
            continue
        own = name.split(".")[2]
        others = {m for m in imported if m.count(".") >= 3 and m.split(".")[2] != own}
        assert not others, f"{name} imports {sorted(others)}"
    assert {"structure", "archqa", "prior_bias", "conversion", "codegen"} <= benchmarks
