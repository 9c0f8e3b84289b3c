"""`diagbench parse` end to end, in a real subprocess: output, JSON shape, bad input, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

GOOD = "@startuml\nactor U\nU -> S : hello\nnote over S : hi\n@enduml\n"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "diagbench", "parse", *args],
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "good.puml"
    path.write_text(GOOD, encoding="utf-8")
    return path


def test_summary_of_a_good_file(good):
    done = run(str(good))
    assert done.returncode == 0, done.stderr
    assert "sequence: 2 participants, 1 messages, 1 notes, 0 groups, 0 boxes" in done.stdout
    assert done.stderr == ""


def test_json_shape(good, tmp_path):
    second = tmp_path / "two.puml"
    second.write_text(GOOD + "@startuml\nA -> B\nA -> C\nalt x\nend\n@enduml\n", encoding="utf-8")
    done = run("--json", str(good), str(second))
    assert done.returncode == 0
    records = json.loads(done.stdout)
    assert [(r["file"], r["index"]) for r in records] == [
        (str(good), 0), (str(second), 0), (str(second), 1)]
    assert set(records[0]) == {"file", "index", "language", "kind", "counts", "diagnostics",
                               "diagram"}
    assert records[0]["language"] == "plantuml"
    assert records[2]["counts"] == {"participants": 3, "messages": 2, "notes": 0, "groups": 1,
                                    "boxes": 0}
    assert records[0]["diagram"]["messages"][0]["label"] == "hello"
    assert records[0]["diagram"]["participants"][0]["kind"] == "actor"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "file is empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file"),
        (b"@startuml\nA -> B : caf\xe9\n@enduml\n",
         "not valid UTF-8 (byte 0xe9 at line 2, column 13)"),
    ],
)
def test_unreadable_files_give_one_line_errors_and_exit_3(tmp_path, good, content, reason):
    bad = tmp_path / "bad.puml"
    bad.write_bytes(content)
    done = run(str(bad), str(good))
    assert done.returncode == 3
    [line] = done.stderr.strip().splitlines()
    assert line.startswith(f"diagbench: error: {bad}: {reason}")
    assert str(good) in done.stdout  # the other file was still processed


def test_missing_file_and_huge_file(tmp_path, good):
    huge = tmp_path / "huge.puml"
    with huge.open("w") as f:
        f.write("@startuml\n")
        line = "A -> B : " + "x" * 90 + "\n"
        f.write(line * (20_000_000 // len(line)))
        f.write("@enduml\n")
    done = run(str(tmp_path / "nope.puml"), str(huge), str(good))
    assert done.returncode == 3
    errors = done.stderr.strip().splitlines()
    assert errors[0] == f"diagbench: error: {tmp_path / 'nope.puml'}: no such file"
    assert errors[1].startswith(f"diagbench: error: {huge}: file is 20,")
    assert "over the 5,000,000-byte limit" in errors[1]
    assert str(good) in done.stdout


def test_huge_file_parses_when_allowed(tmp_path):
    huge = tmp_path / "huge.puml"
    label = "x" * 90
    huge.write_text("@startuml\n" + f"A -> B : {label}\n" * 200_000 + "@enduml\n", "utf-8")
    assert huge.stat().st_size > 20_000_000
    done = run("--max-bytes", "30000000", str(huge))
    assert done.returncode == 0, done.stderr[-500:]
    assert "200000 messages" in done.stdout


def test_no_startuml_and_unterminated_note_give_diagnostics_and_exit_1(tmp_path, good):
    plain = tmp_path / "plain.puml"
    plain.write_text("A -> B\n", encoding="utf-8")
    note = tmp_path / "note.puml"
    note.write_text("@startuml\nA -> B\nnote over A\nnever ends\n@enduml\n", encoding="utf-8")
    done = run(str(plain), str(note), str(good))
    assert done.returncode == 1
    assert "line 1: error: no @startuml line; read the whole text" in done.stdout
    assert "line 3: error: unterminated block: no 'end note'" in done.stdout
    assert str(good) in done.stdout


def test_unterminated_group_is_a_warning(tmp_path):
    group = tmp_path / "group.puml"
    group.write_text("@startuml\nloop forever\nA -> B\n@enduml\n", encoding="utf-8")
    done = run(str(group))
    assert done.returncode == 0
    assert "line 2: warning: unterminated 'loop' group" in done.stdout
    assert run("--strict", str(group)).returncode == 1


def test_usage_errors_exit_2():
    assert run().returncode == 2
    assert run("--max-bytes", "0", "x").returncode == 2


def test_help_on_every_command():
    for args in (["--help"], ["parse", "--help"]):
        done = subprocess.run([sys.executable, "-m", "diagbench", *args], capture_output=True,
                              text=True, check=False)
        assert done.returncode == 0
        assert "Usage:" in done.stdout


def test_graph_diagrams_give_graph_counts(tmp_path):
    path = tmp_path / "arch.puml"
    path.write_text("@startuml\npackage P {\n  [A]\n  [B]\n}\n[A] --> [B] : calls\n"
                    "note right of A : n\n@enduml\n@startuml\nclass X\nclass Y\nX <|-- Y\n"
                    "@enduml\n", encoding="utf-8")
    done = run("--json", str(path))
    assert done.returncode == 0, done.stderr
    first, second = json.loads(done.stdout)
    assert (first["kind"], first["counts"]) == (
        "component", {"entities": 2, "relations": 1, "clusters": 1, "notes": 1})
    assert first["diagram"]["clusters"][0]["members"] == ["A", "B"]
    assert second["kind"] == "class"
    relation = second["diagram"]["relations"][0]
    assert (relation["source"], relation["target"], relation["type"]) == ("Y", "X", "inheritance")


def test_directory_of_graph_languages_with_bad_files(tmp_path):
    """`diagbench parse DIR`: every Mermaid, DOT and DBML file under it; a 20 MB, binary,
    empty or non-UTF-8 file is one line on stderr, the others are still parsed, and an
    unterminated block is a diagnostic."""
    good = {"flow.mmd": "flowchart LR\n  A --> B\n", "g.dot": "digraph { a -> b -> c }\n",
            "db.dbml": "Table a {\n  id int [pk]\n}\n", "seq.puml": GOOD,
            "open.mmd": "flowchart LR\n  subgraph s\n    A --> B\n"}
    for name, text in good.items():
        (tmp_path / name).write_text(text, "utf-8")
    for name, line in (("huge.mmd", "  n1 --> n2\n"), ("huge.dot", "  n1 -> n2;\n"),
                       ("huge.dbml", "Table t {\n id int\n}\n")):
        with (tmp_path / name).open("w") as f:
            f.write(line * (20_000_000 // len(line)))
    (tmp_path / "binary.dot").write_bytes(b"digraph {\x00\x01}")
    (tmp_path / "empty.dbml").write_bytes(b"")
    (tmp_path / "latin.mmd").write_bytes("flowchart LR\n  A[caf\xe9]\n".encode("latin-1"))
    (tmp_path / "notes.txt").write_text("not a diagram", "utf-8")
    done = run("--json", str(tmp_path))
    assert done.returncode == 3
    errors = done.stderr.strip().splitlines()
    assert len(errors) == 6
    assert all(e.startswith(f"diagbench: error: {tmp_path}/") for e in errors)
    assert sum("over the 5,000,000-byte limit" in e for e in errors) == 3
    records = {Path(r["file"]).name: r for r in json.loads(done.stdout)}
    assert set(records) == set(good)
    assert records["flow.mmd"]["counts"] == {"entities": 2, "relations": 1, "clusters": 0,
                                             "notes": 0}
    assert records["g.dot"]["language"] == "dot" and records["g.dot"]["counts"]["relations"] == 2
    assert records["db.dbml"]["kind"] == "er"
    assert "never closed" in records["open.mmd"]["diagnostics"][0]["reason"]
