"""A reasoning model's thinking kept apart from its answer.

Providers return it in a field of its own (OpenAI-compatible servers: the message's
`reasoning_content` — vLLM's and DeepSeek's reasoning parsers — or `reasoning`;
Anthropic: `thinking` blocks; Gemini: parts marked `thought`), or inside the text as
`<think>…</think>` (open models served without a reasoning parser; the opening tag is
sometimes left out, the chat template having written it). `split_thinking` takes the
tags out of the text, so that every benchmark reads the answer alone.
"""

from __future__ import annotations

import re

_OPEN = re.compile(r"^\s*<think>", re.I)
_CLOSE = re.compile(r"</think>", re.I)


def split_thinking(text: str) -> tuple[str, str | None]:
    """(answer, thinking) of a text: the thinking before the last `</think>` (its
    `<think>` optional), or after a `<think>` never closed (the answer is then empty: the
    model ran out of tokens while thinking); (text, None) without tags.

    >>> split_thinking("<think>2 boxes, 1 arrow</think>\\n\\nAnswer: 2")
    ('Answer: 2', '2 boxes, 1 arrow')
    >>> split_thinking("counting…</think>3")
    ('3', 'counting…')
    >>> split_thinking("<think>still counting")
    ('', 'still counting')
    >>> split_thinking("Answer: 4")
    ('Answer: 4', None)
    """
    closes = list(_CLOSE.finditer(text))
    if closes:
        last = closes[-1]
        thinking = _OPEN.sub("", text[:last.start()], count=1).strip()
        return text[last.end():].strip(), thinking or None
    opened = _OPEN.match(text)
    if opened:
        return "", text[opened.end():].strip() or None
    return text, None


def joined(*parts: str | None) -> str | None:
    """The thinking of several fields or blocks, in order (None when there is none)."""
    kept = [p.strip() for p in parts if p and p.strip()]
    return "\n\n".join(kept) or None
