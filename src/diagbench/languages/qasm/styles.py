"""The drawing styles of a circuit: styles of Qiskit's circuit drawer (`engine.draw_circuit`
gives it the style).
"""

from __future__ import annotations

#: Its drawing styles: styles of Qiskit's circuit drawer, handed to the drawer in the
#: source's envelope (`languages.styled`).
STYLES = ("bw", "clifford", "textbook", "iqp-dark")
