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


def diagrams(engine: str, text: str) -> list[tuple[int, str]]:
    """The separate diagrams of a file, each with the line it starts on (1-based):
    PlantUML files may hold several blocks, a SMILES file one molecule (or reaction) a
    line, a FEN file one board a line, a dot-bracket file one structure a record, an
    ABC file one tune from each `X:` field."""
    text = text.removeprefix("\ufeff")
    if engine == "plantuml":
        return [(text.count("\n", 0, m.start()) + 1, m.group(0) + "\n")
                for m in _PLANTUML_BLOCK.finditer(text)] or [(1, text)]
    if engine in ("rdkit", "rdkit-reaction"):
        from diagbench.formats.smiles import records

        return [(n, line + "\n") for n, line in records(text)] or [(1, text)]
    if engine == "board":
        from diagbench.formats.chess.fen import records as positions

        return [(n, line + "\n") for n, line in positions(text)] or [(1, text)]
    if engine == "varna":
        from diagbench.formats.biology.dotbracket import record_texts

        return record_texts(text) or [(1, text)]
    if engine == "abcm2ps":
        from diagbench.formats.music.abc import tune_texts

        return tune_texts(text) or [(1, text)]
    return [(1, text)]
