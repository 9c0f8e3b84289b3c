"""Mermaid erDiagram: entities (declared with attributes, aliased, or implied by
relationships) and relationships with crow's-foot cardinalities.

Read as Mermaid's own lexer reads it (erDiagram.jison): a stream of tokens, the first
rule that matches winning (a keyword ending in a letter ends at a word boundary), and
statements that need no line break between them — `A { int id PK string name }` is one
entity with two attributes, `A ||--o{ B : places order` a relationship and an entity
`order`; `class A x hot` styles `A` and declares `hot`. Cardinalities are words or
symbols in any case; `--`/`to` identify, `..`/`.-`/`-.`/`optionally to` do not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from diagbench.diagram.graph import (
    Cluster,
    Entity,
    GraphDiagram,
    LineStyle,
    Member,
    MemberFlag,
    Relation,
)
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.mermaid.reading import one_self_loop

#: Cardinality words and symbols in the order Mermaid's lexer tries them (first match
#: wins), with the UML multiplicity each means; `u` is the MD_PARENT marker.
CARDINALITIES: tuple[tuple[str, str], ...] = (
    ("one or zero", "0..1"), ("one or more", "1..*"), ("one or many", "1..*"), ("1+", "1..*"),
    ("|o", "0..1"), ("zero or one", "0..1"), ("zero or more", "0..*"), ("zero or many", "0..*"),
    ("0+", "0..*"), ("}o", "0..*"), ("many(0)", "0..*"), ("many(1)", "1..*"), ("many", "0..*"),
    ("}|", "1..*"), ("one", "1"), ("only one", "1"), ("1", "1"), ("||", "1"), ("o|", "0..1"),
    ("o{", "0..*"), ("|{", "1..*"), ("u", "1"))
_CARDS = dict(CARDINALITIES)


def _keyword(text: str) -> str:
    """A literal rule as jison writes it: ending in a word character, it ends at a word
    boundary."""
    return re.escape(text) + (r"\b" if text[-1].isalnum() else "")


#: (token kind, pattern) in the lexer's order outside an attribute block.
_RULES: tuple[tuple[str, str], ...] = (
    ("skip_line", r"(?:accTitle|accDescr)\s*:[^\n]*"),
    ("skip_block", r"accDescr\s*\{[^}]*\}"),
    ("skip_line", r"[^\n]*direction\s+(?:TB|BT|RL|LR)[^\n]*"),
    ("nl", r"\n+"),
    ("space", r"[ \t\r\f\v]+"),
    ("name", r'"[^"%\r\n\v\b\\]+"'),
    ("word", r'"[^"]*"'),
    ("{", r"\{"), ("#", r"#"), (",", r","), (":::", r":::"), (":", r":"),
    ("[", r"\["), ("]", r"\]"),
    ("skip_line", r"(?:style|classDef)\b[^\n]*"), ("class", r"class\b"),
    ("subgraph", r"subgraph\b"), ("end", r"end\b[ \t]*"),
    *(("card", _keyword(c)) for c, _ in CARDINALITIES[:15]),
    ("card", r"only one\b"),
    ("name", r"[0-9]+\.[0-9]+"),
    ("card1", r"1(?=\s+[A-Za-z_\"'])|1(?=\s+[0-9])|1(?=--|\.\.|\.-|-\.)"),
    ("name", r"1\b"), ("name", r"[0-9]+"),
    ("card", r"\|\|"), ("card", r"o\|"), ("card", r"o\{"), ("card", r"\|\{"),
    ("card", r"u(?=[.\-|])"),
    ("nonid", r"\.\."), ("id", r"--"), ("id", r"to\b"), ("nonid", r"optionally to\b"),
    ("nonid", r"\.-"), ("nonid", r"-\."),
    ("name", r"(?:[^\x00-\x7F]|\w|-|\*|\.)+"),
    ("other", r"."),
)
_LEX = re.compile("|".join(f"(?P<t{k}>{p})" for k, (_, p) in enumerate(_RULES)),
                  re.I | re.A)
#: Inside an attribute block.
_BLOCK = re.compile(
    r"(?P<space>\s+)|(?P<key>\b(?:PK|FK|UK)\b)|(?P<generic>[^\s]*~[^\n]*~[^\s]*)"
    r"|(?P<word>[*A-Za-z_\u00C0-\uFFFF][A-Za-z0-9\-_\[\]().,\u00C0-\uFFFF*]*)"
    r"|`(?P<bq>[^`]*)`|(?P<comment>\"[^\"]*\")|(?P<stop>\})|(?P<other>.)", re.I | re.A)


@dataclass
class _Token:
    kind: str
    text: str
    line: int


def _tokens(text: str, first: int) -> list[_Token]:
    out: list[_Token] = []
    pos, line = 0, first
    while pos < len(text):
        m = _LEX.match(text, pos)
        assert m is not None and m.lastgroup is not None  # "other" matches any character
        kind = _RULES[int(m.lastgroup[1:])][0]
        word = m.group(0)
        if kind == "{":
            out.append(_Token("{", word, line))
            pos, line = _block(text, m.end(), line, out)
            continue
        if kind not in ("space", "nl", "skip_line", "skip_block"):
            out.append(_Token("card" if kind == "card1" else kind, word, line))
        line += word.count("\n")
        pos = m.end()
    return out


def _block(text: str, pos: int, line: int, out: list[_Token]) -> tuple[int, int]:
    """The tokens of an attribute block up to its `}`; the position and line after it."""
    while pos < len(text):
        m = _BLOCK.match(text, pos)
        assert m is not None and m.lastgroup is not None
        kind, word = m.lastgroup, m.group(0)
        if kind == "bq":
            kind, word = "word", m.group("bq")
        elif kind == "generic":
            kind = "word"
        if kind == "stop":
            out.append(_Token("}", word, line))
            return m.end(), line + word.count("\n")
        if kind != "space":
            out.append(_Token(kind, word, line))
        line += m.group(0).count("\n")
        pos = m.end()
    return pos, line


def _unquote(text: str) -> str:
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text


class _Parser:
    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.k = 0
        self.entities: dict[str, dict] = {}
        self.relations: list[Relation] = []
        self.diagnostics: list[Diagnostic] = []
        # subgraphs: open ones (id, title, line, names mentioned), closed ones in order
        self.open: list[tuple[str, str, int, list[str]]] = []
        self.closed: list[Cluster] = []
        self.parent: dict[str, str] = {}
        self.outer_of: dict[str, str] = {}

    def peek(self, ahead: int = 0) -> _Token | None:
        k = self.k + ahead
        return self.tokens[k] if k < len(self.tokens) else None

    def take(self, *kinds: str, line: int = 0) -> _Token | None:
        """The next token if it is of one of `kinds` (and on `line`, if given)."""
        t = self.peek()
        if t is not None and t.kind in kinds and (not line or t.line == line):
            self.k += 1
            return t
        return None

    def touch(self, name: str, line: int, alias: str = "", end: bool = False) -> str:
        if self.open:
            self.open[-1][3].append(name)
        if end and any(c.id == name for c in self.closed):
            return name  # a relationship to a subgraph drawn before
        if name not in self.entities:
            self.entities[name] = {"name": "", "attrs": [], "line": line}
        if alias:
            self.entities[name]["name"] = alias
        return name

    def fail(self, t: _Token, reason: str) -> None:
        self.diagnostics.append(Diagnostic(t.line, t.text, reason))
        self.k += 1

    def classes(self) -> None:
        """`:::a,b` after a name: styling only."""
        if self.take(":::"):
            while self.take("name") and self.take(","):
                pass

    def run(self) -> None:
        while (t := self.peek()) is not None:
            if t.kind == "subgraph":
                self.subgraph(t)
            elif t.kind == "end":
                self.k += 1
                if self.open:
                    self.close()
                else:
                    self.diagnostics.append(Diagnostic(t.line, t.text, "'end' without a subgraph"))
            elif t.kind == "name":
                self.statement(t)
            elif t.kind == "class":  # class a,b c,d: styling only, the rest goes on
                self.k += 1
                for _ in range(2):
                    while self.take("name") and self.take(","):
                        pass
            else:
                self.fail(t, "not an ER statement")

    def subgraph(self, t: _Token) -> None:
        self.k += 1
        words: list[str] = []
        title: list[str] = []
        while (w := self.take("name", line=t.line)) is not None:  # the header is one line
            words.append(_unquote(w.text))
        if self.take("[", line=t.line):
            while (w := self.take("name", "word", line=t.line)) is not None:
                title.append(_unquote(w.text))
            self.take("]", line=t.line)
        ident = " ".join(words)
        self.open.append((ident, " ".join(title), t.line, []))

    def close(self) -> None:
        ident, title, line, names = self.open.pop()
        if self.open:
            self.open[-1][3].append(ident)
            self.outer_of[ident] = self.open[-1][0]
        # a subgraph holds what its statements name and no subgraph closed before holds
        mine = [e for e in dict.fromkeys(names) if e in self.entities and e not in self.parent]
        for e in mine:
            self.parent[e] = ident
        self.closed.append(Cluster(ident, "" if title in ("", ident) else title, "subgraph",
                                   members=tuple(mine), line=line))

    def statement(self, t: _Token) -> None:
        self.k += 1
        name = _unquote(t.text)
        nxt = self.peek()
        if nxt is not None and nxt.kind == "[":
            self.k += 1
            alias = self.take("name")
            if alias is None or not self.take("]"):
                self.diagnostics.append(Diagnostic(t.line, t.text, "an alias needs [name]"))
                return
            self.touch(name, t.line, _unquote(alias.text))
            self.classes()
            after = self.peek()
            if after is not None and after.kind == "{":
                self.attributes(name)
            return
        self.classes()
        nxt = self.peek()
        if nxt is not None and nxt.kind == "{":
            self.touch(name, t.line)
            self.attributes(name)
            return
        if nxt is not None and nxt.kind == "card":
            self.relationship(t, name)
            return
        self.touch(name, t.line)

    def relationship(self, t: _Token, a: str) -> None:
        left, body, right = self.take("card"), self.take("id", "nonid"), self.take("card")
        b = self.take("name")
        if left is None or body is None or right is None or b is None:
            self.diagnostics.append(Diagnostic(t.line, t.text, "a relationship needs "
                                               "cardinality, line, cardinality and an entity"))
            return
        self.classes()
        role = self.take(":") and self.take("word", "name")
        if not role:
            self.diagnostics.append(Diagnostic(t.line, t.text, "a relationship needs ': label'"))
            return
        source, target = self.touch(a, t.line, end=True), self.touch(_unquote(b.text), t.line,
                                                                     end=True)
        style: LineStyle = "solid" if body.kind == "id" else "dashed"
        self.relations.append(Relation(
            source, target, "identifying" if style == "solid" else "non_identifying", "none",
            _unquote(role.text), style=style,
            source_cardinality=_CARDS[left.text.lower()],
            target_cardinality=_CARDS[right.text.lower()], line=t.line))

    def attributes(self, owner: str) -> None:
        start = self.take("{")
        assert start is not None
        while (t := self.peek()) is not None and t.kind != "}":
            type_, name = self.take("word"), self.take("word")
            if type_ is None or name is None:
                self.fail(t, "not an attribute (type name [keys] [\"comment\"])")
                continue
            keys = []
            while (key := self.take("key")) is not None:
                keys.append(key.text)
                comma = self.peek()
                if comma is None or comma.text != ",":
                    break
                self.k += 1
            comment = self.take("comment")
            flags: tuple[MemberFlag, ...] = tuple(
                f for f in ("pk", "fk", "uk") if f in (k.lower() for k in keys))
            self.entities[owner]["attrs"].append(Member(
                name.text, type_.text, flags=flags, note=_unquote(comment.text) if comment else "",
                text=" ".join(x for x in (type_.text, name.text, ", ".join(keys),
                                          comment.text if comment else "") if x)))
        if not self.take("}"):
            self.diagnostics.append(Diagnostic(start.line, "",
                                               f"entity {owner!r}: body never closed"))


def read(lines: list[str], first: int, header: str) -> tuple[GraphDiagram, list[Diagnostic]]:
    body = "\n".join("" if line.strip().startswith("%%") else line for line in lines)
    p = _Parser(_tokens(body, first))
    p.run()
    for ident, _, line, _ in p.open:
        p.diagnostics.append(Diagnostic(line, "", f"subgraph {ident!r} is never closed with 'end'"))
    while p.open:
        p.close()
    closed, outer_of = p.closed, p.outer_of
    # a subgraph holding nothing is drawn as an entity box (in its parent, if any)
    empty = {c.id for c in closed if not c.members and c.id not in outer_of.values()}
    closed.sort(key=lambda c: c.line)
    clusters = tuple(Cluster(c.id, c.name, c.kind, parent=outer_of.get(c.id),
                             members=c.members + tuple(d.id for d in closed if d.id in empty
                                                       and outer_of.get(d.id) == c.id),
                             line=c.line) for c in closed if c.id not in empty)
    return GraphDiagram("mermaid", "er", tuple(
        Entity(i, e["name"], "table", attributes=tuple(e["attrs"]), parent=p.parent.get(i),
               line=e["line"])
        for i, e in p.entities.items() if i not in empty) + tuple(
        Entity(c.id, c.name, "table", parent=outer_of.get(c.id), line=c.line)
        for c in {c.id: c for c in reversed(closed) if c.id in empty}.values()),
        one_self_loop(p.relations, p.diagnostics),
        clusters), p.diagnostics
