"""Diagram files in every encoding their engine accepts (`formats.source.decode_source`):
a byte-order mark (UTF-8, UTF-16, UTF-32) for every language, a Graphviz graph's own
`charset=latin1`; anything else undecodable is one clear error with file, line and
column, and the CLI's exit code 3.

Differential: the same diagram written in each encoding is read to equal counts and
rendered by the real engine to equal drawn statistics, with its non-ASCII text drawn
as written."""

from __future__ import annotations

import html
import json
import subprocess
import sys
from pathlib import Path

import pytest

from diagbench.formats.source import SourceError, decode_source, read_source
from diagbench.languages import detect
from diagbench.languages.rendering import collect, render_files

ROOT = Path(__file__).resolve().parents[1]
#: One diagram per language, its non-ASCII word, and the encodings written: every
#: byte-order mark for all, UTF-8 without one; for the Graphviz graph that declares
#: Latin-1, Latin-1 instead (its UTF-8 bytes Graphviz would read as Latin-1).
BOMS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-be-bom", "utf-32")  # utf-16, -32: LE
DIAGRAMS = {
    "seq.puml": ("@startuml\nAlice -> Bób : café ✓\nnote right: naïve\n@enduml\n", "café"),
    "class.puml": ("@startuml\nclass Café {\n  +prix : int\n}\nCafé --> Thé\n@enduml\n",
                   "Café"),
    "flow.mmd": ("flowchart LR\n  A[café ✓] --> B[naïve]\n  B --> C\n", "café"),
    "graph.dot": ('digraph {\n  charset="latin1"\n  a [label="café"]\n  a -> b -> c\n'
                  '  subgraph cluster_x { label="Thé"; c }\n}\n', "café"),
    "schema.dbml": ("Table café {\n  id int [pk, note: 'naïve ✓']\n}\nTable thé {\n"
                    "  id int [ref: > café.id]\n}\n", "café"),
}


def _bytes(text: str, encoding: str) -> bytes:
    if encoding == "utf-16-be-bom":
        return b"\xfe\xff" + text.encode("utf-16-be")
    return text.encode(encoding)


def _written(folder: Path) -> dict[Path, tuple[str, str]]:
    """Every diagram in every encoding: path → (name, encoding)."""
    files = {}
    for name, (text, _) in DIAGRAMS.items():
        encodings = (*BOMS[1:], "latin-1") if name.endswith(".dot") else BOMS
        for encoding in encodings:
            path = folder / encoding / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(_bytes(text, encoding))
            files[path] = (name, encoding)
    return files


def test_every_encoding_reads_and_renders_the_same_diagram(tmp_path):
    files = _written(tmp_path / "in")
    texts = {path: read_source(path) for path in files}
    for path, (name, _) in files.items():
        assert texts[path] == DIAGRAMS[name][0], path
    counts = {path: [p.counts() for p in detect(path, texts[path]).read(texts[path])]
              for path in files}
    records = render_files(collect(list(files), kinds=True), tmp_path / "out", "svg")
    assert len(records) == len(files)
    for record in records:
        name, encoding = files[record.file]
        assert record.ok, (name, encoding, record.reason)
        reference = next(r for r in records if files[r.file][0] == name)
        assert counts[record.file] == counts[reference.file], (name, encoding)
        assert record.stats == reference.stats, (name, encoding)
        assert record.result is not None and record.result.image is not None
        svg = html.unescape(record.result.image.read_text(encoding="utf-8"))
        assert DIAGRAMS[name][1] in svg, (name, encoding)  # drawn as written


@pytest.mark.parametrize(("data", "reason"), [
    ('digraph {\n  a [label="café"]\n}\n'.encode("latin-1"),
     "not valid UTF-8 (byte 0xe9 at line 2, column 16) (a Latin-1 Graphviz graph says so "
     "with charset=latin1)"),
    ("flowchart LR\n  A[café]\n".encode("latin-1"),
     "not valid UTF-8 (byte 0xe9 at line 2, column 8)"),
    ("@startuml\nA -> B\n@enduml\n".encode("utf-16-le"),
     "binary file (contains NUL bytes), not diagram text (UTF-16 and UTF-32 need a "
     "byte-order mark)"),
    (b"\xff\xfe" + "Table a {\n}\n".encode("utf-16-le") + b"\x00\xd8\x41\x00",
     "not valid UTF-16 (byte 0x00 at line 3, column 1)"),
    (b"\xef\xbb\xbf \n", "file is empty"),
])
def test_undecodable_files_say_where_and_why(data, reason):
    with pytest.raises(SourceError) as caught:
        decode_source(data, "x/f")
    assert str(caught.value) == f"x/f: {reason}"


def test_cli_parse_reads_utf16_and_latin1_dot_and_exits_3_on_undecodable(tmp_path):
    text = DIAGRAMS["graph.dot"][0]
    (tmp_path / "wide.dot").write_bytes(text.encode("utf-16"))
    (tmp_path / "latin.dot").write_bytes(text.encode("latin-1"))
    (tmp_path / "bad.dot").write_bytes(text.replace('charset="latin1"', "").encode("latin-1"))
    done = subprocess.run([sys.executable, "-m", "diagbench", "parse", "--json", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT / "src")})
    assert done.returncode == 3
    assert done.stderr.strip() == (f"diagbench: error: {tmp_path / 'bad.dot'}: not valid UTF-8 "
                                   "(byte 0xe9 at line 3, column 16) (a Latin-1 Graphviz graph "
                                   "says so with charset=latin1)")
    records = {Path(r["file"]).name: r for r in json.loads(done.stdout)}
    assert records["wide.dot"]["counts"] == records["latin.dot"]["counts"] == {
        "entities": 3, "relations": 2, "clusters": 1, "notes": 0}
    assert records["latin.dot"]["diagram"]["entities"][0]["name"] == "café"
