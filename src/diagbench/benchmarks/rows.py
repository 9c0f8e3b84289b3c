"""The skeleton every benchmark's `export` module fills in: its data directory as rows
and back (`diagbench export`, `diagbench import hf`).

A benchmark's export gives its rows, the record of how its data was made (build.json,
or import.json) and the keys of it that the dataset card shows; `exported` reads that
record, keeps the card's parameters and carries the record whole in the export. On the
way back the benchmark turns the rows into its typed records, and `written_back` writes
them as JSONL files with the files the export carried, as the build wrote them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from diagbench.benchmarks.jsonl import Record
from diagbench.benchmarks.protocol import Export


@dataclass(frozen=True, slots=True)
class BuildRecord:
    """How a data directory was made: the file's name, its text as written ("{}\\n" when
    there is none, as in a data directory made by hand) and its content."""

    name: str
    text: str
    info: Mapping[str, Any]

    @classmethod
    def read(cls, data: Path, name: str = "build.json") -> BuildRecord:
        """`data`/`name` (DataError when it is not JSON)."""
        from diagbench.benchmarks.jsonl import not_json, read_text

        path = data / name
        text = read_text(path) if path.is_file() else "{}\n"
        try:
            info = json.loads(text)
        except json.JSONDecodeError as exc:
            raise not_json(path, exc) from None
        return cls(name, text, info)

    def parameters(self, keys: Iterable[str]) -> dict[str, Any]:
        """The build parameters the dataset card shows: `keys` that the record has."""
        return {k: self.info[k] for k in keys if k in self.info}


def exported(rows: Iterable[dict[str, Any]], record: BuildRecord, keys: Iterable[str],
             licence: str, method: str, license_id: str) -> Export:
    """The export of a built data directory: its rows, the parameters `keys` of its build
    record, and the record itself (written back by `written_back`)."""
    return Export(rows, record.parameters(keys), licence, method, license_id,
                  {record.name: record.text})


def written_back(out: Path, export: Mapping[str, Any],
                 jsonl: Mapping[str, Iterable[Record]], ensure_ascii: bool = False) -> None:
    """Write into `out` every JSONL file of `jsonl` (its name → its records, in order)
    and the files the export carried (`export["files"]`: name → text)."""
    from diagbench.benchmarks.jsonl import write_file, write_jsonl

    for name, records in jsonl.items():
        write_jsonl(out / name, records, ensure_ascii)
    for name, text in export.get("files", {}).items():
        write_file(out, name, text)
