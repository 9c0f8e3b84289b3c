"""Typed records of the structure benchmark: a score per task and model, the summary;
and the reading of a data set."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from diagbench.benchmarks.protocol import DataError


@dataclass(frozen=True, slots=True)
class StructureScore:
    """One model's answer to one task, scored.

    `status`: ok, call_error or image_error (the last two never scored as answers);
    `read`: how the answer was read (parsed, ambiguous, unparsed, empty; for
    image-to-code: code or no_code); `predicted`: what it states; `correct` for the
    question tasks; `score` (image-to-code score), `counts_score` (STRUDEL's), `valid`,
    `entity_f1`, `relation_f1` for image-to-code; `answer_type` of a model-written
    question (choice, yes_no, number, label).
    """

    model: str
    id: str
    task: str
    category: str
    language: str
    gold: Any
    status: str
    read: str = ""
    predicted: Any = None
    correct: bool | None = None
    score: float | None = None
    counts_score: float | None = None
    valid: bool | None = None
    entity_f1: float | None = None
    relation_f1: float | None = None
    error: str | None = None
    answer_type: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StructureScore:
        return cls(**data)


@dataclass(frozen=True, slots=True)
class StructureSummary:
    """Per model: outcomes, accuracy per task, per task × category × FRL, per answer
    type of the model-written questions, the image-to-code scores; ambiguous/unparsed
    answers counted (they are wrong)."""

    models: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"models": self.models}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StructureSummary:
        return cls(dict(data["models"]))


def load_data(data: Path) -> tuple[list[dict[str, Any]], str]:
    """The tasks of a data set and the data set's hash (of samples and tasks files)."""
    digest = hashlib.sha256()
    tasks = []
    for name in ("samples.jsonl", "tasks.jsonl"):
        path = data / name
        if not path.is_file():
            raise DataError(f"{path}: missing (build the data with `diagbench build "
                            "structure`)")
        raw = path.read_bytes()
        digest.update(raw)
        if name == "tasks.jsonl":
            for number, line in enumerate(raw.decode("utf-8").splitlines(), 1):
                try:
                    tasks.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise DataError(f"{path}:{number}: not JSON ({exc.msg})") from None
    return tasks, digest.hexdigest()[:16]


def generator_settings(model: str, temperature: float, max_tokens: int, seed: int,
                       option: str = "--model") -> Any:
    """The `ModelSettings` of the generating (or judging) model, the response cache when
    its provider is cached; a name or key that cannot be used is a `DataError` naming
    `option` (the command exits 3 before any work)."""
    from diagbench.benchmarks.asking import model_settings
    from diagbench.models.providers import ModelSpecError
    from diagbench.models.request import GenerationConfig

    try:
        return model_settings(model, GenerationConfig(temperature=temperature,
                                                      max_tokens=max_tokens, seed=seed))
    except ModelSpecError as exc:
        raise DataError(f"{option}: {exc}") from None
