"""One request to an answer or a recorded error: attempts under a retry policy, and the
breaker that stops a run whose server cannot be reached at all."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from diagbench.models.protocol import Model
from diagbench.models.request import Request
from diagbench.models.response import Response
from diagbench.models.retry import CallError, RetryPolicy

#: Attempts in a row that could not reach the server (DNS, refused, TLS, proxy) after
#: which a run stops asking: the rest of its requests fail at once, unsent.
UNREACHABLE_TO_STOP = 3


@dataclass(slots=True)
class Breaker:
    """Counts the attempts in a row that could not reach the server (an answer resets
    it); at `limit` it opens: no further attempt is made, `reason` says why."""

    limit: int = UNREACHABLE_TO_STOP
    in_a_row: int = 0
    reason: str | None = None

    def failed(self, exc: CallError) -> None:
        self.in_a_row = self.in_a_row + 1 if exc.unreachable else 0
        if self.in_a_row >= self.limit and self.reason is None:
            self.reason = (f"stopped asking: {self.in_a_row} attempts in a row could not "
                           f"reach the server ({exc.reason})")

    def answered(self) -> None:
        self.in_a_row = 0


async def call_with_retries(adapter: Model, request: Request, policy: RetryPolicy,
                            breaker: Breaker | None = None) -> Response:
    """Call `adapter` until an answer, a failure not worth retrying, the retries run out,
    or `breaker` opens (then no attempt is made: 0 attempts when it was open already).

    A final failure comes back as `Response(status="error", error=reason)`:
    the caller records it, it is never an answer.
    """
    breaker = breaker or Breaker()
    start, attempt = time.perf_counter(), 0
    while True:
        if breaker.reason is not None:
            return Response.failed(breaker.reason + _after(attempt),
                                   attempt, time.perf_counter() - start)
        attempt += 1
        try:
            response = await adapter.call(request)
        except CallError as exc:
            breaker.failed(exc)
            if not exc.retryable or attempt > policy.retries:
                why = _after(attempt) if exc.retryable else ""
                return Response.failed(exc.reason + why, attempt, time.perf_counter() - start)
            if breaker.reason is None:
                await asyncio.sleep(policy.delay(attempt, exc.retry_after))
            continue
        breaker.answered()
        response.attempts = attempt
        return response


def _after(attempts: int) -> str:
    return "" if not attempts else " (after 1 attempt)" if attempts == 1 \
        else f" (after {attempts} attempts)"
