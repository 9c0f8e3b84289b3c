"""Find the (ground truth, prediction) pairs to compare: two files, two directories
whose diagram files (by the languages' suffixes) are matched by relative path, or two
refs of one git repository."""

from __future__ import annotations

import subprocess
import weakref
from pathlib import Path, PurePath

from diagbench.compare.pair import InputError, Pair
from diagbench.formats.source import SourceError, check_size, decode_source, read_source
from diagbench.languages import has_suffix
from diagbench.render.process import ProcessDied, ProcessTimeout, WarmProcess

#: Seconds git may take to give one blob (a warm `git cat-file` answers in milliseconds).
BLOB_TIMEOUT = 120.0


def _unmatched(name: str, gold: str | None, pred: str | None) -> Pair:
    reason = "no prediction for this file" if pred is None else "no ground truth"
    return Pair(name, gold, pred, error=reason)


def pairs_from_paths(gold: Path, pred: Path, max_bytes: int) -> list[Pair]:
    """Pairs for two files, or for the diagram files of two directories matched by
    relative path."""
    if gold.is_dir() != pred.is_dir() and gold.exists() and pred.exists():
        raise InputError(f"compare two files or two directories, not {gold} with {pred}")
    if not gold.is_dir():
        return [_file_pair(gold.name, gold, pred, max_bytes)]
    if not pred.exists():
        raise InputError(f"{pred}: no such directory")
    gold_names, pred_names = _scripts(gold), _scripts(pred)
    return [_file_pair(name, gold / name, pred / name, max_bytes)
            if name in gold_names and name in pred_names
            else _unmatched(name, str(gold / name) if name in gold_names else None,
                            str(pred / name) if name in pred_names else None)
            for name in sorted(gold_names | pred_names)]


def _scripts(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*")
            if has_suffix(p) and p.is_file()}


def _file_pair(name: str, gold: Path, pred: Path, max_bytes: int) -> Pair:
    def load() -> tuple[str, str]:
        return read_source(gold, max_bytes), read_source(pred, max_bytes, allow_empty=True)
    return Pair(name, str(gold), str(pred), load)


def pairs_from_git(repo: Path, gold_ref: str, pred_ref: str, max_bytes: int) -> list[Pair]:
    """Pairs for the diagram files of two refs of a git repository (paper §3.3.1: one
    branch each)."""
    gold_files = _tree(repo, gold_ref)
    pred_files = _tree(repo, pred_ref)
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


def _tree(repo: Path, ref: str) -> dict[str, str]:
    """{path: blob id} of the diagram files in `ref`."""
    files = {}
    for entry in _git(repo, "ls-tree", "-r", "-z", "--full-tree", ref).split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        _, kind, blob = meta.split()
        name = path.decode(errors="replace")
        if kind == b"blob" and has_suffix(PurePath(name)):
            files[name] = blob.decode()
    return files


class _BlobReader:
    """Reads blobs one at a time through one long-lived `git cat-file --batch`, a
    `render.process` warm process: every read has a time-out (`BLOB_TIMEOUT`), after
    which the blob is an unreadable file and the next one starts a fresh git."""

    def __init__(self, repo: Path) -> None:
        # git sees the user's configuration (safe.directory), never their other variables
        self.git = WarmProcess(["git", "-C", str(repo.resolve()), "cat-file", "--batch"],
                               passed=("HOME", "XDG_CONFIG_HOME"))
        weakref.finalize(self, self.git.close)

    def text(self, label: str, blob: str, max_bytes: int, allow_empty: bool) -> str:
        try:
            self.git.send(f"{blob}\n".encode(), BLOB_TIMEOUT)
            header = self.git.read_line(BLOB_TIMEOUT).split()
            if len(header) != 3 or not header[2].isdigit():
                self.git.close()
                said = b" ".join(header).decode(errors="replace")
                raise SourceError(label, f"git cat-file: {said}")
            size = int(header[2])
            if size > max_bytes:
                self.git.close()  # its content is not read: the next blob starts afresh
            check_size(label, size, max_bytes)
            data = self.git.read_exact(size + 1, BLOB_TIMEOUT)[:-1]
        except (ProcessTimeout, ProcessDied, OSError) as exc:
            raise SourceError(label, f"git cat-file: {exc}") from None
        return decode_source(data, label, allow_empty)
