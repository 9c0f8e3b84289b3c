"""Typed records of the codegen benchmark: a score per generated sample and model, and the
summary (the paper's Tables 2 and 4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from diagbench.records import Record

#: ok: the answer has code (then `valid`: it renders); wrong_category: its code renders,
#: but as another kind of diagram than the category asked for (invalid, counted apart);
#: no_code: it has none (invalid, counted); call_error: a call failed (left out of the
#: rates, counted).
Status = Literal["ok", "wrong_category", "no_code", "call_error"]


@dataclass(frozen=True, slots=True)
class CodegenScore(Record):
    """One model's code for one sample: `group` is the seed (category, FRL, persona
    number) shared by the levels of one persona; `length` is the code's length by
    `measure` ("lines" or "characters", chosen per model × FRL × prompting by
    `scoring.metrics.code_lengths`), None without code; `kind` is the diagram kind
    its language's reader reads in the code (`Parsed.kind` of the diagram drawn: the
    first), None without code; `error` is the call's error, the engine's when the code
    does not render, or the kind read and the kinds asked when it renders as another
    category; `code` is the file written (relative to the model's directory)."""

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
    kind: str | None = None


@dataclass(frozen=True, slots=True)
class CodegenSummary(Record):
    """`models`: per model, its outcomes and per prompting the validity (overall and
    per complexity) and the complexity consistency (Table 2), with the cells per
    category × FRL × prompting (`cells`, keyed "CATEGORY|FRL|PROMPTING": the paper's
    Tables 6–8) and per category × FRL over every prompting (`frls`, keyed
    "CATEGORY|FRL": the leaderboard's columns); `promptings`: per prompting over all
    models (Table 4)."""

    models: dict[str, dict[str, Any]] = field(default_factory=dict)
    promptings: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, model in self.models.items():
            if "cells" not in model:
                raise ValueError(f"{name} has no cells per category × FRL (a summary of an "
                                 f"older diagbench: `diagbench score codegen RUN` writes it "
                                 f"again from the saved answers, no model called)")
