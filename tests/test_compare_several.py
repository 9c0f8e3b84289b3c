"""`diagbench compare` on files of several diagrams (FEN and SMILES lists, ABC books):
paired in order, each scored by its language, a missing one scoring 0 (compare.several)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
C5 = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
# C5 with the g1 knight on f3: two squares differ
NF3 = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 2"


def _compare(tmp_path: Path, gold: dict[str, str], pred: dict[str, str]) -> dict:
    for side, files in (("gold", gold), ("pred", pred)):
        (tmp_path / side).mkdir()
        for name, text in files.items():
            (tmp_path / side / name).write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "diagbench", "compare", str(tmp_path / "gold"),
                           str(tmp_path / "pred"), "--json", "-"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return {Path(f["name"]).name: f for f in json.loads(done.stdout)["files"]}


def test_a_list_against_itself_scores_one_and_one_change_costs_its_share(tmp_path: Path):
    gold = {"games.fen": f"{START}\n{E4}\n{C5}\n", "two.smi": "CCO ethanol\nc1ccccc1 benzene\n",
            "one.fen": f"{START}\n"}
    files = _compare(tmp_path, gold, gold | {"games.fen": f"{START}\n{E4}\n{NF3}\n"})
    assert files["two.smi"]["score"] == 1.0 and files["two.smi"]["valid"] is True
    assert [d["score"] for d in files["two.smi"]["diagrams"]] == [1.0, 1.0]
    # third board: 62 of 64 squares alike, not the same board: (62/64 + 0) / 2 = 0.484375;
    # the file: (1 + 1 + 0.484375) / 3 = 0.828125
    games = files["games.fen"]
    assert [d["score"] for d in games["diagrams"]] == [1.0, 1.0, 0.484375]
    assert games["score"] == 0.828125
    # a file of one diagram is compared as before: no list of diagrams
    assert files["one.fen"]["score"] == 1.0 and "diagrams" not in files["one.fen"]


def test_a_missing_diagram_scores_zero(tmp_path: Path):
    gold = {"games.fen": f"{START}\n{E4}\n{C5}\n"}
    files = _compare(tmp_path, gold, {"games.fen": f"{START}\n{E4}\n"})
    games = files["games.fen"]
    assert (games["gold_diagrams"], games["pred_diagrams"]) == (3, 2)
    assert games["score"] == round(2 / 3, 6) and games["valid"] is True
    assert "3 diagrams in the ground truth, 2 in the prediction" in games["warnings"]


def test_a_file_too_large_to_draw_is_valid_and_scored_on_its_model(tmp_path: Path):
    """Biopython's CAG33136.1.fasta: one protein of 230 residues, over the logo's
    60-position drawing limit. The logo engine refuses to draw it, for its size only: the
    code is valid, so the file scores 1 against itself, and one residue changed of 230
    leaves a consensus accuracy of 229/230."""
    real = (Path(__file__).resolve().parents[2] / "shared" / "data" / "realworld"
            / "biopython-fasta" / "Tests" / "Blat" / "CAG33136.1.fasta")
    text = real.read_text(encoding="utf-8")
    header, *lines = text.splitlines()
    assert len("".join(lines)) == 230 and lines[0][0] == "M"
    changed = "\n".join([header, "A" + lines[0][1:], *lines[1:]]) + "\n"
    files = _compare(tmp_path, {"protein.fasta": text}, {"protein.fasta": text})
    assert files["protein.fasta"]["score"] == 1.0 and files["protein.fasta"]["valid"] is True
    shutil.rmtree(tmp_path / "gold")
    shutil.rmtree(tmp_path / "pred")
    files = _compare(tmp_path, {"protein.fasta": text}, {"protein.fasta": changed})
    assert files["protein.fasta"]["score"] == round(229 / 230, 6)


def test_every_tree_of_a_newick_file_is_drawn_and_compared(tmp_path: Path):
    """Biopython's horses.tree holds two trees: `render` draws both, and a prediction
    holding only the first scores (1 + 0) / 2 with a warning, where it scored 1."""
    real = (Path(__file__).resolve().parents[2] / "shared" / "data" / "realworld"
            / "biopython-newick" / "Tests" / "Phylip" / "horses.tree")
    text = real.read_text(encoding="utf-8")
    first = text[:text.index(";") + 1] + "\n"
    done = subprocess.run([sys.executable, "-m", "diagbench", "render", str(real), "--out",
                           str(tmp_path / "images"), "--json", "-"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert [(r["block"], r["ok"]) for r in json.loads(done.stdout)] == [(0, True), (1, True)]
    files = _compare(tmp_path, {"horses.tree": text}, {"horses.tree": first})
    horses = files["horses.tree"]
    assert (horses["gold_diagrams"], horses["pred_diagrams"]) == (2, 1)
    assert horses["score"] == 0.5
    assert "2 diagrams in the ground truth, 1 in the prediction" in horses["warnings"]
