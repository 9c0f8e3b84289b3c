"""Error counts per diagram component, and the result of comparing one pair of scripts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from diagbench.scoring.metrics import error_rate, mean_label_similarity, ordering_score, rate

#: The components of the paper's Table 2, in its column order.
COMPONENTS = ("participant", "node", "edge_direction", "edge_type", "message", "note", "group",
              "box")
ERROR_KINDS = ("insertion", "deletion", "substitution")
#: An error counted for an element: (component, kind of error, how many).
Error = tuple[str, str, int]


def describe_errors(errors: Sequence[Error]) -> str:
    """Errors as listed among the differences: "message substitution, node deletion ×2"."""
    return ", ".join(f"{name} {kind}" + (f" ×{n}" if n > 1 else "") for name, kind, n in errors)


@dataclass(frozen=True, slots=True)
class PairedLines:
    """A removed line paired with an added one (Fig. 5): both as written, their
    Levenshtein distance, and the errors counted for the pair."""

    removed: str
    added: str
    distance: int
    errors: tuple[Error, ...]

    def as_dict(self) -> dict:
        return {"removed": self.removed, "added": self.added, "distance": self.distance,
                "errors": [{"component": c, "kind": k, "count": n} for c, k, n in self.errors]}

    @classmethod
    def from_json(cls, data: dict) -> PairedLines:
        return cls(data["removed"], data["added"], data["distance"],
                   tuple((e["component"], e["kind"], e["count"]) for e in data["errors"]))


@dataclass(slots=True)
class LineDiff:
    """What the diff method saw in one pair of scripts: git's patch, the paired lines and
    the unpaired ones (as written)."""

    patch: str = ""
    pairs: list[PairedLines] = field(default_factory=list)
    unpaired_removed: list[str] = field(default_factory=list)
    unpaired_added: list[str] = field(default_factory=list)


@dataclass(slots=True)
class ComponentCounts:
    """How many elements the ground truth has, and how many were inserted, deleted, changed."""

    gold: int = 0
    insertion: int = 0
    deletion: int = 0
    substitution: int = 0

    def add(self, other: ComponentCounts) -> None:
        self.gold += other.gold
        self.insertion += other.insertion
        self.deletion += other.deletion
        self.substitution += other.substitution

    @property
    def errors(self) -> int:
        return self.insertion + self.deletion + self.substitution

    def rate(self, kind: str) -> float | None:
        """The Table 2 rate of `kind` (`scoring.metrics.rate`)."""
        return rate(getattr(self, kind), self.gold)

    @property
    def error_rate(self) -> float | None:
        """All errors ÷ gold count (`scoring.metrics.error_rate`)."""
        return error_rate(self.insertion, self.deletion, self.substitution, self.gold)

    def as_dict(self, with_rates: bool = False) -> dict[str, float | None]:
        out: dict[str, float | None] = {
            "gold": self.gold, "insertion": self.insertion, "deletion": self.deletion,
            "substitution": self.substitution}
        if with_rates:
            out |= {f"{kind}_rate": self.rate(kind) for kind in ERROR_KINDS}
        return out


def empty_components() -> dict[str, ComponentCounts]:
    return {name: ComponentCounts() for name in COMPONENTS}


@dataclass(slots=True)
class Ordering:
    """Order agreement of matched messages (`scoring.metrics.ordering_score`)."""

    pairs: int = 0
    discordant_pairs: int = 0

    @property
    def score(self) -> float:
        return ordering_score(self.discordant_pairs, self.pairs)

    def add(self, other: Ordering) -> None:
        self.pairs += other.pairs
        self.discordant_pairs += other.discordant_pairs

    def as_dict(self) -> dict:
        return {"score": self.score, "discordant_pairs": self.discordant_pairs,
                "pairs": self.pairs}


@dataclass(slots=True)
class Comparison:
    """What comparing one predicted script with its ground truth found."""

    components: dict[str, ComponentCounts] = field(default_factory=empty_components)
    ordering: Ordering = field(default_factory=Ordering)
    similarity_sum: float = 0.0
    similarity_count: int = 0
    normalizations: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)  # one line per element in error
    line_diff: LineDiff | None = None  # what the diff method saw (None: semantic)

    def add(self, other: Comparison, texts: bool = True) -> None:
        """Add `other`'s counts, and its lists of texts unless `texts` is False (a pooled
        total over many files needs only the counts: its memory then stays flat)."""
        for name, counts in other.components.items():
            self.components[name].add(counts)
        self.ordering.add(other.ordering)
        self.similarity_sum += other.similarity_sum
        self.similarity_count += other.similarity_count
        if texts:
            self.normalizations += other.normalizations
            self.warnings += other.warnings
            self.differences += other.differences

    @property
    def gold_elements(self) -> int:
        return sum(c.gold for c in self.components.values())

    @property
    def errors(self) -> int:
        return sum(c.errors for c in self.components.values())

    def list_errors(self, element: str, errors: list[Error]) -> None:
        """List `element` among the differences with its errors, (component, kind, how
        many) in the order of `COMPONENTS` and of `ERROR_KINDS`."""
        self.differences.append(f"{element}: {describe_errors(errors)}")

    def add_similarity(self, similarity: float, count: int = 1) -> None:
        """Record the label similarity of `count` matched messages."""
        self.similarity_sum += similarity * count
        self.similarity_count += count

    @property
    def label_similarity(self) -> float | None:
        """Mean label similarity of the matched labelled messages (None without any)."""
        return mean_label_similarity(self.similarity_sum, self.similarity_count)
