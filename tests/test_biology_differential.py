"""Differential tests of the biology readers: generated inputs (each language's synth at
the three complexity levels, plus the tests' own random trees and mutations of them)
rendered by the real engine, the reader's counts checked against what the SVG shows,
and, where the drawing hides structure, against DendroPy (Newick); the real files of
`../shared/data/realworld/` as a sample of reality."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from diagbench.diagram.phylogeny import Phylogeny
from diagbench.languages.newick.engine import PhyloEngine, tree_statistics
from diagbench.languages.newick.read import read_newick, synth_newick
from tests.bio_oracle import dendropy_trees
from tests.bio_trees import VARIANTS, random_tree
from tests.sizes import sized

pytestmark = pytest.mark.differential
REALWORLD = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "realworld"


def _trees(count: int) -> list[str]:
    texts = []
    for seed in range(count):
        rng = random.Random(seed)
        texts += [synth_newick(random.Random(seed), c) for c in ("low", "medium", "high")]
        texts += [random_tree(rng, rng.randint(2, 16), v) for v in VARIANTS]
    return texts


def _read_as_oracle(parsed) -> tuple:
    tree = Phylogeny(parsed.diagram)
    return (len(parsed.diagram.entities), len(tree.leaves),
            tuple(e.name for e in tree.leaves), frozenset(frozenset(c) for c in tree.clades()))


def test_newick_reader_agrees_with_dendropy_on_generated_trees():
    for text in _trees(sized(15, 150)):
        parsed = read_newick(text)
        oracle = dendropy_trees(text)
        assert [p.errors for p in parsed] == [()] * len(oracle), text
        assert [_read_as_oracle(p) for p in parsed] == [
            (o.nodes, o.leaves, o.leaf_names, o.clades) for o in oracle], text


def _mutate(rng: random.Random, text: str) -> str:
    k = rng.randrange(len(text))
    return text[:k] + rng.choice(["", text[k], *"(),:;'[]x"]) + text[k + 1:]


def test_newick_reader_validity_agrees_with_dendropy_on_mutated_trees():
    """Where the reader and DendroPy disagree on whether a mutated tree is Newick, the
    reader keeps to the standard and DendroPy is lenient: a `]` or a `'` inside an
    unquoted label, an empty statement (`;;`), a second branch length (`A:2:25`); and
    two of Biopython's own: it reads one tree per line (`(A,B);C;`), and a length
    written `0.` as `:0` followed by a label `.`. Anything else fails."""
    lenient = 0
    for seed in range(sized(150, 1500)):
        rng = random.Random(seed)
        text = _mutate(rng, random_tree(rng, rng.randint(3, 9), rng.choice(VARIANTS)))
        parsed = read_newick(text)
        ours = not any(p.errors for p in parsed)
        try:
            oracle = dendropy_trees(text)
        except Exception:  # DendroPy's reader errors
            oracle = None
        if ours and oracle is not None and ",)" not in text:
            # (DendroPy drops an unnamed last child, `(A,)`: Newick has two leaves there)
            assert [_read_as_oracle(p) for p in parsed] == [
                (o.nodes, o.leaves, o.leaf_names, o.clades) for o in oracle], text
        elif ours != (oracle is not None):
            assert not ours, f"the reader reads what DendroPy rejects: {text}"
            reason = parsed[0].errors[0].reason
            assert any(s in reason for s in ("unexpected ']'", "unexpected \"'\"",
                                             "';' cannot follow the start",
                                             "Text after semicolon",
                                             "cannot follow 'length'")), (text, reason)
            lenient += 1
    assert lenient < sized(150, 1500) // 5


def test_phylo_engine_draws_what_the_reader_read(tmp_path: Path):
    texts = _trees(sized(3, 30))
    results = PhyloEngine(jobs=2, timeout=60.0).render(texts, tmp_path, "svg")
    for text, result in zip(texts, results, strict=True):
        assert result.ok and result.image is not None, (text, result.error)
        drawn = tree_statistics(result.image.read_text(encoding="utf-8"))
        [parsed] = read_newick(text)
        tree = Phylogeny(parsed.diagram)
        assert (drawn["entities"], drawn["relations"]) == (
            parsed.counts()["entities"], parsed.counts()["relations"]), text
        assert (drawn["leaves"], drawn["internal"]) == (
            len(tree.leaves), len(parsed.diagram.entities) - len(tree.leaves)), text
        assert drawn["leaf_names"] == [e.name for e in tree.leaves if e.name], text


def _real_trees() -> list[Path]:
    files = [p for source in ("biopython-newick", "dendropy-newick")
             for p in sorted((REALWORLD / source).rglob("*"))
             if p.is_file() and p.suffix in {".nwk", ".newick", ".tre", ".tree", ".dnd"}]
    return files[:sized(8, 100)]


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="no real-world data")
def test_real_newick_files_parse_render_and_agree_with_dendropy(tmp_path: Path):
    files = _real_trees()
    assert files
    texts = [p.read_text(encoding="utf-8") for p in files]
    results = PhyloEngine(jobs=2, timeout=60.0).render(texts, tmp_path, "svg")
    for path, text, result in zip(files, texts, results, strict=True):
        parsed = read_newick(text)
        if any(p.errors for p in parsed):  # GEBA: a quote inside a bare label
            assert not result.ok and result.error_line == parsed[0].errors[0].line, path.name
            continue
        oracle = dendropy_trees(text.removeprefix("\ufeff"))
        assert [_read_as_oracle(p) for p in parsed] == [
            (o.nodes, o.leaves, o.leaf_names, o.clades) for o in oracle], path.name
        assert result.ok and result.image is not None, (path.name, result.error)
        drawn = tree_statistics(result.image.read_text(encoding="utf-8"))
        assert (drawn["entities"], drawn["relations"]) == (
            parsed[0].counts()["entities"], parsed[0].counts()["relations"]), path.name


# --- FASTA: the logo draws what the reader read ---------------------------------------------

def _random_alignment(rng: random.Random) -> str:
    """A random alignment of the tests' own: DNA, RNA or protein letters, upper or lower
    case, gaps, wrapped lines, headers with descriptions."""
    letters = rng.choice(["ACGT", "ACGU", "ACDEFGHIKLMNPQRSTVWY", "ACGTNRY"])
    length = rng.randint(1, 30)
    out = []
    for k in range(rng.randint(1, 12)):
        seq = "".join(rng.choice(letters + "-") for _ in range(length))
        seq = seq.lower() if rng.random() < 0.2 else seq
        wrapped = "\n".join(seq[i:i + 7] for i in range(0, len(seq), 7))
        out.append(f">s{k} sample {k}\n{wrapped}\n")
    return "".join(out)


def test_logo_engine_draws_what_the_fasta_reader_read(tmp_path: Path):
    from diagbench.languages.fasta.engine import LogoEngine, logo_statistics
    from diagbench.languages.fasta.read import read_fasta, synth_fasta

    texts = []
    for seed in range(sized(3, 30)):
        rng = random.Random(seed)
        texts += [synth_fasta(random.Random(seed), c) for c in ("low", "medium", "high")]
        texts += [_random_alignment(rng) for _ in range(2)]
    results = LogoEngine(jobs=2, timeout=60.0).render(texts, tmp_path, "svg")
    for text, result in zip(texts, results, strict=True):
        [parsed] = read_fasta(text)
        model = parsed.diagram
        assert parsed.errors == () and model.aligned, text
        assert result.ok and result.image is not None, (text, result.error)
        drawn = logo_statistics(result.image.read_text(encoding="utf-8"))
        assert (drawn["positions"], drawn["letters"]) == (model.length,
                                                          model.counts()["letters"]), text
        tied = [k for k, col in enumerate(model.profile())
                if list(col.values()).count(max(col.values(), default=0)) > 1]
        assert [c for k, c in enumerate(drawn["consensus"]) if k not in tied] == [
            c for k, c in enumerate(model.consensus()) if k not in tied], text


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="no real-world data")
def test_real_fasta_files_parse_and_their_alignments_render(tmp_path: Path):
    from diagbench.languages.fasta.engine import MAX_POSITIONS, LogoEngine, logo_statistics
    from diagbench.languages.fasta.read import read_fasta

    files = sorted(p for p in (REALWORLD / "biopython-fasta").rglob("*")
                   if p.is_file() and p.suffix != ".rst")[:sized(12, 100)]
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in files]
    results = LogoEngine(jobs=2, timeout=60.0).render(texts, tmp_path, "svg")
    drawn_any = False
    for path, text, result in zip(files, texts, results, strict=True):
        [parsed] = read_fasta(text)
        model = parsed.diagram
        drawable = not parsed.errors and model.aligned and model.length <= MAX_POSITIONS
        assert result.ok == drawable, (path.name, result.error, parsed.diagnostics[:1])
        if drawable:
            assert result.image is not None
            drawn = logo_statistics(result.image.read_text(encoding="utf-8"))
            assert (drawn["positions"], drawn["letters"]) == (
                model.length, model.counts()["letters"]), path.name
            drawn_any = True
        elif not parsed.errors:
            assert model.records and all(r.sequence for r in model.records[:1]), path.name
    assert drawn_any or len(files) < 12
