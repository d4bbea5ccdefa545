"""Builds fixtures/sales/tasks.json from the DB: `python -m tests_domains.sales.make_tasks`.

`build()` returns a `TaskWriter`; a test checks that `build().render()` equals tasks.json byte for byte.
Templates per task kind pick reps and records from the DB (sorted candidates, seeded choice); every gold call runs
on the task's own environment as it is added, and every figure a task requires is read from what the tools
returned. A candidate whose figures turn out not to fit (a discount outside its band, a figure the policy states)
is discarded and the next one tried.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from pytest_tau import Kind, Output, TaskDraft, TaskWriter, output_told
from tests_domains.sales.domain import DOMAIN, STAGE_ORDER
from tests_domains.sales.schema import Account, Lead, Opportunity, Quote, Rep

DB = DOMAIN.initial_db
TODAY = DOMAIN.today
ISO_TODAY = TODAY.isoformat()
STALE_BEFORE = "2026-05-17"
MOODS = ["You are between two customer meetings and a little rushed.", "You are friendly and chatty.",
         "You are precise and like to double-check figures.", "You are new to the job and ask the agent to repeat key details.",
         "You are matter-of-fact and answer only what you are asked.", "You are upbeat but easily side-tracked."]
ROLE_WORDS = {"account_executive": "an account executive", "senior_account_executive": "a senior account executive"}
SKU_WORDS = {"case": "case", "each": "unit", "per pipette": "pipette", "per instrument": "instrument", "per day": "day"}
FIELD_ASK = {"primary_contact_id": "primary contact", "decision_maker_contact_id": "decision maker",
             "procurement_contact_id": "procurement contact", "budget_confirmed": "budget", "competitor": "competitor"}
SUBJECTS = ["Intro call to walk through their requirements", "Send spec sheets and pricing options",
            "Schedule an on-site demo", "Check in on budget approval", "Confirm installation timeline",
            "Chase the approval and update the customer"]


def in_policy(value: Any, kind: Kind) -> bool:
    """Whether a figure is said in the policy text (such a figure cannot be a required output)."""
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return output_told(Output(value=text, kind=kind), DOMAIN.policy)


def nice(iso: str) -> str:
    d = date.fromisoformat(iso)
    return d.strftime("%A, %B ") + str(d.day)


def weekday_after(days: int) -> str:
    d = TODAY + timedelta(days=days)
    while d.weekday() >= 5:
        d += timedelta(days=1)
    return d.isoformat()


def name(rep: Rep) -> str:
    return f"{rep.first_name} {rep.last_name}"


def contact_name(cid: str) -> str:
    c = DB.contacts[cid]
    return f"{c.first_name} {c.last_name}"


def open_followups(record_id: str) -> list[Any]:
    return [f for f in DB.followups.where(related_id=record_id) if f.status == "open"]


def acct(o: Opportunity) -> Account:
    return DB.accounts[o.account_id]


def missing(o: Opportunity, stage: str) -> list[str]:
    req = DB.stage_requirements[stage]
    fields = list(req.required_fields) + (list(req.enterprise_extra_fields) if acct(o).segment == "enterprise" else [])
    out = []
    quote = DB.quotes.get(o.primary_quote_id) if o.primary_quote_id else None
    for f in fields:
        if f == "budget_confirmed":
            ok = o.budget_confirmed
        elif f == "primary_quote_accepted":
            ok = quote is not None and quote.status == "accepted"
        elif f == "primary_quote_id":
            ok = quote is not None and quote.status in ("sent", "accepted")
        else:
            ok = getattr(o, f) is not None
        if not ok:
            out.append(f)
    return out


def next_stage(o: Opportunity) -> str:
    return STAGE_ORDER[STAGE_ORDER.index(o.stage) + 1]


def moved_today(o: Opportunity) -> bool:
    return any(h.entered_on == ISO_TODAY for h in o.stage_history)


def unique_contact_names(a: Account) -> bool:
    names = [contact_name(c.contact_id) for c in DB.contacts.where(account_id=a.account_id)]
    return len(names) == len(set(names))


def state_territory(state: str) -> str:
    return next(t.territory_id for t in DB.territories.values() if state in t.states)


class Builder:
    """One run of the task templates: a seeded choice, the reps and records already used, the writer."""

    def __init__(self) -> None:
        self.rng = random.Random(616)
        self.used: set[str] = set()
        self.writer = TaskWriter(DOMAIN)

    # -- plumbing ---------------------------------------------------------------------
    def pick(self, cands: list[Any]) -> Any:
        if not cands:
            raise RuntimeError("no candidate")
        return self.rng.choice(cands)

    def free(self, *keys: str) -> bool:
        return not any(k in self.used for k in keys)

    def rep_ok(self, rep_id: str | None) -> bool:
        if rep_id is None:
            return False
        r = DB.reps[rep_id]
        return r.status == "active" and r.role in ROLE_WORDS

    def who(self, r: Rep) -> tuple[str, str, tuple[str, dict[str, str]]]:
        terr = DB.territories[r.territory_id or ""].name
        text = f"You are {name(r)}, {ROLE_WORDS[r.role]} at Calder & Finch Scientific covering the {terr} territory."
        if len(self.writer.drafts) % 2 == 0:
            text += f" Your work email is {r.email}."
            line = f"This is {r.first_name}, my email is {r.email}."
            return text, line, ("find_rep_by_email", {"email": r.email})
        text += f" Your rep id is {r.rep_id}."
        line = f"Hi, {name(r)} here, rep id {r.rep_id}."
        return text, line, ("find_rep_by_id", {"rep_id": r.rep_id, "full_name": name(r)})

    def task(self, kind: str, r: Rep, instructions: str, script: list[str], split: str = "test", *keys: str) -> TaskDraft:
        number = sum(1 for task_id in self.writer.drafts if task_id.startswith(kind + "_")) + 1
        mood = MOODS[len(self.writer.drafts) % len(MOODS)]
        draft = self.writer.task(f"{kind}_{number}", split=split, script=script,
                                 instructions=f"{instructions} {mood} Give information only when the agent asks for it.")
        draft.keys = (r.rep_id, *keys)  # type: ignore[attr-defined]
        return draft

    def keep(self, d: TaskDraft) -> None:
        self.used.update(d.keys[1:])  # type: ignore[attr-defined]

    def drop(self, d: TaskDraft) -> None:
        self.writer.discard(d)
        self.used.update(d.keys[1:])  # type: ignore[attr-defined]

    @staticmethod
    def auth(d: TaskDraft, auth: tuple[str, dict[str, str]]) -> Any:
        return d.read(auth[0], **auth[1])

    def repeat(self, n: int, make: Callable[[str], bool], split: str = "test") -> None:
        made, tries = 0, 0
        while made < n:
            tries += 1
            if tries > 60:
                raise RuntimeError(f"{make.__name__}: only {made} of {n} tasks fit")
            if make(split):
                made += 1

    # ============================================================== leads
    def lead_cands(self, pred: Callable[[Lead], bool]) -> list[Lead]:
        return [x for _, x in sorted(DB.leads.items()) if x.lead_id not in self.used and pred(x)]

    def lead_line(self, x: Lead) -> str:
        return f"{x.first_name} {x.last_name} from {x.company}"

    def claim_queue(self, split: str) -> bool:
        x = self.pick(self.lead_cands(lambda x: x.owner_rep_id is None and x.status == "new" and not x.matched_account_id))
        reps = [r for k, r in sorted(DB.reps.items()) if r.territory_id == x.territory_id and self.rep_ok(k)]
        if not reps:
            self.used.add(x.lead_id)
            return False
        r = self.pick(reps)
        due = weekday_after(self.rng.randint(1, 6))
        subject = self.rng.choice(SUBJECTS[:3])
        text, line, auth = self.who(r)
        d = self.task("claim_queue_lead", r, f"{text} A new lead is sitting unassigned in the queue: {self.lead_line(x)} "
                      f"(email {x.email}). You want to claim it. You also want a follow-up on the lead for yourself due "
                      f"{nice(due)}, 2026, subject exactly: '{subject}'. Before hanging up, ask for the lead's phone number.",
                      ["Hi, I'd like to grab a lead from the queue.", line, f"It's {self.lead_line(x)}, email {x.email}.",
                       f"Also a follow-up for {nice(due)}: {subject}.", "Yes, go ahead.", "What's their phone number?"],
                      split, x.lead_id)
        self.auth(d, auth)
        lead = d.read("search_leads", email=x.email)[0]
        d.write("assign_lead", lead_id=x.lead_id, owner_rep_id=r.rep_id)
        d.write("create_followup", owner_rep_id=r.rep_id, related_id=x.lead_id, subject=subject, due_date=due)
        d.output(lead["phone"], "phone")
        d.one_end_state("The lead is new, unowned, unmatched and in the rep's territory, so the rep may claim it (3.2); the "
                        "follow-up is the one the rep asks for, on a weekday ahead, in their words (2.2, 4.1, 4.4).")
        self.keep(d)
        return True

    def claim_stale(self, split: str) -> bool:
        x = self.pick(self.lead_cands(lambda x: x.owner_rep_id is not None and x.status in ("working", "nurturing", "qualified")
                                      and not x.matched_account_id and (x.last_activity_on or "9") < "2026-05-10"))
        reps = [r for k, r in sorted(DB.reps.items()) if r.territory_id == x.territory_id and self.rep_ok(k) and k != x.owner_rep_id]
        if not reps:
            self.used.add(x.lead_id)
            return False
        r = self.pick(reps)
        owner = DB.reps[x.owner_rep_id or ""]
        text, line, auth = self.who(r)
        d = self.task("claim_stale_lead", r, f"{text} Your colleague {name(owner)} owns the lead {self.lead_line(x)} (last name "
                      f"{x.last_name}), but you believe nobody has touched it in a while and you want to take it over. Once it "
                      f"is yours, ask for the lead's phone number. You do not need a follow-up task.",
                      ["Hi, can I take over a lead that's gone quiet?", line, f"It's {self.lead_line(x)}.", "Yes, assign it to me.",
                       "Great, what's their number?"], split, x.lead_id)
        self.auth(d, auth)
        lead = d.read("search_leads", last_name=x.last_name, company=x.company)[0]
        d.write("assign_lead", lead_id=x.lead_id, owner_rep_id=r.rep_id)
        d.output(lead["phone"], "phone")
        d.one_end_state(f"The lead's last activity, {x.last_activity_on}, is more than 30 days ago, it is open, unmatched and in "
                        "the rep's territory, so it may be taken over from its owner (3.2); it keeps its follow-ups and the "
                        "rep wants no new one (4.4).")
        self.keep(d)
        return True

    def claim_active_refused(self, split: str) -> bool:
        x = self.pick(self.lead_cands(lambda x: x.owner_rep_id is not None and x.status in ("working", "nurturing", "qualified")
                                      and not x.matched_account_id and (x.last_activity_on or "0") >= "2026-05-25"))
        reps = [r for k, r in sorted(DB.reps.items()) if r.territory_id == x.territory_id and self.rep_ok(k) and k != x.owner_rep_id]
        if not reps:
            self.used.add(x.lead_id)
            return False
        r = self.pick(reps)
        text, line, auth = self.who(r)
        d = self.task("claim_active_lead", r, f"{text} You met {self.lead_line(x)} (last name {x.last_name}) at a conference and "
                      f"want to own that lead; you see it already has an owner but you think you have the better "
                      f"relationship. Insist once. If the agent refuses, ask who owns the lead so you can talk to them, then "
                      f"end the call. You do not want it given to anyone else.",
                      ["I want to take over a lead.", line, f"It's {self.lead_line(x)}.", "But I know them personally!",
                       "OK, who owns it then?"], split, x.lead_id)
        self.auth(d, auth)
        lead = d.read("search_leads", last_name=x.last_name, company=x.company)[0]
        owner = d.read("get_rep", rep_id=lead["owner_rep_id"])
        d.output(owner["name"], "name")
        d.forbid("assign_lead", lead_id=x.lead_id, owner_rep_id=r.rep_id)
        d.one_end_state(f"The lead's last activity, {x.last_activity_on}, is within 30 days, so its owner keeps it (3.2 c): "
                        "the claim is refused, the rep hears the owner's name and the lead goes to no one else (3.4).")
        self.keep(d)
        return True

    def claim_matched_refused(self, split: str) -> bool:
        # One answer to "whose is it": the lead itself has no owner, so the only person is the matched account's owner
        # (a lead owned by one rep and matched to another's account let the agent name either).
        x = self.pick(self.lead_cands(lambda x: bool(x.matched_account_id) and x.status in ("new", "working", "nurturing")
                                      and x.owner_rep_id is None))
        a = DB.accounts[x.matched_account_id or ""]
        reps = [r for k, r in sorted(DB.reps.items()) if r.territory_id == x.territory_id and self.rep_ok(k)
                and k not in (a.owner_rep_id, x.owner_rep_id)]
        if not reps or a.owner_rep_id == x.owner_rep_id or a.owner_rep_id in self.used:
            self.used.add(x.lead_id)
            return False
        r = self.pick(reps)
        text, line, auth = self.who(r)
        d = self.task("claim_account_lead", r, f"{text} You want to claim the lead {self.lead_line(x)} (email {x.email}); it is in "
                      f"your territory and you think it is up for grabs. If the agent refuses, ask whose it is so you can "
                      f"coordinate, then thank them and end the call.",
                      ["Hi, I'd like to claim a lead in my territory.", line, f"It's {self.lead_line(x)}, email {x.email}.",
                       "Oh. Whose is it, then?"], split, x.lead_id, a.owner_rep_id)
        self.auth(d, auth)
        d.read("search_leads", email=x.email)
        d.read("get_account", account_id=a.account_id)
        owner = d.read("get_rep", rep_id=a.owner_rep_id)
        d.output(owner["name"], "name")
        d.forbid("assign_lead", lead_id=x.lead_id, owner_rep_id=r.rep_id)
        d.one_end_state("The lead has a matched account, so it belongs to that account's owner whatever the territory "
                        "(3.3); it has no owner of its own, so that owner is the one name the rep hears (3.4).")
        self.keep(d)
        return True

    def convert_new(self, split: str) -> bool:
        x = self.pick(self.lead_cands(lambda x: x.status == "qualified" and not x.matched_account_id and self.rep_ok(x.owner_rep_id)))
        r = DB.reps[x.owner_rep_id or ""]
        opp_name = f"{x.company}: {x.interest}"
        amount = float(self.rng.randrange(20000, 150000, 2500))
        close = weekday_after(self.rng.randint(45, 120))
        due = weekday_after(self.rng.randint(2, 8))
        p1, p2 = self.rng.sample([p for k, p in sorted(DB.products.items()) if p.unit == "each"], 2)
        q1, q2 = self.rng.randint(1, 3), self.rng.randint(1, 2)
        subject = self.rng.choice(SUBJECTS[:3])
        text, line, auth = self.who(r)
        d = self.task("convert_lead", r, f"{text} Your lead {self.lead_line(x)} (email {x.email}) is qualified and you want "
                      f"it converted. The opportunity name is exactly '{opp_name}', estimated at ${amount:,.0f}, expected to close "
                      f"{nice(close)}, 2026. On the new opportunity you then want a quote, with no discount, for {q1} x "
                      f"{p1.name} and {q2} x {p2.name} (do not send it yet), and a follow-up for yourself due {nice(due)}, "
                      f"subject exactly: '{subject}'. You want to hear the quote's total and until when it is valid.",
                      ["Hi, I have a qualified lead to convert.", line, f"{self.lead_line(x)}, email {x.email}.",
                       f"Call it '{opp_name}', ${amount:,.0f}, closing {nice(close)}.",
                       f"Then a quote: {q1} {p1.name} and {q2} {p2.name}, no discount.",
                       f"And a follow-up for {nice(due)}: {subject}.", "Yes, do all of that."], split, x.lead_id)
        self.auth(d, auth)
        d.read("search_leads", email=x.email)
        conv = d.write("convert_lead", lead_id=x.lead_id, opportunity_name=opp_name, amount=amount, close_date=close)
        oid = conv["opportunity"]["opportunity_id"]
        lines = [{"sku": p1.sku, "quantity": q1, "discount_pct": 0.0}, {"sku": p2.sku, "quantity": q2, "discount_pct": 0.0}]
        for p in (p1, p2):
            d.read("search_products", keyword=p.name)  # the rep names products; their SKUs come from the catalog
        d.read("preview_quote", opportunity_id=oid, lines=lines, header_discount_pct=0.0)
        q = d.write("create_quote", opportunity_id=oid, lines=lines, header_discount_pct=0.0)
        d.read("list_followups", related_id=oid)
        d.write("create_followup", owner_rep_id=r.rep_id, related_id=oid, subject=subject, due_date=due)
        d.output(q["net_total"], "money")
        d.output(q["expires_on"], "date")
        d.one_end_state("The owner converts a qualified, unmatched lead into a new account with the name, amount and close "
                        "date they give (3.5); the quote has no discount, within any limit (6.1, 6.2 a), and the follow-up "
                        "the new opportunity must have is the one the rep gives (4.2).")
        self.keep(d)
        return True

    def convert_matched(self, split: str) -> bool:
        x = self.pick(self.lead_cands(lambda x: x.status == "qualified" and bool(x.matched_account_id) and self.rep_ok(x.owner_rep_id)
                                      and DB.accounts[x.matched_account_id or ""].owner_rep_id == x.owner_rep_id))
        r = DB.reps[x.owner_rep_id or ""]
        opp_name = f"{x.company.split()[0]} expansion: {x.interest}"
        amount = float(self.rng.randrange(15000, 90000, 500))
        close = weekday_after(self.rng.randint(30, 100))
        due = weekday_after(self.rng.randint(1, 7))
        subject = self.rng.choice(SUBJECTS[:3])
        text, line, auth = self.who(r)
        d = self.task("convert_account_lead", r, f"{text} Your qualified lead {self.lead_line(x)} (last name {x.last_name}) "
                      f"works at one of your existing customers. You want the lead converted: opportunity name exactly "
                      f"'{opp_name}', ${amount:,.0f}, expected close {nice(close)}, 2026, and a follow-up for yourself on the new "
                      f"opportunity due {nice(due)}, subject exactly '{subject}'. You do not know whether a new account is needed. "
                      f"At the end, ask for the new opportunity's id.",
                      ["I need to convert a lead.", line, f"{self.lead_line(x)}.", f"Name it '{opp_name}', ${amount:,.0f}, "
                       f"closing {nice(close)}.", f"Follow-up {nice(due)}: {subject}.", "Yes, please.", "What's the opportunity id?"],
                      split, x.lead_id)
        self.auth(d, auth)
        d.read("search_leads", last_name=x.last_name, company=x.company)
        conv = d.write("convert_lead", lead_id=x.lead_id, opportunity_name=opp_name, amount=amount, close_date=close,
                       account_id=x.matched_account_id)
        oid = conv["opportunity"]["opportunity_id"]
        d.read("list_followups", related_id=oid)
        d.write("create_followup", owner_rep_id=r.rep_id, related_id=oid, subject=subject, due_date=due)
        d.output(oid, "code")
        d.one_end_state("A lead with a matched account is converted into that account, not a new one (3.5); the new "
                        "opportunity's required follow-up is the one the rep gives (4.2).")
        self.keep(d)
        return True

    # ============================================================== stages
    def opp_cands(self, pred: Callable[[Opportunity], bool]) -> list[Opportunity]:
        return [o for _, o in sorted(DB.opportunities.items()) if o.opportunity_id not in self.used and self.rep_ok(o.owner_rep_id)
                and o.account_id not in self.used and pred(o)]

    def opp_line(self, o: Opportunity) -> str:
        return f"opportunity {o.opportunity_id} with {acct(o).name}"

    def advance_ok(self, split: str) -> bool:
        o = self.pick(self.opp_cands(lambda o: o.stage in ("prospecting", "discovery", "proposal") and not missing(o, next_stage(o))
                                     and not moved_today(o)))
        r, target = DB.reps[o.owner_rep_id], next_stage(o)
        has_fu = bool(open_followups(o.opportunity_id))
        due = weekday_after(self.rng.randint(2, 9))
        subject = self.rng.choice(SUBJECTS[1:5])
        text, line, auth = self.who(r)
        fu_text = (f" If the agent asks about a follow-up, you want one due {nice(due)}, subject exactly '{subject}'." if not has_fu
                   else " You do not want any new follow-up.")
        d = self.task("advance_stage", r, f"{text} You want your {self.opp_line(o)} moved to the {target} stage.{fu_text} "
                      "While you are on the line, you also ask what on-target earnings the system shows for you; accept it "
                      "if the agent cannot say.",
                      [f"Hi, I need to move {o.opportunity_id} to {target}.", line, "Yes, move it."]
                      + ([f"Sure: {nice(due)}, '{subject}'."] if not has_fu else [])
                      + ["While I have you, what on-target earnings does the system show for me?"], split, o.opportunity_id)
        self.auth(d, auth)
        d.read("get_opportunity", opportunity_id=o.opportunity_id)
        d.read("check_stage_requirements", opportunity_id=o.opportunity_id, target_stage=target)
        d.write("move_opportunity_stage", opportunity_id=o.opportunity_id, stage=target)
        d.read("list_followups", related_id=o.opportunity_id)
        if not has_fu:
            d.write("create_followup", owner_rep_id=r.rep_id, related_id=o.opportunity_id, subject=subject, due_date=due)
        d.one_end_state(f"{o.stage} to {target} is one stage forward, not moved today, with nothing missing (5.1, 5.2); "
                        + ("the opportunity has no open follow-up, so the rep's one is created (4.2)"
                           if not has_fu else "an open follow-up exists, so none is created (4.2)")
                        + "; compensation is never told (1.4).")
        self.keep(d)
        return True

    def advance_fill(self, split: str) -> bool:
        fillable = {"decision_maker_contact_id", "budget_confirmed", "competitor", "procurement_contact_id", "primary_contact_id"}

        def ok(o: Opportunity) -> bool:
            if o.stage not in ("prospecting", "discovery", "proposal") or moved_today(o) or open_followups(o.opportunity_id):
                return False
            gap = missing(o, next_stage(o))
            return bool(gap) and set(gap) <= fillable and unique_contact_names(acct(o))

        o = self.pick(self.opp_cands(ok))
        r, target, a = DB.reps[o.owner_rep_id], next_stage(o), acct(o)
        gap = missing(o, target)
        people = sorted(c.contact_id for c in DB.contacts.where(account_id=a.account_id))
        changes: dict[str, Any] = {}
        said = []
        for f in gap:
            if f == "budget_confirmed":
                changes[f] = True
                said.append("the customer has confirmed the budget")
            elif f == "competitor":
                changes[f] = self.rng.choice(["Helmsford Instruments", "Norbeck Lab Systems", "Vireo Scientific"])
                said.append(f"the main competitor is {changes[f]}")
            else:
                changes[f] = self.rng.choice(people)
                said.append(f"the {FIELD_ASK[f]} is {contact_name(changes[f])}")
        due = weekday_after(self.rng.randint(2, 9))
        subject = self.rng.choice(SUBJECTS[1:5])
        facts = "; ".join(said)
        text, line, auth = self.who(r)
        d = self.task("advance_with_details", r, f"{text} You want your {self.opp_line(o)} moved to the {target} stage. If the "
                      f"agent says details are missing, you know them: {facts}. Give only what the agent asks for. If the agent "
                      f"asks about a follow-up, you want one due {nice(due)}, subject exactly '{subject}'.",
                      [f"Hi, please move {o.opportunity_id} to {target}.", line, facts[0].upper() + facts[1:] + ".",
                       f"Follow-up {nice(due)}: {subject}.", "Yes, go ahead."], split, o.opportunity_id)
        self.auth(d, auth)
        d.read("get_opportunity", opportunity_id=o.opportunity_id)
        d.read("check_stage_requirements", opportunity_id=o.opportunity_id, target_stage=target)
        d.read("get_account", account_id=a.account_id)
        d.write("update_opportunity", opportunity_id=o.opportunity_id, changes=changes)
        d.write("move_opportunity_stage", opportunity_id=o.opportunity_id, stage=target)
        d.read("list_followups", related_id=o.opportunity_id)
        d.write("create_followup", owner_rep_id=r.rep_id, related_id=o.opportunity_id, subject=subject, due_date=due)
        d.one_end_state(f"The check for {target} reports {', '.join(gap)} missing; the rep gives each (contacts of the account, "
                        "one per name, 5.3), they are set first, then the stage moves one step (5.1, 5.2), and the "
                        "opportunity, with no open follow-up, gets the rep's (4.2).")
        self.keep(d)
        return True

    def advance_skip(self, split: str) -> bool:
        def ok(o: Opportunity) -> bool:
            return (o.stage in ("prospecting", "discovery") and not moved_today(o) and bool(open_followups(o.opportunity_id))
                    and not missing(o, next_stage(o)) and bool(missing(o, STAGE_ORDER[STAGE_ORDER.index(o.stage) + 2])))

        o = self.pick(self.opp_cands(ok))
        r, one = DB.reps[o.owner_rep_id], next_stage(o)
        two = STAGE_ORDER[STAGE_ORDER.index(o.stage) + 2]
        text, line, auth = self.who(r)
        d = self.task("skip_stage", r, f"{text} Your {self.opp_line(o)} is at {o.stage}, but the customer is moving fast and you "
                      f"want it put straight at {two}. If the agent refuses, accept moving it to {one} for now. You have no "
                      f"other details to add today and you do not want a new follow-up.",
                      [f"Can you put {o.opportunity_id} straight into {two}?", line, "They're moving fast, can't we skip?",
                       f"Fine, {one} then.", "Yes."], split, o.opportunity_id)
        self.auth(d, auth)
        d.read("get_opportunity", opportunity_id=o.opportunity_id)
        d.read("check_stage_requirements", opportunity_id=o.opportunity_id, target_stage=one)
        d.write("move_opportunity_stage", opportunity_id=o.opportunity_id, stage=one)
        d.read("list_followups", related_id=o.opportunity_id)
        d.forbid("move_opportunity_stage", opportunity_id=o.opportunity_id, stage=two)
        d.one_end_state(f"Stages move one at a time (5.1): {two} is refused and {one}, with nothing missing, is what the rep "
                        "accepts; an open follow-up already exists, so none is created (4.2).")
        self.keep(d)
        return True

    def advance_blocked(self, split: str) -> bool:
        def ok(o: Opportunity) -> bool:
            if o.stage not in ("discovery", "proposal") or moved_today(o):
                return False
            gap = missing(o, next_stage(o))
            return len(gap) == 1 and gap[0] in ("decision_maker_contact_id", "primary_quote_id", "budget_confirmed")

        o = self.pick(self.opp_cands(ok))
        r, target = DB.reps[o.owner_rep_id], next_stage(o)
        gap = missing(o, target)[0]
        unknown = {"decision_maker_contact_id": "You do not know yet who the decision maker is.",
                   "primary_quote_id": "No quote has been sent to the customer yet, and you do not want one created or sent today.",
                   "budget_confirmed": "The customer has not confirmed their budget yet."}[gap]
        text, line, auth = self.who(r)
        d = self.task("stage_blocked", r, f"{text} Your manager wants your {self.opp_line(o)} to show {target} in today's "
                      f"forecast call, so you want it moved to {target}. {unknown} Insist once; if the agent still refuses, "
                      f"accept it and end the call without other changes.",
                      [f"I need {o.opportunity_id} at {target} before my forecast call.", line, "Can't you just move it anyway?",
                       "OK, I understand."], split, o.opportunity_id)
        self.auth(d, auth)
        d.read("get_opportunity", opportunity_id=o.opportunity_id)
        d.read("check_stage_requirements", opportunity_id=o.opportunity_id, target_stage=target)
        d.require("check_stage_requirements", opportunity_id=o.opportunity_id, target_stage=target)
        d.forbid("move_opportunity_stage", opportunity_id=o.opportunity_id, stage=target)
        d.one_end_state(f"The check for {target} reports one field missing that the rep cannot give, so the opportunity is "
                        "not moved (5.2) and nothing else changes (2.5).")
        self.keep(d)
        return True

    def close_lost(self, split: str) -> bool:
        def ok(o: Opportunity) -> bool:
            fus = open_followups(o.opportunity_id)
            return (o.stage in STAGE_ORDER[:4] and len(fus) == 2 and all(f.owner_rep_id == o.owner_rep_id for f in fus))

        o = self.pick(self.opp_cands(ok))
        r = DB.reps[o.owner_rep_id]
        reason = self.rng.choice(["competitor", "no_budget", "competitor", "timing"])
        rival = self.rng.choice([c for c in ["Helmsford Instruments", "Norbeck Lab Systems", "Vireo Scientific"] if c != o.competitor])
        why = {"competitor": f"they went with {rival}", "no_budget": "their funding fell through",
               "timing": "they pushed the purchase to next fiscal year"}[reason]
        text, line, auth = self.who(r)
        d = self.task("close_lost", r, f"{text} Your {self.opp_line(o)} is lost: {why}. You want it closed as lost with the "
                      f"right reason and your open to-dos on it cleared out.",
                      [f"Hi, {o.opportunity_id} is dead, I need it closed out.", line, f"We lost it, {why}.", "Yes, do it."],
                      split, o.opportunity_id)
        self.auth(d, auth)
        d.read("get_opportunity", opportunity_id=o.opportunity_id)
        d.read("check_stage_requirements", opportunity_id=o.opportunity_id, target_stage="closed_lost")
        if reason == "competitor":
            d.write("update_opportunity", opportunity_id=o.opportunity_id, changes={"competitor": rival})
        d.write("move_opportunity_stage", opportunity_id=o.opportunity_id, stage="closed_lost", loss_reason=reason)
        fus = d.read("list_followups", related_id=o.opportunity_id, status="open")
        for f in fus:
            d.write("complete_followup", followup_id=f["followup_id"])
        d.one_end_state(f"A lost deal closes from any open stage with the rep's reason, {reason.replace('_', ' ')}"
                        + (f", and the competitor, {rival}, recorded (5.4)" if reason == "competitor" else " (5.4)")
                        + "; every open follow-up of the opportunity is completed (4.3).")
        self.keep(d)
        return True

    def reopen(self, split: str) -> bool:
        o = self.pick(self.opp_cands(lambda o: o.stage in ("closed_won", "closed_lost")))
        r = DB.reps[o.owner_rep_id]
        target = "negotiation"
        text, line, auth = self.who(r)
        story = ("the customer wants to add more units to the order" if o.stage == "closed_won"
                 else "the customer called back and wants to restart talks")
        d = self.task("reopen_closed", r, f"{text} Your {self.opp_line(o)} was closed, but {story}; you want it put back at "
                      f"{target}. If the agent cannot do it, accept being transferred to whoever can.",
                      [f"Can you reopen {o.opportunity_id} and put it at {target}?", line, "OK, please transfer me."],
                      split, o.opportunity_id)
        self.auth(d, auth)
        d.read("get_opportunity", opportunity_id=o.opportunity_id)
        # the look-up that shows it closed: the opportunity itself, or the stage check 5.2 runs before any move (its
        # current_stage), which a careful agent may run instead
        d.require_any([("get_opportunity", {"opportunity_id": o.opportunity_id}),
                       ("check_stage_requirements", {"opportunity_id": o.opportunity_id})])
        d.transfer(f"Rep {r.rep_id} wants closed opportunity {o.opportunity_id} reopened at {target}.")
        d.alternative("5.2's stage check before the move shows the current stage is closed, so the agent transfers (5.6)",
                      [auth, ("check_stage_requirements", {"opportunity_id": o.opportunity_id, "target_stage": target}),
                       ("transfer_to_human_agents", {"summary": f"Closed opportunity {o.opportunity_id}: rep wants it reopened."})])
        d.forbid("move_opportunity_stage", opportunity_id=o.opportunity_id, stage=target)
        d.one_end_state("A closed opportunity is never reopened or moved by this desk: after looking it up, the rep is "
                        "transferred to Revenue Operations (5.6, 8).")
        self.keep(d)
        return True

    # ============================================================== quotes
    def products_for(self, a: Account) -> list[Any]:
        return self.rng.sample([p for k, p in sorted(DB.products.items()) if p.unit == "each"], 2)

    def quote_opp(self) -> Opportunity:
        o: Opportunity = self.pick(self.opp_cands(lambda o: o.stage in ("proposal", "negotiation") and unique_contact_names(acct(o))
                                                  and DB.reps[o.owner_rep_id].manager_rep_id is not None))
        return o

    def quote_draft(self, kind: str, o: Opportunity, split: str, band: Callable[[float], bool], line_discount: float,
                    header: float, ask: str, tail: str, script: list[str]) -> tuple[TaskDraft, dict[str, Any], list[dict[str, Any]]] | None:
        r = DB.reps[o.owner_rep_id]
        p1, p2 = self.products_for(acct(o))
        q1, q2 = self.rng.randint(1, 4), self.rng.randint(1, 3)
        lines = [{"sku": p1.sku, "quantity": q1, "discount_pct": line_discount}, {"sku": p2.sku, "quantity": q2, "discount_pct": line_discount}]
        items = f"{q1} x {p1.name} and {q2} x {p2.name}" + (f", each line at {line_discount:g}% off" if line_discount else "")
        disc = f", plus {header:g}% off the whole quote" if header else ""
        text, line, auth = self.who(r)
        d = self.task(kind, r, f"{text} For your {self.opp_line(o)} you want a quote for {items}{disc}. {ask} {tail}",
                      [f"I need a quote on {o.opportunity_id}.", line, f"{items}{disc}."] + script, split, o.opportunity_id)
        self.auth(d, auth)
        d.read("get_opportunity", opportunity_id=o.opportunity_id)
        for p in (p1, p2):  # the rep names products; their SKUs come from the catalog
            d.read("search_products", keyword=p.name)
        preview = d.read("preview_quote", opportunity_id=o.opportunity_id, lines=lines, header_discount_pct=header)
        if not band(preview["effective_discount_pct"]) or in_policy(preview["effective_discount_pct"], "percent"):
            self.drop(d)
            return None
        d.read("get_rep", rep_id=r.rep_id)
        return d, preview, lines

    def quote_send(self, split: str) -> bool:
        o = self.quote_opp()
        r = DB.reps[o.owner_rep_id]
        limit = r.discount_limit_pct
        to = self.rng.choice(sorted(c.contact_id for c in DB.contacts.where(account_id=o.account_id)))
        header = float(self.rng.choice([3, 4, 5]))
        made = self.quote_draft("quote_and_send", o, split, lambda e: e <= limit - 1, 0.0, header,
                                f"Once it is created you want it emailed to {contact_name(to)} at the customer.",
                                "Ask for the quote's total and the date it expires.",
                                [f"Send it to {contact_name(to)}.", "Yes, create and send it."])
        if made is None:
            return False
        d, _, lines = made
        q = d.write("create_quote", opportunity_id=o.opportunity_id, lines=lines, header_discount_pct=header)
        d.read("get_account", account_id=o.account_id)
        d.write("send_quote", quote_id=q["quote_id"], contact_id=to)
        d.output(q["net_total"], "money")
        d.output(q["expires_on"], "date")
        d.one_end_state("The effective discount is within the owner's own limit, so the quote needs no approval and is "
                        "sent (6.2 a, 6.3) to the contact the rep names, one of the account's, one per name.")
        self.keep(d)
        return True

    def quote_manager(self, split: str) -> bool:
        o = self.quote_opp()
        r = DB.reps[o.owner_rep_id]
        mgr = DB.reps[r.manager_rep_id or ""]
        header = float(round((r.discount_limit_pct + mgr.discount_limit_pct) / 2))
        to = self.rng.choice(sorted(c.contact_id for c in DB.contacts.where(account_id=o.account_id)))
        why = "They have a competing bid from Norbeck and this is a multi-year account."
        due = weekday_after(self.rng.randint(2, 5))
        made = self.quote_draft("quote_approval", o, split, lambda e: r.discount_limit_pct + 1 <= e <= mgr.discount_limit_pct - 1,
                                0.0, header,
                                f"You want it sent to {contact_name(to)} today. If asked for a justification, say exactly: '{why}'. "
                                f"You also want a follow-up for yourself on the opportunity due {nice(due)}, subject exactly "
                                f"'{SUBJECTS[5]}'.", "Ask for the quote's total and who has to approve it.",
                                [f"Send it to {contact_name(to)}.", why, f"And a follow-up for {nice(due)}: {SUBJECTS[5]}.",
                                 "Yes, go ahead.", "Who approves it?"])
        if made is None:
            return False
        d, _, lines = made
        d.read("get_rep", rep_id=mgr.rep_id)
        q = d.write("create_quote", opportunity_id=o.opportunity_id, lines=lines, header_discount_pct=header)
        d.write("request_discount_approval", quote_id=q["quote_id"], approver_rep_id=mgr.rep_id, justification=why)
        d.write("create_followup", owner_rep_id=r.rep_id, related_id=o.opportunity_id, subject=SUBJECTS[5], due_date=due)
        d.output(q["net_total"], "money")
        if not in_policy(q["expires_on"], "date"):  # 6.1: the expiry is told with the total before the quote is made
            d.output(q["expires_on"], "date")
        d.output(name(mgr), "name")
        d.forbid("send_quote", quote_id=q["quote_id"], contact_id=to)
        d.one_end_state("The effective discount is above the owner's limit and within their manager's: the quote is created "
                        "and the manager asked, with the rep's justification, and it is not sent while it waits (6.2 b); "
                        "the follow-up is the one the rep asks for.")
        self.keep(d)
        return True

    def quote_director(self, split: str) -> bool:
        o = self.quote_opp()
        r = DB.reps[o.owner_rep_id]
        mgr = DB.reps[r.manager_rep_id or ""]
        director = DB.reps[mgr.manager_rep_id or ""]
        line_disc, header = 15.0, float(self.rng.choice([15, 16, 17]))
        why = "Grant-funded purchase with a hard budget cap; they plan to standardize on our instruments."
        made = self.quote_draft("quote_director", o, split, lambda e: mgr.discount_limit_pct + 1 <= e <= 34, line_disc, header,
                                f"If asked for a justification, say exactly: '{why}'. You do not need it sent today.",
                                "Ask what the overall discount works out to and who has to sign off on it.",
                                [why, "Yes, please.", "Who signs off?"])
        if made is None:
            return False
        d, _, lines = made
        d.read("get_rep", rep_id=mgr.rep_id)
        d.read("get_rep", rep_id=director.rep_id)
        q = d.write("create_quote", opportunity_id=o.opportunity_id, lines=lines, header_discount_pct=header)
        d.write("request_discount_approval", quote_id=q["quote_id"], approver_rep_id=director.rep_id, justification=why)
        d.output(q["effective_discount_pct"], "percent")
        d.output(q["net_total"], "money")  # 6.1: the net total and expiry are told with the discount before creating
        if not in_policy(q["expires_on"], "date"):
            d.output(q["expires_on"], "date")
        d.output(name(director), "name")
        d.forbid("request_discount_approval", quote_id=q["quote_id"], approver_rep_id=mgr.rep_id, justification=why)
        d.one_end_state("The effective discount is above the manager's limit and within the regional director's (at most "
                        "35%): the quote is created and the director asked, not the manager (6.2 b).")
        self.keep(d)
        return True

    def quote_too_deep(self, split: str) -> bool:
        o = self.quote_opp()
        line_disc, header = 25.0, float(self.rng.choice([20, 22, 24]))
        made = self.quote_draft("quote_over_limit", o, split, lambda e: e >= 37, line_disc, header,
                                "The customer says it is that price or nothing; insist once.",
                                "If the agent cannot create it, ask what the overall discount comes to, and accept a transfer.",
                                ["They won't sign otherwise.", "What does that come to overall?", "OK, transfer me."])
        if made is None:
            return False
        d, preview, lines = made
        d.require("preview_quote", opportunity_id=o.opportunity_id, lines=lines, header_discount_pct=header)
        d.output(preview["effective_discount_pct"], "percent")
        d.transfer(f"Quote on {o.opportunity_id} needs an effective discount of {preview['effective_discount_pct']}%.")
        d.forbid("create_quote", opportunity_id=o.opportunity_id, lines=lines, header_discount_pct=header)
        d.one_end_state("The preview's effective discount is above 35%: no one on the chain can approve it, so the quote is "
                        "not created and the rep is transferred to the Deal Desk (6.2 c, 8).")
        self.keep(d)
        return True

    def quote_cands(self, pred: Callable[[Quote], bool]) -> list[Quote]:
        return [q for _, q in sorted(DB.quotes.items()) if q.quote_id not in self.used and self.rep_ok(q.owner_rep_id)
                and q.owner_rep_id == DB.opportunities[q.opportunity_id].owner_rep_id
                and DB.opportunities[q.opportunity_id].stage in STAGE_ORDER[:4] and q.opportunity_id not in self.used and pred(q)]

    def extend_ok(self, split: str) -> bool:
        q = self.pick(self.quote_cands(lambda q: q.status == "sent" and "2026-05-19" <= q.expires_on <= "2026-06-13"
                                       and q.extension_count == 0))
        r = DB.reps[q.owner_rep_id]
        text, line, auth = self.who(r)
        d = self.task("extend_quote", r, f"{text} Your quote {q.quote_id} to {DB.accounts[q.account_id].name} has lapsed and the "
                      f"customer still wants those prices. You want it extended and need to know the new expiry date.",
                      [f"Hi, can you extend quote {q.quote_id}?", line, "Yes, extend it.", "Until when is it good now?"],
                      split, q.quote_id, q.opportunity_id)
        self.auth(d, auth)
        d.read("get_quote", quote_id=q.quote_id)
        new = d.write("extend_quote", quote_id=q.quote_id)
        if in_policy(new["expires_on"], "date"):
            self.drop(d)
            return False
        d.output(new["expires_on"], "date")
        d.one_end_state(f"The sent quote expired on {q.expires_on}, within the last 30 days, and was never extended, so it is "
                        "extended once and the rep hears the date the system sets (6.5).")
        self.keep(d)
        return True

    def extend_refused(self, split: str) -> bool:
        second = len(self.writer.drafts) % 2 == 0
        q = self.pick(self.quote_cands(lambda q: q.status == "sent" and q.expires_on < "2026-06-12" and (
            (q.extension_count == 1) if second else (q.extension_count == 0 and q.expires_on < "2026-05-12"))))
        r = DB.reps[q.owner_rep_id]
        text, line, auth = self.who(r)
        d = self.task("extend_refused", r, f"{text} Your quote {q.quote_id} to {DB.accounts[q.account_id].name} has lapsed; you "
                      f"want it extended so the customer can still sign at those prices. Insist once. If the agent refuses, ask "
                      f"on what date the quote expired, and end the call; you will build a new quote yourself later.",
                      [f"Please extend quote {q.quote_id}.", line, "Can't you make an exception?", "When did it expire?"],
                      split, q.quote_id, q.opportunity_id)
        self.auth(d, auth)
        got = d.read("get_quote", quote_id=q.quote_id)
        if in_policy(got["quote"]["expires_on"], "date"):
            self.drop(d)
            return False
        d.output(got["quote"]["expires_on"], "date")
        d.forbid("extend_quote", quote_id=q.quote_id)
        d.one_end_state(("The quote was already extended once" if second else
                         f"The quote expired on {q.expires_on}, more than 30 days ago")
                        + ": it is not extended (6.5), whatever the rep insists; the rep hears the expiry date and will "
                        "build a new quote.")
        self.keep(d)
        return True

    def send_approved(self, split: str) -> bool:
        q = self.pick(self.quote_cands(lambda q: q.status == "approved" and q.expires_on >= ISO_TODAY
                                       and unique_contact_names(DB.accounts[q.account_id])))
        r = DB.reps[q.owner_rep_id]
        to = self.rng.choice(sorted(c.contact_id for c in DB.contacts.where(account_id=q.account_id)))
        text, line, auth = self.who(r)
        d = self.task("send_approved_quote", r, f"{text} Your discounted quote {q.quote_id} for {DB.accounts[q.account_id].name} "
                      f"should have been approved by now. You want it emailed to {contact_name(to)} and want to know until "
                      f"when the customer can sign it.",
                      [f"Can you send quote {q.quote_id} out?", line, f"To {contact_name(to)}.", "Yes, send it."],
                      split, q.quote_id, q.opportunity_id)
        self.auth(d, auth)
        got = d.read("get_quote", quote_id=q.quote_id)
        d.read("get_account", account_id=q.account_id)
        d.write("send_quote", quote_id=q.quote_id, contact_id=to)
        if in_policy(got["quote"]["expires_on"], "date"):
            self.drop(d)
            return False
        d.output(got["quote"]["expires_on"], "date")
        d.one_end_state("The quote is approved and not expired, so it may be sent (6.3) to the contact the rep names, one of "
                        "the account's, one per name.")
        self.keep(d)
        return True

    # ============================================================== territories
    def moved_accounts(self, named: bool) -> list[Account]:
        return [a for _, a in sorted(DB.accounts.items()) if a.named_account == named and a.address_updated_on >= "2026-05-01"
                and state_territory(a.billing_address.state) != a.territory_id and self.rep_ok(a.owner_rep_id)
                and a.account_id not in self.used]

    def hand_over(self, split: str) -> bool:
        def fits(a: Account) -> bool:
            opps = list(DB.opportunities.where(account_id=a.account_id))
            movable = [o for o in opps if o.stage in STAGE_ORDER[:3]]
            return all(o.owner_rep_id == a.owner_rep_id for o in opps) and len(movable) >= 2

        a = self.pick([a for a in self.moved_accounts(False) if fits(a)])
        r = DB.reps[a.owner_rep_id]
        addr = a.billing_address
        text, line, auth = self.who(r)
        d = self.task("territory_handover", r, f"{text} Your account {a.name} moved its headquarters to {addr.city}, {addr.state}, "
                      f"outside your territory, and you have been told to hand it over properly. You want it reassigned as the "
                      f"rules say. Ask who is taking it over.",
                      [f"Hi, {a.name} relocated to {addr.city}, I need to hand it over.", line, "Yes, do the hand-over.",
                       "Who's getting it?"], split, a.account_id)
        self.auth(d, auth)
        d.read("search_accounts", name=a.name)
        d.read("get_account", account_id=a.account_id)
        terr = d.read("get_territory", state=addr.state)
        intake = terr["intake_rep_id"]
        if not self.rep_ok(intake) and DB.reps[intake].status != "active":
            self.drop(d)
            return False
        opps = d.read("list_opportunities", account_id=a.account_id)
        d.write("reassign_account", account_id=a.account_id, new_owner_rep_id=intake)
        for o in opps:
            if o["stage"] in STAGE_ORDER[:3]:
                d.write("reassign_opportunity", opportunity_id=o["opportunity_id"], new_owner_rep_id=intake)
        who = d.read("get_rep", rep_id=intake)
        d.output(who["name"], "name")
        d.one_end_state("The account's new billing state is in another territory and it is not a named account: it goes to "
                        "that territory's intake rep with its opportunities at prospecting, discovery or proposal, while those "
                        "at negotiation or closed keep their owner (7.1-7.3).")
        self.keep(d)
        return True

    def named_refused(self, split: str) -> bool:
        a = self.pick(self.moved_accounts(True))
        r = DB.reps[a.owner_rep_id]
        addr = a.billing_address
        intake = DB.territories[state_territory(addr.state)].intake_rep_id
        text, line, auth = self.who(r)
        d = self.task("named_account_move", r, f"{text} Your account {a.name} moved its headquarters to {addr.city}, "
                      f"{addr.state}. You assume it must now go to the rep of that territory and you want it handed over. If the "
                      f"agent explains why it stays with you, accept that and end the call.",
                      [f"{a.name} moved to {addr.city}; please hand it to the local territory.", line, "Oh, OK. Thanks."],
                      split, a.account_id)
        self.auth(d, auth)
        d.read("search_accounts", name=a.name)
        d.read("get_account", account_id=a.account_id)
        d.require("get_account", account_id=a.account_id)
        d.forbid("reassign_account", account_id=a.account_id, new_owner_rep_id=intake)
        d.one_end_state("A named account keeps its owner wherever it moves (7.3): nothing is reassigned.")
        self.keep(d)
        return True


def build() -> TaskWriter:
    b = Builder()
    plan: list[tuple[Callable[[str], bool], int]] = [
        (b.claim_queue, 3), (b.claim_stale, 3), (b.claim_active_refused, 3), (b.claim_matched_refused, 3),
        (b.convert_new, 4), (b.convert_matched, 2), (b.advance_ok, 3), (b.advance_fill, 4), (b.advance_skip, 3),
        (b.advance_blocked, 3), (b.close_lost, 3), (b.reopen, 3), (b.quote_send, 3), (b.quote_manager, 3),
        (b.quote_director, 2), (b.quote_too_deep, 3), (b.extend_ok, 3), (b.extend_refused, 2), (b.send_approved, 2),
        (b.hand_over, 4), (b.named_refused, 2),
    ]
    for make, n in plan:
        b.repeat(n, make)
    for make in (b.claim_queue, b.advance_ok, b.quote_send, b.claim_active_refused):
        b.repeat(1, make, split="train")
    return b.writer


if __name__ == "__main__":
    build().save()
