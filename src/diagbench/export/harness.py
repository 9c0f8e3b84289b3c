"""What the task files written by `export --format lmms-eval` and `--format inspect` call
at run time (the harness's environment has diagbench installed): a row of the exported
dataset, as either harness hands it over, asked and scored by its benchmark's own
`ask_row` and `score_row` (`Benchmark.rows()`). Nothing here scores by itself."""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from diagbench.benchmarks.protocol import Benchmark, DataError, RowAsk, RowMetric, RowScore


@cache
def benchmark(name: str) -> Benchmark[Any, Any]:
    """One instance of the benchmark `name` per process."""
    from diagbench.benchmarks.registry import get
    return get(name)


def row_metric(name: str) -> RowMetric:
    """The per-row metric of benchmark `name`; DataError when its rows cannot be scored
    one by one."""
    metric = benchmark(name).row_metric
    if metric is None:
        raise DataError(f"{name}: its rows cannot be scored one by one")
    return metric


def row(name: str, doc: Mapping[str, Any]) -> dict[str, Any]:
    """`doc` (a row of the Parquet shards: JSON columns as text, the image as a PIL image
    or as PNG bytes and path) as `export_rows` gave it, JSON columns decoded."""
    out = dict(doc)
    for column in benchmark(name).columns:
        if column.type == "json" and isinstance(out.get(column.name), str):
            out[column.name] = json.loads(out[column.name])
    return out


def image_column(name: str) -> str:
    """The name of the benchmark's one image column."""
    return next(c.name for c in benchmark(name).columns if c.type == "image")


def png(name: str, doc: Mapping[str, Any]) -> bytes:
    """The PNG bytes of the row's image, as the benchmark wrote them."""
    image = doc[image_column(name)]
    if isinstance(image, Mapping):
        return bytes(image["bytes"])
    buffer = io.BytesIO()  # a PIL image, decoded by `datasets`
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def image(name: str, doc: Mapping[str, Any]) -> Any:
    """The row's image as a PIL image."""
    from PIL import Image

    value = doc[image_column(name)]
    return Image.open(io.BytesIO(bytes(value["bytes"]))) if isinstance(value, Mapping) \
        else value


def data_uri(name: str, doc: Mapping[str, Any]) -> str:
    """The row's image as a `data:image/png;base64,…` URI."""
    return "data:image/png;base64," + base64.b64encode(png(name, doc)).decode("ascii")


def ask(name: str, doc: Mapping[str, Any]) -> RowAsk:
    """What `diagbench eval NAME` asks about the row."""
    return benchmark(name).rows().ask_row(row(name, doc))


def score(name: str, doc: Mapping[str, Any], response: str) -> RowScore:
    """The response to the row, scored as `diagbench eval NAME` scores it."""
    return benchmark(name).rows().score_row(row(name, doc), response)


def metadata(name: str, doc: Mapping[str, Any]) -> dict[str, Any]:
    """The row without its image, JSON columns still as text (`score` takes it as a
    row), for a harness's sample record."""
    image_name = image_column(name)
    return {k: v for k, v in doc.items() if k != image_name}


def rows(dataset: Path) -> Iterator[dict[str, Any]]:
    """The rows of an exported dataset's Parquet shards, in order (images as PNG bytes
    and path)."""
    import pyarrow.parquet as pq

    from diagbench.export.hf import SPLIT

    for shard in sorted((dataset / "data").glob(f"{SPLIT}-*.parquet")):
        for batch in pq.ParquetFile(shard).iter_batches(batch_size=256):
            yield from batch.to_pylist()
