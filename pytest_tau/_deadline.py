"""Whole-call deadlines: from connecting to the last byte, whatever a library's timeouts are.

HTTP libraries bound each read, not the call: a server that trickles its answer a byte at
a time keeps one call alive for minutes under a 2 s timeout. `within` runs the call on a
thread and stops waiting at the deadline; the late thread is left to finish on its own
(its answer is dropped), and the caller sees `CallDeadline`, a `TimeoutError`, which the
harness retries as any timeout. A `stop` event (the run stopping: Ctrl-C, -x, a fatal error)
ends the wait too, so no conversation thread holds the run's end for a slow model's answer.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import TypeVar

__all__ = ["CallDeadline", "CallStopped", "within"]

T = TypeVar("T")


class CallDeadline(TimeoutError):
    """The whole call took longer than its timeout."""


class CallStopped(Exception):
    """The run began stopping while the call was in flight; its answer is dropped."""


_STOP_POLL = 0.25  # seconds between looks at the stop event


def within(seconds: float, call: Callable[[], T], what: str, stop: threading.Event | None = None) -> T:
    """`call()`'s value, `CallDeadline` once `seconds` have passed (no deadline when not
    positive and finite), or `CallStopped` as soon as `stop` is set."""
    if stop is None and not (math.isfinite(seconds) and seconds > 0):
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
    deadline = time.monotonic() + seconds if math.isfinite(seconds) and seconds > 0 else math.inf
    while True:
        left = max(0.0, deadline - time.monotonic())
        if done.wait(left if stop is None else min(_STOP_POLL, left)):
            break
        if stop is not None and stop.is_set():
            raise CallStopped(f"{what}: the run is stopping; the call in flight is abandoned")
        if time.monotonic() >= deadline:
            raise CallDeadline(f"{what}: no complete answer within {seconds:g}s (from connecting to the last byte)")
    if failure:
        raise failure[0]
    return outcome[0]
