"""Builds fixtures/agriculture/tasks.json with a `TaskWriter`: one template per kind of request, members and
records picked from the initial DB with a seeded RNG. Every gold call runs as it is added, and every figure a
task asks for is read from what the tools returned.

    python -m tests_domains.agriculture.make_tasks
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from typing import Any

from pytest_tau import SkipCandidate, TaskDraft, TaskWriter
from tests_domains.agriculture.domain import DOMAIN
from tests_domains.agriculture.schema import FarmField, GrainTicket, InputOrder, Member, StorageContract, WeatherEvent

DB = DOMAIN.initial_db
TODAY = DOMAIN.today
STORE_CUTOFF = date(2026, 9, 14)
CANCEL_CUTOFF = date(2026, 10, 22)
MOODS = [
    "You are friendly and chatty about the harvest.", "You are in the combine cab and want short answers.",
    "You are calm and precise, and you answer only what you are asked.", "You are polite but firm.",
    "You are a bit tired after a long night of hauling grain.",
]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]

MEMBERS = sorted(DB.members.values(), key=lambda m: m.member_number)
FIELDS: dict[str, list[FarmField]] = defaultdict(list)
for _f in sorted(DB.fields.values(), key=lambda f: f.field_id):
    FIELDS[_f.member_number].append(_f)
TICKETS: dict[str, list[GrainTicket]] = defaultdict(list)
for _t in sorted(DB.grain_tickets.values(), key=lambda t: t.ticket_number):
    TICKETS[_t.member_number].append(_t)
ORDERS: dict[str, list[InputOrder]] = defaultdict(list)
for _o in sorted(DB.orders.values(), key=lambda o: o.order_id):
    ORDERS[_o.member_number].append(_o)
CONTRACTS: dict[str, list[StorageContract]] = defaultdict(list)
for _c in sorted(DB.storage_contracts.values(), key=lambda c: c.contract_id):
    CONTRACTS[_c.member_number].append(_c)
EVENTS: dict[tuple[str, str], list[WeatherEvent]] = defaultdict(list)
for _e in sorted(DB.weather_events.values(), key=lambda e: e.event_id):
    EVENTS[(_e.county, _e.state)].append(_e)
CLAIMED = {(c.field_id, c.event_id) for c in DB.claims.values()}
SPRAYS = sorted((p for p in DB.products.values() if p.phi_days is not None), key=lambda p: p.sku)
KIND_WORDS = {"hail": "hailstorm", "windstorm": "windstorm", "flood": "flooding rain", "early_frost": "early frost"}
DAMAGE_WORDS = {"hail": "the leaves are shredded and a lot of stalks are broken", "windstorm": "a lot of it is flattened",
                "flood": "the low end stood under water for days", "early_frost": "it froze and died back before it filled"}


def spoken(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{MONTHS[d.month - 1]} {d.day}"


def unpriced(m: Member) -> list[GrainTicket]:
    return [t for t in TICKETS[m.member_number] if t.status == "unpriced"]


def fn(f: FarmField) -> str:
    return f.name if f.name.endswith("Field") else f"{f.name} field"


def sprayable(f: FarmField) -> bool:
    """A conventional row crop still standing (a field whose harvest has begun is sprayed no more)."""
    return f.crop != "wheat" and f.certification == "conventional" and f.planned_harvest > TODAY.isoformat()


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(7740)
        self.used: set[str] = set()

    def who(self, m: Member) -> tuple[str, str]:
        """The member as the simulated user knows themselves, and the scripted line that answers the agent's request to
        authenticate (rule 1.1: email or member number, with the date of birth)."""
        born = date.fromisoformat(m.date_of_birth)
        born_said = f"{MONTHS[born.month - 1]} {born.day}, {born.year}"
        if self.rng.random() < 0.5:
            creds = f"your email is {m.email} and your date of birth is {m.date_of_birth}"
            line = f"My email is {m.email} and I was born {born_said}."
        else:
            creds = f"your member number is {m.member_number} and your date of birth is {m.date_of_birth}"
            line = f"Member number {m.member_number}, and my date of birth is {born_said}."
        return (f"You are {m.first_name} {m.last_name} of {m.farm_name} in {m.county} County, {m.state}, a member of Prairie "
                f"Gold Cooperative; {creds}. You do not know any internal ids other than what is said here. "
                f"{self.rng.choice(MOODS)} Give information only when the agent asks for it."), line

    def run(self, name: str, n: int, cands: list[Any], build: Callable[[str, Any], Iterator[None] | None], train: int = 0) -> None:
        items = [c for c in cands if self.key(c) not in self.used]
        self.rng.shuffle(items)
        done = 0
        for item in items:
            if done == n + train:
                break
            split = "train" if done >= n else "test"
            task_id = f"{name}_{done + 1}" if split == "test" else f"train_{name}_{done - n + 1}"
            before = len(self.writer.drafts)
            self.split = split
            build(task_id, item)
            if len(self.writer.drafts) > before:
                self.used.add(self.key(item))
                done += 1
        if done < n + train:
            raise SystemExit(f"only {done} of {n + train} candidates for {name}")

    @staticmethod
    def key(item: Any) -> str:
        first = item[0] if isinstance(item, tuple) else item
        return str(first.member_number)

    def attempt(self, task_id: str, m: Member, situation: str, script: list[str]) -> Any:
        """The scripted member opens with `script[0]`, answers the agent's request to authenticate with the second
        line, then says the rest of `script` in order."""
        text, credentials = self.who(m)
        return self.writer.attempt(task_id, instructions=f"{text} {situation}", script=[script[0], credentials, *script[1:]],
                                   split=self.split)


def auth(d: TaskDraft, m: Member) -> None:
    if f"member number is {m.member_number}" in d.instructions:
        d.read("find_member_by_number", member_number=m.member_number, date_of_birth=m.date_of_birth)
    else:
        d.read("find_member_by_email", email=m.email, date_of_birth=m.date_of_birth)


def steps(d: TaskDraft) -> list[tuple[str, dict[str, Any]]]:
    """The gold calls so far, as the steps of another path to edit."""
    return [(a.name, dict(a.arguments)) for a in d.gold]


def hello(m: Member) -> str:
    return f"Hi, this is {m.first_name} {m.last_name}."


def find_field(d: TaskDraft, m: Member) -> None:
    """Members name fields, not field ids: the agent lists the member's fields to find the id."""
    d.read("list_fields", member_number=m.member_number)


def find_product(d: TaskDraft, p: Any) -> None:
    """Members name products, not SKUs: the agent searches the catalog by the name said."""
    d.read("search_products", text=p.name)


def find_event(d: TaskDraft, f: FarmField) -> None:
    """Members name a storm by its date: the agent lists the events recorded in the field's county."""
    d.read("list_weather_events", county=f.county, state=f.state)


B = Builder()


# ----------------------------------------------------------------------------- grain sales


def sell_tickets(task_id: str, item: tuple[Member, list[GrainTicket]]) -> None:
    m, ts = item
    nums = [t.ticket_number for t in ts]
    which = " and ".join(nums)
    situation = (f"You hauled {ts[0].crop} to the elevator and want to sell the loads on scale tickets {which} at today's "
                 "cash price. You want to know what you will be paid after discounts before you agree; then say yes.")
    with B.attempt(task_id, m, situation, [f"{hello(m)} I'd like to sell a couple of loads at today's price.",
                                           f"It's scale tickets {which}.", "Yes, go ahead and sell them."]) as d:
        auth(d, m)
        q = d.read("quote_grain_settlement", ticket_numbers=nums)
        d.write("settle_grain_tickets", member_number=m.member_number, ticket_numbers=nums)
        d.output(q["net_payment"], "money", strict=True)
        d.one_end_state("The member names both tickets and asks for them together: 4.2 sells exactly those, in one settlement "
                        "after the quote; the member has no lien holder (4.5) and the tickets are unpriced, so no rule stops it.")
        first, *_ = steps(d)
        d.alternative("4.2: the member's ticket list looked at first, and the tickets named in the other order, sell the same "
                      "tickets in one settlement", [
                          first, ("list_grain_tickets", {"member_number": m.member_number}),
                          ("quote_grain_settlement", {"ticket_numbers": nums[::-1]}),
                          ("settle_grain_tickets", {"member_number": m.member_number, "ticket_numbers": nums[::-1]})])


def sell_cands() -> list[Any]:
    out = []
    for m in MEMBERS:
        if m.lien_holder:
            continue
        ts = unpriced(m)
        crops = defaultdict(list)
        for t in ts:
            crops[t.crop].append(t)
        for crop_ts in crops.values():
            if len(crop_ts) >= 2:
                out.append((m, crop_ts[:2]))
                break
    return out


def lien_transfer(task_id: str, item: tuple[Member, GrainTicket]) -> None:
    m, t = item
    situation = (f"You want to sell the {t.crop} on scale ticket {t.ticket_number} today and want the money deposited. "
                 f"If the agent asks, there is a loan with {m.lien_holder} on your operation. If the agent says the desk "
                 "cannot do it, ask what the load would bring at today's price and accept being passed to someone who can.")
    with B.attempt(task_id, m, situation, [f"{hello(m)} I need to sell a load of {t.crop} today, scale ticket {t.ticket_number}.",
                                           "What would it bring at today's price, then?",
                                           "Okay, please pass me to whoever can do it."]) as d:
        auth(d, m)
        q = d.read("quote_grain_settlement", ticket_numbers=[t.ticket_number])
        d.require("quote_grain_settlement", ticket_numbers=[t.ticket_number])
        d.forbid("settle_grain_tickets", member_number=m.member_number, ticket_numbers=[t.ticket_number])
        d.output(q["net_payment"], "money", strict=True)
        d.transfer(f"member {m.member_number} with lien holder wants to sell ticket {t.ticket_number}")
        d.one_end_state("The member has a lien holder on file: 4.5 settles none of their tickets at the desk and asks for the "
                        "quote of the ticket named, then a transfer; the member asks the price, so the quote's net payment is told.")
        first, quote, transfer = steps(d)
        d.alternative("4.5 asks for the quote and the transfer; a look at the member's tickets first changes nothing",
                      [first, ("list_grain_tickets", {"member_number": m.member_number}), quote, transfer])


def lien_cands() -> list[Any]:
    return [(m, unpriced(m)[0]) for m in MEMBERS if m.lien_holder and unpriced(m)]


def late_storage(task_id: str, item: tuple[Member, GrainTicket]) -> None:
    m, t = item
    situation = (f"You want to put the {t.crop} on scale ticket {t.ticket_number} (delivered {spoken(t.delivered_on)}) into "
                 "storage at the elevator because you think prices will go up. If the agent says it cannot go into storage, "
                 "ask what it would bring if sold today, but do not sell it: you will think about it and call back.")
    with B.attempt(task_id, m, situation, [f"{hello(m)} I want to put a load into storage, scale ticket {t.ticket_number}.",
                                           "What would it bring if I sold it today?",
                                           "No, don't sell it. I'll think about it."]) as d:
        auth(d, m)
        q = d.read("quote_grain_settlement", ticket_numbers=[t.ticket_number])
        d.forbid("open_storage_contract", member_number=m.member_number, ticket_numbers=[t.ticket_number])
        d.output(q["net_payment"], "money", strict=True)
        d.one_end_state("The ticket was delivered before September 14, 2026, so 4.3 keeps it out of storage (the one reason: it "
                        "is unpriced and the member has no lien); the member asks what a sale would bring and then declines it, "
                        "so the quote's net payment is told and nothing is written.")
        first, quote = steps(d)
        d.alternative("the delivery date read from the member's ticket list before the quote, as 4.3 needs it",
                      [first, ("list_grain_tickets", {"member_number": m.member_number}), quote])


def late_storage_cands() -> list[Any]:
    return [(m, t) for m in MEMBERS if not m.lien_holder
            for t in unpriced(m)[:1] if date.fromisoformat(t.delivered_on) < STORE_CUTOFF]


def sell_storage(task_id: str, item: tuple[Member, StorageContract]) -> None:
    m, c = item
    situation = (f"You have {c.crop} in storage at the elevator since {spoken(c.start_date)} and want to sell all of it today. "
                 "Before you agree you want to know the storage fees and what you will be paid; then say yes.")
    with B.attempt(task_id, m, situation, [f"{hello(m)} I want to sell all my stored {c.crop}.", "Yes, sell it."]) as d:
        auth(d, m)
        d.read("list_storage_contracts", member_number=m.member_number)
        q = d.read("quote_stored_grain_sale", contract_id=c.contract_id)
        d.write("sell_stored_grain", member_number=m.member_number, contract_id=c.contract_id)
        d.output(q["storage_fees"], "money", strict=True)
        d.output(q["net_payment"], "money", strict=True)
        d.one_end_state("The member has one storage contract, open and not pledged, and no lien holder (4.5): 4.4 sells it "
                        "whole after the quote, whose storage fees and net payment are told.")


def storage_cands(pledged: bool) -> list[Any]:
    return [(m, cs[0]) for m in MEMBERS if not m.lien_holder for cs in [CONTRACTS[m.member_number]]
            if len(cs) == 1 and cs[0].status == "open" and bool(cs[0].pledged_to) == pledged]


def pledged_transfer(task_id: str, item: tuple[Member, StorageContract]) -> None:
    m, c = item
    situation = (f"You want to sell the {c.crop} you have in storage at the elevator today. If the agent asks, the stored "
                 f"grain was pledged to {c.pledged_to} for an operating loan. Ask what it would bring, and accept being "
                 "passed to someone who can do it.")
    with B.attempt(task_id, m, situation, [f"{hello(m)} I'd like to sell my stored {c.crop}.",
                                           "What would it bring today?", "Fine, transfer me."]) as d:
        auth(d, m)
        d.read("list_storage_contracts", member_number=m.member_number)
        q = d.read("quote_stored_grain_sale", contract_id=c.contract_id)
        d.require("quote_stored_grain_sale", contract_id=c.contract_id)
        d.forbid("sell_stored_grain", member_number=m.member_number, contract_id=c.contract_id)
        d.output(q["net_payment"], "money", strict=True)
        d.transfer(f"member {m.member_number} wants to sell pledged storage contract {c.contract_id}")
        d.one_end_state("The member's one storage contract is pledged: 4.5 sells no pledged grain at the desk and asks for "
                        "the contract's quote, then a transfer (the member has no lien, so the pledge is the one reason); the "
                        "member asks the price, so the net payment is told.")


# ----------------------------------------------------------------------------- spraying


def spray_choice(f: FarmField, ok: bool, when: date) -> Any:
    for p in SPRAYS:
        if f.crop not in p.crops or (p.buffer_ft or 0) > f.setback_ft or p.organic_approved:
            continue
        fits = when + timedelta(days=p.phi_days or 0) <= date.fromisoformat(f.planned_harvest)
        if fits == ok and (p.phi_days or 0) > 0:
            return p
    return None


def spray(task_id: str, item: tuple[Member, FarmField, Any, date], ok: bool) -> None:
    m, f, p, when = item
    ask = (f"You want the co-op to custom-apply {p.name} on your {fn(f)} ({f.crop}) on {spoken(when.isoformat())}. "
           "You want to know the earliest date you could harvest after it.")
    opening = f"{hello(m)} I want the co-op to spray {p.name} on my {fn(f)} on {spoken(when.isoformat())}."
    if ok:
        ask += " Then say yes."
        script = [opening, "Yes, book it."]
    else:
        ask += (f" You plan to harvest that field around {spoken(f.planned_harvest)}. If the agent will not book it, insist "
                "once, then accept and end the call without booking anything else.")
        script = [opening, "Can't you just book it anyway?"]
    with B.attempt(task_id, m, ask, script) as d:
        auth(d, m)
        find_field(d, m)
        find_product(d, p)
        pv = d.read("preview_spray", field_id=f.field_id, sku=p.sku, application_date=when.isoformat())
        if ok:
            d.write("schedule_spray", member_number=m.member_number, field_id=f.field_id, sku=p.sku,
                    application_date=when.isoformat())
        else:
            d.forbid("schedule_spray", member_number=m.member_number, field_id=f.field_id, sku=p.sku,
                     application_date=when.isoformat())
        d.output(pv["earliest_harvest"], "date", strict=True)
        if ok:
            d.one_end_state("The field is the only one of the member's with that name, on a conventional crop still standing; "
                            "the product's label lists the crop, its buffer fits the setback, the earliest harvest falls on or "
                            "before the planned harvest and the date is not in the past (5.2-5.5): the spray is booked as asked.")
        else:
            d.one_end_state("Only the pre-harvest interval fails (5.2): the product's label lists the field's crop, its buffer "
                            "fits the setback and the field is conventional (5.3, 5.4), so the refusal has one reason, and 5.2 "
                            "asks for the earliest harvest date the application would force.")


def spray_cands(ok: bool) -> list[Any]:
    out = []
    for m in MEMBERS:
        for f in FIELDS[m.member_number]:
            if not sprayable(f):
                continue
            when = TODAY + timedelta(days=1 + int(m.member_number) % 4)
            p = spray_choice(f, ok, when)
            if p is not None:
                out.append((m, f, p, when))
                break
    return out


# ----------------------------------------------------------------------------- claims


def claim_cands(on_time: bool) -> list[Any]:
    out = []
    for m in MEMBERS:
        events = EVENTS[(m.county, m.state)]
        for f in FIELDS[m.member_number]:
            if not f.insured:
                continue
            for e in events:
                if (f.field_id, e.event_id) in CLAIMED:
                    continue
                same = [x for x in events if x.kind == e.kind and x.event_date == e.event_date]
                days = {"hail": 14, "windstorm": 14, "flood": 10, "early_frost": 21}[e.kind]
                timely = date.fromisoformat(e.event_date) + timedelta(days=days) >= TODAY
                if len(same) == 1 and timely == on_time:
                    out.append((m, f, e))
                    break
            else:
                continue
            break
    return out


def claim(task_id: str, item: tuple[Member, FarmField, WeatherEvent], on_time: bool) -> None:
    m, f, e = item
    loss = B.rng.choice([15, 20, 25, 35, 40])
    words = f"the {KIND_WORDS[e.kind]} on {spoken(e.event_date)}"
    situation = (f"Your {fn(f)} ({f.crop}) was damaged by {words}. You want to report a crop-insurance loss; you "
                 f"estimate about {loss} percent of the crop is lost; if asked what you saw, describe the damage in your "
                 "own words.")
    opening = f"{hello(m)} I need to report damage to my {fn(f)} from {words}."
    if on_time:
        situation += " You want the claim number at the end."
        script = [opening, f"I'd say about {loss} percent is lost; {DAMAGE_WORDS[e.kind]}.",
                  "Yes, please file it."]
    else:
        situation += (" You were busy and did not call earlier. If the agent says it is too late, ask what the deadline was, "
                      "then accept and end the call.")
        script = [opening, "Really? What was the deadline then?"]
    with B.attempt(task_id, m, situation, script) as d:
        auth(d, m)
        find_field(d, m)
        find_event(d, f)
        dl = d.read("get_claim_deadline", field_id=f.field_id, event_id=e.event_id)
        if on_time:
            c = d.write("file_claim", member_number=m.member_number, field_id=f.field_id, event_id=e.event_id,
                        estimated_loss_percent=loss, description="damage seen by the member")
            d.output(c["claim_id"], "code")
        else:
            d.forbid("file_claim", member_number=m.member_number, field_id=f.field_id, event_id=e.event_id,
                     estimated_loss_percent=loss, description="damage seen by the member")
            d.output(dl["reporting_deadline"], "date", strict=True)
        where = ("The field is the only one of the member's with that name and it is insured; the event is the only one of "
                 "that kind on that date recorded in the field's county (6.1), and no notice is on file for that field and "
                 "event (6.3). ")
        if on_time:
            d.one_end_state(where + "The reporting deadline has not passed (6.2), so the notice is filed with the member's own "
                            "loss estimate and words, and its claim id told.")
            d.alternative("6.3 allows one notice per field and event: a look at the member's claims before filing changes "
                          "nothing", [*steps(d)[:-1], ("list_claims", {"member_number": m.member_number}), steps(d)[-1]])
        else:
            d.one_end_state(where + "The deadline has passed, the one reason: 6.2 refuses, asks for the deadline that applied "
                            "and forbids a transfer.")


# ----------------------------------------------------------------------------- input orders


def order_product(f: FarmField) -> Any:
    organic = f.certification != "conventional"
    for sku in (["FT-MAN", "FT-GYP"] if organic else ["FT-POT", "FT-MAP", "FT-UAN32"]):
        p = DB.products[sku]
        if f.crop in p.crops:
            return p
    return None


def available(m: Member) -> float:
    return m.credit_limit - sum(o.total for o in ORDERS[m.member_number] if o.status == "open")


def order(task_id: str, item: tuple[Member, FarmField, Any, int, date], ok: bool) -> None:
    m, f, p, qty, start = item
    situation = (f"You want to order {qty} {p.unit}s of {p.name} for your {fn(f)}, delivered starting "
                 f"{spoken(start.isoformat())}, on your co-op account.")
    opening = (f"{hello(m)} I'd like to order {qty} {p.unit}s of {p.name} for my {fn(f)}, delivered starting "
               f"{spoken(start.isoformat())}, on my account.")
    if ok:
        situation += " Before agreeing you want to know the order total; then say yes."
        script = [opening, "Yes, place it."]
    else:
        situation += (" If the agent says it does not fit your credit, ask how much credit you have left; you do not want a "
                      "smaller order right now, you will call back after talking to your banker.")
        script = [opening, "No, don't make it smaller. How much room do I have?"]
    lines = [{"sku": p.sku, "quantity": qty}]
    with B.attempt(task_id, m, situation, script) as d:
        auth(d, m)
        find_field(d, m)
        find_product(d, p)
        q = d.read("quote_input_order", member_number=m.member_number, lines=lines)
        if (q["order_total"] <= q["available_credit"]) != ok:
            raise SkipCandidate("credit does not fit the template")
        if ok:
            d.write("place_input_order", member_number=m.member_number, field_id=f.field_id, lines=lines,
                    delivery_start=start.isoformat())
            d.output(q["order_total"], "money", strict=True)
        else:
            d.forbid("place_input_order", member_number=m.member_number, field_id=f.field_id, lines=lines,
                     delivery_start=start.isoformat())
            d.output(q["available_credit"], "money", strict=True)
        fits = ("The field is the only one of the member's with that name; the product's label lists its crop and suits its "
                "certification (3.4, 3.5); the delivery starts more than 5 days out (3.6) and the account is active (3.3). ")
        if ok:
            d.one_end_state(fits + "The quoted total fits the available credit (3.2), so the order is placed as asked.")
        else:
            d.one_end_state(fits + "Only the credit fails (3.2): the order is refused, the available credit told, and the "
                            "member wants no smaller order (3.2 forbids splitting it).")


def order_cands(ok: bool) -> list[Any]:
    out = []
    for m in MEMBERS:
        if m.account_status != "active":
            continue
        for f in FIELDS[m.member_number]:
            p = order_product(f)
            if p is None:
                continue
            room = available(m)
            qty = max(1, int(room * 0.3 // p.unit_price)) if ok else math.ceil((room + 900) / p.unit_price)
            if qty < 1 or qty > 400:
                continue
            start = TODAY + timedelta(days=8 + int(m.member_number) % 20)
            out.append((m, f, p, min(qty, 60) if ok else qty, start))
            break
    return out


def open_orders(m: Member) -> list[InputOrder]:
    return [o for o in ORDERS[m.member_number] if o.status == "open"]


def cancel_refused(task_id: str, item: tuple[Member, InputOrder]) -> None:
    m, o = item
    f = DB.fields[o.field_id]
    names = ", ".join(DB.products[x.sku].name for x in o.lines)
    situation = (f"You want to cancel your open input order for your {fn(f)} ({names}) because you changed plans. "
                 "If the agent says it cannot be cancelled, ask when it is due to arrive, then accept and end the call.")
    with B.attempt(task_id, m, situation, [f"{hello(m)} I need to cancel my input order for my {fn(f)}.",
                                           "When is it coming then?"]) as d:
        auth(d, m)
        d.read("list_orders", member_number=m.member_number)
        d.forbid("cancel_input_order", member_number=m.member_number, order_id=o.order_id)
        d.output(o.delivery_start, "date", strict=True)
        d.one_end_state("The member has one open order, and its delivery window starts within 7 days of today (before "
                        "October 22, 2026): 3.7 refuses the cancellation and asks for the window's start date.")


def cancel_cands() -> list[Any]:
    return [(m, os[0]) for m in MEMBERS for os in [open_orders(m)]
            if len(os) == 1 and TODAY < date.fromisoformat(os[0].delivery_start) < CANCEL_CUTOFF]


# ----------------------------------------------------------------------------- multi-write requests


def harvest_day(task_id: str, item: tuple[Member, GrainTicket, GrainTicket, FarmField, Any, date]) -> None:
    m, sell, store, f, p, when = item
    situation = (f"You have three things: sell the {sell.crop} on scale ticket {sell.ticket_number} at today's price; put the "
                 f"{store.crop} on scale ticket {store.ticket_number} into storage; and book a co-op application of {p.name} "
                 f"on your {fn(f)} on {spoken(when.isoformat())}. You want to hear what the sale pays and the earliest "
                 "harvest date after the spray before agreeing to each; then say yes to each.")
    script = [f"{hello(m)} Busy day, I've got a few things for you.",
              f"Sell the {sell.crop} on ticket {sell.ticket_number} at today's price, put the {store.crop} on ticket "
              f"{store.ticket_number} into storage, and book {p.name} on my {fn(f)} for {spoken(when.isoformat())}.",
              "Yes to that.", "Yes, store that one.", "Yes, book the spray."]
    with B.attempt(task_id, m, situation, script) as d:
        auth(d, m)
        q = d.read("quote_grain_settlement", ticket_numbers=[sell.ticket_number])
        d.write("settle_grain_tickets", member_number=m.member_number, ticket_numbers=[sell.ticket_number])
        sc = d.write("open_storage_contract", member_number=m.member_number, ticket_numbers=[store.ticket_number])
        find_field(d, m)
        find_product(d, p)
        pv = d.read("preview_spray", field_id=f.field_id, sku=p.sku, application_date=when.isoformat())
        d.write("schedule_spray", member_number=m.member_number, field_id=f.field_id, sku=p.sku,
                application_date=when.isoformat())
        d.output(q["net_payment"], "money", strict=True)
        d.output(pv["earliest_harvest"], "date", strict=True)
        d.output(sc["rate_per_bushel_month"], "money", strict=True)
        d.one_end_state("Three requests, each under its own rule (2.3): the member has no lien holder (4.5); the ticket sold "
                        "is unpriced (4.2); the ticket stored was delivered on or after September 14, 2026 (4.3); the spray's "
                        "field is the only one of that name and passes 5.2-5.5. So all three are done as asked, and 4.3 "
                        "tells the new contract's storage rate.")


def harvest_cands() -> list[Any]:
    out = []
    for m in MEMBERS:
        if m.lien_holder:
            continue
        ts = unpriced(m)
        fresh = [t for t in ts if date.fromisoformat(t.delivered_on) >= STORE_CUTOFF]
        if len(ts) < 2 or not fresh:
            continue
        store = fresh[-1]
        sell = next(t for t in ts if t is not store)
        when = TODAY + timedelta(days=2)
        for f in FIELDS[m.member_number]:
            p = spray_choice(f, True, when) if sprayable(f) else None
            if p is not None:
                out.append((m, sell, store, f, p, when))
                break
    return out


def claim_and_reorder(task_id: str, item: tuple[Member, FarmField, WeatherEvent, InputOrder, FarmField, Any, int, date]) -> None:
    m, f, e, o, of, p, qty, start = item
    old = ", ".join(DB.products[x.sku].name for x in o.lines)
    loss = B.rng.choice([30, 50, 60])
    situation = (f"The {KIND_WORDS[e.kind]} on {spoken(e.event_date)} hurt your {fn(f)} ({f.crop}); you estimate "
                 f"{loss} percent lost and want to report it (describe the damage in your own words if asked). Because of "
                 f"that you also want to cancel your open order for your {fn(of)} ({old}) and instead order {qty} "
                 f"{p.unit}s of {p.name} for the {fn(of)}, delivered starting {spoken(start.isoformat())}. You want "
                 "the claim number and the new order's total; say yes when asked to confirm.")
    script = [f"{hello(m)} I had weather damage and need to rework my fall orders.",
              f"The {KIND_WORDS[e.kind]} on {spoken(e.event_date)} hit my {fn(f)}, about {loss} percent lost; "
              f"{DAMAGE_WORDS[e.kind]}. I want to report that.",
              "Yes, go ahead and file it.",
              f"Then cancel my open order for the {fn(of)} and instead order {qty} {p.unit}s of {p.name} for it, delivered "
              f"starting {spoken(start.isoformat())}.",
              "Yes, cancel it.", "Yes, place the new one."]
    with B.attempt(task_id, m, situation, script) as d:
        auth(d, m)
        find_field(d, m)
        find_event(d, f)
        d.read("get_claim_deadline", field_id=f.field_id, event_id=e.event_id)
        c = d.write("file_claim", member_number=m.member_number, field_id=f.field_id, event_id=e.event_id,
                    estimated_loss_percent=loss, description="storm damage as described")
        d.read("list_orders", member_number=m.member_number)
        d.write("cancel_input_order", member_number=m.member_number, order_id=o.order_id)
        find_product(d, p)
        lines = [{"sku": p.sku, "quantity": qty}]
        q = d.read("quote_input_order", member_number=m.member_number, lines=lines)
        # It fits even with the old order still open: an agent that quotes before cancelling (3.8) has no refusal to make.
        if q["order_total"] > q["available_credit"] - o.total:
            raise SkipCandidate("over credit")
        d.write("place_input_order", member_number=m.member_number, field_id=of.field_id, lines=lines,
                delivery_start=start.isoformat())
        d.output(c["claim_id"], "code")
        d.output(q["order_total"], "money", strict=True)
        d.one_end_state("The claim is timely on an insured field for the only event of that kind and date in its county "
                        "(6.1-6.3); the open order is the member's only one and its window starts on or after October 22, "
                        "2026 (3.7); the new order suits the field (3.4-3.6) and fits the credit even before the cancel (3.2, 3.8).")
        done = steps(d)
        cancel = next(i for i, (name, _) in enumerate(done) if name == "cancel_input_order")
        d.alternative("3.8: the new order quoted before the old one is cancelled fits the credit all the same",
                      [*done[:cancel], *done[cancel + 1:-1], done[cancel], done[-1]])


def reorder_cands() -> list[Any]:
    claims = {m.member_number: (f, e) for m, f, e in claim_cands(True)}
    out = []
    for m in MEMBERS:
        if m.member_number not in claims or m.account_status != "active":
            continue
        os = open_orders(m)
        if len(os) != 1 or date.fromisoformat(os[0].delivery_start) < CANCEL_CUTOFF:
            continue
        of = DB.fields[os[0].field_id]
        p = order_product(of)
        if p is None or any(x.sku == p.sku for x in os[0].lines):
            continue
        qty = 4 + int(m.member_number) % 9
        out.append((m, *claims[m.member_number], os[0], of, p, qty, TODAY + timedelta(days=12)))
    return out


def build() -> TaskWriter:
    B.run("sell_tickets", 5, sell_cands(), sell_tickets, train=1)
    B.run("lien_transfer", 4, lien_cands(), lien_transfer)
    B.run("late_storage", 4, late_storage_cands(), late_storage)
    B.run("sell_storage", 4, storage_cands(False), sell_storage, train=1)
    B.run("pledged_transfer", 3, storage_cands(True), pledged_transfer)
    B.run("spray", 4, spray_cands(True), lambda i, x: spray(i, x, True), train=1)
    B.run("spray_phi", 4, spray_cands(False), lambda i, x: spray(i, x, False))
    B.run("claim", 4, claim_cands(True), lambda i, x: claim(i, x, True))
    B.run("late_claim", 4, claim_cands(False), lambda i, x: claim(i, x, False))
    B.run("order", 4, order_cands(True), lambda i, x: order(i, x, True), train=1)
    B.run("over_credit", 4, order_cands(False), lambda i, x: order(i, x, False))
    B.run("cancel_late", 4, cancel_cands(), cancel_refused)
    B.run("harvest_day", 11, harvest_cands(), harvest_day)
    B.run("claim_reorder", 8, reorder_cands(), claim_and_reorder)
    return B.writer


if __name__ == "__main__":
    build().save()
