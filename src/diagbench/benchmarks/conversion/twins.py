"""Twins of the ground truth (`eval conversion --twins`): images of their own beside
each original's, named `NAME~FAMILY` (`benchmarks.twins`), so that a model's conversion
of the original can be paired with its conversion of the twin (`conversion.robustness`).

- **counterfactual**: the ground-truth script changed by PlantUML's edit
  (`Language.edit`: a participant renamed) or, where that edit changes no element the
  sequence reader reads, by one message reversed, relabelled or left out (`rng`'s
  choice); the edited script is the twin's ground truth (RUN/gold/NAME~counterfactual.puml)
  and is drawn by PlantUML. An edit in which the semantic comparison finds no
  difference is dropped and counted, as is one PlantUML does not draw;
- **style**: the same script drawn in one of PlantUML's styles (`Language.styles`,
  through `Language.prepare`), the same ground truth; dropped where PlantUML draws
  other counts of participants or messages than in the original's drawing;
- **capture**: the original's image as if scanned (`render.capture`), the same ground
  truth — the only family made from images given with --images.

Every choice is drawn from `twin_rng(family, NAME, SEED)`: the twins of a ground truth
are the same in every run (a run scored again finds them again).
"""

from __future__ import annotations

import random
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from diagbench.benchmarks.conversion.records import Dropped, TwinsMade
from diagbench.benchmarks.conversion.samples import Sample
from diagbench.benchmarks.twins import FAMILIES, Twin, twin_id, twin_rng
from diagbench.compare.pair import compare_scripts
from diagbench.diagram.sequence import Message
from diagbench.formats.source import read_source
from diagbench.languages import named
from diagbench.render.plantuml_pipe import PlantUMLEngine

#: The seed of every twin's choices (a run has no seed: its twins are its ground
#: truth's).
SEED = 0
SAME_DIAGRAM = "no edit changes an element"
NOT_DRAWN = "the engine does not draw it"
DRAWN_OTHERWISE = "drawn counts differ"
#: A message's new label (its relabelling): no call flow is likely to hold it.
IMPLAUSIBLE_LABEL = "Zorblat Quexil"


def make_twins(originals: Sequence[Sample], families: Sequence[str], out: Path,
               engine: PlantUMLEngine) -> tuple[list[Sample], dict[str, TwinsMade]]:
    """The twins of `originals` of each family in `families` (each original's in the
    order of `FAMILIES`, the originals' order kept), written into `out` (the run's
    gold folder), and what the manifest records of each family."""
    tried: dict[str, list[Sample | Dropped]] = {}
    if "counterfactual" in families:
        tried["counterfactual"] = _counterfactuals(originals, out, engine)
    if "style" in families:
        tried["style"] = _styled(originals, out, engine)
    if "capture" in families:
        tried["capture"] = [_captured(s, out) for s in originals]
    return _ordered(originals, tried), {family: _made(twins) for family, twins in
                                        tried.items()}


def _ordered(originals: Sequence[Sample], tried: dict[str, list[Sample | Dropped]]
             ) -> list[Sample]:
    """The twins made, each original's in the order of `FAMILIES`."""
    of: dict[str, list[Sample]] = {}
    for family in FAMILIES:
        for t in tried.get(family, []):
            if isinstance(t, Sample):
                of.setdefault(t.twin_of or "", []).append(t)
    return [t for s in originals for t in of.get(s.name, [])]


def _made(twins: list[Sample | Dropped]) -> TwinsMade:
    dropped = [t for t in twins if isinstance(t, Dropped)]
    return TwinsMade(len(twins) - len(dropped),
                     dict(sorted(Counter(d.reason for d in dropped).items())), dropped)


def counterfactual(code: str, rng: random.Random) -> tuple[str, str] | None:
    """`code` changed by the first edit (PlantUML's, then `message_edits`) in which the
    semantic comparison finds a difference, with the change in words (None: none)."""
    edit = named("plantuml").edit(code, rng)
    if edit is not None and (found := _changed(code, edit, "PlantUML's edit")):
        return found
    for edited, said in message_edits(code, rng):
        if found := _changed(code, edited, said):
            return found
    return None


def _changed(code: str, edited: str, said: str) -> tuple[str, str] | None:
    """(`edited`, the edit and the differences found in words), or None where the
    semantic comparison finds none."""
    found = compare_scripts(code, edited, "semantic")
    return (edited, f"{said}: {'; '.join(found.differences)}") if found.errors else None


def message_edits(code: str, rng: random.Random) -> list[tuple[str, str]]:
    """`code`'s first sequence diagram with one message between two participants
    (`rng`'s choice) reversed, relabelled (`IMPLAUSIBLE_LABEL`) or left out, each
    written by the sequence writer, with the edit in words ([] without such a
    message)."""
    from diagbench.formats.plantuml import parse_sequence
    from diagbench.formats.plantuml.sequence_writer import write_sequence

    read = parse_sequence(code)
    if not read:
        return []
    diagram = read[0].diagram
    between = [k for k, m in enumerate(diagram.messages)
               if m.border is None and not m.is_return and not m.is_self]
    if not between:
        return []
    k = rng.choice(between)
    m = diagram.messages[k]
    where = f"message {between.index(k) + 1} ({m.sender} → {m.receiver})"

    def with_message(new: Message) -> str:
        messages = list(diagram.messages)
        messages[k] = new
        return write_sequence(replace(diagram, messages=tuple(messages)))

    return [(with_message(replace(m, sender=m.receiver, receiver=m.sender)),
             f"{where} reversed"),
            (with_message(replace(m, label=IMPLAUSIBLE_LABEL)),
             f"{where} relabelled {IMPLAUSIBLE_LABEL!r}"),
            (write_sequence(replace(diagram, order=tuple(
                o for o in diagram.order if o != ("message", k)))), f"{where} left out")]


def _counterfactuals(originals: Sequence[Sample], out: Path, engine: PlantUMLEngine
                     ) -> list[Sample | Dropped]:
    """Each original's counterfactual twin, its script and image written (or why not)."""
    edits = {s.name: counterfactual(read_source(s.gold or ""),
                                    twin_rng("counterfactual", s.name, SEED))
             for s in originals}
    edited = [(s, found) for s in originals if (found := edits[s.name]) is not None]
    images = iter(_drawn([code for _, (code, _) in edited], out, engine,
                         [twin_id(s.name, "counterfactual") for s, _ in edited]))
    results: list[Sample | Dropped] = []
    for s in originals:
        name, found = twin_id(s.name, "counterfactual"), edits[s.name]
        if found is None:
            results.append(Dropped(name, SAME_DIAGRAM))
            continue
        code, change = found
        image = next(images)
        if isinstance(image, str):
            results.append(Dropped(name, NOT_DRAWN, image))
            continue
        gold = out / f"{name}.puml"
        gold.write_text(code, encoding="utf-8")
        results.append(Sample(name, image, _title(code), gold, s.name,
                              Twin("counterfactual", change)))
    return results


def _title(code: str) -> str | None:
    from diagbench.formats.plantuml import parse_sequence

    read = parse_sequence(code)
    return read[0].diagram.title if read else None


def _drawn(sources: list[str], out: Path, engine: PlantUMLEngine, names: list[str]
           ) -> list[Path | str]:
    """Each source drawn to `out`/NAME.png (its path), or the engine's error."""
    results: list[Path | str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, render in zip(names, engine.render(sources, Path(tmp), "png"),
                                strict=True):
            if not render.ok or render.image is None:
                where = f" (line {render.error_line})" if render.error_line else ""
                results.append(f"{render.error}{where}")
                continue
            target = out / f"{name}.png"
            target.parent.mkdir(parents=True, exist_ok=True)
            render.image.replace(target)
            results.append(target)
    return results


def _styled(originals: Sequence[Sample], out: Path, engine: PlantUMLEngine
            ) -> list[Sample | Dropped]:
    """Each original drawn in a style of PlantUML's (a seeded choice), kept where
    PlantUML draws the counts it draws of the original."""
    plantuml = named("plantuml")
    codes = [read_source(s.gold or "") for s in originals]
    styles = [twin_rng("style", s.name, SEED).choice(plantuml.styles()) for s in originals]
    names = [twin_id(s.name, "style") for s in originals]
    counts = _drawn_counts([plantuml.prepare(c, "sequence", True) for c in codes]
                           + [plantuml.prepare(c, "sequence", True, style)
                              for c, style in zip(codes, styles, strict=True)], engine)
    before, after = counts[:len(codes)], counts[len(codes):]
    images = _drawn([plantuml.prepare(c, "sequence", False, style)
                     for c, style in zip(codes, styles, strict=True)], out, engine, names)
    results: list[Sample | Dropped] = []
    for s, name, style, was, now, image in zip(originals, names, styles, before, after,
                                               images, strict=True):
        if isinstance(image, str):
            results.append(Dropped(name, NOT_DRAWN, image))
        elif was != now:
            image.unlink()
            results.append(Dropped(name, DRAWN_OTHERWISE,
                                   f"drawn {now} in style {style}, the original {was}"))
        else:
            results.append(replace(s, name=name, image=image, twin_of=s.name,
                                   twin=Twin("style", f"drawn in style {style}")))
    return results


def _drawn_counts(sources: list[str], engine: PlantUMLEngine) -> list[dict[str, int] | None]:
    """What PlantUML draws of each (marked) source: its counts (None: not drawn)."""
    plantuml = named("plantuml")
    with tempfile.TemporaryDirectory() as tmp:
        return [plantuml.drawn("sequence", r.image.read_text(encoding="utf-8")).counts
                if r.ok and r.image is not None else None
                for r in engine.render(sources, Path(tmp), "svg")]


def _captured(s: Sample, out: Path) -> Sample:
    """`s`'s image as if scanned, written to `out`/NAME~capture.jpg."""
    from diagbench.render.capture import capture

    name = twin_id(s.name, "capture")
    image = out / f"{name}.jpg"
    image.parent.mkdir(parents=True, exist_ok=True)
    made = capture(s.image, image, twin_rng("capture", s.name, SEED))
    return replace(s, name=name, image=image, twin_of=s.name, twin=Twin("capture",
                                                                          made.change))
