"""The Gantt chart model (`Gantt`), made from the database Mermaid's own parser fills
(`own.py`): tasks with the start and end dates Mermaid computed, and the Mermaid code
of a chart (`write_gantt`: each task with its own dates, so it draws the same chart)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class Task:
    """One task as Mermaid resolved it: its `name`, `section` ("" before any section),
    `start` and `end` (ISO 8601, local time, as Mermaid computed them after `after`,
    `until`, `excludes` and durations), its `id`, the tasks it starts after (`after`) or
    ends at (`until`), and its tags: a `milestone` (a diamond), a `vert` marker (a
    vertical line), `critical`, `done`, `active`."""

    name: str
    section: str
    start: str
    end: str
    id: str = ""
    after: tuple[str, ...] = ()
    until: tuple[str, ...] = ()
    milestone: bool = False
    vert: bool = False
    critical: bool = False
    done: bool = False
    active: bool = False

    @property
    def bar(self) -> bool:
        """Whether it is drawn as a bar (neither a milestone nor a marker)."""
        return not (self.milestone or self.vert)

    @property
    def duration_days(self) -> float:
        """Its length in days (end − start; 0 when a date is unknown)."""
        if not (self.start and self.end):
            return 0.0
        return (datetime.fromisoformat(self.end)
                - datetime.fromisoformat(self.start)).total_seconds() / 86400


@dataclass(frozen=True, slots=True)
class Gantt:
    """A Gantt chart: its `title`, `date_format`, `excludes` (days not worked), its
    `sections` as declared, and its tasks in the order written."""

    title: str = ""
    date_format: str = ""
    excludes: tuple[str, ...] = ()
    sections: tuple[str, ...] = ()
    tasks: tuple[Task, ...] = ()

    def counts(self) -> dict[str, int]:
        """What Mermaid draws: the sections titled beside the tasks (named sections
        holding a task), the task bars, the milestones and the vertical markers."""
        return {"sections": len(self.drawn_sections), "tasks": sum(t.bar for t in self.tasks),
                "milestones": sum(t.milestone for t in self.tasks),
                "markers": sum(t.vert for t in self.tasks)}

    @property
    def drawn_sections(self) -> tuple[str, ...]:
        """The named sections that hold a task, in order."""
        return tuple(dict.fromkeys(t.section for t in self.tasks if t.section))

    def in_section(self, section: str) -> tuple[Task, ...]:
        return tuple(t for t in self.tasks if t.section == section)


_IDS = re.compile(r"^\s*(after|until)\s+(.*)$")


def _ids(data: str, word: str) -> tuple[str, ...]:
    m = _IDS.match(data)
    return tuple(m.group(2).split()) if m and m.group(1) == word else ()


def from_database(db: dict[str, Any]) -> Gantt:
    """The chart of Mermaid's Gantt database (as `tools/mermaid/render.mjs` gives it)."""
    tasks = tuple(Task(
        name=str(t["name"]).strip(), section=str(t["section"]).strip(),
        start=t["start"] or "", end=t["end"] or "", id=str(t["id"]),
        after=_ids(t["start_data"], "after"), until=_ids(t["end_data"], "until"),
        milestone=bool(t["milestone"]), vert=bool(t["vert"]), critical=bool(t["crit"]),
        done=bool(t["done"]), active=bool(t["active"])) for t in db["tasks"])
    return Gantt(str(db.get("title") or "").strip(), str(db.get("date_format") or "").strip(),
                 tuple(db.get("excludes") or ()),
                 tuple(str(s).strip() for s in db.get("sections") or ()), tasks)


#: The date format diagbench writes charts in (to the second, as Mermaid computes them).
WRITTEN_FORMAT = "YYYY-MM-DD HH:mm:ss"


def _written_date(iso: str) -> str:
    return iso.replace("T", " ")[:19]


def write_gantt(chart: Gantt) -> str:
    """Mermaid code that draws `chart`: every task with its own start and end date (as
    resolved), its tags and id, under its section; no `excludes` (the dates already
    skip the days left out)."""
    lines = ["gantt"]
    if chart.title:
        lines.append(f"    title {chart.title}")
    lines.append(f"    dateFormat {WRITTEN_FORMAT}")
    section = ""
    for k, t in enumerate(chart.tasks):
        if t.section != section:
            section = t.section
            lines.append(f"    section {section}")
        tags = [tag for tag, on in (("milestone", t.milestone), ("vert", t.vert),
                                    ("crit", t.critical), ("done", t.done),
                                    ("active", t.active)) if on]
        end = f"{round(t.duration_days * 86400)}s" if t.milestone or t.vert \
            else _written_date(t.end)
        ident = t.id if t.id and not re.fullmatch(r"task\d+", t.id) else f"t{k + 1}"
        data = ", ".join([*tags, ident, _written_date(t.start), end])
        lines.append(f"    {t.name} :{data}")
    return "\n".join(lines) + "\n"
