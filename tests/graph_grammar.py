"""A grammar of PlantUML class, component, use-case, state and C4 diagrams, for
differential testing of the graph reader against PlantUML itself.

`diagram(rng)` draws one diagram: each production picks among the written
forms PlantUML accepts for the same construct (declarations with and without
quotes, aliases, stereotypes and bodies; arrows of every head, line and
direction hint; multiplicities and labels; nested containers; notes of every
placement). The oracle is PlantUML's SVG (`diagbench.render.graph_stats`),
so the generator needs no expectation of its own.
"""

from __future__ import annotations

import random

from tests import llm_grammar

KINDS = ("class", "component", "usecase", "state", "c4")
_WORDS = ("Order", "User", "Cart", "Item", "Bank", "Shop", "Auth", "Mail", "Queue", "Store",
          "Api", "Web", "Db", "Log", "Pay", "Ship")
_DIRS = ("", "", "up", "down", "left", "right", "u", "d", "l", "r")


def _name(rng: random.Random, k: int) -> str:
    return f"{rng.choice(_WORDS)}{k}"


def _label(rng: random.Random) -> str:
    return rng.choice(("", "", "uses", "calls it", "1..*", "reads / writes", "<<use>>"))


def _body(rng: random.Random, dotted: bool = False) -> str:
    c = "." if dotted else "-"
    d = rng.choice(_DIRS)
    style = rng.choice(("", "", "", "[#red]", "[bold]", "[dashed]"))
    if d:
        return c + style + d + c
    return c * rng.choice((1, 2, 2, 3)) if not style else c + style + c


def _notes(rng: random.Random, ids: list[str], lines: list[str]) -> None:
    for n in range(rng.choice((0, 0, 1, 2))):
        target = rng.choice(ids)
        form = rng.randrange(4)
        if form == 0:
            lines.append(f"note {rng.choice(('left', 'right', 'top', 'bottom'))} of {target}"
                         " : a note")
        elif form == 1:
            lines += [f"note right of {target}", "two", "lines", "end note"]
        elif form == 2:
            lines += [f'note "floating {n}" as N{n}']
        else:
            lines += [f'note "linked {n}" as NL{n}', f"NL{n} .. {target}"]


_PACKAGES = ("package P{k} {{", 'package "Domain {k}" {{', "namespace ns{k} {{",
             "package com.acme{k} {{", 'package "Long {k}" as L{k} {{',
             "package Pk{k} <<Frame>> {{", 'package "a.b{k}" {{', "package P{k}{{")


def _declaration(rng: random.Random, name: str, ids: list[str]) -> list[str]:
    """One class declaration in one of the forms PlantUML accepts (and models write)."""
    keyword = rng.choice(("class", "class", "abstract class", "interface", "enum",
                          "annotation", "abstract", "entity", "struct"))
    stereo = rng.choice(("", "", " <<Entity>>", " <<S1>> <<S2>>"))
    generic = rng.choice(("", "", "<T>", " <K, V>"))
    form = rng.randrange(8)
    if form == 0:
        return [f"{keyword} {name}{generic}{stereo}"]
    if form == 1:
        return [f'{keyword} "{name} long" as {name}{stereo}']
    if form == 2:
        return [f"{keyword} {name}{stereo} {{", "  +id : int", "  -name : String",
                "  --", "  +run(a : int) : void", "}"]
    if form == 3:
        return [f"{keyword} {name} {{ }}" if rng.random() < 0.5 else
                f"{keyword} {name}\n{{\n  field\n}}"]
    if form == 4:  # Java-like: extends / implements, the parents maybe not declared yet
        parents = [*ids, f"Base{name}", f"I{name}"]
        ext = f" extends {rng.choice(parents)}" if rng.random() < 0.7 else ""
        impl = ", ".join(rng.sample(parents, rng.randint(1, 2))) if rng.random() < 0.6 else ""
        head = f"class {name}{ext}" + (f" implements {impl}" if impl else "")
        return [head] if rng.random() < 0.5 else [head + " {", "  +x : int", "}"]
    if form == 5:  # a stereotype inside the quoted name
        return [f'{keyword} "{name} <<{rng.choice(("entity", "service", "DTO"))}>>" as {name}']
    if form == 6:  # no space before the brace
        return [f"{rng.choice(('enum', 'class', 'interface'))} {name}{{", "  A", "  B", "}"]
    return [f"{keyword} {name}{stereo}{rng.choice(('{}', ' {}', '{ }'))}"]


def _relation(rng: random.Random, a: str, b: str) -> str:
    heads = (("", ">"), ("<|", ""), ("", "|>"), ("*", ""), ("", "*"), ("o", ""), ("", "o"),
             ("", ""), ("<", ">"), ("", "#"), ("", "+"), ("x", ""))
    left, right = rng.choice(heads)
    ma = rng.choice(("", "", '"1" ', '"0..*" '))
    mb = rng.choice(("", "", ' "many"', ' "1"'))
    label = _label(rng)
    body = "-[hidden]-" if rng.random() < 0.05 else _body(rng, rng.random() < 0.3)
    return f"{a} {ma}{left}{body}{right}{mb} {b}" + (f" : {label}" if label else "")


def class_diagram(rng: random.Random) -> str:
    """Classes in packages (nested, quoted, dotted, namespaces, aliased), relations inside
    and outside them naming classes declared before, later or elsewhere (forward
    references across packages), qualified names, `set separator`."""
    lines = ["@startuml"]
    if rng.random() < 0.08:
        lines.append(f"set separator {rng.choice(('none', '::', '.'))}")
    ids: list[str] = []
    refs: list[str] = []  # names to link: declared ones, qualified ones, forward ones
    count = rng.randint(1, 7)
    later = [_name(rng, k) for k in range(count)]
    path: list[str] = []  # the simple names of the open packages
    for k in range(count):
        if rng.random() < 0.25:
            opener = rng.choice(_PACKAGES).format(k=k)
            lines.append(opener)
            simple = opener.split()[1]
            path.append(simple if simple[0] != '"' and "." not in simple else "")
        name = later[k]
        lines += _declaration(rng, name, ids)
        ids.append(name)
        refs.append(name)
        if path and all(path):
            refs.append(".".join([*path, name]))
        if path and rng.random() < 0.4:  # a relation inside the package, maybe forward
            lines.append(_relation(rng, name, rng.choice(refs + later[k + 1:] + ["Later"])))
        if path and rng.random() < 0.5:
            lines.append("}")
            path.pop()
    lines += ["}"] * len(path)
    for k in range(rng.randint(0, 7)):
        a = rng.choice(refs)
        b = rng.choice(refs + [f"Implicit{k}"] * (k % 5 == 4))
        lines.append(_relation(rng, a, b))
    if rng.random() < 0.3:
        target = rng.choice(ids)
        lines.append(f"{target} : +extra : int")
    _notes(rng, ids, lines)
    lines.append("@enduml")
    return "\n".join(lines) + "\n"


def component_diagram(rng: random.Random, usecase: bool = False) -> str:
    lines = ["@startuml"]
    if rng.random() < 0.3:
        lines.append("left to right direction")
    ids: list[str] = []
    refs: dict[str, str] = {}
    depth = 0
    containers = ("package", "node", "folder", "frame", "cloud", "rectangle", "database")
    for k in range(rng.randint(1, 7)):
        if rng.random() < 0.2:
            lines.append(f'{rng.choice(containers)} "Box {k}" {{' if rng.random() < 0.5 else
                         f"{rng.choice(containers)} Box{k} {{")
            depth += 1
        name = _name(rng, k)
        if usecase:
            form = rng.randrange(5)
            if form == 0:
                lines.append(f"actor {name}")
                refs[name] = name
            elif form == 1:
                lines.append(f":{name} Person: as {name}")
                refs[name] = name
            elif form == 2:
                lines.append(f"({name} case) as {name}")
                refs[name] = name
            elif form == 3:
                lines.append(f'usecase "{name} goal" as {name}')
                refs[name] = name
            else:
                lines.append(f"({name})")
                refs[name] = f"({name})"
        else:
            form = rng.randrange(6)
            if form == 0:
                lines.append(f"[{name}]")
                refs[name] = f"[{name}]"
            elif form == 1:
                lines.append(f"[{name} long] as {name}")
                refs[name] = name
            elif form == 2:
                lines.append(f"component {name}" + rng.choice(("", " <<service>>")))
                refs[name] = name
            elif form == 3:
                lines.append(f"interface {name}" if rng.random() < 0.5 else f'() "{name}"')
                refs[name] = name
            elif form == 4:
                kw = rng.choice(("node", "database", "queue", "artifact", "actor", "file",
                                 "storage", "card", "agent", "collections"))
                lines.append(f'{kw} "{name} x" as {name}')
                refs[name] = name
            else:
                lines += [f"component {name} [", "  A multi-line", "  description", "]"]
                refs[name] = name
        ids.append(name)
        if depth and rng.random() < 0.4:
            lines.append("}")
            depth -= 1
    lines += ["}"] * depth
    heads = (("", ">"), ("<", ""), ("", ""), ("<", ">"), ("", "("), (")", ""))
    for _ in range(rng.randint(0, 7)):
        a, b = rng.choice(ids), rng.choice(ids)
        left, right = rng.choice(heads)
        label = rng.choice(("", "", "uses", "<<include>>", "<<extend>>"))
        body = "-[hidden]-" if rng.random() < 0.05 else _body(rng, rng.random() < 0.3)
        lines.append(f"{refs[a]} {left}{body}{right} {refs[b]}" +
                     (f" : {label}" if label else ""))
    _notes(rng, [refs[i] if refs[i][0] in "[(" else i for i in ids], lines)
    lines.append("@enduml")
    return "\n".join(lines) + "\n"


def state_diagram(rng: random.Random) -> str:
    lines = ["@startuml"]
    ids: list[str] = []

    def states(depth: int, count: int) -> list[str]:
        local: list[str] = []
        for k in range(count):
            name = f"S{depth}{len(ids)}"
            form = rng.randrange(6)
            if form == 0:
                lines.append(f"state {name}")
            elif form == 1:
                lines.append(f'state "{name} long" as {name}')
            elif form == 2:
                lines.append(f"{name} : a description")
            elif form == 3 and depth < 2:
                lines.append(f"state {name} {{")
                ids.append(name)
                inner = states(depth + 1, rng.randint(1, 3))
                lines.append(f"[*] --> {inner[0]}")
                if rng.random() < 0.3:
                    lines.append("--")
                    inner2 = states(depth + 1, 1)
                    lines.append(f"[*] --> {inner2[0]}")
                lines.append("}")
                local.append(name)
                continue
            elif form == 4:
                lines.append(f"state {name} <<{rng.choice(('choice', 'fork', 'join'))}>>")
            else:
                lines.append(f"state {name} #lightblue")
            ids.append(name)
            local.append(name)
            if k and rng.random() < 0.6:
                arrow = rng.choice(("-->", "->", "-down->", "-left->", "-[dotted]->",
                                    "-[#red]->"))
                lines.append(f"{local[k - 1]} {arrow} {name}" +
                             rng.choice(("", " : event", " : e [guard] / act")))
        return local

    top = states(0, rng.randint(1, 5))
    lines.append(f"[*] --> {top[0]}")
    if rng.random() < 0.7:
        lines.append(f"{rng.choice(top)} --> [*]")
    for _ in range(rng.randint(0, 3)):
        lines.append(f"{rng.choice(top)} --> {rng.choice(top)}")
    _notes(rng, top, lines)
    lines.append("@enduml")
    return "\n".join(lines) + "\n"


_C4_ELEMENTS = ("Person", "Person_Ext", "System", "System_Ext", "SystemDb", "SystemQueue",
                "SystemDb_Ext", "Container", "ContainerDb", "ContainerQueue", "Container_Ext",
                "ContainerDb_Ext", "Component", "ComponentDb", "Component_Ext")
_C4_PAGE = ("title All the elements", "footer drawn with PlantUML v. %version()",
            "header a header", "SetDefaultLegendEntries(\"person\\nsystem\")",
            "footer\nfooter of\ntwo lines\nend footer", "legend right\nA legend\nendlegend",
            "caption a caption", "center header\nheader\nend header")


def _c4_label(rng: random.Random, text: str) -> str:
    """A label as C4 files write them: at times with line breaks (`\\n`)."""
    return rng.choice((text, text, text.replace(" ", "\\n"), f"{text}\\nsecond line"))


def c4_diagram(rng: random.Random) -> str:
    lines = ["@startuml", ""]
    lines += rng.sample(_C4_PAGE, rng.randint(0, 3))
    ids: list[str] = []
    depth = 0
    for k in range(rng.randint(1, 7)):
        if rng.random() < 0.2:
            macro = rng.choice(("System_Boundary", "Container_Boundary", "Enterprise_Boundary",
                                "Boundary"))
            lines.append(f'{macro}(b{k}, "{_c4_label(rng, f"Boundary {k}")}") {{')
            if rng.random() < 0.2:  # an empty boundary
                lines.append("}")
            else:
                depth += 1
        alias = f"e{k}"
        macro = rng.choice(_C4_ELEMENTS)
        name = _c4_label(rng, f"Name {k}")
        if macro.startswith(("Container", "Component")):
            lines.append(f'{macro}({alias}, "{name}", "Java", "{_c4_label(rng, "Does things")}")')
        else:
            lines.append(f'{macro}({alias}, "{name}"' +
                         rng.choice((")", f', "{_c4_label(rng, "A description")}")',
                                     ', $tags="v1")')))
        ids.append(alias)
        if depth and rng.random() < 0.4:
            lines.append("}")
            depth -= 1
    lines += ["}"] * depth
    dynamic = rng.random() < 0.15  # C4_Dynamic: Rel_ and RelIndex take an index first
    for k in range(rng.randint(0, 6)):
        a, b = rng.choice(ids), rng.choice(ids)
        macro = rng.choice(("Rel", "Rel_D", "Rel_Up", "Rel_Back", "Rel_Neighbor", "BiRel",
                            "Rel_R", "Lay_R", "Lay_D", "Rel_"))
        if macro == "Rel_":  # a custom arrow, maybe with a technology
            index = f'"{k}", ' if dynamic else ""
            techn = rng.choice(("", '"HTTPS", '))
            lines.append(f'Rel_({index}{a}, {b}, "{_c4_label(rng, "custom")}", {techn}'
                         f'"{rng.choice(("o-DOWN->>", "-->", "o-RIGHT-o", "+--+"))}")')
        elif macro.startswith("Lay"):
            lines.append(f"{macro}({a}, {b})")
        else:
            lines.append(f'{macro}({a}, {b}, "{_c4_label(rng, "uses it")}"' +
                         rng.choice((")", ', "HTTPS")', ', "JSON\\nHTTPS")')))
    if rng.random() < 0.4:
        lines.append(rng.choice(("SHOW_LEGEND()", "SHOW_LEGEND(false)", "LAYOUT_WITH_LEGEND()",
                                 "SHOW_FLOATING_LEGEND()", "SHOW_FLOATING_LEGEND()\n"
                                 "Lay_Distance(LEGEND(), e0, 1)")))
    lines.append("@enduml")
    level = "Dynamic" if dynamic else "Component" if any("Component" in line
                                                         for line in lines) else \
        rng.choice(("Container", "Component"))
    lines[1] = ("!include https://raw.githubusercontent.com/plantuml-stdlib/C4-PlantUML/"
                f"master/C4_{level}.puml")
    return "\n".join(lines) + "\n"


def c4_sequence_diagram(rng: random.Random) -> str:
    """A C4-PlantUML sequence diagram: elements, boundaries closed by Boundary_End(),
    relations as messages, a legend."""
    lines = ["@startuml", "!include <C4/C4_Sequence>"]
    ids: list[str] = []
    open_boundary = False
    for k in range(rng.randint(1, 6)):
        if not open_boundary and rng.random() < 0.25:
            lines.append(f'{rng.choice(("System_Boundary", "Container_Boundary", "Boundary"))}'
                         f'(b{k}, "{_c4_label(rng, f"Boundary {k}")}")')
            open_boundary = True
        macro = rng.choice(_C4_ELEMENTS)
        tech = ', "Java"' if macro.startswith(("Container", "Component")) else ""
        lines.append(f'{macro}(e{k}, "{_c4_label(rng, f"Name {k}")}"{tech}' +
                     rng.choice((")", ', "A description")', ', $tags="v1")')))
        ids.append(f"e{k}")
        if open_boundary and rng.random() < 0.5:
            lines.append("Boundary_End()")
            open_boundary = False
    if open_boundary:
        lines.append("Boundary_End()")
    for _ in range(rng.randint(1, 6)):
        a, b = rng.choice(ids), rng.choice(ids)
        lines.append(f'{rng.choice(("Rel", "Rel"))}({a}, {b}, "{_c4_label(rng, "calls it")}"' +
                     rng.choice((")", ', "HTTPS")')))
    if rng.random() < 0.4:
        lines.append(rng.choice(("SHOW_LEGEND()", "SHOW_LEGEND(false)")))
    lines.append("@enduml")
    return "\n".join(lines) + "\n"


def diagram(rng: random.Random, kind: str | None = None) -> tuple[str, str]:
    """(kind, PlantUML text) of one random diagram."""
    kind = kind or rng.choice(KINDS)
    if kind in llm_grammar.KINDS:  # whole documents written the way models write them
        return kind, llm_grammar.document(rng, kind)
    if kind == "class":
        return kind, class_diagram(rng)
    if kind == "component":
        return kind, component_diagram(rng)
    if kind == "usecase":
        return kind, component_diagram(rng, usecase=True)
    if kind == "state":
        return kind, state_diagram(rng)
    return kind, c4_diagram(rng)


def corpus(n: int, seed: int = 0, kinds: tuple[str, ...] = KINDS) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    return [diagram(rng, kinds[k % len(kinds)]) for k in range(n)]
