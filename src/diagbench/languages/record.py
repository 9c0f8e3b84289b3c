"""The protocol of one formal language (`Language`), what its engine drew (`Drawn`) and
the records of one category (`Category`) and of one domain (`Domain`).

A language is a plug-in: a package `diagbench.languages.<name>` whose `LANGUAGE` is an
instance of a `Language` subclass. Its descriptive fields are data; its parts are
typed methods, each importing the heavy modules it uses when first called, so that
reading the table imports no parser, engine or comparison.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.diagram.graph import GraphDiagram
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine


M = TypeVar("M")


def expect(diagram: object, model: type[M]) -> M:
    """`diagram` as the model its language's reader returns (TypeError for another)."""
    if not isinstance(diagram, model):
        raise TypeError(f"a {model.__name__} was expected, not a {type(diagram).__name__}")
    return diagram


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
class Domain:
    """A domain of STRUDEL's Table 1: `name` as `Category.domain` gives it, `title` as
    the paper's Table 3 heads its column ("System Modeling & Softw. Eng.")."""

    name: str
    title: str


@dataclass(frozen=True, slots=True)
class GraphDialect:
    """What a language written from a graph (`Language.write`) can say, for the offline
    diagram writer: the entity kinds of its class diagrams, the (diagram, node) kinds of
    its flowcharts, whether its ER references name their columns (`er_ports`), and the
    label every ER relation needs (`er_label`; "" for none)."""

    class_kinds: tuple[str, ...] = ("class",)
    flowchart: tuple[str, str] = ("graph", "vertex")
    er_ports: bool = False
    er_label: str = ""


@dataclass(frozen=True, slots=True)
class Drawn:
    """What an engine drew in one SVG, read by the diagram's language: `stats` in the
    order the language's reading gives them, whose whole numbers (`counts`) are keyed as
    the language's models count themselves (`Parsed.counts()`: "entities",
    "relations", "participants", "leaves", "bases", …), so that read and drawn counts
    compare key by key; the rest (the diagram type, names, ends, histograms) is what
    else the drawing tells."""

    stats: Mapping[str, Any]

    @property
    def counts(self) -> dict[str, int]:
        """The whole-number statistics, by the models' count keys."""
        return {k: v for k, v in self.stats.items()
                if isinstance(v, int) and not isinstance(v, bool)}

    def as_dict(self) -> dict[str, Any]:
        return dict(self.stats)


@dataclass(frozen=True, slots=True)
class Language:
    """One formal language: its descriptive fields, and its parts as methods that a
    plug-in overrides (`read`, `drawn` and `compare` always; the others where the
    language has them).

    - `name`: as options, records and `Parsed.language` give it ("plantuml");
      `title`: as prompts name it ("PlantUML");
    - `suffixes`: its file suffixes (lower case, with the dot); `claims`: other
      languages' suffixes whose files it takes when it `recognises` their text (R2DT
      writes dot-bracket structures in `.fasta` files); `fallback`: the language of a
      text no language recognises (one language of the table);
    - `domain` and `categories` (names of `Category`, those the benchmarks generate it
      in); `kinds`: the diagram kinds its reader tells apart (`Parsed.kind`);
    - `engine`: the name of the engine that draws it (`make_engine` starts it);
      `browser`: whether that engine draws in a headless Chromium (each holds several
      hundred MB: a structure build lets one such engine draw at a time);
    - `node_limits`: (min, max) drawn nodes a generated diagram may have, counted by
      `size`, the key of its model's counts that measures it (None: entities, or
      participants for a sequence diagram);
    - `examples`: file names in its package's `examples/` folder, one per kind at
      least, that read without error and render;
    - `dialect`: what it can say when written from a graph (`GraphDialect`);
    - `libraries`: the Python distributions its reader, engine and similarity use (for
      the documentation: their versions and licences come from their metadata);
    - `doc`: what the language is and how diagbench reads, draws and scores it (its
      package's docstring, for the documentation).
    """

    name: str
    title: str
    suffixes: tuple[str, ...]
    domain: str
    categories: tuple[str, ...]
    kinds: tuple[str, ...]
    engine: str
    examples: tuple[str, ...]
    browser: bool = False
    claims: tuple[str, ...] = ()
    fallback: bool = False
    node_limits: tuple[int, int] = (2, 60)
    size: str | None = None
    dialect: GraphDialect = GraphDialect()
    libraries: tuple[str, ...] = ()
    doc: str = ""

    # --- what every language has -----------------------------------------------------

    def recognises(self, text: str) -> bool:
        """Whether `text`, without a suffix of this language, is in this language."""
        return False

    def split(self, text: str) -> list[tuple[int, str]]:
        """The separate diagrams of a file as its engine draws them, each with the line
        it starts on (1-based; a byte-order mark left out): its `records`, or the whole
        text as one."""
        text = text.removeprefix("\ufeff")
        return self.records(text) or [(1, text)]

    def records(self, text: str) -> list[tuple[int, str]]:
        """The records of a file that holds one diagram a record (a SMILES or FEN list,
        an ABC book, PlantUML's blocks), each with its first line; [] (the default):
        the file is one diagram."""
        return []

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        """Every diagram of `text`, read by the field's own library; never raises (what
        cannot be read becomes a diagnostic with its line and column)."""
        raise NotImplementedError(f"{self.title} has no reader")

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        """The engine that draws this language, started with `jobs` processes."""
        from diagbench.render.engines import make_engine

        return make_engine(self.engine, jobs, timeout)

    def prepare(self, source: str, kind: str, marked: bool, style: str = "") -> str:
        """The source its engine is given to draw a diagram of `kind`: by default the
        source itself; `marked`: for its drawn statistics (`drawn`), where a language
        whose engine leaves elements unmarked adds markers; `style`: one of `styles()`
        ("" for the engine's default drawing)."""
        return source

    def styles(self) -> tuple[str, ...]:
        """The other ways its engine draws the same diagram (`prepare`'s `style`): themes,
        layouts, depiction options; none by default."""
        return ()

    def drawn(self, kind: str, svg: str) -> Drawn:
        """What the engine drew in `svg`, a diagram of `kind` rendered from `prepare`'s
        source."""
        raise NotImplementedError(f"{self.title} has no drawn statistics")

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        """The image-to-code comparison of a predicted diagram (`pred`; None when
        nothing was read) with the gold one; `valid`: whether the prediction renders."""
        raise NotImplementedError(f"{self.title} has no similarity")

    def readable(self, code: str) -> str | None:
        """`code` when it reads without an error, else None (what an edit must keep)."""
        return None if any(p.errors for p in self.read(code)) else code

    def compare_code(self, gold: str, pred: str, valid: bool) -> Scored:
        """`compare` of the first diagram of a predicted code with the first of the gold
        code, both read here (ValueError when the gold holds none)."""
        gold_read, pred_read = self.read(gold), self.read(pred)
        if not gold_read:
            raise ValueError(f"no {self.title} diagram in the gold code")
        return self.compare(gold_read[0], pred_read[0] if pred_read else None, valid)

    def similarity_doc(self) -> str:
        """What its image-to-code similarity measures: the first paragraph of the
        documentation of its package's `similarity` module (of the graph comparison,
        `compare.graph`, for a language without one)."""
        import importlib

        try:
            module = importlib.import_module(f"{type(self).__module__}.similarity")
        except ModuleNotFoundError:
            module = importlib.import_module("diagbench.compare.graph")
        first = (module.__doc__ or "").strip().split("\n\n")[0]
        return " ".join(first.split())

    # --- what some languages have ----------------------------------------------------

    def facts(self, diagram: Diagram) -> list[Fact]:
        """The facts STRUDEL's task types ask about `diagram` (none by default: counting
        questions only)."""
        return []

    def facts_ahead(self, diagrams: Sequence[Diagram]) -> None:
        """Work out, side by side where the language can, what `facts` of each of
        `diagrams` waits on, so that asking them one by one afterwards is quick and
        gives the same facts (by default nothing: facts are read off the model)."""
        return None

    def release(self) -> None:
        """End the warm processes this language's reading keeps (a later reading starts
        them again): called once a batch has been read (by default nothing)."""
        return None

    def write(self, diagram: GraphDiagram) -> str:
        """The code of `diagram` in this language (how the offline diagram writer writes
        software diagrams)."""
        raise NotImplementedError(f"{self.title} is not written from a graph")

    def generate(self, rng: random.Random, complexity: str) -> str:
        """Valid code at `complexity` ("low|medium|high"), from the language's own
        seeded generator (the science domains)."""
        raise NotImplementedError(f"{self.title} has no generator of its own")

    def edit(self, code: str, rng: random.Random) -> str | None:
        """`code` with one small change that keeps it valid and changes what is drawn
        (None where no such change applies): by default, of a graph written from its
        model (`write`), one relation (`rng`'s choice) left out."""
        from dataclasses import replace

        from diagbench.diagram.graph import GraphDiagram

        read = self.read(code) if self.writes_graphs else ()
        diagram = read[0].diagram if len(read) == 1 else None
        if not isinstance(diagram, GraphDiagram) or not diagram.relations:
            return None
        relations = list(diagram.relations)
        del relations[rng.randrange(len(relations))]
        return self.write(replace(diagram, relations=tuple(relations)))

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """`code` written another valid way that draws the same diagram (None where no
        such writing applies): a similarity must score it 1."""
        return None

    @property
    def writes_graphs(self) -> bool:
        """Whether its code is written from a `GraphDiagram` (`write`)."""
        return type(self).write is not Language.write

    @property
    def generates(self) -> bool:
        """Whether it has a seeded generator of its own (`generate`)."""
        return type(self).generate is not Language.generate

    @property
    def has_facts(self) -> bool:
        """Whether it asks facts beyond counting questions (`facts`)."""
        return type(self).facts is not Language.facts

    def nodes(self, counts: Mapping[str, int]) -> int:
        """How many nodes a diagram with these `counts` has, for `node_limits`."""
        keys = (self.size,) if self.size else ("entities", "participants")
        return next((counts[k] for k in keys if k in counts), 0)

    def example_paths(self) -> list[Path]:
        """The example files, as paths: in the `examples` folder of the language's package
        (of the first class of its hierarchy whose package has them all, so a subclass
        defined elsewhere keeps its parent's examples)."""
        folders = [Path(file).with_name("examples") for cls in type(self).__mro__
                   if (file := getattr(sys.modules.get(cls.__module__), "__file__", None))]
        folder = next((f for f in folders if all((f / n).is_file() for n in self.examples)),
                      folders[0])
        return [folder / name for name in self.examples]


class GraphLanguage(Language):
    """A language read into the graph model (software diagrams), compared by the graph
    comparison (`compare.graph`: entity and relation F1), a sequence diagram by the
    sequence comparison (`compare.sequence_code`: component errors, order, labels)."""

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.diagram.sequence import SequenceDiagram

        if isinstance(gold.diagram, SequenceDiagram):
            from diagbench.compare.sequence_code import compare_sequence_code

            return compare_sequence_code(gold, pred, valid)
        from diagbench.compare.graph import compare_graphs

        return compare_graphs(gold, pred, valid)
