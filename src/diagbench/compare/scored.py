"""`Scored`: what every language's image-to-code comparison gives, whatever its shape."""

from __future__ import annotations

from typing import Any, Protocol


class Scored(Protocol):
    """What every language's image-to-code comparison gives (`Language.compare`): the
    diagram's kind, whether the prediction renders, its score, STRUDEL's counts-only
    score, warnings and its JSON form. A graph-shaped one (`GraphComparison`, molecules,
    trees) also matches `entities` and `relations` (`compare.graph.element_matches`)."""

    @property
    def kind(self) -> str: ...
    @property
    def valid(self) -> bool: ...
    @property
    def score(self) -> float: ...
    @property
    def counts_score(self) -> float: ...
    @property
    def warnings(self) -> tuple[str, ...]: ...
    def as_dict(self) -> dict[str, Any]: ...
