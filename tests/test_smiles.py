"""SMILES: the RDKit reader (counts worked by hand, diagnostics with lines), the facts,
the seeded generator, the similarity on molecules whose answer is known, and the RDKit
engine's limits."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from diagbench.diagram.molecule import Molecule
from diagbench.languages import detect, named
from diagbench.languages.smiles.drawn import molecule_statistics
from diagbench.languages.smiles.engine import RdkitEngine
from diagbench.languages.smiles.facts import molecule_facts
from diagbench.languages.smiles.read import read_smiles
from diagbench.languages.smiles.synth import synth_smiles

SMILES = named("smiles")


def _one(text: str) -> Molecule:
    [parsed] = read_smiles(text)
    assert parsed.errors == ()
    assert isinstance(parsed.diagram, Molecule)
    return parsed.diagram


# --- the reader -------------------------------------------------------------------------

def test_aspirin_counted_by_hand():
    # acetylsalicylic acid, C9H8O4: 9 C + 4 O drawn; 13 bonds (8 in the chain and
    # branches, 6 in the ring, minus the one shared: CC(=O)O-c, c-C(=O)O);
    # one benzene ring; an ester and a carboxylic acid
    m = _one("CC(=O)Oc1ccccc1C(=O)O aspirin")
    assert m.name == "aspirin" and m.formula == "C9H8O4"
    assert m.elements() == {"C": 9, "O": 4}
    assert m.counts() == {"entities": 13, "relations": 13, "clusters": 0, "notes": 0,
                          "rings": 1, "aromatic_rings": 1, "charged_atoms": 0}
    assert m.bond_orders() == {"single_bond": 5, "double_bond": 2, "aromatic_bond": 6}
    # the drawing's Kekulé ring: 3 of the 6 ring bonds double
    assert m.drawn_bond_orders() == {"single_bond": 8, "double_bond": 5}
    assert dict(m.groups) == {"ester": 1, "carboxylic acid": 1}


def test_charges_rings_and_neighbours():
    # nitrobenzene: N+ and O- drawn charged; the nitrogen bonds to one C and two O
    m = _one("[O-][N+](=O)c1ccccc1")
    assert m.counts()["charged_atoms"] == 2 and m.charge == 0
    [nitrogen] = [e for e in m.entities if e.name == "N"]
    assert sorted(m.entity(n).name for n in m.neighbours(nitrogen.id)) == ["C", "O", "O"]
    assert ("charge", "+1") in nitrogen.properties
    # decalin: two fused rings, none aromatic
    decalin = _one("C1CCC2CCCCC2C1")
    assert len(decalin.rings) == 2 and decalin.aromatic_rings == ()


def test_rings_are_the_smallest_set_of_smallest_rings():
    # cubane: 8 atoms, 12 bonds, one part → 12 − 8 + 1 = 5 rings in the SSSR, though it
    # has 6 faces (RDKit's symmetrised ring set; Open Babel counts 5: found by the
    # differential test on RDKit's ring-system templates)
    cubane = _one("C12C3C4C1C5C2C3C45")
    assert len(cubane.entities) == 8 and len(cubane.relations) == 12
    assert len(cubane.rings) == 5 and all(len(r) == 4 for r in cubane.rings)


def test_a_hydrogen_that_carries_stereo_is_an_atom():
    # RDKit keeps an explicit [H] that fixes a double bond's geometry and draws it (the
    # differential test found it against Open Babel, which deletes every hydrogen);
    # one that carries nothing is folded into its atom's label
    imine = _one("[H]/N=C/C")
    assert imine.elements() == {"H": 1, "N": 1, "C": 2} and len(imine.relations) == 3
    assert _one("[H]OC").elements() == {"O": 1, "C": 1}


def test_a_file_of_several_molecules_with_a_header_and_errors():
    text = "SMILES Name\nCCO ethanol\n\nC1CC broken ring\nCC(C)(C)(C)(C)C\nc1ccccc1\n"
    parsed = read_smiles(text)
    assert [p.first_line for p in parsed] == [2, 4, 5, 6]
    assert [p.index for p in parsed] == [0, 1, 2, 3]
    assert parsed[0].errors == () and parsed[3].errors == ()
    [ring] = parsed[1].errors
    assert ring.line == 4 and "unclosed ring" in ring.reason
    [valence] = parsed[2].errors
    assert valence.line == 5 and "valence" in valence.reason.lower()


def test_rdkit_never_prints(capfd):
    read_smiles("C1CC\nXy\nc1cccc1\nC(C")
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_empty_and_oversized_sources_are_diagnostics():
    [empty] = read_smiles("  \n\n")
    assert empty.errors and empty.errors[0].reason == "no SMILES in the source"
    [big] = read_smiles("C" * 100_001)
    assert "over" in big.errors[0].reason


def test_recognised_by_content_and_not_confused_with_diagrams():
    assert SMILES.recognises("CCO\nc1ccccc1Cl chlorobenzene\n")
    assert SMILES.recognises("SMILES Name\nC[C@H](N)C(=O)O alanine\n")
    assert SMILES.recognises("[13CH4]\n[*]CC\n")
    for other in ("Alice -> Bob: hello", "@startuml\nA -> B\n@enduml", "graph TD\nA-->B",
                  "digraph { a -> b }", "hello world", "[&R] ((A:1,B:2)AB:1,C:3);"):
        assert not SMILES.recognises(other), other
        assert detect(None, other) is not SMILES


# --- facts --------------------------------------------------------------------------------

def test_facts_of_2_chlorobenzoic_acid():
    facts = {f.subject: f.answer for f in molecule_facts(_one("OC(=O)c1ccccc1Cl"))}
    assert facts["atoms:C"] == 7 and facts["atoms:O"] == 2 and facts["atoms:Cl"] == 1
    assert facts["elements"] == ("C", "Cl", "O")
    assert facts["rings"] == 1 and facts["aromatic_rings"] == 1 and facts["aromatic"] is True
    assert facts["double_bonds"] == 4 and facts["triple_bonds"] == 0  # C=O + 3 in the ring
    assert facts["groups"] == ("carboxylic acid", "halide")
    assert facts["bonded:Cl"] == ("C",)
    assert "bonded:O" not in facts  # two oxygens: the question would not name one atom


def test_facts_of_acetonitrile_and_of_nothing():
    facts = {f.subject: f.answer for f in molecule_facts(_one("CC#N"))}
    assert facts["triple_bonds"] == 1 and facts["groups"] == ("nitrile",)
    assert facts["bonded:N"] == ("C",) and facts["aromatic"] is False
    assert molecule_facts(read_smiles("C1CC")[0].diagram) == []


# --- the generator ------------------------------------------------------------------------

@pytest.mark.parametrize("complexity", ["low", "medium", "high"])
def test_synth_is_seeded_valid_and_canonical(complexity: str):
    first = [synth_smiles(random.Random(seed), complexity) for seed in range(8)]
    again = [synth_smiles(random.Random(seed), complexity) for seed in range(8)]
    assert first == again
    assert len(set(first)) > 4
    for code in first:
        m = _one(code)
        assert m.smiles == code  # the code is RDKit's canonical SMILES
        low, high = SMILES.node_limits
        assert low <= len(m.entities) <= high


def test_synth_grows_with_complexity():
    def mean_atoms(level: str) -> float:
        return sum(len(_one(synth_smiles(random.Random(s), level)).entities)
                   for s in range(12)) / 12
    assert mean_atoms("low") < mean_atoms("medium") < mean_atoms("high")


# --- similarity ---------------------------------------------------------------------------

def test_ethanol_written_two_ways_is_the_same_molecule():
    c = SMILES.compare_code("CCO", "OCC", True)
    assert c.exact and c.tanimoto == 1.0 and c.score == 1.0


def test_one_atom_changed_scores_between_0_and_1():
    # ethanol against ethylamine: no exact match; the fingerprints share the methyl's
    # environment only: T = |A∩B| / |A∪B| < 1, and S = T / 2
    c = SMILES.compare_code("CCO ethanol", "CCN ethylamine", True)
    assert not c.exact and 0.0 < c.tanimoto < 1.0
    assert c.score == pytest.approx(c.tanimoto / 2)
    assert c.entities.f1 == pytest.approx(2 / 3)  # C, C of C, C, O matched


def test_stereoisomers_differ_only_in_the_exact_match():
    c = SMILES.compare_code("C[C@H](N)C(=O)O", "C[C@@H](N)C(=O)O", True)
    assert not c.exact and c.tanimoto == 1.0 and c.score == 0.5


def test_invalid_or_unread_predictions_score_0():
    assert SMILES.compare_code("CCO", "C(C", True).score == 0.0
    assert SMILES.compare_code("CCO", "CCO", False).score == 0.0
    assert SMILES.compare_code("CCO", "", True).score == 0.0


# --- the engine ---------------------------------------------------------------------------

def test_engine_draws_svg_and_png_in_one_pass_and_reports_rdkit_errors(tmp_path: Path):
    sources = ["CCO ethanol\n", "C1CC\n", "CCO\nCCN\n", "C" * 600 + "\n"]
    engine = RdkitEngine(jobs=2)
    results = engine.render(sources, tmp_path, "svg")
    assert results[0].ok and results[0].image == tmp_path / "000000.svg"
    # the PNG was drawn in the same pass: asked for next, it is not drawn again
    [png] = engine.render(sources[:1], tmp_path, "png")
    assert png.ok and png.seconds == 0.0 and png.image is not None
    assert png.image.read_bytes().startswith(b"\x89PNG")
    drawn = molecule_statistics(results[0].image.read_text(encoding="utf-8"))
    assert drawn == {"entities": 3, "relations": 2, "clusters": 0, "notes": 0,
                     "elements": {"C": 2, "O": 1}, "bonds": {"single_bond": 2}}
    assert not results[1].ok and "unclosed ring" in (results[1].error or "")
    assert results[1].error_line == 1
    assert results[2].error == "one molecule per drawing, not 2"
    assert "over the 500" in (results[3].error or "")


def test_render_command_counts_what_rdkit_drew(tmp_path: Path):
    from click.testing import CliRunner

    from diagbench.cli import cli

    (tmp_path / "two.smi").write_text("CCO ethanol\nc1ccccc1 benzene\n", encoding="utf-8")
    done = CliRunner().invoke(cli, ["render", str(tmp_path / "two.smi"), "--out",
                                    str(tmp_path / "out"), "--format", "svg", "--json", "-"])
    assert done.exit_code == 0, done.output
    rows = json.loads(done.output[done.output.index("["):])
    assert [(r["stats"]["entities"], r["stats"]["relations"]) for r in rows] == [(3, 2), (6, 6)]


def test_a_file_is_split_into_one_drawing_per_molecule():
    # each with the line of the file it is on (the header is line 1)
    assert SMILES.split("SMILES Name\nCCO a\n\nCCN b\n") == [(2, "CCO a\n"), (4, "CCN b\n")]


def test_compare_command_scores_smiles_files(tmp_path: Path):
    from click.testing import CliRunner

    from diagbench.cli import cli

    (tmp_path / "gold.smi").write_text("CCO ethanol\n", encoding="utf-8")
    (tmp_path / "pred.smi").write_text("OCC\n", encoding="utf-8")
    (tmp_path / "other.smi").write_text("CCN\n", encoding="utf-8")
    same = CliRunner().invoke(cli, ["compare", str(tmp_path / "gold.smi"),
                                    str(tmp_path / "pred.smi"), "--json", "-"])
    assert same.exit_code == 0, same.output
    [row] = json.loads(same.output)["files"]
    assert row["exact"] and row["score"] == 1.0 and row["language"] == "smiles"
    other = CliRunner().invoke(cli, ["compare", str(tmp_path / "gold.smi"),
                                     str(tmp_path / "other.smi"), "--json", "-"])
    [row] = json.loads(other.output)["files"]
    assert not row["exact"] and 0.0 < row["score"] < 0.5
    assert row["score"] == pytest.approx(row["tanimoto"] / 2, abs=1e-6)


@pytest.mark.parametrize(("smiles", "expected"), [
    # fluoranthene: naphthalene (2 benzene rings) and benzene joined by a five-membered
    # ring; all 16 atoms are aromatic, but the five-membered ring's two bonds joining
    # the parts are single (written "-"): 4 rings, 3 aromatic by their bonds
    ("c1ccc2c(c1)-c1cccc3cccc-2c13", 3),
    # biphenylene: two benzene rings joined by a four-membered ring of two single bonds:
    # 3 rings, 2 aromatic
    ("c1ccc2c(c1)-c1ccccc-21", 2),
    # the real file's line 34 (MMFF94_dative.smi, CEWYIM30): a biphenylene with two
    # hydroxy groups: 3 rings, 2 aromatic
    ("Oc1cccc2c1-c1c-2cccc1O CEWYIM30", 2),
])
def test_aromatic_rings_are_those_whose_bonds_are_all_aromatic(smiles, expected):
    from rdkit import Chem

    m = _one(smiles)
    assert len(m.aromatic_rings) == expected
    assert len(m.rings) == expected + 1
    # RDKit's own ring info, bond by bond, is the oracle
    mol = Chem.MolFromSmiles(smiles.split()[0])
    info = mol.GetRingInfo()
    assert sum(all(mol.GetBondWithIdx(b).GetIsAromatic() for b in ring)
               for ring in info.BondRings()) == expected
    assert {f.subject: f.answer for f in molecule_facts(m)}["aromatic_rings"] == expected


def test_rewrite_is_another_writing_of_the_same_molecules():
    code = "SMILES Name\nc1ccccc1O phenol\n\nN[C@@H](C)C(=O)[O-] alaninate\n"
    written = [SMILES.rewrite(code, random.Random(seed)) for seed in range(6)]
    assert all(w is not None and w != code for w in written)
    # the header, the blank line and the titles are kept
    assert all(w.split("\n")[0] == "SMILES Name" and w.split("\n")[2] == "" for w in written)
    # some are written in the Kekulé form (no lower-case aromatic atom), some not
    assert {"c" in w.split("\n")[1] for w in written} == {True, False}
    for w in written:
        before = [p.diagram.smiles for p in SMILES.read(code)]
        assert [p.diagram.smiles for p in SMILES.read(w)] == before
        assert SMILES.compare_code(code, w, True).score == 1.0


def test_facts_are_what_rdkit_drew():
    """Each fact the drawn statistics can tell (elements, atoms per element, double and
    triple bonds of the Kekulé drawing) is what RDKit drew; the rest (rings, groups,
    charges, neighbours) is read off the same atoms and bonds by the reader."""
    from tests.drawn_facts import facts_and_drawings

    drawn_answer = {
        "elements": lambda d: tuple(sorted(d["elements"])),
        "double_bonds": lambda d: d["bonds"].get("double_bond", 0),
        "triple_bonds": lambda d: d["bonds"].get("triple_bond", 0),
    }
    checked = 0
    for name, facts, drawn in facts_and_drawings(SMILES):
        for fact in facts:
            if fact.subject.startswith("atoms:"):
                expected = drawn["elements"].get(fact.subject.split(":")[1], 0)
            elif fact.subject in drawn_answer:
                expected = drawn_answer[fact.subject](drawn)
            else:
                continue
            assert fact.answer == expected, (name, fact.question, drawn)
            checked += 1
    assert checked >= 7 * 4  # four facts at least in each of seven molecules


def test_edit_bonds_one_carbon_to_an_atom_with_a_hydrogen():
    """Phenol's one edit: a carbon on the oxygen (anisole) or on a ring carbon (a
    cresol) — one more carbon, the same ring; ammonium's charged N and a bare [C] hold
    no hydrogen to give: no edit."""
    edits = {SMILES.edit("Oc1ccccc1 phenol", random.Random(seed)) for seed in range(12)}
    assert "COc1ccccc1 phenol" in edits and "Cc1ccccc1O phenol" in edits
    assert all(e is not None and e.endswith(" phenol") for e in edits)
    for edited in edits:
        assert edited is not None
        molecule = read_smiles(edited)[0].diagram
        assert (molecule.counts()["entities"], molecule.counts()["rings"]) == (8, 1)
    assert SMILES.edit("[NH4+]", random.Random(0)) is None
    assert SMILES.edit("[C]", random.Random(0)) is None
