"""diagbench's command line as the tests run it, and what it writes as they read it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def run_cli(*args: str, cwd: Path | None = None, env: Mapping[str, str] | None = None,
            timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """`python -m diagbench ARGS` run by this interpreter, its output captured as text.
    `env`, when given, is the whole environment (else this process's is inherited); a
    non-zero exit is returned, not raised."""
    return subprocess.run([sys.executable, "-m", "diagbench", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=cwd, env=env, check=False)


def read_jsonl(path: Path) -> list[dict]:
    """The records of the JSON Lines file `path`, one a line."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def read_view(page: Path) -> dict:
    """The data `diagbench view` wrote into the page folder `page` (its samples.js)."""
    text = (page / "samples.js").read_text(encoding="utf-8")
    return json.loads(text.removeprefix("window.DIAGBENCH_VIEW = ").rstrip().rstrip(";"))
