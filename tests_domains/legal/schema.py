"""The matter desk's database: Calder Voss & Ng LLP's clients, matters, court calendars, documents and bills."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, Formatted, FreeText, Table, Unordered

Access = Literal["full", "billing"]
PracticeArea = Literal["business_litigation", "employment", "real_estate", "family", "estate_planning", "personal_injury"]
Role = Literal["partner", "senior_associate", "associate", "paralegal"]
Privilege = Literal["none", "attorney_client", "work_product"]


class Contact(BaseModel):
    contact_id: str
    name: Formatted
    email: str
    phone: str
    title: str
    access: Access


class Client(BaseModel):
    client_id: str
    kind: Literal["individual", "organization"]
    name: str
    date_of_birth: Confidential[str | None] = None
    email: str
    phone: str
    city: str
    state: str
    client_since: str
    standing_discount_percent: int
    contacts: Unordered[Contact]
    internal_notes: Confidential[str] = ""  # the firm's own credit, collection and referral notes: never told to the client side


class Party(BaseModel):
    name: str
    role: Literal["client", "adverse", "co_party", "related"]


class CourtEvent(BaseModel):
    event_id: str
    kind: Literal["complaint_served", "motion_served", "discovery_served", "judgment_entered"]
    date: str
    service_method: Literal["personal", "mail", "electronic", "entry"]
    description: str


class Matter(BaseModel):
    matter_id: str
    client_id: str
    title: str
    practice_area: PracticeArea
    status: Literal["intake", "open", "closed"]
    opened_on: str
    closed_on: str | None = None
    responsible_attorney: str
    court_id: str | None = None
    case_number: str | None = None
    fee_arrangement: Literal["hourly", "flat_fee", "contingency"]
    discount_percent: int
    parties: Unordered[Party]
    events: list[CourtEvent]


class Holiday(BaseModel):
    date: str
    name: str


class Court(BaseModel):
    court_id: str
    name: str
    county: str
    holidays: list[Holiday]


class DocketEntry(BaseModel):
    docket_id: str
    matter_id: str
    event_id: str
    due_date: str
    description: FreeText
    docketed_on: str
    status: Literal["pending", "done"]


class Document(BaseModel):
    document_id: str
    matter_id: str
    title: str
    doc_type: str
    dated: str
    privilege: Privilege
    protective_order: bool
    pages: int


class Disclosure(BaseModel):
    disclosure_id: str
    matter_id: str
    document_ids: Unordered[str]
    recipient_name: FreeText
    recipient_email: str
    sent_on: str
    note: FreeText


class Timekeeper(BaseModel):
    timekeeper_id: str
    name: str
    role: Role
    bar_number: str | None = None


class FeeSchedule(BaseModel):
    schedule_id: str
    effective_from: str
    effective_to: str | None = None
    hourly_rates: dict[str, float]
    retainers: dict[str, float]


class InvoiceLine(BaseModel):
    line_no: int
    date: str
    timekeeper_id: str
    hours: float
    rate: float
    amount: float
    description: str


class Invoice(BaseModel):
    invoice_id: str
    matter_id: str
    issued_on: str
    due_on: str
    lines: list[InvoiceLine]
    total: float
    credits: float
    payments: float
    balance: float
    status: Literal["open", "paid", "disputed"]


class CreditNote(BaseModel):
    credit_id: str
    invoice_id: str
    line_numbers: Unordered[int]
    amount: float
    issued_on: str
    reason: FreeText


class Dispute(BaseModel):
    dispute_id: str
    invoice_id: str
    line_numbers: Unordered[int]
    opened_on: str
    raised_by: Formatted
    reason: FreeText
    status: Literal["open", "resolved"]


class TrustTransaction(BaseModel):
    date: str
    kind: Literal["deposit", "applied_to_invoice", "refund"]
    amount: float
    invoice_id: str | None = None


class TrustAccount(BaseModel):
    matter_id: str
    balance: float
    transactions: Unordered[TrustTransaction]


class EngagementLetter(BaseModel):
    letter_id: str
    matter_id: str
    fee_arrangement: Literal["hourly", "flat_fee", "contingency"]
    retainer: float
    sent_to_email: str
    sent_on: str
    status: Literal["sent", "signed"]


class LegalDB(BaseModel):
    clients: Table[Client]
    matters: Table[Matter]
    courts: Table[Court]
    docket: Table[DocketEntry]
    documents: Table[Document]
    disclosures: Table[Disclosure]
    timekeepers: Table[Timekeeper]
    fee_schedules: Table[FeeSchedule]
    invoices: Table[Invoice]
    credit_notes: Table[CreditNote]
    disputes: Table[Dispute]
    trust_accounts: Table[TrustAccount]
    engagement_letters: Table[EngagementLetter]
