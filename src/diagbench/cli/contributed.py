"""Commands the benchmarks contribute (`Benchmark.commands`, `Benchmark.importers`), read
from the registry only when listed or asked for, so that `diagbench --help` stays fast."""

from __future__ import annotations

from typing import Any

import click


def contributed(attribute: str) -> dict[str, click.Command]:
    """The click commands the registered benchmarks list under `attribute`, by name."""
    from diagbench.benchmarks.registry import registered

    out: dict[str, click.Command] = {}
    for cls in registered().values():
        for command in getattr(cls, attribute):
            if command.name is not None:
                out[command.name] = command
    return out


class ImportGroup(click.Group):
    """`diagbench import`: its own subcommands, then the importers the benchmarks
    contribute (`Benchmark.importers`: `sadu` from archqa)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *contributed("importers")})

    def get_command(self, ctx: click.Context, cmd_name: str) -> Any:
        return super().get_command(ctx, cmd_name) or contributed("importers").get(cmd_name)
