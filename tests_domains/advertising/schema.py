"""Lumenreach Ads, the advertiser support desk of a self-serve ad platform: the database.

Advertiser accounts own campaigns (a daily budget, spend to date and today's spend so far, a
declared ad category); campaigns hold ad sets (audience targeting) and ad sets hold creatives
(each with its own review status). A/B experiments compare creatives of one campaign, with
delivery counts per variant. Invoices bill delivered spend: each day's spend accrues on the
account, and an invoice is raised the day after the accrued spend reaches the account's billing
threshold, or on the 1st of a month for what accrued in the month before, itemised by campaign;
so an account's invoices and its unbilled spend add up to what its campaigns delivered.
Invalid-traffic (IVT) reports list clicks the platform later found invalid, and credits are
issued against them (a credit on the account balance is deducted from the next invoice).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, FreeText, Table, Unordered

Category = Literal["general", "alcohol", "gambling", "dating", "weight_loss", "financial_services"]


class Advertiser(BaseModel):
    advertiser_id: str  # account number shown in the ads manager, e.g. "LR-4821-9930"
    business_name: str
    contact_first_name: str
    contact_last_name: str
    email: str
    phone: str
    country: str
    created_on: str
    status: Literal["active", "suspended"]
    card_brand: str
    card_last4: str
    billing_threshold: float  # accrued spend at which an invoice is raised
    credit_balance: float  # IVT credits waiting to be applied to the next invoice
    unbilled_spend: float  # spend delivered through yesterday that no invoice bills yet
    threshold_changed_on: str | None = None
    # Trust & safety's internal note from its last review of the account (dated, with the reviewer): the desk may
    # read it, never tell it, not even to the account's owner (policy, confidential information).
    risk_review_note: Confidential[str]


class Campaign(BaseModel):
    campaign_id: str
    advertiser_id: str
    name: str
    objective: Literal["conversions", "traffic", "awareness", "app_installs"]
    category: Category
    status: Literal["active", "paused", "ended"]
    start_date: str
    end_date: str
    daily_budget: float
    spend_to_date: float  # through yesterday
    spend_today: float  # today so far
    budget_changed_on: str | None = None


class AdSet(BaseModel):
    ad_set_id: str
    campaign_id: str
    name: str
    min_age: int
    max_age: int
    countries: Unordered[str]
    interests: Unordered[str]
    status: Literal["active", "paused"]


class Creative(BaseModel):
    creative_id: str
    ad_set_id: str
    name: str
    format: Literal["image", "video", "carousel"]
    headline: str
    review_status: Literal["approved", "pending_review", "rejected"]
    rejection_reason: Literal["prohibited_content", "misleading_claim", "text_overlay", "broken_landing_page"] | None = None
    submissions: int  # times sent to review, the first one included
    delivering: bool
    landing_url: str


class Variant(BaseModel):
    label: str  # "A" is the control
    creative_id: str
    impressions: int
    clicks: int
    conversions: int


class Experiment(BaseModel):
    experiment_id: str
    campaign_id: str
    name: str
    metric: Literal["conversion_rate", "click_through_rate"]
    started_on: str
    status: Literal["running", "concluded"]
    variants: list[Variant]
    winner: str | None = None
    concluded_on: str | None = None


class InvoiceLine(BaseModel):
    campaign_id: str
    amount: float  # the campaign's delivered spend in the invoice's period


class Invoice(BaseModel):
    invoice_id: str
    advertiser_id: str
    # what raised it: the accrued spend reached the billing threshold, or the month closed
    reason: Literal["threshold", "monthly"]
    period_start: str  # the first and last day of delivered spend it bills
    period_end: str
    issued_on: str  # the day after period_end
    due_on: str
    amount: float  # the spend billed: the sum of its lines
    credits_applied: float  # IVT credits from the account balance deducted from it
    lines: list[InvoiceLine]
    status: Literal["paid", "open", "overdue"]
    paid_on: str | None = None


class IVTReport(BaseModel):
    report_id: str
    advertiser_id: str
    campaign_id: str
    period_start: str
    period_end: str
    total_clicks: int
    invalid_clicks: int
    cost_in_period: float  # what the campaign was charged for all clicks in the period
    status: Literal["under_review", "confirmed", "credited", "dismissed"]
    confirmed_on: str | None = None


class Credit(BaseModel):
    credit_id: str
    advertiser_id: str
    report_id: str
    amount: float
    destination: Literal["account_balance", "card_refund"]
    issued_on: str
    note: FreeText


class AdvertisingDB(BaseModel):
    advertisers: Table[Advertiser]
    campaigns: Table[Campaign]
    ad_sets: Table[AdSet]
    creatives: Table[Creative]
    experiments: Table[Experiment]
    invoices: Table[Invoice]
    ivt_reports: Table[IVTReport]
    credits: Table[Credit]
