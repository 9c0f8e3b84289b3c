"""How big the slow differential and property tests run.

`scripts/test.sh` (and CI) runs them bounded, so that the whole suite stays well inside
CI's time on a busy two-core machine; `DIAGBENCH_TEST_SIZE=full` runs them at full size
(README, Development): `DIAGBENCH_TEST_SIZE=full bash scripts/test.sh -m differential`.
Bounded runs use a fixed hypothesis seed per test (derandomised), so that a red run can be
repeated; full runs draw new examples every time.
"""

from __future__ import annotations

import os

FULL = os.environ.get("DIAGBENCH_TEST_SIZE", "bounded") == "full"


def sized(bounded: int, full: int) -> int:
    """`full` when the full size is asked for, else `bounded`."""
    return full if FULL else bounded
