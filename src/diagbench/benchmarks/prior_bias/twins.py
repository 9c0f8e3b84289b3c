"""Twins of the prior-bias instances (`build prior-bias --twins`): instances of their
own in manifest.jsonl, each naming the instance it is the twin of (`twin_of`) and how
it differs (`twin`), its diagram in diagrams/ and its images beside the others.

- **counterfactual** (`ID~counterfactual`): the queried relation reversed in the
  diagram's source (B → A drawn where A → B was, or the other way; the same class
  written first, so the layout stays), so that an arrow the names agree with comes to
  contradict them and back — paper 002's prior-consistent and prior-violating
  variants, per instance (its change says which it has become). Its gold is read
  again from the twin's own source (diagbench's PlantUML reader, `ClassDiagram.holds`),
  not taken from the edit; an edit that leaves it as it was is dropped (`SAME_ANSWER`).
  Instances of one diagram asking about the same edge share its twin diagram (named
  after the first of them).
- **style** (`ID~style`): the diagram's source in one of PlantUML's styles
  (`Language.styles`, a seeded choice per diagram, written through
  `Language.prepare`), hand-drawn among them; its gold read again from that source
  (dropped where it differs: `STYLE_CHANGES`).
- **capture** (`ID~capture`): the original's image at each scale as if scanned
  (`render.capture`, seeded per diagram: the same turn, blur, noise and JPEG quality
  at every scale).

Counterfactual and style diagrams are drawn by the build's engine at the build's
scales, and as SVG first: one is dropped where the engine does not draw it
(`NOT_DRAWN`) or draws other counts of classes and relations than its source has as
read — for a style twin, its original's source (`DRAWN_OTHERWISE`). build.json counts
each family's twin instances made and dropped, by reason and per condition
(`TwinsInfo`).
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from diagbench.benchmarks.prior_bias.generate import CONDITIONS, Diagram
from diagbench.benchmarks.prior_bias.records import ImageFile, Item, TwinsInfo
from diagbench.benchmarks.prior_bias.vocabulary import Vocabulary
from diagbench.benchmarks.twins import FAMILIES, Twin, TwinFamily, twin_id, twin_rng
from diagbench.diagram.classes import ClassDiagram
from diagbench.diagram.graph import GraphDiagram
from diagbench.formats.plantuml.classes import write_class_diagram
from diagbench.languages import named
from diagbench.render.engines import Engine

NO_EDIT = "the queried relation is not drawn"
SAME_ANSWER = "the edit does not change the answer"
STYLE_CHANGES = "the style changes the answer"
UNREAD = "its source does not read as one class diagram"
NOT_DRAWN = "the engine does not draw it"
DRAWN_OTHERWISE = "drawn counts differ"
#: Threads writing capture twins.
CAPTURERS = 2

#: The build's drawing stage: diagram ids and their sources to draw, the counter of
#: what failed to draw → each drawn diagram's images by scale.
Draw = Callable[[list[str], list[str], Counter], dict[str, dict[str, ImageFile]]]


@dataclass(frozen=True, slots=True)
class Drawing:
    """A twin diagram to draw: its source as written (and drawn), the same with the
    markers its SVG is counted by, that source read (`diagram`) and the counts the
    engine must draw."""

    source: str
    marked: str
    diagram: ClassDiagram
    expected: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Tried:
    """One twin instance tried: its original, family, diagram and gold, the change in
    words, or why it is dropped."""

    original: Item
    family: TwinFamily
    diagram: str
    gold: bool
    change: str
    reason: str | None = None


def read_class(source: str) -> tuple[ClassDiagram, dict[str, int]] | None:
    """The class view of the one diagram of a PlantUML `source` and its counts (None
    when it holds not exactly one graph diagram, or one read with errors)."""
    read = named("plantuml").read(source)
    if len(read) != 1 or read[0].errors or not isinstance(read[0].diagram, GraphDiagram):
        return None
    return ClassDiagram.from_graph(read[0].diagram), read[0].counts()


def _drawing(source: str, style: str = "") -> Drawing | None:
    """`source` to draw in `style`: written, read again, to be drawn with the counts
    read from `source` (None: either does not read)."""
    language = named("plantuml")
    written = language.prepare(source, "class", False, style)
    own = read_class(written)
    expected = own if written == source else read_class(source)
    if own is None or expected is None:
        return None
    return Drawing(written, language.prepare(source, "class", True, style), own[0],
                   expected[1])


def _counterfactuals(items: Sequence[Item], diagrams: Mapping[str, Diagram],
                     vocabulary: Vocabulary) -> tuple[list[Tried], dict[str, Drawing]]:
    """Each instance's counterfactual: its queried edge reversed, its gold read from
    the edited source, and whether the names now agree with it (`vocabulary`'s prior)."""
    tried: list[Tried] = []
    drawings: dict[str, Drawing] = {}
    named_after: dict[tuple[str, int], str] = {}  # (diagram, edge) → its twin diagram
    for item in items:
        original = diagrams[item.diagram]
        edges = original.diagram.relations
        k = next((k for k, e in enumerate(edges) if e.kind == item.relation
                  and {e.source, e.target} == set(item.query)), None)
        if k is None:
            tried.append(Tried(item, "counterfactual", "", item.gold, "", NO_EDIT))
            continue
        edge = edges[k]
        ident = named_after.setdefault((item.diagram, k), twin_id(item.id, "counterfactual"))
        if ident not in drawings:
            edited = ClassDiagram(list(original.diagram.classes),
                                  [*edges[:k], edge.reversed(), *edges[k + 1:]],
                                  original.diagram.title)
            drawing = _drawing(write_class_diagram(edited, original.first))
            if drawing is None:
                tried.append(Tried(item, "counterfactual", ident, item.gold, "", UNREAD))
                continue
            drawings[ident] = drawing
        gold = drawings[ident].diagram.holds(item.relation, *item.query)
        prior = vocabulary.prior(item.relation, *item.query)
        change = (f"the {edge.kind} {edge.source} → {edge.target} reversed "
                  f"({edge.target} → {edge.source}): gold {item.gold} → {gold}" + (
                      "" if prior is None else ", now as the names suggest" if prior == gold
                      else ", now against what the names suggest"))
        tried.append(Tried(item, "counterfactual", ident, gold, change,
                           SAME_ANSWER if gold == item.gold else None))
    return tried, drawings


def _styles(items: Sequence[Item], diagrams: Mapping[str, Diagram], seed: int
            ) -> tuple[list[Tried], dict[str, Drawing]]:
    """Each diagram in a seeded one of PlantUML's styles, each of its instances' golds
    read from the styled source; the counts it must draw are its original's."""
    styles = named("plantuml").styles()
    tried: list[Tried] = []
    drawings: dict[str, Drawing] = {}
    for item in items:
        ident = twin_id(item.diagram, "style")
        style = twin_rng("style", item.diagram, seed).choice(styles)
        if ident not in drawings:
            source = diagrams[item.diagram].source()
            drawing = _drawing(source, style)
            if drawing is None:
                tried.append(Tried(item, "style", ident, item.gold, "", UNREAD))
                continue
            drawings[ident] = drawing
        gold = drawings[ident].diagram.holds(item.relation, *item.query)
        tried.append(Tried(item, "style", ident, gold, f"drawn in style {style}",
                           None if gold == item.gold else STYLE_CHANGES))
    return tried, drawings


def _drawn(engine: Engine, drawings: Mapping[str, Drawing]) -> dict[str, str]:
    """Why each drawing the engine does not draw as expected is dropped (its SVG's
    counts of classes and relations against the expected ones)."""
    language = named("plantuml")
    ids = list(drawings)
    dropped: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        results = engine.render([drawings[i].marked for i in ids], Path(tmp), "svg")
        for ident, result in zip(ids, results, strict=True):
            if not result.ok or result.image is None:
                dropped[ident] = NOT_DRAWN
                continue
            drawn = language.drawn("class", result.image.read_text(encoding="utf-8",
                                                                   errors="replace"))
            if any(drawings[ident].expected.get(k) != n for k, n in drawn.counts.items()):
                dropped[ident] = DRAWN_OTHERWISE
    return dropped


def _captures(out: Path, items: Sequence[Item], seed: int
              ) -> tuple[list[Tried], dict[str, dict[str, ImageFile]]]:
    """Each diagram's image at every scale as if scanned, written beside the others."""
    from diagbench.render.capture import capture

    firsts = list({item.diagram: item for item in items}.values())

    def captured(item: Item) -> tuple[dict[str, ImageFile], str]:
        ident, files, change = twin_id(item.diagram, "capture"), {}, ""
        for scale, image in item.images.items():
            path = f"images/{ident}@{scale}.jpg"
            made = capture(out / image.path, out / path, twin_rng("capture", item.diagram,
                                                                  seed))
            files[scale], change = ImageFile(path, made.width, made.height,
                                             made.sha256), made.change
        return files, change

    with ThreadPoolExecutor(CAPTURERS) as pool:
        done = dict(zip((i.diagram for i in firsts), pool.map(captured, firsts),
                        strict=True))
    return ([Tried(item, "capture", twin_id(item.diagram, "capture"), item.gold,
                   done[item.diagram][1]) for item in items],
            {twin_id(d, "capture"): files for d, (files, _) in done.items()})


def make_twins(out: Path, items: Sequence[Item], diagrams: Mapping[str, Diagram],
               vocabulary: Vocabulary, families: Sequence[str], seed: int, engine: Engine,
               draw: Draw) -> tuple[list[Item], dict[str, TwinsInfo]]:
    """The twin instances of `items` of each family in `families` (in the originals'
    order, each original's in the families' order), their diagrams in out/diagrams and
    images in out/images, and what build.json records of each family; `diagrams` the
    originals' by id, `vocabulary` the build's, `draw` the build's drawing stage."""
    tried: dict[str, list[Tried]] = {}
    drawings: dict[str, Drawing] = {}
    if "counterfactual" in families:
        tried["counterfactual"], made = _counterfactuals(items, diagrams, vocabulary)
        drawings |= made
    if "style" in families:
        tried["style"], made = _styles(items, diagrams, seed)
        drawings |= made
    wanted = {t.diagram for group in tried.values() for t in group if t.reason is None}
    drawings = {i: d for i, d in drawings.items() if i in wanted}
    dropped = _drawn(engine, drawings) if drawings else {}
    kept = [i for i in drawings if i not in dropped]
    for ident in kept:
        (out / "diagrams" / f"{ident}.puml").write_text(drawings[ident].source,
                                                        encoding="utf-8")
    images = draw(kept, [drawings[i].source for i in kept], Counter()) if kept else {}
    dropped |= {i: NOT_DRAWN for i in kept if i not in images}
    for ident in dropped:
        (out / "diagrams" / f"{ident}.puml").unlink(missing_ok=True)
    if "capture" in families:
        tried["capture"], captured = _captures(out, items, seed)
        images |= captured
    for family, group in tried.items():
        tried[family] = [replace(t, reason=dropped[t.diagram]) if t.reason is None
                         and t.diagram in dropped else t for t in group]
    of: dict[str, list[Item]] = {}
    for family in FAMILIES:
        for t in tried.get(family, []):
            if t.reason is None:
                source = t.original.source if family == "capture" else \
                    f"diagrams/{t.diagram}.puml"
                of.setdefault(t.original.id, []).append(replace(
                    t.original, id=twin_id(t.original.id, family), diagram=t.diagram,
                    gold=t.gold, matched=None, source=source, images=images[t.diagram],
                    twin_of=t.original.id, twin=Twin(family, t.change)))
    return ([twin for item in items for twin in of.get(item.id, [])],
            {family: _info(group) for family, group in tried.items()})


def _info(tried: Sequence[Tried]) -> TwinsInfo:
    """What build.json records of one family's twin instances."""
    cells: dict[str, Counter[str]] = {c: Counter() for c in CONDITIONS}
    for t in tried:
        cells[t.original.condition][t.reason or "made"] += 1
    dropped = Counter(t.reason for t in tried if t.reason is not None)
    return TwinsInfo(sum(t.reason is None for t in tried), dict(sorted(dropped.items())),
                     {c: {"made": n["made"]} | dict(sorted((k, v) for k, v in n.items()
                                                           if k != "made"))
                      for c, n in cells.items()})
