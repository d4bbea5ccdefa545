"""The loan servicing desk's database: borrowers, products and their rate sheet,
applications, loans, and each loan's payments, fees and deferrals."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, FreeText, Table, Unordered


class BankAccount(BaseModel):
    account_id: str
    bank_name: str
    account_type: Literal["checking", "savings"]
    routing_number: str
    account_last4: str
    verified: bool
    added_date: str


class Borrower(BaseModel):
    borrower_id: str
    first_name: str
    last_name: str
    date_of_birth: Confidential[str]
    ssn_last4: Confidential[str]
    email: str
    phone: str
    street: str
    city: str
    state: str
    zip: str
    credit_score: int
    credit_score_date: str
    bank_accounts: Unordered[BankAccount]
    loan_numbers: Unordered[str]
    application_ids: Unordered[str]


class Product(BaseModel):
    product_id: str
    name: str
    kind: Literal["personal", "auto"]
    terms_months: list[int]
    min_amount: float
    max_amount: float
    min_monthly_income: float
    max_dti_pct: float
    origination_fee_pct: float
    prepayment_fee_pct: float
    prepayment_fee_window_months: int
    late_fee: float
    grace_days: int
    accepts_phone_applications: bool


class RateTier(BaseModel):
    tier_id: str
    product_id: str
    band: Literal["A", "B", "C", "D"]
    min_score: int
    max_score: int
    apr: float
    max_amount: float


Purpose = Literal[
    "debt_consolidation", "home_improvement", "medical", "major_purchase", "vehicle_purchase", "vehicle_refinance",
    "vehicle_repair", "moving", "wedding", "education", "vacation", "other",
]
Hardship = Literal["job_loss", "reduced_income", "medical", "disaster", "death_in_family"]
WithdrawalReason = Literal["found_better_rate", "no_longer_needed", "changing_amount_or_terms", "other"]


class Application(BaseModel):
    application_id: str
    borrower_id: str
    product_id: str
    requested_amount: float
    term_months: int
    stated_monthly_income: float
    stated_monthly_debts: float
    purpose: Purpose
    credit_score: int
    credit_band: str | None
    dti_pct: float
    status: Literal["approved", "declined", "booked", "withdrawn", "expired"]
    decision_reason: str
    apr: float | None
    estimated_payment: float | None
    submitted_date: str
    offer_expires: str | None
    loan_number: str | None
    withdrawal_reason: WithdrawalReason | None = None


class Vehicle(BaseModel):
    vin: str
    year: int
    make: str
    model: str


class Loan(BaseModel):
    loan_number: str
    borrower_id: str
    product_id: str
    application_id: str
    status: Literal["current", "past_due", "paid_off"]
    original_principal: float
    origination_fee: float
    disbursed_amount: float
    disbursement_account_id: str | None
    origination_date: str
    term_months: int
    base_apr: float
    apr: float
    monthly_payment: float
    first_due_date: str
    next_due_date: str | None
    maturity_date: str
    principal_balance: float
    interest_paid_through: str
    deferred_interest: float
    past_due_amount: float
    days_past_due: int
    late_fees_due: float
    payments_made: int
    deferrals_used: int
    autopay: bool
    autopay_account_id: str | None
    paid_off_date: str | None
    vehicle: Vehicle | None


class Payment(BaseModel):
    payment_id: str
    loan_number: str
    posted_date: str
    kind: Literal["scheduled", "extra_principal", "payoff"]
    amount: float
    principal: float
    interest: float
    fees: float
    bank_account_id: str
    channel: Literal["autopay", "online", "phone"]


class Fee(BaseModel):
    fee_id: str
    loan_number: str
    kind: Literal["late", "prepayment"]
    amount: float
    assessed_date: str
    status: Literal["due", "paid", "waived"]
    waiver_reason: FreeText | None = None


class Deferral(BaseModel):
    deferral_id: str
    loan_number: str
    granted_date: str
    from_due_date: str
    to_due_date: str
    interest_added: float
    hardship: Hardship


class LoansDB(BaseModel):
    borrowers: Table[Borrower]
    products: Table[Product]
    rate_tiers: Table[RateTier]
    applications: Table[Application]
    loans: Table[Loan]
    payments: Table[Payment]
    fees: Table[Fee]
    deferrals: Table[Deferral]
