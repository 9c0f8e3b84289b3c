"""The one table of formal languages (`table.LANGUAGES`) and the questions asked of it:
which language a file is in, which languages there are, and how to read, draw and score
each. Everything that needs a language asks here; the parts themselves live in
`formats`, `render` and `compare`, imported when first used.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from diagbench.languages.record import Category, Language
from diagbench.languages.table import CATEGORIES, LANGUAGES

if TYPE_CHECKING:
    from diagbench.formats.parsed import Diagram, Parsed

_BY_NAME = {language.name: language for language in LANGUAGES}
_BY_TITLE = {language.title: language for language in LANGUAGES}
_BY_SUFFIX = {suffix: language for language in LANGUAGES for suffix in language.suffixes}
_LONGEST_FIRST = sorted(_BY_SUFFIX, key=len, reverse=True)  # ".rxn.smi" before ".smi"
_CATEGORY = {category.name: category for category in CATEGORIES}
_CATEGORY_BY_TITLE = {category.title: category for category in CATEGORIES}
[_FALLBACK] = [language for language in LANGUAGES if language.recognises is None]


def named(name: str) -> Language:
    """The language called `name` (KeyError when there is none)."""
    return _BY_NAME[name]


def titled(title: str) -> Language | None:
    """The language prompts call `title` ("PlantUML"), if any."""
    return _BY_TITLE.get(title)


def names() -> tuple[str, ...]:
    """Every language's name, in table order."""
    return tuple(_BY_NAME)


def _suffix(path: Path) -> str | None:
    """The longest language suffix `path`'s name ends with, if any."""
    name = path.name.lower()
    return next((suffix for suffix in _LONGEST_FIRST if name.endswith(suffix)), None)


def detect(path: Path | None, text: str) -> Language:
    """The language of a source: by its file suffix (the longest that fits: ".rxn.smi"
    before ".smi"), else the first language that recognises its text, else the table's
    fallback (the one recognising nothing)."""
    suffix = _suffix(path) if path is not None else None
    if suffix is not None:
        return _BY_SUFFIX[suffix]
    for language in LANGUAGES:
        if language.recognises is not None and language.recognises(text):
            return language
    return _FALLBACK


def has_suffix(path: Path) -> bool:
    """Whether `path` has the suffix of a language of the table."""
    return _suffix(path) is not None


def diagram_files(folder: Path) -> list[Path]:
    """The files under `folder` with a language's suffix, sorted."""
    return sorted(p for p in folder.rglob("*") if p.is_file() and has_suffix(p))


def source_files(paths: list[Path]) -> list[Path]:
    """The files named, and the diagram files (by suffix) under the directories named."""
    files: list[Path] = []
    for path in paths:
        files += diagram_files(path) if path.is_dir() else [path]
    return files


def engine_of(path: Path, text: str) -> str:
    """The name of the engine that draws a source (its language's)."""
    return detect(path, text).engine


def drawn_by(engine: str, svg: str) -> dict[str, Any] | None:
    """What `engine` drew in `svg` by its language's own statistics, for the engines of
    the science domains; None for the software engines (their drawings are read by
    `render.graph_svg` and `render.svg_stats`)."""
    for language in LANGUAGES:
        if language.engine == engine and language.domain != "software":
            return dict(language.drawn(svg))
    return None


def read(text: str, name: str) -> list[Parsed[Diagram]]:
    """Every diagram of `text` read as the language called `name`."""
    return named(name).read(text)


def category_named(name: str) -> Category:
    """The category called `name` (KeyError when there is none)."""
    return _CATEGORY[name]


def category_titled(title: str) -> Category | None:
    """The category prompts call `title` ("UML class diagram"), if any."""
    return _CATEGORY_BY_TITLE.get(title)


def category_names() -> tuple[str, ...]:
    """Every category's name, in table order."""
    return tuple(_CATEGORY)


def languages_of(category_name: str) -> tuple[str, ...]:
    """The names of the languages drawn in a category, in table order."""
    return tuple(lang.name for lang in LANGUAGES if category_name in lang.categories)


__all__ = ["CATEGORIES", "LANGUAGES", "Category", "Language", "category_named", "category_names",
           "category_titled", "detect", "diagram_files", "engine_of", "has_suffix", "languages_of",
           "named", "names", "read", "source_files", "titled"]
