"""The airline reservation desk's database: airports, flights with dated instances, users, reservations."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from pytest_tau import Confidential, Table, Unordered

Cabin = Literal["basic_economy", "economy", "business"]
Membership = Literal["regular", "silver", "gold"]
FlightStatus = Literal["available", "delayed", "cancelled", "landed", "flying"]


class Airport(BaseModel):
    code: str
    name: str
    city: str
    state: str


class CabinSeats(BaseModel):
    basic_economy: int
    economy: int
    business: int


class CabinPrices(BaseModel):
    basic_economy: float
    economy: float
    business: float


class FlightDate(BaseModel):
    """One flight on one date."""

    status: FlightStatus
    available_seats: CabinSeats
    prices: CabinPrices
    estimated_departure_time_est: str | None = None
    estimated_arrival_time_est: str | None = None
    actual_departure_time_est: str | None = None
    actual_arrival_time_est: str | None = None


class Flight(BaseModel):
    flight_number: str
    origin: str
    destination: str
    scheduled_departure_time_est: str  # "HH:MM"
    scheduled_arrival_time_est: str  # "HH:MM"
    arrives_next_day: bool
    aircraft: str
    dates: dict[str, FlightDate]  # "YYYY-MM-DD" -> instance


class Name(BaseModel):
    first_name: str
    last_name: str


class Address(BaseModel):
    address1: str
    address2: str | None = None
    city: str
    state: str
    zip: str
    country: str


class PaymentMethod(BaseModel):
    id: str
    source: Literal["credit_card", "gift_card", "certificate"]
    brand: str | None = None  # credit cards
    last_four: str | None = None  # credit cards
    amount: float | None = None  # remaining balance of a gift card or value of a certificate


class Passenger(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a tool argument too: an unknown field is an error, not ignored

    first_name: str
    last_name: str
    dob: str  # YYYY-MM-DD


class User(BaseModel):
    user_id: str
    name: Name
    email: str
    phone: str
    dob: Confidential[str]
    address: Address
    membership: Membership
    member_since: str
    payment_methods: dict[str, PaymentMethod]
    saved_passengers: list[Passenger]
    reservations: Unordered[str]  # codes, appended by independent bookings
    # The desk's internal remark from the latest contact (dated, with the agent): read it, never tell it (policy).
    agent_remarks: Confidential[str]


class ReservationFlight(BaseModel):
    flight_number: str
    date: str
    origin: str
    destination: str
    price: float  # per passenger, in the reservation's cabin


class PaymentRecord(BaseModel):
    payment_id: str
    amount: float  # negative for refunds
    kind: Literal["booking", "change", "baggage", "refund"]
    date: str  # YYYY-MM-DD


class Reservation(BaseModel):
    reservation_id: str
    user_id: str
    origin: str
    destination: str
    trip_type: Literal["one_way", "round_trip"]
    cabin: Cabin
    flights: list[ReservationFlight]
    passengers: list[Passenger]
    payment_history: Unordered[PaymentRecord]  # appended by independent changes, bag fees, refunds
    created_at: str  # "YYYY-MM-DDTHH:MM" Eastern
    total_baggages: int
    nonfree_baggages: int
    insurance: bool
    status: Literal["active", "cancelled"]
    cancellation_reason: str | None = None
    compensation_certificate_id: str | None = None


class AirlineDB(BaseModel):
    airports: Table[Airport]
    flights: Table[Flight]
    users: Table[User]
    reservations: Table[Reservation]


# -- the desk's fixed rules, shared by the tools and the generator ----------------------
NOW_DATE = "2026-05-15"
NOW_TIME = "14:00"
NOW = f"{NOW_DATE}T{NOW_TIME}"
EXTRA_BAG_FEE = 50.0
INSURANCE_PER_PASSENGER = 30.0
# free checked bags per passenger, by membership and cabin
FREE_BAGS: dict[str, dict[str, int]] = {
    "regular": {"basic_economy": 0, "economy": 1, "business": 2},
    "silver": {"basic_economy": 1, "economy": 2, "business": 3},
    "gold": {"basic_economy": 2, "economy": 3, "business": 4},
}
COMPENSATION_PER_PASSENGER = {"cancelled": 100.0, "delayed": 50.0}
