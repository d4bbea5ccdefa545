"""Prairie Gold Cooperative member desk: members, fields, inputs, grain, storage, sprays and insurance claims."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, FreeText, Table, Unordered

Crop = Literal["corn", "soybeans", "wheat"]
Certification = Literal["conventional", "transitional", "organic"]


class Member(BaseModel):
    member_number: str
    first_name: str
    last_name: str
    farm_name: str
    date_of_birth: Confidential[str]
    email: str
    phone: str
    county: str
    state: str
    zip: str
    member_since: str
    credit_limit: float
    account_status: Literal["active", "credit_hold"]
    lien_holder: str | None = None


class FarmField(BaseModel):
    field_id: str
    member_number: str
    name: str
    county: str
    state: str
    acres: float
    crop: Crop
    certification: Certification
    setback_ft: int
    planned_harvest: str
    insured: bool
    policy_number: str | None = None


class WeatherEvent(BaseModel):
    event_id: str
    county: str
    state: str
    kind: Literal["hail", "windstorm", "flood", "early_frost"]
    event_date: str
    description: str


class Product(BaseModel):
    sku: str
    name: str
    category: Literal["seed", "fertilizer", "herbicide", "fungicide", "insecticide", "desiccant"]
    crops: Unordered[Crop]
    unit: str
    unit_price: float
    organic_approved: bool
    phi_days: int | None = None
    buffer_ft: int | None = None


class OrderLine(BaseModel):
    sku: str
    quantity: int
    unit_price: float
    amount: float


class InputOrder(BaseModel):
    order_id: str
    member_number: str
    field_id: str
    lines: Unordered[OrderLine]
    total: float
    placed_on: str
    delivery_start: str
    delivery_end: str
    status: Literal["open", "delivered", "cancelled"]


class Claim(BaseModel):
    claim_id: str
    member_number: str
    field_id: str
    event_id: str
    reported_on: str
    estimated_loss_percent: int
    description: FreeText
    status: Literal["reported", "adjuster_assigned", "closed"]


class GrainTicket(BaseModel):
    ticket_number: str
    member_number: str
    field_id: str
    crop: Crop
    delivered_on: str
    net_bushels: float
    moisture_percent: float
    test_weight: float
    status: Literal["unpriced", "settled", "stored"]
    settlement_id: str | None = None
    storage_contract_id: str | None = None


class Settlement(BaseModel):
    settlement_id: str
    member_number: str
    ticket_numbers: Unordered[str]
    storage_contract_id: str | None = None
    gross: float
    discounts: float
    storage_fees: float
    net_payment: float
    paid_on: str


class StorageContract(BaseModel):
    contract_id: str
    member_number: str
    crop: Crop
    bushels: float
    start_date: str
    rate_per_bushel_month: float
    status: Literal["open", "sold"]
    pledged_to: str | None = None
    ticket_numbers: Unordered[str] = []


class SprayRecord(BaseModel):
    record_id: str
    member_number: str
    field_id: str
    sku: str
    application_date: str
    acres: float
    applied_by: Literal["coop", "member"]
    earliest_harvest: str | None = None
    notes: FreeText = ""


class CashBid(BaseModel):
    crop: Crop
    price_per_bushel: float
    base_moisture: float
    base_test_weight: float


class AgDB(BaseModel):
    members: Table[Member]
    fields: Table[FarmField]
    weather_events: Table[WeatherEvent]
    products: Table[Product]
    orders: Table[InputOrder]
    claims: Table[Claim]
    grain_tickets: Table[GrainTicket]
    settlements: Table[Settlement]
    storage_contracts: Table[StorageContract]
    spray_records: Table[SprayRecord]
    cash_bids: Table[CashBid]
