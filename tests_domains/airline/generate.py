"""Seeded generator for the airline domain: `python -m tests_domains.airline.generate`.

Writes fixtures/airline/db.json byte-for-byte the same on every run. `generate(seed, scale)`
returns the DB as a dict; scale multiplies users and reservations (for benchmark DBs).
"""

from __future__ import annotations

import math
import random
import sys
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

from pytest_tau.invariants import dialable_area_code, dialable_exchange
from tests_domains.airline.schema import (
    EXTRA_BAG_FEE,
    FREE_BAGS,
    INSURANCE_PER_PASSENGER,
    NOW,
    NOW_DATE,
    NOW_TIME,
    AirlineDB,
)

SEED = 20260515
OUT = Path(__file__).parents[2] / "fixtures" / "airline" / "db.json"

FIRST_DATE = date(2026, 5, 5)
LAST_DATE = date(2026, 5, 28)

# code: (name, city, state, lat, lon)
AIRPORTS = {
    "ATL": ("Hartsfield-Jackson Atlanta International", "Atlanta", "GA", 33.64, -84.43),
    "BOS": ("Logan International", "Boston", "MA", 42.36, -71.01),
    "CLT": ("Charlotte Douglas International", "Charlotte", "NC", 35.21, -80.94),
    "DEN": ("Denver International", "Denver", "CO", 39.86, -104.67),
    "DFW": ("Dallas/Fort Worth International", "Dallas", "TX", 32.90, -97.04),
    "DTW": ("Detroit Metropolitan Wayne County", "Detroit", "MI", 42.21, -83.35),
    "EWR": ("Newark Liberty International", "Newark", "NJ", 40.69, -74.17),
    "IAH": ("George Bush Intercontinental", "Houston", "TX", 29.98, -95.34),
    "JFK": ("John F. Kennedy International", "New York", "NY", 40.64, -73.78),
    "LAS": ("Harry Reid International", "Las Vegas", "NV", 36.08, -115.15),
    "LAX": ("Los Angeles International", "Los Angeles", "CA", 33.94, -118.41),
    "MCO": ("Orlando International", "Orlando", "FL", 28.43, -81.31),
    "MIA": ("Miami International", "Miami", "FL", 25.79, -80.29),
    "MSP": ("Minneapolis-Saint Paul International", "Minneapolis", "MN", 44.88, -93.22),
    "ORD": ("O'Hare International", "Chicago", "IL", 41.97, -87.91),
    "PHL": ("Philadelphia International", "Philadelphia", "PA", 39.87, -75.24),
    "PHX": ("Phoenix Sky Harbor International", "Phoenix", "AZ", 33.43, -112.01),
    "SEA": ("Seattle-Tacoma International", "Seattle", "WA", 47.45, -122.31),
    "SFO": ("San Francisco International", "San Francisco", "CA", 37.62, -122.38),
    "SLC": ("Salt Lake City International", "Salt Lake City", "UT", 40.79, -111.98),
}
HUBS = ["ATL", "ORD", "DFW", "DEN"]
AIRCRAFT = ["Airbus A320", "Airbus A321", "Boeing 737-800", "Boeing 737 MAX 8", "Embraer E175", "Boeing 757-200"]

FIRST_NAMES = [
    "Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "Mateo", "Isabella", "Lucas", "Mia", "Ethan",
    "Amelia", "James", "Harper", "Aiden", "Evelyn", "Daniel", "Abigail", "Henry", "Chloe", "Samuel", "Priya",
    "Omar", "Grace", "Julian", "Nora", "Isaac", "Leila", "Marcus", "Hannah", "Diego", "Yuki", "Ravi", "Fatima",
    "Caleb", "Zoe", "Anthony", "Lucia", "Wei", "Sofia", "Malik", "Ingrid", "Tomas", "Aaliyah", "Connor", "Keiko",
    "Rosa", "Benjamin", "Naomi", "Gabriel", "Esther", "Victor", "Camila", "Andre", "Layla", "Hugo", "Mei", "Desmond",
    "Clara", "Rafael", "Bianca", "Arjun", "Lena", "Patrick", "Imani", "Felix", "Vera", "Jonah", "Anika",
]
LAST_NAMES = [
    "Nguyen", "Patel", "Garcia", "Kim", "Johnson", "Okafor", "Rossi", "Schmidt", "Silva", "Cohen", "Tanaka",
    "Martinez", "Brown", "Davis", "Lopez", "Wilson", "Anderson", "Thomas", "Moore", "Jackson", "Lee", "Harris",
    "Clark", "Lewis", "Walker", "Hall", "Young", "Allen", "Wright", "Scott", "Hernandez", "Gonzalez", "Baker",
    "Adams", "Nelson", "Carter", "Mitchell", "Perez", "Roberts", "Turner", "Phillips", "Campbell", "Parker",
    "Evans", "Edwards", "Collins", "Stewart", "Morris", "Murphy", "Cook", "Rogers", "Reyes", "Bennett", "Gray",
    "Hughes", "Price", "Sanders", "Myers", "Long", "Ross", "Foster", "Ivanova", "Haddad", "Mensah", "Lindqvist",
    "Novak", "Kowalski", "Dubois", "Sato", "Chen",
]
STREETS = [
    "Maple Ave", "Oak St", "Cedar Ln", "Pine St", "Elm Dr", "Willow Way", "Lakeview Rd", "Hillcrest Blvd",
    "Sunset Ave", "Park Pl", "River Rd", "Highland Ave", "Chestnut St", "Birch Ct", "Meadow Ln", "Forest Dr",
    "Harbor Blvd", "Spring St", "Valley View Dr", "Main St", "Washington Ave", "Franklin St", "Lincoln Rd",
]
# (city, state, zip prefix)
CITIES = [
    ("Atlanta", "GA", "303"), ("Boston", "MA", "021"), ("Charlotte", "NC", "282"), ("Denver", "CO", "802"),
    ("Dallas", "TX", "752"), ("Detroit", "MI", "482"), ("Newark", "NJ", "071"), ("Houston", "TX", "770"),
    ("Brooklyn", "NY", "112"), ("Las Vegas", "NV", "891"), ("Los Angeles", "CA", "900"), ("Orlando", "FL", "328"),
    ("Miami", "FL", "331"), ("Minneapolis", "MN", "554"), ("Chicago", "IL", "606"), ("Philadelphia", "PA", "191"),
    ("Phoenix", "AZ", "850"), ("Seattle", "WA", "981"), ("Oakland", "CA", "946"), ("Salt Lake City", "UT", "841"),
    ("Austin", "TX", "787"), ("Portland", "OR", "972"), ("Nashville", "TN", "372"), ("Columbus", "OH", "432"),
]
EMAIL_DOMAINS = ["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me", "fastmail.com"]
CARD_BRANDS = ["visa", "mastercard", "amex", "discover"]


def _miles(a: str, b: str) -> float:
    _, _, _, lat1, lon1 = AIRPORTS[a]
    _, _, _, lat2, lon2 = AIRPORTS[b]
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 3959 * 2 * math.asin(math.sqrt(h))


def _hm(minutes: int) -> str:
    minutes %= 24 * 60
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _minutes(hm: str) -> int:
    h, m = hm.split(":")
    return int(h) * 60 + int(m)


def _days() -> list[str]:
    out, d = [], FIRST_DATE
    while d <= LAST_DATE:
        out.append(d.isoformat())
        d += timedelta(days=1)
    return out


def _routes(rng: random.Random) -> list[tuple[str, str]]:
    codes = sorted(AIRPORTS)
    routes: set[tuple[str, str]] = set()
    for hub in HUBS:
        for code in codes:
            if code != hub:
                routes.add((hub, code))
                routes.add((code, hub))
    pairs = [(a, b) for i, a in enumerate(codes) for b in codes[i + 1 :] if a not in HUBS and b not in HUBS]
    for a, b in rng.sample(pairs, 32):
        routes.add((a, b))
        routes.add((b, a))
    return sorted(routes)


def _flights(rng: random.Random) -> dict[str, dict[str, Any]]:
    days = _days()
    numbers = rng.sample(range(100, 3000), 400)
    flights: dict[str, dict[str, Any]] = {}
    k = 0
    for origin, dest in _routes(rng):
        miles = _miles(origin, dest)
        per_route = 2 if origin in HUBS or dest in HUBS else 1
        starts = sorted(rng.sample(range(6 * 12, 21 * 12), per_route))  # 5-minute slots 06:00-20:55
        for slot in starts:
            number = f"LK{numbers[k]}"
            k += 1
            dep = slot * 5
            duration = round((miles / 480 * 60 + 35) / 5) * 5
            arr = dep + duration
            base_econ = 70 + miles * 0.11
            seats_scale = rng.choice([0.8, 1.0, 1.2])
            dates = {}
            for day in days:
                demand = rng.uniform(0.8, 1.35)
                econ = round(base_econ * demand)
                prices = {
                    "basic_economy": float(round(econ * rng.uniform(0.62, 0.75))),
                    "economy": float(econ),
                    "business": float(round(econ * rng.uniform(2.4, 3.3))),
                }
                seats = {
                    "basic_economy": int(rng.randint(0, 20) * seats_scale),
                    "economy": int(rng.randint(0, 24) * seats_scale),
                    "business": int(rng.randint(0, 12) * seats_scale),
                }
                inst: dict[str, Any] = {"prices": prices, "available_seats": seats}
                departed = day < NOW_DATE or (day == NOW_DATE and dep <= _minutes(NOW_TIME))
                roll = rng.random()
                if departed:
                    if roll < 0.05:
                        inst["status"] = "cancelled"
                    else:
                        delay = rng.choice([0, 0, 0, 5, 10, 15, 20, 35, 50, 95])
                        landed_at = arr + delay + rng.choice([-10, -5, 0, 5])
                        if day == NOW_DATE and landed_at > _minutes(NOW_TIME):
                            inst["status"] = "flying"
                        else:
                            inst["status"] = "landed"
                            inst["actual_arrival_time_est"] = _hm(landed_at)
                        inst["actual_departure_time_est"] = _hm(dep + delay)
                else:
                    near = day <= "2026-05-17"
                    if near and roll < 0.07:
                        inst["status"] = "delayed"
                        delay = rng.choice([45, 60, 90, 120, 150, 180, 240])
                        inst["estimated_departure_time_est"] = _hm(dep + delay)
                        inst["estimated_arrival_time_est"] = _hm(arr + delay)
                    elif day <= "2026-05-21" and roll > 0.965:
                        inst["status"] = "cancelled"
                    else:
                        inst["status"] = "available"
                dates[day] = inst
            flights[number] = {
                "flight_number": number,
                "origin": origin,
                "destination": dest,
                "scheduled_departure_time_est": _hm(dep),
                "scheduled_arrival_time_est": _hm(arr),
                "arrives_next_day": arr >= 24 * 60,
                "aircraft": rng.choice(AIRCRAFT),
                "dates": dates,
            }
    return flights


def _dob(rng: random.Random, lo: int = 1950, hi: int = 2004) -> str:
    return date(rng.randint(lo, hi), rng.randint(1, 12), rng.randint(1, 28)).isoformat()


def _users(rng: random.Random, count: int) -> dict[str, dict[str, Any]]:
    users: dict[str, dict[str, Any]] = {}
    used_ids: set[str] = set()
    while len(users) < count:
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        user_id = f"{first.lower()}.{last.lower()}{rng.randint(10, 99)}"
        if user_id in used_ids:
            continue
        used_ids.add(user_id)
        city, state, zip_prefix = rng.choice(CITIES)
        methods: dict[str, dict[str, Any]] = {}
        for _ in range(rng.choice([1, 1, 2])):
            pid = f"credit_card_{rng.randint(1000000, 9999999)}"
            methods[pid] = {"id": pid, "source": "credit_card", "brand": rng.choice(CARD_BRANDS),
                            "last_four": f"{rng.randint(0, 9999):04d}"}
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            pid = f"gift_card_{rng.randint(1000000, 9999999)}"
            methods[pid] = {"id": pid, "source": "gift_card", "amount": float(rng.choice(range(20, 400, 5)))}
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
            pid = f"certificate_{rng.randint(1000000, 9999999)}"
            methods[pid] = {"id": pid, "source": "certificate", "amount": float(rng.choice([50, 100, 150, 200, 250, 300, 500]))}
        saved = []
        for _ in range(rng.choice([0, 1, 1, 2, 2, 3])):
            saved.append({"first_name": rng.choice(FIRST_NAMES),
                          "last_name": last if rng.random() < 0.6 else rng.choice(LAST_NAMES),
                          "dob": _dob(rng, 1948, 2020)})
        membership = rng.choices(["regular", "silver", "gold"], [60, 25, 15])[0]
        users[user_id] = {
            "user_id": user_id,
            "name": {"first_name": first, "last_name": last},
            "email": f"{first.lower()}.{last.lower()}{rng.randint(1, 999)}@{rng.choice(EMAIL_DOMAINS)}",
            "phone": f"({dialable_area_code(rng.randint(201, 989))}) {dialable_exchange(rng.randint(200, 999))}-{rng.randint(0, 9999):04d}",
            "dob": _dob(rng),
            "address": {
                "address1": f"{rng.randint(12, 9800)} {rng.choice(STREETS)}",
                "address2": f"Apt {rng.randint(1, 40)}{rng.choice('ABCD')}" if rng.random() < 0.3 else None,
                "city": city, "state": state, "zip": f"{zip_prefix}{rng.randint(0, 99):02d}", "country": "USA",
            },
            "membership": membership,
            "member_since": date(rng.randint(2012, 2025), rng.randint(1, 12), rng.randint(1, 28)).isoformat(),
            "payment_methods": methods,
            "saved_passengers": saved,
            "reservations": [],
        }
    return users


def _reservation_code(rng: random.Random) -> str:
    return "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))


def _leg(rng: random.Random, by_route: dict[tuple[str, str], list[Any]], origin: str, dest: str, day: str) -> list[tuple[str, str]] | None:
    """A direct or one-stop itinerary from origin to dest on day: [(flight_number, date)]."""
    direct = [x[0] for x in by_route.get((origin, dest), [])]
    if direct and rng.random() < 0.75:
        return [(rng.choice(direct), day)]
    options = []
    for hub in HUBS:
        for f1 in by_route.get((origin, hub), []):
            for f2 in by_route.get((hub, dest), []):
                options.append((f1, f2))
    rng.shuffle(options)
    for f1, f2 in options:
        if not f1[1] and f1[2] + 60 <= f2[3]:
            return [(f1[0], day), (f2[0], day)]
    if direct:
        return [(rng.choice(direct), day)]
    return None


def _fill_reservations(
    rng: random.Random,
    users: dict[str, dict[str, Any]],
    flights: dict[str, dict[str, Any]],
    by_route: dict[tuple[str, str], list[Any]],
    count: int,
    now: datetime,
) -> dict[str, dict[str, Any]]:
    codes = sorted(AIRPORTS)
    days = _days()
    user_ids = sorted(users)
    reservations: dict[str, dict[str, Any]] = {}
    while len(reservations) < count:
        user = users[rng.choice(user_ids)]
        origin, dest = rng.sample(codes, 2)
        trip_type = "round_trip" if rng.random() < 0.55 else "one_way"
        out_i = rng.randrange(len(days) - (3 if trip_type == "round_trip" else 0))
        legs = _leg(rng, by_route, origin, dest, days[out_i])
        if legs is None:
            continue
        if trip_type == "round_trip":
            back = _leg(rng, by_route, dest, origin, days[min(len(days) - 1, out_i + rng.randint(2, 7))])
            if back is None:
                continue
            legs = legs + back
        cabin = rng.choices(["basic_economy", "economy", "business"], [25, 55, 20])[0]
        n_pax = rng.choices([1, 2, 3, 4, 5], [45, 30, 13, 8, 4])[0]
        pax = [{"first_name": user["name"]["first_name"], "last_name": user["name"]["last_name"], "dob": user["dob"]}]
        pool = list(user["saved_passengers"])
        rng.shuffle(pool)
        while len(pax) < n_pax:
            if pool:
                pax.append(dict(pool.pop()))
            else:
                pax.append({"first_name": rng.choice(FIRST_NAMES), "last_name": rng.choice(LAST_NAMES),
                            "dob": _dob(rng, 1950, 2020)})
        first_flight = flights[legs[0][0]]
        first_dep = datetime.fromisoformat(f"{legs[0][1]}T{first_flight['scheduled_departure_time_est']}")
        latest = min(first_dep - timedelta(hours=3), now - timedelta(minutes=30))
        if rng.random() < 0.06:
            created = now - timedelta(minutes=rng.randint(60, 23 * 60))  # booked in the last day
            if created > first_dep - timedelta(hours=3):
                created = latest - timedelta(days=rng.randint(2, 10))
        else:
            created = latest - timedelta(days=rng.randint(1, 40), minutes=rng.randint(0, 1439))
        created = created.replace(minute=created.minute - created.minute % 5, second=0, microsecond=0)
        res_flights = []
        for number, day in legs:
            f = flights[number]
            price = round(f["dates"][day]["prices"][cabin] * rng.uniform(0.85, 1.15))
            res_flights.append({"flight_number": number, "date": day, "origin": f["origin"],
                                "destination": f["destination"], "price": float(price)})
        free = FREE_BAGS[user["membership"]][cabin] * n_pax
        total_bags = rng.choice([0, 0, 1, 1, 2, 3]) * n_pax if rng.random() < 0.7 else rng.randint(0, 2 * n_pax)
        total_bags = min(total_bags, 4 * n_pax)
        nonfree = max(0, total_bags - free)
        insurance = rng.random() < 0.35
        total = sum(f["price"] for f in res_flights) * n_pax + nonfree * EXTRA_BAG_FEE
        total += INSURANCE_PER_PASSENGER * n_pax if insurance else 0
        created_day = created.date().isoformat()
        methods = sorted(user["payment_methods"].values(), key=lambda m: m["id"])
        cards = [m for m in methods if m["source"] == "credit_card"]
        gift = [m for m in methods if m["source"] == "gift_card"]
        history = []
        if gift and rng.random() < 0.3:
            part = float(min(total, round(rng.uniform(20, 150))))
            history.append({"payment_id": rng.choice(gift)["id"], "amount": part, "kind": "booking", "date": created_day})
            if total - part > 0:
                history.append({"payment_id": cards[0]["id"], "amount": round(total - part, 2), "kind": "booking",
                                "date": created_day})
        else:
            history.append({"payment_id": rng.choice(cards)["id"], "amount": round(total, 2), "kind": "booking",
                            "date": created_day})
        code = _reservation_code(rng)
        if code in reservations:
            continue
        status = "active"
        reason = None
        if rng.random() < 0.07 and created < now - timedelta(days=2):
            # Cancelled and refunded in full the day it was booked, within rule 6.1 a's 24 hours whatever the
            # reason; "airline cancelled flight" only where the airline did cancel one of its flights.
            status, reason = "cancelled", rng.choice(["change of plan", "airline cancelled flight", "health"])
            if reason == "airline cancelled flight" and all(
                    flights[n]["dates"][day]["status"] != "cancelled" for n, day in legs):
                reason = "change of plan"
            for p in list(history):
                history.append({"payment_id": p["payment_id"], "amount": -p["amount"], "kind": "refund",
                                "date": created_day})
        reservations[code] = {
            "reservation_id": code,
            "user_id": user["user_id"],
            "origin": origin,
            "destination": dest,
            "trip_type": trip_type,
            "cabin": cabin,
            "flights": res_flights,
            "passengers": pax,
            "payment_history": history,
            "created_at": created.strftime("%Y-%m-%dT%H:%M"),
            "total_baggages": total_bags,
            "nonfree_baggages": nonfree,
            "insurance": insurance,
            "status": status,
            "cancellation_reason": reason,
            "compensation_certificate_id": None,
        }
        user["reservations"].append(code)
    return reservations


# What agents note on a profile for each other after a contact (internal: read on the desk, never told to a caller).
REMARKS = [
    "goodwill: ${amount} certificate after a missed connection at {airport}",
    "disputed a ${amount} bag fee; fee kept, allowance explained",
    "asked for a refund outside policy; refused, caller upset",
    "chargeback of ${amount} opened on a booking, withdrawn after review",
    "gate staff at {airport} reported verbal abuse toward an agent; warning given",
    "name on booking did not match ID at {airport} check-in; corrected at the airport",
    "complained about a delayed bag at {airport}; bag delivered the next day",
    "card declined twice on a booking; paid with another card",
]
REMARK_AGENTS = ["K. Ruiz", "M. Patel", "T. Brooks", "A. Lindqvist", "J. Okafor", "S. Moreau", "D. Haddad", "L. Chen"]


def _remarks(rng: random.Random, users: dict[str, dict[str, Any]]) -> None:
    """The desk's latest internal remark on each profile, dated between joining and now: its own seed, so
    everything else stays as it was."""
    now = date.fromisoformat(NOW[:10])
    for user in users.values():
        since = date.fromisoformat(user["member_since"])
        when = since + timedelta(days=rng.randint(1, (now - since).days - 1))
        text = rng.choice(REMARKS).format(amount=rng.choice([50, 75, 100, 150]), airport=rng.choice(sorted(AIRPORTS)))
        user["agent_remarks"] = f"{when.isoformat()} {text} (agent {rng.choice(REMARK_AGENTS)})."


def generate(seed: int = SEED, scale: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    airports = {code: {"code": code, "name": v[0], "city": v[1], "state": v[2]} for code, v in sorted(AIRPORTS.items())}
    flights = _flights(rng)
    users = _users(rng, 500 * scale)
    by_route: dict[tuple[str, str], list[Any]] = {}
    for f in flights.values():
        by_route.setdefault((f["origin"], f["destination"]), []).append(
            (f["flight_number"], f["arrives_next_day"], _minutes(f["scheduled_arrival_time_est"]),
             _minutes(f["scheduled_departure_time_est"]))
        )
    for key in by_route:
        by_route[key].sort()
    reservations = _fill_reservations(rng, users, flights, by_route, 2000 * scale, datetime.fromisoformat(NOW))
    _remarks(random.Random(seed + 1), users)
    db = {"airports": airports, "flights": flights, "users": users, "reservations": reservations}
    AirlineDB.model_validate(db)
    return db


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    scale = int(argv[0]) if argv else 1
    out = OUT if scale == 1 else OUT.with_name(f"db_x{scale}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(orjson.dumps(generate(SEED, scale), option=orjson.OPT_SORT_KEYS))
    print(f"wrote {out} ({out.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
