"""What a model call returned: the answer, or the error that ended it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields


@dataclass(slots=True)
class Usage:
    """Tokens of one call. `output_tokens` are all the completion tokens, reasoning
    included, as OpenAI and Anthropic count them and as they are billed (Gemini reports
    its thinking tokens apart: the adapter adds them); `reasoning_tokens` is the part of
    them spent reasoning, where the provider says (0 where it does not)."""

    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0


@dataclass(slots=True)
class Response:
    """`status` is "ok" or "error"; an error keeps its reason and never has text.
    `reasoning` is a reasoning model's thinking, kept apart from the answer `text`
    (`diagbench.models.reasoning`)."""

    status: str
    text: str | None = None
    finish_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    latency: float = 0.0
    served_model: str | None = None
    error: str | None = None
    attempts: int = 1
    reasoning: str | None = None

    @classmethod
    def failed(cls, reason: str, attempts: int, latency: float) -> Response:
        return cls("error", error=reason, attempts=attempts, latency=latency)

    @classmethod
    def from_dict(cls, record: dict) -> Response:
        """The response within a record (`as_dict` plus any other keys)."""
        values = {f.name: record[f.name] for f in fields(cls) if f.name in record}
        return cls(**values | {"usage": Usage(**record.get("usage", {}))})

    def as_dict(self) -> dict:
        return asdict(self)
