"""Typed records of the structure benchmark, with their JSON defined once: the judge's
verdict and the model-written question kept on a sample, a sample (a line of
samples.jsonl) and a task (a line of tasks.jsonl), build.json (`BuildInfo`), a score
per task and model, the summary; and the reading of a data set's JSONL files."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from diagbench.benchmarks.failures import Failures
from diagbench.benchmarks.protocol import DataError

#: A gold answer, as tasks.jsonl holds it: a number, a letter, yes/no, a label, a path,
#: or a set of items (a list in JSON).
Gold = int | float | str | tuple[str, ...]
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
    association, problem_match, description_match, model_question, image_to_code, or a
    language fact's task type), the question asked with the sample's image and its gold
    answer (image_to_code: the path of the code); `options` the personas offered
    (association), `answer_type` how the answer to a model-written question or a fact is
    read."""

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
                   _gold(data["gold"]), None if options is None else tuple(options),
                   data.get("answer_type"))


@dataclass(frozen=True, slots=True)
class Rejection:
    """A sample (or a model-written question, with its answer `type`) left out, and why."""

    id: str
    reason: str
    detail: str
    type: str | None = None

    def to_json(self) -> dict[str, Any]:
        typed = {} if self.type is None else {"type": self.type}
        return {"id": self.id} | typed | {"reason": self.reason, "detail": self.detail}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rejection:
        return cls(data["id"], data["reason"], data["detail"], data.get("type"))


@dataclass(frozen=True, slots=True)
class JudgeInfo:
    """What build.json records about the LLM-as-judge filter: the judge, its threshold
    and prompt hash, how many samples it judged, its verdicts counted (true, null, false,
    unparsable, call_error), how many samples it removed, and its Cohen's κ against the
    deterministic check."""

    model: str
    threshold: float
    prompt_hash: str
    judged: int
    verdicts: dict[str, int]
    removed: int
    #: Cohen's κ of the judge's keep/remove against the deterministic check
    #: (`judging.rule_checks`), None where undefined or not computed.
    kappa: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "threshold": self.threshold,
                "prompt_hash": self.prompt_hash, "judged": self.judged,
                "verdicts": self.verdicts, "removed": self.removed, "kappa": self.kappa}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> JudgeInfo:
        return cls(data["model"], data["threshold"], data["prompt_hash"], data["judged"],
                   dict(data["verdicts"]), data["removed"], data.get("kappa"))


@dataclass(frozen=True, slots=True)
class QuestionsInfo:
    """What build.json records about the model-written questions: the prompt hash, how
    many were asked (per answer type) and kept, the dropped ones counted by reason and
    listed."""

    prompt_hash: str
    asked: int
    kept: int
    asked_by_type: dict[str, int]
    dropped: dict[str, int]
    rejected: list[Rejection]

    def to_json(self) -> dict[str, Any]:
        return {"prompt_hash": self.prompt_hash, "asked": self.asked, "kept": self.kept,
                "asked_by_type": self.asked_by_type, "dropped": self.dropped,
                "rejected": [r.to_json() for r in self.rejected]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> QuestionsInfo:
        return cls(data["prompt_hash"], data["asked"], data["kept"],
                   dict(data["asked_by_type"]), dict(data["dropped"]),
                   [Rejection.from_json(r) for r in data["rejected"]])


@dataclass(frozen=True, slots=True)
class BuildInfo:
    """build.json: the build's parameters, the samples at each stage and those removed
    (by reason and one by one), the judge (or why it was not run), the model-written
    questions, the engine check (counts read = counts drawn), validity per
    "frl/complexity", the tasks per kind and the engines' versions; the samples kept per
    "category|frl" planned and the duplicate tasks dropped (same image, prompt and
    gold as an earlier task)."""

    model: str
    seed: int
    categories: list[str]
    languages: list[str]
    complexities: list[str]
    per_category: int
    prompting: str
    prompt_template_hash: str
    stages: dict[str, int]
    removed: dict[str, int]
    judge: JudgeInfo | str
    questions: QuestionsInfo
    engine_check: dict[str, int]
    validity: dict[str, dict[str, int]]
    tasks: dict[str, int]
    rejected: list[Rejection]
    versions: dict[str, str]
    personas: str
    kept: dict[str, int] = field(default_factory=dict)
    duplicate_tasks: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "seed": self.seed, "categories": self.categories,
                "languages": self.languages, "complexities": self.complexities,
                "per_category": self.per_category, "prompting": self.prompting,
                "prompt_template_hash": self.prompt_template_hash, "stages": self.stages,
                "removed": self.removed,
                "judge": self.judge if isinstance(self.judge, str) else self.judge.to_json(),
                "questions": self.questions.to_json(), "engine_check": self.engine_check,
                "validity": self.validity, "tasks": self.tasks,
                "rejected": [r.to_json() for r in self.rejected], "versions": self.versions,
                "personas": self.personas, "kept": self.kept,
                "duplicate_tasks": self.duplicate_tasks}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BuildInfo:
        judge = data["judge"]
        return cls(data["model"], data["seed"], list(data["categories"]),
                   list(data["languages"]), list(data["complexities"]),
                   data["per_category"], data["prompting"], data["prompt_template_hash"],
                   dict(data["stages"]), dict(data["removed"]),
                   judge if isinstance(judge, str) else JudgeInfo.from_json(judge),
                   QuestionsInfo.from_json(data["questions"]), dict(data["engine_check"]),
                   dict(data["validity"]), dict(data["tasks"]),
                   [Rejection.from_json(r) for r in data["rejected"]],
                   dict(data["versions"]), data["personas"], dict(data.get("kept", {})),
                   int(data.get("duplicate_tasks", 0)))


@dataclass(frozen=True, slots=True)
class StructureScore:
    """One model's answer to one task, scored.

    `status`: ok, call_error or image_error (the last two scored wrong, score 0);
    `read`: how the answer was read (parsed, ambiguous, unparsed, empty; for
    image-to-code: code or no_code); `predicted`: what it states; `correct` for the
    question tasks; `score` (image-to-code score), `counts_score` (STRUDEL's), `valid`,
    `entity_f1`, `relation_f1` for image-to-code; `answer_type` of a model-written
    question or a language's fact (choice, yes_no, number, label, set).
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
    parts: dict[str, float] | None = None  # image-to-code: its language's own measures
    drawn: str | None = None  # image-to-code: the predicted code as drawn, in the model's dir

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StructureScore:
        return cls(**(data | {"gold": _gold(data["gold"])}))


@dataclass(frozen=True, slots=True)
class Accuracy:
    """Accuracy (%, None when there is no answer) over `n` question tasks."""

    n: int
    accuracy: float | None

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "accuracy": self.accuracy}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Accuracy:
        return cls(data["n"], data["accuracy"])


@dataclass(frozen=True, slots=True)
class ImageToCode:
    """The image-to-code figures over `n` tasks: mean score, STRUDEL's counts-only mean,
    how many codes render, mean entity and relation F1 (the means None, and the F1s
    left out of the JSON, when `n` is 0)."""

    n: int
    score: float | None
    counts_score: float | None
    valid: int
    entity_f1: float | None = None
    relation_f1: float | None = None
    parts: dict[str, float] = field(default_factory=dict)  # the mean of each own measure

    def to_json(self) -> dict[str, Any]:
        if not self.n:
            return {"n": 0, "score": None, "counts_score": None, "valid": self.valid}
        return {"n": self.n, "score": self.score, "counts_score": self.counts_score,
                "entity_f1": self.entity_f1, "relation_f1": self.relation_f1,
                "valid": self.valid} | ({"parts": self.parts} if self.parts else {})

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ImageToCode:
        return cls(data["n"], data["score"], data["counts_score"], data["valid"],
                   data.get("entity_f1"), data.get("relation_f1"),
                   dict(data.get("parts", {})))


@dataclass(frozen=True, slots=True)
class ModelSummary:
    """One model's results: outcomes of its calls, its failures by kind (each counted
    wrong), how its answers were read per task, accuracy per task (and "all"), per task
    × category × FRL cell ("task|category|frl") and per answer type of the model-written
    questions; the image-to-code figures overall and per "category|frl" cell."""

    outcomes: dict[str, int]
    reads: dict[str, dict[str, int]]
    accuracy: dict[str, float | None]
    accuracy_cells: dict[str, Accuracy]
    model_question_types: dict[str, Accuracy]
    image_to_code: ImageToCode
    image_to_code_cells: dict[str, ImageToCode]
    failures: Failures = field(default_factory=lambda: Failures(0))
    #: Per headline metric, its naive and sample-clustered intervals
    #: (`diagbench.benchmarks.intervals`).
    intervals: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"outcomes": self.outcomes, "failures": self.failures.to_json(),
                "reads": self.reads, "accuracy": self.accuracy,
                "intervals": self.intervals,
                "accuracy_cells": {k: v.to_json() for k, v in self.accuracy_cells.items()},
                "model_question_types": {k: v.to_json()
                                         for k, v in self.model_question_types.items()},
                "image_to_code": self.image_to_code.to_json(),
                "image_to_code_cells": {k: v.to_json()
                                        for k, v in self.image_to_code_cells.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ModelSummary:
        return cls(dict(data["outcomes"]), dict(data["reads"]), dict(data["accuracy"]),
                   {k: Accuracy.from_json(v) for k, v in data["accuracy_cells"].items()},
                   {k: Accuracy.from_json(v)
                    for k, v in data.get("model_question_types", {}).items()},
                   ImageToCode.from_json(data["image_to_code"]),
                   {k: ImageToCode.from_json(v)
                    for k, v in data["image_to_code_cells"].items()},
                   Failures.from_json(data["failures"]) if "failures" in data
                   else Failures(sum(data["outcomes"].values()), {
                       k: n for k, n in data["outcomes"].items() if k != "ok"}),
                   dict(data.get("intervals", {})))

@dataclass(frozen=True, slots=True)
class StructureSummary:
    """Per model: its `ModelSummary` (ambiguous/unparsed answers counted: they are
    wrong)."""

    models: dict[str, ModelSummary] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"models": {name: m.to_json() for name, m in self.models.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StructureSummary:
        return cls({name: ModelSummary.from_json(m) for name, m in data["models"].items()})


def load_data(data: Path) -> tuple[list[StructureTask], str]:
    """The tasks of a data set and the data set's hash (of samples and tasks files)."""
    from diagbench.benchmarks.jsonl import not_json

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
                    raise not_json(path, exc, number) from None
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
    from diagbench.benchmarks.own_models import model_settings
    from diagbench.models.providers import ModelSpecError
    from diagbench.models.request import GenerationConfig

    try:
        return model_settings(model, GenerationConfig(temperature=temperature,
                                                      max_tokens=max_tokens, seed=seed))
    except ModelSpecError as exc:
        raise DataError(f"{option}: {exc}") from None


def _gold(value: Any) -> Gold:
    """A gold answer read from JSON (a set is written as a list)."""
    return tuple(value) if isinstance(value, list) else value
