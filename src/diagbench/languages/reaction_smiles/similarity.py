"""Image-to-code similarity of reaction SMILES: which reactants and products of the gold
reaction the prediction has, molecule by molecule (the first reaction of each side,
read by the language's reader, RDKit).

Each reactant and product is keyed by its role and its canonical SMILES without
atom-map numbers (`languages.reaction_smiles.read.molecule_key`); the keys are matched as
multisets and the score is `scoring.metrics.reaction_score`: 𝟙[valid] · F1. Agents are
not scored (the same conditions are written as agents or as reactants). The graph
comparison of all atoms and bonds (`compare.graph`) is kept beside it (`graph`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from diagbench.compare.graph import Match, compare_models, match, model_of
from diagbench.diagram.reaction import Reaction
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.reaction_smiles.read import molecule_key
from diagbench.languages.smiles.similarity import FieldComparison
from diagbench.scoring import metrics


@dataclass(frozen=True, slots=True)
class ReactionComparison(FieldComparison):
    """The comparison of one predicted reaction with its gold: the molecule match (and
    the graph comparison beside it)."""

    molecules: Match
    read: bool

    @property
    def valid(self) -> bool:
        return self.graph.valid and self.read

    @property
    def score(self) -> float:
        m = self.molecules
        return metrics.reaction_score(self.valid, m.matched, m.gold, m.pred)

    def as_dict(self) -> dict[str, Any]:
        return self.graph.as_dict() | {"molecules": self.molecules.as_dict(),
                                       "score": round(self.score, 6),
                                       "graph_score": round(self.graph.score, 6)}


def molecule_keys(reaction: Any) -> list[tuple[str, ...]]:
    """(role, canonical SMILES) of each reactant and product of a `Reaction`."""
    if not isinstance(reaction, Reaction):
        return []
    return [(role, molecule_key(m)) for role, side in (("reactant", reaction.reactants),
                                                       ("product", reaction.products))
            for m in side]


def compare_reactions(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                      valid: bool) -> ReactionComparison:
    """Compare a predicted reaction SMILES with its gold, both read by its language's reader."""
    gold, kind, _ = model_of(gold_read)
    pred, _, warnings = model_of(pred_read)
    pred_keys = molecule_keys(pred)
    return ReactionComparison(compare_models(gold, pred, valid, kind, warnings),
                              match(molecule_keys(gold), pred_keys), bool(pred_keys))
