"""Scoring of the codegen benchmark: each answer's code rendered by its engine and read
by its language's reader (valid = `diagbench.render.validity` draws it **as the
category asked**, paper 004 §4.1: the kind its reader reads, `Parsed.kind`, is one of
the category's `kinds`), its length by the measure of its FRL, and the summary —
validity per model × prompting × complexity (Table 2), complexity consistency, both
over all models per prompting (Table 4), and per category × FRL (Tables 6–8).

A failed call and an answer without code are invalid: in every rate's denominator,
and counted by kind (`failures`); a code that renders as another category is invalid
too, counted apart (`wrong_category`). Consistency groups a persona's codes of one FRL and
prompting across the levels (`scoring.metrics.complexity_consistency`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from diagbench.benchmarks.asking import Answer
from diagbench.benchmarks.codegen.plan import group_of
from diagbench.benchmarks.codegen.records import CodegenScore, CodegenSummary, Status
from diagbench.benchmarks.failures import Failures
from diagbench.benchmarks.intervals import grouped, metric_intervals
from diagbench.benchmarks.protocol import SampleValue
from diagbench.benchmarks.synthesis import CALL_FAILED, COMPLEXITIES, Signals, assemble
from diagbench.languages import category_named, named
from diagbench.scoring.metrics import code_lengths, complexity_consistency


def score_model(model: str, samples: Sequence[Signals], answers: Mapping[str, Answer],
                out: Path, jobs: int = 2) -> list[CodegenScore]:
    """Every sample's code for one model, rendered and measured; the codes are written
    to `out/code/` (`out` is the model's directory)."""
    from diagbench.languages.rendering import validity

    made = {s.id: assemble(s, answers) for s in samples}
    written: dict[str, str] = {}
    (out / "code").mkdir(parents=True, exist_ok=True)
    rendered: dict[str, tuple[bool, str | None]] = {}
    cells: dict[tuple[str, str], list[Signals]] = {}
    for s in samples:
        code = made[s.id].code
        if code is not None:
            cells.setdefault((s.language, s.prompting), []).append(s)
            name = f"code/{s.id}{named(s.language).suffixes[0]}"
            (out / name).write_text(code, encoding="utf-8")
            written[s.id] = name
    kinds = {s.id: _kind_read(s.language, made[s.id].code or "") for s in samples
             if s.id in written}
    for language in sorted({lang for lang, _ in cells}):
        todo = [s for (lang, _), group in sorted(cells.items()) if lang == language
                for s in group]
        codes = [made[s.id].code or "" for s in todo]
        keep = [out / "drawn" / f"{s.id}.png" for s in todo]
        for s, result in zip(todo, validity(named(language), codes, jobs, fmt="png",
                                            keep=keep), strict=True):
            rendered[s.id] = result
    lengths: dict[str, tuple[str | None, int | None]] = {}
    for group in cells.values():
        unit, sizes = code_lengths([made[s.id].code or "" for s in group])
        lengths |= {s.id: (unit, n) for s, n in zip(group, sizes, strict=True)}
    scores = []
    for s in samples:
        g = made[s.id]
        status: Status = ("ok" if g.code is not None else "call_error"
                          if g.failure == CALL_FAILED else "no_code")
        valid, error = rendered.get(s.id, (None, g.detail or g.failure))
        kind = kinds.get(s.id)
        asked = category_named(s.category).kinds
        if valid and kind not in asked:
            status, valid = "wrong_category", False
            error = (f"drawn as a diagram of kind {kind!r}, where the category "
                     f"{s.category} asked for {' or '.join(map(repr, asked))}")
        measure, length = lengths.get(s.id, (None, None))
        scores.append(CodegenScore(model, s.id, group_of(s), s.category, s.language,
                                   s.complexity, s.prompting, status,
                                   False if status == "no_code" else valid, measure, length,
                                   g.fenced if g.code is not None else None,
                                   written.get(s.id), error,
                                   f"drawn/{s.id}.png" if (out / "drawn" / f"{s.id}.png"
                                                           ).is_file() else None, kind))
    return scores


def _kind_read(language: str, code: str) -> str:
    """The kind of the diagram its engine draws from `code` (the first), as the
    language's reader reads it ("empty" when it reads none)."""
    read = named(language).read(code)
    return read[0].kind if read else "empty"


def _rate(scores: Iterable[CodegenScore]) -> dict[str, Any]:
    """{n (samples, failed calls included), valid, validity (%, None when n = 0),
    wrong_category (the codes drawn as another category: invalid)}."""
    scored = list(scores)
    valid = sum(s.valid is True for s in scored)
    return {"n": len(scored), "valid": valid,
            "validity": 100.0 * valid / len(scored) if scored else None,
            "wrong_category": sum(s.status == "wrong_category" for s in scored)}


def _groups(scores: Iterable[CodegenScore]) -> list[dict[str, float]]:
    """The lengths of each (model, group, prompting) by complexity level."""
    groups: dict[tuple[str, str, str], dict[str, float]] = {}
    for s in scores:
        if s.length is not None:
            groups.setdefault((s.model, s.group, s.prompting), {})[s.complexity] = s.length
    return list(groups.values())


def _cell(scores: list[CodegenScore]) -> dict[str, Any]:
    """Validity overall and per level, and the complexity consistency, of some scores."""
    levels = [c for c in COMPLEXITIES if any(s.complexity == c for s in scores)]
    groups = _groups(scores)
    return {**_rate(scores),
            "by_complexity": {c: _rate(s for s in scores if s.complexity == c)
                              for c in levels},
            "consistency": complexity_consistency(groups), "groups": len(groups)}


def sample_values(records: Iterable[CodegenScore]) -> list[SampleValue]:
    """Each scored code's "validity PROMPTING" (renders 1, else 0; failed calls left out,
    as `_rate` leaves them), clustered by its group: one persona's codes at every level."""
    return [SampleValue(s.model, f"validity {s.prompting}", s.id, s.group,
                        float(s.valid is True)) for s in records if s.status != "call_error"]


def _by(records: Iterable[CodegenScore], key: Callable[[CodegenScore], str]
        ) -> dict[str, list[CodegenScore]]:
    """`records` grouped by `key`, in their order."""
    out: dict[str, list[CodegenScore]] = {}
    for s in records:
        out.setdefault(key(s), []).append(s)
    return out


def _frl_cell(cell: list[CodegenScore]) -> dict[str, Any]:
    """One category × FRL × prompting (Tables 6–8): validity overall and per level,
    consistency, the length measure and mean lengths, and the kinds read in the codes
    drawn as another category."""
    measures = {s.measure for s in cell if s.measure}
    return {**_cell(cell), "measure": measures.pop() if measures else None,
            "mean_length": _mean_lengths(cell),
            "kinds_read": dict(sorted(Counter(s.kind for s in cell
                                              if s.status == "wrong_category").items()))}


def summarize(scores: Mapping[str, list[CodegenScore]]) -> CodegenSummary:
    """Per model and prompting (Table 2), per category × FRL × prompting (`cells`,
    Tables 6–8) and category × FRL (`frls`), and per prompting over all models (Table
    4); each model's validity per prompting with its naive and group-clustered
    intervals (`intervals`)."""
    models: dict[str, dict[str, Any]] = {}
    everything = [s for records in scores.values() for s in records]
    promptings = list(dict.fromkeys(s.prompting for s in everything))
    for model, records in scores.items():
        models[model] = {
            "outcomes": dict(sorted(Counter(s.status for s in records).items())),
            "failures": Failures.of((s.status, s.error, s.status != "no_code")
                                    for s in records).to_json(),
            "promptings": {p: _cell([s for s in records if s.prompting == p])
                           for p in promptings if any(s.prompting == p for s in records)},
            "cells": {key: _frl_cell(cell) for key, cell in _by(
                records, lambda s: f"{s.category}|{s.language}|{s.prompting}").items()},
            "frls": {key: _rate(cell) for key, cell in _by(
                records, lambda s: f"{s.category}|{s.language}").items()},
            "intervals": {metric: metric_intervals(values, 100) for metric, values in
                          grouped(sample_values(records)).get(model, {}).items()}}
    overall = {p: _cell([s for s in everything if s.prompting == p]) for p in promptings}
    return CodegenSummary(models, overall)


def _mean_lengths(scores: list[CodegenScore]) -> dict[str, float]:
    """The mean code length per level (of the codes there are)."""
    out = {}
    for level in COMPLEXITIES:
        sizes = [s.length for s in scores if s.complexity == level and s.length is not None]
        if sizes:
            out[level] = sum(sizes) / len(sizes)
    return out
