"""The BPMN model diagbench reads a BPMN 2.0 document into (from bpmn-moddle's model):
flow nodes (tasks, sub-processes, events, gateways) by their BPMN type, sequence and
message flows, pools (participants), lanes and data objects, every element by its id.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The BPMN types of each category of flow node (types as bpmn-moddle names them,
#: without the `bpmn:` prefix, first letter in lower case).
TASKS = frozenset({"task", "userTask", "serviceTask", "sendTask", "receiveTask",
                   "manualTask", "businessRuleTask", "scriptTask"})
SUBPROCESSES = frozenset({"subProcess", "transaction", "adHocSubProcess", "callActivity"})
EVENTS = frozenset({"startEvent", "endEvent", "intermediateCatchEvent",
                    "intermediateThrowEvent", "boundaryEvent"})
GATEWAYS = frozenset({"exclusiveGateway", "inclusiveGateway", "parallelGateway",
                      "eventBasedGateway", "complexGateway"})
#: The count key of each event type.
EVENT_COUNTS = {"startEvent": "start_events", "endEvent": "end_events",
                "intermediateCatchEvent": "intermediate_events",
                "intermediateThrowEvent": "intermediate_events",
                "boundaryEvent": "boundary_events"}


def category(bpmn_type: str) -> str:
    """"task", "subprocess", "event", "gateway" or "other" for a flow node's type."""
    for name, types in (("task", TASKS), ("subprocess", SUBPROCESSES), ("event", EVENTS),
                        ("gateway", GATEWAYS)):
        if bpmn_type in types:
            return name
    return "other"


def label(text: str) -> str:
    """A name as it reads: its words separated by single spaces (names often hold
    line breaks that place the text in its shape)."""
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class Node:
    """A flow node: its BPMN `type`, `name` (`label`led), the types of its event
    `definitions` ("messageEventDefinition"), the process and sub-process (`parent`) it
    is in, the activity a boundary event is `attached_to` and the innermost `lane`
    holding it (ids; None where there is none)."""

    id: str
    type: str
    name: str = ""
    definitions: tuple[str, ...] = ()
    process: str | None = None
    parent: str | None = None
    attached_to: str | None = None
    lane: str | None = None

    @property
    def category(self) -> str:
        return category(self.type)


@dataclass(frozen=True, slots=True)
class Flow:
    """A `kind` "sequence" or "message" flow from `source` to `target` (ids), with its
    `name`, its condition expression (`condition`, sequence flows) and whether it is its
    source's `default` flow."""

    id: str
    kind: str
    source: str | None
    target: str | None
    name: str = ""
    condition: str = ""
    default: bool = False


@dataclass(frozen=True, slots=True)
class Lane:
    """A lane of a process: the flow nodes it holds (`nodes`, ids) and its `parent` lane."""

    id: str
    name: str
    process: str | None = None
    parent: str | None = None
    nodes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Pool:
    """A participant of a collaboration, drawn as a pool, and the process it holds."""

    id: str
    name: str
    process: str | None = None


@dataclass(frozen=True, slots=True)
class DataItem:
    """A data object or data store reference (`type` "dataObjectReference" or
    "dataStoreReference"), drawn in a process."""

    id: str
    type: str
    name: str = ""


@dataclass(frozen=True, slots=True)
class BpmnModel:
    """One BPMN document: its flow nodes, flows, lanes, pools and data items, and
    whether it carries its own layout (diagram interchange, `laid_out`)."""

    nodes: tuple[Node, ...] = ()
    flows: tuple[Flow, ...] = ()
    lanes: tuple[Lane, ...] = ()
    pools: tuple[Pool, ...] = ()
    data: tuple[DataItem, ...] = ()
    laid_out: bool = False

    def counts(self) -> dict[str, int]:
        """Tasks, sub-processes (call activities included), events (and of them start,
        end, intermediate and boundary events), gateways, sequence and message flows,
        lanes, pools and data objects (data stores included)."""
        categories = [node.category for node in self.nodes]
        out = {"tasks": categories.count("task"),
               "subprocesses": categories.count("subprocess"),
               "events": categories.count("event")}
        for key in dict.fromkeys(EVENT_COUNTS.values()):
            out[key] = sum(EVENT_COUNTS.get(node.type) == key for node in self.nodes)
        kinds = [flow.kind for flow in self.flows]
        return out | {"gateways": categories.count("gateway"),
                      "sequence_flows": kinds.count("sequence"),
                      "message_flows": kinds.count("message"),
                      "lanes": len(self.lanes), "pools": len(self.pools),
                      "data_objects": len(self.data)}

    def node(self, node_id: str | None) -> Node | None:
        """The flow node of id `node_id`, if any."""
        return next((node for node in self.nodes if node.id == node_id), None)

    def outgoing(self, node_id: str) -> list[Flow]:
        """The sequence flows leaving `node_id`."""
        return [f for f in self.flows if f.kind == "sequence" and f.source == node_id]
