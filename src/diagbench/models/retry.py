"""Which failures are worth another attempt, and how long to wait before it.

Retried: 429, 5xx, time-outs and dropped connections — with exponential
backoff and full jitter, or the server's `Retry-After` when it sends one.
Not retried: 400, 401, 403, 404, 422 and content errors (asking again gives
the same answer).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    retries: int = 4
    base_delay: float = 1.0
    max_delay: float = 60.0

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait before attempt `attempt + 1` (attempt counts from 1)."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_delay)
        return random.uniform(0, min(self.max_delay, self.base_delay * 2 ** (attempt - 1)))


class CallError(Exception):
    """A failed call: the reason to record, whether to retry, the server's wait hint and
    the HTTP status, when the server answered."""

    def __init__(self, reason: str, retryable: bool, retry_after: float | None = None,
                 status: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retryable = retryable
        self.retry_after = retry_after
        self.status = status

    @property
    def endpoint_fault(self) -> bool:
        """Whether the server itself failed (5xx, time-out, dropped or refused connection,
        garbled answer), not the request (4xx) nor its rate (429)."""
        return self.retryable and self.status != 429


def retryable_status(status: int) -> bool:
    return status == 429 or status >= 500


def parse_retry_after(value: str | None) -> float | None:
    """The `Retry-After` header in seconds (the HTTP-date form is not used by these APIs)."""
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


@contextmanager
def sdk_errors(sdk: ModuleType) -> Iterator[None]:
    """Turn the exceptions of the `openai` or `anthropic` SDK (same hierarchy) into CallError."""
    try:
        yield
    except sdk.APIStatusError as exc:
        raise CallError(f"HTTP {exc.status_code}: {exc.message}"[:500],
                        retryable_status(exc.status_code),
                        parse_retry_after(exc.response.headers.get("retry-after")),
                        exc.status_code) from None
    except sdk.APITimeoutError:
        raise CallError("timed out", True) from None
    except sdk.APIConnectionError as exc:
        raise CallError(f"connection failed: {exc}"[:300], True) from None
    except (sdk.APIResponseValidationError, ValueError) as exc:
        raise CallError(f"malformed response: {exc}"[:300], True) from None
