"""Generates fixtures/education/db.json: `python -m tests_domains.education.generate`.

Larkspur Valley College (a community college in Sonoma County, California) in week 2 of Fall 2026: a course
catalog with prerequisite chains, Fall 2026 sections in four sessions with meeting times and seats, students
with past grades, holds and current schedules, the term calendar with add/drop/withdraw dates and refund
schedules, tutoring slots, grade appeals and transcript requests. Seeded: the same bytes every run.
"""

from __future__ import annotations

import random
import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from pytest_tau.invariants import dialable_exchange

OUT = Path(__file__).parents[2] / "fixtures" / "education" / "db.json"
SEED = 20260909
TODAY = date(2026, 9, 9)
RATE = {"resident": 46.0, "nonresident": 346.0}
PASSING = {"A", "A-", "B+", "B", "B-", "C+", "C", "P"}

# subject -> [(number, title, credits, prerequisites, lab fee)]
CATALOG: dict[str, list[tuple[str, str, int, list[str], float]]] = {
    "MATH": [("80", "Intermediate Algebra", 4, [], 0.0), ("101", "College Algebra", 4, ["MATH 80"], 0.0),
             ("105", "Trigonometry", 3, ["MATH 80"], 0.0), ("115", "Elementary Statistics", 4, ["MATH 80"], 0.0),
             ("125", "Precalculus", 5, ["MATH 101", "MATH 105"], 0.0), ("151", "Calculus I", 5, ["MATH 125"], 0.0),
             ("152", "Calculus II", 5, ["MATH 151"], 0.0), ("253", "Multivariable Calculus", 5, ["MATH 152"], 0.0),
             ("260", "Linear Algebra", 3, ["MATH 152"], 0.0), ("270", "Differential Equations", 3, ["MATH 152"], 0.0)],
    "ENGL": [("90", "Reading and Writing Workshop", 3, [], 0.0), ("100", "College Composition", 4, [], 0.0),
             ("101", "Critical Thinking and Writing", 3, ["ENGL 100"], 0.0), ("110", "Introduction to Literature", 3, ["ENGL 100"], 0.0),
             ("120", "Creative Writing: Fiction", 3, ["ENGL 100"], 0.0), ("215", "Shakespeare", 3, ["ENGL 101"], 0.0),
             ("230", "American Literature since 1865", 3, ["ENGL 101"], 0.0)],
    "CHEM": [("60", "Preparatory Chemistry", 4, ["MATH 80"], 65.0), ("110", "General Chemistry I", 5, ["CHEM 60", "MATH 101"], 85.0),
             ("111", "General Chemistry II", 5, ["CHEM 110"], 85.0), ("210", "Organic Chemistry I", 5, ["CHEM 111"], 95.0),
             ("211", "Organic Chemistry II", 5, ["CHEM 210"], 95.0)],
    "BIOL": [("10", "Principles of Biology", 4, [], 55.0), ("120", "Human Anatomy", 4, ["BIOL 10"], 75.0),
             ("121", "Human Physiology", 4, ["BIOL 120", "CHEM 60"], 75.0), ("130", "Microbiology", 4, ["BIOL 10", "CHEM 60"], 80.0),
             ("210", "Cell and Molecular Biology", 5, ["BIOL 10", "CHEM 110"], 80.0), ("211", "Organismal Biology", 5, ["BIOL 210"], 80.0)],
    "PHYS": [("20", "Conceptual Physics", 3, [], 0.0), ("40", "Physics for Life Sciences I", 4, ["MATH 105"], 60.0),
             ("41", "Physics for Life Sciences II", 4, ["PHYS 40"], 60.0), ("140", "Mechanics", 5, ["MATH 151"], 70.0),
             ("141", "Electricity and Magnetism", 5, ["PHYS 140", "MATH 152"], 70.0), ("142", "Waves, Optics and Modern Physics", 4, ["PHYS 141"], 70.0)],
    "CS": [("10", "Introduction to Computing", 3, [], 0.0), ("110", "Programming in Python", 4, [], 0.0),
           ("111", "Object-Oriented Programming in Java", 4, ["CS 110"], 0.0), ("120", "Data Structures", 4, ["CS 111"], 0.0),
           ("130", "Discrete Structures", 3, ["MATH 101", "CS 110"], 0.0), ("140", "Computer Architecture", 4, ["CS 111"], 0.0),
           ("150", "Web Development", 3, ["CS 110"], 0.0)],
    "ACCT": [("100", "Financial Accounting", 4, [], 0.0), ("101", "Managerial Accounting", 4, ["ACCT 100"], 0.0),
             ("120", "Payroll Accounting", 2, ["ACCT 100"], 0.0), ("140", "Federal Income Tax", 3, ["ACCT 100"], 0.0)],
    "BUS": [("10", "Introduction to Business", 3, [], 0.0), ("18", "Business Law", 3, [], 0.0),
            ("50", "Principles of Marketing", 3, ["BUS 10"], 0.0), ("70", "Small Business Management", 3, ["BUS 10"], 0.0),
            ("82", "Business Statistics", 3, ["MATH 80"], 0.0)],
    "ECON": [("1", "Principles of Macroeconomics", 3, [], 0.0), ("2", "Principles of Microeconomics", 3, [], 0.0),
             ("12", "Intermediate Microeconomics", 3, ["ECON 2", "MATH 101"], 0.0)],
    "PSYC": [("1", "General Psychology", 3, [], 0.0), ("3", "Research Methods", 4, ["PSYC 1", "MATH 115"], 0.0),
             ("10", "Developmental Psychology", 3, ["PSYC 1"], 0.0), ("20", "Abnormal Psychology", 3, ["PSYC 1"], 0.0),
             ("30", "Social Psychology", 3, ["PSYC 1"], 0.0)],
    "HIST": [("17", "United States History to 1877", 3, [], 0.0), ("18", "United States History since 1877", 3, [], 0.0),
             ("4", "World Civilizations I", 3, [], 0.0), ("5", "World Civilizations II", 3, [], 0.0),
             ("22", "History of California", 3, [], 0.0)],
    "SPAN": [("1", "Elementary Spanish I", 4, [], 0.0), ("2", "Elementary Spanish II", 4, ["SPAN 1"], 0.0),
             ("3", "Intermediate Spanish I", 4, ["SPAN 2"], 0.0), ("4", "Intermediate Spanish II", 4, ["SPAN 3"], 0.0)],
    "ART": [("2", "Drawing I", 3, [], 35.0), ("3", "Drawing II", 3, ["ART 2"], 35.0), ("10", "Art History: Prehistoric to Gothic", 3, [], 0.0),
            ("20", "Ceramics I", 3, [], 60.0), ("21", "Ceramics II", 3, ["ART 20"], 60.0), ("40", "Digital Photography", 3, [], 45.0)],
    "MUS": [("1", "Music Fundamentals", 3, [], 0.0), ("2", "Music Theory I", 3, ["MUS 1"], 0.0), ("3", "Music Theory II", 3, ["MUS 2"], 0.0),
            ("30", "Class Piano I", 2, [], 25.0), ("31", "Class Piano II", 2, ["MUS 30"], 25.0)],
    "NURS": [("50", "Medical Terminology", 3, [], 0.0), ("60", "Nutrition", 3, [], 0.0),
             ("70", "Pharmacology for Health Careers", 3, ["BIOL 120"], 0.0)],
    "KIN": [("10", "Fitness Walking", 1, [], 0.0), ("12", "Yoga", 1, [], 0.0), ("20", "Weight Training", 1, [], 0.0),
            ("40", "Personal Health and Wellness", 3, [], 0.0)],
}
DESCRIPTIONS = {
    "MATH": "Lecture and problem sessions; graphing calculator required.", "ENGL": "Reading, discussion and essay writing.",
    "CHEM": "Lecture with weekly laboratory; safety goggles required.", "BIOL": "Lecture with weekly laboratory.",
    "PHYS": "Lecture with weekly laboratory.", "CS": "Lecture and hands-on programming in the computer lab.",
    "ACCT": "Lecture and practice sets.", "BUS": "Lecture and case discussion.", "ECON": "Lecture and discussion.",
    "PSYC": "Lecture and discussion.", "HIST": "Lecture, primary sources and discussion.", "SPAN": "Conversation-based language class.",
    "ART": "Studio course; materials fee covers shared supplies.", "MUS": "Lecture and keyboard lab.", "NURS": "Lecture for health careers.",
    "KIN": "Activity course.",
}
LAB_SUBJECTS = {"CHEM", "BIOL", "PHYS"}
TUTORED = {"MATH", "CHEM", "PHYS", "BIOL", "CS", "ACCT", "ENGL", "SPAN", "ECON"}

FIRST = ["Aaliyah", "Adrian", "Aiden", "Alejandra", "Alexis", "Amara", "Andre", "Angela", "Anjali", "Ava", "Benjamin", "Bianca",
         "Brandon", "Brianna", "Caleb", "Camila", "Carlos", "Chloe", "Christopher", "Daniela", "Darius", "David", "Destiny", "Diego",
         "Elena", "Elijah", "Emily", "Emmanuel", "Esperanza", "Ethan", "Fatima", "Gabriel", "Grace", "Hannah", "Hector", "Hyun-woo",
         "Isabella", "Isaiah", "Jasmine", "Javier", "Jayden", "Jessica", "Jocelyn", "Jonah", "Jordan", "Joshua", "Julian", "Kaitlyn",
         "Kenji", "Kevin", "Kiara", "Layla", "Leilani", "Liam", "Lucia", "Madison", "Marcus", "Mariana", "Mateo", "Maya", "Mei",
         "Miguel", "Nadia", "Naomi", "Nathan", "Nicole", "Noah", "Olivia", "Omar", "Owen", "Priya", "Rafael", "Rebecca", "Ricardo",
         "Rohan", "Samantha", "Samuel", "Sara", "Sebastian", "Sofia", "Tariq", "Tessa", "Thanh", "Trinity", "Tyler", "Valeria",
         "Victor", "Wesley", "Ximena", "Yusuf", "Zoe", "Zhen"]
LAST = ["Abbott", "Acosta", "Alvarez", "Anderson", "Bautista", "Bennett", "Bui", "Campbell", "Castillo", "Chavez", "Chen", "Cruz",
        "Delgado", "Diaz", "Dominguez", "Du", "Ellis", "Espinoza", "Fernandez", "Fischer", "Flores", "Garcia", "Gomez", "Gonzalez",
        "Gupta", "Gutierrez", "Hall", "Hernandez", "Huang", "Ibarra", "Jackson", "Jimenez", "Johnson", "Kaur", "Kim", "Le", "Lee",
        "Lopez", "Luna", "Martinez", "Mendoza", "Miller", "Morales", "Moreno", "Nakamura", "Nguyen", "Okafor", "Ortiz", "Park",
        "Patel", "Pham", "Ramirez", "Ramos", "Reyes", "Rivera", "Robinson", "Rodriguez", "Romero", "Ruiz", "Sanchez", "Santos",
        "Shah", "Silva", "Singh", "Soto", "Tanaka", "Thompson", "Torres", "Tran", "Valdez", "Vargas", "Vasquez", "Walker", "Wang",
        "Washington", "Williams", "Wong", "Wu", "Yamamoto", "Young", "Zamora", "Zhang"]
INSTRUCTORS = ["Dr. Helen Marsh", "Prof. Luis Ortega", "Dr. Anita Rao", "Prof. Gregory Lindqvist", "Dr. Soo-jin Park",
               "Prof. Teresa Whitfield", "Dr. Ibrahim Haddad", "Prof. Carla Benedetti", "Dr. Martin Okoye", "Prof. Renee Castellanos",
               "Dr. Paul Henning", "Prof. Yolanda Pierce", "Dr. Kevin Matsuda", "Prof. Diane Kowalski", "Dr. Alan Fairbanks",
               "Prof. Monica Serrano", "Dr. Rachel Goldstein", "Prof. Samuel Adeyemi", "Dr. Julia Brandt", "Prof. Victor Nguyen",
               "Dr. Laura Finch", "Prof. Omar Rashid", "Dr. Nancy Thornton", "Prof. Eric Villanueva"]
TUTORS = ["Jamie Cho", "Marisol Pena", "Devon Clarke", "Aisha Bello", "Tomas Reyes", "Lena Hoffmann", "Rahul Menon",
          "Grace Ikeda", "Noor Haddad", "Felix Duarte", "Bree Sullivan", "Kwame Mensah"]
PROGRAMS = ["AS Biology", "AS Chemistry", "AS-T Mathematics", "AS-T Physics", "AS Computer Science", "AA-T Psychology",
            "AA-T English", "AS-T Business Administration", "AA-T Economics", "AS Accounting", "AA-T History", "AA-T Studio Arts",
            "AA Music", "Nursing Prerequisites", "AA-T Spanish", "Undeclared"]
CITIES = [("Santa Rosa", ["95401", "95403", "95404", "95405", "95407", "95409"]), ("Petaluma", ["94952", "94954"]),
          ("Rohnert Park", ["94928"]), ("Windsor", ["95492"]), ("Sebastopol", ["95472"]), ("Healdsburg", ["95448"]),
          ("Cotati", ["94931"]), ("Sonoma", ["95476"])]
STREETS = ["Mendocino Ave", "College Ave", "Sonoma Ave", "Fourth St", "Bennett Valley Rd", "Stony Point Rd", "Hoen Ave",
           "Petaluma Blvd N", "Snyder Ln", "Gravenstein Hwy S", "Old Redwood Hwy", "Brush Creek Rd", "Fulton Rd", "Yulupa Ave",
           "West Third St", "Bodega Ave", "Southwest Blvd", "Montecito Blvd", "Lakeville St", "Healdsburg Ave"]
ROOMS = {"MATH": "Shuhaw Hall", "ENGL": "Emeritus Hall", "CHEM": "Baker Hall", "BIOL": "Baker Hall", "PHYS": "Baker Hall",
         "CS": "Maggini Hall", "ACCT": "Maggini Hall", "BUS": "Maggini Hall", "ECON": "Garcia Hall", "PSYC": "Garcia Hall",
         "HIST": "Emeritus Hall", "SPAN": "Pedroncelli Center", "ART": "Doyle Arts Building", "MUS": "Burbank Auditorium",
         "NURS": "Race Health Sciences", "KIN": "Haehl Pavilion"}

PAST_TERMS = [("FA24", "Fall 2024", "2024-08-26", "2024-12-13", "2024-12-19", "2025-01-31"),
              ("SP25", "Spring 2025", "2025-01-21", "2025-05-23", "2025-05-30", "2025-06-27"),
              ("SU25", "Summer 2025", "2025-06-16", "2025-08-08", "2025-08-14", "2025-09-25"),
              ("FA25", "Fall 2025", "2025-08-25", "2025-12-12", "2025-12-18", "2026-01-30"),
              ("SP26", "Spring 2026", "2026-01-20", "2026-05-22", "2026-05-29", "2026-06-26"),
              ("SU26", "Summer 2026", "2026-06-15", "2026-08-07", "2026-08-13", "2026-09-24")]
SESSIONS = [
    ("FA26-FULL", "Full term (16 weeks)", "2026-08-31", "2026-12-18", "2026-09-13", "2026-09-20", "2026-11-13",
     [("2026-04-01", "2026-09-06", 100), ("2026-09-07", "2026-09-13", 75), ("2026-09-14", "2026-09-20", 50)]),
    ("FA26-A8", "First eight weeks", "2026-08-31", "2026-10-23", "2026-09-04", "2026-09-11", "2026-10-09",
     [("2026-04-01", "2026-09-04", 100), ("2026-09-05", "2026-09-11", 40)]),
    ("FA26-B8", "Second eight weeks", "2026-10-26", "2026-12-18", "2026-10-30", "2026-11-06", "2026-12-04",
     [("2026-04-01", "2026-10-30", 100), ("2026-10-31", "2026-11-06", 40)]),
    ("FA26-QS", "Fast track (four weeks)", "2026-08-31", "2026-09-25", "2026-09-01", "2026-09-04", "2026-09-16",
     [("2026-04-01", "2026-09-01", 100), ("2026-09-02", "2026-09-04", 50)]),
]
SESSION_WEIGHTS = {"FA26-FULL": 70, "FA26-A8": 11, "FA26-B8": 12, "FA26-QS": 7}
SESSION_DATES = {s[0]: (s[2], s[3]) for s in SESSIONS}
GRADES = ["A", "A-", "B+", "B", "B-", "C+", "C", "C-", "D+", "D", "F", "W"]
GRADE_WEIGHTS = [16, 8, 9, 12, 8, 7, 9, 5, 3, 4, 5, 5]
SLOTS = [("08:00", 75), ("09:30", 75), ("11:00", 75), ("12:30", 75), ("14:00", 75), ("15:30", 75), ("17:30", 75), ("19:00", 75)]
MWF = [("08:00", 50), ("09:00", 50), ("10:00", 50), ("11:00", 50), ("12:00", 50), ("13:00", 50)]
DAY_TOKENS = re.compile(r"Th|Sa|M|T|W|F")


def _t(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _m(hhmm: str) -> int:
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def days_of(days: str) -> set[str]:
    return set(DAY_TOKENS.findall(days))


def meetings_clash(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two sections meet at the same time on a shared day while both sessions run."""
    (sa, ea), (sb, eb) = SESSION_DATES[a["session_id"]], SESSION_DATES[b["session_id"]]
    if ea < sb or eb < sa:
        return False
    for x in a["meetings"]:
        for y in b["meetings"]:
            if days_of(x["days"]) & days_of(y["days"]) and _m(x["start"]) < _m(y["end"]) and _m(y["start"]) < _m(x["end"]):
                return True
    return False


def generate() -> dict[str, Any]:
    rng = random.Random(SEED)

    terms: dict[str, Any] = {}
    for tid, name, start, end, posted, appeal in PAST_TERMS:
        terms[tid] = {"term_id": tid, "name": name, "start_date": start, "end_date": end, "grades_posted_on": posted,
                      "grade_appeal_deadline": appeal, "session_ids": []}
    terms["FA26"] = {"term_id": "FA26", "name": "Fall 2026", "start_date": "2026-08-31", "end_date": "2026-12-18",
                     "grades_posted_on": None, "grade_appeal_deadline": None, "session_ids": [s[0] for s in SESSIONS]}
    sessions = {sid: {"session_id": sid, "term_id": "FA26", "name": name, "start_date": start, "end_date": end, "add_deadline": add,
                      "drop_deadline": drop, "withdraw_deadline": wd,
                      "refund_schedule": [{"start_date": a, "end_date": b, "refund_percent": p} for a, b, p in steps]}
                for sid, name, start, end, add, drop, wd, steps in SESSIONS}

    courses: dict[str, Any] = {}
    for subject, rows in CATALOG.items():
        for number, title, credits, prereqs, fee in rows:
            code = f"{subject} {number}"
            courses[code] = {"course_code": code, "subject": subject, "title": title, "credits": credits, "lab_fee": fee,
                             "prerequisites": prereqs, "description": DESCRIPTIONS[subject]}

    # ---------------- Fall 2026 sections ----------------
    sections: dict[str, Any] = {}
    crns = rng.sample(range(40100, 49999), 400)
    crn_i = 0
    for code, c in courses.items():
        level = int(re.sub(r"\D", "", code.split()[1]))
        n = 1 if level >= 200 else rng.choice([1, 2, 2, 3]) if level >= 100 else rng.choice([2, 3, 3, 4])
        if c["subject"] == "KIN":
            n = 2
        for k in range(n):
            session = rng.choices(list(SESSION_WEIGHTS), list(SESSION_WEIGHTS.values()))[0] if k else "FA26-FULL"
            if c["credits"] >= 5 and session == "FA26-QS":
                session = "FA26-FULL"
            modality = rng.choices(["in_person", "hybrid", "online"], [70, 12, 18])[0]
            if c["subject"] in LAB_SUBJECTS or c["subject"] in ("ART", "KIN", "MUS"):
                modality = "in_person"
            room = ROOMS[c["subject"]]
            meetings: list[dict[str, str]] = []
            if modality != "online":
                if c["credits"] == 1:
                    day = rng.choice(["M", "T", "W", "Th", "F"])
                    start, length = rng.choice(SLOTS[:6])
                    meetings.append({"days": day, "start": start, "end": _t(_m(start) + 110), "room": "Haehl Pavilion 1"})
                elif rng.random() < 0.35 and c["credits"] <= 4:
                    start, length = rng.choice(MWF)
                    meetings.append({"days": "MWF", "start": start, "end": _t(_m(start) + length), "room": f"{room} {rng.randint(101, 240)}"})
                else:
                    start, length = rng.choice(SLOTS)
                    if c["credits"] >= 4 and c["subject"] not in LAB_SUBJECTS:
                        length += 25
                    days = rng.choice(["MW", "TTh"]) if modality == "in_person" else rng.choice(["M", "T", "W", "Th"])
                    meetings.append({"days": days, "start": start, "end": _t(_m(start) + length), "room": f"{room} {rng.randint(101, 240)}"})
                if c["subject"] in LAB_SUBJECTS:
                    lab_day = rng.choice(["F", "T", "Th", "W"])
                    while days_of(lab_day) & days_of(meetings[0]["days"]):
                        lab_day = rng.choice(["F", "T", "Th", "W"])
                    lab_start = rng.choice(["08:00", "11:00", "13:00", "14:30"])
                    meetings.append({"days": lab_day, "start": lab_start, "end": _t(_m(lab_start) + 170),
                                     "room": f"{room} Lab {rng.randint(1, 6)}"})
            crn = str(crns[crn_i])
            crn_i += 1
            number = f"{80 + k}" if modality == "online" else f"{k + 1:02d}"
            sections[crn] = {"section_id": crn, "course_code": code, "term_id": "FA26", "session_id": session, "section_number": number,
                             "instructor": rng.choice(INSTRUCTORS), "modality": modality, "meetings": meetings,
                             "capacity": rng.choice([20, 24, 24, 28, 30, 32, 35, 40]), "enrolled": 0, "waitlist": []}

    # ---------------- students ----------------
    students: dict[str, Any] = {}
    registrations: dict[str, Any] = {}
    reg_seq = 100000
    used_ids: set[str] = set()
    used_emails: set[str] = set()
    term_order = [t[0] for t in PAST_TERMS]
    by_subject_courses = sorted(courses)

    def add_reg(sid: str, term: str, code: str, section: str | None, status: str, grade: str | None, registered: str,
                residency: str, changed: str | None = None, refund: float = 0.0) -> None:
        nonlocal reg_seq
        reg_seq += rng.randint(1, 9)
        rid = f"RG-{reg_seq}"
        credits = courses[code]["credits"]
        registrations[rid] = {"registration_id": rid, "student_id": sid, "term_id": term, "course_code": code, "section_id": section,
                              "credits": credits, "status": status, "grade": grade, "registered_on": registered,
                              "tuition_charged": round(credits * RATE[residency], 2), "fees_charged": courses[code]["lab_fee"],
                              "refund_amount": refund, "status_changed_on": changed}

    for _ in range(720):
        while True:
            sid = str(rng.randint(1800000, 2699999))
            if sid not in used_ids:
                used_ids.add(sid)
                break
        first, last = rng.choice(FIRST), rng.choice(LAST)
        email = f"{first.lower().replace('-', '')}.{last.lower()}@mail.larkspur.edu"
        n = 2
        while email in used_emails:
            email = f"{first.lower().replace('-', '')}.{last.lower()}{n}@mail.larkspur.edu"
            n += 1
        used_emails.add(email)
        age = rng.choices([18, 19, 20, 21, 22, 24, 27, 31, 38, 45], [14, 18, 16, 12, 8, 8, 8, 7, 5, 4])[0]
        dob = date(2026 - age, 1, 1) + timedelta(days=rng.randint(0, 364))
        if dob > date(2026 - age, 9, 9):
            dob = dob.replace(year=dob.year - 1)
        f1 = rng.random() < 0.06
        residency = "nonresident" if f1 or rng.random() < 0.05 else "resident"
        city, zips = rng.choice(CITIES)
        first_term = rng.choices(term_order + ["FA26"], [14, 10, 4, 22, 14, 6, 20])[0]
        program = rng.choice(PROGRAMS)
        phone = f"({rng.choice(['707', '707', '707', '415', '510'])}) {dialable_exchange(rng.randint(200, 989))}-{rng.randint(1000, 9999)}"
        students[sid] = {"student_id": sid, "first_name": first, "last_name": last, "date_of_birth": dob.isoformat(), "email": email,
                         "phone": phone,
                         "mailing_address": {"street": f"{rng.randint(100, 9899)} {rng.choice(STREETS)}", "city": city, "state": "CA",
                                             "zip": rng.choice(zips)},
                         "residency": residency, "visa_status": "F-1" if f1 else None, "program": program, "first_term": first_term,
                         "holds": [], "prerequisite_waivers": [], "account_balance": 0.0}
        # past terms
        passed: set[str] = set()
        taken: set[str] = set()
        start_i = term_order.index(first_term) if first_term in term_order else len(term_order)
        for term, _name, tstart, _end, posted, _ in PAST_TERMS[start_i:]:
            summer = term.startswith("SU")
            k = rng.choice([0, 1, 1, 2]) if summer else rng.choice([2, 3, 3, 4, 4])
            options = [c for c in by_subject_courses if c not in taken and all(p in passed for p in courses[c]["prerequisites"])]
            for code in rng.sample(options, min(k, len(options))):
                grade = rng.choices(GRADES, GRADE_WEIGHTS)[0]
                if courses[code]["subject"] == "KIN" and rng.random() < 0.5:
                    grade = "P"
                reg_day = (date.fromisoformat(tstart) - timedelta(days=rng.randint(5, 60))).isoformat()
                add_reg(sid, term, code, None, "withdrawn" if grade == "W" else "completed", grade, reg_day, residency, posted)
                taken.add(code)
                if grade in PASSING:
                    passed.add(code)
        # a few instructor waivers for a course taken elsewhere
        if rng.random() < 0.05:
            cands = [c for c in by_subject_courses if courses[c]["prerequisites"] and c not in taken]
            w = rng.choice(cands)
            students[sid]["prerequisite_waivers"] = [w]
        waived = set(students[sid]["prerequisite_waivers"])
        # Fall 2026 schedule
        target = rng.choice([12, 13, 14, 15, 16]) if f1 else rng.choice([3, 4, 6, 7, 9, 10, 12, 12, 13, 15, 16])
        mine: list[dict[str, Any]] = []
        credits = 0
        pool = [s for k2, s in sorted(sections.items())
                if s["course_code"] not in passed and all(p in passed or s["course_code"] in waived for p in courses[s["course_code"]]["prerequisites"])]
        rng.shuffle(pool)
        for s in pool:
            if credits >= target:
                break
            c = courses[s["course_code"]]
            if credits + c["credits"] > 18 or any(m["course_code"] == s["course_code"] for m in mine):
                continue
            if any(meetings_clash(s, m) for m in mine) or s["enrolled"] >= s["capacity"]:
                continue
            mine.append(s)
            credits += c["credits"]
        for s in mine:
            live = sections[s["section_id"]]
            live["enrolled"] += 1
            reg_day = (date(2026, 4, 20) + timedelta(days=rng.randint(0, 130))).isoformat()
            if reg_day > SESSIONS[[x[0] for x in SESSIONS].index(s["session_id"])][4]:
                reg_day = "2026-08-20"
            add_reg(sid, "FA26", s["course_code"], s["section_id"], "enrolled", None, reg_day, residency)
        # an early drop before the term started (full refund)
        if rng.random() < 0.12:
            extra = [s for s in pool[-20:] if s not in mine and s["session_id"] != "FA26-B8"]
            if extra:
                s = extra[0]
                tuition = round(courses[s["course_code"]]["credits"] * RATE[residency], 2)
                add_reg(sid, "FA26", s["course_code"], s["section_id"], "dropped", None, "2026-05-11", residency, "2026-08-21",
                        round(tuition + courses[s["course_code"]]["lab_fee"], 2))
        # holds
        roll = rng.random()
        holds: list[dict[str, Any]] = []
        if roll < 0.07:
            amt = round(rng.choice([85.0, 138.0, 184.0, 230.0, 276.5, 312.0, 415.0, 692.0, 1038.0]) + rng.choice([0, 0, 12.5, 20.0]), 2)
            holds.append({"hold_id": "", "kind": "financial", "placed_on": (TODAY - timedelta(days=rng.randint(10, 200))).isoformat(),
                          "amount_due": amt, "office": "Business Office", "detail": "Past-due balance from a prior term"})
            students[sid]["account_balance"] = amt
        elif roll < 0.11:
            holds.append({"hold_id": "", "kind": "advising", "placed_on": (TODAY - timedelta(days=rng.randint(5, 60))).isoformat(),
                          "amount_due": None, "office": "Counseling Department", "detail": "Mandatory educational plan meeting not completed"})
        elif roll < 0.14:
            holds.append({"hold_id": "", "kind": "immunization", "placed_on": (TODAY - timedelta(days=rng.randint(5, 60))).isoformat(),
                          "amount_due": None, "office": "Student Health Services", "detail": "Measles (MMR) immunization record missing"})
        elif roll < 0.19:
            amt = round(rng.choice([18.0, 24.5, 35.0, 62.0, 89.95, 112.0]), 2)
            holds.append({"hold_id": "", "kind": "library", "placed_on": (TODAY - timedelta(days=rng.randint(10, 300))).isoformat(),
                          "amount_due": amt, "office": "Doyle Library", "detail": "Unreturned materials"})
        elif roll < 0.205:
            holds.append({"hold_id": "", "kind": "conduct", "placed_on": (TODAY - timedelta(days=rng.randint(5, 90))).isoformat(),
                          "amount_due": None, "office": "Office of Student Conduct", "detail": "Pending conduct review"})
        for h in holds:
            h["hold_id"] = f"HLD-{rng.randint(10000, 99999)}"
        # a hold comes from the student's own time here: none before their first term began, and a
        # first-term student's unpaid balance is this term's, not a prior one's
        began = date.fromisoformat(terms[first_term]["start_date"])
        for h in holds:
            if date.fromisoformat(h["placed_on"]) < began:
                h["placed_on"] = min(began + timedelta(days=int(h["hold_id"][-1]) + 1), TODAY).isoformat()
            if h["kind"] == "financial" and first_term == "FA26":
                h["detail"] = "Unpaid Fall 2026 tuition and fees past the payment deadline"
        students[sid]["holds"] = holds
        if not holds and rng.random() < 0.15:
            students[sid]["account_balance"] = round(rng.choice([46.0, 92.0, 138.0, 184.0]) + rng.choice([0.0, 55.0, 75.0]), 2)

    # full sections and waitlists: shrink capacity of some popular sections to their enrollment
    ids = sorted(sections)
    for crn in ids:
        s = sections[crn]
        if s["enrolled"] >= 8 and rng.random() < 0.3:
            s["capacity"] = s["enrolled"]
        else:
            s["capacity"] = max(s["capacity"], s["enrolled"] + rng.randint(1, 6))
    student_ids = sorted(students)
    for crn in ids:
        s = sections[crn]
        if s["capacity"] == s["enrolled"]:
            want = rng.randint(0, 5)
            enrolled_here = {r["student_id"] for r in registrations.values() if r["section_id"] == crn}
            while len(s["waitlist"]) < want:
                cand = rng.choice(student_ids)
                if cand not in enrolled_here and cand not in s["waitlist"] and not students[cand]["holds"]:
                    s["waitlist"].append(cand)

    # ---------------- tutoring slots ----------------
    slots: dict[str, Any] = {}
    current = [r for r in registrations.values() if r["term_id"] == "FA26" and r["status"] == "enrolled"]
    tutored = sorted({r["course_code"] for r in current if courses[r["course_code"]]["subject"] in TUTORED})
    slot_no = 30000
    cur = TODAY
    while cur <= date(2026, 10, 2):
        if cur.weekday() < 5:
            for code in rng.sample(tutored, min(len(tutored), 14)):
                hour = rng.choice([9, 10, 11, 12, 13, 14, 15, 16, 17])
                if cur == TODAY and hour <= 10:
                    hour += 4
                slot_no += rng.randint(1, 7)
                sid = f"TS-{slot_no}"
                slots[sid] = {"slot_id": sid, "course_code": code, "tutor": rng.choice(TUTORS), "date": cur.isoformat(),
                              "start": f"{hour:02d}:00", "end": f"{hour:02d}:50",
                              "location": rng.choice(["Learning Commons L-104", "Learning Commons L-110", "Online (Zoom)"]),
                              "booked_by": None, "booked_on": None, "topic": None}
        cur += timedelta(days=1)
    by_course: dict[str, list[str]] = {}
    for r in sorted(current, key=lambda r: r["registration_id"]):
        by_course.setdefault(r["course_code"], []).append(r["student_id"])
    for sid in sorted(slots):
        s = slots[sid]
        if rng.random() < 0.3 and s["course_code"] in by_course:
            s["booked_by"] = rng.choice(by_course[s["course_code"]])
            s["booked_on"] = (TODAY - timedelta(days=rng.randint(0, 6))).isoformat()
            s["topic"] = rng.choice(["Homework help", "Exam review", "Lab report questions", "Going over the last quiz",
                                     "Essay draft feedback"])

    # ---------------- grade appeals and transcript requests ----------------
    appeals: dict[str, Any] = {}
    su26 = sorted((r for r in registrations.values() if r["term_id"] in ("SU26", "SP26") and r["grade"] in ("C-", "D+", "D", "F")),
                  key=lambda r: r["registration_id"])
    for r in rng.sample(su26, 14):
        aid = f"GA-{rng.randint(2000, 9999)}"
        filed = (date.fromisoformat(terms[r["term_id"]]["grades_posted_on"]) + timedelta(days=rng.randint(3, 25))).isoformat()
        appeals[aid] = {"appeal_id": aid, "student_id": r["student_id"], "registration_id": r["registration_id"],
                        "course_code": r["course_code"], "term_id": r["term_id"], "grade": r["grade"],
                        "reason": rng.choice(["The final exam was graded with the wrong key.", "My lab scores were not all entered.",
                                              "The syllabus weighting was not applied."]),
                        "filed_on": filed, "status": rng.choice(["submitted", "under_review", "upheld", "changed"])}
    requests: dict[str, Any] = {}
    for sid in rng.sample(student_ids, 90):
        if any(h["kind"] in ("financial", "library") for h in students[sid]["holds"]):
            continue
        rid = f"TR-{rng.randint(100000, 999999)}"
        delivery = rng.choice(["electronic", "electronic", "mail", "pickup"])
        copies = rng.choice([1, 1, 1, 2, 3])
        rush = delivery == "mail" and rng.random() < 0.3
        fee = {"electronic": 10.0, "mail": 15.0, "pickup": 15.0}[delivery] * copies + (20.0 if rush else 0.0)
        recipient = rng.choice(["Sonoma State University", "UC Davis", "San Francisco State University", "Cal Poly Humboldt",
                                "UC Berkeley", "Self"])
        dest = {"electronic": "admissions@example-university.edu", "mail": "Office of Admissions", "pickup": "Admissions and Records counter"}[delivery]
        requests[rid] = {"request_id": rid, "student_id": sid, "delivery": delivery, "recipient": recipient, "destination": dest,
                         "copies": copies, "rush": rush, "fee": fee, "requested_on": (TODAY - timedelta(days=rng.randint(1, 120))).isoformat(),
                         "status": rng.choice(["received", "processing", "sent", "sent"]) if delivery != "pickup" else "ready_for_pickup"}

    return {"terms": terms, "sessions": sessions, "courses": courses, "sections": sections, "students": students,
            "registrations": registrations, "tutoring_slots": slots, "grade_appeals": appeals, "transcript_requests": requests}


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(dump_db(generate()))
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
