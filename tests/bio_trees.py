"""Random Newick trees for the differential tests of the Newick reader: seeded, with or
without branch lengths, quoted labels (spaces, punctuation), internal labels, support
values and polytomies, written by the test's own writer (not the reader's generator)."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Options:
    lengths: bool = False
    quoted: bool = False
    internal_names: bool = False
    support: bool = False
    polytomies: bool = False


def _label(rng: random.Random, k: int, quoted: bool) -> str:
    if quoted and rng.random() < 0.5:
        return f"'taxon {k}{rng.choice(['', ' (b)', ',x', ':y', ' sp.'])}'"
    return f"T{k}_{rng.choice('abcxyz')}"


def random_tree(rng: random.Random, leaves: int, options: Options) -> str:
    """A random rooted tree with `leaves` leaves, written in Newick."""
    nodes = [_label(rng, k, options.quoted) for k in range(leaves)]
    inner = 0
    while len(nodes) > 1:
        take = min(len(nodes), 3 if options.polytomies and rng.random() < 0.3 else 2)
        picked = [nodes.pop(rng.randrange(len(nodes))) for _ in range(take)]
        if options.lengths:
            picked = [f"{p}:{rng.choice([0.5, 1, 0.001, 2.25, 1e-3, 12])}" for p in picked]
        text = "(" + ",".join(picked) + ")"
        if options.support:
            text += str(rng.choice([50, 75, 99, 100]))
        elif options.internal_names:
            inner += 1
            text += f"N{inner}"
        nodes.append(text)
    return nodes[0] + ";"


VARIANTS = [Options(), Options(lengths=True), Options(quoted=True), Options(internal_names=True),
            Options(lengths=True, support=True), Options(polytomies=True, lengths=True),
            Options(quoted=True, internal_names=True, lengths=True, polytomies=True)]
