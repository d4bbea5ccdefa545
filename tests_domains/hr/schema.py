"""The HR desk's database: Kestrel Mills' employees, their leave, shifts, internal moves and benefits."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, Formatted, FreeText, Table, Unordered


class Blackout(BaseModel):
    start_date: str
    end_date: str
    reason: str


class Department(BaseModel):
    department_id: str
    name: str
    site: str
    shift_based: bool
    vacation_notice_days: int
    max_weekly_hours: int
    blackouts: list[Blackout]
    head_employee_id: str | None = None


class Address(BaseModel):
    street: Formatted
    city: Formatted
    state: str
    zip: str


class Dependent(BaseModel):
    name: Formatted
    relationship: Literal["spouse", "domestic_partner", "child"]
    date_of_birth: str
    supporting_document_id: str | None = None


class DirectDeposit(BaseModel):
    bank_name: str
    routing_number: str
    account_last4: str
    account_type: Literal["checking", "savings"]
    effective_date: str


class PendingDeposit(BaseModel):
    routing_number: str
    account_number: str
    account_type: Literal["checking", "savings"]
    effective_date: str
    requested_on: str


class Employee(BaseModel):
    employee_id: str
    first_name: str
    last_name: str
    preferred_name: str | None = None
    date_of_birth: Confidential[str]  # an authentication factor: never said (policy, "Confidential information")
    work_email: str
    ssn_last4: Confidential[str]
    personal_phone: str
    department_id: str
    job_title: str
    job_grade: str
    role_start_date: str
    hire_date: str
    employment_type: Literal["full_time", "part_time"]
    standard_day_hours: float
    status: Literal["active", "on_leave"]
    manager_id: str | None = None
    pay_type: Literal["hourly", "salaried"]
    pay_rate: float
    performance_rating: int | None = None
    rating_year: int | None = None
    on_performance_plan: bool
    home_address: Address
    address_verification_code: Confidential[str | None] = None  # texted to the employee; never read back (policy 1.4)
    address_proof_document_id: str | None = None  # the document cited for the last address change (policy 6.1)
    identity_verified: bool
    direct_deposit: DirectDeposit
    pending_direct_deposit: PendingDeposit | None = None
    dependents: Unordered[Dependent]
    record_notes: Unordered[str]


class LeaveBalance(BaseModel):
    employee_id: str
    vacation_hours: float
    sick_hours: float
    personal_hours: float
    vacation_accrual_per_period: float
    sick_accrual_per_period: float
    as_of: str


class TimeOffRequest(BaseModel):
    request_id: str
    employee_id: str
    leave_type: Literal["vacation", "sick", "personal"]
    start_date: str
    end_date: str
    half_day: Literal["morning", "afternoon"] | None = None
    hours: float
    status: Literal["pending", "approved", "denied", "cancelled", "taken"]
    submitted_on: str
    note: FreeText
    cancel_reason: FreeText | None = None


class Shift(BaseModel):
    shift_id: str
    department_id: str
    job_title: str
    employee_id: str
    date: str
    start: str
    end: str
    hours: float
    station: str


class SwapOffer(BaseModel):
    offer_id: str
    offered_by: str
    offered_to: str
    kind: Literal["swap", "cover"]
    give_shift_id: str | None = None
    take_shift_id: str
    status: Literal["pending", "accepted", "declined", "expired"]
    created_on: str
    message: FreeText
    decline_reason: FreeText | None = None


class JobPosting(BaseModel):
    posting_id: str
    title: str
    department_id: str
    job_grade: str
    site: str
    employment_type: Literal["full_time", "part_time"]
    pay_min: float
    pay_max: float
    pay_type: Literal["hourly", "salaried"]
    min_rating: int
    posted_on: str
    closes_on: str
    status: Literal["open", "closed", "filled"]
    hiring_manager_id: str
    summary: str


class Application(BaseModel):
    application_id: str
    employee_id: str
    posting_id: str
    status: Literal["submitted", "under_review", "interview", "offer", "withdrawn", "rejected"]
    submitted_on: str
    cover_note: FreeText
    manager_notified: bool
    withdraw_reason: FreeText | None = None


class Notification(BaseModel):
    notification_id: str
    recipient_id: str
    about_employee_id: str
    kind: Literal["internal_application", "application_withdrawn", "time_off_request", "shift_swap"]
    reference_id: str
    sent_on: str
    message: str


class BenefitPlan(BaseModel):
    plan_id: str
    plan_type: Literal["medical", "dental", "vision"]
    name: str
    carrier: str
    monthly_premium: dict[str, float]
    employer_share_full_time: float
    employer_share_part_time: float
    deductible: float | None = None
    summary: str


class Enrollment(BaseModel):
    enrollment_id: str
    employee_id: str
    plan_id: str
    plan_type: Literal["medical", "dental", "vision"]
    coverage_level: Literal["employee", "employee_spouse", "employee_children", "family"]
    per_paycheck_cost: float
    effective_date: str
    end_date: str | None = None
    status: Literal["active", "ended"]
    basis: str


class LifeEvent(BaseModel):
    event_id: str
    employee_id: str
    kind: Literal["marriage", "birth", "adoption", "divorce", "loss_of_other_coverage", "domestic_partnership"]
    event_date: str
    reported_on: str
    document_id: str | None = None


class Document(BaseModel):
    document_id: str
    employee_id: str
    doc_type: Literal["lease", "utility_bill", "mortgage_statement", "marriage_certificate", "birth_certificate",
                      "adoption_decree", "partnership_affidavit", "coverage_loss_letter", "voided_check"]
    status: Literal["verified", "pending", "rejected"]
    received_on: str
    detail: str


class HRDB(BaseModel):
    departments: Table[Department]
    employees: Table[Employee]
    leave_balances: Table[LeaveBalance]
    time_off_requests: Table[TimeOffRequest]
    shifts: Table[Shift]
    swap_offers: Table[SwapOffer]
    job_postings: Table[JobPosting]
    applications: Table[Application]
    notifications: Table[Notification]
    benefit_plans: Table[BenefitPlan]
    enrollments: Table[Enrollment]
    life_events: Table[LifeEvent]
    documents: Table[Document]
