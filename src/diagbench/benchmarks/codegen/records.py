"""Typed records of the codegen benchmark: a score per generated sample and model, and the
summary (the paper's Tables 2 and 4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from diagbench.records import Record

#: ok: the answer has code (then `valid`); no_code: it has none (invalid, counted);
#: call_error: a call failed (left out of the rates, counted).
Status = Literal["ok", "no_code", "call_error"]


@dataclass(frozen=True, slots=True)
class CodegenScore(Record):
    """One model's code for one sample: `group` is the seed (category, FRL, persona
    number) shared by the levels of one persona; `length` is the code's length by
    `measure` ("lines" or "characters", chosen per model × FRL × prompting by
    `scoring.metrics.code_lengths`), None without code; `error` is the call's error,
    or the engine's when the code does not render; `code` is the file written
    (relative to the model's directory)."""

    model: str
    id: str
    group: str
    category: str
    language: str
    complexity: str
    prompting: str
    status: Status
    valid: bool | None = None
    measure: str | None = None
    length: int | None = None
    fenced: bool | None = None
    code: str | None = None
    error: str | None = None
    drawn: str | None = None  # the code as its engine drew it, in the model's directory


@dataclass(frozen=True, slots=True)
class CodegenSummary(Record):
    """`models`: per model, its outcomes and per prompting the validity (overall and
    per complexity) and the complexity consistency (Table 2), with the cells per FRL;
    `promptings`: per prompting over all models (Table 4)."""

    models: dict[str, dict[str, Any]] = field(default_factory=dict)
    promptings: dict[str, dict[str, Any]] = field(default_factory=dict)
