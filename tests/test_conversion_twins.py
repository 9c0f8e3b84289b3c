"""`eval conversion --twins`: twins of two bundled call flows drawn by PlantUML, converted
by baseline:ocr (which reads the image) and by a model that answers from the caption
alone (a real HTTP server on 127.0.0.1 speaking OpenAI's format that answers every image
titled T with the ground truth titled T: an original and its twins share their title);
the edits themselves; and the robustness figures of hand-written scores."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from diagbench.benchmarks.conversion.records import Conversion, ConversionScore
from diagbench.benchmarks.conversion.robustness import from_habit, robustness
from diagbench.benchmarks.conversion.twins import counterfactual, message_edits
from diagbench.benchmarks.leaderboard import leaderboard
from diagbench.benchmarks.twins import Twin, TwinFamily
from diagbench.compare.counts import Comparison, ComponentCounts
from diagbench.compare.pair import Pair, compare_scripts
from diagbench.compare.report import FileResult
from diagbench.formats.plantuml import parse_sequence
from tests.cli import read_view
from tests.fake_providers import FakeServer

GOLD = Path(__file__).parent.parent / "examples" / "callflows" / "gold"
NAMES = ("sms_over_nas", "5g_aka")  # the two shortest call flows
OCR = "baseline:ocr"
BLIND = "openai:blind"


def _eval(tmp: Path, *args: str, models: tuple[str, ...] = (OCR,)) -> subprocess.CompletedProcess:
    """`eval conversion` of `args` with `models` (BLIND: the server answering from the
    caption alone) over the two call flows copied to tmp/gold."""
    titles = {parse_sequence(GOLD.joinpath(f"{n}.puml").read_text())[0].diagram.title:
              GOLD.joinpath(f"{n}.puml").read_text() for n in NAMES}

    def reply(prompt: str) -> str:
        title = re.search(r'diagram of "(.*?)" according', prompt).group(1)
        return "```plantuml\n" + titles[title] + "```"

    gold = tmp / "gold"
    if not gold.is_dir():
        gold.mkdir(parents=True)
        for n in NAMES:
            (gold / f"{n}.puml").write_text((GOLD / f"{n}.puml").read_text())
    with FakeServer(reply=reply) as server:
        asked = [a for m in models for a in ("--model", m if m != BLIND
                                             else f"{BLIND}@{server.base_url}")]
        env = {**os.environ, "OPENAI_API_KEY": "sk-test",
               "DIAGBENCH_CACHE": str(tmp / "cache.sqlite")}
        return subprocess.run([sys.executable, "-m", "diagbench", "eval", "conversion",
                               "--gold", str(gold), *asked, *args], env=env,
                              capture_output=True, text=True, timeout=600, check=False)


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    tmp = tmp_path_factory.mktemp("twins")
    # one call at a time: the offline baseline answers one image at a time, and calls
    # queued behind it would count their wait against the call's time-out
    done = _eval(tmp, "--twins", "counterfactual,style,capture", "--max-connections", "1",
                 "--out", str(tmp / "run"), models=(OCR, BLIND))
    assert done.returncode == 0, done.stderr
    return tmp / "run", done


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _conversions(run: Path, model: str = "openai_blind") -> dict[str, dict]:
    return {r["name"]: r for r in _lines(run / "models" / model / "conversions.jsonl")}


def test_each_counterfactual_s_gold_differs_from_its_original_s(run):
    """The twin's ground truth is the edited script, written in the run, read as another
    diagram (one participant renamed), and drawn by PlantUML."""
    folder, _ = run
    for name in NAMES:
        original = (GOLD / f"{name}.puml").read_text()
        edited = (folder / "gold" / f"{name}~counterfactual.puml").read_text()
        before, after = parse_sequence(original)[0].diagram, parse_sequence(edited)[0].diagram
        names = {p.name for p in before.participants} ^ {p.name for p in after.participants}
        assert len(names) == 2 and any(n.endswith(" x") for n in names)  # one renamed
        assert len(after.messages) == len(before.messages)
        assert compare_scripts(original, edited).errors == 1
        with Image.open(folder / "gold" / f"{name}~counterfactual.png") as image:
            assert image.format == "PNG" and image.width > 100
    records = _conversions(folder)
    twin = records[f"{NAMES[0]}~counterfactual"]
    assert twin["twin_of"] == NAMES[0] and twin["twin"]["family"] == "counterfactual"
    assert "participant substitution" in twin["twin"]["change"]


def test_each_style_twin_has_its_original_s_gold_drawn_in_a_style(run):
    """Same ground truth (the original file), another drawing; a capture twin is the
    original's image as a JPEG."""
    folder, _ = run
    scores = [r for r in _lines(folder / "scores.jsonl")
              if r["model"] == BLIND and r["method"] == "semantic"]
    gold = {Path(r["gold"]).name: r for r in scores}
    for name in NAMES:
        style = next(r for r in scores if r.get("twin") == "style" and r["twin_of"] == name)
        assert style["gold"] == str(folder.parent / "gold" / f"{name}.puml")
        drawn = (folder / "gold" / f"{name}~style.png").read_bytes()
        assert drawn != (folder / "gold" / f"{name}.png").read_bytes()
        with Image.open(folder / "gold" / f"{name}~capture.jpg") as image:
            assert image.format == "JPEG"
    assert f"{NAMES[0]}~counterfactual.puml" in gold
    manifest = json.loads((folder / "manifest.json").read_text())
    assert {f: t["made"] for f, t in manifest["twins"].items()} == {
        "counterfactual": 2, "style": 2, "capture": 2}
    assert manifest["samples"] == 2
    assert re.search(r"drawn in style [\w-]+", _conversions(folder)[f"{NAMES[1]}~style"]
                     ["twin"]["change"])


def test_the_blind_model_converts_counterfactuals_from_habit(run):
    """Answering the original's script to every twin: style and capture twins score as
    their originals (1 each, paired difference 0); a counterfactual scores 1 − 1/N (one
    participant substituted out of its N ground-truth elements) and every one is closer
    to the original's ground truth: a habit share of 100 %."""
    folder, done = run
    summary = json.loads((folder / "summary.json").read_text())["models"][BLIND]
    figures = summary["robustness"]
    assert (figures["originals"], figures["original_accuracy"]) == (2, 100.0)
    elements = {r["twin_of"]: sum(c["gold"] for c in r["components"].values())
                for r in _lines(folder / "scores.jsonl")
                if r["model"] == BLIND and r["method"] == "semantic"
                and r.get("twin") == "counterfactual"}
    cf = figures["families"]["counterfactual"]
    expected = 100 * sum(-1 / n for n in elements.values()) / 2
    assert cf["difference"]["estimate"] == pytest.approx(expected, abs=1e-4)  # 4 places
    assert cf["accuracy"] == pytest.approx(100 + expected, abs=1e-4)
    assert (cf["habit"]["estimate"], cf["habit"]["n"]) == (100.0, 2)
    for family in ("style", "capture"):
        assert figures["families"][family]["accuracy"] == 100.0
        assert figures["families"][family]["difference"]["estimate"] == 0.0
    assert all(r["habit"] is True for r in _lines(folder / "scores.jsonl")
               if r["model"] == BLIND and r.get("twin") == "counterfactual"
               and r["method"] == "semantic")
    assert (f"    counterfactual: score (1 − semantic error rate) % {100 + expected:.1f} "
            f"(n 2), paired {expected:.1f}") in done.stdout


def test_the_ocr_baseline_reads_the_counterfactual(run):
    """baseline:ocr reads the renamed participant from the picture: none of its
    counterfactual conversions is closer to the original's ground truth."""
    folder, _ = run
    cf = json.loads((folder / "summary.json").read_text())["models"][OCR]["robustness"][
        "families"]["counterfactual"]
    assert (cf["habit"]["estimate"], cf["habit"]["n"]) == (0.0, 2)
    records = _conversions(folder, "baseline_ocr")
    assert [records[f"{n}~counterfactual"]["status"] for n in NAMES] == ["converted"] * 2


def test_headlines_table2_and_report_are_the_originals(run, tmp_path):
    """Table 2, the headline figures and the per-file lines are the originals' only: the
    blind model's are those of an eval without twins, whose manifest, scores and summary
    name no twin; the report adds the robustness table; the leaderboard its column."""
    folder, _ = run
    done = _eval(tmp_path, "--out", str(tmp_path / "plain"), models=(BLIND,))
    assert done.returncode == 0, done.stderr
    plain = tmp_path / "plain"
    manifest = json.loads((plain / "manifest.json").read_text())
    assert "twins" not in manifest and "twins" not in manifest["options"]
    with_twins = json.loads((folder / "summary.json").read_text())["models"][BLIND]
    without = json.loads((plain / "summary.json").read_text())["models"][BLIND]
    assert "robustness" not in without and "twin_conversion" not in without
    for key in ("methods", "intervals"):
        assert with_twins[key] == without[key]
    for counts in (with_twins["conversion"], without["conversion"]):
        del counts["mean_latency_s"]  # a timing
    assert with_twins["conversion"] == without["conversion"]
    def originals(run_dir: Path) -> list[dict]:
        return [{k: v for k, v in r.items() if k not in ("gold", "pred")}  # paths
                for r in _lines(run_dir / "scores.jsonl")
                if r["model"] == BLIND and "twin" not in r]

    assert originals(folder) == originals(plain) and len(originals(plain)) == 4
    assert "twins:" not in done.stdout
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert "Robustness: the same questions on twins of each diagram" in page
    assert "Robustness" not in (plain / "report.html").read_text(encoding="utf-8")
    board = leaderboard([folder, plain])
    column = "conversion robustness: answered from habit"
    assert [c.higher_is_better for c in board.columns if c.title == column] == [False]
    assert (board.rows[BLIND][column].value, board.rows[OCR][column].value) == (100.0, 0.0)
    assert board.rows[BLIND][column].n == 2


def test_view_shows_an_image_beside_its_twins(run, tmp_path):
    folder, _ = run
    done = subprocess.run([sys.executable, "-m", "diagbench", "view", str(folder), "--out",
                           str(tmp_path / "page")], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    view = read_view(tmp_path / "page")
    at = {name: k for k, name in enumerate(view["fields"])}
    rows = {(s[at["model"]], s[at["id"]], s[at["task"]]): s for s in view["samples"]}
    original = rows[BLIND, NAMES[0], "semantic"][at["beside"]]
    assert [caption.split(":")[0] for caption, _, _ in original] == [
        "counterfactual twin", "style twin", "capture twin"]
    lines = original[0][2]
    assert lines[0] == "its ground truth: the edited script"
    assert lines[1].startswith("1 errors of ") and lines[1].endswith(" ground-truth elements")
    assert lines[2] == "closer to the original's ground truth (from habit)"
    assert all((tmp_path / "page" / image).is_file() for _, image, _ in original)
    twin = rows[BLIND, f"{NAMES[0]}~counterfactual", "semantic"]
    assert [c.split(":")[0] for c, _, _ in twin[at["beside"]]] == [
        "the original", "style twin", "capture twin"]
    assert twin[at["parts"]]["closer to the original's ground truth (from habit)"] is True


def test_images_given_allow_capture_twins_only(run, tmp_path):
    """With --images (the user's own images) the ground truth is not drawn again: a
    usage error (exit 2) naming the families that cannot be made; capture twins are
    made from the images given."""
    folder, _ = run
    images = tmp_path / "images"
    images.mkdir()
    done = _eval(tmp_path, "--images", str(images), "--twins", "capture,style",
                 "--out", str(tmp_path / "run"))
    assert done.returncode == 2
    assert "--twins style draws the ground truth again: with --images" in done.stderr
    assert "Traceback" not in done.stderr
    for name in NAMES:
        (images / f"{name}.png").write_bytes((folder / "gold" / f"{name}.png").read_bytes())
    done = _eval(tmp_path, "--images", str(images), "--twins", "capture",
                 "--out", str(tmp_path / "run"), models=(BLIND,))
    assert done.returncode == 0, done.stderr
    records = _conversions(tmp_path / "run")
    assert sorted(records) == sorted([*NAMES, *(f"{n}~capture" for n in NAMES)])
    assert records[f"{NAMES[0]}~capture"]["image"] == str(
        tmp_path / "run" / "gold" / f"{NAMES[0]}~capture.jpg")


SCRIPT = "@startuml\nparticipant A\nparticipant B\nA -> B : hello\nB --> A : ok\n@enduml\n"


def test_each_message_edit_changes_an_element():
    """Reversed, relabelled, left out: each read back as another diagram."""
    edits = message_edits(SCRIPT, random.Random(3))
    assert [said.split(") ")[1].split()[0] for _, said in edits] == [
        "reversed", "relabelled", "left"]
    before = parse_sequence(SCRIPT)[0].diagram.messages
    reversed_, relabelled, removed = (parse_sequence(e)[0].diagram.messages for e, _ in edits)
    k = 0 if "message 1" in edits[0][1] else 1
    assert (reversed_[k].sender, reversed_[k].receiver) == (before[k].receiver,
                                                            before[k].sender)
    assert relabelled[k].label == "Zorblat Quexil"
    assert len(removed) == 1 and removed[0].label == before[1 - k].label
    assert all(compare_scripts(SCRIPT, e).errors for e, _ in edits)
    assert message_edits("@startuml\nparticipant A\n@enduml\n", random.Random(0)) == []


def test_a_counterfactual_is_plantuml_s_edit_first():
    edited, change = counterfactual(SCRIPT, random.Random(0))
    assert change.startswith("PlantUML's edit: participant")
    assert compare_scripts(SCRIPT, edited).errors == 1


def _record(name: str, status: str = "converted", script: Path | None = None,
            family: TwinFamily | None = None) -> Conversion:
    return Conversion(name, f"{name}.png", None, status,  # type: ignore[arg-type]
                      script=str(script) if script else None,
                      twin_of=name.split("~")[0] if family else None,
                      twin=Twin(family, "…") if family else None)


def test_from_habit_by_hand(tmp_path):
    """The twin's ground truth has A → B reversed. A script equal to the original's is
    closer to it (0 errors against 1: habit); one equal to the twin's is not; an empty
    one is as far from both (every element deleted: not habit); a failed call is not;
    an original or a style twin has no habit."""
    original = tmp_path / "g.puml"
    original.write_text(SCRIPT)
    twin = SCRIPT.replace("A -> B : hello", "B -> A : hello")

    def habit(pred: str | None, status: str = "converted",
              family: TwinFamily = "counterfactual") -> bool | None:
        script = None
        if pred is not None:
            script = tmp_path / "p.puml"
            script.write_text(pred)
        result = FileResult(Pair("g~counterfactual", "t", None), None if status ==
                            "call_error" else compare_scripts(twin, pred or ""))
        return from_habit(_record("g~counterfactual", status, script, family), result,
                          original)

    assert habit(SCRIPT) is True
    assert habit(twin) is False
    assert habit(None, "no_script") is False
    assert habit(None, "call_error") is False
    assert habit(SCRIPT, family="style") is None
    assert from_habit(_record("g"), FileResult(Pair("g", "t", None), None), original) is None


def _score(name: str, gold: int, errors: int, family: TwinFamily | None = None,
           habit: bool | None = None, status: str = "converted",
           method: str = "semantic") -> ConversionScore:
    comparison = None if status == "call_error" else Comparison(
        {"node": ComponentCounts(gold=gold, substitution=errors)})
    return ConversionScore("m", method, _record(name, status, None, family),  # type: ignore[arg-type]
                           FileResult(Pair(name, "g", None), comparison), habit)


def test_robustness_of_hand_written_scores():
    """A: 2 errors of 10 (0.8); B: none of 20 (1.0). A's counterfactual 3 of 10 (0.7,
    from habit), B's 25 of 20 (clamped to 0, not from habit); A's style twin a failed
    call (0); B's capture 5 of 20 (0.75). The diff method's scores do not count.
    Originals 90 %; counterfactual 35 %, paired (−0.1 − 1.0)/2 = −55 points, habit 1 of
    2 = 50 %; style 0 %, paired −80; capture 75 %, paired −25."""
    rows = [_score("A", 10, 2), _score("B", 20, 0),
            _score("A~counterfactual", 10, 3, "counterfactual", True),
            _score("B~counterfactual", 20, 25, "counterfactual", False),
            _score("A~style", 10, 0, "style", status="call_error"),
            _score("B~capture", 20, 5, "capture"),
            _score("A", 10, 9, method="diff"), _score("B~capture", 20, 0, "capture",
                                                      method="diff")]
    figures = robustness(rows)
    assert figures is not None
    assert (figures.originals, figures.original_accuracy) == (2, pytest.approx(90.0))
    cf = figures.families["counterfactual"]
    assert (cf.n, cf.accuracy, cf.original_accuracy) == (2, pytest.approx(35.0),
                                                         pytest.approx(90.0))
    assert cf.difference["estimate"] == pytest.approx(-55.0)
    assert cf.habit is not None and (cf.habit["estimate"], cf.habit["n"]) == (50.0, 2)
    style, capture = figures.families["style"], figures.families["capture"]
    assert (style.accuracy, style.difference["estimate"]) == (0.0, pytest.approx(-80.0))
    assert (capture.accuracy, capture.difference["estimate"]) == (pytest.approx(75.0),
                                                                  pytest.approx(-25.0))
    assert style.habit is None
    assert robustness([_score("A", 10, 2)]) is None
