"""`in_turns`: named pieces of work a few at a time, at most so many heavy ones at once,
results by name, errors raised after the rest has run."""

from __future__ import annotations

import threading

import pytest

from diagbench.benchmarks.structure.turns import in_turns

#: Long enough for a piece that is never let go to show as a failure, not a hang.
GUARD = 30.0


def test_a_heavy_piece_waits_while_a_light_one_goes_first():
    """Two workers, two heavy pieces first in line, one heavy at a time: the second
    worker passes the waiting heavy piece and takes the light one, which the first heavy
    piece waits for (so that it cannot end before the light one has begun)."""
    log: list[str] = []
    lock = threading.Lock()
    light_started = threading.Event()

    def run(name: str) -> str:
        with lock:
            log.append(f"start {name}")
        if name == "light":
            light_started.set()
        elif name == "heavy-1":
            assert light_started.wait(GUARD), "the light piece never began"
        with lock:
            log.append(f"end {name}")
        return name.upper()

    done = in_turns(["heavy-1", "heavy-2", "light"], run, at_once=2,
                    heavy={"heavy-1", "heavy-2"}, heavy_at_once=1)
    assert done == {"heavy-1": "HEAVY-1", "heavy-2": "HEAVY-2", "light": "LIGHT"}
    assert list(done) == ["heavy-1", "heavy-2", "light"]  # in the order asked
    assert log.index("start light") < log.index("end heavy-1")
    assert log.index("end heavy-1") < log.index("start heavy-2")


def test_no_more_than_at_once_run_together():
    running, most = 0, 0
    lock = threading.Lock()
    both = threading.Barrier(2, timeout=GUARD)

    def run(name: str) -> None:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        if name in ("a", "b"):
            both.wait()  # a and b run together
        with lock:
            running -= 1

    in_turns(["a", "b", "c", "d", "e"], run, at_once=2)
    assert most == 2


def test_an_error_is_raised_after_the_other_pieces_ran():
    ran: list[str] = []

    def run(name: str) -> None:
        if name == "bad":
            raise ValueError("no engine")
        ran.append(name)

    with pytest.raises(ValueError, match="no engine"):
        in_turns(["bad", "a", "b", "c"], run, at_once=1)
    assert sorted(ran) == ["a", "b", "c"]
