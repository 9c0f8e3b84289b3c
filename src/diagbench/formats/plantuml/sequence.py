"""Parse PlantUML sequence diagrams into `SequenceDiagram` models.

`parse_sequence(text)` never raises: each `@startuml … @enduml` block gives a
`Parsed` (`diagbench.formats.parsed`) carrying the model and the diagnostics
(line, text, reason) of everything that could not be read. Preprocessor
directives are recorded, never executed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, cast

from diagbench.diagram.sequence import (
    ACTIVATION_ACTIONS,
    NOTE_SHAPES,
    PARTICIPANT_KINDS,
    Activation,
    ActivationAction,
    Box,
    Branch,
    Delay,
    Directive,
    Divider,
    EventKind,
    Group,
    GroupKind,
    Head,
    LineStyle,
    Message,
    MessageHead,
    Note,
    NotePosition,
    NoteShape,
    Participant,
    ParticipantKind,
    Reference,
    SequenceDiagram,
    Spacing,
    new_message,
)
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed
from diagbench.formats.plantuml import sequence_syntax as syn
from diagbench.formats.plantuml.autonumber import Autonumber
from diagbench.formats.plantuml.blocks import Block, split_blocks
from diagbench.formats.plantuml.kind import guess_kind

_WORD = re.compile(r"[A-Za-z]+")
_STYLE_SEPARATOR = re.compile("[,;]")
_DRESSING_NOISE = re.compile(r"[\s_]|\(\d+\)")  # spaces, `_` and inclinations `(n)`
_BORDER_MARKS = "[]?"
_CONTINUED = re.compile(r"\\[ \t]*$", re.MULTILINE)  # a line ending in a backslash


def parse_sequence(text: str) -> list[Parsed[SequenceDiagram]]:
    """Parse every diagram block of `text` as a sequence diagram."""
    results: list[Parsed[SequenceDiagram]] = []
    for index, block in enumerate(split_blocks(text)):
        if block.kind != "uml":
            diagram = SequenceDiagram(name=block.name)
            results.append(Parsed(index, block.first_line, "plantuml", block.kind, diagram))
            continue
        builder = _Builder(block)
        diagram = builder.build()
        diagnostics = tuple(sorted(block.diagnostics + builder.diagnostics, key=_line)) \
            if block.diagnostics or builder.diagnostics else ()
        kind = guess_kind(block, diagram, builder.unknown_lines)
        results.append(Parsed(index, block.first_line, "plantuml", kind, diagram,
                              diagnostics))
    return results


def _line(d: Diagnostic) -> int:
    return d.line


def parse_one(text: str) -> SequenceDiagram:
    """The first diagram of `text` (an empty diagram when there is none)."""
    parsed = parse_sequence(text)
    return parsed[0].diagram if parsed else SequenceDiagram()


def _label(raw: str | None) -> str:
    return raw.strip() if raw else ""


def _head(dressing: str, left: bool) -> Head:
    """Arrow-head shape from the dressing characters at one end of the arrow."""
    core = dressing.strip("ox")
    if "x" in dressing:
        return "lost"
    if not core:
        return "none"
    if core in (">>", "<<"):
        return "async"
    if core in (">", "<"):
        return "normal"
    top = "/" if left else "\\"
    if core[0] == top:
        return "half_top_async" if len(core) == 2 else "half_top"
    return "half_bottom_async" if len(core) == 2 else "half_bottom"


def _style(style: str | None, dotted: bool) -> tuple[LineStyle, str | None]:
    """(line style, colour) of a body with `style` between its brackets."""
    color = None
    line_style: LineStyle = "dotted" if dotted else "solid"
    if style:
        tokens = [t.strip() for t in _STYLE_SEPARATOR.split(style)]
        words = {t.lower() for t in tokens}  # styles in any case, colours as written
        if "dashed" in words or "dotted" in words:
            line_style = "dotted"
        if "hidden" in words:
            line_style = "hidden"
        color = next((t for t in tokens if t.startswith("#")), None)
    return line_style, color


#: What an arrow means: (forward, bidirectional, line style, head, tail, head circle, tail
#: circle, colour); forward is False when the receiver is written first (`A <- B`).
ArrowInfo = tuple[bool, bool, LineStyle, Head, Head, bool, bool, str | None]
_ARROWS: dict[str, ArrowInfo | None] = {}  # a corpus has few distinct arrows


def parse_arrow(text: str) -> ArrowInfo | None:
    """What the arrow `text` (MESSAGE's `arrow` group) means, as CommandArrow reads it;
    None when PlantUML rejects it (no head, cross or slash at either end)."""
    try:
        return _ARROWS[text]
    except KeyError:
        pass
    m = syn.ARROW_PARTS.fullmatch(text)
    info = None if m is None else _arrow_meaning(*m.group(
        "left", "body1", "style", "body2", "body3", "style2", "body4", "right"))
    if len(_ARROWS) < 4096:
        _ARROWS[text] = info
    return info


#: A line's text before its first colon, read as a message without activation: the names
#: as written (first, second) and the first fields of the message.
Learned = tuple[str, str, MessageHead]
#: Arrows and names SIMPLE_MESSAGE has read as the words of a line (`A -> B`, the arrow
#: without the space after a right circle or cross), the arrows' meanings, and the texts
#: before the colon of such lines; all bounded, so that memory stays flat.
_TOKENS: dict[str, ArrowInfo] = {}
_NAMES: set[str] = set()
_LEARNED: dict[str, Learned] = {}


def _message_head(a: str, b: str, arrow: str, shape: ArrowInfo) -> MessageHead:
    """The first fields of the message `a arrow b` whose arrow means `shape` (see
    `new_message`)."""
    forward, bidirectional, line_style, head, tail, head_circle, tail_circle, color = shape
    if not forward:
        a, b = b, a
    return (a, b, arrow.strip(), not forward, bidirectional, line_style, head, tail,
            head_circle, tail_circle, color)


def _learn(before: str, a: str, arrow: str, b: str, shape: ArrowInfo) -> None:
    """Remember a line SIMPLE_MESSAGE read as `a arrow b` with no activation, `before` being
    its text before the first colon.

    Then any line whose text before its first colon is `before`, or splits into three
    words, a known name, a known arrow and a known name, is that message (white space
    around them is what the reader strips; a comment or `&` sticks to a word): its names
    are whole `[\\w.@]+` runs separated from the arrow by white space, and the arrow, a run
    of `-<>/\\` and `[…]` with no space in it (and a circle or cross on the right, which the
    space after it closes), is read the same way wherever it stands. The label is the text
    after the colon. The build loop reads such lines without the regex (see `_recall`).
    """
    words = before.split()
    if words == [a, arrow.rstrip(), b]:
        if len(_NAMES) < 16384 and len(_TOKENS) < 4096:
            _NAMES.update((a, b))
            _TOKENS.setdefault(words[1], shape)
        _remember(before, a, b, _message_head(a, b, arrow, shape))


def _recall(before: str) -> Learned | None:
    """What a line whose text before its first colon is `before` reads as, when its words
    are a known name, a known arrow and a known name (see `_learn`); else None."""
    words = before.split()
    if len(words) == 3 and words[1] in _TOKENS and words[0] in _NAMES and words[2] in _NAMES:
        a, arrow, b = words
        return _remember(before, a, b, _message_head(a, b, arrow, _TOKENS[arrow]))
    return None


def _remember(before: str, a: str, b: str, head: MessageHead) -> Learned:
    if len(_LEARNED) >= 4096:  # bounded: a full table starts again
        _LEARNED.clear()
    learned = _LEARNED[before] = (a, b, head)
    return learned


def _arrow_meaning(left: str, body1: str | None, style: str | None, body2: str | None,
                   body3: str | None, style2: str | None, body4: str | None,
                   right: str) -> ArrowInfo | None:
    """CommandArrow's direction rule: a head or slash on the right makes the arrow go left to
    right, so does a cross at both ends; else a head or slash on the left makes it go right
    to left; else a cross at either end makes it go left to right."""
    if body1 is None:
        body1, style, body2 = body3, style2, body4
    left = _DRESSING_NOISE.sub("", left).lower()
    right = _DRESSING_NOISE.sub("", right).lower()
    has1 = "<" in left or "/" in left or "\\" in left
    has2 = ">" in right or "/" in right or "\\" in right
    x1, x2 = "x" in left, "x" in right
    if has2 or (x1 and x2):
        forward = True
    elif has1:
        forward = False
    elif x1 or x2:
        forward = True
    else:
        return None
    line_style, color = _style(style, len(body1 or "") + len(body2 or "") > 1)
    if forward:
        head = _head(right, left=False)
        tail = _head(left, left=True) if has1 or x1 else "none"
        head_side, tail_side = right, left
    else:
        head = _head(left, left=True)
        tail = _head(right, left=False) if x2 else "none"
        head_side, tail_side = left, right
    return (forward, has1 and has2, line_style, head, tail,
            "o" in head_side, "o" in tail_side, color)


def _continued(text: str) -> bool:
    """Whether a line of `text` ends in a backslash (then spaces or tabs): the regex only when
    a substring search cannot tell (labels often hold a `\\n`, which it would try one by one)."""
    return ("\\\n" in text or text.rstrip(" \t").endswith("\\")
            or (("\\ " in text or "\\\t" in text) and _CONTINUED.search(text) is not None))


def _join_continuations(lines: list[str], first: int):
    """Lines ending in one backslash joined with the next, as PlantUML reads them.

    Returns (logical lines, the source line number of each, {logical index: offsets
    in the logical line where a backslash and line break were removed}). A line ending
    in two backslashes is not continued. Comments are gone before lines are joined: a
    comment line is never continued, and a continued line goes on past comment lines.
    """
    out: list[str] = []
    numbers: list[int] = []
    joins: dict[int, tuple[int, ...]] = {}
    k, n = 0, len(lines)
    while k < n:
        text, start, breaks = lines[k], first + k, []
        k += 1
        while k < n and not text.lstrip().startswith("'"):
            stripped = text.rstrip()
            if not stripped.endswith("\\") or stripped.endswith("\\\\"):
                break
            k = _skip_comments(lines, k)
            if k >= n:
                break
            text = stripped[:-1]
            breaks.append(len(text))
            text += lines[k]
            k += 1
        if breaks:
            joins[len(out)] = tuple(breaks)
        out.append(text)
        numbers.append(start)
    return out, numbers, joins


def _skip_comments(lines: list[str], k: int) -> int:
    """The index of the first line from `k` on that is not (inside) a comment."""
    n = len(lines)
    while k < n:
        line = lines[k].lstrip()
        if line.startswith("'"):
            k += 1
        elif line.startswith("/'"):
            rest = line[2:]
            while "'/" not in rest:
                k += 1
                if k >= n:
                    return n
                rest = lines[k]
            k += 1
        else:
            break
    return k


def _skip(rows: Iterator[object], n: int) -> None:
    """Advance `rows` by `n` items (none when `n` <= 0), in C."""
    if n > 0:
        next(islice(rows, n - 1, None), None)


@dataclass(slots=True)
class _BranchState:
    """A branch of a group being read: its label, the indexes of its messages so far, its
    colour and line."""

    label: str
    messages: list[int]
    color: str | None
    line: int


@dataclass(slots=True)
class _GroupState:
    """A group being read (its parent: the index of the enclosing group)."""

    kind: GroupKind
    parent: int | None
    color: str | None
    secondary: str | None
    line: int
    branches: list[_BranchState] = field(default_factory=list)


@dataclass(slots=True)
class _BoxState:
    """A box being read: its title, colour, the ids of its participants so far, its line."""

    title: str
    color: str | None
    members: list[str]
    line: int


@dataclass(slots=True)
class _Blocks:
    """The groups and boxes read so far, and which are open."""

    groups: list[_GroupState] = field(default_factory=list)
    open_groups: list[int] = field(default_factory=list)  # innermost last
    #: the message indexes of the innermost open branch (None: outside any group)
    branch: list[int] | None = None
    boxes: list[_BoxState] = field(default_factory=list)
    open_box: int | None = None

    def open_group(self, kind: GroupKind, label: str, color: str | None,
                   secondary: str | None, number: int) -> int:
        """Open a group (its first branch too); its index."""
        gi = len(self.groups)
        state = _GroupState(kind, self.open_groups[-1] if self.open_groups else None, color,
                            secondary, number)
        self.branch = []
        state.branches.append(_BranchState(label, self.branch, None, number))
        self.groups.append(state)
        self.open_groups.append(gi)
        return gi

    def next_branch(self, label: str, color: str | None, number: int) -> int:
        """Open the next branch (`else`, `also`) of the innermost open group; its index."""
        gi = self.open_groups[-1]
        self.branch = []
        self.groups[gi].branches.append(_BranchState(label, self.branch, color, number))
        return gi

    def close_group(self) -> int:
        """Close the innermost open group; its index."""
        gi = self.open_groups.pop()
        self.branch = self.groups[self.open_groups[-1]].branches[-1].messages \
            if self.open_groups else None
        return gi

    def drop_open_groups(self) -> dict[int, int]:
        """Remove the groups left open (their messages stay), renumbering the others and
        their parents; the new index of each group kept."""
        dropped = set(self.open_groups)
        new: dict[int, int] = {}
        for gi in range(len(self.groups)):
            if gi not in dropped:
                new[gi] = len(new)
        for g in self.groups:
            while g.parent is not None and g.parent in dropped:
                g.parent = self.groups[g.parent].parent
            if g.parent is not None:
                g.parent = new[g.parent]
        self.groups = [g for gi, g in enumerate(self.groups) if gi not in dropped]
        self.open_groups = []
        self.branch = None
        return new

    def start_box(self, title: str, color: str | None, number: int) -> int:
        self.open_box = len(self.boxes)
        self.boxes.append(_BoxState(title, color, [], number))
        return self.open_box

    def declared(self, pid: str, again: bool) -> None:
        """Participant `pid` declared (`again`: declared before): into the open box, and out
        of any other."""
        if again:
            for box in self.boxes:
                if pid in box.members:
                    box.members.remove(pid)
        if self.open_box is not None:
            self.boxes[self.open_box].members.append(pid)

    def freeze(self) -> tuple[tuple[Group, ...], tuple[Box, ...]]:
        groups = tuple(
            Group(g.kind, tuple(Branch(b.label, tuple(b.messages), b.color, b.line)
                                for b in g.branches),
                  g.parent, g.secondary, g.color, g.line)
            for g in self.groups
        ) if self.groups else ()
        boxes = tuple(Box(b.title, b.color, tuple(b.members), b.line)
                      for b in self.boxes) if self.boxes else ()
        return groups, boxes


#: `_Activity.last_event` and `last_leaf` after a group's end (and `last_leaf` after `else`).
_NOT_A_MESSAGE = -1


@dataclass(slots=True)
class _Activity:
    """PlantUML's activation state, for `return`: the messages whose activations are still
    open (an activation pushes the message just before it, a deactivation pops the top),
    the last message or group end (None: none yet; `_NOT_A_MESSAGE`: a group end), and the
    last message, `else` or group end (`_NOT_A_MESSAGE`: not a message)."""

    activating: list[int] = field(default_factory=list)
    last_event: int | None = None
    last_leaf: int | None = None
    autoactivate: bool = False

    def event(self, activate: bool) -> None:
        """SequenceDiagram.activate: an activation pushes the last message (when the last
        event was one), a deactivation pops; neither does anything before the first
        message."""
        last = self.last_event
        if last is None:
            return
        if activate:
            if last >= 0:
                self.activating.append(last)
        elif self.activating:
            self.activating.pop()


class _Builder:
    """Reads the lines of one block; `build()` returns the frozen model.

    The first word of a statement picks its handler (`_KEYWORD_HANDLERS`); messages are
    read first, by the build loop. Handlers add to the model under construction (the
    element lists, and `order`, the events in source order) and update the typed state
    of open blocks (`blocks`) and of activations (`activity`).
    """

    def __init__(self, block: Block) -> None:
        self.block = block
        self.diagnostics: list[Diagnostic] = []
        self.unknown_lines = 0
        self.title: str | None = None
        self.participants: dict[str, Participant] = {}  # by id, in creation order
        self.ranked = False  # a participant declared with an `order`
        self.messages: list[Message] = []
        self.notes: list[Note] = []
        self.blocks = _Blocks()
        self.references: list[Reference] = []
        self.dividers: list[Divider] = []
        self.delays: list[Delay] = []
        self.spacings: list[Spacing] = []
        self.activations: list[Activation] = []
        self.directives: list[Directive] = []
        # (kind, index into the list of its kind); a participant event's index is into
        # `declared`, since a participant declared again moves (see _freeze)
        self.order: list[tuple[EventKind, int]] = []
        self.declared: list[str] = []  # the participant id of each declaration event
        self.declared_at: list[int] = []  # where the participant events are in `order`
        self.autonumber = Autonumber()
        self.activity = _Activity()
        self.raw = ""  # the current source line, when continuation lines were joined
        self.breaks: tuple[int, ...] = ()  # offsets in `raw` where a continuation was joined
        self.hide_unlinked = False  # the last of `hide unlinked` / `show unlinked`
        self.undrawn_notes: list[int] = []  # note blocks without a line (PlantUML draws none)

    # ------------------------------------------------------------------ driver
    def build(self) -> SequenceDiagram:
        lines = self.block.lines
        first = self.block.first_line
        numbers: list[int] | None = None
        joins: dict[int, tuple[int, ...]] = {}
        if _continued("\n".join(lines)):
            lines, numbers, joins = _join_continuations(lines, first)
        match_message = syn.MESSAGE.match
        match_simple = syn.SIMPLE_MESSAGE.match
        arrows, known = _ARROWS, self.participants
        learned = _LEARNED if numbers is None else {}  # joined lines: see _label_breaks
        handlers = _KEYWORD_HANDLERS
        rows = enumerate(lines)
        for i, raw in rows:
            if "-" in raw:  # most lines are messages: try them first
                # a line whose text before the colon was read before, or is a known name, arrow
                # and name: read without a regex (see _learn); this is the loop's hot path
                before, _, after = raw.partition(":")
                seen = learned.get(before)
                if seen is None and numbers is None:
                    seen = _recall(before)
                if seen is not None:
                    number = first + i
                    a, b, message_head = seen
                    if a not in known:
                        self._participant(a, number)
                    if b not in known:
                        self._participant(b, number)
                    self._add_message(message_head, after.strip(), None, number)
                    continue
            if numbers is None:
                number = first + i
            else:
                number = numbers[i]
                self.raw, self.breaks = raw, joins.get(i, ())
            line = raw.strip()
            if not line:
                continue
            head = line[0]
            if head in "'/&":
                if head == "'":
                    continue
                if line.startswith("/'"):
                    _skip(rows, self._skip_block_comment(lines, i, number) - i - 1)
                    continue
                if head == "&" and len(line) > 1:  # teoz: in parallel with the previous message
                    line = line[1:].lstrip()
            if "-" in line:
                m = match_simple(line)
                if m:
                    a, arrow, b, activation, label = m.groups()
                    shape = arrows[arrow] if arrow in arrows else parse_arrow(arrow)
                    if shape is not None:
                        if a not in known:
                            self._participant(a, number)
                        if b not in known:
                            self._participant(b, number)
                        text = label.strip() if label else ""
                        breaks = self._label_breaks(m, text) if self.breaks else ()
                        self._add_message(_message_head(a, b, arrow, shape), text, activation,
                                          number, breaks)
                        if activation is None:
                            _learn(before, a, arrow, b, shape)
                        continue
                m = match_message(line)
                if (m and self._message(m, number)) or self._exo(line, number):
                    continue
            # a first word written as a keyword (`note`, `end`, `par2`, `/`) picks its handler
            handler = handlers.get(line.partition(" ")[0])
            consumed = (self._statement(line, raw, number, lines, i + 1) if handler is None
                        else handler(self, line, raw, number, lines, i + 1))
            if consumed is False:
                self.unknown_lines += 1
                self._error(number, raw, "unrecognised statement")
            elif consumed is not None:  # the statement spans the lines up to `consumed`
                _skip(rows, consumed - i - 1)
        self._close_open_blocks()
        if self.hide_unlinked:
            self._leave_out_unlinked()
        return self._freeze()

    def _skip_block_comment(self, lines: list[str], start: int, number: int) -> int:
        first = lines[start].strip()
        if "'/" in first[2:]:
            return start + 1
        for j in range(start + 1, len(lines)):
            if "'/" in lines[j]:
                return j + 1
        self._error(number, lines[start], "unterminated block comment (no closing '/)")
        return len(lines)

    def _statement(self, line: str, raw: str, number: int, lines: list[str],
                   i: int) -> int | bool | None:
        """A non-message statement whose first word is no keyword: the letters at the start of
        the line, lower-cased, pick the handler. The next line's index when it spans several,
        False when it is not understood."""
        if line[0] in "=.|":  # no keyword starts with these
            return None if self._punctuation(line, number) else False
        word_match = _WORD.match(line)
        handler = _KEYWORD_HANDLERS.get(word_match.group().lower() if word_match else line[0])
        if handler is not None:
            return handler(self, line, raw, number, lines, i)
        if line[0] == "!":
            return self._preprocessor(line, raw, number, lines, i)
        if line[0] == "<" and line.lower().startswith("<style"):
            return self._verbatim_until(
                "style", raw, number, lines, i, lambda s: "</style>" in s.lower()
            )
        return False

    # ---------------------------------------------------------------- helpers
    def _error(self, number: int, text: str, reason: str) -> None:
        self.diagnostics.append(Diagnostic(number, text, reason, "error"))

    def _warn(self, number: int, text: str, reason: str) -> None:
        self.diagnostics.append(Diagnostic(number, text, reason, "warning"))

    def _participant(self, pid: str, number: int, name: str | None = None) -> str:
        """Ensure participant `pid` exists (implicitly created on first use)."""
        if pid not in self.participants:
            self.participants[pid] = Participant(pid, name or pid, "participant", False, None,
                                                 None, None, number)
        return pid

    def _reference(self, quoted: str | None, alias: str | None, code: str | None,
                   long: str | None, number: int) -> str:
        """Resolve one end of a message: `"Long" as A`, `A as "Long"`, `"Long"` or `A`."""
        if quoted is not None:
            if alias:
                return self._declare_inline(alias, quoted, number)
            return self._participant(quoted, number)
        if long is not None:
            return self._declare_inline(cast(str, code), long, number)
        return self._participant(cast(str, code), number)

    def _declare_inline(self, pid: str, name: str, number: int) -> str:
        if pid in self.participants:
            self.participants[pid].name = name
        else:
            self._participant(pid, number, name)
        return pid

    def _placed(self, index: int) -> None:
        """Message `index`, just appended, in the order of events, its open branch and the
        activation state."""
        self.order.append(("message", index))
        self.activity.last_event = self.activity.last_leaf = index
        branch = self.blocks.branch
        if branch is not None:
            branch.append(index)

    # ---------------------------------------------------------------- messages
    def _message(self, m: re.Match[str], number: int) -> bool:
        """A message read by MESSAGE (any participant reference, anchors, multicast, …)."""
        (_, aq, aqa, ac, acl, arrow, bq, bqa, bc, bcl, multicast, activation, _, _, _,
         label) = m.groups()  # MESSAGE_GROUPS
        shape = parse_arrow(arrow)
        if shape is None:
            return False
        known = self.participants  # fast path: a plain name already known
        a = ac if acl is None and ac in known else self._reference(aq, aqa, ac, acl, number)
        b = bc if bcl is None and bc in known else self._reference(bq, bqa, bc, bcl, number)
        text = label.strip() if label else ""
        self._add_message(_message_head(a, b, arrow, shape), text, activation, number,
                          self._label_breaks(m, text) if self.breaks else ())
        if multicast:  # `A -> B & C`: one arrow drawn, the other receivers created
            extras = tuple(self._participant(x.strip(), number) for x in multicast.split("&")[1:])
            self.messages[-1].multicast = extras
        return True

    def _add_message(self, head: MessageHead, text: str, activation: str | None,
                     number: int, breaks: tuple[int, ...] = ()) -> None:
        """Add the message whose first fields are `head`, its label `text`."""
        messages = self.messages
        index = len(messages)
        messages.append(new_message(head, text, activation, next(self.autonumber.numbers), number,
                                    breaks))
        self.order.append(("message", index))
        activity = self.activity
        activity.last_event = activity.last_leaf = index
        branch = self.blocks.branch
        if branch is not None:  # inside a group: the message belongs to its current branch
            branch.append(index)
        if activation:  # CommandArrow.manageActivations
            if activation[0] == "+":
                activity.event(True)
            elif activation[0] == "-":
                activity.event(False)
            if len(activation) == 4:
                activity.event(activation[2] == "+")
        elif activity.autoactivate and head[6] != "lost":
            activity.event(head[5] != "dotted")

    def _label_breaks(self, m: re.Match[str], text: str) -> tuple[int, ...]:
        """Offsets into the label where the source line was continued (trailing backslash)."""
        if m.group("label") is None:
            return ()
        raw = self.raw
        stripped = raw.strip()
        at = len(raw) - len(raw.lstrip()) + len(stripped) - len(m.string) + m.start("label")
        at += len(m.group("label")) - len(m.group("label").lstrip())
        return tuple(min(max(0, k - at), len(text)) for k in self.breaks)

    def _exo(self, line: str, number: int) -> bool:
        """A message with one end on the diagram border (or omitted, meaning the border)."""
        m = syn.EXO_LEFT.match(line)
        border_first = m is not None
        if m is None:
            m = syn.EXO_RIGHT.match(line)
            if m is None:
                return False
        border, d1, d2, both = m.group("border"), m.group("d1"), m.group("d2"), m.group("both")
        pid = self._participant(m.group("q") or m.group("c"), number)
        body1 = m.group("body1") if d1 else m.group("body3")
        body2 = m.group("body2") if d1 else m.group("body4")
        style = m.group("style") if d1 else m.group("style2")
        line_style, color = _style(style, "--" in body1 + body2)
        written = (border or "").lower()  # the border and its circle or cross, in any case
        mark = written.strip("ox") or None
        inward = bool(d1) == border_first  # the arrow points at the participant
        if border_first:
            side = "]" if mark == "]" else mark or "["
        else:
            side = "[" if mark == "[" else mark or "]"
        sender, receiver = (side, pid) if inward else (pid, side)
        circle = (m.group("circle") or "").strip().lower()
        head_end, tail_end = (circle, written) if inward else (written, circle)
        dressing = d1 or d2
        head = "lost" if "x" in head_end else _head(dressing, left=bool(d2))
        index = len(self.messages)
        label = m.group("label")
        text = label.strip() if label else ""
        activation = m.group("act")
        self.messages.append(Message(
            sender, receiver, m.group("arrow").strip(), bool(d2), both is not None,
            line_style, head, _head(both, left=True) if both else "none",
            "o" in head_end, "o" in tail_end, color, text, activation, False,
            next(self.autonumber.numbers), number, border or "",
            self._label_breaks(m, text) if self.breaks else (),
        ))
        self._placed(index)
        if activation:  # CommandExoArrowAny: the first character decides
            if activation[0] in "+-":
                self.activity.event(activation[0] == "+")
        elif self.activity.autoactivate and head != "lost":
            self.activity.event(line_style != "dotted")
        return True

    def _return(self, line: str, raw: str, number: int, lines: list[str], i: int):
        """CommandReturn: a dotted reply along the message of the last open activation, which
        it closes; with none open, back along the last message (not after `else`/`end`)."""
        m = syn.RETURN.match(line)
        if m is None:
            return False
        activity = self.activity
        leaf = activity.last_leaf
        if activity.activating:
            call, deactivate = self.messages[activity.activating[-1]], True
        elif leaf is not None and leaf >= 0 and self.messages[leaf].border is None:
            call, deactivate = self.messages[leaf], False
        else:
            self._error(number, raw, "return with nowhere to return to (no open activation, "
                        "and the last message is not between two participants)")
            return
        index = len(self.messages)
        self.messages.append(Message(
            sender=call.receiver, receiver=call.sender, arrow="-->", line_style="dotted",
            color=m.group("color"), label=_label(m.group("label")), is_return=True,
            autonumber=next(self.autonumber.numbers), line=number, border=call.border,
        ))
        self._placed(index)
        if deactivate:
            activity.event(False)

    # ------------------------------------------------------------ participants
    def _declaration(self, line: str, raw: str, number: int, lines: list[str], i: int):
        m = syn.PARTICIPANT.match(line)
        if not m:
            return False
        kind, quoted, quoted_alias, code, long, other, rest = m.groups()
        kind = kind.lower()
        if quoted is not None:
            pid = quoted_alias or quoted
            name = quoted
        else:
            pid, name = (other, code) if other else (code, long or code)
        nxt = None
        if rest.strip() == "[" and kind == "participant" and code:
            # `participant X [` … `]`: the lines between are its (creole) display text
            body, nxt = self._collect_until(syn.MULTILINE_END, lines, i, number, raw, "]")
            name, rest = "\n".join(body), ""
        # each pattern only where it can match (most declarations have nothing after the name)
        stereotype = syn.STEREOTYPE.search(rest) if "<<" in rest else None
        order = syn.ORDER.search(rest) if rest else None
        leftover = syn.STEREOTYPE.sub("", rest) if stereotype else rest
        if order:
            leftover = syn.ORDER.sub("", leftover)
        colors = syn.COLORS.fullmatch(leftover)
        if colors is None:
            return False
        color = colors.group(1)
        if pid in self.participants:
            # declared again: PlantUML only moves it to the end (and into the open box, or out
            # of any); its kind, name, colour and order stay as they were
            self.participants[pid] = self.participants.pop(pid)
            self.blocks.declared(pid, True)
        else:
            self.participants[pid] = Participant(
                pid, name, cast(ParticipantKind, kind), True,
                int(order.group(1)) if order else None,
                stereotype.group(1).strip() if stereotype else None, color, number)
            if order:
                self.ranked = True
            self.blocks.declared(pid, False)
        self.declared_at.append(len(self.order))
        self.order.append(("participant", len(self.declared)))
        self.declared.append(pid)
        return nxt

    def _activate(self, line: str, raw: str, number: int, lines: list[str], i: int):
        if line[0] in "cC" and syn.CREATE_DECLARATION.match(line):
            known = len(self.participants)
            pid = self._declaration(line[6:].lstrip(), raw, number, lines, i)
            if pid is False:
                return False
            if len(self.participants) > known:  # one declared again is not created
                self._add_activation("create", self.declared[-1], None, number)
            return pid
        m = syn.ACTIVATE.match(line)
        if not m:
            return False
        word, quoted, code, color = m.groups()
        action = cast(ActivationAction, word.lower())
        pid = self._participant(quoted or code, number)
        self._add_activation(action, pid, color, number)
        if action in ("activate", "deactivate"):
            self.activity.event(action == "activate")
        return None

    def _add_activation(self, action: ActivationAction, pid: str, color: str | None,
                        number: int) -> None:
        self.order.append(("activation", len(self.activations)))
        self.activations.append(Activation(action, pid, color, number))

    # ------------------------------------------------------------------ notes
    def _note(self, line: str, raw: str, number: int, lines: list[str], i: int):
        if line.startswith("/"):
            line = line[1:].lstrip()
        m = syn.NOTE.match(line)
        if not m:
            return False
        shape, position, raw_targets, color, text = m.groups()
        shape, position = shape.lower(), position.lower()
        targets = self._targets(raw_targets, number)
        on_message = None
        if not targets and position != "across":
            if not self.messages or position == "over":
                return False
            on_message = len(self.messages) - 1
        nxt = None
        if text is None:
            body, nxt = self._collect_until(syn.NOTE_END, lines, i, number, raw, "end note")
            text = "\n".join(body)
            if on_message is None and not body:
                self.undrawn_notes.append(len(self.notes))
                # `note over …` then `end note`, or only comments between (one on a message is
                # drawn); kept in the model: a note head read alone, as compare.diff reads
                # lines, is still a note
                self._warn(number, raw, "note without a line: PlantUML draws nothing")
        self.order.append(("note", len(self.notes)))
        self.notes.append(Note(cast(NotePosition, position), targets, text.strip(),
                               cast(NoteShape, shape), color, on_message, number))
        return nxt

    def _targets(self, raw: str, number: int) -> tuple[str, ...]:
        known = self.participants
        targets = []
        for name in raw.split(","):
            name = name.strip().strip('"')
            if name:
                if name not in known:
                    self._participant(name, number)
                targets.append(name)
        return tuple(targets)

    def _collect_until(self, end: re.Pattern[str], lines: list[str], i: int, number: int,
                       raw: str, what: str) -> tuple[list[str], int]:
        """The lines up to the one matching `end`, stripped, comment lines left out (PlantUML
        drops them first); the index after it."""
        body = []
        for j in range(i, len(lines)):
            text = lines[j].strip()
            if end.match(text.lower()):
                break
            if not text.startswith("'"):
                body.append(text)
        else:
            self._error(number, raw,
                        f"unterminated block: no '{what}' before the end of the diagram")
            j = len(lines)
        return body, min(j + 1, len(lines))

    def _ref(self, line: str, raw: str, number: int, lines: list[str], i: int):
        m = syn.REF.match(line)
        if not m:
            return False
        names: list[str] = []  # PlantUML splits the list at commas, and unquoted names at `@`
        for name in m.group("targets").split(","):
            name = name.strip()
            names.extend([name.strip('"')] if name.startswith('"') else name.split("@"))
        targets = tuple(self._participant(name, number) for name in names if name)
        text, nxt = m.group("text"), None
        if text is None:
            body, nxt = self._collect_until(syn.REF_END, lines, i, number, raw, "end ref")
            text = "\n".join(body)
        self.order.append(("reference", len(self.references)))
        self.references.append(Reference(targets, text.strip(), m.group("color"), number))
        return nxt

    # ----------------------------------------------------------------- groups
    def _group(self, line: str, raw: str, number: int, lines: list[str], i: int):
        if line == "end":  # the most common group line, read without the regexes
            kind, label, color = "end", "", None
        else:
            if line[0] in "eE" and syn.BOX_END.match(line.lower()):
                return self._end_box(raw, number)
            m = syn.GROUP.match(line)
            if not m:
                return False
            kind, color1, color2, label = m.groups()
            kind = kind.lower()
            label, color = label.rstrip() if label else "", color1 or color2
        blocks = self.blocks
        if kind in ("else", "also"):
            if not blocks.open_groups:
                self._error(number, raw, f"'{kind}' outside any group")
                return None
            self.order.append(("else", blocks.next_branch(label, color, number)))
            self.activity.last_leaf = _NOT_A_MESSAGE
        elif kind == "end":
            if not blocks.open_groups:
                self._error(number, raw, "'end' without an open group")
                return None
            self.order.append(("group_end", blocks.close_group()))
            self.activity.last_event = self.activity.last_leaf = _NOT_A_MESSAGE
        else:
            secondary = None
            if kind == "group":
                sm = syn.SECONDARY.match(label)
                if sm:
                    label, secondary = sm.group("label"), sm.group("secondary")
            gi = blocks.open_group(cast(GroupKind, "par" if kind == "par2" else kind), label,
                                   color, secondary, number)
            self.order.append(("group_start", gi))
        return None

    # ------------------------------------------------------------------ boxes
    def _box(self, line: str, raw: str, number: int, lines: list[str], i: int):
        m = syn.BOX.match(line)
        if not m:
            return False
        if self.blocks.open_box is not None:
            self._error(number, raw, "box inside an open box")
            return None
        title = m.group("q") if m.group("q") is not None else (m.group("t") or "")
        self.order.append(("box_start", self.blocks.start_box(title.strip(), m.group("color"),
                                                               number)))
        return None

    def _end_box(self, raw: str, number: int) -> None:
        if self.blocks.open_box is None:
            self._error(number, raw, "'end box' without an open box")
            return
        self.order.append(("box_end", self.blocks.open_box))
        self.blocks.open_box = None

    # ------------------------------------------------------------ punctuation
    def _punctuation(self, line: str, number: int) -> bool:
        m = syn.DIVIDER.match(line)
        if m:
            self.order.append(("divider", len(self.dividers)))
            self.dividers.append(Divider(m.group("text"), number))
            return True
        m = syn.DELAY.match(line)
        if m:
            self.order.append(("delay", len(self.delays)))
            self.delays.append(Delay(m.group("text") or "", number))
            return True
        m = syn.SPACING.match(line)
        if m:
            pixels = m.group("pixels")
            self.order.append(("spacing", len(self.spacings)))
            self.spacings.append(Spacing(int(pixels) if pixels else None, number))
            return True
        return False

    # ------------------------------------------------------------- title etc.
    def _title(self, line: str, raw: str, number: int, lines: list[str], i: int):
        m = syn.TITLE.match(line)
        if not m:
            return False
        if m.group("text"):
            self.title = m.group("text")
            return None
        body, nxt = self._collect_until(syn.TITLE_END, lines, i, number, raw, "end title")
        self.title = "\n".join(body)
        return nxt

    def _autonumber(self, line: str, raw: str, number: int, lines: list[str], i: int):
        m = syn.AUTONUMBER.match(line)
        if not m:
            return False
        if not self.autonumber.command(m.group("args")):
            self._error(number, raw, "unrecognised autonumber arguments")
            return None
        self._directive("autonumber", line, number)
        return None

    def _layout(self, line: str, raw: str, number: int, lines: list[str], i: int):
        word = line.split(None, 1)[0].lower()
        if word in syn.PLACEMENTS:  # `left header …`, `center footer`: placed like `header`
            placed = syn.PLACED.match(line)
            if not placed:
                return False
            word = placed.group(1).lower()
            if not placed.group(2).strip():
                end = syn.VERBATIM_BLOCKS[word]
                return self._verbatim_until(word, raw, number, lines, i,
                                            lambda s: bool(end.match(s.strip().lower())))
            self._directive(word, line, number)
            return None
        if word == "skinparam" and line.rstrip().endswith("{"):
            return self._verbatim_braces(raw, number, lines, i)
        if word in syn.VERBATIM_BLOCKS and syn.VERBATIM_BLOCK_START.match(line):
            end = syn.VERBATIM_BLOCKS[word]
            return self._verbatim_until(word, raw, number, lines, i,
                                        lambda s: bool(end.match(s.strip().lower())))
        if word == "autoactivate":
            self.activity.autoactivate = line.lower().split()[-1] == "on"
        elif word in ("hide", "show") and line.lower().split()[1:] == ["unlinked"]:
            self.hide_unlinked = word == "hide"
        self._directive(word, line, number)
        return None

    def _directive(self, kind: str, text: str, number: int) -> None:
        self.order.append(("directive", len(self.directives)))
        self.directives.append(Directive(kind, text, number))

    def _verbatim_until(self, kind: str, raw: str, number: int, lines: list[str], i: int,
                        is_end) -> int:
        for j in range(i - 1, len(lines)):
            if is_end(lines[j]):
                self._directive(kind, "\n".join(s.rstrip() for s in lines[i - 1:j + 1]), number)
                return j + 1
        self._error(number, raw, f"unterminated {kind} block")
        self._directive(kind, "\n".join(s.rstrip() for s in lines[i - 1:]), number)
        return len(lines)

    def _verbatim_braces(self, raw: str, number: int, lines: list[str], i: int) -> int:
        depth = 0
        for j in range(i - 1, len(lines)):
            depth += lines[j].count("{") - lines[j].count("}")
            if depth <= 0:
                text = "\n".join(s.rstrip() for s in lines[i - 1:j + 1])
                self._directive("skinparam", text, number)
                return j + 1
        self._error(number, raw, "unterminated skinparam block (missing '}')")
        self._directive("skinparam", "\n".join(s.rstrip() for s in lines[i - 1:]), number)
        return len(lines)

    def _preprocessor(self, line: str, raw: str, number: int, lines: list[str], i: int):
        word = line.split(None, 1)[0].lower()
        if word == "!pragma":
            if "teoz" in line.lower():
                self._warn(number, raw, "!pragma teoz: PlantUML's SVG then carries no element "
                           "classes")
            self._directive("pragma", line, number)
            return None
        if syn.PREPROCESSOR_BLOCK_START.match(line):
            self._warn(number, raw, "preprocessor block recorded, not executed")
            return self._verbatim_until("preprocessor", raw, number, lines, i,
                                        lambda s: bool(syn.PREPROCESSOR_BLOCK_END.match(s.strip())))
        if word.startswith(("!include", "!import", "!define", "!undef")):
            self._warn(number, raw, "preprocessor directive recorded, not executed")
        self._directive("preprocessor", line, number)
        return None

    # ------------------------------------------------------------------ close
    def _close_open_blocks(self) -> None:
        blocks = self.blocks
        for gi in reversed(blocks.open_groups):
            g = blocks.groups[gi]
            self._warn(g.line, g.kind, f"unterminated '{g.kind}' group (no 'end'): PlantUML "
                       "draws its messages but not the group")
        if blocks.open_groups:
            dropped = set(blocks.open_groups)
            new = blocks.drop_open_groups()
            group_events = ("group_start", "else", "group_end")
            self.order = [(kind, new[ref] if kind in group_events else ref)
                          for kind, ref in self.order
                          if kind not in group_events or ref not in dropped]
            self.declared_at = [k for k, (kind, _) in enumerate(self.order)
                                if kind == "participant"]
        if blocks.open_box is not None:
            self._error(blocks.boxes[blocks.open_box].line, "box",
                        "unterminated box (no 'end box')")

    def _leave_out_unlinked(self) -> None:
        """`hide unlinked`: PlantUML draws only the participants something drawn deals with,
        a message (either end; a multicast's other receivers do not count), a note (not a
        block without a line, which it does not draw), a reference or an activation
        (`activate`, `deactivate`, `create`, `destroy`). The others leave the model: its
        participants, their declarations in the order of events, and the boxes' members
        (elements written against them, a multicast or an undrawn note, keep their ids)."""
        linked = {pid for m in self.messages for pid in (m.sender, m.receiver)}
        undrawn = set(self.undrawn_notes)
        linked.update(pid for k, n in enumerate(self.notes) if k not in undrawn
                      for pid in n.targets)
        linked.update(pid for r in self.references for pid in r.targets)
        linked.update(a.participant for a in self.activations)
        hidden = set(self.participants) - linked
        if not hidden:
            return
        self.participants = {pid: p for pid, p in self.participants.items() if pid in linked}
        declared = self.declared
        self.order = [(kind, ref) for kind, ref in self.order
                      if kind != "participant" or declared[ref] not in hidden]
        self.declared_at = [k for k, (kind, _) in enumerate(self.order)
                            if kind == "participant"]
        for box in self.blocks.boxes:
            box.members = [pid for pid in box.members if pid not in hidden]

    def _freeze(self) -> SequenceDiagram:
        participants = list(self.participants.values())
        order = self.order
        if self.declared_at:  # a declaration event's index: its participant's place
            positions = {pid: k for k, pid in enumerate(self.participants)}
            declared = self.declared
            order = order.copy()
            for k in self.declared_at:
                order[k] = ("participant", positions[declared[order[k][1]]])
        if self.ranked:
            ranked = sorted(range(len(participants)),
                            key=lambda k: (participants[k].order or 0, k))
            rank = {old: new for new, old in enumerate(ranked)}
            participants = [participants[k] for k in ranked]
            order = [(kind, rank[ref] if kind == "participant" else ref) for kind, ref in order]
        groups, boxes = self.blocks.freeze()
        return SequenceDiagram(  # positional, in field order: half the cost of keywords
            self.title, tuple(participants), tuple(self.messages), tuple(self.notes), groups,
            tuple(self.references), boxes, tuple(self.dividers), tuple(self.delays),
            tuple(self.spacings), tuple(self.activations), tuple(self.directives), tuple(order),
            self.block.name)


_KEYWORD_HANDLERS: dict[str, Callable[..., Any]] = {
    **{kind: _Builder._declaration for kind in PARTICIPANT_KINDS},
    **{word: _Builder._group for word in (*syn.GROUP_KEYWORDS, "endbox")},
    "box": _Builder._box,
    **{shape: _Builder._note for shape in (*NOTE_SHAPES, "/")},
    "ref": _Builder._ref,
    **{action: _Builder._activate for action in ACTIVATION_ACTIONS},
    "return": _Builder._return,
    "title": _Builder._title,
    "autonumber": _Builder._autonumber,
    **{word: _Builder._layout for word in syn.LAYOUT_KEYWORDS if word[0].isalpha()},
    **{word: _Builder._layout for word in syn.PLACEMENTS},
}
