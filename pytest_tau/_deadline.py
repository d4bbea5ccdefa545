"""Whole-call deadlines: from connecting to the last byte, whatever a library's timeouts are.

HTTP libraries bound each read, not the call: a server that trickles its answer a byte at
a time keeps one call alive for minutes under a 2 s timeout. Two ways to bound a call:

- `bounded` runs it on this thread under `CallBounds` that a transport of ours reads before
  each connect, write and read (`current_bounds`; the openai path's, _httppool): the call
  ends at its deadline, and within a quarter of a second of the run stopping, with no
  thread of its own (a thread per call cost about 0.6 ms of CPU and a GIL hand-off each
  way, which showed at 64 calls in flight).
- `within`, for HTTP stacks that are not ours (litellm's, a remote agent's client), runs the
  call on a thread and stops waiting at the deadline; the late thread is left to finish on
  its own (its answer is dropped).

Either way the caller sees `CallDeadline`, a `TimeoutError`, which the harness retries as any
timeout, or `CallStopped` when the run is stopping (Ctrl-C, -x, a fatal error), so no
conversation thread holds the run's end for a slow model's answer.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["CallBounds", "CallDeadline", "CallStopped", "bounded", "current_bounds", "within"]

T = TypeVar("T")


class CallDeadline(TimeoutError):
    """The whole call took longer than its timeout."""


class CallStopped(Exception):
    """The run began stopping while the call was in flight; its answer is dropped."""


_STOP_POLL = 0.25  # seconds between looks at the stop event
_BOUNDS = threading.local()


@dataclass(frozen=True)
class CallBounds:
    """The call this thread is making: when it must be over, and the event that ends it early."""

    deadline: float  # time.monotonic()
    seconds: float
    what: str
    stop: threading.Event | None = None

    def wait(self, limit: float | None = None, *, resumable: bool = True) -> float | None:
        """Seconds the next blocking step may wait: what is left of the call, at most `limit`
        (the library's own timeout for the step) and, for a step that can be resumed (a read)
        under a stop event, a quarter of a second (the caller looks at the event and waits
        again); None when nothing bounds it. Raises once the call is over."""
        if self.stop is not None and self.stop.is_set():
            raise CallStopped(f"{self.what}: the run is stopping; the call in flight is abandoned")
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise self.overdue()
        wait = left if limit is None else min(left, limit)
        if resumable and self.stop is not None:
            wait = min(wait, _STOP_POLL)
        return None if math.isinf(wait) else wait  # None: no timeout (a socket refuses an infinite one)

    def overdue(self) -> CallDeadline:
        return CallDeadline(f"{self.what}: no complete answer within {self.seconds:g}s (from connecting to the last byte)")

    def passed(self) -> bool:
        return time.monotonic() >= self.deadline


def _bounds(seconds: float, what: str, stop: threading.Event | None) -> CallBounds | None:
    """A call's bounds from now: a deadline when `seconds` is positive and finite, the stop
    event; None when there is neither."""
    limited = math.isfinite(seconds) and seconds > 0
    if stop is None and not limited:
        return None
    deadline = time.monotonic() + seconds if limited else math.inf
    return CallBounds(deadline=deadline, seconds=seconds, what=what, stop=stop)


def current_bounds() -> CallBounds | None:
    """The bounds of the call this thread is making under `bounded`, if any."""
    return getattr(_BOUNDS, "value", None)


def bounded(seconds: float, call: Callable[[], T], what: str, stop: threading.Event | None = None) -> T:
    """`call()` on this thread with `current_bounds()` set: for calls whose transport honours
    them (they raise `CallDeadline` or `CallStopped` themselves)."""
    bounds = _bounds(seconds, what, stop)
    if bounds is None:
        return call()
    previous = current_bounds()
    _BOUNDS.value = bounds
    try:
        return call()
    finally:
        _BOUNDS.value = previous


def within(seconds: float, call: Callable[[], T], what: str, stop: threading.Event | None = None) -> T:
    """`call()`'s value, `CallDeadline` once `seconds` have passed (no deadline when not
    positive and finite), or `CallStopped` as soon as `stop` is set."""
    bounds = _bounds(seconds, what, stop)
    if bounds is None:
        return call()
    outcome: list[T] = []
    failure: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:  # handed to the caller, whatever it is
            failure.append(exc)
        finally:
            done.set()

    threading.Thread(target=run, name=f"pytest-tau call: {what}"[:60], daemon=True).start()
    while not done.wait(bounds.wait()):  # bounds.wait raises once the call is over or the run stopping
        pass
    if failure:
        raise failure[0]
    return outcome[0]
