"""PlantUML ER diagrams (`entity` in the IE notation): the columns of an entity body.

`*id : number <<generated>>` — a leading `*` marks a mandatory (not null) column;
`<<PK>>`, `<<FK>>`, `<<UK>>`/`<<unique>>`, `<<generated>>` stereotypes (any case) set the
key flags; `{PK}`/`{FK}` markers too. The type follows the colon.
"""

from __future__ import annotations

import re

from diagbench.diagram.graph import Member, MemberFlag

_FLAG_WORDS: dict[str, MemberFlag] = {
    "pk": "pk", "primary key": "pk", "primary": "pk", "fk": "fk", "foreign key": "fk",
    "uk": "uk", "unique": "uk", "generated": "increment", "increment": "increment",
    "not null": "not_null", "nn": "not_null", "null": "nullable", "nullable": "nullable",
}
_MARKS = re.compile(r"<<\s*([^<>]*?)\s*>>|\{\s*(PK|FK|UK|unique)\s*\}", re.I)


def parse_column(text: str, number: int = 0) -> Member:
    """One ER column line."""
    raw = text.strip()
    flags: list[MemberFlag] = []
    rest = raw
    if rest.startswith("*"):
        flags.append("not_null")
        rest = rest[1:].strip()
    for m in _MARKS.finditer(rest):
        word = (m.group(1) or m.group(2) or "").lower()
        for part in re.split(r"\s*,\s*", word):
            flag = _FLAG_WORDS.get(part)
            if flag and flag not in flags:
                flags.append(flag)
    rest = _MARKS.sub("", rest).strip()
    visibility = ""
    if rest[:1] in "+-#~" and len(rest) > 1:
        visibility, rest = rest[0], rest[1:].strip()
    name, _, type_ = rest.partition(":")
    return Member(name.strip(), type_.strip(), visibility, tuple(flags),  # type: ignore[arg-type]
                  text=raw, line=number)
