"""The typed model of an RNA secondary structure (STRUDEL's "DNA sequence (RNA
structure)"): a `GraphDiagram` (language "dotbracket", kind "rna") whose entities are
the nucleotides (kind "base", id its 1-based position "1", "2", …, name its letter as
written) and whose relations are the base pairs (type "base_pair", 5' base → 3' base,
drawn without direction). The backbone is not a relation: it is the entities' order,
the same in every structure of one sequence, so the graph comparison's relation F1 over
positions is the base-pair F1 and is not inflated by links every answer gets right.

What the field adds (`RnaStructure`): the sequence, the dot-bracket line, the pairs as
1-based (i, j) with i < j, which of them are written with a pseudoknot bracket (`[]`,
`{}`, `<>`, `Aa` …: every bracket but `()`), and the free energy when the file gives
one. The loops are those of the nested structure, the `()` pairs (the pseudoknot
pairs' bases count as unpaired there), each pair closing one loop by what it encloses
directly: no pair — a hairpin; one pair (k, l) — a stack when k = i+1 and l = j−1, a
bulge when one side has no unpaired base, else an internal loop; two or more — a
multiloop. A stem is a maximal run of stacked pairs (i, j), (i+1, j−1), … of any bracket
(a lonely pair is a stem of one).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from diagbench.diagram.facts import Fact
from diagbench.diagram.graph import GraphDiagram

Pair = tuple[int, int]


@dataclass(frozen=True)
class RnaStructure(GraphDiagram):
    """One structure of a dot-bracket file (its `name`: the `>` header, if any)."""

    sequence: str = ""
    structure: str = ""
    pairs: tuple[Pair, ...] = ()
    pseudoknots: tuple[Pair, ...] = ()
    energy: float | None = None

    @cached_property
    def partner(self) -> dict[int, int]:
        """Each paired position's partner (both directions)."""
        return {a: b for i, j in self.pairs for a, b in ((i, j), (j, i))}

    @cached_property
    def stems(self) -> tuple[tuple[Pair, ...], ...]:
        """The stems, outermost pair first, in order of their first pair."""
        paired = set(self.pairs)
        out = []
        for i, j in sorted(self.pairs):
            if (i - 1, j + 1) in paired:
                continue  # not the first pair of its stem
            run = [(i, j)]
            while (run[-1][0] + 1, run[-1][1] - 1) in paired:
                run.append((run[-1][0] + 1, run[-1][1] - 1))
            out.append(tuple(run))
        return tuple(out)

    @cached_property
    def loops(self) -> Counter[str]:
        """How many loops of each kind the nested (`()`) pairs close: "hairpin",
        "bulge", "internal", "multiloop" (stacks are no loops)."""
        nested = sorted(set(self.pairs) - set(self.pseudoknots))
        out: Counter[str] = Counter()
        stack: list[Pair] = []
        inside: dict[Pair, list[Pair]] = {p: [] for p in nested}
        for pair in nested:  # sorted by 5' end: a parent comes before its children
            while stack and stack[-1][1] < pair[0]:
                stack.pop()
            if stack:
                inside[stack[-1]].append(pair)
            stack.append(pair)
        for (i, j), children in inside.items():
            if len(children) >= 2:
                out["multiloop"] += 1
            elif not children:
                out["hairpin"] += 1
            else:
                [(k, m)] = children
                left, right = k - i - 1, j - m - 1
                if left or right:
                    out["bulge" if not left or not right else "internal"] += 1
        return out

    def counts(self) -> dict[str, int]:
        """The graph's counts (entities = bases, relations = pairs) and the structure's:
        `bases` (the size), `pairs` (pseudoknot pairs included), `pseudoknot_pairs`,
        `unpaired`, `stems`, `hairpins`, `internal_loops`, `bulges`, `multiloops`."""
        loops = self.loops
        return GraphDiagram.counts(self) | {
            "bases": len(self.sequence),
            "pairs": len(self.pairs),
            "pseudoknot_pairs": len(self.pseudoknots),
            "unpaired": len(self.sequence) - 2 * len(self.pairs),
            "stems": len(self.stems),
            "hairpins": loops["hairpin"],
            "internal_loops": loops["internal"],
            "bulges": loops["bulge"],
            "multiloops": loops["multiloop"],
        }


def rna_facts(model: GraphDiagram) -> list[Fact]:
    """The facts of a structure (none when `model` has no bases): how many bases, base
    pairs, hairpins, stems and unpaired bases (quantification); the first base and
    which base pairs with the middle paired one (identification); whether the middle
    base is paired and how long the longest stem is (structural). Positions are
    numbered from 1 at the 5' end, as the drawing numbers them."""
    if not isinstance(model, RnaStructure) or not model.sequence:
        return []
    counts = model.counts()
    facts = [
        Fact("quantification", "bases", "How many bases (nucleotides) does the structure "
             "have?", counts["bases"]),
        Fact("quantification", "pairs", "How many base pairs does the structure have?",
             counts["pairs"]),
        Fact("quantification", "hairpins", "How many hairpin loops does the structure "
             "have?", counts["hairpins"]),
        Fact("quantification", "stems", "How many stems (helices of stacked base pairs) "
             "does the structure have?", counts["stems"]),
        Fact("quantification", "unpaired", "How many bases are unpaired?",
             counts["unpaired"]),
        Fact("identification", "first-base", "Which base (letter) is at position 1, the "
             "5' end?", model.sequence[0].upper()),
    ]
    if model.pairs:
        i, j = sorted(model.pairs)[len(model.pairs) // 2]
        facts.append(Fact("identification", "partner", f"Which position does base {i} "
                          "pair with?", j))
        facts.append(Fact("structural", "longest-stem", "How many base pairs has the "
                          "longest stem?", max(len(s) for s in model.stems)))
    middle = (len(model.sequence) + 1) // 2
    facts.append(Fact("structural", "paired", f"Is base {middle} paired?",
                      middle in model.partner))
    return facts
