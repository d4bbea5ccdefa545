"""Plan a gate that can catch a regression: how many tasks and trials detect a drop of pass^1.

    python -m pytest_tau.plan BASELINE_RUN_DIR [--max-regression 0.05] [--drop 0.10 ...]
        [--trials 1 2 4 8] [--domain retail] [--power 0.8] [--simulate 2000]
    python -m pytest_tau.plan --rate 0.6 --tasks 57 [...]     (no baseline yet)

From a baseline's per-task results (or an assumed success rate), for each number of trials:
the smallest true drop of pass^1 the gate catches with power 0.8 over the baseline's tasks,
and the paired tasks needed to catch each `--drop`. The gate is the run's: the whole 95%
interval of the paired difference below -D. The figures are the normal approximation of
that rule (see `_power`); `--simulate N` adds the share of N simulated run pairs in which
the rule fired.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ._power import TARGET_POWER, detectable_drop, power, simulate_power, task_rates, tasks_needed

__all__ = ["main", "plan_table"]


def plan_table(
    tallies: Sequence[tuple[int, int]],
    *,
    trials: Sequence[int],
    drops: Sequence[float],
    max_regression: float,
    target: float = TARGET_POWER,
    level: float = 0.95,
    simulate: int = 0,
) -> list[str]:
    """The plan as text lines (a Markdown table)."""
    rates = task_rates(tallies)
    tasks = len(rates)
    mean = sum(rates) / tasks
    lines = [
        f"{tasks} tasks, mean success rate {mean:.2f} (per task (c+1)/(n+2)); gate: --max-regression {max_regression:g}, "
        f"{level:.0%} interval; power {target:g}",
        "",
        "| trials | smallest drop caught | " + " | ".join(f"power at -{d:.2f} ({tasks} tasks)" for d in drops) + " | "
        + " | ".join(f"tasks for -{d:.2f}" for d in drops) + " |",
        "|---:|---:|" + "---:|" * (2 * len(drops)),
    ]
    for t in trials:
        smallest = detectable_drop(tallies, t, max_regression, level=level, target=target, tasks=tasks)
        cells = [f"{smallest:.3f}" if smallest is not None else "none"]
        for drop in drops:
            value = power(rates, t, drop, max_regression, level=level)
            if simulate:
                value_sim = simulate_power(rates, t, drop, max_regression, level=level, runs=simulate)
                cells.append(f"{value:.2f} (sim {value_sim:.2f})")
            else:
                cells.append(f"{value:.2f}")
        for drop in drops:
            needed = tasks_needed(rates, t, drop, max_regression, level=level, target=target)
            cells.append(str(needed) if needed is not None else "never")
        lines.append(f"| {t} | " + " | ".join(cells) + " |")
    lines += ["", "A drop of D or less is never caught: the gate fails only when the drop exceeds D beyond the interval."]
    return lines


def _baseline_tallies(run_dir: Path, domain: str | None) -> list[tuple[int, int]]:
    from ._gate import tally_tasks
    from ._results import read_results

    results = read_results(run_dir / "results.jsonl")
    if domain:
        results = [r for r in results if r.domain == domain]
    return tally_tasks(results)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pytest_tau.plan", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("baseline", nargs="?", type=Path, metavar="RUN_DIR", help="a baseline run directory (its results.jsonl)")
    parser.add_argument("--domain", default=None, help="only this domain's tasks of the baseline")
    parser.add_argument("--rate", type=float, default=None, help="without a baseline: every task's success rate")
    parser.add_argument("--tasks", type=int, default=None, help="without a baseline: the number of tasks")
    parser.add_argument("--max-regression", type=float, default=0.05, metavar="D", help="the gate's allowed drop (default 0.05)")
    parser.add_argument("--drop", type=float, action="append", default=None, help="true drops to plan for (default 0.10 0.15 0.20)")
    parser.add_argument("--trials", type=int, nargs="+", default=[1, 2, 4, 8], help="trials per task to compare (default 1 2 4 8)")
    parser.add_argument("--power", type=float, default=TARGET_POWER, help="wanted power (default 0.8)")
    parser.add_argument("--level", type=float, default=0.95, help="the gate's interval level (default 0.95, the gate's)")
    parser.add_argument("--simulate", type=int, default=0, metavar="N", help="also simulate N run pairs per cell")
    args = parser.parse_args(argv)
    if args.baseline is not None:
        if not (args.baseline / "results.jsonl").is_file():
            print(f"pytest-tau plan: {args.baseline}: no results.jsonl there (is it a pytest-tau run directory?)", file=sys.stderr)
            return 4
        tallies = _baseline_tallies(args.baseline, args.domain)
        if not tallies:
            print(f"pytest-tau plan: {args.baseline}: no scored item{' of ' + args.domain if args.domain else ''}", file=sys.stderr)
            return 4
    elif args.rate is not None and args.tasks:
        if not 0.0 < args.rate < 1.0 or args.tasks < 2:
            print("pytest-tau plan: --rate is between 0 and 1 and --tasks at least 2", file=sys.stderr)
            return 4
        # A task of rate r seen over many trials: (c + 1)/(n + 2) gives r back.
        many = 10_000
        tallies = [(many, round(args.rate * (many + 2) - 1))] * args.tasks
    else:
        parser.error("give a baseline RUN_DIR, or --rate and --tasks")
    if not 0 <= args.max_regression < 1 or not 0 < args.power < 1 or any(t < 1 for t in args.trials):
        parser.error("--max-regression in [0, 1), --power in (0, 1), --trials at least 1")
    lines = plan_table(
        tallies, trials=args.trials, drops=args.drop or [0.10, 0.15, 0.20], max_regression=args.max_regression,
        target=args.power, level=args.level, simulate=args.simulate,
    )
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
