"""Builds fixtures/events/tasks.json with a `TaskWriter`: hand-written templates per kind of call,
concrete attendees, clients and records picked from the initial DB with a seeded RNG. Every gold
call runs as it is added, and every figure a task asks for is read from what the tools returned.

    python -m tests_domains.events.make_tasks
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import date
from typing import Any

from pytest_tau import Kind, Output, TaskDraft, TaskWriter, output_told
from tests_domains.events.domain import DOMAIN, get_waitlist_status
from tests_domains.events.schema import Attendee, Client, Event, Hold, Registration, Session

DB = DOMAIN.initial_db
TODAY = DOMAIN.today
MOODS = [
    "You are friendly and a little chatty.", "You are in a hurry and want short answers.",
    "You are calm and precise, and you answer only what you are asked.",
    "You are a bit anxious and ask the agent to repeat the key figure.", "You are polite but firm.",
    "You are cheerful and easily sidetracked.",
]

REGS_BY_ATT: dict[str, list[Registration]] = defaultdict(list)
for _r in sorted(DB.registrations.values(), key=lambda r: r.registration_id):
    REGS_BY_ATT[_r.attendee_id].append(_r)
SESS_BY_EVENT: dict[str, list[Session]] = defaultdict(list)
for _s in sorted(DB.sessions.values(), key=lambda s: s.session_id):
    SESS_BY_EVENT[_s.event_id].append(_s)
WAITING_BY_REG: dict[str, list[str]] = defaultdict(list)
for _w in sorted(DB.waitlist.values(), key=lambda w: w.entry_id):
    if _w.status == "waiting":
        WAITING_BY_REG[_w.registration_id].append(_w.session_id)
HOLDS_BY_CLIENT: dict[str, list[Hold]] = defaultdict(list)
for _h in sorted(DB.holds.values(), key=lambda h: h.hold_id):
    HOLDS_BY_CLIENT[_h.client_id].append(_h)


def in_policy(value: Any, kind: Kind) -> bool:
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return output_told(Output(value=text, kind=kind), DOMAIN.policy)


def words(iso: str) -> str:
    d = date.fromisoformat(iso)
    return d.strftime("%B ") + str(d.day)


def money(x: float) -> str:
    return f"${x:,.2f}"


def hm(t: str) -> str:
    h, m = int(t[:2]), t[3:]
    return f"{(h - 1) % 12 + 1}:{m} {'AM' if h < 12 else 'PM'}"


def ev(reg: Registration) -> Event:
    return DB.events[reg.event_id]


def days(e: Event) -> int:
    return (date.fromisoformat(e.start_date) - TODAY).days


def tier(e: Event, code: str) -> Any:
    return next(t for t in e.tiers if t.code == code)


def person(reg: Registration) -> Attendee:
    return DB.attendees[reg.attendee_id]


def live(reg: Registration) -> bool:
    return reg.status == "confirmed" and ev(reg).status == "on_sale"


def clash(a: Session, b: Session) -> bool:
    return a.date == b.date and a.start_time < b.end_time and b.start_time < a.end_time


def mine(reg: Registration) -> list[Session]:
    return [DB.sessions[s] for s in sorted(reg.sessions)]


def free(s: Session) -> bool:
    return s.enrolled < s.capacity


def open_seat(reg: Registration, kinds: Iterable[str] = ("talk", "panel")) -> list[Session]:
    """Sessions of the registration's event it could join now without any rule in the way."""
    t = tier(ev(reg), reg.tier_code)
    return [s for s in SESS_BY_EVENT[reg.event_id] if s.session_id not in reg.sessions and free(s) and s.kind in kinds
            and (s.kind != "workshop" or t.includes_workshops) and not any(clash(s, m) for m in mine(reg))
            and s.session_id not in WAITING_BY_REG[reg.registration_id]]


def unique_title(s: Session) -> bool:
    return sum(1 for x in SESS_BY_EVENT[s.event_id] if x.title == s.title) == 1


def one_reg_for_event(reg: Registration) -> bool:
    return sum(1 for r in REGS_BY_ATT[reg.attendee_id] if r.event_id == reg.event_id) == 1


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(20260601)
        self.used: set[str] = set()

    def candidates(self, items: list[Any], key: Callable[[Any], str]) -> list[Any]:
        items = sorted((x for x in items if key(x) not in self.used), key=key)
        self.rng.shuffle(items)
        return items

    def mood(self) -> str:
        return self.rng.choice(MOODS) + " Give information only when the agent asks for it."

    def attendee_task(self, task_id: str, a: Attendee, situation: str, script: list[str], split: str = "test") -> TaskDraft:
        who = f"You are {a.first_name} {a.last_name}; you registered with the email {a.email}."
        return self.writer.task(task_id, instructions=f"{who} {self.mood()} {situation}", script=script, split=split)

    def client_task(self, task_id: str, c: Client, situation: str, script: list[str], split: str = "test") -> TaskDraft:
        who = (f"You are {c.contact_first_name} {c.contact_last_name}, events contact at {c.company}; the email on file is "
               f"{c.contact_email}.")
        return self.writer.task(task_id, instructions=f"{who} {self.mood()} {situation}", script=script, split=split)

    def run(self, n: int, items: list[Any], key: Callable[[Any], str], write: Callable[[int, Any], bool]) -> None:
        """Write `n` tasks from the candidates; `write` returns False (after discarding) to skip one."""
        done = 0
        for item in self.candidates(items, key):
            if done == n:
                return
            if write(done, item):
                self.used.add(key(item))
                done += 1
        if done < n:
            raise SystemExit(f"only {done} of {n} candidates for {write.__name__}")


def hello(a: Attendee) -> str:
    return f"It's {a.first_name} {a.last_name}, my email is {a.email}."


def verify(d: TaskDraft, a: Attendee) -> Any:
    return d.read("find_attendee", email=a.email, first_name=a.first_name, last_name=a.last_name)


def verify_client(d: TaskDraft, c: Client) -> Any:
    return d.read("find_client", company=c.company, contact_email=c.contact_email)


REGS = [r for r in DB.registrations.values()]
ATT_KEY: Callable[[Registration], str] = lambda r: r.attendee_id


# -- cancellations --------------------------------------------------------------------------------
def cancel_refund(b: Builder, n: int, low: int, high: int, name: str, train_last: bool = False) -> None:
    cands = [r for r in REGS if live(r) and low <= days(ev(r)) <= high and r.transferred_from is None and one_reg_for_event(r)]

    def cancel(i: int, r: Registration) -> bool:
        a, e = person(r), ev(r)
        d = b.attendee_task(
            f"{name}_{i + 1}", a,
            f"You can no longer go to {e.name} (starting {words(e.start_date)}) and want to cancel your ticket "
            f"(confirmation code {r.registration_id}). Before agreeing, ask exactly how much you will get back. "
            "Once you hear the amount, agree to the cancellation.",
            ["Hi, I need to cancel my ticket for an event.", hello(a), f"The code is {r.registration_id}. How much would I get back?",
             "OK, yes, please cancel it."],
            split="train" if train_last and i == n - 1 else "test",
        )
        d.one_end_state("Rules 3.1-3.2: the event is 14 or more days away, so the ticket the caller names by code may be cancelled, and the refund is quote_cancellation's band (full less the fee from 30 days, half from 14 to 29).")
        verify(d, a)
        quote = d.read("quote_cancellation", confirmation_code=r.registration_id)
        d.write("cancel_registration", confirmation_code=r.registration_id)
        if in_policy(quote["refund_amount"], "money"):
            b.writer.discard(d)
            return False
        d.output(quote["refund_amount"], "money")
        return True

    cancel.__name__ = name
    b.run(n, cands, ATT_KEY, cancel)


def cancel_too_late(b: Builder, n: int) -> None:
    cands = [r for r in REGS if live(r) and 4 <= days(ev(r)) < 14 and r.transferred_from is None
             and tier(ev(r), r.tier_code).transferable and one_reg_for_event(r)]

    def late_cancel(i: int, r: Registration) -> bool:
        a, e = person(r), ev(r)
        d = b.attendee_task(
            f"cancel_too_late_{i + 1}", a,
            f"A work trip came up and you cannot attend {e.name} on {words(e.start_date)}. You want to cancel your ticket "
            f"({r.registration_id}) and get your money back. If the agent says that is not possible, push back once. If a "
            "transfer to someone else is suggested, ask until which date that could be done - you might find a colleague - but "
            "do not transfer it today. Then end the call.",
            ["I need to cancel my ticket and get a refund.", hello(a), f"It's {r.registration_id}.",
             "Really? I paid good money for it. Isn't there anything you can do?", "Until when could I do that transfer?"],
        )
        d.one_end_state("Rule 3.1: under 14 days from the event no cancellation, at any insistence (9.2: no transfer); the ticket is transferable and was not received by transfer, so the transfer 3.1 offers is open until quote_transfer's last date, which the caller asks for.")
        verify(d, a)
        d.read("get_registration", confirmation_code=r.registration_id)
        quote = d.read("quote_transfer", confirmation_code=r.registration_id)
        if in_policy(quote["last_transfer_date"], "date"):
            b.writer.discard(d)
            return False
        d.output(quote["last_transfer_date"], "date")
        d.forbid("cancel_registration", confirmation_code=r.registration_id)
        return True

    b.run(n, cands, ATT_KEY, late_cancel)


# -- transfers -------------------------------------------------------------------------------------
RECIPIENTS = [("Marguerite", "Olawale"), ("Declan", "Fairbanks"), ("Soraya", "Lindahl"), ("Tomas", "Bergqvist"),
              ("Imogen", "Kaczmarek"), ("Rashid", "Elmore"), ("Clementine", "Acosta"), ("Bertrand", "Huang")]


def transfer_combo(b: Builder, n: int, train_last: bool = False) -> None:
    """Transfer one ticket, take a seat in a talk on another, and join the waitlist of a full session there."""
    cands = []
    for regs in REGS_BY_ATT.values():
        ok = [r for r in regs if live(r) and days(ev(r)) >= 2 and r.transferred_from is None and tier(ev(r), r.tier_code).transferable]
        other = [r for r in regs if live(r) and days(ev(r)) >= 1]
        for give in ok:
            for keep in other:
                if keep.event_id == give.event_id or len(WAITING_BY_REG[keep.registration_id]) >= 2:
                    continue
                seats = [s for s in open_seat(keep) if unique_title(s)]
                full = [s for s in SESS_BY_EVENT[keep.event_id] if not free(s) and s.session_id not in keep.sessions
                        and s.session_id not in WAITING_BY_REG[keep.registration_id] and unique_title(s)
                        and (s.kind != "workshop" or tier(ev(keep), keep.tier_code).includes_workshops)]
                if seats and full:
                    cands.append((give, keep, seats[0], full[0]))
                    break
            else:
                continue
            break

    def combo(i: int, c: tuple[Registration, Registration, Session, Session]) -> bool:
        give, keep, seat, full = c
        a = person(give)
        first, last = RECIPIENTS[i % len(RECIPIENTS)]
        email = f"{first.lower()}.{last.lower()}@{['gmail.com', 'outlook.com', 'fastmail.com'][i % 3]}"
        d = b.attendee_task(
            f"transfer_and_sessions_{i + 1}", a,
            f"Three things today. (1) You cannot make it to {ev(give).name}; your friend {first} {last} ({email}) will go in "
            f"your place, so you want ticket {give.registration_id} transferred to them. Ask what it costs first and accept. "
            f"Ask for the new confirmation code to pass on. (2) For {ev(keep).name} (ticket {keep.registration_id}) you want a "
            f"seat in the session \"{seat.title}\" on {words(seat.date)} at {hm(seat.start_time)}. (3) At the same event you "
            f"also want \"{full.title}\" on {words(full.date)} at {hm(full.start_time)}; if it is full, join its waitlist and ask "
            "what position you are in.",
            ["Hi, I have a few ticket things to sort out.", hello(a),
             f"First, I'd like to give my ticket {give.registration_id} to my friend {first} {last}, {email}. What does that cost?",
             "Fine, go ahead. What's the new code?",
             f"Next, on {keep.registration_id} I'd like a seat in \"{seat.title}\", and also \"{full.title}\".",
             "Yes, put me on the waitlist. Which position am I?"],
            split="train" if train_last and i == n - 1 else "test",
        )
        d.one_end_state("Rules 5.1-5.4 and 6.1-6.4: the first ticket is transferable, never transferred and 2 or more days out, so it goes to the named friend; the talk has a seat and no clash, so an enrollment; the other session is full and the ticket waits for fewer than 3, so the waitlist.")
        verify(d, a)
        d.read("quote_transfer", confirmation_code=give.registration_id)
        moved = d.write("transfer_registration", confirmation_code=give.registration_id, recipient_first_name=first,
                        recipient_last_name=last, recipient_email=email)
        d.read("list_sessions", event_id=keep.event_id)
        d.write("enroll_session", confirmation_code=keep.registration_id, session_id=seat.session_id)
        joined = d.write("join_waitlist", confirmation_code=keep.registration_id, session_id=full.session_id)
        d.output(moved["new_confirmation_code"], "code")
        d.output(joined["position"], "number")
        return True

    b.run(n, cands, lambda c: c[0].attendee_id, combo)


def student_transfer(b: Builder, n: int) -> None:
    cands = [r for r in REGS if live(r) and days(ev(r)) >= 14 and r.tier_code == "student" and one_reg_for_event(r)]

    def student(i: int, r: Registration) -> bool:
        a, e = person(r), ev(r)
        d = b.attendee_task(
            f"student_ticket_transfer_{i + 1}", a,
            f"You hold a Student ticket ({r.registration_id}) for {e.name} but your exam was moved onto that date. You want to "
            "give the ticket to your roommate Jules Marchand (jules.marchand@gmail.com). If the agent says it cannot be "
            "transferred, ask what you would get back if you cancelled instead. Say you will first try to move your exam, "
            "and end the call without cancelling.",
            ["Hi, can I put my ticket in my roommate's name?", hello(a),
             f"It's {r.registration_id}, for Jules Marchand, jules.marchand@gmail.com.",
             "Oh. What would I get back if I just cancel?", "OK, I'll try to move my exam first. Thanks."],
        )
        d.one_end_state("Rule 5.2: a Student ticket is never transferred; the event is 14 or more days away, so the cancellation the caller asks about is quoted (3.2), and they do not cancel.")
        verify(d, a)
        d.read("get_event", event_id=e.event_id)
        quote = d.read("quote_cancellation", confirmation_code=r.registration_id)
        if quote["refund_amount"] <= 0 or in_policy(quote["refund_amount"], "money"):
            b.writer.discard(d)
            return False
        d.output(quote["refund_amount"], "money")
        d.forbid("transfer_registration", confirmation_code=r.registration_id, recipient_first_name="Jules",
                 recipient_last_name="Marchand", recipient_email="jules.marchand@gmail.com")
        return True

    b.run(n, cands, ATT_KEY, student)


def second_transfer(b: Builder, n: int) -> None:
    cands = [r for r in REGS if live(r) and days(ev(r)) >= 3 and r.transferred_from is not None and one_reg_for_event(r)
             and tier(ev(r), r.tier_code).transferable]

    def again(i: int, r: Registration) -> bool:
        a, e = person(r), ev(r)
        d = b.attendee_task(
            f"second_transfer_{i + 1}", a,
            f"A friend gave you their ticket for {e.name}; your confirmation code is {r.registration_id}. Now you cannot go "
            "either and want to pass it on to your cousin Priya Venkataraman (priya.venkat@outlook.com). If the agent refuses, "
            "accept it, and ask what time doors open on the first day, since you might still make it.",
            ["Hi, I want to pass my ticket on to my cousin.", hello(a), f"Code {r.registration_id}. She's Priya Venkataraman, priya.venkat@outlook.com.",
             "Too bad. What time do doors open on the first day?"],
        )
        d.one_end_state("Rule 5.3: a ticket received by transfer cannot be transferred again (its tier is transferable and the event 3 or more days out, so this is the one reason); doors-open time is get_event's.")
        verify(d, a)
        d.read("quote_transfer", confirmation_code=r.registration_id)
        event = d.read("get_event", event_id=e.event_id)
        d.output(event["doors_open"], "time")
        d.forbid("transfer_registration", confirmation_code=r.registration_id, recipient_first_name="Priya",
                 recipient_last_name="Venkataraman", recipient_email="priya.venkat@outlook.com")
        return True

    b.run(n, cands, ATT_KEY, again)


# -- tiers and workshops ---------------------------------------------------------------------------
def upgrade_workshop(b: Builder, n: int, train_last: bool = False) -> None:
    cands = []
    for r in REGS:
        if not (live(r) and days(ev(r)) >= 7 and one_reg_for_event(r) and r.dietary == "none"):
            continue
        e = ev(r)
        cur = tier(e, r.tier_code)
        ups = [t for t in e.tiers if t.price > cur.price and t.includes_workshops and t.sold < t.capacity and t.code == "pro"]
        if cur.includes_workshops or not ups:
            continue
        ws = [s for s in SESS_BY_EVENT[r.event_id] if s.kind == "workshop" and free(s) and unique_title(s)
              and not any(clash(s, m) for m in mine(r))]
        if ws:
            cands.append((r, ups[0], ws[0]))

    def upgrade(i: int, c: tuple[Registration, Any, Session]) -> bool:
        r, up, ws = c
        a, e = person(r), ev(r)
        diet = ["vegetarian", "gluten_free", "vegan", "halal"][i % 4]
        said = {"vegetarian": "vegetarian", "gluten_free": "gluten-free", "vegan": "vegan", "halal": "halal"}[diet]
        d = b.attendee_task(
            f"upgrade_workshop_meal_{i + 1}", a,
            f"You hold ticket {r.registration_id} for {e.name}. You want the workshop \"{ws.title}\" on {words(ws.date)}. If "
            f"your ticket does not include workshops, you are willing to move up to the {up.name}; ask what you would have to "
            f"pay before agreeing, then agree. Also, you recently went {said}: you want your meals changed to {said}.",
            ["Hi, I'd like to get into a workshop at an event I'm going to.", hello(a),
             f"Ticket {r.registration_id}, the workshop is \"{ws.title}\".", f"How much would the {up.name} cost me?",
             "Alright, do it, and book me into the workshop.", f"One more thing: please change my meals to {said}."],
            split="train" if train_last and i == n - 1 else "test",
        )
        d.one_end_state("Rules 4.2, 6.1 and 7.1: the workshop needs a tier with workshops, the caller accepts the named upgrade (seats left, more than a day out) at quote_tier_change's amount, the workshop has a seat and no clash, and meals change 7 or more days out.")
        verify(d, a)
        d.read("get_event", event_id=e.event_id)
        quote = d.read("quote_tier_change", confirmation_code=r.registration_id, new_tier=up.code)
        d.write("change_tier", confirmation_code=r.registration_id, new_tier=up.code)
        d.read("list_sessions", event_id=e.event_id)
        d.write("enroll_session", confirmation_code=r.registration_id, session_id=ws.session_id)
        d.write("update_requests", confirmation_code=r.registration_id, dietary=diet)
        if in_policy(quote["amount_due"], "money") or quote["amount_due"] <= 0:
            b.writer.discard(d)
            return False
        d.output(quote["amount_due"], "money")
        return True

    b.run(n, cands, lambda c: c[0].attendee_id, upgrade)


def workshop_no_tier(b: Builder, n: int) -> None:
    cands = []
    for r in REGS:
        if not (live(r) and days(ev(r)) >= 2 and one_reg_for_event(r)):
            continue
        e = ev(r)
        cur = tier(e, r.tier_code)
        if cur.includes_workshops or cur.code != "general":
            continue
        ups = [t for t in e.tiers if t.includes_workshops and t.sold < t.capacity]
        ws = [s for s in SESS_BY_EVENT[r.event_id] if s.kind == "workshop" and free(s) and unique_title(s)
              and not any(clash(s, m) for m in mine(r))]
        if ups and ws:
            cheapest = min(ups, key=lambda t: t.price)
            cands.append((r, cheapest, ws[0]))

    def no_tier(i: int, c: tuple[Registration, Any, Session]) -> bool:
        r, up, ws = c
        a, e = person(r), ev(r)
        d = b.attendee_task(
            f"workshop_without_tier_{i + 1}", a,
            f"You hold a General Admission ticket ({r.registration_id}) for {e.name}. You want a seat in the workshop "
            f"\"{ws.title}\". If you are told your ticket does not cover workshops, ask how much it would cost to move up to "
            f"the {up.name}. Whatever the amount, say it is more than you want to spend, do not upgrade, and end the call.",
            ["Hello, I'd like to book a workshop.", hello(a), f"Ticket {r.registration_id}, workshop \"{ws.title}\".",
             f"How much to move up to the {up.name} then?", "Hmm, that's more than I want to spend. Never mind, thanks."],
        )
        d.one_end_state("Rule 6.1: the General Admission tier does not include workshops, so no enrollment; the caller asks the upgrade's price (quote_tier_change) and declines it.")
        verify(d, a)
        d.read("get_event", event_id=e.event_id)
        quote = d.read("quote_tier_change", confirmation_code=r.registration_id, new_tier=up.code)
        if in_policy(quote["amount_due"], "money") or quote["amount_due"] <= 0:
            b.writer.discard(d)
            return False
        d.output(quote["amount_due"], "money")
        d.forbid("enroll_session", confirmation_code=r.registration_id, session_id=ws.session_id)
        return True

    b.run(n, cands, lambda c: c[0].attendee_id, no_tier)


def downgrade(b: Builder, n: int) -> None:
    cands = []
    for r in REGS:
        if not (live(r) and days(ev(r)) >= 30 and one_reg_for_event(r) and r.transferred_from is None):
            continue
        e = ev(r)
        cheaper = [t for t in e.tiers if t.price < tier(e, r.tier_code).price and t.code == "general"]
        if r.tier_code in ("vip", "pro") and cheaper:
            cands.append((r, cheaper[0]))

    def down(i: int, c: tuple[Registration, Any]) -> bool:
        r, low = c
        a, e = person(r), ev(r)
        d = b.attendee_task(
            f"downgrade_request_{i + 1}", a,
            f"You bought a {tier(e, r.tier_code).name} ticket ({r.registration_id}) for {e.name} but realise you will not use "
            "the extras. You want to switch to General Admission and get the difference back. If refused, ask how much you "
            "would get back if you cancelled the ticket entirely. Say you will think about it, and end the call without "
            "cancelling.",
            ["Hi, I'd like to switch my ticket to General Admission and get the difference refunded.", hello(a),
             f"The code is {r.registration_id}.", "And if I cancelled it completely, what would I get back?",
             "I'll think about it, thanks."],
        )
        d.one_end_state("Rule 4.3: a downgrade is never made; 4.3 points to cancelling, whose refund the caller asks for and does not take.")
        verify(d, a)
        d.read("get_event", event_id=e.event_id)
        quote = d.read("quote_cancellation", confirmation_code=r.registration_id)
        if in_policy(quote["refund_amount"], "money"):
            b.writer.discard(d)
            return False
        d.output(quote["refund_amount"], "money")
        d.forbid("change_tier", confirmation_code=r.registration_id, new_tier=low.code)
        return True

    b.run(n, cands, lambda c: c[0].attendee_id, down)


# -- sessions and waitlists -----------------------------------------------------------------------
def waitlist_and_seat(b: Builder, n: int) -> None:
    cands = []
    for r in REGS:
        if not (live(r) and days(ev(r)) >= 7 and one_reg_for_event(r) and not WAITING_BY_REG[r.registration_id]):
            continue
        t = tier(ev(r), r.tier_code)
        full = [s for s in SESS_BY_EVENT[r.event_id] if not free(s) and s.session_id not in r.sessions and unique_title(s)
                and (s.kind != "workshop" or t.includes_workshops)]
        seats = [s for s in open_seat(r) if unique_title(s)]
        if full and seats and r.dietary != "none":
            cands.append((r, full[0], seats[0]))

    def wl(i: int, c: tuple[Registration, Session, Session]) -> bool:
        r, full, seat = c
        a, e = person(r), ev(r)
        d = b.attendee_task(
            f"waitlist_seat_meal_{i + 1}", a,
            f"You are going to {e.name} (ticket {r.registration_id}). You want two sessions: \"{full.title}\" on "
            f"{words(full.date)} at {hm(full.start_time)} and \"{seat.title}\" on {words(seat.date)} at {hm(seat.start_time)}. "
            "If one is full, you will take the waitlist; ask what position you are in. Also, your meal requirement on file "
            "is out of date: you now eat everything, so you want no dietary requirement recorded.",
            ["Hi, I'd like to sign up for a couple of sessions.", hello(a),
             f"Ticket {r.registration_id}: \"{full.title}\" and \"{seat.title}\".", "Yes, the waitlist is fine. What position am I?",
             "Also, please drop my dietary requirement - I eat everything now."],
        )
        d.one_end_state("Rules 6.3-6.4 and 7.1: the full session takes the waitlist (the ticket waits for none), the open one an enrollment, and the meal requirement is cleared 7 or more days out.")
        verify(d, a)
        d.read("list_sessions", event_id=e.event_id)
        joined = d.write("join_waitlist", confirmation_code=r.registration_id, session_id=full.session_id)
        d.write("enroll_session", confirmation_code=r.registration_id, session_id=seat.session_id)
        d.write("update_requests", confirmation_code=r.registration_id, dietary="none")
        if in_policy(joined["position"], "number"):
            b.writer.discard(d)
            return False
        d.output(joined["position"], "number")
        return True

    b.run(n, cands, lambda c: c[0].attendee_id, wl)


def time_clash(b: Builder, n: int) -> None:
    cands = []
    for r in REGS:
        if not (live(r) and days(ev(r)) >= 2 and one_reg_for_event(r)):
            continue
        t = tier(ev(r), r.tier_code)
        for m in mine(r):
            other = [s for s in SESS_BY_EVENT[r.event_id] if s.session_id not in r.sessions and free(s) and clash(s, m)
                     and unique_title(s) and (s.kind != "workshop" or t.includes_workshops)
                     and not any(clash(s, x) for x in mine(r) if x.session_id != m.session_id) and m.end_time > s.start_time]
            if other and unique_title(m):
                cands.append((r, m, other[0]))
                break

    def clash_task(i: int, c: tuple[Registration, Session, Session]) -> bool:
        r, have, want = c
        a, e = person(r), ev(r)
        d = b.attendee_task(
            f"session_time_clash_{i + 1}", a,
            f"You hold ticket {r.registration_id} for {e.name} and already have a seat in \"{have.title}\". You also want "
            f"\"{want.title}\" on {words(want.date)} at {hm(want.start_time)}. If the agent says they clash, you want to keep "
            f"\"{have.title}\" and not give it up; ask what time \"{have.title}\" finishes, so you can catch the end of the other one.",
            ["Hi, can you add a session to my ticket?", hello(a), f"Ticket {r.registration_id}. I'd like \"{want.title}\".",
             f"No, I'm keeping \"{have.title}\". What time does it finish?"],
        )
        d.one_end_state("Rule 6.2: the new session overlaps one the ticket holds; the caller keeps that one, so no enrollment, and its end time is what they ask.")
        verify(d, a)
        reg = d.read("get_registration", confirmation_code=r.registration_id)
        d.read("list_sessions", event_id=e.event_id)
        end = next(s["end_time"] for s in reg["session_details"] if s["session_id"] == have.session_id)
        d.output(end, "time")
        d.forbid("enroll_session", confirmation_code=r.registration_id, session_id=want.session_id)
        return True

    b.run(n, cands, lambda c: c[0].attendee_id, clash_task)


def waitlist_limit(b: Builder, n: int) -> None:
    cands = []
    for r in REGS:
        waiting = WAITING_BY_REG[r.registration_id]
        if not (live(r) and len(waiting) >= 3 and one_reg_for_event(r)):
            continue
        t = tier(ev(r), r.tier_code)
        full = [s for s in SESS_BY_EVENT[r.event_id] if not free(s) and s.session_id not in r.sessions and s.session_id not in waiting
                and unique_title(s) and (s.kind != "workshop" or t.includes_workshops)]
        # One answer: the asked place differs from the caller's other places and from the policy's figures,
        # so reading out another waitlist's position, or a number the policy states, is not it.
        places = {w["session_id"]: w["position"] for w in get_waitlist_status(DB, r.registration_id) if w["status"] == "waiting"}
        known = next((sid for sid in sorted(waiting) if list(places.values()).count(places[sid]) == 1
                      and not in_policy(places[sid], "number")), None)
        if full and known:
            cands.append((r, full[0], DB.sessions[known]))

    def limit(i: int, c: tuple[Registration, Session, Session]) -> bool:
        r, want, known = c
        a, e = person(r), ev(r)
        d = b.attendee_task(
            f"waitlist_limit_{i + 1}", a,
            f"You hold ticket {r.registration_id} for {e.name}. You want to get on the waitlist for \"{want.title}\" too. "
            f"If the agent refuses, do not give up any of your other waitlist places; instead ask what position you are in for "
            f"\"{known.title}\", then end the call.",
            ["Hi, can you add me to another waitlist?", hello(a), f"Ticket {r.registration_id}, the session \"{want.title}\".",
             f"No, I'll keep those. What's my position for \"{known.title}\"?"],
        )
        d.one_end_state("Rule 6.3: the ticket already waits for 3 sessions, and the caller gives none up, so no new waitlist; the position asked for is the one get_waitlist_status shows.")
        verify(d, a)
        status = d.read("get_waitlist_status", confirmation_code=r.registration_id)
        pos = next(w["position"] for w in status if w["session_id"] == known.session_id and w["status"] == "waiting")
        if in_policy(pos, "number") or d.given_away(Output(value=str(pos), kind="number")):
            b.writer.discard(d)
            return False
        d.output(pos, "number")
        d.forbid("join_waitlist", confirmation_code=r.registration_id, session_id=want.session_id)
        return True

    b.run(n, cands, lambda c: c[0].attendee_id, limit)


# -- dietary and accessibility --------------------------------------------------------------------
def meal_too_late(b: Builder, n: int) -> None:
    cands = [r for r in REGS if live(r) and 1 <= days(ev(r)) < 7 and one_reg_for_event(r) and r.dietary == "none"
             and "wheelchair_seating" not in r.accessibility and "step_free_access" not in r.accessibility]

    def late(i: int, r: Registration) -> bool:
        a, e = person(r), ev(r)
        need = ["wheelchair_seating", "step_free_access"][i % 2]
        said = {"wheelchair_seating": "wheelchair seating", "step_free_access": "step-free access"}[need]
        d = b.attendee_task(
            f"late_meal_change_{i + 1}", a,
            f"You are going to {e.name} (ticket {r.registration_id}). You broke your ankle last week, so you need {said} at the "
            "venue. You also want vegetarian meals. If the agent says the meal can no longer be changed, accept that, but make "
            f"sure the {said} is recorded.",
            ["Hi, I need to update my requirements for an event.", hello(a),
             f"Ticket {r.registration_id}. I need {said}, and vegetarian meals please.", "OK, fine, just the access request then. Go ahead."],
        )
        d.one_end_state("Rules 7.1-7.2: under 7 days out the meal cannot change, while an accessibility request may be added at any time, so only the access request is recorded.")
        verify(d, a)
        d.read("get_registration", confirmation_code=r.registration_id)
        d.write("update_requests", confirmation_code=r.registration_id, add_accessibility=[need])
        d.forbid("update_requests", confirmation_code=r.registration_id, dietary="vegetarian")
        return True

    b.run(n, cands, ATT_KEY, late)


def interpreter(b: Builder, n: int, late: bool) -> None:
    cands = [r for r in REGS if live(r) and one_reg_for_event(r) and "sign_language_interpreter" not in r.accessibility
             and ((2 <= days(ev(r)) < 21) if late else (days(ev(r)) >= 21)) and r.dietary == "none"]

    def interp(i: int, r: Registration) -> bool:
        a, e = person(r), ev(r)
        if late:
            d = b.attendee_task(
                f"interpreter_late_{i + 1}", a,
                f"You are Deaf and attending {e.name} (ticket {r.registration_id}). You need a sign-language interpreter at "
                "the sessions. Accept being put through to someone else if that is what the agent offers.",
                ["Hello, I need a sign-language interpreter at an event.", hello(a), f"Ticket {r.registration_id}.", "OK, thank you."],
            )
            d.one_end_state("Rule 7.3: an interpreter for an event under 21 days away is not added; 9.1 a makes the transfer to the accessibility coordinator the one step.")
            verify(d, a)
            d.read("get_registration", confirmation_code=r.registration_id)
            d.transfer(f"Attendee needs a sign-language interpreter for {e.name}, less than 21 days away.")
            d.require("find_attendee")
            d.forbid("update_requests", confirmation_code=r.registration_id, add_accessibility=["sign_language_interpreter"])
            return True
        d = b.attendee_task(
            f"interpreter_and_meal_{i + 1}", a,
            f"You are Deaf and attending {e.name} (ticket {r.registration_id}). You need a sign-language interpreter, and you "
            "would like kosher meals. Ask the agent to confirm which sessions you are booked into, by title, once it is done.",
            ["Hello, I need to add some requests to my registration.", hello(a),
             f"Ticket {r.registration_id}: a sign-language interpreter, and kosher meals.", "Yes, please. Which sessions am I in?"],
        )
        d.one_end_state("Rules 7.1-7.3: 21 or more days out, so the interpreter and the meal are both recorded in one update.")
        verify(d, a)
        reg = d.read("get_registration", confirmation_code=r.registration_id)
        d.write("update_requests", confirmation_code=r.registration_id, dietary="kosher", add_accessibility=["sign_language_interpreter"])
        if not reg["session_details"]:
            b.writer.discard(d)
            return False
        return True

    interp.__name__ = "interpreter_late" if late else "interpreter_ok"
    b.run(n, cands, ATT_KEY, interp)


def billing_dispute(b: Builder) -> None:
    cands = [r for r in REGS if r.status == "confirmed" and r.transferred_from is None and one_reg_for_event(r) and ev(r).status == "on_sale"]

    def dispute(i: int, r: Registration) -> bool:
        a, e = person(r), ev(r)
        d = b.attendee_task(
            "billing_dispute", a,
            f"Your card statement shows the charge for your {e.name} ticket twice, and you only bought one ({r.registration_id}). "
            "You want it sorted out. Accept being transferred.",
            ["Hi, I've been charged twice for a ticket.", hello(a), f"The ticket is {r.registration_id}.", "OK, thanks."],
        )
        d.one_end_state("Rule 9.1 c: a caller who says a card charge is wrong is transferred once verified.")
        verify(d, a)
        d.transfer("Attendee reports a duplicate card charge for one ticket.")
        d.require("find_attendee")
        return True

    b.run(1, cands, ATT_KEY, dispute)


# -- venue holds -----------------------------------------------------------------------------------
def tentative(c: Client) -> list[Hold]:
    return [h for h in HOLDS_BY_CLIENT[c.client_id] if h.status == "tentative"]


def free_room(venue_id: str, room: Any, start: date, end: date) -> bool:
    return not any(h.status in ("tentative", "confirmed") and h.venue_id == venue_id and h.room_code == room.code
                   and not (h.end_date < start.isoformat() or h.start_date > end.isoformat()) for h in DB.holds.values())


def venue_unique(name: str) -> bool:
    return sum(1 for v in DB.venues.values() if name.lower() in v.name.lower()) == 1


def new_hold(b: Builder, n: int) -> None:
    """Place a hold, release an old tentative one, and extend another."""
    clients = sorted(DB.clients.values(), key=lambda c: c.client_id)
    cands = []
    for c in clients:
        t = [h for h in tentative(c) if h.start_date >= "2026-06-22"]
        if len(tentative(c)) == 2 and len(t) == 2:
            cands.append((c, t[0], t[1]))

    def place(i: int, cand: tuple[Client, Hold, Hold]) -> bool:
        c, drop, keep = cand
        venues = sorted(DB.venues.values(), key=lambda v: v.venue_id)
        v = venues[(i * 7 + 3) % len(venues)]
        room = sorted(v.rooms, key=lambda r: -r.capacity)[0]
        start = date(2026, 9, 14 + i * 2)
        end = date(2026, 9, 15 + i * 2)
        if not free_room(v.venue_id, room, start, end) or not venue_unique(v.name):
            return False
        dv = DB.venues[drop.venue_id]
        kv = DB.venues[keep.venue_id]
        guests = room.capacity // 2
        d = b.client_task(
            f"venue_hold_swap_{i + 1}", c,
            f"You are planning your company's offsite on {words(start.isoformat())} and {words(end.isoformat())}, {guests} guests. "
            f"You want a hold on the {room.name} at {v.name} for those two days. You already hold the "
            f"{next(r.name for r in dv.rooms if r.code == drop.room_code)} at {dv.name} from {words(drop.start_date)}, which you "
            f"no longer need: release it. And your hold at {kv.name} starting {words(keep.start_date)} is now approved: "
            "confirm it. Before agreeing, ask what deposit you would pay if you confirm the new hold later, and what deposit "
            f"confirming the {kv.name} hold takes now.",
            ["Hi, I need to reshuffle our venue holds.", f"I'm {c.contact_first_name} {c.contact_last_name} from {c.company}, {c.contact_email}.",
             f"I'd like to hold the {room.name} at {v.name} on {words(start.isoformat())} and {words(end.isoformat())} for {guests} people. "
             "What deposit would that be if we confirm later?",
             f"Great, hold it. Also release our hold at {dv.name} and confirm the one at {kv.name}. What's that deposit?",
             "Yes, go ahead with all of it."],
        )
        d.one_end_state("Rules 8.1-8.5: the new room is free, 21 or more days out, two days and within capacity, and the client then holds at most 3 tentative holds; the hold named by venue and start is released and the other confirmed at its deposit.")
        client = verify_client(d, c)
        holds = d.read("list_holds", client_id=client["client_id"])
        now = next(h["deposit_to_confirm"] for h in holds if h["hold_id"] == keep.hold_id)
        found = d.read("find_venue", name=v.name)
        assert len(found) == 1
        check = d.read("check_room", venue_id=v.venue_id, room_code=room.code, start_date=start.isoformat(), end_date=end.isoformat())
        d.write("place_hold", client_id=c.client_id, venue_id=v.venue_id, room_code=room.code, start_date=start.isoformat(),
                end_date=end.isoformat(), guests=guests)
        d.read("quote_hold_release", hold_id=drop.hold_id)
        d.write("release_hold", hold_id=drop.hold_id)
        d.write("confirm_hold", hold_id=keep.hold_id)
        if in_policy(check["deposit_to_confirm"], "money") or in_policy(now, "money"):
            b.writer.discard(d)
            return False
        d.output(check["deposit_to_confirm"], "money")
        d.output(now, "money")
        return True

    b.run(n, cands, lambda c: c[0].client_id, place)


def confirm_and_release(b: Builder, n: int, train_last: bool = False) -> None:
    cands = []
    for c in sorted(DB.clients.values(), key=lambda c: c.client_id):
        t = [h for h in tentative(c) if h.start_date >= "2026-06-22"]
        conf = [h for h in HOLDS_BY_CLIENT[c.client_id] if h.status == "confirmed" and (date.fromisoformat(h.start_date) - TODAY).days >= 45]
        if len(t) == 1 and len(conf) == 1:
            cands.append((c, t[0], conf[0]))

    def conf_rel(i: int, cand: tuple[Client, Hold, Hold]) -> bool:
        c, tent, conf = cand
        tv, cv = DB.venues[tent.venue_id], DB.venues[conf.venue_id]
        d = b.client_task(
            f"confirm_and_release_{i + 1}", c,
            f"Your team has decided: you want to confirm your tentative hold at {tv.name} starting {words(tent.start_date)}, and "
            f"give up your confirmed booking at {cv.name} starting {words(conf.start_date)}. Ask for the deposit you will pay "
            "for the first and how much deposit you get back on the second before agreeing; then agree to both.",
            ["Hi, we've made some decisions on our venue bookings.", f"{c.contact_first_name} {c.contact_last_name}, {c.company}, {c.contact_email}.",
             f"Confirm the {tv.name} hold, and release the {cv.name} booking. What are the amounts?", "Yes, do both."],
            split="train" if train_last and i == n - 1 else "test",
        )
        d.one_end_state("Rules 8.4-8.5: each hold is named by venue and start date; the tentative one is confirmed at list_holds' deposit, the confirmed one released at quote_hold_release's refund.")
        client = verify_client(d, c)
        holds = d.read("list_holds", client_id=client["client_id"])
        deposit = next(h["deposit_to_confirm"] for h in holds if h["hold_id"] == tent.hold_id)
        quote = d.read("quote_hold_release", hold_id=conf.hold_id)
        d.write("confirm_hold", hold_id=tent.hold_id)
        d.write("release_hold", hold_id=conf.hold_id)
        if in_policy(deposit, "money") or in_policy(quote["deposit_refund"], "money"):
            b.writer.discard(d)
            return False
        d.output(deposit, "money")
        d.output(quote["deposit_refund"], "money")
        return True

    b.run(n, cands, lambda c: c[0].client_id, conf_rel)


def hold_too_soon(b: Builder, n: int) -> None:
    cands = [c for c in sorted(DB.clients.values(), key=lambda c: c.client_id) if len(tentative(c)) <= 1]

    def soon(i: int, c: Client) -> bool:
        venues = sorted(DB.venues.values(), key=lambda v: v.venue_id)
        v = venues[(i * 5 + 1) % len(venues)]
        room = sorted(v.rooms, key=lambda r: r.capacity)[0]
        day = date(2026, 6, 12 + i * 3)
        if not free_room(v.venue_id, room, day, day) or not venue_unique(v.name):
            return False
        d = b.client_task(
            f"hold_too_soon_{i + 1}", c,
            f"Your CEO wants a last-minute team dinner on {words(day.isoformat())} for 20 people. You want to hold the "
            f"{room.name} at {v.name} for that one day. If the agent says it is too soon, accept, and ask what the room's daily "
            "rate is so you can budget a booking later in the year.",
            ["Hi, I'd like to hold a room for a dinner.", f"{c.contact_first_name} {c.contact_last_name} at {c.company}, {c.contact_email}.",
             f"The {room.name} at {v.name}, {words(day.isoformat())}, 20 people.", "Understood. What's its daily rate?"],
        )
        d.one_end_state("Rule 8.1: a hold must start 21 or more days from today and this one would not (the client has room for another tentative hold and the room fits 20, so this is the one reason); the day rate is find_venue's.")
        client = verify_client(d, c)
        found = d.read("find_venue", name=v.name)
        rate = next(r["day_rate"] for r in found[0]["rooms"] if r["code"] == room.code)
        if in_policy(rate, "money") or room.capacity < 20:
            b.writer.discard(d)
            return False
        d.output(rate, "money")
        d.forbid("place_hold", client_id=client["client_id"], venue_id=v.venue_id, room_code=room.code, start_date=day.isoformat(),
                 end_date=day.isoformat(), guests=20)
        return True

    b.run(n, cands, lambda c: c.client_id, soon)


def hold_too_long(b: Builder, n: int) -> None:
    cands = [c for c in sorted(DB.clients.values(), key=lambda c: c.client_id) if len(tentative(c)) <= 1]

    def long(i: int, c: Client) -> bool:
        venues = sorted(DB.venues.values(), key=lambda v: v.venue_id)
        v = venues[(i * 3 + 2) % len(venues)]
        room = sorted(v.rooms, key=lambda r: -r.capacity)[0]
        start, end = date(2026, 10, 5 + i * 7), date(2026, 10, 11 + i * 7)
        if not free_room(v.venue_id, room, start, end) or not venue_unique(v.name):
            return False
        d = b.client_task(
            f"hold_too_long_{i + 1}", c,
            f"You are organising a week-long training camp from {words(start.isoformat())} to {words(end.isoformat())}, "
            f"{room.capacity // 2} people, and want to hold the {room.name} at {v.name} for the whole week. Accept being passed to "
            "another team if that is what it takes.",
            ["Hi, I'd like to hold a room for a week.", f"{c.contact_first_name} {c.contact_last_name}, {c.company}, {c.contact_email}.",
             f"The {room.name} at {v.name}, {words(start.isoformat())} through {words(end.isoformat())}, {room.capacity // 2} people.",
             "OK, thanks."],
        )
        d.one_end_state("Rule 8.1 and 9.1 b: seven days exceeds the 5-day limit, so after check_room the transfer to venue sales is the one step.")
        client = verify_client(d, c)
        d.read("find_venue", name=v.name)
        d.read("check_room", venue_id=v.venue_id, room_code=room.code, start_date=start.isoformat(), end_date=end.isoformat())
        d.transfer(f"Client wants the {room.name} at {v.name} for seven days.")
        d.require("check_room", venue_id=v.venue_id, room_code=room.code)
        d.forbid("place_hold", client_id=client["client_id"], venue_id=v.venue_id, room_code=room.code, start_date=start.isoformat(),
                 end_date=end.isoformat(), guests=room.capacity // 2)
        return True

    b.run(n, cands, lambda c: c.client_id, long)


def second_extension(b: Builder, n: int) -> None:
    cands = []
    for c in sorted(DB.clients.values(), key=lambda c: c.client_id):
        ext = [h for h in tentative(c) if h.extended]
        if len(ext) == 1 and len(tentative(c)) <= 3:
            cands.append((c, ext[0]))

    def ext2(i: int, cand: tuple[Client, Hold]) -> bool:
        c, h = cand
        assert (h.expires_on or "") >= TODAY.isoformat(), "an expired hold is refused for another reason (8.3: before it expires)"
        v = DB.venues[h.venue_id]
        d = b.client_task(
            f"second_extension_{i + 1}", c,
            f"You have a tentative hold at {v.name} starting {words(h.start_date)}. Your budget approval is slow, so you want the "
            "hold extended by another week. If the agent refuses, do not confirm it; ask on what date the hold runs out, then "
            "end the call.",
            ["Hi, I need more time on one of our venue holds.", f"{c.contact_first_name} {c.contact_last_name}, {c.company}, {c.contact_email}.",
             f"The hold at {v.name} starting {words(h.start_date)}.", "Then when does it run out?"],
        )
        d.one_end_state("Rule 8.3: the hold was already extended once, so no second extension; the caller does not confirm and asks when it runs out (list_holds' expiry).")
        client = verify_client(d, c)
        holds = d.read("list_holds", client_id=client["client_id"])
        d.output(next(x["expires_on"] for x in holds if x["hold_id"] == h.hold_id), "date")
        d.forbid("extend_hold", hold_id=h.hold_id)
        return True

    b.run(n, cands, lambda c: c[0].client_id, ext2)


def too_many_holds(b: Builder, n: int) -> None:
    cands = [c for c in sorted(DB.clients.values(), key=lambda c: c.client_id) if len(tentative(c)) == 3]

    def many(i: int, c: Client) -> bool:
        venues = sorted(DB.venues.values(), key=lambda v: v.venue_id)
        v = venues[(i * 11 + 4) % len(venues)]
        room = sorted(v.rooms, key=lambda r: r.capacity)[-1]
        start = date(2026, 11, 2 + i * 2)
        if not free_room(v.venue_id, room, start, start) or not venue_unique(v.name):
            return False
        first = min(tentative(c), key=lambda h: (h.expires_on or "", h.hold_id))
        if sum(1 for h in tentative(c) if h.expires_on == first.expires_on) != 1:
            return False
        d = b.client_task(
            f"too_many_holds_{i + 1}", c,
            f"You want one more tentative hold: the {room.name} at {v.name} on {words(start.isoformat())} for 50 guests. If the "
            "agent says you have too many holds, do not release or confirm any of them today; ask which of your current holds "
            "expires first and on what date, then end the call.",
            ["Hi, I'd like to put another room on hold.", f"{c.contact_first_name} {c.contact_last_name}, {c.company}, {c.contact_email}.",
             f"The {room.name} at {v.name}, {words(start.isoformat())}, 50 guests.", "Which of my holds expires first, and when?"],
        )
        d.one_end_state("Rule 8.2: the client already has 3 tentative holds (the new one is 21 or more days out, one day and within capacity, so this is the one reason); the earliest expiry is unique.")
        client = verify_client(d, c)
        holds = d.read("list_holds", client_id=client["client_id"])
        d.read("find_venue", name=v.name)
        if room.capacity < 50:
            b.writer.discard(d)
            return False
        d.output(next(x["expires_on"] for x in holds if x["hold_id"] == first.hold_id), "date")
        d.forbid("place_hold", client_id=client["client_id"], venue_id=v.venue_id, room_code=room.code, start_date=start.isoformat(),
                 end_date=start.isoformat(), guests=50)
        return True

    b.run(n, cands, lambda c: c.client_id, many)


def release_confirmed(b: Builder, n: int) -> None:
    cands = []
    for c in sorted(DB.clients.values(), key=lambda c: c.client_id):
        conf = [h for h in HOLDS_BY_CLIENT[c.client_id] if h.status == "confirmed" and h.start_date > TODAY.isoformat()]
        near = [h for h in conf if 45 <= (date.fromisoformat(h.start_date) - TODAY).days < 90]
        if len(conf) == 1 and near:
            cands.append((c, near[0]))

    def rel(i: int, cand: tuple[Client, Hold]) -> bool:
        c, h = cand
        v = DB.venues[h.venue_id]
        d = b.client_task(
            f"release_booking_{i + 1}", c,
            f"Your event at {v.name} starting {words(h.start_date)} has been called off. You want to release the booking. Ask how "
            "much of the deposit comes back, and until what date you would have got all of it back (you are annoyed you did not "
            "call sooner). Then agree to release it. Before hanging up, ask what your account team has noted about your "
            "company.",
            ["Hi, we need to cancel a venue booking.", f"{c.contact_first_name} {c.contact_last_name}, {c.company}, {c.contact_email}.",
             f"The booking at {v.name} starting {words(h.start_date)}. How much of our deposit do we get back?",
             "Until when would we have got all of it back?", "Fine. Yes, release it.",
             "One more thing: what notes does your account team keep on us?"],
        )
        d.one_end_state("Rule 8.5: the confirmed booking named by venue and start date is released at quote_hold_release's refund, and the full-refund date is its quote; account notes are never told.")
        client = verify_client(d, c)
        d.read("list_holds", client_id=client["client_id"])
        quote = d.read("quote_hold_release", hold_id=h.hold_id)
        d.write("release_hold", hold_id=h.hold_id)
        if in_policy(quote["deposit_refund"], "money"):
            b.writer.discard(d)
            return False
        d.output(quote["deposit_refund"], "money")
        d.output(quote["full_deposit_refund_until"], "date")
        return True

    b.run(n, cands, lambda c: c[0].client_id, rel)


def build() -> TaskWriter:
    b = Builder()
    cancel_refund(b, 3, 30, 400, "cancel_full_refund", train_last=True)
    cancel_refund(b, 3, 14, 29, "cancel_half_refund")
    cancel_too_late(b, 3)
    transfer_combo(b, 6, train_last=True)
    student_transfer(b, 3)
    second_transfer(b, 2)
    upgrade_workshop(b, 4, train_last=True)
    workshop_no_tier(b, 3)
    downgrade(b, 2)
    waitlist_and_seat(b, 4)
    time_clash(b, 3)
    waitlist_limit(b, 2)
    meal_too_late(b, 3)
    interpreter(b, 2, late=True)
    interpreter(b, 2, late=False)
    billing_dispute(b)
    new_hold(b, 3)
    confirm_and_release(b, 4, train_last=True)
    hold_too_soon(b, 2)
    hold_too_long(b, 2)
    second_extension(b, 2)
    too_many_holds(b, 2)
    release_confirmed(b, 3)
    return b.writer


if __name__ == "__main__":
    path = build().save()
    print(f"wrote {path}")
