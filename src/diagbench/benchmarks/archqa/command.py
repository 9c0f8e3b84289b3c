"""`diagbench import sadu SRC --out DATA`, the archqa benchmark's importer (contributed
to the `import` group through `ArchQABenchmark.importers`), and the options archqa's
`eval` and `score` share."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from diagbench.console import EXIT_BAD_INPUT, EXIT_OK

DATA_OPTION = click.option(
    "--data", required=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="A data set written by diagbench import sadu.")
SCORER_OPTION = click.option(
    "--scorer", type=click.Choice(["strict", "sadu"]), default="strict", show_default=True,
    help="strict: the strict format compared fairly, answers outside the markers scored and "
         "counted as format violations; sadu: SADU's public rule-based scorer reproduced.")
GOLD_OPTION = click.option(
    "--gold", type=click.Choice(["published", "recomputed"]), default="published",
    show_default=True, help="The gold answers as SADU published them, or as diagbench "
                            "recomputes them from the annotations (published where none).")


JUDGE_OPTION = click.option(
    "--judge", metavar="MODEL",
    help="An LLM judge (PROVIDER:MODEL[@URL]; baseline:judge offline) sent the question, the "
         "diagram and both answers: its accuracy is given beside the rule-based one, with "
         "its agreement (Table 10), failed calls and unreadable replies.")


def _capture_only(ctx: click.Context, param: click.Parameter, value: str | None) -> bool:
    """--twins of `import sadu`: capture alone (SADU's diagrams have no source)."""
    if value is None:
        return False
    families = [f for f in (f.strip() for f in value.split(",")) if f]
    other = [f for f in families if f != "capture"]
    if other or not families:
        raise click.BadParameter(
            f"{', '.join(other) or repr(value)}: SADU's diagrams have no source to edit or "
            "draw again, so only capture twins (each image as if scanned) can be made of them; "
            "counterfactual and style twins need diagbench build archqa")
    return True


@click.command(name="sadu")
@click.argument("source", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Directory for the data set.")
@click.option("--twins", "twins", callback=_capture_only, metavar="capture",
              help="Also make a capture twin of every diagram (its image as if scanned, in "
                   "OUT/images; the other families need a source: build archqa). Default: "
                   "none.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the capture twins.")
def import_sadu_command(source: Path, out: Path, twins: bool, seed: int) -> None:
    """Read SADU's dataset/SAD folder (behavior, structural, ER; each with Diagram,
    json_object, QA) or its dataset/SAD_hard folder (long_arrow, multiple_arrow,
    not_right_arrow, overlap_arrow; numbered cases in each) into OUT: annotations.jsonl,
    questions.jsonl (questions and answers as published, and recomputed from the
    annotations; the hard set's with their arrow pattern) and import.json (the
    differences between the two, each with its reason). Images stay in SOURCE; with
    --twins capture, a capture twin of each diagram (its image in OUT/images, its
    questions its original's). Exit 3
    when SOURCE or some diagram cannot be read (the others are imported)."""
    from diagbench.benchmarks.archqa.hard import is_sad_hard, read_sad_hard
    from diagbench.benchmarks.archqa.sadu_import import import_sadu, read_sadu
    from diagbench.benchmarks.protocol import DataError

    try:
        info = import_sadu(source, out, read_sad_hard if is_sad_hard(source) else read_sadu,
                           seed if twins else None)
    except DataError as exc:
        click.echo(f"diagbench: error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    share = 100 * info["recomputed_equal"] / info["questions"] if info["questions"] else 0.0
    click.echo(f"{info['questions']} questions about {info['diagrams']} diagrams "
               f"({', '.join(f'{k} {v}' for k, v in info['by_family'].items())})")
    if "by_pattern" in info:
        click.echo("arrow patterns: " + ", ".join(f"{k} {v}" for k, v in
                                                  info["by_pattern"].items()))
    click.echo(f"gold answers recomputed equal: {info['recomputed_equal']} ({share:.2f} %)")
    for family, made in info.get("twins", {}).items():
        click.echo(f"{family} twins: {made['made']} made, {made['questions']} questions")
    for reason, n in sorted(info["differences_by_reason"].items(), key=lambda x: -x[1]):
        click.echo(f"  {n:>4}  {reason}")
    click.echo(f"-> {out} (differences in {out / 'import.json'})")
    for problem in info["problems"]:
        click.echo(f"diagbench: error: {problem}", err=True)
    sys.exit(EXIT_BAD_INPUT if info["problems"] else EXIT_OK)
