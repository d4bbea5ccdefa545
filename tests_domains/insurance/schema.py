"""Harborline Mutual policyholder desk: the DB's records (auto and home lines)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, Formatted, Table, Unordered

Line = Literal["auto", "home"]
VehicleClass = Literal["economy", "standard", "suv", "truck", "minivan", "sports", "luxury"]
Relationship = Literal["named_insured", "spouse", "child", "parent", "other_household"]
CancelReason = Literal[
    "sold_vehicle", "sold_property", "moved_out_of_area", "switched_carrier", "cost", "no_longer_needed"
]
AutoLoss = Literal["collision", "theft", "vandalism", "glass", "hail", "animal_strike", "fire", "uninsured_motorist"]
HomeLoss = Literal["fire", "wind", "hail", "lightning", "water_damage", "water_backup", "theft", "vandalism", "earthquake", "flood"]


class Address(BaseModel):
    street: str
    city: str
    state: str
    zip: str


class Policyholder(BaseModel):
    policyholder_id: str
    first_name: str
    last_name: str
    date_of_birth: Confidential[str]
    # The credit-based insurance score underwriting rated the household with: an internal input the desk never discloses.
    insurance_score: Confidential[int]
    email: str
    phone: str
    address: Address
    member_since: str
    policy_numbers: Unordered[str]
    paperless: bool


class Coverage(BaseModel):
    code: str
    name: str
    limit_per_person: int | None = None
    limit_per_occurrence: int | None = None
    deductible: int | None = None


class Cancellation(BaseModel):
    effective_date: str
    reason: CancelReason
    earned_premium: float
    unearned_premium: float
    short_rate_fee: float
    refund_amount: float
    amount_due: float


class Policy(BaseModel):
    policy_number: str
    line: Line
    policyholder_id: str
    status: Literal["active", "cancelled", "expired"]
    effective_date: str
    expiration_date: str
    term_months: int
    term_premium: float
    premium_paid: float
    payment_plan: Literal["paid_in_full", "monthly"]
    coverages: list[Coverage]
    discounts: list[str]
    vehicle_ids: Unordered[str]  # appended by independent adds: order carries no meaning
    driver_ids: Unordered[str]
    property_id: str | None = None
    cancellation: Cancellation | None = None


class Vehicle(BaseModel):
    vehicle_id: str
    policy_number: str
    vin: str
    year: int
    make: str
    model: str
    vehicle_class: VehicleClass
    garaging_zip: str
    status: Literal["active", "removed"]
    added_on: str
    removed_on: str | None = None


class Driver(BaseModel):
    driver_id: str
    policy_number: str
    first_name: Formatted  # as the caller spells it: compared without case or punctuation
    last_name: Formatted
    date_of_birth: str
    license_number: str
    license_state: str
    relationship: Relationship
    status: Literal["active", "removed"]
    added_on: str
    removed_on: str | None = None


class Property(BaseModel):
    property_id: str
    policy_number: str
    address: Address
    year_built: int
    construction: Literal["frame", "masonry", "brick_veneer", "log"]
    square_feet: int
    roof_year: int
    protection_class: int
    dwelling_type: Literal["single_family", "townhouse"]


class VehicleModel(BaseModel):
    model_id: str
    make: str
    model: str
    vehicle_class: VehicleClass


class Adjuster(BaseModel):
    adjuster_id: str
    name: str
    phone: str
    email: str
    line: Line
    unit: Literal["fast_track", "field", "large_loss", "special_investigations"]


class Claim(BaseModel):
    claim_id: str
    policy_number: str
    line: Line
    loss_type: str
    coverage_code: str
    date_of_loss: str
    reported_date: str
    status: Literal["open", "under_investigation", "approved", "paid", "denied", "closed_without_payment", "withdrawn"]
    estimated_amount: float
    deductible: int
    estimated_payout: float
    paid_amount: float
    vehicle_id: str | None = None
    property_id: str | None = None
    police_report_number: str | None = None
    adjuster_id: str | None = None
    denial_reason: str | None = None


class Endorsement(BaseModel):
    endorsement_id: str
    policy_number: str
    effective_date: str
    change_type: Literal["add_driver", "remove_driver", "add_vehicle", "remove_vehicle", "deductible_change"]
    detail: str
    term_premium_change: float
    prorated_change: float


class BillingTransaction(BaseModel):
    txn_id: str
    policy_number: str
    date: str
    kind: Literal["installment", "paid_in_full", "endorsement_charge", "endorsement_credit", "cancellation_refund", "cancellation_balance_due"]
    amount: float
    memo: str


class InsuranceDB(BaseModel):
    policyholders: Table[Policyholder]
    policies: Table[Policy]
    vehicles: Table[Vehicle]
    drivers: Table[Driver]
    properties: Table[Property]
    vehicle_models: Table[VehicleModel]
    adjusters: Table[Adjuster]
    claims: Table[Claim]
    endorsements: Table[Endorsement]
    billing: Table[BillingTransaction]
