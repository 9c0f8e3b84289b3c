"""An engine for a language whose own reader gives the model that Graphviz draws: each
source is read in this process by the language's reader, drawn as DOT by the
language's `to_dot`, and rendered by the Graphviz engine (`render.graphviz`); a source
the reader refuses is not drawn, and its first error (with its line) is the render's
error. Each source's DOT (or its error) is kept until the engine is closed, and its
Graphviz engine keeps the SVG of each PNG's layout for the next batch, so that
rendering the same sources in the other format (as builds do) reads none of them
again and lays none of them out again. Knowledge graphs (RDF/XML) and ONNX graphs are
drawn this way.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from diagbench.render.graphviz import GraphvizEngine
from diagbench.render.result import RenderResult, refusal


class Unreadable(ValueError):
    """A source its reader refuses: the reason and its line (0: unknown)."""

    def __init__(self, reason: str, line: int = 0) -> None:
        super().__init__(reason)
        self.line = line


class ModelDotEngine:
    """Render sources through `to_dot` (source → DOT, `Unreadable` when it cannot be
    read) and Graphviz, `jobs` diagrams at a time."""

    def __init__(self, name: str, library: Callable[[], str],
                 to_dot: Callable[[str], str], jobs: int = 2, timeout: float = 20.0) -> None:
        self.name = name
        self.library = library
        self.to_dot = to_dot
        self.jobs = jobs
        self.timeout = timeout
        self._dots: dict[str, str | tuple[str, int]] = {}  # the DOT, or why it is unread
        self._graphviz = GraphvizEngine(jobs=jobs, timeout=timeout)

    def version(self) -> str:
        return f"{self.library()} + graphviz {self._graphviz.version()}"

    def close(self) -> None:
        """Forget the DOT and the drawings kept of the last batches (Graphviz's warm
        processes end with each batch)."""
        self._dots.clear()
        self._graphviz.close()

    def _dot(self, source: str) -> str:
        """`to_dot(source)`, read once until `close` (its Unreadable too)."""
        key = hashlib.sha256(source.encode("utf-8")).hexdigest()
        if key not in self._dots:
            try:
                self._dots[key] = self.to_dot(source)
            except Unreadable as exc:
                self._dots[key] = (str(exc), exc.line)
        found = self._dots[key]
        if isinstance(found, tuple):
            raise Unreadable(*found)
        return found

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress: Callable[[], None] = lambda: None) -> list[RenderResult]:
        version = self.version()
        results = [RenderResult(k, self.name, version, error=refusal(s))
                   for k, s in enumerate(sources)]
        drawn: list[tuple[int, str]] = []
        for k, result in enumerate(results):
            if result.error is None:
                try:
                    drawn.append((k, self._dot(sources[k])))
                    continue
                except Unreadable as exc:
                    result.error, result.error_line = str(exc), exc.line or None
            progress()
        with tempfile.TemporaryDirectory(prefix=f"diagbench-{self.name}-",
                                         dir=out_dir) as staging:
            rendered = self._graphviz.render([d for _, d in drawn], Path(staging), fmt, progress)
            for (k, _), result in zip(drawn, rendered, strict=True):
                result.index, result.engine, result.version = k, self.name, version
                if result.image is not None:  # numbered by Graphviz's batch: renumber
                    result.image = Path(shutil.move(result.image, out_dir / f"{k:06d}.{fmt}"))
                results[k] = result
        return results
