"""How a language whose styles are options of its own drawer (not statements of its
source) hands a style to that drawer: the source its engine is given
(`Language.prepare`) starts with one line naming the style, which the drawer takes off
before it reads the source. The line means nothing in any language; only diagbench's
own drawers read it. A drawer whose style only restyles the SVG it gets puts a style
sheet last in it (`with_style_sheet`).
"""

from __future__ import annotations

from collections.abc import Collection

_HEAD = "%diagbench-style "


def enveloped(style: str, source: str) -> str:
    """`source` with a first line naming `style` ("" : `source` itself)."""
    return f"{_HEAD}{style}\n{source}" if style else source


def opened(source: str, styles: Collection[str]) -> tuple[str, str]:
    """(style, source) of an `enveloped` source ("" and `source` for one without the line);
    ValueError for a style not among `styles`."""
    if not source.startswith(_HEAD):
        return "", source
    head, _, rest = source.partition("\n")
    style = head.removeprefix(_HEAD).strip()
    if style not in styles:
        raise ValueError(f"no drawing style {style!r}: the styles are {', '.join(styles)}")
    return style, rest


def with_style_sheet(svg: str, sheet: str) -> str:
    """`svg` with the CSS `sheet` put last in it (before its last `</svg>`), so that its
    rules win over the document's own style sheets (same selectors, later) and, marked
    `!important`, over inline `style` attributes."""
    end = svg.rfind("</svg>")
    return f"{svg[:end]}<style>{sheet}</style>{svg[end:]}" if end >= 0 else svg
