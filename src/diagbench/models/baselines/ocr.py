"""One process-wide RapidOCR engine, made on first use; calls are serialised by a lock.

Lines are found by the detector, then each is recognised from a crop whose word gaps
are widened: at diagram font sizes the recogniser otherwise drops many spaces.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

#: Blank columns this wide (px) or wider between inked ones are a word gap.
WORD_GAP = 4
_WIDEN = 4
_INK_CONTRAST = 55  # how far from the background colour a pixel of text is
_lock = threading.Lock()
_engine = None


@dataclass(frozen=True, slots=True)
class TextBox:
    """A line of text found in an image: its bounding box, text and confidence."""

    x0: int
    y0: int
    x1: int
    y1: int
    text: str
    score: float

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2


def _get_engine():
    """The shared engine (call with the lock held)."""
    global _engine
    if _engine is None:
        from rapidocr_onnxruntime import RapidOCR  # slow import: only when OCR is needed

        _engine = RapidOCR(use_cls=False)
    return _engine


@contextlib.contextmanager
def engine() -> Iterator:
    """The shared RapidOCR engine, held by this thread for the `with` block."""
    with _lock:
        yield _get_engine()


def widen_gaps(crop: np.ndarray) -> np.ndarray:
    """A copy of an RGB text crop with every word gap made `_WIDEN` px wider."""
    background = np.median(crop.reshape(-1, 3), axis=0)
    ink = (np.abs(crop.astype(np.int16) - background).max(axis=2) > _INK_CONTRAST)
    blank = ~ink[ink.mean(axis=1) < 0.9].any(axis=0)  # rows that are nearly all ink are rules
    edges = np.flatnonzero(np.diff(blank.astype(np.int8))) + 1
    bounds = [0, *edges.tolist(), len(blank)]
    pad = np.full((crop.shape[0], _WIDEN, 3), 255, np.uint8)
    parts = []
    for a, b in itertools.pairwise(bounds):
        parts.append(crop[:, a:b])
        if blank[a] and a > 0 and b < len(blank) and b - a >= WORD_GAP:
            parts.append(pad)
    return np.ascontiguousarray(np.concatenate(parts, axis=1))


def read_text(image: np.ndarray) -> list[TextBox]:
    """The text lines of an RGB image, top to bottom."""
    bgr = np.ascontiguousarray(image[..., ::-1])  # RapidOCR takes OpenCV's channel order
    h, w = bgr.shape[:2]
    with engine() as rapid:
        quads, _ = rapid(bgr, use_cls=False, use_rec=False)
        boxes = []
        for quad in quads or ():
            xs, ys = [p[0] for p in quad], [p[1] for p in quad]
            x0, y0 = max(round(min(xs)), 0), max(round(min(ys)), 0)
            x1, y1 = min(round(max(xs)), w - 1), min(round(max(ys)), h - 1)
            if x1 - x0 >= 2 and y1 - y0 >= 2:
                boxes.append((x0, y0, x1, y1))
        crops = [widen_gaps(bgr[y0:y1 + 1, x0:x1 + 1]) for x0, y0, x1, y1 in boxes]
        # One crop at a time: in a batch the narrower crops are padded, and then lose spaces.
        found = [rapid.text_rec([crop])[0][0] for crop in crops]
    return sorted((TextBox(*box, str(text).strip(), float(score))
                   for box, (text, score) in zip(boxes, found, strict=True)),
                  key=lambda b: (b.y0, b.x0))
