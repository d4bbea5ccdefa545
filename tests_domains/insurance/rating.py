"""Harborline Mutual's rating and claims constants, shared by the tools and the generator.

Every figure here is also stated in fixtures/insurance/policy.md.
"""

from __future__ import annotations

from datetime import date

# Auto (6-month term): per-term premium of each vehicle by rating class.
VEHICLE_CLASS_RATE = {
    "economy": 298.0,
    "standard": 352.0,
    "minivan": 336.0,
    "suv": 404.0,
    "truck": 418.0,
    "sports": 655.0,
    "luxury": 612.0,
}
# Auto (6-month term): per-term surcharge of each listed driver by age band (age on the change date);
# the youngest band also rates anyone younger (the policy, not the rater, keeps them off).
DRIVER_AGE_BANDS = [
    (0, 17, 612.0),
    (18, 20, 455.0),
    (21, 24, 238.0),
    (25, 64, 84.0),
    (65, 74, 96.0),
    (75, 130, 188.0),
]
# Auto physical-damage deductibles: allowed values -> per-vehicle, per-term premium.
COLL_DEDUCTIBLE_RATE = {250: 142.0, 500: 96.0, 1000: 58.0, 2000: 31.0}
COMP_DEDUCTIBLE_RATE = {100: 64.0, 250: 48.0, 500: 35.0, 1000: 22.0}
# Home (12-month term): the all-peril deductible (shown on DWELL) -> per-term premium.
HOME_DEDUCTIBLE_RATE = {500: 412.0, 1000: 318.0, 2500: 196.0, 5000: 128.0}

AUTO_BASE_RATE = 186.0
MAX_VEHICLES = 4
MAX_DRIVERS = 5
MIN_DRIVER_AGE = 16

AUTO_LOSS_COVERAGE = {
    "collision": "COLL",
    "theft": "COMP",
    "vandalism": "COMP",
    "glass": "COMP",
    "hail": "COMP",
    "animal_strike": "COMP",
    "fire": "COMP",
    "uninsured_motorist": "UM",
}
HOME_LOSS_COVERAGE = {
    "fire": "DWELL",
    "wind": "DWELL",
    "hail": "DWELL",
    "lightning": "DWELL",
    "water_damage": "DWELL",
    "vandalism": "DWELL",
    "theft": "PERS",
    "water_backup": "WBU",
    "earthquake": "EQ",
    "flood": "FLOOD",
}
POLICE_REPORT_REQUIRED = {"theft", "vandalism"}
DESK_CLAIM_LIMIT = {"auto": 15000.0, "home": 25000.0}
REPORTING_WINDOW_DAYS = {"auto": 30, "home": 60}

SHORT_RATE_PERCENT = 10
SHORT_RATE_MIN = 25.0
SHORT_RATE_MAX = 100.0
FEE_WAIVED_REASONS = {"sold_vehicle", "sold_property", "moved_out_of_area"}


def age_on(dob: str, on: date) -> int:
    born = date.fromisoformat(dob)
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def driver_surcharge(age: int) -> float:
    for low, high, rate in DRIVER_AGE_BANDS:
        if low <= age <= high:
            return rate
    raise ValueError(f"no age band for {age}")


def add_months(day: date, months: int) -> date:
    month = day.month - 1 + months
    year = day.year + month // 12
    month = month % 12 + 1
    last = [31, 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return date(year, month, min(day.day, last[month - 1]))


def prorate(term_change: float, effective: str, expiration: str, on: date) -> float:
    """The share of a full-term premium change that falls in the rest of the term (none after it ends)."""
    start, end = date.fromisoformat(effective), date.fromisoformat(expiration)
    term_days = (end - start).days
    remaining = max(0, (end - on).days)
    return round(term_change * remaining / term_days, 2)
