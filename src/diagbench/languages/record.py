"""The record of one formal language (`Language`) and of one category (`Category`).

A language's parts that live in other packages are named by lazy references,
`"package.module:attribute"` (`diagbench.references`), imported when first used, so
that reading the table imports no parser, engine or comparison.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from diagbench.references import load

if TYPE_CHECKING:
    from diagbench.diagram.facts import Fact
    from diagbench.diagram.graph import GraphDiagram
    from diagbench.formats.parsed import Diagram, Parsed


@dataclass(frozen=True, slots=True)
class Category:
    """A category of diagrams (STRUDEL's Table 1): `name` as options and records give
    it, `title` as prompts name it, the `domain` it belongs to, and the diagram kinds
    (`Parsed.kind`) a reader gives a diagram of this category."""

    name: str
    title: str
    domain: str
    kinds: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Language:
    """One formal language and every part diagbench has for it.

    - `name`: as options, records and `Parsed.language` give it ("plantuml");
      `title`: as prompts name it ("PlantUML");
    - `suffixes`: its file suffixes (lower case, with the dot); `recognises`: whether a
      text without one of them is in this language (None: the language of whatever
      no other language recognises — one language of the table); `claims`: other
      languages' suffixes whose files it takes when it recognises their text (R2DT
      writes dot-bracket structures in `.fasta` files);
    - `domain` and `categories` (names of `Category`, those the benchmarks generate it
      in); `kinds`: the diagram kinds its reader tells apart (`Parsed.kind`); a file's
      kind is found by its reader, from its content;
    - `reader`: text → `list[Parsed]`, never raising (what it cannot read becomes a
      diagnostic);
    - `engine`: the engine's name in `diagbench.render.engines.ENGINES` (renders PNG and
      SVG and says whether the code is valid);
    - `statistics`: SVG drawn by the engine → counts of what it drew;
    - `similarity`: (gold code, predicted code, valid, language name, reader) → the
      image-to-code comparison (its `.score`);
    - `writer`: a `GraphDiagram` in this language → its code (how the offline
      diagram writer writes software diagrams, at every complexity level); None for a
      language whose code is not written from a graph;
    - `synth`: (seeded `random.Random`, complexity "low|medium|high") → valid code in
      this language, for a language whose code comes from its field's own generator
      rather than from a `GraphDiagram` (the science domains); None otherwise;
    - `facts`: a model its reader returned → the `Fact`s STRUDEL's task types ask
      about it (`diagbench.diagram.facts`); None: counting questions only;
    - `node_limits`: (min, max) drawn nodes a generated diagram may have, counted by
      `size`, the key of its model's counts that measures it (None: entities, or
      participants for a sequence diagram);
    - `doc`: what the language is and how diagbench reads, draws and scores it (its
      module's docstring, for the documentation);
    - `examples`: file names under `diagbench/languages/examples/`, one per kind at
      least, that parse without error and render.
    """

    name: str
    title: str
    suffixes: tuple[str, ...]
    domain: str
    categories: tuple[str, ...]
    kinds: tuple[str, ...]
    reader: str
    engine: str
    statistics: str
    similarity: str
    examples: tuple[str, ...]
    writer: str | None = None
    synth: str | None = None
    facts: str | None = None
    recognises: Callable[[str], bool] | None = None
    claims: tuple[str, ...] = ()
    node_limits: tuple[int, int] = (2, 60)
    size: str | None = None
    doc: str = ""

    def nodes(self, counts: Mapping[str, int]) -> int:
        """How many nodes a diagram with these `counts` has, for `node_limits`."""
        keys = (self.size,) if self.size else ("entities", "participants")
        return next((counts[k] for k in keys if k in counts), 0)

    def read(self, text: str) -> list[Parsed[Diagram]]:
        """Every diagram of `text`, read as this language."""
        reader: Callable[[str], list[Parsed[Diagram]]] = load(self.reader)
        return reader(text)

    def write(self, diagram: GraphDiagram) -> str:
        """The code of `diagram` in this language."""
        if self.writer is None:
            raise ValueError(f"{self.title} is not written from a graph")
        writer: Callable[[GraphDiagram], str] = load(self.writer)
        return writer(diagram)

    def generate(self, rng: random.Random, complexity: str) -> str:
        """Valid code of this language at `complexity`, from its own seeded generator."""
        if self.synth is None:
            raise ValueError(f"{self.title} has no generator of its own")
        synth: Callable[[random.Random, str], str] = load(self.synth)
        return synth(rng, complexity)

    def facts_of(self, diagram: Diagram) -> list[Fact]:
        """The facts STRUDEL's task types ask about `diagram` (none without `facts`)."""
        if self.facts is None:
            return []
        facts: Callable[[Diagram], list[Fact]] = load(self.facts)
        return facts(diagram)

    def drawn(self, svg: str) -> Mapping[str, Any]:
        """What the engine drew in `svg` (counts, and names where the SVG gives them)."""
        statistics: Callable[[str], Mapping[str, Any]] = load(self.statistics)
        return statistics(svg)

    def compare(self, gold: str, pred: str, valid: bool) -> Any:
        """The image-to-code comparison of the predicted code `pred` with `gold`."""
        return load(self.similarity)(gold, pred, valid, self.name, self.read)

    def example_paths(self) -> list[Path]:
        """The example files, as paths."""
        folder = Path(__file__).with_name("examples")
        return [folder / name for name in self.examples]
