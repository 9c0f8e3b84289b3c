"""Find the (ground truth, prediction) pairs to compare: two files, two
directories matched by relative path, or two refs of one git repository."""

from __future__ import annotations

import subprocess
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePath

from diagbench.formats.source import check_size, decode_source, read_source


class InputError(Exception):
    """The inputs themselves cannot be used (not a repository, unknown ref, …)."""


@dataclass(slots=True)
class Pair:
    """One file to compare: where its two sides are, and how to read them.

    `load()` returns (gold text, prediction text) or raises SourceError; files
    are read only when compared, so memory does not grow with their number.
    """

    name: str
    gold: str | None
    pred: str | None
    load: Callable[[], tuple[str, str]] | None = None
    error: str | None = None


def _unmatched(name: str, gold: str | None, pred: str | None) -> Pair:
    reason = "no prediction for this file" if pred is None else "no ground truth"
    return Pair(name, gold, pred, error=reason)


def _named(path: PurePath, suffixes: tuple[str, ...]) -> bool:
    """Whether the file's name ends with one of `suffixes` (lower case, with the dot)."""
    return path.name.lower().endswith(suffixes)


def pairs_from_paths(gold: Path, pred: Path, max_bytes: int, suffixes: tuple[str, ...]
                     ) -> list[Pair]:
    """Pairs for two files, or for the files of two directories whose names end with one
    of `suffixes` (the languages'), matched by relative path."""
    if gold.is_dir() != pred.is_dir() and gold.exists() and pred.exists():
        raise InputError(f"compare two files or two directories, not {gold} with {pred}")
    if not gold.is_dir():
        return [_file_pair(gold.name, gold, pred, max_bytes)]
    if not pred.exists():
        raise InputError(f"{pred}: no such directory")
    gold_names, pred_names = _scripts(gold, suffixes), _scripts(pred, suffixes)
    return [_file_pair(name, gold / name, pred / name, max_bytes)
            if name in gold_names and name in pred_names
            else _unmatched(name, str(gold / name) if name in gold_names else None,
                            str(pred / name) if name in pred_names else None)
            for name in sorted(gold_names | pred_names)]


def _scripts(root: Path, suffixes: tuple[str, ...]) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*")
            if _named(p, suffixes) and p.is_file()}


def _file_pair(name: str, gold: Path, pred: Path, max_bytes: int) -> Pair:
    def load() -> tuple[str, str]:
        return read_source(gold, max_bytes), read_source(pred, max_bytes, allow_empty=True)
    return Pair(name, str(gold), str(pred), load)


def pairs_from_git(repo: Path, gold_ref: str, pred_ref: str, max_bytes: int,
                   suffixes: tuple[str, ...]) -> list[Pair]:
    """Pairs for the files of two refs of a git repository whose names end with one of
    `suffixes` (paper §3.3.1: one branch each)."""
    gold_files = _tree(repo, gold_ref, suffixes)
    pred_files = _tree(repo, pred_ref, suffixes)
    blobs = _BlobReader(repo)
    pairs = []
    for name in sorted(gold_files.keys() | pred_files.keys()):
        gold, pred = f"{gold_ref}:{name}", f"{pred_ref}:{name}"
        if name not in gold_files or name not in pred_files:
            pairs.append(_unmatched(name, gold if name in gold_files else None,
                                    pred if name in pred_files else None))
            continue

        def load(g: tuple[str, str] = (gold, gold_files[name]),
                 p: tuple[str, str] = (pred, pred_files[name])) -> tuple[str, str]:
            return (blobs.text(*g, max_bytes=max_bytes, allow_empty=False),
                    blobs.text(*p, max_bytes=max_bytes, allow_empty=True))
        pairs.append(Pair(name, gold, pred, load))
    return pairs


def _git(repo: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True,
                              check=False, timeout=600)
    except FileNotFoundError:
        raise InputError("git is not installed") from None
    if done.returncode:
        reason = done.stderr.decode(errors="replace").strip().splitlines()
        raise InputError(f"{repo}: git {args[0]} failed: {reason[-1] if reason else '?'}")
    return done.stdout


def _tree(repo: Path, ref: str, suffixes: tuple[str, ...]) -> dict[str, str]:
    """{path: blob id} of the diagram files in `ref`."""
    files = {}
    for entry in _git(repo, "ls-tree", "-r", "-z", "--full-tree", ref).split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        _, kind, blob = meta.split()
        name = path.decode(errors="replace")
        if kind == b"blob" and _named(PurePath(name), suffixes):
            files[name] = blob.decode()
    return files


class _BlobReader:
    """Reads blobs one at a time through one long-lived `git cat-file --batch`."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self.process: subprocess.Popen[bytes] | None = None

    def text(self, label: str, blob: str, max_bytes: int, allow_empty: bool) -> str:
        if self.process is None:
            self.process = subprocess.Popen(
                ["git", "-C", str(self.repo), "cat-file", "--batch"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            weakref.finalize(self, self.process.kill)
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None  # both opened as pipes above
        stdin.write(f"{blob}\n".encode())
        stdin.flush()
        size = int(stdout.readline().split()[2])
        data = stdout.read(size + 1)[:-1]
        check_size(label, size, max_bytes)
        return decode_source(data, label, allow_empty)
