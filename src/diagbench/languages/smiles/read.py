"""SMILES: read with RDKit into the molecule model (`diagbench.diagram.molecule`).

A `.smi` file holds one molecule per line, "SMILES [title]" (the title after a space
or a tab; a CXSMILES extension `|…|` after the SMILES is allowed, as RDKit reads it).
Blank lines are skipped, and so is a first line that names its columns (its first
word is "SMILES", in any case), as in RDKit's own `.smi` files. Each molecule is one
`Parsed` (`index` its position among the molecules, `first_line` its line).

`read_smiles(text)` never raises. RDKit parses and sanitises each line (valences,
aromaticity, kekulisation); what it rejects is one error diagnostic on that line with
RDKit's own message (its log is captured, never printed). The model is RDKit's
reading: atoms by element with charge, hydrogens, aromaticity and isotope; bonds by
order; the smallest set of smallest rings (SSSR: bonds − atoms + parts of them) and
the aromatic ones; the functional groups
of `FUNCTIONAL_GROUPS` (SMARTS patterns, matched by RDKit's substructure search).
"""

from __future__ import annotations

import contextlib
import io
import threading
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from diagbench.diagram.graph import Entity, Relation, RelationType
from diagbench.diagram.molecule import Molecule
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed

if TYPE_CHECKING:
    from rdkit import Chem

#: The longest SMILES line read (a drug-like molecule is under 200 characters; a
#: protein written atom by atom a few tens of thousands).
MAX_LINE_CHARS = 100_000

#: The functional groups reported, as (name, SMARTS). The patterns follow Daylight's
#: SMARTS examples (daylight.com/dayhtml_tutorials/languages/smarts/smarts_examples.html);
#: each match is one occurrence, and a carboxylic acid or an ester is not also counted as
#: an alcohol, an ether or a ketone (the patterns of those exclude the carbonyl).
FUNCTIONAL_GROUPS: tuple[tuple[str, str], ...] = (
    ("carboxylic acid", "[CX3](=O)[OX2H1,OX1-]"),
    ("ester", "[#6][CX3](=O)[OX2H0][#6]"),
    ("amide", "[NX3][CX3](=[OX1])[#6]"),
    ("aldehyde", "[CX3H1](=O)[#6]"),
    ("ketone", "[#6][CX3](=O)[#6]"),
    ("alcohol", "[OX2H][CX4]"),
    ("phenol", "[OX2H][c]"),
    ("ether", "[OD2]([#6;!$(C=O)])[#6;!$(C=O)]"),
    ("primary amine", "[NX3;H2;!$(NC=[O,S,N])][#6]"),
    ("secondary amine", "[NX3;H1;!$(NC=[O,S,N])]([#6])[#6]"),
    ("tertiary amine", "[NX3;H0;!$(NC=[O,S,N]);!$(N=*);!$([N+]);!$(N-[!#6])]([#6])([#6])[#6]"),
    ("nitrile", "[NX1]#[CX2]"),
    ("nitro", "[$([NX3](=O)=O),$([NX3+](=O)[O-])](~O)"),
    ("halide", "[#6][F,Cl,Br,I]"),
    ("thiol", "[#16X2H]"),
    ("alkene", "[CX3]=[CX3]"),
    ("alkyne", "[CX2]#[CX2]"),
)

_BOND_TYPES: dict[str, RelationType] = {
    "SINGLE": "single_bond", "DOUBLE": "double_bond", "TRIPLE": "triple_bond",
    "QUADRUPLE": "quadruple_bond", "AROMATIC": "aromatic_bond", "DATIVE": "dative_bond",
}
_LOG_LOCK = threading.Lock()


@contextlib.contextmanager
def rdkit_log() -> Iterator[io.StringIO]:
    """RDKit's log while the block runs, captured (RDKit is told to log to Python's
    stderr, which is redirected): it is read, never printed."""
    from rdkit import rdBase

    rdBase.LogToPythonStderr()
    buffer = io.StringIO()
    with _LOG_LOCK, contextlib.redirect_stderr(buffer):
        yield buffer


def rdkit_message(log: str, source: str = "") -> str:
    """RDKit's log of one failure as one line: its messages without the time stamps,
    the echoed input (`source`) and the caret line."""
    messages = []
    for line in log.splitlines():
        text = line.split("] ", 1)[1] if line.startswith("[") and "] " in line else line
        text = text.removeprefix("SMILES Parse Error: ").strip().rstrip(":")
        if text and text not in messages and text != source.strip() \
                and not set(text) <= {"~", "^", " "}:
            messages.append(text)
    return "; ".join(m for m in messages[:3] if not m.startswith("Failed parsing")) or \
        (messages[0] if messages else "RDKit could not read it")


def records(text: str) -> list[tuple[int, str]]:
    """(1-based line number, line) of each molecule of a `.smi` text: blank lines and a
    column-header first line left out."""
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").split("\n")
    out = [(n, line.strip()) for n, line in enumerate(lines, 1) if line.strip()]
    if out and out[0][1].split()[0].casefold() == "smiles":
        out = out[1:]
    return out


def record_texts(text: str) -> list[tuple[int, str]]:
    """(line number, text) of each molecule of a `.smi` text, drawn one at a time."""
    return [(n, line + "\n") for n, line in records(text)]


def parse_line(line: str) -> tuple[Any, str]:
    """(RDKit molecule or None, RDKit's message) of one "SMILES [title]" line."""
    from rdkit import Chem

    params = Chem.SmilesParserParams()
    params.parseName = True  # type: ignore[assignment]  # RDKit's stubs type it wrongly
    params.strictCXSMILES = False  # type: ignore[assignment]
    with rdkit_log() as log:
        mol = Chem.MolFromSmiles(line, params)
    return mol, "" if mol is not None else rdkit_message(log.getvalue(), line.split()[0])


def read_smiles(text: str) -> list[Parsed[Molecule]]:
    """Every molecule of a `.smi` text, with diagnostics."""
    found = records(text)
    if not found:
        return [Parsed(0, 1, "smiles", "molecule", Molecule("smiles", "molecule"),
                       (Diagnostic(1, "", "no SMILES in the source"),))]
    out: list[Parsed[Molecule]] = []
    for index, (number, line) in enumerate(found):
        if len(line) > MAX_LINE_CHARS:
            reason = f"SMILES of {len(line):,} characters not read: over {MAX_LINE_CHARS:,}"
            mol, message = None, reason
        else:
            mol, message = parse_line(line)
        if mol is None:
            out.append(Parsed(index, number, "smiles", "molecule",
                              Molecule("smiles", "molecule"),
                              (Diagnostic(number, line, f"SMILES not read: {message}"),)))
        else:
            out.append(Parsed(index, number, "smiles", "molecule", molecule(mol, number)))
    return out


def molecule(mol: Chem.Mol, line: int = 0) -> Molecule:
    """The model of an RDKit molecule (see `diagbench.diagram.molecule`)."""
    from rdkit import Chem
    from rdkit.Chem.rdMolDescriptors import CalcMolFormula

    def atom_id(index: int) -> str:
        return f"a{index + 1}"

    entities = []
    for atom in mol.GetAtoms():
        properties = [(key, value) for key, value in (
            ("charge", f"{atom.GetFormalCharge():+d}" if atom.GetFormalCharge() else ""),
            ("hydrogens", str(atom.GetTotalNumHs()) if atom.GetTotalNumHs() else ""),
            ("aromatic", "yes" if atom.GetIsAromatic() else ""),
            ("isotope", str(atom.GetIsotope()) if atom.GetIsotope() else "")) if value]
        entities.append(Entity(atom_id(atom.GetIdx()), atom.GetSymbol(), "atom",
                               properties=tuple(properties), line=line))
    kekule = Chem.Mol(mol)
    Chem.Kekulize(kekule)
    relations = []
    for bond in mol.GetBonds():
        kind = _BOND_TYPES.get(str(bond.GetBondType()), "single_bond")
        drawn = _BOND_TYPES.get(str(kekule.GetBondWithIdx(bond.GetIdx()).GetBondType()),
                                "single_bond")
        relations.append(Relation(atom_id(bond.GetBeginAtomIdx()), atom_id(bond.GetEndAtomIdx()),
                                  kind, properties=(("drawn", drawn),) if drawn != kind else (),
                                  line=line))
    # the smallest set of smallest rings: as many as bonds − atoms + parts (RDKit's
    # RingInfo holds the symmetrised set, one more for a cage such as cubane)
    rings = tuple(tuple(atom_id(i) for i in ring) for ring in Chem.GetSSSR(mol))
    aromatic = tuple(r for r in rings
                     if all(mol.GetAtomWithIdx(int(a[1:]) - 1).GetIsAromatic() for a in r))
    name = mol.GetProp("_Name") if mol.HasProp("_Name") else ""
    return Molecule("smiles", "molecule", tuple(entities), tuple(relations),
                    name=name or None, smiles=Chem.MolToSmiles(mol),
                    formula=CalcMolFormula(mol), rings=rings, aromatic_rings=aromatic,
                    charge=Chem.GetFormalCharge(mol), groups=functional_groups(mol))


@cache
def _patterns() -> tuple[tuple[str, Any], ...]:
    from rdkit import Chem

    return tuple((name, Chem.MolFromSmarts(smarts)) for name, smarts in FUNCTIONAL_GROUPS)


def functional_groups(mol: Chem.Mol) -> tuple[tuple[str, int], ...]:
    """(name, occurrences) of each group of `FUNCTIONAL_GROUPS` found in `mol`, in that
    list's order (an occurrence: a match on a set of atoms no earlier match used)."""
    found = []
    for name, pattern in _patterns():
        used: set[int] = set()
        count = 0
        for match in mol.GetSubstructMatches(pattern):
            if not used & set(match):
                used |= set(match)
                count += 1
        if count:
            found.append((name, count))
    return tuple(found)


def canonical(line: str) -> str | None:
    """The canonical SMILES of one line as RDKit writes it, None when it does not parse."""
    from rdkit import Chem

    mol, _ = parse_line(line)
    return None if mol is None else Chem.MolToSmiles(mol)
