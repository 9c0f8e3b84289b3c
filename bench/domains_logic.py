"""Diagrams per second of Boolean expressions (STRUDEL's propositional logic): reading
(diagbench's strict reader, truth tables left out) and rendering (schemdraw's
`logicparse` in `--jobs` worker processes, SVG by schemdraw's SVG backend and PNG by
rsvg-convert from it; PNG first, then SVG from the same drawing), on the generator's
codes of the three complexity levels, as `domains_biology.measure` measures a language.
Usage: python bench/domains_logic.py [--diagrams N] [--jobs J]  (default 10, 2)
"""

from __future__ import annotations

from domains_biology import main

if __name__ == "__main__":
    main(("logic",), __doc__ or "")
