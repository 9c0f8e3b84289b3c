"""Label answers keep their meaning: sharps and flats are part of a note or a key,
accents are folded, and a country named another accepted way is the same country.
Every pair below is judged by hand."""

from __future__ import annotations

import pytest

from diagbench.benchmarks.structure.scoring import read_answer
from diagbench.scoring.country_names import COUNTRY_NAMES, country_key
from diagbench.scoring.labels import labels_match
from diagbench.scoring.name_keys import label_key

SAME = [
    # flats and sharps written with signs, letters or words
    ("Eb5", "E♭5"), ("F#4", "F♯4"), ("F# minor", "F♯ minor"), ("Bb major", "B flat major"),
    ("Bb major", "B-flat major"), ("F# minor", "F sharp minor"), ("C##4", "C𝄪4"),
    ("F4", "F♮4"),
    # accents folded, case and punctuation as before
    ("Chișinău", "Chisinau"), ("Côte d'Ivoire", "Cote d'Ivoire"), ("Reykjavík", "reykjavik"),
    ("São Tomé", "Sao Tome"), ("Việt Nam", "Viet Nam"), ("Øresund", "Oresund"),
    ("Łódź", "Lodz"), ("Straße", "strasse"),
    ("Order Service", "order_service"), ("ＡＰＩ", "API"), ("Node #3", "Node 3"),
    ("+7", "7"),
    # countries
    ("United States", "USA"), ("United States", "United States of America"),
    ("United States of America", "U.S."), ("Czech Republic", "Czechia"),
    ("Russia", "Russian Federation"), ("The Bahamas", "Bahamas"),
    ("Côte d'Ivoire", "Ivory Coast"), ("Ivory Coast", "Cote d'Ivoire"),
    ("United Kingdom", "UK"), ("Turkey", "Türkiye"), ("Eswatini", "Swaziland"),
    ("Dem. Rep. Congo", "Democratic Republic of the Congo"), ("Congo", "Republic of the Congo"),
    ("Myanmar", "Burma"), ("Netherlands", "The Netherlands"), ("Gambia", "The Gambia"),
    ("Bosnia and Herzegovina", "Bosnia & Herzegovina"), ("Viet Nam", "Vietnam"),
]
DIFFERENT = [
    ("F#4", "F4"), ("F# minor", "F minor"), ("Eb5", "E5"), ("C#", "C"), ("Bb major", "B major"),
    ("F##4", "F#4"), ("Niger", "Nigeria"), ("Guinea", "Equatorial Guinea"),
    ("Democratic Republic of the Congo", "Republic of the Congo"),
    ("DR Congo", "Congo"), ("North Korea", "South Korea"), ("Sudan", "South Sudan"),
    ("Austria", "Australia"), ("Slovakia", "Slovenia"), ("Dominica", "Dominican Republic"),
    # only Latin letters lose their accents: Japanese が (ga) is not か (ka)
    ("が", "か"),
]


@pytest.mark.parametrize(("gold", "answer"), SAME + [(b, a) for a, b in SAME])
def test_same_label(gold, answer):
    assert labels_match(answer, gold)


@pytest.mark.parametrize(("gold", "answer"), DIFFERENT + [(b, a) for a, b in DIFFERENT])
def test_different_label(gold, answer):
    assert not labels_match(answer, gold)


@pytest.mark.parametrize(("text", "key"), [
    ("F#4", "f#4"), ("E♭5", "eb5"), ("F sharp minor", "f#minor"), ("Chișinău", "chisinau"),
    ("Node #3", "node3"), ("C#", "c#"), ("# of items", "ofitems"),
])
def test_label_keys(text, key):
    assert label_key(text) == key


def test_an_alias_needs_a_country_gold():
    # "US" and "UK" are names of countries only where the gold is that country
    assert not labels_match("US", "Uruguay")
    assert not labels_match("UK", "Ukraine")
    assert not labels_match("Holland", "Holland Street")


def test_no_name_belongs_to_two_countries():
    seen: dict[str, str] = {}
    for code, names in COUNTRY_NAMES.items():
        for name in names:
            assert seen.setdefault(country_key(name), code) == code, name


@pytest.mark.parametrize(("gold", "answer", "right"), [
    ("F#4", "F4", False), ("F#4", "**F♯4**", True), ("Eb5", "Answer: E♭5", True),
    ("United States", "USA.", True), ("Chișinău", "Chisinau", True),
    ("Czech Republic", "Czechia", True), ("Niger", "Nigeria", False),
])
def test_structure_reads_labels_with_these_keys(gold, answer, right):
    assert read_answer("model_question", answer, gold, "label")[2] is right
