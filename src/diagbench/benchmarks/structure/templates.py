"""Templated questions of STRUDEL's first three task types (paper 004 §3.4) about the
diagram models several languages share — graphs (class, component, use case, state, ER,
flowchart …) and sequence diagrams — for a language that gives no facts of its own
(`Language.facts`), each with one exact answer read off the parsed model.

A template that has no single answer on a diagram (an element with two neighbours asked
for "the" one it is connected to, two elements with the most connections, an element
shown under a name another one shows too) is not asked: it is counted by template in
`Templated.ambiguous` (build.json `ambiguous_questions`). A language's own facts pass the
one check that applies to any fact: a question asked twice with two answers is dropped.

Graphs: quantification — the elements in total, per kind, the relations per type, the
groups, how many elements one is directly connected to; identification — the one element
a leaf is connected to, the element with the most connections, the label on the one
connection between two elements, the one element another inherits from; structural —
whether two elements are directly connected, whether an arrow points from one to the
other, whether an element is drawn inside a group, whether one element is reached from
another by following the arrows. Sequence diagrams: quantification — participants,
messages, messages one participant sends, messages it receives; identification — the
first and last message's label, who sends the first message, who receives a message;
structural — whether one participant sends a message to another, whether one message
comes before another, whether a participant sends a message to itself.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from diagbench.diagram.facts import Fact

#: Plural nouns per entity kind / relation type, as questions name them.
PLURAL = {"class": "classes", "interface": "interfaces", "abstract": "abstract classes",
          "enum": "enumerations", "component": "components", "database": "databases",
          "queue": "queues", "actor": "actors", "usecase": "use cases", "state": "states",
          "table": "tables", "process": "process boxes", "vertex": "nodes",
          "decision": "decision nodes", "participant": "participants"}
RELATION_PLURAL = {"association": "associations", "inheritance": "inheritance relations",
                   "composition": "compositions", "aggregation": "aggregations",
                   "dependency": "dependencies", "transition": "transitions",
                   "non_identifying": "relationships",
                   "identifying": "identifying relationships", "flow": "arrows",
                   "link": "edges", "include": "include relations"}
#: Entity kinds drawn without a name (pseudo-states).
UNNAMED = frozenset({"start", "end", "choice", "fork", "join", "history", "deep_history",
                     "junction", "entry_point", "exit_point"})


@dataclass
class Templated:
    """The facts asked about one diagram, and the questions left out as ambiguous (by
    template subject)."""

    facts: list[Fact] = field(default_factory=list)
    ambiguous: Counter[str] = field(default_factory=Counter)

    def add(self, task: str, subject: str, question: str, answer: Any) -> None:
        self.facts.append(Fact(task, subject, question, answer))

    def drop(self, subject: str) -> None:
        self.ambiguous[subject] += 1


def counting_questions(stats: Any) -> list[tuple[str, int]]:
    """(question, count) pairs about a software diagram's statistics (`counting`): the
    elements in total, per kind and the relations per type; the participants and
    messages of a sequence diagram; none for another domain's model."""
    out: list[tuple[str, int]] = []
    if "participants" in stats:
        out.append(("How many participants (lifelines) are shown in the diagram?",
                    sum(stats["participants"].values())))
        out.append(("How many messages are drawn in the diagram?", stats["messages"]))
        return out
    if "entities" not in stats:
        return out
    entities, relations = stats["entities"], stats["relations"]
    out.append(("How many elements (boxes or nodes) are shown in the diagram in total?",
                sum(entities.values())))
    for kind, n in entities.items():
        if kind in PLURAL and len(entities) > 1:
            out.append((f"How many {PLURAL[kind]} are shown in the diagram?", n))
    for rtype, n in relations.items():
        if rtype in RELATION_PLURAL:
            out.append((f"How many {RELATION_PLURAL[rtype]} are drawn in the diagram?", n))
    return out


def shown_names(diagram: Any) -> tuple[dict[str, str], int]:
    """(id → displayed name of the elements whose name is unique, non-empty and one line —
    its name, else its id; pseudo-states show none —, how many named elements share
    their name with another)."""
    from diagbench.diagram.graph import GraphDiagram

    items = diagram.entities if isinstance(diagram, GraphDiagram) else diagram.participants
    shown = {x.id: (x.name or ("" if getattr(x, "kind", "") in UNNAMED else x.id)).strip()
             for x in items}
    names = Counter(shown.values())
    unique = {i: n for i, n in shown.items() if n and names[n] == 1 and "\n" not in n
              and "\\n" not in n}
    return unique, sum(n > 1 for name, n in names.items() if name)


def one_line(text: str) -> str | None:
    """`text` stripped, when it is one non-empty line (a label a question can quote)."""
    text = text.strip()
    return text if text and "\n" not in text and "\\n" not in text else None


def template_facts(parsed: Any, stats: Any) -> Templated:
    """The templated facts about a parsed graph or sequence diagram (`stats`: its
    statistics, `counting.statistics`); none for another model."""
    from diagbench.diagram.graph import GraphDiagram
    from diagbench.diagram.sequence import SequenceDiagram

    out = Templated()
    for question, n in counting_questions(stats):
        out.add("quantification", "count", question, n)
    d = parsed.diagram
    if isinstance(d, GraphDiagram):
        _graph(d, out)
    elif isinstance(d, SequenceDiagram):
        _sequence(d, out)
    return out


def _graph(d: Any, out: Templated) -> None:
    names, shared = shown_names(d)
    if shared:
        out.ambiguous["name shown twice"] += shared
    links = [r for r in d.relations if r.source != r.target]
    neighbours: dict[str, set[str]] = {e.id: set() for e in d.entities}
    between: Counter[frozenset[str]] = Counter()
    for r in links:
        neighbours.setdefault(r.source, set()).add(r.target)
        neighbours.setdefault(r.target, set()).add(r.source)
        between[frozenset((r.source, r.target))] += 1
    if d.clusters:
        out.add("quantification", "groups", "How many groups (packages, boundaries or "
                "frames) are drawn in the diagram?", len(d.clusters))
    for e, name in names.items():
        out.add("quantification", "degree", f"How many other elements is '{name}' directly "
                "connected to in the diagram?", len(neighbours.get(e, ())))
        others = neighbours.get(e, set())
        if len(others) == 1 and next(iter(others)) in names:
            out.add("identification", "neighbour", f"Which element is '{name}' directly "
                    "connected to in the diagram?", names[next(iter(others))])
        elif others:
            out.drop("neighbour")
    degrees = Counter({e: len(n) for e, n in neighbours.items()})
    top = degrees.most_common(2)
    if len(top) == 2 and top[0][1] > top[1][1] and top[0][0] in names:
        out.add("identification", "most-connected", "Which element has the most direct "
                "connections to other elements in the diagram?", names[top[0][0]])
    elif top and top[0][1]:
        out.drop("most-connected")
    for r in links:
        label = one_line(r.label)
        if label is None or r.source not in names or r.target not in names:
            continue
        if between[frozenset((r.source, r.target))] == 1:
            out.add("identification", "relation-label", "What is the label written on the "
                    f"connection between '{names[r.source]}' and '{names[r.target]}' in the "
                    "diagram?", label)
        else:
            out.drop("relation-label")
    parents: dict[str, set[str]] = {}
    for r in links:
        if r.type == "inheritance":
            parents.setdefault(r.source, set()).add(r.target)
    for child, of in parents.items():
        if child in names and len(of) == 1 and next(iter(of)) in names:
            out.add("identification", "parent", f"Which element does '{names[child]}' "
                    "inherit from in the diagram?", names[next(iter(of))])
        elif child in names:
            out.drop("parent")
    _graph_structure(d, names, links, neighbours, out)


def _graph_structure(d: Any, names: dict[str, str], links: list[Any],
                     neighbours: dict[str, set[str]], out: Templated) -> None:
    ids = sorted(names)
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]]
    for a, b in pairs:
        out.add("structural", "connected", f"Are '{names[a]}' and '{names[b]}' directly "
                "connected to each other in the diagram?", b in neighbours.get(a, set()))
    ends: dict[frozenset[str], set[tuple[str, str] | None]] = {}
    for r in links:
        ends.setdefault(frozenset((r.source, r.target)), set()).add(pointing(r))
    for pair, drawn in ends.items():
        if not pair <= names.keys():
            continue
        one = next(iter(drawn)) if len(drawn) == 1 else None
        if one is not None:
            a, b = one
            out.add("structural", "arrow", f"Does an arrow point from '{names[a]}' to "
                    f"'{names[b]}' in the diagram?", True)
            out.add("structural", "arrow", f"Does an arrow point from '{names[b]}' to "
                    f"'{names[a]}' in the diagram?", False)
        else:
            out.drop("arrow")
    parent_of = {c.id: c.parent for c in d.clusters}
    nested = {c.parent for c in d.clusters if c.parent}
    for c in d.clusters:
        title = one_line(c.name)
        if title is None or c.id in nested:
            continue
        for e in d.entities:
            if e.id not in names:
                continue
            chain: set[str] = set()
            at = e.parent
            while at and at not in chain:
                chain.add(at)
                at = parent_of.get(at)
            out.add("structural", "inside", f"Is '{names[e.id]}' drawn inside '{title}' in "
                    "the diagram?", c.id in chain)
    arrows = [arrow for r in links if (arrow := pointing(r)) is not None]
    if links and len(arrows) == len(links):
        forward: dict[str, set[str]] = {}
        for source, target in arrows:
            forward.setdefault(source, set()).add(target)
        for a in ids:
            reached: set[str] = set()
            todo = [a]
            while todo:
                for n in forward.get(todo.pop(), set()) - reached:
                    reached.add(n)
                    todo.append(n)
            for b in ids:
                if b != a:
                    out.add("structural", "path", f"Following the arrows, can '{names[b]}' be "
                            f"reached from '{names[a]}' in the diagram?", b in reached)


#: The heads that make a relation's end an arrowhead.
ARROWHEADS = frozenset({"arrow", "triangle"})


def pointing(r: Any) -> tuple[str, str] | None:
    """(from, to) of a relation drawn with an arrowhead at one end only (a one-way
    relation without heads given points to its target); None for a plain line, a
    diamond, or heads at both ends."""
    at_source, at_target = r.source_head in ARROWHEADS, r.target_head in ARROWHEADS
    if at_source != at_target:
        return (r.target, r.source) if at_source else (r.source, r.target)
    if r.direction == "single" and r.source_head == r.target_head == "none":
        return r.source, r.target
    return None


def _sequence(d: Any, out: Templated) -> None:
    names, shared = shown_names(d)
    if shared:
        out.ambiguous["name shown twice"] += shared
    messages = d.messages
    for p, name in names.items():
        out.add("quantification", "sends", f"How many messages does '{name}' send in the "
                "diagram?", sum(m.sender == p for m in messages))
        out.add("quantification", "receives", f"How many messages does '{name}' receive in "
                "the diagram?", sum(m.receiver == p for m in messages))
        out.add("structural", "self", f"Does '{name}' send a message to itself in the "
                "diagram?", any(m.sender == p == m.receiver for m in messages))
    if not messages:
        return
    for subject, position, m in (("first-label", "first message, at the top",
                                  messages[0]),
                                 ("last-label", "last message, at the bottom",
                                  messages[-1])):
        label = one_line(m.label)
        if label is not None:
            out.add("identification", subject, f"What is the label of the {position} of the "
                    "diagram?", label)
    if messages[0].sender in names:
        out.add("identification", "first-sender", "Which participant sends the first "
                "message, at the top of the diagram?", names[messages[0].sender])
    labels = Counter(one_line(m.label) for m in messages)
    for m in messages:
        label = one_line(m.label)
        if label is None or m.receiver not in names:
            continue
        if labels[label] == 1:
            out.add("identification", "receiver", "Which participant receives the message "
                    f"'{label}' in the diagram?", names[m.receiver])
        else:
            out.drop("receiver")
    sent = {(m.sender, m.receiver) for m in messages}
    ids = sorted(names)
    for a in ids:
        for b in ids:
            if a != b:
                out.add("structural", "sends-to", f"Does '{names[a]}' send a message to "
                        f"'{names[b]}' in the diagram?", (a, b) in sent)
    unique = [label for m in messages if (label := one_line(m.label)) and labels[label] == 1]
    for i, first in enumerate(unique):
        for second in unique[i + 1:i + 3]:
            out.add("structural", "before", f"Is the message '{first}' sent before the "
                    f"message '{second}' in the diagram?", True)
            out.add("structural", "before", f"Is the message '{second}' sent before the "
                    f"message '{first}' in the diagram?", False)


def asked_facts(language: Any, parsed: Any, stats: Any) -> Templated:
    """The facts a sample is asked: its language's own (`Language.facts`, without the
    ambiguous ones), else the templates over its parsed model (`stats`: its
    statistics)."""
    own = language.facts(parsed.diagram)
    return unambiguous(own) if own else template_facts(parsed, stats)


def unambiguous(facts: list[Fact]) -> Templated:
    """A language's own facts without the questions asked twice with different answers
    (each such question dropped and counted under "asked twice, two answers")."""
    answers: dict[str, set[str]] = {}
    for f in facts:
        answers.setdefault(f.question, set()).add(repr(f.answer))
    out = Templated()
    for f in facts:
        if len(answers[f.question]) == 1:
            out.facts.append(f)
        else:
            out.drop("asked twice, two answers")
    return out
