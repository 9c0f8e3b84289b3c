"""The edit and the rewrite of a Plotly figure, on its JSON.

`edited`: one data point of a chart changed (a value of a drawn trace: a bar's or a
point's y, x when horizontal, a slice's value, a sample, a heatmap cell; a number, or
a text of one, made half as large again plus one, another text given an "x"), or one
cell of a table (a number plus one, a text with "x" added), `rng`'s choice.
`rewritten`: the same figure written another way — members in another order (the
figure's still opening with "data" or "layout"), whole numbers of the data written as
floats, defaults written out (`visible: true`, a cartesian trace's axes "x" and "y")
and another indentation.
"""

from __future__ import annotations

import json
import random
from typing import Any

from diagbench.languages.plotly.read import number, validated

#: Trace types drawn on the cartesian axes "x" and "y" by default.
_CARTESIAN = ("bar", "scatter", "box", "histogram", "heatmap", "violin")


def _figure(code: str) -> dict[str, Any] | None:
    """The figure of `code` when it reads without error (None otherwise)."""
    figure, diagnostics = validated(code)
    if figure is None or any(d.severity == "error" for d in diagnostics):
        return None
    raw = json.loads(code.removeprefix("\ufeff"))
    return raw if isinstance(raw, dict) else None


def edited(code: str, rng: random.Random) -> str | None:
    """`code` with one data point or cell changed (None when it has none)."""
    raw = _figure(code)
    if raw is None:
        return None
    places = [place for trace in raw.get("data", []) if trace.get("visible", True) is True
              for place in _places(trace)]
    if not places:
        return None
    array, index, cell = rng.choice(places)
    value = array[index]
    as_number = None if cell else number(value)
    if as_number is not None:
        array[index] = as_number * 1.5 + 1
    else:
        array[index] = value + "x" if isinstance(value, str) else value + 1
    return json.dumps(raw, indent=2) + "\n"


def _places(trace: dict[str, Any]) -> list[tuple[list[Any], int, bool]]:
    """(array, index, whether it is a table's cell) of each value of a trace an edit may
    change."""
    kind = trace.get("type", "scatter")
    if kind == "table":
        columns = (trace.get("cells") or {}).get("values") or []
        return [(column, r, True) for column in columns if isinstance(column, list)
                for r, v in enumerate(column) if _changeable(v)]
    if kind == "pie":
        arrays = [trace.get("values")]
    elif "z" in trace:  # rows of cells, or one cell an (x, y); not a typed array
        z = trace["z"] if isinstance(trace["z"], list) else []
        arrays = [row for row in z if isinstance(row, list)] or [z]
    else:
        horizontal = trace.get("orientation") == "h" or (not trace.get("y") and trace.get("x"))
        arrays = [trace.get("x") if horizontal else trace.get("y")]
    return [(array, i, False) for array in arrays if isinstance(array, list)
            for i, v in enumerate(array) if _changeable(v)]


def _changeable(value: object) -> bool:
    """Whether an edit may change `value`: a number or a text but an empty one."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)) or (
        isinstance(value, str) and bool(value.strip()))


def rewritten(code: str, rng: random.Random) -> str | None:
    """`code` written another way that reads to the same figure (None when it does not
    read)."""
    raw = _figure(code)
    if raw is None:
        return None
    for trace in raw.get("data", []):
        trace.setdefault("visible", True)
        if trace.get("type", "scatter") in _CARTESIAN:
            trace.setdefault("xaxis", "x")
            trace.setdefault("yaxis", "y")
        for key in ("x", "y", "values", "z"):
            if isinstance(trace.get(key), list):
                trace[key] = _floats(trace[key])
        cells = trace.get("cells")
        if isinstance(cells, dict) and isinstance(cells.get("values"), list):
            cells["values"] = _floats(cells["values"])
    shuffled = _shuffled(raw, rng)
    first = [k for k in ("data", "layout") if k in shuffled]
    rng.shuffle(first)
    ordered = {k: shuffled[k] for k in first} | shuffled
    return json.dumps(ordered, indent=rng.choice((None, 1, 4))) + "\n"


def _floats(value: Any) -> Any:
    """Whole numbers written as floats, in nested lists."""
    if isinstance(value, list):
        return [_floats(v) for v in value]
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _shuffled(value: Any, rng: random.Random) -> Any:
    """Every object's members in `rng`'s order (lists kept in theirs)."""
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {k: _shuffled(value[k], rng) for k in keys}
    if isinstance(value, list):
        return [_shuffled(v, rng) for v in value]
    return value
