"""Seeded generator for the hospitality DB: `python -m tests_domains.hospitality.generate`.

Twelve Alder & Vane hotels, their room types, per-date inventory and rates over a 60-day
booking window, several hundred loyalty guests, ~1,500 reservations (past, in-house and
future), their transactions, feedback cases and compensations. Deterministic for a seed.
"""

from __future__ import annotations

import random
import sys
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from pytest_tau.invariants import dialable_area_code
from tests_domains.hospitality.schema import (
    NOW,
    PLAN_FACTOR,
    WINDOW_DAYS,
    WINDOW_START,
    HospitalityDB,
    compensation_caps,
    inventory_id,
    nights_between,
    room_tax,
)

DEFAULT_SEED = 20260515
OUT = Path(__file__).parents[2] / "fixtures" / "hospitality" / "db.json"
TODAY = NOW.date()

HOTELS: list[tuple[Any, ...]] = [
    # id, name suffix, city, state, street, zip, area code, tax, base rate, leisure?
    # tax: the combined occupancy tax on room charges (Boston: 5.7% state excise, 6.5% city, 2.75% convention fee)
    ("AV-BOS", "Boston Seaport", "Boston", "MA", "410 Congress St", "02210", "617", 0.1495, 259, False),
    ("AV-NYC", "New York Midtown", "New York", "NY", "148 W 46th St", "10036", "212", 0.1475, 319, False),
    ("AV-CHI", "Chicago River North", "Chicago", "IL", "521 N Wells St", "60654", "312", 0.174, 219, False),
    ("AV-SFO", "San Francisco Union Square", "San Francisco", "CA", "335 Powell St", "94102", "415", 0.1607, 279, False),
    ("AV-SEA", "Seattle Pike Place", "Seattle", "WA", "1820 1st Ave", "98101", "206", 0.1565, 239, False),
    ("AV-MIA", "Miami Brickell", "Miami", "FL", "1101 Brickell Ave", "33131", "305", 0.13, 249, True),
    ("AV-AUS", "Austin Congress Avenue", "Austin", "TX", "600 Congress Ave", "78701", "512", 0.17, 229, True),
    ("AV-DEN", "Denver LoDo", "Denver", "CO", "1732 Wazee St", "80202", "303", 0.1575, 199, False),
    ("AV-MSY", "New Orleans French Quarter", "New Orleans", "LA", "227 Chartres St", "70130", "504", 0.1575, 209, True),
    ("AV-BNA", "Nashville Gulch", "Nashville", "TN", "1120 McGavock St", "37203", "615", 0.1525, 239, True),
    ("AV-SAN", "San Diego Gaslamp", "San Diego", "CA", "645 Fifth Ave", "92101", "619", 0.125, 229, True),
    ("AV-WAS", "Washington Dupont Circle", "Washington", "DC", "1515 P St NW", "20005", "202", 0.1495, 249, False),
]

# The hotels' local time (their check-in and checkout clocks), by state.
TIME_ZONES = {"MA": "Eastern", "NY": "Eastern", "FL": "Eastern", "DC": "Eastern", "IL": "Central", "TX": "Central",
              "LA": "Central", "TN": "Central", "CO": "Mountain", "CA": "Pacific", "WA": "Pacific"}

ROOM_TYPES: list[tuple[Any, ...]] = [
    # code, name, category, bed, max occupancy, crib, accessible, multiplier, rooms (min, max)
    ("STQ", "Standard Two Queens", 1, "2 queen", 4, False, False, 1.0, (60, 110)),
    ("DKG", "Deluxe King", 2, "1 king", 3, True, False, 1.18, (45, 90)),
    ("ADK", "Accessible Deluxe King", 2, "1 king", 3, True, True, 1.18, (4, 7)),
    ("PKG", "Premier King", 3, "1 king", 3, True, False, 1.42, (18, 36)),
    ("JRS", "Junior Suite", 4, "1 king + sofa bed", 4, True, False, 1.85, (6, 12)),
    ("EXS", "Executive Suite", 5, "1 king + sofa bed", 5, True, False, 2.6, (2, 4)),
]

def _words(text: str) -> list[str]:
    return text.split()


AMENITIES = ["fitness center", "restaurant", "lobby bar", "rooftop terrace", "pool", "spa", "valet parking",
             "self parking", "pet friendly", "business center", "ev charging", "bike rental"]

FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth", "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Christopher", "Karen", "Charles", "Lisa", "Daniel", "Nancy", "Matthew", "Betty", "Anthony", "Sandra", "Mark", "Margaret", "Donald", "Ashley", "Steven", "Kimberly", "Andrew", "Emily", "Paul", "Donna", "Joshua", "Michelle", "Kenneth", "Carol", "Kevin", "Amanda", "Brian", "Melissa", "George", "Deborah", "Timothy", "Stephanie", "Ronald", "Rebecca", "Jason", "Laura", "Edward", "Sharon", "Jeffrey", "Cynthia", "Ryan", "Kathleen", "Jacob", "Amy", "Gary", "Angela", "Nicholas", "Shirley", "Eric", "Brenda", "Jonathan", "Emma", "Stephen", "Anna", "Larry", "Pamela", "Justin", "Nicole", "Scott", "Samantha", "Brandon", "Katherine", "Benjamin", "Christine", "Samuel", "Helen", "Gregory", "Debra", "Alexander", "Rachel", "Patrick", "Carolyn", "Frank", "Janet", "Raymond", "Maria", "Jack", "Olivia", "Dennis", "Heather", "Jerry", "Diane", "Tyler", "Julie", "Aaron", "Joyce", "Jose", "Victoria", "Adam", "Ruth", "Nathan", "Virginia", "Henry", "Lauren", "Zachary", "Kelly", "Douglas", "Christina", "Peter", "Joan", "Kyle", "Evelyn", "Noah", "Judith", "Ethan", "Andrea", "Jeremy", "Hannah", "Walter", "Megan", "Christian", "Cheryl", "Keith", "Jacqueline", "Roger", "Martha", "Terry", "Madison", "Austin", "Teresa", "Sean", "Gloria", "Gerald", "Sara", "Carl", "Janice", "Harold", "Ann", "Dylan", "Kathryn", "Arthur", "Abigail", "Lawrence", "Sophia", "Jordan", "Frances", "Jesse", "Jean", "Bryan", "Alice", "Billy", "Judy", "Bruce", "Isabella", "Gabriel", "Julia", "Joe", "Grace", "Logan", "Amber", "Alan", "Denise", "Juan", "Danielle", "Albert", "Marilyn", "Willie", "Beverly", "Elijah", "Charlotte", "Wayne", "Natalie", "Randy", "Theresa", "Vincent", "Diana", "Mason", "Brittany", "Roy", "Doris", "Ralph", "Kayla", "Bobby", "Alexis", "Russell", "Lori", "Bradley", "Marie", "Philip", "Priya", "Wei", "Hiroshi", "Aisha", "Mateo", "Sofia", "Omar", "Leila", "Ravi", "Mei", "Diego", "Camila", "Tariq", "Yuki", "Kwame", "Ingrid"]

LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Gomez", "Phillips", "Evans", "Turner", "Diaz", "Parker", "Cruz", "Edwards", "Collins", "Reyes", "Stewart", "Morris", "Morales", "Murphy", "Cook", "Rogers", "Gutierrez", "Ortiz", "Morgan", "Cooper", "Peterson", "Bailey", "Reed", "Kelly", "Howard", "Ramos", "Kim", "Cox", "Ward", "Richardson", "Watson", "Brooks", "Chavez", "Wood", "James", "Bennett", "Gray", "Mendoza", "Ruiz", "Hughes", "Price", "Alvarez", "Castillo", "Sanders", "Patel", "Myers", "Long", "Ross", "Foster", "Jimenez", "Powell", "Jenkins", "Perry", "Russell", "Sullivan", "Bell", "Coleman", "Butler", "Henderson", "Barnes", "Gonzales", "Fisher", "Vasquez", "Simmons", "Romero", "Jordan", "Patterson", "Alexander", "Hamilton", "Graham", "Reynolds", "Griffin", "Wallace", "Moreno", "West", "Cole", "Hayes", "Bryant", "Herrera", "Gibson", "Ellis", "Tran", "Medina", "Aguilar", "Stevens", "Murray", "Ford", "Castro", "Marshall", "Owens", "Harrison", "Fernandez", "McDonald", "Woods", "Washington", "Kennedy", "Wells", "Vargas", "Henry", "Chen", "Freeman", "Webb", "Tucker", "Guzman", "Burns", "Crawford", "Olson", "Simpson", "Porter", "Hunter", "Gordon", "Mendez", "Silva", "Shaw", "Snyder", "Mason", "Dixon", "Munoz", "Hunt", "Hicks", "Holmes", "Palmer", "Wagner", "Black", "Robertson", "Boyd", "Rose", "Stone", "Salazar", "Fox", "Warren", "Mills", "Meyer", "Rice", "Schmidt", "Garza", "Daniels", "Ferguson", "Nichols", "Stephens", "Soto", "Weaver", "Ryan", "Gardner", "Payne", "Grant", "Dunn", "Kelley", "Spencer", "Hawkins", "Arnold", "Pierce", "Vazquez", "Hansen", "Peters", "Santos", "Hart", "Bradley", "Knight", "Elliott", "Cunningham", "Duncan", "Armstrong", "Okafor", "Nakamura", "Lindqvist", "Kowalski", "Haddad", "Okonkwo", "Sato", "Fitzgerald", "Delgado", "Abernathy", "Whitfield", "Castellano"]

MAIL = ["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me", "fastmail.com", "hey.com", "aol.com"]
ZIPS = ["02139", "10025", "11215", "60614", "94110", "98103", "33139", "78704", "80206", "70115", "37206", "92103",
        "20009", "19103", "30307", "85004", "97214", "55408", "48201", "27701", "43215", "63110", "15213", "84102",
        "28203", "46202", "53703", "64111", "32801", "89101", "73102", "68102", "50309", "40202", "23220", "06510"]
ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
REQUESTS = ["crib", "rollaway_bed", "feather_free_bedding", "high_floor", "quiet_room", "accessible_roll_in_shower",
            "accessible_hearing_kit", "early_check_in"]
COMFORTS = ["quiet_room", "high_floor", "feather_free_bedding"]  # requests any room can take
REASONS = ["change_of_plans", "found_other_accommodation", "travel_disruption", "illness", "work_conflict"]


def _iso(d: date) -> str:
    return d.isoformat()


def _stamp(d: date, hour: int, minute: int = 0) -> str:
    return f"{d.isoformat()}T{hour:02d}:{minute:02d}:00-04:00"


def generate(seed: int = DEFAULT_SEED, scale: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    hotels: dict[str, dict[str, Any]] = {}
    inventory: dict[str, dict[str, Any]] = {}
    rate_noise: dict[tuple[str, date], float] = {}

    def flexible_rate(hotel: tuple[Any, ...], mult: float, day: date) -> float:
        hid, leisure, base = hotel[0], hotel[9], hotel[8]
        key = (hid, day)
        if key not in rate_noise:
            rate_noise[key] = rng.uniform(0.96, 1.04)
        dow = day.weekday()  # a night's rate by the weekday it starts on
        if leisure:
            dow_factor = 1.2 if dow in (4, 5) else (0.95 if dow in (0, 1) else 1.0)
        else:
            dow_factor = 0.9 if dow in (4, 5) else (1.08 if dow in (0, 1, 2, 3) else 1.0)
        season = 1.0 + 0.1 * max(0, (day - date(2026, 3, 1)).days) / 130
        return float(round(base * mult * dow_factor * season * rate_noise[key]))

    hotel_rows = []
    for h in HOTELS:
        hid, suffix, city, state, street, zipc, area, tax, _base, leisure = h
        types = [t for t in ROOM_TYPES if t[0] != "EXS" or rng.random() < 0.7]
        amen = sorted(rng.sample(AMENITIES, 6))
        hotels[hid] = {
            "hotel_id": hid, "name": f"Alder & Vane {suffix}", "city": city, "state": state, "address": street,
            "zip": zipc, "phone": f"+1-{area}-555-{rng.randint(1000, 9999)}", "tax_rate": tax,
            "time_zone": TIME_ZONES[state], "check_in_time": "15:00", "check_out_time": "11:00", "amenities": amen,
            "room_types": [
                {"code": t[0], "name": t[1], "category": t[2], "bed": t[3], "max_occupancy": t[4],
                 "crib_allowed": t[5], "accessible": t[6]} for t in types
            ],
        }
        hotel_rows.append((h, types))
        for t in types:
            total = rng.randint(*t[8]) * scale
            for i in range(WINDOW_DAYS):
                day = WINDOW_START + timedelta(days=i)
                busy = 0.55 + 0.35 * rng.random() + (0.08 if (day.weekday() in (4, 5)) == leisure else 0.0)
                if t[2] >= 4 and rng.random() < 0.25:
                    busy = 1.0
                sold = min(total, int(total * busy))
                inventory[inventory_id(hid, t[0], _iso(day))] = {
                    "inventory_id": inventory_id(hid, t[0], _iso(day)), "hotel_id": hid, "room_type_code": t[0],
                    "date": _iso(day), "total_rooms": total, "rooms_sold": sold,
                    "rate": flexible_rate(h, t[7], day),
                }

    # -- guests ----------------------------------------------------------------------
    guests: dict[str, dict[str, Any]] = {}
    used_names: set[tuple[str, str]] = set()
    n_guests = 450 * scale
    tiers = ["member"] * 45 + ["silver"] * 25 + ["gold"] * 20 + ["platinum"] * 10
    while len(guests) < n_guests:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        if (first, last) in used_names:
            continue
        used_names.add((first, last))
        gid = f"G{100000 + len(guests) * 7 + rng.randint(0, 6)}"
        tier = rng.choice(tiers)
        sep = rng.choice([".", "_", ""])
        email = f"{first.lower()}{sep}{last.lower()}{rng.choice(['', str(rng.randint(1, 99))])}@{rng.choice(MAIL)}"
        cards = []
        for c in range(rng.choice([1, 1, 2, 2, 3])):
            brand = rng.choice(["visa", "visa", "mastercard", "amex", "discover"])
            last4, month, year = f"{rng.randint(0, 9999):04d}", rng.randint(1, 12), rng.randint(26, 31)
            if (2000 + year, month) < (TODAY.year, TODAY.month):
                year += 1  # a card on file still pays: an expired one is replaced by its reissue
            cards.append({"card_id": f"{gid}-C{c + 1}", "brand": brand, "last4": last4, "expires": f"{month:02d}/{year}"})
        pts = {"member": (0, 9000), "silver": (5000, 40000), "gold": (20000, 120000), "platinum": (60000, 400000)}[tier]
        guests[gid] = {
            "guest_id": gid, "first_name": first, "last_name": last, "email": email,
            "phone": f"+1-{dialable_area_code(rng.randint(201, 989))}-555-{rng.randint(1000, 9999)}", "zip": rng.choice(ZIPS),
            "loyalty_number": f"AV{rng.randint(10**8, 10**9 - 1)}", "tier": tier,
            "points_balance": rng.randint(*pts) // 10 * 10,
            "member_since": _iso(date(2012, 1, 1) + timedelta(days=rng.randint(0, 5000))), "cards": cards,
        }
    guest_ids = sorted(guests)

    # -- reservations --------------------------------------------------------------------
    reservations: dict[str, dict[str, Any]] = {}
    transactions: dict[str, dict[str, Any]] = {}
    feedback: dict[str, dict[str, Any]] = {}
    compensations: dict[str, dict[str, Any]] = {}
    used_conf: set[str] = set()

    def new_conf() -> str:
        while True:
            conf = "AV" + "".join(rng.choice(ALNUM) for _ in range(6))
            if conf not in used_conf:
                used_conf.add(conf)
                return conf

    def add_txn(conf: str, gid: str, kind: str, amount: float, card: str, when: str) -> None:
        tid = f"T{len(transactions) + 1:07d}"
        transactions[tid] = {"transaction_id": tid, "confirmation_number": conf, "guest_id": gid, "kind": kind,
                             "amount": round(amount, 2), "card_id": card, "created_at": when}

    n_res = 1500 * scale
    kinds = (["completed"] * 34 + ["past_cancelled"] * 5 + ["no_show"] * 2 + ["in_house"] * 4
             + ["future"] * 46 + ["future_cancelled"] * 9)
    attempts = 0
    while len(reservations) < n_res and attempts < n_res * 5:
        attempts += 1
        kind = rng.choice(kinds)
        gid = rng.choice(guest_ids)
        guest = guests[gid]
        h, types = rng.choice(hotel_rows)
        hid = h[0]
        length = rng.choice([1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6, 7])
        if kind in ("completed", "past_cancelled", "no_show"):
            check_in = TODAY - timedelta(days=rng.randint(length + 1, 150))
        elif kind == "in_house":
            check_in = TODAY - timedelta(days=rng.randint(0, length - 1)) if length > 1 else TODAY
            if check_in + timedelta(days=length) <= TODAY:
                continue
        else:
            check_in = TODAY + timedelta(days=rng.randint(0, WINDOW_DAYS - length))
        check_out = check_in + timedelta(days=length)
        t = rng.choices(types, weights=[{1: 40, 2: 36, 3: 14, 4: 6, 5: 2}[x[2]] if not x[6] else 2 for x in types])[0]
        adults = rng.choice([1, 1, 2, 2, 2, 3]) if t[4] >= 3 else 1
        adults = min(adults, t[4])
        children = rng.choice([0, 0, 0, 0, 1, 2]) if adults < t[4] else 0
        children = min(children, t[4] - adults)
        plan = rng.choices(["flexible", "semi_flex", "non_refundable"], weights=[45, 25, 30])[0]
        days = nights_between(check_in, check_out)
        # the live part of the stay must fit the inventory
        live = [d for d in days if d >= WINDOW_START]
        if kind in ("in_house", "future"):
            inv_ids = [inventory_id(hid, t[0], _iso(d)) for d in live]
            if any(inventory[i]["rooms_sold"] >= inventory[i]["total_rooms"] for i in inv_ids):
                continue
            for inv_id in inv_ids:
                inventory[inv_id]["rooms_sold"] += 1
        nights: list[dict[str, Any]] = []
        for d in days:
            flex = inventory[inventory_id(hid, t[0], _iso(d))]["rate"] if d >= WINDOW_START else flexible_rate(h, t[7], d)
            nights.append({"date": _iso(d), "rate": round(flex * PLAN_FACTOR[plan], 2)})
        subtotal = round(sum(n["rate"] for n in nights), 2)
        tax = room_tax(subtotal, h[7])
        total = round(subtotal + tax, 2)
        booked = check_in - timedelta(days=rng.randint(1, 75))
        if kind in ("future", "future_cancelled"):
            booked = min(booked, TODAY - timedelta(days=1))
        card = rng.choice(guest["cards"])["card_id"]
        conf = new_conf()
        status = {"completed": "completed", "past_cancelled": "cancelled", "no_show": "no_show",
                  "in_house": "checked_in", "future": "confirmed", "future_cancelled": "cancelled"}[kind]
        res = {
            "confirmation_number": conf, "guest_id": gid, "hotel_id": hid, "room_type_code": t[0],
            "booked_room_type_code": t[0], "rate_plan": plan, "check_in": _iso(check_in), "check_out": _iso(check_out),
            "adults": adults, "children": children, "nights": nights, "room_subtotal": subtotal, "tax": tax,
            "total": total, "prepaid_amount": total if plan == "non_refundable" else 0.0, "payment_card_id": card,
            "status": status, "late_checkout": None, "special_requests": [], "upgrade": None, "cancellation": None,
            "booked_at": _stamp(booked, rng.randint(7, 22), rng.choice([0, 15, 30, 45])),
            "channel": rng.choice(["website", "website", "app", "app", "phone", "travel_agent"]),
        }
        if plan == "non_refundable":
            add_txn(conf, gid, "prepayment", total, card, res["booked_at"])
        if status in ("confirmed", "checked_in", "completed") and rng.random() < 0.22:
            for rt in rng.sample(REQUESTS, rng.choice([1, 1, 2])):
                if rt == "crib" and (not t[5] or children == 0):
                    continue
                # policy 8.3 and 8.4: a rollaway only in a Premier room or suite for a party below its occupancy,
                # a roll-in shower only in an accessible room; elsewhere the guest asked for a plain comfort instead
                taken = {r["request_type"] for r in res["special_requests"]}
                if (rt == "rollaway_bed" and (t[2] < 3 or adults + children >= t[4])) or (rt == "accessible_roll_in_shower" and not t[6]):
                    rt = next((x for x in COMFORTS if x not in taken), "")
                if not rt or rt in taken:
                    continue  # one of each per stay (policy 8.2)
                res["special_requests"].append({"request_type": rt, "requested_at": res["booked_at"]})
        if status in ("confirmed", "checked_in", "completed") and rng.random() < 0.15 and guest["tier"] != "member":
            limit = {"silver": 12, "gold": 14, "platinum": 16}[guest["tier"]]
            res["late_checkout"] = f"{rng.randint(12, limit):02d}:00"
        up = {"gold": 1, "platinum": 2}.get(guest["tier"], 0)
        if up and plan != "non_refundable" and status in ("checked_in", "completed") and rng.random() < 0.3:
            better = [x for x in types if not x[6] and t[2] < x[2] <= t[2] + up]
            nt = rng.choice(better) if better else None
            needs_accessible = any(r["request_type"] == "accessible_roll_in_shower" for r in res["special_requests"])
            # the upgraded room sleeps the whole party (policy 4.2); a guest who needs the roll-in shower keeps it
            if nt is not None and adults + children <= nt[4] and not needs_accessible:
                res["room_type_code"] = nt[0]
                res["upgrade"] = {"from_room_type": t[0], "to_room_type": nt[0], "categories": nt[2] - t[2],
                                  "granted_at": _stamp(check_in, 15)}
        if status == "cancelled":
            when = booked + timedelta(days=rng.randint(0, max(0, min((check_in - booked).days - 1, (TODAY - booked).days))))
            hours = (check_in - when).days * 24
            if plan == "non_refundable":
                penalty = total
            elif plan == "flexible":
                penalty = 0.0 if hours >= 48 else nights[0]["rate"]
            else:
                penalty = 0.0 if hours >= 168 else round(subtotal * 0.5, 2)
            res["cancellation"] = {"cancelled_at": _stamp(when, 10), "reason": rng.choice(REASONS), "penalty": penalty,
                                   "refund": 0.0}
            if penalty and plan != "non_refundable":
                add_txn(conf, gid, "cancellation_fee", penalty, card, _stamp(when, 10))
        if status == "no_show":
            fee: float = total if plan == "non_refundable" else nights[0]["rate"]
            if plan != "non_refundable":
                add_txn(conf, gid, "cancellation_fee", fee, card, _stamp(check_in + timedelta(days=1), 6))
        if status == "completed":
            if plan != "non_refundable":
                add_txn(conf, gid, "room_charge", total, card, _stamp(check_out, 11))
            if check_out >= TODAY - timedelta(days=60) and rng.random() < 0.18:
                fid = f"FB{len(feedback) + 1:05d}"
                cat = rng.choice(["cleanliness", "noise", "maintenance", "service", "billing", "amenities"])
                fb_day = check_out + timedelta(days=rng.randint(0, 3))
                fb_day = min(fb_day, TODAY - timedelta(days=1))
                compensated = rng.random() < 0.6
                feedback[fid] = {"feedback_id": fid, "confirmation_number": conf, "guest_id": gid, "category": cat,
                                 "status": "resolved" if compensated else "open", "created_at": _stamp(fb_day, 12)}
                if compensated:
                    credit, points = compensation_caps(guest["tier"], total)
                    kind_c = rng.choice(["points", "credit"])
                    cid = f"CP{len(compensations) + 1:05d}"
                    compensations[cid] = {"compensation_id": cid, "confirmation_number": conf, "guest_id": gid,
                                          "feedback_id": fid, "kind": kind_c,
                                          "amount": float(points) if kind_c == "points" else credit,
                                          "created_at": _stamp(fb_day, 13)}
                    if kind_c == "credit":
                        add_txn(conf, gid, "compensation_credit", credit, card, _stamp(fb_day, 13))
        reservations[conf] = res

    _internal_records(random.Random(f"{seed}:internal"), hotels, guests, reservations, feedback)
    db = {"hotels": hotels, "inventory": inventory, "guests": guests, "reservations": reservations,
          "transactions": transactions, "feedback": feedback, "compensations": compensations}
    HospitalityDB.model_validate(db)
    return db


AGENCIES = ["Expedia TAAP", "Amex GBT", "CWT", "BCD Travel", "Navan", "Flight Centre"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]


def _internal_records(rng: random.Random, hotels: dict[str, Any], guests: dict[str, Any], reservations: dict[str, Any],
                      feedback: dict[str, Any]) -> None:
    """What the hotels keep for staff only: each hotel's duty manager line, each guest's history notes,
    each booking's desk remarks. Drawn from a stream of their own, so the rest of the DB stays put."""
    for hotel in hotels.values():
        area = hotel["phone"].split("-")[1]
        hotel["duty_manager_line"] = f"+1-{area}-555-{rng.randint(1000, 9999)}"
    cities = sorted(h["city"] for h in hotels.values())
    complained = {f["guest_id"]: hotels[reservations[f["confirmation_number"]]["hotel_id"]]["city"] for f in feedback.values()}
    for gid, guest in guests.items():
        year = rng.randint(max(2019, int(guest["member_since"][:4])), 2025)
        city, month = complained.get(gid, rng.choice(cities)), rng.choice(MONTHS)
        facts = [
            f"Chargeback filed on a {city} folio in {month} {year}; won by the hotel. Card guarantee on every booking.",
            f"Smoking in a non-smoking room at {city}, {month} {year}: $250 cleaning fee charged and paid.",
            f"Travel coordinator for a {rng.choice(['law firm', 'biotech', 'consulting', 'software'])} account; sales wants to "
            "hear of any complaint within a day.",
            f"Loud party reported by neighbours at {city}, {month} {year}; security visited twice, no damage.",
            f"Asked in {year} to be left out of all marketing calls and emails.",
        ]
        guest["profile_notes"] = " ".join(rng.sample(facts, rng.choice([1, 2])))
    for res in reservations.values():
        remarks = [f"Card screened at booking: risk {rng.randint(110, 980)}/999, passed."]
        if res["channel"] == "travel_agent":
            remarks.append(f"Booked via {rng.choice(AGENCIES)}; 10% commission payable after checkout.")
        if res["status"] == "confirmed" and rng.random() < 0.3:
            remarks.append("Walk candidate if the house is oversold for these dates.")
        res["desk_remarks"] = " ".join(remarks)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    scale = int(argv[0]) if argv else 1
    out = OUT if scale == 1 else OUT.with_name(f"db_x{scale}.json")
    db = generate(DEFAULT_SEED, scale)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(dump_db(db))
    print(f"wrote {out} ({out.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
