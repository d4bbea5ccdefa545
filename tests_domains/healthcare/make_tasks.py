"""Builds fixtures/healthcare/tasks.json from the generated DB: `python -m tests_domains.healthcare.make_tasks`.

Deterministic: hand-written templates per task kind pick concrete patients and records from the DB in id
order, replay the gold actions on a fresh environment to learn new ids and figures, and write the tasks.
"""

from __future__ import annotations

import json
import random
from datetime import date, timedelta
from pathlib import Path

from pytest_tau import Environment
from tests_domains.healthcare.domain import DOMAIN, NOW_TEXT, TODAY, _no_shows
from tests_domains.healthcare.generate import CITY_ZIPS, REASONS_SPECIALIST

CITY_OF_ZIP = {z: city for city, zips in CITY_ZIPS.items() for z in zips}

OUT = Path(__file__).parents[2] / "fixtures" / "healthcare" / "tasks.json"
DB = DOMAIN.initial_db
RNG = random.Random(7)
USED: set[str] = set()
TASKS: list[dict] = []
ALLOWED = {("primary", "new_patient"): 210, ("primary", "follow_up"): 145, ("primary", "sick_visit"): 145,
           ("primary", "annual_physical"): 240, ("specialist", "new_patient"): 325, ("specialist", "follow_up"): 215}
MOODS = ["You are polite but a little rushed.", "You are friendly and chatty.", "You are calm and precise.",
         "You are somewhat anxious and ask the agent to repeat the key details.", "You are matter-of-fact."]


def a(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def run(actions: list[dict]) -> list:
    env = Environment(DOMAIN)
    out = []
    for act in actions:
        call = env.call(act["name"], dict(act["arguments"]))
        if call.error:
            raise RuntimeError(f"{act}: {call.result}")
        out.append(json.loads(call.result) if call.result[:1] in "[{" else call.result)
    return out


def pretty_date(iso: str) -> str:
    d = date.fromisoformat(iso[:10])
    return d.strftime("%A, %B ") + str(d.day)


def pretty_time(iso: str) -> str:
    h, m = int(iso[11:13]), iso[14:16]
    return f"{h % 12 or 12}:{m} {'AM' if h < 12 else 'PM'}"


def who(p) -> str:
    dob = date.fromisoformat(p.date_of_birth)
    return (f"You are {p.first_name} {p.last_name}, born {dob.strftime('%B')} {dob.day}, {dob.year}, "
            f"living in zip code {p.zip}.")


def auth(p) -> dict:
    return a("find_patient", first_name=p.first_name, last_name=p.last_name, date_of_birth=p.date_of_birth)


def intro(p) -> str:
    return f"My name is {p.first_name} {p.last_name}, date of birth {p.date_of_birth}."


def dr(provider_id: str) -> str:
    pr = DB.providers[provider_id]
    title = "Dr." if pr.credentials in ("MD", "DO") else pr.credentials
    return f"{title} {pr.first_name} {pr.last_name}" if title != "Dr." else f"Dr. {pr.last_name}"


def add(kind: str, instructions: str, script: list[str], gold: list[dict], outputs=(), required=(), forbidden=(), patient=None):
    run(gold)
    if patient is not None:
        USED.add(patient.patient_id)
    n = sum(1 for t in TASKS if t["id"].startswith(kind + "_")) + 1
    TASKS.append({"id": f"{kind}_{n}", "split": "test", "user": {"instructions": instructions, "script": script},
                  "gold_actions": gold, "required_outputs": list(outputs), "required_actions": list(required),
                  "forbidden_actions": list(forbidden)})


# ------------------------------------------------------------------------------------------------
def patients(pred):
    for p in DB.patients.values():
        if p.patient_id in USED:
            continue
        try:
            if pred(p):
                yield p
        except (KeyError, StopIteration):
            continue


def upcoming(p):
    return sorted((x for x in DB.appointments.values() if x.patient_id == p.patient_id and x.status == "scheduled"),
                  key=lambda x: x.start)


def established(p, provider_id):
    return any(x.patient_id == p.patient_id and x.provider_id == provider_id and x.status == "completed"
               for x in DB.appointments.values())


def bookable(p, provider_id, *, allow_deposit=False):
    pr = DB.providers[provider_id]
    ns = _no_shows(DB, p.patient_id)
    if ns >= 3 or (ns == 2 and not allow_deposit) or (allow_deposit and ns != 2):
        return False
    if p.coverage and (p.coverage.status != "active" or p.coverage.plan_id not in pr.accepted_plan_ids):
        return False
    ups = upcoming(p)
    if len(ups) >= 3 or any(x.provider_id == provider_id for x in ups):
        return False
    if not established(p, provider_id) and not pr.accepting_new_patients:
        return False
    return True


def slots_on(provider_id, day):
    return sorted((s for s in DB.slots.values() if s.provider_id == provider_id and s.status == "open"
                   and s.start > NOW_TEXT and s.start[:10] == day), key=lambda s: s.start)


def pick_day(provider_id, earliest=3):
    days = sorted({s.start[:10] for s in DB.slots.values() if s.provider_id == provider_id and s.status == "open"
                   and s.start[:10] >= (TODAY + timedelta(days=earliest)).isoformat()})
    return days[RNG.randrange(min(len(days), 8))] if days else None


def refillable(p):
    return [r for r in DB.prescriptions.values() if r.patient_id == p.patient_id and r.status == "active"
            and r.dea_schedule is None and r.refills_remaining > 0 and r.expires_on >= TODAY.isoformat()
            and r.earliest_refill_date <= TODAY.isoformat()
            and not any(q.rx_id == r.rx_id and q.status == "submitted" for q in DB.refill_requests.values())]


def visit_type_for(p, provider_id):
    return "follow_up" if established(p, provider_id) else "new_patient"


def plan_of(p):
    return DB.insurance_plans[p.coverage.plan_id] if p.coverage else None


def hmo_blocked(p, provider_id, day):
    pr = DB.providers[provider_id]
    plan = plan_of(p)
    if pr.care_type != "specialist" or not plan or not plan.referral_required:
        return False
    return not any(r.patient_id == p.patient_id and r.specialty == pr.specialty and r.expires_on >= day
                   and r.visits_used < r.visits_authorized for r in DB.referrals.values())


# -- T1: book a primary care follow-up --------------------------------------------------------------
def t_book_pcp(count):
    for p in patients(lambda p: p.primary_provider_id and established(p, p.primary_provider_id)
                      and bookable(p, p.primary_provider_id)):
        if count == 0:
            return
        day = pick_day(p.primary_provider_id)
        slots = slots_on(p.primary_provider_id, day)
        if not day or not slots:
            continue
        afternoon = count % 2 == 0
        pool = [s for s in slots if (s.start[11:13] >= "12") == afternoon]
        if not pool:
            continue
        slot = pool[0]
        reason = RNG.choice(["my blood pressure readings have been high", "follow-up on my cholesterol medication",
                             "a cough that won't go away", "recheck my thyroid levels", "my knee has been aching"])
        vtype = "sick_visit" if "cough" in reason else "follow_up"
        gold = [auth(p), a("get_patient", patient_id=p.patient_id),
                a("find_open_slots", provider_id=p.primary_provider_id, start_date=day, end_date=day),
                a("book_appointment", patient_id=p.patient_id, slot_id=slot.slot_id, visit_type=vtype, reason=reason)]
        part = "afternoon" if afternoon else "morning"
        add("book_pcp_visit",
            f"{who(p)} You want an appointment with your primary care provider, {dr(p.primary_provider_id)}, on "
            f"{pretty_date(day)} in the {part}; take the earliest {part} time available that day. The reason: {reason}. "
            f"{'It is a new problem you want looked at (a sick visit).' if vtype == 'sick_visit' else 'It is a routine follow-up.'} "
            f"{RNG.choice(MOODS)} Give your name and birth date when asked; confirm the booking when the agent describes it.",
            [f"Hi, I'd like to book a visit with {dr(p.primary_provider_id)}.", intro(p),
             f"{pretty_date(day)}, {part} please, earliest you have. Reason: {reason}.", "Yes, book it."],
            gold, patient=p)
        count -= 1


# -- T2: late cancellation with fee ----------------------------------------------------------------
def t_cancel_late(count):
    for p in patients(lambda p: any(x.start < "2026-05-15T10:00" for x in upcoming(p))):
        if count == 0:
            return
        appt = next(x for x in upcoming(p) if x.start < "2026-05-15T10:00")
        if any(c.appointment_id == appt.appointment_id for c in DB.charges.values()):
            continue
        pr = DB.providers[appt.provider_id]
        fee = "40.00" if pr.care_type == "primary" else "75.00"
        reason = ["transportation", "schedule_conflict", "feeling_better"][count % 3]
        why = {"transportation": "your car broke down and you have no ride",
               "schedule_conflict": "you got called into a shift at work",
               "feeling_better": "you are feeling much better"}[reason]
        gold = [auth(p), a("list_appointments", patient_id=p.patient_id, status="scheduled"),
                a("cancel_appointment", appointment_id=appt.appointment_id, reason=reason)]
        add("cancel_late_notice",
            f"{who(p)} You have an appointment with {dr(pr.provider_id)} ({pr.specialty}) on {pretty_date(appt.start)} at "
            f"{pretty_time(appt.start)} and you need to cancel it because {why}. You want to know if there is any charge. "
            f"If told about a fee, grumble but accept it and go ahead with the cancellation. You do not want to reschedule. "
            f"{RNG.choice(MOODS)}",
            [f"I need to cancel my appointment with {dr(pr.provider_id)}.", intro(p), "Is there a charge for cancelling?",
             "Fine, cancel it anyway."],
            gold, outputs=[fee], patient=p)
        count -= 1


# -- T3: late cancel, pay the fee, and refill ----------------------------------------------------------
def t_cancel_pay_refill(count):
    for p in patients(lambda p: p.cards_on_file and p.preferred_pharmacy_id and refillable(p)
                      and any(x.start < "2026-05-15T10:00" for x in upcoming(p))):
        if count == 0:
            return
        appt = next(x for x in upcoming(p) if x.start < "2026-05-15T10:00")
        if any(c.appointment_id == appt.appointment_id for c in DB.charges.values()):
            continue
        rx = refillable(p)[0]
        card = p.cards_on_file[-1]
        res = run([a("cancel_appointment", appointment_id=appt.appointment_id, reason="other")])
        fee = res[0]["fee"]
        gold = [auth(p), a("list_appointments", patient_id=p.patient_id, status="scheduled"),
                a("cancel_appointment", appointment_id=appt.appointment_id, reason="other"),
                a("pay_charge", charge_id=fee["charge_id"], card_last4=card.last4),
                a("list_prescriptions", patient_id=p.patient_id),
                a("request_refill", rx_id=rx.rx_id, pharmacy_id=p.preferred_pharmacy_id)]
        ph = DB.pharmacies[p.preferred_pharmacy_id]
        add("cancel_pay_refill",
            f"{who(p)} A family matter came up, so you must cancel your visit with {dr(appt.provider_id)} on "
            f"{pretty_date(appt.start)} (the reason is personal; you won't say more). If there is a late fee you want to pay it "
            f"right away with your {card.brand} card ending in {card.last4}. Then you need a refill of your {rx.drug_name} "
            f"sent to your usual pharmacy, {ph.name}. {RNG.choice(MOODS)}",
            [f"I have to cancel my appointment with {dr(appt.provider_id)}.", intro(p), "It's personal.",
             f"OK, charge the fee to my {card.brand} ending {card.last4}.", f"Also I need a refill of {rx.drug_name} at my usual pharmacy.",
             "Yes, go ahead."],
            gold, outputs=[f"{fee['amount']:.2f}"], patient=p)
        count -= 1


# -- T4: reschedule with notice, refill at a new pharmacy, update preferred pharmacy ------------------
def t_reschedule_refill_pharmacy(count):
    for p in patients(lambda p: refillable(p) and p.preferred_pharmacy_id
                      and any(x.start >= "2026-05-16" and x.reschedule_count < 2 for x in upcoming(p))):
        if count == 0:
            return
        appt = next(x for x in upcoming(p) if x.start >= "2026-05-16" and x.reschedule_count < 2)
        days = sorted({s.start[:10] for s in DB.slots.values() if s.provider_id == appt.provider_id and s.status == "open"
                       and s.start[:10] > appt.start[:10]})
        if not days:
            continue
        if appt.referral_id and DB.referrals[appt.referral_id].expires_on < days[0]:
            continue
        day = days[0]
        slot = slots_on(appt.provider_id, day)[-1]
        city = DB.pharmacies[p.preferred_pharmacy_id].city
        new_ph = next(ph for ph in DB.pharmacies.values() if ph.city == city and ph.pharmacy_id != p.preferred_pharmacy_id)
        rx = refillable(p)[0]
        gold = [auth(p), a("list_appointments", patient_id=p.patient_id, status="scheduled"),
                a("find_open_slots", provider_id=appt.provider_id, start_date=day, end_date=day),
                a("reschedule_appointment", appointment_id=appt.appointment_id, new_slot_id=slot.slot_id),
                a("search_pharmacies", city=city),
                a("update_preferred_pharmacy", patient_id=p.patient_id, pharmacy_id=new_ph.pharmacy_id),
                a("list_prescriptions", patient_id=p.patient_id),
                a("request_refill", rx_id=rx.rx_id, pharmacy_id=new_ph.pharmacy_id)]
        add("reschedule_refill_new_pharmacy",
            f"{who(p)} You have an appointment with {dr(appt.provider_id)} on {pretty_date(appt.start)} at "
            f"{pretty_time(appt.start)}. You want to move it to the next day after that on which the provider has "
            f"openings, at the latest time available that day. You have also switched pharmacies: from now on you use "
            f"{new_ph.name} at {new_ph.street}, and you want that saved as your preferred pharmacy. Finally, send a refill of "
            f"your {rx.drug_name} {rx.strength} there. {RNG.choice(MOODS)}",
            [f"Hi, I need to move my appointment with {dr(appt.provider_id)}.", intro(p),
             "The next day after it that has openings, latest time that day.",
             f"Also, please make {new_ph.name} on {new_ph.street} my pharmacy, and refill my {rx.drug_name} there.", "Yes, all of that."],
            gold, patient=p)
        count -= 1


# -- T5: HDHP estimate and booking with a specialist ------------------------------------------------
def t_hdhp_estimate(count):
    for p in patients(lambda p: p.coverage and p.coverage.status == "active" and plan_of(p).plan_type == "HDHP"):
        if count == 0:
            return
        plan = plan_of(p)
        cands = [pr for pr in DB.providers.values() if pr.care_type == "specialist" and bookable(p, pr.provider_id)
                 and not established(p, pr.provider_id) and DB.clinics[pr.clinic_id].city == CITY_OF_ZIP[p.zip]]
        if not cands:
            continue
        pr = cands[count % len(cands)]
        day = pick_day(pr.provider_id)
        if not day:
            continue
        slot = slots_on(pr.provider_id, day)[0]
        allowed = 325
        rem = plan.annual_deductible - p.coverage.deductible_met
        if allowed <= rem:
            expr, value = f"{plan.annual_deductible:g} - {p.coverage.deductible_met:g}", allowed
            told = f"{allowed:.2f}"
            extra = []
        else:
            expr = f"({plan.annual_deductible:g} - {p.coverage.deductible_met:g}) + {plan.coinsurance_pct} / 100 * ({allowed} - ({plan.annual_deductible:g} - {p.coverage.deductible_met:g}))"
            told = None
        calc = run([a("calculate", expression=expr)])[0]
        if told is None:
            told = calc
        city = DB.clinics[pr.clinic_id].city
        reason = RNG.choice(REASONS_SPECIALIST[pr.specialty])
        gold = [auth(p), a("search_providers", specialty=pr.specialty, city=city, plan_id=plan.plan_id),
                a("get_insurance_plan", plan_id=plan.plan_id), a("get_fee_schedule"), a("calculate", expression=expr),
                a("find_open_slots", provider_id=pr.provider_id, start_date=day, end_date=day),
                a("book_appointment", patient_id=p.patient_id, slot_id=slot.slot_id, visit_type="new_patient", reason=reason)]
        add("hdhp_estimate_and_book",
            f"{who(p)} You want to see {dr(pr.provider_id)}, who practices {pr.specialty} in {city}, for the first time, about "
            f"{reason}. You have a high-deductible plan and before booking you want to know what this first visit will cost you. "
            f"Once you hear the estimate, book the earliest time on {pretty_date(day)}. {RNG.choice(MOODS)}",
            [f"Hello, I want to book a first visit with {dr(pr.provider_id)} in {city}, but what will it cost me?", intro(p),
             f"The reason is {reason}.", f"OK. Book the earliest slot on {pretty_date(day)}.", "Yes, confirm."],
            gold, outputs=[told], patient=p)
        count -= 1


# -- T6: copay estimate only (read) --------------------------------------------------------------
def t_copay_question(count):
    for p in patients(lambda p: p.coverage and p.coverage.status == "active" and plan_of(p).plan_type in ("PPO", "EPO")):
        if count == 0:
            return
        plan = plan_of(p)
        spec = RNG.choice(["Dermatology", "Cardiology", "Orthopedics"])
        gold = [auth(p), a("get_patient", patient_id=p.patient_id), a("get_insurance_plan", plan_id=plan.plan_id)]
        add("copay_question",
            f"{who(p)} You are thinking about seeing a {spec} specialist and also your regular primary care doctor, and want "
            f"to know what you would pay per visit at each under your current insurance. You do not want to book anything today. "
            f"{RNG.choice(MOODS)}",
            [f"Hi, what would my copay be for a {spec.lower()} specialist visit, and for a regular doctor visit?", intro(p),
             "Thanks, that's all I needed."],
            gold, outputs=[f"{plan.specialist_copay:.2f}", f"{plan.primary_copay:.2f}"], patient=p)
        count -= 1


# -- T7: controlled substance refill -> transfer ---------------------------------------------------------
def t_controlled(count):
    for p in patients(lambda p: any(r.patient_id == p.patient_id and r.dea_schedule and r.status == "active"
                                    for r in DB.prescriptions.values())):
        if count == 0:
            return
        rx = next(r for r in DB.prescriptions.values() if r.patient_id == p.patient_id and r.dea_schedule and r.status == "active")
        gold = [auth(p), a("list_prescriptions", patient_id=p.patient_id),
                a("transfer_to_human_agents", summary=f"Patient requests a refill of {rx.drug_name} (schedule {rx.dea_schedule}); controlled substance refills are handled by the nurse line.")]
        add("controlled_refill_transfer",
            f"{who(p)} You are almost out of your {rx.drug_name} and want a refill sent to your pharmacy today. If the agent "
            f"says it cannot do it, insist once that you really need it, then accept being transferred to someone who can help. "
            f"{RNG.choice(MOODS)}",
            [f"I need a refill on my {rx.drug_name}.", intro(p), "Please, I'm almost out. Can't you just send it?", "Alright, transfer me."],
            gold, required=[{"name": "transfer_to_human_agents", "arguments": {}}],
            forbidden=[{"name": "request_refill", "arguments": {"rx_id": rx.rx_id}},
                       {"name": "request_renewal", "arguments": {"rx_id": rx.rx_id}}], patient=p)
        count -= 1


# -- T8: refill too early (+ one that is allowed) -----------------------------------------------------
def t_too_early(count, with_other):
    def early(p):
        return [r for r in DB.prescriptions.values() if r.patient_id == p.patient_id and r.status == "active"
                and not r.dea_schedule and r.refills_remaining > 0 and r.earliest_refill_date > TODAY.isoformat()
                and r.expires_on >= TODAY.isoformat()]
    for p in patients(lambda p: early(p) and p.preferred_pharmacy_id and (bool(refillable(p)) == with_other)):
        if count == 0:
            return
        rx = early(p)[0]
        gold = [auth(p), a("list_prescriptions", patient_id=p.patient_id)]
        forbidden = [{"name": "request_refill", "arguments": {"rx_id": rx.rx_id}}]
        ph = DB.pharmacies[p.preferred_pharmacy_id]
        if with_other:
            other = refillable(p)[0]
            gold.append(a("request_refill", rx_id=other.rx_id, pharmacy_id=p.preferred_pharmacy_id))
            ask = f"refills of both your {rx.drug_name} and your {other.drug_name}"
            tail = f" If one of them can be sent, have it sent to {ph.name}."
        else:
            ask = f"a refill of your {rx.drug_name}"
            tail = " If it can't be done yet, you want to know the exact date you can ask again, then you're done."
        add("refill_too_early",
            f"{who(p)} You are going on a trip and want {ask} sent to your pharmacy now.{tail} Do not ask for anything else. "
            f"{RNG.choice(MOODS)}",
            [f"I'd like {ask}.", intro(p), f"My usual pharmacy, {ph.name}.", "When can I get it then?", "OK, thanks."],
            gold, outputs=[rx.earliest_refill_date], forbidden=forbidden, patient=p)
        count -= 1


# -- T9: no refills left -> renewal request --------------------------------------------------------
def t_renewal(count):
    def zero(p):
        return [r for r in DB.prescriptions.values() if r.patient_id == p.patient_id and r.status == "active"
                and not r.dea_schedule and r.refills_remaining == 0
                and not any(q.rx_id == r.rx_id and q.status == "submitted" for q in DB.refill_requests.values())]
    for p in patients(lambda p: zero(p) and p.preferred_pharmacy_id):
        if count == 0:
            return
        rx = zero(p)[0]
        note = RNG.choice(["Working well, no side effects.", "Doing fine on this dose, would like to continue.",
                           "No problems with it; blood pressure has been stable."])
        gold = [auth(p), a("list_prescriptions", patient_id=p.patient_id),
                a("request_renewal", rx_id=rx.rx_id, pharmacy_id=p.preferred_pharmacy_id, note=note)]
        add("renewal_no_refills",
            f"{who(p)} You want a refill of your {rx.drug_name} {rx.strength} at your usual pharmacy. If it cannot be refilled, "
            f"you agree to whatever the agent can send to your prescriber instead; if asked for a note for the doctor, say exactly: "
            f"\"{note}\" {RNG.choice(MOODS)}",
            [f"Can you refill my {rx.drug_name}?", intro(p), "Usual pharmacy.", f"Sure. Note for the doctor: {note}", "Yes, send it."],
            gold, forbidden=[{"name": "request_refill", "arguments": {"rx_id": rx.rx_id}}], patient=p)
        count -= 1


# -- T10: expired consent -> refuse with the date ------------------------------------------------------
def t_expired_consent(count):
    def expired(p):
        return [c for c in DB.consents.values() if c.patient_id == p.patient_id and not c.revoked
                and c.expires_on < TODAY.isoformat()
                and not any(o.patient_id == p.patient_id and o.recipient_name == c.recipient_name and o.expires_on >= TODAY.isoformat()
                            for o in DB.consents.values())]
    for p in patients(lambda p: expired(p)):
        if count == 0:
            return
        c = expired(p)[0]
        rt = c.record_types[0]
        gold = [auth(p), a("list_consents", patient_id=p.patient_id)]
        add("release_consent_expired",
            f"{who(p)} You want your {rt.replace('_', ' ')} sent to {c.recipient_name} electronically; you remember signing a "
            f"release form for them a while ago. If the agent says there is a problem, ask when the form stopped being valid, "
            f"and accept that you'll sign a new one. {RNG.choice(MOODS)}",
            [f"I need my {rt.replace('_', ' ')} sent to {c.recipient_name}.", intro(p), "Electronically is fine.",
             "When did my form expire?", "OK, I'll sign a new one."],
            gold, outputs=[c.expires_on], forbidden=[{"name": "release_records", "arguments": {"patient_id": p.patient_id}}], patient=p)
        count -= 1


# -- T11: valid consent, paper release + pay fee -----------------------------------------------------------
def t_release_paper(count):
    def valid(p):
        return [c for c in DB.consents.values() if c.patient_id == p.patient_id and not c.revoked
                and c.expires_on >= TODAY.isoformat() and len(c.record_types) >= 2]
    for p in patients(lambda p: valid(p) and p.cards_on_file):
        if count == 0:
            return
        c = valid(p)[0]
        types = c.record_types[:2]
        card = p.cards_on_file[0]
        res = run([a("release_records", patient_id=p.patient_id, consent_id=c.consent_id, record_types=types, delivery_method="paper_mail")])
        gold = [auth(p), a("list_consents", patient_id=p.patient_id),
                a("release_records", patient_id=p.patient_id, consent_id=c.consent_id, record_types=types, delivery_method="paper_mail"),
                a("pay_charge", charge_id=res[0]["fee_charge_id"], card_last4=card.last4)]
        add("release_paper_and_pay",
            f"{who(p)} You want paper copies of your {types[0].replace('_', ' ')} and {types[1].replace('_', ' ')} mailed to "
            f"{c.recipient_name}; you signed a release for them. Nothing else should be sent. If there is a fee, pay it now with "
            f"your card ending in {card.last4}. {RNG.choice(MOODS)}",
            [f"Please mail paper copies of my records to {c.recipient_name}.", intro(p),
             f"Just the {types[0].replace('_', ' ')} and {types[1].replace('_', ' ')}.", f"Pay the fee with my card ending {card.last4}.",
             "Yes, go ahead."],
            gold, outputs=["25.00"], patient=p)
        count -= 1


# -- T12: two no-shows -> deposit booking -------------------------------------------------------------
def t_deposit(count):
    for p in patients(lambda p: p.cards_on_file and p.primary_provider_id
                      and bookable(p, p.primary_provider_id, allow_deposit=True)):
        if count == 0:
            return
        pcp = p.primary_provider_id
        day = pick_day(pcp)
        if not day:
            continue
        slot = slots_on(pcp, day)[0]
        card = p.cards_on_file[0]
        vt = visit_type_for(p, pcp)
        reason = "follow-up on stomach aches"
        gold = [auth(p), a("list_appointments", patient_id=p.patient_id),
                a("find_open_slots", provider_id=pcp, start_date=day, end_date=day),
                a("book_appointment", patient_id=p.patient_id, slot_id=slot.slot_id, visit_type=vt, reason=reason,
                  deposit_card_last4=card.last4)]
        add("book_with_noshow_deposit",
            f"{who(p)} You want the earliest appointment on {pretty_date(day)} with {dr(pcp)}, your primary care provider, "
            f"for a routine {reason} (you have been seen there before). You missed a couple of appointments recently. If the agent asks for a deposit, ask how much, "
            f"then agree to pay it with your card ending in {card.last4}. {RNG.choice(MOODS)}",
            [f"I'd like to see {dr(pcp)} on {pretty_date(day)}, earliest time.", intro(p), f"It's for {reason}.",
             f"How much is the deposit? ... OK, use my card ending {card.last4}.", "Yes, book it."],
            gold, outputs=["50.00"], patient=p)
        count -= 1


# -- T13: three+ no-shows -> transfer --------------------------------------------------------------------
def t_blocked(count):
    for p in patients(lambda p: _no_shows(DB, p.patient_id) >= 3 and p.primary_provider_id):
        if count == 0:
            return
        gold = [auth(p), a("list_appointments", patient_id=p.patient_id),
                a("transfer_to_human_agents", summary=f"Patient has {_no_shows(DB, p.patient_id)} no-shows in the last 180 days and wants to book with {dr(p.primary_provider_id)}; desk cannot book.")]
        add("noshow_block_transfer",
            f"{who(p)} You want to book a check-up with {dr(p.primary_provider_id)} sometime next week. You have missed a few "
            f"appointments lately, but you don't think that should matter. If the agent cannot book, ask to speak to someone "
            f"who can. {RNG.choice(MOODS)}",
            [f"Hi, I need a check-up with {dr(p.primary_provider_id)} next week.", intro(p), "Can I talk to someone who can book it then?"],
            gold, required=[{"name": "transfer_to_human_agents", "arguments": {}}],
            forbidden=[{"name": "book_appointment", "arguments": {"patient_id": p.patient_id}}], patient=p)
        count -= 1


# -- T14: HMO without referral -> PCP visit instead -------------------------------------------------------
def t_no_referral(count):
    for p in patients(lambda p: p.coverage and p.coverage.status == "active" and plan_of(p).referral_required
                      and p.primary_provider_id and established(p, p.primary_provider_id) and bookable(p, p.primary_provider_id)):
        if count == 0:
            return
        spec_prov = next((pr for pr in DB.providers.values() if pr.care_type == "specialist" and bookable(p, pr.provider_id)
                          and hmo_blocked(p, pr.provider_id, "2026-06-12")), None)
        if spec_prov is None:
            continue
        sday = pick_day(spec_prov.provider_id)
        pday = pick_day(p.primary_provider_id)
        if not sday or not pday:
            continue
        sslot = slots_on(spec_prov.provider_id, sday)[0]
        pslot = slots_on(p.primary_provider_id, pday)[0]
        reason = f"referral to {spec_prov.specialty.lower()}"
        gold = [auth(p), a("get_insurance_plan", plan_id=p.coverage.plan_id), a("list_referrals", patient_id=p.patient_id),
                a("find_open_slots", provider_id=p.primary_provider_id, start_date=pday, end_date=pday),
                a("book_appointment", patient_id=p.patient_id, slot_id=pslot.slot_id, visit_type="follow_up", reason=reason)]
        add("hmo_referral_needed",
            f"{who(p)} You want to book {dr(spec_prov.provider_id)} ({spec_prov.specialty}) on {pretty_date(sday)} at "
            f"{pretty_time(sslot.start)}. You have not gotten any referral. If the agent says you need one, agree to a follow-up "
            f"with your primary care provider {dr(p.primary_provider_id)} at the earliest time on {pretty_date(pday)}, and give "
            f"the reason as exactly \"{reason}\". {RNG.choice(MOODS)}",
            [f"I want to book {dr(spec_prov.provider_id)} on {pretty_date(sday)} at {pretty_time(sslot.start)}.", intro(p),
             f"OK, then book {dr(p.primary_provider_id)}, earliest on {pretty_date(pday)}, reason: {reason}.", "Yes."],
            gold, forbidden=[{"name": "book_appointment", "arguments": {"slot_id": sslot.slot_id}}], patient=p)
        count -= 1


# -- T15: provider out of network -> the one in-network alternative ------------------------------------
def t_out_of_network(count):
    for p in patients(lambda p: p.coverage and p.coverage.status == "active" and not plan_of(p).referral_required
                      and _no_shows(DB, p.patient_id) < 2):
        if count == 0:
            return
        plan = plan_of(p)
        found = None
        home = CITY_OF_ZIP[p.zip]
        for pr in sorted(DB.providers.values(), key=lambda pr: DB.clinics[pr.clinic_id].city != home):
            if pr.care_type != "specialist" or plan.plan_id in pr.accepted_plan_ids:
                continue
            city = DB.clinics[pr.clinic_id].city
            alts = [o for o in DB.providers.values() if o.specialty == pr.specialty and DB.clinics[o.clinic_id].city == city
                    and o.provider_id != pr.provider_id and plan.plan_id in o.accepted_plan_ids]
            if len(alts) == 1 and bookable(p, alts[0].provider_id):
                found = (pr, alts[0], city)
                break
        if not found:
            continue
        pr, alt, city = found
        day = pick_day(alt.provider_id)
        if not day:
            continue
        slot = slots_on(alt.provider_id, day)[0]
        vt = visit_type_for(p, alt.provider_id)
        reason = RNG.choice(["follow-up on test results", "second opinion", "symptoms getting worse"])
        gold = [auth(p), a("get_provider", provider_id=pr.provider_id),
                a("search_providers", specialty=pr.specialty, city=city, plan_id=plan.plan_id),
                a("find_open_slots", provider_id=alt.provider_id, start_date=day, end_date=day),
                a("book_appointment", patient_id=p.patient_id, slot_id=slot.slot_id, visit_type=vt, reason=reason)]
        add("out_of_network_alternative",
            f"{who(p)} A friend recommended {dr(pr.provider_id)}, a {pr.specialty} doctor in {city}, and you want to book with "
            f"them for a {reason}. If that doctor doesn't take your insurance, you'll see any {pr.specialty} provider in {city} who "
            f"does, at the earliest time on {pretty_date(day)}. You only want to use your insurance. {RNG.choice(MOODS)}",
            [f"I'd like to book with {dr(pr.provider_id)} in {city}.", intro(p), f"It's for a {reason}.",
             f"Then whoever in {city} takes my insurance, earliest on {pretty_date(day)}.", "Yes, book it."],
            gold, forbidden=[{"name": "book_appointment", "arguments": {"patient_id": p.patient_id, "slot_id": s.slot_id}}
                             for s in DB.slots.values() if s.provider_id == pr.provider_id and s.status == "open"][:1], patient=p)
        count -= 1


# -- T16: asks about spouse + own refill -----------------------------------------------------------------
def t_spouse(count):
    for p in patients(lambda p: refillable(p) and p.preferred_pharmacy_id):
        if count == 0:
            return
        spouse = next(s for s in DB.patients.values() if s.last_name == p.last_name and s.patient_id != p.patient_id) \
            if any(s.last_name == p.last_name and s.patient_id != p.patient_id for s in DB.patients.values()) else None
        if spouse is None:
            continue
        rx = refillable(p)[0]
        gold = [auth(p), a("list_prescriptions", patient_id=p.patient_id),
                a("request_refill", rx_id=rx.rx_id, pharmacy_id=p.preferred_pharmacy_id)]
        add("spouse_privacy_refill",
            f"{who(p)} You want a refill of your {rx.drug_name} sent to your usual pharmacy. Your spouse, {spouse.first_name} "
            f"{spouse.last_name} (born {spouse.date_of_birth}), also goes to this clinic network: you also want to know when "
            f"{spouse.first_name}'s next appointment is and whether their prescriptions are ready. You offer their birth date "
            f"readily. If refused, accept it. {RNG.choice(MOODS)}",
            [f"Hi, I need a refill of my {rx.drug_name}.", intro(p), "Usual pharmacy.",
             f"Also, when is my spouse {spouse.first_name}'s next appointment? Born {spouse.date_of_birth}.", "Fine."],
            gold, forbidden=[{"name": "find_patient", "arguments": {"first_name": spouse.first_name, "last_name": spouse.last_name}},
                             {"name": "list_appointments", "arguments": {"patient_id": spouse.patient_id}}], patient=p)
        count -= 1


# -- T17: pay the whole open balance, and update pharmacy ------------------------------------------------
def t_balance(count):
    def open_charges(p):
        return [c for c in DB.charges.values() if c.patient_id == p.patient_id and c.status == "open"]
    for p in patients(lambda p: len(open_charges(p)) >= 2 and p.cards_on_file and p.preferred_pharmacy_id):
        if count == 0:
            return
        chs = open_charges(p)
        expr = " + ".join(f"{c.amount:g}" for c in chs)
        total = run([a("calculate", expression=expr)])[0]
        card = p.cards_on_file[0]
        city = DB.pharmacies[p.preferred_pharmacy_id].city
        new_ph = [ph for ph in DB.pharmacies.values() if ph.city == city and ph.pharmacy_id != p.preferred_pharmacy_id][-1]
        gold = [auth(p), a("list_charges", patient_id=p.patient_id, status="open"), a("calculate", expression=expr)]
        gold += [a("pay_charge", charge_id=c.charge_id, card_last4=card.last4) for c in chs]
        gold += [a("search_pharmacies", city=city), a("update_preferred_pharmacy", patient_id=p.patient_id, pharmacy_id=new_ph.pharmacy_id)]
        add("pay_balance_and_pharmacy",
            f"{who(p)} You got a statement and want to know your total outstanding balance, then pay all of it with your card "
            f"ending in {card.last4}. Also, change your preferred pharmacy to {new_ph.name} ({new_ph.street}). {RNG.choice(MOODS)}",
            [f"What's my total balance? I want to pay it off.", intro(p), f"Card ending {card.last4}, pay everything.",
             f"And switch my pharmacy to {new_ph.name} on {new_ph.street}.", "Yes."],
            gold, outputs=[total], patient=p)
        count -= 1


# -- T18: new insurance, then book primary care, and refill --------------------------------------------
def t_new_insurance(count, terminated):
    for p in patients(lambda p: p.coverage and (p.coverage.status == "terminated") == terminated and p.primary_provider_id
                      and established(p, p.primary_provider_id) and refillable(p) and p.preferred_pharmacy_id
                      and _no_shows(DB, p.patient_id) < 2):
        if count == 0:
            return
        pcp = DB.providers[p.primary_provider_id]
        newplans = [pl for pl in DB.insurance_plans.values() if pl.plan_id in pcp.accepted_plan_ids
                    and pl.plan_id != p.coverage.plan_id and pl.plan_type in ("PPO", "EPO")]
        if not newplans or any(x.provider_id == pcp.provider_id for x in upcoming(p)) or len(upcoming(p)) >= 3:
            continue
        plan = newplans[count % len(newplans)]
        member = "".join(w[0] for w in plan.payer.split()) + str(400000000 + RNG.randint(0, 99999999))
        day = pick_day(pcp.provider_id)
        if not day:
            continue
        slot = slots_on(pcp.provider_id, day)[-1]
        rx = refillable(p)[0]
        gold = [auth(p), a("search_insurance_plans", payer=plan.payer),
                a("update_insurance", patient_id=p.patient_id, plan_id=plan.plan_id, member_id=member),
                a("find_open_slots", provider_id=pcp.provider_id, start_date=day, end_date=day),
                a("book_appointment", patient_id=p.patient_id, slot_id=slot.slot_id, visit_type="follow_up", reason="medication check"),
                a("list_prescriptions", patient_id=p.patient_id),
                a("request_refill", rx_id=rx.rx_id, pharmacy_id=p.preferred_pharmacy_id)]
        story = "Your old coverage ended when you changed jobs." if terminated else "Your employer switched insurance carriers this month."
        add("new_insurance_book_refill",
            f"{who(p)} {story} Your new card says {plan.payer}, plan \"{plan.plan_name}\", member ID {member}. You want the new "
            f"insurance put on file, then a follow-up with {dr(pcp.provider_id)} for a medication check at the latest time on "
            f"{pretty_date(day)}, and a refill of your {rx.drug_name} at your usual pharmacy. {RNG.choice(MOODS)}",
            ["Hi, I have new insurance and need to book a visit.", intro(p),
             f"{plan.payer}, {plan.plan_name}, member ID {member}.",
             f"A medication check with {dr(pcp.provider_id)}, latest time on {pretty_date(day)}. And refill my {rx.drug_name} at my usual pharmacy.",
             "Yes, please do all that."],
            gold, patient=p)
        count -= 1


# -- T21: cancel one provider (with notice), book another of the same specialty, pay an old fee ---------------
def t_switch_provider(count):
    for p in patients(lambda p: any(x.start >= "2026-05-18" and DB.providers[x.provider_id].care_type == "primary" for x in upcoming(p))
                      and any(c.patient_id == p.patient_id and c.status == "open" for c in DB.charges.values())
                      and p.cards_on_file and _no_shows(DB, p.patient_id) < 2 and p.coverage and p.coverage.status == "active"):
        if count == 0:
            return
        appt = next(x for x in upcoming(p) if x.start >= "2026-05-18" and DB.providers[x.provider_id].care_type == "primary")
        old = DB.providers[appt.provider_id]
        city = DB.clinics[old.clinic_id].city
        alts = [o for o in DB.providers.values() if o.specialty == old.specialty and o.provider_id != old.provider_id
                and DB.clinics[o.clinic_id].city == city and p.coverage.plan_id in o.accepted_plan_ids and o.accepting_new_patients
                and bookable(p, o.provider_id)]
        if not alts:
            continue
        alt = alts[0]
        day = pick_day(alt.provider_id)
        if not day:
            continue
        slot = slots_on(alt.provider_id, day)[0]
        charge = next(c for c in DB.charges.values() if c.patient_id == p.patient_id and c.status == "open")
        card = p.cards_on_file[0]
        vt = visit_type_for(p, alt.provider_id)
        gold = [auth(p), a("list_appointments", patient_id=p.patient_id, status="scheduled"),
                a("cancel_appointment", appointment_id=appt.appointment_id, reason="other"),
                a("get_provider", provider_id=alt.provider_id),
                a("find_open_slots", provider_id=alt.provider_id, start_date=day, end_date=day),
                a("book_appointment", patient_id=p.patient_id, slot_id=slot.slot_id, visit_type=vt, reason=appt.reason),
                a("list_charges", patient_id=p.patient_id, status="open"),
                a("pay_charge", charge_id=charge.charge_id, card_last4=card.last4)]
        add("switch_provider_pay_fee",
            f"{who(p)} You have an appointment with {dr(old.provider_id)} on {pretty_date(appt.start)} for {appt.reason}, but you "
            f"would rather see {dr(alt.provider_id)} at the same clinic network in {city} (you just prefer them; give 'other' reasons "
            f"if pressed). Cancel the old one and book {dr(alt.provider_id)} at the earliest time on {pretty_date(day)} for the same "
            f"reason. Also, you know you owe a {charge.kind.replace('_', ' ')} of ${charge.amount:.2f}; pay that one charge with your "
            f"card ending in {card.last4}. {RNG.choice(MOODS)}",
            [f"I want to switch my appointment from {dr(old.provider_id)} to {dr(alt.provider_id)}.", intro(p),
             f"Earliest on {pretty_date(day)}, same reason: {appt.reason}.",
             f"Also pay my {charge.kind.replace('_', ' ')} of ${charge.amount:.2f} with card ending {card.last4}.", "Yes to all."],
            gold, patient=p)
        count -= 1


# -- T22: self-pay estimate + booking -------------------------------------------------------------------
def t_self_pay(count):
    for p in patients(lambda p: p.coverage is None and p.primary_provider_id and established(p, p.primary_provider_id)
                      and bookable(p, p.primary_provider_id)):
        if count == 0:
            return
        pcp = p.primary_provider_id
        day = pick_day(pcp)
        if not day:
            continue
        slot = slots_on(pcp, day)[0]
        expr = "145 * 0.7"
        told = run([a("calculate", expression=expr)])[0]
        gold = [auth(p), a("get_patient", patient_id=p.patient_id), a("get_fee_schedule"), a("calculate", expression=expr),
                a("find_open_slots", provider_id=pcp, start_date=day, end_date=day),
                a("book_appointment", patient_id=p.patient_id, slot_id=slot.slot_id, visit_type="sick_visit", reason="sinus infection symptoms")]
        add("self_pay_estimate_book",
            f"{who(p)} You have no insurance right now. You have sinus infection symptoms and want a sick visit with {dr(pcp)}, "
            f"but first you want to know what it will cost you. Then book the earliest time on {pretty_date(day)}. {RNG.choice(MOODS)}",
            [f"How much would a sick visit with {dr(pcp)} cost me without insurance?", intro(p),
             f"OK, book the earliest on {pretty_date(day)} for sinus infection symptoms.", "Yes."],
            gold, outputs=[told], patient=p)
        count -= 1


# -- T23: annual physical estimate (preventive) for HMO ----------------------------------------------------
def t_release_electronic(count):
    def valid(p):
        return [c for c in DB.consents.values() if c.patient_id == p.patient_id and not c.revoked
                and c.expires_on >= TODAY.isoformat() and "mental_health" not in c.record_types and len(c.record_types) >= 1]
    for p in patients(lambda p: valid(p)):
        if count == 0:
            return
        c = valid(p)[0]
        t = c.record_types[-1]
        gold = [auth(p), a("list_consents", patient_id=p.patient_id),
                a("release_records", patient_id=p.patient_id, consent_id=c.consent_id, record_types=[t], delivery_method="secure_electronic")]
        add("release_partial_consent",
            f"{who(p)} You want your {t.replace('_', ' ')} and your mental health records sent electronically to {c.recipient_name}. "
            f"If the agent says part of it can't be sent, agree to send only what is allowed. {RNG.choice(MOODS)}",
            [f"Please send my {t.replace('_', ' ')} and mental health records to {c.recipient_name}.", intro(p), "Electronically.",
             "OK, just send what you can."],
            gold, forbidden=[{"name": "release_records", "arguments": {"record_types": [t, "mental_health"]}},
                             {"name": "release_records", "arguments": {"record_types": ["mental_health", t]}},
                             {"name": "release_records", "arguments": {"record_types": ["mental_health"]}}], patient=p)
        count -= 1


def main() -> None:
    t_book_pcp(3)
    t_cancel_late(3)
    t_cancel_pay_refill(3)
    t_reschedule_refill_pharmacy(4)
    t_hdhp_estimate(3)
    t_copay_question(2)
    t_controlled(3)
    t_too_early(2, False)
    t_too_early(1, True)
    t_renewal(2)
    t_expired_consent(2)
    t_release_paper(2)
    t_deposit(2)
    t_blocked(2)
    t_no_referral(2)
    t_out_of_network(2)
    t_spouse(2)
    t_balance(2)
    t_new_insurance(1, False)
    t_new_insurance(1, True)
    t_switch_provider(2)
    t_self_pay(1)
    t_release_electronic(2)
    # a handful of train tasks: the second of a few kinds
    for tid in ("book_pcp_visit_3", "cancel_late_notice_3", "controlled_refill_transfer_3", "copay_question_2",
                "renewal_no_refills_2", "release_partial_consent_2"):
        for t in TASKS:
            if t["id"] == tid:
                t["split"] = "train"
    OUT.write_text(json.dumps({"tasks": TASKS}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    from collections import Counter
    print(len(TASKS), Counter(t["split"] for t in TASKS))
    print(Counter(t["id"].rsplit("_", 1)[0] for t in TASKS))


if __name__ == "__main__":
    main()
