"""How a language whose styles are options of its own drawer (not statements of its
source) hands a style to that drawer: the source its engine is given
(`Language.prepare`) starts with one line naming the style, which the drawer takes off
before it reads the source. The line means nothing in any language; only diagbench's
own drawers read it. A drawer whose style only restyles the SVG it gets puts a style
sheet last in it (`with_style_sheet`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import ClassVar

_HEAD = "%diagbench-style "


def known(style: str, styles: Collection[str]) -> str:
    """`style` when it is "" or one of `styles`; ValueError naming them otherwise."""
    if style and style not in styles:
        raise ValueError(f"no drawing style {style!r}: the styles are {', '.join(styles)}")
    return style


def enveloped(style: str, source: str, styles: Collection[str]) -> str:
    """`source` with a first line naming `style`, one of `styles` ("" : `source` itself)."""
    return f"{_HEAD}{known(style, styles)}\n{source}" if style else source


def opened(source: str, styles: Collection[str]) -> tuple[str, str]:
    """(style, source) of an `enveloped` source ("" and `source` for one without the line);
    ValueError for a style not among `styles`."""
    if not source.startswith(_HEAD):
        return "", source
    head, _, rest = source.partition("\n")
    return known(head.removeprefix(_HEAD).strip() or "?", styles), rest


class DrawerStyles:
    """The styles of a language whose styles are its drawer's options (a `Language`
    mixin): `DRAWER_STYLES` names them; `prepare` hands the style to the drawer in the
    source's envelope."""

    __slots__ = ()
    DRAWER_STYLES: ClassVar[Collection[str]] = ()

    def prepare(self, source: str, kind: str, marked: bool, style: str = "") -> str:
        return enveloped(style, source, self.DRAWER_STYLES)

    def styles(self) -> tuple[str, ...]:
        return tuple(self.DRAWER_STYLES)


def with_style_sheet(svg: str, sheet: str) -> str:
    """`svg` with the CSS `sheet` put last in it (before its last `</svg>`), so that its
    rules win over the document's own style sheets (same selectors, later) and, marked
    `!important`, over inline `style` attributes."""
    end = svg.rfind("</svg>")
    return f"{svg[:end]}<style>{sheet}</style>{svg[end:]}" if end >= 0 else svg
