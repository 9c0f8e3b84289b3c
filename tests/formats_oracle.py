"""The engines as oracles of the Mermaid, DOT and DBML readers: render generated diagrams in
batch and compare counts (used by tests/test_formats_differential.py and
bench/graph_differential_formats.py).

Mermaid: mermaid-cli's SVG (`graph_svg.mermaid_statistics`); DOT: Graphviz's SVG
(`graph_svg.graphviz_statistics`); DBML: the reference parser @dbml/core (tables, refs,
table groups, sticky notes). A diagram the engine refuses is left out of the
comparison (`drawn` None): the generator may write what an engine rejects.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from diagbench.languages import read

KEYS = ("entities", "relations", "clusters", "notes")
#: Mermaid diagrams per engine call.
CHUNK = 200


@dataclass
class Outcome:
    language: str
    kind: str
    text: str
    parsed: dict[str, int]
    drawn: dict[str, int] | None  # None: the engine did not draw it
    error: str = ""

    @property
    def agrees(self) -> bool:
        return self.drawn is not None and self.parsed == self.drawn

    def differing(self) -> list[str]:
        if self.drawn is None:
            return []
        return [k for k in KEYS if self.parsed[k] != self.drawn[k]]


def _svg_counts(results, stats) -> list[tuple[dict[str, int] | None, str]]:
    out: list[tuple[dict[str, int] | None, str]] = []
    for r in results:
        if not r.ok or r.image is None:
            out.append((None, r.error or "not drawn"))
            continue
        s = stats(r.image.read_text(encoding="utf-8"))
        out.append(({k: s[k] for k in KEYS}, ""))
    return out


def drawn_counts(language: str, texts: list[str], jobs: int = 2
                 ) -> list[tuple[dict[str, int] | None, str]]:
    """What the engine of `language` draws for each text (None when it refuses)."""
    from diagbench.render.graph_svg import graphviz_statistics, mermaid_statistics

    if language == "dbml":
        from diagbench.languages.dbml.core import shared

        out: list[tuple[dict[str, int] | None, str]] = []
        for answer in shared().read_many(texts):
            if answer.model is None:
                out.append((None, answer.diagnostics[0].message))
                continue
            m = answer.model
            out.append(({"entities": len(m["tables"]), "relations": len(m["refs"]),
                         "clusters": len(m["groups"]), "notes": len(m["notes"])}, ""))
        return out
    with tempfile.TemporaryDirectory(prefix="diagbench-diff-") as work:
        if language == "mermaid":
            from diagbench.render.mermaid import MermaidEngine

            # in chunks: one browser rendering thousands of diagrams in a row stops
            out = []
            for k in range(0, len(texts), CHUNK):
                results = MermaidEngine(jobs=jobs).render(texts[k:k + CHUNK], Path(work),
                                                          "svg")
                out += _svg_counts(results, mermaid_statistics)
            return out
        from diagbench.render.graphviz import GraphvizEngine

        results = GraphvizEngine(jobs=jobs).render(texts, Path(work), "svg")
        return _svg_counts(results, graphviz_statistics)


def outcomes(items: list[tuple[str, str, str]], jobs: int = 2) -> list[Outcome]:
    """(language, kind, text) → parsed and drawn counts, one engine batch per language."""
    out: list[Outcome | None] = [None] * len(items)
    for language in dict.fromkeys(lang for lang, _, _ in items):
        index = [k for k, (lang, _, _) in enumerate(items) if lang == language]
        drawn = drawn_counts(language, [items[k][2] for k in index], jobs)
        for k, (counts, error) in zip(index, drawn, strict=True):
            lang, kind, text = items[k]
            parsed = read(text, lang)[0].counts()
            out[k] = Outcome(lang, kind, text, {key: parsed[key] for key in KEYS}, counts,
                             error)
    return [o for o in out if o is not None]
