"""The drawing styles of a map (`engine.draw_map` draws them): pastel colours, a sea-blue
background with a graticule, a dark map.
"""

from __future__ import annotations

#: Its drawing styles (`engine.draw_map`), handed to the drawer in the source's envelope
#: (`languages.styled`).
STYLES = ("pastel", "sea-and-graticule", "dark")
