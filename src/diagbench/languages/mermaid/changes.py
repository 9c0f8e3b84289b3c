"""The edits that make counterfactual twins of Gantt charts and mind maps (a task's dates
moved; a node moved, with what hangs below it, to another parent) and their rewritings
(the same chart or map written another valid way)."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta

from diagbench.languages.mermaid.gantt import Gantt, write_gantt
from diagbench.languages.mermaid.mindmap import MindMap, MindNode, write_mindmap

#: Days a moved task is moved by.
SHIFT_DAYS = 2


def _shifted(iso: str, days: int) -> str:
    return (datetime.fromisoformat(iso) + timedelta(days=days)).isoformat(timespec="seconds")


def move_task(chart: Gantt, rng: random.Random) -> str | None:
    """`chart` written with one task bar (`rng`'s choice) `SHIFT_DAYS` days later."""
    bars = [k for k, t in enumerate(chart.tasks) if t.bar and t.start and t.end]
    if not bars:
        return None
    k = rng.choice(bars)
    tasks = list(chart.tasks)
    tasks[k] = replace(tasks[k], start=_shifted(tasks[k].start, SHIFT_DAYS),
                       end=_shifted(tasks[k].end, SHIFT_DAYS))
    return write_gantt(replace(chart, tasks=tuple(tasks)))


def move_node(mind: MindMap, rng: random.Random) -> str | None:
    """`mind` written with one node below the root (`rng`'s choice), and its subtree,
    moved under another node that is neither its parent nor below it."""
    nodes = mind.nodes()
    index = {id(n): k for k, (n, _, _) in enumerate(nodes)}
    children = [[index[id(c)] for c in n.children] for n, _, _ in nodes]
    parents = [index[id(p)] if p is not None else -1 for _, _, p in nodes]
    choices = []
    for k, (node, _, _) in enumerate(nodes[1:], 1):
        below = {index[id(n)] for n, _, _ in node.walk()}
        targets = [t for t in range(len(nodes)) if t not in below and t != parents[k]]
        if targets:
            choices.append((k, targets))
    if not choices:
        return None
    moved, targets = rng.choice(choices)
    target = rng.choice(targets)
    children[parents[moved]].remove(moved)
    children[target].append(moved)

    def build(k: int) -> MindNode:
        return replace(nodes[k][0], children=tuple(build(c) for c in children[k]))

    return write_mindmap(MindMap(build(0)))


def rewrite_gantt(chart: Gantt) -> str:
    """`chart` with every task's dates written out (no `after`, `until` or `excludes`)."""
    return write_gantt(chart)


def rewrite_mindmap(mind: MindMap) -> str:
    """`mind` written with another indentation and every node's shape in brackets."""
    return write_mindmap(mind, indent=4)
