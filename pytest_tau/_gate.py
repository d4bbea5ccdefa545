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

import difflib
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from ._results import ItemResult, RunSummary

__all__ = [
    "EXIT_GATE",
    "GateOptions",
    "GateReport",
    "Threshold",
    "add_options",
    "detectable_lines",
    "evaluate_gate",
    "gate_options",
    "gate_problems",
    "parse_threshold",
    "task_scores",
]

EXIT_GATE = 7
RESAMPLES = 2000
LEVEL = 0.95

# The gate's options are also ini keys and --tau-config (YAML) keys, under these names.
GATE_KEYS = ("min_pass_hat_k", "baseline", "max_regression", "allow_partial")


def add_options(group: Any, parser: Any = None) -> None:
    group.addoption("--min-pass-hat-k", dest="tau_min_pass_hat_k", action="append", default=[], metavar="[DOMAIN:]K=V",
                    help="gate: fail (exit 7) when pass^K is below V, overall or for DOMAIN; repeatable (e.g. 1=0.8, retail:2=0.5) [ini: min_pass_hat_k]")
    group.addoption("--baseline", dest="tau_baseline", default=None, metavar="RUN_DIR",
                    help="gate: compare with this earlier run directory (paired bootstrap over tasks) [ini: baseline]")
    group.addoption("--max-regression", dest="tau_max_regression", type=float, default=None, metavar="D",
                    help="gate: with --baseline, fail (exit 7) when pass^k dropped by more than D beyond the 95%% interval (default 0) [ini: max_regression]")
    group.addoption("--allow-partial", dest="tau_allow_partial", action="store_true", default=None,
                    help="gate: judge a partial run (-k, --deselect, --lf, --sw left out items of the domains it ran) "
                         "instead of failing it [ini: allow_partial]")
    if parser is not None:
        parser.addini("min_pass_hat_k", help="gate thresholds [DOMAIN:]K=V, separated by spaces or lines", type="args", default=[])
        parser.addini("baseline", help="gate: the baseline run directory (relative to the ini file's folder)", type="string", default=None)
        parser.addini("max_regression", help="gate: allowed drop beyond the 95% interval, with baseline", type="string", default=None)
        parser.addini("allow_partial", help="gate: judge partial runs instead of failing them", type="bool", default=None)


@dataclass(frozen=True)
class GateOptions:
    """The gate as asked for, wherever it was written (command line over --tau-config over ini)."""

    thresholds: tuple[Threshold, ...] = ()
    baseline: Path | None = None
    max_regression: float | None = None
    allow_partial: bool = False

    @property
    def active(self) -> bool:
        return bool(self.thresholds) or self.baseline is not None

    @property
    def regression(self) -> float:
        return self.max_regression or 0.0


def gate_options(config: Any, from_yaml: Mapping[str, Any]) -> GateOptions:
    """Read the gate's options from the command line, then the YAML run config, then the ini file."""
    thresholds = list(config.getoption("tau_min_pass_hat_k", None) or [])
    if not thresholds:
        thresholds = [str(t) for t in from_yaml.get("min_pass_hat_k") or []]
    if not thresholds:
        thresholds = [str(t) for t in _ini(config, "min_pass_hat_k") or []]
    baseline: Any = config.getoption("tau_baseline", None)
    if baseline is None and from_yaml.get("baseline") is not None:
        baseline = from_yaml["baseline"]  # already relative to the YAML file's folder
    if baseline is None:
        value = _ini(config, "baseline")
        if value:
            baseline = Path(value)
            if not baseline.is_absolute() and getattr(config, "inipath", None) is not None:
                baseline = config.inipath.parent / baseline
    regression: Any = config.getoption("tau_max_regression", None)
    if regression is None:
        regression = from_yaml.get("max_regression")
    if regression is None:
        text = _ini(config, "max_regression")
        if text not in (None, ""):
            try:
                regression = float(text)
            except ValueError:
                raise pytest.UsageError(f"pytest-tau: max_regression = {text!r} in the ini file: expected a number, e.g. 0.05") from None
    allow: Any = config.getoption("tau_allow_partial", None)
    if allow is None:
        allow = from_yaml.get("allow_partial")
    if allow is None:
        allow = _ini(config, "allow_partial")
    return GateOptions(
        thresholds=tuple(parse_threshold(t) for t in thresholds),
        baseline=Path(baseline) if baseline else None,
        max_regression=None if regression is None else float(regression),
        allow_partial=bool(allow),
    )


def _ini(config: Any, name: str) -> Any:
    try:
        return config.getini(name)
    except ValueError:  # not registered (a config built without this plugin's options)
        return None


def gate_problems(
    options: GateOptions, trials: int, known_domains: Iterable[str] | None = None, selected_domains: Iterable[str] = ()
) -> list[str]:
    """What makes a gate unable to judge, found before anything runs (each a usage error)."""
    problems = []
    if options.max_regression is not None:
        if options.baseline is None:
            problems.append(f"--max-regression {options.max_regression:g} needs --baseline RUN_DIR (without a baseline nothing is compared)")
        if not 0.0 <= options.max_regression <= 1.0:
            problems.append(f"--max-regression {options.max_regression:g}: a drop of pass^k, between 0 and 1")
    known = sorted(set(known_domains)) if known_domains is not None else None
    selected = sorted(set(selected_domains))
    for threshold in options.thresholds:
        if threshold.k > trials:
            problems.append(f"--min-pass-hat-k {threshold.spec}: pass^{threshold.k} needs --trials {threshold.k} or more (this run has {trials})")
        if threshold.domain is None:
            continue
        if known is not None and threshold.domain not in known:
            close = difflib.get_close_matches(threshold.domain, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(known)})"
            problems.append(f"--min-pass-hat-k {threshold.spec}: no domain {threshold.domain!r}{hint}")
        elif selected and threshold.domain not in selected:
            problems.append(f"--min-pass-hat-k {threshold.spec}: {threshold.domain!r} is not among the domains run ({', '.join(selected)})")
    if options.baseline is not None:
        problems += baseline_problems(options.baseline)
    return problems


def baseline_problems(baseline: Path) -> list[str]:
    """A baseline the gate cannot compare with: not a run directory, or nothing scored in it."""
    from ._results import read_results

    if not (baseline / "results.jsonl").is_file():
        return [f"--baseline {baseline}: no results.jsonl there (is it a pytest-tau run directory?)"]
    try:
        latest = {r.item: r for r in read_results(baseline / "results.jsonl")}
    except Exception as exc:  # a line it cannot read (ResultsError): refused now, not at the end
        return [f"--baseline {baseline}: {exc}"]
    if not any(r.status != "error" for r in latest.values()):
        detail = f"all {len(latest)} of its items ended in errors" if latest else "it has no results"
        return [f"--baseline {baseline}: {detail}, so nothing can be compared; finish it with --resume={baseline} or choose another"]
    return []


@dataclass(frozen=True)
class Threshold:
    domain: str | None
    k: int
    minimum: float

    def __str__(self) -> str:
        return f"{self.domain + ':' if self.domain else ''}pass^{self.k} >= {self.minimum:g}"

    @property
    def spec(self) -> str:
        """As written on the command line: `[DOMAIN:]K=V`."""
        return f"{self.domain + ':' if self.domain else ''}{self.k}={self.minimum:g}"


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
    means = sorted(sum(rng.choices(values, k=size)) / size for _ in range(RESAMPLES))  # choices: 4-5x randrange's speed
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
    partial: str | None = None  # why the run is not the whole selection of its domains
    # The smallest true drop of pass^1 this comparison detects with power 0.8 (None: no baseline).
    detectable_drop: float | None = None

    @property
    def failed(self) -> bool:
        return bool(self.failures)

    def to_json(self) -> dict[str, Any]:
        return {
            # None, not True, when no gate was set: a run without a gate did not pass one.
            "passed": (not self.failed) if self.configured else None,
            "status": ("failed" if self.failed else "passed") if self.configured else "no gate",
            "failures": self.failures,
            "partial": self.partial,
            "intervals": {scope: {str(k): list(v) if v else None for k, v in ks.items()} for scope, ks in self.intervals.items()},
            "baseline": self.baseline,
            "comparisons": [
                {"k": c.k, "tasks": c.tasks, "delta": round(c.delta, 6), "interval": [round(x, 6) for x in c.interval], "regressed": c.regressed}
                for c in self.comparisons
            ],
            "detectable_drop": None if self.detectable_drop is None else round(self.detectable_drop, 4),
        }


def evaluate_gate(
    summary: RunSummary,
    results: Sequence[ItemResult],
    trials: int,
    options: GateOptions,
    partial: str | None = None,
) -> GateReport:
    """The gate's verdict on a run (or a merge of shards), also recorded in `summary.gate`.

    A gate that cannot judge fails: a threshold nobody could compute, a baseline that shares
    no scored task with the run, a partial run (unless `allow_partial`)."""
    pass_hat_k: dict[str | None, Mapping[int, float | None]] = {None: summary.pass_hat_k}
    pass_hat_k.update({name: domain.pass_hat_k for name, domain in summary.domains.items()})
    report = GateReport(configured=options.active, partial=partial)
    domains = sorted({r.domain for r in results})
    for scope in [None, *domains]:
        report.intervals[scope or "overall"] = {
            k: bootstrap_interval(list(task_scores(results, k, scope).values())) for k in range(1, trials + 1)
        }
    if partial and options.active and not options.allow_partial:
        report.failures.append(
            f"the run is partial ({partial}): the gate would judge a subset of the benchmark; "
            "run the whole selection (or --resume it), or pass --allow-partial to judge it anyway"
        )
    for threshold in options.thresholds:
        value = pass_hat_k.get(threshold.domain, {}).get(threshold.k)
        if value is None:
            report.failures.append(f"{threshold}: pass^{threshold.k} could not be computed (no task with {threshold.k} scored trials)")
        elif value < threshold.minimum:
            report.failures.append(f"{threshold}: it is {value:.3f}")
    if options.baseline is not None:
        from ._power import detectable_drop
        from ._results import read_results

        baseline = options.baseline
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
            regressed = interval[1] < -options.regression
            delta = sum(deltas) / len(deltas)
            report.comparisons.append(Comparison(k, len(paired), delta, interval, regressed))
            if regressed:
                report.failures.append(
                    f"pass^{k} regressed vs {baseline}: {delta:+.3f} over {len(paired)} tasks, "
                    f"95% interval [{interval[0]:+.3f}, {interval[1]:+.3f}] entirely below -{options.regression:g}"
                )
        if not report.comparisons:
            report.failures.append(
                f"nothing to compare with the baseline {baseline}: no task was scored in both runs "
                f"(this run: {len(task_scores(results, 1))} scored tasks, the baseline: {len(task_scores(before, 1))}; "
                "another domain, another split, or every item an error)"
            )
        else:
            paired_tasks = sorted(set(task_scores(results, 1)) & set(task_scores(before, 1)))
            report.detectable_drop = detectable_drop(
                tally_tasks(before, paired_tasks), trials, options.regression, level=LEVEL
            )
    summary.gate = report.to_json()
    return report


def detectable_lines(gate: Any, max_regression: float, trials: int) -> list[str]:
    """The smallest drop the baseline comparison could have caught, so a pass is read for what it is."""
    if gate.baseline is None or not gate.comparisons:
        return []
    tasks = gate.comparisons[0].tasks
    if gate.detectable_drop is None:
        return [
            f"power: over {tasks} paired tasks with {trials} trial(s), no drop of pass^1 is caught with power 0.8 "
            f"at --max-regression {max_regression:g} (python -m pytest_tau.plan BASELINE says what would be)"
        ]
    return [
        f"power: over {tasks} paired tasks with {trials} trial(s), this gate catches a true drop of pass^1 of "
        f"{gate.detectable_drop:.3f} or more with power 0.8 (smaller drops mostly pass; python -m pytest_tau.plan BASELINE plans more)"
    ]


def tally_tasks(results: Iterable[ItemResult], tasks: Sequence[str] | None = None) -> list[tuple[int, int]]:
    """(scored trials, successes) per task (`domain/task`), the last result per item winning."""
    latest: dict[str, ItemResult] = {}
    for result in results:
        latest[result.item] = result
    tallies: dict[str, list[int]] = {}
    for result in latest.values():
        if result.status == "error":
            continue
        entry = tallies.setdefault(f"{result.domain}/{result.task}", [0, 0])
        entry[0] += 1
        entry[1] += result.status == "passed"
    chosen = tasks if tasks is not None else sorted(tallies)
    return [(tallies[t][0], tallies[t][1]) for t in chosen if t in tallies]
