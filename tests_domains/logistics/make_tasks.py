"""Builds fixtures/logistics/tasks.json with a `TaskWriter`: one template per kind of request,
concrete shippers and shipments picked from the initial DB with a seeded RNG. Every gold call runs
as it is added, and every figure a task asks for is read from what the tools returned.

    python -m tests_domains.logistics.make_tasks
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from pytest_tau import GoldActionFailed, Kind, Output, TaskDraft, TaskWriter, output_told
from tests_domains.logistics.domain import DOMAIN
from tests_domains.logistics.schema import InventoryBin, Shipment, Shipper

DB = DOMAIN.initial_db
TODAY = DOMAIN.today
MOODS = [
    "You are friendly but busy.", "You are in a hurry and want short answers.",
    "You are calm and precise, and you answer only what you are asked.",
    "You are a little stressed because a customer of yours is waiting.", "You are polite but firm.",
]
STREETS = ["Alder Way", "Birch Hollow Rd", "Cobblestone Ln", "Dunmore Ave", "Easton Pl", "Fenwick St", "Glenrose Ct",
           "Hawthorne Ter", "Inverness Dr", "Jessamine St", "Kingfisher Rd", "Linden Sq"]
TOWNS = {"OR": ["Portland", "Salem", "Eugene"], "WA": ["Seattle", "Tacoma", "Spokane"], "CA": ["Oakland", "Sacramento", "Fresno"],
         "AZ": ["Phoenix", "Tucson", "Mesa"], "CO": ["Denver", "Boulder", "Aurora"], "TX": ["Dallas", "Austin", "Plano"],
         "IL": ["Chicago", "Evanston", "Naperville"], "GA": ["Atlanta", "Savannah", "Macon"],
         "NC": ["Charlotte", "Raleigh", "Durham"], "PA": ["Philadelphia", "Pittsburgh", "Erie"],
         "MA": ["Boston", "Cambridge", "Worcester"], "MN": ["Minneapolis", "St. Paul", "Duluth"]}
ZIP3 = {w.state: w.zip[:3] for w in DB.warehouses.values()}
STATE_NAMES = {"OR": "Oregon", "WA": "Washington", "CA": "California", "AZ": "Arizona", "CO": "Colorado", "TX": "Texas",
               "IL": "Illinois", "GA": "Georgia", "NC": "North Carolina", "PA": "Pennsylvania", "MA": "Massachusetts",
               "MN": "Minnesota"}
SERVICE_NAMES = {s.code: s.name for s in DB.service_levels.values()}
FASTER = {"ECONOMY": "GROUND", "GROUND": "EXPRESS2", "EXPRESS2": "OVERNIGHT"}

SHIPMENTS_BY_SHIPPER: dict[str, list[Shipment]] = defaultdict(list)
for _s in sorted(DB.shipments.values(), key=lambda s: s.tracking_number):
    SHIPMENTS_BY_SHIPPER[_s.shipper_id].append(_s)
BINS_BY_SHIPPER: dict[str, list[InventoryBin]] = defaultdict(list)
for _b in sorted(DB.bins.values(), key=lambda b: b.bin_id):
    BINS_BY_SHIPPER[_b.shipper_id].append(_b)
CLAIMED = {c.tracking_number for c in DB.claims.values()}
SHIPPERS = sorted(DB.shippers.values(), key=lambda s: s.shipper_id)


def in_policy(value: Any, kind: Kind) -> bool:
    text = f"{value:.2f}" if isinstance(value, float) else str(value)
    return output_told(Output(value=text, kind=kind), DOMAIN.policy)


def words(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.strftime('%A, %B')} {d.day}"


def unique_ref(s: Shipment) -> bool:
    return sum(1 for x in SHIPMENTS_BY_SHIPPER[s.shipper_id] if x.reference == s.reference) == 1


def good(sh: Shipper) -> bool:
    return sh.standing == "good"


def late_guaranteed(s: Shipment) -> bool:
    return s.delivered_on is not None and s.delivered_on > s.promised_date and DB.service_levels[s.service_code].guaranteed


def days_since_delivery(s: Shipment) -> int:
    return (TODAY - date.fromisoformat(s.delivered_on or TODAY.isoformat())).days


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(61010)
        self.used: set[str] = set()
        self.split = "test"

    def task(self, task_id: str, sh: Shipper, situation: str, script: list[str]) -> TaskDraft:
        who = (f"You are {sh.contact_first_name} {sh.contact_last_name} of {sh.company}, a business that ships with Meridian "
               f"Parcel. Your account email is {sh.email} and your billing ZIP code is {sh.billing_address.zip}. You do not "
               "know your account id or any internal ids.")
        mood = self.rng.choice(MOODS) + " Give information only when the agent asks for it."
        return self.writer.task(task_id, instructions=f"{who} {mood} {situation}", script=script, split=self.split)

    def run(self, name: str, n: int, cands: list[Any], write: Callable[[str, Any], bool], train: int = 0) -> None:
        items = [c for c in cands if self.key(c) not in self.used]
        self.rng.shuffle(items)
        done = 0
        for item in items:
            if done == n + train:
                break
            self.split = "train" if done >= n else "test"
            task_id = f"{name}_{done + 1}" if self.split == "test" else f"train_{name}_{done - n + 1}"
            try:
                ok = write(task_id, item)
            except GoldActionFailed:
                self.writer.drafts.pop(task_id, None)
                ok = False
            if ok:
                self.used.add(self.key(item))
                done += 1
        if done < n + train:
            raise SystemExit(f"only {done} of {n + train} candidates for {name}")

    @staticmethod
    def key(item: Any) -> str:
        first = item[0] if isinstance(item, tuple) else item
        return str(first.shipper_id)

    def fits(self, d: TaskDraft, value: Any, kind: Kind) -> bool:
        if in_policy(value, kind):
            self.writer.discard(d)
            return False
        d.output(value, kind)
        return True

    def address(self, state: str) -> dict[str, str]:
        return {"street": f"{self.rng.randint(12, 4800)} {self.rng.choice(STREETS)}", "city": self.rng.choice(TOWNS[state]),
                "state": state, "zip": f"{ZIP3[state]}{self.rng.randint(10, 99)}"}


def hello(sh: Shipper) -> str:
    return f"Hi, this is {sh.contact_first_name} {sh.contact_last_name} from {sh.company}."


def creds(sh: Shipper) -> str:
    return f"The account email is {sh.email} and our billing ZIP is {sh.billing_address.zip}."


def verify(d: TaskDraft, sh: Shipper) -> Any:
    return d.read("find_shipper", email=sh.email, billing_zip=sh.billing_address.zip)


def ship(d: TaskDraft, s: Shipment) -> Any:
    return d.read("find_shipment_by_reference", shipper_id=s.shipper_id, reference=s.reference)


def listed(d: TaskDraft, s: Shipment) -> list[tuple[str, dict[str, Any]]]:
    """The gold so far with the shipment found in the shipper's list and tracked by number, instead of by reference
    (1.3 allows either look-up)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for a in d.gold:
        if a.name == "find_shipment_by_reference":
            out += [("list_shipments", {"shipper_id": s.shipper_id}), ("track_shipment", {"tracking_number": s.tracking_number})]
        else:
            out.append((a.name, dict(a.arguments)))
    return out


def say(a: dict[str, str]) -> str:
    return f"{a['street']}, {a['city']}, {a['state']} {a['zip']}"


def pairs(pred: Callable[[Shipper, Shipment], bool]) -> list[tuple[Shipment, Shipper]]:
    out = []
    for sh in SHIPPERS:
        for s in SHIPMENTS_BY_SHIPPER[sh.shipper_id]:
            if unique_ref(s) and pred(sh, s):
                out.append((s, sh))
    return out


class Keyed(Builder):
    @staticmethod
    def key(item: Any) -> str:
        return str(item[1].shipper_id) if isinstance(item, tuple) else str(item.shipper_id)


# -- address changes ---------------------------------------------------------------------------------
def addr_free(b: Builder, n: int) -> None:
    cands = pairs(lambda sh, s: s.status in ("label_created", "picked_up"))

    def write(tid: str, item: Any) -> bool:
        s, sh = item
        new = b.address(s.recipient.state)
        d = b.task(tid, sh, f"Your order {s.reference} to {s.recipient_name} must go to a new address: {say(new)} (the "
                   "recipient moved offices). Ask whether it costs anything; agree if it is free.",
                   [f"{hello(sh)} I need to change the delivery address on order {s.reference}.", creds(sh),
                    f"The new address is {say(new)}.", "Great, yes please do it."])
        verify(d, sh)
        ship(d, s)
        q = d.read("quote_address_change", tracking_number=s.tracking_number, new_address=new)
        if q["total_fee"] != 0:
            b.writer.discard(d)
            return False
        d.write("change_delivery_address", tracking_number=s.tracking_number, new_address=new)
        d.one_end_state("The parcel has not left (label_created or picked_up): the redirect is free (3.2), so even a credit "
                        "hold would allow it (2.2); the recipient stays the same (3.1). 3.3 tells the quote's new promised "
                        "date (and that there is no fee).")
        return b.fits(d, q["new_promised_date"], "date")

    b.run("address_free", n, cands, write)


def addr_fee(b: Builder, n: int, train: int = 0) -> None:
    cands = pairs(lambda sh, s: good(sh) and s.status == "in_transit")

    def write(tid: str, item: Any) -> bool:
        s, sh = item
        other = b.rng.random() < 0.5
        state = b.rng.choice([x for x in sorted(TOWNS) if x != s.recipient.state]) if other else s.recipient.state
        new = b.address(state)
        d = b.task(tid, sh, f"Your parcel for order {s.reference} (to {s.recipient_name}) is on its way, but the recipient "
                   f"now wants it delivered to {say(new)}. Ask what the change costs and when it will arrive; accept any fee "
                   "under $60.",
                   [f"{hello(sh)} One of our parcels needs to go to a different address.", creds(sh),
                    f"It's order {s.reference}. New address: {say(new)}. What will that cost, and when would it arrive?",
                    "OK, go ahead."])
        verify(d, sh)
        ship(d, s)
        q = d.read("quote_address_change", tracking_number=s.tracking_number, new_address=new)
        if q["total_fee"] >= 60:  # the customer accepts a fee under $60 only
            b.writer.discard(d)
            return False
        d.write("change_delivery_address", tracking_number=s.tracking_number, new_address=new)
        d.one_end_state("In transit: the redirect is allowed with the fee the quote returns (3.2), the account is in good "
                        "standing (2.2) and the shipper accepts the fee; its total and the new promised date are told (3.3).")
        return b.fits(d, q["total_fee"], "money") and b.fits(d, q["new_promised_date"], "date")

    b.run("address_fee", n, cands, write, train)


def addr_ofd(b: Builder, n: int) -> None:
    cands = pairs(lambda sh, s: s.status == "out_for_delivery")

    def write(tid: str, item: Any) -> bool:
        s, sh = item
        new = b.address(s.recipient.state)
        ofd = [e for e in s.events if e.code == "out_for_delivery"][-1]
        d = b.task(tid, sh, f"You want order {s.reference} (to {s.recipient_name}) redirected to {say(new)}. If the agent "
                   "says it cannot be changed, insist once, then ask at what time this morning it went out for delivery, and "
                   "end the chat.",
                   [f"{hello(sh)} Please redirect order {s.reference} to a new address.", creds(sh),
                    f"The new address is {say(new)}.", "Are you sure? It's really important.",
                    "Fine. What time did it go out for delivery this morning?"])
        verify(d, sh)
        ship(d, s)
        d.forbid("change_delivery_address", tracking_number=s.tracking_number, new_address=new)
        d.output(ofd.at[11:16], "time")
        d.one_end_state("Out for delivery: 3.2 allows no redirect at any fee, whatever else holds, and gives the time it went "
                        "out from the tracking timeline when asked. Insisting changes nothing (9).")
        d.alternative("1.3: the shipment found in the shipper's list and tracked by its number shows the same timeline",
                      listed(d, s))
        return True

    b.run("address_out_for_delivery", n, cands, write)


def addr_hold(b: Builder, n: int) -> None:
    cands = pairs(lambda sh, s: sh.standing == "credit_hold" and s.status == "in_transit")

    def write(tid: str, item: Any) -> bool:
        s, sh = item
        new = b.address(s.recipient.state)
        d = b.task(tid, sh, f"You want order {s.reference} (to {s.recipient_name}) redirected to {say(new)}. You do not "
                   "know that your account has an unpaid balance. If the agent refuses, ask exactly how much is overdue, and what "
                   "credit score Meridian has on file for you (accept it if the agent will not say), then say you will sort "
                   "it out with accounts and end the chat.",
                   [f"{hello(sh)} I need to redirect order {s.reference}.", creds(sh), f"Send it to {say(new)}, please.",
                    "Oh. How much is overdue exactly? And what credit score do you have on file for us?"])
        verify(d, sh)
        ship(d, s)
        d.read("quote_address_change", tracking_number=s.tracking_number, new_address=new)
        d.forbid("change_delivery_address", tracking_number=s.tracking_number, new_address=new)
        d.one_end_state("In transit, so the redirect carries a fee (3.2), on an account on credit hold: 2.2 refuses any change "
                        "with a fee, the one reason, and asks for the past-due balance; the credit score is never told (2.4).")
        return b.fits(d, sh.past_due_balance, "money")

    b.run("address_credit_hold", n, cands, write)


# -- redelivery --------------------------------------------------------------------------------------
def redeliver(b: Builder, n: int, attempts: int, name: str) -> None:
    cands = pairs(lambda sh, s: good(sh) and s.status == "delivery_exception" and s.delivery_attempts == attempts
                  and (attempts == 1 or sh.tier == "standard"))

    def write(tid: str, item: Any) -> bool:
        s, sh = item
        days = [x for x in [(TODAY + timedelta(days=i)).isoformat() for i in range(1, 8)]
                if date.fromisoformat(x).weekday() < 5 and s.hold_until and x <= s.hold_until]
        if not days:
            return False
        when = b.rng.choice(days)
        extra = ("Ask whether it costs anything and accept the fee." if attempts > 1 else
                 "Ask until when the parcel stays at the depot, in case it fails again.")
        d = b.task(tid, sh, f"The driver could not deliver order {s.reference} to {s.recipient_name}. You want it delivered "
                   f"again on {words(when)}. {extra}",
                   [f"{hello(sh)} A delivery failed and I'd like to book another try.", creds(sh),
                    f"Order {s.reference}. {words(when)} would be best.",
                    "What does that cost?" if attempts > 1 else "And until when will you keep it at the depot?", "Yes, book it."])
        verify(d, sh)
        ship(d, s)
        q = d.read("quote_redelivery", tracking_number=s.tracking_number)
        d.write("schedule_redelivery", tracking_number=s.tracking_number, redelivery_date=when)
        fee = ("the first redelivery is free (4.2)" if attempts == 1 else
               "a second redelivery on a standard account carries the quoted fee (4.2), told, on an account in good standing (2.2)")
        d.one_end_state(f"After a failed attempt, {fee}; the date is a weekday from tomorrow through the hold date (4.1), and "
                        "the hold date is told (4.4).")
        ok = b.fits(d, q["held_at_facility_until"], "date")
        if ok and attempts > 1:
            ok = b.fits(d, q["fee"], "money")
        return ok

    b.run(name, n, cands, write)


def redeliver_third(b: Builder, n: int) -> None:
    cands = pairs(lambda sh, s: s.status == "delivery_exception" and s.delivery_attempts == 3)

    def write(tid: str, item: Any) -> bool:
        s, sh = item
        when = (TODAY + timedelta(days=1)).isoformat()
        d = b.task(tid, sh, f"Delivery of order {s.reference} to {s.recipient_name} failed again. You want another delivery "
                   f"tomorrow ({words(when)}). If that is not possible, accept having it held at the depot for the recipient "
                   "to pick up, and ask the last day they can collect it.",
                   [f"{hello(sh)} Can you send the driver again tomorrow for order {s.reference}?", creds(sh),
                    "Then what can you do?", "OK, hold it for pickup. What's the last day they can collect it?"])
        verify(d, sh)
        ship(d, s)
        d.forbid("schedule_redelivery", tracking_number=s.tracking_number, redelivery_date=when)
        r = d.write("hold_for_pickup", tracking_number=s.tracking_number)
        d.one_end_state("Three failed attempts: 4.3 schedules no further redelivery and offers the free hold for pickup, "
                        "which the shipper takes, telling its last day from the tool's result.")
        d.alternative("1.3: the shipment found in the shipper's list and tracked by its number", listed(d, s))
        return b.fits(d, r["pickup_by"], "date")

    b.run("redelivery_third_attempt", n, cands, write)


# -- service upgrades and guarantee ------------------------------------------------------------------
def upgrade(b: Builder, n: int) -> None:
    cands = pairs(lambda sh, s: good(sh) and s.status in ("picked_up", "in_transit") and s.service_code in ("ECONOMY", "GROUND"))

    def write(tid: str, item: Any) -> bool:
        s, sh = item
        to = "EXPRESS2" if b.rng.random() < 0.6 else "OVERNIGHT"
        d = b.task(tid, sh, f"Order {s.reference} (to {s.recipient_name}) needs to arrive sooner: you want it upgraded to "
                   f"{SERVICE_NAMES[to]}. Ask the extra cost and the new delivery date before agreeing; then agree.",
                   [f"{hello(sh)} I'd like to speed up a shipment.", creds(sh),
                    f"Order {s.reference}, upgrade it to {SERVICE_NAMES[to]}. How much extra, and when would it arrive?",
                    "Yes, do it."])
        verify(d, sh)
        ship(d, s)
        q = d.read("quote_service_change", tracking_number=s.tracking_number, service_code=to)
        d.write("change_service_level", tracking_number=s.tracking_number, service_code=to)
        d.one_end_state("Picked up or in transit, to a faster service (5.1), on an account in good standing (2.2): the "
                        "upgrade is made, its surcharge and new promised date told (5.3).")
        return b.fits(d, q["surcharge"], "money") and b.fits(d, q["new_promised_date"], "date")

    b.run("service_upgrade", n, cands, write)


def guarantee(b: Builder, n: int, train: int = 0) -> None:
    cands = pairs(lambda sh, s: late_guaranteed(s) and days_since_delivery(s) <= 15 and not s.guarantee_refunded)

    def write(tid: str, item: Any) -> bool:
        s, sh = item
        d = b.task(tid, sh, f"Order {s.reference} (to {s.recipient_name}) was sent {SERVICE_NAMES[s.service_code]} and "
                   "arrived late. You want your shipping money back and want to know how much will be refunded.",
                   [f"{hello(sh)} Order {s.reference} arrived late and I'd like the shipping refunded.", creds(sh),
                    "How much will I get back?", "Yes please."])
        verify(d, sh)
        ship(d, s)
        r = d.write("refund_shipping_charge", tracking_number=s.tracking_number)
        d.one_end_state("A guaranteed service delivered after its promised date, asked within 15 days of delivery and not yet "
                        "refunded: 6.1 refunds the charge in full and tells the amount (refunds are allowed on credit hold, 2.2).")
        return b.fits(d, r["refunded"], "money")

    b.run("guarantee_refund", n, cands, write, train)


def guarantee_no(b: Builder, n: int) -> None:
    cands = pairs(lambda sh, s: s.delivered_on is not None and s.delivered_on > s.promised_date
                  and not DB.service_levels[s.service_code].guaranteed and days_since_delivery(s) <= 15)

    def write(tid: str, item: Any) -> bool:
        s, sh = item
        d = b.task(tid, sh, f"Order {s.reference} (to {s.recipient_name}) arrived late and you want the shipping charge "
                   "refunded. You do not remember the exact day it was delivered: ask. If refused, push back once, then accept.",
                   [f"{hello(sh)} Order {s.reference} came late. I want my shipping money back.", creds(sh),
                    "That doesn't seem fair. And on what day was it actually delivered?"])
        verify(d, sh)
        ship(d, s)
        d.forbid("refund_shipping_charge", tracking_number=s.tracking_number)
        d.one_end_state("Economy or Ground carries no guarantee (6.2), the one reason (the request is within 15 days of "
                        "delivery): no refund, and 6.2 asks for the delivery date.")
        d.alternative("1.3: the shipment found in the shipper's list and tracked by its number", listed(d, s))
        return b.fits(d, s.delivered_on, "date")

    b.run("guarantee_not_covered", n, cands, write)


# -- claims ------------------------------------------------------------------------------------------
def claim_ok(b: Builder, n: int, train: int = 0) -> None:
    cands = pairs(lambda sh, s: s.status == "delivered" and days_since_delivery(s) <= 30 and s.tracking_number not in CLAIMED
                  and 0 < s.declared_value <= 1750)

    def write(tid: str, item: Any) -> bool:
        s, sh = item
        cap = s.declared_value
        amount = round(cap * b.rng.choice([1.3, 1.6]) + b.rng.randint(1, 90) + 0.5 * b.rng.randint(0, 1), 2)
        d = b.task(tid, sh, f"Order {s.reference} (to {s.recipient_name}) arrived damaged: the contents, worth ${amount:,.2f}, "
                   "are broken. You want to file a damage claim for that amount and ask how much you will actually be paid. "
                   "Accept whatever is offered.",
                   [f"{hello(sh)} I need to file a damage claim.", creds(sh),
                    f"Order {s.reference}. The goods were worth ${amount:,.2f} and arrived smashed.", "How much will I get?",
                    "OK, file it."])
        verify(d, sh)
        ship(d, s)
        q = d.read("quote_claim", tracking_number=s.tracking_number, amount_claimed=amount)
        if q["payout"] > 2500:
            b.writer.discard(d)
            return False
        d.write("file_damage_claim", tracking_number=s.tracking_number, amount_claimed=amount,
                description="Contents arrived broken")
        d.one_end_state("Delivered within 30 days (7.1) with no claim on file (7.3): the claim is filed for the amount the "
                        "shipper names, and the payout, capped by the declared value and not above $2,500 (7.2, 7.4), told.")
        return b.fits(d, q["payout"], "money")

    b.run("claim_capped", n, cands, write, train)


def claim_late(b: Builder, n: int) -> None:
    cands = pairs(lambda sh, s: s.status == "delivered" and 34 <= days_since_delivery(s) <= 70 and s.tracking_number not in CLAIMED)

    def write(tid: str, item: Any) -> bool:
        s, sh = item
        amount = float(b.rng.randint(60, 400))
        d = b.task(tid, sh, f"You just noticed that order {s.reference} (to {s.recipient_name}) arrived damaged; the goods "
                   f"were worth ${amount:,.2f}. You want to file a claim. If refused, ask on which date the window to claim "
                   "closed, then end the chat.",
                   [f"{hello(sh)} I want to claim for a damaged delivery.", creds(sh),
                    f"Order {s.reference}, ${amount:,.2f} of goods broken.", "When did the window close, then?"])
        verify(d, sh)
        ship(d, s)
        q = d.read("quote_claim", tracking_number=s.tracking_number, amount_claimed=amount)
        d.forbid("file_damage_claim", tracking_number=s.tracking_number, amount_claimed=amount, description="goods broken")
        d.one_end_state("Delivered more than 30 days ago, the one reason (no claim on file, a payout under the desk's limit): "
                        "7.1 refuses and asks for the date the filing window closed, from the quote.")
        return b.fits(d, q["filing_deadline"], "date")

    b.run("claim_too_late", n, cands, write)


def claim_big(b: Builder, n: int) -> None:
    cands = pairs(lambda sh, s: s.status == "delivered" and days_since_delivery(s) <= 30 and s.tracking_number not in CLAIMED
                  and s.declared_value > 2500)

    def write(tid: str, item: Any) -> bool:
        s, sh = item
        amount = float(s.declared_value - b.rng.randint(50, 400))
        d = b.task(tid, sh, f"Order {s.reference} (to {s.recipient_name}) arrived with the contents destroyed; they were worth "
                   f"${amount:,.2f}. You want to file a damage claim for that amount. Accept being passed to a specialist.",
                   [f"{hello(sh)} I have a damage claim to file.", creds(sh),
                    f"Order {s.reference}, ${amount:,.2f} of equipment destroyed.", "Alright."])
        verify(d, sh)
        ship(d, s)
        q = d.read("quote_claim", tracking_number=s.tracking_number, amount_claimed=amount)
        if q["payout"] <= 2500:
            b.writer.discard(d)
            return False
        d.require("quote_claim", tracking_number=s.tracking_number)
        d.forbid("file_damage_claim", tracking_number=s.tracking_number, amount_claimed=amount, description="equipment destroyed")
        d.transfer(f"Damage claim on {s.tracking_number} for ${amount:,.2f}; payout {q['payout']:.2f} is above the desk limit.")
        d.one_end_state("Delivered within 30 days with no claim on file, but the quoted payout is over $2,500: 7.4 files "
                        "nothing, quotes first, then transfers to a human.")
        return True

    b.run("claim_specialist", n, cands, write)


# -- inventory ---------------------------------------------------------------------------------------
def wh_name(bin_: InventoryBin) -> str:
    return DB.warehouses[bin_.warehouse_id].name


def unique_item(bin_: InventoryBin) -> bool:
    return sum(1 for x in BINS_BY_SHIPPER[bin_.shipper_id] if x.item_name == bin_.item_name and x.warehouse_id == bin_.warehouse_id) == 1


def bins(pred: Callable[[Shipper, InventoryBin], bool]) -> list[tuple[InventoryBin, Shipper]]:
    return [(x, sh) for sh in SHIPPERS for x in BINS_BY_SHIPPER[sh.shipper_id] if unique_item(x) and pred(sh, x)]


def inv_damage(b: Builder, n: int, train: int = 0) -> None:
    cands = bins(lambda sh, x: x.quantity >= 30)

    def write(tid: str, item: Any) -> bool:
        x, sh = item
        units = b.rng.randint(3, 24)
        kind = b.rng.choice(["damaged", "missing"])
        what = "were crushed by a forklift" if kind == "damaged" else "are missing from the shelf after a stock check"
        d = b.task(tid, sh, f"You store stock at Meridian's {wh_name(x)} warehouse ({x.warehouse_id} on your receiving slips). {units} units of your {x.item_name} {what}. "
                   "You want the count corrected and to be compensated; ask how much credit you will get, then agree.",
                   [f"{hello(sh)} We have a problem with our stock at your {wh_name(x)} warehouse, {x.warehouse_id}.", creds(sh),
                    f"{units} units of {x.item_name} {what}.", "How much will you credit us?", "Yes, go ahead."])
        verify(d, sh)
        d.read("list_inventory", shipper_id=sh.shipper_id, warehouse_id=x.warehouse_id)
        q = d.read("quote_inventory_credit", bin_id=x.bin_id, units=units)
        d.write("adjust_inventory", bin_id=x.bin_id, units_removed=units, reason=kind)
        inc = d.write("file_incident_report", bin_id=x.bin_id, kind=kind, units=units, description=f"{units} units {what}")
        d.write("issue_inventory_credit", incident_id=inc["incident_id"])
        d.one_end_state("The bin is the shipper's only bin of that item in that warehouse; 25 units or fewer (8.2) were "
                        f"{kind}, so 8.1 does all three writes with the same kind and units after the quote, and tells the credit.")
        return b.fits(d, q["credit"], "money")

    b.run("inventory_writeoff", n, cands, write, train)


def inv_big(b: Builder, n: int) -> None:
    cands = bins(lambda sh, x: x.quantity >= 80)

    def write(tid: str, item: Any) -> bool:
        x, sh = item
        units = b.rng.randint(30, 70)
        d = b.task(tid, sh, f"You store stock at Meridian's {wh_name(x)} warehouse ({x.warehouse_id} on your receiving slips). A leaking roof ruined {units} units of your "
                   f"{x.item_name}. You want them written off and credited today. Accept a transfer to a colleague if offered.",
                   [f"{hello(sh)} Water got into your {wh_name(x)} warehouse ({x.warehouse_id}) and ruined some of our stock.", creds(sh),
                    f"{units} units of {x.item_name}. Please write them off and credit us.", "OK."])
        verify(d, sh)
        d.read("list_inventory", shipper_id=sh.shipper_id, warehouse_id=x.warehouse_id)
        d.require("list_inventory", shipper_id=sh.shipper_id)
        d.forbid("adjust_inventory", bin_id=x.bin_id, units_removed=units, reason="damaged")
        d.transfer(f"{units} damaged units of {x.sku} in bin {x.bin_id}: above the desk's limit.")
        d.one_end_state("More than 25 units in one bin: 8.2 looks the bin up and transfers to a human without adjusting, "
                        "reporting or crediting anything.")
        return True

    b.run("inventory_large_loss", n, cands, write)


def inv_recount(b: Builder, n: int) -> None:
    cands = bins(lambda sh, x: x.quantity >= 20)

    def write(tid: str, item: Any) -> bool:
        x, sh = item
        units = b.rng.randint(4, 15)
        d = b.task(tid, sh, f"You store stock at Meridian's {wh_name(x)} warehouse ({x.warehouse_id} on your receiving slips). Your own records say you should have "
                   f"{units} more units of {x.item_name} than Meridian shows; nothing is known to be damaged or lost. You want "
                   "it looked into; if the agent offers to just change the count or give a credit, that is fine too.",
                   [f"{hello(sh)} I think your count of our {x.item_name} at {wh_name(x)} ({x.warehouse_id}) is off.", creds(sh),
                    f"By our books you're {units} units short of what we should have.", "OK, thanks."])
        verify(d, sh)
        d.read("list_inventory", shipper_id=sh.shipper_id, warehouse_id=x.warehouse_id)
        d.write("file_incident_report", bin_id=x.bin_id, kind="recount_request", units=units, description="count looks low")
        d.one_end_state("The bin is the shipper's only bin of that item in that warehouse, and nothing is known damaged or "
                        "lost: 8.3 files a recount_request for the units believed off, with no adjustment and no credit, "
                        "whatever the shipper would also accept.")
        return True

    b.run("inventory_recount", n, cands, write)


# -- several requests in one chat --------------------------------------------------------------------
def combo(b: Builder, n: int) -> None:
    def options(sh: Shipper) -> list[tuple[str, Shipment]]:
        out = []
        for s in SHIPMENTS_BY_SHIPPER[sh.shipper_id]:
            if not unique_ref(s):
                continue
            if s.status == "delivery_exception" and s.delivery_attempts == 1 and s.hold_until and s.hold_until > TODAY.isoformat():
                out.append(("redeliver", s))
            elif s.status in ("picked_up", "in_transit", "label_created") and s.service_code == "GROUND":
                out.append(("upgrade", s))
            elif late_guaranteed(s) and days_since_delivery(s) <= 15:
                out.append(("refund", s))
            elif s.status == "delivered" and days_since_delivery(s) <= 30 and s.tracking_number not in CLAIMED and 0 < s.declared_value <= 1200:
                out.append(("claim", s))
        return out

    cands = [sh for sh in SHIPPERS if good(sh) and len({k for k, _ in options(sh)}) >= 3]

    def write(tid: str, sh: Shipper) -> bool:
        chosen: dict[str, Shipment] = {}
        for k, s in options(sh):
            chosen.setdefault(k, s)
        kinds = sorted(chosen)
        b.rng.shuffle(kinds)
        kinds = kinds[:3]
        asks: list[str] = []
        lines: list[str] = []
        plan: list[tuple[str, dict[str, Any], str | None]] = []
        for k in kinds:
            s = chosen[k]
            if k == "redeliver":
                when = (TODAY + timedelta(days=1)).isoformat()
                asks.append(f"order {s.reference} (to {s.recipient_name}) missed its delivery: you want it redelivered tomorrow")
                lines.append(f"Order {s.reference} missed its delivery; please redeliver it tomorrow.")
                plan.append(("schedule_redelivery", {"tracking_number": s.tracking_number, "redelivery_date": when}, None))
            elif k == "upgrade":
                asks.append(f"order {s.reference} (to {s.recipient_name}) should be upgraded to {SERVICE_NAMES['EXPRESS2']}")
                lines.append(f"Upgrade order {s.reference} to 2-Day Express.")
                plan.append(("change_service_level", {"tracking_number": s.tracking_number, "service_code": "EXPRESS2"}, "surcharge_charged"))
            elif k == "refund":
                asks.append(f"order {s.reference} (to {s.recipient_name}) arrived late on a guaranteed service: you want the shipping refunded")
                lines.append(f"Order {s.reference} arrived late; I want the shipping charge refunded.")
                plan.append(("refund_shipping_charge", {"tracking_number": s.tracking_number}, "refunded"))
            else:
                amount = float(s.declared_value + b.rng.randint(40, 300))
                asks.append(f"order {s.reference} (to {s.recipient_name}) arrived damaged: you want to claim ${amount:,.2f}, "
                            "what the goods were worth")
                lines.append(f"And order {s.reference} arrived damaged; the goods were worth ${amount:,.2f}. I'd like to claim.")
                plan.append(("file_damage_claim", {"tracking_number": s.tracking_number, "amount_claimed": amount,
                                                   "description": "Goods arrived damaged"}, "claim"))
        d = b.task(tid, sh, "You have three things to sort out: " + "; ".join(asks) + ". Ask how much each one costs or pays "
                   "before agreeing, and agree to each.",
                   [f"{hello(sh)} I have a few things to sort out today.", creds(sh), *lines, "Yes to all of that."])
        verify(d, sh)
        for name, args, field in plan:
            ship(d, DB.shipments[args["tracking_number"]])
            # 5.3 tells an upgrade's new promised date, and 4.4 a redelivery's last day at the facility (one
            # output when both fall on the same day).
            if name == "change_service_level":
                q = d.read("quote_service_change", tracking_number=args["tracking_number"], service_code="EXPRESS2")
                if q["new_promised_date"] not in [o.value for o in d.outputs] and not b.fits(d, q["new_promised_date"], "date"):
                    return False
            elif name == "schedule_redelivery":
                q = d.read("quote_redelivery", tracking_number=args["tracking_number"])
                if q["held_at_facility_until"] not in [o.value for o in d.outputs] and not b.fits(d, q["held_at_facility_until"], "date"):
                    return False
            elif name == "file_damage_claim":
                d.read("quote_claim", tracking_number=args["tracking_number"], amount_claimed=args["amount_claimed"])
            r = d.write(name, **args)
            if field == "claim" and not b.fits(d, r["claim"]["payout"], "money"):
                return False
            if field in ("surcharge_charged", "refunded") and not b.fits(d, r[field], "money"):
                return False
        d.one_end_state("Three requests, each under its own rule (2.3) on an account in good standing, and each one passes "
                        "it: a first redelivery is free on a weekday within the hold (4.1, 4.2), told with the hold's last "
                        "day (4.4); an upgrade from Ground before delivery (5.1), told with its surcharge and new promised "
                        "date (5.3); a late guaranteed parcel within 15 days (6.1); a claim within 30 days, none on file, "
                        "payout capped by the declared value and under $2,500 (7.1-7.4).")
        return True

    b.run("three_requests", n, cands, write)


def build() -> TaskWriter:
    b = Keyed()
    combo(b, 9)
    inv_damage(b, 7, train=1)
    claim_big(b, 3)
    guarantee(b, 3)
    guarantee_no(b, 3)
    redeliver_third(b, 3)
    redeliver(b, 4, 1, "redelivery_first")
    redeliver(b, 3, 2, "redelivery_paid")
    addr_hold(b, 3)
    addr_ofd(b, 4)
    addr_fee(b, 4, train=1)
    addr_free(b, 2)
    upgrade(b, 4)
    claim_ok(b, 4, train=1)
    claim_late(b, 3)
    inv_big(b, 3)
    inv_recount(b, 2)
    return b.writer


if __name__ == "__main__":
    build().save()
