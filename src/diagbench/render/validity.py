"""Whether scripts render: the validity of paper 004 (code valid = the engine draws it).

`check(engine, texts)` renders each text with the engine (as
`diagbench.render.engines.ENGINES` names them; a language's is `Language.engine`) into a
temporary folder and returns, per text, (valid, the engine's error or None).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path


def check(engine_name: str, texts: list[str], jobs: int = 2, timeout: float = 60.0,
          fmt: str = "svg") -> list[tuple[bool, str | None]]:
    """(valid, error) of every text rendered by the engine called `engine_name`."""
    if not texts:
        return []
    from diagbench.render.engines import make_engine
    from diagbench.render.graph_stats import map_c4_includes

    engine = make_engine(engine_name, jobs, timeout)
    if engine_name == "plantuml":
        texts = [map_c4_includes(t) for t in texts]
    folder = Path(tempfile.mkdtemp(prefix="diagbench-valid-"))
    try:
        results = engine.render(texts, folder, fmt)
        return [(bool(r.ok and r.image is not None), None if r.ok else (r.error or "not drawn"))
                for r in results]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
