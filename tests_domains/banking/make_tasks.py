"""Builds fixtures/banking/tasks.json from the generated DB: hand-written templates per task
kind, concrete customers and records picked with a seeded RNG, figures computed here.

    python -m tests_domains.banking.make_tasks
"""

from __future__ import annotations

import json
import math
import random
from collections import defaultdict
from datetime import date
from pathlib import Path

FIXTURES = Path(__file__).parents[2] / "fixtures" / "banking"
TODAY = "2026-05-15"
DISPUTE_CUTOFF = "2026-03-16"  # posted on or after: within 60 days
FEE_CUTOFF = "2026-02-14"  # posted on or after: within 90 days
REFUND_YEAR_CUTOFF = "2025-05-15"  # last overdraft refund after this: not eligible
LIMIT = {"classic": 2500.0, "plus": 5000.0, "premier": 10000.0}
REPL_FEE = {"classic": 10.0, "plus": 0.0, "premier": 0.0}
SHIP_FEE = {"classic": 20.0, "plus": 20.0, "premier": 0.0}

DB = json.loads((FIXTURES / "db.json").read_text())
CUS, ACC, CARDS, TX = DB["customers"], DB["accounts"], DB["cards"], DB["transactions"]
for t in TX.values():
    t.setdefault("posted_date", None)
    t.setdefault("card_id", None)
    t.setdefault("fee_type", None)
    t.setdefault("refunded", False)
    t.setdefault("dispute_id", None)
for c in CUS.values():
    c.setdefault("last_overdraft_refund_date", None)
TX_BY_ACC: dict[str, list[dict]] = defaultdict(list)
for t in sorted(TX.values(), key=lambda t: t["txn_id"]):
    TX_BY_ACC[t["account_id"]].append(t)
CARDS_BY_CUS: dict[str, list[dict]] = defaultdict(list)
for c in sorted(CARDS.values(), key=lambda c: c["card_id"]):
    CARDS_BY_CUS[c["customer_id"]].append(c)
ALERTS = DB["alerts"]
PAYEES_BY_CUS: dict[str, list[dict]] = defaultdict(list)
for p in sorted(DB["payees"].values(), key=lambda p: p["payee_id"]):
    PAYEES_BY_CUS[p["customer_id"]].append(p)

rng = random.Random(20260515)
used: set[str] = set()
tasks: list[dict] = []
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]


def words(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


def short(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{MONTHS[d.month - 1]} {d.day}"


def money(x: float) -> str:
    return f"${x:,.2f}"


def accounts(cid: str, kind: str | None = None) -> list[dict]:
    return [ACC[a] for a in CUS[cid]["account_ids"] if kind is None or ACC[a]["type"] == kind]


def one(cid: str, kind: str) -> dict | None:
    found = accounts(cid, kind)
    return found[0] if len(found) == 1 else None


def card_for(account: dict, status: str = "active") -> dict | None:
    found = [c for c in CARDS_BY_CUS[account["customer_id"]] if c["account_id"] == account["account_id"] and c["status"] == status]
    return found[0] if len(found) == 1 else None


def any_card(cid: str) -> dict:
    live = [c for c in CARDS_BY_CUS[cid] if c["status"] in ("active", "locked")]
    return (live or CARDS_BY_CUS[cid])[0]


def available(account: dict) -> float:
    pending = sum(t["amount"] for t in TX_BY_ACC[account["account_id"]] if t["status"] == "pending" and t["direction"] == "debit")
    if account["type"] == "credit_card":
        return round(account["credit_limit"] - account["balance"] - pending, 2)
    return round(account["balance"] - pending, 2)


def alert_exists(account: dict, kind: str) -> bool:
    return f"ALR-{account['account_id'][3:]}-{kind.upper().replace('_', '')}" in ALERTS


def who(c: dict, card: dict) -> str:
    return (
        f"You are {c['first_name']} {c['last_name']}, born {words(c['date_of_birth'])}. The last four digits of your "
        f"{'debit' if card['kind'] == 'debit' else 'credit'} card are {card['last4']}."
    )


def auth(c: dict, card: dict) -> dict:
    return {"name": "find_customer", "arguments": {"first_name": c["first_name"], "last_name": c["last_name"],
                                                   "date_of_birth": c["date_of_birth"], "card_last4": card["last4"]}}


def acct_label(a: dict) -> str:
    return f"{a['product_name']} account ending in {a['account_number_last4']}"


def pick(cands: list, key=lambda x: x[0]["customer_id"]):
    cands = [x for x in cands if key(x) not in used]
    if not cands:
        raise SystemExit("no candidate left")
    choice = rng.choice(sorted(cands, key=key))
    used.add(key(choice))
    return choice


def add(task_id: str, instructions: str, script: list[str], gold: list[dict], outputs=(), required=(), forbidden=(), split="test"):
    tasks.append({
        "id": task_id, "split": split,
        "user": {"instructions": instructions, "script": script},
        "gold_actions": gold, "required_outputs": list(outputs),
        "required_actions": list(required), "forbidden_actions": list(forbidden),
    })


def calc(expr: str) -> tuple[dict, str]:
    value = eval(expr, {"__builtins__": {}})  # noqa: S307 - our own literal arithmetic, build time only
    return {"name": "calculate", "arguments": {"expression": expr}}, f"{value:.2f}"


def good(c: dict) -> bool:
    return c["standing"] == "good"


def recent_purchases(account: dict, card: dict) -> list[dict]:
    return [t for t in TX_BY_ACC[account["account_id"]] if t["kind"] == "purchase" and t["status"] == "posted"
            and t["posted_date"] >= DISPUTE_CUTOFF and t["dispute_id"] is None and t["card_id"] == card["card_id"]]


def unique_at_merchant(account: dict, t: dict) -> bool:
    return sum(1 for x in TX_BY_ACC[account["account_id"]] if x["merchant"] == t["merchant"]) == 1


PERSONAS = [
    "You are polite but a little rushed, calling on your lunch break.",
    "You are anxious and talk a lot; answer questions but add small irrelevant details.",
    "You are calm and precise, and you only answer exactly what is asked.",
    "You are friendly and chatty, and you thank the agent often.",
    "You are irritated about the situation, though not rude to the agent.",
    "You are elderly and careful; you ask the agent to repeat key numbers.",
]


def persona() -> str:
    return rng.choice(PERSONAS) + " Reveal information only when the agent asks for it."


# ------------------------------------------------------------------------------------------
def unauthorized(n: int, standing: str, split_last: bool = False) -> None:
    cands = []
    for c in CUS.values():
        if c["standing"] != standing:
            continue
        chk = one(c["customer_id"], "checking")
        if not chk:
            continue
        card = card_for(chk)
        if not card:
            continue
        recent = [t for t in recent_purchases(chk, card) if t["amount"] <= 2000 and unique_at_merchant(chk, t)]
        merchants = {t["merchant"] for t in recent}
        if len(recent) >= 2 and len(merchants) >= 2 and chk["balance"] > 60:
            cands.append((c, chk, card, recent))
    for i in range(n):
        c, chk, card, recent = pick(cands)
        t1 = recent[0]
        t2 = next(t for t in recent if t["merchant"] != t1["merchant"])
        ship = "expedited" if i % 2 == 1 else "standard"
        credit = standing == "good"
        gold = [auth(c, card),
                {"name": "search_transactions", "arguments": {"account_id": chk["account_id"], "start_date": min(t1["txn_date"], t2["txn_date"])}}]
        for t in (t1, t2):
            gold.append({"name": "file_dispute", "arguments": {"txn_id": t["txn_id"], "reason": "unauthorized", "merchant_contacted": False,
                                                               "disputed_amount": t["amount"], "provisional_credit": credit}})
        gold.append({"name": "replace_card", "arguments": {"card_id": card["card_id"], "reason": "stolen", "shipping": ship}})
        outputs = []
        if credit:
            call, total = calc(f"{t1['amount']} + {t2['amount']}")
            gold.append(call)
            outputs.append(total)
        fee = REPL_FEE[c["tier"]] + (SHIP_FEE[c["tier"]] if ship == "expedited" else 0)
        if fee:
            outputs.append(f"{fee:.2f}")
        ask_total = "Ask how much will be credited back to you right away, in total." if credit else "Ask whether you get the money back right away."
        ship_line = ("You need the new card fast: ask for expedited delivery" if ship == "expedited"
                     else "Standard delivery is fine; you do not want to pay for faster shipping")
        instr = (f"{who(c, card)} {persona()} Going through your checking account online you found two debit card charges you "
                 f"did not make: {money(t1['amount'])} at {t1['merchant']} on {short(t1['txn_date'])} and {money(t2['amount'])} at "
                 f"{t2['merchant']} on {short(t2['txn_date'])}. You still have the card in your wallet, so someone must have "
                 f"copied the number. You have not contacted either merchant. You want both charges disputed and a new card. "
                 f"{ship_line}. {ask_total} Confirm the agent's plan when it matches what you want.")
        script = [f"Hi, there are two charges on my checking account that I definitely didn't make.",
                  f"{c['first_name']} {c['last_name']}, born {words(c['date_of_birth'])}, card ending {card['last4']}.",
                  f"{money(t1['amount'])} at {t1['merchant']} and {money(t2['amount'])} at {t2['merchant']}. No, I haven't called them.",
                  "Yes, please go ahead with all of that."]
        split = "train" if split_last and i == n - 1 else "test"
        add(f"unauthorized_charges_{standing}_{i + 1}", instr, script, gold, outputs, split=split)


def overdraft_fix(n: int) -> None:
    cands = []
    for c in CUS.values():
        if not good(c) or (c["last_overdraft_refund_date"] or "") > REFUND_YEAR_CUTOFF:
            continue
        chk, sav = one(c["customer_id"], "checking"), one(c["customer_id"], "savings")
        if not chk or not sav or chk["balance"] >= 0:
            continue
        fees = [t for t in TX_BY_ACC[chk["account_id"]] if t["fee_type"] == "overdraft" and not t["refunded"] and t["posted_date"] >= FEE_CUTOFF]
        need = math.ceil((-chk["balance"] + 100) / 50) * 50
        if len(fees) == 1 and available(sav) >= need + 100 and not any(t["status"] == "pending" for t in TX_BY_ACC[chk["account_id"]]):
            cands.append((c, chk, sav, fees[0], need))
    for i in range(n):
        c, chk, sav, fee, need = pick(cands)
        card = any_card(c["customer_id"])
        threshold = [100.0, 150.0, 200.0][i % 3]
        channel = ["sms", "email", "push"][i % 3]
        new_balance = round(chk["balance"] + need + fee["amount"], 2)
        gold = [auth(c, card),
                {"name": "get_account", "arguments": {"account_id": chk["account_id"]}},
                {"name": "search_transactions", "arguments": {"account_id": chk["account_id"], "kind": "fee"}},
                {"name": "transfer_between_accounts", "arguments": {"from_account_id": sav["account_id"], "to_account_id": chk["account_id"], "amount": float(need), "purpose": "bills"}},
                {"name": "refund_fee", "arguments": {"txn_id": fee["txn_id"]}},
                {"name": "set_alert", "arguments": {"account_id": chk["account_id"], "kind": "low_balance", "channel": channel, "threshold": threshold}}]
        instr = (f"{who(c, card)} {persona()} Your checking account went negative and you were charged a {money(fee['amount'])} "
                 f"overdraft fee on {short(fee['txn_date'])}. You want three things: (1) move ${need:,} from your savings "
                 f"into checking so it is positive again (if asked what it is for, say it is to cover your bills); (2) get that overdraft fee "
                 f"refunded - you have never had an overdraft refund in the past year; (3) a low-balance alert on checking at "
                 f"${threshold:,.0f} sent by {channel if channel != 'sms' else 'text message (SMS)'}"
                 f"{' notification in the app' if channel == 'push' else ''}. Ask what your checking balance is once everything is done.")
        script = ["Hello, I got hit with an overdraft fee and I'd like to sort out my checking account.",
                  f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
                  f"Move ${need} from savings to checking - it's for my bills. Then refund the overdraft fee, and set a low balance alert at ${threshold:.0f} by {channel}.",
                  "Yes, go ahead.", "What's my checking balance now?"]
        add(f"overdraft_cover_refund_alert_{i + 1}", instr, script, gold, [f"{new_balance:.2f}"])


def premier_atm(n: int) -> None:
    cands = []
    for c in CUS.values():
        if not good(c) or c["tier"] != "premier":
            continue
        chk = one(c["customer_id"], "checking")
        if not chk or alert_exists(chk, "large_transaction"):
            continue
        fees = [t for t in TX_BY_ACC[chk["account_id"]] if t["fee_type"] == "foreign_atm" and not t["refunded"]]
        ok = [t for t in fees if t["posted_date"] >= FEE_CUTOFF]
        old = [t for t in fees if t["posted_date"] < FEE_CUTOFF]
        if len(ok) == 1 and len(old) == 1:
            cands.append((c, chk, ok[0], old[0]))
    for i in range(n):
        c, chk, fee, old = pick(cands)
        card = any_card(c["customer_id"])
        phone = f"+1-503-{rng.randint(200, 989)}-{rng.randint(1000, 9999)}"
        gold = [auth(c, card), {"name": "search_transactions", "arguments": {"account_id": chk["account_id"], "kind": "fee"}},
                {"name": "refund_fee", "arguments": {"txn_id": fee["txn_id"]}},
                {"name": "set_alert", "arguments": {"account_id": chk["account_id"], "kind": "large_transaction", "channel": "push", "threshold": 750.0}},
                {"name": "update_contact_info", "arguments": {"customer_id": c["customer_id"], "phone": phone}}]
        instr = (f"{who(c, card)} {persona()} You are a Premier client and you used other banks' ATMs twice this year. You were told "
                 f"Premier clients get those ATM fees back, so you want both non-Larkspur ATM fees on your checking account refunded. "
                 f"If the agent can only refund one of them, ask what date the other one posted, and accept. While on the phone you "
                 f"also want a push notification for any checking transaction of $750 or more, and your phone number changed to {phone}.")
        script = ["Hi, I'd like my out-of-network ATM fees refunded please, both of them.",
                  f"{c['first_name']} {c['last_name']}, born {words(c['date_of_birth'])}, card ending {card['last4']}.",
                  "Only one? When did the other one post?",
                  f"Fine. Also set a push alert for any transaction of $750 or more on checking, and my new phone number is {phone}.",
                  "Yes, please do all that."]
        add(f"premier_atm_fee_refund_{i + 1}", instr, script, gold, [f"{fee['amount']:.2f}", old["posted_date"]])


def contact_alerts(n: int, train_last: bool = False) -> None:
    cands = []
    for c in CUS.values():
        if not good(c):
            continue
        chk, cc = one(c["customer_id"], "checking"), one(c["customer_id"], "credit_card")
        if chk and cc and not alert_exists(chk, "low_balance") and not alert_exists(cc, "payment_due"):
            cands.append((c, chk, cc))
    for i in range(n):
        c, chk, cc = pick(cands)
        card = any_card(c["customer_id"])
        new_email = f"{c['first_name'].lower()}{c['last_name'].lower().replace(chr(39), '')}.home@icloud.com"
        threshold = [250.0, 75.0][i % 2]
        gold = [auth(c, card),
                {"name": "update_contact_info", "arguments": {"customer_id": c["customer_id"], "email": new_email}},
                {"name": "set_alert", "arguments": {"account_id": chk["account_id"], "kind": "low_balance", "channel": "email", "threshold": threshold}},
                {"name": "set_alert", "arguments": {"account_id": cc["account_id"], "kind": "payment_due", "channel": "sms"}}]
        instr = (f"{who(c, card)} {persona()} You changed email providers: your new address is {new_email} and you want the bank "
                 f"to use it. Then you want two alerts: an email when your checking balance drops below ${threshold:,.0f}, and a "
                 f"text message (SMS) reminder when your credit card payment is coming due. You do not want to change anything else.")
        script = ["Hi, I need to update my email and set up a couple of alerts.",
                  f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
                  f"New email is {new_email}. Low balance on checking at ${threshold:.0f} by email, and a payment due reminder by text for my credit card.",
                  "Yes, that's right."]
        add(f"email_and_alerts_{i + 1}", instr, script, gold, split="train" if train_last and i == n - 1 else "test")


def lost_card_payment(n: int) -> None:
    cands = []
    for c in CUS.values():
        if not good(c) or c["tier"] == "premier":
            continue
        chk, cc = one(c["customer_id"], "checking"), one(c["customer_id"], "credit_card")
        if not chk or not cc or alert_exists(cc, "payment_due"):
            continue
        card = card_for(chk)
        if card and cc["balance"] >= 300 and available(chk) >= 600:
            cands.append((c, chk, cc, card))
    for i in range(n):
        c, chk, cc, card = pick(cands)
        fee = REPL_FEE[c["tier"]] + SHIP_FEE[c["tier"]]
        pay = float(min(int(cc["balance"] // 50) * 50, int((available(chk) - fee - 50) // 50) * 50, 1500))
        gold = [auth(c, card), {"name": "list_cards", "arguments": {"customer_id": c["customer_id"]}},
                {"name": "replace_card", "arguments": {"card_id": card["card_id"], "reason": "lost", "shipping": "expedited"}},
                {"name": "get_account", "arguments": {"account_id": cc["account_id"]}},
                {"name": "transfer_between_accounts", "arguments": {"from_account_id": chk["account_id"], "to_account_id": cc["account_id"], "amount": pay, "purpose": "card_payment"}},
                {"name": "set_alert", "arguments": {"account_id": cc["account_id"], "kind": "payment_due", "channel": "email"}}]
        instr = (f"{who(c, card)} (that is your debit card) {persona()} You lost your debit card yesterday, probably at the gym; you "
                 f"do not think anyone used it. You want it cancelled and a new one sent by the fastest delivery available, and you "
                 f"want to know what that costs in total. While on the phone you also want to pay ${pay:,.0f} from checking toward "
                 f"your credit card, and set an email reminder for credit card payment due dates so this month does not slip.")
        script = ["Hi, I lost my debit card and need a new one.",
                  f"{c['first_name']} {c['last_name']}, born {words(c['date_of_birth'])}, the lost card ended in {card['last4']}.",
                  "Fastest shipping please. What will that cost me?", "OK, go ahead.",
                  f"Also pay ${pay:.0f} from checking to my credit card, and email me payment due reminders.", "Yes, confirmed."]
        add(f"lost_debit_card_and_card_payment_{i + 1}", instr, script, gold, [f"{fee:.2f}"])


def maintenance_refunds(n: int) -> None:
    cands = []
    for c in CUS.values():
        if not good(c) or c["member_since"] > "2021-05-15":
            continue
        chk = one(c["customer_id"], "checking")
        if not chk:
            continue
        fees = [t for t in TX_BY_ACC[chk["account_id"]] if t["fee_type"] == "monthly_maintenance" and not t["refunded"]]
        if len(fees) == 3:
            cands.append((c, chk, fees))
    for i in range(n):
        c, chk, fees = pick(cands)
        card = any_card(c["customer_id"])
        gold = [auth(c, card), {"name": "search_transactions", "arguments": {"account_id": chk["account_id"], "kind": "fee"}}]
        gold += [{"name": "refund_fee", "arguments": {"txn_id": t["txn_id"]}} for t in fees]
        call, total = calc(" + ".join(str(t["amount"]) for t in fees))
        gold.append(call)
        instr = (f"{who(c, card)} {persona()} You have banked with Larkspur since {c['member_since'][:4]} and you just noticed "
                 f"you have been paying a monthly maintenance fee on your checking account since March. You want all of those "
                 f"maintenance fees refunded and you want to know the total you will get back. You are not asking about any other fee.")
        script = ["Hello, I've been charged monthly maintenance fees and I'd like them refunded.",
                  f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
                  "Yes, all the maintenance fees on checking.", "Yes please.", "So how much in total?"]
        add(f"maintenance_fee_refunds_{i + 1}", instr, script, gold, [total])


def duplicate_combo(n: int) -> None:
    cands = []
    for c in CUS.values():
        if not good(c):
            continue
        chk = one(c["customer_id"], "checking")
        if not chk or alert_exists(chk, "large_transaction"):
            continue
        card = card_for(chk)
        if not card:
            continue
        recent = recent_purchases(chk, card)
        for a in recent:
            for b in recent:
                if a["txn_id"] < b["txn_id"] and (a["merchant"], a["amount"], a["txn_date"]) == (b["merchant"], b["amount"], b["txn_date"]):
                    if sum(1 for x in TX_BY_ACC[chk["account_id"]] if x["merchant"] == a["merchant"]) == 2:
                        cands.append((c, chk, card, a, b))
    for i in range(n):
        c, chk, card, a, b = pick(cands)
        phone = f"+1-541-{rng.randint(200, 989)}-{rng.randint(1000, 9999)}"
        gold = [auth(c, card),
                {"name": "search_transactions", "arguments": {"account_id": chk["account_id"], "merchant": a["merchant"]}},
                {"name": "file_dispute", "arguments": {"txn_id": b["txn_id"], "reason": "duplicate_charge", "merchant_contacted": True, "disputed_amount": b["amount"], "provisional_credit": True}},
                {"name": "set_alert", "arguments": {"account_id": chk["account_id"], "kind": "large_transaction", "channel": "sms", "threshold": 300.0}},
                {"name": "update_contact_info", "arguments": {"customer_id": c["customer_id"], "phone": phone}}]
        instr = (f"{who(c, card)} {persona()} {a['merchant']} charged your debit card {money(a['amount'])} twice on "
                 f"{short(a['txn_date'])} for a single purchase. You already called the store and they told you to contact your "
                 f"bank. You want the extra charge disputed. Since your phone number changed to {phone}, you also want it updated, "
                 f"and you want a text-message alert for any checking transaction of $300 or more.")
        script = [f"Hi, {a['merchant']} charged me twice for the same thing.",
                  f"{c['first_name']} {c['last_name']}, born {words(c['date_of_birth'])}, card {card['last4']}.",
                  "Yes, I called the store already. Please dispute the duplicate.",
                  f"Also my new phone number is {phone}, and I'd like a text alert for checking transactions of $300 or more.",
                  "Yes, go ahead with all of it."]
        add(f"duplicate_charge_phone_alert_{i + 1}", instr, script, gold)


# ------------------------------------------------------------------------------------------
def outside_window(n: int, train_last: bool = False) -> None:
    cands = []
    for c in CUS.values():
        if not good(c):
            continue
        for a in accounts(c["customer_id"]):
            if a["type"] == "savings":
                continue
            for t in TX_BY_ACC[a["account_id"]]:
                if t["kind"] == "purchase" and t["status"] == "posted" and t["posted_date"] <= "2026-03-08" and t["dispute_id"] is None \
                        and unique_at_merchant(a, t) and len(accounts(c["customer_id"], a["type"])) == 1:
                    cands.append((c, a, t))
    for i in range(n):
        c, a, t = pick(cands)
        card = CARDS[t["card_id"]]
        gold = [auth(c, any_card(c["customer_id"])),
                {"name": "search_transactions", "arguments": {"account_id": a["account_id"], "merchant": t["merchant"]}}]
        kind = "credit card" if a["type"] == "credit_card" else "debit card"
        instr = (f"{who(c, any_card(c['customer_id']))} {persona()} Back on {short(t['txn_date'])} you paid {money(t['amount'])} at "
                 f"{t['merchant']} with your {kind} (ending {card['last4']}) for an order that never arrived. You want to dispute it. You "
                 f"have emailed the merchant twice with no answer. If the agent refuses, ask exactly when the charge posted, accept the "
                 f"explanation and end the call; do not ask for anything else.")
        script = [f"I want to dispute a {t['merchant']} charge, the order never showed up.",
                  f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {any_card(c['customer_id'])['last4']}.",
                  f"It was {money(t['amount'])}, back in {MONTHS[int(t['txn_date'][5:7]) - 1]}.", "When exactly did it post?"]
        add(f"dispute_outside_window_{i + 1}", instr, script, gold, [t["posted_date"]],
            forbidden=[{"name": "file_dispute", "arguments": {"txn_id": t["txn_id"]}}], split="train" if train_last and i == n - 1 else "test")


def pending_dispute() -> None:
    cands = []
    for c in CUS.values():
        chk = one(c["customer_id"], "checking")
        if good(c) and chk:
            for t in TX_BY_ACC[chk["account_id"]]:
                if t["kind"] == "purchase" and t["status"] == "pending" and unique_at_merchant(chk, t):
                    cands.append((c, chk, t))
    c, chk, t = pick(cands)
    card = any_card(c["customer_id"])
    gold = [auth(c, card), {"name": "search_transactions", "arguments": {"account_id": chk["account_id"], "merchant": t["merchant"]}}]
    instr = (f"{who(c, card)} {persona()} You see a {money(t['amount'])} charge from {t['merchant']} dated {short(t['txn_date'])} on "
             f"your checking account and you think the amount is wrong: it should have been {money(round(t['amount'] * 0.8, 2))}. You "
             f"want to dispute it today. If the agent says it cannot be disputed yet, ask why, accept and end the call.")
    script = [f"There's a {t['merchant']} charge on my checking that's the wrong amount, I want to dispute it.",
              f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.", "Why can't you dispute it?"]
    add("dispute_pending_charge", instr, script, gold, ["pending"], forbidden=[{"name": "file_dispute", "arguments": {"txn_id": t["txn_id"]}}])


def already_disputed() -> None:
    cands = []
    for d in DB["disputes"].values():
        c = CUS[d["customer_id"]]
        t = TX[d["txn_id"]]
        a = ACC[t["account_id"]]
        if good(c) and d["status"] == "open" and unique_at_merchant(a, t) and len(accounts(c["customer_id"], a["type"])) == 1:
            cands.append((c, a, t, d))
    c, a, t, d = pick(cands)
    card = any_card(c["customer_id"])
    gold = [auth(c, card), {"name": "list_disputes", "arguments": {"customer_id": c["customer_id"]}}]
    instr = (f"{who(c, card)} {persona()} A while ago you disputed a {money(t['amount'])} charge from {t['merchant']}, but you "
             f"are not sure the dispute went through, so you want to file it again to be safe. If the agent tells you one already "
             f"exists, ask for its reference number and status, and do not file anything new.")
    script = [f"I want to dispute a {t['merchant']} charge of {money(t['amount'])}. I might have done it before, but I'm not sure it went through.",
              f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.", "What's the reference number?"]
    add("dispute_already_filed", instr, script, gold, [d["dispute_id"]], forbidden=[{"name": "file_dispute", "arguments": {"txn_id": t["txn_id"]}}])


def big_dispute(n: int) -> None:
    cands = []
    for c in CUS.values():
        if not good(c):
            continue
        for a in accounts(c["customer_id"]):
            if a["type"] == "savings" or len(accounts(c["customer_id"], a["type"])) != 1:
                continue
            for t in TX_BY_ACC[a["account_id"]]:
                if t["kind"] == "purchase" and t["status"] == "posted" and t["posted_date"] >= DISPUTE_CUTOFF and t["amount"] > 2000 \
                        and t["dispute_id"] is None and unique_at_merchant(a, t):
                    cands.append((c, a, t))
    for i in range(n):
        c, a, t = pick(cands)
        card = any_card(c["customer_id"])
        gold = [auth(c, card), {"name": "search_transactions", "arguments": {"account_id": a["account_id"], "merchant": t["merchant"]}},
                {"name": "transfer_to_human_agents", "arguments": {"summary": f"Customer wants to dispute {t['merchant']} charge of {t['amount']:.2f} (merchandise not received), over the 2,000 limit for phone disputes."}}]
        instr = (f"{who(c, card)} {persona()} On {short(t['txn_date'])} you paid {money(t['amount'])} to {t['merchant']} with your "
                 f"{'credit' if a['type'] == 'credit_card' else 'debit'} card for an order that was never delivered. The merchant stopped "
                 f"answering your emails. You want the full amount disputed. If the agent says someone else must handle it, agree to be transferred.")
        script = [f"I paid {t['merchant']} {money(t['amount'])} and never got anything. I need to dispute it.",
                  f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.", "Yes, I emailed them, they stopped answering.", "OK, transfer me."]
        add(f"dispute_over_phone_limit_{i + 1}", instr, script, gold, required=[{"name": "transfer_to_human_agents"}],
            forbidden=[{"name": "file_dispute", "arguments": {"txn_id": t["txn_id"]}}])


def overdraft_recent_refund(n: int) -> None:
    cands = []
    for c in CUS.values():
        if not good(c) or (c["last_overdraft_refund_date"] or "") <= REFUND_YEAR_CUTOFF:
            continue
        chk = one(c["customer_id"], "checking")
        if not chk or chk["balance"] < 0:
            continue
        fees = [t for t in TX_BY_ACC[chk["account_id"]] if t["fee_type"] == "overdraft" and not t["refunded"] and t["posted_date"] >= FEE_CUTOFF]
        if len(fees) == 1:
            cands.append((c, chk, fees[0]))
    for i in range(n):
        c, chk, fee = pick(cands)
        card = any_card(c["customer_id"])
        gold = [auth(c, card), {"name": "search_transactions", "arguments": {"account_id": chk["account_id"], "kind": "fee"}}]
        instr = (f"{who(c, card)} {persona()} You were charged an overdraft fee of {money(fee['amount'])} on {short(fee['txn_date'])} and "
                 f"you want it refunded; your paycheck was just one day late. If the agent refuses, ask when your last overdraft refund "
                 f"was, insist once that you are a loyal customer, then accept the answer and end the call.")
        script = ["I'd like an overdraft fee refunded please.", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
                  "When was my last refund then?", "I've been a loyal customer for years, can't you make an exception?"]
        add(f"overdraft_refund_too_soon_{i + 1}", instr, script, gold, [c["last_overdraft_refund_date"]],
            forbidden=[{"name": "refund_fee", "arguments": {"txn_id": fee["txn_id"]}}])


def overdraft_too_old() -> None:
    cands = []
    for c in CUS.values():
        if not good(c) or (c["last_overdraft_refund_date"] or "") > REFUND_YEAR_CUTOFF:
            continue
        chk = one(c["customer_id"], "checking")
        if not chk or chk["balance"] < 0:
            continue
        fees = [t for t in TX_BY_ACC[chk["account_id"]] if t["fee_type"] == "overdraft" and not t["refunded"]]
        if len(fees) == 1 and fees[0]["posted_date"] < "2026-02-05":
            cands.append((c, chk, fees[0]))
    c, chk, fee = pick(cands)
    card = any_card(c["customer_id"])
    gold = [auth(c, card), {"name": "search_transactions", "arguments": {"account_id": chk["account_id"], "kind": "fee"}}]
    instr = (f"{who(c, card)} {persona()} Going over your statements you found an overdraft fee from {MONTHS[int(fee['txn_date'][5:7]) - 1]} "
             f"that you think was unfair, and you want it refunded. You do not remember the exact day; ask the agent what date it posted. "
             f"If refused, accept and end the call.")
    script = ["Hi, I want a refund of an old overdraft fee.", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
              "What date did that fee post?"]
    add("overdraft_refund_too_old", instr, script, gold, [fee["posted_date"]], forbidden=[{"name": "refund_fee", "arguments": {"txn_id": fee["txn_id"]}}])


def restricted_requests() -> None:
    cands = []
    for c in CUS.values():
        if c["standing"] == "restricted":
            chk = one(c["customer_id"], "checking")
            if chk and card_for(chk):
                cands.append((c, chk))
    c, chk = pick(cands)
    card = card_for(chk)
    gold = [auth(c, card), {"name": "transfer_to_human_agents", "arguments": {"summary": "Restricted customer asks to lock a misplaced debit card."}}]
    instr = (f"{who(c, card)} {persona()} You cannot find your debit card; it is probably somewhere at home, so you only want it "
             f"locked for now, not cancelled. Accept a transfer to another agent if offered.")
    script = ["Hi, I can't find my debit card, can you lock it for now?", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.", "OK, transfer me."]
    add("restricted_customer_lock_card", instr, script, gold, required=[{"name": "transfer_to_human_agents"}], forbidden=[{"name": "lock_card"}])

    cands = []
    for c in CUS.values():
        if c["standing"] == "restricted":
            chk, sav = one(c["customer_id"], "checking"), one(c["customer_id"], "savings")
            if chk and sav and available(sav) > 500:
                cands.append((c, chk, sav))
    c, chk, sav = pick(cands)
    card = any_card(c["customer_id"])
    gold = [auth(c, card), {"name": "get_account", "arguments": {"account_id": sav["account_id"]}},
            {"name": "transfer_to_human_agents", "arguments": {"summary": "Restricted customer asks to move 400 from savings to checking."}}]
    instr = (f"{who(c, card)} {persona()} First ask how much is available in your savings account. Then you want to move $400 from "
             f"savings to checking to pay bills. If the agent says it cannot make changes, ask to speak to someone who can.")
    script = ["Hi, how much do I have available in savings?", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
              "OK, please move $400 of it to checking, it's for bills.", "Then put me through to someone who can."]
    add("restricted_customer_transfer", instr, script, gold, [f"{available(sav):.2f}"], required=[{"name": "transfer_to_human_agents"}],
        forbidden=[{"name": "transfer_between_accounts"}])


def unlock_lost() -> None:
    cands = []
    for c in CUS.values():
        if not good(c):
            continue
        for card in CARDS_BY_CUS[c["customer_id"]]:
            new = CARDS.get(card.get("replaced_by_card_id") or "")
            if card["status"] == "lost_stolen" and new and new["status"] == "active":
                cands.append((c, card, new))
    c, old, new = pick(cands)
    gold = [auth(c, old), {"name": "list_cards", "arguments": {"customer_id": c["customer_id"]}}]
    instr = (f"{who(c, old)} {persona()} A while ago you reported this card lost, but you just found it in a coat pocket and you "
             f"would like to use it again, so you want it unlocked. If the agent refuses, ask which card you should use instead "
             f"(you want its last four digits), then end the call.")
    script = [f"Hi, I found my old card ending {old['last4']} that I reported lost. Can you turn it back on?",
              f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}.", "Then which card should I be using?"]
    add("unlock_reported_lost_card", instr, script, gold, [new["last4"]], forbidden=[{"name": "unlock_card", "arguments": {"card_id": old["card_id"]}}])


def atm_not_premier() -> None:
    cands = []
    for c in CUS.values():
        if not good(c) or c["tier"] == "premier":
            continue
        chk = one(c["customer_id"], "checking")
        if not chk:
            continue
        fees = [t for t in TX_BY_ACC[chk["account_id"]] if t["fee_type"] == "foreign_atm" and not t["refunded"]]
        if len(fees) >= 2 and all(t["posted_date"] >= FEE_CUTOFF for t in fees):
            cands.append((c, chk, fees))
    c, chk, fees = pick(cands)
    card = any_card(c["customer_id"])
    call, total = calc(" + ".join(str(t["amount"]) for t in fees))
    gold = [auth(c, card), {"name": "search_transactions", "arguments": {"account_id": chk["account_id"], "kind": "fee"}}, call]
    instr = (f"{who(c, card)} {persona()} You used other banks' ATMs a few times recently. First you want to know how much you paid "
             f"in Larkspur's non-network ATM fees on checking in total, then you want them all refunded. If refused, accept and end.")
    script = ["How much have I paid in ATM fees lately? And I want them refunded.", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
              "Can you refund them?"]
    add("atm_fee_refund_not_premier", instr, script, gold, [total], forbidden=[{"name": "refund_fee"}])


def payee_over_limit(n: int) -> None:
    cands = []
    for c in CUS.values():
        if not good(c):
            continue
        chk = one(c["customer_id"], "checking")
        payees = [p for p in PAYEES_BY_CUS[c["customer_id"]] if p["status"] == "active"]
        names = [p["name"] for p in payees]
        if not chk or len(payees) != 1 or len(set(names)) != len(names):
            continue
        used_today = sum(t["amount"] for t in DB["transfers"].values() if t["customer_id"] == c["customer_id"] and t.get("payee_id") and t["date"] == TODAY)
        remaining = LIMIT[c["tier"]] - used_today
        if available(chk) >= remaining + 600 and remaining > 0:
            cands.append((c, chk, payees[0], used_today, remaining))
    for i in range(n):
        c, chk, payee, used_today, remaining = pick(cands)
        card = any_card(c["customer_id"])
        ask = float(math.ceil((remaining + 400) / 100) * 100)
        purpose = ["rent", "loan_repayment"][i % 2]
        gold = [auth(c, card), {"name": "list_payees", "arguments": {"customer_id": c["customer_id"]}},
                {"name": "get_transfer_limits", "arguments": {"customer_id": c["customer_id"]}},
                {"name": "transfer_to_payee", "arguments": {"from_account_id": chk["account_id"], "payee_id": payee["payee_id"], "amount": remaining, "purpose": purpose}}]
        why = "this month's rent" if purpose == "rent" else "paying back a loan"
        instr = (f"{who(c, card)} {persona()} You want to send ${ask:,.0f} from your checking account to {payee['name']} "
                 f"(already saved as a payee) - it is for {why}. If the agent says that is over your daily limit, ask how much you can "
                 f"still send today and send exactly that amount now instead; you will handle the rest another way. Do not ask to split it across days.")
        script = [f"I need to send ${ask:.0f} to {payee['name']} from checking.", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
                  f"It's for {why}.", "How much can I send today then?", "Fine, send that amount now."]
        add(f"payee_transfer_over_daily_limit_{i + 1}", instr, script, gold, [f"{remaining:.2f}"],
            forbidden=[{"name": "transfer_to_payee", "arguments": {"amount": ask}}])


def insufficient_funds() -> None:
    cands = []
    for c in CUS.values():
        chk, sav = one(c["customer_id"], "checking"), one(c["customer_id"], "savings")
        if good(c) and chk and sav and 300 < available(chk) < 3000:
            cands.append((c, chk, sav))
    c, chk, sav = pick(cands)
    card = any_card(c["customer_id"])
    ask = float(math.ceil((available(chk) + 500) / 500) * 500)
    gold = [auth(c, card), {"name": "get_account", "arguments": {"account_id": chk["account_id"]}}]
    instr = (f"{who(c, card)} {persona()} You want to move ${ask:,.0f} from checking into savings to start an emergency fund. If the "
             f"agent says you do not have enough, ask exactly how much is available in checking, say you will think about it and end "
             f"the call without moving anything.")
    script = [f"Please move ${ask:.0f} from my checking to my savings.", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
              "How much is available then?", "OK, I'll think about it. Bye."]
    add("transfer_insufficient_funds", instr, script, gold, [f"{available(chk):.2f}"],
        forbidden=[{"name": "transfer_between_accounts", "arguments": {"amount": ask}}])


def replacement_fee_waiver() -> None:
    cands = []
    for c in CUS.values():
        if good(c) and c["tier"] == "classic":
            chk = one(c["customer_id"], "checking")
            if chk and card_for(chk) and available(chk) > 100:
                cands.append((c, chk))
    c, chk = pick(cands)
    card = card_for(chk)
    new_id = f"CRD{int(card['card_id'][3:]) + 500_000:07d}"
    gold = [auth(c, card), {"name": "list_cards", "arguments": {"customer_id": c["customer_id"]}},
            {"name": "replace_card", "arguments": {"card_id": card["card_id"], "reason": "damaged", "shipping": "standard"}}]
    instr = (f"{who(c, card)} {persona()} Your debit card's chip cracked and it no longer works at terminals. You want a replacement "
             f"with normal shipping. Once it is ordered, ask for the replacement fee to be waived or refunded since the card broke "
             f"on its own; insist once, then accept the answer.")
    script = ["My debit card is cracked and stopped working, I need a new one.", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
              "Standard shipping is fine. Yes, order it.", "Can you refund that replacement fee? The card broke on its own.", "Really? Not even once?"]
    add("damaged_card_fee_not_waived", instr, script, gold, ["10.00"],
        forbidden=[{"name": "refund_fee", "arguments": {"txn_id": f"FEE-{new_id}-REPL"}}])


def past_due_payee() -> None:
    cands = []
    for c in CUS.values():
        if c["standing"] != "past_due":
            continue
        chk, cc = one(c["customer_id"], "checking"), one(c["customer_id"], "credit_card")
        payees = [p for p in PAYEES_BY_CUS[c["customer_id"]] if p["status"] == "active"]
        if chk and cc and payees and cc["balance"] >= 200 and available(chk) >= 400:
            cands.append((c, chk, cc, payees[0]))
    c, chk, cc, payee = pick(cands)
    card = any_card(c["customer_id"])
    pay = float(min(int(cc["balance"] // 100) * 100, int(available(chk) // 200) * 100, 800))
    gold = [auth(c, card), {"name": "list_payees", "arguments": {"customer_id": c["customer_id"]}},
            {"name": "transfer_between_accounts", "arguments": {"from_account_id": chk["account_id"], "to_account_id": cc["account_id"], "amount": pay, "purpose": "card_payment"}}]
    instr = (f"{who(c, card)} {persona()} You want to send $250 from checking to {payee['name']}, one of your saved payees, as a gift. "
             f"If the agent says you cannot send to payees right now, accept it, and instead pay ${pay:,.0f} from checking toward your "
             f"own credit card, which you know is behind.")
    script = [f"I want to send $250 to {payee['name']} from checking, it's a gift.", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
              f"OK. Then pay ${pay:.0f} from checking to my credit card instead.", "Yes, confirm."]
    add("past_due_payee_blocked_pays_card", instr, script, gold, forbidden=[{"name": "transfer_to_payee"}])


def maintenance_short_tenure() -> None:
    cands = []
    for c in CUS.values():
        if not good(c) or c["member_since"] <= "2022-06-01":
            continue
        chk = one(c["customer_id"], "checking")
        if chk and any(t["fee_type"] == "monthly_maintenance" and not t["refunded"] for t in TX_BY_ACC[chk["account_id"]]):
            cands.append((c, chk))
    c, chk = pick(cands)
    card = any_card(c["customer_id"])
    gold = [auth(c, card), {"name": "search_transactions", "arguments": {"account_id": chk["account_id"], "kind": "fee"}}]
    instr = (f"{who(c, card)} {persona()} You are annoyed about the monthly maintenance fee on your checking and want this month's "
             f"refunded. If the agent says you are not eligible, ask what date the bank has as the start of your membership, then end the call.")
    script = ["I want my monthly maintenance fee refunded.", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
              "What date do you have me as a member since?"]
    add("maintenance_refund_short_tenure", instr, script, gold, [c["member_since"]], forbidden=[{"name": "refund_fee"}])


def takeover() -> None:
    cands = []
    for t in DB["transfers"].values():
        c = CUS[t["customer_id"]]
        if t.get("payee_id") and t["date"] >= "2026-05-01" and good(c):
            cands.append((c, t))
    c, t = pick(cands)
    card = any_card(c["customer_id"])
    payee = DB["payees"][t["payee_id"]]
    gold = [auth(c, card), {"name": "list_payees", "arguments": {"customer_id": c["customer_id"]}},
            {"name": "transfer_to_human_agents", "arguments": {"summary": f"Customer did not authorize the {t['amount']:.2f} transfer to payee {payee['name']} on {t['date']}; possible account takeover."}}]
    instr = (f"{who(c, card)} {persona()} You just noticed a transfer of ${t['amount']:,.2f} on {short(t['date'])} from your account to "
             f"{payee['name']}. You did not make it and you are worried someone got into your online banking. You want it reversed or "
             f"disputed. Accept a transfer to a specialist.")
    script = [f"There's a ${t['amount']:.2f} transfer to {payee['name']} that I never made!", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
              "Please, someone needs to look at this now.", "Yes, transfer me."]
    add("unauthorized_transfer_takeover", instr, script, gold, required=[{"name": "transfer_to_human_agents"}], forbidden=[{"name": "file_dispute"}])


# ------------------------------------------------------------------------------------------
def merchant_spend(n: int, train_last: bool = False) -> None:
    cands = []
    for c in CUS.values():
        for a in accounts(c["customer_id"]):
            if a["type"] == "savings" or len(accounts(c["customer_id"], a["type"])) != 1:
                continue
            by_m = defaultdict(list)
            for t in TX_BY_ACC[a["account_id"]]:
                if t["kind"] == "purchase":
                    by_m[t["merchant"]].append(t)
            for m, ts in by_m.items():
                if len(ts) >= 2:
                    cands.append((c, a, m, ts))
    for i in range(n):
        c, a, m, ts = pick(cands)
        card = any_card(c["customer_id"])
        call, total = calc(" + ".join(str(t["amount"]) for t in ts))
        gold = [auth(c, card), {"name": "search_transactions", "arguments": {"account_id": a["account_id"], "merchant": m}}, call]
        kind = "credit card" if a["type"] == "credit_card" else "checking account"
        instr = (f"{who(c, card)} {persona()} You are doing your budget and want to know how much you have spent in total at {m} "
                 f"on your {kind} since December 2025, pending charges included. You only want the total; you do not want any change.")
        script = [f"How much have I spent at {m} on my {kind} since December?", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.", "Thanks, that's all."]
        add(f"merchant_spend_total_{i + 1}", instr, script, gold, [total], split="train" if train_last and i == n - 1 else "test")


def total_available() -> None:
    cands = []
    for c in CUS.values():
        chk, sav = one(c["customer_id"], "checking"), one(c["customer_id"], "savings")
        if chk and sav and chk["balance"] > 0:
            cands.append((c, chk, sav))
    c, chk, sav = pick(cands)
    card = any_card(c["customer_id"])
    call, total = calc(f"{available(chk)} + {available(sav)}")
    gold = [auth(c, card), {"name": "get_account", "arguments": {"account_id": chk["account_id"]}},
            {"name": "get_account", "arguments": {"account_id": sav["account_id"]}}, call]
    instr = (f"{who(c, card)} {persona()} You are about to put down a deposit on a car and want to know how much money you have "
             f"available right now across your checking and savings accounts combined (one number). You do not want to move money.")
    script = ["How much do I have available across checking and savings together?", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.", "Great, thanks."]
    add("combined_available_balance", instr, script, gold, [total])


def card_due() -> None:
    cands = []
    for c in CUS.values():
        cc = one(c["customer_id"], "credit_card")
        if cc and cc["balance"] > 100:
            cands.append((c, cc))
    c, cc = pick(cands)
    card = card_for(cc) or any_card(c["customer_id"])
    gold = [auth(c, card), {"name": "get_account", "arguments": {"account_id": cc["account_id"]}}]
    instr = (f"{who(c, card)} {persona()} You want to know three things about your credit card: how much you owe right now, the "
             f"minimum payment due, and the due date. You do not want to pay now.")
    script = ["Can you tell me my credit card balance, minimum payment, and due date?", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.", "Thanks, I'll pay online."]
    add("credit_card_payment_info", instr, script, gold, [f"{cc['balance']:.2f}", f"{cc['minimum_payment_due']:.2f}", cc["payment_due_date"]])


# ------------------------------------------------------------------------------------------
def lock_misplaced() -> None:
    cands = []
    for c in CUS.values():
        chk = one(c["customer_id"], "checking")
        if good(c) and chk and card_for(chk):
            cands.append((c, chk))
    c, chk = pick(cands)
    card = card_for(chk)
    gold = [auth(c, card), {"name": "list_cards", "arguments": {"customer_id": c["customer_id"]}},
            {"name": "lock_card", "arguments": {"card_id": card["card_id"], "reason": "misplaced"}}]
    instr = (f"{who(c, card)} {persona()} You cannot find your debit card since this morning; it is probably in the car or at the "
             f"office, so you only want it locked for now, not cancelled or replaced. You are sure nobody has used it.")
    script = ["Hi, I misplaced my debit card, can you lock it for now?", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
              "Just lock it, I think I'll find it. Yes, go ahead."]
    add("lock_misplaced_debit_card", instr, script, gold)


def unlock_found() -> None:
    cands = []
    for c in CUS.values():
        if not good(c):
            continue
        for card in CARDS_BY_CUS[c["customer_id"]]:
            if card["status"] == "locked" and card.get("lock_reason") == "misplaced":
                cands.append((c, card))
    c, card = pick(cands)
    gold = [auth(c, card), {"name": "list_cards", "arguments": {"customer_id": c["customer_id"]}},
            {"name": "unlock_card", "arguments": {"card_id": card["card_id"]}}]
    instr = (f"{who(c, card)} {persona()} You locked this card a while ago when you misplaced it. You found it under the car seat "
             f"and want it unlocked so you can use it again today.")
    script = [f"I found my card ending {card['last4']}, please unlock it.", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}.", "Yes please unlock it."]
    add("unlock_found_card", instr, script, gold)


def incorrect_amount(n: int, train_last: bool = False) -> None:
    cands = []
    for c in CUS.values():
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
        c, a, card, t = pick(cands)
        correct = round(t["amount"] - round(t["amount"] * rng.choice([0.1, 0.2, 0.25]), 0), 2)
        call, over = calc(f"{t['amount']} - {correct}")
        gold = [auth(c, card), {"name": "search_transactions", "arguments": {"account_id": a["account_id"], "merchant": t["merchant"]}}, call,
                {"name": "file_dispute", "arguments": {"txn_id": t["txn_id"], "reason": "incorrect_amount", "merchant_contacted": True,
                                                       "disputed_amount": float(over), "provisional_credit": True}}]
        instr = (f"{who(c, card)} {persona()} On {short(t['txn_date'])} {t['merchant']} charged your card {money(t['amount'])}, but your "
                 f"receipt says {money(correct)}. You called the merchant and they would not fix it. You want to dispute the difference "
                 f"and to know how much is being disputed. Confirm when the agent's summary is right.")
        script = [f"{t['merchant']} overcharged me, I want to dispute it.", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
                  f"They charged {money(t['amount'])} but the receipt says {money(correct)}. Yes, I called them already.", "Yes, file it.", "How much is being disputed?"]
        add(f"dispute_incorrect_amount_{i + 1}", instr, script, gold, [over], split="train" if train_last and i == n - 1 else "test")


def canceled_recurring() -> None:
    cands = []
    for c in CUS.values():
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
    c, a, card, t = pick(cands)
    gold = [auth(c, card), {"name": "search_transactions", "arguments": {"account_id": a["account_id"], "merchant": t["merchant"]}},
            {"name": "file_dispute", "arguments": {"txn_id": t["txn_id"], "reason": "canceled_recurring", "merchant_contacted": True,
                                                   "disputed_amount": t["amount"], "provisional_credit": False}}]
    instr = (f"{who(c, card)} {persona()} You cancelled your {t['merchant']} subscription in February, but they still charged you "
             f"{money(t['amount'])} on {short(t['txn_date'])}. You emailed their support already. You want to dispute the charge. Ask "
             f"whether you get the money back right away; accept the answer.")
    script = [f"{t['merchant']} billed me after I cancelled, I want to dispute it.", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
              "Yes, I emailed them already.", "Do I get the money back right away? OK, file it."]
    add("dispute_canceled_subscription", instr, script, gold)


def not_received() -> None:
    cands = []
    for c in CUS.values():
        if not good(c):
            continue
        cc = one(c["customer_id"], "credit_card")
        if cc and card_for(cc):
            card = card_for(cc)
            for t in recent_purchases(cc, card):
                if t["category"] in ("shopping", "home") and 30 <= t["amount"] <= 2000 and unique_at_merchant(cc, t):
                    cands.append((c, cc, card, t))
    c, cc, card, t = pick(cands)
    gold = [auth(c, card), {"name": "search_transactions", "arguments": {"account_id": cc["account_id"], "merchant": t["merchant"]}},
            {"name": "file_dispute", "arguments": {"txn_id": t["txn_id"], "reason": "merchandise_not_received", "merchant_contacted": False,
                                                   "disputed_amount": t["amount"], "provisional_credit": False}}]
    instr = (f"{who(c, card)} {persona()} You ordered something from {t['merchant']} on {short(t['txn_date'])} with your credit card and "
             f"paid {money(t['amount'])}, but it never arrived. You have not contacted the merchant (you do not trust them). You want to dispute it.")
    script = [f"I never received an order from {t['merchant']}, I want to dispute the charge on my credit card.",
              f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.", "No, I haven't contacted them.", "Yes, please file it."]
    add("dispute_merchandise_not_received", instr, script, gold)


def payee_ok(n: int, train_last: bool = False) -> None:
    cands = []
    for c in CUS.values():
        if not good(c):
            continue
        chk = one(c["customer_id"], "checking")
        payees = [p for p in PAYEES_BY_CUS[c["customer_id"]] if p["status"] == "active"]
        if chk and len(payees) >= 1 and available(chk) > 1200 and len({p["name"] for p in payees}) == len(payees):
            used_today = sum(t["amount"] for t in DB["transfers"].values() if t["customer_id"] == c["customer_id"] and t.get("payee_id") and t["date"] == TODAY)
            if used_today == 0:
                cands.append((c, chk, payees[-1]))
    for i in range(n):
        c, chk, payee = pick(cands)
        card = any_card(c["customer_id"])
        amount = float(rng.choice([150, 275, 420, 600, 850]))
        purpose, why = [("bills", "a bill"), ("gift", "a birthday gift"), ("tuition", "a tuition installment")][i % 3]
        gold = [auth(c, card), {"name": "list_payees", "arguments": {"customer_id": c["customer_id"]}},
                {"name": "transfer_to_payee", "arguments": {"from_account_id": chk["account_id"], "payee_id": payee["payee_id"], "amount": amount, "purpose": purpose}}]
        instr = (f"{who(c, card)} {persona()} You want to send ${amount:,.2f} from your checking account to {payee['name']}, already saved "
                 f"as a payee; it is {why}. You want it sent today.")
        script = [f"I'd like to send ${amount:.2f} to {payee['name']} from checking.", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
                  f"It's {why}. Yes, send it."]
        add(f"payee_transfer_{i + 1}", instr, script, gold, split="train" if train_last and i == n - 1 else "test")


def damaged_premier() -> None:
    cands = []
    for c in CUS.values():
        if good(c) and c["tier"] == "premier":
            cc = one(c["customer_id"], "credit_card")
            if cc and card_for(cc):
                cands.append((c, cc))
    c, cc = pick(cands)
    card = card_for(cc)
    gold = [auth(c, card), {"name": "list_cards", "arguments": {"customer_id": c["customer_id"]}},
            {"name": "replace_card", "arguments": {"card_id": card["card_id"], "reason": "damaged", "shipping": "expedited"}}]
    instr = (f"{who(c, card)} (your credit card) {persona()} The magnetic strip and chip on your credit card stopped working. You travel "
             f"next week and want a replacement by expedited delivery. Ask what it costs before agreeing.")
    script = ["My credit card stopped working, I need a replacement fast.", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.",
              "Expedited please. What does it cost?", "Great, go ahead."]
    add("damaged_credit_card_premier_expedited", instr, script, gold)


def remove_alert() -> None:
    cands = []
    for al in ALERTS.values():
        c = CUS[al["customer_id"]]
        acct = ACC[al["account_id"]]
        if good(c) and al["active"] and al["kind"] == "large_transaction" and sum(1 for x in ALERTS.values() if x["customer_id"] == c["customer_id"]) == 1:
            cands.append((c, al, acct))
    c, al, acct = pick(cands)
    card = any_card(c["customer_id"])
    gold = [auth(c, card), {"name": "list_alerts", "arguments": {"customer_id": c["customer_id"]}},
            {"name": "remove_alert", "arguments": {"alert_id": al["alert_id"]}}]
    kind = {"checking": "checking", "savings": "savings", "credit_card": "credit card"}[acct["type"]]
    instr = (f"{who(c, card)} {persona()} You get an alert on your {kind} account every time a transaction is over ${al['threshold']:,.0f} "
             f"and it is driving you crazy. You want that alert turned off. Nothing else.")
    script = [f"Please turn off the large transaction alert on my {kind}.", f"{c['first_name']} {c['last_name']}, {words(c['date_of_birth'])}, card {card['last4']}.", "Yes, turn it off."]
    add("turn_off_large_transaction_alert", instr, script, gold)


def main() -> None:
    unauthorized(3, "good", split_last=True)
    unauthorized(1, "past_due")
    overdraft_fix(3)
    premier_atm(2)
    contact_alerts(2, train_last=True)
    lost_card_payment(2)
    maintenance_refunds(2)
    duplicate_combo(1)
    outside_window(2, train_last=True)
    pending_dispute()
    already_disputed()
    big_dispute(2)
    overdraft_recent_refund(2)
    overdraft_too_old()
    restricted_requests()
    unlock_lost()
    atm_not_premier()
    payee_over_limit(2)
    insufficient_funds()
    replacement_fee_waiver()
    past_due_payee()
    maintenance_short_tenure()
    takeover()
    merchant_spend(2, train_last=True)
    total_available()
    card_due()
    lock_misplaced()
    unlock_found()
    incorrect_amount(2, train_last=True)
    canceled_recurring()
    not_received()
    payee_ok(2, train_last=True)
    damaged_premier()
    remove_alert()
    out = FIXTURES / "tasks.json"
    out.write_text(json.dumps({"tasks": tasks}, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(tasks)} tasks to {out}")


if __name__ == "__main__":
    main()
