"""The matplotlib helpers of the drawing engines (`render.drawing`): math text parsed
once per process however many renderers draw it, with the same images."""

from __future__ import annotations

from typing import Any

import pytest

from diagbench.render.drawing import figure, images, parse_math_once


def _drawn(texts: tuple[str, ...]) -> dict[str, bytes]:
    with figure(2.0, 1.0) as (fig, axes):
        for k, text in enumerate(texts):
            axes.text(0.1, 0.3 * k, text)
        return images(fig)


def _counted_parses(monkeypatch) -> list[str]:
    """The math texts matplotlib's parser parses from now on (in this test)."""
    from matplotlib import _mathtext

    parsed: list[str] = []
    real = _mathtext.Parser.parse

    def counting(self: Any, s: str, *args: Any, **kwargs: Any) -> Any:
        parsed.append(s)
        return real(self, s, *args, **kwargs)

    monkeypatch.setattr(_mathtext.Parser, "parse", counting)
    return parsed


def test_math_text_drawn_again_by_new_renderers_is_not_parsed_again(monkeypatch):
    """Two math texts drawn in two figures, each saved as SVG and PNG (new renderers
    for each save): the first figure parses each text (once per distinct dpi, font
    and output type), the second parses nothing; without the shared cache every
    renderer parsed them again. The second figure's images are the first's bytes."""
    parse_math_once()
    parsed = _counted_parses(monkeypatch)
    texts = (r"$q_{0}$ drawn once", r"$\mathrm{R}_\mathrm{X}(\pi/7)$ drawn once")
    first = _drawn(texts)
    once = len(parsed)
    assert once > 0 and parsed.count(texts[0]) == parsed.count(texts[1]) == once / 2
    second = _drawn(texts)
    assert len(parsed) == once
    assert first == second and first["png"].startswith(b"\x89PNG")


@pytest.mark.parametrize("changed", [{"mathtext.fontset": "stix"}, {"font.size": 15}])
def test_a_changed_font_or_math_setting_parses_again(monkeypatch, changed):
    """The shared cache is keyed on the math settings and the font: a text drawn again
    under another math font set or font size is parsed again (not drawn as before)."""
    import matplotlib

    parse_math_once()
    texts = (r"$\alpha_{1}$ under " + str(changed),)
    plain = _drawn(texts)
    parsed = _counted_parses(monkeypatch)
    with matplotlib.rc_context(changed):
        other = _drawn(texts)
    assert parsed and set(parsed) == set(texts)
    assert other["png"] != plain["png"]
