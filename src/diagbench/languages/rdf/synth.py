"""RDF/XML written here: a seeded generator of small knowledge graphs (people,
organisations, places and projects, typed nodes with literal properties, a blank-node
address), the edit (one triple's object changed) and the rewrite (the same graph under
other prefixes, serialised by RDFLib with or without typed-node abbreviations)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

if TYPE_CHECKING:
    from rdflib import Graph

NS = "http://example.org/kg#"
#: Individuals per complexity (low, medium, high).
SIZES = {"low": (2, 3), "medium": (4, 6), "high": (7, 9)}
_NAMES = {"Person": ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"],
          "Organisation": ["acme", "globex", "initech", "umbrella"],
          "City": ["paris", "lagos", "lima", "osaka"],
          "Project": ["atlas", "hermes", "orion"]}
#: (subject class, property, object class) of the links between individuals.
_LINKS = [("Person", "worksFor", "Organisation"), ("Person", "livesIn", "City"),
          ("Organisation", "basedIn", "City"), ("Person", "leads", "Project"),
          ("Person", "knows", "Person"), ("Project", "fundedBy", "Organisation")]


def generate(rng: random.Random, complexity: str) -> str:
    """A knowledge graph of typed individuals written as RDF/XML typed nodes."""
    low, high = SIZES.get(complexity, SIZES["medium"])
    count = rng.randint(low, high)
    individuals: list[tuple[str, str]] = [("Person", rng.choice(_NAMES["Person"]))]
    pool = [(c, n) for c, names in _NAMES.items() for n in names]
    rng.shuffle(pool)
    for item in pool:
        if len(individuals) >= count:
            break
        if item not in individuals:
            individuals.append(item)
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"',
             '         xmlns:xsd="http://www.w3.org/2001/XMLSchema#"',
             f'         xmlns:ex="{NS}">']
    for k, (cls, name) in enumerate(individuals):
        lines.append(f"  <ex:{cls} rdf:about={quoteattr(NS + name)}>")
        lines.append(f"    <ex:name>{escape(name.title())}</ex:name>")
        if cls == "Organisation" and rng.random() < 0.6:
            year = rng.randint(1950, 2020)
            lines.append(f'    <ex:founded rdf:datatype="http://www.w3.org/2001/XMLSchema#gYear">'
                         f"{year}</ex:founded>")
        for subject, prop, target in _LINKS:
            others = [n for c, n in individuals if c == target and n != name]
            if subject == cls and others and rng.random() < 0.7:
                lines.append(f"    <ex:{prop} rdf:resource={quoteattr(NS + rng.choice(others))}/>")
        if cls == "Person" and k == 0:
            street = f"{rng.randint(1, 99)} {rng.choice(['Main', 'Mill', 'Park'])} Street"
            lines.append('    <ex:address rdf:parseType="Resource">')
            lines.append(f"      <ex:street>{street}</ex:street>")
            lines.append("    </ex:address>")
        lines.append(f"  </ex:{cls}>")
    lines.append("</rdf:RDF>")
    return "\n".join(lines) + "\n"


def edited(code: str, rng: random.Random) -> str | None:
    """The graph with one triple's object changed (a triple without blank nodes, `rng`'s
    choice): a literal gets another text, a resource is replaced by a new one; None
    when the code does not read or has no such triple."""
    from rdflib import BNode, Literal, URIRef

    from diagbench.languages.rdf.read import parse_graph

    try:
        graph = parse_graph(code)
    except Exception:  # an unreadable code has no edit
        return None
    candidates = sorted((t for t in graph if not any(isinstance(n, BNode) for n in t)),
                        key=lambda t: tuple(str(n) for n in t))
    if len(graph) < 2 or not candidates:
        return None
    s, p, o = candidates[rng.randrange(len(candidates))]
    new = (Literal(f"{o} (changed)", lang=o.language) if isinstance(o, Literal)
           else URIRef(f"{o}_changed"))
    graph.remove((s, p, o))
    graph.add((s, p, new))
    return _serialised(graph, "xml")


def rewritten(code: str, rng: random.Random) -> str | None:
    """The same graph under other prefixes, in another order and form: RDFLib's
    `pretty-xml` (typed nodes, nested blank nodes) or its plain `xml` serialiser."""
    from rdflib import RDF
    from rdflib import Graph as RdfGraph

    from diagbench.languages.rdf.read import parse_graph

    try:
        graph = parse_graph(code)
    except Exception:  # an unreadable code has no other writing
        return None
    other = RdfGraph(bind_namespaces="none")
    other.bind("rdf", RDF)  # RDFLib's serialisers name RDF's own terms with "rdf"
    others = sorted(str(ns) for _, ns in graph.namespaces() if str(ns) != str(RDF))
    for n, namespace in enumerate(others):
        other.bind(f"p{n}", namespace)
    triples = sorted(graph, key=lambda t: tuple(str(x) for x in t))
    rng.shuffle(triples)
    for triple in triples:
        other.add(triple)
    return _serialised(other, rng.choice(["pretty-xml", "xml"]))


def _serialised(graph: Graph, form: str) -> str | None:
    """The graph in RDF/XML by RDFLib's serialiser `form`; None where RDF/XML cannot say
    it (a predicate IRI with no local name to split off)."""
    try:
        return graph.serialize(format=form)
    except Exception:  # RDFLib's serialisers raise plain Exceptions
        return None
