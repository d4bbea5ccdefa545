"""Ironleaf Fitness, the member desk of a gym chain: memberships (freezes, home-club transfers,
cancellation notice), class bookings and waitlists, personal-training packages, guest passes,
progress records and the member's account. The policy fixes the current time: Monday
2026-03-16 09:00.

The tools refuse only what the data makes impossible (no such record, not this member's, no
session or guest pass left, a class already started). The policy's rules (who may freeze, how
far ahead to book, which club a plan reaches, refund windows) are the agent's to apply. Every
fee, penalty, refund and date the member must hear is computed by a quote tool.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, ToolError
from pytest_tau.invariants import Invariant, area_codes_valid, cents, not_after_now, ordered, plausible_age
from tests_domains.fitness.schema import (
    Booking,
    Charge,
    ClassSession,
    FitnessDB,
    Freeze,
    GuestPass,
    Measure,
    Member,
    PTPackage,
    PTSession,
)

DOMAIN = Domain("fitness", FitnessDB, now=datetime(2026, 3, 16, 9, 0))

# The price schedule (what the tools compute, never what they refuse).
FREEZE_FEE_PER_MONTH = 17.5
NOTICE_DAYS = 30
EARLY_TERMINATION_SHARE = 0.5  # of the monthly fee, per month left in the minimum term
TRANSFER_FEE = 35.0  # home-club plans only
LATE_CANCEL_FEE = 9.5  # booked place cancelled less than LATE_HOURS before the class; waived on Prestige
LATE_HOURS = 8
PT_DISCOUNT = {5: 0.0, 10: 0.10, 20: 0.15}
PT_VALID_DAYS = {5: 90, 10: 180, 20: 365}
PT_REFUND_ADMIN_FEE = 25.0

MemberId = Annotated[str, Field(description="the member's number, e.g. 'IL-482913' (from find_member)")]
ClassId = Annotated[str, Field(description="a class id, e.g. 'CL-ELM-0318-1800' (from search_classes)")]
BookingId = Annotated[str, Field(description="a class booking id (from list_bookings)")]
ClubId = Annotated[str, Field(description="a club id, e.g. 'ELM' (from find_clubs)")]
PackageId = Annotated[str, Field(description="a personal-training package id, e.g. 'PT-40213' (from list_pt_packages)")]
IsoDate = Annotated[str, Field(description="a date as YYYY-MM-DD")]
Months = Annotated[int, Field(description="length of the freeze in whole months", ge=1, le=12)]
Sessions = Literal[5, 10, 20]


# -- helpers ----------------------------------------------------------------------------------------
def _money(value: float) -> float:
    return round(value + 0.0, 2)


def _today() -> date:
    return DOMAIN.today


def _stamp() -> str:
    return DOMAIN.now.strftime("%Y-%m-%dT%H:%M")


def _date(value: str, what: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise ToolError(f"{what} {value[:40]!r} is not a date in the form YYYY-MM-DD") from None


def _time(value: str) -> str:
    text = value.strip()
    try:
        return datetime.strptime(text, "%H:%M").strftime("%H:%M")
    except ValueError:
        raise ToolError(f"{value[:20]!r} is not a time in the form HH:MM (24-hour)") from None


def _add_months(day: date, months: int) -> date:
    y, m = divmod(day.month - 1 + months, 12)
    last = (date(day.year + y + (m + 1) // 12, (m + 1) % 12 + 1, 1) - timedelta(days=1)).day
    return date(day.year + y, m + 1, min(day.day, last))


def _member(db: FitnessDB, member_id: str) -> Member:
    return db.members.require(member_id)


def _open(member: Member) -> None:
    if member.status == "cancelled":
        raise ToolError(f"membership {member.member_id} ended on {member.membership_ends_on}")


def _charge(db: FitnessDB, member: Member, kind: Any, amount: float, reference: str, status: Any = "due") -> Charge:
    key = db.charges.new_key("CH-", member.member_id, kind, reference)
    db.charges[key] = Charge(charge_id=key, member_id=member.member_id, kind=kind, amount=_money(amount),
                             date=_today().isoformat(), status=status, reference=reference)
    return db.charges[key]


def _start(c: ClassSession) -> datetime:
    return datetime.fromisoformat(f"{c.date}T{c.start_time}")


def _booked(db: FitnessDB, class_id: str) -> int:
    return sum(1 for b in db.bookings.where(class_id=class_id) if b.status == "booked")


def _waiting(db: FitnessDB, class_id: str) -> list[Booking]:
    # served in (booked_at, booking_id) order, worked out when asked: two places taken in one call share
    # a time and their ids come from their content, so no order of writes changes a position
    return sorted((b for b in db.bookings.where(class_id=class_id) if b.status == "waitlisted"),
                  key=lambda b: (b.booked_at, b.booking_id))


def _position(db: FitnessDB, booking: Booking) -> int | None:
    if booking.status != "waitlisted":
        return None
    return 1 + [b.booking_id for b in _waiting(db, booking.class_id)].index(booking.booking_id)


def _class_view(db: FitnessDB, c: ClassSession) -> dict[str, Any]:
    view: dict[str, Any] = c.model_dump(mode="json")
    view["weekday"] = date.fromisoformat(c.date).strftime("%A")
    view["places_left"] = max(0, c.capacity - _booked(db, c.class_id))
    view["waitlist_length"] = len(_waiting(db, c.class_id))
    return view


def _booking_view(db: FitnessDB, b: Booking) -> dict[str, Any]:
    c = db.classes.require(b.class_id)
    view: dict[str, Any] = b.model_dump(mode="json")
    view.update(class_type=c.class_type, club_id=c.club_id, date=c.date, start_time=c.start_time, instructor=c.instructor,
                waitlist_position=_position(db, b))
    return view


def _freezes_in_last_year(member: Member) -> int:
    since = (_today() - timedelta(days=365)).isoformat()
    return sum(1 for f in member.freezes if f.kind == "standard" and f.start_date >= since)


def _member_view(db: FitnessDB, m: Member) -> dict[str, Any]:
    plan = db.plans.require(m.plan_code)
    club = db.clubs.require(m.home_club)
    view: dict[str, Any] = m.model_dump(mode="json")
    view["plan"] = plan.model_dump(mode="json")
    view["home_club_name"] = club.name
    view["standard_freezes_started_in_last_12_months"] = _freezes_in_last_year(m)
    view["balance_due"] = _money(sum(c.amount for c in db.charges.where(member_id=m.member_id) if c.status == "due"))
    return view


def _package(db: FitnessDB, package_id: str) -> PTPackage:
    return db.pt_packages.require(package_id)


def _package_view(db: FitnessDB, p: PTPackage) -> dict[str, Any]:
    trainer = db.trainers.require(p.trainer_id)
    view: dict[str, Any] = p.model_dump(mode="json")
    view["trainer_name"] = f"{trainer.first_name} {trainer.last_name}"
    view["sessions_left"] = p.sessions_total - p.sessions_used
    view["sessions"] = [s.model_dump(mode="json") for s in sorted(db.pt_sessions.where(package_id=p.package_id),
                                                                 key=lambda s: (s.date, s.start_time))]
    return view


# -- members -------------------------------------------------------------------------------------------
@DOMAIN.tool(authenticates=True)
def find_member(
    db: FitnessDB,
    email: Annotated[str, Field(description="the email address on the membership")],
    first_name: str,
    last_name: str,
    date_of_birth: Annotated[str, Field(description="the caller's date of birth, YYYY-MM-DD")],
) -> dict[str, Any]:
    """Verify a caller: the member whose email, full name and date of birth all match. Returns the
    member's profile, plan, home club, freeze history and balance due."""
    for m in db.members.find(email=email):
        if (m.first_name.lower() == first_name.strip().lower() and m.last_name.lower() == last_name.strip().lower()
                and m.date_of_birth == date_of_birth.strip()):
            return _member_view(db, m)
    raise ToolError("no member matches that email, name and date of birth; the caller is not verified")


@DOMAIN.tool
def get_member(db: FitnessDB, member_id: MemberId) -> dict[str, Any]:
    """Return a member's profile: plan (fee, access, guest passes, minimum term), status, home club,
    next billing date, minimum-term end, freeze history, notice given, and balance due."""
    return _member_view(db, _member(db, member_id))


@DOMAIN.tool
def list_plans(db: FitnessDB) -> list[dict[str, Any]]:
    """List the membership plans: monthly fee, which clubs they reach, off-peak limits, guest passes
    per month and minimum term."""
    return [p.model_dump(mode="json") for p in sorted(db.plans.values(), key=lambda p: p.monthly_fee)]


@DOMAIN.tool
def find_clubs(
    db: FitnessDB,
    city: Annotated[str | None, Field(description="a city, e.g. 'Seattle'")] = None,
    name: Annotated[str | None, Field(description="part of the club's name, e.g. 'Riverside'")] = None,
) -> list[dict[str, Any]]:
    """Find clubs by city or name: id, name, address, phone, opening hours, whether it is a flagship club."""
    out = []
    for c in sorted(db.clubs.values(), key=lambda c: c.club_id):
        if city and city.strip().lower() != c.city.lower():
            continue
        if name and " ".join(name.split()).lower() not in c.name.lower():
            continue
        out.append({k: v for k, v in c.model_dump(mode="json").items() if k != "timetable"})
    return out


@DOMAIN.tool
def get_club_timetable(db: FitnessDB, club_id: ClubId) -> dict[str, Any]:
    """Return a club's details and its weekly class timetable (weekday, start time, class, studio, length)."""
    return db.clubs.require(club_id).model_dump(mode="json")


# -- classes -----------------------------------------------------------------------------------------------
@DOMAIN.tool
def search_classes(
    db: FitnessDB,
    club_id: ClubId,
    on_date: Annotated[str, Field(description="the day, YYYY-MM-DD")],
    class_type: Annotated[str | None, Field(description="part of the class name, e.g. 'spin'")] = None,
) -> list[dict[str, Any]]:
    """List the classes at a club on one day, with instructor, places left and waitlist length."""
    club = db.clubs.require(club_id)
    day = _date(on_date, "date").isoformat()
    out = []
    for c in sorted(db.classes.where(club_id=club.club_id), key=lambda c: (c.date, c.start_time)):
        if c.date != day or (class_type and class_type.strip().lower() not in c.class_type.lower()):
            continue
        out.append(_class_view(db, c))
    return out


@DOMAIN.tool
def list_bookings(
    db: FitnessDB,
    member_id: MemberId,
    upcoming_only: Annotated[bool, Field(description="only classes that have not started yet")] = True,
) -> list[dict[str, Any]]:
    """List a member's class bookings (booked, waitlisted with their current position, cancelled,
    attended), soonest first."""
    m = _member(db, member_id)
    out = []
    for b in db.bookings.where(member_id=m.member_id):
        c = db.classes.require(b.class_id)
        if upcoming_only and _start(c) <= DOMAIN.now:
            continue
        out.append(_booking_view(db, b))
    return sorted(out, key=lambda v: (v["date"], v["start_time"], v["booking_id"]))


@DOMAIN.tool(write=True)
def book_class(db: FitnessDB, member_id: MemberId, class_id: ClassId) -> dict[str, Any]:
    """Book a member into a class. If no place is left the member joins the class's waitlist; the
    result gives the status and, on the waitlist, the position."""
    m = _member(db, member_id)
    _open(m)
    c = db.classes.require(class_id)
    if c.status == "cancelled":
        raise ToolError(f"class {c.class_id} is cancelled")
    if _start(c) <= DOMAIN.now:
        raise ToolError(f"class {c.class_id} has already started")
    for b in db.bookings.where(member_id=m.member_id, class_id=c.class_id):
        if b.status in ("booked", "waitlisted"):
            raise ToolError(f"member {m.member_id} already holds booking {b.booking_id} for this class ({b.status})")
    status: Literal["booked", "waitlisted"] = "booked" if _booked(db, c.class_id) < c.capacity else "waitlisted"
    key = f"BK-{c.class_id[3:]}-{m.member_id[3:]}"
    if key in db.bookings:
        key = db.bookings.new_key("BK-", c.class_id, m.member_id)
    db.bookings[key] = Booking(booking_id=key, member_id=m.member_id, class_id=c.class_id, status=status, booked_at=_stamp())
    return _booking_view(db, db.bookings[key])


@DOMAIN.tool
def quote_booking_cancellation(db: FitnessDB, booking_id: BookingId) -> dict[str, Any]:
    """Preview cancelling a class booking (nothing changes): hours until the class and the
    late-cancellation fee that cancelling now would charge."""
    b = db.bookings.require(booking_id)
    c = db.classes.require(b.class_id)
    if b.status not in ("booked", "waitlisted"):
        raise ToolError(f"booking {b.booking_id} is {b.status}")
    if _start(c) <= DOMAIN.now:
        raise ToolError(f"class {c.class_id} has already started")
    hours = (_start(c) - DOMAIN.now).total_seconds() / 3600
    plan = db.plans.require(_member(db, b.member_id).plan_code)
    late = b.status == "booked" and hours < LATE_HOURS
    fee = 0.0 if not late or plan.plan_code == "PRESTIGE" else LATE_CANCEL_FEE
    return {"booking_id": b.booking_id, "status": b.status, "class_start": f"{c.date} {c.start_time}",
            "hours_before_class": round(hours, 2), "late_cancellation": late, "late_cancellation_fee": fee}


@DOMAIN.tool(write=True)
def cancel_booking(db: FitnessDB, booking_id: BookingId) -> dict[str, Any]:
    """Cancel a class booking or leave a waitlist. A booked place cancelled late is charged the
    late-cancellation fee shown by quote_booking_cancellation."""
    quote = quote_booking_cancellation(db, booking_id)
    b = db.bookings.require(booking_id)
    b.status = "late_cancelled" if quote["late_cancellation"] else "cancelled"
    b.cancelled_at = _stamp()
    b.penalty = quote["late_cancellation_fee"]
    db.bookings[b.booking_id] = b
    if b.penalty:
        _charge(db, _member(db, b.member_id), "late_cancel", b.penalty, b.booking_id)
    return {**_booking_view(db, b), "fee_charged": b.penalty}


# -- membership: freeze, club transfer, cancellation ---------------------------------------------------------
def _freeze_terms(db: FitnessDB, m: Member, start_date: str, months: int) -> dict[str, Any]:
    start = _date(start_date, "start date")
    if start < _today():
        raise ToolError("a freeze cannot start in the past")
    if start.year > 2100:
        raise ToolError(f"start date {start.isoformat()} is out of range")
    end = _add_months(start, months) - timedelta(days=1)
    for f in m.freezes:
        if not (end.isoformat() < f.start_date or start.isoformat() > f.end_date):
            raise ToolError(f"member {m.member_id} already has a freeze from {f.start_date} to {f.end_date}")
    days = (end - start).days + 1
    commitment = None
    if m.commitment_end:
        commitment = (date.fromisoformat(m.commitment_end) + timedelta(days=days)).isoformat()
    billing = m.next_billing_date
    if billing and start.isoformat() <= billing <= end.isoformat():
        billing = (end + timedelta(days=1)).isoformat()
    return {"member_id": m.member_id, "start_date": start.isoformat(), "end_date": end.isoformat(), "months": months,
            "frozen_days": days, "freeze_fee": _money(FREEZE_FEE_PER_MONTH * months), "next_billing_date_after": billing,
            "commitment_end_after": commitment,
            "standard_freezes_started_in_last_12_months": _freezes_in_last_year(m)}


@DOMAIN.tool
def quote_freeze(db: FitnessDB, member_id: MemberId, start_date: IsoDate, months: Months) -> dict[str, Any]:
    """Preview a standard membership freeze (nothing changes): its last day, the freeze fee, the next
    billing date and minimum-term end afterwards, and how many standard freezes started in the last
    12 months."""
    m = _member(db, member_id)
    _open(m)
    return _freeze_terms(db, m, start_date, months)


@DOMAIN.tool(write=True)
def freeze_membership(db: FitnessDB, member_id: MemberId, start_date: IsoDate, months: Months) -> dict[str, Any]:
    """Freeze a membership from start_date for whole months (standard freeze, fee charged now), as
    quoted by quote_freeze."""
    m = _member(db, member_id)
    _open(m)
    terms = _freeze_terms(db, m, start_date, months)
    m.freezes = [*m.freezes, Freeze(start_date=terms["start_date"], end_date=terms["end_date"], months=months,
                                    fee=terms["freeze_fee"], kind="standard")]
    m.next_billing_date = terms["next_billing_date_after"]
    m.commitment_end = terms["commitment_end_after"]
    if terms["start_date"] == _today().isoformat():
        m.status = "frozen"
    db.members[m.member_id] = m
    _charge(db, m, "freeze_fee", terms["freeze_fee"], f"freeze {terms['start_date']}", status="paid")
    return terms


def _transfer_terms(db: FitnessDB, m: Member, club_id: str) -> dict[str, Any]:
    club = db.clubs.require(club_id)
    if club.club_id == m.home_club:
        raise ToolError(f"{club.name} is already the member's home club")
    plan = db.plans.require(m.plan_code)
    return {"member_id": m.member_id, "from_club": m.home_club, "to_club": club.club_id, "to_club_name": club.name,
            "to_club_flagship": club.flagship, "plan_code": plan.plan_code,
            "transfer_fee": 0.0 if plan.access == "all_clubs" else TRANSFER_FEE, "last_club_transfer": m.last_club_transfer}


@DOMAIN.tool
def quote_club_transfer(db: FitnessDB, member_id: MemberId, club_id: ClubId) -> dict[str, Any]:
    """Preview moving a member's home club (nothing changes): the transfer fee and the member's last transfer date."""
    m = _member(db, member_id)
    _open(m)
    return _transfer_terms(db, m, club_id)


@DOMAIN.tool(write=True)
def transfer_home_club(db: FitnessDB, member_id: MemberId, club_id: ClubId) -> dict[str, Any]:
    """Move a member's home club, effective today; the transfer fee (if any) is charged."""
    m = _member(db, member_id)
    _open(m)
    terms = _transfer_terms(db, m, club_id)
    m.home_club = terms["to_club"]
    m.last_club_transfer = _today().isoformat()
    db.members[m.member_id] = m
    if terms["transfer_fee"]:
        _charge(db, m, "transfer_fee", terms["transfer_fee"], f"transfer to {terms['to_club']}")
    return terms


def _cancel_terms(db: FitnessDB, m: Member) -> dict[str, Any]:
    if m.membership_ends_on:
        raise ToolError(f"notice was already given on {m.cancellation_requested_on}; the membership ends on {m.membership_ends_on}")
    plan = db.plans.require(m.plan_code)
    ends = _today() + timedelta(days=NOTICE_DAYS)
    months_left = 0
    if m.commitment_end and m.commitment_end > ends.isoformat():
        ce = date.fromisoformat(m.commitment_end)
        months_left = (ce.year - ends.year) * 12 + ce.month - ends.month + (1 if ce.day > ends.day else 0)
    return {"member_id": m.member_id, "notice_given_on": _today().isoformat(), "membership_ends_on": ends.isoformat(),
            "commitment_end": m.commitment_end, "months_left_in_minimum_term": months_left,
            "early_termination_fee": _money(months_left * plan.monthly_fee * EARLY_TERMINATION_SHARE)}


@DOMAIN.tool
def quote_cancellation(db: FitnessDB, member_id: MemberId) -> dict[str, Any]:
    """Preview giving notice to cancel (nothing changes): the last day of the membership and any
    early-termination fee for leaving inside the minimum term."""
    m = _member(db, member_id)
    _open(m)
    return _cancel_terms(db, m)


@DOMAIN.tool(write=True)
def cancel_membership(db: FitnessDB, member_id: MemberId) -> dict[str, Any]:
    """Give notice to cancel a membership, as quoted by quote_cancellation: the end date is recorded
    and any early-termination fee charged."""
    m = _member(db, member_id)
    _open(m)
    terms = _cancel_terms(db, m)
    m.cancellation_requested_on = terms["notice_given_on"]
    m.membership_ends_on = terms["membership_ends_on"]
    db.members[m.member_id] = m
    if terms["early_termination_fee"]:
        _charge(db, m, "early_termination", terms["early_termination_fee"], "notice " + terms["notice_given_on"])
    return terms


# -- personal training -----------------------------------------------------------------------------------------
@DOMAIN.tool
def list_trainers(db: FitnessDB, club_id: ClubId) -> list[dict[str, Any]]:
    """List the personal trainers at a club: level, price of one session, specialties."""
    club = db.clubs.require(club_id)
    return [t.model_dump(mode="json") for t in sorted(db.trainers.where(club_id=club.club_id), key=lambda t: t.trainer_id)]


@DOMAIN.tool
def list_pt_packages(db: FitnessDB, member_id: MemberId) -> list[dict[str, Any]]:
    """List a member's personal-training packages: trainer, sessions left, price paid, purchase and
    expiry dates, status, and their sessions."""
    m = _member(db, member_id)
    return [_package_view(db, p) for p in sorted(db.pt_packages.where(member_id=m.member_id), key=lambda p: p.purchased_on)]


def _pt_terms(db: FitnessDB, trainer_id: str, sessions: int) -> dict[str, Any]:
    trainer = db.trainers.require(trainer_id)
    full = trainer.session_rate * sessions
    price = _money(full * (1 - PT_DISCOUNT[sessions]))
    return {"trainer_id": trainer.trainer_id, "trainer_name": f"{trainer.first_name} {trainer.last_name}",
            "trainer_club": trainer.club_id, "sessions": sessions, "session_rate": trainer.session_rate,
            "package_price": price, "expires_on": (_today() + timedelta(days=PT_VALID_DAYS[sessions])).isoformat()}


@DOMAIN.tool
def quote_pt_package(
    db: FitnessDB, trainer_id: Annotated[str, Field(description="a trainer id, e.g. 'TR-ELM2'")], sessions: Sessions
) -> dict[str, Any]:
    """Preview a personal-training package (nothing changes): its price and expiry date."""
    return _pt_terms(db, trainer_id, sessions)


@DOMAIN.tool(write=True)
def buy_pt_package(
    db: FitnessDB, member_id: MemberId, trainer_id: Annotated[str, Field(description="a trainer id, e.g. 'TR-ELM2'")],
    sessions: Sessions,
) -> dict[str, Any]:
    """Sell a member a personal-training package with a trainer, charged now at the quoted price."""
    m = _member(db, member_id)
    _open(m)
    terms = _pt_terms(db, trainer_id, sessions)
    key = db.pt_packages.new_key("PT-", m.member_id, terms["trainer_id"], sessions, length=6)
    db.pt_packages[key] = PTPackage(package_id=key, member_id=m.member_id, trainer_id=terms["trainer_id"], sessions_total=sessions,
                                    sessions_used=0, price_paid=terms["package_price"], purchased_on=_today().isoformat(),
                                    expires_on=terms["expires_on"], status="active")
    _charge(db, m, "pt_package", terms["package_price"], key, status="paid")
    return _package_view(db, db.pt_packages[key])


@DOMAIN.tool(write=True)
def book_pt_session(
    db: FitnessDB, package_id: PackageId, on_date: IsoDate,
    start_time: Annotated[str, Field(description="start time, HH:MM (24-hour); sessions last 60 minutes")],
) -> dict[str, Any]:
    """Book a 60-minute session with the package's trainer; it uses one session of the package."""
    p = _package(db, package_id)
    if p.status != "active":
        raise ToolError(f"package {p.package_id} is {p.status}")
    if p.sessions_used >= p.sessions_total:
        raise ToolError(f"package {p.package_id} has no sessions left")
    day, at = _date(on_date, "date"), _time(start_time)
    if datetime.fromisoformat(f"{day.isoformat()}T{at}") <= DOMAIN.now:
        raise ToolError("that time has already passed")
    if day.isoformat() > p.expires_on:
        raise ToolError(f"package {p.package_id} expires on {p.expires_on}")
    for other in db.pt_packages.where(trainer_id=p.trainer_id):
        for s in db.pt_sessions.where(package_id=other.package_id):
            if s.status == "scheduled" and s.date == day.isoformat() and s.start_time == at:
                raise ToolError("the trainer already has a session at that time")
    key = db.pt_sessions.new_key("PTS-", p.package_id, day.isoformat(), at)
    db.pt_sessions[key] = PTSession(pt_session_id=key, package_id=p.package_id, date=day.isoformat(), start_time=at, status="scheduled")
    p.sessions_used += 1
    db.pt_packages[p.package_id] = p
    return {"pt_session_id": key, "package_id": p.package_id, "date": day.isoformat(), "start_time": at,
            "sessions_left": p.sessions_total - p.sessions_used}


def _pt_refund_terms(db: FitnessDB, p: PTPackage) -> dict[str, Any]:
    if p.status == "refunded":
        raise ToolError(f"package {p.package_id} was already refunded")
    unused = p.sessions_total - p.sessions_used
    if unused <= 0:
        raise ToolError(f"package {p.package_id} has no unused sessions")
    value = p.price_paid / p.sessions_total * unused
    return {"package_id": p.package_id, "purchased_on": p.purchased_on,
            "days_since_purchase": (_today() - date.fromisoformat(p.purchased_on)).days, "unused_sessions": unused,
            "value_of_unused_sessions": _money(value), "admin_fee": PT_REFUND_ADMIN_FEE,
            "refund_amount": _money(max(0.0, value - PT_REFUND_ADMIN_FEE))}


@DOMAIN.tool
def quote_pt_refund(db: FitnessDB, package_id: PackageId) -> dict[str, Any]:
    """Preview refunding a package's unused sessions (nothing changes): days since purchase, unused
    sessions and the refund after the admin fee."""
    return _pt_refund_terms(db, _package(db, package_id))


@DOMAIN.tool(write=True)
def refund_pt_package(db: FitnessDB, package_id: PackageId) -> dict[str, Any]:
    """Refund a package's unused sessions as quoted by quote_pt_refund; the package is closed."""
    p = _package(db, package_id)
    terms = _pt_refund_terms(db, p)
    p.status, p.refund_amount = "refunded", terms["refund_amount"]
    db.pt_packages[p.package_id] = p
    _charge(db, _member(db, p.member_id), "pt_refund", -terms["refund_amount"], p.package_id, status="paid")
    return terms


# -- guest passes --------------------------------------------------------------------------------------------
def _passes_used(db: FitnessDB, m: Member, month: str) -> int:
    return sum(1 for g in db.guest_passes.where(member_id=m.member_id) if g.status != "void" and g.visit_date[:7] == month)


@DOMAIN.tool
def list_guest_passes(db: FitnessDB, member_id: MemberId) -> dict[str, Any]:
    """List a member's guest passes and the monthly allowance used this month and next."""
    m = _member(db, member_id)
    plan = db.plans.require(m.plan_code)
    this = _today().strftime("%Y-%m")
    nxt = _add_months(_today().replace(day=1), 1).strftime("%Y-%m")
    passes = sorted(db.guest_passes.where(member_id=m.member_id), key=lambda g: (g.visit_date, g.pass_id))
    return {"allowance_per_month": plan.guest_passes_per_month,
            "used_by_month": {this: _passes_used(db, m, this), nxt: _passes_used(db, m, nxt)},
            "passes": [g.model_dump(mode="json") for g in passes]}


@DOMAIN.tool(write=True)
def issue_guest_pass(
    db: FitnessDB, member_id: MemberId, guest_first_name: str, guest_last_name: str, club_id: ClubId, visit_date: IsoDate
) -> dict[str, Any]:
    """Issue a one-day guest pass for a member's guest at a club, counted against the member's
    allowance for the month of the visit."""
    m = _member(db, member_id)
    _open(m)
    club = db.clubs.require(club_id)
    day = _date(visit_date, "visit date")
    if day < _today():
        raise ToolError("the visit date has passed")
    first, last = " ".join(guest_first_name.split()), " ".join(guest_last_name.split())
    if not first or not last:
        raise ToolError("the guest's first and last name are both needed")
    allowance = db.plans.require(m.plan_code).guest_passes_per_month
    if _passes_used(db, m, day.strftime("%Y-%m")) >= allowance:
        raise ToolError(f"no guest passes left for {day.strftime('%B %Y')} ({allowance} a month on this plan)")
    key = db.guest_passes.new_key("GP-", m.member_id, first.lower(), last.lower(), day.isoformat())
    db.guest_passes[key] = GuestPass(pass_id=key, member_id=m.member_id, guest_first_name=first, guest_last_name=last,
                                     club_id=club.club_id, visit_date=day.isoformat(), status="issued")
    return db.guest_passes[key].model_dump(mode="json")


# -- progress records and account ---------------------------------------------------------------------------------
@DOMAIN.tool
def list_progress_records(
    db: FitnessDB, member_id: MemberId,
    measure: Annotated[Measure | None, Field(description="only this measure (all measures when left out)")] = None,
) -> list[dict[str, Any]]:
    """List a member's progress records (newest first): date, measure, value, and who recorded it (the
    member in the app, or a trainer at an assessment)."""
    m = _member(db, member_id)
    recs = [r for r in db.progress.where(member_id=m.member_id) if not measure or r.measure == measure]
    out = []
    for r in sorted(recs, key=lambda r: (r.date, r.record_id), reverse=True):
        view: dict[str, Any] = r.model_dump(mode="json")
        trainer = db.trainers.get(r.trainer_id) if r.trainer_id else None
        view["recorded_by"] = f"{trainer.first_name} {trainer.last_name}" if trainer else "member (self-logged)"
        out.append(view)
    return out


@DOMAIN.tool(write=True)
def update_progress_record(
    db: FitnessDB, member_id: MemberId, record_id: Annotated[str, Field(description="a progress record id")],
    value: Annotated[float, Field(description="the corrected value, in the measure's unit", gt=0, lt=10000)],
) -> dict[str, Any]:
    """Correct the value of one of a member's progress records."""
    m = _member(db, member_id)
    r = db.progress.require(record_id)
    if r.member_id != m.member_id:
        raise ToolError(f"record {r.record_id} is not member {m.member_id}'s")
    r.value = float(round(value, 2))
    db.progress[r.record_id] = r
    return r.model_dump(mode="json")


@DOMAIN.tool
def list_charges(db: FitnessDB, member_id: MemberId) -> dict[str, Any]:
    """List a member's charges (newest first) and the total balance due."""
    m = _member(db, member_id)
    charges = sorted(db.charges.where(member_id=m.member_id), key=lambda c: (c.date, c.charge_id), reverse=True)
    return {"balance_due": _money(sum(c.amount for c in charges if c.status == "due")),
            "charges": [c.model_dump(mode="json") for c in charges]}


# -- data invariants: the clock, ages, places and money the policy relies on -------------------
CITY_AREA_CODES = {"Portland": {"503", "971"}, "Beaverton": {"503", "971"}, "Seattle": {"206"}, "Bellevue": {"425"},
                   "Tacoma": {"253"}, "Vancouver": {"360", "564"}}


def _club_phones_local(db: FitnessDB, now: datetime) -> Iterator[str]:
    """A club's phone carries its own city's area code (a Bellevue club is not on 503)."""
    for club in db.clubs.values():
        if club.phone[1:4] not in CITY_AREA_CODES.get(club.city, set()):
            yield f"clubs[{club.club_id!r}]: phone {club.phone} is not a {club.city} number"


def _early_termination_paid(db: FitnessDB, now: datetime) -> Iterator[str]:
    """Policy 22: a member whose notice ends the membership inside the minimum term was charged the fee."""
    charged = {c.member_id for c in db.charges.values() if c.kind == "early_termination"}
    for m in db.members.values():
        if m.cancellation_requested_on is None or m.commitment_end is None or m.member_id in charged:
            continue
        ends = (date.fromisoformat(m.cancellation_requested_on) + timedelta(days=NOTICE_DAYS)).isoformat()
        if m.commitment_end > ends:
            yield f"members[{m.member_id!r}]: notice on {m.cancellation_requested_on} inside a term ending {m.commitment_end}, no fee charged"


def _freezes_pause_billing(db: FitnessDB, now: datetime) -> Iterator[str]:
    """Policy 17: no monthly fee is billed inside a freeze, and no billing date falls inside one."""
    for c in db.charges.values():
        if c.kind == "monthly_fee" and any(f.start_date <= c.date <= f.end_date for f in db.members[c.member_id].freezes):
            yield f"charges[{c.charge_id!r}]: monthly fee billed on {c.date}, inside a freeze"
    for m in db.members.values():
        if m.next_billing_date and any(f.start_date <= m.next_billing_date <= f.end_date for f in m.freezes):
            yield f"members[{m.member_id!r}]: next billing date {m.next_billing_date} inside a freeze"


DOMAIN.invariants(
    plausible_age("members", "date_of_birth", low=14, high=100),
    plausible_age("members", "date_of_birth", at="joined_on", low=14, high=100),
    not_after_now("members", "joined_on"),
    not_after_now("members", "cancellation_requested_on"),
    not_after_now("bookings", "booked_at"),
    not_after_now("bookings", "cancelled_at"),
    ordered("bookings", "booked_at", "cancelled_at"),
    not_after_now("pt_packages", "purchased_on"),
    ordered("pt_packages", "purchased_on", "expires_on"),
    not_after_now("progress", "date"),
    not_after_now("charges", "date"),
    area_codes_valid("members", "phone"),
    area_codes_valid("clubs", "phone"),
    cents("charges", "amount"),
    Invariant("clubs: phone area code of the club's city", _club_phones_local),
    Invariant("members: freezes pause billing (policy 17)", _freezes_pause_billing),
    Invariant("members: notice inside the minimum term paid its early-termination fee (policy 22)", _early_termination_paid),
)


# Rule 5: the figure the member hears first comes from the quote, before the change they confirm.
DOMAIN.order("quote_freeze", "freeze_membership")
DOMAIN.order("quote_club_transfer", "transfer_home_club")
DOMAIN.order("quote_cancellation", "cancel_membership")
DOMAIN.order("quote_booking_cancellation", "cancel_booking")
DOMAIN.order("quote_pt_package", "buy_pt_package")
DOMAIN.order("quote_pt_refund", "refund_pt_package")
