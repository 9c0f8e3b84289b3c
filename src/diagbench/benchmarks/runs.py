"""The phases of a run, generic over the registry: `evaluate` (samples → prompts →
models → scores → summary → report), `rescore` (the same from the run's saved
responses, no model called) and `rereport` (the report from the saved scores).

    RUN/manifest.json               benchmark, data hashes, options, models as asked and served
    RUN/models/MODEL/responses.jsonl  the runner's records (and whatever the benchmark keeps)

MODEL is the model's name in the run (`model_names`) made a directory name
(`openai:gpt-4o` → `openai_gpt-4o`); a model asked on two servers is two models.
    RUN/scores.jsonl                one line per score record, model by model
    RUN/summary.json                the benchmark's summary
    RUN/usage.json                  per model: tokens, answers cut by the token limit, cost
    RUN/report.html, plots/         the report
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from diagbench.benchmarks.asking import Answer, Ask, ask_model, replay
from diagbench.benchmarks.jsonl import read_text
from diagbench.benchmarks.progress import Bars, no_bars
from diagbench.benchmarks.protocol import Benchmark, DataError, Dataset
from diagbench.benchmarks.usage import USAGE, correct_count, model_usage
from diagbench.executors.local import LocalExecutor
from diagbench.executors.protocol import Executor
from diagbench.models.providers import ModelSpec
from diagbench.models.run_dir import write_manifest
from diagbench.models.settings import ModelSettings


@dataclass(frozen=True, slots=True)
class RunResult:
    """A finished run: its data, every model's scores, the summary and the report."""

    run: Path
    data: Dataset
    scores: Mapping[str, list[Any]]
    summary: Any
    report: Path
    #: Per model, its tokens, truncation and cost (usage.json).
    usage: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


def model_names(models: Sequence[ModelSpec]) -> list[str]:
    """Each model's name in a run (its scores, summary and directory): `provider:model`,
    or `provider:model@BASE_URL` when another model of the run has the same
    `provider:model` on another server."""
    count = Counter(m.name for m in models)
    return [m.name if count[m.name] == 1 else f"{m.name}@{m.base_url}" for m in models]


def model_dir_name(name: str) -> str:
    """A directory name for a model id (`openai:gpt-4o` → `openai_gpt-4o`)."""
    return re.sub(r"[^\w.-]+", "_", name).strip("_")


def model_dir(run: Path, name: str) -> Path:
    return run / "models" / model_dir_name(name)


def evaluate(bench: Benchmark[Any, Any], models: list[ModelSettings], run: Path,
             options: dict[str, Any], max_connections: int = 8,
             bars: Bars = no_bars, executor: Executor | None = None) -> RunResult:
    """Run every model over the benchmark into `run` (re-running resumes); the scores are
    computed by `executor`."""
    run.mkdir(parents=True, exist_ok=True)
    data = bench.samples(run, bars, **options)
    fields = {"benchmark": bench.name, **data.manifest, "options": options,
              "models": [s.to_json() for s in models]}
    write_manifest(run, fields)
    names = model_names([s.spec for s in models])
    answers = {name: bench.answers(data, partial(
        ask_model, settings=s, out=model_dir(run, name) / "responses.jsonl",
        max_connections=max_connections, bars=bars)) for name, s in zip(names, models,
                                                                          strict=True)}
    result = score_answers(bench, data, run, answers, executor, bars,
                           dict(zip(names, models, strict=True)))
    served = {name: sorted({a.served_model for a in by_id.values() if a.served_model})
              for name, by_id in answers.items()}
    write_manifest(run, fields | {"served_models": served})
    return result


def rescore(bench: Benchmark[Any, Any], run: Path, bars: Bars = no_bars,
            executor: Executor | None = None) -> RunResult:
    """Score a run again from its saved responses, with this diagbench's scoring (the
    models' scores computed by `executor`)."""
    manifest = read_manifest(bench, run)
    data = bench.samples(run, bars, **manifest["options"])
    models = [ModelSettings.from_json(entry) for entry in manifest["models"]]
    names = model_names([s.spec for s in models])
    answers = {name: bench.answers(data, partial(
        replay, settings=s, out=model_dir(run, name) / "responses.jsonl"))
        for name, s in zip(names, models, strict=True)}
    return score_answers(bench, data, run, answers, executor, bars,
                         dict(zip(names, models, strict=True)))


@dataclass(frozen=True, slots=True)
class Replayed:
    """A scored run read back for viewing: its data, every ask (of every round), each
    model's answers by ask id (from its saved responses) and its score records."""

    data: Dataset
    asks: Mapping[str, Ask]
    answers: Mapping[str, Mapping[str, Answer]]
    scores: Mapping[str, list[Any]]

    def each(self) -> Iterator[tuple[str, Any]]:
        """(model, score record) of every model's records, in order."""
        for model, records in self.scores.items():
            for record in records:
                yield model, record

    def ask(self, ident: str) -> Ask:
        """The ask `ident` (an empty one where the data no longer has it)."""
        return self.asks.get(ident) or Ask(ident, "", None)

    def text(self, model: str, ident: str) -> str | None:
        """The text `model` answered to the ask `ident` (None: none)."""
        answer = self.answers.get(model, {}).get(ident)
        return answer.text if answer else None

    def reasoning(self, model: str, ident: str) -> str | None:
        """The thinking `model` gave apart from its answer to the ask `ident`."""
        answer = self.answers.get(model, {}).get(ident)
        return answer.reasoning if answer else None


def replayed(bench: Benchmark[Any, Any], run: Path) -> Replayed:
    """The run `run` of `bench` read back (no model is called)."""
    manifest = read_manifest(bench, run)
    data = bench.samples(run, no_bars, **manifest["options"])
    models = [ModelSettings.from_json(entry) for entry in manifest["models"]]
    names = model_names([s.spec for s in models])
    asks: dict[str, Ask] = {}

    def recorded(batch: list[Ask], settings: ModelSettings, out: Path) -> dict[str, Answer]:
        asks.update((a.id, a) for a in batch)
        return replay(batch, settings, out)

    answers = {name: bench.answers(data, partial(
        recorded, settings=s, out=model_dir(run, name) / "responses.jsonl"))
        for name, s in zip(names, models, strict=True)}
    return Replayed(data, asks, answers, bench.load_scores(run, names))


def rereport(bench: Benchmark[Any, Any], run: Path, bars: Bars = no_bars) -> RunResult:
    """Write the report of a scored run again from its saved scores and summary."""
    manifest = read_manifest(bench, run)
    data = bench.samples(run, bars, **manifest["options"])
    scores = bench.load_scores(run, model_names([ModelSpec.from_json(entry)
                                                 for entry in manifest["models"]]))
    try:
        summary = bench.read_summary(json.loads(read_text(run / "summary.json")))
    except json.JSONDecodeError as exc:
        raise DataError(f"{run / 'summary.json'}: not JSON ({exc.msg})") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"{run / 'summary.json'}: not a summary of {bench.name} "
                        f"({type(exc).__name__}: {exc})") from None
    return RunResult(run, data, scores, summary, bench.report(run, data, scores, summary))


def read_manifest(bench: Benchmark[Any, Any], run: Path) -> dict:
    """The manifest of a run of `bench` (DataError when it is not one)."""
    try:
        manifest = json.loads(read_text(run / "manifest.json"))
    except json.JSONDecodeError as exc:
        raise DataError(f"{run / 'manifest.json'}: not JSON ({exc.msg})") from None
    if manifest.get("benchmark") != bench.name or "options" not in manifest:
        raise DataError(f"{run / 'manifest.json'}: not a run of {bench.name} written by "
                        "diagbench eval")
    return manifest


def score_answers(bench: Benchmark[Any, Any], data: Dataset, run: Path,
                  answers: Mapping[str, Mapping[str, Answer]],
                  executor: Executor | None = None, bars: Bars = no_bars,
                  settings: Mapping[str, ModelSettings] | None = None) -> RunResult:
    """Score every model's answers (one `executor` task per model: in this process by
    default), write scores.jsonl, summary.json, usage.json (each model's tokens,
    truncation and cost by `settings`' price table) and the report."""
    def one(item: tuple[str, Mapping[str, Answer]]) -> list[Any]:
        return bench.score(data, item[0], item[1], model_dir(run, item[0]))

    with bars(len(answers), "scoring") as bar:
        scored = (executor or LocalExecutor()).map(one, list(answers.items()),
                                                   lambda: bar.update(1))
    scores = dict(zip(answers, scored, strict=True))
    with (run / "scores.jsonl").open("w", encoding="utf-8") as out:
        for records in scores.values():
            out.writelines(json.dumps(r.to_json(), ensure_ascii=False) + "\n" for r in records)
    summary = bench.summarize(data, scores)
    values = bench.sample_values(scores)
    metrics = [m.name for m in bench.headline_metrics]
    usage = {name: model_usage(by_id, (settings or {}).get(name), correct_count(
        [v for v in values if v.model == name], metrics)) for name, by_id in answers.items()}
    (run / "summary.json").write_text(
        json.dumps(summary.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (run / USAGE).write_text(json.dumps(usage, indent=1, ensure_ascii=False) + "\n",
                             encoding="utf-8")
    return RunResult(run, data, scores, summary, bench.report(run, data, scores, summary),
                     usage)
