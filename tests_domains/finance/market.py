"""The firm's trading calendar: weekends and US market holidays are not business days.

Shared by the generator and the tools, so history and settlement dates follow one calendar.
"""

from __future__ import annotations

from datetime import date, timedelta

HOLIDAYS = frozenset(
    date.fromisoformat(d)
    for d in (
        "2025-01-01", "2025-01-20", "2025-02-17", "2025-04-18", "2025-05-26", "2025-06-19", "2025-07-04",
        "2025-09-01", "2025-11-27", "2025-12-25", "2026-01-01", "2026-01-19", "2026-02-16", "2026-04-03",
        "2026-05-25", "2026-06-19", "2026-07-03", "2026-09-07", "2026-11-26", "2026-12-25", "2027-01-01",
    )
)


def is_business_day(day: date) -> bool:
    return day.weekday() < 5 and day not in HOLIDAYS


def next_business_day(day: date) -> date:
    """`day` itself when it is a business day, else the first business day after it."""
    while not is_business_day(day):
        day += timedelta(days=1)
    return day


def add_business_days(day: date, count: int) -> date:
    """The business day `count` business days after `day` (0: `day`, rolled forward if needed)."""
    day = next_business_day(day)
    for _ in range(count):
        day = next_business_day(day + timedelta(days=1))
    return day


def business_days(start: date, end: date) -> list[date]:
    """Every business day from start to end, both included."""
    days = []
    day = start
    while day <= end:
        if is_business_day(day):
            days.append(day)
        day += timedelta(days=1)
    return days


# The IRS's yearly limit on a person's IRA contributions, traditional and Roth together: under 50, and 50 or
# older by the year's end (with the catch-up contribution).
IRA_LIMITS = {2025: (7000.0, 8000.0), 2026: (7500.0, 8600.0)}


# -- the risk questionnaire: six questions, answers a-d worth 1-4 points ----------------------
QUESTION_COUNT = 6
PROFILE_BANDS = ((10, "conservative"), (15, "moderate"), (20, "growth"), (24, "aggressive"))


def questionnaire_score(answers: list[str]) -> int:
    return sum("abcd".index(a) + 1 for a in answers)


def profile_for(score: int) -> str:
    return next(profile for top, profile in PROFILE_BANDS if score <= top)


# -- cost basis: tax lots, first in, first out --------------------------------------------
# A lot is (acquired YYYY-MM-DD, shares, cost in dollars with the purchase commission). The IRS
# allows average cost only for fund shares; FIFO is the default for everything, so the firm uses it.
Lot = tuple[str, int, float]


def add_lot(lots: list[Lot], acquired: str, quantity: int, cost: float) -> list[Lot]:
    """The lots after a purchase; buys on the same day make one lot (so their order does not matter)."""
    if lots and lots[-1][0] == acquired:
        return [*lots[:-1], (acquired, lots[-1][1] + quantity, round(lots[-1][2] + cost, 2))]
    return [*lots, (acquired, quantity, round(cost, 2))]


def sell_lots(lots: list[Lot], quantity: int) -> tuple[float, list[Lot]]:
    """The cost of `quantity` shares taken from the oldest lots first, and the lots left."""
    cost, left, rest = 0.0, quantity, []
    for acquired, shares, lot_cost in lots:
        if left >= shares:
            cost, left = cost + lot_cost, left - shares
            continue
        if left:
            part = round(lot_cost * left / shares, 2)
            cost, shares, lot_cost, left = cost + part, shares - left, round(lot_cost - part, 2), 0
        rest.append((acquired, shares, lot_cost))
    return round(cost, 2), rest
