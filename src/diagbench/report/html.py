"""A static HTML report: one self-contained page that opens offline, with its PNG plots
beside it. Every text put in is escaped."""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 80rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f0f0f4; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.85rem; color: #555; }
details { margin: 0.3rem 0; }
.pair { display: flex; gap: 1rem; align-items: flex-start; }
.pair figure { flex: 1; }
.note { color: #555; font-size: 0.9rem; }
"""


#: A table to show: its caption, its header and its rows (cells escaped when shown).
Table = tuple[str, Sequence[str], Sequence[Sequence[object]]]


class HtmlReport:
    """Build the page piece by piece, then `write` it."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.parts: list[str] = [f"<h1>{html.escape(title)}</h1>"]

    def heading(self, text: str, level: int = 2) -> None:
        self.parts.append(f"<h{level}>{html.escape(text)}</h{level}>")

    def paragraph(self, text: str, note: bool = False) -> None:
        cls = ' class="note"' if note else ""
        self.parts.append(f"<p{cls}>{html.escape(text)}</p>")

    def table(self, header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
        self.parts.append(_table(header, rows))

    def figure(self, src: str, caption: str) -> None:
        self.parts.append(_figure(src, caption))

    def details(self, summary: str, items: Sequence[str], images: Sequence[tuple[str, str]] = (),
                tables: Sequence[Table] = ()) -> None:
        """A collapsed section: images side by side (src, caption), a list of items, then
        tables (caption, header, rows)."""
        pair = "".join(_figure(src, caption) for src, caption in images)
        listing = "".join(f"<li>{html.escape(item)}</li>" for item in items)
        shown = "".join(f'<p class="note">{html.escape(caption)}</p>{_table(header, rows)}'
                        for caption, header, rows in tables)
        self.parts.append(f"<details><summary>{html.escape(summary)}</summary>"
                          f'<div class="pair">{pair}</div><ul>{listing}</ul>{shown}</details>')

    def page(self) -> str:
        """The whole page."""
        return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
                f"<title>{html.escape(self.title)}</title><style>{_STYLE}</style></head>"
                f"<body>\n" + "\n".join(self.parts) + "\n</body></html>\n")

    def write(self, path: Path) -> Path:
        path.write_text(self.page(), encoding="utf-8")
        return path


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_cell(c))}</td>" for c in row)
                   + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _figure(src: str, caption: str) -> str:
    return (f'<figure><img src="{html.escape(src, quote=True)}" alt="{html.escape(caption)}" '
            f'loading="lazy"><figcaption>{html.escape(caption)}</figcaption></figure>')


def _cell(value: object) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)
