"""The styles of a netlistsvg schematic (SPICE's analog skin, Verilog's digital one): a
style sheet put last in the SVG, whose rules override the skin's own (the same
selectors, later in the document) — blue ink, bold lines, sans-serif labels.
netlistsvg's layout is not touched: the drawn counts do not change.
"""

from __future__ import annotations

#: The style sheet of each style.
NETLISTSVG_STYLES: dict[str, str] = {
    "blue-ink": "svg { stroke: #1f4e9c; } text { fill: #1f4e9c; } "
                ".splitjoinBody, .detail { fill: #1f4e9c; }",
    "bold-lines": "svg { stroke-width: 2.2; } .symbol { stroke-width: 3; }",
    "sans-serif": 'text { font-family: "DejaVu Sans", sans-serif; font-weight: normal; }',
}


def styled_schematic(svg: str, style: str) -> str:
    """`svg` with the style sheet of `style` (one of `NETLISTSVG_STYLES`, "" for none)
    put last."""
    if not style:
        return svg
    end = svg.rfind("</svg>")
    return f"{svg[:end]}<style>{NETLISTSVG_STYLES[style]}</style>{svg[end:]}"
