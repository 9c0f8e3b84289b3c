"""A small SADU-shaped repository written by code, with invented content (SADU's own data
carries no licence and is never copied): `dataset/SAD/{behavior,structural,ER}/{Diagram,
json_object,QA}` and `experiment_result/response_result/default/*.log`, as
`diagbench.benchmarks.archqa.sadu_import` and `answers.read_log` read them.

Three diagrams, eight questions; one published answer is planted wrong (the labelled
relations of `login_flow`: published 1, the annotation has 2), and two logs whose
responses are right or wrong, inside SADU's markers or outside them, by construction:
`EXPECTED` holds what each scorer must find, worked out by hand below."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from PIL import Image

FORMAT = '\nRequired Output Format: [start]{"answer": ...}[end]'

ANNOTATIONS = {
    ("behavior", "login_flow"): {
        "entity": {"e0": {"name": "User"}, "e1": {"name": "App"}, "e2": {"name": "Server"}},
        "cluster": {"c0": {"name": "Backend", "include_entity": ["e2"]}},
        "relation": [{"source": "e0", "target": "e1", "name": "opens", "direction": "single"},
                     {"source": "e1", "target": "e2", "name": "calls",
                      "direction": "single"}],
        "difficulty": "easy"},
    ("structural", "shop_classes"): {
        "entity": {"e0": {"name": "Cart", "attribute": ["items"], "method": ["total()"]},
                   "e1": {"name": "Item", "attribute": ["price"], "method": []}},
        "cluster": {},
        "relation": [{"source": "e0", "target": "e1", "name": "", "direction": "single"}],
        "difficulty": "easy"},
    ("ER", "library_er"): {
        "entity": {"e0": {"name": "Book", "attribute": [["int", "id", "PK", ""]]},
                   "e1": {"name": "Author", "attribute": [["int", "id", "PK", ""]]}},
        "cluster": {},
        "relation": [{"source": "e1", "target": "e0", "name": "writes",
                      "direction": "single", "source_cardinality": "1",
                      "target_cardinality": "*"}],
        "difficulty": "medium"},
}

#: (family folder, file) → [(sub_type, question, published answer)]
QUESTIONS = {
    ("behavior", "login_flow"): [
        ("total_entity_number", "How many entities are in the diagram?", [3]),
        ("total_relation_number", "How many relations are in the diagram?", [2]),
        ("relation_target", "Which entity is the target in a relation from Entity 'User'?",
         ["App"]),
        # planted: both relations have a label
        ("how_many_relations_have_label", "How many relations have a label?", [1]),
    ],
    ("structural", "shop_classes"): [
        ("total_entity_number", "How many entities are in the diagram?", [2]),
        ("relation_source", "Which entity is the source in a relation to Entity 'Item'?",
         ["Cart"]),
    ],
    ("ER", "library_er"): [
        ("total_entity_number", "How many entities are in the diagram?", [2]),
        ("label_on_the_relation",
         "What is the label on the relation between Entity 'Author' and Entity 'Book'?",
         ["writes"]),
    ],
}


def _marked(value: object) -> str:
    return "Looking at the diagram.\n[start]" + json.dumps({"answer": value}) + "[end]"


def _outside(value: object) -> str:
    return "The answer is " + json.dumps({"answer": value}) + "."


#: log name → one response per question, in QUESTIONS' order
RESPONSES = {
    # right but for the planted question (2, against the published 1) and Item (not Cart)
    "model-a_response_t_0": [_marked(3), _marked(2), _marked(["App"]), _marked(2),
                             _marked(2), _marked(["Item"]),
                             _marked(2), _marked(["writes"])],
    # b0 and s0 right but outside the markers; b1 wrong; b2, b3, s1 right; e0 a word
    # for a number; e1 wrong
    "model-b_response_t_0": [_outside(3), _marked(5), _marked(["App"]), _marked(1),
                             _outside(2), _marked(["Cart"]),
                             _marked("two"), _marked(["wrote"])],
}

#: Worked out by hand from RESPONSES against the published answers. SADU's scorer reads
#: only between the markers: model-a right on b0 b1 b2, s0, e0 e1 → behavioural 3/4,
#: structural 1/2, ER 2/2, all 6/8; model-b right on b2 b3, s1 → 2/4, 1/2, 0/2, 3/8.
#: The strict scorer also reads the two answers outside the markers (format violations).
EXPECTED = {
    "questions": 8, "diagrams": 3,
    "by_family": {"behavioral": 4, "structural": 2, "er": 2},
    "recomputed_equal": 7,
    "sadu_accuracy": {"model-a_response_t_0": (75.0, 50.0, 100.0, 75.0),
                      "model-b_response_t_0": (50.0, 50.0, 0.0, 37.5)},
    "format_violations": {"model-a_response_t_0": 0, "model-b_response_t_0": 2},
}


def write_sadu(root: Path) -> Path:
    """Write the SADU-shaped repository under `root`; return `root`."""
    sad = root / "dataset" / "SAD"
    for (family, file), annotation in ANNOTATIONS.items():
        for folder in ("Diagram", "json_object", "QA"):
            (sad / family / folder).mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (64, 48), "white").save(sad / family / "Diagram" / f"{file}.png")
        (sad / family / "json_object" / f"{file}.json").write_text(json.dumps(annotation),
                                                                   encoding="utf-8")
        qa = [{"question": text + FORMAT, "answer": answer,
               "metadata": {"sub_type": sub_type, "difficulty": "easy"}}
              for sub_type, text, answer in QUESTIONS[family, file]]
        (sad / family / "QA" / f"{file}_QA.json").write_text(json.dumps(qa),
                                                             encoding="utf-8")
    logs = root / "experiment_result" / "response_result" / "default"
    logs.mkdir(parents=True)
    rows = [(family, file, sub_type, text + FORMAT, answer)
            for (family, file), questions in QUESTIONS.items()
            for sub_type, text, answer in questions]
    for name, responses in RESPONSES.items():
        lines = [json.dumps({"diagram_type": family, "file": file, "question": question,
                             "response": response, "answer": answer,
                             "metadata": {"sub_type": sub_type},
                             "token_usage": {"prompt_tokens": 100, "completion_tokens": 9}})
                 for (family, file, sub_type, question, answer), response
                 in zip(rows, responses, strict=True)]
        (logs / f"{name}.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`diagbench ARGS` run in `cwd`, with its own response cache there."""
    return subprocess.run([sys.executable, "-m", "diagbench", *args], capture_output=True,
                          text=True, timeout=600, cwd=cwd, check=False,
                          env={**os.environ, "DIAGBENCH_CACHE": str(cwd / "c.sqlite")})
