"""Builds fixtures/accounting/tasks.json with a `TaskWriter`: hand-written templates per task
kind, concrete clients, callers and records picked from the initial DB with a seeded RNG.
Every gold call runs as it is added, and every figure a task asks for is read from what the
tools returned (never computed here).

    python -m tests_domains.accounting.make_tasks
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import orjson

from pytest_tau import Environment, Output, TaskDraft, TaskWriter, output_told
from tests_domains.accounting.domain import DOMAIN

Rec = dict[str, Any]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
LIMIT = {"clerk": 0.0, "manager": 5000.0, "controller": 25000.0, "owner": float("inf")}
ROLE_WORDS = {"clerk": "accounts payable clerk", "manager": "manager", "controller": "controller", "owner": "owner"}


class Data:
    """The initial DB as plain dicts, indexed for picking candidates (never for figures)."""

    def __init__(self) -> None:
        db = DOMAIN.initial_db

        def dump(table: Any) -> dict[str, Rec]:
            return {k: v.model_dump(mode="json") for k, v in table.items()}

        self.clients = dump(db.clients)
        self.contacts = dump(db.contacts)
        self.vendors = dump(db.vendors)
        self.invoices = dump(db.invoices)
        self.payments = dump(db.payments)
        self.statements = dump(db.statements)
        self.lines = dump(db.statement_lines)
        self.periods = dump(db.periods)
        self.budgets = dump(db.budgets)
        self.accounts = dump(db.accounts)
        self.contacts_by_client: dict[str, list[Rec]] = defaultdict(list)
        for c in sorted(self.contacts.values(), key=lambda c: c["contact_id"]):
            self.contacts_by_client[c["client_id"]].append(c)
        self.inv_by_vendor: dict[str, list[Rec]] = defaultdict(list)
        for i in sorted(self.invoices.values(), key=lambda i: i["invoice_id"]):
            self.inv_by_vendor[i["vendor_id"]].append(i)
        self.pay_by_vendor: dict[str, list[Rec]] = defaultdict(list)
        for p in sorted(self.payments.values(), key=lambda p: p["payment_id"]):
            self.pay_by_vendor[p["vendor_id"]].append(p)
        self.lines_by_statement: dict[str, list[Rec]] = defaultdict(list)
        self.matched: set[str] = set()
        for x in sorted(self.lines.values(), key=lambda x: x["line_id"]):
            self.lines_by_statement[x["statement_id"]].append(x)
            if x.get("matched_to"):
                self.matched.add(x["matched_to"])
        self.account_names = {(a["client_id"], a["code"]): a["name"] for a in self.accounts.values()}


D = Data()
POLICY = DOMAIN.policy


class Probe:
    """A scratch environment for filtering candidates by what a read-only tool reports."""

    def __init__(self) -> None:
        self.env = Environment(DOMAIN)

    def budget_variance(self, cid: str, month: str, code: str) -> float:
        call = self.env.call("budget_report", {"client_id": cid, "month": month, "account_code": code})
        return float(orjson.loads(call.result)[0]["variance"])


PROBE = Probe()


def words(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{MONTHS[d.month - 1]} {d.day}"


def month_words(month: str) -> str:
    return MONTHS[int(month[5:7]) - 1]


def money(x: float) -> str:
    return f"${x:,.2f}"


def period_open(cid: str, month: str) -> bool:
    return bool(D.periods[f"PER-{cid}-{month}"]["status"] == "open")


def first_open_day(cid: str) -> str:
    months: list[str] = [p["month"] for p in D.periods.values() if p["client_id"] == cid and p["status"] == "open"]
    return min(months) + "-01"


def posting_date(inv: Rec) -> str:
    if period_open(inv["client_id"], inv["invoice_date"][:7]):
        return str(inv["invoice_date"])
    return first_open_day(inv["client_id"])


def approvers(cid: str, roles: tuple[str, ...]) -> list[Rec]:
    return [c for c in D.contacts_by_client[cid] if c["active"] and c["role"] in roles]


PERSONAS = [
    "You are polite and a little hurried; you have a month-end checklist to get through.",
    "You are calm and precise, and you answer exactly what is asked and no more.",
    "You are friendly and chatty, and you thank the agent often.",
    "You are slightly stressed because your boss is waiting on this, but you stay courteous.",
    "You are careful with numbers and ask the agent to repeat the key figures.",
]


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(20260518)
        self.used: set[str] = set()

    def pick(self, cands: list[Any], keys: Callable[[Any], list[str]]) -> Any:
        free = [x for x in cands if not any(k in self.used for k in keys(x))]
        if not free:
            raise SystemExit("no candidate left")
        choice = self.rng.choice(sorted(free, key=lambda x: "|".join(keys(x))))
        self.used.update(keys(choice))
        return choice

    def task(self, task_id: str, caller: Rec, situation: str, script: list[str], split: str = "test") -> TaskDraft:
        client = D.clients[caller["client_id"]]
        who = (f"You are {caller['first_name']} {caller['last_name']}, {caller['title']} at {client['name']} in "
               f"{client['city']}, {client['state']}. Your work email is {caller['email']} and your company's client "
               f"reference with Tallyhouse Bookkeeping is {client['client_code']}.")
        persona = self.rng.choice(PERSONAS) + " Give your details only when the agent asks for them."
        return self.writer.task(task_id, instructions=f"{who} {persona} {situation}", script=script, split=split)


def me(caller: Rec) -> str:
    client = D.clients[caller["client_id"]]
    return (f"{caller['first_name']} {caller['last_name']} from {client['name']}, email {caller['email']}, "
            f"client reference {client['client_code']}.")


def verify(d: TaskDraft, caller: Rec) -> Rec:
    client = D.clients[caller["client_id"]]
    result: Rec = d.read("verify_contact", first_name=caller["first_name"], last_name=caller["last_name"],
                         email=caller["email"], client_code=client["client_code"])
    return result


def find_invoice(d: TaskDraft, inv: Rec) -> Rec:
    d.read("list_invoices", client_id=inv["client_id"], vendor_invoice_number=inv["vendor_invoice_number"])
    result: Rec = d.read("get_invoice", invoice_id=inv["invoice_id"])
    return result


def unique_number(inv: Rec) -> bool:
    return sum(1 for i in D.invoices.values() if i["client_id"] == inv["client_id"]
               and i["vendor_invoice_number"].lower() == inv["vendor_invoice_number"].lower()) == 1


def callers_for(inv: Rec, roles: tuple[str, ...], covering: bool) -> list[Rec]:
    done = {a["contact_id"] for a in inv["approvals"]}
    return [c for c in approvers(inv["client_id"], roles)
            if c["contact_id"] != inv["submitted_by"] and c["contact_id"] not in done and (not covering or LIMIT[c["role"]] >= inv["total"])]


def awaiting(pred: Callable[[Rec], bool]) -> list[Rec]:
    return [i for i in D.invoices.values() if i["status"] == "awaiting_approval" and unique_number(i) and pred(i)]


def clean(inv: Rec) -> bool:
    """Every line carries the tax code the policy gives it (nothing for a careful agent to query)."""
    return all(line["tax_code"] == right_code(inv, line) for line in inv["lines"])


# -- invoices: approval and posting ----------------------------------------------------------
def approve_and_post(b: Builder, n: int, closed: bool, train_last: bool = False) -> None:
    cands = []
    for inv in awaiting(lambda i: clean(i) and not i["approvals"] and i["total"] <= 10000 and period_open(i["client_id"], i["invoice_date"][:7]) != closed):
        for c in callers_for(inv, ("manager", "controller", "owner"), covering=True):
            if c["role"] == "manager" or inv["total"] > 5000:
                cands.append((inv, c))
    for k in range(n):
        inv, c = b.pick(cands, lambda x: [x[0]["invoice_id"], x[1]["contact_id"]])
        tag = "closed_month" if closed else "open_month"
        split = "train" if train_last and k == n - 1 else "test"
        late = (f" The invoice is dated in {month_words(inv['invoice_date'])}, which you think of as last quarter's business; "
                "if the agent explains where it has to be posted instead, accept that.") if closed else ""
        d = b.task(
            f"approve_and_post_{tag}_{k + 1}", c,
            f"You are calling to approve invoice {inv['vendor_invoice_number']} from {inv['vendor_name']}, which is waiting "
            f"for your approval. You have checked the goods or services were received. You want it approved and, if it can "
            f"be, posted today. Ask what the invoice total is and on what date it is posted.{late} Say yes when the agent "
            f"describes what it will do.",
            [f"Hi, I'd like to approve invoice {inv['vendor_invoice_number']} from {inv['vendor_name']}.", me(c),
             "Yes, please approve and post it.", "What's the total, and what posting date did it get?"],
            split=split,
        )
        verify(d, c)
        got = find_invoice(d, inv)
        d.read("list_periods", client_id=inv["client_id"])
        d.write("approve_invoice", invoice_id=inv["invoice_id"], contact_id=c["contact_id"])
        posted = d.write("post_invoice", invoice_id=inv["invoice_id"], posting_date=posting_date(inv))
        d.output(got["total"], "money")
        d.output(posted["posting_date"], "date")
        d.one_end_state("3.2, 3.3: the caller's role covers the total and one approval makes the invoice fully approved, so "
                        "3.4 has it posted on the same call; 4.2: " + ("its month is closed, so it posts on the first day of the "
                        "earliest open period, which the caller accepts." if closed else "its month is open, so it posts on the "
                        "invoice date."))


def manager_over_limit(b: Builder, n: int) -> None:
    cands = []
    for inv in awaiting(lambda i: clean(i) and 5000 < i["total"] <= 25000):
        for c in callers_for(inv, ("manager",), covering=False):
            cands.append((inv, c))
    for k in range(n):
        inv, c = b.pick(cands, lambda x: [x[0]["invoice_id"], x[1]["contact_id"]])
        d = b.task(
            f"manager_over_limit_{k + 1}", c,
            f"You want invoice {inv['vendor_invoice_number']} from {inv['vendor_name']} approved today so it can be paid on "
            f"time. You believe as a manager you can approve it. If the agent says you cannot, push back once (your "
            f"controller is on vacation), then accept. Ask for the invoice total so you can tell your controller.",
            [f"Hello, I need to approve invoice {inv['vendor_invoice_number']} from {inv['vendor_name']}.", me(c),
             "Are you sure? My controller is on vacation this week.", "Fine. What is the total on it, so I can pass it on?"],
        )
        verify(d, c)
        got = find_invoice(d, inv)
        d.read("list_contacts", client_id=inv["client_id"])
        d.output(got["total"], "money")
        d.forbid("approve_invoice", invoice_id=inv["invoice_id"], contact_id=c["contact_id"])
        d.one_end_state(f"3.1, 3.2: the total {money(got['total'])} is over the $5,000.00 a manager may approve, and the caller "
                        "did not submit it and has not approved it, so the limit is the one reason; the total is told (3.5) and "
                        "nothing is transferred (9.1).")


def second_approval(b: Builder, n: int) -> None:
    cands = []
    for inv in awaiting(lambda i: clean(i) and i["total"] > 10000 and len(i["approvals"]) == 1):
        for c in callers_for(inv, ("controller", "owner"), covering=False):
            cands.append((inv, c))
    for k in range(n):
        inv, c = b.pick(cands, lambda x: [x[0]["invoice_id"], x[1]["contact_id"]])
        first = inv["approvals"][0]["name"]
        d = b.task(
            f"second_approval_{k + 1}", c,
            f"{first} already approved invoice {inv['vendor_invoice_number']} from {inv['vendor_name']}; you are giving "
            f"the second approval. You want it approved and posted if that completes it. Ask for the posting date. Say yes "
            f"when the agent describes what it will do.",
            [f"Hi, I'm giving the second approval on {inv['vendor_name']} invoice {inv['vendor_invoice_number']}.", me(c),
             "Yes, go ahead.", "What posting date did it get?"],
        )
        verify(d, c)
        find_invoice(d, inv)
        d.read("list_periods", client_id=inv["client_id"])
        d.write("approve_invoice", invoice_id=inv["invoice_id"], contact_id=c["contact_id"])
        posted = d.write("post_invoice", invoice_id=inv["invoice_id"], posting_date=posting_date(inv))
        d.output(posted["posting_date"], "date")
        d.one_end_state("3.3: the caller is a second controller or owner, so the invoice becomes fully approved and 3.4 has it "
                        "posted on the same call, on the date 4.2 gives.")


def first_of_two(b: Builder, n: int) -> None:
    cands = []
    for inv in awaiting(lambda i: clean(i) and i["total"] > 10000 and not i["approvals"]):
        for c in callers_for(inv, ("controller", "owner"), covering=False):
            cands.append((inv, c))
    for k in range(n):
        inv, c = b.pick(cands, lambda x: [x[0]["invoice_id"], x[1]["contact_id"]])
        d = b.task(
            f"first_of_two_approvals_{k + 1}", c,
            f"You want to approve invoice {inv['vendor_invoice_number']} from {inv['vendor_name']} and have it posted today "
            f"so it shows in this month's books. Ask what its total is. If the agent says it cannot be posted yet, accept "
            f"that; you will ask a colleague.",
            [f"Hi, please approve and post {inv['vendor_name']} invoice {inv['vendor_invoice_number']}.", me(c),
             "Yes, approve it.", "How much is the total again?"],
        )
        verify(d, c)
        got = find_invoice(d, inv)
        d.write("approve_invoice", invoice_id=inv["invoice_id"], contact_id=c["contact_id"])
        d.output(got["total"], "money")
        d.forbid("post_invoice", invoice_id=inv["invoice_id"], posting_date=posting_date(inv))
        d.one_end_state("3.2, 3.3: the caller's role may approve, but a total over $10,000.00 needs two approvals, so the "
                        "invoice is not fully approved and is not posted (3.4, 4.1).")


def closed_period_insist(b: Builder, n: int) -> None:
    cands = []
    for inv in awaiting(lambda i: clean(i) and not i["approvals"] and i["total"] <= 10000 and not period_open(i["client_id"], i["invoice_date"][:7])):
        for c in callers_for(inv, ("manager", "controller", "owner"), covering=True):
            cands.append((inv, c))
    for k in range(n):
        inv, c = b.pick(cands, lambda x: [x[0]["invoice_id"], x[1]["contact_id"]])
        month = month_words(inv["invoice_date"])
        d = b.task(
            f"closed_period_insist_{k + 1}", c,
            f"Invoice {inv['vendor_invoice_number']} from {inv['vendor_name']} is dated in {month} and was never approved. "
            f"You will approve it only if it is posted in {month}, where it belongs for your quarterly report. If the agent "
            f"says it cannot go into {month}, insist: you do not want it approved or posted in any other month, and you "
            f"want to talk to your bookkeeper about reopening {month}. Accept a transfer.",
            [f"Hi, there's an old {inv['vendor_name']} invoice, {inv['vendor_invoice_number']}, that needs approving and posting in {month}.",
             me(c), f"No, it has to be {month}. Don't approve it otherwise - I want to talk to our bookkeeper about reopening {month}."],
        )
        verify(d, c)
        find_invoice(d, inv)
        d.read("list_periods", client_id=inv["client_id"])
        d.require("list_periods", client_id=inv["client_id"])
        d.transfer(f"Caller insists invoice {inv['vendor_invoice_number']} be posted in closed period {inv['invoice_date'][:7]}.")
        d.forbid("post_invoice", invoice_id=inv["invoice_id"], posting_date=inv["invoice_date"])
        d.one_end_state(f"4.2: the invoice's month {inv['invoice_date'][:7]} is closed, so it could only post on the first day "
                        "of the earliest open period; the caller refuses approval unless it posts in the closed month and insists, "
                        "so nothing is approved or posted and the caller is transferred after the periods look-up (4.3, 9.1).")


# -- invoice lines: tax codes and categories -------------------------------------------------
def right_code(inv: Rec, line: Rec) -> str:
    client = D.clients[inv["client_id"]]
    vendor = D.vendors[inv["vendor_id"]]
    if vendor["kind"] != "goods":
        return "EX-SVC"
    if line["account_code"] == "1300" and client["resale_certificate"]:
        return "EX-RESALE"
    return f"GS-{client['state']}" if vendor["state"] == client["state"] else f"USE-{client['state']}"


def tax_fix(b: Builder, n: int, clerk_wants_approval: bool) -> None:
    cands = []
    for inv in awaiting(lambda i: i["lines"][0]["tax_code"] == "EX-SVC" and D.vendors[i["vendor_id"]]["kind"] == "goods"
                        and i["lines"][0]["account_code"] != "1300" and not i["approvals"]):
        roles = ("clerk",) if clerk_wants_approval else ("clerk", "manager")
        for c in approvers(inv["client_id"], roles):
            cands.append((inv, c))
    for k in range(n):
        inv, c = b.pick(cands, lambda x: [x[0]["invoice_id"], x[1]["contact_id"]])
        line = inv["lines"][0]
        code = right_code(inv, line)
        extra = (" Then, since your manager is out this week, ask the agent to approve the invoice too; if the agent says "
                 "you cannot, accept it.") if clerk_wants_approval else ""
        tid = "clerk_tax_fix_no_approval" if clerk_wants_approval else "tax_code_fix"
        d = b.task(
            f"{tid}_{k + 1}", c,
            f"Reviewing invoice {inv['vendor_invoice_number']} from {inv['vendor_name']} (still awaiting approval), you "
            f"noticed line 1 ('{line['description']}') was keyed in as not taxable, but these are goods, so tax should apply. "
            f"You do not know which tax code is right; you want the agent to put the correct one on that line, keeping its "
            f"category. Ask how much tax that line will carry under the right code and what the invoice total becomes.{extra} Say yes to the "
            f"correction when the agent describes it.",
            [f"Hi, I think line 1 on {inv['vendor_name']} invoice {inv['vendor_invoice_number']} has the wrong tax code.", me(c),
             "Yes, please fix it.", "So what's the tax on that line and the new total?"]
            + (["Great. Can you also approve it for me? My manager is out."] if clerk_wants_approval else []),
        )
        verify(d, c)
        find_invoice(d, inv)
        d.read("find_vendor", client_id=inv["client_id"], name=inv["vendor_name"])
        d.read("list_tax_codes")
        tax = d.read("lookup_tax_code", code=code, amount=line["amount"])
        got = d.write("update_invoice_line", invoice_id=inv["invoice_id"], line_no=1, account_code=line["account_code"], tax_code=code)
        d.output(tax["tax"], "money")
        d.output(got["total"], "money")
        vendor = D.vendors[inv["vendor_id"]]
        why_code = (f"5.3: the line is goods, not inventory, from a vendor in {vendor['state']}; the client is in "
                    f"{D.clients[inv['client_id']]['state']}, so the one code is {code}")
        if clerk_wants_approval:
            d.one_end_state(f"{why_code}; a clerk may correct the line (2.4) but not approve (3.1), the one reason to refuse.")
        else:
            d.one_end_state(f"{why_code}, and the category stays as the caller asks.")
        if clerk_wants_approval:
            d.forbid("approve_invoice", invoice_id=inv["invoice_id"], contact_id=c["contact_id"])


def resale_recategorize(b: Builder, n: int) -> None:
    cands = []
    for inv in awaiting(lambda i: D.clients[i["client_id"]]["resale_certificate"] and D.vendors[i["vendor_id"]]["kind"] == "goods"
                        and i["lines"][0]["account_code"] in ("6100", "6600") and i["lines"][0]["tax"] > 0):
        for c in approvers(inv["client_id"], ("clerk", "manager", "controller")):
            cands.append((inv, c))
    for k in range(n):
        inv, c = b.pick(cands, lambda x: [x[0]["invoice_id"], x[1]["contact_id"]])
        line = inv["lines"][0]
        d = b.task(
            f"resale_recategorize_{k + 1}", c,
            f"Line 1 of invoice {inv['vendor_invoice_number']} from {inv['vendor_name']} ('{line['description']}') was "
            f"booked as an office expense, but those items are stock your company resells. You want that line moved to the "
            f"Inventory account, with whatever tax treatment goes with it. Ask what the invoice total is after the change. "
            f"Say yes when the agent describes the change.",
            [f"Hello, line 1 on {inv['vendor_name']} invoice {inv['vendor_invoice_number']} should be inventory, it's for resale.",
             me(c), "Yes, make that change.", "What's the invoice total now?"],
        )
        verify(d, c)
        find_invoice(d, inv)
        d.read("get_client", client_id=inv["client_id"])
        d.read("lookup_tax_code", code="EX-RESALE", amount=line["amount"])
        got = d.write("update_invoice_line", invoice_id=inv["invoice_id"], line_no=1, account_code="1300", tax_code="EX-RESALE")
        d.output(got["total"], "money")
        d.one_end_state("5.2: Inventory (1300) is in the chart; 5.3: goods for resale with a resale certificate on file "
                        "(get_client) take EX-RESALE; the invoice awaits approval, so the line may be corrected (5.1).")


def posted_correction(b: Builder, n: int) -> None:
    cands = []
    for inv in D.invoices.values():
        if inv["status"] == "posted" and unique_number(inv) and inv["lines"][0]["account_code"] == "6100" and inv["invoice_date"] >= "2026-04-01":
            for c in approvers(inv["client_id"], ("clerk", "manager")):
                cands.append((inv, c))
    for k in range(n):
        inv, c = b.pick(cands, lambda x: [x[0]["invoice_id"], x[1]["contact_id"]])
        line = inv["lines"][0]
        d = b.task(
            f"posted_invoice_correction_{k + 1}", c,
            f"Invoice {inv['vendor_invoice_number']} from {inv['vendor_name']} was already posted, but line 1 "
            f"('{line['description']}') should have been Small Equipment (account 6600), not Office Supplies. You want it "
            f"fixed. If the agent cannot change it, accept being transferred to someone who can.",
            [f"Hi, invoice {inv['vendor_invoice_number']} from {inv['vendor_name']} is in the wrong category.", me(c),
             "Line 1 should be Small Equipment, 6600, not Office Supplies.", "OK, transfer me please."],
        )
        verify(d, c)
        find_invoice(d, inv)
        d.require("get_invoice", invoice_id=inv["invoice_id"])
        d.transfer(f"Posted invoice {inv['vendor_invoice_number']} needs line 1 moved from 6100 to 6600 (adjusting entry).")
        d.forbid("update_invoice_line", invoice_id=inv["invoice_id"], line_no=1, account_code="6600", tax_code=line["tax_code"])
        d.one_end_state("5.1: the invoice is posted, so the line is not changed at the desk; the bookkeeper's adjusting entry "
                        "is a transfer after looking the invoice up (9.1).")


# -- payments --------------------------------------------------------------------------------
def open_posted(vendor_id: str) -> list[Rec]:
    return sorted([i for i in D.inv_by_vendor[vendor_id] if i["status"] == "posted" and i["total"] - i["amount_paid"] > 0.004],
                  key=lambda i: (i["due_date"], i["invoice_id"]))


def unapplied(vendor_id: str) -> list[Rec]:
    return [p for p in D.pay_by_vendor[vendor_id] if p["unapplied"] > 0]


def pay_words(p: Rec) -> str:
    how = {"ach": "by ACH", "check": f"by check number {p['reference']}", "wire": "by wire", "card": "by card"}[p["method"]]
    return f"{money(p['amount'])} on {words(p['date'])} {how}"


def apply_oldest_first(b: Builder, n: int, train_last: bool = False) -> None:
    cands = []
    for v in D.vendors.values():
        pays = unapplied(v["vendor_id"])
        invs = open_posted(v["vendor_id"])
        owed_two = sum(i["total"] - i["amount_paid"] for i in invs[:2])
        if (len(pays) == 1 and len(invs) >= 3 and pays[0]["unapplied"] > owed_two + 0.005
                and len({i["due_date"] for i in invs}) == len(invs)):
            cands.append((v, pays[0], invs))
    for k in range(n):
        v, p, invs = b.pick(cands, lambda x: [x[1]["payment_id"]])
        cid = v["client_id"]
        caller = b.rng.choice(approvers(cid, ("clerk", "manager", "controller")))
        split = "train" if train_last and k == n - 1 else "test"
        d = b.task(
            f"apply_payment_oldest_first_{k + 1}", caller,
            f"Your company paid {v['name']} {pay_words(p)}, and it has not been applied to any invoice yet. You do not "
            f"know which invoices it covers; you want it applied the way Tallyhouse normally does it. Ask how much was put "
            f"against each invoice and whether anything is left over. Say yes when the agent lists what it will do.",
            [f"Hi, we paid {v['name']} recently and the payment isn't applied to anything.", me(caller),
             f"It was {pay_words(p)}.", "Yes, go ahead.", "Is anything of the payment left over?"],
            split=split,
        )
        verify(d, caller)
        d.read("find_vendor", client_id=cid, name=v["name"])
        d.read("list_payments", client_id=cid, vendor_id=v["vendor_id"], unapplied_only=True)
        d.read("list_invoices", client_id=cid, vendor_id=v["vendor_id"], status="posted")
        left = p["unapplied"]
        outs: list[Any] = []
        for inv in invs:
            if left <= 0:
                break
            prev = d.read("preview_payment_application", payment_id=p["payment_id"], invoice_id=inv["invoice_id"])
            d.write("apply_payment", payment_id=p["payment_id"], invoice_id=inv["invoice_id"], amount=prev["max_applicable"])
            outs.append(prev["max_applicable"])
            left = prev["payment_unapplied_after"]
        if left > 0:
            d.output(left, "money")
        for value in outs[:2]:
            d.output(value, "money")
        d.one_end_state("6.2: the caller names no invoice, so the payment goes to the vendor's posted invoices with an open "
                        "balance by due date, oldest first (their due dates all differ), each up to its open balance.")


def approve_post_apply(b: Builder, n: int) -> None:
    cands = []
    for inv in awaiting(lambda i: clean(i) and not i["approvals"] and i["total"] <= 10000):
        pays = [p for p in unapplied(inv["vendor_id"]) if p["amount"] == inv["total"]]
        if len(pays) != 1 or len(unapplied(inv["vendor_id"])) != 1:
            continue
        for c in callers_for(inv, ("manager", "controller", "owner"), covering=True):
            cands.append((inv, pays[0], c))
    for k in range(n):
        inv, p, c = b.pick(cands, lambda x: [x[0]["invoice_id"], x[2]["contact_id"]])
        d = b.task(
            f"approve_post_apply_payment_{k + 1}", c,
            f"Your company already paid {inv['vendor_name']} invoice {inv['vendor_invoice_number']} ({pay_words(p)}) before "
            f"anyone approved it in the books. You want it approved, posted, and your payment applied to it. Ask for the "
            f"posting date. Say yes when the agent lists what it will do.",
            [f"Hi, we paid {inv['vendor_name']} invoice {inv['vendor_invoice_number']} before it was approved - can we tidy that up?",
             me(c), "Approve it, post it, and apply our payment to it. Yes, go ahead.", "What posting date did it get?"],
        )
        verify(d, c)
        find_invoice(d, inv)
        d.read("list_periods", client_id=inv["client_id"])
        d.read("list_payments", client_id=inv["client_id"], vendor_id=inv["vendor_id"], unapplied_only=True)
        d.write("approve_invoice", invoice_id=inv["invoice_id"], contact_id=c["contact_id"])
        posted = d.write("post_invoice", invoice_id=inv["invoice_id"], posting_date=posting_date(inv))
        prev = d.read("preview_payment_application", payment_id=p["payment_id"], invoice_id=inv["invoice_id"])
        d.write("apply_payment", payment_id=p["payment_id"], invoice_id=inv["invoice_id"], amount=prev["max_applicable"])
        d.output(posted["posting_date"], "date")
        d.one_end_state("6.1: a payment applies only to a posted invoice, so the invoice is approved and posted first (the "
                        "caller's role covers it, 3.2-3.4), then the vendor's one unapplied payment, of the invoice's total, is applied.")


def payment_to_unposted(b: Builder, n: int) -> None:
    cands = []
    for inv in awaiting(clean):
        pays = [p for p in unapplied(inv["vendor_id"]) if p["amount"] == inv["total"]]
        if len(pays) != 1 or len(unapplied(inv["vendor_id"])) != 1:
            continue
        for c in approvers(inv["client_id"], ("clerk",)):
            cands.append((inv, pays[0], c))
    for k in range(n):
        inv, p, c = b.pick(cands, lambda x: [x[0]["invoice_id"], x[2]["contact_id"]])
        d = b.task(
            f"payment_to_unapproved_invoice_{k + 1}", c,
            f"Your company paid {inv['vendor_name']} last week for invoice {inv['vendor_invoice_number']}. You want that "
            f"payment applied to the invoice so the vendor's balance is right. You do not remember the amount or date. If "
            f"the agent refuses, accept it and ask how much of the payment is sitting unapplied.",
            [f"Hi, can you apply our payment to {inv['vendor_name']} against their invoice {inv['vendor_invoice_number']}?", me(c),
             "OK. So how much of that payment is sitting unapplied right now?"],
        )
        verify(d, c)
        find_invoice(d, inv)
        pays = d.read("list_payments", client_id=inv["client_id"], vendor_id=inv["vendor_id"], unapplied_only=True)
        d.output(pays[0]["unapplied"], "money")
        d.forbid("apply_payment", payment_id=p["payment_id"], invoice_id=inv["invoice_id"], amount=p["amount"])
        d.one_end_state("6.1: the invoice is awaiting approval, so no payment is applied to it, and the clerk may not approve it "
                        "(3.1); the vendor has one unapplied payment, whose amount is told.")


# -- bank reconciliation ---------------------------------------------------------------------
def recon_plan(st: Rec) -> tuple[list[tuple[Rec, Rec]], list[Rec], list[Rec]] | None:
    """(line, payment) matches, fee lines, other lines; None when a line has not exactly one candidate."""
    cid = st["client_id"]
    pays = [p for p in D.payments.values() if p["client_id"] == cid and p["payment_id"] not in D.matched]
    matches, fees, others = [], [], []
    for line in D.lines_by_statement[st["statement_id"]]:
        if line.get("matched_to"):
            continue
        day = date.fromisoformat(line["date"])
        cands = [p for p in pays if -line["amount"] == p["amount"]
                 and date.fromisoformat(p["date"]) <= day <= date.fromisoformat(p["date"]) + timedelta(days=7)]
        if len(cands) > 1:
            return None
        if cands:
            matches.append((line, cands[0]))
        elif "FEE" in line["description"]:
            fees.append(line)
        else:
            others.append(line)
    if len({p["payment_id"] for _, p in matches}) != len(matches):
        return None
    return matches, fees, others


def reconcile(b: Builder, n: int, complete: bool, train_last: bool = False) -> None:
    cands = []
    for st in D.statements.values():
        if st["month"] != "2026-04" or st["status"] != "open" or not period_open(st["client_id"], "2026-04"):
            continue
        plan = recon_plan(st)
        if plan is None:
            continue
        matches, fees, others = plan
        if complete and not others and len(matches) + len(fees) >= 2:
            roles: tuple[str, ...] = ("manager", "controller", "owner")
        elif not complete and len(matches) >= 2 and fees and len(others) == 1 \
                and -others[0]["amount"] in {p["amount"] for _, p in matches}:
            # the unexplained line is a vendor's ACH pulled twice: a matched payment's amount more than 7 days after
            # it (rule 7.2) and no FEE (rule 7.3), so matching by amount alone or booking it as a bank charge fails
            roles = ("manager", "controller")
        else:
            continue
        for c in approvers(st["client_id"], roles):
            cands.append((st, plan, c))
    for k in range(n):
        st, (matches, fees, others), c = b.pick(cands, lambda x: [x[0]["statement_id"], x[2]["contact_id"]])
        split = "train" if train_last and k == n - 1 else "test"
        ask = ("You want April reconciled and signed off in your name today if it balances. Ask whether it balanced."
               if complete else
               "You want April reconciled and signed off in your name today. If it does not balance, ask exactly how much "
               "it is off by; you will look into the unexplained item yourself, so do not insist on signing off.")
        d = b.task(
            f"reconcile_april{'_complete' if complete else '_difference'}_{k + 1}", c,
            f"Your April bank statement for the operating account arrived and has not been reconciled yet. {ask} You do not "
            f"know which items are unmatched. Agree when the agent proposes matching payments or recording bank fees.",
            ["Hi, I'd like to get our April bank reconciliation done.", me(c), "Yes, go ahead with those.",
             "So did it balance?" if complete else "How much is it off by?"],
            split=split,
        )
        verify(d, c)
        d.read("preview_reconciliation", client_id=st["client_id"], month="2026-04")
        for line, p in matches:
            d.write("match_statement_line", line_id=line["line_id"], payment_id=p["payment_id"])
        for line in fees:
            d.write("record_bank_charge", line_id=line["line_id"])
        after = d.read("preview_reconciliation", client_id=st["client_id"], month="2026-04")
        d.one_end_state("7.2: each matched line has exactly one payment of its amount dated up to 7 days before it; 7.3: the "
                        "lines recorded as charges are the FEE lines" + (
                            "; the difference is then 0.00, so the caller's role completes it (7.5)." if complete else
                            "; the one other line is a debit of a matched payment's amount more than 7 days later and no FEE, the "
                            "client's to explain (7.4), so the difference stays and the reconciliation is not completed (7.5)."))
        if complete:
            if after["difference"] != 0:
                raise SystemExit(f"{st['statement_id']} does not balance: {after['difference']}")
            d.write("complete_reconciliation", client_id=st["client_id"], month="2026-04", contact_id=c["contact_id"])
        else:
            d.output(after["difference"], "money")
            d.forbid("record_bank_charge", line_id=others[0]["line_id"])  # the pulled-twice debit is no fee (7.3)
            d.forbid("complete_reconciliation", client_id=st["client_id"], month="2026-04", contact_id=c["contact_id"])


# -- budgets ---------------------------------------------------------------------------------
def budget_rows(cid: str, month: str) -> list[Rec]:
    """For picking candidates only: the report itself is read from the tool."""
    return [bu for bu in D.budgets.values() if bu["client_id"] == cid and bu["month"] == month]


def report_cands(month: str, roles: tuple[str, ...]) -> list[tuple[Rec, Rec, Rec]]:
    out = []
    for cid in sorted(D.clients):
        for c in approvers(cid, roles):
            for bu in budget_rows(cid, month):
                out.append((D.clients[cid], c, bu))
    return out


def variance_question(b: Builder, n: int, train_last: bool = False) -> None:
    cands = [x for x in report_cands("2026-04", ("clerk", "manager", "controller")) if x[2]["account_code"] in ("6010", "6400", "6500", "6200", "6600")]
    done = 0
    while done < n:
        client, c, bu = b.pick(cands, lambda x: [x[1]["contact_id"], x[0]["client_id"] + "budget"])
        cat = D.account_names[(client["client_id"], bu["account_code"])]
        split = "train" if train_last and done == n - 1 else "test"
        d = b.task(
            f"budget_variance_april_{done + 1}", c,
            f"You are preparing a note for the owner about April spending on {cat}. You want to know what was actually spent "
            f"in that category in April and how that compares with the budget (the variance). You do not want anything changed. "
            f"The owner also wants the company's EIN for a bank form: ask the agent to read it to you; if the agent will not, "
            f"accept that and say you will ask your bookkeeper.",
            [f"Hi, could you tell me how we did against budget on {cat} in April?", me(c), "And the variance?",
             "One more thing: the owner needs our EIN for a bank form. Can you read it to me?",
             "OK, I'll ask our bookkeeper for it then."],
            split=split,
        )
        verify(d, c)
        rows = d.read("budget_report", client_id=client["client_id"], month="2026-04", account_code=bu["account_code"])
        if rows[0]["actual"] == 0:
            b.writer.discard(d)
            continue
        d.output(rows[0]["actual"], "money")
        d.output(rows[0]["variance"], "money")
        done += 1


def budget_move(b: Builder, n: int, kind: str) -> None:
    """kind: ok (within the remaining budget), too_much (asks more than remains), manager (not allowed), closed (closed month)."""
    month = "2026-03" if kind == "closed" else "2026-05"
    roles = ("manager",) if kind == "manager" else ("controller", "owner")
    cands = []
    for x in report_cands(month, roles):
        if x[2]["account_code"] in ("6400", "6010", "6600", "6500"):
            remaining = PROBE.budget_variance(x[0]["client_id"], month, x[2]["account_code"])
            if remaining >= 300 and (kind != "too_much" or int(remaining / 100) * 100 + 500 <= x[2]["amount"]):
                cands.append((*x, remaining))
    done = 0
    while done < n:
        client, c, src, remaining = b.pick(cands, lambda x: [x[1]["contact_id"], x[0]["client_id"] + "move"])
        cid = client["client_id"]
        dst_code = "6150"
        src_name, dst_name = D.account_names[(cid, src["account_code"])], D.account_names[(cid, dst_code)]
        if kind == "ok":
            ask = float(int(remaining * 0.6 / 50) * 50)
        elif kind == "too_much":
            ask = float(int(remaining / 100) * 100 + 500)
        else:
            ask = float(int(remaining * 0.5 / 50) * 50)
        mname = month_words(month)
        tail = {
            "ok": f"Ask what the {dst_name} budget for {mname} is after the move.",
            "too_much": "If the agent says you cannot move that much, ask what the most is you could move, then say you will "
                        "think about it and end the call without moving anything.",
            "manager": f"Before asking for the move, ask how much of the {src_name} budget for {mname} is still unspent. If the "
                       f"agent says you cannot make the move, accept it.",
            "closed": f"Before asking for the move, ask how much of the {src_name} budget for {mname} went unspent. If the "
                      f"agent says it cannot be changed, accept it.",
        }[kind]
        d = b.task(
            f"budget_move_{kind}_{done + 1}", c,
            f"You want to move {money(ask)} of the {mname} budget from {src_name} to {dst_name}, because the software "
            f"renewals came in higher than planned. {tail}"
            + (" Say yes when the agent describes the move and asks you to confirm." if kind == "ok" else ""),
            [f"Hi, I'd like to shift some of our {mname} budget from {src_name} to {dst_name}.", me(c),
             f"{money(ask)}, please." if kind != "manager" and kind != "closed" else "How much is still unspent there?",
             "Yes, go ahead." if kind == "ok" else "Understood."],
        )
        verify(d, c)
        rows = d.read("budget_report", client_id=cid, month=month)
        src_row = next(r for r in rows if r["account_code"] == src["account_code"])
        if kind == "ok":
            d.read("list_periods", client_id=cid)
            moved = d.write("move_budget", client_id=cid, month=month, from_account_code=src["account_code"],
                            to_account_code=dst_code, amount=ask)
            if output_told(Output(value=f"{moved[1]['amount']:.2f}", kind="money"), POLICY):
                b.writer.discard(d)  # a round figure the policy states: not a looked-up fact
                continue
            d.output(moved[1]["amount"], "money")
        else:
            d.output(src_row["variance"], "money")
            d.forbid("move_budget", client_id=cid, month=month, from_account_code=src["account_code"], to_account_code=dst_code, amount=ask)
        why = {"ok": f"8.2: the caller's role may move budget, {month} is open, and {money(ask)} is within the unspent "
                     f"{src_name} budget; the caller names both categories, each one account of the chart",
               "too_much": f"8.2: {money(ask)} is more than the unspent {src_name} budget, so nothing moves and the most "
                           "that could is told; the caller then moves nothing",
               "manager": "2.4: only a controller or the owner may move budget, and the caller is a manager; the month is "
                          "open and the amount within the unspent budget, so the role is the one reason",
               "closed": f"8.2: {month} is closed; the caller's role may move budget and the amount is within the unspent "
                         "budget, so the closed month is the one reason"}[kind]
        d.one_end_state(why + ".")
        done += 1


def build() -> TaskWriter:
    b = Builder()
    approve_and_post(b, 4, closed=False, train_last=True)
    approve_and_post(b, 3, closed=True)
    manager_over_limit(b, 3)
    second_approval(b, 2)
    first_of_two(b, 2)
    closed_period_insist(b, 2)
    tax_fix(b, 3, clerk_wants_approval=False)
    tax_fix(b, 3, clerk_wants_approval=True)
    resale_recategorize(b, 2)
    posted_correction(b, 2)
    apply_oldest_first(b, 4, train_last=True)
    approve_post_apply(b, 4)
    payment_to_unposted(b, 2)
    reconcile(b, 5, complete=True, train_last=True)
    reconcile(b, 3, complete=False)
    variance_question(b, 3, train_last=True)
    budget_move(b, 2, "ok")
    budget_move(b, 2, "too_much")
    budget_move(b, 2, "manager")
    budget_move(b, 1, "closed")
    return b.writer


if __name__ == "__main__":
    path = build().save()
    print(f"wrote {path}")
