"""Tallyhouse Bookkeeping, the client desk: the database (pydantic models, one table per field).

Each client company has its own chart of accounts, vendors, vendor invoices (bills) with
their approvals, payments made to vendors, bank statements with their lines, monthly
accounting periods and a budget per expense category and month.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, FreeText, Table, Unordered

Role = Literal["clerk", "manager", "controller", "owner"]
AccountType = Literal["asset", "liability", "equity", "revenue", "cost_of_sales", "expense"]
VendorKind = Literal["goods", "services", "software", "utilities", "rent", "travel"]


class Client(BaseModel):
    client_id: str
    client_code: str  # the reference the client's staff quote, e.g. "TH-4821"
    name: str
    industry: str
    state: str  # two-letter state where the client is based (decides its tax codes)
    city: str
    resale_certificate: bool  # a resale certificate is on file with us
    client_since: str
    bookkeeper: str  # the Tallyhouse bookkeeper assigned to the client
    # The client's federal Employer Identification Number, e.g. "47-2918365": kept for its tax filings, never read
    # out on the desk (policy, confidential information).
    ein: Confidential[str]


class Contact(BaseModel):
    contact_id: str
    client_id: str
    first_name: str
    last_name: str
    email: str
    phone: str
    title: str
    role: Role  # the approval role the client registered for this person
    active: bool


class LedgerAccount(BaseModel):
    account_id: str
    client_id: str
    code: str
    name: str
    type: AccountType
    bank_last4: str | None = None  # bank accounts only


class Vendor(BaseModel):
    vendor_id: str
    client_id: str
    name: str
    kind: VendorKind
    state: str  # where the vendor ships from / is based
    default_account_code: str
    payment_terms_days: int
    email: str


class TaxCode(BaseModel):
    code: str
    description: str
    rate_percent: float
    applies_to: str


class InvoiceLine(BaseModel):
    line_no: int
    description: str
    account_code: str
    amount: float  # before tax
    tax_code: str
    tax: float


class Approval(BaseModel):
    contact_id: str
    name: str
    role: Role
    date: str


class Invoice(BaseModel):
    invoice_id: str
    client_id: str
    vendor_id: str
    vendor_name: str
    vendor_invoice_number: str  # the number printed on the vendor's invoice
    invoice_date: str
    due_date: str
    lines: list[InvoiceLine]
    subtotal: float
    tax_total: float  # sales tax the vendor charges (GS- lines): part of what we owe the vendor
    use_tax: float = 0.0  # use tax self-assessed on USE- lines: owed to the state, never to the vendor
    total: float  # subtotal + tax_total, the payable
    status: Literal["awaiting_approval", "posted", "rejected"]
    submitted_by: str  # contact id of the person who entered the invoice
    approvals: Unordered[Approval] = []
    posting_date: str | None = None
    amount_paid: float = 0.0
    rejection_reason: Literal["duplicate", "wrong_amount", "not_ordered", "wrong_vendor"] | None = None
    rejection_note: FreeText | None = None


class Application(BaseModel):
    invoice_id: str
    amount: float
    date: str


class Payment(BaseModel):
    payment_id: str
    client_id: str
    vendor_id: str
    vendor_name: str
    bank_account_code: str
    date: str
    amount: float
    method: Literal["ach", "check", "wire", "card"]
    reference: str  # check number, ACH trace or wire confirmation
    applications: Unordered[Application] = []
    unapplied: float


class JournalEntry(BaseModel):
    entry_id: str
    client_id: str
    date: str
    debit_account_code: str
    credit_account_code: str
    amount: float
    memo: str
    source: Literal["deposit", "bank_charge", "adjustment"]


class Statement(BaseModel):
    statement_id: str
    client_id: str
    account_code: str
    month: str  # YYYY-MM
    opening_balance: float
    closing_balance: float
    status: Literal["open", "reconciled"]
    reconciled_by: str | None = None
    reconciled_date: str | None = None


class StatementLine(BaseModel):
    line_id: str
    statement_id: str
    client_id: str
    date: str
    description: str
    amount: float  # money in is positive, money out negative
    matched_to: str | None = None  # a payment id or a journal entry id


class Period(BaseModel):
    period_id: str
    client_id: str
    month: str  # YYYY-MM
    status: Literal["open", "closed"]
    closed_date: str | None = None


class Budget(BaseModel):
    budget_id: str
    client_id: str
    account_code: str
    month: str
    amount: float


class AccountingDB(BaseModel):
    clients: Table[Client]
    contacts: Table[Contact]
    accounts: Table[LedgerAccount]
    vendors: Table[Vendor]
    tax_codes: Table[TaxCode]
    invoices: Table[Invoice]
    payments: Table[Payment]
    journal: Table[JournalEntry]
    statements: Table[Statement]
    statement_lines: Table[StatementLine]
    periods: Table[Period]
    budgets: Table[Budget]
