"""Typed records of the structure benchmark, with their JSON defined once: the judge's
verdict and the model-written question kept on a sample, a sample (a line of
samples.jsonl) and a task (a line of tasks.jsonl), a score per task and model, the
summary; and the reading of a data set's JSONL files."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from diagbench.benchmarks.protocol import DataError

#: A gold answer, as tasks.jsonl holds it: a number, a letter, yes/no, a label or a path.
Gold = int | float | str
#: Counts by what is counted (entities, relations, clusters; participants, messages).
Counts = dict[str, int]
#: A parsed diagram's statistics: per kind counts ({"class": 3, …}) or totals.
Statistics = dict[str, dict[str, int] | int]

#: The score of each verdict of the judge (compared with --judge-threshold).
VERDICT_SCORES = {"true": 1.0, "null": 0.5, "false": 0.0}
VerdictStatus = Literal["parsed", "unparsable", "call_error"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's verdict on one sample: `correct` ("true", "false", "null"; None
    unless parsed), its explanation, and how the reply was read (`reason` says why it
    is not a verdict)."""

    status: VerdictStatus
    correct: str | None = None
    explanation: str = ""
    reason: str = ""

    @property
    def score(self) -> float | None:
        return None if self.correct is None else VERDICT_SCORES[self.correct]

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "correct": self.correct, "score": self.score,
                "explanation": self.explanation, "reason": self.reason}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Verdict:
        return cls(data["status"], data["correct"], data["explanation"], data["reason"])


@dataclass(frozen=True, slots=True)
class ModelQuestion:
    """A question the model wrote, read: its answer type, text and gold answer (a letter,
    yes/no, a number, a label)."""

    type: str
    question: str
    answer: Gold

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "question": self.question, "answer": self.answer}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ModelQuestion:
        return cls(data["type"], data["question"], data["answer"])


@dataclass(frozen=True, slots=True)
class StructureSample:
    """A kept diagram (a line of samples.jsonl): what it was asked for (category, FRL,
    complexity, persona, domain), the texts and code the model wrote (`code`: the path
    of its source file), its image, the statistics and counts parsed from the code, the
    counts the engine drew, the judge's verdict and the question the model wrote."""

    id: str
    category: str
    language: str
    frl: str
    complexity: str
    persona: str
    domain: str
    problem: str | None
    description: str | None
    code: str
    fenced: bool
    kind: str
    image: str
    width: int
    height: int
    sha256: str
    lines: int
    chars: int
    counts: Counts
    drawn: Counts | None
    statistics: Statistics
    judge: Verdict | None = None
    model_question: ModelQuestion | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "category": self.category, "language": self.language,
                "frl": self.frl, "complexity": self.complexity, "persona": self.persona,
                "domain": self.domain, "problem": self.problem,
                "description": self.description, "code": self.code, "fenced": self.fenced,
                "kind": self.kind, "image": self.image, "width": self.width,
                "height": self.height, "sha256": self.sha256, "lines": self.lines,
                "chars": self.chars, "counts": self.counts, "drawn": self.drawn,
                "statistics": self.statistics,
                "judge": None if self.judge is None else self.judge.to_json(),
                "model_question": None if self.model_question is None
                else self.model_question.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StructureSample:
        judge, question = data.get("judge"), data.get("model_question")
        return cls(data["id"], data["category"], data["language"], data["frl"],
                   data["complexity"], data["persona"], data["domain"], data["problem"],
                   data["description"], data["code"], data["fenced"], data["kind"],
                   data["image"], data["width"], data["height"], data["sha256"],
                   data["lines"], data["chars"], data["counts"], data["drawn"],
                   data["statistics"], None if judge is None else Verdict.from_json(judge),
                   None if question is None else ModelQuestion.from_json(question))


@dataclass(frozen=True, slots=True)
class StructureTask:
    """A question about one sample (a line of tasks.jsonl): `task` (structural,
    association, problem_match, description_match, model_question, image_to_code), the
    question asked with the sample's image and its gold answer (image_to_code: the path
    of the code); `options` the personas offered (association), `answer_type` how a
    model-written question's answer is read."""

    id: str
    sample: str
    task: str
    category: str
    language: str
    frl: str
    image: str
    question: str
    gold: Gold
    options: tuple[str, ...] | None = None
    answer_type: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "sample": self.sample, "task": self.task,
            "category": self.category, "language": self.language, "frl": self.frl,
            "image": self.image, "question": self.question, "gold": self.gold}
        if self.options is not None:
            out["options"] = list(self.options)
        if self.answer_type is not None:
            out["answer_type"] = self.answer_type
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StructureTask:
        options = data.get("options")
        return cls(data["id"], data["sample"], data["task"], data["category"],
                   data["language"], data["frl"], data["image"], data["question"],
                   data["gold"], None if options is None else tuple(options),
                   data.get("answer_type"))


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
    gold: Gold
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


def load_data(data: Path) -> tuple[list[StructureTask], str]:
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
                    tasks.append(StructureTask.from_json(json.loads(line)))
                except json.JSONDecodeError as exc:
                    raise DataError(f"{path}:{number}: not JSON ({exc.msg})") from None
                except (KeyError, TypeError, AttributeError) as exc:
                    raise DataError(f"{path}:{number}: not a structure task "
                                    f"({type(exc).__name__}: {exc})") from None
    return tasks, digest.hexdigest()[:16]


def load_samples(data: Path) -> dict[str, StructureSample]:
    """The samples of a data set by id (DataError naming the line of one that is not a
    sample)."""
    from diagbench.benchmarks.jsonl import read_jsonl

    path = data / "samples.jsonl"
    samples = {}
    for number, row in read_jsonl(path):
        try:
            sample = StructureSample.from_json(row)
        except (KeyError, TypeError, AttributeError) as exc:
            raise DataError(f"{path}:{number}: not a structure sample "
                            f"({type(exc).__name__}: {exc})") from None
        samples[sample.id] = sample
    return samples


def generator_settings(model: str, temperature: float, max_tokens: int, seed: int,
                       option: str = "--model") -> Any:
    """The `ModelSettings` of the generating (or judging) model, the response cache when
    its provider is cached; a name or key that cannot be used is a `DataError` naming
    `option` (the command exits 3 before any work)."""
    from diagbench.models.cache import ResponseCache
    from diagbench.models.image_policy import ImagePolicy
    from diagbench.models.providers import PROVIDERS, ModelSpec, ModelSpecError, provider_key
    from diagbench.models.request import GenerationConfig
    from diagbench.models.retry import RetryPolicy
    from diagbench.models.settings import ModelSettings

    try:
        spec = ModelSpec.parse(model)
        provider_key(spec)
    except ModelSpecError as exc:
        raise DataError(f"{option}: {exc}") from None
    return ModelSettings(spec, GenerationConfig(temperature=temperature, max_tokens=max_tokens,
                                                seed=seed),
                         120.0, RetryPolicy(), ImagePolicy(None, None),
                         ResponseCache(None) if PROVIDERS[spec.provider].cached else None)
