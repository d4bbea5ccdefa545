"""Healthcare: the patient desk of the Keystone Valley Health clinic network."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Annotated, Literal, TypeVar

from pydantic import Field

from pytest_tau import Domain, ToolError, calculate as _calculate
from tests_domains.healthcare.schema import (
    Appointment,
    Charge,
    Clinic,
    Consent,
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

DOMAIN = Domain("healthcare", HealthcareDB, fixtures=Path(__file__).parents[2] / "fixtures" / "healthcare")

NOW = datetime(2026, 5, 14, 10, 0)
TODAY = NOW.date()
NOW_TEXT = NOW.strftime("%Y-%m-%dT%H:%M")
NO_SHOW_WINDOW_DAYS = 180
NO_SHOW_DEPOSIT = 50.0
LATE_FEE = {"primary": 40.0, "specialist": 75.0}
PAPER_COPY_FEE = 25.0
MAX_UPCOMING = 3
MAX_RESCHEDULES = 2

_R = TypeVar("_R")

PatientId = Annotated[str, Field(description="the patient's id, such as 'PT010042' (from find_patient)")]
VisitType = Literal["new_patient", "follow_up", "sick_visit", "annual_physical"]


def _patient(db: HealthcareDB, patient_id: str) -> Patient:
    patient = db.patients.get(patient_id)
    if patient is None:
        raise ToolError(f"no patient {patient_id!r}")
    return patient


_POSITIONS: dict[str, tuple[object, dict[str, int]]] = {}


def _in_table_order(table: str, key_field: str, records: Iterable[_R]) -> list[_R]:
    """Records found by `where()` in the order `values()` yields them: the initial DB's key
    order, then the records inserted by this environment (in insertion order)."""
    base = getattr(DOMAIN.initial_db, table)
    cached = _POSITIONS.get(table)
    if cached is None or cached[0] is not base:  # once per process (and per DB)
        cached = (base, {key: i for i, key in enumerate(base)})
        _POSITIONS[table] = cached
    positions = cached[1]
    after = len(positions)
    return sorted(records, key=lambda r: positions.get(getattr(r, key_field), after))  # stable: inserts keep their order


_SLOT_DAYS: list = [None, {}]  # [the initial DB's slots table, {provider_id: (sorted dates, {date: slot ids})}]


def _slot_days(provider_id: str) -> tuple[list[str], dict[str, list[str]]]:
    """A provider's slot ids by day in the initial DB (built once per process and DB). Slots are
    never inserted and their provider and start never change (only their status does), so a
    provider's slots on some days are these ids, read through `where()` for their current status."""
    base = DOMAIN.initial_db.slots
    if _SLOT_DAYS[0] is not base:
        by_provider: dict[str, dict[str, dict[str, None]]] = {}
        for slot in base.values():
            by_provider.setdefault(slot.provider_id, {}).setdefault(slot.start[:10], {})[slot.slot_id] = None
        _SLOT_DAYS[1] = {p: (sorted(days), {day: list(ids) for day, ids in days.items()}) for p, days in by_provider.items()}
        _SLOT_DAYS[0] = base
    return _SLOT_DAYS[1].get(provider_id, ([], {}))


def _no_shows(appointments: Iterable[Appointment]) -> int:
    """The no-shows in the last 180 days among a patient's appointments."""
    since = (NOW - timedelta(days=NO_SHOW_WINDOW_DAYS)).strftime("%Y-%m-%dT%H:%M")
    return sum(1 for a in appointments if a.status == "no_show" and a.start >= since)


def _hours_until(start: str) -> float:
    return (datetime.fromisoformat(start) - NOW).total_seconds() / 3600


def _next_id(prefix: str, width: int, base: int, count: int) -> str:
    return f"{prefix}{base + count + 1:0{width}d}"


def _new_charge(db: HealthcareDB, patient_id: str, appointment_id: str | None, kind: str, amount: float,
                status: str, card: str | None = None) -> Charge:
    charge_id = _next_id("CH", 6, 0, len(db.charges))
    charge = Charge(charge_id=charge_id, patient_id=patient_id, appointment_id=appointment_id, kind=kind,  # type: ignore[arg-type]
                    amount=round(amount, 2), posted_on=TODAY.isoformat(), status=status, paid_with_card=card)  # type: ignore[arg-type]
    db.charges[charge_id] = charge
    return charge


# -- identity and account --------------------------------------------------------------------------
@DOMAIN.tool
def find_patient(
    db: HealthcareDB,
    first_name: str,
    last_name: str,
    date_of_birth: Annotated[str, Field(description="date of birth as YYYY-MM-DD")],
    zip: Annotated[str | None, Field(description="5-digit home zip code; needed only when name and birth date match more than one patient")] = None,
) -> Patient:
    """Authenticate a caller: find the patient record matching full name and date of birth (and zip if needed)."""
    first, last = first_name.strip().lower(), last_name.strip().lower()
    matches = [p for p in db.patients.where(date_of_birth=date_of_birth.strip())
               if p.first_name.lower() == first and p.last_name.lower() == last]
    if zip is not None:
        matches = [p for p in matches if p.zip == zip.strip()]
    if not matches:
        raise ToolError("no patient matches that name and date of birth" + (" and zip" if zip else ""))
    if len(matches) > 1:
        raise ToolError("more than one patient matches; ask the caller for their home zip code")
    return matches[0]


@DOMAIN.tool
def get_patient(db: HealthcareDB, patient_id: PatientId) -> Patient:
    """Return a patient's profile: contact details, insurance coverage, primary provider, preferred pharmacy, cards on file."""
    return _patient(db, patient_id)


@DOMAIN.tool
def list_appointments(
    db: HealthcareDB,
    patient_id: PatientId,
    status: Annotated[Literal["scheduled", "completed", "cancelled", "no_show"] | None, Field(description="only appointments with this status")] = None,
) -> dict:
    """List a patient's appointments (newest first) and their count of no-shows in the last 180 days."""
    _patient(db, patient_id)
    mine = list(db.appointments.where(patient_id=patient_id))
    items = _in_table_order("appointments", "appointment_id", (a for a in mine if status is None or a.status == status))
    items.sort(key=lambda a: a.start, reverse=True)
    return {"appointments": items, "no_shows_last_180_days": _no_shows(mine)}


@DOMAIN.tool
def list_charges(
    db: HealthcareDB,
    patient_id: PatientId,
    status: Annotated[Literal["open", "paid", "refunded", "forfeited"] | None, Field(description="only charges with this status")] = None,
) -> list[Charge]:
    """List the charges on a patient's account (fees, deposits, visit balances)."""
    _patient(db, patient_id)
    found = db.charges.where(patient_id=patient_id) if status is None else db.charges.where(patient_id=patient_id, status=status)
    return _in_table_order("charges", "charge_id", found)


@DOMAIN.tool
def list_referrals(db: HealthcareDB, patient_id: PatientId) -> list[Referral]:
    """List the specialist referrals on file for a patient (specialty, expiry, visits authorized and used)."""
    _patient(db, patient_id)
    return _in_table_order("referrals", "referral_id", db.referrals.where(patient_id=patient_id))


# -- network lookups -------------------------------------------------------------------------------
@DOMAIN.tool
def list_clinics(db: HealthcareDB, city: Annotated[str | None, Field(description="only clinics in this city")] = None) -> list[Clinic]:
    """List the network's clinics, optionally in one city."""
    return [c for c in db.clinics.values() if city is None or c.city.lower() == city.strip().lower()]


_SPECIALTIES: list = [None, {}]  # [the initial DB's providers table, {lowercased specialty: its spellings}]


def _specialties() -> dict[str, list[str]]:
    """The specialties of the initial DB by lowercased name (built once per process and DB);
    providers are never inserted and their specialty never changes."""
    base = DOMAIN.initial_db.providers
    if _SPECIALTIES[0] is not base:
        names: dict[str, dict[str, None]] = {}
        for provider in base.values():
            names.setdefault(provider.specialty.lower(), {})[provider.specialty] = None
        _SPECIALTIES[1] = {lower: list(spellings) for lower, spellings in names.items()}
        _SPECIALTIES[0] = base
    return _SPECIALTIES[1]


def _clinic_city(db: HealthcareDB, clinic_id: str) -> str:
    """A clinic's city, read without copying the clinic."""
    for clinic in db.clinics.where(clinic_id=clinic_id):
        return clinic.city
    return db.clinics[clinic_id].city  # raises KeyError as a lookup by key would


@DOMAIN.tool
def search_providers(
    db: HealthcareDB,
    specialty: Annotated[str, Field(description="e.g. 'Family Medicine', 'Internal Medicine', 'Cardiology', 'Dermatology'")],
    city: Annotated[str | None, Field(description="only providers practicing in this city")] = None,
    plan_id: Annotated[str | None, Field(description="only providers who accept this insurance plan")] = None,
) -> list[Provider]:
    """Find providers by specialty, optionally filtered by city and accepted insurance plan."""
    found = []
    wanted = specialty.strip().lower()
    in_specialty = (p for name in _specialties().get(wanted, ()) for p in db.providers.where(specialty=name))
    for p in _in_table_order("providers", "provider_id", in_specialty):
        if city is not None and _clinic_city(db, p.clinic_id).lower() != city.strip().lower():
            continue
        if plan_id is not None and plan_id not in p.accepted_plan_ids:
            continue
        found.append(p)
    if not found:
        raise ToolError("no provider matches; specialties are: " + ", ".join(sorted({p.specialty for p in db.providers.values()})))
    return found


@DOMAIN.tool
def get_provider(db: HealthcareDB, provider_id: Annotated[str, Field(description="the provider's id, such as 'PR0117'")]) -> Provider:
    """Return a provider's details: specialty, clinic, accepted plans, whether they accept new patients."""
    provider = db.providers.get(provider_id)
    if provider is None:
        raise ToolError(f"no provider {provider_id!r}")
    return provider


@DOMAIN.tool
def find_open_slots(
    db: HealthcareDB,
    provider_id: str,
    start_date: Annotated[str, Field(description="first day to search, YYYY-MM-DD")],
    end_date: Annotated[str, Field(description="last day to search, YYYY-MM-DD (inclusive)")],
) -> list[Slot]:
    """List a provider's open appointment slots between two dates (only slots after the current time)."""
    if provider_id not in db.providers:
        raise ToolError(f"no provider {provider_id!r}")
    dates, slot_ids = _slot_days(provider_id)
    found = [s for day in dates[bisect_left(dates, start_date):bisect_right(dates, end_date)]
             for slot_id in slot_ids[day]
             for s in db.slots.where(slot_id=slot_id)
             if s.provider_id == provider_id and s.status == "open" and s.start > NOW_TEXT and start_date <= s.start[:10] <= end_date]
    return sorted(_in_table_order("slots", "slot_id", found), key=lambda s: s.start)


FEE_SCHEDULE = {
    "primary": {"new_patient": 210.0, "follow_up": 145.0, "sick_visit": 145.0, "annual_physical": 240.0},
    "specialist": {"new_patient": 325.0, "follow_up": 215.0},
}


@DOMAIN.tool
def get_fee_schedule(db: HealthcareDB) -> dict:
    """Return the network's allowed amounts per visit type for primary care and specialists, and the self-pay discount."""
    return {"allowed_amounts": FEE_SCHEDULE, "self_pay_discount_pct": 30, "late_cancellation_fee": LATE_FEE,
            "no_show_deposit": NO_SHOW_DEPOSIT, "paper_records_copy_fee": PAPER_COPY_FEE}


@DOMAIN.tool
def get_insurance_plan(db: HealthcareDB, plan_id: str) -> InsurancePlan:
    """Return an insurance plan's benefits: type, copays, deductible, coinsurance, whether referrals are required."""
    plan = db.insurance_plans.get(plan_id)
    if plan is None:
        raise ToolError(f"no insurance plan {plan_id!r}")
    return plan


@DOMAIN.tool
def search_insurance_plans(db: HealthcareDB, payer: Annotated[str, Field(description="the insurance company, e.g. 'Liberty Bell Health'")]) -> list[InsurancePlan]:
    """List the plans of one insurance company that the network knows."""
    found = [p for p in db.insurance_plans.values() if payer.strip().lower() in p.payer.lower()]
    if not found:
        raise ToolError("unknown payer; payers are: " + ", ".join(sorted({p.payer for p in db.insurance_plans.values()})))
    return found


@DOMAIN.tool
def search_pharmacies(db: HealthcareDB, city: str) -> list[Pharmacy]:
    """List the pharmacies the network sends prescriptions to in a city."""
    return [p for p in db.pharmacies.values() if p.city.lower() == city.strip().lower()]


# -- clinical records ------------------------------------------------------------------------------
@DOMAIN.tool
def list_prescriptions(db: HealthcareDB, patient_id: PatientId) -> list[Prescription]:
    """List a patient's prescriptions with refills remaining, last fill and earliest refill dates."""
    _patient(db, patient_id)
    return _in_table_order("prescriptions", "rx_id", db.prescriptions.where(patient_id=patient_id))


@DOMAIN.tool
def list_consents(db: HealthcareDB, patient_id: PatientId) -> list[Consent]:
    """List the records-release consents a patient has signed (recipient, record types, expiry, revoked)."""
    _patient(db, patient_id)
    return _in_table_order("consents", "consent_id", db.consents.where(patient_id=patient_id))


# -- writes ----------------------------------------------------------------------------------------
@DOMAIN.tool(write=True)
def book_appointment(
    db: HealthcareDB,
    patient_id: PatientId,
    slot_id: str,
    visit_type: VisitType,
    reason: Annotated[str, Field(description="the reason for the visit in the patient's words")],
    deposit_card_last4: Annotated[str | None, Field(description="last 4 digits of the card on file charged the no-show deposit; only when a deposit is required")] = None,
) -> dict:
    """Book an open slot for a patient. Enforces plan acceptance, referrals, new-patient and no-show rules."""
    patient = _patient(db, patient_id)
    slot = db.slots.get(slot_id)
    if slot is None:
        raise ToolError(f"no slot {slot_id!r}")
    if slot.status != "open" or slot.start <= NOW_TEXT:
        raise ToolError("that slot is not open")
    if not reason.strip():
        raise ToolError("a reason for the visit is required")
    provider = db.providers[slot.provider_id]
    mine = list(db.appointments.where(patient_id=patient_id))  # read-only; the DB changes only after the checks
    no_shows = _no_shows(mine)
    if no_shows >= 3:
        raise ToolError(f"{no_shows} no-shows in the last 180 days: the desk cannot book; transfer to patient relations")
    if no_shows == 2 and deposit_card_last4 is None:
        raise ToolError(f"2 no-shows in the last 180 days: a ${NO_SHOW_DEPOSIT:.2f} deposit on a card on file is required")
    if no_shows < 2 and deposit_card_last4 is not None:
        raise ToolError("no deposit is required for this patient")
    if deposit_card_last4 is not None and deposit_card_last4 not in [c.last4 for c in patient.cards_on_file]:
        raise ToolError("no card on file ends with those digits")
    coverage = patient.coverage
    if coverage is not None and coverage.status != "active":
        raise ToolError("the patient's coverage is terminated; update the insurance on file before booking")
    if coverage is not None and coverage.plan_id not in provider.accepted_plan_ids:
        raise ToolError("this provider does not accept the patient's insurance plan")
    upcoming = [a for a in mine if a.status == "scheduled" and a.start > NOW_TEXT]
    if any(a.provider_id == provider.provider_id for a in upcoming):
        raise ToolError("the patient already has an upcoming appointment with this provider; reschedule it instead")
    if len(upcoming) >= MAX_UPCOMING:
        raise ToolError(f"the patient already has {MAX_UPCOMING} upcoming appointments")
    established = any(a.provider_id == provider.provider_id and a.status == "completed" for a in mine)
    if not established:
        if not provider.accepting_new_patients:
            raise ToolError("this provider is not accepting new patients")
        if visit_type != "new_patient":
            raise ToolError("the patient has never been seen by this provider: visit_type must be new_patient")
    elif visit_type == "new_patient":
        raise ToolError("the patient is established with this provider: use follow_up, sick_visit or annual_physical")
    if provider.care_type == "specialist" and visit_type in ("sick_visit", "annual_physical"):
        raise ToolError("specialists book new_patient or follow_up visits only")
    if visit_type == "annual_physical":
        year_ago = (NOW - timedelta(days=365)).strftime("%Y-%m-%dT%H:%M")
        if any(a.visit_type == "annual_physical" and a.status == "completed" and a.start >= year_ago for a in mine):
            raise ToolError("an annual physical was completed in the last 365 days")
    referral_id = None
    if provider.care_type == "specialist" and coverage is not None and db.insurance_plans[coverage.plan_id].referral_required:
        for ref in _in_table_order("referrals", "referral_id", db.referrals.where(patient_id=patient_id, specialty=provider.specialty)):
            if (ref.expires_on >= slot.start[:10]
                    and ref.visits_used < ref.visits_authorized):
                referral_id = ref.referral_id
                break
        if referral_id is None:
            raise ToolError(f"the plan requires a referral: no valid {provider.specialty} referral with visits left on the visit date")
        db.referrals[referral_id].visits_used += 1
    appointment_id = _next_id("APT", 6, 300000, len(db.appointments))
    slot.status = "booked"
    appointment = Appointment(appointment_id=appointment_id, patient_id=patient_id, provider_id=provider.provider_id,
                              clinic_id=provider.clinic_id, slot_id=slot_id, start=slot.start, visit_type=visit_type,
                              reason=reason.strip(), status="scheduled", referral_id=referral_id)
    db.appointments[appointment_id] = appointment
    deposit = None
    if deposit_card_last4 is not None:
        deposit = _new_charge(db, patient_id, appointment_id, "no_show_deposit", NO_SHOW_DEPOSIT, "paid", deposit_card_last4)
    return {"appointment": appointment, "deposit": deposit}


def _late_fee(db: HealthcareDB, appointment: Appointment) -> Charge | None:
    """Charge the late fee, or forfeit the deposit, for a change under 24 hours before the visit."""
    deposit = next(iter(_in_table_order("charges", "charge_id", db.charges.where(
        appointment_id=appointment.appointment_id, kind="no_show_deposit", status="paid"))), None)
    if deposit is not None:
        db.charges[deposit.charge_id].status = "forfeited"
        return db.charges[deposit.charge_id]
    care = db.providers[appointment.provider_id].care_type
    return _new_charge(db, appointment.patient_id, appointment.appointment_id, "late_cancellation_fee", LATE_FEE[care], "open")


@DOMAIN.tool(write=True)
def cancel_appointment(
    db: HealthcareDB,
    appointment_id: str,
    reason: Literal["schedule_conflict", "feeling_better", "transportation", "cost", "other"],
) -> dict:
    """Cancel an upcoming appointment. Under 24 hours' notice posts the late-cancellation fee (or forfeits a deposit)."""
    appointment = db.appointments.get(appointment_id)
    if appointment is None:
        raise ToolError(f"no appointment {appointment_id!r}")
    if appointment.status != "scheduled" or appointment.start <= NOW_TEXT:
        raise ToolError(f"only upcoming scheduled appointments can be cancelled (this one is {appointment.status})")
    fee = None
    if _hours_until(appointment.start) < 24:
        fee = _late_fee(db, appointment)
    else:
        deposit = next(iter(_in_table_order("charges", "charge_id", db.charges.where(
            appointment_id=appointment_id, kind="no_show_deposit", status="paid"))), None)
        if deposit is not None:
            db.charges[deposit.charge_id].status = "refunded"
    if appointment.slot_id and appointment.slot_id in db.slots:
        db.slots[appointment.slot_id].status = "open"
    if appointment.referral_id:
        ref = db.referrals[appointment.referral_id]
        ref.visits_used = max(0, ref.visits_used - 1)
    appointment.status = "cancelled"
    appointment.cancelled_at = NOW_TEXT
    appointment.cancel_reason = reason
    return {"appointment": appointment, "late_notice": fee is not None, "fee": fee}


@DOMAIN.tool(write=True)
def reschedule_appointment(db: HealthcareDB, appointment_id: str, new_slot_id: str) -> dict:
    """Move an upcoming appointment to another open slot with the same provider (at most twice per appointment)."""
    appointment = db.appointments.get(appointment_id)
    if appointment is None:
        raise ToolError(f"no appointment {appointment_id!r}")
    if appointment.status != "scheduled" or appointment.start <= NOW_TEXT:
        raise ToolError("only upcoming scheduled appointments can be rescheduled")
    slot = db.slots.get(new_slot_id)
    if slot is None:
        raise ToolError(f"no slot {new_slot_id!r}")
    if slot.provider_id != appointment.provider_id:
        raise ToolError("a reschedule keeps the same provider; to change provider cancel and book a new appointment")
    if slot.status != "open" or slot.start <= NOW_TEXT:
        raise ToolError("that slot is not open")
    if appointment.reschedule_count >= MAX_RESCHEDULES:
        raise ToolError(f"this appointment was already rescheduled {MAX_RESCHEDULES} times; it can only be cancelled")
    if appointment.referral_id and db.referrals[appointment.referral_id].expires_on < slot.start[:10]:
        raise ToolError("the referral for this visit expires before the new date")
    fee = _late_fee(db, appointment) if _hours_until(appointment.start) < 24 else None
    if appointment.slot_id and appointment.slot_id in db.slots:
        db.slots[appointment.slot_id].status = "open"
    slot.status = "booked"
    appointment.slot_id = new_slot_id
    appointment.start = slot.start
    appointment.reschedule_count += 1
    return {"appointment": appointment, "late_notice": fee is not None, "fee": fee}


def _rx_for(db: HealthcareDB, rx_id: str) -> Prescription:
    rx = db.prescriptions.get(rx_id)
    if rx is None:
        raise ToolError(f"no prescription {rx_id!r}")
    if rx.status != "active":
        raise ToolError("this prescription is discontinued")
    if rx.dea_schedule is not None:
        raise ToolError(f"schedule {rx.dea_schedule} controlled substance: the desk cannot refill or renew it; transfer to the nurse line")
    return rx


@DOMAIN.tool(write=True)
def request_refill(db: HealthcareDB, rx_id: str, pharmacy_id: str) -> RefillRequest:
    """Send a refill of an active, non-controlled prescription with refills remaining to a pharmacy."""
    rx = _rx_for(db, rx_id)
    if pharmacy_id not in db.pharmacies:
        raise ToolError(f"no pharmacy {pharmacy_id!r}")
    if rx.expires_on < TODAY.isoformat():
        raise ToolError(f"the prescription expired on {rx.expires_on}; request a renewal instead")
    if rx.refills_remaining <= 0:
        raise ToolError("no refills remaining; request a renewal from the prescriber instead")
    if TODAY.isoformat() < rx.earliest_refill_date:
        raise ToolError(f"too early to refill: the earliest refill date is {rx.earliest_refill_date}")
    if any(True for _ in db.refill_requests.where(rx_id=rx_id, status="submitted")):
        raise ToolError("a request for this prescription is already pending")
    rx.refills_remaining -= 1
    request_id = _next_id("RQ", 6, 0, len(db.refill_requests))
    request = RefillRequest(request_id=request_id, rx_id=rx_id, patient_id=rx.patient_id, kind="refill",
                            pharmacy_id=pharmacy_id, note="", submitted_at=NOW_TEXT, status="submitted")
    db.refill_requests[request_id] = request
    return request


@DOMAIN.tool(write=True)
def request_renewal(
    db: HealthcareDB,
    rx_id: str,
    pharmacy_id: str,
    note: Annotated[str, Field(description="what the patient tells the prescriber (symptoms, how the medicine works)")],
) -> RefillRequest:
    """Ask the prescriber to renew a non-controlled prescription that has no refills left or has expired."""
    rx = _rx_for(db, rx_id)
    if pharmacy_id not in db.pharmacies:
        raise ToolError(f"no pharmacy {pharmacy_id!r}")
    if rx.refills_remaining > 0 and rx.expires_on >= TODAY.isoformat():
        raise ToolError("this prescription still has refills; request a refill instead")
    if any(True for _ in db.refill_requests.where(rx_id=rx_id, status="submitted")):
        raise ToolError("a request for this prescription is already pending")
    if not note.strip():
        raise ToolError("a note for the prescriber is required")
    request_id = _next_id("RQ", 6, 0, len(db.refill_requests))
    request = RefillRequest(request_id=request_id, rx_id=rx_id, patient_id=rx.patient_id, kind="renewal",
                            pharmacy_id=pharmacy_id, note=note.strip(), submitted_at=NOW_TEXT, status="submitted")
    db.refill_requests[request_id] = request
    return request


@DOMAIN.tool(write=True)
def release_records(
    db: HealthcareDB,
    patient_id: PatientId,
    consent_id: str,
    record_types: Annotated[list[Literal["visit_notes", "lab_results", "imaging", "immunizations", "medications", "billing", "mental_health"]],
                            Field(description="the record types to send; each must be covered by the consent")],
    delivery_method: Literal["secure_electronic", "paper_mail"],
) -> RecordsRelease:
    """Release records to the third party named on a valid signed consent. Paper copies by mail post a $25 fee."""
    _patient(db, patient_id)
    consent = db.consents.get(consent_id)
    if consent is None or consent.patient_id != patient_id:
        raise ToolError("no such consent on file for this patient")
    if consent.revoked:
        raise ToolError("this consent was revoked")
    if consent.expires_on < TODAY.isoformat():
        raise ToolError(f"this consent expired on {consent.expires_on}")
    if not record_types or len(set(record_types)) != len(record_types):
        raise ToolError("give one or more distinct record types")
    uncovered = [t for t in record_types if t not in consent.record_types]
    if uncovered:
        raise ToolError("the consent does not cover: " + ", ".join(uncovered))
    release_id = _next_id("RR", 5, 0, len(db.records_releases))
    fee_id = None
    if delivery_method == "paper_mail":
        fee_id = _new_charge(db, patient_id, None, "records_copy_fee", PAPER_COPY_FEE, "open").charge_id
    release = RecordsRelease(release_id=release_id, patient_id=patient_id, consent_id=consent_id,
                             recipient_name=consent.recipient_name, record_types=list(record_types),
                             delivery_method=delivery_method, requested_at=NOW_TEXT, status="queued", fee_charge_id=fee_id)
    db.records_releases[release_id] = release
    return release


@DOMAIN.tool(write=True)
def update_insurance(
    db: HealthcareDB,
    patient_id: PatientId,
    plan_id: str,
    member_id: Annotated[str, Field(description="the member id printed on the new insurance card")],
) -> Patient:
    """Replace the insurance on file with a new active plan (deductible met resets to 0)."""
    patient = _patient(db, patient_id)
    if plan_id not in db.insurance_plans:
        raise ToolError(f"no insurance plan {plan_id!r}")
    if not member_id.strip():
        raise ToolError("a member id is required")
    if patient.coverage and patient.coverage.plan_id == plan_id and patient.coverage.member_id == member_id.strip():
        raise ToolError("that coverage is already on file")
    from tests_domains.healthcare.schema import Coverage

    patient.coverage = Coverage(plan_id=plan_id, member_id=member_id.strip(), deductible_met=0.0, status="active")
    return patient


@DOMAIN.tool(write=True)
def pay_charge(db: HealthcareDB, charge_id: str, card_last4: Annotated[str, Field(description="last 4 digits of a card on file")]) -> Charge:
    """Pay one open charge in full with a card on file."""
    charge = db.charges.get(charge_id)
    if charge is None:
        raise ToolError(f"no charge {charge_id!r}")
    if charge.status != "open":
        raise ToolError(f"this charge is {charge.status}, not open")
    if card_last4 not in [c.last4 for c in db.patients[charge.patient_id].cards_on_file]:
        raise ToolError("no card on file ends with those digits")
    charge.status = "paid"
    charge.paid_with_card = card_last4
    return charge


@DOMAIN.tool(write=True)
def update_preferred_pharmacy(db: HealthcareDB, patient_id: PatientId, pharmacy_id: str) -> Patient:
    """Set the patient's preferred pharmacy."""
    patient = _patient(db, patient_id)
    if pharmacy_id not in db.pharmacies:
        raise ToolError(f"no pharmacy {pharmacy_id!r}")
    if patient.preferred_pharmacy_id == pharmacy_id:
        raise ToolError("that is already the preferred pharmacy")
    patient.preferred_pharmacy_id = pharmacy_id
    return patient


@DOMAIN.tool
def calculate(db: HealthcareDB, expression: Annotated[str, Field(description="arithmetic with numbers, + - * / and parentheses")]) -> str:
    """Evaluate an arithmetic expression; the result is rounded to 2 decimals."""
    return _calculate(expression)


@DOMAIN.tool(transfer=True)
def transfer_to_human_agents(db: HealthcareDB, summary: Annotated[str, Field(description="a short summary of the patient's issue")]) -> str:
    """Transfer the caller to a human (nurse line, patient relations or billing), with a summary."""
    return "Transfer successful"
