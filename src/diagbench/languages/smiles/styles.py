"""The drawing styles of molecules and reactions: RDKit's depiction options, set by the
drawers (`engine`) on their drawing options — the black-and-white atom palette, comic
mode, bold bonds, the drawing turned a quarter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: What each style sets on RDKit's drawing options.
STYLED: dict[str, Callable[[Any], None]] = {
    "black-and-white": lambda options: options.useBWAtomPalette(),
    "comic": lambda options: setattr(options, "comicMode", True),
    "bold-bonds": lambda options: setattr(options, "bondLineWidth", 4),
    "rotated": lambda options: setattr(options, "rotate", 90.0),
}
#: The styles' names, handed to the drawer in the source's envelope (`languages.styled`).
STYLES = tuple(STYLED)
