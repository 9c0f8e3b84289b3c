"""ABC: music notation (STRUDEL's music domain, "musical notation"), read by music21,
engraved by abcm2ps (the `abcm2ps` engine). Its styles are abcm2ps's format
directives, put after the tune's `X:` field: a larger scale, sans-serif text, a
narrower staff."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.record import Drawn, Language, expect

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine


def recognises(text: str) -> bool:
    """An ABC source starts (after comments and blank lines) with an `X:` field."""
    for line in text.removeprefix("\ufeff").splitlines():
        if line.strip() and not line.startswith("%"):
            return line.startswith("X:")
    return False


#: The format directives (abcm2ps's) of each style.
STYLES: dict[str, tuple[str, ...]] = {
    "large": ("%%scale 0.95",),
    "sans-serif": ("%%titlefont Helvetica-Bold 20", "%%subtitlefont Helvetica 16",
                   "%%composerfont Helvetica-Oblique 14", "%%tempofont Helvetica-Bold 12",
                   "%%gchordfont Helvetica 12", "%%vocalfont Helvetica-Bold 13",
                   "%%annotationfont Helvetica 12", "%%measurefont Helvetica-Oblique 10"),
    "narrow": ("%%staffwidth 13cm",),
}
#: Each note letter and the one a step higher.
_STEP = dict(zip("CDEFGABcdefga", "DEFGABcdefgab", strict=True))


class Abc(Language):
    """ABC as a `Language`: its parts, each importing what it uses when first called."""

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def prepare(self, source: str, kind: str, marked: bool, style: str = "") -> str:
        """`style`: with its format directives after the first `X:` field (first, when
        there is none: abcm2ps says what is missing)."""
        from diagbench.languages.styled import known

        if not known(style, STYLES):
            return source
        lines = source.split("\n")
        at = next((k + 1 for k, line in enumerate(lines) if line.startswith("X:")), 0)
        return "\n".join([*lines[:at], *STYLES[style], *lines[at:]])

    def styles(self) -> tuple[str, ...]:
        return tuple(STYLES)

    def records(self, text: str) -> list[tuple[int, str]]:
        from diagbench.languages.abc.read import tune_texts

        return tune_texts(text)

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.abc.engine import Abcm2psEngine

        return Abcm2psEngine(jobs=jobs, timeout=timeout)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.abc.read import read_abc

        return read_abc(text)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.abc.engine import score_statistics

        return Drawn(score_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.abc.similarity import compare_scores

        return compare_scores(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.diagram.music import Score, music_facts

        return music_facts(expect(diagram, Score))

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.abc.synth import synth_abc

        return synth_abc(rng, complexity)

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """The unit note length halved once or twice (`rng`'s choice) and every written
        length doubled to match (`rewrite.halve_unit`): the same notes, drawn the same."""
        from diagbench.languages.abc.rewrite import halve_unit

        once = halve_unit(code)
        return halve_unit(once) if once is not None and rng.random() < 0.5 else once

    def edit(self, code: str, rng: random.Random) -> str | None:
        """The first note of the first tune's body a step higher (C → D, …, B → c)."""
        lines = code.split("\n")
        body = next((k + 1 for k, line in enumerate(lines) if line.startswith("K:")), None)
        for k in range(body or len(lines), len(lines)):
            line, quoted = lines[k], False
            for n, char in enumerate(line):
                if char == '"':
                    quoted = not quoted
                elif char in "%!+[":  # a comment, a decoration, an inline field or chord
                    break
                elif not quoted and char in _STEP:
                    lines[k] = line[:n] + _STEP[char] + line[n + 1:]
                    changed = "\n".join(lines)
                    return self.readable(changed)
        return None


LANGUAGE = Abc(
    doc=__doc__ or "",
    name="abc",
    title="ABC",
    suffixes=(".abc",),
    domain="games-music",
    categories=("music",),
    kinds=("tune",),
    engine="abcm2ps",
    examples=("music-tune.abc",),
    node_limits=(4, 340),
    size="notes",
    libraries=("music21",),
)
