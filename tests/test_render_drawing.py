"""The matplotlib helpers of the drawing engines (`render.drawing`): math text parsed,
plain text measured and fonts found once per process however many renderers draw
them, text outlined once per process, artists clipped within an Axes left out of its
tight box, with the same images."""

from __future__ import annotations

from typing import Any

import pytest

from diagbench.render.drawing import (
    figure,
    find_fonts_once,
    images,
    measure_text_once,
    parse_math_once,
    skip_clipped_in_tight_boxes,
    text_path,
)
from tests.matplotlib_counts import counted_outlines


def _drawn(texts: tuple[str, ...], size: float | None = None) -> dict[str, bytes]:
    with figure(2.0, 1.0) as (fig, axes):
        for k, text in enumerate(texts):
            axes.text(0.1, 0.3 * k, text, fontsize=size)
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


def _counted_measures(monkeypatch) -> list[tuple[str, str]]:
    """(renderer, text) of every plain text the Agg and SVG renderers measure from now
    on (in this test)."""
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.backends.backend_svg import RendererSVG

    measured: list[tuple[str, str]] = []
    for renderer in (RendererAgg, RendererSVG):
        real = renderer.get_text_width_height_descent

        def counting(self: Any, s: str, prop: Any, ismath: Any, real: Any = real) -> Any:
            measured.append((type(self).__name__, s))
            return real(self, s, prop, ismath)

        monkeypatch.setattr(renderer, "get_text_width_height_descent", counting)
    return measured


def test_plain_text_drawn_again_by_new_renderers_is_not_measured_again(monkeypatch):
    """Two texts drawn in two figures, each saved as SVG and PNG with a tight box (two
    renderers per format): the first figure measures each text once per kind of
    renderer (Agg at 100 dpi, SVG at 72), where matplotlib's own cache measured it once
    per renderer; the second figure measures neither. Its images are the first's bytes."""
    measure_text_once()
    measured = _counted_measures(monkeypatch)
    texts = ("measured once", "and this once too")
    first = _drawn(texts)
    assert sorted((r, t) for r, t in measured if t in texts) == sorted(
        (r, t) for r in ("RendererAgg", "RendererSVG") for t in texts)
    count = len(measured)
    second = _drawn(texts)
    assert len(measured) == count
    assert first == second and first["png"].startswith(b"\x89PNG")


@pytest.mark.parametrize("changed", [{"font.sans-serif": ["DejaVu Serif"]},
                                     {"text.hinting": "no_hinting"}])
def test_a_changed_font_setting_measures_again(monkeypatch, changed):
    """The shared measures are keyed on the font settings: a text drawn again under
    another font family list or hinting is measured again, in both kinds of renderer."""
    import matplotlib

    measure_text_once()
    measured = _counted_measures(monkeypatch)
    texts = ("measured under " + str(changed),)
    plain = _drawn(texts)
    count = len(measured)
    with matplotlib.rc_context(changed):
        other = _drawn(texts)
    assert {(r, t) for r, t in measured[count:] if t in texts} == {
        ("RendererAgg", texts[0]), ("RendererSVG", texts[0])}
    assert other["png"] != plain["png"]


def test_a_text_outlined_again_is_the_same_path_and_its_extents_are_computed_once(
        monkeypatch):
    """The same letter, size and font outlined twice: one outline (the same path, the
    vertices matplotlib's TextPath gives), its extents computed once and handed out as
    copies; another letter, size, font or font setting is outlined afresh."""
    import matplotlib
    from matplotlib.font_manager import FontProperties
    from matplotlib.path import Path
    from matplotlib.textpath import TextPath

    outlined = counted_outlines(monkeypatch)
    extents: list[object] = []
    real_extents = Path.get_extents

    def counting_extents(self: Any, *args: Any, **kwargs: Any) -> Any:
        extents.append(self)
        return real_extents(self, *args, **kwargs)

    monkeypatch.setattr(Path, "get_extents", counting_extents)
    bold = FontProperties(family="DejaVu Sans", weight="bold")
    first = text_path((0, 0), "Q", size=1, prop=bold)
    again = text_path((0, 0), "Q", size=1, prop=FontProperties(family="DejaVu Sans",
                                                               weight="bold"))
    assert again is first and outlined == ["Q"]
    box, box_again = first.get_extents(), again.get_extents()
    assert len(extents) == 1 and box is not box_again and box.bounds == box_again.bounds
    fresh = TextPath((0, 0), "Q", size=1, prop=bold)
    assert (first.vertices == fresh.vertices).all() and (first.codes == fresh.codes).all()
    assert box.bounds == real_extents(fresh).bounds
    text_path((0, 0), "R", size=1, prop=bold)
    text_path((0, 0), "Q", size=2, prop=bold)
    text_path((0, 0), "Q", size=1, prop=FontProperties(family="DejaVu Serif", weight="bold"))
    plain = text_path((0, 0), "Q", size=1, prop=FontProperties(family=["sans-serif"]))
    with matplotlib.rc_context({"font.sans-serif": ["DejaVu Serif"]}):
        serif = text_path((0, 0), "Q", size=1, prop=FontProperties(family=["sans-serif"]))
    assert text_path((0, 0), "Q", size=1, prop=FontProperties(family=["sans-serif"])) is plain
    assert serif is not plain and outlined == ["Q", "Q", "R", "Q", "Q", "Q", "Q"]


def test_fonts_are_found_and_their_tables_read_once_per_process(monkeypatch):
    """A text in a font size not drawn before: the first figure looks its font up (a
    search by family); drawing it again in a second figure (four new renderers, each
    laying it out) looks up nothing and reads no font table again, and draws the same
    bytes; under another family list the font is looked up again."""
    import matplotlib
    from matplotlib import font_manager, ft2font

    find_fonts_once()
    looked_up: list[object] = []
    read: list[str] = []
    real_find, real_read = font_manager.FontManager.findfont, ft2font.FT2Font.get_sfnt_table

    def finding(self: Any, prop: Any, *args: Any, **kwargs: Any) -> Any:
        looked_up.append(prop)
        return real_find(self, prop, *args, **kwargs)

    def reading(self: Any, name: str) -> Any:
        read.append(name)
        return real_read(self, name)

    monkeypatch.setattr(font_manager.FontManager, "findfont", finding)
    monkeypatch.setattr(ft2font.FT2Font, "get_sfnt_table", reading)
    texts = ("found once at 13.25 points",)
    first = _drawn(texts, 13.25)
    assert looked_up
    counts = len(looked_up), len(read)
    assert _drawn(texts, 13.25) == first and (len(looked_up), len(read)) == counts
    with matplotlib.rc_context({"font.sans-serif": ["DejaVu Serif"]}):
        _drawn(texts, 13.25)
    assert len(looked_up) > counts[0]


def _clipped_patch_drawn(top: float) -> tuple[int, int]:
    """(how often a tall patch clipped to the Axes' box up to `top` (in Axes units) was
    measured, the height of the PNG) when its figure is saved with a tight box."""
    from matplotlib.patches import Rectangle
    from matplotlib.transforms import Bbox, TransformedBbox

    calls: list[object] = []
    with figure(2.0, 1.0) as (fig, axes):
        patch = axes.add_patch(Rectangle((0.2, 0.2), 0.6, 5.0, transform=axes.transAxes))
        patch.set_clip_box(TransformedBbox(Bbox([[0, 0], [1, top]]), axes.transAxes))
        real = patch.get_window_extent

        def measuring(*args: Any) -> Any:
            calls.append(args)
            return real(*args)

        patch.get_window_extent = measuring  # type: ignore[method-assign]
        png = images(fig)["png"]
    return len(calls), int(png[20:24].hex(), 16)  # the height in the PNG's header


def test_an_artist_clipped_within_the_axes_is_not_measured_for_the_tight_box():
    """A patch clipped to a box inside the Axes' box (a hair below its top, as
    matplotlib's own clip box falls at some sizes and dpi) is left out of the tight
    box, which holds the Axes' box already: never measured, the same image height as
    clipped to the Axes' box itself; one clipped to a box reaching out of the Axes is
    measured, and makes the image taller."""
    skip_clipped_in_tight_boxes()
    inside, equal, outside = (_clipped_patch_drawn(top) for top in (1 - 1e-9, 1.0, 1.2))
    assert inside[0] == equal[0] == 0 and outside[0] > 0
    assert inside[1] == equal[1] < outside[1]
