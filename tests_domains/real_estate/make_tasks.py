"""Builds fixtures/real_estate/tasks.json from the DB: `python -m tests_domains.real_estate.make_tasks`.

`build()` returns a `TaskWriter`. Each template picks a client and records from the DB (sorted candidates, a seeded
choice) and runs its gold calls as it writes them; every figure or date a task requires is read from what the tools
returned (quote and preview tools, the tour calendar), never computed here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pytest_tau import Kind, Output, TaskDraft, TaskWriter, output_told
from tests_domains.real_estate.domain import DOMAIN, search_listings
from tests_domains.real_estate.schema import Client, Lease, Listing, Offer

DB = DOMAIN.initial_db
NOW = DOMAIN.now
TODAY = DOMAIN.today.isoformat()
MOODS = ["You are friendly and a little hurried; you are calling on your lunch break.",
         "You are calm and careful, and you like to hear figures twice.",
         "You are chatty and warm.", "You are direct and answer only what you are asked.",
         "You are a bit anxious about getting this right.", "You are upbeat and easygoing."]
SAFE = {"active"}


def spoken_date(iso: str) -> str:
    d = date.fromisoformat(iso[:10])
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def day_name(iso: str) -> str:
    d = date.fromisoformat(iso[:10])
    return f"{d.strftime('%A, %B')} {d.day}"


def money(value: float) -> str:
    return f"${value:,.0f}" if float(value).is_integer() else f"${value:,.2f}"


def addr(lst: Listing) -> str:
    return f"{lst.street}, {lst.unit}" if lst.unit else lst.street


def full(c: Client) -> str:
    return f"{c.first_name} {c.last_name}"


def notice_bound(lst: Listing) -> str:
    return (NOW + timedelta(hours=48 if lst.occupied else 24)).strftime("%Y-%m-%dT%H:%M")


def free_slots(lst: Listing, not_before: str) -> list[str]:
    return sorted(s for s in DB.agents[lst.listing_agent_id].free_slots if s >= not_before)


def scheduled(c: Client) -> list[Any]:
    return sorted((t for t in DB.tours.where(client_id=c.client_id) if t.status == "scheduled"), key=lambda t: t.tour_id)


def pending_apps(c: Client) -> list[Any]:
    return [a for a in DB.applications.where(client_id=c.client_id) if a.status == "pending"]


def leases_of(c: Client) -> list[Lease]:
    return [x for x in DB.leases.values() if c.client_id in (x.primary_tenant_id, *x.co_tenant_ids)]


def open_categories(lease: Lease) -> set[str]:
    return {r.category for r in DB.maintenance_requests.where(lease_id=lease.lease_id) if r.status in ("open", "scheduled")}


def in_policy(value: float) -> bool:
    """Whether a ratio is said in the policy text (a section number, a threshold): it cannot be a required output."""
    return output_told(Output(value=f"{value:g}", kind="number"), DOMAIN.policy)


def unique_address(lst: Listing) -> bool:
    return len([x for x in DB.listings.find(street=lst.street)]) == 1


def valid_preapproval(c: Client, price: float) -> bool:
    return c.preapproval is not None and c.preapproval.expires_on >= TODAY and c.preapproval.amount >= price


def rentable(lst: Listing) -> bool:
    return (lst.kind == "rental" and lst.status == "active" and unique_address(lst) and lst.available_from is not None
            and lst.available_from > TODAY)


def pets_ok(c: Client, lst: Listing) -> bool:
    allowed = {"no_pets": set(), "cats_only": {"cat"}, "cats_and_dogs": {"cat", "dog"}}[lst.pet_policy or "no_pets"]
    return set(c.pets_on_file) <= allowed


def pets_text(c: Client) -> str:
    pets = sorted(c.pets_on_file)
    if not pets:
        return "You have no pets."
    names = {"cat": "cat", "dog": "dog"}
    counts = {p: pets.count(p) for p in set(pets)}
    parts = [f"{'a' if n == 1 else 'two'} {names[p]}{'' if n == 1 else 's'}" for p, n in sorted(counts.items())]
    return f"You have {' and '.join(parts)}, and they will live with you."


def steps(d: TaskDraft) -> list[tuple[str, dict[str, Any]]]:
    """The gold calls so far, as the steps of another path to edit."""
    return [(a.name, dict(a.arguments)) for a in d.gold]


def moved(path: list[tuple[str, dict[str, Any]]], names: tuple[str, ...]) -> list[tuple[str, dict[str, Any]]]:
    """The same steps with every call named in `names` moved to the end, in their order."""
    return [x for x in path if x[0] not in names] + [x for x in path if x[0] in names]


SCREENED = ("the ratio is at least 2.50, the credit score at least 620 and there is no eviction (5.2), every pet on file "
            "is allowed (5.4), the move-in is the listing's available-from date (5.5), and the deposit is one month's "
            "rent (5.3); the ratio and the deposit are told before the submission (5.1, 5.3)")


def application_told(d: TaskDraft, preview: dict[str, Any]) -> None:
    """5.1 and 5.3 tell the income-to-rent ratio and the deposit before an application is submitted."""
    d.output(preview["income_to_rent_ratio"], "number")
    d.output(preview["security_deposit"], "money")


def tour_told(d: TaskDraft, slot: dict[str, Any]) -> None:
    """4.1 tells a booked tour's date and time; a value another tour of the task already shares is one output."""
    told: list[tuple[str, Kind]] = [(slot["date"], "date"), (slot["start"][11:], "time")]
    for value, kind in told:
        if Output(value=value, kind=kind) not in d.outputs:
            d.output(value, kind)


class Builder:
    def __init__(self) -> None:
        self.rng = random.Random(61026)
        self.writer = TaskWriter(DOMAIN)
        self.used: set[str] = set()
        self.used_listings: set[str] = set()
        self.count: dict[str, int] = {}

    def pick(self, cands: list[Any]) -> Any:
        if not cands:
            raise RuntimeError("no candidate")
        return self.rng.choice(cands)

    def shuffled(self, items: list[Any]) -> list[Any]:
        self.rng.shuffle(items)
        return items

    def clients(self, pred: Callable[[Client], bool]) -> list[Client]:
        return [c for k, c in sorted(DB.clients.items()) if k not in self.used and pred(c)]

    def listings(self, pred: Callable[[Listing], bool]) -> list[Listing]:
        return [x for k, x in sorted(DB.listings.items()) if k not in self.used_listings and pred(x)]

    def task(self, kind: str, c: Client, text: str, script: list[str], split: str = "test", ordered: bool = False) -> TaskDraft:
        self.count[kind] = self.count.get(kind, 0) + 1
        self.used.add(c.client_id)
        mood = MOODS[len(self.writer.drafts) % len(MOODS)]
        return self.writer.task(f"{kind}_{self.count[kind]}", split=split, ordered=ordered, script=script,
                                instructions=f"{text} {mood} Give information only when the agent asks for it.")

    def who(self, c: Client, reference: str | None = None) -> tuple[str, str, tuple[str, dict[str, str]]]:
        """How the client introduces themselves: email and birth date, or a reference number and their name."""
        if reference and len(self.writer.drafts) % 2 == 1:
            kind = {"LS": "lease number", "OF": "offer number", "AP": "application number"}[reference[:2]]
            text = f"You are {full(c)}. Your {kind} is {reference}."
            line = f"My name is {full(c)} and my {kind} is {reference}."
            return text, line, ("find_client_by_reference", {"reference": reference, "full_name": full(c)})
        text = f"You are {full(c)}. The email on your file is {c.email} and you were born on {spoken_date(c.date_of_birth)}."
        line = f"It's {c.email}, and my date of birth is {spoken_date(c.date_of_birth)}."
        return text, line, ("find_client_by_email", {"email": c.email, "date_of_birth": c.date_of_birth})

    @staticmethod
    def auth(d: TaskDraft, auth: tuple[str, dict[str, str]], required: bool = False) -> Any:
        if required:
            d.require(auth[0], **auth[1])
        return d.read(auth[0], **auth[1])

    # ================================================================== tours
    def tour_earliest(self, occupied: bool, split: str = "test") -> None:
        lst = self.pick(self.listings(lambda x: x.kind == "rental" and x.status == "active" and x.occupied == occupied
                                      and unique_address(x) and len(free_slots(x, notice_bound(x))) > 0
                                      and any(s < notice_bound(x) and s >= (NOW + timedelta(hours=24 if occupied else 2)).strftime("%Y-%m-%dT%H:%M") for s in DB.agents[x.listing_agent_id].free_slots)))
        self.used_listings.add(lst.listing_id)
        c = self.pick(self.clients(lambda c: not scheduled(c) and not leases_of(c)))
        text, line, auth = self.who(c)
        soon = sorted(s for s in DB.agents[lst.listing_agent_id].free_slots if s < notice_bound(lst)
                      and s >= (NOW + timedelta(hours=24 if occupied else 2)).strftime("%Y-%m-%dT%H:%M"))[0]
        ask = "tomorrow, Thursday" if soon[:10] == "2026-06-11" else "today"
        d = self.task("tour_earliest", c, f"{text} You want to see the rental at {addr(lst)} ({lst.city}) as soon as possible. "
                      f"Ask first whether you could see it {ask}. If the agent explains that is too soon, accept the earliest "
                      "time they can offer, and make sure you hear the day and time. Confirm when the agent asks.",
                      [f"Hi, I'd like to tour the apartment at {addr(lst)} — is {ask} possible?", line,
                       "Okay, then the earliest you can do.", "Yes, book it."], split)
        self.auth(d, auth)
        d.read("find_listing_by_address", street=lst.street, unit=lst.unit)
        d.read("get_listing", listing_id=lst.listing_id)
        slots = d.read("search_tour_slots", listing_id=lst.listing_id, not_before=notice_bound(lst))["slots"]
        d.write("book_tour", client_id=c.client_id, listing_id=lst.listing_id, start=slots[0]["start"])
        d.output(slots[0]["start"][11:], "time")
        d.output(slots[0]["date"], "date")
        d.forbid("book_tour", client_id=c.client_id, listing_id=lst.listing_id, start=soon)
        d.one_end_state("An active rental (3.2; rentals need no pre-approval, 4.3) and a client with no tours (4.4). The time "
                        f"first asked is inside the {'48' if occupied else '24'} hours' notice of 4.2, which then offers the "
                        "first free slot that meets it and says its date and time.")
        first, find, info, _, book = steps(d)
        d.alternative("4.2: the calendar read from now, to answer the time first asked, and the first slot past the notice "
                      "booked", [first, find, info, ("search_tour_slots", {"listing_id": lst.listing_id,
                                                                           "not_before": NOW.strftime("%Y-%m-%dT%H:%M")}), book])

    def tour_by_criteria(self) -> None:
        def unique_search(x: Listing) -> dict[str, Any] | None:
            if not (x.kind == "rental" and x.status == "active" and x.bedrooms >= 1 and unique_address(x)):
                return None
            feats = [f for f in sorted(x.features) if f in ("in_unit_laundry", "parking", "dishwasher", "central_air", "balcony", "yard")]
            if not feats:
                return None
            cap = float((int(x.price) // 100 + 1) * 100)
            crit: dict[str, Any] = {"kind": "rental", "neighborhood": x.neighborhood, "min_bedrooms": x.bedrooms, "max_price": cap,
                    "features": feats[:1]}
            res = search_listings(DB, **crit)
            return crit if res["total_matches"] == 1 else None

        cands = [x for x in self.listings(lambda x: True) if unique_search(x) and free_slots(x, notice_bound(x))]
        lst = self.pick(cands)
        self.used_listings.add(lst.listing_id)
        crit = unique_search(lst)
        assert crit is not None
        c = self.pick(self.clients(lambda c: not scheduled(c) and not leases_of(c)))
        text, line, auth = self.who(c)
        feat = crit["features"][0].replace("_", " ").replace("in unit", "in-unit")
        want = (f"a {lst.bedrooms}-bedroom rental (at least {lst.bedrooms} bedrooms) in {lst.neighborhood} for at most "
                f"{money(crit['max_price'])} a month, with {feat}")
        d = self.task("tour_by_criteria", c, f"{text} You are looking for {want}. You do not know any address. If the agent "
                      "finds exactly one place, you want to tour it at the earliest time they can offer; make sure you hear the "
                      "address, the day and the time. Confirm when the agent asks.",
                      [f"Hi! I'm looking for {want}. Anything like that?", line, "Great, I'd like the earliest tour you have.",
                       "Yes, please book it."])
        self.auth(d, auth)
        d.read("search_listings", **crit)
        d.read("get_listing", listing_id=lst.listing_id)
        slots = d.read("search_tour_slots", listing_id=lst.listing_id, not_before=notice_bound(lst))["slots"]
        d.write("book_tour", client_id=c.client_id, listing_id=lst.listing_id, start=slots[0]["start"])
        d.output(slots[0]["start"][11:], "time")
        d.output(slots[0]["date"], "date")
        d.one_end_state("Exactly one active listing fits every criterion the client names (3.1), a rental (no pre-approval, "
                        "4.3), and the client holds no tours (4.4): it is toured at the first free slot past the notice (4.2).")

    def tour_sale_expired(self) -> None:
        c = self.pick(self.clients(lambda c: c.preapproval is not None and c.preapproval.expires_on < TODAY and not c.proof_of_funds))
        lst = self.pick(self.listings(lambda x: x.kind == "sale" and x.status == "active" and unique_address(x)
                                      and bool(free_slots(x, notice_bound(x)))))
        self.used_listings.add(lst.listing_id)
        text, line, auth = self.who(c)
        first = free_slots(lst, notice_bound(lst))[0]
        d = self.task("tour_sale_no_preapproval", c, f"{text} You want to see the house for sale at {addr(lst)} in {lst.city} "
                      f"at the earliest time possible. You think your mortgage pre-approval from {c.preapproval.lender} "
                      "is still good, but you are not sure when it runs out; ask the agent when it expired if they bring it up. "
                      "If the agent cannot book, accept it and say you will get a new letter.",
                      [f"Hello, I'd like to see the house at {addr(lst)}.", line, "When did it run out?", "Alright, I'll get a new letter."])
        self.auth(d, auth)
        d.read("find_listing_by_address", street=lst.street, unit=lst.unit)
        d.read("get_listing", listing_id=lst.listing_id)
        assert c.preapproval is not None
        d.output(c.preapproval.expires_on, "date")
        d.forbid("book_tour", client_id=c.client_id, listing_id=lst.listing_id, start=first)
        d.one_end_state("A home for sale, and the client's pre-approval has expired with no proof of funds on file: 4.3 books "
                        "no tour, the one reason (the listing is active), and tells the date the pre-approval expired.")

    def tour_unavailable(self) -> None:
        lst = self.pick(self.listings(lambda x: x.status in ("pending", "leased") and unique_address(x)
                                      and bool(free_slots(x, notice_bound(x)))))
        self.used_listings.add(lst.listing_id)
        c = self.pick(self.clients(lambda c: not scheduled(c) and not leases_of(c) and (lst.kind == "rental" or valid_preapproval(c, lst.price))))
        text, line, auth = self.who(c)
        what = "house" if lst.kind == "sale" else "apartment"
        d = self.task("tour_unavailable", c, f"{text} A friend told you about the {what} at {addr(lst)} in {lst.city}; you "
                      "want to tour it this week or next. If it is not available, you want to reach the listing agent "
                      "directly in case it falls through, so ask for the agent's phone number. You do not want any other listing.",
                      [f"Hi, can I set up a tour of the {what} at {addr(lst)}?", line,
                       "Oh no. Could I get the listing agent's number, in case it falls through?", "Thanks, that's all."])
        self.auth(d, auth)
        d.read("find_listing_by_address", street=lst.street, unit=lst.unit)
        info = d.read("get_listing", listing_id=lst.listing_id)
        d.output(info["listing_agent"]["name"], "name")
        d.output(info["listing_agent"]["phone"], "phone")
        d.forbid("book_tour", client_id=c.client_id, listing_id=lst.listing_id, start=free_slots(lst, notice_bound(lst))[0])
        d.one_end_state("The listing is pending or leased: 3.2 allows no tour, the one reason (the client could tour it "
                        "otherwise), and gives the listing agent's name and phone number when the client asks.")

    def tours_multi(self) -> None:
        """Cancel one scheduled tour and book the earliest tours of two other rentals (distinct agents and times)."""
        def ok(c: Client) -> bool:
            s = scheduled(c)
            return len(s) == 1 and s[0].start > "2026-06-11" and not leases_of(c)
        c = self.pick(self.clients(ok))
        old = scheduled(c)[0]
        old_lst = DB.listings[old.listing_id]
        agents = {old.agent_id}
        picks: list[Listing] = []
        starts: list[str] = []
        for lst in self.shuffled(self.listings(lambda x: x.kind == "rental" and x.status == "active" and unique_address(x)
                                               and bool(free_slots(x, notice_bound(x))))):
            first = free_slots(lst, notice_bound(lst))[0]
            if lst.listing_agent_id in agents or any(abs((datetime.fromisoformat(first) - datetime.fromisoformat(s)).total_seconds()) < 7200 for s in starts):
                continue
            agents.add(lst.listing_agent_id)
            picks.append(lst)
            starts.append(first)
            if len(picks) == 2:
                break
        a, b = picks
        self.used_listings.update({a.listing_id, b.listing_id})
        text, line, auth = self.who(c)
        reason = self.rng.choice(["I found out it's too far from my job", "The rent is higher than I realised"])
        d = self.task("tours_reshuffle", c, f"{text} You have a tour booked of {addr(old_lst)} ({old_lst.city}) that you no "
                      f"longer want; when asked why, say exactly: '{reason}'. Instead you want to tour two other rentals, "
                      f"{addr(a)} ({a.city}) and {addr(b)} ({b.city}), each at the earliest time the agent can offer. "
                      "Make sure you hear both days and times. Confirm when the agent lists everything.",
                      ["Hi, I need to change my tours around.", line, f"Cancel the one at {addr(old_lst)}, please.", reason,
                       f"And book {addr(a)} and {addr(b)}, earliest you can.", "Yes, do all of that."])
        self.auth(d, auth)
        d.read("list_tours", client_id=c.client_id)
        d.write("cancel_tour", client_id=c.client_id, tour_id=old.tour_id, reason=reason)
        for lst in (a, b):
            d.read("find_listing_by_address", street=lst.street, unit=lst.unit)
            d.read("get_listing", listing_id=lst.listing_id)
            slots = d.read("search_tour_slots", listing_id=lst.listing_id, not_before=notice_bound(lst))["slots"]
            d.write("book_tour", client_id=c.client_id, listing_id=lst.listing_id, start=slots[0]["start"])
            tour_told(d, slots[0])
        d.one_end_state("The tour cancelled is the client's one scheduled tour, at the address named, with their reason "
                        "(4.5); each new tour is of an active rental at the first free slot past its notice (4.2), told by "
                        "its date and time (4.1), with another agent; the client never holds more than 3 tours (4.4).")
        d.alternative("4.4: the two tours booked before the old one is cancelled make 3 at most, the same end state",
                      moved(steps(d), ("cancel_tour",)))

    # ================================================================== applications
    def app_candidate(self, lo: float, hi: float, credit_ok: bool = True) -> tuple[Client, Listing]:
        lists = self.listings(rentable)
        self.rng.shuffle(lists)
        people = self.clients(lambda c: c.verified_monthly_income is not None and not c.eviction_record
                              and len(pending_apps(c)) == 0 and not leases_of(c) and len(scheduled(c)) <= 1
                              and c.credit_score is not None and (c.credit_score >= 620) == credit_ok)
        self.rng.shuffle(people)
        for c in people:
            for lst in lists:
                assert c.verified_monthly_income is not None
                ratio = round(c.verified_monthly_income / lst.price, 2)
                if lo <= ratio < hi and pets_ok(c, lst) and not in_policy(ratio):
                    self.used_listings.add(lst.listing_id)
                    return c, lst
        raise RuntimeError("no application candidate")

    def apply(self, variant: str) -> None:
        lo, hi = {"ok": (3.0, 9.0), "double": (2.5, 3.0), "low": (1.5, 2.5), "credit": (3.0, 9.0)}[variant]
        c, lst = self.app_candidate(lo, hi, credit_ok=variant != "credit")
        text, line, auth = self.who(c)
        assert lst.available_from is not None
        move_in = lst.available_from
        behave = {"ok": "You want to know your income-to-rent ratio and the deposit before you agree.",
                  "double": "You worry your income is borderline, so you offer to put down two months' rent as a deposit "
                            "to make the application stronger. If the agent explains it cannot take more than one month, "
                            "accept that, but make sure you hear the deposit amount.",
                  "low": "You are sure your income is enough. If the agent says you do not qualify, ask what your ratio came "
                         "out to, then thank them and end the call.",
                  "credit": "If the agent says you cannot apply, ask what score they see on file, then end the call politely."}[variant]
        d = self.task(f"apply_{variant}", c, f"{text} You want to apply for the rental at {addr(lst)} in {lst.city}, moving in "
                      f"on {spoken_date(move_in)}. {pets_text(c)} {behave} You accept the $50 fee. Confirm when the agent "
                      "summarizes the application.",
                      [f"Hi, I'd like to apply for the apartment at {addr(lst)}.", line, f"I'd move in {spoken_date(move_in)}.",
                       "Yes, submit it."])
        self.auth(d, auth)
        d.read("find_listing_by_address", street=lst.street, unit=lst.unit)
        prev = d.read("preview_application", client_id=c.client_id, listing_id=lst.listing_id)
        args = {"client_id": c.client_id, "listing_id": lst.listing_id, "move_in_date": move_in, "pets": sorted(c.pets_on_file)}
        d.one_end_state({
            "ok": f"An active rental and a client with no pending application (5.6): {SCREENED}. Submitted, the ratio and the deposit told (5.1, 5.3).",
            "double": f"An active rental and a client with no pending application (5.6): {SCREENED}; 5.3 takes no more than "
                      "one month whatever the client offers, and tells the deposit, with the ratio (5.1).",
            "low": "The income-to-rent ratio is below 2.50, the one reason (credit score at least 620, no eviction, pets "
                   "allowed, move-in in range): 5.2 refuses and tells the ratio.",
            "credit": "The credit score is below 620, the one reason (ratio at least 2.50, no eviction, pets allowed, move-in "
                      "in range): 5.2 refuses and says which applies; the client asks for the score.",
        }[variant])
        if variant == "ok":
            d.write("submit_application", **args, security_deposit_months=1)
            application_told(d, prev)
        elif variant == "double":  # the client offers two months; state law caps it at one (policy 5.3)
            d.write("submit_application", **args, security_deposit_months=1)
            application_told(d, prev)  # months=2 reaches another state (mutation check)
        elif variant == "low":
            d.output(prev["income_to_rent_ratio"], "number")
            d.forbid("submit_application", **args, security_deposit_months=2)
        else:
            d.output(prev["credit_score"], "number")
            d.forbid("submit_application", **args, security_deposit_months=1)

    def apply_third(self) -> None:
        """Two pending applications already: withdraw the one named, apply to the new one, and tour it."""
        c, lst = None, None
        for cand in self.clients(lambda c: len(pending_apps(c)) == 2 and not leases_of(c) and not c.eviction_record
                                 and (c.credit_score or 0) >= 620 and c.verified_monthly_income is not None and not scheduled(c)):
            for x in self.listings(lambda x: rentable(x) and bool(free_slots(x, notice_bound(x)))):
                assert cand.verified_monthly_income is not None
                if cand.verified_monthly_income / x.price >= 3.0 and pets_ok(cand, x):
                    c, lst = cand, x
                    break
            if c:
                break
        assert c is not None and lst is not None and lst.available_from is not None
        self.used_listings.add(lst.listing_id)
        drop = sorted(pending_apps(c), key=lambda a: a.application_id)[self.rng.randint(0, 1)]
        drop_lst = DB.listings[drop.listing_id]
        text, line, auth = self.who(c, drop.application_id)
        reason = "I'd rather be closer to work"
        d = self.task("apply_swap", c, f"{text} You have two applications pending. You want to apply for the rental at "
                      f"{addr(lst)} in {lst.city}, moving in on {spoken_date(lst.available_from)}, and to tour it at the "
                      f"earliest time offered. {pets_text(c)} If the agent says you have too many pending applications, "
                      f"withdraw the one for {addr(drop_lst)}; when asked why, say exactly: '{reason}'. Ask for your "
                      "income-to-rent ratio. You accept the $50 fee. Confirm when the agent summarizes everything.",
                      [f"Hi, I want to apply for {addr(lst)} and see it too.", line, f"Withdraw the one for {addr(drop_lst)}.",
                       reason, "Yes, go ahead with all of it."])
        self.auth(d, auth)
        d.read("list_applications", client_id=c.client_id)
        d.read("find_listing_by_address", street=lst.street, unit=lst.unit)
        prev = d.read("preview_application", client_id=c.client_id, listing_id=lst.listing_id)
        d.write("withdraw_application", client_id=c.client_id, application_id=drop.application_id, reason=reason)
        d.write("submit_application", client_id=c.client_id, listing_id=lst.listing_id, move_in_date=lst.available_from,
                pets=sorted(c.pets_on_file), security_deposit_months=1)
        d.read("get_listing", listing_id=lst.listing_id)
        slots = d.read("search_tour_slots", listing_id=lst.listing_id, not_before=notice_bound(lst))["slots"]
        d.write("book_tour", client_id=c.client_id, listing_id=lst.listing_id, start=slots[0]["start"])
        tour_told(d, slots[0])
        application_told(d, prev)
        d.one_end_state(f"Two applications are pending, so 5.6 needs the one the client names withdrawn first, with their "
                        f"reason (5.8); then {SCREENED}, and the tour is the first free slot past the notice (4.2), told by "
                        "its date and time (4.1), for a client with no tours (4.4).")

    def tour_and_apply(self) -> None:
        """A renter tours two listings and applies for a third (all earliest / named)."""
        c, target = self.app_candidate(3.0, 9.0)
        assert target.available_from is not None
        agents: set[str] = set()
        picks: list[Listing] = []
        starts: list[str] = []
        for lst in self.shuffled(self.listings(lambda x: x.kind == "rental" and x.status == "active" and unique_address(x)
                                               and bool(free_slots(x, notice_bound(x))))):
            first = free_slots(lst, notice_bound(lst))[0]
            if lst.listing_agent_id in agents or any(abs((datetime.fromisoformat(first) - datetime.fromisoformat(s)).total_seconds()) < 7200 for s in starts):
                continue
            agents.add(lst.listing_agent_id)
            picks.append(lst)
            starts.append(first)
            if len(picks) == 2:
                break
        a, b = picks
        self.used_listings.update({a.listing_id, b.listing_id})
        text, line, auth = self.who(c)
        d = self.task("tour_and_apply", c, f"{text} You already saw {addr(target)} ({target.city}) at an open house and want to "
                      f"apply for it, moving in on {spoken_date(target.available_from)}. {pets_text(c)} You also want tours of "
                      f"{addr(a)} ({a.city}) and {addr(b)} ({b.city}), each at the earliest time offered, as backups. Ask for "
                      "your income-to-rent ratio. You accept the $50 fee. Confirm when the agent lists everything.",
                      [f"Hi, I'd like to apply for {addr(target)} and book a couple of tours.", line,
                       f"Tours of {addr(a)} and {addr(b)}, earliest you have.", "Yes, all of it."])
        self.auth(d, auth)
        d.read("find_listing_by_address", street=target.street, unit=target.unit)
        prev = d.read("preview_application", client_id=c.client_id, listing_id=target.listing_id)
        d.write("submit_application", client_id=c.client_id, listing_id=target.listing_id, move_in_date=target.available_from,
                pets=sorted(c.pets_on_file), security_deposit_months=1)
        for lst in (a, b):
            # The customer names the backups by address: the agent finds each before reading it.
            d.read("find_listing_by_address", street=lst.street, unit=lst.unit)
            d.read("get_listing", listing_id=lst.listing_id)
            slots = d.read("search_tour_slots", listing_id=lst.listing_id, not_before=notice_bound(lst))["slots"]
            d.write("book_tour", client_id=c.client_id, listing_id=lst.listing_id, start=slots[0]["start"])
            tour_told(d, slots[0])
        application_told(d, prev)
        d.one_end_state(f"An active rental and a client with no pending application (5.6): {SCREENED}. Each backup tour is of "
                        "an active rental at the first free slot past its notice (4.2), told by its date and time (4.1), and "
                        "the client holds 3 tours at most (4.4).")
        login, *apply = steps(d)[:4]
        d.alternative("the tours booked before the application is submitted reach the same state",
                      [login, *steps(d)[4:], *apply])

    # ================================================================== offers
    def offer(self, variant: str) -> None:
        def fits(c: Client) -> bool:
            return c.preapproval is not None and c.preapproval.expires_on >= TODAY and not leases_of(c)
        c = self.pick(self.clients(fits))
        assert c.preapproval is not None
        cap = c.preapproval.amount
        lo, hi = (cap * 0.8, cap * 1.0) if variant == "ok" else (cap * 1.02, cap * 1.12)
        lst = self.pick(self.listings(lambda x: x.kind == "sale" and x.status == "active" and unique_address(x)
                                      and lo <= x.price * 0.97 <= hi and not any(o.client_id == c.client_id for o in DB.offers.where(listing_id=x.listing_id))))
        self.used_listings.add(lst.listing_id)
        want = float(round(lst.price * 0.97, -3))
        # The rounded offer stays on its side of the pre-approval: covered for "ok", not covered for "over" (6.2).
        assert (want <= cap) == (variant == "ok"), (variant, want, cap)
        price = want if variant == "ok" else float(cap)
        closing = (DOMAIN.today + timedelta(days=self.rng.choice([35, 42, 49, 56]))).isoformat()
        text, line, auth = self.who(c)
        extra = ("" if variant == "ok" else f" If the agent says your pre-approval does not cover {money(want)}, offer "
                 f"{money(price)} instead (your pre-approval amount).")
        d = self.task(f"offer_{variant}", c, f"{text} You want to make an offer of {money(want)} on the home for sale at "
                      f"{addr(lst)} in {lst.city}, financed with your mortgage pre-approval from {c.preapproval.lender}, "
                      f"closing on {spoken_date(closing)}, with an inspection contingency.{extra} Ask how much earnest money "
                      "you would owe. Confirm when the agent summarizes the offer.",
                      [f"Hi, I want to make an offer on {addr(lst)}.", line, f"{money(want)}, mortgage, closing {spoken_date(closing)}, "
                       "with an inspection contingency.", "Yes, send it."])
        self.auth(d, auth)
        d.read("find_listing_by_address", street=lst.street, unit=lst.unit)
        if variant != "ok":
            d.read("preview_offer", client_id=c.client_id, listing_id=lst.listing_id, price=want)
        prev = d.read("preview_offer", client_id=c.client_id, listing_id=lst.listing_id, price=price)
        d.write("submit_offer", client_id=c.client_id, listing_id=lst.listing_id, price=price, financing="mortgage",
                closing_date=closing, contingencies=["financing", "inspection"])
        d.output(prev["earnest_money"], "money")
        d.one_end_state("An active home for sale; the mortgage pre-approval is unexpired and "
                        + ("covers the price" if variant == "ok" else "does not cover the price first named, the one reason "
                           "(6.2), but covers its own amount, which the client offers instead")
                        + "; 6.2 adds the financing contingency, the closing is 30 to 90 days out (6.3), and 6.1 tells the "
                        "earnest money.")

    def countered(self, pred: Callable[[Offer], bool]) -> Offer:
        cands = [o for k, o in sorted(DB.offers.items()) if o.status == "countered" and o.client_id not in self.used
                 and o.listing_id not in self.used_listings and DB.listings[o.listing_id].status == "active" and pred(o)]
        o: Offer = self.pick(cands)
        self.used_listings.add(o.listing_id)
        return o

    def accept_counter(self, with_tours: bool = False) -> None:
        now = NOW.strftime("%Y-%m-%dT%H:%M")
        o = self.countered(lambda o: o.rounds[-1].expires_at > now and (not with_tours or len(scheduled(DB.clients[o.client_id])) >= 1))
        c = DB.clients[o.client_id]
        lst = DB.listings[o.listing_id]
        text, line, auth = self.who(c, o.offer_id)
        seller = o.rounds[-1]
        tours = scheduled(c) if with_tours else []
        tour_text = ""
        if tours:
            where = " and ".join(addr(DB.listings[t.listing_id]) for t in tours)
            tour_text = (f" Since you are buying, you also want to cancel your upcoming tour{'s' if len(tours) > 1 else ''} of {where}; "
                         "when asked why, say exactly: 'We bought a house'.")
        d = self.task("accept_counter" + ("_and_cancel" if tours else ""), c,
                      f"{text} You made an offer on {addr(lst)} in {lst.city} and the seller countered at {money(seller.price)}. "
                      f"You want to accept the counter.{tour_text} Afterwards ask how much earnest money you owe and by when. "
                      "Confirm when the agent summarizes.",
                      [f"Hi, I want to accept the seller's counter on {addr(lst)}.", line, *(["We bought a house"] if tours else []),
                       "Yes, go ahead."])
        self.auth(d, auth)
        d.read("list_offers", client_id=c.client_id)
        res = d.write("accept_counter_offer", client_id=c.client_id, offer_id=o.offer_id)
        if tours:
            d.read("list_tours", client_id=c.client_id)
            for t in tours:
                d.write("cancel_tour", client_id=c.client_id, tour_id=t.tour_id, reason="We bought a house")
        d.output(res["earnest_money"], "money")
        d.output(res["earnest_money_due"], "date")
        d.one_end_state("The seller's counter is still open (6.4 a): accepted, and 6.5 tells the earnest money and its due "
                        "date" + ("; the client's scheduled tours, the ones named, are cancelled with their reason (4.5)."
                                  if tours else "."))
        if tours:
            d.alternative("the tours cancelled before the counter is accepted reach the same state",
                          moved(steps(d), ("list_offers", "accept_counter_offer")))

    def counter_expired(self) -> None:
        now = NOW.strftime("%Y-%m-%dT%H:%M")
        o = self.countered(lambda o: o.rounds[-1].expires_at <= now and sum(r.by == "buyer" for r in o.rounds) < 3)
        c, lst, seller = DB.clients[o.client_id], DB.listings[o.listing_id], o.rounds[-1]
        text, line, auth = self.who(c, o.offer_id)
        d = self.task("counter_expired", c, f"{text} The seller countered your offer on {addr(lst)} in {lst.city} at "
                      f"{money(seller.price)}, and you have decided to accept it. If the agent says it can no longer be accepted, "
                      f"ask them to send the seller your own counter at exactly {money(seller.price)}, keeping the seller's "
                      "closing date, and ask until when your counter stays open. Confirm when the agent summarizes.",
                      [f"Hi, I want to accept the seller's counter on {addr(lst)}.", line,
                       f"Then send them a counter at {money(seller.price)}, same closing date.", "Yes."])
        self.auth(d, auth)
        d.read("list_offers", client_id=c.client_id)
        res = d.write("counter_offer", client_id=c.client_id, offer_id=o.offer_id, price=seller.price)
        d.output(res["expires_at"][:10], "date")
        d.one_end_state("The seller's counter has expired, so 6.4 (a) accepts nothing and lets the buyer counter up to the "
                        "seller's price; that price is above the buyer's previous one (6.4 b) and the buyer has made fewer "
                        "than 3 proposals (6.4 c), keeping the seller's closing date.")

    def counter_lower(self) -> None:
        now = NOW.strftime("%Y-%m-%dT%H:%M")
        o = self.countered(lambda o: o.rounds[-1].expires_at > now and sum(r.by == "buyer" for r in o.rounds) < 3
                           and o.rounds[-1].price - o.rounds[-2].price >= 6000)
        c, lst = DB.clients[o.client_id], DB.listings[o.listing_id]
        mine, seller = o.rounds[-2].price, o.rounds[-1].price
        low = mine - 5000
        mid = float(round((mine + seller) / 2, -3))
        text, line, auth = self.who(c, o.offer_id)
        d = self.task("counter_lower", c, f"{text} The seller countered your offer on {addr(lst)} in {lst.city}. You are "
                      f"annoyed and want to counter at {money(low)}, lower than your last price of {money(mine)}, to make a "
                      f"point. If the agent will not do that, counter at {money(mid)} instead, keeping the seller's closing "
                      "date. Ask until when your counter stays open. Confirm when the agent summarizes.",
                      [f"Hi, I want to counter the seller on {addr(lst)} at {money(low)}.", line, f"Fine, {money(mid)} then.", "Yes."])
        self.auth(d, auth)
        d.read("list_offers", client_id=c.client_id)
        res = d.write("counter_offer", client_id=c.client_id, offer_id=o.offer_id, price=mid)
        d.output(res["expires_at"][:10], "date")
        d.one_end_state("A counter below the buyer's own previous price breaks 6.4 (b), the one reason; the second price is "
                        "above it and below the seller's open counter, within 3 proposals (6.4 c), keeping the seller's "
                        "closing date.")

    def counter_fourth(self) -> None:
        o = self.countered(lambda o: sum(r.by == "buyer" for r in o.rounds) >= 3)
        c, lst, seller = DB.clients[o.client_id], DB.listings[o.listing_id], o.rounds[-1]
        price = float(round((o.rounds[-2].price + seller.price) / 2, -3))
        text, line, auth = self.who(c, o.offer_id)
        d = self.task("counter_fourth", c, f"{text} You have gone back and forth with the seller of {addr(lst)} in {lst.city}; "
                      f"they countered at {money(seller.price)}. You want to counter again at {money(price)}. If the agent "
                      "offers to connect you with someone, agree.",
                      [f"Hi, I want to send another counter on {addr(lst)}, {money(price)}.", line, "Okay, connect me."])
        self.auth(d, auth, required=True)
        d.read("list_offers", client_id=c.client_id)
        d.require("list_offers", client_id=c.client_id)
        d.transfer(f"Buyer {full(c)} wants a fourth proposal on offer {o.offer_id}.")
        d.forbid("counter_offer", client_id=c.client_id, offer_id=o.offer_id, price=price)
        d.one_end_state("The buyer has made 3 proposals on this offer: 6.4 (c) sends a fourth to a sales agent, a transfer "
                        "made after authenticating and looking up the offer (9).")

    def withdraw_accepted(self) -> None:
        cands = [o for k, o in sorted(DB.offers.items()) if o.status == "accepted" and o.client_id not in self.used]
        o = self.pick(cands)
        c, lst = DB.clients[o.client_id], DB.listings[o.listing_id]
        text, line, auth = self.who(c, o.offer_id)
        reason = "My job is relocating me to Ohio"
        d = self.task("withdraw_accepted", c, f"{text} Your offer on {addr(lst)} in {lst.city} was accepted, but you now need "
                      f"to back out; if asked why, say exactly: '{reason}'. You want it withdrawn today. If the agent offers to "
                      "connect you with someone who handles it, agree.",
                      [f"Hi, I need to withdraw my offer on {addr(lst)}.", line, reason, "Okay, please connect me."])
        self.auth(d, auth, required=True)
        d.read("list_offers", client_id=c.client_id)
        d.require("list_offers", client_id=c.client_id)
        d.transfer(f"{full(c)} wants to back out of accepted offer {o.offer_id}.")
        d.forbid("withdraw_offer", client_id=c.client_id, offer_id=o.offer_id, reason=reason)
        d.one_end_state("The offer was accepted (a contract): 6.6 withdraws nothing and transfers to the transaction "
                        "coordinator, after authenticating and looking up the offer (9).")

    # ================================================================== leases
    def tenant(self, pred: Callable[[Lease], bool], co: bool = False) -> tuple[Client, Lease]:
        cands = [x for k, x in sorted(DB.leases.items()) if x.status == "active" and pred(x)
                 and x.primary_tenant_id not in self.used and not any(t in self.used for t in x.co_tenant_ids)]
        if co:
            cands = [x for x in cands if x.co_tenant_ids]
        lease = self.pick(cands)
        c = DB.clients[sorted(lease.co_tenant_ids)[0] if co else lease.primary_tenant_id]
        self.used.update({lease.primary_tenant_id, *lease.co_tenant_ids})
        return c, lease

    def renew(self, variant: str, with_repairs: bool = False) -> None:
        ends = {"ok": ("2026-07-31", "2026-08-31", "2026-09-30"), "late": ("2026-06-30",),
                "early": ("2026-10-31", "2026-11-30"), "balance": ("2026-07-31", "2026-08-31", "2026-09-30"),
                "cotenant": ("2026-07-31", "2026-08-31", "2026-09-30")}[variant]
        c, lease = self.tenant(lambda x: x.end_date in ends and (x.balance_due > 0) == (variant == "balance")
                               and (not with_repairs or not open_categories(x) & {"appliance", "electrical", "pest", "heating_cooling", "plumbing"}),
                               co=variant == "cotenant")
        lst = DB.listings[lease.listing_id]
        term = self.rng.choice(["12_months", "6_months"])
        months = term.split("_")[0]
        text, line, auth = self.who(c, lease.lease_id)
        behave = {"ok": "Ask what the new rent would be before you agree.",
                  "late": "If the agent says it is too late to renew, ask what your rent will be after the lease ends, then end the call.",
                  "early": "If the agent says it is too early, ask from what date you can renew, then end the call.",
                  "balance": "If the agent says you cannot renew yet, ask exactly how much you owe, then say you will pay it and end the call.",
                  "cotenant": "You are on the lease with roommates. If the agent says you cannot do it yourself, ask who has to call, then end the call."}[variant]
        repairs: list[tuple[str, str, str, bool, str]] = []
        if with_repairs:
            pool = [("appliance", "urgent", "The refrigerator stopped cooling yesterday and the food is getting warm", True),
                    ("pest", "routine", "I keep seeing mice droppings in the kitchen cabinets", True),
                    ("heating_cooling", "routine", "The heat doesn't come on at all, even when I turn up the thermostat", False),
                    ("electrical", "emergency", "The power is out in our whole apartment but the neighbors have power", True),
                    ("plumbing", "emergency", "Water is leaking through the kitchen ceiling from the bathroom above", True)]
            for cat, prio, desc, perm in self.rng.sample(pool, 2):
                repairs.append((cat, prio, desc, perm or prio == "emergency", "yes" if perm else "no"))
        rep_text = ""
        if repairs:
            parts = [f"'{desc}' (if asked whether maintenance may enter when you are out, say {ans})"
                     for _, _, desc, _, ans in repairs]
            rep_text = " You also have two repairs to report, described in your words as " + " and ".join(parts) + "."
        d = self.task(f"renew_{variant}" + ("_repairs" if repairs else ""), c,
                      f"{text} You rent {addr(lst)} in {lst.city}. You want to renew your lease for {months} months. {behave}"
                      f"{rep_text} Confirm when the agent summarizes.",
                      [f"Hi, I'd like to renew my lease at {addr(lst)} for {months} months.", line, "What would the rent be?",
                       *[r[2] for r in repairs], "Yes, go ahead."])
        self.auth(d, auth)
        d.read("list_leases", client_id=c.client_id)
        quote = d.read("quote_lease_renewal", lease_id=lease.lease_id)
        # The window and the balance give the variant its one reason (7.2), as its end state says.
        opens, last = quote["renewal_window_opens"], quote["last_day_to_renew"]
        window = "early" if opens > TODAY else "late" if last < TODAY else "open"
        assert window == {"late": "late", "early": "early"}.get(variant, "open"), (variant, window)
        assert (quote["balance_due"] > 0) == (variant == "balance"), (variant, quote["balance_due"])
        if variant == "ok":
            d.write("renew_lease", client_id=c.client_id, lease_id=lease.lease_id, term=term)
            d.output(quote["options"][term]["monthly_rent"], "money")
        else:
            d.forbid("renew_lease", client_id=c.client_id, lease_id=lease.lease_id, term=term)
            if variant == "late":
                d.output(quote["month_to_month_rent"], "money")
            elif variant == "early":
                d.output(quote["renewal_window_opens"], "date")
            elif variant == "balance":
                d.output(quote["balance_due"], "money")
            else:
                d.output(f"{DB.clients[lease.primary_tenant_id].first_name} {DB.clients[lease.primary_tenant_id].last_name}", "name")
        d.one_end_state({
            "ok": "The caller is the primary tenant (7.1); today is within the renewal window, there is no balance and the "
                  "lease is active (7.2): renewed for the term asked, its new rent told.",
            "late": "The last day to renew has passed, the one reason (primary tenant, no balance, active lease): 7.2 "
                    "renews nothing and tells the month-to-month rent.",
            "early": "The renewal window has not opened, the one reason (primary tenant, no balance, active lease): 7.2 "
                     "tells the date it opens.",
            "balance": "Within the window, primary tenant, active lease, but a balance is due: 7.2 (b) refuses and tells "
                       "the balance; the desk takes no payment.",
            "cotenant": "The caller is a co-tenant: 7.1 changes nothing and tells who the primary tenant is.",
        }[variant] + (" Each repair's category has no open or scheduled request (8.1); its priority follows 8.2 (in June "
                      "no heat is routine) and entry is the tenant's answer, always yes for an emergency (8.3)."
                      if repairs else ""))
        if repairs:
            d.read("list_maintenance_requests", lease_id=lease.lease_id)
            for cat, prio, desc, perm, _ in repairs:
                d.write("create_maintenance_request", client_id=c.client_id, lease_id=lease.lease_id, category=cat,
                        priority=prio, description=desc, permission_to_enter=perm)

    def notice(self, variant: str) -> None:
        ends = {"on_time": ("2026-08-31", "2026-09-30", "2026-10-31"), "late": ("2026-06-30", "2026-07-31"),
                "early": ("2027-01-31", "2027-02-28", "2027-03-31"), "cotenant": ("2026-09-30", "2026-10-31", "2026-11-30"),
                "move": ("2026-08-31", "2026-09-30")}[variant]
        c, lease = self.tenant(lambda x: x.end_date in ends, co=variant == "cotenant")
        lst = DB.listings[lease.listing_id]
        text, line, auth = self.who(c, lease.lease_id)
        if variant == "early":
            move = self.rng.choice(["2026-08-31", "2026-09-30"])
        elif variant == "late":
            move = lease.end_date
        else:
            move = lease.end_date
        behave = {"on_time": f"You want to move out when the lease ends on {spoken_date(lease.end_date)}.",
                  "late": f"You want to move out when the lease ends on {spoken_date(lease.end_date)}. If the agent says that "
                          "is too late, you want the earliest date you can, and make sure you hear it.",
                  "early": f"You bought a condo and want to move out on {spoken_date(move)}, before your lease ends. Ask what it "
                           "will cost you; accept the cost.",
                  "cotenant": f"You want to give notice for the lease-end date, {spoken_date(lease.end_date)}. You are on the "
                              "lease with a roommate. If the agent says you cannot do it yourself, ask who has to call, then end the call.",
                  "move": ""}[variant]
        d = self.task(f"notice_{variant}", c, f"{text} You rent {addr(lst)} in {lst.city} and want to give notice that you are "
                      f"moving out. {behave} Confirm when the agent summarizes.",
                      [f"Hi, I'm calling to give notice on my apartment at {addr(lst)}.", line,
                       f"I'd like to be out by {spoken_date(move)}.", "Yes, that's right."])
        self.auth(d, auth)
        d.read("list_leases", client_id=c.client_id)
        prev = d.read("preview_move_out", lease_id=lease.lease_id, move_out_date=move)
        if variant == "on_time":
            d.write("give_notice_to_vacate", client_id=c.client_id, lease_id=lease.lease_id, move_out_date=move)
        elif variant == "late":
            earliest = prev["earliest_move_out_with_full_notice"]
            d.read("preview_move_out", lease_id=lease.lease_id, move_out_date=earliest)
            d.write("give_notice_to_vacate", client_id=c.client_id, lease_id=lease.lease_id, move_out_date=earliest)
            d.output(earliest, "date")
        elif variant == "early":
            d.write("give_notice_to_vacate", client_id=c.client_id, lease_id=lease.lease_id, move_out_date=move)
            d.output(prev["early_termination_fee"], "money")
        else:
            d.forbid("give_notice_to_vacate", client_id=c.client_id, lease_id=lease.lease_id, move_out_date=move)
            p = DB.clients[lease.primary_tenant_id]
            d.output(f"{p.first_name} {p.last_name}", "name")
        d.one_end_state({
            "on_time": "The primary tenant (7.1) moves out on the lease end date, and today is on or before its notice "
                       "deadline (7.3 a): the notice is recorded.",
            "late": "The end date's notice deadline has passed: 7.3 (b) offers the earliest move-out, 60 days from today, "
                    "which the tenant takes; the date is told.",
            "early": "Moving out before the end date with at least 60 days' notice: 7.3 (c) records it once the "
                     "early-termination fee is told and accepted.",
            "cotenant": "The caller is a co-tenant: 7.1 changes nothing and tells who the primary tenant is.",
        }[variant])

    def notice_and_move(self) -> None:
        """A tenant gives notice for the lease end, tours a new rental and applies for it."""
        found = None
        for lease in [x for k, x in sorted(DB.leases.items()) if x.status == "active" and x.end_date in ("2026-08-31", "2026-09-30")
                      and x.primary_tenant_id not in self.used]:
            c = DB.clients[lease.primary_tenant_id]
            if (c.verified_monthly_income is None or (c.credit_score or 0) < 620 or c.eviction_record or pending_apps(c)
                    or len(scheduled(c)) >= 3):  # a fourth tour would need a cancellation first (4.4)
                continue
            for x in self.listings(lambda x: rentable(x) and bool(free_slots(x, notice_bound(x)))):
                assert x.available_from is not None
                if c.verified_monthly_income / x.price >= 3.0 and pets_ok(c, x) and x.available_from >= "2026-07-01":
                    found = (c, lease, x)
                    break
            if found:
                break
        assert found is not None
        c, lease, target = found
        assert target.available_from is not None
        self.used.update({lease.primary_tenant_id, *lease.co_tenant_ids})
        self.used_listings.add(target.listing_id)
        lst = DB.listings[lease.listing_id]
        text, line, auth = self.who(c, lease.lease_id)
        d = self.task("notice_and_move", c, f"{text} You rent {addr(lst)} in {lst.city} and are moving when your lease ends on "
                      f"{spoken_date(lease.end_date)}: give notice for that date. You want to rent {addr(target)} in {target.city} "
                      f"next, moving in on {spoken_date(target.available_from)}: apply for it, and book a tour of it at the earliest "
                      f"time offered. {pets_text(c)} Ask for your income-to-rent ratio. You accept the $50 fee. Confirm when the "
                      "agent lists everything.",
                      [f"Hi, I'm moving out of {addr(lst)} at the end of my lease and I'd like to apply for {addr(target)}.", line,
                       "And a tour of it, the earliest you have.", "Yes, all of that."])
        self.auth(d, auth)
        d.read("list_leases", client_id=c.client_id)
        d.read("preview_move_out", lease_id=lease.lease_id, move_out_date=lease.end_date)
        d.write("give_notice_to_vacate", client_id=c.client_id, lease_id=lease.lease_id, move_out_date=lease.end_date)
        d.read("find_listing_by_address", street=target.street, unit=target.unit)
        prev = d.read("preview_application", client_id=c.client_id, listing_id=target.listing_id)
        d.write("submit_application", client_id=c.client_id, listing_id=target.listing_id, move_in_date=target.available_from,
                pets=sorted(c.pets_on_file), security_deposit_months=1)
        slots = d.read("search_tour_slots", listing_id=target.listing_id, not_before=notice_bound(target))["slots"]
        d.write("book_tour", client_id=c.client_id, listing_id=target.listing_id, start=slots[0]["start"])
        tour_told(d, slots[0])
        application_told(d, prev)
        d.one_end_state(f"The primary tenant gives notice for the end date on time (7.1, 7.3 a); for the new rental {SCREENED} "
                        "with no pending application (5.6); the tour is the first free slot past the notice (4.2), told by "
                        "its date and time (4.1), for a client holding fewer than 3 tours (4.4).")

    # ================================================================== maintenance
    ISSUES: ClassVar[list[tuple[str, str, str, str | None]]] = [("plumbing", "emergency", "Water is pouring out from under the kitchen sink and won't stop", None),
              ("lock_and_security", "emergency", "The front door lock broke and we can't lock the apartment", None),
              ("appliance", "urgent", "Our refrigerator stopped cooling last night", "yes"),
              ("plumbing", "urgent", "Our only toilet won't flush at all", "no"),
              ("heating_cooling", "routine", "The heat won't turn on in the bedrooms", "yes"),
              ("heating_cooling", "routine", "The air conditioning blows warm air", "no"),
              ("electrical", "routine", "Two outlets in the living room stopped working", "yes"),
              ("other", "routine", "A window screen in the bedroom is torn", "no")]

    def repair(self, index: int) -> None:
        cat, prio, desc, ans = self.ISSUES[index]
        co = index % 3 == 1
        c, lease = self.tenant(lambda x: cat not in open_categories(x), co=co)
        lst = DB.listings[lease.listing_id]
        text, line, auth = self.who(c, lease.lease_id)
        perm = True if prio == "emergency" else ans == "yes"
        perm_text = ("If asked whether maintenance may enter while you are out, say " + (ans or "yes, of course") + ".")
        d = self.task("repair", c, f"{text} You rent {addr(lst)} in {lst.city}. You are calling to report a problem: "
                      f"'{desc}'. Describe it in those words. {perm_text} Ask for the request number.",
                      [f"Hi, I need to report a problem at {addr(lst)}.", line, desc, (ans or "Yes").capitalize() + ".", "Thanks."])
        self.auth(d, auth)
        d.read("list_leases", client_id=c.client_id)
        d.read("list_maintenance_requests", lease_id=lease.lease_id)
        res = d.write("create_maintenance_request", client_id=c.client_id, lease_id=lease.lease_id, category=cat, priority=prio,
                      description=desc, permission_to_enter=perm)
        d.output(res["request_id"], "code")
        d.one_end_state("A tenant on an active lease (8.1: a co-tenant may file too) with no open or scheduled request of "
                        "that category; the priority follows 8.2 (in June no heat is routine) and entry is the tenant's "
                        "answer, always yes for an emergency (8.3).")

    def repair_duplicate(self) -> None:
        c, lease = self.tenant(lambda x: bool({"plumbing", "appliance", "electrical"} & open_categories(x)))
        existing = sorted((r for r in DB.maintenance_requests.where(lease_id=lease.lease_id)
                           if r.status in ("open", "scheduled") and r.category in ("plumbing", "appliance", "electrical")),
                          key=lambda r: r.request_id)[0]
        assert [r.category for r in DB.maintenance_requests.where(lease_id=lease.lease_id)
                if r.status in ("open", "scheduled")].count(existing.category) == 1, "8.1 would have two numbers to give"
        lst = DB.listings[lease.listing_id]
        text, line, auth = self.who(c, lease.lease_id)
        desc = {"plumbing": "The kitchen sink is still draining really slowly", "appliance": "The dishwasher still isn't working right",
                "electrical": "An outlet in the bedroom still has no power"}[existing.category]
        d = self.task("repair_duplicate", c, f"{text} You rent {addr(lst)} in {lst.city}. You reported a problem a while ago "
                      f"and want to report it: '{desc}'. You do not remember the old request's number; if the agent says a "
                      "request is already open, ask for its number and accept that no new one is filed. If asked about entry, say yes.",
                      [f"Hi, I need to report a problem at {addr(lst)}.", line, desc, "What's the number of that request?"])
        self.auth(d, auth)
        d.read("list_leases", client_id=c.client_id)
        d.read("list_maintenance_requests", lease_id=lease.lease_id)
        d.output(existing.request_id, "code")
        d.one_end_state("A request of the same category is open or scheduled on the lease (the only one): 8.1 files "
                        "nothing and gives its number.")
        d.forbid("create_maintenance_request", client_id=c.client_id, lease_id=lease.lease_id, category=existing.category,
                 priority="routine", description=desc, permission_to_enter=True)

    def gas(self) -> None:
        c, lease = self.tenant(lambda x: True)
        lst = DB.listings[lease.listing_id]
        text, line, auth = self.who(c, lease.lease_id)
        desc = "There's a strong smell of gas in the kitchen near the stove"
        d = self.task("gas_smell", c, f"{text} You rent {addr(lst)} in {lst.city}. You smell gas in your kitchen and want a "
                      f"maintenance request filed: '{desc}'. Follow the agent's safety advice and agree to be connected.",
                      [f"Hi, I'm at {addr(lst)} and I need maintenance.", line, desc, "Okay, I'll go outside. Please connect me."])
        self.auth(d, auth, required=True)
        d.read("list_leases", client_id=c.client_id)
        d.require("list_leases", client_id=c.client_id)
        d.transfer(f"Gas smell reported at {addr(lst)}, lease {lease.lease_id}.")
        d.one_end_state("A smell of gas: 8.4 gives the safety instruction, files nothing and transfers to the emergency "
                        "line after authenticating and looking up the lease (9).")
        d.forbid("create_maintenance_request", client_id=c.client_id, lease_id=lease.lease_id, category="other",
                 priority="emergency", description=desc, permission_to_enter=True)


def build() -> TaskWriter:
    b = Builder()
    # train
    b.tour_earliest(True, split="train")
    b.repair(6)
    b.writer.drafts[list(b.writer.drafts)[-1]].split = "train"
    b.apply("ok")
    b.writer.drafts[list(b.writer.drafts)[-1]].split = "train"
    b.renew("ok")
    b.writer.drafts[list(b.writer.drafts)[-1]].split = "train"
    # test
    for occupied in (True, False):
        b.tour_earliest(occupied)
    b.tour_by_criteria()
    b.tour_by_criteria()
    for _ in range(2):
        b.tour_sale_expired()
    b.tour_unavailable()
    for _ in range(3):
        b.tours_multi()
    for variant in ("ok", "double", "double", "low", "low", "credit"):
        b.apply(variant)
    b.apply_third()
    for _ in range(3):
        b.tour_and_apply()
    for variant in ("ok", "over", "over"):
        b.offer(variant)
    b.accept_counter()
    for _ in range(3):
        b.accept_counter(with_tours=True)
    b.counter_expired()
    b.counter_expired()
    b.counter_lower()
    b.counter_fourth()
    b.counter_fourth()
    b.withdraw_accepted()
    for variant in ("ok", "late", "early", "early", "balance", "cotenant"):
        b.renew(variant)
    for _ in range(6):
        b.renew("ok", with_repairs=True)
    for variant in ("on_time", "late", "late", "early", "cotenant"):
        b.notice(variant)
    for _ in range(4):
        b.notice_and_move()
    for i in (0, 1, 2, 4):
        b.repair(i)
    b.repair_duplicate()
    b.repair_duplicate()
    b.gas()
    return b.writer


if __name__ == "__main__":
    build().save()
