"""Builds fixtures/banking/tasks.json with a `TaskWriter`: hand-written templates per task kind,
concrete customers and records picked from the initial DB with a seeded RNG. Every gold call
runs as it is added, and every figure a task asks for is read from what the tools returned.

    python -m tests_domains.banking.make_tasks
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable
from datetime import date
from typing import Any

from pytest_tau import TaskDraft, TaskWriter
from tests_domains.banking.domain import DOMAIN

TODAY = DOMAIN.today.isoformat()
DISPUTE_CUTOFF = "2026-03-16"  # posted on or after: well inside the 60 days after its statement (rule 4.2)
# merchants whose orders ship, the only ones an "order that never arrived" story fits (not a ride or a pharmacy counter)
SHIPPED_GOODS = ("shopping", "home", "electronics")
WINDOW_CLOSED = "2026-02-28"  # posted on or before: its statement closed 2026-02-28, 60 days ended 2026-04-29
FEE_CUTOFF = "2026-02-14"  # posted on or after: within the policy's 90 days
REFUND_YEAR_CUTOFF = "2025-05-15"  # a last overdraft refund after this: not eligible
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

Rec = dict[str, Any]


class Data:
    """The initial DB as plain dicts, indexed for picking candidates (never for figures)."""

    def __init__(self) -> None:
        db = DOMAIN.initial_db
        self.cus: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.customers.items()}
        self.acc: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.accounts.items()}
        self.cards: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.cards.items()}
        self.tx: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.transactions.items()}
        self.disputes: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.disputes.items()}
        self.payees: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.payees.items()}
        self.transfers: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.transfers.items()}
        self.alerts: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.alerts.items()}
        self.tx_by_acc: dict[str, list[Rec]] = defaultdict(list)
        for t in sorted(self.tx.values(), key=lambda t: t["txn_id"]):
            self.tx_by_acc[t["account_id"]].append(t)
        self.cards_by_cus: dict[str, list[Rec]] = defaultdict(list)
        for c in sorted(self.cards.values(), key=lambda c: c["card_id"]):
            self.cards_by_cus[c["customer_id"]].append(c)
        self.payees_by_cus: dict[str, list[Rec]] = defaultdict(list)
        for p in sorted(self.payees.values(), key=lambda p: p["payee_id"]):
            self.payees_by_cus[p["customer_id"]].append(p)


D = Data()


def words(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


def short(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{MONTHS[d.month - 1]} {d.day}"


def money(x: float) -> str:
    return f"${x:,.2f}"


def accounts(cid: str, kind: str | None = None) -> list[Rec]:
    return [D.acc[a] for a in sorted(D.cus[cid]["account_ids"]) if kind is None or D.acc[a]["type"] == kind]


def one(cid: str, kind: str) -> Rec | None:
    found = accounts(cid, kind)
    return found[0] if len(found) == 1 else None


def card_for(account: Rec, status: str = "active") -> Rec | None:
    found = [c for c in D.cards_by_cus[account["customer_id"]] if c["account_id"] == account["account_id"] and c["status"] == status]
    return found[0] if len(found) == 1 else None


def any_card(cid: str) -> Rec:
    live = [c for c in D.cards_by_cus[cid] if c["status"] in ("active", "locked")]
    return (live or D.cards_by_cus[cid])[0]


def available(account: Rec) -> float:
    """For picking candidates only: tasks read figures from the tools."""
    pending = sum(t["amount"] for t in D.tx_by_acc[account["account_id"]] if t["status"] == "pending" and t["direction"] == "debit")
    if account["type"] == "credit_card":
        return round(float(account["credit_limit"] - account["balance"] - pending), 2)
    return round(float(account["balance"] - pending), 2)


def alert_exists(account: Rec, kind: str) -> bool:
    return f"ALR-{account['account_id'][3:]}-{kind.upper().replace('_', '')}" in D.alerts


def good(c: Rec) -> bool:
    return bool(c["standing"] == "good")


def recent_purchases(account: Rec, card: Rec) -> list[Rec]:
    return [t for t in D.tx_by_acc[account["account_id"]] if t["kind"] == "purchase" and t["status"] == "posted"
            and t["posted_date"] >= DISPUTE_CUTOFF and t["dispute_id"] is None and t["card_id"] == card["card_id"]]


def unique_at_merchant(account: Rec, t: Rec) -> bool:
    return sum(1 for x in D.tx_by_acc[account["account_id"]] if x["merchant"] == t["merchant"]) == 1


def today_payee_total(cid: str) -> float:
    return float(sum(t["amount"] for t in D.transfers.values() if t["customer_id"] == cid and t["payee_id"] and t["date"] == TODAY))


PERSONAS = [
    "You are polite but a little rushed, calling on your lunch break.",
    "You are anxious and talk a lot; answer questions but add small irrelevant details.",
    "You are calm and precise, and you only answer exactly what is asked.",
    "You are friendly and chatty, and you thank the agent often.",
    "You are irritated about the situation, though not rude to the agent.",
    "You are careful with numbers and ask the agent to repeat the key ones.",
]


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(20260515)
        self.used: set[str] = set()

    def pick(self, cands: list[Any], key: Callable[[Any], str] = lambda x: x[0]["customer_id"]) -> Any:
        cands = [x for x in cands if key(x) not in self.used]
        if not cands:
            raise SystemExit("no candidate left")
        choice = self.rng.choice(sorted(cands, key=key))
        self.used.add(key(choice))
        return choice

    def persona(self) -> str:
        return self.rng.choice(PERSONAS) + " Reveal information only when the agent asks for it."

    def task(self, task_id: str, c: Rec, card: Rec, situation: str, script: list[str], split: str = "test", card_note: str = "") -> TaskDraft:
        kind = "debit" if card["kind"] == "debit" else "credit"
        who = (f"You are {c['first_name']} {c['last_name']}, born {words(c['date_of_birth'])}. The last four digits of your "
               f"{kind} card are {card['last4']}{card_note}.")
        return self.writer.task(task_id, instructions=f"{who} {self.persona()} {situation}", script=script, split=split)


def me(c: Rec, card: Rec | None = None, born: bool = True) -> str:
    """How the caller identifies themselves, in their own words."""
    line = f"I'm {c['first_name']} {c['last_name']}, " + (f"born {words(c['date_of_birth'])}" if born else words(c["date_of_birth"]))
    return line + (f", card ending {card['last4']}." if card else ".")


def verify(d: TaskDraft, c: Rec, card: Rec) -> Any:
    return d.read("find_customer", first_name=c["first_name"], last_name=c["last_name"], date_of_birth=c["date_of_birth"], card_last4=card["last4"])


# ------------------------------------------------------------------------------------------
def unauthorized(b: Builder, n: int, standing: str, split_last: bool = False) -> None:
    cands = []
    for c in D.cus.values():
        if c["standing"] != standing:
            continue
        chk = one(c["customer_id"], "checking")
        card = card_for(chk) if chk else None
        if not chk or not card:
            continue
        recent = [t for t in recent_purchases(chk, card) if t["amount"] <= 2000 and unique_at_merchant(chk, t)]
        if len(recent) >= 2 and len({t["merchant"] for t in recent}) >= 2 and chk["balance"] > 60:
            cands.append((c, chk, card, recent))
    for i in range(n):
        c, chk, card, recent = b.pick(cands)
        t1 = recent[0]
        t2 = next(t for t in recent if t["merchant"] != t1["merchant"])
        ship = "expedited" if i % 2 == 1 else "standard"
        credit = standing == "good"
        ask_total = ("Ask how much will be credited back to you right away, in total." if credit
                     else "Ask whether you get the money back right away; accept the answer.")
        ship_line = ("You need the new card fast: ask for expedited delivery" if ship == "expedited"
                     else "Standard delivery is fine; you do not want to pay for faster shipping")
        split = "train" if split_last and i == n - 1 else "test"
        d = b.task(
            f"unauthorized_charges_{standing}_{i + 1}", c, card,
            f"Going through your checking account online you found two debit card charges you did not make: "
            f"{money(t1['amount'])} at {t1['merchant']} on {short(t1['txn_date'])} and {money(t2['amount'])} at "
            f"{t2['merchant']} on {short(t2['txn_date'])}. You still have the card in your wallet, so someone must have "
            f"copied the number. You have not contacted either merchant. You want both charges disputed and a new card. "
            f"{ship_line}. {ask_total} Once the new card is ordered, ask for its last four digits so you recognize it in "
            f"the mail. Confirm the agent's plan when it matches what you want.",
            ["Hi, there are two charges on my checking account that I definitely didn't make.",
             me(c, card),
             f"{money(t1['amount'])} at {t1['merchant']} and {money(t2['amount'])} at {t2['merchant']}. No, I haven't called them.",
             "Yes, please go ahead with all of that.",
             "What are the last four digits of the new card?"],
            split=split,
        )
        d.one_end_state("Rules 4.4, 4.5 and 4.7: each charge the customer names (merchant and amount, one purchase each at its merchant) is disputed as unauthorized for its full amount, with provisional credit exactly when the standing is good, then the card is replaced as stolen with the shipping they ask for.")
        verify(d, c, card)
        d.read("search_transactions", account_id=chk["account_id"], start_date=min(t1["txn_date"], t2["txn_date"]))
        for t in (t1, t2):
            d.write("file_dispute", txn_id=t["txn_id"], reason="unauthorized", merchant_contacted=False,
                    disputed_amount=t["amount"], provisional_credit=credit)
        d.read("quote_card_replacement", card_id=card["card_id"], shipping=ship)
        new = d.write("replace_card", card_id=card["card_id"], reason="stolen", shipping=ship)
        d.output(new["new_card"]["last4"], "code")
        if credit:
            d.output(d.read("calculate", expression=f"{t1['amount']} + {t2['amount']}"), "money")


def overdraft_fix(b: Builder, n: int) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c) or (c["last_overdraft_refund_date"] or "") > REFUND_YEAR_CUTOFF:
            continue
        chk, sav = one(c["customer_id"], "checking"), one(c["customer_id"], "savings")
        if not chk or not sav or chk["balance"] >= 0:
            continue
        fees = [t for t in D.tx_by_acc[chk["account_id"]] if t["fee_type"] == "overdraft" and not t["refunded"] and t["posted_date"] >= FEE_CUTOFF]
        need = math.ceil((-chk["balance"] + 100) / 50) * 50
        if len(fees) == 1 and available(sav) >= need + 100 and not any(t["status"] == "pending" for t in D.tx_by_acc[chk["account_id"]]):
            cands.append((c, chk, sav, fees[0], need))
    for i in range(n):
        c, chk, sav, fee, need = b.pick(cands)
        card = any_card(c["customer_id"])
        threshold = [100.0, 150.0, 200.0][i % 3]
        channel = ["sms", "email", "push"][i % 3]
        said = {"sms": "text message (SMS)", "email": "email", "push": "push notification in the app"}[channel]
        d = b.task(
            f"overdraft_cover_refund_alert_{i + 1}", c, card,
            f"Your checking account went negative and you were charged a {money(fee['amount'])} overdraft fee on "
            f"{short(fee['txn_date'])}. You want three things: (1) move ${need:,} from your savings into checking so it is "
            f"positive again (if asked what it is for, say it is to cover your bills); (2) get that overdraft fee refunded - you "
            f"have never had an overdraft refund in the past year; (3) a low-balance alert on checking at ${threshold:,.0f} sent "
            f"by {said}. Ask what your checking balance is once everything is done.",
            ["Hello, I got hit with an overdraft fee and I'd like to sort out my checking account.",
             me(c, card, born=False),
             f"Move ${need} from savings to checking - it's for my bills. Then refund the overdraft fee, and set a low balance alert at ${threshold:.0f} by {said}.",
             "Yes, go ahead.", "What's my checking balance now?"],
        )
        d.one_end_state("Rules 5.2, 7.3 and 6.1: the customer names the amount and purpose of the transfer from their only savings, which brings checking above zero so 7.3 allows refunding their one overdraft fee in 90 days (no refund in the past 12 months); the alert is the kind, threshold and channel they give.")
        verify(d, c, card)
        d.read("get_account", account_id=chk["account_id"])
        d.read("search_transactions", account_id=chk["account_id"], kind="fee")
        d.write("transfer_between_accounts", from_account_id=sav["account_id"], to_account_id=chk["account_id"], amount=float(need), purpose="bills")
        refund = d.write("refund_fee", txn_id=fee["txn_id"])
        d.write("set_alert", account_id=chk["account_id"], kind="low_balance", channel=channel, threshold=threshold)
        d.output(refund["new_balance"], "money")


def premier_atm(b: Builder, n: int) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c) or c["tier"] != "premier":
            continue
        chk = one(c["customer_id"], "checking")
        if not chk or alert_exists(chk, "large_transaction"):
            continue
        fees = [t for t in D.tx_by_acc[chk["account_id"]] if t["fee_type"] == "foreign_atm" and not t["refunded"]]
        ok = [t for t in fees if t["posted_date"] >= FEE_CUTOFF]
        old = [t for t in fees if t["posted_date"] < FEE_CUTOFF]
        if len(ok) == 1 and len(old) == 1:
            cands.append((c, chk, ok[0], old[0]))
    for i in range(n):
        c, chk, fee, old = b.pick(cands)
        card = any_card(c["customer_id"])
        phone = f"+1-503-{b.rng.randint(200, 989)}-{b.rng.randint(1000, 9999)}"
        d = b.task(
            f"premier_atm_fee_refund_{i + 1}", c, card,
            f"You are a Premier client and your checking statements show two non-Larkspur ATM fees since December that were "
            f"never refunded. You were told Premier clients get those ATM fees back, so you want both refunded. If the agent can "
            f"only refund one of them, ask what date the other one posted, and accept. While on the phone you also want a push "
            f"notification for any checking transaction of $750 or more, and your phone number changed to {phone}.",
            ["Hi, I'd like my two out-of-network ATM fees refunded please.",
             me(c, card),
             "Only one? When did the other one post?",
             f"Fine. Also set a push alert for any transaction of $750 or more on checking, and my new phone number is {phone}.",
             "Yes, please do all that."],
        )
        d.one_end_state("Rules 7.2 and 7.5: a premier customer's non-Larkspur ATM fees are refunded only within 90 days, so of the two only the recent one; the alert and the phone number are as the customer gives them.")
        verify(d, c, card)
        found = d.read("search_transactions", account_id=chk["account_id"], kind="fee")
        d.write("refund_fee", txn_id=fee["txn_id"])
        d.write("set_alert", account_id=chk["account_id"], kind="large_transaction", channel="push", threshold=750.0)
        d.write("update_contact_info", customer_id=c["customer_id"], phone=phone)
        d.output(next(t["posted_date"] for t in found["transactions"] if t["txn_id"] == old["txn_id"]), "date")
        d.forbid("refund_fee", txn_id=old["txn_id"])


def contact_alerts(b: Builder, n: int, train_last: bool = False) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c):
            continue
        chk, cc = one(c["customer_id"], "checking"), one(c["customer_id"], "credit_card")
        if chk and cc and not alert_exists(chk, "low_balance") and not alert_exists(cc, "payment_due"):
            cands.append((c, chk, cc))
    for i in range(n):
        c, chk, cc = b.pick(cands)
        card = any_card(c["customer_id"])
        new_email = f"{c['first_name'].lower()}{c['last_name'].lower().replace(chr(39), '')}.home@icloud.com"
        threshold = [250.0, 75.0][i % 2]
        d = b.task(
            f"email_and_alerts_{i + 1}", c, card,
            f"You changed email providers: your new address is {new_email} and you want the bank to use it. Then you want two "
            f"alerts: an email when your checking balance drops below ${threshold:,.0f}, and a text message (SMS) reminder when "
            f"your credit card payment is coming due. You do not want to change anything else.",
            ["Hi, I need to update my email and set up a couple of alerts.",
             me(c, card, born=False),
             f"New email is {new_email}. Low balance on checking at ${threshold:.0f} by email, and a payment due reminder by text for my credit card.",
             "Yes, that's right."],
            split="train" if train_last and i == n - 1 else "test",
        )
        d.one_end_state("Rules 6.1 and 8.1: the email, the alert kinds, threshold and channels are the customer's words, on their only checking and credit card accounts.")
        verify(d, c, card)
        d.write("update_contact_info", customer_id=c["customer_id"], email=new_email)
        d.write("set_alert", account_id=chk["account_id"], kind="low_balance", channel="email", threshold=threshold)
        d.write("set_alert", account_id=cc["account_id"], kind="payment_due", channel="sms")


def lost_card_payment(b: Builder, n: int) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c) or c["tier"] != "classic":  # classic: a fee figure the policy does not state as such
            continue
        chk, cc = one(c["customer_id"], "checking"), one(c["customer_id"], "credit_card")
        if not chk or not cc or alert_exists(cc, "payment_due"):
            continue
        card = card_for(chk)
        if card and cc["balance"] >= 300 and available(chk) >= 600:
            cands.append((c, chk, cc, card))
    for i in range(n):
        c, chk, cc, card = b.pick(cands)
        pay = float(min(int(cc["balance"] // 50) * 50, int((available(chk) - 80) // 50) * 50, 1500))
        d = b.task(
            f"lost_debit_card_and_card_payment_{i + 1}", c, card,
            f"You lost your debit card yesterday, probably at the gym; you do not think anyone used it. You want it cancelled "
            f"and a new one sent by the fastest delivery available, and you want to know what that costs in total before you "
            f"agree. While on the phone you also want to pay ${pay:,.0f} from checking toward your credit card, and set an email "
            f"reminder for credit card payment due dates so this month does not slip.",
            ["Hi, I lost my debit card and need a new one.",
             me(c, card),
             "Fastest shipping please. What will that cost me?", "OK, go ahead.",
             f"Also pay ${pay:.0f} from checking to my credit card, and email me payment due reminders.", "Yes, confirmed."],
            card_note=" (the card you lost)",
        )
        d.one_end_state("Rules 3.3-3.4 and 5.2: the lost card (by its last four) is replaced as lost with the expedited shipping asked for; the payment is the amount they name from their only checking to their only credit card (within what is owed); the reminder is the kind and channel they give.")
        verify(d, c, card)
        d.read("list_cards", customer_id=c["customer_id"])
        quote = d.read("quote_card_replacement", card_id=card["card_id"], shipping="expedited")
        d.write("replace_card", card_id=card["card_id"], reason="lost", shipping="expedited")
        d.read("get_account", account_id=cc["account_id"])
        d.write("transfer_between_accounts", from_account_id=chk["account_id"], to_account_id=cc["account_id"], amount=pay, purpose="card_payment")
        d.write("set_alert", account_id=cc["account_id"], kind="payment_due", channel="email")
        fees = quote["fees"]  # the policy: a total told to the customer is computed with calculate
        d.output(d.read("calculate", expression=f"{fees['card_replacement']} + {fees['expedited_shipping']}"), "money")


def maintenance_refunds(b: Builder, n: int) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c) or c["member_since"] > "2021-05-15":
            continue
        chk = one(c["customer_id"], "checking")
        if not chk:
            continue
        fees = [t for t in D.tx_by_acc[chk["account_id"]] if t["fee_type"] == "monthly_maintenance" and not t["refunded"]]
        if len(fees) == 3:
            cands.append((c, chk, fees))
    for i in range(n):
        c, chk, fees = b.pick(cands)
        card = any_card(c["customer_id"])
        d = b.task(
            f"maintenance_fee_refunds_{i + 1}", c, card,
            f"You have banked with Larkspur since {c['member_since'][:4]} and you just noticed you have been paying a monthly "
            f"maintenance fee on your checking account since March. You want all of those maintenance fees refunded and you want "
            f"to know the total you will get back. You are not asking about any other fee.",
            ["Hello, I've been charged monthly maintenance fees and I'd like them refunded.",
             me(c, card, born=False),
             "Yes, all the maintenance fees on checking.", "Yes please.", "So how much in total?"],
        )
        d.one_end_state("Rule 7.4: a member of five years or more gets every monthly maintenance fee within 90 days refunded, which is all three on their only checking account; the total is computed.")
        verify(d, c, card)
        d.read("search_transactions", account_id=chk["account_id"], kind="fee")
        refunds = [d.write("refund_fee", txn_id=t["txn_id"]) for t in fees]
        d.output(d.read("calculate", expression=" + ".join(str(r["refund"]["amount"]) for r in refunds)), "money")


def duplicate_combo(b: Builder, n: int) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c):
            continue
        chk = one(c["customer_id"], "checking")
        card = card_for(chk) if chk else None
        if not chk or not card or alert_exists(chk, "large_transaction"):
            continue
        recent = recent_purchases(chk, card)
        for x in recent:
            for y in recent:
                same = (x["merchant"], x["amount"], x["txn_date"]) == (y["merchant"], y["amount"], y["txn_date"])
                if x["txn_id"] < y["txn_id"] and same and sum(1 for t in D.tx_by_acc[chk["account_id"]] if t["merchant"] == x["merchant"]) == 2:
                    cands.append((c, chk, card, x, y))
    for i in range(n):
        c, chk, card, first, later = b.pick(cands)
        phone = f"+1-541-{b.rng.randint(200, 989)}-{b.rng.randint(1000, 9999)}"
        d = b.task(
            f"duplicate_charge_phone_alert_{i + 1}", c, card,
            f"{first['merchant']} charged your debit card {money(first['amount'])} twice on {short(first['txn_date'])} for a "
            f"single purchase. You already called the store and they told you to contact your bank. You want the extra charge "
            f"disputed and you want the dispute's reference number for your records. Since your phone number changed to {phone}, "
            f"you also want it updated, and you want a text-message alert for any checking transaction of $300 or more.",
            [f"Hi, {first['merchant']} charged me twice for the same thing.",
             me(c, card),
             "Yes, I called the store already. Please dispute the duplicate, and give me the reference number.",
             f"Also my new phone number is {phone}, and I'd like a text alert for checking transactions of $300 or more.",
             "Yes, go ahead with all of it."],
        )
        d.one_end_state("Rule 4.4: a duplicate charge disputes the later copy, the one with the higher transaction id, for its full amount, with provisional credit for a good standing (4.5); the phone and alert are the customer's.")
        verify(d, c, card)
        d.read("search_transactions", account_id=chk["account_id"], merchant=first["merchant"])
        dispute = d.write("file_dispute", txn_id=later["txn_id"], reason="duplicate_charge", merchant_contacted=True,
                          disputed_amount=later["amount"], provisional_credit=True)
        d.write("set_alert", account_id=chk["account_id"], kind="large_transaction", channel="sms", threshold=300.0)
        d.write("update_contact_info", customer_id=c["customer_id"], phone=phone)
        d.output(dispute["dispute_id"], "code")


# ------------------------------------------------------------------------------------------
def outside_window(b: Builder, n: int, train_last: bool = False) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c):
            continue
        for a in accounts(c["customer_id"]):
            if a["type"] == "savings" or len(accounts(c["customer_id"], a["type"])) != 1:
                continue
            for t in D.tx_by_acc[a["account_id"]]:
                if (t["kind"] == "purchase" and t["status"] == "posted" and t["posted_date"] <= WINDOW_CLOSED and t["dispute_id"] is None
                        and t["category"] in SHIPPED_GOODS
                        and t["posted_date"] != t["txn_date"] and unique_at_merchant(a, t)):
                    cands.append((c, a, t))
    for i in range(n):
        c, a, t = b.pick(cands)
        card, mine = any_card(c["customer_id"]), D.cards[t["card_id"]]
        kind = "credit card" if a["type"] == "credit_card" else "debit card"
        d = b.task(
            f"dispute_outside_window_{i + 1}", c, card,
            f"Back in {MONTHS[int(t['txn_date'][5:7]) - 1]} you paid {money(t['amount'])} at {t['merchant']} with your {kind} "
            f"(ending {mine['last4']}) for an order that never arrived. You want to dispute it. You have emailed the merchant "
            f"twice with no answer. If the agent refuses, ask exactly when the charge posted, accept the explanation and end "
            f"the call; do not ask for anything else.",
            [f"I want to dispute a {t['merchant']} charge, the order never showed up.",
             me(c, card, born=False),
             f"It was {money(t['amount'])}, back in {MONTHS[int(t['txn_date'][5:7]) - 1]}. Yes, I emailed them twice.",
             "When exactly did it post?"],
            split="train" if train_last and i == n - 1 else "test",
        )
        d.one_end_state("Rule 4.2: the purchase posted in February or earlier, so the 60 days after its month-end statement ended before today and no dispute can be filed (9.2: explain, no transfer); the posted date is the one the customer asks for.")
        verify(d, c, card)
        found = d.read("search_transactions", account_id=a["account_id"], merchant=t["merchant"])
        d.output(found["transactions"][0]["posted_date"], "date")
        d.forbid("file_dispute", txn_id=t["txn_id"], reason="merchandise_not_received", merchant_contacted=True,
                 disputed_amount=t["amount"], provisional_credit=False)


def pending_dispute(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        chk = one(c["customer_id"], "checking")
        if good(c) and chk:
            for t in D.tx_by_acc[chk["account_id"]]:
                if t["kind"] == "purchase" and t["status"] == "pending" and unique_at_merchant(chk, t) and t["amount"] >= 20:
                    cands.append((c, chk, t))
    c, chk, t = b.pick(cands)
    card = any_card(c["customer_id"])
    correct = round(t["amount"] * 0.8, 2)
    d = b.task(
        "dispute_pending_charge", c, card,
        f"You see a {money(t['amount'])} charge from {t['merchant']} dated {short(t['txn_date'])} on your checking account and "
        f"you think the amount is wrong: it should have been {money(correct)}. You have already called the merchant. You want "
        f"to dispute it today. If the agent says it cannot be disputed yet, ask why, accept and end the call.",
        [f"There's a {t['merchant']} charge on my checking that's the wrong amount, I want to dispute it.",
         me(c, card, born=False), "I already called them, they wouldn't fix it.", "Why can't you dispute it?"],
    )
    d.one_end_state("Rule 4.1: a pending transaction cannot be disputed; the customer is told to call back once it posts, after the look-up that shows it pending.")
    verify(d, c, card)
    d.read("search_transactions", account_id=chk["account_id"], merchant=t["merchant"])
    d.require("search_transactions", account_id=chk["account_id"])
    d.forbid("file_dispute", txn_id=t["txn_id"], reason="incorrect_amount", merchant_contacted=True,
             disputed_amount=round(t["amount"] - correct, 2), provisional_credit=True)


def already_disputed(b: Builder) -> None:
    cands = []
    for dsp in D.disputes.values():
        c = D.cus[dsp["customer_id"]]
        t = D.tx[dsp["txn_id"]]
        a = D.acc[t["account_id"]]
        if good(c) and dsp["status"] == "open" and dsp["reason"] == "merchandise_not_received" and unique_at_merchant(a, t) and len(accounts(c["customer_id"], a["type"])) == 1:
            cands.append((c, a, t, dsp))
    c, a, t, dsp = b.pick(cands)
    card = any_card(c["customer_id"])
    d = b.task(
        "dispute_already_filed", c, card,
        f"A while ago you disputed a {money(t['amount'])} charge from {t['merchant']} because you never received the order, "
        f"but you are not sure the dispute went through, so you want to file it again to be safe. If the agent tells you one "
        f"already exists, ask for its reference number and the date it was filed, and do not file anything new.",
        [f"I want to dispute a {t['merchant']} charge of {money(t['amount'])}. I might have done it before, but I'm not sure it went through.",
         me(c, card, born=False), "What's the reference number, and when was it filed?"],
    )
    d.one_end_state("Rule 4.3: one dispute per transaction; the existing dispute's id and filing date are what the customer asks for, nothing new is filed.")
    verify(d, c, card)
    disputes = d.read("list_disputes", customer_id=c["customer_id"])
    mine = next(x for x in disputes if x["txn_id"] == t["txn_id"])
    d.output(mine["dispute_id"], "code")
    d.output(mine["filed_date"], "date")
    d.forbid("file_dispute", txn_id=t["txn_id"], reason="merchandise_not_received", merchant_contacted=dsp["merchant_contacted"],
             disputed_amount=t["amount"], provisional_credit=False)


def big_dispute(b: Builder, n: int) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c):
            continue
        for a in accounts(c["customer_id"]):
            if a["type"] == "savings" or len(accounts(c["customer_id"], a["type"])) != 1:
                continue
            for t in D.tx_by_acc[a["account_id"]]:
                if (t["kind"] == "purchase" and t["status"] == "posted" and t["posted_date"] >= DISPUTE_CUTOFF and t["amount"] > 2000
                        and t["dispute_id"] is None and unique_at_merchant(a, t)):
                    cands.append((c, a, t))
    for i in range(n):
        c, a, t = b.pick(cands)
        card = any_card(c["customer_id"])
        d = b.task(
            f"dispute_over_phone_limit_{i + 1}", c, card,
            f"On {short(t['txn_date'])} you paid {money(t['amount'])} to {t['merchant']} with your "
            f"{'credit' if a['type'] == 'credit_card' else 'debit'} card for an order that was never delivered. The merchant "
            f"stopped answering your emails. You want the full amount disputed. If the agent says someone else must handle it, "
            f"agree to be transferred.",
            [f"I paid {t['merchant']} {money(t['amount'])} and never got anything. I need to dispute it.",
             me(c, card, born=False), "Yes, I emailed them, they stopped answering.", "OK, transfer me."],
        )
        d.one_end_state("Rule 4.6: a disputed amount over $2,000.00 goes to the specialists by transfer, not filed; the look-up shows the amount.")
        verify(d, c, card)
        d.read("search_transactions", account_id=a["account_id"], merchant=t["merchant"])
        d.transfer(f"Customer wants to dispute a {t['merchant']} charge of {t['amount']:.2f} (merchandise not received), over the phone dispute limit.")
        d.require("find_customer")
        d.require("search_transactions", account_id=a["account_id"])
        d.forbid("file_dispute", txn_id=t["txn_id"], reason="merchandise_not_received", merchant_contacted=True,
                 disputed_amount=t["amount"], provisional_credit=False)


def overdraft_recent_refund(b: Builder, n: int) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c) or (c["last_overdraft_refund_date"] or "") <= REFUND_YEAR_CUTOFF:
            continue
        chk = one(c["customer_id"], "checking")
        if not chk or chk["balance"] < 0:
            continue
        fees = [t for t in D.tx_by_acc[chk["account_id"]] if t["fee_type"] == "overdraft" and not t["refunded"] and t["posted_date"] >= FEE_CUTOFF]
        if len(fees) == 1:
            cands.append((c, chk, fees[0]))
    for i in range(n):
        c, chk, fee = b.pick(cands)
        card = any_card(c["customer_id"])
        d = b.task(
            f"overdraft_refund_too_soon_{i + 1}", c, card,
            f"You were charged an overdraft fee of {money(fee['amount'])} on {short(fee['txn_date'])} and you want it refunded; "
            f"your paycheck was just one day late. If the agent refuses, ask when your last overdraft refund was, insist once "
            f"that you are a loyal customer, then accept the answer and end the call.",
            ["I'd like an overdraft fee refunded please.", me(c, card, born=False),
             "When was my last refund then?", "I've been a loyal customer for years, can't you make an exception?"],
        )
        d.one_end_state("Rule 7.3: one overdraft refund per rolling 12 months, and the last one is more recent; the refusal tells that date (the fee is within 90 days, so this is the one reason).")
        profile = verify(d, c, card)
        d.read("search_transactions", account_id=chk["account_id"], kind="fee")
        d.output(profile["last_overdraft_refund_date"], "date")
        d.forbid("refund_fee", txn_id=fee["txn_id"])


def overdraft_too_old(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c) or (c["last_overdraft_refund_date"] or "") > REFUND_YEAR_CUTOFF:
            continue
        chk = one(c["customer_id"], "checking")
        if not chk or chk["balance"] < 0:
            continue
        fees = [t for t in D.tx_by_acc[chk["account_id"]] if t["fee_type"] == "overdraft" and not t["refunded"]]
        if len(fees) == 1 and fees[0]["posted_date"] < "2026-02-05":
            cands.append((c, chk, fees[0]))
    c, chk, fee = b.pick(cands)
    card = any_card(c["customer_id"])
    d = b.task(
        "overdraft_refund_too_old", c, card,
        f"Going over your statements you found an overdraft fee from {MONTHS[int(fee['txn_date'][5:7]) - 1]} that you think "
        f"was unfair, and you want it refunded. You do not remember the exact day; ask the agent what date it posted. If "
        f"refused, accept and end the call.",
        ["Hi, I want a refund of an old overdraft fee.", me(c, card, born=False), "What date did that fee post?"],
    )
    d.one_end_state("Rule 7.2: the fee posted more than 90 days ago (and no overdraft refund in the past 12 months, so 7.3 is not a second reason); the refusal tells the posted date asked for.")
    verify(d, c, card)
    found = d.read("search_transactions", account_id=chk["account_id"], kind="fee")
    d.output(next(t["posted_date"] for t in found["transactions"] if t["txn_id"] == fee["txn_id"]), "date")
    d.forbid("refund_fee", txn_id=fee["txn_id"])


def restricted_requests(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        chk = one(c["customer_id"], "checking")
        if c["standing"] == "restricted" and chk and card_for(chk):
            cands.append((c, chk))
    c, chk = b.pick(cands)
    card = card_for(chk)
    assert card is not None
    d = b.task(
        "restricted_customer_lock_card", c, card,
        "You cannot find your debit card; it is probably somewhere at home, so you only want it locked for now, not "
        "cancelled. Accept a transfer to another agent if offered.",
        ["Hi, I can't find my debit card, can you lock it for now?", me(c, card, born=False), "OK, transfer me."],
    )
    d.one_end_state("Rule 2.5: a restricted customer gets no change of any kind and is transferred as soon as they ask for one (9.1 b).")
    verify(d, c, card)
    d.transfer("Restricted customer asks to lock a misplaced debit card.")
    d.require("find_customer")
    d.forbid("lock_card", card_id=card["card_id"], reason="misplaced")

    savers = []
    for c in D.cus.values():
        if c["standing"] == "restricted":
            chk, sav = one(c["customer_id"], "checking"), one(c["customer_id"], "savings")
            if chk and sav and available(sav) > 500:
                savers.append((c, chk, sav))
    c, chk, sav = b.pick(savers)
    card = any_card(c["customer_id"])
    d = b.task(
        "restricted_customer_transfer", c, card,
        "First ask how much is available in your savings account. Then you want to move $400 from savings to checking to "
        "pay bills. If the agent says it cannot make changes, ask to speak to someone who can.",
        ["Hi, how much do I have available in savings?", me(c, card, born=False),
         "OK, please move $400 of it to checking, it's for bills.", "Then put me through to someone who can."],
    )
    d.one_end_state("Rule 2.5: a restricted customer may hear balances, so the available savings balance is told; the transfer they then ask for is a change, so no transfer of money and a transfer to a human (9.1 b).")
    verify(d, c, card)
    account = d.read("get_account", account_id=sav["account_id"])
    d.output(account["available_balance"], "money")
    d.transfer("Restricted customer asks to move 400 from savings to checking.")
    d.forbid("transfer_between_accounts", from_account_id=sav["account_id"], to_account_id=chk["account_id"], amount=400.0, purpose="bills")


def unlock_lost(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c):
            continue
        for card in D.cards_by_cus[c["customer_id"]]:
            new = D.cards.get(card.get("replaced_by_card_id") or "")
            if card["status"] == "lost_stolen" and new and new["status"] == "active":
                cands.append((c, card, new))
    c, old, new = b.pick(cands)
    d = b.task(
        "unlock_reported_lost_card", c, old,
        "A while ago you reported this card lost, but you just found it in a coat pocket and you would like to use it "
        "again, so you want it unlocked. If the agent refuses, ask which card you should use instead (you want its last "
        "four digits), then end the call.",
        [f"Hi, I found my old card ending {old['last4']} that I reported lost. Can you turn it back on?",
         me(c, born=False), "Then which card should I be using?"],
    )
    d.one_end_state("Rule 3.2: a card reported lost is blocked for good; the customer is told the last four of the card that replaced it.")
    verify(d, c, old)
    cards = d.read("list_cards", customer_id=c["customer_id"])
    d.output(next(x["last4"] for x in cards if x["card_id"] == old["replaced_by_card_id"]), "code")
    d.forbid("unlock_card", card_id=old["card_id"])


def atm_not_premier(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c) or c["tier"] == "premier":
            continue
        chk = one(c["customer_id"], "checking")
        if not chk:
            continue
        fees = [t for t in D.tx_by_acc[chk["account_id"]] if t["fee_type"] == "foreign_atm" and not t["refunded"]]
        refunded = [t for t in D.tx_by_acc[chk["account_id"]] if t["fee_type"] == "foreign_atm" and t["refunded"]]
        if len(fees) >= 2 and not refunded and all(t["posted_date"] >= FEE_CUTOFF for t in fees):
            cands.append((c, chk, fees))
    c, chk, fees = b.pick(cands)
    card = any_card(c["customer_id"])
    d = b.task(
        "atm_fee_refund_not_premier", c, card,
        "You used other banks' ATMs a few times recently. First you want to know how much you paid in Larkspur's "
        "non-network ATM fees on checking in total, then you want them all refunded. If refused, accept and end the call.",
        ["How much have I paid in ATM fees lately? And I want them refunded.", me(c, card, born=False), "Can you refund them?"],
    )
    d.one_end_state("Rule 7.5: non-Larkspur ATM fees are refunded for premier customers only, and this customer is not premier; the total of those fees is computed.")
    verify(d, c, card)
    found = d.read("search_transactions", account_id=chk["account_id"], kind="fee")
    amounts = [str(t["amount"]) for t in found["transactions"] if t["fee_type"] == "foreign_atm" and not t["refunded"]]
    d.output(d.read("calculate", expression=" + ".join(amounts)), "money")
    for t in fees:
        d.forbid("refund_fee", txn_id=t["txn_id"])


def payee_over_limit(b: Builder, n: int) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c):
            continue
        chk = one(c["customer_id"], "checking")
        payees = [p for p in D.payees_by_cus[c["customer_id"]] if p["status"] == "active"]
        if not chk or len(payees) != 1:
            continue
        used_today = today_payee_total(c["customer_id"])
        remaining = {"classic": 2500.0, "plus": 5000.0, "premier": 10000.0}[c["tier"]] - used_today
        # something already sent today: what remains is looked up, not read off the policy
        if used_today > 0 and remaining > 0 and available(chk) >= remaining + 600:
            cands.append((c, chk, payees[0], remaining))
    for i in range(n):
        c, chk, payee, remaining = b.pick(cands)
        card = any_card(c["customer_id"])
        ask = float(math.ceil((remaining + 400) / 100) * 100)
        purpose = ["rent", "loan_repayment"][i % 2]
        why = "this month's rent" if purpose == "rent" else "paying back a loan"
        d = b.task(
            f"payee_transfer_over_daily_limit_{i + 1}", c, card,
            f"You want to send ${ask:,.0f} from your checking account to {payee['name']} (already saved as a payee) - it is "
            f"for {why}. If the agent says that is over your daily limit, ask how much you can still send today and send "
            f"exactly that amount now instead; you will handle the rest another way. Do not ask to split it across days.",
            [f"I need to send ${ask:.0f} to {payee['name']} from checking.", me(c, card, born=False),
             f"It's for {why}.", "How much can I send today then?", "Yes, send that amount now, please."],
        )
        d.one_end_state("Rule 5.4: the request exceeds what remains of the daily payee limit, so it is not sent; the customer then asks for exactly the remainder, which 5.4 allows, to the one active payee with the purpose they state.")
        verify(d, c, card)
        d.read("list_payees", customer_id=c["customer_id"])
        limits = d.read("get_transfer_limits", customer_id=c["customer_id"])
        left = d.read("calculate", expression=f"{limits['daily_payee_limit']} - {limits['payee_transfers_today']}")
        d.write("transfer_to_payee", from_account_id=chk["account_id"], payee_id=payee["payee_id"], amount=float(left), purpose=purpose)
        d.output(left, "money")
        d.forbid("transfer_to_payee", from_account_id=chk["account_id"], payee_id=payee["payee_id"], amount=ask, purpose=purpose)


def insufficient_funds(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        chk, sav = one(c["customer_id"], "checking"), one(c["customer_id"], "savings")
        if good(c) and chk and sav and 300 < available(chk) < 3000:
            cands.append((c, chk, sav))
    c, chk, sav = b.pick(cands)
    card = any_card(c["customer_id"])
    ask = float(math.ceil((available(chk) + 500) / 500) * 500)
    d = b.task(
        "transfer_insufficient_funds", c, card,
        f"You want to move ${ask:,.0f} from checking into savings to start an emergency fund (if asked for the purpose, it is "
        f"savings). If the agent says you do not have enough, ask exactly how much is available in checking, say you will "
        f"think about it and end the call without moving anything.",
        [f"Please move ${ask:.0f} from my checking to my savings.", me(c, card, born=False),
         "How much is available then?", "OK, I'll think about it. Bye."],
    )
    d.one_end_state("Rule 5.5: a transfer may not exceed the available balance; the customer asks for it and sends nothing.")
    verify(d, c, card)
    account = d.read("get_account", account_id=chk["account_id"])
    d.output(account["available_balance"], "money")
    d.forbid("transfer_between_accounts", from_account_id=chk["account_id"], to_account_id=sav["account_id"], amount=ask, purpose="savings")


def replacement_fee_waiver(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        if good(c) and c["tier"] == "classic":
            chk = one(c["customer_id"], "checking")
            if chk and card_for(chk) and available(chk) > 100:
                cands.append((c, chk))
    c, chk = b.pick(cands)
    card = card_for(chk)
    assert card is not None
    d = b.task(
        "damaged_card_fee_not_waived", c, card,
        "Your debit card's chip cracked and it no longer works at terminals. You want a replacement with normal shipping. "
        "Once it is ordered, ask for the last four digits of the new card, then ask for the replacement fee to be waived or "
        "refunded since the card broke on its own; insist once, then accept the answer.",
        ["My debit card is cracked and stopped working, I need a new one.", me(c, card, born=False),
         "Standard shipping is fine. Yes, order it.", "What are the last four digits of the new card?",
         "Can you refund that replacement fee? The card broke on its own.", "Really? Not even once?"],
    )
    d.one_end_state("Rules 3.3-3.4 and 7.1: the damaged card (named by last four) is replaced with standard shipping and its classic fee; a replacement fee is never refunded.")
    verify(d, c, card)
    d.read("list_cards", customer_id=c["customer_id"])
    d.read("quote_card_replacement", card_id=card["card_id"], shipping="standard")
    new = d.write("replace_card", card_id=card["card_id"], reason="damaged", shipping="standard")
    d.output(new["new_card"]["last4"], "code")
    d.forbid("refund_fee", txn_id=f"FEE-{new['new_card']['card_id']}-REPL")


def past_due_payee(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        if c["standing"] != "past_due":
            continue
        chk, cc = one(c["customer_id"], "checking"), one(c["customer_id"], "credit_card")
        payees = [p for p in D.payees_by_cus[c["customer_id"]] if p["status"] == "active"]
        if chk and cc and payees and cc["balance"] >= 200 and available(chk) >= 400:
            cands.append((c, chk, cc, payees[0]))
    c, chk, cc, payee = b.pick(cands)
    card = any_card(c["customer_id"])
    pay = float(min(int(cc["balance"] // 100) * 100, int(available(chk) // 200) * 100, 800))
    d = b.task(
        "past_due_payee_blocked_pays_card", c, card,
        f"You want to send $250 from checking to {payee['name']}, one of your saved payees, as a gift. If the agent says you "
        f"cannot send to payees right now, accept it, and instead pay ${pay:,.0f} from checking toward your own credit card, "
        f"which you know is behind.",
        [f"I want to send $250 to {payee['name']} from checking, it's a gift.", me(c, card, born=False),
         f"OK. Then pay ${pay:.0f} from checking to my credit card instead.", "Yes, confirm."],
    )
    d.one_end_state("Rule 5.3: a past_due customer may not send to payees but may pay their own card; the customer names the amount, from their only checking to their only credit card.")
    verify(d, c, card)
    d.read("list_payees", customer_id=c["customer_id"])
    d.write("transfer_between_accounts", from_account_id=chk["account_id"], to_account_id=cc["account_id"], amount=pay, purpose="card_payment")
    d.forbid("transfer_to_payee", from_account_id=chk["account_id"], payee_id=payee["payee_id"], amount=250.0, purpose="gift")


def maintenance_short_tenure(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c) or c["member_since"] <= "2022-06-01":
            continue
        chk = one(c["customer_id"], "checking")
        if chk:
            fees = [t for t in D.tx_by_acc[chk["account_id"]] if t["fee_type"] == "monthly_maintenance" and not t["refunded"] and t["txn_date"][:7] == TODAY[:7]]
            if len(fees) == 1:
                cands.append((c, chk, fees[0]))
    c, chk, fee = b.pick(cands)
    card = any_card(c["customer_id"])
    d = b.task(
        "maintenance_refund_short_tenure", c, card,
        "You are annoyed about the monthly maintenance fee on your checking and want this month's refunded. If the agent "
        "says you are not eligible, ask what date the bank has as the start of your membership, then end the call.",
        ["I want my monthly maintenance fee refunded, this month's one.", me(c, card, born=False),
         "What date do you have me as a member since?"],
    )
    d.one_end_state("Rule 7.4: maintenance fees are refunded only after five years of membership, which this customer lacks (standing good and fee within 90 days: the one reason); they ask for the member-since date.")
    profile = verify(d, c, card)
    d.read("search_transactions", account_id=chk["account_id"], kind="fee")
    d.output(profile["member_since"], "date")
    d.forbid("refund_fee", txn_id=fee["txn_id"])


def takeover(b: Builder) -> None:
    cands = []
    for t in D.transfers.values():
        c = D.cus[t["customer_id"]]
        if t["payee_id"] and "2026-05-01" <= t["date"] < TODAY and good(c):
            cands.append((c, t))
    c, t = b.pick(cands)
    card = any_card(c["customer_id"])
    payee = D.payees[t["payee_id"]]
    debit = next(x for x in D.tx_by_acc[t["from_account_id"]] if x["description"].startswith(f"TRANSFER {t['transfer_id']}"))
    d = b.task(
        "unauthorized_transfer_takeover", c, card,
        f"You just noticed a transfer of ${t['amount']:,.2f} on {short(t['date'])} from your account to {payee['name']}. You "
        f"did not make it and you are worried someone got into your online banking. You want it reversed or disputed. "
        f"Accept a transfer to a specialist.",
        [f"There's a ${t['amount']:.2f} transfer to {payee['name']} that I never made!", me(c, card, born=False),
         "Please, someone needs to look at this now.", "Yes, transfer me."],
    )
    d.one_end_state("Rule 4.8: a transfer the customer did not make is suspected account takeover and goes to a human (9.1 c), never a card dispute.")
    verify(d, c, card)
    d.read("list_payees", customer_id=c["customer_id"])
    d.transfer(f"Customer did not authorize the {t['amount']:.2f} transfer to payee {payee['name']} on {t['date']}; possible account takeover.")
    d.require("find_customer")
    d.forbid("file_dispute", txn_id=debit["txn_id"], reason="unauthorized", merchant_contacted=False,
             disputed_amount=t["amount"], provisional_credit=True)


# ------------------------------------------------------------------------------------------
def merchant_spend(b: Builder, n: int, train_last: bool = False) -> None:
    cands = []
    for c in D.cus.values():
        for a in accounts(c["customer_id"]):
            if a["type"] == "savings" or len(accounts(c["customer_id"], a["type"])) != 1:
                continue
            by_m: dict[str, list[Rec]] = defaultdict(list)
            for t in D.tx_by_acc[a["account_id"]]:
                if t["kind"] == "purchase":
                    by_m[t["merchant"]].append(t)
            for m, ts in by_m.items():
                if len(ts) >= 2:
                    cands.append((c, a, m, ts))
    for i in range(n):
        c, a, m, ts = b.pick(cands)
        card = any_card(c["customer_id"])
        kind = "credit card" if a["type"] == "credit_card" else "checking account"
        d = b.task(
            f"merchant_spend_total_{i + 1}", c, card,
            f"You are doing your budget and want to know how much you have spent in total at {m} on your {kind} since "
            f"December 2025, pending charges included. You only want the total; you do not want any change.",
            [f"How much have I spent at {m} on my {kind} since December?", me(c, card, born=False), "Thanks, that's all."],
            split="train" if train_last and i == n - 1 else "test",
        )
        d.one_end_state("Rule 2.2: the total of the purchases at the merchant on the one account of that type, pending included as asked, computed with calculate.")
        verify(d, c, card)
        found = d.read("search_transactions", account_id=a["account_id"], merchant=m)
        amounts = [str(t["amount"]) for t in found["transactions"] if t["kind"] == "purchase"]
        d.output(d.read("calculate", expression=" + ".join(amounts)), "money")


def total_available(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        chk, sav = one(c["customer_id"], "checking"), one(c["customer_id"], "savings")
        if chk and sav and chk["balance"] > 0:
            cands.append((c, chk, sav))
    c, chk, sav = b.pick(cands)
    card = any_card(c["customer_id"])
    d = b.task(
        "combined_available_balance", c, card,
        "You are about to put down a deposit on a car and want to know how much money you have available right now across "
        "your checking and savings accounts combined (one number). You do not want to move money.",
        ["How much do I have available across checking and savings together?", me(c, card, born=False), "Great, thanks."],
    )
    verify(d, c, card)
    one_ = d.read("get_account", account_id=chk["account_id"])
    two = d.read("get_account", account_id=sav["account_id"])
    d.output(d.read("calculate", expression=f"{one_['available_balance']} + {two['available_balance']}"), "money")


def card_due(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        cc = one(c["customer_id"], "credit_card")
        if cc and cc["balance"] > 1300:  # a minimum payment above the $25 floor
            cands.append((c, cc))
    c, cc = b.pick(cands)
    card = card_for(cc) or any_card(c["customer_id"])
    d = b.task(
        "credit_card_payment_info", c, card,
        "You want to know three things about your credit card: how much you owe right now, the minimum payment due, and the "
        "due date. You do not want to pay now.",
        ["Can you tell me my credit card balance, minimum payment, and due date?", me(c, card, born=False), "Thanks, I'll pay online."],
    )
    verify(d, c, card)
    account = d.read("get_account", account_id=cc["account_id"])
    d.output(account["balance"], "money")
    d.output(account["minimum_payment_due"], "money")
    d.output(account["payment_due_date"], "date")


# ------------------------------------------------------------------------------------------
def lock_misplaced(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        chk = one(c["customer_id"], "checking")
        if good(c) and chk and card_for(chk):
            cands.append((c, chk))
    c, chk = b.pick(cands)
    card = card_for(chk)
    assert card is not None
    d = b.task(
        "lock_misplaced_debit_card", c, card,
        "You cannot find your debit card since this morning; it is probably in the car or at the office, so you only want "
        "it locked for now, not cancelled or replaced. You are sure nobody has used it.",
        ["Hi, I misplaced my debit card, can you lock it for now?", me(c, card, born=False),
         "Just lock it, I think I'll find it. Yes, go ahead."],
    )
    d.one_end_state("Rule 3.1: a misplaced card the customer expects to find is locked with reason misplaced, not replaced.")
    verify(d, c, card)
    d.read("list_cards", customer_id=c["customer_id"])
    d.write("lock_card", card_id=card["card_id"], reason="misplaced")


def unlock_found(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c):
            continue
        for card in D.cards_by_cus[c["customer_id"]]:
            if card["status"] == "locked" and card.get("lock_reason") == "misplaced":
                cands.append((c, card))
    c, card = b.pick(cands)
    d = b.task(
        "unlock_found_card", c, card,
        "You locked this card a while ago when you misplaced it. You found it under the car seat and want it unlocked so "
        "you can use it again today.",
        [f"I found my card ending {card['last4']}, please unlock it.", me(c, born=False), "Yes please unlock it."],
    )
    d.one_end_state("Rule 3.1: a locked (not lost or stolen) card is unlocked when the customer asks.")
    verify(d, c, card)
    d.read("list_cards", customer_id=c["customer_id"])
    d.write("unlock_card", card_id=card["card_id"])


def incorrect_amount(b: Builder, n: int, train_last: bool = False) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c):
            continue
        for a in accounts(c["customer_id"]):
            if a["type"] == "savings" or len(accounts(c["customer_id"], a["type"])) != 1:
                continue
            card = card_for(a)
            if not card:
                continue
            for t in recent_purchases(a, card):
                if 40 <= t["amount"] <= 1500 and unique_at_merchant(a, t) and t["category"] in ("dining", "home", "shopping", "electronics", "travel"):
                    cands.append((c, a, card, t))
    for i in range(n):
        c, a, card, t = b.pick(cands)
        correct = round(t["amount"] - round(t["amount"] * b.rng.choice([0.1, 0.2, 0.25]), 0), 2)
        d = b.task(
            f"dispute_incorrect_amount_{i + 1}", c, card,
            f"On {short(t['txn_date'])} {t['merchant']} charged your card {money(t['amount'])}, but your receipt says "
            f"{money(correct)}. You called the merchant and they would not fix it. You want to dispute the difference and to "
            f"know how much is being disputed. Confirm when the agent's summary is right.",
            [f"{t['merchant']} overcharged me, I want to dispute it.", me(c, card, born=False),
             f"They charged {money(t['amount'])} but the receipt says {money(correct)}. Yes, I called them already.",
             "Yes, file it.", "How much is being disputed?"],
            split="train" if train_last and i == n - 1 else "test",
        )
        d.one_end_state("Rule 4.4: an incorrect amount disputes only the overcharge (charged minus the receipt's amount), with provisional credit for a good standing (4.5).")
        verify(d, c, card)
        found = d.read("search_transactions", account_id=a["account_id"], merchant=t["merchant"])
        over = d.read("calculate", expression=f"{found['transactions'][0]['amount']} - {correct}")
        d.write("file_dispute", txn_id=t["txn_id"], reason="incorrect_amount", merchant_contacted=True,
                disputed_amount=float(over), provisional_credit=True)
        d.output(over, "money")


def canceled_recurring(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c):
            continue
        for a in accounts(c["customer_id"]):
            if a["type"] == "savings" or len(accounts(c["customer_id"], a["type"])) != 1:
                continue
            card = card_for(a)
            if card:
                for t in recent_purchases(a, card):
                    if t["category"] == "subscriptions" and unique_at_merchant(a, t):
                        cands.append((c, a, card, t))
    c, a, card, t = b.pick(cands)
    d = b.task(
        "dispute_canceled_subscription", c, card,
        f"You cancelled your {t['merchant']} subscription in February, but they still charged you {money(t['amount'])} on "
        f"{short(t['txn_date'])}. You emailed their support already. You want to dispute the charge. Ask whether you get "
        f"the money back right away; accept the answer.",
        [f"{t['merchant']} billed me after I cancelled, I want to dispute it.", me(c, card, born=False),
         "Yes, I emailed them already.", "Do I get the money back right away? OK, file it."],
    )
    d.one_end_state("Rules 4.4-4.5: billed after cancelling is canceled_recurring for the full amount, without provisional credit (not one of 4.5's reasons).")
    verify(d, c, card)
    d.read("search_transactions", account_id=a["account_id"], merchant=t["merchant"])
    d.write("file_dispute", txn_id=t["txn_id"], reason="canceled_recurring", merchant_contacted=True,
            disputed_amount=t["amount"], provisional_credit=False)


def not_received(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c):
            continue
        cc = one(c["customer_id"], "credit_card")
        card = card_for(cc) if cc else None
        if cc and card:
            for t in recent_purchases(cc, card):
                if t["category"] in ("shopping", "home") and 30 <= t["amount"] <= 2000 and unique_at_merchant(cc, t):
                    cands.append((c, cc, card, t))
    c, cc, card, t = b.pick(cands)
    d = b.task(
        "dispute_merchandise_not_received", c, card,
        f"You ordered something from {t['merchant']} on {short(t['txn_date'])} with your credit card and paid "
        f"{money(t['amount'])}, but it never arrived. You have not contacted the merchant (you do not trust them). You want "
        f"to dispute it.",
        [f"I never received an order from {t['merchant']}, I want to dispute the charge on my credit card.",
         me(c, card, born=False), "No, I haven't contacted them.", "Yes, please file it."],
    )
    d.one_end_state("Rules 4.4-4.5: never delivered is merchandise_not_received for the full amount, merchant not contacted as the customer says, without provisional credit.")
    verify(d, c, card)
    d.read("search_transactions", account_id=cc["account_id"], merchant=t["merchant"])
    d.write("file_dispute", txn_id=t["txn_id"], reason="merchandise_not_received", merchant_contacted=False,
            disputed_amount=t["amount"], provisional_credit=False)


def payee_ok(b: Builder, n: int, train_last: bool = False) -> None:
    cands = []
    for c in D.cus.values():
        if not good(c):
            continue
        chk = one(c["customer_id"], "checking")
        payees = [p for p in D.payees_by_cus[c["customer_id"]] if p["status"] == "active"]
        if chk and payees and available(chk) > 1200 and len({p["name"] for p in payees}) == len(payees) and today_payee_total(c["customer_id"]) == 0:
            cands.append((c, chk, payees[-1]))
    for i in range(n):
        c, chk, payee = b.pick(cands)
        card = any_card(c["customer_id"])
        amount = float(b.rng.choice([150, 275, 420, 600, 850]))
        purpose, why = [("bills", "a bill"), ("gift", "a birthday gift"), ("tuition", "a tuition installment")][i % 3]
        d = b.task(
            f"payee_transfer_{i + 1}", c, card,
            f"You want to send ${amount:,.2f} from your checking account to {payee['name']}, already saved as a payee; it is "
            f"{why}. You want it sent today.",
            [f"I'd like to send ${amount:.2f} to {payee['name']} from checking.", me(c, card, born=False), f"It's {why}. Yes, send it."],
            split="train" if train_last and i == n - 1 else "test",
        )
        d.one_end_state("Rules 5.3 and 5.7: the customer names the payee (names are unique among their payees), the amount within the daily limit and the purpose.")
        verify(d, c, card)
        d.read("list_payees", customer_id=c["customer_id"])
        d.write("transfer_to_payee", from_account_id=chk["account_id"], payee_id=payee["payee_id"], amount=amount, purpose=purpose)


def damaged_premier(b: Builder) -> None:
    cands = []
    for c in D.cus.values():
        if good(c) and c["tier"] == "premier":
            cc = one(c["customer_id"], "credit_card")
            if cc and card_for(cc):
                cands.append((c, cc))
    c, cc = b.pick(cands)
    card = card_for(cc)
    assert card is not None
    d = b.task(
        "damaged_credit_card_premier_expedited", c, card,
        "The magnetic strip and chip on your credit card stopped working. You travel next week and want a replacement by "
        "expedited delivery. Ask what it costs before agreeing.",
        ["My credit card stopped working, I need a replacement fast.", me(c, card, born=False),
         "Expedited please. What does it cost?", "Great, go ahead."],
        card_note=" (your credit card)",
    )
    d.one_end_state("Rules 3.3-3.4: the damaged credit card is replaced as damaged with expedited shipping, free for premier; the quote is told before.")
    verify(d, c, card)
    d.read("list_cards", customer_id=c["customer_id"])
    d.read("quote_card_replacement", card_id=card["card_id"], shipping="expedited")
    d.write("replace_card", card_id=card["card_id"], reason="damaged", shipping="expedited")


def remove_alert(b: Builder) -> None:
    cands = []
    for al in D.alerts.values():
        c = D.cus[al["customer_id"]]
        acct = D.acc[al["account_id"]]
        if good(c) and al["active"] and al["kind"] == "large_transaction" and sum(1 for x in D.alerts.values() if x["customer_id"] == c["customer_id"]) == 1:
            cands.append((c, al, acct))
    c, al, acct = b.pick(cands)
    card = any_card(c["customer_id"])
    kind = {"checking": "checking", "savings": "savings", "credit_card": "credit card"}[acct["type"]]
    d = b.task(
        "turn_off_large_transaction_alert", c, card,
        f"You get an alert on your {kind} account every time a transaction is over ${al['threshold']:,.0f} and it is "
        f"driving you crazy. You want that alert turned off. Nothing else.",
        [f"Please turn off the large transaction alert on my {kind}.", me(c, card, born=False), "Yes, turn it off."],
    )
    d.one_end_state("Rule 6.2: the customer's one alert is the large-transaction alert they name, and they want it off.")
    verify(d, c, card)
    d.read("list_alerts", customer_id=c["customer_id"])
    d.write("remove_alert", alert_id=al["alert_id"])


def build() -> TaskWriter:
    b = Builder()
    unauthorized(b, 3, "good", split_last=True)
    unauthorized(b, 1, "past_due")
    overdraft_fix(b, 3)
    premier_atm(b, 2)
    contact_alerts(b, 2, train_last=True)
    lost_card_payment(b, 2)
    maintenance_refunds(b, 2)
    duplicate_combo(b, 1)
    outside_window(b, 2, train_last=True)
    pending_dispute(b)
    already_disputed(b)
    big_dispute(b, 2)
    overdraft_recent_refund(b, 2)
    overdraft_too_old(b)
    restricted_requests(b)
    unlock_lost(b)
    atm_not_premier(b)
    payee_over_limit(b, 2)
    insufficient_funds(b)
    replacement_fee_waiver(b)
    past_due_payee(b)
    maintenance_short_tenure(b)
    takeover(b)
    merchant_spend(b, 2, train_last=True)
    total_available(b)
    card_due(b)
    lock_misplaced(b)
    unlock_found(b)
    incorrect_amount(b, 2, train_last=True)
    canceled_recurring(b)
    not_received(b)
    payee_ok(b, 2, train_last=True)
    damaged_premier(b)
    remove_alert(b)
    return b.writer


if __name__ == "__main__":
    path = build().save()
    print(f"wrote {path}")
