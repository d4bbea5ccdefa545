"""Seeded generator for Harborline Mutual's policyholder desk: writes fixtures/insurance/db.json.

    python -m tests_domains.insurance.generate            # the committed DB
    python -m tests_domains.insurance.generate --scale 10 --out /tmp/big.json
"""

from __future__ import annotations

import argparse
import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import orjson

from pytest_tau.invariants import dialable_exchange, with_vin_check_digit
from tests_domains.insurance import rating as R
from tests_domains.insurance.domain import DOMAIN
from tests_domains.insurance.schema import InsuranceDB

DEFAULT_SEED = 20260515
OUT = Path(__file__).parents[2] / "fixtures" / "insurance" / "db.json"
TODAY = DOMAIN.today  # the policy's fixed "now": terms, payments and claims are dated around it

FIRST = [
    "James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth", "William",
    "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen", "Daniel", "Nancy",
    "Matthew", "Lisa", "Anthony", "Betty", "Mark", "Margaret", "Steven", "Sandra", "Paul", "Ashley", "Andrew",
    "Kimberly", "Joshua", "Emily", "Kenneth", "Donna", "Kevin", "Michelle", "Brian", "Carol", "George", "Amanda",
    "Timothy", "Melissa", "Ronald", "Deborah", "Jason", "Stephanie", "Ryan", "Rebecca", "Jacob", "Laura", "Gary",
    "Helen", "Nicholas", "Sharon", "Eric", "Cynthia", "Jonathan", "Kathleen", "Diego", "Amy", "Hiroshi", "Priya",
    "Mateo", "Lucia", "Tariq", "Ingrid", "Malik", "Sofia", "Arjun", "Noor", "Wei", "Camila", "Tomas", "Yara",
    "Connor", "Rosa", "Ezra", "Leah", "Omar", "Naomi", "Felix", "Hazel", "Owen", "Mira", "Gideon", "Tessa",
]
LAST = [
    "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
    "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee",
    "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young",
    "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker",
    "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Okafor", "Lindqvist", "Tanaka", "Patel",
    "Kowalski", "Brennan", "Haugen", "Delacroix", "Yazzie", "Oyelaran", "Marchetti", "Sorensen", "Abernathy",
    "Castellano", "Whitaker", "Nakamura", "Fitzgerald", "Halvorsen", "Mendoza", "Ostrowski", "Achebe", "Bergstrom",
]
KIDS = ["Ava", "Liam", "Maya", "Noah", "Ella", "Lucas", "Zoe", "Ethan", "Chloe", "Mason", "Lily", "Caleb", "Nora",
        "Wyatt", "Ruby", "Jonah", "Iris", "Levi", "Quinn", "Theo", "Greta", "Silas", "June", "Miles"]

# state -> (area codes, [(city, zip prefix)])
GEO = {
    "WA": (["206", "253", "360", "425", "509"], [("Seattle", "981"), ("Tacoma", "984"), ("Spokane", "992"),
                                                 ("Bellingham", "982"), ("Olympia", "985"), ("Yakima", "989")]),
    "OR": (["503", "541", "971"], [("Portland", "972"), ("Eugene", "974"), ("Salem", "973"), ("Bend", "977"),
                                  ("Medford", "975")]),
    "ID": (["208"], [("Boise", "837"), ("Coeur d'Alene", "838"), ("Idaho Falls", "834"), ("Twin Falls", "833")]),
    "MT": (["406"], [("Missoula", "598"), ("Billings", "591"), ("Bozeman", "597"), ("Helena", "596")]),
    "UT": (["801", "385", "435"], [("Salt Lake City", "841"), ("Provo", "846"), ("Ogden", "844"), ("St. George", "847")]),
}
STREETS = ["Alder", "Birch", "Cedar", "Juniper", "Madrona", "Hemlock", "Sagebrush", "Willow", "Aspen", "Larch",
           "Fir", "Spruce", "Cottonwood", "Tamarack", "Huckleberry", "Lupine", "Basalt", "Ridge", "Lakeview",
           "Orchard", "Canyon", "Meadowlark", "Riverbend", "Summit", "Foothill", "Timberline", "Quarry", "Harbor"]
SUFFIX = ["St", "Ave", "Dr", "Ln", "Ct", "Way", "Pl", "Rd", "Loop", "Blvd"]

MODELS = [  # make, model, class, WMI
    ("Toyota", "Corolla", "economy", "2T1"), ("Toyota", "Camry", "standard", "4T1"), ("Toyota", "RAV4", "suv", "2T3"),
    ("Toyota", "Highlander", "suv", "5TD"), ("Toyota", "Tacoma", "truck", "3TM"), ("Toyota", "Tundra", "truck", "5TF"),
    ("Toyota", "Sienna", "minivan", "5TD"), ("Toyota", "Prius", "economy", "JTD"), ("Honda", "Civic", "economy", "2HG"),
    ("Honda", "Accord", "standard", "1HG"), ("Honda", "CR-V", "suv", "5J6"), ("Honda", "Pilot", "suv", "5FN"),
    ("Honda", "Odyssey", "minivan", "5FN"), ("Honda", "Ridgeline", "truck", "5FP"), ("Ford", "F-150", "truck", "1FT"),
    ("Ford", "Escape", "suv", "1FM"), ("Ford", "Explorer", "suv", "1FM"), ("Ford", "Mustang", "sports", "1FA"),
    ("Ford", "Maverick", "truck", "3FT"), ("Chevrolet", "Silverado 1500", "truck", "1GC"),
    ("Chevrolet", "Equinox", "suv", "2GN"), ("Chevrolet", "Malibu", "standard", "1G1"),
    ("Chevrolet", "Camaro", "sports", "1G1"), ("Chevrolet", "Corvette", "sports", "1G1"),
    ("Subaru", "Outback", "standard", "4S4"), ("Subaru", "Forester", "suv", "JF2"), ("Subaru", "Crosstrek", "suv", "JF2"),
    ("Subaru", "Impreza", "economy", "4S3"), ("Subaru", "WRX", "sports", "JF1"), ("Nissan", "Altima", "standard", "1N4"),
    ("Nissan", "Rogue", "suv", "5N1"), ("Nissan", "Frontier", "truck", "1N6"), ("Nissan", "Versa", "economy", "3N1"),
    ("Hyundai", "Elantra", "economy", "5NP"), ("Hyundai", "Tucson", "suv", "5NM"), ("Hyundai", "Santa Fe", "suv", "5NM"),
    ("Kia", "Soul", "economy", "KND"), ("Kia", "Telluride", "suv", "5XY"), ("Kia", "Carnival", "minivan", "KND"),
    ("Mazda", "Mazda3", "economy", "3MZ"), ("Mazda", "CX-5", "suv", "JM3"), ("Mazda", "MX-5 Miata", "sports", "JM1"),
    ("Jeep", "Wrangler", "suv", "1C4"), ("Jeep", "Grand Cherokee", "suv", "1C4"), ("Ram", "1500", "truck", "1C6"),
    ("GMC", "Sierra 1500", "truck", "3GT"), ("Volkswagen", "Jetta", "economy", "3VW"), ("Volkswagen", "Tiguan", "suv", "3VV"),
    ("Volkswagen", "Golf GTI", "sports", "3VW"), ("Tesla", "Model 3", "luxury", "5YJ"), ("Tesla", "Model Y", "luxury", "7SA"),
    ("BMW", "330i", "luxury", "3MW"), ("BMW", "X5", "luxury", "5UX"), ("BMW", "M4", "sports", "WBS"),
    ("Audi", "Q5", "luxury", "WA1"), ("Lexus", "RX 350", "luxury", "2T2"), ("Mercedes-Benz", "C 300", "luxury", "W1K"),
    ("Porsche", "911", "sports", "WP0"), ("Dodge", "Challenger", "sports", "2C3"), ("Chrysler", "Pacifica", "minivan", "2C4"),
]
VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
# Oregon (ORS 742.520) and Utah (Utah Code 31A-22-307) require personal injury protection on every auto policy,
# at least $15,000 and $3,000 per person.
PIP_MINIMUM = {"OR": 15000, "UT": 3000}
ADJUSTER_NAMES = [
    "Dana Whitfield", "Marcus Oyelaran", "Elena Varga", "Trevor Lindahl", "Keisha Brandt", "Samuel Ortiz",
    "Grace Holloway", "Rafael Quintero", "Monica Strand", "Philip Achterberg", "Yvonne Castillo", "Derek Mahoney",
    "Anita Sørlie", "Julian Park", "Carmen Velez", "Howard Beckett", "Renee Tsosie", "Victor Albescu",
    "Lauren Kessler", "Isaac Moreno", "Fiona Gallagher", "Nathan Ekwueme", "Beatrice Lam", "Oscar Halvorsen",
]
DENIAL_REASONS = {
    "auto": ["vehicle not listed on the policy at the date of loss", "loss caused by an unlisted regular operator",
             "damage from wear and mechanical breakdown is excluded", "loss reported after the vehicle was repaired"],
    "home": ["gradual seepage and long-term leakage is excluded", "damage from lack of maintenance is excluded",
             "flood is excluded under the homeowners form", "property was vacant more than 60 days at the date of loss"],
}


def _d(day: date) -> str:
    return day.isoformat()


def generate(seed: int = DEFAULT_SEED, scale: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    db: dict[str, dict[str, Any]] = {k: {} for k in InsuranceDB.model_fields}
    used_numbers: set[str] = set()
    used_vins: set[str] = set()
    used_licenses: set[str] = set()
    used_emails: set[str] = set()
    counters = {"veh": 0, "drv": 0, "prp": 0, "clm": 0, "end": 0, "txn": 0}

    def nxt(kind: str) -> int:
        counters[kind] += 1
        return counters[kind]

    for i, (make, model, cls, _wmi) in enumerate(MODELS, 1):
        mid = f"VM-{i:03d}"
        db["vehicle_models"][mid] = {"model_id": mid, "make": make, "model": model, "vehicle_class": cls}

    adjusters_by: dict[tuple[str, str], list[str]] = {("auto", u): [] for u in ("fast_track", "field", "large_loss", "special_investigations")}
    adjusters_by.update({("home", u): [] for u in ("fast_track", "field", "large_loss", "special_investigations")})
    units = ["fast_track", "field", "field", "large_loss", "special_investigations", "fast_track"]
    for i, name in enumerate(ADJUSTER_NAMES, 1):
        line = "auto" if i % 2 else "home"
        unit = units[(i - 1) // 4 % len(units)]
        aid = f"ADJ-{300 + i}"
        first, last = name.split(" ", 1)
        db["adjusters"][aid] = {
            "adjuster_id": aid, "name": name, "line": line, "unit": unit,
            "phone": f"800-555-{1200 + i * 7:04d}",
            "email": f"{first[0].lower()}.{last.lower().replace('ø', 'o')}@harborlinemutual.com",
        }
        adjusters_by[(line, unit)].append(aid)

    def policy_number(prefix: str) -> str:
        while True:
            num = f"{prefix}-{rng.randint(1000000, 9999999)}"
            if num not in used_numbers:
                used_numbers.add(num)
                return num

    def vin(wmi: str, year: int) -> str:
        while True:
            year_code = "ABCDEFGHJKLMNPRSTVWXY123456789"[(year - 2010) % 30]
            body = "".join(rng.choice(VIN_CHARS) for _ in range(5))
            v = with_vin_check_digit(wmi + body + rng.choice("0123456789X") + year_code + rng.choice(VIN_CHARS)
                                     + f"{rng.randint(0, 999999):06d}")
            if v not in used_vins:
                used_vins.add(v)
                return v

    def license_number(state: str) -> str:
        while True:
            if state == "WA":
                lic = "WDL" + "".join(rng.choice(VIN_CHARS) for _ in range(9))
            elif state == "OR":
                lic = f"{rng.randint(1000000, 9999999)}"
            elif state == "ID":
                lic = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(2)) + f"{rng.randint(100000, 999999)}" + rng.choice("ABCDEFGH")
            elif state == "MT":
                lic = f"{rng.randint(10**12, 10**13 - 1)}"
            else:
                lic = f"{rng.randint(100000000, 999999999)}"
            if lic not in used_licenses:
                used_licenses.add(lic)
                return lic

    def address(state: str | None = None) -> dict[str, Any]:
        state = state or rng.choice(["WA", "WA", "OR", "OR", "ID", "MT", "UT"])
        city, prefix = rng.choice(GEO[state][1])
        return {
            "street": f"{rng.randint(100, 9899)} {rng.choice(['', 'N ', 'S ', 'E ', 'W ', 'NE ', 'SW '])}{rng.choice(STREETS)} {rng.choice(SUFFIX)}".replace("  ", " "),
            "city": city, "state": state, "zip": f"{prefix}{rng.randint(1, 99):02d}",
        }

    def rand_day(start: date, end: date) -> date:
        return start + timedelta(days=rng.randint(0, (end - start).days))

    def billing(pnum: str, day: date, kind: str, amount: float, memo: str) -> None:
        tid = f"TXN-{nxt('txn'):07d}"
        db["billing"][tid] = {"txn_id": tid, "policy_number": pnum, "date": _d(day), "kind": kind,
                              "amount": round(amount, 2), "memo": memo}

    def bill_premium(pol: dict[str, Any]) -> None:
        eff = date.fromisoformat(pol["effective_date"])
        exp = date.fromisoformat(pol["expiration_date"])
        if pol["payment_plan"] == "paid_in_full":
            pol["premium_paid"] = pol["term_premium"]
            billing(pol["policy_number"], eff, "paid_in_full", pol["term_premium"], "full-term premium")
            return
        installment = round(pol["term_premium"] / pol["term_months"], 2)
        paid = 0.0
        for k in range(pol["term_months"]):
            due = R.add_months(eff, k)
            if due > TODAY or due >= exp:
                break
            amount = installment if k < pol["term_months"] - 1 else round(pol["term_premium"] - installment * k, 2)
            billing(pol["policy_number"], due, "installment", amount, f"installment {k + 1} of {pol['term_months']}")
            paid += amount
        pol["premium_paid"] = round(paid, 2)

    def add_claim(pol: dict[str, Any], line: str, item_id: str | None, start: date, end: date, open_ok: bool) -> None:
        losses = list(R.AUTO_LOSS_COVERAGE if line == "auto" else R.HOME_LOSS_COVERAGE)
        covs = {c["code"]: c for c in pol["coverages"]}
        choices = [loss for loss in losses if (R.AUTO_LOSS_COVERAGE if line == "auto" else R.HOME_LOSS_COVERAGE)[loss] in covs]
        if not choices or end <= start:
            return
        loss = rng.choice(choices)
        code = (R.AUTO_LOSS_COVERAGE if line == "auto" else R.HOME_LOSS_COVERAGE)[loss]
        dol = rand_day(start, end)
        reported = min(dol + timedelta(days=rng.choice([0, 1, 1, 2, 3, 5, 9, 14])), TODAY)
        if line == "home" and code in ("PERS", "WBU", "OTHER"):
            ded = covs["DWELL"]["deductible"]
        else:
            ded = covs[code].get("deductible") or 0
        est = float(rng.choice([rng.randint(6, 60) * 50, rng.randint(30, 240) * 50, rng.randint(100, 900) * 100]))
        limit = covs[code].get("limit_per_occurrence") or est
        payout = round(max(0.0, min(est - ded, limit)), 2)
        age_days = (TODAY - dol).days
        if open_ok and age_days < 75 and rng.random() < 0.7:
            status = rng.choice(["open", "open", "under_investigation"])
        else:
            status = rng.choice(["paid", "paid", "paid", "paid", "closed_without_payment", "denied", "withdrawn"])
        unit = "large_loss" if est > R.DESK_CLAIM_LIMIT[line] else ("fast_track" if est < 5000 else "field")
        if status == "under_investigation":
            unit = "special_investigations"
        adjuster = rng.choice(adjusters_by[(line, unit)]) if adjusters_by[(line, unit)] else None
        if status == "open" and rng.random() < 0.25:
            adjuster = None
        paid = 0.0
        if status == "paid":
            paid = round(payout * rng.choice([1.0, 1.0, 0.92, 1.07, 0.85]), 2)
        cid = f"CLM-{100000 + nxt('clm')}"
        db["claims"][cid] = {
            "claim_id": cid, "policy_number": pol["policy_number"], "line": line, "loss_type": loss,
            "coverage_code": code, "date_of_loss": _d(dol), "reported_date": _d(reported), "status": status,
            "estimated_amount": est, "deductible": ded, "estimated_payout": payout, "paid_amount": paid,
            "vehicle_id": item_id if line == "auto" else None, "property_id": item_id if line == "home" else None,
            "police_report_number": f"{rng.choice(['PD', 'SO', 'SP'])}-{dol.year % 100}-{rng.randint(1000, 99999):05d}" if loss in R.POLICE_REPORT_REQUIRED else None,
            "adjuster_id": adjuster,
            "denial_reason": rng.choice(DENIAL_REASONS[line]) if status == "denied" else None,
        }

    def make_auto(holder: dict[str, Any], status: str, eff: date) -> dict[str, Any]:
        pnum = policy_number("HMA")
        exp = R.add_months(eff, 6)
        state = holder["address"]["state"]
        bi = rng.choice([(25000, 50000), (50000, 100000), (100000, 300000), (100000, 300000), (250000, 500000)])
        if bi == (25000, 50000) and state == "UT":
            bi = (25000, 65000)  # Utah's minimum is 25/65, not 25/50
        covs: list[dict[str, Any]] = [
            {"code": "BI", "name": "Bodily Injury Liability", "limit_per_person": bi[0], "limit_per_occurrence": bi[1]},
            {"code": "PD", "name": "Property Damage Liability", "limit_per_occurrence": rng.choice([25000, 50000, 100000, 100000])},
            {"code": "UM", "name": "Uninsured/Underinsured Motorist", "limit_per_person": bi[0], "limit_per_occurrence": bi[1]},
            {"code": "MED", "name": "Medical Payments", "limit_per_person": rng.choice([1000, 5000, 5000, 10000])},
        ]
        if state in PIP_MINIMUM:  # a no-fault-style state: personal injury protection in place of medical payments
            covs[-1] = {"code": "PIP", "name": "Personal Injury Protection", "limit_per_person": PIP_MINIMUM[state]}
        physical = rng.random() < 0.85
        if physical:
            covs.append({"code": "COLL", "name": "Collision", "deductible": rng.choice([250, 500, 500, 500, 1000, 1000, 2000])})
            covs.append({"code": "COMP", "name": "Comprehensive", "deductible": rng.choice([100, 250, 250, 500, 500, 1000])})
            if rng.random() < 0.5:
                covs.append({"code": "RENT", "name": "Rental Reimbursement", "limit_per_person": 40, "limit_per_occurrence": 1200})
        if rng.random() < 0.55:
            covs.append({"code": "ROAD", "name": "Roadside Assistance", "limit_per_occurrence": 150})
        pol: dict[str, Any] = {
            "policy_number": pnum, "line": "auto", "policyholder_id": holder["policyholder_id"], "status": status,
            "effective_date": _d(eff), "expiration_date": _d(exp), "term_months": 6, "term_premium": 0.0,
            "premium_paid": 0.0, "payment_plan": rng.choice(["paid_in_full", "monthly", "monthly"]),
            "coverages": covs, "discounts": [], "vehicle_ids": [], "driver_ids": [], "property_id": None,
            "cancellation": None,
        }
        zip_ = holder["address"]["zip"]
        nveh = rng.choices([1, 2, 3, 4], [48, 35, 13, 4])[0]
        premium = R.AUTO_BASE_RATE + {25000: 0, 50000: 42, 100000: 88, 250000: 151}[bi[0]]
        for _ in range(nveh):
            make, model, cls, wmi = rng.choice(MODELS)
            # no model year yet on sale when the policy began (next year's models reach dealers from July)
            year = min(rng.randint(2008, 2026), eff.year + (eff.month >= 7))
            vid = f"VEH-{200000 + nxt('veh')}"
            added = eff
            db["vehicles"][vid] = {
                "vehicle_id": vid, "policy_number": pnum, "vin": vin(wmi, year), "year": year, "make": make,
                "model": model, "vehicle_class": cls, "garaging_zip": zip_, "status": "active", "added_on": _d(added),
                "removed_on": None,
            }
            pol["vehicle_ids"].append(vid)
            premium += R.VEHICLE_CLASS_RATE[cls]
        # drivers: the named insured, maybe a spouse, maybe children of driving age
        people = [(holder["first_name"], holder["last_name"], holder["date_of_birth"], "named_insured")]
        hdob = date.fromisoformat(holder["date_of_birth"])
        if rng.random() < 0.55:
            sdob = hdob + timedelta(days=rng.randint(-2200, 2200))
            people.append((rng.choice(FIRST), holder["last_name"] if rng.random() < 0.8 else rng.choice(LAST), _d(sdob), "spouse"))
        if R.age_on(holder["date_of_birth"], TODAY) > 40 and rng.random() < 0.35:
            for _ in range(rng.choice([1, 1, 2])):
                cdob = rand_day(date(2003, 6, 1), date(2010, 3, 1))
                people.append((rng.choice(KIDS), holder["last_name"], _d(cdob), "child"))
        for first, last, dob, rel in people:
            if R.age_on(dob, eff) < 16:
                continue
            did = f"DRV-{400000 + nxt('drv')}"
            db["drivers"][did] = {
                "driver_id": did, "policy_number": pnum, "first_name": first, "last_name": last, "date_of_birth": dob,
                "license_number": license_number(state), "license_state": state, "relationship": rel,
                "status": "active", "added_on": _d(eff), "removed_on": None,
            }
            pol["driver_ids"].append(did)
            premium += R.driver_surcharge(R.age_on(dob, eff))
        for c in covs:
            if c["code"] == "COLL":
                premium += R.COLL_DEDUCTIBLE_RATE[c["deductible"]] * nveh
            if c["code"] == "COMP":
                premium += R.COMP_DEDUCTIBLE_RATE[c["deductible"]] * nveh
            if c["code"] == "RENT":
                premium += 21 * nveh
            if c["code"] == "ROAD":
                premium += 9 * nveh
        if rng.random() < 0.3:
            pol["discounts"].append("safe_driver")
            premium *= 0.92
        pol["term_premium"] = round(premium, 2)
        return pol

    def make_home(holder: dict[str, Any], status: str, eff: date, prop_addr: dict[str, Any]) -> dict[str, Any]:
        pnum = policy_number("HMH")
        exp = R.add_months(eff, 12)
        dwell = rng.randint(22, 95) * 10000
        ded = rng.choice([500, 1000, 1000, 1000, 2500, 2500, 5000])
        covs: list[dict[str, Any]] = [
            {"code": "DWELL", "name": "Coverage A - Dwelling", "limit_per_occurrence": dwell, "deductible": ded},
            {"code": "OTHER", "name": "Coverage B - Other Structures", "limit_per_occurrence": dwell // 10},
            {"code": "PERS", "name": "Coverage C - Personal Property", "limit_per_occurrence": dwell // 2},
            {"code": "LOSS_USE", "name": "Coverage D - Loss of Use", "limit_per_occurrence": dwell // 5},
            {"code": "LIAB", "name": "Coverage E - Personal Liability", "limit_per_occurrence": rng.choice([300000, 300000, 500000])},
            {"code": "MEDPAY", "name": "Coverage F - Medical Payments to Others", "limit_per_person": 5000},
        ]
        premium = dwell * 0.0031 + R.HOME_DEDUCTIBLE_RATE[ded]
        if rng.random() < 0.4:
            covs.append({"code": "WBU", "name": "Water Backup and Sump Overflow", "limit_per_occurrence": rng.choice([10000, 25000])})
            premium += 95
        if rng.random() < 0.15:
            covs.append({"code": "EQ", "name": "Earthquake", "limit_per_occurrence": dwell, "deductible": dwell // 10})
            premium += dwell * 0.0011
        prid = f"PRP-{600000 + nxt('prp')}"
        built = rng.randint(1925, 2022)
        db["properties"][prid] = {
            "property_id": prid, "policy_number": pnum, "address": prop_addr, "year_built": built,
            "construction": rng.choice(["frame", "frame", "frame", "masonry", "brick_veneer", "log"]),
            "square_feet": rng.randint(9, 42) * 100, "roof_year": max(built, rng.randint(1998, 2025)),
            "protection_class": rng.randint(1, 9),
            # the HO-3 form insures a whole house: condo units (HO-6) and manufactured homes are written elsewhere
            "dwelling_type": rng.choice(["single_family", "single_family", "single_family", "townhouse", "single_family", "townhouse"]),
        }
        pol: dict[str, Any] = {
            "policy_number": pnum, "line": "home", "policyholder_id": holder["policyholder_id"], "status": status,
            "effective_date": _d(eff), "expiration_date": _d(exp), "term_months": 12, "term_premium": round(premium, 2),
            "premium_paid": 0.0, "payment_plan": rng.choice(["paid_in_full", "paid_in_full", "monthly"]),
            "coverages": covs, "discounts": [], "vehicle_ids": [], "driver_ids": [], "property_id": prid,
            "cancellation": None,
        }
        return pol

    n_holders = 480 * scale
    for h in range(n_holders):
        hid = f"PH-{100000 + h * 7 + rng.randint(1, 6)}"
        first, last = rng.choice(FIRST), rng.choice(LAST)
        dob = rand_day(date(1944, 1, 1), date(2004, 12, 31))
        addr = address()
        state = addr["state"]
        email = f"{first.lower()}.{last.lower()}@{rng.choice(['gmail.com', 'outlook.com', 'yahoo.com', 'icloud.com', 'protonmail.com', 'comcast.net'])}"
        while email in used_emails:
            email = email.replace("@", f"{rng.randint(1, 99)}@", 1)
        used_emails.add(email)
        holder: dict[str, Any] = {
            "policyholder_id": hid, "first_name": first, "last_name": last, "date_of_birth": _d(dob), "email": email,
            "phone": f"{rng.choice(GEO[state][0])}-{dialable_exchange(rng.randint(200, 989))}-{rng.randint(0, 9999):04d}",
            "address": addr, "member_since": _d(rand_day(date(2004, 1, 1), date(2025, 10, 1))),
            "policy_numbers": [], "paperless": rng.random() < 0.6,
            # Drawn apart from the main stream, so adding it left every other generated value as it was.
            "insurance_score": random.Random(f"{seed}:insurance-score:{hid}").randint(430, 940),
        }
        db["policyholders"][hid] = holder
        plan = rng.choices(
            [["auto"], ["home"], ["auto", "home"], ["auto", "auto"], ["auto", "home", "auto_old"], ["home", "auto_cancelled"], ["auto", "home_old"]],
            [30, 14, 30, 6, 9, 6, 5],
        )[0]
        policies = []
        for kind in plan:
            if kind == "auto":
                pol = make_auto(holder, "active", rand_day(date(2025, 11, 16), date(2026, 5, 12)))
            elif kind == "auto_old":
                pol = make_auto(holder, "expired", rand_day(date(2024, 3, 1), date(2025, 9, 30)))
            elif kind == "auto_cancelled":
                pol = make_auto(holder, "cancelled", rand_day(date(2025, 1, 10), date(2025, 10, 20)))
            elif kind == "home":
                pol = make_home(holder, "active", rand_day(date(2025, 5, 16), date(2026, 5, 12)), addr)
            else:
                pol = make_home(holder, "expired", rand_day(date(2023, 6, 1), date(2025, 4, 1)), address(state))
            if "home" in plan and "auto" in plan:
                pol["discounts"].append("multi_policy")
            if holder["paperless"]:
                pol["discounts"].append("paperless")
            bill_premium(pol)
            policies.append(pol)
            holder["policy_numbers"].append(pol["policy_number"])
            # a member since the first policy at the latest, and an adult then
            born = date.fromisoformat(holder["date_of_birth"])
            adult = (date(born.year + 18, 3, 1) if (born.month, born.day) == (2, 29) else born.replace(year=born.year + 18)).isoformat()
            holder["member_since"] = min(max(holder["member_since"], adult), pol["effective_date"])
            db["policies"][pol["policy_number"]] = pol
        for pol in policies:
            eff = date.fromisoformat(pol["effective_date"])
            exp = date.fromisoformat(pol["expiration_date"])
            if pol["status"] == "cancelled":
                cday = rand_day(eff + timedelta(days=20), min(exp, TODAY) - timedelta(days=1))
                term_days = (exp - eff).days
                earned = round(pol["term_premium"] * (cday - eff).days / term_days, 2)
                unearned = round(pol["term_premium"] - earned, 2)
                reason = rng.choice(["sold_vehicle", "switched_carrier", "cost", "moved_out_of_area"])
                fee = 0.0 if reason in R.FEE_WAIVED_REASONS else round(min(max(unearned * 0.10, 25.0), 100.0), 2)
                net = round(pol["premium_paid"] - earned - fee, 2)
                pol["cancellation"] = {"effective_date": _d(cday), "reason": reason, "earned_premium": earned,
                                       "unearned_premium": unearned, "short_rate_fee": fee,
                                       "refund_amount": max(net, 0.0), "amount_due": max(-net, 0.0)}
                for vid in pol["vehicle_ids"]:
                    db["vehicles"][vid]["status"] = "removed"
                    db["vehicles"][vid]["removed_on"] = _d(cday)
                if net > 0:
                    billing(pol["policy_number"], cday, "cancellation_refund", -net, f"refund on cancellation ({reason})")
                elif net < 0:
                    billing(pol["policy_number"], cday, "cancellation_balance_due", -net, f"balance due on cancellation ({reason})")
                end = cday
            else:
                end = min(exp, TODAY) - timedelta(days=1)
            is_active = pol["status"] == "active"
            n_claims = rng.choices([0, 1, 2], [55, 35, 10])[0] if pol["line"] == "auto" else rng.choices([0, 1, 2], [60, 32, 8])[0]
            for _ in range(n_claims):
                item = rng.choice(pol["vehicle_ids"]) if pol["line"] == "auto" else pol["property_id"]
                add_claim(pol, pol["line"], item, eff, end, is_active)
            # mid-term vehicle swaps already on the books (history for the endorsement ledger)
            if is_active and pol["line"] == "auto" and rng.random() < 0.18 and (TODAY - eff).days > 30:
                day = rand_day(eff + timedelta(days=10), TODAY - timedelta(days=5))
                # the car added mid-term is not the policy's first (a policy has a car from its first day) and has
                # no claim dated before it joined; when no car qualifies, the history has no swap
                claimed = {c["vehicle_id"] for c in db["claims"].values() if c["policy_number"] == pol["policy_number"]
                           and c["date_of_loss"] < _d(day)}
                later = [v for v in pol["vehicle_ids"][1:] if v not in claimed]
                if not later:
                    continue
                vid = later[-1]
                veh = db["vehicles"][vid]
                veh["added_on"] = _d(day)
                term_change = R.VEHICLE_CLASS_RATE[veh["vehicle_class"]]
                prorated = R.prorate(term_change, pol["effective_date"], pol["expiration_date"], day)
                eid = f"END-{500000 + nxt('end')}"
                db["endorsements"][eid] = {
                    "endorsement_id": eid, "policy_number": pol["policy_number"], "effective_date": _d(day),
                    "change_type": "add_vehicle",
                    "detail": f"added {veh['year']} {veh['make']} {veh['model']} ({veh['vehicle_class']})",
                    "term_premium_change": term_change, "prorated_change": prorated,
                }
                billing(pol["policy_number"], day, "endorsement_charge", prorated, f"endorsement {eid}")
    return InsuranceDB.model_validate(db).model_dump(mode="json")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--scale", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    data = generate(args.seed, args.scale)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(orjson.dumps(data, option=orjson.OPT_SORT_KEYS))
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB, " + ", ".join(f"{k}={len(v)}" for k, v in data.items()) + ")")


if __name__ == "__main__":
    main()
