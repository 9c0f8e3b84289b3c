"""`diagbench languages`: list the table of formal languages."""

from __future__ import annotations

import json

import click

UNAVAILABLE = "unavailable"


@click.command("languages")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one object per "
                                                      "language.")
def languages(as_json: bool) -> None:
    """List the formal languages diagbench reads, draws and scores: name, file
    suffixes (in brackets: another language's, taken when the text is this one's),
    domain, categories, engine and the engine's version ("unavailable" when its
    program is not installed)."""
    from diagbench.languages import LANGUAGES

    versions = {name: _version(name) for name in dict.fromkeys(x.engine for x in LANGUAGES)}
    rows = [{"language": x.name, "title": x.title, "suffixes": list(x.suffixes),
             "claims": list(x.claims), "domain": x.domain, "categories": list(x.categories),
             "kinds": list(x.kinds),
             "engine": x.engine, "engine_version": versions[x.engine]} for x in LANGUAGES]
    if as_json:
        click.echo(json.dumps(rows, indent=1, ensure_ascii=False))
        return
    header = ("language", "suffixes", "domain", "categories", "engine", "engine version")
    cells = [header] + [(x.name, " ".join(x.suffixes + tuple(f"({c})" for c in x.claims)),
                         x.domain, ",".join(x.categories),
                         x.engine, versions[x.engine]) for x in LANGUAGES]
    widths = [max(len(row[k]) for row in cells) for k in range(len(header))]
    for row in cells:
        click.echo("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())


def _version(engine: str) -> str:
    """The engine's version, or UNAVAILABLE when its program is missing."""
    from diagbench.languages import make_engine

    try:
        return make_engine(engine, 1, 60.0).version()
    except (RuntimeError, OSError):  # EngineMissing, PlantUMLError: the tool is absent
        return UNAVAILABLE
