"""`diagbench compare` end to end: hand-computed pooled rates, outputs, bad input, git refs."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest

GOLD_1 = """@startuml
participant A
participant B
participant C
A -> B : req
B --> A : resp
note over A : hello
@enduml
"""
PRED_1 = """@startuml
participant A
participant B
participant D
B -> A : req
B -> A : resp
@enduml
"""
GOLD_2 = """@startuml
participant X
participant Y
alt ok
X -> Y : go
else ko
X -> Y : stop
end
Y -> X
@enduml
"""
PRED_2 = """@startuml
participant X
participant Y
X -> Y : go now
X -> Y : stop
Y -> Y
X -> Y : extra
@enduml
"""

# Worked out by hand from the definitions (see the README):
# file 1: C missing and D extra (participant −1 +1); `req` drawn B -> A (direction
#   substitution); `resp` solid instead of dotted (type substitution); note deleted.
# file 2: label `go` -> `go now` (message substitution); Y -> X became Y -> Y (node
#   substitution); `extra` inserted (message, direction +1, node +2); alt removed.
EXPECTED = {  # component: (gold, insertion, deletion, substitution)
    "participant": (5, 1, 1, 0), "node": (10, 2, 0, 1), "edge_direction": (5, 1, 0, 1),
    "edge_type": (5, 0, 0, 1), "message": (4, 1, 0, 1), "note": (1, 0, 1, 0),
    "group": (1, 0, 1, 0), "box": (0, 0, 0, 0),
}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diagbench", "compare", *args],
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture
def dirs(tmp_path):
    gold, pred = tmp_path / "gold", tmp_path / "pred"
    for root, texts in ((gold, (GOLD_1, GOLD_2)), (pred, (PRED_1, PRED_2))):
        (root / "sub").mkdir(parents=True)
        (root / "one.puml").write_text(texts[0], encoding="utf-8")
        (root / "sub" / "two.puml").write_text(texts[1], encoding="utf-8")
    return gold, pred


def test_pooled_rates_match_the_hand_computation(dirs, tmp_path):
    out = tmp_path / "report.json"
    done = run(str(dirs[0]), str(dirs[1]), "--json", str(out))
    assert done.returncode == 0, done.stderr
    summary = json.loads(out.read_text(encoding="utf-8"))["summary"]
    got = {k: (v["gold"], v["insertion"], v["deletion"], v["substitution"])
           for k, v in summary["components"].items()}
    assert got == EXPECTED
    node = summary["components"]["node"]
    assert (node["insertion_rate"], node["deletion_rate"], node["substitution_rate"]) == (
        0.2, 0.0, 0.1)
    assert summary["components"]["message"]["insertion_rate"] == 0.25
    assert summary["components"]["box"]["deletion_rate"] is None
    assert summary["total"] == {"gold": 31, "errors": 12, "rate": 12 / 31}
    assert summary["ordering"]["score"] == 1.0
    assert (summary["files"], summary["compared"], summary["errors"]) == (2, 2, 0)
    # Table 2 layout on stdout: node insertion 20.00 %, note deletion 100.00 %
    assert "Insertion (%)" in done.stdout and "20.00" in done.stdout
    assert "100.00" in done.stdout


def test_json_files_and_csv_rows(dirs, tmp_path):
    out = tmp_path / "rows.csv"
    done = run(str(dirs[0]), str(dirs[1]), "--csv", str(out), "--json", "-")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["method"] == "semantic"
    [one, two] = doc["files"]
    assert one["status"] == "ok" and one["gold_lines"] == 8
    assert one["components"]["note"] == {"gold": 1, "insertion": 0, "deletion": 1,
                                         "substitution": 0}
    assert two["gold"].endswith("sub/two.puml")
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert len(rows) == 16
    assert {(r["component"], r["deletion"]) for r in rows if r["gold"].endswith("one.puml")
            and r["component"] == "note"} == {("note", "1")}


def test_bad_inputs_are_reported_per_file_and_the_rest_compared(dirs):
    gold, pred = dirs
    (gold / "binary.puml").write_text(GOLD_1, encoding="utf-8")
    (pred / "binary.puml").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (gold / "missing.puml").write_text(GOLD_1, encoding="utf-8")
    (pred / "extra.puml").write_text(PRED_1, encoding="utf-8")
    (gold / "empty.puml").write_text(GOLD_1, encoding="utf-8")
    (pred / "empty.puml").write_text("", encoding="utf-8")
    (gold / "prose.puml").write_text(GOLD_1, encoding="utf-8")
    (pred / "prose.puml").write_text("I cannot read this image, sorry.\n", encoding="utf-8")
    done = run(str(gold), str(pred), "--json", "-")
    assert done.returncode == 3
    assert "Traceback" not in done.stderr
    files = {f["gold"] or f["pred"]: f for f in json.loads(done.stdout)["files"]}
    status = {name.rsplit("/", 1)[-1]: (f["status"], f["error"]) for name, f in files.items()}
    assert status["binary.puml"][0] == "error" and "binary file" in status["binary.puml"][1]
    assert status["missing.puml"] == ("error", "no prediction for this file")
    assert status["extra.puml"] == ("error", "no ground truth")
    assert status["one.puml"] == ("ok", None)
    for name in ("empty.puml", "prose.puml"):
        entry = next(f for n, f in files.items() if n.endswith(name))
        assert entry["status"] == "ok"
        deleted = {k: (v["deletion"], v["gold"]) for k, v in entry["components"].items()
                   if k != "edge_type"}  # a type is only ever substituted
        assert all(d == g for d, g in deleted.values()), name  # every gold element deleted
    prose = next(f for n, f in files.items() if n.endswith("prose.puml"))
    assert any("no @startuml" in w for w in prose["warnings"])
    assert "binary.puml" in done.stderr and "missing.puml" in done.stderr


def test_usage_errors_exit_2():
    assert run().returncode == 2
    assert run("--repo", ".").returncode == 2
    assert run("a", "b", "--method", "nope").returncode == 2


def test_missing_input_exits_3_with_one_line(tmp_path):
    gold = tmp_path / "g.puml"
    gold.write_text(GOLD_1, encoding="utf-8")
    done = run(str(gold), str(tmp_path / "nope.puml"))
    assert done.returncode == 3
    assert "nope.puml: no such file" in done.stderr


def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
                        "PATH": "/usr/bin:/bin"})


def test_git_refs_give_the_same_result_as_directories(dirs, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / "sub").mkdir()
    (repo / "one.puml").write_text(GOLD_1, encoding="utf-8")
    (repo / "sub" / "two.puml").write_text(GOLD_2, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "ground truth")
    _git(repo, "checkout", "-qb", "claude")
    (repo / "one.puml").write_text(PRED_1, encoding="utf-8")
    (repo / "sub" / "two.puml").write_text(PRED_2, encoding="utf-8")
    _git(repo, "commit", "-qam", "claude output")
    by_git = run("--repo", str(repo), "--gold-ref", "main", "--pred-ref", "claude", "--json", "-")
    by_dirs = run(str(dirs[0]), str(dirs[1]), "--json", "-")
    assert by_git.returncode == 0, by_git.stderr
    assert json.loads(by_git.stdout)["summary"] == json.loads(by_dirs.stdout)["summary"]
    assert json.loads(by_git.stdout)["files"][0]["gold"] == "main:one.puml"
    bad = run("--repo", str(repo), "--gold-ref", "main", "--pred-ref", "nope")
    assert bad.returncode == 3 and "nope" in bad.stderr and "Traceback" not in bad.stderr


def test_a_git_that_never_answers_makes_the_blob_unreadable_not_a_hang(tmp_path, monkeypatch):
    """The blob reader waits for each answer with a time-out: a `git cat-file` that reads
    its request and never answers (here a stand-in that does just that) gives a
    SourceError naming the blob; a real one answers at once with the blob's text."""
    from diagbench.formats.source import SourceError
    from diagbench.languages import pairing as inputs

    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / "one.puml").write_text(GOLD_1, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "one")
    [pair] = inputs.pairs_from_git(repo, "main", "main", 1_000_000)
    assert pair.load is not None and pair.load() == (GOLD_1, GOLD_1)
    reader = inputs._BlobReader(repo)
    reader.git.command = [sys.executable, "-c", "import sys\nfor _ in sys.stdin: pass"]
    monkeypatch.setattr(inputs, "BLOB_TIMEOUT", 0.5)
    with pytest.raises(SourceError, match=r"main:one.puml: git cat-file: no answer within"):
        reader.text("main:one.puml", "0" * 40, 1_000_000, allow_empty=False)
    assert reader.git.process is None  # killed: the next blob starts a fresh one
