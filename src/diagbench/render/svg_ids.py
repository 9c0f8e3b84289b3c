"""Chance out of an engine's SVG, so that the same diagram always draws the same bytes:
bpmn-js names each arrow marker at random (`marker-<25 characters>`); Plotly puts a
random figure id (six hex digits) into its clip paths, legend and defs, and sets its
root element's `viewBox` and `style` in whichever order its drawing finishes them. What
is drawn is unchanged: only names (with every reference to them) and the order of
attributes are."""

from __future__ import annotations

import re

_BPMN_MARKER = re.compile(rb'id="(marker-[0-9a-z]{25})"')
_PLOTLY_UID = re.compile(rb'<defs id="defs-([0-9a-f]{6})"')
_ROOT = re.compile(rb"<svg\b([^>]*?)(/?)>")
_ATTRIBUTE = re.compile(rb'\s+([^\s=]+)="([^"]*)"')


def steady_markers(svg: bytes) -> bytes:
    """bpmn-js' SVG with its markers named `marker-1`, `marker-2` … in the order they
    are defined, and every reference to them renamed alike."""
    for n, name in enumerate(dict.fromkeys(_BPMN_MARKER.findall(svg)), start=1):
        svg = svg.replace(name, b"marker-%d" % n)
    return svg


def steady_plotly(svg: bytes) -> bytes:
    """Plotly's SVG with its random figure id, in the ids it is part of and the
    references to them, made "000000", and its root element's attributes in name
    order."""
    root = _ROOT.search(svg)
    if root is not None and _ATTRIBUTE.sub(b"", root.group(1)).strip() == b"":
        attributes = sorted(_ATTRIBUTE.findall(root.group(1)))
        svg = (svg[:root.start()] + b"<svg" + b"".join(b' %s="%s"' % a for a in attributes)
               + root.group(2) + b">" + svg[root.end():])
    found = _PLOTLY_UID.search(svg)
    if found is None:
        return svg
    return re.sub(rb"((?:id=\"|url\(#|url\('#)[A-Za-z_-]*)" + found.group(1), rb"\g<1>000000",
                  svg)
