"""What one item produced (the results boundary), and the run's roll-up."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator

from ._metrics import pass_hat_k, tally

__all__ = ["DomainSummary", "ItemResult", "ResultsError", "RunSummary", "failure_text", "read_results", "summarize"]

Status = Literal["passed", "failed", "error"]


class UsageRecord(BaseModel):
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    retries: int = 0
    failed_attempts: int = 0

    @field_validator("cost", mode="before")
    @classmethod
    def _known_cost(cls, value: object) -> object:
        # A price nobody knows (a provider's NaN or infinity, written as null by JSON) costs
        # nothing here: a results line must stay readable, and sums finite.
        if value is None or (isinstance(value, float) and not math.isfinite(value)):
            return 0.0
        return value


class ItemResult(BaseModel):
    """One (domain, task, trial): one line of results.jsonl."""

    model_config = ConfigDict(extra="forbid")

    item: str
    domain: str
    task: str
    trial: int
    seed: int
    status: Status
    reward: float | None = None
    reward_parts: dict[str, float] = {}
    end_reason: str
    steps: int = 0
    turns: int = 0
    duration: float = 0.0
    agent_usage: UsageRecord = UsageRecord()
    user_usage: UsageRecord = UsageRecord()
    error: str | None = None
    failure: str | None = None
    nodeid: str | None = None  # the pytest node id (so a resumed run's JUnit names earlier items)
    # --reruns: how many times the item was played; the last attempt is scored (each line keeps its attempt's usage).
    attempts: int = 1

    @property
    def cost(self) -> float:
        return self.agent_usage.cost + self.user_usage.cost


class ResultsError(ValueError):
    """A results line that cannot be read: refused, never skipped (a skipped line would
    silently change what --resume reruns and what a summary, a baseline or a merge counts)."""


def failure_text(reward: float | None, end_reason: str, explanation: str | None) -> str:
    """What a failed item says, the same in the terminal, JUnit (run, resumed or merged) and reports."""
    head = f"reward {0.0 if reward is None else reward:g} (end: {end_reason})"
    if explanation and explanation.startswith("reward "):
        return explanation  # already whole (a test body that failed after the verdict)
    return f"{head}\n{explanation}" if explanation else head


def read_results(path: Path) -> list[ItemResult]:
    """The results of a run directory. Only a last line without its newline (a run killed
    while writing it) is left out: its item has no result and reruns under --resume.
    Any other line that does not read raises `ResultsError`, naming the file and line."""
    if not path.is_file():
        return []
    data = path.read_bytes()
    lines = data.split(b"\n")
    results = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            results.append(ItemResult.model_validate_json(line))
        except ValueError as exc:
            if number == len(lines):  # no newline after it: cut short by a kill
                continue
            reason = str(exc).splitlines()
            detail = "; ".join(part.strip() for part in reason[1:4]) or reason[0]
            raise ResultsError(
                f"{path}:{number}: a results line that cannot be read ({detail}); it was damaged or written "
                "by another version of pytest-tau: repair or delete that line, or start a new --run-dir"
            ) from None
    return results


class DomainSummary(BaseModel):
    tasks: int
    items: int
    passed: int
    failed: int
    errors: int
    pass_hat_k: dict[int, float | None]
    short_tasks: list[str]  # tasks with fewer scored trials than asked


class RunSummary(BaseModel):
    model: str | None = None  # the agent's model that ran (redacted), None for the offline self-check
    user_model: str | None = None
    trials: int
    items: int
    passed: int
    failed: int
    errors: int
    complete: bool
    # Why the run is not complete besides errors: stopped early (-x, --maxfail, Ctrl-C).
    stopped: str | None = None
    # Why the run is not the whole selection of the domains it ran (-k, --deselect, --lf, --sw).
    partial: str | None = None
    pass_hat_k: dict[int, float | None]
    domains: dict[str, DomainSummary]
    agent_usage: UsageRecord
    user_usage: UsageRecord
    cost: float
    # How conversations ended (user_stop, transfer, max_steps, context_overflow, max_tokens, error).
    end_reasons: dict[str, int] = {}
    settings: dict[str, object] = {}
    gate: dict[str, object] | None = None  # thresholds, baseline comparison, intervals (see _gate)


def _domain_summary(results: list[ItemResult], trials: int) -> DomainSummary:
    scored = [r for r in results if r.status != "error"]
    tallies = tally((r.task, r.status == "passed") for r in scored)
    tasks = sorted({r.task for r in results})
    return DomainSummary(
        tasks=len(tasks),
        items=len(results),
        passed=sum(r.status == "passed" for r in results),
        failed=sum(r.status == "failed" for r in results),
        errors=sum(r.status == "error" for r in results),
        pass_hat_k={k: pass_hat_k(tallies, k) for k in range(1, trials + 1)},
        short_tasks=[t for t in tasks if tallies.get(t) is None or tallies[t].n < trials],
    )


def summarize(
    results: Iterable[ItemResult], trials: int, settings: dict[str, object] | None = None, *, stopped: str | None = None
) -> RunSummary:
    """Roll results up into pass^k per domain and overall (overall: the mean over all tasks)."""
    # The last result of an item wins (a resumed or rerun item reports again).
    results = list(results)
    latest: dict[str, ItemResult] = {}
    for result in results:
        latest[result.item] = result
    ordered = [latest[key] for key in sorted(latest)]
    by_domain: dict[str, list[ItemResult]] = defaultdict(list)
    for result in ordered:
        by_domain[result.domain].append(result)
    scored = [r for r in ordered if r.status != "error"]
    overall = tally((f"{r.domain}/{r.task}", r.status == "passed") for r in scored)
    # Usage counts every attempt: the calls of an errored attempt that --resume ran again were paid for too.
    agent, user = UsageRecord(), UsageRecord()
    for result in results:
        for total, part in ((agent, result.agent_usage), (user, result.user_usage)):
            total.calls += part.calls
            total.prompt_tokens += part.prompt_tokens
            total.completion_tokens += part.completion_tokens
            total.cost += part.cost
            total.retries += part.retries
            total.failed_attempts += part.failed_attempts
    errors = sum(r.status == "error" for r in ordered)
    return RunSummary(
        trials=trials,
        items=len(ordered),
        passed=sum(r.status == "passed" for r in ordered),
        failed=sum(r.status == "failed" for r in ordered),
        errors=errors,
        complete=errors == 0 and not stopped,
        stopped=stopped,
        pass_hat_k={k: pass_hat_k(overall, k) for k in range(1, trials + 1)},
        domains={name: _domain_summary(items, trials) for name, items in sorted(by_domain.items())},
        agent_usage=agent,
        user_usage=user,
        cost=round(agent.cost + user.cost, 6),
        end_reasons=dict(sorted(Counter(r.end_reason for r in ordered).items())),
        settings=settings or {},
    )
