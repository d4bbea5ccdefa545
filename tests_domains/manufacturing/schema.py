"""Brannock Precision's production desk: machines, work orders, lots and their genealogy, quality holds, scrap."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from pytest_tau import Confidential, FreeText, Table, Unordered

MachineState = Literal["running", "idle", "down", "maintenance"]
Shift = Literal["A", "B", "C"]


class Supervisor(BaseModel):
    supervisor_id: str
    badge_number: str
    first_name: str
    last_name: str
    date_of_birth: Confidential[str]
    email: str
    area: str
    shift: Shift


class Customer(BaseModel):
    customer_id: str
    name: str
    customer_code: str
    city: str
    contract_margin_pct: Confidential[float]  # sales and finance only: never told to any caller (policy, confidential information)


class QualityContact(BaseModel):
    contact_id: str
    customer_id: str
    first_name: str
    last_name: str
    email: str
    phone: str


class StateEvent(BaseModel):
    at: str
    state: MachineState
    note: FreeText


class Machine(BaseModel):
    machine_id: str
    name: str
    machine_type: str
    area: str
    state: MachineState
    state_history: list[StateEvent]
    pm_interval_hours: int
    run_hours_since_pm: float
    avg_run_hours_per_day: float
    last_pm_date: str


class MaintenanceOrder(BaseModel):
    maintenance_id: str
    machine_id: str
    kind: Literal["preventive", "corrective"]
    scheduled_date: str
    status: Literal["scheduled", "completed", "cancelled"]
    requested_by: str
    note: FreeText


class Operation(BaseModel):
    seq: int
    description: str
    machine_type: str
    machine_id: str
    status: Literal["pending", "in_progress", "done"]


class WorkOrder(BaseModel):
    work_order_id: str
    part_number: str
    part_name: str
    customer_id: str
    quantity: int
    due_date: str
    status: Literal["released", "in_progress", "on_hold", "completed"]
    routing: list[Operation]


class Part(BaseModel):
    part_number: str
    name: str
    standard_cost: float
    material: str


class Lot(BaseModel):
    lot_id: str
    part_number: str
    work_order_id: str | None
    machine_id: str | None
    quantity: int
    produced_on: str
    parent_lots: Unordered[str]
    status: Literal["available", "on_hold", "shipped", "consumed"]
    customer_id: str | None
    shipped_on: str | None = None
    rework_count: int = 0
    hold_id: str | None = None


class Defect(BaseModel):
    code: str
    count: int


class Inspection(BaseModel):
    inspection_id: str
    lot_id: str
    inspected_at: str
    result: Literal["pass", "fail"]
    sample_size: int
    defects: list[Defect]
    inspector: str


class QualityHold(BaseModel):
    hold_id: str
    lot_ids: Unordered[str]
    severity: Literal["minor", "major", "critical"]
    defect_code: str
    opened_at: str
    opened_by: str
    status: Literal["open", "released"]
    reason: FreeText
    released_at: str | None = None
    released_by: str | None = None


class ScrapRecord(BaseModel):
    scrap_id: str
    lot_id: str
    quantity: int
    defect_code: str
    disposition: Literal["scrap", "rework"]
    cost: float
    recorded_at: str
    recorded_by: str
    note: FreeText


class ShiftLog(BaseModel):
    log_id: str
    machine_id: str
    shift_date: str
    shift: Shift
    planned_minutes: int
    downtime_minutes: int
    ideal_cycle_seconds: float
    total_count: int
    good_count: int
    work_order_id: str | None


class ManufacturingDB(BaseModel):
    supervisors: Table[Supervisor]
    customers: Table[Customer]
    quality_contacts: Table[QualityContact]
    machines: Table[Machine]
    maintenance_orders: Table[MaintenanceOrder]
    parts: Table[Part]
    work_orders: Table[WorkOrder]
    lots: Table[Lot]
    inspections: Table[Inspection]
    quality_holds: Table[QualityHold]
    scrap_records: Table[ScrapRecord]
    shift_logs: Table[ShiftLog]


def defect_possible(code: str, machine_types: set[str], material: str) -> bool:
    """Can a part made by these processes, of this material, show this defect? Low hardness needs a heat
    treatment; short shots and flash come from molding; porosity from molding or castings; a missing component
    from assembly; thread damage from machining or assembly; burrs from cutting or stamping."""
    if code == "hardness_low":
        return "heat treat furnace" in machine_types
    if code in ("short_shot", "flash"):
        return "injection molder" in machine_types
    if code == "porosity":
        return "injection molder" in machine_types or "casting" in material
    if code == "missing_component":
        return "assembly cell" in machine_types
    if code == "thread_damage":
        return bool(machine_types & {"CNC lathe", "CNC mill", "assembly cell"})
    if code == "burr":
        return bool(machine_types & {"CNC lathe", "CNC mill", "stamping press"})
    return True


def lot_processes(lot: Any, work_orders: Any, machines: Any, parts: Any) -> tuple[set[str], str]:
    """The machine types a lot went through (its work order's routing, else the machine that made it) and its
    part's material; works on records and on plain dicts."""
    def get(rec: Any, field: str) -> Any:
        return rec[field] if isinstance(rec, dict) else getattr(rec, field)

    wo = work_orders.get(get(lot, "work_order_id")) if get(lot, "work_order_id") else None
    if wo is not None:
        types = {get(step, "machine_type") for step in get(wo, "routing")}
    else:
        machine = machines.get(get(lot, "machine_id")) if get(lot, "machine_id") else None
        types = {get(machine, "machine_type")} if machine is not None else set()
    part = parts.get(get(lot, "part_number"))
    return types, (get(part, "material") if part is not None else "")
