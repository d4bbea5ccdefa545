"""Seeded generator for the Larkspur Savings Bank support-line DB.

    python -m tests_domains.banking.generate            # writes fixtures/banking/db.json
    python -m tests_domains.banking.generate --scale 10 --out /tmp/banking10.json
"""

from __future__ import annotations

import argparse
import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from pytest_tau.invariants import dialable_exchange, half_up
from tests_domains.banking.domain import CREDITED_REASONS, RECURRING, SHIPPED_OR_BOOKED
from tests_domains.banking.schema import BankDB

SEED = 5150
TODAY = date(2026, 5, 15)
HISTORY_START = date(2025, 12, 1)
Rec = dict[str, Any]
OUT = Path(__file__).parents[2] / "fixtures" / "banking" / "db.json"

FIRST = [
    "Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "Mateo", "Isabella", "Lucas", "Mia", "Levi",
    "Amelia", "Asher", "Harper", "James", "Evelyn", "Leo", "Abigail", "Ezra", "Emily", "Luca", "Ella", "Hudson",
    "Scarlett", "Ethan", "Grace", "Owen", "Chloe", "Caleb", "Priya", "Arjun", "Mei", "Hiroshi", "Fatima", "Omar",
    "Sofia", "Diego", "Aaliyah", "Malik", "Nadia", "Tomasz", "Ingrid", "Kofi", "Yara", "Rafael", "Leilani", "Dmitri",
    "Camila", "Theo", "Rosa", "Samuel", "Hannah", "Julian", "Naomi", "Victor", "Clara", "Marcus", "Irene", "Felix",
]
LAST = [
    "Okafor", "Lindqvist", "Ramirez", "Chen", "Patel", "Nguyen", "Kowalski", "O'Brien", "Haddad", "Moreau",
    "Tanaka", "Schmidt", "Alvarez", "Johansson", "Mensah", "Rossi", "Kim", "Dubois", "Novak", "Fischer", "Garcia",
    "Sato", "Brennan", "Castillo", "Whitfield", "Abernathy", "Delgado", "Ferreira", "Gallagher", "Holloway",
    "Iverson", "Jablonski", "Kaur", "Larsen", "Mahoney", "Nakamura", "Ortega", "Pruitt", "Quintero", "Rasmussen",
    "Sandoval", "Thornton", "Underwood", "Vasquez", "Whitaker", "Yamamoto", "Zielinski", "Bishop", "Crowley",
    "Donovan", "Ellison", "Fontaine", "Greer", "Hargrove", "Ibarra", "Jensen", "Keller", "Lozano", "Mercer", "Nash",
]
STREETS = [
    "Maple Ave", "Harbor St", "Cedar Ln", "Willow Dr", "Lakeview Rd", "Birch Ct", "Summit Blvd", "Orchard Way",
    "Prospect St", "Juniper Pl", "Ridgeline Dr", "Meadow Ln", "Canal St", "Foundry Rd", "Granite Ave", "Elm St",
]
CITIES = [
    ("Portland", "OR", "972"), ("Tacoma", "WA", "984"), ("Boise", "ID", "837"), ("Spokane", "WA", "992"),
    ("Eugene", "OR", "974"), ("Salem", "OR", "973"), ("Bend", "OR", "977"), ("Olympia", "WA", "985"),
    ("Bellingham", "WA", "982"), ("Missoula", "MT", "598"), ("Reno", "NV", "895"), ("Sacramento", "CA", "958"),
]
MERCHANTS = [
    ("Fred Meyer", "groceries", 18, 160), ("Safeway", "groceries", 12, 140), ("Whole Foods Market", "groceries", 15, 190),
    ("Trader Joe's", "groceries", 10, 95), ("Costco Wholesale", "groceries", 40, 320), ("Shell", "fuel", 25, 80),
    ("Chevron", "fuel", 25, 85), ("Powell's Books", "shopping", 9, 75), ("REI Co-op", "shopping", 30, 260),
    ("Target", "shopping", 12, 180), ("Amazon Marketplace", "shopping", 8, 220), ("Best Buy", "electronics", 25, 900),
    ("Apple Store", "electronics", 29, 2600), ("Pacific Jewelers", "jewelry", 240, 4200),
    ("Northwest Furniture Gallery", "home", 300, 3600), ("Stumptown Coffee", "dining", 4, 22), ("Olive Garden", "dining", 28, 110),
    ("Chipotle", "dining", 9, 35), ("Blue Star Donuts", "dining", 3, 18), ("Netflix", "subscriptions", 15.49, 22.99),
    ("Spotify", "subscriptions", 11.99, 16.99), ("Planet Fitness", "subscriptions", 10, 25),
    ("Comcast Xfinity", "utilities", 60, 140), ("PGE Electric", "utilities", 45, 220), ("Alaska Airlines", "travel", 120, 780),
    ("Marriott Hotels", "travel", 140, 620), ("Uber", "transport", 8, 55), ("Lyft", "transport", 8, 50),
    ("Walgreens", "pharmacy", 6, 85), ("CVS Pharmacy", "pharmacy", 6, 70), ("Home Depot", "home", 15, 480),
    ("IKEA", "home", 25, 650), ("Petco", "pets", 12, 140), ("Etsy", "shopping", 10, 120),
]
PAYEE_PEOPLE = ["Rent - ", "Dr. ", ""]
PAYEE_COMPANIES = [
    "Greenfield Property Management", "Cascade Auto Finance", "Riverbend Dental", "Pacific Power Co-op",
    "Sunrise Daycare", "Northwest Tuition Services", "Evergreen HOA", "Columbia Insurance Group",
]
OTHER_BANKS = ["Chase", "Wells Fargo", "US Bank", "BECU", "OnPoint Community CU", "Umpqua Bank", "Bank of America"]

FEES = {"overdraft": 33.0, "monthly_maintenance": 12.0, "foreign_atm": 3.5}
PRODUCTS = {
    ("checking", "classic"): "Everyday Checking",
    ("checking", "plus"): "Plus Checking",
    ("checking", "premier"): "Premier Checking",
    ("savings", "classic"): "Basic Savings",
    ("savings", "plus"): "Plus Savings",
    ("savings", "premier"): "Premier Money Market",
    ("credit_card", "classic"): "Larkspur Cash Back Visa",
    ("credit_card", "plus"): "Larkspur Rewards Visa",
    ("credit_card", "premier"): "Larkspur Summit Mastercard",
}


def _d(value: date) -> str:
    return value.isoformat()


def _fitting_reason(drawn: str, category: str) -> str:
    """The drawn reason, or the nearest one that the merchant's category allows."""
    if drawn == "canceled_recurring" and category not in RECURRING:
        return "merchandise_not_received" if category in SHIPPED_OR_BOOKED else "incorrect_amount"
    if drawn == "merchandise_not_received" and category not in SHIPPED_OR_BOOKED:
        return "canceled_recurring" if category in RECURRING else "incorrect_amount"
    return drawn


def _expiry(issued: date, rng: random.Random | None = None) -> str:
    """MM/YY five years from the month a card was issued, as replace_card sets it (cards carry 3 to 5 years,
    never a date unrelated to their issue). `rng` draws the two numbers the old random expiry drew, so that
    every later record stays as it was."""
    if rng is not None:
        rng.randint(1, 12), rng.randint(27, 30)
    return f"{issued.month:02d}/{(issued.year + 5) % 100:02d}"


def _money(rng: random.Random, low: float, high: float) -> float:
    return round(rng.uniform(low, high), 2)


def generate(seed: int = SEED, scale: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    db: dict[str, dict[str, Any]] = {t: {} for t in ("customers", "accounts", "cards", "transactions", "disputes", "payees", "transfers", "alerts")}
    used_names: set[tuple[str, str]] = set()
    used_last4: set[str] = set()
    counters = {"acct": 0, "card": 0, "txn": 0, "payee": 0, "transfer": 0}

    def new_last4() -> str:
        while True:
            value = f"{rng.randint(0, 9999):04d}"
            if value not in used_last4:
                used_last4.add(value)
                return value

    def add_txn(account: Rec, **fields: Any) -> Rec:
        counters["txn"] += 1
        txn_id = f"TX{counters['txn'] + 4_100_000:07d}"
        txn: Rec = {
            "txn_id": txn_id,
            "account_id": account["account_id"],
            "card_id": None,
            "posted_date": None,
            "fee_type": None,
            "refunded": False,
            "dispute_id": None,
            **fields,
        }
        if txn["status"] == "posted" and txn["posted_date"] is None:
            posted = date.fromisoformat(txn["txn_date"]) + timedelta(days=rng.choice([0, 1, 1, 2]))
            txn["posted_date"] = _d(min(posted, TODAY))
        db["transactions"][txn_id] = txn
        return txn

    def random_day(start: date = HISTORY_START, end: date = TODAY) -> date:
        return start + timedelta(days=rng.randint(0, (end - start).days))

    def status_for(day: date) -> str:
        return "pending" if day >= TODAY - timedelta(days=2) and rng.random() < 0.7 else "posted"

    def purchases(account: Rec, card: Rec, count: int) -> None:
        for _ in range(count):
            name, category, low, high = rng.choice(MERCHANTS)
            day = random_day()
            amount = _money(rng, low, high)
            add_txn(
                account, card_id=card["card_id"], txn_date=_d(day), status=status_for(day), direction="debit",
                amount=amount, kind="purchase", merchant=name, category=category,
                description=f"{name.upper()} #{rng.randint(100, 9999)} CARD {card['last4']}",
            )
            if rng.random() < 0.03:  # the merchant ran the charge twice
                add_txn(
                    account, card_id=card["card_id"], txn_date=_d(day), status=status_for(day), direction="debit",
                    amount=amount, kind="purchase", merchant=name, category=category,
                    description=f"{name.upper()} #{rng.randint(100, 9999)} CARD {card['last4']}",
                )

    n_customers = 420 * scale
    for index in range(n_customers):
        while True:
            first, last = rng.choice(FIRST), rng.choice(LAST)
            if (first, last) not in used_names or scale > 1:
                break
        used_names.add((first, last))
        customer_id = f"CUS{100_000 + index * 7 + rng.randint(0, 6):06d}"
        while customer_id in db["customers"]:
            customer_id = f"CUS{int(customer_id[3:]) + 1:06d}"
        tier = rng.choices(["classic", "plus", "premier"], weights=[55, 30, 15])[0]
        standing = rng.choices(["good", "past_due", "restricted"], weights=[88, 7, 5])[0]
        city, state, zip3 = rng.choice(CITIES)
        member_since = date(2006, 1, 1) + timedelta(days=rng.randint(0, (date(2026, 3, 1) - date(2006, 1, 1)).days))
        dob = date(1948, 1, 1) + timedelta(days=rng.randint(0, (date(2005, 12, 31) - date(1948, 1, 1)).days))
        refund = None
        if rng.random() < 0.18:
            refund = _d(date(2024, 11, 1) + timedelta(days=rng.randint(0, (TODAY - date(2024, 11, 1)).days - 20)))
        handle = f"{first}.{last}".lower().replace("'", "")
        customer: Rec = {
            "customer_id": customer_id,
            "first_name": first,
            "last_name": last,
            "date_of_birth": _d(dob),
            "email": f"{handle}{rng.randint(1, 99)}@{rng.choice(['gmail.com', 'outlook.com', 'proton.me', 'yahoo.com', 'fastmail.com'])}",
            "phone": f"+1-{rng.choice(['503', '206', '208', '509', '541', '360', '406', '775', '916'])}-{dialable_exchange(rng.randint(200, 989))}-{rng.randint(0, 9999):04d}",
            "address": {
                "street": f"{rng.randint(12, 9890)} {rng.choice(STREETS)}",
                "city": city,
                "state": state,
                "zip": f"{zip3}{rng.randint(1, 99):02d}",
            },
            "tier": tier,
            "standing": standing,
            "member_since": _d(member_since),
            "last_overdraft_refund_date": refund,
            "account_ids": [],
        }
        db["customers"][customer_id] = customer

        kinds = ["checking"]
        if rng.random() < 0.62:
            kinds.append("savings")
        if rng.random() < 0.10:
            kinds.append("checking")
        if rng.random() < 0.48:
            kinds.append("credit_card")
        own_accounts = []
        for kind in kinds:
            counters["acct"] += 1
            account_id = f"ACC{20_000_000 + counters['acct'] * 13 + rng.randint(0, 12):08d}"
            opened = max(member_since, member_since + timedelta(days=rng.randint(0, 900)))
            opened = min(opened, TODAY - timedelta(days=40))
            account: Rec = {
                "account_id": account_id,
                "customer_id": customer_id,
                "type": kind,
                "product_name": PRODUCTS[(kind, tier)],
                "account_number_last4": f"{rng.randint(0, 9999):04d}",
                "status": "open",
                "opened_date": _d(opened),
                "balance": 0.0,
                "credit_limit": None,
                "payment_due_date": None,
                "minimum_payment_due": None,
            }
            if kind == "checking":
                account["balance"] = _money(rng, 40, 9000) if rng.random() > 0.07 else -_money(rng, 5, 260)
            elif kind == "savings":
                account["balance"] = _money(rng, 150, 60000)
            else:
                limit = rng.choice([1500, 3000, 5000, 8000, 12000, 20000])
                account["credit_limit"] = float(limit)
                account["balance"] = _money(rng, 0, limit * 0.7)
                account["payment_due_date"] = _d(date(2026, 6, rng.choice([3, 8, 12, 18, 24])))
                account["minimum_payment_due"] = round(min(account["balance"], max(25.0, account["balance"] * 0.02)), 2)
            db["accounts"][account_id] = account
            customer["account_ids"].append(account_id)
            own_accounts.append(account)

            if kind in ("checking", "credit_card"):
                counters["card"] += 1
                card_id = f"CRD{700_000 + counters['card'] * 3 + rng.randint(0, 2):06d}"
                issued = max(opened, TODAY - timedelta(days=rng.randint(60, 1300)))
                card: Rec = {
                    "card_id": card_id,
                    "customer_id": customer_id,
                    "account_id": account_id,
                    "kind": "debit" if kind == "checking" else "credit",
                    "network": "Mastercard" if (kind == "credit_card" and tier == "premier") else "Visa",
                    "last4": new_last4(),
                    "expiry": _expiry(issued, rng),
                    "status": rng.choices(["active", "locked"], weights=[94, 6])[0],
                    "issued_date": _d(issued),
                    "lock_reason": None,
                    "replaces_card_id": None,
                    "replaced_by_card_id": None,
                    "shipping": None,
                }
                if card["status"] == "locked":
                    card["lock_reason"] = rng.choice(["misplaced", "customer_request", "travel"])
                db["cards"][card_id] = card
                if rng.random() < 0.05:  # an earlier card that was reported lost and replaced
                    counters["card"] += 1
                    old_id = f"CRD{700_000 + counters['card'] * 3 + rng.randint(0, 2):06d}"
                    db["cards"][old_id] = {
                        **card,
                        "card_id": old_id,
                        "last4": new_last4(),
                        "status": "lost_stolen",
                        "issued_date": _d(date.fromisoformat(card["issued_date"]) - timedelta(days=700)),
                        "expiry": _expiry(date.fromisoformat(card["issued_date"]) - timedelta(days=700)),
                        "lock_reason": "reported lost",
                        "replaced_by_card_id": card_id,
                    }
                    card["replaces_card_id"] = old_id
                    card["shipping"] = rng.choice(["standard", "expedited"])

                if kind == "checking":
                    purchases(account, card, rng.randint(2, 4))
                    for _ in (1,):
                        day = random_day()
                        add_txn(account, txn_date=_d(day), status="posted", direction="credit",
                                amount=_money(rng, 600, 4200), kind="deposit", merchant="Direct Deposit",
                                category="income", description=f"PAYROLL {rng.choice(['ACME CORP', 'STATE OF OR', 'PROVIDENCE HEALTH', 'INTEL', 'NIKE INC', 'CITY OF BOISE'])}")
                    if account["balance"] < 0 or rng.random() < 0.12:
                        for _ in range(rng.choice([1, 1, 2])):
                            day = random_day()
                            add_txn(account, txn_date=_d(day), status="posted", direction="debit",
                                    amount=FEES["overdraft"], kind="fee", merchant="Larkspur Savings Bank",
                                    category="fees", description="OVERDRAFT ITEM FEE", fee_type="overdraft")
                    if tier == "classic" and rng.random() < 0.35:
                        for month in (3, 4, 5):
                            day = date(2026, month, 1)
                            add_txn(account, txn_date=_d(day), status="posted", posted_date=_d(day), direction="debit",
                                    amount=FEES["monthly_maintenance"], kind="fee", merchant="Larkspur Savings Bank",
                                    category="fees", description="MONTHLY MAINTENANCE FEE", fee_type="monthly_maintenance")
                    if rng.random() < 0.22:
                        for _ in range(rng.randint(1, 4)):
                            day = random_day()
                            atm = rng.choice(["CHASE ATM", "WELLS FARGO ATM", "7-ELEVEN ATM", "US BANK ATM"])
                            add_txn(account, txn_date=_d(day), status="posted", direction="debit",
                                    amount=float(rng.choice([40, 60, 80, 100, 200])), kind="atm_withdrawal",
                                    merchant=atm.title(), category="cash", description=f"{atm} WITHDRAWAL CARD {card['last4']}",
                                    card_id=card["card_id"])
                            txn = add_txn(account, txn_date=_d(day), status="posted", direction="debit",
                                          amount=FEES["foreign_atm"], kind="fee", merchant="Larkspur Savings Bank",
                                          category="fees", description=f"NON-LARKSPUR ATM FEE {atm}", fee_type="foreign_atm")
                            if rng.random() < 0.1:
                                txn["refunded"] = True
                else:
                    purchases(account, card, rng.randint(2, 5))
                    day = random_day(date(2026, 3, 1))
                    add_txn(account, txn_date=_d(day), status="posted", direction="credit",
                            amount=_money(rng, 50, 900), kind="payment", merchant="Payment - Thank You",
                            category="payment", description="ONLINE PAYMENT THANK YOU")
            else:  # savings
                for month in (4,):
                    day = date(2026, month, 28)
                    add_txn(account, txn_date=_d(day), status="posted", posted_date=_d(day), direction="credit",
                            amount=round(account["balance"] * rng.choice([0.0004, 0.0011, 0.0032]), 2) or 0.01,
                            kind="interest", merchant="Larkspur Savings Bank", category="interest",
                            description="INTEREST PAYMENT")

        # saved payees
        my_payees = []
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            counters["payee"] += 1
            payee_id = f"PAY{30_000 + counters['payee']:05d}"
            if rng.random() < 0.5:
                name = rng.choice(PAYEE_COMPANIES)
                nickname = name.split()[0]
            else:
                p_first, p_last = rng.choice(FIRST), rng.choice(LAST)
                name = f"{p_first} {p_last}"
                nickname = p_first
            db["payees"][payee_id] = {
                "payee_id": payee_id,
                "customer_id": customer_id,
                "name": name,
                "bank_name": rng.choice(OTHER_BANKS),
                "account_last4": f"{rng.randint(0, 9999):04d}",
                "nickname": nickname,
                "added_date": _d(random_day(date(2022, 1, 1), TODAY - timedelta(days=5))),
                "status": rng.choices(["active", "inactive"], weights=[88, 12])[0],
            }
            if db["payees"][payee_id]["status"] == "active":
                my_payees.append(db["payees"][payee_id])

        # transfer history
        deposit_accts = [a for a in own_accounts if a["type"] != "credit_card"]
        for _ in range(rng.randint(0, 2)):
            src = rng.choice(deposit_accts)
            targets = [a for a in own_accounts if a is not src]
            day = random_day(date(2026, 2, 1))
            if rng.random() < 0.15:
                day = TODAY
            to_payee = bool(my_payees) and (not targets or rng.random() < 0.5)
            if not to_payee and not targets:
                continue
            amount = float(rng.choice([50, 100, 150, 200, 250, 300, 400, 500, 750, 1000, 1200, 1500, 2000]))
            counters["transfer"] += 1
            transfer_id = f"TRF{rng.randint(0x10000000, 0xFFFFFFFF):08X}"
            target = None if to_payee else rng.choice(targets)
            payee = rng.choice(my_payees) if to_payee else None
            memo = rng.choice(["rent", "savings", "card_payment", "bills", "tuition", "other", "gift", "loan_repayment"])
            db["transfers"][transfer_id] = {
                "transfer_id": transfer_id,
                "customer_id": customer_id,
                "from_account_id": src["account_id"],
                "to_account_id": target["account_id"] if target else None,
                "payee_id": payee["payee_id"] if payee else None,
                "amount": amount,
                "date": _d(day),
                "purpose": memo,
                "status": "completed",
            }
            add_txn(src, txn_date=_d(day), status="posted", posted_date=_d(day), direction="debit", amount=amount,
                    kind="transfer_out", merchant=payee["name"] if payee else "Internal transfer",
                    category="transfer", description=f"TRANSFER {transfer_id} {memo.upper()}")
            if target is not None:
                add_txn(target, txn_date=_d(day), status="posted", posted_date=_d(day),
                        direction="credit", amount=amount,
                        kind="payment" if target["type"] == "credit_card" else "transfer_in",
                        merchant="Internal transfer", category="transfer", description=f"TRANSFER {transfer_id} {memo.upper()}")

        # alerts
        for account in own_accounts:
            if rng.random() < 0.3:
                kind = "payment_due" if account["type"] == "credit_card" else rng.choice(["low_balance", "large_transaction"])
                threshold = None if kind == "payment_due" else float(rng.choice([50, 100, 250, 500, 1000]))
                alert_id = f"ALR-{account['account_id'][3:]}-{kind.upper().replace('_', '')}"
                db["alerts"][alert_id] = {
                    "alert_id": alert_id,
                    "account_id": account["account_id"],
                    "customer_id": customer_id,
                    "kind": kind,
                    "threshold": threshold,
                    "channel": rng.choice(["sms", "email", "push"]),
                    "active": True,
                }

    # existing disputes on some posted purchases
    purchases_posted = sorted(
        (t for t in db["transactions"].values() if t["kind"] == "purchase" and t["status"] == "posted"),
        key=lambda t: t["txn_id"],
    )
    for txn in rng.sample(purchases_posted, 70 * scale):
        account = db["accounts"][txn["account_id"]]
        dispute_id = f"DSP-{txn['txn_id'][2:]}"
        filed = min(TODAY, date.fromisoformat(txn["posted_date"]) + timedelta(days=rng.randint(1, 30)))
        drawn = rng.choice(["unauthorized", "merchandise_not_received", "incorrect_amount", "canceled_recurring"])
        if drawn == "unauthorized":
            rng.random()  # drawn here before; kept so that every later record stays as it was
        reason = _fitting_reason(drawn, txn["category"])
        disputed = txn["amount"]
        if reason == "incorrect_amount":  # only the overcharge is disputed (policy 4.4)
            disputed = float(half_up(txn["amount"] * random.Random(dispute_id).choice([0.1, 0.2, 0.25, 0.4, 0.5])))
        standing = db["customers"][account["customer_id"]]["standing"]
        credit = disputed if reason in CREDITED_REASONS and standing == "good" else 0.0  # policy 4.5
        status = rng.choice(["open", "open", "resolved_customer_favor", "resolved_merchant_favor"])
        dispute = {
            "dispute_id": dispute_id,
            "txn_id": txn["txn_id"],
            "account_id": account["account_id"],
            "customer_id": account["customer_id"],
            "reason": reason,
            "merchant_contacted": rng.random() < 0.6,
            "disputed_amount": disputed,
            "filed_date": _d(filed),
            "status": status,
            "provisional_credit": credit,
            "provisional_credit_txn_id": None,
        }
        if credit:
            credit_txn = add_txn(account, txn_date=_d(filed), status="posted", posted_date=_d(filed), direction="credit",
                                 amount=credit, kind="provisional_credit", merchant="Larkspur Savings Bank",
                                 category="disputes", description=f"PROVISIONAL CREDIT {dispute_id}")
            dispute["provisional_credit_txn_id"] = credit_txn["txn_id"]
        db["disputes"][dispute_id] = dispute
        txn["dispute_id"] = dispute_id

    # A dispute resolved for the merchant takes its provisional credit back (Regulation E 1005.11(d)(2)): the
    # reversal posts when the investigation closed, here 20 days after filing. Added after every dispute so
    # that no earlier transaction id moves.
    for dispute in sorted(db["disputes"].values(), key=lambda x: x["dispute_id"]):
        if dispute["status"] == "resolved_merchant_favor" and dispute["provisional_credit"]:
            closed = _d(min(TODAY, date.fromisoformat(dispute["filed_date"]) + timedelta(days=20)))
            add_txn(db["accounts"][dispute["account_id"]], txn_date=closed, status="posted", posted_date=closed,
                    direction="debit", amount=dispute["provisional_credit"], kind="provisional_credit",
                    merchant="Larkspur Savings Bank", category="disputes",
                    description=f"PROVISIONAL CREDIT REVERSAL {dispute['dispute_id']}")

    BankDB.model_validate(db)  # fail loudly on a schema drift
    # Fields left at their schema default (None, or a transaction's refunded=False) are
    # omitted to keep the file small.
    return {
        table: {
            key: {k: v for k, v in record.items() if v is not None and not (k == "refunded" and v is False)}
            for key, record in records.items()
        }
        for table, records in db.items()
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--scale", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(dump_db(generate(args.seed, args.scale)))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
