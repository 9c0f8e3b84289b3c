"""The drawing styles of a sequence logo (`engine.draw_logo` draws them): logomaker's grey
scheme, another colour scheme, serif letters.
"""

from __future__ import annotations

#: Its drawing styles (`engine.draw_logo`), handed to the drawer in the source's envelope
#: (`languages.styled`).
STYLES = ("grays", "other-colours", "serif-letters")
