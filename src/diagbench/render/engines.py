"""The registry of rendering engines, and how an engine splits a file into diagrams.

Adding an engine is one module with a class like PlantUMLEngine (name,
version(), render(sources, out_dir, fmt, progress)) and one line in `ENGINES`;
an engine's module is imported when it is first used. Which engine draws a
language is said by the language (`diagbench.languages`, `Language.engine`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Protocol

from diagbench.references import load
from diagbench.render.result import RenderResult


class Engine(Protocol):
    name: str

    def version(self) -> str: ...

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress=...) -> list[RenderResult]: ...


class EngineFactory(Protocol):
    def __call__(self, jobs: int = ..., timeout: float = ...) -> Engine: ...


ENGINES: dict[str, str] = {
    "plantuml": "diagbench.render.plantuml_pipe:PlantUMLEngine",
    "graphviz": "diagbench.render.graphviz:GraphvizEngine",
    "mermaid": "diagbench.render.mermaid:MermaidEngine",
    "dbml": "diagbench.render.dbml:DbmlEngine",
    "rdkit": "diagbench.render.rdkit:RdkitEngine",
    "rdkit-reaction": "diagbench.render.rdkit:RdkitReactionEngine",
    "phylo": "diagbench.render.phylo:PhyloEngine",
    "logo": "diagbench.render.logo:LogoEngine",
    "varna": "diagbench.render.varna:VarnaEngine",
    "geomap": "diagbench.render.geomap:GeomapEngine",
    "board": "diagbench.render.chessboard:BoardEngine",
    "abcm2ps": "diagbench.render.abcm2ps:Abcm2psEngine",
}
_PLANTUML_BLOCK = re.compile(r"^[ \t]*@start(\w+)\b.*?^[ \t]*@end\1\b[^\n]*", re.M | re.S | re.I)


def make_engine(name: str, jobs: int, timeout: float) -> Engine:
    """The engine registered as `name`, started with `jobs` processes."""
    factory: EngineFactory = load(ENGINES[name])
    return factory(jobs=jobs, timeout=timeout)


#: The engines that draw one record of a file at a time, and the function ("module:attr")
#: that splits a text into its records, each with the line it starts on (1-based): the
#: blocks of a PlantUML file, a SMILES or FEN file's lines, a dot-bracket file's records,
#: an ABC file's tunes.
RECORDS: dict[str, str] = {
    "plantuml": "diagbench.render.engines:plantuml_blocks",
    "rdkit": "diagbench.formats.smiles:record_texts",
    "rdkit-reaction": "diagbench.formats.smiles:record_texts",
    "board": "diagbench.formats.chess.fen:record_texts",
    "varna": "diagbench.formats.biology.dotbracket:record_texts",
    "abcm2ps": "diagbench.formats.music.abc:tune_texts",
}


def plantuml_blocks(text: str) -> list[tuple[int, str]]:
    """(first line, block) of each `@start…`/`@end…` block of a PlantUML text."""
    return [(text.count("\n", 0, m.start()) + 1, m.group(0) + "\n")
            for m in _PLANTUML_BLOCK.finditer(text)]


def diagrams(engine: str, text: str) -> list[tuple[int, str]]:
    """The separate diagrams of a file that `engine` draws, each with the line it starts
    on (1-based): its records (`RECORDS`), or the whole text as one."""
    text = text.removeprefix("\ufeff")
    split = RECORDS.get(engine)
    records: list[tuple[int, str]] = load(split)(text) if split else []
    return records or [(1, text)]
