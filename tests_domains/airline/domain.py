"""Larkspur Airways reservation desk: tools over the airline DB."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from pytest_tau import Domain, ToolError, calculate as _calculate
from tests_domains.airline.schema import (
    COMPENSATION_PER_PASSENGER,
    EXTRA_BAG_FEE,
    FREE_BAGS,
    INSURANCE_PER_PASSENGER,
    MAX_BAGS_PER_PASSENGER,
    MAX_PASSENGERS,
    NOW,
    NOW_DATE,
    AirlineDB,
    Airport,
    Flight,
    Passenger,
    PaymentMethod,
    PaymentRecord,
    Reservation,
    ReservationFlight,
    User,
)

DOMAIN = Domain("airline", AirlineDB, fixtures=Path(__file__).parents[2] / "fixtures" / "airline")

CabinArg = Literal["basic_economy", "economy", "business"]
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


class FlightRef(BaseModel):
    flight_number: str = Field(description="flight number, such as 'LK1234'")
    date: str = Field(description="flight date, YYYY-MM-DD")


class PaymentPart(BaseModel):
    payment_id: str = Field(description="id of a payment method in the user's profile")
    amount: float = Field(description="amount charged to this payment method, in dollars")


# -- helpers ---------------------------------------------------------------------------
def _r2(x: float) -> float:
    return round(x + 0.0, 2)


def _user(db: AirlineDB, user_id: str) -> User:
    user = db.users.get(user_id)
    if user is None:
        raise ToolError(f"user {user_id!r} not found")
    return user


def _reservation(db: AirlineDB, reservation_id: str) -> Reservation:
    res = db.reservations.get(reservation_id)
    if res is None:
        raise ToolError(f"reservation {reservation_id!r} not found")
    return res


def _flight(db: AirlineDB, number: str) -> Flight:
    flight = db.flights.get(number)
    if flight is None:
        raise ToolError(f"flight {number!r} not found")
    return flight


def _departure(flight: Flight, day: str) -> str:
    return f"{day}T{flight.scheduled_departure_time_est}"


def _flown(db: AirlineDB, number: str, day: str) -> bool:
    """A segment counts as flown once its scheduled departure has passed (unless the airline cancelled it)."""
    flight = db.flights.get(number)
    if flight is None:
        return day < NOW_DATE
    inst = flight.dates.get(day)
    if inst is not None and inst.status == "cancelled":
        return False
    return _departure(flight, day) <= NOW


def _check_airport(db: AirlineDB, code: str) -> None:
    if code not in db.airports:
        raise ToolError(f"unknown airport code {code!r}; use list_airports")


def _chain(db: AirlineDB, refs: list[FlightRef]) -> list[Flight]:
    if not refs:
        raise ToolError("at least one flight is needed")
    flights = []
    for ref in refs:
        flight = _flight(db, ref.flight_number)
        if ref.date not in flight.dates:
            raise ToolError(f"flight {ref.flight_number} does not operate on {ref.date}")
        flights.append(flight)
    for a, b, ra, rb in zip(flights, flights[1:], refs, refs[1:]):
        if a.destination != b.origin:
            raise ToolError(f"flights do not connect: {a.flight_number} lands at {a.destination}, "
                            f"{b.flight_number} leaves from {b.origin}")
        if (rb.date, b.scheduled_departure_time_est) < (ra.date, a.scheduled_departure_time_est):
            raise ToolError("flights must be listed in the order they are flown")
    return flights


def _check_route(flights: list[Flight], origin: str, destination: str, trip_type: str) -> None:
    if flights[0].origin != origin:
        raise ToolError(f"the first flight must leave from {origin}")
    if trip_type == "one_way":
        if flights[-1].destination != destination:
            raise ToolError(f"a one-way trip must end at {destination}")
    else:
        if flights[-1].destination != origin:
            raise ToolError(f"a round trip must return to {origin}")
        if destination not in [f.destination for f in flights[:-1]]:
            raise ToolError(f"a round trip must reach {destination}")


def _check_bookable(db: AirlineDB, ref: FlightRef, cabin: str, seats: int) -> float:
    flight = _flight(db, ref.flight_number)
    inst = flight.dates[ref.date]
    if _departure(flight, ref.date) <= NOW:
        raise ToolError(f"flight {ref.flight_number} on {ref.date} has already departed")
    if inst.status != "available":
        raise ToolError(f"flight {ref.flight_number} on {ref.date} is {inst.status} and cannot be booked")
    left = getattr(inst.available_seats, cabin)
    if left < seats:
        raise ToolError(f"flight {ref.flight_number} on {ref.date} has only {left} {cabin} seat(s) left")
    return float(getattr(inst.prices, cabin))


def _move_seats(db: AirlineDB, number: str, day: str, cabin: str, delta: int) -> None:
    if _flown(db, number, day) or number not in db.flights:
        return
    flight = db.flights[number]
    inst = flight.dates.get(day)
    if inst is None:
        return
    setattr(inst.available_seats, cabin, getattr(inst.available_seats, cabin) + delta)


def _check_passengers(passengers: list[Passenger]) -> None:
    if not passengers:
        raise ToolError("at least one passenger is needed")
    if len(passengers) > MAX_PASSENGERS:
        raise ToolError(f"a reservation can have at most {MAX_PASSENGERS} passengers")
    for p in passengers:
        if not p.first_name.strip() or not p.last_name.strip():
            raise ToolError("every passenger needs a first and last name")
        try:
            datetime.strptime(p.dob, "%Y-%m-%d")
        except ValueError:
            raise ToolError(f"date of birth {p.dob!r} must be YYYY-MM-DD") from None


def _method(user: User, payment_id: str) -> PaymentMethod:
    method = user.payment_methods.get(payment_id)
    if method is None:
        raise ToolError(f"payment method {payment_id!r} is not in the user's profile")
    return method


def _charge_change(user: User, payment_id: str, amount: float, what: str) -> None:
    """Charge (amount > 0) or refund (amount < 0) a card or gift card for a change to a reservation."""
    method = _method(user, payment_id)
    if method.source == "certificate":
        raise ToolError(f"travel certificates can only pay for new bookings, not for {what}")
    if method.source == "gift_card":
        balance = method.amount or 0.0
        if amount > balance + 1e-9:
            raise ToolError(f"gift card {payment_id} has a balance of {balance:.2f}, less than {amount:.2f}")
        method.amount = _r2(balance - amount)


def _free_bags(user: User, cabin: str, passengers: int) -> int:
    return FREE_BAGS[user.membership][cabin] * passengers


def _new_code(db: AirlineDB) -> str:
    n = len(db.reservations)
    while True:
        x = (n * 2654435761 + 40503) % (32**6)
        code = "".join(_CODE_ALPHABET[(x >> (5 * i)) & 31] for i in range(6))
        if code not in db.reservations:
            return code
        n += 1


def _certificate_id(reservation_id: str) -> str:
    digest = int(hashlib.sha256(reservation_id.encode()).hexdigest(), 16)
    return f"certificate_{1000000 + digest % 9000000}"


def _flight_view(flight: Flight, day: str) -> dict[str, Any]:
    inst = flight.dates[day]
    view: dict[str, Any] = {
        "flight_number": flight.flight_number,
        "origin": flight.origin,
        "destination": flight.destination,
        "date": day,
        "scheduled_departure_time_est": flight.scheduled_departure_time_est,
        "scheduled_arrival_time_est": flight.scheduled_arrival_time_est,
        "arrives_next_day": flight.arrives_next_day,
        "status": inst.status,
    }
    if inst.status == "available":
        view["available_seats"] = inst.available_seats.model_dump()
        view["prices"] = inst.prices.model_dump()
    return view


def _order_independent(items: list[Any], key: Any) -> bool:
    """True when no two *different* items of a sorted list tie on the key, so the order they were found in
    (a search's order, not the table's) cannot show in the sorted result."""
    return all(a == b or key(a) != key(b) for a, b in zip(items, items[1:]))


# -- lookups ---------------------------------------------------------------------------
@DOMAIN.tool
def find_user_id_by_email(db: AirlineDB, email: Annotated[str, Field(description="the email on the user's profile")]) -> str:
    """Find a user's id from the email address on their profile."""
    wanted = email.strip().lower()
    found = {user.user_id for user in db.users.where(email=wanted)}
    if len(found) == 1:  # the answer does not depend on the order of the matches
        return found.pop()
    for user in db.users.values():  # several users share the email: the first in table order, as always
        if user.email == wanted:
            return user.user_id
    raise ToolError("no user with that email")


@DOMAIN.tool
def get_user_details(db: AirlineDB, user_id: Annotated[str, Field(description="the user's id, such as 'mia.lopez42'")]) -> User:
    """Get a user's profile: name, date of birth, membership tier, payment methods, saved passengers and reservation codes."""
    return _user(db, user_id)


@DOMAIN.tool
def get_reservation_details(
    db: AirlineDB, reservation_id: Annotated[str, Field(description="the 6-character reservation code, such as 'Q7KX2M'")]
) -> Reservation:
    """Get a reservation: owner, trip, cabin, flights with the price paid per passenger, passengers, bags, insurance, payments and status."""
    return _reservation(db, reservation_id.strip().upper())


@DOMAIN.tool
def list_airports(db: AirlineDB) -> list[Airport]:
    """List every airport the airline serves, with its code and city."""
    return list(db.airports.values())


@DOMAIN.tool
def search_direct_flights(
    db: AirlineDB,
    origin: Annotated[str, Field(description="origin airport code, such as 'JFK'")],
    destination: Annotated[str, Field(description="destination airport code, such as 'SEA'")],
    date: Annotated[str, Field(description="departure date, YYYY-MM-DD")],
) -> list[dict[str, Any]]:
    """Search the nonstop flights between two airports on a date. Every flight on the route is listed with its
    status; seats left and current prices per cabin are shown only for flights that can still be booked (status 'available')."""
    _check_airport(db, origin)
    _check_airport(db, destination)
    def key(v: dict[str, Any]) -> str:
        return v["scheduled_departure_time_est"]

    out = sorted((_flight_view(flight, date) for flight in db.flights.where(origin=origin, destination=destination)
                  if date in flight.dates), key=key)
    if _order_independent(out, key):
        return out
    out = []  # different flights tie on the sort key: keep the table's order among them, as always
    for flight in db.flights.values():
        if flight.origin == origin and flight.destination == destination and date in flight.dates:
            out.append(_flight_view(flight, date))
    return sorted(out, key=key)


@DOMAIN.tool
def search_onestop_flights(
    db: AirlineDB,
    origin: Annotated[str, Field(description="origin airport code")],
    destination: Annotated[str, Field(description="destination airport code")],
    date: Annotated[str, Field(description="departure date of the first flight, YYYY-MM-DD")],
) -> list[list[dict[str, Any]]]:
    """Search one-stop itineraries: two bookable flights on the same date, the second leaving the connecting airport
    at least 60 minutes after the first lands. Only itineraries whose two flights are both 'available' are listed."""
    _check_airport(db, origin)
    _check_airport(db, destination)
    def key(pair: list[dict[str, Any]]) -> tuple[str, str]:
        return (pair[0]["scheduled_departure_time_est"], pair[1]["scheduled_departure_time_est"])

    def search(firsts_from: Any, seconds_from: Any) -> list[list[dict[str, Any]]]:
        firsts = [f for f in firsts_from() if f.origin == origin and f.destination != destination
                  and date in f.dates and f.dates[date].status == "available" and not f.arrives_next_day
                  and _departure(f, date) > NOW]
        out = []
        for first in firsts:
            land = first.scheduled_arrival_time_est
            for second in seconds_from(first.destination):
                if second.origin != first.destination or second.destination != destination or date not in second.dates:
                    continue
                if second.dates[date].status != "available":
                    continue
                gap = (datetime.strptime(second.scheduled_departure_time_est, "%H:%M")
                       - datetime.strptime(land, "%H:%M"))
                if gap >= timedelta(minutes=60):
                    out.append([_flight_view(first, date), _flight_view(second, date)])
        return sorted(out, key=key)

    out = search(lambda: db.flights.where(origin=origin),
                 lambda via: db.flights.where(origin=via, destination=destination))
    if _order_independent(out, key):
        return out
    # different itineraries tie on the sort key: keep the table's order among them, as always
    return search(db.flights.values, lambda via: db.flights.values())


@DOMAIN.tool
def get_flight_status(
    db: AirlineDB,
    flight_number: Annotated[str, Field(description="flight number, such as 'LK1234'")],
    date: Annotated[str, Field(description="flight date, YYYY-MM-DD")],
) -> dict[str, Any]:
    """Get the status of one flight on one date (available, delayed, cancelled, flying, landed) with its scheduled,
    estimated or actual times (Eastern time)."""
    flight = _flight(db, flight_number.strip().upper())
    inst = flight.dates.get(date)
    if inst is None:
        raise ToolError(f"flight {flight.flight_number} does not operate on {date}")
    view = {
        "flight_number": flight.flight_number,
        "date": date,
        "origin": flight.origin,
        "destination": flight.destination,
        "status": inst.status,
        "scheduled_departure_time_est": flight.scheduled_departure_time_est,
        "scheduled_arrival_time_est": flight.scheduled_arrival_time_est,
        "aircraft": flight.aircraft,
    }
    for key in ("estimated_departure_time_est", "estimated_arrival_time_est", "actual_departure_time_est",
                "actual_arrival_time_est"):
        value = getattr(inst, key)
        if value is not None:
            view[key] = value
    return view


@DOMAIN.tool
def get_baggage_allowance(
    db: AirlineDB, reservation_id: Annotated[str, Field(description="the 6-character reservation code")]
) -> dict[str, Any]:
    """Get a reservation's free checked-bag allowance (from the owner's current membership tier and the cabin), the bags
    already on it, and the fee per extra bag."""
    res = _reservation(db, reservation_id)
    user = _user(db, res.user_id)
    per = FREE_BAGS[user.membership][res.cabin]
    return {
        "reservation_id": res.reservation_id,
        "membership": user.membership,
        "cabin": res.cabin,
        "passengers": len(res.passengers),
        "free_bags_per_passenger": per,
        "free_bags_total": per * len(res.passengers),
        "total_baggages": res.total_baggages,
        "nonfree_baggages": res.nonfree_baggages,
        "extra_bag_fee": EXTRA_BAG_FEE,
        "max_bags_total": MAX_BAGS_PER_PASSENGER * len(res.passengers),
    }


# -- writes ----------------------------------------------------------------------------
@DOMAIN.tool(write=True)
def book_reservation(
    db: AirlineDB,
    user_id: Annotated[str, Field(description="the id of the user who books and pays")],
    origin: Annotated[str, Field(description="airport code where the trip starts")],
    destination: Annotated[str, Field(description="airport code of the trip's destination (the turnaround point of a round trip)")],
    trip_type: Literal["one_way", "round_trip"],
    cabin: CabinArg,
    flights: Annotated[list[FlightRef], Field(description="every flight of the trip in the order flown, outbound then return")],
    passengers: Annotated[list[Passenger], Field(description="1 to 5 passengers: first_name, last_name, dob (YYYY-MM-DD)")],
    payment_methods: Annotated[list[PaymentPart], Field(description="how the total is paid; the amounts must add up to the total")],
    total_baggages: Annotated[int, Field(description="number of checked bags for the whole reservation")],
    insurance: Annotated[bool, Field(description="whether travel insurance is bought for every passenger")],
) -> dict[str, Any]:
    """Book a new reservation at today's prices. Total = sum of flight prices x passengers + travel insurance
    (30 per passenger if bought) + 50 per checked bag beyond the free allowance. At most one credit card, one gift
    card and one travel certificate; a certificate is used up even if only partly needed."""
    user = _user(db, user_id)
    _check_airport(db, origin)
    _check_airport(db, destination)
    _check_passengers(passengers)
    if total_baggages < 0:
        raise ToolError("total_baggages cannot be negative")
    if total_baggages > MAX_BAGS_PER_PASSENGER * len(passengers):
        raise ToolError(f"at most {MAX_BAGS_PER_PASSENGER} checked bags per passenger")
    chain = _chain(db, flights)
    _check_route(chain, origin, destination, trip_type)
    if len({(f.flight_number, f.date) for f in flights}) != len(flights):
        raise ToolError("the same flight is listed twice")
    prices = [_check_bookable(db, ref, cabin, len(passengers)) for ref in flights]
    n = len(passengers)
    nonfree = max(0, total_baggages - _free_bags(user, cabin, n))
    total = _r2(sum(prices) * n + (INSURANCE_PER_PASSENGER * n if insurance else 0) + nonfree * EXTRA_BAG_FEE)
    if not payment_methods:
        raise ToolError("a payment method is needed")
    ids = [p.payment_id for p in payment_methods]
    if len(set(ids)) != len(ids):
        raise ToolError("each payment method may appear only once")
    sources = []
    for part in payment_methods:
        method = _method(user, part.payment_id)
        if part.amount <= 0:
            raise ToolError("payment amounts must be positive")
        if method.source in ("gift_card", "certificate") and part.amount > (method.amount or 0) + 1e-9:
            raise ToolError(f"{part.payment_id} only has {method.amount:.2f} available")
        sources.append(method.source)
    for source in ("credit_card", "gift_card", "certificate"):
        if sources.count(source) > 1:
            raise ToolError(f"at most one {source.replace('_', ' ')} per booking")
    paid = _r2(sum(p.amount for p in payment_methods))
    if abs(paid - total) > 0.005:
        raise ToolError(f"the payments add up to {paid:.2f} but the total is {total:.2f}")
    # all checks passed: write
    for part in payment_methods:
        method = user.payment_methods[part.payment_id]
        if method.source == "gift_card":
            method.amount = _r2((method.amount or 0) - part.amount)
        elif method.source == "certificate":
            del user.payment_methods[part.payment_id]
    for ref in flights:
        _move_seats(db, ref.flight_number, ref.date, cabin, -n)
    code = _new_code(db)
    res = Reservation(
        reservation_id=code,
        user_id=user.user_id,
        origin=origin,
        destination=destination,
        trip_type=trip_type,
        cabin=cabin,
        flights=[ReservationFlight(flight_number=ref.flight_number, date=ref.date, origin=f.origin,
                                   destination=f.destination, price=price)
                 for ref, f, price in zip(flights, chain, prices)],
        passengers=[Passenger(**p.model_dump()) for p in passengers],
        payment_history=[PaymentRecord(payment_id=p.payment_id, amount=_r2(p.amount), kind="booking", date=NOW_DATE)
                         for p in payment_methods],
        created_at=NOW,
        total_baggages=total_baggages,
        nonfree_baggages=nonfree,
        insurance=insurance,
        status="active",
    )
    db.reservations[code] = res
    user.reservations.append(code)
    return {"reservation": res, "total_charged": total}


@DOMAIN.tool(write=True)
def cancel_reservation(
    db: AirlineDB,
    reservation_id: Annotated[str, Field(description="the 6-character reservation code")],
    reason: Annotated[
        Literal["change of plan", "airline cancelled flight", "health", "weather", "other"],
        Field(description="the reason the customer gave"),
    ],
) -> dict[str, Any]:
    """Cancel a whole reservation and refund it to the original payment methods (credit cards and gift cards; the part
    paid with a travel certificate is not refunded). Refused when any flight has already been flown, or when none of
    the refund conditions holds (booked within the last 24 hours, business cabin, a flight cancelled by the airline,
    or travel insurance with a health or weather reason)."""
    res = _reservation(db, reservation_id)
    if res.status != "active":
        raise ToolError("the reservation is already cancelled")
    if any(_flown(db, f.flight_number, f.date) for f in res.flights):
        raise ToolError("part of this trip has already been flown; it cannot be cancelled here")
    airline_cancelled = any(
        f.flight_number in db.flights and db.flights[f.flight_number].dates.get(f.date) is not None
        and db.flights[f.flight_number].dates[f.date].status == "cancelled"
        for f in res.flights
    )
    if reason == "airline cancelled flight" and not airline_cancelled:
        raise ToolError("no flight of this reservation was cancelled by the airline")
    recent = res.created_at >= (datetime.fromisoformat(NOW) - timedelta(hours=24)).strftime("%Y-%m-%dT%H:%M")
    insured = res.insurance and reason in ("health", "weather")
    if not (recent or res.cabin == "business" or airline_cancelled or insured):
        raise ToolError("this reservation is not eligible for cancellation: booked more than 24 hours ago, "
                        "not business, no flight cancelled by the airline, and no insurance-covered reason")
    user = _user(db, res.user_id)
    net: dict[str, float] = {}
    for p in res.payment_history:
        net[p.payment_id] = _r2(net.get(p.payment_id, 0.0) + p.amount)
    refunds = []
    for payment_id, amount in net.items():
        if amount <= 0:
            continue
        method = user.payment_methods.get(payment_id)
        if payment_id.startswith("certificate_") or (method is not None and method.source == "certificate"):
            continue
        if method is not None and method.source == "gift_card":
            method.amount = _r2((method.amount or 0) + amount)
        res.payment_history.append(PaymentRecord(payment_id=payment_id, amount=-amount, kind="refund", date=NOW_DATE))
        refunds.append({"payment_id": payment_id, "amount": amount})
    for f in res.flights:
        _move_seats(db, f.flight_number, f.date, res.cabin, len(res.passengers))
    res.status = "cancelled"
    res.cancellation_reason = reason
    return {"reservation": res, "refunds": refunds, "refund_total": _r2(sum(r["amount"] for r in refunds))}


@DOMAIN.tool(write=True)
def update_reservation_flights(
    db: AirlineDB,
    reservation_id: Annotated[str, Field(description="the 6-character reservation code")],
    cabin: Annotated[CabinArg, Field(description="the cabin for the whole reservation (unchanged or new)")],
    flights: Annotated[list[FlightRef], Field(description="the complete new list of flights, including the unchanged ones")],
    payment_id: Annotated[str, Field(description="credit card or gift card in the profile that pays or receives the fare difference")],
) -> dict[str, Any]:
    """Change the flights and/or the cabin of a reservation. Unchanged flights in an unchanged cabin keep the price paid;
    every other flight is priced at today's price. The fare difference x passengers is charged to (or refunded to)
    the given credit card or gift card. Origin, destination and trip type stay the same."""
    res = _reservation(db, reservation_id)
    if res.status != "active":
        raise ToolError("the reservation is cancelled")
    user = _user(db, res.user_id)
    _method(user, payment_id)
    old = {(f.flight_number, f.date): f for f in res.flights}
    new_keys = [(f.flight_number, f.date) for f in flights]
    if len(set(new_keys)) != len(new_keys):
        raise ToolError("the same flight is listed twice")
    same_flights = new_keys == list(old)
    if same_flights and cabin == res.cabin:
        raise ToolError("nothing to change: same flights and same cabin")
    if res.cabin == "basic_economy" and not same_flights:
        raise ToolError("the flights of a basic economy reservation cannot be changed")
    flown = [key for key in old if _flown(db, *key)]
    if cabin != res.cabin and flown:
        raise ToolError("the cabin cannot be changed once part of the trip has been flown")
    for key in flown:
        if key not in new_keys:
            raise ToolError(f"flight {key[0]} on {key[1]} has already been flown and cannot be changed")
    chain = _chain(db, flights)
    _check_route(chain, res.origin, res.destination, res.trip_type)
    n = len(res.passengers)
    new_flights = []
    for ref, f in zip(flights, chain):
        key = (ref.flight_number, ref.date)
        if key in old and (cabin == res.cabin or key in flown):
            price = old[key].price
        else:
            seats_needed = 0 if (key in old and cabin == res.cabin) else n
            price = _check_bookable(db, ref, cabin, seats_needed)
        new_flights.append(ReservationFlight(flight_number=ref.flight_number, date=ref.date, origin=f.origin,
                                             destination=f.destination, price=price))
    diff = _r2((sum(f.price for f in new_flights) - sum(f.price for f in res.flights)) * n)
    _charge_change(user, payment_id, diff, "flight or cabin changes")
    for key in old:
        if key not in new_keys or cabin != res.cabin:
            _move_seats(db, key[0], key[1], res.cabin, n)
    for key in new_keys:
        if key not in old or cabin != res.cabin:
            _move_seats(db, key[0], key[1], cabin, -n)
    res.flights = new_flights
    res.cabin = cabin
    if diff != 0:
        res.payment_history.append(PaymentRecord(payment_id=payment_id, amount=diff, kind="change", date=NOW_DATE))
    return {"reservation": res, "fare_difference": diff}


@DOMAIN.tool(write=True)
def update_reservation_passengers(
    db: AirlineDB,
    reservation_id: Annotated[str, Field(description="the 6-character reservation code")],
    passengers: Annotated[list[Passenger], Field(description="the complete corrected list, same number of passengers as before")],
) -> Reservation:
    """Replace the passenger details (names, dates of birth) of a reservation. The number of passengers cannot change,
    and passengers cannot be changed once part of the trip has been flown."""
    res = _reservation(db, reservation_id)
    if res.status != "active":
        raise ToolError("the reservation is cancelled")
    _check_passengers(passengers)
    if len(passengers) != len(res.passengers):
        raise ToolError(f"the number of passengers cannot change (this reservation has {len(res.passengers)})")
    if any(_flown(db, f.flight_number, f.date) for f in res.flights):
        raise ToolError("passengers cannot be changed once part of the trip has been flown")
    new = [Passenger(**p.model_dump()) for p in passengers]
    if new == res.passengers:
        raise ToolError("nothing to change: the passengers are the same")
    res.passengers = new
    return res


@DOMAIN.tool(write=True)
def update_reservation_baggages(
    db: AirlineDB,
    reservation_id: Annotated[str, Field(description="the 6-character reservation code")],
    total_baggages: Annotated[int, Field(description="the new total number of checked bags (more than now)")],
    payment_id: Annotated[str, Field(description="credit card or gift card in the profile that pays any extra-bag fee")],
) -> dict[str, Any]:
    """Add checked bags to a reservation. Bags beyond the free allowance (by the owner's membership tier and the cabin)
    cost 50 each; the fee is charged to the given credit card or gift card. Bags can only be added, never removed."""
    res = _reservation(db, reservation_id)
    if res.status != "active":
        raise ToolError("the reservation is cancelled")
    user = _user(db, res.user_id)
    _method(user, payment_id)
    if all(_flown(db, f.flight_number, f.date) for f in res.flights):
        raise ToolError("every flight of this reservation has already been flown")
    if total_baggages <= res.total_baggages:
        raise ToolError(f"bags can only be added: the reservation already has {res.total_baggages}")
    n = len(res.passengers)
    if total_baggages > MAX_BAGS_PER_PASSENGER * n:
        raise ToolError(f"at most {MAX_BAGS_PER_PASSENGER} checked bags per passenger ({MAX_BAGS_PER_PASSENGER * n} here)")
    nonfree = max(0, total_baggages - _free_bags(user, res.cabin, n))
    fee = _r2(max(0, nonfree - res.nonfree_baggages) * EXTRA_BAG_FEE)
    _charge_change(user, payment_id, fee, "bags")
    res.total_baggages = total_baggages
    res.nonfree_baggages = max(nonfree, res.nonfree_baggages)
    if fee > 0:
        res.payment_history.append(PaymentRecord(payment_id=payment_id, amount=fee, kind="baggage", date=NOW_DATE))
    return {"reservation": res, "bag_fee": fee}


@DOMAIN.tool(write=True)
def send_certificate(
    db: AirlineDB,
    user_id: Annotated[str, Field(description="the user who receives the certificate")],
    reservation_id: Annotated[str, Field(description="the reservation whose flight was cancelled or delayed")],
    amount: Annotated[float, Field(description="the certificate's value in dollars")],
) -> dict[str, Any]:
    """Issue a compensation travel certificate to a user for a reservation with a cancelled or delayed flight.
    One certificate per reservation; at most 100 per passenger for a cancelled flight, 50 per passenger for a delay."""
    user = _user(db, user_id)
    res = _reservation(db, reservation_id)
    if res.user_id != user.user_id:
        raise ToolError("the reservation does not belong to this user")
    if res.compensation_certificate_id is not None:
        raise ToolError("a compensation certificate was already issued for this reservation")
    statuses = set()
    for f in res.flights:
        flight = db.flights.get(f.flight_number)
        inst = flight.dates.get(f.date) if flight else None
        if inst is not None:
            statuses.add(inst.status)
    if "cancelled" in statuses:
        cap = COMPENSATION_PER_PASSENGER["cancelled"] * len(res.passengers)
    elif "delayed" in statuses:
        cap = COMPENSATION_PER_PASSENGER["delayed"] * len(res.passengers)
    else:
        raise ToolError("no flight of this reservation is cancelled or delayed")
    if amount <= 0 or amount > cap + 1e-9:
        raise ToolError(f"the amount must be positive and at most {cap:.2f} for this reservation")
    cert_id = _certificate_id(res.reservation_id)
    user.payment_methods[cert_id] = PaymentMethod(id=cert_id, source="certificate", amount=_r2(amount))
    res.compensation_certificate_id = cert_id
    return {"certificate_id": cert_id, "amount": _r2(amount), "user_id": user.user_id}


@DOMAIN.tool
def calculate(db: AirlineDB, expression: Annotated[str, Field(description="e.g. '(412 + 389) * 2 + 50'")]) -> str:
    """Evaluate an arithmetic expression (numbers, + - * / and parentheses); the result is rounded to 2 decimals."""
    return _calculate(expression)


@DOMAIN.tool(transfer=True)
def transfer_to_human_agents(
    db: AirlineDB, summary: Annotated[str, Field(description="a short summary of the customer's issue")]
) -> str:
    """Transfer the customer to a human agent, with a summary of the issue. Use only when the policy says so."""
    return "Transfer successful"
