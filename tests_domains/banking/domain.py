"""Larkspur Savings Bank, the support line: accounts, cards, transactions, disputes,
transfers, alerts and fee refunds. The policy fixes the current time: 2026-05-15 14:00 PT."""

from __future__ import annotations

import hashlib
from datetime import date
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, ToolError, calculate as _calculate
from tests_domains.banking.schema import (
    Account,
    Alert,
    BankDB,
    Card,
    Customer,
    Dispute,
    Payee,
    Transaction,
    Transfer,
)

DOMAIN = Domain("banking", BankDB, fixtures=Path(__file__).parents[2] / "fixtures" / "banking")

TODAY = date(2026, 5, 15)
DISPUTE_WINDOW_DAYS = 60
FEE_REFUND_WINDOW_DAYS = 90
SAVINGS_MONTHLY_TRANSFERS = 6
DAILY_PAYEE_LIMIT = {"classic": 2500.0, "plus": 5000.0, "premier": 10000.0}
CARD_REPLACEMENT_FEE = {"classic": 10.0, "plus": 0.0, "premier": 0.0}
EXPEDITED_SHIPPING_FEE = {"classic": 20.0, "plus": 20.0, "premier": 0.0}
REFUNDABLE_FEES = ("overdraft", "monthly_maintenance", "foreign_atm")
PROVISIONAL_CREDIT_REASONS = ("unauthorized", "duplicate_charge", "incorrect_amount")

CustomerId = Annotated[str, Field(description="the customer's id, e.g. 'CUS100234' (from find_customer)")]
AccountId = Annotated[str, Field(description="an account id, e.g. 'ACC20000131'")]
CardId = Annotated[str, Field(description="a card id, e.g. 'CRD700004'")]
TxnId = Annotated[str, Field(description="a transaction id, e.g. 'TX4100123'")]


# -- helpers ---------------------------------------------------------------------------
def _money(value: float) -> float:
    return round(value + 0.0, 2)


def _customer(db: BankDB, customer_id: str) -> Customer:
    customer = db.customers.get(customer_id)
    if customer is None:
        raise ToolError(f"no customer with id {customer_id!r}")
    return customer


def _account(db: BankDB, account_id: str) -> Account:
    account = db.accounts.get(account_id)
    if account is None:
        raise ToolError(f"no account with id {account_id!r}")
    return account


def _card(db: BankDB, card_id: str) -> Card:
    card = db.cards.get(card_id)
    if card is None:
        raise ToolError(f"no card with id {card_id!r}")
    return card


def _txn(db: BankDB, txn_id: str) -> Transaction:
    txn = db.transactions.get(txn_id)
    if txn is None:
        raise ToolError(f"no transaction with id {txn_id!r}")
    return txn


_POSITIONS: dict[str, tuple[Any, dict[str, int]]] = {}


def _initial_positions(table: str) -> dict[str, int]:
    """Each key's position in the initial DB's table (built once per process and DB)."""
    initial = DOMAIN.initial_db
    cached = _POSITIONS.get(table)
    if cached is None or cached[0] is not initial:
        cached = (initial, {key: i for i, key in enumerate(getattr(initial, table))})
        _POSITIONS[table] = cached
    return cached[1]


def _pending_debits(db: BankDB, account_id: str) -> float:
    return _money(
        # a sum of whole cents, rounded: independent of the order where() yields them in
        sum(t.amount for t in db.transactions.where(account_id=account_id) if t.status == "pending" and t.direction == "debit")
    )


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


def _short_hash(*parts: Any) -> str:
    return hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()[:8].upper()


def _transfer_id(db: BankDB, *content: Any) -> str:
    """A confirmation number derived from the transfer's content (not from call order)."""
    serial = 0
    while True:
        transfer_id = f"TRF{_short_hash(*content, serial)}"
        if transfer_id not in db.transfers:
            return transfer_id
        serial += 1


def _savings_transfers_this_month(db: BankDB, account_id: str) -> int:
    month = TODAY.isoformat()[:7]
    return sum(
        1 for t in db.transfers.where(from_account_id=account_id) if t.date.startswith(month) and t.status != "canceled"
    )


def _payee_total_today(db: BankDB, customer_id: str) -> float:
    return _money(
        sum(
            t.amount
            for t in db.transfers.where(customer_id=customer_id, date=TODAY.isoformat())
            if t.payee_id is not None and t.status != "canceled"
        )
    )


def _check_outgoing(db: BankDB, account: Account, amount: float) -> None:
    if amount <= 0:
        raise ToolError("the amount must be positive")
    if round(amount, 2) != amount:
        raise ToolError("the amount must be in whole cents")
    if account.status != "open":
        raise ToolError(f"account {account.account_id} is {account.status}")
    if account.type == "credit_card":
        raise ToolError("money cannot be sent from a credit card account (no cash advances by phone)")
    available = _available(db, account)
    if amount > available:
        raise ToolError(f"insufficient funds: the available balance of {account.account_id} is {available:.2f}")
    if account.type == "savings" and _savings_transfers_this_month(db, account.account_id) >= SAVINGS_MONTHLY_TRANSFERS:
        raise ToolError(
            f"savings account {account.account_id} has already made {SAVINGS_MONTHLY_TRANSFERS} outgoing transfers this calendar month"
        )


# -- lookups ---------------------------------------------------------------------------
@DOMAIN.tool
def find_customer(
    db: BankDB,
    first_name: str,
    last_name: str,
    date_of_birth: Annotated[str, Field(description="date of birth as YYYY-MM-DD")],
    card_last4: Annotated[str, Field(description="last 4 digits of any card the customer holds with us")],
) -> Customer:
    """Authenticate a caller: find the customer whose full name, date of birth and the last 4
    digits of one of their cards all match. Returns the customer's profile."""
    first, last, last4 = first_name.strip().lower(), last_name.strip().lower(), card_last4.strip()
    has_card: dict[str, bool] = {}
    matches = []
    for customer in db.customers.where(date_of_birth=date_of_birth.strip()):
        if customer.first_name.lower() == first and customer.last_name.lower() == last:
            cid = customer.customer_id
            if cid not in has_card:
                has_card[cid] = any(True for _ in db.cards.where(customer_id=cid, last4=last4))
            if has_card[cid]:
                matches.append(customer)
    if matches:
        # the first match in the table's own order (where() puts changed records last)
        position = _initial_positions("customers")
        return min(matches, key=lambda c: position.get(c.customer_id, len(position)))
    raise ToolError("no customer matches that name, date of birth and card number; the caller is not verified")


@DOMAIN.tool
def get_customer(db: BankDB, customer_id: CustomerId) -> Customer:
    """Return a customer's profile: contact details, tier, standing, member-since date,
    date of the last overdraft fee refund and account ids."""
    return _customer(db, customer_id)


@DOMAIN.tool
def get_account(db: BankDB, account_id: AccountId) -> dict[str, Any]:
    """Return an account with its posted balance, pending debits and available balance
    (for a credit card: the amount owed, and the available credit)."""
    account = _account(db, account_id)
    result: dict[str, Any] = account.model_dump(mode="json")
    result["pending_debits"] = pending = _pending_debits(db, account_id)
    if account.type == "credit_card":
        result["available_credit"] = _available(db, account, pending)
    else:
        result["available_balance"] = _available(db, account, pending)
    if account.type == "savings":
        result["outgoing_transfers_this_month"] = _savings_transfers_this_month(db, account_id)
    return result


@DOMAIN.tool
def list_cards(db: BankDB, customer_id: CustomerId) -> list[Card]:
    """List every card of a customer (active, locked, reported lost/stolen, replaced)."""
    _customer(db, customer_id)
    return sorted(db.cards.where(customer_id=customer_id), key=lambda c: c.card_id)


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
    merchant, amount range and kind. Pending transactions have no posted_date."""
    _account(db, account_id)
    needle = merchant.strip().lower() if merchant else None
    hits = list(db.transactions.where(account_id=account_id))
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
    return {"count": len(hits), "transactions": hits[:50]}


@DOMAIN.tool
def get_transaction(db: BankDB, txn_id: TxnId) -> Transaction:
    """Return one transaction."""
    return _txn(db, txn_id)


@DOMAIN.tool
def list_payees(db: BankDB, customer_id: CustomerId) -> list[Payee]:
    """List a customer's saved payees (set up in online banking)."""
    _customer(db, customer_id)
    return sorted(db.payees.where(customer_id=customer_id), key=lambda p: p.payee_id)


@DOMAIN.tool
def list_disputes(db: BankDB, customer_id: CustomerId) -> list[Dispute]:
    """List a customer's card disputes, open and resolved."""
    _customer(db, customer_id)
    return sorted(db.disputes.where(customer_id=customer_id), key=lambda d: d.dispute_id)


@DOMAIN.tool
def list_alerts(db: BankDB, customer_id: CustomerId) -> list[Alert]:
    """List a customer's account alerts."""
    _customer(db, customer_id)
    return sorted(db.alerts.where(customer_id=customer_id), key=lambda a: a.alert_id)


@DOMAIN.tool
def get_transfer_limits(db: BankDB, customer_id: CustomerId) -> dict[str, Any]:
    """Return the customer's daily limit for transfers to saved payees, how much of it was
    used today, what remains, and each savings account's outgoing transfers this month."""
    customer = _customer(db, customer_id)
    limit = DAILY_PAYEE_LIMIT[customer.tier]
    used = _payee_total_today(db, customer_id)
    savings = {
        a: _savings_transfers_this_month(db, a)
        for a in customer.account_ids
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
    """Temporarily lock an active card (it can be unlocked later)."""
    card = _card(db, card_id)
    if card.status != "active":
        raise ToolError(f"card {card_id} is {card.status}; only an active card can be locked")
    card.status = "locked"
    card.lock_reason = reason
    return card


@DOMAIN.tool(write=True)
def unlock_card(db: BankDB, card_id: CardId) -> Card:
    """Unlock a temporarily locked card. Cards reported lost or stolen can never be unlocked."""
    card = _card(db, card_id)
    if card.status == "lost_stolen":
        raise ToolError(f"card {card_id} was reported lost or stolen and is permanently blocked")
    if card.status != "locked":
        raise ToolError(f"card {card_id} is {card.status}, not locked")
    card.status = "active"
    card.lock_reason = None
    return card


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
    card = _card(db, card_id)
    if card.status not in ("active", "locked"):
        raise ToolError(f"card {card_id} is {card.status}; it cannot be replaced again")
    account = _account(db, card.account_id)
    if account.status != "open":
        raise ToolError(f"account {account.account_id} is {account.status}")
    customer = _customer(db, card.customer_id)
    new_id = f"CRD{int(card_id[3:]) + 500_000:07d}"
    if new_id in db.cards:
        raise ToolError(f"a replacement {new_id} already exists")
    number = int(hashlib.sha256(card_id.encode()).hexdigest(), 16) % 10_000
    while any(True for _ in db.cards.where(last4=f"{number:04d}")):
        number = (number + 1) % 10_000
    new_card = Card(
        card_id=new_id,
        customer_id=card.customer_id,
        account_id=card.account_id,
        kind=card.kind,
        network=card.network,
        last4=f"{number:04d}",
        expiry=f"{TODAY.month:02d}/{(TODAY.year + 5) % 100:02d}",
        status="active",
        issued_date=TODAY.isoformat(),
        replaces_card_id=card_id,
        shipping=shipping,
    )
    db.cards[new_id] = new_card
    if reason == "damaged":
        card.status = "replaced"
    else:
        card.status = "lost_stolen"
        card.lock_reason = f"reported {reason}"
    card.replaced_by_card_id = new_id
    fees = {"card_replacement": CARD_REPLACEMENT_FEE[customer.tier]}
    if shipping == "expedited":
        fees["expedited_shipping"] = EXPEDITED_SHIPPING_FEE[customer.tier]
    for fee_type, amount in fees.items():
        if amount > 0:
            label = "CARD REPLACEMENT FEE" if fee_type == "card_replacement" else "EXPEDITED CARD DELIVERY FEE"
            _post(db, account, Transaction(
                txn_id=f"FEE-{new_id}-{'REPL' if fee_type == 'card_replacement' else 'SHIP'}",
                account_id=account.account_id, txn_date=TODAY.isoformat(), posted_date=TODAY.isoformat(),
                status="posted", direction="debit", amount=amount, kind="fee", merchant="Larkspur Savings Bank",
                category="fees", description=f"{label} CARD {card.last4}", fee_type=fee_type,  # type: ignore[arg-type]
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
    """File a dispute on a posted card transaction (purchase) within its dispute window."""
    txn = _txn(db, txn_id)
    if txn.kind != "purchase" or txn.card_id is None:
        raise ToolError("only card purchases can be disputed")
    if txn.status != "posted" or txn.posted_date is None:
        raise ToolError("pending transactions cannot be disputed; wait until the transaction posts")
    if txn.dispute_id is not None:
        raise ToolError(f"transaction {txn_id} already has dispute {txn.dispute_id}")
    age = (TODAY - date.fromisoformat(txn.posted_date)).days
    if age > DISPUTE_WINDOW_DAYS:
        raise ToolError(f"the dispute window closed: the transaction posted {txn.posted_date}, {age} days ago (limit {DISPUTE_WINDOW_DAYS})")
    if disputed_amount <= 0 or disputed_amount > txn.amount:
        raise ToolError(f"the disputed amount must be positive and at most {txn.amount:.2f}")
    if reason == "incorrect_amount":
        if disputed_amount >= txn.amount:
            raise ToolError("for incorrect_amount, dispute only the overcharge (less than the transaction amount)")
    elif disputed_amount != txn.amount:
        raise ToolError(f"for {reason}, the disputed amount must be the full transaction amount {txn.amount:.2f}")
    if provisional_credit and reason not in PROVISIONAL_CREDIT_REASONS:
        raise ToolError(f"provisional credit is not available for {reason} disputes")
    account = _account(db, txn.account_id)
    dispute_id = f"DSP-{txn_id[2:]}"
    dispute = Dispute(
        dispute_id=dispute_id, txn_id=txn_id, account_id=account.account_id, customer_id=account.customer_id,
        reason=reason, merchant_contacted=merchant_contacted, disputed_amount=_money(disputed_amount),
        filed_date=TODAY.isoformat(), status="open", provisional_credit=0.0,
    )
    if provisional_credit:
        credit_id = f"PC-{txn_id[2:]}"
        _post(db, account, Transaction(
            txn_id=credit_id, account_id=account.account_id, txn_date=TODAY.isoformat(), posted_date=TODAY.isoformat(),
            status="posted", direction="credit", amount=_money(disputed_amount), kind="provisional_credit",
            merchant="Larkspur Savings Bank", category="disputes", description=f"PROVISIONAL CREDIT {dispute_id}",
        ))
        dispute.provisional_credit = _money(disputed_amount)
        dispute.provisional_credit_txn_id = credit_id
    db.disputes[dispute_id] = dispute
    db.transactions[txn_id].dispute_id = dispute_id
    return dispute


# -- money movement --------------------------------------------------------------------
@DOMAIN.tool(write=True)
def transfer_between_accounts(
    db: BankDB,
    from_account_id: AccountId,
    to_account_id: AccountId,
    amount: float,
    purpose: Annotated[
        Literal["rent", "bills", "savings", "card_payment", "gift", "loan_repayment", "tuition", "other"],
        Field(description="what the transfer is for (stored)"),
    ],
) -> dict[str, Any]:
    """Move money now between two accounts of the same customer (a transfer to one's own
    credit card account is a card payment). Returns the transfer and both new balances."""
    src, dst = _account(db, from_account_id), _account(db, to_account_id)
    if src.customer_id != dst.customer_id:
        raise ToolError("both accounts must belong to the same customer; use transfer_to_payee for other people")
    if from_account_id == to_account_id:
        raise ToolError("the two accounts must differ")
    if dst.status != "open":
        raise ToolError(f"account {to_account_id} is {dst.status}")
    _check_outgoing(db, src, amount)
    if dst.type == "credit_card" and amount > dst.balance:
        raise ToolError(f"the payment exceeds the card balance owed of {dst.balance:.2f}")
    transfer_id = _transfer_id(db, from_account_id, to_account_id, amount, purpose)
    transfer = Transfer(
        transfer_id=transfer_id, customer_id=src.customer_id, from_account_id=from_account_id,
        to_account_id=to_account_id, amount=_money(amount), date=TODAY.isoformat(), purpose=purpose, status="completed",
    )
    db.transfers[transfer_id] = transfer
    day = TODAY.isoformat()
    _post(db, src, Transaction(
        txn_id=f"{transfer_id}-D", account_id=src.account_id, txn_date=day, posted_date=day, status="posted",
        direction="debit", amount=_money(amount), kind="transfer_out", merchant="Internal transfer",
        category="transfer", description=f"TRANSFER {transfer_id} {purpose.upper()}",
    ))
    _post(db, dst, Transaction(
        txn_id=f"{transfer_id}-C", account_id=dst.account_id, txn_date=day, posted_date=day, status="posted",
        direction="credit", amount=_money(amount), kind="payment" if dst.type == "credit_card" else "transfer_in",
        merchant="Internal transfer", category="transfer", description=f"TRANSFER {transfer_id} {purpose.upper()}",
    ))
    return {"transfer": transfer, "from_balance": src.balance, "to_balance": dst.balance}


@DOMAIN.tool(write=True)
def transfer_to_payee(
    db: BankDB,
    from_account_id: AccountId,
    payee_id: Annotated[str, Field(description="a saved payee's id, e.g. 'PAY30012'")],
    amount: float,
    purpose: Annotated[
        Literal["rent", "bills", "savings", "card_payment", "gift", "loan_repayment", "tuition", "other"],
        Field(description="what the transfer is for (stored)"),
    ],
) -> dict[str, Any]:
    """Send money now from a checking or savings account to one of the customer's saved,
    active payees, within the tier's daily payee limit."""
    src = _account(db, from_account_id)
    payee = db.payees.get(payee_id)
    if payee is None or payee.customer_id != src.customer_id:
        raise ToolError(f"no saved payee {payee_id!r} for this customer")
    if payee.status != "active":
        raise ToolError(f"payee {payee_id} is inactive")
    _check_outgoing(db, src, amount)
    customer = _customer(db, src.customer_id)
    limit = DAILY_PAYEE_LIMIT[customer.tier]
    used = _payee_total_today(db, customer.customer_id)
    if used + amount > limit:
        raise ToolError(f"over the daily payee limit: {limit:.2f} for {customer.tier}, {used:.2f} used today, {limit - used:.2f} remaining")
    transfer_id = _transfer_id(db, from_account_id, payee_id, amount, purpose)
    transfer = Transfer(
        transfer_id=transfer_id, customer_id=customer.customer_id, from_account_id=from_account_id,
        payee_id=payee_id, amount=_money(amount), date=TODAY.isoformat(), purpose=purpose, status="completed",
    )
    db.transfers[transfer_id] = transfer
    day = TODAY.isoformat()
    _post(db, src, Transaction(
        txn_id=f"{transfer_id}-D", account_id=src.account_id, txn_date=day, posted_date=day, status="posted",
        direction="debit", amount=_money(amount), kind="transfer_out", merchant=payee.name,
        category="transfer", description=f"TRANSFER {transfer_id} {purpose.upper()}",
    ))
    return {"transfer": transfer, "from_balance": src.balance, "remaining_daily_limit": _money(limit - used - amount)}


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
    account = _account(db, account_id)
    if kind == "low_balance" and account.type == "credit_card":
        raise ToolError("low-balance alerts are for checking and savings accounts")
    if kind == "payment_due" and account.type != "credit_card":
        raise ToolError("payment-due alerts are for credit card accounts")
    if kind == "payment_due":
        if threshold is not None:
            raise ToolError("payment-due alerts take no threshold")
    elif threshold is None:
        raise ToolError(f"{kind} alerts need a threshold")
    elif kind == "low_balance" and not 10 <= threshold <= 5000:
        raise ToolError("a low-balance threshold must be between 10 and 5000")
    elif kind == "large_transaction" and not 50 <= threshold <= 25000:
        raise ToolError("a large-transaction threshold must be between 50 and 25000")
    alert_id = f"ALR-{account_id[3:]}-{kind.upper().replace('_', '')}"
    alert = db.alerts.get(alert_id)
    if alert is None:
        alert = Alert(alert_id=alert_id, account_id=account_id, customer_id=account.customer_id, kind=kind,
                      threshold=threshold, channel=channel, active=True)
        db.alerts[alert_id] = alert
    else:
        alert.threshold, alert.channel, alert.active = threshold, channel, True
    return alert


@DOMAIN.tool(write=True)
def remove_alert(db: BankDB, alert_id: Annotated[str, Field(description="the alert's id (from list_alerts)")]) -> Alert:
    """Turn an alert off."""
    alert = db.alerts.get(alert_id)
    if alert is None:
        raise ToolError(f"no alert {alert_id!r}")
    if not alert.active:
        raise ToolError(f"alert {alert_id} is already off")
    alert.active = False
    return alert


@DOMAIN.tool(write=True)
def refund_fee(
    db: BankDB,
    txn_id: Annotated[str, Field(description="the fee transaction's id")],
) -> dict[str, Any]:
    """Refund a posted fee to the account it was charged to. Only overdraft, monthly maintenance
    and non-Larkspur ATM fees posted within the last 90 days can be refunded; an overdraft fee
    only while the account balance is not negative. Records the date of overdraft refunds."""
    fee = _txn(db, txn_id)
    if fee.kind != "fee" or fee.fee_type is None:
        raise ToolError(f"transaction {txn_id} is not a fee")
    if fee.refunded:
        raise ToolError(f"fee {txn_id} was already refunded")
    if fee.fee_type not in REFUNDABLE_FEES:
        raise ToolError(f"{fee.fee_type} fees are not refundable")
    age = (TODAY - date.fromisoformat(fee.posted_date or fee.txn_date)).days
    if age > FEE_REFUND_WINDOW_DAYS:
        raise ToolError(f"the fee posted {fee.posted_date}, {age} days ago; fees older than {FEE_REFUND_WINDOW_DAYS} days cannot be refunded")
    account = _account(db, fee.account_id)
    if fee.fee_type == "overdraft" and account.balance < 0:
        raise ToolError(f"the account balance is {account.balance:.2f}; bring it to zero or above before an overdraft fee refund")
    refund = Transaction(
        txn_id=f"RF-{txn_id[2:]}", account_id=account.account_id, txn_date=TODAY.isoformat(), posted_date=TODAY.isoformat(),
        status="posted", direction="credit", amount=fee.amount, kind="fee_refund", merchant="Larkspur Savings Bank",
        category="fees", description=f"FEE REFUND {txn_id} {fee.description}",
    )
    _post(db, account, refund)
    db.transactions[txn_id].refunded = True
    if fee.fee_type == "overdraft":
        _customer(db, account.customer_id).last_overdraft_refund_date = TODAY.isoformat()
    return {"refund": refund, "new_balance": account.balance}


@DOMAIN.tool(write=True)
def update_contact_info(
    db: BankDB,
    customer_id: CustomerId,
    email: Annotated[str | None, Field(description="new email address")] = None,
    phone: Annotated[str | None, Field(description="new phone number as +1-NNN-NNN-NNNN")] = None,
) -> Customer:
    """Change a customer's email address and/or phone number (not the mailing address)."""
    customer = _customer(db, customer_id)
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


@DOMAIN.tool
def calculate(db: BankDB, expression: Annotated[str, Field(description="e.g. '1250.40 + 318.75'")]) -> str:
    """Evaluate an arithmetic expression (numbers, + - * / and parentheses), rounded to 2 decimals."""
    return _calculate(expression)


@DOMAIN.tool(transfer=True)
def transfer_to_human_agents(
    db: BankDB, summary: Annotated[str, Field(description="a short summary of the customer's issue for the human agent")]
) -> str:
    """Transfer the caller to a human agent, with a summary. Only in the cases the policy lists."""
    return "Transfer successful"
