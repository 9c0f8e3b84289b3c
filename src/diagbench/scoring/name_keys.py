"""The keys under which names are compared: one function per rule, named for what it is
for. All three keep only letters and digits (`str.isalnum`); they differ in what they do
first:

- `answer_key` — 𝒩 of paper 002 (002_5b5dbe0a64d59ef2.txt §3.2): a model's answer names
  against the gold names (exact match: case folding, punctuation cleanup).
- `graph_element_key` — the image-to-code score's entity and relation ends
  (`compare.graph`): `answer_key` after Unicode NFKC, so that full-width letters and
  ligatures match their plain forms.
- `participant_key` — the sequence comparison's participant names (`compare.semantic`,
  `compare.elements`): PlantUML's `\\n` line break (backslash, n) dropped whole rather
  than leaving its `n`, and lower-cased (not case-folded: `ß` stays `ß`).
"""

from __future__ import annotations

import re
import unicodedata

_NOT_ALNUM_OR_BREAK = re.compile(r"(?:\\n|[\W_])+")


def answer_key(name: str) -> str:
    """𝒩: case-folded, without spaces or punctuation.

    >>> answer_key("Golden Retriever"), answer_key("golden_retriever")
    ('goldenretriever', 'goldenretriever')
    """
    return "".join(ch for ch in name.casefold() if ch.isalnum())


def graph_element_key(name: str) -> str:
    """A graph element's name as the image-to-code score matches it: NFKC, then
    `answer_key`.

    >>> graph_element_key(' "Order_Item" '), graph_element_key("ＡＰＩ")
    ('orderitem', 'api')
    """
    return answer_key(unicodedata.normalize("NFKC", name))


def participant_key(text: str) -> str:
    """A sequence participant's name as the comparison matches it: lower-case letters and
    digits, a `\\n` line break dropped whole.

    >>> participant_key("(R)AN"), participant_key("Web\\\\nServer")
    ('ran', 'webserver')
    """
    joined = text.replace(" ", "")
    if joined.isalnum():  # the common case, without a regex: `\\w` is alnum or `_`
        return joined.lower()
    return _NOT_ALNUM_OR_BREAK.sub("", text).lower()
