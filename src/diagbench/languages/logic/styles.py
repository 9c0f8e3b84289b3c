"""The drawing styles of a logic schematic: schemdraw's style settings (`engine._styled`
sets them while a source is drawn) — blue ink, bold lines, gates filled in colour.
"""

from __future__ import annotations

from typing import Any

#: schemdraw's style settings of each style.
SCHEMDRAW_STYLES: dict[str, dict[str, Any]] = {
    "blue-ink": {"color": "#1f4e9c"},
    "bold-lines": {"lw": 3.5},
    "filled-gates": {"fill": "#fff2cc"},
}
#: The styles' names, handed to the drawer in the source's envelope (`languages.styled`).
STYLES = tuple(SCHEMDRAW_STYLES)
