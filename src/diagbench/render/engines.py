"""The registry of the rendering engines in this package.

An engine is a class like PlantUMLEngine (name, version(), render(sources, out_dir, fmt,
progress), close(): its warm processes ended, a later render starts them again);
`ENGINES` names those of this package, shared by several languages or drawing
one of this package's own, imported when first used; a language whose engine is its own
keeps it in its package (`Language.make_engine`). Which
engine draws a language, and how a file splits into the diagrams it draws, the language
says (`diagbench.languages`: `Language.engine`, `make_engine`, `split`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from diagbench.references import load
from diagbench.render.result import RenderResult


class Engine(Protocol):
    @property
    def name(self) -> str: ...

    def version(self) -> str: ...

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress=...) -> list[RenderResult]: ...

    def close(self) -> None: ...


class EngineFactory(Protocol):
    def __call__(self, jobs: int = ..., timeout: float = ...) -> Engine: ...


ENGINES: dict[str, str] = {
    "plantuml": "diagbench.render.plantuml_pipe:PlantUMLEngine",
    "graphviz": "diagbench.render.graphviz:GraphvizEngine",
    "mermaid": "diagbench.render.mermaid:MermaidEngine",
}


def make_engine(name: str, jobs: int, timeout: float) -> Engine:
    """The engine registered as `name`, started with `jobs` processes."""
    factory: EngineFactory = load(ENGINES[name])
    return factory(jobs=jobs, timeout=timeout)
