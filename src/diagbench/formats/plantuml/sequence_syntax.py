"""Regular expressions for the statements of a PlantUML sequence diagram.

They follow the commands of PlantUML's `sequencediagram.command` package
(1.2026.2): names are `[\\w.@]+` or double-quoted, arrows are a left
dressing, a dashed body with an optional `[style]`, and a right dressing.
"""

from __future__ import annotations

import re

from diagbench.diagram.sequence import (
    ACTIVATION_ACTIONS,
    GROUP_KINDS,
    NOTE_POSITIONS,
    NOTE_SHAPES,
    PARTICIPANT_KINDS,
)

CODE = r"[\w.@]+"


def _name(prefix: str) -> str:
    """A participant reference: `"Long" as C`, `C as "Long"`, `"Long"` or `C`."""
    return (
        rf'(?:"(?P<{prefix}q>[^"]+)"(?:\s*as\s+(?P<{prefix}qa>{CODE}))?'
        rf'|(?P<{prefix}c>{CODE})(?:\s+as\s*"(?P<{prefix}cl>[^"]+)")?)'
    )


ARROW = (
    r"(?P<left>[ox]?(?:<<?|//?|\\\\?)?)"
    r"(?P<body1>-+)(?:\[(?P<style>[^\]]*)\])?(?P<body2>-*)"
    r"(?P<right>(?:>>?|//?|\\\\?)?[ox]?)"
)
ACTIVATION = r"(?P<act>--\+\+|\+\+--|\+\+|--|\*\*|!!)(?:\s*(?P<actcolor>#\w+))?"

MESSAGE = re.compile(
    r"^(?:(?P<lb>\[|\?)|" + _name("a") + r")\s*" + ARROW + r"\s*"
    r"(?:(?P<rb>\]|\?)|" + _name("b") + r")"
    r"(?:\s*" + ACTIVATION + r")?"
    r"\s*(?::(?P<label>.*))?$"
)
#: The groups of MESSAGE in order; the parser unpacks `match.groups()` by position.
MESSAGE_GROUPS = ("lb", "aq", "aqa", "ac", "acl", "left", "body1", "style", "body2", "right",
                  "rb", "bq", "bqa", "bc", "bcl", "act", "actcolor", "label")

PARTICIPANT = re.compile(
    r"^(?P<kind>" + "|".join(PARTICIPANT_KINDS) + r")\s+"
    r'(?:"(?P<q>[^"]+)"(?:\s+as\s+(?P<qa>' + CODE + r"))?"
    r"|(?P<c>" + CODE + r')(?:\s+as\s+(?:"(?P<cl>[^"]+)"|(?P<cc>' + CODE + r")))?)"
    r"(?P<rest>.*)$"
)
STEREOTYPE = re.compile(r"<<(.*?)>>")
ORDER = re.compile(r"\border\s+(-?\d+)")
COLOR = re.compile(r"(#[\w#:/\\-]+)")

NOTE = re.compile(
    r"^(?P<shape>" + "|".join(NOTE_SHAPES) + r")\s+"
    r"(?P<pos>" + "|".join(NOTE_POSITIONS) + r")\b(?:\s+of\b)?"
    r"(?P<targets>[^:#]*?)\s*(?P<color>#\S+)?\s*(?::(?P<text>.*))?$"
)
NOTE_END = re.compile(r"^end\s?[hr]?note$")
REF = re.compile(r"^ref\s+over\s+(?P<targets>[^:#]+?)\s*(?P<color>#\S+)?\s*(?::(?P<text>.*))?$")
REF_END = re.compile(r"^end\s?ref$")

#: The words that open, divide or close a group (`par2` opens a `par`).
GROUP_KEYWORDS = (*GROUP_KINDS, "par2", "else", "also", "end")
GROUP = re.compile(
    r"^(?P<kind>" + "|".join(GROUP_KEYWORDS) + r")"
    r"(?P<color1>#\w+)?(?:\s+(?P<color2>#\w+))?(?:\s+(?P<label>.*?))?\s*$"
)
SECONDARY = re.compile(r"^(?P<label>.*?)\s*\[(?P<secondary>[^\]]*)\]$")

BOX = re.compile(r'^box(?:\s+"(?P<q>[^"]*)"|\s+(?P<t>[^#"]+?))?\s*(?P<color>#\S+)?\s*$')
BOX_END = re.compile(r"^end\s?box$")

ACTIVATE = re.compile(
    r"^(?P<action>" + "|".join(ACTIVATION_ACTIONS) + r")\s+"
    r'(?:"(?P<q>[^"]+)"|(?P<c>' + CODE + r"))\s*(?P<color>#\S+)?\s*$"
)
CREATE_DECLARATION = re.compile(r"^create\s+(?=(?:" + "|".join(PARTICIPANT_KINDS) + r")\s)")
RETURN = re.compile(r"^return\b\s*(?P<label>.*)$")
DIVIDER = re.compile(r"^==+\s*(?P<text>.*?)\s*==+$")
DELAY = re.compile(r"^\.\.\.+(?:\s*(?P<text>.*?)\s*\.\.\.+)?$")
SPACING = re.compile(r"^\|\|(?:\||(?P<pixels>\d+)\|\|)$")
TITLE = re.compile(r"^title(?:\s+(?P<text>.*?))?\s*$")
TITLE_END = re.compile(r"^end\s?title$")
AUTONUMBER = re.compile(r"^autonumber\b\s*(?P<args>.*)$")

#: Multi-line verbatim blocks: opening line → regex of the closing line.
VERBATIM_BLOCK_START = re.compile(
    r"^(?:header|footer|caption|legend(?:\s+(?:left|right|top|bottom|center))*)\s*$",
    re.IGNORECASE,
)
VERBATIM_BLOCKS: dict[str, re.Pattern[str]] = {
    "header": re.compile(r"^end\s?header$"),
    "footer": re.compile(r"^end\s?footer$"),
    "legend": re.compile(r"^end\s?legend$"),
    "caption": re.compile(r"^end\s?caption$"),
}
#: Single-line statements that style or lay out the diagram; kept verbatim.
LAYOUT_KEYWORDS = frozenset({
    "skinparam", "skin", "hide", "show", "autoactivate", "newpage", "mainframe", "header",
    "footer", "legend", "caption", "scale", "ignore", "allowmixing",
})
PREPROCESSOR_BLOCK_END = re.compile(r"^!(?:end\w+|enddefinelong)\b")
PREPROCESSOR_BLOCK_START = re.compile(r"^!(?:procedure|function|unquoted|definelong)\b")
