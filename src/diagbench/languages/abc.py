"""ABC: music notation (STRUDEL's music domain, "musical notation"), read by music21,
engraved by abcm2ps (the `abcm2ps` engine)."""

from __future__ import annotations

from diagbench.languages.record import Language


def recognises(text: str) -> bool:
    """An ABC source starts (after comments and blank lines) with an `X:` field."""
    for line in text.removeprefix("\ufeff").splitlines():
        if line.strip() and not line.startswith("%"):
            return line.startswith("X:")
    return False


LANGUAGE = Language(
    doc=__doc__ or "",
    name="abc",
    title="ABC",
    suffixes=(".abc",),
    domain="games-music",
    categories=("music",),
    kinds=("tune",),
    reader="diagbench.formats.music.abc:read_abc",
    engine="abcm2ps",
    statistics="diagbench.render.abcm2ps:score_statistics",
    similarity="diagbench.compare.music:compare_scores",
    synth="diagbench.formats.music.synth:synth_abc",
    facts="diagbench.diagram.music:music_facts",
    examples=("music-tune.abc",),
    recognises=recognises,
    node_limits=(4, 340),
    size="notes",
)
