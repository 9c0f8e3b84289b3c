"""How a benchmark registers itself: `@benchmark("name")` on its `Benchmark` class puts
the class in the table of benchmarks and the offline reference models it declares
(`Benchmark.baselines`) in the models' table of baselines, which knows no benchmark
itself. `diagbench.benchmarks.registry` fills the table by importing every benchmark."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from diagbench.benchmarks.protocol import Benchmark
from diagbench.models.offline import BASELINES

B = TypeVar("B", bound=type[Benchmark[Any, Any]])
#: The benchmarks registered so far, by name.
BENCHMARKS: dict[str, type[Benchmark[Any, Any]]] = {}


def benchmark(name: str) -> Callable[[B], B]:
    """Register a `Benchmark` class under `name` (used in commands: `eval NAME`)."""
    def register(cls: B) -> B:
        cls.name = name
        BENCHMARKS[name] = cls
        for baseline, reference in cls.baselines.items():
            BASELINES.register(baseline, reference)
        return cls
    return register
