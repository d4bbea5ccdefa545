"""Seeded generator of the Quarry data platform's DB: python -m tests_domains.data_science.generate."""

from __future__ import annotations

import argparse
import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db

SEED = 7331
OUT = Path(__file__).parents[2] / "fixtures" / "data_science" / "db.json"
TODAY = date(2026, 3, 18)

FIRST = ["Amara", "Bilal", "Chen", "Dana", "Elif", "Farah", "Goran", "Hana", "Ivan", "Jia", "Kofi", "Lena", "Mateo",
         "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq", "Uma", "Viktor", "Wen", "Ximena", "Yusuf", "Zoe",
         "Aiden", "Beatriz", "Caleb", "Divya", "Emeka", "Freya", "Hugo", "Ines", "Jonas", "Kira", "Luca", "Maya"]
LAST = ["Okafor", "Lindqvist", "Marchetti", "Nakamura", "Haddad", "Petrov", "Alvarez", "Brennan", "Castillo", "Dubois",
        "Eriksen", "Fitzgerald", "Gupta", "Horvat", "Ibrahim", "Jovanovic", "Kowalski", "Larsen", "Moreau", "Novak",
        "Oyelaran", "Park", "Quintero", "Rahman", "Sato", "Tanaka", "Ueda", "Varga", "Whitfield", "Yilmaz", "Zeller"]
TEAMS = ["growth-analytics", "supply-chain", "risk-modeling", "marketing-science", "platform-data", "iot-ops"]
TIERS = ["public", "internal", "confidential", "restricted"]
REGIONS = ["emea", "apac", "amer", "latam", "nordics", "dach", "iberia", "benelux"]

# kind -> (description, columns[(name, dtype, nullable)], (x, y) linked columns)
KINDS: dict[str, tuple[str, list[tuple[str, str, bool]], tuple[str, str]]] = {
    "web_sessions": ("Web sessions with duration and pages viewed",
                     [("device", "string", False), ("duration_sec", "float", True), ("pages_viewed", "integer", True),
                      ("converted", "integer", False)], ("pages_viewed", "duration_sec")),
    "orders": ("Customer orders with value and items",
               [("channel", "string", False), ("items", "integer", True), ("order_value", "float", True),
                ("discount_pct", "float", True)], ("items", "order_value")),
    "sensor_readings": ("Plant sensor readings",
                        [("site", "string", False), ("temperature_c", "float", True), ("humidity_pct", "float", True),
                         ("energy_kwh", "float", True)], ("temperature_c", "energy_kwh")),
    "ad_spend": ("Daily ad spend and clicks by campaign",
                 [("campaign", "string", False), ("spend_usd", "float", True), ("clicks", "integer", True),
                  ("conversions", "integer", True)], ("spend_usd", "clicks")),
    "shipments": ("Outbound shipments with weight and transit time",
                  [("carrier", "string", False), ("weight_kg", "float", True), ("transit_hours", "float", True),
                   ("cost_usd", "float", True)], ("weight_kg", "cost_usd")),
}
CATS = {"device": ["desktop", "mobile", "tablet"], "channel": ["web", "store", "partner"],
        "site": ["north", "south", "east"], "campaign": ["spring", "brand", "retarget"],
        "carrier": ["dhl", "ups", "fedex"]}
ERRORS = ["schema_mismatch", "timeout", "source_unavailable", "out_of_memory"]


def _day(d: date) -> str:
    return d.isoformat()


def _rows(rng: random.Random, kind: str, n: int) -> list[dict[str, Any]]:
    _, cols, (x, y) = KINDS[kind]
    slope = round(rng.uniform(0.5, 12.0), 2)
    intercept = round(rng.uniform(-5, 40), 1)
    rows: list[dict[str, Any]] = []
    for _ in range(n):
        row: dict[str, Any] = {}
        xv = rng.randint(1, 20) if dict((c[0], c[1]) for c in cols)[x] == "integer" else round(rng.uniform(1, 40), 1)
        for name, dtype, _nullable in cols:
            if dtype == "string":
                row[name] = rng.choice(CATS[name])
            elif name == x:
                row[name] = xv
            elif name == y:
                yv = intercept + slope * xv + rng.gauss(0, slope * 2)
                row[name] = round(yv) if dtype == "integer" else round(yv, 2)
            elif dtype == "integer":
                row[name] = rng.randint(0, 1) if name == "converted" else rng.randint(0, 60)
            else:
                row[name] = round(rng.uniform(0, 100), 2)
        rows.append(row)
    numeric = [c[0] for c in cols if c[1] != "string"]
    for _ in range(rng.randint(0, 6)):  # missing values
        rows[rng.randrange(n)][rng.choice([c[0] for c in cols if c[2]])] = None
    for _ in range(rng.choice([0, 0, 1, 2, 4])):  # bad negative readings
        col = rng.choice(numeric)
        r = rows[rng.randrange(n)]
        if isinstance(r[col], (int, float)):
            r[col] = -abs(r[col]) - 1
    for _ in range(rng.choice([0, 1, 2, 3])):  # duplicated rows
        rows.insert(rng.randrange(n), dict(rows[rng.randrange(n)]))
    return rows


def generate(seed: int = SEED, scale: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    db: dict[str, dict[str, Any]] = {t: {} for t in ("users", "datasets", "cleaning_jobs", "pipelines", "models", "grants", "charts")}
    names: set[tuple[str, str]] = set()
    for i in range(160 * scale):
        while True:
            fn, ln = rng.choice(FIRST), rng.choice(LAST)
            if (fn, ln) not in names:
                names.add((fn, ln))
                break
        uid = f"U{1000 + i}"
        db["users"][uid] = {
            "user_id": uid, "first_name": fn, "last_name": ln,
            "email": f"{fn.lower()}.{ln.lower()}@quarrydata.io", "employee_number": f"E{rng.randint(10000, 99999)}",
            "team": TEAMS[i % len(TEAMS)], "role": rng.choice(["analyst", "analyst", "data_engineer"]),
            "clearance": rng.choice(["internal", "internal", "confidential", "confidential", "restricted", "public"]),
            "active": rng.random() > 0.04,
        }
    users = list(db["users"].values())
    by_team = {t: [u for u in users if u["team"] == t] for t in TEAMS}
    used: set[str] = set()
    for i in range(220 * scale):
        kind = rng.choice(list(KINDS))
        while True:
            name = f"{rng.choice(REGIONS)}_{kind}_{rng.choice(['2024', '2025', 'daily', 'weekly', 'q1', 'q4', 'raw', 'curated'])}"
            if name not in used:
                used.add(name)
                break
        team = TEAMS[i % len(TEAMS)]
        owner = rng.choice(by_team[team])
        did = f"DS{2000 + i}"
        desc, cols, _ = KINDS[kind]
        db["datasets"][did] = {
            "dataset_id": did, "name": name, "description": desc, "owner_id": owner["user_id"], "team": team,
            "sensitivity": rng.choice(["public", "internal", "internal", "confidential", "confidential", "restricted"]),
            "status": "active" if rng.random() > 0.08 else "deprecated",
            "created_date": _day(TODAY - timedelta(days=rng.randint(60, 900))),
            "columns": [{"name": "region", "dtype": "string", "nullable": False}]
            + [{"name": c, "dtype": d, "nullable": nb} for c, d, nb in cols],
            "rows": [{"region": name.split("_")[0], **r} for r in _rows(rng, kind, rng.randint(180, 520))],
        }
        pid = f"PL{3000 + i}"
        runs = []
        start = TODAY - timedelta(days=6)
        hh = rng.choice([0, 1, 2, 3, 4, 5, 21, 22, 23])
        mm = rng.choice([0, 15, 30, 45])
        for k in range(6):
            d = start + timedelta(days=k)
            ok = rng.random() > 0.25
            runs.append({"run_id": f"R{pid[2:]}{k:02d}", "started_at": f"{_day(d)}T{hh:02d}:{mm:02d}", "trigger": "scheduled",
                         "status": "succeeded" if ok else "failed", "error_code": None if ok else rng.choice(ERRORS),
                         "rows_written": 0 if ok else None})
        if rng.random() < 0.45:  # latest run failed
            runs[-1].update(status="failed", error_code=rng.choice(ERRORS), rows_written=None)
            for m in range(rng.choice([0, 0, 1, 2])):
                runs.append({"run_id": f"R{pid[2:]}{6 + m:02d}", "started_at": f"{_day(TODAY)}T0{7 + m}:{rng.choice(['05', '20', '40'])}",
                             "trigger": "manual", "status": "failed", "error_code": runs[-1]["error_code"], "rows_written": None})
        # a run refreshes the whole dataset: the latest successful run wrote exactly the rows it holds, and each
        # earlier one a row fewer every other day (the drawn counts, hundreds of times the data, are not used)
        n_rows, written = len(db["datasets"][did]["rows"]), None
        for back, run in enumerate(reversed(runs)):
            if run["status"] == "succeeded":
                written = n_rows if written is None else written - back % 2
                run["rows_written"] = written
        engineers = [u for u in by_team[team] if u["role"] == "data_engineer"] or [owner]
        db["pipelines"][pid] = {
            "pipeline_id": pid, "name": f"refresh_{name}", "dataset_id": did, "owner_id": rng.choice(engineers)["user_id"],
            "team": team, "schedule_time": f"{hh:02d}:{mm:02d}", "status": "active" if rng.random() > 0.2 else "paused",
            "pause_reason": None, "runs": runs,
        }
    datasets = list(db["datasets"].values())
    mnames = ["churn", "fraud", "demand", "ltv", "anomaly", "conversion", "eta", "pricing", "attrition", "yield"]
    for i, base in enumerate(f"{r}_{m}" for r in REGIONS for m in mnames):
        if rng.random() < 0.45:
            continue
        task = "regression" if base.split("_")[1] in ("demand", "ltv", "eta", "pricing", "yield") else "classification"
        team = rng.choice(TEAMS)
        owner = rng.choice(by_team[team])
        nver = rng.randint(1, 4)
        prod = rng.randint(0, nver - 1) if rng.random() < 0.7 else -1
        ds = rng.choice(datasets)
        for v in range(1, nver + 1):
            mid = f"M{4000 + i * 10 + v}"
            if task == "classification":
                ev = [{"metric": "auc", "value": round(rng.uniform(0.68, 0.95), 2)},
                      {"metric": "precision", "value": round(rng.uniform(0.6, 0.93), 2)}]
            else:
                ev = [{"metric": "r2", "value": round(rng.uniform(0.52, 0.91), 2)},
                      {"metric": "mae", "value": round(rng.uniform(1.5, 40.0), 2)}]
            stage = "production" if v - 1 == prod else ("retired" if v - 1 < max(prod, 0) else rng.choice(["registered", "staging"]))
            db["models"][mid] = {
                "model_id": mid, "name": f"{base}_{task[:3]}", "version": v, "task": task,
                "training_dataset_id": ds["dataset_id"], "owner_id": owner["user_id"], "team": team, "stage": stage,
                "evaluated_on": _day(TODAY - timedelta(days=rng.randint(2, 200))), "evaluations": ev,
            }
    reasons = ["quarterly reporting", "churn analysis", "forecast refresh", "ad-hoc investigation", "model training",
               "dashboard build", "audit support"]
    for i in range(420 * scale):
        u, ds = rng.choice(users), rng.choice(datasets)
        gid = f"G{5000 + i}"
        granted = TODAY - timedelta(days=rng.randint(1, 200))
        db["grants"][gid] = {
            "grant_id": gid, "user_id": u["user_id"], "dataset_id": ds["dataset_id"],
            "level": rng.choice(["read", "read", "write"]), "granted_on": _day(granted),
            "expires_on": _day(granted + timedelta(days=rng.choice([30, 60, 90]))),
            "status": "active" if rng.random() > 0.1 else "revoked", "justification": rng.choice(reasons),
        }
    return db


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--scale", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(dump_db(generate(args.seed, args.scale)))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
