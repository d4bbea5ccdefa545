"""Marrow & Finch Events, the attendee and venue desk: the database (pydantic models, one table per field).

Attendees hold registrations (one ticket tier each) for events; events have tiers with capacity and
sessions with seats; a full session has a waitlist whose positions are computed when asked, never stored.
Corporate clients put holds on venue rooms and pay deposits to confirm them; every charge and refund is
a payment record.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, Formatted, FreeText, Table, Unordered

Dietary = Literal["none", "vegetarian", "vegan", "gluten_free", "halal", "kosher", "nut_allergy", "dairy_free"]
Access = Literal[
    "wheelchair_seating", "step_free_access", "hearing_loop", "sign_language_interpreter", "large_print", "companion_seat"
]


class Attendee(BaseModel):
    attendee_id: str
    first_name: Formatted
    last_name: Formatted
    email: str
    phone: str | None = None  # None for someone who only received a transferred ticket
    date_of_birth: Confidential[str | None] = None  # YYYY-MM-DD
    city: str | None = None


class TicketTier(BaseModel):
    code: str  # e.g. "general", "vip"
    name: str
    price: float
    capacity: int
    sold: int
    includes_workshops: bool
    transferable: bool


class Event(BaseModel):
    event_id: str
    name: str
    kind: Literal["conference", "festival", "expo", "summit", "gala"]
    venue_id: str
    city: str
    start_date: str  # YYYY-MM-DD, first day
    end_date: str
    doors_open: str  # HH:MM on the first day
    status: Literal["on_sale", "sold_out", "completed", "cancelled"]
    tiers: list[TicketTier]


class Session(BaseModel):
    session_id: str
    event_id: str
    title: str
    kind: Literal["talk", "workshop", "panel"]
    speaker: str
    room: str
    date: str  # YYYY-MM-DD
    start_time: str  # HH:MM
    end_time: str  # HH:MM
    capacity: int
    enrolled: int


class Registration(BaseModel):
    registration_id: str  # the confirmation code printed on the ticket
    event_id: str
    attendee_id: str
    tier_code: str
    status: Literal["confirmed", "cancelled", "transferred"]
    price_paid: float
    purchased_on: str
    sessions: Unordered[str]
    dietary: Dietary
    accessibility: Unordered[Access]
    notes: FreeText  # the attendee's own words when they booked
    transferred_from: str | None = None
    transferred_to: str | None = None
    cancelled_on: str | None = None
    refund_amount: float | None = None


class WaitlistEntry(BaseModel):
    entry_id: str
    session_id: str
    registration_id: str
    joined_at: str  # YYYY-MM-DDTHH:MM; the waitlist is served in (joined_at, entry_id) order
    status: Literal["waiting", "enrolled", "removed"]


class Payment(BaseModel):
    payment_id: str
    registration_id: str | None = None
    hold_id: str | None = None
    kind: Literal["ticket", "upgrade", "transfer_fee", "refund", "deposit", "deposit_refund"]
    amount: float  # always positive; kind says the direction
    date: str
    card_last4: str | None = None  # None: invoiced to a corporate client


class Client(BaseModel):
    client_id: str
    company: str
    contact_first_name: str
    contact_last_name: str
    contact_email: str
    phone: str
    account_notes: Confidential[str]  # the account team's internal notes: never told to any caller


class Room(BaseModel):
    code: str
    name: str
    capacity: int
    day_rate: float


class Venue(BaseModel):
    venue_id: str
    name: str
    city: str
    address: str
    rooms: list[Room]


class Hold(BaseModel):
    hold_id: str
    client_id: str
    venue_id: str
    room_code: str
    start_date: str
    end_date: str
    guests: int
    status: Literal["tentative", "confirmed", "released", "expired"]
    placed_on: str
    expires_on: str | None = None  # tentative holds only
    extended: bool = False
    deposit: float = 0.0
    deposit_paid_on: str | None = None
    released_on: str | None = None
    deposit_refund: float | None = None


class EventsDB(BaseModel):
    attendees: Table[Attendee]
    events: Table[Event]
    sessions: Table[Session]
    registrations: Table[Registration]
    waitlist: Table[WaitlistEntry]
    payments: Table[Payment]
    clients: Table[Client]
    venues: Table[Venue]
    holds: Table[Hold]
