"""Taking the PlantUML script out of messy model answers."""

from __future__ import annotations

import pytest

from diagbench.scoring.code_block import extract_plantuml

SCRIPT = "@startuml\nA -> B : hi\nB --> A : ok\n@enduml\n"
BODY = "A -> B : hi\nB --> A : ok"

CASES = [
    # (answer, expected script, expected notes)
    (SCRIPT, SCRIPT, ()),
    (f"Sure! Here is the script:\n```plantuml\n{SCRIPT}```\nLet me know if it helps.", SCRIPT, ()),
    (f"~~~puml\n{SCRIPT}~~~", SCRIPT, ()),
    (f"````\n{SCRIPT}````", SCRIPT, ()),
    (f"Explanation first.\n{SCRIPT}And a closing remark.", SCRIPT, ()),
    (f"Inline @startuml\n{BODY}\n@enduml and more prose", SCRIPT, ()),
    ("Draft:\n```\n@startuml\nA -> C\n@enduml\n```\nCorrected:\n```plantuml\n"
     f"{SCRIPT}```", SCRIPT, ("2 code blocks holding @startuml: took the last",)),
    (f"```python\nprint(1)\n```\n```plantuml\n{BODY}\n```", SCRIPT,
     ("@startuml missing: added", "@enduml missing: added")),
    (f"```\n{BODY}\n```", SCRIPT, ("@startuml missing: added", "@enduml missing: added")),
    (f"```plantuml\n@startuml\n{BODY}", SCRIPT,
     ("the code block is not closed: the answer was cut short", "@enduml missing: added")),
    (f"@startuml\n{BODY}\n", SCRIPT, ("@enduml missing: added",)),
    ("Step 1: participants A and B.\n@startuml\nA -> C\n@enduml\nFinal:\n" + SCRIPT, SCRIPT,
     ("2 @startuml lines: took the last",)),
]


@pytest.mark.parametrize(("answer", "script", "notes"), CASES)
def test_script_is_found(answer, script, notes):
    found = extract_plantuml(answer)
    assert found.script == script
    assert found.notes == notes
    assert found.reason is None


@pytest.mark.parametrize(("answer", "reason"), [
    ("", "the answer is empty"),
    (None, "the answer is empty"),
    ("I am sorry, I cannot read this image.",
     "no PlantUML in the answer (no @startuml and no code block)"),
    ("```python\nprint('hello')\n```",
     "no PlantUML in the answer (code blocks but none of PlantUML)"),
])
def test_no_script_has_a_reason(answer, reason):
    found = extract_plantuml(answer)
    assert found.script is None
    assert found.reason == reason
