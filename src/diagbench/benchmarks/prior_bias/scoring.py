"""`diagbench eval prior-bias`: the two-stage protocol of paper 002 §3.2 over a built
benchmark, for each model, into a run directory.

Stage 1 asks once per image for the class names (EM); stage 2 asks each
instance's relation question, the class names given as in Fig. 13 (RelAcc).
Both go through the runner (cached, resumable); answers are parsed
deterministically (`diagbench.scoring`). A failed call is not an answer: it is
counted and left out of the metrics.

    RUN/manifest.json, RUN/models/MODEL/responses.jsonl,
    RUN/scores.jsonl (model × instance × scale), RUN/summary.json, RUN/report.html
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from diagbench.benchmarks.conversion.convert import model_dir_name
from diagbench.benchmarks.prior_bias import baselines  # noqa: F401 (registers)
from diagbench.benchmarks.prior_bias.generate import CONDITIONS, CONFLICT
from diagbench.benchmarks.prior_bias.prompts import SYSTEM, stage1, stage2, template_hash
from diagbench.benchmarks.prior_bias.report import write_report
from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS
from diagbench.benchmarks.progress import Bars, no_bars
from diagbench.models.image_policy import ImagePolicyError
from diagbench.models.request import user_request
from diagbench.models.run_dir import write_manifest
from diagbench.models.settings import ModelSettings
from diagbench.scoring import metrics
from diagbench.scoring.names import names_match, parse_name_list
from diagbench.scoring.truth import parse_truth

_FIELDS = ("id", "diagram", "relation", "condition", "classes", "query", "gold", "images")


class ManifestError(ValueError):
    """A benchmark directory that cannot be used; str() names the file and line."""


@dataclass(slots=True)
class PriorBiasRun:
    run: Path
    scores: dict[str, list[dict]]  # by model
    summary: dict
    report: Path


def load_manifest(data: Path, scales: tuple[str, ...] = (), limit: int | None = None
                  ) -> tuple[list[dict], tuple[str, ...]]:
    """The instances of `data`/manifest.jsonl (the first `limit`) and the scales to run."""
    path = data / "manifest.jsonl"
    if not path.is_file():
        raise ManifestError(f"{path}: no such file (build one with diagbench build prior-bias)")
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            missing = [f for f in _FIELDS if f not in row]
        except json.JSONDecodeError as exc:
            raise ManifestError(f"{path}:{number}: not JSON ({exc.msg})") from None
        if missing or row["relation"] not in RELATIONS or row["condition"] not in CONDITIONS:
            raise ManifestError(f"{path}:{number}: not an instance (missing {missing} or "
                                "unknown relation/condition)")
        rows.append(row)
        if limit is not None and len(rows) >= limit:
            break
    available = tuple(rows[0]["images"]) if rows else ()
    unknown = [s for s in scales if s not in available]
    if unknown:
        raise ManifestError(f"{path}: no images at scale {', '.join(unknown)} "
                            f"(built: {', '.join(available)})")
    return rows, scales or available


def evaluate(data: Path, models: list[ModelSettings], run: Path, scales: tuple[str, ...] = (),
             limit: int | None = None, max_connections: int = 8,
             bars: Bars = no_bars) -> PriorBiasRun:
    rows, scales = load_manifest(data, scales, limit)
    dataset = hashlib.sha256((data / "manifest.jsonl").read_bytes()).hexdigest()
    fields = {"benchmark": "prior-bias", "data": str(data), "dataset_hash": dataset,
              "instances": len(rows), "scales": list(scales), "limit": limit,
              "prompt_template_hash": template_hash(),
              "models": [s.describe() for s in models]}
    write_manifest(run, fields)
    scores = {}
    for settings in models:
        scores[settings.name] = _run_model(data, rows, scales, settings, run, max_connections,
                                           bars)
    with (run / "scores.jsonl").open("w", encoding="utf-8") as out:
        for records in scores.values():
            out.writelines(json.dumps(r) + "\n" for r in records)
    summary = {"models": {name: summarize(records) for name, records in scores.items()}}
    summary["mean_delta"] = metrics.mean_gap([m["delta"] for m in summary["models"].values()])
    (run / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return PriorBiasRun(run, scores, summary, write_report(run, summary))


def _run_model(data: Path, rows: list[dict], scales: tuple[str, ...], settings: ModelSettings,
               run: Path, max_connections: int, bars: Bars) -> list[dict]:
    spec = settings.spec
    ids, requests, broken = [], [], {}

    def ask(ident: str, prompt: str, image: Path) -> None:
        try:
            part = settings.image(image)
        except (ImagePolicyError, OSError) as exc:
            broken[ident] = f"{image}: {exc}"
            return
        ids.append(ident)
        requests.append(user_request(spec.provider, spec.model, prompt, (part,), settings.config,
                                     spec.base_url, system=SYSTEM))

    for scale in scales:
        for row in {r["diagram"]: r for r in rows}.values():
            ask(f"names:{row['diagram']}@{scale}", stage1(row["relation"], row["classes"]),
                data / row["images"][scale]["path"])
        for row in rows:
            ask(f"{row['id']}@{scale}", stage2(row["relation"], row["classes"],
                                               tuple(row["query"])),
                data / row["images"][scale]["path"])
    with bars(len(requests), f"{settings.name}: asking") as bar:
        answers = settings.run(requests, run / "models" / model_dir_name(settings.name)
                               / "responses.jsonl", max_connections,
                               lambda r: bar.update(1, r), ids)
    by_id = {a["id"]: a for a in answers} | {i: {"status": "error", "error": why, "text": None}
                                             for i, why in broken.items()}
    return [_score(settings.name, row, scale, by_id[f"names:{row['diagram']}@{scale}"],
                   by_id[f"{row['id']}@{scale}"]) for scale in scales for row in rows]


def _score(model: str, row: dict, scale: str, names: dict, answer: dict) -> dict:
    listed = parse_name_list(names["text"]) if names["status"] == "ok" else None
    truth = parse_truth(answer["text"]) if answer["status"] == "ok" else None
    gold = "True" if row["gold"] else "False"
    return {"model": model, "id": row["id"], "condition": row["condition"],
            "relation": row["relation"], "scale": scale, "gold": gold,
            "status": "ok" if truth and names["status"] == "ok" else "error",
            "error": answer.get("error") or names.get("error"),
            "label": truth.label if truth else None,
            "parse": truth.status if truth else None,
            "correct": truth is not None and truth.label == gold,
            "names": listed, "em": names_match(listed, row["classes"])}


def _select(records: list[dict], **fields) -> list[dict]:
    """The records whose fields have the given values."""
    return [r for r in records if all(r[k] == v for k, v in fields.items())]


def summarize(records: list[dict]) -> dict:
    """Per model: RelAcc and EM per cell, condition, relation and scale; Δ overall (with
    its bootstrap interval), per relation, per scale and per conflict condition; the
    prerequisite; how answers were parsed; failed calls."""
    ok = [r for r in records if r["status"] == "ok"]
    scales = sorted({r["scale"] for r in ok}, key=lambda s: float(s.rstrip("x")))

    def cell(rs: list[dict]) -> dict:
        return {"n": len(rs), "rel_acc": metrics.rel_acc([r["correct"] for r in rs]),
                "em": metrics.exact_match([r["em"] for r in rs])}

    def correct(rs: list[dict], condition: str) -> list[bool]:
        return [r["correct"] for r in _select(rs, condition=condition)]

    def gap(rs: list[dict], conflict: str = "2-reverse") -> float | None:
        return metrics.conflict_gap(correct(rs, "prior-conform"), correct(rs, conflict))

    return {
        "answered": len(ok), "errors": len(records) - len(ok),
        "conditions": {c: cell(_select(ok, condition=c)) for c in CONDITIONS},
        "cells": {c: {r: {s: cell(_select(ok, condition=c, relation=r, scale=s))
                          for s in scales} for r in RELATIONS} for c in CONDITIONS},
        "delta": gap(ok),
        "delta_ci": metrics.gap_interval(correct(ok, "prior-conform"), correct(ok, "2-reverse")),
        "delta_by_condition": {c: gap(ok, c) for c in CONFLICT},
        "delta_by_relation": {r: gap(_select(ok, relation=r)) for r in RELATIONS},
        "delta_by_scale": {s: gap(_select(ok, scale=s)) for s in scales},
        "prerequisite": metrics.prerequisite([r["em"] for r in ok],
                                             correct(ok, "prior-free")).as_dict(),
        "parse": dict(Counter(r["parse"] for r in ok)),
        "labels": dict(Counter(r["label"] for r in ok)),
        "names_unparsed": sum(r["names"] is None for r in ok),
    }
