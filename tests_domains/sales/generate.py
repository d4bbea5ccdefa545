"""Generates fixtures/sales/db.json: `python -m tests_domains.sales.generate` (seeded, byte-stable)."""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from pytest_tau.invariants import dialable_area_code
from tests_domains.sales.pricing import price_lines

SEED = 2026_06_16
TODAY = date(2026, 6, 16)
DOMAIN_MAIL = "calderfinch.com"

TERRITORIES = [
    ("E-NENG", "New England", "East", ["ME", "NH", "VT", "MA", "RI", "CT"]),
    ("E-METRO", "New York Metro", "East", ["NY", "NJ"]),
    ("E-MIDA", "Mid-Atlantic", "East", ["PA", "DE", "MD", "DC", "VA", "WV"]),
    ("E-SEAST", "Southeast", "East", ["NC", "SC", "GA", "FL", "AL", "TN"]),
    ("C-LAKES", "Great Lakes", "Central", ["OH", "MI", "IN"]),
    ("C-NORTH", "Upper Midwest", "Central", ["IL", "WI", "MN"]),
    ("C-PLAINS", "Plains", "Central", ["IA", "MO", "KS", "NE", "ND", "SD", "OK"]),
    ("C-GULF", "Texas and Gulf", "Central", ["TX", "LA", "AR", "MS", "KY"]),
    ("W-CAL", "California and Hawaii", "West", ["CA", "HI"]),
    ("W-PNW", "Pacific Northwest", "West", ["WA", "OR", "ID", "AK", "MT"]),
    ("W-MTN", "Mountain", "West", ["CO", "UT", "AZ", "NM", "NV", "WY"]),
]

CITIES = {
    "ME": [("Portland", "041"), ("Bangor", "044")], "NH": [("Manchester", "031"), ("Nashua", "030")],
    "VT": [("Burlington", "054")], "MA": [("Cambridge", "021"), ("Worcester", "016"), ("Lowell", "018"), ("Boston", "022")],
    "RI": [("Providence", "029")], "CT": [("New Haven", "065"), ("Hartford", "061"), ("Stamford", "069")],
    "NY": [("Albany", "122"), ("Rochester", "146"), ("Brooklyn", "112"), ("Buffalo", "142")],
    "NJ": [("Princeton", "085"), ("Newark", "071"), ("New Brunswick", "089")],
    "PA": [("Philadelphia", "191"), ("Pittsburgh", "152"), ("State College", "168")], "DE": [("Wilmington", "198")],
    "MD": [("Baltimore", "212"), ("Rockville", "208"), ("Gaithersburg", "208")], "DC": [("Washington", "200")],
    "VA": [("Richmond", "232"), ("Charlottesville", "229")], "WV": [("Morgantown", "265")],
    "NC": [("Durham", "277"), ("Raleigh", "276"), ("Chapel Hill", "275")], "SC": [("Charleston", "294")],
    "GA": [("Atlanta", "303"), ("Athens", "306")], "FL": [("Gainesville", "326"), ("Tampa", "336"), ("Miami", "331")],
    "AL": [("Birmingham", "352"), ("Huntsville", "358")], "TN": [("Nashville", "372"), ("Memphis", "381")],
    "OH": [("Columbus", "432"), ("Cleveland", "441"), ("Cincinnati", "452")], "MI": [("Ann Arbor", "481"), ("Detroit", "482")],
    "IN": [("Indianapolis", "462"), ("West Lafayette", "479")], "IL": [("Chicago", "606"), ("Urbana", "618"), ("Evanston", "602")],
    "WI": [("Madison", "537"), ("Milwaukee", "532")], "MN": [("Minneapolis", "554"), ("Rochester", "559")],
    "IA": [("Iowa City", "522"), ("Ames", "500")], "MO": [("St. Louis", "631"), ("Kansas City", "641")],
    "KS": [("Lawrence", "660"), ("Wichita", "672")], "NE": [("Omaha", "681"), ("Lincoln", "685")],
    "ND": [("Fargo", "581")], "SD": [("Sioux Falls", "571")], "OK": [("Oklahoma City", "731"), ("Tulsa", "741")],
    "TX": [("Houston", "770"), ("Austin", "787"), ("Dallas", "752"), ("San Antonio", "782")],
    "LA": [("New Orleans", "701"), ("Baton Rouge", "708")], "AR": [("Little Rock", "722")], "MS": [("Jackson", "392")],
    "KY": [("Lexington", "405"), ("Louisville", "402")],
    "CA": [("San Diego", "921"), ("South San Francisco", "940"), ("Irvine", "926"), ("Sacramento", "958"), ("Palo Alto", "943")],
    "HI": [("Honolulu", "968")], "WA": [("Seattle", "981"), ("Bothell", "980"), ("Spokane", "992")],
    "OR": [("Portland", "972"), ("Eugene", "974")], "ID": [("Boise", "837")], "AK": [("Anchorage", "995")],
    "MT": [("Bozeman", "597")], "CO": [("Boulder", "803"), ("Denver", "802"), ("Aurora", "800")],
    "UT": [("Salt Lake City", "841")], "AZ": [("Tucson", "857"), ("Phoenix", "850")], "NM": [("Albuquerque", "871")],
    "NV": [("Reno", "895")], "WY": [("Laramie", "820")],
}
STATE_NAMES = {"ME": "Maine", "NH": "New Hampshire", "VT": "Vermont", "MA": "Massachusetts", "RI": "Rhode Island",
               "CT": "Connecticut", "NY": "New York", "NJ": "New Jersey", "PA": "Pennsylvania", "DE": "Delaware",
               "MD": "Maryland", "DC": "District of Columbia", "VA": "Virginia", "WV": "West Virginia",
               "NC": "North Carolina", "SC": "South Carolina", "GA": "Georgia", "FL": "Florida", "AL": "Alabama",
               "TN": "Tennessee", "OH": "Ohio", "MI": "Michigan", "IN": "Indiana", "IL": "Illinois", "WI": "Wisconsin",
               "MN": "Minnesota", "IA": "Iowa", "MO": "Missouri", "KS": "Kansas", "NE": "Nebraska", "ND": "North Dakota",
               "SD": "South Dakota", "OK": "Oklahoma", "TX": "Texas", "LA": "Louisiana", "AR": "Arkansas",
               "MS": "Mississippi", "KY": "Kentucky", "CA": "California", "HI": "Hawaii", "WA": "Washington",
               "OR": "Oregon", "ID": "Idaho", "AK": "Alaska", "MT": "Montana", "CO": "Colorado", "UT": "Utah",
               "AZ": "Arizona", "NM": "New Mexico", "NV": "Nevada", "WY": "Wyoming"}

FIRST = ["Aaron", "Adriana", "Alan", "Alicia", "Amara", "Andre", "Anika", "Ben", "Bianca", "Brandon", "Carla", "Caleb",
         "Chen", "Chloe", "Colin", "Dana", "Darius", "Deepa", "Derek", "Elena", "Elliot", "Emeka", "Erin", "Farah", "Felix",
         "Gabriel", "Grace", "Hana", "Hector", "Ian", "Imani", "Irene", "Jamal", "Janet", "Javier", "Jenna", "Joel", "Julia",
         "Kai", "Karen", "Keith", "Kenji", "Lara", "Leon", "Lina", "Logan", "Lucia", "Malik", "Marcus", "Maria", "Maya",
         "Miles", "Nadia", "Naveen", "Nina", "Noah", "Olga", "Omar", "Paige", "Pedro", "Priya", "Quinn", "Rachel", "Rafael",
         "Rhea", "Ruth", "Sam", "Sanjay", "Sara", "Sean", "Simone", "Sofia", "Tariq", "Tessa", "Theo", "Uma", "Vera",
         "Victor", "Wade", "Wen", "Xavier", "Yara", "Yusuf", "Zoe"]
LAST = ["Abbott", "Adeyemi", "Alvarez", "Banerjee", "Barros", "Bennett", "Brandt", "Caldwell", "Castillo", "Chang",
        "Cohen", "Dalton", "Delgado", "Dubois", "Ellison", "Erikson", "Farouk", "Fischer", "Gallagher", "Garza", "Greer",
        "Haddad", "Hartley", "Holm", "Ibarra", "Iverson", "Jensen", "Joshi", "Kaplan", "Keller", "Kowalski", "Kruger",
        "Lambert", "Lindqvist", "Lopez", "Maddox", "Marsh", "Mendez", "Moreau", "Nakamura", "Novak", "Nwosu", "Okafor",
        "Olsen", "Ortega", "Park", "Patel", "Pereira", "Quinlan", "Ramos", "Reyes", "Rossi", "Saito", "Santos", "Schultz",
        "Shah", "Sokolov", "Sullivan", "Tanaka", "Thornton", "Torres", "Usman", "Vance", "Varga", "Vasquez", "Walsh",
        "Weber", "Whitfield", "Xu", "Yamada", "Young", "Zamora", "Ziegler"]
WORDS = ["Aster", "Beacon", "Bluefin", "Cedar", "Cobalt", "Corvid", "Crescent", "Delta", "Ember", "Fathom", "Granite",
         "Halcyon", "Helix", "Juniper", "Keystone", "Lumen", "Meridian", "Nimbus", "Northstar", "Onyx", "Orchid", "Pinnacle",
         "Quarry", "Redwood", "Sable", "Sequoia", "Solstice", "Summit", "Tidewater", "Trillium", "Vantage", "Verdant",
         "Willow", "Zenith", "Arbor", "Birch", "Calyx", "Driftwood", "Everline", "Foxglove"]
SECTOR_NAMES = {
    "academic": ["{city} University", "University of {city}", "{city} College of Science", "{city} Institute of Technology"],
    "biotech": ["{word} Biosciences", "{word} Therapeutics", "{word} Genomics", "{word} Bio"],
    "pharma": ["{word} Pharmaceuticals", "{word} Pharma", "{word} Life Sciences"],
    "clinical": ["{city} Medical Center", "{city} Regional Hospital", "{word} Diagnostics", "{city} Clinical Laboratories"],
    "government": ["{state} Public Health Laboratory", "{city} Water Quality Laboratory", "{state} Agricultural Testing Lab"],
    "industrial": ["{word} Materials", "{word} Chemical", "{word} Foods Quality Lab", "{word} Polymers"],
}
STREETS = ["Research Dr", "Innovation Way", "Science Park Rd", "Main St", "College Ave", "Technology Blvd", "Harbor St",
           "Elm St", "Discovery Pkwy", "Campus Dr", "Medical Center Blvd", "Industrial Rd", "Commerce Ct", "Lake St"]
TITLES = ["Lab Director", "Principal Investigator", "Procurement Manager", "Lab Manager", "VP of Research",
          "Purchasing Agent", "Core Facility Manager", "Senior Scientist", "Director of Operations", "QA Manager"]
PRODUCTS = [
    ("CFS-CEN-M24", "MicroSpin 24 Microcentrifuge", "Centrifuges", "each", 2450.0),
    ("CFS-CEN-B4R", "BenchForce 4R Refrigerated Centrifuge", "Centrifuges", "each", 11800.0),
    ("CFS-CEN-FL9", "FloorMax 9 High-Speed Centrifuge", "Centrifuges", "each", 38500.0),
    ("CFS-CEN-ROT", "Swing-Bucket Rotor Kit", "Centrifuges", "each", 3200.0),
    ("CFS-PIP-S8", "Accura 8-Channel Pipette", "Pipettes", "each", 1150.0),
    ("CFS-PIP-S1", "Accura Single-Channel Pipette", "Pipettes", "each", 385.0),
    ("CFS-PIP-E12", "Accura E12 Electronic Pipette", "Pipettes", "each", 2480.0),
    ("CFS-PIP-CAL", "Pipette Calibration Service", "Services", "per pipette", 95.0),
    ("CFS-INC-CO2", "ClimaCell CO2 Incubator 170L", "Incubators", "each", 9650.0),
    ("CFS-INC-SHK", "OrbitPro Shaking Incubator", "Incubators", "each", 14200.0),
    ("CFS-INC-MIN", "ClimaCell Mini Incubator 40L", "Incubators", "each", 3100.0),
    ("CFS-FRZ-U86", "PolarCore -86C Upright Freezer", "Cold Storage", "each", 16900.0),
    ("CFS-FRZ-C20", "PolarCore -20C Chest Freezer", "Cold Storage", "each", 4300.0),
    ("CFS-FRZ-LN2", "CryoVault LN2 Storage Dewar", "Cold Storage", "each", 7450.0),
    ("CFS-BAL-A220", "Precisa A220 Analytical Balance", "Balances", "each", 3650.0),
    ("CFS-BAL-M6", "Precisa M6 Microbalance", "Balances", "each", 12400.0),
    ("CFS-BAL-T3", "Precisa T3 Top-Loading Balance", "Balances", "each", 1290.0),
    ("CFS-SPC-UV2", "SpectraLine UV-Vis Spectrophotometer", "Analytical", "each", 15800.0),
    ("CFS-SPC-NANO", "SpectraLine Nano Microvolume Spectrophotometer", "Analytical", "each", 8900.0),
    ("CFS-PLR-M5", "PlateRead M5 Multimode Reader", "Analytical", "each", 42500.0),
    ("CFS-PCR-Q96", "ThermoCycle Q96 Real-Time PCR System", "Molecular", "each", 31200.0),
    ("CFS-PCR-G96", "ThermoCycle G96 Gradient Thermal Cycler", "Molecular", "each", 8700.0),
    ("CFS-ELE-GEL", "GelDoc Imaging Station", "Molecular", "each", 11300.0),
    ("CFS-BSC-II4", "SafeFlow Class II Biosafety Cabinet 4 ft", "Safety", "each", 12950.0),
    ("CFS-BSC-II6", "SafeFlow Class II Biosafety Cabinet 6 ft", "Safety", "each", 15400.0),
    ("CFS-FUM-H5", "ClearAir Fume Hood 5 ft", "Safety", "each", 9800.0),
    ("CFS-CON-TIP", "Filter Tips 200uL, case of 9,600", "Consumables", "case", 412.0),
    ("CFS-CON-TUB", "Microtubes 1.5 mL, case of 5,000", "Consumables", "case", 186.0),
    ("CFS-CON-PLT", "96-Well PCR Plates, case of 100", "Consumables", "case", 298.0),
    ("CFS-CON-GLV", "Nitrile Gloves, case of 1,000", "Consumables", "case", 124.0),
    ("CFS-CON-SER", "Serological Pipettes 10 mL, case of 500", "Consumables", "case", 164.0),
    ("CFS-CON-FLK", "Cell Culture Flasks T75, case of 100", "Consumables", "case", 238.0),
    ("CFS-SVC-PM1", "Preventive Maintenance Plan, 1 year", "Services", "per instrument", 1450.0),
    ("CFS-SVC-PM3", "Preventive Maintenance Plan, 3 years", "Services", "per instrument", 3900.0),
    ("CFS-SVC-INS", "Installation and Qualification (IQ/OQ)", "Services", "per instrument", 2200.0),
    ("CFS-SVC-TRN", "On-Site Training Day", "Services", "per day", 1800.0),
]
INTERESTS = ["upgrading cold storage", "a new PCR workflow", "replacing aging centrifuges", "outfitting a new lab wing",
             "consumables contract", "analytical balances for QC", "biosafety cabinets for a BSL-2 suite",
             "a plate reader for screening", "service coverage for existing instruments", "cell culture expansion"]
COMPETITORS = ["Helmsford Instruments", "Norbeck Lab Systems", "Vireo Scientific", "None identified"]


def iso(d: date) -> str:
    return d.isoformat()


def business_day(d: date) -> date:
    while d.weekday() >= 5:
        d += timedelta(days=1)
    return d


class Gen:
    def __init__(self) -> None:
        self.rng = random.Random(SEED)
        self.used_people: set[tuple[str, str]] = set()
        self.used_ids: set[str] = set()

    def person(self) -> tuple[str, str]:
        while True:
            pair = (self.rng.choice(FIRST), self.rng.choice(LAST))
            if pair not in self.used_people:
                self.used_people.add(pair)
                return pair

    def ident(self, prefix: str, digits: int) -> str:
        while True:
            value = f"{prefix}{self.rng.randint(10 ** (digits - 1), 10 ** digits - 1)}"
            if value not in self.used_ids:
                self.used_ids.add(value)
                return value

    def phone(self) -> str:
        return f"({dialable_area_code(self.rng.randint(201, 989))}) 555-{self.rng.randint(1000, 9999)}"

    def day_between(self, start: date, end: date) -> date:
        return start + timedelta(days=self.rng.randint(0, (end - start).days))


def generate() -> dict[str, Any]:
    g = Gen()
    rng = g.rng
    reps: dict[str, dict[str, Any]] = {}
    territories: dict[str, dict[str, Any]] = {}

    def new_rep(role: str, region: str, territory: str | None, manager: str | None, limit: float) -> str:
        first, last = g.person()
        rid = g.ident("SR-", 4)
        reps[rid] = {"rep_id": rid, "first_name": first, "last_name": last,
                     "email": f"{first.lower()}.{last.lower()}@{DOMAIN_MAIL}", "phone": g.phone(), "role": role,
                     "territory_id": territory, "region": region, "manager_rep_id": manager, "discount_limit_pct": limit,
                     "status": "active", "hire_date": iso(g.day_between(date(2014, 1, 6), date(2025, 11, 3)))}
        return rid

    by_region: dict[str, list[tuple[str, str, str, list[str]]]] = {}
    for t in TERRITORIES:
        by_region.setdefault(t[2], []).append(t)
    territory_reps: dict[str, list[str]] = {}
    for region, terrs in by_region.items():
        director = new_rep("regional_director", region, None, None, 35.0)
        for i in range(0, len(terrs), 2):
            manager = new_rep("sales_manager", region, None, director, rng.choice([22.0, 25.0]))
            for tid, name, _, states in terrs[i:i + 2]:
                senior = new_rep("senior_account_executive", region, tid, manager, rng.choice([15.0, 18.0]))
                members = [senior] + [new_rep("account_executive", region, tid, manager, rng.choice([8.0, 10.0, 12.0]))
                                      for _ in range(rng.choice([3, 4]))]
                territory_reps[tid] = members
                territories[tid] = {"territory_id": tid, "name": name, "region": region, "states": states,
                                    "intake_rep_id": senior, "manager_rep_id": manager}
    for rid in sorted(reps)[3::17]:
        if reps[rid]["role"] == "account_executive":
            reps[rid]["status"] = "on_leave"
    state_territory = {s: t[0] for t in TERRITORIES for s in t[3]}

    products = {sku: {"sku": sku, "name": name, "family": fam, "unit": unit} for sku, name, fam, unit, _ in PRODUCTS}
    names = {sku: name for sku, name, *_ in PRODUCTS}
    std = {sku: price for sku, *_, price in PRODUCTS}
    price_books: dict[str, dict[str, Any]] = {
        "PB-STD-2026": {"price_book_id": "PB-STD-2026", "name": "Standard 2026", "validity_days": 30, "prices": dict(std)},
        "PB-EDU-2026": {"price_book_id": "PB-EDU-2026", "name": "Academic 2026", "validity_days": 45,
                        "prices": {k: round(v * 0.88, 2) for k, v in std.items()}},
        "PB-GOV-2026": {"price_book_id": "PB-GOV-2026", "name": "Public Sector 2026", "validity_days": 60,
                        "prices": {k: round(v * 0.92, 2) for k, v in std.items()}},
    }

    accounts: dict[str, dict[str, Any]] = {}
    contacts: dict[str, dict[str, Any]] = {}
    account_contacts: dict[str, list[str]] = {}
    used_names: set[str] = set()
    states = sorted(CITIES)
    sectors = ["academic", "biotech", "pharma", "clinical", "government", "industrial"]
    while len(accounts) < 440:
        state = rng.choice(states)
        city, zip3 = rng.choice(CITIES[state])
        sector = rng.choices(sectors, weights=[22, 22, 10, 20, 10, 16])[0]
        name = rng.choice(SECTOR_NAMES[sector]).format(city=city, word=rng.choice(WORDS), state=STATE_NAMES[state])
        if name in used_names:
            continue
        used_names.add(name)
        aid = g.ident("ACC-", 6)
        tid = state_territory[state]
        segment = rng.choices(["enterprise", "mid_market", "small_business"], weights=[25, 45, 30])[0]
        book = "PB-EDU-2026" if sector == "academic" else "PB-GOV-2026" if sector == "government" else "PB-STD-2026"
        active_reps = [r for r in territory_reps[tid] if reps[r]["status"] == "active"]
        since = rng.random() < 0.7
        accounts[aid] = {
            "account_id": aid, "name": name, "sector": sector, "segment": segment,
            "billing_address": {"street": f"{rng.randint(10, 9800)} {rng.choice(STREETS)}", "city": city, "state": state,
                                "zip": f"{zip3}{rng.randint(0, 99):02d}"},
            "address_updated_on": iso(g.day_between(date(2019, 1, 1), date(2025, 12, 31))),
            "territory_id": tid, "owner_rep_id": rng.choice(active_reps),
            "named_account": segment == "enterprise" and rng.random() < 0.35, "price_book_id": book,
            "customer_since": iso(g.day_between(date(2012, 1, 1), date(2025, 6, 30))) if since else None,
            "annual_spend": round(rng.uniform(8, 900) * 1000, 2) if since else 0.0,
        }
        ids = []
        for _ in range(rng.randint(2, 5)):
            first, last = g.person()
            cid = g.ident("CT-", 6)
            slug = "".join(ch for ch in name.lower() if ch.isalnum())[:14]
            contacts[cid] = {"contact_id": cid, "account_id": aid, "first_name": first, "last_name": last,
                             "title": rng.choice(TITLES), "email": f"{first[0].lower()}{last.lower()}@{slug}.org",
                             "phone": g.phone()}
            ids.append(cid)
        account_contacts[aid] = ids
    # accounts whose headquarters moved into another territory this spring (still owned in the old one)
    movable = [a for k, a in sorted(accounts.items()) if not a["named_account"]]
    for a in rng.sample(movable, 30) + rng.sample([a for a in accounts.values() if a["named_account"]], 6):
        old = a["territory_id"]
        new_state = rng.choice([s for s in states if state_territory[s] != old])
        city, zip3 = rng.choice(CITIES[new_state])
        a["billing_address"] = {"street": f"{rng.randint(10, 9800)} {rng.choice(STREETS)}", "city": city, "state": new_state,
                                "zip": f"{zip3}{rng.randint(0, 99):02d}"}
        a["address_updated_on"] = iso(g.day_between(date(2026, 5, 1), date(2026, 6, 12)))

    stage_requirements = {
        "prospecting": {"stage": "prospecting", "order": 1, "required_fields": [], "enterprise_extra_fields": []},
        "discovery": {"stage": "discovery", "order": 2, "required_fields": ["primary_contact_id"], "enterprise_extra_fields": []},
        "proposal": {"stage": "proposal", "order": 3,
                     "required_fields": ["primary_contact_id", "decision_maker_contact_id", "budget_confirmed"],
                     "enterprise_extra_fields": ["competitor"]},
        "negotiation": {"stage": "negotiation", "order": 4,
                        "required_fields": ["primary_contact_id", "decision_maker_contact_id", "budget_confirmed",
                                            "primary_quote_id"],
                        "enterprise_extra_fields": ["competitor", "procurement_contact_id"]},
        "closed_won": {"stage": "closed_won", "order": 5,
                       "required_fields": ["primary_contact_id", "decision_maker_contact_id", "budget_confirmed",
                                           "primary_quote_id", "primary_quote_accepted"],
                       "enterprise_extra_fields": ["competitor", "procurement_contact_id"]},
        "closed_lost": {"stage": "closed_lost", "order": 6, "required_fields": ["loss_reason"], "enterprise_extra_fields": []},
    }
    order = ["prospecting", "discovery", "proposal", "negotiation", "closed_won"]

    opportunities: dict[str, dict[str, Any]] = {}
    quotes: dict[str, dict[str, Any]] = {}
    approvals: dict[str, dict[str, Any]] = {}
    skus = sorted(std)

    def make_quote(opp: dict[str, Any], acct: dict[str, Any], created: date, status: str) -> str:
        qid = g.ident("Q-", 6)
        book = price_books[acct["price_book_id"]]
        chosen = rng.sample(skus, rng.randint(1, 4))
        lines = [(s, rng.randint(1, 6) if std[s] > 1000 else rng.randint(5, 40), float(rng.choice([0, 0, 5, 8, 10])))
                 for s in chosen]
        header = float(rng.choice([0, 0, 0, 3, 5]))
        priced = price_lines(book["prices"], names, lines, header)
        owner = reps[opp["owner_rep_id"]]
        quote = {"quote_id": qid, "opportunity_id": opp["opportunity_id"], "account_id": acct["account_id"],
                 "owner_rep_id": opp["owner_rep_id"], "price_book_id": book["price_book_id"], "status": status,
                 "created_on": iso(created), "expires_on": iso(created + timedelta(days=book["validity_days"])),
                 "lines": priced["lines"], "header_discount_pct": header, "list_total": priced["list_total"],
                 "net_total": priced["net_total"], "effective_discount_pct": priced["effective_discount_pct"],
                 "approval_id": None, "sent_to_contact_id": None, "sent_on": None, "extension_count": 0}
        if priced["effective_discount_pct"] > owner["discount_limit_pct"]:
            manager = owner["manager_rep_id"] or opp["owner_rep_id"]
            apid = g.ident("AP-", 5)
            approvals[apid] = {"approval_id": apid, "quote_id": qid, "requested_by": opp["owner_rep_id"],
                               "approver_rep_id": manager, "discount_pct": priced["effective_discount_pct"],
                               "status": "pending" if status == "pending_approval" else "approved",
                               "requested_on": iso(created), "justification": "Competitive situation; multi-instrument order."}
            quote["approval_id"] = apid
            if status == "draft":
                quote["status"] = "pending_approval"
                approvals[apid]["status"] = "pending"
        if status in ("sent", "accepted", "rejected"):
            quote["sent_to_contact_id"] = opp["primary_contact_id"]
            quote["sent_on"] = iso(created + timedelta(days=rng.randint(0, 2)))
        quote["amount_for_opp"] = priced["net_total"]
        quotes[qid] = quote
        return qid

    for aid, acct in sorted(accounts.items()):
        for _ in range(rng.choices([0, 1, 2, 3, 4], weights=[10, 35, 30, 15, 10])[0]):
            oid = g.ident("OPP-", 6)
            created = g.day_between(date(2025, 7, 1), date(2026, 6, 10))
            stage = rng.choices(order + ["closed_lost"], weights=[18, 18, 18, 14, 16, 16])[0]
            owner = acct["owner_rep_id"] if rng.random() < 0.85 else rng.choice(territory_reps[acct["territory_id"]])
            people = account_contacts[aid]
            open_stage = stage not in ("closed_won", "closed_lost")
            close = (g.day_between(TODAY + timedelta(days=10), TODAY + timedelta(days=200)) if open_stage
                     else g.day_between(created + timedelta(days=5), max(created + timedelta(days=6), TODAY - timedelta(days=1))))
            opp: dict[str, Any] = {
                "opportunity_id": oid, "account_id": aid,
                "name": f"{acct['name'].split()[0]} {rng.choice(INTERESTS)}".replace(" a ", " ").title()[:60],
                "owner_rep_id": owner, "stage": stage, "amount": 0.0, "close_date": iso(close), "created_on": iso(created),
                "primary_contact_id": None, "decision_maker_contact_id": None, "procurement_contact_id": None,
                "budget_confirmed": False, "competitor": None, "primary_quote_id": None, "loss_reason": None,
                "stage_history": [], "source_lead_id": None}
            reached = order.index(stage) if stage in order else rng.randint(0, 3)
            # fill what each reached stage needs; a share of open opportunities lack a field of the next stage
            if reached >= 1 or rng.random() < 0.5:
                opp["primary_contact_id"] = rng.choice(people)
            if reached >= 2 or (reached == 1 and rng.random() < 0.45):
                opp["decision_maker_contact_id"] = rng.choice(people)
                opp["budget_confirmed"] = reached >= 2 or rng.random() < 0.5
                if acct["segment"] == "enterprise" and (reached >= 2 or rng.random() < 0.5):
                    opp["competitor"] = rng.choice(COMPETITORS)
            if reached >= 3 and acct["segment"] == "enterprise":
                opp["procurement_contact_id"] = rng.choice(people)
            if reached == 2 and acct["segment"] == "enterprise" and rng.random() < 0.5:
                opp["procurement_contact_id"] = rng.choice(people)
            # stage history
            day = created
            hist = []
            stages = order[: reached + 1] + (["closed_lost"] if stage == "closed_lost" else [])
            end = close if not open_stage else TODAY - timedelta(days=1)
            for i, st in enumerate(stages):
                hist.append({"stage": st, "entered_on": iso(day), "changed_by": owner})
                remaining = len(stages) - i - 1
                if remaining:
                    day = min(end, day + timedelta(days=rng.randint(3, max(4, (end - day).days // (remaining + 1) + 3))))
            opp["stage_history"] = hist
            if stage == "closed_lost":
                opp["loss_reason"] = rng.choice(["price", "competitor", "no_budget", "no_decision", "timing"])
                if opp["loss_reason"] == "competitor":
                    opp["competitor"] = rng.choice(COMPETITORS[:3])
            opportunities[oid] = opp
            # quotes
            if reached >= 2:
                qday = date.fromisoformat(hist[min(2, len(hist) - 1)]["entered_on"])
                if stage == "closed_won":
                    status = "accepted"
                elif stage == "closed_lost":
                    status = "rejected"
                elif stage == "proposal":
                    status = rng.choice(["draft", "sent", "sent", "approved"])
                else:
                    status = "sent"
                qid = make_quote(opp, acct, qday, status)
                if (status in ("sent", "accepted") and reached >= 3) or (status == "sent" and rng.random() < 0.6):
                    opp["primary_quote_id"] = qid
                opp["amount"] = quotes[qid]["amount_for_opp"]
                if stage in ("proposal", "negotiation") and rng.random() < 0.25:
                    # an older quote, sent and since expired
                    old_day = qday - timedelta(days=rng.randint(20, 70))
                    make_quote(opp, acct, max(created, old_day), "sent")
            else:
                opp["amount"] = float(rng.randrange(4000, 180000, 500))
    for q in quotes.values():
        q.pop("amount_for_opp")
    # some expired sent quotes got an extension already
    for qid in sorted(quotes)[::9]:
        q = quotes[qid]
        if q["status"] == "sent" and q["expires_on"] < iso(TODAY):
            q["extension_count"] = 1
            q["expires_on"] = iso(date.fromisoformat(q["expires_on"]) + timedelta(days=30))

    leads: dict[str, dict[str, Any]] = {}
    acct_by_state: dict[str, list[str]] = {}
    for aid, a in sorted(accounts.items()):
        acct_by_state.setdefault(a["billing_address"]["state"], []).append(aid)
    for _ in range(640):
        first, last = g.person()
        lid = g.ident("LD-", 6)
        matched = None
        if rng.random() < 0.14:
            matched = rng.choice(sorted(accounts))
            company = accounts[matched]["name"]
            address = dict(accounts[matched]["billing_address"])
            sector, segment = accounts[matched]["sector"], accounts[matched]["segment"]
        else:
            state = rng.choice(states)
            city, zip3 = rng.choice(CITIES[state])
            sector = rng.choice(sectors)
            segment = rng.choices(["enterprise", "mid_market", "small_business"], weights=[15, 45, 40])[0]
            company = rng.choice(SECTOR_NAMES[sector]).format(city=city, word=rng.choice(WORDS), state=STATE_NAMES[state])
            while company in used_names:
                company = f"{rng.choice(WORDS)} {company}"
            used_names.add(company)
            address = {"street": f"{rng.randint(10, 9800)} {rng.choice(STREETS)}", "city": city, "state": state,
                       "zip": f"{zip3}{rng.randint(0, 99):02d}"}
        state = address["state"]
        tid = state_territory[state]
        created = g.day_between(date(2025, 11, 1), date(2026, 6, 15))
        status = rng.choices(["new", "working", "nurturing", "qualified", "disqualified", "converted"],
                             weights=[22, 30, 14, 16, 10, 8])[0]
        owner = None if status == "new" and rng.random() < 0.75 else rng.choice(territory_reps[tid])
        if matched and owner is not None:
            owner = accounts[matched]["owner_rep_id"] if rng.random() < 0.7 else owner
        last_act = None if status == "new" else iso(g.day_between(created, TODAY - timedelta(days=1)))
        slug = "".join(ch for ch in company.lower() if ch.isalnum())[:14]
        leads[lid] = {"lead_id": lid, "first_name": first, "last_name": last, "company": company,
                      "sector": sector, "segment": segment, "title": rng.choice(TITLES), "email": f"{first.lower()}.{last.lower()}@{slug}.org", "phone": g.phone(),
                      "address": address, "state": state, "territory_id": tid,
                      "source": rng.choice(["web_form", "trade_show", "webinar", "referral", "inbound_call", "partner"]),
                      "status": status, "rating": rng.choice(["hot", "warm", "cold"]), "owner_rep_id": owner,
                      "matched_account_id": matched, "created_on": iso(created), "last_activity_on": last_act,
                      "assigned_on": iso(created + timedelta(days=1)) if owner else None,
                      "converted_opportunity_id": None, "interest": rng.choice(INTERESTS)}
        if status == "converted":
            leads[lid]["status"] = "disqualified" if owner is None else "converted"
            if owner is not None:
                cands = [o for o in sorted(opportunities) if opportunities[o]["owner_rep_id"] == owner
                         and opportunities[o]["source_lead_id"] is None]
                if cands:
                    oid = rng.choice(cands)
                    opportunities[oid]["source_lead_id"] = lid
                    leads[lid]["converted_opportunity_id"] = oid
                else:
                    leads[lid]["status"] = "working"

    followups: dict[str, dict[str, Any]] = {}
    subjects = ["Check in on budget timing", "Send spec sheets", "Schedule demo", "Confirm decision maker",
                "Follow up on quote", "Call back about service plan", "Intro call", "Review install requirements"]
    for oid, o in sorted(opportunities.items()):
        open_stage = o["stage"] not in ("closed_won", "closed_lost")
        for _ in range(rng.choices([0, 1, 2], weights=[35, 45, 20])[0]):
            fid = g.ident("FU-", 6)
            due = business_day(g.day_between(TODAY - timedelta(days=40), TODAY + timedelta(days=30)))
            done = not open_stage or (due < TODAY and rng.random() < 0.6)
            followups[fid] = {"followup_id": fid, "owner_rep_id": o["owner_rep_id"], "related_id": oid,
                              "subject": rng.choice(subjects), "due_date": iso(due), "status": "completed" if done else "open",
                              "created_on": iso(min(TODAY - timedelta(days=1), due - timedelta(days=rng.randint(3, 20)))),
                              "completed_on": iso(min(due, TODAY - timedelta(days=1))) if done else None}
    for lid, lead in sorted(leads.items()):
        if lead["owner_rep_id"] and lead["status"] in ("working", "nurturing", "qualified") and rng.random() < 0.6:
            fid = g.ident("FU-", 6)
            due = business_day(g.day_between(TODAY - timedelta(days=20), TODAY + timedelta(days=25)))
            followups[fid] = {"followup_id": fid, "owner_rep_id": lead["owner_rep_id"], "related_id": lid,
                              "subject": rng.choice(subjects[:4] + ["Qualify lead"]), "due_date": iso(due), "status": "open",
                              "created_on": iso(min(TODAY - timedelta(days=1), due - timedelta(days=5))), "completed_on": None}

    # Each rep's on-target earnings (base plus commission at 100% of quota), by role: its own seed, so the rest of
    # the desk stays as it was.
    pay = random.Random(SEED + 1)
    bands = {"account_executive": (118_000, 165_000), "senior_account_executive": (150_000, 210_000),
             "sales_manager": (185_000, 245_000), "regional_director": (240_000, 320_000)}
    for rep in reps.values():
        low, high = bands[rep["role"]]
        rep["on_target_earnings"] = pay.randrange(low, high, 500)
    return {"reps": reps, "territories": territories, "accounts": accounts, "contacts": contacts, "leads": leads,
            "opportunities": opportunities, "stage_requirements": stage_requirements, "products": products,
            "price_books": price_books, "quotes": quotes, "approvals": approvals, "followups": followups}


if __name__ == "__main__":
    out = Path(__file__).resolve().parents[2] / "fixtures" / "sales" / "db.json"
    out.write_bytes(dump_db(generate()))
    print(out, out.stat().st_size)
