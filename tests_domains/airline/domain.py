"""Larkspur Airways reservation desk: tools over the airline DB.

The tools refuse only what the data makes impossible (no such record, not this user's, a flight that is not
on sale or has too few seats, a balance too small, payments that do not add up). Every rule of the policy
(who may cancel, what may change, limits, compensation) is the agent's to apply.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pytest_tau import Domain, ToolError
from pytest_tau.invariants import Invariant, area_codes_valid, not_after_now, plausible_age, zip_matches_state
from tests_domains.airline.schema import (
    EXTRA_BAG_FEE,
    FREE_BAGS,
    INSURANCE_PER_PASSENGER,
    NOW,
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

DOMAIN = Domain("airline", AirlineDB, now=datetime.fromisoformat(NOW))

CabinArg = Literal["basic_economy", "economy", "business"]
Code = Annotated[str, Field(description="the 6-character reservation code, such as 'Q7KX2M'")]


class FlightRef(BaseModel):
    model_config = ConfigDict(extra="forbid")

    flight_number: str = Field(description="flight number, such as 'LK1234'")
    date: str = Field(description="flight date, YYYY-MM-DD")


class PaymentPart(BaseModel):
    model_config = ConfigDict(extra="forbid")

    payment_id: str = Field(description="id of a payment method in the user's profile")
    amount: float = Field(description="amount charged to this payment method, in dollars")


# -- helpers ---------------------------------------------------------------------------
def _r2(x: float) -> float:
    return round(x + 0.0, 2)


def _now() -> str:
    return DOMAIN.now.strftime("%Y-%m-%dT%H:%M")


def _today() -> str:
    return DOMAIN.today.isoformat()


def _departure(flight: Flight, day: str) -> str:
    return f"{day}T{flight.scheduled_departure_time_est}"


def _flown(db: AirlineDB, number: str, day: str) -> bool:
    """A segment counts as flown once its scheduled departure has passed (unless the airline cancelled it)."""
    flight = db.flights.get(number)
    if flight is None:
        return day < _today()
    inst = flight.dates.get(day)
    if inst is not None and inst.status == "cancelled":
        return False
    return _departure(flight, day) <= _now()


def _airport(db: AirlineDB, code: str) -> str:
    return db.airports.require(code).code


def _refs(db: AirlineDB, refs: list[FlightRef]) -> list[FlightRef]:
    """The flight references with canonical flight numbers and dates (case and spaces folded)."""
    return [FlightRef(flight_number=db.flights.require(r.flight_number).flight_number, date=r.date.strip()) for r in refs]


def _chain(db: AirlineDB, refs: list[FlightRef]) -> list[Flight]:
    if not refs:
        raise ToolError("at least one flight is needed")
    if len({(r.flight_number, r.date) for r in refs}) != len(refs):
        raise ToolError("the same flight is listed twice")
    flights = []
    for ref in refs:
        flight = db.flights.require(ref.flight_number)
        if ref.date not in flight.dates:
            raise ToolError(f"flight {ref.flight_number} does not operate on {ref.date}")
        flights.append(flight)
    for a, b, ra, rb in zip(flights, flights[1:], refs, refs[1:], strict=False):
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


def _bookable_price(db: AirlineDB, ref: FlightRef, cabin: str, seats: int) -> float:
    """Today's price of a flight that is on sale with enough seats (a fact of the data, not a policy rule)."""
    flight = db.flights.require(ref.flight_number)
    inst = flight.dates[ref.date]
    if _departure(flight, ref.date) <= _now():
        raise ToolError(f"flight {ref.flight_number} on {ref.date} has already departed")
    if inst.status != "available":
        raise ToolError(f"flight {ref.flight_number} on {ref.date} is {inst.status}: it is not on sale")
    left = getattr(inst.available_seats, cabin)
    if left < seats:
        raise ToolError(f"flight {ref.flight_number} on {ref.date} has only {left} {cabin} seat(s) left")
    return float(getattr(inst.prices, cabin))


def _move_seats(db: AirlineDB, number: str, day: str, cabin: str, delta: int) -> None:
    if number not in db.flights or _flown(db, number, day):
        return
    inst = db.flights[number].dates.get(day)
    if inst is not None:
        setattr(inst.available_seats, cabin, getattr(inst.available_seats, cabin) + delta)


def _check_passengers(passengers: list[Passenger]) -> None:
    if not passengers:
        raise ToolError("at least one passenger is needed")
    for p in passengers:
        if not p.first_name.strip() or not p.last_name.strip():
            raise ToolError("every passenger needs a first and last name")
        try:
            datetime.strptime(p.dob, "%Y-%m-%d")
        except ValueError:
            raise ToolError(f"date of birth {p.dob!r} must be YYYY-MM-DD") from None


def _method(user: User, payment_id: str) -> PaymentMethod:
    method = user.payment_methods.get(payment_id.strip())
    if method is None:
        raise ToolError(f"payment method {payment_id!r} is not in the user's profile")
    return method


def _check_balance(method: PaymentMethod, amount: float) -> None:
    if method.source != "credit_card" and amount > (method.amount or 0.0) + 1e-9:
        raise ToolError(f"{method.id} has a balance of {method.amount or 0.0:.2f}, less than {amount:.2f}")


def _charge(method: PaymentMethod, amount: float) -> None:
    """Charge (amount > 0) or refund (amount < 0) a payment method; balances of gift cards and certificates move."""
    if method.source != "credit_card":
        method.amount = _r2((method.amount or 0.0) - amount)


def _free_bags(user: User, cabin: str, passengers: int) -> int:
    return FREE_BAGS[user.membership][cabin] * passengers


def _certificate_id(reservation_id: str, n: int = 1) -> str:
    digest = int(hashlib.sha256(f"{reservation_id}#{n}".encode() if n > 1 else reservation_id.encode()).hexdigest(), 16)
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


def _active(db: AirlineDB, reservation_id: str) -> Reservation:
    res = db.reservations.require(reservation_id)
    if res.status != "active":
        raise ToolError(f"reservation {res.reservation_id} is cancelled")
    return res


# -- plans: what a write would do, shared by the quote tools and the writes ----------------------
def _plan_booking(db: AirlineDB, user: User, origin: str, destination: str, trip_type: str, cabin: str,
                  flights: list[FlightRef], passengers: int, total_baggages: int, insurance: bool) -> dict[str, Any]:
    if passengers < 1:
        raise ToolError("at least one passenger is needed")
    if total_baggages < 0:
        raise ToolError("total_baggages cannot be negative")
    chain = _chain(db, flights)
    _check_route(chain, origin, destination, trip_type)
    prices = [_bookable_price(db, ref, cabin, passengers) for ref in flights]
    nonfree = max(0, total_baggages - _free_bags(user, cabin, passengers))
    fares = _r2(sum(prices) * passengers)
    insurance_total = _r2(INSURANCE_PER_PASSENGER * passengers if insurance else 0.0)
    bag_fee = _r2(nonfree * EXTRA_BAG_FEE)
    return {
        "flights": [{"flight_number": ref.flight_number, "date": ref.date, "price_per_passenger": price}
                    for ref, price in zip(flights, prices, strict=False)],
        "passengers": passengers,
        "fare_total": fares,
        "insurance_total": insurance_total,
        "free_bags": _free_bags(user, cabin, passengers),
        "nonfree_baggages": nonfree,
        "bag_fee": bag_fee,
        "total": _r2(fares + insurance_total + bag_fee),
        "_chain": chain,
        "_prices": prices,
    }


def _plan_flight_change(db: AirlineDB, res: Reservation, cabin: str, flights: list[FlightRef]) -> dict[str, Any]:
    old = {(f.flight_number, f.date): f for f in res.flights}
    chain = _chain(db, flights)
    origin, destination = chain[0].origin, chain[-1].destination
    if res.trip_type == "round_trip":
        if destination != origin:
            raise ToolError(f"a round trip must return to {origin}")
        reached = [f.destination for f in chain[:-1]]
        destination = res.destination if res.destination in reached else chain[0].destination
    n = len(res.passengers)
    flown = {key for key in old if _flown(db, *key)}
    new_flights = []
    for ref, f in zip(flights, chain, strict=False):
        key = (ref.flight_number, ref.date)
        if key in old and (cabin == res.cabin or key in flown):
            price = old[key].price
        else:
            price = _bookable_price(db, ref, cabin, 0 if (key in old and cabin == res.cabin) else n)
        new_flights.append(ReservationFlight(flight_number=ref.flight_number, date=ref.date, origin=f.origin,
                                             destination=f.destination, price=price))
    diff = _r2((sum(f.price for f in new_flights) - sum(f.price for f in res.flights)) * n)
    return {"new_flights": new_flights, "fare_difference": diff, "origin": origin, "destination": destination}


def _plan_bags(user: User, res: Reservation, total_baggages: int) -> dict[str, Any]:
    if total_baggages < 0:
        raise ToolError("total_baggages cannot be negative")
    n = len(res.passengers)
    free = _free_bags(user, res.cabin, n)
    nonfree = max(0, total_baggages - free)
    fee = _r2(max(0, nonfree - res.nonfree_baggages) * EXTRA_BAG_FEE)
    return {"free_bags": free, "nonfree_baggages": max(nonfree, res.nonfree_baggages), "bag_fee": fee,
            "current_total_baggages": res.total_baggages, "new_total_baggages": total_baggages}


def _plan_refund(db: AirlineDB, user: User, res: Reservation) -> list[dict[str, Any]]:
    net: dict[str, float] = {}
    for p in res.payment_history:
        net[p.payment_id] = _r2(net.get(p.payment_id, 0.0) + p.amount)
    refunds = []
    for payment_id, amount in sorted(net.items()):
        if amount <= 0:
            continue
        method = user.payment_methods.get(payment_id)
        if payment_id.startswith("certificate_") or (method is not None and method.source == "certificate"):
            continue
        refunds.append({"payment_id": payment_id, "amount": amount})
    return refunds


# -- lookups ---------------------------------------------------------------------------
@DOMAIN.tool(authenticates=True)
def find_user_id_by_email(db: AirlineDB, email: Annotated[str, Field(description="the email on the user's profile")]) -> str:
    """Find a user's id from the email address on their profile."""
    found = db.users.find(email=email)
    if not found:
        raise ToolError("no user with that email")
    return found[0].user_id


@DOMAIN.tool
def get_user_details(db: AirlineDB, user_id: Annotated[str, Field(description="the user's id, such as 'mia.lopez42'")]) -> User:
    """Get a user's profile: name, date of birth, membership tier, payment methods, saved passengers and reservation codes."""
    return db.users.require(user_id)


@DOMAIN.tool
def get_reservation_details(db: AirlineDB, reservation_id: Code) -> Reservation:
    """Get a reservation: owner, trip, cabin, flights with the price paid per passenger, passengers, bags, insurance,
    payments and status."""
    return db.reservations.require(reservation_id)


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
    origin, destination, date = _airport(db, origin), _airport(db, destination), date.strip()
    found = [f for f in db.flights.where(origin=origin, destination=destination) if date in f.dates]
    found.sort(key=lambda f: (f.scheduled_departure_time_est, f.flight_number))
    return [_flight_view(f, date) for f in found]


@DOMAIN.tool
def search_onestop_flights(
    db: AirlineDB,
    origin: Annotated[str, Field(description="origin airport code")],
    destination: Annotated[str, Field(description="destination airport code")],
    date: Annotated[str, Field(description="departure date of the first flight, YYYY-MM-DD")],
) -> list[list[dict[str, Any]]]:
    """Search one-stop itineraries: two bookable flights on the same date, the second leaving the connecting airport
    at least 60 minutes after the first lands. Only itineraries whose two flights are both 'available' are listed."""
    origin, destination, date = _airport(db, origin), _airport(db, destination), date.strip()
    out = []
    for first in db.flights.where(origin=origin):
        if (first.destination == destination or date not in first.dates or first.dates[date].status != "available"
                or first.arrives_next_day or _departure(first, date) <= _now()):
            continue
        land = datetime.strptime(first.scheduled_arrival_time_est, "%H:%M")
        for second in db.flights.where(origin=first.destination, destination=destination):
            if date not in second.dates or second.dates[date].status != "available":
                continue
            if datetime.strptime(second.scheduled_departure_time_est, "%H:%M") - land >= timedelta(minutes=60):
                out.append((first, second))
    out.sort(key=lambda p: (p[0].scheduled_departure_time_est, p[1].scheduled_departure_time_est,
                            p[0].flight_number, p[1].flight_number))
    return [[_flight_view(a, date), _flight_view(b, date)] for a, b in out]


@DOMAIN.tool
def get_flight_status(
    db: AirlineDB,
    flight_number: Annotated[str, Field(description="flight number, such as 'LK1234'")],
    date: Annotated[str, Field(description="flight date, YYYY-MM-DD")],
) -> dict[str, Any]:
    """Get the status of one flight on one date (available, delayed, cancelled, flying, landed) with its scheduled,
    estimated or actual times (Eastern time)."""
    flight = db.flights.require(flight_number)
    inst = flight.dates.get(date.strip())
    if inst is None:
        raise ToolError(f"flight {flight.flight_number} does not operate on {date}")
    view = {
        "flight_number": flight.flight_number,
        "date": date.strip(),
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
def get_baggage_allowance(db: AirlineDB, reservation_id: Code) -> dict[str, Any]:
    """Get a reservation's free checked-bag allowance (from the owner's current membership tier and the cabin), the bags
    already on it, and the fee per extra bag."""
    res = db.reservations.require(reservation_id)
    user = db.users.require(res.user_id)
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
    }


@DOMAIN.tool
def quote_booking(
    db: AirlineDB,
    user_id: Annotated[str, Field(description="the id of the user who would book")],
    origin: Annotated[str, Field(description="airport code where the trip starts")],
    destination: Annotated[str, Field(description="airport code of the trip's destination (the turnaround point of a round trip)")],
    trip_type: Literal["one_way", "round_trip"],
    cabin: CabinArg,
    flights: Annotated[list[FlightRef], Field(description="every flight of the trip in the order flown, outbound then return")],
    passenger_count: Annotated[int, Field(description="number of passengers")],
    total_baggages: Annotated[int, Field(description="number of checked bags for the whole reservation")],
    insurance: Annotated[bool, Field(description="whether travel insurance would be bought for every passenger")],
) -> dict[str, Any]:
    """Price a booking without making it: today's fare per flight, fares x passengers, insurance, the bags beyond the
    free allowance and their fee, and the total to pay. Nothing is booked or charged."""
    user = db.users.require(user_id)
    plan = _plan_booking(db, user, _airport(db, origin), _airport(db, destination), trip_type, cabin,
                         _refs(db, flights), passenger_count, total_baggages, insurance)
    return {k: v for k, v in plan.items() if not k.startswith("_")}


@DOMAIN.tool
def quote_reservation_change(
    db: AirlineDB,
    reservation_id: Code,
    cabin: Annotated[CabinArg, Field(description="the cabin for the whole reservation (unchanged or new)")],
    flights: Annotated[list[FlightRef], Field(description="the complete new list of flights, including the unchanged ones")],
) -> dict[str, Any]:
    """Price a change of flights and/or cabin without making it: the new price per passenger of each flight and the
    fare difference for all passengers (positive: to pay; negative: to refund). Nothing is changed or charged."""
    res = _active(db, reservation_id)
    plan = _plan_flight_change(db, res, cabin, _refs(db, flights))
    return {"reservation_id": res.reservation_id, "cabin": cabin,
            "flights": [f.model_dump() for f in plan["new_flights"]], "passengers": len(res.passengers),
            "fare_difference": plan["fare_difference"]}


@DOMAIN.tool
def quote_baggages(
    db: AirlineDB,
    reservation_id: Code,
    total_baggages: Annotated[int, Field(description="the new total number of checked bags")],
) -> dict[str, Any]:
    """Price a new total of checked bags on a reservation without changing it: the free allowance, the bags that would
    be paid for and the fee still to pay. Nothing is changed or charged."""
    res = _active(db, reservation_id)
    return {"reservation_id": res.reservation_id, **_plan_bags(db.users.require(res.user_id), res, total_baggages)}


@DOMAIN.tool
def quote_cancellation(db: AirlineDB, reservation_id: Code) -> dict[str, Any]:
    """What cancelling a reservation would refund, by payment method, and the refund total (the part paid with a travel
    certificate is never refunded). Nothing is cancelled; whether the policy allows the cancellation is for you to check."""
    res = _active(db, reservation_id)
    refunds = _plan_refund(db, db.users.require(res.user_id), res)
    return {"reservation_id": res.reservation_id, "refunds": refunds, "refund_total": _r2(sum(r["amount"] for r in refunds))}


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
    passengers: Annotated[list[Passenger], Field(description="the passengers: first_name, last_name, dob (YYYY-MM-DD)")],
    payment_methods: Annotated[list[PaymentPart], Field(description="how the total is paid; the amounts must add up to the total")],
    total_baggages: Annotated[int, Field(description="number of checked bags for the whole reservation")],
    insurance: Annotated[bool, Field(description="whether travel insurance is bought for every passenger")],
) -> dict[str, Any]:
    """Book a new reservation at today's prices. Total = sum of flight prices x passengers + travel insurance
    (30 per passenger if bought) + 50 per checked bag beyond the free allowance. The payments must add up to the total;
    a travel certificate used in a booking is used up."""
    user = db.users.require(user_id)
    origin, destination, refs = _airport(db, origin), _airport(db, destination), _refs(db, flights)
    _check_passengers(passengers)
    plan = _plan_booking(db, user, origin, destination, trip_type, cabin, refs, len(passengers), total_baggages, insurance)
    if not payment_methods:
        raise ToolError("a payment method is needed")
    methods = [_method(user, part.payment_id) for part in payment_methods]
    if len({m.id for m in methods}) != len(methods):
        raise ToolError("each payment method may appear only once")
    for part, method in zip(payment_methods, methods, strict=False):
        if part.amount <= 0:
            raise ToolError("payment amounts must be positive")
        _check_balance(method, part.amount)
    paid = _r2(sum(p.amount for p in payment_methods))
    if abs(paid - plan["total"]) > 0.005:
        raise ToolError(f"the payments add up to {paid:.2f} but the total is {plan['total']:.2f}")
    for part, method in zip(payment_methods, methods, strict=False):
        if method.source == "certificate":
            del user.payment_methods[method.id]
        else:
            _charge(method, part.amount)
    n = len(passengers)
    for ref in refs:
        _move_seats(db, ref.flight_number, ref.date, cabin, -n)
    flight_keys = [f"{ref.flight_number}/{ref.date}" for ref in refs]
    code = db.reservations.new_key("", user.user_id, cabin, *flight_keys, *(p.model_dump_json() for p in passengers), length=6)
    res = Reservation(
        reservation_id=code,
        user_id=user.user_id,
        origin=origin,
        destination=destination,
        trip_type=trip_type,
        cabin=cabin,
        flights=[ReservationFlight(flight_number=ref.flight_number, date=ref.date, origin=f.origin,
                                   destination=f.destination, price=price)
                 for ref, f, price in zip(refs, plan["_chain"], plan["_prices"], strict=False)],
        passengers=[Passenger(**p.model_dump()) for p in passengers],
        payment_history=[PaymentRecord(payment_id=m.id, amount=_r2(p.amount), kind="booking", date=_today())
                         for p, m in zip(payment_methods, methods, strict=False)],
        created_at=_now(),
        total_baggages=total_baggages,
        nonfree_baggages=plan["nonfree_baggages"],
        insurance=insurance,
        status="active",
    )
    db.reservations[code] = res
    user.reservations.append(code)
    return {"reservation": res, "total_charged": plan["total"]}


@DOMAIN.tool(write=True)
def cancel_reservation(
    db: AirlineDB,
    reservation_id: Code,
    reason: Annotated[
        Literal["change of plan", "airline cancelled flight", "health", "weather", "other"],
        Field(description="the reason the customer gave"),
    ],
) -> dict[str, Any]:
    """Cancel a whole reservation and refund it to the original payment methods (credit cards and gift cards; the part
    paid with a travel certificate is not refunded). Whether the policy allows the cancellation is for you to check
    before calling this."""
    res = _active(db, reservation_id)
    user = db.users.require(res.user_id)
    refunds = _plan_refund(db, user, res)
    for refund in refunds:
        method = user.payment_methods.get(refund["payment_id"])
        if method is not None:
            _charge(method, -refund["amount"])
        res.payment_history.append(PaymentRecord(payment_id=refund["payment_id"], amount=-refund["amount"],
                                                 kind="refund", date=_today()))
    for f in res.flights:
        _move_seats(db, f.flight_number, f.date, res.cabin, len(res.passengers))
    res.status = "cancelled"
    res.cancellation_reason = reason
    return {"reservation": res, "refunds": refunds, "refund_total": _r2(sum(r["amount"] for r in refunds))}


@DOMAIN.tool(write=True)
def update_reservation_flights(
    db: AirlineDB,
    reservation_id: Code,
    cabin: Annotated[CabinArg, Field(description="the cabin for the whole reservation (unchanged or new)")],
    flights: Annotated[list[FlightRef], Field(description="the complete new list of flights, including the unchanged ones")],
    payment_id: Annotated[str, Field(description="payment method in the profile that pays or receives the fare difference")],
) -> dict[str, Any]:
    """Change the flights and/or the cabin of a reservation. Unchanged flights in an unchanged cabin keep the price paid;
    every other flight is priced at today's price. The fare difference x passengers is charged to (or refunded to)
    the given payment method. Whether the policy allows the change is for you to check before calling this."""
    res = _active(db, reservation_id)
    user = db.users.require(res.user_id)
    method = _method(user, payment_id)
    refs = _refs(db, flights)
    plan = _plan_flight_change(db, res, cabin, refs)
    diff = plan["fare_difference"]
    _check_balance(method, diff)
    _charge(method, diff)
    n = len(res.passengers)
    old = [(f.flight_number, f.date) for f in res.flights]
    new = [(r.flight_number, r.date) for r in refs]
    for key in old:
        if key not in new or cabin != res.cabin:
            _move_seats(db, key[0], key[1], res.cabin, n)
    for key in new:
        if key not in old or cabin != res.cabin:
            _move_seats(db, key[0], key[1], cabin, -n)
    res.flights = plan["new_flights"]
    res.cabin = cabin
    res.origin, res.destination = plan["origin"], plan["destination"]
    if diff != 0:
        res.payment_history.append(PaymentRecord(payment_id=method.id, amount=diff, kind="change", date=_today()))
    return {"reservation": res, "fare_difference": diff}


@DOMAIN.tool(write=True)
def update_reservation_passengers(
    db: AirlineDB,
    reservation_id: Code,
    passengers: Annotated[list[Passenger], Field(description="the complete new list of passengers")],
) -> Reservation:
    """Replace the passenger list (names, dates of birth) of a reservation. Whether the policy allows the change is for
    you to check before calling this."""
    res = _active(db, reservation_id)
    _check_passengers(passengers)
    new = [Passenger(**p.model_dump()) for p in passengers]
    delta = len(new) - len(res.passengers)
    if delta > 0:
        for f in res.flights:
            if not _flown(db, f.flight_number, f.date):
                _bookable_price(db, FlightRef(flight_number=f.flight_number, date=f.date), res.cabin, delta)
    for f in res.flights:
        _move_seats(db, f.flight_number, f.date, res.cabin, -delta)
    res.passengers = new
    return res


@DOMAIN.tool(write=True)
def update_reservation_baggages(
    db: AirlineDB,
    reservation_id: Code,
    total_baggages: Annotated[int, Field(description="the new total number of checked bags")],
    payment_id: Annotated[str, Field(description="payment method in the profile that pays any extra-bag fee")],
) -> dict[str, Any]:
    """Set the number of checked bags of a reservation. Bags beyond the free allowance (by the owner's membership tier
    and the cabin) cost 50 each, charged to the given payment method; bags already paid for are never refunded."""
    res = _active(db, reservation_id)
    user = db.users.require(res.user_id)
    method = _method(user, payment_id)
    plan = _plan_bags(user, res, total_baggages)
    fee = plan["bag_fee"]
    _check_balance(method, fee)
    _charge(method, fee)
    res.total_baggages = total_baggages
    res.nonfree_baggages = plan["nonfree_baggages"]
    if fee > 0:
        res.payment_history.append(PaymentRecord(payment_id=method.id, amount=fee, kind="baggage", date=_today()))
    return {"reservation": res, "bag_fee": fee}


@DOMAIN.tool(write=True)
def send_certificate(
    db: AirlineDB,
    user_id: Annotated[str, Field(description="the user who receives the certificate")],
    reservation_id: Annotated[str, Field(description="the reservation the compensation is for")],
    amount: Annotated[float, Field(description="the certificate's value in dollars")],
) -> dict[str, Any]:
    """Issue a compensation travel certificate to a user for one of their reservations. Whether compensation is due, and
    how much, is for you to check against the policy before calling this."""
    user = db.users.require(user_id)
    res = db.reservations.require(reservation_id)
    if res.user_id != user.user_id:
        raise ToolError("the reservation does not belong to this user")
    if amount <= 0:
        raise ToolError("the amount must be positive")
    n = 1
    while _certificate_id(res.reservation_id, n) in user.payment_methods:
        n += 1
    cert_id = _certificate_id(res.reservation_id, n)
    user.payment_methods[cert_id] = PaymentMethod(id=cert_id, source="certificate", amount=_r2(amount))
    res.compensation_certificate_id = cert_id
    return {"certificate_id": cert_id, "amount": _r2(amount), "user_id": user.user_id}


# -- data invariants: the clock, ages, places and money the policy relies on -------------------
def _cancelled_within_policy(db: AirlineDB, now: datetime) -> Iterator[str]:
    """A cancelled reservation on file was refunded under rule 6.1: the day it was booked (24 hours), or for a
    reason the reservation shows (a flight the airline cancelled, business cabin, insurance for health or weather)."""
    for code, res in db.reservations.items():
        if res.status != "cancelled":
            continue
        airline_cancelled = any(db.flights[f.flight_number].dates[f.date].status == "cancelled" for f in res.flights)
        if res.cancellation_reason == "airline cancelled flight" and not airline_cancelled:
            yield f"reservations[{code!r}]: reason 'airline cancelled flight', but no flight of it was cancelled"
        refunded_on = {p.date for p in res.payment_history if p.kind == "refund"}
        allowed = (refunded_on <= {res.created_at[:10]} or airline_cancelled or res.cabin == "business"
                   or (res.insurance and res.cancellation_reason in ("health", "weather")))
        if not allowed:
            yield f"reservations[{code!r}]: refunded on {sorted(refunded_on)} for {res.cancellation_reason!r}, which rule 6.1 does not allow"


DOMAIN.invariants(
    Invariant("reservations: cancelled and refunded as rule 6.1 allows", _cancelled_within_policy),
    not_after_now("users", "member_since"),
    not_after_now("reservations", "created_at"),
    not_after_now("reservations", "payment_history[].date"),
    plausible_age("users", "dob", low=0, high=110),
    zip_matches_state("users", "address.zip", "address.state"),
    area_codes_valid("users", "phone"),
)

# Policy 1.6: an amount the user confirms is read from its quote tool before the write.
DOMAIN.order("quote_booking", "book_reservation")
DOMAIN.order("quote_reservation_change", "update_reservation_flights")
DOMAIN.order("quote_baggages", "update_reservation_baggages")
DOMAIN.order("quote_cancellation", "cancel_reservation")
# Policy 7.3: the flight's status is verified with the tools before a compensation certificate is issued.
DOMAIN.order("get_flight_status", "send_certificate")
