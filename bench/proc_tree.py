"""The processes under a process, read from Linux's /proc, for the bench scripts that
measure a command with everything it started (standard library only)."""

from __future__ import annotations

import os
from pathlib import Path


def stat_fields(path: str | Path) -> list[str]:
    """The fields of a /proc `stat` file after the command's name (state, parent, …)."""
    return Path(path).read_text().rsplit(")", 1)[1].split()


def tree(root: int) -> dict[int, int]:
    """Every process under `root`, `root` included, each with its parent's id; a parent
    comes before its children."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                parent = int(stat_fields(Path(entry.path, "stat"))[1])
            except (OSError, ValueError, IndexError):
                continue  # ended while read
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = {root: 0}, [root]
    while todo:
        pid = todo.pop()
        for kid in children.get(pid, []):
            if kid not in found:
                found[kid] = pid
                todo.append(kid)
    return found
