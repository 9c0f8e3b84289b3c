"""`diagbench import sadu SRC --out DATA`: SADU's published data set (the folder
``dataset/SAD`` of its repository: ``{behavior,structural,ER}/{Diagram,json_object,QA}``)
read into diagbench's records, its questions and answers kept as published, and every
gold answer recomputed from the annotation with `questions.recompute`.

Writes DATA/annotations.jsonl, DATA/questions.jsonl and DATA/import.json =
``{"questions": N, "recomputed_equal": K, "differences": [{"file", "sub_type",
"question", "published", "recomputed", "reason"}], …}``. Images stay where they are:
each annotation names its image by path (and import.json the source folder)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from diagbench.benchmarks.archqa.questions import SUBTYPES, Computed, kind_of, recompute
from diagbench.benchmarks.archqa.records import (
    SADU_FAMILY,
    Annotation,
    Attribute,
    Cluster,
    Entity,
    Question,
    Relation,
)
from diagbench.benchmarks.protocol import DataError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")


def _attribute(value: Any) -> Attribute:
    """A structural attribute is a name; an ER one [type, name, key, comment]."""
    if isinstance(value, str):
        return Attribute(value)
    parts = [str(v) for v in value] + ["", "", "", ""]
    return Attribute(parts[1], parts[0], parts[2], parts[3])


def annotation_from_sadu(data: dict, family: str, file: str, image: str) -> Annotation:
    """One SADU json_object as an `Annotation` (KeyError, TypeError when not one)."""
    entities = tuple(
        Entity(ident, str(e.get("name", "")),
               None if "attribute" not in e else tuple(_attribute(a) for a in e["attribute"]),
               None if "method" not in e else tuple(str(m) for m in e["method"]))
        for ident, e in data["entity"].items())
    clusters = tuple(Cluster(ident, str(c.get("name", "")), tuple(c.get("include_entity", [])),
                             tuple(c.get("include_cluster", [])))
                     for ident, c in data["cluster"].items())
    relations = tuple(Relation(r["source"], r["target"], str(r.get("name") or ""),
                               r.get("direction"), r.get("type"), r.get("source_cardinality"),
                               r.get("target_cardinality")) for r in data["relation"])
    fam = SADU_FAMILY[family]
    return Annotation(f"{fam}/{file}", fam, file, image, entities, clusters, relations,
                      data.get("difficulty"))


def _canonical(value: Any) -> Any:
    """A gold answer in a form compared with ==: lists of names sorted, pairs kept."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return sorted(value)
    if isinstance(value, list) and all(isinstance(v, list) for v in value):
        return sorted(value)
    return value


def explain(annotation: Annotation, question: Question, computed: Computed) -> str:
    """Why the published answer differs from the recomputed one (checked against the
    rules SADU's generator used, where they explain it)."""
    published, ours = question.gold, computed.answer
    sub = question.subtype
    if computed.problem and computed.problem.startswith("ambiguous name"):
        return computed.problem + "; the published answer picks one reading"
    if ours is None:
        return f"not recomputed: {computed.problem}"
    if computed.problem:
        return (f"ambiguous template: {computed.problem}; the published answer keeps "
                "the first one")
    if sub == "entities_have_more_than_one_relations":
        return _degree_rule(annotation, published)
    if sub in ("relation_source", "relation_target", "relation_statement") and \
            isinstance(published, list) and all(isinstance(p, str) for p in published) \
            and sorted(set(published)) == ours:
        return ("duplicate in the published answer: two relations join the same pair, "
                "and the gold lists the name twice")
    if sub == "which_relation_has_certain_label" and isinstance(published, list) and \
            len(ours) > len(published) and all(p in ours for p in published):
        return (f"ambiguous template: {len(ours)} relations carry the label; the published "
                "answer lists the first one only")
    if sub == "type_on_the_relation" and annotation.family == "er" and \
            isinstance(published, list) and published and published[0] == ours[0][::-1]:
        return ("template rule: the relation is drawn from the second-named element, and "
                "the published cardinalities are in the relation's order, not the "
                "question's")
    return ("annotation and published answer disagree: the QA file was not regenerated "
            "after the annotation changed, or the answer was edited by hand")


def _degree_rule(annotation: Annotation, published: Any) -> str:
    """Which of SADU's generator's readings of "entities that have more than one
    relation" gives the published count: it counts relation ends, of clusters too."""
    ends: Counter[str] = Counter()
    entity_ends: Counter[str] = Counter()
    entities = {e.id for e in annotation.entities}
    for r in annotation.relations:
        ends.update([r.source, r.target])
        entity_ends.update(x for x in (r.source, r.target) if x in entities)
    if published == [sum(n >= 2 for n in ends.values())]:
        clusters = sum(n >= 2 for x, n in ends.items() if x not in entities)
        loops = sum(r.source == r.target for r in annotation.relations)
        return (f"template rule: SADU's generator counts relation ends of entities and "
                f"clusters alike ({clusters} cluster(s) with two or more relation ends"
                + (f", {loops} relations of an element to itself counted twice" if loops
                   else "") + "); the question asks about entities")
    return ("annotation and published answer disagree: the QA file was not regenerated "
            "after the annotation changed, or the answer was edited by hand")


@dataclass(slots=True)
class Imported:
    """What an import read: the annotations and questions, the differences between the
    published and the recomputed answers, and the diagrams that could not be read (each
    "FILE: reason"; the others are imported)."""

    annotations: list[Annotation] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    differences: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def add(self, annotation: Annotation, qa_path: Path, published: Any,
            question: Callable[[Question], Question] = lambda q: q,
            difference: Callable[[dict], dict] = lambda d: d) -> None:
        """One diagram and its published questions (as `question` and `difference`
        adapt them); a question that cannot be read leaves the whole diagram out."""
        if not isinstance(published, list):
            raise DataError(f"{qa_path}: not a list of SADU questions")
        read = [sadu_question(annotation, qa, number, qa_path)
                for number, qa in enumerate(published)]
        self.annotations.append(annotation)
        for q, d in read:
            self.questions.append(question(q))
            if d:
                self.differences.append(difference(d))


def read_sadu(source: Path) -> Imported:
    """The annotations and questions of SADU's folder `source`, and the differences
    between the published and the recomputed answers."""
    imported = Imported()
    for family in SADU_FAMILY:
        folder = source / family
        objects = sorted((folder / "json_object").glob("*.json"))
        if not objects:
            raise DataError(f"{folder / 'json_object'}: no annotation (is {source} SADU's "
                            "dataset/SAD or dataset/SAD_hard folder?)")
        for path in objects:
            file = path.stem
            image = next((folder / "Diagram" / (file + s) for s in IMAGE_SUFFIXES
                          if (folder / "Diagram" / (file + s)).is_file()), None)
            qa_path = folder / "QA" / f"{file}_QA.json"
            try:
                if image is None:
                    raise DataError(f"{folder / 'Diagram'}: no image of {file}")
                imported.add(annotation_of(path, family, file, image), qa_path,
                             load_json(qa_path))
            except DataError as exc:  # reported; the other diagrams are imported
                imported.problems.append(str(exc))
    return imported


def annotation_of(path: Path, family: str, file: str, image: Path) -> Annotation:
    """The annotation in SADU's JSON file `path` (DataError when it is not one)."""
    try:
        return annotation_from_sadu(load_json(path), family, file, str(image.resolve()))
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise DataError(f"{path}: not a SADU annotation ({exc!r})") from None


def sadu_question(annotation: Annotation, qa: dict, number: int, path: Path
                  ) -> tuple[Question, dict | None]:
    """The question `number` of the QA file `path` about `annotation`, and its
    difference from the recomputed answer (None when they agree)."""
    try:
        subtype, text, gold = qa["metadata"]["sub_type"], qa["question"], qa["answer"]
        if not isinstance(text, str) or not isinstance(subtype, str):
            raise TypeError("question and subtype are text")
    except (KeyError, TypeError):
        raise DataError(f"{path}: question {number}: not a SADU question") from None
    if subtype not in SUBTYPES:
        raise DataError(f"{path}: question {number}: unknown subtype {subtype!r}")
    computed = recompute(annotation, subtype, text)
    question = Question(f"{annotation.id}/{number}", annotation.id, annotation.family, text,
                        gold, subtype, kind_of(subtype), qa["metadata"].get("difficulty"),
                        computed.answer)
    if computed.problem is None and _canonical(computed.answer) == _canonical(gold):
        return question, None
    return question, {"file": f"{annotation.family}/{annotation.file}", "sub_type": subtype,
                      "question": text.split("\nRequired Output Format", 1)[0].strip(),
                      "published": gold, "recomputed": computed.answer,
                      "reason": explain(annotation, question, computed)}


def load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: not JSON ({exc})") from None


def reason_class(reason: str) -> str:
    """The class of a difference's reason (its words before the colon)."""
    return reason.split(":", 1)[0]


Reader = Callable[[Path], Imported]


def import_sadu(source: Path, out: Path, read: Reader = read_sadu,
                capture_seed: int | None = None) -> dict:
    """Read SADU's folder `source` (with `read`: `read_sadu` for dataset/SAD,
    `hard.read_sad_hard` for dataset/SAD_hard) into `out`; with `capture_seed`, also a
    capture twin of each diagram (`twins.capture_twins`, seeded by it: SADU's diagrams
    have no source, so no other twin); return import.json's content."""
    imported = read(source)
    annotations, questions, differences = (imported.annotations, imported.questions,
                                           imported.differences)
    out.mkdir(parents=True, exist_ok=True)
    twins = None
    if capture_seed is not None:
        from diagbench.benchmarks.archqa.twins import capture_twins

        twins = capture_twins(annotations, questions, out, capture_seed)
    more = ((), ()) if twins is None else (twins.annotations, twins.questions)
    _write_jsonl(out / "annotations.jsonl", [a.to_json() for a in (*annotations, *more[0])])
    _write_jsonl(out / "questions.jsonl", [q.to_json() for q in (*questions, *more[1])])
    digest = hashlib.sha256((out / "questions.jsonl").read_bytes()).hexdigest()
    info = {
        "source": str(source.resolve()), "diagrams": len(annotations),
        "questions": len(questions), "recomputed_equal": len(questions) - len(differences),
        "by_family": dict(Counter(q.family for q in questions)),
        **({"by_pattern": dict(Counter(q.pattern for q in questions))}
           if any(q.pattern for q in questions) else {}),
        "by_subtype": dict(sorted(Counter(q.subtype for q in questions).items())),
        "differences_by_reason": dict(Counter(reason_class(d["reason"]) for d in differences)),
        "differences_by_subtype": dict(Counter(d["sub_type"] for d in differences)),
        "questions_sha256": digest, "differences": differences,
        "problems": imported.problems,
    } | ({} if twins is None else {
        "seed": twins.seed,
        "twins": {family: made.to_json() for family, made in twins.info.items()}})
    (out / "import.json").write_text(json.dumps(info, indent=1, ensure_ascii=False) + "\n",
                                     encoding="utf-8")
    return info


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")
