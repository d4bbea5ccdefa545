"""The clinic network's records: clinics, providers, plans, patients, schedules and the desk's work."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, FreeText, Table, Unordered


class Clinic(BaseModel):
    clinic_id: str
    name: str
    street: str
    city: str
    state: str
    zip: str
    phone: str


class Provider(BaseModel):
    provider_id: str
    first_name: str
    last_name: str
    credentials: Literal["MD", "DO", "NP", "PA"]
    specialty: str
    care_type: Literal["primary", "specialist"]
    clinic_id: str
    accepted_plan_ids: list[str]
    accepting_new_patients: bool
    languages: list[str]


class InsurancePlan(BaseModel):
    plan_id: str
    payer: str
    plan_name: str
    plan_type: Literal["HMO", "PPO", "EPO", "HDHP"]
    metal_tier: Literal["bronze", "silver", "gold", "platinum"]
    primary_copay: float
    specialist_copay: float
    annual_deductible: float
    coinsurance_pct: int
    referral_required: bool


class Coverage(BaseModel):
    plan_id: str
    member_id: str
    deductible_met: float
    status: Literal["active", "terminated"]


class PaymentCard(BaseModel):
    brand: Literal["visa", "mastercard", "amex", "discover"]
    last4: str
    expires: str


class Patient(BaseModel):
    patient_id: str
    first_name: str
    last_name: str
    date_of_birth: Confidential[str]
    zip: str
    phone: str
    email: str
    coverage: Coverage | None
    primary_provider_id: str | None
    preferred_pharmacy_id: str | None
    cards_on_file: list[PaymentCard]


class Slot(BaseModel):
    slot_id: str
    provider_id: str
    clinic_id: str
    start: str
    duration_min: int
    status: Literal["open", "booked", "blocked"]


class Appointment(BaseModel):
    appointment_id: str
    patient_id: str
    provider_id: str
    clinic_id: str
    slot_id: str | None
    start: str
    visit_type: Literal["new_patient", "follow_up", "sick_visit", "annual_physical"]
    reason: FreeText  # the patient's own words (policy 3.7)
    status: Literal["scheduled", "completed", "cancelled", "no_show"]
    referral_id: str | None = None
    cancelled_at: str | None = None
    cancel_reason: str | None = None
    reschedule_count: int = 0


class Referral(BaseModel):
    referral_id: str
    patient_id: str
    specialty: str
    referring_provider_id: str
    issued_on: str
    expires_on: str
    visits_authorized: int
    visits_used: int


class Charge(BaseModel):
    charge_id: str
    patient_id: str
    appointment_id: str | None
    kind: Literal["late_cancellation_fee", "no_show_fee", "no_show_deposit", "records_copy_fee", "visit_balance"]
    amount: float
    posted_on: str
    status: Literal["open", "paid", "refunded", "forfeited"]
    paid_with_card: str | None = None


class Pharmacy(BaseModel):
    pharmacy_id: str
    name: str
    street: str
    city: str
    zip: str
    phone: str


class Prescription(BaseModel):
    rx_id: str
    patient_id: str
    prescriber_id: str
    drug_name: str
    strength: str
    directions: str
    dea_schedule: Literal["II", "III", "IV", "V"] | None
    days_supply: int
    refills_remaining: int
    written_on: str
    expires_on: str
    last_fill_date: str
    earliest_refill_date: str
    status: Literal["active", "discontinued"]


class RefillRequest(BaseModel):
    request_id: str
    rx_id: str
    patient_id: str
    kind: Literal["refill", "renewal"]
    pharmacy_id: str
    note: FreeText  # the patient's words for the prescriber; empty for a refill
    submitted_at: str
    status: Literal["submitted", "sent_to_pharmacy", "approved", "denied"]


class Consent(BaseModel):
    consent_id: str
    patient_id: str
    recipient_name: str
    recipient_type: Literal["physician", "attorney", "insurer", "family_member", "employer", "school", "hospital"]
    record_types: Unordered[str]
    signed_on: str
    expires_on: str
    revoked: bool


class RecordsRelease(BaseModel):
    release_id: str
    patient_id: str
    consent_id: str
    recipient_name: str
    record_types: Unordered[str]  # what was released, in no particular order
    delivery_method: Literal["secure_electronic", "paper_mail"]
    requested_at: str
    status: Literal["queued", "sent"]
    fee_charge_id: str | None = None


class HealthcareDB(BaseModel):
    clinics: Table[Clinic]
    providers: Table[Provider]
    insurance_plans: Table[InsurancePlan]
    patients: Table[Patient]
    slots: Table[Slot]
    appointments: Table[Appointment]
    referrals: Table[Referral]
    charges: Table[Charge]
    pharmacies: Table[Pharmacy]
    prescriptions: Table[Prescription]
    refill_requests: Table[RefillRequest]
    consents: Table[Consent]
    records_releases: Table[RecordsRelease]
