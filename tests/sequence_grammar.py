"""A grammar-driven generator of PlantUML sequence diagrams, for differential testing.

`generate(rng)` writes one random diagram from PlantUML's sequence grammar as
the pinned jar (1.2026.2) accepts it: the commands of its
`sequencediagram.command` package (`CommandArrow`, `CommandExoArrowLeft/Right`,
`CommandParticipant*`, notes, groups, boxes, references, return, …) and the
statements that draw no participant (title, header/footer, legend, caption,
mainframe, skinparam, style, comments, preprocessor lines). Every statement is
tagged with the construct it exercises, so that disagreements between
`parse_sequence` and PlantUML can be counted by construct.

The generator writes only what PlantUML draws without an error (checked by
the differential test itself: a PlantUML error there is a generator bug).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

KINDS = ("participant", "actor", "boundary", "control", "entity", "database", "collections",
         "queue")
CODES = ("A", "Bob", "gNB", "AMF_1", "ue.2", "x@y", "Ünï", "S3", "_p")
LONG = ("Web GUI", "5G Core", "Access and Mobility", "Policy-Engine", "N1/N2")
COLORS = ("#red", "#LightBlue", "#FFAA00", "#technology", "#pink")
WORDS = ("request", "response", "N1 SM", "ack", "PDU Session Establishment", "ok(200)",
         "x=1, y=2", "a;b", "see [RFC 7231]", "50%", "done!", "it's", "get()", "{json}",
         "<b>bold</b>", "**strong**", "//italic//", '""mono""', "__under__", "~~wave~~",
         "<color:red>red</color>", "a\\nb", "line1\\nline2\\nline3", "<&check> ok", "α β γ",
         "a -> b", "A : B", "end", "else", "note", "#hash", "[tag]", "'quote'", '"dq"')

#: Left and right dressings as CommandArrow reads them (a circle or cross needs a space
#: before it on the left; on the right it sits against the head).
HEADS_RIGHT = (">", ">>", "\\", "\\\\", "/", "//", ">o", ">x", ">>o", "x", "o", "")
HEADS_LEFT = ("", "", "", "<", "<<", "/", "//", "\\", "\\\\", "o<", "x<", "x", "o")
STYLES = ("#red", "#blue,dashed", "dashed", "dotted", "bold", "#green,bold", "#0000FF",
          "#red,dotted", "DASHED", "#red,Dotted", "Bold")
ACTIVATIONS = ("++", "--", "!!", "--++", "++--")


@dataclass
class Generated:
    """One generated diagram: its text and the constructs it uses."""

    text: str
    constructs: frozenset[str]
    teoz: bool = False
    #: the construct of each source line (index 0 is line 1, `@startuml`)
    line_constructs: tuple[str, ...] = ()

    def constructs_at(self, line: int) -> list[str]:
        """The constructs written on 1-based source line `line`."""
        k = line - 1
        return self.line_constructs[k].split("|") if 0 <= k < len(self.line_constructs) else []


@dataclass
class _State:
    rng: random.Random
    lines: list[str] = field(default_factory=list)
    line_constructs: list[str] = field(default_factory=list)
    constructs: set[str] = field(default_factory=set)
    declared: list[str] = field(default_factory=list)   # references usable in statements
    used: list[str] = field(default_factory=list)       # participants that exist so far
    messages: int = 0
    depth: int = 0
    in_box: bool = False
    activated: int = 0
    teoz: bool = False
    returnable: bool = False  # the last statement was a message between two participants
    active: list[str] = field(default_factory=list)  # explicitly activated participants

    pending: list[str] = field(default_factory=list)  # features of the statement being built

    def feature(self, name: str) -> None:
        self.constructs.add(name)
        self.pending.append(name)

    def emit(self, construct: str, *lines: str) -> None:
        self.returnable = construct == "message"
        self.constructs.add(construct)
        self.lines.extend(lines)
        tag = "|".join(dict.fromkeys([construct, *self.pending]))
        self.pending.clear()
        for line in lines:
            self.line_constructs.extend([tag] * (line.count("\n") + 1))


def _kw(st: _State, word: str) -> str:
    """A keyword (or an arrow's circle or cross) as written: mostly in lower case, sometimes
    in capitals or title case (PlantUML reads its commands in any case)."""
    if word.upper() != word.lower() and st.rng.random() < 0.08:
        st.feature("keyword-case")
        return st.rng.choice((word.upper(), word.title()))
    return word


def _word(rng: random.Random) -> str:
    return rng.choice(WORDS)


def _label(st: _State, allow_continuation: bool = True) -> str:
    rng = st.rng
    text = " ".join(_word(rng) for _ in range(rng.randint(1, 3)))
    if allow_continuation and rng.random() < 0.08:
        st.feature("continuation")
        cut = rng.randint(1, len(text))
        while text[cut - 1] == "\\":  # a line ending in two backslashes does not continue
            cut -= 1
        text = text[:cut] + rng.choice(("\\\n", " \\\n", "\\\n  ")) + text[cut:]
    return text


def _ref(st: _State) -> str:
    """A participant reference for a message end: known ones mostly, sometimes new."""
    rng = st.rng
    if st.used and rng.random() < 0.75:
        return rng.choice(st.used)
    roll = rng.random()
    code = rng.choice(CODES)
    if roll < 0.6 or code in st.used:
        ref = code
    elif roll < 0.75:
        ref = f'"{rng.choice(LONG)}"'
        st.feature("name:quoted")
    elif roll < 0.88:
        st.feature("name:long-as-code")
        ref = f'"{rng.choice(LONG)}" as {code}'
        st.used.append(code)
        return ref
    else:
        st.feature("name:code-as-long")
        ref = f'{code} as "{rng.choice(LONG)}"'
        st.used.append(code)
        return ref
    if ref not in st.used:
        st.used.append(ref)
    return ref


def _arrow(st: _State) -> str:
    rng = st.rng
    while True:
        left = rng.choice(HEADS_LEFT)
        right = rng.choice(HEADS_RIGHT)
        if left.strip("ox") or right.strip("ox") or "x" in left + right:
            break
    if left in ("o", "x") and right in ("o", "x"):
        right = ">" + right
    left, right = _kw(st, left), _kw(st, right)
    body = rng.choice(("-", "--", "-", "---"))
    style = ""
    placement = "none"
    if rng.random() < 0.3:
        style = f"[{rng.choice(STYLES)}]"
        placement = rng.choice(("start", "middle", "end"))
        if placement == "start":
            body = style + body
        elif placement == "middle" and len(body) > 1:
            body = body[0] + style + body[1:]
        else:
            body = body + style
            placement = "end"
        st.feature(f"arrow:style-{placement}")
        if left.strip("oxOX"):
            st.feature("arrow:style-left-head")
    if left.strip("oxOX") and right.strip("oxOX"):
        st.feature("arrow:bidirectional")
    elif left.strip("oxOX"):
        st.feature("arrow:reversed")
    if any(c in "oxOX" for c in left + right):
        st.feature("arrow:decoration")
    if any(c in left + right for c in "/\\"):
        st.feature("arrow:half-head")
    # a circle or cross on the left is read only after a space ("A o-> B")
    return left + body + right


def _message(st: _State) -> None:
    rng = st.rng
    roll = rng.random()
    tail = ""
    if rng.random() < 0.2:
        act = rng.choice(ACTIVATIONS)
        space = rng.choice(("", " "))
        tail += space + act
        if act.startswith("++") and rng.random() < 0.3:
            tail += " " + rng.choice(COLORS)
        st.feature("activation-shorthand" + (":against-colon" if not space else ""))
        if "++" in act:
            st.activated += 1
    if rng.random() < 0.8:
        tail += rng.choice((" : ", ": ", " :", ":")) + _label(st)
    elif rng.random() < 0.3:
        tail += " :"
    if roll < 0.72:
        a, b = _ref(st), _ref(st)
        arrow = _arrow(st)
        left_space = " " if arrow[0] in "oxOX" else rng.choice((" ", "", " "))
        right_space = " " if arrow[-1] in "oxOX" else rng.choice((" ", "", " "))
        if a.endswith('"') or b.startswith('"'):
            left_space = right_space = " "
        if a == b:
            st.feature("message:self")
        st.emit("message", f"{a}{left_space}{arrow}{right_space}{b}{tail}")
    else:
        _exo_message(st, tail)
    st.messages += 1


def _exo_message(st: _State, tail: str) -> None:
    rng = st.rng
    p = _ref(st)
    if " as " in p:  # the border forms take a plain or quoted name only
        p = p.split(" as ")[-1].strip('"') if p.startswith('"') else p.split(" as ")[0]
    head = rng.choice((">", ">>", "\\", "/"))
    body = rng.choice(("-", "--"))
    back_body = body
    if rng.random() < 0.2:  # before a head, or before a dash on the reversed forms
        style = f"[{rng.choice(STYLES)}]"
        body, back_body = body + style, style + body
        st.feature("exo:style")
    form = rng.randint(0, 5)
    if form == 0:
        end = _kw(st, rng.choice(("[", "?", "]", "[o", "[x", "")))
        st.emit("exo:from-border" if end else "exo:sender-omitted",
                f"{end}{body}{head} {p}{tail}")
    elif form == 1:
        end = _kw(st, rng.choice(("]", "?", "o]", "x]", "[")))
        st.emit("exo:to-border", f"{p} {body}{head}{end}{tail}")
    elif form == 2:  # a line ending in one backslash continues on the next line
        head = head if head != "\\" or tail else ">"
        st.emit("exo:receiver-omitted", f"{p} {body}{head}{tail}")
    elif form == 3:
        back = {">": "<", ">>": "<<", "\\": "/", "/": "\\"}[head]
        end = rng.choice(("[", "?", "]", ""))
        st.emit("exo:reversed", f"{end}{back}{back_body} {p}{tail}")
    elif form == 4:
        back = {">": "<", ">>": "<<", "\\": "/", "/": "\\"}[head]
        end = rng.choice(("]", "?", "["))
        st.emit("exo:reversed", f"{p} {back}{back_body}{end}{tail}")
    else:
        end = rng.choice(("[", "]"))
        st.emit("exo:bidirectional", f"{end}<{body}> {p}{tail}")


def _declaration(st: _State) -> None:
    rng = st.rng
    kind = rng.choice(KINDS)
    code = rng.choice([c for c in CODES if c not in st.used] or ["Extra"])
    long = rng.choice(LONG)
    form = rng.randint(0, 3)
    if form == 0:
        head, ref = code, code
    elif form == 1:
        head, ref = f'"{long}" as {code}', code
    elif form == 2:
        head, ref = f'{code} as "{long}"', code
    else:
        head, ref = f'"{long} {code}"', f'"{long} {code}"'
    if ref in st.used:
        return
    extra = ""
    if rng.random() < 0.2:
        extra += f" <<{rng.choice(('Server', 'NF', 'S'))}>>"
        st.feature("declaration:stereotype")
    if rng.random() < 0.15:
        extra += f" order {rng.randint(-5, 30)}"
        st.feature("declaration:order")
    if rng.random() < 0.2:
        extra += " " + rng.choice(COLORS)
        st.feature("declaration:color")
    prefix = ""
    if st.used and rng.random() < 0.1 and not st.in_box:
        prefix = "create "
        st.feature("declaration:create")
    if rng.random() < 0.05 and not prefix:
        st.emit("declaration:multiline", f"participant {code} [", f"  ={long}", "  ----",
                "  details", "]")
        st.used.append(code)
        st.declared.append(code)
        return
    st.emit(f"declaration:{kind}", f"{_kw(st, prefix)}{_kw(st, kind)} {head}{extra}")
    if prefix:  # PlantUML wants the creating message next
        sender = st.rng.choice(st.used)
        st.emit("message", f"{sender} -> {ref} : new")
        st.messages += 1
    st.used.append(ref)
    st.declared.append(ref)


def _note(st: _State) -> None:
    rng = st.rng
    if not st.used:
        _message(st)
    shape = rng.choice(("note", "note", "hnote", "rnote"))
    color = f" {rng.choice(COLORS)}" if rng.random() < 0.2 else ""
    roll = rng.random()
    if roll < 0.3:
        where = f"{_kw(st, rng.choice(('left of', 'right of')))} {rng.choice(st.used)}"
    elif roll < 0.6:
        targets = rng.sample(st.used, min(len(st.used), rng.randint(1, 2)))
        where = _kw(st, "over ") + ", ".join(targets)
    elif roll < 0.8 and st.messages and st.lines and _last_is_message(st):
        where = rng.choice(("left", "right"))
        shape = "note"
        st.feature("note:on-message")
    else:
        where = "across"
        shape = "note"
    construct = f"note:{shape}"
    if rng.random() < 0.5:
        st.emit(construct, f"{_kw(st, shape)} {where}{color} : {_label(st)}")
    else:
        body = [_label(st, allow_continuation=False) for _ in range(rng.randint(1, 3))]
        end = rng.choice((f"end {shape}", f"end{shape}")) if shape == "note" else f"end {shape}"
        st.emit(construct + ":block", f"{_kw(st, shape)} {where}{color}", *body, _kw(st, end))


def _last_is_message(st: _State) -> bool:
    last = st.lines[-1]
    return "-" in last and not last.startswith(("note", "hnote", "rnote", "==", "'"))


def _group(st: _State, budget: int) -> None:
    rng = st.rng
    kind = rng.choice(("alt", "opt", "loop", "par", "break", "critical", "group"))
    label = rng.choice(("", " success", " 10 times", " x > 0", " [guard]", " retry (3)"))
    color = ""
    if rng.random() < 0.15:
        color = rng.choice(("", " ")) + rng.choice(COLORS)
        st.feature("group:color")
    secondary = ""
    if kind == "group" and rng.random() < 0.3:
        secondary = " [secondary]"
        label = label or " g"
    st.emit(f"group:{kind}", f"{_kw(st, kind)}{color}{label}{secondary}")
    st.depth += 1
    _body(st, rng.randint(1, max(1, budget)))
    if kind in ("alt", "par", "critical", "group") and rng.random() < 0.5:
        for _ in range(rng.randint(1, 2)):
            word = "also" if kind == "par" and rng.random() < 0.3 else "else"
            color = ""
            if rng.random() < 0.2:  # with a space: against the keyword, PlantUML refuses it
                color = " " + rng.choice(COLORS)
                st.feature("group:else-color")
            st.emit("group:else",
                    f"{_kw(st, word)}{color}{rng.choice(('', ' failure', ' timeout'))}")
            _body(st, rng.randint(1, max(1, budget // 2)))
    st.depth -= 1
    st.emit("group:end",
            _kw(st, rng.choice(("end", "end", f"end {kind}")) if kind == "loop" else "end"))


def _box(st: _State) -> None:
    rng = st.rng
    title = rng.choice(('', ' "Internal"', ' "5G Core"', " Domain"))
    color = f" {rng.choice(COLORS)}" if rng.random() < 0.5 else ""
    st.emit("box", f"{_kw(st, 'box')}{title}{color}")
    st.in_box = True
    for _ in range(rng.randint(1, 3)):
        _declaration(st)
    st.in_box = False
    st.emit("box", _kw(st, rng.choice(("end box", "endbox"))))


def _misc(st: _State) -> None:
    rng = st.rng
    roll = rng.randrange(22)
    if roll == 0:
        st.emit("divider", f"== {rng.choice(('Phase 1', 'Setup', 'x'))} ==")
    elif roll == 1:
        st.emit("delay", rng.choice(("...", "... 5 minutes later ...", "...later...")))
    elif roll == 2:
        st.emit("spacing", rng.choice(("|||", "||45||")))
    elif roll == 3:
        st.emit("autonumber", rng.choice(("autonumber", "autonumber 10", "autonumber 10 5",
                                          'autonumber "<b>[000]"', "autonumber stop",
                                          "autonumber 1.1.1")))
    elif roll == 4 and st.used:
        if st.active and rng.random() < 0.5:
            st.emit("activation:deactivate", f"{_kw(st, 'deactivate')} {st.active.pop()}")
        else:
            p = rng.choice(st.used)
            st.active.append(p)
            st.emit("activation:activate", f"{_kw(st, 'activate')} {p}" + (
                f" {rng.choice(COLORS)}" if rng.random() < 0.2 else ""))
    elif roll == 5 and st.returnable:
        color = f"{rng.choice(COLORS)} " if rng.random() < 0.2 else ""
        st.emit("return",
                f"{_kw(st, 'return')} {color}{_label(st, allow_continuation=False)}".rstrip())
        st.messages += 1
    elif roll == 6 and st.used:
        targets = ", ".join(rng.sample(st.used, min(2, len(st.used))))
        st.emit("reference", f"{_kw(st, 'ref over')} {targets} : {_label(st, False)}")
    elif roll == 7 and st.used:
        st.emit("reference:block", f"ref over {rng.choice(st.used)}", "  first line",
                "  second line", "end ref")
    elif roll == 8:
        st.emit("comment", rng.choice(("' a comment", "  ' indented comment",
                                       "/' block comment '/", "/' multi\nline '/")))
    elif roll == 9:
        st.emit("header", rng.choice(("header Page header", "center header x",
                                      "left header x", "right footer y", "footer Page %page%",
                                      "header", "footer")))
        if st.lines[-1] in ("header", "footer"):
            st.emit("header", "  multi-line", f"end{st.lines[-1]}")
    elif roll == 10:
        st.emit("legend", rng.choice(("legend", "legend right", "legend top left",
                                      "legend bottom")), "  a legend", "  line 2",
                rng.choice(("endlegend", "end legend")))
    elif roll == 11:
        st.emit("caption", "caption A caption")
    elif roll == 12:
        st.emit("mainframe", "mainframe sd Example")
    elif roll == 13:
        st.emit("skinparam", rng.choice(("skinparam sequenceMessageAlign center",
                                         "skinparam responseMessageBelowArrow true",
                                         "skinparam maxMessageSize 80",
                                         "skinparam sequence {\n  ArrowColor Navy\n}",
                                         "hide footbox", "skinparam monochrome true")))
    elif roll == 14:
        st.emit("style", "<style>\nsequenceDiagram {\n  LineColor #336699\n}\n</style>")
    elif roll == 15:
        st.emit("preprocessor", rng.choice(("!define UNUSED_MACRO x", "!$unused = 1",
                                            "!pragma ratio 1", "!log generated")))
    elif roll == 16:
        st.emit("title", rng.choice(("title A title", "title\n  multi-line\nend title")))
    elif roll == 17 and st.used:
        p = rng.choice(st.used)
        st.emit("activation:destroy", f"{_kw(st, 'destroy')} {p}")
    elif roll == 18:
        st.emit("autoactivate", "autoactivate " + rng.choice(("on", "off")))
    elif roll == 19 and st.teoz and st.messages:
        a, b = _ref(st), _ref(st)
        st.emit("teoz:parallel", f"& {a} -> {b} : in parallel")
        st.messages += 1
    else:
        _message(st)


def _unlinked(st: _State, hide_first: bool) -> None:
    """Participants declared last, which nothing uses (one to three, at times in a box), and
    `hide unlinked` before them all (`hide_first`) or after them, at times shown and hidden
    again (the last of the two wins)."""
    rng = st.rng
    fresh = [c for c in CODES if c not in st.used][:rng.randint(1, 3)]
    kinds = [rng.choice(KINDS) for _ in fresh]
    declarations = [f"{kind} {code}" for kind, code in zip(kinds, fresh, strict=True)]
    if fresh and rng.random() < 0.3:
        declarations = ["box Unused", *declarations, "end box"]
    st.emit("hide-unlinked:unlinked", *declarations)
    if not hide_first:
        again = rng.random() < 0.2
        if again:
            st.feature("hide-unlinked:show-then-hide")
        st.emit("hide-unlinked", *((_kw(st, "show unlinked"),) if again else ()),
                _kw(st, "hide unlinked"))


def _body(st: _State, count: int) -> None:
    rng = st.rng
    for _ in range(count):
        roll = rng.random()
        if roll < 0.55:
            _message(st)
        elif roll < 0.63:
            _declaration(st) if not st.depth else _message(st)
        elif roll < 0.73:
            _note(st)
        elif roll < 0.80 and st.depth < 3:
            _group(st, count // 2)
        elif roll < 0.82 and not st.depth:
            _box(st)
        else:
            _misc(st)


def generate(rng: random.Random, size: int | None = None, teoz: bool | None = None) -> Generated:
    """One random sequence diagram of about `size` statements."""
    st = _State(rng)
    st.teoz = rng.random() < 0.1 if teoz is None else teoz
    size = size if size is not None else rng.randint(2, 25)
    if st.teoz:
        st.emit("teoz", "!pragma teoz true")
    hide = rng.random() < 0.08
    hide_first = hide and rng.random() < 0.5
    if hide_first:
        st.emit("hide-unlinked", _kw(st, "hide unlinked"))
    _body(st, size)
    if not st.messages:
        _message(st)
    if hide:
        _unlinked(st, hide_first)
    end = "@enduml"
    if rng.random() < 0.03:
        end = ""
        st.feature("no-enduml")
    text = "\n".join(["@startuml", *st.lines, end]).rstrip("\n") + "\n"
    return Generated(text, frozenset(st.constructs), st.teoz,
                     ("@startuml|no-enduml" if not end else "@startuml", *st.line_constructs,
                      "@enduml"))


def corpus(seed: int, count: int) -> list[Generated]:
    """`count` diagrams from one seed."""
    rng = random.Random(seed)
    return [generate(rng) for _ in range(count)]
