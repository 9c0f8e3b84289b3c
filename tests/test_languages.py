"""The language table as a whole: one home per name and suffix, the `languages` command,
and a table that imports nothing heavy. Each language's own parts are checked by the
common checks (`tests/test_language_checks.py`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from diagbench.cli import cli
from diagbench.languages import CATEGORIES, LANGUAGES, languages_of, make_engine

ROOT = Path(__file__).resolve().parents[1]


def test_the_table_has_one_home_per_name_and_suffix():
    names = [x.name for x in LANGUAGES]
    titles = [x.title for x in LANGUAGES]
    suffixes = [s for x in LANGUAGES for s in x.suffixes]
    assert len(set(names)) == len(names) and len(set(titles)) == len(titles)
    assert len(set(suffixes)) == len(suffixes)
    # exactly one language takes what no other recognises
    assert sum(x.fallback for x in LANGUAGES) == 1
    # every category is drawn in some language, and categories are named once
    assert len({c.name for c in CATEGORIES}) == len(CATEGORIES)
    kinds = [kind for c in CATEGORIES for kind in c.kinds]
    assert len(set(kinds)) == len(kinds), "a diagram kind names one category only"
    # an engine of a language's own is started by that language alone (`make_engine`
    # finds the language by its engine's name); the shared engines serve several
    from diagbench.render.engines import ENGINES

    own = [language.engine for language in LANGUAGES if language.engine not in ENGINES]
    assert len(set(own)) == len(own), "two languages name one engine of their own"
    assert all(languages_of(c.name) for c in CATEGORIES)


# --- the command ------------------------------------------------------------------------

def test_languages_command_lists_the_table():
    done = CliRunner().invoke(cli, ["languages", "--json"])
    assert done.exit_code == 0, done.output
    rows = json.loads(done.output)
    assert [r["language"] for r in rows] == [x.name for x in LANGUAGES]
    for row, language in zip(rows, LANGUAGES, strict=True):
        assert row["suffixes"] == list(language.suffixes)
        assert row["engine"] == language.engine
        assert row["engine_version"] == make_engine(language.engine, 1, 60.0).version()
    text = CliRunner().invoke(cli, ["languages"]).output.splitlines()
    assert text[0].split()[:2] == ["language", "suffixes"]
    assert [line.split()[0] for line in text[1:]] == [x.name for x in LANGUAGES]


def test_languages_command_says_unavailable_without_the_tools(tmp_path: Path):
    env = {**os.environ, "PATH": str(tmp_path), "DIAGBENCH_CHROMIUM": str(tmp_path / "none"),
           "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-m", "diagbench", "languages", "--json"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    versions = {r["engine"]: r["engine_version"] for r in json.loads(done.stdout)}
    assert versions["graphviz"] == versions["mermaid"] == versions["dbml"] == "unavailable"


def test_the_table_imports_no_parser_engine_or_comparison():
    code = ("import sys, diagbench.languages; print(' '.join(m for m in sys.modules "
            "if m.startswith('diagbench.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, check=True)
    loaded = done.stdout.split()
    assert "diagbench.languages.table" in loaded
    assert not [m for m in loaded if m.startswith(("diagbench.formats.", "diagbench.render.",
                                                   "diagbench.compare."))]
