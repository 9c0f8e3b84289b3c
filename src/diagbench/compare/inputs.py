"""Find the (ground truth, prediction) pairs to compare: two files, two
directories matched by relative path, or two refs of one git repository."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from diagbench.formats.source import SourceError, check_size, decode_source, read_source

#: File name endings read as PlantUML scripts in directories and git trees.
SCRIPT_SUFFIXES = (".puml", ".plantuml", ".pu", ".iuml", ".wsd")


class InputError(Exception):
    """The inputs themselves cannot be used (not a repository, unknown ref, …)."""


@dataclass(slots=True)
class Pair:
    """One file to compare: its texts, or why it cannot be compared."""

    name: str
    gold: str | None
    pred: str | None
    gold_text: str | None = None
    pred_text: str | None = None
    error: str | None = None


def pairs_from_paths(gold: Path, pred: Path, max_bytes: int) -> list[Pair]:
    """Pairs for two files, or for two directories matched by relative path."""
    if gold.is_dir() != pred.is_dir() and gold.exists() and pred.exists():
        raise InputError(f"compare two files or two directories, not {gold} with {pred}")
    if not gold.is_dir():
        return [_read_pair(gold.name, gold, pred, max_bytes)]
    gold_names, pred_names = _scripts(gold), _scripts(pred) if pred.is_dir() else set()
    if not pred.exists():
        raise InputError(f"{pred}: no such directory")
    return [_read_pair(name, gold / name if name in gold_names else None,
                       pred / name if name in pred_names else None, max_bytes)
            for name in sorted(gold_names | pred_names)]


def _scripts(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*")
            if p.suffix.lower() in SCRIPT_SUFFIXES and p.is_file()}


def _read_pair(name: str, gold: Path | None, pred: Path | None, max_bytes: int) -> Pair:
    pair = Pair(name, str(gold) if gold else None, str(pred) if pred else None)
    if gold is None or pred is None:
        pair.error = "no prediction for this file" if pred is None else "no ground truth"
        return pair
    try:
        pair.gold_text = read_source(gold, max_bytes)
        pair.pred_text = read_source(pred, max_bytes, allow_empty=True)
    except SourceError as exc:
        pair.error = str(exc)
    return pair


def pairs_from_git(repo: Path, gold_ref: str, pred_ref: str, max_bytes: int) -> list[Pair]:
    """Pairs for the scripts of two refs of a git repository (paper §3.3.1: one branch each)."""
    gold_files, pred_files = _tree(repo, gold_ref), _tree(repo, pred_ref)
    pairs = []
    for name in sorted(gold_files.keys() | pred_files.keys()):
        pair = Pair(name, f"{gold_ref}:{name}" if name in gold_files else None,
                    f"{pred_ref}:{name}" if name in pred_files else None)
        if pair.gold is None or pair.pred is None:
            pair.error = "no prediction for this file" if pair.pred is None else "no ground truth"
        pairs.append(pair)
    wanted = [p for p in pairs if p.error is None]
    blobs = _blobs(repo, [gold_files[p.name] for p in wanted] + [pred_files[p.name]
                                                                 for p in wanted])
    for k, pair in enumerate(wanted):
        try:
            for side, label, (size, data) in (("gold", pair.gold, blobs[k]),
                                              ("pred", pair.pred, blobs[len(wanted) + k])):
                check_size(label, size, max_bytes)
                setattr(pair, f"{side}_text", decode_source(data, label, side == "pred"))
        except SourceError as exc:
            pair.error = str(exc)
    return pairs


def _git(repo: Path, *args: str, stdin: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(repo), *args], input=stdin, capture_output=True,
                              check=False, timeout=600)
    except FileNotFoundError:
        raise InputError("git is not installed") from None
    if done.returncode:
        reason = done.stderr.decode(errors="replace").strip().splitlines()
        raise InputError(f"{repo}: git {args[0]} failed: {reason[-1] if reason else '?'}")
    return done.stdout


def _tree(repo: Path, ref: str) -> dict[str, str]:
    """{path: blob id} of the scripts in `ref`."""
    listing = _git(repo, "ls-tree", "-r", "-z", "--full-tree", ref)
    files = {}
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        name = path.decode(errors="replace")
        if meta.split()[1] == b"blob" and Path(name).suffix.lower() in SCRIPT_SUFFIXES:
            files[name] = meta.split()[2].decode()
    return files


def _blobs(repo: Path, ids: list[str]) -> list[tuple[int, bytes]]:
    """(size, content) of each blob, read in one `git cat-file --batch`."""
    if not ids:
        return []
    out = _git(repo, "cat-file", "--batch", stdin="".join(f"{i}\n" for i in ids).encode())
    blobs, at = [], 0
    for _ in ids:
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])
        blobs.append((size, out[header_end + 1:header_end + 1 + size]))
        at = header_end + 1 + size + 1
    return blobs
