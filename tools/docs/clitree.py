"""The `diagbench` command tree as click gives it: every command (benchmarks'
contributed ones included) with its parameters, for the generated CLI reference and
for the documentation tests that check every command and option the pages name."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import click


@dataclass(frozen=True)
class Command:
    """One command of the tree: its words after `diagbench` ("eval prior-bias") and
    the click command with the context it runs in."""

    words: tuple[str, ...]
    command: click.Command
    context: click.Context

    @property
    def path(self) -> str:
        return " ".join(("diagbench", *self.words))

    def option_names(self) -> set[str]:
        """Every spelling of every option ("--out", "-q", "--no-cache")."""
        return {name for param in self.command.params if isinstance(param, click.Option)
                for name in (*param.opts, *param.secondary_opts)}


def root() -> Command:
    from diagbench.cli import cli

    return Command((), cli, click.Context(cli, info_name="diagbench"))


def walk(node: Command | None = None) -> Iterator[Command]:
    """`node` (default: `diagbench` itself) and every command under it, depth first,
    in the order `--help` lists them."""
    node = node or root()
    yield node
    if isinstance(node.command, click.Group):
        for name in node.command.list_commands(node.context):
            sub = node.command.get_command(node.context, name)
            if sub is not None:
                context = click.Context(sub, info_name=name, parent=node.context)
                yield from walk(Command((*node.words, name), sub, context))


def resolve(words: list[str]) -> tuple[list[Command], list[str]]:
    """The commands a command line's words name, outermost first (`diagbench` itself,
    then each subcommand), and the words left after the last one."""
    chain = [root()]
    rest = list(words)
    while isinstance(chain[-1].command, click.Group):
        names = [w for w in rest if not w.startswith("-")]
        if not names:
            break
        group = chain[-1]
        sub = group.command.get_command(group.context, names[0])  # type: ignore[union-attr]
        if sub is None:
            break
        del rest[rest.index(names[0])]
        chain.append(Command((*group.words, names[0]), sub,
                             click.Context(sub, info_name=names[0], parent=group.context)))
    return chain, rest
