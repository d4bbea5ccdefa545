"""One gate per process in front of every model call.

With many conversations in one process (`--concurrency N`), a 429 seen by one of them
says the provider wants the whole process to slow down: the gate holds every caller
until the `Retry-After` has passed, and lets them through spread over a fraction of
that wait instead of all at once. It also tells conversations still in flight that the
run is stopping (-x, --maxfail, a fatal model error), so they end before their next call.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["GATE", "RateGate"]


class RateGate:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._open_at = 0.0
        self._spread = 0.0
        self.stopping = threading.Event()
        # Per endpoint: answered once (calls go out freely), or why it cannot be used.
        self._answered: set[object] = set()
        self._probes: dict[object, threading.Lock] = {}
        self.fatal: dict[object, str] = {}

    def begin_call(self, endpoint: object) -> bool:
        """Before a model call. Until `endpoint` has answered once, its calls go one at a time,
        so a rejected key or a wrong address costs one call, not one per conversation in flight.
        Returns whether this call holds the probe (pass it to `end_call`)."""
        if endpoint in self._answered:
            return False
        with self._lock:
            probe = self._probes.setdefault(endpoint, threading.Lock())
        probe.acquire()
        if endpoint in self._answered:
            probe.release()
            return False
        return True

    def end_call(self, endpoint: object, probing: bool, *, answered: bool) -> None:
        if answered:
            self._answered.add(endpoint)
        if probing:
            self._probes[endpoint].release()

    def hold(self, seconds: float) -> float:
        """A 429 asked for `seconds` of quiet: no call of this process goes out before then.
        Returns the moment the gate opens (pass it to `wait` as `own`)."""
        with self._lock:
            open_at = self._clock() + seconds
            if open_at > self._open_at:
                self._open_at = open_at
                self._spread = seconds
            return self._open_at

    def wait(self, sleep: Callable[[float], object], jitter: float, own: float = 0.0) -> float:
        """Sleep until the gate opens, plus `jitter` (0..1) of the last hold so callers arrive
        spread out; returns the seconds slept (0 when the gate is open). A caller that has
        just slept through its own hold (`own`, from `hold`) is not held again by it. One
        sleep, so an injected fake `sleep` never spins."""
        with self._lock:
            left = self._open_at - self._clock()
            spread = self._spread
            mine = self._open_at <= own
        if left <= 0 or mine:
            return 0.0
        delay = left + jitter * spread
        sleep(delay)
        return delay


GATE = RateGate()
