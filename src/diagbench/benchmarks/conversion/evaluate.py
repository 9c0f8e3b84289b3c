"""`diagbench eval conversion`: ground truth → images → each model's scripts → scores
→ report, in one run directory that a second run resumes.

    RUN/manifest.json          what was run (models, parameters, prompt and data hashes)
    RUN/gold/NAME.png          the images the models see (unless --images)
    RUN/models/MODEL/…         responses.jsonl, conversions.jsonl, pred/NAME.puml|png
    RUN/scores.jsonl           one line per model × method × file
    RUN/summary.json           Table 2 per model and method, statuses, paired tests
    RUN/report.html, plots/    the report
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from diagbench.benchmarks.conversion.convert import convert, model_dir_name
from diagbench.benchmarks.conversion.gold import GoldSet, load_gold
from diagbench.benchmarks.conversion.prompts import Prompt
from diagbench.benchmarks.conversion.report import write_report
from diagbench.benchmarks.conversion.scoring import score, summarize_scores
from diagbench.benchmarks.progress import Bars, no_bars
from diagbench.compare.pair import METHODS
from diagbench.compare.report import FileResult
from diagbench.models.run_dir import write_manifest
from diagbench.models.settings import ModelSettings
from diagbench.render.plantuml_pipe import PlantUMLEngine


@dataclass(slots=True)
class ModelOutcome:
    settings: ModelSettings
    conversions: list[dict]
    results: dict[str, list[FileResult]]  # by method


@dataclass(slots=True)
class Evaluation:
    run: Path
    gold: GoldSet
    models: dict[str, ModelOutcome]
    summary: dict
    report: Path


def evaluate(gold: Path, models: list[ModelSettings], run: Path, prompt: Prompt,
             engine: PlantUMLEngine, images: Path | None = None, max_connections: int = 8,
             bars: Bars = no_bars) -> Evaluation:
    """Convert the ground truth's images with every model, score, and write the report."""
    run.mkdir(parents=True, exist_ok=True)
    gold_set = load_gold(gold, run / "gold", engine, images)
    samples = gold_set.samples
    fields = _manifest_fields(gold_set, models, prompt, engine, images)
    write_manifest(run, fields)
    outcomes: dict[str, ModelOutcome] = {}
    for settings in models:
        with bars(len(samples), f"{settings.name}: converting") as bar:
            conversions = convert(samples, settings, prompt,
                                  run / "models" / model_dir_name(settings.name), engine,
                                  max_connections, lambda r, bar=bar: bar.update(1, r))
        results = {method: score(samples, conversions, method) for method in METHODS}
        outcomes[settings.name] = ModelOutcome(settings, conversions, results)
    _write_scores(run / "scores.jsonl", outcomes)
    summary = summarize_scores({n: (o.conversions, o.results) for n, o in outcomes.items()},
                               gold_set.problems)
    (run / "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n",
                                      encoding="utf-8")
    served = {n: sorted({r["served_model"] for r in o.conversions if r.get("served_model")})
              for n, o in outcomes.items()}
    write_manifest(run, fields | {"served_models": served})
    report = write_report(run, samples, outcomes, summary)
    return Evaluation(run, gold_set, outcomes, summary, report)


def _manifest_fields(gold_set: GoldSet, models: list[ModelSettings], prompt: Prompt,
                     engine: PlantUMLEngine, images: Path | None) -> dict:
    data = hashlib.sha256()
    for sample in gold_set.samples:
        data.update(sample.name.encode() + b"\0" + Path(sample.gold).read_bytes() + b"\0")
    return {"benchmark": "conversion", "dataset_hash": data.hexdigest(),
            "samples": len(gold_set.samples), "gold_problems": len(gold_set.problems),
            "images": str(images) if images else "rendered from the ground truth",
            "prompt": prompt.name, "prompt_template_hash": prompt.sha256,
            "tools": {"plantuml": engine.version()},
            "models": [s.describe() for s in models]}


def _write_scores(path: Path, outcomes: dict[str, ModelOutcome]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for name, outcome in outcomes.items():
            for method, results in outcome.results.items():
                for record, result in zip(outcome.conversions, results, strict=True):
                    line = {"model": name, "method": method, "conversion": record["status"],
                            "valid": record["valid"]} | result.as_dict()
                    out.write(json.dumps(line, ensure_ascii=False) + "\n")
