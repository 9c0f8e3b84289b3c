"""The files compared by their language's own similarity (every diagram but sequence
diagrams, which `compare.report` counts component by component): one `ScoredFile` each,
their summary per language and overall, and the table `diagbench compare` prints.

A file is scored, or not compared (`error`: its ground truth does not read, with the
reader's line and reason). A prediction that is missing, does not read or does not
render is scored 0, with why. Means are over the scored files.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from diagbench.compare.graph import element_matches
from diagbench.compare.scored import Scored
from diagbench.scoring import metrics


@dataclass(frozen=True, slots=True)
class Missing:
    """The comparison of a file with no prediction: it scores 0."""

    kind: str
    gold_diagrams: int
    valid = False
    score = 0.0
    counts_score = 0.0
    warnings: tuple[str, ...] = ("no prediction for this file",)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": self.kind, "valid": False, "score": 0.0,
                "counts_score": 0.0, "gold_diagrams": self.gold_diagrams, "pred_diagrams": 0,
                "warnings": list(self.warnings)}


@dataclass(frozen=True, slots=True)
class ScoredFile:
    """One pair of files of a language compared by its similarity (`comparison`), or
    not compared (`error`), with the engine's first error on the prediction."""

    name: str
    gold: str | None
    pred: str | None
    language: str
    comparison: Scored | None
    render_error: str | None = None
    error: str | None = None

    @property
    def missing(self) -> bool:
        return isinstance(self.comparison, Missing)

    def as_dict(self) -> dict[str, Any]:
        """The file's fields, then its comparison's (whose own gold and predicted codes,
        where it gives them, never take the paths' place)."""
        paths = {"name": self.name, "gold": self.gold, "pred": self.pred,
                 "language": self.language}
        if self.comparison is None:
            return paths | {"status": "error", "error": self.error}
        compared = self.comparison.as_dict()
        codes = {f"{k}_code": compared.pop(k) for k in ("gold", "pred") if k in compared}
        return paths | compared | codes | {"render_error": self.render_error}


def summary(files: list[ScoredFile]) -> dict[str, Any]:
    """Pooled figures over the scored files: mean score, mean counts-only score,
    validity, and the entity and relation F1 pooled over the graph-shaped comparisons
    (None when there are none); files not compared are counted as errors."""
    done = [f.comparison for f in files if f.comparison is not None]
    matches = [m for m in map(element_matches, done) if m is not None]

    def pooled(side: int) -> dict[str, Any] | None:
        if not matches:
            return None
        gold = sum(m[side].gold for m in matches)
        pred = sum(m[side].pred for m in matches)
        matched = sum(m[side].matched for m in matches)
        p, r, f = metrics.set_f1(matched, gold, pred)
        return {"gold": gold, "pred": pred, "matched": matched, "precision": round(p, 6),
                "recall": round(r, 6), "f1": round(f, 6)}

    n = len(done)
    return {"files": len(files), "compared": n, "errors": len(files) - n,
            "missing": sum(f.missing for f in files),
            "valid": sum(c.valid for c in done),
            "mean_score": round(sum(c.score for c in done) / n, 6) if n else None,
            "mean_counts_score": round(sum(c.counts_score for c in done) / n, 6) if n else None,
            "entities": pooled(0), "relations": pooled(1)}


def by_language(files: list[ScoredFile]) -> dict[str, dict[str, Any]]:
    """`summary` of each language's files, in the order they first appear."""
    languages = dict.fromkeys(f.language for f in files)
    return {lang: summary([f for f in files if f.language == lang]) for lang in languages}


def table(files: list[ScoredFile]) -> str:
    """What `diagbench compare` prints for them: per language, its summary and one line
    per file, with the warnings and why a prediction scores 0."""
    lines = ["image-to-code scores (validity × each language's own similarity), with "
             "STRUDEL's counts-only score beside them"]
    for language, s in by_language(files).items():
        mean, counts = s["mean_score"], s["mean_counts_score"]
        pooled = (f"; entity F1 {s['entities']['f1']}, relation F1 {s['relations']['f1']} "
                  "(pooled)" if s["entities"] else "")
        lines += ["", f"{language}: {s['files']} file(s), score "
                      f"{'—' if mean is None else mean} (counts-only "
                      f"{'—' if counts is None else counts}), valid {s['valid']}/"
                      f"{s['compared']}{pooled}"]
        lines += [line for f in files if f.language == language for line in _lines(f)]
    return "\n".join(lines)


def _lines(f: ScoredFile) -> list[str]:
    c = f.comparison
    if c is None:
        return [f"  {f.name}: error: {f.error}"]
    if f.missing:
        return [f"  {f.name}: no prediction for this file: score 0"]
    m = element_matches(c)
    f1s = f"entity F1 {m[0].f1:.3f}, relation F1 {m[1].f1:.3f}, " if m else ""
    drawn = "valid" if c.valid else (f"does not render ({f.render_error})" if f.render_error
                                     else "not valid")
    return ([f"  {f.name}: {c.kind}, {drawn}, {f1s}score {c.score:.3f} "
             f"(counts-only {c.counts_score:.3f})"]
            + [f"    warning: {w}" for w in c.warnings])
