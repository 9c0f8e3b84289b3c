"""Reaction SMILES: the RDKit reader (molecules by role, counted by hand), detection by
the two-part suffix, the per-molecule F1 on reactions whose answer is known, the facts,
the seeded generator, and (differentially) the reaction drawing's marks."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from diagbench.diagram.reaction import Reaction
from diagbench.languages import detect, has_suffix, named
from diagbench.languages.reaction_smiles.facts import reaction_facts
from diagbench.languages.reaction_smiles.read import read_reaction_smiles
from diagbench.languages.reaction_smiles.synth import synth_reaction
from diagbench.languages.smiles.drawn import reaction_statistics
from diagbench.languages.smiles.engine import RdkitReactionEngine
from tests.sizes import sized

REACTION = named("reaction-smiles")
ESTER = "CC(=O)O.OCC>[H+]>CC(=O)OCC.O esterification"


def _one(text: str) -> Reaction:
    [parsed] = read_reaction_smiles(text)
    assert parsed.errors == ()
    assert isinstance(parsed.diagram, Reaction)
    return parsed.diagram


def test_esterification_counted_by_hand():
    r = _one(ESTER)
    assert r.name == "esterification"
    assert [m.smiles for m in r.reactants] == ["CC(=O)O", "CCO"]
    assert [m.smiles for m in r.agents] == ["[H+]"]
    assert [m.smiles for m in r.products] == ["CCOC(C)=O", "O"]
    # atoms 4 + 3 + 1 + 6 + 1; bonds 3 + 2 + 0 + 5 + 0; the proton and water have no bond
    assert r.counts() == {"entities": 15, "relations": 10, "clusters": 0, "notes": 0,
                          "bonded_atoms": 13, "reactants": 2, "agents": 1, "products": 2}
    assert r.entities[0].id == "r1.a1" and r.entities[-1].id == "p2.a1"


def test_errors_on_their_lines():
    parsed = read_reaction_smiles("CCO>>CC=O\nCC>>C(C\n\nC1CC>>C\n")
    assert [p.first_line for p in parsed] == [1, 2, 4]
    assert parsed[0].errors == ()
    assert parsed[1].errors[0].line == 2 and "parentheses" in parsed[1].errors[0].reason
    assert parsed[2].errors[0].line == 4 and "unclosed ring" in parsed[2].errors[0].reason
    [empty] = read_reaction_smiles("\n")
    assert empty.errors[0].reason == "no reaction SMILES in the source"


def test_the_two_part_suffix_and_the_content_decide():
    assert detect(Path("a.rxn.smi"), "") is REACTION and has_suffix(Path("a.RXN.SMI"))
    assert detect(Path("a.smi"), "") is named("smiles")
    assert detect(None, "CCO>>CC=O\n") is REACTION
    assert detect(None, "CCO\n") is named("smiles")
    assert not REACTION.recognises("A -> B: x")


def test_per_molecule_f1():
    gold = "OC(=O)c1ccccc1.NCc1ccccc1>CN(C)C=O>O=C(NCc1ccccc1)c1ccccc1"
    assert REACTION.compare_code(gold, gold, True).score == 1.0
    # agents are not scored, atom maps are no part of a molecule
    assert REACTION.compare_code(gold, "OC(=O)c1ccccc1.NCc1ccccc1>>O=C(NCc1ccccc1)c1ccccc1",
                            True).score == 1.0
    assert REACTION.compare_code("[CH3:1][OH:2]>>[CH2:1]=[O:2]", "CO>>C=O", True).score == 1.0
    # the wrong product: 2 of 3 matched on each side: P = R = F1 = 2/3
    wrong = REACTION.compare_code(gold, "OC(=O)c1ccccc1.NCc1ccccc1>>O=C(Nc1ccccc1)c1ccccc1", True)
    assert wrong.molecules.matched == 2 and wrong.score == pytest.approx(2 / 3)
    # a reactant written as a product does not match
    assert REACTION.compare_code("CCO>>CC=O", "CC=O>>CCO", True).score == 0.0
    assert REACTION.compare_code(gold, "CC>>C(", True).score == 0.0
    assert REACTION.compare_code(gold, gold, False).score == 0.0


def test_facts_of_the_esterification():
    facts = {f.subject: f.answer for f in reaction_facts(_one(ESTER))}
    assert facts["reactants"] == 2 and facts["products"] == 2 and facts["reagents_count"] == 1
    assert facts["reagents"] is True and facts["product_elements"] == ("C", "O")
    assert facts["reactant_atoms"] == 7 and facts["product_atoms"] == 7
    assert facts["groups_formed"] == ("ester",)
    assert facts["groups_consumed"] == ("alcohol", "carboxylic acid")


@pytest.mark.parametrize("complexity", ["low", "medium", "high"])
def test_synth_is_seeded_and_valid(complexity: str):
    first = [synth_reaction(random.Random(seed), complexity) for seed in range(5)]
    assert first == [synth_reaction(random.Random(seed), complexity) for seed in range(5)]
    for code in first:
        r = _one(code)
        assert r.reactants and r.products
        low, high = REACTION.node_limits
        assert low <= len(r.entities) <= high
        assert (len(r.reactants), bool(r.agents)) == {"low": (1, False), "medium": (2, False),
                                                      "high": (2, True)}[complexity]


@pytest.mark.differential
def test_generated_reactions_are_drawn_as_read(tmp_path: Path):
    rng = random.Random(33)
    codes = [synth_reaction(rng, level) for level in ("low", "medium", "high")
             for _ in range(sized(3, 30))]
    codes += ["CC(=O)O.OCC>[H+]>CC(=O)OCC.O", "c1ccccc1Br.OB(O)c1ccncc1>[Pd]>c1ccc(-c2ccncc2)cc1"]
    results = RdkitReactionEngine(jobs=2).render([c + "\n" for c in codes], tmp_path, "svg")
    for code, result in zip(codes, results, strict=True):
        assert result.ok and result.image is not None, (code, result.error)
        counts = _one(code).counts()
        drawn = reaction_statistics(result.image.read_text(encoding="utf-8"))
        assert drawn == {"bonded_atoms": counts["bonded_atoms"],
                         "relations": counts["relations"], "clusters": 0, "notes": 0}, code
