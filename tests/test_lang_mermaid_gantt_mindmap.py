"""Mermaid Gantt charts and mind maps, read by Mermaid's own parser (the diagram's database
in the warm mermaid-cli page), on the real charts and maps of Mermaid's documentation
(`../shared/data/realworld/mermaid-docs*`, MIT, Knut Sveidqvist): counts as mermaid-cli
draws them, dates as Mermaid computes them, the similarities on hand-worked numbers,
facts, edits, Mermaid's own errors, and no request leaving the browser."""

from __future__ import annotations

import http.server
import random
import threading
from pathlib import Path

import pytest

from diagbench.formats.parsed import Parsed
from diagbench.languages import named
from diagbench.languages.mermaid.gantt import Gantt, Task
from diagbench.languages.mermaid.mindmap import MindMap, MindNode

REALWORLD = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "realworld"
GANTT = sorted(REALWORLD.glob("mermaid-docs*/gantt/*.mmd"))
MINDMAPS = sorted(REALWORLD.glob("mermaid-docs*/mindmap/*.mmd"))
MERMAID = named("mermaid")

needs_data = pytest.mark.skipif(not GANTT or not MINDMAPS,
                                reason="the real Mermaid documentation files are absent")


def _read(path: Path) -> Parsed:
    [parsed] = MERMAID.read(path.read_text(encoding="utf-8"))
    return parsed


BROKEN_GANTT = ("gantt-fence00.mmd", "Another task    :after a1, 20d", "Another task    :")
BROKEN_MINDMAP = ("mindmap-fence01.mmd", "      C\n", "      C\nSecond root\n")


def _broken(name: str, old: str, new: str) -> tuple[str, str]:
    """(gold, the gold broken) of the real file `name`."""
    gold = next(p for p in GANTT + MINDMAPS if p.name == name).read_text(encoding="utf-8")
    assert old in gold
    return gold, gold.replace(old, new)


@pytest.fixture(scope="module")
def listener():
    """A real HTTP server on 127.0.0.1 that records every request it gets."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", hits
    server.shutdown()
    server.server_close()


def _canaries(url: str) -> list[str]:
    """A chart whose tasks link to the canary server, a map whose labels load images
    from it (and run a script when they fail)."""
    gantt = (f"gantt\n    dateFormat YYYY-MM-DD\n    section S\n"
             f"    A task :a1, 2025-01-01, 3d\n    B task :b1, after a1, 2d\n"
             f'    click a1 href "{url}/click"\n    click b1 call fetch("{url}/call")\n')
    mind = (f'mindmap\n  root["<img src=\'{url}/root.png\'>"]\n'
            f'    A["<img src=\'{url}/a.png\' onerror=\'fetch(`{url}/js`)\'>"]\n'
            f"    ::icon({url}/icon)\n")
    return [gantt, mind]


@pytest.fixture(scope="module")
def rendered(listener, tmp_path_factory) -> dict[str, tuple[bool, str]]:
    """mermaid-cli's drawing (SVG, the engine of `diagbench render`, one batch) of every
    real file, the two broken files and the canaries: (drawn, its SVG or its error) by
    file name ("broken-…", "canary-<k>")."""
    names = [p.name for p in GANTT + MINDMAPS]
    codes = [p.read_text(encoding="utf-8") for p in GANTT + MINDMAPS]
    for broken in (BROKEN_GANTT, BROKEN_MINDMAP):
        names.append(f"broken-{broken[0]}")
        codes.append(_broken(*broken)[1])
    for k, code in enumerate(_canaries(listener[0])):
        names.append(f"canary-{k}")
        codes.append(code)
    results = MERMAID.make_engine(2, 60.0).render(codes, tmp_path_factory.mktemp("drawn"),
                                                  "svg")
    return {name: (r.ok, r.image.read_text(encoding="utf-8") if r.ok and r.image
                   else r.error or "")
            for name, r in zip(names, results, strict=True)}


@needs_data
def test_real_files_read_as_mermaid_draws_them(rendered):
    drawn = {}
    for path in GANTT + MINDMAPS:
        ok, svg = rendered[path.name]
        assert ok, (path.name, svg)
        drawn[path.name] = MERMAID.drawn("gantt" if path.parent.name == "gantt" else "mindmap",
                                         svg).counts
        parsed = _read(path)
        assert parsed.errors == (), path.name
        assert parsed.kind == ("gantt" if path.parent.name == "gantt" else "mindmap")
        assert parsed.counts() == drawn[path.name], path.name
    # the three sections and sixteen bars of the documentation's big chart, by hand
    assert drawn["gantt-fence01.mmd"] == {"sections": 4, "tasks": 16, "milestones": 1,
                                          "markers": 0}
    assert drawn["mindmap-fence00.mmd"] == {"nodes": 15, "edges": 14, "depth": 4}


@needs_data
def test_dates_are_those_mermaid_computes():
    """`excludes weekends` and `after`: 2014-01-09 is a Thursday; 3 days of work are
    Thu, Fri, Mon (the end, exclusive, Tue 14th); `after des2, 5d` starts then and works
    Tue, Wed, Thu, Fri, Mon (ends Tue 21st)."""
    chart = _read(next(p for p in GANTT if p.name == "gantt-fence01.mmd")).diagram
    assert isinstance(chart, Gantt)
    by_id = {t.id: t for t in chart.tasks}
    assert (by_id["des2"].start, by_id["des2"].end) == ("2014-01-09T00:00:00",
                                                        "2014-01-14T00:00:00")
    assert (by_id["des3"].start, by_id["des3"].end) == ("2014-01-14T00:00:00",
                                                        "2014-01-21T00:00:00")
    assert by_id["des3"].after == ("des2",) and by_id["des2"].active
    assert by_id["isadded"].milestone
    [until] = [t for t in chart.tasks if t.until]
    # `until isadded` ends where the milestone starts, Saturday 25th; Mermaid then moves
    # the end of a task past the excluded days of its span: Sat 25th, Sun 26th → 27th
    assert (until.name, by_id["isadded"].start) == ("Add to mermaid", "2014-01-25T00:00:00")
    assert until.end == "2014-01-27T00:00:00"


@needs_data
def test_facts_of_real_files():
    chart = _read(next(p for p in GANTT if p.name == "gantt-fence00.mmd")).diagram
    facts = {f.question: f.answer for f in MERMAID.facts(chart)}
    # A task 1–31 Jan, Another task 31 Jan–20 Feb, Task in Another 12–24 Jan, another
    # task 24 Jan–17 Feb
    assert facts["Which task ends last?"] == "Another task"
    assert facts["Which task starts first?"] == "A task"
    assert facts['How many task bars are in the section "Another"?'] == 2
    mind = _read(next(p for p in MINDMAPS if p.name == "mindmap-fence00.mmd")).diagram
    facts = {f.question: f.answer for f in MERMAID.facts(mind)}
    assert facts['How many children does the root node "mindmap" have?'] == 3
    assert facts["How many levels below the root does the deepest node of the mind map "
                 "lie?"] == 4
    assert facts['Which node is the parent of "Uses"?'] == "On Automatic creation"
    assert facts["What is the label of the central (root) node of the mind map?"] == "mindmap"
    # Origins 4 nodes, Research 7, Tools 3
    assert facts["Which child of the root node has the most nodes in its branch (itself "
                 "included)?"] == "Research"
    assert isinstance(mind, MindMap) and mind.root is not None
    assert mind.root.shape == "circle"
    assert mind.root.children[0].children[0].icon == "fa fa-book"


@needs_data
def test_real_files_score_one_against_themselves_and_between_after_one_change():
    rng = random.Random(5)
    changed_files = 0
    for path in GANTT + MINDMAPS:
        code = path.read_text(encoding="utf-8")
        assert MERMAID.compare_code(code, code, True).score == 1.0, path.name
        same = MERMAID.rewrite(code, rng)
        assert same is not None and MERMAID.compare_code(code, same, True).score == 1.0, \
            path.name
        changed = MERMAID.edit(code, rng)
        if changed is None:  # a chart without bars, a map of fewer than three nodes
            continue
        assert 0.0 < MERMAID.compare_code(code, changed, True).score < 1.0, path.name
        changed_files += 1
    assert changed_files >= 12


@needs_data
def test_broken_files_score_zero_with_mermaids_own_error(rendered):
    for broken, line, says in ((BROKEN_GANTT, 6, "Parse error on line 6"),
                               (BROKEN_MINDMAP, 1, "only one root")):
        gold, code = _broken(*broken)
        [parsed] = MERMAID.read(code)
        assert len(parsed.errors) == 1 and parsed.errors[0].line == line
        assert says in parsed.errors[0].reason
        valid, error = rendered[f"broken-{broken[0]}"]
        assert not valid and error  # mermaid-cli refuses it too
        assert MERMAID.compare_code(gold, code, valid).score == 0.0


def _task(name: str, section: str, start: str, end: str) -> Task:
    return Task(name, section, f"2025-01-{start}T00:00:00", f"2025-01-{end}T00:00:00")


def _parsed(diagram, kind: str) -> Parsed:
    return Parsed(0, 1, "mermaid", kind, diagram, ())


def test_gantt_similarity_by_hand():
    gold = Gantt(tasks=(_task("A", "S", "01", "05"), _task("B", "S", "05", "08")))
    moved = Gantt(tasks=(_task("A", "S", "01", "05"), _task("B", "S", "06", "08")))
    scored = MERMAID.compare(_parsed(gold, "gantt"), _parsed(moved, "gantt"), True)
    # F1 = 1; D = (1 + 1/2) / 2 = 0.75; S = (1 + 0.75) / 2
    assert scored.score == pytest.approx(0.875)
    renamed = Gantt(tasks=(_task("A", "S", "01", "05"), _task("C", "S", "05", "08"),
                           _task(" a ", "T", "01", "05")))
    scored = MERMAID.compare(_parsed(gold, "gantt"), _parsed(renamed, "gantt"), True)
    # matched: A only (" a " is in another section) → F1 = 2·1/(2+3) = 0.4;
    # D = 1 / max(2, 3) = 1/3; S = (0.4 + 1/3) / 2
    assert scored.score == pytest.approx((0.4 + 1 / 3) / 2)
    assert MERMAID.compare(_parsed(gold, "gantt"), _parsed(gold, "gantt"), False).score == 0
    assert MERMAID.compare(_parsed(Gantt(), "gantt"), None, True).score == 1.0


def _node(label: str, *children: MindNode) -> MindNode:
    return MindNode(label, children=children)


def test_mindmap_similarity_by_hand():
    gold = MindMap(_node("R", _node("A"), _node("B", _node("C"))))
    moved = MindMap(_node("R", _node("A", _node("C")), _node("B")))
    scored = MERMAID.compare(_parsed(gold, "mindmap"), _parsed(moved, "mindmap"), True)
    # TED = 2 (C deleted, inserted): T = 1 − 2/8 = 0.75; label F1 = 1
    assert scored.score == pytest.approx(0.875)
    relabelled = MindMap(_node("R", _node("A"), _node("B", _node("D")), _node("E")))
    scored = MERMAID.compare(_parsed(gold, "mindmap"), _parsed(relabelled, "mindmap"), True)
    # TED = 1 rename + 1 insert = 2: T = 1 − 2/9; labels 3 of 4 and 5: F1 = 6/9
    assert scored.score == pytest.approx((1 - 2 / 9 + 6 / 9) / 2)
    assert MERMAID.compare(_parsed(gold, "mindmap"), None, True).score == 0.0


def test_labels_and_clicks_fetch_nothing(listener, rendered):
    """Read by Mermaid's own parser and drawn by mermaid-cli, neither the links, the
    images nor the script reach the canary server."""
    url, hits = listener
    for k, code in enumerate(_canaries(url)):
        [parsed] = MERMAID.read(code)
        assert not parsed.errors and sum(parsed.counts().values()) > 0
        assert rendered[f"canary-{k}"][0], rendered[f"canary-{k}"][1]
    # Mermaid keeps the images in the labels (its sanitiser allows <img>): it is the
    # browser, without network, that loads nothing
    assert f'<img src="{url}/root.png"' in rendered["canary-1"][1]
    assert hits == []
