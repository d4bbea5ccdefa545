"""How large a drop of pass^1 the gate's regression rule detects: a pure core (no pytest).

The gate fails when the upper end of the 95% interval of the mean per-task difference
(this run − baseline) lies below −D. Over n paired tasks the mean difference is close to
normal with standard error σ/√n, σ² the mean over tasks of the variance of one task's
difference; with T trials a task of success rate p contributes p(1−p)/T from each run.
So a true drop δ is caught with probability

    power(δ) = Φ(√n (δ − D) / σ − z),   z = Φ⁻¹(0.975)

and power 0.8 needs n = ((z + Φ⁻¹(0.8)) σ / (δ − D))² tasks. A drop of D or less is never
caught, by design. `simulate_power` checks the formula by playing both runs (binomial
trials per task) and applying the rule, for any number of runs.

Per-task rates come from a baseline's results as (c + 1)/(n + 2) (Laplace's rule): with one
trial a task is seen as 0 or 1, and taking that as its rate would claim no noise at all.
A drop δ is applied as one shift s of every rate, clipped at 0, with s chosen so that the
mean rate falls by exactly δ.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from statistics import NormalDist

__all__ = ["detectable_drop", "power", "shifted_rates", "simulate_power", "task_rates", "tasks_needed"]

TARGET_POWER = 0.8
_NORMAL = NormalDist()


def _z(level: float) -> float:
    return _NORMAL.inv_cdf((1 + level) / 2)


def task_rates(tallies: Sequence[tuple[int, int]]) -> list[float]:
    """Each task's success rate from (trials, successes), by Laplace's rule of succession."""
    return [(c + 1) / (n + 2) for n, c in tallies]


def shifted_rates(rates: Sequence[float], drop: float) -> list[float] | None:
    """The rates after a true drop of `drop` in their mean (None: the mean is below `drop`)."""
    if drop <= 0:
        return list(rates)
    if not rates or sum(rates) / len(rates) < drop - 1e-12:
        return None
    low, high = 0.0, 1.0
    for _ in range(60):  # bisection on the shift: the mean drop grows with it
        shift = (low + high) / 2
        fallen = sum(p - max(0.0, p - shift) for p in rates) / len(rates)
        low, high = (shift, high) if fallen < drop else (low, shift)
    return [max(0.0, p - high) for p in rates]


def _sigma(rates: Sequence[float], after: Sequence[float], trials: int, baseline_trials: Sequence[int] | None) -> float:
    base = baseline_trials or [trials] * len(rates)
    variance = sum(p * (1 - p) / b + q * (1 - q) / trials for p, q, b in zip(rates, after, base, strict=True)) / len(rates)
    return math.sqrt(variance)


def _resize(rates: Sequence[float], tasks: int) -> list[float]:
    """`tasks` rates drawn evenly from the given ones (the benchmark grown or cut alike)."""
    return [rates[i * len(rates) // tasks] for i in range(tasks)] if tasks != len(rates) else list(rates)


def power(
    rates: Sequence[float],
    trials: int,
    drop: float,
    max_regression: float,
    *,
    tasks: int | None = None,
    level: float = 0.95,
    baseline_trials: Sequence[int] | None = None,
) -> float:
    """The chance the gate catches a true drop `drop` of pass^1 (normal approximation)."""
    chosen = _resize(rates, tasks) if tasks else list(rates)
    after = shifted_rates(chosen, drop)
    if after is None or not chosen:
        return 0.0
    base = baseline_trials if baseline_trials is not None and len(baseline_trials) == len(chosen) else None
    sigma = _sigma(chosen, after, trials, base)
    if sigma == 0:
        return 1.0 if drop > max_regression else 0.0
    return _NORMAL.cdf(math.sqrt(len(chosen)) * (drop - max_regression) / sigma - _z(level))


def tasks_needed(
    rates: Sequence[float], trials: int, drop: float, max_regression: float, *, level: float = 0.95, target: float = TARGET_POWER
) -> int | None:
    """Paired tasks (like the given ones) for power `target` against a true drop `drop`; None: never."""
    after = shifted_rates(rates, drop)
    if after is None or drop <= max_regression or not rates:
        return None
    sigma = _sigma(rates, after, trials, None)
    needed = ((_z(level) + _NORMAL.inv_cdf(target)) * sigma / (drop - max_regression)) ** 2
    return max(2, math.ceil(needed))


def detectable_drop(
    tallies: Sequence[tuple[int, int]],
    trials: int,
    max_regression: float,
    *,
    level: float = 0.95,
    target: float = TARGET_POWER,
    tasks: int | None = None,
) -> float | None:
    """The smallest true drop of pass^1 caught with power `target`, comparing a run of `trials`
    trials with a baseline whose per-task (trials, successes) are `tallies`; None: no drop is."""
    if not tallies:
        return None
    rates = task_rates(tallies)
    base = [n for n, _ in tallies] if tasks is None else None
    ceiling = sum(rates) / len(rates)
    if power(rates, trials, ceiling, max_regression, tasks=tasks, level=level, baseline_trials=base) < target:
        return None
    low, high = max_regression, ceiling
    for _ in range(50):
        middle = (low + high) / 2
        if power(rates, trials, middle, max_regression, tasks=tasks, level=level, baseline_trials=base) >= target:
            high = middle
        else:
            low = middle
    return high


def simulate_power(
    rates: Sequence[float],
    trials: int,
    drop: float,
    max_regression: float,
    *,
    tasks: int | None = None,
    level: float = 0.95,
    runs: int = 2000,
    seed: int = 0,
) -> float:
    """The share of `runs` simulated (baseline, run) pairs in which the gate fires."""
    chosen = _resize(rates, tasks) if tasks else list(rates)
    after = shifted_rates(chosen, drop)
    if after is None or not chosen:
        return 0.0
    rng = random.Random(seed)
    z = _z(level)
    size = len(chosen)
    fired = 0
    for _ in range(runs):
        deltas = []
        for p, q in zip(chosen, after, strict=True):
            then = sum(rng.random() < p for _ in range(trials))
            now = sum(rng.random() < q for _ in range(trials))
            deltas.append((now - then) / trials)
        mean = sum(deltas) / size
        spread = math.sqrt(sum((d - mean) ** 2 for d in deltas) / size)  # as the bootstrap sees it
        fired += mean + z * spread / math.sqrt(size) < -max_regression
    return fired / runs
