"""`diagbench export DATA --format hf` and `diagbench import hf`: every registered
benchmark's data as a Hugging Face dataset that `datasets` loads (images decoding), read
back into a data directory on which `eval` with an offline baseline scores the same."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from diagbench.export import detect, exportable
from diagbench.export.hf import export_hf, import_hf

ROOT = Path(__file__).resolve().parent.parent


def _diagbench(*args: str | Path, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "diagbench", *map(str, args)],
                          capture_output=True, text=True, timeout=600, check=False)
    if check:
        assert done.returncode == 0, done.stderr + done.stdout
    return done


def _scores(run: Path, *paths: str) -> list[dict]:
    """The score records of a run, without token counts and the named path fields."""
    rows = [json.loads(line) for line in (run / "scores.jsonl").read_text().splitlines()]
    for row in rows:
        for key in ("tokens", *paths):
            row.pop(key, None)
    return rows


def _round_trip(data: Path, tmp: Path, cli: bool = False) -> tuple[Path, Path]:
    hf, back = tmp / "hf", tmp / "back"
    if cli:
        _diagbench("export", data, "--format", "hf", "--out", hf)
        _diagbench("import", "hf", hf, "--out", back)
    else:
        export_hf(detect(data), data, hf)
        import_hf(hf, back)
    return hf, back


def test_every_benchmark_describes_its_rows():
    assert sorted(exportable()) == ["archqa", "conversion", "prior-bias", "structure"]
    for cls in exportable().values():
        names = [c.name for c in cls.columns]
        assert len(set(names)) == len(names)
        assert sum(c.type == "image" for c in cls.columns) == 1


def test_prior_bias_loads_in_datasets_and_scores_the_same(tmp_path):
    data = tmp_path / "pb"
    _diagbench("build", "prior-bias", "--out", data, "--per-cell", "1", "--scale", "1",
               "--scale", "2")
    hf, back = _round_trip(data, tmp_path, cli=True)
    items = (data / "manifest.jsonl").read_text().splitlines()

    import datasets
    ds = datasets.load_dataset("parquet", data_files=str(hf / "data" / "*.parquet"),
                               split="train", cache_dir=str(tmp_path / "cache"))
    assert len(ds) == 2 * len(items)  # one row per instance and scale
    assert isinstance(ds.features["image"], datasets.Image)
    assert ds.features["gold"] == datasets.Value("bool")
    first = json.loads(items[0])
    row = ds[0]
    assert (row["id"], row["scale"], row["gold"]) == (first["id"], "1x", first["gold"])
    assert row["classes"] == first["classes"]
    assert row["image"].size == (first["images"]["1x"]["width"],
                                 first["images"]["1x"]["height"])
    assert ds[1]["scale"] == "2x" and ds[1]["image"].size[0] > row["image"].size[0]

    card = (hf / "README.md").read_text()
    front = yaml.safe_load(card.split("---\n")[1])
    assert front["dataset_info"]["features"] == ds.features._to_yaml_list()
    assert front["dataset_info"]["splits"][0]["num_examples"] == len(ds)
    assert front["configs"][0]["data_files"][0]["path"] == "data/test-*"
    assert '"per_cell": 1' in card and "## Licence" in card and "## How it was made" in card

    # the data directory comes back byte for byte, and eval scores it the same
    for name in ("manifest.jsonl", "build.json"):
        assert (back / name).read_bytes() == (data / name).read_bytes()
    for image in (data / "images").iterdir():
        assert (back / "images" / image.name).read_bytes() == image.read_bytes()
    runs = []
    for where in (data, back):
        run = tmp_path / f"run-{where.name}"
        _diagbench("eval", "prior-bias", "--data", where, "--model", "baseline:prior",
                   "--out", run)
        runs.append(_scores(run))
    assert runs[0] == runs[1] and runs[0]


def test_conversion_round_trip_gives_eval_the_same_inputs(tmp_path):
    """The scripts and the images eval renders come back byte for byte, so eval's
    inputs — and its scores (baseline:ocr reads only the image) — are the same; the
    OCR eval itself is left to test_conversion_eval."""
    from diagbench.render.plantuml_pipe import PlantUMLEngine

    gold = tmp_path / "gold"
    gold.mkdir()
    for name in ("deregistration", "5g_aka"):
        shutil.copy(ROOT / "examples" / "callflows" / "gold" / f"{name}.puml", gold)
    hf, back = _round_trip(gold, tmp_path)
    names = sorted(p.stem for p in gold.iterdir())
    rendered = PlantUMLEngine(1).render([(gold / f"{n}.puml").read_text() for n in names],
                                        tmp_path, "png")
    for name, render in zip(names, rendered, strict=True):
        assert (back / "gold" / f"{name}.puml").read_bytes() == \
            (gold / f"{name}.puml").read_bytes()
        assert render.image is not None
        assert (back / "images" / f"{name}.png").read_bytes() == render.image.read_bytes()
    # export of the imported directory (gold/ + images/) gives the same shard
    again = tmp_path / "again"
    _diagbench("export", back, "--out", again)
    shard = "data/test-00000-of-00001.parquet"
    assert (again / shard).read_bytes() == (hf / shard).read_bytes()


def test_archqa_round_trip_scores_the_same(tmp_path):
    data = tmp_path / "aq"
    _diagbench("build", "archqa", "--from", ROOT / "examples" / "archqa" / "build_system.dot",
               "--out", data)
    hf, back = _round_trip(data, tmp_path)
    for name in ("questions.jsonl", "annotations.jsonl", "build.json"):
        assert (back / name).read_bytes() == (data / name).read_bytes()
    import pyarrow.parquet as pq
    table = pq.read_table(next((hf / "data").glob("*.parquet")))
    assert table.num_rows == len((data / "questions.jsonl").read_text().splitlines())
    runs = []
    for where in (data, back):
        run = tmp_path / f"run-{where.name}"
        _diagbench("eval", "archqa", "--data", where, "--model", "baseline:blind", "--out", run)
        runs.append(_scores(run))
    assert runs[0] == runs[1] and runs[0]


def test_structure_round_trip_scores_the_same(tmp_path):
    data = tmp_path / "st"
    _diagbench("build", "structure", "--model", "baseline:synth", "--categories", "class",
               "--languages", "plantuml", "--per-category", "1", "--out", data)
    _, back = _round_trip(data, tmp_path)
    for name in ("samples.jsonl", "tasks.jsonl", "build.json"):
        assert (back / name).read_bytes() == (data / name).read_bytes()
    runs = []
    for where in (data, back):
        run = tmp_path / f"run-{where.name}"
        _diagbench("eval", "structure", "--data", where, "--model", "baseline:synth", "--out",
                   run)
        runs.append(_scores(run))
    assert runs[0] == runs[1] and runs[0]
    assert {r["task"] for r in runs[0]} >= {"structural", "image_to_code"}


def test_unusable_inputs_exit_3_and_import_sadu_stays(tmp_path):
    assert _diagbench("export", tmp_path, "--out", tmp_path / "x", check=False).returncode == 3
    assert _diagbench("import", "hf", tmp_path, "--out", tmp_path / "y",
                      check=False).returncode == 3
    assert _diagbench("export", tmp_path, "--benchmark", "nope", "--out", tmp_path / "z",
                      check=False).returncode == 2
    listed = _diagbench("import", "--help").stdout
    assert "hf" in listed and "sadu" in listed


def test_an_export_whose_info_is_not_json_names_its_line_and_column(tmp_path):
    from diagbench.benchmarks.protocol import DataError
    from diagbench.export.hf import read_info

    (tmp_path / "diagbench.json").write_text('{\n  "format": 1,\n  oops\n}\n', "utf-8")
    with pytest.raises(DataError, match=r"diagbench\.json:3:3: not JSON \(Expecting property"):
        read_info(tmp_path)
