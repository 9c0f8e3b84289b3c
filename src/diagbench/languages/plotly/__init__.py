"""Plotly figure JSON: charts and tables (STRUDEL's business domain), read with
Plotly's own validation (`plotly.graph_objects.Figure`, as `plotly.io.from_json` builds
it) and drawn by Kaleido, plotly.js in Debian's Chromium (the `plotly` engine). A
figure whose every trace is a `table` is a table; any other a chart. Its styles are
Plotly's own templates (the figure's `layout.template`): plotly_dark, ggplot2,
seaborn and simple_white."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from diagbench.languages.record import Drawn, Language

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine

#: Its styles: templates that come with Plotly.
STYLES = ("plotly_dark", "ggplot2", "seaborn", "simple_white")
#: A figure's text opens with its "data" or "layout" member.
_OPENING = re.compile(r'\{\s*"(?:data|layout)"\s*:')


def recognises(text: str) -> bool:
    """A Plotly figure is a JSON object whose first member is "data" or "layout" (a
    GeoJSON object opens with "type", "features" or "geometry")."""
    return _OPENING.match(text.removeprefix("\ufeff").lstrip()) is not None


class Plotly(Language):
    """Plotly figure JSON as a `Language`: its parts, each importing what it uses when
    first called."""

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def prepare(self, source: str, kind: str, marked: bool, style: str = "") -> str:
        """`style`: the figure with that template in its layout (a source that is not a
        JSON object is left for the engine to refuse)."""
        import json

        from diagbench.languages.styled import known

        if not known(style, STYLES):
            return source
        try:
            figure = json.loads(source.removeprefix("\ufeff"))
        except (ValueError, RecursionError):
            return source
        if not isinstance(figure, dict) or not isinstance(figure.get("layout", {}), dict):
            return source
        figure.setdefault("layout", {})["template"] = style
        return json.dumps(figure, ensure_ascii=False, indent=1)

    def styles(self) -> tuple[str, ...]:
        return STYLES

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.plotly.engine import PlotlyEngine

        return PlotlyEngine(jobs=jobs, timeout=timeout)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.plotly.read import read_plotly

        return read_plotly(text)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.plotly.engine import figure_statistics

        return Drawn(figure_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.plotly.similarity import compare_figures

        return compare_figures(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.languages.plotly.facts import figure_facts

        return figure_facts(diagram)

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.plotly.synth import synth_figure

        return synth_figure(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        """One data point of a chart (its value half as large again, plus one) or one
        cell of a table (a number plus one, a text with "x" added) changed, `rng`'s
        choice."""
        from diagbench.languages.plotly.variants import edited

        return edited(code, rng)

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """The same figure written another way: members in another order, numbers
        written as floats, defaults made explicit."""
        from diagbench.languages.plotly.variants import rewritten

        return rewritten(code, rng)

    def nodes(self, counts: Mapping[str, int]) -> int:
        """A chart's points, a table's cells."""
        return counts.get("points", counts.get("cells", 0))


LANGUAGE = Plotly(
    doc=__doc__ or "",
    name="plotly",
    title="Plotly figure JSON",
    suffixes=(".plotly.json",),
    domain="business",
    categories=("chart", "table"),
    kinds=("chart", "table"),
    engine="plotly",
    browser=True,
    examples=("chart-sales.plotly.json", "table-prices.plotly.json"),
    node_limits=(2, 80),
    libraries=("plotly", "kaleido", "scipy"),
)
