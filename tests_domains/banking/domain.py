"""Larkspur Savings Bank, the support line: accounts, cards, transactions, disputes,
transfers, alerts and fee refunds. The policy fixes the current time: 2026-05-15 14:00 PT.

The tools refuse only what the data makes impossible (no such record, not this customer's,
nothing left to refund, a card already replaced). The policy's rules (dispute and fee windows,
limits, eligibility, standing) are the agent's to apply.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, ToolError
from pytest_tau.invariants import Invariant, area_codes_valid, cents, not_after_now, ordered, plausible_age, zip_matches_state
from tests_domains.banking.schema import Account, Alert, BankDB, Card, Customer, Dispute, Payee, Transaction, Transfer

DOMAIN = Domain("banking", BankDB, now=datetime(2026, 5, 15, 14, 0))

# The bank's price list and limits (what a tool charges or reports, never what it refuses).
DAILY_PAYEE_LIMIT = {"classic": 2500.0, "plus": 5000.0, "premier": 10000.0}
CARD_REPLACEMENT_FEE = {"classic": 10.0, "plus": 0.0, "premier": 0.0}
EXPEDITED_SHIPPING_FEE = {"classic": 20.0, "plus": 20.0, "premier": 0.0}
SAVINGS_MONTHLY_TRANSFERS = 6

CustomerId = Annotated[str, Field(description="the customer's id, e.g. 'CUS100234' (from find_customer)")]
AccountId = Annotated[str, Field(description="an account id, e.g. 'ACC20000131'")]
CardId = Annotated[str, Field(description="a card id, e.g. 'CRD700004'")]
TxnId = Annotated[str, Field(description="a transaction id, e.g. 'TX4100123'")]
Purpose = Annotated[
    Literal["rent", "bills", "savings", "card_payment", "gift", "loan_repayment", "tuition", "other"],
    Field(description="what the transfer is for (stored)"),
]


# -- helpers ---------------------------------------------------------------------------
def _money(value: float) -> float:
    return round(value + 0.0, 2)


def _day() -> str:
    return DOMAIN.today.isoformat()


def _pending_debits(db: BankDB, account_id: str) -> float:
    # a sum of whole cents, rounded: independent of the order where() yields them in
    return _money(sum(t.amount for t in db.transactions.where(account_id=account_id) if t.status == "pending" and t.direction == "debit"))


def _available(db: BankDB, account: Account, pending: float | None = None) -> float:
    if pending is None:
        pending = _pending_debits(db, account.account_id)
    if account.type == "credit_card":
        return _money((account.credit_limit or 0.0) - account.balance - pending)
    return _money(account.balance - pending)


def _post(db: BankDB, account: Account, txn: Transaction) -> None:
    """Insert a posted transaction and move the account's balance."""
    if txn.txn_id in db.transactions:
        raise ToolError(f"transaction {txn.txn_id} already exists")
    db.transactions[txn.txn_id] = txn
    sign = 1 if txn.direction == "credit" else -1
    if account.type == "credit_card":
        sign = -sign  # a credit card's balance is the amount owed
    account.balance = _money(account.balance + sign * txn.amount)


def _bank_txn(account: Account, txn_id: str, direction: Literal["debit", "credit"], amount: float, kind: Any, **fields: Any) -> Transaction:
    return Transaction(
        txn_id=txn_id, account_id=account.account_id, txn_date=_day(), posted_date=_day(), status="posted",
        direction=direction, amount=_money(amount), kind=kind, **fields,
    )


def _savings_transfers_this_month(db: BankDB, account_id: str) -> int:
    month = _day()[:7]
    return sum(1 for t in db.transfers.where(from_account_id=account_id) if t.date.startswith(month) and t.status != "canceled")


def _payee_total_today(db: BankDB, customer_id: str) -> float:
    return _money(sum(t.amount for t in db.transfers.where(customer_id=customer_id, date=_day()) if t.payee_id is not None and t.status != "canceled"))


def _check_amount(amount: float) -> None:
    if not (math.isfinite(amount) and amount > 0):
        raise ToolError("the amount must be a positive number")
    if round(amount, 2) != amount:
        raise ToolError("the amount must be in whole cents")


def _open(account: Account) -> None:
    if account.status == "closed":
        raise ToolError(f"account {account.account_id} is closed")


def _replacement_fees(customer: Customer, shipping: str) -> dict[str, float]:
    fees = {"card_replacement": CARD_REPLACEMENT_FEE[customer.tier]}
    if shipping == "expedited":
        fees["expedited_shipping"] = EXPEDITED_SHIPPING_FEE[customer.tier]
    return fees


# -- lookups ---------------------------------------------------------------------------
@DOMAIN.tool(authenticates=True)
def find_customer(
    db: BankDB,
    first_name: str,
    last_name: str,
    date_of_birth: Annotated[str, Field(description="date of birth as YYYY-MM-DD")],
    card_last4: Annotated[str, Field(description="last 4 digits of any card the customer holds with us")],
) -> Customer:
    """Authenticate a caller: find the customer whose full name, date of birth and the last 4
    digits of one of their cards all match. Returns the customer's profile."""
    last4 = card_last4.strip()
    for customer in db.customers.find(last_name=last_name, first_name=first_name, date_of_birth=date_of_birth.strip()):
        if any(True for _ in db.cards.where(customer_id=customer.customer_id, last4=last4)):
            return customer
    raise ToolError("no customer matches that name, date of birth and card number; the caller is not verified")


@DOMAIN.tool
def get_customer(db: BankDB, customer_id: CustomerId) -> Customer:
    """Return a customer's profile: contact details, tier, standing, member-since date,
    date of the last overdraft fee refund and account ids."""
    return db.customers.require(customer_id)


@DOMAIN.tool
def get_account(db: BankDB, account_id: AccountId) -> dict[str, Any]:
    """Return an account with its posted balance, pending debits and available balance
    (for a credit card: the amount owed, and the available credit)."""
    account = db.accounts.require(account_id)
    result: dict[str, Any] = account.model_dump(mode="json")
    result["pending_debits"] = pending = _pending_debits(db, account.account_id)
    if account.type == "credit_card":
        result["available_credit"] = _available(db, account, pending)
    else:
        result["available_balance"] = _available(db, account, pending)
    if account.type == "savings":
        result["outgoing_transfers_this_month"] = _savings_transfers_this_month(db, account.account_id)
    return result


@DOMAIN.tool
def list_accounts(db: BankDB, customer_id: CustomerId) -> list[dict[str, Any]]:
    """List a customer's accounts (type, product name, last 4 of the account number, status,
    balance and available balance or credit)."""
    customer = db.customers.require(customer_id)
    return [get_account(db, account_id) for account_id in sorted(customer.account_ids) if account_id in db.accounts]


@DOMAIN.tool
def list_cards(db: BankDB, customer_id: CustomerId) -> list[Card]:
    """List every card of a customer (active, locked, reported lost/stolen, replaced)."""
    customer = db.customers.require(customer_id)
    return sorted(db.cards.where(customer_id=customer.customer_id), key=lambda c: c.card_id)


@DOMAIN.tool
def search_transactions(
    db: BankDB,
    account_id: AccountId,
    start_date: Annotated[str | None, Field(description="earliest transaction date, YYYY-MM-DD (inclusive)")] = None,
    end_date: Annotated[str | None, Field(description="latest transaction date, YYYY-MM-DD (inclusive)")] = None,
    merchant: Annotated[str | None, Field(description="part of the merchant name, case-insensitive")] = None,
    min_amount: float | None = None,
    max_amount: float | None = None,
    kind: Annotated[
        Literal["purchase", "refund", "deposit", "atm_withdrawal", "fee", "transfer_in", "transfer_out", "payment", "interest", "fee_refund", "provisional_credit"] | None,
        Field(description="only transactions of this kind"),
    ] = None,
) -> dict[str, Any]:
    """Search an account's transactions (newest first, at most 50) by transaction date range,
    merchant, amount range and kind, with the count and total amount of all matches. Pending
    transactions have no posted_date."""
    account = db.accounts.require(account_id)
    needle = " ".join(merchant.split()).lower() if merchant else None
    hits = list(db.transactions.where(account_id=account.account_id))
    if start_date:
        hits = [t for t in hits if not t.txn_date < start_date]
    if end_date:
        hits = [t for t in hits if not t.txn_date > end_date]
    if needle:
        hits = [t for t in hits if needle in t.merchant.lower() or needle in t.description.lower()]
    if min_amount is not None:
        hits = [t for t in hits if not t.amount < min_amount]
    if max_amount is not None:
        hits = [t for t in hits if not t.amount > max_amount]
    if kind:
        hits = [t for t in hits if t.kind == kind]
    # newest first; (txn_date, txn_id) is unique, so the order where() yields them in does not matter
    hits.sort(key=lambda t: (t.txn_date, t.txn_id), reverse=True)
    return {"count": len(hits), "total_amount": _money(sum(t.amount for t in hits)), "transactions": hits[:50]}


@DOMAIN.tool
def get_transaction(db: BankDB, txn_id: TxnId) -> Transaction:
    """Return one transaction."""
    return db.transactions.require(txn_id)


@DOMAIN.tool
def list_payees(db: BankDB, customer_id: CustomerId) -> list[Payee]:
    """List a customer's saved payees (set up in online banking), active and inactive."""
    customer = db.customers.require(customer_id)
    return sorted(db.payees.where(customer_id=customer.customer_id), key=lambda p: p.payee_id)


@DOMAIN.tool
def list_disputes(db: BankDB, customer_id: CustomerId) -> list[Dispute]:
    """List a customer's card disputes, open and resolved."""
    customer = db.customers.require(customer_id)
    return sorted(db.disputes.where(customer_id=customer.customer_id), key=lambda d: d.dispute_id)


@DOMAIN.tool
def list_alerts(db: BankDB, customer_id: CustomerId) -> list[Alert]:
    """List a customer's account alerts."""
    customer = db.customers.require(customer_id)
    return sorted(db.alerts.where(customer_id=customer.customer_id), key=lambda a: a.alert_id)


@DOMAIN.tool
def get_transfer_limits(db: BankDB, customer_id: CustomerId) -> dict[str, Any]:
    """Return the customer's daily limit for transfers to saved payees, how much of it was
    used today, what remains, and each savings account's outgoing transfers this month."""
    customer = db.customers.require(customer_id)
    limit = DAILY_PAYEE_LIMIT[customer.tier]
    used = _payee_total_today(db, customer.customer_id)
    savings = {
        a: _savings_transfers_this_month(db, a)
        for a in sorted(customer.account_ids)
        if a in db.accounts and db.accounts[a].type == "savings"
    }
    return {
        "tier": customer.tier,
        "daily_payee_limit": limit,
        "payee_transfers_today": used,
        "remaining_today": _money(limit - used),
        "savings_outgoing_transfers_this_month": savings,
        "savings_monthly_transfer_limit": SAVINGS_MONTHLY_TRANSFERS,
    }


# -- cards -----------------------------------------------------------------------------
@DOMAIN.tool(write=True)
def lock_card(
    db: BankDB,
    card_id: CardId,
    reason: Annotated[
        Literal["misplaced", "suspicious_activity", "travel", "customer_request"],
        Field(description="why the card is locked (stored on the card)"),
    ],
) -> Card:
    """Temporarily lock a card (it can be unlocked later)."""
    card = db.cards.require(card_id)
    if card.status not in ("active", "locked"):
        raise ToolError(f"card {card.card_id} is {card.status}; it is no longer in use")
    card.status = "locked"
    card.lock_reason = reason
    return card


@DOMAIN.tool(write=True)
def unlock_card(db: BankDB, card_id: CardId) -> Card:
    """Unlock a card, making it active again."""
    card = db.cards.require(card_id)
    if card.status == "active":
        raise ToolError(f"card {card.card_id} is already active")
    card.status = "active"
    card.lock_reason = None
    return card


@DOMAIN.tool
def quote_card_replacement(db: BankDB, card_id: CardId, shipping: Literal["standard", "expedited"]) -> dict[str, Any]:
    """Preview what replacing a card would cost the customer (nothing is ordered or charged)."""
    card = db.cards.require(card_id)
    fees = _replacement_fees(db.customers.require(card.customer_id), shipping)
    return {
        "card_id": card.card_id,
        "shipping": shipping,
        "fees": fees,
        "total_fees": _money(sum(fees.values())),
        "charged_to_account_id": card.account_id,
        "delivery": "2 business days" if shipping == "expedited" else "7-10 business days",
    }


@DOMAIN.tool(write=True)
def replace_card(
    db: BankDB,
    card_id: CardId,
    reason: Literal["lost", "stolen", "damaged"],
    shipping: Literal["standard", "expedited"],
) -> dict[str, Any]:
    """Order a replacement card. A lost or stolen card is blocked permanently at once; a
    damaged one is marked replaced. The tier's replacement and expedited-shipping fees are
    charged to the card's account. Returns the new card and the fees charged."""
    card = db.cards.require(card_id)
    if card.replaced_by_card_id is not None or card.status not in ("active", "locked"):
        raise ToolError(f"card {card.card_id} is {card.status} and already replaced by {card.replaced_by_card_id}")
    account = db.accounts.require(card.account_id)
    _open(account)
    customer = db.customers.require(card.customer_id)
    new_id = f"CRD{int(card.card_id[3:]) + 500_000:07d}"
    number = int(hashlib.sha256(card.card_id.encode()).hexdigest(), 16) % 10_000
    while any(True for _ in db.cards.where(last4=f"{number:04d}")):
        number = (number + 1) % 10_000
    today = DOMAIN.today
    new_card = Card(
        card_id=new_id, customer_id=card.customer_id, account_id=card.account_id, kind=card.kind, network=card.network,
        last4=f"{number:04d}", expiry=f"{today.month:02d}/{(today.year + 5) % 100:02d}", status="active",
        issued_date=_day(), replaces_card_id=card.card_id, shipping=shipping,
    )
    db.cards[new_id] = new_card
    if reason == "damaged":
        card.status = "replaced"
    else:
        card.status = "lost_stolen"
        card.lock_reason = "reported lost" if reason == "lost" else "reported stolen"
    card.replaced_by_card_id = new_id
    fees = _replacement_fees(customer, shipping)
    for fee_type, amount in fees.items():
        if amount > 0:
            label, tag = ("CARD REPLACEMENT FEE", "REPL") if fee_type == "card_replacement" else ("EXPEDITED CARD DELIVERY FEE", "SHIP")
            _post(db, account, _bank_txn(
                account, f"FEE-{new_id}-{tag}", "debit", amount, "fee", merchant="Larkspur Savings Bank",
                category="fees", description=f"{label} CARD {card.last4}", fee_type=fee_type,
            ))
    return {
        "new_card": new_card,
        "old_card_status": card.status,
        "fees_charged": fees,
        "total_fees": _money(sum(fees.values())),
        "delivery": "2 business days" if shipping == "expedited" else "7-10 business days",
    }


# -- disputes --------------------------------------------------------------------------
@DOMAIN.tool(write=True)
def file_dispute(
    db: BankDB,
    txn_id: TxnId,
    reason: Literal["unauthorized", "duplicate_charge", "incorrect_amount", "merchandise_not_received", "canceled_recurring"],
    merchant_contacted: Annotated[bool, Field(description="whether the customer already contacted the merchant about it")],
    disputed_amount: Annotated[float, Field(description="the amount in dispute: the full amount, or for incorrect_amount the overcharge")],
    provisional_credit: Annotated[bool, Field(description="whether to post provisional credit for the disputed amount now")],
) -> Dispute:
    """File a dispute on a charge. With provisional_credit, the disputed amount is credited
    to the account at once."""
    txn = db.transactions.require(txn_id)
    if txn.direction != "debit":
        raise ToolError(f"transaction {txn.txn_id} is a credit to the account; there is no charge to dispute")
    if not (math.isfinite(disputed_amount) and 0 < disputed_amount <= txn.amount):
        raise ToolError(f"the disputed amount must be positive and at most the charge, {txn.amount:.2f}")
    account = db.accounts.require(txn.account_id)
    stem = "DSP-" + txn.txn_id.removeprefix("TX")
    dispute_id, n = stem, 1
    while dispute_id in db.disputes:  # a second dispute on the same charge: the data allows it
        n += 1
        dispute_id = f"{stem}-{n}"
    dispute = Dispute(
        dispute_id=dispute_id, txn_id=txn.txn_id, account_id=account.account_id, customer_id=account.customer_id,
        reason=reason, merchant_contacted=merchant_contacted, disputed_amount=_money(disputed_amount),
        filed_date=_day(), status="open", provisional_credit=0.0,
    )
    if provisional_credit:
        credit_id = "PC-" + dispute_id.removeprefix("DSP-")
        _post(db, account, _bank_txn(
            account, credit_id, "credit", disputed_amount, "provisional_credit", merchant="Larkspur Savings Bank",
            category="disputes", description=f"PROVISIONAL CREDIT {dispute_id}",
        ))
        dispute.provisional_credit = _money(disputed_amount)
        dispute.provisional_credit_txn_id = credit_id
    db.disputes[dispute_id] = dispute
    db.transactions[txn.txn_id].dispute_id = dispute_id
    return dispute


# -- money movement --------------------------------------------------------------------
def _record_transfer(db: BankDB, src: Account, amount: float, purpose: Any, *, to: Account | None, payee: Payee | None) -> Transfer:
    target = to.account_id if to is not None else payee.payee_id if payee is not None else ""
    transfer_id = db.transfers.new_key("TRF", src.account_id, target, _money(amount), purpose)
    transfer = Transfer(
        transfer_id=transfer_id, customer_id=src.customer_id, from_account_id=src.account_id,
        to_account_id=to.account_id if to is not None else None, payee_id=payee.payee_id if payee is not None else None,
        amount=_money(amount), date=_day(), purpose=purpose, status="completed",
    )
    db.transfers[transfer_id] = transfer
    note = f"TRANSFER {transfer_id} {purpose.upper()}"
    _post(db, src, _bank_txn(
        src, f"{transfer_id}-D", "debit", amount, "transfer_out", merchant=payee.name if payee is not None else "Internal transfer",
        category="transfer", description=note,
    ))
    if to is not None:
        _post(db, to, _bank_txn(
            to, f"{transfer_id}-C", "credit", amount, "payment" if to.type == "credit_card" else "transfer_in",
            merchant="Internal transfer", category="transfer", description=note,
        ))
    return transfer


@DOMAIN.tool(write=True)
def transfer_between_accounts(
    db: BankDB, from_account_id: AccountId, to_account_id: AccountId, amount: float, purpose: Purpose
) -> dict[str, Any]:
    """Move money now between two accounts of the same customer (a transfer to one's own
    credit card account is a card payment). Returns the transfer and both new balances."""
    src, dst = db.accounts.require(from_account_id), db.accounts.require(to_account_id)
    if src.customer_id != dst.customer_id:
        raise ToolError("both accounts must belong to the same customer")
    if src.account_id == dst.account_id:
        raise ToolError("the two accounts must differ")
    _open(src)
    _open(dst)
    _check_amount(amount)
    transfer = _record_transfer(db, src, amount, purpose, to=dst, payee=None)
    return {"transfer": transfer, "from_balance": src.balance, "to_balance": dst.balance}


@DOMAIN.tool(write=True)
def transfer_to_payee(
    db: BankDB,
    from_account_id: AccountId,
    payee_id: Annotated[str, Field(description="a saved payee's id, e.g. 'PAY30012'")],
    amount: float,
    purpose: Purpose,
) -> dict[str, Any]:
    """Send money now from an account to one of the customer's saved payees."""
    src = db.accounts.require(from_account_id)
    payee = db.payees.require(payee_id)
    if payee.customer_id != src.customer_id:
        raise ToolError(f"payee {payee.payee_id} is not saved by the owner of account {src.account_id}")
    _open(src)
    _check_amount(amount)
    customer = db.customers.require(src.customer_id)
    transfer = _record_transfer(db, src, amount, purpose, to=None, payee=payee)
    remaining = _money(DAILY_PAYEE_LIMIT[customer.tier] - _payee_total_today(db, customer.customer_id))
    return {"transfer": transfer, "from_balance": src.balance, "remaining_daily_limit": remaining}


# -- alerts, fees, contact -------------------------------------------------------------
@DOMAIN.tool(write=True)
def set_alert(
    db: BankDB,
    account_id: AccountId,
    kind: Literal["low_balance", "large_transaction", "payment_due"],
    channel: Literal["sms", "email", "push"],
    threshold: Annotated[float | None, Field(description="dollar threshold; required for low_balance and large_transaction, omitted for payment_due")] = None,
) -> Alert:
    """Create an alert on an account, or update (and re-activate) the account's existing alert of that kind."""
    account = db.accounts.require(account_id)
    if kind == "low_balance" and account.type == "credit_card":
        raise ToolError("a credit card account has no balance to run low; low-balance alerts are for checking and savings")
    if kind == "payment_due" and account.type != "credit_card":
        raise ToolError("only credit card accounts have payments due")
    if kind == "payment_due":
        if threshold is not None:
            raise ToolError("payment-due alerts take no threshold")
    elif threshold is None or not (math.isfinite(threshold) and threshold > 0):
        raise ToolError(f"{kind} alerts need a positive dollar threshold")
    alert_id = f"ALR-{account.account_id[3:]}-{kind.upper().replace('_', '')}"
    alert = db.alerts.get(alert_id)
    if alert is None:
        alert = Alert(alert_id=alert_id, account_id=account.account_id, customer_id=account.customer_id, kind=kind,
                      threshold=threshold, channel=channel, active=True)
        db.alerts[alert_id] = alert
    else:
        alert.threshold, alert.channel, alert.active = threshold, channel, True
    return alert


@DOMAIN.tool(write=True)
def remove_alert(db: BankDB, alert_id: Annotated[str, Field(description="the alert's id (from list_alerts)")]) -> Alert:
    """Turn an alert off."""
    alert = db.alerts.require(alert_id)
    if not alert.active:
        raise ToolError(f"alert {alert.alert_id} is already off")
    alert.active = False
    return alert


@DOMAIN.tool(write=True)
def refund_fee(db: BankDB, txn_id: Annotated[str, Field(description="the fee transaction's id")]) -> dict[str, Any]:
    """Refund a posted fee to the account it was charged to. Records the date of overdraft
    fee refunds on the customer's profile."""
    fee = db.transactions.require(txn_id)
    if fee.kind != "fee" or fee.fee_type is None:
        raise ToolError(f"transaction {fee.txn_id} is not a fee")
    if fee.refunded:
        raise ToolError(f"fee {fee.txn_id} was already refunded")
    account = db.accounts.require(fee.account_id)
    refund = _bank_txn(
        account, "RF-" + fee.txn_id.removeprefix("TX"), "credit", fee.amount, "fee_refund", merchant="Larkspur Savings Bank",
        category="fees", description=f"FEE REFUND {fee.txn_id} {fee.description}",
    )
    _post(db, account, refund)
    db.transactions[fee.txn_id].refunded = True
    if fee.fee_type == "overdraft":
        db.customers.require(account.customer_id).last_overdraft_refund_date = _day()
    return {"refund": refund, "new_balance": account.balance}


@DOMAIN.tool(write=True)
def update_contact_info(
    db: BankDB,
    customer_id: CustomerId,
    email: Annotated[str | None, Field(description="new email address")] = None,
    phone: Annotated[str | None, Field(description="new phone number as +1-NNN-NNN-NNNN")] = None,
) -> Customer:
    """Change a customer's email address and/or phone number (not the mailing address)."""
    customer = db.customers.require(customer_id)
    if email is None and phone is None:
        raise ToolError("give an email or a phone number to change")
    if email is not None:
        email = email.strip().lower()
        if email.count("@") != 1 or "." not in email.split("@")[1]:
            raise ToolError(f"{email!r} is not a valid email address")
        customer.email = email
    if phone is not None:
        if any(not (c.isdigit() or c in "+-(). ") for c in phone):
            raise ToolError(f"{phone!r} is not a valid US phone number")
        digits = [c for c in phone if c.isdigit()]
        if len(digits) == 10:
            digits = ["1", *digits]
        if len(digits) != 11 or digits[0] != "1":
            raise ToolError(f"{phone!r} is not a valid US phone number")
        d = "".join(digits)
        customer.phone = f"+1-{d[1:4]}-{d[4:7]}-{d[7:]}"
    return customer


# -- data invariants: the clock, ages, places and money the policy relies on -------------------
# Dispute reasons a purchase's merchant can carry: a subscription or a utility bills again after a cancellation,
# an order ships (or a booking is kept) or not; a meal, a tank of fuel or a pharmacy counter does neither.
RECURRING = ("subscriptions", "utilities")
SHIPPED_OR_BOOKED = ("shopping", "home", "electronics", "jewelry", "travel")
CREDITED_REASONS = ("unauthorized", "duplicate_charge", "incorrect_amount")  # policy 4.5


def _disputes_as_filed(db: BankDB, now: datetime) -> Iterator[str]:
    """A dispute on file has a reason its merchant can carry, disputes only the overcharge of an incorrect amount
    (4.4), got provisional credit exactly when 4.5 gives it (the customer's standing taken as today's) and, resolved
    for the merchant, had that credit reversed."""
    for dispute_id, dispute in db.disputes.items():
        txn = db.transactions.require(dispute.txn_id)
        if dispute.reason == "canceled_recurring" and txn.category not in RECURRING:
            yield f"disputes[{dispute_id!r}]: canceled_recurring on a {txn.category} purchase at {txn.merchant}"
        if dispute.reason == "merchandise_not_received" and txn.category not in SHIPPED_OR_BOOKED:
            yield f"disputes[{dispute_id!r}]: merchandise_not_received on a {txn.category} purchase at {txn.merchant}"
        if dispute.reason == "incorrect_amount" and not 0 < dispute.disputed_amount < txn.amount:
            yield f"disputes[{dispute_id!r}]: incorrect_amount disputes {dispute.disputed_amount}, not an overcharge of {txn.amount}"
        good = db.customers.require(dispute.customer_id).standing == "good"
        owed = dispute.disputed_amount if dispute.reason in CREDITED_REASONS and good else 0.0
        if dispute.provisional_credit != owed:
            yield f"disputes[{dispute_id!r}]: provisional credit {dispute.provisional_credit}, rule 4.5 gives {owed}"
        reversed_ = any(t.kind == "provisional_credit" and t.direction == "debit" and t.description.endswith(dispute_id)
                        for t in db.transactions.values() if t.account_id == dispute.account_id)
        if reversed_ != (dispute.status == "resolved_merchant_favor" and dispute.provisional_credit > 0):
            yield f"disputes[{dispute_id!r}]: {dispute.status} with credit {dispute.provisional_credit}, reversal on file: {reversed_}"


def _card_terms(db: BankDB, now: datetime) -> Iterator[str]:
    """A card expires 3 to 5 years after the month it was issued, and one in use has not expired."""
    for card_id, card in db.cards.items():
        month, year = int(card.expiry[:2]), 2000 + int(card.expiry[3:])
        issued = datetime.fromisoformat(card.issued_date)
        months = (year - issued.year) * 12 + month - issued.month
        if not 36 <= months <= 60:
            yield f"cards[{card_id!r}]: issued {card.issued_date}, expires {card.expiry}: {months} months"
        if card.status in ("active", "locked") and (year, month) < (now.year, now.month):
            yield f"cards[{card_id!r}]: {card.status} but expired {card.expiry}"


DOMAIN.invariants(
    Invariant("cards: expiry 3 to 5 years after issue, none in use expired", _card_terms),
    Invariant("disputes: reason, amount and provisional credit as filed under section 4", _disputes_as_filed),
    plausible_age("customers", "date_of_birth", low=18, high=105),
    not_after_now("customers", "member_since"),
    not_after_now("customers", "last_overdraft_refund_date"),
    not_after_now("accounts", "opened_date"),
    not_after_now("cards", "issued_date"),
    not_after_now("transactions", "txn_date"),
    not_after_now("transactions", "posted_date"),
    ordered("transactions", "txn_date", "posted_date"),
    not_after_now("disputes", "filed_date"),
    not_after_now("payees", "added_date"),
    area_codes_valid("customers", "phone"),
    zip_matches_state("customers", "address.zip", "address.state"),
    cents("accounts", "balance"),
    cents("transactions", "amount"),
)

# Orders the policy states, graded where a task's gold calls both tools.
DOMAIN.order("quote_card_replacement", "replace_card")  # 3.4: the fee is quoted before the replacement
DOMAIN.order("file_dispute", "replace_card")  # 4.7: the compromised card is replaced after filing the dispute(s)
# 7.3: an overdrawn account is brought back above zero before its overdraft fee is refunded (the one family that
# does both moves the money in for that reason)
DOMAIN.order("transfer_between_accounts", "refund_fee")
