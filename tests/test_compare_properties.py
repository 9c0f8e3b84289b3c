"""Properties: a script compared with itself, or with a rewrite of itself, has no errors."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from diagbench.compare.pair import compare_scripts
from diagbench.formats.plantuml import parse_sequence
from diagbench.formats.plantuml.sequence_writer import write_sequence
from tests.conftest import realworld_files
from tests.sizes import sized
from tests.test_sequence_properties import statements


def _errors(result) -> dict:
    return {k: c.errors for k, c in result.components.items() if c.errors}


def test_every_real_file_against_itself_is_all_zeros_by_both_methods():
    for path in realworld_files():
        text = path.read_text(encoding="utf-8")
        semantic = compare_scripts(text, text, "semantic")
        diff = compare_scripts(text, text, "diff")
        assert _errors(semantic) == {} == _errors(diff), path
        assert semantic.ordering.score == diff.ordering.score == 1.0, path
        assert ({k: c.gold for k, c in semantic.components.items()}
                == {k: c.gold for k, c in diff.components.items()}), path


def test_rewritten_real_diagrams_have_no_semantic_errors():
    """The writer's formatting (quoting, spacing, inline declarations) is no error."""
    for path in realworld_files():
        text = path.read_text(encoding="utf-8")
        parsed = parse_sequence(text)
        if len(parsed) != 1 or parsed[0].kind != "sequence":
            continue
        rewritten = write_sequence(parsed[0].diagram)
        assert _errors(compare_scripts(text, rewritten)) == {}, path


@settings(max_examples=sized(150, 750), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(statements.map(lambda parts: parts))
def test_random_diagram_against_itself(parts):
    text = "@startuml\n" + "\n".join(parts) + "\n@enduml\n"
    for method in ("semantic", "diff"):
        result = compare_scripts(text, text, method)
        assert _errors(result) == {}
        assert result.ordering.score == 1.0
