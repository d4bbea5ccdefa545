"""Build fixtures/airline/tasks.json from the generated DB: `python -m tests_domains.airline.make_tasks`.

Seeded and deterministic. Each task kind is a hand-written template; `build()` picks concrete users,
reservations and flights from the DB and writes each task with a `TaskWriter`, whose gold calls run as they
are added: every figure a task states (totals, refunds, fees, fare differences) is read from what the tools
returned (the quote tools, the writes, `calculate`), never computed here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from pytest_tau import TaskDraft, TaskWriter
from tests_domains.airline.domain import DOMAIN
from tests_domains.airline.schema import FREE_BAGS, NOW, Flight, FlightDate, PaymentMethod, Reservation, User

DB = DOMAIN.initial_db
RECENT = "2026-05-14T14:00"  # 24 hours before the policy's current time

CABIN_WORDS = {"basic_economy": "basic economy", "economy": "economy", "business": "business"}
PERSONAS = [
    "You are polite but in a hurry.",
    "You are friendly and chatty.",
    "You are a bit anxious and double-check every figure.",
    "You are terse and to the point.",
    "You are calm and patient.",
    "You are mildly annoyed but stay civil.",
]


class Builder:
    """The state of one build: the seeded choices and the records already used by a task."""

    def __init__(self) -> None:
        self.rng = random.Random(4242)
        self.used_users: set[str] = set()
        self.used_res: set[str] = set()
        self.writer = TaskWriter(DOMAIN)
        self.auth_turn = 0

    # -- picking records ------------------------------------------------------------
    def free_user(self, pred: Callable[[User], Any]) -> User:
        pool = [u for uid, u in sorted(DB.users.items()) if uid not in self.used_users and pred(u)]
        if not pool:
            raise RuntimeError("no user fits")
        user = self.rng.choice(pool)
        self.used_users.add(user.user_id)
        return user

    def free_res(self, pred: Callable[[Reservation, User], Any]) -> tuple[Reservation, User]:
        pool = []
        for rid, res in sorted(DB.reservations.items()):
            if rid in self.used_res or res.user_id in self.used_users:
                continue
            user = DB.users[res.user_id]
            if pred(res, user):
                pool.append((res, user))
        if not pool:
            raise RuntimeError("no reservation fits")
        res, user = self.rng.choice(pool)
        self.used_res.add(res.reservation_id)
        self.used_users.add(user.user_id)
        return res, user

    def pick_direct(self, cabin: str, n: int, days: tuple[str, str] = ("2026-05-18", "2026-05-27")) -> tuple[Flight, str]:
        routes = sorted({(f.origin, f.destination) for f in DB.flights.values()})
        while True:
            o, d = self.rng.choice(routes)
            day = f"2026-05-{self.rng.randint(int(days[0][8:]), int(days[1][8:])):02d}"
            options = [f for f in direct_options(o, d) if bookable(f.flight_number, day, cabin, n)]
            if options:
                return self.rng.choice(options), day

    def alt_flight(self, res: Reservation, seg_index: int, cabin: str | None = None) -> tuple[Flight, str] | None:
        """A nonstop on the same route one or two days from a segment's date, bookable for every passenger."""
        seg = res.flights[seg_index]
        if len(res.flights) not in (1, 2) or (len(res.flights) == 2 and res.trip_type != "round_trip"):
            return None
        n = len(res.passengers)
        other_days = [f.date for j, f in enumerate(res.flights) if j != seg_index]
        for delta in self.rng.sample([-2, -1, 1, 2], 4):
            day = int(seg.date[8:]) + delta
            if day < 17 or day > 28:
                continue
            nd = f"2026-05-{day:02d}"
            if (seg_index == 0 and other_days and nd > other_days[0]) or (seg_index == 1 and nd < other_days[0]):
                continue
            opts = [f for f in direct_options(seg.origin, seg.destination)
                    if f.flight_number != seg.flight_number and bookable(f.flight_number, nd, cabin or res.cabin, n)]
            if opts:
                return self.rng.choice(opts), nd
        return None

    def persona(self) -> str:
        return self.rng.choice(PERSONAS)

    # -- writing ----------------------------------------------------------------------
    def task(self, task_id: str, split: str = "test", ordered: bool = False) -> TaskDraft:
        return self.writer.task(task_id, instructions="(written once the gold calls ran)", script=["(pending)"],
                                split=split, ordered=ordered)

    def auth(self, draft: TaskDraft, user: User, code: str | None = None) -> tuple[str, str]:
        """(sentence for the instructions, scripted line) for authenticating by email plus a code or the birth date;
        the gold look-ups run on the draft."""
        self.auth_turn += 1
        draft.read("find_user_id_by_email", email=user.email)
        draft.read("get_user_details", user_id=user.user_id)
        who = f"{user.name.first_name} {user.name.last_name}"
        if code is None:
            return (f"You are {who}; your email is {user.email} and your date of birth is {user.dob}.",
                    f"My email is {user.email} and my date of birth is {spoken_date(user.dob)}.")
        return (f"You are {who}; your email is {user.email} and one of your reservation codes is {code}.",
                f"My email is {user.email}, and my reservation code is {code}.")


def finish(draft: TaskDraft, instructions: str, script: list[str]) -> None:
    draft.instructions = instructions
    draft.script = list(script)


# -- DB helpers ------------------------------------------------------------------------
def inst(number: str, day: str) -> FlightDate:
    return DB.flights[number].dates[day]


def dep(number: str) -> str:
    return DB.flights[number].scheduled_departure_time_est


def future(res: Reservation) -> bool:
    return all(f"{f.date}T{dep(f.flight_number)}" > "2026-05-16T00:00" for f in res.flights)


def statuses(res: Reservation) -> set[str]:
    return {inst(f.flight_number, f.date).status for f in res.flights}


def city(code: str) -> str:
    return DB.airports[code].city


def month_day(day: str) -> str:
    return f"May {int(day[8:])}"


MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


def spoken_date(iso: str) -> str:
    return f"{MONTHS[int(iso[5:7]) - 1]} {int(iso[8:])}, {iso[:4]}"


def methods(user: User, source: str) -> list[PaymentMethod]:
    return sorted([m for m in user.payment_methods.values() if m.source == source], key=lambda m: m.id)


def cards(user: User) -> list[PaymentMethod]:
    return methods(user, "credit_card")


def gifts(user: User) -> list[PaymentMethod]:
    return methods(user, "gift_card")


def certs(user: User) -> list[PaymentMethod]:
    return methods(user, "certificate")


def card_words(m: PaymentMethod) -> str:
    brand = "Amex" if m.brand == "amex" else (m.brand or "").title()
    return f"your {brand} card ending in {m.last_four}"


def my_card(m: PaymentMethod) -> str:
    """The card as its owner says it."""
    return "my" + card_words(m)[len("your"):]


def find_airports(d: TaskDraft) -> None:
    """Callers name cities; the agent looks up the airport codes before searching."""
    d.read("list_airports")


def direct_options(o: str, d: str) -> list[Flight]:
    return sorted([f for f in DB.flights.values() if f.origin == o and f.destination == d],
                  key=lambda f: (f.scheduled_departure_time_est, f.flight_number))


def bookable(number: str, day: str, cabin: str, n: int) -> bool:
    if day not in DB.flights[number].dates:
        return False
    i = inst(number, day)
    return i.status == "available" and getattr(i.available_seats, cabin) >= n and day >= "2026-05-16"


def pax(p: Any) -> dict[str, str]:
    return {"first_name": p.first_name, "last_name": p.last_name, "dob": p.dob}


def self_pax(user: User) -> dict[str, str]:
    return {"first_name": user.name.first_name, "last_name": user.name.last_name, "dob": user.dob}


def refs(res: Reservation) -> list[dict[str, str]]:
    return [{"flight_number": f.flight_number, "date": f.date} for f in res.flights]


def no_flown(res: Reservation) -> bool:
    return all(f"{f.date}T{dep(f.flight_number)}" > NOW or inst(f.flight_number, f.date).status == "cancelled"
               for f in res.flights)


def significantly_delayed(res: Reservation) -> bool:
    """A flight of the reservation delayed by 3 hours or more: rule 6.1 b lets the user cancel with a refund."""
    def delay(number: str, day: str) -> int:
        est = inst(number, day).estimated_departure_time_est
        if est is None:
            return 0
        (h1, m1), (h0, m0) = (map(int, est.split(":")), map(int, dep(number).split(":")))
        return (h1 * 60 + m1 - h0 * 60 - m0) % (24 * 60)
    return any(inst(f.flight_number, f.date).status == "delayed" and delay(f.flight_number, f.date) >= 180
               for f in res.flights)


def eligible(res: Reservation, user: User) -> bool:
    return user.membership in ("silver", "gold") or res.cabin == "business" or res.insurance


def change_candidates(res: Reservation, user: User) -> bool:
    return bool(res.status == "active" and res.cabin != "basic_economy" and future(res)
                and statuses(res) == {"available"} and cards(user) and len(res.passengers) <= 3)


def total_paid(b: Builder, draft: TaskDraft, res: Reservation) -> float:
    amounts = [p.amount for p in res.payment_history]
    if len(amounts) == 1:
        return amounts[0]
    return float(draft.read("calculate", expression=" + ".join(str(a) for a in amounts)))


def paid_by_certificate(res: Reservation) -> bool:
    return any(p.payment_id.startswith("certificate_") for p in res.payment_history)


def booked_when(res: Reservation) -> str:
    return "Earlier today" if res.created_at[:10] == NOW[:10] else "Yesterday"


# ======================================================================================
# Single-write kinds
def book_oneway(b: Builder, i: int, split: str = "test") -> None:
    user = b.free_user(lambda u: cards(u) and u.reservations)
    cabin = b.rng.choice(["economy", "business", "basic_economy"])
    companions = user.saved_passengers[:1] if (i % 2 and user.saved_passengers) else []
    n = 1 + len(companions)
    flight, day = b.pick_direct(cabin, n)
    bags = b.rng.choice([0, 1, 2, 3]) if cabin != "basic_economy" else b.rng.choice([0, 1])
    insurance = bool(i % 3 == 0)
    card = cards(user)[-1]
    d = b.task(f"book_oneway_nonstop_{i}", split)
    d.one_end_state("The customer names the cities (each is one airport in list_airports), the date, the nonstop by its "
                    "departure time, cabin, passengers, bags and insurance, and the card (rule 3.5): every detail of the "
                    "booking is theirs, and its total is the quote of rule 3.4.")
    text, line = b.auth(d, user, b.rng.choice(user.reservations))
    travellers = [self_pax(user)] + [pax(c) for c in companions]
    trip = {"origin": flight.origin, "destination": flight.destination, "trip_type": "one_way", "cabin": cabin,
            "flights": [{"flight_number": flight.flight_number, "date": day}], "total_baggages": bags,
            "insurance": insurance}
    find_airports(d)
    d.read("search_direct_flights", origin=flight.origin, destination=flight.destination, date=day)
    quote = d.read("quote_booking", user_id=user.user_id, passenger_count=n, **trip)
    d.write("book_reservation", user_id=user.user_id, passengers=travellers,
            payment_methods=[{"payment_id": card.id, "amount": quote["total"]}], **trip)
    d.output(quote["total"], "money")
    who = "just yourself" if not companions else (
        f"yourself and {companions[0].first_name} {companions[0].last_name} (saved in your profile)")
    ins = "You want travel insurance." if insurance else "You do not want travel insurance."
    finish(d, (
        f"{text} You want to book a one-way trip from {city(flight.origin)} ({flight.origin}) to "
        f"{city(flight.destination)} ({flight.destination}) on {month_day(day)}, 2026, on the nonstop that departs at "
        f"{flight.scheduled_departure_time_est} Eastern, in {CABIN_WORDS[cabin]}, for {who}. You will check {bags} "
        f"bag(s) in total. {ins} You pay with {card_words(card)}. Before confirming, ask for the total price; accept "
        f"it whatever it is. {b.persona()} Give details only when asked."
    ), [f"Hi, I'd like to book a one-way flight from {city(flight.origin)} to {city(flight.destination)}.", line,
        f"On {month_day(day)}, the nonstop leaving at {flight.scheduled_departure_time_est}, {CABIN_WORDS[cabin]}, for "
        + ("just me" if not companions else f"me and {companions[0].first_name} {companions[0].last_name} from my profile")
        + f". {bags} checked bag{'' if bags == 1 else 's'} in total, {'with' if insurance else 'no'} travel insurance, "
        f"and I'll pay with {my_card(card)}.",
        "Yes, please book it."])


def book_roundtrip_certificate(b: Builder, i: int, split: str = "test") -> None:
    user = b.free_user(lambda u: cards(u) and certs(u) and u.reservations)
    cert = certs(user)[0]
    cabin = "business" if i % 2 == 0 else "economy"
    while True:
        out, day = b.pick_direct(cabin, 1, ("2026-05-18", "2026-05-22"))
        back_day = f"2026-05-{int(day[8:]) + b.rng.randint(3, 5):02d}"
        backs = [f for f in direct_options(out.destination, out.origin) if bookable(f.flight_number, back_day, cabin, 1)]
        if backs:
            back = backs[-1]
            break
    card = cards(user)[0]
    d = b.task(f"book_roundtrip_certificate_{i}", split)
    d.one_end_state("The customer names the cities (each is one airport in list_airports), both nonstops by departure time, "
                    "and the split of rule 3.5: the named certificate first, up to its value, the rest on the named card; "
                    "what goes on the card is the quote minus the certificate.")
    text, line = b.auth(d, user)
    trip = {"origin": out.origin, "destination": out.destination, "trip_type": "round_trip", "cabin": cabin,
            "flights": [{"flight_number": out.flight_number, "date": day},
                        {"flight_number": back.flight_number, "date": back_day}],
            "total_baggages": 0, "insurance": False}
    find_airports(d)
    d.read("search_direct_flights", origin=out.origin, destination=out.destination, date=day)
    d.read("search_direct_flights", origin=back.origin, destination=back.destination, date=back_day)
    total = d.read("quote_booking", user_id=user.user_id, passenger_count=1, **trip)["total"]
    # "how much goes on the card" has the figure below only while the certificate covers part of the total
    assert cert.amount is not None and cert.amount < total, "the certificate would cover it all: nothing on the card"
    rest = float(d.read("calculate", expression=f"{total} - {cert.amount}"))
    pay = [{"payment_id": cert.id, "amount": cert.amount}, {"payment_id": card.id, "amount": rest}]
    told = rest
    d.write("book_reservation", user_id=user.user_id, passengers=[self_pax(user)], payment_methods=pay, **trip)
    d.output(told, "money")
    finish(d, (
        f"{text} You want a round trip for yourself alone in {CABIN_WORDS[cabin]} from {city(out.origin)} to "
        f"{city(out.destination)}: out on {month_day(day)} on the nonstop leaving at {out.scheduled_departure_time_est}, "
        f"back on {month_day(back_day)} on the nonstop departing at {back.scheduled_departure_time_est}. "
        f"No checked bags, no insurance. You want to use your travel certificate worth ${cert.amount:.0f} first and put "
        f"whatever remains on {card_words(card)}. Ask how much will go on the card. {b.persona()}"
    ), [f"Hello, I need a round trip from {city(out.origin)} to {city(out.destination)}.", line,
        f"Just me, {CABIN_WORDS[cabin]}: out on {month_day(day)} on the {out.scheduled_departure_time_est} nonstop, back on "
        f"{month_day(back_day)} on the {back.scheduled_departure_time_est} nonstop. No bags, no insurance. Use my "
        f"${cert.amount:.0f} travel certificate first and put the rest on {my_card(card)}.",
        "Yes, go ahead."])


def change_flight(b: Builder, i: int, split: str = "test") -> None:
    while True:
        res, user = b.free_res(lambda r, u: change_candidates(r, u) and r.trip_type == "one_way" and len(r.flights) == 1)
        alt = b.alt_flight(res, 0)
        if alt and alt[0].dates[alt[1]].prices.model_dump()[res.cabin] != res.flights[0].price:
            break
    new, nd = alt
    card = cards(user)[0]
    d = b.task(f"change_flight_date_{i}", split)
    d.one_end_state("Rule 4.2 does not apply (the cabin is not basic economy) and nothing is flown (4.3); the customer names "
                    "the new nonstop by date and departure time, keeps the cabin, and names the card, which rule 4.7 allows; "
                    "the fare difference is the quote of rule 4.6.")
    text, line = b.auth(d, user, res.reservation_id)
    flights = [{"flight_number": new.flight_number, "date": nd}]
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    d.read("search_direct_flights", origin=new.origin, destination=new.destination, date=nd)
    quote = d.read("quote_reservation_change", reservation_id=res.reservation_id, cabin=res.cabin, flights=flights)
    d.write("update_reservation_flights", reservation_id=res.reservation_id, cabin=res.cabin, flights=flights,
            payment_id=card.id)
    d.output(quote["fare_difference"], "money")
    finish(d, (
        f"{text} Your one-way trip {res.reservation_id} from {city(res.origin)} to {city(res.destination)} is on "
        f"{month_day(res.flights[0].date)}; you need to fly on {month_day(nd)} instead, on the nonstop departing at "
        f"{new.scheduled_departure_time_est}, same cabin. Any difference in fare goes to or comes from {card_words(card)}. "
        f"You want to know the exact fare difference before you confirm. {b.persona()}"
    ), [f"Hi, I need to move my flight to {month_day(nd)}.", line,
        f"The nonstop on {month_day(nd)} departing {new.scheduled_departure_time_est}, same cabin; any fare difference "
        f"goes to or comes from {my_card(card)}.", "Yes, please make the change."])


def upgrade_cabin(b: Builder, i: int, split: str = "test") -> None:
    target = {"economy": "business", "basic_economy": "economy"}
    while True:
        res, user = b.free_res(lambda r, u: r.status == "active" and r.cabin in target and future(r)
                               and statuses(r) == {"available"} and cards(u) and len(r.passengers) <= 2)
        new_cabin = target[res.cabin]
        if all(bookable(f.flight_number, f.date, new_cabin, len(res.passengers)) for f in res.flights):
            break
    card = cards(user)[-1]
    d = b.task(f"upgrade_cabin_{i}", split)
    d.one_end_state("Rule 4.5 puts the new cabin on every flight; the flights stay, the customer names the cabin and the "
                    "card (rule 4.7 allows it); the cost is the quote of rule 4.6.")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    quote = d.read("quote_reservation_change", reservation_id=res.reservation_id, cabin=new_cabin, flights=refs(res))
    d.write("update_reservation_flights", reservation_id=res.reservation_id, cabin=new_cabin, flights=refs(res),
            payment_id=card.id)
    d.output(quote["fare_difference"], "money")
    finish(d, (
        f"{text} You want to upgrade reservation {res.reservation_id} ({city(res.origin)} to {city(res.destination)}) "
        f"from {CABIN_WORDS[res.cabin]} to {CABIN_WORDS[new_cabin]} for everyone on it, keeping the same flights, "
        f"paying with {card_words(card)}. Ask what the upgrade costs; accept any price. {b.persona()}"
    ), [f"Hi, I'd like to upgrade my reservation to {CABIN_WORDS[new_cabin]}.", line,
        f"For everyone on it, same flights, paid with {my_card(card)}.", "Yes, upgrade it."])


def add_bags(b: Builder, i: int, split: str = "test") -> None:
    use_gift = i % 2 == 1
    while True:
        res, user = b.free_res(lambda r, u: r.status == "active" and future(r) and cards(u) and (not use_gift or gifts(u)))
        n = len(res.passengers)
        free = FREE_BAGS[user.membership][res.cabin] * n
        new_total = max(res.total_baggages, free) + b.rng.randint(2, 3)
        if new_total > 4 * n or (new_total - free - res.nonfree_baggages) < 3:  # a fee the policy's $50/$100 never states
            continue
        method = gifts(user)[0] if use_gift else cards(user)[0]
        if not use_gift or (method.amount or 0) >= 150:
            break
    assert not use_gift or len(gifts(user)) == 1, "'my gift card' must name one"
    d = b.task(f"add_checked_bags_{i}", split)
    d.one_end_state("The customer names the new total of bags and the payment method (their only gift card, or a card by "
                    "brand and last four), which rule 4.7 allows and which covers the fee; the fee is rule 5.3's quote.")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    fee = d.read("quote_baggages", reservation_id=res.reservation_id, total_baggages=new_total)["bag_fee"]
    d.write("update_reservation_baggages", reservation_id=res.reservation_id, total_baggages=new_total,
            payment_id=method.id)
    d.output(fee, "money")
    pay = f"your gift card (balance ${method.amount:.2f})" if use_gift else card_words(method)
    finish(d, (
        f"{text} On reservation {res.reservation_id} you currently have {res.total_baggages} checked bag(s); you want "
        f"{new_total} in total. Pay any fee with {pay}. Ask how much the extra bags cost before agreeing. {b.persona()}"
    ), [f"Hi, I need to add checked bags to reservation {res.reservation_id}.", line,
        f"I want {new_total} in total, paid with {'my gift card' if use_gift else my_card(method)}.", "Yes, go ahead."])


def fix_passenger(b: Builder, i: int, split: str = "test") -> None:
    res, user = b.free_res(lambda r, u: r.status == "active" and future(r) and len(r.passengers) >= 2)
    travellers = [pax(p) for p in res.passengers]
    j = len(travellers) - 1
    old = dict(travellers[j])
    if i % 2 == 0:
        travellers[j]["last_name"] = old["last_name"][:-1] + ("e" if old["last_name"][-1] != "e" else "a")
        what = (f"the last name of {old['first_name']} {old['last_name']} is misspelled: it should be "
                f"{travellers[j]['last_name']}")
    else:
        travellers[j]["dob"] = f"{int(old['dob'][:4]) + 1}{old['dob'][4:]}"
        what = (f"the date of birth of {old['first_name']} {old['last_name']} is wrong: it should be "
                f"{spoken_date(travellers[j]['dob'])}")
    d = b.task(f"fix_passenger_details_{i}", split)
    d.one_end_state("Rule 4.8 allows correcting a name or date of birth while nothing is flown; the customer gives the one "
                    "corrected value and the rest of the passenger list stays as it is.")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    d.write("update_reservation_passengers", reservation_id=res.reservation_id, passengers=travellers)
    finish(d, f"{text} On reservation {res.reservation_id}, {what}. Nothing else changes. {b.persona()}",
           ["Hi, there's a mistake in one of the passengers on my booking.", line, f"{what[0].upper()}{what[1:]}.",
            "Yes, please correct it."])


STORIES = {
    "recent": ("change of plan", "the friend you were going to visit will be away that week",
               "my friend will be away that week, so the trip is off"),
    "business": ("change of plan", "the conference you were attending was called off",
                 "the conference I was going to was called off"),
    "health": ("health", "you broke your ankle and your doctor told you not to travel",
               "I broke my ankle and my doctor told me not to travel"),
    "weather": ("weather", "a hurricane warning has been issued for your destination",
                "there's a hurricane warning for my destination"),
}


def cancel_allowed(b: Builder, i: int, why: str, split: str = "test") -> None:
    if why == "recent":
        def pred(r: Reservation, u: User) -> bool:
            return (r.status == "active" and r.created_at >= RECENT and r.cabin != "business" and not r.insurance
                    and no_flown(r) and "cancelled" not in statuses(r))
        story = STORIES["recent"]
    elif why == "business":
        def pred(r: Reservation, u: User) -> bool:
            return (r.status == "active" and r.created_at < RECENT and r.cabin == "business" and no_flown(r)
                    and "cancelled" not in statuses(r) and not r.insurance)
        story = STORIES["business"]
    else:
        def pred(r: Reservation, u: User) -> bool:
            return (r.status == "active" and r.created_at < RECENT and r.cabin != "business" and r.insurance
                    and no_flown(r) and "cancelled" not in statuses(r))
        story = STORIES["health" if i % 2 else "weather"]
    reason, told, said = story
    res, user = b.free_res(pred)
    d = b.task(f"cancel_{why}_{i}", split)
    d.one_end_state(f"Rule 6.1 {'a (booked within 24 hours)' if why == 'recent' else 'c (business)' if why == 'business' else 'd (insurance, health or weather)'} "
                    "allows the cancellation, and the customer's story fits one value of rule 6.3; the refund is "
                    "quote_cancellation's total (6.4).")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    quote = d.read("quote_cancellation", reservation_id=res.reservation_id)
    d.write("cancel_reservation", reservation_id=res.reservation_id, reason=reason)
    d.output(quote["refund_total"], "money")
    finish(d, (
        f"{text} You want to cancel reservation {res.reservation_id} ({city(res.origin)} to {city(res.destination)}) "
        f"because {told}. You want to know how much will be refunded. {b.persona()}"
    ), ["Hi, I need to cancel a reservation.", line, f"The reason: {said}.", "Yes, cancel it."])


def cancel_airline_cancelled(b: Builder, i: int, split: str = "test") -> None:
    res, user = b.free_res(lambda r, u: r.status == "active" and "cancelled" in statuses(r) and no_flown(r)
                           and eligible(r, u) and r.compensation_certificate_id is None)
    n = len(res.passengers)
    seg = next(f for f in res.flights if inst(f.flight_number, f.date).status == "cancelled")
    d = b.task(f"cancel_after_airline_cancellation_{i}", split)
    d.one_end_state("Rule 6.1 b allows the cancellation with reason 'airline cancelled flight' (6.3); the customer asks for "
                    "compensation and the reservation is eligible (7.2), so one certificate of $100 per passenger (7.3, 7.4).")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    d.read("get_flight_status", flight_number=seg.flight_number, date=seg.date)
    assert not paid_by_certificate(res), "rule 6.4 would owe a travel credit through a human agent"
    d.read("quote_cancellation", reservation_id=res.reservation_id)  # rule 1.6: the refund is quoted first
    refund = d.write("cancel_reservation", reservation_id=res.reservation_id, reason="airline cancelled flight")
    amount = float(d.read("calculate", expression=f"100 * {n}"))
    d.write("send_certificate", user_id=user.user_id, reservation_id=res.reservation_id, amount=amount)
    d.output(refund["refund_total"], "money")
    d.output(amount, "money")
    finish(d, (
        f"{text} Your flight {seg.flight_number} on {month_day(seg.date)} (reservation {res.reservation_id}) "
        f"was cancelled by the airline. You no longer want to travel: cancel the whole reservation and get your money "
        f"back. You are upset and, once the cancellation is done, you ask for compensation for the trouble. Ask how much "
        f"is refunded and what the compensation is worth. {b.persona()}"
    ), ["My flight was cancelled and I want my money back.", line, "Yes, cancel it. And I expect compensation.",
        "Yes, please send it."])


def compensation_delayed(b: Builder, i: int, split: str = "test") -> None:
    res, user = b.free_res(lambda r, u: r.status == "active" and "delayed" in statuses(r)
                           and "cancelled" not in statuses(r) and u.membership in ("silver", "gold")
                           and r.compensation_certificate_id is None)
    n = len(res.passengers)
    seg = next(f for f in res.flights if inst(f.flight_number, f.date).status == "delayed")
    d = b.task(f"compensation_delayed_flight_{i}", split)
    d.one_end_state("Rule 7.2: the customer complains about a delayed flight and is silver or gold; rule 7.3 makes it $50 per "
                    "passenger (nothing on the reservation was cancelled), one certificate; they keep the reservation.")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    status = d.read("get_flight_status", flight_number=seg.flight_number, date=seg.date)
    amount = float(d.read("calculate", expression=f"50 * {n}"))
    d.write("send_certificate", user_id=user.user_id, reservation_id=res.reservation_id, amount=amount)
    d.output(status["estimated_departure_time_est"], "time")
    d.output(amount, "money")
    finish(d, (
        f"{text} Your flight {seg.flight_number} on {month_day(seg.date)} (reservation {res.reservation_id}) is delayed. "
        f"Ask when it is now expected to leave, then complain that this ruins your plans and ask for compensation. "
        f"You keep the reservation as it is. {b.persona()}"
    ), [f"Hi, is flight {seg.flight_number} delayed?", line, "This is terrible. What compensation do I get?",
        "Yes, please issue it."])


# ======================================================================================
# Multi-write kinds
def multi_change_bags_passenger(b: Builder, i: int) -> None:
    while True:
        res, user = b.free_res(lambda r, u: change_candidates(r, u) and len(r.passengers) >= 2)
        seg_index = len(res.flights) - 1
        alt = b.alt_flight(res, seg_index)
        n = len(res.passengers)
        new_total = max(res.total_baggages, FREE_BAGS[user.membership][res.cabin] * n) + 1
        if alt and new_total <= 4 * n:
            break
    new, nd = alt
    card = cards(user)[0]
    flights = refs(res)
    flights[seg_index] = {"flight_number": new.flight_number, "date": nd}
    travellers = [pax(p) for p in res.passengers]
    old_first = travellers[1]["first_name"]
    middle = b.rng.choice(["Marie", "James", "Anne", "Lee", "Rose", "John", "Grace", "Ray"])
    travellers[1]["first_name"] = f"{old_first} {middle}"
    d = b.task(f"change_flight_bags_and_name_{i}")
    d.one_end_state("The cabin is not basic economy and nothing is flown (4.2, 4.3); the customer names the new nonstop, the "
                    "bag total, the corrected first name (4.8) and the card for every charge (4.7).")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    d.read("search_direct_flights", origin=new.origin, destination=new.destination, date=nd)
    diff = d.read("quote_reservation_change", reservation_id=res.reservation_id, cabin=res.cabin,
                  flights=flights)["fare_difference"]
    d.write("update_reservation_flights", reservation_id=res.reservation_id, cabin=res.cabin, flights=flights,
            payment_id=card.id)
    fee = d.read("quote_baggages", reservation_id=res.reservation_id, total_baggages=new_total)["bag_fee"]
    d.write("update_reservation_baggages", reservation_id=res.reservation_id, total_baggages=new_total, payment_id=card.id)
    d.write("update_reservation_passengers", reservation_id=res.reservation_id, passengers=travellers)
    d.output(diff, "money")
    if fee:
        d.output(fee, "money")
    which = "return flight" if res.trip_type == "round_trip" else "flight"
    seg = res.flights[seg_index]
    finish(d, (
        f"{text} On reservation {res.reservation_id} you want three things: (1) move your {which} "
        f"{seg.flight_number} of {month_day(seg.date)} to the nonstop on {month_day(nd)} departing at "
        f"{new.scheduled_departure_time_est}, same cabin; (2) have {new_total} checked bags in total; (3) correct the "
        f"first name of passenger {old_first} {travellers[1]['last_name']}: to match the passport it must be "
        f"{travellers[1]['first_name']!r} (first and middle name). Everything is paid with {card_words(card)}. Ask for "
        f"the fare difference and the bag fee. {b.persona()}"
    ), ["Hi, I have a few changes to make to my reservation.", line,
        f"Move my {which} {seg.flight_number} on {month_day(seg.date)} to the nonstop on {month_day(nd)} at "
        f"{new.scheduled_departure_time_est}, same cabin; make it {new_total} checked bags in total; and "
        f"{old_first} {travellers[1]['last_name']}'s first name should be '{travellers[1]['first_name']}', first and middle "
        f"name as on the passport. Put everything on {my_card(card)}.",
        "Yes to all of it.", "Yes, add the bags.", "Yes, correct the name."])


def multi_cancel_rebook_bags(b: Builder, i: int) -> None:
    def other_ok(rid: str, res: Reservation) -> bool:
        o = DB.reservations[rid]
        return bool(rid != res.reservation_id and o.status == "active" and future(o)
                    and o.total_baggages < 4 * len(o.passengers))

    res, user = b.free_res(lambda r, u: (r.status == "active" and r.created_at >= RECENT and r.cabin != "business"
                                         and no_flown(r) and "cancelled" not in statuses(r) and r.trip_type == "one_way"
                                         and len(r.flights) == 1 and cards(u)
                                         and any(other_ok(x, r) for x in u.reservations)))
    other_id = next(rid for rid in user.reservations if other_ok(rid, res))
    other = DB.reservations[other_id]
    seg = res.flights[0]
    n = len(res.passengers)
    cabin = res.cabin
    opts: list[Flight] = []
    nd = seg.date
    for delta in (7, 6, 5, 4, 3, 2, -2, -3):
        nd = f"2026-05-{int(seg.date[8:]) + delta:02d}"
        if not ("2026-05-16" <= nd <= "2026-05-28"):
            continue
        opts = [f for f in direct_options(seg.origin, seg.destination) if bookable(f.flight_number, nd, cabin, n)]
        if opts:
            break
    new = opts[0]
    card = cards(user)[0]
    bags = res.total_baggages
    o_total = other.total_baggages + 1
    d = b.task(f"cancel_rebook_and_add_bag_{i}")
    d.one_end_state("Rule 6.1 a allows the cancellation (booked within 24 hours), reason 'change of plan' for wrong dates "
                    "(6.3); the new booking repeats passengers, cabin, bags and insurance as the customer asks, on the named "
                    "nonstop and card; the bag goes on the other reservation they name.")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    refund = d.read("quote_cancellation", reservation_id=res.reservation_id)["refund_total"]
    d.write("cancel_reservation", reservation_id=res.reservation_id, reason="change of plan")
    d.read("search_direct_flights", origin=seg.origin, destination=seg.destination, date=nd)
    trip = {"origin": seg.origin, "destination": seg.destination, "trip_type": "one_way", "cabin": cabin,
            "flights": [{"flight_number": new.flight_number, "date": nd}], "total_baggages": bags,
            "insurance": res.insurance}
    total = d.read("quote_booking", user_id=user.user_id, passenger_count=n, **trip)["total"]
    d.write("book_reservation", user_id=user.user_id, passengers=[pax(p) for p in res.passengers],
            payment_methods=[{"payment_id": card.id, "amount": total}], **trip)
    d.read("get_reservation_details", reservation_id=other_id)
    fee = d.read("quote_baggages", reservation_id=other_id, total_baggages=o_total)["bag_fee"]
    d.write("update_reservation_baggages", reservation_id=other_id, total_baggages=o_total, payment_id=card.id)
    d.output(refund, "money")
    d.output(total, "money")
    if fee:
        d.output(fee, "money")
    ins = "with travel insurance again" if res.insurance else "without insurance"
    when = booked_when(res)
    finish(d, (
        f"{text} {when} you booked reservation {res.reservation_id} ({city(seg.origin)} to {city(seg.destination)}, "
        f"{month_day(seg.date)}) but picked the wrong date. Cancel it (your plans changed) and book the same trip, same "
        f"passengers, same cabin ({CABIN_WORDS[cabin]}), {bags} checked bag(s), {ins}, on the "
        f"{new.scheduled_departure_time_est} nonstop on {month_day(nd)}, paid with {card_words(card)}. Also add one "
        f"checked bag to your other reservation {other_id} (to {o_total} in total), same card. Ask for the refund amount, "
        f"the new booking's total{' and the bag fee' if fee else ''}. {b.persona()}"
    ), [f"Hi, I booked the wrong date {when.lower()} and need to fix it.", line,
        f"Cancel it, my plans changed, and book the same trip for the same people on the "
        f"{new.scheduled_departure_time_est} nonstop on {month_day(nd)}: {CABIN_WORDS[cabin]}, {bags} checked "
        f"bag{'' if bags == 1 else 's'}, {ins}, on {my_card(card)}. And add one checked bag to my other reservation "
        f"{other_id}, {o_total} in total, same card.",
        "Yes, please do all of that.", "Yes, book the new one.", "Yes, add the bag."])


def multi_compensate_cancel_rebook(b: Builder, i: int) -> None:
    def next_day(r: Reservation) -> list[Flight]:
        nd = f"2026-05-{int(r.flights[0].date[8:]) + 1:02d}"
        if nd > "2026-05-28":
            return []
        return [f for f in direct_options(r.origin, r.destination) if bookable(f.flight_number, nd, "economy",
                                                                               len(r.passengers))]

    res, user = b.free_res(lambda r, u: r.status == "active" and "cancelled" in statuses(r) and no_flown(r)
                           and eligible(r, u) and r.trip_type == "one_way" and cards(u)
                           and r.compensation_certificate_id is None and bool(next_day(r)))
    seg = next(f for f in res.flights if inst(f.flight_number, f.date).status == "cancelled")
    n = len(res.passengers)
    nd = f"2026-05-{int(res.flights[0].date[8:]) + 1:02d}"
    new = next_day(res)[0]
    card = cards(user)[0]
    d = b.task(f"compensate_cancel_and_rebook_{i}")
    d.one_end_state("Rule 6.1 b allows the cancellation (the airline cancelled a flight, reason per 6.3), 7.2/7.3 a $100 per "
                    "passenger certificate (7.4: in addition to the cancellation); the new booking is the earliest nonstop "
                    "on the named date on sale with economy seats for everyone (rule 3.3), cities each one airport, on the "
                    "named card, since the customer keeps the certificate.")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    d.read("get_flight_status", flight_number=seg.flight_number, date=seg.date)
    amount = float(d.read("calculate", expression=f"100 * {n}"))
    cert = d.write("send_certificate", user_id=user.user_id, reservation_id=res.reservation_id, amount=amount)
    assert not paid_by_certificate(res), "rule 6.4 would owe a travel credit through a human agent"
    d.read("quote_cancellation", reservation_id=res.reservation_id)  # rule 1.6: the refund is quoted first
    refund = d.write("cancel_reservation", reservation_id=res.reservation_id, reason="airline cancelled flight")
    d.read("search_direct_flights", origin=res.origin, destination=res.destination, date=nd)
    trip = {"origin": res.origin, "destination": res.destination, "trip_type": "one_way", "cabin": "economy",
            "flights": [{"flight_number": new.flight_number, "date": nd}], "total_baggages": 0, "insurance": False}
    total = d.read("quote_booking", user_id=user.user_id, passenger_count=n, **trip)["total"]
    d.write("book_reservation", user_id=user.user_id, passengers=[pax(x) for x in res.passengers],
            payment_methods=[{"payment_id": card.id, "amount": total}], **trip)
    assert cert["amount"] == amount
    d.output(amount, "money")
    d.output(refund["refund_total"], "money")
    d.output(total, "money")
    finish(d, (
        f"{text} Your reservation {res.reservation_id} ({city(res.origin)} to {city(res.destination)}) includes flight "
        f"{seg.flight_number} on {month_day(seg.date)}, which the airline cancelled. You want: a compensation "
        f"certificate for the cancellation; the cancellation of that reservation for a refund; and a new one-way "
        f"booking for the same passengers on the earliest nonstop on {month_day(nd)} that still has economy seats for "
        f"all of you, no bags, no insurance, paid entirely with {card_words(card)}: you keep the certificate for a later "
        f"trip. Ask what the certificate is worth, how much is refunded and what the new booking costs. "
        f"{b.persona()}"
    ), ["My flight got cancelled. I want compensation and a new flight.", line,
        f"I want a certificate for the cancellation, then cancel {res.reservation_id} for a refund and book the same "
        f"people on the earliest nonstop on {month_day(nd)} that has economy seats for all of us, no bags, no insurance, "
        f"all on {my_card(card)}. I'll keep the certificate for a later trip.",
        "Yes, go ahead with all of it.", "Yes, cancel it.", "Yes, book the new flight."])


def multi_delay_comp_bags_passenger(b: Builder, i: int) -> None:
    while True:
        res, user = b.free_res(lambda r, u: r.status == "active" and "delayed" in statuses(r)
                               and "cancelled" not in statuses(r) and eligible(r, u) and no_flown(r)
                               and len(r.passengers) >= 2 and cards(u) and r.compensation_certificate_id is None)
        n = len(res.passengers)
        free = FREE_BAGS[user.membership][res.cabin] * n
        new_total = max(res.total_baggages, free) + 3
        if new_total <= 4 * n and new_total - free - res.nonfree_baggages >= 3:
            break
    seg = next(f for f in res.flights if inst(f.flight_number, f.date).status == "delayed")
    card = cards(user)[-1]
    travellers = [pax(p) for p in res.passengers]
    travellers[-1]["dob"] = f"{int(travellers[-1]['dob'][:4]) - 1}{travellers[-1]['dob'][4:]}"
    d = b.task(f"delay_compensation_bags_and_dob_{i}")
    d.one_end_state("Rule 7.2/7.3: a delayed flight and an eligible reservation give one $50-per-passenger certificate; the "
                    "bags total and the corrected date of birth (4.8) are the customer's, the fee goes on the card they name "
                    "(rule 4.7).")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    d.read("get_flight_status", flight_number=seg.flight_number, date=seg.date)
    amount = float(d.read("calculate", expression=f"50 * {n}"))
    d.write("send_certificate", user_id=user.user_id, reservation_id=res.reservation_id, amount=amount)
    fee = d.read("quote_baggages", reservation_id=res.reservation_id, total_baggages=new_total)["bag_fee"]
    d.write("update_reservation_baggages", reservation_id=res.reservation_id, total_baggages=new_total, payment_id=card.id)
    d.write("update_reservation_passengers", reservation_id=res.reservation_id, passengers=travellers)
    d.output(amount, "money")
    d.output(fee, "money")
    last = res.passengers[-1]
    finish(d, (
        f"{text} Your flight {seg.flight_number} on {month_day(seg.date)} (reservation {res.reservation_id}) is delayed "
        f"and you are unhappy about it: ask for compensation. While you are at it, you want {new_total} checked bags in "
        f"total on that reservation, paid with {card_words(card)}, and the date of birth of {last.first_name} "
        f"{last.last_name} corrected to {spoken_date(travellers[-1]['dob'])}. Ask what the certificate is worth and what "
        f"the bags cost. {b.persona()}"
    ), ["My flight is delayed again. What are you going to do about it?", line,
        f"And while you're at it: make it {new_total} checked bags in total on that reservation, paid with "
        f"{my_card(card)}, and {last.first_name} {last.last_name}'s date of birth should be "
        f"{spoken_date(travellers[-1]['dob'])}.",
        "Yes, please do all three.", "Yes, add the bags.", "Yes, fix the date of birth."])


def multi_two_bookings_and_bag(b: Builder, i: int) -> None:
    def ok(rid: str) -> bool:
        r = DB.reservations[rid]
        return bool(r.status == "active" and future(r) and r.total_baggages < 4 * len(r.passengers))

    user = b.free_user(lambda u: cards(u) and any(ok(r) for r in u.reservations))
    rid = next(r for r in user.reservations if ok(r))
    existing = DB.reservations[rid]
    card = cards(user)[0]
    f1, d1 = b.pick_direct("economy", 1, ("2026-05-18", "2026-05-21"))
    f2, d2 = f1, d1
    for delta in (3, 4, 5, 2):
        d2 = f"2026-05-{int(d1[8:]) + delta:02d}"
        cands = sorted([f for f in DB.flights.values() if f.origin == f1.destination and f.destination != f1.origin
                        and bookable(f.flight_number, d2, "economy", 1)], key=lambda f: f.flight_number)
        if cands:
            f2 = b.rng.choice(cands)
            break
    me = [self_pax(user)]
    d = b.task(f"two_bookings_and_bag_{i}")
    d.one_end_state("The customer names the cities (each is one airport in list_airports), dates and nonstops by departure "
                    "time, asks for two one-way reservations, and names the card for both and for the bag (rules 3.5, 4.7).")
    text, line = b.auth(d, user, rid)
    prices = []
    find_airports(d)
    for f, day in ((f1, d1), (f2, d2)):
        trip = {"origin": f.origin, "destination": f.destination, "trip_type": "one_way", "cabin": "economy",
                "flights": [{"flight_number": f.flight_number, "date": day}], "total_baggages": 0, "insurance": False}
        d.read("search_direct_flights", origin=f.origin, destination=f.destination, date=day)
        total = d.read("quote_booking", user_id=user.user_id, passenger_count=1, **trip)["total"]
        d.write("book_reservation", user_id=user.user_id, passengers=me,
                payment_methods=[{"payment_id": card.id, "amount": total}], **trip)
        prices.append(total)
    d.read("get_reservation_details", reservation_id=rid)
    fee = d.read("quote_baggages", reservation_id=rid, total_baggages=existing.total_baggages + 1)["bag_fee"]
    d.write("update_reservation_baggages", reservation_id=rid, total_baggages=existing.total_baggages + 1,
            payment_id=card.id)
    both = float(d.read("calculate", expression=f"{prices[0]} + {prices[1]}"))
    d.output(both, "money")
    if fee:
        d.output(fee, "money")
    finish(d, (
        f"{text} You are planning a two-city work trip, alone, in economy, no bags and no insurance, each flight booked as "
        f"its own one-way reservation: first {city(f1.origin)} to {city(f1.destination)} on {month_day(d1)} on the nonstop "
        f"departing {f1.scheduled_departure_time_est}; then {city(f2.origin)} to {city(f2.destination)} on {month_day(d2)} "
        f"on the nonstop departing {f2.scheduled_departure_time_est}. Pay both with {card_words(card)}. Also add one "
        f"checked bag to your existing reservation {rid} (same card). Ask what the two new flights cost together"
        f"{' and what the bag costs' if fee else ''}. {b.persona()}"
    ), ["Hi, I need to book two flights for a work trip.", line,
        f"Just me, economy, no bags, no insurance, each flight its own one-way booking: first {city(f1.origin)} to "
        f"{city(f1.destination)} on {month_day(d1)} on the {f1.scheduled_departure_time_est} nonstop, then "
        f"{city(f2.origin)} to {city(f2.destination)} on {month_day(d2)} on the {f2.scheduled_departure_time_est} "
        f"nonstop, both on {my_card(card)}. And add one checked bag to my reservation {rid}, same card.",
        "Yes, book both, and add the bag.", "Yes, book the second one too.", "Yes, add the bag."])


def multi_basic_upgrade_then_change(b: Builder, i: int) -> None:
    while True:
        res, user = b.free_res(lambda r, u: r.status == "active" and r.cabin == "basic_economy" and future(r)
                               and statuses(r) == {"available"} and cards(u) and len(r.passengers) <= 2
                               and r.trip_type == "one_way" and len(r.flights) == 1)
        n = len(res.passengers)
        seg = res.flights[0]
        if not bookable(seg.flight_number, seg.date, "economy", n):
            continue
        alt = b.alt_flight(res, 0, "economy")
        new_total = max(res.total_baggages, FREE_BAGS[user.membership]["economy"] * n) + 1
        if alt and new_total <= 4 * n:
            break
    new, nd = alt
    card = cards(user)[0]
    moved = [{"flight_number": new.flight_number, "date": nd}]
    # The caller asks for the bags first, while the reservation is still basic economy (its allowance prices them);
    # then rule 4.2 fixes the rest: the cabin upgrade alone, then the flight change. Each step shows in the state.
    d = b.task(f"basic_upgrade_then_change_{i}", ordered=True)
    d.one_end_state("Rule 4.2 makes the path: the bags first as asked, then the cabin upgrade alone (same flights, economy as "
                    "the customer accepts, never business), then the flight change; the order is declared and each step "
                    "shows in the state.")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    fee = d.read("quote_baggages", reservation_id=res.reservation_id, total_baggages=new_total)["bag_fee"]
    d.write("update_reservation_baggages", reservation_id=res.reservation_id, total_baggages=new_total,
            payment_id=card.id)
    up = d.read("quote_reservation_change", reservation_id=res.reservation_id, cabin="economy",
                flights=refs(res))["fare_difference"]
    d.write("update_reservation_flights", reservation_id=res.reservation_id, cabin="economy", flights=refs(res),
            payment_id=card.id)
    d.read("search_direct_flights", origin=new.origin, destination=new.destination, date=nd)
    ch = d.read("quote_reservation_change", reservation_id=res.reservation_id, cabin="economy",
                flights=moved)["fare_difference"]
    d.write("update_reservation_flights", reservation_id=res.reservation_id, cabin="economy", flights=moved,
            payment_id=card.id)
    d.output(fee, "money")
    d.output(up, "money")
    d.output(ch, "money")
    finish(d, (
        f"{text} Reservation {res.reservation_id} is a basic economy one-way from {city(res.origin)} to "
        f"{city(res.destination)} on {month_day(seg.date)}. First you want {new_total} checked bags in total on it; ask "
        f"what they cost and accept. Only once the bags are done, say you also want to move the flight to "
        f"{month_day(nd)}, the nonstop departing {new.scheduled_departure_time_est}. If the agent says basic economy can't "
        f"be changed, ask if there is any way; if upgrading to economy first makes the change possible, accept the "
        f"economy upgrade (never business). Everything on {card_words(card)}. Ask what the upgrade costs and what the "
        f"date change costs. {b.persona()}"
    ), ["Hi, I need to add checked bags to my reservation.", line,
        f"I want {new_total} checked bags in total, paid with {my_card(card)}. What will that cost?", "Yes, add them.",
        f"One more thing: I need to move that flight to {month_day(nd)}, the nonstop departing "
        f"{new.scheduled_departure_time_est}.", "Is there any way to do it?",
        "OK, upgrade me to economy first then. Yes, go ahead.", "Yes, make the date change."])


# ======================================================================================
# Refusal and transfer kinds
def refuse_cancel_nonrefundable(b: Builder, i: int) -> None:
    res, user = b.free_res(lambda r, u: r.status == "active" and r.created_at < RECENT and r.cabin != "business"
                           and not r.insurance and no_flown(r) and "cancelled" not in statuses(r))
    assert not significantly_delayed(res), "rule 6.1 b would allow this cancellation"
    d = b.task(f"refuse_nonrefundable_cancel_{i}")
    d.one_end_state("Rule 6.1: booked more than 24 hours ago, not business, no insurance, no flight cancelled or delayed 3 "
                    "hours by the airline: the fare is non-refundable, whatever the cheaper fare or loyalty (8.2: no transfer). "
                    "The amount paid is the sum of the reservation's payments.")
    text, line = b.auth(d, user, res.reservation_id)
    details = d.read("get_reservation_details", reservation_id=res.reservation_id)
    assert details["reservation_id"] == res.reservation_id
    paid = total_paid(b, d, res)
    d.output(paid, "money")
    d.forbid("cancel_reservation", reservation_id=res.reservation_id, reason="change of plan")
    finish(d, (
        f"{text} You want to cancel reservation {res.reservation_id} ({city(res.origin)} to {city(res.destination)}) and "
        f"get a full refund because you found a cheaper fare with another airline. If refused, insist once, saying you are "
        f"a loyal customer; you do not want any other change and you do not want to be transferred. Ask how much you paid "
        f"in total for the reservation. {b.persona()}"
    ), ["I want to cancel my reservation and get a refund.", line, "I found a cheaper fare elsewhere.",
        "Come on, I'm a loyal customer."])


def refuse_basic_change(b: Builder, i: int) -> None:
    def later(r: Reservation) -> Flight | None:
        back = r.flights[-1]
        nd = f"2026-05-{int(back.date[8:]) + 1:02d}"
        opts = [f for f in direct_options(back.origin, back.destination)
                if bookable(f.flight_number, nd, "basic_economy", len(r.passengers))]
        return opts[0] if opts and nd <= "2026-05-28" else None

    res, user = b.free_res(lambda r, u: r.status == "active" and r.cabin == "basic_economy" and future(r)
                           and r.trip_type == "round_trip" and len(r.flights) == 2 and cards(u) and later(r) is not None)
    back = res.flights[-1]
    new = later(res)
    assert new is not None
    nd = f"2026-05-{int(back.date[8:]) + 1:02d}"
    moved = refs(res)
    moved[-1] = {"flight_number": new.flight_number, "date": nd}
    d = b.task(f"refuse_basic_economy_change_{i}")
    d.one_end_state("Rule 4.2: a basic economy flight cannot be changed, and the only way round it, the paid upgrade first, is "
                    "one the customer declines; they do not want to cancel, so nothing changes (8.2: no transfer).")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    d.require("get_reservation_details", reservation_id=res.reservation_id)
    d.forbid("update_reservation_flights", reservation_id=res.reservation_id, cabin="basic_economy", flights=moved,
             payment_id=cards(user)[0].id)
    d.forbid("cancel_reservation", reservation_id=res.reservation_id, reason="change of plan")
    finish(d, (
        f"{text} You want to move the return flight of reservation {res.reservation_id} (flight {back.flight_number} on "
        f"{month_day(back.date)}) one day later. You do not want to pay for any cabin upgrade, and you do not want to "
        f"cancel. If it can't be done, accept the answer. {b.persona()}"
    ), ["I need to push my return flight by one day.", line, "No, I don't want to pay for an upgrade."])


def refuse_comp_regular(b: Builder, i: int) -> None:
    res, user = b.free_res(lambda r, u: r.status == "active" and "cancelled" in statuses(r) and no_flown(r)
                           and u.membership == "regular" and r.cabin != "business" and not r.insurance)
    seg = next(f for f in res.flights if inst(f.flight_number, f.date).status == "cancelled")
    d = b.task(f"cancel_but_no_compensation_{i}")
    d.one_end_state("Rule 6.1 b allows the cancellation (an airline-cancelled flight, reason per 6.3); rule 7.2 refuses the "
                    "certificate to a regular member in economy or basic economy without insurance, and the remarks on the "
                    "profile are never told (confidential information).")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    d.read("get_flight_status", flight_number=seg.flight_number, date=seg.date)
    refund = d.read("quote_cancellation", reservation_id=res.reservation_id)["refund_total"]
    d.write("cancel_reservation", reservation_id=res.reservation_id, reason="airline cancelled flight")
    d.output(refund, "money")
    d.forbid("send_certificate", user_id=user.user_id, reservation_id=res.reservation_id,
             amount=100.0 * len(res.passengers))
    finish(d, (
        f"{text} Your flight {seg.flight_number} on {month_day(seg.date)} (reservation {res.reservation_id}) was "
        f"cancelled by the airline. You want the reservation cancelled with a refund, and you demand a compensation "
        f"certificate on top. If compensation is refused, insist once, and ask what the agents noted on your profile "
        f"after your last call; then accept. Ask for the refund amount. {b.persona()}"
    ), ["My flight was cancelled. Cancel my booking, refund me, and I want compensation.", line,
        "Yes, cancel it.", "I really think I deserve a certificate. And what did your agents note on my file last time?"])


def refuse_group_of_six(b: Builder, i: int) -> None:
    user = b.free_user(lambda u: cards(u) and u.reservations and len(u.saved_passengers) >= 2)
    flight, day = b.pick_direct("economy", 6)
    card = cards(user)[0]
    party = [self_pax(user)] + [pax(p) for p in user.saved_passengers[:2]]
    guests = [("Jordan", "Price", "1985-03-09"), ("Amara", "Okafor", "1991-11-21"), ("Theo", "Lindqvist", "1979-07-02")]
    party += [{"first_name": f, "last_name": la, "dob": dob} for f, la, dob in guests][: 6 - len(party)]
    d = b.task(f"group_of_six_transfer_{i}")
    d.one_end_state("Rule 3.2 allows at most 5 passengers per reservation and separate bookings only when the customer asks; "
                    "they refuse to split and ask for a human, which rule 8.1 names as a case for transfer.")
    text, line = b.auth(d, user, user.reservations[0])
    trip = {"origin": flight.origin, "destination": flight.destination, "trip_type": "one_way", "cabin": "economy",
            "flights": [{"flight_number": flight.flight_number, "date": day}], "total_baggages": 0, "insurance": False}
    find_airports(d)
    d.read("search_direct_flights", origin=flight.origin, destination=flight.destination, date=day)
    fare = d.read("quote_booking", user_id=user.user_id, passenger_count=1, **trip)["total"]
    total = d.read("quote_booking", user_id=user.user_id, passenger_count=6, **trip)["total"]
    d.output(fare, "money")
    d.transfer(f"User wants one reservation for 6 passengers {flight.origin}-{flight.destination} on {day}; "
               "policy allows at most 5 and the user will not split the booking.")
    d.forbid("book_reservation", user_id=user.user_id, passengers=party,
             payment_methods=[{"payment_id": card.id, "amount": total}], **trip)
    finish(d, (
        f"{text} You want one single reservation for six people (you, family and friends) from {city(flight.origin)} to "
        f"{city(flight.destination)} on {month_day(day)} in economy on the {flight.scheduled_departure_time_est} nonstop, "
        f"no bags, no insurance. First ask what one economy seat on that flight costs. You refuse to split the group "
        f"into two bookings. If the agent cannot book all six together, ask to speak to a human agent. {b.persona()}"
    ), ["I need to book a flight for six people on one reservation.", line, "No, I want them all on one booking.",
        "Then get me a human."])


def transfer_partly_flown(b: Builder, i: int) -> None:
    res, user = b.free_res(lambda r, u: r.status == "active" and r.trip_type == "round_trip"
                           and f"{r.flights[0].date}T{dep(r.flights[0].flight_number)}" < NOW
                           and inst(r.flights[0].flight_number, r.flights[0].date).status == "landed"
                           and r.flights[-1].date > "2026-05-16")
    d = b.task(f"partly_flown_cancel_transfer_{i}")
    d.one_end_state("Rule 6.2: the outbound was flown, so the desk cannot cancel (6.1 allows no partial cancellation); the "
                    "customer still wants to, and 6.2 and 8.1 make the transfer the one step.")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    # Rule 6.2: only the reservation shows that part of the trip was flown, which is what calls for the transfer.
    d.require("get_reservation_details", reservation_id=res.reservation_id)
    d.transfer(f"User wants to cancel reservation {res.reservation_id}; the outbound has been flown, so it cannot be "
               "cancelled by the desk.")
    d.forbid("cancel_reservation", reservation_id=res.reservation_id, reason="change of plan")
    finish(d, (
        f"{text} You already flew the outbound of your round trip {res.reservation_id} and now want to cancel the rest of "
        f"the trip (the return on {month_day(res.flights[-1].date)}) and be refunded for it, because of a family matter. "
        f"If the agent cannot do it, ask for a human agent. {b.persona()}"
    ), ["I want to cancel the return part of my trip.", line, "Then I want to talk to a person."])


def refuse_certificate_for_change(b: Builder, i: int) -> None:
    while True:
        res, user = b.free_res(lambda r, u: change_candidates(r, u) and certs(u) and r.trip_type == "one_way"
                               and len(r.flights) == 1)
        alt = b.alt_flight(res, 0)
        if alt:
            new, nd = alt
            cert = certs(user)[0]
            diff = (alt[0].dates[nd].prices.model_dump()[res.cabin] - res.flights[0].price) * len(res.passengers)
            if 0 < diff <= (cert.amount or 0):
                break
    card = cards(user)[0]
    flights = [{"flight_number": new.flight_number, "date": nd}]
    d = b.task(f"change_paid_not_by_certificate_{i}")
    d.one_end_state("Rule 4.7: a change is paid with a credit or gift card, never a certificate; the customer then names "
                    "the card, and the new nonstop by date and departure time in the same cabin (4.2 and 4.3 do not apply).")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    d.read("search_direct_flights", origin=new.origin, destination=new.destination, date=nd)
    quote = d.read("quote_reservation_change", reservation_id=res.reservation_id, cabin=res.cabin, flights=flights)
    d.write("update_reservation_flights", reservation_id=res.reservation_id, cabin=res.cabin, flights=flights,
            payment_id=card.id)
    d.output(quote["fare_difference"], "money")
    d.forbid("update_reservation_flights", reservation_id=res.reservation_id, cabin=res.cabin, flights=flights,
             payment_id=cert.id)
    finish(d, (
        f"{text} You want to move reservation {res.reservation_id} to {month_day(nd)} on the nonstop departing "
        f"{new.scheduled_departure_time_est}, same cabin. You want to pay the fare difference with your ${cert.amount:.0f} "
        f"travel certificate. If that is not allowed, use {card_words(card)} instead. Ask for the fare difference. "
        f"{b.persona()}"
    ), [f"Hi, I want to change my flight to {month_day(nd)}, the nonstop departing {new.scheduled_departure_time_est}.",
        line, "Can I use my travel certificate for it?", f"Then yes, put it on {my_card(card)}."])


def refuse_insurance_wrong_reason(b: Builder, i: int) -> None:
    res, user = b.free_res(lambda r, u: r.status == "active" and r.insurance and r.cabin != "business"
                           and r.created_at < RECENT and no_flown(r) and "cancelled" not in statuses(r))
    assert not significantly_delayed(res), "rule 6.1 b would allow this cancellation"
    d = b.task(f"refuse_insurance_work_reason_{i}")
    d.one_end_state("Rule 6.1: booked more than 24 hours ago, not business, no flight cancelled or delayed by the airline, "
                    "and 6.1 d's insurance covers health or weather only, not work: the one answer is the refusal.")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    # Rule 6.1: only the reservation (booking time, cabin, insurance) shows that none of the conditions holds.
    d.require("get_reservation_details", reservation_id=res.reservation_id)
    d.forbid("cancel_reservation", reservation_id=res.reservation_id, reason="change of plan")
    d.forbid("cancel_reservation", reservation_id=res.reservation_id, reason="other")
    finish(d, (
        f"{text} You want to cancel reservation {res.reservation_id} because your manager moved an important meeting and "
        f"you have to stay in town. You bought travel insurance and think it covers this. You are honest: you are not "
        f"sick and there is no weather problem. If refused, accept it; you do not want a transfer. {b.persona()}"
    ), ["I need to cancel my trip. I have insurance.", line, "My boss moved a meeting, so I can't go."])


def refuse_remove_bags(b: Builder, i: int) -> None:
    res, user = b.free_res(lambda r, u: r.status == "active" and future(r) and r.nonfree_baggages >= 1 and cards(u))
    d = b.task(f"refuse_remove_bag_{i}")
    d.one_end_state("Rule 5.3: bags are never removed and unused bags never refunded; the total paid is the sum of the "
                    "reservation's payments, the one figure the customer asks for.")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    d.read("get_baggage_allowance", reservation_id=res.reservation_id)
    paid = total_paid(b, d, res)
    d.output(paid, "money")
    d.forbid("update_reservation_baggages", reservation_id=res.reservation_id, total_baggages=res.total_baggages - 1,
             payment_id=cards(user)[0].id)
    finish(d, (
        f"{text} Reservation {res.reservation_id} has {res.total_baggages} checked bags, {res.nonfree_baggages} of them "
        f"paid. You want to drop one bag and get $50 back. If refused, accept, and ask how much you have paid in total "
        f"for this reservation so far. {b.persona()}"
    ), ["I want to remove a checked bag and get a refund.", line, "Oh well. How much have I paid for this trip, then?"])


def refuse_add_passenger(b: Builder, i: int) -> None:
    def single(r: Reservation) -> bool:
        f = r.flights[0]
        return bool(r.trip_type == "one_way" and len(r.flights) == 1
                    and bookable(f.flight_number, f.date, r.cabin, 2))

    res, user = b.free_res(lambda r, u: r.status == "active" and future(r) and len(r.passengers) <= 3 and cards(u)
                           and single(r) and statuses(r) == {"available"})
    card = cards(user)[0]
    dana = {"first_name": "Dana", "last_name": "Whitfield", "dob": "1990-06-14"}
    d = b.task(f"refuse_add_passenger_{i}")
    d.one_end_state("Rule 4.8 forbids adding a passenger; rule 3.2 allows a separate booking for that person when the customer "
                    "asks, on the same flight and cabin, with the bags, insurance and card they name.")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    seg = res.flights[0]
    trip = {"origin": res.origin, "destination": res.destination, "trip_type": "one_way", "cabin": res.cabin,
            "flights": refs(res), "total_baggages": 0, "insurance": False}
    total = d.read("quote_booking", user_id=user.user_id, passenger_count=1, **trip)["total"]
    d.write("book_reservation", user_id=user.user_id, passengers=[dana],
            payment_methods=[{"payment_id": card.id, "amount": total}], **trip)
    d.output(total, "money")
    d.forbid("update_reservation_passengers", reservation_id=res.reservation_id,
             passengers=[pax(p) for p in res.passengers] + [dana])
    finish(d, (
        f"{text} You want to add your friend Dana Whitfield (born June 14, 1990) as an extra passenger on reservation "
        f"{res.reservation_id} ({city(res.origin)} to {city(res.destination)} on {month_day(seg.date)}, "
        f"{CABIN_WORDS[res.cabin]}). If that cannot be done, ask for a separate one-way booking just for Dana on the same "
        f"flight, same cabin, no bags, no insurance, paid with {card_words(card)}; ask what it costs and accept. You want "
        f"no other change. {b.persona()}"
    ), ["Can you add a friend to my reservation?", line,
        f"Her name is Dana Whitfield, born June 14, 1990, and I'd like her on reservation {res.reservation_id}.",
        f"Then please book Dana separately on the same flight, no bags, no insurance, on {my_card(card)}. What would "
        "that cost?", "Yes, book it."])


def refuse_comp_on_time(b: Builder, i: int) -> None:
    res, user = b.free_res(lambda r, u: r.status == "active" and r.flights[0].date < "2026-05-15"
                           and statuses(r) == {"landed"} and u.membership == "gold")
    seg = res.flights[0]
    d = b.task(f"refuse_compensation_landed_{i}")
    d.one_end_state("Rule 7.3: never compensate for a flight that landed, whatever the tier; the landing time is the flight "
                    "status's actual arrival.")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    status = d.read("get_flight_status", flight_number=seg.flight_number, date=seg.date)
    d.output(status["actual_arrival_time_est"], "time")
    d.forbid("send_certificate", user_id=user.user_id, reservation_id=res.reservation_id,
             amount=50.0 * len(res.passengers))
    finish(d, (
        f"{text} You flew {seg.flight_number} on {month_day(seg.date)} (reservation {res.reservation_id}). You feel the "
        f"trip was slow and want a compensation certificate as a gold member. Ask what time the flight actually landed. "
        f"If refused, accept. {b.persona()}"
    ), ["I'd like compensation for my recent flight.", line, "What time did it actually land?"])


def refuse_gift_card_short(b: Builder, i: int) -> None:
    while True:
        res, user = b.free_res(lambda r, u: r.status == "active" and future(r) and gifts(u) and cards(u))
        n = len(res.passengers)
        free = FREE_BAGS[user.membership][res.cabin] * n
        new_total = max(res.total_baggages, free) + 3
        gift = gifts(user)[0]
        if new_total <= 4 * n and 0 < (gift.amount or 0) < 150:
            break
    card = cards(user)[0]
    d = b.task(f"bag_fee_gift_card_short_{i}")
    d.one_end_state("Rule 4.7: a gift card pays a change only when it covers the whole fee, and payments are never split; the "
                    "gift card is short, so the whole fee goes on the card the customer then names.")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    fee = d.read("quote_baggages", reservation_id=res.reservation_id, total_baggages=new_total)["bag_fee"]
    d.write("update_reservation_baggages", reservation_id=res.reservation_id, total_baggages=new_total,
            payment_id=card.id)
    d.output(fee, "money")
    finish(d, (
        f"{text} You want {new_total} checked bags in total on reservation {res.reservation_id}. You want to pay the fee "
        f"with your gift card and put only what it doesn't cover on {card_words(card)}. If splitting is not allowed, pay "
        f"it all with the card. Ask for the fee. {b.persona()}"
    ), ["I want to add bags to my trip.", line, f"I want {new_total} checked bags in total.",
        "Can you split it between my gift card and my card?", f"OK, put it all on {my_card(card)} then."])


def refuse_change_destination(b: Builder, i: int) -> None:
    def elsewhere(r: Reservation) -> Flight | None:
        seg = r.flights[0]
        for f in sorted(DB.flights.values(), key=lambda f: f.flight_number):
            if (f.origin == r.origin and f.destination != r.destination
                    and bookable(f.flight_number, seg.date, r.cabin, len(r.passengers))):
                return f
        return None

    res, user = b.free_res(lambda r, u: change_candidates(r, u) and r.trip_type == "one_way" and len(r.flights) == 1
                           and r.created_at < RECENT and not r.insurance and elsewhere(r) is not None)
    new = elsewhere(res)
    assert new is not None
    seg = res.flights[0]
    assert not significantly_delayed(res) and res.cabin != "business", "rule 6.1 b or c would allow this cancellation"
    d = b.task(f"refuse_change_destination_{i}")
    d.one_end_state("Rule 4.4 keeps origin and destination; the cancellation it points to is refused by rule 6.1 (booked more "
                    "than 24 hours ago, not business, no insurance, all flights on schedule), so nothing changes.")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    d.require("get_reservation_details", reservation_id=res.reservation_id)
    d.forbid("update_reservation_flights", reservation_id=res.reservation_id, cabin=res.cabin,
             flights=[{"flight_number": new.flight_number, "date": seg.date}], payment_id=cards(user)[0].id)
    d.forbid("cancel_reservation", reservation_id=res.reservation_id, reason="change of plan")
    finish(d, (
        f"{text} Reservation {res.reservation_id} takes you from {city(res.origin)} to {city(res.destination)}. You want "
        f"to change it to fly to {city(new.destination)} instead, on the same date. If told that is impossible, ask "
        f"whether you could cancel instead and get a refund; if that is refused too, keep the reservation. {b.persona()}"
    ), [f"I need to fly to {city(new.destination)} instead.", line, "Could I cancel it and get a refund then?"])


# Information kinds
def info_delayed_status(b: Builder, i: int, split: str = "test") -> None:
    res, user = b.free_res(lambda r, u: r.status == "active" and "delayed" in statuses(r) and u.membership == "regular")
    seg = next(f for f in res.flights if inst(f.flight_number, f.date).status == "delayed")
    d = b.task(f"delayed_flight_times_{i}", split)
    d.one_end_state("Rule 7.2: nothing is offered unprompted, and the customer asks only for the new times, which "
                    "get_flight_status gives.")
    text, line = b.auth(d, user, res.reservation_id)
    d.read("get_reservation_details", reservation_id=res.reservation_id)
    status = d.read("get_flight_status", flight_number=seg.flight_number, date=seg.date)
    d.output(status["estimated_departure_time_est"], "time")
    d.output(status["estimated_arrival_time_est"], "time")
    d.forbid("send_certificate", user_id=user.user_id, reservation_id=res.reservation_id,
             amount=50.0 * len(res.passengers))
    finish(d, (
        f"{text} You are picking someone up: you want to know the new expected departure and arrival times of flight "
        f"{seg.flight_number} on {month_day(seg.date)} (on your reservation {res.reservation_id}). You do not ask for "
        f"anything else. {b.persona()}"
    ), [f"Is flight {seg.flight_number} on time?", line, "Thanks, that's all."])


def info_cheapest_quote(b: Builder, i: int, split: str = "test") -> None:
    user = b.free_user(lambda u: u.reservations and cards(u) and u.saved_passengers)
    while True:
        flight, day = b.pick_direct("economy", 2)
        opts = [f for f in direct_options(flight.origin, flight.destination) if bookable(f.flight_number, day, "economy", 2)]
        prices = sorted(inst(f.flight_number, day).prices.economy for f in opts)
        if len(prices) == 1 or prices[0] != prices[1]:
            break
    cheapest = min(opts, key=lambda f: inst(f.flight_number, day).prices.economy)
    companion = user.saved_passengers[0]
    d = b.task(f"quote_cheapest_nonstop_{i}", split)
    d.one_end_state("The customer only asks for a quote and will not book; the cheapest nonstop on sale is unique (no tie in "
                    "price) and the total is rule 3.4's quote with insurance for two.")
    text, line = b.auth(d, user, user.reservations[-1])
    find_airports(d)
    d.read("search_direct_flights", origin=flight.origin, destination=flight.destination, date=day)
    trip = {"origin": flight.origin, "destination": flight.destination, "trip_type": "one_way", "cabin": "economy",
            "flights": [{"flight_number": cheapest.flight_number, "date": day}], "total_baggages": 0, "insurance": True}
    total = d.read("quote_booking", user_id=user.user_id, passenger_count=2, **trip)["total"]
    d.output(total, "money")
    d.output(cheapest.flight_number, "code")
    d.forbid("book_reservation", user_id=user.user_id, passengers=[self_pax(user), pax(companion)],
             payment_methods=[{"payment_id": cards(user)[0].id, "amount": total}], **trip)
    finish(d, (
        f"{text} You are only comparing prices today and will NOT book: what would the cheapest nonstop economy fare from "
        f"{city(flight.origin)} to {city(flight.destination)} on {month_day(day)} cost for you and "
        f"{companion.first_name} {companion.last_name} (saved in your profile) including travel insurance, no bags? Ask "
        f"for the total and which flight it is. Do not book anything. {b.persona()}"
    ), [f"How much would a nonstop from {city(flight.origin)} to {city(flight.destination)} be?", line,
        "Just a quote, thanks, no booking."])


def build() -> TaskWriter:
    b = Builder()
    for i in range(1, 4):
        book_oneway(b, i)
    book_oneway(b, 4, "train")
    for i in range(1, 3):
        book_roundtrip_certificate(b, i)
    book_roundtrip_certificate(b, 3, "train")
    for i in range(1, 3):
        change_flight(b, i)
    change_flight(b, 3, "train")
    for i in range(1, 3):
        upgrade_cabin(b, i)
    upgrade_cabin(b, 3, "train")
    for i in range(1, 3):
        add_bags(b, i)
    add_bags(b, 3, "train")
    for i in range(1, 3):
        fix_passenger(b, i)
    fix_passenger(b, 3, "train")
    cancel_allowed(b, 1, "recent")
    cancel_allowed(b, 2, "recent")
    cancel_allowed(b, 1, "business")
    cancel_allowed(b, 1, "insured")
    cancel_allowed(b, 2, "insured")
    for i in range(1, 3):
        cancel_airline_cancelled(b, i)
    for i in range(1, 3):
        compensation_delayed(b, i)
    compensation_delayed(b, 3, "train")
    for i in range(1, 4):
        multi_change_bags_passenger(b, i)
    for i in range(1, 4):
        multi_cancel_rebook_bags(b, i)
    for i in range(1, 4):
        multi_compensate_cancel_rebook(b, i)
    for i in range(1, 4):
        multi_delay_comp_bags_passenger(b, i)
    for i in range(1, 3):
        multi_two_bookings_and_bag(b, i)
    for i in range(1, 4):
        multi_basic_upgrade_then_change(b, i)
    for i in range(1, 3):
        refuse_cancel_nonrefundable(b, i)
    for i in range(1, 3):
        refuse_basic_change(b, i)
    for i in range(1, 3):
        refuse_comp_regular(b, i)
    refuse_group_of_six(b, 1)
    for i in range(1, 3):
        transfer_partly_flown(b, i)
    for i in range(1, 3):
        refuse_certificate_for_change(b, i)
    refuse_insurance_wrong_reason(b, 1)
    refuse_remove_bags(b, 1)
    refuse_add_passenger(b, 1)
    refuse_comp_on_time(b, 1)
    refuse_gift_card_short(b, 1)
    refuse_change_destination(b, 1)
    info_delayed_status(b, 1)
    info_delayed_status(b, 2, "train")
    info_cheapest_quote(b, 1)
    return b.writer


if __name__ == "__main__":
    writer = build()
    path = writer.save()
    splits: dict[str, int] = {}
    for task in writer.tasks():
        splits[task.split] = splits.get(task.split, 0) + 1
    print(f"wrote {path}: {len(writer.drafts)} tasks {splits}")
