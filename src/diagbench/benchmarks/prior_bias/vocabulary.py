"""The controlled vocabulary (paper 002 §3.1, constraint ii): chains of class names whose
relation direction every reader knows, and groups (every class of the first list relates to
every class of the second: Library, Bookstore ◇ Book, Novel), shipped as `vocabulary.json`."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from importlib import resources
from itertools import combinations
from typing import Literal, get_args

#: The four relations of the benchmark, in the paper's Table 1 order.
PriorRelation = Literal["aggregation", "composition", "dependency", "inheritance"]
RELATIONS: tuple[PriorRelation, ...] = get_args(PriorRelation)


@dataclass(slots=True)
class Vocabulary:
    """Prior pairs per relation: (source, target) in the relation's UML sense."""

    pairs: dict[str, list[tuple[str, str]]]
    sha256: str
    rejected: Counter = field(default_factory=Counter)
    _known: dict[str, frozenset] = field(default_factory=dict, repr=False)

    def prior(self, relation: str, a: str, b: str) -> bool | None:
        """True when the names say `relation` goes from a to b, False when from b to a,
        None when they say nothing."""
        known = self._known.get(relation, frozenset())
        if (a, b) in known:
            return True
        if (b, a) in known:
            return False
        return None

    def names(self, relation: str) -> set[str]:
        return {name for pair in self.pairs[relation] for name in pair}

    def __post_init__(self) -> None:
        self._known = {r: frozenset(p) for r, p in self.pairs.items()}


def load_vocabulary(text: str | None = None,
                    extra: dict[str, list[list[str]]] | None = None) -> Vocabulary:
    """The shipped vocabulary (or the JSON `text`), widened by the chains of `extra` (e.g.
    from WordNet): every two classes of a chain, in chain order, are a prior pair, and so is
    every (first, second) of a group; a pair listed both ways is ambiguous and dropped
    (counted)."""
    if text is None:
        text = (resources.files("diagbench.benchmarks.prior_bias")
                .joinpath("vocabulary.json").read_text(encoding="utf-8"))
    data = json.loads(text)
    for relation, groups in data.get("groups", {}).items():
        data[relation] = data[relation] + [[a, b] for sources, targets in groups
                                           for a in sources for b in targets if a != b]
    if extra:
        data = {r: data[r] + extra.get(r, []) for r in RELATIONS}
        text = json.dumps(data, sort_keys=True)
    rejected: Counter = Counter()
    pairs: dict[str, list[tuple[str, str]]] = {}
    for relation in RELATIONS:
        found = dict.fromkeys(pair for chain in data[relation]
                              for pair in combinations(chain, 2))
        ambiguous = {p for p in found if (p[1], p[0]) in found}
        rejected["vocabulary: pair listed both ways (ambiguous prior)"] += len(ambiguous)
        pairs[relation] = [p for p in found if p not in ambiguous]
    return Vocabulary(pairs, hashlib.sha256(text.encode("utf-8")).hexdigest(), rejected)
