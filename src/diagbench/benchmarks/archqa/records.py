"""The records of the archqa benchmark, each with the JSON it reads and writes:
`Annotation` (a line of DATA/annotations.jsonl: one diagram in SADU's annotation schema),
`Question` (a line of DATA/questions.jsonl) and `ArchQAScore` (a line of RUN/scores.jsonl:
one model × question)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from diagbench.benchmarks.twins import Twin, TwinFamily
from diagbench.records import OMIT_NONE, Record

#: The diagram families, as diagbench names them (SADU: behavior, structural, ER).
Family = Literal["behavioral", "structural", "er"]
FAMILIES: tuple[Family, ...] = ("behavioral", "structural", "er")
SADU_FAMILY: dict[str, Family] = {"behavior": "behavioral", "structural": "structural",
                                  "ER": "er"}
Kind = Literal["counting", "retrieval"]


@dataclass(frozen=True, slots=True)
class Attribute:
    """An attribute of an entity: its name; for ER diagrams also its data type, key
    (``PK``, ``FK``, ``PK,FK``, ``UK`` or empty) and comment."""

    name: str
    type: str = ""
    key: str = ""
    comment: str = ""


@dataclass(frozen=True, slots=True)
class Entity:
    """An entity: its id (``entity_3``), name, attributes and methods (None where the
    annotation has no such list, which is not the same as an empty one)."""

    id: str
    name: str
    attributes: tuple[Attribute, ...] | None = None
    methods: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Cluster:
    """A cluster: its id, name, the entities it includes (nested ones too, as SADU
    annotates them) and its sub-clusters."""

    id: str
    name: str
    entities: tuple[str, ...] = ()
    clusters: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Relation:
    """A relation from `source` to `target` (entity or cluster ids) with its label and,
    per family: `direction` (behavioural: single, double, none), `type` (structural: UML
    association, inheritance, composition, dependency, aggregation; ER: identifying or
    non-identifying) and the ER cardinalities of each side."""

    source: str
    target: str
    label: str = ""
    direction: str | None = None
    type: str | None = None
    source_cardinality: str | None = None
    target_cardinality: str | None = None


@dataclass(frozen=True, slots=True)
class Annotation(Record):
    """One diagram: its id (``family/file``), family, image (a path into the source
    folder), entities, clusters and relations in annotation order, and difficulty; a
    twin (`build archqa --twins`) names its original diagram (`twin_of`) and how it
    differs (`twin`)."""

    id: str
    family: Family
    file: str
    image: str
    entities: tuple[Entity, ...]
    clusters: tuple[Cluster, ...]
    relations: tuple[Relation, ...]
    difficulty: str | None = None
    twin_of: str | None = field(default=None, metadata=OMIT_NONE)
    twin: Twin | None = field(default=None, metadata=OMIT_NONE)

    def entity(self, ident: str) -> Entity | None:
        return next((e for e in self.entities if e.id == ident), None)

    def cluster(self, ident: str) -> Cluster | None:
        return next((c for c in self.clusters if c.id == ident), None)

    def name(self, ident: str) -> str | None:
        """The name of the entity or cluster `ident` (None when it has neither)."""
        element = self.entity(ident) or self.cluster(ident)
        return None if element is None else element.name


def diagram_of(question: str) -> str:
    """The diagram a question asks about: its id without the question's number
    (``family/file/N`` → ``family/file``)."""
    return question.rpartition("/")[0] or question


@dataclass(frozen=True, slots=True)
class Question(Record):
    """One question: id (``family/file/N``, N its place in the published QA file), the
    diagram it asks about, its text (with the strict output format), the gold answer as
    published, the gold answer diagbench recomputes from the annotation (None where it
    cannot), subtype, kind, difficulty (None where SADU gives none) and, in SADU's hard
    set, the arrow pattern it tests (`hard.PATTERNS`; None elsewhere, and then left out
    of the JSON). A twin's question names the same question on the original
    (`twin_of`; None where the original was not asked it) and, where the answers
    differ, the original's answer (`original_gold`)."""

    id: str
    diagram: str
    family: Family
    text: str
    gold: Any
    subtype: str
    kind: Kind
    difficulty: str | None = None
    recomputed: Any = None
    pattern: str | None = field(default=None, metadata=OMIT_NONE)
    twin_of: str | None = field(default=None, metadata=OMIT_NONE)
    original_gold: Any = field(default=None, metadata=OMIT_NONE)


Status = Literal["ok", "unparsable", "call_error", "image_error", "missing"]
#: What became of a judge's call: a verdict, a failed call, or a reply with no verdict.
JudgeStatus = Literal["judged", "call_error", "unreadable"]
Where = Literal["markers", "open_marker", "outside"]


@dataclass(frozen=True, slots=True)
class ArchQAScore(Record):
    """One answer scored: `status` (ok: an answer was read; unparsable: none could be;
    call_error: the call failed; image_error: its image could not be sent; missing: no
    response for the question), `correct`, the
    answer read (`answer`), where it was found (`where`: inside the markers, after a
    ``[start]`` with no ``[end]``, or outside any marker — the last two are format
    violations), its normal form (`prediction`: a number, or a sorted list of items)
    next to the gold's (`gold`), notes on what was accepted, and the tokens used. A
    twin's question adds its twin's family (`twin`), the original diagram (`original`:
    the source diagram, the cluster of the robustness intervals), the same question on
    the original (`twin_of`) and, for a counterfactual question whose answer the edit
    changed, whether the answer, read by the same scorer, states the original's
    (`habit`: the model answered from habit; a failed call does not)."""

    model: str
    id: str
    family: Family
    subtype: str
    kind: Kind
    difficulty: str | None
    scorer: str
    status: Status
    correct: bool
    answer: Any = None
    where: Where | None = None
    prediction: Any = None
    gold: Any = None
    notes: tuple[str, ...] = ()
    error: str | None = None
    tokens: dict[str, int | None] = field(default_factory=dict)
    judge: bool | None = None  # the LLM judge's verdict (None: not judged, or no verdict)
    judge_note: str | None = None
    judge_status: JudgeStatus | None = None  # None: no judge was asked about this answer
    twin: TwinFamily | None = field(default=None, metadata=OMIT_NONE)
    original: str | None = field(default=None, metadata=OMIT_NONE)
    twin_of: str | None = field(default=None, metadata=OMIT_NONE)
    habit: bool | None = field(default=None, metadata=OMIT_NONE)

    @property
    def violation(self) -> bool:
        """Whether the answer was read from outside the `[start]…[end]` markers."""
        return self.where in ("open_marker", "outside")


@dataclass(frozen=True, slots=True)
class ArchQASummary(Record):
    """summary.json: per model (`models`), its accuracies, counting and retrieval
    metrics, tokens and outcome counts; the paired comparisons between models."""

    scorer: str
    models: dict[str, dict]
    paired: list[dict] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TwinRejection(Record):
    """A twin not made: its diagram's id and why."""

    id: str
    reason: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class TwinsInfo(Record):
    """What build.json records of one family of twins (`build archqa --twins`): how
    many were made, the questions asked of them, those dropped by reason, both per
    diagram family ("made" and each reason), and the dropped ones listed."""

    made: int
    questions: int
    dropped: dict[str, int]
    families: dict[str, dict[str, int]]
    rejected: list[TwinRejection]
