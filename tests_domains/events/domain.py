"""Marrow & Finch Events, the attendee and venue desk: registrations, ticket tiers, transfers,
sessions and waitlists, accessibility and dietary requests, and corporate venue holds with
deposits. The policy fixes the current time: Monday 2026-06-01 10:00.

The tools refuse only what the data makes impossible (no such record, not this caller's, no seat
or room left, a ticket no longer valid). The policy's rules (cancellation and change deadlines,
tier and workshop eligibility, time clashes, how many holds or waitlists) are the agent's to apply.
Refunds, upgrade prices, fees and deposits are computed by the tools from the price schedule.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Annotated, Any

from pydantic import Field

from pytest_tau import Domain, ToolError
from pytest_tau.invariants import after_now, area_codes_valid, cents, not_after_now, ordered, plausible_age
from tests_domains.events.schema import (
    Access,
    Attendee,
    Dietary,
    Event,
    EventsDB,
    Hold,
    Payment,
    Registration,
    Session,
    TicketTier,
    WaitlistEntry,
)

DOMAIN = Domain("events", EventsDB, now=datetime(2026, 6, 1, 10, 0))

# The price schedule (what the tools compute, never what they refuse).
PROCESSING_FEE = 15.0  # kept from a cancellation refunded in full
TRANSFER_FEE = 20.0  # waived for VIP tickets
DEPOSIT_RATE = 0.30  # of the room's rental for the whole hold
HOLD_DAYS = 7  # a tentative hold lasts, and an extension adds, this many days

Code = Annotated[str, Field(description="the registration's confirmation code, e.g. 'MF-7KQ2ZD' (printed on the ticket)")]
SessionId = Annotated[str, Field(description="a session id, e.g. 'SES302101' (from list_sessions)")]
HoldId = Annotated[str, Field(description="a venue hold id, e.g. 'HLD-4TQ9M' (from list_holds)")]
IsoDate = Annotated[str, Field(description="a date as YYYY-MM-DD")]


# -- helpers ----------------------------------------------------------------------------------
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


def _days_before(event: Event) -> int:
    return (date.fromisoformat(event.start_date) - _today()).days


def _tier(event: Event, code: str) -> TicketTier:
    for tier in event.tiers:
        if tier.code == code.strip().lower():
            return tier
    raise ToolError(f"event {event.event_id} has no ticket tier {code[:40]!r}; its tiers are {', '.join(t.code for t in event.tiers)}")


def _registration(db: EventsDB, code: str) -> Registration:
    return db.registrations.require(code)


def _live(db: EventsDB, reg: Registration) -> Event:
    """The registration's event, when the ticket is still valid and the event still ahead."""
    if reg.status != "confirmed":
        raise ToolError(f"registration {reg.registration_id} is {reg.status}; it is no longer a valid ticket")
    event = db.events.require(reg.event_id)
    if event.status in ("completed", "cancelled"):
        raise ToolError(f"{event.name} is {event.status}")
    return event


def _card(db: EventsDB, reg: Registration) -> str | None:
    """The card the ticket was bought with: refunds go back to it."""
    origin = reg.transferred_from or reg.registration_id
    for payment in db.payments.where(registration_id=origin):
        if payment.kind == "ticket":
            return payment.card_last4
    return None


def _pay(db: EventsDB, kind: Any, amount: float, *key: Any, registration_id: str | None = None, hold_id: str | None = None,
         card: str | None = None) -> Payment:
    payment_id = db.payments.new_key("PAY", kind, registration_id, hold_id, *key)
    payment = Payment(payment_id=payment_id, registration_id=registration_id, hold_id=hold_id, kind=kind,
                      amount=_money(amount), date=_today().isoformat(), card_last4=card)
    db.payments[payment_id] = payment
    return payment


def _cancel_refund(reg: Registration, event: Event) -> dict[str, Any]:
    days = _days_before(event)
    start = date.fromisoformat(event.start_date)
    if days >= 30:
        band, refund = "full refund less the processing fee", max(0.0, reg.price_paid - PROCESSING_FEE)
    elif days >= 14:
        band, refund = "half refund", reg.price_paid * 0.5
    else:
        band, refund = "no refund", 0.0
    return {
        "days_before_event": days,
        "price_paid": reg.price_paid,
        "schedule_band": band,
        "refund_amount": _money(refund),
        "full_refund_until": (start - timedelta(days=30)).isoformat(),
        "half_refund_until": (start - timedelta(days=14)).isoformat(),
    }


def _waiting(db: EventsDB, session_id: str) -> list[WaitlistEntry]:
    # served in (joined_at, entry_id) order: entries made in one call share a time, and their ids
    # come from their content, so the order does not depend on which was written first
    return sorted((w for w in db.waitlist.where(session_id=session_id) if w.status == "waiting"),
                  key=lambda w: (w.joined_at, w.entry_id))


def _position(db: EventsDB, entry: WaitlistEntry) -> int:
    return 1 + [w.entry_id for w in _waiting(db, entry.session_id)].index(entry.entry_id)


def _session_view(db: EventsDB, s: Session) -> dict[str, Any]:
    view: dict[str, Any] = s.model_dump(mode="json")
    view["seats_left"] = max(0, s.capacity - s.enrolled)
    view["waitlist_length"] = len(_waiting(db, s.session_id))
    return view


def _hold_view(db: EventsDB, hold: Hold) -> dict[str, Any]:
    venue = db.venues.require(hold.venue_id)
    room = next((r for r in venue.rooms if r.code == hold.room_code), None)
    view: dict[str, Any] = hold.model_dump(mode="json")
    view["venue_name"] = venue.name
    view["room_name"] = room.name if room else None
    if hold.status == "tentative" and room is not None:
        view["deposit_to_confirm"] = _rental(room, date.fromisoformat(hold.start_date), date.fromisoformat(hold.end_date))["deposit_to_confirm"]
    return view


def _room(db: EventsDB, venue_id: str, room_code: str) -> tuple[Any, Any]:
    venue = db.venues.require(venue_id)
    for room in venue.rooms:
        if room.code == room_code.strip().upper():
            return venue, room
    raise ToolError(f"venue {venue.venue_id} has no room {room_code[:20]!r}; its rooms are {', '.join(r.code for r in venue.rooms)}")


def _span(start_date: str, end_date: str) -> tuple[date, date]:
    start, end = _date(start_date, "start date"), _date(end_date, "end date")
    if end < start:
        raise ToolError("the end date is before the start date")
    return start, end


def _conflicts(db: EventsDB, venue_id: str, room_code: str, start: date, end: date, ignore: str = "") -> list[dict[str, str]]:
    found = []
    for h in db.holds.where(venue_id=venue_id, room_code=room_code):
        if h.hold_id != ignore and h.status in ("tentative", "confirmed") and not (
            h.end_date < start.isoformat() or h.start_date > end.isoformat()
        ):
            found.append({"start_date": h.start_date, "end_date": h.end_date, "status": h.status})
    return sorted(found, key=lambda c: c["start_date"])


def _rental(room: Any, start: date, end: date) -> dict[str, Any]:
    days = (end - start).days + 1
    total = _money(room.day_rate * days)
    return {"days": days, "day_rate": room.day_rate, "rental_total": total, "deposit_to_confirm": _money(total * DEPOSIT_RATE)}


# -- attendees: look-ups -------------------------------------------------------------------------
@DOMAIN.tool(authenticates=True)
def find_attendee(
    db: EventsDB,
    email: Annotated[str, Field(description="the email address the attendee registered with")],
    first_name: str,
    last_name: str,
) -> dict[str, Any]:
    """Verify an attendee: find the person whose email and full name both match. Returns their
    profile and every registration they hold or held (confirmation code, event, tier, status)."""
    for person in db.attendees.find(email=email):
        if person.first_name.lower() == first_name.strip().lower() and person.last_name.lower() == last_name.strip().lower():
            regs = []
            for r in sorted(db.registrations.where(attendee_id=person.attendee_id), key=lambda r: r.registration_id):
                event = db.events.require(r.event_id)
                regs.append({"confirmation_code": r.registration_id, "event_id": event.event_id, "event_name": event.name,
                             "event_start_date": event.start_date, "tier_code": r.tier_code, "status": r.status})
            return {"attendee": person.model_dump(mode="json"), "registrations": regs}
    raise ToolError("no attendee matches that email and name; the caller is not verified")


@DOMAIN.tool
def get_registration(db: EventsDB, confirmation_code: Code) -> dict[str, Any]:
    """Return a registration: its holder, event, tier, price paid, status, dietary and accessibility
    requests, and the sessions it is enrolled in (with dates and times)."""
    reg = _registration(db, confirmation_code)
    event = db.events.require(reg.event_id)
    view: dict[str, Any] = reg.model_dump(mode="json")
    view["event_name"] = event.name
    view["event_start_date"] = event.start_date
    view["tier_name"] = next((t.name for t in event.tiers if t.code == reg.tier_code), reg.tier_code)
    view["session_details"] = [
        {k: s[k] for k in ("session_id", "title", "kind", "date", "start_time", "end_time", "room")}
        for s in (db.sessions.require(sid).model_dump() for sid in sorted(reg.sessions))
    ]
    return view


@DOMAIN.tool
def search_events(
    db: EventsDB,
    name: Annotated[str | None, Field(description="part of the event's name, case-insensitive")] = None,
    city: str | None = None,
    from_date: Annotated[str | None, Field(description="earliest start date, YYYY-MM-DD")] = None,
    to_date: Annotated[str | None, Field(description="latest start date, YYYY-MM-DD")] = None,
) -> list[dict[str, Any]]:
    """Search events by name, city and start-date range (at most 25, soonest first)."""
    needle = " ".join(name.split()).lower() if name else None
    hits = []
    for e in db.events.values():
        if needle and needle not in e.name.lower():
            continue
        if city and city.strip().lower() != e.city.lower():
            continue
        if from_date and e.start_date < from_date.strip():
            continue
        if to_date and e.start_date > to_date.strip():
            continue
        hits.append(e)
    hits.sort(key=lambda e: (e.start_date, e.event_id))
    return [{"event_id": e.event_id, "name": e.name, "kind": e.kind, "city": e.city, "start_date": e.start_date,
             "end_date": e.end_date, "status": e.status} for e in hits[:25]]


@DOMAIN.tool
def get_event(db: EventsDB, event_id: Annotated[str, Field(description="an event id, e.g. 'EVT3140'")]) -> dict[str, Any]:
    """Return an event: dates, doors-open time, venue, status, and its ticket tiers (price,
    whether workshops are included, whether the ticket is transferable, seats left)."""
    event = db.events.require(event_id)
    view: dict[str, Any] = event.model_dump(mode="json")
    venue = db.venues.get(event.venue_id)
    view["venue_name"] = venue.name if venue else None
    view["venue_address"] = venue.address if venue else None
    for tier in view["tiers"]:
        tier["seats_left"] = max(0, tier["capacity"] - tier["sold"])
    return view


@DOMAIN.tool
def list_sessions(db: EventsDB, event_id: Annotated[str, Field(description="an event id, e.g. 'EVT3140'")]) -> list[dict[str, Any]]:
    """List an event's sessions (talks, panels, workshops) with date, times, room, seats left and
    how many people are waiting for a seat."""
    event = db.events.require(event_id)
    sessions = sorted(db.sessions.where(event_id=event.event_id), key=lambda s: (s.date, s.start_time, s.session_id))
    return [_session_view(db, s) for s in sessions]


@DOMAIN.tool
def get_waitlist_status(db: EventsDB, confirmation_code: Code) -> list[dict[str, Any]]:
    """List a registration's waitlist entries with each waiting entry's current position (1 = next
    in line for a freed seat)."""
    reg = _registration(db, confirmation_code)
    out = []
    for w in sorted(db.waitlist.where(registration_id=reg.registration_id), key=lambda w: w.entry_id):
        session = db.sessions.require(w.session_id)
        view: dict[str, Any] = w.model_dump(mode="json")
        view["session_title"] = session.title
        view["position"] = _position(db, w) if w.status == "waiting" else None
        out.append(view)
    return out


# -- attendees: quotes ---------------------------------------------------------------------------
@DOMAIN.tool
def quote_cancellation(db: EventsDB, confirmation_code: Code) -> dict[str, Any]:
    """Preview cancelling a registration (nothing changes): the refund the schedule pays today, and
    the last days of the full and half refund bands."""
    reg = _registration(db, confirmation_code)
    event = _live(db, reg)
    return {"confirmation_code": reg.registration_id, "event_start_date": event.start_date, **_cancel_refund(reg, event)}


@DOMAIN.tool
def quote_tier_change(
    db: EventsDB, confirmation_code: Code, new_tier: Annotated[str, Field(description="the tier code to move to, e.g. 'vip'")]
) -> dict[str, Any]:
    """Preview moving a registration to another ticket tier (nothing changes): the new tier's price,
    the amount due (or refunded) against what was paid, and the seats left in that tier."""
    reg = _registration(db, confirmation_code)
    event = _live(db, reg)
    tier = _tier(event, new_tier)
    difference = _money(tier.price - reg.price_paid)
    return {"confirmation_code": reg.registration_id, "current_tier": reg.tier_code, "new_tier": tier.code,
            "price_paid": reg.price_paid, "new_tier_price": tier.price,
            "amount_due": max(0.0, difference), "amount_refunded": max(0.0, -difference),
            "seats_left_in_new_tier": max(0, tier.capacity - tier.sold), "includes_workshops": tier.includes_workshops}


@DOMAIN.tool
def quote_transfer(db: EventsDB, confirmation_code: Code) -> dict[str, Any]:
    """Preview handing a ticket to another person (nothing changes): the transfer fee, whether the
    tier is transferable, whether this ticket was itself received by transfer, and the last day
    a transfer can be made."""
    reg = _registration(db, confirmation_code)
    event = _live(db, reg)
    tier = _tier(event, reg.tier_code)
    start = date.fromisoformat(event.start_date)
    return {"confirmation_code": reg.registration_id, "tier_code": tier.code, "tier_transferable": tier.transferable,
            "received_by_transfer": reg.transferred_from is not None,
            "transfer_fee": 0.0 if tier.code == "vip" else TRANSFER_FEE,
            "last_transfer_date": (start - timedelta(days=2)).isoformat(), "event_start_date": event.start_date}


# -- attendees: changes --------------------------------------------------------------------------
@DOMAIN.tool(write=True)
def cancel_registration(db: EventsDB, confirmation_code: Code) -> dict[str, Any]:
    """Cancel a registration: the refund the schedule pays today goes back to the card the ticket
    was bought with; its sessions are released and its waitlist entries removed."""
    reg = _registration(db, confirmation_code)
    event = _live(db, reg)
    quote = _cancel_refund(reg, event)
    refund = quote["refund_amount"]
    for sid in sorted(reg.sessions):
        session = db.sessions.require(sid)
        session.enrolled = max(0, session.enrolled - 1)
    for w in list(db.waitlist.where(registration_id=reg.registration_id)):
        if w.status == "waiting":
            db.waitlist.require(w.entry_id).status = "removed"
    tier = _tier(event, reg.tier_code)  # _live returned this environment's own copy
    tier.sold = max(0, tier.sold - 1)
    reg.status, reg.sessions, reg.cancelled_on, reg.refund_amount = "cancelled", [], _today().isoformat(), refund
    payment = _pay(db, "refund", refund, registration_id=reg.registration_id, card=_card(db, reg)) if refund > 0 else None
    return {"registration": reg, "refund_amount": refund, "refund_payment": payment}


@DOMAIN.tool(write=True)
def change_tier(
    db: EventsDB, confirmation_code: Code, new_tier: Annotated[str, Field(description="the tier code to move to, e.g. 'vip'")]
) -> dict[str, Any]:
    """Move a registration to another ticket tier of its event. The difference against what was
    paid is charged (or refunded) to the ticket's card; the price paid becomes the new tier's price."""
    reg = _registration(db, confirmation_code)
    event = _live(db, reg)
    target = _tier(event, new_tier)
    if target.code == reg.tier_code:
        raise ToolError(f"registration {reg.registration_id} is already in tier {target.code}")
    if target.sold >= target.capacity:
        raise ToolError(f"the {target.name} tier of {event.name} has no seats left")
    _tier(event, reg.tier_code).sold -= 1  # _live returned this environment's own copy
    target.sold += 1
    difference = _money(target.price - reg.price_paid)
    payment = None
    if difference > 0:
        payment = _pay(db, "upgrade", difference, target.code, registration_id=reg.registration_id, card=_card(db, reg))
    elif difference < 0:
        payment = _pay(db, "refund", -difference, target.code, registration_id=reg.registration_id, card=_card(db, reg))
    reg.tier_code, reg.price_paid = target.code, target.price
    return {"registration": reg, "amount_charged": max(0.0, difference), "amount_refunded": max(0.0, -difference), "payment": payment}


@DOMAIN.tool(write=True)
def transfer_registration(
    db: EventsDB,
    confirmation_code: Code,
    recipient_first_name: str,
    recipient_last_name: str,
    recipient_email: Annotated[str, Field(description="the new attendee's email address")],
) -> dict[str, Any]:
    """Hand a ticket to another person. The old confirmation code stops being valid; the recipient
    gets a new registration (same tier and sessions, a new confirmation code). Waitlist entries do
    not move. The transfer fee (none for VIP tickets) is charged to the original ticket's card."""
    reg = _registration(db, confirmation_code)
    event = _live(db, reg)
    email = recipient_email.strip().lower()
    if email.count("@") != 1 or "." not in email.split("@")[1]:
        raise ToolError(f"{recipient_email[:60]!r} is not a valid email address")
    first, last = " ".join(recipient_first_name.split()), " ".join(recipient_last_name.split())
    if not first or not last:
        raise ToolError("the recipient's first and last name are both needed")
    found = db.attendees.find(email=email)
    if found:
        person = found[0]
        if person.first_name.lower() != first.lower() or person.last_name.lower() != last.lower():
            raise ToolError(f"{email} belongs to another attendee on file, not {first} {last}")
        if any(r.status == "confirmed" for r in db.registrations.where(attendee_id=person.attendee_id, event_id=event.event_id)):
            raise ToolError(f"{first} {last} already holds a ticket for {event.name}")
        if person.attendee_id == reg.attendee_id:
            raise ToolError("the recipient already holds this ticket")
        attendee_id = person.attendee_id
    else:
        attendee_id = db.attendees.new_key("ATT", email)
        db.attendees[attendee_id] = Attendee(attendee_id=attendee_id, first_name=first, last_name=last, email=email)
    new_id = db.registrations.new_key("MF-", reg.registration_id, email, length=6)
    new = Registration(
        registration_id=new_id, event_id=reg.event_id, attendee_id=attendee_id, tier_code=reg.tier_code, status="confirmed",
        price_paid=reg.price_paid, purchased_on=reg.purchased_on, sessions=list(reg.sessions), dietary="none",
        accessibility=[], notes="", transferred_from=reg.registration_id,
    )
    db.registrations[new_id] = new
    for w in list(db.waitlist.where(registration_id=reg.registration_id)):
        if w.status == "waiting":
            db.waitlist.require(w.entry_id).status = "removed"
    fee = 0.0 if reg.tier_code == "vip" else TRANSFER_FEE
    payment = _pay(db, "transfer_fee", fee, email, registration_id=reg.registration_id, card=_card(db, reg)) if fee else None
    reg.status, reg.transferred_to, reg.sessions = "transferred", new_id, []
    return {"new_registration": new, "new_confirmation_code": new_id, "old_registration": reg, "fee_charged": fee, "payment": payment}


@DOMAIN.tool(write=True)
def enroll_session(db: EventsDB, confirmation_code: Code, session_id: SessionId) -> dict[str, Any]:
    """Give a registration a seat in one of its event's sessions (when a seat is free). A waiting
    waitlist entry for that session is marked enrolled."""
    reg = _registration(db, confirmation_code)
    event = _live(db, reg)
    session = db.sessions.require(session_id)
    if session.event_id != event.event_id:
        raise ToolError(f"session {session.session_id} belongs to another event")
    if session.session_id in reg.sessions:
        raise ToolError(f"registration {reg.registration_id} is already enrolled in {session.session_id}")
    if session.enrolled >= session.capacity:
        raise ToolError(f"session {session.session_id} is full ({session.capacity} of {session.capacity} seats taken)")
    session.enrolled += 1
    reg.sessions = [*reg.sessions, session.session_id]
    for w in list(db.waitlist.where(registration_id=reg.registration_id, session_id=session.session_id)):
        if w.status == "waiting":
            db.waitlist.require(w.entry_id).status = "enrolled"
    return {"registration_id": reg.registration_id, "session": _session_view(db, session), "sessions": sorted(reg.sessions)}


@DOMAIN.tool(write=True)
def drop_session(db: EventsDB, confirmation_code: Code, session_id: SessionId) -> dict[str, Any]:
    """Give up a registration's seat in a session (the events team offers it to the waitlist)."""
    reg = _registration(db, confirmation_code)
    _live(db, reg)
    session = db.sessions.require(session_id)
    if session.session_id not in reg.sessions:
        raise ToolError(f"registration {reg.registration_id} is not enrolled in {session.session_id}")
    session.enrolled = max(0, session.enrolled - 1)
    reg.sessions = [s for s in reg.sessions if s != session.session_id]
    return {"registration_id": reg.registration_id, "session": _session_view(db, session), "sessions": sorted(reg.sessions)}


@DOMAIN.tool(write=True)
def join_waitlist(db: EventsDB, confirmation_code: Code, session_id: SessionId) -> dict[str, Any]:
    """Put a registration on a session's waitlist. Returns the entry and its position."""
    reg = _registration(db, confirmation_code)
    event = _live(db, reg)
    session = db.sessions.require(session_id)
    if session.event_id != event.event_id:
        raise ToolError(f"session {session.session_id} belongs to another event")
    if session.session_id in reg.sessions:
        raise ToolError(f"registration {reg.registration_id} already has a seat in {session.session_id}")
    if any(w.status == "waiting" for w in db.waitlist.where(registration_id=reg.registration_id, session_id=session.session_id)):
        raise ToolError(f"registration {reg.registration_id} is already waiting for {session.session_id}")
    entry_id = db.waitlist.new_key("WL-", session.session_id, reg.registration_id)
    entry = WaitlistEntry(entry_id=entry_id, session_id=session.session_id, registration_id=reg.registration_id,
                          joined_at=_stamp(), status="waiting")
    db.waitlist[entry_id] = entry
    return {"entry": entry, "session_title": session.title, "position": _position(db, entry)}


@DOMAIN.tool(write=True)
def leave_waitlist(db: EventsDB, confirmation_code: Code, session_id: SessionId) -> WaitlistEntry:
    """Take a registration off a session's waitlist."""
    reg = _registration(db, confirmation_code)
    for w in db.waitlist.where(registration_id=reg.registration_id, session_id=session_id.strip()):
        if w.status == "waiting":
            entry = db.waitlist.require(w.entry_id)
            entry.status = "removed"
            return entry
    raise ToolError(f"registration {reg.registration_id} is not waiting for session {session_id[:20]!r}")


@DOMAIN.tool(write=True)
def update_requests(
    db: EventsDB,
    confirmation_code: Code,
    dietary: Annotated[Dietary | None, Field(description="the meal requirement to record (replaces the current one)")] = None,
    add_accessibility: Annotated[list[Access] | None, Field(description="accessibility requests to add")] = None,
    remove_accessibility: Annotated[list[Access] | None, Field(description="accessibility requests to remove")] = None,
) -> Registration:
    """Record a registration's meal requirement and add or remove accessibility requests."""
    reg = _registration(db, confirmation_code)
    _live(db, reg)
    add, remove = set(add_accessibility or []), set(remove_accessibility or [])
    if dietary is None and not add and not remove:
        raise ToolError("nothing to change: give a dietary requirement or accessibility requests")
    if add & remove:
        raise ToolError("the same request cannot be both added and removed")
    missing = remove - set(reg.accessibility)
    if missing:
        raise ToolError(f"registration {reg.registration_id} has no {', '.join(sorted(missing))} request to remove")
    if dietary is not None:
        reg.dietary = dietary
    reg.accessibility = sorted((set(reg.accessibility) | add) - remove)
    return reg


# -- corporate clients and venue holds ----------------------------------------------------------
@DOMAIN.tool(authenticates=True)
def find_client(
    db: EventsDB,
    company: Annotated[str, Field(description="the client company's name")],
    contact_email: Annotated[str, Field(description="the email of the company's contact on file")],
) -> dict[str, Any]:
    """Verify a corporate caller: the client whose company name and contact email both match."""
    for client in db.clients.find(contact_email=contact_email):
        if " ".join(client.company.lower().split()) == " ".join(company.lower().split()):
            return client.model_dump(mode="json")
    raise ToolError("no client matches that company and contact email; the caller is not verified")


@DOMAIN.tool
def list_holds(db: EventsDB, client_id: Annotated[str, Field(description="the client's id, e.g. 'CLI617' (from find_client)")]) -> list[dict[str, Any]]:
    """List a client's venue holds (tentative, confirmed, released, expired) with venue and room
    names; a tentative hold also shows the deposit that confirming it would take."""
    client = db.clients.require(client_id)
    holds = sorted(db.holds.where(client_id=client.client_id), key=lambda h: (h.start_date, h.hold_id))
    return [_hold_view(db, h) for h in holds]


@DOMAIN.tool
def find_venue(db: EventsDB, name: Annotated[str, Field(description="part of the venue's name, case-insensitive")]) -> list[dict[str, Any]]:
    """Find venues by name, with their city, address and rooms (code, name, capacity, day rate)."""
    needle = " ".join(name.split()).lower()
    if not needle:
        raise ToolError("give part of the venue's name")
    return [v.model_dump(mode="json") for v in sorted(db.venues.values(), key=lambda v: v.venue_id) if needle in v.name.lower()]


@DOMAIN.tool
def check_room(
    db: EventsDB,
    venue_id: Annotated[str, Field(description="a venue id, e.g. 'VEN112' (from find_venue)")],
    room_code: Annotated[str, Field(description="the room's code at that venue, e.g. 'R2'")],
    start_date: IsoDate,
    end_date: IsoDate,
) -> dict[str, Any]:
    """Check a room for a date range (nothing is held): whether it is free, the dates of any holds
    in the way, the rental for the whole range, the deposit that confirming it would take, and
    when a tentative hold placed today would expire."""
    venue, room = _room(db, venue_id, room_code)
    start, end = _span(start_date, end_date)
    conflicts = _conflicts(db, venue.venue_id, room.code, start, end)
    return {"venue_id": venue.venue_id, "room_code": room.code, "room_name": room.name, "capacity": room.capacity,
            "start_date": start.isoformat(), "end_date": end.isoformat(), "available": not conflicts, "conflicts": conflicts,
            "days_from_today": (start - _today()).days, **_rental(room, start, end),
            "tentative_hold_expires_on": (_today() + timedelta(days=HOLD_DAYS)).isoformat()}


@DOMAIN.tool(write=True)
def place_hold(
    db: EventsDB,
    client_id: Annotated[str, Field(description="the client's id (from find_client)")],
    venue_id: Annotated[str, Field(description="a venue id (from find_venue)")],
    room_code: Annotated[str, Field(description="the room's code at that venue, e.g. 'R2'")],
    start_date: IsoDate,
    end_date: IsoDate,
    guests: Annotated[int, Field(description="expected number of guests")],
) -> dict[str, Any]:
    """Place a free tentative hold on a room for a date range; it expires after a week unless
    confirmed or extended."""
    client = db.clients.require(client_id)
    venue, room = _room(db, venue_id, room_code)
    start, end = _span(start_date, end_date)
    if start <= _today():
        raise ToolError("the start date has already passed")
    if not 0 < guests <= room.capacity:
        raise ToolError(f"{room.name} seats between 1 and {room.capacity} guests")
    if _conflicts(db, venue.venue_id, room.code, start, end):
        raise ToolError(f"{room.name} at {venue.name} is already held on some of those dates")
    hold_id = db.holds.new_key("HLD-", client.client_id, venue.venue_id, room.code, start, end, length=5)
    hold = Hold(hold_id=hold_id, client_id=client.client_id, venue_id=venue.venue_id, room_code=room.code,
                start_date=start.isoformat(), end_date=end.isoformat(), guests=guests, status="tentative",
                placed_on=_today().isoformat(), expires_on=(_today() + timedelta(days=HOLD_DAYS)).isoformat())
    db.holds[hold_id] = hold
    return {"hold": _hold_view(db, hold), **_rental(room, start, end)}


def _client_hold(db: EventsDB, hold_id: str) -> Hold:
    return db.holds.require(hold_id)


@DOMAIN.tool(write=True)
def extend_hold(db: EventsDB, hold_id: HoldId) -> dict[str, Any]:
    """Push a tentative hold's expiry a week later."""
    hold = _client_hold(db, hold_id)
    if hold.status != "tentative" or hold.expires_on is None:
        raise ToolError(f"hold {hold.hold_id} is {hold.status}; only a tentative hold has an expiry")
    hold.expires_on = (date.fromisoformat(hold.expires_on) + timedelta(days=HOLD_DAYS)).isoformat()
    hold.extended = True
    return _hold_view(db, hold)


@DOMAIN.tool(write=True)
def confirm_hold(db: EventsDB, hold_id: HoldId) -> dict[str, Any]:
    """Confirm a tentative hold as a booking: the deposit (a share of the whole rental) is invoiced
    to the client and recorded as paid."""
    hold = _client_hold(db, hold_id)
    if hold.status != "tentative":
        raise ToolError(f"hold {hold.hold_id} is {hold.status}, not tentative")
    _, room = _room(db, hold.venue_id, hold.room_code)
    rental = _rental(room, date.fromisoformat(hold.start_date), date.fromisoformat(hold.end_date))
    hold.status, hold.expires_on = "confirmed", None
    hold.deposit, hold.deposit_paid_on = rental["deposit_to_confirm"], _today().isoformat()
    payment = _pay(db, "deposit", hold.deposit, hold_id=hold.hold_id)
    return {"hold": _hold_view(db, hold), "deposit_charged": hold.deposit, "rental_total": rental["rental_total"], "payment": payment}


def _release_terms(hold: Hold) -> dict[str, Any]:
    start = date.fromisoformat(hold.start_date)
    days = (start - _today()).days
    if hold.status == "tentative":
        share = 0.0
    elif days >= 90:
        share = 1.0
    elif days >= 45:
        share = 0.5
    else:
        share = 0.0
    return {"hold_id": hold.hold_id, "status": hold.status, "days_before_start": days, "deposit_paid": hold.deposit,
            "deposit_refund": _money(hold.deposit * share),
            "full_deposit_refund_until": (start - timedelta(days=90)).isoformat(),
            "half_deposit_refund_until": (start - timedelta(days=45)).isoformat()}


@DOMAIN.tool
def quote_hold_release(db: EventsDB, hold_id: HoldId) -> dict[str, Any]:
    """Preview releasing a hold (nothing changes): how much of the deposit the schedule returns
    today, and the last days of the full and half deposit refund bands."""
    hold = _client_hold(db, hold_id)
    if hold.status not in ("tentative", "confirmed"):
        raise ToolError(f"hold {hold.hold_id} is already {hold.status}")
    return _release_terms(hold)


@DOMAIN.tool(write=True)
def release_hold(db: EventsDB, hold_id: HoldId) -> dict[str, Any]:
    """Release a tentative or confirmed hold; the room becomes free and the share of the deposit
    the schedule returns today is refunded."""
    hold = _client_hold(db, hold_id)
    if hold.status not in ("tentative", "confirmed"):
        raise ToolError(f"hold {hold.hold_id} is already {hold.status}")
    terms = _release_terms(hold)
    hold.status, hold.released_on, hold.expires_on = "released", _today().isoformat(), None
    hold.deposit_refund = terms["deposit_refund"] if terms["deposit_paid"] else None
    payment = _pay(db, "deposit_refund", terms["deposit_refund"], hold_id=hold.hold_id) if terms["deposit_refund"] > 0 else None
    return {"hold": _hold_view(db, hold), "deposit_refund": terms["deposit_refund"], "payment": payment}



# -- data invariants: holds paid inside their refund schedule, tickets bought before use ----
DOMAIN.invariants(
    not_after_now("registrations", "purchased_on"),
    not_after_now("registrations", "cancelled_on"),
    ordered("registrations", "purchased_on", "cancelled_on"),
    not_after_now("payments", "date"),
    not_after_now("holds", "placed_on"),
    not_after_now("holds", "deposit_paid_on"),
    not_after_now("holds", "released_on"),
    ordered("holds", "placed_on", "deposit_paid_on"),
    ordered("holds", "placed_on", "released_on"),
    ordered("holds", "start_date", "end_date"),
    ordered("events", "start_date", "end_date"),
    after_now("holds", "start_date", where=lambda hold: hold.status == "tentative"),
    plausible_age("attendees", "date_of_birth", low=13, high=100),
    cents("payments", "amount"),
    cents("holds", "deposit"),
    area_codes_valid("attendees", "phone"),
    area_codes_valid("clients", "phone"),
)


@DOMAIN.invariant
def _holds_paid_before_full_refund_ends(db: EventsDB, now: datetime) -> Any:
    """confirmed holds paid while the full deposit refund still stood (90 days before the start)"""
    for key, hold in db.holds.items():
        if hold.deposit_paid_on and date.fromisoformat(hold.deposit_paid_on) > date.fromisoformat(hold.start_date) - timedelta(days=90):
            yield f"holds[{key!r}]: deposit paid {hold.deposit_paid_on}, after the full refund ended (start {hold.start_date})"


# Policy 2.1: the figure a change costs or returns is heard before the change, read from its quote.
DOMAIN.order("quote_cancellation", "cancel_registration")
DOMAIN.order("quote_tier_change", "change_tier")
DOMAIN.order("quote_transfer", "transfer_registration")
DOMAIN.order("quote_hold_release", "release_hold")
DOMAIN.order("list_holds", "confirm_hold")  # 2.1/8.4: the deposit list_holds shows is heard before confirming
DOMAIN.order("check_room", "place_hold")  # 8.1: the room is checked for the exact dates first
