"""Whether a PNG an engine wrote is whole and not blank, decoding as little of it as that takes.

Blank means: the grey levels of a copy reduced by `reduction_factor` have a standard
deviation under `BLANK_STD`. Most diagrams prove they are not blank in a top band
alone, because the grey variance of the whole reduced copy is at least the band's
variance times the band's share of the rows (the variance within the band is one of
the non-negative parts the whole's variance sums). So the top sixteenth is inflated
and decoded first, then the top quarter, and only an image neither proves drawn
(blank ones, pale ones, interlaced ones) is decoded whole. The decision is the whole
image's either way.
Whole means: the chunks are intact (each one's CRC holds), the header comes first,
image data follows and the file ends with IEND, and the image data decodes as far as
it is read.
"""

from __future__ import annotations

import io
import struct
import zlib
from dataclasses import dataclass

from PIL import Image, ImageStat, UnidentifiedImageError

#: A rendered image whose pixels are this close to one colour is blank.
BLANK_STD = 2.0
#: The top bands tried before the whole image: 1/16, then 1/4 of the reduced copy's rows.
BANDS = (16, 4)
SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Samples per pixel of each PNG colour type (grey, RGB, palette, grey+alpha, RGBA).
_SAMPLES = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
_HEADER = struct.Struct(">IIBBBBB")
_CHUNK_HEAD = struct.Struct(">I4s")
#: The chunks a band's pixels need beside its header and data: palette, transparency.
_COLOURS = (b"PLTE", b"tRNS")


@dataclass(frozen=True, slots=True)
class Header:
    """A PNG's IHDR: size, bits per sample, colour type, interlacing."""

    width: int
    height: int
    depth: int
    colour: int
    interlaced: bool

    def row_bytes(self) -> int:
        """Bytes of one filtered row of image data, its filter byte included."""
        return 1 + (self.width * _SAMPLES[self.colour] * self.depth + 7) // 8


def reduction_factor(width: int, height: int) -> int:
    """The blank test reads a copy reduced this many times (a short side of at least 256)."""
    return max(1, min(width, height) // 256)


def png_facts(data: bytes) -> tuple[int, int, bool]:
    """(width, height, blank) of PNG bytes; ValueError saying why when they are not a
    whole PNG."""
    header, colours, image_data = _chunks(data)
    factor = reduction_factor(header.width, header.height)
    rows = -(-header.height // factor)  # of the reduced copy
    if not header.interlaced:
        inflated = _Inflated(header, image_data)
        for share in BANDS:
            band = rows // share
            if not band:
                continue
            png = _band_png(header, colours, inflated.rows(band * factor))
            if band / rows * _grey_stat(png, factor).var[0] >= BLANK_STD ** 2 * (1 + 1e-9):
                return header.width, header.height, False
    std = _grey_stat(data, factor).stddev[0]
    return header.width, header.height, std < BLANK_STD


def _chunks(data: bytes) -> tuple[Header, list[bytes], list[bytes]]:
    """The header, the chunks that give the pixels' colours (whole, as written) and the image
    data chunks' bodies; ValueError for a PNG that is not whole."""
    if not data.startswith(SIGNATURE):
        raise ValueError("not a PNG image (no PNG signature)")
    header: Header | None = None
    colours: list[bytes] = []
    image_data: list[bytes] = []
    pos = len(SIGNATURE)
    while True:
        if pos + 12 > len(data):
            raise ValueError(f"PNG cut short at byte {pos:,} (no IEND chunk)")
        length, kind = _CHUNK_HEAD.unpack_from(data, pos)
        end = pos + 12 + length
        if end > len(data):
            raise ValueError(f"PNG cut short in its {kind.decode('latin-1')!r} chunk "
                             f"at byte {pos:,}")
        (crc,) = struct.unpack_from(">I", data, end - 4)
        if zlib.crc32(data[pos + 4:end - 4]) != crc:
            raise ValueError(f"PNG damaged: the {kind.decode('latin-1')!r} chunk at byte "
                             f"{pos:,} fails its CRC")
        if header is None:
            if kind != b"IHDR" or length != _HEADER.size:
                raise ValueError("PNG does not begin with its IHDR header")
            width, height, depth, colour, method, filters, interlace = _HEADER.unpack_from(
                data, pos + 8)
            if colour not in _SAMPLES or not width or not height or method or filters:
                raise ValueError(f"PNG header not understood (size {width}x{height}, colour "
                                 f"type {colour}, methods {method} and {filters})")
            header = Header(width, height, depth, colour, bool(interlace))
        elif kind == b"IDAT":
            image_data.append(data[pos + 8:end - 4])
        elif kind == b"IEND":
            if not any(image_data):
                raise ValueError("PNG has no image data")
            return header, colours, image_data
        elif kind in _COLOURS:
            colours.append(data[pos:end])
        pos = end


class _Inflated:
    """A PNG's image data inflated as far as the rows asked for so far."""

    def __init__(self, header: Header, image_data: list[bytes]) -> None:
        self.row_bytes = header.row_bytes()
        self.bodies = iter(image_data)
        self.inflate = zlib.decompressobj()
        self.raw = bytearray()

    def rows(self, count: int) -> bytes:
        """The filtered bytes of the top `count` rows; ValueError when they do not inflate."""
        need = count * self.row_bytes
        try:
            while len(self.raw) < need:
                body = self.inflate.unconsumed_tail or next(self.bodies, None)
                if body is None:
                    raise ValueError(f"image does not decode: its data ends before row "
                                     f"{count:,}")
                self.raw += self.inflate.decompress(body, need - len(self.raw))
        except zlib.error as exc:
            raise ValueError(f"image does not decode: {exc}") from None
        return bytes(self.raw[:need])


def _band_png(header: Header, colours: list[bytes], raw: bytes) -> bytes:
    """A PNG of the rows `raw` holds: the same header (but its height) and `colours`
    chunks, the image data stored uncompressed."""
    rows = len(raw) // header.row_bytes()
    head = _HEADER.pack(header.width, rows, header.depth, header.colour, 0, 0, 0)
    return b"".join([SIGNATURE, _chunk(b"IHDR", head), *colours,
                     _chunk(b"IDAT", zlib.compress(raw, 0)), _chunk(b"IEND", b"")])


def _chunk(kind: bytes, body: bytes) -> bytes:
    return (_CHUNK_HEAD.pack(len(body), kind) + body
            + struct.pack(">I", zlib.crc32(kind + body)))


def _grey_stat(png: bytes, factor: int) -> ImageStat.Stat:
    """The statistics of the grey levels of `png` reduced `factor` times."""
    try:
        with Image.open(io.BytesIO(png)) as img:
            grey = img.convert("L")
    except (UnidentifiedImageError, OSError, SyntaxError) as exc:
        raise ValueError(f"image does not decode: {exc}") from None
    return ImageStat.Stat(grey.reduce(factor) if factor > 1 else grey)
