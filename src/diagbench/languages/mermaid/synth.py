"""Gantt charts and mind maps planned from a domain's words, for the offline diagram
writer (`baseline:synth`): tasks one after another in sections, with a milestone at the
end; a root with branches and leaves."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from diagbench.languages.mermaid.gantt import Gantt, Task
from diagbench.languages.mermaid.mindmap import MindMap, MindNode


def plan_gantt(title: str, steps: list[str], rng: random.Random) -> Gantt:
    """A chart of the `steps` (task names) in two or three sections, each task starting
    when the one before ends (some a day or two later), lasting 1 to 10 days; the last
    step a milestone when there are more than three."""
    start = datetime(2025, rng.randint(1, 12), rng.randint(1, 28))
    sections = rng.sample(("Planning", "Build", "Launch", "Review", "Delivery"),
                          2 if len(steps) < 6 else 3)
    tasks = []
    for k, step in enumerate(steps):
        section = sections[min(len(sections) - 1, k * len(sections) // len(steps))]
        milestone = k == len(steps) - 1 and len(steps) > 3
        days = 0 if milestone else rng.randint(1, 10)
        start += timedelta(days=rng.choice((0, 0, 1, 2)))
        end = start + timedelta(days=days)
        tasks.append(Task(step.capitalize(), section, start.isoformat(), end.isoformat(),
                          id=f"t{k + 1}", milestone=milestone, critical=rng.random() < 0.2,
                          done=k < len(steps) // 3))
        start = end
    return Gantt(title, sections=tuple(sections), tasks=tuple(tasks))


def plan_mindmap(root: str, things: list[str], actions: list[str],
                 rng: random.Random) -> MindMap:
    """A map around `root`: each of `things` a branch (a rounded node), the `actions`
    dealt among the branches as leaves."""
    leaves: list[list[MindNode]] = [[] for _ in things]
    for action in actions:
        leaves[rng.randrange(len(things))].append(MindNode(action.capitalize()))
    branches = tuple(MindNode(thing, "rounded", children=tuple(kids))
                     for thing, kids in zip(things, leaves, strict=True))
    return MindMap(MindNode(root, "circle", children=branches))
