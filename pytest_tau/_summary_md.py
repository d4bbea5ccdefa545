"""A Markdown summary of the run for `$GITHUB_STEP_SUMMARY` (GitHub Actions shows it on the run page)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ._redact import redact

if TYPE_CHECKING:
    from ._gate import GateReport
    from ._results import ItemResult, RunSummary

__all__ = ["markdown"]


def _cell(value: float | None, interval: tuple[float, float] | None) -> str:
    if value is None:
        return "nan"
    return f"{value:.3f}" + (f" [{interval[0]:.2f}, {interval[1]:.2f}]" if interval else "")


def markdown(summary: RunSummary, gate: GateReport, results: Sequence[ItemResult], worst: int = 5) -> str:
    ks = list(range(1, summary.trials + 1))
    lines = [f"## pytest-tau: {redact(summary.model or 'offline self-check')}", ""]
    status = "complete" if summary.complete else f"**INCOMPLETE** ({summary.errors} errors{', ' + summary.stopped if summary.stopped else ''})"
    lines.append(f"{summary.items} items, {summary.passed} passed, {summary.failed} failed, {status}; cost ${summary.cost:.4f}")
    lines += ["", "| domain | tasks | " + " | ".join(f"pass^{k} [95% CI]" for k in ks) + " |", "|---|---:|" + "---:|" * len(ks)]
    for name, domain in summary.domains.items():
        cells = " | ".join(_cell(domain.pass_hat_k[k], gate.intervals.get(name, {}).get(k)) for k in ks)
        lines.append(f"| {name} | {domain.tasks} | {cells} |")
    total = sum(d.tasks for d in summary.domains.values())
    cells = " | ".join(_cell(summary.pass_hat_k[k], gate.intervals.get("overall", {}).get(k)) for k in ks)
    lines.append(f"| **overall** | {total} | {cells} |")
    if gate.comparisons:
        lines += ["", f"Against the baseline `{gate.baseline}` (paired over tasks, bootstrap 95% CI):", ""]
        lines += ["| k | tasks | delta | 95% CI | regressed |", "|---:|---:|---:|---|---|"]
        for c in gate.comparisons:
            lines.append(f"| {c.k} | {c.tasks} | {c.delta:+.3f} | [{c.interval[0]:+.3f}, {c.interval[1]:+.3f}] | {'**yes**' if c.regressed else 'no'} |")
    latest = {r.item: r for r in results}
    ends = Counter(r.end_reason for r in latest.values())
    lines += ["", "End reasons: " + ", ".join(f"{reason} {count}" for reason, count in sorted(ends.items()))]
    per_task: dict[str, list[int]] = {}
    for r in latest.values():
        if r.status != "error":
            entry = per_task.setdefault(f"{r.domain}/{r.task}", [0, 0])
            entry[0] += 1
            entry[1] += r.status == "passed"
    failing = sorted((c / n, task, c, n) for task, (n, c) in per_task.items() if c < n)[:worst]
    if failing:
        lines += ["", "Worst tasks:", ""] + [f"- `{task}`: {c}/{n} trials passed" for _, task, c, n in failing]
    if gate.detectable_drop is not None:
        lines += ["", f"Power: this comparison catches a true drop of pass^1 of {gate.detectable_drop:.3f} or more with power 0.8."]
    if summary.partial:
        lines += ["", f"**Partial run**: {redact(summary.partial)}"]
    incomplete = summary.errors or summary.stopped
    if gate.failures and not incomplete:
        lines += ["", "**Gate failed** (exit 7):", ""] + [f"- {redact(f)}" for f in gate.failures]
    elif gate.failures:
        lines += ["", "**Gate failed**, and the run is incomplete (exit 6: finish it with `--resume` first):", ""]
        lines += [f"- {redact(f)}" for f in gate.failures]
    elif gate.configured and incomplete:
        lines += ["", "**Gate not judged**: the run is incomplete (exit 6)."]
    elif gate.configured:
        lines += ["", "Gate passed."]
    return "\n".join(lines) + "\n"
