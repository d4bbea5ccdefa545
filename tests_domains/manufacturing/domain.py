"""Brannock Precision production desk: tools for shift supervisors and customers' quality contacts.

The tools refuse only what the data makes impossible (no such record, not this customer's, nothing left, a lot
that is not available); the policy's rules (who may ask, severities, release conditions, rework limits, cost limits,
maintenance dates) are the agent's to apply.
"""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import area_codes_valid, cents, not_after_now, ordered, plausible_age
from tests_domains.manufacturing.schema import (
    Customer,
    Inspection,
    Lot,
    MachineState,
    MaintenanceOrder,
    ManufacturingDB,
    Part,
    QualityContact,
    QualityHold,
    ScrapRecord,
    StateEvent,
    Supervisor,
    WorkOrder,
    defect_possible,
    lot_processes,
)

DOMAIN = Domain("manufacturing", ManufacturingDB, now=datetime(2026, 6, 10, 14, 0))

SHIFT_START = {"A": 6, "B": 14, "C": 22}
REWORK_SHARE = 0.35

MachineId = Annotated[str, Field(description="the machine's asset tag as painted on it, e.g. 'L-07' or 'IM-03'")]
LotId = Annotated[str, Field(description="a lot number as printed on the lot traveler, e.g. 'L26-04817'")]
SupervisorId = Annotated[str, Field(description="the authenticated supervisor's id, e.g. 'SUP-310'")]
HoldId = Annotated[str, Field(description="a quality hold number, e.g. 'QH-3121'")]
WorkOrderId = Annotated[str, Field(description="a work order number, e.g. 'WO-58213'")]
IsoDate = Annotated[str, Field(description="a date as YYYY-MM-DD")]
Disposition = Literal["scrap", "rework"]


def _now() -> str:
    return DOMAIN.now.isoformat(timespec="minutes")


def _date(value: str, label: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except (AttributeError, TypeError, ValueError):
        raise ToolError(f"{label} must be a date as YYYY-MM-DD, got {value!r}") from None


def _lot_summary(db: ManufacturingDB, lot: Lot) -> dict[str, Any]:
    cust = db.customers.get(lot.customer_id) if lot.customer_id else None
    return {"lot_id": lot.lot_id, "part_number": lot.part_number, "quantity": lot.quantity, "status": lot.status,
            "produced_on": lot.produced_on, "customer": cust.name if cust else None, "shipped_on": lot.shipped_on,
            "hold_id": lot.hold_id}


# ----------------------------------------------------------------------------- callers


@DOMAIN.tool(authenticates=True)
def verify_supervisor(
    db: ManufacturingDB,
    badge_number: Annotated[str, Field(description="the 5-digit number on the supervisor's plant badge")],
    date_of_birth: IsoDate,
) -> Supervisor:
    """Authenticate a shift supervisor by badge number and date of birth; returns their record."""
    for sup in db.supervisors.find(badge_number=badge_number):
        if sup.date_of_birth == date_of_birth.strip():
            return sup
    raise ToolError("no supervisor matches that badge number and date of birth")


@DOMAIN.tool(authenticates=True)
def verify_quality_contact(
    db: ManufacturingDB,
    email: Annotated[str, Field(description="the contact's work email")],
    customer_code: Annotated[str, Field(description="the customer account code on the purchase order, e.g. 'HAE-412'")],
) -> dict[str, Any]:
    """Authenticate a customer's quality contact by email and their company's customer code."""
    for contact in db.quality_contacts.find(email=email):
        cust = db.customers.require(contact.customer_id)
        if cust.customer_code.lower() == customer_code.strip().lower():
            return {"contact": contact.model_dump(), "customer": cust.model_dump()}
    raise ToolError("no quality contact matches that email and customer code")


@DOMAIN.tool
def get_customer(db: ManufacturingDB, customer_id: Annotated[str, Field(description="customer id, e.g. 'CU-1004'")]) -> Customer:
    """A customer account: name, code and city."""
    return db.customers.require(customer_id)


@DOMAIN.tool
def get_quality_contact(db: ManufacturingDB, contact_id: Annotated[str, Field(description="contact id, e.g. 'QC-2011'")]) -> QualityContact:
    """A customer quality contact's details."""
    return db.quality_contacts.require(contact_id)


# ----------------------------------------------------------------------------- machines


@DOMAIN.tool
def get_machine(db: ManufacturingDB, machine_id: MachineId) -> dict[str, Any]:
    """A machine's type, area, current state and state history (oldest first), and its PM interval."""
    return db.machines.require(machine_id).model_dump()


@DOMAIN.tool
def list_machines(
    db: ManufacturingDB,
    machine_type: Annotated[str, Field(description="e.g. 'CNC lathe', 'CNC mill', 'stamping press', 'injection molder', "
                                                   "'heat treat furnace', 'assembly cell'")],
) -> list[dict[str, Any]]:
    """Every machine of one type with its area and current state."""
    found = [m for m in db.machines.where(machine_type=machine_type.strip())]
    if not found:
        raise ToolError(f"no machines of type {machine_type!r}")
    return [{"machine_id": m.machine_id, "name": m.name, "area": m.area, "state": m.state} for m in sorted(found, key=lambda m: m.machine_id)]


@DOMAIN.tool
def get_maintenance_forecast(db: ManufacturingDB, machine_id: MachineId) -> dict[str, Any]:
    """When a machine's next preventive maintenance (PM) falls due: run hours since the last PM against the PM interval,
    projected at the machine's average run hours per day; with its open maintenance orders."""
    m = db.machines.require(machine_id)
    remaining = round(m.pm_interval_hours - m.run_hours_since_pm, 1)
    days = max(0, math.floor(remaining / m.avg_run_hours_per_day)) if remaining > 0 else 0
    due = DOMAIN.today + timedelta(days=days)
    open_orders = [o.model_dump() for o in db.maintenance_orders.where(machine_id=m.machine_id) if o.status == "scheduled"]
    return {"machine_id": m.machine_id, "pm_interval_hours": m.pm_interval_hours, "run_hours_since_pm": m.run_hours_since_pm,
            "hours_remaining": remaining, "overdue": remaining <= 0, "avg_run_hours_per_day": m.avg_run_hours_per_day,
            "last_pm_date": m.last_pm_date, "next_pm_due": due.isoformat(), "open_maintenance_orders": open_orders}


@DOMAIN.tool(write=True)
def schedule_maintenance(
    db: ManufacturingDB,
    machine_id: MachineId,
    kind: Literal["preventive", "corrective"],
    scheduled_date: IsoDate,
    supervisor_id: SupervisorId,
    note: Annotated[FreeText, Field(description="what the maintenance is for, in the caller's words")],
) -> MaintenanceOrder:
    """Open a maintenance order for a machine on a date (today or later)."""
    m = db.machines.require(machine_id)
    db.supervisors.require(supervisor_id)
    when = _date(scheduled_date, "scheduled_date")
    if when < DOMAIN.today:
        raise ToolError("scheduled_date is in the past")
    key = db.maintenance_orders.new_key("MO-", m.machine_id, kind, when.isoformat())
    if key in db.maintenance_orders:
        raise ToolError(f"maintenance order {key} already exists for that machine, kind and date")
    db.maintenance_orders[key] = MaintenanceOrder(maintenance_id=key, machine_id=m.machine_id, kind=kind,
                                                  scheduled_date=when.isoformat(), status="scheduled",
                                                  requested_by=supervisor_id.strip(), note=note)
    return db.maintenance_orders[key]


@DOMAIN.tool(write=True)
def set_machine_state(
    db: ManufacturingDB,
    machine_id: MachineId,
    state: MachineState,
    note: Annotated[FreeText, Field(description="why, in the caller's words (e.g. the alarm shown)")],
) -> dict[str, Any]:
    """Change a machine's state now; the change is appended to its state history."""
    m = db.machines.require(machine_id)
    if m.state == state:
        raise ToolError(f"{m.machine_id} is already {state}")
    m.state = state
    m.state_history.append(StateEvent(at=_now(), state=state, note=note))
    return m.model_dump()


@DOMAIN.tool
def get_shift_report(
    db: ManufacturingDB,
    machine_id: MachineId,
    shift_date: Annotated[str, Field(description="the date the shift started, YYYY-MM-DD")],
    shift: Annotated[Literal["A", "B", "C"], Field(description="A 06:00-14:00, B 14:00-22:00, C 22:00-06:00")],
) -> dict[str, Any]:
    """A machine's efficiency over one completed shift: availability, performance, quality (first-pass yield) and
    OEE (their product), in percent rounded to one decimal, with the counts they come from."""
    m = db.machines.require(machine_id)
    d = _date(shift_date, "shift_date")
    log = next((x for x in db.shift_logs.where(machine_id=m.machine_id, shift_date=d.isoformat(), shift=shift)), None)
    if log is None:
        raise ToolError(f"no shift log for {m.machine_id} on {d.isoformat()} shift {shift}")
    run = log.planned_minutes - log.downtime_minutes
    availability = run / log.planned_minutes
    performance = (log.ideal_cycle_seconds * log.total_count) / (run * 60) if run else 0.0
    quality = log.good_count / log.total_count if log.total_count else 0.0
    return {"machine_id": m.machine_id, "shift_date": log.shift_date, "shift": log.shift, "planned_minutes": log.planned_minutes,
            "downtime_minutes": log.downtime_minutes, "run_minutes": run, "total_count": log.total_count,
            "good_count": log.good_count, "scrap_count": log.total_count - log.good_count,
            "availability_pct": round(availability * 100, 1), "performance_pct": round(performance * 100, 1),
            "yield_pct": round(quality * 100, 1), "oee_pct": round(availability * performance * quality * 100, 1)}


# ----------------------------------------------------------------------------- work orders


@DOMAIN.tool
def get_work_order(db: ManufacturingDB, work_order_id: WorkOrderId) -> WorkOrder:
    """A work order: part, customer, quantity, due date, status and routing (operations with their machines)."""
    return db.work_orders.require(work_order_id)


@DOMAIN.tool
def list_work_orders_on_machine(db: ManufacturingDB, machine_id: MachineId) -> list[dict[str, Any]]:
    """Work orders with an operation on this machine that is pending or in progress."""
    m = db.machines.require(machine_id)
    out = []
    for wo in sorted(db.work_orders.values(), key=lambda w: w.work_order_id):
        for op in wo.routing:
            if op.machine_id == m.machine_id and op.status != "done":
                out.append({"work_order_id": wo.work_order_id, "part_number": wo.part_number, "seq": op.seq,
                            "operation_status": op.status, "due_date": wo.due_date})
    return out


@DOMAIN.tool(write=True)
def reassign_operation(
    db: ManufacturingDB,
    work_order_id: WorkOrderId,
    seq: Annotated[int, Field(description="the routing operation's sequence number, e.g. 10")],
    machine_id: Annotated[str, Field(description="asset tag of the machine to move the operation to")],
) -> WorkOrder:
    """Move one not-yet-done routing operation of a work order to another machine of the same type."""
    wo = db.work_orders.require(work_order_id)
    m = db.machines.require(machine_id)
    op = next((o for o in wo.routing if o.seq == seq), None)
    if op is None:
        raise ToolError(f"work order {wo.work_order_id} has no operation {seq}")
    if op.status == "done":
        raise ToolError(f"operation {seq} of {wo.work_order_id} is already done")
    if m.machine_type != op.machine_type:
        raise ToolError(f"{m.machine_id} is a {m.machine_type}; operation {seq} needs a {op.machine_type}")
    if op.machine_id == m.machine_id:
        raise ToolError(f"operation {seq} is already on {m.machine_id}")
    op.machine_id = m.machine_id
    return wo


# ----------------------------------------------------------------------------- lots and traceability


@DOMAIN.tool
def get_lot(db: ManufacturingDB, lot_id: LotId) -> dict[str, Any]:
    """A lot: part, quantity, status, where and when it was made, its parent lots, customer, shipment, rework count
    and any hold on it."""
    lot = db.lots.require(lot_id)
    return lot.model_dump()


@DOMAIN.tool
def get_part(db: ManufacturingDB, part_number: Annotated[str, Field(description="part number, e.g. '412-7730'")]) -> Part:
    """A part's name, material and standard cost per piece."""
    return db.parts.require(part_number)


@DOMAIN.tool
def trace_lot(
    db: ManufacturingDB,
    lot_id: LotId,
    direction: Annotated[Literal["downstream", "upstream"], Field(description="downstream: every lot built from this one, "
                                                                             "at any depth; upstream: every ancestor lot")],
) -> dict[str, Any]:
    """Lot genealogy: every lot built from this one (downstream) or that went into it (upstream), with status,
    customer and shipment, and counts by status."""
    lot = db.lots.require(lot_id)
    children: dict[str, list[str]] = {}
    if direction == "downstream":
        for other in db.lots.values():
            for p in other.parent_lots:
                children.setdefault(p, []).append(other.lot_id)
    seen: list[str] = []
    frontier = [lot.lot_id]
    while frontier:
        cur = frontier.pop()
        nxt = children.get(cur, []) if direction == "downstream" else list(db.lots.require(cur).parent_lots)
        for n in nxt:
            if n not in seen:
                seen.append(n)
                frontier.append(n)
    found = [_lot_summary(db, db.lots.require(x)) for x in sorted(seen)]
    counts: dict[str, int] = {}
    for f in found:
        counts[f["status"]] = counts.get(f["status"], 0) + 1
    return {"lot_id": lot.lot_id, "direction": direction, "lots": found, "count": len(found), "count_by_status": counts}


@DOMAIN.tool
def list_lots_for_customer(db: ManufacturingDB, customer_id: Annotated[str, Field(description="customer id, e.g. 'CU-1004'")]) -> list[dict[str, Any]]:
    """Every lot made for a customer, newest first."""
    db.customers.require(customer_id)
    return [_lot_summary(db, lot) for lot in sorted(db.lots.where(customer_id=customer_id.strip()), key=lambda x: (x.produced_on, x.lot_id), reverse=True)]


@DOMAIN.tool
def list_inspections(db: ManufacturingDB, lot_id: LotId) -> list[Inspection]:
    """Every inspection of a lot, oldest first."""
    lot = db.lots.require(lot_id)
    return sorted(db.inspections.where(lot_id=lot.lot_id), key=lambda i: (i.inspected_at, i.inspection_id))


# ----------------------------------------------------------------------------- quality holds


@DOMAIN.tool
def get_quality_hold(db: ManufacturingDB, hold_id: HoldId) -> QualityHold:
    """A quality hold: its lots, severity, defect, when and by whom it was opened, and its status."""
    return db.quality_holds.require(hold_id)


@DOMAIN.tool(write=True)
def place_quality_hold(
    db: ManufacturingDB,
    lot_ids: Annotated[list[str], Field(description="every lot number to put on this one hold")],
    severity: Literal["minor", "major", "critical"],
    defect_code: Annotated[str, Field(description="defect code, e.g. 'burr', 'crack', 'dimension_oversize'")],
    supervisor_id: SupervisorId,
    reason: Annotated[FreeText, Field(description="what was found, in the caller's words")],
) -> QualityHold:
    """Open one quality hold over one or more available lots; each lot goes on hold."""
    db.supervisors.require(supervisor_id)
    ids = sorted({x.strip() for x in lot_ids})
    if not ids:
        raise ToolError("lot_ids is empty")
    for lid in ids:
        lot = db.lots.require(lid)
        if lot.status != "available":
            raise ToolError(f"lot {lid} is {lot.status}; only an available lot can be put on hold")
    key = db.quality_holds.new_key("QH-", *ids, defect_code.strip())
    db.quality_holds[key] = QualityHold(hold_id=key, lot_ids=ids, severity=severity, defect_code=defect_code.strip(),
                                        opened_at=_now(), opened_by=supervisor_id.strip(), status="open", reason=reason)
    for lid in ids:
        lot = db.lots.require(lid)
        lot.status = "on_hold"
        lot.hold_id = key
    return db.quality_holds[key]


@DOMAIN.tool(write=True)
def release_quality_hold(db: ManufacturingDB, hold_id: HoldId, supervisor_id: SupervisorId) -> dict[str, Any]:
    """Release an open quality hold; its lots become available again."""
    hold = db.quality_holds.require(hold_id)
    db.supervisors.require(supervisor_id)
    if hold.status != "open":
        raise ToolError(f"hold {hold.hold_id} is already {hold.status}")
    hold.status = "released"
    hold.released_at = _now()
    hold.released_by = supervisor_id.strip()
    for lid in hold.lot_ids:
        lot = db.lots.require(lid)
        if lot.hold_id == hold.hold_id:
            lot.status = "available"
            lot.hold_id = None
    return {"hold": hold.model_dump(), "lots_released": list(hold.lot_ids)}


# ----------------------------------------------------------------------------- scrap and rework


def _cost(db: ManufacturingDB, lot: Lot, quantity: int, disposition: str) -> float:
    if quantity <= 0:
        raise ToolError("quantity must be at least 1")
    if quantity > lot.quantity:
        raise ToolError(f"lot {lot.lot_id} has only {lot.quantity} pieces")
    if lot.status in ("shipped", "consumed"):
        raise ToolError(f"lot {lot.lot_id} is {lot.status}; it is no longer in the plant")
    unit = db.parts.require(lot.part_number).standard_cost
    return round(quantity * unit * (1 if disposition == "scrap" else REWORK_SHARE), 2)


@DOMAIN.tool
def quote_scrap(db: ManufacturingDB, lot_id: LotId, quantity: Annotated[int, Field(description="pieces")], disposition: Disposition) -> dict[str, Any]:
    """What scrapping or reworking pieces of a lot would cost (standard cost per piece; rework at a share of it),
    and the lot's rework count; changes nothing."""
    lot = db.lots.require(lot_id)
    cost = _cost(db, lot, quantity, disposition)
    return {"lot_id": lot.lot_id, "part_number": lot.part_number, "quantity": quantity, "disposition": disposition,
            "cost": cost, "lot_quantity": lot.quantity, "rework_count": lot.rework_count}


@DOMAIN.tool(write=True)
def record_scrap(
    db: ManufacturingDB,
    lot_id: LotId,
    quantity: Annotated[int, Field(description="pieces")],
    defect_code: Annotated[str, Field(description="defect code, e.g. 'burr'")],
    disposition: Disposition,
    supervisor_id: SupervisorId,
    note: Annotated[FreeText, Field(description="what was found, in the caller's words")],
) -> dict[str, Any]:
    """Record pieces of a lot as scrapped (removed from the lot's quantity) or sent to rework (the lot's rework count
    goes up by one)."""
    lot = db.lots.require(lot_id)
    db.supervisors.require(supervisor_id)
    cost = _cost(db, lot, quantity, disposition)
    key = db.scrap_records.new_key("SR-", lot.lot_id, disposition, defect_code.strip(), quantity)
    if key in db.scrap_records:
        raise ToolError(f"that record already exists ({key})")
    if disposition == "scrap":
        lot.quantity -= quantity
    else:
        lot.rework_count += 1
    db.scrap_records[key] = ScrapRecord(scrap_id=key, lot_id=lot.lot_id, quantity=quantity, defect_code=defect_code.strip(),
                                        disposition=disposition, cost=cost, recorded_at=_now(),
                                        recorded_by=supervisor_id.strip(), note=note)
    return {"record": db.scrap_records[key].model_dump(), "lot_quantity_now": lot.quantity, "rework_count": lot.rework_count}


# -- data invariants: the plant's clock, PM records, and defects a process can cause --------------
DOMAIN.invariants(
    plausible_age("supervisors", "date_of_birth", low=18, high=75),
    not_after_now("machines", "last_pm_date"),
    not_after_now("machines", "state_history[].at"),
    not_after_now("lots", "produced_on"),
    not_after_now("lots", "shipped_on"),
    ordered("lots", "produced_on", "shipped_on"),
    not_after_now("inspections", "inspected_at"),
    ordered("inspections", "produced_on", "inspected_at", via=("lot_id", "lots")),
    not_after_now("quality_holds", "opened_at"),
    not_after_now("quality_holds", "released_at"),
    ordered("quality_holds", "opened_at", "released_at"),
    not_after_now("scrap_records", "recorded_at"),
    not_after_now("shift_logs", "shift_date"),
    not_after_now("maintenance_orders", "scheduled_date", where=lambda order: order.status == "completed"),
    cents("scrap_records", "cost"),
    cents("parts", "standard_cost"),
    area_codes_valid("quality_contacts", "phone"),
)


@DOMAIN.invariant
def _no_pm_after_the_last_pm(db: ManufacturingDB, now: datetime) -> Any:
    """no preventive maintenance recorded after a machine's last PM date"""
    for key, machine in db.machines.items():
        for event in machine.state_history:
            if event.note == "preventive maintenance" and event.at[:10] > machine.last_pm_date:
                yield f"machines[{key!r}]: preventive maintenance at {event.at}, after last_pm_date {machine.last_pm_date}"
        for order in db.maintenance_orders.where(machine_id=key):
            if order.kind == "preventive" and order.status == "completed" and order.scheduled_date > machine.last_pm_date:
                yield f"machines[{key!r}]: PM order {order.maintenance_id} completed {order.scheduled_date}, after last_pm_date"


@DOMAIN.invariant
def _defects_a_process_can_cause(db: ManufacturingDB, now: datetime) -> Any:
    """defects only where the lot's processes can cause them (no low hardness without heat treatment)"""
    def lot_problem(lot_id: str, code: str) -> str | None:
        lot = db.lots.get(lot_id)
        if lot is None:
            return None
        types, material = lot_processes(lot, db.work_orders, db.machines, db.parts)
        return None if defect_possible(code, types, material) else f"{code} on lot {lot_id} ({', '.join(sorted(types))}, {material})"

    for key, inspection in db.inspections.items():
        for defect in inspection.defects:
            if (problem := lot_problem(inspection.lot_id, defect.code)):
                yield f"inspections[{key!r}]: {problem}"
    for key, hold in db.quality_holds.items():
        for lot_id in hold.lot_ids:
            if (problem := lot_problem(lot_id, hold.defect_code)):
                yield f"quality_holds[{key!r}]: {problem}"
    for key, scrap in db.scrap_records.items():
        if (problem := lot_problem(scrap.lot_id, scrap.defect_code)):
            yield f"scrap_records[{key!r}]: {problem}"
