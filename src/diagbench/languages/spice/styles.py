"""The styles of a netlistsvg schematic (SPICE's analog skin, Verilog's digital one): a
style sheet put last in the SVG, whose rules override the skin's own (the same
selectors, later in the document) — blue ink, bold lines, sans-serif labels.
netlistsvg's layout is not touched: the drawn counts do not change.
"""

from __future__ import annotations

from diagbench.languages.styled import with_style_sheet

#: The style sheet of each style.
NETLISTSVG_STYLES: dict[str, str] = {
    "blue-ink": "svg { stroke: #1f4e9c; } text { fill: #1f4e9c; } "
                ".splitjoinBody, .detail { fill: #1f4e9c; }",
    "bold-lines": "svg { stroke-width: 2.2; } .symbol { stroke-width: 3; }",
    "sans-serif": 'text { font-family: "DejaVu Sans", sans-serif; font-weight: normal; }',
}
#: The styles' names, handed to the drawer in the source's envelope (`languages.styled`).
STYLES = tuple(NETLISTSVG_STYLES)


def styled_schematic(svg: str, style: str) -> str:
    """`svg` with the style sheet of `style` (one of `NETLISTSVG_STYLES`, "" for none)
    put last."""
    return with_style_sheet(svg, NETLISTSVG_STYLES[style]) if style else svg
