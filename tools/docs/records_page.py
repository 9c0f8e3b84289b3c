"""The records page, written from diagbench's typed records when the documentation is
built: every dataclass that a run's files hold — the runner's response record, the
asks and answers between phases, and each benchmark's records module — with its
fields and their types, so the page cannot fall behind the code."""

from __future__ import annotations

import dataclasses
import importlib
import inspect

_SHARED = ("diagbench.models.runner", "diagbench.models.response", "diagbench.benchmarks.asking")

_INTRO = """# Records

Generated from diagbench's typed records when the documentation is built. Each is a
frozen dataclass that reads and writes its JSON in one place; a file of records holds
one record's JSON a line (JSONL). Where each is written is described in
[files and records](formats.md) and on each benchmark's page.
"""


def _modules() -> list[str]:
    from diagbench.benchmarks.registry import registered

    packages = sorted({cls.__module__.rsplit(".", 1)[0] for cls in registered().values()})
    return [*_SHARED, *(f"{package}.records" for package in packages)]


def _records(module_name: str) -> list[type]:
    module = importlib.import_module(module_name)
    return [obj for _, obj in inspect.getmembers(module, inspect.isclass)
            if dataclasses.is_dataclass(obj) and obj.__module__ == module_name]


def _section(cls: type) -> list[str]:
    doc = inspect.cleandoc(cls.__doc__ or "").split("\n\n")[0].replace("\n", " ")
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    lines = [f"### `{cls.__name__}`", "", doc, "", "| field | type |", "|---|---|"]
    lines += [f"| `{f.name}` | `{str(f.type).replace('|', chr(92) + '|')}` |" for f in fields]
    return [*lines, ""]


def markdown() -> str:
    lines = [_INTRO]
    for module_name in _modules():
        records = sorted(_records(module_name), key=lambda cls: inspect.getsourcelines(cls)[1])
        if records:
            lines += [f"## `{module_name}`", ""]
            for cls in records:
                lines += _section(cls)
    return "\n".join(lines)
