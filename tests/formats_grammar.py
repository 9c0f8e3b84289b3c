"""A grammar of Mermaid (flowchart, class, ER, state), Graphviz DOT and DBML diagrams, for
differential testing of the readers against their engines (mermaid-cli's SVG,
Graphviz's SVG, the reference DBML parser @dbml/core).

`generate(rng, language, kind)` draws one diagram; each production picks among the
written forms the engine accepts for the same construct and records the construct's
name in `Generated.constructs`, so disagreements can be grouped by construct. The
oracle is the engine: the generator has no expectation of its own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

#: (language, kind) pairs the grammar draws, and the share of each in a mixed corpus.
KINDS: tuple[tuple[str, str], ...] = (
    ("mermaid", "flowchart"), ("mermaid", "class"), ("mermaid", "er"), ("mermaid", "state"),
    ("dot", "graph"), ("dbml", "er"))
_WORDS = ("Order", "User", "Cart", "Item", "Bank", "Shop", "Auth", "Mail", "Queue", "Store",
          "Api", "Web", "Db", "Log", "Pay", "Ship")


@dataclass
class Generated:
    language: str
    kind: str
    text: str
    constructs: set[str] = field(default_factory=set)


class _G:
    """The diagram being drawn: its lines and the constructs used."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lines: list[str] = []
        self.constructs: set[str] = set()

    def use(self, construct: str) -> None:
        self.constructs.add(construct)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, options):
        return self.rng.choice(options)


def _name(g: _G, k: int) -> str:
    return f"{g.pick(_WORDS)}{k}"


# Mermaid flowchart -------------------------------------------------------------------

_SHAPES = (("[", "]"), ("(", ")"), ("([", "])"), ("[[", "]]"), ("[(", ")]"), ("((", "))"),
           (">", "]"), ("{", "}"), ("{{", "}}"), ("[/", "/]"), ("[\\", "\\]"), ("[/", "\\]"),
           ("[\\", "/]"), ("(((", ")))"))
#: Shape names of the `@{ shape: … }` form (Mermaid 11's shape table, short and long).
_AT_SHAPES = ("rect", "rounded", "stadium", "fr-rect", "cyl", "circle", "diam", "hex", "lean-r",
              "lean-l", "trap-b", "trap-t", "dbl-circ", "text", "notch-rect", "lin-rect",
              "sm-circ", "fr-circ", "fork", "hourglass", "brace", "brace-r", "braces", "bolt",
              "doc", "delay", "das", "lin-cyl", "curv-trap", "div-rect", "tri", "win-pane",
              "f-circ", "lin-doc", "notch-pent", "flip-tri", "sl-rect", "docs", "st-rect",
              "bow-rect", "flag", "cross-circ", "tag-doc", "tag-rect", "odd", "card",
              "decision", "process", "event", "database", "terminal", "subprocess", "comment")
_FLOW_LINKS = ("-->", "---", "-.->", "-.-", "==>", "===", "<-->", "--o", "--x", "o--o",
               "x--x", "--->", "<-.->", "<==>", "~~~", "---->", "-..->", "====>", "-----",
               "~~~~", "<---", "x-.-x", "o==o")


def _flow_node(g: _G, ident: str, fresh: bool) -> str:
    if not fresh or g.chance(0.4):
        return ident
    form = g.rng.randrange(8)
    if form == 0:
        shape = g.pick(_AT_SHAPES)
        g.use(f"flow:@{{shape {shape}}}")
        label = g.pick((f', label: "{ident} x"', "", f", label: '{ident} y'"))
        return f"{ident}@{{ shape: {shape}{label} }}"
    opening, closing = g.pick(_SHAPES)
    g.use(f"flow:shape {opening}{closing}")
    label = (f'"{ident} (quoted)"' if form == 1 else
             f'"`**{ident}** md`"' if form == 6 else f"{ident} text")
    if form == 6:
        g.use("flow:markdown string")
    if form == 2:
        g.use("flow:class suffix")
        return f"{ident}{opening}{label}{closing}:::hot"
    return f"{ident}{opening}{label}{closing}"


def _flow_link(g: _G, k: int) -> str:
    link = g.pick(_FLOW_LINKS)
    g.use(f"flow:link {link}")
    ident = ""
    if g.chance(0.1) and "~" not in link:
        g.use("flow:edge id")
        ident = f"e{k}@"
    form = g.rng.randrange(5)
    if form == 0 and "~" not in link:
        g.use("flow:|text|")
        return f"{ident}{link}|says {g.rng.randrange(9)}|"
    if form == 1 and link in ("-->", "---", "==>", "-.->", "===", "-.-", "--o", "--x"):
        g.use("flow:-- text -->")
        opening = {"=": "==", ".": "-."}.get(link[1], "--")
        return f"{ident}{opening} text {link}"
    if form == 2 and not ident:
        g.use("flow:link unspaced")
        return f"\b{ident}{link}\b"
    return f"{ident}{link}"


def _flow_id(g: _G, k: int) -> str:
    form = g.rng.randrange(10)
    if form == 0:
        g.use("flow:dotted id")
        return f"n.{k}"
    if form == 1:
        g.use("flow:number id")
        return str(10 + k)
    return f"{g.pick(('n', 'A', 'node', 'x', 'Ab_'))}{k}"


def mermaid_flowchart(g: _G) -> None:
    g.lines.append(f"{g.pick(('flowchart', 'graph'))} {g.pick(('TD', 'LR', 'TB', 'RL', 'BT'))}")
    ids = [_flow_id(g, k) for k in range(g.rng.randint(2, 8))]
    seen: set[str] = set()
    depth = 0
    subgraphs: list[str] = []
    open_: list[str] = []
    closed: list[str] = []  # a link to an enclosing subgraph is refused by Mermaid
    links = 0
    for _ in range(g.rng.randint(2, 10)):
        r = g.rng.random()
        if r < 0.12:
            sid = f"sg{len(subgraphs)}"
            form = g.rng.randrange(5)
            g.use("flow:subgraph" + (" nested" if depth else "") + f" form {form}")
            if form == 3:
                sid = f"Group {len(subgraphs)}"
            g.lines.append(f"  subgraph {sid}" if form == 0 else
                           f'  subgraph {sid} ["Group {sid}"]' if form == 1 else
                           f"  subgraph {sid}[Group]" if form == 2 else
                           f"  subgraph {sid}" if form == 3 else
                           f'  subgraph {sid} [" "]')
            if g.chance(0.2):
                g.use("flow:direction in subgraph")
                g.lines.append("    direction LR")
            if form != 3:
                subgraphs.append(sid)
            open_.append(sid)
            depth += 1
            continue
        if r < 0.22 and depth:
            g.lines.append("  end")
            sid = open_.pop()
            if sid in subgraphs:
                closed.append(sid)
            depth -= 1
            continue
        if r < 0.3:
            g.use("flow:style statements")
            n = g.pick(ids)
            g.lines.append(g.pick(("  classDef hot fill:#f96", f"  style {n} fill:#bbf",
                                   "  linkStyle default stroke:#333", "  %% a comment",
                                   f"  class {n},{g.pick(ids)} hot", f"  click {n} callback",
                                   f'  click {n} "https://example.com" "tip"',
                                   f'  click {n} href "https://example.com" _blank',
                                   "  accTitle: title")))
            continue
        a = g.pick(ids)
        parts = [_flow_node(g, a, a not in seen)]
        seen.add(a)
        if closed and g.chance(0.1):
            g.use("flow:link from subgraph")
            parts = [g.pick(closed)]
        if g.chance(0.15):
            g.use("flow:& group")
            b = g.pick(ids)
            parts[0] += f" & {_flow_node(g, b, b not in seen)}"
            seen.add(b)
        for _ in range(g.pick((0, 1, 1, 1, 2))):
            if len(parts) > 1:
                g.use("flow:chain")
            b = g.pick(closed if closed and g.chance(0.2) else ids)
            if depth and b in closed:
                g.use("flow:link to subgraph inside another")
            if not depth and g.chance(0.05):
                g.use("flow:link to a subgraph declared later")
                b = f"sg{len(subgraphs)}"
            if b in subgraphs:
                g.use("flow:link to subgraph")
            parts.append(_flow_link(g, links))
            links += 1
            target = _flow_node(g, b, b not in seen and b not in subgraphs)
            if g.chance(0.1) and b not in subgraphs:
                g.use("flow:& group target")
                c = g.pick(ids)
                target += f" & {_flow_node(g, c, c not in seen)}"
                seen.add(c)
            parts.append(target)
            seen.add(b)
        line = " ".join(parts).replace(" \b", "").replace("\b ", "")
        g.lines.append("  " + line + (";" if g.chance(0.1) else ""))
        named = [p.split("@")[0] for p in parts[1::2] if "@" in p]
        if named and g.chance(0.5):
            g.use("flow:edge data")
            g.lines.append(f"  {g.pick(named)}@{{ {g.pick(('animate: true', 'curve: linear'))} }}")
    g.lines += ["  end"] * depth


# Mermaid class ------------------------------------------------------------------------

_CLASS_LINKS = ("<|--", "--|>", "*--", "--*", "o--", "--o", "-->", "<--", "--", "..>", "<..",
                "..|>", "<|..", "..", "<-->", "()--", "--()", "*--o")


def mermaid_class(g: _G) -> None:
    g.lines.append("classDiagram")
    if g.chance(0.2):
        g.use("class:direction")
        g.lines.append(f"  direction {g.pick(('LR', 'RL', 'TB', 'BT'))}")
    ids = [_name(g, k) for k in range(g.rng.randint(2, 7))]
    ns_depth = 0
    for k, name in enumerate(ids):
        if g.chance(0.12) and ns_depth < 2:
            form = g.rng.randrange(3)
            g.use("class:namespace" + (" nested" if ns_depth else "") +
                  (" dotted" if form == 1 else " titled" if form == 2 else ""))
            g.lines.append(f"  namespace Ns{k} {{" if form == 0 else
                           f"  namespace Com.Ns{k} {{" if form == 1 else
                           f'  namespace Ns{k}["Title {k}"] {{')
            ns_depth += 1
        form = g.rng.randrange(5 if not ns_depth else 3)
        if form == 0:
            g.lines.append(f"  class {name}")
        elif form == 1:
            g.use("class:body")
            annotation = g.pick(("", "", "    <<interface>>", "    <<abstract>>",
                                 "    <<enumeration>>"))
            g.lines += [f"  class {name} {{", *([annotation] if annotation else []),
                        "    +int id", "    -String name", "    +run(a, b) bool", "  }"]
        elif form == 2:
            g.use("class:label")
            g.lines.append(f'  class {name}["{name} label"]')
        elif form == 3:
            g.use("class:generic")
            g.lines.append(f"  class {name}~T~")
        else:
            g.use("class:annotation statement")
            g.lines.append(f"  class {name}")
            g.lines.append(f"  <<{g.pick(('interface', 'service', 'abstract'))}>> {name}")
        if ns_depth and g.chance(0.5):
            g.lines.append("  }")
            ns_depth -= 1
    g.lines += ["  }"] * ns_depth
    for _ in range(g.rng.randint(0, 6)):
        a, b = g.pick(ids), g.pick([*ids, f"Extra{g.rng.randrange(3)}"])
        link = g.pick(_CLASS_LINKS)
        g.use(f"class:link {link}")
        card_a = f' "{g.pick(("1", "0..*", "many"))}"' if g.chance(0.2) else ""
        card_b = f'"{g.pick(("1", "1..*"))}" ' if g.chance(0.2) else ""
        if card_a or card_b:
            g.use("class:cardinality")
        label = f" : {g.pick(('uses', 'has many', 'owns'))}" if g.chance(0.4) else ""
        g.lines.append(f"  {a}{card_a} {link} {card_b}{b}{label}")
    if g.chance(0.3):
        g.use("class:member statement")
        g.lines.append(f"  {g.pick(ids)} : +String extra")
        g.lines.append(f"  {g.pick(ids)} : +go() int")
    if g.chance(0.25):
        g.use("class:note")
        g.lines.append(g.pick((f'  note for {g.pick(ids)} "a note"', '  note "free note"')))
    if g.chance(0.15):
        g.use("class:style")
        g.lines += ["  classDef hot fill:#f96", f"  cssClass \"{ids[0]}\" hot"]


# Mermaid ER -----------------------------------------------------------------------------

#: Every cardinality spelling of erDiagram.jison's lexer, left and right of the line
#: (words in any case; `u` is MD_PARENT, written before a line symbol).
_ER_CARDS = ("||", "|o", "o|", "}|", "|{", "}o", "o{", "one", "only one", "1", "zero or one",
             "one or zero", "one or more", "one or many", "1+", "zero or more", "zero or many",
             "0+", "many", "many(0)", "many(1)")
_ER_ATTRS = ("int id PK", "string name", 'string email UK "login"', "int owner_id FK",
             "string[] tags", "decimal(10,2) price", "int a PK, FK", 'int b FK, UK "both"',
             "type~T~ generic", "*int star", "Date created_at", 'float ratio "a, b"',
             "varchar(255) title", "string zip-code")


def _er_name(g: _G, k: int) -> str:
    form = g.rng.randrange(10)
    base = _name(g, k)
    if form == 0:
        g.use("er:hyphenated name")
        return base.upper() + "-ITEM"
    if form == 1:
        g.use("er:quoted name")
        return f'"{base} x"'
    if form == 2:
        g.use("er:dotted name")
        return f"sch.{base.lower()}"
    if form == 3:
        g.use("er:unicode name")
        return f"Café{k}"
    if form == 4 and g.chance(0.5):
        g.use("er:number name")
        return g.pick((str(k + 2), f"{k}.5"))
    return base.upper() if g.chance(0.5) else base


def _er_card(g: _G, left: bool) -> str:
    card = g.pick(_ER_CARDS)
    if card[0].isalpha() and g.chance(0.3):
        g.use("er:card case")
        card = card.upper() if g.chance(0.5) else card.title()
    return card


def mermaid_er(g: _G) -> None:
    g.lines.append("erDiagram")
    if g.chance(0.15):
        g.use("er:direction")
        g.lines.append(f"  direction {g.pick(('LR', 'RL', 'TB', 'BT'))}")
    ids = [_er_name(g, k) for k in range(g.rng.randint(2, 6))]
    declared: set[str] = set()
    depth = 0
    open_: list[str] = []
    closed: list[str] = []
    for _ in range(g.rng.randint(2, 9)):
        r = g.rng.random()
        if r < 0.1 and depth < 2:
            g.use("er:subgraph" + (" nested" if depth else ""))
            open_.append(f"Sg{g.rng.randrange(99)}{depth}")
            g.lines.append(f"  subgraph {open_[-1]}")
            depth += 1
            continue
        if r < 0.18 and depth:
            g.lines.append("  end")
            closed.append(open_.pop())
            depth -= 1
            continue
        if r < 0.23:
            g.use("er:style statements")
            g.lines.append(g.pick(("  classDef hot fill:#f96", "  %% a comment",
                                   "  accTitle: a title", f"  class {ids[-1].strip(chr(34))} hot",
                                   f"  class {ids[0].strip(chr(34))} hot, cold",
                                   f"  style {ids[0].strip(chr(34))} fill:#f9f")))
            continue
        if r < 0.5:
            name = g.pick(ids)
            alias = ""
            if name not in declared and g.chance(0.3):
                g.use("er:alias")
                alias = g.pick((f'["{name.strip(chr(34))} alias"]', "[Alias]",
                                f' [ "{name.strip(chr(34))} spaced" ]'))
            declared.add(name)
            cls = ""
            if g.chance(0.15):
                g.use("er:::: class")
                cls = g.pick((":::hot", ":::hot,cold"))
            form = g.rng.randrange(6)
            attrs = g.rng.sample(_ER_ATTRS, g.rng.randint(1, 4))
            for a in attrs:
                g.use("er:attribute " + ("comment" if '"' in a else "keys" if a.endswith(
                    ("K", "UK")) else "plain"))
            if form <= 2:
                g.use("er:attributes")
                g.lines += [f"  {name}{alias}{cls} {{", *(f"    {a}" for a in attrs), "  }"]
            elif form == 3:
                g.use("er:attributes on one line")
                g.lines.append(f"  {name}{alias}{cls} {{ {' '.join(attrs)} }}" if g.chance(0.5)
                               else f"  {name}{alias}{cls}{{{' '.join(attrs)}}}")
            elif form == 4:
                g.use("er:empty block")
                g.lines.append(g.pick((f"  {name}{alias}{cls} {{ }}", f"  {name}{alias}{cls}{{}}",
                                       f"  {name}{alias}{cls} {{\n\n  }}")))
            else:
                g.use("er:bare entity")
                g.lines.append(f"  {name}{alias}{cls}")
            continue
        a, b = g.pick(ids), g.pick(ids)
        if closed and g.chance(0.15):
            g.use("er:relationship to a subgraph")
            b = g.pick(closed)
        left, right = _er_card(g, True), _er_card(g, False)
        if g.chance(0.08):
            g.use("er:md parent")
            left = "u"
        words = left[0].isalnum() or right[0].isalnum()
        body = g.pick(("--", "..", ".-", "-.", "to", "optionally to")) if words \
            else g.pick(("--", "..", ".-", "-."))
        g.use("er:words" if words else "er:crow's feet")
        g.use(f"er:{'identifying' if body in ('--', 'to') else 'non-identifying'}")
        label = g.pick(("places", '"is part of"', '""', '"has, many"'))
        spaced = words or g.chance(0.3)
        if spaced and not words:
            g.use("er:spaced symbols")
        sep = " " if spaced else ""
        # Mermaid's lexer reads a "1" as a cardinality only before a name, a digit or a
        # line symbol right after it; `u` only before a line symbol
        left_sep = "" if left in ("1", "u") and body[0] in "-." else sep
        if left == "u" and body[0] not in "-.":
            left_sep = sep
            left = "||"
        ca = ":::hot" if g.chance(0.1) else ""
        if ca:
            g.use("er:::: class on relation")
        colon = g.pick((" : ", " :", ": "))
        g.lines.append(f"  {a}{ca} {left}{left_sep}{body}{sep}{right} {b}{colon}{label}")
    g.lines += ["  end"] * depth


# Mermaid state --------------------------------------------------------------------------

def _state_ref(g: _G, name: str) -> str:
    if g.chance(0.08):
        g.use("state:::: class")
        return f"{name}:::hot"
    return name


def mermaid_state(g: _G) -> None:
    g.lines.append(g.pick(("stateDiagram-v2", "stateDiagram-v2", "stateDiagram")))
    counter = [0]
    everywhere: list[str] = []  # states of every scope, for transitions across scopes
    if g.chance(0.1):
        g.use("state:direction")
        g.lines.append(f"  direction {g.pick(('LR', 'TB'))}")

    def transition(indent: str, a: str, b: str) -> None:
        label = g.pick(("", "", " : go", " : event x", ": tight", " : a: b"))
        g.use("state:transition" + (" labelled" if label else ""))
        arrow = g.pick((" --> ", " --> ", "-->"))
        if arrow == "-->":
            g.use("state:--> unspaced")
        comment = ""
        if g.chance(0.08):
            g.use("state:inline %% comment")
            comment = " %% why"
        g.lines.append(f"{indent}{_state_ref(g, a)}{arrow}{_state_ref(g, b)}{label}{comment}")

    def scope(depth: int, indent: str) -> list[str]:
        names = [f"S{counter[0] + k}" for k in range(g.rng.randint(1, 4))]
        if g.chance(0.2):
            mark = g.pick((".", "/", "_", "é", "'"))
            g.use(f"state:name with {mark}")
            names[-1] = f"Still{mark}{names[-1]}"
        counter[0] += len(names) + 1
        if g.chance(0.7):
            g.use("state:[*] start")
            g.lines.append(f"{indent}[*] --> {_state_ref(g, names[0])}")
        for k, name in enumerate(names):
            form = g.rng.randrange(9)
            if form == 0:
                g.use("state:described")
                g.lines.append(f"{indent}{name} : does things")
                if g.chance(0.3):
                    g.use("state:described twice")
                    g.lines.append(f"{indent}{name}: and more")
            elif form == 1:
                g.use("state:state as")
                g.lines.append(f'{indent}state "Long {name}" as {name}')
            elif form in (2, 3) and depth < 2:
                titled = g.chance(0.3)
                g.use("state:composite" + (" nested" if depth else "") +
                      (" titled" if titled else ""))
                g.lines.append(f'{indent}state "Title {name}" as {name} {{' if titled else
                               f"{indent}state {name} {{")
                if g.chance(0.15):
                    g.use("state:direction inside")
                    g.lines.append(f"{indent}  direction LR")
                inner = scope(depth + 1, indent + "  ")
                everywhere.extend(inner)
                for _ in range(g.pick((0, 0, 1, 2)) if g.chance(0.3) else 0):
                    g.use("state:concurrent regions")
                    g.lines.append(f"{indent}  --")
                    everywhere.extend(scope(depth + 1, indent + "  "))
                g.lines.append(f"{indent}}}")  # (described too, Mermaid refuses it)
            elif form == 4:
                kind = g.pick(("fork", "join", "choice"))
                brackets = g.chance(0.3)
                g.use(f"state:<<{kind}>>" + (" [[ ]]" if brackets else ""))
                g.lines.append(f"{indent}state {name} [[{kind}]]" if brackets else
                               f"{indent}state {name} <<{kind}>>")
            elif form == 5 and k:  # (declares nothing: the transition below does)
                g.use("state:state keyword")
                g.lines.append(f"{indent}state {name}")
            elif not k:  # every scope declares a state
                g.use("state:bare id")
                g.lines.append(f"{indent}{name}")
            if k:
                transition(indent, names[k - 1], name)
        if g.chance(0.5):
            g.use("state:[*] end")
            g.lines.append(f"{indent}{_state_ref(g, g.pick(names))} --> [*]")
        if everywhere and g.chance(0.15):
            g.use("state:transition across scopes")
            transition(indent, g.pick(names), g.pick(everywhere))
        if g.chance(0.15):
            g.use("state:note")
            g.lines.append(f"{indent}note {g.pick(('right', 'left'))} of {g.pick(names)} : a note")
        if g.chance(0.1):
            g.use("state:note block")
            g.lines += [f"{indent}note left of {g.pick(names)}", f"{indent}  two",
                        f"{indent}  lines", f"{indent}end note"]
        if g.chance(0.05):
            g.use("state:floating note")
            g.lines.append(f'{indent}note "floating" as N{counter[0]}')
        if g.chance(0.1):
            g.use("state:style statements")
            g.lines.append(g.pick((f"{indent}classDef hot fill:#f96",
                                   f"{indent}class {names[0]} hot",
                                   f"{indent}style {names[0]} fill:#f9f",
                                   f"{indent}%% a comment")))
        return names

    everywhere.extend(scope(0, "  "))
    if g.chance(0.1):
        g.use("state:hide empty description")
        g.lines.append("  hide empty description")
    if g.chance(0.15):
        g.use("state:style")
        g.lines += ["  classDef hot fill:#f96", "  class S0 hot"]


# DOT ------------------------------------------------------------------------------------

def dot_graph(g: _G) -> None:
    directed = g.chance(0.7)
    strict = g.chance(0.15)
    if strict:
        g.use("dot:strict")
    g.lines.append(f"{'strict ' if strict else ''}{'digraph' if directed else 'graph'} G {{")
    op = "->" if directed else "--"
    ids = [f"{g.pick(('n', 'a', 'node_', 'v'))}{k}" for k in range(g.rng.randint(2, 9))]
    if g.chance(0.2):
        g.use("dot:quoted id")
        ids[-1] = f'"{ids[-1]} q"'
    depth = 0
    for _ in range(g.rng.randint(2, 12)):
        r = g.rng.random()
        if r < 0.12 and depth < 3:
            cluster = g.chance(0.7)
            g.use("dot:cluster" if cluster else "dot:plain subgraph")
            if depth:
                g.use("dot:nested subgraph")
            g.lines.append(f"  subgraph {'cluster_' if cluster else 's'}{g.rng.randrange(99)} {{")
            if g.chance(0.3):
                g.lines.append('    label="Group"')
            depth += 1
            continue
        if r < 0.2 and depth:
            g.lines.append("  }")
            depth -= 1
            continue
        if r < 0.26:
            g.use("dot:defaults")
            g.lines.append(g.pick(("  node [shape=box]", "  edge [color=red]",
                                   "  node [style=invis]", "  node [style=filled]",
                                   "  rankdir=LR", "  // comment")))
            continue
        if r < 0.4:
            g.use("dot:node statement")
            attrs = g.pick(("", " [label=\"L\"]", " [shape=box, label=\"a\\nb\"]",
                            " [style=invis]", " [label=<<b>html</b>>]"))
            if "invis" in attrs:
                g.use("dot:invisible node")
            g.lines.append(f"  {g.pick(ids)}{attrs}")
            continue
        chain = [g.pick(ids) for _ in range(g.pick((2, 2, 2, 3, 4)))]
        if len(chain) > 2:
            g.use("dot:edge chain")
        if g.chance(0.1):
            g.use("dot:subgraph endpoint")
            chain[0] = "{" + " ".join(g.rng.sample(ids, 2)) + "}"
        if g.chance(0.1):
            g.use("dot:port")
            chain[-1] += g.pick((":n", ":s", ":ne", ":w"))
        attrs = g.pick(("", "", " [label=\"x\"]", " [style=invis]", " [dir=both]",
                        " [style=dashed]"))
        if "invis" in attrs:
            g.use("dot:invisible edge")
        g.lines.append(f"  {f' {op} '.join(chain)}{attrs}{';' if g.chance(0.3) else ''}")
    g.lines += ["  }"] * depth
    g.lines.append("}")


# DBML -----------------------------------------------------------------------------------

_DBML_COLUMNS = ("name varchar", "email varchar [unique, not null]",
                 "created_at timestamp [default: `now()`]", "status varchar [note: 'state']",
                 'price "decimal(10, 2)"', "amount numeric(10,2) [default: -2.5]",
                 "rank int [default: -1]", "tags text[]", "grid int[][]",
                 "qty int [check: `qty > 0`]", "owner_id int", "kind kinds",
                 "flag boolean [default: false, note: '''a\n    multi-line note''']")
_DBML_ACTIONS = ("delete: cascade", "update: set null", "delete: restrict, update: no action",
                 "delete: set default", "color: #79AD51", "inactive")


def _dbml_partials(g: _G) -> list[str]:
    """TablePartial definitions (0-2): their names."""
    names = []
    for k in range(g.pick((0, 0, 1, 2))):
        g.use("dbml:TablePartial")
        name = f"part_{k}"
        settings = " [headercolor: #ff0000]" if g.chance(0.3) else ""
        columns = g.rng.sample(["  created_by int", "  deleted_at timestamp [default: `now()`]",
                                "  version int [not null, default: 1]", "  label varchar"],
                               g.rng.randint(1, 2))
        g.lines += [f"TablePartial {name}{settings} {{", *columns,
                    *(["  indexes {", f"    {columns[0].split()[0]}", "  }"]
                      if g.chance(0.2) else []), "}"]
        names.append(name)
    return names


def _dbml_ref(g: _G, k: int, a: str, b: str) -> None:
    ends = f"{a}.id {g.pick(('>', '<', '-', '<>'))} {b}.id"
    action = g.pick(_DBML_ACTIONS)
    construct, line = g.pick((("short ref", f"Ref: {ends}"),
                              ("named ref", f"Ref r{k} {{\n  {ends}\n}}"),
                              ("ref settings", f"Ref: {ends} [{action}]"),
                              ("ref block settings", f"Ref r{k} {{\n  {ends} [{action}]\n}}")))
    g.use(f"dbml:{construct}")
    g.lines.append(line)


def _dbml_table(g: _G, name: str, tables: list[str], schema: dict[str, str],
                partials: list[str]) -> None:
    t = name.rpartition(".")[2]
    alias = ""
    if g.chance(0.15):
        g.use("dbml:alias")
        alias = f" as {t[0].upper()}{t[-1]}"
    settings = ""
    if g.chance(0.1):
        g.use("dbml:table settings")
        settings = " [headercolor: #3498DB]"
    g.lines.append(f"Table {name}{alias}{settings} {{")
    g.lines.append(g.pick(("  id int [pk, increment]", "  id integer [primary key]",
                           "  id uuid [pk]")))
    for c in g.rng.sample(_DBML_COLUMNS, g.rng.randint(0, 4)):
        g.use(f"dbml:column {c.split()[1].split('(')[0]}")
        g.lines.append(f"  {c}")
    if partials and g.chance(0.5):
        g.use("dbml:partial injection")
        g.lines += [f"  ~{p}" for p in g.rng.sample(partials, g.rng.randint(1, len(partials)))]
    if g.chance(0.2) and len(tables) > 1:
        g.use("dbml:inline ref")
        other = g.pick([x for x in tables if x != t])
        g.lines.append(f"  ref_id int [ref: {g.pick(('>', '<', '-', '<>'))} "
                       f"{schema.get(other, other)}.id]" if other in schema else "  ref_id int")
    if g.chance(0.1):
        g.use("dbml:indexes")
        g.lines += ["  indexes {", g.pick(("    id", "    id [unique]", "    (id) [pk]",
                                          "    id [type: hash, name: 'by_id']")), "  }"]
    if g.chance(0.1):
        g.use("dbml:checks")
        g.lines += ["  checks {", "    `id > 0` [name: 'positive_id']", "  }"]
    if g.chance(0.1):
        g.use("dbml:table note")
        g.lines.append(g.pick(("  Note: 'a table'", "  Note {\n    'a table'\n  }")))
    records = g.pick(("", "", "", "", "inside", "after"))  # one Records block a table
    if records == "inside":
        g.use("dbml:records")
        g.lines += ["  records (id) {", *(f"    {n}" for n in range(1, g.rng.randint(2, 4))),
                    "  }"]
    g.lines.append("}")
    if records == "after":
        g.use("dbml:Records")
        g.lines += [f"Records {name}(id) {{", "  7", "  8", "}"]


def dbml(g: _G) -> None:
    tables = [f"{g.pick(('users', 'orders', 'items', 'shops', 'posts'))}_{k}"
              for k in range(g.rng.randint(1, 6))]
    if g.chance(0.15):
        g.use("dbml:Project")
        g.lines += ["Project shop {", "  database_type: 'PostgreSQL'", "  Note: 'shop'", "}"]
    if g.chance(0.25):
        g.use("dbml:enum")
        g.lines += ["Enum kinds {", "  small", "  \"very big\" [note: 'x']", "}"]
    partials = _dbml_partials(g)
    schema = {}
    for t in tables:
        schema[t] = t
        if g.chance(0.1):
            g.use("dbml:schema")
            schema[t] = f"core.{t}"
        _dbml_table(g, schema[t], tables, schema, partials)
    pairs: set[frozenset[str]] = set()
    for k in range(g.rng.randint(0, 4) if len(tables) > 1 else 0):
        a, b = (schema[t] for t in g.rng.sample(tables, 2))
        if frozenset((a, b)) in pairs:  # @dbml/core refuses a second ref between them
            continue
        pairs.add(frozenset((a, b)))
        _dbml_ref(g, k, a, b)
    if g.chance(0.25) and tables:
        g.use("dbml:TableGroup")
        settings = ""
        if g.chance(0.3):
            g.use("dbml:TableGroup settings")
            settings = " [color: #345]"
        members = g.rng.sample(tables, g.rng.randint(1, len(tables)))
        g.lines += [f"TableGroup g1{settings} {{", *(f"  {schema[t]}" for t in members),
                    *(["  Note: 'a group'"] if g.chance(0.3) else []), "}"]
    for k in range(g.pick((0, 0, 0, 1, 2))):
        g.use("dbml:sticky note")
        g.lines += [f"Note n{k} {{", g.pick(("  'a sticky note'", "  '''two\n  lines'''")), "}"]


_PRODUCTIONS = {("mermaid", "flowchart"): mermaid_flowchart, ("mermaid", "class"): mermaid_class,
                ("mermaid", "er"): mermaid_er, ("mermaid", "state"): mermaid_state,
                ("dot", "graph"): dot_graph, ("dbml", "er"): dbml}


def generate(rng: random.Random, language: str, kind: str) -> Generated:
    g = _G(rng)
    _PRODUCTIONS[(language, kind)](g)
    return Generated(language, kind, "\n".join(g.lines) + "\n", g.constructs)


def corpus(counts: dict[tuple[str, str], int], seed: int = 0) -> list[Generated]:
    """`counts[(language, kind)]` diagrams of each kind, drawn from one seeded stream."""
    rng = random.Random(seed)
    return [generate(rng, language, kind) for (language, kind), n in counts.items()
            for _ in range(n)]
