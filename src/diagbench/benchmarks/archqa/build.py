"""`diagbench build archqa --from DIR… --out DATA`: a SADU-style benchmark (paper
003_26afdd344a01d15b.txt §2) built from diagrams as code instead of hand annotation.

Each diagram that a graph reader of `diagbench.formats` reads (PlantUML class,
component, deployment, use case, state, ER and C4; Mermaid flowchart, class, ER and
state; Graphviz DOT; DBML) is

1. **annotated** from its parsed model in SADU's schema (`annotate`): entities with
   their names (the displayed name; unnamed pseudo-states keep an empty name),
   attributes and methods (structural: names; ER: columns with type and key);
   clusters with every entity they enclose (nested ones too, as SADU annotates) and
   their direct sub-clusters; relations with their label and, per family, direction
   (behavioural), UML type (structural) or identifying/non-identifying and the
   cardinalities of each side in SADU's words (ER);
2. **asked** every candidate question of the 24 subtypes in SADU's published wording
   (`candidates`), each answered by diagbench's own question logic
   (`questions.recompute`, the same that checks SADU's published answers) and kept
   only when its answer is unique and well defined (`check`); every rejection is
   recorded with its reason;
3. **rendered** by its own engine to PNG (what models see) and to SVG, whose drawn
   entities, relations and clusters are counted (`render.graph_stats`,
   `render.graph_svg`) and compared with the annotation: a count the engine does not
   confirm rejects the question about it;
4. with `--twins`, **twinned** (`twins.make_twins`): counterfactual, style and capture
   twins of each diagram drawn, asked its questions again (after the originals in the
   files; build.json's `twins` counts them, its other figures are the originals').

The family of a diagram follows SADU's split: class and object diagrams are
structural (UML relation types, attributes, methods), ER diagrams (PlantUML entity
diagrams, Mermaid erDiagram, DBML) are ER, and every other kind (component,
deployment, use case, state, activity, C4, flowcharts, DOT graphs) is behavioural
(relations described by their direction).

DATA/annotations.jsonl, DATA/questions.jsonl, DATA/images/*.png, DATA/sources/* and
DATA/build.json (counts per subtype and family, rejections by reason and one by one,
the engine check per diagram, tool versions). The same inputs give the same files.
"""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from diagbench.benchmarks.archqa.questions import SUBTYPES, TEMPLATES, kind_of, recompute
from diagbench.benchmarks.archqa.records import (
    Annotation,
    Attribute,
    Cluster,
    Entity,
    Family,
    Question,
    Relation,
    TwinsInfo,
)
from diagbench.diagram.graph import GraphDiagram
from diagbench.records import OMIT_NONE, Record

#: SADU's output-format instructions, as its generator appends them to each question.
COUNTING_FORMAT = ("Required Output Format (strict).\n[start]\n{\"answer\": x}\n[end]\n"
                   "The answer MUST be a valid JSON object.\nx must be a number.\n")
RETRIEVAL_FORMAT = ("Required Output Format (strict).\n[start]\n{\"answer\": [\"x1\", \"x2\", "
                    "...]}\n[end]\nThe answer MUST be a valid JSON object.Replace \"x1\", "
                    "\"x2\", ... with the actual answer strings.")
#: The difficulty SADU gives each subtype (None: it gives none).
_DEFAULT_DIFFICULTY: dict[str, str | None] = {
    t.subtype: ("intermediate" if t.kind == "retrieval" else "basic") for t in TEMPLATES}
DIFFICULTY: dict[str, str | None] = _DEFAULT_DIFFICULTY | {
    "how_many_attributes_certain_entity_has": "intermediate",
     "how_many_methods_certain_entity_has": "intermediate",
     "cluster_has_most_entities": "basic", "relation_statement": "basic",
     "label_on_the_relation_source": None, "label_on_the_relation_target": None}
#: Graph kinds per SADU family (every other kind is behavioural).
STRUCTURAL_KINDS = ("class", "object")
ER_KINDS = ("er",)
#: UML multiplicities (as the readers give ER ends) in SADU's words.
CARDINALITY_WORDS = {"1": "exactly one", "0..1": "zero or one", "1..*": "one or more",
                     "0..*": "zero or more"}
#: Kinds of entities drawn without a name.
UNNAMED_KINDS = ("start", "end", "fork", "join", "choice", "history", "deep_history",
                 "entry_point", "exit_point", "junction")
_STRUCTURAL_TYPES = ("association", "inheritance", "realization", "composition",
                     "aggregation", "dependency")


def family_of(kind: str) -> Family:
    """SADU's family of a graph kind."""
    if kind in STRUCTURAL_KINDS:
        return "structural"
    return "er" if kind in ER_KINDS else "behavioral"


def _label(text: str) -> str:
    """A relation label as the engines draw it: `<<x>>` as «x», one line."""
    return " ".join(text.replace("<<", "«").replace(">>", "»").replace("\\n", " ").split())


def annotate(diagram: GraphDiagram, ident: str, file: str, image: str
             ) -> tuple[Annotation, list[str]]:
    """The annotation of a parsed diagram (ids ``entity_N``, ``cluster_N``) and notes
    on what it leaves out (a relation whose end is neither an entity nor a cluster)."""
    family = family_of(diagram.kind)
    ids = {e.id: f"entity_{k}" for k, e in enumerate(diagram.entities)}
    cids = {c.id: f"cluster_{k}" for k, c in enumerate(diagram.clusters)}
    entities = []
    for e in diagram.entities:
        name = e.name or ("" if e.kind in UNNAMED_KINDS else e.id)
        attributes: tuple[Attribute, ...] | None = None
        methods: tuple[str, ...] | None = None
        if family == "structural":
            attributes = tuple(Attribute(m.name) for m in e.attributes)
            methods = tuple(m.name for m in e.methods)
        elif family == "er":
            attributes = tuple(Attribute(m.name, m.type, ",".join(
                f.upper() for f in m.flags if f in ("pk", "fk", "uk")), m.note)
                for m in e.attributes)
        entities.append(Entity(ids[e.id], name, attributes, methods))
    parents = {c.id: c.parent for c in diagram.clusters}

    def inside(entity_parent: str | None, cluster: str) -> bool:
        seen = set()
        while entity_parent is not None and entity_parent not in seen:
            if entity_parent == cluster:
                return True
            seen.add(entity_parent)
            entity_parent = parents.get(entity_parent)
        return False

    clusters = tuple(
        Cluster(cids[c.id], c.label,
                tuple(ids[e.id] for e in diagram.entities if inside(e.parent, c.id)),
                tuple(cids[s.id] for s in diagram.clusters if s.parent == c.id))
        for c in diagram.clusters)
    relations, notes = [], []
    for r in diagram.relations:
        source, target = ids.get(r.source, cids.get(r.source)), ids.get(r.target,
                                                                       cids.get(r.target))
        if source is None or target is None:
            notes.append(f"relation {r.source} → {r.target} (line {r.line}) left out: an end "
                         "is neither an entity nor a cluster")
            continue
        if family == "behavioral":
            relations.append(Relation(source, target, _label(r.label), direction=r.direction))
        elif family == "structural":
            relations.append(Relation(source, target, _label(r.label), type=r.type))
        else:
            relations.append(Relation(
                source, target, _label(r.label), type=r.type.replace("_", "-"),
                source_cardinality=CARDINALITY_WORDS.get(r.source_cardinality,
                                                         r.source_cardinality),
                target_cardinality=CARDINALITY_WORDS.get(r.target_cardinality,
                                                         r.target_cardinality)))
    annotation = Annotation(ident, family, file, image, tuple(entities), clusters,
                            tuple(relations))
    return annotation, notes


# --- question candidates, in SADU's wording -------------------------------------------

def _q(subtype: str, stem: str) -> tuple[str, str]:
    fmt = COUNTING_FORMAT if kind_of(subtype) == "counting" else RETRIEVAL_FORMAT
    return subtype, stem + "\n" + fmt


def _kind(a: Annotation, ident: str, capital: bool = True) -> str:
    word = "Entity" if a.entity(ident) is not None else "Cluster"
    return word if capital else word.lower()


_TYPE_STEMS = {
    "behavioral": "What is the directionality of the relation between {} and {}? "
                  "(e.g. single, double, and none)",
    "structural": "What is the type of the relation between {} and {}? (e.g., association, "
                  "inheritance, composition, dependency, and aggregation)",
    "er": "What is the cardinality on both sides of the relation between {} and {}? (For "
          "each side of the relation, please return 'zero or one', 'exactly one', 'one or "
          "more', and 'zero or more')",
}


#: The questions about the whole diagram, as (subtype, stem).
_DIAGRAM_QUESTIONS = (
    ("total_entity_number", "How many entities are in the diagram?"),
    ("total_relation_number", "How many relations are in the diagram?"),
    ("entities_have_more_than_one_relations", "How many entities have more than one relation?"),
    ("total_cluster_number", "How many clusters are in the diagram?"),
    ("how_many_entities_not_in_clusters", "How many entities are not contained in any cluster?"),
    ("how_many_relations_have_label", "How many relations have a label?"),
    ("how_many_clusters_have_clusters_within",
     "How many clusters contain at least one sub-cluster (nested clusters)?"),
    ("how_many_relation_types", "How many relation types appear in the diagram?"))


def _whole_diagram(a: Annotation) -> Iterator[tuple[str, str]]:
    for subtype, stem in _DIAGRAM_QUESTIONS:
        yield _q(subtype, stem)


def _element_counts(a: Annotation) -> Iterator[tuple[str, str]]:
    for c in a.clusters:
        yield _q("how_many_entities_does_certain_cluster_have",
                 f"How many entities are contained in Cluster '{c.name}'?")
    for e in a.entities:
        if e.attributes is not None:
            yield _q("how_many_attributes_certain_entity_has",
                     f"How many attributes does Entity '{e.name}' have?")
        if e.methods is not None:
            yield _q("how_many_methods_certain_entity_has",
                     f"How many methods does Entity '{e.name}' have?")
    if a.clusters:
        yield _q("cluster_has_most_entities", "Which cluster(s) contain the most entities?")


def _neighbours(a: Annotation) -> Iterator[tuple[str, str]]:
    entity_ends = {end for r in a.relations for end in (r.source, r.target)}
    for e in a.entities:
        if e.id in entity_ends:
            yield _q("relation_statement", f"Which entity has a relation with Entity '{e.name}'?")
    for c in a.clusters:
        yield _q("certain_cluster_contains_entity",
                 f"Which entities are contained in cluster '{c.name}'? ")


def _labels(a: Annotation) -> Iterator[tuple[str, str]]:
    labelled = [r for r in a.relations if r.label]
    for r in labelled:
        yield _q("label_on_the_relation",
                 f"What is the label on the relation between {_kind(a, r.source)} "
                 f"'{a.name(r.source)}' and {_kind(a, r.target)} '{a.name(r.target)}'?")
    for r in labelled:
        yield _q("label_on_the_relation_source",
                 f"Which {_kind(a, r.source, False)} has a relation with label "
                 f"'{r.label}' to {_kind(a, r.target)} '{a.name(r.target)}'?")
    for r in labelled:
        yield _q("label_on_the_relation_target",
                 f"Which {_kind(a, r.target, False)} has a relation with label "
                 f"'{r.label}' from {_kind(a, r.source)} '{a.name(r.source)}'? ")


def _contents(a: Annotation) -> Iterator[tuple[str, str]]:
    for e in a.entities:
        if any(e.id in c.entities for c in a.clusters):
            yield _q("cluster_contains_certain_entity",
                     f"Which cluster(s) contain Entity '{e.name}'?")
    for e in a.entities:
        if e.attributes:
            yield _q("entity_contains_certain_attribute",
                     f"What attributes does Entity '{e.name}' have?")
    for e in a.entities:
        if e.methods:
            yield _q("entity_contains_certain_method",
                     f"What methods does Entity '{e.name}' have? Please only the return "
                     "function names.")


def _relations(a: Annotation) -> Iterator[tuple[str, str]]:
    for r in a.relations:
        yield _q("type_on_the_relation", _TYPE_STEMS[a.family].format(
            f"{_kind(a, r.source)} '{a.name(r.source)}'",
            f"{_kind(a, r.target)} '{a.name(r.target)}'"))
    targets = {r.target for r in a.relations}
    sources = {r.source for r in a.relations}
    for e in a.entities:
        if e.id in targets:
            yield _q("relation_source",
                     f"Which entity is the source in a relation to Entity '{e.name}'?")
    for e in a.entities:
        if e.id in sources:
            yield _q("relation_target",
                     f"Which entity is the target in a relation from Entity '{e.name}'?")
    for label in dict.fromkeys(r.label for r in a.relations if r.label):
        yield _q("which_relation_has_certain_label",
                 f"Which relation(s) carry the label '{label}'? Please use format [source "
                 "entity, target entity] to represent certain relation.")


def candidates(a: Annotation) -> Iterator[tuple[str, str]]:
    """Every question SADU's templates can ask about `a`, as (subtype, text), in the
    order of the subtypes and, within one, of the annotation."""
    for part in (_whole_diagram, _element_counts, _neighbours, _labels, _contents, _relations):
        yield from part(a)


def flattened(value: Any) -> Iterator[Any]:
    """The items of a (nested) list answer, or the answer itself."""
    if isinstance(value, list):
        for v in value:
            yield from flattened(v)
    else:
        yield value


def check(a: Annotation, subtype: str, text: str) -> tuple[Any, str | None, str | None]:
    """The gold answer of a candidate, or why it has no unique, well-defined one:
    (answer, reason, detail) with reason None when the question is kept."""
    stem = text.split("\nRequired Output Format", 1)[0]
    names = re.findall(r"(?:Entity|Cluster|entity|cluster|label) '(.*?)'(?=[ ?]|$)", stem)
    if any(n == "" for n in names):
        return None, "an element it names has no name", None
    if any("'" in n or "\n" in n or "\\n" in n for n in names):
        return None, "a name it quotes holds a quote or a line break", None
    computed = recompute(a, subtype, text)
    if computed.problem is not None:
        reason = re.sub(r"'[^']*'|\"[^\"]*\"", "…", computed.problem)
        reason = re.sub(r"\d+ (entities|clusters|labelled|relations|elements)", r"N \1", reason)
        return None, reason, computed.problem
    answer = computed.answer
    if answer is None:
        return None, "no answer", None
    if kind_of(subtype) == "retrieval":
        if answer == []:
            return None, "empty answer", None
        values = [v for v in flattened(answer)]
        if any(v in ("", None) for v in values):
            return None, "the answer holds an element with no name", None
        if subtype == "type_on_the_relation" and a.family == "er" and any(
                v not in CARDINALITY_WORDS.values() for v in values):
            return None, "a cardinality has no SADU wording", f"{answer}"
        if subtype not in ("type_on_the_relation",):
            counts = Counter(e.name for e in a.entities) + Counter(c.name for c in a.clusters)
            shared = sorted({v for v in values if isinstance(v, str) and counts[v] > 1})
            if shared:
                return None, "ambiguous name in the answer", ", ".join(shared)
    return answer, None, None


# --- the diagrams read -----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Source:
    """One diagram of one input file, its name in the data set (`ident`) and the style
    it is drawn in ("": its engine's default drawing)."""

    path: Path
    block: int
    language: str
    engine: str
    text: str
    parsed: GraphDiagram
    ident: str = ""
    style: str = ""  # a style of its language (`Language.styles`) it is drawn in


@dataclass(frozen=True, slots=True)
class DiagramRejection(Record):
    """A diagram left out, and why."""

    file: str
    block: int
    reason: str
    detail: str | None = field(default=None, metadata=OMIT_NONE)


def _sources(paths: list[Path]) -> tuple[list[Source], list[DiagramRejection]]:
    from diagbench.languages import detect, source_files

    out: list[Source] = []
    rejected: list[DiagramRejection] = []
    for path in source_files(paths):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            rejected.append(DiagramRejection(str(path), 0, "unreadable file", str(exc)))
            continue
        found = detect(path, text)
        lang, engine = found.name, found.engine
        blocks = [source for _, source in found.split(text)]
        for parsed in found.read(text):
            reason, detail = None, None
            if not isinstance(parsed.diagram, GraphDiagram):
                reason = f"not a graph diagram ({parsed.kind})"
            elif parsed.errors:
                reason, detail = "the reader reported errors", str(parsed.errors[0])
            elif not parsed.diagram.entities:
                reason = "no entities"
            elif parsed.index >= len(blocks):
                reason = "the engine sees fewer diagrams"
            if reason is not None or not isinstance(parsed.diagram, GraphDiagram):
                rejected.append(DiagramRejection(str(path), parsed.index, str(reason), detail))
            else:
                out.append(Source(path, parsed.index, lang, engine, blocks[parsed.index],
                                  parsed.diagram))
    return _named(out), rejected


def _named(sources: list[Source]) -> list[Source]:
    """`sources` each named after its file (and block), a number added to repeated names."""
    used: Counter[str] = Counter()
    named = []
    for s in sources:
        stem = s.path.stem + (f"-{s.block}" if s.block else "")
        used[stem] += 1
        named.append(replace(s, ident=stem if used[stem] == 1 else f"{stem}-{used[stem]}"))
    return named


# --- rendering and the engine check ---------------------------------------------------

@dataclass(frozen=True, slots=True)
class Counts(Record):
    """Entities, relations and clusters, as read or as drawn."""

    entities: int
    relations: int
    clusters: int


@dataclass(frozen=True, slots=True)
class Drawing:
    """What the engine made of one diagram: the PNG's path in the data set ("" when not
    rendered, with why in `notes`) and the counts drawn in its SVG (None when unknown)."""

    image: str
    drawn: Counts | None
    notes: tuple[str, ...] = ()


def _drawn(source: Source, svg: str) -> Counts:
    """The entities, relations and clusters its engine drew (`Language.drawn`)."""
    from diagbench.languages import named

    drawn = named(source.language).drawn(source.parsed.kind, svg).counts
    return Counts(drawn["entities"], drawn["relations"], drawn["clusters"])


Render = Callable[[str, list[str], Path, str], list[Any]]


def _render(engine_name: str, sources: list[str], out: Path, fmt: str,
            jobs: int = 2, timeout: float = 60.0) -> list[Any]:
    from diagbench.languages import make_engine

    engine = make_engine(engine_name, jobs, timeout)
    return engine.render(sources, out, fmt)


def _prepare(source: Source, marked: bool) -> str:
    """The diagram's code as its language gives it to the engine, in its style
    (`Language.prepare`)."""
    from diagbench.languages import named

    return named(source.language).prepare(source.text, source.parsed.kind, marked,
                                          style=source.style)


def _version(results: list[Any]) -> str:
    """The engine version the last result that gives one gives."""
    return next((v for r in reversed(results) if (v := getattr(r, "version", "") or "")), "")


def _images(render: Render, name: str, group: list[Source], out: Path
            ) -> tuple[list[tuple[str, str]], str]:
    """Each diagram's PNG moved to out/images: its path ("" when not rendered) and why
    not; and the engine version."""
    staging = out / ".staging-png"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        results = render(name, [_prepare(s, False) for s in group], staging, "png")
        images = []
        for s, result in zip(group, results, strict=True):
            if not result.ok or result.image is None:
                images.append(("", f"not rendered: {result.error}"))
                continue
            shutil.move(str(result.image), out / "images" / f"{s.ident}.png")
            images.append((f"images/{s.ident}.png", ""))
        return images, _version(results)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _drawings(render: Render, name: str, group: list[Source], out: Path
              ) -> tuple[list[Counts | None], str]:
    """What each diagram's SVG draws (None when not rendered); and the engine version."""
    staging = out / ".staging-svg"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        results = render(name, [_prepare(s, True) for s in group], staging, "svg")
        drawn = [_drawn(s, Path(r.image).read_text(encoding="utf-8", errors="replace"))
                 if r.ok and r.image is not None else None
                 for s, r in zip(group, results, strict=False)]
        if len(drawn) != len(group):
            raise ValueError(f"{name} rendered {len(drawn)} SVGs of {len(group)} diagrams")
        return drawn, _version(results)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _render_all(sources: list[Source], out: Path, render: Render,
                progress: Callable[[str], None]) -> tuple[dict[str, Drawing], dict[str, str]]:
    """Each diagram's drawing by ident, and each engine's version, rendered engine by
    engine (its PNGs and SVGs at once)."""
    from concurrent.futures import ThreadPoolExecutor

    from diagbench.render.engines import ENGINES

    drawings: dict[str, Drawing] = {}
    versions: dict[str, str] = {}
    # the shared engines in their registry's order, then the languages' own
    for name in dict.fromkeys([*(n for n in ENGINES if any(s.engine == n for s in sources)),
                               *(s.engine for s in sources)]):
        group = [s for s in sources if s.engine == name]
        progress(f"rendering {len(group)} {name} diagrams")
        with ThreadPoolExecutor(max_workers=2) as pool:  # the image and the SVG at once
            pngs = pool.submit(_images, render, name, group, out)
            svgs = pool.submit(_drawings, render, name, group, out)
            (images, png_version), (drawn, svg_version) = pngs.result(), svgs.result()
        versions[name] = svg_version or png_version
        for s, (image, why), counts in zip(group, images, drawn, strict=True):
            drawings[s.ident] = Drawing(image, counts, (why,) if why else ())
    return drawings, versions


# --- asking -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class EngineCheck(Record):
    """A diagram's counts as read and as its engine drew them (`equal`: whether they
    agree)."""

    json_computed = ("equal",)

    diagram: str
    engine: str
    kind: str
    read: Counts
    drawn: Counts | None
    notes: tuple[str, ...]

    @property
    def equal(self) -> bool:
        return self.drawn == self.read


@dataclass(frozen=True, slots=True)
class QuestionRejection(Record):
    """A candidate question left out, and why."""

    diagram: str
    subtype: str
    question: str
    reason: str
    detail: str | None


@dataclass(frozen=True, slots=True)
class Kept:
    """A candidate question kept, with its gold answer."""

    subtype: str
    text: str
    answer: Any


@dataclass(frozen=True, slots=True)
class Asked:
    """One diagram annotated and asked: its annotation, engine check, the questions kept
    and those rejected."""

    annotation: Annotation
    check: EngineCheck
    kept: tuple[Kept, ...]
    rejected: tuple[QuestionRejection, ...]


_TOTALS = {"total_entity_number": "entities", "total_relation_number": "relations",
           "total_cluster_number": "clusters"}


def copied(source: Source, out: Path) -> str:
    """The diagram's source copied into out/sources: its path in the data set."""
    suffix = source.path.suffix if not source.block else f"-{source.block}{source.path.suffix}"
    copy = out / "sources" / f"{source.ident}{suffix}"
    copy.write_text(source.text, encoding="utf-8")
    return str(copy.relative_to(out))


def annotated(source: Source, drawing: Drawing, file: str
              ) -> tuple[Annotation, EngineCheck]:
    """The diagram annotated (its source at `file` in the data set) and checked against
    its drawing."""
    family = family_of(source.parsed.kind)
    annotation, notes = annotate(source.parsed, f"{family}/{source.ident}", file,
                                 drawing.image)
    read = Counts(len(annotation.entities), len(annotation.relations),
                  len(annotation.clusters))
    return annotation, EngineCheck(annotation.id, source.engine, source.parsed.kind, read,
                                   drawing.drawn, tuple(notes))


def verdict(check_: EngineCheck, annotation: Annotation, subtype: str, text: str
            ) -> tuple[Any, str | None, str | None]:
    """`check`, and a count the engine drew otherwise (`check_`) rejects a question
    about it."""
    answer, reason, detail = check(annotation, subtype, text)
    if reason is None and subtype in _TOTALS and check_.drawn is not None:
        field_name = _TOTALS[subtype]
        was, seen = getattr(check_.read, field_name), getattr(check_.drawn, field_name)
        if seen != was:
            return answer, "the engine drew another count", f"read {was}, drawn {seen}"
    return answer, reason, detail


def _ask(source: Source, drawing: Drawing, out: Path, per_subtype: int) -> Asked:
    """Copy the diagram's source into out/sources, annotate it, check it against its
    drawing and ask it every candidate question."""
    annotation, check_ = annotated(source, drawing, copied(source, out))
    ident = annotation.id
    kept: list[Kept] = []
    rejected: list[QuestionRejection] = []
    per: Counter[str] = Counter()
    for subtype, text in dict.fromkeys(candidates(annotation)):  # a text asked once
        answer, reason, detail = verdict(check_, annotation, subtype, text)
        if reason is None and per_subtype and per[subtype] >= per_subtype:
            reason = f"beyond --per-subtype {per_subtype}"
        if reason is not None:
            rejected.append(QuestionRejection(ident, subtype, text.split("\nRequired", 1)[0],
                                              reason, detail))
            continue
        per[subtype] += 1
        kept.append(Kept(subtype, text, answer))
    return Asked(annotation, check_, tuple(kept), tuple(rejected))


# --- the data set -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Original:
    """A diagram drawn and asked: its source, its drawing and what it was asked."""

    source: Source
    drawing: Drawing
    asked: Asked


@dataclass(frozen=True, slots=True)
class Twinned:
    """The twins of a build (`--twins`): their annotations and questions, what
    build.json records of each family, and the seed of their choices."""

    annotations: tuple[Annotation, ...]
    questions: tuple[Question, ...]
    info: dict[str, TwinsInfo]
    seed: int


#: Draws diagrams: each one's drawing by ident (the build's own render stage).
Draw = Callable[[list[Source]], dict[str, Drawing]]
#: Makes the twins of the diagrams drawn and asked (`twins.make_twins`), given the
#: questions kept, the data set's folder and the build's render stage.
MakeTwins = Callable[[list[Original], list[Question], Path, Draw], Twinned]


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What a build made and left out: build.json's content (`to_json`)."""

    per_subtype: int
    annotations: tuple[Annotation, ...]
    questions: tuple[Question, ...]
    languages: tuple[str, ...]  # the language of each diagram read
    diagrams_rejected: tuple[DiagramRejection, ...]
    checks: tuple[EngineCheck, ...]
    rejections: tuple[QuestionRejection, ...]
    versions: dict[str, str]
    twins: Twinned | None = None

    def to_json(self) -> dict[str, Any]:
        by_subtype = {t: 0 for t in SUBTYPES}
        by_subtype.update(Counter(q.subtype for q in self.questions))
        return {
            "diagrams": len(self.annotations),
            "questions": len(self.questions),
            "per_subtype": self.per_subtype,
            "by_subtype": by_subtype,
            "by_family": {f: {"diagrams": sum(a.family == f for a in self.annotations),
                              "questions": sum(q.family == f for q in self.questions)}
                          for f in ("behavioral", "structural", "er")},
            "by_language": dict(Counter(self.languages)),
            "rejected": dict(Counter(r.reason for r in self.rejections).most_common()),
            "rejected_by_subtype": dict(Counter(r.subtype for r in self.rejections
                                                ).most_common()),
            "diagrams_rejected": [r.to_json() for r in self.diagrams_rejected],
            "engine_check": [c.to_json() for c in self.checks],
            "engine_check_equal": sum(c.drawn == c.read for c in self.checks),
            "rejections": [r.to_json() for r in self.rejections],
            "versions": self.versions,
        } | ({} if self.twins is None else {
            "seed": self.twins.seed,
            "twins": {family: info.to_json() for family, info in self.twins.info.items()}})


def _questions(asked: list[Asked]) -> list[Question]:
    """The questions kept, numbered across the data set."""
    questions: list[Question] = []
    for one in asked:
        ident, family = one.annotation.id, one.annotation.family
        for k in one.kept:
            questions.append(Question(f"{ident}/{len(questions)}", ident, family, k.text,
                                      k.answer, k.subtype, kind_of(k.subtype),
                                      DIFFICULTY[k.subtype], k.answer))
    return questions


def build_archqa(paths: list[Path], out: Path, per_subtype: int = 1, jobs: int = 2,
                 render: Render | None = None,
                 progress: Callable[[str], None] = lambda _: None,
                 twins: MakeTwins | None = None) -> BuildReport:
    """Build the data set from the diagram files under `paths` into `out`: read, render,
    then annotate and ask each diagram drawn (and with `twins`, make the twins of those
    drawn); write the files and return the report. `per_subtype` keeps the first N
    well-defined questions of each subtype per diagram (0: all; SADU keeps one)."""
    sources, diagrams_rejected = _sources(paths)
    out.mkdir(parents=True, exist_ok=True)
    for sub in ("images", "sources"):
        shutil.rmtree(out / sub, ignore_errors=True)
        (out / sub).mkdir()
    def local(name: str, texts: list[str], folder: Path, fmt: str) -> list[Any]:
        return _render(name, texts, folder, fmt, jobs)

    drawings, versions = _render_all(sources, out, render or local, progress)
    originals: list[Original] = []
    for s in sources:
        drawing = drawings[s.ident]
        if not drawing.image:
            diagrams_rejected.append(DiagramRejection(str(s.path), s.block,
                                                      "the engine did not draw it",
                                                      "; ".join(drawing.notes)))
            continue
        originals.append(Original(s, drawing, _ask(s, drawing, out, per_subtype)))
    asked = [o.asked for o in originals]
    questions = _questions(asked)
    twinned = None if twins is None else twins(
        originals, questions, out,
        lambda group: _render_all(group, out, render or local, progress)[0])
    report = BuildReport(per_subtype, tuple(a.annotation for a in asked),
                         tuple(questions), tuple(s.language for s in sources),
                         tuple(diagrams_rejected), tuple(a.check for a in asked),
                         tuple(r for a in asked for r in a.rejected), versions, twinned)
    more = twinned or Twinned((), (), {}, 0)
    _write_jsonl(out / "annotations.jsonl",
                 [a.to_json() for a in (*report.annotations, *more.annotations)])
    _write_jsonl(out / "questions.jsonl",
                 [q.to_json() for q in (*report.questions, *more.questions)])
    (out / "build.json").write_text(json.dumps(report.to_json(), indent=1,
                                               ensure_ascii=False) + "\n", encoding="utf-8")
    return report


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")
