"""Text normalisation and similarity shared by both comparison methods."""

from __future__ import annotations

import re

from rapidfuzz.distance import Levenshtein

_NOT_ALNUM = re.compile(r"(?:\\n|[\W_])+")


def normalize_label(text: str) -> str:
    """A label with `\\n` and runs of white space folded to one space, trimmed."""
    if "\\" not in text and "  " not in text and "\t" not in text and "\r" not in text:
        return text.strip()  # the common case, without a regex
    # = re.sub(r"(?:\\n|\s)+", " ", text).strip(): `\s` and str.split() mean the same
    # white space (str.isspace)
    text = text.replace("\\n", " ")
    if text.isprintable() and "  " not in text:  # no white space but single spaces
        return text.strip()
    return " ".join(text.split())


#: Joins the labels `normalize_labels` normalises at once (printable: see there; a label
#: holding it is normalised on its own).
_JOINER = "`"


def normalize_labels(texts: list[str]) -> list[str]:
    """`normalize_label` of each text: in one pass over them all when, with `\\n` read as a
    space, they hold no white space but single spaces (then each one is only trimmed)."""
    if not texts:
        return []
    joined = _JOINER.join(texts).replace("\\n", " ")
    if (joined.isprintable() and "  " not in joined
            and joined.count(_JOINER) == len(texts) - 1):
        return [text.strip() for text in joined.split(_JOINER)]
    return list(map(normalize_label, texts))


def normalize_name(text: str) -> str:
    """A participant name reduced to lower-case letters and digits (`(R)AN` → `ran`)."""
    joined = text.replace(" ", "")
    if joined.isalnum():  # the common case, without a regex: `\w` is alnum or `_`
        return joined.lower()
    return _NOT_ALNUM.sub("", text).lower()


def similarity(a: str, b: str) -> float:
    """1 − normalised Levenshtein distance (1.0 for two empty strings)."""
    return Levenshtein.normalized_similarity(a, b)


def distance(a: str, b: str) -> int:
    """The Levenshtein distance of two strings."""
    return Levenshtein.distance(a, b)
