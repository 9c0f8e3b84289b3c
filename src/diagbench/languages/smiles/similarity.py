"""Image-to-code similarity of SMILES: the field's own measures on the first molecule of
the gold and of the prediction, both read by the language's reader (RDKit).

- **exact**: the canonical SMILES (RDKit's, stereo and charges included) are equal —
  ethanol written `CCO` or `OCC` is the same molecule;
- **Tanimoto**: of the Morgan fingerprints, radius 2 (ECFP4-like), 2048 bits
  (`MORGAN_RADIUS`, `MORGAN_BITS`);
- **score**: `scoring.metrics.molecule_score`, 𝟙[valid] · (𝟙[exact] + T) / 2; a
  prediction that does not render, or that RDKit cannot read, scores 0.

The graph comparison of the two molecules (`compare.graph`: atoms matched by element,
bonds by the elements at their ends and their order) is kept beside it (`graph`),
with STRUDEL's counts-only score.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from diagbench.compare.graph import GraphComparison, Match, compare_models, model_of
from diagbench.diagram.molecule import Molecule
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.smiles.read import parse_line
from diagbench.scoring import metrics

MORGAN_RADIUS = 2
MORGAN_BITS = 2048


@dataclass(frozen=True, slots=True)
class FieldComparison:
    """A domain's comparison kept beside the graph comparison of the same two models
    (`graph`), which gives the diagram kind, the warnings, the element matches and
    STRUDEL's counts-only score; the domain's own `score` is its subclass's."""

    graph: GraphComparison

    @property
    def kind(self) -> str:
        return self.graph.kind

    @property
    def warnings(self) -> tuple[str, ...]:
        return self.graph.warnings

    @property
    def counts_score(self) -> float:
        return self.graph.counts_score

    @property
    def entities(self) -> Match:
        return self.graph.entities

    @property
    def relations(self) -> Match:
        return self.graph.relations


@dataclass(frozen=True, slots=True)
class MoleculeComparison(FieldComparison):
    """The comparison of one predicted molecule with its gold (canonical SMILES, ""
    when the side was not read)."""

    gold_smiles: str
    pred_smiles: str
    tanimoto: float

    @property
    def valid(self) -> bool:
        return self.graph.valid and bool(self.pred_smiles)

    @property
    def exact(self) -> bool:
        return bool(self.gold_smiles) and self.gold_smiles == self.pred_smiles

    @property
    def score(self) -> float:
        return metrics.molecule_score(self.valid, self.exact, self.tanimoto)

    def as_dict(self) -> dict[str, Any]:
        return self.graph.as_dict() | {
            "gold_smiles": self.gold_smiles, "pred_smiles": self.pred_smiles,
            "exact": self.exact, "tanimoto": round(self.tanimoto, 6),
            "score": round(self.score, 6), "graph_score": round(self.graph.score, 6)}


@cache
def _generator() -> Any:
    from rdkit.Chem import rdFingerprintGenerator

    return rdFingerprintGenerator.GetMorganGenerator(radius=MORGAN_RADIUS, fpSize=MORGAN_BITS)


def morgan_bits(smiles: str) -> frozenset[int]:
    """The on-bits of a SMILES's Morgan fingerprint (empty when RDKit cannot read it)."""
    mol, _ = parse_line(smiles)
    return frozenset() if mol is None else frozenset(_generator().GetFingerprint(mol).GetOnBits())


def compare_smiles(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                   valid: bool) -> MoleculeComparison:
    """Compare a predicted SMILES with its gold, both read by the SMILES reader."""
    gold, kind, _ = model_of(gold_read)
    pred, _, warnings = model_of(pred_read)
    gold_smiles = gold.smiles if isinstance(gold, Molecule) else ""
    pred_smiles = pred.smiles if isinstance(pred, Molecule) else ""
    similarity = metrics.tanimoto(morgan_bits(gold_smiles), morgan_bits(pred_smiles)) \
        if gold_smiles and pred_smiles else 0.0
    return MoleculeComparison(compare_models(gold, pred, valid, kind, warnings), gold_smiles,
                              pred_smiles, similarity)
