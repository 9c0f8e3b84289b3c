"""The skeleton the benchmarks' exports fill in (`diagbench.benchmarks.rows`): the build
record read and carried whole, the card's parameters kept from it, and the JSONL files
and carried files written back as the builds write them."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from diagbench.benchmarks.protocol import DataError
from diagbench.benchmarks.rows import BuildRecord, exported, written_back


@dataclass(frozen=True)
class _Line:
    name: str

    def to_json(self) -> dict:
        return {"name": self.name, "n": 1}


def test_build_record_is_carried_whole_and_its_parameters_kept(tmp_path):
    text = '{"seed": 3, "model": "m", "stages": {"kept": 2}}\n'
    (tmp_path / "build.json").write_text(text, encoding="utf-8")
    record = BuildRecord.read(tmp_path)
    export = exported(iter([{"id": "a"}]), record, ("model", "seed", "absent"), "L", "M",
                      "apache-2.0")
    assert export.parameters == {"model": "m", "seed": 3}  # in the order asked
    assert export.files == {"build.json": text}
    assert (export.licence, export.method, export.license_id) == ("L", "M", "apache-2.0")
    assert list(export.rows) == [{"id": "a"}]


def test_a_missing_record_is_empty_and_a_broken_one_names_its_file(tmp_path):
    assert BuildRecord.read(tmp_path, "import.json") == BuildRecord("import.json", "{}\n", {})
    (tmp_path / "build.json").write_text("{nope", encoding="utf-8")
    with pytest.raises(DataError, match=r"build\.json:1:\d+: not JSON"):
        BuildRecord.read(tmp_path)


def test_written_back_writes_the_jsonl_files_and_the_carried_files(tmp_path):
    written_back(tmp_path, {"files": {"build.json": "{}\n", "sub/x.txt": "é"}},
                 {"a.jsonl": [_Line("é"), _Line("b")], "empty.jsonl": []})
    assert (tmp_path / "a.jsonl").read_bytes() == \
        '{"name": "é", "n": 1}\n{"name": "b", "n": 1}\n'.encode()
    assert (tmp_path / "empty.jsonl").read_bytes() == b""
    assert (tmp_path / "sub" / "x.txt").read_text(encoding="utf-8") == "é"
    written_back(tmp_path, {}, {"a.jsonl": [_Line("é")]}, ensure_ascii=True)
    assert (tmp_path / "a.jsonl").read_bytes() == b'{"name": "\\u00e9", "n": 1}\n'
    with pytest.raises(DataError, match="not a path inside"):
        written_back(tmp_path, {"files": {"../out.txt": "x"}}, {})
