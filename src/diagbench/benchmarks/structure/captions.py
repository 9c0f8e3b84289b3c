"""Captions written by the generating model (paper 004 §3.4, Fig. 10 "Dataset
Enrichment with captions"), and the caption association task made of them.

Every kept sample's code goes back to the generating model with the caption prompt of
Fig. 10 (verbatim). The reply is read strictly (`parse_caption`): one `Caption:` part,
its text one non-empty line of at most `MAX_CAPTION` characters, nothing after it, and
not naming the code language (the prompt forbids it). Anything else is dropped with its
reason and counted in build.json (`captions`). A kept caption is the sample's
`caption`, and `distractors.caption_options` makes its `caption_match` task: four
captions, its own among them or none (gold NONE), the others drawn as STRUDEL draws
them.

`answer_caption` is how baseline:synth answers the prompt offline: the category and
what the code's parsed model counts, with the first names it shows.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from diagbench.benchmarks.progress import Bars, no_bars
from diagbench.benchmarks.structure.planned import Planned
from diagbench.benchmarks.structure.records import CaptionsInfo, Rejection

CAPTION_SYSTEM = ("You are an helpful AI assistant expert in summarizing, enriching and "
                  "expanding data samples.")
CAPTION_USER = (
    "Given a code representation in the code language {language} that implements a "
    "{category}, generate a caption for a picture which will be rendered from this code.\n\n"
    "The picture will represent exactly what is contained in the code. The caption should "
    "be abstracting and contain only the most relevant information.\n\n"
    "Consider that in the end only the rendered picture and the caption are visible, not "
    "the code. Therefore, the coding language itself or anything invisible should not be "
    "mentioned in the caption.\n\n"
    "Code:\n\n```\n{code}\n```\n\n"
    "Now, please output your results in the format below by filling in the placeholders "
    "in <...>:\n\n"
    "Caption: <caption>")
MAX_CAPTION = 200
_CAPTION = re.compile(r"^[\s*_`#]*Caption[\s*_`]*:(?P<c>.*)\Z", re.S | re.M | re.I)
_LABEL = re.compile(r"^[\s*_`#]*Caption[\s*_`]*:", re.M | re.I)
_WRAP = " \t\n*_`\"'<>“”"
_PROMPT = re.compile(r"^Given a code representation in the code language (?P<lang>.+?) that "
                     r"implements a (?P<category>.+?), generate a caption for a picture .*?"
                     r"Code:\n\n```\n(?P<code>.*)\n```\n\nNow, please output", re.S)


def caption_prompt(language: str, category: str, code: str) -> tuple[str, str]:
    """(system, user) prompts of Fig. 10's caption enrichment for one code."""
    return CAPTION_SYSTEM, CAPTION_USER.format(language=language, category=category,
                                               code=code.strip("\n"))


def caption_template_hash() -> str:
    return hashlib.sha256((CAPTION_SYSTEM + CAPTION_USER).encode()).hexdigest()[:16]


def parse_caption(text: str | None, language: str) -> tuple[str | None, str]:
    """(the caption read, "") or (None, why it is dropped).

    >>> parse_caption("Caption: **A class diagram of a library**", "PlantUML")
    ('A class diagram of a library', '')
    >>> parse_caption("Caption: A PlantUML class diagram", "PlantUML")[1]
    'names the code language'
    """
    m = _CAPTION.search(text or "")
    if m is None or len(_LABEL.findall(text or "")) != 1:
        return None, "not one `Caption:` part"
    caption = m.group("c").strip(_WRAP)
    if not caption:
        return None, "empty caption"
    if "\n" in caption or len(caption) > MAX_CAPTION:
        return None, f"caption longer than one line of {MAX_CAPTION} characters"
    if re.search(rf"(?<!\w){re.escape(language)}(?!\w)", caption, re.I):
        return None, "names the code language"
    return caption, ""


def ask_captions(samples: list[Planned], settings: Any, data: Path,
                 max_connections: int = 8, bars: Bars = no_bars
                 ) -> tuple[dict[str, str], CaptionsInfo]:
    """Ask the generating model for one caption per sample (through the runner:
    responses in DATA/generation/caption_responses.jsonl); (the captions read by sample
    id, what build.json records)."""
    from diagbench.benchmarks.structure.per_sample import ask_each
    from diagbench.languages import category_named, named

    kept, dropped, failed = ask_each(
        samples, lambda s: caption_prompt(named(s.language).title,
                                          category_named(s.category).title, s.code or ""),
        lambda s, text: parse_caption(text, named(s.language).title), settings,
        data / "generation" / "caption_responses.jsonl", max_connections, bars,
        "asking captions")
    rejected = [Rejection(s.id, reason, detail) for s, reason, detail in failed]
    return kept, CaptionsInfo(caption_template_hash(), len(samples), len(kept),
                              dict(sorted(dropped.items())), rejected)


def answer_caption(prompt: str) -> str | None:
    """baseline:synth's reply to a caption prompt (None: not one): the category, what
    the code's parsed model counts (its first three counts above 0) and the first three
    names it shows."""
    from diagbench.benchmarks.structure.templates import shown_names
    from diagbench.diagram.graph import GraphDiagram
    from diagbench.diagram.sequence import SequenceDiagram
    from diagbench.languages import titled

    m = _PROMPT.search(prompt)
    if m is None:
        return None
    language = titled(m.group("lang"))
    parsed = language.read(m.group("code")) if language else []
    if not parsed:
        return "Caption: a diagram"
    counts = ", ".join(f"{n} {key.replace('_', ' ')}" for key, n in
                       [kv for kv in parsed[0].counts().items() if kv[1]][:3])
    names: list[str] = []
    if isinstance(parsed[0].diagram, GraphDiagram | SequenceDiagram):
        names = list(shown_names(parsed[0].diagram)[0].values())[:3]
    shown = f", showing {', '.join(names)}" if names else ""
    return f"Caption: {m.group('category')} with {counts}{shown}"
