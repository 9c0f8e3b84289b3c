"""baseline:synth — a seeded programmatic writer of software diagrams, the offline
stand-in for the code-writing LLM of paper 004 §3.1, so that `build structure` runs
without a key.

It reads the fields of a generation prompt (`diagbench.benchmarks.synthesis`: category,
FRL, complexity, persona, domain), draws a diagram of that category at that complexity
from a hand-written vocabulary of the domain (a generator seeded by the prompt's text:
the same prompt, the same answer), writes it in the FRL with the language's writer
(`Language.write`; sequence diagrams with `formats.plantuml.sequence_writer`) — or,
for a language with a generator of its own (SMILES, Newick, FASTA …), has that
generator write it (`Language.generate`) — and
answers in the prompt's format with a templated problem statement, functional
description and assistant answer: all of them for Fig. 7 (all-in-one), the problem
statement alone for the first sequential prompt, the rest for the second. Nothing is
checked here: the build renders and parses what it wrote like any model's answer.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from diagbench.benchmarks.personas import APPLICATIONS
from diagbench.benchmarks.structure.tasks import ANSWER_LABEL, ANSWER_TEXT
from diagbench.benchmarks.synthesis import prompt_kind
from diagbench.diagram.graph import Entity, GraphDiagram, Member, Relation
from diagbench.languages import Language, category_titled, named, titled

if TYPE_CHECKING:
    from diagbench.formats.parsed import Diagram, Parsed

#: Entities per complexity level (inclusive range).
SIZES = {"low": (3, 4), "medium": (6, 8), "high": (10, 13)}

#: Per domain of application (`personas.APPLICATIONS` of software and business): things
#: (classes, tables, components), actions (use cases, steps, messages).
DOMAINS: dict[str, tuple[list[str], list[str]]] = {
    "e-commerce": (["Customer", "Order", "Product", "Cart", "Payment", "Invoice", "Shipment",
                    "Warehouse", "Supplier", "Review", "Coupon", "Category", "Address",
                    "Refund"],
                   ["browse catalogue", "add to cart", "check out", "pay order",
                    "track shipment", "request refund", "write review", "apply coupon",
                    "confirm order", "cancel order", "restock item", "send invoice",
                    "update address", "rate seller"]),
    "healthcare": (["Patient", "Doctor", "Appointment", "Prescription", "Ward", "Nurse",
                    "Diagnosis", "Treatment", "Invoice", "Insurer", "LabTest", "Medication",
                    "Room", "Referral"],
                   ["book appointment", "admit patient", "order lab test", "record diagnosis",
                    "prescribe drug", "discharge patient", "bill insurer", "assign nurse",
                    "review results", "schedule surgery", "refer specialist",
                    "update chart", "dispense medication", "cancel visit"]),
    "banking": (["Account", "Customer", "Transaction", "Loan", "Card", "Branch", "Teller",
                 "Statement", "Transfer", "Deposit", "Fee", "Ledger", "Audit", "Alert"],
                ["open account", "deposit cash", "withdraw cash", "transfer funds",
                 "apply for loan", "block card", "issue statement", "approve loan",
                 "flag fraud", "close account", "charge fee", "reconcile ledger",
                 "verify identity", "send alert"]),
    "education": (["Student", "Course", "Teacher", "Enrollment", "Grade", "Exam", "Room",
                   "Timetable", "Assignment", "Department", "Library", "Transcript",
                   "Semester", "Advisor"],
                  ["enroll course", "submit assignment", "grade exam", "publish timetable",
                   "book room", "issue transcript", "drop course", "assign advisor",
                   "review grade", "register semester", "borrow book", "plan exam",
                   "approve thesis", "post notice"]),
    "logistics": (["Parcel", "Truck", "Driver", "Route", "Depot", "Customer", "Manifest",
                   "Scanner", "Invoice", "Carrier", "Stop", "Pallet", "Dock", "Tracker"],
                  ["scan parcel", "plan route", "load truck", "assign driver",
                   "deliver parcel", "report delay", "sign receipt", "return parcel",
                   "book dock", "update tracker", "bill customer", "weigh pallet",
                   "dispatch truck", "close manifest"]),
    "travel": (["Traveler", "Booking", "Flight", "Hotel", "Seat", "Ticket", "Payment",
                "Itinerary", "Airline", "Agent", "Voucher", "Baggage", "Visa", "Review"],
               ["search flight", "book hotel", "choose seat", "pay booking", "check in",
                "drop baggage", "cancel booking", "issue ticket", "apply visa",
                "rate hotel", "change flight", "redeem voucher", "print itinerary",
                "claim refund"]),
    "manufacturing": (["Machine", "WorkOrder", "Part", "Operator", "Sensor", "Batch",
                       "QualityCheck", "Supplier", "Line", "Schedule", "Defect",
                       "Inventory", "Shift", "Recipe"],
                      ["start batch", "inspect part", "log defect", "order parts",
                       "calibrate sensor", "plan shift", "stop line", "release batch",
                       "update recipe", "count inventory", "repair machine",
                       "approve quality", "ship batch", "assign operator"]),
    "streaming": (["User", "Subscription", "Video", "Playlist", "Channel", "Comment",
                   "Creator", "Advert", "Device", "Session", "Licence", "Genre", "Payment",
                   "Recommendation"],
                  ["sign up", "play video", "create playlist", "upload video",
                   "post comment", "renew subscription", "rate video", "skip advert",
                   "download episode", "follow channel", "report content",
                   "pay creator", "pause stream", "share link"]),
    "insurance": (["Policy", "Customer", "Claim", "Agent", "Premium", "Adjuster", "Vehicle",
                   "Property", "Invoice", "Broker", "Coverage", "Payment", "Report",
                   "Inspection"],
                  ["file claim", "assess damage", "approve claim", "pay premium",
                   "renew policy", "cancel policy", "quote premium", "inspect property",
                   "reject claim", "assign adjuster", "update coverage", "refund premium",
                   "report fraud", "close claim"]),
    "hospitality": (["Guest", "Room", "Reservation", "Housekeeper", "Invoice", "Restaurant",
                     "Table", "Menu", "Event", "Concierge", "Minibar", "Payment", "Review",
                     "Shift"],
                    ["book room", "check in guest", "clean room", "serve dinner",
                     "order supplies", "check out guest", "plan event", "reserve table",
                     "charge minibar", "answer review", "assign shift", "upgrade room",
                     "print invoice", "cancel reservation"]),
    "construction": (["Site", "Crew", "Permit", "Blueprint", "Material", "Crane", "Inspector",
                      "Contractor", "Budget", "Foundation", "Scaffold", "Delivery",
                      "Milestone", "Client"],
                     ["survey site", "apply permit", "pour foundation", "order materials",
                      "erect scaffold", "inspect works", "approve blueprint", "hire crew",
                      "schedule crane", "track budget", "hand over keys", "install roof",
                      "fix defects", "sign contract"]),
}
# every domain of application of the categories drawn from these vocabularies has one
# (the other categories' languages have generators of their own)
assert set(APPLICATIONS["software"]) | set(APPLICATIONS["business"]) <= set(DOMAINS)
_FIELD = re.compile(r"^(Category|FRL|Complexity|Persona|Domain): *(.*)$", re.M)
_CATEGORY_IN_TEXT = re.compile(r"should deal with a (.+?) and should lead to a solution "
                               r"using the code language (.+?)\. Consider that the problem "
                               r"should be of (\w+) complexity", re.S)


def _camel(text: str) -> str:
    return "".join(w.capitalize() for w in text.split())


def _snake(text: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", text).lower().replace(" ", "_")


def synth_diagram(category: str, language: str, complexity: str, domain: str,
                  rng: random.Random) -> tuple[Any, str]:
    """(the diagram model, its code in `language`) for one category × complexity."""
    things, actions = DOMAINS.get(domain, DOMAINS["e-commerce"])
    low, high = SIZES.get(complexity, SIZES["medium"])
    n = rng.randint(low, high)
    names = rng.sample(things, min(n, len(things)))
    if category == "sequence":
        return _sequence(names, actions, n, rng)
    own = named(language)
    if category in ("gantt", "mind-map"):
        planned = _planned(category, domain, names, actions, n, rng)
        return planned, own.write(planned)
    if category == "state":
        diagram = _state(language, actions, n, rng)
    elif category == "flowchart":
        diagram = _flowchart(own, actions, n, rng)
    elif category == "usecase":
        diagram = _usecase(language, names, actions, n, rng)
    elif category == "component":
        diagram = _component(language, names, n, rng)
    elif category == "er":
        diagram = _er(own, names, rng)
    else:
        diagram = _class(own, names, rng)
    return diagram, write(diagram)


def _planned(category: str, domain: str, names: list[str], actions: list[str], n: int,
             rng: random.Random) -> Any:
    """A Gantt chart of `n` steps of the domain, or a mind map of it (its things as
    branches, steps as leaves), as Mermaid's models."""
    from diagbench.languages.mermaid.synth import plan_gantt, plan_mindmap

    if category == "gantt":
        return plan_gantt(f"{domain.capitalize()} roll-out", rng.sample(actions, n), rng)
    branches = names[:max(2, n // 3)]
    return plan_mindmap(domain.capitalize(), branches,
                        rng.sample(actions, max(1, n - len(branches))), rng)


def write(diagram: GraphDiagram) -> str:
    """The code of a graph diagram in its language (the language's writer)."""
    return named(diagram.language).write(diagram)


def _tree_edges(n: int, extra: int, rng: random.Random) -> list[tuple[int, int]]:
    """A connected set of edges over n nodes (a random tree) plus `extra` more."""
    edges = [(rng.randrange(k), k) for k in range(1, n)]
    seen = set(edges)
    for _ in range(extra * 3):
        if len(edges) >= n - 1 + extra:
            break
        a, b = rng.sample(range(n), 2) if n > 1 else (0, 0)
        if a != b and (a, b) not in seen and (b, a) not in seen:
            edges.append((a, b))
            seen.add((a, b))
    return edges


_CLASS_TYPES = ("association", "inheritance", "composition", "aggregation", "dependency")
_TYPES = ("String", "int", "Date", "boolean", "float")
_HEADS = {"inheritance": ("none", "triangle"), "composition": ("filled_diamond", "none"),
          "aggregation": ("diamond", "none"), "dependency": ("none", "arrow"),
          "association": ("none", "arrow")}


def _class(language: Language, names: list[str], rng: random.Random) -> GraphDiagram:
    can = language.dialect.class_kinds
    kinds: list[Any] = ["class"] * len(names)
    if len(names) > 4:
        kinds[rng.randrange(len(names))] = "interface" if "interface" in can else "class"
    if len(names) > 7 and "abstract" in can:
        kinds[rng.randrange(len(names))] = "abstract"
    entities = []
    for name, kind in zip(names, kinds, strict=True):
        attrs = tuple(Member(f"{_snake(name)}_{w}", rng.choice(_TYPES), "-",
                             text=f"-{_snake(name)}_{w} : {t}")
                      for w, t in zip(rng.sample(["id", "name", "code", "status", "total"],
                                                 rng.randint(1, 3)), _TYPES, strict=False))
        methods = (Member("update", "void", "+", parameters="", text="+update() : void"),) \
            if rng.random() < 0.5 else ()
        entities.append(Entity(name, name, kind, attributes=attrs, methods=methods))
    relations = []
    for a, b in _tree_edges(len(names), len(names) // 4, rng):
        rtype: Any = rng.choice(_CLASS_TYPES)
        head: tuple[Any, Any] = _HEADS[rtype]
        relations.append(Relation(names[b], names[a], rtype, "single", source_head=head[0],
                                  target_head=head[1],
                                  style="dashed" if rtype == "dependency" else "solid"))
    return GraphDiagram(language.name, "class", tuple(entities), tuple(relations))


def _component(language: str, names: list[str], n: int, rng: random.Random) -> GraphDiagram:
    # the first is a component: PlantUML reads databases and queues alone as a sequence
    kinds: list[Any] = ["component"] + [rng.choice(("component", "component", "database", "queue"))
                             for _ in names[1:]]
    entities = tuple(Entity(f"{name}Service" if k == "component" else f"{name}Store",
                            f"{name} Service" if k == "component" else f"{name} Store", k)
                     for name, k in zip(names, kinds, strict=True))
    relations = tuple(Relation(entities[a].id, entities[b].id, "dependency", "single",
                               target_head="arrow", style="dashed")
                      for a, b in _tree_edges(len(entities), n // 3, rng))
    return GraphDiagram(language, "component", entities, relations)


def _usecase(language: str, names: list[str], actions: list[str], n: int, rng: random.Random
             ) -> GraphDiagram:
    actors = names[:max(1, n // 4)]
    cases = rng.sample(actions, max(2, n - len(actors)))
    entities = [Entity(a, a, "actor") for a in actors]
    entities += [Entity(f"UC{k}", c.capitalize(), "usecase") for k, c in enumerate(cases)]
    relations = [Relation(actors[k % len(actors)], f"UC{k}", "association", "none")
                 for k in range(len(cases))]
    if len(cases) > 3:
        relations.append(Relation("UC0", "UC1", "include", "single", target_head="arrow",
                                  style="dashed"))
    return GraphDiagram(language, "usecase", tuple(entities), tuple(relations))


def _state(language: str, actions: list[str], n: int, rng: random.Random) -> GraphDiagram:
    words = rng.sample(actions, min(n, len(actions)))
    states = [_camel(w.split()[-1] + " " + w.split()[0]) for w in words]
    states = list(dict.fromkeys(states))
    entities = [Entity("[*]", "", "start")] + [Entity(s, s, "state") for s in states] \
        + [Entity("[*]end", "", "end")]
    relations = [Relation("[*]", states[0], "transition", "single", target_head="arrow")]
    for k in range(1, len(states)):
        relations.append(Relation(states[k - 1], states[k], "transition", "single",
                                  target_head="arrow", label=words[k]))
    if len(states) > 3:
        relations.append(Relation(states[-1], states[1], "transition", "single",
                                  target_head="arrow", label="retry"))
    relations.append(Relation(states[-1], "[*]end", "transition", "single", target_head="arrow"))
    return GraphDiagram(language, "state", tuple(entities), tuple(relations))


def _flowchart(language: Language, actions: list[str], n: int, rng: random.Random
               ) -> GraphDiagram:
    steps = rng.sample(actions, min(n, len(actions)))
    graph_kind, node_kind = language.dialect.flowchart
    kind: Any = node_kind
    entities = [Entity(f"S{k}", s.capitalize(), kind, shape="" if kind == "process" else "box")
                for k, s in enumerate(steps)]
    relations = [Relation(f"S{k - 1}", f"S{k}", "flow" if kind == "process" else "link",
                          "single", target_head="arrow") for k in range(1, len(steps))]
    if len(steps) > 3:
        a, b = rng.sample(range(len(steps)), 2)
        relations.append(Relation(f"S{max(a, b)}", f"S{min(a, b)}",
                                  "flow" if kind == "process" else "link", "single",
                                  target_head="arrow", label="again"))
    return GraphDiagram(language.name, graph_kind, tuple(entities), tuple(relations))  # type: ignore[arg-type]


def _er(language: Language, names: list[str], rng: random.Random) -> GraphDiagram:
    ports, label = language.dialect.er_ports, language.dialect.er_label
    entities = []
    for name in names:
        cols = [Member("id", "int", flags=("pk",))]
        cols += [Member(c, rng.choice(("varchar", "int", "date")))
                 for c in rng.sample(["name", "code", "created", "status", "amount"],
                                     rng.randint(1, 3))]
        entities.append(Entity(_snake(name), _snake(name), "table", attributes=tuple(cols)))
    relations = []
    for a, b in _tree_edges(len(names), len(names) // 4, rng):
        relations.append(Relation(entities[a].id, entities[b].id, "non_identifying", "none",
                                  source_cardinality="1", target_cardinality="0..*",
                                  source_port="id" if ports else "",
                                  target_port=f"{entities[a].id}_id" if ports else "",
                                  label=label))
    if ports:  # the referencing column exists
        refs: dict[str, list[str]] = {}
        for r in relations:
            refs.setdefault(r.target, []).append(r.target_port)
        entities = [Entity(e.id, e.name, "table", attributes=e.attributes + tuple(
            Member(c, "int") for c in dict.fromkeys(refs.get(e.id, ()))))
            for e in entities]
    return GraphDiagram(language.name, "er", tuple(entities), tuple(relations))


def _sequence(names: list[str], actions: list[str], n: int, rng: random.Random
              ) -> tuple[Any, str]:
    from diagbench.diagram.sequence import Message, Participant, SequenceDiagram
    from diagbench.formats.plantuml.sequence_writer import write_sequence

    people = names[:max(2, min(len(names), n // 2 + 1))]
    participants = tuple(Participant(p, p, "actor" if k == 0 else "participant")
                         for k, p in enumerate(people))
    messages = []
    for k in range(n):
        a, b = rng.sample(range(len(people)), 2)
        messages.append(Message(people[a], people[b], "->", label=actions[k % len(actions)]))
        if rng.random() < 0.3:
            messages.append(Message(people[b], people[a], "-->", line_style="dotted",
                                    label="ok", is_return=False))
    order = tuple([("participant", k) for k in range(len(participants))]
                  + [("message", k) for k in range(len(messages))])
    diagram = SequenceDiagram(participants=participants, messages=tuple(messages),
                              order=order)  # type: ignore[arg-type]
    return diagram, write_sequence(diagram)


# --- the answer ------------------------------------------------------------------------

def fields(prompt: str) -> dict[str, str]:
    """The fields of a generation prompt (any of `synthesis`, as `Signals.fill` fills
    it): category, frl, complexity, persona, domain."""
    out = {k.lower(): v.strip() for k, v in _FIELD.findall(prompt)}
    m = _CATEGORY_IN_TEXT.search(prompt)
    if m:
        out.setdefault("category", m.group(1))
        out.setdefault("frl", m.group(2))
        out.setdefault("complexity", m.group(3))
    return out


def synth_answer(prompt: str) -> str:
    """The answer baseline:synth gives to a generation prompt, in its format: Fig. 7's
    four parts, or the problem statement alone, or the other three (sequential)."""
    f = fields(prompt)
    found, frl = category_titled(f.get("category", "")), titled(f.get("frl", ""))
    category = found.name if found else "class"
    language = frl.name if frl else "plantuml"
    complexity = f.get("complexity", "medium")
    own = named(language)
    vocabularies = tuple(DOMAINS)
    domain = f.get("domain") or vocabularies[int(hashlib.sha256(prompt.encode()).hexdigest(),
                                                 16) % len(vocabularies)]
    rng = random.Random(hashlib.sha256(prompt.encode()).hexdigest())
    if domain not in DOMAINS and not own.generates:  # its diagram is drawn from one
        domain = rng.choice(vocabularies)
    persona = f.get("persona", "a software engineer")
    title = f.get("category", "diagram").lower()
    who = persona[0].lower() + persona[1:].rstrip(".")
    problem = (f"As {who}, I need a {complexity}-complexity {title} of a {domain} system so "
               f"that my team agrees on its structure before we build it."
               if not own.generates else
               f"As {who}, I need a {complexity}-complexity {title}, written in {own.title} "
               f"and drawn by its field's own tools, to show in my work on {domain}.")
    kind = prompt_kind(prompt)
    if kind == "problem":
        return f"Problem:\n\n{problem}\n"
    if not own.generates:
        code = synth_diagram(category, language, complexity, domain, rng)[1]
        description = (f"The {title} models the main parts of the {domain} system and how "
                       f"they relate: each element is one concept of the domain, and each "
                       f"link shows how two of them depend on or lead to each other.")
    else:
        code = _within_limits(own, category, rng, complexity, found.kinds if found else ())
        description = _described(title, own.read(code))
    solution = (f"Functionality:\n\n{description}\n\nCode:\n\n```\n{code.rstrip()}\n```\n\n"
                f"Answer:\n\nHere is the {title} you asked for.\n")
    return solution if kind == "solution" else f"Problem:\n\n{problem}\n\n{solution}"


def _within_limits(own: Language, category: str, rng: random.Random, complexity: str,
                   kinds: tuple[str, ...] = (), tries: int = 20) -> str:
    """A code of the language `own`'s generator within the node limits of `category`
    (`limits.limits_of`, the build's filter) and, for a language of several categories
    (charts and tables), of one of the category's `kinds`, drawn again up to `tries`
    times (the last one otherwise)."""
    from diagbench.benchmarks.structure.counting import statistics
    from diagbench.benchmarks.structure.limits import limits_of, measures, outside

    limits = limits_of(category, own.name)
    for _ in range(tries):
        code = own.generate(rng, complexity)
        parsed = own.read(code)
        if not parsed or (kinds and parsed[0].kind not in kinds):
            continue
        stats, counts = statistics(parsed[0], False)
        if outside(limits, measures(counts, stats, code), own.name) is None:
            break
    return code


def _described(title: str, parsed: Sequence[Parsed[Diagram]]) -> str:
    """The functional description of a science diagram: what its reader counts in it."""
    counts = parsed[0].counts() if parsed else {}
    shown = ", ".join(f"{name.replace('_', ' ')} {n}" for name, n in counts.items() if n)
    return f"The {title}, as its reader counts it: {shown or 'nothing drawn'}."


#: What baseline:synth answers to a task question (it never looks at the image): the
#: chance floor of `eval structure`. Asked for the code of a language without a blind
#: code here, it writes that language's first example.
BLIND = {"number": "3", "choice": "A", "yes_no": "yes", "label": "A"}
_BLIND_CODE = {"PlantUML": "@startuml\nclass A\nclass B\nA --> B\n@enduml",
               "Mermaid": "classDiagram\n  A --> B", "Graphviz DOT": "digraph { A -> B }",
               "DBML": "Table A {\n  id int [pk]\n}"}


def blind_answer(prompt: str) -> str:
    """baseline:synth's answer to a task of `eval structure`, from its text alone."""
    if "Answer with the number only" in prompt:
        return BLIND["number"]
    if "NONE if" in prompt:
        return BLIND["choice"]
    if "Answer yes or no" in prompt:
        return BLIND["yes_no"]
    if ANSWER_LABEL in prompt or ANSWER_TEXT in prompt:
        return BLIND["label"]
    m = re.search(r"Write the (.+?) code that draws", prompt)
    frl = m.group(1) if m else "PlantUML"
    language = titled(frl)
    if frl not in _BLIND_CODE and language is not None:  # its first example, unseen
        return f"```\n{language.example_paths()[0].read_text(encoding='utf-8').rstrip()}\n```"
    return f"```\n{_BLIND_CODE.get(frl, _BLIND_CODE['PlantUML'])}\n```"


def answer_synth(request: Any) -> str:
    """baseline:synth as an offline model: a generation prompt (all-in-one or either
    sequential one) → its answer (`synth_answer`); a closed-ended question prompt (Fig.
    10) → a question about the code (`questions.answer_question`); a caption prompt (Fig.
    10) → a caption of the code (`captions.answer_caption`); any other prompt — a
    task of `eval structure` — → the blind answer (`blind_answer`)."""
    from diagbench.benchmarks.structure.captions import answer_caption
    from diagbench.benchmarks.structure.questions import PROMPT_START, answer_question
    from diagbench.models.offline import prompt_text

    text = prompt_text(request)
    if text.startswith(PROMPT_START):
        caption = answer_caption(text)
        return answer_question(text) if caption is None else caption
    return synth_answer(text) if prompt_kind(text) else blind_answer(text)
