"""Image-to-code similarity of geographic maps (GeoJSON): how much of the gold map's
area a predicted map covers, and how many of its features carry the right properties.

Both codes are read by the language's reader. Shapes are compared in the Lambert
cylindrical equal-area projection (x = λ, y = sin φ, radians: areas as on the unit
sphere; `scoring.metrics.geography`): IoU = area(G ∩ P) / area(G ∪ P) of the unions
of all polygons of each map (shapely; an invalid polygon repaired by `make_valid`
first; lines and points have no area; two unions shapely finds `equals` —
topologically the same — have IoU 1, not the overlay's rounded 0.9999999999999998).
Features are paired one to one by name (case and spacing ignored), then the rest by
greatest overlap; a pair matches when the predicted feature has every gold property
with the same value (as JSON text, case and spacing ignored). The score is
`metrics.map_score`: 𝟙[valid] · (IoU + property match)/2; a prediction that does not
read (an error) scores 0.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from diagbench.compare.graph import model_of
from diagbench.diagram.geomap import Feature, GeoMap
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.geojson.shapes import projected
from diagbench.scoring import metrics


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()


@dataclass(frozen=True, slots=True)
class MapComparison:
    """The comparison of a predicted map with the gold one: the areas (on the unit
    sphere), the feature pairs (gold name, predicted name) and how many match."""

    valid: bool
    intersection: float
    gold_area: float
    pred_area: float
    pairs: tuple[tuple[str, str], ...]
    matched: int
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
    def property_match(self) -> float:
        return metrics.property_match(self.matched, self.gold_features, self.pred_features)

    @property
    def score(self) -> float:
        return metrics.map_score(self.valid, self.iou, self.property_match)

    @property
    def counts_score(self) -> float:
        return metrics.strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": "map", "valid": self.valid,
                "iou": round(self.iou, 6), "property_match": round(self.property_match, 6),
                "pairs": [list(p) for p in self.pairs], "score": round(self.score, 6),
                "counts_score": round(self.counts_score, 6), "warnings": list(self.warnings)}


def compare_maps(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                 valid: bool) -> MapComparison:
    """Compare a predicted GeoJSON map with its gold map (both read by its language's reader)."""
    import shapely  # type: ignore[import-untyped]  # no stubs

    gold_model, _, _ = model_of(gold_read)
    pred_model, warnings = _model(pred_read)
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
    matched = sum(_same_properties(gold[g], pred[p]) for g, p in pairs)
    return MapComparison(
        valid and pred_model is not None, intersection, g_union.area, p_area,
        tuple((gold[g].name, pred[p].name) for g, p in pairs), matched, len(gold),
        len(pred), gold_model.counts() if isinstance(gold_model, GeoMap) else {},
        pred_model.counts() if pred_model is not None else {}, warnings)


def _model(parsed: Parsed[Diagram] | None) -> tuple[GeoMap | None, tuple[str, ...]]:
    """The map of `text`, or None (with why) when it does not read without error."""
    model, _, warnings = model_of(parsed)
    if warnings or not isinstance(model, GeoMap):
        return None, warnings or ("no map",)
    return model, ()


def _pairs(gold: list[Feature], pred: list[Feature], g_shapes: list[Any],
           p_shapes: list[Any]) -> list[tuple[int, int]]:
    """One-to-one (gold index, predicted index) pairs: same name first (in order), then
    the largest overlaps among the rest."""
    pairs = []
    free = set(range(len(pred)))
    for g, feature in enumerate(gold):
        p = next((p for p in sorted(free) if _key(pred[p].name) == _key(feature.name)), None)
        if p is not None:
            pairs.append((g, p))
            free.discard(p)
    left = [g for g in range(len(gold)) if g not in {a for a, _ in pairs}]
    overlaps = sorted(((g_shapes[g].intersection(p_shapes[p]).area, g, p)
                       for g in left for p in free), key=lambda t: (-t[0], t[1], t[2]))
    used_g: set[int] = set()
    for area, g, p in overlaps:
        if area > 0 and g not in used_g and p in free:
            pairs.append((g, p))
            used_g.add(g)
            free.discard(p)
    return sorted(pairs)


def _same_properties(gold: Feature, pred: Feature) -> bool:
    return _normalised(gold.properties) <= _normalised(pred.properties)


def _normalised(properties: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
    return {(_key(k), _key(v)) for k, v in properties}
