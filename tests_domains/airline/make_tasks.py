"""Build fixtures/airline/tasks.json from the generated DB: `python -m tests_domains.airline.make_tasks`.

Seeded and deterministic. Each task kind is a hand-written template; the script picks concrete
users, reservations and flights from the DB, replays the gold actions to check they succeed, and
takes the figures the agent must tell (totals, refunds, fees) from the gold tool results.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable

from pytest_tau import Environment
from tests_domains.airline.domain import DOMAIN, _certificate_id
from tests_domains.airline.schema import (
    COMPENSATION_PER_PASSENGER,
    EXTRA_BAG_FEE,
    FREE_BAGS,
    INSURANCE_PER_PASSENGER,
    NOW,
)

OUT = Path(__file__).parents[2] / "fixtures" / "airline" / "tasks.json"
DB = DOMAIN.initial_db
RNG = random.Random(4242)
USED_USERS: set[str] = set()
USED_RES: set[str] = set()
TASKS: list[dict[str, Any]] = []

MONTH_DAY = lambda d: f"May {int(d[8:])}"  # noqa: E731
CABIN_WORDS = {"basic_economy": "basic economy", "economy": "economy", "business": "business"}
PERSONAS = [
    "You are polite but in a hurry.",
    "You are friendly and chatty.",
    "You are a bit anxious and double-check every figure.",
    "You are terse and to the point.",
    "You are calm and patient.",
    "You are mildly annoyed but stay civil.",
]


def A(name: str, **arguments: Any) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}


def fmt(x: float) -> str:
    return f"{x:.2f}"


def run(actions: list[dict[str, Any]]) -> list[Any]:
    env = Environment(DOMAIN)
    calls = [env.call(a["name"], a["arguments"]) for a in actions]
    for call in calls:
        if call.error:
            raise RuntimeError(f"gold action {call.name} {call.arguments} failed: {call.result}")
    return calls


def result(calls: list[Any], name: str, index: int = -1) -> Any:
    matching = [c for c in calls if c.name == name]
    return json.loads(matching[index].result)


def add(task_id: str, instructions: str, script: list[str], gold: list[dict[str, Any]], outputs: list[str] = (),
        required: list[dict[str, Any]] = (), forbidden: list[dict[str, Any]] = (), split: str = "test") -> list[Any]:
    calls = run(gold)
    TASKS.append({
        "id": task_id, "split": split,
        "user": {"instructions": instructions, "script": script},
        "gold_actions": gold, "required_outputs": list(outputs),
        "required_actions": list(required), "forbidden_actions": list(forbidden),
    })
    return calls


# -- DB helpers ------------------------------------------------------------------------
def inst(number: str, day: str):
    return DB.flights[number].dates[day]


def dep(number: str) -> str:
    return DB.flights[number].scheduled_departure_time_est


def future(res) -> bool:
    return all(f"{f.date}T{dep(f.flight_number)}" > "2026-05-16T00:00" for f in res.flights)


def statuses(res) -> set[str]:
    return {inst(f.flight_number, f.date).status for f in res.flights}


def city(code: str) -> str:
    return DB.airports[code].city


def cards(user) -> list[Any]:
    return sorted([m for m in user.payment_methods.values() if m.source == "credit_card"], key=lambda m: m.id)


def gifts(user) -> list[Any]:
    return sorted([m for m in user.payment_methods.values() if m.source == "gift_card"], key=lambda m: m.id)


def certs(user) -> list[Any]:
    return sorted([m for m in user.payment_methods.values() if m.source == "certificate"], key=lambda m: m.id)


def card_words(m) -> str:
    return f"your {m.brand.title() if m.brand != 'amex' else 'Amex'} card ending in {m.last_four}"


def free_user(pred: Callable[[Any], bool]) -> Any:
    pool = [u for uid, u in sorted(DB.users.items()) if uid not in USED_USERS and pred(u)]
    if not pool:
        raise RuntimeError("no user fits")
    user = RNG.choice(pool)
    USED_USERS.add(user.user_id)
    return user


def free_res(pred: Callable[[Any, Any], bool]) -> tuple[Any, Any]:
    pool = []
    for rid, res in sorted(DB.reservations.items()):
        if rid in USED_RES or res.user_id in USED_USERS:
            continue
        user = DB.users[res.user_id]
        if pred(res, user):
            pool.append((res, user))
    if not pool:
        raise RuntimeError("no reservation fits")
    res, user = RNG.choice(pool)
    USED_RES.add(res.reservation_id)
    USED_USERS.add(user.user_id)
    return res, user


AUTH_TURN = [0]


def auth(user, code: str | None = None, mode: str | None = None) -> tuple[str, str, list[dict[str, Any]]]:
    """(sentence for the instructions, scripted line, gold lookups) for authenticating the user."""
    AUTH_TURN[0] += 1
    if mode is None:
        mode = ["email", "uid"][AUTH_TURN[0] % 2]
    if code is None:
        code = "dob"
    who = f"{user.name.first_name} {user.name.last_name}"
    if mode == "email":
        ident = f"your email is {user.email}"
        actions = [A("find_user_id_by_email", email=user.email), A("get_user_details", user_id=user.user_id)]
        line_id = f"my email is {user.email}"
    else:
        ident = f"your user id is {user.user_id}"
        actions = [A("get_user_details", user_id=user.user_id)]
        line_id = f"my user id is {user.user_id}"
    if code == "dob":
        proof = f"your date of birth is {user.dob}"
        line = f"{line_id}, date of birth {user.dob}"
    else:
        proof = f"your reservation code is {code}"
        line = f"{line_id}, reservation code {code}"
    return f"You are {who}; {ident} and {proof}.", line, actions


def pax_words(pax: list[Any], owner) -> str:
    names = [f"{p.first_name} {p.last_name}" for p in pax]
    return ", ".join(names)


def direct_options(o: str, d: str, day: str) -> list[Any]:
    return sorted([f for f in DB.flights.values() if f.origin == o and f.destination == d],
                  key=lambda f: f.scheduled_departure_time_est)


def bookable(number: str, day: str, cabin: str, n: int) -> bool:
    i = inst(number, day)
    return i.status == "available" and getattr(i.available_seats, cabin) >= n and day >= "2026-05-16"


def pick_direct(cabin: str, n: int, days=("2026-05-18", "2026-05-27"), exclude_route=None) -> tuple[Any, str]:
    routes = sorted({(f.origin, f.destination) for f in DB.flights.values()})
    while True:
        o, d = RNG.choice(routes)
        if exclude_route and (o, d) == exclude_route:
            continue
        day = f"2026-05-{RNG.randint(int(days[0][8:]), int(days[1][8:])):02d}"
        options = [f for f in direct_options(o, d, day) if bookable(f.flight_number, day, cabin, n)]
        if options:
            return RNG.choice(options), day


def passenger_dict(p) -> dict[str, str]:
    return {"first_name": p.first_name, "last_name": p.last_name, "dob": p.dob}


def self_pax(user) -> dict[str, str]:
    return {"first_name": user.name.first_name, "last_name": user.name.last_name, "dob": user.dob}


def persona() -> str:
    return RNG.choice(PERSONAS)


def price(number: str, day: str, cabin: str) -> float:
    return getattr(inst(number, day).prices, cabin)


def no_flown(res) -> bool:
    return all(f"{f.date}T{dep(f.flight_number)}" > NOW or inst(f.flight_number, f.date).status == "cancelled"
               for f in res.flights)


# ======================================================================================
# Kind W1: book a one-way nonstop, paying by credit card.
def book_oneway(i: int, split: str = "test") -> None:
    user = free_user(lambda u: cards(u) and u.reservations)
    cabin = RNG.choice(["economy", "business", "basic_economy"])
    companions = user.saved_passengers[:1] if (i % 2 and user.saved_passengers) else []
    n = 1 + len(companions)
    flight, day = pick_direct(cabin, n)
    bags = RNG.choice([0, 1, 2, 3]) if cabin != "basic_economy" else RNG.choice([0, 1])
    insurance = bool(i % 3 == 0)
    free = FREE_BAGS[user.membership][cabin] * n
    nonfree = max(0, bags - free)
    p = price(flight.flight_number, day, cabin)
    total = p * n + (INSURANCE_PER_PASSENGER * n if insurance else 0) + nonfree * EXTRA_BAG_FEE
    card = cards(user)[-1]
    text, line, gold = auth(user, RNG.choice(user.reservations))
    pax = [self_pax(user)] + [passenger_dict(c) for c in companions]
    who = "just yourself" if not companions else (
        f"yourself and {companions[0].first_name} {companions[0].last_name} (saved in your profile)")
    expr = f"{p} * {n}" + (f" + {INSURANCE_PER_PASSENGER} * {n}" if insurance else "") + (
        f" + {EXTRA_BAG_FEE} * {nonfree}" if nonfree else "")
    gold += [
        A("search_direct_flights", origin=flight.origin, destination=flight.destination, date=day),
        A("calculate", expression=expr),
        A("book_reservation", user_id=user.user_id, origin=flight.origin, destination=flight.destination,
          trip_type="one_way", cabin=cabin, flights=[{"flight_number": flight.flight_number, "date": day}],
          passengers=pax, payment_methods=[{"payment_id": card.id, "amount": total}], total_baggages=bags,
          insurance=insurance),
    ]
    ins = "You want travel insurance." if insurance else "You do not want travel insurance."
    instructions = (
        f"{text} You want to book a one-way trip from {city(flight.origin)} ({flight.origin}) to "
        f"{city(flight.destination)} ({flight.destination}) on {MONTH_DAY(day)}, 2026, on the nonstop that departs at "
        f"{flight.scheduled_departure_time_est} Eastern, in {CABIN_WORDS[cabin]}, for {who}. You will check {bags} "
        f"bag(s) in total. {ins} You pay with {card_words(card)}. Before confirming, ask for the total price; accept "
        f"it whatever it is. {persona()} Give details only when asked."
    )
    add(f"book_oneway_nonstop_{i}", instructions,
        [f"Hi, I'd like to book a one-way flight from {city(flight.origin)} to {city(flight.destination)}.", line,
         "Yes, please book it."], gold, [fmt(total)], split=split)


# Kind W2: round trip nonstop, business, paid with a travel certificate plus a credit card.
def book_roundtrip_certificate(i: int, split: str = "test") -> None:
    user = free_user(lambda u: cards(u) and certs(u) and u.reservations)
    cert = certs(user)[0]
    cabin = "business" if i % 2 == 0 else "economy"
    while True:
        out, day = pick_direct(cabin, 1, ("2026-05-18", "2026-05-22"))
        back_day = f"2026-05-{int(day[8:]) + RNG.randint(3, 5):02d}"
        backs = [f for f in direct_options(out.destination, out.origin, back_day)
                 if bookable(f.flight_number, back_day, cabin, 1)]
        if backs:
            back = backs[-1]
            break
    p1, p2 = price(out.flight_number, day, cabin), price(back.flight_number, back_day, cabin)
    total = p1 + p2
    if cert.amount >= total:
        cert_amount, card_amount = total, 0.0
    else:
        cert_amount, card_amount = cert.amount, round(total - cert.amount, 2)
    card = cards(user)[0]
    pay = [{"payment_id": cert.id, "amount": cert_amount}]
    if card_amount:
        pay.append({"payment_id": card.id, "amount": card_amount})
    text, line, gold = auth(user)
    gold += [
        A("search_direct_flights", origin=out.origin, destination=out.destination, date=day),
        A("search_direct_flights", origin=back.origin, destination=back.destination, date=back_day),
        A("calculate", expression=f"{p1} + {p2} - {cert.amount}"),
        A("book_reservation", user_id=user.user_id, origin=out.origin, destination=out.destination,
          trip_type="round_trip", cabin=cabin,
          flights=[{"flight_number": out.flight_number, "date": day}, {"flight_number": back.flight_number, "date": back_day}],
          passengers=[self_pax(user)], payment_methods=pay, total_baggages=0, insurance=False),
    ]
    instructions = (
        f"{text} You want a round trip for yourself alone in {CABIN_WORDS[cabin]} from {city(out.origin)} to "
        f"{city(out.destination)}: out on {MONTH_DAY(day)} on the nonstop leaving at {out.scheduled_departure_time_est}, "
        f"back on {MONTH_DAY(back_day)} on the nonstop departing at {back.scheduled_departure_time_est}. "
        f"No checked bags, no insurance. You want to use your travel certificate worth ${cert.amount:.0f} first and put "
        f"whatever remains on {card_words(card)}. Ask how much will go on the card. {persona()}"
    )
    outputs = [fmt(card_amount)] if card_amount else [fmt(total)]
    add(f"book_roundtrip_certificate_{i}", instructions,
        [f"Hello, I need a round trip from {city(out.origin)} to {city(out.destination)}.", line, "Yes, go ahead."],
        gold, outputs, split=split)


def change_candidates(res, user) -> bool:
    return (res.status == "active" and res.cabin != "basic_economy" and future(res)
            and statuses(res) == {"available"} and cards(user) and len(res.passengers) <= 3)


def alt_flight(res, seg_index: int, min_day: int = 17) -> tuple[Any, str] | None:
    seg = res.flights[seg_index]
    if len(res.flights) not in (1, 2):
        return None
    if len(res.flights) == 2 and res.trip_type != "round_trip":
        return None
    n = len(res.passengers)
    other_days = [f.date for j, f in enumerate(res.flights) if j != seg_index]
    for delta in RNG.sample([-2, -1, 1, 2], 4):
        day = int(seg.date[8:]) + delta
        if day < min_day or day > 28:
            continue
        nd = f"2026-05-{day:02d}"
        if seg_index == 0 and other_days and nd > other_days[0]:
            continue
        if seg_index == 1 and nd < other_days[0]:
            continue
        opts = [f for f in direct_options(seg.origin, seg.destination, nd)
                if bookable(f.flight_number, nd, res.cabin, n)]
        if opts:
            return RNG.choice(opts), nd
    return None


# Kind W3: move one flight of an economy/business reservation to another date.
def change_flight(i: int, split: str = "test") -> None:
    while True:
        res, user = free_res(lambda r, u: change_candidates(r, u) and r.trip_type == "one_way" and len(r.flights) == 1)
        alt = alt_flight(res, 0)
        if alt:
            break
    new, nd = alt
    card = cards(user)[0]
    text, line, gold = auth(user, res.reservation_id)
    flights = [{"flight_number": new.flight_number, "date": nd}]
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("search_direct_flights", origin=new.origin, destination=new.destination, date=nd),
             A("update_reservation_flights", reservation_id=res.reservation_id, cabin=res.cabin, flights=flights,
               payment_id=card.id)]
    env_calls = run(gold)
    diff = result(env_calls, "update_reservation_flights")["fare_difference"]
    instructions = (
        f"{text} Your one-way trip {res.reservation_id} from {city(res.origin)} to {city(res.destination)} is on "
        f"{MONTH_DAY(res.flights[0].date)}; you need to fly on {MONTH_DAY(nd)} instead, on the nonstop departing at "
        f"{new.scheduled_departure_time_est}, same cabin. Any difference in fare goes to or comes from {card_words(card)}. "
        f"You want to know the exact fare difference before you confirm. {persona()}"
    )
    add(f"change_flight_date_{i}", instructions,
        [f"Hi, I need to move my flight to {MONTH_DAY(nd)}.", line, "Yes, please make the change."], gold,
        [fmt(abs(diff))], split=split)


# Kind W4: upgrade the cabin of a whole reservation.
def upgrade_cabin(i: int, split: str = "test") -> None:
    target = {"economy": "business", "basic_economy": "economy"}
    while True:
        res, user = free_res(lambda r, u: r.status == "active" and r.cabin in target and future(r)
                             and statuses(r) == {"available"} and cards(u) and len(r.passengers) <= 2)
        new_cabin = target[res.cabin]
        if all(bookable(f.flight_number, f.date, new_cabin, len(res.passengers)) for f in res.flights):
            break
    card = cards(user)[-1]
    text, line, gold = auth(user, res.reservation_id)
    flights = [{"flight_number": f.flight_number, "date": f.date} for f in res.flights]
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("update_reservation_flights", reservation_id=res.reservation_id, cabin=new_cabin, flights=flights,
               payment_id=card.id)]
    diff = result(run(gold), "update_reservation_flights")["fare_difference"]
    instructions = (
        f"{text} You want to upgrade reservation {res.reservation_id} ({city(res.origin)} to {city(res.destination)}) "
        f"from {CABIN_WORDS[res.cabin]} to {CABIN_WORDS[new_cabin]} for everyone on it, keeping the same flights, "
        f"paying with {card_words(card)}. Ask what the upgrade costs; accept any price. {persona()}"
    )
    add(f"upgrade_cabin_{i}", instructions,
        [f"Hi, I'd like to upgrade my reservation to {CABIN_WORDS[new_cabin]}.", line, "Yes, upgrade it."],
        gold, [fmt(diff)], split=split)


# Kind W5: add checked bags.
def add_bags(i: int, split: str = "test") -> None:
    use_gift = i % 2 == 1
    while True:
        res, user = free_res(lambda r, u: r.status == "active" and future(r) and cards(u)
                             and (not use_gift or gifts(u)))
        n = len(res.passengers)
        free = FREE_BAGS[user.membership][res.cabin] * n
        new_total = max(res.total_baggages, free) + RNG.randint(1, 2)
        if new_total > 4 * n:
            continue
        fee = (max(0, new_total - free) - res.nonfree_baggages) * EXTRA_BAG_FEE
        method = gifts(user)[0] if use_gift else cards(user)[0]
        if fee > 0 and (not use_gift or method.amount >= fee):
            break
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("get_baggage_allowance", reservation_id=res.reservation_id),
             A("update_reservation_baggages", reservation_id=res.reservation_id, total_baggages=new_total,
               payment_id=method.id)]
    pay = f"your gift card (balance ${method.amount:.2f})" if use_gift else card_words(method)
    instructions = (
        f"{text} On reservation {res.reservation_id} you currently have {res.total_baggages} checked bag(s); you want "
        f"{new_total} in total. Pay any fee with {pay}. Ask how much the extra bags cost before agreeing. {persona()}"
    )
    add(f"add_checked_bags_{i}", instructions,
        [f"Hi, I need to add checked bags to reservation {res.reservation_id}.", line, "OK, go ahead."],
        gold, [fmt(fee)], split=split)


# Kind W6: correct a passenger's details.
def fix_passenger(i: int, split: str = "test") -> None:
    res, user = free_res(lambda r, u: r.status == "active" and future(r) and len(r.passengers) >= 2)
    pax = [passenger_dict(p) for p in res.passengers]
    j = len(pax) - 1
    old = dict(pax[j])
    if i % 2 == 0:
        pax[j]["last_name"] = old["last_name"][:-1] + ("e" if old["last_name"][-1] != "e" else "a")
        what = f"the last name of {old['first_name']} {old['last_name']} is misspelled: it should be {pax[j]['last_name']}"
    else:
        y, m, d = old["dob"].split("-")
        pax[j]["dob"] = f"{y}-{d if int(d) <= 12 else m}-{m if int(d) <= 12 else d}" if int(d) <= 12 and d != m else f"{int(y) + 1}-{m}-{d}"
        what = f"the date of birth of {old['first_name']} {old['last_name']} is wrong: it should be {pax[j]['dob']}"
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("update_reservation_passengers", reservation_id=res.reservation_id, passengers=pax)]
    instructions = f"{text} On reservation {res.reservation_id}, {what}. Nothing else changes. {persona()}"
    add(f"fix_passenger_details_{i}", instructions,
        ["Hi, there's a mistake in one of the passengers on my booking.", line, "Yes, please correct it."], gold,
        split=split)


def refund_of(calls) -> float:
    return result(calls, "cancel_reservation")["refund_total"]


# Kind W7/W10/W11: allowed cancellations.
def cancel_allowed(i: int, why: str, split: str = "test") -> None:
    recent = "2026-05-14T14:00"
    if why == "recent":
        pred = lambda r, u: (r.status == "active" and r.created_at >= recent and r.cabin != "business"
                             and not r.insurance and no_flown(r) and "cancelled" not in statuses(r))
        reason, story = "change of plan", "your plans changed: the friend you were going to visit will be away that week"
    elif why == "business":
        pred = lambda r, u: (r.status == "active" and r.created_at < recent and r.cabin == "business"
                             and no_flown(r) and "cancelled" not in statuses(r) and not r.insurance)
        reason, story = "change of plan", "your plans changed: the conference you were attending was called off"
    else:
        pred = lambda r, u: (r.status == "active" and r.created_at < recent and r.cabin != "business" and r.insurance
                             and no_flown(r) and "cancelled" not in statuses(r))
        reason, story = ("health", "you broke your ankle and your doctor told you not to travel") if i % 2 else (
            "weather", "a hurricane warning has been issued for your destination")
    res, user = free_res(pred)
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("cancel_reservation", reservation_id=res.reservation_id, reason=reason)]
    refund = refund_of(run(gold))
    instructions = (
        f"{text} You want to cancel reservation {res.reservation_id} ({city(res.origin)} to {city(res.destination)}) "
        f"because {story}. You want to know how much will be refunded. {persona()}"
    )
    add(f"cancel_{why}_{i}", instructions,
        ["Hi, I need to cancel a reservation.", line, f"The reason: {story}.", "Yes, cancel it."], gold,
        [fmt(refund)], split=split)


def eligible(res, user) -> bool:
    return user.membership in ("silver", "gold") or res.cabin == "business" or res.insurance


# Kind W8: airline-cancelled flight: cancel for a refund and get compensation.
def cancel_airline_cancelled(i: int, split: str = "test") -> None:
    res, user = free_res(lambda r, u: r.status == "active" and "cancelled" in statuses(r) and no_flown(r)
                         and eligible(r, u) and r.compensation_certificate_id is None)
    n = len(res.passengers)
    amount = COMPENSATION_PER_PASSENGER["cancelled"] * n
    cancelled = [f for f in res.flights if inst(f.flight_number, f.date).status == "cancelled"][0]
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("get_flight_status", flight_number=cancelled.flight_number, date=cancelled.date),
             A("cancel_reservation", reservation_id=res.reservation_id, reason="airline cancelled flight"),
             A("calculate", expression=f"{COMPENSATION_PER_PASSENGER['cancelled']} * {n}"),
             A("send_certificate", user_id=user.user_id, reservation_id=res.reservation_id, amount=amount)]
    refund = refund_of(run(gold))
    instructions = (
        f"{text} Your flight {cancelled.flight_number} on {MONTH_DAY(cancelled.date)} (reservation {res.reservation_id}) "
        f"was cancelled by the airline. You no longer want to travel: cancel the whole reservation and get your money "
        f"back. You are upset and, once the cancellation is done, you ask for compensation for the trouble. Ask how much "
        f"is refunded and what the compensation is worth. {persona()}"
    )
    add(f"cancel_after_airline_cancellation_{i}", instructions,
        ["My flight was cancelled and I want my money back.", line, "Yes, cancel it. And I expect compensation.",
         "Yes, please send it."], gold, [fmt(refund), fmt(amount)], split=split)


# Kind W9: compensation for a delayed flight.
def compensation_delayed(i: int, split: str = "test") -> None:
    res, user = free_res(lambda r, u: r.status == "active" and "delayed" in statuses(r) and "cancelled" not in statuses(r)
                         and u.membership in ("silver", "gold") and r.compensation_certificate_id is None)
    n = len(res.passengers)
    amount = COMPENSATION_PER_PASSENGER["delayed"] * n
    seg = [f for f in res.flights if inst(f.flight_number, f.date).status == "delayed"][0]
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("get_flight_status", flight_number=seg.flight_number, date=seg.date),
             A("calculate", expression=f"{COMPENSATION_PER_PASSENGER['delayed']} * {n}"),
             A("send_certificate", user_id=user.user_id, reservation_id=res.reservation_id, amount=amount)]
    est = inst(seg.flight_number, seg.date).estimated_departure_time_est
    instructions = (
        f"{text} Your flight {seg.flight_number} on {MONTH_DAY(seg.date)} (reservation {res.reservation_id}) is delayed. "
        f"Ask when it is now expected to leave, then complain that this ruins your plans and ask for compensation. "
        f"You keep the reservation as it is. {persona()}"
    )
    add(f"compensation_delayed_flight_{i}", instructions,
        [f"Hi, is flight {seg.flight_number} delayed?", line, "This is terrible. What compensation do I get?",
         "Yes, please issue it."], gold, [est, fmt(amount)], split=split)


# ======================================================================================
# Multi-write kinds
def multi_change_bags_passenger(i: int) -> None:
    while True:
        res, user = free_res(lambda r, u: change_candidates(r, u) and len(r.passengers) >= 2)
        seg_index = len(res.flights) - 1
        alt = alt_flight(res, seg_index)
        n = len(res.passengers)
        free = FREE_BAGS[user.membership][res.cabin] * n
        new_total = max(res.total_baggages, free) + 1
        if alt and new_total <= 4 * n:
            break
    new, nd = alt
    card = cards(user)[0]
    flights = [{"flight_number": f.flight_number, "date": f.date} for f in res.flights]
    flights[seg_index] = {"flight_number": new.flight_number, "date": nd}
    pax = [passenger_dict(p) for p in res.passengers]
    old_first = pax[1]["first_name"]
    middle = RNG.choice(["Marie", "James", "Anne", "Lee", "Rose", "John", "Grace", "Ray"])
    pax[1]["first_name"] = f"{old_first} {middle}"
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("search_direct_flights", origin=new.origin, destination=new.destination, date=nd),
             A("update_reservation_flights", reservation_id=res.reservation_id, cabin=res.cabin, flights=flights,
               payment_id=card.id),
             A("get_baggage_allowance", reservation_id=res.reservation_id),
             A("update_reservation_baggages", reservation_id=res.reservation_id, total_baggages=new_total,
               payment_id=card.id),
             A("update_reservation_passengers", reservation_id=res.reservation_id, passengers=pax)]
    calls = run(gold)
    diff = result(calls, "update_reservation_flights")["fare_difference"]
    fee = result(calls, "update_reservation_baggages")["bag_fee"]
    which = "return flight" if res.trip_type == "round_trip" else "flight"
    seg = res.flights[seg_index]
    instructions = (
        f"{text} On reservation {res.reservation_id} you want three things: (1) move your {which} "
        f"{seg.flight_number} of {MONTH_DAY(seg.date)} to the nonstop on {MONTH_DAY(nd)} departing at "
        f"{new.scheduled_departure_time_est}, same cabin; (2) have {new_total} checked bags in total; (3) correct the "
        f"first name of passenger {old_first} {pax[1]['last_name']}: to match the passport it must be "
        f"{pax[1]['first_name']!r} (first and middle name). Everything "
        f"is paid with {card_words(card)}. Ask for the fare difference and the bag fee. {persona()}"
    )
    outputs = [fmt(abs(diff))] + ([fmt(fee)] if fee else [])
    add(f"change_flight_bags_and_name_{i}", instructions,
        ["Hi, I have a few changes to make to my reservation.", line, "Yes to all of it."], gold, outputs)


def multi_cancel_rebook_bags(i: int) -> None:
    recent = "2026-05-14T14:00"
    res, user = free_res(lambda r, u: (r.status == "active" and r.created_at >= recent and r.cabin != "business"
                                        and no_flown(r) and "cancelled" not in statuses(r) and r.trip_type == "one_way"
                                        and len(r.flights) == 1 and cards(u) and len(u.reservations) >= 2))
    other_id = next(rid for rid in user.reservations if rid != res.reservation_id
                    and DB.reservations[rid].status == "active" and future(DB.reservations[rid])
                    and DB.reservations[rid].total_baggages < 4 * len(DB.reservations[rid].passengers))
    other = DB.reservations[other_id]
    seg = res.flights[0]
    n = len(res.passengers)
    cabin = res.cabin
    opts = []
    for delta in (7, 6, 5, 4, 3, 2, -2, -3):
        nd = f"2026-05-{int(seg.date[8:]) + delta:02d}"
        if not ("2026-05-16" <= nd <= "2026-05-28"):
            continue
        opts = [f for f in direct_options(seg.origin, seg.destination, nd) if bookable(f.flight_number, nd, cabin, n)]
        if opts:
            break
    new = opts[0]
    card = cards(user)[0]
    bags = res.total_baggages
    nonfree = max(0, bags - FREE_BAGS[user.membership][cabin] * n)
    p = price(new.flight_number, nd, cabin)
    total = p * n + nonfree * EXTRA_BAG_FEE + (INSURANCE_PER_PASSENGER * n if res.insurance else 0)
    o_free = FREE_BAGS[user.membership][other.cabin] * len(other.passengers)
    o_total = other.total_baggages + 1
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("cancel_reservation", reservation_id=res.reservation_id, reason="change of plan"),
             A("search_direct_flights", origin=seg.origin, destination=seg.destination, date=nd),
             A("book_reservation", user_id=user.user_id, origin=seg.origin, destination=seg.destination,
               trip_type="one_way", cabin=cabin, flights=[{"flight_number": new.flight_number, "date": nd}],
               passengers=[passenger_dict(p_) for p_ in res.passengers],
               payment_methods=[{"payment_id": card.id, "amount": total}], total_baggages=bags,
               insurance=res.insurance),
             A("get_reservation_details", reservation_id=other_id),
             A("update_reservation_baggages", reservation_id=other_id, total_baggages=o_total, payment_id=card.id)]
    calls = run(gold)
    refund = refund_of(calls)
    ins = "with travel insurance again" if res.insurance else "without insurance"
    instructions = (
        f"{text} Yesterday you booked reservation {res.reservation_id} ({city(seg.origin)} to {city(seg.destination)}, "
        f"{MONTH_DAY(seg.date)}) but picked the wrong date. Cancel it (your plans changed) and book the same trip, same "
        f"passengers, same cabin ({CABIN_WORDS[cabin]}), {bags} checked bag(s), {ins}, on the {new.scheduled_departure_time_est} "
        f"nonstop on {MONTH_DAY(nd)}, paid with {card_words(card)}. Also add one checked bag to your other reservation "
        f"{other_id} (to {o_total} in total), same card. Ask for the refund amount and the new booking's total. {persona()}"
    )
    _ = o_free
    add(f"cancel_rebook_and_add_bag_{i}", instructions,
        ["Hi, I booked the wrong date yesterday and need to fix it.", line, "Yes, please do all of that."], gold,
        [fmt(refund), fmt(total)])


def multi_compensate_cancel_rebook(i: int) -> None:
    while True:
        res, user = free_res(lambda r, u: r.status == "active" and "cancelled" in statuses(r) and no_flown(r)
                             and u.membership in ("silver", "gold") and r.trip_type == "one_way" and cards(u)
                             and r.compensation_certificate_id is None)
        seg = [f for f in res.flights if inst(f.flight_number, f.date).status == "cancelled"][0]
        n = len(res.passengers)
        nd = f"2026-05-{int(res.flights[0].date[8:]) + 1:02d}"
        if nd > "2026-05-28":
            continue
        cabin = "economy"
        opts = [f for f in direct_options(res.origin, res.destination, nd) if bookable(f.flight_number, nd, cabin, n)]
        if opts:
            break
    new = opts[0]
    amount = COMPENSATION_PER_PASSENGER["cancelled"] * n
    cert_id = _certificate_id(res.reservation_id)
    p = price(new.flight_number, nd, cabin)
    bags = 0
    total = p * n
    card = cards(user)[0]
    pay = [{"payment_id": cert_id, "amount": min(amount, total)}]
    if total > amount:
        pay.append({"payment_id": card.id, "amount": round(total - amount, 2)})
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("get_flight_status", flight_number=seg.flight_number, date=seg.date),
             A("send_certificate", user_id=user.user_id, reservation_id=res.reservation_id, amount=amount),
             A("cancel_reservation", reservation_id=res.reservation_id, reason="airline cancelled flight"),
             A("search_direct_flights", origin=res.origin, destination=res.destination, date=nd),
             A("calculate", expression=f"{p} * {n} - {amount}"),
             A("book_reservation", user_id=user.user_id, origin=res.origin, destination=res.destination,
               trip_type="one_way", cabin=cabin, flights=[{"flight_number": new.flight_number, "date": nd}],
               passengers=[passenger_dict(x) for x in res.passengers], payment_methods=pay, total_baggages=bags,
               insurance=False)]
    calls = run(gold)
    refund = refund_of(calls)
    rest = fmt(round(total - amount, 2)) if total > amount else fmt(total)
    instructions = (
        f"{text} Your reservation {res.reservation_id} ({city(res.origin)} to {city(res.destination)}) includes flight "
        f"{seg.flight_number} on {MONTH_DAY(seg.date)}, which the airline cancelled. You want, in this order: a "
        f"compensation certificate for the cancellation; then cancel that reservation for a refund; then a new one-way "
        f"booking for the same passengers on the earliest nonstop on {MONTH_DAY(nd)} that still has economy seats for all of you, no bags, no insurance, "
        f"paid first with the new compensation certificate and the rest with {card_words(card)}. Ask how much is refunded "
        f"and how much goes on the card. {persona()}"
    )
    add(f"compensate_cancel_and_rebook_{i}", instructions,
        ["My flight got cancelled. I want compensation and a new flight.", line, "Yes, go ahead with all of it."],
        gold, [fmt(amount), fmt(refund), rest])


def multi_delay_comp_bags_passenger(i: int) -> None:
    while True:
        res, user = free_res(lambda r, u: r.status == "active" and "delayed" in statuses(r)
                             and "cancelled" not in statuses(r) and eligible(r, u) and no_flown(r)
                             and len(r.passengers) >= 2 and cards(u) and r.compensation_certificate_id is None)
        n = len(res.passengers)
        new_total = max(res.total_baggages, FREE_BAGS[user.membership][res.cabin] * n) + 1
        if new_total <= 4 * n:
            break
    seg = [f for f in res.flights if inst(f.flight_number, f.date).status == "delayed"][0]
    amount = COMPENSATION_PER_PASSENGER["delayed"] * n
    card = cards(user)[-1]
    pax = [passenger_dict(p) for p in res.passengers]
    pax[-1]["dob"] = f"{int(pax[-1]['dob'][:4]) - 1}{pax[-1]['dob'][4:]}"
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("get_flight_status", flight_number=seg.flight_number, date=seg.date),
             A("send_certificate", user_id=user.user_id, reservation_id=res.reservation_id, amount=amount),
             A("update_reservation_baggages", reservation_id=res.reservation_id, total_baggages=new_total,
               payment_id=card.id),
             A("update_reservation_passengers", reservation_id=res.reservation_id, passengers=pax)]
    fee = result(run(gold), "update_reservation_baggages")["bag_fee"]
    last = res.passengers[-1]
    instructions = (
        f"{text} Your flight {seg.flight_number} on {MONTH_DAY(seg.date)} (reservation {res.reservation_id}) is delayed "
        f"and you are unhappy about it: ask for compensation. While you are at it, you want {new_total} checked bags in "
        f"total on that reservation, paid with {card_words(card)}, and the date of birth of {last.first_name} "
        f"{last.last_name} corrected to {pax[-1]['dob']}. Ask what the certificate is worth and what the bags cost. {persona()}"
    )
    add(f"delay_compensation_bags_and_dob_{i}", instructions,
        ["My flight is delayed again. What are you going to do about it?", line, "Yes, please do all three."], gold,
        [fmt(amount)] + ([fmt(fee)] if fee else []))


def multi_two_bookings_and_bag(i: int) -> None:
    user = free_user(lambda u: cards(u) and len(u.reservations) >= 1 and any(
        DB.reservations[r].status == "active" and future(DB.reservations[r])
        and DB.reservations[r].total_baggages < 4 * len(DB.reservations[r].passengers) for r in u.reservations))
    rid = next(r for r in user.reservations if DB.reservations[r].status == "active" and future(DB.reservations[r])
               and DB.reservations[r].total_baggages < 4 * len(DB.reservations[r].passengers))
    existing = DB.reservations[rid]
    card = cards(user)[0]
    f1, d1 = pick_direct("economy", 1, ("2026-05-18", "2026-05-21"))
    outs = []
    for delta in (3, 4, 5, 2):
        d2 = f"2026-05-{int(d1[8:]) + delta:02d}"
        cands = sorted([f for f in DB.flights.values() if f.origin == f1.destination and f.destination != f1.origin
                        and bookable(f.flight_number, d2, "economy", 1)], key=lambda f: f.flight_number)
        if cands:
            outs = [(RNG.choice(cands), d2)]
            break
    f2, d2 = outs[0]
    p1, p2 = price(f1.flight_number, d1, "economy"), price(f2.flight_number, d2, "economy")
    me = [self_pax(user)]
    text, line, gold = auth(user, rid)
    gold += [A("search_direct_flights", origin=f1.origin, destination=f1.destination, date=d1),
             A("book_reservation", user_id=user.user_id, origin=f1.origin, destination=f1.destination,
               trip_type="one_way", cabin="economy", flights=[{"flight_number": f1.flight_number, "date": d1}],
               passengers=me, payment_methods=[{"payment_id": card.id, "amount": p1}], total_baggages=0,
               insurance=False),
             A("search_direct_flights", origin=f2.origin, destination=f2.destination, date=d2),
             A("book_reservation", user_id=user.user_id, origin=f2.origin, destination=f2.destination,
               trip_type="one_way", cabin="economy", flights=[{"flight_number": f2.flight_number, "date": d2}],
               passengers=me, payment_methods=[{"payment_id": card.id, "amount": p2}], total_baggages=0,
               insurance=False),
             A("get_reservation_details", reservation_id=rid),
             A("update_reservation_baggages", reservation_id=rid, total_baggages=existing.total_baggages + 1,
               payment_id=card.id),
             A("calculate", expression=f"{p1} + {p2}")]
    fee = result(run(gold), "update_reservation_baggages")["bag_fee"]
    instructions = (
        f"{text} You are planning a two-city work trip, alone, in economy, no bags and no insurance, each flight booked as "
        f"its own one-way reservation: first {city(f1.origin)} to {city(f1.destination)} on {MONTH_DAY(d1)} on the nonstop "
        f"departing {f1.scheduled_departure_time_est}; then {city(f2.origin)} to {city(f2.destination)} on {MONTH_DAY(d2)} "
        f"on the nonstop departing {f2.scheduled_departure_time_est}. Pay both with {card_words(card)}. Also add one "
        f"checked bag to your existing reservation {rid} (same card). Ask what the two new flights cost together"
        f"{' and what the bag costs' if fee else ''}. {persona()}"
    )
    add(f"two_bookings_and_bag_{i}", instructions,
        ["Hi, I need to book two flights for a work trip.", line, "Yes, book both, and add the bag."], gold,
        [fmt(p1 + p2)] + ([fmt(fee)] if fee else []))


def multi_basic_upgrade_then_change(i: int) -> None:
    while True:
        res, user = free_res(lambda r, u: r.status == "active" and r.cabin == "basic_economy" and future(r)
                             and statuses(r) == {"available"} and cards(u) and len(r.passengers) <= 2
                             and r.trip_type == "one_way" and len(r.flights) == 1)
        n = len(res.passengers)
        seg = res.flights[0]
        if not bookable(seg.flight_number, seg.date, "economy", n):
            continue
        fake = res.model_copy(update={"cabin": "economy"})
        alt = alt_flight(fake, 0)
        new_total = max(res.total_baggages, FREE_BAGS[user.membership]["economy"] * n) + 1
        if alt and new_total <= 4 * n:
            break
    new, nd = alt
    card = cards(user)[0]
    same = [{"flight_number": seg.flight_number, "date": seg.date}]
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("update_reservation_flights", reservation_id=res.reservation_id, cabin="economy", flights=same,
               payment_id=card.id),
             A("search_direct_flights", origin=new.origin, destination=new.destination, date=nd),
             A("update_reservation_flights", reservation_id=res.reservation_id, cabin="economy",
               flights=[{"flight_number": new.flight_number, "date": nd}], payment_id=card.id),
             A("update_reservation_baggages", reservation_id=res.reservation_id, total_baggages=new_total,
               payment_id=card.id)]
    calls = run(gold)
    up = result(calls, "update_reservation_flights", 0)["fare_difference"]
    ch = result(calls, "update_reservation_flights", 1)["fare_difference"]
    instructions = (
        f"{text} Reservation {res.reservation_id} is a basic economy one-way from {city(res.origin)} to "
        f"{city(res.destination)} on {MONTH_DAY(seg.date)}. You want to move it to {MONTH_DAY(nd)}, the nonstop departing "
        f"{new.scheduled_departure_time_est}. If the agent says basic economy can't be changed, ask if there is any way; "
        f"if upgrading to economy first makes the change possible, accept the economy upgrade (never business). After the "
        f"change you also want {new_total} checked bags in total. Everything on {card_words(card)}. Ask what the upgrade "
        f"costs and what the date change costs. {persona()}"
    )
    add(f"basic_upgrade_then_change_{i}", instructions,
        ["Hi, I need to change the date of my flight.", line, "OK, upgrade to economy then, and make the change.",
         "Yes, and the bags too."], gold, [fmt(abs(up)), fmt(abs(ch))])


# ======================================================================================
# Forbidden kinds
def refuse_cancel_nonrefundable(i: int) -> None:
    res, user = free_res(lambda r, u: r.status == "active" and r.created_at < "2026-05-14T14:00" and r.cabin != "business"
                         and not r.insurance and no_flown(r) and "cancelled" not in statuses(r))
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id)]
    amounts = [p.amount for p in res.payment_history]
    paid = round(sum(amounts), 2)
    if len(amounts) > 1:
        gold.append(A("calculate", expression=" + ".join(str(a) for a in amounts)))
    instructions = (
        f"{text} You want to cancel reservation {res.reservation_id} ({city(res.origin)} to {city(res.destination)}) and "
        f"get a full refund because you found a cheaper fare with another airline. If refused, insist once, saying you are "
        f"a loyal customer; you do not want any other change and you do not want to be transferred. Ask how much you paid in total for the reservation. {persona()}"
    )
    add(f"refuse_nonrefundable_cancel_{i}", instructions,
        ["I want to cancel my reservation and get a refund.", line, "I found a cheaper fare elsewhere.",
         "Come on, I'm a loyal customer."], gold, [fmt(paid)],
        required=[A("get_reservation_details", reservation_id=res.reservation_id)],
        forbidden=[A("cancel_reservation", reservation_id=res.reservation_id), A("transfer_to_human_agents")])


def refuse_basic_change(i: int) -> None:
    res, user = free_res(lambda r, u: r.status == "active" and r.cabin == "basic_economy" and future(r)
                         and r.trip_type == "round_trip")
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id)]
    back = res.flights[-1]
    instructions = (
        f"{text} You want to move the return flight of reservation {res.reservation_id} (flight {back.flight_number} on "
        f"{MONTH_DAY(back.date)}) one day later. You do not want to pay for any cabin upgrade, and you do not want to cancel. "
        f"If it can't be done, accept the answer. {persona()}"
    )
    add(f"refuse_basic_economy_change_{i}", instructions,
        ["I need to push my return flight by one day.", line, "No, I don't want to pay for an upgrade."], gold,
        required=[A("get_reservation_details", reservation_id=res.reservation_id)],
        forbidden=[A("update_reservation_flights"), A("cancel_reservation")])


def refuse_comp_regular(i: int) -> None:
    res, user = free_res(lambda r, u: r.status == "active" and "cancelled" in statuses(r) and no_flown(r)
                         and u.membership == "regular" and r.cabin != "business" and not r.insurance)
    seg = [f for f in res.flights if inst(f.flight_number, f.date).status == "cancelled"][0]
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("get_flight_status", flight_number=seg.flight_number, date=seg.date),
             A("cancel_reservation", reservation_id=res.reservation_id, reason="airline cancelled flight")]
    refund = refund_of(run(gold))
    instructions = (
        f"{text} Your flight {seg.flight_number} on {MONTH_DAY(seg.date)} (reservation {res.reservation_id}) was cancelled "
        f"by the airline. You want the reservation cancelled with a refund, and you demand a compensation certificate on "
        f"top. If compensation is refused, insist once, then accept. Ask for the refund amount. {persona()}"
    )
    add(f"cancel_but_no_compensation_{i}", instructions,
        ["My flight was cancelled. Cancel my booking, refund me, and I want compensation.", line,
         "Yes, cancel it.", "I really think I deserve a certificate."], gold, [fmt(refund)],
        forbidden=[A("send_certificate")])


def refuse_group_of_six(i: int) -> None:
    user = free_user(lambda u: cards(u) and u.reservations and len(u.saved_passengers) >= 2)
    flight, day = pick_direct("economy", 6)
    text, line, gold = auth(user, user.reservations[0])
    gold += [A("search_direct_flights", origin=flight.origin, destination=flight.destination, date=day),
             A("transfer_to_human_agents", summary=f"User wants one reservation for 6 passengers {flight.origin}-"
               f"{flight.destination} on {day}; policy allows at most 5 and the user will not split the booking.")]
    instructions = (
        f"{text} You want one single reservation for six people (you, family and friends) from {city(flight.origin)} to "
        f"{city(flight.destination)} on {MONTH_DAY(day)} in economy on the {flight.scheduled_departure_time_est} nonstop. "
        f"You refuse to split it into two bookings. If the agent cannot do it, ask to speak to a human agent. {persona()}"
    )
    add(f"group_of_six_transfer_{i}", instructions,
        ["I need to book a flight for six people on one reservation.", line, "No, I want them all on one booking.",
         "Then get me a human."], gold, required=[A("transfer_to_human_agents")],
        forbidden=[A("book_reservation")])


def transfer_partly_flown(i: int) -> None:
    res, user = free_res(lambda r, u: r.status == "active" and r.trip_type == "round_trip"
                         and f"{r.flights[0].date}T{dep(r.flights[0].flight_number)}" < NOW
                         and inst(r.flights[0].flight_number, r.flights[0].date).status == "landed"
                         and r.flights[-1].date > "2026-05-16")
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("transfer_to_human_agents", summary=f"User wants to cancel reservation {res.reservation_id}; the outbound "
               f"has been flown, so it cannot be cancelled by the desk.")]
    instructions = (
        f"{text} You already flew the outbound of your round trip {res.reservation_id} and now want to cancel the rest of "
        f"the trip (the return on {MONTH_DAY(res.flights[-1].date)}) and be refunded for it, because of a family matter. "
        f"If the agent cannot do it, ask for a human agent. {persona()}"
    )
    add(f"partly_flown_cancel_transfer_{i}", instructions,
        ["I want to cancel the return part of my trip.", line, "Then I want to talk to a person."], gold,
        required=[A("transfer_to_human_agents")], forbidden=[A("cancel_reservation")])


def refuse_certificate_for_change(i: int) -> None:
    while True:
        res, user = free_res(lambda r, u: change_candidates(r, u) and certs(u) and r.trip_type == "one_way"
                             and len(r.flights) == 1)
        alt = alt_flight(res, 0)
        if alt:
            new, nd = alt
            if price(new.flight_number, nd, res.cabin) > res.flights[0].price:
                break
    cert, card = certs(user)[0], cards(user)[0]
    flights = [{"flight_number": new.flight_number, "date": nd}]
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("search_direct_flights", origin=new.origin, destination=new.destination, date=nd),
             A("update_reservation_flights", reservation_id=res.reservation_id, cabin=res.cabin, flights=flights,
               payment_id=card.id)]
    diff = result(run(gold), "update_reservation_flights")["fare_difference"]
    instructions = (
        f"{text} You want to move reservation {res.reservation_id} to {MONTH_DAY(nd)} on the nonstop departing "
        f"{new.scheduled_departure_time_est}, same cabin. You want to pay the fare difference with your ${cert.amount:.0f} "
        f"travel certificate. If that is not allowed, use {card_words(card)} instead. Ask for the fare difference. {persona()}"
    )
    add(f"change_paid_not_by_certificate_{i}", instructions,
        [f"Hi, I want to change my flight to {MONTH_DAY(nd)}.", line, "Can I use my travel certificate for it?",
         "Fine, use my card then."], gold, [fmt(diff)],
        forbidden=[A("update_reservation_flights", payment_id=cert.id)])


def refuse_insurance_wrong_reason(i: int) -> None:
    res, user = free_res(lambda r, u: r.status == "active" and r.insurance and r.cabin != "business"
                         and r.created_at < "2026-05-14T14:00" and no_flown(r) and "cancelled" not in statuses(r))
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id)]
    instructions = (
        f"{text} You want to cancel reservation {res.reservation_id} because your manager moved an important meeting and "
        f"you have to stay in town. You bought travel insurance and think it covers this. You are honest: you are not sick "
        f"and there is no weather problem. If refused, accept it; you do not want a transfer. {persona()}"
    )
    add(f"refuse_insurance_work_reason_{i}", instructions,
        ["I need to cancel my trip. I have insurance.", line, "My boss moved a meeting, so I can't go."], gold,
        required=[A("get_reservation_details", reservation_id=res.reservation_id)],
        forbidden=[A("cancel_reservation"), A("transfer_to_human_agents")])


def refuse_remove_bags(i: int) -> None:
    res, user = free_res(lambda r, u: r.status == "active" and future(r) and r.nonfree_baggages >= 1)
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("get_baggage_allowance", reservation_id=res.reservation_id)]
    instructions = (
        f"{text} Reservation {res.reservation_id} has {res.total_baggages} checked bags, {res.nonfree_baggages} of them "
        f"paid. You want to drop one bag and get $50 back. If refused, accept. Ask how many free bags your reservation "
        f"includes. {persona()}"
    )
    free = FREE_BAGS[user.membership][res.cabin] * len(res.passengers)
    add(f"refuse_remove_bag_{i}", instructions,
        ["I want to remove a checked bag and get a refund.", line, "Oh well. How many are free, then?"], gold,
        [str(free)] if free else ["0"], required=[A("get_baggage_allowance", reservation_id=res.reservation_id)],
        forbidden=[A("update_reservation_baggages")])


def refuse_add_passenger(i: int) -> None:
    res, user = free_res(lambda r, u: r.status == "active" and future(r) and len(r.passengers) <= 3 and cards(u))
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id)]
    instructions = (
        f"{text} You want to add your friend Dana Whitfield (born 1990-06-14) as an extra passenger on reservation "
        f"{res.reservation_id}. You do not want a separate booking and you do not want any other change; if it can't be "
        f"done, accept that. {persona()}"
    )
    add(f"refuse_add_passenger_{i}", instructions,
        ["Can you add a friend to my reservation?", line, "No, I don't want a new booking."], gold,
        required=[A("get_reservation_details", reservation_id=res.reservation_id)],
        forbidden=[A("update_reservation_passengers"), A("book_reservation")])


def refuse_comp_on_time(i: int) -> None:
    res, user = free_res(lambda r, u: r.status == "active" and r.flights[0].date < "2026-05-15"
                         and statuses(r) == {"landed"} and u.membership == "gold")
    seg = res.flights[0]
    text, line, gold = auth(user, res.reservation_id)
    actual = inst(seg.flight_number, seg.date).actual_arrival_time_est
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("get_flight_status", flight_number=seg.flight_number, date=seg.date)]
    instructions = (
        f"{text} You flew {seg.flight_number} on {MONTH_DAY(seg.date)} (reservation {res.reservation_id}). You feel the "
        f"trip was slow and want a compensation certificate as a gold member. Ask what time the flight actually landed. "
        f"If refused, accept. {persona()}"
    )
    add(f"refuse_compensation_landed_{i}", instructions,
        ["I'd like compensation for my recent flight.", line, "What time did it actually land?"], gold, [actual],
        forbidden=[A("send_certificate")])


def refuse_gift_card_short(i: int) -> None:
    while True:
        res, user = free_res(lambda r, u: r.status == "active" and future(r) and gifts(u) and cards(u))
        n = len(res.passengers)
        free = FREE_BAGS[user.membership][res.cabin] * n
        new_total = max(res.total_baggages, free) + 3
        fee = (max(0, new_total - free) - res.nonfree_baggages) * EXTRA_BAG_FEE
        gift = gifts(user)[0]
        if new_total <= 4 * n and fee > gift.amount > 0:
            break
    card = cards(user)[0]
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("update_reservation_baggages", reservation_id=res.reservation_id, total_baggages=new_total,
               payment_id=card.id)]
    instructions = (
        f"{text} You want {new_total} checked bags in total on reservation {res.reservation_id}. You want to pay the fee "
        f"with your gift card and put only what it doesn't cover on {card_words(card)}. If splitting is not allowed, pay "
        f"it all with the card. Ask for the fee. {persona()}"
    )
    add(f"bag_fee_gift_card_short_{i}", instructions,
        ["I want to add bags to my trip.", line, "Can you split it between my gift card and my card?",
         "OK, put it all on the card."], gold, [fmt(fee)],
        forbidden=[A("update_reservation_baggages", payment_id=gift.id)])


def refuse_change_destination(i: int) -> None:
    res, user = free_res(lambda r, u: change_candidates(r, u) and r.trip_type == "one_way" and len(r.flights) == 1
                         and r.created_at < "2026-05-14T14:00" and not r.insurance)
    new_dest = [c for c in sorted(DB.airports) if c not in (res.origin, res.destination)][i % 5]
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id)]
    instructions = (
        f"{text} Reservation {res.reservation_id} takes you from {city(res.origin)} to {city(res.destination)}. You want "
        f"to change it to fly to {city(new_dest)} instead, on the same date. If told that is impossible, ask whether "
        f"you could cancel instead and get a refund; if that is refused too, keep the reservation. {persona()}"
    )
    add(f"refuse_change_destination_{i}", instructions,
        [f"I need to fly to {city(new_dest)} instead.", line, "Could I cancel it and get a refund then?"], gold,
        required=[A("get_reservation_details", reservation_id=res.reservation_id)],
        forbidden=[A("update_reservation_flights"), A("cancel_reservation")])


# Info kinds
def info_delayed_status(i: int, split: str = "test") -> None:
    res, user = free_res(lambda r, u: r.status == "active" and "delayed" in statuses(r) and u.membership == "regular")
    seg = [f for f in res.flights if inst(f.flight_number, f.date).status == "delayed"][0]
    ins = inst(seg.flight_number, seg.date)
    text, line, gold = auth(user, res.reservation_id)
    gold += [A("get_reservation_details", reservation_id=res.reservation_id),
             A("get_flight_status", flight_number=seg.flight_number, date=seg.date)]
    instructions = (
        f"{text} You are picking someone up: you want to know the new expected departure and arrival times of flight "
        f"{seg.flight_number} on {MONTH_DAY(seg.date)} (on your reservation {res.reservation_id}). You do not ask for "
        f"anything else. {persona()}"
    )
    add(f"delayed_flight_times_{i}", instructions,
        [f"Is flight {seg.flight_number} on time?", line, "Thanks, that's all."], gold,
        [ins.estimated_departure_time_est, ins.estimated_arrival_time_est], forbidden=[A("send_certificate")],
        split=split)


def info_cheapest_quote(i: int, split: str = "test") -> None:
    user = free_user(lambda u: u.reservations and cards(u))
    while True:
        flight, day = pick_direct("economy", 2)
        opts = [f for f in direct_options(flight.origin, flight.destination, day)
                if bookable(f.flight_number, day, "economy", 2)]
        prices = sorted(price(f.flight_number, day, "economy") for f in opts)
        if len(prices) == 1 or prices[0] != prices[1]:
            break
    cheapest = min(opts, key=lambda f: price(f.flight_number, day, "economy"))
    p = price(cheapest.flight_number, day, "economy")
    text, line, gold = auth(user, user.reservations[-1])
    gold += [A("search_direct_flights", origin=flight.origin, destination=flight.destination, date=day),
             A("calculate", expression=f"{p} * 2 + {INSURANCE_PER_PASSENGER} * 2")]
    total = p * 2 + INSURANCE_PER_PASSENGER * 2
    instructions = (
        f"{text} You are only comparing prices today and will NOT book: what would the cheapest nonstop economy fare from "
        f"{city(flight.origin)} to {city(flight.destination)} on {MONTH_DAY(day)} cost for two adults including travel "
        f"insurance, no bags? Ask for the total and which flight it is. Do not book anything. {persona()}"
    )
    add(f"quote_cheapest_nonstop_{i}", instructions,
        [f"How much would a nonstop from {city(flight.origin)} to {city(flight.destination)} be?", line,
         "Just a quote, thanks, no booking."], gold, [fmt(total), cheapest.flight_number],
        forbidden=[A("book_reservation")], split=split)


def build() -> None:
    for i in range(1, 4):
        book_oneway(i)
    book_oneway(4, "train")
    for i in range(1, 3):
        book_roundtrip_certificate(i)
    book_roundtrip_certificate(3, "train")
    for i in range(1, 3):
        change_flight(i)
    change_flight(3, "train")
    for i in range(1, 3):
        upgrade_cabin(i)
    upgrade_cabin(3, "train")
    for i in range(1, 3):
        add_bags(i)
    add_bags(3, "train")
    for i in range(1, 3):
        fix_passenger(i)
    fix_passenger(3, "train")
    cancel_allowed(1, "recent")
    cancel_allowed(2, "recent")
    cancel_allowed(1, "business")
    cancel_allowed(1, "insured")
    cancel_allowed(2, "insured")
    for i in range(1, 3):
        cancel_airline_cancelled(i)
    for i in range(1, 3):
        compensation_delayed(i)
    compensation_delayed(3, "train")
    for i in range(1, 4):
        multi_change_bags_passenger(i)
    for i in range(1, 4):
        multi_cancel_rebook_bags(i)
    for i in range(1, 4):
        multi_compensate_cancel_rebook(i)
    for i in range(1, 4):
        multi_delay_comp_bags_passenger(i)
    for i in range(1, 3):
        multi_two_bookings_and_bag(i)
    for i in range(1, 4):
        multi_basic_upgrade_then_change(i)
    for i in range(1, 3):
        refuse_cancel_nonrefundable(i)
    for i in range(1, 3):
        refuse_basic_change(i)
    for i in range(1, 3):
        refuse_comp_regular(i)
    refuse_group_of_six(1)
    for i in range(1, 3):
        transfer_partly_flown(i)
    for i in range(1, 3):
        refuse_certificate_for_change(i)
    refuse_insurance_wrong_reason(1)
    refuse_remove_bags(1)
    refuse_add_passenger(1)
    refuse_comp_on_time(1)
    refuse_gift_card_short(1)
    refuse_change_destination(1)
    info_delayed_status(1)
    info_delayed_status(2, "train")
    info_cheapest_quote(1)


def main() -> None:
    build()
    OUT.write_text(json.dumps({"tasks": TASKS}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    splits = {}
    for t in TASKS:
        splits[t["split"]] = splits.get(t["split"], 0) + 1
    print(f"wrote {OUT}: {len(TASKS)} tasks {splits}")


if __name__ == "__main__":
    main()
