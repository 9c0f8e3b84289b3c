"""Label normalisation and similarity shared by both comparison methods (names are
compared under `scoring.name_keys.participant_key`)."""

from __future__ import annotations

from rapidfuzz.distance import Levenshtein


def normalize_label(text: str) -> str:
    """A label with `\\n` and runs of white space folded to one space, trimmed."""
    # = re.sub(r"(?:\\n|\s)+", " ", text).strip(): `\s` and str.split() mean the same
    # white space (str.isspace), and every white space character but the space is
    # unprintable, so a printable text without two spaces in a row only needs trimming
    if "\\" in text:
        text = text.replace("\\n", " ")
    if text.isprintable() and "  " not in text:
        return text.strip()  # the common case, without splitting
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


def similarity(a: str, b: str) -> float:
    """1 − normalised Levenshtein distance (1.0 for two empty strings)."""
    return Levenshtein.normalized_similarity(a, b)


def distance(a: str, b: str) -> int:
    """The Levenshtein distance of two strings."""
    return Levenshtein.distance(a, b)
