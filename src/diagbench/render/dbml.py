"""DBML through its reference parser and Graphviz: valid means "@dbml/core reads it and
`dot` draws it".

The pinned `@dbml/core` (`tools/dbml`, the parser dbdiagram.io and the DBML CLI use)
reads each source in one Node process per batch (`tools/dbml/dbml.mjs`) and returns
its normalised model, or its first diagnostic with the line. The model is drawn as
DOT — one record-like node per table (name, then one row per column with its type
and key flags), one edge per reference (composite and many-to-many included) from
its first endpoint to its second with the cardinalities at the ends, one cluster per
table group, one note-shaped node per sticky note — and rendered by the Graphviz
engine, so the SVG statistics (`graph_stats`) count exactly tables, refs, table
groups and notes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from diagbench.render.graphviz import GraphvizEngine
from diagbench.render.result import EngineMissing, RenderResult, refusal

TOOL = Path(__file__).resolve().parents[3] / "tools" / "dbml"
#: The SVG class of a sticky note's node, told apart from tables by graph_stats.
NOTE_CLASS = "dbmlnote"


@cache
def dbml_core_version() -> str:
    """The installed @dbml/core version; EngineMissing when Node or it is absent."""
    installed = TOOL / "node_modules" / "@dbml" / "core" / "package.json"
    if shutil.which("node") is None or not installed.is_file():
        raise EngineMissing("DBML rendering needs node and @dbml/core: "
                            "bash scripts/setup.sh installs them")
    return json.loads(installed.read_text(encoding="utf-8"))["version"]


def reference_models(sources: list[str], timeout: float = 60.0) -> list[dict[str, Any]]:
    """What @dbml/core reads in each source: {"ok", "error", "line", "model"} (see
    tools/dbml/dbml.mjs for the model's fields), in one Node process."""
    dbml_core_version()
    job = {"items": [{"id": str(k), "code": s} for k, s in enumerate(sources)]}
    with tempfile.TemporaryDirectory(prefix="diagbench-dbml-") as work:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work,
               "LANG": "C.UTF-8"}
        try:
            done = subprocess.run(["node", str(TOOL / "dbml.mjs")], input=json.dumps(job),
                                  capture_output=True, text=True, env=env, cwd=TOOL,
                                  timeout=timeout + len(sources), check=False)
            lines = done.stdout.splitlines()
        except subprocess.TimeoutExpired:
            lines = []
    out: list[dict[str, Any]] = [
        {"ok": False, "error": "the DBML parser stopped before this diagram", "line": None,
         "model": None} for _ in sources]
    for line in lines:
        report = json.loads(line)
        out[int(report["id"])] = report
    return out


def _q(text: str) -> str:
    """A DOT double-quoted string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _h(text: str) -> str:
    """Text for an HTML-like label."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("\n", " "))


def _table_id(schema: str, name: str) -> str:
    return name if schema == "public" else f"{schema}.{name}"


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
                f'{_h(_table_id(*key))}</b></font></td></tr>']
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
            f"  {_q(_table_id(*key))} [label={label}];")
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
            points.append(_q(_table_id(*key)) + (f":c{port}" if port is not None else ""))
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

    def version(self) -> str:
        return f"@dbml/core {dbml_core_version()} + graphviz {GraphvizEngine().version()}"

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress: Callable[[], None] = lambda: None) -> list[RenderResult]:
        version = self.version()
        results = [RenderResult(k, self.name, version, error=refusal(s))
                   for k, s in enumerate(sources)]
        todo = [k for k, r in enumerate(results) if r.error is None]
        for r in results:
            if r.error is not None:
                progress()
        reports = reference_models([sources[k] for k in todo], self.timeout * 3)
        drawn: list[tuple[int, str]] = []
        for k, report in zip(todo, reports, strict=True):
            if report["ok"]:
                drawn.append((k, model_to_dot(report["model"])))
            else:
                results[k].error, results[k].error_line = report["error"], report["line"]
                progress()
        graphviz = GraphvizEngine(jobs=self.jobs, timeout=self.timeout)
        with tempfile.TemporaryDirectory(prefix="diagbench-dbml-", dir=out_dir) as staging:
            rendered = graphviz.render([d for _, d in drawn], Path(staging), fmt, progress)
            for (k, _), result in zip(drawn, rendered, strict=True):
                result.index, result.engine, result.version = k, self.name, version
                if result.image is not None:  # numbered by Graphviz's batch: renumber
                    result.image = Path(shutil.move(result.image, out_dir / f"{k:06d}.{fmt}"))
                results[k] = result
        return results
