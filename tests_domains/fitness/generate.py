"""Seeded generator for the Ironleaf Fitness member desk DB.

    python -m tests_domains.fitness.generate            # writes fixtures/fitness/db.json
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from pytest_tau.invariants import dialable_exchange
from tests_domains.fitness.schema import FitnessDB

SEED = 3316
TODAY = date(2026, 3, 16)  # a Monday
OUT = Path(__file__).parents[2] / "fixtures" / "fitness" / "db.json"
Rec = dict[str, Any]
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

FIRST = [
    "Aoife", "Benedikt", "Calla", "Dmitri", "Eliska", "Fionn", "Giada", "Hollis", "Ingrid", "Jorge", "Kamala", "Leif",
    "Maren", "Nnamdi", "Oona", "Piers", "Rosalind", "Sebastien", "Tova", "Umberto", "Vivienne", "Wendell", "Ximena",
    "Yasmin", "Zoltan", "Amadou", "Brigid", "Cormac", "Delphine", "Emeka", "Freya", "Gustavo", "Hattie", "Idris",
    "Juno", "Kasimir", "Lucinda", "Mateus", "Nell", "Osman", "Philippa", "Rocco", "Sunniva", "Thaddeus", "Ulla",
    "Valentina", "Wilhelmina", "Yorick", "Zainab", "Anselm", "Beatriz", "Cyrus", "Dagny", "Evander", "Faye",
]
LAST = [
    "Abernethy", "Bannerman", "Cavanagh", "Dobrev", "Ellingsen", "Featherstone", "Gallagher", "Haddad", "Ionescu",
    "Jablonski", "Kirkpatrick", "Lundqvist", "MacAllister", "Nakashima", "Oduya", "Pellegrino", "Quigley", "Radcliffe",
    "Sandoval", "Tashkentov", "Underhill", "Vasquez", "Wojcik", "Yeboah", "Zielinski", "Achebe", "Brennan", "Castellano",
    "Donnelly", "Esterhazy", "Fonseca", "Grünewald", "Hollister", "Ilunga", "Kovacevic", "Lindholm", "Mbatha", "Novak",
    "Okafor", "Petrakis", "Rasmussen", "Sørlie", "Thistlewood", "Umarov", "Villanueva", "Whitaker", "Yamazaki", "Zubiri",
]
CLUBS = [
    ("HBP", "Harbour Point", "Portland", True), ("ELM", "Elm Street", "Portland", False),
    ("RVS", "Riverside", "Portland", False), ("MKT", "Market Hall", "Seattle", True), ("BLT", "Ballard Lofts", "Seattle", False),
    ("CPH", "Capitol Hill", "Seattle", False), ("PRL", "Pearl Yards", "Portland", False), ("SLN", "South Lake Union", "Seattle", False),
    ("TAC", "Tacoma Dome", "Tacoma", False), ("BVT", "Beaverton Commons", "Beaverton", False), ("BLV", "Bellevue Square", "Bellevue", True),
    ("VNC", "Vancouver Landing", "Vancouver", False),
]
# each club's street, in CLUBS order: a street of that club's own city (and neighbourhood)
STREETS = ["NW Couch St", "SE Hawthorne Blvd", "N Williams Ave", "Pine St", "Leary Way NW", "Broadway E", "NW Lovejoy St",
           "Westlake Ave N", "Pacific Ave", "SW Canyon Rd", "NE 8th St", "SE Columbia Way"]
AREA_CODES = {"Portland": "503", "Beaverton": "503", "Seattle": "206", "Bellevue": "425", "Tacoma": "253", "Vancouver": "360"}
CLASS_TYPES = [
    ("Spin", 45, "Cycle Studio"), ("Vinyasa Yoga", 60, "Studio 1"), ("HIIT Circuit", 45, "Studio 2"), ("Pilates Mat", 50, "Studio 1"),
    ("Boxfit", 45, "Studio 2"), ("Barbell Strength", 60, "Strength Zone"), ("Aqua Fit", 45, "Pool"), ("Zumba", 55, "Studio 2"),
    ("Mobility & Stretch", 30, "Studio 1"), ("Rowing Intervals", 40, "Strength Zone"), ("Kettlebell Flow", 45, "Strength Zone"),
    ("Yin Yoga", 75, "Studio 1"),
]
TIMES = ["06:00", "06:30", "07:15", "09:30", "10:00", "12:15", "13:00", "17:30", "18:00", "18:45", "19:30"]
PLANS = [
    ("FLEX", "Flex Rolling", 49.0, "home_club", False, 0, 0),
    ("CORE12", "Core 12-Month", 39.0, "home_club", False, 1, 12),
    ("OFFPEAK", "Off-Peak", 29.0, "home_club", True, 0, 0),
    ("ANYCLUB", "Anywhere", 64.0, "all_clubs", False, 2, 0),
    ("PRESTIGE", "Prestige", 95.0, "all_clubs", False, 4, 12),
]
SPECIALTIES = ["strength", "weight loss", "marathon prep", "postnatal", "mobility", "powerlifting", "rehab", "HIIT", "seniors", "boxing"]
NOTES = ["", "", "", "", "after holidays", "morning, fasted", "new PB!", "felt tired", "left knee sore", "pre-race week",
         "measured at home", "post-illness"]
MEASURES = [("weight_kg", 52.0, 110.0, 1), ("body_fat_pct", 11.0, 38.0, 1), ("resting_heart_rate", 48.0, 82.0, 0),
            ("row_2k_seconds", 400.0, 620.0, 0), ("deadlift_kg", 40.0, 200.0, 0), ("waist_cm", 62.0, 112.0, 1)]


def _d(value: date) -> str:
    return value.isoformat()


def _add_months(day: date, months: int) -> date:
    y, m = divmod(day.month - 1 + months, 12)
    return date(day.year + y, m + 1, min(day.day, 28))


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    db: dict[str, dict[str, Any]] = {t: {} for t in FitnessDB.model_fields}

    # -- plans and clubs ---------------------------------------------------------------------
    for code, name, fee, access, off_peak, guests, commit in PLANS:
        db["plans"][code] = {"plan_code": code, "name": name, "monthly_fee": fee, "access": access, "off_peak_only": off_peak,
                             "guest_passes_per_month": guests, "commitment_months": commit}
    for i, (cid, name, city, flagship) in enumerate(CLUBS):
        slots: list[Rec] = []
        types = [t for t in CLASS_TYPES if flagship or t[2] != "Pool"]
        for weekday in DAYS:
            for slot_time in sorted(rng.sample(TIMES, rng.randint(2, 3) if weekday in ("Sat", "Sun") else rng.randint(2, 4))):
                ctype, minutes, studio = rng.choice(types)
                slots.append({"weekday": weekday, "start_time": slot_time, "class_type": ctype, "studio": studio, "minutes": minutes,
                              "capacity": rng.choice([8, 10, 12, 14, 16, 20]) if studio != "Cycle Studio" else rng.choice([12, 16])})
        number = rng.randint(100, 2900)
        rng.choice(["503", "206", "253", "360"])  # was the area code, drawn whatever the city; kept so later draws stay
        db["clubs"][cid] = {
            "club_id": cid, "name": f"Ironleaf {name}", "city": city,
            "address": f"{number} {STREETS[i]}, {city}",
            "phone": f"({AREA_CODES[city]}) 555-{rng.randint(1000, 9999)}", "flagship": flagship,
            "opens": rng.choice(["05:00", "05:30", "06:00"]), "closes": rng.choice(["22:00", "22:30", "23:00"]), "timetable": slots,
        }

    # -- trainers ----------------------------------------------------------------------------
    tnames: set[tuple[str, str]] = set()
    for cid, *_ in CLUBS:
        for j in range(rng.randint(3, 5)):
            while True:
                first, last = rng.choice(FIRST), rng.choice(LAST)
                if (first, last) not in tnames:
                    tnames.add((first, last))
                    break
            level = rng.choice(["coach", "coach", "senior", "senior", "master"])
            tid = f"TR-{cid}{j + 1}"
            db["trainers"][tid] = {"trainer_id": tid, "first_name": first, "last_name": last, "club_id": cid, "level": level,
                                   "session_rate": {"coach": 55.0, "senior": 70.0, "master": 90.0}[level] + rng.choice([0.0, 5.0]),
                                   "specialties": sorted(rng.sample(SPECIALTIES, 2))}
    trainers_at: dict[str, list[str]] = {}
    for t in db["trainers"].values():
        trainers_at.setdefault(t["club_id"], []).append(t["trainer_id"])

    # -- dated classes: Thursday of last week to Sunday week ---------------------------------
    for cid, club in db["clubs"].items():
        for offset in range(-4, 14):
            day = TODAY + timedelta(days=offset)
            for slot in club["timetable"]:
                if slot["weekday"] != DAYS[day.weekday()]:
                    continue
                class_id = f"CL-{cid}-{day.strftime('%m%d')}-{slot['start_time'].replace(':', '')}"
                db["classes"][class_id] = {
                    "class_id": class_id, "club_id": cid, "class_type": slot["class_type"],
                    "instructor": f"{rng.choice(FIRST)} {rng.choice(LAST)[0]}.", "studio": slot["studio"], "date": _d(day),
                    "start_time": slot["start_time"], "minutes": slot["minutes"], "capacity": slot["capacity"],
                    "status": "cancelled" if rng.random() < 0.02 else "scheduled",
                }

    # -- members -------------------------------------------------------------------------------
    used: set[tuple[str, str]] = set()
    used_ids: set[str] = set()
    for _ in range(720):
        while True:
            first, last = rng.choice(FIRST), rng.choice(LAST)
            if (first, last) not in used:
                used.add((first, last))
                break
        while True:
            mid = f"IL-{rng.randint(100000, 999999)}"
            if mid not in used_ids:
                used_ids.add(mid)
                break
        plan = rng.choice(["FLEX", "FLEX", "CORE12", "CORE12", "CORE12", "OFFPEAK", "ANYCLUB", "ANYCLUB", "PRESTIGE"])
        home = rng.choice(CLUBS)[0]
        if plan != "PRESTIGE" and db["clubs"][home]["flagship"]:
            plan = "PRESTIGE" if rng.random() < 0.5 else plan
            if plan != "PRESTIGE":
                home = rng.choice([c for c in CLUBS if not c[3]])[0]
        joined = TODAY - timedelta(days=rng.randint(20, 1500))
        commit = db["plans"][plan]["commitment_months"]
        nbd = date(TODAY.year, TODAY.month, min(joined.day, 28))
        if nbd < TODAY:
            nbd = _add_months(nbd, 1)
        member: Rec = {
            "member_id": mid, "first_name": first, "last_name": last,
            "email": f"{first.lower()}.{last.lower().replace('ü', 'u').replace('ø', 'o')}{rng.randint(1, 99)}@"
                     f"{rng.choice(['gmail.com', 'outlook.com', 'icloud.com', 'proton.me', 'yahoo.com'])}",
            "phone": f"({rng.choice(['503', '206', '253', '360', '971'])}) {dialable_exchange(rng.randint(200, 989))}-{rng.randint(0, 9999):04d}",
            "date_of_birth": _d(date(1958, 1, 1) + timedelta(days=rng.randint(0, 17000))),
            "home_club": home, "plan_code": plan, "status": "active", "joined_on": _d(joined), "commitment_end": None,
            "next_billing_date": _d(nbd), "freezes": [], "last_club_transfer": None,
            "cancellation_requested_on": None, "membership_ends_on": None,
        }
        freeze_days = 0
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
            start = TODAY - timedelta(days=rng.randint(40, 700))
            if start < joined + timedelta(days=30):
                continue
            months = rng.choice([1, 1, 2, 3])
            end = _add_months(start, months) - timedelta(days=1)
            if any(not (end < date.fromisoformat(f["start_date"]) or start > date.fromisoformat(f["end_date"])) for f in member["freezes"]):
                continue
            if end >= TODAY:
                continue
            kind = "medical" if rng.random() < 0.15 else "standard"
            member["freezes"].append({"start_date": _d(start), "end_date": _d(end), "months": months,
                                      "fee": 0.0 if kind == "medical" else 17.5 * months, "kind": kind})
            freeze_days += (end - start).days + 1
        if commit:
            cend = _add_months(joined, commit) - timedelta(days=1)
            while cend < TODAY - timedelta(days=200):
                cend = _add_months(cend + timedelta(days=1), 12) - timedelta(days=1)
            member["commitment_end"] = _d(cend + timedelta(days=freeze_days))
        roll = rng.random()
        if roll < 0.06:
            start = TODAY - timedelta(days=rng.randint(1, 25))
            months = rng.choice([1, 2])
            member["freezes"].append({"start_date": _d(start), "end_date": _d(_add_months(start, months) - timedelta(days=1)),
                                      "months": months, "fee": 17.5 * months, "kind": "standard"})
            member["status"] = "frozen"
        elif roll < 0.12:
            member["status"] = "cancelled"
            ends = TODAY - timedelta(days=rng.randint(5, 200))
            member["cancellation_requested_on"] = _d(ends - timedelta(days=30))
            member["membership_ends_on"] = _d(ends)
            member["next_billing_date"] = None
        elif roll < 0.16:
            asked = TODAY - timedelta(days=rng.randint(1, 20))
            member["cancellation_requested_on"] = _d(asked)
            member["membership_ends_on"] = _d(asked + timedelta(days=30))
        if rng.random() < 0.1 and member["status"] != "cancelled":
            member["last_club_transfer"] = _d(TODAY - timedelta(days=rng.randint(5, 400)))
        db["members"][mid] = member
    members = sorted(db["members"].values(), key=lambda m: m["member_id"])

    used_charge: set[str] = set()

    def charge(m: Rec, kind: str, amount: float, day: date, status: str = "paid", ref: str | None = None) -> None:
        while True:
            cid = f"CH-{rng.randint(1000000, 9999999)}"
            if cid not in used_charge:
                used_charge.add(cid)
                break
        db["charges"][cid] = {"charge_id": cid, "member_id": m["member_id"], "kind": kind, "amount": round(amount, 2),
                              "date": _d(day), "status": status, "reference": ref}

    for m in members:
        fee = db["plans"][m["plan_code"]]["monthly_fee"]
        day = date(TODAY.year, TODAY.month, min(date.fromisoformat(m["joined_on"]).day, 28))
        if day > TODAY:
            day = _add_months(day, -1)
        for back in range(3):
            when = _add_months(day, -back)
            if when < date.fromisoformat(m["joined_on"]):
                break
            if m["membership_ends_on"] and when > date.fromisoformat(m["membership_ends_on"]):
                continue
            status = "failed" if back == 0 and m["status"] == "active" and rng.random() < 0.05 else "paid"
            charge(m, "monthly_fee", fee, when, status)
            if status == "failed":
                charge(m, "monthly_fee", fee, when + timedelta(days=3) if when + timedelta(days=3) <= TODAY else TODAY, "due")
        for f in m["freezes"]:
            if f["fee"]:
                charge(m, "freeze_fee", f["fee"], date.fromisoformat(f["start_date"]) - timedelta(days=rng.randint(1, 20)))

    # -- class bookings ------------------------------------------------------------------------
    def may_attend(m: Rec, c: Rec) -> bool:
        plan = db["plans"][m["plan_code"]]
        if plan["access"] == "home_club" and c["club_id"] != m["home_club"]:
            return False
        if plan["off_peak_only"] and date.fromisoformat(c["date"]).weekday() < 5 and not ("09:00" <= c["start_time"] < "16:00"):
            return False
        return m["status"] == "active" or date.fromisoformat(c["date"]) < TODAY

    by_club: dict[str, list[Rec]] = {}
    roaming = [m for m in members if db["plans"][m["plan_code"]]["access"] == "all_clubs" and m["status"] != "cancelled"]
    for m in members:
        if m["status"] != "cancelled":
            by_club.setdefault(m["home_club"], []).append(m)
    upcoming_of: dict[str, int] = {}
    for c in sorted(db["classes"].values(), key=lambda c: c["class_id"]):
        day = date.fromisoformat(c["date"])
        if c["status"] == "cancelled" or day > TODAY + timedelta(days=7):
            continue
        pool = [m for m in by_club.get(c["club_id"], []) + rng.sample(roaming, 6) if may_attend(m, c)]
        future = day >= TODAY
        fill = rng.choice([0.3, 0.5, 0.7, 0.9, 1.0, 1.0, 1.2]) if future else rng.uniform(0.4, 1.0)
        want = min(len(pool), round(c["capacity"] * fill))
        chosen: list[Rec] = []
        for m in rng.sample(pool, len(pool)):
            if len(chosen) == want:
                break
            if future and upcoming_of.get(m["member_id"], 0) >= 3:
                continue
            chosen.append(m)
        for n, m in enumerate(chosen):
            made = day - timedelta(days=rng.randint(0, 6), hours=0)
            stamp = f"{_d(min(made, TODAY - timedelta(days=1)) if future else made)}T{rng.randint(6, 22):02d}:{rng.choice(['05', '17', '32', '48'])}"
            status = "booked" if n < c["capacity"] else "waitlisted"
            if not future:
                status = rng.choice(["attended"] * 8 + ["no_show", "late_cancelled", "cancelled"])
            bid = f"BK-{c['class_id'][3:]}-{m['member_id'][3:]}"
            db["bookings"][bid] = {"booking_id": bid, "member_id": m["member_id"], "class_id": c["class_id"], "status": status,
                                   "booked_at": stamp, "cancelled_at": None, "penalty": 0.0}
            if status in ("booked", "waitlisted"):
                upcoming_of[m["member_id"]] = upcoming_of.get(m["member_id"], 0) + 1
            if status in ("late_cancelled", "cancelled"):
                cancelled = f"{_d(day - timedelta(days=0 if status == 'late_cancelled' else 1))}T05:30"
                db["bookings"][bid]["cancelled_at"] = cancelled
                if stamp > cancelled:  # a booking is made before it is cancelled: the day before, same time
                    db["bookings"][bid]["booked_at"] = f"{_d(date.fromisoformat(cancelled[:10]) - timedelta(days=1))}{stamp[10:]}"
            if status in ("late_cancelled", "no_show"):
                penalty = 9.5 if status == "late_cancelled" else 12.0
                db["bookings"][bid]["penalty"] = penalty
                charge(m, "late_cancel" if status == "late_cancelled" else "no_show", penalty, day, rng.choice(["paid", "due"]), bid)

    # -- personal training ------------------------------------------------------------------------
    used_pkg: set[str] = set()
    for m in rng.sample([m for m in members if m["status"] != "cancelled"], 260):
        tid = rng.choice(trainers_at[m["home_club"]])
        trainer = db["trainers"][tid]
        size = rng.choice([5, 10, 10, 20])
        bought = TODAY - timedelta(days=rng.randint(3, 300))
        expires = bought + timedelta(days={5: 90, 10: 180, 20: 365}[size])
        discount = {5: 0.0, 10: 0.1, 20: 0.15}[size]
        price = round(trainer["session_rate"] * size * (1 - discount), 2)
        while True:
            pid = f"PT-{rng.randint(10000, 99999)}"
            if pid not in used_pkg:
                used_pkg.add(pid)
                break
        elapsed = (min(TODAY, expires) - bought).days
        used_n = min(size, round(size * min(1.0, elapsed / ((expires - bought).days * rng.uniform(0.5, 1.3)))))
        status = "expired" if expires < TODAY else "active"
        db["pt_packages"][pid] = {"package_id": pid, "member_id": m["member_id"], "trainer_id": tid, "sessions_total": size,
                                  "sessions_used": used_n, "price_paid": price, "purchased_on": _d(bought), "expires_on": _d(expires),
                                  "status": status, "refund_amount": None}
        charge(m, "pt_package", price, bought, "paid", pid)
        taken: set[str] = set()
        for _k in range(used_n):
            day = bought + timedelta(days=rng.randint(1, max(1, elapsed)))
            if day >= TODAY or _d(day) in taken:
                continue
            taken.add(_d(day))
            sid = f"PTS-{pid[3:]}-{day.strftime('%m%d')}"
            db["pt_sessions"][sid] = {"pt_session_id": sid, "package_id": pid, "date": _d(day),
                                      "start_time": rng.choice(["07:00", "08:00", "12:00", "17:00", "18:00"]),
                                      "status": "forfeited" if rng.random() < 0.05 else "completed"}
        if status == "active" and used_n < size and rng.random() < 0.6:
            day = TODAY + timedelta(days=rng.randint(1, 10))
            sid = f"PTS-{pid[3:]}-{day.strftime('%m%d')}"
            db["pt_sessions"][sid] = {"pt_session_id": sid, "package_id": pid, "date": _d(day),
                                      "start_time": rng.choice(["07:00", "08:00", "12:00", "17:00", "18:00"]), "status": "scheduled"}
            db["pt_packages"][pid]["sessions_used"] += 1

    # -- guest passes ------------------------------------------------------------------------------
    for m in members:
        allowance = db["plans"][m["plan_code"]]["guest_passes_per_month"]
        if not allowance or m["status"] == "cancelled":
            continue
        for _ in range(rng.randint(0, allowance + 2)):
            day = TODAY + timedelta(days=rng.randint(-60, 12))
            month = [g for g in db["guest_passes"].values() if g["member_id"] == m["member_id"] and g["visit_date"][:7] == _d(day)[:7]]
            if len(month) >= allowance:
                continue
            first, last = rng.choice(FIRST), rng.choice(LAST)
            pid = f"GP-{m['member_id'][3:]}-{day.strftime('%m%d')}-{first[:2].upper()}{last[:2].upper()}"
            club = m["home_club"] if db["plans"][m["plan_code"]]["access"] == "home_club" or rng.random() < 0.7 else rng.choice(CLUBS)[0]
            db["guest_passes"][pid] = {"pass_id": pid, "member_id": m["member_id"], "guest_first_name": first,
                                       "guest_last_name": last, "club_id": club, "visit_date": _d(day),
                                       "status": "issued" if day >= TODAY else rng.choice(["used", "used", "used", "void"])}

    # -- progress records ------------------------------------------------------------------------
    for m in members:
        tids = trainers_at[m["home_club"]]
        for measure, low, high, digits in rng.sample(MEASURES, rng.randint(1, 3)):
            base = rng.uniform(low, high)
            for _k in range(rng.randint(1, 3)):
                day = TODAY - timedelta(days=rng.randint(1, 360))
                trainer = rng.random() < 0.35
                value = round(base * rng.uniform(0.95, 1.05), digits)
                rid = f"PR-{m['member_id'][3:]}-{measure[:3].upper()}-{day.strftime('%y%m%d')}"
                if rid in db["progress"]:
                    continue
                db["progress"][rid] = {"record_id": rid, "member_id": m["member_id"], "date": _d(day), "measure": measure,
                                       "value": float(value), "source": "trainer" if trainer else "self",
                                       "trainer_id": rng.choice(tids) if trainer else None,
                                       "note": "" if trainer else rng.choice(NOTES)}

    _freezes_pause_billing(db)
    _early_termination_fees(db, seed)
    FitnessDB.model_validate(db)
    return db


def early_termination_fee(member: Rec, plan: Rec) -> float:
    """Rule 22, as quote_cancellation computes it: half the monthly fee for each month, started or not, between
    the end of the 30 days' notice and the end of the minimum term."""
    ends = date.fromisoformat(member["cancellation_requested_on"]) + timedelta(days=30)
    if not member["commitment_end"] or member["commitment_end"] <= _d(ends):
        return 0.0
    ce = date.fromisoformat(member["commitment_end"])
    months = (ce.year - ends.year) * 12 + ce.month - ends.month + (1 if ce.day > ends.day else 0)
    return round(months * float(plan["monthly_fee"]) * 0.5, 2)


def _early_termination_fees(db: dict[str, Any], seed: int) -> None:
    """A member who gave notice inside the minimum term paid the early-termination fee on the day of the notice
    (rule 22). Ids come from a second seeded stream, so every other record stays as it was."""
    rng = random.Random(seed * 7 + 1)
    for m in sorted(db["members"].values(), key=lambda m: m["member_id"]):
        if not m["cancellation_requested_on"]:
            continue
        fee = early_termination_fee(m, db["plans"][m["plan_code"]])
        if not fee:
            continue
        while True:
            cid = f"CH-{rng.randint(1000000, 9999999)}"
            if cid not in db["charges"]:
                break
        db["charges"][cid] = {"charge_id": cid, "member_id": m["member_id"], "kind": "early_termination", "amount": fee,
                              "date": m["cancellation_requested_on"], "status": "paid",
                              "reference": "notice " + m["cancellation_requested_on"]}


def _freezes_pause_billing(db: dict[str, Any]) -> None:
    """Policy 17 on the generated history, drawing nothing: no monthly fee is billed on a day inside a freeze
    (the freeze fee stands for those months), and the freeze running today has moved a billing date inside it
    to the day after it and pushed a minimum term back by its days."""
    for charge_id, c in list(db["charges"].items()):
        if c["kind"] == "monthly_fee" and any(f["start_date"] <= c["date"] <= f["end_date"] for f in db["members"][c["member_id"]]["freezes"]):
            del db["charges"][charge_id]
    for m in db["members"].values():
        if m["status"] != "frozen":
            continue
        current = next(f for f in m["freezes"] if f["start_date"] <= _d(TODAY) <= f["end_date"])
        start, end = date.fromisoformat(current["start_date"]), date.fromisoformat(current["end_date"])
        if m["next_billing_date"] and current["start_date"] <= m["next_billing_date"] <= current["end_date"]:
            m["next_billing_date"] = _d(end + timedelta(days=1))
        if m["commitment_end"]:
            m["commitment_end"] = _d(date.fromisoformat(m["commitment_end"]) + timedelta(days=(end - start).days + 1))


if __name__ == "__main__":
    OUT.write_bytes(dump_db(generate()))
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")
