"""Seeded generator for the Marrow & Finch Events attendee and venue desk DB.

    python -m tests_domains.events.generate            # writes fixtures/events/db.json
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from pytest_tau.invariants import dialable_exchange
from tests_domains.events.schema import EventsDB

SEED = 6011
TODAY = date(2026, 6, 1)
OUT = Path(__file__).parents[2] / "fixtures" / "events" / "db.json"
Rec = dict[str, Any]

FIRST = [
    "Adaeze", "Bram", "Carys", "Dario", "Elin", "Farah", "Gideon", "Hana", "Ilse", "Jonah", "Keiko", "Lorcan", "Marisol",
    "Nikhil", "Odile", "Pavel", "Quinn", "Rhea", "Stellan", "Tamsin", "Ugo", "Vesna", "Wren", "Xiomara", "Yusuf", "Zofia",
    "Anouk", "Bastian", "Celeste", "Desmond", "Esme", "Florin", "Greta", "Hamish", "Ines", "Jasper", "Kalani", "Leontine",
    "Matteo", "Nadine", "Oren", "Priyanka", "Rafferty", "Saoirse", "Tobias", "Uma", "Viggo", "Willa", "Yannick", "Zara",
]
LAST = [
    "Achterberg", "Balogun", "Castellanos", "Drummond", "Eklund", "Fairweather", "Galloway", "Halvorsen", "Iwasaki",
    "Jovanovic", "Kettering", "Lindgren", "Mbeki", "Nieminen", "Oyelaran", "Pemberton", "Quist", "Rosales", "Szabo",
    "Thorne", "Uchenna", "Varga", "Winslow", "Yilmaz", "Zamora", "Abernathy", "Beaumont", "Cordero", "Delacroix",
    "Espinoza", "Fitzroy", "Grimaldi", "Hargreaves", "Ibsen", "Kowalczyk", "Lachance", "Montague", "Novotny", "Ostrowski",
    "Prescott", "Rahimi", "Sorensen", "Tremblay", "Valentin", "Whitcombe", "Yoshida", "Zellweger", "Okonkwo", "Marchetti",
]
CITIES = ["Chicago", "Denver", "Austin", "Seattle", "Atlanta", "Boston", "Minneapolis", "Nashville", "Portland", "Phoenix"]
VENUE_WORDS = ["Foundry", "Pavilion", "Exchange", "Conservatory", "Armory", "Terminal", "Mill", "Hall", "Atrium", "Depot"]
VENUE_PREFIX = ["Riverside", "Old Town", "Lakeshore", "Union", "Northgate", "Harbor", "Granite", "Copperline", "Summit"]
ROOM_NAMES = ["Main Hall", "Loft", "Gallery", "Boardroom", "Terrace", "Studio A", "Studio B", "Ballroom", "Library", "Courtyard"]
EVENT_TOPICS = [
    ("Data & Dashboards", "conference"), ("Urban Farming", "expo"), ("Indie Game Makers", "festival"),
    ("Cloud Native", "summit"), ("Nonprofit Leaders", "summit"), ("Craft Coffee", "expo"), ("Product Design", "conference"),
    ("Women in Robotics", "conference"), ("Jazz & Supper", "gala"), ("Healthcare AI", "summit"), ("Small Press Books", "festival"),
    ("Climate Finance", "conference"), ("Outdoor Gear", "expo"), ("Open Source Maintainers", "summit"),
    ("Culinary Arts", "festival"), ("Security Operations", "conference"), ("Architecture Now", "conference"),
    ("Edtech Builders", "summit"), ("Wine & Vine", "gala"), ("Maker Faire", "festival"), ("Supply Chain", "expo"),
    ("Frontend Craft", "conference"), ("Biotech Founders", "summit"), ("Photography Week", "festival"),
]
TALK_WORDS = [
    "Scaling", "Lessons from", "The Future of", "Rethinking", "Hands-on", "Beyond", "A Field Guide to", "Measuring",
    "Designing for", "Building", "Debugging", "Funding",
]
TALK_THINGS = [
    "Small Teams", "Resilient Systems", "Community", "Accessibility", "Pricing", "Storytelling", "Hiring", "Supply",
    "Data Quality", "Sustainability", "Onboarding", "Open Standards", "Partnerships", "Latency", "Trust", "Growth",
]
SPEAKERS_FIRST = ["Dr. Amara", "Luis", "Helena", "Kwame", "Mirela", "Theo", "Sunita", "Jules", "Petra", "Ansel", "Noor", "Ravi"]
SPEAKERS_LAST = ["Osei", "Brandt", "Kaur", "Lindqvist", "Moreno", "Park", "Adeyemi", "Castell", "Hughes", "Ferreira"]
TIER_SETS = [
    [("general", "General Admission", 1.0, True, False), ("student", "Student", 0.45, False, False),
     ("pro", "Pro Pass", 1.9, True, True), ("vip", "VIP All-Access", 3.2, True, True)],
    [("general", "General Admission", 1.0, True, False), ("pro", "Pro Pass", 1.75, True, True),
     ("vip", "VIP All-Access", 2.8, True, True)],
    [("general", "General Admission", 1.0, True, False), ("student", "Student", 0.5, False, False),
     ("vip", "VIP All-Access", 2.5, True, True)],
]
NOTES = [
    "", "", "", "", "Coming with two colleagues, please seat us together if possible.", "First time attending!",
    "I may arrive late on day one because of a flight.", "Need a receipt with my company name on it.",
    "Please send the schedule as a PDF.", "Can I bring my own water bottle?", "I'm a speaker's guest.",
]
DIETS = ["none"] * 12 + ["vegetarian"] * 3 + ["vegan", "gluten_free", "halal", "kosher", "nut_allergy", "dairy_free"]
ACCESS = ["wheelchair_seating", "step_free_access", "hearing_loop", "large_print", "companion_seat"]
COMPANY_A = ["Bluefern", "Northwind", "Halcyon", "Kestrel", "Meridian", "Quarry", "Tidewater", "Lumen", "Copperleaf", "Granary",
             "Ironbark", "Saltmarsh", "Wildrose", "Sparrow", "Juniper", "Brightwater", "Stonecrest", "Alder", "Fjord", "Ember"]
COMPANY_B = ["Analytics", "Labs", "Partners", "Health", "Logistics", "Foods", "Capital", "Studio", "Energy", "Robotics",
             "Software", "Consulting", "Biosciences", "Media", "Outfitters"]


def _d(value: date) -> str:
    return value.isoformat()


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    db: dict[str, dict[str, Any]] = {
        t: {} for t in ("attendees", "events", "sessions", "registrations", "waitlist", "payments", "clients", "venues", "holds")
    }
    used_codes: set[str] = set()

    def code(prefix: str, n: int = 6) -> str:
        alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
        while True:
            value = prefix + "".join(rng.choice(alphabet) for _ in range(n))
            if value not in used_codes:
                used_codes.add(value)
                return value

    # -- venues ------------------------------------------------------------------------------
    venue_names: set[str] = set()
    for i in range(20):
        while True:
            name = f"{rng.choice(VENUE_PREFIX)} {rng.choice(VENUE_WORDS)}"
            if name not in venue_names:
                venue_names.add(name)
                break
        city = CITIES[i % len(CITIES)]
        rooms = []
        for j, room_name in enumerate(rng.sample(ROOM_NAMES, rng.randint(3, 6))):
            cap = rng.choice([40, 60, 80, 120, 200, 350, 600, 900])
            rooms.append({"code": f"R{j + 1}", "name": room_name, "capacity": cap,
                          "day_rate": float(round(cap * rng.uniform(9, 16) / 50) * 50)})
        venue_id = f"VEN{100 + i * 3}"
        db["venues"][venue_id] = {"venue_id": venue_id, "name": name, "city": city,
                                  "address": f"{rng.randint(10, 2400)} {rng.choice(['W', 'E', 'N', 'S'])} {rng.choice(['Lake', 'Market', 'Elm', 'Dock', 'Canal', 'Cedar'])} St",
                                  "rooms": rooms}
    venues = list(db["venues"].values())

    # -- attendees ---------------------------------------------------------------------------
    used_names: set[tuple[str, str]] = set()
    for i in range(900):
        while True:
            first, last = rng.choice(FIRST), rng.choice(LAST)
            if (first, last) not in used_names:
                break
        used_names.add((first, last))
        attendee_id = f"ATT{20000 + i * 11 + rng.randint(0, 10)}"
        dob = date(1950, 1, 1) + timedelta(days=rng.randint(0, 20000))
        db["attendees"][attendee_id] = {
            "attendee_id": attendee_id, "first_name": first, "last_name": last,
            "email": f"{first[0].lower()}{last.lower()}{rng.randint(1, 98)}@{rng.choice(['gmail.com', 'fastmail.com', 'outlook.com', 'icloud.com', 'proton.me'])}",
            "phone": f"+1-{rng.choice(['312', '303', '512', '206', '404', '617', '612', '615', '503', '602'])}-{dialable_exchange(rng.randint(200, 989))}-{rng.randint(0, 9999):04d}",
            "date_of_birth": _d(dob), "city": rng.choice(CITIES),
        }
    attendees = list(db["attendees"].values())

    # -- events and sessions -----------------------------------------------------------------
    starts: list[date] = []
    for _ in range(12):  # past
        starts.append(TODAY - timedelta(days=rng.randint(10, 120)))
    for _ in range(56):  # upcoming: every refund band has events
        starts.append(TODAY + timedelta(days=rng.choice([rng.randint(2, 6), rng.randint(7, 13), rng.randint(14, 29),
                                                          rng.randint(30, 60), rng.randint(61, 180)])))
    starts.sort()
    event_ids: list[str] = []
    for i, start in enumerate(starts):
        topic, kind = EVENT_TOPICS[i % len(EVENT_TOPICS)]
        venue = rng.choice(venues)
        days = 1 if kind == "gala" else rng.choice([1, 2, 2, 3])
        end = start + timedelta(days=days - 1)
        name = f"{topic} {venue['city']} {start.year}" if i < len(EVENT_TOPICS) else f"{topic} {venue['city']} {start.strftime('%B')}"
        base = float(rng.choice([89, 129, 149, 179, 199, 249, 299, 349, 395]))
        tiers = []
        for tcode, tname, factor, transferable, workshops in rng.choice(TIER_SETS):
            tiers.append({"code": tcode, "name": tname, "price": float(round(base * factor)), "capacity": 0, "sold": 0,
                          "includes_workshops": workshops, "transferable": transferable})
        status = "completed" if end < TODAY else "on_sale"
        if start > TODAY and rng.random() < 0.04:
            status = "cancelled"
        event_id = f"EVT{3000 + i * 7}"
        event_ids.append(event_id)
        db["events"][event_id] = {
            "event_id": event_id, "name": name, "kind": kind, "venue_id": venue["venue_id"], "city": venue["city"],
            "start_date": _d(start), "end_date": _d(end), "doors_open": rng.choice(["08:00", "08:30", "09:00", "17:30", "18:00"]),
            "status": status, "tiers": tiers,
        }
        rooms = [r["name"] for r in venue["rooms"]]
        for number in range(rng.randint(6, 11) if kind != "gala" else 2):
            day = start + timedelta(days=rng.randint(0, days - 1))
            hour = rng.choice([9, 10, 11, 13, 14, 15, 16])
            length = rng.choice([45, 60, 90, 120])
            s_kind = "workshop" if kind != "gala" and rng.random() < 0.4 else rng.choice(["talk", "talk", "panel"])
            end_min = hour * 60 + length
            session_id = f"SES{event_id[3:]}{number + 1:02d}"
            db["sessions"][session_id] = {
                "session_id": session_id, "event_id": event_id,
                "title": f"{rng.choice(TALK_WORDS)} {rng.choice(TALK_THINGS)}" + (" (Workshop)" if s_kind == "workshop" else ""),
                "kind": s_kind, "speaker": f"{rng.choice(SPEAKERS_FIRST)} {rng.choice(SPEAKERS_LAST)}",
                "room": rng.choice(rooms), "date": _d(day), "start_time": f"{hour:02d}:00",
                "end_time": f"{end_min // 60:02d}:{end_min % 60:02d}", "capacity": 0, "enrolled": 0,
            }

    sessions_by_event: dict[str, list[Rec]] = {}
    for s in db["sessions"].values():
        sessions_by_event.setdefault(s["event_id"], []).append(s)

    def overlaps(a: Rec, b: Rec) -> bool:
        return bool(a["date"] == b["date"] and a["start_time"] < b["end_time"] and b["start_time"] < a["end_time"])

    # -- registrations and payments ----------------------------------------------------------
    def pay(kind: str, amount: float, day: date, card: str, registration_id: str | None = None, hold_id: str | None = None) -> None:
        payment_id = code("PAY", 7)
        db["payments"][payment_id] = {"payment_id": payment_id, "registration_id": registration_id, "hold_id": hold_id,
                                      "kind": kind, "amount": round(amount, 2), "date": _d(day), "card_last4": card}

    card_of: dict[str, str] = {a["attendee_id"]: f"{rng.randint(0, 9999):04d}" for a in attendees}
    for attendee in attendees:
        for event_id in rng.sample(event_ids, rng.choice([1, 1, 2, 2, 2, 3, 3, 4])):
            event = db["events"][event_id]
            start = date.fromisoformat(event["start_date"])
            tier = rng.choice(event["tiers"])
            bought = start - timedelta(days=rng.randint(20, 200))
            bought = min(bought, TODAY - timedelta(days=rng.randint(1, 30)))
            discount = rng.choice([1.0, 1.0, 1.0, 0.85, 0.8])  # early-bird and promo prices
            price = round(tier["price"] * discount, 2)
            registration_id = code("MF-", 6)
            status = "confirmed"
            if event["status"] == "cancelled" or rng.random() < 0.06:
                status = "cancelled"
            reg: Rec = {
                "registration_id": registration_id, "event_id": event_id, "attendee_id": attendee["attendee_id"],
                "tier_code": tier["code"], "status": status, "price_paid": price, "purchased_on": _d(bought),
                "sessions": [], "dietary": rng.choice(DIETS),
                "accessibility": sorted(rng.sample(ACCESS, 1)) if rng.random() < 0.08 else [],
                "notes": rng.choice(NOTES), "transferred_from": None, "transferred_to": None,
                "cancelled_on": None, "refund_amount": None,
            }
            pay("ticket", price, bought, card_of[attendee["attendee_id"]], registration_id)
            if status == "cancelled":
                cancelled = min(TODAY - timedelta(days=1), bought + timedelta(days=rng.randint(1, 20)))
                refund = price if event["status"] == "cancelled" else round(price - 15.0, 2)
                reg["cancelled_on"], reg["refund_amount"] = _d(cancelled), refund
                pay("refund", refund, cancelled, card_of[attendee["attendee_id"]], registration_id)
            else:
                tier["sold"] += 1
                chosen: list[Rec] = []
                for s in rng.sample(sessions_by_event[event_id], len(sessions_by_event[event_id])):
                    if len(chosen) >= rng.choice([1, 2, 3, 4]):
                        break
                    if s["kind"] == "workshop" and not tier["includes_workshops"]:
                        continue
                    if any(overlaps(s, c) for c in chosen):
                        continue
                    chosen.append(s)
                for s in chosen:
                    s["enrolled"] += 1
                reg["sessions"] = sorted(s["session_id"] for s in chosen)
            db["registrations"][registration_id] = reg

    # transfers already made: the ticket moved to someone else, who holds a new confirmation code
    regs = sorted(db["registrations"].values(), key=lambda r: r["registration_id"])
    for reg in rng.sample([r for r in regs if r["status"] == "confirmed"], 60):
        event = db["events"][reg["event_id"]]
        tier = next(t for t in event["tiers"] if t["code"] == reg["tier_code"])
        if not tier["transferable"] or event["status"] != "on_sale":
            continue
        taken = {r["attendee_id"] for r in db["registrations"].values() if r["event_id"] == reg["event_id"]}
        other = rng.choice([a for a in attendees if a["attendee_id"] not in taken])
        new_id = code("MF-", 6)
        day = TODAY - timedelta(days=rng.randint(1, 25))
        db["registrations"][new_id] = {**reg, "registration_id": new_id, "attendee_id": other["attendee_id"],
                                       "transferred_from": reg["registration_id"], "notes": "", "sessions": list(reg["sessions"])}
        reg["status"], reg["transferred_to"], reg["sessions"] = "transferred", new_id, []
        if tier["code"] != "vip":
            pay("transfer_fee", 20.0, day, card_of[reg["attendee_id"]], reg["registration_id"])

    # -- capacities: some sessions and tiers full --------------------------------------------
    for s in sorted(db["sessions"].values(), key=lambda s: s["session_id"]):
        full = rng.random() < 0.3 and s["enrolled"] > 0
        s["capacity"] = s["enrolled"] if full else s["enrolled"] + rng.randint(2, 40)
    for event_id in event_ids:
        for tier in db["events"][event_id]["tiers"]:
            tier["sold"] += rng.randint(20, 300)  # sold at the door and through partners
            tier["capacity"] = tier["sold"] if rng.random() < 0.15 else tier["sold"] + rng.randint(1, 120)

    # -- waitlists on full sessions -----------------------------------------------------------
    confirmed_by_event: dict[str, list[Rec]] = {}
    for r in sorted(db["registrations"].values(), key=lambda r: r["registration_id"]):
        if r["status"] == "confirmed":
            confirmed_by_event.setdefault(r["event_id"], []).append(r)
    for s in sorted(db["sessions"].values(), key=lambda s: s["session_id"]):
        event = db["events"][s["event_id"]]
        if s["capacity"] != s["enrolled"] or event["status"] != "on_sale":
            continue
        pool = [r for r in confirmed_by_event.get(s["event_id"], []) if s["session_id"] not in r["sessions"]]
        for r in rng.sample(pool, min(len(pool), rng.randint(1, 7))):
            joined = TODAY - timedelta(days=rng.randint(1, 40))
            entry_id = f"WL-{s['session_id'][3:]}-{r['registration_id'][3:]}"
            db["waitlist"][entry_id] = {"entry_id": entry_id, "session_id": s["session_id"], "registration_id": r["registration_id"],
                                        "joined_at": f"{_d(joined)}T{rng.randint(8, 21):02d}:{rng.choice(['00', '15', '30', '45'])}",
                                        "status": rng.choice(["waiting"] * 6 + ["removed"])}

    # keen attendees waiting for three sessions at once
    keen = 0
    for event_id in event_ids:
        if keen == 8 or db["events"][event_id]["status"] != "on_sale":
            continue
        full = [s for s in sessions_by_event[event_id] if s["capacity"] == s["enrolled"]]
        if len(full) < 4:
            continue
        tier_of = {t["code"]: t for t in db["events"][event_id]["tiers"]}
        for r in confirmed_by_event.get(event_id, []):
            if any(s["session_id"] in r["sessions"] for s in full) or not tier_of[r["tier_code"]]["includes_workshops"]:
                continue
            for s in full[:3]:
                entry_id = f"WL-{s['session_id'][3:]}-{r['registration_id'][3:]}"
                db["waitlist"][entry_id] = {"entry_id": entry_id, "session_id": s["session_id"], "registration_id": r["registration_id"],
                                            "joined_at": f"{_d(TODAY - timedelta(days=rng.randint(1, 9)))}T{rng.randint(8, 21):02d}:00",
                                            "status": "waiting"}
            keen += 1
            break

    # -- clients and venue holds --------------------------------------------------------------
    used_companies: set[str] = set()
    for i in range(160):
        while True:
            company = f"{rng.choice(COMPANY_A)} {rng.choice(COMPANY_B)}"
            if company not in used_companies:
                used_companies.add(company)
                break
        first, last = rng.choice(FIRST), rng.choice(LAST)
        client_id = f"CLI{500 + i * 5 + rng.randint(0, 4)}"
        domain = company.lower().replace(" ", "") + ".com"
        db["clients"][client_id] = {"client_id": client_id, "company": company, "contact_first_name": first, "contact_last_name": last,
                                    "contact_email": f"{first.lower()}.{last.lower()}@{domain}",
                                    "phone": f"+1-{rng.choice(['312', '303', '512', '206', '404'])}-{dialable_exchange(rng.randint(200, 989))}-{rng.randint(0, 9999):04d}"}
    clients = list(db["clients"].values())
    booked: dict[tuple[str, str], list[tuple[date, date]]] = {}
    for _ in range(520):
        client = rng.choice(clients)
        venue = rng.choice(venues)
        room = rng.choice(venue["rooms"])
        start = TODAY + timedelta(days=rng.randint(-60, 240))
        end = start + timedelta(days=rng.choice([0, 0, 1, 1, 2, 3]))
        spans = booked.setdefault((venue["venue_id"], room["code"]), [])
        if any(not (end < a or start > b) for a, b in spans):
            continue
        placed = min(TODAY - timedelta(days=rng.randint(0, 6)), start - timedelta(days=rng.randint(22, 120)))
        days = (end - start).days + 1
        deposit = round(room["day_rate"] * days * 0.3, 2)
        hold_id = code("HLD-", 5)
        hold: Rec = {"hold_id": hold_id, "client_id": client["client_id"], "venue_id": venue["venue_id"], "room_code": room["code"],
                     "start_date": _d(start), "end_date": _d(end), "guests": max(10, room["capacity"] - rng.randint(0, room["capacity"] // 2)),
                     "status": "confirmed", "placed_on": _d(placed), "expires_on": None, "extended": False, "deposit": 0.0,
                     "deposit_paid_on": None, "released_on": None, "deposit_refund": None}
        fresh = TODAY - placed < timedelta(days=7) and start > TODAY
        roll = rng.random()
        if fresh and roll < 0.75:
            hold["status"], hold["expires_on"] = "tentative", _d(placed + timedelta(days=7))
            if rng.random() < 0.25:
                hold["extended"], hold["expires_on"] = True, _d(placed + timedelta(days=14))
        elif roll < 0.12:
            hold["status"], hold["expires_on"] = "expired", _d(placed + timedelta(days=7))
        elif roll < 0.2:
            hold["status"], hold["released_on"] = "released", _d(min(TODAY - timedelta(days=1), placed + timedelta(days=3)))
        else:
            paid = placed + timedelta(days=rng.randint(0, 6))
            # A confirmed hold was paid while its full refund still stood (90+ days out), so its release
            # schedule's dates never fall before the payment or the placing: move both back when needed.
            full_until = start - timedelta(days=90)
            if min(paid, TODAY) > full_until:
                lead = paid - placed  # the days between placing the hold and paying, kept
                paid = full_until
                placed = paid - lead
                hold["placed_on"] = _d(placed)
            hold["deposit"], hold["deposit_paid_on"] = deposit, _d(min(paid, TODAY))
            pay("deposit", deposit, min(paid, TODAY), f"{rng.randint(0, 9999):04d}", hold_id=hold_id)
        if hold["status"] in ("tentative", "confirmed"):
            spans.append((start, end))
        db["holds"][hold_id] = hold

    # The account team's internal notes on each client (credit checks, disputes, sales plans): drawn from
    # a stream of their own, so the rest of the DB does not move when the notes change.
    notes_rng = random.Random(f"{seed}:account-notes")
    for client in db["clients"].values():
        holds = [h for h in db["holds"].values() if h["client_id"] == client["client_id"]]
        client["account_notes"] = _account_note(notes_rng, client, holds)

    EventsDB.model_validate(db)
    return db


def _account_note(rng: random.Random, client: Rec, holds: list[Rec]) -> str:
    """One internal note of the account team, in their shorthand, consistent with the client's holds."""
    owner = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
    grade = rng.choice(["A", "A-", "B+", "B", "B-", "C+"])
    checked = _d(TODAY - timedelta(days=rng.randint(40, 400)))
    lapsed = sum(1 for h in holds if h["status"] == "expired")
    facts = [
        f"Credit check {checked}: grade {grade}, deposits only, no invoicing on account.",
        f"Key account, owner {owner}; pitching the 2027 series at a 12% multi-venue rate, not yet offered.",
        f"Disputed a catering surcharge in {rng.choice(['March', 'July', 'October', 'November'])} 2025, settled at "
        f"{rng.choice([60, 70, 75, 80])}% after {owner} stepped in.",
        f"Procurement moved to net-{rng.choice([45, 60])} terms internally; finance flags them as slow payers.",
    ]
    if lapsed:
        facts.append(f"Let {lapsed} tentative hold{'s' if lapsed > 1 else ''} lapse without a deposit; sales watches their holds.")
    return " ".join(rng.sample(facts, 2))


if __name__ == "__main__":
    OUT.write_bytes(dump_db(generate()))
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")
