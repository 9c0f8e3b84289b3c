"""Paper 002's figures (Figs. 4–8, §4.3.2) from a summary: every number checked against
values worked out by hand on invented per-model results, and the report showing them."""

from __future__ import annotations

import json

import pytest

from diagbench.benchmarks.prior_bias.figures import (
    Gap,
    family_conflicts,
    family_gaps,
    identify,
    passing_gap,
    read_sizes,
    relation_gaps,
    scale_gaps,
    size_scaling,
)
from diagbench.benchmarks.prior_bias.records import Cell, ModelSummary, PriorBiasSummary
from diagbench.benchmarks.prior_bias.report import write_report
from diagbench.benchmarks.protocol import DataError
from diagbench.scoring.metrics import Prerequisite

SMALL, LARGE, CLOSED = ("vllm:Org/Fam-2B-Instruct@http://127.0.0.1:8000/v1", "vllm:Org/Fam-8B",
                        "openai:gpt-x")
EMPTY = {"1x": Cell(0, None, None), "2x": Cell(0, None, None)}


def _cells(agg: tuple[float, float], comp: tuple[float, float]) -> dict[str, dict[str, Cell]]:
    """RelAcc at 1x and 2x for aggregation and composition; no dependency or inheritance."""
    return {"aggregation": {"1x": Cell(4, agg[0], 100.0), "2x": Cell(4, agg[1], 100.0)},
            "composition": {"1x": Cell(4, comp[0], 100.0), "2x": Cell(4, comp[1], 100.0)},
            "dependency": dict(EMPTY), "inheritance": dict(EMPTY)}


def _model(conform: float, rev2: float, rev3: float, mixed: float, passed: bool,
           cells: dict[str, dict[str, dict[str, Cell]]] | None = None) -> ModelSummary:
    rel = {"prior-free": 60.0, "prior-conform": conform, "2-reverse": rev2, "3-reverse": rev3,
           "3-mixed": mixed}
    grid = cells or {c: _cells((0.0, 0.0), (0.0, 0.0)) for c in rel}
    return ModelSummary(10, 0, {c: Cell(8, v, 100.0) for c, v in rel.items()}, grid,
                        conform - rev2, None, dict.fromkeys(("2-reverse", "3-reverse", "3-mixed")),
                        {}, {"1x": None, "2x": None},
                        Prerequisite(100.0, 60.0, passed), {}, {}, 0)


@pytest.fixture
def models() -> dict[str, ModelSummary]:
    return {SMALL: _model(80, 40, 30, 20, True), LARGE: _model(90, 70, 50, 60, False),
            CLOSED: _model(100, 90, 80, 70, True)}


def _identities(models, given=None):
    return {n: identify(n, given) for n in models}


def _close(gaps: list[Gap], expected: list[tuple]) -> None:
    got = [(g.label, g.models, g.conform, g.conflict, g.delta) for g in gaps]
    assert [g[:2] for g in got] == [e[:2] for e in expected]
    for g, e in zip(got, expected, strict=True):
        assert g[2:] == pytest.approx(e[2:]), g


def test_family_and_size_from_the_name_or_the_file():
    assert identify(SMALL) == identify("Fam-2B")
    assert (identify(SMALL).family, identify(SMALL).size) == ("Fam", 2.0)
    assert (identify("vllm:OpenGVLab/InternVL3_5-38B").family,
            identify("vllm:OpenGVLab/InternVL3_5-38B").size) == ("InternVL3_5", 38.0)
    assert identify("qwen2.5-vl-7b").size == 7.0 and identify("llava-1.5b").size == 1.5
    assert (identify(CLOSED).family, identify(CLOSED).size) == ("gpt-x", None)
    told = identify(CLOSED, {CLOSED: {"family": "GPT", "size": 8}})
    assert (told.family, told.size) == ("GPT", 8)


def test_fig4_family_means_and_gap(models):
    # Fam: conform (80 + 90) / 2 = 85, conflict (40 + 70) / 2 = 55; gpt-x alone;
    # Mean over the three: 270 / 3 = 90 and 200 / 3
    _close(family_gaps(models, _identities(models)),
           [("Fam", 2, 85, 55, 30), ("gpt-x", 1, 100, 90, 10),
            ("Mean", 3, 90, 200 / 3, 90 - 200 / 3)])


def test_fig5_family_means_of_the_conflict_conditions(models):
    got = family_conflicts(models, _identities(models))
    assert got["Fam"] == pytest.approx({"2-reverse": 55, "3-reverse": 40, "3-mixed": 40})
    assert got["Mean"] == pytest.approx({"2-reverse": 200 / 3, "3-reverse": 160 / 3,
                                         "3-mixed": 50})


def test_figs6_7_gap_by_relation_and_scale():
    a = _model(0, 0, 0, 0, True, {"prior-conform": _cells((100, 80), (60, 60)),
                                  "2-reverse": _cells((50, 30), (60, 40))})
    b = _model(0, 0, 0, 0, True, {"prior-conform": _cells((90, 90), (70, 50)),
                                  "2-reverse": _cells((10, 30), (20, 20))})
    # per relation, each model averaged over 1x and 2x: aggregation A 90/40, B 90/20;
    # composition A 60/50, B 60/20; dependency and inheritance have no cells
    _close(relation_gaps([a, b]),
           [("aggregation", 2, 90, 30, 60), ("composition", 2, 60, 35, 25),
            ("dependency", 2, None, None, None), ("inheritance", 2, None, None, None),
            ("Mean", 2, 75, 32.5, 42.5)])
    # per scale, each model averaged over its relations: 1x A 80/55, B 80/15; 2x A 70/35,
    # B 70/25
    _close(scale_gaps([a, b]),
           [("1x", 2, 80, 35, 45), ("2x", 2, 70, 30, 40), ("Mean", 2, 75, 32.5, 42.5)])


def test_fig8_size_scaling_and_the_passing_subset(models):
    points = size_scaling(models, _identities(models))
    assert [(p.family, p.size, p.reverse2, p.reverse3) for p in points] == [
        ("Fam", 2.0, 40, 30), ("Fam", 8.0, 70, 50)]  # gpt-x has no size
    gap, passed = passing_gap(models)
    assert passed == [SMALL, CLOSED]  # conform (80 + 100) / 2, conflict (40 + 90) / 2
    assert (gap.models, gap.conform, gap.conflict, gap.delta) == (2, 90, 65, 25)


def test_report_shows_the_figures(tmp_path, models):
    (tmp_path / "model_sizes.json").write_text(json.dumps({CLOSED: {"family": "GPT",
                                                                     "size": 30}}))
    page = write_report(tmp_path, PriorBiasSummary(models, None)).read_text()
    for title in ("Fig. 4", "Fig. 5", "Fig. 6", "Fig. 7", "Fig. 8", "§4.3.2"):
        assert title in page
    assert "2 of 3 models pass the prerequisite" in page and "Δ = 25.00" in page
    assert "GPT" in page and "over all models (Mean) and per family" in page
    for plot in ("families", "conflict_conditions", "delta_relation", "delta_scale",
                 "size_scaling", "em_prior_free"):
        assert (tmp_path / "plots" / f"{plot}.png").stat().st_size > 1000


def test_a_bad_sizes_file_is_a_clear_error(tmp_path):
    (tmp_path / "model_sizes.json").write_text("{")
    with pytest.raises(DataError, match=r"model_sizes\.json:1:\d+: not JSON"):
        read_sizes(tmp_path)
    (tmp_path / "model_sizes.json").write_text('{"m": 8}')
    with pytest.raises(DataError, match="expected"):
        read_sizes(tmp_path)


def test_no_sized_model_leaves_fig_8_out_and_says_why(tmp_path, models):
    page = write_report(tmp_path, PriorBiasSummary({CLOSED: models[CLOSED]}, None)).read_text()
    assert "No model has a known size" in page
    assert not (tmp_path / "plots" / "size_scaling.png").exists()
