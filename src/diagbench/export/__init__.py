"""A built benchmark in other ecosystems' formats, and back.

`hf` writes a Hugging Face dataset (Parquet shards with an `Image` feature and a dataset
card) from the rows a benchmark describes (`Benchmark.columns`, and `export_rows` of
`Benchmark.rows()`) and reads one back into a data directory that `diagbench eval` runs
unchanged (`import_rows`). This package names no benchmark: the registry finds them. It
has no scoring logic of its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from diagbench.benchmarks.protocol import Benchmark, DataError


def exportable() -> dict[str, type[Benchmark[Any, Any]]]:
    """The registered benchmarks that describe their rows, by name."""
    from diagbench.benchmarks.registry import registered
    return {name: cls for name, cls in registered().items() if cls.columns}


def detect(data: Path) -> str:
    """The name of the one exportable benchmark whose data `data` looks like
    (DataError when none or several do)."""
    found = [name for name, cls in exportable().items() if cls().is_data(data)]
    if len(found) != 1:
        known = ", ".join(exportable())
        raise DataError(f"{data}: " + (f"could be the data of {', '.join(found)}"
                                       if found else "not the data of any benchmark")
                        + f"; name it with --benchmark ({known})")
    return found[0]
