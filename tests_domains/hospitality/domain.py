"""Alder & Vane Hotels reservations desk: tools over the hospitality DB.

The tools refuse only what the data makes impossible (no such record, not this guest's card,
no room left, a stay that is already over or cancelled); every rule of the policy (change
windows, tier limits, occupancy, one compensation per stay, ...) is the agent's to apply.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, ToolError
from pytest_tau.invariants import area_codes_valid, cents, not_after_now
from tests_domains.hospitality.schema import (
    NOW,
    WINDOW_END,
    WINDOW_START,
    Cancellation,
    Compensation,
    Feedback,
    Guest,
    HospitalityDB,
    Hotel,
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

DOMAIN = Domain("hospitality", HospitalityDB, now=NOW)

NOW_STAMP = f"{DOMAIN.now.isoformat()}-04:00"

Conf = Annotated[str, Field(description="the reservation's confirmation number, such as 'AV7KQ29M'")]
GuestId = Annotated[str, Field(description="the guest's id, such as 'G100423'")]
HotelId = Annotated[str, Field(description="the hotel's id, such as 'AV-BOS'")]
RoomCode = Annotated[str, Field(description="a room type code of the hotel, such as 'DKG'")]
Day = Annotated[str, Field(description="a date as YYYY-MM-DD")]
PlanArg = Annotated[Literal["flexible", "semi_flex", "non_refundable"], Field(description="the rate plan")]
RequestType = Literal[
    "crib", "rollaway_bed", "feather_free_bedding", "high_floor", "quiet_room",
    "accessible_roll_in_shower", "accessible_hearing_kit", "early_check_in",
]
CancelReason = Literal["change_of_plans", "found_other_accommodation", "travel_disruption", "illness", "work_conflict"]
TxnKind = Literal["prepayment", "room_charge", "cancellation_fee", "compensation_credit", "refund"]
FeedbackCategory = Literal["cleanliness", "noise", "maintenance", "service", "billing", "amenities"]


# -- helpers ------------------------------------------------------------------------------
def _date(value: str, what: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise ToolError(f"{what} {value!r} is not a date in YYYY-MM-DD form") from None


def _room_type(hotel: Hotel, code: str) -> RoomType:
    wanted = code.strip().upper()
    for rt in hotel.room_types:
        if rt.code == wanted:
            return rt
    raise ToolError(f"{hotel.name} has no room type {code!r}; it has {', '.join(r.code for r in hotel.room_types)}")


def _stay_dates(check_in: str, check_out: str) -> tuple[date, date]:
    ci, co = _date(check_in, "check-in"), _date(check_out, "check-out")
    if co <= ci:
        raise ToolError("check-out must be after check-in")
    if ci < WINDOW_START or co.toordinal() - WINDOW_END.toordinal() > 1:
        raise ToolError(f"no rates or inventory are loaded outside the nights {WINDOW_START} to {WINDOW_END}")
    return ci, co


def _free(db: HospitalityDB, hotel_id: str, code: str, days: list[date], holding: list[date] | None = None) -> int:
    """Rooms free on every one of these nights, counting back the room this stay already holds on `holding`."""
    free = None
    for d in days:
        inv = db.inventory.get(inventory_id(hotel_id, code, d.isoformat()))
        if inv is None:
            raise ToolError(f"no inventory for {hotel_id} {code} on {d}")
        left = inv.total_rooms - inv.rooms_sold + (1 if holding and d in holding else 0)
        free = left if free is None else min(free, left)
    return free or 0


def _hold(db: HospitalityDB, hotel_id: str, code: str, days: list[date], delta: int) -> None:
    for d in days:
        if d < WINDOW_START:
            continue  # nights already past are not in the live inventory
        db.inventory.require(inventory_id(hotel_id, code, d.isoformat())).rooms_sold += delta


def _nights(db: HospitalityDB, hotel_id: str, code: str, days: list[date], plan: str) -> list[Night]:
    return [
        Night(date=d.isoformat(), rate=plan_rate(db.inventory.require(inventory_id(hotel_id, code, d.isoformat())).rate, plan))
        for d in days
    ]


def _stay_days(res: Reservation) -> list[date]:
    return nights_between(date.fromisoformat(res.check_in), date.fromisoformat(res.check_out))


def _hours_before_arrival(db: HospitalityDB, res: Reservation) -> int:
    return hours_before_arrival(date.fromisoformat(res.check_in), db.hotels.require(res.hotel_id).time_zone)


def _new_txn(db: HospitalityDB, res: Reservation, kind: TxnKind, amount: float) -> Transaction:
    tid = db.transactions.new_key("T", res.confirmation_number, kind)
    txn = Transaction(transaction_id=tid, confirmation_number=res.confirmation_number, guest_id=res.guest_id,
                      kind=kind, amount=round(amount, 2), card_id=res.payment_card_id, created_at=NOW_STAMP)
    db.transactions[tid] = txn
    return txn


def _difference(new_total: float, current_total: float) -> dict[str, Any]:
    change = round(new_total - current_total, 2)
    return {"difference": abs(change), "new_total_is": "higher" if change > 0 else "lower" if change < 0 else "the same"}


def _upcoming(db: HospitalityDB, confirmation_number: str) -> Reservation:
    res = db.reservations.require(confirmation_number)
    if res.status != "confirmed":
        raise ToolError(f"reservation {res.confirmation_number} is {res.status}, not an upcoming stay")
    return res


def _open_stay(db: HospitalityDB, confirmation_number: str) -> Reservation:
    res = db.reservations.require(confirmation_number)
    if res.status not in ("confirmed", "checked_in"):
        raise ToolError(f"reservation {res.confirmation_number} is {res.status}")
    return res


# -- authentication and lookups -----------------------------------------------------
@DOMAIN.tool(authenticates=True)
def find_reservation(db: HospitalityDB, confirmation_number: Conf, last_name: Annotated[str, Field(description="the guest's last name")]) -> Reservation:
    """Authenticate a caller by confirmation number and the last name on the reservation, and return the reservation."""
    res = db.reservations.get(confirmation_number.strip().upper())
    if res is None or db.guests.require(res.guest_id).last_name.casefold() != " ".join(last_name.split()).casefold():
        raise ToolError("no reservation matches that confirmation number and last name")
    return res


@DOMAIN.tool(authenticates=True)
def find_guest_by_email(db: HospitalityDB, email: Annotated[str, Field(description="the guest's email address")], last_name: Annotated[str, Field(description="the guest's last name")]) -> Guest:
    """Authenticate a caller by email and last name, and return their guest profile (tier, points, cards)."""
    found = db.guests.find(email=email, last_name=last_name)
    if not found:
        raise ToolError("no guest profile matches that email and last name")
    return found[0]


@DOMAIN.tool
def get_guest(db: HospitalityDB, guest_id: GuestId) -> Guest:
    """Return a guest's profile: contact details, loyalty tier, points balance and payment cards on file."""
    return db.guests.require(guest_id)


@DOMAIN.tool
def list_guest_reservations(db: HospitalityDB, guest_id: GuestId) -> list[dict[str, Any]]:
    """List a guest's reservations (all statuses), oldest check-in first, as short summaries."""
    guest = db.guests.require(guest_id)
    rows = []
    for res in db.reservations.where(guest_id=guest.guest_id):
        rows.append({
            "confirmation_number": res.confirmation_number, "hotel_id": res.hotel_id,
            "hotel_name": db.hotels.require(res.hotel_id).name, "room_type_code": res.room_type_code,
            "check_in": res.check_in, "check_out": res.check_out, "rate_plan": res.rate_plan,
            "status": res.status, "total": res.total,
        })
    return sorted(rows, key=lambda r: (r["check_in"], r["confirmation_number"]))


@DOMAIN.tool
def get_reservation(db: HospitalityDB, confirmation_number: Conf) -> Reservation:
    """Return a reservation's full details: room, dates, nightly rates, totals, status, requests, upgrade, cancellation."""
    return db.reservations.require(confirmation_number)


@DOMAIN.tool
def list_hotels(db: HospitalityDB, city: Annotated[str | None, Field(description="optional city name to filter by, such as 'Denver'")] = None) -> list[dict[str, Any]]:
    """List the group's hotels (id, name, city, state), optionally only those in one city."""
    hotels = db.hotels.find(city=city) if city is not None else list(db.hotels.values())
    if not hotels:
        raise ToolError(f"no hotel in {city!r}")
    return [{"hotel_id": h.hotel_id, "name": h.name, "city": h.city, "state": h.state} for h in hotels]


@DOMAIN.tool
def get_hotel(db: HospitalityDB, hotel_id: HotelId) -> Hotel:
    """Return a hotel's details: address, tax rate, check-in/out times, amenities and room types (category, occupancy, crib, accessibility)."""
    return db.hotels.require(hotel_id)


@DOMAIN.tool
def search_availability(db: HospitalityDB, hotel_id: HotelId, check_in: Day, check_out: Day) -> list[dict[str, Any]]:
    """For each room type of a hotel: rooms free on every night of the stay and the room subtotal under each rate plan (before tax)."""
    hotel = db.hotels.require(hotel_id)
    ci, co = _stay_dates(check_in, check_out)
    days = nights_between(ci, co)
    rows = []
    for rt in hotel.room_types:
        row: dict[str, Any] = {"room_type_code": rt.code, "name": rt.name, "category": rt.category,
                               "max_occupancy": rt.max_occupancy, "rooms_available": _free(db, hotel.hotel_id, rt.code, days)}
        for plan in ("flexible", "semi_flex", "non_refundable"):
            row[f"{plan}_subtotal"] = round(sum(n.rate for n in _nights(db, hotel.hotel_id, rt.code, days, plan)), 2)
        rows.append(row)
    return rows


@DOMAIN.tool
def quote_stay(db: HospitalityDB, hotel_id: HotelId, room_type_code: RoomCode, check_in: Day, check_out: Day, rate_plan: PlanArg) -> dict[str, Any]:
    """Price a new stay: nightly rates for the rate plan, room subtotal, tax and total, and rooms available on every night."""
    hotel = db.hotels.require(hotel_id)
    rt = _room_type(hotel, room_type_code)
    ci, co = _stay_dates(check_in, check_out)
    days = nights_between(ci, co)
    nights = _nights(db, hotel.hotel_id, rt.code, days, rate_plan)
    subtotal, tax, total = price(nights, hotel.tax_rate)
    return {"hotel_id": hotel.hotel_id, "room_type_code": rt.code, "rate_plan": rate_plan,
            "nights": [n.model_dump() for n in nights], "room_subtotal": subtotal, "tax": tax, "total": total,
            "rooms_available": _free(db, hotel.hotel_id, rt.code, days)}


@DOMAIN.tool
def quote_date_change(db: HospitalityDB, confirmation_number: Conf, new_check_in: Day, new_check_out: Day) -> dict[str, Any]:
    """Preview moving a reservation to new dates (changes nothing): hours before the current arrival, the new nightly rates,
    subtotal, tax and total, the current total, how much more or less the new total is, and whether the room type is free."""
    res = _upcoming(db, confirmation_number)
    ci, co = _stay_dates(new_check_in, new_check_out)
    days = nights_between(ci, co)
    nights = _nights(db, res.hotel_id, res.booked_room_type_code, days, res.rate_plan)
    subtotal, tax, total = price(nights, db.hotels.require(res.hotel_id).tax_rate)
    return {"confirmation_number": res.confirmation_number, "rate_plan": res.rate_plan,
            "hours_before_arrival": _hours_before_arrival(db, res),
            "new_check_in": ci.isoformat(), "new_check_out": co.isoformat(), "nights": [n.model_dump() for n in nights],
            "room_subtotal": subtotal, "tax": tax, "new_total": total, "current_total": res.total,
            **_difference(total, res.total), "rooms_available": _free(db, res.hotel_id, res.room_type_code, days, _stay_days(res))}


@DOMAIN.tool
def quote_room_change(db: HospitalityDB, confirmation_number: Conf, new_room_type_code: RoomCode) -> dict[str, Any]:
    """Preview a paid room change for the same dates (changes nothing): the new room's nightly rates under the reservation's
    rate plan, subtotal, tax and total, the current total, how much more or less the new total is, and rooms available."""
    res = _upcoming(db, confirmation_number)
    hotel = db.hotels.require(res.hotel_id)
    rt = _room_type(hotel, new_room_type_code)
    days = _stay_days(res)
    nights = _nights(db, hotel.hotel_id, rt.code, days, res.rate_plan)
    subtotal, tax, total = price(nights, hotel.tax_rate)
    holding = days if rt.code == res.room_type_code else []
    return {"confirmation_number": res.confirmation_number, "rate_plan": res.rate_plan,
            "hours_before_arrival": _hours_before_arrival(db, res),
            "room_type_code": rt.code, "name": rt.name, "category": rt.category, "max_occupancy": rt.max_occupancy,
            "nights": [n.model_dump() for n in nights], "room_subtotal": subtotal, "tax": tax, "new_total": total,
            "current_total": res.total, **_difference(total, res.total),
            "rooms_available": _free(db, hotel.hotel_id, rt.code, days, holding)}


@DOMAIN.tool
def get_cancellation_quote(db: HospitalityDB, confirmation_number: Conf) -> dict[str, Any]:
    """What cancelling a confirmed reservation now would cost: hours before arrival, penalty and refund of any prepayment."""
    res = _upcoming(db, confirmation_number)
    penalty = cancellation_penalty(res, db.hotels.require(res.hotel_id).time_zone)
    return {"confirmation_number": res.confirmation_number, "rate_plan": res.rate_plan,
            "hours_before_arrival": _hours_before_arrival(db, res),
            "penalty": penalty, "refund": round(res.prepaid_amount - min(penalty, res.prepaid_amount), 2)}


@DOMAIN.tool
def get_stay_feedback(db: HospitalityDB, confirmation_number: Conf) -> dict[str, Any]:
    """A stay's feedback cases and compensations, with the compensation caps (credit dollars and points) for the guest's tier."""
    res = db.reservations.require(confirmation_number)
    guest = db.guests.require(res.guest_id)
    credit, points = compensation_caps(guest.tier, res.total)
    return {
        "confirmation_number": res.confirmation_number, "status": res.status, "check_out": res.check_out,
        "tier": guest.tier, "stay_total": res.total, "credit_cap": credit, "points_cap": points,
        "feedback": sorted(db.feedback.where(confirmation_number=res.confirmation_number), key=lambda f: f.feedback_id),
        "compensations": sorted(db.compensations.where(confirmation_number=res.confirmation_number), key=lambda c: c.compensation_id),
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
    guest = db.guests.require(guest_id)
    hotel = db.hotels.require(hotel_id)
    rt = _room_type(hotel, room_type_code)
    card = payment_card_id.strip().upper()
    if card not in {c.card_id for c in guest.cards}:
        raise ToolError(f"card {payment_card_id!r} is not on file for guest {guest.guest_id}")
    if adults < 1 or children < 0:
        raise ToolError("a reservation needs at least one adult and no negative counts")
    ci, co = _stay_dates(check_in, check_out)
    days = nights_between(ci, co)
    if _free(db, hotel.hotel_id, rt.code, days) < 1:
        raise ToolError(f"{rt.name} is sold out on at least one night of {check_in} to {check_out}")
    nights = _nights(db, hotel.hotel_id, rt.code, days, rate_plan)
    subtotal, tax, total = price(nights, hotel.tax_rate)
    conf = db.reservations.new_key("AVN", guest.guest_id, hotel.hotel_id, rt.code, ci.isoformat(), co.isoformat())
    res = Reservation(
        confirmation_number=conf, guest_id=guest.guest_id, hotel_id=hotel.hotel_id, room_type_code=rt.code,
        booked_room_type_code=rt.code, rate_plan=rate_plan, check_in=ci.isoformat(), check_out=co.isoformat(),
        adults=adults, children=children, nights=nights, room_subtotal=subtotal, tax=tax, total=total,
        prepaid_amount=total if rate_plan == "non_refundable" else 0.0, payment_card_id=card,
        status="confirmed", booked_at=NOW_STAMP, channel="phone",
    )
    db.reservations[conf] = res
    _hold(db, hotel.hotel_id, rt.code, days, +1)
    if rate_plan == "non_refundable":
        _new_txn(db, res, "prepayment", total)
    return res


@DOMAIN.tool(write=True)
def change_reservation_dates(db: HospitalityDB, confirmation_number: Conf, new_check_in: Day, new_check_out: Day) -> Reservation:
    """Move an upcoming reservation to new dates in the same room type and rate plan; every night is re-priced at the current rate."""
    res = _upcoming(db, confirmation_number)
    ci, co = _stay_dates(new_check_in, new_check_out)
    if ci.isoformat() == res.check_in and co.isoformat() == res.check_out:
        return res  # nothing to change
    old_days, new_days = _stay_days(res), nights_between(ci, co)
    if _free(db, res.hotel_id, res.room_type_code, new_days, old_days) < 1:
        raise ToolError("the reservation's room type is sold out on at least one of the new nights")
    _hold(db, res.hotel_id, res.room_type_code, old_days, -1)
    _hold(db, res.hotel_id, res.room_type_code, new_days, +1)
    res.nights = _nights(db, res.hotel_id, res.booked_room_type_code, new_days, res.rate_plan)
    res.room_subtotal, res.tax, res.total = price(res.nights, db.hotels.require(res.hotel_id).tax_rate)
    if res.rate_plan == "non_refundable":
        res.prepaid_amount = res.total
    res.check_in, res.check_out = ci.isoformat(), co.isoformat()
    return res


@DOMAIN.tool(write=True)
def change_room_type(db: HospitalityDB, confirmation_number: Conf, new_room_type_code: RoomCode) -> Reservation:
    """Move an upcoming reservation to another room type for the same dates, re-priced at that room's current rates (a paid change, not an upgrade; it removes any complimentary upgrade)."""
    res = _upcoming(db, confirmation_number)
    hotel = db.hotels.require(res.hotel_id)
    rt = _room_type(hotel, new_room_type_code)
    if rt.code == res.booked_room_type_code and res.upgrade is None:
        return res  # nothing to change
    days = _stay_days(res)
    holding = days if rt.code == res.room_type_code else []
    if _free(db, res.hotel_id, rt.code, days, holding) < 1:
        raise ToolError(f"{rt.name} is sold out on at least one night of the stay")
    _hold(db, res.hotel_id, res.room_type_code, days, -1)
    _hold(db, res.hotel_id, rt.code, days, +1)
    res.room_type_code = res.booked_room_type_code = rt.code
    res.upgrade = None
    res.nights = _nights(db, res.hotel_id, rt.code, days, res.rate_plan)
    res.room_subtotal, res.tax, res.total = price(res.nights, hotel.tax_rate)
    if res.rate_plan == "non_refundable":
        res.prepaid_amount = res.total
    return res


@DOMAIN.tool(write=True)
def apply_loyalty_upgrade(db: HospitalityDB, confirmation_number: Conf, new_room_type_code: RoomCode) -> Reservation:
    """Give a complimentary upgrade: the guest gets a higher-category room at the price already booked (recorded on the stay)."""
    res = _open_stay(db, confirmation_number)
    hotel = db.hotels.require(res.hotel_id)
    booked = _room_type(hotel, res.booked_room_type_code)
    target = _room_type(hotel, new_room_type_code)
    if target.code == res.room_type_code:
        return res  # already in that room
    steps = target.category - booked.category
    if steps < 1:
        raise ToolError(f"{target.name} is not a higher category than the booked {booked.name}")
    days = _stay_days(res)
    if _free(db, res.hotel_id, target.code, days) < 1:
        raise ToolError(f"{target.name} is not available on every night of the stay")
    _hold(db, res.hotel_id, res.room_type_code, days, -1)
    _hold(db, res.hotel_id, target.code, days, +1)
    res.upgrade = Upgrade(from_room_type=booked.code, to_room_type=target.code, categories=steps, granted_at=NOW_STAMP)
    res.room_type_code = target.code
    return res


@DOMAIN.tool(write=True)
def set_late_checkout(db: HospitalityDB, confirmation_number: Conf, checkout_time: Annotated[str, Field(description="the late checkout time, 24-hour HH:MM on the hour or half hour, such as '13:00'")]) -> Reservation:
    """Set a complimentary late checkout time on an upcoming or in-house stay."""
    res = _open_stay(db, confirmation_number)
    value = checkout_time.strip()
    try:
        hh, mm = value.split(":")
        minutes = int(hh) * 60 + int(mm)
        if len(hh) != 2 or mm not in ("00", "30") or minutes >= 24 * 60:
            raise ValueError
    except ValueError:
        raise ToolError("checkout_time must look like '13:00' or '13:30'") from None
    standard = db.hotels.require(res.hotel_id).check_out_time
    sh, sm = standard.split(":")
    if minutes <= int(sh) * 60 + int(sm):
        raise ToolError(f"the hotel's standard checkout is {standard}; a late checkout is later than that")
    res.late_checkout = value
    return res


@DOMAIN.tool(write=True)
def add_special_request(db: HospitalityDB, confirmation_number: Conf, request_type: Annotated[RequestType, Field(description="the kind of request")]) -> Reservation:
    """Add a special request (crib, rollaway bed, bedding, room placement, accessibility equipment, early check-in) to an upcoming or current stay."""
    res = _open_stay(db, confirmation_number)
    if not any(r.request_type == request_type for r in res.special_requests):
        res.special_requests.append(SpecialRequest(request_type=request_type, requested_at=NOW_STAMP))
    return res


@DOMAIN.tool(write=True)
def cancel_reservation(
    db: HospitalityDB,
    confirmation_number: Conf,
    reason: Annotated[CancelReason, Field(description="why the guest cancels")],
) -> Reservation:
    """Cancel a confirmed reservation, charging the rate plan's cancellation penalty and releasing the room."""
    res = _upcoming(db, confirmation_number)
    penalty = cancellation_penalty(res, db.hotels.require(res.hotel_id).time_zone)
    refund = round(res.prepaid_amount - min(penalty, res.prepaid_amount), 2)
    if res.rate_plan != "non_refundable" and penalty > 0:
        _new_txn(db, res, "cancellation_fee", penalty)
    if refund > 0:
        _new_txn(db, res, "refund", refund)
    _hold(db, res.hotel_id, res.room_type_code, _stay_days(res), -1)
    res.status = "cancelled"
    res.cancellation = Cancellation(cancelled_at=NOW_STAMP, reason=reason, penalty=penalty, refund=refund)
    return res


@DOMAIN.tool(write=True)
def log_feedback(
    db: HospitalityDB,
    confirmation_number: Conf,
    category: Annotated[FeedbackCategory, Field(description="what the complaint is about")],
) -> Feedback:
    """Open a feedback case for a completed or in-house stay."""
    res = db.reservations.require(confirmation_number)
    if res.status not in ("completed", "checked_in"):
        raise ToolError(f"reservation {res.confirmation_number} is {res.status}: there is no stay to give feedback on")
    fid = db.feedback.new_key("FB", res.confirmation_number, category)
    db.feedback[fid] = Feedback(feedback_id=fid, confirmation_number=res.confirmation_number, guest_id=res.guest_id,
                                category=category, status="open", created_at=NOW_STAMP)
    return db.feedback[fid]


@DOMAIN.tool(write=True)
def issue_compensation(
    db: HospitalityDB,
    feedback_id: Annotated[str, Field(description="the open feedback case being compensated, such as 'FB00051'")],
    kind: Annotated[Literal["points", "credit"], Field(description="loyalty points, or a statement credit to the stay's card")],
    amount: Annotated[float, Field(description="points (a whole number) or credit in dollars")],
) -> Compensation:
    """Compensate an open feedback case with points or a statement credit to the stay's card, and resolve the case."""
    fb = db.feedback.require(feedback_id)
    if fb.status != "open":
        raise ToolError(f"feedback case {fb.feedback_id} is already {fb.status}")
    res = db.reservations.require(fb.confirmation_number)
    if amount <= 0:
        raise ToolError("amount must be positive")
    if kind == "points":
        if amount != int(amount):
            raise ToolError("points must be a whole number")
        db.guests.require(res.guest_id).points_balance += int(amount)
    else:
        if round(amount, 2) != amount:
            raise ToolError("credit must be in whole cents")
        _new_txn(db, res, "compensation_credit", amount)
    cid = db.compensations.new_key("CP", fb.feedback_id)
    db.compensations[cid] = Compensation(compensation_id=cid, confirmation_number=res.confirmation_number, guest_id=res.guest_id,
                                         feedback_id=fb.feedback_id, kind=kind, amount=float(amount), created_at=NOW_STAMP)
    db.feedback.require(fb.feedback_id).status = "resolved"
    return db.compensations[cid]


# -- data invariants: the clock, ages, places and money the policy relies on -------------------
DOMAIN.invariants(
    not_after_now("guests", "member_since"),
    not_after_now("reservations", "booked_at"),
    not_after_now("reservations", "cancellation.cancelled_at"),
    not_after_now("transactions", "created_at"),
    not_after_now("feedback", "created_at"),
    not_after_now("compensations", "created_at"),
    area_codes_valid("guests", "phone"),
    area_codes_valid("hotels", "phone"),
    cents("transactions", "amount"),
    cents("reservations", "tax", computed=lambda rec, db: Decimal(str(rec.room_subtotal)) * Decimal(str(db.hotels[rec.hotel_id].tax_rate))),
)


@DOMAIN.invariant
def _party_fits_room(db: HospitalityDB, now: datetime) -> Iterator[str]:
    """every party fits the room it sleeps in (policy 4.2), an upgraded room included"""
    for key, res in db.reservations.items():
        room = next(rt for rt in db.hotels[res.hotel_id].room_types if rt.code == res.room_type_code)
        if res.adults + res.children > room.max_occupancy:
            yield f"reservations[{key!r}]: {res.adults + res.children} guests in a {room.code} for {room.max_occupancy}"


@DOMAIN.invariant
def _requests_fit_room(db: HospitalityDB, now: datetime) -> Iterator[str]:
    """special requests on file obey policy 8.2-8.4 (one of each, cribs, rollaways, roll-in showers)"""
    for key, res in db.reservations.items():
        room = next(rt for rt in db.hotels[res.hotel_id].room_types if rt.code == res.room_type_code)
        kinds = [r.request_type for r in res.special_requests]
        if len(kinds) != len(set(kinds)):
            yield f"reservations[{key!r}]: a request twice in {kinds}"
        if "crib" in kinds and not room.crib_allowed:
            yield f"reservations[{key!r}]: a crib in a {room.code}"
        if "rollaway_bed" in kinds and (room.category < 3 or res.adults + res.children >= room.max_occupancy):
            yield f"reservations[{key!r}]: a rollaway in a {room.code} for {res.adults + res.children}"
        if "accessible_roll_in_shower" in kinds and not room.accessible:
            yield f"reservations[{key!r}]: a roll-in shower in a {room.code}"


@DOMAIN.invariant
def _cards_unexpired(db: HospitalityDB, now: datetime) -> Iterator[str]:
    """cards on file are valid now (through the end of their expiry month)"""
    for key, guest in db.guests.items():
        for card in guest.cards:
            month, year = card.expires.split("/")
            if (2000 + int(year), int(month)) < (now.year, now.month):
                yield f"guests[{key!r}]: card {card.card_id} expired {card.expires}"


# Policy 2.3: the matching quote before every booking, change or cancellation whose price the guest hears.
DOMAIN.order("quote_stay", "create_reservation")
DOMAIN.order("quote_date_change", "change_reservation_dates")
DOMAIN.order("quote_room_change", "change_room_type")
DOMAIN.order("get_cancellation_quote", "cancel_reservation")
