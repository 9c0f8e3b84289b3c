"""The image-to-code score on parsed graph diagrams (paper 004 §5.1, fixed): entity and
relation F1 behind a validity gate, and STRUDEL's counts-only score beside it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from diagbench.languages import named

ROOT = Path(__file__).resolve().parents[1]
GOLD = (ROOT / "examples" / "archqa" / "library_classes.puml").read_text(encoding="utf-8")
NAMES = ["Item", "Book", "Periodical", "Loan", "Member", "Librarian"]


def renamed(text: str) -> str:
    """Every class renamed (same counts, same relations between new names)."""
    for k, name in enumerate(NAMES):
        text = re.sub(rf"\b{name}\b", f"Zz{k}", text)
    return text


REVERSED = GOLD.replace("Loan --> Item : lends", "Item --> Loan : lends")
BROKEN = GOLD.replace("class Loan {", "class Loan {{ ((")


def test_gold_against_itself_scores_one():
    c = named("plantuml").compare_code(GOLD, GOLD, True)
    assert (c.entities.gold, c.relations.gold) == (6, 5)
    assert c.entities.f1 == c.relations.f1 == c.score == c.counts_score == 1.0


def test_every_class_renamed_has_entity_f1_zero_but_full_counts_score():
    c = named("plantuml").compare_code(GOLD, renamed(GOLD), True)
    assert c.entities.pred == 6 and c.entities.matched == 0 and c.entities.f1 == 0.0
    assert c.relations.f1 == 0.0 and c.score == 0.0
    assert c.counts_score == 1.0  # the anchor's flaw: same counts, full marks


def test_one_reversed_relation():
    c = named("plantuml").compare_code(GOLD, REVERSED, True)
    assert c.entities.f1 == 1.0
    assert c.relations.matched == 4 and c.relations.f1 == pytest.approx(0.8)
    assert c.score == pytest.approx(0.9)
    assert c.relations.missing == ("association/single/loan/item/lends",)


def test_a_relation_relabelled_is_a_relation_missed():
    """Labels are part of a relation: `lends` → `borrows` on one of five relations is
    relation F1 4/5, score (1 + 0.8) / 2; every label changed is relation F1 0."""
    c = named("plantuml").compare_code(GOLD, GOLD.replace(": lends", ": borrows"), True)
    assert (c.relations.matched, c.relations.f1, c.score) == (4, pytest.approx(0.8),
                                                               pytest.approx(0.9))
    assert c.relations.extra == ("association/single/loan/item/borrows",)
    flow = "flowchart LR\n  A -->|yes| B\n  A -->|no| C\n"
    relabelled = named("mermaid").compare_code(flow, flow.replace("yes", "ja")
                                               .replace("no", "nein"), True)
    assert relabelled.entities.f1 == 1.0 and relabelled.relations.f1 == 0.0
    assert relabelled.score == 0.5


def test_undirected_relation_either_way_and_names_normalised():
    gold = "@startuml\nclass OrderItem\nclass Cart\nCart -- OrderItem\n@enduml\n"
    pred = "@startuml\nclass order_item\nclass cart\norder_item -- cart\n@enduml\n"
    assert named("plantuml").compare_code(gold, pred, True).score == 1.0


def test_kind_matters():
    gold = "@startuml\nclass A\ninterface B\nA ..|> B\n@enduml\n"
    pred = "@startuml\nclass A\nclass B\nA ..|> B\n@enduml\n"
    c = named("plantuml").compare_code(gold, pred, True)
    assert c.entities.matched == 1 and c.relations.f1 == 1.0


def test_not_rendering_scores_zero():
    c = named("plantuml").compare_code(GOLD, GOLD, False)
    assert c.score == 0.0 and c.counts_score == 0.5


def test_other_languages():
    gold = "flowchart LR\n  A[Start] --> B{Ok?}\n  B --> C[Done]\n"
    assert named("mermaid").compare_code(gold, gold, True).score == 1.0
    dot = "digraph { a -> b; b -> c }\n"
    c = named("dot").compare_code(dot, "digraph { a -> b; c -> b }\n", True)
    assert c.entities.f1 == 1.0 and c.relations.f1 == 0.5


def test_cli_json_on_a_directory(tmp_path):
    gold, pred = tmp_path / "gold", tmp_path / "pred"
    gold.mkdir()
    pred.mkdir()
    for name, text in {"same": GOLD, "renamed": renamed(GOLD), "reversed": REVERSED,
                       "broken": BROKEN}.items():
        (gold / f"{name}.puml").write_text(GOLD, encoding="utf-8")
        (pred / f"{name}.puml").write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "diagbench", "compare", str(gold), str(pred),
                           "--json", "-"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    files = {Path(f["name"]).stem: f for f in json.loads(done.stdout)["files"]}
    assert set(files["same"]) >= {"status", "kind", "valid", "entities", "relations", "score"}
    assert files["same"]["kind"] == "class" and files["same"]["valid"] is True
    assert files["same"]["score"] == 1.0
    assert files["renamed"]["entities"]["f1"] == 0.0
    assert files["renamed"]["counts_score"] == 1.0
    assert files["reversed"]["relations"]["f1"] < 1.0
    assert files["broken"]["valid"] is False and files["broken"]["score"] == 0.0
    assert set(files["same"]["entities"]) >= {"gold", "pred", "matched", "precision",
                                              "recall", "f1"}


def test_cli_scores_every_language_that_is_not_a_sequence_diagram(tmp_path):
    """A FASTA alignment (no entities, no relations) goes to its language's own
    similarity, not to the sequence-diagram route; the pooled F1s are over the graphs."""
    gold, pred = tmp_path / "gold", tmp_path / "pred"
    gold.mkdir()
    pred.mkdir()
    (gold / "logo.fasta").write_text(">a\nACGT\n", encoding="utf-8")
    (pred / "logo.fasta").write_text(">a\nACCT\n", encoding="utf-8")
    (gold / "tree.nwk").write_text("((A,B),C);\n", encoding="utf-8")
    (pred / "tree.nwk").write_text("((A,B),C);\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "diagbench", "compare", str(gold), str(pred),
                           "--json", "-"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    files = {Path(f["name"]).stem: f for f in document["files"]}
    # one position of four differs in the consensus: 3/4
    assert files["logo"]["kind"] == "alignment" and files["logo"]["score"] == 0.75
    assert "entities" not in files["logo"]
    assert files["tree"]["score"] == 1.0
    # the entity F1 is pooled over the tree alone; the mean score over both: (0.75 + 1) / 2
    assert document["summary"]["entities"]["f1"] == 1.0
    assert document["summary"]["mean_score"] == 0.875
