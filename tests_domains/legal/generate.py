"""Seeded generator for the matter desk of Calder Voss & Ng LLP (a Portland, Oregon law firm).

`python -m tests_domains.legal.generate` writes fixtures/legal/db.json, byte-identical on every run.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db

OUT = Path(__file__).parents[2] / "fixtures" / "legal" / "db.json"
TODAY = date(2026, 4, 14)

FIRST = ["Aaron", "Abigail", "Adriana", "Ahmed", "Alana", "Alexei", "Amelia", "Anders", "Angela", "Arturo", "Beatrice",
         "Bennett", "Bianca", "Brandon", "Caroline", "Cedric", "Celeste", "Colin", "Daniela", "Darius", "Delia", "Desmond",
         "Dominic", "Elena", "Elliot", "Esperanza", "Ethan", "Fiona", "Francisco", "Gavin", "Genevieve", "Gideon", "Harriet",
         "Hugo", "Imani", "Irene", "Ivan", "Jacqueline", "Jared", "Joanna", "Julian", "Kateri", "Keith", "Kiran", "Leonora",
         "Lionel", "Lorena", "Lucas", "Mackenzie", "Malcolm", "Margot", "Marisol", "Maxwell", "Meredith", "Miles", "Miriam",
         "Nadia", "Nolan", "Octavia", "Oliver", "Paloma", "Patrick", "Phoebe", "Quentin", "Rachel", "Raymond", "Renata",
         "Roland", "Rosalind", "Sebastian", "Selena", "Simone", "Stellan", "Sunita", "Tatiana", "Theodore", "Trevor",
         "Ursula", "Valerie", "Vikram", "Wallace", "Wendy", "Xiomara", "Yusuf", "Zachary", "Zora", "Hyun", "Tomasz", "Farida"]
LAST = ["Abernathy", "Acosta", "Albright", "Ashby", "Bauer", "Beaumont", "Blackwood", "Brannigan", "Castellano", "Chowdhury",
        "Cole", "Corbett", "Dalton", "Delacroix", "Drummond", "Easton", "Eklund", "Fairchild", "Ferraro", "Fitzgerald",
        "Galloway", "Grayson", "Hale", "Hargrove", "Hollis", "Ishikawa", "Jansen", "Kaplan", "Kessler", "Kowalczyk",
        "Lambert", "Lindgren", "Lockhart", "Maddox", "Marchetti", "McAllister", "Mendoza", "Mercer", "Nakashima", "Novotny",
        "Okonkwo", "Oyelaran", "Pemberton", "Prescott", "Quintero", "Radcliffe", "Ramsey", "Rinaldi", "Sandoval", "Schaefer",
        "Sinclair", "Stavros", "Thornton", "Trujillo", "Underwood", "Valdivia", "Vance", "Whitaker", "Winslow", "Yamamoto",
        "Zamora", "Zeller", "Park", "Nguyen", "Petrossian", "Halvorsen", "Begay", "Oduya"]
CO_A = ["Cascade", "Willamette", "Columbia", "Pacific Crest", "Rose City", "Timberline", "Alder", "Bridgetown", "Hood River",
        "Multnomah", "Evergreen", "Tualatin", "Ironwood", "Skyline", "Basalt", "Riverbend", "Summit", "Northwest", "Foxglove",
        "Lupine", "Marquam", "Sellwood", "Clearwater", "Juniper", "Silver Falls", "Ridgefield", "Pearl District", "Larch"]
CO_B = ["Builders", "Coffee Roasters", "Logistics", "Software", "Dental Group", "Brewing Co.", "Property Management",
        "Construction", "Outfitters", "Bakery", "Health Partners", "Design Studio", "Holdings", "Manufacturing",
        "Veterinary Clinic", "Credit Union", "Landscaping", "Freight", "Analytics", "Cabinetry", "Solar", "Realty"]
CO_SUFFIX = ["LLC", "Inc.", "LLC", "Co.", "Corp."]
CITIES = [("Portland", "OR"), ("Beaverton", "OR"), ("Lake Oswego", "OR"), ("Gresham", "OR"), ("Hillsboro", "OR"),
          ("Tigard", "OR"), ("Oregon City", "OR"), ("Milwaukie", "OR"), ("Tualatin", "OR"), ("Vancouver", "WA")]
TITLES_ORG = ["Chief Executive Officer", "General Counsel", "Chief Financial Officer", "Controller", "Office Manager",
              "Operations Director", "Accounts Payable Specialist", "Owner"]

STATE_HOLIDAYS = [("2026-01-01", "New Year's Day"), ("2026-01-19", "Martin Luther King Jr. Day"), ("2026-02-16", "Presidents Day"),
                  ("2026-05-25", "Memorial Day"), ("2026-06-19", "Juneteenth"), ("2026-07-03", "Independence Day (observed)"),
                  ("2026-09-07", "Labor Day"), ("2026-11-11", "Veterans Day"), ("2026-11-26", "Thanksgiving Day"),
                  ("2026-11-27", "Day after Thanksgiving"), ("2026-12-25", "Christmas Day")]
FEDERAL_HOLIDAYS = [h for h in STATE_HOLIDAYS if h[0] != "2026-11-27"] + [("2026-10-12", "Columbus Day")]
COURTS = {
    "MULT": ("Multnomah County Circuit Court", "Multnomah", [*STATE_HOLIDAYS, ("2026-05-15", "Court closed: statewide judicial conference")]),
    "WASH": ("Washington County Circuit Court", "Washington", [*STATE_HOLIDAYS, ("2026-04-24", "Court closed: facilities maintenance")]),
    "CLAC": ("Clackamas County Circuit Court", "Clackamas", [*STATE_HOLIDAYS, ("2026-05-08", "Court closed: budget reduction day")]),
    "USDC": ("U.S. District Court for the District of Oregon", "Multnomah (Portland Division)", FEDERAL_HOLIDAYS),
}
RATES_2026 = {"partner": 485.0, "senior_associate": 395.0, "associate": 310.0, "paralegal": 165.0}
RETAINERS_2026 = {"business_litigation": 15000.0, "employment": 7500.0, "real_estate": 5000.0, "family": 6000.0,
                  "estate_planning": 3500.0, "personal_injury": 0.0}


def _schedule(year: int) -> tuple[str, str, str | None, dict[str, float], dict[str, float]]:
    """The fee schedule of a year: rates rose about 4% a year (rounded to $5), retainers about 5% (rounded to $100)."""
    back = 2026 - year
    rates = {r: float(round(v / 1.04 ** back / 5) * 5) for r, v in RATES_2026.items()}
    retainers = {a: float(round(v / 1.05 ** back, -2)) for a, v in RETAINERS_2026.items()}
    return f"FS-{year}", f"{year}-01-01", None if year == 2026 else f"{year}-12-31", rates, retainers


SCHEDULES = [_schedule(y) for y in range(2013, 2027)]
ROLES = [("partner", 8), ("senior_associate", 8), ("associate", 12), ("paralegal", 10)]
AREAS = ["business_litigation", "employment", "real_estate", "family", "estate_planning", "personal_injury"]
LITIGATION = {"business_litigation", "employment", "family", "personal_injury"}
TITLE_FMT = {
    "business_litigation": ["{c} v. {a} (breach of contract)", "{c} v. {a} (unpaid invoices)", "{a} v. {c} (trade secrets)",
                            "{c} v. {a} (partnership dispute)", "{a} v. {c} (breach of warranty)"],
    "employment": ["{a} v. {c} (wrongful termination)", "{c} v. {a} (non-compete enforcement)", "{a} v. {c} (wage claim)",
                   "{c} v. {a} (retaliation)"],
    "real_estate": ["Purchase of {p}", "Commercial lease with {a}", "Boundary dispute with {a}", "Sale of {p}"],
    "family": ["Dissolution of marriage: {c} and {a}", "Custody modification: {c} / {a}", "Support modification: {c} / {a}"],
    "estate_planning": ["Estate plan for {c}", "Trust administration: {c} family trust", "Will and powers of attorney for {c}"],
    "personal_injury": ["{c} v. {a} (auto collision)", "{c} v. {a} (premises liability)", "{c} v. {a} (dog bite)"],
}
DOCS = {
    "common": [("Signed engagement letter", "engagement_letter", "none", False), ("Conflict waiver acknowledgment", "form", "none", False)],
    "litigation": [("Complaint as filed", "pleading", "none", False), ("Answer and affirmative defenses", "pleading", "none", False),
                   ("Memo re: litigation strategy", "memo", "work_product", False),
                   ("Email from counsel re: settlement options", "correspondence", "attorney_client", False),
                   ("Deposition transcript", "transcript", "none", False), ("Draft expert report", "expert", "work_product", False),
                   ("Opposing party's confidential financial production", "production", "none", True),
                   ("Order setting trial date", "court_order", "none", False), ("Client interview notes", "notes", "attorney_client", False),
                   ("Stipulated protective order", "court_order", "none", False), ("Medical records (sealed exhibit)", "exhibit", "none", True)],
    "real_estate": [("Purchase and sale agreement", "contract", "none", False), ("Title report", "report", "none", False),
                    ("Letter from counsel re: title exceptions", "correspondence", "attorney_client", False),
                    ("Commercial lease (executed)", "contract", "none", False), ("Survey map", "report", "none", False)],
    "estate_planning": [("Draft will", "draft", "attorney_client", False), ("Estate planning questionnaire", "form", "attorney_client", False),
                        ("Executed durable power of attorney", "instrument", "none", False), ("Trust certification", "instrument", "none", False),
                        ("Memo re: tax planning options", "memo", "attorney_client", False)],
}
TASKS_BY_ROLE = {
    "partner": ["Strategy conference with client", "Review and revise motion", "Settlement negotiation call with opposing counsel",
                "Court appearance", "Review expert report"],
    "senior_associate": ["Draft motion for summary judgment", "Prepare deposition outline", "Take deposition", "Draft discovery responses",
                         "Negotiate lease terms"],
    "associate": ["Legal research", "Draft discovery requests", "Review document production", "Draft correspondence to opposing counsel",
                  "Prepare exhibits"],
    "paralegal": ["Organize exhibits", "Calendar court deadlines", "Prepare document index", "File documents with court",
                  "Assemble closing binder"],
}


def _d(day: date) -> str:
    return day.isoformat()


def due_by_rule(ev: dict[str, Any], closed: set[str]) -> str:
    """The docketed due date of an event already on the firm's calendar (the policy's counting rules)."""
    start = date.fromisoformat(ev["date"])
    period = 14 if ev["kind"] == "motion_served" else 30  # an opposition: 14 days (UTCR 5.030, LR 7-1(e))
    day = start + timedelta(days=period + 3 if ev["service_method"] == "mail" else period)
    while day.weekday() >= 5 or _d(day) in closed:
        day += timedelta(days=1)
    return _d(day)


def discovery_papers(drawn: str, court: str | None) -> str:
    """Interrogatories exist only in federal court (FRCP 33): the Oregon Rules of Civil Procedure have none, so a
    state circuit court case is served requests for production or admission instead."""
    if drawn == "First set of interrogatories" and court != "USDC":
        return "Second requests for production"
    return drawn


def reconcile_trust(trust: dict[str, Any], matters: dict[str, Any], invoices: dict[str, Any]) -> None:
    """Give every trust account the history its balance comes from: what left trust went to a paid invoice
    of the same matter (after it was issued), or back to the client when the matter closed. An open matter
    with no paid invoice to explain a drawdown still holds its whole deposit."""
    for mid, account in trust.items():
        deposit = sum(t["amount"] for t in account["transactions"] if t["kind"] == "deposit")
        drawn = round(deposit - account["balance"], 2)
        if drawn <= 0:
            continue
        paid = sorted((inv for inv in invoices.values() if inv["matter_id"] == mid and inv["status"] == "paid"
                       and inv["payments"] >= drawn), key=lambda inv: inv["issued_on"])
        matter = matters[mid]
        if paid:
            on = min(date.fromisoformat(paid[-1]["issued_on"]) + timedelta(days=6), TODAY)
            account["transactions"].append({"date": _d(on), "kind": "applied_to_invoice", "amount": drawn,
                                            "invoice_id": paid[-1]["invoice_id"]})
        elif matter["closed_on"]:
            account["transactions"].append({"date": matter["closed_on"], "kind": "refund", "amount": drawn, "invoice_id": None})
        else:
            account["balance"] = deposit


def generate(seed: int = 20260414) -> dict[str, Any]:
    rng = random.Random(seed)
    used_names: set[str] = set()
    used_ids: set[str] = set()

    def uid(fmt: str, lo: int, hi: int) -> str:
        while True:
            value = fmt.format(rng.randint(lo, hi))
            if value not in used_ids:
                used_ids.add(value)
                return value

    def person() -> str:
        while True:
            name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
            if name not in used_names:
                used_names.add(name)
                return name

    def company() -> str:
        while True:
            head, kind, suffix = rng.choice(CO_A), rng.choice(CO_B), rng.choice(CO_SUFFIX)
            name = f"{head} {kind}" if kind.endswith("Co.") else f"{head} {kind} {suffix}"
            if name not in used_names:
                used_names.add(name)
                return name

    def phone() -> str:
        area, exchange = rng.choice(["503", "971", "360"]), rng.randint(200, 989)
        exchange += exchange % 100 == 11  # N11 codes (411, 911) are services, never exchanges
        return f"{area}-{exchange}-{rng.randint(0, 9999):04d}"

    def email_of(name: str, domain: str) -> str:
        first, last = name.lower().split(" ", 1)
        return f"{first[0]}{last.replace(' ', '')}@{domain}"

    courts: dict[str, dict[str, Any]] = {cid: {"court_id": cid, "name": n, "county": c, "holidays": [{"date": d, "name": h} for d, h in sorted(hol)]}
              for cid, (n, c, hol) in COURTS.items()}
    closed = {cid: {h["date"] for h in court["holidays"]} for cid, court in courts.items()}

    timekeepers: dict[str, Any] = {}
    by_role: dict[str, list[str]] = {}
    for role, count in ROLES:
        for _ in range(count):
            tid = uid("TK-{}", 100, 999)
            timekeepers[tid] = {"timekeeper_id": tid, "name": person(), "role": role,
                                "bar_number": None if role == "paralegal" else str(rng.randint(90000, 249999))}
            by_role.setdefault(role, []).append(tid)
    schedules: dict[str, dict[str, Any]] = {s[0]: {"schedule_id": s[0], "effective_from": s[1], "effective_to": s[2], "hourly_rates": s[3], "retainers": s[4]}
                 for s in SCHEDULES}

    clients: dict[str, Any] = {}
    for i in range(420):
        cid = uid("CV-{}", 10000, 69999)
        org = i % 3 == 0
        city, state = rng.choice(CITIES)
        since = TODAY - timedelta(days=rng.randint(60, 365 * 12))
        if org:
            name = company()
            dom = name.split(" ")[0].lower().replace(".", "") + name.split(" ")[1].lower().replace(".", "") + ".com"
            contacts = []
            for t in rng.sample(TITLES_ORG, rng.randint(2, 4)):
                who = person()
                access = "billing" if t in ("Accounts Payable Specialist", "Controller", "Office Manager") else "full"
                contacts.append({"contact_id": uid("CT-{}", 1000, 9999), "name": who, "email": email_of(who, dom), "phone": phone(),
                                 "title": t, "access": access})
            clients[cid] = {"client_id": cid, "kind": "organization", "name": name, "date_of_birth": None,
                            "email": f"legal@{dom}", "phone": phone(), "city": city, "state": state, "client_since": _d(since),
                            "standing_discount_percent": rng.choice([0, 0, 5, 10, 10, 15]), "contacts": contacts}
        else:
            name = person()
            dob = date(rng.randint(1950, 2000), rng.randint(1, 12), rng.randint(1, 28))
            mail = rng.choice(["gmail.com", "outlook.com", "icloud.com", "yahoo.com", "proton.me"])
            contacts = []
            if rng.random() < 0.45:
                who = person()
                rel = rng.choice([("Spouse", "billing"), ("Bookkeeper", "billing"), ("Adult child", "billing"),
                                  ("Co-trustee", "full"), ("Spouse", "full")])
                contacts.append({"contact_id": uid("CT-{}", 1000, 9999), "name": who, "email": email_of(who, mail), "phone": phone(),
                                 "title": rel[0], "access": rel[1]})
            clients[cid] = {"client_id": cid, "kind": "individual", "name": name, "date_of_birth": _d(dob),
                            "email": email_of(name, mail), "phone": phone(), "city": city, "state": state, "client_since": _d(since),
                            "standing_discount_percent": rng.choice([0, 0, 0, 5, 10]), "contacts": contacts}

    # The firm's own notes on each client (credit, collections, referrals): drawn from a stream of their own, so
    # adding them left every other generated value as it was.
    notes_rng = random.Random(f"{seed}:internal-notes")
    for c in clients.values():
        since = date.fromisoformat(c["client_since"])
        reviewed = _d(since + timedelta(days=notes_rng.randint(0, max(0, (TODAY - since).days))))
        credit = (f"Credit reviewed {reviewed}: up to ${notes_rng.randrange(5000, 60001, 500):,} of unbilled time before a "
                  "retainer top-up is requested.")
        other = notes_rng.choice([
            f"Paid on average {notes_rng.randint(38, 95)} days after invoice last year; partner approval before new credit.",
            f"Wrote off ${notes_rng.randint(400, 9000)}.{notes_rng.randint(0, 99):02d} after a fee dispute; no courtesy credits without the partner.",
            f"Referral source: {notes_rng.choice(FIRST)} {notes_rng.choice(LAST)}; origination credit split {notes_rng.choice(['60/40', '70/30', '50/50'])}.",
            "Prompt payer; eligible for the year-end courtesy review.",
        ])
        c["internal_notes"] = f"{credit} {other}"

    matters: dict[str, Any] = {}
    docket: dict[str, Any] = {}
    documents: dict[str, Any] = {}
    invoices: dict[str, Any] = {}
    disputes: dict[str, Any] = {}
    trust: dict[str, Any] = {}
    letters: dict[str, Any] = {}
    client_ids = list(clients)
    former = set(rng.sample(client_ids, 60))
    opponents_pool: list[str] = []

    for cid in client_ids:
        c = clients[cid]
        since = date.fromisoformat(c["client_since"])
        n = rng.choice([1, 1, 2, 2, 3]) if c["kind"] == "organization" else rng.choice([1, 1, 1, 2])
        for k in range(n):
            area = rng.choice(AREAS if c["kind"] == "individual" else ["business_litigation", "employment", "real_estate"])
            opened = since + timedelta(days=rng.randint(0, max(1, (TODAY - since).days - 10)))
            if cid in former:
                status = "closed"
            elif k == 0:
                status = "open"
            else:
                status = rng.choice(["open", "closed"])
            closed_on = None
            if status == "closed":
                closed_on = min(TODAY - timedelta(days=5), opened + timedelta(days=rng.randint(60, 700)))
                if closed_on <= opened:
                    opened = closed_on - timedelta(days=90)
            year = str(opened.year)[2:]
            mid = uid(f"M-{year}-{{}}", 1000, 9999)
            adverse = person() if (area in ("family", "personal_injury") or rng.random() < 0.4) else company()
            if rng.random() < 0.12 and opponents_pool:
                adverse = rng.choice(opponents_pool)
            opponents_pool.append(adverse)
            short = c["name"] if c["kind"] == "organization" else c["name"].split(" ")[-1]
            a_short = adverse if adverse.endswith(tuple(CO_SUFFIX)) else adverse.split(" ")[-1]
            prop = f"{rng.randint(100, 9999)} {rng.choice(['NE', 'SE', 'NW', 'SW'])} {rng.choice(LAST)} St"
            title = rng.choice(TITLE_FMT[area]).format(c=short, a=a_short, p=prop)
            parties = [{"name": c["name"], "role": "client"}]
            if area != "estate_planning":
                parties.append({"name": adverse, "role": "adverse"})
            if rng.random() < 0.2:
                parties.append({"name": person() if rng.random() < 0.6 else company(), "role": rng.choice(["co_party", "related"])})
            court = case = None
            fee = "flat_fee" if area == "estate_planning" else "contingency" if area == "personal_injury" else "hourly"
            events: list[Any] = []
            if area in LITIGATION and rng.random() < 0.85:
                court = rng.choice(["MULT", "MULT", "WASH", "CLAC", "USDC"]) if area != "family" else rng.choice(["MULT", "WASH", "CLAC"])
                case = (f"3:{opened.year % 100}-cv-{rng.randint(100, 2400):05d}" if court == "USDC"
                        else f"{opened.year % 100}CV{rng.randint(10000, 59999)}")
                if status == "open":
                    n_ev = rng.choice([0, 1, 1, 2, 3])
                    for _ in range(n_ev):
                        kind = rng.choice(["complaint_served", "motion_served", "motion_served", "discovery_served", "discovery_served",
                                           "judgment_entered"])
                        ev_day = TODAY - timedelta(days=rng.randint(1, 26))
                        while ev_day.weekday() >= 5:
                            ev_day -= timedelta(days=1)
                        method = "entry" if kind == "judgment_entered" else rng.choice(["personal", "mail", "electronic"])
                        desc = {"complaint_served": f"Summons and complaint served on {c['name']}",
                                "motion_served": rng.choice(["Motion to compel discovery", "Motion for summary judgment",
                                                             "Motion to dismiss", "Motion for protective order"]) + f" served by {adverse}",
                                "discovery_served": discovery_papers(rng.choice(["First set of requests for production",
                                                                                 "First set of interrogatories",
                                                                                 "Second requests for admission"]), court)
                                                    + f" served by {adverse}",
                                "judgment_entered": "General judgment entered"}[kind]
                        eid = uid("EV-{}", 10000, 99999)
                        events.append({"event_id": eid, "kind": kind, "date": _d(ev_day), "service_method": method, "description": desc})
                    events.sort(key=lambda e: e["date"])
            disc = c["standing_discount_percent"]
            matters[mid] = {"matter_id": mid, "client_id": cid, "title": title, "practice_area": area, "status": status,
                            "opened_on": _d(opened), "closed_on": _d(closed_on) if closed_on else None,
                            "responsible_attorney": rng.choice(by_role["partner"]), "court_id": court, "case_number": case,
                            "fee_arrangement": fee, "discount_percent": disc, "parties": parties, "events": events}
            # engagement letter
            sched = schedules[f"FS-{opened.year}"]
            retainer = round(sched["retainers"][area] * (100 - disc) / 100, 2)
            lid = uid("EL-{}", 10000, 99999)
            letters[lid] = {"letter_id": lid, "matter_id": mid, "fee_arrangement": fee, "retainer": retainer, "sent_to_email": c["email"],
                            "sent_on": _d(opened), "status": "signed"}
            # documents
            pool = DOCS["common"] + (DOCS["litigation"] if area in LITIGATION else DOCS[area])
            for title_d, dtype, priv, po in rng.sample(pool, min(len(pool), rng.randint(3, 7))):
                did = uid("DOC-{}", 100000, 999999)
                dated = opened + timedelta(days=rng.randint(0, max(1, ((closed_on or TODAY) - opened).days)))
                documents[did] = {"document_id": did, "matter_id": mid, "title": title_d, "doc_type": dtype, "dated": _d(dated),
                                  "privilege": priv, "protective_order": po, "pages": rng.randint(2, 80)}
            # docket: older events already docketed for some
            for ev in events:
                if rng.random() < 0.3:
                    dk = uid("DK-{}", 10000, 99999)
                    docket[dk] = {"docket_id": dk, "matter_id": mid, "event_id": ev["event_id"],
                                  "due_date": due_by_rule(ev, closed[court or "MULT"]),
                                  "description": f"Response due: {ev['description']}", "docketed_on": ev["date"], "status": "pending"}
            # trust
            if fee != "contingency":
                bal = round(rng.choice([0.0, retainer * 0.2, retainer * 0.5, retainer]) if status == "open" else 0.0, 2)
                trust[mid] = {"matter_id": mid, "balance": bal,
                              "transactions": [{"date": _d(opened), "kind": "deposit", "amount": retainer, "invoice_id": None}]}
            # invoices (hourly matters): monthly, last months of activity
            if fee == "hourly":
                end = closed_on or TODAY
                months = []
                m = date(end.year, end.month, 1)
                for _ in range(rng.randint(1, 4)):
                    m = (m - timedelta(days=1)).replace(day=1)
                    if m < opened.replace(day=1):
                        break
                    months.append(m)
                for month in months:
                    issued = (month + timedelta(days=32)).replace(day=rng.randint(2, 5))
                    inv_id = uid("INV-{}", 200000, 899999)
                    lines = []
                    error = rng.random() < 0.28
                    bad_lines = set(rng.sample(range(8), rng.choice([1, 1, 2]))) if error else set()
                    mode = rng.choice(["no_discount", "wrong_year", "wrong_role"]) if error else ""
                    for ln in range(rng.randint(4, 9)):
                        role = rng.choice(["partner", "senior_associate", "associate", "associate", "paralegal", "paralegal"])
                        tk = rng.choice(by_role[role])
                        day = month + timedelta(days=rng.randint(0, 27))
                        while day.weekday() >= 5:
                            day -= timedelta(days=1)
                        sched_rates = schedules[f"FS-{day.year}"]["hourly_rates"]
                        base = sched_rates[role]
                        if ln in bad_lines:
                            if mode == "no_discount" and disc:
                                pass
                            elif mode == "wrong_year" or (mode == "no_discount" and not disc):
                                base = schedules[f"FS-{day.year + 1}"]["hourly_rates"][role] if day.year < 2026 else base + 25.0
                            elif mode == "wrong_role":
                                if role == "paralegal":
                                    base = sched_rates["associate"]
                                else:
                                    base = sched_rates["partner"] if role != "partner" else base + 30.0
                            rate = base if mode == "no_discount" and disc else round(base * (100 - disc) / 100, 2)
                        else:
                            rate = round(base * (100 - disc) / 100, 2)
                        hours = round(rng.choice([0.2, 0.3, 0.5, 0.8, 1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.5, 6.0]), 1)
                        lines.append({"line_no": ln + 1, "date": _d(day), "timekeeper_id": tk, "hours": hours, "rate": rate,
                                      "amount": round(hours * rate, 2), "description": rng.choice(TASKS_BY_ROLE[role])})
                    lines.sort(key=lambda x: (x["date"], x["line_no"]))
                    for no, line in enumerate(lines, 1):
                        line["line_no"] = no
                    total = round(sum(x["amount"] for x in lines), 2)
                    age = (TODAY - issued).days
                    paid = status == "closed" or (age > 45 and rng.random() < 0.8) or (age > 10 and rng.random() < 0.25)
                    inv_status = "paid" if paid else "open"
                    payments = total if paid else (round(total * 0.5, 2) if rng.random() < 0.1 else 0.0)
                    invoices[inv_id] = {"invoice_id": inv_id, "matter_id": mid, "issued_on": _d(issued),
                                        "due_on": _d(issued + timedelta(days=30)), "lines": lines, "total": total, "credits": 0.0,
                                        "payments": payments, "balance": round(total - payments, 2), "status": inv_status}
                    if not paid and rng.random() < 0.08:
                        invoices[inv_id]["status"] = "disputed"
                        did = uid("DSP-{}", 1000, 9999)
                        disputes[did] = {"dispute_id": did, "invoice_id": inv_id, "line_numbers": [1], "opened_on": _d(issued + timedelta(days=9)),
                                         "raised_by": c["name"], "reason": "Client questions the time billed for this entry.", "status": "open"}
    reconcile_trust(trust, matters, invoices)
    return {"clients": clients, "matters": matters, "courts": courts, "docket": docket, "documents": documents, "disclosures": {},
            "timekeepers": timekeepers, "fee_schedules": schedules, "invoices": invoices, "credit_notes": {}, "disputes": disputes,
            "trust_accounts": trust, "engagement_letters": letters}


if __name__ == "__main__":
    OUT.write_bytes(dump_db(generate()))
    print(OUT, OUT.stat().st_size)
