"""The hand fixes of paper §3.2.3 (Fig. 2) are applied automatically and not counted."""

from __future__ import annotations

from diagbench.compare.normalize import normalize_prediction
from diagbench.compare.pair import compare_scripts
from diagbench.formats.plantuml import parse_one
from tests.plantuml_batch import render_batch


def test_fig2_rows_are_fixed_and_listed(tmp_path):
    pred = "\n".join([
        "@startuml",
        "participant UE#1",
        "actor P-CSCF",
        "UE#1 -> P-CSCF : INVITE",
        "P-CSCF ..> UE#1 : 100 Trying",
        "note bottom of P-CSCF UE#1: user location and/or UE timezone information",
        "note over UE#1, P-CSCF, X, Y: 5GMS Service Announcement",
        "@enduml",
    ])
    text, fixes = normalize_prediction(pred)
    assert text.split("\n")[1:7] == [
        'participant "UE#1" as UE1',
        'actor "P-CSCF" as PCSCF',
        "UE1 -> PCSCF : INVITE",
        "PCSCF --> UE1 : 100 Trying",
        "note over PCSCF, UE1: user location and/or UE timezone information",
        "note over UE1, Y: 5GMS Service Announcement",
    ]
    assert [f.split(":")[0] for f in fixes] == [
        "line 2", "line 3", "line 5", "line 6", "line 7"]
    batch = render_batch([text], work=tmp_path)
    assert batch.returncode == 0, batch.stderr  # PlantUML now draws it


def test_note_text_is_left_alone():
    pred = "@startuml\nparticipant UE#1\nnote over UE#1\nUE#1 ..> done\nend note\n@enduml"
    text, _ = normalize_prediction(pred)
    assert parse_one(text).notes[0].text == "UE#1 ..> done"


def test_fixed_prediction_has_no_errors_and_lists_the_fixes():
    gold = ('@startuml\nparticipant "UE#1" as UE1\nparticipant "P-CSCF" as PCSCF\n'
            "UE1 -> PCSCF : INVITE\nPCSCF --> UE1 : 100 Trying\n@enduml\n")
    pred = ("@startuml\nparticipant UE#1\nactor P-CSCF\nUE#1 -> P-CSCF : INVITE\n"
            "P-CSCF ..> UE#1 : 100 Trying\n@enduml\n")
    for method in ("semantic", "diff"):
        result = compare_scripts(gold, pred, method)
        assert result.errors == 0, method
        assert any("'..>'" in n for n in result.normalizations), method
    semantic = compare_scripts(gold, pred)
    assert any("actor in the prediction" in n for n in semantic.normalizations)
