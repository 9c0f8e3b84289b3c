"""A structure build holds no engine longer than it draws: each engine's processes end
once its samples are drawn (browsers, Node, JVMs, drawing workers), and reading's
Stockfish once the boards are read; a later render starts them again and draws the
same images."""

from __future__ import annotations

import os
import random
from pathlib import Path

from diagbench.benchmarks.structure.build import read_all, render_all
from diagbench.benchmarks.structure.planned import Planned
from diagbench.languages import named

#: One category of each kind of warm engine: a browser per Node process (Mermaid),
#: a drawing worker (RDKit), a pool of JVMs (VARNA), a pool of Node processes
#: (netlistsvg's analog skin), one shared Node reader (@dbml/core); and Stockfish,
#: which reading keeps.
PAIRS = (("gantt", "mermaid"), ("molecule", "smiles"), ("rna-structure", "dotbracket"),
         ("electrical-circuit", "spice"), ("er", "dbml"), ("chess-board", "fen"))


def _descendants() -> dict[int, str]:
    """The live processes below this one: pid → command name."""
    parents: dict[int, int] = {}
    names: dict[int, str] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                stat = Path(entry.path, "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if fields[0] == "Z":  # ended, not yet waited for
                continue
            parents[int(entry.name)] = int(fields[1])
            names[int(entry.name)] = stat[stat.index("(") + 1:stat.rindex(")")]
    found, todo = {}, [os.getpid()]
    while todo:
        pid = todo.pop()
        for child, parent in parents.items():
            if parent == pid and child not in found:
                found[child] = names[child]
                todo.append(child)
    return found


#: Code of the software languages (they have no generator of their own).
WRITTEN = {
    "mermaid": ["gantt\n  dateFormat YYYY-MM-DD\n  section Build\n"
                "  Design :a1, 2024-01-01, 3d\n  Code :after a1, 2d\n",
                "gantt\n  dateFormat YYYY-MM-DD\n  section Test\n  Plan :t1, 2024-02-01, 1d\n"],
    "dbml": ["Table users {\n  id int [pk]\n}\nTable posts {\n  id int [pk]\n"
             "  user_id int [ref: > users.id]\n}\n",
             "Table a {\n  id int [pk]\n}\n"],
}


def _samples() -> list[Planned]:
    return [Planned(f"{category}-{language}-{k:03d}", category, language, "low", "", "",
                    code=WRITTEN[language][k] if language in WRITTEN
                    else named(language).generate(random.Random(k), "low"))
            for category, language in PAIRS for k in range(2)]


def test_every_engine_ends_once_its_samples_are_drawn(tmp_path: Path):
    for _, language in PAIRS:  # what earlier tests left warm in this process
        named(language).release()
        named(language).make_engine(1).close()
    before = set(_descendants())
    samples = _samples()
    (tmp_path / "images").mkdir()
    read_all(samples)
    after_reading = {pid: name for pid, name in _descendants().items() if pid not in before}
    assert not any(name == "stockfish" for name in after_reading.values())
    seen: dict[int, str] = {}

    def snapshot(n: int) -> None:  # while engines draw
        seen.update({pid: name for pid, name in _descendants().items() if pid not in before})
    render_all(samples, tmp_path, 1, progress=snapshot)
    assert all(s.image for s in samples), [(s.id, s.reason, s.detail) for s in samples]
    # the engines had processes of their own while drawing
    assert {"node", "java"} <= set(seen.values())
    assert any(name.startswith("python") for name in seen.values())  # drawing workers
    left = {pid: name for pid, name in _descendants().items() if pid in seen}
    assert left == {}
    drawn = {s.id: s.sha256 for s in samples}
    for s in samples:
        s.image = None
    render_all(samples, tmp_path, 1)  # started again, the same drawings
    assert {s.id: s.sha256 for s in samples} == drawn
    assert not {pid for pid in _descendants() if pid not in before}


def test_engines_get_the_cores_shared_among_those_drawing_at_once(monkeypatch):
    """By default each engine of a build gets this machine's cores over the three
    engines drawing at once (one on two cores, two on eight); Ray's one pool gets as
    many renderers as the cluster has CPUs (capped there); `--jobs` wins."""
    from types import SimpleNamespace

    from diagbench.benchmarks.structure import build

    monkeypatch.setattr(build.os, "sched_getaffinity", lambda pid: {0, 1})
    assert build.engine_jobs(None, None) == 1
    assert build.engine_jobs(5, None) == 5
    monkeypatch.setattr(build.os, "sched_getaffinity", lambda pid: set(range(8)))
    assert build.engine_jobs(None, None) == 2
    ray = SimpleNamespace(name="ray")
    assert build.engine_jobs(None, ray) == 64  # type: ignore[arg-type]
    assert build.engine_jobs(3, ray) == 3  # type: ignore[arg-type]


def _browser_tools() -> set[str]:
    """The tools (`tools/<name>/render.mjs`) whose Node process, with its browser, runs
    below this process."""
    running = set()
    for pid in _descendants():
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        for part in command:
            if part.endswith(b"/render.mjs"):
                running.add(Path(part.decode()).parent.name)
    return running


def test_engines_drawing_in_a_browser_take_turns(tmp_path: Path):
    """Mermaid and bpmn-js both draw in a browser (`Language.browser`): a build lets one
    of them draw at a time, the other waiting until the first has ended its browser."""
    assert named("mermaid").browser and named("bpmn").browser
    assert not named("plantuml").browser and not named("smiles").browser
    for language in ("mermaid", "bpmn"):  # what earlier tests left warm in this process
        named(language).make_engine(1).close()
    samples = [Planned(f"gantt-mermaid-{k:03d}", "gantt", "mermaid", "low", "", "",
                       code=WRITTEN["mermaid"][k]) for k in range(2)]
    samples += [Planned(f"business-process-bpmn-{k:03d}", "business-process", "bpmn", "low",
                        "", "", code=named("bpmn").generate(random.Random(k), "low"))
                for k in range(2)]
    (tmp_path / "images").mkdir()
    read_all(samples)
    seen: list[set[str]] = []
    render_all(samples, tmp_path, 1, progress=lambda n: seen.append(_browser_tools()))
    assert all(s.image for s in samples), [(s.id, s.reason, s.detail) for s in samples]
    assert {"mermaid", "bpmn"} <= set().union(*seen)  # each drew in its browser
    assert all(len(running) <= 1 for running in seen), seen
