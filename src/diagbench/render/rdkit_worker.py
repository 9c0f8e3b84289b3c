"""The RDKit drawing worker: a separate process that `diagbench.render.rdkit` starts and
kills (RDKit is C++: a molecule that hangs or crashes it must not take diagbench along).

It reads one JSON job a line on stdin — {"smiles": "SMILES [title]", "svg": path,
"png": path, "size": pixels, "reaction": bool} — draws the molecule with RDKit's 2D
depiction (`rdMolDraw2D`: the SVG with the molecule's metadata, then the PNG from the
same prepared molecule), or with "reaction" the reaction SMILES with RDKit's reaction
depiction (three times as wide as high), into both files, and answers one JSON line:
{"ok": true} or {"ok": false, "error": RDKit's message}.
"""

from __future__ import annotations

import json
import resource
import sys
from typing import Any

#: The address space the worker may use (RDKit and its Python need about 300 MB): it
#: sets the limit on itself before reading any job.
MEMORY_BYTES = 2 * 1024**3

#: The most atoms drawn: beyond, the depiction takes seconds and draws an unreadable blot.
MAX_ATOMS = 500


def draw(job: dict[str, Any]) -> dict[str, Any]:
    """Draw one job's molecule into its SVG and PNG files; the answer to send back."""
    from rdkit.Chem.Draw import rdMolDraw2D

    from diagbench.formats.smiles import parse_line

    if job.get("reaction"):
        return draw_reaction(job)
    mol, message = parse_line(job["smiles"])
    if mol is None:
        return {"ok": False, "error": message}
    if mol.GetNumAtoms() == 0:
        return {"ok": False, "error": "no atoms to draw"}
    if mol.GetNumAtoms() > MAX_ATOMS:
        return {"ok": False,
                "error": f"{mol.GetNumAtoms()} atoms: over the {MAX_ATOMS} drawn at most"}
    prepared = rdMolDraw2D.PrepareMolForDrawing(mol, addChiralHs=False)
    size = int(job.get("size", 300))
    svg = rdMolDraw2D.MolDraw2DSVG(size, size)
    # prepared once, above (RDKit's stubs type the option wrongly)
    svg.drawOptions().prepareMolsBeforeDrawing = False  # type: ignore[assignment]
    svg.DrawMolecule(prepared)
    svg.AddMoleculeMetadata(prepared)
    svg.FinishDrawing()
    png = rdMolDraw2D.MolDraw2DCairo(size, size)
    png.drawOptions().prepareMolsBeforeDrawing = False  # type: ignore[assignment]
    png.DrawMolecule(prepared)
    png.FinishDrawing()
    with open(job["svg"], "w", encoding="utf-8") as out:
        out.write(svg.GetDrawingText())
    with open(job["png"], "wb") as binary:
        binary.write(png.GetDrawingText())
    return {"ok": True}


def draw_reaction(job: dict[str, Any]) -> dict[str, Any]:
    """Draw one job's reaction into its SVG and PNG files; the answer to send back."""
    from rdkit.Chem.Draw import rdMolDraw2D

    from diagbench.formats.reaction_smiles import parse_reaction

    rxn, sides, message = parse_reaction(job["smiles"])
    if rxn is None:
        return {"ok": False, "error": message}
    atoms = sum(m.GetNumAtoms() for side in sides for m in side)
    if atoms > MAX_ATOMS:
        return {"ok": False, "error": f"{atoms} atoms: over the {MAX_ATOMS} drawn at most"}
    height = int(job.get("size", 300))
    for drawer, path, mode in ((rdMolDraw2D.MolDraw2DSVG(3 * height, height), job["svg"], "w"),
                               (rdMolDraw2D.MolDraw2DCairo(3 * height, height), job["png"],
                                "wb")):
        drawer.DrawReaction(rxn)
        drawer.FinishDrawing()
        with open(path, mode) as out:
            out.write(drawer.GetDrawingText())
    return {"ok": True}


def main() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    for line in sys.stdin:
        try:
            answer = draw(json.loads(line))
        except Exception as exc:  # any failure of one job is that job's error
            answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
