"""One gate per process in front of every model call.

With many conversations in one process (`--concurrency N`), a 429 seen by one of them
says the provider wants the whole process to slow down: the gate holds every caller
until the `Retry-After` has passed, and lets them through spread over a fraction of
that wait instead of all at once. Releasing N conversations over a short Retry-After
still sent N calls into a limit that had room for one or two (bench/rate_limit.py: 1.7
429s per completion at --concurrency 32), each 429 costing CPU and a turn; so once the
process has a measured rate of answers, a 429 also paces its calls: one every 1/rate
seconds (what the provider just proved it serves), and every answer shortens that gap by
a little (and at least doubles the rate each second), so the pace climbs back until the next
429 finds the limit again. A caller whose turn is more than one pace away looks again after one
pace instead of sleeping until a turn booked at the old pace, so a pace that climbs meanwhile
(another process sharing the limit has finished) takes effect at once. It also
tells conversations still in flight that the run is stopping (-x, --maxfail, a fatal
model error), so they end before their next call.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

__all__ = ["GATE", "RateGate"]

_WINDOW = 2.0  # seconds of answers that measure the served rate
_MIN_ANSWERS = 4  # fewer answers in the window: no rate to pace at, only the hold
_CLIMB = 0.97  # each answer shortens the gap by 3%: about 8 answers to 1.25x the rate
# ... and the rate at least doubles each second without a 429: a process paced at its own share of
# a limit that another process shares gets few answers, and 3% per answer took 14 s to climb
# from 3 to 20 calls/s once the other had finished (bench/rate_limit.py, -n 2).
_CLIMB_PER_SECOND = 0.5
_MAX_LOOKS = 10_000  # a fake `sleep` that does not move the clock cannot spin for ever


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
        # Pacing after a 429: seconds between call starts (0: none) and the last start booked
        # (the next one is a pace after it, at the pace of the moment).
        self._pace = 0.0
        self._last_start = float("-inf")
        self._climbed_at = 0.0
        self._answers: deque[float] = deque()

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
            with self._lock:
                now = self._clock()
                self._answers.append(now)
                while self._answers and self._answers[0] < now - _WINDOW:
                    self._answers.popleft()
                if self._pace:
                    self._pace *= min(_CLIMB, _CLIMB_PER_SECOND ** (now - self._climbed_at))
                    self._climbed_at = now
                    if self._pace < 1e-3:
                        self._pace = 0.0
        if probing:
            self._probes[endpoint].release()

    def hold(self, seconds: float) -> float:
        """A 429 asked for `seconds` of quiet: no call of this process goes out before then.
        Returns the moment the gate opens (pass it to `wait` as `own`)."""
        with self._lock:
            now = self._clock()
            open_at = now + seconds
            if open_at > self._open_at:
                self._open_at = open_at
                self._spread = seconds
            while self._answers and self._answers[0] < now - _WINDOW:
                self._answers.popleft()
            if len(self._answers) >= _MIN_ANSWERS:
                self._pace = _WINDOW / len(self._answers)
                self._climbed_at = now
            return self._open_at

    @property
    def pace(self) -> float:
        """Seconds between call starts while pacing after a 429 (0: not pacing)."""
        return self._pace

    def wait(self, sleep: Callable[[float], object], jitter: float, own: float = 0.0) -> float:
        """Sleep until the gate opens, plus `jitter` (0..1) of the last hold so callers arrive
        spread out, or, while pacing, until this caller's turn; returns the seconds slept (0
        when the gate is open). A caller that has just slept through its own hold (`own`,
        from `hold`) is not held again by it. While pacing, a turn is booked only when it is
        at most one pace away; a caller further back sleeps one pace and looks again."""
        slept = 0.0
        for _ in range(_MAX_LOOKS):
            with self._lock:
                now = self._clock()
                left = self._open_at - now
                held = left > 0 and self._open_at > own
                if self._pace:
                    # Turns one pace apart, none before the gate opens: the spread is the pace.
                    start = max(now, self._last_start + self._pace, self._open_at if held else now)
                    delay = start - now
                    booked = delay <= self._pace
                    if booked:
                        self._last_start = start
                    else:  # look again one pace before that turn (a held gate: before it opens)
                        delay = max(delay - self._pace, self._pace)
                else:
                    delay = left + jitter * self._spread if held else 0.0
                    booked = True
            if delay > 0:
                sleep(delay)
                slept += delay
            if booked:
                break
        return slept


GATE = RateGate()
