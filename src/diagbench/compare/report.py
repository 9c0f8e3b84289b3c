"""Run a comparison over many pairs and report it: the paper's Table 2, JSON and CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from diagbench.compare import scored_files
from diagbench.compare.counts import (
    COMPONENTS,
    ERROR_KINDS,
    Comparison,
    ComponentCounts,
    LineDiff,
    Ordering,
    PairedLines,
)
from diagbench.compare.methods import Method
from diagbench.compare.pair import Pair, compare_scripts
from diagbench.compare.scored_files import ScoredFile
from diagbench.formats.source import SourceError
from diagbench.scoring import metrics

TITLES = {"participant": "Participant", "node": "Node", "edge_direction": "Direction",
           "edge_type": "Dir. type", "message": "Message", "note": "Note", "group": "Group",
           "box": "Box"}


@dataclass(slots=True)
class FileResult:
    """One pair: its comparison, or the reason it could not be compared."""

    pair: Pair
    comparison: Comparison | None
    gold_lines: int | None = None

    @property
    def ok(self) -> bool:
        return self.comparison is not None

    def as_dict(self) -> dict:
        pair, c = self.pair, self.comparison
        out: dict[str, Any] = {"gold": pair.gold, "pred": pair.pred,
                               "status": "ok" if c else "error", "error": pair.error}
        if c is None:
            return out
        out |= {
            "gold_lines": self.gold_lines,
            "components": {name: counts.as_dict() for name, counts in c.components.items()},
            "ordering": c.ordering.as_dict(),
            "total": _total(c),
            "label_similarity": c.label_similarity,
            "normalizations": c.normalizations,
            "warnings": c.warnings,
            "differences": c.differences,
        }
        if c.line_diff is not None:  # the diff method: the content of the paper's Fig. 5
            out |= {"pairs": [p.as_dict() for p in c.line_diff.pairs],
                    "unpaired_removed": c.line_diff.unpaired_removed,
                    "unpaired_added": c.line_diff.unpaired_added}
        return out

    @classmethod
    def from_json(cls, data: dict) -> FileResult:
        """A result as `as_dict` wrote it. Counts, ordering and lists come back exactly;
        the label similarity as its mean (one matched message's worth)."""
        pair = Pair(Path(data["gold"]).stem, data["gold"], data["pred"], error=data["error"])
        if data["status"] != "ok":
            return cls(pair, None)
        similarity = data["label_similarity"]
        comparison = Comparison(
            {name: ComponentCounts(**counts) for name, counts in data["components"].items()},
            Ordering(data["ordering"]["pairs"], data["ordering"]["discordant_pairs"]),
            similarity or 0.0, 0 if similarity is None else 1, list(data["normalizations"]),
            list(data["warnings"]), list(data["differences"]))
        if "pairs" in data:
            comparison.line_diff = LineDiff(
                "", [PairedLines.from_json(p) for p in data["pairs"]],
                list(data["unpaired_removed"]), list(data["unpaired_added"]))
        return cls(pair, comparison, data["gold_lines"])


def run(pairs: Iterable[Pair], method: Method,
        progress: Callable[[], None] = lambda: None) -> list[FileResult]:
    """Compare every pair that could be read; the others keep their error."""
    results = []
    for pair in pairs:
        result = FileResult(pair, None)
        if pair.error is None:
            assert pair.load is not None  # a pair is either readable or has its error
            try:
                gold_text, pred_text = pair.load()
            except SourceError as exc:
                pair.error = str(exc)
            else:
                result.comparison = compare_scripts(gold_text, pred_text, method, pair.name)
                result.gold_lines = len(gold_text.splitlines())
        results.append(result)
        progress()
    return results


def write_patches(results: Iterable[FileResult], directory: Path) -> None:
    """Write each compared file's git patch (the diff method's, paper Fig. 4) to
    DIR/<its relative path>.patch: an empty file when the scripts do not differ, no file
    for a pair that could not be compared (or was compared by the semantic method)."""
    for r in results:
        if r.comparison is not None and r.comparison.line_diff is not None:
            path = directory / f"{r.pair.name}.patch"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(r.comparison.line_diff.patch, encoding="utf-8", newline="")


def _total(c: Comparison) -> dict:
    gold, errors = c.gold_elements, c.errors
    return {"gold": gold, "errors": errors, "rate": metrics.rate(errors, gold)}


def pooled(results: list[FileResult]) -> Comparison:
    """The sums of the counts over all compared files (the files keep their texts)."""
    total = Comparison()
    for r in results:
        if r.comparison is not None:
            total.add(r.comparison, texts=False)
    return total


def report(results: list[FileResult], method: Method) -> dict:
    """The JSON document of a run (schema in the README)."""
    total = pooled(results)
    return {
        "method": method,
        "files": [r.as_dict() for r in results],
        "summary": {
            "files": len(results),
            "compared": sum(r.ok for r in results),
            "errors": sum(not r.ok for r in results),
            "components": {name: counts.as_dict(with_rates=True)
                           for name, counts in total.components.items()},
            "ordering": total.ordering.as_dict(),
            "total": _total(total),
            "label_similarity": total.label_similarity,
            "gold_lines": sum(r.gold_lines for r in results if r.ok),
        },
    }


def combined_report(results: list[FileResult], method: Method,
                    graphs: list[ScoredFile]) -> dict:
    """The JSON document of a run over sequence and other diagrams: the sequence report
    with the other files, their summary and one per language added, or those alone."""
    document = report(results, method) if results or not graphs else {}
    if graphs:
        files = [g.as_dict() for g in graphs]
        summaries = {"languages": scored_files.by_language(graphs)}
        if document:
            document["files"] += files
            document["graph_summary"] = scored_files.summary(graphs) | summaries
        else:
            document = {"method": "graph", "files": files,
                        "summary": scored_files.summary(graphs) | summaries}
    return document


def combined_table(results: list[FileResult], method: Method,
                   graphs: list[ScoredFile]) -> str:
    """What `diagbench compare` prints: Table 2 over the sequence diagrams (when there
    are any, or nothing else), then the other diagrams' scores by language."""
    parts = [table(results, method)] if results or not graphs else []
    if graphs:
        parts.append(scored_files.table(graphs))
    return "\n\n".join(parts)


def table2(total: Comparison, method: Method) -> list[str]:
    """The paper's Table 2 for pooled counts: gold counts and error rates per component."""
    width = 11
    head = f"{'':<18}" + "".join(f"{TITLES[c]:>{width}}" for c in COMPONENTS)
    lines = [f"method: {method}", head,
             f"{'Ground truth count':<18}"
             + "".join(f"{total.components[c].gold:>{width}}" for c in COMPONENTS)]
    for kind in ERROR_KINDS:
        cells = []
        for c in COMPONENTS:
            rate = total.components[c].rate(kind)
            cells.append(f"{'—' if rate is None else f'{100 * rate:.2f}':>{width}}")
        lines.append(f"{kind.capitalize() + ' (%)':<18}" + "".join(cells))
    order = total.ordering.score
    sim = total.label_similarity
    lines.append(f"ordering {order:.3f}; label similarity "
                 f"{'—' if sim is None else f'{sim:.3f}'}; "
                 f"errors {total.errors} of {total.gold_elements} gold elements")
    return lines


def table(results: list[FileResult], method: Method) -> str:
    """The paper's Table 2 for the pooled counts, then one line per file."""
    lines = table2(pooled(results), method)
    lines += ["", "per file:"]
    for r in results:
        if r.comparison is None:
            lines.append(f"  {r.pair.name}: error: {r.pair.error}")
            continue
        c, t = r.comparison, _total(r.comparison)
        rate = "—" if t["rate"] is None else f"{100 * t['rate']:.1f}%"
        lines.append(f"  {r.pair.name}: {t['errors']} errors / {t['gold']} gold ({rate}), "
                     f"ordering {c.ordering.score:.3f}"
                     + (f", {len(c.normalizations)} normalizations" if c.normalizations else "")
                     + "".join(f"\n    warning: {w}" for w in c.warnings))
    return "\n".join(lines)


def csv_text(results: list[FileResult]) -> str:
    """One row per file and component (a file that failed has one row with its error)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["gold", "pred", "status", "component", "gold_count", *ERROR_KINDS, "error"])
    for r in results:
        p = r.pair
        if r.comparison is None:
            writer.writerow([p.gold, p.pred, "error", "", "", "", "", "", p.error])
            continue
        for name, counts in r.comparison.components.items():
            writer.writerow([p.gold, p.pred, "ok", name, counts.gold, counts.insertion,
                             counts.deletion, counts.substitution, ""])
    return out.getvalue()
