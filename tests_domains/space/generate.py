"""Seeded generator for the Meridian Orbital Services mission-desk DB.

    python -m tests_domains.space.generate            # writes fixtures/space/db.json
"""

from __future__ import annotations

import argparse
import random
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from tests_domains.space.schema import SpaceDB

SEED = 7203
NOW = datetime(2026, 9, 14, 15, 0)
OUT = Path(__file__).parents[2] / "fixtures" / "space" / "db.json"
Rec = dict[str, Any]

FIRST = ["Amelia", "Rohan", "Ingrid", "Tobias", "Noor", "Mateo", "Sakura", "Elias", "Zanele", "Pavel", "Lucia",
         "Henrik", "Adaeze", "Marco", "Yara", "Felipe", "Astrid", "Kenji", "Oksana", "Callum", "Leilani", "Bastien",
         "Priyanka", "Joaquin", "Mirela", "Desmond", "Signe", "Farid", "Beatriz", "Anselm", "Wren", "Idris"]
LAST = ["Okafor", "Lindqvist", "Moreau", "Harrington", "Castellano", "Nakamura", "Vukovic", "Achterberg", "Delgado",
        "Fairweather", "Kowalski", "Mbatha", "Rasmussen", "Sorensen", "Talbot", "Oyelaran", "Petrov", "Quintero",
        "Brennan", "Chaudhry", "Esposito", "Gallagher", "Iversen", "Janssen", "Kirchner", "Lacroix", "Mendoza",
        "Novak", "Ostrowski", "Pemberton", "Rinaldi", "Varga"]
ORG_A = ["Terra", "Polar", "Aster", "Blue Meridian", "Cirrus", "Helio", "Kite", "Lumen", "Nimbus", "Orbis", "Pelican",
         "Quasar", "Sable", "Tundra", "Umbra", "Vesper", "Wayfarer", "Zenith", "Borealis", "Coriolis", "Driftwood",
         "Equinox", "Fjord", "Granite"]
ORG_B = ["Earth Imaging", "Geospatial", "AgriSense", "Maritime Data", "Climate Labs", "IoT Networks", "Space Systems",
         "Remote Sensing", "Weather Analytics", "Orbital Research"]
COUNTRIES = ["United Kingdom", "Norway", "Germany", "Netherlands", "Canada", "Australia", "Japan", "Spain", "Finland",
             "United States", "New Zealand", "Portugal"]
BIRDS = ["KESTREL", "OSPREY", "HERON", "SWIFT", "PETREL", "MERLIN", "LARK", "PLOVER", "CORMORANT", "EGRET", "FALCON",
         "GANNET", "IBIS", "KITE", "LAPWING", "NIGHTJAR", "ORIOLE", "PUFFIN", "REDSTART", "SHRIKE", "TERN", "WAGTAIL",
         "AVOCET", "BUNTING", "CURLEW", "DUNLIN", "FIRECREST", "GOSHAWK", "HOBBY", "JACKDAW"]
ORBITS = ["SSO 475 km", "SSO 500 km", "SSO 525 km", "SSO 550 km", "SSO 575 km", "LEO 53° 540 km", "LEO 97.6° 600 km",
          "LEO 45° 510 km"]
STATIONS = [
    ("GS-SVB", "Svalbard North", "Longyearbyen, Norway", "S/X"), ("GS-TRM", "Tromsø Ridge", "Tromsø, Norway", "S/X"),
    ("GS-INU", "Inuvik Delta", "Inuvik, Canada", "S/X"), ("GS-FBK", "Fairbanks Hill", "Fairbanks, USA", "X"),
    ("GS-PNT", "Punta Arenas", "Punta Arenas, Chile", "S/X"), ("GS-HBK", "Hartebeesthoek", "Gauteng, South Africa", "S"),
    ("GS-AWR", "Awarua Plains", "Invercargill, New Zealand", "S/X"), ("GS-MAS", "Maspalomas", "Gran Canaria, Spain", "S"),
    ("GS-DUB", "Dubbo Field", "Dubbo, Australia", "X"), ("GS-KIR", "Kiruna Esrange", "Kiruna, Sweden", "S/X"),
    ("GS-GOO", "Goonhilly", "Cornwall, United Kingdom", "S/X"), ("GS-HAW", "South Point", "Hawaii, USA", "S"),
]
MAINT_WORK = ["antenna drive bearing replacement", "feed horn inspection", "RF chain recalibration",
              "radome cleaning", "baseband software upgrade", "generator load test", "servo motor service"]
COMMAND_TYPES = [
    ("imaging_pass", "Payload imaging pass (camera on, data to mass memory)", 8, 46.0, True),
    ("downlink_data", "Payload data downlink over X-band", 10, 38.0, True),
    ("payload_calibration", "Payload calibration sequence", 6, 21.0, True),
    ("software_upload", "Flight software patch upload", 12, 24.0, False),
    ("attitude_slew", "Attitude slew to a new pointing", 3, 9.5, False),
    ("heater_cycle", "Thermal recovery heater cycle", 4, 16.0, False),
    ("wheel_desaturation", "Reaction wheel desaturation with magnetorquers", 5, 12.5, False),
    ("manoeuvre_burn", "Propulsion burn of an approved manoeuvre plan", 6, 28.0, False),
]
DEBRIS = ["COSMOS 2251 DEB", "FENGYUN 1C DEB", "IRIDIUM 33 DEB", "SL-16 R/B", "CZ-4C DEB", "NOAA 16 DEB",
          "DMSP F13 DEB", "SL-8 R/B", "ATLAS 5 CENTAUR DEB", "PSLV DEB", "COSMOS 1408 DEB", "STARLINK-31245",
          "ONEWEB-0419", "SPOT 5", "ENVISAT", "H-2A R/B", "DELTA 1 DEB", "THOR ABLESTAR DEB"]


def iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def requested_before(start: datetime, hours: int) -> datetime:
    """When a command was requested: some hours before its window, and never after the desk's now
    (a future window's command was requested earlier today or yesterday)."""
    requested = start - timedelta(hours=hours)
    return requested if requested <= NOW else NOW - timedelta(minutes=17 + 23 * hours)


def launched(year: int, month: int, day: int) -> str:
    """A launch date in the past: a draw after the desk's today moves a year back."""
    return f"{year if (year, month, day) <= (NOW.year, NOW.month, NOW.day) else year - 1}-{month:02d}-{day:02d}"


def generate(seed: int = SEED) -> Rec:
    rng = random.Random(seed)
    db: dict[str, Rec] = {k: {} for k in SpaceDB.model_fields}

    for kind, desc, dur, wh, payload in COMMAND_TYPES:
        db["command_types"][kind] = {"kind": kind, "description": desc, "duration_min": dur, "energy_wh": wh,
                                     "payload": payload}
    for sid, name, loc, band in STATIONS:
        db["ground_stations"][sid] = {"station_id": sid, "name": name, "location": loc, "band": band}
        t = NOW - timedelta(hours=rng.randint(0, 10))
        for _ in range(rng.randint(1, 3)):
            t += timedelta(hours=rng.randint(4, 30), minutes=rng.choice([0, 15, 30, 45]))
            end = t + timedelta(hours=rng.randint(2, 7))
            mid = f"MT-{sid[3:]}-{t:%m%d%H%M}"
            db["maintenance"][mid] = {"maintenance_id": mid, "station_id": sid, "start": iso(t), "end": iso(end),
                                      "work": rng.choice(MAINT_WORK)}
            t = end

    used_names: set[str] = set()
    used_emails: set[str] = set()
    used_refs: set[str] = set()
    n_sat = 0
    n_win = 0
    for o in range(50):
        org_id = f"ORG{101 + o:03d}"
        name = f"{ORG_A[o % len(ORG_A)]} {ORG_B[(o * 7 + o // len(ORG_A)) % len(ORG_B)]}"
        ref = f"MRD-{rng.randint(1000, 9999)}"
        while ref in used_refs:
            ref = f"MRD-{rng.randint(1000, 9999)}"
        used_refs.add(ref)
        db["organisations"][org_id] = {"org_id": org_id, "name": name, "mission_ref": ref,
                                       "country": rng.choice(COUNTRIES),
                                       "customer_since": f"{rng.randint(2018, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"}
        domain = name.lower().replace(" ", "") + ".space"
        for c in range(rng.randint(2, 4)):
            first, last = rng.choice(FIRST), rng.choice(LAST)
            email = f"{first[0].lower()}.{last.lower()}@{domain}"
            while email in used_emails:
                first, last = rng.choice(FIRST), rng.choice(LAST)
                email = f"{first[0].lower()}.{last.lower()}@{domain}"
            used_emails.add(email)
            cid = f"CT{101 + o:03d}{c + 1:02d}"
            role = "mission_manager" if c == 0 or rng.random() < 0.45 else "analyst"
            db["contacts"][cid] = {
                "contact_id": cid, "org_id": org_id, "first_name": first, "last_name": last,
                "date_of_birth": f"{rng.randint(1962, 1996)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                "email": email, "phone": f"+44 20 {rng.randint(3000, 8999)} {rng.randint(1000, 9999)}", "role": role}
        for _ in range(rng.randint(3, 6)):
            n_sat += 1
            sat_id = f"SAT{n_sat:04d}"
            sname = f"{rng.choice(BIRDS)}-{rng.randint(1, 24)}"
            while sname in used_names:
                sname = f"{rng.choice(BIRDS)}-{rng.randint(1, 24)}"
            used_names.add(sname)
            small = rng.random() < 0.6
            dry = round(rng.uniform(60, 180) if small else rng.uniform(250, 820), 1)
            fuel = round(rng.uniform(0.8, 6.0) if small else rng.uniform(6.0, 48.0), 2)
            reserve = round(fuel * rng.uniform(0.25, 0.7) if rng.random() < 0.3 else fuel * rng.uniform(0.05, 0.25), 2)
            tmin = float(rng.choice([-20, -15, -10, -5]))
            tmax = float(rng.choice([35, 40, 45, 50]))
            db["satellites"][sat_id] = {
                "sat_id": sat_id, "org_id": org_id, "name": sname, "norad_id": rng.randint(48000, 61999),
                "orbit": rng.choice(ORBITS),
                "launch_date": launched(rng.randint(2019, 2026), rng.randint(1, 12), rng.randint(1, 28)),
                "status": "operational", "battery_capacity_wh": float(rng.choice([320, 450, 600, 840, 1200, 1680])),
                "op_temp_min_c": tmin, "op_temp_max_c": tmax, "dry_mass_kg": dry, "fuel_kg": fuel,
                "isp_s": float(rng.choice([215, 220, 225, 230])), "deorbit_reserve_kg": reserve}
            hot = rng.random() < 0.1
            bat = rng.uniform(34, 96)
            last_t = NOW - timedelta(minutes=rng.randint(12, 170))
            for k in range(4):
                t = last_t - timedelta(hours=6 * (3 - k))
                temp = rng.uniform(tmin + 4, tmax - 4)
                if hot and k == 3:
                    temp = rng.choice([rng.uniform(tmax + 1.5, tmax + 9), rng.uniform(tmin - 9, tmin - 1.5)])
                b = bat + rng.uniform(-8, 8) if k < 3 else bat
                snap = f"TM-{sat_id[3:]}-{t:%m%d%H%M}"
                db["telemetry"][snap] = {"snapshot_id": snap, "sat_id": sat_id, "time": iso(t),
                                         "battery_pct": round(max(5.0, min(100.0, b)), 1),
                                         "temperature_c": round(temp, 1), "mode": "nominal"}
            t = NOW - timedelta(hours=rng.randint(10, 20), minutes=rng.randint(0, 59))
            windows: list[Rec] = []
            while t < NOW + timedelta(hours=60):
                t += timedelta(minutes=rng.randint(70, 260))
                st = rng.choice(STATIONS)[0]
                dur = rng.randint(5, 14)
                start = t.replace(second=0)
                n_win += 1
                wid = f"CW{n_win:06d}"
                w: Rec = {"window_id": wid, "sat_id": sat_id, "station_id": st, "start": iso(start),
                     "end": iso(start + timedelta(minutes=dur, seconds=rng.choice([0, 0, 20, 40]))),
                     "max_elevation_deg": round(rng.uniform(12, 88), 1)}
                db["contact_windows"][wid] = w
                windows.append(w)
            contacts = [c for c in db["contacts"].values() if c["org_id"] == org_id and c["role"] == "mission_manager"]
            for w in windows:
                r = rng.random()
                if r < 0.22:
                    ctype = rng.choice([ct for ct in COMMAND_TYPES if ct[0] != "manoeuvre_burn"])
                    started = w["start"] < iso(NOW)
                    cmd_id = f"CMD-{w['window_id'][2:]}-{ctype[0][:3].upper()}"
                    db["commands"][cmd_id] = {
                        "command_id": cmd_id, "sat_id": sat_id, "kind": ctype[0], "window_id": w["window_id"],
                        "requested_by": rng.choice(contacts)["contact_id"],
                        "requested_at": iso(requested_before(datetime.fromisoformat(w["start"][:-1]), rng.randint(3, 30))),
                        "status": "executed" if started else ("queued" if rng.random() < 0.9 else "cancelled"),
                        "energy_wh": ctype[3]}
                    if db["commands"][cmd_id]["status"] == "cancelled":
                        db["commands"][cmd_id]["cancel_reason"] = "Superseded by a revised tasking plan."
            r = rng.random()
            if r < 0.45:
                n_alerts = 1 if rng.random() < 0.8 else 2
                for _a in range(n_alerts):
                    tca = NOW + timedelta(hours=rng.uniform(8, 70))
                    tca = tca.replace(second=0, microsecond=0)
                    exp = rng.uniform(-6.3, -2.4)
                    prob = float(f"{10 ** exp:.1e}")
                    miss = round(rng.uniform(40, 900) if prob > 1e-4 else rng.uniform(300, 4800), 0)
                    alert_id = f"CA-{sat_id[3:]}-{tca:%m%d%H%M}"
                    status = "open" if rng.random() < 0.85 else "risk_accepted"
                    db["conjunctions"][alert_id] = {
                        "alert_id": alert_id, "sat_id": sat_id, "object_name": rng.choice(DEBRIS),
                        "object_norad_id": rng.randint(10000, 58999), "tca": iso(tca), "miss_distance_m": miss,
                        "probability": prob, "status": status}
                    if status == "risk_accepted":
                        db["conjunctions"][alert_id]["accepted_by"] = rng.choice(contacts)["contact_id"]
                        db["conjunctions"][alert_id]["acceptance_note"] = "Low probability, accepted after review."
                    if status == "open" and (prob >= 2e-5 or rng.random() < 0.3):
                        burn = tca - timedelta(hours=rng.uniform(3, 7))
                        burn = burn.replace(second=0, microsecond=0, minute=burn.minute - burn.minute % 5)
                        pid = f"MP-{sat_id[3:]}-{burn:%m%d%H%M}"
                        db["manoeuvres"][pid] = {
                            "plan_id": pid, "sat_id": sat_id, "alert_id": alert_id, "purpose": "collision_avoidance",
                            "delta_v_ms": round(rng.uniform(0.08, 1.6), 2), "burn_start": iso(burn),
                            "status": "proposed"}
            elif r < 0.6:
                burn = NOW + timedelta(hours=rng.uniform(6, 60))
                burn = burn.replace(second=0, microsecond=0, minute=burn.minute - burn.minute % 5)
                pid = f"MP-{sat_id[3:]}-{burn:%m%d%H%M}"
                db["manoeuvres"][pid] = {
                    "plan_id": pid, "sat_id": sat_id, "purpose": rng.choice(["station_keeping", "orbit_raise"]),
                    "delta_v_ms": round(rng.uniform(0.3, 4.5), 2), "burn_start": iso(burn), "status": "proposed"}

    # a few satellites whose propellant is already down to (or just above) the disposal reserve
    late = random.Random(seed + 1)
    low = sorted({p["sat_id"] for p in db["manoeuvres"].values() if p["purpose"] != "collision_avoidance"})
    for sat_id in late.sample(low, min(10, len(low))):
        sat = db["satellites"][sat_id]
        sat["deorbit_reserve_kg"] = round(sat["fuel_kg"] - late.uniform(0.0, 0.004), 3)
    SpaceDB.model_validate(db)
    return db


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(dump_db(generate(args.seed)))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
