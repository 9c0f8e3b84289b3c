"""Hostile input, checked continuously (issue 32, item 6): for every language of the
table, real files and the bundled examples, mutated by a seeded generator (lines
dropped, doubled, swapped, joined, cut short; hostile characters inserted), are read
without an exception, and every diagnostic names a line of the text and a reason.

Bounded by `tests/sizes.py` (mutations per language); the seed is fixed, so a red run
repeats. A new language of the table is fuzzed without touching this file."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from diagbench.languages import LANGUAGES
from diagbench.languages.record import Language
from tests.conftest import REALWORLD
from tests.sizes import sized

MUTATIONS = sized(40, 400)
SEEDS_PER_LANGUAGE = sized(6, 30)
HOSTILE = ['"', "'", "{", "}", "[", "]", "(", ")", "<", ">", "-", "|", ":", ";", "#", "@",
           "\\", "\t", "\x00", "\u00e9", "\u200b", "\U0001f600", "\r", "%", "/*", "*/",
           "-->", "==", "<<", ">>", "`"]


def _seeds(language: Language) -> list[tuple[str, str]]:
    """(name, text) of the language's examples and of real files with its suffixes."""
    real = sorted(p for p in REALWORLD.rglob("*")
                  if p.is_file() and p.suffix.lower() in language.suffixes)
    step = max(1, len(real) // SEEDS_PER_LANGUAGE)
    chosen = [*language.example_paths(), *real[::step][:SEEDS_PER_LANGUAGE]]
    return [(p.name, p.read_text(encoding="utf-8", errors="replace")) for p in chosen]


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits of `text`, by line or by character."""
    lines = text.splitlines(keepends=True) or [""]
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(len(lines))
        edit = rng.randrange(7)
        if edit == 0 and len(lines) > 1:
            del lines[k]
        elif edit == 1:
            lines.insert(k, lines[k])
        elif edit == 2:
            j = rng.randrange(len(lines))
            lines[k], lines[j] = lines[j], lines[k]
        elif edit == 3 and k + 1 < len(lines):
            lines[k:k + 2] = [lines[k].rstrip("\n") + lines[k + 1]]
        elif edit == 4:
            lines = [*lines[:k], lines[k][:rng.randrange(len(lines[k]) + 1)]]
        else:
            at = rng.randrange(len(lines[k]) + 1)
            noise = "".join(rng.choice(HOSTILE) for _ in range(rng.randint(1, 4)))
            lines[k] = lines[k][:at] + noise + lines[k][at:]
        lines = lines or [""]
    return "".join(lines)


@pytest.mark.differential
@pytest.mark.parametrize("language", LANGUAGES, ids=lambda x: x.name)
def test_mutated_files_read_without_exception_and_diagnostics_name_a_line(language: Language):
    seeds = _seeds(language)
    assert seeds, f"no files to fuzz {language.name} with"
    rng = random.Random(f"fuzz:{language.name}")
    with_errors = 0
    for n in range(MUTATIONS):
        name, seed = seeds[n % len(seeds)]
        text = mutate(seed, rng)
        try:
            parsed = language.read(text)
        except Exception as exc:  # the property under test: readers never raise
            pytest.fail(f"{language.name} raised {type(exc).__name__}: {exc} on a mutation "
                        f"of {name}:\n{text}")
        # a lone carriage return ends a line too, for the engines and for splitlines
        last_line = max(text.count("\n"), len(text.splitlines())) + 1
        for p in parsed:
            for d in p.diagnostics:
                assert 1 <= d.line <= last_line + 1 and d.reason.strip(), (name, d, text)
        with_errors += any(p.errors for p in parsed)
    assert with_errors, f"no mutation of {language.name} was found wrong: mutations too weak"


def test_mutations_are_edits_of_the_seed():
    rng = random.Random(3)
    seed = "line one\nline two\nline three\n"
    texts = {mutate(seed, rng) for _ in range(50)}
    assert seed not in texts or len(texts) > 1
    assert len(texts) > 20  # varied
    assert all(isinstance(t, str) for t in texts)


def test_seeds_come_from_examples_and_real_files():
    names = {name for language in LANGUAGES for name, _ in _seeds(language)}
    examples = {Path(e).name for language in LANGUAGES for e in language.examples}
    assert examples <= names and len(names) > len(examples)
