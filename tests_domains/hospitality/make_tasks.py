"""Builds fixtures/hospitality/tasks.json from the generated DB (seeded, deterministic).

`python -m tests_domains.hospitality.make_tasks`. Each task kind has a hand-written
template; concrete guests and reservations are picked from the DB by the rules the task
tests, and every figure the user must hear is taken from the gold tool results.
"""

from __future__ import annotations

import json
import random
from datetime import date, timedelta
from pathlib import Path

import orjson

from pytest_tau._environment import Environment
from tests_domains.hospitality.domain import DOMAIN
from tests_domains.hospitality.schema import CREDIT_CAP, STAY_SHARE_CAP, TODAY, compensation_caps, hours_before_arrival

OUT = Path(__file__).parents[2] / "fixtures" / "hospitality" / "tasks.json"
rng = random.Random(4242)
db = DOMAIN.initial_db
R, G, H = db.reservations, db.guests, db.hotels
used_guests: set[str] = set()
TASKS: list[dict] = []

PERSONAS = [
    "You are polite but brief.", "You are chatty and a little disorganised.", "You are in a hurry, between meetings.",
    "You are calm and precise.", "You are friendly and say thanks a lot.", "You are slightly impatient.",
    "You are a careful planner and double-check figures.", "You are relaxed and easy-going.",
]


def a(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def run(actions: list[dict]) -> list:
    env = Environment(DOMAIN)
    out = []
    for act in actions:
        call = env.call(act["name"], dict(act["arguments"]))
        if call.error:
            return None
        out.append(orjson.loads(call.result) if call.result[:1] in "[{" else call.result)
    return out


def nice(d: str) -> str:
    x = date.fromisoformat(d)
    return f"{x.strftime('%B')} {x.day}"


def money(v: float) -> str:
    return f"{v:.2f}"


def persona() -> str:
    return rng.choice(PERSONAS)


def add(tid, instructions, script, gold, outputs=(), required=(), forbidden=(), split="test"):
    results = run(gold)
    assert results is not None, f"{tid}: a gold action fails"
    TASKS.append({
        "id": tid, "split": split,
        "user": {"instructions": instructions, "script": script},
        "gold_actions": gold, "required_outputs": list(outputs),
        "required_actions": list(required), "forbidden_actions": list(forbidden),
    })
    return results


def guest_of(res):
    return G[res.guest_id]


def hotel_of(res):
    return H[res.hotel_id]


def rt_name(hotel, code):
    return next(r.name for r in hotel.room_types if r.code == code)


def rt_cat(hotel, code):
    return next(r.category for r in hotel.room_types if r.code == code)


def take(pred, sort_key=None):
    """A random reservation (stable order) matching pred, whose guest no task uses yet."""
    pool = [r for k, r in sorted(R.items()) if r.guest_id not in used_guests and pred(r)]
    rng.shuffle(pool)
    for r in pool:
        if r.guest_id not in used_guests:  # another pick of this same scan may have claimed the guest
            yield r


def claim(res):
    used_guests.add(res.guest_id)


def hours(res):
    return hours_before_arrival(date.fromisoformat(res.check_in))


def upgrade_target(res, steps_allowed, prefer_max=True):
    hotel = hotel_of(res)
    cat = rt_cat(hotel, res.room_type_code)
    cands = [t for t in hotel.room_types if not t.accessible and cat < t.category <= cat + steps_allowed]
    cands.sort(key=lambda t: -t.category if prefer_max else t.category)
    for t in cands:
        if run([a("apply_loyalty_upgrade", confirmation_number=res.confirmation_number, new_room_type_code=t.code)]):
            return t
    return None


def card_phrase(guest, card_id):
    c = next(c for c in guest.cards if c.card_id == card_id)
    return f"your {c.brand.title() if c.brand != 'amex' else 'American Express'} card ending in {c.last4}"


# ---------------------------------------------------------------------------------------
# A. New bookings with follow-up requests (3 writes: reservations, inventory, transactions)
def book_tasks():
    plans = ["flexible", "non_refundable", "semi_flex", "flexible", "non_refundable", "semi_flex", "flexible"]
    hotels = ["AV-DEN", "AV-MIA", "AV-SEA", "AV-MSY", "AV-CHI", "AV-SAN", "AV-BNA"]
    rooms = ["DKG", "PKG", "JRS", "DKG", "PKG", "DKG", "JRS"]
    tiers = ["gold", "silver", "platinum", "member", "gold", "silver", "platinum"]
    made = 0
    for i in range(7):
        hid, code, plan, tier = hotels[i], rooms[i], plans[i], tiers[i]
        guests = [g for k, g in sorted(G.items()) if g.tier == tier and k not in used_guests]
        rng.shuffle(guests)
        guest = guests[0]
        hotel = H[hid]
        for _ in range(40):
            start = TODAY + timedelta(days=rng.randint(12, 50))
            n = rng.choice([2, 3, 4])
            ci, co = start.isoformat(), (start + timedelta(days=n)).isoformat()
            q = run([a("quote_stay", hotel_id=hid, room_type_code=code, check_in=ci, check_out=co, rate_plan=plan)])
            if q and q[0]["rooms_available"] >= 1:
                break
        used_guests.add(guest.guest_id)
        card = guest.cards[-1].card_id
        adults, children = (2, 1) if code != "PKG" else (2, 0)
        conf = f"AVN{len(R) + 1:05d}"
        gold = [
            a("find_guest_by_email", email=guest.email, last_name=guest.last_name),
            a("quote_stay", hotel_id=hid, room_type_code=code, check_in=ci, check_out=co, rate_plan=plan),
            a("create_reservation", guest_id=guest.guest_id, hotel_id=hid, room_type_code=code, check_in=ci,
              check_out=co, rate_plan=plan, adults=adults, children=children, payment_card_id=card),
        ]
        extras_txt = []
        if children:
            gold.append(a("add_special_request", confirmation_number=conf, request_type="crib"))
            extras_txt.append("a crib for the baby")
        else:
            gold.append(a("add_special_request", confirmation_number=conf, request_type="high_floor"))
            extras_txt.append("a room on a high floor")
        if tier == "member":
            gold.append(a("add_special_request", confirmation_number=conf, request_type="feather_free_bedding"))
            extras_txt.append("feather-free bedding because of an allergy")
        else:
            late = {"silver": "12:00", "gold": "13:00", "platinum": "15:00"}[tier]
            gold.append(a("set_late_checkout", confirmation_number=conf, checkout_time=late))
            extras_txt.append(f"a late checkout at {late} on the last day")
        plan_txt = {"flexible": "the flexible rate (you want to be able to cancel)",
                    "semi_flex": "the semi-flex rate",
                    "non_refundable": "the cheapest, non-refundable rate (you accept it is charged now and never refunded)"}[plan]
        party = "you, your partner and your baby daughter" if children else "you and your partner"
        results = run(gold)
        total = results[2]["total"]
        split = "train" if i >= 5 else "test"
        instr = (
            f"You are {guest.first_name} {guest.last_name}, a {tier} member of Alder & Vane; your email is {guest.email}. "
            f"You want to book a {rt_name(hotel, code)} at the Alder & Vane in {hotel.city} from {nice(ci)} to {nice(co)} "
            f"for {party} ({adults} adults, {children} {'child' if children == 1 else 'children'}) on {plan_txt}, paid with {card_phrase(guest, card)}. "
            f"You also want {' and '.join(extras_txt)}. Ask what the total with tax will be and make sure you are told it. "
            f"You do not know any ids. Confirm when the agent summarises the booking. {persona()}"
        )
        script = [f"Hi, I'd like to book a room at your {hotel.city} hotel.",
                  f"My email is {guest.email}, last name {guest.last_name}.",
                  f"{rt_name(hotel, code)}, {nice(ci)} to {nice(co)}, {adults} adults and {children} {'child' if children == 1 else 'children'}, {plan.replace('_', '-')} rate, the card ending {card_phrase(guest, card)[-4:]}.",
                  f"Also {' and '.join(extras_txt)}. Yes, go ahead."]
        add(f"book_{hid[3:].lower()}_{code.lower()}_{plan}", instr, script, gold, outputs=[money(total)], split=split)
        made += 1


# B. Date changes with re-pricing
def date_change_tasks(count, multi):
    n = 0
    for res in take(lambda r: r.status == "confirmed" and r.rate_plan in ("flexible", "semi_flex") and r.upgrade is None
                    and hours(r) >= (200 if r.rate_plan == "semi_flex" else 80) and len(r.nights) in (2, 3, 4)
                    and r.late_checkout is None and not r.special_requests):
        if n >= count:
            break
        guest, hotel = guest_of(res), hotel_of(res)
        if multi and guest.tier == "member":
            continue
        shift = rng.choice([-7, -3, 2, 5, 7, 14])
        ci = date.fromisoformat(res.check_in) + timedelta(days=shift)
        co = date.fromisoformat(res.check_out) + timedelta(days=shift + rng.choice([0, 0, 1]))
        if ci <= TODAY + timedelta(days=2):
            continue
        gold = [a("find_reservation", confirmation_number=res.confirmation_number, last_name=guest.last_name),
                a("change_reservation_dates", confirmation_number=res.confirmation_number,
                  new_check_in=ci.isoformat(), new_check_out=co.isoformat())]
        r1 = run(gold)
        if not r1:
            continue
        new_total = r1[1]["total"]
        expr = f"{new_total} - {res.total}"
        gold.append(a("calculate", expression=expr))
        diff = run(gold)[2]
        extra_txt = ""
        if multi:
            limit = {"silver": "12:00", "gold": "14:00", "platinum": "16:00"}[guest.tier]
            req = rng.choice(["quiet_room", "high_floor", "feather_free_bedding"])
            gold += [a("add_special_request", confirmation_number=res.confirmation_number, request_type=req),
                     a("set_late_checkout", confirmation_number=res.confirmation_number, checkout_time=limit)]
            req_txt = {"quiet_room": "a quiet room", "high_floor": "a high floor",
                       "feather_free_bedding": "feather-free bedding"}[req]
            extra_txt = (f" Once the dates are changed, you also want {req_txt} and the latest complimentary late checkout "
                         f"your {guest.tier} status allows (you don't know what that is; ask).")
        claim(res)
        d = float(diff)
        change = "more" if d > 0 else "less"
        instr = (
            f"You are {guest.first_name} {guest.last_name}. Your reservation {res.confirmation_number} at the Alder & Vane "
            f"{hotel.city} is for {nice(res.check_in)} to {nice(res.check_out)}. Your plans moved, so you want the same room "
            f"for {nice(ci.isoformat())} to {nice(co.isoformat())} instead. You want to know the new total with tax and how much "
            f"{'more or less' } it is than before.{extra_txt} Agree once you've heard the new total. {persona()}"
        )
        script = [f"Hi, I need to move my {hotel.city} reservation to other dates.",
                  f"Confirmation {res.confirmation_number}, last name {guest.last_name}.",
                  f"New dates: {nice(ci.isoformat())} to {nice(co.isoformat())}. What's the new total and the difference?",
                  "Yes, please change it." + (" And add the extras I mentioned." if multi else "")]
        add(f"change_dates_{res.confirmation_number.lower()}", instr, script, gold,
            outputs=[money(new_total), money(abs(d))] if multi is False else [money(new_total)])
        n += 1


# C/D. Complimentary upgrades
def upgrade_tasks(tier, count, with_extras):
    n = 0
    for res in take(lambda r: r.status == "confirmed" and r.rate_plan != "non_refundable" and r.upgrade is None
                    and guest_of(r).tier == tier and hours(r) > 0 and r.late_checkout is None and not r.special_requests):
        if n >= count:
            break
        guest, hotel = guest_of(res), hotel_of(res)
        target = upgrade_target(res, 2 if tier == "platinum" else 1)
        if target is None:
            continue
        cur = rt_name(hotel, res.room_type_code)
        gold = [a("find_reservation", confirmation_number=res.confirmation_number, last_name=guest.last_name),
                a("get_hotel", hotel_id=res.hotel_id),
                a("apply_loyalty_upgrade", confirmation_number=res.confirmation_number, new_room_type_code=target.code)]
        extra = ""
        script_extra = ""
        if with_extras:
            rt_ok = target.crib_allowed and res.adults + res.children < target.max_occupancy + 1
            if rt_ok and res.children > 0:
                gold.append(a("add_special_request", confirmation_number=res.confirmation_number, request_type="crib"))
                extra += " You are travelling with a baby and need a crib in the room."
                script_extra += " And a crib, please."
            else:
                gold.append(a("add_special_request", confirmation_number=res.confirmation_number, request_type="quiet_room"))
                extra += " You are a light sleeper and want a quiet room."
                script_extra += " And a quiet room, please."
            late = "14:00" if tier == "gold" else "16:00"
            gold.append(a("set_late_checkout", confirmation_number=res.confirmation_number, checkout_time=late))
            extra += f" You also want a late checkout at {late} on your last day."
            script_extra += f" Plus late checkout at {late}."
        if not run(gold):
            continue
        claim(res)
        if tier == "platinum":
            ask = ("As a platinum member you want the biggest complimentary upgrade you are entitled to that is "
                   "actually available for your whole stay; you don't know the room names, let the agent tell you which.")
        else:
            ask = "As a gold member you'd like your complimentary room upgrade for this stay."
        instr = (
            f"You are {guest.first_name} {guest.last_name}. You have reservation {res.confirmation_number} at the Alder & Vane "
            f"{hotel.city}, {nice(res.check_in)} to {nice(res.check_out)}, currently a {cur}. {ask}{extra} "
            f"You want to hear which room you'll get. Say yes when the agent asks you to confirm. {persona()}"
        )
        script = [f"Hello, I'm checking on my upcoming {hotel.city} stay and my member upgrade.",
                  f"It's {res.confirmation_number}, surname {guest.last_name}.",
                  "Yes, please apply the upgrade." + script_extra, "Yes, that's all correct."]
        add(f"upgrade_{tier}_{res.confirmation_number.lower()}", instr, script, gold, outputs=[target.name])
        n += 1


# E. Cancellations
def cancel_tasks():
    specs = [
        ("flexible", lambda h: h < 48, "flex_late"), ("flexible", lambda h: h < 48, "flex_late"),
        ("semi_flex", lambda h: h < 168, "semi_late"), ("semi_flex", lambda h: h < 168, "semi_late"),
        ("non_refundable", lambda h: h > 100, "nonref"), ("flexible", lambda h: h >= 48, "flex_free"),
        ("semi_flex", lambda h: h >= 168, "semi_free"),
    ]
    reasons = ["change_of_plans", "work_conflict", "travel_disruption", "found_other_accommodation", "change_of_plans",
               "work_conflict", "found_other_accommodation"]
    reason_txt = {"change_of_plans": "your plans changed and the trip is off",
                  "work_conflict": "a work commitment came up that you cannot move",
                  "travel_disruption": "your flight was cancelled and there is no way to get there in time",
                  "found_other_accommodation": "you found somewhere else to stay closer to your event"}
    for (plan, when, label), reason in zip(specs, reasons):
        res = next(take(lambda r: r.status == "confirmed" and r.rate_plan == plan and when(hours(r))))
        guest, hotel = guest_of(res), hotel_of(res)
        claim(res)
        gold = [a("find_reservation", confirmation_number=res.confirmation_number, last_name=guest.last_name),
                a("get_cancellation_quote", confirmation_number=res.confirmation_number),
                a("cancel_reservation", confirmation_number=res.confirmation_number, reason=reason)]
        quote = run(gold)[1]
        outputs = [money(quote["penalty"])] if quote["penalty"] else []
        ask = "Ask how much the cancellation will cost you before agreeing." if outputs else \
            "Ask whether there is any charge; you are relieved if there isn't."
        if plan == "non_refundable":
            ask = ("You know the rate was non-refundable; ask the agent to confirm how much you lose, then cancel anyway "
                   "so the room can go to someone else.")
        instr = (
            f"You are {guest.first_name} {guest.last_name}, calling about reservation {res.confirmation_number} at the "
            f"Alder & Vane {hotel.city} ({nice(res.check_in)} to {nice(res.check_out)}). You need to cancel because "
            f"{reason_txt[reason]}. {ask} You do not ask for any waiver. {persona()}"
        )
        script = [f"Hi, I need to cancel a reservation in {hotel.city}.",
                  f"{res.confirmation_number}, last name {guest.last_name}.",
                  f"The reason: {reason_txt[reason]}. What will it cost?", "Understood. Please cancel it."]
        add(f"cancel_{label}_{res.confirmation_number.lower()}", instr, script, gold, outputs=outputs)


# F. Feedback and compensation
def comp_ok(r):
    return (r.status == "completed" and r.check_out >= "2026-04-15"
            and not any(c.confirmation_number == r.confirmation_number for c in db.compensations.values()))


def open_case(r):
    return next((f for k, f in sorted(db.feedback.items()) if f.confirmation_number == r.confirmation_number
                 and f.status == "open"), None)


def comp_tasks(count, multi, existing_case):
    n = 0
    cats = ["cleanliness", "noise", "maintenance", "service", "amenities", "billing"]
    cat_txt = {"cleanliness": "the bathroom was dirty when you arrived and housekeeping never fixed it",
               "noise": "a construction crew next door started at 6 a.m. every day and kept you awake",
               "maintenance": "the air conditioning in the room broke and nobody came to repair it",
               "service": "the front desk staff were rude to you at check-in and lost your luggage tag",
               "amenities": "the pool and gym advertised for the hotel were closed the whole stay",
               "billing": "the bill at checkout was wrong twice and the front desk kept you waiting an hour to correct it"}
    share_bound = not multi and not existing_case  # stays where 20% of the total is below the tier cap
    for res in take(lambda r: comp_ok(r) and (open_case(r) is not None) == existing_case
                    and (not share_bound or STAY_SHARE_CAP * r.total < CREDIT_CAP[guest_of(r).tier])):
        if n >= count:
            break
        guest, hotel = guest_of(res), hotel_of(res)
        other = None
        if multi:
            others = [r for k, r in sorted(R.items()) if r.guest_id == guest.guest_id and r.status == "confirmed"]
            if not others or guest.tier == "member":
                continue
            other = others[0]
        kind = rng.choice(["points", "credit"])
        credit, points = compensation_caps(guest.tier, res.total)
        amount = float(points) if kind == "points" else credit
        gold = [a("find_guest_by_email", email=guest.email, last_name=guest.last_name) if multi else
                a("find_reservation", confirmation_number=res.confirmation_number, last_name=guest.last_name),
                a("get_stay_feedback", confirmation_number=res.confirmation_number)]
        case = open_case(res)
        if case is None:
            cat = cats[n % len(cats)] if not multi else cats[(n + 3) % len(cats)]
            gold.append(a("log_feedback", confirmation_number=res.confirmation_number, category=cat))
            fid = f"FB{len(db.feedback) + 1:05d}"
        else:
            cat, fid = case.category, case.feedback_id
        gold.append(a("issue_compensation", feedback_id=fid, kind=kind, amount=amount))
        extra = ""
        if multi:
            ohotel = hotel_of(other)
            late = {"silver": "12:00", "gold": "14:00", "platinum": "16:00"}[guest.tier]
            if other.late_checkout == late:
                continue
            gold.append(a("set_late_checkout", confirmation_number=other.confirmation_number, checkout_time=late))
            extra = (f" You also have an upcoming stay at the Alder & Vane {ohotel.city} starting {nice(other.check_in)}, "
                     f"and you want the latest late checkout your {guest.tier} status allows on it; you don't know the "
                     "confirmation number of that one.")
        if not run(gold):
            continue
        claim(res)
        want = ("loyalty points" if kind == "points" else "a credit back on your card")
        auth = (f"You identify yourself with your email {guest.email}." if multi else
                f"Your confirmation number for that stay was {res.confirmation_number}.")
        already = " You already reported this once by email after the stay." if existing_case else ""
        instr = (
            f"You are {guest.first_name} {guest.last_name}. You stayed at the Alder & Vane {hotel.city} from "
            f"{nice(res.check_in)} to {nice(res.check_out)} and {cat_txt[cat]}.{already} {auth} You want this on record and "
            f"some compensation; if offered a choice you prefer {want}. Ask exactly how much you will get and accept the "
            f"agent's offer.{extra} {persona()}"
        )
        script = [f"Hi, I want to complain about my recent stay in {hotel.city}.",
                  (f"My email is {guest.email}, last name {guest.last_name}." if multi else
                   f"Confirmation {res.confirmation_number}, last name {guest.last_name}."),
                  f"Basically {cat_txt[cat]}. I'd like {want} for it.", "Yes, that's fine, please go ahead."]
        if multi:
            script.append(f"One more thing: the latest late checkout I can get on my {hotel_of(other).city} stay, please.")
        shown = str(int(amount)) if kind == "points" else money(amount)
        add(f"compensation_{kind}_{res.confirmation_number.lower()}", instr, script, gold, outputs=[shown])
        n += 1


# G. Requests the policy forbids
def forbidden_tasks():
    # G1: date change on a non-refundable stay; the guest then only gets a special request.
    res = next(take(lambda r: r.status == "confirmed" and r.rate_plan == "non_refundable" and hours(r) > 200
                    and not r.special_requests))
    guest, hotel = guest_of(res), hotel_of(res)
    claim(res)
    ci = (date.fromisoformat(res.check_in) + timedelta(days=7)).isoformat()
    co = (date.fromisoformat(res.check_out) + timedelta(days=7)).isoformat()
    add(f"refuse_nonref_date_change_{res.confirmation_number.lower()}",
        f"You are {guest.first_name} {guest.last_name} with reservation {res.confirmation_number} at the Alder & Vane "
        f"{hotel.city} ({nice(res.check_in)} to {nice(res.check_out)}). You want to push it one week later, to "
        f"{nice(ci)} to {nice(co)}. You booked the cheapest rate online and don't remember its rules. If the agent says it "
        f"cannot be changed, you grumble, then ask for a quiet room on the existing booking instead. Do not cancel. {persona()}",
        [f"Hi, can you move my {hotel.city} booking a week later?", f"{res.confirmation_number}, {guest.last_name}.",
         f"To {nice(ci)} to {nice(co)}.", "That's annoying. Then at least give me a quiet room, please. Yes."],
        [a("find_reservation", confirmation_number=res.confirmation_number, last_name=guest.last_name),
         a("add_special_request", confirmation_number=res.confirmation_number, request_type="quiet_room")],
        forbidden=[a("change_reservation_dates", confirmation_number=res.confirmation_number),
                   a("cancel_reservation", confirmation_number=res.confirmation_number)])

    # G2: gold member asks for a two-category jump; gets one category.
    for res in take(lambda r: r.status == "confirmed" and r.rate_plan == "flexible" and r.upgrade is None
                    and guest_of(r).tier == "gold" and hours(r) > 0):
        hotel = hotel_of(res)
        cat = rt_cat(hotel, res.room_type_code)
        two = [t for t in hotel.room_types if t.category == cat + 2 and not t.accessible]
        one = upgrade_target(res, 1)
        if not two or one is None or rt_cat(hotel, res.room_type_code) != 1:
            continue
        guest = guest_of(res)
        claim(res)
        add(f"refuse_gold_two_category_{res.confirmation_number.lower()}",
            f"You are {guest.first_name} {guest.last_name}, a gold member, with reservation {res.confirmation_number} at "
            f"the Alder & Vane {hotel.city} in a {rt_name(hotel, res.room_type_code)}. You want a complimentary upgrade "
            f"straight to the {two[0].name}. If told gold only allows one category, insist once, then accept the one-"
            f"category upgrade the agent offers. You do not want to pay for anything. {persona()}",
            [f"Hi, I'd like my gold upgrade to the {two[0].name} on my {hotel.city} stay.",
             f"{res.confirmation_number}, {guest.last_name}.", "Come on, I stay with you all the time. Really not?",
             "Fine, give me the one you can do. Yes."],
            [a("find_reservation", confirmation_number=res.confirmation_number, last_name=guest.last_name),
             a("get_hotel", hotel_id=res.hotel_id),
             a("apply_loyalty_upgrade", confirmation_number=res.confirmation_number, new_room_type_code=one.code)],
            outputs=[one.name],
            forbidden=[a("apply_loyalty_upgrade", confirmation_number=res.confirmation_number, new_room_type_code=two[0].code),
                       a("change_room_type", confirmation_number=res.confirmation_number)])
        break

    # G3: silver member wants 15:00 checkout; gets 12:00.
    res = next(take(lambda r: r.status == "confirmed" and guest_of(r).tier == "silver" and r.late_checkout is None))
    guest, hotel = guest_of(res), hotel_of(res)
    claim(res)
    add(f"refuse_silver_late_checkout_{res.confirmation_number.lower()}",
        f"You are {guest.first_name} {guest.last_name}, a silver member, with reservation {res.confirmation_number} at the "
        f"Alder & Vane {hotel.city}. Your flight home leaves in the evening so you want to check out at 15:00 on "
        f"{nice(res.check_out)}. If told that is beyond your tier, ask what the latest you can get is and take it. {persona()}",
        ["Hi, can I get a 3 pm checkout on my stay?", f"{res.confirmation_number}, {guest.last_name}.",
         "What's the latest I can have then? OK, please set that."],
        [a("find_reservation", confirmation_number=res.confirmation_number, last_name=guest.last_name),
         a("set_late_checkout", confirmation_number=res.confirmation_number, checkout_time="12:00")],
        outputs=["12:00"],
        forbidden=[a("set_late_checkout", confirmation_number=res.confirmation_number, checkout_time="15:00")])

    # G4: second compensation for an already-compensated stay: log the feedback only.
    for res in take(lambda r: any(c.confirmation_number == r.confirmation_number for c in db.compensations.values())
                    and r.check_out >= "2026-04-15"):
        guest, hotel = guest_of(res), hotel_of(res)
        claim(res)
        add(f"refuse_second_compensation_{res.confirmation_number.lower()}",
            f"You are {guest.first_name} {guest.last_name}. You stayed at the Alder & Vane {hotel.city} from "
            f"{nice(res.check_in)} to {nice(res.check_out)} (confirmation {res.confirmation_number}). You already got "
            f"something for an earlier complaint about that stay, but you now want to report that the breakfast room "
            f"and the gym were both closed for two days (you'd file it under amenities) and you want more points for it. Accept it being logged if no more "
            f"compensation is possible; do not ask for a supervisor. {persona()}",
            [f"Hello, another complaint about my {hotel.city} stay.", f"{res.confirmation_number}, {guest.last_name}.",
             "Breakfast room and gym closed for two days. I'd like more points.", "OK, please at least log it."],
            [a("find_reservation", confirmation_number=res.confirmation_number, last_name=guest.last_name),
             a("get_stay_feedback", confirmation_number=res.confirmation_number),
             a("log_feedback", confirmation_number=res.confirmation_number, category="amenities")],
            forbidden=[a("issue_compensation"), a("transfer_to_human_agents")])
        break

    # G5: stay too old for compensation.
    res = next(take(lambda r: r.status == "completed" and "2026-02-01" <= r.check_out < "2026-04-01" and open_case(r) is None
                    and not any(c.confirmation_number == r.confirmation_number for c in db.compensations.values())))
    guest, hotel = guest_of(res), hotel_of(res)
    claim(res)
    add(f"refuse_old_stay_compensation_{res.confirmation_number.lower()}",
        f"You are {guest.first_name} {guest.last_name}. Back in {date.fromisoformat(res.check_in).strftime('%B')} you stayed "
        f"at the Alder & Vane {hotel.city} ({nice(res.check_in)} to {nice(res.check_out)}, confirmation "
        f"{res.confirmation_number}) and the room was noisy every night from the bar below. You only now found time to "
        f"complain and want a statement credit. If told it is too late for compensation, accept that it gets logged. {persona()}",
        [f"Hi, I want to complain about a stay in {hotel.city} a while back.", f"{res.confirmation_number}, {guest.last_name}.",
         "Noise from the bar every night. I'd like a credit.", "Alright, log it then."],
        [a("find_reservation", confirmation_number=res.confirmation_number, last_name=guest.last_name),
         a("log_feedback", confirmation_number=res.confirmation_number, category="noise")],
        forbidden=[a("issue_compensation")])

    # G6: penalty waiver for illness -> transfer, no cancellation.
    res = next(take(lambda r: r.status == "confirmed" and r.rate_plan == "flexible" and hours(r) < 48))
    guest, hotel = guest_of(res), hotel_of(res)
    claim(res)
    gold = [a("find_reservation", confirmation_number=res.confirmation_number, last_name=guest.last_name),
            a("get_cancellation_quote", confirmation_number=res.confirmation_number),
            a("transfer_to_human_agents", summary="Guest requests a cancellation penalty waiver due to illness")]
    quote = run(gold)[1]
    add(f"waiver_illness_transfer_{res.confirmation_number.lower()}",
        f"You are {guest.first_name} {guest.last_name}, reservation {res.confirmation_number} at the Alder & Vane "
        f"{hotel.city} arriving {nice(res.check_in)}. You came down with the flu and cannot travel. You want to cancel "
        f"but only without any charge; ask what the charge would be, and if there is one, ask for it to be waived because "
        f"you are ill. You do not want the cancellation to go through with a fee. {persona()}",
        ["Hi, I'm sick and need to cancel my stay.", f"{res.confirmation_number}, {guest.last_name}.",
         "Is there a fee? I'm ill, can you waive it?", "Please, I can't travel. Can someone waive it?"],
        gold, outputs=[money(quote["penalty"])], required=[a("transfer_to_human_agents")],
        forbidden=[a("cancel_reservation")])

    # G7: group booking -> transfer.
    guest = next(g for k, g in sorted(G.items()) if k not in used_guests and g.tier == "silver")
    used_guests.add(guest.guest_id)
    add("group_booking_transfer_nashville",
        f"You are {guest.first_name} {guest.last_name} (email {guest.email}). You are organising a bachelor weekend and "
        f"need five Standard Two Queens rooms at the Alder & Vane Nashville from June 19 to June 21. You want them all "
        f"on one booking with your card. If the agent offers to book only some rooms, you refuse: it is all five or "
        f"nothing. {persona()}",
        ["Hi, I need five rooms in Nashville for June 19 to 21.", f"{guest.email}, last name {guest.last_name}.",
         "All five, Standard Two Queens. It has to be all of them."],
        [a("find_guest_by_email", email=guest.email, last_name=guest.last_name),
         a("transfer_to_human_agents", summary="Group booking request: five rooms at AV-BNA June 19-21")],
        required=[a("transfer_to_human_agents")], forbidden=[a("create_reservation")])

    # G8: upgrade on a non-refundable rate.
    res = next(take(lambda r: r.status == "confirmed" and r.rate_plan == "non_refundable"
                    and guest_of(r).tier == "platinum" and r.late_checkout is None))
    guest, hotel = guest_of(res), hotel_of(res)
    claim(res)
    add(f"refuse_nonref_upgrade_{res.confirmation_number.lower()}",
        f"You are {guest.first_name} {guest.last_name}, a platinum member, with reservation {res.confirmation_number} at "
        f"the Alder & Vane {hotel.city} ({nice(res.check_in)} to {nice(res.check_out)}), booked on a prepaid rate. You "
        f"want your platinum upgrade. If told it is not possible on that rate, accept it, and instead ask for the latest "
        f"complimentary late checkout your tier gets. {persona()}",
        ["Hi, please apply my platinum upgrade to my upcoming stay.", f"{res.confirmation_number}, {guest.last_name}.",
         "Oh well. What's my latest possible checkout then? Please set it."],
        [a("find_reservation", confirmation_number=res.confirmation_number, last_name=guest.last_name),
         a("set_late_checkout", confirmation_number=res.confirmation_number, checkout_time="16:00")],
        outputs=["16:00"],
        forbidden=[a("apply_loyalty_upgrade"), a("change_room_type")])

    # G9: member asks for a free upgrade; pays for a room change instead.
    for res in take(lambda r: r.status == "confirmed" and r.rate_plan == "flexible" and guest_of(r).tier == "member"
                    and hours(r) > 72 and r.room_type_code == "STQ" and r.adults + r.children <= 3):
        guest, hotel = guest_of(res), hotel_of(res)
        gold = [a("find_reservation", confirmation_number=res.confirmation_number, last_name=guest.last_name),
                a("quote_stay", hotel_id=res.hotel_id, room_type_code="DKG", check_in=res.check_in,
                  check_out=res.check_out, rate_plan="flexible"),
                a("change_room_type", confirmation_number=res.confirmation_number, new_room_type_code="DKG")]
        out = run(gold)
        if not out:
            continue
        claim(res)
        gold.append(a("calculate", expression=f"{out[2]['total']} - {res.total}"))
        diff = run(gold)[3]
        add(f"member_paid_room_change_{res.confirmation_number.lower()}",
            f"You are {guest.first_name} {guest.last_name}, reservation {res.confirmation_number} at the Alder & Vane "
            f"{hotel.city}, in a Standard Two Queens. You ask for a free upgrade to a Deluxe King. If told your membership "
            f"level has no free upgrades, ask how much more a Deluxe King would cost for the same dates and rate; if it is "
            f"under $400 more, you take it. {persona()}",
            [f"Hi, could I get a free upgrade to a Deluxe King on my {hotel.city} stay?",
             f"{res.confirmation_number}, {guest.last_name}.", "How much extra would it be to switch to a Deluxe King?",
             "OK, I'll pay the difference. Go ahead."],
            gold, outputs=[money(out[2]["total"]), diff],
            forbidden=[a("apply_loyalty_upgrade")])
        break

    # G10: semi-flex date change inside 7 days: refuse, guest cancels with the penalty instead.
    res = next(take(lambda r: r.status == "confirmed" and r.rate_plan == "semi_flex" and 48 < hours(r) < 168))
    guest, hotel = guest_of(res), hotel_of(res)
    claim(res)
    gold = [a("find_reservation", confirmation_number=res.confirmation_number, last_name=guest.last_name),
            a("get_cancellation_quote", confirmation_number=res.confirmation_number),
            a("cancel_reservation", confirmation_number=res.confirmation_number, reason="work_conflict")]
    quote = run(gold)[1]
    add(f"refuse_semi_flex_late_change_{res.confirmation_number.lower()}",
        f"You are {guest.first_name} {guest.last_name}, reservation {res.confirmation_number} at the Alder & Vane "
        f"{hotel.city} arriving {nice(res.check_in)}. A work deadline means you want to move the stay two weeks later. If "
        f"the agent says the dates cannot be changed any more, ask what cancelling would cost; if it is less than $1,500 "
        f"you cancel (the reason is the work conflict) and will rebook yourself online later. {persona()}",
        ["Hi, I need to move my stay two weeks later.", f"{res.confirmation_number}, {guest.last_name}.",
         "Then what would cancelling cost?", "Fine, cancel it, it's because of work."],
        gold, outputs=[money(quote["penalty"])],
        forbidden=[a("change_reservation_dates"), a("create_reservation")])

    # G11: wants more than the cap -> log, transfer.
    res = next(take(lambda r: comp_ok(r) and open_case(r) is None and guest_of(r).tier == "gold"))
    guest, hotel = guest_of(res), hotel_of(res)
    claim(res)
    add(f"compensation_beyond_cap_transfer_{res.confirmation_number.lower()}",
        f"You are {guest.first_name} {guest.last_name}. Your stay at the Alder & Vane {hotel.city} "
        f"({nice(res.check_in)} to {nice(res.check_out)}, confirmation {res.confirmation_number}) had no hot water the "
        f"whole time (maintenance). You want your entire room charge refunded, nothing less; points or a partial credit "
        f"are not acceptable, and you ask for someone who can authorise a full refund. {persona()}",
        [f"I want a full refund for my {hotel.city} stay. No hot water the entire time.",
         f"{res.confirmation_number}, {guest.last_name}.", "No, a partial credit is not acceptable. Full refund.",
         "Then get me someone who can do it."],
        [a("find_reservation", confirmation_number=res.confirmation_number, last_name=guest.last_name),
         a("get_stay_feedback", confirmation_number=res.confirmation_number),
         a("log_feedback", confirmation_number=res.confirmation_number, category="maintenance"),
         a("transfer_to_human_agents", summary="Guest demands a full refund beyond the compensation cap for a maintenance issue")],
        required=[a("transfer_to_human_agents")], forbidden=[a("issue_compensation")])

    # G12: caller asks to cancel a colleague's reservation.
    guest_res = next(take(lambda r: r.status == "confirmed" and r.rate_plan == "flexible" and hours(r) > 100))
    guest = guest_of(guest_res)
    claim(guest_res)
    other = next(take(lambda r: r.status == "confirmed" and r.hotel_id == guest_res.hotel_id and r.rate_plan == "flexible"
                      and hours(r) > 48))
    og = guest_of(other)
    claim(other)
    add(f"refuse_other_guest_cancel_{other.confirmation_number.lower()}",
        f"You are {guest.first_name} {guest.last_name} (email {guest.email}). Your colleague {og.first_name} {og.last_name} "
        f"is off sick and asked you to cancel their reservation {other.confirmation_number} at the Alder & Vane "
        f"{hotel_of(other).city}. You give your own email and last name when asked. If the agent refuses, you accept it; "
        f"you also ask for a high-floor room on your own upcoming {hotel_of(guest_res).city} stay starting "
        f"{nice(guest_res.check_in)}. {persona()}",
        [f"Hi, I need to cancel my colleague's booking, {other.confirmation_number}.",
         f"I'm {guest.first_name} {guest.last_name}, {guest.email}.", "OK, fair enough. Then could you put a high-floor request on my own stay?",
         "Yes please."],
        [a("find_guest_by_email", email=guest.email, last_name=guest.last_name),
         a("list_guest_reservations", guest_id=guest.guest_id),
         a("add_special_request", confirmation_number=guest_res.confirmation_number, request_type="high_floor")],
        forbidden=[a("cancel_reservation", confirmation_number=other.confirmation_number)])


# H. Quotes (no writes)
def quote_tasks():
    specs = [("AV-BOS", "PKG", 3), ("AV-SFO", "DKG", 2), ("AV-WAS", "JRS", 4)]
    for hid, code, n in specs:
        guest = next(g for k, g in sorted(G.items()) if k not in used_guests and g.tier in ("member", "silver"))
        used_guests.add(guest.guest_id)
        hotel = H[hid]
        for _ in range(50):
            start = TODAY + timedelta(days=rng.randint(14, 45))
            ci, co = start.isoformat(), (start + timedelta(days=n)).isoformat()
            f = run([a("quote_stay", hotel_id=hid, room_type_code=code, check_in=ci, check_out=co, rate_plan="flexible")])
            if f and f[0]["rooms_available"] > 0:
                break
        gold = [a("quote_stay", hotel_id=hid, room_type_code=code, check_in=ci, check_out=co, rate_plan="flexible"),
                a("quote_stay", hotel_id=hid, room_type_code=code, check_in=ci, check_out=co, rate_plan="non_refundable")]
        q = run(gold)
        gold.append(a("calculate", expression=f"{q[0]['total']} - {q[1]['total']}"))
        diff = run(gold)[2]
        add(f"quote_flex_vs_nonref_{hid[3:].lower()}_{code.lower()}",
            f"You are {guest.first_name} {guest.last_name}, thinking about a trip to {hotel.city}. You want prices for a "
            f"{rt_name(hotel, code)} at the Alder & Vane there from {nice(ci)} to {nice(co)}: the total with tax on the "
            f"flexible rate, the total with tax on the non-refundable rate, and how much you would save with the "
            f"non-refundable one. You are not booking today; you will decide later. {persona()}",
            [f"Hi, how much is a {rt_name(hotel, code)} in {hotel.city} for {nice(ci)} to {nice(co)}?",
             "Both the flexible and the non-refundable totals please, and the saving.", "Thanks, I'll think about it."],
            gold, outputs=[money(q[0]["total"]), money(q[1]["total"]), diff])


def main():
    book_tasks()
    date_change_tasks(4, multi=False)
    date_change_tasks(3, multi=True)
    upgrade_tasks("gold", 3, with_extras=False)
    upgrade_tasks("gold", 2, with_extras=True)
    upgrade_tasks("platinum", 3, with_extras=True)
    cancel_tasks()
    comp_tasks(4, multi=False, existing_case=False)
    comp_tasks(2, multi=False, existing_case=True)
    comp_tasks(3, multi=True, existing_case=False)
    forbidden_tasks()
    quote_tasks()
    # a few more train examples
    TASKS_TRAIN_FROM = ["upgrade_gold_", "cancel_semi_free", "change_dates_", "quote_flex_vs_nonref_wa"]
    seen = set()
    for t in TASKS:
        for prefix in TASKS_TRAIN_FROM:
            if t["id"].startswith(prefix) and prefix not in seen and t["split"] == "test":
                t["split"] = "train"
                seen.add(prefix)
    OUT.write_text(json.dumps({"tasks": TASKS}, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    from collections import Counter
    print(len(TASKS), Counter(t["split"] for t in TASKS))


if __name__ == "__main__":
    main()
