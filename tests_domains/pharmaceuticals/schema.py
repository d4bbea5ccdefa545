"""The trial-coordination desk's database: Corvane Therapeutics' studies, sites, participants and their records."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, FreeText, Table, Unordered


class VisitDef(BaseModel):
    visit_code: str
    name: str
    study_day: int
    window_before: int
    window_after: int


class ConsentVersion(BaseModel):
    version: str
    irb_approved_on: str | None
    effective_date: str | None
    summary: str


class Study(BaseModel):
    study_id: str
    title: str
    phase: Literal["II", "III"]
    indication: str
    investigational_product: str
    min_age: int
    max_age: int
    inclusion: list[str]
    exclusion: list[str]
    visits: list[VisitDef]
    consent_versions: list[ConsentVersion]
    status: Literal["enrolling", "closed_to_enrollment"]


class Site(BaseModel):
    site_id: str
    site_number: str
    name: str
    city: str
    state: str
    principal_investigator: str
    studies: list[str]
    lab: str


class Coordinator(BaseModel):
    coordinator_id: str
    name: str
    email: str
    site_id: str
    date_of_birth: Confidential[str]
    role: Literal["study_coordinator", "research_nurse", "sub_investigator"]


class Participant(BaseModel):
    participant_id: str
    study_id: str
    site_id: str
    initials: str
    date_of_birth: str
    sex: Literal["F", "M"]
    status: Literal["screening", "randomized", "withdrawn", "completed", "screen_failed"]
    screening_date: str
    randomization_date: str | None
    arm: Literal["A", "B"] | None
    kit_number: str | None
    first_consent_on: str
    consent_version: str
    consent_signed_on: str
    withdrawal_reason: FreeText = ""


class Visit(BaseModel):
    visit_id: str
    participant_id: str
    visit_code: str
    status: Literal["scheduled", "completed", "missed", "not_scheduled", "cancelled"]
    scheduled_date: str | None


class AdverseEvent(BaseModel):
    ae_id: str
    participant_id: str
    term: str
    severity: Literal["mild", "moderate", "severe", "life_threatening"]
    serious: bool
    onset_date: str
    site_aware_date: str
    report_due: str
    status: Literal["open", "resolved"]
    narrative: FreeText = ""


class Reconsent(BaseModel):
    reconsent_id: str
    participant_id: str
    version: str
    signed_on: str


class Sample(BaseModel):
    sample_id: str
    participant_id: str
    visit_code: str
    kind: Literal["serum", "plasma", "whole_blood", "urine", "pk"]
    storage: Literal["ambient", "refrigerated", "frozen"]
    collected_on: str
    shipment_id: str | None = None


class Shipment(BaseModel):
    shipment_id: str
    site_id: str
    storage: Literal["ambient", "refrigerated", "frozen"]
    sample_ids: Unordered[str]
    pickup_date: str
    status: Literal["booked", "in_transit", "received", "cancelled"]
    courier_fee: float


class Deviation(BaseModel):
    deviation_id: str
    participant_id: str
    category: Literal["visit_out_of_window", "missed_visit", "consent", "dosing", "eligibility", "safety_reporting", "other"]
    occurred_on: str
    logged_on: str
    description: FreeText = ""


class Unblinding(BaseModel):
    unblinding_id: str
    participant_id: str
    performed_on: str
    reason: FreeText = ""


class PharmaDB(BaseModel):
    studies: Table[Study]
    sites: Table[Site]
    coordinators: Table[Coordinator]
    participants: Table[Participant]
    visits: Table[Visit]
    adverse_events: Table[AdverseEvent]
    reconsents: Table[Reconsent]
    samples: Table[Sample]
    shipments: Table[Shipment]
    deviations: Table[Deviation]
    unblindings: Table[Unblinding]
