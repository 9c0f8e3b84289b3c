"""The executors by name, each imported when opened, so that start-up imports no heavy
library (Ray is an optional extra: `pip install 'diagbench[ray]'`). The executors import
`protocol`, never this module."""

from __future__ import annotations

from diagbench.executors.protocol import Executor
from diagbench.references import load

EXECUTORS: dict[str, str] = {
    "local": "diagbench.executors.local:LocalExecutor",
    "ray": "diagbench.executors.ray:RayExecutor",
}


def open_executor(name: str, address: str | None = None) -> Executor:
    """The executor `name`, started (`address`: the Ray cluster to join, where it applies);
    `ExecutorUnavailable` when it cannot run here."""
    executor: Executor = load(EXECUTORS[name])(address)
    return executor
