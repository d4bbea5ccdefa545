"""Retries of remote requests: transient failures back off and retry, then become `InfraError`."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from .._conversation import InfraError
from .._redact import redact

__all__ = ["RemoteError", "with_retries"]

T = TypeVar("T")

_MAX_DELAY = 10.0


class RemoteError(Exception):
    """A remote request failed. ``retryable``: a connection error, a timeout, 429 or 5xx."""

    def __init__(self, message: str, *, retryable: bool = True, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after


def with_retries(request: Callable[[], T], *, what: str, retries: int, backoff: float) -> T:
    """``request()``, retried on retryable `RemoteError`; `InfraError` when they run out."""
    attempt = 0
    while True:
        try:
            return request()
        except RemoteError as exc:
            if not exc.retryable or attempt >= retries:
                tries = f" after {attempt + 1} attempts" if attempt else ""
                raise InfraError(redact(f"{what}: {exc}{tries}")) from None
            delay = min(backoff * 2**attempt, _MAX_DELAY)
            if exc.retry_after is not None:
                delay = min(max(delay, exc.retry_after), _MAX_DELAY)
            attempt += 1
            time.sleep(delay)


def retry_after(value: str | None) -> float | None:
    """A Retry-After header in seconds (the HTTP-date form is ignored)."""
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None
