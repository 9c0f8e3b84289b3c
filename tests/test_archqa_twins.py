"""Twins of archqa's diagrams (`build archqa --twins`), built once from four small
diagrams with the real engines — two bundled examples (PlantUML, DOT), a DOT graph
without relations, which no edit of its language changes, so that its counterfactual
renames a name, and a DOT chain of 5 entities and 4 relations, the blind baseline's
guesses — and asked by the blind baseline (baseline:blind, which answers from
the question's text alone) and by a reading model (a real HTTP server on 127.0.0.1
speaking OpenAI's format that finds the diagram whose image it was sent, by its bytes,
and answers from that diagram's annotation); and the robustness figures of
hand-written scores."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from diagbench.benchmarks.archqa.build import annotate
from diagbench.benchmarks.archqa.questions import recompute
from diagbench.benchmarks.archqa.records import Annotation, ArchQAScore, Question
from diagbench.benchmarks.archqa.summary import score_model, summarize
from diagbench.benchmarks.asking import Answer
from diagbench.benchmarks.protocol import DataError
from diagbench.benchmarks.twins import IMPLAUSIBLE, Twin, TwinFamily, renamings
from diagbench.languages import read
from tests.cli import read_jsonl, read_view, run_cli
from tests.fake_providers import FakeServer

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "archqa"
#: A graph without relations: no edit of DOT's applies (it leaves a relation out).
ZONES = ('digraph zones {\n  subgraph cluster_z { label="Zone"; cache [label="Cache"];\n'
         '    broker [label="Broker"]; }\n  client [label="Client"];\n}\n')
#: 5 entities, 4 relations (what the blind baseline guesses): its counterfactual, one
#: relation left out, has 3.
CHAIN = "digraph chain {\n  a -> b;\n  b -> c;\n  c -> d;\n  d -> e;\n}\n"
BLIND = "baseline:blind"
READER = "openai:reader"
LANGUAGES = {".puml": "plantuml", ".dot": "dot"}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The four diagrams built with every family of twins: DATA."""
    root = tmp_path_factory.mktemp("archqa-twins")
    sources = root / "sources"
    sources.mkdir()
    for name in ("library_classes.puml", "build_system.dot"):
        shutil.copy(EXAMPLES / name, sources / name)
    (sources / "zones.dot").write_text(ZONES, encoding="utf-8")
    (sources / "chain.dot").write_text(CHAIN, encoding="utf-8")
    done = run_cli("build", "archqa", "--from", str(sources), "--out", str(root / "data"),
                   "--twins", "counterfactual,style,capture", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert "counterfactual twins: 4 made" in done.stdout
    return root / "data"


def _reading(data: Path):
    """The reading model's answer to a request body: the diagram whose image it was sent
    (found by the image's sha256 among the data set's), the question of that diagram
    the prompt holds, answered from the diagram's annotation."""
    annotations = {a["id"]: Annotation.from_json(a) for a in read_jsonl(data / "annotations.jsonl")}
    by_image = {hashlib.sha256((data / a.image).read_bytes()).hexdigest(): a
                for a in annotations.values()}
    questions = [Question.from_json(q) for q in read_jsonl(data / "questions.jsonl")]

    def answer(body: dict) -> str:
        parts = body["messages"][-1]["content"]
        url = next(p["image_url"]["url"] for p in parts if p["type"] == "image_url")
        seen = by_image[hashlib.sha256(base64.b64decode(url.split(",", 1)[1])).hexdigest()]
        prompt = "".join(p.get("text", "") for m in body["messages"]
                         for p in (m["content"] if isinstance(m["content"], list)
                                   else [{"text": m["content"]}]))
        q = next(q for q in questions if q.diagram == seen.id and q.text in prompt)
        return f"[start]\n{json.dumps({'answer': recompute(seen, q.subtype, q.text).answer})}" \
               "\n[end]"
    return answer


@pytest.fixture(scope="module")
def run(built, tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """The data set asked by the blind baseline and the reading model, judged by
    baseline:judge: (RUN, eval's result)."""
    root = tmp_path_factory.mktemp("archqa-twins-run")
    seen: dict[str, dict] = {}
    reading = _reading(built)
    env = {**os.environ, "OPENAI_API_KEY": "k", "DIAGBENCH_CACHE": str(root / "c.sqlite")}
    with FakeServer(reply=lambda prompt: reading(seen["body"])) as server:
        server.on_body = lambda body: seen.__setitem__("body", body)  # under its lock
        done = run_cli("eval", "archqa", "--data", str(built), "--model", BLIND,
                       "--model", f"{READER}@{server.base_url}", "--judge", "baseline:judge",
                       "--out", str(root / "run"), env=env)
    assert done.returncode == 0, done.stderr
    return root / "run", done


def _answers(annotation: Annotation, questions: list[dict]) -> dict[str, object]:
    return {q["id"]: recompute(annotation, q["subtype"], q["text"]).answer
            for q in questions}


def _source(data: Path, annotation: dict) -> Annotation:
    """The annotation of the diagram read from its own source in DATA/sources."""
    path = data / annotation["file"]
    [parsed] = read(path.read_text(encoding="utf-8"), LANGUAGES[path.suffix])
    return annotate(parsed.diagram, annotation["id"], annotation["file"], "")[0]


def test_every_counterfactual_changes_an_answer_read_from_its_own_source(built):
    """Each counterfactual twin's source (DATA/sources/ID~counterfactual.EXT), read
    again, gives every gold of its questions; the original's source gives each
    `original_gold`; at least one differs. DOT and PlantUML's edit leaves one relation
    out (5 → 4 in both examples); the graph without relations has a name renamed."""
    annotations = {a["id"]: a for a in read_jsonl(built / "annotations.jsonl")}
    questions = read_jsonl(built / "questions.jsonl")
    twins = [a for a in annotations.values() if a.get("twin", {}).get("family")
             == "counterfactual"]
    assert sorted(a["id"] for a in twins) == [
        "behavioral/build_system~counterfactual", "behavioral/chain~counterfactual",
        "behavioral/zones~counterfactual", "structural/library_classes~counterfactual"]
    for twin in twins:
        assert twin["file"] == f"sources/{twin['id'].split('/')[1]}" + \
            Path(twin["file"]).suffix
        original = annotations[twin["twin_of"]]
        asked = [q for q in questions if q["diagram"] == twin["id"]]
        own = _answers(_source(built, twin), asked)
        assert {q["id"]: q["gold"] for q in asked} == own
        changed = [q for q in asked if "original_gold" in q]
        assert changed and all(q["original_gold"] != q["gold"] for q in changed)
        before = _answers(_source(built, original), changed)
        assert {q["id"]: q["original_gold"] for q in changed} == before
        by_original = {q["id"]: q for q in questions if q["diagram"] == original["id"]}
        for q in asked:  # the original's question, or one it was not asked
            if "twin_of" in q:
                assert by_original[q["twin_of"]]["text"] == q["text"]
    relations = {q["diagram"]: q["gold"] for q in questions
                 if q["subtype"] == "total_relation_number"}
    for name, n in (("structural/library_classes", 5), ("behavioral/build_system", 5),
                    ("behavioral/chain", 4)):
        assert relations[name] == [n] and relations[f"{name}~counterfactual"] == [n - 1]
    zones = annotations["behavioral/zones~counterfactual"]["twin"]["change"]
    assert zones.startswith("renamed ") and zones.split(" to ")[1].split(" ")[0] in IMPLAUSIBLE
    text = (built / "sources" / "zones~counterfactual.dot").read_text(encoding="utf-8")
    assert zones.split(" ")[1] not in text


def test_every_style_and_capture_twin_keeps_every_answer_and_is_drawn(built):
    """A style twin is its original's source drawn in a style of its language (its own
    PNG), a capture twin its original's image as if scanned (a JPEG): each asked every
    question of its original, with the same gold."""
    annotations = {a["id"]: a for a in read_jsonl(built / "annotations.jsonl")}
    questions = read_jsonl(built / "questions.jsonl")
    by_id = {q["id"]: q for q in questions}
    for family, magic in (("style", b"\x89PNG"), ("capture", b"\xff\xd8\xff")):
        twins = [a for a in annotations.values() if a.get("twin", {}).get("family") == family]
        assert len(twins) == 4
        for twin in twins:
            original = annotations[twin["twin_of"]]
            assert twin["file"] == original["file"]  # the same source
            assert (twin["entities"], twin["relations"]) == \
                (original["entities"], original["relations"])
            image = (built / twin["image"]).read_bytes()
            assert image.startswith(magic)
            assert image != (built / original["image"]).read_bytes()
            asked = [q for q in questions if q["diagram"] == twin["id"]]
            theirs = [q["id"] for q in questions if q["diagram"] == original["id"]]
            assert [q["twin_of"] for q in asked] == theirs
            assert all(q["gold"] == by_id[q["twin_of"]]["gold"] and "original_gold" not in q
                       for q in asked)
            if family == "style":
                assert twin["twin"]["change"].startswith("drawn in style ")
                assert _answers(_source(built, twin), asked) == \
                    {q["id"]: q["gold"] for q in asked}


def test_build_json_counts_the_twins_made_and_dropped(built):
    info = json.loads((built / "build.json").read_text(encoding="utf-8"))
    questions = read_jsonl(built / "questions.jsonl")
    assert info["seed"] == 0 and list(info["twins"]) == ["counterfactual", "style", "capture"]
    for family, made in info["twins"].items():
        assert made["made"] + sum(made["dropped"].values()) == info["diagrams"] == 4
        assert len(made["rejected"]) == sum(made["dropped"].values())
        assert made["questions"] == sum(f"~{family}/" in q["id"] for q in questions)
        assert sum(sum(cell.values()) for cell in made["families"].values()) == 4
    # the originals' figures are the originals' alone
    assert info["questions"] == sum("~" not in q["id"] for q in questions)


def test_a_build_without_twins_writes_the_originals_alone(built, tmp_path):
    """The same diagrams built without --twins: the same originals, byte for byte —
    each line of annotations.jsonl and questions.jsonl, each image — and nothing of
    twins in build.json."""
    plain = tmp_path / "plain"
    done = run_cli("build", "archqa", "--from", str(built.parent / "sources"), "--out",
                   str(plain), "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert "twins:" not in done.stdout and "counterfactual" not in done.stdout
    for name in ("annotations.jsonl", "questions.jsonl"):
        lines = (plain / name).read_text(encoding="utf-8").splitlines()
        twinned = (built / name).read_text(encoding="utf-8").splitlines()
        assert twinned[:len(lines)] == lines
        assert all("~" in line for line in twinned[len(lines):])
    for image in (plain / "images").iterdir():
        assert image.read_bytes() == (built / "images" / image.name).read_bytes()
    info = json.loads((plain / "build.json").read_text(encoding="utf-8"))
    twinned = json.loads((built / "build.json").read_text(encoding="utf-8"))
    assert "twins" not in info and "seed" not in info
    assert info == {k: v for k, v in twinned.items() if k not in ("twins", "seed")}


def test_export_keeps_a_twins_pairing(built):
    """Exported, a twin's question reads back as it was built (its original's question
    and answer), its row's annotation naming its original and change."""
    from diagbench.benchmarks.archqa.export import _question, export_rows

    built_questions = {q["id"]: Question.from_json(q)
                       for q in read_jsonl(built / "questions.jsonl")}
    rows = [r for r in export_rows(built).rows if "~" in r["diagram"]]
    assert {r["annotation"]["twin"]["family"] for r in rows} == \
        {"counterfactual", "style", "capture"}
    assert any(r["original_gold"] is not None for r in rows)
    for row in rows:
        assert _question(row) == built_questions[row["id"]]
        assert row["annotation"]["twin_of"] == row["diagram"].split("~")[0]


def _by(rows: list[dict], model: str) -> dict[str, dict]:
    return {r["id"]: r for r in rows if r["model"] == model}


def test_the_blind_baseline_answers_a_changed_question_from_habit(run, built):
    """The blind baseline's answer depends on the question's text alone: on a
    counterfactual question whose answer changed it answers from habit exactly when it
    was right on the original (the same text, the same answer); its habit share is its
    accuracy on those originals. The reading model answers every twin right, never from
    habit: paired differences 0, habit share 0."""
    folder, _ = run
    rows = read_jsonl(folder / "scores.jsonl")
    blind, reading = _by(rows, BLIND), _by(rows, READER)
    changed = [r for r in blind.values() if r.get("habit") is not None]
    golds = {q["id"]: q for q in read_jsonl(built / "questions.jsonl")}
    assert changed and all(r["twin"] == "counterfactual" for r in changed)
    assert len(changed) == sum("original_gold" in q for q in golds.values())
    for r in changed:
        assert not (r["correct"] and r["habit"])  # the gold changed
        assert r["habit"] is blind[r["twin_of"]]["correct"]  # each asked of its original
        assert r["original"] == golds[r["id"]]["diagram"].split("~")[0]
    # the chain's 4 relations, 3 in its twin: the blind says 4 to both
    [chain] = [r for r in changed if r["id"].startswith("behavioral/chain~")
               and r["subtype"] == "total_relation_number"]
    assert (chain["habit"], blind[chain["twin_of"]]["correct"]) == (True, True)
    figures = json.loads((folder / "summary.json").read_text())["models"]
    cf = figures[BLIND]["robustness"]["families"]["counterfactual"]
    assert cf["habit"]["n"] == len(changed)
    assert cf["habit"]["estimate"] == pytest.approx(  # its accuracy on those originals
        100 * sum(blind[r["twin_of"]]["correct"] for r in changed) / len(changed),
        abs=1e-4)
    assert cf["habit"]["estimate"] > 0
    assert all(r["correct"] for r in reading.values())
    assert all(r["habit"] is False for r in reading.values() if "habit" in r)
    read = figures[READER]["robustness"]
    assert read["original_accuracy"] == 100.0
    for family in ("counterfactual", "style", "capture"):
        f = read["families"][family]
        assert (f["accuracy"], f["difference"]["estimate"]) == (100.0, 0.0)
    assert read["families"]["counterfactual"]["habit"]["estimate"] == 0.0
    # the headline figures are the originals' alone, judged alone
    originals = [r for r in blind.values() if "twin" not in r]
    assert all(r.get("judge_status") == "judged" for r in originals)
    assert not any(r.get("judge_status") for r in blind.values() if "twin" in r)
    assert figures[BLIND]["questions"] == len(originals) == \
        sum("~" not in q for q in golds)
    assert figures[BLIND]["accuracy"]["all"] == pytest.approx(
        100 * sum(r["correct"] for r in originals) / len(originals), abs=0.01)


def test_eval_prints_the_report_leaderboard_and_view_show_the_twins(run, tmp_path):
    folder, done = run
    summary = json.loads((folder / "summary.json").read_text())["models"]
    blind = summary[BLIND]["robustness"]
    assert (f"  twins: accuracy % on the originals {blind['original_accuracy']:.1f} "
            f"(n {blind['originals']})") in done.stdout
    assert "    style: accuracy % 100.0" in done.stdout  # the reader's
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert "Robustness: the same questions on twins of each diagram" in page
    board = run_cli("leaderboard", str(folder), "--format", "json", "--out",
                    str(tmp_path / "board.json"))
    assert board.returncode == 0, board.stderr
    table = json.loads((tmp_path / "board.json").read_text(encoding="utf-8"))
    title = "archqa robustness: answered from habit"
    cells = {r["model"]: r["cells"][title] for r in table["rows"]}
    habit = summary[BLIND]["robustness"]["families"]["counterfactual"]["habit"]
    assert (cells[BLIND]["value"], cells[BLIND]["n"]) == (habit["estimate"], habit["n"])
    assert cells[READER]["value"] == 0.0
    shown = run_cli("view", str(folder), "--out", str(tmp_path / "page"))
    assert shown.returncode == 0, shown.stderr
    view = read_view(tmp_path / "page")
    at = {name: k for k, name in enumerate(view["fields"])}
    rows = {(s[at["model"]], s[at["id"]]): s for s in view["samples"]}
    first = next(i for m, i in rows if m == READER and i.startswith("structural/library_classes/"))
    captions = [caption for caption, _, _ in rows[READER, first][at["beside"]]]
    assert [c.split(" twin: ")[0] for c in captions] == ["counterfactual", "style", "capture"]
    assert all((tmp_path / "page" / image).is_file()
               for _, image, _ in rows[READER, first][at["beside"]])


def test_sadu_data_has_capture_twins_only(tmp_path):
    """SADU's imported diagrams have no source: `import sadu --twins capture` makes a
    capture twin of each (a JPEG in DATA/images) asked its original's questions with
    their published and recomputed golds; any other family is refused, naming why."""
    from tests.sadu_fixture import write_sadu

    sad = write_sadu(tmp_path / "SADU") / "dataset" / "SAD"
    done = run_cli("import", "sadu", str(sad), "--out", str(tmp_path / "data"),
                   "--twins", "capture")
    assert done.returncode == 0, done.stderr
    annotations = read_jsonl(tmp_path / "data" / "annotations.jsonl")
    questions = read_jsonl(tmp_path / "data" / "questions.jsonl")
    originals = [a for a in annotations if "twin" not in a]
    twins = {a["twin_of"]: a for a in annotations if "twin" in a}
    assert set(twins) == {a["id"] for a in originals} and len(originals) == 3
    for a in originals:
        image = tmp_path / "data" / twins[a["id"]]["image"]
        assert image.read_bytes()[:3] == b"\xff\xd8\xff"
    by_id = {q["id"]: q for q in questions}
    asked = [q for q in questions if "twin_of" in q]
    assert len(asked) == len(questions) - len(asked)
    for q in asked:
        original = by_id[q["twin_of"]]
        assert q["diagram"] == f"{original['diagram']}~capture"
        assert (q["text"], q["gold"], q["recomputed"]) == \
            (original["text"], original["gold"], original["recomputed"])
    info = json.loads((tmp_path / "data" / "import.json").read_text(encoding="utf-8"))
    assert (info["twins"]["capture"]["made"], info["twins"]["capture"]["questions"]) == \
        (3, len(asked))
    refused = run_cli("import", "sadu", str(sad), "--out", str(tmp_path / "other"),
                      "--twins", "capture,style")
    assert refused.returncode == 2 and not (tmp_path / "other").exists()
    assert "style: SADU's diagrams have no source" in refused.stderr
    assert "need diagbench build archqa" in " ".join(refused.stderr.split())


# --- hand-written -----------------------------------------------------------------------

def _score(ident: str, correct: bool, twin: TwinFamily | None = None,
           twin_of: str | None = None, habit: bool | None = None,
           status: str = "ok") -> ArchQAScore:
    original = ident.split("~")[0] if twin else None  # A~cf/… is a twin of A
    return ArchQAScore("m", ident, "behavioral", "total_entity_number", "counting", "basic",
                       "strict", status, correct, twin=twin, original=original,  # type: ignore[arg-type]
                       twin_of=twin_of, habit=habit)


def test_robustness_of_hand_written_scores():
    """Diagram A asked A/0 ✓ and A/1 ✗, B asked B/2 ✓ (3 originals, 66.7 %).
    Counterfactual twins: A~cf/3 ✗ answered with A/0's answer (habit), A~cf/4 ✓ (its
    answer unchanged: no habit figure), B~cf/5 a failed call (✗, not habit), C~cf/6 ✓
    (its original C not asked it: no pair). Counterfactual accuracy 2/4 = 50 %; pairs
    0−1, 1−0, 0−1: mean −⅓ → −33.3 points over 3 pairs (originals of the pairs 2/3);
    clustered by A (d −1, +1) and B (d −1): the cluster bootstrap draws AA (mean 0), AB
    or BA (−⅓), BB (−1) with chances ¼, ½, ¼: the interval [−100, 0]. Habit over
    A~cf/3, B~cf/5, C~cf/6: 1/3. Style A~style/7 ✓ of A/0 ✓: 100 %, d 0, no habit
    figure. The headline accuracy is the originals': 66.67 % of 3."""
    rows = [_score("A/0", True), _score("A/1", False), _score("B/2", True),
            _score("A~cf/3", False, "counterfactual", "A/0", True),
            _score("A~cf/4", True, "counterfactual", "A/1"),
            _score("B~cf/5", False, "counterfactual", "B/2", False, "call_error"),
            _score("C~cf/6", True, "counterfactual", None, False),
            _score("A~style/7", True, "style", "A/0")]
    model = summarize("strict", {"m": rows}).models["m"]
    figures = model["robustness"]
    assert (figures["originals"], round(figures["original_accuracy"], 2)) == (3, 66.67)
    assert list(figures["families"]) == ["counterfactual", "style"]
    cf = figures["families"]["counterfactual"]
    assert (cf["n"], cf["accuracy"], round(cf["original_accuracy"], 2)) == (4, 50.0, 66.67)
    assert (cf["difference"]["n"], cf["difference"]["clusters"]) == (3, 2)
    assert cf["difference"]["estimate"] == -33.3333
    assert cf["difference"]["ci95_clustered"] == [-100.0, 0.0]
    assert (cf["habit"]["n"], cf["habit"]["clusters"], cf["habit"]["estimate"]) == \
        (3, 3, 33.3333)
    style = figures["families"]["style"]
    assert (style["n"], style["accuracy"], style["difference"]["estimate"]) == (1, 100.0, 0.0)
    assert "habit" not in style
    assert (model["questions"], model["accuracy"]["all"]) == (3, 66.67)
    # a failed call is counted, whichever diagram it asked about
    assert (model["asked"], model["outcomes"]) == (8, {"ok": 7, "call_error": 1})
    assert "robustness" not in summarize("strict", {"m": rows[:3]}).models["m"]


def _question(ident: str, diagram: str, gold: list, twin_of: str | None = None,
              original_gold: list | None = None) -> Question:
    return Question(ident, diagram, "behavioral", "How many entities are in the diagram?",
                    gold, "total_entity_number", "counting", "basic", gold,
                    twin_of=twin_of, original_gold=original_gold)


def test_an_answer_stating_the_original_s_answer_is_from_habit():
    """Original A: 3 entities; its counterfactual twin 4, its style twin 3. On the
    counterfactual, "3" is wrong and from habit, "4" right and not, a failed call wrong
    and not; a style twin's question has no habit figure; a question naming an
    original's question about a diagram that is no twin is refused."""
    twins = {"b/A~counterfactual": Annotation("b/A~counterfactual", "behavioral", "", "",
                                              (), (), (), twin_of="b/A",
                                              twin=Twin("counterfactual", "an entity added")),
             "b/A~style": Annotation("b/A~style", "behavioral", "", "", (), (), (),
                                     twin_of="b/A", twin=Twin("style", "drawn in style x"))}
    questions = [_question("b/A/0", "b/A", [3]),
                 _question("b/A~counterfactual/1", "b/A~counterfactual", [4], "b/A/0", [3]),
                 _question("b/A~style/2", "b/A~style", [3], "b/A/0")]

    def said(n: object) -> str:
        return f"[start]\n{{\"answer\": {n}}}\n[end]"

    for reply, correct, habit in ((said(3), False, True), (said(4), True, False)):
        answers = {q.id: Answer(q.id, "ok", reply) for q in questions}
        scores = score_model("m", questions, answers, "strict", twins=twins)
        assert [(s.twin, s.original, s.twin_of) for s in scores] == [
            (None, None, None), ("counterfactual", "b/A", "b/A/0"), ("style", "b/A", "b/A/0")]
        assert (scores[1].correct, scores[1].habit, scores[2].habit) == (correct, habit, None)
    failed = {q.id: Answer(q.id, "call_error", None, "boom") for q in questions}
    scores = score_model("m", questions, failed, "strict", twins=twins)
    assert (scores[1].correct, scores[1].habit) == (False, False)
    assert "twin" not in scores[0].to_json() and "habit" not in scores[0].to_json()
    with pytest.raises(DataError, match=r"question b/A~counterfactual/1 is a twin's .* its "
                                        r"diagram b/A~counterfactual is no twin"):
        score_model("m", questions, failed, "strict", twins={})


def test_a_renaming_replaces_a_whole_name_an_answer_holds():
    """Each name an answer holds that the code writes as a whole word (not a lower-case
    word, a number or a name of two characters), renamed wherever written."""
    import random

    code = 'class Member\nclass MemberCard\nclass Loan\nMember --> Loan : "holds"\n'
    made = renamings(code, ["Member", "holds", "12", "Ox", "Member", "Absent", "Loan"],
                     random.Random(1))
    assert [said.split(" to ")[0] for _, said in made] == ["renamed Member", "renamed Loan"]
    renamed, said = made[0]
    new = said.split(" to ")[1]
    assert new in IMPLAUSIBLE
    assert renamed == code.replace("class Member\n", f"class {new}\n").replace(
        "Member -->", f"{new} -->")


def test_limit_asks_the_first_originals_and_their_twins(built, tmp_path):
    """`eval archqa --limit N` asks the first N original questions and every twin
    question paired with one of them (before: the first N lines, all originals)."""
    from diagbench.benchmarks.archqa.benchmark import ArchQABenchmark
    from diagbench.benchmarks.progress import no_bars

    rows = read_jsonl(built / "questions.jsonl")
    twins = {a["id"] for a in read_jsonl(built / "annotations.jsonl") if a.get("twin")}
    originals = [q["id"] for q in rows if q["diagram"] not in twins]
    asked = ArchQABenchmark().samples(tmp_path, no_bars, data=str(built), limit=3).samples
    ids = [q.id for q in asked]
    assert [i for i in ids if i in originals] == originals[:3]
    paired = [q for q in asked if q.diagram in twins]
    assert paired and all(q.twin_of in originals[:3] for q in paired)
    # every twin question of those three is asked: none is left behind
    assert len(paired) == sum(q.get("twin_of") in originals[:3] for q in rows)
    assert {q.diagram.rsplit("~", 1)[1] for q in paired} == {"counterfactual", "style",
                                                             "capture"}
