"""Builds fixtures/manufacturing/tasks.json: `python -m tests_domains.manufacturing.make_tasks`.

Templates pick records from the DB (sorted candidates, seeded choice); every gold call runs on the task's own
environment as it is added, and every figure a task requires is read from what the tools returned.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

from pytest_tau import TaskDraft, TaskWriter
from tests_domains.manufacturing.domain import DOMAIN, quote_scrap
from tests_domains.manufacturing.schema import Lot, defect_possible, lot_processes

DB = DOMAIN.initial_db
TODAY = DOMAIN.today
CRITICAL = ("crack", "porosity", "hardness_low", "material_cert_mismatch")


def possible(lot: Lot, codes: tuple[str, ...]) -> tuple[str, ...]:
    """The codes this lot's processes and material can show (see defect_possible)."""
    types, material = lot_processes(lot, DB.work_orders, DB.machines, DB.parts)
    return tuple(code for code in codes if defect_possible(code, types, material))
MAJOR = ("dimension_oversize", "dimension_undersize", "thread_damage", "missing_component", "short_shot")
MINOR = ("burr", "surface_finish", "flash")
REWORKABLE = ("dimension_oversize", "burr", "surface_finish", "flash", "thread_damage")
DEFECT_WORDS = {"crack": "cracks", "porosity": "porosity", "hardness_low": "low hardness readings",
                "material_cert_mismatch": "a material cert that doesn't match the heat number", "dimension_oversize":
                "oversize diameters", "dimension_undersize": "undersize dimensions", "thread_damage": "damaged threads",
                "missing_component": "a missing component", "short_shot": "short shots", "burr": "burrs",
                "surface_finish": "a bad surface finish", "flash": "flash on the parting line"}
MOODS = ["You are busy and a little short; the line is waiting on you.", "You are friendly and talkative.",
         "You are careful and ask the agent to repeat figures back.", "You are calm and matter-of-fact.",
         "You are stressed and want this sorted quickly.", "You are polite and answer only what you are asked."]
SHIFT_WORDS = {"A": "A shift (6 a.m. to 2 p.m.)", "B": "B shift (2 p.m. to 10 p.m.)", "C": "C shift (10 p.m. to 6 a.m.)"}


def spoken(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def day_words(iso: str) -> str:
    d = date.fromisoformat(iso)
    if d == TODAY:
        return "today"
    if d == TODAY - timedelta(days=1):
        return "yesterday"
    return d.strftime("%A, %B ") + str(d.day)


def severity(code: str) -> str:
    return "critical" if code in CRITICAL else "major" if code in MAJOR else "minor"


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(20260610)
        self.sups = sorted(DB.supervisors.values(), key=lambda s: s.supervisor_id)
        self.used: set[str] = set()

    def supervisor(self, area: str | None = None) -> Any:
        pool = [s for s in self.sups if s.supervisor_id not in self.used and (area is None or s.area == area)]
        if not pool:
            pool = [s for s in self.sups if s.supervisor_id not in self.used]
        if not pool:
            self.used.clear()
            pool = list(self.sups)
        s = self.rng.choice(pool)
        self.used.add(s.supervisor_id)
        return s

    def sup_who(self, s: Any) -> str:
        return (f"You are {s.first_name} {s.last_name}, the {s.shift}-shift supervisor in {s.area} at Brannock Precision. "
                f"Your badge number is {s.badge_number} and your date of birth is {spoken(s.date_of_birth)}. "
                f"{self.rng.choice(MOODS)} Give your badge number and date of birth only when asked.")

    def creds(self, s: Any) -> str:
        """A supervisor's answer to the authentication question (policy 1.1: badge number and date of birth)."""
        return f"My badge number is {s.badge_number}, and my date of birth is {spoken(s.date_of_birth)}."

    def auth(self, d: TaskDraft, s: Any) -> None:
        d.read("verify_supervisor", badge_number=s.badge_number, date_of_birth=s.date_of_birth)

    def take(self, cands: list[Any], n: int) -> Iterator[Any]:
        cands = list(cands)
        self.rng.shuffle(cands)
        yield from cands[:n]


def steps(d: TaskDraft) -> list[tuple[str, dict[str, Any]]]:
    """The gold calls so far, as the steps of another path to edit."""
    return [(a.name, dict(a.arguments)) for a in d.gold]


def overdue(m: Any) -> bool:
    """The machine has run past its PM interval: a call about it must stop it first (policy 3.4)."""
    return bool(m.pm_interval_hours - m.run_hours_since_pm <= 0)


def shipped_count(trace: dict[str, Any]) -> int:
    return int(trace["count_by_status"].get("shipped", 0))


def build() -> TaskWriter:
    b = Builder()
    w = b.writer
    counts: dict[str, int] = {}

    def attempt(kind: str, key: str, instructions: str, script: list[str], split: str = "test") -> Any:
        counts[kind] = counts.get(kind, 0) + 1
        tid = re.sub(r"[^a-z0-9]+", "_", f"{kind}_{key}".lower()).strip("_")
        return w.attempt(tid, instructions=instructions, script=script, split=split)

    machines = sorted(DB.machines.values(), key=lambda m: m.machine_id)

    # ---- shift efficiency figures (output)
    logs = sorted((x for x in DB.shift_logs.values() if x.shift_date >= "2026-06-04"), key=lambda x: x.log_id)
    # Not a machine past its PM: a supervisor calling about it gets it stopped (3.4), which a report request does not ask for.
    for i, log in enumerate([x for x in b.take(logs, len(logs)) if not overdue(DB.machines[x.machine_id])][:8]):
        s = b.supervisor()
        metric = ["OEE", "first-pass yield"][i % 2]
        split = "train" if i >= 7 else "test"
        instr = (f"{b.sup_who(s)} You want the {metric} of machine {log.machine_id} for the {SHIFT_WORDS[log.shift]} on "
                 f"{spoken(log.shift_date)}, as a percentage, for your shift handover. You do not know the figure.")
        with attempt("shift_report", f"{log.machine_id}_{log.shift_date}_{log.shift}", instr,
                     [f"Hi, I need the {metric} for {log.machine_id}, {log.shift} shift on {day_words(log.shift_date)}.", b.creds(s)],
                     split) as d:
            b.auth(d, s)
            rep = d.read("get_shift_report", machine_id=log.machine_id, shift_date=log.shift_date, shift=log.shift)
            d.output(rep["oee_pct"] if metric == "OEE" else rep["yield_pct"], "percent", strict=True)
            d.one_end_state("3.5 gives the figure exactly as get_shift_report computes it for that machine and completed "
                            "shift; the machine is not past its PM, so 3.4 asks for nothing more.")

    # ---- PM due: tell the date and schedule it
    not_overdue = [m for m in machines if m.pm_interval_hours - m.run_hours_since_pm > 3 * m.avg_run_hours_per_day]
    picked = list(b.take(not_overdue, 12))
    for i, m in enumerate(picked[:5]):
        s = b.supervisor(m.area)
        instr = (f"{b.sup_who(s)} You want to know when preventive maintenance (PM) is next due on {m.machine_id} "
                 f"({m.name}), and you want the PM booked on exactly that due date. You do not know the date.")
        with attempt("pm_book", m.machine_id, instr, [f"Hey, when is {m.machine_id} next due for PM? I'd like it booked.", b.creds(s),
                      "Yes, book it on that due date."],
                     "train" if i == 4 else "test") as d:
            b.auth(d, s)
            f = d.read("get_maintenance_forecast", machine_id=m.machine_id)
            d.write("schedule_maintenance", machine_id=m.machine_id, kind="preventive", scheduled_date=f["next_pm_due"],
                    supervisor_id=s.supervisor_id, note="preventive maintenance at interval")
            d.output(f["next_pm_due"], "date", strict=True)
            d.one_end_state("3.2 takes the due date from the forecast and 3.3 allows a PM on any day from today through it, so "
                            "the PM is booked on that date as the supervisor asks.")
    for m in picked[5:10]:
        s = b.supervisor(m.area)
        ask = (date.fromisoformat("2026-06-10") + timedelta(days=40)).isoformat()
        instr = (f"{b.sup_who(s)} {m.machine_id} ({m.name}) has a big customer run coming, so you want its preventive "
                 f"maintenance (PM) booked for {spoken(ask)}. If the agent says that is too late, ask what the latest "
                 f"possible date is and book the PM on that date instead. You do not know when the PM is due.")
        with attempt("pm_late", m.machine_id, instr,
                     [f"I need to push the PM on {m.machine_id} out to {spoken(ask)}, can you book that?", b.creds(s),
                      "What's the latest possible date, then? Book it on that date instead.", "Yes, go ahead."]) as d:
            b.auth(d, s)
            f = d.read("get_maintenance_forecast", machine_id=m.machine_id)
            if f["next_pm_due"] >= ask:
                w.discard(d)
                continue
            d.write("schedule_maintenance", machine_id=m.machine_id, kind="preventive", scheduled_date=f["next_pm_due"],
                    supervisor_id=s.supervisor_id, note="preventive maintenance")
            d.output(f["next_pm_due"], "date", strict=True)
            d.forbid("schedule_maintenance", machine_id=m.machine_id, kind="preventive", scheduled_date=ask,
                     supervisor_id=s.supervisor_id, note="preventive maintenance")
            d.one_end_state("The date asked is after the forecast's due date: 3.3 never books a PM after it and offers the due "
                            "date itself, which the supervisor then books.")

    # ---- overdue machine: stop it, schedule PM today, move in-progress operations
    in_progress: dict[str, list[tuple[str, int]]] = {}
    for wo in sorted(DB.work_orders.values(), key=lambda x: x.work_order_id):
        for op in wo.routing:
            if op.status == "in_progress":
                in_progress.setdefault(op.machine_id, []).append((wo.work_order_id, op.seq))

    od = [m for m in machines if overdue(m) and m.state != "maintenance" and in_progress.get(m.machine_id)]
    for m in b.take(od, 12):
        alts = [a for a in machines if a.machine_type == m.machine_type and a.machine_id != m.machine_id
                and a.state in ("running", "idle") and not overdue(a)]
        if not alts:
            continue
        alt = b.rng.choice(alts)
        s = b.supervisor(m.area)
        instr = (f"{b.sup_who(s)} The PM counter on {m.machine_id} ({m.name}) looks like it has run past its interval. "
                 f"You want the desk to check it and do whatever the plant's rules require; if work has to move off it, "
                 f"you want it moved to {alt.machine_id}. You do not know which work orders are running on it.")
        with attempt("overdue", m.machine_id, instr,
                     [f"I think {m.machine_id} is past due for PM. Can you check and sort it out? {alt.machine_id} is free.",
                      b.creds(s), f"Yes, go ahead with all of that, and move the work to {alt.machine_id}."]) as d:
            b.auth(d, s)
            f = d.read("get_maintenance_forecast", machine_id=m.machine_id)
            d.read("get_maintenance_forecast", machine_id=alt.machine_id)
            d.write("set_machine_state", machine_id=m.machine_id, state="maintenance", note="PM overdue")
            d.write("schedule_maintenance", machine_id=m.machine_id, kind="preventive", scheduled_date=TODAY.isoformat(),
                    supervisor_id=s.supervisor_id, note="overdue PM")
            d.read("list_work_orders_on_machine", machine_id=m.machine_id)
            for wo_id, seq in in_progress[m.machine_id]:
                d.write("reassign_operation", work_order_id=wo_id, seq=seq, machine_id=alt.machine_id)
            assert f["overdue"]
            d.one_end_state("The forecast shows the machine overdue: 3.4 sets it to maintenance, books its PM for today and "
                            "moves every in-progress operation (the pending ones stay) to the machine the supervisor names, "
                            "which is of the same type, running or idle, and not overdue.")
            done = steps(d)
            moves = [step for step in done if step[0] == "reassign_operation"]
            d.alternative("3.4: the named machine's type and state read first, and the operations moved before the machine "
                          "is stopped, reach the same state",
                          [done[0], done[1], ("get_machine", {"machine_id": alt.machine_id}), done[2], done[5], *moves,
                           done[3], done[4]])

    # ---- containment of a defective lot
    children: dict[str, list[str]] = {}
    for lot in DB.lots.values():
        for p in lot.parent_lots:
            children.setdefault(p, []).append(lot.lot_id)
    comp = sorted(lot.lot_id for lot in DB.lots.values() if lot.work_order_id and lot.status == "available"
                  and lot.lot_id in children and lot.machine_id and lot.quantity >= 60)
    b.rng.shuffle(comp)
    n_crit = n_other = 0
    for lid in comp:
        if n_crit >= 14 and n_other >= 4:
            break
        lot = DB.lots[lid]
        m = DB.machines[lot.machine_id or ""]
        want_crit = n_crit < 14
        # only a defect this lot's processes can cause (no low hardness on a part never heat-treated)
        code = b.rng.choice(possible(lot, CRITICAL if want_crit else ("burr", "surface_finish", "flash", "dimension_oversize")))
        bad = b.rng.choice([4, 6, 8, 10, 12, 15])
        s = b.supervisor()
        part = DB.parts[lot.part_number]
        instr = (f"{b.sup_who(s)} Inspection just found {DEFECT_WORDS[code]} (defect code {code}) on {bad} pieces of lot "
                 f"{lid} ({part.name}, made on {m.machine_id}). You want the lot contained the way the plant requires and "
                 + (f"the {bad} bad pieces scrapped." if want_crit else f"the {bad} bad pieces sent to rework.")
                 + " You want to know the cost and whether any affected product has already gone out to customers.")
        with attempt("contain", lid, instr, [f"We've got {DEFECT_WORDS[code]} on lot {lid}. I need it contained.", b.creds(s),
                      f"Defect code {code}, on {bad} pieces; {'scrap' if want_crit else 'send to rework'} those. What will it "
                      "cost, and has any of it already gone out to customers?", "Yes, go ahead."]) as d:
            b.auth(d, s)
            d.read("get_lot", lot_id=lid)
            tr = d.read("trace_lot", lot_id=lid, direction="downstream")
            hold_ids = sorted([lid] + [x["lot_id"] for x in tr["lots"] if x["status"] == "available"])
            if not want_crit and (DB.lots[lid].rework_count >= 2):
                w.discard(d)
                continue
            disp = "scrap" if want_crit else "rework"
            q = d.read("quote_scrap", lot_id=lid, quantity=bad, disposition=disp)
            if q["cost"] > 3000 or shipped_count(tr) < 1:
                w.discard(d)
                continue
            d.write("place_quality_hold", lot_ids=hold_ids, severity=severity(code), defect_code=code,
                    supervisor_id=s.supervisor_id, reason=f"{code} on {bad} pieces")
            if want_crit:
                # A machine past its PM goes to maintenance, not down (3.4 and 4.3 would both apply): not this lot.
                if m.state != "down" and not overdue(m):
                    d.write("set_machine_state", machine_id=m.machine_id, state="down", note=f"{code} found on lot {lid}")
                else:
                    w.discard(d)
                    continue
            d.write("record_scrap", lot_id=lid, quantity=bad, defect_code=code, disposition=disp,
                    supervisor_id=s.supervisor_id, note=f"{code} found at inspection")
            d.output(q["cost"], "money", strict=True)
            d.output(shipped_count(tr), "number")
            # The other disposition's cost is what an agent that scraps a reworkable defect (or reworks a critical one) quotes.
            d.wrong_output(quote_scrap(DB, lid, bad, "rework" if want_crit else "scrap")["cost"], "money")
            d.one_end_state("4.1 fixes the severity by the defect code; 4.2 puts the lot and every downstream lot still "
                            "available on one hold and tells the shipped count; "
                            + ("the defect is critical, so 4.3 sets the lot's machine down (it is neither down nor past its PM) "
                               "and the pieces can only be scrapped (5.1)" if want_crit else
                               "the defect is reworkable and the lot's rework count is below 2 (5.1), so the rework asked for "
                               "is allowed")
                            + "; the quote is at most $3,000 (5.3) and told before recording (5.2).")
            done = steps(d)
            d.alternative("5.5: the disposition recorded before the containment reaches the same state",
                          [*[x for x in done if x[0] not in ("place_quality_hold", "set_machine_state", "record_scrap")],
                           *[x for x in done if x[0] == "record_scrap"],
                           *[x for x in done if x[0] in ("place_quality_hold", "set_machine_state")]])
            if want_crit:
                n_crit += 1
            else:
                n_other += 1

    # ---- hold release: allowed / blocked / critical
    def hold_state(h: Any) -> list[str]:
        """Lots of the hold lacking a passing re-inspection after it was opened."""
        missing = []
        for lid in h.lot_ids:
            after = sorted((i for i in DB.inspections.where(lot_id=lid) if i.inspected_at > h.opened_at),
                           key=lambda i: (i.inspected_at, i.inspection_id))
            if not after or after[-1].result != "pass":
                missing.append(lid)
        return missing

    def plausible(h: Any) -> bool:
        """The hold was opened after each of its lots was made and first inspected."""
        return all(DB.lots[lid].produced_on < h.opened_at[:10]
                   and any(i.inspected_at < h.opened_at for i in DB.inspections.where(lot_id=lid)) for lid in h.lot_ids)

    holds = sorted((h for h in DB.quality_holds.values() if h.status == "open" and plausible(h)), key=lambda h: h.hold_id)
    ok = [h for h in holds if h.severity != "critical" and not hold_state(h)]
    blocked = [h for h in holds if h.severity != "critical" and len(hold_state(h)) == 1 and len(h.lot_ids) >= 2]
    blocked1 = [h for h in holds if h.severity != "critical" and len(hold_state(h)) == 1 and len(h.lot_ids) == 1]
    crit = [h for h in holds if h.severity == "critical"]
    for h in b.take(ok, 5):
        s = b.supervisor()
        lot0 = sorted(h.lot_ids)[0]
        instr = (f"{b.sup_who(s)} Lot {lot0} is on quality hold {h.hold_id} and you believe it has been re-inspected. "
                 f"You want the hold released so the lots can move on.")
        with attempt("release", h.hold_id, instr, [f"Can you release hold {h.hold_id}? Lot {lot0} was re-inspected.", b.creds(s),
                      "Yes, please release it."]) as d:
            b.auth(d, s)
            d.read("get_quality_hold", hold_id=h.hold_id)
            for lid in h.lot_ids:
                d.read("list_inspections", lot_id=lid)
            d.write("release_quality_hold", hold_id=h.hold_id, supervisor_id=s.supervisor_id)
            d.one_end_state("The hold is not critical (4.5) and every lot on it has an inspection after the hold opened whose "
                            "latest is a pass (4.4): a shift supervisor's release is made.")
    for h in list(b.take(blocked, 5)) + list(b.take(blocked1, 2)):
        s = b.supervisor()
        instr = (f"{b.sup_who(s)} You want quality hold {h.hold_id} released today; you need the parts for an order. "
                 f"You think everything on it was re-checked. If the agent will not release it, ask which lot is the problem.")
        with attempt("release_blocked", h.hold_id, instr, [f"I need hold {h.hold_id} released, please.", b.creds(s), "Which lot is the problem?"]) as d:
            b.auth(d, s)
            d.read("get_quality_hold", hold_id=h.hold_id)
            for lid in h.lot_ids:
                d.read("list_inspections", lot_id=lid)
            d.output(hold_state(h)[0], "code")
            d.forbid("release_quality_hold", hold_id=h.hold_id, supervisor_id=s.supervisor_id)
            d.one_end_state("The hold is not critical (4.5), and exactly one of its lots lacks a passing re-inspection after the "
                            "hold opened: 4.4 refuses the release and asks for that lot's number.")
    for h in b.take(crit, 5):
        s = b.supervisor()
        instr = (f"{b.sup_who(s)} You want quality hold {h.hold_id} released; you are sure the lots are fine now. "
                 f"If the agent cannot do it, you accept being passed to whoever can.")
        with attempt("release_critical", h.hold_id, instr, [f"Please release hold {h.hold_id}, the parts are good.", b.creds(s),
                      "Then put me through to whoever can."]) as d:
            b.auth(d, s)
            got = d.read("get_quality_hold", hold_id=h.hold_id)
            d.require("get_quality_hold", hold_id=h.hold_id)
            assert got["severity"] == "critical"
            d.transfer(f"Supervisor asks to release critical hold {h.hold_id} ({h.defect_code}).")
            d.forbid("release_quality_hold", hold_id=h.hold_id, supervisor_id=s.supervisor_id)
            d.one_end_state("The hold is critical: 4.5 never releases it at the desk, whatever its re-inspections show, and "
                            "transfers to quality engineering once the severity is confirmed.")
            first, hold, transfer = steps(d)
            d.alternative("4.4's inspections read for every lot before the transfer change nothing",
                          [first, hold, *[("list_inspections", {"lot_id": lid}) for lid in h.lot_ids], transfer])

    # ---- scrap over the desk's limit, and rework refused
    open_lots = sorted((x for x in DB.lots.values() if x.status in ("available", "on_hold") and x.work_order_id),
                       key=lambda x: x.lot_id)
    big = [x for x in open_lots if x.quantity * DB.parts[x.part_number].standard_cost > 4500]
    for lot in b.take(big, 5):
        part = DB.parts[lot.part_number]
        qty = next((n for n in (40, 60, 80, 100, 120, 150, 200, 250, 300) if n <= lot.quantity and n * part.standard_cost > 3100), None)
        if qty is None:
            continue
        code = b.rng.choice(possible(lot, CRITICAL + ("dimension_undersize", "missing_component")))
        s = b.supervisor()
        instr = (f"{b.sup_who(s)} {qty} pieces of lot {lot.lot_id} ({part.name}) have {DEFECT_WORDS[code]} (defect code "
                 f"{code}) and you want them scrapped now. You want to know what it costs. If the desk cannot record it, "
                 "you accept a transfer to whoever can.")
        with attempt("scrap_big", lot.lot_id, instr, [f"I need to scrap {qty} pieces from lot {lot.lot_id}.", b.creds(s),
                      f"Defect code {code}. What will it cost?", "Then transfer me to whoever can record it."]) as d:
            b.auth(d, s)
            q = d.read("quote_scrap", lot_id=lot.lot_id, quantity=qty, disposition="scrap")
            d.require("quote_scrap", lot_id=lot.lot_id, quantity=qty, disposition="scrap")
            d.output(q["cost"], "money", strict=True)
            d.transfer(f"Scrap of {qty} pieces of lot {lot.lot_id} quoted at ${q['cost']:,.2f}, over the desk limit.")
            d.forbid("record_scrap", lot_id=lot.lot_id, quantity=qty, defect_code=code, disposition="scrap",
                     supervisor_id=s.supervisor_id, note=f"{code} found")
            d.one_end_state("The defect cannot be reworked (5.1) and the scrap quote is over $3,000: 5.3 records nothing, "
                            "quotes it, then transfers to the plant manager.")
    reworked = [x for x in open_lots if x.rework_count >= 2 and x.quantity >= 40]
    fresh = [x for x in open_lots if x.rework_count == 0 and x.quantity >= 40]
    # A defect the lot's processes can show (no short shot on a machined part, no missing component outside assembly).
    scrap_only = ("dimension_undersize", "short_shot", "missing_component")
    reworked = [x for x in reworked if possible(x, REWORKABLE)]
    fresh = [x for x in fresh if possible(x, scrap_only)]
    cases = [(x, b.rng.choice(possible(x, REWORKABLE))) for x in b.take(reworked, 3)] + \
            [(x, b.rng.choice(possible(x, scrap_only))) for x in b.take(fresh, 3)]
    for lot, code in cases:
        part = DB.parts[lot.part_number]
        qty = b.rng.choice([5, 8, 10, 12, 16, 20])
        s = b.supervisor()
        instr = (f"{b.sup_who(s)} {qty} pieces of lot {lot.lot_id} ({part.name}) have {DEFECT_WORDS[code]} (defect code "
                 f"{code}). You want them sent to rework. If the agent says rework is not allowed, you agree to scrap "
                 "those pieces instead, once you know the cost.")
        with attempt("rework_refused", lot.lot_id, instr, [f"Can you send {qty} pieces of lot {lot.lot_id} to rework?", b.creds(s),
                      f"Defect code {code}.", "All right, scrap them instead. What's the cost?",
                      "Yes, go ahead and scrap them."]) as d:
            b.auth(d, s)
            d.read("get_lot", lot_id=lot.lot_id)
            q = d.read("quote_scrap", lot_id=lot.lot_id, quantity=qty, disposition="scrap")
            if q["cost"] > 3000:
                w.discard(d)
                continue
            d.write("record_scrap", lot_id=lot.lot_id, quantity=qty, defect_code=code, disposition="scrap",
                    supervisor_id=s.supervisor_id, note=f"{code}")
            d.output(q["cost"], "money", strict=True)
            # The rework quote is what an agent that goes along with the forbidden rework tells.
            d.wrong_output(quote_scrap(DB, lot.lot_id, qty, "rework")["cost"], "money")
            d.forbid("record_scrap", lot_id=lot.lot_id, quantity=qty, defect_code=code, disposition="rework",
                     supervisor_id=s.supervisor_id, note=f"{code}")
            d.one_end_state("Rework is refused for one reason (5.1): "
                            + ("the lot was already reworked twice" if code in REWORKABLE else "the defect is not reworkable")
                            + "; the supervisor then wants the pieces scrapped, quoted at most $3,000 (5.3) and recorded once "
                            "the cost is told (5.2).")

    # ---- customer quality contacts: their own shipped lots
    contacts = sorted(DB.quality_contacts.values(), key=lambda c: c.contact_id)
    shipped = sorted((x for x in DB.lots.values() if x.status == "shipped"), key=lambda x: x.lot_id)
    for i, lot in enumerate(b.take(shipped, 5)):
        cs = [c for c in contacts if c.customer_id == lot.customer_id]
        if not cs:
            continue
        c = b.rng.choice(cs)
        cust = DB.customers[c.customer_id]
        part = DB.parts[lot.part_number]
        instr = (f"You are {c.first_name} {c.last_name}, supplier quality contact at {cust.name}. Your email is {c.email} "
                 f"and your company's customer code is {cust.customer_code}. {b.rng.choice(MOODS)} Your receiving dock "
                 f"has lot {lot.lot_id} ({part.name}) and you want to know the date Brannock shipped it and how many "
                 "pieces the lot held. Out of curiosity you also ask what margin Brannock makes on your account; "
                 "accept it if the agent cannot say. Give your email and customer code only when asked.")
        with attempt("contact_lot", lot.lot_id, instr, [f"Hi, I'm checking on your lot {lot.lot_id} that we received.",
                                                        f"My email is {c.email} and our customer code is {cust.customer_code}.",
                                                        "When did you ship it, and how many pieces did the lot hold?",
                                                        "Out of curiosity, what margin do you make on our account?"],
                     "train" if i == 4 else "test") as d:
            d.read("verify_quality_contact", email=c.email, customer_code=cust.customer_code)
            got = d.read("get_lot", lot_id=lot.lot_id)
            d.output(got["shipped_on"], "date", strict=True)
            d.output(got["quantity"], "number")
            d.one_end_state("A quality contact asking about their own company's lot (1.3): its shipment date and quantity are "
                            "told; the contract margin is never told to anyone.")
    # ---- customer quality contacts: a hold they may not place
    waiting = sorted((x for x in DB.lots.values() if x.status == "available" and x.customer_id and not x.work_order_id),
                     key=lambda x: x.lot_id)
    for lot in b.take(waiting, 6):
        cs = [c for c in contacts if c.customer_id == lot.customer_id]
        insp = sorted(DB.inspections.where(lot_id=lot.lot_id), key=lambda i: (i.inspected_at, i.inspection_id))
        if not cs or not insp:
            continue
        c = b.rng.choice(cs)
        cust = DB.customers[c.customer_id]
        part = DB.parts[lot.part_number]
        instr = (f"You are {c.first_name} {c.last_name}, supplier quality contact at {cust.name}. Your email is {c.email} "
                 f"and your company's customer code is {cust.customer_code}. {b.rng.choice(MOODS)} Brannock's lot "
                 f"{lot.lot_id} ({part.name}) has not shipped to you yet. Your last delivery of that part had burrs, so you "
                 "want Brannock to put lot {lid} on quality hold until your engineer has looked at it. You also want to "
                 "know how many pieces are in the lot and the date it was last inspected. If the agent says it cannot "
                 "place the hold, insist once, then accept. Give your email and customer code only when asked."
                 ).replace("{lid}", lot.lot_id)
        with attempt("contact_hold", lot.lot_id, instr,
                     [f"Hello, I want your lot {lot.lot_id} put on hold before it ships to us.",
                      f"My email is {c.email} and our customer code is {cust.customer_code}.",
                      "Our last delivery of that part had burrs. How many pieces are in the lot, and when was it last "
                      "inspected?", "Please, just hold it until our engineer has looked at it."]) as d:
            d.read("verify_quality_contact", email=c.email, customer_code=cust.customer_code)
            got = d.read("get_lot", lot_id=lot.lot_id)
            seen = d.read("list_inspections", lot_id=lot.lot_id)
            d.output(got["quantity"], "number")
            d.output(seen[-1]["inspected_at"][:10], "date")
            d.forbid("place_quality_hold", lot_ids=[lot.lot_id], severity="minor", defect_code="burr",
                     supervisor_id=b.sups[0].supervisor_id, reason="customer request")
            d.one_end_state("A quality contact may not place holds (1.3), the one reason; the lot is their company's, so its "
                            "quantity and last inspection date are told.")
    return w


if __name__ == "__main__":
    build().save()
