"""Read the name in a PlantUML class box with RapidOCR's recogniser, from pixels only.

The recogniser reads a band of the box right of the circled icon letter, its output
restricted to identifier characters. It ignores letter size, so for letters whose capital
is a larger lowercase (o/O, v/V, ...) the case is decided by where the glyph's top is in
the band, and "O" or "0" by the glyph's width.
"""

from __future__ import annotations

import functools

import numpy as np
from PIL import Image
from scipy import ndimage

from diagbench.models.baselines import ocr
from diagbench.models.baselines.class_geometry import BOX_FILL, Box

_IDENTIFIER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_SAME_SHAPE = frozenset("cjosuvwxzCJOSUVWXZ0")  # told apart by size or width, not shape
_CAP_LINE = 0.245  # glyph top / band height: capitals 0.16-0.21, x-height letters 0.29-0.32
_ROUND = 0.78  # width / height: "O" 0.86-1.0, "0" about 0.7
_LEADING = {"0": "O", "1": "I", "5": "S", "8": "B", "l": "I"}  # names start with a capital
_TEXT_HEIGHT = 48  # px: the recogniser's input height
_MIN_WIDTH = 320  # px: the recogniser's smallest input width
_INK = 128  # darker than this is the name's text
_BORDER = 3  # px kept clear of a box's border line
_BAND = (0.27, 0.30)  # the name's band, above and below a box's middle, in box heights


def read_name(rgb: np.ndarray, box: Box) -> str:
    """The class name written in a box, right of its icon.

    The band is fixed by the box, from above capitals to below descenders, not fitted to
    the ink, so that a glyph's top in it tells a capital from a lowercase letter.
    """
    height, middle = box.y1 - box.y0, (box.y0 + box.y1) / 2
    y0, y1 = round(middle - _BAND[0] * height), round(middle + _BAND[1] * height) + 1
    inner = rgb[y0:y1, box.text_x0 + 1:box.x1 - _BORDER + 1]
    cols = np.flatnonzero((inner.mean(axis=2) < _INK).any(axis=0))
    if not len(cols):
        return ""
    pad = (y1 - y0) // 4
    crop = np.pad(inner[:, cols[0]:cols[-1] + 1], ((0, 0), (pad, pad), (0, 0)),
                  constant_values=BOX_FILL)
    text, centres = recognise(crop)
    text = "".join(_by_glyph(crop, ch, x) if ch in _SAME_SHAPE else ch
                   for ch, x in zip(text, centres, strict=True))
    return _LEADING.get(text[:1], text[:1]) + text[1:]


def recognise(crop: np.ndarray) -> tuple[str, list[float]]:
    """One line of RGB text read as identifier characters, and each one's centre column."""
    h, w = crop.shape[:2]
    width = max(round(w * _TEXT_HEIGHT / h), 1)
    resized = Image.fromarray(np.ascontiguousarray(crop)).resize((width, _TEXT_HEIGHT),
                                                                 Image.Resampling.BICUBIC)
    ratio = max(width, _MIN_WIDTH) / _TEXT_HEIGHT
    with ocr.engine() as rapid:
        recogniser = rapid.text_rec
        batch = recogniser.resize_norm_img(np.asarray(resized)[..., ::-1], ratio)
        scores = recogniser.session(batch[np.newaxis].astype(np.float32))[0][0]
    characters = recogniser.postprocess_op.character
    best = np.where(_allowed(tuple(characters)), scores, -np.inf).argmax(axis=1)
    frame = ratio * _TEXT_HEIGHT / len(best) * w / width  # crop columns per output frame
    text, centres = [], []
    for k, run in _runs(best):
        if k:
            text.append(characters[k])
            centres.append((np.mean(run) + 0.5) * frame)
    return "".join(text), centres


@functools.cache
def _allowed(characters: tuple[str, ...]) -> np.ndarray:
    """Which of the recogniser's classes may be output: CTC blank and identifier characters."""
    return np.array([k == 0 or c in _IDENTIFIER for k, c in enumerate(characters)])


def _runs(labels: np.ndarray) -> list[tuple[int, list[int]]]:
    """Runs of equal labels: (label, frame indices)."""
    runs: list[tuple[int, list[int]]] = []
    for i, k in enumerate(labels.tolist()):
        if runs and runs[-1][0] == k:
            runs[-1][1].append(i)
        else:
            runs.append((k, [i]))
    return runs


def _by_glyph(crop: np.ndarray, ch: str, x: float) -> str:
    """`ch` as its glyph (the ink component at column x) shows it: a capital's top is at the
    cap line, a lowercase letter's lower; an "O" is wider than a "0"."""
    labels, count = ndimage.label(crop.mean(axis=2) < _INK, structure=np.ones((3, 3)))
    if not count:
        return ch
    found = ndimage.find_objects(labels)
    sizes = np.asarray(ndimage.sum(labels > 0, labels, range(1, count + 1)))  # one per label
    glyph = found[min(range(count), key=lambda i: (
        not found[i][1].start <= x < found[i][1].stop,  # the largest one at x (not a dot)
        abs((found[i][1].start + found[i][1].stop - 1) / 2 - x) - sizes[i]))]
    if ch in "0O":
        wide = (glyph[1].stop - glyph[1].start) / (glyph[0].stop - glyph[0].start) >= _ROUND
        return "O" if wide else "0"
    capital = glyph[0].start / crop.shape[0] < _CAP_LINE
    return ch.upper() if capital else ch.lower()
