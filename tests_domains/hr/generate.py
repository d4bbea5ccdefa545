"""Seeded generator for the HR desk of Kestrel Mills (outdoor-gear maker, Duluth MN / Superior WI / Minneapolis).

`python -m tests_domains.hr.generate` writes fixtures/hr/db.json, byte-identical on every run.
`generate(seed, scale)` returns the DB as a dict; scale multiplies the head count for benchmarks.
"""

from __future__ import annotations

import json
import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau.invariants import dialable_exchange

OUT = Path(__file__).parents[2] / "fixtures" / "hr" / "db.json"
TODAY = date(2026, 5, 15)
SCHEDULE_START = date(2026, 5, 11)  # a Monday; four weeks of published shifts
SCHEDULE_WEEKS = 4

FIRST = ["Aaliyah", "Abdi", "Adrian", "Aisha", "Alejandro", "Amara", "Andre", "Anika", "Arjun", "Astrid", "Beatriz",
         "Benjamin", "Bjorn", "Brianna", "Caleb", "Camila", "Carmen", "Chen", "Chloe", "Connor", "Dakota", "Dalia",
         "Daniel", "Deshawn", "Diego", "Eleanor", "Elif", "Emeka", "Emily", "Erik", "Esther", "Fatima", "Felix",
         "Gabriel", "Grace", "Hamza", "Hannah", "Hector", "Hiroshi", "Ingrid", "Isaac", "Isabel", "Jamal", "Jasmine",
         "Javier", "Jenna", "Jonah", "Joseph", "Julia", "Kai", "Karin", "Keisha", "Kenji", "Lars", "Layla", "Leah",
         "Liam", "Lucia", "Malik", "Marcus", "Maria", "Mateo", "Maya", "Mei", "Mohamed", "Nadia", "Naomi", "Nathan",
         "Nia", "Noah", "Olga", "Omar", "Paige", "Priya", "Quinn", "Rafael", "Rashid", "Rebecca", "Rosa", "Ruth",
         "Samir", "Sara", "Sean", "Sofia", "Solveig", "Tariq", "Tessa", "Thomas", "Tomas", "Valentina", "Victor",
         "Wei", "Xavier", "Yasmin", "Yusuf", "Zainab", "Zoe", "Hollis", "Marisol", "Dmitri", "Ayesha", "Kwame"]
LAST = ["Abara", "Albrecht", "Anderson", "Bakke", "Banerjee", "Bergstrom", "Bjork", "Castillo", "Chen", "Dahl",
        "Delgado", "Duarte", "Eriksen", "Farah", "Fischer", "Garcia", "Gustafson", "Haddad", "Halvorsen", "Hansen",
        "Hernandez", "Holm", "Ibrahim", "Iverson", "Jablonski", "Jensen", "Johansson", "Kaur", "Kowalski", "Larsen",
        "Lindqvist", "Lopez", "Lund", "Martinez", "Mohamud", "Moreno", "Nakamura", "Nguyen", "Nilsen", "Novak",
        "Okafor", "Olsen", "Ortiz", "Pedersen", "Petrov", "Quist", "Ramirez", "Rasmussen", "Reyes", "Rossi",
        "Sandberg", "Santos", "Schmidt", "Sorensen", "Strand", "Sullivan", "Tanaka", "Thao", "Torres", "Vang",
        "Vasquez", "Warsame", "Wiklund", "Xiong", "Yang", "Yilmaz", "Zielinski", "Brennan", "Fairbanks", "Moua"]
STREETS = ["Superior St", "London Rd", "Grand Ave", "Woodland Ave", "Arrowhead Rd", "Tower Ave", "Belknap St",
           "Hammond Ave", "Lake Ave", "Jefferson St", "Minnehaha Pkwy", "Lyndale Ave S", "Hennepin Ave",
           "Grand Ave E", "Snelling Ave", "Cedar Ave", "Oak St", "Birch Ln", "Maple Dr", "Pine Ridge Rd",
           "Skyline Pkwy", "Rice Lake Rd", "Haines Rd", "Piedmont Ave", "Cody St", "Ogden Ave", "Banks Ave"]
CITIES = {"MN": [("Duluth", ["55802", "55803", "55804", "55805", "55806", "55807", "55811", "55812"]),
                 ("Hermantown", ["55811"]), ("Proctor", ["55810"]), ("Cloquet", ["55720"]),
                 ("Two Harbors", ["55616"]), ("Minneapolis", ["55401", "55405", "55408", "55414", "55419"]),
                 ("Saint Paul", ["55102", "55104", "55105"]), ("Edina", ["55424"])],
          "WI": [("Superior", ["54880"]), ("Poplar", ["54864"]), ("Solon Springs", ["54873"])]}
BANKS = [("North Shore Federal Credit Union", "291471024"), ("Lakehead State Bank", "091901215"),
         ("Twin Ports Community Bank", "291377814"), ("Wells Fargo Bank", "091000019"),
         ("U.S. Bank", "091000022"), ("Superior Choice Credit Union", "275979034"), ("Bremer Bank", "091208594")]

# department id -> (name, site, shift based, vacation notice days, max weekly hours, titles [(title, grade, hourly?, pay lo, hi, weight)])
DEPARTMENTS: dict[str, Any] = {
    "ASM": ("Assembly", "Duluth Plant", True, 14, 48,
            [("Assembler I", "H2", True, 18.5, 21.0, 6), ("Assembler II", "H3", True, 21.0, 24.5, 4),
             ("Line Lead", "H5", True, 26.0, 30.0, 1)]),
    "SEW": ("Sewing & Textiles", "Duluth Plant", True, 14, 48,
            [("Sewing Operator", "H2", True, 18.0, 21.5, 5), ("Pattern Cutter", "H3", True, 20.5, 24.0, 2)]),
    "QAC": ("Quality Control", "Duluth Plant", True, 14, 48,
            [("QC Inspector", "H3", True, 21.0, 25.0, 4), ("QC Technician", "H4", True, 24.0, 28.5, 2)]),
    "WHS": ("Warehouse & Distribution", "Superior Distribution Center", True, 14, 50,
            [("Warehouse Associate", "H2", True, 18.0, 21.0, 6), ("Forklift Operator", "H3", True, 21.0, 24.5, 3),
             ("Shipping Coordinator", "H4", True, 23.0, 27.0, 1)]),
    "MNT": ("Maintenance", "Duluth Plant", True, 14, 50,
            [("Maintenance Technician", "H4", True, 27.0, 33.0, 3), ("Industrial Electrician", "H5", True, 32.0, 38.0, 1)]),
    "CCR": ("Customer Care", "Duluth Plant", True, 10, 45,
            [("Care Representative", "H2", True, 18.5, 22.0, 5), ("Senior Care Representative", "H3", True, 22.0, 25.5, 2)]),
    "ENG": ("Product Engineering", "Minneapolis Office", False, 7, 50,
            [("Product Engineer", "S3", False, 72000, 92000, 3), ("Senior Product Engineer", "S4", False, 90000, 118000, 2),
             ("Materials Scientist", "S4", False, 88000, 112000, 1)]),
    "FIN": ("Finance", "Minneapolis Office", False, 7, 50,
            [("Staff Accountant", "S2", False, 58000, 70000, 3), ("Financial Analyst", "S3", False, 68000, 85000, 2),
             ("Payroll Specialist", "S2", False, 55000, 66000, 1)]),
    "ITS": ("IT Services", "Duluth Plant", False, 7, 50,
            [("Service Desk Analyst", "S2", False, 52000, 64000, 3), ("Systems Administrator", "S3", False, 70000, 88000, 2)]),
    "MKT": ("Marketing", "Minneapolis Office", False, 7, 50,
            [("Marketing Coordinator", "S2", False, 50000, 62000, 2), ("Brand Manager", "S4", False, 85000, 105000, 1),
             ("Content Designer", "S3", False, 62000, 78000, 2)]),
    "PEO": ("People Operations", "Duluth Plant", False, 7, 50,
            [("HR Generalist", "S3", False, 60000, 74000, 2), ("Recruiter", "S3", False, 58000, 72000, 1)]),
    "PRC": ("Procurement", "Superior Distribution Center", False, 7, 50,
            [("Buyer", "S2", False, 54000, 66000, 2), ("Senior Buyer", "S3", False, 66000, 80000, 1)]),
}
HEADCOUNT = {"ASM": 70, "SEW": 45, "QAC": 30, "WHS": 60, "MNT": 22, "CCR": 40, "ENG": 30, "FIN": 22, "ITS": 20,
             "MKT": 18, "PEO": 12, "PRC": 14}
BLACKOUTS = {
    "ASM": [("2026-06-22", "2026-07-02", "Pre-Independence Day production push"),
            ("2026-11-16", "2026-12-04", "Holiday order peak")],
    "SEW": [("2026-06-22", "2026-07-02", "Pre-Independence Day production push")],
    "WHS": [("2026-06-01", "2026-06-12", "Summer catalog fulfilment peak"),
            ("2026-11-23", "2026-12-11", "Holiday shipping peak")],
    "QAC": [("2026-06-08", "2026-06-12", "Annual ISO 9001 surveillance audit")],
    "CCR": [("2026-05-26", "2026-05-29", "Memorial Day sale support"), ("2026-11-27", "2026-12-01", "Black Friday support")],
    "FIN": [("2026-06-24", "2026-07-08", "Fiscal year-end close")],
    "MKT": [("2026-07-13", "2026-07-17", "Fall line launch week")],
    "ITS": [("2026-06-13", "2026-06-14", "ERP upgrade cutover weekend")],
}
# shift patterns: (start, end, hours); night shifts end the next morning
PATTERNS = {"day": ("06:00", "14:30", 8.0), "swing": ("14:00", "22:30", 8.0), "night": ("22:00", "06:30", 8.0),
            "long_day": ("06:00", "16:30", 10.0), "office_hours": ("08:00", "16:30", 8.0), "evening_pt": ("16:00", "22:00", 6.0),
            "morning_pt": ("07:00", "13:00", 6.0)}
PLANS: list[Any] = [
    ("MED-PPO", "medical", "Kestrel Core PPO", "HealthPartners", {"employee": 612.0, "employee_spouse": 1258.0, "employee_children": 1104.0, "family": 1786.0}, 0.80, 0.55, 1500.0,
     "Broad network PPO; $25 primary-care copay; 20% coinsurance after deductible."),
    ("MED-HSA", "medical", "Kestrel HSA Saver", "HealthPartners", {"employee": 438.0, "employee_spouse": 902.0, "employee_children": 790.0, "family": 1284.0}, 0.85, 0.60, 3400.0,
     "High-deductible plan paired with a health savings account; company seeds $500 a year."),
    ("MED-HMO", "medical", "Kestrel Select HMO", "Medica", {"employee": 524.0, "employee_spouse": 1076.0, "employee_children": 944.0, "family": 1530.0}, 0.80, 0.55, 750.0,
     "Essentia and St. Luke's network only; referrals required for specialists."),
    ("DEN-BAS", "dental", "Dental Basic", "Delta Dental of Minnesota", {"employee": 32.0, "employee_spouse": 66.0, "employee_children": 72.0, "family": 104.0}, 0.75, 0.50, 50.0,
     "Preventive care at 100%, basic restorative at 70%; no orthodontia."),
    ("DEN-PLS", "dental", "Dental Plus", "Delta Dental of Minnesota", {"employee": 48.0, "employee_spouse": 98.0, "employee_children": 110.0, "family": 158.0}, 0.75, 0.50, 50.0,
     "Preventive 100%, basic 80%, major 50%; child orthodontia to a $1,500 lifetime maximum."),
    ("VIS-STD", "vision", "VisionCare Standard", "EyeMed", {"employee": 9.0, "employee_spouse": 17.0, "employee_children": 18.0, "family": 27.0}, 0.50, 0.50, None,
     "Annual exam with $10 copay; $150 frame allowance every 24 months."),
]
HOLIDAYS = ["2026-05-25", "2026-07-03", "2026-09-07", "2026-11-26", "2026-11-27", "2026-12-24", "2026-12-25"]
POSTING_SUMMARIES = {
    "H": "Hourly role on the {site} floor; {etype} schedule with rotating weekends; forklift or machine certification provided.",
    "S": "Salaried role based at {site}; hybrid schedule after 90 days; reports to the department manager.",
}


MN_SITES = ("Duluth Plant", "Minneapolis Office")  # Superior Distribution Center is in Wisconsin


def sick_rate(dept: str, part_time: bool) -> float:
    """Sick hours accrued per two-week pay period. Minnesota's Earned Sick and Safe Time law gives at least one
    hour per 30 worked: 80 / 30 for full-time staff (8-hour days), 60 / 30 for part-time staff (6-hour days).
    Wisconsin has no such law; the Superior site keeps the company's own 48 (full-time) or 36 hours a year."""
    if DEPARTMENTS[dept][1] in MN_SITES:
        return 2.0 if part_time else 2.67
    return 1.38 if part_time else 1.85


def per_paycheck(monthly: float, share: float) -> float:
    return round(monthly * 12 * (1 - share) / 26, 2)


def _d(day: date) -> str:
    return day.isoformat()


def generate(seed: int = 20260515, scale: int = 1) -> dict[str, Any]:
    dept: Any
    start: Any
    days: Any
    plan: Any
    rng = random.Random(seed)
    used_numbers: set[int] = {20001}
    used_emails: set[str] = set()
    departments: dict[str, dict[str, Any]] = {}
    employees: dict[str, dict[str, Any]] = {}
    balances: dict[str, dict[str, Any]] = {}
    documents: dict[str, dict[str, Any]] = {}
    doc_counter = [0]

    def new_doc(emp_id: str, doc_type: str, status: str, received: date, detail: str) -> str:
        doc_counter[0] += 1
        doc_id = f"DOC-{70000 + doc_counter[0]}"
        documents[doc_id] = {"document_id": doc_id, "employee_id": emp_id, "doc_type": doc_type, "status": status,
                             "received_on": _d(received), "detail": detail}
        return doc_id

    def number() -> str:
        while True:
            n = rng.randint(20000, 69999)
            if n not in used_numbers:
                used_numbers.add(n)
                return str(n)

    def address(state: str | None = None) -> dict[str, Any]:
        st = state or ("WI" if rng.random() < 0.22 else "MN")
        city, zips = rng.choice(CITIES[st])
        return {"street": f"{rng.randint(100, 9899)} {rng.choice(STREETS)}" + (f" Apt {rng.randint(1, 40)}" if rng.random() < 0.3 else ""),
                "city": city, "state": st, "zip": rng.choice(zips)}

    def person(dept: str, title: str, grade: str, hourly: bool, lo: float, hi: float, head: bool = False) -> dict[str, Any]:
        emp_id = number()
        first, last = rng.choice(FIRST), rng.choice(LAST)
        email = f"{first}.{last}".lower()
        k = 2
        while email in used_emails:
            email = f"{first}.{last}{k}".lower()
            k += 1
        used_emails.add(email)
        age = rng.randint(26 if grade[0] in "SE" and grade[1:] >= "3" else 20, 63)
        dob = date(2026 - age, rng.randint(1, 12), rng.randint(1, 28))
        roll = rng.random()
        if roll < 0.05:
            hire = TODAY - timedelta(days=rng.randint(3, 29))  # inside the 30-day benefits window
        elif roll < 0.15:
            hire = TODAY - timedelta(days=rng.randint(31, 360))
        else:
            hire = TODAY - timedelta(days=rng.randint(365, 365 * 18))
        hire = max(hire, dob + timedelta(days=365 * 18 + 10))
        if rng.random() < 0.45 and (TODAY - hire).days > 200:
            role_start = hire + timedelta(days=rng.randint(90, (TODAY - hire).days - 30))
        else:
            role_start = hire
        part_time = DEPARTMENTS[dept][2] and not head and rng.random() < 0.18
        bank, routing = rng.choice(BANKS)
        rating = None if (TODAY - hire).days < 200 else rng.choices([1, 2, 3, 4, 5], [2, 9, 50, 30, 9])[0]
        pay = round(rng.uniform(lo, hi), 2) if hourly else float(round(rng.uniform(lo, hi), -2))
        rec: dict[str, Any] = {
            "employee_id": emp_id, "first_name": first, "last_name": last,
            "preferred_name": None, "date_of_birth": _d(dob), "work_email": f"{email}@kestrelmills.com",
            "ssn_last4": f"{rng.randint(0, 9999):04d}", "personal_phone": f"218-{dialable_exchange(rng.randint(200, 989))}-{rng.randint(0, 9999):04d}",
            "department_id": dept, "job_title": title, "job_grade": grade, "role_start_date": _d(role_start),
            "hire_date": _d(hire), "employment_type": "part_time" if part_time else "full_time",
            "standard_day_hours": 6.0 if part_time else 8.0, "status": "active", "manager_id": None,
            "pay_type": "hourly" if hourly else "salaried", "pay_rate": pay,
            "performance_rating": rating, "rating_year": None if rating is None else 2025,
            "on_performance_plan": bool(rating is not None and rating <= 2 and rng.random() < 0.6),
            "home_address": address(), "address_verification_code": None,
            "identity_verified": rng.random() < 0.8,
            "direct_deposit": {"bank_name": bank, "routing_number": routing, "account_last4": f"{rng.randint(0, 9999):04d}",
                               "account_type": "checking" if rng.random() < 0.85 else "savings",
                               "effective_date": _d(max(hire, TODAY - timedelta(days=rng.randint(30, 2000))))},
            "pending_direct_deposit": None, "dependents": [], "record_notes": [],
        }
        if rng.random() < 0.3:
            rec["address_verification_code"] = f"{rng.randint(100000, 999999)}"
        if rng.random() < 0.06:
            rec["preferred_name"] = rng.choice(FIRST)
        if rng.random() < 0.02:
            rec["status"] = "on_leave"
        if rng.random() < 0.45:
            rec["dependents"].append({"name": f"{rng.choice(FIRST)} {last}", "relationship": "spouse" if rng.random() < 0.85 else "domestic_partner",
                                      "date_of_birth": _d(dob + timedelta(days=rng.randint(-2500, 2500))), "supporting_document_id": None})
        if rng.random() < 0.4 and age > 24:
            for _ in range(rng.randint(1, 3)):
                cdob = TODAY - timedelta(days=rng.randint(200, 365 * min(age - 20, 24)))
                rec["dependents"].append({"name": f"{rng.choice(FIRST)} {last}", "relationship": "child",
                                          "date_of_birth": _d(cdob), "supporting_document_id": None})
        employees[emp_id] = rec
        vac_rate = 3.08 if (TODAY - hire).days < 365 * 3 else (4.62 if (TODAY - hire).days < 365 * 10 else 6.15)
        if part_time:
            vac_rate = round(vac_rate * 0.75, 2)
        balances[emp_id] = {"employee_id": emp_id,
                            "vacation_hours": float(rng.randint(0, 30) * 4 + rng.choice([0, 0, 2])) if rng.random() > 0.08 else 0.0,
                            "sick_hours": float(rng.randint(0, 16) * 4), "personal_hours": float(rng.choice([0, 4, 8, 8, 16, 16, 24])),
                            "vacation_accrual_per_period": vac_rate, "sick_accrual_per_period": sick_rate(dept, part_time),
                            "as_of": "2026-05-09"}
        return rec

    for dept, (name, site, shift_based, notice, max_hours, titles) in DEPARTMENTS.items():
        departments[dept] = {"department_id": dept, "name": name, "site": site, "shift_based": shift_based,
                             "vacation_notice_days": notice, "max_weekly_hours": max_hours,
                             "blackouts": [{"start_date": s, "end_date": e, "reason": r} for s, e, r in BLACKOUTS.get(dept, [])],
                             "head_employee_id": None}
        head = person(dept, f"{name} Manager", "S5", False, 88000, 125000, head=True)
        head["role_start_date"] = min(head["role_start_date"], _d(TODAY - timedelta(days=400)))
        head["hire_date"] = min(head["hire_date"], head["role_start_date"])
        departments[dept]["head_employee_id"] = head["employee_id"]
        for _ in range(HEADCOUNT[dept] * scale - 1):
            title, grade, hourly, lo, hi, _w = rng.choices(titles, [t[5] for t in titles])[0]
            emp = person(dept, title, grade, hourly, lo, hi)
            emp["manager_id"] = head["employee_id"]
    heads = {d["head_employee_id"] for d in departments.values()}
    for h in sorted(heads):
        employees[h]["manager_id"] = "20001"
    # the chief operating officer heads everyone
    coo = person("PEO", "Chief Operating Officer", "E1", False, 190000, 190000, head=True)
    del employees[coo["employee_id"]]
    del balances[coo["employee_id"]]
    coo["employee_id"] = "20001"
    coo["manager_id"] = None
    employees["20001"] = coo
    balances["20001"] = {"employee_id": "20001", "vacation_hours": 160.0, "sick_hours": 64.0, "personal_hours": 16.0,
                         "vacation_accrual_per_period": 6.15, "sick_accrual_per_period": sick_rate("PEO", False), "as_of": "2026-05-09"}

    emp_ids = sorted(employees)

    # ---------------- shifts ----------------
    shifts: dict[str, dict[str, Any]] = {}
    shift_no = 0
    stations = {"ASM": ["Line 1", "Line 2", "Line 3"], "SEW": ["Cut Room", "Sew Bay A", "Sew Bay B"], "QAC": ["Inbound QC", "Final Inspection"],
                "WHS": ["Dock 1", "Dock 2", "Pick Zone A", "Pick Zone B"], "MNT": ["Plant Floor", "Boiler Room"], "CCR": ["Phones", "Chat & Email"]}
    for emp_id in emp_ids:
        emp = employees[emp_id]
        dept = departments[emp["department_id"]]
        if not dept["shift_based"] or emp["job_grade"].startswith(("S", "E")) or emp["status"] != "active":
            continue
        if emp["employment_type"] == "part_time":
            pattern = rng.choice(["evening_pt", "morning_pt"])
            per_week = 3
        else:
            pattern = rng.choices(["day", "swing", "night", "long_day"], [5, 3, 2, 2])[0]
            per_week = 4 if pattern == "long_day" else 5
        start, end, hours = PATTERNS[pattern]
        station = rng.choice(stations[emp["department_id"]])
        off_start = rng.randint(0, 6)
        for week in range(SCHEDULE_WEEKS):
            days = [(off_start + k) % 7 for k in range(7)][: per_week]
            if rng.random() < 0.25 and per_week == 5:
                days = [(off_start + 1 + k) % 7 for k in range(7)][: per_week]
            for wd in sorted(days):
                day = SCHEDULE_START + timedelta(days=7 * week + wd)
                shift_no += 1
                sid = f"SH-{day.strftime('%m%d')}-{shift_no:05d}"
                shifts[sid] = {"shift_id": sid, "department_id": emp["department_id"], "job_title": emp["job_title"],
                               "employee_id": emp_id, "date": _d(day), "start": start, "end": end, "hours": hours, "station": station}

    # ---------------- swap offers ----------------
    by_team: dict[tuple[str, str], list[str]] = {}
    for emp_id in emp_ids:
        e = employees[emp_id]
        by_team.setdefault((e["department_id"], e["job_title"]), []).append(emp_id)
    shifts_of: dict[str, list[str]] = {}
    for sid in sorted(shifts):
        shifts_of.setdefault(shifts[sid]["employee_id"], []).append(sid)
    offers: dict[str, dict[str, Any]] = {}
    messages = ["Can we trade? I have a family thing that day.", "Happy to take yours if you take mine.",
                "I need that day off for a dentist appointment, would you swap?", "Want to switch? My kid has a game.",
                "I can cover your shift, I could use the hours.", "I'll take your shift if you still need it off.",
                "Trade so I can make my sister's wedding?", "Swap? Car's in the shop that week."]
    shift_emps = sorted(shifts_of)
    for _n in range(170 * scale):
        a = rng.choice(shift_emps)
        ea = employees[a]
        team = [x for x in by_team[(ea["department_id"], ea["job_title"])] if x != a and x in shifts_of]
        if rng.random() < 0.08:  # a few offers across roles in the same department
            team = [x for x in shift_emps if employees[x]["department_id"] == ea["department_id"] and x != a]
        if not team:
            continue
        b = rng.choice(team)
        days_a = {shifts[s]["date"] for s in shifts_of[a]}
        days_b = {shifts[s]["date"] for s in shifts_of[b]}
        future_b = [s for s in shifts_of[b] if shifts[s]["date"] > _d(TODAY) and shifts[s]["date"] not in days_a]
        future_a = [s for s in shifts_of[a] if shifts[s]["date"] > _d(TODAY) and shifts[s]["date"] not in days_b]
        if not future_a or not future_b:
            continue
        kind = "cover" if rng.random() < 0.3 else "swap"
        take = rng.choice(future_b)
        give = None if kind == "cover" else rng.choice(future_a)
        status = rng.choices(["pending", "accepted", "declined", "expired"], [8, 2, 1, 1])[0]
        oid = f"SWP-{5001 + len(offers)}"
        offers[oid] = {"offer_id": oid, "offered_by": a, "offered_to": b, "kind": kind, "give_shift_id": give,
                       "take_shift_id": take, "status": status, "created_on": _d(TODAY - timedelta(days=rng.randint(0, 6))),
                       "message": rng.choice(messages[4:6] if kind == "cover" else messages[:4] + messages[6:]),
                       "decline_reason": "Can't make it work" if status == "declined" else None}

    # ---------------- time-off requests ----------------
    requests: dict[str, dict[str, Any]] = {}
    notes = ["Family trip", "Cabin weekend up the North Shore", "Wedding", "Kid's graduation", "Doctor appointment",
             "Moving day", "Fishing opener", "Visiting parents", "Dental surgery", "School conference", ""]
    for emp_id in emp_ids:
        e = employees[emp_id]
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            ltype = rng.choices(["vacation", "sick", "personal"], [6, 3, 2])[0]
            offset = rng.randint(-120, 90)
            start = TODAY + timedelta(days=offset)
            while start.weekday() >= 5:
                start += timedelta(days=1)
            length = 1 if ltype != "vacation" else rng.choice([1, 2, 3, 5])
            end = start
            days = 1
            while days < length:
                end += timedelta(days=1)
                if end.weekday() < 5:
                    days += 1
            half = None
            if length == 1 and ltype != "sick" and rng.random() < 0.2:
                half = rng.choice(["morning", "afternoon"])
            hours = e["standard_day_hours"] * days / (2 if half else 1)
            if start <= TODAY:
                status = rng.choices(["taken", "cancelled", "denied"], [8, 1, 1])[0]
            else:
                status = rng.choices(["approved", "pending", "cancelled"], [5, 4, 1])[0]
            rid = f"TOR-{100001 + len(requests)}"
            requests[rid] = {"request_id": rid, "employee_id": emp_id, "leave_type": ltype, "start_date": _d(start),
                             "end_date": _d(end), "half_day": half, "hours": hours, "status": status,
                             "submitted_on": _d(min(TODAY, start) - timedelta(days=rng.randint(1, 30))),
                             "note": rng.choice(notes), "cancel_reason": "Plans changed" if status == "cancelled" else None}

    # ---------------- postings & applications ----------------
    postings: dict[str, dict[str, Any]] = {}
    depts = sorted(departments)
    for n in range(64 * scale):
        dept = rng.choice(depts)
        title, grade, hourly, lo, hi, _w = rng.choice(DEPARTMENTS[dept][5])
        posted = TODAY - timedelta(days=rng.randint(2, 50))
        closes = posted + timedelta(days=rng.choice([21, 28, 30, 45]))
        status = "open" if closes >= TODAY else rng.choice(["closed", "filled"])
        if status == "open" and rng.random() < 0.06:
            status = "filled"
        pid = f"JP-26-{301 + n:03d}"
        site = departments[dept]["site"]
        etype = "part_time" if hourly and rng.random() < 0.15 else "full_time"
        postings[pid] = {"posting_id": pid, "title": title, "department_id": dept, "job_grade": grade, "site": site,
                         "employment_type": etype, "pay_min": lo, "pay_max": hi, "pay_type": "hourly" if hourly else "salaried",
                         "min_rating": rng.choice([3, 3, 3, 4]), "posted_on": _d(posted), "closes_on": _d(closes),
                         "status": status, "hiring_manager_id": departments[dept]["head_employee_id"],
                         "summary": POSTING_SUMMARIES["H" if hourly else "S"].format(site=site, etype=etype.replace("_", "-"))}
    applications: dict[str, dict[str, Any]] = {}
    notifications: dict[str, dict[str, Any]] = {}
    cover_notes = ["I'd like to grow into this role.", "I have cross-trained on this line for a year.",
                   "Looking for a day-shift position closer to home.", "Excited to bring my experience to the team.",
                   "I completed the forklift certification last fall.", "Interested in moving toward a senior position."]
    pids = sorted(postings)
    applicants = rng.sample(emp_ids, 95 * scale)
    for emp_id in applicants:
        count = 3 if rng.random() < 0.15 else rng.choice([1, 1, 2])
        open_pids = [q for q in pids if postings[q]["status"] == "open"]
        for pid in rng.sample(open_pids if count == 3 else pids, count):
            p = postings[pid]
            submitted = max(date.fromisoformat(p["posted_on"]) + timedelta(days=rng.randint(0, 20)), TODAY - timedelta(days=60))
            submitted = min(submitted, TODAY - timedelta(days=1))
            if p["status"] == "open" and count == 3:
                status = rng.choices(["submitted", "under_review", "interview"], [4, 3, 2])[0]
            elif p["status"] == "open":
                status = rng.choices(["submitted", "under_review", "interview", "offer", "withdrawn"], [4, 3, 2, 1, 1])[0]
            else:
                status = rng.choice(["rejected", "withdrawn", "rejected"])
            aid = f"APP-{8001 + len(applications)}"
            applications[aid] = {"application_id": aid, "employee_id": emp_id, "posting_id": pid, "status": status,
                                 "submitted_on": _d(submitted), "cover_note": rng.choice(cover_notes), "manager_notified": True,
                                 "withdraw_reason": "Decided to stay in current role" if status == "withdrawn" else None}
            mgr = employees[emp_id]["manager_id"]
            if mgr:
                nid = f"NT-{40001 + len(notifications)}"
                notifications[nid] = {"notification_id": nid, "recipient_id": mgr, "about_employee_id": emp_id,
                                      "kind": "internal_application", "reference_id": aid, "sent_on": _d(submitted),
                                      "message": f"{employees[emp_id]['first_name']} {employees[emp_id]['last_name']} applied to {p['title']} ({pid})."}

    # ---------------- benefits ----------------
    plans = {}
    for pid, ptype, name, carrier, monthly, ft, pt, ded, summary in PLANS:
        plans[pid] = {"plan_id": pid, "plan_type": ptype, "name": name, "carrier": carrier, "monthly_premium": monthly,
                      "employer_share_full_time": ft, "employer_share_part_time": pt, "deductible": ded, "summary": summary}
    enrollments: dict[str, dict[str, Any]] = {}

    def level_for(emp: dict[str, Any]) -> str:
        rels = {d["relationship"] for d in emp["dependents"]}
        spouse = bool(rels & {"spouse", "domestic_partner"})
        child = "child" in rels
        return "family" if spouse and child else "employee_spouse" if spouse else "employee_children" if child else "employee"

    life_events: dict[str, dict[str, Any]] = {}
    for emp_id in emp_ids:
        e = employees[emp_id]
        hire = date.fromisoformat(e["hire_date"])
        if (TODAY - hire).days <= 30:
            continue  # new hires have not enrolled yet
        for ptype, options in (("medical", ["MED-PPO", "MED-HSA", "MED-HMO"]), ("dental", ["DEN-BAS", "DEN-PLS"]), ("vision", ["VIS-STD"])):
            if rng.random() < {"medical": 0.12, "dental": 0.2, "vision": 0.4}[ptype]:
                continue  # waived
            plan = rng.choice(options)
            level = level_for(e) if rng.random() < 0.8 else "employee"
            share = plans[plan]["employer_share_full_time" if e["employment_type"] == "full_time" else "employer_share_part_time"]
            eid = f"ENR-{60001 + len(enrollments)}"
            enrollments[eid] = {"enrollment_id": eid, "employee_id": emp_id, "plan_id": plan, "plan_type": ptype,
                                "coverage_level": level, "per_paycheck_cost": per_paycheck(plans[plan]["monthly_premium"][level], share),
                                "effective_date": _d(max(date(2026, 1, 1), date(hire.year, hire.month, 1) + timedelta(days=32)).replace(day=1)),
                                "end_date": None, "status": "active",
                                "basis": "open_enrollment" if hire.year < 2026 else "new_hire"}
        # recent qualifying life events
        if rng.random() < 0.17:
            kind = rng.choices(["marriage", "birth", "adoption", "divorce", "loss_of_other_coverage", "domestic_partnership"], [5, 5, 1, 1, 2, 1])[0]
            event_date = TODAY - timedelta(days=rng.randint(2, 75))
            reported = min(TODAY, event_date + timedelta(days=rng.randint(0, 10)))
            doc_type = {"marriage": "marriage_certificate", "birth": "birth_certificate", "adoption": "adoption_decree",
                        "divorce": "marriage_certificate", "loss_of_other_coverage": "coverage_loss_letter",
                        "domestic_partnership": "partnership_affidavit"}[kind]
            status = "verified" if rng.random() < 0.75 else "pending"
            detail = {"marriage": f"Certificate of marriage, St. Louis County, dated {_d(event_date)}",
                      "birth": f"Birth certificate, Minnesota Department of Health, born {_d(event_date)}",
                      "adoption": f"Final decree of adoption dated {_d(event_date)}",
                      "divorce": f"Judgment and decree of dissolution dated {_d(event_date)}",
                      "loss_of_other_coverage": f"Letter confirming spouse's employer coverage ended {_d(event_date)}",
                      "domestic_partnership": f"Affidavit of domestic partnership signed {_d(event_date)}"}[kind]
            if kind == "divorce":
                doc_type = "marriage_certificate"
            doc_id = new_doc(emp_id, doc_type, status, reported, detail)
            lid = f"QLE-{3001 + len(life_events)}"
            life_events[lid] = {"event_id": lid, "employee_id": emp_id, "kind": kind, "event_date": _d(event_date),
                                "reported_on": _d(reported), "document_id": doc_id}

    # a marriage or partnership just reported: the spouse is not on the record (nor on any plan) yet
    downgrade = {"family": "employee_children", "employee_spouse": "employee"}
    for ev in life_events.values():
        if ev["kind"] in ("marriage", "domestic_partnership"):
            emp = employees[ev["employee_id"]]
            emp["dependents"] = [d for d in emp["dependents"] if d["relationship"] == "child"]
            for enr in enrollments.values():
                if enr["employee_id"] == emp["employee_id"] and enr["coverage_level"] in downgrade:
                    enr["coverage_level"] = downgrade[enr["coverage_level"]]
                    plan = plans[enr["plan_id"]]
                    share = plan["employer_share_full_time" if emp["employment_type"] == "full_time" else "employer_share_part_time"]
                    enr["per_paycheck_cost"] = per_paycheck(plan["monthly_premium"][enr["coverage_level"]], share)

    # ---------------- address documents ----------------
    for emp_id in emp_ids:
        if rng.random() < 0.12:
            e = employees[emp_id]
            same_state = rng.random() < 0.8
            new = address(e["home_address"]["state"] if same_state else ("WI" if e["home_address"]["state"] == "MN" else "MN"))
            doc_type = rng.choice(["lease", "utility_bill", "mortgage_statement"])
            status = rng.choices(["verified", "pending", "rejected"], [7, 2, 1])[0]
            new_doc(emp_id, doc_type, status, TODAY - timedelta(days=rng.randint(1, 20)),
                    f"{new['street']}, {new['city']}, {new['state']} {new['zip']}")
        if rng.random() < 0.05:
            bank, routing = rng.choice(BANKS)
            new_doc(emp_id, "voided_check", "verified", TODAY - timedelta(days=rng.randint(1, 300)), f"{bank}, routing {routing}")

    return {"departments": departments, "employees": employees, "leave_balances": balances, "time_off_requests": requests,
            "shifts": shifts, "swap_offers": offers, "job_postings": postings, "applications": applications,
            "notifications": notifications, "benefit_plans": plans, "enrollments": enrollments, "life_events": life_events,
            "documents": documents}


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(generate(), sort_keys=True, separators=(",", ":")), encoding="utf-8")
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
