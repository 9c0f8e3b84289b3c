"""Reading the files of a run and a data set, with errors that name the file and line;
writing JSONL files of records and files inside a data directory."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Protocol, TypeVar

from diagbench.benchmarks.errors import DataError

R = TypeVar("R")


class Record(Protocol):
    """A typed record that one line of a JSON file holds."""

    def to_json(self) -> dict: ...


def read_text(path: Path) -> str:
    """The text of `path`, UTF-8 with or without a byte-order mark (DataError naming it
    when it cannot be read)."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text ({exc.reason})") from None


def not_json(path: Path | str, exc: json.JSONDecodeError, line: int | None = None
             ) -> DataError:
    """The error of a file that is not JSON, at its place: `path:LINE:COLUMN: not JSON
    (why)` (`line`: the line of a JSONL file the text came from)."""
    return DataError(f"{path}:{line or exc.lineno}:{exc.colno}: not JSON ({exc.msg})")


def read_json(path: Path) -> object:
    """The JSON of the file `path` (DataError naming it, its line and column)."""
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise not_json(path, exc) from None


def read_jsonl(path: Path) -> list[tuple[int, dict]]:
    """(line number, object) for every non-blank line of a JSONL file."""
    rows = []
    for number, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise not_json(path, exc, number) from None
        if not isinstance(row, dict):
            raise DataError(f"{path}:{number}: not a JSON object")
        rows.append((number, row))
    return rows


def read_scores(path: Path, models: list[str], record: Callable[[dict], R],
                what: str) -> dict[str, list[R]]:
    """Every model's score records in a scores.jsonl (each line names its "model"),
    read by `record` (DataError naming the line when one is not a `what`)."""
    scores: dict[str, list[R]] = {model: [] for model in models}
    for number, line in read_jsonl(path):
        try:
            scores.setdefault(line["model"], []).append(record(line))
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"{path}:{number}: not {what} ({type(exc).__name__}: {exc})"
                            ) from None
    return scores


def write_jsonl(path: Path, records: Iterable[Record], ensure_ascii: bool = False) -> None:
    """One record's JSON a line (`ensure_ascii`: non-ASCII characters escaped, as the
    file's writer did)."""
    path.write_text("".join(json.dumps(r.to_json(), ensure_ascii=ensure_ascii) + "\n"
                            for r in records), encoding="utf-8")


def inside(root: Path, relative: str) -> Path:
    """`root`/`relative`, made sure to stay inside `root` (DataError for an absolute
    path or one that climbs out with `..`): where imported rows may write a file."""
    path = Path(relative)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise DataError(f"{relative!r}: not a path inside the data directory")
    return root / path


def write_file(root: Path, relative: str, data: bytes | str) -> Path:
    """Write `data` to `root`/`relative` (parents made; see `inside`)."""
    path = inside(root, relative)
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path
