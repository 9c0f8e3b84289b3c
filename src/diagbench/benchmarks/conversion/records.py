"""The records of a conversion run, each with the JSON it reads and writes.

- `Conversion`: what happened to one image with one model (a line of
  MODEL/conversions.jsonl): status `converted` (a script was found; `valid` says
  whether it renders), `no_script` (the answer holds none: scored as an empty
  prediction), `call_error` or `image_error` (nothing to score; the reason is kept).
- `ConversionScore`: one model × method × file (a line of scores.jsonl).
- `TwinsMade`: what the manifest records of one family of twins (`--twins`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from diagbench.benchmarks.protocol import Problem
from diagbench.benchmarks.robustness import Robustness
from diagbench.benchmarks.twins import Twin
from diagbench.compare.methods import Method
from diagbench.compare.report import FileResult
from diagbench.compare.significance import PairedComparison
from diagbench.records import OMIT_NONE, Record

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
    #: A twin's image: its original's name and how it differs (`benchmarks.twins`).
    twin_of: str | None = field(default=None, metadata=OMIT_NONE)
    twin: Twin | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class ConversionScore:
    """One file's comparison with its ground truth, for one model and method, with the
    conversion it scores (scores.jsonl keeps its status and validity; the whole record
    is in MODEL/conversions.jsonl). A twin's line adds its family and original; a
    counterfactual twin's by the semantic method whether the script is closer to the
    original's ground truth than to the twin's (`habit`: the model converted from
    habit, not from the picture)."""

    model: str
    method: Method
    record: Conversion
    result: FileResult
    habit: bool | None = None

    def to_json(self) -> dict:
        out = {"model": self.model, "method": self.method, "conversion": self.record.status,
               "valid": self.record.valid} | self.result.as_dict()
        if self.record.twin is not None:
            out |= {"twin": self.record.twin.family, "twin_of": self.record.twin_of}
        return out | ({} if self.habit is None else {"habit": self.habit})

    @classmethod
    def from_json(cls, data: dict, record: Conversion) -> ConversionScore:
        if (data["conversion"], data["valid"]) != (record.status, record.valid):
            raise ValueError(f"scores.jsonl and conversions.jsonl disagree on {record.name}")
        return cls(data["model"], data["method"], record, FileResult.from_json(data),
                   data.get("habit"))


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
    #: With twins: how their images ended (every other figure is the originals'), and
    #: the robustness figures (`conversion.robustness`).
    twin_conversion: ConversionCounts | None = field(default=None, metadata=OMIT_NONE)
    robustness: Robustness | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class ConversionSummary(Record):
    """summary.json: every model's results, the paired comparisons of every two models
    per method, and the ground-truth files that could not be used."""

    models: dict[str, ModelResults]
    paired_tests: dict[str, list[PairedComparison]]
    gold_problems: list[Problem]


@dataclass(frozen=True, slots=True)
class Dropped(Record):
    """A twin not made: its name, why, and what was found."""

    name: str
    reason: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class TwinsMade(Record):
    """What the manifest records of one family of twins (`twins`): how many were made,
    those dropped counted by reason and listed."""

    made: int
    dropped: dict[str, int]
    rejected: list[Dropped]
