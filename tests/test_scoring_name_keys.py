"""The three name keys, on names where their rules part ways (normal forms written by hand)."""

from __future__ import annotations

import pytest

from diagbench.scoring.name_keys import answer_key, graph_element_key, participant_key

#: name → (answer_key, graph_element_key, participant_key)
CASES = {
    "Golden Retriever": ("goldenretriever", "goldenretriever", "goldenretriever"),
    ' "Order_Item" ': ("orderitem", "orderitem", "orderitem"),
    "(R)AN": ("ran", "ran", "ran"),
    # PlantUML's line break: only the participant key drops its `n`
    "Web\\nServer": ("webnserver", "webnserver", "webserver"),
    # full-width letters: only the graph key reads them as ASCII (NFKC)
    "ＡＰＩ": ("ａｐｉ", "api", "ａｐｉ"),
    # the ﬁ ligature: case folding (and NFKC) split it; lower-casing keeps it
    "ﬁle": ("file", "file", "ﬁle"),
    # ß: case folding makes it ss; lower-casing keeps it
    "Straße": ("strasse", "strasse", "straße"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_key_applies_its_rule(name):
    assert (answer_key(name), graph_element_key(name), participant_key(name)) == CASES[name]
