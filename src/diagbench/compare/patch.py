"""git's own diff of two scripts (paper §2.2.1, Fig. 4), and its change blocks.

The paper builds its patch files with `git diff` between the ground-truth branch and a
model's branch; the diff method takes its change blocks from the same program: `git diff
--no-index` of the two texts, with git's default (Myers) algorithm and three lines of
context, in an environment that reads no user or system configuration (so no
`diff.algorithm` setting changes the alignment).
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

#: The time one diff may take; scripts are small, a stuck git is an error.
TIMEOUT = 60.0
_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_ENV_KEEP = ("PATH", "LANG", "SYSTEMROOT")


class DiffError(RuntimeError):
    """git is missing or failed."""


@dataclass(slots=True)
class ChangeGroup:
    """One change block: removed (gold) lines, then added (prediction) lines, with their
    0-based line numbers."""

    removed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed_at: list[int] = field(default_factory=list)
    added_at: list[int] = field(default_factory=list)


def git_diff(gold_lines: list[str], pred_lines: list[str], name: str = "script.puml") -> str:
    """git's unified diff of the two scripts (lines as `str.splitlines` gives them), as a
    patch of one file called `name` on both sides ("" when they are equal)."""
    env = {k: os.environ[k] for k in _ENV_KEEP if k in os.environ}
    with tempfile.TemporaryDirectory(prefix="diagbench-diff-") as tmp:
        env |= {"HOME": tmp, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
                "LC_ALL": "C"}
        for side, lines in (("a", gold_lines), ("b", pred_lines)):
            Path(tmp, side).write_text("".join(line + "\n" for line in lines),
                                       encoding="utf-8", newline="")
        try:
            done = subprocess.run(
                ["git", "diff", "--no-index", "--no-color", "--no-ext-diff", "--text",
                 "--diff-algorithm=myers", "--unified=3", "a", "b"],
                cwd=tmp, env=env, capture_output=True, timeout=TIMEOUT)
        except FileNotFoundError as exc:
            raise DiffError("git is not installed (the diff method runs `git diff`)") from exc
        except subprocess.TimeoutExpired as exc:
            raise DiffError(f"git diff took more than {TIMEOUT:.0f} s") from exc
    if done.returncode not in (0, 1):  # 1: the files differ
        raise DiffError(f"git diff failed: {done.stderr.decode(errors='replace').strip()}")
    return _named(done.stdout.decode("utf-8", errors="replace"), name)


def _named(patch: str, name: str) -> str:
    """The patch with its header naming `name` instead of the temporary files."""
    head, sep, body = patch.partition("\n@@")
    head = (head.replace("diff --git a/a b/b", f"diff --git a/{name} b/{name}", 1)
            .replace("\n--- a/a", f"\n--- a/{name}", 1)
            .replace("\n+++ b/b", f"\n+++ b/{name}", 1))
    return head + sep + body


def change_groups(patch: str) -> dict[str, list[ChangeGroup]]:
    """The change blocks of each file of a unified patch (git's format), by the file's
    name on the new side.

    A change block is a run of removed and added lines between two context lines; a
    removed line after an added one starts a new block (the paper's Fig. 4 → Fig. 5:
    `-a +b -c -d +e` is two groups). Line numbers count from each hunk's header.
    """
    files: dict[str, list[ChangeGroup]] = {}
    groups: list[ChangeGroup] = []
    group: ChangeGroup | None = None
    old = new = 0
    in_hunk = False  # a removed line "-- x" reads "--- x": a header only before a hunk
    for line in patch.splitlines():
        if line.startswith("diff "):
            in_hunk, group = False, None
        elif not in_hunk and line.startswith("+++ "):
            groups = files.setdefault(line[4:].strip().removeprefix("b/"), [])
        elif not in_hunk and not line.startswith("@@"):
            pass  # the other header lines: index, modes, "--- a/…"
        elif line.startswith("@@"):
            in_hunk = True
            hunk = _HUNK.match(line)
            if hunk:  # a header with no count covers one line; a count of 0 none
                old = int(hunk[1]) - (hunk[2] != "0")
                new = int(hunk[3]) - (hunk[4] != "0")
            group = None
        elif line.startswith("-"):
            if group is None or group.added:
                group = ChangeGroup()
                groups.append(group)
            group.removed.append(line[1:])
            group.removed_at.append(old)
            old += 1
        elif line.startswith("+"):
            if group is None:
                group = ChangeGroup()
                groups.append(group)
            group.added.append(line[1:])
            group.added_at.append(new)
            new += 1
        elif not line.startswith("\\"):  # a context line ("\ No newline" is not a line)
            group = None
            old += 1
            new += 1
    return files
