"""The records of a conversion run, each with the JSON it reads and writes.

- `Conversion`: what happened to one image with one model (a line of
  MODEL/conversions.jsonl): status `converted` (a script was found; `valid` says
  whether it renders), `no_script` (the answer holds none: scored as an empty
  prediction), `call_error` or `image_error` (nothing to score; the reason is kept).
- `ConversionScore`: one model × method × file (a line of scores.jsonl).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from diagbench.benchmarks.protocol import Problem
from diagbench.compare.methods import Method
from diagbench.compare.report import FileResult
from diagbench.compare.significance import PairedComparison
from diagbench.records import Record

ConversionStatus = Literal["converted", "no_script", "call_error", "image_error"]
SCORED: tuple[ConversionStatus, ...] = ("converted", "no_script")  # a prediction to compare


@dataclass(frozen=True, slots=True)
class Tokens:
    input: int
    output: int
    reasoning: int


@dataclass(frozen=True, slots=True)
class Conversion(Record):
    """One image converted by one model (paths as strings, as the file keeps them)."""

    name: str
    image: str
    caption: str | None
    status: ConversionStatus
    error: str | None = None
    script: str | None = None
    valid: bool | None = None
    rendered: str | None = None
    render_error: str | None = None
    render_error_line: int | None = None
    extraction: tuple[str, ...] = ()
    normalizations: tuple[str, ...] = ()
    tokens: Tokens | None = None
    latency: float | None = None
    cached: bool | None = None
    finish_reason: str | None = None
    served_model: str | None = None


@dataclass(frozen=True, slots=True)
class ConversionScore:
    """One file's comparison with its ground truth, for one model and method, with the
    conversion it scores (scores.jsonl keeps its status and validity; the whole record
    is in MODEL/conversions.jsonl)."""

    model: str
    method: Method
    record: Conversion
    result: FileResult

    def to_json(self) -> dict:
        return {"model": self.model, "method": self.method, "conversion": self.record.status,
                "valid": self.record.valid} | self.result.as_dict()

    @classmethod
    def from_json(cls, data: dict, record: Conversion) -> ConversionScore:
        if (data["conversion"], data["valid"]) != (record.status, record.valid):
            raise ValueError(f"scores.jsonl and conversions.jsonl disagree on {record.name}")
        return cls(data["model"], data["method"], record, FileResult.from_json(data))


@dataclass(frozen=True, slots=True)
class ConversionCounts:
    """How one model's images ended (by status), its tokens and its mean latency (s)
    over the calls answered by the model itself (not from a cache or an earlier run)."""

    images: int
    statuses: dict[str, int]
    tokens: Tokens
    mean_latency_s: float | None


@dataclass(frozen=True, slots=True)
class ModelResults:
    """One model: its conversion counts and, per method, the pooled comparison of its
    scripts (the `summary` object of `diagbench compare --json`)."""

    conversion: ConversionCounts
    methods: dict[str, dict]
    #: Per headline metric ("error rate METHOD"), its naive and file-clustered intervals
    #: (`diagbench.benchmarks.intervals`).
    intervals: dict[str, dict] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ConversionSummary(Record):
    """summary.json: every model's results, the paired comparisons of every two models
    per method, and the ground-truth files that could not be used."""

    models: dict[str, ModelResults]
    paired_tests: dict[str, list[PairedComparison]]
    gold_problems: list[Problem]
