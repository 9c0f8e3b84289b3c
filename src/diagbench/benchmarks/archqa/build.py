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
   confirm rejects the question about it.

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
from dataclasses import dataclass, field
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
)
from diagbench.diagram.graph import GraphDiagram

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


def candidates(a: Annotation) -> Iterator[tuple[str, str]]:
    """Every question SADU's templates can ask about `a`, as (subtype, text), in the
    order of the subtypes and, within one, of the annotation."""
    for subtype, stem in (
            ("total_entity_number", "How many entities are in the diagram?"),
            ("total_relation_number", "How many relations are in the diagram?"),
            ("entities_have_more_than_one_relations",
             "How many entities have more than one relation?"),
            ("total_cluster_number", "How many clusters are in the diagram?"),
            ("how_many_entities_not_in_clusters",
             "How many entities are not contained in any cluster?"),
            ("how_many_relations_have_label", "How many relations have a label?"),
            ("how_many_clusters_have_clusters_within",
             "How many clusters contain at least one sub-cluster (nested clusters)?"),
            ("how_many_relation_types", "How many relation types appear in the diagram?")):
        yield _q(subtype, stem)
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
    entity_ends = {end for r in a.relations for end in (r.source, r.target)}
    for e in a.entities:
        if e.id in entity_ends:
            yield _q("relation_statement", f"Which entity has a relation with Entity '{e.name}'?")
    for c in a.clusters:
        yield _q("certain_cluster_contains_entity",
                 f"Which entities are contained in cluster '{c.name}'? ")
    for r in a.relations:
        if not r.label:
            continue
        s, t = a.name(r.source), a.name(r.target)
        ks, kt = _kind(a, r.source), _kind(a, r.target)
        yield _q("label_on_the_relation",
                 f"What is the label on the relation between {ks} '{s}' and {kt} '{t}'?")
    for r in a.relations:
        if r.label:
            yield _q("label_on_the_relation_source",
                     f"Which {_kind(a, r.source, False)} has a relation with label "
                     f"'{r.label}' to {_kind(a, r.target)} '{a.name(r.target)}'?")
    for r in a.relations:
        if r.label:
            yield _q("label_on_the_relation_target",
                     f"Which {_kind(a, r.target, False)} has a relation with label "
                     f"'{r.label}' from {_kind(a, r.source)} '{a.name(r.source)}'? ")
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
    for r in a.relations:
        yield _q("type_on_the_relation", _TYPE_STEMS[a.family].format(
            f"{_kind(a, r.source)} '{a.name(r.source)}'",
            f"{_kind(a, r.target)} '{a.name(r.target)}'"))
    targets = [r.target for r in a.relations] + [r.source for r in a.relations]
    for e in a.entities:
        if e.id in targets[:len(a.relations)]:
            yield _q("relation_source",
                     f"Which entity is the source in a relation to Entity '{e.name}'?")
    for e in a.entities:
        if e.id in targets[len(a.relations):]:
            yield _q("relation_target",
                     f"Which entity is the target in a relation from Entity '{e.name}'?")
    labels = list(dict.fromkeys(r.label for r in a.relations if r.label))
    for label in labels:
        yield _q("which_relation_has_certain_label",
                 f"Which relation(s) carry the label '{label}'? Please use format [source "
                 "entity, target entity] to represent certain relation.")


def _flat(value: Any) -> Iterator[Any]:
    if isinstance(value, list):
        for v in value:
            yield from _flat(v)
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
        values = [v for v in _flat(answer)]
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


# --- rendering and the engine check ---------------------------------------------------

@dataclass
class Source:
    """One diagram of one input file."""

    path: Path
    block: int
    language: str
    engine: str
    text: str
    parsed: Any
    ident: str = ""
    notes: list[str] = field(default_factory=list)


def _sources(paths: list[Path]) -> tuple[list[Source], list[dict]]:
    from diagbench.languages import detect, source_files
    from diagbench.render.engines import diagrams

    out: list[Source] = []
    rejected: list[dict] = []
    for path in source_files(paths):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            rejected.append({"file": str(path), "block": 0, "reason": "unreadable file",
                             "detail": str(exc)})
            continue
        found = detect(path, text)
        lang, engine = found.name, found.engine
        blocks = diagrams(engine, text)
        for parsed in found.read(text):
            base = {"file": str(path), "block": parsed.index}
            if not isinstance(parsed.diagram, GraphDiagram):
                rejected.append(base | {"reason": f"not a graph diagram ({parsed.kind})"})
            elif parsed.errors:
                rejected.append(base | {"reason": "the reader reported errors",
                                        "detail": str(parsed.errors[0])})
            elif not parsed.diagram.entities:
                rejected.append(base | {"reason": "no entities"})
            elif parsed.index >= len(blocks):
                rejected.append(base | {"reason": "the engine sees fewer diagrams"})
            else:
                out.append(Source(path, parsed.index, lang, engine, blocks[parsed.index],
                                  parsed.diagram))
    return out, rejected


def _drawn(engine: str, svg: str) -> dict[str, int] | None:
    from diagbench.render.graph_stats import graph_statistics
    from diagbench.render.graph_svg import drawn_graph

    if engine == "plantuml":
        stats: dict[str, Any] = graph_statistics(svg)
    else:
        found = drawn_graph(engine, svg)
        if found is None:
            return None
        stats = dict(found)
    return {k: int(stats[k]) for k in ("entities", "relations", "clusters")}


Render = Callable[[str, list[str], Path, str], list[Any]]


def _render(engine_name: str, sources: list[str], out: Path, fmt: str,
            jobs: int = 2, timeout: float = 60.0) -> list[Any]:
    from diagbench.render.engines import make_engine
    engine = make_engine(engine_name, jobs, timeout)
    return engine.render(sources, out, fmt)


def _prepare(source: Source, for_stats: bool) -> str:
    from diagbench.render.graph_stats import map_c4_includes, mark_graph
    if source.engine != "plantuml":
        return source.text
    text = map_c4_includes(source.text)
    return mark_graph(text) if for_stats else text


_TOTALS = {"total_entity_number": "entities", "total_relation_number": "relations",
           "total_cluster_number": "clusters"}


def build_archqa(paths: list[Path], out: Path, per_subtype: int = 1, jobs: int = 2,
                 render: Render | None = None,
                 progress: Callable[[str], None] = lambda _: None) -> dict:
    """Build the data set from the diagram files under `paths` into `out`; return
    build.json's content. `per_subtype` keeps the first N well-defined questions of
    each subtype per diagram (0: all; SADU keeps one)."""
    from diagbench.render.engines import ENGINES

    def do_render(name: str, texts: list[str], folder: Path, fmt: str) -> list[Any]:
        if render is not None:
            return render(name, texts, folder, fmt)
        return _render(name, texts, folder, fmt, jobs)

    sources, diagram_rejections = _sources(paths)
    out.mkdir(parents=True, exist_ok=True)
    for sub in ("images", "sources"):
        shutil.rmtree(out / sub, ignore_errors=True)
        (out / sub).mkdir()
    used: Counter[str] = Counter()
    for s in sources:
        stem = s.path.stem + (f"-{s.block}" if s.block else "")
        used[stem] += 1
        s.ident = stem if used[stem] == 1 else f"{stem}-{used[stem]}"
    drawn: dict[str, dict[str, int] | None] = {}
    images: dict[str, str] = {}
    versions: dict[str, str] = {}

    def one(name: str, group: list[Source], fmt: str) -> None:
        staging = out / f".staging-{fmt}"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        try:
            results = do_render(name, [_prepare(s, fmt == "svg") for s in group], staging, fmt)
            for s, result in zip(group, results, strict=True):
                versions[name] = getattr(result, "version", "") or versions.get(name, "")
                if not result.ok or result.image is None:
                    if fmt == "png":
                        images[s.ident] = ""
                        s.notes.append(f"not rendered: {result.error}")
                    continue
                if fmt == "png":
                    shutil.move(str(result.image), out / "images" / f"{s.ident}.png")
                    images[s.ident] = f"images/{s.ident}.png"
                else:
                    drawn[s.ident] = _drawn(name, Path(result.image).read_text(
                        encoding="utf-8", errors="replace"))
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    from concurrent.futures import ThreadPoolExecutor
    for name in ENGINES:
        group = [s for s in sources if s.engine == name]
        if group:
            progress(f"rendering {len(group)} {name} diagrams")
            with ThreadPoolExecutor(max_workers=2) as pool:  # the image and the SVG at once
                list(pool.map(one, (name, name), (group, group), ("png", "svg")))

    annotations: list[Annotation] = []
    questions: list[Question] = []
    rejections: list[dict] = []
    engine_check: list[dict] = []
    for s in sources:
        if not images.get(s.ident):
            diagram_rejections.append({"file": str(s.path), "block": s.block,
                                       "reason": "the engine did not draw it",
                                       "detail": "; ".join(s.notes)})
            continue
        family = family_of(s.parsed.kind)
        ident = f"{family}/{s.ident}"
        suffix = s.path.suffix if not s.block else f"-{s.block}{s.path.suffix}"
        copy = out / "sources" / f"{s.ident}{suffix}"
        copy.write_text(s.text, encoding="utf-8")
        annotation, notes = annotate(s.parsed, ident, str(copy.relative_to(out)),
                                     images[s.ident])
        annotations.append(annotation)
        read = {"entities": len(annotation.entities), "relations": len(annotation.relations),
                "clusters": len(annotation.clusters)}
        seen = drawn.get(s.ident)
        engine_check.append({"diagram": ident, "engine": s.engine, "kind": s.parsed.kind,
                             "read": read, "drawn": seen, "equal": seen == read,
                             "notes": notes})
        kept: Counter[str] = Counter()
        for subtype, text in dict.fromkeys(candidates(annotation)):  # a text asked once
            answer, reason, detail = check(annotation, subtype, text)
            if reason is None and subtype in _TOTALS and seen is not None \
                    and seen[_TOTALS[subtype]] != read[_TOTALS[subtype]]:
                reason = "the engine drew another count"
                detail = f"read {read[_TOTALS[subtype]]}, drawn {seen[_TOTALS[subtype]]}"
            if reason is None and per_subtype and kept[subtype] >= per_subtype:
                reason = f"beyond --per-subtype {per_subtype}"
            if reason is not None:
                rejections.append({"diagram": ident, "subtype": subtype,
                                   "question": text.split("\nRequired", 1)[0],
                                   "reason": reason, "detail": detail})
                continue
            kept[subtype] += 1
            questions.append(Question(f"{ident}/{len(questions)}", ident, family, text,
                                      answer, subtype, kind_of(subtype),
                                      DIFFICULTY[subtype], answer))
    _write_jsonl(out / "annotations.jsonl", [a.to_json() for a in annotations])
    _write_jsonl(out / "questions.jsonl", [q.to_json() for q in questions])
    by_subtype = {t: 0 for t in SUBTYPES}
    by_subtype.update(Counter(q.subtype for q in questions))
    info = {
        "diagrams": len(annotations),
        "questions": len(questions),
        "per_subtype": per_subtype,
        "by_subtype": by_subtype,
        "by_family": {f: {"diagrams": sum(a.family == f for a in annotations),
                          "questions": sum(q.family == f for q in questions)}
                      for f in ("behavioral", "structural", "er")},
        "by_language": dict(Counter(s.language for s in sources)),
        "rejected": dict(Counter(r["reason"] for r in rejections).most_common()),
        "rejected_by_subtype": {t: n for t, n in Counter(r["subtype"] for r in rejections
                                                         ).most_common()},
        "diagrams_rejected": diagram_rejections,
        "engine_check": engine_check,
        "engine_check_equal": sum(c["equal"] for c in engine_check),
        "rejections": rejections,
        "versions": versions,
    }
    (out / "build.json").write_text(json.dumps(info, indent=1, ensure_ascii=False) + "\n",
                                    encoding="utf-8")
    return info


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")
