"""Convert images to PlantUML with one model: ask (through the runner: cached,
resumable), take the script out of each answer, normalise it (paper
000_30f6dc923c2b066d.txt §3.2.3), render it to check that it is valid, and record what
happened to each image.

Per model directory: `responses.jsonl` (the runner's), `pred/NAME.puml`,
`pred/NAME.png` (when it renders) and `conversions.jsonl`, one `Conversion` per image.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from diagbench.benchmarks.asking import Answer, Ask, ask_model
from diagbench.benchmarks.conversion.prompts import Prompt
from diagbench.benchmarks.conversion.records import Conversion, Tokens
from diagbench.benchmarks.conversion.samples import Sample
from diagbench.benchmarks.progress import Bars, no_bars
from diagbench.compare.normalize import normalize_prediction
from diagbench.models.settings import ModelSettings
from diagbench.render.plantuml_pipe import PlantUMLEngine
from diagbench.scoring.code_block import extract_plantuml


def asks(samples: list[Sample], prompt: Prompt) -> list[Ask]:
    """One question per image: the prompt with the image's caption."""
    return [Ask(s.name, prompt.text(s.caption), s.image) for s in samples]


def convert(samples: list[Sample], settings: ModelSettings, prompt: Prompt, out: Path,
            engine: PlantUMLEngine, max_connections: int = 8,
            bars: Bars = no_bars) -> list[Conversion]:
    """Convert every sample into `out` with one model; one record per sample, in order."""
    answers = ask_model(asks(samples, prompt), settings, out / "responses.jsonl",
                        max_connections, bars)
    return conversions(samples, answers, out, engine)


def conversions(samples: list[Sample], answers: Mapping[str, Answer], out: Path,
                engine: PlantUMLEngine) -> list[Conversion]:
    """The record of each sample from its answer (by sample name), scripts in
    `out`/pred, rendered to check them; `out`/conversions.jsonl lists them."""
    pred_dir = out / "pred"
    pred_dir.mkdir(parents=True, exist_ok=True)
    records = [_from_answer(sample, answers[sample.name], pred_dir) for sample in samples]
    for sample, record in zip(samples, records, strict=True):
        if record.status != "converted":  # no stale script of an earlier run
            (pred_dir / f"{sample.name}.puml").unlink(missing_ok=True)
    records = _render(samples, records, pred_dir, engine)
    (out / "conversions.jsonl").write_text(
        "".join(json.dumps(r.to_json(), ensure_ascii=False) + "\n" for r in records),
        encoding="utf-8")
    return records


def _from_answer(sample: Sample, answer: Answer, pred_dir: Path) -> Conversion:
    base = Conversion(sample.name, str(sample.image), sample.caption, "image_error",
                      error=answer.error, twin_of=sample.twin_of, twin=sample.twin)
    if answer.status == "image_error":
        return base
    usage = answer.usage
    base = replace(base, tokens=Tokens(usage.input_tokens, usage.output_tokens,
                                       usage.reasoning_tokens) if usage else None,
                   latency=round(answer.latency or 0.0, 3), cached=answer.cached,
                   finish_reason=answer.finish_reason, served_model=answer.served_model)
    if answer.status != "ok":
        return replace(base, status="call_error")
    found = extract_plantuml(answer.text or "")
    if found.script is None:
        return replace(base, status="no_script", error=found.reason)
    script, fixes = normalize_prediction(found.script)
    path = pred_dir / f"{sample.name}.puml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(script, encoding="utf-8")
    return replace(base, status="converted", error=None, script=str(path),
                   extraction=tuple(found.notes), normalizations=tuple(fixes))


def _render(samples: list[Sample], records: list[Conversion], pred_dir: Path,
            engine: PlantUMLEngine) -> list[Conversion]:
    """Render every script found (sandboxed, time-limited); keep NAME.png when valid."""
    found = [k for k, r in enumerate(records) if r.script is not None]
    sources = [Path(records[k].script or "").read_text(encoding="utf-8") for k in found]
    records = list(records)
    with tempfile.TemporaryDirectory() as tmp:
        results = engine.render(sources, Path(tmp), "png")
        for k, result in zip(found, results, strict=True):
            target = pred_dir / f"{samples[k].name}.png"
            if result.ok and result.image is not None:
                result.image.replace(target)
                records[k] = replace(records[k], valid=True, rendered=str(target))
            else:
                target.unlink(missing_ok=True)
                records[k] = replace(records[k], valid=False, render_error=result.error,
                                     render_error_line=result.error_line)
    return records
