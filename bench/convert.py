"""Conversion throughput: the offline baseline and the harness around any model.

1. `baseline:ocr` on the bundled call flows rendered by PlantUML: images/s
   through `convert` (reading, extraction, normalisation, render check) with
   1 and 2 images in flight, and the reader's own seconds per image.
2. The harness's overhead per image against the local OpenAI-compatible server
   answering at once with a canned script (the call, extraction, normalisation,
   files and records; the render check of the answer timed apart), N images.
Usage: python bench/convert.py [--images N]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from diagbench.benchmarks.conversion.convert import convert
from diagbench.benchmarks.conversion.gold import load_gold
from diagbench.benchmarks.conversion.prompts import load_prompt
from diagbench.benchmarks.conversion.samples import Sample
from diagbench.models.image_policy import ImagePolicy
from diagbench.models.providers import ModelSpec
from diagbench.models.request import GenerationConfig
from diagbench.models.retry import RetryPolicy
from diagbench.models.settings import ModelSettings
from diagbench.render.plantuml_pipe import PlantUMLEngine

REPO = Path(__file__).resolve().parents[1]
GOLD = REPO / "examples" / "callflows" / "gold"


def settings(name: str) -> ModelSettings:
    return ModelSettings(ModelSpec.parse(name), GenerationConfig(), 120.0, RetryPolicy(),
                         ImagePolicy(), None)


def baseline(samples: list[Sample], tmp: Path, engine: PlantUMLEngine) -> None:
    prompt = load_prompt("paper")
    model = settings("baseline:ocr")
    convert(samples[:1], model, prompt, tmp / "warm", engine, 1)  # load the OCR models once
    print(f"baseline:ocr on {len(samples)} bundled call flows")
    print(f"{'in flight':>10}{'seconds':>9}{'images/s':>10}{'reader s/image':>16}{'valid':>7}")
    for connections in (1, 2):
        start = time.perf_counter()
        records = convert(samples, model, prompt, tmp / f"ocr{connections}", engine,
                          connections)
        wall = time.perf_counter() - start
        reader = sum(r.latency or 0.0 for r in records) / len(records)
        valid = sum(bool(r.valid) for r in records)
        print(f"{connections:>10}{wall:>9.2f}{len(samples) / wall:>10.2f}{reader:>16.2f}"
              f"{valid:>7}", flush=True)


def harness(samples: list[Sample], n: int, tmp: Path, engine: PlantUMLEngine) -> None:
    copies = tmp / "copies"
    copies.mkdir()
    many = []
    for k in range(n):
        source = samples[k % len(samples)]
        image = copies / f"{k:05d}.png"
        shutil.copyfile(source.image, image)
        many.append(Sample(image.stem, image, f"diagram {k}"))
    canned = tmp / "canned.puml"
    canned.write_text("Here you go:\n```plantuml\n" + samples[0].gold.read_text() + "```\n")
    server = subprocess.Popen([sys.executable, "-m", "tests.fake_providers", str(canned)],
                              cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        model = settings(f"vllm:m@{server.stdout.readline().strip()}")
        prompt = load_prompt("paper")
        start = time.perf_counter()
        records = convert(many, model, prompt, tmp / "harness", engine, 16)
        wall = time.perf_counter() - start
    finally:
        server.kill()
    scripts = [Path(r.script or "").read_text() for r in records]
    (tmp / "render-only").mkdir()
    start = time.perf_counter()
    engine.render(scripts, tmp / "render-only", "png")
    render = time.perf_counter() - start
    overhead = wall - render
    print(f"\nharness against the local server, {n} images, 16 in flight")
    print(f"{'total s':>9}{'images/s':>10}{'render s':>10}{'overhead ms/image':>19}"
          f"{'render ms/image':>17}{'overhead/render':>17}")
    print(f"{wall:>9.2f}{n / wall:>10.1f}{render:>10.2f}{1000 * overhead / n:>19.1f}"
          f"{1000 * render / n:>17.1f}{overhead / render:>16.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--images", type=int, default=240, help="Images for the harness part.")
    args = ap.parse_args()
    engine = PlantUMLEngine(jobs=2)
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        samples = load_gold(GOLD, tmp / "gold", engine).samples
        baseline(samples, tmp, engine)
        harness(samples, args.images, tmp, engine)


if __name__ == "__main__":
    main()
