"""The facts STRUDEL's task types ask about a Plotly figure, each with one exact answer
read off the reader's model.

A chart: how many traces it draws and how many data points (quantification); which
category has the highest bar, when one bar is higher than every other
(identification); which trace has the most points, when one has (structural). A table:
how many rows and columns it has (quantification), the value in row 3 of a column
whose header is unique — "Price" when there is one (identification, as drawn: a
whole number without ".0"), and which column holds the largest number, when one
does (structural). A figure of several tables asks of its first.
"""

from __future__ import annotations

from diagbench.diagram.facts import Fact
from diagbench.formats.parsed import Diagram
from diagbench.languages.plotly.model import Chart, Table, TableFigure, number_text


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
    bars = [(p.value, p.key) for t in chart.traces if t.type == "bar" for p in t.points
            if isinstance(p.value, float)]
    if bars:
        top = max(value for value, _ in bars)
        keys = {number_text(key) for value, key in bars if value == top}
        if len(keys) == 1 and sum(1 for value, _ in bars if value == top) == 1:
            facts.append(Fact("identification", "highest", "Which category has the highest "
                              "bar?", keys.pop()))
    sizes = [(len(t.points), t.name) for t in chart.traces]
    if len(sizes) > 1:
        most = max(n for n, _ in sizes)
        named = [name for n, name in sizes if n == most]
        if len(named) == 1 and named[0]:
            facts.append(Fact("structural", "largest_trace", "Which trace has the most data "
                              "points?", named[0]))
    return facts


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
    largest = [(value, c) for c in unique for value in table.columns[c]
               if isinstance(value, float)]
    if largest:
        top = max(value for value, _ in largest)
        holding = {c for value, c in largest if value == top}
        if len(holding) == 1:
            facts.append(Fact("structural", "largest_column", f"Which column of {which} holds "
                              "its largest number?", table.header[holding.pop()]))
    return facts
