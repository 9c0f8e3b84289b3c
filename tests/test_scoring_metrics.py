"""`diagbench.scoring.metrics`: the doctests of every module, each metric against numbers
worked out by hand from the papers' definitions, and a table of edge cases that must
name every metric in `METRICS`."""

from __future__ import annotations

import doctest
import importlib
import math
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

from diagbench.scoring import metrics
from diagbench.scoring.metrics import (
    METRICS,
    CountBias,
    Intervals,
    PairedDifference,
    PairedTest,
    Prerequisite,
    RetrievalScores,
    SaduRetrieval,
    by_length,
    cell_average,
    conflict_gap,
    error_rate,
    exact_match,
    gap_interval,
    mean_gap,
    mean_label_similarity,
    mean_standard_error,
    ordering_score,
    paired_test,
    prerequisite,
    rate,
    rel_acc,
)

MODULES = sorted(m.name for m in pkgutil.iter_modules(metrics.__path__, metrics.__name__ + "."))
PAPERS = Path(__file__).resolve().parents[2] / "shared" / "papers"


# (a) doctests ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", [metrics.__name__, *MODULES])
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0 or name == metrics.__name__


@pytest.mark.parametrize("name", sorted(METRICS))
def test_docstring_cites_paper_and_has_example(name):
    doc = METRICS[name].__doc__ or ""
    cited = re.findall(r"(\d{3}_[0-9a-f]{16}\.txt) §(\d+(?:\.\d+)*)", doc)
    assert cited, f"{name}: no 'NNN_<hash>.txt §N' citation"
    assert ">>>" in doc and "Edge cases" in doc, name
    for paper, section in cited:
        if (PAPERS / paper).exists():  # the section exists in that paper
            text = (PAPERS / paper).read_text(encoding="utf-8")
            # "3.3.2 Title" or, as paper 003 numbers them, "3.3.2. Title"
            assert re.search(rf"^{re.escape(section)}\.? [A-Z]", text, re.M), \
                (name, paper, section)


def test_importing_the_metrics_loads_neither_numpy_nor_scipy():
    code = ("import sys, diagbench.scoring.metrics; "
            "print(sorted(m for m in ('numpy', 'scipy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    assert out.strip() == "[]"


# (b) by hand, from the papers' definitions -----------------------------------------------

def test_rate_gives_the_percentages_of_paper_000_table2():
    # Table 2 (Claude): counts recovered from the published percentage and gold count.
    assert round(100 * rate(226, 1736), 2) == 13.02  # node insertion: 226/1736 = 13.018 %
    assert round(100 * rate(10, 19), 2) == 52.63  # box deletion: 10/19 = 52.631 %
    assert round(100 * rate(27, 39), 2) == 69.23  # group deletion: 27/39 = 69.230 %
    assert round(100 * rate(2, 278), 2) == 0.72  # participant insertion: 2/278 = 0.719 %
    assert rate(19, 19) == 1.0  # GPT-4 box deletion: all 19 boxes → 100.00 %


def test_error_rate_sums_the_three_kinds():
    # one file, 8 gold messages: 1 inserted, 2 deleted, 1 changed → (1 + 2 + 1) / 8 = 0.5
    assert error_rate(1, 2, 1, 8) == 0.5
    # 3 inserted into 2 gold notes: 3/2 = 1.5 (insertions can exceed the gold count)
    assert error_rate(3, 0, 0, 2) == 1.5


def test_ordering_score():
    # 4 matched messages drawn in the order 2, 1, 4, 3: pairs 4·3/2 = 6, discordant
    # (2,1) and (4,3) = 2 → 1 − 2/6 = 0.6667
    assert ordering_score(2, 6) == pytest.approx(0.6667, abs=1e-4)
    # fully reversed, 3 messages: all 3 pairs discordant → 1 − 3/3 = 0
    assert ordering_score(3, 3) == 0.0


def test_mean_label_similarity():
    # "abcd" read as "abce": 1 − 1/4 = 0.75; a second label read exactly: 1.0
    # → (0.75 + 1.0) / 2 = 0.875
    assert mean_label_similarity(1.75, 2) == 0.875


def test_mean_standard_error():
    # 2, 4, 4, 4, 5, 5, 7, 9: mean 40/8 = 5; Σ(x − 5)² = 9+1+1+1+0+0+4+16 = 32;
    # s = √(32/7); s/√8 = √(32/56) = √(4/7) = 0.75593
    mean, se = mean_standard_error([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
    assert mean == 5.0
    assert se == pytest.approx(0.75593, abs=1e-5)


def test_by_length_bins_of_paper_000_table1():
    # files (gold lines, error %): (10, 20) (20, 40) | (25, 0) | – | – | (60, 50) (60, 70)
    # (60, 90) | –.  1-20: mean 30, s = √(100 + 100) = 14.142, se = 14.142/√2 = 10;
    # 21-30: 0 ± 0; 51-100: mean 70, s = √((400 + 0 + 400)/2) = 20, se = 20/√3 = 11.547
    points = by_length([10, 20, 25, 60, 60, 60], [20.0, 40.0, 0.0, 50.0, 70.0, 90.0])
    assert [m for m, _ in points] == [30.0, 0.0, None, None, 70.0, None]
    assert [e for _, e in points] == pytest.approx([10.0, 0.0, 0.0, 0.0, 11.547, 0.0],
                                                   abs=1e-3)
    # 101 lines and more fall in the extra bin ">100"
    assert by_length([101, 5000], [10.0, 30.0])[-1][0] == 20.0  # (10 + 30) / 2


def test_exact_match_and_rel_acc():
    # 28 instances, class names read right in 26: 100 · 26/28 = 92.857 %
    assert exact_match([True] * 26 + [False] * 2) == pytest.approx(92.857, abs=1e-3)
    # prior-conform: 9 of 10 answers right → 90 %; an Unknown counts as wrong
    assert rel_acc([True] * 9 + [False]) == 90.0
    assert rel_acc([True, False, False, False]) == 25.0  # 1 of 4


def test_cell_average_weighs_every_cell_alike():
    # inheritance 1x: 9 of 10 right (90 %); aggregation 1x: 1 of 2 right (50 %):
    # the paper's average over relations is (90 + 50) / 2 = 70, not 10/12 = 83.3 pooled
    assert cell_average([[True] * 9 + [False], [True, False]]) == pytest.approx(70.0)
    assert cell_average([[True] * 9 + [False], [], [True, False]]) == pytest.approx(70.0)


def test_conflict_gap_and_its_mean():
    conform = [[True] * 9 + [False]]  # one cell, 90 %
    assert conflict_gap(conform, [[True] * 3 + [False] * 7]) == pytest.approx(60.0)  # 90 − 30
    assert conflict_gap(conform, [[True] + [False] * 3]) == pytest.approx(65.0)  # 90 − 25
    # two cells: conform (90 + 100) / 2 = 95, conflict (30 + 0) / 2 = 15 → 80
    assert conflict_gap([[True] * 9 + [False], [True] * 2],
                        [[True] * 3 + [False] * 7, [False] * 4]) == pytest.approx(80.0)
    # a cell missing on one side is left out on both: only the first cell, 90 − 30
    assert conflict_gap([[True] * 9 + [False], [True]],
                        [[True] * 3 + [False] * 7, []]) == pytest.approx(60.0)
    assert mean_gap([60.0, 65.0, None]) == 62.5  # (60 + 65) / 2, the undefined Δ left out


def test_gap_interval():
    conform, conflict = [[True] * 9 + [False]], [[True] * 3 + [False] * 7]
    # Δ = 60; its standard error √(.9·.1/10 + .3·.7/10) = √0.03 = 0.1732, i.e. 17.3
    # points, so the interval is about 60 ± 1.96 · 17.3 = (26.1, 93.9), give or take the
    # discreteness of 10 answers.
    low, high = gap_interval(conform, conflict)
    assert low < 60.0 < high
    assert abs(low - 26.1) < 10 and abs(high - 93.9) < 10
    # conform all right; conflict [right, wrong]: a resample of two has mean 0, ½ or 1
    # with probability ¼, ½, ¼, so Δ* is 100, 50 or 0, each far above 2.5 % → (0, 100)
    assert gap_interval([[True] * 4], [[True, False]]) == (0.0, 100.0)
    # two cells, each conform cell all right, each conflict cell all wrong → (100, 100)
    assert gap_interval([[True] * 3, [True]], [[False] * 2, [False] * 5]) == (100.0, 100.0)
    assert gap_interval(conform, conflict, seed=1) != gap_interval(conform, conflict, seed=2)


def test_prerequisite_thresholds_of_paper_002():
    # EM 26/28 = 92.86 < 95: fails although prior-free RelAcc 2/4 = 50 ≥ 50
    check = prerequisite([[True] * 26 + [False] * 2], [[True, True, False, False]])
    assert (check.prior_free_rel_acc, check.passed) == (50.0, False)
    # EM 19/20 = 95 and RelAcc 3/4 = 75: both at or above → passes
    assert prerequisite([[True] * 19 + [False]], [[True] * 3 + [False]]) == Prerequisite(
        95.0, 75.0, True)
    # per cell: EM cells 100 % and 90 % → 95 (pooled 29/30 would be 96.7); RelAcc cells
    # 100 % and 0 % → 50
    assert prerequisite([[True] * 20, [True] * 9 + [False]], [[True], [False] * 3]) == \
        Prerequisite(95.0, 50.0, True)
    assert check.as_dict() == {"em": check.em, "prior_free_rel_acc": 50.0, "passed": False}


def test_paired_test_by_hand():
    # d = 1, 2, 3, 4, 5, −6: ranks of |d| are 1…6; W+ = 1+2+3+4+5 = 15, W− = 6;
    # statistic min = 6; of the 2⁶ = 64 sign patterns, 14 have W+ ≤ 6, so the exact
    # two-sided p = 2 · 14/64 = 0.4375; mean d = (15 − 6)/6 = 1.5
    t = paired_test([1.0, 2.0, 3.0, 4.0, 5.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 6.0])
    assert (t.n, t.mean_difference, t.statistic, t.p_value) == (6, 1.5, 6.0, 0.4375)
    assert t.ci_low < 1.5 < t.ci_high
    # four files, A always 0.25 worse: W− = 0 → statistic 0, p = 2 · 1/2⁴ = 0.125;
    # every resample has mean 0.25 → interval (0.25, 0.25)
    t = paired_test([0.5, 0.75, 0.25, 1.0], [0.25, 0.5, 0.0, 0.75])
    assert (t.statistic, t.p_value, t.ci_low, t.ci_high) == (0.0, 0.125, 0.25, 0.25)
    assert t.as_dict()["wilcoxon_statistic"] == 0.0


def test_shape_iou_and_map_score_by_hand():
    # two unit squares offset by half a side: they share a ½ × 1 strip, so
    # I = 0.5, union = 1 + 1 − 0.5 = 1.5, IoU = 0.5 / 1.5 = 1/3
    assert metrics.shape_iou(0.5, 1.0, 1.0) == pytest.approx(1 / 3)
    # a square inside one four times its size: I = 1, union = 4, IoU = 1/4
    assert metrics.shape_iou(1.0, 4.0, 1.0) == 0.25
    # 3 gold countries, 4 predicted, 2 paired, with IoUs 1 and 0.5: 1.5 / max(3, 4)
    assert metrics.feature_match([1.0, 0.5], 3, 4) == 0.375
    # S = (1/3 + 1/2) / 2 = 5/12
    assert metrics.map_score(True, 1 / 3, 0.5) == pytest.approx(5 / 12)


# (c) edge cases: one table, every metric -----------------------------------------------

NONE_BINS = [(None, 0.0)] * 6

#: Per metric: (arguments, expected result or the exception raised).
EDGE_CASES: dict[str, list[tuple[tuple, object]]] = {
    "rate": [((0, 0), None), ((3, 0), None), ((0, 5), 0.0), ((7, 5), 1.4)],
    "error_rate": [((0, 0, 0, 0), None), ((2, 1, 0, 0), None), ((0, 0, 0, 3), 0.0)],
    "ordering_score": [((0, 0), 1.0), ((1, 1), 0.0)],
    "mean_label_similarity": [((0.0, 0), None), ((0.0, 2), 0.0)],
    "mean_standard_error": [(([],), (None, 0.0)), (([5.0],), (5.0, 0.0)),
                            (([3.0, 3.0],), (3.0, 0.0))],
    "by_length": [(([], []), NONE_BINS),
                  (([0], [50.0]), NONE_BINS),  # 0 lines: in no bin
                  (([20, 21], [1.0, 2.0]), [(1.0, 0.0), (2.0, 0.0), *NONE_BINS[2:]]),
                  (([1], []), ValueError)],
    "exact_match": [(([],), None), (([False],), 0.0), (([True],), 100.0)],
    "rel_acc": [(([],), None), (([False],), 0.0), (([True],), 100.0)],
    "cell_average": [(([],), None), (([[], []],), None), (([[False]],), 0.0),
                     (([[True], []],), 100.0)],
    "conflict_gap": [(([[]], [[True]]), None), (([[True]], [[]]), None),
                     (([[False]], [[True]]), -100.0), (([[True]], []), ValueError)],
    "mean_gap": [(([],), None), (([None, None],), None), (([-5.0],), -5.0)],
    "gap_interval": [(([[]], [[True]]), None), (([[True]], [[]]), None),
                     (([[True]], [[True]]), (0.0, 0.0)), (([[True]], []), ValueError)],
    "gap_interval_clustered": [(([[]], [[("d", True)]]), None), (([[("d", True)]], [[]]), None),
                               (([[("d", True)]], [[("d", True)]]), (0.0, 0.0, 0.0)),
                               (([[("d", True)]], []), ValueError)],
    "prerequisite": [(([], []), Prerequisite(None, None, False)),
                     (([[True]], [[]]), Prerequisite(100.0, None, False)),
                     (([[True] * 20], [[False]]), Prerequisite(100.0, 0.0, False))],
    "paired_test": [(([1.0], [1.0, 2.0]), ValueError),
                    (([], []), PairedTest(0, None, None, None, None, None)),
                    (([0.5, 0.5], [0.5, 0.5]), PairedTest(2, 0.0, 0.0, 0.0, None, 1.0))],
    # paper 003 (SADU), §3.3
    "qa_accuracy": [(([],), None), (([False],), 0.0), (([True, True],), 100.0)],
    "accuracy_by": [(([], []), {}), ((["a"], []), ValueError),
                    ((["b", "a", "b"], [True, False, False]), {"a": 0.0, "b": 50.0})],
    "tolerance_accuracy": [(([], [], 1), None), (([None], [3], 2), 0.0),
                           (([1], [], 1), ValueError), (([4, 7], [5, 5], 1), 0.5)],
    "mean_absolute_error": [(([], []), None), (([None], [3]), None),
                            (([1], [1, 2]), ValueError), (([4, 7], [5, 5]), 1.5)],
    "count_bias": [(([], []), CountBias(None, None, None, 0)),
                   (([None, None], [1, 2]), CountBias(None, 0.0, 0.0, 2)),
                   (([1], []), ValueError), (([4, 7], [5, 5]), CountBias(0.5, 0.5, 0.5, 2))],
    "retrieval_scores": [(([], []), None), (([None], [["a"]]), RetrievalScores(
                             0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1)),
                         (([["a"]], []), ValueError),
                         (([[]], [[]]), RetrievalScores(0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0,
                                                        0.0, 1))],
    "sadu_retrieval": [(([],), SaduRetrieval(*[None] * 9, 0, 0, 0)),
                       (([(None, ["a"])],), SaduRetrieval(None, None, None, 0.0, 0.0, 0.0,
                                                          0.0, None, None, 1, 0, 0)),
                       (([([], ["a"])],), SaduRetrieval(0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0,
                                                        1.0, None, 1, 1, 0)),
                       (([(["a"], [])],), SaduRetrieval(None, None, None, 0.0, 0.0, 0.0,
                                                        0.0, None, None, 1, 0, 1))],
    "mean_tokens": [(([],), None), (([None],), None), (([0, 3],), 1.5)],
    "accuracy_interval": [(([],), None), (([False] * 5,), (0.0, 0.0)),
                          (([True],), (100.0, 100.0))],
    "paired_accuracy": [(({}, {}), PairedTest(0, None, None, None, None, None)),
                        (({"q": True}, {"r": False}), PairedTest(0, None, None, None, None,
                                                                 None)),
                        (({"q": True, "r": False}, {"q": True, "r": False}),
                         PairedTest(2, 0.0, 0.0, 0.0, None, 1.0))],
    "judge_agreement": [
        (([], []), {"n": 0, "unjudged": 0, "T_Same": None, "F_Same": None, "T_Diff": None,
                    "F_Diff": None, "F_Diff_caption": None, "All_Same": None}),
        (([True], [None]), {"n": 0, "unjudged": 1, "T_Same": None, "F_Same": None,
                            "T_Diff": None, "F_Diff": None, "F_Diff_caption": None,
                            "All_Same": None}),
        (([True], []), ValueError),
        (([True, False, False, True], [True, True, False, False]),
         {"n": 4, "unjudged": 0, "T_Same": 25.0, "F_Same": 25.0, "T_Diff": 25.0,
          "F_Diff": 25.0, "F_Diff_caption": 25.0, "All_Same": 50.0}),
        # the text's F_Diff (judge False, rule True) against the caption's (both False)
        (([True, True, False, False], [False, False, False, True]),
         {"n": 4, "unjudged": 0, "T_Same": 0.0, "F_Same": 25.0, "T_Diff": 25.0,
          "F_Diff": 50.0, "F_Diff_caption": 25.0, "All_Same": 25.0})],
    "counting_disagreement": [((None, 3), "unreadable"), ((3, 3), "equal"),
                              ((2, 3), "off_by_one"), ((8, 3), "close"), ((9, 3), "large"),
                              ((3.5, 3), "off_by_one")],
    "retrieval_disagreement": [(([], ["a"]), "different"), ((None, ["a"]), "different"),
                               ((["A"], ["a", "b"]), "same_elements"),
                               (([["x", "y"]], [["x", "yz"]]), "substring"),
                               ((["abcdefghij"], ["abcdefghik"]), "fuzzy"),
                               ((["ab"], ["ac"]), "different")],
    "edit_distance": [(("", ""), 0), (("abc", ""), 3), (("flaw", "lawn"), 2),
                      ((["C4", "D4"], ["D4"]), 1)],
    # paper 004 (STRUDEL), §4–5
    "set_f1": [((0, 0, 0), (1.0, 1.0, 1.0)), ((0, 3, 0), (0.0, 0.0, 0.0)),
               ((0, 0, 2), (0.0, 0.0, 0.0)), ((0, 2, 2), (0.0, 0.0, 0.0)),
               ((3, 2, 5), ValueError), ((2, 4, 4), (0.5, 0.5, 0.5))],
    "image_to_code_score": [((False, 1.0, 1.0), 0.0), ((True, 0.0, 0.0), 0.0),
                            ((True, 1.0, 0.5), 0.75), ((True, 1.5, 0.0), ValueError)],
    "count_f1": [(({}, {}), 1.0), (({"class": 2}, {}), 0.0), (({}, {"class": 1}), 0.0),
                 (({"class": 2}, {"class": 2}), 1.0), (({"class": 2}, {"enum": 2}), 0.0)],
    # worked by hand: C = 1 − E/G (at least 0), times the mean of O and L (None → 1)
    "sequence_code_score": [((False, 0, 4, 1.0, 1.0), 0.0), ((True, 0, 0, 1.0, None), 1.0),
                            ((True, 1, 0, 1.0, 1.0), 0.0), ((True, 9, 4, 1.0, 1.0), 0.0),
                            ((True, 1, 4, 0.0, None), 0.375), ((True, 0, 4, 0.5, 0.25), 0.375)],
    "strudel_count_score": [((True, {}, {}), 1.0), ((False, {}, {}), 0.5),
                            ((False, {"a": 1}, {}), 0.0), ((True, {"a": 2}, {"a": 2}), 1.0)],
    "code_lengths": [(([],), ("lines", [])), ((["a\n" * 5],), ("lines", [5])),
                     ((["abcd\n"],), ("characters", [4]))],
    "complexity_consistency": [(([],), None), (([{"low": 3}],), None),
                               (([{"low": 0, "medium": 0}],), 0.0),
                               (([{"low": 10, "medium": 11}],), 100.0),
                               (([{"low": 10, "medium": 10.9, "high": 12}],), 200 / 3)],
    # molecules: canonical SMILES and Morgan fingerprints (scoring.metrics.chemistry)
    "tanimoto": [((set(), set()), 1.0), (({1}, set()), 0.0), ((set(), {1}), 0.0),
                 (({1, 2}, {1, 2}), 1.0), (([1, 1, 2], [2]), 0.5)],
    "molecule_score": [((False, True, 1.0), 0.0), ((True, True, 1.0), 1.0),
                       ((True, False, 0.0), 0.0), ((True, False, 1.0), 0.5),
                       ((True, False, 1.5), ValueError)],
    "reaction_score": [((True, 0, 0, 0), 1.0), ((False, 0, 0, 0), 0.0),
                       ((True, 0, 2, 0), 0.0), ((True, 2, 2, 2), 1.0),
                       ((True, 3, 2, 3), ValueError),
                       # m = 4 + 1/2 of 5 and 5: 2·4.5 / 10
                       ((True, 4, 5, 5, 1), 0.9), ((True, 2, 2, 2, 1), ValueError)],
    "robinson_foulds_similarity": [(([], []), 1.0), (([frozenset("AB")], []), 0.0),
                                   (([frozenset("AB")], [frozenset("AB"), frozenset("AB")]),
                                    1.0),
                                   (([frozenset("AB"), frozenset("ABC")],
                                     [frozenset("AC"), frozenset("ABC")]), 0.5)],
    "leaf_f1": [(([], []), 1.0), ((["A"], []), 0.0), ((["A", "A"], ["A"]), 2 / 3)],
    "tree_score": [((True, 1.0, 1.0), 1.0), ((False, 1.0, 1.0), 0.0),
                   ((True, 1.5, 1.0), ValueError)],
    "consensus_accuracy": [(("", ""), 1.0), (("ACGT", ""), 0.0), (("acgt", "ACGA"), 0.75),
                           (("AC", "ACGT"), 0.5)],
    # the mean of Σ min / Σ max per column over the longer logo
    "logo_similarity": [(([], []), 1.0), (([{"A": 1}], []), 0.0), (([{}], [{}]), 1.0),
                        (([{"A": 2}], [{"A": 1, "C": 1}]), 1 / 3),
                        (([{"A": 1}, {"C": 1}], [{"A": 1}]), 0.5)],
    # 2·|P∩G| / (|P|+|G|): {(1,9)} of 2 gold and 1 predicted → 2·1/3
    "base_pair_f1": [((set(), set()), 1.0), (({(1, 9)}, set()), 0.0),
                     ((set(), {(1, 9)}), 0.0), (({(1, 9), (2, 8)}, {(1, 9)}), 2 / 3),
                     (({(1, 9)}, {(9, 1)}), 0.0)],
    # (F1 + identity) / 2
    "rna_score": [((True, 1.0, 1.0), 1.0), ((False, 1.0, 1.0), 0.0),
                  ((True, 0.5, 0.25), 0.375), ((True, 1.0, 1.5), ValueError)],
    # maps: shape IoU, whole and per feature (scoring.metrics.geography)
    "shape_iou": [((0.0, 0.0, 0.0), 1.0), ((0.0, 1.0, 0.0), 0.0), ((0.0, 0.0, 2.0), 0.0),
                  ((1.0, 1.0, 1.0), 1.0), ((0.0, 1.0, 1.0), 0.0),
                  ((2.0, 1.0, 3.0), ValueError), ((-1.0, 1.0, 1.0), ValueError)],
    "feature_match": [(([], 0, 0), 1.0), (([], 3, 0), 0.0), (([], 0, 2), 0.0),
                      (([1.0, 1.0], 2, 2), 1.0), (([1.0, 0.5, 0.5], 2, 4), ValueError),
                      (([1.5], 2, 2), ValueError), (([-0.1], 2, 2), ValueError)],
    "map_score": [((True, 1.0, 1.0), 1.0), ((False, 1.0, 1.0), 0.0),
                  ((True, 0.5, 0.0), 0.25), ((True, 1.5, 1.0), ValueError)],
    # chess boards: square accuracy and the board score (scoring.metrics.games)
    "square_accuracy": [((["K"] + [""] * 63, ["K"] + [""] * 63), 1.0),  # 64/64
                        (([""] * 64, ["Q"] * 64), 0.0),  # no square alike: 0/64
                        # a white pawn on a2 read as black: the right type in
                        # the wrong colour, half a square: 63.5/64
                        ((["", "", "", "", "", "", "", "", "P"] + [""] * 55,
                          ["", "", "", "", "", "", "", "", "p"] + [""] * 55), 63.5 / 64),
                        # a2's pawn read as a black knight: a wrong type, 63/64
                        ((["", "", "", "", "", "", "", "", "P"] + [""] * 55,
                          ["", "", "", "", "", "", "", "", "n"] + [""] * 55), 63 / 64),
                        # the king moved from a1 to b1: a1 and b1 wrong, 62/64 = 0.96875
                        ((["K"] + [""] * 63, ["", "K"] + [""] * 62), 0.96875),
                        (([""] * 64, [""] * 63), ValueError)],
    "board_score": [((True, 1.0, True), 1.0), ((False, 1.0, True), 0.0),
                    ((True, 0.96875, False), 0.484375),  # (0.96875 + 0) / 2
                    ((True, 1.0, False), 0.5),  # every square, wrong side to move
                    ((True, 1.5, False), ValueError)],
    # music (ABC): 1 - d / max(len); d = 1 substitution of 4 -> 0.75; one deletion of
    # 3 -> 2/3; S = 0.8 * melody + 0.1 * key + 0.1 * meter: 0.8 * 0.75 + 0.1 = 0.7
    "sequence_similarity": [(([], []), 1.0), ((["C4"], []), 0.0), (([], ["C4"]), 0.0),
                            ((["C4", "D4", "E4", "F4"], ["C4", "D4", "G4", "F4"]), 0.75),
                            (([("C4", 1), ("D4", 1), ("E4", 2)], [("C4", 1), ("E4", 2)]),
                             1 - 1 / 3),
                            (([("C4", 1)], [("C4", 2)]), 0.0)],
    "music_score": [((True, 1.0, True, True), 1.0), ((False, 1.0, True, True), 0.0),
                    ((True, 0.75, True, False), 0.8 * 0.75 + 0.1),
                    ((True, 0.0, False, False), 0.0), ((True, 1.5, True, True), ValueError)],
    # intervals, naive and clustered by diagram (scoring.metrics.intervals)
    "cluster_standard_error": [(([], []), None), (([1, 0], "aa"), None),
                               (([1], "ab"), ValueError), (([0, 0], [0, 0], [0, 0]), None),
                               (([1, 0], "ab"), 0.5)],  # s²/n = 0.5/2
    "standard_error": [(([],), None), (([3],), None), (([2, 2],), 0.0)],
    "bootstrap_interval": [(([],), None), (([4, 4],), (4.0, 4.0))],
    "cluster_bootstrap_interval": [(([], []), None), (([1], "ab"), ValueError),
                                   (([0, 1], "aa"), (0.5, 0.5)),
                                   (([1, 1], "ab", 100, 0, [0, 0]), None)],
    "intervals": [(([], []), Intervals(0, 0, None, None, None, None, None)),
                  (([1], "ab"), ValueError),
                  (([1.0], "a"), Intervals(1, 1, 1.0, None, None, (1.0, 1.0), (1.0, 1.0)))],
    # paired comparison of two runs (scoring.metrics.comparison)
    "mcnemar_exact": [((0, 0), 1.0), ((-1, 2), ValueError), ((3, 3), 1.0),
                      ((4, 0), 0.125)],  # 2 · 1/2⁴
    "sign_flip_test": [(([], []), 1.0), (([0.0, 0.0], "ab"), 1.0), (([1], "ab"), ValueError),
                       (([2.0], "a"), 1.0)],  # one diagram: ±2, both as extreme
    "cohens_kappa": [(([], []), None), (([True], [None]), None), (([True], []), ValueError),
                     (([True, True], [True, True]), None),  # p_e = 1: undefined
                     (([True, False], [True, False]), 1.0),
                     (([True, False], [False, True]), -1.0)],
    "holm": [(([],), []), (([0.5],), [0.5]), (([0.4, 0.3],), [0.6, 0.6])],
    "paired_difference": [(([1], [], "a"), ValueError),
                          (([], [], []), PairedDifference(
                              Intervals(0, 0, None, None, None, None, None), None, None, 0, 0,
                              "mcnemar", 1.0))],
}


def test_every_metric_has_edge_cases():
    assert set(EDGE_CASES) == set(METRICS)
    assert all(EDGE_CASES.values())


@pytest.mark.parametrize(("name", "args", "expected"),
                         [(name, args, expected) for name, cases in EDGE_CASES.items()
                          for args, expected in cases],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_edge_case(name, args, expected):
    metric = METRICS[name]
    if isinstance(expected, type) and issubclass(expected, Exception):
        with pytest.raises(expected):
            metric(*args)
    else:
        result = metric(*args)
        assert result == expected
        assert not (isinstance(result, float) and math.isnan(result))


def test_base_pair_f1_worked_by_hand():
    """Gold ((((....)))) has pairs (1,12) (2,11) (3,10) (4,9); the prediction
    .(((....))). opens (1,12) and has (2,11) (3,10) (4,9): |P∩G| = 3, |P| = 3, |G| = 4,
    F1 = 2·3/7 = 6/7. Sensitivity 3/4, PPV 3/3: harmonic mean 2·(3/4)(1)/(7/4) = 6/7."""
    gold = {(1, 12), (2, 11), (3, 10), (4, 9)}
    pred = {(2, 11), (3, 10), (4, 9)}
    assert METRICS["base_pair_f1"](gold, pred) == pytest.approx(6 / 7)
    # a slipped prediction, every pair one position off: nothing shared
    assert METRICS["base_pair_f1"](gold, {(2, 12), (3, 11), (4, 10), (5, 9)}) == 0.0
