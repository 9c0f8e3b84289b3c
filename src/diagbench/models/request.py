"""A request to a model, in canonical form: what it asks, not how it is sent.

The cache key is the sha256 of the canonical JSON: provider, base URL, model,
every message (images by the sha256 of their bytes), every generation
parameter (those of `KEY_WHEN_SET` only when set, so that a request without them
keeps the key it had before they existed), and the repeat index when sampling
(temperature > 0). Transport
settings — concurrency, time-outs, retries — are not part of a request.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
from dataclasses import dataclass, field, fields
from pathlib import Path


@dataclass(frozen=True, slots=True)
class TextPart:
    text: str


@dataclass(frozen=True, slots=True)
class ImagePart:
    """Image bytes sent as they are (PNG by default: lossless, diagrams are text)."""

    data: bytes = field(repr=False)
    media_type: str = "image/png"
    path: str | None = None
    original: tuple[int, int, int] | None = None  # (width, height, bytes) before shrinking
    _sha256: str | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def sha256(self) -> str:
        """The sha256 of the bytes, computed once: a part is keyed, cached and described."""
        digest = self._sha256
        if digest is None:
            digest = hashlib.sha256(self.data).hexdigest()
            object.__setattr__(self, "_sha256", digest)
        return digest

    @classmethod
    def from_file(cls, path: Path | str) -> ImagePart:
        p = Path(path)
        media_type = mimetypes.guess_type(p.name)[0] or "application/octet-stream"
        return cls(p.read_bytes(), media_type, str(p))


@dataclass(frozen=True, slots=True)
class Message:
    role: str
    parts: tuple[TextPart | ImagePart, ...]


@dataclass(frozen=True, slots=True)
class GenerationConfig:
    """Generation parameters; temperature 0 by default (benchmarks want the mode)."""

    temperature: float = 0.0
    max_tokens: int = 2048
    seed: int | None = None
    stop: tuple[str, ...] = ()
    reasoning: str | None = None  # provider-specific effort/budget, where one exists
    top_p: float | None = None  # nucleus sampling, where the provider takes it

    def as_dict(self) -> dict[str, object]:
        """Every field by name, in declaration order, tuples as lists (as JSON reads them)."""
        return {name: list(value) if isinstance(value := getattr(self, name), tuple)
                else value for name in _CONFIG_FIELDS}


#: `GenerationConfig`'s field names, looked up once (every request key lists them).
_CONFIG_FIELDS = tuple(f.name for f in fields(GenerationConfig))


#: `GenerationConfig` fields left out of the cache key; only one that cannot change the
#: answer may be listed. Every other field is in the key, new ones included.
KEY_EXCLUDED: frozenset[str] = frozenset()
#: `GenerationConfig` fields in the cache key only when set (not None): added after
#: responses were cached, they leave the keys of requests without them unchanged.
KEY_WHEN_SET: frozenset[str] = frozenset({"top_p"})


@dataclass(frozen=True, slots=True)
class Request:
    provider: str
    model: str
    messages: tuple[Message, ...]
    config: GenerationConfig = GenerationConfig()
    base_url: str | None = None
    repeat: int = 0

    @property
    def system(self) -> str | None:
        """The text of the system messages (providers take it apart from the turns)."""
        texts = [p.text for m in self.messages if m.role == "system" for p in m.parts
                 if isinstance(p, TextPart)]
        return "\n\n".join(texts) if texts else None

    @property
    def turns(self) -> tuple[Message, ...]:
        """The user and assistant messages."""
        return tuple(m for m in self.messages if m.role != "system")

    def canonical(self) -> dict:
        """Everything that determines the answer, images by hash, in a stable order."""
        messages = [{"role": m.role, "parts": [
            {"text": p.text} if isinstance(p, TextPart)
            else {"image_sha256": p.sha256, "media_type": p.media_type} for p in m.parts]}
            for m in self.messages]
        config = {k: v for k, v in self.config.as_dict().items() if k not in KEY_EXCLUDED
                  and (v is not None or k not in KEY_WHEN_SET)}
        return {
            "provider": self.provider, "base_url": self.base_url, "model": self.model,
            "messages": messages, "config": config,
            "repeat": self.repeat if self.config.temperature > 0 else 0,
        }

    def key(self) -> str:
        """sha256 of the canonical JSON: the response cache key."""
        text = json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def user_request(provider: str, model: str, prompt: str, images: tuple[ImagePart, ...] = (),
                 config: GenerationConfig = GenerationConfig(), base_url: str | None = None,
                 repeat: int = 0, system: str | None = None) -> Request:
    """A one-turn request: the images, then the prompt (after a system message, if any)."""
    turn = Message("user", (*images, TextPart(prompt)))
    messages = (Message("system", (TextPart(system),)), turn) if system else (turn,)
    return Request(provider, model, messages, config, base_url, repeat)
