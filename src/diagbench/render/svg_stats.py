"""Structural statistics read off PlantUML's SVG, an independent check of our parsers.

PlantUML 1.2026.2 marks drawn elements with classes and data attributes
(not under `!pragma teoz`); counting them tells what PlantUML itself drew.
"""

from __future__ import annotations

import re

_DIAGRAM_TYPE = re.compile(r'data-diagram-type="(\w+)"')
#: SVG class attribute → statistic name.
_CLASSES = {
    "participant participant-head": "participants",
    "message": "messages",
    "entity": "entities",
    "link": "links",
    "cluster": "clusters",
}


def svg_statistics(svg: str) -> dict[str, object]:
    """{"diagram_type", "participants", "messages", "entities", "links", "clusters"}."""
    kind = _DIAGRAM_TYPE.search(svg)
    stats: dict[str, object] = {"diagram_type": kind.group(1).lower() if kind else None}
    for css, name in _CLASSES.items():
        stats[name] = svg.count(f'<g class="{css}"')
    return stats
