"""The one table of formal languages (`table.LANGUAGES`) and the questions asked of it:
which language a file is in, which languages there are, and how to read, draw and score
each (`Language`, the protocol every plug-in implements). Everything that needs a
language asks here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from diagbench.languages.record import Category, Domain, Drawn, Language
from diagbench.languages.table import CATEGORIES, DOMAINS, LANGUAGES

if TYPE_CHECKING:
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine

_BY_NAME = {language.name: language for language in LANGUAGES}
_BY_TITLE = {language.title: language for language in LANGUAGES}
_BY_SUFFIX = {suffix: language for language in LANGUAGES for suffix in language.suffixes}
_LONGEST_FIRST = sorted(_BY_SUFFIX, key=len, reverse=True)  # ".rxn.smi" before ".smi"
_CATEGORY = {category.name: category for category in CATEGORIES}
_CATEGORY_BY_TITLE = {category.title: category for category in CATEGORIES}
_DOMAIN = {domain.name: domain for domain in DOMAINS}
[_FALLBACK] = [language for language in LANGUAGES if language.fallback]


def named(name: str) -> Language:
    """The language called `name` (KeyError when there is none)."""
    return _BY_NAME[name]


def titled(title: str) -> Language | None:
    """The language prompts call `title` ("PlantUML"), if any."""
    return _BY_TITLE.get(title)


def names() -> tuple[str, ...]:
    """Every language's name, in table order."""
    return tuple(_BY_NAME)


def _suffix(path: PurePath) -> str | None:
    """The longest language suffix `path`'s name ends with, if any."""
    name = path.name.lower()
    return next((suffix for suffix in _LONGEST_FIRST if name.endswith(suffix)), None)


def detect(path: Path | None, text: str) -> Language:
    """The language of a source: by its file suffix (the longest that fits: ".rxn.smi"
    before ".smi") — unless a language claiming that suffix recognises the text —, else
    the first language that recognises its text, else the table's fallback (the one
    recognising nothing)."""
    suffix = _suffix(path) if path is not None else None
    if suffix is not None:
        return next((language for language in LANGUAGES if suffix in language.claims
                     and language.recognises(text)), _BY_SUFFIX[suffix])
    for language in LANGUAGES:
        if language.recognises(text):
            return language
    return _FALLBACK


def has_suffix(path: PurePath) -> bool:
    """Whether `path` has the suffix of a language of the table."""
    return _suffix(path) is not None


def diagram_files(folder: Path) -> list[Path]:
    """The files under `folder` with a language's suffix, sorted."""
    return sorted(p for p in folder.rglob("*") if p.is_file() and has_suffix(p))


def unclaimed_files(paths: list[Path]) -> list[Path]:
    """The files under the directories named that no language's suffix claims (hidden
    ones left out), sorted."""
    return sorted(p for path in paths if path.is_dir() for p in path.rglob("*")
                  if p.is_file() and not has_suffix(p)
                  and not any(part.startswith(".") for part in p.relative_to(path).parts))


def source_files(paths: list[Path]) -> list[Path]:
    """The files named, and the diagram files (by suffix) under the directories named."""
    files: list[Path] = []
    for path in paths:
        files += diagram_files(path) if path.is_dir() else [path]
    return files


def drawing(engine: str) -> Language:
    """The first language (in table order) drawn by the engine called `engine`: the one
    that starts it (`Language.make_engine`) for a queue of that engine's sources."""
    return next(language for language in LANGUAGES if language.engine == engine)


def make_engine(engine: str, jobs: int, timeout: float) -> Engine:
    """The engine called `engine`, started by a language it draws."""
    return drawing(engine).make_engine(jobs, timeout)


def read(text: str, name: str) -> Sequence[Parsed[Diagram]]:
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


def domain_of(category_name: str) -> Domain | None:
    """The domain of the category called `category_name` (None for a category the table
    does not have: an imported data set's own)."""
    category = _CATEGORY.get(category_name)
    return None if category is None else _DOMAIN[category.domain]


def domain_titles() -> tuple[str, ...]:
    """Every domain's title (Table 3's columns), in table order."""
    return tuple(domain.title for domain in DOMAINS)


def languages_of(category_name: str) -> tuple[str, ...]:
    """The names of the languages drawn in a category, in table order."""
    return tuple(lang.name for lang in LANGUAGES if category_name in lang.categories)


__all__ = ["CATEGORIES", "DOMAINS", "LANGUAGES", "Category", "Domain", "Drawn", "Language",
           "category_named", "category_names", "category_titled", "detect", "diagram_files",
           "domain_of", "domain_titles", "drawing",
           "has_suffix", "languages_of", "make_engine", "named", "names", "read",
           "source_files", "titled", "unclaimed_files"]
