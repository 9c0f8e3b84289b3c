"""archqa's samples for `diagbench view`: each model's answer to each question, from a
run of `eval archqa` (its saved responses) or of `score archqa --responses` (the logs
it scored); a question about a diagram with twins is shown beside the same question on
its original and its other twins (each image with its change named, its gold and the
model's answer)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from diagbench.benchmarks.jsonl import not_json, read_text
from diagbench.report.view import Beside, SampleView, as_text

if TYPE_CHECKING:
    from diagbench.benchmarks.archqa.records import Annotation, ArchQAScore, Question
    from diagbench.benchmarks.protocol import Benchmark


def sample_views(bench: Benchmark, run: Path, data: Path | None = None
                 ) -> Iterator[SampleView]:
    """The views of `run`: asked questions with their prompts, or logged answers."""
    try:
        manifest = json.loads(read_text(run / "manifest.json"))
    except json.JSONDecodeError as exc:
        raise not_json(run / "manifest.json", exc) from None
    if manifest.get("source") == "response logs":
        yield from _logged(bench, run, manifest)
        return
    from diagbench.benchmarks.runs import replayed

    back = replayed(bench, run, data)
    besides = _Twins(back.data.samples, getattr(bench, "twins", {}),
                     getattr(bench, "images", {}),
                     {(model, s.id): s for model, s in back.each()})
    for model, s in back.each():
        ask = back.ask(s.id)
        yield _view(bench.name, s, ask.prompt, ask.image, back.text(model, s.id),
                    back.reasoning(model, s.id), back.flags(model, s.id),
                    besides.of(model, s.id), besides.change(s.id))


def _logged(bench: Benchmark, run: Path, manifest: Mapping) -> Iterator[SampleView]:
    """The views of logs scored against a data set, or on their own questions (no
    images then)."""
    from diagbench.benchmarks.archqa.answers import read_log
    from diagbench.benchmarks.archqa.data import load_data
    from diagbench.benchmarks.archqa.log_questions import logs_as_data

    files = {model: Path(entry["file"]) for model, entry in manifest["logs"].items()}
    images: dict[str, str] = {}
    if manifest.get("data"):
        questions, images, _ = load_data(Path(manifest["data"]))
        logs = {model: read_log(path, questions) for model, path in files.items()}
    else:
        questions, read, _ = logs_as_data(list(files.values()))
        logs = dict(zip(files, read, strict=True))
    by_id = {q.id: q for q in questions}
    for model, records in bench.load_scores(run, list(files)).items():
        for s in records:
            q = by_id[s.id]
            logged = logs[model].answers.get(s.id)
            yield _view(bench.name, s, q.text,
                        Path(images[q.diagram]) if q.diagram in images else None,
                        logged.response if logged else None)


def _view(benchmark: str, s: ArchQAScore, prompt: str, image: Path | None,
          answer: str | None, reasoning: str | None = None, flags: tuple[str, ...] = (),
          beside: tuple[Beside, ...] = (), twin: str | None = None) -> SampleView:
    if s.judge is not None and s.judge != s.correct:
        flags += (f"the judge disagrees (judge: {'right' if s.judge else 'wrong'})",)
    parts = {"where": s.where, "read as": s.prediction, "difficulty": s.difficulty,
             "scorer": s.scorer, "judge": s.judge, "judge note": s.judge_note,
             "notes": list(s.notes)}
    if twin is not None:
        parts |= {"twin": twin, "answered from habit": s.habit}
    return SampleView(
        benchmark, s.model, s.id, s.subtype, s.family, s.status, prompt, image, answer,
        as_text(s.answer), as_text(s.gold), correct=s.correct, parts=parts,
        error=s.error, reasoning=reasoning, flags=flags, beside=beside)


class _Twins:
    """The same question on a diagram's original and twins, for `SampleView.beside`:
    `questions` the run's, `twins` the data set's twin diagrams by id, `images` each
    diagram's image, `scores` every (model, question id)'s score."""

    def __init__(self, questions: Sequence[Question], twins: Mapping[str, Annotation],
                 images: Mapping[str, str],
                 scores: Mapping[tuple[str, str], ArchQAScore]) -> None:
        self.questions = {q.id: q for q in questions}
        self.twins, self.images, self.scores = twins, images, scores
        #: a question's group: the original's question id and the twins' asked it too
        self.groups: dict[str, list[str]] = {}
        if twins:
            for q in questions:
                self.groups.setdefault(self._key(q), []).append(q.id)

    def _key(self, q: Question) -> str:
        return q.twin_of if q.twin_of in self.questions else q.id

    def of(self, model: str, ident: str) -> tuple[Beside, ...]:
        """The original and twins of question `ident`'s diagram but its own (none: it
        has none), each with the gold of the question there and `model`'s answer; a
        twin's question its original was not asked shows the original's image with the
        original's answer."""
        q = self.questions.get(ident)
        if q is None or not self.groups:
            return ()
        shown = [self._beside(model, other) for other in self.groups.get(self._key(q), [])
                 if other != ident]
        twin = self.twins.get(q.diagram)
        if twin is not None and twin.twin_of is not None and q.twin_of not in self.questions:
            gold = () if q.original_gold is None else \
                (f"gold there: {as_text(q.original_gold)}",)
            shown.insert(0, Beside("the original (not asked this question)",
                                   self._image(twin.twin_of), gold))
        return tuple(shown)

    def change(self, ident: str) -> str | None:
        """"FAMILY twin: CHANGE" of question `ident`'s diagram (None: not a twin's)."""
        q = self.questions.get(ident)
        twin = self.twins.get(q.diagram) if q else None
        return f"{twin.twin.family} twin: {twin.twin.change}" if twin and twin.twin else None

    def _image(self, diagram: str) -> Path | None:
        return Path(self.images[diagram]) if diagram in self.images else None

    def _beside(self, model: str, ident: str) -> Beside:
        q = self.questions[ident]
        score = self.scores.get((model, ident))
        lines = [f"gold: {as_text(q.gold)}"]
        if score is not None:
            lines.append(f"read from the answer: {as_text(score.prediction)} "
                         f"({'right' if score.correct else 'wrong'})"
                         if score.status == "ok" else f"no answer: {score.status}")
            if score.habit:
                lines.append("the original's answer (answered from habit)")
        return Beside(self.change(ident) or "the original", self._image(q.diagram),
                      tuple(lines))
