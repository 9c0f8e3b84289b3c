"""Twins of the structure benchmark (`build structure --twins`), on the offline build
over every category outside software (`domains_data`, conftest.py, shared with
tests/test_structure_domains.py): each counterfactual changes an exact answer, read
again here from its own source; each style twin is drawn with its original's counts;
each capture differs from its original's image and is sent to models as it is; the
twins made and dropped add up; a build killed and run again holds each twin once."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from PIL import Image

from diagbench.benchmarks.structure.counting import statistics
from diagbench.benchmarks.structure.templates import asked_facts
from diagbench.languages import CATEGORIES, named
from tests.cli import read_jsonl

SCIENCE = [c.name for c in CATEGORIES if c.domain != "software"]
FAMILIES = ("counterfactual", "style", "capture")


def _facts(data: Path, sample: dict) -> dict[str, object]:
    """The facts of a sample's own source, read here by its language (sets sorted)."""
    language = named(sample["language"])
    [parsed] = language.read((data / sample["code"]).read_text(encoding="utf-8"))[:1]
    stats = statistics(parsed, language.domain == "software")[0]
    return {f.question: tuple(sorted(f.answer)) if isinstance(f.answer, tuple) else f.answer
            for f in asked_facts(language, parsed, stats).facts}


@pytest.fixture(scope="module")
def built(domains_data: Path) -> tuple[Path, dict[str, dict], list[dict], dict]:
    samples = {s["id"]: s for s in read_jsonl(domains_data / "samples.jsonl")}
    tasks = read_jsonl(domains_data / "tasks.jsonl")
    info = json.loads((domains_data / "build.json").read_text(encoding="utf-8"))
    return domains_data, samples, tasks, info


def _twins(samples: dict[str, dict], family: str) -> list[dict]:
    return [s for s in samples.values() if s.get("twin", {}).get("family") == family]


def test_every_counterfactual_changes_an_exact_answer(built):
    data, samples, tasks, _ = built
    twins = _twins(samples, "counterfactual")
    # every category makes one (its language's edits, else a renaming)
    assert {t["category"] for t in twins} == set(SCIENCE), twins
    by_sample = defaultdict(list)
    for t in tasks:
        by_sample[t["sample"]].append(t)
    for twin in twins:
        original = samples[twin["twin_of"]]
        assert twin["id"] == f"{original['id']}~counterfactual"
        assert twin["code"] != original["code"]
        assert (data / twin["code"]).read_text() != (data / original["code"]).read_text()
        before, after = _facts(data, original), _facts(data, twin)
        changed = {q for q in after if q in before and before[q] != after[q]}
        assert changed, twin["id"]
        # drawn by the engine as its own source reads
        assert twin["drawn"] and all(twin["counts"][k] == v for k, v in twin["drawn"].items())
        asked = by_sample[twin["id"]]
        # at least one question whose answer changed, its original answer beside it
        moved = [t for t in asked if t.get("original_gold") is not None]
        assert moved, twin["id"]
        for t in moved:
            question = t["question"].rsplit("\n", 1)[0]
            assert question in changed, t["id"]
            gold = before[question]  # a set's items sorted
            stated = sorted(t["original_gold"]) if isinstance(gold, tuple) \
                else t["original_gold"]
            assert stated == (("yes" if gold else "no") if isinstance(gold, bool)
                              else list(gold) if isinstance(gold, tuple) else gold), t["id"]
        [code] = [t for t in asked if t["task"] == "image_to_code"]
        assert code["gold"] == twin["code"]


def test_every_style_twin_is_drawn_with_its_originals_counts(built):
    _, samples, _, info = built
    for twin in _twins(samples, "style"):
        original = samples[twin["twin_of"]]
        language = named(twin["language"])
        assert twin["twin"]["change"].removeprefix("drawn in style ") in language.styles()
        assert twin["code"] == original["code"]  # the same source file
        assert twin["image"] != original["image"]
        assert twin["drawn"] and all(original["counts"][k] == v
                                     for k, v in twin["drawn"].items()), twin["id"]
    # a language without styles makes none, counted
    styled = info["twins"]["style"]
    originals = [s for s in samples.values() if "twin" not in s]
    without = sum(not named(s["language"]).styles() for s in originals)
    assert styled["dropped"].get("its language declares no style", 0) == without


def test_every_capture_differs_from_its_original_and_can_be_sent(built):
    from diagbench.models.image_policy import ImagePolicy, image_problem
    from diagbench.models.request import ImagePart

    data, samples, tasks, _ = built
    captures = _twins(samples, "capture")
    assert len(captures) == sum("twin" not in s for s in samples.values())
    for twin in captures:
        original = samples[twin["twin_of"]]
        path = data / twin["image"]
        assert path.suffix == ".jpg"
        assert path.read_bytes() != (data / original["image"]).read_bytes()
        with Image.open(path) as image, Image.open(data / original["image"]) as drawn:
            assert image.format == "JPEG"
            # turned, so the canvas grows
            assert image.width >= drawn.width and image.height >= drawn.height
            assert (image.width, image.height) != (drawn.width, drawn.height)
        part = ImagePart.from_file(path)
        assert part.media_type == "image/jpeg" and image_problem(path) is None
        with Image.open(io.BytesIO(ImagePolicy(max_side=64).apply(part).data)) as sent:
            assert max(sent.size) == 64
        assert twin["counts"] == original["counts"]
    # its questions are its original's, with the same answers
    of_capture = [t for t in tasks if t["sample"].endswith("~capture")]
    asked = {t["id"]: t for t in tasks}
    assert of_capture
    for t in of_capture:
        original = asked[t["twin_of"]]
        assert (original["question"], original["gold"]) == (t["question"], t["gold"])
        assert "original_gold" not in t


def test_twins_made_and_dropped_add_up(built):
    _, samples, tasks, info = built
    originals = [s for s in samples.values() if "twin" not in s]
    per_category = Counter(s["category"] for s in originals)
    assert list(info["twins"]) == list(FAMILIES)
    for family in FAMILIES:
        made = info["twins"][family]
        twins = _twins(samples, family)
        assert made["made"] == len(twins)
        assert made["made"] + sum(made["dropped"].values()) == len(originals)
        assert len(made["rejected"]) == sum(made["dropped"].values())
        assert Counter(r["reason"] for r in made["rejected"]) == Counter(made["dropped"])
        assert set(made["categories"]) == set(SCIENCE)
        for category, cell in made["categories"].items():
            assert sum(cell.values()) == per_category[category], (family, category)
            assert cell["made"] == sum(t["category"] == category for t in twins)
        # no twin of a twin, each twin once
        assert all(samples[t["twin_of"]].get("twin") is None for t in twins)
    ids = [s["id"] for s in samples.values()]
    assert len(ids) == len(set(ids))
    # a twin is asked only the facts, and image-to-code for a counterfactual; never the
    # generating model's texts, questions, captions or the persona association
    for t in tasks:
        twin = samples[t["sample"]].get("twin")
        if twin:
            allowed = {"identification", "quantification", "structural"} | (
                {"image_to_code"} if twin["family"] == "counterfactual" else set())
            assert t["task"] in allowed, t["id"]
            assert t["image"] == samples[t["sample"]]["image"]
    assert info["tasks"] == dict(sorted(Counter(t["task"] for t in tasks).items()))


def test_a_twins_task_names_the_same_question_on_its_original(built):
    _, samples, tasks, _ = built
    asked = {t["id"]: t for t in tasks}
    paired = [t for t in tasks if t.get("twin_of")]
    assert paired
    for t in paired:
        original = asked[t["twin_of"]]
        assert original["sample"] == samples[t["sample"]]["twin_of"]
        assert (original["task"], original["question"]) == (t["task"], t["question"]) \
            or t["task"] == "image_to_code"
        if t["task"] != "image_to_code":
            # a set answer is the same in any order
            same = sorted(original["gold"]) == sorted(t["gold"]) \
                if isinstance(t["gold"], list) else original["gold"] == t["gold"]
            assert ("original_gold" in t) == (not same), t["id"]
            assert t.get("original_gold", t["gold"]) == original["gold"]


def test_a_build_killed_and_run_again_holds_each_twin_once(tmp_path: Path):
    out = tmp_path / "data"
    command = [sys.executable, "-m", "diagbench", "build", "structure", "--out", str(out),
               "--model", "baseline:synth", "--categories", "chess-board", "--languages",
               "fen", "--per-category", "2", "--seed", "5", "--twins", "counterfactual,capture"]
    first = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    responses = out / "generation" / "responses.jsonl"
    while first.poll() is None and not (responses.is_file() and responses.stat().st_size):
        time.sleep(0.05)
    first.kill()
    first.wait()
    written = []
    for _ in range(2):  # resumed, then run once more over a finished build
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        written.append([(out / name).read_bytes() for name in (
            "samples.jsonl", "tasks.jsonl", "build.json",
            "images/chess-board-fen-000~capture.jpg")])
        samples = read_jsonl(out / "samples.jsonl")
        ids = [s["id"] for s in samples]
        assert len(ids) == len(set(ids)) == 6
        assert Counter(s.get("twin", {}).get("family") for s in samples) == \
            {None: 2, "counterfactual": 2, "capture": 2}
        assert {p.name for p in (out / "images").iterdir()} == {
            Path(s["image"]).name for s in samples}
        # the twins stage is timed like the others
        timings = json.loads((out / "timings.json").read_text(encoding="utf-8"))
        assert isinstance(timings["twins"], float) and timings["samples_in"]["twins"] == 2
        assert timings["twins_made"] == 4
    # the same seed, the same files, the captured image byte for byte
    assert written[0] == written[1]


def test_capture_is_seeded(tmp_path: Path):
    from diagbench.render.capture import capture

    image = tmp_path / "in.png"
    Image.new("RGB", (200, 100), "white").save(image)
    one = capture(image, tmp_path / "a.jpg", random.Random(1))
    again = capture(image, tmp_path / "b.jpg", random.Random(1))
    other = capture(image, tmp_path / "c.jpg", random.Random(2))
    assert one == again and (tmp_path / "a.jpg").read_bytes() == (tmp_path / "b.jpg").read_bytes()
    assert other.sha256 != one.sha256 and other.change != one.change
    # a white page stays white but for the noise: no black corners from the rotation
    with Image.open(tmp_path / "a.jpg") as made:
        assert min(made.convert("L").getpixel((0, 0)), made.convert("L").getpixel(
            (made.width - 1, made.height - 1))) > 180


def test_a_style_drawn_with_other_counts_is_dropped(tmp_path: Path, monkeypatch):
    from diagbench.benchmarks.structure.build import read_all, render_all
    from diagbench.benchmarks.structure.planned import Planned
    from diagbench.benchmarks.structure.twins import DRAWN_OTHERWISE, make_twins

    fen = named("fen")
    kings = "4k3/8/8/8/8/8/8/4K3 w - - 0 1\n"
    monkeypatch.setattr(type(fen), "styles", lambda self: ("plain", "kings only"))
    monkeypatch.setattr(type(fen), "prepare", lambda self, source, kind, marked, style="":
                        kings if style == "kings only" else source)
    boards = [Planned(f"chess-board-fen-{k:03d}", "chess-board", "fen", "high", "", "",
                      code=fen.generate(random.Random(k), "high")) for k in range(6)]
    (tmp_path / "images").mkdir()
    read_all(boards)
    render_all(boards, tmp_path, 1)
    assert all(b.image and b.counts["pieces"] > 2 for b in boards)
    made, info, _ = make_twins(boards, ("style",), tmp_path, 0, read_all,
                               lambda group: render_all(group, tmp_path, 1))
    assert {t.twin.change for t in made if t.twin} == {"drawn in style plain"}
    assert all(t.drawn == b.drawn for t, b in zip(made, [b for b in boards if any(
        t.twin_of == b.id for t in made)], strict=True))
    dropped = info["style"].dropped
    assert info["style"].made == len(made) and 0 < len(made) < 6
    assert dropped == {DRAWN_OTHERWISE: 6 - len(made)}
    # the image of a dropped twin is not left behind
    assert sorted(p.name for p in (tmp_path / "images").iterdir()) == sorted(
        [f"{b.id}.png" for b in boards] + [f"{t.id}.png" for t in made])


def test_export_keeps_a_twins_pairing(built):
    from diagbench.benchmarks.structure.export import _task, export_rows
    from diagbench.benchmarks.structure.records import StructureTask

    data, _, tasks, info = built
    asked = {t["id"]: t for t in tasks}
    rows = [r for r in export_rows(data).rows if "~" in r["sample"]]
    assert {r["sample_record"]["twin"]["family"] for r in rows} == {
        family for family, made in info["twins"].items() if made["made"]}
    for row in rows:
        assert _task(row, row["image"]["path"]) == StructureTask.from_json(asked[row["id"]])


def test_a_renaming_replaces_a_whole_name_the_answers_hold():
    from diagbench.benchmarks.structure.twins import renamed
    from diagbench.benchmarks.twins import IMPLAUSIBLE
    from diagbench.diagram.facts import Fact

    code = "((Ant,Antelope),(Bee,bee));"
    facts = [Fact("identification", "a", "Which leaf is the sister of Antelope?", "Ant"),
             Fact("structural", "b", "Which leaves form a clade?", ("Bee", "Ant")),
             Fact("identification", "c", "Which leaf is lower-case?", "bee"),
             Fact("quantification", "d", "How many leaves?", 4)]
    out = renamed(code, facts, random.Random(0))
    # each capitalised name once, in the facts' order; a lower-case word (a keyword,
    # maybe) and a number never
    assert [said.split(" to ")[0] for _, said in out] == ["renamed Ant", "renamed Bee"]
    first, second = (said.split(" to ")[1] for _, said in out)
    assert {first, second} <= set(IMPLAUSIBLE)
    assert out[0][0] == f"(({first},Antelope),(Bee,bee));"
    assert out[1][0] == f"((Ant,Antelope),({second},bee));"


def test_a_counterfactual_crossing_the_node_limits_is_not_kept(monkeypatch):
    """A sequence diagram at STRUDEL's limit of 20 messages: an edit adding a 21st would
    take its twin outside the build's filter, so it is not the twin; the renaming tried
    next is (20 messages, a participant renamed)."""
    from diagbench.benchmarks.structure import twins
    from diagbench.benchmarks.structure.build import read_all
    from diagbench.benchmarks.structure.planned import Planned

    code = "@startuml\nparticipant Alice\nparticipant Bob\n" + "".join(
        f"Alice -> Bob : m{k}\n" for k in range(20)) + "@enduml\n"
    plantuml = named("plantuml")
    monkeypatch.setattr(type(plantuml), "edit", lambda self, c, rng: c.replace(
        "@enduml", "Bob -> Alice : one more\n@enduml"))
    original = Planned("s", "sequence", "plantuml", "low", "p", "d", code=code)
    read_all([original])
    assert original.reason is None and original.counts["messages"] == 20
    twin = twins._counterfactual(original, 0, read_all)
    assert twin.reason is None and twin.counts["messages"] == 20
    assert twin.twin is not None and twin.twin.change.startswith("renamed ")
    edited = Planned("t", "sequence", "plantuml", "low", "p", "d",
                     code=plantuml.edit(code, random.Random(0)))
    read_all([edited])
    twins._check_counterfactual(edited, original)
    assert (edited.reason, edited.detail) == (twins.OUTSIDE_LIMITS, "messages 21 > 20")


def test_limit_asks_the_first_tasks_and_their_twins(built, tmp_path):
    """`eval structure --limit N` asks the first N original tasks and every twin's task
    paired with one of them (before: the first N lines, all originals)."""
    from diagbench.benchmarks.progress import no_bars
    from diagbench.benchmarks.structure.benchmark import StructureBenchmark

    data, _, rows, _ = built
    originals = [t["id"] for t in rows if "twin_of" not in t]
    asked = StructureBenchmark().samples(tmp_path, no_bars, data=str(data), limit=4).samples
    assert [t.id for t in asked if t.twin_of is None] == originals[:4]
    paired = [t for t in asked if t.twin_of is not None]
    assert paired and all(t.twin_of in originals[:4] for t in paired)
    assert len(paired) == sum(t.get("twin_of") in originals[:4] for t in rows)
