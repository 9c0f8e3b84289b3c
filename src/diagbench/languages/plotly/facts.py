"""The facts STRUDEL's task types ask about a Plotly figure, each with one exact answer
read off the reader's model.

A chart: how many traces it draws and how many data points (quantification); which
category has the highest bar, when one bar is higher than every other, and which
label a pie's largest slice has, when one is larger than every other
(identification); which trace has the most points, when one has (structural). A table:
how many rows and columns it has (quantification), the value in row 3 of a column
whose header is unique — "Price" when there is one (identification, as drawn: a
whole number without ".0"), and which row (named by its first column) has the
largest value of a column of numbers — "Price" when there is one — when one has
(structural). A figure of several tables asks of its first.
"""

from __future__ import annotations

from diagbench.diagram.facts import Fact
from diagbench.formats.parsed import Diagram
from diagbench.languages.plotly.model import Chart, Table, TableFigure, Value, number_text


def figure_facts(diagram: Diagram) -> list[Fact]:
    """The facts of a chart or a table (none for another model)."""
    if isinstance(diagram, Chart):
        return chart_facts(diagram)
    if isinstance(diagram, TableFigure) and diagram.tables:
        return table_facts(diagram.tables[0], len(diagram.tables))
    return []


def chart_facts(chart: Chart) -> list[Fact]:
    counts = chart.counts()
    facts = [Fact("quantification", "traces", "How many traces (data series) does the "
                  "chart draw?", counts["traces"]),
             Fact("quantification", "points", "How many data points does the chart draw "
                  "in all?", counts["points"])]
    for kind, subject, question in (
            ("bar", "highest", "Which category has the highest bar?"),
            ("pie", "largest_slice", "Which label has the largest slice of the pie?")):
        top = _unique_top([(p.value, p.key) for t in chart.traces if t.type == kind
                           for p in t.points if isinstance(p.value, float)])
        if top is not None and (kind == "bar" or sum(t.type == "pie" for t in chart.traces) == 1):
            facts.append(Fact("identification", subject, question, number_text(top)))
    sizes = [(len(t.points), t.name) for t in chart.traces]
    if len(sizes) > 1:
        most = max(n for n, _ in sizes)
        named = [name for n, name in sizes if n == most]
        if len(named) == 1 and named[0]:
            facts.append(Fact("structural", "largest_trace", "Which trace has the most data "
                              "points?", named[0]))
    return facts


def _unique_top(items: list[tuple[float, Value]]) -> Value | None:
    """The key of the one greatest value, None when there is none or a tie."""
    if not items:
        return None
    top = max(value for value, _ in items)
    keys = [key for value, key in items if value == top]
    return keys[0] if len(keys) == 1 else None


def table_facts(table: Table, tables: int) -> list[Fact]:
    which = "the first table" if tables > 1 else "the table"
    facts = [Fact("quantification", "rows" if tables == 1 else "rows:first",
                  f"How many rows does {which} have (the header not counted)?", table.rows),
             Fact("quantification", "columns" if tables == 1 else "columns:first",
                  f"How many columns does {which} have?", len(table.columns))]
    unique = [c for c, h in enumerate(table.header) if h and table.header.count(h) == 1]
    column = next((c for c in unique if table.header[c] == "Price"), unique[0] if unique else None)
    if column is not None and table.rows >= 3 and number_text(table.cell(2, column)).strip():
        facts.append(Fact("identification", "cell", f'What is the value in row 3 of column '
                          f'"{table.header[column]}" of {which}?',
                          number_text(table.cell(2, column))))
    numeric = [c for c in unique if c > 0 and any(isinstance(v, float)
                                                  for v in table.columns[c])]
    measure = next((c for c in numeric if table.header[c] == "Price"),
                   numeric[0] if numeric else None)
    if measure is not None and 0 in unique:
        top = _unique_top([(value, number_text(table.cell(r, 0)))
                           for r, value in enumerate(table.columns[measure])
                           if isinstance(value, float)])
        if top is not None and str(top).strip():
            facts.append(Fact("structural", "largest_row", f'Which "{table.header[0]}" has '
                              f'the largest "{table.header[measure]}" in {which}?', top))
    return facts
