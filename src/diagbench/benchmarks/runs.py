"""The phases of a run, generic over the registry: `evaluate` (samples → prompts →
models → scores → summary → report), `rescore` (the same from the run's saved
responses, no model called) and `rereport` (the report from the saved scores).

    RUN/manifest.json               benchmark, data hashes, options, models as asked and served
    RUN/models/MODEL/responses.jsonl  the runner's records (and whatever the benchmark keeps)

MODEL is the model's name in the run (`model_names`) made a directory name
(`openai:gpt-4o` → `openai_gpt-4o`); a model asked on two servers is two models.

A run finds its data from any folder: the manifest records every path option relative
to the run directory (`option_paths` names them), read back relative to it; `--data`
points a moved run at its data.
    RUN/scores.jsonl                one line per score record, model by model
    RUN/summary.json                the benchmark's summary
    RUN/usage.json                  per model: tokens, answers cut by the token limit, cost
    RUN/report.html, plots/         the report
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from diagbench.benchmarks.asking import Answer, Ask, ask_model, replay
from diagbench.benchmarks.jsonl import not_json, read_text
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
    data = bench.samples(run, bars, **_plain(options))
    # a run without twins records no --twins: its manifest is as before twins existed
    recorded, paths = _recorded({k: v for k, v in options.items() if k != "twins" or v}, run)
    fields = {"benchmark": bench.name, **data.manifest, "options": recorded,
              "option_paths": paths, "models": [s.to_json() for s in models]}
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


def _plain(options: Mapping[str, Any]) -> dict[str, Any]:
    """Options as a benchmark reads them: paths as text, tuples as lists."""
    def one(value: Any) -> Any:
        if isinstance(value, tuple | list):
            return [one(v) for v in value]
        return str(value) if isinstance(value, Path) else value
    return {k: one(v) for k, v in options.items()}


def _recorded(options: Mapping[str, Any], run: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the options as the manifest keeps them, the absolute form of those that are
    paths): each path relative to the run directory, so that the run finds it from any
    folder, and absolute, so that a copy of the run alone still finds it."""
    def relative(path: Path) -> str:
        return os.path.relpath(path.resolve(), run.resolve())

    recorded, paths = _plain(options), dict[str, Any]()
    for name, value in options.items():
        if isinstance(value, Path):
            recorded[name], paths[name] = relative(value), str(value.resolve())
        elif isinstance(value, tuple | list) and value and all(isinstance(v, Path)
                                                               for v in value):
            recorded[name] = [relative(v) for v in value]
            paths[name] = [str(v.resolve()) for v in value]
    return recorded, paths


def run_options(manifest: Mapping[str, Any], run: Path, data: Path | None = None
                ) -> dict[str, Any]:
    """The options of a run as its benchmark reads them, its paths found from here:
    relative to the run directory, else where they were (`option_paths`; a run of an
    older diagbench: as recorded, else relative to the run); `data` replaces the option
    `data`. DataError when a path is in neither place, saying how to point the run at
    it."""
    options = dict(manifest["options"])
    if data is not None:
        if "data" not in options:
            raise DataError(f"{run}: a run of {manifest.get('benchmark')} has no data "
                            "option to replace (--data is for runs with one)")
        options["data"] = str(data)
    located = dict(manifest.get("option_paths") or {})
    for name, value in options.items():
        if (name == "data" and data is not None) or value is None:
            continue
        if name not in located and not (name == "data" and not Path(value).exists()):
            continue
        texts = value if isinstance(value, list) else [value]
        known = located.get(name, texts)
        absolute = known if isinstance(known, list) else [known]
        found = []
        for text, where in zip(texts, absolute, strict=True):
            tried = [os.path.normpath(run / text), where]
            path = next((t for t in tried if Path(t).exists()), None)
            if path is None:
                hint = " (use --data DIR)" if name == "data" else ""
                raise DataError(f"{run / 'manifest.json'}: the run's {name} {text!r} is "
                                f"neither at {tried[0]} nor at {where}: moved or deleted"
                                f"{hint}")
            found.append(path)
        options[name] = found if isinstance(value, list) else found[0]
    return options


def rescore(bench: Benchmark[Any, Any], run: Path, bars: Bars = no_bars,
            executor: Executor | None = None, data_dir: Path | None = None) -> RunResult:
    """Score a run again from its saved responses, with this diagbench's scoring (the
    models' scores computed by `executor`); `data_dir` replaces the run's data."""
    manifest = read_manifest(bench, run)
    data = bench.samples(run, bars, **run_options(manifest, run, data_dir))
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

    def flags(self, model: str, ident: str) -> tuple[str, ...]:
        """What the viewer marks on `model`'s answer to the ask `ident`: cut by the
        token limit (its finish reason says so)."""
        from diagbench.models.prices import TRUNCATED

        answer = self.answers.get(model, {}).get(ident)
        return ("cut by the token limit",) if answer and answer.finish_reason in TRUNCATED \
            else ()


def replayed(bench: Benchmark[Any, Any], run: Path, data_dir: Path | None = None
             ) -> Replayed:
    """The run `run` of `bench` read back (no model is called); `data_dir` replaces the
    run's data."""
    manifest = read_manifest(bench, run)
    data = bench.samples(run, no_bars, **run_options(manifest, run, data_dir))
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


def rereport(bench: Benchmark[Any, Any], run: Path, bars: Bars = no_bars,
             data_dir: Path | None = None) -> RunResult:
    """Write the report of a scored run again from its saved scores and summary (and the
    run's data, which `data_dir` replaces)."""
    manifest = read_manifest(bench, run)
    data = bench.samples(run, bars, **run_options(manifest, run, data_dir))
    scores = bench.load_scores(run, model_names([ModelSpec.from_json(entry)
                                                 for entry in manifest["models"]]))
    try:
        summary = bench.read_summary(json.loads(read_text(run / "summary.json")))
    except json.JSONDecodeError as exc:
        raise not_json(run / "summary.json", exc) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"{run / 'summary.json'}: not a summary of {bench.name} "
                        f"({type(exc).__name__}: {exc})") from None
    return RunResult(run, data, scores, summary, bench.report(run, data, scores, summary))


def read_manifest(bench: Benchmark[Any, Any], run: Path) -> dict:
    """The manifest of a run of `bench` (DataError when it is not one)."""
    try:
        manifest = json.loads(read_text(run / "manifest.json"))
    except json.JSONDecodeError as exc:
        raise not_json(run / "manifest.json", exc) from None
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
