"""Command-option helpers the benchmarks share."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def comma_list(allowed: Sequence[str]) -> Callable[[Any, Any, str], list[str]]:
    """A click callback reading a comma-separated list of `allowed` values (in the
    order given; a value outside `allowed`, or none at all, is a usage error)."""
    def convert(ctx: Any, param: Any, value: str) -> list[str]:
        import click

        items = [v.strip() for v in value.split(",") if v.strip()]
        bad = [v for v in items if v not in allowed]
        if bad or not items:
            raise click.BadParameter(f"{', '.join(bad) or 'nothing'}: choose among "
                                     f"{','.join(allowed)}")
        return list(dict.fromkeys(items))
    return convert
