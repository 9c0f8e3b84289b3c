"""The wrong options of the association tasks (paper 004 §3.4), drawn as STRUDEL draws
them: from "contrary" categories — for each category, the categories whose personas, or
whose captions, problem statements and descriptions, cannot be mistaken for its own (the
`contrary_personas` and `contrary_categories` of STRUDEL's published category table,
StructVis' `diagram_categories.json`, as STRUDEL's `assemble_dataset` uses them).

- **persona** (`association`): four options; half the time one is the sample's own
  persona (gold its letter), else none is (gold NONE); each wrong one from a different
  contrary-persona category. A category whose personas could have asked for a diagram
  set in the sample's domain of application is skipped (STRUDEL's `exclude_domains`,
  `EXCLUDED`: biologists' and chemists' personas for a healthcare system);
- **caption** (`caption_match`): four options, own or NONE as above, crossed with easy
  or hard (each of the four one time in four): easy, every wrong one from a different
  contrary category; hard, one of them from the sample's own category;
- **problem statement / functional description** (`problem_match`,
  `description_match`): the sample's own text half the time (gold yes); else another
  sample's (gold no), from a contrary category (easy) or from its own (hard), each one
  time in four.

Where a build has too few contrary categories (STRUDEL's code would fail), the options
are filled from the other categories — of other domains first —, then from the sample's
own; no task is made when there are not four distinct options. STRUDEL's table has no
lists for use case diagrams, flowcharts and maps: every category of another domain is
contrary to them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from diagbench.languages import CATEGORIES, category_named

_SPECIFIC = ("circuit", "hdl", "logic", "quantum", "mol", "tree", "dna", "neural", "chess",
             "music")
_MODELLING = ("class", "sequence", "component", "state", "bpmn", "gantt", "sql", "mind", "kg")


def _but(keys: Sequence[str], *left_out: str) -> tuple[str, ...]:
    return tuple(k for k in keys if k not in left_out)


#: STRUDEL's category keys → diagbench's categories (its "mol" and "dna" rows hold two
#: FRLs each, which diagbench reads as two categories).
_CATEGORIES = {"circuit": ("electrical-circuit",), "hdl": ("digital-hardware",),
               "logic": ("propositional-logic",), "quantum": ("quantum-circuit",),
               "mol": ("molecule", "reaction"), "tree": ("phylogenetic-tree",),
               "dna": ("dna-sequence", "rna-structure"), "neural": ("deep-learning",),
               "chess": ("chess-board",), "music": ("music",), "class": ("class",),
               "sequence": ("sequence",), "component": ("component",), "state": ("state",),
               "bpmn": ("business-process",), "gantt": ("gantt",), "sql": ("er",),
               "mind": ("mind-map",), "kg": ("knowledge-graph",), "chart": ("chart",),
               "table": ("table",)}
_UML = ("circuit", "hdl", "logic", "quantum", "mol", "tree", "dna", "neural", "chess", "music",
        "bpmn", "gantt")
#: STRUDEL's `contrary_personas`, by its category keys.
_CONTRARY_PERSONAS: dict[str, tuple[str, ...]] = {
    "circuit": ("mol", "tree", "dna", "neural", "chess", "music", "class", "bpmn", "sql", "mind",
                "kg"),
    "hdl": ("mol", "tree", "dna", "chess", "music", "sequence", "gantt", "sql", "mind", "kg"),
    "logic": ("mol", "tree", "dna", "chess", "music", "class", "sequence", "component", "state",
              "bpmn", "gantt", "sql", "mind", "kg"),
    "quantum": ("mol", "tree", "dna", "chess", "music", "state", "gantt", "sql", "mind", "kg"),
    "tree": ("circuit", "hdl", "logic", "quantum", "neural", "chess", "music", "class", "bpmn",
             "sql", "mind", "kg"),
    "dna": ("circuit", "hdl", "logic", "quantum", "neural", "chess", "music", "sequence",
            "gantt", "sql", "mind", "kg"),
    "mol": ("circuit", "hdl", "logic", "quantum", "neural", "chess", "music", "component",
            "bpmn", "sql", "mind", "kg"),
    "neural": ("circuit", "mol", "tree", "dna", "chess", "music", "state", "gantt", "sql",
               "mind", "kg"),
    "chess": ("circuit", "hdl", "logic", "quantum", "mol", "tree", "dna", "neural", "music",
              "class", "bpmn", "sql", "kg"),
    "music": ("hdl", "logic", "quantum", "mol", "tree", "dna", "neural", "chess", "sequence",
              "gantt", "sql", "kg"),
    "class": _UML, "sequence": _UML, "component": _UML, "state": _SPECIFIC,
    **{key: _SPECIFIC for key in ("bpmn", "gantt", "sql", "mind", "kg", "chart", "table")},
}
#: STRUDEL's `contrary_categories`, by its category keys.
_CONTRARY_CATEGORIES: dict[str, tuple[str, ...]] = {
    "circuit": ("hdl", "logic", "quantum", "mol", "tree", "dna", "neural", "chess", "music",
                "class", "bpmn", "sql", "mind", "kg"),
    "hdl": ("circuit", "logic", "quantum", "mol", "tree", "dna", "neural", "chess", "music",
            "sequence", "gantt", "sql", "mind", "kg"),
    "logic": ("circuit", "hdl", "quantum", "mol", "tree", "dna", "neural", "chess", "music",
              "component", "bpmn", "sql", "mind", "kg"),
    "quantum": ("circuit", "hdl", "logic", "mol", "tree", "dna", "neural", "chess", "music",
                "state", "gantt", "sql", "mind", "kg"),
    "tree": (*_but(_SPECIFIC, "tree"), "class", "bpmn", "sql", "mind", "kg"),
    "dna": (*_but(_SPECIFIC, "dna"), "sequence", "gantt", "sql", "mind", "kg"),
    "mol": (*_but(_SPECIFIC, "mol"), "component", "bpmn", "sql", "mind", "kg"),
    "neural": (*_but(_SPECIFIC, "neural"), "state", "gantt", "sql", "mind", "kg"),
    "chess": (*_but(_SPECIFIC, "chess"), "class", "bpmn", "sql", "mind", "kg"),
    "music": (*_but(_SPECIFIC, "music"), "sequence", "gantt", "sql", "mind", "kg"),
    **{key: (*_SPECIFIC, *_but(_MODELLING, key)) for key in
       ("class", "sequence", "component", "state", "bpmn", "gantt", "sql")},
    "mind": (*_SPECIFIC, *_but(_MODELLING, "mind", "kg")),
    "kg": (*_SPECIFIC, *_but(_MODELLING, "mind", "kg")),
    "chart": (*_SPECIFIC, *_but(_MODELLING, "bpmn", "gantt")),
    "table": (*_SPECIFIC, "sequence", "component", "state", "mind"),
}
#: STRUDEL's `exclude_domains` as diagbench's domains of application name them
#: (`personas.APPLICATIONS`): a sample set in one of these is not given personas of the
#: category as wrong options (an engineer may well ask for a manufacturing system's
#: diagram, a biologist or chemist for a healthcare one, a teacher for a tune).
EXCLUDED: dict[str, frozenset[str]] = {
    **{c: frozenset({"manufacturing"}) for c in ("electrical-circuit", "digital-hardware",
                                                 "propositional-logic")},
    **{c: frozenset({"healthcare"}) for c in ("molecule", "reaction", "phylogenetic-tree",
                                              "dna-sequence", "rna-structure")},
    "music": frozenset({"education"}),
    **{c: frozenset({"education", "logistics", "banking", "insurance", "travel"})
       for c in ("business-process", "gantt")},
}


def _contrary(table: Mapping[str, tuple[str, ...]], category: str) -> tuple[str, ...]:
    """The categories contrary to `category` by STRUDEL's `table`; for a category it has
    no list for, every category of another domain."""
    key = next((k for k, ours in _CATEGORIES.items() if category in ours), None)
    if key is None or key not in table:
        domain = category_named(category).domain
        return tuple(c.name for c in CATEGORIES if c.domain != domain)
    return tuple(ours for k in table[key] for ours in _CATEGORIES[k])


def contrary_personas(category: str, application: str) -> tuple[str, ...]:
    """The categories whose personas are wrong options for a sample of `category` set in
    the domain of application `application`."""
    return tuple(c for c in _contrary(_CONTRARY_PERSONAS, category)
                 if application not in EXCLUDED.get(c, ()))


def contrary_categories(category: str) -> tuple[str, ...]:
    """The categories whose captions and texts are wrong options for `category`."""
    return _contrary(_CONTRARY_CATEGORIES, category)


def _order(category: str, contrary: Sequence[str], pools: Mapping[str, Sequence[str]],
           skip: Sequence[str], rng: random.Random) -> list[str]:
    """The categories to draw wrong options from, in order: the contrary ones present,
    shuffled; then the others but `category` and `skip` — those of another domain, then
    those of its own (whose texts are likelier to fit), each shuffled."""
    domain = category_named(category).domain
    first = [c for c in contrary if c in pools and c != category]
    rest = [c for c in pools if c not in first and c != category and c not in skip]
    far = [c for c in rest if category_named(c).domain != domain]
    near = [c for c in rest if c not in far]
    for group in (first, far, near):
        rng.shuffle(group)
    return first + far + near


def choices(own: str, category: str, pools: Mapping[str, Sequence[str]],
            contrary: Sequence[str], rng: random.Random, with_own: bool, near: bool,
            skip: Sequence[str] = ()) -> tuple[list[str], str] | None:
    """(four options, the gold letter or NONE): `own` among them when `with_own`; the
    wrong ones each of a different category, from `contrary` first (one of them from
    `category` itself when `near`), then from the other categories in `pools` (texts by
    category) but `skip` (`_order`), then from `category`. None without four distinct options."""
    wanted = 3 if with_own else 4
    mine = [t for t in pools.get(category, ()) if t != own]
    picked: list[str] = []

    def take(texts: Sequence[str]) -> None:
        if len(picked) >= wanted:
            return
        usable = sorted(set(texts) - {own} - set(picked))
        if usable:
            picked.append(rng.choice(usable))

    if near:
        take(mine)
    for other in _order(category, contrary, pools, skip, rng):
        take(pools[other])
    while len(picked) < wanted and set(mine) - set(picked):
        take(mine)
    if len(picked) < wanted:
        return None
    rng.shuffle(picked)
    if not with_own:
        return picked, "NONE"
    at = rng.randrange(4)
    picked.insert(at, own)
    return picked, "ABCD"[at]


def persona_options(own: str, category: str, application: str,
                    pools: Mapping[str, Sequence[str]], rng: random.Random
                    ) -> tuple[list[str], str] | None:
    """The persona association's options and gold: with the sample's persona or NONE,
    one time in two each, wrong ones from contrary-persona categories."""
    contrary = contrary_personas(category, application)
    skip = [c for c, excluded in EXCLUDED.items() if application in excluded]
    return choices(own, category, pools, contrary, rng, with_own=rng.random() < 0.5,
                   near=False, skip=skip)


def caption_options(own: str, category: str, pools: Mapping[str, Sequence[str]],
                    rng: random.Random) -> tuple[list[str], str] | None:
    """The caption association's options and gold: own or NONE × easy or hard, each of
    the four one time in four."""
    variant = rng.randrange(4)
    return choices(own, category, pools, contrary_categories(category), rng,
                   with_own=variant in (0, 2), near=variant >= 2)


def matched_text(own: str, category: str, pools: Mapping[str, Sequence[str]],
                 rng: random.Random) -> tuple[str, bool]:
    """(the text shown, whether it is the sample's own) of a problem or description
    match: its own one time in two; else another's, of a contrary category (easy) or of
    its own category (hard), one time in four each — the other kind, then any other
    category, when there is none; its own when there is no other text at all."""
    variant = rng.randrange(4)
    if variant < 2:
        return own, True
    mine = sorted(set(pools.get(category, ())) - {own})
    if variant == 3 and mine:
        return rng.choice(mine), False
    contrary = [c for c in contrary_categories(category)
                if c in pools and _other_than(pools[c], own)]
    others = [] if contrary else [c for c in pools
                                  if c != category and _other_than(pools[c], own)]
    source = rng.choice(contrary) if contrary else rng.choice(others) if others else None
    if source is not None:
        return rng.choice(sorted(set(pools[source]) - {own})), False
    return (rng.choice(mine), False) if mine else (own, True)


def _other_than(texts: Sequence[str], own: str) -> bool:
    """Whether `texts` hold a text other than `own`."""
    return any(t != own for t in texts)
