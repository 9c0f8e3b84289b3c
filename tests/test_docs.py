"""The documentation: the site builds with warnings as errors, every command it shows
runs on bundled data offline, every command and option it names exists, and the
README stays short and agrees with the tables it summarises."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from tests import docs_pages
from tests.docs_pages import DOCS, REPO, Block

sys.path.insert(0, str(REPO / "tools" / "docs"))
import clitree  # tools/docs is not a package

README = REPO / "README.md"
_RUNNABLE = [page for page in docs_pages.pages()
             if any(b.no_run is None for b in docs_pages.blocks(page))]


def _env(work: Path) -> dict[str, str]:
    """The environment the blocks run in: `diagbench` on PATH (this checkout's), a
    response cache of their own, and a git identity for the blocks that commit."""
    shim = work / ".venv" / "bin"  # as the README calls it, and on PATH as the pages do
    shim.mkdir(parents=True, exist_ok=True)
    (shim / "diagbench").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m diagbench "$@"\n')
    (shim / "diagbench").chmod(0o755)
    env = dict(os.environ)
    env.update(PATH=f"{shim}{os.pathsep}{env['PATH']}", PYTHONPATH=str(REPO / "src"),
               DIAGBENCH_CACHE=str(work / ".cache.sqlite"), GIT_AUTHOR_NAME="docs",
               GIT_AUTHOR_EMAIL="docs@example.org", GIT_COMMITTER_NAME="docs",
               GIT_COMMITTER_EMAIL="docs@example.org", GIT_CONFIG_GLOBAL=os.devnull)
    return env


def _run(block: Block, work: Path) -> None:
    done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", block.code], cwd=work,
                          env=_env(work), capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, (
        f"{block.where}: exit {done.returncode}\n{block.code}\n"
        f"stdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-3000:]}")


@pytest.fixture(scope="session")
def quick_start(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder where the README's commands ran, as a new user runs them: the bundled
    examples beside them, their data set and run left for the other pages' commands."""
    work = tmp_path_factory.mktemp("docs-base")
    (work / "examples").symlink_to(REPO / "examples")
    for block in docs_pages.blocks(README):
        if block.no_run is None:
            _run(block, work)
    return work


def test_readme_quick_start_runs_as_written(quick_start: Path) -> None:
    assert (quick_start / "runs/pb/summary.json").is_file()
    assert (quick_start / "runs/pb/report.html").is_file()
    assert (quick_start / "view/index.html").is_file()


@pytest.mark.parametrize("page", [p for p in _RUNNABLE if p != README],
                         ids=lambda p: str(p.relative_to(DOCS)))
def test_every_command_of_a_page_runs(page: Path, quick_start: Path, tmp_path: Path) -> None:
    """Each page's blocks in order, in a copy of the quick start's folder (a block that
    is the README's quick start again, which `quick_start` ran, is not run twice)."""
    work = tmp_path / "work"
    shutil.copytree(quick_start, work, symlinks=True)
    ran = {_same(b.code) for b in docs_pages.blocks(README) if b.no_run is None}
    for block in docs_pages.blocks(page):
        if block.no_run is None and _same(block.code) not in ran:
            _run(block, work)


def _same(code: str) -> str:
    return code.replace(".venv/bin/diagbench", "diagbench")


def _option_errors(words: list[str]) -> list[str]:
    chain, rest = clitree.resolve(words)
    known = set().union(*(node.option_names() for node in chain)) | {"-h", "--help"}
    errors = [f"no option {o} in `{chain[-1].path}`"
              for o in (w.split("=")[0] for w in rest if w.startswith("-") and w != "-")
              if o not in known]
    if isinstance(chain[-1].command, click.Group) and len(chain) > 1 and \
            not any(w in ("-h", "--help") for w in words):
        errors.append(f"`{chain[-1].path}` needs a subcommand")
    return errors


def test_every_command_and_option_shown_exists() -> None:
    errors = []
    for page in docs_pages.pages():
        for block in docs_pages.blocks(page):
            for words in docs_pages.diagbench_calls(block.code):
                errors += [f"{block.where}: {e}" for e in _option_errors(words)]
    assert errors == []


def test_option_checks_catch_a_renamed_option() -> None:
    assert _option_errors(["eval", "prior-bias", "--dat", "x"]) == \
        ["no option --dat in `diagbench eval prior-bias`"]
    assert _option_errors(["build"]) == ["`diagbench build` needs a subcommand"]
    assert _option_errors(["-q", "build", "prior-bias", "--per-cell", "2", "--out=x"]) == []


def test_calls_are_found_as_the_shell_splits_commands() -> None:
    code = ("mkdir -p gold && diagbench eval x --a 1; echo '{\"k\": \"b;c\"}' > r.jsonl\n"
            "FOO=1 .venv/bin/diagbench view runs/pb --out v | head\n"
            "diagbench compare a b \\\n    --json -  # a comment --not-an-option\n")
    assert docs_pages.diagbench_calls(code) == [
        ["eval", "x", "--a", "1"], ["view", "runs/pb", "--out", "v"],
        ["compare", "a", "b", "--json", "-"]]


#: Options of other programs that the pages name: git, pip, uv, vLLM, Ray, the
#: harnesses, and the scripts in bench/.
OTHER_PROGRAMS = {"--no-index", "--require-hashes", "--no-deps", "--generate-hashes",
                  "--upgrade-package", "--tensor-parallel-size", "--max-model-len",
                  "--limit-mm-per-prompt", "--model-base-url", "--include_path", "--address",
                  "--head", "--kinds", "--n", "--base", "--whole", "--breakdown"}


def test_every_option_named_in_prose_exists() -> None:
    options = set().union(*(node.option_names() for node in clitree.walk())) | {"--help"}
    unknown = {f"{page.relative_to(REPO)}: {option}" for page in docs_pages.pages()
               for option in docs_pages.inline_options(page)
               if option not in options and option not in OTHER_PROGRAMS}
    assert sorted(unknown) == []


def test_docs_build_strict(tmp_path: Path) -> None:
    """`mkdocs build --strict`: no warning (broken link or anchor, a page left out of
    the navigation); every language page shows its examples drawn, and the CLI
    reference has every command."""
    site = tmp_path / "site"
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"), NO_MKDOCS_2_WARNING="1")
    # not -q: it hides the warnings from --strict, which then passes a broken link
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "-d", str(site)], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    from importlib.metadata import version

    from diagbench.languages import LANGUAGES
    for language in LANGUAGES:
        page = (site / "languages" / f"{language.name}.html").read_text(encoding="utf-8")
        assert "image-to-code similarity" in page and "Python libraries" in page
        for library in language.libraries:  # each with its installed version
            assert f"{library} {version(library)} (" in page, (language.name, library)
        for example in language.examples:
            assert f'src="img/{example}.png"' in page, (language.name, example)
            assert (site / "languages" / "img" / f"{example}.png").stat().st_size > 1000
    records = (site / "reference" / "records.html").read_text(encoding="utf-8")
    for record in ("ResponseRecord", "Ask", "Answer", "ConversionScore", "PriorBiasScore",
                   "ArchQAScore", "StructureTask", "CodegenScore"):
        assert f"<code>{record}</code>" in records, record
    reference = (site / "reference" / "cli.html").read_text(encoding="utf-8")
    for node in clitree.walk():
        assert not node.words or f"<code>{node.path}</code>" in reference, node.path
        for option in node.option_names():
            assert f"<code>{option}</code>" in reference, (node.path, option)


def test_readme_is_short_and_opens_with_the_set_up() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= 10_000
    first = docs_pages.blocks(README)[0].code
    assert docs_pages.command_lines(first) == ["bash scripts/main.sh", "bash scripts/test.sh"]


def test_readme_links_lead_to_files() -> None:
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    missing = [link for link in links if "://" not in link and not (REPO / link).exists()]
    assert links and missing == []


def _first_table(text: str, heading: str) -> list[list[str]]:
    lines = text[text.index(heading):].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    return [[c.strip() for c in line.strip("|").split("|")] for line in lines[start + 2:end]]


def test_readme_categories_table_is_the_languages_table() -> None:
    from diagbench.languages import CATEGORIES, LANGUAGES
    rows = _first_table(README.read_text(encoding="utf-8"), "## Categories")
    expected = [[f"`{c.name}`", c.title, c.domain,
                 ", ".join(lang.title for lang in LANGUAGES if c.name in lang.categories)]
                for c in CATEGORIES]
    assert rows == expected


def test_readme_benchmarks_table_is_the_registry() -> None:
    from diagbench.benchmarks.registry import registered
    rows = _first_table(README.read_text(encoding="utf-8"), "## Benchmarks")
    assert [row[0] for row in rows] == [f"[`{name}`](docs/benchmarks/{name}.md)"
                                        for name in sorted(registered())]


_TRACKER = re.compile(r"\bissues? \d+|\(#\d+\)|\bthe issue\b", re.I)


def test_no_tracker_talk_where_users_read() -> None:
    found = [f"{page.relative_to(REPO)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
             for page in docs_pages.pages() for text in [page.read_text(encoding="utf-8")]
             for m in _TRACKER.finditer(text)]
    assert found == []
