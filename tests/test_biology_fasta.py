"""FASTA (STRUDEL's DNA sequences): the reader (Biopython SeqIO, IUPAC alphabets), the
facts, the `logo` engine and what its SVG shows, and the consensus accuracy on
hand-worked alignments."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from diagbench.diagram.alignment import alignment_facts
from diagbench.languages import detect, named
from diagbench.languages.fasta.engine import LogoEngine, logo_statistics
from diagbench.languages.fasta.read import read_fasta, synth_fasta
from tests.matplotlib_counts import counted_outlines

FASTA = named("fasta")
GOLD = ">a\nACGT\n>b\nACGA\n>c\nTCGA\n"   # columns A2 T1 | C3 | G3 | T1 A2 → ACGA


def _read(text: str):
    [parsed] = read_fasta(text)
    return parsed


def test_reader_reads_sequences_alphabet_profile_and_consensus():
    p = _read(">a first one\nAC\nGT\n>b\nACGA\n>c\nTCGA\n")
    model = p.diagram
    assert p.errors == () and p.kind == "alignment" and model.alphabet == "dna"
    assert [(r.id, r.description, r.sequence, r.line) for r in model.records] == [
        ("a", "first one", "ACGT", 1), ("b", "", "ACGA", 4), ("c", "", "TCGA", 6)]
    assert model.aligned and model.length == 4
    assert dict(model.column(0)) == {"A": 2, "T": 1}
    assert model.consensus() == "ACGA"
    assert p.counts() == {"sequences": 3, "positions": 4, "letters": 6}


@pytest.mark.parametrize(("text", "alphabet"), [
    (">a\nACGU\n>b\nacga\n", "rna"), (">a\nACGTN-RY\n", "dna"), (">a\nMKVLW*\n", "protein")])
def test_reader_tells_the_alphabet_from_the_letters(text, alphabet):
    assert _read(text).diagram.alphabet == alphabet


def test_reader_gaps_ties_and_lengths():
    p = _read(">a\nA-C\n>b\nG-C\n")
    assert p.diagram.consensus() == "A-C"  # a tie goes to the first letter; gaps only: '-'
    unequal = _read(">a\nACG\n>b\nAC\n")
    assert unequal.errors == () and not unequal.diagram.aligned
    [warning] = unequal.diagnostics
    assert warning.severity == "warning" and "unequal lengths" in warning.reason


@pytest.mark.parametrize(("text", "line", "reason"), [
    ("", 1, "empty source"),
    ("just text\n", 1, "Biopython: "),
    (">a\nACGT\n>b\nAC\nG1T\n", 5, "'1' is not a DNA, RNA or protein letter (sequence 'b')"),
    (">a é\nACGT\n>b\nACG\u00e9\n", 4, "Biopython: 'ascii' codec can't"),  # found by fuzzing
    # a header without letters (a file cut short): logomaker's "df has zero rows" before
    (">a\nACGT\n>b only a header\n", 3, "record 'b' has no sequence"),
])
def test_reader_reports_bad_input_with_its_line(text, line, reason):
    [error] = _read(text).errors
    assert error.line == line and reason in error.reason, error


def test_facts_of_a_hand_read_alignment():
    facts = alignment_facts(_read(GOLD).diagram)
    answers = {(f.subject, f.question): f.answer for f in facts}
    assert answers[("sequences", "How many sequences is the logo drawn from?")] == 3
    assert answers[("length", "How many positions does the logo have?")] == 4
    consensus = {q: a for (s, q), a in answers.items() if s == "consensus"}
    assert consensus == {"Which letter is most frequent at position 1?": "A",
                         "Which letter is most frequent at position 3?": "G",
                         "Which letter is most frequent at position 4?": "A"}
    conserved = [a for (s, _), a in answers.items() if s == "conserved"]
    assert conserved == [("2", "3")]


@pytest.mark.parametrize("complexity", ["low", "medium", "high"])
def test_synth_writes_valid_seeded_alignments(complexity):
    texts = [synth_fasta(random.Random(seed), complexity) for seed in range(20)]
    assert texts == [synth_fasta(random.Random(seed), complexity) for seed in range(20)]
    for text in texts:
        p = _read(text)
        assert p.diagnostics == () and p.diagram.aligned and detect(None, text) is FASTA


def test_engine_draws_the_logo_the_reader_read(tmp_path: Path):
    texts = [GOLD, ">p\nMKVL\n>q\nMRVL\n>r\nMKIL\n", ">a\nACG\n>b\nAC\n", ">a\nAC1\n"]
    engine = LogoEngine(jobs=2, timeout=60.0)
    (tmp_path / "png").mkdir()
    (tmp_path / "svg").mkdir()
    pngs = engine.render(texts, tmp_path / "png", "png")
    svgs = engine.render(texts, tmp_path / "svg", "svg")
    for text, png, svg in list(zip(texts, pngs, svgs, strict=True))[:2]:
        assert png.ok and png.image is not None and png.image.read_bytes()[:4] == b"\x89PNG"
        assert svg.ok and svg.image is not None
        drawn = logo_statistics(svg.image.read_text(encoding="utf-8"))
        model = _read(text).diagram
        assert drawn == {"positions": model.length, "letters": model.counts()["letters"],
                         "consensus": model.consensus()}
    assert not svgs[2].ok and "not an alignment" in (svgs[2].error or "")
    assert not svgs[3].ok and svgs[3].error_line == 2 and "'1'" in (svgs[3].error or "")
    assert engine.version().startswith("logomaker ")


def test_the_drawer_outlines_each_letter_once_per_process_with_the_same_images(monkeypatch):
    """logomaker outlines a glyph's letter and its widest letter for every glyph: the
    drawer keeps the outlines (`render.drawing.text_path`), so a second logo of the
    same letters outlines none, and the images are the bytes logomaker draws without."""
    from matplotlib.textpath import TextPath

    from diagbench.languages.fasta import engine

    alignment = ">a\nACGTAC\n>b\nACGAAC\n>c\nTCGAGC\n"  # glyphs: 2 + 1 + 1 + 2 + 2 + 1 = 9
    kept = engine.draw_logo(alignment)
    outlined = counted_outlines(monkeypatch)
    assert "svg" in engine.draw_logo(">x\nGTCA\n>y\nGACA\n") and outlined == []
    monkeypatch.setattr(engine, "text_path", TextPath)  # logomaker's own outlining
    assert engine.draw_logo(alignment) == kept
    assert len(outlined) == 2 * 9


def test_logo_similarity_by_hand():
    # gold columns A2 T1 | C3 | G3 | T1 A2; predicted A2 | C2 | C1 G1 | A2. Per column
    # Σ min / Σ max: 2/3, 2/3, 1/(1+3) = 1/4, 2/3: mean (2 + 1/4) / 4 = 9/16
    c = FASTA.compare_code(GOLD, ">x\nACCA\n>y\nACGA\n", True)
    assert c.score == pytest.approx(9 / 16)
    # the consensus (ACGA vs ACCA, ties → C: 3 of 4) is reported beside it
    assert (c.gold_consensus, c.pred_consensus, c.accuracy) == ("ACGA", "ACCA", 0.75)
    # a longer prediction, one sequence: A1 1/3, C1 1/3, C1 vs G3 0, A1 1/3, and a
    # fifth column the gold lacks 0: 1/5
    longer = FASTA.compare_code(GOLD, ">x\nACCAT\n", True)
    assert longer.score == pytest.approx(1 / 5)


FOUR = ">a\nACGT\n>b\nACGA\n>c\nACCT\n>d\nTCGT\n"  # A3 T1 | C4 | G3 C1 | T3 A1 → ACGT


def test_logo_similarity_scores_the_columns_not_the_consensus():
    # one sequence equal to the consensus: every column a quarter as tall, 1/4 each
    one = FASTA.compare_code(FOUR, ">x\nACGT\n", True)
    assert one.accuracy == 1.0 and one.score == pytest.approx(1 / 4)
    # 100 copies of the alignment: the same shape, 100 times as tall (a counts logo's
    # axis to 100): Σ min / Σ max = 1/100 in every column
    copies = "".join(f">s{k}\n{seq}\n" for k in range(100)
                     for seq in ("ACGT", "ACGA", "ACCT", "TCGT"))
    assert FASTA.compare_code(FOUR, copies, True).score == pytest.approx(1 / 100)
    # the records in another order draw the same logo
    assert FASTA.compare_code(FOUR, ">d\nTCGT\n>c\nACCT\n>a\nACGT\n>b\nACGA\n",
                              True).score == 1.0


def test_consensus_accuracy_validity_and_broken_code():
    assert FASTA.compare_code(GOLD, GOLD, True).score == 1.0
    assert FASTA.compare_code(GOLD, GOLD, False).score == 0.0
    for broken in ("ACGA", ">x\nACG\n>y\nAC\n", ">x\nAC1A\n"):
        c = FASTA.compare_code(GOLD, broken, True)
        assert c.score == 0.0 and c.warnings, broken


def test_rewrite_reorders_and_wraps_the_records():
    written = FASTA.rewrite(FOUR, random.Random(1))
    assert written is not None and written != FOUR
    records = [r for r in FASTA.read(written)[0].diagram.records]
    assert sorted((r.id, r.sequence) for r in records) == [
        ("a", "ACGT"), ("b", "ACGA"), ("c", "ACCT"), ("d", "TCGT")]
    assert FASTA.compare_code(FOUR, written, True).score == 1.0


def test_facts_are_what_the_logo_drew():
    """The length is the positions drawn, the most frequent letter at a position the
    tallest glyph drawn there (asked only where one letter is tallest)."""
    import re

    from tests.drawn_facts import facts_and_drawings

    checked = 0
    for name, facts, drawn in facts_and_drawings(FASTA):
        for fact in facts:
            if fact.subject == "length":
                assert fact.answer == drawn["positions"], name
            elif fact.subject == "consensus":
                match = re.search(r"position (\d+)", fact.question)
                assert match is not None
                assert fact.answer == drawn["consensus"][int(match.group(1)) - 1], name
            else:
                continue
            checked += 1
    assert checked >= 7 * 2


def test_the_letters_widen_no_data_limits_and_the_images_are_the_same(monkeypatch):
    """logomaker sets both axes' limits itself: the drawer's letters widen no data
    limits (none computed while logomaker adds them, nor after: autoscaling is off),
    and the images are the bytes drawn with the limits widened letter by letter."""
    import contextlib

    from matplotlib.axes import Axes

    from diagbench.languages.fasta import engine

    alignment = ">a\nACGTAC\n>b\nACGAAC\n>c\nTCGAGC\n"
    widened: list[object] = []
    real = Axes._update_patch_limits

    def widening(self: Axes, patch: object) -> None:
        widened.append(patch)
        real(self, patch)

    monkeypatch.setattr(Axes, "_update_patch_limits", widening)
    kept = engine.draw_logo(alignment)
    assert widened == []
    monkeypatch.setattr(engine, "limits_set_after", lambda axes: contextlib.nullcontext())
    assert engine.draw_logo(alignment) == kept
    assert len(widened) == 9  # each letter drawn: 2 + 1 + 1 + 2 + 2 + 1


def test_an_axis_still_autoscaled_gets_the_data_limits_of_its_patches():
    """Patches added meanwhile to an autoscaled Axes: its data limits afterwards are
    those of adding them one by one."""
    import contextlib

    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle, Rectangle

    from diagbench.languages.fasta.engine import limits_set_after

    def limits(later: bool) -> list[float]:
        fig, axes = plt.subplots()
        with limits_set_after(axes) if later else contextlib.nullcontext():
            axes.add_patch(Rectangle((1.0, 2.0), 3.0, 0.5))
            axes.add_patch(Circle((-1.0, 0.25), 0.75))
        plt.close(fig)
        return list(axes.dataLim.extents)

    assert limits(True) == limits(False) == [-1.75, -0.5, 4.0, 2.5]
