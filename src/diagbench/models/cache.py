"""The response cache: SQLite in WAL mode, one commit per response.

Only answered requests are stored (a failed request is retried on the next
run, never replayed as an answer). The canonical request is stored beside the
response so `diagbench cache explain KEY` can show why two requests differ.
"""

from __future__ import annotations

import json
import os
import sqlite3
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


class ResponseCache:
    """Responses by request key; safe to share between processes."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, provider TEXT, "
            "model TEXT, request TEXT NOT NULL, response TEXT NOT NULL, created REAL)")
        self.db.commit()

    def close(self) -> None:
        self.db.close()

    def get(self, key: str) -> dict | None:
        row = self.db.execute("SELECT response FROM responses WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, request: Request, response: dict) -> None:
        """Store an answered request; committed at once (a killed run loses nothing)."""
        self.db.execute(
            "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?)",
            (request.key(), request.provider, request.model,
             json.dumps(request.canonical(), sort_keys=True), json.dumps(response), time.time()))
        self.db.commit()

    def explain(self, key: str) -> dict | None:
        """The canonical request stored under `key` (a key prefix is enough)."""
        rows = self.db.execute("SELECT key, request FROM responses WHERE key LIKE ? LIMIT 2",
                               (key + "%",)).fetchall()
        if len(rows) != 1:
            return None
        return {"key": rows[0][0], "request": json.loads(rows[0][1])}

    def stats(self) -> dict:
        entries = self.db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
        by_model = dict(self.db.execute(
            "SELECT provider || ':' || model, COUNT(*) FROM responses GROUP BY 1 ORDER BY 1"))
        return {"path": str(self.path), "entries": entries, "by_model": by_model,
                "bytes": self.path.stat().st_size if self.path.exists() else 0}

    def clear(self) -> int:
        """Delete every entry; return how many there were."""
        n = self.db.execute("DELETE FROM responses").rowcount
        self.db.commit()
        self.db.execute("VACUUM")
        return n
