"""The drawing styles of a chess board (`engine.board_svg` draws them): other square
colours, and the board seen from Black's side.
"""

from __future__ import annotations

#: The (light, dark) squares of the board styles.
BOARD_COLOURS = {"green-board": ("#eeeed2", "#769656"), "blue-board": ("#dee3e6", "#8ca2ad")}
#: The style that draws the board seen from Black's side.
FLIPPED = "black-at-bottom"
#: The styles' names, handed to the drawer in the source's envelope (`languages.styled`).
STYLES = (*BOARD_COLOURS, FLIPPED)
