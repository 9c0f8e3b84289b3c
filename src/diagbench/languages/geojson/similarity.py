"""Image-to-code similarity of geographic maps (GeoJSON): what the drawn map shows —
where its area lies and how it is divided into features — and nothing it does not.

The `geomap` engine draws each feature's shapes in their own colour and outline and
writes no names or other properties, so properties are not scored: Chad's exact shape
scores 1 whatever its properties say, and a feature's name pairs nothing.

Both codes are read by the language's reader. Shapes are compared in the Lambert
cylindrical equal-area projection (x = λ, y = sin φ, radians: areas as on the unit
sphere; `scoring.metrics.geography`; an invalid polygon repaired by `make_valid`
first). Then

- IoU = area(G ∩ P) / area(G ∪ P) of the unions of all polygons of each map (two
  unions shapely finds `equals` — topologically the same — have IoU 1, not the
  overlay's rounded 0.9999999999999998);
- FM = `metrics.feature_match`: Σ IoU(Gₖ, Pₖ) / max(|G|, |P|) over one-to-one pairs of
  a gold and a predicted feature, paired greedily by greatest IoU (ties in file
  order); a feature without area (lines and points only) pairs with one drawing the
  same lines and points (IoU 1);

and S = `metrics.map_score` = 𝟙[valid] · (IoU + FM)/2; a prediction that does not read
(an error) scores 0. Feature order, a ring's starting vertex and property order or
content do not change S.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from diagbench.compare.graph import model_as, model_of
from diagbench.diagram.geomap import Feature, GeoMap
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.geojson.shapes import projected
from diagbench.scoring import metrics


@dataclass(frozen=True, slots=True)
class MapComparison:
    """The comparison of a predicted map with the gold one: the areas (on the unit
    sphere), the feature pairs (gold name, predicted name) and each pair's IoU."""

    valid: bool
    intersection: float
    gold_area: float
    pred_area: float
    pairs: tuple[tuple[str, str], ...]
    pair_ious: tuple[float, ...]
    gold_features: int
    pred_features: int
    gold_counts: dict[str, int] = field(default_factory=dict)
    pred_counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    kind = "map"

    @property
    def iou(self) -> float:
        return metrics.shape_iou(self.intersection, self.gold_area, self.pred_area)

    @property
    def feature_match(self) -> float:
        return metrics.feature_match(self.pair_ious, self.gold_features, self.pred_features)

    @property
    def score(self) -> float:
        return metrics.map_score(self.valid, self.iou, self.feature_match)

    @property
    def counts_score(self) -> float:
        return metrics.strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": "map", "valid": self.valid,
                "iou": round(self.iou, 6), "feature_match": round(self.feature_match, 6),
                "pairs": [list(p) for p in self.pairs], "score": round(self.score, 6),
                "counts_score": round(self.counts_score, 6), "warnings": list(self.warnings)}


def compare_maps(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                 valid: bool) -> MapComparison:
    """Compare a predicted GeoJSON map with its gold map (both read by its language's reader)."""
    import shapely  # type: ignore[import-untyped]  # no stubs

    gold_model, _, _ = model_of(gold_read)
    pred_model, warnings = model_as(pred_read, GeoMap, "map")
    gold = list(gold_model.drawn) if isinstance(gold_model, GeoMap) else []
    pred = list(pred_model.drawn) if pred_model is not None else []
    g_shapes, p_shapes = [projected(f) for f in gold], [projected(f) for f in pred]
    g_union, p_union = shapely.unary_union(g_shapes), shapely.unary_union(p_shapes)
    if g_union.equals(p_union):  # the overlay's rounding would make IoU 0.9999999999999998
        intersection = p_area = g_union.area
    else:
        p_area = p_union.area
        intersection = min(g_union.intersection(p_union).area, g_union.area, p_area)
    pairs = _pairs(gold, pred, g_shapes, p_shapes)
    return MapComparison(
        valid and pred_model is not None, intersection, g_union.area, p_area,
        tuple((gold[g].name, pred[p].name) for g, p, _ in pairs),
        tuple(iou for _, _, iou in pairs), len(gold),
        len(pred), gold_model.counts() if isinstance(gold_model, GeoMap) else {},
        pred_model.counts() if pred_model is not None else {}, warnings)


def _pairs(gold: list[Feature], pred: list[Feature], g_shapes: list[Any],
           p_shapes: list[Any]) -> list[tuple[int, int, float]]:
    """One-to-one (gold index, predicted index, IoU) pairs, greatest IoU first (see the
    module's docstring), in gold order; only features whose boxes meet are compared."""
    from shapely import STRtree

    tree = STRtree(p_shapes)
    flat = [p for p, shape in enumerate(p_shapes) if shape.area == 0]
    candidates = ((g, p) for g, shape in enumerate(g_shapes)
                  for p in (flat if shape.area == 0 else tree.query(shape)))
    scored = sorted(((_overlap(gold[g], pred[p], g_shapes[g], p_shapes[p]), g, int(p))
                     for g, p in candidates), key=lambda t: (-t[0], t[1], t[2]))
    pairs: list[tuple[int, int, float]] = []
    used_g: set[int] = set()
    used_p: set[int] = set()
    for iou, g, p in scored:
        if iou > 0 and g not in used_g and p not in used_p:
            pairs.append((g, p, iou))
            used_g.add(g)
            used_p.add(p)
    return sorted(pairs)


def _overlap(gold: Feature, pred: Feature, g_shape: Any, p_shape: Any) -> float:
    """The IoU of two features' polygons; for two without area, 1 when they draw the
    same lines and points, else 0."""
    if g_shape.area == 0 and p_shape.area == 0:
        same = (gold.lines, gold.points) == (pred.lines, pred.points)
        return 1.0 if same and (gold.lines or gold.points) else 0.0
    if g_shape.equals(p_shape):
        return 1.0
    intersection = g_shape.intersection(p_shape).area
    return metrics.shape_iou(min(intersection, g_shape.area, p_shape.area), g_shape.area,
                             p_shape.area)
