"""The lender's arithmetic, shared by the generator and the tools: dates, amortization and
daily interest. Deterministic and rounded to cents. No policy rule lives here: who may defer,
pay or waive is the agent's to decide under the policy."""

from __future__ import annotations

import datetime as dt


def d(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


def add_months(day: dt.date, months: int) -> dt.date:
    month = day.month - 1 + months
    year = day.year + month // 12
    month = month % 12 + 1
    # the lender never schedules a due day after the 28th
    return dt.date(year, month, min(day.day, 28))


def months_between(first: dt.date, last: dt.date) -> int:
    """Number of monthly due dates from first to last inclusive (same day of month)."""
    return (last.year - first.year) * 12 + (last.month - first.month) + 1


def amortized_payment(principal: float, apr: float, n: int) -> float:
    if n <= 0:
        return round(principal, 2)
    r = apr / 100 / 12
    if r == 0:
        return round(principal / n, 2)
    return round(principal * r / (1 - (1 + r) ** -n), 2)


def daily_interest(principal: float, apr: float, days: int) -> float:
    return round(principal * apr / 100 / 365 * max(days, 0), 2)


def monthly_interest(principal: float, apr: float) -> float:
    return round(principal * apr / 100 / 12, 2)


def band_for(score: int) -> str | None:
    """The credit band of the lender's rate sheet for a score (the automated decision uses it)."""
    if score >= 740:
        return "A"
    if score >= 680:
        return "B"
    if score >= 620:
        return "C"
    if score >= 580:
        return "D"
    return None
