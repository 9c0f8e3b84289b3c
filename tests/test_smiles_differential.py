"""SMILES, differentially: generated molecules (the seeded generator at its three
complexity levels, and mutated copies) and RDKit's own `.smi` files are read by the
reader, drawn by the RDKit engine and read by Open Babel (a separate program and an
independent SMILES parser). The reader's atoms, bonds, elements and drawn bond orders
must be what RDKit's SVG marks, and its atoms, bonds, heavy elements, triple bonds and
ring count (bonds − atoms + parts) what Open Babel counts (heavy atoms: Open Babel
deletes every hydrogen, RDKit keeps one that carries stereo); a line the reader rejects
the engine rejects too."""

from __future__ import annotations

import random
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from diagbench.diagram.molecule import Molecule
from diagbench.languages.smiles.drawn import molecule_statistics
from diagbench.languages.smiles.engine import RdkitEngine
from diagbench.languages.smiles.read import rdkit_log, read_smiles, records
from diagbench.languages.smiles.synth import synth_smiles
from tests.sizes import sized

pytestmark = pytest.mark.differential
REALWORLD = Path(__file__).resolve().parents[2] / "shared" / "data" / "realworld" / "rdkit-smiles"
needs_obabel = pytest.mark.skipif(shutil.which("obabel") is None, reason="needs Open Babel")


def generated(count: int, seed: int = 31) -> list[str]:
    """`count` molecules per complexity level, seeded."""
    rng = random.Random(seed)
    return [synth_smiles(rng, level) for level in ("low", "medium", "high")
            for _ in range(count)]


def mutated(codes: list[str], seed: int = 32) -> list[str]:
    """Each code with one character replaced, deleted or inserted (many no longer
    parse)."""
    rng = random.Random(seed)
    alphabet = "CNOSclnos()=#123[]+-@"
    out = []
    for code in codes:
        k = rng.randrange(len(code))
        how = rng.choice(("replace", "delete", "insert"))
        out.append(code[:k] + (rng.choice(alphabet) if how != "delete" else "")
                   + code[k + (how != "insert"):])
    return out


def _formula_elements(formula: str) -> Counter[str]:
    """Open Babel's formula ("C9H8O4", "C4H12ClN+") as element counts."""
    counts: Counter[str] = Counter()
    k = 0
    while k < len(formula):
        if formula[k].isupper():
            j = k + 1
            while j < len(formula) and formula[j].islower():
                j += 1
            d = j
            while d < len(formula) and formula[d].isdigit():
                d += 1
            counts[formula[k:j]] += int(formula[j:d] or 1)
            k = d
        else:
            k += 1
    return counts


def open_babel(lines: list[str]) -> list[dict[str, object]]:
    """Open Babel's counts of each SMILES (hydrogens deleted, as RDKit's reader does)."""
    text = "".join(f"{line.split()[0]} m{k}\n" for k, line in enumerate(lines))
    done = subprocess.run(["obabel", "-ismi", "-otxt", "-d", "--append",
                           "atoms bonds tbonds formula cansmi"], input=text,
                          capture_output=True, text=True, timeout=300, check=False)
    out: dict[int, dict[str, object]] = {}
    for row in done.stdout.splitlines():
        title, atoms, bonds, triple, formula, *smiles = row.split()
        parts = smiles[0].count(".") + 1 if smiles else 1
        elements = _formula_elements(formula)
        elements.pop("H", None)
        out[int(title[1:])] = {"atoms": int(atoms), "bonds": int(bonds),
                               "triple": int(triple), "elements": dict(elements),
                               "rings": int(bonds) - int(atoms) + parts}
    return [out.get(k, {}) for k in range(len(lines))]


def _read(line: str) -> Molecule | None:
    [parsed] = read_smiles(line)
    return None if parsed.errors else parsed.diagram


def _engine_agrees(lines: list[str], folder: Path) -> list[str]:
    """The disagreements between the reader and what the engine drew, one line each."""
    problems = []
    results = RdkitEngine(jobs=2).render([line + "\n" for line in lines], folder, "svg")
    for line, result in zip(lines, results, strict=True):
        m = _read(line)
        if m is None or not result.ok:
            if (m is None) != (not result.ok):
                problems.append(f"{line}: reader {'rejects' if m is None else 'reads'}, "
                                f"engine {result.error or 'draws'}")
            continue
        assert result.image is not None
        drawn = molecule_statistics(result.image.read_text(encoding="utf-8"))
        read = {"entities": len(m.entities), "relations": len(m.relations), "clusters": 0,
                "notes": 0, "elements": dict(m.elements()), "bonds": dict(m.drawn_bond_orders())}
        if drawn != read:
            problems.append(f"{line}: drawn {drawn}, read {read}")
    return problems


def _open_babel_agrees(lines: list[str]) -> list[str]:
    problems = []
    molecules = [(line, m) for line in lines if (m := _read(line)) is not None]
    for (line, m), oracle in zip(molecules, open_babel([x for x, _ in molecules]),
                                 strict=True):
        # Open Babel deletes every hydrogen (-d); RDKit keeps (and draws) one that
        # carries stereo ("[H]/N=C/…"): compare the heavy atoms and the bonds between them
        elements = m.elements()
        elements.pop("H", None)
        hydrogens = {e.id for e in m.entities if e.name == "H"}
        heavy_bonds = [r for r in m.relations if not set(r.endpoints) & hydrogens]
        read = {"atoms": len(m.entities) - len(hydrogens), "bonds": len(heavy_bonds),
                "triple": m.bond_orders()["triple_bond"], "elements": dict(elements),
                "rings": len(m.rings)}
        if read != oracle:
            problems.append(f"{line}: read {read}, Open Babel {oracle}")
    return problems


def test_generated_molecules_are_drawn_as_read(tmp_path: Path):
    codes = generated(sized(6, 60))
    assert _engine_agrees(codes, tmp_path) == []


def test_mutated_molecules_are_drawn_as_read_or_rejected_by_both(tmp_path: Path):
    codes = mutated(generated(sized(6, 60)))
    rejected = sum(_read(c) is None for c in codes)
    assert 0 < rejected < len(codes)  # the mutations make both kinds
    assert _engine_agrees(codes, tmp_path) == []


@needs_obabel
def test_generated_and_mutated_molecules_agree_with_open_babel():
    codes = generated(sized(10, 100))
    assert _open_babel_agrees(codes + mutated(codes)) == []


def _realworld_lines(limit_per_file: int) -> list[str]:
    lines = []
    for path in sorted(REALWORLD.rglob("*.smi")):
        found = records(path.read_text(encoding="utf-8", errors="replace"))
        lines += [line for _, line in found[:limit_per_file]]
    return lines


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="needs ../shared/data/realworld")
def test_rdkit_files_parse_render_and_agree(tmp_path: Path):
    lines = _realworld_lines(sized(3, 1000))
    assert len(lines) > 20
    read = [_read(line) for line in lines]
    assert sum(m is not None for m in read) >= 0.95 * len(lines)
    assert _engine_agrees(lines, tmp_path) == []
    if shutil.which("obabel"):
        assert _open_babel_agrees(lines) == []


def one_atom_changed(smiles: str) -> str | None:
    """`smiles` with its first carbon that can be a nitrogen made one (RDKit), or None."""
    from rdkit import Chem

    mol = Chem.MolFromSmiles(smiles.split()[0])
    for atom in mol.GetAtoms():
        if atom.GetSymbol() == "C":
            changed = Chem.RWMol(mol)
            changed.GetAtomWithIdx(atom.GetIdx()).SetAtomicNum(7)
            try:
                with rdkit_log():
                    Chem.SanitizeMol(changed)
            except Exception:  # RDKit rejects this nitrogen: try the next carbon
                continue
            return str(Chem.MolToSmiles(changed))
    return None


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="needs ../shared/data/realworld")
def test_rdkit_files_score_1_against_themselves_and_less_when_changed():
    from diagbench.languages import named

    smiles = named("smiles")
    lines = _realworld_lines(sized(2, 20))
    for line in lines:
        assert smiles.compare_code(line, line, True).score == 1.0, line
        assert smiles.compare_code(line, line[: len(line.split()[0]) // 2] + "(((", True).score \
            == 0.0, line
        changed = one_atom_changed(line)
        if changed is not None:
            assert 0.0 < smiles.compare_code(line, changed, True).score < 1.0, (line, changed)
