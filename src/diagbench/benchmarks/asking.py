"""The request loop every benchmark shares: its `Ask`s → one model's `Answer`s, through
the runner (cached, resumable), or replayed from a run's saved responses.

An image that cannot be sent is an `image_error` answer and is never asked; a call
that failed is a `call_error` answer with its reason. Neither is ever an answer text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from diagbench.benchmarks.progress import Bars, no_bars
from diagbench.models.image_policy import ImagePolicyError, image_problem
from diagbench.models.request import ImagePart, Request
from diagbench.models.response import Usage
from diagbench.models.runner import ResponseRecord, read_records
from diagbench.models.settings import ModelSettings

AnswerStatus = Literal["ok", "call_error", "image_error"]
NOT_SAVED = "no saved response in this run"


@dataclass(frozen=True, slots=True)
class Ask:
    """One question of a benchmark: a prompt about one image, or about none (None: a
    text-only request), and a system prompt."""

    id: str
    prompt: str
    image: Path | None
    system: str | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """What a model answered to one `Ask`: the text (status ok), or why there is none.
    Usage, latency and cache facts are those of the call (None when nothing was asked)."""

    id: str
    status: AnswerStatus
    text: str | None = None
    error: str | None = None
    usage: Usage | None = None
    latency: float | None = None
    cached: bool | None = None
    finish_reason: str | None = None
    served_model: str | None = None
    reasoning: str | None = None  # a reasoning model's thinking, never part of `text`

    @classmethod
    def from_record(cls, ident: str, record: ResponseRecord) -> Answer:
        r = record.response
        return cls(ident, "ok" if r.status == "ok" else "call_error", r.text, r.error, r.usage,
                   r.latency, record.cached, r.finish_reason, r.served_model, r.reasoning)


def ask_model(asks: list[Ask], settings: ModelSettings, out: Path, max_connections: int = 8,
              bars: Bars = no_bars, label: str = "asking") -> dict[str, Answer]:
    """Every ask answered by the model of `settings`, by id; responses in `out`; its
    progress shown by `bars` under "MODEL: `label`"."""
    answers, ids, requests = _requests(asks, settings)
    with bars(len(requests), f"{settings.name}: {label}") as bar:
        records = settings.run(requests, out, max_connections, lambda r: bar.update(1, r), ids)
    return answers | {i: Answer.from_record(i, r) for i, r in zip(ids, records, strict=True)}


def replay(asks: list[Ask], settings: ModelSettings, out: Path) -> dict[str, Answer]:
    """Every ask answered from the responses saved in `out` (no model is called): the
    request's latest answer, else its latest error, else a call error `NOT_SAVED`."""
    answers, ids, requests = _requests(asks, settings)
    saved: dict[str, ResponseRecord] = {}
    for record in read_records(out):
        if record.response.status == "ok" or saved.get(record.key) is None \
                or saved[record.key].response.status != "ok":
            saved[record.key] = record
    for ident, request in zip(ids, requests, strict=True):
        found = saved.get(request.key())
        answers[ident] = (Answer.from_record(ident, found) if found
                          else Answer(ident, "call_error", error=NOT_SAVED))
    return answers


def _requests(asks: Iterable[Ask], settings: ModelSettings
              ) -> tuple[dict[str, Answer], list[str], list[Request]]:
    """(image errors by id, ids asked, their requests)."""
    errors: dict[str, Answer] = {}
    ids: list[str] = []
    requests: list[Request] = []
    sent: dict[Path, ImagePart | str] = {}  # an image asked about often is read once
    for ask in asks:
        parts: tuple[ImagePart, ...] = ()
        if ask.image is not None:
            if ask.image not in sent:
                sent[ask.image] = _image(ask.image, settings)
            part = sent[ask.image]
            if isinstance(part, str):
                errors[ask.id] = Answer(ask.id, "image_error", error=f"{ask.image}: {part}")
                continue
            parts = (part,)
        ids.append(ask.id)
        requests.append(settings.request(ask.prompt, parts, system=ask.system))
    return errors, ids, requests


def _image(path: Path, settings: ModelSettings) -> ImagePart | str:
    """The image at `path` as it is sent (shrunk when the policy asks), or why it cannot
    be sent."""
    problem = image_problem(path, settings.images)
    if problem is not None:
        return problem
    try:
        return settings.image(path)
    except (ImagePolicyError, OSError) as exc:
        return str(exc)
