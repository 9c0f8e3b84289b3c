"""Image-to-code similarity of geographic maps (paper 004_34f8485b6a3a0424.txt, Table 1:
geographic maps in GeoJSON; §5.1 scores an image-to-code answer against its gold code;
the measures: shape IoU on a common projection, whole and per feature).

The shapes are compared in the Lambert cylindrical equal-area projection (x = λ,
y = sin φ, in radians), where an area is the area on the unit sphere, so a country
near the pole weighs as much as its true size (not plate carrée's inflated one).
"""

from __future__ import annotations

from collections.abc import Sequence


def shape_iou(intersection: float, gold_area: float, pred_area: float) -> float:
    """Intersection over union of two shapes from their areas:
    IoU = area(G ∩ P) / area(G ∪ P) = I / (|G| + |P| − I), G and P the unions of every
    polygon of each map in one equal-area projection (the Jaccard index of the two
    regions; the shape half of a map's image-to-code score,
    004_34f8485b6a3a0424.txt §5.1).

    Edge cases: both areas 0 (no polygons on either side) → 1.0; one 0 → 0.0;
    a negative area, or an intersection larger than either area (beyond 1e-12), is a
    ValueError.

    >>> shape_iou(0.5, 1.0, 1.0)  # two unit squares offset by half a side
    0.3333333333333333
    """
    if min(intersection, gold_area, pred_area) < 0:
        raise ValueError("a negative area")
    if intersection > min(gold_area, pred_area) + 1e-12:
        raise ValueError(f"an intersection of {intersection} over the areas "
                         f"{gold_area} and {pred_area}")
    union = gold_area + pred_area - intersection
    if union <= 0:
        return 1.0
    return min(1.0, intersection / union)


def feature_match(ious: Sequence[float], gold: int, pred: int) -> float:
    """How well the predicted map splits its area into the gold map's features (each
    feature is drawn in its own colour within its own outline):
    FM = Σₖ IoU(Gₖ, Pₖ) / max(|G|, |P|), the sum over the one-to-one pairs of a gold and
    a predicted feature (`ious`: each pair's shape IoU), |G| and |P| the numbers of
    features; a feature left unpaired adds 0, so extra and missing features count
    against it (the division half of a map's image-to-code score,
    004_34f8485b6a3a0424.txt §5.1).

    Edge cases: no features on either side → 1.0; more pairs than min(|G|, |P|), or an
    IoU outside [0, 1], is a ValueError.

    >>> feature_match([1.0, 0.5], 3, 2)  # (1 + 0.5) / max(3, 2)
    0.5
    """
    if len(ious) > min(gold, pred) or any(not 0.0 <= v <= 1.0 for v in ious):
        raise ValueError(f"pairs {list(ious)} of {gold} and {pred} features")
    if gold == 0 and pred == 0:
        return 1.0
    return sum(ious) / max(gold, pred)


def map_score(valid: bool, iou: float, feature_match_: float) -> float:
    """diagbench's map image-to-code score: S = 𝟙[valid] · (IoU + FM)/2 — the whole
    drawn area (where the map is) and its division into features (the coloured
    shapes) weigh alike; only what the image shows is scored (the `geomap` engine
    writes no names, so properties are not); a map that does not read or draw scores
    0 (004_34f8485b6a3a0424.txt §5.1 gates on validity).

    Edge cases: values outside [0, 1] are a ValueError.

    >>> map_score(True, 1 / 3, 1.0)
    0.6666666666666666
    >>> map_score(False, 1.0, 1.0)
    0.0
    """
    for value in (iou, feature_match_):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"a similarity of {value}")
    return (iou + feature_match_) / 2 if valid else 0.0
