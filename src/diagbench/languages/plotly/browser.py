"""The worker side of the `plotly` engine: one Kaleido browser kept warm in a drawing
worker (`render.worker`'s loop), drawing one figure a job.

A job is `("start", chromium)`: start Kaleido's browser (Debian's Chromium at that
path: one tab, MathJax off, so nothing is loaded from a CDN, every request that leaves
the machine sent to a closed proxy port, and no renderer process kept for pages it
never shows: `UNSHOWN_RENDERERS`, a small JavaScript heap: `SMALL_JS_HEAP`) and draw an
empty figure, so that the browser and plotly.js are up before the first figure's
time-out runs; `("draw", (figure, fmt))`: the image bytes of `figure` (JSON of a
figure the engine has made safe, `engine.drawable`) in `fmt` ("svg" or "png"), as
Kaleido's `calc_fig` draws them; or `("both", figure)`: {"svg": …, "png": …} from one
plotly.js drawing (`BOTH`). Kaleido's or plotly.js' error is the job's error.

The browser is Kaleido's, driven from an event loop of the worker's own (a thread), so
that a job may run `BOTH` in Kaleido's tab: the figure goes to it as an argument (JSON
data), never as JavaScript source. Like Kaleido's own drawings, the tab is reloaded
after each, so every figure is drawn in the same fresh page.
"""

from __future__ import annotations

import asyncio
import atexit
import base64
import json
import shlex
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from diagbench.render.chromium import CLOSED_PROXY, SMALL_JS_HEAP, UNSHOWN_RENDERERS

#: What plotly.js' `toImage` does for a PNG, drawing the figure once: Kaleido's own
#: SVG drawing (`kaleido_scopes.plotly`, plotly.js' `toImage` to SVG), then that SVG
#: drawn on a canvas of its root's size by plotly.js' `Snapshot.svgToImg`, as
#: `toImage` draws a PNG. Answers Kaleido's response (JSON) with the PNG's base64 as
#: "png", or the error Kaleido answers when `toImage` fails.
BOTH = r"""function(spec) {
  return kaleido_scopes.plotly(spec).then(function(drawn) {
    if (drawn.code !== 0) { return JSON.stringify(drawn); }
    var root = /^<svg[^>]*>/.exec(drawn.result)[0];
    var size = function(name) {
      return Number(new RegExp("\\s" + name + "=\"([^\"]*)\"").exec(root)[1]);
    };
    return Plotly.Snapshot.svgToImg({
      format: "png", svg: drawn.result, width: size("width"), height: size("height"),
      scale: drawn.scale, canvas: document.createElement("canvas"), promise: true
    }).then(function(url) {
      drawn.png = url.replace(/^data:image\/png;base64,/, "");
      return JSON.stringify(drawn);
    }, function(error) {
      return JSON.stringify({code: 525, message: error.message || "plotly.js error"});
    });
  });
}"""


def draw(job: tuple[str, Any]) -> Any:
    """The answer to one job (see the module's docstring)."""
    what, payload = job
    if what == "start":
        _BROWSER[:] = [_Kaleido(payload)]
        _BROWSER[0].run(_BROWSER[0].kaleido.calc_fig({"data": [], "layout": {}},
                                                     opts={"format": "svg"}))
        return b""
    browser = _BROWSER[0]
    if what == "both":
        return browser.run(browser.both(json.loads(payload)))
    figure, fmt = payload
    image: bytes = browser.run(browser.kaleido.calc_fig(json.loads(figure), opts={"format": fmt}))
    return image


class _Kaleido:
    """Kaleido's browser and the event loop (a thread) it runs in."""

    def __init__(self, chromium: str) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.kaleido = self.run(self._open(chromium))
        # closed as the worker ends, as Kaleido's sync server does: its folders removed
        atexit.register(lambda: self.run(self.kaleido.close()))

    def run(self, work: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result()

    @staticmethod
    async def _open(chromium: str) -> Any:
        import kaleido  # type: ignore[import-untyped]

        browser = kaleido.Kaleido(n=1, timeout=None, mathjax=False, path=_launcher(chromium),
                                  proxy_server=CLOSED_PROXY)
        await browser.open()
        return browser

    async def both(self, figure: dict[str, Any]) -> dict[str, bytes]:
        """The SVG and the PNG of `figure` from one drawing (`BOTH`), in Kaleido's tab."""
        from kaleido._kaleido_tab._devtools_utils import (  # type: ignore[import-untyped]
            check_kaleido_js_response,
            exec_js_fn,
        )
        from kaleido._utils.fig_tools import coerce_for_js  # type: ignore[import-untyped]

        spec = coerce_for_js(figure, None, {"format": "svg"})
        tab = await self.kaleido.tabs_ready.get()
        try:
            drawn = check_kaleido_js_response(
                await exec_js_fn(tab.tab, tab._current_js_id, BOTH, spec))
        finally:
            await tab.reload()
            await self.kaleido.tabs_ready.put(tab)
        return {"svg": drawn["result"].encode(), "png": base64.b64decode(drawn["png"])}


def _launcher(chromium: str) -> str:
    """An executable starting `chromium` with `UNSHOWN_RENDERERS`, `SMALL_JS_HEAP` and the
    arguments it is given (choreographer, which starts Kaleido's browser, takes no browser
    flags of its own), in the worker's working folder (its jail, removed with it)."""
    path = Path.cwd() / "chromium"
    flags = f"{UNSHOWN_RENDERERS} {SMALL_JS_HEAP}"
    path.write_text(f'#!/bin/sh\nexec {shlex.quote(chromium)} {flags} "$@"\n', encoding="utf-8")
    path.chmod(0o700)
    return str(path)


#: The worker's one browser, started by the "start" job.
_BROWSER: list[_Kaleido] = []
