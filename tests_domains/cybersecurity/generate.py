"""Seeded generator for Kestrel Freight's IT security desk.

    python -m tests_domains.cybersecurity.generate     # fixtures/cybersecurity/db.json and user_db.json
"""

from __future__ import annotations

import hashlib
import random
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from tests_domains.cybersecurity.schema import LaptopDB, SecurityDB

SEED = 4471
NOW = datetime(2026, 3, 10, 14, 0)
TODAY = NOW.date()
FIXTURES = Path(__file__).parents[2] / "fixtures" / "cybersecurity"
Rec = dict[str, Any]

FIRST = [
    "Aisha", "Bram", "Carmen", "Declan", "Esme", "Farid", "Greta", "Hamza", "Ilse", "Joaquin", "Keiko", "Lars",
    "Marisol", "Nikhil", "Oona", "Pavel", "Quinn", "Rania", "Stellan", "Tamsin", "Umar", "Vera", "Wendell", "Ximena",
    "Yusuf", "Zofia", "Anders", "Beatriz", "Cyrus", "Delphine", "Emeka", "Fiona", "Gideon", "Hana", "Idris", "Jolene",
    "Kwame", "Lucia", "Mateus", "Nell", "Osvaldo", "Petra", "Rohan", "Saoirse", "Tobias", "Ulla", "Viktor", "Wren",
]
LAST = [
    "Achterberg", "Banerjee", "Castellanos", "Dunmore", "Eriksen", "Fairweather", "Gutierrez", "Hollis", "Ishikawa",
    "Jovanovic", "Kessler", "Lindgren", "Mbeki", "Nordstrom", "Oyelaran", "Pellegrini", "Quarles", "Rydberg",
    "Sorensen", "Thibodeaux", "Uchida", "Valdivia", "Westbrook", "Yilmaz", "Zamora", "Ashdown", "Brightwater",
    "Calloway", "Delacroix", "Everhart", "Fitzgerald", "Grünewald", "Halvorsen", "Ingram", "Kovacs", "Larkin",
]
DEPARTMENTS = {
    "Dispatch": ["Dispatcher", "Senior Dispatcher", "Dispatch Lead"],
    "Customer Accounts": ["Account Specialist", "Billing Analyst", "Claims Coordinator"],
    "Finance": ["Accountant", "Payroll Specialist", "Financial Analyst"],
    "Fleet Maintenance": ["Maintenance Planner", "Parts Coordinator", "Fleet Engineer"],
    "Engineering": ["Software Engineer", "Data Engineer", "Site Reliability Engineer"],
    "People Operations": ["HR Generalist", "Recruiter", "Benefits Administrator"],
}
CUSTOMER_DATA = {"Customer Accounts", "Finance", "People Operations"}
SYSTEMS = {
    "Dispatch": [("RouteBoard", "planner"), ("FleetTrack", "viewer"), ("DockSchedule", "editor")],
    "Customer Accounts": [("ShipperCRM", "agent"), ("BillingHub", "clerk"), ("ClaimsDesk", "handler")],
    "Finance": [("LedgerPro", "accountant"), ("PayrollCore", "processor"), ("BillingHub", "approver")],
    "Fleet Maintenance": [("FleetTrack", "editor"), ("PartsVault", "buyer"), ("ShopFloor", "planner")],
    "Engineering": [("CodeForge", "developer"), ("CloudConsole", "operator"), ("DataLake", "analyst")],
    "People Operations": [("PeoplePortal", "hr_partner"), ("PayrollCore", "viewer"), ("TalentTrack", "recruiter")],
}
ADMIN_ROLES = [("CloudConsole", "admin"), ("LedgerPro", "admin"), ("PeoplePortal", "admin"), ("ShipperCRM", "admin")]
MAC_MODELS = ["MacBook Pro 14 (2023)", "MacBook Air 13 (2024)", "MacBook Pro 16 (2023)"]
WIN_MODELS = ["ThinkPad T14 Gen 4", "Latitude 7440", "EliteBook 840 G10"]
MAC_VERSIONS = ["14.2", "14.4", "14.6"]
WIN_VERSIONS = ["22H2", "23H2", "24H2"]
BASELINE = {"macOS": "14.6", "Windows": "24H2"}
BENIGN = ["Slack", "Outlook", "Chrome", "Teams", "Excel", "Zoom", "OneDrive", "Spotify", "Notion", "Acrobat"]
FLAGGED = ["svc-updater.exe", "chromeupd_helper", "winlogon32.exe", "mdworker_x", "keybridge", "cloudsync-agent2"]
VPN_CURRENT = "kestrel-2026"
VPN_OLD = ["kestrel-2024", "kestrel-2025"]
SUMMARIES = {
    "malware": "Endpoint alert on an unknown background process.",
    "lost_device": "Employee reported the laptop missing.",
    "phishing": "Employee clicked a link in a spoofed carrier invoice email.",
    "policy_violation": "Unapproved file-sharing app found during a scan.",
}


def recovery_key(asset_tag: str) -> str:
    """The recovery key id a laptop shows once encrypted (the laptop derives it, so does the generator)."""
    return "RK-" + hashlib.sha256(("rk:" + asset_tag).encode()).hexdigest()[:8].upper()


def _day(start: date, end: date, rng: random.Random) -> date:
    return start + timedelta(days=rng.randrange((end - start).days + 1))


def _uid(prefix: str, taken: dict[str, Rec], rng: random.Random) -> str:
    while True:
        key = f"{prefix}{rng.randrange(100000, 999999)}"
        if key not in taken:
            return key


def generate() -> Rec:
    data, _ = _generate()
    return data


def generate_user() -> Rec:
    _, user = _generate()
    return user


def _generate() -> tuple[Rec, Rec]:
    rng = random.Random(SEED)
    employees: dict[str, Rec] = {}
    devices: dict[str, Rec] = {}
    laptops: dict[str, Rec] = {}
    incidents: dict[str, Rec] = {}
    grants: dict[str, Rec] = {}
    reports: dict[str, Rec] = {}
    used_names: set[str] = set()
    emails: set[str] = set()
    ids = rng.sample(range(20000, 79999), 420)
    managers: dict[str, list[str]] = {d: [] for d in DEPARTMENTS}
    for n, number in enumerate(ids):
        while True:
            name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
            if name not in used_names:
                used_names.add(name)
                break
        department = list(DEPARTMENTS)[n % len(DEPARTMENTS)]
        employee_id = f"E{number}"
        is_manager = len(managers[department]) < 6
        manager_id = None if is_manager else rng.choice(managers[department])
        if is_manager:
            managers[department].append(employee_id)
        first, last = name.split(" ", 1)
        handle = f"{first[0].lower()}.{last.lower().replace('ü', 'u')}"
        email = f"{handle}@kestrelfreight.com"
        if email in emails:
            email = f"{first.lower()}.{last.lower().replace('ü', 'u')}@kestrelfreight.com"
        emails.add(email)
        asset_tag = f"KF-{rng.randrange(10000, 99999)}"
        while asset_tag in devices:
            asset_tag = f"KF-{rng.randrange(10000, 99999)}"
        profile = rng.random()
        lock = None
        if 0.80 <= profile < 0.88:
            lock = "failed_logins"
        employees[employee_id] = {
            "employee_id": employee_id,
            "full_name": name,
            "email": email,
            "department": department,
            "title": ("Manager, " + department) if is_manager else rng.choice(DEPARTMENTS[department]),
            "manager_id": manager_id,
            "hire_date": _day(date(2015, 1, 5), date(2025, 11, 28), rng).isoformat(),
            "account_locked": lock is not None,
            "lock_reason": lock,
            "password_reset_required": False,
            "mfa_code_issued": None,
            "handles_customer_data": department in CUSTOMER_DATA,
            "asset_tag": asset_tag,
        }
        os_family = "macOS" if rng.random() < 0.55 else "Windows"
        versions = MAC_VERSIONS if os_family == "macOS" else WIN_VERSIONS
        compliant = profile < 0.55
        outdated = not compliant and rng.random() < 0.6
        unencrypted = not compliant and (not outdated or rng.random() < 0.5)
        os_version = rng.choice(versions[:2]) if outdated else versions[2]
        processes = [
            {"pid": rng.randrange(300, 9000), "name": app, "flagged": False, "running": True}
            for app in rng.sample(BENIGN, rng.randrange(3, 6))
        ]
        flagged = 0.88 <= profile < 0.96
        if flagged:
            processes.append({"pid": rng.randrange(9000, 30000), "name": rng.choice(FLAGGED), "flagged": True, "running": True})
        mfa = compliant or rng.random() < 0.4
        vpn = VPN_CURRENT if compliant or rng.random() < 0.3 else rng.choice(VPN_OLD)
        laptops[asset_tag] = {
            "asset_tag": asset_tag,
            "os_version": os_version,
            "available_update": versions[2] if outdated else None,
            "disk_encrypted": not unencrypted,
            "recovery_key_id": None if unencrypted else recovery_key(asset_tag),
            "firewall_on": compliant or rng.random() < 0.7,
            "mfa_enrolled": mfa,
            "mfa_code_entered": None,
            "vpn_profile": vpn,
            "processes": processes,
        }
        devices[asset_tag] = {
            "asset_tag": asset_tag,
            "owner_id": employee_id,
            "model": rng.choice(MAC_MODELS if os_family == "macOS" else WIN_MODELS),
            "os_family": os_family,
            "network_access": "restricted" if (outdated or unencrypted) else "full",
            "recovery_key_id": None if unencrypted else recovery_key(asset_tag),
            "last_checkin": (NOW - timedelta(minutes=rng.randrange(20, 4000))).strftime("%Y-%m-%dT%H:%M"),
        }
        for system, role in rng.sample(SYSTEMS[department], rng.randrange(2, 4)):
            granted = _day(date(2024, 3, 1), date(2025, 9, 30), rng)
            due = rng.random() < 0.45
            expires = _day(TODAY + timedelta(days=1), TODAY + timedelta(days=20), rng) if due else _day(
                TODAY + timedelta(days=40), TODAY + timedelta(days=200), rng
            )
            grant_id = _uid("AG-", grants, rng)
            grants[grant_id] = {
                "grant_id": grant_id,
                "employee_id": employee_id,
                "system": system,
                "role": role,
                "privileged": False,
                "granted_on": granted.isoformat(),
                "expires_on": expires.isoformat(),
                "review_status": "due" if due else "certified",
                "note": "",
            }
        if department in ("Engineering", "Finance", "People Operations", "Customer Accounts") and rng.random() < 0.25:
            system, role = rng.choice(ADMIN_ROLES)
            grant_id = _uid("AG-", grants, rng)
            grants[grant_id] = {
                "grant_id": grant_id,
                "employee_id": employee_id,
                "system": system,
                "role": role,
                "privileged": True,
                "granted_on": _day(date(2024, 3, 1), date(2025, 9, 30), rng).isoformat(),
                "expires_on": _day(TODAY + timedelta(days=2), TODAY + timedelta(days=18), rng).isoformat(),
                "review_status": "due",
                "note": "",
            }
        # Past incidents: closed ones for history; open security holds lock the account.
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
            category = rng.choice(["phishing", "policy_violation", "malware"])
            opened = datetime.combine(_day(date(2025, 4, 1), date(2026, 2, 20), rng), datetime.min.time()) + timedelta(
                hours=rng.randrange(8, 18), minutes=rng.choice([0, 15, 30, 45])
            )
            incident_id = _uid("INC-", incidents, rng)
            incidents[incident_id] = {
                "incident_id": incident_id,
                "employee_id": employee_id,
                "asset_tag": asset_tag,
                "category": category,
                "severity": rng.choice(["low", "medium"]),
                "status": "closed",
                "opened_at": opened.strftime("%Y-%m-%dT%H:%M"),
                "summary": SUMMARIES[category],
            }
        if profile >= 0.96 and lock is None:
            employees[employee_id]["account_locked"] = True
            employees[employee_id]["lock_reason"] = "security_hold"
            opened = NOW - timedelta(days=rng.randrange(1, 9), hours=rng.randrange(1, 8))
            incident_id = _uid("INC-", incidents, rng)
            incidents[incident_id] = {
                "incident_id": incident_id,
                "employee_id": employee_id,
                "asset_tag": asset_tag,
                "category": "phishing",
                "severity": "high",
                "status": "open",
                "opened_at": opened.strftime("%Y-%m-%dT%H:%M"),
                "summary": "Credentials entered on a spoofed sign-in page; account held pending review.",
            }
            report_id = _uid("AR-", reports, rng)
            reports[report_id] = {
                "report_id": report_id,
                "incident_id": incident_id,
                "report_type": "security_review",
                "filed_at": (opened + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M"),
                "summary": "Security review opened for a credential exposure.",
            }
    _risk_notes(random.Random(f"{SEED}:risk-notes"), employees, incidents)
    data = {
        "employees": employees,
        "devices": devices,
        "incidents": incidents,
        "access_grants": grants,
        "audit_reports": reports,
    }
    SecurityDB.model_validate(data)
    user = {"laptops": laptops}
    LaptopDB.model_validate(user)
    return data, user


def _risk_notes(rng: random.Random, employees: dict[str, Rec], incidents: dict[str, Rec]) -> None:
    """The security team's notes on each employee: the behaviour-analytics risk score and the latest
    phishing simulation, consistent with their incidents. A stream of their own, so nothing else moves."""
    history: dict[str, list[Rec]] = {}
    for incident in incidents.values():
        history.setdefault(incident["employee_id"], []).append(incident)
    for employee_id, employee in employees.items():
        past = history.get(employee_id, [])
        held = employee["lock_reason"] == "security_hold"
        score = rng.randrange(70, 96) if held else rng.randrange(30, 70) if past else rng.randrange(3, 30)
        level = "high" if score >= 70 else "medium" if score >= 30 else "low"
        scored = (TODAY - timedelta(days=rng.randrange(0, 6))).isoformat()
        campaign = rng.choice(["2025-11", "2026-01", "2026-02"])
        clicked = held or any(i["category"] == "phishing" for i in past) or rng.random() < 0.15
        outcome = "clicked the link, retraining assigned" if clicked else rng.choice(
            ["reported it within 10 minutes", "ignored it", "reported it the next day"]
        )
        note = f"UEBA risk {level}, score {score} ({scored}). Phishing simulation {campaign}: {outcome}."
        if held:
            note += " On the insider-risk watch list until the security review closes."
        employee["risk_notes"] = note


def main() -> None:
    data, user = _generate()
    (FIXTURES / "db.json").write_bytes(dump_db(data))
    (FIXTURES / "user_db.json").write_bytes(dump_db(user))


if __name__ == "__main__":
    main()
