"""Planted mutations with exact expected counts (semantic method), on real diagrams
nobody here wrote and on the bundled call flows."""

from __future__ import annotations

import pytest

from diagbench.compare.counts import COMPONENTS
from diagbench.compare.pair import compare_scripts
from diagbench.formats.plantuml import parse_sequence
from tests.conftest import REPO, realworld_files
from tests.mutations import MUTATIONS


def _gold_diagrams() -> list[tuple[str, str]]:
    """(name, text) of every single-diagram sequence script with no errors."""
    paths = realworld_files() + sorted((REPO / "examples" / "callflows" / "gold").glob("*.puml"))
    out = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        parsed = parse_sequence(text)
        if len(parsed) == 1 and parsed[0].kind == "sequence" and not parsed[0].errors \
                and parsed[0].diagram.messages:
            out.append((path.name, text))
    return out


GOLD = _gold_diagrams()


def _observed(result) -> dict[str, tuple[int, int, int]]:
    return {name: (c.insertion, c.deletion, c.substitution)
            for name, c in result.components.items() if c.errors}


def test_enough_real_diagrams():
    assert len(GOLD) >= 60


def test_identity_gives_zero_errors_and_perfect_ordering():
    for name, text in GOLD:
        result = compare_scripts(text, text)
        assert _observed(result) == {}, name
        assert result.ordering.score == 1.0, name
        assert result.normalizations == [], name


@pytest.mark.parametrize(("label", "mutate", "expected"), MUTATIONS,
                         ids=[m[0] for m in MUTATIONS])
def test_planted_mutation_gives_exact_counts(label, mutate, expected):
    applied, wrong = 0, []
    for name, text in GOLD:
        [parsed] = parse_sequence(text)
        mutated = mutate(text, parsed.diagram)
        if mutated is None:
            continue
        applied += 1
        result = compare_scripts(text, mutated)
        got = _observed(result)
        if got != expected:
            wrong.append((name, got))
        if label == "swap adjacent messages" and not result.ordering.score < 1.0:
            wrong.append((name, "ordering", result.ordering.score))
    assert applied >= 5, f"{label} applied to only {applied} diagrams"
    assert wrong == []


def test_components_are_the_papers():
    assert COMPONENTS == ("participant", "node", "edge_direction", "edge_type", "message",
                          "note", "group", "box")


@pytest.mark.parametrize("name", ["sms_over_nas.puml", "xn_handover.puml"])
def test_a_participant_hide_unlinked_does_not_draw_is_no_error(name):
    """A prediction that declares a participant nothing uses is compared as PlantUML draws
    it: under `hide unlinked` there is no such participant; without it, one insertion."""
    gold = (REPO / "examples" / "callflows" / "gold" / name).read_text(encoding="utf-8")
    extra = gold.replace("@enduml", "participant Unused\n@enduml")
    assert _observed(compare_scripts(gold, extra, "semantic")) == {"participant": (1, 0, 0)}
    hidden = gold.replace("@enduml", "participant Unused\nhide unlinked\n@enduml")
    assert _observed(compare_scripts(gold, hidden, "semantic")) == {}
    assert _observed(compare_scripts(hidden, gold, "semantic")) == {}
