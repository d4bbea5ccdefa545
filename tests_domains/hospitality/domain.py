"""Alder & Vane Hotels reservations desk: tools over the hospitality DB."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, ToolError, calculate as _calculate
from tests_domains.hospitality.schema import (
    LATE_CHECKOUT_LIMIT,
    TODAY,
    UPGRADE_CATEGORIES,
    WINDOW_END,
    WINDOW_START,
    Cancellation,
    Compensation,
    Feedback,
    Guest,
    Hotel,
    HospitalityDB,
    Night,
    Reservation,
    RoomType,
    SpecialRequest,
    Transaction,
    Upgrade,
    cancellation_penalty,
    compensation_caps,
    hours_before_arrival,
    inventory_id,
    nights_between,
    plan_rate,
    price,
)

DOMAIN = Domain("hospitality", HospitalityDB, fixtures=Path(__file__).parents[2] / "fixtures" / "hospitality")

NOW_STAMP = "2026-05-15T14:00:00-04:00"

Conf = Annotated[str, Field(description="the reservation's confirmation number, such as 'AV7KQ29M'")]
GuestId = Annotated[str, Field(description="the guest's id, such as 'G100423'")]
HotelId = Annotated[str, Field(description="the hotel's id, such as 'AV-BOS'")]
RoomCode = Annotated[str, Field(description="a room type code of the hotel, such as 'DKG'")]
Day = Annotated[str, Field(description="a date as YYYY-MM-DD")]
PlanArg = Annotated[
    Literal["flexible", "semi_flex", "non_refundable"], Field(description="the rate plan")
]
RequestType = Literal[
    "crib", "rollaway_bed", "feather_free_bedding", "high_floor", "quiet_room",
    "accessible_roll_in_shower", "accessible_hearing_kit", "early_check_in",
]


# -- helpers ------------------------------------------------------------------------------
def _date(value: str, what: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{what} {value!r} is not a date in YYYY-MM-DD form") from None


def _hotel(db: HospitalityDB, hotel_id: str) -> Hotel:
    hotel = db.hotels.get(hotel_id)
    if hotel is None:
        raise ToolError(f"hotel {hotel_id!r} not found")
    return hotel


def _room_type(hotel: Hotel, code: str) -> RoomType:
    for rt in hotel.room_types:
        if rt.code == code:
            return rt
    raise ToolError(f"{hotel.name} has no room type {code!r}; it has {', '.join(r.code for r in hotel.room_types)}")


def _reservation(db: HospitalityDB, conf: str) -> Reservation:
    res = db.reservations.get(conf.strip().upper())
    if res is None:
        raise ToolError(f"reservation {conf!r} not found")
    return res


def _guest(db: HospitalityDB, guest_id: str) -> Guest:
    guest = db.guests.get(guest_id)
    if guest is None:
        raise ToolError(f"guest {guest_id!r} not found")
    return guest


def _stay_dates(check_in: str, check_out: str) -> tuple[date, date]:
    ci, co = _date(check_in, "check-in"), _date(check_out, "check-out")
    if co <= ci:
        raise ToolError("check-out must be after check-in")
    if (co - ci).days > 14:
        raise ToolError("the desk books at most 14 nights per reservation")
    if ci < TODAY:
        raise ToolError("check-in cannot be in the past")
    if (co.toordinal() - WINDOW_END.toordinal()) > 1:
        raise ToolError(f"rates and inventory are loaded for nights {WINDOW_START} to {WINDOW_END} only")
    return ci, co


def _availability(db: HospitalityDB, hotel_id: str, code: str, days: list[date]) -> int:
    """Rooms free on every one of these nights."""
    free = None
    for d in days:
        inv = db.inventory.get(inventory_id(hotel_id, code, d.isoformat()))
        if inv is None:
            raise ToolError(f"no inventory for {hotel_id} {code} on {d}")
        left = inv.total_rooms - inv.rooms_sold
        free = left if free is None else min(free, left)
    return free or 0


def _hold(db: HospitalityDB, hotel_id: str, code: str, days: list[date], delta: int) -> None:
    for d in days:
        if d < WINDOW_START:
            continue  # nights already past are not in the live inventory
        inv = db.inventory[inventory_id(hotel_id, code, d.isoformat())]
        inv.rooms_sold += delta


def _nights(db: HospitalityDB, hotel_id: str, code: str, days: list[date], plan: str) -> list[Night]:
    return [
        Night(date=d.isoformat(), rate=plan_rate(db.inventory[inventory_id(hotel_id, code, d.isoformat())].rate, plan))
        for d in days
    ]


def _new_txn(db: HospitalityDB, res: Reservation, kind: str, amount: float) -> Transaction:
    tid = f"T{len(db.transactions) + 1:07d}"
    txn = Transaction(transaction_id=tid, confirmation_number=res.confirmation_number, guest_id=res.guest_id,
                      kind=kind, amount=round(amount, 2), card_id=res.payment_card_id, created_at=NOW_STAMP)
    db.transactions[tid] = txn
    return txn


def _must_be_upcoming(res: Reservation) -> None:
    if res.status != "confirmed":
        raise ToolError(f"reservation {res.confirmation_number} is {res.status}; only confirmed upcoming stays can be changed")


def _must_be_modifiable(res: Reservation) -> None:
    _must_be_upcoming(res)
    if res.rate_plan == "non_refundable":
        raise ToolError("non-refundable reservations cannot be changed")
    hours = hours_before_arrival(date.fromisoformat(res.check_in))
    limit = 48 if res.rate_plan == "flexible" else 168
    if hours < limit:
        raise ToolError(
            f"{res.rate_plan} reservations can only be changed at least {limit} hours before arrival; "
            f"this one arrives in {hours} hours"
        )


# -- authentication and lookups -----------------------------------------------------
@DOMAIN.tool
def find_reservation(db: HospitalityDB, confirmation_number: Conf, last_name: Annotated[str, Field(description="the guest's last name")]) -> Reservation:
    """Authenticate a caller by confirmation number and the last name on the reservation, and return the reservation."""
    res = db.reservations.get(confirmation_number.strip().upper())
    if res is None or db.guests[res.guest_id].last_name.lower() != last_name.strip().lower():
        raise ToolError("no reservation matches that confirmation number and last name")
    return res


@DOMAIN.tool
def find_guest_by_email(db: HospitalityDB, email: Annotated[str, Field(description="the guest's email address")], last_name: Annotated[str, Field(description="the guest's last name")]) -> Guest:
    """Authenticate a caller by email and last name, and return their guest profile (tier, points, cards)."""
    wanted = email.strip().lower()
    for guest in db.guests.values():
        if guest.email == wanted and guest.last_name.lower() == last_name.strip().lower():
            return guest
    raise ToolError("no guest profile matches that email and last name")


@DOMAIN.tool
def get_guest(db: HospitalityDB, guest_id: GuestId) -> Guest:
    """Return a guest's profile: contact details, loyalty tier, points balance and payment cards on file."""
    return _guest(db, guest_id)


@DOMAIN.tool
def list_guest_reservations(db: HospitalityDB, guest_id: GuestId) -> list[dict[str, Any]]:
    """List a guest's reservations (all statuses), oldest check-in first, as short summaries."""
    _guest(db, guest_id)
    rows = []
    for res in db.reservations.values():
        if res.guest_id == guest_id:
            rows.append({
                "confirmation_number": res.confirmation_number, "hotel_id": res.hotel_id,
                "hotel_name": db.hotels[res.hotel_id].name, "room_type_code": res.room_type_code,
                "check_in": res.check_in, "check_out": res.check_out, "rate_plan": res.rate_plan,
                "status": res.status, "total": res.total,
            })
    return sorted(rows, key=lambda r: (r["check_in"], r["confirmation_number"]))


@DOMAIN.tool
def get_reservation(db: HospitalityDB, confirmation_number: Conf) -> Reservation:
    """Return a reservation's full details: room, dates, nightly rates, totals, status, requests, upgrade, cancellation."""
    return _reservation(db, confirmation_number)


@DOMAIN.tool
def list_hotels(db: HospitalityDB, city: Annotated[str | None, Field(description="optional city name to filter by, such as 'Denver'")] = None) -> list[dict[str, Any]]:
    """List the group's hotels (id, name, city, state), optionally only those in one city."""
    rows = []
    for hotel in db.hotels.values():
        if city is None or hotel.city.lower() == city.strip().lower():
            rows.append({"hotel_id": hotel.hotel_id, "name": hotel.name, "city": hotel.city, "state": hotel.state})
    if not rows:
        raise ToolError(f"no hotel in {city!r}")
    return rows


@DOMAIN.tool
def get_hotel(db: HospitalityDB, hotel_id: HotelId) -> Hotel:
    """Return a hotel's details: address, tax rate, check-in/out times, amenities and room types (category, occupancy, crib, accessibility)."""
    return _hotel(db, hotel_id)


@DOMAIN.tool
def search_availability(db: HospitalityDB, hotel_id: HotelId, check_in: Day, check_out: Day) -> list[dict[str, Any]]:
    """For each room type of a hotel: rooms free on every night of the stay and the room subtotal under each rate plan (before tax)."""
    hotel = _hotel(db, hotel_id)
    ci, co = _stay_dates(check_in, check_out)
    days = nights_between(ci, co)
    rows = []
    for rt in hotel.room_types:
        free = _availability(db, hotel_id, rt.code, days)
        row: dict[str, Any] = {"room_type_code": rt.code, "name": rt.name, "category": rt.category,
                               "max_occupancy": rt.max_occupancy, "rooms_available": free}
        for plan in ("flexible", "semi_flex", "non_refundable"):
            row[f"{plan}_subtotal"] = round(sum(n.rate for n in _nights(db, hotel_id, rt.code, days, plan)), 2)
        rows.append(row)
    return rows


@DOMAIN.tool
def quote_stay(db: HospitalityDB, hotel_id: HotelId, room_type_code: RoomCode, check_in: Day, check_out: Day, rate_plan: PlanArg) -> dict[str, Any]:
    """Price a stay: nightly rates for the rate plan, room subtotal, tax and total, and rooms available on every night."""
    hotel = _hotel(db, hotel_id)
    _room_type(hotel, room_type_code)
    ci, co = _stay_dates(check_in, check_out)
    days = nights_between(ci, co)
    nights = _nights(db, hotel_id, room_type_code, days, rate_plan)
    subtotal, tax, total = price(nights, hotel.tax_rate)
    return {"hotel_id": hotel_id, "room_type_code": room_type_code, "rate_plan": rate_plan,
            "nights": [n.model_dump() for n in nights], "room_subtotal": subtotal, "tax": tax, "total": total,
            "rooms_available": _availability(db, hotel_id, room_type_code, days)}


@DOMAIN.tool
def get_cancellation_quote(db: HospitalityDB, confirmation_number: Conf) -> dict[str, Any]:
    """What cancelling a confirmed reservation now would cost: hours before arrival, penalty and refund of any prepayment."""
    res = _reservation(db, confirmation_number)
    _must_be_upcoming(res)
    penalty = cancellation_penalty(res)
    return {"confirmation_number": res.confirmation_number, "rate_plan": res.rate_plan,
            "hours_before_arrival": hours_before_arrival(date.fromisoformat(res.check_in)),
            "penalty": penalty, "refund": round(res.prepaid_amount - min(penalty, res.prepaid_amount), 2)}


@DOMAIN.tool
def get_stay_feedback(db: HospitalityDB, confirmation_number: Conf) -> dict[str, Any]:
    """A stay's feedback cases and compensations, with the compensation caps (credit dollars and points) for the guest's tier."""
    res = _reservation(db, confirmation_number)
    guest = db.guests[res.guest_id]
    credit, points = compensation_caps(guest.tier, res.total)
    return {
        "confirmation_number": res.confirmation_number, "tier": guest.tier, "stay_total": res.total,
        "credit_cap": credit, "points_cap": points,
        "feedback": [f for f in db.feedback.values() if f.confirmation_number == res.confirmation_number],
        "compensations": [c for c in db.compensations.values() if c.confirmation_number == res.confirmation_number],
    }


# -- writes ---------------------------------------------------------------------------
@DOMAIN.tool(write=True)
def create_reservation(
    db: HospitalityDB,
    guest_id: GuestId,
    hotel_id: HotelId,
    room_type_code: RoomCode,
    check_in: Day,
    check_out: Day,
    rate_plan: PlanArg,
    adults: Annotated[int, Field(description="number of adults (at least 1)")],
    children: Annotated[int, Field(description="number of children under 18")],
    payment_card_id: Annotated[str, Field(description="id of one of the guest's cards on file, such as 'G100423-C1'")],
) -> Reservation:
    """Book one room for a guest. Non-refundable stays are charged in full now; other plans are charged at checkout."""
    guest = _guest(db, guest_id)
    hotel = _hotel(db, hotel_id)
    rt = _room_type(hotel, room_type_code)
    if payment_card_id not in {c.card_id for c in guest.cards}:
        raise ToolError(f"card {payment_card_id!r} is not on file for guest {guest_id}")
    if adults < 1 or children < 0:
        raise ToolError("a reservation needs at least one adult and no negative counts")
    if adults + children > rt.max_occupancy:
        raise ToolError(f"{rt.name} sleeps at most {rt.max_occupancy}")
    ci, co = _stay_dates(check_in, check_out)
    days = nights_between(ci, co)
    if _availability(db, hotel_id, room_type_code, days) < 1:
        raise ToolError(f"{rt.name} is sold out on at least one night of {check_in} to {check_out}")
    nights = _nights(db, hotel_id, room_type_code, days, rate_plan)
    subtotal, tax, total = price(nights, hotel.tax_rate)
    conf = f"AVN{len(db.reservations) + 1:05d}"
    res = Reservation(
        confirmation_number=conf, guest_id=guest_id, hotel_id=hotel_id, room_type_code=room_type_code,
        booked_room_type_code=room_type_code, rate_plan=rate_plan, check_in=ci.isoformat(), check_out=co.isoformat(),
        adults=adults, children=children, nights=nights, room_subtotal=subtotal, tax=tax, total=total,
        prepaid_amount=total if rate_plan == "non_refundable" else 0.0, payment_card_id=payment_card_id,
        status="confirmed", booked_at=NOW_STAMP, channel="phone",
    )
    db.reservations[conf] = res
    _hold(db, hotel_id, room_type_code, days, +1)
    if rate_plan == "non_refundable":
        _new_txn(db, res, "prepayment", total)
    return res


@DOMAIN.tool(write=True)
def change_reservation_dates(db: HospitalityDB, confirmation_number: Conf, new_check_in: Day, new_check_out: Day) -> Reservation:
    """Move a flexible or semi-flex reservation to new dates in the same room type; every night is re-priced at the current rate."""
    res = _reservation(db, confirmation_number)
    _must_be_modifiable(res)
    ci, co = _stay_dates(new_check_in, new_check_out)
    if ci.isoformat() == res.check_in and co.isoformat() == res.check_out:
        raise ToolError("those are the reservation's current dates")
    old_days = nights_between(date.fromisoformat(res.check_in), date.fromisoformat(res.check_out))
    new_days = nights_between(ci, co)
    _hold(db, res.hotel_id, res.room_type_code, old_days, -1)
    if _availability(db, res.hotel_id, res.room_type_code, new_days) < 1:
        raise ToolError("the reservation's room type is sold out on at least one of the new nights")
    _hold(db, res.hotel_id, res.room_type_code, new_days, +1)
    res.nights = _nights(db, res.hotel_id, res.booked_room_type_code, new_days, res.rate_plan)
    res.room_subtotal, res.tax, res.total = price(res.nights, db.hotels[res.hotel_id].tax_rate)
    res.check_in, res.check_out = ci.isoformat(), co.isoformat()
    return res


@DOMAIN.tool(write=True)
def change_room_type(db: HospitalityDB, confirmation_number: Conf, new_room_type_code: RoomCode) -> Reservation:
    """Move a flexible or semi-flex reservation to another room type for the same dates, re-priced at that room's current rates (a paid change, not an upgrade)."""
    res = _reservation(db, confirmation_number)
    _must_be_modifiable(res)
    hotel = db.hotels[res.hotel_id]
    rt = _room_type(hotel, new_room_type_code)
    if new_room_type_code == res.room_type_code:
        raise ToolError("the reservation is already in that room type")
    if res.adults + res.children > rt.max_occupancy:
        raise ToolError(f"{rt.name} sleeps at most {rt.max_occupancy}")
    days = nights_between(date.fromisoformat(res.check_in), date.fromisoformat(res.check_out))
    if _availability(db, res.hotel_id, new_room_type_code, days) < 1:
        raise ToolError(f"{rt.name} is sold out on at least one night of the stay")
    if any(r.request_type == "crib" for r in res.special_requests) and not rt.crib_allowed:
        raise ToolError(f"{rt.name} cannot take a crib, and this reservation has a crib request")
    _hold(db, res.hotel_id, res.room_type_code, days, -1)
    _hold(db, res.hotel_id, new_room_type_code, days, +1)
    res.room_type_code = res.booked_room_type_code = new_room_type_code
    res.upgrade = None
    res.nights = _nights(db, res.hotel_id, new_room_type_code, days, res.rate_plan)
    res.room_subtotal, res.tax, res.total = price(res.nights, hotel.tax_rate)
    return res


@DOMAIN.tool(write=True)
def apply_loyalty_upgrade(db: HospitalityDB, confirmation_number: Conf, new_room_type_code: RoomCode) -> Reservation:
    """Give a gold or platinum guest their complimentary upgrade: a higher room category at the booked price (one per stay, not on non-refundable rates)."""
    res = _reservation(db, confirmation_number)
    _must_be_upcoming(res)
    guest = db.guests[res.guest_id]
    allowed = UPGRADE_CATEGORIES[guest.tier]
    if allowed == 0:
        raise ToolError(f"{guest.tier} members have no complimentary upgrade benefit")
    if res.rate_plan == "non_refundable":
        raise ToolError("complimentary upgrades do not apply to non-refundable rates")
    if res.upgrade is not None:
        raise ToolError("this stay has already received its complimentary upgrade")
    hotel = db.hotels[res.hotel_id]
    current = _room_type(hotel, res.room_type_code)
    target = _room_type(hotel, new_room_type_code)
    if target.accessible and not current.accessible:
        raise ToolError("accessible rooms are kept for guests who need them and are not used for upgrades")
    steps = target.category - current.category
    if steps < 1:
        raise ToolError(f"{target.name} is not a higher category than {current.name}")
    if steps > allowed:
        raise ToolError(f"{guest.tier} members may go up at most {allowed} categor{'y' if allowed == 1 else 'ies'}; this is {steps}")
    if res.adults + res.children > target.max_occupancy:
        raise ToolError(f"{target.name} sleeps at most {target.max_occupancy}")
    days = nights_between(date.fromisoformat(res.check_in), date.fromisoformat(res.check_out))
    if _availability(db, res.hotel_id, new_room_type_code, days) < 1:
        raise ToolError(f"{target.name} is not available on every night of the stay")
    _hold(db, res.hotel_id, res.room_type_code, days, -1)
    _hold(db, res.hotel_id, new_room_type_code, days, +1)
    res.upgrade = Upgrade(from_room_type=res.room_type_code, to_room_type=new_room_type_code, categories=steps, granted_at=NOW_STAMP)
    res.room_type_code = new_room_type_code
    return res


@DOMAIN.tool(write=True)
def set_late_checkout(db: HospitalityDB, confirmation_number: Conf, checkout_time: Annotated[str, Field(description="the late checkout time, 24-hour HH:MM on the hour or half hour, such as '13:00'")]) -> Reservation:
    """Grant a complimentary late checkout up to the guest's tier limit (silver 12:00, gold 14:00, platinum 16:00)."""
    res = _reservation(db, confirmation_number)
    if res.status not in ("confirmed", "checked_in"):
        raise ToolError(f"reservation {res.confirmation_number} is {res.status}")
    try:
        hh, mm = checkout_time.split(":")
        minutes = int(hh) * 60 + int(mm)
        if len(hh) != 2 or mm not in ("00", "30"):
            raise ValueError
    except ValueError:
        raise ToolError("checkout_time must look like '13:00' or '13:30'") from None
    tier = db.guests[res.guest_id].tier
    lh, lm = LATE_CHECKOUT_LIMIT[tier].split(":")
    if minutes <= 11 * 60:
        raise ToolError("standard checkout is 11:00; a late checkout must be later")
    if minutes > int(lh) * 60 + int(lm):
        raise ToolError(f"{tier} members may check out at {LATE_CHECKOUT_LIMIT[tier]} at the latest")
    if res.late_checkout == checkout_time:
        raise ToolError(f"late checkout is already set to {checkout_time}")
    res.late_checkout = checkout_time
    return res


@DOMAIN.tool(write=True)
def add_special_request(db: HospitalityDB, confirmation_number: Conf, request_type: Annotated[RequestType, Field(description="the kind of request")]) -> Reservation:
    """Add a special request (crib, rollaway bed, bedding, room placement, accessibility equipment, early check-in) to an upcoming or current stay."""
    res = _reservation(db, confirmation_number)
    if res.status not in ("confirmed", "checked_in"):
        raise ToolError(f"reservation {res.confirmation_number} is {res.status}")
    if any(r.request_type == request_type for r in res.special_requests):
        raise ToolError(f"the reservation already has a {request_type} request")
    rt = _room_type(db.hotels[res.hotel_id], res.room_type_code)
    if request_type == "crib" and not rt.crib_allowed:
        raise ToolError(f"{rt.name} has no room for a crib")
    if request_type == "rollaway_bed":
        if rt.category < 3:
            raise ToolError("rollaway beds fit only Premier rooms and suites")
        if res.adults + res.children >= rt.max_occupancy:
            raise ToolError(f"{rt.name} is already at its occupancy of {rt.max_occupancy}")
    if request_type.startswith("accessible_roll_in") and not rt.accessible:
        raise ToolError("roll-in showers exist only in accessible room types; move the stay to one first")
    res.special_requests.append(SpecialRequest(request_type=request_type, requested_at=NOW_STAMP))
    return res


@DOMAIN.tool(write=True)
def cancel_reservation(
    db: HospitalityDB,
    confirmation_number: Conf,
    reason: Annotated[Literal["change_of_plans", "found_other_accommodation", "travel_disruption", "illness", "work_conflict"], Field(description="why the guest cancels")],
) -> Reservation:
    """Cancel a confirmed reservation, charging the rate plan's cancellation penalty and releasing the room."""
    res = _reservation(db, confirmation_number)
    _must_be_upcoming(res)
    penalty = cancellation_penalty(res)
    refund = round(res.prepaid_amount - min(penalty, res.prepaid_amount), 2)
    if res.rate_plan != "non_refundable" and penalty > 0:
        _new_txn(db, res, "cancellation_fee", penalty)
    if refund > 0:
        _new_txn(db, res, "refund", refund)
    days = nights_between(date.fromisoformat(res.check_in), date.fromisoformat(res.check_out))
    _hold(db, res.hotel_id, res.room_type_code, days, -1)
    res.status = "cancelled"
    res.cancellation = Cancellation(cancelled_at=NOW_STAMP, reason=reason, penalty=penalty, refund=refund)
    return res


@DOMAIN.tool(write=True)
def log_feedback(
    db: HospitalityDB,
    confirmation_number: Conf,
    category: Annotated[Literal["cleanliness", "noise", "maintenance", "service", "billing", "amenities"], Field(description="what the complaint is about")],
) -> Feedback:
    """Open a feedback case for a completed or in-house stay."""
    res = _reservation(db, confirmation_number)
    if res.status not in ("completed", "checked_in"):
        raise ToolError(f"feedback is logged for completed or in-house stays; this one is {res.status}")
    fid = f"FB{len(db.feedback) + 1:05d}"
    fb = Feedback(feedback_id=fid, confirmation_number=res.confirmation_number, guest_id=res.guest_id,
                  category=category, status="open", created_at=NOW_STAMP)
    db.feedback[fid] = fb
    return fb


@DOMAIN.tool(write=True)
def issue_compensation(
    db: HospitalityDB,
    feedback_id: Annotated[str, Field(description="the open feedback case being compensated, such as 'FB00051'")],
    kind: Annotated[Literal["points", "credit"], Field(description="loyalty points, or a statement credit to the stay's card")],
    amount: Annotated[float, Field(description="points (a whole number) or credit in dollars")],
) -> Compensation:
    """Compensate a feedback case with points or a statement credit, within the tier and stay caps; one compensation per stay; resolves the case."""
    fb = db.feedback.get(feedback_id)
    if fb is None:
        raise ToolError(f"feedback case {feedback_id!r} not found")
    if fb.status != "open":
        raise ToolError(f"feedback case {feedback_id} is already {fb.status}")
    res = db.reservations[fb.confirmation_number]
    if any(c.confirmation_number == res.confirmation_number for c in db.compensations.values()):
        raise ToolError("this stay has already been compensated once; only one compensation per stay")
    guest = db.guests[res.guest_id]
    credit_cap, points_cap = compensation_caps(guest.tier, res.total)
    if amount <= 0:
        raise ToolError("amount must be positive")
    if kind == "points":
        if amount != int(amount):
            raise ToolError("points must be a whole number")
        if amount > points_cap:
            raise ToolError(f"at most {points_cap} points for this stay")
        db.guests[guest.guest_id].points_balance += int(amount)
    else:
        if round(amount, 2) != amount:
            raise ToolError("credit must be in whole cents")
        if amount > credit_cap:
            raise ToolError(f"at most ${credit_cap:.2f} credit for this stay")
        _new_txn(db, res, "compensation_credit", amount)
    cid = f"CP{len(db.compensations) + 1:05d}"
    comp = Compensation(compensation_id=cid, confirmation_number=res.confirmation_number, guest_id=guest.guest_id,
                        feedback_id=feedback_id, kind=kind, amount=float(amount), created_at=NOW_STAMP)
    db.compensations[cid] = comp
    db.feedback[feedback_id].status = "resolved"
    return comp


@DOMAIN.tool
def calculate(db: HospitalityDB, expression: Annotated[str, Field(description="an arithmetic expression, such as '(189.0 + 204.0) * 0.5'")]) -> str:
    """Evaluate an arithmetic expression (numbers, + - * / and parentheses); the result is rounded to 2 decimals."""
    return _calculate(expression)


@DOMAIN.tool(transfer=True)
def transfer_to_human_agents(db: HospitalityDB, summary: Annotated[str, Field(description="a short summary of the guest's issue")]) -> str:
    """Transfer the caller to a human reservations supervisor, with a summary of the issue. Only when the policy says so."""
    return "Transfer successful"
