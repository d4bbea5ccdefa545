"""The rentals and sales desk of Larkspur Realty Group: listings, agents and their calendars, clients, tours,
rental applications, purchase offers with their counter-offer chains, leases and maintenance requests."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, FreeText, Table, Unordered

Feature = Literal["parking", "garage", "in_unit_laundry", "shared_laundry", "dishwasher", "central_air", "balcony",
                  "yard", "elevator", "doorman", "fireplace", "hardwood_floors", "storage", "gym", "waterfront_view"]
PetKind = Literal["cat", "dog"]


class Agent(BaseModel):
    agent_id: str
    first_name: str
    last_name: str
    email: str
    phone: str
    office: str
    focus: Literal["rentals", "sales"]
    license_number: str
    free_slots: Unordered[str]  # 30-minute tour slots still open, "YYYY-MM-DDTHH:MM"


class Preapproval(BaseModel):
    lender: str
    amount: float
    issued_on: str
    expires_on: str


class Client(BaseModel):
    client_id: str
    first_name: str
    last_name: str
    email: str
    phone: str
    date_of_birth: Confidential[str]
    mailing_address: str
    verified_monthly_income: float | None = None
    income_source: str | None = None
    credit_score: int | None = None
    eviction_record: bool = False
    preapproval: Preapproval | None = None
    proof_of_funds: float | None = None
    pets_on_file: Unordered[PetKind] = []


class Listing(BaseModel):
    listing_id: str
    kind: Literal["rental", "sale"]
    status: Literal["active", "pending", "leased", "sold", "off_market"]
    street: str
    unit: str | None = None
    city: str
    state: str
    zip: str
    neighborhood: str
    property_type: Literal["apartment", "condo", "townhouse", "single_family", "multi_family"]
    bedrooms: int
    bathrooms: float
    sqft: int
    price: float  # monthly rent for a rental, asking price for a sale
    features: Unordered[Feature]
    pet_policy: Literal["no_pets", "cats_only", "cats_and_dogs"] | None = None
    occupied: bool
    available_from: str | None = None
    hoa_monthly: float | None = None
    year_built: int
    listing_agent_id: str
    listed_on: str
    description: str


class Tour(BaseModel):
    tour_id: str
    client_id: str
    listing_id: str
    agent_id: str
    start: str
    status: Literal["scheduled", "completed", "cancelled", "no_show"]
    booked_on: str
    cancel_reason: FreeText | None = None


class Application(BaseModel):
    application_id: str
    client_id: str
    listing_id: str
    monthly_rent: float
    monthly_income: float
    income_to_rent_ratio: float
    security_deposit: float
    pets: Unordered[PetKind]
    move_in_date: str
    application_fee: float
    status: Literal["pending", "approved", "denied", "withdrawn"]
    submitted_on: str
    withdraw_reason: FreeText | None = None


class OfferRound(BaseModel):
    by: Literal["buyer", "seller"]
    price: float
    closing_date: str
    made_on: str
    expires_at: str


class Offer(BaseModel):
    offer_id: str
    client_id: str
    listing_id: str
    financing: Literal["cash", "mortgage"]
    contingencies: Unordered[Literal["inspection", "financing", "appraisal", "home_sale"]]
    status: Literal["submitted", "countered", "accepted", "rejected", "withdrawn"]
    rounds: list[OfferRound]
    earnest_money: float | None = None
    earnest_money_due: str | None = None
    withdraw_reason: FreeText | None = None


class Lease(BaseModel):
    lease_id: str
    listing_id: str
    primary_tenant_id: str
    co_tenant_ids: Unordered[str]
    monthly_rent: float
    security_deposit: float
    start_date: str
    end_date: str
    status: Literal["active", "notice_given", "renewed", "ended", "upcoming"]
    renewal_increase_pct: float
    balance_due: float
    move_out_date: str | None = None
    notice_given_on: str | None = None
    early_termination_fee: float | None = None
    renewal_of: str | None = None
    renewed_by: str | None = None


class MaintenanceRequest(BaseModel):
    request_id: str
    lease_id: str
    client_id: str
    category: Literal["plumbing", "electrical", "heating_cooling", "appliance", "pest", "lock_and_security", "other"]
    priority: Literal["emergency", "urgent", "routine"]
    description: FreeText
    permission_to_enter: bool
    status: Literal["open", "scheduled", "completed"]
    created_on: str


class RealEstateDB(BaseModel):
    agents: Table[Agent]
    clients: Table[Client]
    listings: Table[Listing]
    tours: Table[Tour]
    applications: Table[Application]
    offers: Table[Offer]
    leases: Table[Lease]
    maintenance_requests: Table[MaintenanceRequest]
