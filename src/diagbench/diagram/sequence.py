"""The typed model of a UML sequence diagram.

A plain model of slotted dataclasses compared by value. They are not frozen
(a frozen dataclass costs twice as much to create, and the parser builds
millions of messages); nothing mutates a built diagram. Every element keeps
the source line it came from (excluded from equality, so a diagram written
out and parsed back compares equal), and `SequenceDiagram.order` records the
order of the body statements so that a writer can reproduce it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

ParticipantKind = Literal[
    "participant", "actor", "boundary", "control", "entity", "database", "collections", "queue"
]
PARTICIPANT_KINDS: tuple[ParticipantKind, ...] = get_args(ParticipantKind)

LineStyle = Literal["solid", "dotted", "hidden"]
#: Arrow-head shapes at either end of a message. "none" is a plain line end.
Head = Literal[
    "none", "normal", "async", "lost",
    "half_top", "half_bottom", "half_top_async", "half_bottom_async",
]
#: Markers standing for the diagram border in incoming/outgoing messages.
BOUNDARY_LEFT = "["
BOUNDARY_RIGHT = "]"
BOUNDARY_SHORT = "?"
BOUNDARIES = frozenset({BOUNDARY_LEFT, BOUNDARY_RIGHT, BOUNDARY_SHORT})

NotePosition = Literal["left", "right", "over", "across", "top", "bottom"]
NOTE_POSITIONS: tuple[NotePosition, ...] = get_args(NotePosition)
NoteShape = Literal["note", "hnote", "rnote"]
NOTE_SHAPES: tuple[NoteShape, ...] = get_args(NoteShape)
GroupKind = Literal["group", "alt", "opt", "loop", "par", "break", "critical"]
GROUP_KINDS: tuple[GroupKind, ...] = get_args(GroupKind)
ActivationAction = Literal["activate", "deactivate", "destroy", "create"]
ACTIVATION_ACTIONS: tuple[ActivationAction, ...] = get_args(ActivationAction)


def _line() -> int:
    return field(default=0, compare=False)


@dataclass(slots=True)
class Participant:
    """A lifeline. `id` is what messages use (the alias, or the name itself)."""

    id: str
    name: str
    kind: ParticipantKind = "participant"
    declared: bool = True
    order: int | None = None
    stereotype: str | None = None
    color: str | None = None
    line: int = _line()


@dataclass(slots=True)
class Message:
    """An arrow between two lifelines, or between a lifeline and the border.

    `sender`/`receiver` are the direction as meant; `arrow` is the arrow as
    written and `reversed` says it was drawn right-to-left in the text
    (`B <- A`). Endpoints are participant ids or a BOUNDARY_* marker: `[` the
    left border, `]` the right border, `?` a short arrow; an omitted end is the
    border PlantUML draws it to (`-> B` comes from `[`, `A ->` goes to `]`).
    `line_style` "hidden" is a message PlantUML lays out but does not draw.
    """

    sender: str
    receiver: str
    arrow: str = "->"
    reversed: bool = False
    bidirectional: bool = False
    line_style: LineStyle = "solid"
    head: Head = "normal"
    tail: Head = "none"
    head_circle: bool = False
    tail_circle: bool = False
    color: str | None = None
    label: str = ""
    activation: str | None = None
    is_return: bool = False
    autonumber: str | None = None
    line: int = _line()
    #: the border end as written when one end is the diagram border: `[`, `]`, `?`, with a
    #: circle or cross (`[o`, `x]`), or "" when that end was omitted (`-> B`, `A ->`);
    #: None for a message between two participants
    border: str | None = None
    #: where the label was continued on the next source line (a trailing backslash): offsets
    #: into `label`
    breaks: tuple[int, ...] = ()
    #: the other receivers of a multicast (`A -> B & C`): PlantUML draws the one arrow to
    #: `receiver`, and creates these participants
    multicast: tuple[str, ...] = ()

    @property
    def is_self(self) -> bool:
        return self.sender == self.receiver

    @property
    def endpoints(self) -> tuple[str, ...]:
        """The participant ids this message touches (border markers excluded)."""
        return tuple(p for p in (self.sender, self.receiver) if p not in BOUNDARIES)


#: A message's first eleven fields, `sender` to `color`, as `new_message` takes them.
MessageHead = tuple[str, str, str, bool, bool, LineStyle, Head, Head, bool, bool, str | None]
_new = object.__new__


def new_message(head: MessageHead, label: str, activation: str | None, autonumber: str | None,
                line: int, breaks: tuple[int, ...] = ()) -> Message:
    """`Message(*head, label, activation, False, autonumber, line, None, breaks)`, not a
    return, between two participants: the same object without the dataclass `__init__`,
    which costs twice as much (a parser makes one per message line)."""
    m = _new(Message)
    (m.sender, m.receiver, m.arrow, m.reversed, m.bidirectional, m.line_style, m.head, m.tail,
     m.head_circle, m.tail_circle, m.color) = head
    m.label = label
    m.activation = activation
    m.is_return = False
    m.autonumber = autonumber
    m.line = line
    m.border = None
    m.breaks = breaks
    m.multicast = ()
    return m


@dataclass(slots=True)
class Note:
    """A note beside or over lifelines, or attached to the previous message."""

    position: NotePosition
    targets: tuple[str, ...] = ()
    text: str = ""
    shape: NoteShape = "note"
    color: str | None = None
    on_message: int | None = None
    line: int = _line()


@dataclass(slots=True)
class Branch:
    """One part of a group: the opening part, then one per `else`."""

    label: str = ""
    messages: tuple[int, ...] = ()
    color: str | None = None
    line: int = _line()


@dataclass(slots=True)
class Group:
    """A combined fragment (alt/opt/loop/…); `messages` index `SequenceDiagram.messages`."""

    kind: GroupKind
    branches: tuple[Branch, ...] = (Branch(),)
    parent: int | None = None
    secondary: str | None = None
    color: str | None = None
    line: int = _line()

    @property
    def label(self) -> str:
        return self.branches[0].label

    @property
    def messages(self) -> tuple[int, ...]:
        return tuple(i for b in self.branches for i in b.messages)


@dataclass(slots=True)
class Reference:
    """A `ref over A, B : text` frame."""

    targets: tuple[str, ...]
    text: str = ""
    color: str | None = None
    line: int = _line()


@dataclass(slots=True)
class Box:
    """A `box … end box` around the participants declared inside it."""

    title: str = ""
    color: str | None = None
    members: tuple[str, ...] = ()
    line: int = _line()


@dataclass(slots=True)
class Divider:
    """`== text ==`."""

    text: str
    line: int = _line()


@dataclass(slots=True)
class Delay:
    """`...` or `...text...`."""

    text: str = ""
    line: int = _line()


@dataclass(slots=True)
class Spacing:
    """`|||` or `||N||`."""

    pixels: int | None = None
    line: int = _line()


@dataclass(slots=True)
class Activation:
    """An explicit `activate`/`deactivate`/`destroy`/`create` statement."""

    action: ActivationAction
    participant: str
    color: str | None = None
    line: int = _line()


@dataclass(slots=True)
class Directive:
    """A statement kept verbatim: skinparam, style, pragma, autonumber, preprocessor, …"""

    kind: str
    text: str
    line: int = _line()


#: Body statement kinds, as they appear in `SequenceDiagram.order`.
EventKind = Literal[
    "participant", "message", "note", "group_start", "else", "group_end", "reference",
    "box_start", "box_end", "divider", "delay", "spacing", "activation", "directive",
]


@dataclass(slots=True)
class SequenceDiagram:
    """A whole sequence diagram.

    `order` lists the body statements in source order as (kind, index) pairs:
    the index points into the list of that kind (`participant` indexes
    `participants`; `group_start`, `else` and `group_end` index `groups`).
    """

    title: str | None = None
    participants: tuple[Participant, ...] = ()
    messages: tuple[Message, ...] = ()
    notes: tuple[Note, ...] = ()
    groups: tuple[Group, ...] = ()
    references: tuple[Reference, ...] = ()
    boxes: tuple[Box, ...] = ()
    dividers: tuple[Divider, ...] = ()
    delays: tuple[Delay, ...] = ()
    spacings: tuple[Spacing, ...] = ()
    activations: tuple[Activation, ...] = ()
    directives: tuple[Directive, ...] = ()
    order: tuple[tuple[EventKind, int], ...] = ()
    name: str | None = None

    def participant(self, pid: str) -> Participant | None:
        """The participant with id `pid`, or None."""
        return next((p for p in self.participants if p.id == pid), None)

    def counts(self) -> dict[str, int]:
        """Element counts, as reported by `diagbench parse`."""
        return {
            "participants": len(self.participants),
            "messages": len(self.messages),
            "notes": len(self.notes),
            "groups": len(self.groups),
            "boxes": len(self.boxes),
        }
