"""How a language whose styles are options of its own drawer (not statements of its
source) hands a style to that drawer: the source its engine is given
(`Language.prepare`) starts with one line naming the style, which the drawer takes off
before it reads the source. The line means nothing in any language; only diagbench's
own drawers read it.
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
