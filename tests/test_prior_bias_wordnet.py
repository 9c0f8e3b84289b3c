"""Widening the prior-bias vocabulary from WordNet (Debian's wordnet-base, installed by
scripts/setup.sh)."""

from __future__ import annotations

import re

import pytest

from diagbench.benchmarks.prior_bias.vocabulary import load_vocabulary
from diagbench.benchmarks.prior_bias.wordnet import WORDNET_DIR, WordNetError, wordnet_chains

pytestmark = pytest.mark.skipif(not (WORDNET_DIR / "data.noun").is_file(),
                                reason="needs Debian's wordnet-base")


@pytest.fixture(scope="module")
def chains():
    return wordnet_chains()


def test_common_facts_come_out_in_uml_direction(chains):
    assert ["Dog", "Mammal"] in chains["inheritance"]
    assert ["Car", "Vehicle", "Transport", "Instrumentation"] in chains["inheritance"]
    assert ["Body", "Head"] in chains["composition"]  # whole → part
    assert ["Herd", "Sheep"] in chains["aggregation"]  # group → member
    assert chains["dependency"] == []  # WordNet has none


def test_parts_are_inherited_down_the_wholes_hyponyms(chains):
    composition = {tuple(c) for c in chains["composition"]}
    assert ("Plane", "Windshield") in composition  # WordNet's own part meronym
    assert {("Jet", "Windshield"), ("Bomber", "Cockpit")} <= composition  # kinds of plane
    assert ("Windshield", "Jet") not in composition


def test_curated_groups_reach_the_paper_sizes(chains):
    widened = load_vocabulary(extra=chains)  # Table 1's largest named cells, one pair each
    wanted = {"aggregation": 1200, "composition": 1200, "dependency": 1300,
              "inheritance": 2300}
    assert all(len(widened.pairs[r]) >= n for r, n in wanted.items())
    assert widened.prior("dependency", "Chef", "Knife") is True
    assert widened.prior("aggregation", "Book", "Library") is False


def test_names_are_camel_case_and_chains_do_not_repeat(chains):
    for relation, found in chains.items():
        for chain in found:
            assert all(re.fullmatch(r"(?:[A-Z][a-z]+)+", name) for name in chain), chain
            assert len(set(chain)) == len(chain) >= 2, (relation, chain)


def test_widened_vocabulary(chains):
    curated, widened = load_vocabulary(), load_vocabulary(extra=chains)
    assert len(widened.pairs["inheritance"]) > 5 * len(curated.pairs["inheritance"])
    assert len(widened.pairs["composition"]) > 2 * len(curated.pairs["composition"])
    assert widened.pairs["dependency"] == curated.pairs["dependency"]
    assert widened.sha256 != curated.sha256
    assert widened.prior("inheritance", "Dog", "Mammal") is True


def test_missing_wordnet_is_a_clear_error(tmp_path):
    with pytest.raises(WordNetError, match="apt-get install wordnet-base"):
        wordnet_chains(tmp_path)
