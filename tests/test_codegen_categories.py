"""The codegen benchmark per category × FRL (paper 004 Tables 6–8): a code is valid only
when it renders **as the category asked** (its reader's kind among the category's
kinds), a code drawn as another category is counted apart (`wrong_category`), and the
summary, printed lines, report and leaderboard give every category × FRL. A run
against the fake OpenAI server whose answers make every figure known in advance, and
baseline:synth's codes read as the category asked for every category × FRL of the
table."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest

from diagbench.benchmarks.codegen.plan import plan
from diagbench.benchmarks.structure.synth import synth_answer
from diagbench.benchmarks.synthesis import COMPLEXITIES, first_ask, split_answer
from diagbench.languages import CATEGORIES, category_named, languages_of, named, names
from tests.cli import run_cli
from tests.fake_providers import FakeServer

CLASS = "@startuml\nclass Order\nclass Customer\nCustomer --> Order\n@enduml\n"
SEQUENCE = "@startuml\nAlice -> Bob : order\nBob --> Alice : ok\n@enduml\n"
BROKEN = "@startuml\nclass Order {\n@enduml\n"  # read as a class diagram; PlantUML refuses it

#: What the fake model writes per category asked and level: every class diagram asked
#: is one; of the sequence diagrams asked, the low one is one, the medium one is a class
#: diagram (renders, but as another category) and the high one does not render.
CODES = {"UML class diagram": {"low": CLASS, "medium": CLASS, "high": CLASS},
         "UML sequence diagram": {"low": SEQUENCE, "medium": CLASS, "high": BROKEN}}


def _reply(prompt: str) -> str:
    category = re.search(r"^Category: (.+)$", prompt, re.M)
    level = re.search(r"^Complexity: (\w+)$", prompt, re.M)
    assert category is not None and level is not None
    code = CODES[category[1]][level[1]]
    return f"Problem:\n\nP\n\nFunctionality:\n\nD\n\nCode:\n\n```plantuml\n{code}```\n"


@pytest.fixture(scope="module")
def fake_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("codegen-categories")
    env = {**os.environ, "OPENAI_API_KEY": "k", "DIAGBENCH_CACHE": str(tmp / "c.sqlite")}
    run = tmp / "run"
    with FakeServer(reply=_reply) as server:
        done = run_cli("eval", "codegen", "--categories", "class,sequence", "--languages",
                       "plantuml", "--per-category", "1", "--prompting", "all-in-one",
                       "--model", f"openai:coder@{server.base_url}", "--out", str(run), env=env)
        assert done.returncode == 0, done.stderr
        assert len(server.requests) == 6
    return run, done.stdout


def test_wrong_category_is_invalid_and_counted_apart(fake_run):
    run, _ = fake_run
    scores = {s["id"]: s for s in map(json.loads, (run / "scores.jsonl").read_text(
        encoding="utf-8").splitlines())}
    got = {i: (s["status"], s["valid"], s["kind"]) for i, s in scores.items()}
    assert got == {
        "class-plantuml-000.low.all-in-one": ("ok", True, "class"),
        "class-plantuml-000.medium.all-in-one": ("ok", True, "class"),
        "class-plantuml-000.high.all-in-one": ("ok", True, "class"),
        "sequence-plantuml-000.low.all-in-one": ("ok", True, "sequence"),
        # renders, as a class diagram: invalid, counted apart
        "sequence-plantuml-000.medium.all-in-one": ("wrong_category", False, "class"),
        # does not render: invalid for that (its kind is not what makes it invalid)
        "sequence-plantuml-000.high.all-in-one": ("ok", False, "class"),
    }
    wrong = scores["sequence-plantuml-000.medium.all-in-one"]["error"]
    assert wrong == ("drawn as a diagram of kind 'class', where the category sequence "
                     "asked for 'sequence'")
    assert "Syntax Error" in scores["sequence-plantuml-000.high.all-in-one"]["error"]


def test_summary_per_category_and_frl(fake_run):
    run, _ = fake_run
    m = next(iter(json.loads((run / "summary.json").read_text())["models"].values()))
    assert m["outcomes"] == {"ok": 5, "wrong_category": 1}
    assert m["failures"]["unparsed"] == 0  # a wrong category is read, not a failure
    # all-in-one over both categories: 4 valid of 6, 1 of them wrong category
    aio = m["promptings"]["all-in-one"]
    assert (aio["n"], aio["valid"], aio["wrong_category"]) == (6, 4, 1)
    assert aio["validity"] == pytest.approx(400 / 6)
    assert aio["by_complexity"]["medium"] == {"n": 2, "valid": 1, "validity": 50.0,
                                              "wrong_category": 1}
    assert list(m["cells"]) == ["class|plantuml|all-in-one", "sequence|plantuml|all-in-one"]
    cls, seq = m["cells"].values()
    assert (cls["n"], cls["valid"], cls["validity"], cls["wrong_category"]) == (3, 3, 100.0, 0)
    assert (seq["n"], seq["valid"], seq["wrong_category"]) == (3, 1, 1)
    assert seq["validity"] == pytest.approx(100 / 3)
    assert [seq["by_complexity"][c]["validity"] for c in COMPLEXITIES] == [100.0, 0.0, 0.0]
    assert seq["kinds_read"] == {"class": 1} and cls["kinds_read"] == {}
    # class: 5, 5, 5 lines → no check holds; sequence: 4, 5, 3 → medium ≥ 1.1 · low holds
    assert cls["consistency"] == 0.0
    assert seq["consistency"] == pytest.approx(100 / 3)
    assert m["frls"] == {
        "class|plantuml": {"n": 3, "valid": 3, "validity": 100.0, "wrong_category": 0},
        "sequence|plantuml": {"n": 3, "valid": 1, "validity": pytest.approx(100 / 3),
                              "wrong_category": 1}}


def test_printed_lines_report_and_leaderboard(fake_run, tmp_path):
    run, stdout = fake_run
    assert "  class / plantuml: openai:coder all-in-one 100.0 of 3" in stdout
    assert ("  sequence / plantuml: openai:coder all-in-one 33.3 of 3, 1 wrong category"
            in stdout)
    html = (run / "report.html").read_text(encoding="utf-8")
    assert "Tables 6–8" in html and "Codes drawn as another category" in html
    assert "33.3 (n 3, 1 wrong category)" in html
    done = run_cli("leaderboard", str(run), "--format", "json")
    assert done.returncode == 0, done.stderr
    board = json.loads(done.stdout)
    titles = [c["title"] for c in board["columns"]]
    assert titles == ["codegen validity all-in-one", "codegen validity class/plantuml",
                      "codegen validity sequence/plantuml"]
    [row] = board["rows"]
    cells = row["cells"]
    assert (cells["codegen validity all-in-one"]["value"], cells[
        "codegen validity all-in-one"]["n"]) == (pytest.approx(400 / 6), 6)
    assert (cells["codegen validity class/plantuml"]["value"],
            cells["codegen validity class/plantuml"]["n"]) == (100.0, 3)
    assert (cells["codegen validity sequence/plantuml"]["value"],
            cells["codegen validity sequence/plantuml"]["n"]) == (pytest.approx(100 / 3), 3)


def test_a_summary_without_the_cells_is_a_clear_error(fake_run, tmp_path):
    run, _ = fake_run
    old = tmp_path / "old"
    shutil.copytree(run, old)
    summary = json.loads((old / "summary.json").read_text(encoding="utf-8"))
    for m in summary["models"].values():
        del m["cells"]  # as diagbench wrote it before it scored per category × FRL
    (old / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    done = run_cli("report", "codegen", str(old))
    assert done.returncode == 3
    assert "not a summary of codegen" in done.stderr
    assert "openai:coder has no cells per category × FRL" in done.stderr
    assert "Traceback" not in done.stderr


# --- baseline:synth covers every category × FRL of the table ---------------------------

@pytest.mark.parametrize("category", [c.name for c in CATEGORIES])
def test_synth_writes_every_category_as_asked(category):
    """What baseline:synth writes for a category, in each of its FRLs and at each level,
    is read by the FRL's reader as a diagram of that category (so that the seeded
    offline run covers every category, none of them drawn as another)."""
    samples = plan([category], list(names()), 1, list(COMPLEXITIES), ["all-in-one"], 0)
    assert {s.language for s in samples} == set(languages_of(category))
    for s in samples:
        code = split_answer(synth_answer(first_ask(s).prompt)).code
        assert code is not None, s.id
        read = named(s.language).read(code)
        assert read and read[0].kind in category_named(category).kinds, (s.id, code[:200])


def test_no_category_is_left_without_a_frl():
    assert all(languages_of(c.name) for c in CATEGORIES)
