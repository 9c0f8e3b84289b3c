"""structure's samples for `diagbench view`: each model's answer to each task, and a
question about a diagram with twins shown beside the same question on its original and
its other twins (each image with its change named, its gold and the model's answer)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from diagbench.report.view import Beside, SampleView, as_text

if TYPE_CHECKING:
    from diagbench.benchmarks.protocol import Benchmark
    from diagbench.benchmarks.structure.records import StructureScore, StructureTask


def sample_views(bench: Benchmark, run: Path, data: Path | None = None
                 ) -> Iterator[SampleView]:
    from diagbench.benchmarks.runs import model_dir, replayed

    back = replayed(bench, run, data)
    besides = _Twins(back.data.samples, getattr(bench, "data_dir", Path(".")),
                     {(model, s.id): s for model, s in back.each()})
    for model, s in back.each():
        ask = back.ask(s.id)
        parts = {"read": s.read, "language": s.language, "answer type": s.answer_type,
                 "valid": s.valid, "entity F1": s.entity_f1,
                 "relation F1": s.relation_f1, **(s.parts or {}),
                 "STRUDEL counts-only": s.counts_score, "twin": besides.change(s.id),
                 "answered from habit": s.habit}
        if s.matchings:  # scored both ways: each matching's verdict or score
            parts |= {"strict reading": s.matchings.strict,
                      "STRUDEL's matching": s.matchings.strudel}
        gold = as_text(s.gold)
        if s.task == "image_to_code" and gold is not None:  # the gold code, not its path
            source = getattr(bench, "data_dir", Path(".")) / gold
            gold = source.read_text(encoding="utf-8") if source.is_file() else gold
        yield SampleView(
            bench.name, model, s.id, s.task, s.category, s.status, ask.prompt, ask.image,
            back.text(model, s.id), as_text(s.predicted), gold,
            correct=s.correct, score=s.score,
            parts={k: v for k, v in parts.items() if v is not None}, error=s.error,
            reasoning=back.reasoning(model, s.id), language=s.language,
            prediction_image=model_dir(run, model) / s.drawn if s.drawn else None,
            flags=back.flags(model, s.id), task_type=s.task_type, domain=s.domain,
            beside=besides.of(model, s.id))


class _Twins:
    """The same question on a diagram's original and twins, for `SampleView.beside`:
    `tasks` the run's, `data` the data set (its images; samples.jsonl names each twin's
    original and change), `scores` every (model, task id)'s score."""

    def __init__(self, tasks: Sequence[StructureTask], data: Path,
                 scores: dict[tuple[str, str], StructureScore]) -> None:
        from diagbench.benchmarks.structure.records import load_samples

        self.tasks = {t.id: t for t in tasks}
        self.samples = load_samples(data) if any(
            t.twin_of is not None or t.original_gold is not None for t in tasks) else {}
        #: a question's group: the original's task id and the twins' asked it too
        self.groups: dict[str, list[str]] = {}
        for t in tasks:
            key = t.twin_of if t.twin_of in self.tasks else t.id
            self.groups.setdefault(str(key), []).append(t.id)
        self.data, self.scores = data, scores

    def of(self, model: str, ident: str) -> tuple[Beside, ...]:
        """The original and twins of task `ident`'s diagram but its own (none: it has
        none), each with the gold of the question there and `model`'s answer; a twin's
        question its original was not asked shows the original's image with the
        original's answer."""
        task = self.tasks.get(ident)
        if task is None:
            return ()
        group = self.groups.get(task.twin_of if task.twin_of in self.tasks
                                else ident, [])
        shown = [self._beside(model, other) for other in group if other != ident]
        twin = self.samples.get(task.sample)
        original = self.samples.get(twin.twin_of) if twin and twin.twin_of else None
        if original is not None and task.twin_of not in self.tasks:
            gold = [] if task.original_gold is None else \
                [f"gold there: {as_text(task.original_gold)}"]
            shown.insert(0, Beside("the original (not asked this question)",
                                   self.data / original.image, tuple(gold)))
        return tuple(shown)

    def change(self, ident: str) -> str | None:
        """"FAMILY twin: CHANGE" of task `ident`'s diagram (None: not a twin's)."""
        task = self.tasks.get(ident)
        sample = self.samples.get(task.sample) if task else None
        twin = sample.twin if sample else None
        return f"{twin.family} twin: {twin.change}" if twin else None

    def _beside(self, model: str, ident: str) -> Beside:
        task = self.tasks[ident]
        score = self.scores.get((model, ident))
        lines = [f"gold: {as_text(task.gold)}"]
        if score is not None:
            verdict = "" if score.correct is None else \
                (" (right)" if score.correct else " (wrong)")
            lines.append(f"read from the answer: {as_text(score.predicted)}{verdict}"
                         if score.status == "ok" else f"no answer: {score.status}")
            if score.habit:
                lines.append("the original's answer (answered from habit)")
        return Beside(self.change(ident) or "the original", self.data / task.image,
                      tuple(lines))
