"""SADU's hard set (paper 003 §5.1, Table 11): diagrams whose arrows are long, many,
not rightward or overlapping.

Its published folder (``dataset/SAD_hard`` of SADU's repository) holds one folder per
pattern (``long_arrow``, ``multiple_arrow``, ``not_right_arrow``, ``overlap_arrow``),
numbered folders in each, and in those SADU's usual ``Diagram/``, ``json_object/`` and
``QA/``, each with one file: one diagram (an edited copy of one of SAD's structural diagrams; its
annotation copied from SAD, as SADU's src/benchmark_construction/
SADU_hard_generation.py does) and one hand-picked relation question. `read_sad_hard`
reads it; every question keeps its pattern (`Question.pattern`), and its family is
structural, as SADU's logs give it.

SADU's response logs of the hard set (``sythesis/hard_*``) name their pattern in
``metadata.challenge`` (``multi_arrow`` for the folder ``multiple_arrow``).
`pattern_accuracy` gives Table 11's cells: accuracy per pattern."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from diagbench.benchmarks.archqa.records import ArchQAScore, Question
from diagbench.benchmarks.archqa.sadu_import import (
    IMAGE_SUFFIXES,
    Imported,
    annotation_of,
    load_json,
)
from diagbench.benchmarks.protocol import DataError

#: The arrow patterns of Table 11, in its column order: (id as SADU's logs spell it,
#: folder in dataset/SAD_hard, the paper's column name).
PATTERNS: tuple[tuple[str, str, str], ...] = (
    ("long_arrow", "long_arrow", "Long Arrow"),
    ("multi_arrow", "multiple_arrow", "Multi Arrow"),
    ("not_right_arrow", "not_right_arrow", "Non-Rightward Arrow"),
    ("overlap_arrow", "overlap_arrow", "Overlap Arrow"),
)
PATTERN_IDS = tuple(p for p, _, _ in PATTERNS)
PATTERN_NAMES = {p: name for p, _, name in PATTERNS}


def pattern_of(name: object) -> str | None:
    """The pattern a log's ``metadata.challenge`` or a folder names (None: none)."""
    return next((p for p, folder, _ in PATTERNS if name in (p, folder)), None)


def is_sad_hard(source: Path) -> bool:
    """Whether `source` is laid out as dataset/SAD_hard (a folder per pattern)."""
    return any((source / folder).is_dir() for _, folder, _ in PATTERNS)


def _numbered(folder: Path) -> list[Path]:
    return sorted((p for p in folder.iterdir() if p.is_dir() and p.name.isdigit()),
                  key=lambda p: int(p.name))


def _one(folder: Path, suffixes: tuple[str, ...]) -> Path:
    files = sorted(p for p in folder.glob("*") if p.suffix.lower() in suffixes) \
        if folder.is_dir() else []
    if len(files) != 1:
        raise DataError(f"{folder}: {len(files)} files ({', '.join(suffixes)}), one expected")
    return files[0]


def read_sad_hard(source: Path) -> Imported:
    """The annotations and questions of dataset/SAD_hard `source` (ids
    ``structural/PATTERN/N/FILE``), and the differences between the published and the
    recomputed answers."""
    imported = Imported()
    for pattern, folder_name, _ in PATTERNS:
        folder = source / folder_name
        if not folder.is_dir():
            raise DataError(f"{folder}: missing (is {source} SADU's dataset/SAD_hard?)")
        for case in _numbered(folder):
            try:
                path = _one(case / "json_object", (".json",))
                image = _one(case / "Diagram", IMAGE_SUFFIXES)
                qa_path = _one(case / "QA", (".json",))  # its name may differ (g06-US, g06_US)
                annotation = replace(annotation_of(path, "structural", path.stem, image),
                                     id=f"structural/{pattern}/{case.name}/{path.stem}")
                imported.add(annotation, qa_path, load_json(qa_path),
                             partial(replace, pattern=pattern),
                             partial(_noted, {"pattern": pattern, "file": annotation.id}))
            except DataError as exc:  # reported; the other cases are imported
                imported.problems.append(str(exc))
    return imported


def _noted(notes: dict, difference: dict) -> dict:
    return difference | notes


def pattern_accuracy(scores: Sequence[ArchQAScore], questions: Mapping[str, Question]
                     ) -> dict[str, Any] | None:
    """Table 11's row of one model: per pattern the questions asked and the accuracy in
    percent (None when no question has a pattern)."""
    cells: dict[str, list[bool]] = {}
    for s in scores:
        q = questions.get(s.id)
        if q is not None and q.pattern is not None:
            cells.setdefault(q.pattern, []).append(s.correct)
    if not cells:
        return None
    return {p: {"n": len(v), "accuracy": round(100 * sum(v) / len(v), 2)}
            for p in PATTERN_IDS if (v := cells.get(p))}


def _cell(row: Mapping[str, Any], pattern: str) -> str:
    cell = row.get(pattern)
    return "—" if not cell else f"{cell['accuracy']:.2f} ({cell['n']})"


def table11_rows(models: Mapping[str, Mapping[str, Any]]) -> list[list[str]]:
    """Table 11's layout (model × pattern): per model its name, then per pattern
    "accuracy in percent (questions)"; no row for a model without patterns."""
    return [[name, *(_cell(m["by_pattern"], p) for p in PATTERN_IDS)]
            for name, m in models.items() if m.get("by_pattern")]


def table11_lines(models: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Table 11 for the console (no line when no model has a pattern)."""
    rows = table11_rows(models)
    if not rows:
        return []
    width = max(len(r[0]) for r in rows)
    header = "".join(f"{PATTERN_NAMES[p]:>22}" for p in PATTERN_IDS)
    return ["Table 11 (hard set): accuracy % per arrow pattern (questions)",
            f"{'model':<{width}}  {header}",
            *(f"{r[0]:<{width}}  " + "".join(f"{c:>22}" for c in r[1:]) for r in rows)]
