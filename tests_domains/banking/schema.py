"""Larkspur Savings Bank: the support line's database (pydantic models, one table per field)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, Table, Unordered

Tier = Literal["classic", "plus", "premier"]
Standing = Literal["good", "past_due", "restricted"]


class Address(BaseModel):
    street: str
    city: str
    state: str
    zip: str


class Customer(BaseModel):
    customer_id: str
    first_name: str
    last_name: str
    date_of_birth: Confidential[str]  # YYYY-MM-DD
    email: str
    phone: str
    address: Address
    tier: Tier
    standing: Standing
    member_since: str  # YYYY-MM-DD
    last_overdraft_refund_date: str | None = None
    account_ids: Unordered[str]  # the customer's accounts; their order means nothing


class Account(BaseModel):
    account_id: str
    customer_id: str
    type: Literal["checking", "savings", "credit_card"]
    product_name: str
    account_number_last4: str
    status: Literal["open", "frozen", "closed"]
    opened_date: str
    # checking/savings: money in the account (may be negative after an overdraft);
    # credit_card: the amount owed.
    balance: float
    credit_limit: float | None = None
    payment_due_date: str | None = None
    minimum_payment_due: float | None = None


class Card(BaseModel):
    card_id: str
    customer_id: str
    account_id: str
    kind: Literal["debit", "credit"]
    network: Literal["Visa", "Mastercard"]
    last4: str
    expiry: str  # MM/YY
    status: Literal["active", "locked", "lost_stolen", "replaced", "closed"]
    issued_date: str
    lock_reason: Literal["misplaced", "suspicious_activity", "travel", "customer_request", "reported lost", "reported stolen"] | None = None
    replaces_card_id: str | None = None
    replaced_by_card_id: str | None = None
    shipping: Literal["standard", "expedited"] | None = None


class Transaction(BaseModel):
    txn_id: str
    account_id: str
    card_id: str | None = None
    txn_date: str
    posted_date: str | None = None  # None while pending
    status: Literal["pending", "posted"]
    direction: Literal["debit", "credit"]
    amount: float
    kind: Literal[
        "purchase",
        "refund",
        "deposit",
        "atm_withdrawal",
        "fee",
        "transfer_in",
        "transfer_out",
        "payment",
        "interest",
        "fee_refund",
        "provisional_credit",
    ]
    merchant: str
    category: str
    description: str
    fee_type: Literal[
        "overdraft", "monthly_maintenance", "foreign_atm", "card_replacement", "expedited_shipping"
    ] | None = None
    refunded: bool = False
    dispute_id: str | None = None


class Dispute(BaseModel):
    dispute_id: str
    txn_id: str
    account_id: str
    customer_id: str
    reason: Literal["unauthorized", "duplicate_charge", "incorrect_amount", "merchandise_not_received", "canceled_recurring"]
    merchant_contacted: bool
    disputed_amount: float
    filed_date: str
    status: Literal["open", "resolved_customer_favor", "resolved_merchant_favor"]
    provisional_credit: float
    provisional_credit_txn_id: str | None = None


class Payee(BaseModel):
    payee_id: str
    customer_id: str
    name: str
    bank_name: str
    account_last4: str
    nickname: str
    added_date: str
    status: Literal["active", "inactive"]


class Transfer(BaseModel):
    transfer_id: str
    customer_id: str
    from_account_id: str
    to_account_id: str | None = None
    payee_id: str | None = None
    amount: float
    date: str
    purpose: Literal["rent", "bills", "savings", "card_payment", "gift", "loan_repayment", "tuition", "other"]
    status: Literal["completed", "scheduled", "canceled"]


class Alert(BaseModel):
    alert_id: str
    account_id: str
    customer_id: str
    kind: Literal["low_balance", "large_transaction", "payment_due"]
    threshold: float | None = None
    channel: Literal["sms", "email", "push"]
    active: bool


class BankDB(BaseModel):
    customers: Table[Customer]
    accounts: Table[Account]
    cards: Table[Card]
    transactions: Table[Transaction]
    disputes: Table[Dispute]
    payees: Table[Payee]
    transfers: Table[Transfer]
    alerts: Table[Alert]
