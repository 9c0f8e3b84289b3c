"""The robustness figures of a structure run with twins, worked out by hand: a data set
written here (three diagrams of black squares and six twins of them), asked by the blind
baseline (baseline:synth, which answers 3 to every counting question without looking)
and by a reading model (a real HTTP server on 127.0.0.1 speaking OpenAI's format that
counts the squares in the image it is sent); and the figures of hand-written scores."""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageFilter

from diagbench.benchmarks.asking import Answer
from diagbench.benchmarks.protocol import DataError
from diagbench.benchmarks.structure.records import StructureScore, StructureTask
from diagbench.benchmarks.structure.robustness import robustness
from diagbench.benchmarks.structure.scoring import score_model
from diagbench.benchmarks.twins import TwinFamily
from tests.cli import read_jsonl, read_view, run_cli
from tests.fake_providers import FakeServer

QUESTION = "How many classes are drawn in the diagram?\nAnswer with the number only."
#: A question asked of s2's counterfactual twin only (its original was not asked it).
OTHER_QUESTION = "How many entities are drawn?\nAnswer with the number only."
#: The originals: their squares (the gold of their counting question).
ORIGINALS = {"s0": 3, "s1": 3, "s2": 5}
#: The twins: id, original, family, change, squares.
TWINS = (("s0~cf", "s0", "counterfactual", "a class added", 4),
         ("s1~cf", "s1", "counterfactual", "a class removed", 2),
         ("s2~cf", "s2", "counterfactual", "a class removed", 4),
         ("s0~style", "s0", "style", "blue on grey, in a column", 3),
         ("s2~style", "s2", "style", "blue on grey, in a column", 5),
         ("s1~capture", "s1", "capture", "rotated 3°, blurred", 3))
BLIND = "baseline:synth"


def _draw(count: int, family: str | None) -> Image.Image:
    """`count` squares of 20 px, 20 px apart: black on white in a row (an original, a
    counterfactual), blue on grey in a column (style), rotated and blurred (capture)."""
    column = family == "style"
    image = Image.new("RGB", (200, 240) if column else (240, 120),
                      (225, 225, 225) if column else "white")
    for k in range(count):
        x, y = (90, 20 + 40 * k) if column else (20 + 40 * k, 50)
        image.paste((0, 0, 160) if column else (0, 0, 0), (x, y, x + 20, y + 20))
    if family == "capture":
        image = image.rotate(3, fillcolor="white").filter(ImageFilter.GaussianBlur(1))
    return image


def _sample(ident: str, twin: tuple[str, str, str] | None = None) -> dict:
    row = {"id": ident, "category": "class", "language": "plantuml", "frl": "PlantUML",
           "complexity": "low", "persona": "p", "domain": "e-commerce", "problem": None,
           "description": None, "code": f"sources/{ident}.puml", "fenced": False,
           "kind": "class", "image": f"images/{ident}.png", "width": 240, "height": 120,
           "sha256": "0" * 64, "lines": 1, "chars": 1, "counts": {}, "drawn": None,
           "statistics": {}}
    if twin:
        row |= {"twin_of": twin[0], "twin": {"family": twin[1], "change": twin[2]}}
    return row


def _task(sample: str, gold: int, twin_of: str | None = None,
          original_gold: int | None = None, number: int = 0) -> dict:
    row = {"id": f"{sample}/structural/{number}", "sample": sample, "task": "structural",
           "category": "class", "language": "plantuml", "frl": "PlantUML",
           "image": f"images/{sample}.png", "question": QUESTION if number == 0 else
           OTHER_QUESTION, "gold": gold}
    if twin_of:
        row["twin_of"] = f"{twin_of}/structural/0"
    if original_gold is not None and original_gold != gold:
        row["original_gold"] = original_gold
    return row


def write_twins(data: Path, twins: bool = True) -> Path:
    """The data set: each original and (with `twins`) each twin drawn, with one counting
    question each, paired with its original's (a counterfactual's carries the
    original's gold); s2's counterfactual twin is asked a second question its original
    was not (no pair: only the original's gold)."""
    (data / "images").mkdir(parents=True)
    samples, tasks = [], []
    for ident, count in ORIGINALS.items():
        _draw(count, None).save(data / "images" / f"{ident}.png")
        samples.append(_sample(ident))
        tasks.append(_task(ident, count))
    for ident, original, family, change, count in TWINS if twins else ():
        _draw(count, family).save(data / "images" / f"{ident}.png")
        samples.append(_sample(ident, (original, family, change)))
        tasks.append(_task(ident, count, original, ORIGINALS[original]))
    if twins:
        tasks.append(_task("s2~cf", 4, None, 5, number=1))
    for name, rows in (("samples.jsonl", samples), ("tasks.jsonl", tasks)):
        (data / name).write_text("".join(json.dumps(r) + "\n" for r in rows),
                                 encoding="utf-8")
    return data


def _squares(body: dict) -> int:
    """What the reading model sees: the dark squares of the image it was sent, counted
    as connected regions."""
    import numpy as np
    from scipy import ndimage

    url = next(p["image_url"]["url"] for p in body["messages"][-1]["content"]
               if p["type"] == "image_url")
    image = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("L")
    return int(ndimage.label(np.asarray(image) < 128)[1])


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[Path, str, subprocess.CompletedProcess]:
    """The twins data set asked by the blind baseline and the reading model: (the run,
    the reading model's name, eval's result)."""
    root = tmp_path_factory.mktemp("robustness")
    data = write_twins(root / "data")
    seen: dict[str, dict] = {}
    env = {**os.environ, "OPENAI_API_KEY": "k", "DIAGBENCH_CACHE": str(root / "c.sqlite")}
    with FakeServer(reply=lambda prompt: str(_squares(seen["body"]))) as server:
        server.on_body = lambda body: seen.__setitem__("body", body)  # under its lock
        done = run_cli("eval", "structure", "--data", str(data), "--model", BLIND,
                       "--model", f"openai:reader@{server.base_url}",
                       "--out", str(root / "run"), env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return root / "run", "openai:reader", done


def _by(rows: list[dict], model: str) -> dict[str, dict]:
    return {r["id"]: r for r in rows if r["model"] == model}


def test_the_blind_baseline_answers_a_counterfactual_from_habit(run):
    """The blind baseline answers a counterfactual with the original's answer exactly
    when it was right on the original (the same text, the same answer: 3); the reading
    model answers every twin right, never from habit."""
    folder, reader, _ = run
    rows = read_jsonl(folder / "scores.jsonl")
    blind, reading = _by(rows, BLIND), _by(rows, reader)
    counterfactuals = [r for r in blind.values() if r.get("twin") == "counterfactual"]
    assert len(counterfactuals) == 4
    for r in counterfactuals:
        assert r["predicted"] == 3 and r["correct"] is False
        assert r["habit"] is (blind[r["twin_of"]]["correct"] if "twin_of" in r else False)
    # originals' golds 3, 3, 5 and 5 (the question s2 was not asked)
    assert [r["habit"] for r in counterfactuals] == [True, True, False, False]
    assert [r["original"] for r in counterfactuals] == ["s0", "s1", "s2", "s2"]
    twins = [r for r in reading.values() if r.get("twin")]
    assert len(twins) == 7 and all(r["correct"] for r in twins)
    assert [r.get("habit") for r in twins] == [False, False, False, None, None, None, False]
    assert all(not {"twin", "original", "twin_of", "habit"} & set(r)
               for r in reading.values() if "~" not in r["id"])


def test_the_report_s_figures_by_hand(run):
    """Blind (answers 3): originals s0 3 ✓, s1 3 ✓, s2 5 ✗ → 66.7 %.
    Counterfactual golds 4, 2, 4 and 4 (s2~cf's second question): all ✗ → 0 % of 4;
    pairs (the second question has none) d = 0−1, 0−1, 0−0 = −1, −1, 0 → paired −66.7
    points over 3 pairs (originals of the pairs 66.7 %); clustered SE: residuals −⅓,
    −⅓, ⅔, Σ² = ⅔, SE² = (3/2)·(⅔)/3² = 1/9 → 33.3 points; cluster bootstrap of three
    draws: all three −1 has chance 8/27 > 2.5 % → low end −100, all three 0 has 1/27 =
    3.7 % > 2.5 % → high end 0. Habit: answered 3 on s0~cf and s1~cf (their originals'
    answer), not on s2~cf's two (original 5): 2/4 = 50 %; clusters s0 (1), s1 (1), s2
    (0, 0): all three draws s2 has chance 1/27 → low end 0, none s2 8/27 → high end
    100. Style s0~style 3 ✓, s2~style 5 ✗: 50 %, d = 0, 0 → 0 points. Capture
    s1~capture 3 ✓: 100 %, d = 0.
    Reader: 100 % everywhere, every d = 0, habit 0 % of 4."""
    folder, reader, _ = run
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    blind = summary["models"][BLIND]["robustness"]
    assert (blind["originals"], round(blind["original_accuracy"], 2)) == (3, 66.67)
    cf = blind["families"]["counterfactual"]
    assert (cf["n"], cf["accuracy"], round(cf["original_accuracy"], 2)) == (4, 0.0, 66.67)
    assert cf["difference"]["n"] == 3 and cf["difference"]["clusters"] == 3
    assert cf["difference"]["estimate"] == -66.6667
    assert cf["difference"]["se_clustered"] == 33.3333
    assert cf["difference"]["ci95_clustered"] == [-100.0, 0.0]
    assert (cf["habit"]["n"], cf["habit"]["clusters"], cf["habit"]["estimate"]) == (4, 3, 50.0)
    assert cf["habit"]["ci95_clustered"] == [0.0, 100.0]
    style, capture = blind["families"]["style"], blind["families"]["capture"]
    assert (style["n"], style["accuracy"], style["difference"]["estimate"]) == (2, 50.0, 0.0)
    assert "habit" not in style
    assert (capture["n"], capture["accuracy"], capture["difference"]["estimate"]) == \
        (1, 100.0, 0.0)
    read = summary["models"][reader]["robustness"]
    assert read["original_accuracy"] == 100.0
    for family, n in (("counterfactual", 4), ("style", 2), ("capture", 1)):
        f = read["families"][family]
        assert (f["n"], f["accuracy"], f["difference"]["estimate"]) == (n, 100.0, 0.0)
    assert read["families"]["counterfactual"]["habit"]["estimate"] == 0.0
    # the headline accuracy is the originals' alone (comparable with a run without
    # twins): 3 questions on 3 diagrams, the blind right on s0 and s1: 2/3
    accuracy = summary["models"][BLIND]["intervals"]["accuracy"]
    assert (accuracy["n"], accuracy["clusters"], accuracy["estimate"]) == (3, 3, 66.6667)
    assert summary["models"][BLIND]["accuracy"]["all"] == pytest.approx(200 / 3)


def test_eval_prints_and_the_report_shows_the_figures(run):
    folder, _, done = run
    assert "  twins: accuracy % on the originals 66.7 (n 3)" in done.stdout
    assert ("    counterfactual: accuracy % 0.0 (n 4), paired -66.7 [-100.0 to 0.0] (n 3); "
            "answered with the original's answer % 50.0 [0.0 to 100.0] (n 4)") in done.stdout
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert "Robustness: the same questions on twins of each diagram" in page
    assert "Answered from habit: of the counterfactual questions" in page


def test_the_leaderboard_s_habit_column(run, tmp_path):
    folder, reader, _ = run
    done = run_cli("leaderboard", str(folder), "--format", "json", "--out",
                   str(tmp_path / "board.json"), timeout=300)
    assert done.returncode == 0, done.stderr
    board = json.loads((tmp_path / "board.json").read_text(encoding="utf-8"))
    title = "structure robustness: answered from habit"
    column = next(c for c in board["columns"] if c["title"] == title)
    assert column["higher_is_better"] is False
    cells = {r["model"]: r["cells"][title] for r in board["rows"]}
    assert (cells[BLIND]["value"], cells[BLIND]["n"]) == (50.0, 4)
    assert cells[BLIND]["clustered"] == [0.0, 100.0]
    assert (cells[reader]["value"], cells[reader]["n"]) == (0.0, 4)


def test_view_shows_a_diagram_beside_its_twins(run, tmp_path):
    """The original's question shows the same question on its twins: s0 has a
    counterfactual and a style twin, each named with its change, its gold and the
    model's answer; the counterfactual's question shows the original and the other
    twin; a question the original was not asked shows the original's image with the
    original's answer."""
    folder, _, _ = run
    done = run_cli("view", str(folder), "--out", str(tmp_path / "page"), timeout=300)
    assert done.returncode == 0, done.stderr
    view = read_view(tmp_path / "page")
    at = {name: k for k, name in enumerate(view["fields"])}
    rows = {(s[at["model"]], s[at["id"]]): s for s in view["samples"]}
    original = rows[BLIND, "s0/structural/0"][at["beside"]]
    assert [(caption, lines) for caption, _, lines in original] == [
        ("counterfactual twin: a class added",
         ["gold: 4", "read from the answer: 3 (wrong)",
          "the original's answer (answered from habit)"]),
        ("style twin: blue on grey, in a column",
         ["gold: 3", "read from the answer: 3 (right)"])]
    assert all((tmp_path / "page" / image).is_file() for _, image, _ in original)
    twin = rows[BLIND, "s0~cf/structural/0"]
    assert [caption for caption, _, _ in twin[at["beside"]]] == [
        "the original", "style twin: blue on grey, in a column"]
    assert twin[at["parts"]]["twin"] == "counterfactual twin: a class added"
    assert twin[at["parts"]]["answered from habit"] is True
    assert rows[BLIND, "s1/structural/0"][at["beside"]][1][0] == \
        "capture twin: rotated 3°, blurred"
    alone = rows[BLIND, "s2~cf/structural/1"][at["beside"]]  # its original not asked it
    assert [(caption, lines) for caption, _, lines in alone] == [
        ("the original (not asked this question)", ["gold there: 5"])]
    assert (tmp_path / "page" / alone[0][1]).is_file()


def test_a_run_without_twins_has_no_robustness(tmp_path):
    """No twin: no score carries a twin's fields, the summary no robustness, the
    leaderboard no robustness column, eval prints no twins line."""
    data = write_twins(tmp_path / "data", twins=False)
    env = {**os.environ, "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}
    done = run_cli("eval", "structure", "--data", str(data), "--model", BLIND,
                   "--out", str(tmp_path / "run"), env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "twins: accuracy" not in done.stdout
    assert all(not {"twin", "original", "twin_of", "habit"} & set(r)
               for r in read_jsonl(tmp_path / "run" / "scores.jsonl"))
    summary = json.loads((tmp_path / "run" / "summary.json").read_text(encoding="utf-8"))
    assert "robustness" not in summary["models"][BLIND]
    board = run_cli("leaderboard", str(tmp_path / "run"), "--format", "md", timeout=300)
    assert board.returncode == 0 and "habit" not in board.stdout
    assert "Robustness" not in (tmp_path / "run" / "report.html").read_text(encoding="utf-8")


def _score(ident: str, correct: bool, twin: TwinFamily | None = None,
           twin_of: str | None = None,
           habit: bool | None = None, task: str = "structural",
           status: str = "ok") -> StructureScore:
    original = ident.split("~")[0] if twin else None  # A~cf/… is a twin of A
    return StructureScore("m", ident, task, "class", "plantuml", 3, status, correct=correct,
                          twin=twin, original=original, twin_of=twin_of, habit=habit)


def test_robustness_of_hand_written_scores():
    """Diagram A asked a1 ✓ and a2 ✗, B asked b1 ✓, C's question c1 not asked (3
    originals, 66.7 %). Counterfactual twins: a1' ✗ answered with a1's answer (habit),
    a2' ✓ (its answer unchanged: no habit figure), b1' a failed call (✗, not habit), c1'
    ✓ (its original not asked: no pair); an image-to-code twin task is no question.
    Counterfactual accuracy 2/4 = 50 %; pairs a1'−a1 = −1, a2'−a2 = +1, b1'−b1 = −1:
    −⅓ → −33.3 points, originals of the pairs 2/3; clustered by A (d −1, +1) and B
    (d −1): residual sums ⅔ and −⅔, SE² = (2/1)·(8/9)/3² = 16/81 → 44.4 points; the
    bootstrap draws AA (mean 0), AB or BA (−⅓), BB (−1) with chances ¼, ½, ¼: the
    interval is [−100, 0]. Habit over a1', b1', c1': 1/3 = 33.3 %. Style twin a1'' ✓
    of a1 ✓: 100 %, d 0, no habit figure. No capture twin: no capture figures."""
    rows = [_score("A/structural/0", True), _score("A/structural/1", False),
            _score("B/structural/0", True),
            _score("A~cf/structural/0", False, "counterfactual", "A/structural/0", True),
            _score("A~cf/structural/1", True, "counterfactual", "A/structural/1"),
            _score("B~cf/structural/0", False, "counterfactual", "B/structural/0", False,
                   status="call_error"),
            _score("C~cf/structural/0", True, "counterfactual", "C/structural/0", False),
            _score("A~cf/image_to_code/0", False, "counterfactual",
                   "A/image_to_code/0", task="image_to_code"),
            _score("A~style/structural/0", True, "style", "A/structural/0")]
    figures = robustness(rows)
    assert figures is not None
    assert (figures.originals, round(figures.original_accuracy or 0, 2)) == (3, 66.67)
    assert list(figures.families) == ["counterfactual", "style"]
    cf = figures.families["counterfactual"]
    assert (cf.n, cf.accuracy, round(cf.original_accuracy or 0, 2)) == (4, 50.0, 66.67)
    assert (cf.difference["n"], cf.difference["clusters"]) == (3, 2)
    assert cf.difference["estimate"] == -33.3333
    assert cf.difference["se_clustered"] == 44.4444
    assert cf.difference["ci95_clustered"] == [-100.0, 0.0]
    assert cf.habit is not None
    assert (cf.habit["n"], cf.habit["clusters"], cf.habit["estimate"]) == (3, 3, 33.3333)
    style = figures.families["style"]
    assert (style.n, style.accuracy, style.difference["estimate"], style.habit) == \
        (1, 100.0, 0.0, None)
    assert robustness(rows[:3]) is None


def test_a_twin_task_without_its_twin_sample_is_refused(tmp_path):
    """A task naming an original's task (twin_of) and gold whose sample samples.jsonl
    does not hold as a twin is a data error naming the task and the sample."""
    data = write_twins(tmp_path / "data", twins=False)
    task = StructureTask.from_json(_task("s9", 4, "s0", 3))
    with pytest.raises(DataError, match=r"task s9/structural/0 is a twin's .* its "
                                        r"sample s9 is not in samples.jsonl"):
        score_model("m", [task], {task.id: Answer(task.id, "ok", "4")}, data)
