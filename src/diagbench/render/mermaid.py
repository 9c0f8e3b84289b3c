"""Mermaid through the pinned `@mermaid-js/mermaid-cli`, driving Debian's chromium.

One Node process (`tools/mermaid/render.mjs`) per worker launches one browser (spoken
to over a pipe, so that it ends with Node even when Node is killed; its profile in the
process's jail folder),
loads Mermaid into one page once and renders its share of each batch diagram
after diagram, at most `process.DIAGRAMS_PER_BROWSER` diagrams a process (a browser that has drawn
thousands grows until it stops), a `render.process` warm process (an empty jail folder,
where it writes the images, and a minimal environment) whose every report is awaited
with a time-out; the processes stay warm from batch to batch of one engine (a build's
PNG and SVG batches share their browsers) and end with it; when a process stops
part-way (it ends, or a report does not come), the diagram it stopped at is reported
and the rest go to a new process. The browser has no
network (all requests go to a closed proxy port, loopback included) and Mermaid
runs with `securityLevel: "strict"`.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

from diagbench.render import process
from diagbench.render.process import ProcessDied, ProcessTimeout, WarmProcess
from diagbench.render.result import EngineMissing, RenderResult, finish, refusal

TOOL = Path(__file__).resolve().parents[3] / "tools" / "mermaid"
CHROMIUM_ENV = "DIAGBENCH_CHROMIUM"
#: Seconds Node may take to start its browser and load Mermaid, on top of the first
#: diagram's time-out (a busy machine is slow).
START_SECONDS = 120.0
#: Seconds a diagram's report may come after its time-out (the renderer's own timer
#: ends a diagram; past this margin the browser is taken for hung).
MARGIN_SECONDS = 30.0


@cache
def mermaid_cli_version() -> str:
    """The installed mermaid-cli version; EngineMissing when Node, it or Chromium is absent."""
    installed = TOOL / "node_modules" / "@mermaid-js" / "mermaid-cli" / "package.json"
    chromium = os.environ.get(CHROMIUM_ENV, "/usr/bin/chromium")
    missing = [what for what, ok in (
        ("node", shutil.which("node") is not None), ("mermaid-cli", installed.is_file()),
        ("chromium", os.access(chromium, os.X_OK))) if not ok]
    if missing:
        raise EngineMissing(f"Mermaid rendering needs {', '.join(missing)}: "
                            "bash scripts/setup.sh installs them")
    return json.loads(installed.read_text(encoding="utf-8"))["version"]


class _Browser:
    """One warm Node process and its browser (one worker of an engine), and the
    diagrams it drew."""

    def __init__(self) -> None:
        self.node = WarmProcess(["node", str(TOOL / "render.mjs")], stderr="keep", extra_env={
            CHROMIUM_ENV: os.environ.get(CHROMIUM_ENV, "/usr/bin/chromium")})
        self.drawn = 0
        self.lock = threading.Lock()

    def close(self) -> None:
        """Kill it (it timed out or broke off)."""
        self.node.close()
        self.drawn = 0

    def end(self) -> None:
        """End it cleanly: its input closed, Node closes its browser and removes the
        browser's profile."""
        self.node.finish(10)
        self.drawn = 0


def _end_all(browsers: list[_Browser]) -> None:
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
        self._browsers = [_Browser() for _ in range(max(1, jobs))]
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

    def _batch(self, browser: _Browser, lane: list[int], sources: list[str],
               results: list[RenderResult], out_dir: Path, fmt: str, progress) -> int:
        """Render the diagrams `lane` in the worker's browser, in jobs of at most
        `process.DIAGRAMS_PER_BROWSER` diagrams, a fresh process taking over when it has
        drawn its share and after the diagram one stopped at; return the browser
        launches."""
        launches, todo, idle = 0, list(lane), 0
        with browser.lock:
            while todo:
                size = process.DIAGRAMS_PER_BROWSER
                chunk, todo = todo[:size], todo[size:]
                launched, drawn, left = self._process(browser, chunk, sources, results,
                                                      out_dir, fmt, progress)
                launches += launched
                idle = 0 if drawn else idle + 1
                todo = left + todo
                if idle == 2:  # two processes in a row drew nothing: the engine is broken
                    for k in todo:
                        results[k].error = "the Mermaid renderer stopped before this diagram"
                        progress()
                    break
        return launches

    def _process(self, browser: _Browser, chunk: list[int], sources: list[str],
                 results: list[RenderResult], out_dir: Path, fmt: str,
                 progress) -> tuple[int, int, list[int]]:
        """Render `chunk` as one job of the worker's Node process (a fresh one when it
        has drawn its share); return whether a browser was launched for it, how many
        diagrams it reported on and those after the one it stopped at (none when it
        finished)."""
        if browser.drawn + len(chunk) > process.DIAGRAMS_PER_BROWSER:
            browser.end()
        node = browser.node
        launches, seen, why = 0, set(), ""
        start = time.perf_counter()
        try:
            launches = int(node.ensure())
            assert node.jail is not None
            work = node.jail  # the images are written there
            job = {"format": fmt, "out_dir": work, "timeout_ms": int(self.timeout * 1000),
                   "items": [{"id": f"{k:06d}", "code": sources[k]} for k in chunk]}
            # the first answer of a new process waits for its browser to start
            wait = self.timeout + (START_SECONDS if launches else MARGIN_SECONDS)
            node.send(json.dumps(job).encode("utf-8") + b"\n", wait)
            while True:
                report = json.loads(node.read_line(wait))
                wait = self.timeout + MARGIN_SECONDS
                if report.get("done"):
                    browser.drawn += len(chunk)
                    break
                k = int(report["id"])
                seen.add(k)
                result = results[k]
                result.seconds = report["seconds"]
                if report["ok"]:
                    drawing = Path(work) / f"{report['id']}.{fmt}"
                    data = drawing.read_bytes()
                    drawing.unlink()
                    finish(result, data, fmt, out_dir / f"{k:06d}.{fmt}")
                else:
                    result.error, result.error_line = report["error"], report["line"]
                progress()
        except ProcessTimeout:
            why = "timed out"
            browser.close()
        except (ProcessDied, OSError, ValueError):  # ended, or a line cut short
            why = (node.stderr_tail().strip().splitlines() or [""])[-1][:200]
            browser.close()
        unseen = [k for k in chunk if k not in seen]
        if unseen:
            stopped = results[unseen[0]]
            stopped.error = ("the Mermaid renderer stopped at this diagram"
                             + (f": {why}" if why else ""))
            stopped.seconds = time.perf_counter() - start
            progress()
        return launches, len(seen), unseen[1:]
