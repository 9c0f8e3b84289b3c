"""The drawing styles of an RNA structure: VARNA's options, given after diagbench's own
(`engine.run_varna`) — the radiate and circular layouts, bases filled in colour (pairs
keep their colour, which the drawn statistics read).
"""

from __future__ import annotations

#: VARNA's options of each style (given after the default ones, which they override).
VARNA_STYLES: dict[str, tuple[str, ...]] = {
    "radiate": ("-algorithm", "radiate"),
    "circular": ("-algorithm", "circular"),
    "coloured-bases": ("-baseInner", "#FFD27F", "-baseOutline", "#7F4F00"),
}
#: The styles' names, handed to the drawer in the source's envelope (`languages.styled`).
STYLES = tuple(VARNA_STYLES)
