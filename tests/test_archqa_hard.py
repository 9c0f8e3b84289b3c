"""SADU's hard set (paper 003 §5.1, Table 11): `import sadu` on a folder laid out as
SADU's dataset/SAD_hard, and `score archqa --responses` without --data on logs laid out
as its ``sythesis/hard_*`` logs — both written here by code with invented content (SADU's
data has no licence and is never copied)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from tests.cli import run_cli

FORMAT = '\nRequired Output Format: [start]{"answer": ...}[end]'
ANNOTATION = {
    "entity": {"e0": {"name": "Clerk"}, "e1": {"name": "Ledger"}, "e2": {"name": "Audit"}},
    "cluster": {},
    "relation": [{"source": "e0", "target": "e1", "name": "", "type": "association"},
                 {"source": "e2", "target": "e1", "name": "", "type": "association"}],
}
SOURCE_Q = "Which entity is the source in a relation to Entity 'Ledger'?"
TARGET_Q = "Which entity is the target in a relation from Entity 'Clerk'?"
#: SAD_hard's folders: (pattern folder, case, file, question, published answer); the
#: last is planted wrong (the annotation gives Clerk and Audit).
CASES = [
    ("long_arrow", "0", "ledger-a", SOURCE_Q, ["Audit", "Clerk"]),
    ("long_arrow", "1", "ledger-b", TARGET_Q, ["Ledger"]),
    ("multiple_arrow", "0", "ledger-a", TARGET_Q, ["Ledger"]),
    ("not_right_arrow", "0", "ledger-c", SOURCE_Q, ["Audit", "Clerk"]),
    ("overlap_arrow", "2", "ledger-d", SOURCE_Q, ["Clerk"]),
]


def _write_hard(root: Path) -> Path:
    for folder, case, file, question, answer in CASES:
        base = root / folder / case
        for sub in ("Diagram", "json_object", "QA"):
            (base / sub).mkdir(parents=True)
        Image.new("RGB", (16, 12), "white").save(base / "Diagram" / f"{file}.png")
        (base / "json_object" / f"{file}.json").write_text(json.dumps(ANNOTATION))
        # SADU's QA file names do not always follow the diagram's (g06-US_QA, g06_US)
        (base / "QA" / f"{file.replace('-', '_')}_QA.json").write_text(json.dumps(
            [{"question": question + FORMAT, "answer": answer,
              "metadata": {"type": "fill_in_the_blank", "sub_type": "relation_source"
                           if question == SOURCE_Q else "relation_target",
                           "difficulty": "difficult", "challenge": "label_detection"}}]))
    return root


def test_import_reads_sad_hard_with_its_patterns(tmp_path):
    source = _write_hard(tmp_path / "SAD_hard")
    done = run_cli("import", "sadu", str(source), "--out", str(tmp_path / "data"), timeout=300)
    assert done.returncode == 0, done.stderr
    assert "arrow patterns: long_arrow 2, multi_arrow 1, not_right_arrow 1, overlap_arrow 1" \
        in done.stdout
    info = json.loads((tmp_path / "data" / "import.json").read_text())
    assert (info["diagrams"], info["questions"], info["recomputed_equal"]) == (5, 5, 4)
    assert info["by_family"] == {"structural": 5}
    [difference] = info["differences"]
    assert (difference["pattern"], difference["file"], difference["recomputed"]) == (
        "overlap_arrow", "structural/overlap_arrow/2/ledger-d", ["Audit", "Clerk"])
    questions = [json.loads(line) for line in
                 (tmp_path / "data" / "questions.jsonl").read_text().splitlines()]
    assert [(q["id"], q["pattern"]) for q in questions] == [
        ("structural/long_arrow/0/ledger-a/0", "long_arrow"),
        ("structural/long_arrow/1/ledger-b/0", "long_arrow"),
        ("structural/multi_arrow/0/ledger-a/0", "multi_arrow"),
        ("structural/not_right_arrow/0/ledger-c/0", "not_right_arrow"),
        ("structural/overlap_arrow/2/ledger-d/0", "overlap_arrow")]


def test_a_case_without_its_qa_file_is_refused(tmp_path):
    source = _write_hard(tmp_path / "SAD_hard")
    (source / "long_arrow" / "0" / "QA" / "ledger_a_QA.json").unlink()
    done = run_cli("import", "sadu", str(source), "--out", str(tmp_path / "data"), timeout=300)
    assert done.returncode == 3 and "long_arrow/0/QA: 0 files" in done.stderr
    assert "Traceback" not in done.stderr


def _marked(value: object) -> str:
    return "[start]\n" + json.dumps({"answer": value}) + "\n[end]"


#: A hard-set log as SADU writes them: every line names img.json; the long-arrow
#: question is asked of three variants with the same text and gold.
LOG_ROWS = [
    (0, "long_arrow", SOURCE_Q, ["Clerk"]),
    (1, "long_arrow", SOURCE_Q, ["Clerk"]),
    (2, "long_arrow", SOURCE_Q, ["Clerk"]),
    (3, "multi_arrow", SOURCE_Q, ["Audit", "Clerk"]),
    (4, "not_right_arrow", TARGET_Q, ["Ledger"]),
    (5, "overlap_arrow", TARGET_Q, ["Ledger"]),
]
#: by index: model-x right on 0, 2, 3, 5 (long 2/3, multi 1/1, not-right 0/1, overlap
#: 1/1); model-y right on 1 (its lines in another order) and 4 by the strict scorer only
#: (a name given twice: SADU's sorted lists differ).
RESPONSES = {
    "hard_model-x": {0: ["Clerk"], 1: ["Audit"], 2: ["Clerk"], 3: ["Clerk", "Audit"],
                     4: ["Clerk"], 5: ["Ledger"]},
    "hard_model-y": {0: [], 1: ["Clerk"], 2: ["Ledger"], 3: ["Audit"],
                     4: ["Ledger", "Ledger"], 5: ["Audit"]},
}


def _write_logs(folder: Path) -> list[Path]:
    folder.mkdir()
    paths = []
    for name, answers in RESPONSES.items():
        rows = [json.dumps({"index": i, "diagram_type": "structural", "file": "img.json",
                            "question": q + FORMAT, "response": _marked(answers[i]),
                            "answer": gold,
                            "metadata": {"sub_type": "relation_source" if q == SOURCE_Q
                                         else "relation_target", "challenge": pattern},
                            "token_usage": {"prompt_token": 10, "completion_tokens": 3}})
                for i, pattern, q, gold in LOG_ROWS]
        if name == "hard_model-y":
            rows.reverse()
        path = folder / f"{name}.log"
        path.write_text("\n".join(rows) + "\n")
        paths.append(path)
    return paths


@pytest.mark.parametrize(("scorer", "expected"), [
    ("strict", {"hard_model-x": {"long_arrow": (66.67, 3), "multi_arrow": (100.0, 1),
                                 "not_right_arrow": (0.0, 1), "overlap_arrow": (100.0, 1)},
                "hard_model-y": {"long_arrow": (33.33, 3), "multi_arrow": (0.0, 1),
                                 "not_right_arrow": (100.0, 1), "overlap_arrow": (0.0, 1)}}),
    ("sadu", {"hard_model-x": {"long_arrow": (66.67, 3), "multi_arrow": (100.0, 1),
                               "not_right_arrow": (0.0, 1), "overlap_arrow": (100.0, 1)},
              "hard_model-y": {"long_arrow": (33.33, 3), "multi_arrow": (0.0, 1),
                               "not_right_arrow": (0.0, 1), "overlap_arrow": (0.0, 1)}}),
])
def test_hard_logs_scored_without_data_give_table11(tmp_path, scorer, expected):
    logs = _write_logs(tmp_path / "logs")
    run = tmp_path / "run"
    done = run_cli("score", "archqa", "--scorer", scorer, "--out", str(run), "--responses",
                   *map(str, logs), timeout=300)
    assert done.returncode == 0, done.stderr
    models = json.loads((run / "summary.json").read_text())["models"]
    for name, cells in expected.items():
        got = {p: (c["accuracy"], c["n"]) for p, c in models[name]["by_pattern"].items()}
        assert got == cells, name
        assert models[name]["questions"] == 6
    assert "Table 11 (hard set)" in done.stdout and "Non-Rightward Arrow" in done.stdout
    assert "Table 11" in (run / "report.html").read_text()
    # the same questions in both logs, whatever their order: paired on all six
    assert json.loads((run / "summary.json").read_text())["paired"][0]["n"] == 6


def test_no_judge_without_the_diagrams(tmp_path):
    logs = _write_logs(tmp_path / "logs")
    done = run_cli("score", "archqa", "--judge", "baseline:blind", "--out", str(tmp_path / "r"),
                   "--responses", *map(str, logs), timeout=300)
    assert done.returncode == 2 and "--judge needs --data" in done.stderr


def test_the_patterns_come_back_from_an_export(tmp_path):
    source = _write_hard(tmp_path / "SAD_hard")
    assert run_cli("import", "sadu", str(source), "--out", str(tmp_path / "data"),
                   timeout=300).returncode == 0
    assert run_cli("export", str(tmp_path / "data"), "--out", str(tmp_path / "hf"),
                   timeout=300).returncode == 0
    done = run_cli("import", "hf", str(tmp_path / "hf"), "--out", str(tmp_path / "back"),
                   timeout=300)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "back" / "questions.jsonl").read_bytes() == \
        (tmp_path / "data" / "questions.jsonl").read_bytes()
    assert '"pattern": "multi_arrow"' in (tmp_path / "back" / "questions.jsonl").read_text()


def test_a_log_line_without_its_question_is_refused_without_data(tmp_path):
    log = tmp_path / "hard_model-z.log"
    log.write_text(json.dumps({"diagram_type": "structural", "file": "img.json",
                               "question": SOURCE_Q, "response": _marked(["Clerk"])}) + "\n")
    done = run_cli("score", "archqa", "--out", str(tmp_path / "r"), "--responses", str(log),
                   timeout=300)
    assert done.returncode == 3 and f"{log}:1: not a SADU response line" in done.stderr
    assert "Traceback" not in done.stderr
