"""The registry of rendering engines, and which engine a source belongs to.

Adding an engine is one module with a class like PlantUMLEngine (name,
version(), render(sources, out_dir, fmt, progress)) and one line here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Protocol

from diagbench.render.graphviz import GraphvizEngine
from diagbench.render.mermaid import MermaidEngine
from diagbench.render.plantuml_pipe import PlantUMLEngine
from diagbench.render.result import RenderResult


class Engine(Protocol):
    name: str

    def version(self) -> str: ...

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress=...) -> list[RenderResult]: ...


ENGINES: dict[str, type] = {
    "plantuml": PlantUMLEngine,
    "graphviz": GraphvizEngine,
    "mermaid": MermaidEngine,
}
SUFFIXES = {
    **dict.fromkeys((".puml", ".plantuml", ".pu", ".iuml", ".wsd"), "plantuml"),
    **dict.fromkeys((".dot", ".gv"), "graphviz"),
    **dict.fromkeys((".mmd", ".mermaid"), "mermaid"),
}
_PLANTUML_BLOCK = re.compile(r"^[ \t]*@start(\w+)\b.*?^[ \t]*@end\1\b[^\n]*", re.M | re.S | re.I)
_DOT_START = re.compile(r"^\s*(?:strict\s+)?(?:di)?graph\b", re.I)


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
