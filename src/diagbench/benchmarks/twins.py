"""Twins, the record every benchmark shares: a sample built beside an original from
the same source, changed in one known way, so that a model's answer on the original
can be paired with its answer on the twin (`benchmarks.robustness`).

- **counterfactual**: the source changed by one edit that changes at least one answer
  (the answers recomputed exactly);
- **style**: the same source drawn another way (answers unchanged);
- **capture**: the same image as if scanned or photographed (answers unchanged).

A twin's id is its original's with `~FAMILY` appended (`twin_id`); its random choices
are drawn from a generator seeded by family, original and build seed (`twin_rng`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, get_args

from diagbench.records import Record

#: How a twin differs from its original: one edit of its source that changes an answer
#: (counterfactual), the same source drawn another way (style), the same image as if
#: scanned or photographed (capture).
TwinFamily = Literal["counterfactual", "style", "capture"]
#: The families, in the order builds make them and reports show them.
FAMILIES: tuple[TwinFamily, ...] = get_args(TwinFamily)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Twin(Record):
    """What makes a sample the twin of another: its `family` and the `change` applied
    (the edit, the style or the capture, in words)."""

    family: TwinFamily
    change: str


def twin_id(original: str, family: str) -> str:
    """The id of `original`'s twin of `family`."""
    return f"{original}~{family}"


def twin_rng(family: str, original: str, seed: int) -> random.Random:
    """The generator of `original`'s twin of `family`'s choices in a build of `seed`."""
    return random.Random(f"{family}:{original}:{seed}")


def first_with_twins(items: Sequence[T], limit: int, ident: Callable[[T], str],
                     paired: Callable[[T], str | None]) -> list[T]:
    """The first `limit` originals of `items` and every twin paired with one of them, in
    `items`' order (`--limit N` asks N originals and their twins); `paired(item)`: None
    for an original, else the id of the original item the twin is paired with ("" for
    a twin paired with none)."""
    firsts = set([ident(item) for item in items if paired(item) is None][:limit])
    return [item for item in items
            if (ident(item) if paired(item) is None else paired(item)) in firsts]


def _families(ctx: Any, param: Any, value: str | None) -> list[str]:
    """The twin families of --twins (none when not given)."""
    from diagbench.benchmarks.options import comma_list

    return [] if value is None else comma_list(FAMILIES)(ctx, param, value)


def twins_option(counterfactual: str, style: str) -> Any:
    """A build's --twins option, its families in the benchmark's words: what a
    `counterfactual` changes and how a `style` twin is drawn (a capture twin is the same
    in every benchmark)."""
    import click

    return click.option(
        "--twins", "twins", callback=_families, metavar="FAMILIES",
        help=f"Also make twins of every kept sample, comma-separated: counterfactual "
             f"({counterfactual}), style ({style}), capture (its image as if scanned). "
             "Default: none.")


#: Names no diagram of any domain is likely to hold (a renaming's new names).
IMPLAUSIBLE = ("Zorblat", "Quexil", "Vantrope", "Glimmerak", "Oxbrindle", "Pluvenar",
               "Trazzik", "Wombrel")


def renamings(code: str, names: Iterable[object], rng: random.Random
              ) -> list[tuple[str, str]]:
    """`code` with a name of `names` (an answer's: a capitalised word or a phrase of
    three characters or more, never a lower-case word, which may be a keyword, nor a
    number) replaced, as a whole word wherever written, by an implausible one (`rng`'s
    choice of `IMPLAUSIBLE`), with the renaming in words: one per such name `code`
    writes, in the order of `names`."""
    import re

    out = []
    for name in dict.fromkeys(n for n in names if isinstance(n, str) and len(n) >= 3
                              and not n.islower() and not n.replace(".", "").isdigit()):
        pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
        if not pattern.search(code):
            continue
        new = rng.choice([n for n in IMPLAUSIBLE if n not in code] or IMPLAUSIBLE)
        out.append((pattern.sub(new, code), f"renamed {name} to {new}"))
    return out
