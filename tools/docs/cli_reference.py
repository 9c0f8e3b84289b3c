"""The command-line reference page, written from the click commands themselves: every
command with its usage, help, arguments and options (their help, type and default)."""

from __future__ import annotations

import inspect

import click
from clitree import Command, walk

_INTRO = """# Command-line reference

Generated from diagbench's own click commands when the documentation is built, so it
lists exactly what `diagbench --help` lists. The help texts name the papers by number
(paper 000 … paper 004): see [the papers](../papers.md).
"""


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _default(param: click.Parameter, context: click.Context) -> str:
    if isinstance(param, click.Option) and (param.is_flag or not param.show_default):
        return ""
    value = param.get_default(context, call=False)
    if value is None or value == () or callable(value):
        return ""
    if isinstance(value, (list, tuple)):
        value = ", ".join(str(v) for v in value)
    return f"`{value}`"


def _range(kind: click.IntRange | click.FloatRange) -> str:
    name = "integer" if isinstance(kind, click.IntRange) else "number"
    low, high = kind.min, kind.max
    if low is not None and high is not None:
        return f"{name}, {low} to {high}"
    if low is not None:
        return f"{name} {'>' if kind.min_open else '≥'} {low}"
    if high is not None:
        return f"{name} {'<' if kind.max_open else '≤'} {high}"
    return name


def _type(param: click.Parameter, context: click.Context) -> str:
    if isinstance(param, click.Option) and param.is_flag:
        return "flag"
    if isinstance(param.type, click.Choice):
        return " \\| ".join(f"`{c}`" for c in param.type.choices)
    if isinstance(param.type, (click.IntRange, click.FloatRange)):
        return _range(param.type)
    if isinstance(param, click.Argument):
        return _cell(param.make_metavar(context))
    return _cell(param.metavar or param.type.get_metavar(param, context) or param.type.name.upper())


def _section(node: Command) -> list[str]:
    command, context = node.command, node.context
    level = "#" * min(2 + max(len(node.words) - 1, 0), 4)
    out = [f"{level} `{node.path}`", ""]
    pieces = " ".join(command.collect_usage_pieces(context))
    out += ["```text", f"{node.path} {pieces}".rstrip(), "```", ""]
    if command.help:
        out += [inspect.cleandoc(click.unstyle(command.help)), ""]
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    options = [p for p in command.params if isinstance(p, click.Option) and not p.hidden]
    if arguments:
        out += ["| argument | takes | required |", "|---|---|---|"]
        out += [f"| `{p.human_readable_name}` | {_type(p, context)} | "
                f"{'yes' if p.required else 'no'}{', repeatable' if p.nargs == -1 else ''} |"
                for p in arguments]
        out.append("")
    if options:
        out += ["| option | takes | default | what |", "|---|---|---|---|"]
        for p in options:
            names = ", ".join(f"`{n}`" for n in (*p.opts, *p.secondary_opts))
            what = _cell(p.help or "")
            if p.required:
                what = f"**required.** {what}"
            if p.multiple and "repeat" not in what:
                what = f"{what} (repeatable)"
            out.append(f"| {names} | {_type(p, context)} | {_default(p, context)} | {what} |")
        out.append("")
    return out


def markdown() -> str:
    """The whole reference page."""
    lines = [_INTRO]
    for node in walk():
        if node.words:
            lines += _section(node)
        else:
            lines += _section(node)[2:]  # the root: no heading of its own
    return "\n".join(lines) + "\n"
