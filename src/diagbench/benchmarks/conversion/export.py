"""The conversion benchmark's data — ground-truth PlantUML scripts and the images a
model sees — as rows, one per script, and back (`diagbench export`, `diagbench import
hf`). DATA is a folder of scripts (the images are rendered, as `eval conversion --gold
DATA` renders them), or a folder with gold/ (the scripts) and images/ (NAME.png, …), as
`import hf` writes it."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from diagbench.benchmarks.protocol import Column, DataError, Export, RowAsk, RowMetric, RowScore

COLUMNS = (
    Column("name", "string", "The script's name (its path in the gold folder, without "
           "suffix); names every output of a run."),
    Column("caption", "string", "The diagram's title, quoted in the prompt.", nullable=True),
    Column("gold", "string", "The ground-truth PlantUML script."),
    Column("gold_lines", "int64", "Lines of the ground truth (paper 000 Table 1 bins)."),
    Column("image", "image", "The image the models convert: the ground truth rendered by "
           "PlantUML, or the image given with it."),
)

METHOD = """The ground-truth PlantUML sequence diagrams of the data directory, each with
the image the models convert: rendered by PlantUML (SANDBOX profile) from the script, as
`diagbench eval conversion --gold` renders it, or the image given beside it. A run
converts every image back to PlantUML and compares the script with the ground truth,
component by component (paper 000, Table 2)."""

LICENCE = """The scripts keep their authors' licence; diagbench's bundled call flows
(examples/callflows, written for diagbench from the 3GPP procedures) are Apache-2.0.
The images are rendered by PlantUML (MIT build) from the scripts."""


def is_data(data: Path) -> bool:
    return ((data / "gold").is_dir() and (data / "images").is_dir()) or \
        any(data.glob("*.puml"))


def export_rows(data: Path) -> Export:
    from diagbench.benchmarks.conversion.gold import load_gold
    from diagbench.render.plantuml_pipe import PlantUMLEngine

    paired = (data / "gold").is_dir() and (data / "images").is_dir()
    engine = PlantUMLEngine(2)
    tmp = tempfile.TemporaryDirectory(prefix="diagbench-export-")
    gold = load_gold(data / "gold" if paired else data, Path(tmp.name), engine,
                     data / "images" if paired else None)
    if not gold.samples:
        tmp.cleanup()
        raise DataError(f"{data}: no usable ground truth"
                        + "".join(f"; {p.file}: {p.error}" for p in gold.problems[:3]))
    parameters = {"images": "given (images/)" if paired else "rendered from the ground truth",
                  "plantuml": engine.version(), "scripts": len(gold.samples),
                  "not_exported": [{"name": p.name, "file": p.file, "error": p.error}
                                   for p in gold.problems]}

    def rows() -> Iterator[dict[str, Any]]:
        try:
            for s in gold.samples:
                assert s.gold is not None  # load_gold sets it
                text = s.gold.read_text(encoding="utf-8")
                yield {"name": s.name, "caption": s.caption, "gold": text,
                       "gold_lines": len(text.splitlines()),
                       "image": {"bytes": s.image.read_bytes(),
                                 "path": f"images/{s.name}{s.image.suffix.lower()}"}}
        finally:
            tmp.cleanup()

    return Export(rows(), parameters, LICENCE, METHOD, "other")


def import_rows(rows: Iterator[dict[str, Any]], export: Mapping[str, Any], out: Path
                ) -> list[str]:
    """gold/NAME.puml and images/NAME.png."""
    from diagbench.benchmarks.jsonl import write_file
    from diagbench.benchmarks.rows import written_back

    n = 0
    for row in rows:
        write_file(out, f"gold/{row['name']}.puml", row["gold"])
        write_file(out, row["image"]["path"], row["image"]["bytes"])
        n += 1
    written_back(out, export, {})
    return [f"{n} ground-truth scripts with their images -> {out}",
            f"run: diagbench eval conversion --gold {out / 'gold'} --images {out / 'images'} "
            "--model … --out RUN"]


ROW_METRIC = RowMetric("total_error_rate", False, "the script's errors over all gold "
                       "elements by the semantic method (`total.rate` of the file in eval's "
                       "scores; paper 000 Fig. 6–7); an answer without a script deletes "
                       "every gold element")


def ask_row(row: Mapping[str, Any]) -> RowAsk:
    """The paper's prompt (eval's default, `--prompt paper`) with the row's caption."""
    from diagbench.benchmarks.conversion.prompts import load_prompt

    return RowAsk(row["name"], load_prompt("paper").text(row["caption"]), row["gold"])


def score_row(row: Mapping[str, Any], response: str) -> RowScore:
    """`convert.conversions` (script taken out, normalised, rendered) and `scoring.score`
    on this one file, in a scratch directory; both methods' rates in the explanation."""
    from diagbench.benchmarks.asking import Answer
    from diagbench.benchmarks.conversion.convert import conversions
    from diagbench.benchmarks.conversion.samples import Sample
    from diagbench.benchmarks.conversion.scoring import score
    from diagbench.benchmarks.jsonl import write_file
    from diagbench.render.plantuml_pipe import PlantUMLEngine

    with tempfile.TemporaryDirectory(prefix="diagbench-row-") as tmp:
        root = Path(tmp)
        gold = write_file(root, f"gold/{row['name']}.puml", row["gold"])
        sample = Sample(row["name"], root / "image.png", row["caption"], gold)
        records = conversions([sample], {sample.name: Answer(sample.name, "ok", response)},
                              root / "model", PlantUMLEngine(1))
        scores = score([sample], records, "export")
    totals = {s.method: s.result.as_dict().get("total", {}) for s in scores}
    record = records[0]
    why = "; ".join(f"{method}: {t.get('errors')} errors / {t.get('gold')} gold elements"
                    for method, t in totals.items())
    status = "valid script" if record.valid else (record.status if record.status != "converted"
                                                  else "script does not render")
    return RowScore(totals["semantic"].get("rate"), None if record.script is None else "script",
                    f"{status}; {why}" + (f"; {record.error}" if record.error else ""))
