"""RDKit's 2D depiction of SMILES, in worker processes with a time-out and size limits.

RDKit is a C++ library: run in diagbench's own process, a molecule that makes it hang
or crash would take diagbench along. The engines are `DrawingEngine`s (`render.drawing`,
`render.worker`): warm worker processes with RDKit imported once, each under a memory
limit; a worker that does not answer within the time-out is killed, the molecule gets
that error, and a fresh worker takes the next one (so does a worker that died). A
source over `refusal`'s size or `MAX_ATOMS` is refused with its reason.

One source is one molecule (one line of a `.smi` file, `diagbench.render.engines.
diagrams` splits files), or for `RdkitReactionEngine` one reaction (a line of a
`.rxn.smi` file, drawn by RDKit's reaction depiction, three times as wide as high).
The drawer draws the SVG (for a molecule with RDKit's metadata: each atom's and bond's
SMILES) and the PNG from the same prepared molecule, in one pass. Valid means RDKit
read and drew it; the error is RDKit's own message. A source in an envelope
(`languages.styled`) is drawn in its style, with that style's options (`STYLED`).
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import version as package_version
from typing import Any

from diagbench.languages.smiles.styles import STYLED, STYLES
from diagbench.languages.styled import opened
from diagbench.render.drawing import DrawingEngine

#: The side of the square drawing (a reaction's height), in pixels.
SIZE = 300
#: The most atoms drawn: beyond, the depiction takes seconds and draws an unreadable blot.
MAX_ATOMS = 500


@cache
def rdkit_version() -> str:
    return package_version("rdkit")


def _one_line(source: str, what: str) -> tuple[int, str] | dict[str, Any]:
    """(line number, line) of the source's one record, or the error of a drawer."""
    from diagbench.languages.smiles.read import records

    lines = records(source)
    if len(lines) != 1:
        return {"error": f"one {what} per drawing, not {len(lines)}", "line": None}
    return lines[0]


def _too_many(atoms: int, line: int) -> dict[str, Any] | None:
    if atoms > MAX_ATOMS:
        return {"error": f"{atoms} atoms: over the {MAX_ATOMS} drawn at most", "line": line,
                "too_large": True}
    return None


def draw_molecule(source: str) -> dict[str, Any]:
    """{"svg": bytes, "png": bytes} of the molecule of `source` (runs in a worker), or
    {"error": RDKit's message, "line": its line}."""
    from rdkit.Chem.Draw import rdMolDraw2D

    from diagbench.languages.smiles.read import parse_line

    style, source = opened(source, STYLES)
    found = _one_line(source, "molecule")
    if isinstance(found, dict):
        return found
    number, line = found
    mol, message = parse_line(line)
    if mol is None:
        return {"error": message, "line": number}
    if mol.GetNumAtoms() == 0:
        return {"error": "no atoms to draw", "line": number}
    refused = _too_many(mol.GetNumAtoms(), number)
    if refused is not None:
        return refused
    prepared = rdMolDraw2D.PrepareMolForDrawing(mol, addChiralHs=False)
    svg = rdMolDraw2D.MolDraw2DSVG(SIZE, SIZE)
    png = rdMolDraw2D.MolDraw2DCairo(SIZE, SIZE)
    for drawer in (svg, png):
        # prepared once, above (RDKit's stubs type the option wrongly)
        drawer.drawOptions().prepareMolsBeforeDrawing = False  # type: ignore[assignment]
        if style:
            STYLED[style](drawer.drawOptions())
        drawer.DrawMolecule(prepared)
    svg.AddMoleculeMetadata(prepared)
    for drawer in (svg, png):
        drawer.FinishDrawing()
    return {"svg": svg.GetDrawingText().encode("utf-8"), "png": png.GetDrawingText()}


def draw_reaction(source: str) -> dict[str, Any]:
    """{"svg": bytes, "png": bytes} of the reaction of `source` (runs in a worker), or
    {"error": RDKit's message, "line": its line}."""
    from rdkit.Chem.Draw import rdMolDraw2D

    from diagbench.languages.reaction_smiles.read import parse_reaction

    style, source = opened(source, STYLES)
    found = _one_line(source, "reaction")
    if isinstance(found, dict):
        return found
    number, line = found
    rxn, sides, message = parse_reaction(line)
    if rxn is None:
        return {"error": message, "line": number}
    refused = _too_many(sum(m.GetNumAtoms() for side in sides for m in side), number)
    if refused is not None:
        return refused
    drawers = {"svg": rdMolDraw2D.MolDraw2DSVG(3 * SIZE, SIZE),
               "png": rdMolDraw2D.MolDraw2DCairo(3 * SIZE, SIZE)}
    for drawer in drawers.values():
        if style:
            STYLED[style](drawer.drawOptions())
        drawer.DrawReaction(rxn)
        drawer.FinishDrawing()
    return {"svg": drawers["svg"].GetDrawingText().encode("utf-8"),
            "png": drawers["png"].GetDrawingText()}


class RdkitEngine(DrawingEngine):
    """Draw SMILES with RDKit, `jobs` worker processes at a time."""

    name = "rdkit"
    drawer = "diagbench.languages.smiles.engine:draw_molecule"
    preload = ("rdkit.Chem.Draw.rdMolDraw2D",)

    def version(self) -> str:
        return rdkit_version()


class RdkitReactionEngine(RdkitEngine):
    """Draw reaction SMILES with RDKit's reaction depiction (same workers and limits)."""

    name = "rdkit-reaction"
    drawer = "diagbench.languages.smiles.engine:draw_reaction"
