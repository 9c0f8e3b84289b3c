"""Graphviz DOT: read with Graphviz's own parser (libcgraph, through pygraphviz), write back.

`read_dot(text)` never raises. cgraph does what `dot` does with the text: implicit
nodes, edge chains and subgraph endpoints (`{a b} -> c` is two edges), `strict`
(one edge per pair), ports, attribute defaults and their scopes. What `dot` then
draws (and so what `counts()` give):

- entities: every node whose effective `style` is not `invis` (invisible nodes get no
  `<g class="node">`);
- relations: every edge whose effective `style` is not `invis`;
- clusters: every subgraph named `cluster…` (any case, at any depth) holding at least
  one node (an empty cluster is not drawn).

Entities are `vertex` entities with the node's `shape` and `label`; relations are
`link`s, drawn with an arrowhead at the head in a digraph (`dir` as given);
every attribute set on an element is kept in `properties`. cgraph records no line
numbers: an element's `line` is the first line naming it. A syntax error gives one
diagnostic with Graphviz's own message and line, and an empty diagram.
"""

from __future__ import annotations

import os
import re
import tempfile
import threading
from typing import TYPE_CHECKING, Any

from diagbench.diagram.graph import Cluster, Direction, Entity, GraphDiagram, Head, Relation
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed

if TYPE_CHECKING:
    import pygraphviz  # type: ignore[import-untyped]

_LOCK = threading.Lock()  # cgraph reports errors on the process's stderr
_SYNTAX = re.compile(r"line (\d+)")
_START = re.compile(r"(?is)^\s*(?:(?:/\*.*?\*/|//[^\n]*|#[^\n]*)\s*)*(?:strict\s+)?(?:di)?graph\b")
_ID = re.compile(r"^[A-Za-z_\x80-\uffff][\w\x80-\uffff]*$|^-?(?:\.\d+|\d+(?:\.\d*)?)$")


def read_dot(text: str) -> list[Parsed[GraphDiagram]]:
    """The graph of a DOT source, with Graphviz's diagnostics."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return [_empty([Diagnostic(1, "", "empty source: no graph")])]
    if not _START.match(text):
        line = next((n for n, s in enumerate(text.split("\n"), 1) if s.strip()), 1)
        return [_empty([Diagnostic(line, text.split("\n")[line - 1],
                                   "not a DOT graph: no 'graph' or 'digraph' statement")])]
    graph, message = _parse(text)
    if graph is None:
        m = _SYNTAX.search(message)
        line = int(m.group(1)) if m else 1
        lines = text.split("\n")
        return [_empty([Diagnostic(line, lines[line - 1] if line <= len(lines) else "",
                                   message or "Graphviz could not read the graph")])]
    return [Parsed(0, 1, "dot", "graph", _diagram(graph, text), ())]


def _empty(diagnostics: list[Diagnostic]) -> Parsed[GraphDiagram]:
    return Parsed(0, 1, "dot", "graph", GraphDiagram("dot", "graph"), tuple(diagnostics))


def _parse(text: str) -> tuple[pygraphviz.AGraph | None, str]:
    """(graph, "") or (None, Graphviz's error message)."""
    import pygraphviz

    with _LOCK, tempfile.TemporaryFile() as err:
        saved = os.dup(2)
        os.dup2(err.fileno(), 2)
        try:
            graph = pygraphviz.AGraph(string=text)
            problem = None
        except (pygraphviz.DotError, ValueError, TypeError) as exc:
            graph, problem = None, str(exc)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    if graph is not None:
        return graph, ""
    errors = [s.strip() for s in stderr.splitlines() if s.strip().startswith("Error")]
    return None, (errors[0].removeprefix("Error: ") if errors else problem or "invalid input")


def _attrs(item: Any, names: list[str]) -> tuple[tuple[str, str], ...]:
    """The effective attributes of a node or edge (set on it or by a default in scope)."""
    pairs = []
    for name in names:
        value = item.attr[name]
        if value not in ("", None) and not (name == "label" and value == "\\N"):
            pairs.append((name, str(value)))
    return tuple(pairs)


def _invisible(item: Any) -> bool:
    return "invis" in (item.attr["style"] or "")


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\w+')


def _finder(text: str):
    """A function giving the first line that names an id (1 when none does)."""
    first: dict[str, int] = {}
    for n, line in enumerate(text.split("\n"), 1):
        for token in _TOKEN.findall(line):
            first.setdefault(token.strip('"'), n)

    def line_of(name: str) -> int:
        return first.get(name, 1)

    return line_of


def _diagram(graph: pygraphviz.AGraph, text: str) -> GraphDiagram:
    line_of = _finder(text)
    clusters: list[Cluster] = []
    parent_of: dict[str, str] = {}

    claimed: dict[str | None, set[str]] = {}

    def walk(sub: Any, parent: str | None, removed: frozenset[str]) -> None:
        # dot gives a node to the first cluster holding it among the clusters of one
        # level and deletes it from the later ones (mark_clusters: "already in a
        # rankset, deleted from cluster"); a cluster left without nodes is not drawn.
        for child in sub.subgraphs():
            name = child.name or ""
            if not name.lower().startswith("cluster"):
                walk(child, parent, removed)
                continue
            nodes = [str(n) for n in child.nodes() if str(n) not in removed]
            taken = claimed.setdefault(parent, set())
            own = [n for n in nodes if n not in taken]
            if not own:
                continue
            clusters.append(Cluster(name, str(child.graph_attr.get("label") or ""),
                                    "subgraph", name, parent, (), (),
                                    properties=_attrs_graph(child), line=line_of(name)))
            for m in own:
                parent_of[m] = name  # deeper clusters overwrite: innermost wins
            taken.update(own)
            walk(child, name, removed | {n for n in nodes if n not in own})

    walk(graph, None, frozenset())
    direct: dict[str, list[str]] = {}
    entities = []
    node_names = sorted(graph.node_attr.keys())
    for node in graph.nodes():
        if _invisible(node):
            continue
        name = str(node)
        label = node.attr["label"] or ""
        parent = parent_of.get(name)
        if parent is not None:
            direct.setdefault(parent, []).append(name)
        entities.append(Entity(name, "" if label in ("", "\\N") else label, "vertex",
                               node.attr["shape"] or "", parent=parent,
                               properties=_attrs(node, node_names), line=line_of(name)))
    clusters = [Cluster(c.id, c.name, c.kind, c.shape, c.parent, tuple(direct.get(c.id, ())),
                        properties=c.properties, line=c.line) for c in clusters]
    directed = graph.is_directed()
    edge_names = sorted(k for k in graph.edge_attr if k != "key")
    relations = []
    for edge in graph.iteredges():
        if _invisible(edge):
            continue
        tail, head = str(edge[0]), str(edge[1])
        direction, source_head, target_head = _heads(directed, edge.attr["dir"] or "")
        relations.append(Relation(
            tail, head, "link", direction, str(edge.attr["label"] or ""), source_head,
            target_head, _style(edge.attr["style"] or ""),
            source_port=str(edge.attr["tailport"] or ""),
            target_port=str(edge.attr["headport"] or ""),
            properties=_attrs(edge, edge_names), line=line_of(tail)))
    # cgraph iterates edges node by node: order them by their ends' creation order.
    # (invisible nodes, which the model leaves out, after the others by name)
    order = {e.id: k for k, e in enumerate(entities)}
    relations.sort(key=lambda r: (order.get(r.source, len(order)), r.source,
                                  order.get(r.target, len(order)), r.target, r.label,
                                  r.source_port, r.target_port, r.properties))
    return GraphDiagram("dot", "graph", tuple(entities), tuple(relations), tuple(clusters), (),
                        name=graph.name or None, title=str(graph.graph_attr.get("label") or ""),
                        direction=str(graph.graph_attr.get("rankdir") or ""))


def _attrs_graph(sub: Any) -> tuple[tuple[str, str], ...]:
    return tuple((k, str(v)) for k, v in sub.graph_attr.items() if v not in ("", None))


def _heads(directed: bool, dir_: str) -> tuple[Direction, Head, Head]:
    """(direction, source head, target head) of an edge (dir defaults: forward/none)."""
    dir_ = dir_ or ("forward" if directed else "none")
    heads: dict[str, tuple[Direction, Head, Head]] = {
        "forward": ("single", "none", "arrow"), "back": ("single", "arrow", "none"),
        "both": ("double", "arrow", "arrow")}
    return heads.get(dir_, ("none", "none", "none"))


def _style(style: str):
    for word in ("dashed", "dotted", "bold"):
        if word in style:
            return word
    return "solid"


def quote(name: str) -> str:
    """A DOT id: bare when it can be, else a quoted string (HTML strings kept)."""
    if _ID.match(name) and name.lower() not in ("node", "edge", "graph", "digraph",
                                                 "subgraph", "strict"):
        return name
    if name.startswith("<") and name.endswith(">"):
        return name
    return '"' + re.sub(r'(?<!\\)"', r'\\"', name) + '"'


def write_dot(diagram: GraphDiagram) -> str:
    """The DOT source of `diagram`: a digraph when any relation has an arrowhead.

    Each entity is declared with its properties (its label and shape otherwise), each
    cluster is a `subgraph cluster…` holding its direct members and sub-clusters, each
    relation an edge with its properties (ports and `dir` otherwise)."""
    directed = any(r.direction != "none" for r in diagram.relations) or not diagram.relations
    out = [("digraph " if directed else "graph ") + (quote(diagram.name) + " " if diagram.name
                                                      else "") + "{"]
    if diagram.direction:
        out.append(f"  rankdir={quote(diagram.direction)};")
    if diagram.title:
        out.append(f"  label={quote(diagram.title)};")

    def node(e: Entity, indent: str) -> str:
        props = dict(e.properties)
        if e.name and "label" not in props:
            props["label"] = e.name
        if e.shape and "shape" not in props:
            props["shape"] = e.shape
        return indent + quote(e.id) + _attr_list(props) + ";"

    def cluster(c: Cluster, indent: str) -> None:
        cid = c.id if c.id.lower().startswith("cluster") else "cluster_" + c.id
        out.append(f"{indent}subgraph {quote(cid)} {{")
        props = dict(c.properties)
        if c.name and "label" not in props:
            props["label"] = c.name
        out.extend(f"{indent}  {quote(k)}={quote(v)};" for k, v in props.items())
        for e in diagram.entities:
            if e.parent == c.id:
                out.append(f"{indent}  {quote(e.id)};")
        for child in diagram.children(c.id):
            cluster(child, indent + "  ")
        out.append(indent + "}")

    out.extend(node(e, "  ") for e in diagram.entities)
    known = set(diagram.ids)
    for end in dict.fromkeys(x for r in diagram.relations for x in r.endpoints):
        if end not in known and diagram.cluster(end) is None:  # an end not drawn
            out.append(f"  {quote(end)} [style=invis];")
    for c in diagram.clusters:
        if c.parent is None or diagram.cluster(c.parent) is None:
            cluster(c, "  ")
    arrow = " -> " if directed else " -- "
    for r in diagram.relations:
        props = dict(r.properties)
        if r.label and "label" not in props:
            props["label"] = r.label
        want = {"single": "back" if r.source_head != "none" and r.target_head == "none"
                else "forward", "double": "both", "none": "none"}[r.direction]
        if want != ("forward" if directed else "none"):
            props.setdefault("dir", want)
        if r.style != "solid":
            props.setdefault("style", r.style)
        tail = quote(r.source) + (":" + quote(r.source_port) if r.source_port else "")
        head = quote(r.target) + (":" + quote(r.target_port) if r.target_port else "")
        props.pop("tailport", None)
        props.pop("headport", None)
        out.append("  " + tail + arrow + head + _attr_list(props) + ";")
    out.append("}")
    return "\n".join(out) + "\n"


def _attr_list(props: dict[str, str]) -> str:
    if not props:
        return ""
    return " [" + ", ".join(f"{quote(k)}={quote(v)}" for k, v in props.items()) + "]"
