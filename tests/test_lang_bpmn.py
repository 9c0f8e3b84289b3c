"""BPMN 2.0 XML: bpmn-moddle's reading against the MIWG test suite (each tool's export of
a reference model reads to the reference's model), bpmn-js drawing what was read, the
similarity on hand-worked numbers, facts, the generator, the edit and the rewrite, and
no entity or URL ever read. One render batch (one browser) serves the module."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from diagbench.languages import named
from diagbench.languages.bpmn.moddle import shared
from diagbench.languages.bpmn.model import label
from diagbench.languages.bpmn.synth import TASKS
from tests.canary import canary_server

BPMN = named("bpmn")
ROOT = Path(__file__).resolve().parents[1]
MIWG = ROOT.parent / "shared" / "data" / "realworld" / "bpmn-miwg-test-suite"
REFERENCES = sorted((MIWG / "Reference").glob("*.bpmn"))
EXAMPLE = BPMN.example_paths()[0]
CANARY_SECRET = "CANARY-7f3e1c"

pytestmark = pytest.mark.skipif(not MIWG.is_dir(), reason="the MIWG suite is not there")


def text(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "replace")


def exports() -> list[tuple[Path, Path]]:
    """(reference, a tool's export of it) for every reference model."""
    return [(ref, export) for ref in REFERENCES
            for export in sorted(MIWG.glob(f"*/{ref.stem}-*.bpmn"))]


# --- the MIWG oracle: each tool's export reads to the reference's model -----------------

#: The exports that differ from their reference, and how (found in the files themselves).
DIFFERENT = {
    ("Camunda Eclipse Plugin 3.0.0", "A.4.1"): "endEvent/endevent1",  # an empty process
    ("SAP Signavio Process Manager 19.9.0", "C.1.1"): "dataObjectReference/approved",  # unnamed
    ("bpmn.io (Camunda Modeler) 18.6.1", "C.1.1"): "userTask/rechnungklären",  # mis-encoded
    ("Camunda Eclipse Plugin 3.0.0", "C.3.0"): "subProcess/performemergencyrepair",  # a call
    ("SAP Signavio Process Manager 19.9.0", "C.3.0"): "endEvent/repaircompleted",  # unnamed
    ("SAP Signavio Process Manager 19.9.0", "C.9.2"): "endEvent/fraudnodetected",  # renamed
}


@pytest.mark.parametrize(("reference", "export"), exports(),
                         ids=lambda p: f"{p.parent.name[:12]}/{p.name}")
def test_each_tools_export_reads_to_the_reference_model(reference, export):
    comparison = BPMN.compare_code(text(reference), text(export), True)
    difference = DIFFERENT.get((export.parent.name, reference.stem))
    if difference is None:
        assert comparison.score == 1.0, comparison.as_dict()
    else:
        assert comparison.score < 1.0
        assert difference in comparison.entities.missing


def test_the_oracle_covers_four_tools_and_every_reference():
    pairs = exports()
    assert len(pairs) == 22 and {r for r, _ in pairs} == set(REFERENCES)
    assert len({e.parent.name for _, e in pairs}) == 4
    assert len(pairs) - len(DIFFERENT) == 16


# --- one render batch for the module ------------------------------------------------------


@pytest.fixture(scope="module")
def listener():
    """A real HTTP server on 127.0.0.1 that records every request it gets."""
    with canary_server(CANARY_SECRET.encode()) as (port, hits):
        yield port, hits



@pytest.fixture(scope="module")
def canary_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("outside") / "canary.txt"
    path.write_text(CANARY_SECRET)
    return path


def entity_document(canary: Path, port: int) -> str:
    return (f'<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY f SYSTEM "file://{canary}">\n'
            f'<!ENTITY h SYSTEM "http://127.0.0.1:{port}/entity">]>\n'
            '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" '
            'id="d"><bpmn:process id="p"><bpmn:task id="t" name="x&f;&h;" />'
            '</bpmn:process></bpmn:definitions>\n')


def url_document(port: int) -> str:
    """A valid document naming URLs on the listener where a reader or browser might
    fetch them: the schema location, an image tag in a name, a documentation link."""
    return ('<?xml version="1.0"?>\n<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/'
            'BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            f'xsi:schemaLocation="http://www.omg.org/spec/BPMN/20100524/MODEL http://127.0.0.1:'
            f'{port}/schema.xsd" id="d"><bpmn:process id="p"><bpmn:startEvent id="s" />'
            f'<bpmn:task id="t" name="&lt;img src=&quot;http://127.0.0.1:{port}/name.png&quot;'
            f'&gt;"><bpmn:documentation>http://127.0.0.1:{port}/doc</bpmn:documentation>'
            '</bpmn:task><bpmn:sequenceFlow id="f" sourceRef="s" targetRef="t" />'
            '</bpmn:process></bpmn:definitions>\n')


BROKEN = text(MIWG / "Reference" / "C.1.1.bpmn")[:3000] + "(((\n"
B_1_0 = sorted(MIWG.glob("*/B.1.0-*.bpmn"))


@pytest.fixture(scope="module")
def drawn(tmp_path_factory, listener, canary_file):
    """{name: (source, render result)} of the references, the B.1.0 exports, a broken
    document, the example, a generated one and the canary documents, in one batch."""
    port, _ = listener
    named_sources = [(p.name, text(p)) for p in REFERENCES]
    named_sources += [(f"{p.parent.name}/{p.name}", text(p)) for p in B_1_0]
    named_sources += [("broken", BROKEN), ("example", EXAMPLE.read_text()),
                      ("generated", BPMN.generate(random.Random(5), "medium")),
                      ("entities", entity_document(canary_file, port)),
                      ("urls", url_document(port))]
    folder = tmp_path_factory.mktemp("bpmn-drawn")
    results = BPMN.make_engine(1, 60.0).render([s for _, s in named_sources], folder, "svg")
    return {name: (source, result)
            for (name, source), result in zip(named_sources, results, strict=True)}


def test_bpmn_js_draws_what_was_read_on_the_references(drawn):
    for reference in REFERENCES:
        source, result = drawn[reference.name]
        assert result.ok, result.error
        counts = BPMN.drawn("process", result.image.read_text()).counts
        read = BPMN.read(source)[0].counts()
        assert {k: counts[k] for k in read} == read, reference.name


def test_a_collapsed_sub_process_draws_its_content_on_its_own_plane(drawn):
    """B.1.0's two collapsed sub-processes hold 2 tasks, 2 start and 2 end events and 4
    flows that bpmn-js draws on their own planes, not on the page it exports."""
    for path in B_1_0[1:]:  # the two exports that keep the collapsed content
        source, result = drawn[f"{path.parent.name}/{path.name}"]
        counts = BPMN.drawn("process", result.image.read_text()).counts
        read = BPMN.read(source)[0].counts()
        assert (read["tasks"] - counts["tasks"], read["start_events"] - counts["start_events"],
                read["end_events"] - counts["end_events"],
                read["sequence_flows"] - counts["sequence_flows"]) == (2, 2, 2, 4)


def test_a_document_without_layout_is_laid_out_and_drawn(drawn):
    source, result = drawn["generated"]
    [parsed] = BPMN.read(source)
    assert not parsed.diagram.laid_out and result.ok, result.error
    counts = BPMN.drawn("process", result.image.read_text()).counts
    assert {k: counts[k] for k in parsed.counts()} == parsed.counts()


def test_a_broken_document_scores_0_with_the_tools_own_error(drawn):
    [parsed] = BPMN.read(BROKEN)
    [error] = parsed.errors
    assert error.reason.startswith("BPMN not read: unparsable content") and error.line > 1
    _, result = drawn["broken"]
    assert not result.ok and "unparsable content" in result.error
    assert result.error_line == error.line
    gold = text(MIWG / "Reference" / "C.1.1.bpmn")
    assert BPMN.compare_code(gold, BROKEN, result.ok).score == 0.0


def test_the_other_format_of_a_drawn_source_is_not_drawn_again(tmp_path):
    """An engine keeps what bpmn-js drew: the PNG of a source whose SVG it drew is that
    SVG rasterised, and a broken source keeps its error, with no drawing in between."""
    from diagbench.languages.bpmn import engine as module
    from diagbench.render.programs import svg_to_png

    engine = BPMN.make_engine(1, 60.0)
    [svg, bad] = engine.render([EXAMPLE.read_text(), BROKEN], tmp_path, "svg")
    assert svg.ok and not bad.ok
    drawn = module._browser(0).drawn
    [png, bad_png] = engine.render([EXAMPLE.read_text(), BROKEN], tmp_path, "png")
    assert module._browser(0).drawn == drawn
    assert png.image.read_bytes() == svg_to_png(svg.image.read_bytes(), 60.0)
    assert (bad_png.error, bad_png.error_line) == (bad.error, bad.error_line)


def test_the_same_document_draws_the_same_svg(tmp_path):
    """bpmn-js names its arrow markers at random: diagbench's SVGs do not (the engine
    closed in between, so that bpmn-js draws the document again)."""
    engine = BPMN.make_engine(1, 60.0)
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    [first] = engine.render([EXAMPLE.read_text()], tmp_path / "a", "svg")
    engine.close()
    [again] = engine.render([EXAMPLE.read_text()], tmp_path / "b", "svg")
    engine.close()
    assert b"marker-1" in first.image.read_bytes()
    assert first.image.read_bytes() == again.image.read_bytes()


@pytest.mark.parametrize("reference", REFERENCES, ids=lambda p: p.name)
def test_gold_scores_1_one_change_between_and_a_rewrite_1(reference):
    gold = text(reference)
    assert BPMN.compare_code(gold, gold, True).score == 1.0
    rng = random.Random(1)
    changed = BPMN.edit(gold, rng)
    assert changed is not None and 0.0 < BPMN.compare_code(gold, changed, True).score < 1.0
    rewritten = BPMN.rewrite(gold, rng)
    assert rewritten is not None and rewritten != gold
    assert BPMN.compare_code(gold, rewritten, True).score == 1.0


# --- security: no entity, file or URL is ever read ---------------------------------------


def test_entities_are_refused_and_neither_the_file_nor_the_url_is_read(drawn, listener,
                                                                     canary_file):
    _, hits = listener
    source, result = drawn["entities"]
    [parsed] = BPMN.read(source)
    assert [e.reason.split(" (")[0] for e in parsed.errors] == [
        "DOCTYPE and entity declarations are refused"]
    assert (parsed.errors[0].line, parsed.errors[0].column) == (2, 1)
    assert not result.ok and "refused" in result.error
    # bpmn-moddle itself, given the declaration, expands neither entity
    answer = shared().read(source)
    assert CANARY_SECRET not in json.dumps(answer.model)
    assert hits == []


def test_urls_in_a_document_are_not_fetched_by_the_reader_or_the_browser(drawn, listener):
    _, hits = listener
    source, result = drawn["urls"]
    assert result.ok, result.error
    assert BPMN.read(source)[0].errors == ()
    assert hits == []


# --- the similarity, worked by hand ------------------------------------------------------


def process(nodes: str, flows: list[tuple[str, str, str]]) -> str:
    body = "".join(f'<bpmn:sequenceFlow id="f{k}" sourceRef="{s}" targetRef="{t}"'
                   + (f' name="{n}"' if n else "") + " />" for k, (s, t, n) in enumerate(flows))
    return ('<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" '
            f'id="d"><bpmn:process id="p">{nodes}{body}</bpmn:process></bpmn:definitions>')


NODES = ('<bpmn:startEvent id="S" name="Start" /><bpmn:task id="A" name="Check" />'
         '<bpmn:exclusiveGateway id="G" name="OK?" /><bpmn:task id="B" name="{b}" />'
         '<bpmn:task id="C" name="Reject" /><bpmn:endEvent id="E" name="Done" />')
FLOWS = [("S", "A", ""), ("A", "G", ""), ("G", "B", "yes"), ("G", "C", "no"), ("B", "E", ""),
         ("C", "E", "")]
GOLD = process(NODES.format(b="Pay"), FLOWS)


def test_a_renamed_task_loses_the_element_and_its_two_flows():
    """Elements 5 of 6 on each side: F1 5/6; flows: the two at the renamed task have an
    unmatched end, 4 of 6: F1 4/6; score (5/6 + 4/6) / 2 = 0.75."""
    pred = process(NODES.format(b="Pay now"), FLOWS)
    comparison = BPMN.compare_code(GOLD, pred, True)
    assert (comparison.entities.matched, comparison.relations.matched) == (5, 4)
    assert comparison.score == pytest.approx(0.75)


def test_a_rewired_flow_loses_one_flow():
    """Elements all matched (F1 1); flows 5 of 6 (F1 5/6); score (1 + 5/6) / 2 = 11/12."""
    pred = process(NODES.format(b="Pay"), [*FLOWS[:3], ("G", "A", "no"), *FLOWS[4:]])
    assert BPMN.compare_code(GOLD, pred, True).score == pytest.approx(11 / 12)


def test_an_extra_flow_costs_precision_only():
    """Flows: 6 matched of 6 gold and 7 predicted: P 6/7, R 1, F1 12/13; score
    (1 + 12/13) / 2 = 25/26."""
    pred = process(NODES.format(b="Pay"), [*FLOWS, ("G", "E", "")])
    assert BPMN.compare_code(GOLD, pred, True).score == pytest.approx(25 / 26)


def test_a_flow_label_counts_and_an_unrendered_prediction_scores_0():
    pred = process(NODES.format(b="Pay"), [*FLOWS[:2], ("G", "B", "maybe"), *FLOWS[3:]])
    assert BPMN.compare_code(GOLD, pred, True).score == pytest.approx(11 / 12)
    assert BPMN.compare_code(GOLD, GOLD, False).score == 0.0


def test_ids_are_not_scored_and_like_elements_are_told_apart_by_their_flows():
    """Two unnamed parallel gateways, written in the other order under other ids: the
    assignment pairs the split with the split (their flows agree), so the score is 1."""
    nodes = ('<bpmn:startEvent id="{s}" /><bpmn:parallelGateway id="{p1}" />'
             '<bpmn:parallelGateway id="{p2}" /><bpmn:task id="{a}" name="One" />'
             '<bpmn:task id="{b}" name="Two" /><bpmn:endEvent id="{e}" />')
    ids = {"s": "S", "p1": "Split", "p2": "Join", "a": "A", "b": "B", "e": "E"}
    flows = [("S", "Split", ""), ("Split", "A", ""), ("Split", "B", ""), ("A", "Join", ""),
             ("B", "Join", ""), ("Join", "E", "")]
    gold = process(nodes.format(**ids), flows)
    other = {"S": "x1", "Split": "x3", "Join": "x2", "A": "x4", "B": "x5", "E": "x6"}
    swapped = nodes.replace("{p1}", "@").replace("{p2}", "{p1}").replace("@", "{p2}")
    pred = process(swapped.format(**{k: other[v] for k, v in ids.items()}),
                   [(other[s], other[t], n) for s, t, n in flows])
    assert BPMN.compare_code(gold, pred, True).score == 1.0


# --- facts, generator, parse --json -------------------------------------------------------


def test_the_facts_of_the_example():
    [parsed] = BPMN.read(EXAMPLE.read_text())
    facts = {f.question: f.answer for f in BPMN.facts(parsed.diagram)}
    assert facts['Which task follows the "yes" branch of the exclusive gateway '
                 '"Over 1,000 EUR?"?'] == "Approve invoice"
    assert facts['Which task follows the "no" branch of the exclusive gateway '
                 '"Over 1,000 EUR?"?'] == "Approve automatically"
    assert facts["How many tasks does the diagram show?"] == 5
    assert facts["How many gateways does the diagram show?"] == 4
    assert facts['What comes right after the task "Check invoice"?'] == "Over 1,000 EUR?"


def test_lane_facts_on_a_collaboration():
    """Reference A.4.1: Task 1 and Task 2 in Lane 1 (Pool 1), Task 3 in "Lane 2 " (its
    name ends with a space, read as "Lane 2")."""
    [parsed] = BPMN.read(text(MIWG / "Reference" / "A.4.1.bpmn"))
    facts = {f.question: f.answer for f in BPMN.facts(parsed.diagram) if f.subject == "lane"}
    assert facts == {'Which lane holds the task "Task 1"?': "Lane 1",
                     'Which lane holds the task "Task 2"?': "Lane 1",
                     'Which lane holds the task "Task 3"?': "Lane 2"}
    assert (parsed.counts()["lanes"], parsed.counts()["pools"]) == (3, 2)


def test_names_read_as_drawn():
    assert label("Invoice\r\napproved?") == "Invoice approved?"


@pytest.mark.parametrize("complexity", ["low", "medium", "high"])
def test_the_generator_is_seeded_and_sized(complexity):
    code = BPMN.generate(random.Random(7), complexity)
    assert code == BPMN.generate(random.Random(7), complexity)
    low, high = TASKS[complexity]
    [parsed] = BPMN.read(code)
    assert parsed.diagnostics == () and low <= parsed.counts()["tasks"] <= high


def test_parse_json_reports_the_process_counts():
    done = subprocess.run([sys.executable, "-m", "diagbench", "parse", "--json", str(EXAMPLE)],
                          capture_output=True, text=True, timeout=120, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    [diagram] = json.loads(done.stdout)
    counts = diagram["counts"]
    assert {k: counts[k] for k in ("tasks", "events", "gateways", "sequence_flows",
                                   "message_flows", "lanes", "pools")} == {
        "tasks": 5, "events": 3, "gateways": 4, "sequence_flows": 13, "message_flows": 0,
        "lanes": 0, "pools": 0}


def test_a_document_is_recognised_by_its_root_in_bpmns_namespace():
    model = "http://www.omg.org/spec/BPMN/20100524/MODEL"
    assert BPMN.recognises(f"<definitions xmlns='{model}' id='d'/>")
    assert BPMN.recognises(f'<?xml version="1.0"?>\n<bpmn2:definitions xmlns:bpmn2="{model}">')
    assert not BPMN.recognises(f'<process xmlns="{model}"/>')
    assert not BPMN.recognises("graph TD; A-->B")
