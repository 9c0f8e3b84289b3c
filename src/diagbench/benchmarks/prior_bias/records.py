"""The records of the prior-bias benchmark, each with the JSON it reads and writes:
`Item` (a line of DIR/manifest.jsonl: one instance with its images) and `PriorBiasScore`
(a line of RUN/scores.jsonl: one model × instance × scale)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Literal

from diagbench.benchmarks.prior_bias.generate import CONDITIONS, Instance
from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS


@dataclass(frozen=True, slots=True)
class ImageFile:
    """One rendered input: its path in the data directory, size and sha256."""

    path: str
    width: int
    height: int
    sha256: str


@dataclass(frozen=True, slots=True)
class Item:
    """One instance as the data directory lists it: the diagram it asks about, the
    relation and condition, the class names, the queried pair (A, B), the gold answer
    (A → B is drawn), its matched instance, its source and its images by scale."""

    id: str
    diagram: str
    relation: str
    condition: str
    classes: tuple[str, ...]
    query: tuple[str, str]
    gold: bool
    matched: str | None
    source: str
    images: dict[str, ImageFile]

    @classmethod
    def of(cls, instance: Instance, images: dict[str, ImageFile]) -> Item:
        return cls(instance.id, instance.diagram, instance.relation, instance.condition,
                   instance.classes, instance.query, instance.gold, instance.matched,
                   f"diagrams/{instance.diagram}.puml", images)

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
    status: Literal["ok", "error"]
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
