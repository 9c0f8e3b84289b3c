"""Image-to-code similarity of the biology languages (paper 004_34f8485b6a3a0424.txt,
Table 1: phylogenetic trees in Newick, DNA sequences in FASTA; §5.1 scores an
image-to-code answer against its gold code), each the field's own measure: the
normalised Robinson–Foulds distance for trees (Robinson & Foulds 1981, "Comparison
of phylogenetic trees", Math. Biosci. 53), a leaf-set F1, the column-by-column
similarity of two sequence logos (and the per-position consensus accuracy), and
the base-pair F1 and sequence identity of an RNA secondary structure (dot-bracket).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence, Set

from diagbench.scoring.metrics.structure import set_f1


def robinson_foulds_similarity(gold: Collection[frozenset[str]],
                               pred: Collection[frozenset[str]]) -> float:
    """1 − RF / RF_max over the non-trivial clusters (clades) of two rooted trees:
    RF = |G Δ P|, the clusters in one tree and not the other, RF_max = |G| + |P|, so
    the similarity is 1 for identical topologies and 0 when no clade is shared
    (the phylogenetic-tree similarity of 004_34f8485b6a3a0424.txt §5.1's image-to-code
    task; Robinson & Foulds 1981; the rooted, cluster form; normalised as ete3's
    `robinson_foulds` reports it, RF / max RF). A cluster is a leaf-name set of an
    internal node other than the root with two leaves or more.

    Edge cases: both without clusters (star trees, or one leaf) → 1.0; one without →
    0.0. Repeated clusters (unary nodes) count once.

    >>> A, B, C, D, E = "ABCDE"
    >>> robinson_foulds_similarity([frozenset({A, B}), frozenset({A, B, C})],
    ...                            [frozenset({A, B}), frozenset({A, B, D})])
    0.5
    """
    g, p = set(gold), set(pred)
    if not g and not p:
        return 1.0
    return 1.0 - len(g ^ p) / (len(g) + len(p))


def leaf_f1(gold: Sequence[str], pred: Sequence[str]) -> float:
    """F1 of the predicted leaf names against the gold ones, as multisets: matched =
    Σ min(count in gold, count in predicted) (`set_f1`; the taxa half of a tree's
    image-to-code score, 004_34f8485b6a3a0424.txt §5.1).

    Edge cases: both empty → 1.0; one empty → 0.0.

    >>> leaf_f1(["A", "B", "C", "D"], ["A", "B", "X"])
    0.5714285714285715
    """
    matched = sum((Counter(gold) & Counter(pred)).values())
    return set_f1(matched, len(gold), len(pred))[2]


def tree_score(valid: bool, rf_similarity: float, leaf_f1_: float) -> float:
    """diagbench's tree image-to-code score (004_34f8485b6a3a0424.txt §5.1 gates on
    validity): S = 𝟙[valid] · (RF similarity + leaf F1)/2 —
    the topology (which leaves group together) and the taxa (which leaves there are)
    weigh alike; a tree that does not parse scores 0.

    Edge cases: values outside [0, 1] are a ValueError.

    >>> tree_score(True, 0.5, 1.0)
    0.75
    >>> tree_score(False, 1.0, 1.0)
    0.0
    """
    for value in (rf_similarity, leaf_f1_):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"a similarity of {value}")
    return (rf_similarity + leaf_f1_) / 2 if valid else 0.0


def consensus_accuracy(gold: str, pred: str) -> float:
    """Per-position consensus accuracy: the share of the gold consensus's positions whose
    predicted consensus has the same letter, over the longer of the two lengths, so
    missing and extra positions count as wrong: acc = #{i : gᵢ = pᵢ} / max(|g|, |p|)
    (the sequence-logo reading of the DNA sequences of 004_34f8485b6a3a0424.txt §3.2's
    rendering, scored as §5.1's image-to-code task: the tallest letter of each column).
    Letters are compared case-insensitively.

    Edge cases: both empty → 1.0; one empty → 0.0.

    >>> consensus_accuracy("ACGT", "ACCTA")
    0.6
    """
    if not gold and not pred:
        return 1.0
    same = sum(a == b for a, b in zip(gold.upper(), pred.upper(), strict=False))
    return same / max(len(gold), len(pred))


def logo_similarity(gold: Sequence[Mapping[str, int]],
                    pred: Sequence[Mapping[str, int]]) -> float:
    """The similarity of two counts logos, column by column as they are drawn: the mean
    over the positions k = 1 … max(|g|, |p|) of the weighted Jaccard (Ružička)
    similarity of the two columns' letter counts,
    s_k = Σ_a min(g_k(a), p_k(a)) / Σ_a max(g_k(a), p_k(a)) — the height of the letter
    stacks drawn in both logos over the height drawn in either (the multiset Jaccard of
    the letters of the column; 004_34f8485b6a3a0424.txt §3.2 draws DNA sequences as
    logos, §5.1 scores image-to-code). A counts logo draws a letter as tall as the
    sequences that have it, so a column's shape and its height both count: one
    sequence equal to the consensus of four draws each column a quarter as tall
    (s_k ≤ 1/4), and 100 copies of an alignment draw a logo 100 times taller (an axis
    to 100: s_k = 1/100). Letters are compared as given (upper-case: the reader's
    columns).

    Edge cases: both without columns → 1.0; a position one logo lacks → 0; a column
    with no letter in either (gaps only) → 1.

    >>> logo_similarity([{"A": 3, "C": 1}, {"G": 2}], [{"A": 2, "T": 1}, {"G": 2}])
    0.7
    """
    if not gold and not pred:
        return 1.0
    total = 0.0
    for g, p in zip(gold, pred, strict=False):
        letters = set(g) | set(p)
        both = sum(min(g.get(a, 0), p.get(a, 0)) for a in letters)
        either = sum(max(g.get(a, 0), p.get(a, 0)) for a in letters)
        total += both / either if either else 1.0
    return total / max(len(gold), len(pred))


def base_pair_f1(gold: Set[tuple[int, int]], pred: Set[tuple[int, int]]) -> float:
    """Base-pair F1 of a predicted RNA secondary structure: F1 = 2·|P ∩ G| / (|P| + |G|)
    over the sets of base pairs (i, j), i < j, compared by position — the harmonic mean
    of the sensitivity |P ∩ G|/|G| and the positive predictive value |P ∩ G|/|P| with
    which RNA structure prediction is scored (Mathews et al. 2004, "Incorporating
    chemical modification constraints into a dynamic programming algorithm for
    prediction of RNA secondary structure", PNAS 101; Gardner & Giegerich 2004, BMC
    Bioinformatics 5:140); the RNA-structure similarity of the image-to-code task of
    004_34f8485b6a3a0424.txt §5.1 (Table 1: Vienna RNA dot-bracket notation). A
    pseudoknot pair is a pair like any other; a slipped pair, (i±1, j), counts as wrong.

    Edge cases: both without pairs (two open chains) → 1.0; one without → 0.0.

    >>> base_pair_f1({(1, 9), (2, 8), (3, 7)}, {(1, 9), (2, 8)})
    0.8
    """
    if not gold and not pred:
        return 1.0
    return 2 * len(set(gold) & set(pred)) / (len(gold) + len(pred))


def rna_score(valid: bool, pair_f1: float, sequence_identity: float) -> float:
    """diagbench's image-to-code score of an RNA secondary structure
    (004_34f8485b6a3a0424.txt §5.1 gates on validity): S = 𝟙[valid] · (F1 + I) / 2,
    the base-pair F1 (`base_pair_f1`) and the sequence identity I (the share of the
    positions with the gold letter over the longer sequence, `consensus_accuracy`)
    weighing alike — the drawing shows both the pairs and the letter of every base, so
    the right pairs on the wrong letters (an all-N sequence), or an open chain of the
    wrong length where the gold has no pairs, are half right.

    Edge cases: values outside [0, 1] are a ValueError.

    >>> rna_score(True, 1.0, 0.0)
    0.5
    >>> rna_score(False, 1.0, 1.0)
    0.0
    """
    for value in (pair_f1, sequence_identity):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"a similarity of {value}")
    return (pair_f1 + sequence_identity) / 2 if valid else 0.0
