"""Named pieces of work run a few at a time, fewer of the heavy ones at once: how a
structure build lets its engines draw (`build.render_all`: three at once, one of them
in a browser)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

R = TypeVar("R")


def in_turns(names: Sequence[str], run: Callable[[str], R], at_once: int,
             heavy: Collection[str] = (), heavy_at_once: int = 1) -> dict[str, R]:
    """`run(name)` for every name in `names`' order, at most `at_once` at a time and at
    most `heavy_at_once` of the `heavy` names at once (while a heavy one waits its turn,
    the next light one goes first); the results by name. The first error of `run` is
    raised once every other piece has run."""
    pending = list(names)
    running_heavy = 0
    turn = threading.Condition()

    def next_name() -> str | None:
        nonlocal running_heavy
        with turn:
            while pending:
                for name in pending:
                    if name not in heavy or running_heavy < heavy_at_once:
                        pending.remove(name)
                        running_heavy += name in heavy
                        return name
                turn.wait()
            return None

    results: dict[str, R] = {}
    errors: list[BaseException] = []

    def take_turns() -> None:
        nonlocal running_heavy
        while (name := next_name()) is not None:
            try:
                results[name] = run(name)
            except Exception as exc:  # raised below, once every piece has run
                errors.append(exc)
            finally:
                with turn:
                    running_heavy -= name in heavy
                    turn.notify_all()

    workers = max(1, min(at_once, len(pending)))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for worker in [pool.submit(take_turns) for _ in range(workers)]:
            worker.result()
    if errors:
        raise errors[0]
    return {name: results[name] for name in names}
