"""The registry of rendering engines, and which engine a source belongs to.

Adding an engine is one module with a class like PlantUMLEngine (name,
version(), render(sources, out_dir, fmt, progress)) and one line in `ENGINES`;
an engine's module is imported when it is first used.
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
}
SUFFIXES = {
    **dict.fromkeys((".puml", ".plantuml", ".pu", ".iuml", ".wsd"), "plantuml"),
    **dict.fromkeys((".dot", ".gv"), "graphviz"),
    **dict.fromkeys((".mmd", ".mermaid"), "mermaid"),
    ".dbml": "dbml",
}
_PLANTUML_BLOCK = re.compile(r"^[ \t]*@start(\w+)\b.*?^[ \t]*@end\1\b[^\n]*", re.M | re.S | re.I)
_DOT_START = re.compile(r"^\s*(?:strict\s+)?(?:di)?graph\b", re.I)


def make_engine(name: str, jobs: int, timeout: float) -> Engine:
    """The engine registered as `name`, started with `jobs` processes."""
    factory: EngineFactory = load(ENGINES[name])
    return factory(jobs=jobs, timeout=timeout)


def language(path: Path, text: str) -> str:
    """The engine for a file: by its suffix, else by its first statement."""
    if path.suffix.lower() in SUFFIXES:
        return SUFFIXES[path.suffix.lower()]
    if "@start" in text:
        return "plantuml"
    return "graphviz" if _DOT_START.match(text) else "mermaid"


def diagrams(engine: str, text: str) -> list[str]:
    """The separate diagrams of a file: PlantUML files may hold several blocks."""
    text = text.removeprefix("\ufeff")
    if engine == "plantuml":
        return [m.group(0) + "\n" for m in _PLANTUML_BLOCK.finditer(text)] or [text]
    return [text]
