"""Reading an archqa data set (DATA/annotations.jsonl and DATA/questions.jsonl, as
`diagbench import sadu` writes them)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from diagbench.benchmarks.archqa.records import Annotation, Question
from diagbench.benchmarks.jsonl import read_jsonl
from diagbench.benchmarks.protocol import DataError


def load_annotations(data: Path) -> list[Annotation]:
    """The annotations of the data set `data` (DataError naming the line when one is
    not an annotation)."""
    out = []
    for number, row in read_jsonl(data / "annotations.jsonl"):
        try:
            out.append(Annotation.from_json(row))
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"{data / 'annotations.jsonl'}:{number}: not an annotation "
                            f"({exc!r})") from None
    return out


def load_twins(data: Path) -> dict[str, Annotation]:
    """The twins of the data set `data` (`build archqa --twins`), by diagram id."""
    return {a.id: a for a in load_annotations(data) if a.twin is not None}


def load_data(data: Path) -> tuple[list[Question], dict[str, str], str]:
    """The questions of `data`, the image of each diagram (by diagram id) and the
    sha256 of questions.jsonl."""
    images = {a.id: str(data / a.image) for a in load_annotations(data)}  # relative: to DATA
    questions = []
    for number, row in read_jsonl(data / "questions.jsonl"):
        try:
            question = Question.from_json(row)
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"{data / 'questions.jsonl'}:{number}: not a question "
                            f"({exc!r})") from None
        if question.diagram not in images:
            raise DataError(f"{data / 'questions.jsonl'}:{number}: no annotation of "
                            f"{question.diagram}")
        questions.append(question)
    digest = hashlib.sha256((data / "questions.jsonl").read_bytes()).hexdigest()
    return questions, images, digest
