"""Builds fixtures/healthcare/tasks.json: `python -m tests_domains.healthcare.make_tasks`.

Each task kind picks concrete patients and records from the initial DB in id order; its gold
calls run on the task's own environment as they are added (`TaskWriter`), and every figure a
task states is read from what those calls returned.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from typing import Any

from pytest_tau import TaskDraft, TaskWriter
from tests_domains.healthcare.domain import DIRECT_ACCESS, DOMAIN, NOW_TEXT, no_shows
from tests_domains.healthcare.generate import CITY_ZIPS, REASONS_SPECIALIST
from tests_domains.healthcare.schema import Appointment, InsurancePlan, Patient, Prescription, Provider, Slot

CITY_OF_ZIP = {z: city for city, zips in CITY_ZIPS.items() for z in zips}
TODAY = DOMAIN.today.isoformat()
MOODS = ["You are polite but a little rushed.", "You are friendly and chatty.", "You are calm and precise.",
         "You are somewhat anxious and ask the agent to repeat the key details.", "You are matter-of-fact."]
TRAIN = {"book_pcp_visit_3", "cancel_late_notice_3", "controlled_refill_transfer_3", "copay_question_2",
         "renewal_no_refills_2", "release_partial_consent_2"}


class Builder:
    """The state of one run of the generator: the DB, the writer, the patients already used."""

    def __init__(self) -> None:
        self.db = DOMAIN.initial_db
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(7)
        self.used: set[str] = set()
        self.appointments: dict[str, list[Appointment]] = {}
        for appt in self.db.appointments.values():
            self.appointments.setdefault(appt.patient_id, []).append(appt)

    # -- picking records ------------------------------------------------------------------------
    def patients(self, pred: Callable[[Patient], Any]) -> Iterator[Patient]:
        for p in self.db.patients.values():
            if p.patient_id not in self.used and pred(p):
                yield p

    def mood(self) -> str:
        return self.rng.choice(MOODS)

    def task(self, kind: str, p: Patient, instructions: str, script: list[str]) -> TaskDraft:
        self.used.add(p.patient_id)
        n = sum(1 for tid in self.writer.drafts if tid.rsplit("_", 1)[0] == kind) + 1
        tid = f"{kind}_{n}"
        return self.writer.task(tid, instructions=instructions, script=script, split="train" if tid in TRAIN else "test")

    def upcoming(self, p: Patient) -> list[Appointment]:
        return sorted((a for a in self.appointments.get(p.patient_id, []) if a.status == "scheduled" and a.start > NOW_TEXT),
                      key=lambda a: a.start)

    def no_shows(self, p: Patient) -> int:
        return no_shows(self.appointments.get(p.patient_id, []))

    def established(self, p: Patient, provider_id: str) -> bool:
        return any(a.provider_id == provider_id and a.status == "completed" for a in self.appointments.get(p.patient_id, []))

    def visit_type(self, p: Patient, provider_id: str) -> str:
        """Policy 3.3 (CPT): new_patient unless a visit in the provider's specialty was completed."""
        specialty = self.db.providers[provider_id].specialty
        seen = any(a.status == "completed" and self.db.providers[a.provider_id].specialty == specialty
                   for a in self.appointments.get(p.patient_id, []))
        return "follow_up" if seen else "new_patient"

    def plan(self, p: Patient) -> InsurancePlan | None:
        return self.db.insurance_plans[p.coverage.plan_id] if p.coverage else None

    def bookable(self, p: Patient, provider_id: str, *, deposit: bool = False) -> bool:
        """The policy lets the desk book this patient with this provider (section 3)."""
        pr = self.db.providers[provider_id]
        ns = self.no_shows(p)
        if ns >= 3 or (ns == 2) != deposit:
            return False
        if p.coverage and (p.coverage.status != "active" or p.coverage.plan_id not in pr.accepted_plan_ids):
            return False
        ups = self.upcoming(p)
        if len(ups) >= 3 or any(a.provider_id == provider_id for a in ups):
            return False
        return self.established(p, provider_id) or pr.accepting_new_patients

    def open_slots(self, provider_id: str, day: str) -> list[Slot]:
        return sorted((s for s in self.db.slots.where(provider_id=provider_id)
                       if s.status == "open" and s.start > NOW_TEXT and s.start[:10] == day), key=lambda s: s.start)

    def pick_day(self, provider_id: str, earliest: int = 3) -> str | None:
        first = (DOMAIN.today + timedelta(days=earliest)).isoformat()
        days = sorted({s.start[:10] for s in self.db.slots.where(provider_id=provider_id) if s.status == "open" and s.start[:10] >= first})
        return days[self.rng.randrange(min(len(days), 8))] if days else None

    def prescriptions(self, p: Patient) -> list[Prescription]:
        return sorted(self.db.prescriptions.where(patient_id=p.patient_id), key=lambda r: r.rx_id)

    def pending(self, rx: Prescription) -> bool:
        return any(q.status == "submitted" for q in self.db.refill_requests.where(rx_id=rx.rx_id))

    def refillable(self, p: Patient) -> list[Prescription]:
        return [r for r in self.prescriptions(p) if r.status == "active" and r.dea_schedule is None and r.refills_remaining > 0
                and r.expires_on >= TODAY and r.earliest_refill_date <= TODAY and not self.pending(r)]

    def unique_drugs(self, p: Patient, rx: Prescription) -> bool:
        """The patient has one prescription of this drug: naming the drug names the prescription."""
        return sum(1 for r in self.prescriptions(p) if r.drug_name == rx.drug_name) == 1

    def dr(self, provider_id: str) -> str:
        pr = self.db.providers[provider_id]
        title = "Dr. " if pr.credentials in ("MD", "DO") else ""
        suffix = "" if title else f", {pr.credentials}"
        return f"{title}{pr.first_name} {pr.last_name}{suffix}"

    def city(self, provider: Provider) -> str:
        return self.db.clinics[provider.clinic_id].city


def pretty_date(iso: str) -> str:
    d = date.fromisoformat(iso[:10])
    return d.strftime("%A, %B ") + str(d.day)


def pretty_time(iso: str) -> str:
    h, m = int(iso[11:13]), iso[14:16]
    return f"{h % 12 or 12}:{m} {'AM' if h < 12 else 'PM'}"


def who(p: Patient) -> str:
    dob = date.fromisoformat(p.date_of_birth)
    return f"You are {p.first_name} {p.last_name}, born {dob.strftime('%B')} {dob.day}, {dob.year}, living in zip code {p.zip}."


def intro(p: Patient) -> str:
    dob = date.fromisoformat(p.date_of_birth)
    return f"My name is {p.first_name} {p.last_name}, date of birth {dob.strftime('%B')} {dob.day}, {dob.year}."


def auth(d: TaskDraft, p: Patient) -> None:
    d.read("find_patient", first_name=p.first_name, last_name=p.last_name, date_of_birth=p.date_of_birth)


SPOKEN_TYPES = {"visit_notes": "visit notes", "lab_results": "lab results", "imaging": "imaging records",
                "immunizations": "immunization records", "medications": "medication list", "billing": "billing records",
                "mental_health": "mental health records"}
BRANDS = {"visa": "Visa", "mastercard": "Mastercard", "amex": "American Express", "discover": "Discover"}


def pretty(record_type: str) -> str:
    return SPOKEN_TYPES.get(record_type, record_type.replace("_", " "))


# -- book a primary care visit ------------------------------------------------------------------
def book_pcp(b: Builder, count: int) -> None:
    for p in b.patients(lambda p: p.primary_provider_id and b.established(p, p.primary_provider_id)
                        and b.bookable(p, p.primary_provider_id)):
        if count == 0:
            return
        pcp = p.primary_provider_id
        assert pcp is not None
        day = b.pick_day(pcp)
        afternoon = count % 2 == 0
        pool = [s for s in b.open_slots(pcp, day) if (s.start[11:13] >= "12") == afternoon] if day else []
        if not day or not pool:
            continue
        reason = b.rng.choice(["high blood pressure readings", "a follow-up on my cholesterol medication",
                               "a cough that won't go away", "a recheck of my thyroid levels", "an aching knee"])
        sick = "cough" in reason or "knee" in reason
        part = "afternoon" if afternoon else "morning"
        d = b.task("book_pcp_visit", p,
                   f"{who(p)} You want an appointment with your primary care provider, {b.dr(pcp)}, on {pretty_date(day)} in the "
                   f"{part}; take the earliest {part} time available that day. The reason, in your words: \"{reason}\". "
                   f"{'It is a new problem you want looked at (a sick visit).' if sick else 'It is a routine follow-up.'} "
                   f"{b.mood()} Give your name and birth date when asked; confirm the booking when the agent describes it.",
                   [f"Hi, I'd like to book a visit with {b.dr(pcp)}.", intro(p),
                    f"{pretty_date(day)}, {part} please, the earliest you have. It's about {reason}, "
                    f"{'a new problem I want looked at' if sick else 'a routine follow-up'}.", "Yes, book it."])
        auth(d, p)
        d.read("get_patient", patient_id=p.patient_id)
        d.read("list_appointments", patient_id=p.patient_id)
        d.read("find_open_slots", provider_id=pcp, start_date=day, end_date=day)
        d.write("book_appointment", patient_id=p.patient_id, slot_id=pool[0].slot_id,
                visit_type="sick_visit" if sick else "follow_up", reason=reason)
        d.one_end_state("The patient names their own primary care provider, the day and the half-day, and takes its earliest slot, so one slot "
                         "fits (3.1); they have completed visits with that provider, so the visit is established (3.3), a sick visit for a new "
                         "problem and a follow-up otherwise, as they say; with fewer than two no-shows no deposit applies (3.6).")
        count -= 1


# -- late cancellation: the fee and the balance it leaves ----------------------------------------------
def cancel_late(b: Builder, count: int) -> None:
    for p in b.patients(lambda p: any(a.start < "2026-05-15T10:00" for a in b.upcoming(p))
                        and any(c.status == "open" for c in b.db.charges.where(patient_id=p.patient_id))):
        if count == 0:
            return
        appt = next(a for a in b.upcoming(p) if a.start < "2026-05-15T10:00")
        if any(True for _ in b.db.charges.where(appointment_id=appt.appointment_id)):
            continue
        pr = b.db.providers[appt.provider_id]
        reason = ["transportation", "schedule_conflict", "feeling_better"][count % 3]
        why = {"transportation": "your car broke down and you have no ride",
               "schedule_conflict": "you got called into a shift at work",
               "feeling_better": "you are feeling much better"}[reason]
        said = {"transportation": "My car broke down and I have no ride.",
                "schedule_conflict": "I got called into a shift at work.",
                "feeling_better": "I'm feeling much better, so I don't need it."}[reason]
        d = b.task("cancel_late_notice", p,
                   f"{who(p)} You have an appointment with {b.dr(pr.provider_id)} ({pr.specialty}) on {pretty_date(appt.start)} at "
                   f"{pretty_time(appt.start)} and you need to cancel it because {why}. You want to know if there is any charge "
                   f"for cancelling, and what your total open balance with the clinic will be afterwards. If told about a fee, "
                   f"grumble but accept it and go ahead with the cancellation. You do not want to reschedule and you will not pay "
                   f"anything today. {b.mood()}",
                   [f"I need to cancel my appointment with {b.dr(pr.provider_id)}.", intro(p), said,
                    "Is there a charge for cancelling? And what will I owe in total after that?", "Fine, go ahead and cancel it anyway."])
        auth(d, p)
        d.read("list_appointments", patient_id=p.patient_id, status="scheduled")
        result = d.write("cancel_appointment", appointment_id=appt.appointment_id, reason=reason)
        d.output(result["fee"]["amount"], "money")
        charges = d.read("list_charges", patient_id=p.patient_id, status="open")
        total = d.read("calculate", expression=" + ".join(f"{c['amount']:g}" for c in charges))
        d.output(total, "money")
        count -= 1


# -- late cancel, pay the fee, and a refill -------------------------------------------------------------
def cancel_pay_refill(b: Builder, count: int) -> None:
    for p in b.patients(lambda p: p.cards_on_file and p.preferred_pharmacy_id and b.refillable(p)
                        and any(a.start < "2026-05-15T10:00" for a in b.upcoming(p))):
        if count == 0:
            return
        appt = next(a for a in b.upcoming(p) if a.start < "2026-05-15T10:00")
        rx = b.refillable(p)[0]
        if any(True for _ in b.db.charges.where(appointment_id=appt.appointment_id)) or not b.unique_drugs(p, rx):
            continue
        card = p.cards_on_file[-1]
        assert p.preferred_pharmacy_id is not None
        ph = b.db.pharmacies[p.preferred_pharmacy_id]
        d = b.task("cancel_pay_refill", p,
                   f"{who(p)} A family matter came up, so you must cancel your visit with {b.dr(appt.provider_id)} on "
                   f"{pretty_date(appt.start)} (the reason is personal; you won't say more). If there is a late fee you want to know "
                   f"the amount and pay it right away with your {BRANDS[card.brand]} card ending in {card.last4}. Then you need a refill of "
                   f"your {rx.drug_name} sent to your usual pharmacy, {ph.name}, and you want the pharmacy's phone number so you "
                   f"can call them about pick-up. {b.mood()}",
                   [f"I have to cancel my appointment with {b.dr(appt.provider_id)}.", intro(p), "It's personal.",
                    f"How much is the fee? OK, charge it to my {BRANDS[card.brand]} card ending {card.last4}.",
                    f"Also I need a refill of {rx.drug_name} at my usual pharmacy. What's their phone number, by the way?",
                    "Yes, go ahead."])
        auth(d, p)
        d.read("list_appointments", patient_id=p.patient_id, status="scheduled")
        result = d.write("cancel_appointment", appointment_id=appt.appointment_id, reason="other")
        d.output(result["fee"]["amount"], "money")
        d.write("pay_charge", charge_id=result["fee"]["charge_id"], card_last4=card.last4)
        d.read("list_refill_requests", patient_id=p.patient_id, status="submitted")
        d.read("list_prescriptions", patient_id=p.patient_id)
        d.write("request_refill", rx_id=rx.rx_id, pharmacy_id=ph.pharmacy_id)
        pharmacies = d.read("search_pharmacies", city=ph.city)
        d.output(next(x["phone"] for x in pharmacies if x["pharmacy_id"] == ph.pharmacy_id), "phone")
        d.one_end_state("The patient has one upcoming visit with that provider, under 24 hours away, so the cancellation is late "
                         "and posts the fee (4.2), with the reason 'other' for a personal reason (4.4); they pay that one charge with the card "
                         "they name (6.2); the refill is of their only prescription of that drug, due, with refills left and none pending, to "
                         "their preferred pharmacy (7.1).")
        count -= 1


# -- reschedule with notice, new preferred pharmacy, refill there -----------------------------------------
def reschedule_refill_pharmacy(b: Builder, count: int) -> None:
    for p in b.patients(lambda p: b.refillable(p) and p.preferred_pharmacy_id
                        and any(a.start >= "2026-05-16" and a.reschedule_count < 2 for a in b.upcoming(p))):
        if count == 0:
            return
        appt = next(a for a in b.upcoming(p) if a.start >= "2026-05-16" and a.reschedule_count < 2)
        days = sorted({s.start[:10] for s in b.db.slots.where(provider_id=appt.provider_id)
                       if s.status == "open" and s.start[:10] > appt.start[:10]})
        rx = b.refillable(p)[0]
        if not days or not b.unique_drugs(p, rx):
            continue
        if appt.referral_id and b.db.referrals[appt.referral_id].expires_on < days[0]:
            continue
        slot = b.open_slots(appt.provider_id, days[0])[-1]
        assert p.preferred_pharmacy_id is not None
        city = b.db.pharmacies[p.preferred_pharmacy_id].city
        new_ph = next(ph for ph in b.db.pharmacies.values() if ph.city == city and ph.pharmacy_id != p.preferred_pharmacy_id)
        d = b.task("reschedule_refill_new_pharmacy", p,
                   f"{who(p)} You have an appointment with {b.dr(appt.provider_id)} on {pretty_date(appt.start)} at "
                   f"{pretty_time(appt.start)}. You want to move it to the next day after that on which the provider has "
                   f"openings, at the latest time available that day. You have also switched pharmacies: from now on you use "
                   f"{new_ph.name} at {new_ph.street}, {city}, and you want that saved as your preferred pharmacy. Finally, send a "
                   f"refill of your {rx.drug_name} {rx.strength} there. {b.mood()}",
                   [f"Hi, I need to move my appointment with {b.dr(appt.provider_id)}.", intro(p),
                    "The next day after it that has openings, the latest time that day.",
                    f"Also, please make {new_ph.name} on {new_ph.street} my pharmacy, and refill my {rx.drug_name} there.",
                    "Yes, all of that."])
        auth(d, p)
        d.read("list_appointments", patient_id=p.patient_id, status="scheduled")
        d.read("find_open_slots", provider_id=appt.provider_id, start_date=days[0], end_date=days[0])
        d.write("reschedule_appointment", appointment_id=appt.appointment_id, new_slot_id=slot.slot_id)
        d.read("search_pharmacies", city=city)
        d.write("update_preferred_pharmacy", patient_id=p.patient_id, pharmacy_id=new_ph.pharmacy_id)
        d.read("list_prescriptions", patient_id=p.patient_id)
        d.read("list_refill_requests", patient_id=p.patient_id, status="submitted")  # none pending (7.1)
        d.write("request_refill", rx_id=rx.rx_id, pharmacy_id=new_ph.pharmacy_id)
        d.one_end_state("One upcoming visit with that provider, more than 24 hours away and rescheduled fewer than twice, "
                         "moves to the latest slot of the first later day with openings, within any referral's expiry (4.2, 4.3); the "
                         "pharmacy the patient names by name and street becomes the preferred one, and the refill of their only prescription "
                         "of that drug, due and not pending, goes there (7.1).")
        count -= 1


# -- HDHP estimate, then a first specialist visit ----------------------------------------------------
def hdhp_estimate(b: Builder, count: int) -> None:
    for p in b.patients(lambda p: p.coverage and p.coverage.status == "active" and b.plan(p).plan_type == "HDHP"):  # type: ignore[union-attr]
        if count == 0:
            return
        plan = b.plan(p)
        assert plan is not None and p.coverage is not None
        home = CITY_OF_ZIP[p.zip]
        cands = [pr for pr in b.db.providers.values() if pr.care_type == "specialist" and b.city(pr) == home
                 and b.bookable(p, pr.provider_id) and b.visit_type(p, pr.provider_id) == "new_patient"]
        if not cands:
            continue
        pr = cands[count % len(cands)]
        day = b.pick_day(pr.provider_id)
        if not day:
            continue
        slot = b.open_slots(pr.provider_id, day)[0]
        reason = b.rng.choice(REASONS_SPECIALIST[pr.specialty])
        d = b.task("hdhp_estimate_and_book", p,
                   f"{who(p)} You want to see {b.dr(pr.provider_id)}, who practices {pr.specialty} in {home}, for the first time, "
                   f"for this reason: {reason}. You have a high-deductible plan and before booking you want to know what this first visit "
                   f"will cost you. Once you hear the estimate, book the earliest time on {pretty_date(day)}. {b.mood()}",
                   [f"Hello, I want to book a first visit with {b.dr(pr.provider_id)}, the {pr.specialty.lower()} doctor in {home}. "
                    "What will it cost me?", intro(p), f"The reason for the visit: {reason}.",
                    f"OK. Book the earliest slot on {pretty_date(day)}.", "Yes, confirm."])
        auth(d, p)
        d.read("list_appointments", patient_id=p.patient_id)
        d.read("find_providers_by_name", last_name=pr.last_name, first_name=pr.first_name)
        d.read("get_insurance_plan", plan_id=plan.plan_id)
        fees = d.read("get_fee_schedule")
        allowed = fees["allowed_amounts"]["specialist"]["new_patient"]
        remaining = d.read("calculate", expression=f"{plan.annual_deductible:g} - {p.coverage.deductible_met:g}")
        if allowed <= remaining:
            d.output(allowed, "money")
        else:
            estimate = d.read("calculate", expression=f"{remaining:g} + {plan.coinsurance_pct} / 100 * ({allowed:g} - {remaining:g})")
            d.output(estimate, "money")
        d.read("find_open_slots", provider_id=pr.provider_id, start_date=day, end_date=day)
        d.write("book_appointment", patient_id=p.patient_id, slot_id=slot.slot_id, visit_type="new_patient", reason=reason)
        d.one_end_state("The patient names the provider, who accepts their active HDHP plan (3.2; an HDHP needs no referral, 3.4); "
                         "they have completed no visit in that specialty, so the visit is new_patient (3.3) and the estimate is the HDHP "
                         "formula on the specialist new-patient allowed amount (5.3); the earliest slot of the named day is the one asked for.")
        count -= 1


# -- copays (a question only) -----------------------------------------------------------------------
def copay_question(b: Builder, count: int) -> None:
    fixed = {40.0, 75.0, 25.0, 50.0, 30.0}  # amounts the policy itself states: not a look-up
    for p in b.patients(lambda p: p.coverage and p.coverage.status == "active" and b.plan(p).plan_type in ("PPO", "EPO")  # type: ignore[union-attr]
                        and not {b.plan(p).primary_copay, b.plan(p).specialist_copay} & fixed):  # type: ignore[union-attr]
        if count == 0:
            return
        plan = b.plan(p)
        assert plan is not None
        spec = b.rng.choice(["Dermatology", "Cardiology", "Orthopedics"])
        d = b.task("copay_question", p,
                   f"{who(p)} You are thinking about seeing a {spec} specialist and also your regular primary care doctor, and want "
                   f"to know what you would pay per visit at each under your current insurance. You do not want to book anything "
                   f"today. {b.mood()}",
                   [f"Hi, what would my copay be for a {spec.lower()} specialist visit, and for a regular doctor visit?", intro(p),
                    "Thanks, that's all I needed."])
        auth(d, p)
        d.read("get_patient", patient_id=p.patient_id)
        benefits = d.read("get_insurance_plan", plan_id=plan.plan_id)
        d.output(benefits["specialist_copay"], "money")
        d.output(benefits["primary_copay"], "money")
        count -= 1


# -- controlled substance: refuse and transfer ---------------------------------------------------------
def controlled(b: Builder, count: int) -> None:
    def ctrl(p: Patient) -> list[Prescription]:
        return [r for r in b.prescriptions(p) if r.dea_schedule and r.status == "active" and r.refills_remaining > 0]
    for p in b.patients(lambda p: ctrl(p) and p.preferred_pharmacy_id and b.unique_drugs(p, ctrl(p)[0])):
        if count == 0:
            return
        rx = ctrl(p)[0]
        assert p.preferred_pharmacy_id is not None
        d = b.task("controlled_refill_transfer", p,
                   f"{who(p)} You are almost out of your {rx.drug_name} and want a refill sent to your usual pharmacy today. If the "
                   f"agent says it cannot do it, insist once that you really need it, then accept being transferred to someone who "
                   f"can help. {b.mood()}",
                   [f"I need a refill on my {rx.drug_name}.", intro(p), "Please, I'm almost out. Can't you just send it?",
                    "Alright, transfer me."])
        auth(d, p)
        d.read("list_prescriptions", patient_id=p.patient_id)
        d.require("list_prescriptions", patient_id=p.patient_id)
        d.transfer(f"Patient asks for a refill of {rx.drug_name} (DEA schedule {rx.dea_schedule}); controlled substances go to the nurse line.")
        d.forbid("request_refill", rx_id=rx.rx_id, pharmacy_id=p.preferred_pharmacy_id)
        d.forbid("request_renewal", rx_id=rx.rx_id, pharmacy_id=p.preferred_pharmacy_id, note="Patient is almost out.")
        d.one_end_state("The drug has a DEA schedule, so whatever else holds of the prescription (due or not, expired or not) the "
                         "desk neither refills nor renews it and must transfer to the nurse line (7.4, 9.1): no other end state follows "
                         "the policy.")
        count -= 1


# -- refill too early (alone, or beside one that is due) -----------------------------------------------
def too_early(b: Builder, count: int, with_other: bool) -> None:
    def early(p: Patient) -> list[Prescription]:
        return [r for r in b.prescriptions(p) if r.status == "active" and not r.dea_schedule and r.refills_remaining > 0
                and r.earliest_refill_date > TODAY and r.expires_on >= TODAY and not b.pending(r) and b.unique_drugs(p, r)]
    for p in b.patients(lambda p: early(p) and p.preferred_pharmacy_id and bool(b.refillable(p)) == with_other):
        if count == 0:
            return
        rx = early(p)[0]
        other = b.refillable(p)[0] if with_other else None
        if other is not None and not b.unique_drugs(p, other):
            continue
        assert p.preferred_pharmacy_id is not None
        ph = b.db.pharmacies[p.preferred_pharmacy_id]
        if other is not None:
            ask = f"refills of both your {rx.drug_name} and your {other.drug_name}"
            tail = f" If only one of them can be sent, have it sent to {ph.name} and ask when you can get the other."
        else:
            ask = f"a refill of your {rx.drug_name}"
            tail = " If it can't be done yet, you want to know the exact date you can ask again, then you're done."
        d = b.task("refill_too_early", p,
                   f"{who(p)} You are going on a trip and want {ask} sent to your pharmacy now.{tail} Do not ask for anything "
                   f"else. {b.mood()}",
                   [f"I'd like {ask.replace('your', 'my')}.", intro(p), f"My usual pharmacy, {ph.name}.", "When can I get it then?", "OK, thanks."])
        auth(d, p)
        listed = d.read("list_prescriptions", patient_id=p.patient_id)
        d.read("list_refill_requests", patient_id=p.patient_id, status="submitted")
        d.output(next(r["earliest_refill_date"] for r in listed if r["rx_id"] == rx.rx_id), "date")
        if other is not None:
            d.write("request_refill", rx_id=other.rx_id, pharmacy_id=ph.pharmacy_id)
        d.forbid("request_refill", rx_id=rx.rx_id, pharmacy_id=ph.pharmacy_id)
        d.one_end_state("The prescription asked for is active, not controlled, has refills, has not expired and has no pending "
                         "request, so the one rule that stops it is the earliest refill date, which the patient is told (7.2)"
                         + ("; the other prescription is due, with refills and none pending, and goes to the pharmacy the patient "
                            "names (7.1)." if other is not None else "."))
        count -= 1


# -- a request already pending ------------------------------------------------------------------------
def pending_request(b: Builder, count: int) -> None:
    def waiting(p: Patient) -> list[Prescription]:
        return [r for r in b.prescriptions(p) if r.status == "active" and not r.dea_schedule and r.refills_remaining > 0
                and r.expires_on >= TODAY and r.earliest_refill_date <= TODAY and b.pending(r) and b.unique_drugs(p, r)
                and sum(1 for q in b.db.refill_requests.where(rx_id=r.rx_id) if q.status == "submitted") == 1]
    for p in b.patients(lambda p: waiting(p) and p.preferred_pharmacy_id):
        if count == 0:
            return
        rx = waiting(p)[0]
        assert p.preferred_pharmacy_id is not None
        ph = b.db.pharmacies[p.preferred_pharmacy_id]
        d = b.task("refill_already_pending", p,
                   f"{who(p)} You want a refill of your {rx.drug_name} sent to {ph.name}. You do not remember whether you already "
                   f"asked for it online. If the agent says a request is already in progress, ask on what day it was submitted, "
                   f"and do not ask for a second one. {b.mood()}",
                   [f"Hi, can you send a refill of my {rx.drug_name} to {ph.name}?", intro(p),
                    "Oh, I might have asked online already. When was that sent in?", "OK, I'll wait for it then."])
        auth(d, p)
        d.read("list_prescriptions", patient_id=p.patient_id)
        requests = d.read("list_refill_requests", patient_id=p.patient_id, status="submitted")
        d.require("list_refill_requests", patient_id=p.patient_id)
        d.output(next(q["submitted_at"][:10] for q in requests if q["rx_id"] == rx.rx_id), "date")
        d.forbid("request_refill", rx_id=rx.rx_id, pharmacy_id=ph.pharmacy_id)
        d.one_end_state("The prescription is due, with refills, not expired and not controlled: the one rule that stops a new "
                         "request is the one still pending, whose submission day the patient is told (7.1).")
        count -= 1


# -- no refills left: a renewal request -----------------------------------------------------------------
def renewal(b: Builder, count: int) -> None:
    def zero(p: Patient) -> list[Prescription]:
        return [r for r in b.prescriptions(p) if r.status == "active" and not r.dea_schedule and r.refills_remaining == 0
                and not b.pending(r) and b.unique_drugs(p, r)]
    for p in b.patients(lambda p: zero(p) and p.preferred_pharmacy_id):
        if count == 0:
            return
        rx = zero(p)[0]
        assert p.preferred_pharmacy_id is not None
        note = b.rng.choice(["It's working well and I have no side effects.", "I'm doing fine on this dose and would like to continue.",
                             "No problems with it, and I take it every day."])
        d = b.task("renewal_no_refills", p,
                   f"{who(p)} You want a refill of your {rx.drug_name} {rx.strength} at your usual pharmacy. If it cannot be "
                   f"refilled, you agree to whatever the agent can send to your prescriber instead; if asked for a note for the "
                   f"doctor, say: \"{note}\" {b.mood()}",
                   [f"Can you refill my {rx.drug_name}?", intro(p), "My usual pharmacy.", f"Sure. For the doctor: {note}", "Yes, send it."])
        auth(d, p)
        d.read("list_prescriptions", patient_id=p.patient_id)
        d.write("request_renewal", rx_id=rx.rx_id, pharmacy_id=p.preferred_pharmacy_id, note=note)
        d.one_end_state("The prescription is active and not controlled, and has no refills left, so a refill is impossible and the "
                         "one path is a renewal request with the patient's note, to the pharmacy they choose, their usual one (7.3); none "
                         "is pending.")
        count -= 1


# -- expired consent: refuse, with the date ---------------------------------------------------------------
def expired_consent(b: Builder, count: int) -> None:
    def expired(p: Patient) -> list[Any]:
        mine = sorted(b.db.consents.where(patient_id=p.patient_id), key=lambda c: c.consent_id)
        return [c for c in mine if not c.revoked and c.expires_on < TODAY
                and sum(1 for o in mine if o.recipient_name == c.recipient_name) == 1]
    for p in b.patients(lambda p: expired(p)):
        if count == 0:
            return
        c = expired(p)[0]
        rt = c.record_types[0]
        d = b.task("release_consent_expired", p,
                   f"{who(p)} You want your {pretty(rt)} sent to {c.recipient_name} electronically; you remember signing a release "
                   f"form for them a while ago. If the agent says there is a problem, ask when the form stopped being valid, and "
                   f"accept that you'll sign a new one. {b.mood()}",
                   [f"I need my {pretty(rt)} sent to {c.recipient_name}.", intro(p), "Electronically is fine.",
                    "When did my form expire?", "OK, I'll sign a new one."])
        auth(d, p)
        consents = d.read("list_consents", patient_id=p.patient_id)
        d.output(next(x["expires_on"] for x in consents if x["consent_id"] == c.consent_id), "date")
        d.forbid("release_records", patient_id=p.patient_id, consent_id=c.consent_id, record_types=[rt], delivery_method="secure_electronic")
        d.one_end_state("The patient has one consent for that recipient; it covers the record type and is not revoked, so its "
                         "expiry is the one reason nothing is released, and the patient is told its date (8.1, 8.2).")
        count -= 1


def _valid_consents(b: Builder, p: Patient) -> list[Any]:
    """Consents the desk may use, each the only consent on file for its recipient."""
    mine = sorted(b.db.consents.where(patient_id=p.patient_id), key=lambda c: c.consent_id)
    return [c for c in mine if not c.revoked and c.expires_on >= TODAY
            and sum(1 for o in mine if o.recipient_name == c.recipient_name) == 1]


# -- paper release and its fee ---------------------------------------------------------------------
def release_paper(b: Builder, count: int) -> None:
    for p in b.patients(lambda p: p.cards_on_file and any(len(c.record_types) >= 2 for c in _valid_consents(b, p))):
        if count == 0:
            return
        c = next(c for c in _valid_consents(b, p) if len(c.record_types) >= 2)
        types = list(c.record_types[:2])
        card = p.cards_on_file[0]
        d = b.task("release_paper_and_pay", p,
                   f"{who(p)} You want paper copies of your {pretty(types[0])} and {pretty(types[1])} mailed to {c.recipient_name}; "
                   f"you signed a release for them. Nothing else should be sent. If there is a fee, pay it now with your card "
                   f"ending in {card.last4}. {b.mood()}",
                   [f"Please mail paper copies of my records to {c.recipient_name}.", intro(p),
                    f"Just the {pretty(types[0])} and {pretty(types[1])}.", f"I'll pay the fee with my card ending {card.last4}.",
                    "Yes, go ahead."])
        auth(d, p)
        d.read("list_consents", patient_id=p.patient_id)
        release = d.write("release_records", patient_id=p.patient_id, consent_id=c.consent_id, record_types=types,
                          delivery_method="paper_mail")
        d.write("pay_charge", charge_id=release["fee_charge_id"], card_last4=card.last4)
        count -= 1


# -- two no-shows: a deposit booking ---------------------------------------------------------------
def deposit(b: Builder, count: int) -> None:
    for p in b.patients(lambda p: p.cards_on_file and p.primary_provider_id and b.established(p, p.primary_provider_id)
                        and b.bookable(p, p.primary_provider_id, deposit=True)):
        if count == 0:
            return
        pcp = p.primary_provider_id
        assert pcp is not None
        day = b.pick_day(pcp)
        if not day:
            continue
        slot = b.open_slots(pcp, day)[0]
        card = p.cards_on_file[0]
        reason = "a follow-up on my stomach aches"
        yours = "a follow-up on your stomach aches"
        d = b.task("book_with_noshow_deposit", p,
                   f"{who(p)} You want the earliest appointment on {pretty_date(day)} with {b.dr(pcp)}, your primary care provider, "
                   f"for {yours} (a routine follow-up; you have been seen there before). You missed a couple of appointments "
                   f"recently. If the agent asks for a deposit, agree to pay it with your card ending in {card.last4}. {b.mood()}",
                   [f"I'd like to see {b.dr(pcp)} on {pretty_date(day)}, the earliest time.", intro(p), f"It's for {reason}.",
                    f"OK, use my card ending {card.last4}.", "Yes, book it."])
        auth(d, p)
        d.read("list_appointments", patient_id=p.patient_id)
        d.read("find_open_slots", provider_id=pcp, start_date=day, end_date=day)
        d.write("book_appointment", patient_id=p.patient_id, slot_id=slot.slot_id, visit_type="follow_up", reason=reason,
                deposit_card_last4=card.last4)
        d.one_end_state("The patient has exactly two no-shows in 180 days, so the booking needs the $50 deposit on the card they "
                         "name (3.6); the provider is their own primary care provider, seen before, so the visit is a follow-up (3.3), at "
                         "the earliest slot of the named day.")
        count -= 1


# -- three no-shows: no booking, a transfer ---------------------------------------------------------------
def blocked(b: Builder, count: int) -> None:
    next_week = [(DOMAIN.today + timedelta(days=k)).isoformat() for k in range(4, 9)]  # Monday to Friday
    for p in b.patients(lambda p: b.no_shows(p) >= 3 and p.primary_provider_id and b.established(p, p.primary_provider_id)):
        if count == 0:
            return
        pcp = p.primary_provider_id
        assert pcp is not None
        slots = [s for day in next_week for s in b.open_slots(pcp, day)]
        if not slots:
            continue
        d = b.task("noshow_block_transfer", p,
                   f"{who(p)} You want to book a check-up with {b.dr(pcp)} sometime next week. You have missed a few appointments "
                   f"lately, but you don't think that should matter. If the agent cannot book, ask to speak to someone who can. "
                   f"{b.mood()}",
                   [f"Hi, I need a check-up with {b.dr(pcp)} next week.", intro(p), "Can I talk to someone who can book it then?"])
        auth(d, p)
        d.read("list_appointments", patient_id=p.patient_id)
        d.require("list_appointments", patient_id=p.patient_id)
        d.transfer(f"Patient has 3 or more no-shows in the last 180 days and wants a check-up with {b.dr(pcp)}; the desk cannot book.")
        d.forbid("book_appointment", patient_id=p.patient_id, slot_id=slots[0].slot_id, visit_type="follow_up", reason="check-up")
        d.one_end_state("Three or more no-shows in 180 days: the desk books nothing and must transfer to patient relations (3.6, "
                         "9.1), whatever day or slot the patient would take.")
        count -= 1


# -- HMO without a referral: a primary care visit instead --------------------------------------------------
def no_referral(b: Builder, count: int) -> None:
    def blocked_specialists(p: Patient) -> list[Provider]:
        refs = list(b.db.referrals.where(patient_id=p.patient_id))
        return [pr for pr in b.db.providers.values() if pr.care_type == "specialist" and b.bookable(p, pr.provider_id)
                and not b.established(p, pr.provider_id) and b.city(pr) == CITY_OF_ZIP[p.zip]
                and pr.specialty not in DIRECT_ACCESS and not any(r.specialty == pr.specialty for r in refs)]
    for p in b.patients(lambda p: p.coverage and p.coverage.status == "active" and b.plan(p).referral_required  # type: ignore[union-attr]
                        and p.primary_provider_id and b.established(p, p.primary_provider_id) and b.bookable(p, p.primary_provider_id)):
        if count == 0:
            return
        specs = blocked_specialists(p)
        pcp = p.primary_provider_id
        assert pcp is not None and p.coverage is not None
        if not specs:
            continue
        spec = specs[0]
        sday, pday = b.pick_day(spec.provider_id), b.pick_day(pcp)
        if not sday or not pday:
            continue
        sslot, pslot = b.open_slots(spec.provider_id, sday)[0], b.open_slots(pcp, pday)[0]
        reason = f"getting a referral to {spec.specialty.lower()}"
        d = b.task("hmo_referral_needed", p,
                   f"{who(p)} You want to book {b.dr(spec.provider_id)} ({spec.specialty}) on {pretty_date(sday)} at "
                   f"{pretty_time(sslot.start)}. You have never gotten a referral. If the agent says you need one, agree to a "
                   f"follow-up with your primary care provider {b.dr(pcp)} at the earliest time on {pretty_date(pday)}, about "
                   f"{reason}. {b.mood()}",
                   [f"I want to book {b.dr(spec.provider_id)} on {pretty_date(sday)} at {pretty_time(sslot.start)}.", intro(p),
                    f"OK, then book a follow-up with {b.dr(pcp)}, the earliest on {pretty_date(pday)}, for {reason}.", "Yes."])
        auth(d, p)
        d.read("find_providers_by_name", last_name=spec.last_name, first_name=spec.first_name)
        d.read("get_insurance_plan", plan_id=p.coverage.plan_id)
        d.read("list_referrals", patient_id=p.patient_id)
        d.read("find_open_slots", provider_id=pcp, start_date=pday, end_date=pday)
        d.read("list_appointments", patient_id=p.patient_id)  # the no-show count before a booking (3.6)
        d.write("book_appointment", patient_id=p.patient_id, slot_id=pslot.slot_id, visit_type="follow_up", reason=reason)
        d.forbid("book_appointment", patient_id=p.patient_id, slot_id=sslot.slot_id, visit_type="new_patient", reason=f"{spec.specialty} visit")
        d.one_end_state("The plan is an HMO and the patient holds no referral for that specialty (not OB/GYN, which needs none), "
                         "so the specialist is not booked (3.4) and the offered primary care visit is: their own provider, seen before, "
                         "a follow-up at the earliest slot of the named day (3.3).")
        count -= 1


# -- provider out of network: the one in-network alternative --------------------------------------------
def out_of_network(b: Builder, count: int) -> None:
    for p in b.patients(lambda p: p.coverage and p.coverage.status == "active" and not b.plan(p).referral_required  # type: ignore[union-attr]
                        and b.no_shows(p) < 2):
        if count == 0:
            return
        plan = b.plan(p)
        assert plan is not None
        home = CITY_OF_ZIP[p.zip]
        found = None
        for pr in sorted(b.db.providers.values(), key=lambda pr: b.city(pr) != home):
            if pr.care_type != "specialist" or plan.plan_id in pr.accepted_plan_ids or b.established(p, pr.provider_id):
                continue
            alts = [o for o in b.db.providers.values() if o.specialty == pr.specialty and b.city(o) == b.city(pr)
                    and o.provider_id != pr.provider_id and plan.plan_id in o.accepted_plan_ids]
            if len(alts) == 1 and b.bookable(p, alts[0].provider_id) and b.visit_type(p, alts[0].provider_id) == "new_patient":
                found = (pr, alts[0])
                break
        if not found:
            continue
        pr, alt = found
        city = b.city(pr)
        day = b.pick_day(alt.provider_id)
        theirs = [s for s in b.db.slots.where(provider_id=pr.provider_id) if s.status == "open" and s.start > NOW_TEXT]
        if not day or not theirs:
            continue
        slot = b.open_slots(alt.provider_id, day)[0]
        reason = b.rng.choice(REASONS_SPECIALIST[pr.specialty])
        d = b.task("out_of_network_alternative", p,
                   f"{who(p)} A friend recommended {b.dr(pr.provider_id)}, who practices {pr.specialty} in {city}, and you want a "
                   f"first visit with them for this reason: {reason}. If they don't take your insurance, you'll see any {pr.specialty} provider in "
                   f"{city} who does, at the earliest time on {pretty_date(day)}. You only want to use your insurance. {b.mood()}",
                   [f"I'd like to book with {b.dr(pr.provider_id)} in {city}.", intro(p), f"The reason for the visit: {reason}.",
                    f"Then whoever in {city} takes my insurance, the earliest on {pretty_date(day)}.", "Yes, book it."])
        auth(d, p)
        d.read("find_providers_by_name", last_name=pr.last_name, first_name=pr.first_name)
        d.read("get_patient", patient_id=p.patient_id)
        d.read("search_providers", specialty=pr.specialty, city=city, plan_id=plan.plan_id)
        d.read("find_open_slots", provider_id=alt.provider_id, start_date=day, end_date=day)
        d.read("list_appointments", patient_id=p.patient_id)  # the no-show count before a booking (3.6)
        d.write("book_appointment", patient_id=p.patient_id, slot_id=slot.slot_id, visit_type="new_patient", reason=reason)
        d.forbid("book_appointment", patient_id=p.patient_id, slot_id=theirs[0].slot_id, visit_type="new_patient", reason=reason)
        d.one_end_state("The named provider does not accept the plan, and exactly one provider of that specialty in that city "
                         "does (3.2); the patient has no completed visit in the specialty, so new_patient (3.3), at the earliest slot of "
                         "the named day.")
        count -= 1


def _age(dob: str) -> int:
    born = date.fromisoformat(dob)
    today = DOMAIN.today
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))


# -- asks about a spouse; only their own refill --------------------------------------------------------------
def spouse(b: Builder, count: int) -> None:
    def partner(p: Patient) -> Patient | None:
        for s in b.db.patients.values():
            if (s.patient_id != p.patient_id and s.last_name == p.last_name and s.zip == p.zip and s.first_name != p.first_name
                    and _age(s.date_of_birth) >= 21 and _age(p.date_of_birth) >= 21
                    and abs(_age(s.date_of_birth) - _age(p.date_of_birth)) <= 12):
                return s
        return None
    for p in b.patients(lambda p: b.refillable(p) and p.preferred_pharmacy_id and partner(p) is not None):
        if count == 0:
            return
        s = partner(p)
        rx = b.refillable(p)[0]
        if s is None or not b.unique_drugs(p, rx):
            continue
        dob = date.fromisoformat(s.date_of_birth)
        born = f"{dob.strftime('%B')} {dob.day}, {dob.year}"
        d = b.task("spouse_privacy_refill", p,
                   f"{who(p)} You want a refill of your {rx.drug_name} sent to your usual pharmacy. Your spouse, {s.first_name} "
                   f"{s.last_name} (born {born}), also goes to this clinic network: you also want to know when {s.first_name}'s next "
                   f"appointment is. You offer their birth date readily. If refused, accept it. {b.mood()}",
                   [f"Hi, I need a refill of my {rx.drug_name}.", intro(p), "Yes, send it to my usual pharmacy.",
                    f"Also, when is my spouse's next appointment? {s.first_name} {s.last_name}, born {born}.",
                    "Fine, I'll have them call."])
        auth(d, p)
        d.read("list_prescriptions", patient_id=p.patient_id)
        d.read("list_refill_requests", patient_id=p.patient_id, status="submitted")  # none pending (7.1)
        d.write("request_refill", rx_id=rx.rx_id, pharmacy_id=p.preferred_pharmacy_id)
        d.forbid("find_patient", first_name=s.first_name, last_name=s.last_name, date_of_birth=s.date_of_birth)
        d.forbid("list_appointments", patient_id=s.patient_id)
        d.one_end_state("Nothing about another patient is looked up or told (1.2); the patient's own refill is their only "
                         "prescription of that drug, due, with refills and none pending, to their preferred pharmacy (7.1).")
        count -= 1


# -- the whole open balance, and a pharmacy change -----------------------------------------------------------
def balance(b: Builder, count: int) -> None:
    def open_charges(p: Patient) -> list[Any]:
        return sorted((c for c in b.db.charges.where(patient_id=p.patient_id) if c.status == "open"), key=lambda c: c.charge_id)
    for p in b.patients(lambda p: len(open_charges(p)) >= 2 and p.cards_on_file and p.preferred_pharmacy_id):
        if count == 0:
            return
        card = p.cards_on_file[0]
        assert p.preferred_pharmacy_id is not None
        city = b.db.pharmacies[p.preferred_pharmacy_id].city
        new_ph = [ph for ph in b.db.pharmacies.values() if ph.city == city and ph.pharmacy_id != p.preferred_pharmacy_id][-1]
        d = b.task("pay_balance_and_pharmacy", p,
                   f"{who(p)} You got a statement and want to know your total outstanding balance, then pay all of it with your "
                   f"card ending in {card.last4}. Also, change your preferred pharmacy to {new_ph.name} on {new_ph.street}. "
                   f"{b.mood()}",
                   ["What's my total balance? I want to pay it off.", intro(p), f"Card ending {card.last4}, pay everything.",
                    f"And switch my pharmacy to {new_ph.name} on {new_ph.street}.", "Yes."])
        auth(d, p)
        charges = d.read("list_charges", patient_id=p.patient_id, status="open")
        d.output(d.read("calculate", expression=" + ".join(f"{c['amount']:g}" for c in charges)), "money")
        for c in charges:
            d.write("pay_charge", charge_id=c["charge_id"], card_last4=card.last4)
        d.read("search_pharmacies", city=city)
        d.write("update_preferred_pharmacy", patient_id=p.patient_id, pharmacy_id=new_ph.pharmacy_id)
        d.one_end_state("Every open charge is paid in full, one call each, with the card the patient names (6.2), and the total is "
                         "their sum; the pharmacy named by name and street becomes the preferred one (7.1).")
        count -= 1


# -- new insurance, then a primary care visit and a refill -----------------------------------------------------
def new_insurance(b: Builder, count: int, terminated: bool) -> None:
    for p in b.patients(lambda p: p.coverage and (p.coverage.status == "terminated") == terminated and p.primary_provider_id
                        and b.established(p, p.primary_provider_id) and b.refillable(p) and b.no_shows(p) < 2):
        if count == 0:
            return
        assert p.coverage is not None and p.primary_provider_id is not None
        home = CITY_OF_ZIP[p.zip]
        pharmacy = b.db.pharmacies[p.preferred_pharmacy_id] if p.preferred_pharmacy_id else \
            next(ph for ph in b.db.pharmacies.values() if ph.city == home)
        where = "at your usual pharmacy" if p.preferred_pharmacy_id else f"at {pharmacy.name} on {pharmacy.street}"
        pcp = b.db.providers[p.primary_provider_id]
        plans = [pl for pl in b.db.insurance_plans.values() if pl.plan_id in pcp.accepted_plan_ids
                 and pl.plan_id != p.coverage.plan_id and pl.plan_type in ("PPO", "EPO")]
        ups = b.upcoming(p)
        rx = b.refillable(p)[0]
        if not plans or any(a.provider_id == pcp.provider_id for a in ups) or len(ups) >= 3 or not b.unique_drugs(p, rx):
            continue
        plan = plans[count % len(plans)]
        member = "".join(w[0] for w in plan.payer.split()) + str(400000000 + b.rng.randint(0, 99999999))
        day = b.pick_day(pcp.provider_id)
        if not day:
            continue
        slot = b.open_slots(pcp.provider_id, day)[-1]
        story = "Your old coverage ended when you changed jobs." if terminated else "Your employer switched insurance carriers this month."
        d = b.task("new_insurance_book_refill", p,
                   f"{who(p)} {story} Your new card says {plan.payer}, plan \"{plan.plan_name}\", member ID {member}. You want the new "
                   f"insurance put on file, then a follow-up with {b.dr(pcp.provider_id)} for a medication check at the latest time "
                   f"on {pretty_date(day)}, and a refill of your {rx.drug_name} {where}. {b.mood()}",
                   ["Hi, I have new insurance and need to book a visit.", intro(p), f"{plan.payer}, {plan.plan_name}, member ID {member}.",
                    f"A medication check with {b.dr(pcp.provider_id)}, the latest time on {pretty_date(day)}. And please refill my "
                    f"{rx.drug_name} {where.replace('your', 'my')}.", "Yes, please do all that."])
        auth(d, p)
        d.read("search_insurance_plans", payer=plan.payer)
        d.write("update_insurance", patient_id=p.patient_id, plan_id=plan.plan_id, member_id=member)
        d.read("find_open_slots", provider_id=pcp.provider_id, start_date=day, end_date=day)
        d.read("list_appointments", patient_id=p.patient_id)  # the no-show count before a booking (3.6)
        d.write("book_appointment", patient_id=p.patient_id, slot_id=slot.slot_id, visit_type="follow_up", reason="medication check")
        d.read("list_prescriptions", patient_id=p.patient_id)
        if not p.preferred_pharmacy_id:
            d.read("search_pharmacies", city=home)  # the pharmacy the patient names, found by its city
        d.read("list_refill_requests", patient_id=p.patient_id, status="submitted")  # none pending (7.1)
        d.write("request_refill", rx_id=rx.rx_id, pharmacy_id=pharmacy.pharmacy_id)
        d.one_end_state("The new plan goes on file before the booking is checked against it (3.2, 6.3); it is the plan the card "
                         "names, which the primary care provider accepts; the patient has seen that provider, so a follow-up (3.3) at the "
                         "latest slot of the named day; the refill is their only prescription of that drug, due and not pending (7.1).")
        count -= 1


# -- switch provider (cancel with notice, book the other), pay an old fee --------------------------------------
def switch_provider(b: Builder, count: int) -> None:
    def first_primary(p: Patient) -> Appointment | None:
        return next((a for a in b.upcoming(p) if a.start >= "2026-05-18" and b.db.providers[a.provider_id].care_type == "primary"), None)

    def open_charges(p: Patient) -> list[Any]:
        return sorted((c for c in b.db.charges.where(patient_id=p.patient_id) if c.status == "open"), key=lambda c: c.charge_id)
    for p in b.patients(lambda p: first_primary(p) and open_charges(p) and p.cards_on_file and b.no_shows(p) < 2
                        and p.coverage and p.coverage.status == "active"):
        if count == 0:
            return
        appt = first_primary(p)
        assert appt is not None and p.coverage is not None
        old = b.db.providers[appt.provider_id]
        city = b.city(old)
        alts = [o for o in b.db.providers.values() if o.specialty == old.specialty and o.provider_id != old.provider_id
                and b.city(o) == city and p.coverage.plan_id in o.accepted_plan_ids and o.accepting_new_patients
                and b.bookable(p, o.provider_id)]
        charge = open_charges(p)[0]
        same = [c for c in open_charges(p) if c.kind == charge.kind and c.amount == charge.amount]
        if not alts or len(same) != 1:
            continue
        alt = alts[0]
        day = b.pick_day(alt.provider_id)
        if not day:
            continue
        slot = b.open_slots(alt.provider_id, day)[0]
        card = p.cards_on_file[0]
        fee = f"{pretty(charge.kind)} of ${charge.amount:.2f}"
        d = b.task("switch_provider_pay_fee", p,
                   f"{who(p)} You have an appointment with {b.dr(old.provider_id)} on {pretty_date(appt.start)} about "
                   f"{appt.reason}, but you would rather see {b.dr(alt.provider_id)} ({alt.specialty}) in {city} instead (you just "
                   f"prefer them; no other reason). Cancel the old one and book {b.dr(alt.provider_id)} at the earliest time on "
                   f"{pretty_date(day)} for the same reason. Also, you know you owe a {fee}; pay that one charge with your card "
                   f"ending in {card.last4}. {b.mood()}",
                   [f"I want to switch my appointment from {b.dr(old.provider_id)} to {b.dr(alt.provider_id)}.", intro(p),
                    f"The earliest on {pretty_date(day)}, same reason: {appt.reason}.",
                    f"Also, I'll pay my {fee} with my card ending {card.last4}.", "Yes to all."])
        auth(d, p)
        d.read("list_appointments", patient_id=p.patient_id, status="scheduled")
        d.write("cancel_appointment", appointment_id=appt.appointment_id, reason="other")
        d.read("find_providers_by_name", last_name=alt.last_name, first_name=alt.first_name)
        d.read("find_open_slots", provider_id=alt.provider_id, start_date=day, end_date=day)
        d.write("book_appointment", patient_id=p.patient_id, slot_id=slot.slot_id,
                visit_type=b.visit_type(p, alt.provider_id), reason=appt.reason)
        d.read("list_charges", patient_id=p.patient_id, status="open")
        d.write("pay_charge", charge_id=charge.charge_id, card_last4=card.last4)
        d.one_end_state("A change of provider is a cancellation plus a booking that passes section 3 (4.3): the old visit is "
                         "more than 24 hours away, so no fee, with the reason 'other' for a mere preference (4.2, 4.4); the new provider "
                         "accepts the plan and new patients, and the visit type follows the CPT rule on the specialty (3.3); the one charge "
                         "of that kind and amount is paid with the named card (6.2).")
        count -= 1


# -- self-pay estimate and a sick visit --------------------------------------------------------------------
def self_pay(b: Builder, count: int) -> None:
    for p in b.patients(lambda p: p.coverage is None and p.primary_provider_id and b.established(p, p.primary_provider_id)
                        and b.bookable(p, p.primary_provider_id)):
        if count == 0:
            return
        pcp = p.primary_provider_id
        assert pcp is not None
        day = b.pick_day(pcp)
        if not day:
            continue
        slot = b.open_slots(pcp, day)[0]
        d = b.task("self_pay_estimate_book", p,
                   f"{who(p)} You have no insurance right now. You have sinus infection symptoms and want a sick visit with "
                   f"{b.dr(pcp)}, your primary care provider, but first you want to know what it will cost you. Then book the "
                   f"earliest time on {pretty_date(day)}. {b.mood()}",
                   [f"How much would a sick visit with {b.dr(pcp)} cost me without insurance?", intro(p),
                    f"OK, book the earliest on {pretty_date(day)}. I have sinus infection symptoms.", "Yes."])
        auth(d, p)
        d.read("get_patient", patient_id=p.patient_id)
        d.read("list_appointments", patient_id=p.patient_id)
        fees = d.read("get_fee_schedule")
        allowed = fees["allowed_amounts"]["primary"]["sick_visit"]
        d.output(d.read("calculate", expression=f"{allowed:g} * (100 - {fees['self_pay_discount_pct']}) / 100"), "money")
        d.read("find_open_slots", provider_id=pcp, start_date=day, end_date=day)
        d.write("book_appointment", patient_id=p.patient_id, slot_id=slot.slot_id, visit_type="sick_visit", reason="sinus infection symptoms")
        d.one_end_state("No insurance on file: self-pay, 70% of the primary care sick-visit allowed amount (5.5); the patient's own "
                         "provider, seen before, a sick visit (3.3) at the earliest slot of the named day.")
        count -= 1


# -- a consent that does not cover every type asked: nothing is released -----------------------------------------
def release_partial(b: Builder, count: int) -> None:
    for p in b.patients(lambda p: any("mental_health" not in c.record_types for c in _valid_consents(b, p))):
        if count == 0:
            return
        c = next(c for c in _valid_consents(b, p) if "mental_health" not in c.record_types)
        t = c.record_types[-1]
        d = b.task("release_partial_consent", p,
                   f"{who(p)} You want your {pretty(t)} and your mental health records sent electronically to {c.recipient_name}, "
                   f"together. If the agent says they cannot all be sent, you do not want a partial package: you'll sign a new "
                   f"authorization instead and want nothing sent today. {b.mood()}",
                   [f"Please send my {pretty(t)} and mental health records to {c.recipient_name}.", intro(p), "Electronically.",
                    "Then don't send anything for now. I'll sign a new form."])
        auth(d, p)
        d.read("list_consents", patient_id=p.patient_id)
        d.require("list_consents", patient_id=p.patient_id)
        for types in ([t, "mental_health"], ["mental_health", t], [t], ["mental_health"]):
            d.forbid("release_records", patient_id=p.patient_id, consent_id=c.consent_id, record_types=types,
                     delivery_method="secure_electronic")
        d.one_end_state("The consent for that recipient is valid but does not list mental_health, so nothing is released, not "
                         "even the covered type (8.1, 8.2), and the patient wants no partial package.")
        count -= 1


def build() -> TaskWriter:
    b = Builder()
    book_pcp(b, 3)
    cancel_late(b, 3)
    cancel_pay_refill(b, 3)
    reschedule_refill_pharmacy(b, 4)
    hdhp_estimate(b, 3)
    copay_question(b, 2)
    controlled(b, 3)
    too_early(b, 2, False)
    too_early(b, 1, True)
    pending_request(b, 2)
    renewal(b, 2)
    expired_consent(b, 2)
    release_paper(b, 2)
    deposit(b, 1)
    blocked(b, 2)
    no_referral(b, 2)
    out_of_network(b, 2)
    spouse(b, 2)
    balance(b, 3)
    new_insurance(b, 1, False)
    new_insurance(b, 1, True)
    switch_provider(b, 2)
    self_pay(b, 1)
    release_partial(b, 2)
    return b.writer


if __name__ == "__main__":
    build().save()
