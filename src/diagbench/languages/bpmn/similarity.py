"""Image-to-code similarity of BPMN models: a graph F1 over labelled flow nodes and flows,
invariant to ids (elements are matched by what is drawn, not by what they are called
inside the XML).

An **element** is a flow node (task, sub-process, event, gateway), a pool, a lane or a
data object, keyed by its BPMN type (an event with its event definitions, "startEvent
messageEventDefinition") and its name (`scoring.name_keys.graph_element_key`: NFKC,
case-folded, letters and digits). A **flow** is a sequence or message flow, keyed by
its kind, its two ends and its name (the label drawn beside it; its condition expression
is not drawn and is not scored). Elements are matched one to one by their keys; among
several elements with one key (two unnamed exclusive gateways), the assignment that
agrees on most of their flows is taken (`scipy.optimize.linear_sum_assignment` on the
count of shared (direction, flow name, other end's key) triples). A predicted flow then
matches a gold flow when its ends are the gold flow's ends under that assignment and
its kind and name are the same (a multiset match).

The score is `scoring.metrics.image_to_code_score`: 0 when the prediction does not render
or does not read (an error), else the mean of element F1 and flow F1.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from diagbench.compare.graph import GraphComparison, Match, model_of
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.bpmn.model import BpmnModel, Flow
from diagbench.scoring.name_keys import graph_element_key

Key = tuple[str, str]


def element_keys(model: BpmnModel) -> dict[str, Key]:
    """Every element's key (type, name key) by its id (see the module)."""
    keys: dict[str, Key] = {}
    for node in model.nodes:
        keys[node.id] = (" ".join((node.type, *node.definitions)), graph_element_key(node.name))
    for pool in model.pools:
        keys[pool.id] = ("participant", graph_element_key(pool.name))
    for lane in model.lanes:
        keys[lane.id] = ("lane", graph_element_key(lane.name))
    for item in model.data:
        keys[item.id] = (item.type, graph_element_key(item.name))
    return keys


def _signatures(flows: Iterable[Flow], keys: dict[str, Key]) -> dict[str, Counter[tuple]]:
    """Each element's flows as (direction, kind, name key, other end's key) triples."""
    out: dict[str, Counter[tuple]] = defaultdict(Counter)
    for flow in flows:
        name = graph_element_key(flow.name)
        source, target = keys.get(flow.source or ""), keys.get(flow.target or "")
        out[flow.source or ""][("out", flow.kind, name, target)] += 1
        out[flow.target or ""][("in", flow.kind, name, source)] += 1
    return out


def assignment(gold: BpmnModel, pred: BpmnModel) -> dict[str, str]:
    """The predicted elements matched to gold ones (pred id → gold id): same keys, and
    among several of one key the assignment agreeing on most flows."""
    from scipy.optimize import linear_sum_assignment

    gold_keys, pred_keys = element_keys(gold), element_keys(pred)
    gold_sig, pred_sig = _signatures(gold.flows, gold_keys), _signatures(pred.flows, pred_keys)
    by_key: dict[Key, tuple[list[str], list[str]]] = defaultdict(lambda: ([], []))
    for element, key in gold_keys.items():
        by_key[key][0].append(element)
    for element, key in pred_keys.items():
        by_key[key][1].append(element)
    mapping: dict[str, str] = {}
    for gold_ids, pred_ids in by_key.values():
        if not gold_ids or not pred_ids:
            continue
        agreement = [[-sum((gold_sig[g] & pred_sig[p]).values()) for g in gold_ids]
                     for p in pred_ids]
        rows, cols = linear_sum_assignment(agreement)
        mapping |= {pred_ids[r]: gold_ids[c] for r, c in zip(rows, cols, strict=True)}
    return mapping


def _flow_keys(flows: Iterable[Flow], ends: dict[str, str]) -> list[tuple[str, ...]]:
    return [(f.kind, ends.get(f.source or "", f"?{f.source}"),
             ends.get(f.target or "", f"?{f.target}"), graph_element_key(f.name))
            for f in flows]


def _names(counter: Counter[tuple[str, ...]]) -> tuple[str, ...]:
    return tuple(sorted("/".join(key) for key in counter.elements()))


def compare_models(gold: BpmnModel, pred: BpmnModel, valid: bool,
                   warnings: tuple[str, ...] = ()) -> GraphComparison:
    """The comparison of two BPMN models (see the module)."""
    gold_keys, pred_keys = element_keys(gold), element_keys(pred)
    mapping = assignment(gold, pred)
    elements = Match(len(gold_keys), len(pred_keys), len(mapping),
                     tuple(sorted("/".join(gold_keys[g]) for g in
                                  set(gold_keys) - set(mapping.values()))),
                     tuple(sorted("/".join(pred_keys[p]) for p in set(pred_keys) - set(mapping))))
    gold_labels = {g: "/".join(key) + f"#{g}" for g, key in gold_keys.items()}
    gold_flows = Counter(_flow_keys(gold.flows, gold_labels))
    pred_flows = Counter(_flow_keys(pred.flows, {p: gold_labels[g] for p, g in mapping.items()}))
    common = gold_flows & pred_flows
    flows = Match(sum(gold_flows.values()), sum(pred_flows.values()), sum(common.values()),
                  _names(gold_flows - pred_flows), _names(pred_flows - gold_flows))
    return GraphComparison("process", valid, elements, flows, gold.counts(), pred.counts(),
                           warnings)


def compare_processes(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                      valid: bool) -> GraphComparison:
    """Compare a predicted BPMN model with the gold one (both read by the language's
    reader); a prediction with a reading error is compared as an empty model."""
    gold, _, _ = model_of(gold_read)
    pred, _, warnings = model_of(pred_read)
    if not isinstance(gold, BpmnModel):
        gold = BpmnModel()
    if warnings or not isinstance(pred, BpmnModel):
        return compare_models(gold, BpmnModel(), False, warnings or ("no model",))
    return compare_models(gold, pred, valid, warnings)
