"""`diagbench import` is one group, defined in the CLI; benchmarks contribute subcommands."""

from __future__ import annotations

import click
from click.testing import CliRunner

from diagbench.benchmarks.registry import registered
from diagbench.cli import cli
from diagbench.cli.export import import_group


def test_import_lists_its_own_and_the_contributed_importers():
    done = CliRunner().invoke(cli, ["import", "--help"])
    assert done.exit_code == 0, done.output
    listed = done.output.split("Commands:")[1].split()
    assert "hf" in listed and "sadu" in listed


def test_the_cli_group_is_the_one_import_group():
    context = click.Context(cli)
    assert cli.get_command(context, "import") is import_group
    assert import_group.get_command(click.Context(import_group), "sadu") is not None


def test_benchmarks_contribute_commands_not_groups_named_import():
    for cls in registered().values():
        for command in (*cls.commands, *cls.importers):
            assert command.name != "import" and not isinstance(command, click.Group)
