"""The node limits of the structure build's filter (paper 004 §3.3: "diagrams exceeding
predefined node limits, e.g. more than 15 classes, are removed"), per category.

The defaults are STRUDEL's own published limits (the `stats_limits` of its category
table) where diagbench's model gives the count they bound: a class diagram 1 to 15
classes, a sequence diagram 1 to 20 messages, an ER diagram at most 13 tables and at
least 1 reference, a chess board 1 to 32 pieces. STRUDEL's other limits bound a count
diagbench's models do not give as such (a tree's leaves, the "sum" or "all" of a
category's statistics), so those categories — and any category added later — keep their
language's `node_limits` on its size measure (`Language.nodes`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from diagbench.records import Record


@dataclass(frozen=True, slots=True)
class Limit(Record):
    """Bounds on one count of a diagram (inclusive; None: unbounded): `count` is the key
    of the model's counts, or "size" for its language's size measure (`Language.nodes`);
    `source` says whose limit it is ("STRUDEL" or "language")."""

    count: str
    low: int | None
    high: int | None
    source: str = "STRUDEL"

    def admits(self, n: int) -> bool:
        return (self.low is None or n >= self.low) and (self.high is None or n <= self.high)


#: STRUDEL's published limits by category (its category table's `stats_limits`).
STRUDEL_LIMITS: dict[str, tuple[Limit, ...]] = {
    "class": (Limit("entities", 1, 15),),
    "sequence": (Limit("messages", 1, 20),),
    "er": (Limit("entities", None, 13), Limit("relations", 1, None)),
    "chess-board": (Limit("pieces", 1, 32),),
}


def limits_of(category: str, language: str) -> tuple[Limit, ...]:
    """The limits a diagram of `category` written in `language` is filtered by."""
    from diagbench.languages import named

    if category in STRUDEL_LIMITS:
        return STRUDEL_LIMITS[category]
    low, high = named(language).node_limits
    return (Limit("size", low, high, "language"),)


def outside(limits: tuple[Limit, ...], counts: Mapping[str, int], language: str
            ) -> str | None:
    """Why `counts` are outside `limits` ("messages 21 > 20"), or None when inside; a
    count the model does not give is 0."""
    from diagbench.languages import named

    for limit in limits:
        n = named(language).nodes(counts) if limit.count == "size" \
            else counts.get(limit.count, 0)
        if not limit.admits(n):
            bound = f"< {limit.low}" if limit.low is not None and n < limit.low \
                else f"> {limit.high}"
            return f"{limit.count} {n} {bound}"
    return None
