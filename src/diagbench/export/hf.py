"""A benchmark's data directory as a Hugging Face dataset, and back.

    DIR/data/test-00000-of-0000N.parquet   the rows, in shards (Parquet, with the
                                           `datasets` features in the schema metadata)
    DIR/README.md                          the dataset card: `dataset_info` (features,
                                           split sizes), the build parameters, the
                                           licence of the sources, how it was made
    DIR/diagbench.json                     what `import hf` needs: the benchmark, its
                                           columns, the build parameters, further files

Images are stored as `datasets` stores them: a struct of PNG `bytes` and a `path`
(relative to the data directory), byte for byte as the benchmark wrote them.
`datasets.load_dataset("parquet", data_files="DIR/data/*.parquet")` loads the rows
with the features, and the images decode to PIL images.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from diagbench import __version__
from diagbench.benchmarks.jsonl import not_json
from diagbench.benchmarks.protocol import Column, DataError, Export
from diagbench.benchmarks.registry import get

SPLIT = "test"
FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class Exported:
    """What `export_hf` wrote: rows, shards, bytes of the shards, seconds taken."""

    benchmark: str
    rows: int
    shards: list[Path]
    bytes: int
    seconds: float


def features(columns: tuple[Column, ...]) -> Any:
    """The `datasets.Features` of `columns`."""
    import datasets

    kinds = {"string": datasets.Value("string"), "json": datasets.Value("string"),
             "int64": datasets.Value("int64"), "float64": datasets.Value("float64"),
             "bool": datasets.Value("bool"), "image": datasets.Image(),
             "list<string>": datasets.List(datasets.Value("string"))}
    unknown = [c.name for c in columns if c.type not in kinds]
    if unknown:
        raise ValueError(f"columns of unknown type: {', '.join(unknown)}")
    return datasets.Features({c.name: kinds[c.type] for c in columns})


def _encode(row: Mapping[str, Any], columns: tuple[Column, ...]) -> dict[str, Any]:
    out = {}
    for c in columns:
        if c.name not in row:
            raise ValueError(f"a row has no column {c.name!r}")
        value = row[c.name]
        if value is None and not c.nullable:
            raise ValueError(f"column {c.name!r} is null in row {row.get('id', '?')!r}")
        if c.type == "json":
            value = json.dumps(value, ensure_ascii=False)
        out[c.name] = value
    return out


def _decode(row: dict[str, Any], columns: tuple[Column, ...]) -> dict[str, Any]:
    for c in columns:
        if c.type == "json":
            row[c.name] = json.loads(row[c.name])
        elif c.type == "list<string>" and row[c.name] is not None:
            row[c.name] = list(row[c.name])
    return row


def export_hf(name: str, data: Path, out: Path, rows_per_shard: int = 1000,
              max_shard_bytes: int = 256 << 20) -> Exported:
    """Write the data directory `data` of benchmark `name` into `out` as a dataset."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    start = time.perf_counter()
    bench = get(name)
    columns = bench.columns
    feats = features(columns)
    schema = feats.arrow_schema
    export = bench.rows().export_rows(data)
    images = [c.name for c in columns if c.type == "image"]
    (out / "data").mkdir(parents=True, exist_ok=True)
    for old in (out / "data").glob(f"{SPLIT}-*.parquet"):
        old.unlink()
    parts: list[Path] = []
    batch: list[dict[str, Any]] = []
    size = rows = 0

    def flush() -> None:
        nonlocal size
        path = out / "data" / f".part-{len(parts):05d}.parquet"
        table = pa.Table.from_pylist(batch, schema=schema)
        pq.write_table(table, path, row_group_size=100, compression="zstd")
        parts.append(path)
        batch.clear()
        size = 0

    for row in export.rows:
        encoded = _encode(row, columns)
        batch.append(encoded)
        rows += 1
        size += sum(len(encoded[c]["bytes"]) for c in images if encoded[c] is not None)
        if len(batch) >= rows_per_shard or size >= max_shard_bytes:
            flush()
    if batch or not parts:
        flush()
    shards = []
    for k, part in enumerate(parts):
        shard = out / "data" / f"{SPLIT}-{k:05d}-of-{len(parts):05d}.parquet"
        part.replace(shard)
        shards.append(shard)
    total = sum(s.stat().st_size for s in shards)
    info = {"format": FORMAT_VERSION, "benchmark": name, "diagbench": __version__,
            "split": SPLIT, "rows": rows, "columns": [_column_json(c) for c in columns],
            "parameters": dict(export.parameters), "files": dict(export.files)}
    (out / "diagbench.json").write_text(json.dumps(info, indent=1, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    (out / "README.md").write_text(card(name, bench.description, columns, feats, export,
                                        rows, total, data), encoding="utf-8")
    return Exported(name, rows, shards, total, time.perf_counter() - start)


def _column_json(c: Column) -> dict[str, Any]:
    return {"name": c.name, "type": c.type, "description": c.description,
            "nullable": c.nullable}


def card(name: str, description: str, columns: tuple[Column, ...], feats: Any,
         export: Export, rows: int, download_size: int, data: Path) -> str:
    """The dataset card: YAML front matter as Hugging Face writes it, then the text."""
    import yaml

    front = {
        "license": export.license_id,
        "pretty_name": f"diagbench {name}",
        "tags": ["diagbench", "diagrams", "software-engineering", "vision-language"],
        "task_categories": ["visual-question-answering", "image-to-text"],
        "size_categories": [_size_category(rows)],
        "configs": [{"config_name": "default",
                     "data_files": [{"split": SPLIT, "path": f"data/{SPLIT}-*"}]}],
        "dataset_info": {
            "features": feats._to_yaml_list(),
            "splits": [{"name": SPLIT, "num_bytes": download_size, "num_examples": rows}],
            "download_size": download_size,
            "dataset_size": download_size,
        },
    }
    table = "\n".join(f"| `{c.name}` | {c.type}{' (or null)' if c.nullable else ''} | "
                      f"{c.description} |" for c in columns)
    params = json.dumps(dict(export.parameters), indent=1, ensure_ascii=False)
    return (f"---\n{yaml.safe_dump(front, sort_keys=False, allow_unicode=True)}---\n\n"
            f"# diagbench {name}\n\n{description}.\n\n"
            f"Exported by diagbench {__version__} (`diagbench export {data.name} --format hf`)"
            f"; {rows} rows, split `{SPLIT}`.\n\n"
            "```python\nimport datasets\n"
            f"ds = datasets.load_dataset(\"parquet\", data_files=\"data/{SPLIT}-*.parquet\", "
            f"split=\"train\")\n```\n\n"
            "`diagbench import hf DIR --out DATA` writes the benchmark's data directory "
            f"back, and `diagbench eval {name} …` runs on it.\n\n"
            f"## Columns\n\n| column | type | meaning |\n|---|---|---|\n{table}\n\n"
            "Columns of type json hold a JSON text (the value's type varies from row to "
            "row). Images are PNG bytes as the benchmark rendered them, with their path in "
            "the data directory.\n\n"
            f"## How it was made\n\n{export.method}\n\n"
            f"## Build parameters\n\n```json\n{params}\n```\n\n"
            f"## Licence\n\n{export.licence}\n")


def _size_category(rows: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                         (1_000_000, "100K<n<1M")):
        if rows < limit:
            return label
    return "1M<n<10M"


def read_info(source: Path) -> dict[str, Any]:
    """The `diagbench.json` of an exported dataset (DataError when missing or wrong)."""
    path = source / "diagbench.json"
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror or exc}); is {source} a "
                        "dataset written by `diagbench export --format hf`?") from None
    except json.JSONDecodeError as exc:
        raise not_json(path, exc) from None
    if not isinstance(info, dict) or info.get("format") != FORMAT_VERSION:
        raise DataError(f"{path}: not a diagbench export of format {FORMAT_VERSION}")
    return info


def import_hf(source: Path, out: Path) -> tuple[str, list[str]]:
    """Write the benchmark data directory `out` from the dataset `source`; return the
    benchmark's name and the lines to print."""
    import pyarrow.parquet as pq

    info = read_info(source)
    bench = get(info["benchmark"])
    columns = bench.columns
    names = [c.name for c in columns]
    shards = sorted((source / "data").glob(f"{info.get('split', SPLIT)}-*.parquet"))
    if not shards:
        raise DataError(f"{source / 'data'}: no Parquet shards")
    for shard in shards:
        have = pq.read_schema(shard).names
        if have != names:
            raise DataError(f"{shard}: columns {have} are not those of {bench.name} "
                            f"({names})")

    def rows() -> Iterator[dict[str, Any]]:
        for shard in shards:
            for batch in pq.ParquetFile(shard).iter_batches(batch_size=256):
                for row in batch.to_pylist():
                    yield _decode(row, columns)

    out.mkdir(parents=True, exist_ok=True)
    return bench.name, bench.rows().import_rows(rows(), info, out)
