"""The records of the prior-bias benchmark, each with the JSON it reads and writes:
`Item` (a line of DIR/manifest.jsonl: one instance with its images) and `PriorBiasScore`
(a line of RUN/scores.jsonl: one model × instance × scale)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Literal

from diagbench.benchmarks.prior_bias.generate import CONDITIONS, Instance
from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS
from diagbench.scoring.metrics import Prerequisite


@dataclass(frozen=True, slots=True)
class ImageFile:
    """One rendered input: its path in the data directory, size and sha256."""

    path: str
    width: int
    height: int
    sha256: str


@dataclass(frozen=True, slots=True)
class Item(Instance):
    """One instance as the data directory lists it (the diagram it asks about, the
    relation and condition, the class names, the queried pair (A, B), the gold answer
    — A → B is drawn —, its matched instance), with its source and images by scale."""

    source: str = ""
    images: dict[str, ImageFile] = field(default_factory=dict)

    @classmethod
    def of(cls, instance: Instance, images: dict[str, ImageFile]) -> Item:
        return cls(**{f.name: getattr(instance, f.name) for f in fields(Instance)},
                   source=f"diagrams/{instance.diagram}.puml", images=images)

    def to_json(self) -> dict:
        return asdict(self) | {"classes": list(self.classes), "query": list(self.query)}

    @classmethod
    def from_json(cls, data: dict) -> Item:
        """An item from its manifest line; ValueError (or KeyError, TypeError) when the
        line is not one."""
        if data["relation"] not in RELATIONS or data["condition"] not in CONDITIONS:
            raise ValueError(f"unknown relation {data['relation']!r} or condition "
                             f"{data['condition']!r}")
        query = tuple(data["query"])
        if len(query) != 2:
            raise ValueError("query is not a pair of class names")
        return cls(data["id"], data["diagram"], data["relation"], data["condition"],
                   tuple(data["classes"]), (query[0], query[1]), bool(data["gold"]),
                   data.get("matched"), data.get("source", f"diagrams/{data['diagram']}.puml"),
                   {scale: ImageFile(**image) for scale, image in data["images"].items()})


@dataclass(frozen=True, slots=True)
class PriorBiasScore:
    """One answer pair scored: the relation answer (`label` as parsed, `correct`) and
    the class names listed in stage 1 (`names`, `em`); status `error` when either call
    failed (then it is counted, not scored)."""

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

    def to_json(self) -> dict:
        return asdict(self) | {"names": None if self.names is None else list(self.names)}

    @classmethod
    def from_json(cls, data: dict) -> PriorBiasScore:
        values = {f.name: data[f.name] for f in fields(cls)}
        names = values["names"]
        return cls(**values | {"names": None if names is None else tuple(names)})


@dataclass(frozen=True, slots=True)
class Cell:
    """RelAcc and EM (%) of a set of scored records, and its size."""

    n: int
    rel_acc: float | None
    em: float | None


@dataclass(frozen=True, slots=True)
class ModelSummary:
    """One model's results: answered and failed pairs; a `Cell` per condition and per
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

    @classmethod
    def from_json(cls, data: dict) -> ModelSummary:
        ci = data["delta_ci"]
        return cls(**data | {
            "conditions": {c: Cell(**v) for c, v in data["conditions"].items()},
            "cells": {c: {r: {s: Cell(**v) for s, v in by_scale.items()}
                          for r, by_scale in by_relation.items()}
                      for c, by_relation in data["cells"].items()},
            "delta_ci": None if ci is None else (ci[0], ci[1]),
            "prerequisite": Prerequisite(**data["prerequisite"]),
            "unusable_images": tuple(data.get("unusable_images", ()))})


@dataclass(frozen=True, slots=True)
class PriorBiasSummary:
    """summary.json: every model's results, and Δ averaged over the models."""

    models: dict[str, ModelSummary]
    mean_delta: float | None

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> PriorBiasSummary:
        return cls({name: ModelSummary.from_json(m) for name, m in data["models"].items()},
                   data["mean_delta"])
