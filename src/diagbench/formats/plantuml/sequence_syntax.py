"""Regular expressions for the statements of a PlantUML sequence diagram.

They follow the commands of PlantUML's `sequencediagram.command` package
(1.2026.2): names are `[\\w.@]+` or double-quoted, arrows are a left
dressing, a dashed body with an optional `[style]` before, inside or after
it, and a right dressing; a message with one end on the border (or omitted)
is one of the two `EXO_*` forms.

PlantUML compiles every command case-insensitively (`ALT`, `Note Over`, `-X`, `->O`), so
every statement pattern here is `command(…)`, and the reader lower-cases the keywords and
dressings it takes from a match. The message patterns differ in form only: their one
keyword (`as`) and their letters (a circle or cross, `[oxOX]`) are written in both cases,
since the flag on the whole pattern makes each of its `\\w` runs compare case-folded,
doubling the cost of the line most diagrams are made of.
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


def command(pattern: str) -> re.Pattern[str]:
    """A statement pattern, compiled case-insensitively as PlantUML compiles its commands."""
    return re.compile(pattern, re.IGNORECASE)


def _name(prefix: str) -> str:
    """A participant reference: `"Long" as C`, `C as "Long"`, `"Long"` or `C`."""
    return (
        rf'(?:"(?P<{prefix}q>[^"]+)"(?:\s*(?i:as)\s+(?P<{prefix}qa>{CODE}))?'
        rf'|(?P<{prefix}c>{CODE})(?:\s+(?i:as)\s*"(?P<{prefix}cl>[^"]+)")?)'
    )


#: The inside of an arrow's `[…]`: colours and line styles separated by commas
#: (`#red,dashed`); anything else (`;`, `thickness=2`) is no sequence arrow.
STYLE = r"#?\w+(?:\s*,\s*#?\w+)*"
_ANCHOR = r"(?:\{\w+\}\s+)?"
#: A dash body with the style before, inside or after it (`[#red]->`, `-[#red]->`, `-[#red]>`).
_BODY = (r"(?:-+(?:\[" + STYLE + r"\])?-*|-*\[" + STYLE + r"\]-+)")
#: CommandArrow's dressings: a circle or cross is read only with a space before it on the
#: left (`A o-> B`) and after it on the right (`A ->o B`); `_` and `(n)` (inclination) are
#: accepted and ignored.
_LEFT = r"(?:\(\d+\))?(?:<<?_?|//?|\\\\?)?"
_RIGHT = r"(?:_?>>?(?:[oxOX]\s|\(\d+\))?|//?(?:[oxOX]\s)?|\\\\?(?:[oxOX]\s)?|[oxOX]\s)?"
ARROW = r"(?:(?<=\s)[oxOX])?" + _LEFT + _BODY + _RIGHT
#: One arrow as MESSAGE's `arrow` group holds it (a leading circle or cross was preceded by
#: a space), split into its dressings, body and style; see `parse_arrow`.
ARROW_PARTS = re.compile(
    r"(?P<left>[oxOX]?" + _LEFT + r")"
    r"(?:(?P<body1>-+)(?:\[(?P<style>" + STYLE + r")\])?(?P<body2>-*)"
    r"|(?P<body3>-*)\[(?P<style2>" + STYLE + r")\](?P<body4>-+))"
    r"(?P<right>" + _RIGHT + r")"
)
_TAIL = (
    r"(?P<stereo>\s*<<.*?>>)?(?P<url>\s*\[\[.*?\]\])?"
    r"\s*(?::\s*(?P<label>.*))?$"
)
_ACTIVATION = r"(?P<act>\+\+|\*\*|!!|--|--\+\+|\+\+--)?"
MESSAGE = re.compile(
    r"^(?P<par>&\s*)?" + _ANCHOR + _name("a") + _ANCHOR + r"\s*(?P<arrow>" + ARROW + r")\s*"
    + _name("b") + r"(?P<multicast>(?:\s&\s" + CODE + r")*)" + _ANCHOR + r"\s*"
    + _ACTIVATION + r"\s*(?P<actcolor>#\w+)?" + _TAIL
)
#: The groups of MESSAGE in order; the parser unpacks `match.groups()` by position.
MESSAGE_GROUPS = ("par", "aq", "aqa", "ac", "acl", "arrow", "bq", "bqa", "bc", "bcl",
                  "multicast", "act", "actcolor", "stereo", "url", "label")
#: The common message, read without MESSAGE's alternatives: two plain names around an arrow
#: without inclinations or a circle or cross on the left, an optional activation and label.
#: Its arrow is the run of characters between the names (`[…]` kept whole, a circle or
#: cross on the right with the space after it), checked by `parse_arrow`; a line it does not
#: read is read by MESSAGE.
SIMPLE_MESSAGE = re.compile(
    r"([\w.@]+)\s*((?:[-<>/\\]|\[[^\]]*\])+(?:[oxOX]\s)?)\s*([\w.@]+)\s*" + _ACTIVATION
    + r"\s*(?::\s*(?P<label>.*))?$"
)

_EXO_BODY = (
    r"(?:(?P<both><<?|//?|\\\\?)?(?P<body1>-+)(?:\[(?P<style>" + STYLE + r")\])?(?P<body2>-*)"
    r"(?P<d1>>>?|//?|\\\\?)"
    r"|(?P<d2><<?|//?|\\\\?)(?P<body3>-*)(?:\[(?P<style2>" + STYLE + r")\])?(?P<body4>-+))"
)
_EXO_TAIL = r"\s*(?P<act>[+*!-]+)?\s*(?P<actcolor>#\w+)?\s*(?P<url>\[\[.*?\]\])?" + \
    r"\s*(?::\s*(?P<label>.*))?$"
#: A message from or to the border, the border written first (CommandExoArrowLeft):
#: `[-> B`, `?-> B`, `]-> B`, `[<- B`, or with the border omitted (`-> B`, from the left).
EXO_LEFT = re.compile(
    r"^(?P<par>&\s*)?" + _ANCHOR + r"(?P<border>[?\[\]][oxOX]?)?(?P<arrow>" + _EXO_BODY
    + r'(?P<circle>[oxOX]\s+)?)\s*(?:"(?P<q>[^"]+)"|(?P<c>' + CODE + r"))" + _EXO_TAIL
)
#: The border written last (CommandExoArrowRight): `A ->]`, `A ->?`, `A ->[`, `A <-]`, or
#: with the border omitted (`A ->`, to the right).
EXO_RIGHT = re.compile(
    r"^(?P<par>&\s*)?" + _ANCHOR + r'(?:"(?P<q>[^"]+)"|(?P<c>' + CODE + r"))"
    r"\s*(?P<arrow>(?P<circle>\s+[oxOX])?" + _EXO_BODY + r")(?P<border>[oxOX]?[?\]\[])?" + _EXO_TAIL
)

PARTICIPANT = command(
    r"^(?P<kind>" + "|".join(PARTICIPANT_KINDS) + r")\s+"
    r'(?:"(?P<q>[^"]+)"(?:\s+as\s+(?P<qa>' + CODE + r"))?"
    r"|(?P<c>" + CODE + r')(?:\s+as\s+(?:"(?P<cl>[^"]+)"|(?P<cc>' + CODE + r")))?)"
    r"(?P<rest>.*)$"
)
MULTILINE_END = re.compile(r"^\]$")
STEREOTYPE = re.compile(r"<<(.*?)>>")
ORDER = command(r"\border\s+(-?\d+)")
#: What may follow a declaration's name: colours (`#red`, `#red/blue`, `#line:red`) and white
#: space; the first colour is group 1 (runs possessive: a failing line is not split again).
COLORS = re.compile(r"\s*(#[\w#:/\\-]++)?(?:\s|#[\w#:/\\-]++)*+")

#: `targets` keeps the white space before the colour or colon (the reader strips each name):
#: a lazy group there would try the rest of the pattern at every character.
NOTE = command(
    r"^(?P<shape>" + "|".join(NOTE_SHAPES) + r")\s+"
    r"(?P<pos>" + "|".join(NOTE_POSITIONS) + r")\b(?:\s+of\b)?"
    r"(?P<targets>[^:#]*)(?P<color>#\S+)?\s*(?::(?P<text>.*))?$"
)
NOTE_END = command(r"^end\s?[hr]?note$")
REF = command(r"^ref\s+over\s+(?P<targets>[^:#]+?)\s*(?P<color>#\S+)?\s*(?::(?P<text>.*))?$")
REF_END = command(r"^end\s?ref$")

#: The words that open, divide or close a group (`par2` opens a `par`).
GROUP_KEYWORDS = (*GROUP_KINDS, "par2", "else", "also", "end")
#: `label` keeps its trailing white space (the reader strips it). A colour against the
#: keyword (`alt#red`) is no colour of `else`, `also` or `end`: CommandGrouping's look-behinds
#: refuse the line (`else #red`, with a space, is a colour).
GROUP = command(
    r"^(?P<kind>" + "|".join(GROUP_KEYWORDS) + r")"
    r"(?P<color1>(?<!else)(?<!also)(?<!end)#\w+)?(?:\s+(?P<color2>#\w+))?(?:\s+(?P<label>.*))?$"
)
SECONDARY = re.compile(r"^(?P<label>.*?)\s*\[(?P<secondary>[^\]]*)\]$")

BOX = command(r'^box(?:\s+"(?P<q>[^"]*)"|\s+(?P<t>[^#"]+?))?\s*(?P<color>#\S+)?\s*$')
BOX_END = command(r"^end\s?box$")

ACTIVATE = command(
    r"^(?P<action>" + "|".join(ACTIVATION_ACTIONS) + r")\s+"
    r'(?:"(?P<q>[^"]+)"|(?P<c>' + CODE + r"))\s*(?P<color>#\S+)?\s*$"
)
CREATE_DECLARATION = command(r"^create\s+(?=(?:" + "|".join(PARTICIPANT_KINDS) + r")\s)")
RETURN = command(r"^return\b\s*(?:(?P<color>#\w+)\s+)?(?P<label>.*)$")
DIVIDER = re.compile(r"^==+\s*(?P<text>.*?)\s*==+$")
DELAY = re.compile(r"^\.\.\.+(?:\s*(?P<text>.*?)\s*\.\.\.+)?$")
SPACING = re.compile(r"^\|\|(?:\||(?P<pixels>\d+)\|\|)$")
TITLE = command(r"^title(?:\s+(?P<text>.*?))?\s*$")
TITLE_END = command(r"^end\s?title$")
AUTONUMBER = command(r"^autonumber\b\s*(?P<args>.*)$")

#: Multi-line verbatim blocks: opening line → regex of the closing line.
VERBATIM_BLOCK_START = command(
    r"^(?:header|footer|caption|legend(?:\s+(?:left|right|top|bottom|center))*)\s*$",
)
#: `left|center|right header|footer [text]`: a placed header or footer (a block without text).
PLACEMENTS = frozenset({"left", "center", "right"})
PLACED = command(r"^(?:left|center|right)\s+(header|footer)\b(.*)$")
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
