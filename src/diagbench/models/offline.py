"""Offline baseline models behind the `Model` protocol: no key, no network.

Each baseline is a function of the request that returns the answer text; it
runs in a worker thread so that the runner's event loop stays free. A request
the baseline cannot answer (no image, an unreadable one) is a final error,
never retried. Baselines are not cached: they are cheap to run again, and a
newer diagbench may read better.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator, Mapping

from diagbench import __version__
from diagbench.models.request import ImagePart, Request, TextPart
from diagbench.models.response import Response
from diagbench.models.retry import CallError
from diagbench.references import load

Baseline = Callable[[Request], str]


class Baselines(Mapping[str, tuple[str, ...]]):
    """The offline baselines, as `baseline:NAME` → the functions that answer a request
    (`"module:function"`, imported when first asked, so that start-up stays light).

    This package registers only its own (`ocr`); the reference models of a benchmark
    are declared by that benchmark and registered into this table by the benchmark
    registry, a layer above that knows benchmarks; nothing here names one. A name may be
    offered by several benchmarks (each has its own judge prompt, answered by its own
    `baseline:judge`): its functions are tried in the order they were registered, each
    raising ValueError for a request it does not answer.
    """

    def __init__(self) -> None:
        self._table: dict[str, tuple[str, ...]] = {}

    def register(self, name: str, reference: str) -> None:
        """Offer `baseline:NAME`, answered by `reference` (after the functions already
        offering it; registering the same one again changes nothing)."""
        known = self._table.get(name, ())
        if reference not in known:
            self._table[name] = (*known, reference)

    def __getitem__(self, name: str) -> tuple[str, ...]:
        return self._table[name]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._table))

    def __len__(self) -> int:
        return len(self._table)


BASELINES = Baselines()


def one_image(request: Request) -> bytes:
    """The bytes of the request's only image; ValueError unless it has exactly one."""
    images = [p for m in request.messages for p in m.parts if isinstance(p, ImagePart)]
    if len(images) != 1:
        raise ValueError(f"{request.provider}:{request.model} reads exactly one image, "
                         f"the request has {len(images)}")
    return images[0].data


def prompt_text(request: Request) -> str:
    """The text of the request's user turns."""
    return "\n".join(p.text for m in request.turns for p in m.parts if isinstance(p, TextPart))


def read_sequence_image(request: Request) -> str:
    """baseline:ocr — a sequence-diagram image read to PlantUML by computer vision and OCR."""
    from diagbench.models.baselines.sequence_reader import read_sequence_diagram  # heavy: lazy
    return read_sequence_diagram(one_image(request))


BASELINES.register("ocr", "diagbench.models.offline:read_sequence_image")


#: One baseline answers at a time. They answer in the runner's worker threads, and
#: their answers read and write code with the domains' C libraries (Qiskit, ONNX, RDKit,
#: Graphviz …), several of which are not safe to call from two threads at once (a
#: structure build over every category crashed with a segmentation fault), and whose
#: first imports race (NumPy seen half initialised).
_ONE_AT_A_TIME = threading.Lock()


def _answer(request: Request) -> str:
    """The answer of the first function of `baseline:MODEL` that answers `request`
    (ValueError giving each one's reason when none does)."""
    reasons = []
    with _ONE_AT_A_TIME:
        for reference in BASELINES[request.model]:
            baseline: Baseline = load(reference)
            try:
                return baseline(request)
            except ValueError as exc:
                reasons.append(str(exc))
    raise ValueError("; ".join(reasons))


class OfflineBaseline:
    """Runs `BASELINES[request.model]`; one attempt per call, like every adapter."""

    def __init__(self, api_key: str, base_url: str | None = None, timeout: float = 120.0) -> None:
        self.timeout = timeout

    async def call(self, request: Request) -> Response:
        if request.model not in BASELINES:
            raise CallError(f"no baseline {request.model!r} is registered (known: "
                            f"{', '.join(BASELINES)})", retryable=False)
        start = time.perf_counter()
        try:
            text = await asyncio.wait_for(asyncio.to_thread(_answer, request), self.timeout)
        except TimeoutError:
            raise CallError(f"no answer within {self.timeout:g} s", retryable=False) from None
        except ValueError as exc:
            raise CallError(str(exc), retryable=False) from None
        return Response("ok", text=text, finish_reason="stop",
                        latency=time.perf_counter() - start,
                        served_model=f"{request.provider}:{request.model} (diagbench "
                                     f"{__version__})")

    async def close(self) -> None:
        return None
