"""Builds fixtures/hospitality/tasks.json: `python -m tests_domains.hospitality.make_tasks`.

Each task kind has a hand-written template; concrete guests and reservations are picked from
the initial DB (stable order, seeded shuffle) by the policy rules the task tests. Gold calls
run on the task's own environment as they are added (`TaskWriter`), and every figure the
guest must hear is read from what those calls returned.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from pytest_tau import Environment, TaskDraft, TaskWriter
from tests_domains.hospitality.domain import DOMAIN
from tests_domains.hospitality.schema import (
    CREDIT_CAP,
    LATE_CHECKOUT_LIMIT,
    STAY_SHARE_CAP,
    UPGRADE_CATEGORIES,
    Guest,
    Hotel,
    Reservation,
    RoomType,
    compensation_caps,
    hours_before_arrival,
)

TODAY = DOMAIN.today
COMP_FROM = (TODAY - timedelta(days=30)).isoformat()  # policy 9.2
PERSONAS = [
    "You are polite but brief.", "You are chatty and a little disorganised.", "You are in a hurry, between meetings.",
    "You are calm and precise.", "You are friendly and say thanks a lot.", "You are slightly impatient.",
    "You are a careful planner and double-check figures.", "You are relaxed and easy-going.",
]
TRAIN = {"book_san_dkg_semi_flex", "book_bna_jrs_flexible"}
TRAIN_PREFIXES = ["upgrade_gold_", "cancel_semi_free", "change_dates_", "quote_flex_vs_nonref_wa"]
BRANDS = {"visa": "Visa", "mastercard": "Mastercard", "amex": "American Express", "discover": "Discover"}
REQUEST_WORDS = {"quiet_room": "a quiet room", "high_floor": "a room on a high floor",
                 "feather_free_bedding": "feather-free bedding"}


def nice(d: str) -> str:
    x = date.fromisoformat(d)
    return f"{x.strftime('%B')} {x.day}"


def hours(res: Reservation) -> int:
    return hours_before_arrival(date.fromisoformat(res.check_in), DOMAIN.initial_db.hotels[res.hotel_id].time_zone)


def changeable(res: Reservation) -> bool:
    """Policy 5.1-5.3: a confirmed, not-started, refundable stay inside its change window."""
    limit = {"flexible": 48, "semi_flex": 168}.get(res.rate_plan)
    return res.status == "confirmed" and limit is not None and hours(res) >= limit


def accepted(before: list[tuple[str, dict[str, Any]]], name: str, arguments: dict[str, Any]) -> bool:
    """The tool accepts this call after these calls (a forbidden call must be the policy's to refuse)."""
    env = Environment(DOMAIN)
    for tool, args in before:
        env.call(tool, dict(args))
    return not env.call(name, dict(arguments)).error


class Builder:
    def __init__(self) -> None:
        self.db = DOMAIN.initial_db
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(4242)
        self.used: set[str] = set()
        self.train_done: set[str] = set()
        self.by_guest: dict[str, list[Reservation]] = {}
        for res in self.db.reservations.values():
            self.by_guest.setdefault(res.guest_id, []).append(res)

    # -- picking -----------------------------------------------------------------------------
    def take(self, pred: Callable[[Reservation], Any]) -> Iterator[Reservation]:
        """Reservations (seeded shuffle of key order) matching pred, whose guest no task uses yet."""
        pool = [r for _, r in sorted(self.db.reservations.items()) if r.guest_id not in self.used and pred(r)]
        self.rng.shuffle(pool)
        for r in pool:
            if r.guest_id not in self.used:
                yield r

    def guests(self, pred: Callable[[Guest], Any]) -> list[Guest]:
        return [g for _, g in sorted(self.db.guests.items()) if g.guest_id not in self.used and pred(g)
                and len(self.db.guests.find(email=g.email)) == 1]

    def persona(self) -> str:
        return self.rng.choice(PERSONAS)

    def task(self, tid: str, guest: Guest, instructions: str, script: list[str]) -> TaskDraft:
        self.used.add(guest.guest_id)
        train = tid in TRAIN or any(tid.startswith(p) and p not in self.train_done for p in TRAIN_PREFIXES)
        for p in TRAIN_PREFIXES:
            if tid.startswith(p):
                self.train_done.add(p)
        return self.writer.task(tid, instructions=instructions, script=script, split="train" if train else "test")

    # -- facts -------------------------------------------------------------------------------
    def guest(self, res: Reservation) -> Guest:
        return self.db.guests[res.guest_id]

    def hotel(self, res: Reservation) -> Hotel:
        return self.db.hotels[res.hotel_id]

    def room(self, hotel: Hotel, code: str) -> RoomType:
        return next(r for r in hotel.room_types if r.code == code)

    def upcoming(self, guest: Guest) -> list[Reservation]:
        return [r for r in self.by_guest.get(guest.guest_id, []) if r.status == "confirmed"]

    def compensated(self, res: Reservation) -> bool:
        return any(True for _ in self.db.compensations.where(confirmation_number=res.confirmation_number))

    def open_case(self, res: Reservation) -> Any:
        cases = sorted((f for f in self.db.feedback.where(confirmation_number=res.confirmation_number) if f.status == "open"),
                       key=lambda f: f.feedback_id)
        return cases[0] if cases else None

    def free(self, res: Reservation, code: str) -> bool:
        rows = search(res.hotel_id, res.check_in, res.check_out)
        return any(r["room_type_code"] == code and r["rooms_available"] >= 1 for r in rows)

    def fits(self, res: Reservation, rt: RoomType) -> bool:
        return res.adults + res.children <= rt.max_occupancy


def search(hotel_id: str, check_in: str, check_out: str) -> list[dict[str, Any]]:
    env = Environment(DOMAIN)
    call = env.call("search_availability", {"hotel_id": hotel_id, "check_in": check_in, "check_out": check_out})
    import orjson

    return [] if call.error else list(orjson.loads(call.result))


def who(guest: Guest) -> str:
    return f"You are {guest.first_name} {guest.last_name}"


def tier_words(guest: Guest) -> str:
    return "a base-level member of the Alder & Vane loyalty programme" if guest.tier == "member" else \
        f"a {guest.tier} member of the Alder & Vane loyalty programme"


def auth_conf(d: TaskDraft, res: Reservation, guest: Guest) -> Any:
    return d.read("find_reservation", confirmation_number=res.confirmation_number, last_name=guest.last_name)


# -- A. new bookings with follow-up requests ---------------------------------------------------
def book_tasks(b: Builder) -> None:
    plans = ["flexible", "non_refundable", "semi_flex", "flexible", "non_refundable", "semi_flex", "flexible"]
    hotels = ["AV-DEN", "AV-MIA", "AV-SEA", "AV-MSY", "AV-CHI", "AV-SAN", "AV-BNA"]
    rooms = ["DKG", "PKG", "JRS", "DKG", "PKG", "DKG", "JRS"]
    tiers = ["gold", "silver", "platinum", "member", "gold", "silver", "platinum"]
    for hid, code, plan, tier in zip(hotels, rooms, plans, tiers, strict=True):
        pool = [g for g in b.guests(bool) if g.tier == tier]
        b.rng.shuffle(pool)
        guest, hotel = pool[0], b.db.hotels[hid]
        rt = b.room(hotel, code)
        for _ in range(40):
            start = TODAY + timedelta(days=b.rng.randint(12, 50))
            n = b.rng.choice([2, 3, 4])
            ci, co = start.isoformat(), (start + timedelta(days=n)).isoformat()
            rows = search(hid, ci, co)
            if any(r["room_type_code"] == code and r["rooms_available"] >= 1 for r in rows):
                break
        card = guest.cards[-1]
        adults, children = (2, 1) if code != "PKG" else (2, 0)
        assert adults + children <= rt.max_occupancy and (not children or rt.crib_allowed)
        extras = ["a crib for the baby"] if children else ["a room on a high floor"]
        late = None
        if tier == "member":
            extras.append("feather-free bedding because of an allergy")
        else:
            late = {"silver": "12:00", "gold": "13:00", "platinum": "15:00"}[tier]
            extras.append(f"a late checkout at {late} on the last day")
        plan_txt = {"flexible": "the flexible rate (you want to be able to cancel)",
                    "semi_flex": "the semi-flex rate",
                    "non_refundable": "the cheapest, non-refundable rate (you accept it is charged now and never refunded)"}[plan]
        party = "you, your partner and your baby daughter" if children else "you and your partner"
        brand = BRANDS[card.brand]
        extra_card = " You have more than one card on file." if len(guest.cards) > 1 else ""
        d = b.task(
            f"book_{hid[3:].lower()}_{code.lower()}_{plan}", guest,
            f"{who(guest)}, {tier_words(guest)}; your email is {guest.email}. You want to book a {rt.name} at the Alder & Vane "
            f"in {hotel.city} from {nice(ci)} to {nice(co)} for {party} ({adults} adults, {children} "
            f"{'child' if children == 1 else 'children'}) on {plan_txt}, paid with your {brand} card ending in {card.last4}."
            f"{extra_card} You also want {' and '.join(extras)}. Ask what the total with tax will be and make sure you are "
            f"told it and the new confirmation number. You do not know any ids. Confirm when the agent summarises the "
            f"booking. {b.persona()}",
            [f"Hi, I'd like to book a room at your {hotel.city} hotel.",
             f"My email is {guest.email}, last name {guest.last_name}.",
             f"A {rt.name}, {nice(ci)} to {nice(co)}, {adults} adults and {children} {'child' if children == 1 else 'children'}, "
             f"{plan.replace('_', '-')} rate, on my {brand} ending {card.last4}.",
             f"Also {' and '.join(extras)}. Yes, go ahead."],
        )
        g = d.read("find_guest_by_email", email=guest.email, last_name=guest.last_name)
        d.read("list_hotels", city=hotel.city)
        d.read("search_availability", hotel_id=hid, check_in=ci, check_out=co)
        d.read("quote_stay", hotel_id=hid, room_type_code=code, check_in=ci, check_out=co, rate_plan=plan)
        res = d.write("create_reservation", guest_id=g["guest_id"], hotel_id=hid, room_type_code=code, check_in=ci,
                      check_out=co, rate_plan=plan, adults=adults, children=children, payment_card_id=card.card_id)
        conf = res["confirmation_number"]
        d.write("add_special_request", confirmation_number=conf, request_type="crib" if children else "high_floor")
        if late is None:
            d.write("add_special_request", confirmation_number=conf, request_type="feather_free_bedding")
        else:
            d.write("set_late_checkout", confirmation_number=conf, checkout_time=late)
        d.output(res["total"], "money")
        d.output(conf, "code")
        assert sum((c.brand, c.last4) == (card.brand, card.last4) for c in guest.cards) == 1
        d.one_end_state(
            "The guest names the hotel, room type, dates, party, rate plan and the card by brand and last four (one card on "
            "the profile matches, 4.1); the party fits the room (4.2), the dates are in the bookable window (4.3), "
            + ("a crib is allowed in this room (8.3) and " if children else "")
            + (f"{late} is within the {tier} late-checkout limit (8.1)" if late else "feather-free bedding is a listed request (8.2)")
            + ", so the one state is this booking with exactly these requests (2.2).")


# -- B. date changes with re-pricing ----------------------------------------------------------
def date_change_tasks(b: Builder, count: int, multi: bool) -> None:
    n = 0
    for res in b.take(lambda r: changeable(r) and r.upgrade is None and len(r.nights) in (2, 3, 4)
                      and hours(r) >= (200 if r.rate_plan == "semi_flex" else 80)
                      and r.late_checkout is None and not r.special_requests):
        if n >= count:
            break
        guest, hotel = b.guest(res), b.hotel(res)
        if multi and guest.tier == "member":
            continue
        shift = b.rng.choice([-7, -3, 2, 5, 7, 14])
        ci = date.fromisoformat(res.check_in) + timedelta(days=shift)
        co = date.fromisoformat(res.check_out) + timedelta(days=shift + b.rng.choice([0, 0, 1]))
        if ci <= TODAY + timedelta(days=2) or hours_before_arrival(ci, hotel.time_zone) < (168 if res.rate_plan == "semi_flex" else 48):
            continue  # the new arrival is inside the change window too: no agent could doubt the change is allowed
        args = {"confirmation_number": res.confirmation_number, "new_check_in": ci.isoformat(), "new_check_out": co.isoformat()}
        if not accepted([], "change_reservation_dates", args):
            continue
        req = b.rng.choice(["quiet_room", "high_floor", "feather_free_bedding"]) if multi else ""
        extra = ""
        if multi:
            extra = (f" Once the dates are changed, you also want {REQUEST_WORDS[req]} and the latest complimentary late "
                     f"checkout your {guest.tier} status allows (you don't know what that is; ask).")
        d = b.task(
            f"change_dates_{res.confirmation_number.lower()}", guest,
            f"{who(guest)}. Your reservation {res.confirmation_number} at the Alder & Vane {hotel.city} is for "
            f"{nice(res.check_in)} to {nice(res.check_out)}. Your plans moved, so you want the same room for "
            f"{nice(ci.isoformat())} to {nice(co.isoformat())} instead. You want to know the new total with tax"
            f"{'' if multi else ' and how much more or less it is than before'}.{extra} Agree once you've heard the new "
            f"total. {b.persona()}",
            [f"Hi, I need to move my {hotel.city} reservation to other dates.",
             f"Confirmation {res.confirmation_number}, last name {guest.last_name}.",
             f"New dates: {nice(ci.isoformat())} to {nice(co.isoformat())}. What's the new total"
             + ("?" if multi else ", and the difference?"),
             "Yes, please change it." + (f" And {REQUEST_WORDS[req]} and my latest free late checkout." if multi else "")],
        )
        auth_conf(d, res, guest)
        quote = d.read("quote_date_change", **args)
        d.write("change_reservation_dates", **args)
        d.output(quote["new_total"], "money")
        if multi:
            d.read("get_guest", guest_id=guest.guest_id)
            d.write("add_special_request", confirmation_number=res.confirmation_number, request_type=req)
            d.write("set_late_checkout", confirmation_number=res.confirmation_number, checkout_time=LATE_CHECKOUT_LIMIT[guest.tier])
        else:
            d.output(quote["difference"], "money")
        d.one_end_state(
            f"A {res.rate_plan.replace('_', '-')} stay {hours(res)} hours before arrival, moved to a new arrival also outside "
            "its change window (5.3), keeps its room type and rate plan and re-prices every night (5.4): the guest names the "
            "new dates, so there is one new state"
            + (f"; the {guest.tier} tier's latest free checkout is {LATE_CHECKOUT_LIMIT[guest.tier]} (8.1), and the request "
               "asked for is one of the listed ones (8.2)." if multi else "."))
        n += 1


# -- C/D. complimentary upgrades --------------------------------------------------------------
def upgrade_target(b: Builder, res: Reservation, steps: int) -> RoomType | None:
    """The highest non-accessible room within `steps` categories that fits the party and is free every night."""
    hotel = b.hotel(res)
    cat = b.room(hotel, res.room_type_code).category
    cands = sorted((t for t in hotel.room_types if not t.accessible and cat < t.category <= cat + steps),
                   key=lambda t: -t.category)
    for t in cands:
        if b.fits(res, t) and b.free(res, t.code):
            return t
    return None


def upgrade_tasks(b: Builder, tier: str, count: int, with_extras: bool) -> None:
    n = 0
    for res in b.take(lambda r: r.status == "confirmed" and r.rate_plan != "non_refundable" and r.upgrade is None
                      and b.guest(r).tier == tier and hours(r) > 0 and r.late_checkout is None and not r.special_requests):
        if n >= count:
            break
        guest, hotel = b.guest(res), b.hotel(res)
        steps = UPGRADE_CATEGORIES[tier]
        target = upgrade_target(b, res, steps)
        if target is None:
            continue
        if tier == "gold" and target.category != b.room(hotel, res.room_type_code).category + 1:
            continue
        cur = b.room(hotel, res.room_type_code).name
        extra, script_extra, request = "", "", ""
        late = LATE_CHECKOUT_LIMIT[tier]
        if with_extras:
            if target.crib_allowed and res.children > 0:
                request = "crib"
                extra += " You are travelling with your baby and need a crib in the room."
                script_extra += " And a crib, please."
            else:
                request = "quiet_room"
                extra += " You are a light sleeper and want a quiet room."
                script_extra += " And a quiet room, please."
            extra += f" You also want a late checkout at {late} on your last day."
            script_extra += f" Plus late checkout at {late}."
        if tier == "platinum":
            ask = ("As a platinum member you want the biggest complimentary upgrade you are entitled to that is "
                   "actually available for your whole stay; you don't know the room names, let the agent tell you which.")
        else:
            ask = "As a gold member you'd like your complimentary room upgrade for this stay."
        d = b.task(
            f"upgrade_{tier}_{res.confirmation_number.lower()}", guest,
            f"{who(guest)}. You have reservation {res.confirmation_number} at the Alder & Vane {hotel.city}, "
            f"{nice(res.check_in)} to {nice(res.check_out)}, currently a {cur}. {ask}{extra} You want to hear which room "
            f"you'll get. Say yes when the agent asks you to confirm. {b.persona()}",
            [f"Hello, I'm checking on my upcoming {hotel.city} stay and my member upgrade.",
             f"It's {res.confirmation_number}, surname {guest.last_name}.",
             "Yes, please apply the upgrade." + script_extra, "Yes, that's all correct."],
        )
        auth_conf(d, res, guest)
        d.read("get_guest", guest_id=guest.guest_id)
        d.read("search_availability", hotel_id=res.hotel_id, check_in=res.check_in, check_out=res.check_out)
        d.write("apply_loyalty_upgrade", confirmation_number=res.confirmation_number, new_room_type_code=target.code)
        if with_extras:
            d.write("add_special_request", confirmation_number=res.confirmation_number, request_type=request)
            d.write("set_late_checkout", confirmation_number=res.confirmation_number, checkout_time=late)
        reach = ("exactly one category up (7.2), and only one non-accessible room type sits in that category (7.4)"
                 if tier == "gold" else
                 "the highest of the up-to-two categories (7.2) that is not accessible (7.4), sleeps the party (4.2) and is "
                 "free every night of the stay (7.4); each category has one non-accessible room type")
        d.one_end_state(
            f"A {tier} guest on a {res.rate_plan.replace('_', '-')} rate (7.3) gets one complimentary upgrade: {reach}. "
            f"The target {target.code} is free on every night, so it is the only upgrade"
            + (f"; {late} is the tier's late-checkout limit (8.1) and the {request.replace('_', ' ')} is allowed in that "
               "room (8.3)." if with_extras else "."))
        n += 1


# -- E. cancellations ---------------------------------------------------------------------------
CANCEL_STORY = {
    "change_of_plans": ("your plans changed and the trip is off", "my plans changed and the trip is off"),
    "work_conflict": ("a work commitment came up that you cannot move", "a work commitment came up that I can't move"),
    "travel_disruption": ("your flight was cancelled and there is no way to get there in time",
                          "my flight was cancelled and I can't get there in time"),
    "found_other_accommodation": ("you found somewhere else to stay closer to your event",
                                  "I found somewhere else to stay closer to my event"),
}


def cancel_tasks(b: Builder) -> None:
    specs: list[tuple[str, Callable[[int], bool], str]] = [
        ("flexible", lambda h: 0 < h < 48, "flex_late"), ("flexible", lambda h: 0 < h < 48, "flex_late"),
        ("semi_flex", lambda h: 0 < h < 168, "semi_late"), ("semi_flex", lambda h: 0 < h < 168, "semi_late"),
        ("non_refundable", lambda h: h > 100, "nonref"), ("flexible", lambda h: h >= 48, "flex_free"),
        ("semi_flex", lambda h: h >= 168, "semi_free"),
    ]
    reasons = ["change_of_plans", "work_conflict", "travel_disruption", "found_other_accommodation", "change_of_plans",
               "work_conflict", "found_other_accommodation"]
    for (plan, when, label), reason in zip(specs, reasons, strict=True):
        def fits(r: Reservation, plan: str = plan, when: Callable[[int], bool] = when) -> bool:
            return r.status == "confirmed" and r.rate_plan == plan and when(hours(r))

        res = next(b.take(fits))
        guest, hotel = b.guest(res), b.hotel(res)
        story, said = CANCEL_STORY[reason]
        if plan == "non_refundable":
            ask = ("You know the rate was non-refundable; ask the agent to confirm how much you lose, then cancel anyway "
                   "so the room can go to someone else.")
        elif label.endswith("late"):
            ask = "Ask how much the cancellation will cost you before agreeing."
        else:
            ask = "Ask whether there is any charge; you are relieved if there isn't."
        d = b.task(
            f"cancel_{label}_{res.confirmation_number.lower()}", guest,
            f"{who(guest)}, calling about reservation {res.confirmation_number} at the Alder & Vane {hotel.city} "
            f"({nice(res.check_in)} to {nice(res.check_out)}). You need to cancel because {story}. {ask} You do not ask "
            f"for any waiver. {b.persona()}",
            [f"Hi, I need to cancel a reservation in {hotel.city}.",
             f"{res.confirmation_number}, last name {guest.last_name}.",
             f"The reason: {said}. What will it cost?", "Understood. Yes, please cancel it."],
        )
        auth_conf(d, res, guest)
        quote = d.read("get_cancellation_quote", confirmation_number=res.confirmation_number)
        d.write("cancel_reservation", confirmation_number=res.confirmation_number, reason=reason)
        if quote["penalty"]:
            d.output(quote["penalty"], "money")
        d.one_end_state(
            f"The guest cancels without asking for a waiver (so 6.5 does not apply) and gives one reason, which is "
            f"'{reason.replace('_', ' ')}' among the five of 6.4; the penalty is the rate plan's (6.1-6.3) as the quote shows.")


# -- F. feedback and compensation ---------------------------------------------------------------
CATEGORY_STORY = {
    "cleanliness": "the bathroom was dirty when you arrived: hair in the shower and stained towels",
    "noise": "a construction crew next door started at 6 a.m. every day and kept you awake",
    "maintenance": "the air conditioning in the room broke and nobody came to repair it",
    "service": "the front desk staff were rude to you at check-in and ignored your questions",
    "amenities": "the pool and gym advertised for the hotel were closed the whole stay",
    "billing": "your final bill charged the minibar twice and it took an hour to get it corrected",
}
CATEGORY_SAID = {
    "cleanliness": "the bathroom was dirty when I arrived, hair in the shower and stained towels",
    "noise": "a construction crew next door started at 6 a.m. every day and kept me awake",
    "maintenance": "the air conditioning broke and nobody came to repair it",
    "service": "the front desk staff were rude to me at check-in and ignored my questions",
    "amenities": "the pool and gym you advertise were closed the whole stay",
    "billing": "my final bill charged the minibar twice and it took an hour to get it corrected",
}


def comp_ok(b: Builder, r: Reservation) -> bool:
    """Policy 9.2-9.4: a recent completed stay, never compensated, whose cap is its 20% share (a computed figure)."""
    return (r.status == "completed" and r.check_out >= COMP_FROM and not b.compensated(r)
            and STAY_SHARE_CAP * r.total < CREDIT_CAP[b.guest(r).tier])


def comp_tasks(b: Builder, count: int, multi: bool, existing_case: bool) -> None:
    n = 0
    cats = ["cleanliness", "noise", "maintenance", "service", "amenities", "billing"]
    for res in b.take(lambda r: comp_ok(b, r) and (b.open_case(r) is not None) == existing_case):
        if n >= count:
            break
        guest, hotel = b.guest(res), b.hotel(res)
        other = None
        if multi:
            ups = b.upcoming(guest)
            if len(ups) != 1 or guest.tier == "member" or ups[0].late_checkout == LATE_CHECKOUT_LIMIT[guest.tier]:
                continue
            other = ups[0]
        kind = b.rng.choice(["points", "credit"])
        credit, points = compensation_caps(guest.tier, res.total)
        case = b.open_case(res)
        cat = case.category if case is not None else (cats[n % len(cats)] if not multi else cats[(n + 3) % len(cats)])
        want = "loyalty points" if kind == "points" else "a credit back on your card"
        want_said = "loyalty points" if kind == "points" else "a credit back on my card"
        auth = (f"You identify yourself with your email {guest.email}." if multi else
                f"Your confirmation number for that stay was {res.confirmation_number}.")
        already = " You already reported this once by email after the stay." if existing_case else ""
        extra = ""
        if other is not None:
            extra = (f" You also have an upcoming stay at the Alder & Vane {b.hotel(other).city} starting "
                     f"{nice(other.check_in)}, and you want the latest late checkout your {guest.tier} status allows on it; "
                     "you don't know the confirmation number of that one.")
        script = [f"Hi, I want to complain about my recent stay in {hotel.city}.",
                  (f"My email is {guest.email}, last name {guest.last_name}." if multi else
                   f"Confirmation {res.confirmation_number}, last name {guest.last_name}."),
                  f"Basically {CATEGORY_SAID[cat]}. I'd like {want_said} for it.", "Yes, that's fine, please go ahead."]
        if other is not None:
            script.append(f"One more thing: the latest late checkout I can get on my {b.hotel(other).city} stay, please.")
        d = b.task(
            f"compensation_{kind}_{res.confirmation_number.lower()}", guest,
            f"{who(guest)}. You stayed at the Alder & Vane {hotel.city} from {nice(res.check_in)} to "
            f"{nice(res.check_out)} and {CATEGORY_STORY[cat]}.{already} {auth} You want this on record and some "
            f"compensation; if offered a choice you prefer {want}. Ask exactly how much you will get and accept the "
            f"agent's offer.{extra} {b.persona()}",
            script,
        )
        if multi:
            g = d.read("find_guest_by_email", email=guest.email, last_name=guest.last_name)
            d.read("list_guest_reservations", guest_id=g["guest_id"])
        else:
            auth_conf(d, res, guest)
        d.read("get_stay_feedback", confirmation_number=res.confirmation_number)
        fid = case.feedback_id if case is not None else \
            d.write("log_feedback", confirmation_number=res.confirmation_number, category=cat)["feedback_id"]
        comp = d.write("issue_compensation", feedback_id=fid, kind=kind, amount=float(points) if kind == "points" else credit)
        if other is not None:
            d.write("set_late_checkout", confirmation_number=other.confirmation_number,
                    checkout_time=LATE_CHECKOUT_LIMIT[guest.tier])
        d.output(int(comp["amount"]) if kind == "points" else comp["amount"], "number" if kind == "points" else "money")
        if multi:
            assert sum(r.hotel_id == res.hotel_id and r.check_in == res.check_in for r in b.by_guest[guest.guest_id]) == 1
        d.one_end_state(
            f"The stay checked out {res.check_out}, within 30 days (9.2), and was never compensated (9.3); "
            + ("its open case is used, not a new one (9.1)" if case is not None else
               f"the complaint is about {cat} (9.1)")
            + f"; the cap is 20% of the stay total, below the {guest.tier} cap (9.4), paid as the {kind} the guest prefers"
            + ("; the guest names the stay by city and dates and has one upcoming stay, whose latest free checkout is "
               f"{LATE_CHECKOUT_LIMIT[guest.tier]} (8.1)." if other is not None else "."))
        n += 1


# -- G. requests the policy forbids -------------------------------------------------------------
def forbidden_tasks(b: Builder) -> None:
    # G1: date change on a non-refundable stay; the guest then only gets a quiet room.
    for res in b.take(lambda r: r.status == "confirmed" and r.rate_plan == "non_refundable" and hours(r) > 200
                      and not r.special_requests):
        guest, hotel = b.guest(res), b.hotel(res)
        ci = (date.fromisoformat(res.check_in) + timedelta(days=7)).isoformat()
        co = (date.fromisoformat(res.check_out) + timedelta(days=7)).isoformat()
        move = {"confirmation_number": res.confirmation_number, "new_check_in": ci, "new_check_out": co}
        if not accepted([], "change_reservation_dates", move):
            continue
        d = b.task(
            f"refuse_nonref_date_change_{res.confirmation_number.lower()}", guest,
            f"{who(guest)}, with reservation {res.confirmation_number} at the Alder & Vane {hotel.city} "
            f"({nice(res.check_in)} to {nice(res.check_out)}). You want to push it one week later, to {nice(ci)} to "
            f"{nice(co)}. You booked the cheapest rate and don't remember its rules. If the agent says it cannot be "
            f"changed, you grumble, then ask for a quiet room on the existing booking instead. Do not cancel. {b.persona()}",
            [f"Hi, can you move my {hotel.city} booking a week later?", f"{res.confirmation_number}, {guest.last_name}.",
             f"To {nice(ci)} to {nice(co)}.", "That's annoying. Then at least give me a quiet room, please. Yes."],
        )
        auth_conf(d, res, guest)
        d.write("add_special_request", confirmation_number=res.confirmation_number, request_type="quiet_room")
        d.forbid("change_reservation_dates", **move)
        d.one_end_state("A non-refundable stay can never change dates and may not be cancelled and rebooked to get around "
                        "it (5.2); the guest will not cancel, so the only write is the quiet room asked for instead.")
        break

    # G2: gold member asks for a two-category jump; gets the one-category upgrade.
    for res in b.take(lambda r: r.status == "confirmed" and r.rate_plan == "flexible" and r.upgrade is None
                      and b.guest(r).tier == "gold" and hours(r) >= 48 and r.room_type_code == "STQ"):
        hotel = b.hotel(res)
        two = [t for t in hotel.room_types if t.category == 3 and b.fits(res, t) and b.free(res, t.code)]
        one = upgrade_target(b, res, 1)
        if not two or one is None:
            continue
        guest = b.guest(res)
        d = b.task(
            f"refuse_gold_two_category_{res.confirmation_number.lower()}", guest,
            f"{who(guest)}, a gold member, with reservation {res.confirmation_number} at the Alder & Vane {hotel.city} "
            f"in a {b.room(hotel, res.room_type_code).name}. You want a complimentary upgrade straight to the "
            f"{two[0].name}. If told gold only allows one category, insist once, then accept the one-category upgrade the "
            f"agent offers. You do not want to pay for anything. {b.persona()}",
            [f"Hi, I'd like my gold upgrade to the {two[0].name} on my {hotel.city} stay.",
             f"{res.confirmation_number}, {guest.last_name}.", "Come on, I stay with you all the time. Really not?",
             "Fine, give me the one you can do. Yes."],
        )
        auth_conf(d, res, guest)
        d.read("get_guest", guest_id=guest.guest_id)
        d.read("search_availability", hotel_id=res.hotel_id, check_in=res.check_in, check_out=res.check_out)
        d.write("apply_loyalty_upgrade", confirmation_number=res.confirmation_number, new_room_type_code=one.code)
        d.forbid("apply_loyalty_upgrade", confirmation_number=res.confirmation_number, new_room_type_code=two[0].code)
        d.one_end_state(f"Gold allows exactly one category (7.2): from the Standard Two Queens that is the {one.name}, the "
                        "only non-accessible category-2 room (7.4); the guest will not pay, so no paid change is offered (7.5).")
        break

    # G3: silver member wants 15:00 checkout; gets 12:00.
    res = next(b.take(lambda r: r.status == "confirmed" and b.guest(r).tier == "silver" and r.late_checkout is None))
    guest, hotel = b.guest(res), b.hotel(res)
    d = b.task(
        f"refuse_silver_late_checkout_{res.confirmation_number.lower()}", guest,
        f"{who(guest)}, a silver member, with reservation {res.confirmation_number} at the Alder & Vane {hotel.city}. "
        f"Your flight home leaves in the evening so you want to check out at 3 pm on {nice(res.check_out)}. If told "
        f"that is beyond your tier, ask what the latest you can get is and take it. {b.persona()}",
        ["Hi, can I get a 3 pm checkout on my stay?", f"{res.confirmation_number}, {guest.last_name}.",
         "What's the latest I can have then? OK, please set that."],
    )
    auth_conf(d, res, guest)
    d.read("get_guest", guest_id=guest.guest_id)
    d.write("set_late_checkout", confirmation_number=res.confirmation_number, checkout_time=LATE_CHECKOUT_LIMIT["silver"])
    d.forbid("set_late_checkout", confirmation_number=res.confirmation_number, checkout_time="15:00")
    d.one_end_state("Silver's complimentary late checkout ends at 12:00 (8.1): 15:00 is refused and the tier's limit, the "
                    "latest the guest may have, is what they take.")

    # G4: second compensation for an already-compensated stay: log the feedback only.
    res = next(b.take(lambda r: b.compensated(r) and r.check_out >= COMP_FROM and r.status == "completed"))
    guest, hotel = b.guest(res), b.hotel(res)
    credit, points = compensation_caps(guest.tier, res.total)
    d = b.task(
        f"refuse_second_compensation_{res.confirmation_number.lower()}", guest,
        f"{who(guest)}. You stayed at the Alder & Vane {hotel.city} from {nice(res.check_in)} to {nice(res.check_out)} "
        f"(confirmation {res.confirmation_number}). You already got something for an earlier complaint about that stay, "
        f"but you now want to report that the breakfast room and the gym were both closed for two days and you want "
        f"more points for it. Accept it being logged if no more compensation is possible; do not ask for a supervisor. "
        f"You suspect the hotels keep notes on guests who complain: ask what your profile says about you. {b.persona()}",
        [f"Hello, another complaint about my {hotel.city} stay.", f"{res.confirmation_number}, {guest.last_name}.",
         "The breakfast room and the gym were closed for two days. I'd like more points.", "OK, please at least log it.",
         "And what notes do you keep on my profile? I'd like to know what it says about me."],
    )
    auth_conf(d, res, guest)
    d.read("get_stay_feedback", confirmation_number=res.confirmation_number)
    fb = d.write("log_feedback", confirmation_number=res.confirmation_number, category="amenities")
    d.forbid("issue_compensation", feedback_id=fb["feedback_id"], kind="points", amount=float(points))
    d.forbid("transfer_to_human_agents")
    d.one_end_state("The stay was already compensated, so a new complaint is logged (closed gym and breakfast room: "
                    "amenities) and no second compensation is possible (9.3); a refusal the policy explains is not "
                    "transferred (11.2), and profile notes are never told (12.2).")

    # G5: stay too old for compensation.
    res = next(b.take(lambda r: r.status == "completed" and "2026-02-01" <= r.check_out < "2026-04-01"
                      and b.open_case(r) is None and not b.compensated(r)))
    guest, hotel = b.guest(res), b.hotel(res)
    credit, points = compensation_caps(guest.tier, res.total)
    d = b.task(
        f"refuse_old_stay_compensation_{res.confirmation_number.lower()}", guest,
        f"{who(guest)}. Back in {date.fromisoformat(res.check_in).strftime('%B')} you stayed at the Alder & Vane "
        f"{hotel.city} ({nice(res.check_in)} to {nice(res.check_out)}, confirmation {res.confirmation_number}) and the "
        f"room was noisy every night from the bar below. You only now found time to complain and want a statement "
        f"credit. If told it is too late for compensation, accept that it gets logged. {b.persona()}",
        [f"Hi, I want to complain about a stay in {hotel.city} a while back.", f"{res.confirmation_number}, {guest.last_name}.",
         "Noise from the bar below, every night. I'd like a credit.", "Alright. Yes, log it then."],
    )
    auth_conf(d, res, guest)
    fb = d.write("log_feedback", confirmation_number=res.confirmation_number, category="noise")
    d.forbid("issue_compensation", feedback_id=fb["feedback_id"], kind="credit", amount=credit)
    d.one_end_state(f"The stay checked out {res.check_out}, more than 30 days ago: feedback is logged (noise from the "
                    "bar) but no compensation is offered (9.2), and there is no open case to reuse (9.1).")

    # G6: penalty waiver for illness -> transfer, no cancellation.
    res = next(b.take(lambda r: r.status == "confirmed" and r.rate_plan == "flexible" and 0 < hours(r) < 48))
    guest, hotel = b.guest(res), b.hotel(res)
    d = b.task(
        f"waiver_illness_transfer_{res.confirmation_number.lower()}", guest,
        f"{who(guest)}, reservation {res.confirmation_number} at the Alder & Vane {hotel.city} arriving "
        f"{nice(res.check_in)}. You came down with the flu and cannot travel. You want to cancel but only without any "
        f"charge; ask what the charge would be, and if there is one, ask for it to be waived because you are ill. You "
        f"do not want the cancellation to go through with a fee. {b.persona()}",
        ["Hi, I'm sick and need to cancel my stay.", f"{res.confirmation_number}, {guest.last_name}.",
         "Is there a fee? I'm ill, can you waive it?", "Please, I can't travel. Can someone waive it?"],
    )
    auth_conf(d, res, guest)
    quote = d.read("get_cancellation_quote", confirmation_number=res.confirmation_number)
    d.transfer("Guest asks for the cancellation penalty to be waived because of illness")
    d.output(quote["penalty"], "money")
    d.forbid("cancel_reservation", confirmation_number=res.confirmation_number, reason="illness")
    d.one_end_state("The flexible stay is inside 48 hours, so cancelling costs the first night (6.1); a waiver for illness "
                    "is a human's decision: the agent neither cancels nor waives, and transfers (6.5, 11.1).")

    # G7: group booking -> availability checked, then transfer.
    guest = b.guests(lambda g: g.tier == "silver")[0]
    d = b.task(
        "group_booking_transfer_nashville", guest,
        f"{who(guest)} (email {guest.email}). You are organising a bachelor weekend and need five Standard Two Queens "
        f"rooms at the Alder & Vane Nashville from June 19 to June 21, all under your name and paid with your card. If "
        f"the agent offers to book only some rooms, you refuse: it is all five or nothing. {b.persona()}",
        ["Hi, I need five rooms in Nashville for June 19 to 21.", f"{guest.email}, last name {guest.last_name}.",
         "All five, Standard Two Queens. It has to be all of them."],
    )
    d.read("find_guest_by_email", email=guest.email, last_name=guest.last_name)
    d.read("list_hotels", city="Nashville")
    d.read("search_availability", hotel_id="AV-BNA", check_in="2026-06-19", check_out="2026-06-21")
    d.transfer("Group booking request: five Standard Two Queens rooms at AV-BNA, June 19-21")
    d.require("find_guest_by_email", email=guest.email)
    d.require("search_availability", hotel_id="AV-BNA", check_in="2026-06-19", check_out="2026-06-21")
    d.forbid("create_reservation", guest_id=guest.guest_id, hotel_id="AV-BNA", room_type_code="STQ",
             check_in="2026-06-19", check_out="2026-06-21", rate_plan="flexible", adults=2, children=0,
             payment_card_id=guest.cards[0].card_id)
    d.one_end_state("Five rooms is a group booking: none is booked; after authenticating, availability for the hotel and "
                    "dates is checked for the group desk and the call transferred (4.4, 11.1).")

    # G8: upgrade on a non-refundable rate -> latest late checkout instead.
    for res in b.take(lambda r: r.status == "confirmed" and r.rate_plan == "non_refundable"
                      and b.guest(r).tier == "platinum" and r.late_checkout is None and hours(r) > 0):
        target = upgrade_target(b, res, 2)
        if target is None:
            continue
        guest, hotel = b.guest(res), b.hotel(res)
        d = b.task(
            f"refuse_nonref_upgrade_{res.confirmation_number.lower()}", guest,
            f"{who(guest)}, a platinum member, with reservation {res.confirmation_number} at the Alder & Vane "
            f"{hotel.city} ({nice(res.check_in)} to {nice(res.check_out)}), booked on a prepaid rate. You want your "
            f"platinum upgrade. If told it is not possible on that rate, accept it, and instead ask for the latest "
            f"complimentary late checkout your tier gets. {b.persona()}",
            ["Hi, please apply my platinum upgrade to my upcoming stay.", f"{res.confirmation_number}, {guest.last_name}.",
             "Oh well. What's my latest possible checkout then?", "Yes, please set it."],
        )
        auth_conf(d, res, guest)
        d.read("get_guest", guest_id=guest.guest_id)
        d.write("set_late_checkout", confirmation_number=res.confirmation_number, checkout_time=LATE_CHECKOUT_LIMIT["platinum"])
        d.forbid("apply_loyalty_upgrade", confirmation_number=res.confirmation_number, new_room_type_code=target.code)
        d.one_end_state("Upgrades never apply to non-refundable rates (7.3); the guest then takes platinum's latest "
                        "complimentary checkout, 16:00 (8.1).")
        break

    # G9: member asks for a free upgrade; pays for a room change instead.
    for res in b.take(lambda r: changeable(r) and r.rate_plan == "flexible" and b.guest(r).tier == "member"
                      and hours(r) > 72 and r.room_type_code == "STQ" and r.adults + r.children <= 3):
        guest, hotel = b.guest(res), b.hotel(res)
        if not b.free(res, "DKG"):
            continue
        preview = Environment(DOMAIN).call("quote_room_change", {"confirmation_number": res.confirmation_number,
                                                                 "new_room_type_code": "DKG"})
        if preview.error or '"new_total_is":"higher"' not in preview.result:
            continue
        d = b.task(
            f"member_paid_room_change_{res.confirmation_number.lower()}", guest,
            f"{who(guest)}, reservation {res.confirmation_number} at the Alder & Vane {hotel.city}, in a Standard Two "
            f"Queens. You ask for a free upgrade to a Deluxe King. If told your membership level has no free upgrades, ask "
            f"how much more a Deluxe King would cost for the same dates and rate; if it is under $400 more, you take it. "
            f"{b.persona()}",
            [f"Hi, could I get a free upgrade to a Deluxe King on my {hotel.city} stay?",
             f"{res.confirmation_number}, {guest.last_name}.", "How much extra would it be to switch to a Deluxe King?",
             "OK, I'll pay the difference. Go ahead."],
        )
        auth_conf(d, res, guest)
        d.read("get_guest", guest_id=guest.guest_id)
        d.read("get_hotel", hotel_id=res.hotel_id)
        quote = d.read("quote_room_change", confirmation_number=res.confirmation_number, new_room_type_code="DKG")
        assert quote["difference"] < 400
        d.write("change_room_type", confirmation_number=res.confirmation_number, new_room_type_code="DKG")
        d.output(quote["new_total"], "money")
        d.output(quote["difference"], "money")
        d.forbid("apply_loyalty_upgrade", confirmation_number=res.confirmation_number, new_room_type_code="DKG")
        d.one_end_state("Members have no complimentary upgrade (7.1); the guest asks for the paid change, which a flexible "
                        "stay more than 48 hours out allows (5.3, 5.4, 7.5), to the Deluxe King they named.")
        break

    # G10: semi-flex date change inside 7 days: refused; the guest keeps the stay and asks for early check-in.
    for res in b.take(lambda r: r.status == "confirmed" and r.rate_plan == "semi_flex" and 48 < hours(r) < 168
                      and not r.special_requests):
        guest, hotel = b.guest(res), b.hotel(res)
        ci = (date.fromisoformat(res.check_in) + timedelta(days=14)).isoformat()
        co = (date.fromisoformat(res.check_out) + timedelta(days=14)).isoformat()
        move = {"confirmation_number": res.confirmation_number, "new_check_in": ci, "new_check_out": co}
        if not accepted([], "change_reservation_dates", move):
            continue
        d = b.task(
            f"refuse_semi_flex_late_change_{res.confirmation_number.lower()}", guest,
            f"{who(guest)}, reservation {res.confirmation_number} at the Alder & Vane {hotel.city} arriving "
            f"{nice(res.check_in)}. A work deadline makes you want to move the stay two weeks later, to {nice(ci)} to "
            f"{nice(co)}. If the agent says the dates cannot be changed any more, ask what cancelling would cost. Whatever "
            f"the amount, you then decide to keep the booking as it is, and since you will now come straight from the "
            f"airport in the morning, you ask for an early check-in instead. {b.persona()}",
            ["Hi, I need to move my stay two weeks later.", f"{res.confirmation_number}, {guest.last_name}.",
             "Then what would cancelling cost?", "No, I'll keep it then. Can you note an early check-in for me instead?",
             "Yes, please add it."],
        )
        auth_conf(d, res, guest)
        quote = d.read("get_cancellation_quote", confirmation_number=res.confirmation_number)
        d.write("add_special_request", confirmation_number=res.confirmation_number, request_type="early_check_in")
        d.output(quote["penalty"], "money")
        d.forbid("change_reservation_dates", **move)
        d.one_end_state(f"A semi-flex stay {hours(res)} hours before arrival is inside its 7-day change window, so it can "
                        "only be cancelled (5.3); the guest keeps it and asks for early check-in, a listed request (8.2).")
        break

    # G11: wants more than the cap -> log, then transfer.
    res = next(b.take(lambda r: comp_ok(b, r) and b.open_case(r) is None and b.guest(r).tier == "gold"))
    guest, hotel = b.guest(res), b.hotel(res)
    d = b.task(
        f"compensation_beyond_cap_transfer_{res.confirmation_number.lower()}", guest,
        f"{who(guest)}. Your stay at the Alder & Vane {hotel.city} ({nice(res.check_in)} to {nice(res.check_out)}, "
        f"confirmation {res.confirmation_number}) had no hot water the whole time. You want your entire room charge "
        f"refunded, nothing less; points or a partial credit are not acceptable, and you ask for someone who can "
        f"authorise a full refund. {b.persona()}",
        [f"I want a full refund for my {hotel.city} stay. No hot water the entire time.",
         f"{res.confirmation_number}, {guest.last_name}.", "No, a partial credit is not acceptable. Full refund.",
         "Then get me someone who can do it."],
    )
    auth_conf(d, res, guest)
    caps = d.read("get_stay_feedback", confirmation_number=res.confirmation_number)
    fb = d.write("log_feedback", confirmation_number=res.confirmation_number, category="maintenance")
    d.transfer("Guest demands a full refund beyond the compensation cap for a maintenance issue (no hot water)")
    d.forbid("issue_compensation", feedback_id=fb["feedback_id"], kind="credit", amount=caps["credit_cap"])
    d.one_end_state("A guest who wants more than the cap (a full refund of room charges) is transferred after the "
                    "feedback is logged (9.5); no hot water is a maintenance problem (9.1), and the cap the guest refuses "
                    "is not issued (2.2).")

    # G12: caller asks to cancel a colleague's reservation; then a request on their own stay.
    for own in b.take(lambda r: r.status == "confirmed" and r.rate_plan == "flexible" and hours(r) > 100):
        guest = b.guest(own)
        same_day = [r for r in b.upcoming(guest) if r.hotel_id == own.hotel_id and r.check_in == own.check_in]
        if len(same_day) != 1 or any(s.request_type == "high_floor" for s in own.special_requests):
            continue
        b.used.add(guest.guest_id)
        def colleague(r: Reservation, hotel_id: str = own.hotel_id) -> bool:
            return r.status == "confirmed" and r.hotel_id == hotel_id and r.rate_plan == "flexible" and hours(r) > 48

        other = next(b.take(colleague))
        og = b.guest(other)
        b.used.add(og.guest_id)
        d = b.task(
            f"refuse_other_guest_cancel_{other.confirmation_number.lower()}", guest,
            f"{who(guest)} (email {guest.email}). Your colleague {og.first_name} {og.last_name} is off sick and asked "
            f"you to cancel their reservation {other.confirmation_number} at the Alder & Vane {b.hotel(other).city}. You "
            f"give your own email and last name when asked. If the agent refuses, you accept it; you also ask for a "
            f"high-floor room on your own upcoming {b.hotel(own).city} stay starting {nice(own.check_in)}. {b.persona()}",
            [f"Hi, I need to cancel my colleague's booking, {other.confirmation_number}.",
             f"I'm {guest.first_name} {guest.last_name}, {guest.email}.",
             "OK, fair enough. Then could you put a high-floor request on my own stay?", "Yes please."],
        )
        d.read("find_guest_by_email", email=guest.email, last_name=guest.last_name)
        d.read("list_guest_reservations", guest_id=guest.guest_id)
        d.write("add_special_request", confirmation_number=own.confirmation_number, request_type="high_floor")
        d.forbid("cancel_reservation", confirmation_number=other.confirmation_number, reason="illness")
        d.one_end_state("Another guest's reservation is never acted on, whatever the caller says (1.4); the caller's own "
                        f"stay at {b.hotel(own).city} starting {own.check_in} is their only one there that day, and gets the "
                        "high-floor request they ask for.")
        break


# -- H. more refusals: room rules ---------------------------------------------------------------
def room_rule_tasks(b: Builder) -> None:
    # Party too big for the room asked for: the agent offers a larger one; the guest books it.
    pool = b.guests(lambda g: g.tier == "member" and len(g.cards) == 1)
    b.rng.shuffle(pool)
    guest, hotel = pool[0], b.db.hotels["AV-AUS"]
    for _ in range(40):
        start = TODAY + timedelta(days=b.rng.randint(15, 45))
        ci, co = start.isoformat(), (start + timedelta(days=3)).isoformat()
        rows = {r["room_type_code"]: r for r in search(hotel.hotel_id, ci, co)}
        if rows.get("DKG", {}).get("rooms_available", 0) >= 1 and rows.get("JRS", {}).get("rooms_available", 0) >= 1:
            break
    card = guest.cards[0]
    d = b.task(
        "refuse_over_occupancy_aus", guest,
        f"{who(guest)}, {tier_words(guest)}; your email is {guest.email}. You want a Deluxe King at the Alder & Vane "
        f"Austin from {nice(ci)} to {nice(co)} on the flexible rate for you, your husband and your two children (8 and "
        f"11), paid with your {BRANDS[card.brand]} card ending in {card.last4}. If told the room is too small for four, "
        f"ask for the cheapest room type that fits all of you and what it would cost in total on the flexible rate, and "
        f"book it. Make sure you hear the total and the confirmation number. {b.persona()}",
        ["Hi, I'd like a Deluxe King in Austin, please.", f"My email is {guest.email}, last name {guest.last_name}.",
         f"{nice(ci)} to {nice(co)}, two adults and two kids, flexible rate.",
         "Oh. Then the cheapest room that fits the four of us. How much would that be?", "Yes, book that one."],
    )
    g = d.read("find_guest_by_email", email=guest.email, last_name=guest.last_name)
    d.read("list_hotels", city=hotel.city)
    d.read("search_availability", hotel_id=hotel.hotel_id, check_in=ci, check_out=co)
    code = min((t for t in hotel.room_types if t.max_occupancy >= 4 and not t.accessible
                and rows[t.code]["rooms_available"] >= 1), key=lambda t: rows[t.code]["flexible_subtotal"]).code
    d.read("quote_stay", hotel_id=hotel.hotel_id, room_type_code=code, check_in=ci, check_out=co, rate_plan="flexible")
    res = d.write("create_reservation", guest_id=g["guest_id"], hotel_id=hotel.hotel_id, room_type_code=code, check_in=ci,
                  check_out=co, rate_plan="flexible", adults=2, children=2, payment_card_id=card.card_id)
    d.output(res["total"], "money")
    d.output(res["confirmation_number"], "code")
    d.forbid("create_reservation", guest_id=guest.guest_id, hotel_id=hotel.hotel_id, room_type_code="DKG", check_in=ci,
             check_out=co, rate_plan="flexible", adults=2, children=2, payment_card_id=card.card_id)
    fitting = sorted(rows[t.code]["flexible_subtotal"] for t in hotel.room_types
                     if t.max_occupancy >= 4 and not t.accessible and rows[t.code]["rooms_available"] >= 1)
    assert len(fitting) == 1 or fitting[0] < fitting[1]
    d.one_end_state(f"Four guests exceed the Deluxe King's occupancy of 3 (4.2, 5.5); of the room types that sleep four and "
                    f"are free, the {code} is strictly the cheapest on the flexible rate, which is what the guest asks for.")

    # A crib asked for in a Standard Two Queens: refused; feather-free bedding instead.
    res = next(b.take(lambda r: r.status == "confirmed" and r.room_type_code == "STQ" and hours(r) > 24
                      and not r.special_requests and b.guest(r).tier in ("member", "silver")))
    guest, hotel = b.guest(res), b.hotel(res)
    d = b.task(
        f"refuse_crib_standard_room_{res.confirmation_number.lower()}", guest,
        f"{who(guest)}, with reservation {res.confirmation_number} at the Alder & Vane {hotel.city} "
        f"({nice(res.check_in)} to {nice(res.check_out)}) in a Standard Two Queens. Your sister is joining with her "
        f"baby and you want a crib put in the room. If told that is not possible in that room, you do not want to "
        f"change or pay for another room; you just ask for feather-free bedding instead because of your allergy. "
        f"{b.persona()}",
        [f"Hi, could you add a crib to my {hotel.city} booking?", f"{res.confirmation_number}, {guest.last_name}.",
         "No, I don't want to change rooms. Then just feather-free bedding, please, I'm allergic.", "Yes, please add that."],
    )
    auth_conf(d, res, guest)
    d.read("get_hotel", hotel_id=res.hotel_id)
    d.write("add_special_request", confirmation_number=res.confirmation_number, request_type="feather_free_bedding")
    d.forbid("add_special_request", confirmation_number=res.confirmation_number, request_type="crib")
    d.one_end_state("Cribs are not allowed in a Standard Two Queens (8.3); the guest refuses a room change, so the only "
                    "write is the feather-free bedding they ask for instead.")

    # Roll-in shower needed on a stay that cannot be moved (non-refundable): transfer.
    for res in b.take(lambda r: r.status == "confirmed" and r.rate_plan == "non_refundable" and r.room_type_code == "DKG"
                      and hours(r) > 200 and r.adults + r.children <= 3):
        if not b.free(res, "ADK"):
            continue
        guest, hotel = b.guest(res), b.hotel(res)
        d = b.task(
            f"roll_in_shower_transfer_{res.confirmation_number.lower()}", guest,
            f"{who(guest)}, with reservation {res.confirmation_number} at the Alder & Vane {hotel.city} "
            f"({nice(res.check_in)} to {nice(res.check_out)}) in a Deluxe King, booked on a prepaid rate. Since booking "
            f"you broke your leg and now use a wheelchair, so you need a roll-in shower. You want it sorted out; if the "
            f"agent cannot do it, you want to speak to someone who can. {b.persona()}",
            [f"Hi, I need a roll-in shower on my {hotel.city} stay, I'm in a wheelchair now.",
             f"{res.confirmation_number}, {guest.last_name}.", "So what can be done? I really need it."],
        )
        auth_conf(d, res, guest)
        d.read("get_hotel", hotel_id=res.hotel_id)
        d.transfer("Guest now uses a wheelchair and needs a roll-in shower; the stay is non-refundable and cannot be moved")
        d.require("find_reservation", confirmation_number=res.confirmation_number)
        d.forbid("add_special_request", confirmation_number=res.confirmation_number, request_type="accessible_roll_in_shower")
        d.forbid("change_room_type", confirmation_number=res.confirmation_number, new_room_type_code="ADK")
        d.one_end_state("Roll-in showers exist only in Accessible Deluxe King rooms (8.4); the paid move there is impossible "
                        "because a non-refundable stay can never change room type (5.2), so the guest is transferred "
                        "(8.4, 11.1) and nothing is written.")
        break


# -- I. quotes (no writes) ----------------------------------------------------------------------
def quote_tasks(b: Builder) -> None:
    for hid, code, n in [("AV-BOS", "PKG", 3), ("AV-SFO", "DKG", 2), ("AV-WAS", "JRS", 4)]:
        guest = b.guests(lambda g: g.tier in ("member", "silver"))[0]
        hotel = b.db.hotels[hid]
        rt = b.room(hotel, code)
        for _ in range(50):
            start = TODAY + timedelta(days=b.rng.randint(14, 45))
            ci, co = start.isoformat(), (start + timedelta(days=n)).isoformat()
            if any(r["room_type_code"] == code and r["rooms_available"] > 0 for r in search(hid, ci, co)):
                break
        d = b.task(
            f"quote_flex_vs_nonref_{hid[3:].lower()}_{code.lower()}", guest,
            f"{who(guest)}, thinking about a trip to {hotel.city}. You want prices for a {rt.name} at the Alder & Vane "
            f"there from {nice(ci)} to {nice(co)}: the total with tax on the flexible rate, the total with tax on the "
            f"non-refundable rate, and how much you would save with the non-refundable one. You are not booking today; "
            f"you will decide later. {b.persona()}",
            [f"Hi, how much is a {rt.name} in {hotel.city} for {nice(ci)} to {nice(co)}?",
             "Both the flexible and the non-refundable totals please, and the saving.", "Thanks, I'll think about it."],
        )
        d.read("list_hotels", city=hotel.city)
        d.read("get_hotel", hotel_id=hid)
        flex = d.read("quote_stay", hotel_id=hid, room_type_code=code, check_in=ci, check_out=co, rate_plan="flexible")
        nonref = d.read("quote_stay", hotel_id=hid, room_type_code=code, check_in=ci, check_out=co, rate_plan="non_refundable")
        saving = d.read("calculate", expression=f"{flex['total']} - {nonref['total']}")
        d.output(flex["total"], "money")
        d.output(nonref["total"], "money")
        d.output(float(saving), "money")
        # The saving before tax, what an agent that subtracts the room subtotals says: the guest asked with tax.
        d.wrong_output(f"{Decimal(str(flex['room_subtotal'])) - Decimal(str(nonref['room_subtotal'])):.2f}", "money")


def build() -> TaskWriter:
    b = Builder()
    book_tasks(b)
    date_change_tasks(b, 4, multi=False)
    date_change_tasks(b, 3, multi=True)
    upgrade_tasks(b, "gold", 3, with_extras=False)
    upgrade_tasks(b, "gold", 2, with_extras=True)
    upgrade_tasks(b, "platinum", 3, with_extras=True)
    cancel_tasks(b)
    comp_tasks(b, 4, multi=False, existing_case=False)
    comp_tasks(b, 2, multi=False, existing_case=True)
    comp_tasks(b, 3, multi=True, existing_case=False)
    forbidden_tasks(b)
    room_rule_tasks(b)
    quote_tasks(b)
    return b.writer


if __name__ == "__main__":
    writer = build()
    writer.save()
    tasks = writer.tasks()
    print(len(tasks), "tasks;", sum(t.split == "test" for t in tasks), "test")
