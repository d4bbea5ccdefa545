"""Seeded generator of fixtures/manufacturing/db.json: `python -m tests_domains.manufacturing.generate`."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from pytest_tau.invariants import dialable_area_code
from tests_domains.manufacturing.schema import defect_possible, lot_processes

SEED = 6210
NOW = datetime(2026, 6, 10, 14, 0)
TODAY = NOW.date()
OUT = Path(__file__).parents[2] / "fixtures" / "manufacturing" / "db.json"
Rec = dict[str, Any]

FIRST = ["Maria", "Dale", "Priya", "Tomasz", "Keisha", "Luis", "Hannah", "Brent", "Aisha", "Gordon", "Mei", "Ray", "Carla",
         "Deshawn", "Ingrid", "Omar", "Tricia", "Victor", "Nadia", "Curtis", "Elena", "Marcus", "Janelle", "Wes", "Rosa",
         "Kofi", "Beth", "Sergei", "Lupe", "Trent", "Yuki", "Fatima", "Darnell", "Colleen", "Arjun", "Shauna", "Hector"]
LAST = ["Kowalski", "Bradley", "Raman", "Nowak", "Freeman", "Ortega", "Lindqvist", "Haskins", "Bello", "McAllister",
        "Zhou", "Dunaway", "Pacheco", "Whitfield", "Sorensen", "Haddad", "Burch", "Salazar", "Petrova", "Holloway",
        "Marsh", "Okafor", "Tran", "Gallagher", "Voss", "Mensah", "Delgado", "Kimura", "Abernathy", "Iyer", "Reyes"]
CUSTOMERS = [("Halvorsen Agricultural Equipment", "Fargo"), ("Tri-County Pump & Valve", "Toledo"),
             ("Meridian Medical Devices", "Minneapolis"), ("Keystone Truck Bodies", "Harrisburg"),
             ("Aurora Outdoor Power", "Aurora"), ("Bluewater Marine Systems", "Muskegon"),
             ("Cascade Hydraulics", "Spokane"), ("Northfield Rail Components", "Northfield"),
             ("Summit Fitness Machines", "Boulder"), ("Pioneer HVAC Products", "Wichita"),
             ("Redwood Robotics", "Sacramento"), ("Lakeshore Appliance Co.", "Benton Harbor"),
             ("Granite State Firearms Accessories", "Manchester"), ("Delta Irrigation Supply", "Greenville"),
             ("Ironbridge Elevator Parts", "Pittsburgh"), ("Prairie Wind Turbine Service", "Sioux Falls"),
             ("Coastal Boatworks", "Wilmington"), ("Vanguard Lift Trucks", "Columbus"),
             ("Sterling Dental Equipment", "Des Plaines"), ("Orchard Valley Food Machinery", "Yakima"),
             ("Tidewater Defense Systems", "Norfolk"), ("Copperline Electrical", "Butte")]
AREAS = {"Machining": [("CNC lathe", "L", ["Okuma LB3000", "Haas ST-20", "Mazak QTN-200"]),
                       ("CNC mill", "M", ["Haas VF-4", "DMG Mori NVX 5080", "Okuma MB-46"])],
         "Stamping": [("stamping press", "P", ["Aida NC1-200", "Komatsu H1F-110", "Minster P2-150"])],
         "Molding": [("injection molder", "IM", ["Engel Victory 200", "Arburg 470", "Husky HyPET 300"])],
         "Heat Treat": [("heat treat furnace", "HT", ["Ipsen ATLAS", "Surface Combustion Allcase"])],
         "Assembly": [("assembly cell", "AC", ["Bosch Rexroth cell", "Custom assembly cell"])]}
PART_WORDS = {"CNC lathe": ["drive shaft", "bushing", "spindle pin", "valve stem", "hub sleeve"],
              "CNC mill": ["manifold block", "mounting bracket", "pump housing", "gear cover", "valve body"],
              "stamping press": ["hinge plate", "bracket clip", "shield panel", "strap bracket"],
              "injection molder": ["handle grip", "housing cover", "knob", "cable guide"],
              "heat treat furnace": ["hardened gear", "hardened pin"],
              "assembly cell": ["pump assembly", "valve assembly", "gearbox subassembly", "hinge assembly"]}
MATERIALS = {"CNC lathe": ["4140 steel bar", "303 stainless bar", "6061 aluminum bar"],
             "CNC mill": ["6061 aluminum plate", "A36 steel plate", "ductile iron casting"],
             "stamping press": ["1008 CR steel coil", "5052 aluminum coil"],
             "injection molder": ["ABS resin", "nylon 6/6 resin", "polypropylene resin"],
             "heat treat furnace": ["8620 steel forging"], "assembly cell": ["purchased hardware kit"]}
DEFECTS = ["dimension_oversize", "dimension_undersize", "burr", "surface_finish", "porosity", "crack", "short_shot",
           "flash", "hardness_low", "thread_damage", "missing_component", "material_cert_mismatch"]
INSPECTORS = ["R. Ahn", "J. Mercer", "T. Bakker", "S. Oyelaran", "L. Fontaine", "K. Dubois"]
STATE_NOTES = {"running": ["started job", "back in production", "first piece approved"],
               "idle": ["waiting on material", "no scheduled work", "waiting on setup tech"],
               "down": ["spindle alarm", "hydraulic leak", "tool changer fault", "coolant pump failure", "die crack"],
               "maintenance": ["preventive maintenance", "way lube and filter change", "ballscrew inspection"]}
SHIFT_START = {"A": 6, "B": 14, "C": 22}


def plausible_defect(code: str, lots: list[Rec], work_orders: dict[str, Rec], machines: dict[str, Rec], parts: dict[str, Rec]) -> str:
    """A drawn defect code, kept when every lot's processes can cause it, else moved to one they can (see
    defect_possible): no low hardness on a part never heat-treated, no short shot off a lathe."""
    processes = [lot_processes(lot, work_orders, machines, parts) for lot in lots]
    allowed = [c for c in DEFECTS if all(defect_possible(c, types, material) for types, material in processes)]
    return code if code in allowed else allowed[DEFECTS.index(code) % len(allowed)]


def severity_of(code: str) -> str:
    """The policy's severity of a defect code (4.1)."""
    if code in ("crack", "porosity", "hardness_low", "material_cert_mismatch"):
        return "critical"
    if code in ("burr", "surface_finish", "flash"):
        return "minor"
    return "major"


def generate(seed: int = SEED) -> Rec:
    rng = random.Random(seed)
    used_names: set[tuple[str, str]] = set()

    def person() -> tuple[str, str]:
        while True:
            n = (rng.choice(FIRST), rng.choice(LAST))
            if n not in used_names:
                used_names.add(n)
                return n

    def dob() -> str:
        return (date(1962, 1, 1) + timedelta(days=rng.randint(0, 365 * 36))).isoformat()

    # supervisors
    supervisors: dict[str, Rec] = {}
    for i in range(48):
        fn, ln = person()
        sid = f"SUP-{310 + i * 7}"
        supervisors[sid] = {"supervisor_id": sid, "badge_number": str(40100 + i * 37 + rng.randint(0, 30)), "first_name": fn,
                            "last_name": ln, "date_of_birth": dob(), "email": f"{fn[0].lower()}{ln.lower()}@brannockprecision.com",
                            "area": rng.choice(list(AREAS)), "shift": rng.choice(["A", "B", "C"])}
    # customers and contacts
    customers: dict[str, Rec] = {}
    contacts: dict[str, Rec] = {}
    for i, (name, city) in enumerate(CUSTOMERS):
        cid = f"CU-{1001 + i}"
        code = "".join(w[0] for w in name.replace("&", "").split()[:3]).upper() + f"-{rng.randint(100, 999)}"
        customers[cid] = {"customer_id": cid, "name": name, "customer_code": code, "city": city}
        domain = name.split()[0].lower().replace("-", "") + ".com"
        for j in range(rng.randint(2, 4)):
            fn, ln = person()
            kid = f"QC-{2001 + i * 5 + j}"
            contacts[kid] = {"contact_id": kid, "customer_id": cid, "first_name": fn, "last_name": ln,
                             "email": f"{fn.lower()}.{ln.lower()}@{domain}",
                             "phone": f"({dialable_area_code(rng.randint(201, 989))}) 555-{rng.randint(1000, 9999)}"}
    # machines
    machines: dict[str, Rec] = {}
    by_type: dict[str, list[str]] = {}
    for area, types in AREAS.items():
        for mtype, prefix, models in types:
            for n in range(1, rng.randint(9, 14) + 1):
                mid = f"{prefix}-{n:02d}"
                interval = rng.choice([250, 400, 500, 750]) if mtype != "heat treat furnace" else 1000
                avg = round(rng.uniform(9.0, 20.0), 1)
                since = round(rng.uniform(0.05, 1.25) * interval, 1)
                last_pm = TODAY - timedelta(days=max(1, int(since / avg)))
                hist = []
                t = NOW - timedelta(days=rng.randint(20, 40))
                state = "running"
                for _ in range(rng.randint(3, 7)):
                    note = rng.choice(STATE_NOTES[state])
                    if note == "preventive maintenance" and t.date() > last_pm:
                        note = "ballscrew inspection"  # a PM after the last PM date would make that date wrong
                    hist.append({"at": t.isoformat(timespec="minutes"), "state": state, "note": note})
                    t += timedelta(hours=rng.randint(4, 90))
                    if t >= NOW:
                        break
                    state = rng.choices(["running", "idle", "down", "maintenance"], [5, 2, 2, 1])[0]
                    if state == hist[-1]["state"]:
                        state = "running" if state != "running" else "idle"
                machines[mid] = {"machine_id": mid, "name": f"{rng.choice(models)} #{n}", "machine_type": mtype, "area": area,
                                 "state": hist[-1]["state"], "state_history": hist, "pm_interval_hours": interval,
                                 "run_hours_since_pm": since, "avg_run_hours_per_day": avg, "last_pm_date": last_pm.isoformat()}
                by_type.setdefault(mtype, []).append(mid)
    # maintenance orders (history + some scheduled)
    maint: dict[str, Rec] = {}
    for mid, m in machines.items():
        key = f"MO-{len(maint) + 7001}"
        maint[key] = {"maintenance_id": key, "machine_id": mid, "kind": "preventive", "scheduled_date": m["last_pm_date"],
                      "status": "completed", "requested_by": rng.choice(list(supervisors)), "note": "routine PM per interval"}
        if rng.random() < 0.2:
            key = f"MO-{len(maint) + 7001}"
            maint[key] = {"maintenance_id": key, "machine_id": mid, "kind": "corrective",
                          "scheduled_date": (TODAY - timedelta(days=rng.randint(3, 60))).isoformat(), "status": "completed",
                          "requested_by": rng.choice(list(supervisors)), "note": rng.choice(STATE_NOTES["down"])}
    # parts
    parts: dict[str, Rec] = {}
    parts_by_type: dict[str, list[str]] = {}
    for mtype, words in PART_WORDS.items():
        for w in words:
            for _ in range(rng.randint(2, 3)):
                pn = f"{rng.randint(100, 989)}-{rng.randint(1000, 9999)}"
                cost = round(rng.uniform(1.8, 95.0) if mtype != "assembly cell" else rng.uniform(60, 420), 2)
                parts[pn] = {"part_number": pn, "name": w, "standard_cost": cost, "material": rng.choice(MATERIALS[mtype])}
                parts_by_type.setdefault(mtype, []).append(pn)
    # work orders, lots, inspections
    work_orders: dict[str, Rec] = {}
    lots: dict[str, Rec] = {}
    inspections: dict[str, Rec] = {}
    lot_seq = [4100]

    def new_lot(pn: str, wo: str | None, mid: str | None, qty: int, day: date, parents: list[str], cust: str | None) -> str:
        lot_seq[0] += rng.randint(1, 9)
        lid = f"L26-{lot_seq[0]:05d}"
        lots[lid] = {"lot_id": lid, "part_number": pn, "work_order_id": wo, "machine_id": mid, "quantity": qty,
                     "produced_on": day.isoformat(), "parent_lots": parents, "status": "available", "customer_id": cust,
                     "shipped_on": None, "rework_count": 0, "hold_id": None}
        return lid

    def inspect(lid: str, at: datetime, result: str) -> None:
        iid = f"IN-{len(inspections) + 90001}"
        at = min(at, NOW - timedelta(minutes=30))  # today's inspections are this morning's, before the desk's now
        defects = [] if result == "pass" else [{"code": plausible_defect(rng.choice(DEFECTS), [lots[lid]], work_orders, machines, parts),
                                                "count": rng.randint(1, 6)}]
        inspections[iid] = {"inspection_id": iid, "lot_id": lid, "inspected_at": at.isoformat(timespec="minutes"),
                            "result": result, "sample_size": rng.choice([13, 20, 32, 50]), "defects": defects,
                            "inspector": rng.choice(INSPECTORS)}

    raw_lots: dict[str, list[str]] = {}
    for mats in MATERIALS.values():
        for mat in mats:
            for _ in range(rng.randint(4, 7)):
                d = TODAY - timedelta(days=rng.randint(30, 90))
                lid = new_lot("RM", None, None, rng.randint(500, 4000), d, [], None)
                lots[lid]["part_number"] = "RM:" + mat
                lots[lid]["status"] = rng.choice(["available", "consumed"])
                raw_lots.setdefault(mat, []).append(lid)
    component_lots: dict[str, list[str]] = {}
    cust_ids = list(customers)
    wo_num = 58000
    for _ in range(420):
        mtype = rng.choice([t for t in PART_WORDS if t != "assembly cell"] + ["assembly cell"] * 1)
        pn = rng.choice(parts_by_type[mtype])
        wo_num += rng.randint(3, 40)
        wid = f"WO-{wo_num}"
        cust = rng.choice(cust_ids)
        qty = rng.choice([100, 150, 200, 250, 300, 400, 500, 600, 800, 1000])
        start = TODAY - timedelta(days=rng.randint(-3, 40))
        status = "completed" if start < TODAY - timedelta(days=12) else rng.choice(["released", "in_progress", "in_progress"])
        if start > TODAY:
            status = "released"
        ops = [("primary operation", mtype)]
        if mtype in ("CNC lathe", "CNC mill") and rng.random() < 0.5:
            ops.append(("secondary operation", "CNC mill" if mtype == "CNC lathe" else "CNC lathe"))
        if mtype in ("CNC lathe", "heat treat furnace") and rng.random() < 0.4:
            ops.append(("heat treat", "heat treat furnace"))
        routing: list[Rec] = []
        cur = rng.randint(0, len(ops) - 1) if status == "in_progress" else (len(ops) if status == "completed" else 0)
        for s, (desc, op_type) in enumerate(ops):
            st = "done" if s < cur else ("in_progress" if s == cur and status == "in_progress" else "pending")
            routing.append({"seq": (s + 1) * 10, "description": desc, "machine_type": op_type,
                            "machine_id": rng.choice(by_type[op_type]),
                            "status": st})
        work_orders[wid] = {"work_order_id": wid, "part_number": pn, "part_name": parts[pn]["name"], "customer_id": cust,
                            "quantity": qty, "due_date": (start + timedelta(days=rng.randint(10, 30))).isoformat(),
                            "status": status, "routing": routing}
        if status == "released":
            continue
        mat = parts[pn]["material"]
        n_lots = rng.randint(1, 3)
        for k in range(n_lots):
            d = min(TODAY, start + timedelta(days=k * 2 + rng.randint(0, 2)))
            parents = rng.sample(raw_lots[mat], k=min(len(raw_lots[mat]), rng.randint(1, 2)))
            lid = new_lot(pn, wid, routing[0]["machine_id"], qty // n_lots, d, parents,
                          cust if mtype == "assembly cell" else None)
            inspect(lid, datetime.combine(d, datetime.min.time()) + timedelta(hours=rng.randint(7, 21)),
                    "pass" if rng.random() < 0.88 else "fail")
            component_lots.setdefault(mtype, []).append(lid)
    # finished assemblies built from component lots (genealogy two levels deep)
    comp_all = sorted(lid for t, ls in component_lots.items() if t != "assembly cell" for lid in ls)
    for _ in range(520):
        pn = rng.choice(parts_by_type["assembly cell"])
        parents = sorted(rng.sample(comp_all, k=rng.randint(1, 3)))
        d = max(date.fromisoformat(lots[p]["produced_on"]) for p in parents) + timedelta(days=rng.randint(1, 6))
        if d > TODAY:
            continue
        cust = rng.choice(cust_ids)
        lid = new_lot(pn, None, rng.choice(by_type["assembly cell"]), rng.choice([24, 48, 60, 96, 120, 200]), d, parents, cust)
        for p in parents:
            if lots[p]["status"] == "available" and rng.random() < 0.5:
                lots[p]["status"] = "consumed"
        inspect(lid, datetime.combine(d, datetime.min.time()) + timedelta(hours=rng.randint(7, 21)), "pass")
        if d < TODAY - timedelta(days=2) and rng.random() < 0.55:
            lots[lid]["status"] = "shipped"
            lots[lid]["shipped_on"] = (d + timedelta(days=rng.randint(1, 2))).isoformat()
    # quality holds on available component lots
    holds: dict[str, Rec] = {}
    cand = sorted(lid for lid in comp_all if lots[lid]["status"] == "available" and lots[lid]["produced_on"] >= "2026-05-12")
    rng.shuffle(cand)
    for i in range(70):
        take = [cand.pop() for _ in range(rng.choice([1, 1, 2, 2, 3]))]
        hid = f"QH-{3100 + i * 3}"
        opened = NOW - timedelta(days=rng.randint(1, 25), hours=rng.randint(0, 12))
        # a hold is opened on lots already made: not before the newest of them was produced
        newest = max(datetime.fromisoformat(lots[lid]["produced_on"]) for lid in take) + timedelta(hours=8)
        opened = min(max(opened, newest), NOW - timedelta(hours=1))
        status = "released" if rng.random() < 0.3 else "open"
        code = plausible_defect(rng.choice(DEFECTS), [lots[lid] for lid in take], work_orders, machines, parts)
        holds[hid] = {"hold_id": hid, "lot_ids": take, "severity": severity_of(code),
                      "defect_code": code, "opened_at": opened.isoformat(timespec="minutes"),
                      "opened_by": rng.choice(list(supervisors)), "status": status,
                      "reason": f"{code.replace('_', ' ')} found at in-process inspection",
                      "released_at": None, "released_by": None}
        fix = rng.random()
        for lid in take:
            if status == "open":
                lots[lid]["status"] = "on_hold"
                lots[lid]["hold_id"] = hid
            # re-inspection after the hold: all pass, some fail, some missing
            if status == "released" or fix < 0.45 or (fix < 0.7 and rng.random() < 0.5):
                inspect(lid, opened + timedelta(hours=rng.randint(5, 20)), "pass")
            elif fix < 0.85:
                inspect(lid, opened + timedelta(hours=rng.randint(5, 20)), "fail")
        if status == "released":
            holds[hid]["released_at"] = min(opened + timedelta(days=1), NOW).isoformat(timespec="minutes")
            holds[hid]["released_by"] = rng.choice(list(supervisors))
    # rework history and scrap records
    scrap: dict[str, Rec] = {}
    for lid in sorted(comp_all):
        if rng.random() < 0.22:
            lot = lots[lid]
            disp = rng.choice(["scrap", "rework"])
            q = rng.randint(2, max(3, lot["quantity"] // 20))
            sid = f"SR-{len(scrap) + 50001}"
            scrap[sid] = {"scrap_id": sid, "lot_id": lid, "quantity": q, "defect_code": plausible_defect(rng.choice(DEFECTS), [lot], work_orders, machines, parts),
                          "disposition": disp,
                          "cost": round(q * parts[lot["part_number"]]["standard_cost"] * (1 if disp == "scrap" else 0.35), 2),
                          "recorded_at": min(f"{lot['produced_on']}T{rng.randint(7, 21):02d}:{rng.choice(['05', '20', '40'])}",
                                             f"{NOW:%Y-%m-%dT%H:%M}"),
                          "recorded_by": rng.choice(list(supervisors)), "note": "found at final inspection"}
            if disp == "scrap":
                lot["quantity"] -= q
            else:
                lot["rework_count"] += 1
                if rng.random() < 0.4:
                    lot["rework_count"] += 1
    # shift logs
    logs: dict[str, Rec] = {}
    day = TODAY - timedelta(days=10)
    while day <= TODAY:
        for sh in ("A", "B", "C"):
            end = datetime.combine(day, datetime.min.time()) + timedelta(hours=SHIFT_START[sh] + 8)
            if end > NOW:
                continue
            for mid, m in machines.items():
                if rng.random() < 0.15:
                    continue
                planned = rng.choice([450, 450, 450, 420, 480])
                down = rng.choice([0, 0, rng.randint(5, 40), rng.randint(30, 140)])
                run_s = (planned - down) * 60
                ideal = round(rng.uniform(18, 140) if m["machine_type"] != "heat treat furnace" else rng.uniform(240, 600), 1)
                total = int(run_s / ideal * rng.uniform(0.62, 0.97))
                good = total - rng.randint(0, max(1, total // 15))
                lid = f"SL-{day.strftime('%m%d')}{sh}-{mid}"
                logs[lid] = {"log_id": lid, "machine_id": mid, "shift_date": day.isoformat(), "shift": sh,
                             "planned_minutes": planned, "downtime_minutes": down, "ideal_cycle_seconds": ideal,
                             "total_count": total, "good_count": good, "work_order_id": None}
        day += timedelta(days=1)
    # The gross margin each customer's contract was priced at: its own seed, so the rest of the plant stays as it was.
    terms = random.Random(seed + 1)
    for account in customers.values():
        margin = round(terms.uniform(14.0, 36.0), 1)
        account["contract_margin_pct"] = margin + 0.3 if margin == int(margin) else margin
    return {"supervisors": supervisors, "customers": customers, "quality_contacts": contacts, "machines": machines,
            "maintenance_orders": maint, "parts": parts, "work_orders": work_orders, "lots": lots, "inspections": inspections,
            "quality_holds": holds, "scrap_records": scrap, "shift_logs": logs}


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(dump_db(generate()))
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
