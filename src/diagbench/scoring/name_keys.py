"""The keys under which names are compared: one function per rule, named for what it is
for. All four keep only letters and digits (`str.isalnum`) — `label_key` a sharp sign
too —; they differ in what they do first:

- `answer_key` — 𝒩 of paper 002 (002_5b5dbe0a64d59ef2.txt §3.2): a model's answer names
  against the gold names (exact match: case folding, punctuation cleanup).
- `graph_element_key` — the image-to-code score's entity and relation ends
  (`compare.graph`): `answer_key` after Unicode NFKC, so that full-width letters and
  ligatures match their plain forms.
- `participant_key` — the sequence comparison's participant names (`compare.semantic`,
  `compare.elements`): PlantUML's `\\n` line break (backslash, n) dropped whole rather
  than leaving its `n`, and lower-cased (not case-folded: `ß` stays `ß`).
- `label_key` — a model's text answer against a gold label or name (a note, a key, a
  country, a leaf): NFKD with the accents of Latin letters dropped (`Chișinău` is
  `Chisinau`, `Côte` is `Cote`; ø, ł, đ, ı, æ, œ, þ, ð written as plain letters; other
  scripts' marks kept), `♭` as `b`, `♯` as `#`,
  `𝄪` as `##`, `𝄫` as `bb`, a note letter followed by the word "sharp" or "flat" as
  `C#` or `Cb`, then case folding; a `#` right after a letter or another `#` is kept
  (`F#4` is not `F4`, `C#` not `C`), any other `#` dropped (`Node #3` is `Node 3`).
"""

from __future__ import annotations

import re
import unicodedata

_NOT_ALNUM_OR_BREAK = re.compile(r"(?:\\n|[\W_])+")
#: Letters NFKD leaves whole, as plain letters; the accidentals as letters and signs.
_PLAIN = str.maketrans({"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D",
                        "ı": "i", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "þ": "th",
                        "Þ": "Th", "ð": "d", "Ð": "D", "♭": "b", "♯": "#", "𝄪": "##",
                        "𝄫": "bb"})
_NAMED_ACCIDENTAL = re.compile(r"\b([A-Ga-g])[\s-]*(sharp|flat)\b", re.I)


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


def _unaccented(decomposed: str) -> str:
    """`decomposed` (NFKD) without the accents of Latin letters; the marks of other
    scripts are kept (Japanese が is not か)."""
    out: list[str] = []
    base = ""
    for ch in decomposed:
        if not unicodedata.combining(ch):
            base = ch
        elif base.isascii() and base.isalpha():
            continue
        out.append(ch)
    return "".join(out)


def label_key(text: str) -> str:
    """A text answer or gold label as the label reader compares them (see the module's
    docstring).

    >>> label_key("E♭5"), label_key("F sharp minor"), label_key("Côte d'Ivoire")
    ('eb5', 'f#minor', 'cotedivoire')
    """
    plain = unicodedata.normalize("NFC", _unaccented(unicodedata.normalize("NFKD", text))
                                  ).translate(_PLAIN)
    plain = _NAMED_ACCIDENTAL.sub(
        lambda m: m.group(1) + ("#" if m.group(2).lower() == "sharp" else "b"), plain)
    folded = plain.casefold()
    return "".join(ch for k, ch in enumerate(folded) if ch.isalnum() or (
        ch == "#" and k > 0 and (folded[k - 1].isalpha() or folded[k - 1] == "#")))


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
