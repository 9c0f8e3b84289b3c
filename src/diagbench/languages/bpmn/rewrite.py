"""The edit and the rewrite of a BPMN document, on its XML (defusedxml: no DTD, no
entity):

- `edit_bpmn`: one task renamed, or one sequence flow rewired to another flow node of
  its process (its diagram-interchange edge, when there is one, then ends at the new
  target's centre) — `rng`'s choice;
- `rewrite_bpmn`: the same model written another way: every id renamed (and every
  reference to it) and each process's flow elements in another order.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from defusedxml import DefusedXmlException  # type: ignore[import-untyped]
from defusedxml.ElementTree import fromstring  # type: ignore[import-untyped]

from diagbench.languages.bpmn.model import TASKS, category
from diagbench.languages.bpmn.read import declaration

MODEL = "http://www.omg.org/spec/BPMN/20100524/MODEL"
DI = "http://www.omg.org/spec/BPMN/20100524/DI"
DC = "http://www.omg.org/spec/DD/20100524/DC"
#: Attributes that name another element by its id (besides those ending in "Ref").
REFERENCES = frozenset({"bpmnElement", "default", "sourceElement", "targetElement",
                        "labelStyle"})
#: Elements whose text is an id.
TEXT_REFERENCES = frozenset({"incoming", "outgoing"})
_FLOW_ELEMENTS = TASKS | frozenset({
    "subProcess", "transaction", "adHocSubProcess", "callActivity", "startEvent",
    "endEvent", "intermediateCatchEvent", "intermediateThrowEvent", "boundaryEvent",
    "exclusiveGateway", "inclusiveGateway", "parallelGateway", "eventBasedGateway",
    "complexGateway", "sequenceFlow", "dataObject", "dataObjectReference",
    "dataStoreReference"})


#: The prefixes the documents are written with (others become ns0, ns1, …).
PREFIXES = {"bpmn": MODEL, "bpmndi": DI, "dc": DC, "di": "http://www.omg.org/spec/DD/20100524/DI",
            "xsi": "http://www.w3.org/2001/XMLSchema-instance"}


def _tree(code: str) -> ET.Element | None:
    if declaration(code) is not None:
        return None
    try:
        return fromstring(code.encode("utf-8"))
    except (ET.ParseError, DefusedXmlException):
        return None


def _text(root: ET.Element) -> str:
    for prefix, uri in PREFIXES.items():
        ET.register_namespace(prefix, uri)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def rewrite_bpmn(code: str, rng: random.Random) -> str | None:
    """`code` with new ids and its flow elements reordered (None when it is not XML)."""
    root = _tree(code)
    if root is None:
        return None
    elements = list(root.iter())
    ids = [i for e in elements if (i := e.get("id"))]
    fresh = rng.sample(range(10 * len(ids) + 10), len(ids))
    renamed = {old: f"el{n}" for old, n in zip(ids, fresh, strict=True)}

    def rename(value: str) -> str:
        return " ".join(renamed.get(word, word) for word in value.split())

    for element in elements:
        for name, value in element.attrib.items():
            local = _local(name)
            if local == "id" or local.endswith("Ref") or local in REFERENCES:
                element.set(name, rename(value))
        local = _local(element.tag)
        if element.text and (local in TEXT_REFERENCES or local.endswith("Ref")):
            element.text = rename(element.text)
    for element in elements:
        children = [c for c in element if _local(c.tag) in _FLOW_ELEMENTS]
        if len(children) > 1:
            first = list(element).index(children[0])
            for child in children:
                element.remove(child)
            rng.shuffle(children)
            for offset, child in enumerate(children):
                element.insert(first + offset, child)
    return _text(root)


def edit_bpmn(code: str, rng: random.Random) -> str | None:
    """`code` with a task renamed or a sequence flow rewired (None when neither applies)."""
    root = _tree(code)
    if root is None:
        return None
    edits = [_rename, _rewire]
    rng.shuffle(edits)
    return next((_text(root) for edit in edits if edit(root, rng)), None)


def _rename(root: ET.Element, rng: random.Random) -> bool:
    tasks = [e for e in root.iter() if e.tag in {f"{{{MODEL}}}{t}" for t in TASKS}]
    if not tasks:
        return False
    task = rng.choice(tasks)
    task.set("name", (task.get("name") or "task") + " " + rng.choice(("again", "twice", "later")))
    return True


def _rewire(root: ET.Element, rng: random.Random) -> bool:
    parents = {child: parent for parent in root.iter() for child in parent}
    flows = list(root.iter(f"{{{MODEL}}}sequenceFlow"))
    rng.shuffle(flows)
    for flow in flows:
        container = parents[flow]
        targets = [e for e in container if category(_local(e.tag)) != "other"
                   and _local(e.tag) not in ("startEvent", "boundaryEvent")
                   and e.get("id") not in (flow.get("sourceRef"), flow.get("targetRef"))]
        if not targets:
            continue
        target = rng.choice(targets)
        old, new, ident = flow.get("targetRef"), target.get("id", ""), flow.get("id", "")
        flow.set("targetRef", new)
        for element in container:  # the old target's note of the flow (a new one needs none)
            for incoming in element.findall(f"{{{MODEL}}}incoming"):
                if incoming.text == ident and element.get("id") == old:
                    element.remove(incoming)
        _move_edge_end(root, ident, new)
        return True
    return False


def _move_edge_end(root: ET.Element, flow: str, target: str) -> None:
    """The last waypoint of `flow`'s edge moved to the centre of `target`'s shape."""
    edge = next((e for e in root.iter(f"{{{DI}}}BPMNEdge") if e.get("bpmnElement") == flow),
                None)
    shape = next((s for s in root.iter(f"{{{DI}}}BPMNShape") if s.get("bpmnElement") == target),
                 None)
    bounds = shape.find(f"{{{DC}}}Bounds") if shape is not None else None
    points = [p for p in edge if _local(p.tag) == "waypoint"] if edge is not None else []
    if bounds is None or not points:
        return
    x = float(bounds.get("x", 0)) + float(bounds.get("width", 0)) / 2
    y = float(bounds.get("y", 0)) + float(bounds.get("height", 0)) / 2
    points[-1].set("x", f"{x:g}")
    points[-1].set("y", f"{y:g}")
