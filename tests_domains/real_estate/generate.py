"""Seeded generator for the rentals and sales desk of Larkspur Realty Group (Providence, Rhode Island).

`python -m tests_domains.real_estate.generate` writes fixtures/real_estate/db.json, byte-identical on every run.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db

OUT = Path(__file__).parents[2] / "fixtures" / "real_estate" / "db.json"
NOW = datetime(2026, 6, 10, 10, 0)
TODAY = NOW.date()
CALENDAR_DAYS = 24  # agents' calendars are published this many days ahead

FIRST = ["Adaeze", "Aidan", "Alana", "Amir", "Anjali", "Antonio", "Ava", "Beatrice", "Bilal", "Bridget", "Carlos",
         "Cecilia", "Colm", "Dalia", "Declan", "Delphine", "Devon", "Dmitri", "Elena", "Elijah", "Esme", "Ezra",
         "Farrah", "Fiona", "Gideon", "Giselle", "Hana", "Harvey", "Ibrahim", "Imani", "Iris", "Jasper", "Joaquin",
         "Jocelyn", "Jude", "Kaito", "Keira", "Kofi", "Leila", "Lorenzo", "Lucy", "Magnus", "Marguerite", "Mateus",
         "Maeve", "Milo", "Nadia", "Nasir", "Noor", "Odette", "Orion", "Paloma", "Priyanka", "Quentin", "Rania",
         "Reuben", "Rosalind", "Ruairi", "Saoirse", "Selim", "Silas", "Simone", "Soren", "Tamsin", "Teodor", "Thea",
         "Uriel", "Valeria", "Vikram", "Willa", "Xiomara", "Yara", "Yusuf", "Zara", "Zeke", "Graham", "Honor",
         "Ignatius", "Juniper", "Kwabena", "Lavinia", "Moses", "Nell", "Otis", "Philippa", "Rafferty", "Sunniva"]
LAST = ["Abernathy", "Acosta", "Almeida", "Amaral", "Barboza", "Beaulieu", "Bettencourt", "Brennan", "Cabral",
        "Carvalho", "Castellano", "Cianci", "Costa", "D'Ambrosio", "DaSilva", "Delaney", "DiMarco", "Donnelly",
        "Duarte", "Faria", "Ferreira", "Fontaine", "Gallagher", "Gomes", "Iannotti", "Kaplan", "Kowalczyk",
        "Lachance", "Lavoie", "Lemieux", "Lopes", "Mancini", "Medeiros", "Moniz", "Morin", "Nakashima", "Ng",
        "O'Rourke", "Okonkwo", "Ouellette", "Pacheco", "Paiva", "Pelletier", "Pimentel", "Quinlan", "Raposo",
        "Rezendes", "Rocha", "Russo", "Santos", "Sheehan", "Silveira", "Sousa", "Tavares", "Teixeira", "Thibodeau",
        "Vieira", "Votolato", "Walsh", "Xu", "Yamamoto", "Zambarano", "Haddad", "Mwangi", "Oyelaran", "Reinholt"]
# city -> [(neighborhood, zip, streets)]
AREAS: dict[str, list[tuple[str, str, list[str]]]] = {
    "Providence": [
        ("Fox Point", "02906", ["Wickenden St", "Ives St", "Transit St", "Brook St", "Governor St"]),
        ("Wayland Square", "02906", ["Wayland Ave", "Elmgrove Ave", "Angell St", "Medway St"]),
        ("College Hill", "02906", ["Benefit St", "Thayer St", "Hope St", "Meeting St", "George St"]),
        ("Federal Hill", "02903", ["Atwells Ave", "Broadway", "Dean St", "Spruce St"]),
        ("Downcity", "02903", ["Westminster St", "Weybosset St", "Washington St", "Dorrance St"]),
        ("Armory", "02909", ["Parade St", "Dexter St", "Chapin Ave", "Cranston St"]),
        ("Elmhurst", "02908", ["Smith St", "Eaton St", "Pembroke Ave", "Academy Ave"]),
        ("Mount Pleasant", "02908", ["Chalkstone Ave", "Admiral St", "Mount Pleasant Ave"]),
        ("Blackstone", "02906", ["Blackstone Blvd", "Lloyd Ave", "Cole Ave", "Laurel Ave"]),
        ("Olneyville", "02909", ["Manton Ave", "Valley St", "Plainfield St"]),
    ],
    "Cranston": [
        ("Edgewood", "02905", ["Broad St", "Norwood Ave", "Shaw Ave", "Marion Ave"]),
        ("Garden City", "02920", ["Reservoir Ave", "Hillside Rd", "Midway Rd"]),
        ("Knightsville", "02920", ["Cranston St", "Phenix Ave", "Dyer Ave"]),
    ],
    "Warwick": [
        ("Pawtuxet Village", "02888", ["Post Rd", "Remington St", "Bank St"]),
        ("Apponaug", "02886", ["Centerville Rd", "Veterans Memorial Dr", "Greenwich Ave"]),
        ("Conimicut", "02889", ["West Shore Rd", "Beach Ave", "Shawomet Ave"]),
    ],
    "Pawtucket": [
        ("Oak Hill", "02860", ["Newport Ave", "Armistice Blvd", "Blackstone Ave"]),
        ("Darlington", "02861", ["Pawtucket Ave", "Benefit St", "Daggett Ave"]),
    ],
    "East Providence": [
        ("Rumford", "02916", ["Pawtucket Ave", "Greenwood Ave", "Pleasant St"]),
        ("Riverside", "02915", ["Bullocks Point Ave", "Crescent View Ave", "Willett Ave"]),
    ],
}
OFFICES = ["Wayland Square office, 187 Wayland Ave, Providence", "Garden City office, 70 Hillside Rd, Cranston",
           "Pawtuxet office, 2210 Post Rd, Warwick"]
LENDERS = ["Washington Trust Mortgage", "Citizens Home Loans", "Navigant Credit Union", "BankRI Mortgage",
           "Pawtucket Credit Union", "Bank of America Home Loans", "Centreville Bank"]
EMPLOYERS = ["Rhode Island Hospital", "Brown University", "CVS Health", "Citizens Bank", "Textron", "Hasbro",
             "Lifespan", "Providence Public Schools", "Amica Mutual", "FM Global", "Electric Boat", "Women & Infants Hospital",
             "Johnson & Wales University", "State of Rhode Island", "Gilbane Building Co.", "self-employed (1099)"]
RENT_FEATURES = ["parking", "in_unit_laundry", "shared_laundry", "dishwasher", "central_air", "balcony", "yard",
                 "elevator", "hardwood_floors", "storage", "gym", "doorman", "fireplace"]
SALE_FEATURES = ["garage", "parking", "central_air", "yard", "fireplace", "hardwood_floors", "in_unit_laundry",
                 "waterfront_view", "storage", "balcony", "dishwasher"]


def _d(day: date) -> str:
    return day.isoformat()


def _slot(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def month_end(year: int, month: int) -> date:
    first_next = date(year + (month == 12), month % 12 + 1, 1)
    return first_next - timedelta(days=1)


def generate(seed: int = 20260610) -> dict[str, Any]:
    rng = random.Random(seed)
    agents: dict[str, dict[str, Any]] = {}
    clients: dict[str, dict[str, Any]] = {}
    listings: dict[str, dict[str, Any]] = {}
    tours: dict[str, dict[str, Any]] = {}
    applications: dict[str, dict[str, Any]] = {}
    offers: dict[str, dict[str, Any]] = {}
    leases: dict[str, dict[str, Any]] = {}
    requests: dict[str, dict[str, Any]] = {}
    used_emails: set[str] = set()
    used_names: set[tuple[str, str]] = set()

    def phone() -> str:
        exchange = rng.randint(200, 989)
        exchange += exchange % 100 == 11  # N11 codes (411, 911) are services, never exchanges
        return f"401-{exchange}-{rng.randint(0, 9999):04d}"

    def name() -> tuple[str, str]:
        while True:
            pair = (rng.choice(FIRST), rng.choice(LAST))
            if pair not in used_names:
                used_names.add(pair)
                return pair

    # ---------------- agents and their calendars ----------------
    slot_times: list[datetime] = []
    for offset in range(CALENDAR_DAYS):
        day = TODAY + timedelta(days=offset)
        if day.weekday() == 6:
            continue
        hours = range(10, 14) if day.weekday() == 5 else range(9, 18)
        for h in hours:
            for m in (0, 30):
                moment = datetime(day.year, day.month, day.day, h, m)
                if moment > NOW:
                    slot_times.append(moment)
    for i in range(28):
        first, last = name()
        aid = f"AG-{101 + i}"
        focus = "rentals" if i < 16 else "sales"
        free = sorted(_slot(t) for t in slot_times if rng.random() < 0.32)
        agents[aid] = {"agent_id": aid, "first_name": first, "last_name": last,
                       "email": f"{first[0]}{last}".lower().replace("'", "") + "@larkspurrealty.com", "phone": phone(),
                       "office": OFFICES[i % 3], "focus": focus, "license_number": f"RES.{rng.randint(10000, 99999):07d}",
                       "free_slots": free}
    rental_agents = [a for a in agents if agents[a]["focus"] == "rentals"]
    sale_agents = [a for a in agents if agents[a]["focus"] == "sales"]

    # ---------------- clients ----------------
    for _ in range(960):
        first, last = name()
        cid = f"CL-{40000 + rng.randint(0, 59999)}"
        while cid in clients:
            cid = f"CL-{40000 + rng.randint(0, 59999)}"
        email = f"{first}.{last}".lower().replace("'", "")
        email += rng.choice(["@gmail.com", "@outlook.com", "@yahoo.com", "@icloud.com", "@proton.me", "@cox.net"])
        used_emails.add(email)
        age = rng.randint(22, 71)
        dob = date(2026 - age, rng.randint(1, 12), rng.randint(1, 28))
        area_city = rng.choice(list(AREAS))
        hood, zipc, streets = rng.choice(AREAS[area_city])
        income = round(rng.uniform(2800, 16000), -1) if rng.random() < 0.8 else None
        rec: dict[str, Any] = {
            "client_id": cid, "first_name": first, "last_name": last, "email": email, "phone": phone(),
            "date_of_birth": _d(dob),
            "mailing_address": f"{rng.randint(10, 980)} {rng.choice(streets)}, {area_city}, RI {zipc}",
            "verified_monthly_income": income, "income_source": rng.choice(EMPLOYERS) if income else None,
            "credit_score": rng.choices([rng.randint(540, 619), rng.randint(620, 699), rng.randint(700, 820)], [1, 4, 6])[0]
            if income else None,
            "eviction_record": bool(income) and rng.random() < 0.03,
            "preapproval": None, "proof_of_funds": None,
            "pets_on_file": rng.choice([[], [], [], [], ["cat"], ["dog"], ["cat", "cat"], ["dog", "cat"]]),
        }
        if income and rng.random() < 0.3:
            issued = TODAY - timedelta(days=rng.randint(5, 150))
            rec["preapproval"] = {"lender": rng.choice(LENDERS), "amount": float(round(rng.uniform(250000, 950000), -4)),
                                  "issued_on": _d(issued), "expires_on": _d(issued + timedelta(days=90))}
            if rng.random() < 0.15:
                rec["proof_of_funds"] = float(round(rng.uniform(300000, 900000), -3))
        clients[cid] = rec
    client_ids = sorted(clients)

    # ---------------- listings ----------------
    used_addresses: set[tuple[str, str | None]] = set()

    def address(kind: str, ptype: str) -> tuple[str, str | None, str, str, str]:
        while True:
            city = rng.choices(list(AREAS), [6, 2, 2, 1.5, 1.5])[0]
            hood, zipc, streets = rng.choice(AREAS[city])
            street = f"{rng.randint(8, 1480)} {rng.choice(streets)}"
            unit = None
            if ptype in ("apartment", "condo"):
                unit = rng.choice([f"Unit {rng.randint(1, 6)}", f"Apt {rng.randint(1, 4)}{rng.choice('ABCD')}",
                                   f"#{rng.randint(101, 512)}", rng.choice(["1st Floor", "2nd Floor", "3rd Floor"])])
            if (street, unit) not in used_addresses and (street, None) not in used_addresses:
                used_addresses.add((street, unit))
                return street, unit, city, hood, zipc

    def features(pool: list[str], count: int) -> list[str]:
        chosen = set(rng.sample(pool, count))
        if "in_unit_laundry" in chosen:
            chosen.discard("shared_laundry")
        return sorted(chosen)

    for i in range(430):
        ptype = rng.choices(["apartment", "condo", "townhouse", "single_family", "multi_family"], [10, 3, 2, 1, 2])[0]
        street, unit, city, hood, zipc = address("rental", ptype)
        beds = rng.choices([0, 1, 2, 3, 4], [1, 4, 5, 3, 1])[0] if ptype != "single_family" else rng.choice([3, 4])
        rent = round(950 + beds * 420 + rng.uniform(-150, 650) + (250 if city == "Providence" else 0), -1)
        status = rng.choices(["active", "leased", "off_market"], [52, 44, 4])[0]
        lid = f"RL-{5100 + i}"
        listed = TODAY - timedelta(days=rng.randint(2, 60) if status == "active" else rng.randint(90, 700))
        listings[lid] = {
            "listing_id": lid, "kind": "rental", "status": status, "street": street, "unit": unit, "city": city,
            "state": "RI", "zip": zipc, "neighborhood": hood, "property_type": ptype, "bedrooms": beds,
            "bathrooms": rng.choice([1.0, 1.0, 1.5, 2.0]) if beds < 3 else rng.choice([1.5, 2.0, 2.5]),
            "sqft": int(380 + beds * 310 + rng.randint(-60, 260)), "price": float(rent),
            "features": features(RENT_FEATURES, rng.randint(2, 6)),
            "pet_policy": rng.choices(["no_pets", "cats_only", "cats_and_dogs"], [3, 3, 4])[0],
            "occupied": False,
            "available_from": _d(TODAY + timedelta(days=rng.randint(-10, 40))) if status == "active" else None,
            "hoa_monthly": None, "year_built": rng.choice([rng.randint(1880, 1940), rng.randint(1950, 1995), rng.randint(1996, 2024)]),
            "listing_agent_id": rng.choice(rental_agents), "listed_on": _d(listed),
            "description": f"{'Studio' if beds == 0 else f'{beds}-bedroom'} {ptype.replace('_', '-')} in {hood}",
        }
    for i in range(190):
        ptype = rng.choices(["condo", "townhouse", "single_family", "multi_family"], [4, 2, 6, 2])[0]
        street, unit, city, hood, zipc = address("sale", ptype)
        beds = rng.choice([1, 2, 2, 3]) if ptype == "condo" else rng.choice([2, 3, 3, 4, 5]) if ptype != "multi_family" else rng.choice([4, 6, 8])
        price = round(190000 + beds * 72000 + rng.uniform(-40000, 260000) + (60000 if hood in ("College Hill", "Blackstone", "Wayland Square") else 0), -3)
        status = rng.choices(["active", "pending", "sold", "off_market"], [60, 20, 15, 5])[0]
        lid = f"SL-{7200 + i}"
        listings[lid] = {
            "listing_id": lid, "kind": "sale", "status": status, "street": street, "unit": unit, "city": city,
            "state": "RI", "zip": zipc, "neighborhood": hood, "property_type": ptype, "bedrooms": beds,
            "bathrooms": rng.choice([1.0, 1.5, 2.0, 2.5, 3.0]), "sqft": int(600 + beds * 380 + rng.randint(-100, 700)),
            "price": float(price), "features": features(SALE_FEATURES, rng.randint(2, 6)), "pet_policy": None,
            "occupied": rng.random() < 0.6, "available_from": None,
            "hoa_monthly": float(round(rng.uniform(180, 520))) if ptype in ("condo", "townhouse") else None,
            "year_built": rng.choice([rng.randint(1870, 1940), rng.randint(1950, 1999), rng.randint(2000, 2023)]),
            "listing_agent_id": rng.choice(sale_agents), "listed_on": _d(TODAY - timedelta(days=rng.randint(3, 120))),
            "description": f"{beds}-bedroom {ptype.replace('_', '-')} in {hood}, built {0}",
        }
        listings[lid]["description"] = f"{beds}-bedroom {ptype.replace('_', '-')} in {hood}, built {listings[lid]['year_built']}"

    # ---------------- leases ----------------
    tenant_pool = client_ids[:]
    rng.shuffle(tenant_pool)
    tenant_iter = iter(tenant_pool)
    lease_n = [0]

    def new_lease(listing: dict[str, Any], start: date, end: date, status: str, rent: float) -> dict[str, Any]:
        lease_n[0] += 1
        lsid = f"LS-{26000 + lease_n[0] * 7}"
        primary = next(tenant_iter)
        co = [next(tenant_iter) for _ in range(rng.choices([0, 1, 2], [5, 4, 1])[0])] if listing["bedrooms"] >= 2 else []
        rec = {"lease_id": lsid, "listing_id": listing["listing_id"], "primary_tenant_id": primary, "co_tenant_ids": co,
               "monthly_rent": rent, "security_deposit": rent, "start_date": _d(start), "end_date": _d(end), "status": status,
               "renewal_increase_pct": rng.choice([2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0]),
               "balance_due": 0.0, "move_out_date": None, "notice_given_on": None, "early_termination_fee": None,
               "renewal_of": None, "renewed_by": None}
        leases[lsid] = rec
        return rec

    for lid in sorted(listings):
        lst = listings[lid]
        if lst["kind"] != "rental":
            continue
        if lst["status"] == "leased":
            # the current lease ends within the next year, on a month end
            months_left = rng.choices(range(0, 12), [3, 4, 4, 4, 3, 2, 2, 2, 2, 2, 2, 2])[0]
            y, m = TODAY.year + (TODAY.month - 1 + months_left) // 12, (TODAY.month - 1 + months_left) % 12 + 1
            end = month_end(y, m)
            start = (end + timedelta(days=1)).replace(year=end.year - 1)
            rent = float(round(lst["price"] * rng.uniform(0.93, 1.0), -1))
            lease = new_lease(lst, start, end, "active", rent)
            if rng.random() < 0.09:
                lease["balance_due"] = float(round(rent * rng.choice([0.25, 0.5, 1.0]) + rng.choice([0, 75, 50]), 2))
            if rng.random() < 0.35:  # an earlier, ended lease on the same unit
                old_end = start - timedelta(days=1)
                old = new_lease(lst, old_end.replace(day=1).replace(year=old_end.year - 1) + timedelta(days=0), old_end, "ended",
                                float(round(rent * 0.96, -1)))
                old["move_out_date"] = _d(old_end)
                old["notice_given_on"] = _d(old_end - timedelta(days=rng.randint(61, 90)))
        elif lst["status"] == "active" and rng.random() < 0.4:
            # the current tenant has given notice: the unit is shown while occupied
            end = month_end(TODAY.year, TODAY.month + rng.choice([0, 1]))
            start = (end + timedelta(days=1)).replace(year=end.year - 1)
            lease = new_lease(lst, start, end, "notice_given", float(round(lst["price"] * 0.95, -1)))
            lease["move_out_date"] = _d(end)
            lease["notice_given_on"] = _d(end - timedelta(days=rng.randint(60, 75)))
            lst["occupied"] = True
            lst["available_from"] = _d(end + timedelta(days=1))

    # ---------------- maintenance requests ----------------
    cats = {"plumbing": ["Kitchen sink drains slowly", "Bathroom faucet drips constantly", "Toilet runs after flushing",
                         "Shower has low water pressure"],
            "electrical": ["Outlet in the bedroom stopped working", "Hallway light flickers", "GFCI in the bathroom keeps tripping"],
            "heating_cooling": ["Radiator in living room clanks", "Thermostat display is blank", "AC unit blows warm air"],
            "appliance": ["Dishwasher leaves standing water", "Oven does not heat past 250 degrees", "Fridge ice maker broken"],
            "pest": ["Mice droppings under the sink", "Ants along the kitchen window"],
            "lock_and_security": ["Front door deadbolt sticks", "Mailbox lock broken"],
            "other": ["Window screen torn in bedroom", "Closet door off its track", "Smoke detector chirping"]}
    live = [k for k in sorted(leases) if leases[k]["status"] in ("active", "notice_given")]
    for i in range(620):
        lsid = rng.choice(live)
        lease = leases[lsid]
        cat = rng.choice(sorted(cats))
        created = TODAY - timedelta(days=rng.randint(0, 200))
        status = "completed" if (TODAY - created).days > 21 else rng.choice(["open", "scheduled", "completed"])
        rid = f"MR-{80000 + i * 3}"
        requests[rid] = {"request_id": rid, "lease_id": lsid,
                         "client_id": rng.choice([lease["primary_tenant_id"], *lease["co_tenant_ids"]]), "category": cat,
                         "priority": rng.choices(["emergency", "urgent", "routine"], [1, 3, 8])[0],
                         "description": rng.choice(cats[cat]), "permission_to_enter": rng.random() < 0.7, "status": status,
                         "created_on": _d(created)}

    # ---------------- tours ----------------
    tenants = {c for ls in leases.values() if ls["status"] in ("active", "notice_given") for c in [ls["primary_tenant_id"], *ls["co_tenant_ids"]]}
    seekers = [c for c in client_ids if c not in tenants]
    active_rentals = [k for k in sorted(listings) if listings[k]["kind"] == "rental" and listings[k]["status"] == "active"]
    active_sales = [k for k in sorted(listings) if listings[k]["kind"] == "sale" and listings[k]["status"] == "active"]
    tour_n = 0
    for _ in range(820):
        cid = rng.choice(seekers)
        buyer = clients[cid]["preapproval"] is not None
        lid = rng.choice(active_sales if buyer and rng.random() < 0.8 else active_rentals)
        lst = listings[lid]
        agent = agents[lst["listing_agent_id"]]
        if rng.random() < 0.3:  # upcoming: take a slot out of the agent's free list
            if not agent["free_slots"]:
                continue
            slot_start = rng.choice(agent["free_slots"])
            agent["free_slots"].remove(slot_start)
            status = "scheduled"
            booked = TODAY - timedelta(days=rng.randint(0, 6))
        else:
            when = NOW - timedelta(days=rng.randint(1, 60))
            slot_start = _slot(when.replace(hour=rng.randint(9, 17), minute=rng.choice([0, 30])))
            status = rng.choices(["completed", "cancelled", "no_show"], [8, 2, 1])[0]
            booked = date.fromisoformat(slot_start[:10]) - timedelta(days=rng.randint(1, 7))
        tour_n += 1
        tid = f"TR-{310000 + tour_n * 11}"
        tours[tid] = {"tour_id": tid, "client_id": cid, "listing_id": lid, "agent_id": agent["agent_id"], "start": slot_start,
                      "status": status, "booked_on": _d(booked),
                      "cancel_reason": "Schedule conflict" if status == "cancelled" else None}

    # ---------------- applications ----------------
    for i in range(380):
        cid = rng.choice(seekers)
        c = clients[cid]
        if c["verified_monthly_income"] is None:
            continue
        lid = rng.choice(active_rentals)
        lst = listings[lid]
        ratio = round(c["verified_monthly_income"] / lst["price"], 2)
        submitted = TODAY - timedelta(days=rng.randint(0, 45))
        status = rng.choices(["pending", "approved", "denied", "withdrawn"], [5, 2, 2, 1])[0] if (TODAY - submitted).days > 5 else "pending"
        aid = f"AP-{60500 + i * 13}"
        applications[aid] = {"application_id": aid, "client_id": cid, "listing_id": lid, "monthly_rent": lst["price"],
                             "monthly_income": c["verified_monthly_income"], "income_to_rent_ratio": ratio,
                             "security_deposit": lst["price"],  # Rhode Island caps it at one month's rent
                             "pets": [p for p in c["pets_on_file"] if lst["pet_policy"] == "cats_and_dogs" or (p == "cat" and lst["pet_policy"] == "cats_only")],
                             "move_in_date": lst["available_from"], "application_fee": 50.0, "status": status,
                             "submitted_on": _d(submitted), "withdraw_reason": "Found another place" if status == "withdrawn" else None}

    # ---------------- offers ----------------
    buyers = [c for c in seekers if clients[c]["preapproval"] is not None]
    pending_sales = [k for k in sorted(listings) if listings[k]["kind"] == "sale" and listings[k]["status"] in ("pending", "sold")]
    offer_n = 0

    def add_offer(cid: str, lid: str, status: str, n_rounds: int) -> None:
        nonlocal offer_n
        lst = listings[lid]
        offer_n += 1
        oid = f"OF-{9100 + offer_n * 17}"
        financing = "cash" if clients[cid]["proof_of_funds"] and rng.random() < 0.5 else "mortgage"
        list_price = lst["price"]
        buyer_price = round(list_price * rng.uniform(0.88, 0.98), -3)
        seller_price = list_price
        day = TODAY - timedelta(days=rng.randint(1, 20) if status != "countered" else rng.randint(0, 4))
        closing = day + timedelta(days=rng.choice([35, 42, 45, 60]))
        rounds: list[dict[str, Any]] = []
        for r in range(n_rounds):
            by = "buyer" if r % 2 == 0 else "seller"
            if by == "buyer":
                price = buyer_price
            else:
                seller_price = round((seller_price + buyer_price) / 2 + rng.uniform(0, 0.02) * list_price, -3)
                price = seller_price
            hour = rng.randint(9, 18)
            made = datetime(day.year, day.month, day.day, hour, rng.choice([0, 15, 30, 45]))
            if made > NOW - timedelta(hours=1):
                made = NOW - timedelta(hours=rng.randint(1, 3), minutes=rng.choice([0, 15, 30, 45]))
            expires = made + timedelta(hours=rng.choice([24, 48, 72]))
            rounds.append({"by": by, "price": float(price), "closing_date": _d(closing), "made_on": _d(day),
                           "expires_at": _slot(expires)})
            if by == "seller":
                buyer_price = round(buyer_price + (seller_price - buyer_price) * rng.uniform(0.3, 0.6), -3)
            day = day + timedelta(days=rng.randint(1, 2))
            if day > TODAY:
                day = TODAY
        final = rounds[-1]["price"]
        offers[oid] = {"offer_id": oid, "client_id": cid, "listing_id": lid, "financing": financing,
                       "contingencies": sorted({"inspection"} | ({"financing", "appraisal"} if financing == "mortgage" else set())),
                       "status": status, "rounds": rounds,
                       "earnest_money": round(final * 0.01, 2) if status == "accepted" else None,
                       "earnest_money_due": rounds[-1]["made_on"] if status == "accepted" else None,
                       "withdraw_reason": "Decided to keep looking" if status == "withdrawn" else None}

    for lid in pending_sales:
        add_offer(rng.choice(buyers), lid, "accepted", rng.choice([1, 3]))
    for _ in range(130):
        lid = rng.choice(active_sales)
        status = rng.choices(["submitted", "countered", "rejected", "withdrawn"], [3, 5, 2, 1])[0]
        n = {"submitted": rng.choice([1, 3]), "countered": rng.choice([2, 2, 4, 6]), "rejected": 1, "withdrawn": rng.choice([1, 2, 3])}[status]
        add_offer(rng.choice(buyers), lid, status, n)

    return {"agents": agents, "clients": clients, "listings": listings, "tours": tours, "applications": applications,
            "offers": offers, "leases": leases, "maintenance_requests": requests}


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(dump_db(generate()))
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
