"""What bpmn-js drew, read back from its SVG: every drawn element's group carries
`data-element-id` and, marked by diagbench's page, `data-bpmn-type` (a label's is
"label") — counted by the model's count keys, plus the drawn shapes by type."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

from diagbench.languages.bpmn.model import EVENT_COUNTS, category

_G = "{http://www.w3.org/2000/svg}g"


def drawn_statistics(svg: str) -> dict[str, Any]:
    """Counts of what `svg` shows, keyed as `BpmnModel.counts` keys them, and `shapes`
    (drawn shapes by BPMN type, labels left out)."""
    shapes: Counter[str] = Counter()
    connections: Counter[str] = Counter()
    for group in ET.fromstring(svg).iter(_G):
        bpmn_type, classes = group.get("data-bpmn-type"), (group.get("class") or "").split()
        if bpmn_type and bpmn_type != "label":
            (connections if "djs-connection" in classes else shapes)[bpmn_type] += 1
    categories: Counter[str] = Counter()
    for bpmn_type, n in shapes.items():
        categories[category(bpmn_type)] += n
    out: dict[str, Any] = {"tasks": categories["task"],
                           "subprocesses": categories["subprocess"],
                           "events": categories["event"]}
    for key in dict.fromkeys(EVENT_COUNTS.values()):
        out[key] = sum(n for t, n in shapes.items() if EVENT_COUNTS.get(t) == key)
    return out | {"gateways": categories["gateway"],
                  "sequence_flows": connections["sequenceFlow"],
                  "message_flows": connections["messageFlow"],
                  "lanes": shapes["lane"], "pools": shapes["participant"],
                  "data_objects": shapes["dataObjectReference"]
                  + shapes["dataStoreReference"],
                  "shapes": dict(sorted(shapes.items()))}
