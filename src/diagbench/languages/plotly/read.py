"""Read Plotly figure JSON with Plotly's own validation into `Chart` or `TableFigure`.

The text is parsed by Python's json (an error gives its line and column), then checked
by the figure class `plotly.io.from_json` builds (`plotly.graph_objects.Figure`, Plotly
7's validators, `skip_invalid=False`):

- the whole figure is validated strictly; when Plotly refuses it, every trace reduced
  to its type and its data (x, y, z, labels, values, r, theta, a table's header and
  cells) is validated strictly: a trace type Plotly does not know, or data it refuses,
  is an error with Plotly's own message (the figure is broken);
- a property Plotly refuses outside the data (a style attribute plotly.js dropped,
  such as `titlefont` or a heatmap's `scl`) is a warning with Plotly's message, and
  the figure is read and drawn without it (`skip_invalid=True`), as plotly.js draws
  it.

A diagnostic's line and column are those of the property Plotly names, where the text
holds it. A figure whose every trace is a `table` is a table (kind "table"); any
other is a chart (kind "chart"). Traces with `visible: false` or "legendonly" are not
drawn and not read as traces (a "legendonly" one keeps its legend entry).
"""

from __future__ import annotations

import base64
import copy
import json
import re
from typing import Any

from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.plotly.model import (
    Axis,
    Chart,
    Point,
    Table,
    TableFigure,
    Trace,
    Value,
)

#: The members of a trace that hold its data (validated strictly, read as points).
DATA_KEYS = ("x", "y", "z", "labels", "values", "r", "theta", "header", "cells",
             "orientation", "mode")
_AXIS = re.compile(r"^[xy]axis\d*$")
_NUMBER = re.compile(r"^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$")
#: What Plotly's validation raises on a figure it refuses (nesting too deep included).
_REFUSED = (ValueError, TypeError, KeyError, RecursionError)
_PROPERTY = re.compile(r"'(\w+)' property|: '(\w+)'")


def read_plotly(text: str) -> list[Parsed[Diagram]]:
    """The one figure of `text` (never raises: what cannot be read is a diagnostic)."""
    figure, diagnostics = validated(text)
    if figure is None:
        return [Parsed(0, 1, "plotly", "unknown", Chart("", ()), tuple(diagnostics))]
    diagram = model(figure)
    kind = "table" if isinstance(diagram, TableFigure) else "chart"
    return [Parsed(0, 1, "plotly", kind, diagram, tuple(diagnostics))]


def validated(text: str) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """The figure of `text` as Plotly validated it (a dict of `data` and `layout`,
    properties Plotly refuses outside the data left out), with the diagnostics; None
    with the errors when the figure is broken."""
    text = text.removeprefix("\ufeff")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, [Diagnostic(exc.lineno, _line(text, exc.lineno),
                                 f"JSON: {exc.msg}", column=exc.colno)]
    except RecursionError:
        return None, [Diagnostic(1, _line(text, 1), "JSON: nested too deeply")]
    shape = _shape_error(raw)
    if shape:
        return None, [Diagnostic(1, _line(text, 1), shape)]
    import plotly.graph_objects as go  # type: ignore[import-untyped]

    try:
        figure = go.Figure(copy.deepcopy(raw), skip_invalid=False)  # Plotly takes from it
        diagnostics = []
    except _REFUSED as exc:
        error = _data_error(go, raw.get("data", []), _plotly_message(exc))
        if error:
            return None, [_diagnostic(text, error, "error")]
        try:
            figure = go.Figure(raw, skip_invalid=True)
        except _REFUSED as again:
            return None, [_diagnostic(text, _plotly_message(again), "error")]
        diagnostics = [_diagnostic(text, _plotly_message(exc) + " (not drawn)", "warning")]
    return {"data": [t.to_plotly_json() for t in figure.data],
            "layout": figure.layout.to_plotly_json()}, diagnostics


def _data_error(go: Any, data: list[dict[str, Any]], whole: str) -> str | None:
    """Plotly's message on the first trace whose type or data it refuses ("trace N: …"),
    or None: all traces validated at once, then one by one to name the first refused
    (`whole`, the whole figure's message, if none is refused alone)."""
    def refused(traces: list[dict[str, Any]]) -> str | None:
        try:  # no template: only the traces are validated here
            go.Figure({"data": [_data_of(t) for t in traces], "layout": {"template": {}}},
                      skip_invalid=False)
        except _REFUSED as exc:
            return _plotly_message(exc)
        return None

    if refused(data) is None:
        return None
    return next((f"trace {k}: {message}" for k, trace in enumerate(data)
                 if (message := refused([trace])) is not None), whole)


def _data_of(trace: dict[str, Any]) -> dict[str, Any]:
    """A trace reduced to its type and data (a table's header and cells to their
    values), copied."""
    reduced = {key: trace[key] for key in ("type", *DATA_KEYS) if key in trace}
    for part in ("header", "cells"):
        if isinstance(reduced.get(part), dict):
            reduced[part] = {"values": reduced[part].get("values")}
    return copy.deepcopy(reduced)


def _shape_error(raw: object) -> str | None:
    """Why `raw` is not a figure's shape (an object with a list of trace objects as
    `data` and an object as `layout`), or None."""
    if not isinstance(raw, dict):
        return "a Plotly figure is a JSON object with \"data\" and \"layout\""
    if not {"data", "layout"} & raw.keys():
        return "a Plotly figure has \"data\" or \"layout\""
    if not isinstance(raw.get("data", []), list) or not all(
            isinstance(t, dict) for t in raw.get("data", [])):
        return "\"data\" is a list of trace objects"
    if not isinstance(raw.get("layout", {}), dict):
        return "\"layout\" is an object"
    return None


def _plotly_message(exc: Exception) -> str:
    """Plotly's validation message, its first paragraph on one line."""
    first = str(exc).strip().split("\n\n")[0]
    return "Plotly: " + " ".join(first.split())


def _diagnostic(text: str, reason: str, severity: str) -> Diagnostic:
    """A diagnostic at the first place `text` holds the property `reason` names."""
    named = _PROPERTY.search(reason)
    at = text.find(f'"{next(g for g in named.groups() if g)}"') if named else -1
    line = text.count("\n", 0, at) + 1 if at >= 0 else 1
    column = at - text.rfind("\n", 0, at) if at >= 0 else 0
    return Diagnostic(line, _line(text, line), reason,
                      "error" if severity == "error" else "warning", column)


def _line(text: str, number: int) -> str:
    lines = text.splitlines()
    return lines[number - 1][:200] if 0 < number <= len(lines) else ""


# --- the model ----------------------------------------------------------------------


def model(figure: dict[str, Any]) -> Chart | TableFigure:
    """The chart or table of a validated figure (`validated`)."""
    layout = figure["layout"]
    title = _text(layout.get("title"))
    traces = [t for t in figure["data"] if t.get("visible", True) is True]
    if figure["data"] and all(t.get("type") == "table" for t in figure["data"]):
        return TableFigure(title, tuple(_table(t) for t in traces))
    axes = tuple(Axis(name, _text(value.get("title")), _range(value.get("range")))
                 for name, value in sorted(layout.items())
                 if _AXIS.match(name) and isinstance(value, dict))
    return Chart(title, tuple(_trace(t) for t in traces), axes, _legend(figure))


def _text(title: object) -> str:
    """The text of a title (an object with `text`, or a string as older figures write)."""
    if isinstance(title, dict):
        title = title.get("text")
    return str(title).strip() if title is not None else ""


def _range(value: object) -> tuple[float, float] | None:
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return float(value[0]), float(value[1])
    return None


def _legend(figure: dict[str, Any]) -> tuple[str, ...]:
    """The legend's entries: every pie's labels and the names of the other traces it
    shows (unnamed ones as plotly.js names them, "trace N"), when a legend is drawn
    (`layout.showlegend`, by default with two traces or more, or a pie)."""
    data = figure["data"]
    shown = figure["layout"].get("showlegend")
    if shown is None:
        shown = len(data) > 1 or any(t.get("type") == "pie" for t in data)
    entries: list[str] = []
    for k, trace in enumerate(data):
        if not shown or trace.get("visible", True) is False or not trace.get("showlegend", True):
            continue
        if trace.get("type") == "pie":
            entries += [str(label) for label in dict.fromkeys(_array(trace.get("labels")))]
        else:
            entries.append(str(trace.get("name", f"trace {k}")))
    return tuple(entries)


def _array(value: object) -> list[Any]:
    """A data array as a list: a list, a Plotly typed array ({"dtype", "bdata"}), or a
    scalar (Plotly repeats it) as one item; [] for none."""
    if value is None:
        return []
    if isinstance(value, dict) and "bdata" in value and "dtype" in value:
        import numpy as np

        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        return array.tolist()
    if isinstance(value, (list, tuple)):
        return list(value)
    if hasattr(value, "tolist"):
        return list(value.tolist())
    return [value]


def _value(value: object) -> float | str | None:
    """A data value: a number (or a text of a number, which plotly.js draws as one) as a
    float, None for none, anything else as its text."""
    if value is None:
        return None
    as_number = number(value)
    if as_number is not None:
        return as_number
    return json.dumps(value) if isinstance(value, (bool, list, dict)) else str(value)


def number(value: object) -> float | None:
    """A number, or a text of one (plotly.js draws it as one), as a float; else None."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str) and _NUMBER.match(value):
        return float(value)
    return None


def _key(value: object, index: int) -> Value:
    key = _value(value)
    return float(index) if key is None else key


def _trace(trace: dict[str, Any]) -> Trace:
    """A data trace and its points (see `model.Point`)."""
    kind = str(trace.get("type", "scatter"))
    x, y = _array(trace.get("x")), _array(trace.get("y"))
    horizontal = trace.get("orientation") == "h" or (
        kind in ("bar", "histogram", "box") and x and not y and "orientation" not in trace)
    if kind == "pie":
        points = _slices(_array(trace.get("labels")), _array(trace.get("values")))
    elif "z" in trace:
        points = [Point(f"{r},{c}", _value(z)) for r, row in enumerate(_array(trace["z"]))
                  for c, z in enumerate(_array(row))]
    elif kind in ("histogram", "box", "violin"):
        samples = x if horizontal else y
        groups = y if horizontal else x
        points = [Point(_key(groups[k] if k < len(groups) else None, k), _value(s))
                  for k, s in enumerate(samples)]
    elif "r" in trace:
        theta, r = _array(trace.get("theta")), _array(trace["r"])
        points = [Point(_key(theta[k] if k < len(theta) else None, k), _value(v))
                  for k, v in enumerate(r)]
    else:
        keys, values = (y, x) if horizontal else (x, y)
        if not values:
            keys, values = [], keys
        n = min(len(keys), len(values)) if keys else len(values)
        points = [Point(_key(keys[k] if keys else None, k), _value(values[k]))
                  for k in range(n)]
    return Trace(kind, str(trace.get("name", "")), tuple(points),
                 str(trace.get("mode", "")), "h" if horizontal else "v")


def _slices(labels: list[Any], values: list[Any]) -> list[Point]:
    """A pie's slices as plotly.js draws them: one a label (its position without
    labels), the values of a label given more than once summed (counted, without
    values), in the order labels first come."""
    slices: dict[Value, float | str | None] = {}
    for k in range(len(labels) or len(values)):
        key = _key(labels[k] if k < len(labels) else None, k)
        value = number(values[k]) if k < len(values) else (1.0 if not values else None)
        before = slices.get(key)
        slices[key] = value if key not in slices else (
            before + value if isinstance(before, float) and value is not None else before)
    return [Point(key, value) for key, value in slices.items()]


def _table(trace: dict[str, Any]) -> Table:
    """A table trace: its header texts and its columns (`cells.values`, column by
    column; a column given as one value is that one cell)."""
    header = [_cell(v) for v in _array((trace.get("header") or {}).get("values"))]
    columns = [tuple(_cell(v) for v in _array(column))
               for column in _array((trace.get("cells") or {}).get("values"))]
    width = max(len(header), len(columns))
    header += [""] * (width - len(header))
    columns += [()] * (width - len(columns))
    return Table(tuple(str(h) for h in header), tuple(columns))


def _cell(value: object) -> Value:
    """A cell typed: a number, else its text ("" for none; a list's items on lines)."""
    if isinstance(value, (list, tuple)):
        return "\n".join(str(_cell(v)) for v in value)
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return json.dumps(value) if isinstance(value, bool) else str(value)
