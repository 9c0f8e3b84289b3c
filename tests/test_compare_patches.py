"""`diagbench compare --method diff --patch DIR`: each file's patch is git's own diff of
the two scripts (the paper's Fig. 4), named by the file's relative path."""

from __future__ import annotations

import os
import subprocess
import sys

GOLD = """@startuml
participant UE
participant AMF
UE -> AMF : 1. Registration Request
AMF -> UE : 2. Authentication Request
UE -> AMF : 3. Authentication Response
AMF -> UE : 4. Registration Accept
@enduml
"""
# message 2 cut short, message 3 dropped, message 5 added
PRED = (GOLD.replace("2. Authentication Request", "2. Authentication Req")
        .replace("UE -> AMF : 3. Authentication Response\n", "")
        .replace("@enduml", "UE -> AMF : 5. Registration Complete\n@enduml"))


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diagbench", "compare", *args],
                          capture_output=True, text=True, timeout=120, check=False)


def git_diff(gold, pred) -> str:
    """Plain `git diff --no-index` of two files, reading no user or system configuration."""
    env = {"PATH": os.environ["PATH"], "HOME": str(gold.parent),
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    done = subprocess.run(["git", "diff", "--no-index", str(gold), str(pred)],
                          capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 1, done.stderr  # 1: the files differ
    return done.stdout


def without_names(patch: str) -> list[str]:
    """The patch's lines without the three header lines that name the files."""
    return [line for line in patch.splitlines()
            if not line.startswith(("diff --git ", "--- ", "+++ "))]


def test_patches_are_gits_diff_of_the_files(tmp_path):
    gold, pred, out = tmp_path / "gold", tmp_path / "pred", tmp_path / "patches"
    for root, text in ((gold, GOLD), (pred, PRED)):
        (root / "sub").mkdir(parents=True)
        (root / "sub" / "flow.puml").write_text(text, encoding="utf-8")
        (root / "same.puml").write_text(GOLD, encoding="utf-8")
    (gold / "lonely.puml").write_text(GOLD, encoding="utf-8")  # no prediction: not compared
    done = run(str(gold), str(pred), "--method", "diff", "--patch", str(out))
    assert done.returncode == 3, done.stderr  # lonely.puml could not be compared
    patch = (out / "sub" / "flow.puml.patch").read_text(encoding="utf-8")
    expected = git_diff(gold / "sub" / "flow.puml", pred / "sub" / "flow.puml")
    assert without_names(patch) == without_names(expected)
    assert "-AMF -> UE : 2. Authentication Request" in patch  # a real change, not empty
    head = patch.splitlines()[:4]
    assert head[0] == "diff --git a/sub/flow.puml b/sub/flow.puml"
    assert head[2:] == ["--- a/sub/flow.puml", "+++ b/sub/flow.puml"]
    assert (out / "same.puml.patch").read_text(encoding="utf-8") == ""  # equal: empty
    assert not (out / "lonely.puml.patch").exists()
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.patch")) == [
        "same.puml.patch", "sub/flow.puml.patch"]


def test_two_files_give_one_patch_named_by_the_gold_file(tmp_path):
    gold, pred = tmp_path / "gold.puml", tmp_path / "pred.puml"
    gold.write_text(GOLD, encoding="utf-8")
    pred.write_text(PRED, encoding="utf-8")
    done = run(str(gold), str(pred), "--method", "diff", "--patch", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    patch = (tmp_path / "out" / "gold.puml.patch").read_text(encoding="utf-8")
    assert without_names(patch) == without_names(git_diff(gold, pred))


def test_patch_needs_the_diff_method(tmp_path):
    gold = tmp_path / "gold.puml"
    gold.write_text(GOLD, encoding="utf-8")
    done = run(str(gold), str(gold), "--patch", str(tmp_path / "out"))
    assert done.returncode == 2
    assert "--method diff" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()
