"""A CI gate: pass^k thresholds and a paired comparison with a baseline run.

- `--min-pass-hat-k K=V` (repeatable; `retail:1=0.8` for one domain): the run fails the
  gate when pass^K is below V, or could not be computed.
- `--baseline RUN_DIR --max-regression D`: a paired bootstrap over the tasks both runs
  scored. Per task, pass^k = C(c, k)/C(n, k); the statistic is the mean over tasks of
  (this run - baseline). Tasks are resampled with replacement (a seeded RNG, 2000
  resamples) and the gate fails when the whole 95% interval lies below -D, i.e. the drop
  is larger than D beyond what the choice of tasks explains.
  Why not McNemar: it wants one paired binary outcome per task, but trials of a task are
  correlated (they share the task) and pass^k for k > 1 is a fraction per task, not a
  0/1 outcome; resampling whole tasks keeps each task's trials together and works for
  any k.
- Bootstrap 95% intervals of pass^k over tasks, per domain and overall, for the report.

A failed gate exits with `EXIT_GATE` (7), apart from failed items (1) and an incomplete
run (6).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from ._results import ItemResult, RunSummary

__all__ = ["EXIT_GATE", "GateReport", "Threshold", "add_options", "evaluate_gate", "parse_threshold", "task_scores"]

EXIT_GATE = 7
RESAMPLES = 2000
LEVEL = 0.95


def add_options(group: Any) -> None:
    group.addoption("--min-pass-hat-k", dest="tau_min_pass_hat_k", action="append", default=[], metavar="[DOMAIN:]K=V",
                    help="gate: fail (exit 7) when pass^K is below V, overall or for DOMAIN; repeatable (e.g. 1=0.8, retail:2=0.5)")
    group.addoption("--baseline", dest="tau_baseline", default=None, metavar="RUN_DIR",
                    help="gate: compare with this earlier run directory (paired bootstrap over tasks)")
    group.addoption("--max-regression", dest="tau_max_regression", type=float, default=0.0, metavar="D",
                    help="gate: with --baseline, fail (exit 7) when pass^k dropped by more than D beyond the 95%% interval (default 0)")


@dataclass(frozen=True)
class Threshold:
    domain: str | None
    k: int
    minimum: float

    def __str__(self) -> str:
        return f"{self.domain + ':' if self.domain else ''}pass^{self.k} >= {self.minimum:g}"


def parse_threshold(text: str) -> Threshold:
    scope, _, value = text.partition("=")
    domain, _, k = scope.rpartition(":")
    try:
        threshold = Threshold(domain or None, int(k), float(value))
    except ValueError:
        raise pytest.UsageError(f"--min-pass-hat-k {text!r}: expected K=V or DOMAIN:K=V, e.g. 1=0.8 or retail:1=0.8") from None
    if threshold.k < 1 or not 0.0 <= threshold.minimum <= 1.0:
        raise pytest.UsageError(f"--min-pass-hat-k {text!r}: K is at least 1 and V between 0 and 1")
    return threshold


def task_scores(results: Iterable[ItemResult], k: int, domain: str | None = None) -> dict[str, float]:
    """pass^k per task (`domain/task`), for tasks with at least k scored trials (last result per item wins)."""
    latest: dict[str, ItemResult] = {}
    for result in results:
        latest[result.item] = result
    tallies: dict[str, list[int]] = {}
    for result in latest.values():
        if result.status == "error" or (domain is not None and result.domain != domain):
            continue
        entry = tallies.setdefault(f"{result.domain}/{result.task}", [0, 0])
        entry[0] += 1
        entry[1] += result.status == "passed"
    return {task: comb(c, k) / comb(n, k) for task, (n, c) in tallies.items() if n >= k}


def bootstrap_interval(values: Sequence[float], seed: int = 0) -> tuple[float, float] | None:
    """95% percentile interval of the mean of `values`, resampling them with replacement."""
    if not values:
        return None
    rng = random.Random(seed)
    size = len(values)
    means = sorted(sum(values[rng.randrange(size)] for _ in range(size)) / size for _ in range(RESAMPLES))
    low = means[int((1 - LEVEL) / 2 * RESAMPLES)]
    high = means[min(RESAMPLES - 1, int((1 + LEVEL) / 2 * RESAMPLES))]
    return low, high


@dataclass
class Comparison:
    k: int
    tasks: int
    delta: float
    interval: tuple[float, float]
    regressed: bool


@dataclass
class GateReport:
    failures: list[str] = field(default_factory=list)
    intervals: dict[str, dict[int, tuple[float, float] | None]] = field(default_factory=dict)
    comparisons: list[Comparison] = field(default_factory=list)
    baseline: str | None = None
    # False when neither thresholds nor a baseline were given: nothing was gated.
    configured: bool = True

    @property
    def failed(self) -> bool:
        return bool(self.failures)

    def to_json(self) -> dict[str, Any]:
        return {
            # None, not True, when no gate was set: a run without a gate did not pass one.
            "passed": (not self.failed) if self.configured else None,
            "status": ("failed" if self.failed else "passed") if self.configured else "no gate",
            "failures": self.failures,
            "intervals": {scope: {str(k): list(v) if v else None for k, v in ks.items()} for scope, ks in self.intervals.items()},
            "baseline": self.baseline,
            "comparisons": [
                {"k": c.k, "tasks": c.tasks, "delta": round(c.delta, 6), "interval": [round(x, 6) for x in c.interval], "regressed": c.regressed}
                for c in self.comparisons
            ],
        }


def evaluate_gate(
    summary: RunSummary,
    results: Sequence[ItemResult],
    trials: int,
    thresholds: Sequence[Threshold],
    baseline: Path | None,
    max_regression: float,
) -> GateReport:
    """The gate's verdict on a run (or a merge of shards), also recorded in `summary.gate`."""
    pass_hat_k: dict[str | None, Mapping[int, float | None]] = {None: summary.pass_hat_k}
    pass_hat_k.update({name: domain.pass_hat_k for name, domain in summary.domains.items()})
    report = GateReport(configured=bool(thresholds) or baseline is not None)
    domains = sorted({r.domain for r in results})
    for scope in [None, *domains]:
        report.intervals[scope or "overall"] = {
            k: bootstrap_interval(list(task_scores(results, k, scope).values())) for k in range(1, trials + 1)
        }
    for threshold in thresholds:
        value = pass_hat_k.get(threshold.domain, {}).get(threshold.k)
        if value is None:
            report.failures.append(f"{threshold}: pass^{threshold.k} could not be computed (no task with {threshold.k} scored trials)")
        elif value < threshold.minimum:
            report.failures.append(f"{threshold}: it is {value:.3f}")
    if baseline is not None:
        from ._results import read_results

        report.baseline = str(baseline)
        before = read_results(baseline / "results.jsonl")
        for k in range(1, trials + 1):
            now, then = task_scores(results, k), task_scores(before, k)
            paired = sorted(set(now) & set(then))
            if not paired:
                continue
            deltas = [now[t] - then[t] for t in paired]
            interval = bootstrap_interval(deltas)
            assert interval is not None
            regressed = interval[1] < -max_regression
            delta = sum(deltas) / len(deltas)
            report.comparisons.append(Comparison(k, len(paired), delta, interval, regressed))
            if regressed:
                report.failures.append(
                    f"pass^{k} regressed vs {baseline}: {delta:+.3f} over {len(paired)} tasks, "
                    f"95% interval [{interval[0]:+.3f}, {interval[1]:+.3f}] entirely below -{max_regression:g}"
                )
    summary.gate = report.to_json()
    return report
