"""Label normalisation: `\\n` and runs of white space fold to one space, ends trimmed."""

from __future__ import annotations

import pytest

from diagbench.compare.text import normalize_label, normalize_labels

CASES = [
    ("13. Attach Request\\n(id 7)", "13. Attach Request (id 7)"),
    ("  padded  ", "padded"),
    ("two  spaces\tand a tab", "two spaces and a tab"),
    ("non\u00a0breaking\\n\\nspace", "non breaking space"),
    ("", ""),
    ("a `quoted` word", "a `quoted` word"),
    ("ends with \\", "ends with \\"),
    # one white space character that is not a space, and nothing for the slow path to see
    ("non\u00a0breaking", "non breaking"),
    ("form\ffeed", "form feed"),
    ("line\u2028separator", "line separator"),
    ("vertical\vtab ", "vertical tab"),
    ("\u3000ideographic", "ideographic"),
]


@pytest.mark.parametrize(("raw", "normal"), CASES)
def test_one_label(raw, normal):
    assert normalize_label(raw) == normal


def test_every_white_space_character_folds_alone():
    """Each character `str.isspace` calls white space, alone between two words, folds to
    one space (the documented rule: runs of white space fold to one space)."""
    spaces = [chr(c) for c in range(0x3001) if chr(c).isspace()]
    assert len(spaces) > 20
    assert [normalize_label(f"a{c}b") for c in spaces] == ["a b"] * len(spaces)
    assert normalize_labels([f"a{c}b" for c in spaces]) == ["a b"] * len(spaces)


def test_labels_at_once_read_as_one_by_one():
    raws = [raw for raw, _ in CASES]
    assert normalize_labels(raws) == [normal for _, normal in CASES]
    # the one-pass case: only single spaces once \n is read as a space
    assert normalize_labels(["A\\nB", " x", "y ", ""]) == ["A B", "x", "y", ""]
    # a label ending in a backslash next to one starting with n is no \n
    assert normalize_labels(["a\\", "n b"]) == ["a\\", "n b"]
    assert normalize_labels([]) == []
