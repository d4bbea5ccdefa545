"""Seeded generator for the Granite & Gable Builders permit and project office DB.

    python -m tests_domains.construction.generate            # writes fixtures/construction/db.json
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from pytest_tau.invariants import half_up
from tests_domains.construction.schema import ConstructionDB

SEED = 41426
TODAY = date(2026, 4, 14)  # a Tuesday
OUT = Path(__file__).parents[2] / "fixtures" / "construction" / "db.json"
Rec = dict[str, Any]
HOLIDAYS = {date(2025, 11, 27), date(2025, 11, 28), date(2025, 12, 25), date(2026, 1, 1), date(2026, 1, 19),
            date(2026, 2, 16), date(2026, 5, 25), date(2026, 7, 3), date(2026, 9, 7), date(2026, 11, 26),
            date(2026, 11, 27), date(2026, 12, 25)}

FIRST = ["Adaeze", "Bram", "Catalina", "Desmond", "Elowen", "Farid", "Greta", "Hamish", "Ilse", "Jasper", "Keiko", "Lorcan",
         "Mireille", "Nikhil", "Odessa", "Pascal", "Quinn", "Rosamund", "Soren", "Talia", "Ulric", "Vesna", "Wyatt", "Xiomara",
         "Yusuf", "Zelda", "Anders", "Bettina", "Cillian", "Dolores", "Emrys", "Flavia", "Gideon", "Honora", "Ivo", "Jolene",
         "Kofi", "Leocadia", "Magnus", "Noor", "Orrin", "Perpetua", "Rafferty", "Saoirse", "Thelonius", "Una", "Valentin",
         "Winifred", "Yannick", "Zuzana"]
LAST = ["Ashdown", "Bergstrom", "Cabrera", "Delacroix", "Eberhardt", "Fairweather", "Gutierrez", "Halloran", "Iwasaki",
        "Jorgensen", "Kowalczyk", "Lachance", "Montague", "Nwachukwu", "Ostrowski", "Penhaligon", "Quintanilla", "Rutherford",
        "Szabo", "Trevelyan", "Uzoma", "Vandermeer", "Whitlock", "Yarborough", "Zamora", "Abernathy", "Blackwood", "Cheng",
        "Dunmore", "Esposito", "Fitzroy", "Galloway", "Hendricks", "Ingersoll", "Kavanagh", "Lindqvist", "Mercado", "Nakagawa",
        "Oyelaran", "Prendergast", "Rosales", "Sinclair", "Thackeray", "Valdivia", "Wexler", "Yamamoto", "Zeller", "Achterberg"]
CITIES = [("Sacramento", ["95818", "95819", "95822"]), ("Elk Grove", ["95757", "95758"]), ("Roseville", ["95661", "95678"]),
          ("Folsom", ["95630"]), ("Davis", ["95616", "95618"]), ("Rancho Cordova", ["95670"]), ("West Sacramento", ["95691"]),
          ("Citrus Heights", ["95610"])]
STREETS = ["Alhambra Blvd", "Fair Oaks Blvd", "Laguna Springs Dr", "Sierra College Blvd", "Blue Ravine Rd", "Covell Blvd",
           "Zinfandel Dr", "Jefferson Blvd", "Sunrise Blvd", "Riverside Blvd", "Elk Grove Florin Rd", "Cirby Way", "Oak Ave",
           "Folsom Auburn Rd", "Pole Line Rd", "Coloma Rd", "Industrial Blvd", "Auburn Blvd", "Freeport Blvd", "Land Park Dr"]
MANAGERS = ["Renata Szabo", "Declan Marsh", "Imani Okonkwo", "Travis Lindgren", "Beatriz Calloway"]

ALL9 = ["footing", "foundation", "framing", "rough_electrical", "rough_plumbing", "rough_mechanical", "insulation", "drywall", "final"]
TYPES: dict[str, tuple[list[str], list[str], tuple[int, int]]] = {
    # project type: inspection plan, permits, contract value range
    "new_home": (ALL9, ["building", "electrical", "plumbing", "mechanical"], (520_000, 980_000)),
    "addition": (ALL9, ["building", "electrical", "plumbing", "mechanical"], (140_000, 360_000)),
    "adu": (ALL9, ["building", "electrical", "plumbing", "mechanical"], (180_000, 340_000)),
    "kitchen_remodel": (["framing", "rough_electrical", "rough_plumbing", "insulation", "drywall", "final"],
                        ["demolition", "building", "electrical", "plumbing"], (65_000, 185_000)),
    "garage_conversion": (["framing", "rough_electrical", "rough_mechanical", "insulation", "drywall", "final"],
                          ["building", "electrical", "mechanical"], (90_000, 170_000)),
    "bathroom_remodel": (["rough_electrical", "rough_plumbing", "drywall", "final"], ["demolition", "building", "electrical", "plumbing"],
                         (38_000, 96_000)),
    "deck": (["footing", "framing", "final"], ["building"], (24_000, 78_000)),
}
NAMING = {"new_home": "new home", "addition": "addition", "adu": "ADU", "kitchen_remodel": "kitchen remodel",
          "garage_conversion": "garage conversion", "bathroom_remodel": "bath remodel", "deck": "deck"}
LEVEL = {"footing": 1, "foundation": 2, "framing": 3, "rough_electrical": 4, "rough_plumbing": 4, "rough_mechanical": 4,
         "insulation": 5, "drywall": 6, "final": 7}
CODE = {"footing": "FTG", "foundation": "FND", "framing": "FRM", "rough_electrical": "REL", "rough_plumbing": "RPL",
        "rough_mechanical": "RME", "insulation": "INS", "drywall": "DRW", "final": "FIN"}
DISCIPLINE = {"rough_electrical": "electrical", "rough_plumbing": "plumbing", "rough_mechanical": "mechanical"}
PERMIT_KINDS: list[tuple[str, str, list[str], float, float, int]] = [
    ("building", "Structural, framing and envelope work", ["site_plan", "structural_plans", "energy_compliance", "owner_authorization",
                                                           "insurance_certificate"], 285.0, 6.35, 365),
    ("electrical", "Wiring, service panel and fixtures", ["electrical_plans", "load_calculation", "owner_authorization"], 132.0, 1.85, 365),
    ("plumbing", "Supply, drain-waste-vent and fixtures", ["plumbing_plans", "owner_authorization"], 118.0, 1.6, 365),
    ("mechanical", "HVAC equipment and ductwork", ["mechanical_plans", "hvac_load_calculation", "owner_authorization"], 126.0, 1.45, 365),
    ("demolition", "Removal of walls, finishes and fixtures", ["asbestos_survey", "utility_disconnect_letter", "owner_authorization"],
     96.0, 0.9, 180),
]
PERMIT_PREFIX = {"building": "BLD", "electrical": "ELE", "plumbing": "PLM", "mechanical": "MEC", "demolition": "DEM"}
DOC_TITLES = {"site_plan": "Site plan", "structural_plans": "Structural plans and calculations",
              "energy_compliance": "Title 24 energy compliance report", "owner_authorization": "Owner authorization form",
              "insurance_certificate": "Certificate of liability insurance", "electrical_plans": "Electrical plans",
              "load_calculation": "Electrical load calculation", "plumbing_plans": "Plumbing plans and isometric",
              "mechanical_plans": "Mechanical plans", "hvac_load_calculation": "HVAC load calculation (Manual J)",
              "asbestos_survey": "Asbestos survey report", "utility_disconnect_letter": "Utility disconnect letter"}
EXPIRING = {"insurance_certificate": 365, "asbestos_survey": 180, "utility_disconnect_letter": 90}
TRADES = [  # code, trade, applies when the plan has, scope
    ("CON", "concrete", "footing", "Footings, slab and flatwork"),
    ("FRM", "framing", "framing", "Rough framing, sheathing and hardware"),
    ("ELE", "electrical", "rough_electrical", "Electrical rough-in, panel and trim-out"),
    ("PLM", "plumbing", "rough_plumbing", "Plumbing rough-in, water heater and fixtures"),
    ("HVC", "HVAC", "rough_mechanical", "HVAC equipment, ductwork and controls"),
    ("INS", "insulation", "insulation", "Wall, floor and attic insulation"),
    ("DRY", "drywall", "drywall", "Hang, tape and finish drywall"),
    ("PNT", "painting", "final", "Interior and exterior painting"),
]
SUB_WORDS = {"concrete": ["Bedrock", "Slabworks", "Granite Line", "Delta Pour", "Keystone"],
             "framing": ["Timberline", "True Square", "Ridgebeam", "Oak Frame", "Plumbline"],
             "electrical": ["Bright Circuit", "Amperage", "Redwire", "Voltline", "Sierra Spark"],
             "plumbing": ["Clearflow", "Copperline", "Delta Drain", "Riverbend", "Aqueduct"],
             "HVAC": ["Airwise", "Cool Valley", "Thermal Peak", "Breezeway", "Northstar Air"],
             "insulation": ["Snugwall", "Thermashield", "Blanket Bay", "Warmcore"],
             "drywall": ["Smoothcoat", "Boardline", "Level Five", "Plaster Point"],
             "painting": ["Brushfield", "Truecolor", "Finestroke", "Coat & Trim"]}
SUFFIX = {"concrete": "Concrete", "framing": "Framing", "electrical": "Electric", "plumbing": "Plumbing", "HVAC": "Heating & Air",
          "insulation": "Insulation", "drywall": "Drywall", "painting": "Painting"}
CO_TITLES = [("Upgrade to quartz countertops", 0.02, 0.06, 2, 6), ("Add recessed lighting in living room", 0.005, 0.02, 0, 2),
             ("Relocate kitchen island plumbing", 0.01, 0.04, 2, 5), ("Owner-requested window upgrade", 0.02, 0.07, 3, 8),
             ("Unforeseen dry rot repair at sill plate", 0.01, 0.05, 2, 7), ("Add second-floor laundry hookups", 0.01, 0.04, 1, 4),
             ("Change flooring to engineered oak", 0.02, 0.06, 1, 4), ("Delete exterior pergola (credit)", -0.03, -0.01, -3, 0),
             ("Upsize electrical service to 400 A", 0.02, 0.06, 3, 9), ("Add mini-split heat pump", 0.02, 0.05, 2, 5),
             ("Extend covered patio by 8 feet", 0.03, 0.09, 4, 10), ("Substitute standard tile (credit)", -0.02, -0.005, 0, 0),
             ("Soil export and engineered fill", 0.03, 0.08, 3, 8), ("Add skylights over stairwell", 0.01, 0.03, 1, 3)]
INCIDENT_TEXT = {"near_miss": ["Unsecured ladder slipped; nobody on it", "Material fell from scaffold into a cordoned area",
                               "Excavator swung close to a laborer"],
                 "first_aid": ["Splinter removed on site", "Minor cut bandaged from the site kit", "Dust in eye rinsed at station"],
                 "recordable_injury": ["Laceration needing stitches at urgent care", "Sprained ankle, two days off work",
                                       "Nail-gun puncture treated at clinic"],
                 "property_damage": ["Skid steer cracked the neighbour's driveway", "Water line nicked during trenching",
                                     "Delivery truck damaged the fence"]}


def _d(value: date) -> str:
    return value.isoformat()


def _money(value: float) -> float:
    return float(half_up(value))  # half a cent up (round() on floats took 4468.025 down)


def _workdays(start: date, days: int) -> date:
    step = 1 if days >= 0 else -1
    day, left = start, abs(days)
    while left:
        day += timedelta(days=step)
        if day.weekday() < 5 and day not in HOLIDAYS:
            left -= 1
    return day


def _month_end(year: int, month: int) -> date:
    return date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)


def _retainage(amount: float, pct: float, billed_before: float, contract: float) -> float:
    half = contract / 2
    full_part = max(0.0, min(amount, half - billed_before))
    return _money(full_part * pct / 100 + (amount - full_part) * pct / 200)


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    db: dict[str, dict[str, Any]] = {t: {} for t in ConstructionDB.model_fields}

    for ptype, desc, docs, base, rate, valid in PERMIT_KINDS:
        db["permit_kinds"][ptype] = {"permit_type": ptype, "description": desc, "required_documents": docs, "base_fee": base,
                                     "fee_per_thousand": rate, "valid_days": valid}

    # -- inspectors and their calendar --------------------------------------------------------------
    city_names = [c for c, _ in CITIES]
    disc_sets = [["building"]] * 6 + [["electrical"]] * 2 + [["plumbing"]] * 2 + [["mechanical"]] + [["building", "electrical"]] + \
        [["plumbing", "mechanical"]] + [["electrical", "plumbing", "mechanical"]]
    inspectors: list[Rec] = []
    used_names: set[tuple[str, str]] = set()
    for i, discs in enumerate(disc_sets):
        while True:
            name = (rng.choice(FIRST), rng.choice(LAST))
            if name not in used_names:
                used_names.add(name)
                break
        iid = f"INS-{i + 3:02d}"
        cities = sorted(rng.sample(city_names, 5))
        rec: Rec = {"inspector_id": iid, "first_name": name[0], "last_name": name[1], "disciplines": discs, "cities": cities,
               "phone": f"(916) 555-{rng.randint(1000, 9999)}"}
        inspectors.append(rec)
        db["inspectors"][iid] = rec
    for disc in ("building", "electrical", "plumbing", "mechanical"):
        for city in city_names:
            pool = [x for x in inspectors if disc in x["disciplines"]]
            while sum(1 for x in pool if city in x["cities"]) < 2:
                pick = rng.choice([x for x in pool if city not in x["cities"]])
                pick["cities"] = sorted([*pick["cities"], city])
    times = ["08:00", "09:30", "11:00", "13:00", "14:30"]
    day = TODAY + timedelta(days=1)
    while day <= date(2026, 5, 29):
        if day.weekday() < 5 and day not in HOLIDAYS:
            for ins in inspectors:
                for t in times:
                    sid = f"SL-{ins['inspector_id'].replace('-', '')}-{day.strftime('%m%d')}-{t.replace(':', '')}"
                    busy = 0.8 if (day - TODAY).days < 5 else 0.55
                    db["slots"][sid] = {"slot_id": sid, "inspector_id": ins["inspector_id"], "date": _d(day), "start_time": t,
                                        "status": "booked" if rng.random() < busy else "open"}
        day += timedelta(days=1)

    def qualified(discipline: str, city: str) -> list[Rec]:
        return [x for x in inspectors if discipline in x["disciplines"] and city in x["cities"]]

    # -- subcontractor companies -----------------------------------------------------------------------
    subs_by_trade: dict[str, list[str]] = {}
    n = 101
    for _code, trade, _, _ in TRADES:
        for word in SUB_WORDS[trade]:
            for variant in ("", " Pro"):
                if variant and rng.random() < 0.5:
                    continue
                first, last = rng.choice(FIRST), rng.choice(LAST)
                company = f"{word}{variant} {SUFFIX[trade]}"
                sid = f"SUB-{n}"
                n += 1
                domain = word.lower().replace(" ", "").replace("&", "and") + variant.strip().lower() + ".com"
                db["subcontractors"][sid] = {
                    "sub_id": sid, "company_name": company, "trade": trade, "contact_first_name": first, "contact_last_name": last,
                    "email": f"{first.lower()}@{domain}", "phone": f"(916) 555-{rng.randint(1000, 9999)}",
                    "license_number": f"CSLB {rng.randint(700000, 1099999)}"}
                subs_by_trade.setdefault(trade, []).append(sid)

    # -- owners and projects ------------------------------------------------------------------------------
    owners: list[Rec] = []
    seen: set[tuple[str, str]] = set()
    while len(owners) < 190:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        if (first, last) in seen:
            continue
        seen.add((first, last))
        oid = f"OW-{rng.randint(10000, 99999)}"
        if oid in db["owners"]:
            continue
        dob = date(1948, 1, 1) + timedelta(days=rng.randint(0, 42 * 365))
        city, zips = rng.choice(CITIES)
        rec = {"owner_id": oid, "first_name": first, "last_name": last,
               "email": f"{first.lower()}.{last.lower()}{rng.randint(1, 99)}@{rng.choice(['gmail.com', 'outlook.com', 'icloud.com', 'yahoo.com'])}",
               "phone": f"(916) 555-{rng.randint(1000, 9999)}", "date_of_birth": _d(dob),
               "mailing_address": f"{rng.randint(100, 9999)} {rng.choice(STREETS)}, {city}, CA {rng.choice(zips)}"}
        owners.append(rec)
        db["owners"][oid] = rec

    project_nums: set[int] = set()
    for owner in owners:
        for k in range(1 if rng.random() < 0.8 else 2):
            while True:
                num = rng.randint(23000, 26999)
                if num not in project_nums:
                    project_nums.add(num)
                    break
            pid = f"GG-{num}"
            ptype = rng.choice(list(TYPES))
            plan, permit_types, (lo, hi) = TYPES[ptype]
            status = rng.choices(["preconstruction", "active", "closed"], [0.2, 0.65, 0.15])[0]
            if k == 0 and owner["mailing_address"] and rng.random() < 0.6:
                address = owner["mailing_address"].split(",")[0]
                city = owner["mailing_address"].split(", ")[1]
                zip_code = owner["mailing_address"][-5:]
            else:
                city, zips = rng.choice(CITIES)
                address, zip_code = f"{rng.randint(100, 9999)} {rng.choice(STREETS)}", rng.choice(zips)
            original = float(rng.randint(lo // 100, hi // 100) * 100 + rng.choice([0, 0, 50]))
            months = {"new_home": 10, "addition": 7, "adu": 7, "kitchen_remodel": 4, "garage_conversion": 4, "bathroom_remodel": 3,
                      "deck": 2}[ptype]
            if status == "preconstruction":
                start = TODAY + timedelta(days=rng.randint(20, 90))
            elif status == "active":
                start = TODAY - timedelta(days=rng.randint(30, months * 30 - 10))
            else:
                start = TODAY - timedelta(days=rng.randint(months * 30 + 40, months * 30 + 400))
            while start.weekday() != 0:
                start += timedelta(days=1)
            completion = _workdays(start, months * 21)
            project: Rec = {"project_id": pid, "owner_id": owner["owner_id"], "name": f"{owner['last_name']} {NAMING[ptype]}",
                            "project_type": ptype, "site_address": address, "city": city, "zip_code": zip_code, "status": status,
                            "project_manager": rng.choice(MANAGERS), "original_contract_value": original, "contract_value": original,
                            "start_date": _d(start), "scheduled_completion": _d(completion), "inspection_plan": plan, "phases": []}
            db["projects"][pid] = project

            # progress: how many inspection levels have passed
            levels = sorted({LEVEL[t] for t in plan})
            if status == "closed":
                passed_levels = len(levels)
            elif status == "preconstruction":
                passed_levels = 0
            else:
                passed_levels = rng.randint(0, len(levels) - 1)
            passed_upto = levels[passed_levels - 1] if passed_levels else 0

            # phases follow the inspection levels
            phase_names = ["Mobilization"] + [{1: "Footings", 2: "Foundation", 3: "Framing", 4: "Rough-in", 5: "Insulation",
                                               6: "Drywall", 7: "Finishes and final"}[lv] for lv in levels]
            span = (completion - start).days
            for i, pname in enumerate(phase_names):
                p_start = start + timedelta(days=span * i // len(phase_names))
                p_end = start + timedelta(days=span * (i + 1) // len(phase_names) - 1)
                lv = 0 if i == 0 else levels[i - 1]
                if status == "closed" or (status == "active" and (lv <= passed_upto)):
                    pst = "complete"
                elif status == "active" and (i == 0 or levels[i - 1] == (levels[passed_levels] if passed_levels < len(levels) else 99)):
                    pst = "in_progress"
                else:
                    pst = "not_started"
                project["phases"].append({"name": pname, "status": pst, "planned_start": _d(p_start), "planned_end": _d(p_end)})

            # documents and permits
            doc_types: list[str] = sorted({d for pt in permit_types for d in next(k[2] for k in PERMIT_KINDS if k[0] == pt)})
            for j, dt in enumerate(doc_types):
                if status == "preconstruction" and rng.random() < 0.12:
                    continue  # not filed yet
                received = start - timedelta(days=rng.randint(25, 75)) if status != "preconstruction" else TODAY - timedelta(days=rng.randint(3, 60))
                rec = {"document_id": f"DOC-{num}-{j + 1:02d}", "project_id": pid, "doc_type": dt, "title": DOC_TITLES[dt],
                       "received_on": _d(received), "expires_on": None, "status": "accepted"}
                if dt in EXPIRING:
                    days = EXPIRING[dt]
                    if status == "preconstruction" and rng.random() < 0.2:
                        rec["expires_on"] = _d(TODAY - timedelta(days=rng.randint(2, 40)))
                        rec["received_on"] = _d(TODAY - timedelta(days=days + rng.randint(5, 30)))
                    else:
                        rec["expires_on"] = _d(date.fromisoformat(rec["received_on"]) + timedelta(days=days))
                        if rec["expires_on"] <= _d(TODAY) and status == "active":
                            rec["received_on"] = _d(TODAY - timedelta(days=rng.randint(10, 60)))
                            rec["expires_on"] = _d(date.fromisoformat(rec["received_on"]) + timedelta(days=days))
                if status == "preconstruction" and rng.random() < 0.06:
                    rec["status"] = "rejected"
                db["documents"][rec["document_id"]] = rec
            for pt in permit_types:
                if status == "preconstruction" and rng.random() < 0.75:
                    continue
                kind = db["permit_kinds"][pt]
                applied = start - timedelta(days=rng.randint(20, 50)) if status != "preconstruction" else TODAY - timedelta(days=rng.randint(2, 20))
                fee = _money(kind["base_fee"] + kind["fee_per_thousand"] * original / 1000)
                permit_id = f"{PERMIT_PREFIX[pt]}-{applied.strftime('%y')}-{rng.randint(10000, 99999)}"
                prec: Rec = {"permit_id": permit_id, "project_id": pid, "permit_type": pt, "status": "submitted", "applied_on": _d(applied),
                       "issued_on": None, "expires_on": None, "fee": fee}
                if status != "preconstruction":
                    issued = applied + timedelta(days=rng.randint(7, 18))
                    prec.update(status="issued", issued_on=_d(issued), expires_on=_d(issued + timedelta(days=kind["valid_days"])))
                    if prec["expires_on"] < _d(TODAY):
                        prec["status"] = "expired"
                db["permits"][permit_id] = prec

            # inspections
            if status != "preconstruction":
                done_dates = sorted(start + timedelta(days=rng.randint(10, max(11, (TODAY - start).days - 5))) for _ in plan)
                for idx, itype in enumerate(plan):
                    lv = LEVEL[itype]
                    iid = f"IN-{num}-{CODE[itype]}"
                    city_q = qualified(DISCIPLINE.get(itype, "building"), city)
                    if lv <= passed_upto:
                        history = []
                        when = done_dates[idx] if status == "active" else start + timedelta(days=20 + idx * 12)
                        if rng.random() < 0.18:
                            history.append({"date": _d(when - timedelta(days=6)), "inspector_id": rng.choice(city_q)["inspector_id"],
                                            "result": "failed", "notes": rng.choice(["Missing hold-downs", "Nail spacing off",
                                                                                     "Missing fire blocking", "Unsecured cable"])})
                        history.append({"date": _d(when), "inspector_id": rng.choice(city_q)["inspector_id"], "result": "passed",
                                        "notes": ""})
                        db["inspections"][iid] = {"inspection_id": iid, "project_id": pid, "inspection_type": itype,
                                                  "status": "passed", "history": history}
                    elif status == "active" and passed_levels < len(levels) and lv == levels[passed_levels]:
                        roll = rng.random()
                        if roll < 0.3:
                            fail_on = TODAY - timedelta(days=rng.randint(1, 9))
                            while fail_on.weekday() >= 5:
                                fail_on -= timedelta(days=1)
                            db["inspections"][iid] = {"inspection_id": iid, "project_id": pid, "inspection_type": itype, "status": "failed",
                                                      "history": [{"date": _d(fail_on), "inspector_id": rng.choice(city_q)["inspector_id"],
                                                                   "result": "failed", "notes": rng.choice(
                                                                       ["Shear wall nailing incomplete", "Missing nail plates at plumbing",
                                                                        "Box fill exceeded", "Vent termination too close to window",
                                                                        "Insulation gaps at rim joist", "Screw spacing at ceiling"])}]}
                        elif roll < 0.5:
                            opens = [s for s in db["slots"].values() if s["status"] == "open"
                                     and s["inspector_id"] in {q["inspector_id"] for q in city_q} and s["date"] <= "2026-04-24"]
                            if opens:
                                slot = rng.choice(sorted(opens, key=lambda s: s["slot_id"]))
                                slot["status"] = "booked"
                                db["inspections"][iid] = {"inspection_id": iid, "project_id": pid, "inspection_type": itype,
                                                          "status": "scheduled", "slot_id": slot["slot_id"], "date": slot["date"],
                                                          "start_time": slot["start_time"], "inspector_id": slot["inspector_id"],
                                                          "history": []}

            # change orders
            if status != "preconstruction":
                approved_cost, approved_days = 0.0, 0
                for c in range(rng.randint(0, 3) + (1 if status == "active" else 0)):
                    title, lo_f, hi_f, d_lo, d_hi = rng.choice(CO_TITLES)
                    cost = _money(round(original * rng.uniform(lo_f, hi_f) / 10) * 10 + rng.choice([0, 0, 5, 7.5]))
                    days = rng.randint(d_lo, d_hi)
                    sub_d = start + timedelta(days=rng.randint(10, max(11, (min(TODAY, completion) - start).days - 3)))
                    pending = status == "active" and rng.random() < 0.45
                    st = "pending_owner" if pending else rng.choices(["approved", "rejected"], [0.8, 0.2])[0]
                    co_id = f"CO-{num}-{c + 1:02d}"
                    crec: Rec = {"change_order_id": co_id, "project_id": pid, "title": title,
                           "description": f"{title}. Priced per the attached breakdown.", "requested_by": rng.choice(
                               ["owner", "contractor", "subcontractor"]), "cost_change": cost, "schedule_days": days, "status": st,
                           "submitted_on": _d(min(sub_d, TODAY - timedelta(days=1))), "decided_on": None, "decision_note": ""}
                    if st != "pending_owner":
                        crec["decided_on"] = _d(min(sub_d + timedelta(days=rng.randint(1, 8)), TODAY - timedelta(days=1)))
                        if st == "approved":
                            approved_cost += cost
                            approved_days += days
                    db["change_orders"][co_id] = crec
                project["contract_value"] = _money(original + approved_cost)
                project["scheduled_completion"] = _d(_workdays(completion, approved_days))

            # subcontracts, pay applications and lien waivers
            for code, trade, needs, scope in TRADES:
                if needs not in plan and needs != "final":
                    continue
                if needs == "final" and ptype in ("deck",):
                    continue
                share = {"concrete": 0.1, "framing": 0.18, "electrical": 0.09, "plumbing": 0.08, "HVAC": 0.08, "insulation": 0.03,
                         "drywall": 0.05, "painting": 0.04}[trade]
                amount = float(round(original * share * rng.uniform(0.8, 1.2) / 50) * 50)
                scid = f"SC-{num}-{code}"
                sub_id = rng.choice(subs_by_trade[trade])
                pct = rng.choice([5.0, 10.0, 10.0])
                trade_level = LEVEL[needs]
                db["subcontracts"][scid] = {"subcontract_id": scid, "project_id": pid, "sub_id": sub_id, "scope": scope,
                                            "contract_amount": amount, "retainage_pct": pct,
                                            "status": "complete" if status == "closed" else "active"}
                if status == "preconstruction":
                    continue
                # months of billing: from the start month to February 2026 (closed: until done)
                months_list: list[date] = []
                m_day = _month_end(start.year, start.month)
                last_close = _month_end(TODAY.year, TODAY.month - 2) if status == "active" else _month_end(completion.year, completion.month)
                while m_day <= last_close:
                    months_list.append(m_day)
                    m_day = _month_end(m_day.year, m_day.month + 1)
                if status == "active":
                    if trade_level > passed_upto + 1 and trade != "concrete":
                        months_list = months_list[-rng.randint(0, 1):] if rng.random() < 0.3 else []
                    else:
                        months_list = months_list[-rng.randint(1, 5):]
                    target = rng.uniform(0.3, 0.85) if months_list else 0.0
                else:
                    months_list = months_list[-rng.randint(1, 3):] if months_list else []
                    target = 1.0
                billed = 0.0
                number = 0
                for mi, pe in enumerate(months_list):
                    portion = amount * target / len(months_list)
                    amt = _money(round(portion * rng.uniform(0.7, 1.3)) if mi < len(months_list) - 1 or status == "active"
                                 else amount * target - billed)
                    if amt <= 0 or billed + amt > amount:
                        amt = _money(amount * target - billed)
                    if amt <= 0:
                        continue
                    number += 1
                    ret = _retainage(amt, pct, billed, amount)
                    billed = _money(billed + amt)
                    sub_on = pe + timedelta(days=rng.randint(1, 6))
                    paid_on = sub_on + timedelta(days=rng.randint(20, 28))
                    paid = paid_on < TODAY
                    paid_on = min(paid_on, TODAY - timedelta(days=1))
                    pa_id = f"PA-{num}-{code}-{number:02d}"
                    net = _money(amt - ret)
                    db["pay_apps"][pa_id] = {"pay_app_id": pa_id, "subcontract_id": scid, "number": number, "period_end": _d(pe),
                                             "amount_billed": amt, "retainage_withheld": ret, "net_due": net,
                                             "status": "paid" if paid else "approved", "submitted_on": _d(sub_on),
                                             "approved_on": _d(min(sub_on + timedelta(days=rng.randint(5, 12)), TODAY)),
                                             "paid_on": _d(paid_on) if paid else None}
                    sub = db["subcontractors"][sub_id]
                    signer = f"{sub['contact_first_name']} {sub['contact_last_name']}"
                    if mi >= len(months_list) - 1:
                        for wt in (["conditional_progress", "unconditional_progress"] if paid else ["conditional_progress"]):
                            wid = f"LW-{num}-{code}-{number:02d}{'C' if wt.startswith('cond') else 'U'}"
                            db["lien_waivers"][wid] = {"waiver_id": wid, "subcontract_id": scid, "pay_app_id": pa_id, "waiver_type": wt,
                                                       "amount": net, "through_date": _d(pe), "signed_by": signer,
                                                       "uploaded_on": _d(sub_on if wt.startswith("cond") else paid_on),
                                                       "status": "accepted", "review_note": ""}
                # March 2026, the period just closed
                if status == "active" and billed and rng.random() < 0.6:
                    pe = date(2026, 3, 31)
                    amt = _money(round(amount * rng.uniform(0.06, 0.2)))
                    if billed + amt > amount:
                        continue
                    number += 1
                    ret = _retainage(amt, pct, billed, amount)
                    net = _money(amt - ret)
                    pa_id = f"PA-{num}-{code}-{number:02d}"
                    approved = rng.random() < 0.6
                    sub_on = date(2026, 4, rng.randint(1, 7))
                    db["pay_apps"][pa_id] = {"pay_app_id": pa_id, "subcontract_id": scid, "number": number, "period_end": _d(pe),
                                             "amount_billed": amt, "retainage_withheld": ret, "net_due": net,
                                             "status": "approved" if approved else "submitted", "submitted_on": _d(sub_on),
                                             "approved_on": _d(sub_on + timedelta(days=rng.randint(3, 5))) if approved else None,
                                             "paid_on": None}
                    roll = rng.random()
                    if approved and roll < 0.85:
                        sub = db["subcontractors"][sub_id]
                        wrong = roll >= 0.62
                        amount_shown = _money(amt if rng.random() < 0.5 else net + rng.choice([100, 1000, -90])) if wrong else net
                        wid = f"LW-{num}-{code}-{number:02d}C"
                        db["lien_waivers"][wid] = {"waiver_id": wid, "subcontract_id": scid, "pay_app_id": pa_id,
                                                   "waiver_type": "conditional_progress", "amount": amount_shown,
                                                   "through_date": _d(pe), "signed_by": f"{sub['contact_first_name']} {sub['contact_last_name']}",
                                                   "uploaded_on": _d(TODAY - timedelta(days=rng.randint(1, 4))), "status": "uploaded",
                                                   "review_note": ""}

            # incidents
            if status == "active":
                for _ in range(rng.choices([0, 1, 2], [0.6, 0.3, 0.1])[0]):
                    cat = rng.choice(list(INCIDENT_TEXT))
                    occ = TODAY - timedelta(days=rng.randint(8, 120))
                    filed = occ + timedelta(days=rng.randint(0, 1))
                    key = f"INC-{num}-{occ.strftime('%m%d')}"
                    if key in db["incidents"]:
                        continue
                    scs = [s for s in db["subcontracts"].values() if s["project_id"] == pid]
                    db["incidents"][key] = {"incident_id": key, "project_id": pid,
                                            "reported_by": rng.choice(scs)["sub_id"] if scs else owner["owner_id"], "category": cat,
                                            "occurred_on": _d(occ), "occurred_at": f"{rng.randint(7, 16):02d}:{rng.choice(['05', '20', '35', '50'])}",
                                            "injured_persons": 1 if cat in ("first_aid", "recordable_injury") else 0,
                                            "description": rng.choice(INCIDENT_TEXT[cat]), "filed_on": _d(filed),
                                            "follow_up_due": _d(_workdays(filed, 3 if cat == "recordable_injury" else 5)),
                                            "status": "closed"}

    ConstructionDB.model_validate(db)
    return db


if __name__ == "__main__":
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(dump_db(generate()))
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")
