"""The common checks every language of the table passes (as scikit-learn's
`parametrize_with_checks` does for estimators), shipped so that a contributor checks a
new language with one call:

    from diagbench.languages import named
    from diagbench.languages.checks import check_language

    check_language(named("smiles"))          # raises AssertionError naming what fails

or, one test per check, `pytest.mark.parametrize("check", checks(language))`.

What is checked, with the real engine:

- **parts**: the descriptive fields are well formed, and the language reads, draws and
  compares (`read`, `drawn`, `compare`), is written from a graph or generates its own
  code, and has an edit (`edit`);
- **examples**: each example is recognised by its suffix and by its content, and reads
  without error into one diagram; together they give every kind the language lists;
- **drawn as read**: the examples and `generated` generated diagrams render to PNG and
  SVG, and every count the engine drew (`drawn`) that the reader counts too is the
  reader's — one at least, and the count its node limits bound (`size`) when named;
  and every fact that asks a count the engine drew (its `subject` a key of
  `Drawn.counts`: "leaves", "bases", "pairs" …) has the drawn count as its answer;
  and each of its styles (`styles`) draws one of them (each in turn) another way: it
  renders, to a PNG other than the default drawing's, with the default drawing's
  counts (a style changes no answer);
- **similarity**: each diagram scores 1 against itself and against another writing of
  it (`rewrite`), 0 when the prediction does not render, strictly between 0 and 1 after
  one edit (`edit`) and no higher after a second, and 0 for a broken code,
  which the engine or the reader refuses with a reason;
- **facts**: every fact has one answer, and no question is asked twice;
- **bad input**: the reader never raises, on deep nesting, a 1 MB line and binary noise.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from diagbench.languages import CATEGORIES, detect
from diagbench.languages.record import Language

if TYPE_CHECKING:
    from diagbench.render.engines import Engine
    from diagbench.render.result import RenderResult

Check = Callable[[Language], None]
COMPLEXITIES = ("low", "medium", "high")


def codes(language: Language, generated: int = 3) -> list[tuple[str, str]]:
    """(name, code) of the examples, then of `generated` codes the language writes: by its
    own generator (seeded, cycling through the complexities) or, for a language written
    from a graph, from each example's model (`write`)."""
    out = [(path.name, path.read_text(encoding="utf-8")) for path in language.example_paths()]
    if language.generates:
        out += [(f"generated-{k}", language.generate(random.Random(k), COMPLEXITIES[k % 3]))
                for k in range(generated)]
    elif language.writes_graphs:
        from diagbench.diagram.graph import GraphDiagram

        for name, code in out[:]:
            [parsed] = language.read(code)
            if isinstance(parsed.diagram, GraphDiagram) and parsed.kind != "c4":
                out.append((f"written-{name}", language.write(parsed.diagram)))
    return out


def check_parts(language: Language) -> None:
    """The descriptive fields are well formed and every part is there."""
    assert language.name and language.title and language.domain and language.doc.strip()
    assert language.suffixes and all(s.startswith(".") and s == s.lower()
                                      for s in language.suffixes)
    categories = {c.name: c for c in CATEGORIES}
    assert language.categories and set(language.categories) <= set(categories)
    assert all(set(categories[c].kinds) & set(language.kinds) for c in language.categories)
    assert language.kinds and language.examples and language.engine
    for part in ("read", "drawn", "compare", "edit"):
        assert getattr(type(language), part) is not getattr(Language, part) or (
            part == "edit" and language.writes_graphs), f"no {part}"
    missing = [str(path) for path in language.example_paths() if not path.is_file()]
    assert not missing, f"no example file {', '.join(missing)}"
    assert language.writes_graphs or language.generates, "neither written nor generated"
    low, high = language.node_limits
    assert 0 < low <= high


def check_examples(language: Language) -> None:
    """Each example is recognised and reads without error; every kind is shown."""
    kinds = set()
    for path in language.example_paths():
        text = path.read_text(encoding="utf-8")
        assert detect(path, text) is language, f"{path.name}: not recognised by its suffix"
        assert detect(None, text) is language, f"{path.name}: not recognised by its content"
        parsed = language.read(text)
        assert len(parsed) == 1, f"{path.name}: {len(parsed)} diagrams"
        [p] = parsed
        assert p.errors == (), f"{path.name}: {p.errors}"
        assert p.language == language.name and p.kind in language.kinds, (path.name, p.kind)
        assert sum(p.counts().values()) > 0, f"{path.name}: nothing counted"
        assert language.size is None or language.size in p.counts(), path.name
        kinds.add(p.kind)
    assert kinds == set(language.kinds), f"kinds without an example: {set(language.kinds) - kinds}"


def check_drawn_as_read(language: Language, generated: int = 3) -> None:
    """Examples and generated codes render, and the engine drew what the reader read;
    each style draws one of them another way, with the same drawn counts."""
    named = codes(language, generated)
    kinds = [language.read(code)[0].kind for _, code in named]
    styles = language.styles()
    assert "" not in styles and len(set(styles)) == len(styles), f"styles {styles}"
    jobs = [(k, "") for k in range(len(named))]
    jobs += [(k % len(named), style) for k, style in enumerate(styles)]
    engine = language.make_engine(2, 60.0)  # one engine, warm for both formats
    with _rendered(engine, [language.prepare(named[k][1], kinds[k], False, style)
                            for k, style in jobs], "png") as pngs, \
            _rendered(engine, [language.prepare(named[k][1], kinds[k], True, style)
                               for k, style in jobs], "svg") as svgs:
        drawings = {}  # (code, style) → (the PNG, the drawn counts)
        for (k, style), png, svg in zip(jobs, pngs, svgs, strict=True):
            what = named[k][0] + (f" in style {style!r}" if style else "")
            assert png.ok and png.image is not None, f"{what}: {png.error}"
            assert png.image.read_bytes().startswith(b"\x89PNG\r\n\x1a\n"), what
            assert svg.ok and svg.image is not None, f"{what}: {svg.error}"
            drawn = language.drawn(kinds[k], svg.image.read_text(encoding="utf-8")).counts
            drawings[k, style] = png.image.read_bytes(), drawn
    for k, (name, code) in enumerate(named):
        drawn = drawings[k, ""][1]
        read = language.read(code)[0].counts()
        shared = {key for key in drawn if key in read}
        assert shared, f"{name}: the drawing shows none of the counts read"
        assert language.size is None or language.size in shared, \
            f"{name}: the drawing does not show {language.size}"
        assert {key: drawn[key] for key in shared} == {key: read[key] for key in shared}, \
            f"{name}: drawn {drawn}, read {read}"
        for fact in language.facts(language.read(code)[0].diagram):
            assert fact.subject not in drawn or fact.answer == drawn[fact.subject], \
                f"{name}: {fact.question} {fact.answer!r}, drawn {drawn[fact.subject]}"
    for k, style in jobs[len(named):]:
        (image, drawn), (default_image, default_drawn) = drawings[k, style], drawings[k, ""]
        assert image != default_image, f"{named[k][0]}: style {style!r} draws the default image"
        assert drawn == default_drawn, \
            f"{named[k][0]}: style {style!r} drew {drawn}, the default drawing {default_drawn}"


def check_similarity(language: Language, generated: int = 3) -> None:
    """1 against itself, 0 when invalid, strictly between after an edit, 0 when broken."""
    from diagbench.languages.rendering import validity

    rng = random.Random(0)
    edited = 0
    for name, code in codes(language, generated):
        assert language.compare_code(code, code, True).score == 1.0, f"{name}: itself"
        assert language.compare_code(code, code, False).score == 0.0, f"{name}: invalid"
        same = language.rewrite(code, rng)
        if same is not None:
            score = language.compare_code(code, same, True).score
            assert score == 1.0, f"{name}: written another way, scores {score}"
        changed = language.edit(code, rng)
        if changed is not None:
            [(valid, error)] = validity(language, [changed])
            assert valid, f"{name}: the edit does not render: {error}"
            score = language.compare_code(code, changed, True).score
            assert 0.0 < score < 1.0, f"{name}: edited, scores {score}"
            again = language.edit(changed, rng)
            if again is not None:  # a series of edits: each one scores no higher
                twice = language.compare_code(code, again, True).score
                assert twice <= score, f"{name}: edited twice, scores {twice} > {score}"
            edited += 1
    assert edited, "no diagram has an edit"
    broken = _broken(language)
    [(valid, error)] = validity(language, [broken])
    read_errors = [e for p in language.read(broken) for e in p.errors]
    assert not valid or read_errors, f"a broken code is valid: {broken!r}"
    assert error or read_errors, "a broken code without a reason"
    gold = language.example_paths()[0].read_text(encoding="utf-8")
    assert language.compare_code(gold, broken, valid).score == 0.0, "a broken code scores"


def _broken(language: Language) -> str:
    """The first example cut after a third of it, then unbalanced brackets."""
    text = language.example_paths()[0].read_text(encoding="utf-8")
    return text[:len(text) // 3] + "(((\n"


def check_facts(language: Language, generated: int = 3) -> None:
    """Every fact has one answer, and no question is asked twice of a diagram."""
    for name, code in codes(language, generated):
        for parsed in language.read(code):
            facts = language.facts(parsed.diagram)
            questions = [f.question for f in facts]
            assert len(set(questions)) == len(questions), f"{name}: a question asked twice"
            assert all(f.answer is not None and f.answer != "" for f in facts), name


#: Inputs no reader may raise on.
PATHOLOGICAL = {"deep nesting": "(" * 50_000 + ")" * 50_000,
                "a 1 MB line": "x" * 1_000_000,
                "binary noise": bytes(range(256)).decode("latin-1") * 16,
                "empty": ""}


def check_bad_input(language: Language) -> None:
    """The reader never raises: on bad input it returns diagnostics."""
    for what, text in PATHOLOGICAL.items():
        try:
            language.read(text)
        except Exception as exc:  # the contract is what is checked here
            raise AssertionError(f"{what}: the reader raised {type(exc).__name__}: {exc}"
                                 ) from exc


CHECKS: tuple[Check, ...] = (check_parts, check_examples, check_drawn_as_read,
                             check_similarity, check_facts, check_bad_input)


def checks(language: Language) -> Iterator[tuple[Language, Check]]:
    """(language, check) for each common check, to parametrise tests with."""
    for check in CHECKS:
        yield language, check


def check_language(language: Language) -> None:
    """Run every common check on `language`; AssertionError names the one that fails."""
    for check in CHECKS:
        try:
            check(language)
        except AssertionError as exc:
            raise AssertionError(f"{language.name}: {check.__name__}: {exc}") from exc


@contextmanager
def _rendered(engine: Engine, sources: list[str], fmt: str) -> Iterator[list[RenderResult]]:
    """The codes rendered by `engine` into a temporary folder (removed after)."""
    folder = Path(tempfile.mkdtemp(prefix="diagbench-check-"))
    try:
        yield engine.render(sources, folder, fmt)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
