"""Data invariants: what a domain's DB must satisfy for its story to hold (see DOMAINS.md).

A domain declares them once, beside its tools::

    DOMAIN.invariants(
        not_after_now("shipments", "scans[].at"),
        after_now("pickups", "scheduled_for", where=lambda rec: rec.status == "scheduled"),
        ordered("orders", "placed_at", "shipped_at"),
        cents("invoices", "total"),
        plausible_age("members", "birth_date", at="joined_on", low=18),
    )

    @DOMAIN.invariant
    def balances_follow_history(db: BankDB, now: datetime) -> Iterator[str]:
        for account in db.accounts.values():
            ...
            yield f"{account.id}: balance {account.balance} but its history sums to {total}"

Every invariant is a function ``(db, now) -> iterable of problems`` (one string per record
that breaks it); the helpers here build the common ones from field names. ``validate`` runs
them on the initial DB (``check_data_invariants``), so a generator that drifts fails CI.

Field paths are dotted attribute names; ``name[]`` steps into every item of a list or dict
(``"legs[].departs_at"``). A ``where`` predicate takes the record and limits the invariant
to the records it is true for. Values may be datetimes, dates, ISO strings, numbers or
Decimals; ``None`` (not yet happened, not recorded) is skipped.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

__all__ = [
    "Invariant",
    "after_now",
    "area_codes_valid",
    "cents",
    "consistent",
    "dialable_area_code",
    "dialable_exchange",
    "half_up",
    "money_decimal",
    "no_typos",
    "not_after_now",
    "ordered",
    "plausible_age",
    "run_invariants",
    "task_text_problems",
    "zip_matches_state",
    "zip_state",
]

Where = Callable[[Any], bool]

MAX_PROBLEMS = 8  # per invariant: enough to see the pattern, then a count


@dataclass(frozen=True)
class Invariant:
    """One named invariant: `check(db, now)` yields a problem per record that breaks it."""

    name: str
    check: Callable[[Any, dt.datetime], Iterable[str]]

    def __call__(self, db: Any, now: dt.datetime) -> Iterable[str]:
        return self.check(db, now)


def run_invariants(invariants: Iterable[Invariant], db: Any, now: dt.datetime) -> list[str]:
    """Every problem, prefixed with its invariant's name; long lists cut to a sample and a count."""
    problems = []
    for invariant in invariants:
        try:
            found = list(invariant(db, now))
        except (AttributeError, KeyError) as exc:  # a declaration naming a field or table the DB lacks
            problems.append(f"{invariant.name}: cannot run: {exc} (fix the field or table name in the declaration)")
            continue
        problems += [f"{invariant.name}: {problem}" for problem in found[:MAX_PROBLEMS]]
        if len(found) > MAX_PROBLEMS:
            problems.append(f"{invariant.name}: ... {len(found) - MAX_PROBLEMS} more ({len(found)} records)")
    return problems


# -- reading records ------------------------------------------------------------------


def _records(db: Any, table: str, where: Where | None) -> Iterator[tuple[str, Any]]:
    try:
        rows = getattr(db, table)
    except AttributeError:
        raise AttributeError(f"invariant on table {table!r}: the DB has no such table") from None
    for key, record in rows.items():
        if where is None or where(record):
            yield key, record


def _values(obj: Any, path: str) -> Iterator[Any]:
    """The values at a dotted path; `name[]` fans out over a list's items or a dict's values."""
    head, _, rest = path.partition(".")
    many = head.endswith("[]")
    name = head[:-2] if many else head
    value = obj.get(name) if isinstance(obj, dict) else getattr(obj, name)
    if value is None:
        return
    items = (value.values() if isinstance(value, dict) else value) if many else [value]
    for item in items:
        if rest:
            yield from _values(item, rest)
        elif item is not None:
            yield item


def _moment(value: Any) -> dt.datetime:
    """A comparable datetime: dates are their midnight, strings are ISO, aware times made naive UTC."""
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value.replace("Z", "+00:00")) if "T" in value or " " in value else dt.date.fromisoformat(value)
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).replace(tzinfo=None) if value.tzinfo else value
    if isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time())
    raise TypeError(f"not a date or time: {value!r}")


def _is_date(value: Any) -> bool:
    return (isinstance(value, dt.date) and not isinstance(value, dt.datetime)) or (isinstance(value, str) and len(value) == 10)


def _decimal(value: Any) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value))


# -- time ----------------------------------------------------------------------------


def not_after_now(table: str, field: str, *, where: Where | None = None) -> Invariant:
    """What already happened (a scan, a payment, a request) is dated at or before `now`.
    A date (no time) compares with today."""

    def check(db: Any, now: dt.datetime) -> Iterator[str]:
        for key, record in _records(db, table, where):
            for value in _values(record, field):
                limit = dt.datetime.combine(now.date(), dt.time()) if _is_date(value) else now
                if _moment(value) > limit:
                    yield f"{table}[{key!r}].{field} = {value} is after now ({now:%Y-%m-%d %H:%M})"

    return Invariant(f"{table}.{field} not after now", check)


def after_now(table: str, field: str, *, where: Where | None = None) -> Invariant:
    """What is scheduled (a pickup, a hearing, a pending command) is dated after `now`
    (a date: today or later)."""

    def check(db: Any, now: dt.datetime) -> Iterator[str]:
        for key, record in _records(db, table, where):
            for value in _values(record, field):
                late_enough = _moment(value) >= dt.datetime.combine(now.date(), dt.time()) if _is_date(value) else _moment(value) > now
                if not late_enough:
                    yield f"{table}[{key!r}].{field} = {value} is not after now ({now:%Y-%m-%d %H:%M})"

    return Invariant(f"{table}.{field} after now", check)


def ordered(
    table: str,
    earlier: str,
    later: str,
    *,
    via: tuple[str, str] | None = None,
    strict: bool = False,
    where: Where | None = None,
) -> Invariant:
    """An event comes after what it depends on: `earlier` at or before `later` in each record.

    With `via=(foreign_key, other_table)`, `earlier` is read from the record of
    `other_table` that the record's `foreign_key` names (a payment after its invoice:
    ``ordered("payments", "issued_on", "paid_at", via=("invoice_id", "invoices"))``).
    Every `later` value is compared with every `earlier` one (paths may fan out)."""

    where_from = f"{via[1]}." if via else ""

    def check(db: Any, now: dt.datetime) -> Iterator[str]:
        for key, record in _records(db, table, where):
            source = record
            if via is not None:
                ref = getattr(record, via[0])
                if ref is None:
                    continue
                source = getattr(db, via[1]).get(ref)
                if source is None:
                    yield f"{table}[{key!r}].{via[0]} = {ref!r} names no record of {via[1]}"
                    continue
            firsts = [_moment(value) for value in _values(source, earlier)]
            if not firsts:
                continue
            first = max(firsts)
            for value in _values(record, later):
                moment = _moment(value)
                if moment < first or (strict and moment == first):
                    yield f"{table}[{key!r}].{later} = {value} is before {where_from}{earlier} = {first}"

    return Invariant(f"{table}: {where_from}{earlier} before {later}", check)


def plausible_age(
    table: str,
    birth: str,
    *,
    at: str | None = None,
    low: int = 0,
    high: int = 110,
    where: Where | None = None,
) -> Invariant:
    """A person's age, from the date of birth to `at` (a field of the record, or now), lies
    in [low, high]: nobody joins a co-op before they are born or lives to 150."""

    def check(db: Any, now: dt.datetime) -> Iterator[str]:
        for key, record in _records(db, table, where):
            born_values = list(_values(record, birth))
            if not born_values:
                continue
            born = _moment(born_values[0]).date()
            moments = [_moment(value).date() for value in _values(record, at)] if at else [now.date()]
            for when in moments:
                age = when.year - born.year - ((when.month, when.day) < (born.month, born.day))
                if not low <= age <= high:
                    yield f"{table}[{key!r}]: age {age} at {at or 'now'} ({when}) from {birth} {born}, outside {low}..{high}"

    return Invariant(f"{table}: age from {birth} at {at or 'now'} in {low}..{high}", check)


# -- money ---------------------------------------------------------------------------


def half_up(value: Any, places: str = "0.01") -> Decimal:
    """Round as an invoice does: half a cent goes up (Decimal, never binary floats). A float
    loses its binary noise at nine places first, so 3.25 + 0.45 * 10.3 counts as 7.885."""
    if isinstance(value, float):
        value = round(value, 9)
    return _decimal(value).quantize(Decimal(places), rounding=ROUND_HALF_UP)


def cents(table: str, field: str, *, where: Where | None = None, computed: Callable[[Any, Any], Any] | None = None) -> Invariant:
    """Money holds whole cents. With `computed(record, db)` (the exact, unrounded amount from
    the record's inputs), the stored value is that amount rounded half-up to the cent."""

    def check(db: Any, now: dt.datetime) -> Iterator[str]:
        for key, record in _records(db, table, where):
            for value in _values(record, field):
                amount = _decimal(value)
                if amount != amount.quantize(Decimal("0.01")):
                    yield f"{table}[{key!r}].{field} = {value} is not a whole number of cents"
                elif computed is not None:
                    exact = computed(record, db)
                    if exact is not None and half_up(exact) != amount:
                        yield f"{table}[{key!r}].{field} = {value}, but {_decimal(exact)} rounds half-up to {half_up(exact)}"

    return Invariant(f"{table}.{field} in cents" + (", rounded half-up" if computed else ""), check)


# -- places and names ----------------------------------------------------------------


def consistent(table: str, key: str, *values: str, where: Where | None = None, tables: Iterable[str] = ()) -> Invariant:
    """One `key` always comes with the same `values` across records (and across `tables`,
    which hold the same fields): a ZIP code is in one city, an area code in one state."""
    every = (table, *tables)

    def check(db: Any, now: dt.datetime) -> Iterator[str]:
        seen: dict[Any, tuple[tuple[Any, ...], str]] = {}
        for name in every:
            for rec_key, record in _records(db, name, where):
                keys = list(_values(record, key))
                if not keys:
                    continue
                got = tuple(next(iter(_values(record, field)), None) for field in values)
                first = seen.setdefault(keys[0], (got, f"{name}[{rec_key!r}]"))
                if first[0] != got:
                    yield f"{name}[{rec_key!r}]: {key} {keys[0]!r} with {got}, but {first[1]} has {first[0]}"

    return Invariant(f"{'/'.join(every)}: one {', '.join(values)} per {key}", check)


# The first three digits of a ZIP code by state (USPS sectional centers; a state may own
# several ranges). Territories and military codes are left out: a domain set there says so.
_ZIP3_STATES: tuple[tuple[int, int, str], ...] = (
    (5, 5, "NY"), (10, 27, "MA"), (28, 29, "RI"), (30, 38, "NH"), (39, 49, "ME"), (50, 59, "VT"),
    (60, 69, "CT"), (70, 89, "NJ"), (100, 149, "NY"), (150, 196, "PA"), (197, 199, "DE"),
    (200, 205, "DC"), (206, 219, "MD"), (220, 246, "VA"), (247, 268, "WV"), (270, 289, "NC"),
    (290, 299, "SC"), (300, 319, "GA"), (320, 349, "FL"), (350, 369, "AL"), (370, 385, "TN"),
    (386, 397, "MS"), (398, 399, "GA"), (400, 427, "KY"), (430, 459, "OH"), (460, 479, "IN"),
    (480, 499, "MI"), (500, 528, "IA"), (530, 549, "WI"), (550, 567, "MN"), (569, 569, "DC"),
    (570, 577, "SD"), (580, 588, "ND"), (590, 599, "MT"), (600, 629, "IL"), (630, 658, "MO"),
    (660, 679, "KS"), (680, 693, "NE"), (700, 714, "LA"), (716, 729, "AR"), (730, 749, "OK"),
    (750, 799, "TX"), (800, 816, "CO"), (820, 831, "WY"), (832, 838, "ID"), (840, 847, "UT"),
    (850, 865, "AZ"), (870, 884, "NM"), (885, 885, "TX"), (889, 898, "NV"), (900, 961, "CA"),
    (967, 968, "HI"), (970, 979, "OR"), (980, 994, "WA"), (995, 999, "AK"),
)


def zip_state(zip_code: str) -> str | None:
    """The state a 5-digit ZIP code belongs to, or None when no range has it."""
    digits = zip_code[:5]
    if not (len(digits) == 5 and digits.isdigit()):
        return None
    prefix = int(digits[:3])
    return next((state for low, high, state in _ZIP3_STATES if low <= prefix <= high), None)


def zip_matches_state(table: str, zip_field: str, state_field: str, *, where: Where | None = None) -> Invariant:
    """A ZIP code lies in its address's state (two-letter code) by its first three digits."""

    def check(db: Any, now: dt.datetime) -> Iterator[str]:
        for key, record in _records(db, table, where):
            zips, states = list(_values(record, zip_field)), list(_values(record, state_field))
            for zip_code, state in zip(zips, states, strict=False):
                expected = zip_state(str(zip_code))
                if expected != str(state).upper():
                    yield f"{table}[{key!r}]: ZIP {zip_code} is in {expected or 'no state'}, not {state}"

    return Invariant(f"{table}: {zip_field} in {state_field}", check)


_PHONE_DIGITS = re.compile(r"\D")


def _area_code_problem(phone: str) -> str | None:
    if phone.lstrip().startswith("+") and not phone.lstrip().startswith("+1"):
        return None  # another country's plan
    digits = _PHONE_DIGITS.sub("", phone)
    if len(digits) == 11 and digits[0] == "1":
        digits = digits[1:]
    if len(digits) != 10:
        return "is not a 10-digit North American number"
    area, exchange = digits[:3], digits[3:6]
    if area[0] in "01" or area[1] == "9" or area[1:] == "11" or area in ("555", "950", "958", "959", "976"):
        return f"has area code {area}, which is not in service (NANP)"
    if exchange[0] in "01" or exchange[1:] == "11":
        return f"has exchange {exchange}, which cannot be dialled (NANP)"
    return None


def dialable_area_code(number: int) -> int:
    """The first dialable area code at or after `number` (wrapping within 201..989): how a
    generator keeps its random draw and still writes a number that exists."""
    number = 201 + (number - 201) % 789
    while _area_code_problem(f"{number}2000000"):
        number = 201 if number >= 989 else number + 1
    return number


def dialable_exchange(number: int) -> int:
    """An exchange (the middle three digits) that exists: N11 codes (411, 911) are services, so
    they move to N12, keeping a generator's random draw."""
    return number + 1 if number % 100 == 11 else number


def _each_value(table: str, field: str, where: Where | None, holds: str, problem: Callable[[str], str | None]) -> Invariant:
    """Every value of `table.field`, as text, has no `problem` (which returns None for a right value)."""

    def check(db: Any, now: dt.datetime) -> Iterator[str]:
        for key, record in _records(db, table, where):
            for value in _values(record, field):
                found = problem(str(value))
                if found:
                    yield f"{table}[{key!r}].{field} = {value} {found}"

    return Invariant(f"{table}.{field} {holds}", check)


def area_codes_valid(table: str, field: str, *, where: Where | None = None) -> Invariant:
    """A North American phone number has a dialable area code and exchange (NXX-NXX: no
    leading 0 or 1, no N11, no N9X area codes, which are reserved). Numbers written with
    another country code (+44 ...) are that country's and left alone."""

    return _each_value(table, field, where, "dialable", _area_code_problem)


# A VIN's ninth character is a check digit over the other sixteen (49 CFR 565.15): title,
# registration and lien systems reject a VIN whose check digit does not match.
_VIN_LETTER_VALUES = dict(zip("ABCDEFGHJKLMNPRSTUVWXYZ", (1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 7, 9, 2, 3, 4, 5, 6, 7, 8, 9), strict=True))
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
_VIN_CHARS = set("0123456789ABCDEFGHJKLMNPRSTUVWXYZ")  # never I, O or Q


def vin_check_digit(vin: str) -> str:
    """The check digit (0-9 or X) that the ninth position of this 17-character VIN must hold."""
    total = sum(_VIN_WEIGHTS[i] * (int(c) if c.isdigit() else _VIN_LETTER_VALUES[c]) for i, c in enumerate(vin.upper()))
    return "X" if total % 11 == 10 else str(total % 11)


def with_vin_check_digit(vin: str) -> str:
    """The VIN with its ninth character set to the check digit: how a generator keeps its random
    draw and still writes a VIN that a title office accepts."""
    return vin[:8] + vin_check_digit(vin) + vin[9:]


def _vin_problem(vin: str) -> str | None:
    if len(vin) != 17 or not set(vin) <= _VIN_CHARS:
        return "is not 17 characters of 0-9 and A-Z without I, O and Q"
    if vin[8] != vin_check_digit(vin):
        return f"has check digit {vin[8]}, but its other characters give {vin_check_digit(vin)}"
    return None


def vins_valid(table: str, field: str, *, where: Where | None = None) -> Invariant:
    """Every vehicle identification number is well formed and carries its check digit."""

    return _each_value(table, field, where, "valid VIN", _vin_problem)


_TYPOS = re.compile(r"(?<!\.)\.\.(?!\.)|,,|  |\s(?:[,;:]|\.(?!\.\.|\d))|\s$|^\s")


def no_typos(table: str, *fields: str, where: Where | None = None) -> Invariant:
    """Names and addresses read cleanly: no doubled periods ("Inc.."), doubled commas or
    spaces, a space before punctuation, or leading/trailing blanks."""

    def check(db: Any, now: dt.datetime) -> Iterator[str]:
        for key, record in _records(db, table, where):
            for field in fields:
                for value in _values(record, field):
                    if isinstance(value, str) and _TYPOS.search(value):
                        yield f"{table}[{key!r}].{field} = {value!r} has a typo"

    return Invariant(f"{table}: {', '.join(fields)} typo-free", check)


def task_text_problems(tasks: Iterable[Any]) -> list[str]:
    """What the customer reads and says is typed cleanly too: no "Inc.." where a sentence ends on an
    abbreviation, no doubled spaces or commas (every domain, no declaration needed)."""
    problems = []
    for task in tasks:
        for where, text in [("instructions", task.user.instructions), *((f"script[{i}]", line) for i, line in enumerate(task.user.script))]:
            match = _TYPOS.search(text)
            if match:
                start = max(0, match.start() - 30)
                problems.append(f"task {task.id}: {where} has a typo: ...{text[start:match.end() + 10]!r}")
    return problems


def money_decimal(value: Any) -> Decimal:
    """A stored amount as a Decimal, for plain invariants that sum money (exact, no float drift)."""
    try:
        return _decimal(value)
    except InvalidOperation:
        raise ValueError(f"not an amount: {value!r}") from None
