"""The drawing styles of a BPMN diagram: style sheets put last in bpmn-js's SVG (`engine`),
`!important` so that they win over its inline styles; its layout is not touched.
(Not a font: librsvg keeps an inline font family over any style sheet.)
"""

from __future__ import annotations

#: The style sheet of each drawing style, put last in bpmn-js's SVG (`!important`: over
#: its inline styles; its layout is not touched), the style handed to the engine in
#: the source's envelope (`languages.styled`).
STYLES: dict[str, str] = {
    "blue-ink": ".djs-visual path, .djs-visual rect, .djs-visual circle, "
                ".djs-visual polygon, .djs-visual polyline, marker path "
                "{ stroke: #1f4e9c !important; } "
                ".djs-visual text, marker path { fill: #1f4e9c !important; }",
    "coloured-shapes": ".djs-shape > .djs-visual > rect { fill: #dbe8f6 !important; } "
                       ".djs-shape > .djs-visual > circle { fill: #e2f0d9 !important; } "
                       ".djs-shape > .djs-visual > polygon { fill: #fde9d9 !important; }",
    "bold-lines": ".djs-shape > .djs-visual > rect, .djs-shape > .djs-visual > circle, "
                  ".djs-shape > .djs-visual > polygon, .djs-connection > .djs-visual > path "
                  "{ stroke-width: 3.5px !important; }",
}
