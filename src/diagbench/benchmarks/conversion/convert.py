"""Convert images to PlantUML with one model: ask (through the runner: cached,
resumable), take the script out of each answer, normalise it (paper §3.2.3),
render it to check that it is valid, and record what happened to each image.

Per model directory: `responses.jsonl` (the runner's), `pred/NAME.puml`,
`pred/NAME.png` (when it renders) and `conversions.jsonl`, one record per image:
status `converted` (a script was found; `valid` says whether it renders),
`no_script` (the answer holds none: scored as an empty prediction),
`call_error` or `image_error` (nothing to score; the reason is kept).
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from diagbench.benchmarks.conversion.prompts import Prompt
from diagbench.benchmarks.conversion.samples import Sample, image_problem
from diagbench.compare.normalize import normalize_prediction
from diagbench.models.image_policy import ImagePolicyError
from diagbench.models.request import Request, user_request
from diagbench.models.response import Response
from diagbench.models.settings import ModelSettings
from diagbench.render.plantuml_pipe import PlantUMLEngine
from diagbench.scoring.code_block import extract_plantuml

SCORED = ("converted", "no_script")  # statuses with a prediction to compare


def convert(samples: list[Sample], settings: ModelSettings, prompt: Prompt, out: Path,
            engine: PlantUMLEngine, max_connections: int = 8,
            progress: Callable[[Response], None] = lambda r: None) -> list[dict]:
    """Convert every sample into `out`; return one record per sample, in order."""
    (out / "pred").mkdir(parents=True, exist_ok=True)
    records: dict[int, dict] = {}
    asked: list[int] = []
    requests: list[Request] = []
    spec = settings.spec
    for k, sample in enumerate(samples):
        problem = image_problem(sample.image)
        if problem is None:
            try:
                part = settings.image(sample.image)
            except (ImagePolicyError, OSError) as exc:
                problem = str(exc)
        if problem is not None:
            records[k] = _record(sample, "image_error", error=f"{sample.image}: {problem}")
            continue
        asked.append(k)
        requests.append(user_request(spec.provider, spec.model, prompt.text(sample.caption),
                                     (part,), settings.config, spec.base_url))
    answers = settings.run(requests, out / "responses.jsonl", max_connections, progress,
                           [samples[k].name for k in asked])
    for k, answer in zip(asked, answers, strict=True):
        records[k] = _from_answer(samples[k], answer, out / "pred")
    for sample, record in zip(samples, map(records.get, range(len(samples))), strict=True):
        if record["status"] != "converted":  # no stale script of an earlier run
            (out / "pred" / f"{sample.name}.puml").unlink(missing_ok=True)
    _render(samples, records, out / "pred", engine)
    ordered = [records[k] for k in range(len(samples))]
    (out / "conversions.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ordered), encoding="utf-8")
    return ordered


def model_dir_name(name: str) -> str:
    """A directory name for a model id (`openai:gpt-4o` → `openai_gpt-4o`)."""
    return re.sub(r"[^\w.-]+", "_", name).strip("_")


def _record(sample: Sample, status: str, **fields) -> dict:
    return {"name": sample.name, "image": str(sample.image), "caption": sample.caption,
            "status": status, "error": None, "script": None, "valid": None,
            "rendered": None, "render_error": None, "render_error_line": None, "extraction": [],
            "normalizations": [], "tokens": None, "latency": None, "cached": None} | fields


def _from_answer(sample: Sample, answer: dict, pred_dir: Path) -> dict:
    usage = answer["usage"]
    facts = {"tokens": {"input": usage["input_tokens"], "output": usage["output_tokens"],
                        "reasoning": usage["reasoning_tokens"]},
             "latency": round(answer["latency"], 3), "cached": answer["cached"],
             "finish_reason": answer["finish_reason"], "served_model": answer["served_model"]}
    if answer["status"] != "ok":
        return _record(sample, "call_error", error=answer["error"], **facts)
    found = extract_plantuml(answer["text"])
    if found.script is None:
        return _record(sample, "no_script", error=found.reason, **facts)
    script, fixes = normalize_prediction(found.script)
    path = pred_dir / f"{sample.name}.puml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(script, encoding="utf-8")
    return _record(sample, "converted", script=str(path), extraction=list(found.notes),
                   normalizations=fixes, **facts)


def _render(samples: list[Sample], records: dict[int, dict], pred_dir: Path,
            engine: PlantUMLEngine) -> None:
    """Render every script found (sandboxed, time-limited); keep NAME.png when valid."""
    found = [k for k, r in records.items() if r["status"] == "converted"]
    sources = [Path(records[k]["script"]).read_text(encoding="utf-8") for k in found]
    with tempfile.TemporaryDirectory() as tmp:
        results = engine.render(sources, Path(tmp), "png")
        for k, result in zip(found, results, strict=True):
            record = records[k]
            record["valid"] = result.ok
            target = pred_dir / f"{samples[k].name}.png"
            if result.ok:
                result.image.replace(target)
                record["rendered"] = str(target)
            else:
                target.unlink(missing_ok=True)
                record["render_error"] = result.error
                record["render_error_line"] = result.error_line
