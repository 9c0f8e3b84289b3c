"""Read diagram source files, refusing what is not diagram text with a clear reason."""

from __future__ import annotations

from pathlib import Path

DEFAULT_MAX_BYTES = 5_000_000


class SourceError(Exception):
    """A file that cannot be read as diagram text; str() is a one-line reason with the path."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


def read_source(path: Path | str, max_bytes: int = DEFAULT_MAX_BYTES,
                allow_empty: bool = False) -> str:
    """The UTF-8 text of `path` (a leading BOM removed).

    Raises SourceError for a missing file, a directory, a file over
    `max_bytes`, an empty file (unless `allow_empty`), a binary file (NUL
    bytes) or invalid UTF-8 (with the line and column of the first bad byte).
    """
    p = Path(path)
    if not p.exists():
        raise SourceError(p, "no such file")
    if not p.is_file():
        raise SourceError(p, "not a regular file")
    check_size(p, p.stat().st_size, max_bytes)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise SourceError(p, exc.strerror or str(exc)) from None
    return decode_source(data, p, allow_empty)


def decode_source(data: bytes, label: Path | str, allow_empty: bool = False) -> str:
    """`data` as diagram text, or SourceError naming `label` (see read_source)."""
    if not data.strip() and not allow_empty:
        raise SourceError(label, "file is empty")
    if b"\0" in data[:65536]:
        raise SourceError(label, "binary file (contains NUL bytes), not diagram text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SourceError(label, f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at line {line}, "
                                 f"column {column})") from None
    return text.removeprefix("\ufeff")


def check_size(label: Path | str, size: int, max_bytes: int) -> None:
    """Raise SourceError when `size` is over `max_bytes`."""
    if size > max_bytes:
        raise SourceError(label, _too_big(size, max_bytes))


def _too_big(size: int, max_bytes: int) -> str:
    return f"file is {size:,} bytes, over the {max_bytes:,}-byte limit (raise it with --max-bytes)"
