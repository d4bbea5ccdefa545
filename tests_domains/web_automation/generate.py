"""Seeded generator for the Relaypoint web-task desk DB (simulated sites, pages and forms).

    python -m tests_domains.web_automation.generate        # writes fixtures/web_automation/db.json
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from pytest_tau.invariants import dialable_area_code, dialable_exchange
from tests_domains.web_automation.schema import PLANS, WebDB

SEED = 1313
NOW = datetime(2026, 6, 10, 9, 30)
Rec = dict[str, Any]
OUT = Path(__file__).parents[2] / "fixtures" / "web_automation" / "db.json"

FIRST = [
    "Aisha", "Bruno", "Carmen", "Declan", "Elena", "Farid", "Greta", "Hector", "Ines", "Jonas", "Keiko", "Lorenzo",
    "Maren", "Nikhil", "Odette", "Pavel", "Quinn", "Rhea", "Stellan", "Tamsin", "Umar", "Vera", "Wendell", "Ximena",
    "Yusuf", "Zofia", "Adrian", "Beatriz", "Cormac", "Dalia", "Emeka", "Freya", "Gideon", "Hana", "Ivo", "Jolene",
    "Kwame", "Leonie", "Matteo", "Nora", "Osman", "Paloma", "Rafferty", "Saoirse", "Tobias", "Ulla", "Viktor", "Wren",
]
LAST = [
    "Abara", "Bergstrom", "Cardenas", "Dunleavy", "Eklund", "Fairbanks", "Gutierrez", "Halvorsen", "Ishikawa",
    "Jovanovic", "Kendrick", "Lachance", "Mwangi", "Nakashima", "Oyelaran", "Pellegrini", "Quist", "Radcliffe",
    "Sorensen", "Takahashi", "Umberger", "Valdivia", "Wojcik", "Yilmaz", "Zamora", "Ashdown", "Bellweather",
    "Castellano", "Drummond", "Esposito", "Falkner", "Grimaldi", "Hawthorne", "Iglesias", "Kaminski", "Lindgren",
    "Marchetti", "Novotny", "Ostrowski", "Prendergast", "Rautio", "Szabo", "Thibodeaux", "Vance", "Whitcombe",
]
MAIL = ["gmail.com", "outlook.com", "proton.me", "fastmail.com", "yahoo.com", "icloud.com"]

# name stem, host stem, category
SITE_STEMS: list[tuple[str, str, str]] = [
    ("Harborview County", "harborviewcounty.gov", "government"),
    ("City of Millbrook", "millbrook.gov", "government"),
    ("Ashford Township", "ashfordtwp.gov", "government"),
    ("Pinecrest Borough", "pinecrestborough.gov", "government"),
    ("Lake Orin County", "lakeorincounty.gov", "government"),
    ("Redmill City", "redmillcity.gov", "government"),
    ("Stonebridge Parish", "stonebridgeparish.gov", "government"),
    ("Calder Valley", "caldervalley.gov", "government"),
    ("Brightwater Energy", "brightwaterenergy.com", "utilities"),
    ("Northgate Water District", "northgatewater.org", "utilities"),
    ("Coastline Waste Services", "coastlinewaste.com", "utilities"),
    ("Summit Fiber", "summitfiber.net", "utilities"),
    ("Gallery Lane Outfitters", "gallerylane.com", "retail"),
    ("Marlow & Finch", "marlowfinch.com", "retail"),
    ("Tinker Yard Tools", "tinkeryard.com", "retail"),
    ("Bluefern Home", "bluefernhome.com", "retail"),
    ("Copperpot Kitchen Supply", "copperpot.shop", "retail"),
    ("Loftwise Rentals", "loftwise.com", "real_estate"),
    ("Keystone Homes Listings", "keystonehomes.com", "real_estate"),
    ("Meadowgate Realty", "meadowgaterealty.com", "real_estate"),
    ("Hireline", "hireline.io", "jobs"),
    ("Crewboard", "crewboard.com", "jobs"),
    ("Lanternjobs", "lanternjobs.org", "jobs"),
    ("Skyhop Fares", "skyhopfares.com", "travel"),
    ("Railwise Europe", "railwise.eu", "travel"),
    ("Tidewater Ferries", "tidewaterferries.com", "travel"),
    ("Encore Ticketing", "encoretix.com", "events"),
    ("Riverside Arena", "riversidearena.com", "events"),
    ("Open Air Festivals", "openairfest.org", "events"),
]
SUFFIX = ["", "North", "East", "West", "South", "Central", "Metro"]

DISALLOW_POOL = ["/admin/", "/api/", "/cart/", "/checkout/", "/internal/", "/search", "/members/", "/private/", "/staff/", "/archive/"]

# path, title, kind per category (forms listed separately)
PAGE_POOL: dict[str, list[tuple[str, str, str]]] = {
    "government": [("/news", "News and announcements", "listing"), ("/notices/road-closures", "Road closures", "status"),
                   ("/council/agendas", "Council meeting agendas", "listing"), ("/permits/fees", "Permit fee schedule", "article"),
                   ("/archive/minutes", "Archived meeting minutes", "listing"), ("/staff/directory", "Staff directory", "listing"),
                   ("/notices/water", "Water service notices", "status"), ("/jobs", "County job openings", "listing")],
    "utilities": [("/outages", "Current outages", "status"), ("/rates", "Rate schedule", "article"),
                  ("/news", "Service news", "listing"), ("/members/usage", "Usage history", "listing"),
                  ("/internal/crews", "Crew schedules", "listing"), ("/projects", "Planned maintenance", "listing")],
    "retail": [("/catalog/new", "New arrivals", "listing"), ("/catalog/sale", "Sale items", "listing"),
               ("/catalog/outdoor", "Outdoor collection", "listing"), ("/product/flagship", "Flagship product page", "product"),
               ("/search", "Search results", "listing"), ("/members/deals", "Members-only deals", "listing"),
               ("/stores", "Store locations", "article")],
    "real_estate": [("/listings/rent", "Homes for rent", "listing"), ("/listings/sale", "Homes for sale", "listing"),
                    ("/listings/new", "Just listed", "listing"), ("/private/offers", "Private offers", "listing"),
                    ("/market-report", "Monthly market report", "article")],
    "jobs": [("/jobs/engineering", "Engineering jobs", "listing"), ("/jobs/remote", "Remote jobs", "listing"),
             ("/jobs/healthcare", "Healthcare jobs", "listing"), ("/members/saved", "Saved jobs", "listing"),
             ("/api/feed", "Jobs data feed", "listing"), ("/salary-guide", "Salary guide", "article")],
    "travel": [("/fares/deals", "Fare deals", "listing"), ("/schedules", "Timetables", "listing"),
               ("/status", "Service status", "status"), ("/fares/weekend", "Weekend fares", "listing"),
               ("/private/corporate", "Corporate fares", "listing")],
    "events": [("/events/upcoming", "Upcoming events", "listing"), ("/events/on-sale", "Tickets on sale now", "listing"),
               ("/venue/info", "Venue information", "article"), ("/status", "Event status updates", "status"),
               ("/members/presale", "Member presales", "listing")],
}


def _f(name: str, label: str, type_: str, required: bool, personal: bool, **rules: Any) -> Rec:
    return {"name": name, "label": label, "type": type_, "required": required, "personal": personal, **rules}


# form templates: (path, name, fee choices, fields builder)
FORM_POOL: dict[str, list[tuple[str, str, list[float], list[Rec]]]] = {
    "government": [
        ("/permits/parking/apply", "Residential parking permit application", [35.0, 42.5, 48.0, 27.75], [
            _f("full_name", "Full name", "text", True, True, max_length=60),
            _f("street_address", "Street address", "text", True, True, max_length=80),
            _f("license_plate", "License plate", "text", True, True, max_length=8),
            _f("permit_zone", "Permit zone", "select", True, False, allowed_values=["Zone A", "Zone B", "Zone C", "Zone D"]),
            _f("start_date", "Permit start date", "date", True, False),
            _f("email", "Email", "email", True, True, max_length=80),
            _f("phone", "Daytime phone", "phone", False, True, max_length=20),
        ]),
        ("/records/request", "Public records request", [0.0, 5.0, 12.5], [
            _f("requester_name", "Requester name", "text", True, True, max_length=60),
            _f("email", "Email", "email", True, True, max_length=80),
            _f("record_type", "Record type", "select", True, False,
               allowed_values=["Building permits", "Police incident reports", "Property tax records", "Meeting minutes"]),
            _f("from_date", "Records from", "date", True, False),
            _f("to_date", "Records to", "date", True, False),
            _f("delivery", "Delivery method", "select", True, False, allowed_values=["Email", "Postal mail", "Pickup"]),
        ]),
        ("/inspections/request", "Building inspection request", [60.0, 75.0, 88.25], [
            _f("permit_number", "Permit number", "text", True, False, max_length=12),
            _f("site_address", "Site address", "text", True, True, max_length=80),
            _f("inspection_type", "Inspection type", "select", True, False,
               allowed_values=["Footing", "Framing", "Electrical rough-in", "Plumbing rough-in", "Final"]),
            _f("preferred_date", "Preferred date", "date", True, False),
            _f("contact_phone", "Contact phone", "phone", True, True, max_length=20),
        ]),
        ("/account/dog-license", "Dog license renewal", [18.0, 22.0], [
            _f("owner_name", "Owner name", "text", True, True, max_length=60),
            _f("dog_name", "Dog's name", "text", True, False, max_length=20),
            _f("rabies_tag", "Rabies tag number", "text", True, False, max_length=10),
            _f("license_year", "License year", "select", True, False, allowed_values=["2026", "2027"]),
        ]),
    ],
    "utilities": [
        ("/services/bulk-pickup", "Bulk item pickup booking", [0.0, 15.0, 25.0], [
            _f("account_number", "Utility account number", "text", True, True, max_length=12),
            _f("service_address", "Service address", "text", True, True, max_length=80),
            _f("pickup_date", "Pickup date", "date", True, False),
            _f("item_category", "Item category", "select", True, False,
               allowed_values=["Furniture", "Appliances", "Yard waste", "Electronics"]),
            _f("item_count", "Number of items", "number", True, False),
            _f("phone", "Phone", "phone", True, True, max_length=20),
        ]),
        ("/services/move-in", "Start service at a new address", [0.0, 20.0], [
            _f("full_name", "Account holder name", "text", True, True, max_length=60),
            _f("service_address", "New service address", "text", True, True, max_length=80),
            _f("start_date", "Start date", "date", True, False),
            _f("email", "Email", "email", True, True, max_length=80),
            _f("paperless", "Paperless billing", "select", False, False, allowed_values=["Yes", "No"]),
        ]),
    ],
    "events": [
        ("/waitlist/join", "Sold-out show waitlist", [0.0, 2.5], [
            _f("full_name", "Full name", "text", True, True, max_length=50),
            _f("email", "Email", "email", True, True, max_length=80),
            _f("ticket_quantity", "Tickets wanted", "number", True, False),
            _f("section", "Section preference", "select", True, False, allowed_values=["Floor", "Lower bowl", "Upper bowl", "Any"]),
            _f("event_date", "Show date", "date", True, False),
        ]),
    ],
    "travel": [
        ("/refunds/claim", "Delay compensation claim", [0.0], [
            _f("full_name", "Passenger name", "text", True, True, max_length=60),
            _f("booking_reference", "Booking reference", "text", True, True, max_length=6),
            _f("travel_date", "Travel date", "date", True, False),
            _f("delay_band", "Length of delay", "select", True, False,
               allowed_values=["30-59 minutes", "60-119 minutes", "120 minutes or more"]),
            _f("email", "Email", "email", True, True, max_length=80),
        ]),
    ],
    "jobs": [
        ("/apply/quick", "Quick apply profile", [0.0], [
            _f("full_name", "Full name", "text", True, True, max_length=60),
            _f("email", "Email", "email", True, True, max_length=80),
            _f("years_experience", "Years of experience", "number", True, False),
            _f("available_from", "Available from", "date", True, False),
            _f("work_authorization", "Work authorization", "select", True, False,
               allowed_values=["Citizen", "Permanent resident", "Visa holder", "Needs sponsorship"]),
        ]),
    ],
    "retail": [
        ("/restock/notify", "Back-in-stock request", [0.0], [
            _f("email", "Email", "email", True, True, max_length=80),
            _f("product_code", "Product code", "text", True, False, max_length=10),
            _f("size", "Size", "select", False, False, allowed_values=["XS", "S", "M", "L", "XL"]),
        ]),
    ],
    "real_estate": [
        ("/viewings/book", "Viewing appointment request", [0.0], [
            _f("full_name", "Full name", "text", True, True, max_length=60),
            _f("phone", "Phone", "phone", True, True, max_length=20),
            _f("listing_code", "Listing code", "text", True, False, max_length=8),
            _f("viewing_date", "Preferred viewing date", "date", True, False),
        ]),
    ],
}
DATE_FORMATS = ["YYYY-MM-DD", "MM/DD/YYYY", "DD/MM/YYYY"]
CHANGE_SUMMARIES = {
    "listing": ["{n} new items listed", "{n} items removed", "prices changed on {n} items", "{n} items marked sold out"],
    "status": ["status changed to 'delayed'", "new notice posted", "status changed to 'resolved'", "notice updated"],
    "article": ["text updated in {n} paragraphs", "a new section was added", "a table was updated"],
    "product": ["price changed", "back in stock", "out of stock", "new colour option added"],
    "form": ["a field was added to the form", "form instructions updated", "fee notice updated"],
}


def _stamp(d: datetime) -> str:
    return d.strftime("%Y-%m-%dT%H:%M")


def _fmt_date(d: date, fmt: str) -> str:
    if fmt == "MM/DD/YYYY":
        return d.strftime("%m/%d/%Y")
    if fmt == "DD/MM/YYYY":
        return d.strftime("%d/%m/%Y")
    return d.isoformat()


def _value(rng: random.Random, field: Rec, cus: Rec) -> str:
    name, type_ = field["name"], field["type"]
    if type_ == "select":
        return str(rng.choice(field["allowed_values"]))
    if type_ == "date":
        return _fmt_date(NOW.date() + timedelta(days=rng.randint(-60, 40)), field["date_format"])
    if type_ == "number":
        return str(rng.randint(1, 6))
    if type_ == "email":
        return str(cus["email"])
    if type_ == "phone":
        return str(cus["phone"])
    if name in ("full_name", "requester_name", "owner_name"):
        return f"{cus['first_name']} {cus['last_name']}"
    if "address" in name:
        return f"{rng.randint(10, 9899)} {rng.choice(['Alder', 'Birch', 'Quarry', 'Ferry', 'Hollis', 'Marsh'])} {rng.choice(['St', 'Ave', 'Rd', 'Ln'])}"
    if name == "license_plate":
        return f"{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{rng.randint(1000, 9999)}"
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    return "".join(rng.choice(letters + "0123456789") for _ in range(min(6, field.get("max_length") or 6)))


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    db: dict[str, dict[str, Rec]] = {t: {} for t in WebDB.model_fields}

    # -- customers ----------------------------------------------------------------------
    seen: set[tuple[str, str]] = set()
    while len(db["customers"]) < 420:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        if (first, last) in seen:
            continue
        seen.add((first, last))
        cid = f"RP-{rng.randint(10000, 99999)}"
        if cid in db["customers"]:
            continue
        born = date(rng.randint(1952, 2003), rng.randint(1, 12), rng.randint(1, 28))
        sep = rng.choice([".", "_", ""])
        email = f"{first.lower()}{sep}{last.lower()}{rng.choice(['', str(rng.randint(1, 99))])}@{rng.choice(MAIL)}"
        plan = rng.choices(["basic", "plus", "business"], weights=[45, 40, 15])[0]
        since = date(2021, 1, 1) + timedelta(days=rng.randint(0, 1900))
        db["customers"][cid] = {
            "customer_id": cid, "first_name": first, "last_name": last, "email": email,
            "date_of_birth": born.isoformat(), "phone": f"+1-{dialable_area_code(rng.randint(201, 989))}-{dialable_exchange(rng.randint(200, 989))}-{rng.randint(1000, 9999)}",
            "plan": plan, "status": "suspended" if rng.random() < 0.06 else "active",
            "member_since": since.isoformat(), "billing_day": rng.randint(1, 28),
        }

    # -- sites, pages, forms ----------------------------------------------------------------
    site_n = 100
    page_n = 1000
    for stem, host, category in SITE_STEMS:
        for suffix in rng.sample(SUFFIX, rng.randint(3, 5)):
            site_n += rng.randint(1, 9)
            sid = f"S{site_n}"
            name = f"{stem} {suffix}".strip() if category not in ("government",) or not suffix else f"{stem} {suffix} Office"
            sub = suffix.lower() + "." if suffix else "www."
            disallowed = sorted(rng.sample(DISALLOW_POOL, rng.randint(2, 4)))
            login = ["/account/"]
            site: Rec = {
                "site_id": sid, "name": name, "host": sub + host, "category": category, "disallowed_paths": disallowed,
                "max_requests_per_minute": rng.choice([6, 12, 15, 20, 24, 40, 60]),
                "captcha_on_forms": rng.random() < 0.18, "login_paths": login,
            }
            db["sites"][sid] = site
            pages = rng.sample(PAGE_POOL[category], rng.randint(4, len(PAGE_POOL[category])))
            pages = [("/", f"{name} home", "article"), *pages, ("/account/overview", "My account", "listing")]
            for path, title, kind in sorted(pages):
                page_n += rng.randint(1, 7)
                pid = f"PG{page_n}"
                changed = NOW - timedelta(minutes=rng.randint(30, 60 * 24 * 40))
                page: Rec = {"page_id": pid, "site_id": sid, "path": path, "title": title, "kind": kind,
                             "last_changed_at": _stamp(changed)}
                if kind == "listing":
                    page["item_count"] = rng.randint(8, 4800)
                db["pages"][pid] = page
            for path, form_name, fees, fields in rng.sample(FORM_POOL[category], rng.randint(1, len(FORM_POOL[category]))):
                page_n += rng.randint(1, 7)
                pid = f"PG{page_n}"
                db["pages"][pid] = {"page_id": pid, "site_id": sid, "path": path, "title": form_name, "kind": "form",
                                    "last_changed_at": _stamp(NOW - timedelta(minutes=rng.randint(600, 60 * 24 * 90)))}
                fmt = rng.choice(DATE_FORMATS)
                form_fields = [dict(f, date_format=fmt) if f["type"] == "date" else dict(f) for f in fields]
                fid = f"FRM-{sid[1:]}-{len([f for f in db['forms'].values() if f['site_id'] == sid]) + 1}"
                db["forms"][fid] = {"form_id": fid, "site_id": sid, "page_id": pid, "name": form_name,
                                    "site_fee": rng.choice(fees), "fields": form_fields}

    cids = sorted(db["customers"])
    form_ids = sorted(db["forms"])
    page_ids = sorted(p for p, rec in db["pages"].items() if rec["kind"] != "form")
    site_ids = sorted(db["sites"])
    open_pages = [p for p in page_ids
                  if not any(db["pages"][p]["path"].startswith(d) for d in db["sites"][db["pages"][p]["site_id"]]["disallowed_paths"])
                  and not db["pages"][p]["path"].startswith("/account/")]

    # -- history per customer ----------------------------------------------------------------
    sub_n, mon_n, alert_n, job_n, charge_n = 40000, 70000, 100000, 5000, 800000
    for cid in cids:
        cus = db["customers"][cid]
        terms = PLANS[cus["plan"]]
        # plan renewals: the last four billing days
        for back in range(4):
            month = NOW.month - back - (0 if cus["billing_day"] <= NOW.day else 1)
            year = NOW.year + (month - 1) // 12
            month = (month - 1) % 12 + 1
            charge_n += rng.randint(1, 9)
            db["charges"][f"CH-{charge_n}"] = {
                "charge_id": f"CH-{charge_n}", "customer_id": cid, "kind": "plan_renewal", "amount": terms.monthly_price,
                "date": date(year, month, cus["billing_day"]).isoformat(),
                # a suspended account is one whose latest renewal was declined (policy 2.3)
                "description": f"{cus['plan'].title()} plan, monthly" + (", payment declined" if back == 0 and cus["status"] == "suspended" else ""),
            }
        # submissions: a few earlier ones, and for some a full month already
        n_sub = rng.randint(0, 6)
        full_month = cus["plan"] == "basic" and rng.random() < 0.22
        stamps = [NOW - timedelta(days=rng.randint(12, 150), minutes=rng.randint(0, 1400)) for _ in range(n_sub)]
        if full_month:
            stamps += [datetime(2026, 6, 1, 8, 0) + timedelta(days=rng.randint(0, 8), minutes=rng.randint(0, 600)) for _ in range(5)]
        elif rng.random() < 0.5:
            stamps += [datetime(2026, 6, 1, 8, 0) + timedelta(days=rng.randint(0, 8), minutes=rng.randint(0, 600))]
        for stamp in sorted(stamps):
            sub_n += rng.randint(1, 13)
            form = db["forms"][rng.choice(form_ids)]
            values = [{"name": f["name"], "value": _value(rng, f, cus)} for f in form["fields"] if f["required"] or rng.random() < 0.5]
            sid = f"SUB-{sub_n}"
            old = stamp < NOW - timedelta(days=10)
            db["submissions"][sid] = {
                "submission_id": sid, "customer_id": cid, "form_id": form["form_id"], "values": values,
                "submitted_at": _stamp(stamp), "status": rng.choice(["accepted", "accepted", "rejected"]) if old else "submitted",
                "fee_charged": form["site_fee"],
            }
            if form["site_fee"] > 0:
                charge_n += rng.randint(1, 9)
                db["charges"][f"CH-{charge_n}"] = {
                    "charge_id": f"CH-{charge_n}", "customer_id": cid, "kind": "site_fee", "amount": form["site_fee"],
                    "date": stamp.date().isoformat(), "description": f"Site fee: {form['name']} ({sid})",
                }
        # monitors: basic customers often at their quota
        if cus["plan"] == "basic":
            n_active = rng.choice([0, 1, 2, 3, 3, 3])
        else:
            n_active = rng.randint(0, min(terms.max_active_monitors, 7))
        n_other = rng.randint(0, 2)
        chosen = rng.sample(open_pages, n_active + n_other)
        for i, pid in enumerate(chosen):
            mon_n += rng.randint(1, 11)
            mid = f"MON-{mon_n}"
            created = NOW - timedelta(days=rng.randint(15, 300), minutes=rng.randint(0, 1400))
            status = "active" if i < n_active else rng.choice(["paused", "deleted"])
            db["monitors"][mid] = {
                "monitor_id": mid, "customer_id": cid, "page_id": pid,
                "interval_hours": rng.choice([h for h in (1, 3, 6, 12, 24, 48, 168) if h >= terms.min_interval_hours]),
                "channel": rng.choice(["email", "email", "sms"]),
                "keyword": rng.choice([None, None, None, "price", "closed", "delay", "available"]),
                "status": status, "created_at": _stamp(created),
            }
            kind = db["pages"][pid]["kind"]
            for _ in range(rng.randint(0, 6)):
                alert_n += rng.randint(1, 17)
                detected = created + timedelta(minutes=rng.randint(60, max(61, int((NOW - created).total_seconds() // 60) - 30)))
                db["change_alerts"][f"CHG-{alert_n}"] = {
                    "alert_id": f"CHG-{alert_n}", "monitor_id": mid, "detected_at": _stamp(detected),
                    "summary": rng.choice(CHANGE_SUMMARIES[kind]).format(n=rng.randint(1, 40)),
                }
        # extraction jobs
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            job_n += rng.randint(1, 9)
            site = db["sites"][rng.choice(site_ids)]
            listings = [p for p in open_pages if db["pages"][p]["site_id"] == site["site_id"] and db["pages"][p]["kind"] == "listing"]
            if not listings:
                continue
            path = db["pages"][rng.choice(listings)]["path"]
            # basic plans run one-time jobs only (the policy's plan table)
            schedule = "once" if cus["plan"] == "basic" else rng.choice(["once", "daily", "weekly"])
            if schedule == "once" and rng.random() < 0.45:  # booked recently, not run yet
                created = NOW - timedelta(minutes=rng.randint(30, 2800))
            else:
                created = NOW - timedelta(days=rng.randint(1, 120), minutes=rng.randint(0, 1400))
            db["extraction_jobs"][f"JOB-{job_n}"] = {
                "job_id": f"JOB-{job_n}", "customer_id": cid, "site_id": site["site_id"], "path_prefix": path,
                "max_pages": rng.choice([50, 100, 150, 200, min(terms.max_pages_per_job, 500)]),
                "requests_per_minute": min(terms.max_requests_per_minute, site["max_requests_per_minute"], rng.choice([5, 6, 10, 12])),
                "schedule": schedule,
                "status": "completed" if schedule == "once" and created < NOW - timedelta(days=2) else rng.choice(["scheduled", "scheduled", "cancelled"]),
                "created_at": _stamp(created),
            }

    pages_changed_when_seen(db)
    add_page_content(db, random.Random(seed + 11))
    record_past_runs(db, random.Random(seed + 23))
    accounts_open_before_use(db)
    WebDB.model_validate(db)  # fail loudly on a schema drift
    # fields left at their default (None) are omitted to keep the file small
    return {
        table: {key: {k: v for k, v in rec.items() if v is not None} for key, rec in records.items()}
        for table, records in db.items()
    }


# What listing pages show, by site category: (title patterns, price range in dollars).
ITEMS: dict[str, tuple[list[str], tuple[int, int]]] = {
    "real_estate": (["{n}-bed apartment on {street}", "{n}-bed townhouse near {street}", "Studio above {street}",
                     "{n}-bed house, {street}"], (850, 3900)),
    "jobs": (["{role}, {city}", "Senior {role} ({city})", "{role} - remote", "Junior {role}, {city}"], (42000, 185000)),
    "retail": (["{adj} {thing}", "{thing}, {adj} edition", "{adj} {thing} set"], (9, 420)),
    "events": (["{act} live at {venue}", "{act}: evening show", "{act} with guests"], (15, 180)),
    "travel": (["{city} to {city2}, one way", "{city} to {city2}, return", "{city2} weekend from {city}"], (29, 640)),
    "government": (["{role}, county {dept}", "Seasonal {role}, {dept}"], (36000, 98000)),
    "utilities": (["Crew lead, {dept}", "{role}, {dept}"], (41000, 112000)),
}
WORDS = {
    "street": ["Alder St", "Quarry Rd", "Hollis Ave", "Ferry Ln", "Marsh Rd", "Juniper Ct", "Tillman Way", "Osprey Dr", "Canal St"],
    "role": ["Data analyst", "Line cook", "Nurse", "Electrician", "Accountant", "Bus driver", "Web developer", "Librarian"],
    "city": ["Portland", "Tacoma", "Boise", "Reno", "Fresno", "Spokane", "Eugene", "Salem"],
    "city2": ["Denver", "Austin", "Omaha", "Tucson", "Madison", "Raleigh", "Tulsa", "Albany"],
    "adj": ["Walnut", "Linen", "Cast-iron", "Merino", "Bamboo", "Copper", "Canvas", "Stoneware"],
    "thing": ["desk lamp", "throw blanket", "skillet", "hiking socks", "cutting board", "kettle", "tote bag", "mug"],
    "act": ["The Lanterns", "Marisol Vega", "Northbound Brass", "Echo Parade", "The Quiet Hours", "Dale Okafor Trio"],
    "venue": ["the Grange Hall", "Pier 9", "the Orpheum", "Riverside Park"],
    "dept": ["public works", "parks", "records", "water services", "roads"],
}


def add_page_content(db: dict[str, dict[str, Rec]], rng: random.Random) -> None:
    """What pages show: the entries of listing pages that have prices, the text of status pages, and
    for some forms a status page of their own that the site updates when it receives a submission.
    After every other record, with its own seed, so those stay as they were."""
    for pid in sorted(db["pages"]):
        page = db["pages"][pid]
        category = db["sites"][page["site_id"]]["category"]
        if page["kind"] == "listing" and category in ITEMS and not page["path"].startswith(("/news", "/council", "/archive", "/staff", "/schedules", "/account")):
            patterns, (low, high) = ITEMS[category]
            changed = datetime.fromisoformat(page["last_changed_at"]).date()
            items = []
            for _ in range(min(page["item_count"], rng.randint(6, 14))):
                words = {key: rng.choice(options) for key, options in WORDS.items()}
                words["n"] = str(rng.randint(1, 4))
                price = rng.randint(low * 100, high * 100) / 100 if high < 1000 else float(rng.randint(low // 50, high // 50) * 50)
                items.append({"title": rng.choice(patterns).format(**words), "price": price,
                              "posted_on": (changed - timedelta(days=rng.randint(0, 30))).isoformat()})
            page["items"] = items
        elif page["kind"] == "status":
            page["status_text"] = f"No new notices since {page['last_changed_at'][:10]}."
    page_n = 9000
    for fid in sorted(db["forms"]):
        form = db["forms"][fid]
        site = db["sites"][form["site_id"]]
        if site["captcha_on_forms"] or site["category"] not in ("government", "utilities", "travel", "events") or rng.random() < 0.4:
            continue
        page_n += rng.randint(1, 7)
        pid = f"PG{page_n}"
        form_page = db["pages"][form["page_id"]]
        db["pages"][pid] = {"page_id": pid, "site_id": site["site_id"], "path": form_page["path"].rstrip("/") + "/status",
                            "title": f"{form['name']}: request status", "kind": "status",
                            "last_changed_at": form_page["last_changed_at"],
                            "status_text": f"No requests received since {form_page['last_changed_at'][:10]}."}
        form["updates_page"] = pid


def pages_changed_when_seen(db: dict[str, dict[str, Rec]]) -> None:
    """A page last changed no earlier than the latest change a monitor detected on it."""
    for alert in db["change_alerts"].values():
        page = db["pages"][db["monitors"][alert["monitor_id"]]["page_id"]]
        page["last_changed_at"] = max(page["last_changed_at"], alert["detected_at"])


PERIOD = {"daily": timedelta(days=1), "weekly": timedelta(days=7)}


def record_past_runs(db: dict[str, dict[str, Rec]], rng: random.Random) -> None:
    """Jobs that have run say so: a completed one-time job ran once, within two days of being booked;
    a recurring job has run on its schedule since it was booked (a cancelled one stopped at some run).
    The rows are what a run reads from the pages now (as `run_extraction` reads them)."""
    for jid in sorted(db["extraction_jobs"]):
        job = db["extraction_jobs"][jid]
        created = datetime.fromisoformat(job["created_at"])
        if job["schedule"] == "once":
            if job["status"] != "completed":
                continue  # booked and waiting, or cancelled before its run
            ran = created + timedelta(minutes=rng.randint(20, 60 * 47))
        else:
            runs = int((NOW - created) / PERIOD[job["schedule"]])
            if runs == 0:
                continue
            last = runs if job["status"] == "scheduled" else rng.randint(1, runs)
            ran = created + last * PERIOD[job["schedule"]]
        site = db["sites"][job["site_id"]]
        pages = sorted((p for p in db["pages"].values() if p["site_id"] == site["site_id"] and p["path"].startswith(job["path_prefix"])
                        and not any(p["path"].startswith(x) for x in site["login_paths"])), key=lambda p: p["path"])
        job["last_run_at"] = _stamp(min(ran, NOW))
        job["rows_last_run"] = sum(len(p.get("items", [])) for p in pages[: job["max_pages"]])


def accounts_open_before_use(db: dict[str, dict[str, Rec]]) -> None:
    """An account exists before anything done on it: its opening date is no later than its first
    charge, submission, monitor or job."""
    first: dict[str, str] = {}
    for table, field in (("charges", "date"), ("submissions", "submitted_at"), ("monitors", "created_at"),
                         ("extraction_jobs", "created_at")):
        for rec in db[table].values():
            day = rec[field][:10]
            first[rec["customer_id"]] = min(first.get(rec["customer_id"], day), day)
    for cid, cus in db["customers"].items():
        if cid in first:
            cus["member_since"] = min(cus["member_since"], first[cid])


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(dump_db(generate()))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
