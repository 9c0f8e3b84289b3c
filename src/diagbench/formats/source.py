"""Read diagram source files, refusing what is not diagram text with a clear reason.

`decode_source` is the one place where a diagram file's bytes become text, in every
encoding an engine accepts: a byte-order mark says UTF-8, UTF-16 or UTF-32 (for every
language); a Graphviz graph may declare its own encoding with the `charset` attribute
(`charset=latin1`, Graphviz's rule); everything else is UTF-8, as PlantUML, Mermaid,
DBML and Graphviz read it by default. `encode_source` is the way back for an engine
that reads the declared encoding (Graphviz).
"""

from __future__ import annotations

import codecs
import re
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


#: Byte-order marks and their encodings (UTF-32's before UTF-16's: FF FE starts both).
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
         (codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
         (codecs.BOM_UTF16_BE, "utf-16-be"))
#: Graphviz's `charset` values (case ignored) and their Python codecs: Graphviz's
#: documented names; any other value Graphviz reads as UTF-8.
_GRAPHVIZ_CHARSETS = dict.fromkeys(
    ("latin1", "latin-1", "l1", "iso-8859-1", "iso_8859-1", "iso8859-1", "iso-ir-100"),
    "latin-1") | {"big5": "big5", "big-5": "big5"}
_DOT_GRAPH = re.compile(rb"^\s*(?:strict\s+)?(?:di)?graph\b[^{]*\{", re.I | re.M)
_DOT_CHARSET = re.compile(rb"\bcharset\s*=\s*\"?([\w-]+)\"?", re.I)


def declared_encoding(data: bytes) -> str | None:
    """The Python codec of the encoding a Graphviz graph declares with its `charset`
    attribute (`graph [charset=latin1]`), or None (UTF-8, or not a Graphviz graph)."""
    if not _DOT_GRAPH.search(data):
        return None
    m = _DOT_CHARSET.search(data)
    return _GRAPHVIZ_CHARSETS.get(m.group(1).decode("ascii").lower()) if m else None


def decode_source(data: bytes, label: Path | str, allow_empty: bool = False) -> str:
    """`data` as diagram text (see the module docstring), or SourceError naming `label`:
    empty, binary (NUL bytes without a byte-order mark), or not valid in its encoding
    (with the line and column of the first bad byte)."""
    bom, encoding = next(((bom, name) for bom, name in _BOMS if data.startswith(bom)),
                         (b"", None))
    if encoding is not None:
        data = data[len(bom):]
    elif b"\0" in data[:65536]:
        raise SourceError(label, "binary file (contains NUL bytes), not diagram text "
                                 "(UTF-16 and UTF-32 need a byte-order mark)")
    else:
        encoding = declared_encoding(data) or "utf-8"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise SourceError(label, _undecodable(data, encoding, exc)) from None
    if not text.strip() and not allow_empty:
        raise SourceError(label, "file is empty")
    return text


def _undecodable(data: bytes, encoding: str, exc: UnicodeDecodeError) -> str:
    """Why `data` is not `encoding`: the first bad byte, its line and column."""
    before = data[:exc.start].decode(encoding)
    line = before.count("\n") + 1
    column = len(before) - (before.rfind("\n") + 1) + 1
    name = codecs.lookup(encoding).name.upper().replace("-LE", "").replace("-BE", "")
    hint = " (a Latin-1 Graphviz graph says so with charset=latin1)" \
        if name == "UTF-8" and _DOT_GRAPH.search(data) else ""
    return (f"not valid {name} (byte 0x{data[exc.start]:02x} at line {line}, "
            f"column {column}){hint}")


def encode_source(text: str) -> bytes:
    """`text` as an engine reads it: in the encoding a Graphviz graph declares (characters
    outside it as numeric character references, which Graphviz reads in labels), else
    UTF-8."""
    data = text.encode("utf-8")
    encoding = declared_encoding(data)
    return data if encoding is None else text.encode(encoding, "xmlcharrefreplace")


def check_size(label: Path | str, size: int, max_bytes: int) -> None:
    """Raise SourceError when `size` is over `max_bytes`."""
    if size > max_bytes:
        raise SourceError(label, _too_big(size, max_bytes))


def _too_big(size: int, max_bytes: int) -> str:
    return f"file is {size:,} bytes, over the {max_bytes:,}-byte limit (raise it with --max-bytes)"
