"""Relaypoint web-task desk: the database (pydantic models, one table per field).

Sites, pages and forms are simulated records; nothing here is ever fetched.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, Table, Unordered

Plan = Literal["basic", "plus", "business"]
Channel = Literal["email", "sms"]
Schedule = Literal["once", "daily", "weekly"]


class Customer(BaseModel):
    customer_id: str
    first_name: str
    last_name: str
    email: str
    date_of_birth: Confidential[str]  # YYYY-MM-DD
    phone: str
    plan: Plan
    status: Literal["active", "suspended"]
    member_since: str  # YYYY-MM-DD
    billing_day: int  # day of the month the plan renews (1-28)


class Site(BaseModel):
    site_id: str
    name: str
    host: str  # a label only: never fetched
    category: Literal["government", "retail", "real_estate", "jobs", "travel", "utilities", "events"]
    disallowed_paths: Unordered[str]  # the site's robots rules: path prefixes no automation may fetch
    max_requests_per_minute: int  # the crawl rate the site's robots rules permit
    captcha_on_forms: bool
    login_paths: Unordered[str]  # path prefixes that sit behind the site's own login


class Listing(BaseModel):
    """One entry a listing page shows (a rental, a job, a product, an event)."""

    title: str
    price: float
    posted_on: str  # YYYY-MM-DD


class Page(BaseModel):
    page_id: str
    site_id: str
    path: str
    title: str
    kind: Literal["form", "listing", "article", "status", "product"]
    last_changed_at: str  # YYYY-MM-DDTHH:MM (UTC)
    item_count: int | None = None  # listings: how many items the page lists
    items: list[Listing] = []  # listings: the entries on its first screen (at most 20), what an extraction reads
    status_text: str | None = None  # status pages: what the page says now


class FormField(BaseModel):
    name: str  # the key a submission uses
    label: str
    type: Literal["text", "date", "select", "number", "email", "phone"]
    required: bool
    personal: bool  # personal data: only the customer may supply it
    max_length: int | None = None
    allowed_values: list[str] | None = None  # select fields: the exact options
    date_format: Literal["YYYY-MM-DD", "MM/DD/YYYY", "DD/MM/YYYY"] | None = None


class Form(BaseModel):
    form_id: str
    site_id: str
    page_id: str
    name: str
    site_fee: float  # what the site charges per submission, passed on to the customer
    fields: list[FormField]
    updates_page: str | None = None  # a status page the site updates when it receives a submission


class FieldValue(BaseModel):
    name: str
    value: str


class Submission(BaseModel):
    submission_id: str
    customer_id: str
    form_id: str
    values: Unordered[FieldValue]
    submitted_at: str  # YYYY-MM-DDTHH:MM (UTC)
    status: Literal["submitted", "accepted", "rejected"]
    fee_charged: float


class Monitor(BaseModel):
    monitor_id: str
    customer_id: str
    page_id: str
    interval_hours: int
    channel: Channel
    keyword: str | None = None  # alert only when a change contains this word
    status: Literal["active", "paused", "deleted"]
    created_at: str


class ChangeAlert(BaseModel):
    alert_id: str
    monitor_id: str
    detected_at: str  # YYYY-MM-DDTHH:MM (UTC)
    summary: str


class ExtractionJob(BaseModel):
    job_id: str
    customer_id: str
    site_id: str
    path_prefix: str
    max_pages: int
    requests_per_minute: int
    schedule: Schedule
    status: Literal["scheduled", "completed", "cancelled"]
    created_at: str
    last_run_at: str | None = None  # YYYY-MM-DDTHH:MM (UTC) of the last run
    rows_last_run: int | None = None  # how many rows the last run returned


class Charge(BaseModel):
    charge_id: str
    customer_id: str
    kind: Literal["plan_renewal", "plan_upgrade", "site_fee"]
    amount: float
    date: str
    description: str


class WebDB(BaseModel):
    customers: Table[Customer]
    sites: Table[Site]
    pages: Table[Page]
    forms: Table[Form]
    submissions: Table[Submission]
    monitors: Table[Monitor]
    change_alerts: Table[ChangeAlert]
    extraction_jobs: Table[ExtractionJob]
    charges: Table[Charge]


class PlanTerms(BaseModel):
    """One plan's price and limits (the price list the policy quotes)."""

    monthly_price: float
    max_active_monitors: int
    min_interval_hours: int
    max_requests_per_minute: int
    max_pages_per_job: int
    submissions_per_month: int


PLANS: dict[str, PlanTerms] = {
    "basic": PlanTerms(monthly_price=9.0, max_active_monitors=3, min_interval_hours=24, max_requests_per_minute=10,
                       max_pages_per_job=200, submissions_per_month=5),
    "plus": PlanTerms(monthly_price=29.0, max_active_monitors=10, min_interval_hours=6, max_requests_per_minute=30,
                      max_pages_per_job=2000, submissions_per_month=30),
    "business": PlanTerms(monthly_price=79.0, max_active_monitors=40, min_interval_hours=1, max_requests_per_minute=120,
                          max_pages_per_job=20000, submissions_per_month=250),
}
