"""Meridian Parcel, the shipper desk's database (pydantic models, one table per field)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, FreeText, Table, Unordered

Status = Literal[
    "label_created", "picked_up", "in_transit", "out_for_delivery", "delivered",
    "delivery_exception", "held_at_facility", "returning",
]
EventCode = Literal[
    "label_created", "picked_up", "arrived_hub", "departed_hub", "out_for_delivery", "delivered",
    "delivery_attempted", "address_changed", "redelivery_scheduled", "service_changed", "held_for_pickup",
    "return_to_sender",
]


class Address(BaseModel):
    street: str
    city: str
    state: str
    zip: str


class Shipper(BaseModel):
    shipper_id: str
    company: str
    contact_first_name: str
    contact_last_name: str
    email: str
    phone: str
    billing_address: Address
    tier: Literal["standard", "preferred"]
    standing: Literal["good", "credit_hold"]
    past_due_balance: float
    account_opened: str  # YYYY-MM-DD
    credit_score: Confidential[int]  # Accounts Receivable's business credit score (0-300): never told (policy 2.4)


class ServiceLevel(BaseModel):
    code: str
    name: str
    transit_business_days: int
    guaranteed: bool
    base_rate: float
    rate_per_lb: float
    # surcharge table: what changes cost on a shipment of this service level
    redirect_base: float
    redirect_per_lb: float
    cross_state_surcharge: float
    redelivery_fee: float


class TrackingEvent(BaseModel):
    at: str  # YYYY-MM-DDTHH:MM, local time of the scan
    code: EventCode
    location: str
    detail: str


class Shipment(BaseModel):
    tracking_number: str
    shipper_id: str
    reference: str  # the shipper's own order reference
    recipient_name: str
    recipient: Address
    origin_warehouse_id: str
    destination_facility_id: str
    service_code: str
    weight_lb: float
    declared_value: float
    shipping_charge: float
    ship_date: str
    promised_date: str
    delivered_on: str | None = None
    status: Status
    exception_reason: Literal["recipient_unavailable", "no_access"] | None = None
    delivery_attempts: int = 0
    hold_until: str | None = None
    redelivery_date: str | None = None
    address_changes: int = 0
    guarantee_refunded: bool = False
    events: list[TrackingEvent]  # the timeline, oldest first


class Charge(BaseModel):
    charge_id: str
    shipper_id: str
    tracking_number: str | None = None
    kind: Literal[
        "shipping", "address_change", "redelivery", "service_upgrade", "guarantee_refund", "claim_payout", "inventory_credit",
    ]
    amount: float  # positive: billed to the shipper; negative: a credit
    date: str
    description: str


class Claim(BaseModel):
    claim_id: str
    tracking_number: str
    shipper_id: str
    amount_claimed: float
    payout: float
    status: Literal["approved", "paid", "denied", "under_review"]
    filed_date: str
    description: FreeText


class Warehouse(BaseModel):
    warehouse_id: str
    name: str
    street: str
    city: str
    state: str
    zip: str
    phone: str
    pickup_hours: str


class WriteOff(BaseModel):
    units: int
    reason: Literal["damaged", "missing"]


class InventoryBin(BaseModel):
    bin_id: str
    warehouse_id: str
    shipper_id: str
    sku: str
    item_name: str
    quantity: int
    unit_value: float
    last_counted: str
    write_offs: Unordered[WriteOff] = []  # units taken off the count, and why



class Incident(BaseModel):
    incident_id: str
    bin_id: str
    shipper_id: str
    kind: Literal["damaged", "missing", "recount_request"]
    units: int
    reported_date: str
    description: FreeText
    credited: bool = False


class LogisticsDB(BaseModel):
    shippers: Table[Shipper]
    service_levels: Table[ServiceLevel]
    shipments: Table[Shipment]
    charges: Table[Charge]
    claims: Table[Claim]
    warehouses: Table[Warehouse]
    bins: Table[InventoryBin]
    incidents: Table[Incident]
