"""Twins of the prior-bias instances (`build prior-bias --twins`): a small seeded build
(one instance in each of the 20 cells, one scale) with every family, read back from its
own files; the offline baselines' signature, worked out by hand from the build's cells;
the robustness figures of hand-written scores; and a build without twins unchanged."""

from __future__ import annotations

import json
import os
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from diagbench.benchmarks.asking import Answer
from diagbench.benchmarks.prior_bias.build import build_benchmark
from diagbench.benchmarks.prior_bias.generate import CONDITIONS, Diagram, uniform
from diagbench.benchmarks.prior_bias.records import Item, PriorBiasScore
from diagbench.benchmarks.prior_bias.scoring import score, summarize
from diagbench.benchmarks.prior_bias.twins import SAME_ANSWER, make_twins
from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS, load_vocabulary
from diagbench.benchmarks.twins import FAMILIES, Twin
from diagbench.diagram.classes import ClassDiagram, Relation, UmlClass
from diagbench.languages.plantuml import STYLES
from diagbench.render.plantuml_pipe import PlantUMLEngine
from tests.class_view import parse_class_diagram
from tests.cli import read_view, run_cli

SEED = 1  # a seed whose build fills all 20 cells with --per-cell 1
ORIGINALS = len(CONDITIONS) * len(RELATIONS)  # --per-cell 1 fills every cell


@pytest.fixture(scope="module")
def engine():
    warm = PlantUMLEngine(jobs=2)  # one warm engine for every build of the module
    yield warm
    warm.close()


@pytest.fixture(scope="module")
def built(engine, tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("pbt") / "data"
    info = build_benchmark(out, load_vocabulary(), uniform(1), SEED, engine, (1.0,),
                           twins=FAMILIES)
    return out, info


def _manifest(root: Path) -> list[dict]:
    return [json.loads(line) for line in (root / "manifest.jsonl").read_text().splitlines()]


def _families(root: Path) -> dict[str, list[tuple[dict, dict]]]:
    """Each family's (twin, original) rows."""
    rows = _manifest(root)
    by_id = {r["id"]: r for r in rows}
    out: dict[str, list[tuple[dict, dict]]] = {}
    for r in rows:
        if "twin" in r:
            out.setdefault(r["twin"]["family"], []).append((r, by_id[r["twin_of"]]))
    return out


def test_every_instance_has_a_twin_of_each_family_counted_in_build_json(built):
    out, info = built
    rows = _manifest(out)
    originals = [r for r in rows if "twin" not in r]
    assert len(originals) == ORIGINALS == info["instances"]
    assert all("twin_of" not in r for r in originals)
    assert [r["id"] for r in rows[:ORIGINALS]] == [r["id"] for r in originals]
    twins = _families(out)
    assert {f: len(pairs) for f, pairs in twins.items()} == dict.fromkeys(FAMILIES, ORIGINALS)
    assert info["twin_instances"] == 3 * ORIGINALS
    for family in FAMILIES:
        record = info["twins"][family]
        assert (record["made"], record["dropped"]) == (ORIGINALS, {})
        assert record["conditions"] == {c: {"made": 4} for c in CONDITIONS}
        for twin, original in twins[family]:
            assert twin["id"] == f"{original['id']}~{family}"
            assert (twin["relation"], twin["condition"], twin["query"], twin["classes"]) == \
                (original["relation"], original["condition"], original["query"],
                 original["classes"])
            assert twin["matched"] is None and twin["twin"]["change"]
            image = twin["images"]["1x"]
            assert (out / image["path"]).is_file()
            assert image["sha256"] != original["images"]["1x"]["sha256"]


def test_every_counterfactual_flips_the_gold_read_from_its_own_source(built):
    """The twin's own PlantUML, read again: the queried pair linked the other way, the
    gold flipped; the source differs from its original's in that arrow only (the same
    class written first: the same layout)."""
    out, _ = built
    for twin, original in _families(out)["counterfactual"]:
        own = (out / twin["source"]).read_text()
        before = (out / original["source"]).read_text()
        diagram = parse_class_diagram(own)
        assert diagram.names == original["classes"]
        assert diagram.holds(twin["relation"], *twin["query"]) == twin["gold"]
        assert twin["gold"] is not original["gold"]
        changed = [(a, b) for a, b in zip(before.splitlines(), own.splitlines(), strict=True)
                   if a != b]
        assert len(changed) == 1
        (a, b), = changed
        assert a.split()[0] == b.split()[0] and a.split()[2] == b.split()[2]
        assert set(twin["query"]) == {a.split()[0], a.split()[2]}
        change = twin["twin"]["change"]
        assert f"gold {original['gold']} → {twin['gold']}" in change
        # paper 002's variants swapped: the conform arrow now contradicts the names, a
        # conflicting one agrees with them, a prior-free one has no prior
        assert change.endswith({"prior-conform": "now against what the names suggest",
                                "prior-free": f"{twin['gold']}"}.get(
            twin["condition"], "now as the names suggest")), change


def test_every_style_twin_keeps_the_gold_and_is_drawn(built):
    """The twin's source is its original's with one PlantUML style's statements; read
    again, the same gold; its own image, drawn in that style."""
    out, _ = built
    seen = Counter()
    for twin, original in _families(out)["style"]:
        own = (out / twin["source"]).read_text().splitlines()
        before = (out / original["source"]).read_text().splitlines()
        style = twin["twin"]["change"].removeprefix("drawn in style ")
        assert own == before[:1] + list(STYLES[style]) + before[1:]
        assert parse_class_diagram("\n".join(own)).holds(twin["relation"], *twin["query"]) \
            == twin["gold"] == original["gold"]
        assert twin["images"]["1x"]["path"] == f"images/{twin['diagram']}@1x.png"
        seen[style] += 1
    assert len(seen) > 1  # a seeded choice among the styles, not always the same


def test_every_capture_twin_is_its_original_scanned(built):
    from PIL import Image

    out, _ = built
    for twin, original in _families(out)["capture"]:
        assert (twin["source"], twin["gold"]) == (original["source"], original["gold"])
        with Image.open(out / twin["images"]["1x"]["path"]) as image:
            assert image.format == "JPEG"
            assert image.width >= original["images"]["1x"]["width"]
        assert twin["twin"]["change"].startswith("rotated ")


def test_twins_change_no_file_of_the_originals(built, engine, tmp_path):
    """A build without twins writes what the build with twins writes of its originals,
    byte for byte (its manifest's first lines, its images and diagrams, build.json
    without the twins' keys)."""
    out, info = built
    plain = tmp_path / "plain"
    alone = build_benchmark(plain, load_vocabulary(), uniform(1), SEED, engine, (1.0,))
    assert "twins" not in alone
    assert alone == {k: v for k, v in info.items() if k not in ("twins", "twin_instances")}
    lines = (out / "manifest.jsonl").read_bytes().splitlines(keepends=True)
    assert b"".join(lines[:ORIGINALS]) == (plain / "manifest.jsonl").read_bytes()
    for folder in ("images", "diagrams"):
        for path in (plain / folder).iterdir():
            assert (out / folder / path.name).read_bytes() == path.read_bytes()
    extra = {p.name for p in (out / "images").iterdir()} - \
        {p.name for p in (plain / "images").iterdir()}
    assert all("~" in name for name in extra) and len(extra) == 3 * ORIGINALS


def test_an_edit_that_leaves_the_gold_is_dropped_and_counted(engine, tmp_path):
    """Dog and Animal inheriting from each other: asked whether Animal inherits from
    Dog, reversing the first arrow (Dog → Animal) leaves Animal → Dog drawn twice — the
    same answer, dropped; asked the other way, the answer flips and the twin is made."""
    from functools import partial

    from diagbench.benchmarks.prior_bias import build

    edges = [Relation("inheritance", "Dog", "Animal"), Relation("inheritance", "Animal", "Dog")]
    diagram = Diagram("inh-prior-conform-00001",
                      ClassDiagram([UmlClass("Dog"), UmlClass("Animal")], edges),
                      {frozenset(("Dog", "Animal")): "Dog"})
    (tmp_path / "diagrams").mkdir()

    def item(k: int, query: tuple[str, str]) -> Item:
        return Item(f"{diagram.id}-q{k}", diagram.id, "inheritance", "prior-conform",
                    ("Dog", "Animal"), query, True, source=f"diagrams/{diagram.id}.puml")

    items = [item(0, ("Animal", "Dog")), item(1, ("Dog", "Animal"))]
    draw = partial(build._render, tmp_path, engine=engine, scales=(1.0,), bars=build.no_bars)
    made, info = make_twins(tmp_path, items, {diagram.id: diagram}, load_vocabulary(),
                            ["counterfactual"], 0, engine, draw)
    assert [(t.id, t.gold) for t in made] == [(f"{diagram.id}-q1~counterfactual", False)]
    assert (info["counterfactual"].made, info["counterfactual"].dropped) == \
        (1, {SAME_ANSWER: 1})
    assert info["counterfactual"].conditions["prior-conform"] == {"made": 1, SAME_ANSWER: 1}
    assert made[0].diagram == f"{diagram.id}-q0~counterfactual"  # the edge's first asker
    assert (tmp_path / made[0].images["1x"].path).is_file()


@pytest.fixture(scope="module")
def run(built, tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """Both baselines asked every original (one of every cell) and its twins."""
    out, _ = built
    folder = tmp_path_factory.mktemp("pbt-run")
    done = run_cli("eval", "prior-bias", "--data", str(out), "--model", "baseline:prior",
                   "--model", "baseline:vision-uml", "--out",
                   str(folder / "run"), env={**os.environ,
                                             "DIAGBENCH_CACHE": str(folder / "c.sqlite")})
    assert done.returncode == 0, done.stderr
    return folder / "run", done


def test_the_prior_baseline_answers_counterfactuals_from_habit(run):
    """One original of every cell. The prior baseline answers what the names suggest:
    right on the 4 prior-conform originals only (20 %). A counterfactual flips the
    gold, not the names: its answer is still the prior, wrong on the 4 prior-conform
    twins (the original's answer: from habit), right on the 12 conflict twins (their
    arrow now agrees with the names), Unknown (wrong, not habit) on the 4 prior-free
    ones — 60 %, paired (12 − 4) / 20 = +40 points, habit 4 / 20 = 20 %: its accuracy
    on the originals. Style and capture twins change nothing it reads: 20 %, 0 points."""
    folder, done = run
    summary = json.loads((folder / "summary.json").read_text())["models"]
    prior = summary["baseline:prior"]["robustness"]
    assert (prior["originals"], prior["original_accuracy"]) == (20, 20.0)
    cf = prior["families"]["counterfactual"]
    assert (cf["n"], cf["accuracy"], cf["original_accuracy"]) == (20, 60.0, 20.0)
    assert (cf["difference"]["n"], cf["difference"]["estimate"]) == (20, 40.0)
    assert (cf["habit"]["n"], cf["habit"]["estimate"]) == (20, 20.0)
    assert cf["habit"]["estimate"] == prior["original_accuracy"]
    for family in ("style", "capture"):
        f = prior["families"][family]
        assert (f["n"], f["accuracy"], f["difference"]["estimate"]) == (20, 20.0, 0.0)
        assert "habit" not in f
    # the paper's figures are the originals': one instance of each cell
    assert summary["baseline:prior"]["conditions"]["prior-conform"] == \
        {"n": 4, "rel_acc": 100.0, "em": 0.0}
    assert summary["baseline:prior"]["delta"] == 100.0
    assert summary["baseline:prior"]["answered"] == 80  # 20 originals, 60 twins
    assert "    counterfactual: accuracy % 60.0 (n 20), paired 40.0" in done.stdout
    assert "answered with the original's answer % 20.0" in done.stdout


def test_the_reading_baseline_does_not(run):
    """The vision baseline reads the arrow: every original and every counterfactual
    right, none answered with the original's answer."""
    folder, _ = run
    summary = json.loads((folder / "summary.json").read_text())["models"]
    vision = summary["baseline:vision-uml"]["robustness"]
    assert (vision["originals"], vision["original_accuracy"]) == (20, 100.0)
    cf = vision["families"]["counterfactual"]
    assert (cf["n"], cf["accuracy"], cf["difference"]["estimate"]) == (20, 100.0, 0.0)
    assert (cf["habit"]["n"], cf["habit"]["estimate"]) == (20, 0.0)


def test_report_leaderboard_and_view_show_the_twins(run, tmp_path):
    folder, _ = run
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert "Robustness: the same questions on twins of each diagram" in page
    done = run_cli("leaderboard", str(folder), "--format", "json", "--out",
                   str(tmp_path / "board.json"))
    assert done.returncode == 0, done.stderr
    board = json.loads((tmp_path / "board.json").read_text())
    title = "prior-bias robustness: answered from habit"
    cells = {r["model"]: r["cells"][title] for r in board["rows"]}
    assert (cells["baseline:prior"]["value"], cells["baseline:prior"]["n"]) == (20.0, 20)
    assert cells["baseline:vision-uml"]["value"] == 0.0
    assert {r["model"]: r["cells"]["prior-bias Δ"]["n"] for r in board["rows"]} == \
        {"baseline:prior": 20, "baseline:vision-uml": 20}  # the originals'
    done = run_cli("view", str(folder), "--out", str(tmp_path / "page"))
    assert done.returncode == 0, done.stderr
    view = read_view(tmp_path / "page")
    at = {name: k for k, name in enumerate(view["fields"])}
    rows = {(s[at["model"]], s[at["id"]]): s for s in view["samples"]}
    original = next(k for m, k in rows if m == "baseline:prior" and "~" not in k
                    and "prior-conform" in k)
    beside = rows["baseline:prior", original][at["beside"]]
    assert [caption.split(":")[0] for caption, _, _ in beside] == \
        ["counterfactual twin", "style twin", "capture twin"]
    gold = rows["baseline:prior", original][at["gold"]]  # the names' prior, its answer
    assert beside[0][2] == [f"gold: {gold == 'False'}", f"read from the answer: {gold} (wrong)",
                            "the original's answer (answered from habit)"]
    assert all((tmp_path / "page" / image).is_file() for _, image, _ in beside)
    twin = rows["baseline:prior", original.replace("@1x", "~counterfactual@1x")]
    assert [caption.split(":")[0] for caption, _, _ in twin[at["beside"]]] == \
        ["the original", "style twin", "capture twin"]
    assert twin[at["parts"]]["answered from habit"] is True


def test_plan_refuses_twins(tmp_path):
    done = run_cli("build", "prior-bias", "--out", str(tmp_path / "d"), "--per-cell", "1",
                   "--plan", "--twins", "counterfactual")
    assert done.returncode == 2 and "--twins draws its twins" in done.stderr
    assert "Traceback" not in done.stderr


def _score(ident: str, scale: str, correct: bool, status: str = "ok",
           twin: str | None = None, habit: bool | None = None) -> PriorBiasScore:
    original = ident.split("~")[0]
    return PriorBiasScore("m", ident, "prior-conform", "inheritance", scale, "True", status,
                          None if status == "ok" else "failed", "True", "parsed", correct,
                          (), False, twin=twin, twin_of=original if twin else None,
                          habit=habit)


def test_robustness_figures_of_hand_written_scores():
    """Two diagrams at two scales. Originals answered: d1 at 1x right, at 2x wrong, d2
    at 1x right (d2 at 2x failed: left out, as of RelAcc): 2 / 3. Counterfactuals
    answered: d1's at 1x wrong from habit, at 2x right, d2's at 2x right (its 1x
    failed): 2 / 3; pairs at the same scale only, d2's at 2x unpaired (its original
    failed): (0 − 1) and (1 − 0), 0 points, the originals of the pairs 50 %; habit 1 of
    3, clustered by diagram (d1: 1 and 0, d2: 0) — resampling the two diagrams gives
    1/2, 1/3 or 0, so its 95 % interval is 0 to 50. d1's style twin at 1x right,
    paired with a right original: 0 points."""
    rows = [_score("d1-q0", "1x", True), _score("d1-q0", "2x", False),
            _score("d2-q0", "1x", True), _score("d2-q0", "2x", False, "error"),
            _score("d1-q0~counterfactual", "1x", False, twin="counterfactual", habit=True),
            _score("d1-q0~counterfactual", "2x", True, twin="counterfactual", habit=False),
            _score("d2-q0~counterfactual", "1x", False, "error", "counterfactual", False),
            _score("d2-q0~counterfactual", "2x", True, twin="counterfactual", habit=False),
            _score("d1-q0~style", "1x", True, twin="style")]
    model = summarize(rows)
    figures = model.robustness
    assert figures is not None
    assert (figures.originals, figures.original_accuracy) == (3, pytest.approx(200 / 3))
    cf = figures.families["counterfactual"]
    assert (cf.n, cf.accuracy, cf.original_accuracy) == (3, pytest.approx(200 / 3), 50.0)
    assert (cf.difference["n"], cf.difference["estimate"]) == (2, 0.0)
    assert cf.habit is not None
    assert (cf.habit["n"], cf.habit["clusters"]) == (3, 2)
    assert cf.habit["estimate"] == pytest.approx(100 / 3, abs=1e-3)
    assert cf.habit["ci95_clustered"] == [0.0, 50.0]
    style = figures.families["style"]
    assert (style.n, style.accuracy, style.difference["estimate"]) == (1, 100.0, 0.0)
    # the paper's figures are the originals': 3 answered (1x: d1, d2 right; 2x: d1 wrong)
    assert model.conditions["prior-conform"].n == 3
    assert (model.answered, model.errors) == (7, 2)  # every call, twins' too
    assert summarize([r for r in rows if r.twin is None]).robustness is None


def test_habit_is_the_original_s_gold_in_the_answer():
    """A counterfactual whose gold flipped (True → False): True is the original's
    answer (habit), False right, Unknown neither, a failed call not habit; a style twin
    keeps its gold, so has no habit."""
    original = Item("d-q0", "d", "inheritance", "prior-conform", ("Dog", "Animal"),
                    ("Dog", "Animal"), True, source="diagrams/d.puml")
    twin = Item("d-q0~counterfactual", "d-q0~counterfactual", "inheritance",
                "prior-conform", ("Dog", "Animal"), ("Dog", "Animal"), False,
                source="diagrams/d-q0~counterfactual.puml", twin_of="d-q0",
                twin=Twin("counterfactual", "reversed"))
    styled = Item("d-q0~style", "d~style", "inheritance", "prior-conform",
                  ("Dog", "Animal"), ("Dog", "Animal"), True, source="diagrams/d~style.puml",
                  twin_of="d-q0", twin=Twin("style", "drawn in style handwritten"))
    names = {f"names:{d}@1x": Answer("n", "ok", '["Dog", "Animal"]')
             for d in ("d", "d-q0~counterfactual", "d~style")}
    habits = []
    for text, status in (("True", "ok"), ("False", "ok"), ("Unknown", "ok"),
                         ("", "call_error")):
        answers = names | {f"{i.id}@1x": Answer(i.id, status, text)
                           for i in (original, twin, styled)}
        scored = score("m", [original, twin, styled], ("1x",), answers)
        assert scored[0].habit is None and scored[2].habit is None
        assert (scored[1].twin, scored[1].twin_of) == ("counterfactual", "d-q0")
        habits.append((scored[1].habit, scored[1].correct))
    assert habits == [(True, False), (False, True), (False, False), (False, False)]


def test_limit_samples_originals_each_with_its_twins():
    """--limit counts originals, one of every cell in turn, and brings their twins."""
    from diagbench.benchmarks.prior_bias.scoring import stratified

    def item(ident: str, relation: str, twin: str | None = None) -> Item:
        return Item(f"{ident}~{twin}" if twin else ident, ident, relation, "prior-conform",
                    ("A", "B"), ("A", "B"), True, twin_of=ident if twin else None,
                    twin=Twin("style", "s") if twin else None)

    items = [item("a-q0", "inheritance"), item("b-q0", "inheritance"),
             item("c-q0", "dependency"), item("a-q0", "inheritance", "style"),
             item("c-q0", "dependency", "style")]
    for seed in range(4):
        chosen = [i.id for i in stratified(items, 2, seed)]
        originals = [i for i in chosen if "~" not in i]
        assert len(originals) == 2 and "c-q0" in originals  # the dependency cell's one
        assert chosen == [i.id for i in items if (i.twin_of or i.id) in originals]
