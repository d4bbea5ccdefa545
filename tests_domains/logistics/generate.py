"""Seeded generator for the Meridian Parcel shipper desk DB.

    python -m tests_domains.logistics.generate            # writes fixtures/logistics/db.json
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from pytest_tau.invariants import dialable_area_code, half_up
from tests_domains.logistics.schema import LogisticsDB

SEED = 6100
TODAY = date(2026, 6, 10)  # a Wednesday
OUT = Path(__file__).parents[2] / "fixtures" / "logistics" / "db.json"
Rec = dict[str, Any]

FIRST = [
    "Adaeze", "Bram", "Cosima", "Dariusz", "Elowen", "Fabian", "Gwendolyn", "Hamza", "Isolde", "Jasper", "Keziah", "Lorcan",
    "Mirela", "Niamh", "Orrin", "Paloma", "Quincy", "Rhiannon", "Soren", "Tamsin", "Ugo", "Verity", "Wyatt", "Xiomara",
    "Yusuf", "Zora", "Anouk", "Barnaby", "Catalina", "Dov", "Esme", "Florin", "Greer", "Hugo", "Imogen", "Joaquin",
    "Kalani", "Lennox", "Marguerite", "Nikolai", "Odette", "Pascal", "Rafferty", "Saoirse", "Thiago", "Ulrike", "Vikram",
    "Winona", "Yara", "Zeke", "Agnieszka", "Bertrand", "Cleo", "Desmond", "Elif", "Ferdinand",
]
LAST = [
    "Ashworth", "Belmonte", "Chikwanha", "Drummond", "Eberhardt", "Fairbanks", "Goncalves", "Halvorsen", "Iwasaki",
    "Jovanovic", "Kowalczyk", "Laurier", "Mwangi", "Nordstrom", "Ostrowski", "Prendergast", "Quarshie", "Rutherford",
    "Szabo", "Trevino", "Uchenna", "Vandermeer", "Whitcombe", "Xu", "Yilmaz", "Zamora", "Albrecht", "Brathwaite",
    "Cardenas", "Delacroix", "Esposito", "Fitzgerald", "Grimaldi", "Hartigan", "Ibarra", "Kastner", "Lockhart", "Moreau",
    "Nakamura", "Oyelaran", "Pemberton", "Rosenthal", "Stavros", "Thornbury", "Villeneuve", "Wainwright", "Zielke",
]
CO_A = ["Bluefin", "Copperleaf", "Driftwood", "Evergreen", "Foxglove", "Granite", "Harbor", "Ironbark", "Juniper", "Kestrel",
        "Larkspur", "Marigold", "Northwind", "Oakhollow", "Pinecone", "Quarry", "Redwing", "Saltmarsh", "Thimble", "Umber",
        "Verdant", "Willowbrook", "Yellowtail", "Zephyr", "Amberline", "Birchwood", "Cinder", "Dovetail"]
CO_B = ["Candle Co.", "Outfitters", "Ceramics", "Apothecary", "Tea Traders", "Bike Works", "Bookbinders", "Goods",
        "Textiles", "Coffee Roasters", "Toy Company", "Pet Supply", "Hardware", "Audio", "Leatherworks", "Botanicals",
        "Kitchenware", "Surf Shop", "Print Studio", "Supply Co."]
STREETS = ["Maple Ave", "Cedar St", "Harbor Blvd", "Industrial Pkwy", "Mill Rd", "Lakeview Dr", "Commerce Way", "Elm St",
           "Ridge Rd", "Station St", "Orchard Ln", "Union Ave", "Foundry Rd", "Canal St", "Prospect Ave", "Willow Ct"]
# (id, name, city, state, zip prefix) -- the carrier's warehouses double as the delivery facilities of their state
WAREHOUSES = [
    ("WH-PDX", "Portland Gateway", "Portland", "OR", "972"), ("WH-SEA", "Seattle Harborview", "Seattle", "WA", "981"),
    ("WH-OAK", "Oakland Bayside", "Oakland", "CA", "946"), ("WH-PHX", "Phoenix Sky Harbor", "Phoenix", "AZ", "850"),
    ("WH-DEN", "Denver Front Range", "Denver", "CO", "802"), ("WH-DAL", "Dallas Trinity", "Dallas", "TX", "752"),
    ("WH-CHI", "Chicago Calumet", "Chicago", "IL", "606"), ("WH-ATL", "Atlanta Southside", "Atlanta", "GA", "303"),
    ("WH-CLT", "Charlotte Piedmont", "Charlotte", "NC", "282"), ("WH-PHL", "Philadelphia Navy Yard", "Philadelphia", "PA", "191"),
    ("WH-BOS", "Boston Seaport", "Boston", "MA", "022"), ("WH-MSP", "Minneapolis Northstar", "Minneapolis", "MN", "554"),
]
TOWNS = {
    "OR": ["Portland", "Salem", "Eugene", "Bend"], "WA": ["Seattle", "Tacoma", "Spokane", "Olympia"],
    "CA": ["Oakland", "Sacramento", "San Jose", "Fresno"], "AZ": ["Phoenix", "Tucson", "Mesa", "Flagstaff"],
    "CO": ["Denver", "Boulder", "Aurora", "Fort Collins"], "TX": ["Dallas", "Austin", "Fort Worth", "Plano"],
    "IL": ["Chicago", "Evanston", "Naperville", "Peoria"], "GA": ["Atlanta", "Savannah", "Athens", "Macon"],
    "NC": ["Charlotte", "Raleigh", "Durham", "Asheville"], "PA": ["Philadelphia", "Pittsburgh", "Allentown", "Erie"],
    "MA": ["Boston", "Cambridge", "Worcester", "Salem"], "MN": ["Minneapolis", "St. Paul", "Duluth", "Rochester"],
}
ZIP3 = {w[3]: w[4] for w in WAREHOUSES}
# code, name, transit business days, guaranteed, base, per lb, redirect base, redirect per lb, cross-state, redelivery
SERVICES = [
    ("ECONOMY", "Meridian Economy", 6, False, 7.45, 0.52, 11.40, 0.31, 8.65, 6.35),
    ("GROUND", "Meridian Ground", 4, False, 9.85, 0.68, 12.90, 0.36, 9.80, 7.15),
    ("EXPRESS2", "Meridian 2-Day Express", 2, True, 18.40, 1.27, 15.75, 0.44, 12.35, 8.90),
    ("OVERNIGHT", "Meridian Overnight", 1, True, 31.60, 2.14, 19.20, 0.58, 16.10, 11.45),
]
SKU_ITEMS = ["Soy Candle 8oz", "Ceramic Mug", "Linen Tea Towel", "Bike Bell", "Leather Journal", "Loose-Leaf Tea Tin",
             "Bamboo Cutting Board", "Wool Beanie", "Enamel Pin Set", "Cotton Tote", "Hand Cream 50ml", "Wireless Earbuds",
             "Dog Leash", "Cast Iron Skillet", "Surf Wax Pack", "Art Print A3", "Beeswax Wraps", "Plant Pot Small",
             "Bluetooth Speaker", "Notebook Set", "Coffee Beans 1lb", "Puzzle 1000pc", "Yoga Strap", "Glass Carafe"]
DAMAGE_NOTES = ["Box crushed on one corner, glassware inside broken.", "Outer carton torn, two items cracked.",
                "Water damage across the bottom of the box.", "Contents shattered; packaging dented in transit.",
                "Item arrived bent; box had a puncture.", "Screen cracked, box showed impact marks."]


def bday_add(d: date, n: int) -> date:
    while n > 0:
        d += timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d


def bday_back(d: date, n: int) -> date:
    while n > 0:
        d -= timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d


def money(x: float) -> float:
    return float(half_up(x))  # half a cent up, as the desk's tools compute


def generate() -> dict[str, Any]:
    rng = random.Random(SEED)
    services: dict[str, Rec] = {
        c: {"code": c, "name": n, "transit_business_days": t, "guaranteed": g, "base_rate": b, "rate_per_lb": p,
            "redirect_base": rb, "redirect_per_lb": rp, "cross_state_surcharge": cs, "redelivery_fee": rd}
        for c, n, t, g, b, p, rb, rp, cs, rd in SERVICES
    }
    warehouses: dict[str, Rec] = {}
    for wid, name, city, state, z3 in WAREHOUSES:
        warehouses[wid] = {
            "warehouse_id": wid, "name": name, "street": f"{rng.randint(100, 9800)} {rng.choice(STREETS)}", "city": city,
            "state": state, "zip": f"{z3}{rng.randint(10, 99)}", "phone": f"+1-{dialable_area_code(rng.randint(201, 989))}-555-{rng.randint(1000, 9999)}",
            "pickup_hours": rng.choice(["Mon-Fri 08:00-19:00", "Mon-Sat 09:00-18:00", "Mon-Fri 07:30-20:00"]),
        }
    states = sorted(TOWNS)

    def address() -> Rec:
        st = rng.choice(states)
        return {"street": f"{rng.randint(10, 9999)} {rng.choice(STREETS)}", "city": rng.choice(TOWNS[st]), "state": st,
                "zip": f"{ZIP3[st]}{rng.randint(10, 99)}"}

    shippers: dict[str, Rec] = {}
    used_companies: set[str] = set()
    used_emails: set[str] = set()
    while len(shippers) < 270:
        company = f"{rng.choice(CO_A)} {rng.choice(CO_B)}"
        if company in used_companies:
            continue
        first, last = rng.choice(FIRST), rng.choice(LAST)
        domain = company.lower().replace(" co.", "").replace(".", "").replace(" ", "") + ".com"
        email = f"{first.lower()}.{last.lower()}@{domain}"
        if email in used_emails:
            continue
        used_companies.add(company)
        used_emails.add(email)
        sid = f"SH{40100 + len(shippers) * 7 + rng.randint(0, 6)}"
        hold = rng.random() < 0.1
        shippers[sid] = {
            "shipper_id": sid, "company": company, "contact_first_name": first, "contact_last_name": last, "email": email,
            "phone": f"+1-{dialable_area_code(rng.randint(201, 989))}-{rng.randint(200, 989)}-{rng.randint(1000, 9999)}", "billing_address": address(),
            "tier": "preferred" if rng.random() < 0.25 else "standard", "standing": "credit_hold" if hold else "good",
            "past_due_balance": money(rng.uniform(180, 2400)) if hold else 0.0,
            "account_opened": (TODAY - timedelta(days=rng.randint(120, 3000))).isoformat(),
        }

    shipments: dict[str, Rec] = {}
    charges: dict[str, Rec] = {}
    claims: dict[str, Rec] = {}
    statuses = ["delivered"] * 44 + ["in_transit"] * 15 + ["picked_up"] * 6 + ["label_created"] * 8 + \
        ["out_for_delivery"] * 7 + ["delivery_exception"] * 13 + ["held_at_facility"] * 3 + ["returning"] * 2
    for sid in shippers:
        origin = rng.choice(list(warehouses.values()))
        refs: set[str] = set()
        for _ in range(rng.randint(3, 9)):
            ref = f"{rng.choice(['PO', 'ORD', 'SO'])}-{rng.randint(10000, 99999)}"
            if ref in refs:
                continue
            refs.add(ref)
            tn = f"MP{rng.randint(10**9, 10**10 - 1)}"
            code = rng.choices(["ECONOMY", "GROUND", "EXPRESS2", "OVERNIGHT"], [2, 5, 3, 1])[0]
            sv = services[code]
            weight = round(rng.uniform(0.6, 48.0), 1)
            declared = 0.0 if rng.random() < 0.3 else float(rng.choice([75, 120, 180, 250, 340, 450, 600, 850, 1200, 1750, 2400, 3200, 4500]))
            status = rng.choice(statuses)
            dest = address()
            fac = next(w for w in warehouses.values() if w["state"] == dest["state"])
            t = sv["transit_business_days"]
            if status == "label_created":
                ship = bday_add(TODAY, rng.randint(0, 2))
            elif status == "picked_up":
                ship = TODAY
            elif status == "in_transit":
                ship = bday_back(TODAY, rng.randint(1, t)) if t > 1 else bday_back(TODAY, 1)
            elif status == "out_for_delivery":
                ship = bday_back(TODAY, t)
            elif status == "delivered":
                ship = bday_back(TODAY, rng.randint(t + 1, 55))
            elif status == "delivery_exception":
                ship = bday_back(TODAY, t + 4)
            else:
                ship = bday_back(TODAY, t + rng.randint(7, 12))
            promised = bday_add(ship, t)
            if status == "in_transit" and promised <= TODAY:
                promised = bday_add(TODAY, 1)
            rec: Rec = {
                "tracking_number": tn, "shipper_id": sid, "reference": ref,
                "recipient_name": f"{rng.choice(FIRST)} {rng.choice(LAST)}", "recipient": dest,
                "origin_warehouse_id": origin["warehouse_id"], "destination_facility_id": fac["warehouse_id"],
                "service_code": code, "weight_lb": weight, "declared_value": declared,
                "shipping_charge": money(sv["base_rate"] + sv["rate_per_lb"] * weight),
                "ship_date": ship.isoformat(), "promised_date": promised.isoformat(), "delivered_on": None, "status": status,
                "exception_reason": None, "delivery_attempts": 0, "hold_until": None, "redelivery_date": None,
                "address_changes": 0, "guarantee_refunded": False, "events": [],
            }
            ev = rec["events"]

            def add(d: date, hh: int, code_: str, where: str, detail: str, ev: list[Rec] = ev) -> None:
                if d >= TODAY:  # today's scans are this morning's, before the desk's 10:00
                    d, hh = TODAY, min(hh, 9)
                ev.append({"at": f"{d.isoformat()}T{hh:02d}:{rng.randint(0, 59):02d}", "code": code_, "location": where, "detail": detail})

            ocity = f"{origin['city']}, {origin['state']}"
            fcity = f"{fac['city']}, {fac['state']}"
            add(bday_back(ship, 1) if status != "label_created" else min(ship, TODAY), 11, "label_created", ocity, "Shipping label created")
            if status != "label_created":
                add(ship, rng.randint(15, 18), "picked_up", ocity, f"Picked up at {origin['name']}")
            if status not in ("label_created", "picked_up"):
                add(ship, 21, "departed_hub", ocity, "Departed origin facility")
                arrive = bday_add(ship, max(t - 1, 0)) if t > 1 else ship
                if status == "in_transit":
                    arrive = min(arrive, TODAY - timedelta(days=1)) if arrive >= TODAY else arrive
                    if arrive < ship:
                        arrive = ship
                add(arrive, 23 if arrive == ship else rng.randint(3, 6), "arrived_hub", fcity, f"Arrived at {fac['name']}")
            if status == "out_for_delivery":
                add(TODAY, rng.randint(7, 8), "out_for_delivery", fcity, "Out for delivery")
            if status == "delivered":
                late = (sv["guaranteed"] and rng.random() < 0.3) or rng.random() < 0.12
                day = bday_add(promised, rng.randint(1, 3)) if late else promised
                if day >= TODAY:
                    day = bday_back(TODAY, 1)
                add(day, 7, "out_for_delivery", fcity, "Out for delivery")
                add(day, rng.randint(10, 18), "delivered", f"{dest['city']}, {dest['state']}",
                    rng.choice(["Delivered, front door", "Delivered, left with reception", "Delivered, mailroom", "Delivered, side porch"]))
                rec["delivered_on"] = day.isoformat()
            if status in ("delivery_exception", "held_at_facility", "returning"):
                n = rng.choice([1, 1, 2, 2, 3]) if status == "delivery_exception" else 3 if status == "returning" else rng.randint(1, 2)
                last_try = bday_back(TODAY, rng.choice([0, 1])) if status == "delivery_exception" else bday_back(TODAY, rng.randint(2, 5))
                if status == "returning":
                    last_try = bday_back(TODAY, rng.randint(4, 6))
                days = [last_try]
                for _ in range(n - 1):
                    days.insert(0, bday_back(days[0], 1))
                reason = rng.choice(["recipient_unavailable", "recipient_unavailable", "no_access"])
                for d in days:
                    add(d, 7, "out_for_delivery", fcity, "Out for delivery")
                    add(d, rng.randint(11, 17), "delivery_attempted", f"{dest['city']}, {dest['state']}",
                        "No one available to sign" if reason == "recipient_unavailable" else "Could not access the building")
                rec["delivery_attempts"] = n
                if status == "delivery_exception":
                    rec["exception_reason"] = reason
                    rec["hold_until"] = (last_try + timedelta(days=5)).isoformat()
                elif status == "held_at_facility":
                    rec["hold_until"] = (last_try + timedelta(days=5)).isoformat()
                    add(last_try, 19, "held_for_pickup", fcity, f"Held for pickup at {fac['name']}")
                else:
                    add(min(last_try + timedelta(days=5), TODAY - timedelta(days=1)), 9, "return_to_sender", fcity, "Returning to sender")
            shipments[tn] = rec
            cid = f"CH-{tn}-SHIP"
            charges[cid] = {"charge_id": cid, "shipper_id": sid, "tracking_number": tn, "kind": "shipping",
                            "amount": rec["shipping_charge"], "date": ship.isoformat(), "description": f"{sv['name']} {weight} lb"}
            if status == "delivered" and rng.random() < 0.07:
                claimed = money(rng.uniform(40, 900))
                cap = declared if declared else 100.0
                filed = date.fromisoformat(rec["delivered_on"]) + timedelta(days=rng.randint(1, 12))
                if filed < TODAY:
                    clm = f"CLM-{tn[2:]}"
                    claims[clm] = {"claim_id": clm, "tracking_number": tn, "shipper_id": sid, "amount_claimed": claimed,
                                   "payout": money(min(claimed, cap)), "status": rng.choice(["paid", "paid", "under_review"]),
                                   "filed_date": filed.isoformat(), "description": rng.choice(DAMAGE_NOTES)}

    bins: dict[str, Rec] = {}
    incidents: dict[str, Rec] = {}
    for sid in shippers:
        if rng.random() < 0.35:
            continue
        whs = rng.sample(sorted(warehouses), rng.randint(1, 2))
        for item in rng.sample(SKU_ITEMS, rng.randint(2, 6)):
            wid = rng.choice(whs)
            bid = f"{wid[3:]}-{rng.choice('ABCDEFGH')}{rng.randint(1, 40):02d}-{rng.randint(1, 9)}"
            if bid in bins:
                continue
            sku = f"{shippers[sid]['company'][:3].upper()}-{rng.randint(1000, 9999)}"
            bins[bid] = {"bin_id": bid, "warehouse_id": wid, "shipper_id": sid, "sku": sku, "item_name": item,
                         "quantity": rng.randint(12, 480), "unit_value": money(rng.choice([4.5, 7.25, 11.8, 14.6, 18.9, 23.4, 31.75, 42.0, 57.5, 89.99])),
                         "last_counted": (TODAY - timedelta(days=rng.randint(3, 90))).isoformat()}
            if rng.random() < 0.12:
                kind = rng.choice(["damaged", "missing", "recount_request"])
                units = rng.randint(1, 12)
                inc = f"INC-{bid}-{rng.randint(100, 999)}"
                incidents[inc] = {"incident_id": inc, "bin_id": bid, "shipper_id": sid, "kind": kind, "units": units,
                                  "reported_date": (TODAY - timedelta(days=rng.randint(5, 80))).isoformat(),
                                  "description": "Forklift damage reported by shipper." if kind == "damaged" else "Count below expected.",
                                  "credited": kind != "recount_request"}
    # Accounts Receivable's business credit score (0-300, a small-business scale): accounts on credit hold score
    # low. Its own seed, so the rest of the network stays as it was.
    credit = random.Random(SEED + 1)
    for account in shippers.values():
        account["credit_score"] = credit.randint(112, 158) if account["standing"] == "credit_hold" else credit.randint(160, 288)
    data = {"shippers": shippers, "service_levels": services, "shipments": shipments, "charges": charges, "claims": claims,
            "warehouses": warehouses, "bins": bins, "incidents": incidents}
    LogisticsDB.model_validate(data)
    return data


if __name__ == "__main__":
    OUT.write_bytes(dump_db(generate()))
