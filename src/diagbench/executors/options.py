"""`--executor local|ray` and `--ray-address`, shared by the commands that do heavy work
(`render`, `build NAME`, `score NAME RUN`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click

from diagbench.executors.registry import EXECUTORS

if TYPE_CHECKING:
    from diagbench.executors.protocol import Executor

OPTIONS = (
    click.option("--executor", type=click.Choice(sorted(EXECUTORS)), default="local",
                 show_default=True,
                 help="Where the heavy work runs: local processes, or Ray tasks and actors "
                      "(pip install 'diagbench[ray]'); the outputs are the same."),
    click.option("--ray-address", metavar="ADDR",
                 help="With --executor ray: the cluster to join (HOST:PORT, auto, "
                      "ray://HOST:10001); default: a local Ray instance."),
)


@contextlib.contextmanager
def opened(executor: str, ray_address: str | None) -> Iterator[Executor]:
    """The executor asked for on the command line, closed on exit; one that cannot run
    here (Ray missing, cluster unreachable) is a usage error (exit 2) with the reason."""
    from diagbench.executors.protocol import ExecutorUnavailable
    from diagbench.executors.registry import open_executor

    if ray_address and executor != "ray":
        raise click.UsageError("--ray-address applies to --executor ray only")
    try:
        running = open_executor(executor, ray_address)
    except ExecutorUnavailable as exc:
        raise click.UsageError(str(exc)) from None
    try:
        yield running
    finally:
        running.close()
