"""DBML through its reference parser and Graphviz: valid means "@dbml/core reads it and
`dot` draws it".

The pinned `@dbml/core` (`tools/dbml`, the parser dbdiagram.io and the DBML CLI use)
reads each source in the warm Node process of `languages.dbml.core`, the one the DBML
reader uses, and returns its normalised model, or its diagnostics (the first is the
engine's error, with its line). The model is drawn as
DOT — one record-like node per table (name, then one row per column with its type
and key flags), one edge per reference (composite and many-to-many included) from
its first endpoint to its second with the cardinalities at the ends, one cluster per
table group, one note-shaped node per sticky note — and rendered by the Graphviz
engine, so the SVG statistics (`graph_stats`) count exactly tables, refs, table
groups and notes.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from diagbench.languages.dbml.core import ParserMissing, dbml_core_version, shared
from diagbench.languages.dbml.read import table_id
from diagbench.languages.dot.styles import GRAPHVIZ_STYLES, styled_dot
from diagbench.languages.styled import opened
from diagbench.render.graphviz import GraphvizEngine
from diagbench.render.result import EngineMissing, RenderResult, refusal

#: The SVG class of a sticky note's node, told apart from tables by graph_stats.
NOTE_CLASS = "dbmlnote"


def _q(text: str) -> str:
    """A DOT double-quoted string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _h(text: str) -> str:
    """Text for an HTML-like label."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("\n", " "))


def model_to_dot(model: dict[str, Any]) -> str:
    """The DOT drawing of a @dbml/core model (see the module's docstring)."""
    lines = ["digraph dbml {", "  graph [rankdir=LR, fontname=Helvetica];",
             "  node [shape=plaintext, fontname=Helvetica, fontsize=11];",
             "  edge [dir=none, fontname=Helvetica, fontsize=10];"]
    ports: dict[tuple[str, str], dict[str, int]] = {}
    tables: dict[str | None, list[str]] = {}
    for table in model["tables"]:
        key = (table["schema"], table["name"])
        ports[key] = {c["name"]: k for k, c in enumerate(table["columns"])}
        rows = [f'<tr><td bgcolor="#1f4e79"><font color="white"><b>'
                f'{_h(table_id(*key))}</b></font></td></tr>']
        for k, column in enumerate(table["columns"]):
            flags = [flag for flag, on in (("PK", column["pk"]), ("unique", column["unique"]),
                                           ("not null", column["not_null"]),
                                           ("increment", column["increment"])) if on]
            text = f"{column['name']}  {column['type']}" + (f"  [{', '.join(flags)}]"
                                                             if flags else "")
            rows.append(f'<tr><td port="c{k}" align="left">{_h(text)}</td></tr>')
        label = ('<<table border="1" cellborder="0" cellspacing="0" cellpadding="4">'
                 + "".join(rows) + "</table>>")
        tables.setdefault(table.get("group"), []).append(
            f"  {_q(table_id(*key))} [label={label}];")
    for group, members in tables.items():
        if group is None:
            lines += members
    for n, group in enumerate(model["groups"]):
        lines.append(f"  subgraph cluster_{n} {{")
        lines.append(f"    label={_q(group['name'])}; style=rounded; color=\"#7f7f7f\";")
        lines += ["  " + m for m in tables.get(group["name"], [])]
        lines.append("  }")
    for n, note in enumerate(model["notes"]):
        lines.append(f"  {_q('note ' + str(n))} [shape=note, class={_q(NOTE_CLASS)}, "
                     f"label={_q(note['content'] or note['name'] or '')}];")
    for ref in model["refs"]:
        ends = ref["ends"]
        if len(ends) != 2:
            continue
        points = []
        for end in ends:
            key = (end["schema"], end["table"])
            port = ports.get(key, {}).get(end["columns"][0] if end["columns"] else "")
            points.append(_q(table_id(*key)) + (f":c{port}" if port is not None else ""))
        label = f", label={_q(ref['name'])}" if ref.get("name") else ""
        lines.append(f"  {points[0]} -> {points[1]} [taillabel={_q(ends[0]['relation'])}, "
                     f"headlabel={_q(ends[1]['relation'])}{label}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


class DbmlEngine:
    """Render DBML: @dbml/core reads it (one Node process), Graphviz draws it."""

    name = "dbml"

    def __init__(self, jobs: int = 2, timeout: float = 20.0) -> None:
        self.jobs = jobs
        self.timeout = timeout
        self._graphviz = GraphvizEngine(jobs=jobs, timeout=timeout)  # keeps a PNG's SVG

    def version(self) -> str:
        try:
            core = dbml_core_version()
        except ParserMissing as exc:
            raise EngineMissing(str(exc)) from None
        return f"@dbml/core {core} + graphviz {self._graphviz.version()}"

    def close(self) -> None:
        """End the warm @dbml/core process (the next source starts it again) and forget
        the drawings Graphviz kept of the last batch."""
        shared().close()
        self._graphviz.close()

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress: Callable[[], None] = lambda: None) -> list[RenderResult]:
        version = self.version()
        results = [RenderResult(k, self.name, version, error=refusal(s))
                   for k, s in enumerate(sources)]
        todo = [k for k, r in enumerate(results) if r.error is None]
        for r in results:
            if r.error is not None:
                progress()
        styles, texts = [""] * len(sources), list(sources)  # each source out of its envelope
        for k in todo[:]:
            try:
                styles[k], texts[k] = opened(sources[k], GRAPHVIZ_STYLES)
            except ValueError as exc:
                results[k].error = str(exc)
                todo.remove(k)
                progress()
        answers = shared().read_many([texts[k] for k in todo], self.timeout)
        drawn: list[tuple[int, str]] = []
        for k, answer in zip(todo, answers, strict=True):
            if answer.model is not None:
                drawn.append((k, styled_dot(model_to_dot(answer.model), styles[k])))
            else:
                first = answer.diagnostics[0]
                results[k].error, results[k].error_line = first.message, first.line or None
                progress()
        with tempfile.TemporaryDirectory(prefix="diagbench-dbml-", dir=out_dir) as staging:
            rendered = self._graphviz.render([d for _, d in drawn], Path(staging), fmt, progress)
            for (k, _), result in zip(drawn, rendered, strict=True):
                result.index, result.engine, result.version = k, self.name, version
                if result.image is not None:  # numbered by Graphviz's batch: renumber
                    result.image = Path(shutil.move(result.image, out_dir / f"{k:06d}.{fmt}"))
                results[k] = result
        return results
