"""DESIGN.md's dependency order, checked on the package's import graph read from the
source with `ast` ("Packages": "Dependencies point down this table's order of concepts
… Nothing imports `cli`; nothing below `benchmarks` names a benchmark, not even as a
string. No cycles, none hidden in function-level imports.").

Every way one module reaches another counts:
- `import` and `from … import` anywhere: module level, in functions, in `TYPE_CHECKING`
  blocks, relative or absolute;
- `importlib.import_module(…)` (and `__import__`) with a literal argument, or an f-string
  whose parts are resolved when they come from literals (a constant, a literal tuple,
  list or dict iterated or indexed); a part that cannot be resolved stands for any
  dotted name, so `f"diagbench.x.{name}"` reaches every module under `diagbench.x`;
  a dynamic import that names no `diagbench.` prefix at all must be declared in
  `DYNAMIC`;
- strings that name a module (`"diagbench.x.y"`) or a lazy reference
  (`"diagbench.x.y:attr"`, what `diagbench.references.load` imports), also as
  f-strings; a reference to a module or attribute that does not exist is an error.

The package is checked by the tests at the end; the checker itself on small package
trees written to a temporary folder.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from math import prod
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "diagbench"

#: DESIGN.md's order of concepts, top to bottom: a module may import (or name) a module
#: of a lower level only, or of its own part (package). `__main__` is the entry point
#: (`python -m diagbench` runs the CLI). The last level holds the top-level modules,
#: leaves every layer may use, so they import nothing of diagbench: the root package
#: (`__version__`), `console` (exit codes and progress, shared by the CLI's commands and
#: those a benchmark contributes), `references` (the lazy loader every registry uses)
#: and `records` (the one JSON serializer of the typed records). Should one of them need a
#: package, it belongs inside that package.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("__main__",),
    ("cli",),
    ("export", "benchmarks"),
    ("executors",),
    ("languages",),
    ("models", "render", "compare", "scoring", "report"),
    ("formats",),
    ("diagram",),
    (PACKAGE, "console", "references", "records"),
)
#: The imports allowed between two parts of one level (importer, imported), each with its
#: reason read from DESIGN.md's table (never both ways); any other is an error.
SIDEWAYS: dict[tuple[str, str], str] = {
    ("export", "benchmarks"): "export turns a built benchmark into other ecosystems' "
                              "formats: it finds it in the registry and reads it through "
                              "the Benchmark protocol (a benchmark never imports export)",
    ("compare", "scoring"): "scoring.metrics is the home of every metric as a pure "
                            "function; compare's similarities are computed with them "
                            "(scoring, pure, never imports compare)",
}
#: Dynamic imports whose module the source does not say, by (module, line's code).
DYNAMIC: dict[tuple[str, str], str] = {
    ("diagbench.benchmarks.protocol", 'importlib.import_module(f"{package}.export")'):
        "a benchmark's own export module, beside its benchmark module",
    ("diagbench.languages.record",
     'importlib.import_module(f"{type(self).__module__}.similarity")'):
        "a language's own similarity module, beside its package's `__init__`",
    ("diagbench.models.openai_compat", "importlib.import_module("):
        "the OpenAI SDK's HTTP client library (third-party)",
    ("diagbench.references", "importlib.import_module(module)"):
        "the loader of lazy references; each reference is checked where it is written",
    ("diagbench.render.worker", "importlib.import_module(module)"):
        "the third-party modules a drawing engine names in `preload`",
}

#: DESIGN.md's order broken by where the languages' own code lives today (in
#: `formats`, `render`, `compare`, `scoring.metrics` instead of `languages/<name>/`):
#: (importer, imported), each left to the move of every language into its own package.
#: The set can only shrink: a test fails when an entry is no longer a violation.
LANGUAGES_LAYOUT: frozenset[tuple[str, str]] = frozenset()

_ANY = r"\w+(\.\w+)*"  # an unknown part of an f-string: any dotted name
_MODULE_NAME = re.compile(r"^\w+(?:\.\w+)*$")
_REFERENCE = re.compile(r"^(\w+(?:\.\w+)*):(\w+)(?:\.\w+)*$")
_MAX_VALUES = 256

#: The strings each part of an f-string can be (None: not known from literals).
Pieces = list[set[str] | None]


@dataclass(frozen=True, slots=True)
class Edge:
    """`source` imports (or names) `target`, on `line` of `file`."""

    source: str
    target: str
    line: int
    how: str  # "import", "importlib", "string" or "f-string"
    file: str

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} ({self.how}, {self.file}:{self.line})"


@dataclass(frozen=True, slots=True)
class Problem:
    """A reference to nothing (dangling), or a dynamic import of a module the source
    does not say."""

    module: str
    line: int
    text: str
    file: str

    def __str__(self) -> str:
        return f"{self.module}: {self.text} ({self.file}:{self.line})"


class _Values:
    """The literal strings an expression of one module can be: constants, `a if c else
    b`, `+`, f-strings, a literal tuple/list/dict indexed or iterated, and names bound
    to those in the innermost function around them that binds them (else the module)."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.nodes: list[ast.AST] = [tree]  # every node, parents before children
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in self.nodes:
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
                self.nodes.append(child)

    def strings(self, node: ast.AST, depth: int = 0) -> set[str] | None:
        """Every string `node` can evaluate to, or None when that is not a literal."""
        if depth > 8:
            return None
        if isinstance(node, ast.Constant):
            return {node.value} if isinstance(node.value, str) else None
        if isinstance(node, ast.IfExp):
            return _union(self.strings(node.body, depth + 1), self.strings(node.orelse, depth + 1))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return _joined([self.strings(node.left, depth + 1),
                            self.strings(node.right, depth + 1)])
        if isinstance(node, ast.JoinedStr):
            return _joined(self.pieces(node, depth + 1))
        if isinstance(node, ast.Subscript):  # {…}[key], (…)[i]: any of its values
            return self.items(node.value, depth + 1, keys=False)
        if isinstance(node, ast.Name) and (bindings := self.bindings(node)):
            found: set[str] | None = set()
            for kind, expr in bindings:
                found = _union(found, self.strings(expr, depth + 1) if kind == "value"
                               else self.items(expr, depth + 1, keys=True))
            return found
        return None

    def items(self, node: ast.AST, depth: int, keys: bool) -> set[str] | None:
        """The strings a literal collection holds (a dict's keys when iterated, its
        values when indexed), or a name bound to one."""
        if depth > 8:
            return None
        found: set[str] | None = set()
        if isinstance(node, ast.Name) and (bindings := self.bindings(node)):
            for kind, expr in bindings:
                found = _union(found, self.items(expr, depth + 1, keys)
                               if kind == "value" else None)
        elif isinstance(node, ast.Dict):
            for part in node.keys if keys else node.values:
                found = _union(found, self.strings(part, depth + 1) if part else None)
        elif isinstance(node, ast.Tuple | ast.List | ast.Set):
            for element in node.elts:
                found = _union(found, self.strings(element, depth + 1))
        else:
            return None
        return found or None  # an empty literal is filled later: any value

    def pieces(self, node: ast.JoinedStr, depth: int = 0) -> Pieces:
        return [{str(part.value)} if isinstance(part, ast.Constant)
                else self.strings(part.value, depth + 1)
                if isinstance(part, ast.FormattedValue) and part.format_spec is None
                else None for part in node.values]

    def bindings(self, name: ast.Name) -> list[tuple[str, ast.AST]]:
        """("value", expression assigned) or ("item", collection iterated) for each
        binding of `name` in the innermost function around it that binds it, else in
        the module; an expression that is not a literal stands for any value."""
        scope: ast.AST = name
        while scope in self.parents:
            scope = self.parents[scope]
            if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                found = _bindings(scope, name.id)
                if found:
                    return found
        return _bindings(self.tree, name.id)


def _bindings(scope: ast.AST, name: str) -> list[tuple[str, ast.AST]]:
    found: list[tuple[str, ast.AST]] = []
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue  # a scope of its own
        stack.extend(ast.iter_child_nodes(node))
        target = getattr(node, "target", None)
        binds = isinstance(target, ast.Name) and target.id == name
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            found.append(("value", node.value))
        elif binds and isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            found.append(("item", node.iter))
        elif binds and isinstance(node, ast.AnnAssign | ast.NamedExpr) and node.value:
            found.append(("value", node.value))
        elif binds or (isinstance(node, ast.arg) and node.arg == name):
            found.append(("value", node))  # `+=`, a parameter…: not a literal
    return found


def _union(a: set[str] | None, b: set[str] | None) -> set[str] | None:
    return None if a is None or b is None else a | b


def _joined(pieces: Pieces) -> set[str] | None:
    """The strings `pieces` make one after the other, when all are known (and few)."""
    known = [p for p in pieces if p is not None]
    if len(known) < len(pieces) or prod(len(p) for p in known) > _MAX_VALUES:
        return None
    return {"".join(combo) for combo in itertools.product(*known)}


def _module_part(pieces: Pieces) -> tuple[Pieces, bool]:
    """`pieces` up to the `:` of a lazy reference ("module:attr"), and whether one was."""
    for k, piece in enumerate(pieces):
        if piece is not None and all(":" in s for s in piece):
            return [*pieces[:k], {s.partition(":")[0] for s in piece}], True
    return pieces, False


def _is_import_call(node: ast.AST) -> bool:
    f = getattr(node, "func", None)
    return isinstance(node, ast.Call) and bool(node.args) and (
        (isinstance(f, ast.Attribute) and f.attr == "import_module")
        or (isinstance(f, ast.Name) and f.id in ("import_module", "__import__")))


def _top_level_names(tree: ast.Module) -> set[str]:
    """The names a module binds at its top level (also in `if`/`try`/`with` blocks)."""
    names: set[str] = set()
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {a.asname or a.name.partition(".")[0] for a in node.names}
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.If | ast.Try | ast.With):
            stack += [*node.body, *getattr(node, "orelse", []),
                      *getattr(node, "finalbody", []),
                      *(s for h in getattr(node, "handlers", []) for s in h.body)]
    return names


class ImportGraph:
    """The modules of `package` under `src`, every edge between them, the references
    to nothing (`dangling`) and the dynamic imports whose module the source does not
    say (`dynamic`)."""

    def __init__(self, src: Path, package: str) -> None:
        self.src, self.package = src, package
        self.modules = {self._name(p): p for p in sorted((src / package).rglob("*.py"))}
        self.texts = {m: p.read_text(encoding="utf-8") for m, p in self.modules.items()}
        self.trees = {m: ast.parse(t, str(self.modules[m])) for m, t in self.texts.items()}
        self.dangling: list[Problem] = []
        self.dynamic: list[Problem] = []
        found: dict[tuple[str, str, str], Edge] = {}
        for module in self.modules:
            file = self.file(module)
            for kind, text, line, how in self._walk(module):
                if kind == "dangling":
                    self.dangling.append(Problem(module, line, text, file))
                elif kind == "dynamic":
                    self.dynamic.append(Problem(module, line, text, file))
                elif text != module:
                    found.setdefault((module, text, how), Edge(module, text, line, how, file))
        self.edges = sorted(found.values(), key=lambda e: (e.source, e.target, e.how))

    def _name(self, path: Path) -> str:
        parts = list(path.relative_to(self.src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        return ".".join(parts)

    def file(self, module: str) -> str:
        return self.modules[module].relative_to(self.src.parent).as_posix()

    def part(self, module: str) -> str:
        """The concept `module` belongs to: its top package, or the root package."""
        parts = module.split(".")
        return parts[1] if len(parts) > 1 else parts[0]

    def resolve(self, name: str) -> str | None:
        """The module `name` is, or lies in (`a.b.attr` → `a.b`); None outside."""
        while name:
            if name in self.modules:
                return name
            name = name.rpartition(".")[0]
        return None

    def _absolute(self, module: str, node: ast.ImportFrom) -> str:
        if node.level == 0:
            return node.module or ""
        is_package = self.modules[module].name == "__init__.py"
        base = (module if is_package else module.rpartition(".")[0]).split(".")
        base = base[:len(base) - (node.level - 1)]
        return ".".join(base + ([node.module] if node.module else []))

    def _walk(self, module: str) -> Iterator[tuple[str, str, int, str]]:
        """("edge", target, line, how), ("dangling", text, line, "") and ("dynamic",
        text, line, "") for every import and module name of `module`."""
        values = _Values(self.trees[module])
        imported = {id(n.args[0]) for n in values.nodes if _is_import_call(n)}
        for node in values.nodes:
            line = getattr(node, "lineno", 0)
            parent = values.parents.get(node)
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if (target := self.resolve(alias.name)) is not None:
                        yield "edge", target, line, "import"
            elif isinstance(node, ast.ImportFrom):
                base = self._absolute(module, node)
                for alias in node.names:  # `from a import b`: b is a module of a, or a name
                    name = f"{base}.{alias.name}"
                    target = name if name in self.modules else self.resolve(base)
                    if target is not None:
                        yield "edge", target, line, "import"
            elif id(node) in imported or (
                    isinstance(node, ast.Constant | ast.JoinedStr)
                    and not isinstance(parent, ast.JoinedStr) and self._may_name(node)):
                is_import = id(node) in imported
                how = "importlib" if is_import else (
                    "string" if isinstance(node, ast.Constant) else "f-string")
                pieces = (values.pieces(node) if isinstance(node, ast.JoinedStr)
                          else [values.strings(node)])
                for kind, text in self._named(pieces, is_import):
                    if kind == "dynamic":  # the call, as written
                        text = ast.get_source_segment(self.texts[module], parent or node) or ""
                    yield kind, text, line, how

    def _may_name(self, node: ast.Constant | ast.JoinedStr) -> bool:
        """Whether a string that is not imported may name a module: it starts with the
        package's name (a first step, before its parts are resolved)."""
        first = node.values[0] if isinstance(node, ast.JoinedStr) and node.values else node
        return isinstance(first, ast.Constant) and isinstance(first.value, str) \
            and first.value.startswith(self.package)

    def _named(self, pieces: Pieces, is_import: bool) -> Iterator[tuple[str, str]]:
        """("edge", module), ("dangling", text) or ("dynamic", text) for a string made
        of `pieces` that names a module of the package, a lazy reference, or (when
        `is_import`) the module `importlib` imports."""
        prefix = self.package + "."
        whole = _joined(pieces)
        if whole is not None:
            for text in sorted(whole):
                if not (text == self.package or text.startswith(prefix)):
                    continue
                reference = _REFERENCE.match(text)
                if reference:
                    target, attribute = reference.groups()
                    exists = target in self.modules and (
                        f"{target}.{attribute}" in self.modules
                        or attribute in _top_level_names(self.trees[target]))
                    yield ("edge", target) if exists else ("dangling", text)
                elif text in self.modules:
                    yield "edge", text
                elif is_import and _MODULE_NAME.match(text):
                    yield "dangling", text
            return
        first = pieces[0] if pieces else None
        if first is None or not all(s.startswith(prefix) for s in first):
            if is_import:
                yield "dynamic", ""
            return
        pieces, is_reference = _module_part(pieces)
        pattern = "".join(_ANY if p is None else "(" + "|".join(map(re.escape, sorted(p))) + ")"
                          for p in pieces)
        matches = [m for m in self.modules if re.fullmatch(pattern, m)]
        if not matches and (is_import or is_reference):
            yield "dangling", f"no module matches {pattern}"
        for target in matches:
            yield "edge", target


def cycles(graph: ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    successors: dict[str, set[str]] = {m: set() for m in graph.modules}
    for e in graph.edges:
        successors[e.source].add(e.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(successors[node]):
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

    for node in sorted(successors):
        if node not in index:
            visit(node)
    return sorted(components)


def order_violations(graph: ImportGraph, layers: tuple[tuple[str, ...], ...],
                     sideways: dict[tuple[str, str], str]) -> list[tuple[Edge, str]]:
    """Each edge against the order of `layers`, with the rule it breaks: "upward"
    (into a higher level) or "sideways" (into another part of its level, not allowed
    by `sideways`); edges of a part not placed in `layers` are "unplaced"."""
    level = {part: k for k, parts in enumerate(layers) for part in parts}
    found = []
    for e in graph.edges:
        a, b = graph.part(e.source), graph.part(e.target)
        if a == b:
            continue
        if a not in level or b not in level:
            found.append((e, "unplaced"))
        elif level[b] < level[a]:
            found.append((e, "upward"))
        elif level[b] == level[a] and (a, b) not in sideways:
            found.append((e, "sideways"))
    return found


def benchmark_names(graph: ImportGraph) -> set[str]:
    """The names given in `@benchmark("name")` decorators."""
    names = set()
    for tree in graph.trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id == "benchmark" and node.args \
                    and isinstance(node.args[0], ast.Constant):
                names.add(node.args[0].value)
    return names


def benchmarks_named_below(graph: ImportGraph, layers: tuple[tuple[str, ...], ...],
                           names: set[str]) -> list[str]:
    """Strings equal to a benchmark's name in modules below `benchmarks`' level."""
    level = {part: k for k, parts in enumerate(layers) for part in parts}
    below = {part for part, k in level.items() if k > level["benchmarks"]}
    return [f"{graph.file(m)}:{node.lineno}: {node.value!r}"
            for m, tree in graph.trees.items() if graph.part(m) in below
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in names]


def benchmarks_importing_another(graph: ImportGraph) -> list[Edge]:
    """Edges from one benchmark's package (`<package>.benchmarks.<name>`) into
    another's."""
    def benchmark_of(module: str) -> str | None:
        parts = module.split(".")
        return parts[2] if len(parts) > 3 and parts[1] == "benchmarks" else None
    return [e for e in graph.edges if benchmark_of(e.target) is not None
            and benchmark_of(e.source) not in (None, benchmark_of(e.target))]


def _listed(lines) -> str:
    return "\n".join(f"  {line}" for line in lines)


# --- the checker, on small package trees --------------------------------------------

_TOY_LAYERS = (("cli",), ("benchmarks",), ("formats",), ("diagram", "toy"))


def _toy(tmp_path: Path, files: dict[str, str]) -> ImportGraph:
    for name, text in {"toy/__init__.py": "", "toy/cli/__init__.py": "",
                       "toy/cli/run.py": "", "toy/formats/__init__.py": "",
                       "toy/diagram/__init__.py": "", **files}.items():
        path = tmp_path / "src" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return ImportGraph(tmp_path / "src", "toy")


def test_a_cycle_hidden_in_an_importlib_f_string_is_found(tmp_path):
    graph = _toy(tmp_path, {
        # the reader is chosen from a literal dict and imported in a function
        "toy/formats/__init__.py":
            "import importlib\n"
            "def read(kind):\n"
            "    module = {'flow': 'flowchart', 'class': 'classes'}[kind]\n"
            "    return importlib.import_module(f'toy.formats.{module}').read\n",
        "toy/formats/flowchart.py": "from toy.formats import helper\n",
        "toy/formats/classes.py": "",
        "toy/formats/writer.py": "",
    })
    assert [str(e) for e in graph.edges] == [
        "toy.formats -> toy.formats.classes (importlib, src/toy/formats/__init__.py:4)",
        "toy.formats -> toy.formats.flowchart (importlib, src/toy/formats/__init__.py:4)",
        "toy.formats.flowchart -> toy.formats (import, src/toy/formats/flowchart.py:1)"]
    assert cycles(graph) == [["toy.formats", "toy.formats.flowchart"]]


def test_readers_imported_statically_beside_their_helpers_make_no_cycle(tmp_path):
    # a module's import of its package's `__init__` (which Python runs first) is no edge
    graph = _toy(tmp_path, {
        "toy/formats/__init__.py": "from toy.formats import flowchart\n",
        "toy/formats/flowchart.py": "from toy.formats.helpers import unquote\n",
        "toy/formats/helpers.py": "def unquote(text):\n    return text\n",
    })
    assert [(e.source, e.target) for e in graph.edges] == [
        ("toy.formats", "toy.formats.flowchart"),
        ("toy.formats.flowchart", "toy.formats.helpers")]
    assert cycles(graph) == []


def test_an_f_string_of_unknown_parts_reaches_every_module_it_can_name(tmp_path):
    graph = _toy(tmp_path, {
        "toy/formats/a.py": "def f(name):\n    return f'toy.formats.{name}'\n",
        "toy/formats/b.py": "",
        "toy/formats/c/__init__.py": "",
        "toy/formats/c/d.py": "",
        "toy/diagram/__init__.py": "import importlib\n"
                                   "def f(name):\n"
                                   "    importlib.import_module(f'toy.cli.{name}')\n",
    })
    assert {(e.source, e.target, e.how) for e in graph.edges} == {
        ("toy.formats.a", "toy.formats.b", "f-string"),
        ("toy.formats.a", "toy.formats.c", "f-string"),
        ("toy.formats.a", "toy.formats.c.d", "f-string"),
        ("toy.diagram", "toy.cli.run", "importlib")}  # not `toy.cli` itself: `.{name}`
    assert [(str(e.source), rule) for e, rule in order_violations(graph, _TOY_LAYERS, {})] \
        == [("toy.diagram", "upward")]


def test_upward_imports_in_functions_and_lazy_references_break_the_order(tmp_path):
    graph = _toy(tmp_path, {
        "toy/formats/writer.py": "def main():\n    from ..cli import run\n",
        "toy/formats/flowchart.py": "def read(text):\n    return text\n",
        "toy/diagram/engines.py": "ENGINES = {'x': 'toy.formats.flowchart:read'}\n",
        "toy/diagram/shapes.py": "import toy\nfrom toy import diagram\n",
        "toy/benchmarks/__init__.py": "from toy.formats import writer\n",
        "toy/cli/main.py": "from toy.benchmarks import other\nfrom toy.diagram import shapes\n",
        "toy/benchmarks/other.py": "",
    })
    found = {(e.source, e.target, e.how, rule)
             for e, rule in order_violations(graph, _TOY_LAYERS, {})}
    assert found == {
        ("toy.formats.writer", "toy.cli.run", "import", "upward"),
        ("toy.diagram.engines", "toy.formats.flowchart", "string", "upward"),
        ("toy.diagram.shapes", "toy", "import", "sideways"),
    }
    assert len(graph.edges) == 7  # and four that point down or stay in their part
    allowed = {("diagram", "toy"): "the toy's own rule"}
    assert {e.target for e, _ in order_violations(graph, _TOY_LAYERS, allowed)} == \
        {"toy.cli.run", "toy.formats.flowchart"}
    assert cycles(graph) == []


def test_references_to_nothing_and_unknown_dynamic_imports_are_reported(tmp_path):
    graph = _toy(tmp_path, {
        "toy/formats/flowchart.py": "def read(text):\n    return text\n",
        "toy/diagram/engines.py":
            "import importlib\n"
            "GOOD = 'toy.formats.flowchart:read'\n"
            "GONE = 'toy.formats.gone:read'\n"
            "MISSING = 'toy.formats.flowchart:write'\n"
            "NOT_A_MODULE = 'toy.quiet'\n"
            "KINDS = ('flowchart', 'sequence')\n"
            "def load(name):\n"
            "    importlib.import_module(name)\n"
            "    importlib.import_module(f'{name}.x')\n"
            "    for kind in KINDS:\n"
            "        importlib.import_module('toy.formats.' + kind)\n",
    })
    assert sorted((p.line, p.text) for p in graph.dangling) == [
        (3, "toy.formats.gone:read"), (4, "toy.formats.flowchart:write"),
        (11, "toy.formats.sequence")]
    assert [(p.line, p.text) for p in graph.dynamic] == [
        (8, "importlib.import_module(name)"), (9, "importlib.import_module(f'{name}.x')")]
    assert {(e.target, e.how, e.line) for e in graph.edges} == {
        ("toy.formats.flowchart", "string", 2), ("toy.formats.flowchart", "importlib", 11)}


def test_a_benchmark_named_below_benchmarks_or_by_another_is_found(tmp_path):
    graph = _toy(tmp_path, {
        "toy/benchmarks/__init__.py": "",
        "toy/benchmarks/runs.py": "from toy.benchmarks.quiz import build\n",
        "toy/benchmarks/quiz/__init__.py": "",
        "toy/benchmarks/quiz/benchmark.py": "@benchmark('quiz')\nclass Quiz: ...\n",
        "toy/benchmarks/quiz/build.py": "NAME = 'quiz'\n",
        "toy/benchmarks/exam/__init__.py": "",
        "toy/benchmarks/exam/benchmark.py": "@benchmark('exam')\nclass Exam: ...\n"
                                            "def f():\n    from ..quiz import build\n",
        "toy/formats/flowchart.py": "DEFAULT = 'quiz'\n",
    })
    assert benchmark_names(graph) == {"quiz", "exam"}
    assert benchmarks_named_below(graph, _TOY_LAYERS, {"quiz"}) == [
        "src/toy/formats/flowchart.py:1: 'quiz'"]
    assert [str(e) for e in benchmarks_importing_another(graph)] == [
        "toy.benchmarks.exam.benchmark -> toy.benchmarks.quiz.build "
        "(import, src/toy/benchmarks/exam/benchmark.py:4)"]


# --- diagbench ------------------------------------------------------------------------

GRAPH = ImportGraph(SRC, PACKAGE)


def test_every_part_of_the_package_has_its_place_in_the_order():
    placed = {part for parts in LAYERS for part in parts}
    parts = {GRAPH.part(m) for m in GRAPH.modules}
    assert parts - placed == set(), "not placed in LAYERS"
    assert placed - parts == set(), "placed in LAYERS but gone from the package"


def test_dependencies_point_down_designs_order():
    found = [(e, rule) for e, rule in order_violations(GRAPH, LAYERS, SIDEWAYS)
             if (e.source, e.target) not in LANGUAGES_LAYOUT]
    assert not found, "against DESIGN.md's order:\n" + _listed(f"{rule}: {e}" for e, rule in found)


def test_the_languages_layout_exceptions_are_all_still_needed():
    breaking = {(e.source, e.target) for e, _ in order_violations(GRAPH, LAYERS, SIDEWAYS)}
    stale = sorted(LANGUAGES_LAYOUT - breaking)
    assert not stale, "no longer violations, remove from LANGUAGES_LAYOUT:\n" + _listed(
        f"{a} -> {b}" for a, b in stale)


def test_no_import_cycles():
    message = []
    for component in cycles(GRAPH):
        inside = set(component)
        message.append("cycle between " + ", ".join(component) + ":")
        message += [f"  {e}" for e in GRAPH.edges if e.source in inside and e.target in inside]
    assert not message, "\n".join(message)


def test_nothing_imports_the_cli():
    offending = [e for e in GRAPH.edges if GRAPH.part(e.target) == "cli"
                 and GRAPH.part(e.source) not in ("cli", "__main__")]
    assert not offending, "imports of cli:\n" + _listed(offending)


def test_lazy_references_name_what_exists():
    assert not GRAPH.dangling, "references to nothing:\n" + _listed(GRAPH.dangling)


def test_every_dynamic_import_the_checker_cannot_follow_is_declared():
    found = {(p.module, p.text.split("\n")[0]) for p in GRAPH.dynamic}
    assert found - DYNAMIC.keys() == set(), "undeclared dynamic imports"
    assert DYNAMIC.keys() - found == set(), "declared dynamic imports that are gone"


@pytest.mark.parametrize("kind", ["import", "importlib", "string"])
def test_the_walk_sees_each_kind_of_edge_in_the_package(kind):
    # the kinds of edge the rules above judge; if one vanished, the walk broke
    assert any(e.how == kind for e in GRAPH.edges)


def test_no_benchmark_imports_another():
    found = benchmarks_importing_another(GRAPH)
    assert not found, "a benchmark importing another:\n" + _listed(found)


def test_nothing_below_benchmarks_names_a_benchmark():
    names = benchmark_names(GRAPH)
    assert names, "no @benchmark(...) found: the registry's decorator changed?"
    found = benchmarks_named_below(GRAPH, LAYERS, names)
    assert not found, "benchmarks named below benchmarks:\n" + _listed(found)
