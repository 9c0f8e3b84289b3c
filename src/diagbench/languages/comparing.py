"""Compare predicted diagram files with their ground truth, the work of `diagbench
compare` for every diagram but sequence diagrams: each pair's language detected from
the gold, both sides read once, the predictions rendered in one batch per language
(validity: the language's engine draws the code, or refuses it only for its size),
and each diagram compared by its language's own similarity (`Language.compare`) on the
parsed models — a file of several diagrams diagram by diagram (`compare.several`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from diagbench.compare.scored_files import Missing, ScoredFile
from diagbench.compare.several import SeveralComparison
from diagbench.diagram.sequence import SequenceDiagram
from diagbench.formats.source import SourceError
from diagbench.languages import Language, detect, has_suffix
from diagbench.languages.rendering import validity as drawn_validity

if TYPE_CHECKING:
    from diagbench.compare.pair import Pair
    from diagbench.compare.scored import Scored
    from diagbench.formats.parsed import Diagram, Parsed


@dataclass(frozen=True, slots=True)
class Item:
    """One pair of files to compare by their language's similarity, both read once:
    `gold` and `pred` the diagrams read, `sources` the prediction's diagrams as its
    engine draws them (`Language.split`)."""

    pair: Pair
    language: Language
    gold: tuple[Parsed[Diagram], ...]
    pred: tuple[Parsed[Diagram], ...]
    sources: tuple[str, ...]


def route(pairs: list[Pair]) -> tuple[list[Pair], list[Item], list[ScoredFile]]:
    """(sequence pairs, items, files settled without comparing): a pair goes to its
    language's similarity when its ground truth's first diagram, read by the language
    detected from the gold, is not a sequence diagram. A ground truth with errors is
    not compared (its reader's first error and line say why); a ground truth without
    prediction scores 0 in its language's table. A pair that cannot be read, or whose
    language is told only by reading (no suffix), stays with the sequences, whose route
    reports its error."""
    sequences: list[Pair] = []
    items: list[Item] = []
    settled: list[ScoredFile] = []
    for pair in pairs:
        if pair.load is None:
            language = detect(Path(pair.name), "")
            if pair.gold is None or not has_suffix(Path(pair.name)) \
                    or "sequence" in language.kinds:
                sequences.append(pair)
            else:
                settled.append(ScoredFile(pair.name, pair.gold, pair.pred, language.name,
                                          Missing(language.kinds[0], 1)))
            continue
        try:
            gold_text, pred_text = pair.load()
        except SourceError:
            sequences.append(pair)
            continue
        language = detect(Path(pair.gold or pair.name), gold_text)
        gold = tuple(language.read(gold_text))
        if not gold or isinstance(gold[0].diagram, SequenceDiagram):
            sequences.append(pair)
            continue
        broken = next((d for g in gold for d in g.errors), None)
        if broken is not None:
            settled.append(ScoredFile(pair.name, pair.gold, pair.pred, language.name, None,
                                      error=f"the ground truth does not read: line "
                                            f"{broken.line}: {broken.reason}"))
            continue
        sources = tuple(source for _, source in language.split(pred_text))
        items.append(Item(pair, language, gold, tuple(language.read(pred_text)), sources))
    return sequences, items, settled


def validity(items: list[Item], jobs: int = 2, timeout: float = 60.0
             ) -> list[list[tuple[bool, str | None]]]:
    """Per item, per predicted diagram: (valid, the engine's error), each language's
    predictions rendered in one batch."""
    out: list[list[tuple[bool, str | None]]] = [[] for _ in items]
    by_language: dict[str, list[int]] = {}
    for k, item in enumerate(items):
        by_language.setdefault(item.language.name, []).append(k)
    for indices in by_language.values():
        texts = [(k, source) for k in indices for source in items[k].sources]
        drawable = [text for _, text in texts if text.strip()]
        results = iter(drawn_validity(items[indices[0]].language, drawable, jobs, timeout))
        for k, text in texts:
            out[k].append(next(results) if text.strip() else (False, "empty prediction"))
    return out


def compare_items(items: list[Item], jobs: int = 2, timeout: float = 60.0
                  ) -> list[ScoredFile]:
    """Compare each item by its language's similarity (a file of several diagrams
    diagram by diagram, paired in order; the k-th predicted diagram is valid when its
    k-th drawing is)."""
    out = []
    for item, valid in zip(items, validity(items, jobs, timeout), strict=True):
        language = item.language
        drawn = [ok for ok, _ in valid]
        comparison: Scored
        if len(item.gold) <= 1 and len(item.pred) <= 1:
            comparison = language.compare(item.gold[0], item.pred[0] if item.pred else None,
                                          drawn[0])
        else:
            comparison = SeveralComparison(
                tuple(language.compare(g, p, drawn[min(j, len(drawn) - 1)])
                      for j, (g, p) in enumerate(zip(item.gold, item.pred, strict=False))),
                len(item.gold), len(item.pred))
        error = next((e for ok, e in valid if not ok), None)
        pair = item.pair
        out.append(ScoredFile(pair.name, pair.gold, pair.pred, language.name, comparison,
                              render_error=error))
    return out
