"""Twins of the diagrams of `build archqa --twins` (`benchmarks.twins`): diagrams of
their own, each naming its original (`Annotation.twin_of`) and how it differs
(`Annotation.twin`), asked the original's questions so that a model's answer on the
original can be paired with its answer on the twin.

- **counterfactual** (`ID~counterfactual`): the source changed by one edit of its
  language (`Language.edit`, seeded by `twin_rng`; where none of a few draws changes an
  answer, a name an answer holds renamed to an implausible one, `twins.renamings`),
  read again, annotated and asked by the same code as the originals, drawn by the same
  engine and checked the same way (a count the engine draws otherwise rejects the
  question about it); its source is DATA/sources/ID~counterfactual.EXT. An edit that
  changes no answer is not a counterfactual and is dropped, as is one its engine does
  not draw;
- **style** (`ID~style`): the same source drawn in a style of its language
  (`Language.styles`, a seeded choice, through `Language.prepare`), its answers the
  original's; dropped where the engine draws other counts than the original's, not
  made for a language without styles;
- **capture** (`ID~capture`): the original's image as if scanned or photographed
  (`render.capture`), seeded; its answers the original's.

A twin is asked each of its original's questions that it can still be asked (`twin_of`
the original's question), with its own answer (`original_gold` the original's where
they differ); a counterfactual none of whose questions changed answer is asked one
that did (seeded; `twin_of` None: its original was not asked it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from diagbench.benchmarks.archqa.build import (
    DIFFICULTY,
    Counts,
    Draw,
    Drawing,
    EngineCheck,
    Original,
    Source,
    Twinned,
    annotate,
    annotated,
    candidates,
    check,
    copied,
    family_of,
    flattened,
    verdict,
)
from diagbench.benchmarks.archqa.questions import kind_of, stem
from diagbench.benchmarks.archqa.records import (
    FAMILIES as DIAGRAM_FAMILIES,
)
from diagbench.benchmarks.archqa.records import (
    Annotation,
    Question,
    TwinRejection,
    TwinsInfo,
)
from diagbench.benchmarks.twins import (
    FAMILIES,
    Twin,
    TwinFamily,
    renamings,
    twin_id,
    twin_rng,
)
from diagbench.diagram.graph import GraphDiagram

NO_EDIT = "no edit of its language applies"
SAME_ANSWERS = "the edit changes no answer"
NO_STYLES = "its language declares no style"
NOT_DRAWN = "the engine does not draw it"
DRAWN_OTHERWISE = "drawn counts differ"
#: How many seeded draws of its language's edit a counterfactual tries before renaming,
#: and how many renamings then.
EDIT_TRIES = 5


def same(a: Any, b: Any) -> bool:
    """Whether two answers are the same (a list's items in any order)."""
    if isinstance(a, list) and isinstance(b, list):
        return sorted(map(repr, a)) == sorted(map(repr, b))
    return bool(a == b)


def answers(annotation: Annotation, check_: EngineCheck | None = None
            ) -> dict[str, tuple[str, Any]]:
    """Each well-defined candidate question about `annotation` (text → subtype and
    answer), checked against its drawing (`check_`) where given."""
    out = {}
    for subtype, text in dict.fromkeys(candidates(annotation)):
        answer, reason, _ = (check(annotation, subtype, text) if check_ is None
                             else verdict(check_, annotation, subtype, text))
        if reason is None:
            out[text] = (subtype, answer)
    return out


def changed(before: dict[str, tuple[str, Any]], annotation: Annotation) -> list[str]:
    """The questions of `before` well defined about `annotation` too whose answer there
    differs."""
    out = []
    for text, (subtype, answer) in before.items():
        now, reason, _ = check(annotation, subtype, text)
        if reason is None and not same(now, answer):
            out.append(text)
    return out


def _read(original: Source, code: str, ident: str) -> Source | None:
    """`code` read as a diagram of `original`'s language and family (None when it is
    not one: an error, no entity, another family)."""
    from diagbench.languages import named

    read = named(original.language).read(code)
    diagram = read[0].diagram if len(read) == 1 and not read[0].errors else None
    if not isinstance(diagram, GraphDiagram) or not diagram.entities or \
            family_of(diagram.kind) != family_of(original.parsed.kind):
        return None
    return replace(original, text=code, parsed=diagram, ident=ident)


def _counts(annotation: Annotation) -> Counts:
    return Counts(len(annotation.entities), len(annotation.relations),
                  len(annotation.clusters))


def _edited(o: Original, before: dict[str, tuple[str, Any]], seed: int
            ) -> tuple[Source | None, str]:
    """`o`'s counterfactual source, read: the first of its language's edits (up to
    `EDIT_TRIES` seeded draws), else of the renamings of a name its answers hold, that
    changes an answer, with the change in words; else None and why."""
    from diagbench.languages import named

    rng = twin_rng("counterfactual", o.asked.annotation.id, seed)
    code = o.source.text
    edits = [named(o.source.language).edit(code, rng) for _ in range(EDIT_TRIES)]
    tried = [(e, "") for e in dict.fromkeys(
        e for e in edits if e is not None and e.strip() != code.strip())]
    names = [v for k in o.asked.kept for v in flattened(k.answer)]
    tried += renamings(code, names, rng)[:EDIT_TRIES]
    why = NO_EDIT
    for edited, said in tried:
        twin = _read(o.source, edited, twin_id(o.source.ident, "counterfactual"))
        if twin is None:
            continue
        why = SAME_ANSWERS
        annotation, _ = annotate(twin.parsed, o.asked.annotation.id, "", "")
        moved = changed(before, annotation)
        if moved:
            was, now = _counts(o.asked.annotation), _counts(annotation)
            counts = [f"{k} {getattr(was, k)} → {getattr(now, k)}"
                      for k in ("entities", "relations", "clusters")
                      if getattr(was, k) != getattr(now, k)]
            said = ", ".join(filter(None, (said, *counts))) or f"\"{stem(moved[0])}\""
            return twin, f"{said} ({len(moved)} answer{'s' * (len(moved) != 1)} changed)"
    return None, why


def _question(subtype: str, text: str, answer: Any, of: str | None, original: Any
              ) -> Question:
    """A counterfactual twin's question (its id, diagram and family given when kept):
    its answer, the original's question (None: not asked there) and the original's
    answer where it differs."""
    return Question("", "", "behavioral", text, answer, subtype, kind_of(subtype),
                    DIFFICULTY[subtype], answer, twin_of=of,
                    original_gold=None if same(answer, original) else original)


def _rows(questions: Sequence[Question], annotation: Annotation, check_: EngineCheck
          ) -> list[Question]:
    """The original's questions the twin `annotation` (checked against its drawing by
    `check_`) can be asked, with its answers."""
    rows = []
    for q in questions:
        answer, reason, _ = verdict(check_, annotation, q.subtype, q.text)
        if reason is None:
            rows.append(_question(q.subtype, q.text, answer, q.id, q.gold))
    return rows


class _Maker:
    """One build's twins in the making (`make_twins`)."""

    def __init__(self, questions: list[Question], out: Path, seed: int) -> None:
        self.out, self.seed = out, seed
        self.asked: dict[str, list[Question]] = {}
        for q in questions:
            self.asked.setdefault(q.diagram, []).append(q)
        self.next = len(questions)  # the number of the next question
        self.made: dict[str, list[tuple[Annotation, list[Question]]]] = {}
        self.tried: dict[str, list[tuple[Annotation, str | None, str]]] = {}

    def keep(self, original: Annotation, family: TwinFamily, annotation: Annotation,
             change: str, questions: Sequence[Question]) -> None:
        """A twin of `original` made: its annotation and its questions, numbered."""
        made = replace(annotation, id=twin_id(original.id, family), twin_of=original.id,
                       twin=Twin(family, change))
        asked = []
        for q in questions:
            asked.append(replace(q, id=f"{made.id}/{self.next}", diagram=made.id,
                                 family=made.family))
            self.next += 1
        self.made.setdefault(original.id, []).append((made, asked))
        self.tried.setdefault(family, []).append((original, None, ""))

    def drop(self, original: Annotation, family: TwinFamily, reason: str,
             detail: str = "") -> None:
        self.tried.setdefault(family, []).append((original, reason, detail))

    def same_questions(self, original: Annotation) -> list[Question]:
        """The original's questions, to ask a twin with the same answers."""
        return [replace(q, twin_of=q.id) for q in self.asked.get(original.id, [])]

    def twinned(self, originals: Sequence[Annotation], families: Sequence[str]) -> Twinned:
        """The twins made, in the originals' order, and what build.json records."""
        made = [t for a in originals for t in self.made.get(a.id, [])]
        return Twinned(tuple(a for a, _ in made), tuple(q for _, qs in made for q in qs),
                       {family: self.info(family) for family in FAMILIES
                        if family in families}, self.seed)

    def info(self, family: str) -> TwinsInfo:
        """What build.json records of one family's twins."""
        tried = self.tried.get(family, [])
        cells: dict[str, Counter[str]] = {f: Counter() for f in DIAGRAM_FAMILIES}
        for original, reason, _ in tried:
            cells[original.family][reason or "made"] += 1
        asked = sum(len(qs) for made in self.made.values() for a, qs in made
                    if a.twin is not None and a.twin.family == family)
        dropped = Counter(reason for _, reason, _ in tried if reason is not None)
        return TwinsInfo(
            sum(reason is None for _, reason, _ in tried), asked,
            dict(sorted(dropped.items())),
            {f: {"made": n["made"]} | dict(sorted((k, v) for k, v in n.items() if k != "made"))
             for f, n in cells.items() if n},
            [TwinRejection(twin_id(original.id, family), reason, detail)
             for original, reason, detail in tried if reason is not None])


def make_twins(originals: list[Original], questions: list[Question], out: Path,
               draw: Draw, *, families: Sequence[str], seed: int) -> Twinned:
    """The twins of each family in `families` of the diagrams drawn and asked
    (`originals`, whose kept `questions` they are asked again), their images in
    out/images and a counterfactual's source in out/sources; `draw` is the build's
    render stage."""
    maker = _Maker(questions, out, seed)
    edited: dict[str, tuple[Source, str]] = {}
    styled: dict[str, Source] = {}
    before: dict[str, dict[str, tuple[str, Any]]] = {}
    for o in originals:
        ident = o.asked.annotation.id
        if "counterfactual" in families:
            before[ident] = answers(o.asked.annotation, o.asked.check)
            twin, said = _edited(o, before[ident], seed)
            if twin is None:
                maker.drop(o.asked.annotation, "counterfactual", said)
            else:
                edited[ident] = twin, said
        if "style" in families:
            _styled(o, seed, maker, styled)
    drawings = draw([s for s, _ in edited.values()] + list(styled.values())) \
        if edited or styled else {}
    for o in originals:
        ident = o.asked.annotation.id
        for family in FAMILIES:
            if family not in families:
                continue
            if family == "counterfactual" and ident in edited:
                twin, said = edited[ident]
                _drawn_counterfactual(o, twin, said, drawings[twin.ident], before[ident],
                                      maker)
            elif family == "style" and ident in styled:
                _drawn_style(o, styled[ident], drawings[styled[ident].ident], maker)
            elif family == "capture":
                _captured(o.asked.annotation, maker)
    return maker.twinned([o.asked.annotation for o in originals], families)


def capture_twins(annotations: Sequence[Annotation], questions: list[Question], out: Path,
                  seed: int) -> Twinned:
    """The capture twins of diagrams whose source is unknown (`import sadu --twins
    capture`): each image captured into out/images, asked its original's questions."""
    maker = _Maker(questions, out, seed)
    (out / "images").mkdir(parents=True, exist_ok=True)
    for a in annotations:
        _captured(a, maker)
    return maker.twinned(annotations, ("capture",))


def _styled(o: Original, seed: int, maker: _Maker, styled: dict[str, Source]) -> None:
    """`o`'s style twin's source, to be drawn in a style of its language (or why none)."""
    from diagbench.languages import named

    styles = named(o.source.language).styles()
    if not styles:
        maker.drop(o.asked.annotation, "style", NO_STYLES)
        return
    style = twin_rng("style", o.asked.annotation.id, seed).choice(styles)
    styled[o.asked.annotation.id] = replace(o.source, ident=twin_id(o.source.ident, "style"),
                                            style=style)


def _unlink(out: Path, drawing: Drawing) -> None:
    if drawing.image:
        (out / drawing.image).unlink(missing_ok=True)


def _drawn_counterfactual(o: Original, twin: Source, said: str, drawing: Drawing,
                          before: dict[str, tuple[str, Any]], maker: _Maker) -> None:
    """The counterfactual `twin` drawn: annotated and asked (its source copied), or
    dropped."""
    if not drawing.image:
        maker.drop(o.asked.annotation, "counterfactual", NOT_DRAWN, "; ".join(drawing.notes))
        return
    annotation, check_ = annotated(twin, drawing, "")
    rows = _rows(maker.asked.get(o.asked.annotation.id, []), annotation, check_)
    if all(r.original_gold is None for r in rows):
        asked = {r.text for r in rows}
        moved = [t for t in changed(before, annotation) if t not in asked
                 and verdict(check_, annotation, before[t][0], t)[1] is None]
        if not moved:
            _unlink(maker.out, drawing)
            maker.drop(o.asked.annotation, "counterfactual", SAME_ANSWERS,
                       f"none the engine draws (read {check_.read}, drawn {check_.drawn})")
            return
        text = twin_rng("question", twin_id(o.asked.annotation.id, "counterfactual"),
                        maker.seed).choice(moved)
        subtype, was = before[text]
        rows.append(_question(subtype, text, check(annotation, subtype, text)[0], None, was))
    annotation = replace(annotation, file=copied(twin, maker.out))
    maker.keep(o.asked.annotation, "counterfactual", annotation, said, rows)


def _drawn_style(o: Original, twin: Source, drawing: Drawing, maker: _Maker) -> None:
    """The style `twin` drawn: the original's questions, or dropped."""
    original = o.asked.annotation
    if not drawing.image:
        maker.drop(original, "style", NOT_DRAWN, "; ".join(drawing.notes))
        return
    expected = o.asked.check.drawn or o.asked.check.read
    if drawing.drawn != expected:
        _unlink(maker.out, drawing)
        maker.drop(original, "style", DRAWN_OTHERWISE,
                   f"style {twin.style}: drawn {drawing.drawn}, the original's {expected}")
        return
    maker.keep(original, "style", replace(original, image=drawing.image),
               f"drawn in style {twin.style}", maker.same_questions(original))


def _captured(original: Annotation, maker: _Maker) -> None:
    """`original`'s capture twin, its image written (JPEG; images/NAME~capture.jpg, NAME
    its id's last part): its original's questions."""
    from diagbench.render.capture import capture

    image = f"images/{twin_id(original.id.rpartition('/')[2], 'capture')}.jpg"
    made = capture(maker.out / original.image, maker.out / image,
                   twin_rng("capture", original.id, maker.seed))
    maker.keep(original, "capture", replace(original, image=image), made.change,
               maker.same_questions(original))
