"""Diagrams per second of the geography language (issue 31), GeoJSON on the `geomap`
engine: reading (the reader on its synth's maps of real countries) and rendering (PNG,
then SVG from the same drawing, in the engine's worker processes; the first batch
includes starting them), measured as `domains_biology.measure` measures a language.

Usage: python bench/domains_geo.py [--diagrams N] [--jobs J]  (default 10, 2)
"""

from __future__ import annotations

from domains_biology import main

if __name__ == "__main__":
    main(("geojson",), __doc__)
