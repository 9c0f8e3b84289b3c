"""One pair of files to compare (`Pair`), and the comparison of a predicted PlantUML
script with its ground truth, by either method."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from diagbench.compare import elements as el
from diagbench.compare.counts import Comparison
from diagbench.compare.diff import compare_lines
from diagbench.compare.methods import Method
from diagbench.compare.normalize import normalize_prediction
from diagbench.compare.semantic import compare_diagrams
from diagbench.diagram.sequence import SequenceDiagram
from diagbench.formats.plantuml import parse_sequence


class InputError(Exception):
    """The inputs themselves cannot be used (not a repository, unknown ref, …)."""


@dataclass(slots=True)
class Pair:
    """One file to compare: where its two sides are, and how to read them.

    `load()` returns (gold text, prediction text) or raises SourceError; files
    are read only when compared, so memory does not grow with their number.
    """

    name: str
    gold: str | None
    pred: str | None
    load: Callable[[], tuple[str, str]] | None = None
    error: str | None = None


def compare_scripts(gold_text: str, pred_text: str, method: Method = "semantic",
                    name: str = "script.puml") -> Comparison:
    """Count the errors of a predicted PlantUML script against the ground-truth script.

    The prediction is first normalised (paper §3.2.3) when the ground truth is a
    sequence diagram. Both methods use the same gold counts; files with several
    diagrams are compared block by block. The diff method's patch names the file `name`.
    """
    warnings: list[str] = []
    gold_blocks, sequence = _diagrams(gold_text, "ground truth", warnings)
    fixes: list[str] = []
    if sequence:
        pred_text, fixes = normalize_prediction(pred_text)
    pred_blocks, _ = _diagrams(pred_text, "prediction", warnings)
    if not pred_blocks:
        warnings.append("the prediction is empty: every element of the ground truth is deleted")
    elif len(gold_blocks) != len(pred_blocks):
        warnings.append(f"{len(gold_blocks)} diagrams in the ground truth, "
                        f"{len(pred_blocks)} in the prediction: compared in order")
    result = Comparison(normalizations=fixes, warnings=warnings)
    if method == "diff":
        for gold in gold_blocks:
            el.gold_counts(gold, result.components)
        result.line_diff = compare_lines(gold_text, pred_text, result, name)
        return result
    empty = SequenceDiagram()
    for k in range(max(len(gold_blocks), len(pred_blocks))):
        gold = gold_blocks[k] if k < len(gold_blocks) else empty
        pred = pred_blocks[k] if k < len(pred_blocks) else empty
        if k == 0:  # counted straight into the result, which has no counts yet
            compare_diagrams(gold, pred, result)
        else:  # added as a whole: the similarity sums add up block by block
            result.add(compare_diagrams(gold, pred))
    return result


def _diagrams(text: str, side: str, warnings: list[str]) -> tuple[list[SequenceDiagram], bool]:
    """The diagrams of `text` and whether one is a sequence diagram; problems go to `warnings`."""
    diagrams, sequence = [], False
    for parsed in parse_sequence(text):
        sequence = sequence or parsed.kind == "sequence"
        if parsed.kind not in ("sequence", "empty"):
            warnings.append(f"{side} diagram {parsed.index} looks like a {parsed.kind} diagram")
        errors = parsed.errors
        if errors:
            first = errors[0]
            warnings.append(f"{side}: {len(errors)} syntax error(s), first at line {first.line}: "
                            f"{first.reason}")
        diagrams.append(parsed.diagram)
    return diagrams, sequence
