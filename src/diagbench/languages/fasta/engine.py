"""FASTA alignments drawn as sequence logos by logomaker on matplotlib (Agg), PNG and
SVG from one drawing, in worker processes (`render.drawing`: time-out, memory limit).

Valid means the FASTA reader reads the file without error (Biopython's parser, the
IUPAC letters) and the sequences are aligned (one length, at most `MAX_POSITIONS`);
the reader's message is the engine's error. The logo is a counts logo (letter heights
= how many sequences have that letter at that position, gaps left out; stacked tallest
on top; classic colours for nucleotides, logomaker's "chemistry" scheme for proteins),
positions numbered 1…length on the x axis, counts on the y axis. A source in an
envelope (`languages.styled`) is drawn in its style: logomaker's "grays" scheme,
another colour scheme (`OTHER_COLOURS`), or letters in DejaVu Serif.

What the SVG shows (`logo_statistics`): each glyph logomaker draws is a path patch;
the drawer gives it the SVG id `glyph_<position>_<letter>` from logomaker's own glyph
table (`Logo.glyph_df`), so the statistics read per glyph its letter, position and
drawn height (the y extent of its path); logomaker draws no glyph for a count of
zero. Positions = the x-axis tick labels (`<text>`, text kept as
text), letters = glyphs with a height, consensus = the tallest glyph per position.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from diagbench.languages.fasta.styles import STYLES
from diagbench.languages.styled import opened
from diagbench.render.drawing import DrawingEngine, figure, images, text_path

#: Alignments longer than this are not drawn (the logo grows with the positions).
MAX_POSITIONS = 60
_SVG = "{http://www.w3.org/2000/svg}"
_NUCLEOTIDES = {"A": "green", "C": "blue", "G": "orange", "T": "red", "U": "red"}
#: The "other-colours" style's logomaker scheme, by alphabet (else nucleotides').
OTHER_COLOURS = {"protein": "hydrophobicity"}


def draw_logo(source: str) -> dict[str, Any]:
    """{"svg": bytes, "png": bytes} of the logo of a FASTA alignment (runs in a worker),
    or {"error": the reader's message, "line": its line}."""
    import importlib

    import logomaker  # type: ignore[import-untyped]  # no stubs, no py.typed

    from diagbench.languages.fasta.read import read_fasta

    # logomaker outlines each glyph's letter (and its widest letter) afresh: once per process
    glyphs: Any = importlib.import_module("logomaker.src.Glyph")
    glyphs.TextPath = text_path

    style, source = opened(source, STYLES)
    [parsed] = read_fasta(source)
    model = parsed.diagram
    problem = next(iter(parsed.errors), None)
    if problem is not None:
        return {"error": problem.reason, "line": problem.line}
    if not model.aligned:
        return {"error": "sequences of unequal lengths: not an alignment, no logo",
                "line": model.records[0].line if model.records else 1}
    if model.length > MAX_POSITIONS:
        return {"error": f"{model.length:,} positions, over the {MAX_POSITIONS:,}-position "
                         "drawing limit", "line": None, "too_large": True}
    counts = logomaker.alignment_to_matrix([r.sequence.upper() for r in model.records],
                                           to_type="counts", characters_to_ignore=".-")
    counts.index = range(1, len(counts) + 1)
    colours: Any = ("chemistry" if model.alphabet == "protein"
                    else {c: _NUCLEOTIDES.get(c, "dimgray") for c in counts.columns})
    if style == "grays":
        colours = "grays"
    elif style == "other-colours":
        colours = OTHER_COLOURS.get(model.alphabet, "base_pairing")
    font = {"font_name": "DejaVu Serif"} if style == "serif-letters" else {}
    with figure(1.0 + 0.35 * model.length, 2.4) as (fig, axes), limits_set_after(axes):
        logo = logomaker.Logo(counts, ax=axes, color_scheme=colours, **font)
        for position, row in logo.glyph_df.iterrows():
            for letter, glyph in row.items():
                if glyph is not None and glyph.patch is not None:  # a zero count: none
                    glyph.patch.set_gid(f"glyph_{position}_{letter}")
        axes.set_xticks(list(counts.index))
        axes.set_ylabel("count")
        logo.style_spines(visible=False)
        logo.style_spines(spines=["left", "bottom"], visible=True)
        return images(fig)


@contextmanager
def limits_set_after(axes: Any) -> Iterator[None]:
    """Patches added to `axes` meanwhile widen its data limits only afterwards, and only
    where they are still used: logomaker adds every letter as a patch (the limits
    widened by the extents of each letter's curves: a fifth of its time), then sets
    both axes' limits itself, which turns autoscaling off, and the data limits are
    never read. An axis still autoscaled has its data limits recomputed from every
    artist, in order, as adding them one by one did."""
    axes._update_patch_limits = lambda patch: None
    try:
        yield
    finally:
        del axes._update_patch_limits  # the Axes' own method again
    if axes.get_autoscalex_on() or axes.get_autoscaley_on():
        axes.relim()


class LogoEngine(DrawingEngine):
    """Render FASTA alignments as logomaker sequence logos in worker processes (PNG and
    SVG from one drawing: `DrawingEngine`)."""

    name = "logo"
    drawer = "diagbench.languages.fasta.engine:draw_logo"
    preload = ("matplotlib.pyplot", "logomaker", "Bio.SeqIO")

    def version(self) -> str:
        return self.versions("logomaker", "matplotlib")


def _height(path: ET.Element) -> float:
    """The y extent of a path's points (its `d` as matplotlib writes it: M/L/Q/C/z and
    x y pairs)."""
    numbers = [float(x) for x in path.get("d", "").replace("z", " ").split()
               if x not in {"M", "L", "Q", "C", "Z"}]
    ys = numbers[1::2]
    return max(ys) - min(ys) if ys else 0.0


def logo_statistics(svg: str) -> dict[str, Any]:
    """What logomaker drew (see the module's docstring): positions, letters, and the
    consensus read off the glyphs."""
    root = ET.fromstring(svg)
    tallest: dict[int, tuple[float, str]] = {}
    letters = 0
    for group in root.iter(f"{_SVG}g"):
        gid = group.get("id", "")
        if not gid.startswith("glyph_"):
            continue
        _, position, letter = gid.split("_", 2)
        height = max((_height(p) for p in group.iter(f"{_SVG}path")), default=0.0)
        if height > 0.01:
            letters += 1
            k = int(position)
            if k not in tallest or height > tallest[k][0] + 0.01:
                tallest[k] = (height, letter)
    ticks = [t for g in root.iter(f"{_SVG}g") if g.get("id", "").startswith("xtick_")
             for t in g.iter(f"{_SVG}text")]
    return {"positions": len(ticks), "letters": letters,
            "consensus": "".join(tallest[k][1] if k in tallest else "-"
                                 for k in range(1, len(ticks) + 1))}
