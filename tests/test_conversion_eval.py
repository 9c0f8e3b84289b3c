"""`diagbench eval conversion` end to end against the local fake OpenAI-compatible server:
the bundled call flows rendered by PlantUML, canned answers (the bundled predictions
wrapped in chatter), down to the Table 2 numbers, and the report in headless Chromium."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageStat

from diagbench.formats.plantuml import parse_sequence
from tests.browser import flags, loaded_images
from tests.fake_providers import FakeServer

CALLFLOWS = Path(__file__).parent.parent / "examples" / "callflows"
GOLD = sorted((CALLFLOWS / "gold").glob("*.puml"))
NO_SCRIPT = "5g_aka"  # its answer holds no script: scored as an empty prediction
WRAPPERS = [
    "Here is the PlantUML script:\n```plantuml\n{}```\nI hope this helps!",
    "{}",
    "Sure.\n~~~puml\n{}~~~",
    "Draft:\n```\n@startuml\nA -> B : draft\n@enduml\n```\nFinal version:\n```plantuml\n{}```",
]


def _title(path: Path) -> str:
    return parse_sequence(path.read_text())[0].diagram.title


def _answers() -> dict[str, str]:
    """Canned answer by image caption (the gold title, which the paper prompt quotes)."""
    answers = {}
    for k, gold in enumerate(GOLD):
        pred = (CALLFLOWS / "pred" / gold.name).read_text()
        if gold.stem == NO_SCRIPT:
            answers[_title(gold)] = "I am sorry, I cannot read this diagram."
        elif k % 5 == 4:  # cut short before @enduml
            answers[_title(gold)] = "```plantuml\n" + pred.replace("@enduml", "")
        else:
            answers[_title(gold)] = WRAPPERS[k % len(WRAPPERS)].format(pred)
    return answers


def _eval(tmp_path: Path, reply, *args: str) -> subprocess.CompletedProcess:
    with FakeServer(reply=reply) as server:
        env = {**os.environ, "OPENAI_API_KEY": "sk-test",
               "DIAGBENCH_CACHE": str(tmp_path / "cache.sqlite")}
        return subprocess.run(
            [sys.executable, "-m", "diagbench", "eval", "conversion",
             "--model", f"openai:vlm@{server.base_url}", *args],
            env=env, capture_output=True, text=True, timeout=300, check=False)


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("eval")
    answers = _answers()

    def reply(prompt: str) -> str:
        caption = re.search(r'call flow diagram of "(.*?)" according', prompt).group(1)
        return answers[caption]

    out = tmp / "run"
    done = _eval(tmp, reply, "--gold", str(CALLFLOWS / "gold"), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert f"report: {out / 'report.html'}" in done.stdout
    return out


#: Two small pairs (ground truth, prediction) whose Table 2 is worked out by hand below.
SMALL = {
    "one": ("@startuml\ntitle One\nparticipant A\nA -> B : hello\nB --> A : ok\n"
            "note over A : n\n@enduml\n",
            "@startuml\ntitle One\nactor A\nB -> A : hello\nB -> A : okay\n@enduml\n"),
    "two": ("@startuml\ntitle Two\nparticipant A\nparticipant B\nparticipant C\n"
            "A -> B : ping\nB -> C : forward\n@enduml\n",
            "@startuml\ntitle Two\nparticipant A\nparticipant B\nA -> B : ping\n"
            "@enduml\n"),
}
# By hand, from the paper's definitions (§2.2–2.3; both methods agree on these pairs):
# one: participants A, B (B implicit): actor vs participant is no error. "A -> B : hello"
#   drawn as "B -> A : hello": one direction substitution (no node error). "B --> A : ok"
#   as "B -> A : okay": dotted → solid is an edge-type substitution, the label a message
#   substitution. The note is deleted. Nodes: 2 per message, 4, none wrong.
# two: participants A, B, C; C's declaration is missing: one participant deletion.
#   "B -> C : forward" is missing: a deleted message is a direction deletion, two node
#   deletions (its ends) and a message deletion (it has a label); its arrow type is not
#   counted. Gold: 2 messages, 4 nodes.
# Pooled, (gold, insertion, deletion, substitution):
SMALL_TABLE2 = {
    "participant": (2 + 3, 0, 0 + 1, 0),
    "node": (4 + 4, 0, 0 + 2, 0),
    "edge_direction": (2 + 2, 0, 0 + 1, 1 + 0),
    "edge_type": (2 + 2, 0, 0, 1 + 0),
    "message": (2 + 2, 0, 0 + 1, 1 + 0),
    "note": (1 + 0, 0, 1 + 0, 0),
    "group": (0, 0, 0, 0),
    "box": (0, 0, 0, 0),
}


def _small_gold(folder: Path, pairs: dict[str, tuple[str, str]]) -> dict[str, str]:
    """Write the ground truths of `pairs` into `folder`; their predictions by title."""
    folder.mkdir()
    for name, (gold, _) in pairs.items():
        (folder / f"{name}.puml").write_text(gold)
    return {_title(folder / f"{name}.puml"): pred for name, (_, pred) in pairs.items()}


def test_statuses_of_the_canned_answers(run):
    model = json.loads((run / "summary.json").read_text())["models"]["openai:vlm"]
    assert model["conversion"]["statuses"] == {"valid": 11, "invalid": 0, "no_script": 1,
                                               "call_error": 0, "image_error": 0}


def _small_run(tmp_path: Path, pairs: dict[str, tuple[str, str]]) -> Path:
    """Evaluate a model that answers each ground truth of `pairs` with its prediction;
    the run's folder."""
    by_title = _small_gold(tmp_path / "gold", pairs)

    def reply(prompt: str) -> str:
        caption = re.search(r'call flow diagram of "(.*?)" according', prompt).group(1)
        return "Here it is:\n```plantuml\n" + by_title[caption] + "```"

    done = _eval(tmp_path, reply, "--gold", str(tmp_path / "gold"), "--out",
                 str(tmp_path / "run"))
    assert done.returncode == 0, done.stderr
    return tmp_path / "run"


def test_table2_is_worked_out_by_hand(tmp_path):
    _small_run(tmp_path, SMALL)
    model = json.loads((tmp_path / "run" / "summary.json").read_text())["models"]["openai:vlm"]
    for method in ("semantic", "diff"):
        got = model["methods"][method]["components"]
        assert {c: tuple(got[c][k] for k in ("gold", "insertion", "deletion", "substitution"))
                for c in SMALL_TABLE2} == SMALL_TABLE2, method


def test_unanswered_file_counts_every_gold_element_deleted(run):
    rows = [json.loads(line) for line in (run / "scores.jsonl").read_text().splitlines()]
    [row] = [r for r in rows if r["method"] == "semantic" and r["gold"].endswith("5g_aka.puml")]
    assert row["conversion"] == "no_script"
    # 5g_aka by hand: 4 participants, 8 labelled messages (16 nodes), 3 notes. A missing
    # message is a direction, node and message deletion; its arrow type is not counted.
    assert {c: (v["gold"], v["deletion"], v["insertion"] + v["substitution"])
            for c, v in row["components"].items()} == {
        "participant": (4, 4, 0), "node": (16, 16, 0), "edge_direction": (8, 8, 0),
        "edge_type": (8, 0, 0), "message": (8, 8, 0), "note": (3, 3, 0),
        "group": (0, 0, 0), "box": (0, 0, 0)}


def test_planted_errors_of_one_file_are_listed(run):
    rows = [json.loads(line) for line in (run / "scores.jsonl").read_text().splitlines()]
    [row] = [r for r in rows if r["method"] == "semantic" and r["gold"].endswith("eps_attach.puml")]
    # the six errors planted in examples/callflows/pred/eps_attach.puml
    assert len(row["differences"]) == 6
    assert row["total"]["errors"] == 9  # 1 participant + 3 node + 2 direction + 1 type + 2 msg


def test_outputs_per_image(run):
    model_dir = run / "models" / "openai_vlm"
    records = [json.loads(line) for line in
               (model_dir / "conversions.jsonl").read_text().splitlines()]
    assert [r["name"] for r in records] == [g.stem for g in GOLD]
    by_name = {r["name"]: r for r in records}
    assert by_name[NO_SCRIPT]["error"].startswith("no PlantUML in the answer")
    assert not (model_dir / "pred" / f"{NO_SCRIPT}.puml").exists()
    cut = [r for r in records if "@enduml missing: added" in r["extraction"]]
    assert len(cut) == 2 and all(r["valid"] for r in cut)
    for record in records:
        if record["status"] == "converted":
            assert Path(record["script"]).is_file()
            assert Image.open(record["rendered"]).size[0] > 100
            assert record["tokens"] == {"input": 11, "output": 7, "reasoning": 0}
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["served_models"] == {"openai:vlm": ["vlm-served"]}
    assert manifest["samples"] == 12 and len(manifest["prompt_template_hash"]) == 64


@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Debian's chromium")
def test_report_opens_in_chromium_with_every_figure(run, tmp_path):
    page = (run / "report.html").read_text()
    figures = re.findall(r'<img src="(plots/[^"]+)"', page)
    assert len(figures) == 5  # 2 component bars, statuses, 2 length plots (1 model × 2 methods)
    images, broken = loaded_images(run / "report.html", tmp_path / "profile")
    assert images == len(re.findall(r"<img ", page)) > len(figures)
    assert broken == []
    shot = tmp_path / "report.png"
    subprocess.run(["chromium", *flags(tmp_path / "profile"), f"--screenshot={shot}",
                    "--window-size=1280,2400",
                    (run / "report.html").as_uri()], capture_output=True, timeout=120,
                   check=True)
    image = Image.open(shot).convert("L")
    assert image.size == (1280, 2400)
    assert ImageStat.Stat(image).stddev[0] > 20  # tables and plots, not a blank page


#: Four small pairs for the paired test; their message errors by hand: `one`: a label
#: changed (1 of 2), `two`: both labels changed (2 of 2), `three`: a message missing
#: (1 of 2, a deletion), `four`: a label changed (1 of 2).
PAIRED = {
    name: ("@startuml\ntitle " + title + "\nA -> B : " + a + "\nB -> A : " + b + "\n@enduml\n",
           "@startuml\ntitle " + title + "\n" + pred + "@enduml\n")
    for name, title, a, b, pred in [
        ("one", "Paired one", "open", "opened", "A -> B : open\nB -> A : done\n"),
        ("two", "Paired two", "ask", "answer", "A -> B : query\nB -> A : reply\n"),
        ("three", "Paired three", "push", "ack", "A -> B : push\n"),
        ("four", "Paired four", "get", "data", "A -> B : put\nB -> A : data\n"),
    ]}
#: vlm's per-file message error rates (good makes none): (1/2 + 2/2 + 1/2 + 1/2) / 4
PAIRED_MEAN_DIFFERENCE = (0.5 + 1.0 + 0.5 + 0.5) / 4


def test_two_models_are_compared_file_by_file(tmp_path):
    """Model `good` answers the ground truth itself, `vlm` the planted predictions: the
    paired test's mean difference is vlm's mean per-file error rate, every file counts."""
    predictions = _small_gold(tmp_path / "gold", PAIRED)
    golds = {_title(tmp_path / "gold" / f"{n}.puml"): g for n, (g, _) in PAIRED.items()}
    asked = {}

    def reply(prompt: str) -> str:
        title = re.search(r'diagram of "(.*?)" according', prompt).group(1)
        return (golds if asked["model"] == "good" else predictions)[title]

    with FakeServer(reply=reply) as server:
        server.on_body = lambda body: asked.update(model=body["model"])
        env = {**os.environ, "OPENAI_API_KEY": "sk-test",
               "DIAGBENCH_CACHE": str(tmp_path / "cache.sqlite")}
        done = subprocess.run(
            [sys.executable, "-m", "diagbench", "eval", "conversion", "--gold",
             str(tmp_path / "gold"), "--model", f"openai:vlm@{server.base_url}", "--model",
             f"openai:good@{server.base_url}", "--out", str(tmp_path / "run"),
             "--max-connections", "1"], env=env, capture_output=True, text=True, timeout=300,
            check=False)
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["models"]["openai:good"]["methods"]["semantic"]["total"]["errors"] == 0
    [test] = [t for t in summary["paired_tests"]["semantic"] if t["component"] == "message"]
    assert (test["a"], test["b"], test["n"]) == ("openai:vlm", "openai:good", 4)
    assert test["mean_difference"] == pytest.approx(PAIRED_MEAN_DIFFERENCE)
    # every file differs, so the exact two-sided p-value is 2 / 2**4
    assert test["p_value"] == pytest.approx(0.125)
    assert test["ci_low"] <= test["mean_difference"] <= test["ci_high"]
    assert "Paired comparison of models" in (tmp_path / "run" / "report.html").read_text()


#: One pair whose diff-method lines are worked out by hand below (model output with markup).
FIG5 = {"three": ("@startuml\ntitle Three\nparticipant A\nparticipant B\nA -> B : hello\n"
                  "B --> A : ok\nA -> B : bye\n@enduml\n",
                  "@startuml\ntitle Three\nparticipant A\nparticipant B\n"
                  "A -> B : <i>hello</i>\nB -> A : okay\n@enduml\n")}
# git's diff has one change block: removed `A -> B : hello`, `B --> A : ok`, `A -> B : bye`,
# added `A -> B : <i>hello</i>`, `B -> A : okay`. Levenshtein distances: hello → <i>hello</i>
# 7 (insert `<i>`, `</i>`); ok → okay 3 (drop one `-`, add `ay`); bye → okay 6 (swap the
# ends 2, bye → okay 4); bye → <i>hello</i> ≥ 9 (12 characters against 3). Least total:
# hello ↔ <i>hello</i> (7) + ok ↔ okay (3) = 10 < 13 (hello/7 + bye/6); `bye` is unpaired.


def test_report_shows_the_diff_methods_pairs_escaped(tmp_path):
    page = (_small_run(tmp_path, FIG5) / "report.html").read_text()
    cells = "".join(f"<td>{c}</td>" for c in (
        "B --&gt; A : ok", "B -&gt; A : okay", "3", "edge_type substitution, "
        "message substitution"))
    assert f"<tr>{cells}</tr>" in page
    assert ("<tr><td>A -&gt; B : hello</td><td>A -&gt; B : &lt;i&gt;hello&lt;/i&gt;</td>"
            "<td>7</td><td>message substitution</td></tr>") in page
    assert "<tr><td>A -&gt; B : bye</td><td>—</td><td>—</td><td>unpaired: deletion</td></tr>" \
        in page
    assert "<i>hello</i>" not in page  # model output is escaped
