"""Other writings of a GeoJSON map: the rewrite draws the same map and scores 1, the
edit moves the first feature."""

from __future__ import annotations

import json
import random

import pytest

from diagbench.languages import named

GEOJSON = named("geojson")
TRIANGLE = [[0, 0], [4, 0], [0, 3], [0, 0]]
SQUARE = [[10, 0], [12, 0], [12, 2], [10, 2], [10, 0]]
MAP = json.dumps({"type": "FeatureCollection", "features": [
    {"type": "Feature", "properties": {"name": "A", "k": 1},
     "geometry": {"type": "Polygon", "coordinates": [TRIANGLE]}},
    {"type": "Feature", "properties": {"name": "B"},
     "geometry": {"type": "MultiPolygon", "coordinates": [[SQUARE]]}}]})


def _cyclic(ring: list) -> list[list]:
    """The rotations of a closed ring, each closed."""
    body = ring[:-1]
    return [body[k:] + body[:k] + [body[k]] for k in range(len(body))]


def test_the_rewrite_writes_the_same_features_another_way():
    orders, starts, square_starts = set(), set(), set()
    for seed in range(12):
        text = GEOJSON.rewrite(MAP, random.Random(seed))
        assert text is not None and text != MAP
        features = json.loads(text)["features"]
        by_name = {f["properties"]["name"]: f for f in features}
        orders.add(tuple(f["properties"]["name"] for f in features))
        # the members reversed: properties k then name, geometry before properties
        assert list(by_name["A"]["properties"]) == ["k", "name"]
        assert list(by_name["A"]) == ["geometry", "properties", "type"]
        [triangle] = by_name["A"]["geometry"]["coordinates"]
        [[square]] = by_name["B"]["geometry"]["coordinates"]
        assert triangle in _cyclic(TRIANGLE) and square in _cyclic(SQUARE)
        starts.add(tuple(triangle[0]))
        square_starts.add(tuple(square[0]))
        assert GEOJSON.compare_code(MAP, text, True).score == 1.0
    # both orders of the two features, the triangle started at each of its 3 vertices,
    # the multipolygon's square at more than one
    assert orders == {("A", "B"), ("B", "A")}
    assert starts == {(0, 0), (4, 0), (0, 3)} and len(square_starts) > 1


def test_the_rotated_triangle_by_hand():
    # started at its second vertex: (4,0) (0,3) (0,0), closed by (4,0)
    assert [[4, 0], [0, 3], [0, 0], [4, 0]] in _cyclic(TRIANGLE)
    assert len(_cyclic(TRIANGLE)) == 3


@pytest.mark.parametrize("text", ["{", "[1, 2]"])
def test_no_rewrite_of_what_is_no_json_object(text):
    assert GEOJSON.rewrite(text, random.Random(0)) is None


def test_the_edit_moves_the_first_feature_half_a_degree_east():
    edited = json.loads(GEOJSON.edit(MAP, random.Random(0)) or "")
    assert edited["features"][0]["geometry"]["coordinates"] == [
        [[0.5, 0], [4.5, 0], [0.5, 3], [0.5, 0]]]
    assert edited["features"][1]["geometry"]["coordinates"] == [[SQUARE]]


def test_the_score_falls_as_a_country_moves_further():
    # a 2° square moved s degrees east: both squares span the same latitudes, so in the
    # equal-area projection IoU = (2 − s) / (2 + s): 0.6, 1/3, 1/7, 0; one feature, so
    # its pair's IoU is the same and S = IoU
    from diagbench.languages.geojson.variants import moved_east

    gold = json.dumps({"type": "Feature", "properties": {"name": "Chad"},
                       "geometry": {"type": "Polygon", "coordinates": [
                           [[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]]]}})
    scores = [GEOJSON.compare_code(gold, moved_east(gold, s) or "", True).score
              for s in (0.5, 1.0, 1.5, 2.0)]
    assert scores == pytest.approx([0.6, 1 / 3, 1 / 7, 0.0])
