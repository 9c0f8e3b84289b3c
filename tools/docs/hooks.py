"""MkDocs hooks: the pages diagbench writes from its own code when the documentation is
built — the language pages from the table of languages (examples drawn by the real
engines), the command-line reference from the click commands, and the records page
from the typed records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cli_reference
import language_pages
import records_page
from mkdocs.structure.files import File, Files

_LANGUAGES_SECTION = "Languages"


def on_config(config: Any) -> Any:
    """List every language's page in the navigation, under its section."""
    from diagbench.languages import LANGUAGES

    for entry in config["nav"]:
        if isinstance(entry, dict) and _LANGUAGES_SECTION in entry:
            entry[_LANGUAGES_SECTION] += [{lang.title: f"languages/{lang.name}.md"}
                                          for lang in LANGUAGES]
    return config


def on_files(files: Files, config: Any) -> Files:
    docs_dir = Path(config["docs_dir"])
    for page in language_pages.pages(docs_dir):
        files.append(File.generated(config, f"languages/{page.name}.md", content=page.markdown))
        for name, png in page.images.items():
            files.append(File.generated(config, f"languages/img/{name}", content=png))
    files.append(File.generated(config, "languages/index.md", content=language_pages.index()))
    files.append(File.generated(config, "reference/cli.md", content=cli_reference.markdown()))
    files.append(File.generated(config, "reference/records.md", content=records_page.markdown()))
    return files
