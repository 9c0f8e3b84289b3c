"""One request to an answer or a recorded error: attempts under a retry policy."""

from __future__ import annotations

import asyncio
import time

from diagbench.models.protocol import Model
from diagbench.models.request import Request
from diagbench.models.response import Response
from diagbench.models.retry import CallError, RetryPolicy


async def call_with_retries(adapter: Model, request: Request, policy: RetryPolicy) -> Response:
    """Call `adapter` until an answer, a failure not worth retrying, or the retries run out.

    A final failure comes back as `Response(status="error", error=reason)`:
    the caller records it, it is never an answer.
    """
    start, attempt = time.perf_counter(), 0
    while True:
        attempt += 1
        try:
            response = await adapter.call(request)
        except CallError as exc:
            if not exc.retryable or attempt > policy.retries:
                why = f" (after {attempt} attempts)" if exc.retryable else ""
                return Response.failed(exc.reason + why, attempt, time.perf_counter() - start)
            await asyncio.sleep(policy.delay(attempt, exc.retry_after))
            continue
        response.attempts = attempt
        return response
