"""A tiny data set in STRUDEL's published layout, made here (no STRUDEL data): Parquet
shards under data/ as the Hugging Face `datasets` library saves them (the image a
struct of bytes and path), and a gold_statistics.json of node-type counts by id."""

from __future__ import annotations

import io
import json
from pathlib import Path

from PIL import Image

#: The gold code of the image-to-code row: what baseline:synth answers to any task whose
#: prompt it does not recognise (two classes and an association).
CODE = "@startuml\nclass A\nclass B\nA --> B\n@enduml"
#: The fake model's answer to each question (by the question's tag) and the gold.
ANSWERS = {"Q1": ("Answer: (B)", "A"), "Q2": ("13", "3"), "Q3": ("None of them.", "no"),
           "Q4": ("Motor", "Motor")}


def png(colour: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), colour).save(buffer, format="PNG")
    return buffer.getvalue()


def row(prompt: str, image: bytes, answer: str, task_type: str, category: str, lang: str,
        ident: str, kind: str = "qa") -> dict:
    return {"user_prompt": prompt, "image": {"bytes": image, "path": f"{ident}.png"},
            "answer": answer, "type": kind, "task_type": task_type, "category_key": category,
            "lang_key": lang, "domain": "", "difficulty": "easy", "id": ident}


def rows() -> list[dict]:
    one, two, three = png("white"), png("gray"), png("black")
    return [
        row("Q1 Which class is abstract? (A) A (B) B (C) C (D) D", one, "A",
            "identification", "class", "plantuml", "s1-q1"),
        row("Q2 How many classes are shown?", one, "3", "structural_count", "class",
            "plantuml", "s1-q2"),
        row("Q3 Does this description fit the diagram? Yes or No.", two, "No",
            "consistency", "sequence", "mermaid", "s2-q1"),
        row("Q4 Which device does the ladder drive?", three, "Motor", "identification",
            "plc", "il", "s3-q1"),
        row("Convert the diagram into PlantUML code.", one, CODE, "code", "class",
            "plantuml", "s1-code", kind="code"),
        row("Convert the circuit into CircuiTikZ code.", two, "\\draw (0,0) to[R] (2,0);",
            "code", "circuit", "tikz", "s4-code", kind="code"),
    ]


def write_strudel(root: Path, extra: list[dict] | None = None) -> Path:
    """STRUDEL's layout under `root`: two shards (the rows split in two) and the gold
    statistics of the code row (three classes, where the code draws two)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    data = rows() + (extra or [])
    (root / "data").mkdir(parents=True, exist_ok=True)
    half = len(data) // 2
    for number, part in enumerate((data[:half], data[half:])):
        pq.write_table(pa.Table.from_pylist(part),
                       root / "data" / f"test-0000{number}-of-00002.parquet")
    (root / "gold_statistics.json").write_text(json.dumps(
        {"s1-code": {"node_types": {"class": 3}}}), encoding="utf-8")
    return root
