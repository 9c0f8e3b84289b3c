"""PlantUML state diagrams: `state` declarations, composite states, descriptions.

`state S`, `state "Long" as S`, `state S : text`, `S : text`, `state S <<choice>>`
(also fork, join, end, history, entryPoint, exitPoint, inputPin, outputPin,
expansionInput, expansionOutput, sdlreceive), `state S {` … `}` (a composite
state: a cluster), the concurrent-region separators `--` and `||`. Start and
end pseudo-states `[*]` are entities of their enclosing scope (one start and
one end per scope), read with the links by `plantuml.graph`.
"""

from __future__ import annotations

import re

from diagbench.diagram.graph import EntityKind
from diagbench.formats.plantuml.graph_builder import GraphBuilder, stereotypes_of, unquote

_PSEUDO: dict[str, EntityKind] = {
    "choice": "choice", "fork": "fork", "join": "join", "end": "end", "start": "start",
    "history": "history", "history*": "deep_history", "entrypoint": "entry_point",
    "exitpoint": "exit_point", "inputpin": "entry_point", "outputpin": "exit_point",
    "expansioninput": "entry_point", "expansionoutput": "exit_point",
}
_STATE = re.compile(
    r'^state\s+(?P<name>"[^"]*"|[^\s"{<#:]+)(?:\s+as\s+(?P<alias>"[^"]*"|[^\s{<#:]+))?'
    r"\s*(?P<stereo>(?:<<[^>]*>>\s*)*)(?:#[\w#:;.]+\s*)*(?:##\[?\w*\]?\w*\s*)?"
    r"(?::\s*(?P<desc>.*?))?\s*(?P<open>\{)?\s*$", re.I)
_DESCRIPTION = re.compile(r'^(?P<name>"[^"]+"|[\w.$]+)\s*:\s*(?P<desc>.*)$')


def statement(builder: GraphBuilder, line: str, number: int, lines: list[str],
              i: int) -> int | None:
    m = _STATE.match(line)
    if m:
        name = unquote(m.group("name"))
        alias = unquote(m.group("alias")) if m.group("alias") else None
        if alias and m.group("alias").startswith('"') and not m.group("name").startswith('"'):
            name, alias = alias, name
        stereo = stereotypes_of(m.group("stereo") or "")
        kind: EntityKind = "state"
        for s in stereo:
            kind = _PSEUDO.get(s.lower().replace(" ", ""), kind)
        if m.group("open"):
            builder.open_cluster(alias or name, name, "composite_state", "state", number,
                                 stereo)
            if alias:
                builder.aliases[name] = alias
            return i
        eid = builder.entity(name, name, kind, "state", number, stereotypes=stereo,
                             alias=alias)
        if m.group("desc"):
            entity = builder.entities.get(eid)
            if entity is not None:
                entity.description = "\n".join(filter(None, (entity.description,
                                                              m.group("desc").strip())))
        return i
    if line in ("--", "||") or re.fullmatch(r"-{2,}|\|{2,}", line):
        scope = builder.cluster_id
        builder.region[scope] = builder.region.get(scope, 0) + 1
        return i
    m = _DESCRIPTION.match(line)
    if m:
        eid = builder.entity(unquote(m.group("name")), None, None, "", number, declared=False)
        entity = builder.entities.get(eid)
        if entity is not None:
            entity.description = "\n".join(filter(None, (entity.description,
                                                          m.group("desc").strip())))
        return i
    return None
