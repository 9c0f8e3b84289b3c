"""Mermaid through the pinned `@mermaid-js/mermaid-cli`, driving Debian's chromium.

One Node process (`tools/mermaid/render.mjs`) per worker launches one browser (spoken
to over a pipe, so that it ends with Node even when Node is killed; its profile in the
process's jail folder), loads Mermaid into one page once and renders its share of each
batch diagram after diagram (`render.node_browser`: every report awaited with a
time-out, a fresh process after `process.DIAGRAMS_PER_BROWSER` diagrams or after the
diagram one stopped at); the processes stay warm from batch to batch of one engine (a
build's PNG and SVG batches share their browsers) and end with it. The browser has no
network (all requests go to a closed proxy port, loopback included) and Mermaid runs
with `securityLevel: "strict"`.
"""

from __future__ import annotations

import json
import os
import shutil
import weakref
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

from diagbench.render.chromium import chromium
from diagbench.render.node_browser import NodeBrowser
from diagbench.render.result import EngineMissing, RenderResult, finish, refusal

TOOL = Path(__file__).resolve().parents[3] / "tools" / "mermaid"


@cache
def mermaid_cli_version() -> str:
    """The installed mermaid-cli version; EngineMissing when Node, it or Chromium is absent."""
    installed = TOOL / "node_modules" / "@mermaid-js" / "mermaid-cli" / "package.json"
    missing = [what for what, ok in (
        ("node", shutil.which("node") is not None), ("mermaid-cli", installed.is_file()),
        ("chromium", os.access(chromium(), os.X_OK))) if not ok]
    if missing:
        raise EngineMissing(f"Mermaid rendering needs {', '.join(missing)}: "
                            "bash scripts/setup.sh installs them")
    return json.loads(installed.read_text(encoding="utf-8"))["version"]


def _end_all(browsers: list[NodeBrowser]) -> None:
    for browser in browsers:
        browser.end()


class MermaidEngine:
    """Render Mermaid sources in `jobs` browsers, one Node process each, kept warm for
    the engine's next batch (ended when the engine is)."""

    name = "mermaid"

    def __init__(self, jobs: int = 2, timeout: float = 20.0) -> None:
        self.jobs = jobs
        self.timeout = timeout
        self.last_browser_launches = 0
        self._browsers = [NodeBrowser(TOOL, "Mermaid") for _ in range(max(1, jobs))]
        weakref.finalize(self, _end_all, self._browsers)

    def version(self) -> str:
        return mermaid_cli_version()

    def close(self) -> None:
        """End the browsers cleanly (a later render starts them again)."""
        for browser in self._browsers:
            with browser.lock:
                browser.end()

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress=lambda: None) -> list[RenderResult]:
        version = self.version()
        results = [RenderResult(k, self.name, version, error=refusal(s))
                   for k, s in enumerate(sources)]
        for r in results:
            if r.error:
                progress()
        todo = [k for k, r in enumerate(results) if r.error is None]
        lanes = [todo[i::self.jobs] for i in range(self.jobs) if todo[i::self.jobs]]
        self.last_browser_launches = 0
        with ThreadPoolExecutor(max_workers=max(1, len(lanes))) as pool:
            for launches in pool.map(
                    lambda k: self._batch(self._browsers[k], lanes[k], sources, results,
                                          out_dir, fmt, progress),
                    range(len(lanes))):
                self.last_browser_launches += launches
        return results

    def _batch(self, browser: NodeBrowser, lane: list[int], sources: list[str],
               results: list[RenderResult], out_dir: Path, fmt: str, progress) -> int:
        """Render the diagrams `lane` in the worker's browser; the browser launches."""

        def on_report(k: int, report: dict, work: Path) -> None:
            result = results[k]
            result.seconds = report["seconds"]
            if report["ok"]:
                drawing = work / f"{report['id']}.{fmt}"
                data = drawing.read_bytes()
                drawing.unlink()
                finish(result, data, fmt, out_dir / f"{k:06d}.{fmt}")
            else:
                result.error, result.error_line = report["error"], report["line"]

        return browser.draw(lane, sources, {"format": fmt}, on_report, results, self.timeout,
                            progress)
