"""BPMN 2.0 XML read by the reference model, bpmn-moddle, into `BpmnModel`.

`read_bpmn(text)` never raises. A document declaring a DOCTYPE or an entity is refused
before any parser sees it (no entity, internal or external — `file:///…`, `http://…`
— is ever expanded or fetched; BPMN needs none). Otherwise bpmn-moddle
(`languages.bpmn.moddle`, one warm Node process) reads it as `bpmn:Definitions`; its
error (a document that is not XML, or not BPMN) is the diagnostic, with line and column,
and its warnings (unknown elements, unresolved references) are kept as warnings. Its
model becomes `BpmnModel`: every process's flow nodes, sub-processes' own included,
every sequence flow, every collaboration's participants (pools) and message flows,
lanes (nested ones included; a node's lane is the innermost that holds it), data
object and data store references. Names are read as drawn, their line breaks as spaces.
"""

from __future__ import annotations

import re
from typing import Any

from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed
from diagbench.languages.bpmn.moddle import ModdleAnswer, ModdleDiagnostic, shared
from diagbench.languages.bpmn.model import BpmnModel, DataItem, Flow, Lane, Node, Pool, label

KIND = "process"
_DECLARATION = re.compile(r"<!(?:DOCTYPE|ENTITY)\b", re.I)


def declaration(text: str) -> Diagnostic | None:
    """The refusal of a document that declares a DOCTYPE or an entity (where), or None."""
    found = _DECLARATION.search(text)
    if found is None:
        return None
    line = text.count("\n", 0, found.start()) + 1
    column = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
    return Diagnostic(line, text.splitlines()[line - 1],
                      "DOCTYPE and entity declarations are refused (BPMN needs none; no "
                      "entity is expanded or fetched)", column=column)


def read_bpmn(text: str) -> list[Parsed[BpmnModel]]:
    """The BPMN model of a document, with bpmn-moddle's diagnostics."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return [_parsed(BpmnModel(), [Diagnostic(1, "", "empty source")])]
    refused = declaration(text)
    if refused is not None:
        return [_parsed(BpmnModel(), [refused])]
    return [model_of(text, shared().read(text))]


def model_of(text: str, answer: ModdleAnswer) -> Parsed[BpmnModel]:
    """The parsed model of `text` from bpmn-moddle's `answer` for it."""
    lines = text.splitlines()

    def diagnostic(d: ModdleDiagnostic, severity: str) -> Diagnostic:
        line = d.line if 0 < d.line <= len(lines) else 1
        return Diagnostic(line, lines[line - 1] if lines else "",
                          f"BPMN not read: {d.message}" if severity == "error" else d.message,
                          "error" if severity == "error" else "warning", column=d.column)

    if answer.model is None:
        return _parsed(BpmnModel(), [diagnostic(d, "error") for d in answer.errors])
    return _parsed(_model(answer.model), [diagnostic(d, "warning") for d in answer.warnings])


def _parsed(model: BpmnModel, diagnostics: list[Diagnostic]) -> Parsed[BpmnModel]:
    return Parsed(0, 1, "bpmn", KIND, model, tuple(diagnostics))


def _model(model: dict[str, Any]) -> BpmnModel:
    lanes = tuple(Lane(lane["id"], label(lane["name"]), lane["process"], lane["parent"],
                       tuple(lane["nodes"])) for lane in model["lanes"])
    lane_of: dict[str, str] = {}
    for lane in lanes:  # parents come before their children: the innermost wins
        lane_of |= dict.fromkeys(lane.nodes, lane.id)
    nodes = tuple(Node(n["id"], n["type"], label(n["name"]), tuple(n["definitions"]),
                       n["process"], n["parent"], n["attached_to"], lane_of.get(n["id"]))
                  for n in model["nodes"])
    flows = tuple(Flow(f["id"], f["kind"], f["source"], f["target"], label(f["name"]),
                       label(f["condition"]), f["default"]) for f in model["flows"])
    pools = tuple(Pool(p["id"], label(p["name"]), p["process"]) for p in model["pools"])
    data = tuple(DataItem(d["id"], d["type"], label(d["name"])) for d in model["data"])
    return BpmnModel(nodes, flows, lanes, pools, data, laid_out=model["shapes"] > 0)
