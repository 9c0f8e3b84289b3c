"""Differential tests of the dot-bracket reader with VARNA as the oracle: generated
structures (the language's synth at the three complexity levels, and this file's own
random structures: nested, multiloops, pseudoknots in each bracket type, lonely pairs,
no pair at all) drawn by the real VARNA, the reader's bases and base pairs checked
against what the SVG shows; mutated structures, the reader's verdict against VARNA's;
and a sample of R2DT's CRW structures (real rRNAs and introns, 100s–2,900 nt)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from diagbench.languages.dotbracket.engine import VarnaEngine, run_varna, varna_statistics
from diagbench.languages.dotbracket.read import BRACKETS, read_dotbracket, synth_dotbracket
from diagbench.render.result import EngineMissing
from tests.conftest import REALWORLD
from tests.sizes import sized

pytestmark = pytest.mark.differential
CRW = REALWORLD / "r2dt-crw-dotbracket" / "data" / "crw-fasta"
KNOT_BRACKETS = ("[]", "{}", "<>", "Aa", "Bb")
VARIANTS = ("nested", "multiloop", "pseudoknot", "lonely", "empty")


@pytest.fixture(scope="module")
def engine() -> VarnaEngine:
    if shutil.which("java") is None:
        pytest.skip("no java: VARNA cannot run")
    engine = VarnaEngine(jobs=2, timeout=120.0)
    try:
        engine.version()
    except EngineMissing as exc:
        pytest.skip(str(exc))
    return engine


def _helix(rng: random.Random, depth: int, lonely: bool) -> str:
    """A stem (one pair when `lonely`), and inside it a hairpin loop or 1–3 branches."""
    stem = 1 if lonely else rng.randint(2, 5)
    if depth == 0 or rng.random() < 0.3:
        inner = "." * rng.randint(3, 7)
    else:
        inner = "".join("." * rng.randint(0, 3) + _helix(rng, depth - 1, lonely)
                        for _ in range(rng.randint(1, 3))) + "." * rng.randint(0, 3)
    return "(" * stem + inner + ")" * stem


def random_structure(rng: random.Random, variant: str) -> str:
    """A random structure of one variant, with a random sequence (VARNA draws any
    letters; the pairs need not be canonical)."""
    if variant == "empty":
        structure = "." * rng.randint(1, 40)
    else:
        depth = 3 if variant == "multiloop" else 1
        structure = "".join("." * rng.randint(0, 4) + _helix(rng, depth, variant == "lonely")
                            for _ in range(rng.randint(1, 3)))
    if variant == "pseudoknot":  # pair unpaired bases across the structure
        free = [k for k, c in enumerate(structure) if c == "."]
        opening, closing = rng.choice(KNOT_BRACKETS)
        count = min(len(free) // 2, rng.randint(1, 4))
        chars = list(structure)
        for k in range(count):
            chars[free[k]], chars[free[-1 - k]] = opening, closing
        structure = "".join(chars)
    sequence = "".join(rng.choice("ACGU") for _ in structure)
    return f">{variant}\n{sequence}\n{structure}\n"


def _sources(count: int) -> list[str]:
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        out += [synth_dotbracket(random.Random(seed), c) for c in ("low", "medium", "high")]
        out += [random_structure(rng, v) for v in VARIANTS]
    return out


def _agree(engine: VarnaEngine, sources: list[str], tmp_path: Path) -> None:
    results = engine.render(sources, tmp_path, "svg")
    for source, result in zip(sources, results, strict=True):
        assert result.ok and result.image is not None, (source, result.error)
        drawn = varna_statistics(result.image.read_text(encoding="utf-8"))
        [parsed] = read_dotbracket(source)
        counts = parsed.counts()
        assert (drawn["bases"], drawn["pairs"]) == (counts["bases"], counts["pairs"]), source


def test_reader_counts_agree_with_varna_on_generated_structures(engine, tmp_path):
    sources = _sources(sized(3, 30))
    assert any("[" in s for s in sources) and any("(" not in s.split("\n")[2] for s in sources)
    _agree(engine, sources, tmp_path)


def _mutate(rng: random.Random, structure: str) -> str:
    k = rng.randrange(len(structure))
    return structure[:k] + rng.choice([".", "(", ")", "[", "]"]) + structure[k + 1:]


def test_reader_validity_agrees_with_varna_on_mutated_structures():
    """VARNA rejects a closing bracket with no open one, as the reader does; it draws a
    structure with a bracket never closed (the open base stays unpaired), which the
    reader calls an error. Anything else fails."""
    if shutil.which("java") is None or not Path("/usr/share/java/varna.jar").is_file():
        pytest.skip("VARNA is not installed")
    lenient = 0
    for seed in range(sized(6, 60)):
        rng = random.Random(seed)
        structure = random_structure(rng, rng.choice(VARIANTS)).split("\n")[2]
        mutated = _mutate(rng, structure)
        sequence = "".join(rng.choice("ACGU") for _ in mutated)
        [parsed] = read_dotbracket(f"{sequence}\n{mutated}\n")
        svg, message = run_varna(sequence, mutated, 120.0)
        reasons = [d.reason for d in parsed.errors]
        if svg is None:
            assert any(r.startswith("unbalanced") for r in reasons), (mutated, message)
        elif reasons:
            assert all(r.startswith("unclosed") for r in reasons), (mutated, reasons)
            lenient += 1
        else:
            assert varna_statistics(svg.decode())["pairs"] == len(parsed.diagram.pairs)
    assert lenient <= sized(6, 60)


def test_varnas_error_message_is_the_engines_error_for_a_closing_bracket():
    if shutil.which("java") is None or not Path("/usr/share/java/varna.jar").is_file():
        pytest.skip("VARNA is not installed")
    svg, message = run_varna("GGGAAACCCA", "(((...))))", 120.0)
    assert svg is None and "Unmatched closing parentheses" in message, message


def test_every_bracket_type_is_drawn_as_a_pair(engine, tmp_path):
    letters = [o for o in BRACKETS if o.isalpha()][:3]
    sources = [f"GGGAAAUCC\n{o}{o}.....{BRACKETS[o]}{BRACKETS[o]}\n"
               for o in ["(", "[", "{", "<", *letters]]
    _agree(engine, sources, tmp_path)


def test_real_crw_structures_agree_with_varna(engine, tmp_path):
    if not CRW.is_dir():
        pytest.skip(f"{CRW} is absent")
    files = sorted(CRW.glob("*.fasta"))
    clean = [t for t in (p.read_text(encoding="utf-8") for p in files)
             if not read_dotbracket(t)[0].errors]
    assert len(clean) >= len(files) - 3  # three CRW files have an unbalanced bracket
    step = max(1, len(clean) // sized(3, 60))
    _agree(engine, clean[::step][:sized(3, 60)], tmp_path)


def test_engine_gates_on_the_reader_the_size_limit_and_one_structure(engine, tmp_path):
    long = f"{'A' * 5001}\n{'.' * 5001}\n"
    sources = ["GGGAAACCCA\n(((...))))\n", long, "GAAAC\n(...)\n>b\nGAAAC\n(...)\n",
               "GGGAAACCC\n(((...)))\n"]
    results = engine.render(sources, tmp_path, "png")
    assert [r.ok for r in results] == [False, False, False, True]
    assert results[0].error_line == 2 and "unbalanced ')' at column 10" in results[0].error
    assert "over the 5,000-nucleotide drawing limit" in results[1].error
    assert "2 structures in one source" in results[2].error and results[2].error_line == 3
    assert results[3].image is not None and results[3].image.read_bytes()[:4] == b"\x89PNG"
    svg = engine.render(sources[3:], tmp_path, "svg")[0]  # the same run's SVG, with a size
    assert svg.ok and (svg.width or 0) > 16 and (svg.height or 0) > 16
    assert varna_statistics("<svg") == {"bases": 0, "pairs": 0, "numbers": 0}


def test_png_is_the_svg_at_twice_its_size_up_to_the_longest_side(engine, tmp_path):
    """A structure's PNG is its SVG's size doubled (rsvg-convert rounds each side up);
    one whose doubled drawing would pass 2,400 px is drawn 2,400 px on its longer side."""
    import math
    import re

    small = "GGGAAACCC\n(((...)))\n"
    hairpins = "(((((....)))))" * 60  # a long chain of hairpins: a drawing > 1,200 px
    large = f"{'GGGGGAAAACCCCC' * 60}\n{hairpins}\n"
    pngs = engine.render([small, large], tmp_path, "png")
    svgs = engine.render([small, large], tmp_path, "svg")
    for png, svg in zip(pngs, svgs, strict=True):
        assert png.ok and svg.ok and png.image and svg.image
        head = svg.image.read_bytes()[:2000].decode()
        width, height = (float(re.search(f'{side}="([0-9.]+)"', head).group(1))
                         for side in ("width", "height"))
        if max(width, height) * 2 <= 2400:
            assert (png.width, png.height) == (math.ceil(2 * width), math.ceil(2 * height))
        else:
            assert max(png.width or 0, png.height or 0) in (2400, 2401)
    assert max(svgs[1].width or 0, svgs[1].height or 0) > 1200


def test_one_warm_jvm_draws_what_a_jvm_of_its_own_draws(engine):
    """Structures drawn one after another by one warm VARNA JVM are byte for byte what
    one VARNAcmd per structure draws, VARNA's error message too; a structure whose
    time-out has passed (0 s) ends that JVM and the next structure gets a fresh one."""
    from diagbench.languages.dotbracket.engine import JAR, OPTIONS, _varna_once
    from diagbench.languages.dotbracket.varna import VarnaPool, launcher
    from diagbench.render.process import ProcessTimeout
    from diagbench.render.programs import program

    launcher_jar = launcher(JAR)
    if launcher_jar is None:
        pytest.skip("no javac: VARNA's launcher cannot be built")
    pool = VarnaPool(program("java"), JAR, launcher_jar, OPTIONS)
    rng = random.Random(7)
    models = [read_dotbracket(random_structure(rng, v))[0].diagram
              for v in ("multiloop", "pseudoknot")]
    try:
        warm = [pool.draw(m.sequence, m.structure, 120.0).svg for m in models]
        assert len(pool.made) == 1 and pool.made[0].process.started == 1
        assert warm == [_varna_once(m.sequence, m.structure, 120.0)[0] for m in models]
        assert all(svg is not None for svg in warm)
        with pytest.raises(ProcessTimeout):
            pool.draw(models[0].sequence, models[0].structure, 0.0)
        assert not pool.made[0].process.running
        assert pool.draw(models[0].sequence, models[0].structure, 120.0).svg == warm[0]
        assert len(pool.made) == 1 and pool.made[0].process.started == 2
    finally:
        pool.close()
    bad = ("GGGAAACCCA", "(((...))))")
    said = run_varna(*bad, 120.0)
    assert said == _varna_once(*bad, 120.0) and "Unmatched closing parentheses" in said[1]


def test_a_warm_varna_jvm_ends_when_its_input_ends():
    """The JVM's input closed as if diagbench had been killed (no request to end): it
    exits by itself, VARNA's own threads notwithstanding (they kept it alive, an orphan,
    after a killed build)."""
    from diagbench.languages.dotbracket.engine import JAR, OPTIONS
    from diagbench.languages.dotbracket.varna import VarnaPool, launcher
    from diagbench.render.programs import program

    launcher_jar = launcher(JAR)
    if launcher_jar is None:
        pytest.skip("no javac: VARNA's launcher cannot be built")
    pool = VarnaPool(program("java"), JAR, launcher_jar, OPTIONS)
    try:
        assert pool.draw("GGGAAACCC", "(((...)))", 120.0).svg is not None
        process = pool.made[0].process.process
        assert process is not None and process.stdin is not None
        process.stdin.close()
        assert process.wait(120) == 0
    finally:
        pool.close()
