"""A structure data set made by hand, small enough to compute every score by hand: four
counting tasks ("How many classes …", answered 3 by baseline:synth) about two images."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

QUESTION = "How many classes are drawn in the diagram?\nAnswer with the number only."


def _task(number: int, image: str, gold: int) -> dict:
    return {"id": f"s{number}/structural/0", "sample": f"s{number}", "task": "structural",
            "category": "class", "language": "plantuml", "frl": "PlantUML",
            "image": f"images/{image}", "question": QUESTION, "gold": gold}


def write_handmade(data: Path, broken: bool = True) -> Path:
    """Four tasks, golds 3, 3, 5, 3: the first about missing.png, the second about
    corrupt.png, the last two about ok.png; with `broken`, missing.png is missing and
    corrupt.png is not an image (else both are real images)."""
    (data / "images").mkdir(parents=True)
    Image.new("RGB", (200, 160), "white").save(data / "images" / "ok.png")
    if broken:
        (data / "images" / "corrupt.png").write_bytes(b"not a PNG at all")
    else:
        for name in ("missing.png", "corrupt.png"):
            Image.new("RGB", (200, 160), "white").save(data / "images" / name)
    (data / "samples.jsonl").write_text("", encoding="utf-8")
    tasks = [_task(0, "missing.png", 3), _task(1, "corrupt.png", 3), _task(2, "ok.png", 5),
             _task(3, "ok.png", 3)]
    (data / "tasks.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tasks),
                                      encoding="utf-8")
    return data


def fix_images(data: Path) -> None:
    """Make the broken images of `write_handmade` real ones."""
    for name in ("missing.png", "corrupt.png"):
        Image.new("RGB", (200, 160), "white").save(data / "images" / name)
