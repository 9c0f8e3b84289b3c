"""The language pages, written from the table of languages when the documentation is
built: one page per language (its description, suffixes, category and domain, engine
and version, and every example file shown and drawn by the real engine), and the
index of languages and categories."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from diagbench.languages import CATEGORIES, LANGUAGES

#: Hand-written details of a language (how its reader, engine and similarity work),
#: appended to its generated page when present: `docs/languages/details/NAME.md`.
DETAILS = "languages/details"


@dataclass(frozen=True)
class Drawing:
    """One example file and what its engine drew."""

    name: str
    source: str
    png: bytes


@dataclass(frozen=True)
class Page:
    """One language's page and its images (file name → PNG)."""

    name: str
    title: str
    markdown: str
    images: dict[str, bytes]


class RenderFailed(RuntimeError):
    """An example the real engine did not draw: the documentation is not built."""


def _drawings(language, engine, out: Path) -> list[Drawing]:  # type: ignore[no-untyped-def]
    paths = language.example_paths()
    sources = [path.read_text(encoding="utf-8") for path in paths]
    folder = out / language.name
    folder.mkdir()
    results = engine.render(sources, folder, "png")
    drawings = []
    for path, source, result in zip(paths, sources, results, strict=True):
        if not result.ok or result.image is None:
            raise RenderFailed(f"{path.name}: {result.error or 'no image'}")
        drawings.append(Drawing(path.name, source, Path(result.image).read_bytes()))
    return drawings


def _fence(text: str, language: str = "text") -> str:
    fence = "````" if "```" in text else "```"
    return f"{fence}{language}\n{text.rstrip()}\n{fence}"


def _library(name: str) -> str:
    """A Python distribution with its installed version and licence (its metadata's
    licence expression, else its licence classifier, else its licence field)."""
    from importlib.metadata import metadata

    meta = metadata(name)
    classifiers = [c.split(" :: ")[-1] for c in meta.get_all("Classifier") or []
                   if c.startswith("License ::")]
    licence = (meta.get("License-Expression") or (classifiers[0] if classifiers else None)
               or (meta.get("License") or "").split("\n")[0][:60] or "see its metadata")
    return f"{name} {meta['Version']} ({licence})"


def _facts(language) -> str:  # type: ignore[no-untyped-def]
    """The facts asked of the first example (their subjects), or why none."""
    if not language.has_facts:
        return "counting questions only"
    [parsed] = language.read(language.example_paths()[0].read_text(encoding="utf-8"))
    subjects = dict.fromkeys(f"`{f.subject}` ({f.task})" for f in language.facts(parsed.diagram))
    return ", ".join(subjects) or "none of its example"


def _page(language, version: str, drawings: list[Drawing], details: str) -> Page:  # type: ignore[no-untyped-def]
    categories = {c.name: c for c in CATEGORIES}
    rows = [
        ("name (in options and records)", f"`{language.name}`"),
        ("suffixes", " ".join(f"`{s}`" for s in language.suffixes)),
        ("domain", language.domain),
        ("categories", ", ".join(f"{categories[c].title} (`{c}`)" for c in language.categories)),
        ("diagram kinds its reader tells apart", ", ".join(f"`{k}`" for k in language.kinds)),
        ("engine", f"`{language.engine}`, version {version}"),
        ("Python libraries", ", ".join(map(_library, language.libraries)) or
         "none: its reader is diagbench's own, its engine a separate program"),
        ("image-to-code similarity", language.similarity_doc()),
        ("facts asked of its example", _facts(language)),
    ]
    lines = [f"# {language.title}", "", language.doc.strip(), "",
             "| property | value |", "|---|---|",
             *(f"| {k} | {v.replace('|', chr(92) + '|')} |" for k, v in rows), "",
             "## Examples", "",
             f"The example files diagbench ships (in the `examples/` folder of its package), "
             f"each drawn by the `{language.engine}` engine when this page was built.", ""]
    images = {}
    for drawing in drawings:
        image = f"{Path(drawing.name).name}.png"
        images[image] = drawing.png
        lines += [f"### `{drawing.name}`", "", _fence(drawing.source), "",
                  f"![{drawing.name} drawn by {language.engine}](img/{image})", ""]
    if details:
        lines += ["## How diagbench reads, draws and scores it", "", details.strip(), ""]
    return Page(language.name, language.title, "\n".join(lines), images)


def pages(docs_dir: Path) -> list[Page]:
    """Every language's page, its examples drawn by the real engines."""
    out = []
    with tempfile.TemporaryDirectory(prefix="diagbench-docs-") as tmp:
        for language in LANGUAGES:
            engine = language.make_engine(1, 120)
            drawings = _drawings(language, engine, Path(tmp))
            details_file = docs_dir / DETAILS / f"{language.name}.md"
            details = details_file.read_text(encoding="utf-8") if details_file.exists() else ""
            out.append(_page(language, engine.version(), drawings, details))
    return out


def index() -> str:
    """The page listing every language and every category."""
    lines = ["# Languages and categories", "",
             "Every formal language diagbench reads, draws and scores is one entry of one "
             "table (`diagbench.languages`); `diagbench languages` lists them with their "
             "engines' versions. This page is generated from that table.", "",
             "| language | suffixes | domain | categories | engine |", "|---|---|---|---|---|"]
    lines += [f"| [{lang.title}]({lang.name}.md) | {' '.join(f'`{s}`' for s in lang.suffixes)} | "
              f"{lang.domain} | {', '.join(f'`{c}`' for c in lang.categories)} | `{lang.engine}` |"
              for lang in LANGUAGES]
    lines += ["", "## Categories", "",
              "The categories of diagrams the benchmarks generate (STRUDEL's Table 1), with "
              "the languages each is drawn in:", "",
              "| category | title | domain | languages |", "|---|---|---|---|"]
    for category in CATEGORIES:
        names = [f"[{lang.title}]({lang.name}.md)" for lang in LANGUAGES
                 if category.name in lang.categories]
        lines.append(f"| `{category.name}` | {category.title} | {category.domain} | "
                     f"{', '.join(names)} |")
    lines += ["", "To add a language, see [adding a language](../guides/adding-a-language.md).",
              ""]
    return "\n".join(lines)
