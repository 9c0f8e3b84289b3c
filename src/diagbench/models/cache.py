"""The response cache: SQLite in WAL mode, written by a thread of its own.

Only answered requests are stored (a failed request is retried on the next
run, never replayed as an answer). The canonical request is stored beside the
response so `diagbench cache explain KEY` can show why two requests differ.
Each answer is handed to the writer thread as it arrives and committed with
whatever else is waiting, in one transaction: the event loop never waits on
the disk, and a killed run loses at most the answers still queued (a
fraction of a second's worth; the run's `responses.jsonl` has them).
"""

from __future__ import annotations

import json
import os
import queue
import sqlite3
import threading
import time
from pathlib import Path

from diagbench.models.request import Request

CACHE_ENV = "DIAGBENCH_CACHE"


def default_path() -> Path:
    """`$DIAGBENCH_CACHE`, else ~/.cache/diagbench/responses.sqlite."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    return Path.home() / ".cache" / "diagbench" / "responses.sqlite"


_INSERT = "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?)"


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=30, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    return db


class ResponseCache:
    """Responses by request key; safe to share between processes."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = _connect(self.path)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, provider TEXT, "
            "model TEXT, request TEXT NOT NULL, response TEXT NOT NULL, created REAL)")
        self.db.commit()
        self._rows: queue.Queue[tuple | None] = queue.Queue()
        self._pending: dict[str, str] = {}  # queued responses by key, until committed
        self._writer: threading.Thread | None = None
        self.error: sqlite3.Error | None = None  # the writer's, raised by `flush`

    def close(self) -> None:
        """Write what is queued, then close."""
        if self._writer is not None:
            self._rows.put(None)
            self._writer.join()
            self._writer = None
        self.db.close()
        if self.error is not None:
            raise self.error

    def get(self, key: str) -> dict | None:
        queued = self._pending.get(key)
        if queued is not None:
            return json.loads(queued)
        row = self.db.execute("SELECT response FROM responses WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, request: Request, response: dict, key: str | None = None) -> None:
        """Queue an answered request (`key` is its key, when already known) for the
        writer thread, which commits it with whatever else is queued."""
        key = key or request.key()
        text = json.dumps(response)
        self._pending[key] = text
        if self._writer is None:
            self._writer = threading.Thread(target=self._write, daemon=True,
                                            name="diagbench-cache-writer")
            self._writer.start()
        self._rows.put((key, request.provider, request.model,
                        json.dumps(request.canonical(), sort_keys=True), text, time.time()))

    def flush(self) -> None:
        """Wait until every queued answer is committed; raise the writer's error, if any."""
        self._rows.join()
        if self.error is not None:
            raise self.error

    def _write(self) -> None:
        db = _connect(self.path)
        try:
            closing = False
            while not closing:
                rows = [self._rows.get()]
                while not self._rows.empty():
                    rows.append(self._rows.get())
                closing = None in rows  # `close` queues None last
                batch = [row for row in rows if row is not None]
                try:
                    with db:
                        db.executemany(_INSERT, batch)
                except sqlite3.Error as exc:
                    self.error = exc
                for row in batch:
                    if self._pending.get(row[0]) == row[4]:
                        del self._pending[row[0]]
                for _ in rows:
                    self._rows.task_done()
        finally:
            db.close()

    def explain(self, key: str) -> dict | None:
        """The canonical request stored under `key` (a key prefix is enough)."""
        self.flush()
        rows = self.db.execute("SELECT key, request FROM responses WHERE key LIKE ? LIMIT 2",
                               (key + "%",)).fetchall()
        if len(rows) != 1:
            return None
        return {"key": rows[0][0], "request": json.loads(rows[0][1])}

    def stats(self) -> dict:
        self.flush()
        entries = self.db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
        by_model = dict(self.db.execute(
            "SELECT provider || ':' || model, COUNT(*) FROM responses GROUP BY 1 ORDER BY 1"))
        return {"path": str(self.path), "entries": entries, "by_model": by_model,
                "bytes": self.path.stat().st_size if self.path.exists() else 0}

    def clear(self) -> int:
        """Delete every entry; return how many there were."""
        self.flush()
        n = self.db.execute("DELETE FROM responses").rowcount
        self.db.commit()
        self.db.execute("VACUUM")
        return n
