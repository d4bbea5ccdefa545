"""Corvane Therapeutics' trial-coordination desk: the tools an agent uses to serve site coordinators who call in.

The tools refuse only what the data makes impossible (no such record, nothing left to cancel, a sample already
shipped). Every rule of the policy (windows, weekdays, deadlines, consent, eligibility, blinding, who may act on
which participant) is the agent's to apply.
"""

from __future__ import annotations

import hashlib
from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import after_now, cents, not_after_now, ordered, plausible_age
from tests_domains.pharmaceuticals.generate import AE_DAYS, SHIP_BASE, SHIP_PER_SAMPLE
from tests_domains.pharmaceuticals.schema import (
    AdverseEvent,
    Coordinator,
    Deviation,
    PharmaDB,
    Reconsent,
    Sample,
    Shipment,
    Site,
    Study,
    Unblinding,
    Visit,
)

DOMAIN = Domain("pharmaceuticals", PharmaDB, now=datetime(2026, 6, 10, 10, 0))

ParticipantId = Annotated[str, Field(description="the participant number, e.g. 'CRV301-104-007'")]
SiteId = Annotated[str, Field(description="the site id, e.g. 'S104' (S followed by the site number)")]
IsoDate = Annotated[str, Field(description="a date as YYYY-MM-DD")]
VisitCode = Annotated[str, Field(description="the protocol visit code, e.g. 'V4'")]
Severity = Literal["mild", "moderate", "severe", "life_threatening"]
AETerm = Literal[
    "Headache", "Nausea", "Injection site erythema", "Upper respiratory tract infection", "Fatigue", "Dizziness",
    "Diarrhoea", "Arthralgia", "Hypertension", "Rash", "Elevated ALT", "Hypoglycaemia", "Peripheral oedema",
    "Pneumonia", "Atrial fibrillation", "Syncope", "Acute kidney injury", "Cellulitis", "Hyperkalaemia",
    "Back pain", "Insomnia", "Cough",
]
DeviationCategory = Literal["visit_out_of_window", "missed_visit", "consent", "dosing", "eligibility",
                            "safety_reporting", "other"]


def _date(value: str, label: str) -> date:
    try:
        parsed = date.fromisoformat(value.strip())
    except (AttributeError, TypeError, ValueError):
        raise ToolError(f"{label} must be a date as YYYY-MM-DD, got {value!r}") from None
    if not 1900 <= parsed.year <= 2100:
        raise ToolError(f"{label} {value!r} is not a real calendar date for a study record")
    return parsed


def _blinded(p: Any) -> dict[str, Any]:
    data: dict[str, Any] = p.model_dump(mode="json")
    data.pop("arm", None)
    return data


def _participant(db: PharmaDB, participant_id: str) -> Any:
    return db.participants.require(participant_id.strip().upper())


def _visit(db: PharmaDB, participant_id: str, visit_code: str) -> Visit:
    p = _participant(db, participant_id)
    vid = f"{p.participant_id}-{visit_code.strip().upper()}"
    visit = db.visits.get(vid)
    if visit is None:
        raise ToolError(f"participant {p.participant_id} has no visit {visit_code!r}")
    return visit


def _window(db: PharmaDB, participant_id: str, visit_code: str) -> dict[str, Any]:
    p = _participant(db, participant_id)
    if not p.randomization_date:
        raise ToolError(f"participant {p.participant_id} has not been randomized, so has no visit schedule")
    study = db.studies.require(p.study_id)
    for v in study.visits:
        if v.visit_code == visit_code.strip().upper():
            target = date.fromisoformat(p.randomization_date) + timedelta(days=v.study_day - 1)
            return {"participant_id": p.participant_id, "visit_code": v.visit_code, "visit_name": v.name,
                    "target_date": target.isoformat(),
                    "earliest_date": (target - timedelta(days=v.window_before)).isoformat(),
                    "latest_date": (target + timedelta(days=v.window_after)).isoformat()}
    raise ToolError(f"study {p.study_id} has no visit {visit_code!r}")


def _due(severity: str, serious: bool, aware: date) -> date:
    if serious and severity == "life_threatening":
        days = AE_DAYS["life_threatening"]
    elif serious:
        days = AE_DAYS["serious"]
    elif severity in ("severe", "life_threatening"):
        days = AE_DAYS["severe"]
    else:
        days = AE_DAYS["other"]
    return aware + timedelta(days=days)


def _shipment_samples(db: PharmaDB, site_id: str, sample_ids: list[str]) -> tuple[str, list[Sample]]:
    site = db.sites.require(site_id.strip().upper())
    if not sample_ids:
        raise ToolError("no sample ids given")
    samples = []
    for sid in sample_ids:
        s = db.samples.require(sid.strip().upper())
        if db.participants.require(s.participant_id).site_id != site.site_id:
            raise ToolError(f"sample {s.sample_id} is not held at site {site.site_id}")
        if s.shipment_id and db.shipments.require(s.shipment_id).status != "cancelled":
            raise ToolError(f"sample {s.sample_id} is already on shipment {s.shipment_id}")
        samples.append(s)
    if len({s.sample_id for s in samples}) != len(samples):
        raise ToolError("a sample id is listed twice")
    storages = {s.storage for s in samples}
    if len(storages) > 1:
        raise ToolError("the samples need different storage conditions and cannot travel in one box: " + ", ".join(sorted(storages)))
    return site.site_id, samples


# ----------------------------------------------------------------------------- people and places


@DOMAIN.tool(authenticates=True)
def find_coordinator(
    db: PharmaDB,
    email: Annotated[str, Field(description="the caller's work email")],
    site_number: Annotated[str, Field(description="the caller's three-digit site number, e.g. '104'")],
) -> Coordinator:
    """Authenticate a calling site staff member by work email and site number; returns their staff record."""
    for c in db.coordinators.find(email=email):
        if c.site_id == f"S{site_number.strip().lstrip('Ss')}":
            return c
    raise ToolError("no site staff member matches that email and site number")


@DOMAIN.tool
def get_site(db: PharmaDB, site_id: SiteId) -> Site:
    """A site's name, city, principal investigator, the studies it runs and its central lab."""
    return db.sites.require(site_id.strip().upper())


@DOMAIN.tool
def get_study(db: PharmaDB, study_id: Annotated[str, Field(description="the study id, e.g. 'CRV-301'")]) -> Study:
    """A study's protocol summary: age range, inclusion and exclusion criteria, visit schedule with windows (in days
    before and after each visit's target day) and every consent version with its IRB approval and effective dates."""
    return db.studies.require(study_id.strip().upper())


@DOMAIN.tool
def get_participant(db: PharmaDB, participant_id: ParticipantId) -> dict[str, Any]:
    """A participant's record: study, site, initials, date of birth, status, screening and randomization dates, kit
    number and consent. The treatment arm is blinded and never shown."""
    return _blinded(_participant(db, participant_id))


# ----------------------------------------------------------------------------- visits


@DOMAIN.tool
def list_visits(db: PharmaDB, participant_id: ParticipantId) -> list[Visit]:
    """Every protocol visit of a randomized participant with its status and scheduled date."""
    p = _participant(db, participant_id)
    return sorted(db.visits.where(participant_id=p.participant_id), key=lambda v: int(v.visit_code[1:]))


@DOMAIN.tool
def get_visit_window(db: PharmaDB, participant_id: ParticipantId, visit_code: VisitCode) -> dict[str, Any]:
    """The window of one protocol visit for a participant: target date (randomization date plus the visit's study
    day minus one) and the earliest and latest dates of its window, both inclusive."""
    return _window(db, participant_id, visit_code)


@DOMAIN.tool(write=True)
def schedule_visit(db: PharmaDB, participant_id: ParticipantId, visit_code: VisitCode, visit_date: IsoDate) -> Visit:
    """Book (or move) a protocol visit to a date. Works on visits that are not yet scheduled or already scheduled."""
    visit = db.visits[_visit(db, participant_id, visit_code).visit_id]
    if visit.status not in ("scheduled", "not_scheduled"):
        raise ToolError(f"visit {visit.visit_id} is {visit.status} and cannot be scheduled")
    visit.scheduled_date = _date(visit_date, "visit_date").isoformat()
    visit.status = "scheduled"
    db.visits[visit.visit_id] = visit
    return visit


@DOMAIN.tool(write=True)
def record_missed_visit(db: PharmaDB, participant_id: ParticipantId, visit_code: VisitCode) -> Visit:
    """Mark a protocol visit as missed (it did not take place)."""
    visit = db.visits[_visit(db, participant_id, visit_code).visit_id]
    if visit.status not in ("scheduled", "not_scheduled"):
        raise ToolError(f"visit {visit.visit_id} is already {visit.status}")
    visit.status = "missed"
    db.visits[visit.visit_id] = visit
    return visit


# ----------------------------------------------------------------------------- safety


@DOMAIN.tool
def list_adverse_events(db: PharmaDB, participant_id: ParticipantId) -> list[AdverseEvent]:
    """Every adverse event reported for a participant, with severity, seriousness, dates and report deadline."""
    p = _participant(db, participant_id)
    return sorted(db.adverse_events.where(participant_id=p.participant_id), key=lambda a: (a.onset_date, a.ae_id))


@DOMAIN.tool
def get_ae_report_deadline(
    db: PharmaDB,
    severity: Severity,
    serious: Annotated[bool, Field(description="whether the event meets a seriousness criterion (hospitalization, "
                                               "disability, congenital anomaly, death, life-threatening)")],
    site_aware_date: Annotated[str, Field(description="the date the site first learned of the event, YYYY-MM-DD")],
) -> dict[str, Any]:
    """The date by which the sponsor must receive an adverse event report, counted in calendar days from the date
    the site became aware of it. Changes nothing."""
    due = _due(severity, serious, _date(site_aware_date, "site_aware_date"))
    return {"severity": severity, "serious": serious, "site_aware_date": site_aware_date, "report_due": due.isoformat()}


@DOMAIN.tool(write=True)
def report_adverse_event(
    db: PharmaDB,
    participant_id: ParticipantId,
    term: Annotated[AETerm, Field(description="the event's preferred term")],
    severity: Severity,
    serious: Annotated[bool, Field(description="whether the event meets a seriousness criterion")],
    onset_date: IsoDate,
    site_aware_date: Annotated[str, Field(description="the date the site first learned of the event, YYYY-MM-DD")],
    narrative: Annotated[FreeText, Field(description="a short narrative in the coordinator's words")] = "",
) -> AdverseEvent:
    """Report a new adverse event for a participant (status open); the report deadline is set from severity,
    seriousness and the site awareness date."""
    p = _participant(db, participant_id)
    onset, aware = _date(onset_date, "onset_date"), _date(site_aware_date, "site_aware_date")
    if aware < onset:
        raise ToolError("site_aware_date is before onset_date")
    key = db.adverse_events.new_key("AE-", p.participant_id, term, onset.isoformat())
    db.adverse_events[key] = AdverseEvent(ae_id=key, participant_id=p.participant_id, term=term, severity=severity,
                                          serious=serious, onset_date=onset.isoformat(), site_aware_date=aware.isoformat(),
                                          report_due=_due(severity, serious, aware).isoformat(), status="open",
                                          narrative=narrative)
    return db.adverse_events[key]


@DOMAIN.tool(write=True)
def emergency_unblind(
    db: PharmaDB,
    participant_id: ParticipantId,
    reason: Annotated[FreeText, Field(description="the medical reason for breaking the blind")] = "",
) -> dict[str, Any]:
    """Break the blind for one randomized participant: logs the unblinding and returns the treatment arm."""
    p = _participant(db, participant_id)
    if not p.arm:
        raise ToolError(f"participant {p.participant_id} has not been randomized")
    key = db.unblindings.new_key("UB-", p.participant_id)
    db.unblindings[key] = Unblinding(unblinding_id=key, participant_id=p.participant_id,
                                     performed_on=DOMAIN.today.isoformat(), reason=reason)
    return {"participant_id": p.participant_id, "arm": p.arm, "unblinding_id": key}


# ----------------------------------------------------------------------------- consent and enrolment


@DOMAIN.tool
def get_consent_status(db: PharmaDB, participant_id: ParticipantId) -> dict[str, Any]:
    """The consent version a participant last signed and when, their re-consent history, and the study's consent
    versions with IRB approval and effective dates, including which version is in effect today."""
    p = _participant(db, participant_id)
    study = db.studies.require(p.study_id)
    today = DOMAIN.today.isoformat()
    in_effect = None
    for v in study.consent_versions:
        if v.effective_date and v.effective_date <= today:
            in_effect = v.version
    history = sorted(db.reconsents.where(participant_id=p.participant_id), key=lambda r: r.signed_on)
    return {"participant_id": p.participant_id, "first_consent_on": p.first_consent_on,
            "signed_version": p.consent_version, "signed_on": p.consent_signed_on,
            "reconsents": [r.model_dump(mode="json") for r in history], "version_in_effect_today": in_effect,
            "versions": [v.model_dump(mode="json") for v in study.consent_versions]}


@DOMAIN.tool(write=True)
def record_reconsent(
    db: PharmaDB,
    participant_id: ParticipantId,
    version: Annotated[str, Field(description="the consent version signed, e.g. '3.0'")],
    signed_on: IsoDate,
) -> Reconsent:
    """Record that a participant signed a consent version; it becomes their current signed version."""
    p = _participant(db, participant_id)
    study = db.studies.require(p.study_id)
    wanted = version.strip().lstrip("vV")
    if wanted not in {v.version for v in study.consent_versions}:
        raise ToolError(f"study {study.study_id} has no consent version {version!r}")
    signed = _date(signed_on, "signed_on").isoformat()
    key = db.reconsents.new_key("RC-", p.participant_id, wanted)
    db.reconsents[key] = Reconsent(reconsent_id=key, participant_id=p.participant_id, version=wanted, signed_on=signed)
    p.consent_version, p.consent_signed_on = wanted, signed
    db.participants[p.participant_id] = p
    return db.reconsents[key]


@DOMAIN.tool(write=True)
def randomize_participant(db: PharmaDB, participant_id: ParticipantId) -> dict[str, Any]:
    """Randomize a participant in screening: assigns a blinded kit, sets today as the randomization date and Day 1,
    books the baseline visit for today and creates the rest of the visit schedule (not yet scheduled)."""
    p = _participant(db, participant_id)
    if p.status != "screening":
        raise ToolError(f"participant {p.participant_id} is {p.status}, not in screening")
    digest = hashlib.sha256(p.participant_id.encode()).hexdigest()
    p.arm = "A" if int(digest[:2], 16) % 2 == 0 else "B"
    p.kit_number = f"K{40000 + int(digest[2:8], 16) % 9000}"
    p.status, p.randomization_date = "randomized", DOMAIN.today.isoformat()
    db.participants[p.participant_id] = p
    study = db.studies.require(p.study_id)
    for v in study.visits:
        vid = f"{p.participant_id}-{v.visit_code}"
        first = v.study_day == 1
        db.visits[vid] = Visit(visit_id=vid, participant_id=p.participant_id, visit_code=v.visit_code,
                               status="scheduled" if first else "not_scheduled",
                               scheduled_date=DOMAIN.today.isoformat() if first else None)
    return {"participant_id": p.participant_id, "status": p.status, "randomization_date": p.randomization_date,
            "kit_number": p.kit_number}


@DOMAIN.tool(write=True)
def withdraw_participant(
    db: PharmaDB,
    participant_id: ParticipantId,
    reason: Annotated[FreeText, Field(description="why the participant is leaving, in the coordinator's words")] = "",
) -> dict[str, Any]:
    """Withdraw a randomized participant from the study; every visit not yet done is cancelled."""
    p = _participant(db, participant_id)
    if p.status != "randomized":
        raise ToolError(f"participant {p.participant_id} is {p.status}, not randomized")
    p.status, p.withdrawal_reason = "withdrawn", reason
    db.participants[p.participant_id] = p
    cancelled = []
    for v in list(db.visits.where(participant_id=p.participant_id)):
        if v.status in ("scheduled", "not_scheduled"):
            visit = db.visits[v.visit_id]
            visit.status = "cancelled"
            db.visits[v.visit_id] = visit
            cancelled.append(v.visit_code)
    return {"participant_id": p.participant_id, "status": p.status, "cancelled_visits": sorted(cancelled)}


# ----------------------------------------------------------------------------- deviations


@DOMAIN.tool
def list_deviations(db: PharmaDB, participant_id: ParticipantId) -> list[Deviation]:
    """Every protocol deviation logged for a participant."""
    p = _participant(db, participant_id)
    return sorted(db.deviations.where(participant_id=p.participant_id), key=lambda d: (d.occurred_on, d.deviation_id))


@DOMAIN.tool(write=True)
def log_protocol_deviation(
    db: PharmaDB,
    participant_id: ParticipantId,
    category: DeviationCategory,
    occurred_on: IsoDate,
    description: Annotated[FreeText, Field(description="what happened, in the coordinator's words")] = "",
) -> Deviation:
    """Log a protocol deviation for a participant (logged today)."""
    p = _participant(db, participant_id)
    when = _date(occurred_on, "occurred_on").isoformat()
    key = db.deviations.new_key("DV-", p.participant_id, category, when)
    db.deviations[key] = Deviation(deviation_id=key, participant_id=p.participant_id, category=category, occurred_on=when,
                                   logged_on=DOMAIN.today.isoformat(), description=description)
    return db.deviations[key]


# ----------------------------------------------------------------------------- samples and shipments


@DOMAIN.tool
def list_unshipped_samples(db: PharmaDB, site_id: SiteId) -> list[Sample]:
    """Samples held at a site that are not on any live shipment, with kind, storage condition and collection date."""
    site = db.sites.require(site_id.strip().upper())
    out = []
    for s in db.samples.values():
        if s.shipment_id and db.shipments.require(s.shipment_id).status != "cancelled":
            continue
        if db.participants.require(s.participant_id).site_id == site.site_id:
            out.append(s)
    return sorted(out, key=lambda s: s.sample_id)


@DOMAIN.tool
def list_shipments(db: PharmaDB, site_id: SiteId) -> list[Shipment]:
    """A site's sample shipments, newest pickup first."""
    site = db.sites.require(site_id.strip().upper())
    return sorted(db.shipments.where(site_id=site.site_id), key=lambda s: (s.pickup_date, s.shipment_id), reverse=True)


@DOMAIN.tool
def quote_shipment(
    db: PharmaDB,
    site_id: SiteId,
    sample_ids: Annotated[list[str], Field(description="the ids of the samples to ship together")],
    pickup_date: IsoDate,
) -> dict[str, Any]:
    """The courier fee for shipping these samples to the site's central lab on a pickup date: a base charge for the
    storage condition plus a charge per sample. Changes nothing."""
    site_id, samples = _shipment_samples(db, site_id, sample_ids)
    storage = samples[0].storage
    pickup = _date(pickup_date, "pickup_date")
    fee = round(SHIP_BASE[storage] + SHIP_PER_SAMPLE[storage] * len(samples), 2)
    return {"site_id": site_id, "storage": storage, "sample_count": len(samples), "pickup_date": pickup.isoformat(),
            "pickup_weekday": pickup.strftime("%A"), "courier_fee": fee}


@DOMAIN.tool(write=True)
def book_shipment(
    db: PharmaDB,
    site_id: SiteId,
    sample_ids: Annotated[list[str], Field(description="the ids of the samples to ship together")],
    pickup_date: IsoDate,
) -> Shipment:
    """Book a courier pickup of these samples to the site's central lab (status booked); the fee is charged to the
    site's study budget."""
    site_id, samples = _shipment_samples(db, site_id, sample_ids)
    storage = samples[0].storage
    pickup = _date(pickup_date, "pickup_date").isoformat()
    ids = sorted(s.sample_id for s in samples)
    key = db.shipments.new_key("SH-", site_id, pickup, storage, *ids)
    db.shipments[key] = Shipment(shipment_id=key, site_id=site_id, storage=storage, sample_ids=ids, pickup_date=pickup,
                                 status="booked", courier_fee=round(SHIP_BASE[storage] + SHIP_PER_SAMPLE[storage] * len(ids), 2))
    for s in samples:
        sample = db.samples[s.sample_id]
        sample.shipment_id = key
        db.samples[s.sample_id] = sample
    return db.shipments[key]


@DOMAIN.tool(write=True)
def cancel_shipment(db: PharmaDB, shipment_id: Annotated[str, Field(description="the shipment id")]) -> Shipment:
    """Cancel a booked shipment; its samples go back to the site's unshipped samples."""
    ship = db.shipments.require(shipment_id.strip())
    if ship.status != "booked":
        raise ToolError(f"shipment {ship.shipment_id} is {ship.status} and can no longer be cancelled")
    ship.status = "cancelled"
    db.shipments[ship.shipment_id] = ship
    for sid in ship.sample_ids:
        sample = db.samples[sid]
        sample.shipment_id = None
        db.samples[sid] = sample
    return ship


# -- data invariants: the trial's own chronology ----------------------------------------------
DOMAIN.invariants(
    plausible_age("participants", "date_of_birth", at="screening_date", low=18, high=90),
    plausible_age("coordinators", "date_of_birth", low=20, high=80),
    not_after_now("participants", "screening_date"),
    not_after_now("participants", "first_consent_on"),
    ordered("participants", "first_consent_on", "screening_date"),
    ordered("participants", "screening_date", "randomization_date"),
    not_after_now("participants", "randomization_date"),
    ordered("participants", "first_consent_on", "consent_signed_on"),
    not_after_now("adverse_events", "onset_date"),
    ordered("adverse_events", "onset_date", "site_aware_date"),
    not_after_now("adverse_events", "site_aware_date"),
    not_after_now("samples", "collected_on"),
    not_after_now("reconsents", "signed_on"),
    not_after_now("deviations", "occurred_on"),
    ordered("deviations", "occurred_on", "logged_on"),
    not_after_now("unblindings", "performed_on"),
    after_now("visits", "scheduled_date", where=lambda visit: visit.status == "scheduled"),
    not_after_now("visits", "scheduled_date", where=lambda visit: visit.status in ("completed", "missed")),
    after_now("shipments", "pickup_date", where=lambda shipment: shipment.status == "booked"),
    not_after_now("shipments", "pickup_date", where=lambda shipment: shipment.status in ("in_transit", "received")),
    cents("shipments", "courier_fee"),
)

# Policy 6.2 and 3.4: a missing re-consent is recorded before the participant is randomized or a visit is booked.
DOMAIN.order("record_reconsent", "randomize_participant")
DOMAIN.order("record_reconsent", "schedule_visit")

# 2.2 and 3.1: the courier fee quoted before the shipment is booked; the window read before a visit is booked.
DOMAIN.order("quote_shipment", "book_shipment")
DOMAIN.order("get_visit_window", "schedule_visit")
