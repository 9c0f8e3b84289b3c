"""For the drawn-vs-fact tests: each fact of a language's examples and generated codes
beside what its engine drew (`Language.drawn`), so a test checks that the answer is
recoverable from the drawing."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from diagbench.diagram.facts import Fact
from diagbench.languages.checks import codes
from diagbench.languages.record import Language


def facts_and_drawings(language: Language, generated: int = 6
                       ) -> list[tuple[str, list[Fact], Mapping[str, Any]]]:
    """(name, facts, drawn statistics) of the first diagram of each code `codes` gives."""
    named = codes(language, generated)
    parsed = [language.read(code)[0] for _, code in named]
    with tempfile.TemporaryDirectory(prefix="diagbench-facts-") as folder:
        svgs = language.make_engine(2, 60.0).render(
            [language.prepare(code, p.kind, marked=True)
             for (_, code), p in zip(named, parsed, strict=True)], Path(folder), "svg")
        out = []
        for (name, _), p, svg in zip(named, parsed, svgs, strict=True):
            assert svg.ok and svg.image is not None, f"{name}: {svg.error}"
            drawn = language.drawn(p.kind, svg.image.read_text(encoding="utf-8")).stats
            out.append((name, language.facts(p.diagram), drawn))
    return out
