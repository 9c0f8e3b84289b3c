"""Debian's Chromium as diagbench's browser engines launch it (Mermaid's and bpmn-js'
Node tools, Plotly's Kaleido): where it is, and what it runs without."""

from __future__ import annotations

import os

CHROMIUM_ENV = "DIAGBENCH_CHROMIUM"
#: The one proxy of a browser: a closed port (no request leaves through it).
CLOSED_PROXY = "127.0.0.1:9"
#: The Chromium features a browser runs without: the spare renderer kept ready for the
#: next site and the omnibox pop-ups headless Chromium preloads (two renderer processes,
#: about 60 MB, that draw nothing). The Node tools' `render.mjs` pass the same flag.
UNSHOWN_RENDERERS = ("--disable-features=SpareRendererForSitePerProcess,WebUIOmniboxPopup,"
                     "WebUIOmniboxAimPopup")

#: The JavaScript heap of a page at most 256 MB: V8 collects its garbage sooner. Kaleido's
#: page grew by some 5 MB an SVG export (to 1.3 GB over 300) before V8 collected it; with
#: this bound it stays near 600 MB, every image the same.
SMALL_JS_HEAP = "--js-flags=--max-old-space-size=256"


def chromium() -> str:
    """The Chromium the browser engines launch: `DIAGBENCH_CHROMIUM`, else Debian's."""
    return os.environ.get(CHROMIUM_ENV, "/usr/bin/chromium")
