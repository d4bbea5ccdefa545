"""The sales-operations desk's database: Calder & Finch Scientific's reps, territories, accounts, leads,
opportunities, price books, quotes, discount approvals and follow-up tasks."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, FreeText, Table, Unordered

Role = Literal["account_executive", "senior_account_executive", "sales_manager", "regional_director"]
Stage = Literal["prospecting", "discovery", "proposal", "negotiation", "closed_won", "closed_lost"]
LossReason = Literal["price", "competitor", "no_budget", "no_decision", "timing"]


class Rep(BaseModel):
    rep_id: str
    first_name: str
    last_name: str
    email: str
    phone: str
    role: Role
    territory_id: str | None = None
    region: str
    manager_rep_id: str | None = None
    discount_limit_pct: float
    status: Literal["active", "on_leave"]
    hire_date: str
    on_target_earnings: Confidential[int]  # Sales Compensation's figure: never told to anyone (policy 1.4)


class Territory(BaseModel):
    territory_id: str
    name: str
    region: str
    states: list[str]
    intake_rep_id: str
    manager_rep_id: str


class Address(BaseModel):
    street: str
    city: str
    state: str
    zip: str


class Account(BaseModel):
    account_id: str
    name: str
    sector: Literal["academic", "biotech", "pharma", "clinical", "government", "industrial"]
    segment: Literal["enterprise", "mid_market", "small_business"]
    billing_address: Address
    address_updated_on: str
    territory_id: str
    owner_rep_id: str
    named_account: bool
    price_book_id: str
    customer_since: str | None = None
    annual_spend: float


class Contact(BaseModel):
    contact_id: str
    account_id: str
    first_name: str
    last_name: str
    title: str
    email: str
    phone: str


class Lead(BaseModel):
    lead_id: str
    first_name: str
    last_name: str
    company: str
    sector: Literal["academic", "biotech", "pharma", "clinical", "government", "industrial"]
    segment: Literal["enterprise", "mid_market", "small_business"]
    title: str
    email: str
    phone: str
    address: Address
    state: str
    territory_id: str
    source: Literal["web_form", "trade_show", "webinar", "referral", "inbound_call", "partner"]
    status: Literal["new", "working", "nurturing", "qualified", "disqualified", "converted"]
    rating: Literal["hot", "warm", "cold"]
    owner_rep_id: str | None = None
    matched_account_id: str | None = None
    created_on: str
    last_activity_on: str | None = None
    assigned_on: str | None = None
    converted_opportunity_id: str | None = None
    interest: str


class StageChange(BaseModel):
    stage: Stage
    entered_on: str
    changed_by: str


class Opportunity(BaseModel):
    opportunity_id: str
    account_id: str
    name: FreeText
    owner_rep_id: str
    stage: Stage
    amount: float
    close_date: str
    created_on: str
    primary_contact_id: str | None = None
    decision_maker_contact_id: str | None = None
    procurement_contact_id: str | None = None
    budget_confirmed: bool = False
    competitor: str | None = None
    primary_quote_id: str | None = None
    loss_reason: LossReason | None = None
    stage_history: list[StageChange]
    source_lead_id: str | None = None


class StageRequirement(BaseModel):
    stage: Stage
    order: int
    required_fields: list[str]
    enterprise_extra_fields: list[str]


class Product(BaseModel):
    sku: str
    name: str
    family: str
    unit: str


class PriceBook(BaseModel):
    price_book_id: str
    name: str
    validity_days: int
    prices: dict[str, float]


class QuoteLine(BaseModel):
    sku: str
    product_name: str
    quantity: int
    unit_price: float
    discount_pct: float
    net_amount: float


class Quote(BaseModel):
    quote_id: str
    opportunity_id: str
    account_id: str
    owner_rep_id: str
    price_book_id: str
    status: Literal["draft", "pending_approval", "approved", "sent", "accepted", "rejected"]
    created_on: str
    expires_on: str
    lines: Unordered[QuoteLine]
    header_discount_pct: float
    list_total: float
    net_total: float
    effective_discount_pct: float
    approval_id: str | None = None
    sent_to_contact_id: str | None = None
    sent_on: str | None = None
    extension_count: int = 0


class Approval(BaseModel):
    approval_id: str
    quote_id: str
    requested_by: str
    approver_rep_id: str
    discount_pct: float
    status: Literal["pending", "approved", "rejected"]
    requested_on: str
    justification: FreeText


class FollowUp(BaseModel):
    followup_id: str
    owner_rep_id: str
    related_id: str
    subject: FreeText
    due_date: str
    status: Literal["open", "completed"]
    created_on: str
    completed_on: str | None = None


class SalesDB(BaseModel):
    reps: Table[Rep]
    territories: Table[Territory]
    accounts: Table[Account]
    contacts: Table[Contact]
    leads: Table[Lead]
    opportunities: Table[Opportunity]
    stage_requirements: Table[StageRequirement]
    products: Table[Product]
    price_books: Table[PriceBook]
    quotes: Table[Quote]
    approvals: Table[Approval]
    followups: Table[FollowUp]

