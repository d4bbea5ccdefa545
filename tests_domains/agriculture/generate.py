"""Seeded generator of the Prairie Gold Cooperative database.

    python -m tests_domains.agriculture.generate
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db

TODAY = date(2026, 10, 14)
FIRST = ["Dale", "Karen", "Brent", "Lori", "Wayne", "Sheila", "Curtis", "Marlys", "Gene", "Janelle", "Roger", "Tami",
         "Duane", "Rhonda", "Kurt", "Brenda", "Lyle", "Deb", "Travis", "Kayla", "Cody", "Megan", "Arlen", "Joyce",
         "Nate", "Heidi", "Loren", "Carla", "Dwight", "Paula", "Mitch", "Renee", "Jared", "Amber", "Orville", "Gail"]
LAST = ["Hoffmann", "Lindqvist", "Brandt", "Vander Wal", "Kruse", "Olson", "Steffen", "Meyer", "Jorgensen", "Schutte",
        "Bergstrom", "Huisman", "Ostrander", "Friedrichs", "Nygaard", "Dykstra", "Rasmussen", "Thiele", "Wendt",
        "Pedersen", "Gruber", "Halvorson", "Kleinschmidt", "Mulder", "Sorensen", "Engstrom", "Boeckman", "Tjaden"]
COUNTIES = [("Sioux", "IA", "512"), ("Lyon", "IA", "512"), ("O'Brien", "IA", "512"), ("Plymouth", "IA", "510"),
            ("Rock", "MN", "561"), ("Nobles", "MN", "561"), ("Pipestone", "MN", "561"), ("Cherokee", "IA", "510")]
FIELD_NAMES = ["North 80", "South Quarter", "Home Place", "Creek Bottom", "East 40", "West Forty", "Schoolhouse Field",
               "River Flat", "Hilltop 60", "Dad's Place", "Grove Field", "Railroad 80", "Church Quarter", "Pasture Break"]
LENDERS = ["Farm Credit Services of America", "First Dakota National Bank", "Iowa State Bank", "Northwest Bank"]
PRODUCTS: list[tuple[str, str, str, list[str], str, float, bool, int | None, int | None]] = [
    ("SD-C108", "Pioneer-type Hybrid Corn 108-day", "seed", ["corn"], "bag (80k kernels)", 289.0, False, None, None),
    ("SD-C104", "Hybrid Corn 104-day Treated", "seed", ["corn"], "bag (80k kernels)", 274.5, False, None, None),
    ("SD-C102O", "Organic Hybrid Corn 102-day (untreated)", "seed", ["corn"], "bag (80k kernels)", 318.0, True, None, None),
    ("SD-S22", "Soybean 2.2 RM Enlist E3", "seed", ["soybeans"], "unit (140k seeds)", 61.75, False, None, None),
    ("SD-S19", "Soybean 1.9 RM XtendFlex", "seed", ["soybeans"], "unit (140k seeds)", 58.4, False, None, None),
    ("SD-S20O", "Organic Soybean 2.0 RM (untreated)", "seed", ["soybeans"], "unit (140k seeds)", 72.25, True, None, None),
    ("SD-W11", "Hard Red Winter Wheat", "seed", ["wheat"], "bushel", 21.8, False, None, None),
    ("SD-W12O", "Organic Hard Red Winter Wheat", "seed", ["wheat"], "bushel", 26.4, True, None, None),
    ("FT-UAN32", "UAN 32% Liquid Nitrogen", "fertilizer", ["corn", "wheat"], "ton", 412.0, False, None, None),
    ("FT-AA82", "Anhydrous Ammonia 82-0-0", "fertilizer", ["corn", "wheat"], "ton", 745.0, False, None, None),
    ("FT-MAP", "MAP 11-52-0", "fertilizer", ["corn", "soybeans", "wheat"], "ton", 788.0, False, None, None),
    ("FT-POT", "Potash 0-0-60", "fertilizer", ["corn", "soybeans", "wheat"], "ton", 392.0, False, None, None),
    ("FT-MAN", "Composted Poultry Manure 4-3-2", "fertilizer", ["corn", "soybeans", "wheat"], "ton", 58.0, True, None, None),
    ("FT-GYP", "Mined Gypsum", "fertilizer", ["corn", "soybeans", "wheat"], "ton", 46.5, True, None, None),
    ("FT-FISH", "Hydrolyzed Fish Fertilizer 2-4-0.5", "fertilizer", ["corn", "soybeans", "wheat"], "gallon", 14.9, True, None, None),
    ("HB-GLY", "Glyphosate 5.5 lb", "herbicide", ["corn", "soybeans", "wheat"], "gallon", 28.5, False, 14, 0),
    ("HB-ATZ", "Atrazine 4L", "herbicide", ["corn"], "gallon", 19.75, False, 60, 66),
    ("HB-DIC", "Dicamba DGA Premix", "herbicide", ["soybeans", "corn"], "gallon", 54.0, False, 45, 240),
    ("HB-VIN", "Horticultural Vinegar 20%", "herbicide", ["corn", "soybeans", "wheat"], "gallon", 11.25, True, 0, 0),
    ("FG-AZX", "Azoxystrobin + Propiconazole", "fungicide", ["corn", "soybeans", "wheat"], "gallon", 176.0, False, 30, 25),
    ("FG-TEB", "Tebuconazole 3.6F", "fungicide", ["wheat", "soybeans"], "gallon", 62.0, False, 30, 0),
    ("FG-CU", "Copper Hydroxide 46%", "fungicide", ["corn", "soybeans", "wheat"], "pound", 6.4, True, 0, 0),
    ("IN-LCY", "Lambda-Cyhalothrin 1EC", "insecticide", ["corn", "soybeans", "wheat"], "gallon", 92.0, False, 21, 150),
    ("IN-CHL", "Chlorpyrifos 4E", "insecticide", ["corn", "soybeans"], "gallon", 48.0, False, 28, 100),
    ("IN-BT", "Bacillus thuringiensis WP", "insecticide", ["corn", "soybeans"], "pound", 18.3, True, 0, 0),
    ("IN-PYR", "Pyrethrin Botanical 5%", "insecticide", ["corn", "soybeans", "wheat"], "gallon", 138.0, True, 3, 25),
    ("DS-PQT", "Paraquat 3SL Harvest Aid", "desiccant", ["soybeans"], "gallon", 33.0, False, 15, 50),
    ("DS-SAF", "Saflufenacil Harvest Aid", "desiccant", ["soybeans", "wheat"], "ounce", 1.85, False, 3, 0),
]
WEATHER = {"hail": "Hail up to {s} inch diameter along a {w}-mile swath", "windstorm": "Straight-line winds gusting to {g} mph",
           "flood": "{r} inches of rain in 24 hours; bottomland under water", "early_frost": "Low of {t} F before maturity"}


def _d(d: date) -> str:
    return d.isoformat()


def joined(born: date, year: int, month: int, day: int) -> date:
    """When a member joined: a drawn date, moved to a year they were an adult in (a member is 18 or older)."""
    if (year - born.year - ((month, day) < (born.month, born.day))) < 18:
        year = born.year + 18 + year % 7 + 1
    return date(year, month, day)


def generate(seed: int = 20261014) -> dict[str, Any]:
    rng = random.Random(seed)
    db: dict[str, dict[str, Any]] = {k: {} for k in ["members", "fields", "weather_events", "products", "orders", "claims",
                                                      "grain_tickets", "settlements", "storage_contracts", "spray_records",
                                                      "cash_bids"]}
    db["cash_bids"] = {
        "corn": {"crop": "corn", "price_per_bushel": 4.12, "base_moisture": 15.0, "base_test_weight": 56.0},
        "soybeans": {"crop": "soybeans", "price_per_bushel": 10.37, "base_moisture": 13.0, "base_test_weight": 54.0},
        "wheat": {"crop": "wheat", "price_per_bushel": 5.68, "base_moisture": 13.5, "base_test_weight": 60.0},
    }
    for sku, name, cat, crops, unit, price, org, phi, buf in PRODUCTS:
        db["products"][sku] = {"sku": sku, "name": name, "category": cat, "crops": crops, "unit": unit, "unit_price": price,
                               "organic_approved": org, "phi_days": phi, "buffer_ft": buf}
    events_by_county: dict[str, list[dict[str, Any]]] = {}
    for county, state, _z in COUNTIES:
        events = []
        for _ in range(rng.randint(5, 8)):
            kind = rng.choice(["hail", "hail", "windstorm", "flood", "early_frost"])
            when = TODAY - timedelta(days=rng.randint(1, 70))
            eid = f"WX-{state}-{county[:3].upper().replace(chr(39), '')}-{when.strftime('%m%d')}{kind[0].upper()}"
            if eid in db["weather_events"]:
                continue
            desc = WEATHER[kind].format(s=rng.choice(["1", "1.25", "1.75", "2"]), w=rng.randint(3, 14), g=rng.randint(62, 88),
                                        r=rng.choice(["4.2", "5.1", "6.3"]), t=rng.randint(26, 30))
            ev = {"event_id": eid, "county": county, "state": state, "kind": kind, "event_date": _d(when), "description": desc}
            db["weather_events"][eid] = ev
            events.append(ev)
        events_by_county[county] = events
    used_names: set[tuple[str, str]] = set()
    used_emails: set[str] = set()
    for i in range(340):
        while True:
            first, last = rng.choice(FIRST), rng.choice(LAST)
            if (first, last) not in used_names:
                break
            first = ""
        used_names.add((first, last))
        county, state, zip3 = rng.choice(COUNTIES)
        num = f"{40100 + i * 7 + rng.randint(0, 6)}"
        dob = date(rng.randint(1951, 1994), rng.randint(1, 12), rng.randint(1, 28))
        email = f"{first.lower()}.{last.lower().replace(' ', '')}@{rng.choice(['gmail.com', 'midco.net', 'frontiernet.net', 'outlook.com'])}"
        if email in used_emails:
            email = email.replace("@", f"{rng.randint(2, 99)}@")
        used_emails.add(email)
        hold = rng.random() < 0.08
        member = {"member_number": num, "first_name": first, "last_name": last,
                  "farm_name": f"{last} {rng.choice(['Farms', 'Family Farm', 'Acres', 'Grain', 'Land & Cattle'])}",
                  "date_of_birth": _d(dob), "email": email, "phone": f"({zip3}) 555-{rng.randint(1000, 9999)}", "county": county,
                  "state": state, "zip": f"{zip3}{rng.randint(10, 99)}",
                  "member_since": _d(joined(dob, rng.randint(1978, 2024), rng.randint(1, 12), rng.randint(1, 28))),
                  "credit_limit": float(rng.choice([25000, 40000, 50000, 75000, 100000, 150000])),
                  "account_status": "credit_hold" if hold else "active",
                  "lien_holder": rng.choice(LENDERS) if rng.random() < 0.15 else None}
        db["members"][num] = member
        fields: list[dict[str, Any]] = []
        for j in range(rng.randint(2, 4)):
            crop = rng.choice(["corn", "corn", "soybeans", "soybeans", "wheat"])
            cert = rng.choices(["conventional", "transitional", "organic"], [0.8, 0.08, 0.12])[0]
            fid = f"F-{num}-{j + 1}"
            harvest = TODAY + timedelta(days=rng.randint(4, 40)) if crop != "wheat" else date(2027, 7, rng.randint(8, 25))
            insured = rng.random() < 0.8
            field = {"field_id": fid, "member_number": num, "name": FIELD_NAMES[(i + j * 5) % len(FIELD_NAMES)], "county": county,
                     "state": state, "acres": float(rng.choice([38.5, 40, 62.3, 78.9, 80, 117.4, 152.6, 160, 240])), "crop": crop,
                     "certification": cert, "setback_ft": rng.choice([0, 25, 50, 100, 150, 300]), "planned_harvest": _d(harvest),
                     "insured": insured, "policy_number": f"MPCI-{state}-{rng.randint(100000, 999999)}" if insured else None}
            db["fields"][fid] = field
            fields.append(field)
        # input orders for the 2027 season
        for k in range(rng.randint(0, 3)):
            f = rng.choice(fields)
            cands = [p for p in PRODUCTS if f["crop"] in p[3] and (p[6] or f["certification"] == "conventional")
                     and p[2] in ("seed", "fertilizer", "herbicide")]
            lines: list[dict[str, Any]] = []
            for p in rng.sample(cands, min(len(cands), rng.randint(1, 3))):
                qty = rng.randint(4, 60) if p[2] == "seed" else rng.randint(2, 30)
                lines.append({"sku": p[0], "quantity": qty, "unit_price": p[5], "amount": round(qty * p[5], 2)})
            placed = TODAY - timedelta(days=rng.randint(2, 90))
            start = TODAY + timedelta(days=rng.randint(-20, 45))
            status = "delivered" if start < TODAY - timedelta(days=5) else rng.choice(["open", "open", "open", "cancelled"])
            oid = f"IO-{num}-{placed.strftime('%y%m%d')}{k}"
            db["orders"][oid] = {"order_id": oid, "member_number": num, "field_id": f["field_id"], "lines": lines,
                                 "total": round(sum(x["amount"] for x in lines), 2), "placed_on": _d(placed),
                                 "delivery_start": _d(start), "delivery_end": _d(start + timedelta(days=rng.choice([3, 5, 7]))),
                                 "status": status}
        # grain tickets from this harvest
        stored: list[dict[str, Any]] = []
        for _k in range(rng.randint(1, 5)):
            f = rng.choice([x for x in fields if x["crop"] != "wheat"] or fields)
            crop = f["crop"]
            base_m = {"corn": 15.0, "soybeans": 13.0, "wheat": 13.5}[crop]
            base_tw = {"corn": 56.0, "soybeans": 54.0, "wheat": 60.0}[crop]
            when = TODAY - timedelta(days=rng.randint(0, 40)) if crop != "wheat" else date(2026, 7, rng.randint(10, 28))
            tn = f"{rng.randint(100000, 999999)}"
            while tn in db["grain_tickets"]:
                tn = f"{rng.randint(100000, 999999)}"
            status = rng.choice(["unpriced", "unpriced", "settled", "stored"])
            ticket: dict[str, Any] = {"ticket_number": tn, "member_number": num, "field_id": f["field_id"], "crop": crop, "delivered_on": _d(when),
                      "net_bushels": round(rng.uniform(380, 1050), 1),
                      "moisture_percent": round(base_m + rng.choice([-1.2, -0.4, 0.0, 0.6, 1.8, 2.9, 4.3, 6.1]), 1),
                      "test_weight": round(base_tw + rng.choice([-3.5, -1.5, -0.5, 0.0, 0.5, 1.0]), 1), "status": status,
                      "settlement_id": None, "storage_contract_id": None}
            if status == "settled":
                sid = f"ST-{tn}"
                ticket["settlement_id"] = sid
                gross = round(ticket["net_bushels"] * 4.0, 2)
                db["settlements"][sid] = {"settlement_id": sid, "member_number": num, "ticket_numbers": [tn],
                                          "storage_contract_id": None, "gross": gross, "discounts": 0.0, "storage_fees": 0.0,
                                          "net_payment": gross, "paid_on": _d(min(when + timedelta(days=1), TODAY))}
            if status == "stored":
                stored.append(ticket)
            db["grain_tickets"][tn] = ticket
        # a field that delivered grain this fall is being harvested: its harvest began with its first load
        for f in fields:
            loads = [t["delivered_on"] for t in db["grain_tickets"].values() if t["field_id"] == f["field_id"]]
            if loads and f["crop"] != "wheat":
                f["planned_harvest"] = min(f["planned_harvest"], *loads)
        if stored:
            crop = stored[0]["crop"]
            same = [t for t in stored if t["crop"] == crop]
            start = min(date.fromisoformat(t["delivered_on"]) for t in same)
            cid = f"SC-{num}-{crop[:4].upper()}"
            for t in same:
                t["storage_contract_id"] = cid
            for t in stored:
                if t not in same:
                    t["status"] = "unpriced"
            db["storage_contracts"][cid] = {
                "contract_id": cid, "member_number": num, "crop": crop,
                "bushels": round(sum(t["net_bushels"] for t in same), 1), "start_date": _d(start),
                "rate_per_bushel_month": rng.choice([0.035, 0.04, 0.045]), "status": "open",
                "pledged_to": member["lien_holder"] or (rng.choice(LENDERS) if rng.random() < 0.1 else None),
                "ticket_numbers": [t["ticket_number"] for t in same]}
        # spray history
        for f in fields:
            for _ in range(rng.randint(1, 3)):
                ok = [p for p in PRODUCTS if p[7] is not None and f["crop"] in p[3] and (p[6] or f["certification"] == "conventional")]
                p = rng.choice(ok)
                when = date(2026, rng.randint(5, 9), rng.randint(1, 28))
                # a label's pre-harvest interval is kept: the spray went on early enough for this season's harvest
                latest = date.fromisoformat(f["planned_harvest"]) - timedelta(days=p[7] or 0)
                if when > latest and latest.year == when.year:
                    when = latest - timedelta(days=when.day % 10)
                rid = f"SP-{f['field_id']}-{when.strftime('%m%d')}"
                db["spray_records"][rid] = {"record_id": rid, "member_number": num, "field_id": f["field_id"], "sku": p[0],
                                            "application_date": _d(when), "acres": f["acres"],
                                            "applied_by": rng.choice(["coop", "member"]),
                                            "earliest_harvest": _d(when + timedelta(days=p[7] or 0)), "notes": ""}
        # claims already on file
        for f in fields:
            if f["insured"] and rng.random() < 0.12 and events_by_county[county]:
                ev = rng.choice(events_by_county[county])
                cid = f"CL-{f['field_id']}-{ev['event_id'][-5:]}"
                db["claims"][cid] = {"claim_id": cid, "member_number": num, "field_id": f["field_id"], "event_id": ev["event_id"],
                                     "reported_on": _d(date.fromisoformat(ev["event_date"]) + timedelta(days=rng.randint(1, 4))),
                                     "estimated_loss_percent": rng.choice([10, 15, 20, 30, 45]),
                                     "description": "Reported at the desk.", "status": rng.choice(["reported", "adjuster_assigned"])}
    return db


if __name__ == "__main__":
    out = Path(__file__).resolve().parents[2] / "fixtures" / "agriculture" / "db.json"
    out.write_bytes(dump_db(generate()))
