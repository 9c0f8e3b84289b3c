"""Typed records of the structure benchmark, with their JSON defined once: the judge's
verdict and the model-written question kept on a sample, a sample (a line of
samples.jsonl) and a task (a line of tasks.jsonl), build.json (`BuildInfo`), a score
per task and model, the summary; and the reading of a data set's JSONL files."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from diagbench.benchmarks.failures import Failures
from diagbench.benchmarks.personas import PersonaSet
from diagbench.benchmarks.protocol import DataError
from diagbench.benchmarks.robustness import Robustness
from diagbench.benchmarks.structure.limits import Limit
from diagbench.benchmarks.structure.taxonomy import domain_title, task_type
from diagbench.benchmarks.twins import Twin, TwinFamily
from diagbench.records import OMIT_EMPTY, OMIT_NONE, Record, RecordError

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
class Verdict(Record):
    """The judge's verdict on one sample: `correct` ("true", "false", "null"; None
    unless parsed), its explanation, and how the reply was read (`reason` says why it
    is not a verdict)."""

    json_computed = ("score",)

    status: VerdictStatus
    correct: str | None = None
    explanation: str = ""
    reason: str = ""

    @property
    def score(self) -> float | None:
        return None if self.correct is None else VERDICT_SCORES[self.correct]


@dataclass(frozen=True, slots=True)
class ModelQuestion(Record):
    """A question the model wrote, read: its answer type, text and gold answer (a letter,
    yes/no, a number, a label)."""

    type: str
    question: str
    answer: Gold


@dataclass(frozen=True, slots=True)
class StructureSample(Record):
    """A kept diagram (a line of samples.jsonl): what it was asked for (category, FRL,
    complexity, persona, domain), the texts and code the model wrote (`code`: the path
    of its source file), its image, the statistics and counts parsed from the code, the
    counts the engine drew, the judge's verdict, the question and the caption the model
    wrote; a twin names its original (`twin_of`) and how it differs (`twin`)."""

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
    caption: str | None = field(default=None, metadata=OMIT_NONE)
    twin_of: str | None = field(default=None, metadata=OMIT_NONE)
    twin: Twin | None = field(default=None, metadata=OMIT_NONE)


class _Classified:
    """STRUDEL's task type and Table 3's domain of a task or a score, derived from its
    task, answer type and category."""

    __slots__ = ()
    task: str
    answer_type: str | None
    category: str

    @property
    def task_type(self) -> str:
        return task_type(self.task, self.answer_type)

    @property
    def domain(self) -> str:
        return domain_title(self.category)


@dataclass(frozen=True, slots=True)
class StructureTask(_Classified, Record):
    """A question about one sample (a line of tasks.jsonl): `task` (identification,
    quantification, structural — a fact's task type —, association, problem_match,
    description_match, model_question, image_to_code), the question asked with the
    sample's image and its gold answer (image_to_code: the path of the code); `options`
    the personas offered (association), `answer_type` how the answer to a model-written
    question or a fact is read; a twin's task names the same question's task on the
    original (`twin_of`) and, where the answers differ, the original's (`original_gold`).
    Written with it: STRUDEL's `task_type` and the `domain` (Table 3's titles, `taxonomy`)."""

    json_computed = ("task_type", "domain")

    id: str
    sample: str
    task: str
    category: str
    language: str
    frl: str
    image: str
    question: str
    gold: Gold
    options: tuple[str, ...] | None = field(default=None, metadata=OMIT_NONE)
    answer_type: str | None = field(default=None, metadata=OMIT_NONE)
    twin_of: str | None = field(default=None, metadata=OMIT_NONE)
    original_gold: Gold | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class Rejection(Record):
    """A sample (or a model-written question, with its answer `type`) left out, and why."""

    id: str
    reason: str
    detail: str
    type: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class JudgeInfo(Record):
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


@dataclass(frozen=True, slots=True)
class QuestionsInfo(Record):
    """What build.json records about the model-written questions: the prompt hash, how
    many were asked (per answer type) and kept, the dropped ones counted by reason and
    listed."""

    prompt_hash: str
    asked: int
    kept: int
    asked_by_type: dict[str, int]
    dropped: dict[str, int]
    rejected: list[Rejection]


@dataclass(frozen=True, slots=True)
class CaptionsInfo(Record):
    """What build.json records about the captions (Fig. 10): the prompt hash, how many
    were asked and kept, the dropped ones counted by reason and listed."""

    prompt_hash: str
    asked: int
    kept: int
    dropped: dict[str, int]
    rejected: list[Rejection]


@dataclass(frozen=True, slots=True)
class TwinsInfo(Record):
    """What build.json records about one family of twins (`twins`): how many were made
    and dropped (by reason), both per category ("made" and each reason), and the
    dropped ones listed (a twin's id and why)."""

    made: int
    dropped: dict[str, int]
    categories: dict[str, dict[str, int]]
    rejected: list[Rejection]


@dataclass(frozen=True, slots=True)
class BuildInfo(Record):
    """build.json: the build's parameters, the samples at each stage and those removed
    (by reason and one by one), the judge (or why it was not run), the model-written
    questions, the engine check (counts read = counts drawn), validity per
    "frl/complexity", the tasks per kind and the engines' versions; the samples kept per
    "category|frl" planned and the duplicate tasks dropped (same image, prompt and
    gold as an earlier task); the node limits per cell, the samples each filter of §3.3
    removed, and the templated questions dropped as ambiguous; the twins asked for, per
    family; the FRLs of each category, where restricted to STRUDEL's."""

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
    personas: PersonaSet | str  # the set drawn from (a text: a data set built before sets)
    kept: dict[str, int] = field(default_factory=dict)
    duplicate_tasks: int = 0
    #: the node limits per "category|FRL" built (`limits`)
    limits: dict[str, list[Limit]] = field(default_factory=dict)
    #: how many samples each filter of §3.3 removed (`build.filter_counts`)
    filters: dict[str, int] = field(default_factory=dict)
    #: the templated questions left out as ambiguous, by template (`templates`)
    ambiguous_questions: dict[str, int] = field(default_factory=dict)
    #: the captions the generating model wrote (`captions`)
    captions: CaptionsInfo | None = field(default=None, metadata=OMIT_NONE)
    #: the twins of each family asked for (`--twins`; `twins`)
    twins: dict[str, TwinsInfo] = field(default_factory=dict, metadata=OMIT_EMPTY)
    #: the FRLs each category was drawn in, where not every one given (`--paper-cells`)
    cells: dict[str, list[str]] = field(default_factory=dict, metadata=OMIT_EMPTY)


@dataclass(frozen=True, slots=True)
class Matchings(Record):
    """One answer scored both ways (`benchmarks.structure.matching`): diagbench's strict
    reading and STRUDEL's matching (1 or 0 for a question; the image-to-code score of
    each), and the window STRUDEL found the gold in."""

    strict: float
    strudel: float
    window: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class StructureScore(_Classified, Record):
    """One model's answer to one task, scored.

    `status`: ok, call_error or image_error (the last two scored wrong, score 0);
    `read`: how the answer was read (parsed, ambiguous, unparsed, empty; for
    image-to-code: code or no_code); `predicted`: what it states; `correct` for the
    question tasks; `score` (image-to-code score), `counts_score` (STRUDEL's), `valid`,
    `entity_f1`, `relation_f1` for image-to-code; `answer_type` of a model-written
    question or a language's fact (choice, yes_no, number, label, set); a twin's task
    adds `twin`, `original`, `twin_of` and `habit` (`robustness`). Written with it:
    STRUDEL's `task_type` and the `domain` (Table 3's titles, `taxonomy`).
    """

    json_computed = ("task_type", "domain")

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
    #: Both matchings, when scored both ways (a STRUDEL import, or --matching strudel).
    matchings: Matchings | None = field(default=None, metadata=OMIT_NONE)
    #: A twin's task: its twin's family, the original sample (its source diagram) and
    #: the same question's task on the original (None where the original was not asked it).
    twin: TwinFamily | None = field(default=None, metadata=OMIT_NONE)
    original: str | None = field(default=None, metadata=OMIT_NONE)
    twin_of: str | None = field(default=None, metadata=OMIT_NONE)
    #: A counterfactual question whose answer the edit changed: whether the answer, read
    #: strictly, states the original's answer (the model answered from habit).
    habit: bool | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class Accuracy(Record):
    """Accuracy (%, None when there is no answer) over `n` question tasks."""

    n: int
    accuracy: float | None


@dataclass(frozen=True, slots=True)
class ImageToCode(Record):
    """The image-to-code figures over `n` tasks: mean score, STRUDEL's counts-only mean,
    how many codes render, mean entity and relation F1 (the means None, and the F1s
    left out of the JSON, when `n` is 0)."""

    n: int
    score: float | None
    counts_score: float | None
    valid: int
    entity_f1: float | None = field(default=None, metadata=OMIT_NONE)
    relation_f1: float | None = field(default=None, metadata=OMIT_NONE)
    #: the mean of each of its language's own measures
    parts: dict[str, float] = field(default_factory=dict, metadata=OMIT_EMPTY)


@dataclass(frozen=True, slots=True)
class Disagreement(Record):
    """A question the two matchings score differently: its gold, what the strict
    reading read, whether each matching counts it right, STRUDEL's window."""

    id: str
    gold: Gold
    predicted: Any
    strict: bool
    strudel: bool
    window: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class MatchingSummary(Record):
    """The two matchings side by side: which one the scores follow, accuracy (%) of
    each over the `questions` asked, how many answers they disagree on (right by
    STRUDEL's only, by the strict reading's only) with examples, and the mean
    image-to-code score of each over `codes` tasks (a failed call or an unusable image
    is wrong both ways, in every denominator)."""

    scored_by: str
    questions: int
    strict_accuracy: float | None
    strudel_accuracy: float | None
    disagree: int
    strudel_only: int
    strict_only: int
    examples: list[Disagreement]
    codes: int = 0
    strict_code: float | None = None
    strudel_code: float | None = None


@dataclass(frozen=True, slots=True)
class ModelSummary(Record):
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
    #: STRUDEL's Table 3: per column (Overall, task types, domains) its intervals in %
    #: (`table3.table3`), and the same mean per "task type|category|FRL" cell
    table3: dict[str, dict[str, Any]] = field(default_factory=dict)
    table3_cells: dict[str, Accuracy] = field(default_factory=dict)
    #: Both matchings side by side, when scored both ways.
    matching: MatchingSummary | None = field(default=None, metadata=OMIT_NONE)
    #: Accuracy on the originals and on each family of twins, paired (`robustness`),
    #: when the data set has twins.
    robustness: Robustness | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class StructureSummary(Record):
    """Per model: its `ModelSummary` (ambiguous/unparsed answers counted: they are
    wrong)."""

    models: dict[str, ModelSummary] = field(default_factory=dict)


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
                except RecordError as exc:
                    raise DataError(f"{path}:{number}: not a structure task ({exc})") from None
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
        except RecordError as exc:
            raise DataError(f"{path}:{number}: not a structure sample ({exc})") from None
        samples[sample.id] = sample
    return samples


def generator_settings(model: str, temperature: float, max_tokens: int, seed: int,
                       option: str = "--model", top_p: float | None = None) -> Any:
    """The `ModelSettings` of the generating (or judging) model, the response cache when
    its provider is cached; a name or key that cannot be used is a `DataError` naming
    `option` (the command exits 3 before any work)."""
    from diagbench.benchmarks.own_models import model_settings
    from diagbench.models.providers import ModelSpecError
    from diagbench.models.request import GenerationConfig

    try:
        return model_settings(model, GenerationConfig(temperature=temperature,
                                                      max_tokens=max_tokens, seed=seed,
                                                      top_p=top_p))
    except ModelSpecError as exc:
        raise DataError(f"{option}: {exc}") from None
