"""Alder & Vane Hotels reservations desk: the DB schema and the pricing rules shared by
the tools and the generator."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, Table, Unordered
from pytest_tau.invariants import half_up

# The desk's fixed "now" (Eastern time), as stated in the policy; DOMAIN.now in the tools.
NOW = datetime(2026, 5, 15, 14, 0)
ARRIVAL_HOUR = 15  # check-in time used to count hours before arrival
WINDOW_START = NOW.date()
WINDOW_DAYS = 60
WINDOW_END = WINDOW_START + timedelta(days=WINDOW_DAYS - 1)  # last bookable night

# The desk works on Eastern time; a hotel's own clock (check-in, checkout) is its local time.
TimeZone = Literal["Eastern", "Central", "Mountain", "Pacific"]
HOURS_BEHIND_EASTERN: dict[str, int] = {"Eastern": 0, "Central": 1, "Mountain": 2, "Pacific": 3}

Tier = Literal["member", "silver", "gold", "platinum"]
RatePlan = Literal["flexible", "semi_flex", "non_refundable"]
PLAN_FACTOR: dict[str, float] = {"flexible": 1.0, "semi_flex": 0.9, "non_refundable": 0.8}
# Complimentary upgrade: how many categories up a tier may go.
UPGRADE_CATEGORIES: dict[str, int] = {"member": 0, "silver": 0, "gold": 1, "platinum": 2}
# Latest complimentary late checkout per tier (standard checkout is 11:00).
LATE_CHECKOUT_LIMIT: dict[str, str] = {"member": "11:00", "silver": "12:00", "gold": "14:00", "platinum": "16:00"}
# Compensation caps per tier: statement credit in dollars, or points (100 points = $1).
CREDIT_CAP: dict[str, float] = {"member": 40.0, "silver": 60.0, "gold": 100.0, "platinum": 150.0}
STAY_SHARE_CAP = 0.20  # compensation never exceeds 20% of the stay total


class RoomType(BaseModel):
    code: str
    name: str
    category: int  # 1 (standard) .. 5 (executive suite)
    bed: str
    max_occupancy: int
    crib_allowed: bool
    accessible: bool


class Hotel(BaseModel):
    hotel_id: str
    name: str
    city: str
    state: str
    address: str
    zip: str
    phone: str
    tax_rate: float
    time_zone: TimeZone  # the hotel's local time, which its check-in and checkout times are in
    check_in_time: str
    check_out_time: str
    amenities: list[str]
    room_types: list[RoomType]
    duty_manager_line: Confidential[str]  # staff escalations only: guests use the hotel's main number (policy 12.1)


class InventoryDay(BaseModel):
    inventory_id: str  # "<hotel_id>:<room type>:<date>"
    hotel_id: str
    room_type_code: str
    date: str
    total_rooms: int
    rooms_sold: int
    rate: float  # flexible nightly rate; semi_flex and non_refundable are derived


class PaymentCard(BaseModel):
    card_id: str
    brand: Literal["visa", "mastercard", "amex", "discover"]
    last4: str
    expires: str


class Guest(BaseModel):
    guest_id: str
    first_name: str
    last_name: str
    email: str
    phone: str
    zip: str
    loyalty_number: str
    tier: Tier
    points_balance: int
    member_since: str
    cards: list[PaymentCard]
    profile_notes: Confidential[str] = ""  # the hotels' internal guest history: never told to anyone (policy 12.2)


class Night(BaseModel):
    date: str
    rate: float


class SpecialRequest(BaseModel):
    request_type: str
    requested_at: str


class Upgrade(BaseModel):
    from_room_type: str
    to_room_type: str
    categories: int
    granted_at: str


class Cancellation(BaseModel):
    cancelled_at: str
    reason: str
    penalty: float
    refund: float


class Reservation(BaseModel):
    confirmation_number: str
    guest_id: str
    hotel_id: str
    room_type_code: str  # the room the guest will get (after any upgrade)
    booked_room_type_code: str  # the room the rate is for
    rate_plan: RatePlan
    check_in: str
    check_out: str
    adults: int
    children: int
    nights: list[Night]
    room_subtotal: float
    tax: float
    total: float
    prepaid_amount: float
    payment_card_id: str
    status: Literal["confirmed", "checked_in", "completed", "cancelled", "no_show"]
    late_checkout: str | None = None
    special_requests: Unordered[SpecialRequest] = []
    upgrade: Upgrade | None = None
    cancellation: Cancellation | None = None
    booked_at: str
    channel: Literal["website", "app", "phone", "travel_agent"]
    desk_remarks: Confidential[str] = ""  # internal remarks (payment screening, oversell plans): never told (policy 12.2)


class Transaction(BaseModel):
    transaction_id: str
    confirmation_number: str
    guest_id: str
    kind: Literal["prepayment", "room_charge", "cancellation_fee", "compensation_credit", "refund"]
    amount: float
    card_id: str
    created_at: str


class Feedback(BaseModel):
    feedback_id: str
    confirmation_number: str
    guest_id: str
    category: Literal["cleanliness", "noise", "maintenance", "service", "billing", "amenities"]
    status: Literal["open", "resolved"]
    created_at: str


class Compensation(BaseModel):
    compensation_id: str
    confirmation_number: str
    guest_id: str
    feedback_id: str
    kind: Literal["points", "credit"]
    amount: float  # dollars for credit, points for points
    created_at: str


class HospitalityDB(BaseModel):
    hotels: Table[Hotel]
    inventory: Table[InventoryDay]
    guests: Table[Guest]
    reservations: Table[Reservation]
    transactions: Table[Transaction]
    feedback: Table[Feedback]
    compensations: Table[Compensation]


# -- shared pricing helpers ---------------------------------------------------------
def inventory_id(hotel_id: str, code: str, day: str) -> str:
    return f"{hotel_id}:{code}:{day}"


def nights_between(check_in: date, check_out: date) -> list[date]:
    return [check_in + timedelta(days=i) for i in range((check_out - check_in).days)]


def plan_rate(flexible_rate: float, plan: str) -> float:
    return round(flexible_rate * PLAN_FACTOR[plan], 2)


def price(nights: list[Night], tax_rate: float) -> tuple[float, float, float]:
    subtotal = round(sum(n.rate for n in nights), 2)
    tax = room_tax(subtotal, tax_rate)
    return subtotal, tax, round(subtotal + tax, 2)


def room_tax(subtotal: float, tax_rate: float) -> float:
    """Occupancy tax on a room subtotal, rounded as a folio is: half a cent goes up."""
    return float(half_up(Decimal(str(subtotal)) * Decimal(str(tax_rate))))


def hours_before_arrival(check_in: date, time_zone: str) -> int:
    """Whole hours from now (Eastern) to 15:00 hotel time on the check-in date: a hotel on
    Pacific time reaches its 15:00 three hours after one on Eastern time."""
    return (check_in - NOW.date()).days * 24 + (ARRIVAL_HOUR + HOURS_BEHIND_EASTERN[time_zone] - NOW.hour)


def cancellation_penalty(res: Reservation, time_zone: str) -> float:
    """The penalty for cancelling now, by rate plan (see policy section 6)."""
    hours = hours_before_arrival(date.fromisoformat(res.check_in), time_zone)
    if res.rate_plan == "non_refundable":
        return res.total
    if res.rate_plan == "flexible":
        return 0.0 if hours >= 48 else res.nights[0].rate
    return 0.0 if hours >= 168 else round(res.room_subtotal * 0.5, 2)


def compensation_caps(tier: str, stay_total: float) -> tuple[float, int]:
    """(credit cap in dollars, points cap) for one stay."""
    credit = round(min(CREDIT_CAP[tier], STAY_SHARE_CAP * stay_total), 2)
    return credit, round(credit * 100)
