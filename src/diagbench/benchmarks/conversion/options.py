"""The options `eval conversion` shares with `diagbench convert`."""

from __future__ import annotations

import click

from diagbench.benchmarks.conversion.prompts import PROMPTS

PROMPT_HELP = (f"{'|'.join(PROMPTS)} or a template file ({{caption}} is replaced by "
               '\' of "CAPTION"\', or by nothing). paper: paper 000 §3.2.2 verbatim; cot: '
               "step-by-step reasoning first; minimal: one sentence.")
PROMPT_OPTION = click.option("--prompt", default="paper", show_default=True, help=PROMPT_HELP)
RENDER_OPTIONS = (
    click.option("--jobs", type=click.IntRange(1, 64), default=2, show_default=True,
                 help="PlantUML processes rendering in parallel."),
    click.option("--render-timeout", type=click.FloatRange(1.0), default=20.0,
                 show_default=True, help="Seconds allowed to render one script."),
)
