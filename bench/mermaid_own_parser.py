"""Reading Mermaid's flowchart, class, ER and state diagrams through Mermaid's own
diagram database (the warm mermaid-cli page, `languages/mermaid/own.py`) against
diagbench's hand readers (`formats.mermaid`): how often each one's counts (entities,
relations, clusters, notes) agree with what mermaid-cli drew (`render.graph_svg`), and
the seconds per diagram of each (wall time of one warm read; the page's start apart);
then the same for the Gantt charts and mind maps, read only by Mermaid's parser, and
the diagrams per second mermaid-cli renders them.

From Mermaid's database (`db.getData()`: the nodes and edges Mermaid lays out): entities
are the nodes that are neither groups nor notes, clusters the groups (a state's
concurrency dividers too, not its note groups), notes the note nodes, relations the
edges that are neither invisible nor attached to a note.

Usage: python bench/mermaid_own_parser.py [--data ../shared/data/realworld]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

KINDS = ("flowchart", "class", "er", "state")
KEYS = ("entities", "relations", "clusters", "notes")


def own_counts(db: dict[str, Any]) -> dict[str, int]:
    """The graph counts of Mermaid's layout data (see the module's docstring)."""
    notes = {n["id"] for n in db["nodes"] if n["shape"] == "note"}
    return {"entities": sum(not n["group"] and n["shape"] != "note" for n in db["nodes"]),
            "relations": sum(e["stroke"] != "invisible" and e["start"] not in notes
                             and e["end"] not in notes for e in db["edges"]),
            "clusters": sum(n["group"] and n["shape"] != "noteGroup"
                            for n in db["nodes"]),
            "notes": len(notes)}


def files(data: Path) -> list[Path]:
    return sorted(p for pattern in ("mermaid-docs*/*/*.mmd", "mermaid/**/*.mmd")
                  for p in data.glob(pattern))


def main() -> None:
    from diagbench.formats.mermaid import read_mermaid
    from diagbench.languages import named
    from diagbench.languages.mermaid.own import shared
    from diagbench.languages.mermaid.reading import own_kind, read_own

    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2]
                        / "shared" / "data" / "realworld")
    args = parser.parse_args()
    language = named("mermaid")
    graphs, owns = [], []
    for path in files(args.data):
        text = path.read_text(encoding="utf-8")
        kind = own_kind(text)
        if kind:
            owns.append((path, text, kind))
            continue
        [hand] = read_mermaid(text)
        if hand.kind in KINDS:
            graphs.append((path, text, hand.kind))
    own = shared()
    start = time.perf_counter()
    own.read("flowchart TD\n  a --> b")
    started = time.perf_counter() - start

    with tempfile.TemporaryDirectory() as folder:
        engine = language.make_engine(2, 60.0)
        start = time.perf_counter()
        svgs = engine.render([t for _, t, _ in graphs + owns], Path(folder), "svg")
        render_seconds = time.perf_counter() - start
        drawn_svg = [r.image.read_text(encoding="utf-8") if r.ok and r.image else None
                     for r in svgs]

    rows: dict[str, dict[str, list[float]]] = {}
    for (_, text, kind), svg in zip(graphs, drawn_svg[:len(graphs)], strict=True):
        row = rows.setdefault(kind, {"n": [], "hand_ok": [], "own_ok": [], "hand_s": [],
                                     "own_s": [], "own_refused": []})
        t = time.perf_counter()
        [hand] = read_mermaid(text)
        row["hand_s"].append(time.perf_counter() - t)
        t = time.perf_counter()
        answer = own.read(text)
        row["own_s"].append(time.perf_counter() - t)
        row["n"].append(1)
        row["own_refused"].append(not answer.ok)
        if svg is None:
            continue
        drawn = language.drawn(kind, svg).counts
        hand_counts = hand.counts() if not hand.errors else {}
        mine = own_counts(answer.db) if answer.ok and answer.db and "nodes" in answer.db else {}
        row["hand_ok"].append(all(hand_counts.get(k) == drawn.get(k) for k in KEYS
                                  if k in drawn))
        row["own_ok"].append(all(mine.get(k) == drawn.get(k) for k in KEYS if k in drawn))

    print(f"Mermaid's page started in {started:.1f} s; mermaid-cli drew {len(svgs)} "
          f"diagrams in {render_seconds:.1f} s ({len(svgs) / render_seconds:.1f} per s)")
    print(f"{'kind':10} {'files':>5} {'hand=drawn':>10} {'own=drawn':>10} "
          f"{'hand ms':>8} {'own ms':>8} {'ratio':>6}")
    for kind, row in rows.items():
        hand_ms = statistics.median(row["hand_s"]) * 1000
        own_ms = statistics.median(row["own_s"]) * 1000
        print(f"{kind:10} {len(row['n']):>5} {sum(row['hand_ok']):>5}/{len(row['hand_ok']):<4} "
              f"{sum(row['own_ok']):>5}/{len(row['own_ok']):<4} {hand_ms:8.2f} {own_ms:8.2f} "
              f"{own_ms / hand_ms:6.1f}")

    for kind in ("gantt", "mindmap"):
        mine = [(text, svg) for (_, text, k), svg in zip(owns, drawn_svg[len(graphs):],
                                                         strict=True) if k == kind]
        seconds, agree = [], 0
        for text, svg in mine:
            t = time.perf_counter()
            parsed = read_own(text, kind)
            seconds.append(time.perf_counter() - t)
            if svg is not None and not parsed.errors:
                drawn = language.drawn(kind, svg).counts
                agree += all(drawn[k] == v for k, v in parsed.counts().items())
        print(f"{kind:10} {len(mine):>5} {'':>10} {agree:>5}/{len(mine):<4} {'':>8} "
              f"{statistics.median(seconds) * 1000:8.2f} "
              f"({len(mine) / sum(seconds):.0f} read per s)")


if __name__ == "__main__":
    main()
