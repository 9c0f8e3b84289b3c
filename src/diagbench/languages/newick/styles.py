"""The drawing styles of a Newick tree (`engine.draw_tree` draws them): each subtree of the
root in its own colour, bold branches, serif labels.
"""

from __future__ import annotations

#: Its drawing styles, handed to the drawer in the source's envelope
#: (`languages.styled`).
STYLES = ("coloured-clades", "bold-branches", "serif-labels")
