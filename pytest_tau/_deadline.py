"""Whole-call deadlines: from connecting to the last byte, whatever a library's timeouts are.

HTTP libraries bound each read, not the call: a server that trickles its answer a byte at
a time keeps one call alive for minutes under a 2 s timeout. `within` runs the call on a
thread and stops waiting at the deadline; the late thread is left to finish on its own
(its answer is dropped), and the caller sees `CallDeadline`, a `TimeoutError`, which the
harness retries as any timeout.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import TypeVar

__all__ = ["CallDeadline", "within"]

T = TypeVar("T")


class CallDeadline(TimeoutError):
    """The whole call took longer than its timeout."""


def within(seconds: float, call: Callable[[], T], what: str) -> T:
    """`call()`'s value, or `CallDeadline` once `seconds` have passed (no deadline when not positive and finite)."""
    if not (math.isfinite(seconds) and seconds > 0):
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
    if not done.wait(seconds):
        raise CallDeadline(f"{what}: no complete answer within {seconds:g}s (from connecting to the last byte)")
    if failure:
        raise failure[0]
    return outcome[0]
