"""The registry of benchmarks: a benchmark is a package under `diagbench.benchmarks`
whose `benchmark` module defines a `Benchmark` class decorated with `@benchmark("name")`
(`diagbench.benchmarks.registering`).

`registered()` imports the `benchmark` module of every package here, so the table is
the same whatever was imported before; those modules import their heavy libraries
inside the phases, so listing benchmarks stays quick. Registering a benchmark registers
the offline reference models it declares (`Benchmark.baselines`) into the models' table
of baselines, which knows no benchmark itself.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from diagbench.benchmarks.protocol import Benchmark
from diagbench.benchmarks.registering import BENCHMARKS


class UnknownBenchmark(KeyError):
    """A name that no registered benchmark has."""


def registered() -> dict[str, type[Benchmark[Any, Any]]]:
    """Every benchmark, by name."""
    package = importlib.import_module("diagbench.benchmarks")
    for module in pkgutil.iter_modules(package.__path__):
        if module.ispkg:
            importlib.import_module(f"diagbench.benchmarks.{module.name}.benchmark")
    return dict(sorted(BENCHMARKS.items()))


def get(name: str) -> Benchmark[Any, Any]:
    """A fresh instance of the benchmark `name`."""
    table = registered()
    if name not in table:
        raise UnknownBenchmark(f"no benchmark {name!r} (known: {', '.join(table)})")
    return table[name]()
