"""Every metric of diagbench as a pure function over plain values (counts, sequences of
bools or floats), one module per family:

- `components`: paper 000's component error rates (Table 2), per-file error rate, its
  mean ± standard error per script-length bin (Fig. 6–7), message ordering and label
  similarity;
- `prior_bias`: paper 002's EM, RelAcc, conflict gap Δ, its bootstrap interval and the
  prerequisite check;
- `archqa`: paper 003's question-answering accuracy, counting (Acc@±k, MAE, Bias) and
  retrieval (P/R/F1, EM/subset/superset rates, missing, spurious) metrics, token cost, a
  bootstrap interval on accuracy and a paired comparison of models;
- `sadu_retrieval`: paper 003's Table 7 as SADU's analysis script computes it;
- `judge`: paper 003's LLM judge against the rule-based scorer (Table 10's agreement)
  and the categories of their disagreements (§4.5);
- `structure`: paper 004's image-to-code scores (diagbench's element F1 score and
  STRUDEL's counts-only one) and the complexity consistency of generated code;
- `chemistry`: the image-to-code similarity of molecules (canonical SMILES match and
  Tanimoto similarity of Morgan fingerprints) and of reactions (per-molecule F1);
- `biology`: paper 004's biology similarities: normalised Robinson–Foulds similarity,
  leaf-set F1 and their tree score (Newick), logo similarity and consensus accuracy (FASTA),
  base-pair F1 and RNA score (dot-bracket RNA structures);
- `games`: the image-to-code similarity of chess boards (FEN): square-level accuracy
  and the board score with the exact-board match;
- `geography`: paper 004's map similarities: shape IoU in an equal-area projection,
  the features' match (each pair's IoU) and their map score (GeoJSON);
- `music`: the image-to-code similarity of tunes (ABC): the normalised edit distance of
  (pitch, duration) sequences and the tune's score with its key and meter;
- `paired`: the paired Wilcoxon test and bootstrap interval comparing two models;
- `agreement`: Cohen's κ of a judge model against the deterministic scorer;
- `intervals`: standard errors and bootstrap intervals of a mean or ratio, naive and
  clustered by source diagram;
- `comparison`: two runs on the same samples: the paired difference, the exact McNemar
  and clustered sign-flip tests, Holm's correction.

Each docstring gives the formula, the paper file and section (in ``../shared/papers/``),
the edge cases and a worked example (run as a doctest). numpy and scipy are imported by
the functions that need them, so importing this package is cheap.

`METRICS` lists them all; the tests check each one against its edge cases.
"""

from __future__ import annotations

from collections.abc import Callable

from diagbench.scoring.metrics.agreement import cohens_kappa
from diagbench.scoring.metrics.archqa import (
    CountBias,
    RetrievalScores,
    accuracy_by,
    accuracy_interval,
    count_bias,
    mean_absolute_error,
    mean_tokens,
    paired_accuracy,
    qa_accuracy,
    retrieval_scores,
    tolerance_accuracy,
)
from diagbench.scoring.metrics.biology import (
    base_pair_f1,
    consensus_accuracy,
    leaf_f1,
    logo_similarity,
    rna_score,
    robinson_foulds_similarity,
    tree_score,
)
from diagbench.scoring.metrics.chemistry import molecule_score, reaction_score, tanimoto
from diagbench.scoring.metrics.comparison import (
    PairedDifference,
    holm,
    mcnemar_exact,
    paired_difference,
    sign_flip_test,
)
from diagbench.scoring.metrics.components import (
    LENGTH_BINS,
    by_length,
    error_rate,
    length_bin,
    mean_label_similarity,
    mean_standard_error,
    ordering_score,
    rate,
)
from diagbench.scoring.metrics.games import board_score, square_accuracy
from diagbench.scoring.metrics.geography import feature_match, map_score, shape_iou
from diagbench.scoring.metrics.intervals import (
    Intervals,
    bootstrap_interval,
    cluster_bootstrap_interval,
    cluster_standard_error,
    intervals,
    standard_error,
)
from diagbench.scoring.metrics.judge import (
    counting_disagreement,
    edit_distance,
    judge_agreement,
    retrieval_disagreement,
)
from diagbench.scoring.metrics.music import music_score, sequence_similarity
from diagbench.scoring.metrics.paired import PairedTest, paired_test
from diagbench.scoring.metrics.prior_bias import (
    EM_THRESHOLD,
    PRIOR_FREE_THRESHOLD,
    Prerequisite,
    cell_average,
    conflict_gap,
    exact_match,
    gap_interval,
    gap_interval_clustered,
    mean_gap,
    prerequisite,
    rel_acc,
)
from diagbench.scoring.metrics.sadu_retrieval import SaduRetrieval, sadu_retrieval
from diagbench.scoring.metrics.structure import (
    code_lengths,
    complexity_consistency,
    count_f1,
    image_to_code_score,
    sequence_code_score,
    set_f1,
    strudel_count_score,
)

#: Every metric, by name.
METRICS: dict[str, Callable] = {
    "rate": rate,
    "error_rate": error_rate,
    "ordering_score": ordering_score,
    "mean_label_similarity": mean_label_similarity,
    "mean_standard_error": mean_standard_error,
    "by_length": by_length,
    "exact_match": exact_match,
    "rel_acc": rel_acc,
    "cell_average": cell_average,
    "conflict_gap": conflict_gap,
    "mean_gap": mean_gap,
    "gap_interval": gap_interval,
    "gap_interval_clustered": gap_interval_clustered,
    "prerequisite": prerequisite,
    "paired_test": paired_test,
    "qa_accuracy": qa_accuracy,
    "accuracy_by": accuracy_by,
    "tolerance_accuracy": tolerance_accuracy,
    "mean_absolute_error": mean_absolute_error,
    "count_bias": count_bias,
    "retrieval_scores": retrieval_scores,
    "sadu_retrieval": sadu_retrieval,
    "mean_tokens": mean_tokens,
    "accuracy_interval": accuracy_interval,
    "paired_accuracy": paired_accuracy,
    "judge_agreement": judge_agreement,
    "counting_disagreement": counting_disagreement,
    "retrieval_disagreement": retrieval_disagreement,
    "edit_distance": edit_distance,
    "set_f1": set_f1,
    "image_to_code_score": image_to_code_score,
    "count_f1": count_f1,
    "strudel_count_score": strudel_count_score,
    "sequence_code_score": sequence_code_score,
    "code_lengths": code_lengths,
    "complexity_consistency": complexity_consistency,
    "tanimoto": tanimoto,
    "molecule_score": molecule_score,
    "reaction_score": reaction_score,
    "robinson_foulds_similarity": robinson_foulds_similarity,
    "leaf_f1": leaf_f1,
    "tree_score": tree_score,
    "consensus_accuracy": consensus_accuracy,
    "logo_similarity": logo_similarity,
    "base_pair_f1": base_pair_f1,
    "rna_score": rna_score,
    "shape_iou": shape_iou,
    "feature_match": feature_match,
    "map_score": map_score,
    "square_accuracy": square_accuracy,
    "board_score": board_score,
    "sequence_similarity": sequence_similarity,
    "music_score": music_score,
    "cluster_standard_error": cluster_standard_error,
    "standard_error": standard_error,
    "bootstrap_interval": bootstrap_interval,
    "cluster_bootstrap_interval": cluster_bootstrap_interval,
    "intervals": intervals,
    "mcnemar_exact": mcnemar_exact,
    "sign_flip_test": sign_flip_test,
    "holm": holm,
    "paired_difference": paired_difference,
    "cohens_kappa": cohens_kappa,
}

__all__ = [
    "EM_THRESHOLD",
    "LENGTH_BINS",
    "METRICS",
    "PRIOR_FREE_THRESHOLD",
    "CountBias",
    "Intervals",
    "PairedDifference",
    "PairedTest",
    "Prerequisite",
    "RetrievalScores",
    "SaduRetrieval",
    "accuracy_by",
    "accuracy_interval",
    "base_pair_f1",
    "board_score",
    "bootstrap_interval",
    "by_length",
    "cell_average",
    "cluster_bootstrap_interval",
    "cluster_standard_error",
    "code_lengths",
    "cohens_kappa",
    "complexity_consistency",
    "conflict_gap",
    "consensus_accuracy",
    "count_bias",
    "count_f1",
    "counting_disagreement",
    "edit_distance",
    "error_rate",
    "exact_match",
    "feature_match",
    "gap_interval",
    "gap_interval_clustered",
    "holm",
    "image_to_code_score",
    "intervals",
    "judge_agreement",
    "leaf_f1",
    "length_bin",
    "logo_similarity",
    "map_score",
    "mcnemar_exact",
    "mean_absolute_error",
    "mean_gap",
    "mean_label_similarity",
    "mean_standard_error",
    "mean_tokens",
    "molecule_score",
    "music_score",
    "ordering_score",
    "paired_accuracy",
    "paired_difference",
    "paired_test",
    "prerequisite",
    "qa_accuracy",
    "rate",
    "reaction_score",
    "rel_acc",
    "retrieval_disagreement",
    "retrieval_scores",
    "rna_score",
    "robinson_foulds_similarity",
    "sadu_retrieval",
    "sequence_code_score",
    "sequence_similarity",
    "set_f1",
    "shape_iou",
    "sign_flip_test",
    "square_accuracy",
    "standard_error",
    "strudel_count_score",
    "tanimoto",
    "tolerance_accuracy",
    "tree_score",
]
