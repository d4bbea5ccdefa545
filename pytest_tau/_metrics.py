"""pass^k: the chance that all k of k trials of a task succeed, estimated exactly.

pass^k = mean over tasks of C(c, k) / C(n, k), for a task with c successes in n trials.
Items that ended in an infrastructure error are not trials: they are left out of n.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from math import comb

__all__ = ["TaskTally", "pass_hat_k", "tally"]


@dataclass
class TaskTally:
    """Scored trials of one task: n trials, c of them successes."""

    n: int = 0
    c: int = 0


def tally(outcomes: Iterable[tuple[str, bool]]) -> dict[str, TaskTally]:
    """Count (task key, success) outcomes per task."""
    tallies: dict[str, TaskTally] = {}
    for key, success in outcomes:
        entry = tallies.setdefault(key, TaskTally())
        entry.n += 1
        entry.c += int(success)
    return tallies


def pass_hat_k(tallies: Mapping[str, TaskTally], k: int) -> float | None:
    """Mean over tasks with at least k trials of C(c, k) / C(n, k); None if no task has k."""
    ratios = [comb(t.c, k) / comb(t.n, k) for t in tallies.values() if t.n >= k]
    return sum(ratios) / len(ratios) if ratios else None
