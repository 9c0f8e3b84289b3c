"""Image-to-code similarity of chemical structures (paper 004_34f8485b6a3a0424.txt §5.1
scores image-to-code per category; for molecules the field's own measures are used):
the exact match of canonical SMILES and the Tanimoto similarity of Morgan (ECFP-like)
fingerprints (Rogers & Hahn, "Extended-Connectivity Fingerprints", J. Chem. Inf. Model.
50 (2010) 742–754; Tanimoto as in Bajusz, Rácz & Héberger, J. Cheminform. 7 (2015) 20).
"""

from __future__ import annotations

from collections.abc import Collection


def tanimoto(gold: Collection[int], pred: Collection[int]) -> float:
    """Tanimoto (Jaccard) similarity of two fingerprints given as their on-bits:
    T = |A ∩ B| / |A ∪ B| (the measure chemists rank molecules by; paper
    004_34f8485b6a3a0424.txt §5.1 compares code with its gold).

    Edge cases: both fingerprints empty → 1.0 (nothing set on either side is the same
    fingerprint); one empty → 0.0. Repeated bits count once.

    >>> tanimoto({1, 2, 3, 4}, {3, 4, 5})
    0.4
    >>> tanimoto(set(), set())
    1.0
    """
    a, b = set(gold), set(pred)
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def molecule_score(valid: bool, exact: bool, similarity: float) -> float:
    """diagbench's image-to-code score of a molecule (004_34f8485b6a3a0424.txt §5.1,
    with the field's measures): S = 𝟙[valid] · (𝟙[exact] + T) / 2, where `exact` is the
    match of the canonical SMILES (RDKit's, stereo and charges included) and T the
    Tanimoto similarity of the Morgan fingerprints (radius 2, 2048 bits). The same
    molecule scores 1; a molecule with the same fingerprint but another canonical
    SMILES (a stereoisomer) scores 0.5 + T/2 < 1; one atom changed scores T/2.

    Edge cases: a prediction that does not render scores 0; a similarity outside
    [0, 1] is a ValueError.

    >>> molecule_score(True, False, 0.5)
    0.25
    >>> molecule_score(True, True, 1.0)
    1.0
    >>> molecule_score(False, True, 1.0)
    0.0
    """
    if not 0.0 <= similarity <= 1.0:
        raise ValueError(f"a Tanimoto similarity of {similarity}")
    return (float(exact) + similarity) / 2 if valid else 0.0


def reaction_score(valid: bool, matched: int, gold: int, pred: int,
                   misplaced: int = 0) -> float:
    """diagbench's image-to-code score of a reaction (004_34f8485b6a3a0424.txt §5.1,
    per molecule): S = 𝟙[valid] · 2m / (|G| + |P|), the F1 of the multiset match of the
    molecules drawn, each keyed by its role — reactant (left of the arrow), agent (over
    it) or product (right of it) — and canonical SMILES without atom maps, where
    m = matched + misplaced / 2: a molecule in its gold role counts 1; one drawn as a
    reactant where the gold draws it over the arrow, or the reverse (`misplaced`:
    matched by SMILES alone among the molecules left unmatched, reactants and agents
    only), counts ½ — reaction SMILES writes conditions either way, but the drawing
    shows them in different places. A product in another role is no match.

    Edge cases: a prediction that does not render scores 0; both sides without
    molecules → 1.0 if valid; m over either side is a ValueError.

    >>> reaction_score(True, 2, 3, 3)
    0.6666666666666666
    >>> reaction_score(True, 4, 5, 5, misplaced=1)
    0.9
    >>> reaction_score(False, 3, 3, 3)
    0.0
    """
    m = matched + misplaced / 2
    if m > min(gold, pred):
        raise ValueError(f"{m} matched of {gold} gold and {pred} predicted")
    if not valid:
        return 0.0
    return 1.0 if gold == pred == 0 else 2 * m / (gold + pred)
