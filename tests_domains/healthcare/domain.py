"""Healthcare: the patient desk of the Keystone Valley Health clinic network.

The tools do what the records allow (no such patient, slot already taken, charge already paid,
no refills left); the policy's rules (no-shows, plans, referrals, notice, refill dates, consents,
controlled substances) are the agent's to apply.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal, TypeVar

import pydantic_core
from pydantic import Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import Invariant, area_codes_valid, cents, not_after_now, ordered, plausible_age
from tests_domains.healthcare.schema import (
    Appointment,
    Charge,
    Clinic,
    Consent,
    Coverage,
    HealthcareDB,
    InsurancePlan,
    Patient,
    Pharmacy,
    Prescription,
    Provider,
    RecordsRelease,
    Referral,
    RefillRequest,
    Slot,
)

DOMAIN = Domain("healthcare", HealthcareDB, now=datetime(2026, 5, 14, 10, 0))

NOW_TEXT = DOMAIN.now.strftime("%Y-%m-%dT%H:%M")
NO_SHOW_WINDOW_DAYS = 180
NO_SHOW_DEPOSIT = 50.0
LATE_FEE = {"primary": 40.0, "specialist": 75.0}
PAPER_COPY_FEE = 25.0
# Specialties an HMO member sees without a referral (policy 3.4: the ACA's and Pennsylvania's direct access to OB/GYN).
DIRECT_ACCESS = frozenset({"Obstetrics and Gynecology"})
FEE_SCHEDULE = {
    "primary": {"new_patient": 210.0, "follow_up": 145.0, "sick_visit": 145.0, "annual_physical": 240.0},
    "specialist": {"new_patient": 325.0, "follow_up": 215.0},
}

_F = TypeVar("_F", bound=Callable[..., Any])


def tool(*, write: bool = False, authenticates: bool = False) -> Callable[[_F], _F]:
    """Register a tool whose result is JSON with a space after each ':' and ',' ({"amount": 40.0}).

    Workaround: the SDK renders results as compact JSON ({"amount":40.0}), in which the output
    matcher does not read a figure that follows a colon, so `outputs_in_gold_results` could not
    find a fee or a copay read straight from a record. Same data, more readable spacing.
    """

    def register(function: _F) -> _F:
        @functools.wraps(function)
        def spaced(*args: Any, **kwargs: Any) -> str:
            return json.dumps(pydantic_core.to_jsonable_python(function(*args, **kwargs)), ensure_ascii=False)

        DOMAIN.tool(write=write, authenticates=authenticates)(spaced)
        return function

    return register


PatientId = Annotated[str, Field(description="the patient's id, such as 'PT010042' (from find_patient)")]
VisitType = Literal["new_patient", "follow_up", "sick_visit", "annual_physical"]
RecordType = Literal["visit_notes", "lab_results", "imaging", "immunizations", "medications", "billing", "mental_health"]


def no_shows(appointments: list[Appointment]) -> int:
    """The no-shows in the last 180 days among a patient's appointments."""
    since = (DOMAIN.now - timedelta(days=NO_SHOW_WINDOW_DAYS)).strftime("%Y-%m-%dT%H:%M")
    return sum(1 for a in appointments if a.status == "no_show" and a.start >= since)


def _hours_until(start: str) -> float:
    return (datetime.fromisoformat(start) - DOMAIN.now).total_seconds() / 3600


def _new_charge(db: HealthcareDB, patient_id: str, source_id: str | None, kind: str, amount: float,
                status: str, card: str | None = None) -> Charge:
    charge_id = db.charges.new_key("CH", patient_id, source_id, kind)
    charge = Charge.model_validate({
        "charge_id": charge_id, "patient_id": patient_id, "appointment_id": source_id if kind != "records_copy_fee" else None,
        "kind": kind, "amount": round(amount, 2), "posted_on": DOMAIN.today.isoformat(), "status": status,
        "paid_with_card": card,
    })
    db.charges[charge_id] = charge
    return charge


# -- identity and account --------------------------------------------------------------------------
@tool(authenticates=True)
def find_patient(
    db: HealthcareDB,
    first_name: str,
    last_name: str,
    date_of_birth: Annotated[str, Field(description="date of birth as YYYY-MM-DD")],
    zip: Annotated[str | None, Field(description="5-digit home zip code; needed only when name and birth date match more than one patient")] = None,
) -> Patient:
    """Authenticate a caller: find the patient record matching full name and date of birth (and zip if needed)."""
    criteria = {"date_of_birth": date_of_birth, "first_name": first_name, "last_name": last_name}
    if zip is not None:
        criteria["zip"] = zip
    matches = db.patients.find(**criteria)
    if not matches:
        raise ToolError("no patient matches that name and date of birth" + (" and zip" if zip else ""))
    if len(matches) > 1:
        raise ToolError("more than one patient matches; ask the caller for their home zip code")
    return matches[0]


@tool()
def get_patient(db: HealthcareDB, patient_id: PatientId) -> Patient:
    """Return a patient's profile: contact details, insurance coverage, primary provider, preferred pharmacy, cards on file."""
    return db.patients.require(patient_id)


@tool()
def list_appointments(
    db: HealthcareDB,
    patient_id: PatientId,
    status: Annotated[Literal["scheduled", "completed", "cancelled", "no_show"] | None, Field(description="only appointments with this status")] = None,
) -> dict[str, Any]:
    """List a patient's appointments (newest first) and their count of no-shows in the last 180 days."""
    patient = db.patients.require(patient_id)
    mine = list(db.appointments.where(patient_id=patient.patient_id))
    items = sorted((a for a in mine if status is None or a.status == status), key=lambda a: (a.start, a.appointment_id), reverse=True)
    return {"appointments": items, "no_shows_last_180_days": no_shows(mine)}


@tool()
def list_charges(
    db: HealthcareDB,
    patient_id: PatientId,
    status: Annotated[Literal["open", "paid", "refunded", "forfeited"] | None, Field(description="only charges with this status")] = None,
) -> list[Charge]:
    """List the charges on a patient's account (fees, deposits, visit balances)."""
    patient = db.patients.require(patient_id)
    found = db.charges.where(patient_id=patient.patient_id)
    return sorted((c for c in found if status is None or c.status == status), key=lambda c: (c.posted_on, c.charge_id))


@tool()
def list_referrals(db: HealthcareDB, patient_id: PatientId) -> list[Referral]:
    """List the specialist referrals on file for a patient (specialty, expiry, visits authorized and used)."""
    patient = db.patients.require(patient_id)
    return sorted(db.referrals.where(patient_id=patient.patient_id), key=lambda r: r.referral_id)


# -- network lookups -------------------------------------------------------------------------------
@tool()
def list_clinics(db: HealthcareDB, city: Annotated[str | None, Field(description="only clinics in this city")] = None) -> list[Clinic]:
    """List the network's clinics (address and phone), optionally in one city."""
    return db.clinics.find(city=city) if city is not None else db.clinics.find()


def _city_of(db: HealthcareDB, clinic_id: str) -> str:
    clinic = db.clinics.base.get(clinic_id)
    return clinic.city if clinic is not None else ""


@tool()
def search_providers(
    db: HealthcareDB,
    specialty: Annotated[str, Field(description="e.g. 'Family Medicine', 'Internal Medicine', 'Cardiology', 'Dermatology'")],
    city: Annotated[str | None, Field(description="only providers practicing in this city")] = None,
    plan_id: Annotated[str | None, Field(description="only providers who accept this insurance plan")] = None,
) -> list[Provider]:
    """Find providers by specialty, optionally filtered by city and accepted insurance plan."""
    found = [
        p for p in db.providers.find(specialty=specialty)
        if (city is None or _city_of(db, p.clinic_id).casefold() == " ".join(city.split()).casefold())
        and (plan_id is None or plan_id.strip() in p.accepted_plan_ids)
    ]
    if not found:
        raise ToolError("no provider matches; specialties are: " + ", ".join(sorted({p.specialty for p in db.providers.values()})))
    return found


@tool()
def find_providers_by_name(
    db: HealthcareDB,
    last_name: Annotated[str, Field(description="the provider's last name, e.g. 'Jones'")],
    first_name: Annotated[str | None, Field(description="the provider's first name, when the caller gives it")] = None,
) -> list[dict[str, Any]]:
    """Find providers by name (several providers may share a last name): each with specialty, clinic and city."""
    found = db.providers.find(last_name=last_name) if first_name is None else db.providers.find(last_name=last_name, first_name=first_name)
    if not found:
        raise ToolError("no provider with that name")
    result = []
    for p in found:
        clinic = db.clinics.base.get(p.clinic_id)
        result.append({"provider": p, "clinic_name": clinic.name if clinic else None, "city": clinic.city if clinic else None})
    return result


@tool()
def get_provider(db: HealthcareDB, provider_id: Annotated[str, Field(description="the provider's id, such as 'PR0117'")]) -> Provider:
    """Return a provider's details: specialty, clinic, accepted plans, whether they accept new patients."""
    return db.providers.require(provider_id)


@tool()
def find_open_slots(
    db: HealthcareDB,
    provider_id: str,
    start_date: Annotated[str, Field(description="first day to search, YYYY-MM-DD")],
    end_date: Annotated[str, Field(description="last day to search, YYYY-MM-DD (inclusive)")],
) -> list[Slot]:
    """List a provider's open appointment slots between two dates (only slots after the current time)."""
    provider = db.providers.require(provider_id)
    first, last = start_date.strip(), end_date.strip()
    found = [s for s in db.slots.where(provider_id=provider.provider_id)
             if s.status == "open" and s.start > NOW_TEXT and first <= s.start[:10] <= last]
    return sorted(found, key=lambda s: (s.start, s.slot_id))


@tool()
def get_fee_schedule(db: HealthcareDB) -> dict[str, Any]:
    """Return the network's allowed amounts per visit type for primary care and specialists, and the fixed fees."""
    return {"allowed_amounts": FEE_SCHEDULE, "self_pay_discount_pct": 30, "late_cancellation_fee": LATE_FEE,
            "no_show_deposit": NO_SHOW_DEPOSIT, "paper_records_copy_fee": PAPER_COPY_FEE}


@tool()
def get_insurance_plan(db: HealthcareDB, plan_id: str) -> InsurancePlan:
    """Return an insurance plan's benefits: type, copays, deductible, coinsurance, whether referrals are required."""
    return db.insurance_plans.require(plan_id)


@tool()
def search_insurance_plans(db: HealthcareDB, payer: Annotated[str, Field(description="the insurance company, e.g. 'Liberty Bell Health'")]) -> list[InsurancePlan]:
    """List the plans of one insurance company that the network knows."""
    wanted = " ".join(payer.split()).casefold()
    found = [p for p in db.insurance_plans.values() if wanted and wanted in p.payer.casefold()]
    if not found:
        raise ToolError("unknown payer; payers are: " + ", ".join(sorted({p.payer for p in db.insurance_plans.values()})))
    return found


@tool()
def search_pharmacies(db: HealthcareDB, city: str) -> list[Pharmacy]:
    """List the pharmacies the network sends prescriptions to in a city."""
    return db.pharmacies.find(city=city)


# -- clinical records ------------------------------------------------------------------------------
@tool()
def list_prescriptions(db: HealthcareDB, patient_id: PatientId) -> list[Prescription]:
    """List a patient's prescriptions with refills remaining, last fill and earliest refill dates."""
    patient = db.patients.require(patient_id)
    return sorted(db.prescriptions.where(patient_id=patient.patient_id), key=lambda r: r.rx_id)


@tool()
def list_refill_requests(
    db: HealthcareDB,
    patient_id: PatientId,
    status: Annotated[Literal["submitted", "sent_to_pharmacy", "approved", "denied"] | None,
                      Field(description="only requests with this status ('submitted' = still pending)")] = None,
) -> list[RefillRequest]:
    """List a patient's refill and renewal requests (a 'submitted' request is still pending)."""
    patient = db.patients.require(patient_id)
    found = db.refill_requests.where(patient_id=patient.patient_id)
    return sorted((r for r in found if status is None or r.status == status), key=lambda r: (r.submitted_at, r.request_id))


@tool()
def list_consents(db: HealthcareDB, patient_id: PatientId) -> list[Consent]:
    """List the records-release consents a patient has signed (recipient, record types, expiry, revoked)."""
    patient = db.patients.require(patient_id)
    return sorted(db.consents.where(patient_id=patient.patient_id), key=lambda c: c.consent_id)


# -- writes ----------------------------------------------------------------------------------------
def _open_slot(db: HealthcareDB, slot_id: str) -> Slot:
    slot = db.slots.require(slot_id)
    if slot.status != "open" or slot.start <= NOW_TEXT:
        raise ToolError(f"slot {slot.slot_id!r} is not open")
    return slot


@tool(write=True)
def book_appointment(
    db: HealthcareDB,
    patient_id: PatientId,
    slot_id: str,
    visit_type: VisitType,
    reason: Annotated[FreeText, Field(description="the reason for the visit in the patient's words")],
    deposit_card_last4: Annotated[str | None, Field(description="last 4 digits of the card on file charged the $50 no-show deposit; only when a deposit applies")] = None,
) -> dict[str, Any]:
    """Book an open slot for a patient. With a deposit card, also charges the no-show deposit to it.
    A specialist visit on a plan that requires referrals uses one visit of a matching referral, if any
    (an OB/GYN visit uses none)."""
    patient = db.patients.require(patient_id)
    slot = _open_slot(db, slot_id)
    if not reason.strip():
        raise ToolError("a reason for the visit is required")
    if deposit_card_last4 is not None and deposit_card_last4.strip() not in [c.last4 for c in patient.cards_on_file]:
        raise ToolError("no card on file ends with those digits")
    provider = db.providers.require(slot.provider_id)
    coverage = patient.coverage
    referral_id = None
    if provider.care_type == "specialist" and provider.specialty not in DIRECT_ACCESS and coverage is not None \
            and coverage.status == "active" and db.insurance_plans.require(coverage.plan_id).referral_required:
        usable = [r for r in db.referrals.where(patient_id=patient.patient_id, specialty=provider.specialty)
                  if r.expires_on >= slot.start[:10] and r.visits_used < r.visits_authorized]
        if usable:
            referral_id = min(usable, key=lambda r: (r.expires_on, r.referral_id)).referral_id
            db.referrals[referral_id].visits_used += 1
    appointment_id = db.appointments.new_key("APT", patient.patient_id, slot.slot_id)
    slot.status = "booked"
    appointment = Appointment(appointment_id=appointment_id, patient_id=patient.patient_id, provider_id=provider.provider_id,
                              clinic_id=provider.clinic_id, slot_id=slot.slot_id, start=slot.start, visit_type=visit_type,
                              reason=reason.strip(), status="scheduled", referral_id=referral_id)
    db.appointments[appointment_id] = appointment
    deposit = None
    if deposit_card_last4 is not None:
        deposit = _new_charge(db, patient.patient_id, appointment_id, "no_show_deposit", NO_SHOW_DEPOSIT, "paid", deposit_card_last4.strip())
    return {"appointment": appointment, "deposit": deposit}


def _upcoming(db: HealthcareDB, appointment_id: str) -> Appointment:
    appointment = db.appointments.require(appointment_id)
    if appointment.status != "scheduled" or appointment.start <= NOW_TEXT:
        raise ToolError(f"appointment {appointment.appointment_id!r} is not an upcoming scheduled appointment (it is {appointment.status})")
    return appointment


def _late_fee(db: HealthcareDB, appointment: Appointment) -> Charge:
    """Charge the late fee, or forfeit the deposit, for a change under 24 hours before the visit."""
    for deposit in list(db.charges.where(appointment_id=appointment.appointment_id, kind="no_show_deposit", status="paid")):
        charge = db.charges[deposit.charge_id]
        charge.status = "forfeited"
        return charge
    care = db.providers.require(appointment.provider_id).care_type
    return _new_charge(db, appointment.patient_id, appointment.appointment_id, "late_cancellation_fee", LATE_FEE[care], "open")


@tool(write=True)
def cancel_appointment(
    db: HealthcareDB,
    appointment_id: str,
    reason: Literal["schedule_conflict", "feeling_better", "transportation", "cost", "other"],
) -> dict[str, Any]:
    """Cancel an upcoming appointment. Under 24 hours' notice posts the late-cancellation fee (or forfeits a deposit);
    with more notice a paid deposit is refunded."""
    appointment = _upcoming(db, appointment_id)
    fee = None
    if _hours_until(appointment.start) < 24:
        fee = _late_fee(db, appointment)
    else:
        for deposit in list(db.charges.where(appointment_id=appointment.appointment_id, kind="no_show_deposit", status="paid")):
            db.charges[deposit.charge_id].status = "refunded"
    if appointment.slot_id and appointment.slot_id in db.slots:
        db.slots[appointment.slot_id].status = "open"
    if appointment.referral_id and appointment.referral_id in db.referrals:
        ref = db.referrals[appointment.referral_id]
        ref.visits_used = max(0, ref.visits_used - 1)
    appointment.status = "cancelled"
    appointment.cancelled_at = NOW_TEXT
    appointment.cancel_reason = reason
    return {"appointment": appointment, "late_notice": fee is not None, "fee": fee}


@tool(write=True)
def reschedule_appointment(db: HealthcareDB, appointment_id: str, new_slot_id: str) -> dict[str, Any]:
    """Move an upcoming appointment to another open slot of the same provider. Under 24 hours' notice posts the
    late-cancellation fee (or forfeits a deposit)."""
    appointment = _upcoming(db, appointment_id)
    slot = _open_slot(db, new_slot_id)
    if slot.provider_id != appointment.provider_id:
        raise ToolError(f"slot {slot.slot_id!r} belongs to another provider than appointment {appointment.appointment_id!r}")
    fee = _late_fee(db, appointment) if _hours_until(appointment.start) < 24 else None
    if appointment.slot_id and appointment.slot_id in db.slots:
        db.slots[appointment.slot_id].status = "open"
    slot.status = "booked"
    appointment.slot_id = slot.slot_id
    appointment.start = slot.start
    appointment.reschedule_count += 1
    return {"appointment": appointment, "late_notice": fee is not None, "fee": fee}


def _prescription(db: HealthcareDB, rx_id: str) -> Prescription:
    rx = db.prescriptions.require(rx_id)
    if rx.status != "active":
        raise ToolError(f"prescription {rx.rx_id!r} is discontinued")
    return rx


def _new_request(db: HealthcareDB, rx: Prescription, kind: str, pharmacy_id: str, note: str) -> RefillRequest:
    pharmacy = db.pharmacies.require(pharmacy_id)
    request_id = db.refill_requests.new_key("RQ", rx.rx_id, kind, pharmacy.pharmacy_id)
    request = RefillRequest.model_validate({
        "request_id": request_id, "rx_id": rx.rx_id, "patient_id": rx.patient_id, "kind": kind,
        "pharmacy_id": pharmacy.pharmacy_id, "note": note, "submitted_at": NOW_TEXT, "status": "submitted",
    })
    db.refill_requests[request_id] = request
    return request


@tool(write=True)
def request_refill(db: HealthcareDB, rx_id: str, pharmacy_id: str) -> RefillRequest:
    """Send a refill of a prescription to a pharmacy (uses one of its remaining refills)."""
    rx = _prescription(db, rx_id)
    if rx.refills_remaining <= 0:
        raise ToolError(f"prescription {rx.rx_id!r} has no refills remaining")
    db.pharmacies.require(pharmacy_id)
    rx.refills_remaining -= 1
    return _new_request(db, rx, "refill", pharmacy_id, "")


@tool(write=True)
def request_renewal(
    db: HealthcareDB,
    rx_id: str,
    pharmacy_id: str,
    note: Annotated[FreeText, Field(description="what the patient tells the prescriber (how the medicine works), in their words")],
) -> RefillRequest:
    """Ask the prescriber to renew a prescription; the new prescription goes to the pharmacy."""
    rx = _prescription(db, rx_id)
    if not note.strip():
        raise ToolError("a note for the prescriber is required")
    return _new_request(db, rx, "renewal", pharmacy_id, note.strip())


@tool(write=True)
def release_records(
    db: HealthcareDB,
    patient_id: PatientId,
    consent_id: str,
    record_types: Annotated[list[RecordType], Field(description="the record types to send (in any order)")],
    delivery_method: Literal["secure_electronic", "paper_mail"],
) -> RecordsRelease:
    """Release records to the recipient named on one of the patient's consents. Paper copies by mail post the copy fee."""
    patient = db.patients.require(patient_id)
    consent = db.consents.require(consent_id)
    if consent.patient_id != patient.patient_id:
        raise ToolError(f"consent {consent.consent_id!r} is not this patient's")
    if not record_types or len(set(record_types)) != len(record_types):
        raise ToolError("give one or more distinct record types")
    types = sorted(record_types)
    release_id = db.records_releases.new_key("RR", patient.patient_id, consent.consent_id, delivery_method, *types)
    fee_id = None
    if delivery_method == "paper_mail":
        fee_id = _new_charge(db, patient.patient_id, release_id, "records_copy_fee", PAPER_COPY_FEE, "open").charge_id
    release = RecordsRelease(release_id=release_id, patient_id=patient.patient_id, consent_id=consent.consent_id,
                             recipient_name=consent.recipient_name, record_types=types,
                             delivery_method=delivery_method, requested_at=NOW_TEXT, status="queued", fee_charge_id=fee_id)
    db.records_releases[release_id] = release
    return release


@tool(write=True)
def update_insurance(
    db: HealthcareDB,
    patient_id: PatientId,
    plan_id: str,
    member_id: Annotated[str, Field(description="the member id printed on the new insurance card")],
) -> Patient:
    """Replace the insurance on file with a new active plan (deductible met resets to 0)."""
    patient = db.patients.require(patient_id)
    plan = db.insurance_plans.require(plan_id)
    member = member_id.strip()
    if not member:
        raise ToolError("a member id is required")
    if patient.coverage and patient.coverage.plan_id == plan.plan_id and patient.coverage.member_id == member \
            and patient.coverage.status == "active":
        raise ToolError("that coverage is already on file")
    patient.coverage = Coverage(plan_id=plan.plan_id, member_id=member, deductible_met=0.0, status="active")
    return patient


@tool(write=True)
def pay_charge(db: HealthcareDB, charge_id: str, card_last4: Annotated[str, Field(description="last 4 digits of a card on file")]) -> Charge:
    """Pay one open charge in full with a card on file."""
    charge = db.charges.require(charge_id)
    if charge.status != "open":
        raise ToolError(f"charge {charge.charge_id!r} is {charge.status}, not open")
    if card_last4.strip() not in [c.last4 for c in db.patients.require(charge.patient_id).cards_on_file]:
        raise ToolError("no card on file ends with those digits")
    charge.status = "paid"
    charge.paid_with_card = card_last4.strip()
    return charge


@tool(write=True)
def update_preferred_pharmacy(db: HealthcareDB, patient_id: PatientId, pharmacy_id: str) -> Patient:
    """Set the patient's preferred pharmacy."""
    patient = db.patients.require(patient_id)
    pharmacy = db.pharmacies.require(pharmacy_id)
    if patient.preferred_pharmacy_id == pharmacy.pharmacy_id:
        raise ToolError("that is already the preferred pharmacy")
    patient.preferred_pharmacy_id = pharmacy.pharmacy_id
    return patient


# -- data invariants: the clock, ages, places and money the policy relies on -------------------
def _cpt_visit_types(db: HealthcareDB, now: datetime) -> Iterator[str]:
    """Policy 3.3: a visit is `new_patient` exactly when no earlier visit in its specialty was completed."""
    by_patient: dict[str, list[Appointment]] = {}
    for appt in db.appointments.values():
        by_patient.setdefault(appt.patient_id, []).append(appt)
    for appts in by_patient.values():
        seen: set[str] = set()
        for appt in sorted(appts, key=lambda a: (a.start, a.appointment_id)):
            specialty = db.providers[appt.provider_id].specialty
            if (appt.visit_type == "new_patient") == (specialty in seen):
                yield f"appointments[{appt.appointment_id!r}]: {appt.visit_type} but {'a' if specialty in seen else 'no'} " \
                      f"earlier completed {specialty} visit"
            if appt.status == "completed":
                seen.add(specialty)


def _cards_unexpired(db: HealthcareDB, now: datetime) -> Iterator[str]:
    """A card is good through the end of its MM/YY month; an expired one cannot pay a charge or a deposit."""
    for patient in db.patients.values():
        for card in patient.cards_on_file:
            month, year = card.expires.split("/")
            if (2000 + int(year), int(month)) < (now.year, now.month):
                yield f"patients[{patient.patient_id!r}]: card ending {card.last4} expired {card.expires}"


DOMAIN.invariants(
    plausible_age("patients", "date_of_birth", low=0, high=110),
    not_after_now("appointments", "cancelled_at"),
    not_after_now("referrals", "issued_on"),
    ordered("referrals", "issued_on", "expires_on"),
    not_after_now("charges", "posted_on"),
    not_after_now("prescriptions", "written_on"),
    ordered("prescriptions", "written_on", "expires_on"),
    not_after_now("prescriptions", "last_fill_date"),
    ordered("prescriptions", "written_on", "last_fill_date"),
    ordered("prescriptions", "last_fill_date", "expires_on"),
    Invariant("patients: no card on file past its expiry month", _cards_unexpired),
    Invariant("appointments: new_patient exactly for a first visit in the specialty (CPT)", _cpt_visit_types),
    not_after_now("refill_requests", "submitted_at"),
    ordered("refill_requests", "written_on", "submitted_at", via=("rx_id", "prescriptions")),
    not_after_now("consents", "signed_on"),
    not_after_now("records_releases", "requested_at"),
    area_codes_valid("patients", "phone"),
    area_codes_valid("clinics", "phone"),
    area_codes_valid("pharmacies", "phone"),
    cents("charges", "amount"),
)

# Policy 3.2: a booking is checked against the plan on file, so new insurance goes on file before the booking.
DOMAIN.order("update_insurance", "book_appointment")
# Policy 3.6 and 7.1: the no-show count before a booking, the pending requests before a refill.
DOMAIN.order("list_appointments", "book_appointment")
DOMAIN.order("list_refill_requests", "request_refill")
