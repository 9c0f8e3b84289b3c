"""Image-to-code similarity of reaction SMILES: which reactants and products of the gold
reaction the prediction has, molecule by molecule (the first reaction of each side,
read by the language's reader, RDKit).

Each reactant, agent (drawn over the arrow) and product is keyed by its role and its
canonical SMILES without atom-map numbers (`languages.reaction_smiles.read.molecule_key`);
the keys are matched as multisets, then the reactants and agents left unmatched by
their SMILES alone (a condition drawn left of the arrow where the gold draws it over
it, or the reverse: `misplaced`), and the score is `scoring.metrics.reaction_score`:
𝟙[valid] · 2m / (|G| + |P|) with m = matched + misplaced / 2. The graph comparison of
all atoms and bonds (`compare.graph`) is kept beside it (`graph`).
"""

from __future__ import annotations

from collections import Counter
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
    misplaced: int
    read: bool

    @property
    def valid(self) -> bool:
        return self.graph.valid and self.read

    @property
    def score(self) -> float:
        m = self.molecules
        return metrics.reaction_score(self.valid, m.matched, m.gold, m.pred, self.misplaced)

    def as_dict(self) -> dict[str, Any]:
        return self.graph.as_dict() | {"molecules": self.molecules.as_dict(),
                                       "misplaced": self.misplaced,
                                       "score": round(self.score, 6),
                                       "graph_score": round(self.graph.score, 6)}


def molecule_keys(reaction: Any) -> list[tuple[str, ...]]:
    """(role, canonical SMILES) of each reactant, agent and product of a `Reaction`."""
    if not isinstance(reaction, Reaction):
        return []
    return [(role, molecule_key(m)) for role, side in reaction.roles() for m in side]


def misplaced(gold: list[tuple[str, ...]], pred: list[tuple[str, ...]]) -> int:
    """How many reactants and agents left unmatched by role match by SMILES alone (a
    molecule drawn before the arrow in one and over it in the other)."""
    g, p = Counter(gold), Counter(pred)
    inputs = ("reactant", "agent")
    return sum((Counter(k[1] for k in (g - p).elements() if k[0] in inputs)
                & Counter(k[1] for k in (p - g).elements() if k[0] in inputs)).values())


def compare_reactions(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                      valid: bool) -> ReactionComparison:
    """Compare a predicted reaction SMILES with its gold, both read by its language's reader."""
    gold, kind, _ = model_of(gold_read)
    pred, _, warnings = model_of(pred_read)
    gold_keys, pred_keys = molecule_keys(gold), molecule_keys(pred)
    return ReactionComparison(compare_models(gold, pred, valid, kind, warnings),
                              match(gold_keys, pred_keys), misplaced(gold_keys, pred_keys),
                              bool(pred_keys))
