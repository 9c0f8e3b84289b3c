"""Counting what matplotlib does again, for the tests of the drawing caches."""

from __future__ import annotations

from typing import Any


def counted_outlines(monkeypatch: Any) -> list[str]:
    """The texts matplotlib outlines (`text_to_path.get_text_path`) from now on, in order."""
    from matplotlib.textpath import text_to_path

    outlined: list[str] = []
    real = text_to_path.get_text_path

    def counting(prop: Any, s: str, *args: Any, **kwargs: Any) -> Any:
        outlined.append(s)
        return real(prop, s, *args, **kwargs)

    monkeypatch.setattr(text_to_path, "get_text_path", counting)
    return outlined
