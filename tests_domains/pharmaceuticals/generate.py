"""Seeded generator for Corvane Therapeutics' trial-coordination desk (three studies, ten US sites).

`python -m tests_domains.pharmaceuticals.generate` writes fixtures/pharmaceuticals/db.json, byte-identical on every run.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db

OUT = Path(__file__).parents[2] / "fixtures" / "pharmaceuticals" / "db.json"
TODAY = date(2026, 6, 10)

SHIP_BASE = {"ambient": 38.50, "refrigerated": 64.25, "frozen": 109.80}
SHIP_PER_SAMPLE = {"ambient": 1.10, "refrigerated": 1.85, "frozen": 2.70}
AE_DAYS = {"life_threatening": 1, "serious": 3, "severe": 7, "other": 30}

STUDIES: list[dict[str, Any]] = [
    {"study_id": "CRV-301", "title": "A 52-week randomized, double-blind, placebo-controlled study of subcutaneous CRV-118 "
     "in adults with moderate-to-severe plaque psoriasis", "phase": "III", "indication": "plaque psoriasis",
     "investigational_product": "CRV-118 150 mg/mL prefilled syringe", "min_age": 18, "max_age": 75,
     "inclusion": ["Plaque psoriasis for at least 6 months", "PASI 12 or higher at screening and baseline",
                   "Body surface area involvement of 10% or more", "Candidate for systemic therapy"],
     "exclusion": ["Prior exposure to an IL-23 inhibitor", "Active or latent tuberculosis",
                   "Live vaccine within 12 weeks of baseline", "Pregnant or breastfeeding"],
     "visits": [("V1", "Baseline / Day 1", 1, 0, 0), ("V2", "Week 2", 15, 2, 2), ("V3", "Week 4", 29, 3, 3),
                ("V4", "Week 8", 57, 3, 5), ("V5", "Week 12", 85, 5, 7), ("V6", "Week 24", 169, 7, 7),
                ("V7", "Week 36", 253, 7, 10), ("V8", "Week 52 / End of Study", 365, 10, 14)],
     "consent": [("1.0", "2024-11-04", "2024-11-18", "Original consent"),
                 ("2.0", "2025-08-12", "2025-08-25", "Added optional pharmacogenomic sample"),
                 ("3.0", "2026-05-14", "2026-05-28", "New hepatic safety language; extra liver panel at Week 12"),
                 ("3.1", "2026-06-04", "2026-06-24", "Clarified travel reimbursement")],
     "status": "enrolling"},
    {"study_id": "CRV-214", "title": "A phase II dose-ranging study of oral CRV-407 in chronic heart failure with "
     "reduced ejection fraction", "phase": "II", "indication": "heart failure (HFrEF)",
     "investigational_product": "CRV-407 tablets 10 mg / 25 mg", "min_age": 40, "max_age": 85,
     "inclusion": ["LVEF 40% or less within 6 months", "NYHA class II-III", "Stable guideline-directed therapy for 4 weeks"],
     "exclusion": ["eGFR below 30", "Hospitalization for heart failure within 30 days", "Systolic blood pressure below 95"],
     "visits": [("V1", "Baseline / Day 1", 1, 0, 0), ("V2", "Day 8", 8, 1, 1), ("V3", "Day 22", 22, 2, 3),
                ("V4", "Week 6", 43, 3, 4), ("V5", "Week 12", 85, 5, 5), ("V6", "Week 18", 127, 7, 7),
                ("V7", "Week 26 / End of Study", 183, 7, 10)],
     "consent": [("1.0", "2025-01-21", "2025-02-03", "Original consent"),
                 ("1.1", "2025-10-06", "2025-10-20", "Updated contact numbers and compensation table"),
                 ("2.0", "2026-04-20", "2026-05-04", "New renal monitoring requirement and extra potassium draws")],
     "status": "enrolling"},
    {"study_id": "CRV-322", "title": "A 52-week phase III study of once-weekly CRV-560 added to metformin in type 2 "
     "diabetes", "phase": "III", "indication": "type 2 diabetes", "investigational_product": "CRV-560 pen injector",
     "min_age": 30, "max_age": 70,
     "inclusion": ["HbA1c 7.5% to 10.5%", "Metformin 1500 mg/day or more for 3 months", "BMI 25 to 45"],
     "exclusion": ["History of pancreatitis", "Personal or family history of medullary thyroid carcinoma",
                   "Insulin use within 90 days"],
     "visits": [("V1", "Baseline / Day 1", 1, 0, 0), ("V2", "Week 4", 29, 3, 3), ("V3", "Week 8", 57, 4, 4),
                ("V4", "Week 13", 92, 5, 5), ("V5", "Week 26", 183, 7, 7), ("V6", "Week 39", 274, 7, 10),
                ("V7", "Week 52 / End of Study", 365, 10, 14)],
     "consent": [("1.0", "2025-03-10", "2025-03-24", "Original consent"),
                 ("2.0", "2026-06-01", "2026-06-15", "Added continuous glucose monitor sub-study"),
                 ("2.1", None, None, "Draft awaiting IRB review")],
     "status": "enrolling"},
]

SITES = [("104", "Lakeshore Dermatology & Research", "Chicago", "IL", "Dr. Miriam Okonjo", "lakeshoreresearch.org"),
         ("117", "Piedmont Clinical Research Center", "Charlotte", "NC", "Dr. Samuel Whitcombe", "piedmontcrc.com"),
         ("123", "Sonoran Heart & Vascular Institute", "Tucson", "AZ", "Dr. Alicia Verduzco", "sonoranheart.org"),
         ("131", "Cascade Metabolic Research", "Portland", "OR", "Dr. Henrik Aalto", "cascademetabolic.com"),
         ("142", "Bayou Medical Trials", "Baton Rouge", "LA", "Dr. Denise Fontenot", "bayoutrials.com"),
         ("156", "Mile High Clinical Partners", "Denver", "CO", "Dr. Rajiv Menon", "milehighclinical.com"),
         ("163", "Hudson Valley Research Associates", "Poughkeepsie", "NY", "Dr. Claire Donnelly", "hvresearch.org"),
         ("178", "Prairie Health Research", "Omaha", "NE", "Dr. Tobias Lindgren", "prairiehealthresearch.org"),
         ("185", "Gulf Coast Clinical Studies", "Tampa", "FL", "Dr. Yesenia Cardenas", "gulfcoaststudies.com"),
         ("192", "Twin Rivers Medical Research", "Pittsburgh", "PA", "Dr. Nathaniel Brooks", "twinriversmr.org")]
LABS = ["Meridian Central Laboratory (Indianapolis)", "Covance-style BioAnalytics Hub (Durham)"]

FIRST = ["Adaeze", "Aiden", "Alma", "Amir", "Anya", "Beatrice", "Bilal", "Bronwyn", "Carlos", "Celeste", "Dana",
         "Darnell", "Delia", "Elena", "Emeka", "Esme", "Farid", "Gemma", "Gideon", "Hana", "Harper", "Imani", "Ines",
         "Jalen", "Joanna", "Kofi", "Lara", "Leon", "Lucinda", "Mariam", "Mateo", "Nadia", "Nolan", "Odette", "Priya",
         "Quentin", "Rhea", "Rowan", "Selin", "Tamsin", "Teodor", "Ursula", "Vikram", "Wren", "Yara", "Zane"]
LAST = ["Abernathy", "Baptiste", "Castellano", "Dubois", "Ekwueme", "Fairchild", "Gallagher", "Hoang", "Iqbal",
        "Jovanovic", "Kapoor", "Lachance", "Mbeki", "Nordstrom", "Oyelaran", "Pellegrino", "Quintero", "Rosales",
        "Szabo", "Thibodeaux", "Underhill", "Varga", "Whitfield", "Yamamoto", "Zeller", "Prescott", "Amundsen"]
LETTERS = "ABCDEFGHJKLMNPRSTVW"
AE_TERMS = ["Headache", "Nausea", "Injection site erythema", "Upper respiratory tract infection", "Fatigue", "Dizziness",
            "Diarrhoea", "Arthralgia", "Hypertension", "Rash", "Elevated ALT", "Hypoglycaemia", "Peripheral oedema",
            "Pneumonia", "Atrial fibrillation", "Syncope", "Acute kidney injury", "Cellulitis", "Hyperkalaemia",
            "Back pain", "Insomnia", "Cough"]
SAMPLE_KINDS = [("serum", "frozen"), ("plasma", "frozen"), ("pk", "frozen"), ("whole_blood", "refrigerated"),
                ("urine", "refrigerated"), ("whole_blood", "ambient")]


def iso(d: date) -> str:
    return d.isoformat()


def weekday_near(d: date, lo: date, hi: date) -> date | None:
    for delta in (0, 1, -1, 2, -2, 3, -3):
        c = d + timedelta(days=delta)
        if lo <= c <= hi and c.weekday() < 5:
            return c
    return None


def ae_due(severity: str, serious: bool, aware: date) -> date:
    days = AE_DAYS["life_threatening"] if serious and severity == "life_threatening" else AE_DAYS["serious"] if serious \
        else AE_DAYS["severe"] if severity in ("severe", "life_threatening") else AE_DAYS["other"]
    return aware + timedelta(days=days)


def ship_fee(storage: str, n: int) -> float:
    return round(SHIP_BASE[storage] + SHIP_PER_SAMPLE[storage] * n, 2)


def effective_version(study: dict[str, Any], on: date) -> str:
    best = str(study["consent"][0][0])
    for version, _, eff, _ in study["consent"]:
        if eff and eff <= iso(on):
            best = version
    return best


def generate(seed: int = 2026) -> dict[str, Any]:
    rng = random.Random(seed)
    db: dict[str, dict[str, Any]] = {t: {} for t in ("studies", "sites", "coordinators", "participants", "visits",
                                                     "adverse_events", "reconsents", "samples", "shipments",
                                                     "deviations", "unblindings")}
    for s in STUDIES:
        db["studies"][s["study_id"]] = {
            "study_id": s["study_id"], "title": s["title"], "phase": s["phase"], "indication": s["indication"],
            "investigational_product": s["investigational_product"], "min_age": s["min_age"], "max_age": s["max_age"],
            "inclusion": s["inclusion"], "exclusion": s["exclusion"], "status": s["status"],
            "visits": [{"visit_code": c, "name": n, "study_day": d, "window_before": b, "window_after": a}
                       for c, n, d, b, a in s["visits"]],
            "consent_versions": [{"version": v, "irb_approved_on": ap, "effective_date": ef, "summary": sm}
                                 for v, ap, ef, sm in s["consent"]]}
    study_by_id = {s["study_id"]: s for s in STUDIES}
    used_emails: set[str] = set()
    kit_seq = 31000
    pending_samples: dict[tuple[str, str, str], list[str]] = {}
    for number, name, city, state, pi, domain_name in SITES:
        site_id = f"S{number}"
        studies = sorted(rng.sample([s["study_id"] for s in STUDIES], rng.choice([2, 2, 3])))
        db["sites"][site_id] = {"site_id": site_id, "site_number": number, "name": name, "city": city, "state": state,
                                "principal_investigator": pi, "studies": studies, "lab": rng.choice(LABS)}
        for k in range(3):
            while True:
                first, last = rng.choice(FIRST), rng.choice(LAST)
                email = f"{first[0].lower()}{last.lower()}@{domain_name}"
                if email not in used_emails:
                    used_emails.add(email)
                    break
            cid = f"C{number}{k + 1}"
            dob = date(rng.randint(1964, 1999), rng.randint(1, 12), rng.randint(1, 28))
            db["coordinators"][cid] = {"coordinator_id": cid, "name": f"{first} {last}", "email": email, "site_id": site_id,
                                       "date_of_birth": iso(dob),
                                       "role": ["study_coordinator", "research_nurse", "sub_investigator"][k]}
        for study_id in studies:
            study = study_by_id[study_id]
            for seq in range(1, rng.randint(22, 30) + 1):
                pid = f"{study_id.replace('-', '')}-{number}-{seq:03d}"
                screening = TODAY - timedelta(days=rng.randint(3, 480))
                roll = rng.random()
                age = rng.randint(study["min_age"] + 1, study["max_age"] - 1)
                if roll < 0.04:  # edge of the age range
                    age = rng.choice([study["min_age"] - 1, study["max_age"] + 1, study["max_age"]])
                    if age < 18:  # a minor is never consented into an adult trial: the edge case is the upper one
                        age = study["max_age"] + 1
                dob = date(screening.year - age, rng.randint(1, 12), rng.randint(1, 28))
                consent_on = screening - timedelta(days=rng.randint(0, 6))
                version = effective_version(study, consent_on)
                p: dict[str, Any] = {"participant_id": pid, "study_id": study_id, "site_id": site_id,
                                     "initials": rng.choice(LETTERS) + rng.choice("-" + LETTERS) + rng.choice(LETTERS),
                                     "date_of_birth": iso(dob), "sex": rng.choice("FM"), "first_consent_on": iso(consent_on),
                                     "consent_version": version, "consent_signed_on": iso(consent_on),
                                     "screening_date": iso(screening), "randomization_date": None, "arm": None,
                                     "kit_number": None, "withdrawal_reason": "", "status": "screening"}
                p["initials"] = p["initials"].replace("-", "")
                db["participants"][pid] = p
                if (TODAY - screening).days <= 45:
                    continue  # still screening
                if rng.random() < 0.15:
                    p["status"] = "screen_failed"
                    continue
                rand = screening + timedelta(days=rng.randint(10, 27))
                while rand.weekday() >= 5:
                    rand += timedelta(days=1)
                kit_seq += rng.randint(1, 9)
                p.update(status="randomized", randomization_date=iso(rand), arm=rng.choice("AB"), kit_number=f"K{kit_seq}")
                # re-consents to versions that became effective after first consent
                for v, _, eff, _ in study["consent"]:
                    if eff and iso(consent_on) < eff <= iso(TODAY) and rng.random() < 0.7:
                        signed = date.fromisoformat(eff) + timedelta(days=rng.randint(1, 20))
                        if signed < TODAY:
                            rid = f"RC-{pid}-{v}"
                            db["reconsents"][rid] = {"reconsent_id": rid, "participant_id": pid, "version": v,
                                                     "signed_on": iso(signed)}
                            p.update(consent_version=v, consent_signed_on=iso(signed))
                withdrawn = rng.random() < 0.06
                stop = rand + timedelta(days=rng.randint(20, 300)) if withdrawn else None
                scheduled_next = False
                for code, _, day, before, after in study["visits"]:
                    target = rand + timedelta(days=day - 1)
                    lo, hi = target - timedelta(days=before), target + timedelta(days=after)
                    vid = f"{pid}-{code}"
                    visit: dict[str, Any] = {"visit_id": vid, "participant_id": pid, "visit_code": code,
                                             "status": "not_scheduled", "scheduled_date": None}
                    if stop and target > stop:
                        visit["status"] = "cancelled"
                    elif hi < TODAY:
                        when = weekday_near(target, lo, hi) or target
                        r = rng.random()
                        if r < 0.03 and hi >= TODAY - timedelta(days=20):
                            visit["status"] = "not_scheduled"  # window closed, never recorded
                        elif r < 0.09:
                            visit.update(status="missed", scheduled_date=iso(when))
                        else:
                            visit.update(status="completed", scheduled_date=iso(when))
                            if when >= TODAY - timedelta(days=110):
                                for kind, storage in rng.sample(SAMPLE_KINDS, rng.randint(1, 3)):
                                    sid = f"{vid}-{kind[:2].upper()}{storage[0].upper()}"
                                    db["samples"][sid] = {"sample_id": sid, "participant_id": pid, "visit_code": code,
                                                          "kind": kind, "storage": storage, "collected_on": iso(when),
                                                          "shipment_id": None}
                                    if (TODAY - when).days > 16 or rng.random() < 0.1:
                                        wk = when + timedelta(days=7 - when.weekday())
                                        pending_samples.setdefault((site_id, storage, iso(wk)), []).append(sid)
                    elif not scheduled_next and rng.random() < 0.55 and lo <= TODAY + timedelta(days=50):
                        slot = weekday_near(target, max(lo, TODAY + timedelta(days=1)), hi)
                        if slot:
                            visit.update(status="scheduled", scheduled_date=iso(slot))
                        scheduled_next = True
                    else:
                        scheduled_next = True
                    db["visits"][vid] = visit
                if stop:
                    p.update(status="withdrawn", withdrawal_reason=rng.choice(
                        ["Participant moved out of state", "Withdrew consent, personal reasons", "Lost to follow-up",
                         "Investigator decision after adverse event"]))
                elif all(v["status"] in ("completed", "missed") for v in db["visits"].values() if v["participant_id"] == pid):
                    p["status"] = "completed"
                # adverse events
                last_day = min(TODAY - timedelta(days=1), stop or TODAY)
                for _ in range(rng.choice([0, 0, 1, 1, 1, 2, 3])):
                    span = (last_day - rand).days
                    if span < 2:
                        break
                    onset = rand + timedelta(days=rng.randint(1, span))
                    aware = min(onset + timedelta(days=rng.randint(0, 3)), TODAY)
                    severity = rng.choices(["mild", "moderate", "severe", "life_threatening"], [50, 32, 14, 4])[0]
                    serious = severity == "life_threatening" or (severity == "severe" and rng.random() < 0.5)
                    term = rng.choice(AE_TERMS)
                    aid = f"AE-{pid}-{len([a for a in db['adverse_events'] if a.startswith('AE-' + pid)]) + 1}"
                    db["adverse_events"][aid] = {
                        "ae_id": aid, "participant_id": pid, "term": term, "severity": severity, "serious": serious,
                        "onset_date": iso(onset), "site_aware_date": iso(aware),
                        "report_due": iso(ae_due(severity, serious, aware)),
                        "status": "resolved" if (TODAY - onset).days > 30 and rng.random() < 0.85 else "open",
                        "narrative": f"{term} reported by participant; {severity.replace('_', '-')}"
                                     + ("; serious" if serious else "") + "."}
                for _ in range(rng.choice([0, 0, 0, 1])):
                    when = rand + timedelta(days=rng.randint(1, max(1, (last_day - rand).days)))
                    cat = rng.choice(["visit_out_of_window", "dosing", "other", "missed_visit"])
                    did = f"DV-{pid}-{cat[:3].upper()}{when.strftime('%m%d')}"
                    db["deviations"][did] = {"deviation_id": did, "participant_id": pid, "category": cat,
                                             "occurred_on": iso(when),
                                             "logged_on": iso(min(when + timedelta(days=rng.randint(0, 5)), TODAY)),
                                             "description": {"visit_out_of_window": "Visit done outside its window",
                                                             "dosing": "Dose taken late by the participant",
                                                             "other": "Vital signs not recorded at visit",
                                                             "missed_visit": "Participant did not attend"}[cat]}
    # shipments of older samples; the rest waits at the site
    for (site_id, storage, pickup), sids in sorted(pending_samples.items()):
        pick = date.fromisoformat(pickup)
        if pick >= TODAY - timedelta(days=1):
            continue
        ship_id = f"SH-{site_id[1:]}-{pick.strftime('%y%m%d')}-{storage[0].upper()}"
        db["shipments"][ship_id] = {"shipment_id": ship_id, "site_id": site_id, "storage": storage, "sample_ids": sorted(sids),
                                    "pickup_date": pickup, "courier_fee": ship_fee(storage, len(sids)),
                                    "status": "received" if (TODAY - pick).days > 3 else "in_transit"}
        for sid in sids:
            db["samples"][sid]["shipment_id"] = ship_id
    return db


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(dump_db(generate()))
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
