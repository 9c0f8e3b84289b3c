"""A PNG's validity check: blank by the grey deviation of the whole (reduced) image, whole
by its chunks, whether the top band proves it drawn or the whole image is decoded.

Every expected deviation below is worked out by hand from the pixel values."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from diagbench.render import png_check
from diagbench.render.png_check import png_facts
from diagbench.render.result import RenderResult, finish


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def _rows(width: int, values: list[int]) -> Image.Image:
    """A grey image whose row r has value values[r] throughout."""
    img = Image.new("L", (width, len(values)))
    img.putdata([v for v in values for _ in range(width)])
    return img


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def test_one_colour_is_blank_in_any_mode():
    for img in (Image.new("RGB", (300, 200), (20, 120, 200)), Image.new("L", (40, 30), 255),
                Image.new("P", (600, 600), 7), Image.new("RGBA", (90, 50), (0, 0, 0, 0))):
        assert png_facts(_png(img)) == (img.width, img.height, True)


@pytest.mark.parametrize(("low", "high", "blank"), [
    (251, 254, True),    # two values, half each: deviation (254 - 251) / 2 = 1.5 < 2
    (250, 254, False),   # deviation exactly 2: not under it
    (250, 255, False),   # 2.5
])
def test_the_threshold_is_a_deviation_of_two_grey_levels(low, high, blank):
    img = _rows(120, [low, high] * 50)  # 100 rows alternating: the band sees both values
    assert png_facts(_png(img)) == (120, 100, blank)


def test_a_band_that_varies_does_not_decide_for_a_whole_that_barely_does():
    # Rows 0-24 alternate 250 and 255, rows 25-199 are 255: the top quarter varies
    # (deviation 2.5), but the whole has 1/16 of its pixels at 250: variance
    # 25 * (1/16) * (15/16) = 1.46, deviation 1.21 < 2: blank.
    img = _rows(64, [250, 255] * 13 + [255] * 174)
    assert png_facts(_png(img))[2] is True


def test_drawing_only_below_the_band_is_found_in_the_whole():
    # White but for black rows 190-199: 1/20 black, deviation 255 * sqrt(0.05 * 0.95) = 55.6.
    img = _rows(64, [255] * 190 + [0] * 10)
    assert png_facts(_png(img))[2] is False


def test_the_deviation_is_of_the_reduced_copy():
    # 600 x 600 is reduced 600 // 256 = 2 times: every 2 x 2 block of a one-pixel
    # checkerboard averages to the same grey, so the reduced copy is one colour.
    checker = Image.new("L", (600, 600))
    checker.putdata([255 * ((x + y) % 2) for y in range(600) for x in range(600)])
    assert png_facts(_png(checker))[2] is True
    # Two-pixel stripes survive the reduction: half 0, half 255, deviation 127.5.
    stripes = _rows(600, [0, 0, 255, 255] * 150)
    assert png_facts(_png(stripes))[2] is False


@pytest.mark.parametrize("img", [
    _rows(300, [0, 255] * 300).convert("P"),
    _rows(300, [0, 255] * 300).convert("RGB"),
    _rows(300, [0, 255] * 300).convert("RGBA"),
    _rows(300, [0, 255] * 300).convert("I;16"),
    _rows(300, [0, 255] * 300).convert("1"),
])
def test_every_colour_type_and_depth_is_read(img):
    assert png_facts(_png(img)) == (300, 600, False)


def test_a_palette_with_transparency_keeps_its_palette_in_the_band():
    img = _rows(40, [0, 255] * 40).convert("P")
    out = io.BytesIO()
    img.save(out, "PNG", transparency=0)
    assert png_facts(out.getvalue()) == (40, 80, False)


def test_what_is_not_a_whole_png_says_why():
    good = _png(_rows(64, [0, 255] * 64))
    with pytest.raises(ValueError, match="no PNG signature"):
        png_facts(b"GIF89a" + good[6:])
    with pytest.raises(ValueError, match="cut short"):
        png_facts(good[: len(good) // 2])
    with pytest.raises(ValueError, match="no IEND"):
        png_facts(good[:-12])
    damaged = bytearray(good)
    damaged[good.index(b"IDAT") + 10] ^= 0xFF
    with pytest.raises(ValueError, match=r"'IDAT' chunk at byte .* fails its CRC"):
        png_facts(bytes(damaged))
    header = good[8:33]
    garbage = good[:33] + _chunk(b"IDAT", b"not deflate data") + _chunk(b"IEND", b"")
    with pytest.raises(ValueError, match="image does not decode"):
        png_facts(garbage)
    short = good[:8] + header + _chunk(b"IDAT", zlib.compress(b"\0" * 65)) + _chunk(b"IEND", b"")
    with pytest.raises(ValueError, match="does not decode"):
        png_facts(short)  # one row of 128 in the data
    with pytest.raises(ValueError, match="no image data"):
        png_facts(good[:33] + _chunk(b"IEND", b""))


def test_finish_keeps_a_drawn_image_and_refuses_a_blank_one(tmp_path: Path):
    drawn = _png(_rows(50, [0, 255] * 25))
    kept = finish(RenderResult(0, "e", "1"), drawn, "png", tmp_path / "a.png")
    assert (kept.ok, kept.width, kept.height) == (True, 50, 50)
    assert (tmp_path / "a.png").read_bytes() == drawn
    blank = finish(RenderResult(1, "e", "1"), _png(Image.new("L", (50, 50), 255)), "png",
                   tmp_path / "b.png")
    assert (blank.ok, blank.error) == (False, "blank image (one colour)")
    assert not (tmp_path / "b.png").exists()
    cut = finish(RenderResult(2, "e", "1"), drawn[:40], "png", tmp_path / "c.png")
    assert not cut.ok and "cut short" in cut.error


def test_the_smallest_band_that_proves_the_image_drawn_is_all_that_is_decoded(monkeypatch):
    decoded: list[int] = []  # heights of the images decoded, in order
    grey_stat = png_check._grey_stat

    def counted(png: bytes, factor: int):
        decoded.append(Image.open(io.BytesIO(png)).height)
        return grey_stat(png, factor)

    monkeypatch.setattr(png_check, "_grey_stat", counted)
    # 160 rows: the bands are the top 10 rows, then the top 40.
    for values, heights in (([0, 255] * 80, [10]),                       # drawn at the top
                            ([255] * 10 + [0, 255] * 75, [10, 40]),      # below the 1/16
                            ([255] * 150 + [0] * 10, [10, 40, 160]),     # below the 1/4
                            ([255] * 160, [10, 40, 160])):               # blank
        decoded.clear()
        png_facts(_png(_rows(30, values)))
        assert decoded == heights


def test_image_data_split_into_chunks_empty_ones_among_them_is_read():
    drawn = _png(_rows(64, [0, 255] * 64))
    start = drawn.index(b"IDAT") - 4
    (length,) = struct.unpack(">I", drawn[start:start + 4])
    body = drawn[start + 8:start + 8 + length]
    pieces = [_chunk(b"IDAT", part) for part in (b"", body[:5], b"", body[5:17], body[17:])]
    split = drawn[:start] + b"".join(pieces) + drawn[start + 12 + length:]
    assert png_facts(split) == (64, 128, False)
