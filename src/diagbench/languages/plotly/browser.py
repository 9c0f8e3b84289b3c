"""The worker side of the `plotly` engine: one Kaleido browser kept warm in a drawing
worker (`render.worker`'s loop), drawing one figure a job.

A job is `("start", chromium)`: start Kaleido's browser (Debian's Chromium at that
path, through Kaleido's sync server: one tab, MathJax off, so nothing is loaded from a
CDN, every request that leaves the machine sent to a closed proxy port, and no renderer
process kept for pages it never shows: `UNSHOWN_RENDERERS`, a small JavaScript heap:
`SMALL_JS_HEAP`) and draw an
empty figure, so that the browser and plotly.js are up before the first figure's
time-out runs; or `("draw", (figure, fmt))`: the image bytes of `figure` (JSON of a
figure the engine has made safe, `engine.drawable`) in `fmt` ("svg" or "png").
Kaleido's or plotly.js' error is the job's error.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from diagbench.render.chromium import CLOSED_PROXY, SMALL_JS_HEAP, UNSHOWN_RENDERERS


def draw(job: tuple[str, Any]) -> bytes:
    """The answer to one job (see the module's docstring)."""
    import kaleido  # type: ignore[import-untyped]

    what, payload = job
    if what == "start":
        kaleido.start_sync_server(n=1, timeout=None, mathjax=False, path=_launcher(payload),
                                  proxy_server=CLOSED_PROXY, silence_warnings=True)
        kaleido.calc_fig_sync({"data": [], "layout": {}}, opts={"format": "svg"})
        return b""
    figure, fmt = payload
    image: bytes = kaleido.calc_fig_sync(json.loads(figure), opts={"format": fmt})
    return image


def _launcher(chromium: str) -> str:
    """An executable starting `chromium` with `UNSHOWN_RENDERERS`, `SMALL_JS_HEAP` and the
    arguments it is given (choreographer, which starts Kaleido's browser, takes no browser
    flags of its own), in the worker's working folder (its jail, removed with it)."""
    path = Path.cwd() / "chromium"
    flags = f"{UNSHOWN_RENDERERS} {SMALL_JS_HEAP}"
    path.write_text(f'#!/bin/sh\nexec {shlex.quote(chromium)} {flags} "$@"\n', encoding="utf-8")
    path.chmod(0o700)
    return str(path)
