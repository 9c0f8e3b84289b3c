"""The common checks (`diagbench.languages.checks`) on every language of the table, one
test per language and check, and the checks themselves shown to catch what they check."""

from __future__ import annotations

import random
from dataclasses import fields, replace

import pytest

from diagbench.languages import LANGUAGES, named
from diagbench.languages.checks import (
    check_bad_input,
    check_language,
    check_parts,
    check_similarity,
    checks,
)
from diagbench.languages.record import Language


@pytest.mark.parametrize(("language", "check"),
                         [pair for language in LANGUAGES for pair in checks(language)],
                         ids=lambda x: x.name if isinstance(x, Language) else x.__name__)
def test_every_language_passes_every_check(language, check):
    check(language)


def _as(cls: type[Language], language: Language) -> Language:
    """`language`'s fields in an instance of `cls`."""
    return cls(**{f.name: getattr(language, f.name) for f in fields(language)})


class _NoSimilarity(Language):
    """A half-added language: it reads, but has no similarity, drawing or edit."""

    def read(self, text: str):  # type: ignore[override]
        return named("smiles").read(text)


def test_a_half_added_language_is_caught():
    half = _as(_NoSimilarity, named("smiles"))
    with pytest.raises(AssertionError, match="no drawn"):
        check_parts(half)
    with pytest.raises(AssertionError, match="check_parts: no drawn"):
        check_language(half)


class _BlindSmiles(type(named("smiles"))):  # type: ignore[misc]
    """SMILES whose edit changes nothing: its similarity cannot tell the edit apart."""

    def edit(self, code: str, rng: random.Random) -> str | None:
        return code


def test_an_edit_the_similarity_does_not_see_is_caught():
    blind = _as(_BlindSmiles, named("smiles"))
    with pytest.raises(AssertionError, match=r"edited, scores 1\.0"):
        check_similarity(blind, generated=0)


class _RaisingReader(type(named("fasta"))):  # type: ignore[misc]
    def read(self, text: str):
        if len(text) >= 100_000:
            raise RecursionError("maximum recursion depth exceeded")
        return super().read(text)


def test_a_reader_that_raises_is_caught():
    raising = _as(_RaisingReader, named("fasta"))
    with pytest.raises(AssertionError, match="deep nesting: the reader raised RecursionError"):
        check_bad_input(raising)


def test_a_language_is_a_typed_record():
    smiles = named("smiles")
    assert replace(smiles, title="x").title == "x" and type(replace(smiles)) is type(smiles)
