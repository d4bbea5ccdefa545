"""Granite & Gable Builders, the permit and project office of a residential general contractor:
the database (one table per field).

Owners hold projects; a project has phases, an inspection plan (the inspections its work needs, in
the order the building department takes them), permits and the documents filed for them. Inspections
keep their pass/fail history; inspectors publish a calendar of slots. Change orders change a project's
contract value and completion date once the owner approves them. Subcontractors hold subcontracts with a
retainage rate; they bill through monthly payment applications and are paid against lien waivers.
Site-safety incidents are records of their own.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, FreeText, Table, Unordered

PermitType = Literal["building", "electrical", "plumbing", "mechanical", "demolition"]
InspectionType = Literal["footing", "foundation", "framing", "rough_electrical", "rough_plumbing", "rough_mechanical",
                         "insulation", "drywall", "final"]
Discipline = Literal["building", "electrical", "plumbing", "mechanical"]


class Owner(BaseModel):
    owner_id: str  # e.g. "OW-20418"
    first_name: str
    last_name: str
    email: str
    phone: str
    date_of_birth: Confidential[str]
    mailing_address: str


class Phase(BaseModel):
    name: str  # e.g. "Framing"
    status: Literal["not_started", "in_progress", "complete"]
    planned_start: str
    planned_end: str


class Project(BaseModel):
    project_id: str  # the job number on the contract, e.g. "GG-24117"
    owner_id: str
    name: str  # e.g. "Okafor ADU"
    project_type: Literal["new_home", "addition", "adu", "kitchen_remodel", "garage_conversion", "deck", "bathroom_remodel"]
    site_address: str
    city: str
    zip_code: str
    status: Literal["preconstruction", "active", "closed"]
    project_manager: str
    original_contract_value: float
    contract_value: float  # original plus approved change orders
    start_date: str
    scheduled_completion: str
    inspection_plan: list[InspectionType]  # the inspections this project's work needs
    phases: list[Phase]


class Document(BaseModel):
    document_id: str
    project_id: str
    doc_type: str  # e.g. "site_plan", "load_calculation"
    title: str
    received_on: str
    expires_on: str | None = None
    status: Literal["accepted", "rejected"]


class PermitKind(BaseModel):
    permit_type: PermitType
    description: str
    required_documents: list[str]  # doc_type values
    base_fee: float
    fee_per_thousand: float  # per $1,000 of contract value
    valid_days: int


class Permit(BaseModel):
    permit_id: str  # e.g. "BLD-26-04113"
    project_id: str
    permit_type: PermitType
    status: Literal["submitted", "issued", "expired"]
    applied_on: str
    issued_on: str | None = None
    expires_on: str | None = None
    fee: float


class Inspector(BaseModel):
    inspector_id: str  # e.g. "INS-07"
    first_name: str
    last_name: str
    disciplines: Unordered[Discipline]
    cities: Unordered[str]  # cities whose sites this inspector covers
    phone: str


class Slot(BaseModel):
    slot_id: str  # e.g. "SL-INS07-0416-0930"
    inspector_id: str
    date: str
    start_time: str  # HH:MM
    status: Literal["open", "booked"]


class InspectionAttempt(BaseModel):
    date: str
    inspector_id: str
    result: Literal["passed", "failed"]
    notes: FreeText = ""


class Inspection(BaseModel):
    inspection_id: str
    project_id: str
    inspection_type: InspectionType
    status: Literal["scheduled", "passed", "failed", "cancelled"]
    slot_id: str | None = None  # the booked slot while scheduled
    date: str | None = None
    start_time: str | None = None
    inspector_id: str | None = None
    history: Unordered[InspectionAttempt] = []


class ChangeOrder(BaseModel):
    change_order_id: str  # e.g. "CO-24117-03"
    project_id: str
    title: str
    description: FreeText
    requested_by: Literal["owner", "contractor", "subcontractor"]
    cost_change: float  # negative for a credit
    schedule_days: int  # working days added to the completion date
    status: Literal["pending_owner", "approved", "rejected"]
    submitted_on: str
    decided_on: str | None = None
    decision_note: FreeText = ""


class Subcontractor(BaseModel):
    sub_id: str  # e.g. "SUB-118"
    company_name: str
    trade: str
    contact_first_name: str
    contact_last_name: str
    email: str
    phone: str
    license_number: Confidential[str]  # the state contractor's license number, e.g. "CSLB 1048372"


class Subcontract(BaseModel):
    subcontract_id: str  # e.g. "SC-24117-ELE"
    project_id: str
    sub_id: str
    scope: str
    contract_amount: float
    retainage_pct: float  # withheld from each payment application
    status: Literal["active", "complete"]


class PayApp(BaseModel):
    pay_app_id: str  # e.g. "PA-24117-ELE-04"
    subcontract_id: str
    number: int
    period_end: str  # last day of the month billed
    amount_billed: float  # value of work completed in the period
    retainage_withheld: float
    net_due: float
    status: Literal["submitted", "approved", "rejected", "paid"]
    submitted_on: str
    approved_on: str | None = None
    paid_on: str | None = None


class LienWaiver(BaseModel):
    waiver_id: str
    subcontract_id: str
    pay_app_id: str
    waiver_type: Literal["conditional_progress", "unconditional_progress"]
    amount: float
    through_date: str
    signed_by: str
    uploaded_on: str
    status: Literal["uploaded", "accepted", "rejected"]
    review_note: FreeText = ""


class Incident(BaseModel):
    incident_id: str
    project_id: str
    reported_by: str  # owner or subcontractor id
    category: Literal["near_miss", "first_aid", "recordable_injury", "property_damage"]
    occurred_on: str
    occurred_at: str  # HH:MM
    injured_persons: int
    description: FreeText
    filed_on: str
    follow_up_due: str  # the written investigation report
    status: Literal["open", "closed"]


class ConstructionDB(BaseModel):
    owners: Table[Owner]
    projects: Table[Project]
    documents: Table[Document]
    permit_kinds: Table[PermitKind]
    permits: Table[Permit]
    inspectors: Table[Inspector]
    slots: Table[Slot]
    inspections: Table[Inspection]
    change_orders: Table[ChangeOrder]
    subcontractors: Table[Subcontractor]
    subcontracts: Table[Subcontract]
    pay_apps: Table[PayApp]
    lien_waivers: Table[LienWaiver]
    incidents: Table[Incident]
