"""Whether scripts render: the validity of paper 004 (code valid = the engine draws it).

`check(engine, texts)` renders each text with `engine` into a temporary folder and
returns, per text, (valid, the engine's error or None). An engine that refuses a
source only for its size (`RenderResult.too_large`: the code is right, the drawing
would be too big) does not make it invalid.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diagbench.render.engines import Engine


def check(engine: Engine, texts: list[str], fmt: str = "svg",
          keep: Sequence[Path] | None = None) -> list[tuple[bool, str | None]]:
    """(valid, error) of every text rendered by `engine`; with `keep` (a path per text),
    each drawing made is moved there."""
    if not texts:
        return []
    folder = Path(tempfile.mkdtemp(prefix="diagbench-valid-"))
    try:
        results = engine.render(texts, folder, fmt)
        for r, target in zip(results, keep or (), strict=False):
            if r.ok and r.image is not None:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(r.image, target)
        return [(bool(r.ok and r.image is not None) or r.too_large,
                 None if r.ok else (r.error or "not drawn")) for r in results]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
