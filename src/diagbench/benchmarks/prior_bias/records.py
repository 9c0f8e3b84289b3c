"""The records of the prior-bias benchmark, each with the JSON it reads and writes:
`Item` (a line of DIR/manifest.jsonl: one instance with its images, or a twin's),
`TwinsInfo` (build.json's account of one family of twins) and `PriorBiasScore` (a line
of RUN/scores.jsonl: one model × instance × scale)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Literal

from diagbench.benchmarks.prior_bias.generate import CONDITIONS, Instance
from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS
from diagbench.benchmarks.robustness import Robustness
from diagbench.benchmarks.twins import Twin, TwinFamily
from diagbench.records import OMIT_NONE, Record
from diagbench.scoring.metrics import Prerequisite


@dataclass(frozen=True, slots=True)
class ImageFile:
    """One rendered input: its path in the data directory, size and sha256."""

    path: str
    width: int
    height: int
    sha256: str


@dataclass(frozen=True, slots=True)
class Item(Instance, Record):
    """One instance as the data directory lists it (the diagram it asks about, the
    relation and condition, the class names, the queried pair (A, B), the gold answer
    — A → B is drawn —, its matched instance), with its source and images by scale; a
    twin's names the instance it is the twin of (`twin_of`) and how it differs (`twin`)."""

    source: str = ""
    images: dict[str, ImageFile] = field(default_factory=dict)
    twin_of: str | None = field(default=None, metadata=OMIT_NONE)
    twin: Twin | None = field(default=None, metadata=OMIT_NONE)

    def __post_init__(self) -> None:
        if self.relation not in RELATIONS or self.condition not in CONDITIONS:
            raise ValueError(f"unknown relation {self.relation!r} or condition "
                             f"{self.condition!r}")
        if len(self.query) != 2:
            raise ValueError("query is not a pair of class names")

    @classmethod
    def of(cls, instance: Instance, images: dict[str, ImageFile]) -> Item:
        return cls(**{f.name: getattr(instance, f.name) for f in fields(Instance)},
                   source=f"diagrams/{instance.diagram}.puml", images=images)


@dataclass(frozen=True, slots=True)
class TwinsInfo(Record):
    """What build.json records of one family of twins (under `twins`): how many twin
    instances were made and dropped (by reason), both per condition ("made" and each
    reason)."""

    made: int
    dropped: dict[str, int]
    conditions: dict[str, dict[str, int]]


@dataclass(frozen=True, slots=True)
class PriorBiasScore(Record):
    """One answer pair scored: the relation answer (`label` as parsed, `correct`) and
    the class names listed in stage 1 (`names`, `em`); status `error` when either call
    failed (then it is counted, not scored). A twin's adds its family (`twin`), the
    instance it is the twin of (`twin_of`) and, for a counterfactual, whether the
    answer is the original's gold (`habit`: answered from the names, not the arrow)."""

    model: str
    id: str
    condition: str
    relation: str
    scale: str
    gold: Literal["True", "False"]
    status: Literal["ok", "error", "image_error"]
    error: str | None
    label: str | None
    parse: str | None
    correct: bool
    names: tuple[str, ...] | None
    em: bool
    twin: TwinFamily | None = field(default=None, metadata=OMIT_NONE)
    twin_of: str | None = field(default=None, metadata=OMIT_NONE)
    habit: bool | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class Cell:
    """RelAcc and EM (%) of a set of scored records, and its size."""

    n: int
    rel_acc: float | None
    em: float | None


@dataclass(frozen=True, slots=True)
class ModelSummary(Record):
    """One model's results: answered and failed pairs (twins' too); over the originals
    only, a `Cell` per condition and per
    condition × relation × scale (the paper's Table 2 layout); Δ overall with its 95 %
    bootstrap interval, per conflict condition, relation and scale; the prerequisite;
    how answers were parsed; class-name lists that could not be parsed."""

    answered: int
    errors: int
    conditions: dict[str, Cell]
    cells: dict[str, dict[str, dict[str, Cell]]]
    delta: float | None
    delta_ci: tuple[float, float] | None
    delta_by_condition: dict[str, float | None]
    delta_by_relation: dict[str, float | None]
    delta_by_scale: dict[str, float | None]
    prerequisite: Prerequisite
    parse: dict[str | None, int]
    labels: dict[str | None, int]
    names_unparsed: int
    #: The failed pairs whose image could not be sent (missing or unreadable), and the
    #: reasons (each names its file); the others of `errors` are failed calls.
    image_errors: int = 0
    unusable_images: tuple[str, ...] = ()
    #: "Δ" with its naive (stratified) and diagram-clustered bootstrap intervals, and
    #: each condition's RelAcc ("RelAcc CONDITION") with its intervals.
    intervals: dict[str, dict] = field(default_factory=dict)
    #: Accuracy on the originals and on each family of twins, paired
    #: (`benchmarks.robustness`), when the data set has twins.
    robustness: Robustness | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class PriorBiasSummary(Record):
    """summary.json: every model's results, and Δ averaged over the models."""

    models: dict[str, ModelSummary]
    mean_delta: float | None
