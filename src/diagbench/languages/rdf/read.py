"""RDF/XML read by RDFLib (its `xml` parser) into a `KnowledgeGraph`, after a safety
pass that refuses what could reach the machine.

The safety pass parses the text once with defusedxml's SAX parser, which refuses
every external reference (an external entity `<!ENTITY f SYSTEM "file:///…">` or
`PUBLIC "…" "http://…"`, an external DTD subset) before RDFLib sees the text; internal
entities (`<!ENTITY ex "http://example.org/">`, common in OWL files) are allowed, and
the same pass bounds what they expand to (`MAX_EXPANDED`: a "billion laughs" is
refused before RDFLib builds its strings). RDFLib is given a fixed
base URI (`BASE`), so relative references never name a local file. Graphs of more than
`MAX_TRIPLES` triples are refused.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed
from diagbench.languages.rdf.model import KnowledgeGraph, Term

if TYPE_CHECKING:
    from rdflib import Graph
    from rdflib.term import Node

#: The base URI relative references are resolved against.
BASE = "http://diagbench.invalid/graph"
#: Larger graphs are refused (a drawing of them would be unreadable).
MAX_TRIPLES = 5_000
#: Text and attribute values may expand (internal entities) to at most this many characters.
MAX_EXPANDED = 2_000_000
#: Where RDFLib's own errors say where they are: "<source>:<line>:<column>: …".
_WHERE = re.compile(r"^\S*?:(\d+):(\d+):\s*")


class Refused(ValueError):
    """A source RDF/XML is not read from (an external reference, too many triples),
    with its line and column when known."""

    def __init__(self, reason: str, line: int = 0, column: int = 0) -> None:
        super().__init__(reason)
        self.line, self.column = line, column


def check_safe(text: str) -> None:
    """Refuse (`Refused`) a text that declares an external entity or DTD, or whose
    internal entities expand to more than `MAX_EXPANDED` characters of text and
    attribute values; a text that is not well-formed XML is left to RDFLib's error."""
    from xml.sax import SAXParseException
    from xml.sax.handler import ContentHandler

    from defusedxml import DefusedXmlException  # type: ignore[import-untyped]
    from defusedxml.sax import parseString  # type: ignore[import-untyped]

    class Counter(ContentHandler):
        size = 0

        def _add(self, n: int) -> None:
            self.size += n
            if self.size > MAX_EXPANDED:
                raise Refused(f"the text expands to over {MAX_EXPANDED:,} characters "
                              "(entities within entities)")

        def startElement(self, name: str, attrs: Any) -> None:
            self._add(sum(len(v) for v in attrs.values()))

        def characters(self, content: str) -> None:
            self._add(len(content))

    try:
        parseString(text.encode("utf-8"), Counter(), forbid_dtd=False,
                    forbid_entities=False, forbid_external=True)
    except DefusedXmlException as exc:
        what = getattr(exc, "sysid", None) or getattr(exc, "pubid", None) or exc
        raise Refused(f"refused an external reference to {what} (diagbench never reads "
                      "external entities or DTDs)") from None
    except SAXParseException:
        return  # not well-formed: RDFLib's parser says where


@contextmanager
def ill_typed_kept() -> Iterator[None]:
    """RDFLib keeps an ill-typed literal ("flargh"^^xsd:integer) as written, as RDF
    says, without logging a traceback for it."""
    terms = logging.getLogger("rdflib.term")
    level = terms.level
    terms.setLevel(logging.ERROR)
    try:
        yield
    finally:
        terms.setLevel(level)


def parse_graph(text: str, base: str = BASE) -> Graph:
    """The RDFLib graph of an RDF/XML text (`Refused` for an unsafe or malformed text or
    too many triples; RDFLib's own errors as they come)."""
    from rdflib import Graph

    check_safe(text)
    graph = Graph(bind_namespaces="none")
    with ill_typed_kept():
        graph.parse(data=text, format="xml", publicID=base)
    if len(graph) > MAX_TRIPLES:
        raise Refused(f"{len(graph):,} triples, over the limit of {MAX_TRIPLES:,}")
    return graph


def _label(node: Node, prefixes: list[tuple[str, str]]) -> str:
    from rdflib import BNode, Literal

    if isinstance(node, BNode):
        return ""
    if isinstance(node, Literal):
        return str(node)
    uri = str(node)
    best = max(((p, ns) for p, ns in prefixes if uri.startswith(ns) and len(uri) > len(ns)),
               key=lambda pn: len(pn[1]), default=None)
    return f"{best[0]}:{uri[len(best[1]):]}" if best and best[0] else uri


def term(node: Node, prefixes: list[tuple[str, str]]) -> Term:
    """The `Term` of an RDFLib node, labelled with the document's prefixes."""
    from rdflib import BNode, Literal
    from rdflib.plugins.serializers.nt import _quoteLiteral

    if isinstance(node, Literal):
        return Term("literal", _quoteLiteral(node), _label(node, prefixes))
    kind = "bnode" if isinstance(node, BNode) else "uri"
    return Term(kind, node.n3(), _label(node, prefixes))


def model(graph: Graph) -> KnowledgeGraph:
    """The `KnowledgeGraph` of an RDFLib graph."""
    prefixes = sorted((str(p), str(ns)) for p, ns in graph.namespaces())
    triples = sorted((tuple(term(n, prefixes) for n in t) for t in graph),
                     key=lambda t: (t[0].key, t[1].key, t[2].key))
    return KnowledgeGraph(tuple(triples), tuple(prefixes))  # type: ignore[arg-type]


def _where(exc: Exception) -> tuple[int, int, str]:
    """(line, column, reason) of a refusal, an XML error or an RDFLib error."""
    from xml.sax import SAXParseException

    if isinstance(exc, Refused):
        return exc.line, exc.column, str(exc)
    if isinstance(exc, SAXParseException):
        return exc.getLineNumber() or 0, (exc.getColumnNumber() or 0) + 1, exc.getMessage()
    reason = str(exc)
    m = _WHERE.match(reason)
    if m:
        return int(m.group(1)), int(m.group(2)) + 1, reason[m.end():]
    return 0, 0, reason


def read_rdfxml(text: str) -> list[Parsed[KnowledgeGraph]]:
    """The one graph of an RDF/XML document; never raises (an error is a diagnostic with
    the line and column the parser gives)."""
    text = text.removeprefix("\ufeff")
    try:
        diagram = model(parse_graph(text))  # an IRI RDFLib cannot write raises here
    except Exception as exc:  # RDFLib raises many types; each becomes a diagnostic
        line, column, reason = _where(exc)
        lines = text.splitlines()
        shown = lines[line - 1] if 0 < line <= len(lines) else ""
        return [Parsed(0, 1, "rdf", "knowledge-graph", KnowledgeGraph(),
                       (Diagnostic(max(line, 1), shown, reason, column=column),))]
    diagnostics = () if diagram.triples else (
        Diagnostic(1, "", "the graph has no triples", "warning"),)
    return [Parsed(0, 1, "rdf", "knowledge-graph", diagram, diagnostics)]
