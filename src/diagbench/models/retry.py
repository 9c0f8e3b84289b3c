"""Which failures are worth another attempt, and how long to wait before it.

Retried: 429, 5xx, time-outs and dropped connections — with exponential
backoff and full jitter, or the server's `Retry-After` when it sends one.
Not retried: 400, 401, 403, 404, 422 and content errors (asking again gives
the same answer).

A failure to reach the server is named by its cause with the host (`unreachable`): a
name that does not resolve (DNS), a refused connection, a TLS failure, a proxy error, an
unreachable network — never "timed out" for what was no time-out, and never with the
API key. Such a `CallError` is `unreachable`: the runner stops a run after a few of them
in a row (`diagbench.models.runner`).
"""

from __future__ import annotations

import errno
import random
import socket
import ssl
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any


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
                 status: int | None = None, unreachable: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retryable = retryable
        self.retry_after = retry_after
        self.status = status
        self.unreachable = unreachable  # the server could not be reached at all

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
    except sdk.APIConnectionError as exc:  # a time-out too (APITimeoutError)
        host = _host(getattr(exc, "request", None))
        reason = unreachable(exc, host)
        if reason is not None:
            raise CallError(reason, True, unreachable=True) from None
        if isinstance(exc, sdk.APITimeoutError):
            raise CallError(f"timed out waiting for {host}", True) from None
        raise CallError(f"connection to {host} failed: {_innermost(exc)}"[:300],
                        True) from None
    except (sdk.APIResponseValidationError, ValueError) as exc:
        raise CallError(f"malformed response: {exc}"[:300], True) from None


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """`exc` and the exceptions it was raised from or while handling, outermost first."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _innermost(exc: BaseException) -> str:
    *_, last = _chain(exc)
    return str(last) or type(last).__name__


def _host(request: Any) -> str:
    """"host:port" of an HTTP request (httpx's or its successor's), never its key."""
    url = getattr(request, "url", None)
    host = getattr(url, "host", None)
    if not host:
        return "the server"
    port = getattr(url, "port", None)
    return f"{host}:{port}" if port else str(host)


def unreachable(exc: BaseException, host: str) -> str | None:
    """Why `host` could not be reached at all, from the causes of `exc` (None: it was
    reached, or the cause is not known): DNS, refused, TLS, proxy, unreachable network."""
    for cause in _chain(exc):
        name = type(cause).__name__
        if isinstance(cause, socket.gaierror) or "DNSError" in name:
            detail = next((c.strerror for c in _chain(cause)
                           if isinstance(c, socket.gaierror) and c.strerror), None)
            return (f"DNS failure: the name of {host} does not resolve "
                    f"({detail or _innermost(cause)})")
        if "Proxy" in name:
            return f"proxy error on the way to {host}: {_innermost(cause)}"[:300]
        if isinstance(cause, ssl.SSLError | ssl.CertificateError) or "SSL" in name \
                or "Certificate" in name:
            return f"TLS error with {host}: {_innermost(cause)}"[:300]
        if isinstance(cause, ConnectionRefusedError):
            return f"connection refused by {host} (nothing listens there)"
        if isinstance(cause, OSError) and cause.errno in (errno.ENETUNREACH,
                                                          errno.EHOSTUNREACH):
            return f"network unreachable: no route to {host} ({cause.strerror})"
    return None
