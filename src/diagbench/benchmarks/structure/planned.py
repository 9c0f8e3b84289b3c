"""A sample of the structure build while it is made: planned, then filled in (texts and
code, kind, statistics, image, drawn counts, verdict, question, caption) by the build's stages,
or given the `reason` it was removed; a kept one becomes a `StructureSample`. A twin
(`twins`) is one too, naming its original and how it differs."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from diagbench.benchmarks.structure.records import (
    Counts,
    ModelQuestion,
    Statistics,
    StructureSample,
    Twin,
    Verdict,
)
from diagbench.diagram.facts import Fact
from diagbench.languages import named


@dataclass
class Planned:
    """One sample to generate, then what became of it."""

    id: str
    category: str
    language: str
    complexity: str
    persona: str
    domain: str
    problem: str | None = None
    description: str | None = None
    code: str | None = None
    fenced: bool = False
    kind: str = ""
    statistics: Statistics = field(default_factory=dict)
    counts: Counts = field(default_factory=dict)
    drawn: Counts | None = None
    facts: list[Fact] = field(default_factory=list)  # STRUDEL's facts of its model
    ambiguous: Counter[str] = field(default_factory=Counter)  # questions left out, by template
    image: str = ""
    width: int = 0
    height: int = 0
    sha256: str = ""
    reason: str | None = None
    detail: str = ""
    judge: Verdict | None = None
    model_question: ModelQuestion | None = None
    caption: str | None = None
    twin_of: str | None = None
    twin: Twin | None = None
    style: str = ""  # of `Language.styles()`, as its engine is asked to draw it

    def drawn_as_read(self) -> bool:
        """Whether the engine drew every count it shows as the model counts it."""
        return self.drawn is not None and all(self.counts.get(k) == n
                                              for k, n in self.drawn.items())

    def sample(self) -> StructureSample:
        """The kept sample's record (its code in sources/ID.txt; a style or capture
        twin's in its original's)."""
        code = (self.code or "").strip()
        source = self.twin_of if self.twin and self.twin.family != "counterfactual" \
            else self.id
        return StructureSample(
            self.id, self.category, self.language, named(self.language).title,
            self.complexity, self.persona, self.domain, self.problem, self.description,
            f"sources/{source}.txt", self.fenced, self.kind, self.image, self.width,
            self.height, self.sha256, len(code.splitlines()), len(code), self.counts,
            self.drawn, self.statistics, self.judge, self.model_question, self.caption,
            self.twin_of, self.twin)
