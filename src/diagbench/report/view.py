"""`diagbench view`: every sample of one or more runs in the browser — the image, the
prompt, the raw answer and what was read from it, the reasoning kept apart, the gold,
the score and its parts, the error, and for code answers the rendered prediction beside
the image with the counted differences.

Each benchmark gives its samples as `SampleView`s (`Benchmark.sample_views`); this
module writes them as a static folder — `index.html` (the page, `view.html`),
`samples.js` (the samples as one script, so the page opens from `file://` too) and
`images/` (each image once) — and serves that folder on 127.0.0.1. The page pages its
rows (100 at a time) and filters in the browser, so 100,000 samples stay responsive; it
shows the accuracy, mean score and failures of the rows the filters keep, and each
sample has its own link (`#run=…&model=…&id=…`).
"""

from __future__ import annotations

import hashlib
import http.server
import json
import shutil
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

#: The fields of a sample in samples.js, in order (each sample is one array).
FIELDS = ("benchmark", "run", "model", "id", "task", "category", "status", "correct",
          "score", "prompt", "image", "answer", "reasoning", "read", "gold", "parts",
          "error", "prediction_image", "differences", "language", "flags", "task_type",
          "domain", "beside")


@dataclass(frozen=True, slots=True)
class Beside:
    """Another image shown beside a sample's own (a twin of its diagram, or its
    original): what it is (`caption`) and what is said under it (`lines`: the same
    question's gold there, the model's answer, right or wrong)."""

    caption: str
    image: Path | None
    lines: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SampleView:
    """One model's answer to one sample, as the viewer shows it.

    `task` and `category` are the benchmark's own groupings (task type or subtype;
    category, family or relation); `status` how the call and the reading ended
    ("ok", "call_error", "unparsable", …); `correct` None where the benchmark does not
    judge right or wrong; `score` its figure for the sample (None: none); `parts` the
    score's parts by name; `read` what was read from the answer; `image` the image
    asked about and `prediction_image` the drawing of a predicted code (None: none);
    `differences` what the comparison counted, one line each; `language` the formal
    language of the diagram ("" where the benchmark has no such thing); `flags` what a
    reader of the answer should know, shown beside its status ("cut by the token
    limit", "the judge disagrees"); `task_type` and `domain` a wider grouping of the
    task and category where the benchmark has one (STRUDEL's task types and domains;
    "" where none), each a filter of the viewer; `beside` other images shown beside
    the sample's, each with its caption and lines (a diagram's twins)."""

    benchmark: str
    model: str
    id: str
    task: str
    category: str
    status: str
    prompt: str
    image: Path | None
    answer: str | None
    read: str | None
    gold: str | None
    correct: bool | None = None
    score: float | None = None
    parts: Mapping[str, object] = field(default_factory=dict)
    error: str | None = None
    reasoning: str | None = None
    prediction_image: Path | None = None
    differences: tuple[str, ...] = ()
    run: str = ""
    language: str = ""
    flags: tuple[str, ...] = ()
    task_type: str = ""
    domain: str = ""
    beside: tuple[Beside, ...] = ()


def as_text(value: object) -> str | None:
    """A gold or read answer as the viewer shows it: text as it is, anything else as
    JSON (None stays None)."""
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def write_view(views: Iterable[SampleView], out: Path, title: str) -> int:
    """Write the viewer folder `out` (index.html, samples.js, images/); return the
    number of samples."""
    out.mkdir(parents=True, exist_ok=True)
    images = out / "images"
    images.mkdir(exist_ok=True)
    copied: dict[Path, str] = {}
    texts: dict[str, int] = {}

    def image(path: Path | None) -> str | None:
        if path is None or not path.is_file():
            return None
        if path not in copied:
            name = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:16] + path.suffix
            shutil.copyfile(path, images / name)
            copied[path] = f"images/{name}"
        return copied[path]

    def text(value: str) -> int:  # prompts repeat: each is kept once
        return texts.setdefault(value, len(texts))

    rows = []
    for v in views:
        rows.append([v.benchmark, v.run, v.model, v.id, v.task, v.category, v.status,
                     v.correct, v.score, text(v.prompt), image(v.image), v.answer,
                     v.reasoning, v.read, v.gold, dict(v.parts), v.error,
                     image(v.prediction_image), list(v.differences), v.language,
                     list(v.flags), v.task_type, v.domain,
                     [[b.caption, image(b.image), list(b.lines)] for b in v.beside]])
    data = {"title": title, "fields": FIELDS, "texts": list(texts), "samples": rows}
    (out / "samples.js").write_text(
        "window.DIAGBENCH_VIEW = " + json.dumps(data, ensure_ascii=False, default=str)
        .replace("</", "<\\/") + ";\n", encoding="utf-8")
    shutil.copyfile(Path(__file__).with_name("view.html"), out / "index.html")
    return len(rows)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return None


def serve(folder: Path, port: int = 0) -> http.server.ThreadingHTTPServer:
    """Serve `folder` on 127.0.0.1 (`port` 0: a free one) from a background thread;
    the caller stops it with `shutdown()`."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", port), partial(_Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
