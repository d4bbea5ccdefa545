"""Seeded generator for the healthcare domain: `python -m tests_domains.healthcare.generate`.

Writes fixtures/healthcare/db.json byte-for-byte the same on every run for a given seed.
`generate(seed, scale)` returns the DB as a dict; scale multiplies patients, providers and
everything hanging off them (clinics, plans and pharmacies stay the same network).
"""

from __future__ import annotations

import random
import sys
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db

SEED = 20260514
NOW = datetime(2026, 5, 14, 10, 0)
TODAY = NOW.date()
OUT = Path(__file__).parents[2] / "fixtures" / "healthcare" / "db.json"

CLINICS = [
    ("Keystone Valley Health - Rittenhouse", "1830 Walnut St", "Philadelphia", "19103", "215-555-0140"),
    ("Keystone Valley Health - Fishtown", "1212 Frankford Ave", "Philadelphia", "19125", "215-555-0188"),
    ("Keystone Valley Health - Shadyside", "5200 Centre Ave", "Pittsburgh", "15232", "412-555-0117"),
    ("Keystone Valley Health - South Hills", "2950 Banksville Rd", "Pittsburgh", "15216", "412-555-0163"),
    ("Keystone Valley Health - Capitol", "415 Market St", "Harrisburg", "17101", "717-555-0102"),
    ("Keystone Valley Health - Lehigh", "1700 Hamilton St", "Allentown", "18104", "610-555-0175"),
    ("Keystone Valley Health - Lancaster", "330 N Duke St", "Lancaster", "17602", "717-555-0139"),
    ("Keystone Valley Health - Bayfront", "104 State St", "Erie", "16507", "814-555-0121"),
]
CITY_ZIPS = {
    "Philadelphia": ["19103", "19104", "19107", "19119", "19125", "19130", "19146", "19147", "19148"],
    "Pittsburgh": ["15206", "15213", "15216", "15217", "15222", "15232", "15237"],
    "Harrisburg": ["17101", "17102", "17104", "17109", "17111"],
    "Allentown": ["18101", "18102", "18103", "18104", "18109"],
    "Lancaster": ["17601", "17602", "17603"],
    "Erie": ["16501", "16505", "16507", "16509", "16510"],
}
AREA = {"Philadelphia": "215", "Pittsburgh": "412", "Harrisburg": "717", "Allentown": "610", "Lancaster": "717", "Erie": "814"}
PRIMARY = ["Family Medicine", "Internal Medicine"]
SPECIALTIES = [
    "Cardiology", "Dermatology", "Endocrinology", "Gastroenterology", "Orthopedics", "Neurology",
    "Psychiatry", "Pulmonology", "Rheumatology", "Obstetrics and Gynecology", "Allergy and Immunology",
]
PAYERS = [
    ("Commonwealth Shield", [("Shield Select HMO", "HMO", "silver"), ("Shield Choice PPO", "PPO", "gold"), ("Shield Saver HSA", "HDHP", "bronze")]),
    ("Allegheny Health Assurance", [("AHA Community HMO", "HMO", "bronze"), ("AHA Premier PPO", "PPO", "platinum")]),
    ("Liberty Bell Health", [("Liberty Access EPO", "EPO", "silver"), ("Liberty Value HDHP", "HDHP", "bronze"), ("Liberty Gold PPO", "PPO", "gold")]),
    ("Three Rivers Care", [("Three Rivers Connect HMO", "HMO", "gold"), ("Three Rivers Flex HDHP", "HDHP", "silver")]),
    ("Susquehanna Health Plans", [("Susquehanna Basic EPO", "EPO", "bronze"), ("Susquehanna Plus PPO", "PPO", "silver")]),
    ("Erie Lakeshore Mutual", [("Lakeshore Essential HMO", "HMO", "silver"), ("Lakeshore Bridge HDHP", "HDHP", "bronze")]),
]
FIRST = [
    "James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth", "William",
    "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen", "Daniel", "Lisa",
    "Matthew", "Nancy", "Anthony", "Betty", "Mark", "Sandra", "Donald", "Margaret", "Steven", "Ashley", "Andrew",
    "Kimberly", "Joshua", "Emily", "Kenneth", "Donna", "Kevin", "Michelle", "Brian", "Carol", "George", "Amanda",
    "Timothy", "Melissa", "Ronald", "Deborah", "Jason", "Stephanie", "Edward", "Rebecca", "Ryan", "Laura", "Jacob",
    "Helen", "Gary", "Sharon", "Nicholas", "Cynthia", "Eric", "Kathleen", "Jonathan", "Amy", "Omar", "Priya",
    "Wei", "Mei", "Carlos", "Lucia", "Andre", "Keisha", "Tomasz", "Anya", "Rahul", "Fatima", "Diego", "Imani",
    "Hiroshi", "Yuki", "Mateo", "Sofia", "Darnell", "Aaliyah", "Kwame", "Nadia", "Sean", "Bridget", "Ivan", "Elena",
]
LAST = [
    "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
    "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee",
    "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young",
    "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker",
    "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Kowalski", "Novak", "Schmidt", "Yoder",
    "Stoltzfus", "Brennan", "O'Connor", "Murphy", "Kelly", "Patel", "Shah", "Chen", "Wang", "Kim", "Park",
    "Okafor", "Mensah", "Haddad", "Rossi", "Russo", "Fischer", "Weber", "Lindqvist", "Horvath", "Kaminski",
    "Delgado", "Reyes", "Washington", "Jefferson", "Brooks", "Sullivan", "Fitzgerald", "Dunn", "Greco", "Petrov",
]
STREETS = ["Maple Ave", "Oak St", "Walnut St", "Penn Ave", "Liberty Ave", "Chestnut St", "Market St", "Cedar Ln",
           "Ridge Ave", "Front St", "Hamilton Blvd", "Queen St", "Peach St", "State St", "Butler St", "Spruce St"]
PHARMACY_NAMES = ["Penn Apothecary", "Corner Drug", "Riverside Pharmacy", "Main Line Rx", "Keystone Family Pharmacy",
                  "Hometown Drug", "Parkway Pharmacy", "Liberty Pharmacy"]
DRUGS = [
    # name, strengths, directions, schedule, days supply options
    ("lisinopril", ["10 mg", "20 mg"], "Take 1 tablet by mouth daily", None, [30, 90]),
    ("atorvastatin", ["20 mg", "40 mg"], "Take 1 tablet by mouth at bedtime", None, [30, 90]),
    ("metformin", ["500 mg", "1000 mg"], "Take 1 tablet by mouth twice daily with meals", None, [30, 90]),
    ("levothyroxine", ["50 mcg", "75 mcg", "100 mcg"], "Take 1 tablet by mouth every morning", None, [30, 90]),
    ("amlodipine", ["5 mg", "10 mg"], "Take 1 tablet by mouth daily", None, [30, 90]),
    ("sertraline", ["50 mg", "100 mg"], "Take 1 tablet by mouth daily", None, [30]),
    ("omeprazole", ["20 mg", "40 mg"], "Take 1 capsule by mouth before breakfast", None, [30, 90]),
    ("albuterol inhaler", ["90 mcg/actuation"], "Inhale 2 puffs every 4-6 hours as needed", None, [30]),
    ("losartan", ["50 mg", "100 mg"], "Take 1 tablet by mouth daily", None, [30, 90]),
    ("montelukast", ["10 mg"], "Take 1 tablet by mouth at bedtime", None, [30]),
    ("escitalopram", ["10 mg", "20 mg"], "Take 1 tablet by mouth daily", None, [30]),
    ("fluticasone nasal spray", ["50 mcg"], "2 sprays in each nostril daily", None, [30]),
    ("alprazolam", ["0.5 mg"], "Take 1 tablet by mouth up to twice daily as needed for anxiety", "IV", [30]),
    ("zolpidem", ["5 mg", "10 mg"], "Take 1 tablet by mouth at bedtime as needed for sleep", "IV", [30]),
    ("oxycodone", ["5 mg"], "Take 1 tablet by mouth every 6 hours as needed for pain", "II", [30]),
    ("methylphenidate ER", ["18 mg", "36 mg"], "Take 1 tablet by mouth every morning", "II", [30]),
    ("tramadol", ["50 mg"], "Take 1 tablet by mouth every 6 hours as needed for pain", "IV", [30]),
    ("pregabalin", ["75 mg"], "Take 1 capsule by mouth twice daily", "V", [30]),
    ("testosterone cypionate", ["200 mg/mL"], "Inject 1 mL intramuscularly every 2 weeks", "III", [30]),
]
RECORD_TYPES = ["visit_notes", "lab_results", "imaging", "immunizations", "medications", "billing", "mental_health"]
REASONS_PRIMARY = ["blood pressure check", "medication review", "persistent cough", "diabetes follow-up",
                   "sore throat", "lower back pain", "fatigue", "rash", "cholesterol results", "ear pain"]
REASONS_SPECIALIST = {
    "Cardiology": ["palpitations", "chest tightness on exertion", "echo results"],
    "Dermatology": ["mole check", "eczema flare", "acne follow-up"],
    "Endocrinology": ["thyroid nodule", "A1c review", "insulin adjustment"],
    "Gastroenterology": ["acid reflux", "colonoscopy consult", "abdominal pain"],
    "Orthopedics": ["knee pain", "shoulder injury", "hip pain"],
    "Neurology": ["migraines", "numbness in hands", "tremor"],
    "Psychiatry": ["medication management", "anxiety", "sleep problems"],
    "Pulmonology": ["asthma control", "shortness of breath", "sleep apnea evaluation"],
    "Rheumatology": ["joint swelling", "lupus follow-up", "gout"],
    "Obstetrics and Gynecology": ["annual gynecologic exam", "pelvic pain", "contraception counseling"],
    "Allergy and Immunology": ["seasonal allergies", "food allergy testing", "hives"],
}
OUTSIDE_RECIPIENTS = [
    ("Dr. Helen Marsh, Lehigh Orthopedic Associates", "physician"),
    ("Dr. Samuel Ortiz, Main Line Cardiology Group", "physician"),
    ("Dr. Priscilla Vaughn, Erie Sleep Center", "physician"),
    ("Dr. Aaron Feldman, Susquehanna Neurology", "physician"),
    ("Brennan & Shaw LLP", "attorney"),
    ("Kessler Injury Law", "attorney"),
    ("Harmon Disability Insurance", "insurer"),
    ("Penn State Health Hershey Medical Center", "hospital"),
    ("St. Luke's University Hospital", "hospital"),
    ("Central Dauphin School District", "school"),
    ("Allied Freight Lines HR Department", "employer"),
]


def _d(day: date) -> str:
    return day.isoformat()


def _dt(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def _phone(rng: random.Random, area: str) -> str:
    return f"{area}-555-{rng.randint(200, 9999):04d}"


def generate(seed: int = SEED, scale: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    db: dict[str, dict[str, Any]] = {name: {} for name in (
        "clinics", "providers", "insurance_plans", "patients", "slots", "appointments", "referrals", "charges",
        "pharmacies", "prescriptions", "refill_requests", "consents", "records_releases")}

    # -- clinics ---------------------------------------------------------------------------
    for i, (name, street, city, zip_code, phone) in enumerate(CLINICS, 1):
        cid = f"CL{i:02d}"
        db["clinics"][cid] = {"clinic_id": cid, "name": name, "street": street, "city": city, "state": "PA",
                              "zip": zip_code, "phone": phone}
    clinic_ids = list(db["clinics"])

    # -- insurance plans -------------------------------------------------------------------
    copays = {"bronze": (40, 80), "silver": (30, 60), "gold": (20, 45), "platinum": (10, 30)}
    deductibles = {"bronze": 4000, "silver": 2500, "gold": 1500, "platinum": 500}
    for payer, plans in PAYERS:
        for plan_name, plan_type, tier in plans:
            pid = "PL-" + "".join(w[0] for w in payer.split()) + "-" + plan_type + f"{len(db['insurance_plans']) + 1:02d}"
            primary: float
            specialist: float
            primary, specialist = copays[tier]
            deductible = deductibles[tier]
            coins = {"bronze": 30, "silver": 20, "gold": 20, "platinum": 10}[tier]
            if plan_type == "HDHP":
                primary = specialist = 0.0
                deductible = {"bronze": 3200, "silver": 2800}.get(tier, 3000)
            db["insurance_plans"][pid] = {
                "plan_id": pid, "payer": payer, "plan_name": plan_name, "plan_type": plan_type, "metal_tier": tier,
                "primary_copay": float(primary + rng.choice([0, 5])) if plan_type != "HDHP" else 0.0,
                "specialist_copay": float(specialist + rng.choice([0, 5, 10])) if plan_type != "HDHP" else 0.0,
                "annual_deductible": float(deductible), "coinsurance_pct": coins,
                "referral_required": plan_type == "HMO",
            }
    plan_ids = list(db["insurance_plans"])

    # -- pharmacies ------------------------------------------------------------------------
    n = 0
    for city, zips in CITY_ZIPS.items():
        for name in rng.sample(PHARMACY_NAMES, 4):
            n += 1
            phid = f"PH{n:03d}"
            db["pharmacies"][phid] = {"pharmacy_id": phid, "name": f"{name} ({city})",
                                      "street": f"{rng.randint(10, 2999)} {rng.choice(STREETS)}", "city": city,
                                      "zip": rng.choice(zips), "phone": _phone(rng, AREA[city])}
    pharm_by_city: dict[str, list[str]] = {}
    for ph in db["pharmacies"].values():
        pharm_by_city.setdefault(ph["city"], []).append(ph["pharmacy_id"])

    # -- providers -------------------------------------------------------------------------
    n_providers = 60 * scale
    used_names: set[tuple[str, str]] = set()
    specialty_cycle = []
    for i in range(n_providers):
        if i % 5 in (0, 3):
            specialty_cycle.append(PRIMARY[(i // 5) % 2])
        else:
            specialty_cycle.append(SPECIALTIES[(i * 7) % len(SPECIALTIES)])
    for i in range(n_providers):
        while True:
            fn, ln = rng.choice(FIRST), rng.choice(LAST)
            if (fn, ln) not in used_names:
                used_names.add((fn, ln))
                break
        spec = specialty_cycle[i]
        care = "primary" if spec in PRIMARY else "specialist"
        prid = f"PR{i + 101:04d}"
        accepted = sorted(p for p in plan_ids if rng.random() < 0.72)
        langs = ["English"] + ([rng.choice(["Spanish", "Mandarin", "Vietnamese", "Polish", "Arabic", "Hindi"])]
                               if rng.random() < 0.3 else [])
        db["providers"][prid] = {
            "provider_id": prid, "first_name": fn, "last_name": ln,
            "credentials": rng.choices(["MD", "DO", "NP", "PA"], [6, 2, 2, 1])[0] if care == "primary" else rng.choice(["MD", "MD", "DO"]),
            "specialty": spec, "care_type": care, "clinic_id": clinic_ids[i % len(clinic_ids)],
            "accepted_plan_ids": accepted, "accepting_new_patients": rng.random() < 0.75, "languages": langs,
        }
    providers = list(db["providers"].values())
    pcps_by_city: dict[str, list[str]] = {}
    for p in providers:
        if p["care_type"] == "primary":
            pcps_by_city.setdefault(db["clinics"][p["clinic_id"]]["city"], []).append(p["provider_id"])
    specialists = [p["provider_id"] for p in providers if p["care_type"] == "specialist"]

    # -- slots: open schedule from today to four weeks out -------------------------------------
    times = ["08:30", "09:00", "09:30", "10:30", "11:00", "11:30", "13:00", "13:30", "14:00", "14:30", "15:00", "15:30"]
    slot_by_provider: dict[str, list[str]] = {}
    for p in providers:
        workdays = sorted(rng.sample(range(5), 3))
        day = TODAY
        ids = []
        while day <= TODAY + timedelta(days=29):
            if (day.weekday() in workdays or day in (TODAY, TODAY + timedelta(days=1))) and day.weekday() < 5:
                for t in sorted(rng.sample(times, 8)):
                    start = datetime.fromisoformat(f"{_d(day)}T{t}")
                    if start <= NOW:
                        continue
                    sid = f"SL-{p['provider_id'][2:]}-{day.strftime('%m%d')}-{t.replace(':', '')}"
                    db["slots"][sid] = {"slot_id": sid, "provider_id": p["provider_id"], "clinic_id": p["clinic_id"],
                                        "start": _dt(start), "duration_min": 30 if p["care_type"] == "primary" else 40,
                                        "status": "blocked" if rng.random() < 0.04 else "open"}
                    ids.append(sid)
            day += timedelta(days=1)
        slot_by_provider[p["provider_id"]] = ids

    # -- patients ----------------------------------------------------------------------------
    n_patients = 420 * scale
    apt_n = 0
    ref_n = 0
    chg_n = 0
    rx_n = 0
    cons_n = 0
    req_n = 0
    used_patients: set[tuple[str, str, str]] = set()

    def add_charge(pid: str, apt: str | None, kind: str, amount: float, posted: date, status: str, card: str | None) -> str:
        nonlocal chg_n
        chg_n += 1
        cid = f"CH{chg_n:06d}"
        db["charges"][cid] = {"charge_id": cid, "patient_id": pid, "appointment_id": apt, "kind": kind,
                              "amount": round(amount, 2), "posted_on": _d(min(posted, TODAY)), "status": status,
                              "paid_with_card": card}
        return cid

    for i in range(n_patients):
        city = rng.choice(list(CITY_ZIPS))
        while True:
            fn, ln = rng.choice(FIRST), rng.choice(LAST)
            dob = date(1942, 1, 1) + timedelta(days=rng.randint(0, 365 * 63))
            if (fn, ln, _d(dob)) not in used_patients:
                used_patients.add((fn, ln, _d(dob)))
                break
        pid = f"PT{i + 10001:06d}"
        zip_code = rng.choice(CITY_ZIPS[city])
        roll = rng.random()
        coverage: dict[str, Any] | None = None
        if roll < 0.9:
            plan = rng.choice(plan_ids)
            pl = db["insurance_plans"][plan]
            coverage = {"plan_id": plan, "member_id": f"{''.join(w[0] for w in pl['payer'].split())}{rng.randint(10**8, 10**9 - 1)}",
                        "deductible_met": float(min(pl["annual_deductible"], rng.choice([0, 0, 150, 400, 875.5, 1200, 2250, 3000]))),
                        "status": "terminated" if rng.random() < 0.04 else "active"}
        cards = []
        for _ in range(rng.choice([0, 1, 1, 1, 2])):
            brand, last4 = rng.choice(["visa", "mastercard", "amex", "discover"]), f"{rng.randint(0, 9999):04d}"
            month, year = rng.randint(1, 12), rng.randint(26, 30)
            if (year, month) < (TODAY.year % 100, TODAY.month):
                year += 1  # a card the processor would decline is not kept on file: it was replaced by its renewal
            cards.append({"brand": brand, "last4": last4, "expires": f"{month:02d}/{year}"})
        pcp = rng.choice(pcps_by_city[city]) if rng.random() < 0.85 else None
        area = db["clinics"][next(c for c in clinic_ids if db["clinics"][c]["city"] == city)]["phone"][:3]
        email_user = f"{fn}.{ln}".lower().replace("'", "") + (str(rng.randint(1, 99)) if rng.random() < 0.6 else "")
        db["patients"][pid] = {
            "patient_id": pid, "first_name": fn, "last_name": ln, "date_of_birth": _d(dob), "zip": zip_code,
            "phone": _phone(rng, area), "email": f"{email_user}@{rng.choice(['gmail.com', 'yahoo.com', 'outlook.com', 'comcast.net', 'verizon.net'])}",
            "coverage": coverage, "primary_provider_id": pcp,
            "preferred_pharmacy_id": rng.choice(pharm_by_city[city]) if rng.random() < 0.85 else None,
            "cards_on_file": cards,
        }
        card = cards[0]["last4"] if cards else None
        is_hmo = coverage is not None and db["insurance_plans"][coverage["plan_id"]]["referral_required"]

        # referrals (HMO members mostly)
        my_referrals: dict[str, str] = {}
        if is_hmo and rng.random() < 0.6:
            for spec in rng.sample(SPECIALTIES, rng.choice([1, 1, 2])):
                ref_n += 1
                rid = f"RF{ref_n:05d}"
                issued = TODAY - timedelta(days=rng.randint(10, 300))
                expires = issued + timedelta(days=180)
                authorized = rng.choice([1, 2, 3, 4])
                db["referrals"][rid] = {"referral_id": rid, "patient_id": pid, "specialty": spec,
                                        "referring_provider_id": pcp or rng.choice(pcps_by_city[city]),
                                        "issued_on": _d(issued), "expires_on": _d(expires),
                                        "visits_authorized": authorized, "visits_used": rng.randint(0, authorized)}
                my_referrals[spec] = rid

        # past appointments
        flaky = rng.random() < 0.12
        seen_providers = []
        for _ in range(rng.choice([4, 5, 6, 7] if flaky else [0, 1, 2, 3, 3, 4, 5, 6])):
            if pcp and rng.random() < 0.65:
                prov = db["providers"][pcp]
            else:
                prov = db["providers"][rng.choice(specialists)]
            day = TODAY - timedelta(days=rng.randint(1, 200 if flaky else 400))
            while day.weekday() >= 5:
                day -= timedelta(days=1)
            start = datetime.fromisoformat(f"{_d(day)}T{rng.choice(times)}")
            status = rng.choices(["completed", "cancelled", "no_show"], [8, 1.2, 5 if flaky else 0.4])[0]
            apt_n += 1
            aid = f"APT{apt_n + 300000:06d}"
            if prov["care_type"] == "primary":
                vt = rng.choice(["follow_up", "sick_visit", "annual_physical"]) if prov["provider_id"] in seen_providers else "new_patient"
                reason = "annual physical" if vt == "annual_physical" else rng.choice(REASONS_PRIMARY)
            else:
                vt = "follow_up" if prov["provider_id"] in seen_providers else "new_patient"
                reason = rng.choice(REASONS_SPECIALIST[prov["specialty"]])
            if status == "completed":
                seen_providers.append(prov["provider_id"])
            db["appointments"][aid] = {
                "appointment_id": aid, "patient_id": pid, "provider_id": prov["provider_id"], "clinic_id": prov["clinic_id"],
                "slot_id": None, "start": _dt(start), "visit_type": vt, "reason": reason, "status": status,
                "referral_id": None, "cancelled_at": None, "cancel_reason": None, "reschedule_count": 0,
            }
            if status == "cancelled":
                late = rng.random() < 0.4
                at = start - timedelta(hours=rng.randint(3, 20) if late else rng.randint(30, 200))
                db["appointments"][aid]["cancelled_at"] = _dt(at)
                db["appointments"][aid]["cancel_reason"] = rng.choice(["schedule_conflict", "feeling_better", "transportation", "other"])
                if late:
                    add_charge(pid, aid, "late_cancellation_fee", 40.0 if prov["care_type"] == "primary" else 75.0,
                               at.date(), rng.choice(["open", "paid"]) if card else "open", None)
            if status == "no_show":
                paid = card and rng.random() < 0.5
                add_charge(pid, aid, "no_show_fee", 50.0, day + timedelta(days=1), "paid" if paid else "open", card if paid else None)
            if status == "completed" and coverage and rng.random() < 0.15:
                paid = card and rng.random() < 0.5
                add_charge(pid, aid, "visit_balance", round(rng.uniform(18, 240), 2), day + timedelta(days=21),
                           "paid" if paid else "open", card if paid else None)
        # fix paid charges' card
        for ch in db["charges"].values():
            if ch["patient_id"] == pid and ch["status"] == "paid" and ch["paid_with_card"] is None:
                ch["paid_with_card"] = card

        # upcoming appointments
        for _ in range(rng.choice([0, 0, 1, 1, 1, 2])):
            if pcp and rng.random() < 0.55:
                prov = db["providers"][pcp]
            else:
                prov = db["providers"][rng.choice(specialists)]
            if any(a["patient_id"] == pid and a["provider_id"] == prov["provider_id"] and a["status"] == "scheduled"
                   for a in db["appointments"].values()):
                continue
            choices = [s for s in slot_by_provider[prov["provider_id"]] if db["slots"][s]["status"] == "open"]
            if not choices:
                continue
            # bias some toward the next 30 hours so late-notice rules come up
            soon = [s for s in choices if db["slots"][s]["start"] < _dt(NOW + timedelta(hours=30))]
            sid = rng.choice(soon) if soon and rng.random() < 0.3 else rng.choice(choices)
            referral_id = None
            if prov["care_type"] == "specialist" and is_hmo:
                found = my_referrals.get(prov["specialty"])
                if found is None:
                    continue
                rid = found
                ref = db["referrals"][rid]
                if ref["visits_used"] >= ref["visits_authorized"] or ref["expires_on"] < db["slots"][sid]["start"][:10]:
                    continue
                ref["visits_used"] += 1
                referral_id = rid
            db["slots"][sid]["status"] = "booked"
            apt_n += 1
            aid = f"APT{apt_n + 300000:06d}"
            if prov["care_type"] == "primary":
                vt = rng.choice(["follow_up", "sick_visit"]) if prov["provider_id"] in seen_providers else "new_patient"
                reason = rng.choice(REASONS_PRIMARY)
            else:
                vt = "follow_up" if prov["provider_id"] in seen_providers else "new_patient"
                reason = rng.choice(REASONS_SPECIALIST[prov["specialty"]])
            db["appointments"][aid] = {
                "appointment_id": aid, "patient_id": pid, "provider_id": prov["provider_id"], "clinic_id": prov["clinic_id"],
                "slot_id": sid, "start": db["slots"][sid]["start"], "visit_type": vt, "reason": reason,
                "status": "scheduled", "referral_id": referral_id, "cancelled_at": None, "cancel_reason": None,
                "reschedule_count": rng.choice([0, 0, 0, 1]),
            }

        # prescriptions
        for drug in rng.sample(DRUGS, rng.choice([0, 1, 1, 2, 2, 3, 4])):
            name, strengths, directions, schedule, supplies = drug
            if schedule and rng.random() < 0.5:
                continue
            rx_n += 1
            rxid = f"RX{rx_n + 700000:07d}"
            supply = rng.choice(supplies)
            written = TODAY - timedelta(days=rng.randint(20, 380))
            expires = written + timedelta(days=180 if schedule else 365)
            last_fill = TODAY - timedelta(days=rng.randint(3, min(120, (TODAY - written).days)))
            # a pharmacy fills nothing after the prescription expires: an expired one was last filled before that
            if last_fill > expires:
                last_fill = expires - timedelta(days=supply // 2)
            earliest = last_fill + timedelta(days=supply * 8 // 10)
            prescriber = pcp if (pcp and rng.random() < 0.7) else rng.choice(specialists)
            db["prescriptions"][rxid] = {
                "rx_id": rxid, "patient_id": pid, "prescriber_id": prescriber, "drug_name": name,
                "strength": rng.choice(strengths), "directions": directions, "dea_schedule": schedule,
                "days_supply": supply, "refills_remaining": 0 if schedule == "II" else rng.choice([0, 1, 2, 3, 5]),
                "written_on": _d(written), "expires_on": _d(expires), "last_fill_date": _d(last_fill),
                "earliest_refill_date": _d(earliest), "status": "discontinued" if rng.random() < 0.08 else "active",
            }
            if rng.random() < 0.25 and db["patients"][pid]["preferred_pharmacy_id"]:
                req_n += 1
                qid = f"RQ{req_n:06d}"
                db["refill_requests"][qid] = {
                    "request_id": qid, "rx_id": rxid, "patient_id": pid, "kind": "refill",
                    "pharmacy_id": db["patients"][pid]["preferred_pharmacy_id"], "note": "",
                    "submitted_at": _dt(datetime.combine(last_fill, datetime.min.time()) - timedelta(hours=20)),
                    "status": "sent_to_pharmacy"}

        # consents
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
            recipient, rtype = rng.choice(OUTSIDE_RECIPIENTS)
            if rng.random() < 0.25:
                recipient, rtype = f"{rng.choice(FIRST)} {ln}", "family_member"
            cons_n += 1
            cnid = f"CN{cons_n:05d}"
            signed = TODAY - timedelta(days=rng.randint(15, 620))
            kinds = sorted(rng.sample(RECORD_TYPES[:6], rng.randint(1, 4)) + (["mental_health"] if rng.random() < 0.15 else []))
            db["consents"][cnid] = {"consent_id": cnid, "patient_id": pid, "recipient_name": recipient,
                                    "recipient_type": rtype, "record_types": kinds, "signed_on": _d(signed),
                                    "expires_on": _d(signed + timedelta(days=365)), "revoked": rng.random() < 0.08}

    _pending_requests(db, seed)
    _cpt_visit_types(db)
    return db


def _cpt_visit_types(db: dict[str, Any]) -> None:
    """Visit types by the CPT rule (policy 3.3): a patient's first visit in a specialty is `new_patient`,
    and a later one with any provider of a specialty they have completed a visit in is not. The
    records above were drawn per provider and in no order of dates; this pass, which draws nothing,
    puts each patient's history in date order and labels it."""
    specialty = {pid: p["specialty"] for pid, p in db["providers"].items()}
    by_patient: dict[str, list[dict[str, Any]]] = {}
    for appt in db["appointments"].values():
        by_patient.setdefault(appt["patient_id"], []).append(appt)
    for appts in by_patient.values():
        seen: set[str] = set()
        for appt in sorted(appts, key=lambda a: (a["start"], a["appointment_id"])):
            spec = specialty[appt["provider_id"]]
            if spec not in seen:
                appt["visit_type"] = "new_patient"
            elif appt["visit_type"] == "new_patient":
                appt["visit_type"] = "follow_up"
            if appt["status"] == "completed":
                seen.add(spec)


def _pending_requests(db: dict[str, Any], seed: int) -> None:
    """Refill requests patients sent in the last few days that are still pending (policy 7.1), drawn
    from a second seeded stream so every other record stays as it was."""
    rng = random.Random(seed * 7 + 1)
    req_n = len(db["refill_requests"])
    for rxid, rx in db["prescriptions"].items():
        pharmacy = db["patients"][rx["patient_id"]]["preferred_pharmacy_id"]
        if (rx["status"] != "active" or rx["dea_schedule"] or rx["refills_remaining"] == 0 or not pharmacy
                or rx["earliest_refill_date"] > _d(TODAY) or rx["expires_on"] < _d(TODAY) or rng.random() >= 0.15):
            continue
        req_n += 1
        qid = f"RQ{req_n:06d}"
        day = TODAY - timedelta(days=rng.randint(1, 4))
        submitted = datetime.combine(day, datetime.min.time()) + timedelta(hours=rng.randint(8, 19), minutes=rng.choice([0, 15, 30, 45]))
        db["refill_requests"][qid] = {
            "request_id": qid, "rx_id": rxid, "patient_id": rx["patient_id"], "kind": "refill", "pharmacy_id": pharmacy,
            "note": "", "submitted_at": _dt(submitted), "status": "submitted"}


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    scale = int(args[0]) if args else 1
    out = OUT if scale == 1 else OUT.with_name(f"db_x{scale}.json")
    data = generate(SEED, scale)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(dump_db(data))
    print(f"wrote {out} ({out.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
