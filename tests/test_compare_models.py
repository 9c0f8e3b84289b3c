"""`diagbench compare` on several prediction refs (the paper's branch layout: ground truth
on main, one branch per model): each model's Table 2, then the paired test of paper 000's
footnote 3 on per-file error rates, worked out by hand."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from scipy import stats

GOLD = """@startuml
participant A
participant B
A -> B : one
B -> A : two
A -> B : three
B -> A : four
@enduml
"""


def planted(*, drop: tuple[str, ...] = (), rename: tuple[str, str] | None = None,
            extra: str | None = None) -> str:
    """The ground truth with messages dropped, one label renamed, one message added."""
    lines = [line for line in GOLD.splitlines()
             if not any(line.endswith(f": {label}") for label in drop)]
    if rename:
        lines = [line.replace(f": {rename[0]}", f": {rename[1]}") for line in lines]
    if extra:
        lines.insert(-1, extra)
    return "\n".join(lines) + "\n"


FILES = ("f1.puml", "f2.puml", "f3.puml", "f4.puml")
# model claude: f1 `one` relabelled `uno` (message substitution); f3 `four` dropped (message
#   deletion); f2 and f4 exact.
CLAUDE = {"f1.puml": planted(rename=("one", "uno")), "f2.puml": GOLD,
          "f3.puml": planted(drop=("four",)), "f4.puml": GOLD}
# model gpt4: f1 `two` and `three` dropped (2 deletions); f2 `three` relabelled `tree`
#   (substitution); f3 exact; f4 a message `five` added (insertion).
GPT4 = {"f1.puml": planted(drop=("two", "three")), "f2.puml": planted(rename=("three", "tree")),
        "f3.puml": GOLD, "f4.puml": planted(extra="A -> B : five")}
# Each ground truth has 4 messages, so the per-file message error rates are:
CLAUDE_MESSAGE_RATES = [1 / 4, 0, 1 / 4, 0]
GPT4_MESSAGE_RATES = [2 / 4, 1 / 4, 0, 1 / 4]
# Table 2's message column, pooled over the 16 ground-truth messages:
#   (gold, insertion, deletion, substitution)
CLAUDE_MESSAGES = (16, 0, 1, 1)
GPT4_MESSAGES = (16, 1, 2, 1)


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diagbench", "compare", *args],
                          capture_output=True, text=True, timeout=120, check=False)


def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
                        "PATH": "/usr/bin:/bin"})


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """main holds the ground truth; branches claude and gpt4 one model's scripts each."""
    root = tmp_path_factory.mktemp("repo")
    _git(root, "init", "-q", "-b", "main")
    for name in FILES:
        (root / name).write_text(GOLD, encoding="utf-8")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "ground truth")
    for branch, scripts in (("claude", CLAUDE), ("gpt4", GPT4)):
        _git(root, "checkout", "-q", "-b", branch, "main")
        for name, text in scripts.items():
            (root / name).write_text(text, encoding="utf-8")
        _git(root, "commit", "-qam", f"{branch} output")
    # a model that left out f4 and wrote a file the ground truth does not have
    _git(root, "checkout", "-q", "-b", "partial", "main")
    _git(root, "rm", "-q", "f4.puml")
    (root / "f5.puml").write_text(GOLD, encoding="utf-8")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "partial output")
    return root


@pytest.fixture(scope="module")
def document(repo):
    done = run("--repo", str(repo), "--gold-ref", "main", "--pred-ref", "claude",
               "--pred-ref", "gpt4", "--json", "-")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _messages(report: dict) -> tuple[int, int, int, int]:
    m = report["summary"]["components"]["message"]
    return m["gold"], m["insertion"], m["deletion"], m["substitution"]


def test_each_ref_gets_its_table2(document):
    assert list(document["refs"]) == ["claude", "gpt4"]
    assert _messages(document["refs"]["claude"]) == CLAUDE_MESSAGES
    assert _messages(document["refs"]["gpt4"]) == GPT4_MESSAGES
    per_file = [f["components"]["message"] for f in document["refs"]["claude"]["files"]]
    assert [(m["insertion"] + m["deletion"] + m["substitution"]) / m["gold"]
            for m in per_file] == CLAUDE_MESSAGE_RATES


def test_the_paired_test_takes_the_per_file_rates(document):
    paired = document["paired_tests"]
    assert "per-file error rate" in paired["statistic"] and "Wilcoxon" in paired["test"]
    [message] = [t for t in paired["tests"] if t["component"] == "message"]
    assert (message["a"], message["b"], message["n"]) == ("claude", "gpt4", 4)
    differences = [a - b for a, b in zip(CLAUDE_MESSAGE_RATES, GPT4_MESSAGE_RATES,
                                         strict=True)]
    assert differences == [-0.25, -0.25, 0.25, -0.25]
    assert message["mean_difference"] == pytest.approx(-0.125)
    # |d| all tie at 0.25: mean rank 2.5 each; W+ = 2.5 (one positive), W− = 7.5
    assert message["wilcoxon_statistic"] == 2.5
    expected = stats.wilcoxon(differences, zero_method="wilcox", alternative="two-sided")
    assert message["p_value"] == pytest.approx(float(expected.pvalue))
    # no box in the ground truth: no file to compare
    [box] = [t for t in paired["tests"] if t["component"] == "box"]
    assert box["n"] == 0 and box["p_value"] is None


def test_the_table_shows_both_models_then_the_pairwise_test(repo):
    done = run("--repo", str(repo), "--gold-ref", "main", "--pred-ref", "claude",
               "--pred-ref", "gpt4")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.index("pred-ref claude:") < out.index("pred-ref gpt4:") < out.index(
        "paired comparison")
    assert out.count("Ground truth count") == 2
    [line] = [ln for ln in out.splitlines() if ln.startswith("claude − gpt4") and "Message" in ln]
    p = float(stats.wilcoxon([-0.25, -0.25, 0.25, -0.25]).pvalue)
    # the bootstrap means of four draws from {−25, −25, +25, −25} pp: all four negative
    # (−25) has probability (3/4)⁴ ≈ 32 % > 2.5 %; +12.5 or more (three or four positive)
    # 4·(1/4)³·(3/4) + (1/4)⁴ ≈ 5.1 % > 2.5 %, and +25 alone 0.4 % < 2.5 %
    assert line.split() == ["claude", "−", "gpt4", "Message", "4", "-12.50", "[-25.00,",
                            "12.50]", "2.5", f"{p:.4f}"]


def test_one_ref_keeps_its_report(repo):
    single = run("--repo", str(repo), "--gold-ref", "main", "--pred-ref", "claude", "--json", "-")
    assert single.returncode == 0, single.stderr
    report = json.loads(single.stdout)
    assert "paired_tests" not in report and "refs" not in report
    assert _messages(report) == CLAUDE_MESSAGES


def test_patches_of_several_refs_go_to_one_folder_per_ref(repo, tmp_path):
    out = tmp_path / "patches"
    done = run("--repo", str(repo), "--gold-ref", "main", "--pred-ref", "claude",
               "--pred-ref", "gpt4", "--method", "diff", "--patch", str(out), "--json", "-")
    assert done.returncode == 0, done.stderr
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.patch")) == [
        f"{ref}/{name}.patch" for ref in ("claude", "gpt4") for name in FILES]
    assert "+A -> B : five" in (out / "gpt4" / "f4.puml.patch").read_text(encoding="utf-8")
    assert (out / "claude" / "f4.puml.patch").read_text(encoding="utf-8") == ""
    # the diff method counts the same messages here: one line changed, dropped or added each
    refs = json.loads(done.stdout)["refs"]
    assert _messages(refs["claude"]) == CLAUDE_MESSAGES
    assert _messages(refs["gpt4"]) == GPT4_MESSAGES


def test_models_with_other_files_are_compared_on_the_files_both_scored(repo):
    done = run("--repo", str(repo), "--gold-ref", "main", "--pred-ref", "claude",
               "--pred-ref", "partial", "--json", "-")
    assert done.returncode == 3  # f4 has no prediction in partial, f5 no ground truth
    assert "partial:f4.puml: no prediction" in done.stderr
    assert "partial:f5.puml: no ground truth" in done.stderr
    [message] = [t for t in json.loads(done.stdout)["paired_tests"]["tests"]
                 if t["component"] == "message"]
    # f1–f3 (partial copied the ground truth): claude's rates 1/4, 0, 1/4 against 0, 0, 0
    assert message["n"] == 3
    assert message["mean_difference"] == pytest.approx((1 / 4 + 0 + 1 / 4) / 3)
