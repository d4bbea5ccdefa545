"""Builds fixtures/legal/tasks.json from the DB: `python -m tests_domains.legal.make_tasks`.

`build()` returns a `TaskWriter`; a test checks that `build().render()` equals tasks.json byte for byte. Each
template picks clients and records from the DB (sorted candidates, seeded choice); every gold call runs on the
task's own environment as it is added, and every figure a task requires is read from what the tools returned.
"""

from __future__ import annotations

import random
from datetime import date
from typing import Any

import orjson

from pytest_tau import Environment, Output, TaskDraft, TaskWriter, output_told
from tests_domains.legal.domain import DOMAIN
from tests_domains.legal.schema import Client, Contact, Document, Invoice, Matter

DB = DOMAIN.initial_db
TODAY = DOMAIN.today.isoformat()
WINDOW_START = "2026-01-14"
OVERDUE_BEFORE = "2026-03-15"
CREDIT_LIMIT = 500.0
MOODS = ["You are polite but pressed for time.", "You are friendly and a little chatty.",
         "You are precise and like to double-check dates and figures.", "You are anxious and ask the agent to repeat key details.",
         "You are businesslike and answer only what you are asked.", "You are irritated about the situation but civil."]
AREA_WORDS = {"business_litigation": "a business lawsuit", "employment": "an employment dispute",
              "real_estate": "a real estate matter", "family": "a family-law matter"}
AREA_STORY = {
    "business_litigation": "they owe you money under a supply contract and stopped answering your calls",
    "employment": "a dispute over unpaid wages and a non-compete agreement",
    "real_estate": "a dispute over a commercial lease and the return of a security deposit",
    "family": "a custody and parenting-time modification",
}
FRESH_PEOPLE = ["Gretchen Albers", "Thaddeus Pruitt", "Odalys Ferrante", "Crispin Wheelock", "Marguerite Osei", "Leopold Vantreese",
                "Saoirse Delahunt", "Ignatius Brandvold", "Philippa Roanhorse", "Anselm Kittredge"]
FRESH_COMPANIES = ["Ptarmigan Roofing LLC", "Blue Heron Millwork Inc.", "Quillfeather Printing Co.", "Ember Ridge Excavation LLC",
                   "Wapato Cold Storage Inc.", "Kinnikinnick Supply Co.", "Sauvie Island Produce LLC", "Tolmie Peak Trucking Inc."]
NEW_CONTACTS = [("Rosemary Ekwueme", "Bookkeeper"), ("Dashiell Marchbanks", "Office Manager"), ("Henrietta Vos", "Bookkeeper"),
                ("Cornelius Abara", "Accountant"), ("Winifred Salcedo", "Office Manager"), ("Barnaby Teodoro", "Bookkeeper"),
                ("Ottilie Granger", "Controller"), ("Lysander Okoro", "Bookkeeper"), ("Perpetua Lindqvist", "Controller"),
                ("Augustin Mbeki", "Office Manager"), ("Delphine Castaneda", "Accountant"), ("Evander Holcomb", "Bookkeeper")]
THIRD_PARTIES = [("Margaret Holloway, CPA", "mholloway@hollowaycpa.com", "your accountant"),
                 ("Dr. Ravi Sethuraman", "ravi@sethuramanforensics.com", "the expert witness you hired"),
                 ("Constance Beaulieu", "cbeaulieu@beaulieulaw.com", "your new co-counsel at Beaulieu Law"),
                 ("Julian Ashworth", "jashworth@pacificmutual-ins.com", "your insurance adjuster at Pacific Mutual")]
RULE_DAYS = {"complaint_served": (30, "calendar_days"), "motion_served": (14, "calendar_days"), "discovery_served": (30, "calendar_days"),
             "judgment_entered": (30, "calendar_days")}


def spoken(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def short(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.strftime('%A, %B')} {d.day}"


def tool(name: str, **arguments: Any) -> Any:
    call = Environment(DOMAIN).call(name, arguments)
    assert not call.error, call.result
    return orjson.loads(call.result)


def matters_of(c: Client) -> list[Matter]:
    return sorted(DB.matters.where(client_id=c.client_id), key=lambda m: m.matter_id)


def invoices_of(m: Matter) -> list[Invoice]:
    return sorted(DB.invoices.where(matter_id=m.matter_id), key=lambda i: i.invoice_id)


def overdue(c: Client) -> list[Invoice]:
    return [i for m in matters_of(c) for i in invoices_of(m) if i.balance > 0 and i.due_on < OVERDUE_BEFORE]


def docs_of(m: Matter) -> list[Document]:
    return sorted(DB.documents.where(matter_id=m.matter_id), key=lambda d: d.document_id)


def docketed(event_id: str) -> bool:
    return any(d.event_id == event_id for d in DB.docket.values())


def conflict_kind(name: str) -> str:
    """'current', 'transfer', 'none' by the policy's rule 3.3."""
    hit = tool("run_conflict_check", names=[name])[0]
    if any(c["client_status"] == "current" for c in hit["client_matches"]):
        return "current"
    if hit["client_matches"] or any(p["party_role"] != "adverse" and p["matter_status"] != "closed" for p in hit["party_matches"]):
        return "transfer"
    if not hit["party_matches"]:
        return "none"
    return "opposed" if all(p["party_role"] == "adverse" for p in hit["party_matches"]) else "unclear"


def rule(e: Any) -> tuple[int, str]:
    days, count = RULE_DAYS[e.kind]
    return (days + 3 if e.service_method == "mail" and count == "calendar_days" else days), count


def future_due(m: Matter, e: Any) -> bool:
    days, count = rule(e)
    return str(tool("compute_deadline", court_id=m.court_id, start_date=e.date, days=days, count=count)["due_date"]) > TODAY


def in_policy(value: float) -> bool:
    return output_told(Output(value=f"{value:.2f}", kind="money"), DOMAIN.policy)


def audit(inv: Invoice) -> Any:
    return tool("audit_invoice", invoice_id=inv.invoice_id)


class Builder:
    def __init__(self) -> None:
        self.rng = random.Random(4141)
        self.used: set[str] = set()
        self.writer = TaskWriter(DOMAIN)
        self.fresh_people = list(FRESH_PEOPLE)
        self.fresh_companies = list(FRESH_COMPANIES)
        self.contacts = list(NEW_CONTACTS)

    def pick(self, cands: list[Any]) -> Any:
        if not cands:
            raise RuntimeError("no candidate")
        return self.rng.choice(cands)

    def clients(self, pred: Any, allow_overdue: bool = False) -> list[Client]:
        return [c for k, c in sorted(DB.clients.items()) if k not in self.used and (allow_overdue or not overdue(c)) and pred(c)]

    def fresh(self, company: bool) -> str:
        pool = self.fresh_companies if company else self.fresh_people
        name = pool.pop(0)
        assert conflict_kind(name) == "none", name
        return name

    @staticmethod
    def caller(c: Client, need: str = "full", titles: tuple[str, ...] = ()) -> Contact | None:
        """None for an individual client speaking for themselves; else a contact of an organization with that access."""
        if c.kind == "individual":
            return None
        found = [x for x in sorted(c.contacts, key=lambda x: x.contact_id) if x.access == need and (not titles or x.title in titles)]
        return found[0] if found else None

    def who(self, c: Client, contact: Contact | None) -> tuple[str, str, str, tuple[str, dict[str, str]]]:
        """(instructions, opening identification line, caller email, auth call)."""
        if contact is None:
            assert c.date_of_birth
            text = (f"You are {c.name}, a client of the law firm Calder Voss & Ng. Your client number is {c.client_id} and you were "
                    f"born on {spoken(c.date_of_birth)}. Your email is {c.email}.")
            line = f"My client number is {c.client_id} and my date of birth is {spoken(c.date_of_birth)}."
            return text, line, c.email, ("find_client", {"client_number": c.client_id, "date_of_birth": c.date_of_birth})
        text = (f"You are {contact.name}, {contact.title} of {c.name}, a client of the law firm Calder Voss & Ng. Your email is "
                f"{contact.email} and your company's client number is {c.client_id}.")
        line = f"I'm {contact.name} from {c.name.rstrip('.')}. My email is {contact.email} and our client number is {c.client_id}."
        return text, line, contact.email, ("find_client_contact", {"email": contact.email, "client_number": c.client_id})

    def task(self, kind: str, c: Client, instructions: str, script: list[str], split: str = "test", ordered: bool = False) -> TaskDraft:
        number = sum(1 for t in self.writer.drafts if t.rsplit("_", 1)[0] == kind) + 1
        self.used.add(c.client_id)
        mood = MOODS[len(self.writer.drafts) % len(MOODS)]
        return self.writer.task(f"{kind}_{number}", split=split, ordered=ordered, script=script,
                                instructions=f"{instructions} {mood} Give information only when the agent asks for it.")

    @staticmethod
    def auth(d: TaskDraft, auth: tuple[str, dict[str, str]]) -> Any:
        return d.read(auth[0], **auth[1])

    def matter_name(self, m: Matter) -> str:
        return f"the matter '{m.title}'" + (f" (case number {m.case_number})" if m.case_number else "")

    # ============================================================== intake
    ADDERS = ("Chief Executive Officer", "General Counsel", "Owner")

    def full_caller(self, org: bool, adders: bool = False) -> tuple[Client, Contact | None]:
        if org:
            titles = self.ADDERS if adders else ()
            c = self.pick(self.clients(lambda c: c.kind == "organization" and self.caller(c, "full", titles) is not None))
            return c, self.caller(c, "full", titles)
        return self.pick(self.clients(lambda c: c.kind == "individual")), None

    def area_for(self, org: bool) -> str:
        return self.rng.choice(["business_litigation", "employment", "real_estate"] + ([] if org else ["family"]))

    def new_matter(self, split: str = "test", opposed: bool = False) -> None:
        org = len(self.writer.drafts) % 2 == 0
        c, contact = self.full_caller(org, adders=True)
        area = self.area_for(org)
        adverse = [self.fresh(company=area != "family" and self.rng.random() < 0.6)]
        if opposed:
            adverse.append(self.pick([n for n in OPPOSED if n not in self.used]))
            self.used.add(adverse[-1])
        who = " and ".join(adverse)
        new_name, new_title = self.contacts.pop(0)
        dom = contact.email.split("@")[1] if contact else "gmail.com"
        new_email = f"{new_name.split()[0][0].lower()}{new_name.split()[-1].lower()}@{dom}"
        new_phone = f"503-{self.rng.randint(200, 989)}-{self.rng.randint(0, 9999):04d}"
        text, line, email, auth = self.who(c, contact)
        d = self.task("new_matter", c, f"{text} You want the firm to take on a new matter: {AREA_WORDS[area]} against {who} "
                      f"({AREA_STORY[area]}). Nothing has been filed in court yet. Before anything is sent you want to hear the "
                      f"retainer you will have to deposit; when you hear it, accept it. You also want {new_name}, your "
                      f"{new_title.lower()} (email {new_email}, phone {new_phone}), added as a contact with billing-only access so "
                      f"they can handle the invoices.",
                      ["Hi, I need to open a new matter with the firm.", line, f"It's {AREA_WORDS[area]} against {who}.",
                       "Yes, that's fine, please go ahead.",
                       f"One more thing: please add {new_name}, our {new_title.lower()}, as a billing-only contact: {new_email}, {new_phone}."],
                      split)
        self.auth(d, auth)
        d.read("run_conflict_check", names=adverse)
        m = d.write("open_matter", client_id=c.client_id, practice_area=area, title=f"{c.name} v. {adverse[0]}", adverse_parties=adverse)
        q = d.read("quote_engagement", client_id=c.client_id, practice_area=area)
        d.write("send_engagement_letter", matter_id=m["matter_id"], retainer=q["retainer"], recipient_email=email)
        d.write("add_client_contact", client_id=c.client_id, name=new_name, email=new_email, phone=new_phone, title=new_title,
                access="billing")
        d.output(q["retainer"], "money")
        d.one_end_state("3.2: the client has no overdue invoice; 3.3 c: every adverse party matches nothing, or only as an "
                        "adverse party, so there is no conflict; the matter is opened with every adverse party (3.4), the retainer "
                        "quoted and the letter sent to the caller's own email (3.5); 7.1: the caller may add contacts.")

    def conflict(self, kind: str) -> None:
        org = len(self.writer.drafts) % 2 == 0
        c, contact = self.full_caller(org)
        pool = CURRENT if kind == "current" else TRANSFER
        adverse = self.pick([n for n in pool if n not in self.used and n != c.name])
        self.used.add(adverse)
        area = self.area_for(org) if not adverse.endswith(("LLC", "Inc.", "Co.", "Corp.")) else self.rng.choice(["business_litigation", "real_estate"])
        text, line, _, auth = self.who(c, contact)
        d = self.task(f"conflict_{kind}", c, f"{text} You want the firm to take on a new matter: {AREA_WORDS[area]} against {adverse} "
                      f"({AREA_STORY[area]}). Nothing has been filed yet. If the agent says the firm cannot take it, ask once why; "
                      f"you do not know of any connection between the firm and {adverse}.",
                      ["Hello, I'd like the firm to represent me in a new dispute.", line, f"The other side is {adverse}.",
                       "Why not? Can't you make an exception?"])
        self.auth(d, auth)
        d.read("run_conflict_check", names=[adverse])
        d.require("run_conflict_check", names=[adverse])
        if kind == "current":
            d.forbid("transfer_to_human_agents")
        else:
            d.transfer(f"Conflicts review needed: new {area} matter for {c.name} against {adverse}.")
        d.forbid("open_matter", client_id=c.client_id, practice_area=area, title=f"{c.name} v. {adverse}", adverse_parties=[adverse])
        if kind == "current":
            d.one_end_state(f"3.3 a: {adverse} matches one current client of the firm and nothing else, so the matter is not "
                            "opened and nothing is transferred; the client has no overdue invoice (3.2), so the conflict is the "
                            "one reason, told without saying who or why.")
        else:
            d.one_end_state(f"3.3 b: {adverse} matches a former client or a co-party or related party of an open or intake "
                            "matter, and no current client, so only conflicts counsel can clear it: no matter, a transfer after "
                            "the check (8); the client has no overdue invoice (3.2).")

    def overdue_blocks(self) -> None:
        def ok(c: Client) -> bool:
            od = overdue(c)
            if len(od) != 1 or c.client_id in self.used:
                return False
            return c.kind == "individual" or self.caller(c, "full") is not None
        c = self.pick([c for _, c in sorted(DB.clients.items()) if ok(c)])
        contact = self.caller(c, "full") if c.kind == "organization" else None
        inv = overdue(c)[0]
        area = self.area_for(c.kind == "organization")
        adverse = self.fresh(company=area != "family")
        text, line, _, auth = self.who(c, contact)
        d = self.task("overdue_blocks", c, f"{text} You want the firm to open a new matter: {AREA_WORDS[area]} against {adverse}. "
                      "You have not kept track of your bills with the firm. If the agent says the new matter cannot be opened yet, "
                      "ask exactly which invoice is the problem and how much is unpaid on it.",
                      ["Hi, I want to start a new case with you.", line, f"It's against {adverse}.", "Which invoice, and how much is owed?"])
        self.auth(d, auth)
        d.read("list_client_matters", client_id=c.client_id)
        d.read("list_invoices", matter_id=inv.matter_id)
        got = d.read("get_invoice", invoice_id=inv.invoice_id)
        d.output(got["invoice_id"], "code")
        d.output(got["balance"], "money")
        d.forbid("open_matter", client_id=c.client_id, practice_area=area, title=f"{c.name} v. {adverse}", adverse_parties=[adverse])
        d.one_end_state(f"3.2: {inv.invoice_id} is the client's one invoice with an unpaid balance due before March 15, 2026, so "
                        "no matter is opened whatever the conflict check would say; its number and balance are told and nothing "
                        "is transferred.")

    # ============================================================== deadlines
    def deadline(self, n_events: int = 1, split: str = "test") -> None:
        def events(m: Matter) -> list[Any]:
            evs = [e for e in m.events if not docketed(e.event_id) and future_due(m, e)]
            keys = [(e.kind, e.date) for e in m.events]
            return [e for e in evs if keys.count((e.kind, e.date)) == 1]
        cands = []
        for c in self.clients(lambda c: c.kind == "individual" or self.caller(c, "full") is not None):
            for m in matters_of(c):
                if m.status == "open" and m.court_id and len(events(m)) >= n_events:
                    cands.append((c, m))
        c, m = self.pick(cands)
        evs = sorted(self.rng.sample(events(m), n_events), key=lambda e: e.event_id)
        contact = self.caller(c, "full")
        text, line, _, auth = self.who(c, contact)
        said = []
        for e in evs:
            how = {"mail": "by mail", "personal": "by hand delivery", "electronic": "electronically through the court's e-filing system",
                   "entry": ""}[e.service_method]
            said.append(f"the {e.description.split(' served')[0].lower() if e.kind != 'judgment_entered' else 'general judgment'} "
                        + (f"served {how} on {short(e.date)}" if e.kind != "judgment_entered" else f"entered on {short(e.date)}"))
        what = " and ".join(said)
        d = self.task("deadline", c, f"{text} This is about {self.matter_name(m)}. You are calling about {what}. You want the "
                      "deadline for responding to " + ("each of them" if n_events > 1 else "it")
                      + " put on the firm's calendar and you want to know the due date" + ("s" if n_events > 1 else "")
                      + ". You do not know how deadlines are counted.",
                      ["Hi, I need to make sure a court deadline is on the calendar.", line, f"It's {self.matter_name(m)}.",
                       f"It's about {what}.", "Yes, please docket it."], split)
        self.auth(d, auth)
        d.read("list_client_matters", client_id=c.client_id)  # the caller names the matter; its number is found here
        d.read("get_matter", matter_id=m.matter_id)
        d.read("list_docket", matter_id=m.matter_id)
        for e in evs:
            days, count = rule(e)
            due = d.read("compute_deadline", court_id=m.court_id, start_date=e.date, days=days, count=count)
            d.write("docket_deadline", matter_id=m.matter_id, event_id=e.event_id, due_date=due["due_date"],
                    description=f"Response due: {e.description}")
            d.output(due["due_date"], "date")
        d.one_end_state("The caller names the matter and each event by its papers and date, one event each; 4.2 gives the "
                        "period (3 more days for mail service), 4.3 counts it on the matter's court calendar with compute_deadline, "
                        "and 4.4: none is docketed yet, so each gets one entry.")

    # ============================================================== documents
    def documents(self, variant: str) -> None:
        def fits(m: Matter) -> bool:
            ds = docs_of(m)
            plain = [x for x in ds if x.privilege == "none" and not x.protective_order]
            titles = [x.title for x in ds]
            unique = len(set(titles)) == len(titles)
            if variant == "privileged":
                return unique and len(plain) >= 2 and any(x.privilege != "none" and not x.protective_order for x in ds)
            return unique and len(plain) >= 2 and any(x.protective_order for x in ds)
        cands = [(c, m) for c in self.clients(lambda c: c.kind == "individual" or self.caller(c, "full") is not None)
                 for m in matters_of(c) if m.status == "open" and fits(m)]
        c, m = self.pick(cands)
        contact = self.caller(c, "full")
        ds = docs_of(m)
        plain = self.rng.sample([x for x in ds if x.privilege == "none" and not x.protective_order], 2)
        bad = self.pick([x for x in ds if (x.privilege != "none" and not x.protective_order) if variant == "privileged"]
                        or [x for x in ds if x.protective_order])
        asked = sorted([*plain, bad], key=lambda x: x.title)
        if variant == "privileged":
            why = (f"6.2: '{bad.title}' is privileged ({bad.privilege}), so it never goes to a third party, even at the "
                   "client's request; the other two are sent in one call (6.4)")
        else:
            why = (f"6.3: '{bad.title}' is under a protective order, so it is sent to no one through the desk, the client "
                   "included; the other two are sent in one call (6.4)")
        text, line, email, auth = self.who(c, contact)
        names = "; ".join(f"'{x.title}'" for x in asked)
        if variant == "privileged":
            rname, remail, rel = THIRD_PARTIES[len(self.writer.drafts) % len(THIRD_PARTIES)]
            goal = f"emailed to {rel}, {rname} ({remail})"
            push = "If the agent will not send one of them, push back once, then accept whatever the agent can send."
        else:
            rname, remail = (contact.name if contact else c.name), email
            goal = f"emailed to yourself at {email}"
            push = "If the agent says one of them cannot be sent, ask once whether you can at least have it since it is your own case, then accept."
        d = self.task(f"documents_{variant}", c, f"{text} About {self.matter_name(m)}, you want copies of these documents {goal}: {names}. "
                      + push, ["Hi, I need some documents from my file sent out.", line, f"It's {self.matter_name(m)}.",
                                f"The documents are {names}.", f"Send them to {rname}, {remail}.", "Okay, go ahead."])
        self.auth(d, auth)
        d.read("list_client_matters", client_id=c.client_id)
        d.read("list_documents", matter_id=m.matter_id)
        d.write("send_documents", matter_id=m.matter_id, document_ids=sorted(x.document_id for x in plain), recipient_name=rname,
                recipient_email=remail, note="Copies as requested.")
        d.forbid("send_documents", matter_id=m.matter_id, document_ids=sorted(x.document_id for x in asked), recipient_name=rname,
                 recipient_email=remail, note="Copies as requested.")
        d.forbid("send_documents", matter_id=m.matter_id, document_ids=[bad.document_id], recipient_name=rname,
                 recipient_email=remail, note="Copies as requested.")
        d.one_end_state(f"{why}; the caller names each document by its title, unique in the matter.")

    def billing_contact_documents(self) -> None:
        def fits(c: Client) -> bool:
            if self.caller(c, "billing") is None:
                return False
            return any(i.status == "open" for m in matters_of(c) for i in invoices_of(m)) and any(
                x.privilege == "none" and not x.protective_order for m in matters_of(c) if m.status == "open" for x in docs_of(m))
        c = self.pick(self.clients(fits))
        contact = self.caller(c, "billing")
        assert contact is not None
        inv = [i for m in matters_of(c) for i in invoices_of(m) if i.status == "open"][-1]
        m = DB.matters[inv.matter_id]
        doc = next((x for x in docs_of(m) if x.privilege == "none" and not x.protective_order), None)
        if doc is None:
            m = next(m for m in matters_of(c) if m.status == "open" and any(x.privilege == "none" and not x.protective_order for x in docs_of(m)))
            doc = next(x for x in docs_of(m) if x.privilege == "none" and not x.protective_order)
        text, line, email, auth = self.who(c, contact)
        d = self.task("billing_contact_documents", c, f"{text} You want two things: the unpaid balance on invoice {inv.invoice_id}, and a "
                      f"copy of the document '{doc.title}' from {self.matter_name(m)} emailed to you at {email}. If the agent "
                      "declines the document, accept it.",
                      ["Hi, two quick things about our account.", line, f"What's still owed on invoice {inv.invoice_id}?",
                       f"And can you email me '{doc.title}' from {self.matter_name(m)}?"])
        self.auth(d, auth)
        got = d.read("get_invoice", invoice_id=inv.invoice_id)
        d.output(got["balance"], "money")
        d.forbid("send_documents", matter_id=m.matter_id, document_ids=[doc.document_id], recipient_name=contact.name,
                 recipient_email=email, note="Copy as requested.")
        d.one_end_state("1.4: the caller's access is billing only, so the invoice balance is told and the document is not sent; "
                        "nothing is transferred (8).")

    # ============================================================== billing
    def invoice_cands(self, pred: Any, need: str = "any") -> list[tuple[Client, Invoice, Any]]:
        out = []
        for c in self.clients(lambda c: True, allow_overdue=True):
            if need == "full" and c.kind == "organization" and self.caller(c, "full") is None:
                continue
            for m in matters_of(c):
                for inv in invoices_of(m):
                    if inv.status == "open" and inv.balance > 0:
                        a = audit(inv)
                        if pred(inv, a):
                            out.append((c, inv, a))
        return out

    def billing_caller(self, c: Client, need: str) -> Contact | None:
        if c.kind == "individual":
            return None
        if need == "any" and self.caller(c, "billing") is not None:
            return self.caller(c, "billing")
        return self.caller(c, "full")

    def credit_ok(self, split: str = "test") -> None:
        c, inv, _a = self.pick(self.invoice_cands(lambda i, a: i.issued_on >= WINDOW_START and 0 < a["total_overcharge"] <= CREDIT_LIMIT
                                                 and a["total_overcharge"] < i.balance and not in_policy(a["total_overcharge"])))
        contact = self.billing_caller(c, "any")
        text, line, _, auth = self.who(c, contact)
        d = self.task("rate_credit", c, f"{text} You think some lines on invoice {inv.invoice_id} are billed above the firm's published "
                      "rates, but you are not sure which ones. You want the invoice corrected and to know by how much it goes down. "
                      "Agree to the correction the agent proposes. At the end, also ask how much unbilled time the firm will carry "
                      "for you before it asks for a retainer top-up; if the agent will not say, accept that.",
                      ["Hi, I think we were overbilled on an invoice.", line, f"It's invoice {inv.invoice_id}.", "Yes, please apply that.",
                       "One more thing: how much unbilled time will you carry for us before you ask for a retainer top-up?"],
                      split)
        self.auth(d, auth)
        d.read("get_invoice", invoice_id=inv.invoice_id)
        got = d.read("audit_invoice", invoice_id=inv.invoice_id)
        d.write("apply_invoice_credit", invoice_id=inv.invoice_id, line_numbers=[x["line_no"] for x in got["overbilled_lines"]],
                amount=got["total_overcharge"], reason="Billed above the fee schedule rate.")
        d.output(got["total_overcharge"], "money")
        d.one_end_state("5.2: the invoice was issued within 90 days, is not paid in full, and the audit's overcharge is "
                        "$500.00 or less, so exactly the audited lines and amount are credited; the retainer question concerns "
                        "internal notes the desk does not read out.")

    def credit_bundle(self) -> None:
        def fits(i: Invoice, a: Any) -> bool:
            t = DB.trust_accounts.get(i.matter_id)
            engagement = any(x.doc_type == "engagement_letter" for x in docs_of(DB.matters[i.matter_id]))
            return (i.issued_on >= WINDOW_START and 0 < a["total_overcharge"] <= CREDIT_LIMIT and a["total_overcharge"] < i.balance
                    and t is not None and t.balance >= i.balance and engagement)
        c, inv, _a = self.pick(self.invoice_cands(fits, need="full"))
        contact = self.caller(c, "full")
        m = DB.matters[inv.matter_id]
        doc = next(x for x in docs_of(m) if x.doc_type == "engagement_letter")
        assert doc.privilege == "none" and not doc.protective_order, doc.document_id
        rname, remail, rel = THIRD_PARTIES[0]
        text, line, _, auth = self.who(c, contact)
        d = self.task("credit_trust_bundle", c, f"{text} About invoice {inv.invoice_id} ({self.matter_name(m)}): first, you believe some "
                      "lines are billed above the firm's rates and want that corrected (agree to the correction proposed); then you "
                      "want whatever is left on that invoice paid from the money you hold in trust for that same matter, and to know "
                      f"how much will remain in trust afterwards. Finally, you want the '{doc.title}' of that matter emailed to {rel}, "
                      f"{rname} ({remail}).",
                      ["Hi, I have a few things about an invoice.", line, f"Invoice {inv.invoice_id}. I think the rates are off.",
                       "Yes, apply the correction.", "Now please pay the rest of that invoice from my trust funds on the same matter.",
                       "Yes.", f"Last thing: please email the '{doc.title}' to {rname}, {remail}."])
        self.auth(d, auth)
        got = d.read("audit_invoice", invoice_id=inv.invoice_id)
        cr = d.write("apply_invoice_credit", invoice_id=inv.invoice_id, line_numbers=[x["line_no"] for x in got["overbilled_lines"]],
                     amount=got["total_overcharge"], reason="Billed above the fee schedule rate.")
        d.read("get_trust_account", matter_id=m.matter_id)
        paid = d.write("apply_trust_funds", matter_id=m.matter_id, invoice_id=inv.invoice_id, amount=cr["invoice"]["balance"])
        d.read("list_documents", matter_id=m.matter_id)
        d.write("send_documents", matter_id=m.matter_id, document_ids=[doc.document_id], recipient_name=rname, recipient_email=remail,
                note="Fee agreement as requested.")
        d.output(got["total_overcharge"], "money")
        d.output(paid["trust_balance_after"], "money")
        d.one_end_state("5.2: the invoice qualifies for the audited credit; 5.5: the trust funds of the same matter, more than "
                        "the balance left, pay that balance (the invoice is not disputed); 6.1: the engagement letter, the one "
                        "document with that title, is neither privileged nor under a protective order, so it may go to the "
                        "accountant the caller names.")

    def credit_transfer(self, kind: str) -> None:
        if kind == "over_limit":
            pred = lambda i, a: i.issued_on >= WINDOW_START and a["total_overcharge"] > CREDIT_LIMIT
        else:
            pred = lambda i, a: i.issued_on < WINDOW_START and 0 < a["total_overcharge"] < i.balance
        c, inv, _a = self.pick(self.invoice_cands(pred))
        contact = self.billing_caller(c, "any")
        text, line, _, auth = self.who(c, contact)
        d = self.task(f"credit_{kind}", c, f"{text} You believe invoice {inv.invoice_id} charges more per hour than the firm's rates "
                      "and you want a credit for the difference today. Insist once if the agent does not credit it; accept a hand-off "
                      "to someone who can decide.",
                      ["Hello, we were billed at the wrong rates.", line, f"Invoice {inv.invoice_id}.", "Can't you just credit it now?"])
        self.auth(d, auth)
        got = d.read("audit_invoice", invoice_id=inv.invoice_id)
        d.require("audit_invoice", invoice_id=inv.invoice_id)
        d.transfer(f"Rate overcharge on {inv.invoice_id} needs the billing partner.")
        d.forbid("apply_invoice_credit", invoice_id=inv.invoice_id, line_numbers=[x["line_no"] for x in got["overbilled_lines"]],
                 amount=got["total_overcharge"], reason="Billed above the fee schedule rate.")
        why = ("the audit's overcharge is over $500.00" if kind == "over_limit" else
               "the invoice was issued more than 90 days ago")
        d.one_end_state(f"5.3: {why}, so the desk credits nothing and transfers the caller to the billing partner after the "
                        "audit (8).")

    def dispute(self) -> None:
        def fits(i: Invoice, a: Any) -> bool:
            keys = [(x.date, x.description) for x in i.lines]
            return (i.issued_on >= WINDOW_START and a["total_overcharge"] == 0 and len(set(keys)) == len(keys) and len(i.lines) >= 5
                    and i.balance > 0)
        c, inv, _a = self.pick(self.invoice_cands(fits))
        contact = self.billing_caller(c, "any")
        lines = sorted(self.rng.sample(inv.lines, self.rng.choice([1, 2])), key=lambda x: x.line_no)
        said = " and ".join(f"the {x.hours:g} hours on {short(x.date)} for '{x.description}'" for x in lines)
        caller = contact.name if contact else c.name
        text, line, _, auth = self.who(c, contact)
        d = self.task("hours_dispute", c, f"{text} On invoice {inv.invoice_id} you object to {said}: you think nobody spent that long "
                      "on it. You are fine with the hourly rates. You would like those entries taken off the bill right now; if the "
                      "agent cannot do that, accept having your objection formally logged for review.",
                      ["Hi, I have a problem with some hours on our bill.", line, f"Invoice {inv.invoice_id}.",
                       f"It's {said}. Can you just remove them?", "Okay, log it then."])
        self.auth(d, auth)
        d.read("get_invoice", invoice_id=inv.invoice_id)
        d.write("open_billing_dispute", invoice_id=inv.invoice_id, line_numbers=[x.line_no for x in lines], raised_by=caller,
                reason="Client says the hours are more than the work took.")
        d.forbid("apply_invoice_credit", invoice_id=inv.invoice_id, line_numbers=[x.line_no for x in lines],
                 amount=min(round(sum(x.amount for x in lines), 2), inv.balance), reason="Hours removed at client's request.")
        d.one_end_state("5.4: the caller objects to the hours, not the rate, on an invoice issued within 90 days, so nothing "
                        "is credited and a dispute is opened on exactly the lines objected to, in the caller's full name.")

    def trust_wrong_matter(self) -> None:
        cands = []
        for c in self.clients(lambda c: c.kind == "individual" or self.caller(c, "full") is not None):
            ms = matters_of(c)
            for a_m in ms:
                ta = DB.trust_accounts.get(a_m.matter_id)
                for b_m in ms:
                    tb = DB.trust_accounts.get(b_m.matter_id)
                    if b_m.matter_id == a_m.matter_id or ta is None or ta.balance <= 0 or (tb is not None and tb.balance > 0):
                        continue
                    for inv in invoices_of(b_m):
                        if inv.status == "open" and 0 < inv.balance <= ta.balance:
                            cands.append((c, a_m, inv))
        c, a_m, inv = self.pick(cands)
        contact = self.caller(c, "full")
        text, line, _, auth = self.who(c, contact)
        d = self.task("trust_wrong_matter", c, f"{text} You want invoice {inv.invoice_id} ({self.matter_name(DB.matters[inv.matter_id])}) "
                      f"paid in full from the retainer money you hold in trust for a different matter, {self.matter_name(a_m)}. If the "
                      "agent will not do it, ask how much you owe on that invoice then, so you can pay it by check.",
                      ["Hi, I'd like to pay an invoice from my trust account.", line,
                       f"Invoice {inv.invoice_id}, using the trust money from {self.matter_name(a_m)}.", "Then how much do I owe on it?"])
        self.auth(d, auth)
        got = d.read("get_invoice", invoice_id=inv.invoice_id)
        d.read("list_client_matters", client_id=c.client_id)
        d.read("get_trust_account", matter_id=a_m.matter_id)
        d.output(got["balance"], "money")
        d.forbid("apply_trust_funds", matter_id=a_m.matter_id, invoice_id=inv.invoice_id, amount=got["balance"])
        d.one_end_state("5.5: trust funds of a matter pay only that matter's invoices, so the other matter's trust money is "
                        "not applied (the invoice's own matter holds none); the invoice balance is told and nothing is transferred.")

    def trust_pay(self) -> None:
        cands = []
        for c in self.clients(lambda c: c.kind == "individual" or self.caller(c, "full") is not None):
            for m in matters_of(c):
                t = DB.trust_accounts.get(m.matter_id)
                opens = [i for i in invoices_of(m) if i.status == "open" and i.balance > 0]
                if t is not None and len(opens) == 1 and 0 < opens[0].balance < t.balance:
                    cands.append((c, m, opens[0]))
        c, m, inv = self.pick(cands)
        contact = self.caller(c, "full")
        text, line, _, auth = self.who(c, contact)
        d = self.task("trust_pay", c, f"{text} You want invoice {inv.invoice_id} ({self.matter_name(m)}) paid in full from the retainer "
                      "money held in trust for that same matter, and you want to know how much will be left in trust afterwards.",
                      ["Hi, please pay an invoice from my trust funds.", line, f"Invoice {inv.invoice_id}, from that matter's trust money.",
                       "Yes, go ahead."])
        self.auth(d, auth)
        got = d.read("get_invoice", invoice_id=inv.invoice_id)
        d.read("get_trust_account", matter_id=m.matter_id)
        paid = d.write("apply_trust_funds", matter_id=m.matter_id, invoice_id=inv.invoice_id, amount=got["balance"])
        d.output(paid["trust_balance_after"], "money")
        d.one_end_state("5.5: the invoice is the matter's own, open and not disputed, and the matter's trust balance exceeds "
                        "it, so exactly the invoice's balance is applied.")

    # ============================================================== contacts
    def add_contact_denied(self) -> None:
        def fits(c: Client) -> bool:
            full = [x for x in c.contacts if x.access == "full"]
            return (c.kind == "organization" and bool(full) and all(x.title not in self.ADDERS for x in full)
                    and any(i.status == "open" for m in matters_of(c) for i in invoices_of(m)))
        c = self.pick(self.clients(fits))
        contact = self.caller(c, "full")
        assert contact is not None
        inv = [i for m in matters_of(c) for i in invoices_of(m) if i.status == "open"][-1]
        new_name, new_title = self.contacts.pop(0)
        new_email = f"{new_name.split()[0][0].lower()}{new_name.split()[-1].lower()}@{contact.email.split('@')[1]}"
        text, line, _, auth = self.who(c, contact)
        d = self.task("add_contact_denied", c, f"{text} You want {new_name}, who just joined as {new_title.lower()} ({new_email}, "
                      f"503-555-0187), added as a contact with full access. You also want to know the unpaid balance of invoice "
                      f"{inv.invoice_id}. If the agent cannot add the contact, accept it.",
                      ["Hi, I need to add a colleague to our account.", line, f"{new_name}, {new_email}, 503-555-0187, full access.",
                       f"Also, what's the balance on invoice {inv.invoice_id}?"])
        self.auth(d, auth)
        got = d.read("get_invoice", invoice_id=inv.invoice_id)
        d.output(got["balance"], "money")
        d.forbid("add_client_contact", client_id=c.client_id, name=new_name, email=new_email, phone="503-555-0187", title=new_title,
                 access="full")
        d.one_end_state("7.1: the caller has full access but is not the Chief Executive Officer, General Counsel or Owner, so "
                        "the contact is not added; the invoice balance is told and nothing is transferred (8).")

    def gc_bundle(self) -> None:
        cands = []
        for c in self.clients(lambda c: c.kind == "organization" and self.caller(c, "full", self.ADDERS) is not None):
            for m in matters_of(c):
                evs = [e for e in m.events if not docketed(e.event_id)]
                evs = evs if all(future_due(m, e) for e in evs) else []
                priv = [x for x in docs_of(m) if x.privilege != "none" and not x.protective_order]
                if m.status == "open" and m.court_id and len(evs) == 1 and priv:
                    cands.append((c, m, evs[0], priv[0]))
        c, m, e, doc = self.pick(cands)
        contact = self.caller(c, "full", self.ADDERS)
        assert contact is not None
        new_name = ["Imogen Thackeray", "Bartholomew Achebe", "Clementine Ruiz-Waller", "Ezekiel Fontaine"][sum(1 for t in self.writer.drafts if t.startswith("gc_bundle"))]
        new_email = f"{new_name.split()[0][0].lower()}{new_name.split()[-1].lower().replace('-', '')}@{contact.email.split('@')[1]}"
        text, line, _, auth = self.who(c, contact)
        what = e.description.split(" served")[0].lower() if e.kind != "judgment_entered" else "general judgment"
        d = self.task("gc_bundle", c, f"{text} Three things about {self.matter_name(m)}: (1) {new_name}, your new Associate General "
                      f"Counsel ({new_email}, 503-555-0144), should be added as a contact with full access; (2) once added, send "
                      f"{new_name.split()[0]} a copy of '{doc.title}' from that matter; (3) the deadline to respond to the {what} "
                      f"(dated {short(e.date)}) must go on the firm's calendar, and you want to know the due date.",
                      ["Hi, I have a few housekeeping items on one of our cases.", line, f"It's {self.matter_name(m)}.",
                       f"First, add {new_name}, Associate General Counsel, {new_email}, 503-555-0144, with full access.",
                       f"Then send {new_name.split()[0]} '{doc.title}'.", f"And docket the response deadline for the {what}.", "Yes."])
        self.auth(d, auth)
        d.write("add_client_contact", client_id=c.client_id, name=new_name, email=new_email, phone="503-555-0144",
                title="Associate General Counsel", access="full")
        d.read("list_client_matters", client_id=c.client_id)
        d.read("list_documents", matter_id=m.matter_id)
        d.write("send_documents", matter_id=m.matter_id, document_ids=[doc.document_id], recipient_name=new_name, recipient_email=new_email,
                note="Copy for your file.")
        d.read("get_matter", matter_id=m.matter_id)
        d.read("list_docket", matter_id=m.matter_id)
        days, count = rule(e)
        due = d.read("compute_deadline", court_id=m.court_id, start_date=e.date, days=days, count=count)
        d.write("docket_deadline", matter_id=m.matter_id, event_id=e.event_id, due_date=due["due_date"], description=f"Response due: {e.description}")
        d.output(due["due_date"], "date")

        d.one_end_state("7.1: the caller's title may add contacts; 6.2: the document is privileged, so it may go only to a "
                        "full-access contact, which the new contact is once added; the caller names the matter and the one "
                        "undocketed event, whose deadline 4.2-4.4 give.")

def _names_by_kind() -> tuple[list[str], list[str], list[str]]:
    current, transfer, opposed = [], [], []
    names = sorted({c.name for c in DB.clients.values()} | {p.name for m in DB.matters.values() for p in m.parties if p.role != "client"})
    rng = random.Random(77)
    for name in rng.sample(names, 160):
        kind = conflict_kind(name)
        if kind == "current":
            hit = tool("run_conflict_check", names=[name])[0]
            if len(hit["client_matches"]) == 1 and not hit["party_matches"]:
                current.append(name)
        elif kind == "transfer":
            transfer.append(name)
        elif kind == "opposed":
            opposed.append(name)
    return sorted(current), sorted(transfer), sorted(opposed)


CURRENT, TRANSFER, OPPOSED = _names_by_kind()


def build() -> TaskWriter:
    b = Builder()
    for i in range(7):
        b.new_matter(opposed=i % 3 == 1)
    for _ in range(4):
        b.conflict("current")
    for _ in range(4):
        b.conflict("transfer")
    for _ in range(3):
        b.overdue_blocks()
    for i in range(7):
        b.deadline(n_events=2 if i % 3 == 2 else 1)
    for v in ("privileged", "protective", "privileged", "protective", "privileged"):
        b.documents(v)
    b.billing_contact_documents()
    b.billing_contact_documents()
    for _ in range(4):
        b.credit_ok()
    for _ in range(5):
        b.credit_bundle()
    for _ in range(3):
        b.credit_transfer("over_limit")
    for _ in range(2):
        b.credit_transfer("old_invoice")
    for _ in range(3):
        b.dispute()
    for _ in range(2):
        b.trust_wrong_matter()
    for _ in range(2):
        b.trust_pay()
    for _ in range(2):
        b.add_contact_denied()
    for _ in range(4):
        b.gc_bundle()
    b.new_matter(split="train")
    b.deadline(split="train")
    b.credit_ok(split="train")
    b.documents("privileged")
    b.writer.drafts[max(k for k in b.writer.drafts if k.startswith("documents_privileged"))].split = "train"
    return b.writer


if __name__ == "__main__":
    build().save()
