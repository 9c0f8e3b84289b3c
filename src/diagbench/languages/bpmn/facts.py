"""The facts asked about a BPMN model (STRUDEL's task types), each with one answer:

- identification: which task or sub-process follows a named branch ("yes") of an
  exclusive gateway (named, or the only exclusive gateway);
- quantification: how many tasks, gateways and events are drawn (the answers are the
  counts bpmn-js draws);
- structural: which lane holds a task or sub-process, and what comes right after one
  (its one outgoing sequence flow's target).

A question is asked only when its subject has a name no other element of its kind has,
and its answer has a name; at most `PER_QUESTION` of each kind of question.
"""

from __future__ import annotations

from collections import Counter

from diagbench.diagram.facts import Fact
from diagbench.languages.bpmn.model import BpmnModel, Node

PER_QUESTION = 3


def _unique(nodes: list[Node]) -> list[Node]:
    names = Counter(node.name for node in nodes)
    return [node for node in nodes if node.name and names[node.name] == 1]


def _activities(model: BpmnModel) -> list[Node]:
    return [n for n in model.nodes if n.category in ("task", "subprocess")]


def _named(node: Node) -> str:
    """How a question names an activity: 'the task "X"' or 'the sub-process "X"'."""
    return f'the {"task" if node.category == "task" else "sub-process"} "{node.name}"'


def branch_facts(model: BpmnModel) -> list[Fact]:
    """Which activity follows each named branch of an exclusive gateway."""
    gateways = [n for n in model.nodes if n.type == "exclusiveGateway"]
    named = {n.id for n in _unique(gateways)}
    facts = []
    for gateway in gateways:
        if gateway.id not in named and len(gateways) != 1:
            continue
        what = f'the exclusive gateway "{gateway.name}"' if gateway.id in named \
            else "the exclusive gateway"
        flows = model.outgoing(gateway.id)
        labels = Counter(f.name for f in flows)
        for flow in flows:
            target = model.node(flow.target)
            if flow.name and labels[flow.name] == 1 and target is not None and target.name \
                    and target.category in ("task", "subprocess"):
                facts.append(Fact("identification", "branch",
                                  f'Which task follows the "{flow.name}" branch of {what}?',
                                  target.name))
    return facts[:PER_QUESTION]


def count_facts(model: BpmnModel) -> list[Fact]:
    """How many tasks, gateways and events the diagram shows."""
    counts = model.counts()
    return [Fact("quantification", key, f"How many {what} does the diagram show?", counts[key])
            for key, what in (("tasks", "tasks"), ("gateways", "gateways"),
                              ("events", "events (start, intermediate, end and boundary)"))]


def lane_facts(model: BpmnModel) -> list[Fact]:
    """Which lane holds each uniquely named task (lanes uniquely named)."""
    lane_names = Counter(lane.name for lane in model.lanes)
    lanes = {lane.id: lane.name for lane in model.lanes
             if lane.name and lane_names[lane.name] == 1}
    facts = [Fact("structural", "lane", f"Which lane holds {_named(node)}?", lanes[node.lane])
             for node in _unique(_activities(model)) if node.lane in lanes]
    return facts[:PER_QUESTION]


def successor_facts(model: BpmnModel) -> list[Fact]:
    """What comes right after each uniquely named task with one outgoing sequence flow
    to a named element."""
    facts = []
    for node in _unique(_activities(model)):
        flows = model.outgoing(node.id)
        target = model.node(flows[0].target) if len(flows) == 1 else None
        if target is not None and target.name:
            facts.append(Fact("structural", "successor",
                              f"What comes right after {_named(node)}?", target.name))
    return facts[:PER_QUESTION]


def process_facts(model: BpmnModel) -> list[Fact]:
    """Every fact of the model (see the module)."""
    return branch_facts(model) + count_facts(model) + lane_facts(model) + successor_facts(model)
