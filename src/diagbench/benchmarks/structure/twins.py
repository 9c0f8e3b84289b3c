"""Twins of the kept samples (`build structure --twins`): samples of their own, each
naming its original (`twin_of`) and how it differs (`twin`), so that a model's answer
on the original can be paired with its answer on the twin.

- **counterfactual** (`<id>~counterfactual`): the source changed by one edit of its
  language (`Language.edit`, seeded by the sample's id; where none of a few draws
  changes an answer, a name an answer holds renamed to an implausible one), read
  again, its facts and
  statistics recomputed by the same readers (`build.read_all`), drawn by the same engine
  (`build.render_all`); an edit that changes no exact answer is not a counterfactual and
  is dropped, as is one outside its category's node limits (the build's filter) or
  one its engine does not draw with the counts read;
- **style** (`<id>~style`): the same source drawn in one of its language's styles
  (`Language.styles`, a seeded choice, through `Language.prepare`); dropped where the
  engine draws other counts than the original's, not made for a language without
  styles;
- **capture** (`<id>~capture`): the original's image as if scanned or photographed
  (`render.capture`: turned, blurred, noisy, JPEG), seeded.

A twin is asked its own templated questions (`twin_tasks`): the facts asked of its
original, with its own answers (a counterfactual also one whose answer changed when
none asked did, and the image-to-code task with its own code as gold); the generating
model's texts, questions and captions, and the persona association, are the
original's only. Every family's twins made and dropped are counted per category in
build.json (`TwinsInfo`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from diagbench.benchmarks.structure.planned import Planned
from diagbench.benchmarks.structure.records import (
    Gold,
    Rejection,
    StructureSample,
    StructureTask,
    TwinsInfo,
)
from diagbench.benchmarks.structure.tasks import fact_question, image_to_code_question
from diagbench.benchmarks.twins import FAMILIES, Twin, renamings, twin_id, twin_rng
from diagbench.diagram.facts import TASK_TYPES as FACT_TYPES
from diagbench.diagram.facts import Fact
from diagbench.languages import named

NO_EDIT = "no edit of its language applies"
SAME_ANSWERS = "the edit changes no answer"
OUTSIDE_LIMITS = "outside the category's node limits"
NO_STYLES = "its language declares no style"
NOT_DRAWN = "the engine does not draw it"
DRAWN_OTHERWISE = "drawn counts differ"
#: How many seeded draws of its language's edit a counterfactual tries before renaming,
#: and how many renamings then.
EDIT_TRIES = 5
def _answers(facts: Sequence[Fact]) -> dict[str, object]:
    """Each question's answer, a set answer as a sorted tuple (its order is not drawn)."""
    return {f.question: tuple(sorted(f.answer)) if isinstance(f.answer, tuple) else f.answer
            for f in facts}


def changed_answers(original: Sequence[Fact], twin: Sequence[Fact]) -> list[str]:
    """The questions asked of both whose answers differ."""
    before, after = _answers(original), _answers(twin)
    return [q for q, a in after.items() if q in before and before[q] != a]


def _counterfactual(s: Planned, seed: int, read: Callable[[list[Planned]], None]
                    ) -> Planned:
    """`s`'s counterfactual twin, read: the first of its language's edits (up to
    `EDIT_TRIES` seeded draws), else of the renamings (`renamed`), that changes an
    answer; else the last one tried, with why it is dropped."""
    rng = twin_rng("counterfactual", s.id, seed)
    code = (s.code or "").strip()
    edits = [named(s.language).edit(s.code or "", rng) for _ in range(EDIT_TRIES)]
    tried: list[tuple[str, str]] = [(e, "") for e in dict.fromkeys(
        e for e in edits if e is not None and e.strip() != code)]
    tried += renamed(s.code or "", s.facts, rng)[:EDIT_TRIES]
    twin = Planned(twin_id(s.id, "counterfactual"), s.category, s.language, s.complexity,
                   s.persona, s.domain, fenced=s.fenced, twin_of=s.id, reason=NO_EDIT)
    for edited, said in tried:
        twin = Planned(twin.id, s.category, s.language, s.complexity, s.persona, s.domain,
                       code=edited, fenced=s.fenced, twin_of=s.id)
        read([twin])
        if twin.reason is None:
            _check_counterfactual(twin, s, said)
        if twin.reason is None:
            break
    return twin


def renamed(code: str, facts: Sequence[Fact], rng: random.Random) -> list[tuple[str, str]]:
    """`code` with a name the facts answer with (a label, or an item of a set) renamed
    to an implausible one (`twins.renamings`), one per such name, in the facts' order."""
    return renamings(code, (a for f in facts for a in (
        f.answer if isinstance(f.answer, tuple) else (f.answer,))), rng)


def _styled(s: Planned, seed: int) -> Planned:
    """`s`'s style twin: its source, to be drawn in a style of its language's (or why
    none)."""
    twin = replace(s, id=twin_id(s.id, "style"), problem=None, description=None,
                   judge=None, model_question=None, caption=None, image="", drawn=None,
                   twin_of=s.id, reason=None, detail="")
    styles = named(s.language).styles()
    if not styles:
        twin.reason = NO_STYLES
    else:
        twin.style = twin_rng("style", s.id, seed).choice(styles)
        twin.twin = Twin("style", f"drawn in style {twin.style}")
    return twin


def _check_counterfactual(twin: Planned, original: Planned, said: str = "") -> None:
    """Drop a counterfactual that changes no answer, or whose edit takes it outside its
    category's node limits (the build's filter, `limits`: the twin of a diagram at a
    limit must not cross it); else say what changed."""
    from diagbench.benchmarks.structure.limits import limits_of, measures, outside

    changed = changed_answers(original.facts, twin.facts)
    if not changed:
        twin.reason, twin.detail = SAME_ANSWERS, f"counts {twin.counts}"
        return
    why = outside(limits_of(twin.category, twin.language),
                  measures(twin.counts, twin.statistics, twin.code or ""), twin.language)
    if why is not None:
        twin.reason, twin.detail = OUTSIDE_LIMITS, why
        return
    counts = [f"{k.replace('_', ' ')} {original.counts.get(k, 0)} → {n}"
              for k, n in twin.counts.items() if original.counts.get(k, 0) != n]
    counts += [f"{k.replace('_', ' ')} {n} → 0" for k, n in original.counts.items()
               if k not in twin.counts and n]
    said = ", ".join(filter(None, (said, *counts))) or f"\"{changed[0]}\""
    twin.twin = Twin("counterfactual",
                     f"{said} ({len(changed)} answer{'s' * (len(changed) != 1)} changed)")


def make_twins(kept: list[Planned], families: Sequence[str], out: Path, seed: int,
               read: Callable[[list[Planned]], None],
               draw: Callable[[list[Planned]], dict[str, str]]
               ) -> tuple[list[Planned], dict[str, TwinsInfo], dict[str, str]]:
    """The twins of the kept samples of each family in `families` (those made, in
    the originals' order, their images in out/images), what build.json records of each
    family, and the versions of the engines that drew them; `read` and `draw` are the
    build's own stages (`build.read_all`, `build.render_all` into `out`)."""
    by_id = {s.id: s for s in kept}
    tried: dict[str, list[Planned]] = {}
    if "counterfactual" in families:
        tried["counterfactual"] = [_counterfactual(s, seed, read) for s in kept]
    if "style" in families:
        tried["style"] = [_styled(s, seed) for s in kept]
    drawn = [t for group in tried.values() for t in group if t.reason is None]
    versions = draw(drawn) if drawn else {}
    for twin in drawn:
        original = by_id[twin.twin_of or ""]
        if not twin.image:
            twin.reason = twin.reason or NOT_DRAWN
        elif twin.drawn is None or not twin.drawn_as_read():
            twin.reason = DRAWN_OTHERWISE
            twin.detail = f"read {twin.counts}, drawn {twin.drawn}" + (
                f" (the original's {original.counts})" if twin.style else "")
        if twin.reason is not None and twin.image:
            (out / twin.image).unlink(missing_ok=True)
    if "capture" in families:
        tried["capture"] = [_captured(s, out, seed) for s in kept]
    of: dict[str, list[Planned]] = {}
    for family in FAMILIES:
        for t in tried.get(family, []):
            if t.reason is None:
                of.setdefault(t.twin_of or "", []).append(t)
    made = [t for s in kept for t in of.get(s.id, [])]
    return made, {family: _info(kept, tried[family]) for family in families
                  if family in tried}, versions


def _captured(s: Planned, out: Path, seed: int) -> Planned:
    """`s`'s capture twin, its image written (JPEG)."""
    from diagbench.render.capture import capture

    twin = replace(s, id=twin_id(s.id, "capture"), problem=None, description=None,
                   judge=None, model_question=None, caption=None, twin_of=s.id)
    image = f"images/{twin.id}.jpg"
    made = capture(out / s.image, out / image, twin_rng("capture", s.id, seed))
    twin.image, twin.width, twin.height, twin.sha256 = image, made.width, made.height, \
        made.sha256
    twin.twin = Twin("capture", made.change)
    return twin


def _info(kept: list[Planned], twins: list[Planned]) -> TwinsInfo:
    """What build.json records of one family's twins."""
    category = {s.id: s.category for s in kept}
    cells: dict[str, Counter[str]] = {s.category: Counter() for s in kept}
    for t in twins:
        cells[category[t.twin_of or ""]]["made" if t.reason is None else t.reason] += 1
    dropped = Counter(t.reason for t in twins if t.reason is not None)
    return TwinsInfo(sum(t.reason is None for t in twins), dict(sorted(dropped.items())),
                     {c: {"made": n["made"]} | dict(sorted((k, v) for k, v in n.items()
                                                           if k != "made"))
                      for c, n in cells.items()},
                     [Rejection(t.id, t.reason, t.detail) for t in twins
                      if t.reason is not None])


def twin_tasks(twins: list[StructureSample], tasks: list[StructureTask],
               facts: Mapping[str, list[Fact]], seed: int) -> list[StructureTask]:
    """The tasks of the twins: each fact task of the original whose question the twin
    is asked too, with the twin's answer (`twin_of` the original's task,
    `original_gold` its gold where they differ); a counterfactual none of whose
    questions changed answer is asked one that did (seeded; `original_gold` the
    original's answer), and the image-to-code task, its own code as gold."""
    asked: dict[str, list[StructureTask]] = {}
    codes: dict[str, str] = {}
    for t in tasks:
        if t.task in FACT_TYPES:
            asked.setdefault(t.sample, []).append(t)
        elif t.task == "image_to_code":
            codes[t.sample] = t.id
    out: list[StructureTask] = []
    for twin in twins:
        assert twin.twin is not None and twin.twin_of is not None
        own = {fact_question(f)[0]: (f.task, *fact_question(f)[1:]) for f in facts[twin.id]}
        before = {fact_question(f)[0]: fact_question(f)[1] for f in facts[twin.twin_of]}
        rows: list[tuple[str, str, Gold, str, str | None, Gold | None]] = [
            (t.task, t.question, own[t.question][1], own[t.question][2], t.id,
             None if _same(t.gold, own[t.question][1]) else t.gold)
            for t in asked.get(twin.twin_of, []) if t.question in own]
        if twin.twin.family == "counterfactual" and all(r[5] is None for r in rows):
            changed = [q for q, (_, gold, _) in own.items()
                       if q in before and not _same(before[q], gold)]
            if changed:
                q = twin_rng("question", twin.id, seed).choice(changed)
                rows.append((own[q][0], q, own[q][1], own[q][2], None, before[q]))
        for n, (task, question, gold, kind, of, original_gold) in enumerate(rows):
            out.append(StructureTask(f"{twin.id}/{task}/{n}", twin.id, task, twin.category,
                                     twin.language, twin.frl, twin.image, question, gold,
                                     answer_type=kind, twin_of=of,
                                     original_gold=original_gold))
        if twin.twin.family == "counterfactual":
            out.append(StructureTask(f"{twin.id}/image_to_code/{len(rows)}", twin.id,
                                     "image_to_code", twin.category, twin.language, twin.frl,
                                     twin.image, image_to_code_question(twin.frl), twin.code,
                                     twin_of=codes.get(twin.twin_of)))
    return out


def _same(a: Gold, b: Gold) -> bool:
    """Whether two golds are the same answer (a set's in any order)."""
    if isinstance(a, tuple | list) and isinstance(b, tuple | list):
        return sorted(a) == sorted(b)
    return a == b
