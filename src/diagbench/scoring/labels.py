"""Whether a text answer names its gold label: the same under `name_keys.label_key`
(case, spaces, punctuation and accents folded; sharps and flats kept), or — where the
gold is a country — another name of that country (`country_names`).

>>> labels_match("Eb5", "E♭5"), labels_match("F4", "F#4"), labels_match("USA", "United States")
(True, False, True)
"""

from __future__ import annotations

from diagbench.scoring.country_names import same_country
from diagbench.scoring.name_keys import label_key


def labels_match(answer: str, gold: str) -> bool:
    """Whether `answer` states the label `gold` (see the module's docstring)."""
    return label_key(answer) == label_key(gold) or same_country(answer, gold)
