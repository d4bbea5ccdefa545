"""Meridian Orbital Services, the mission desk: satellites and their telemetry, contact
windows with our ground stations, the command queue, power budgets, conjunction warnings and
manoeuvre plans. The policy fixes the current time: Monday 2026-09-14 15:00 UTC.

The tools refuse only what the data makes impossible (no such record, not this
organisation's satellite, a window of another satellite or already over, a command no longer
queued, a plan already decided). The policy's rules (who may ask for what, lead times, the
power floor, thermal limits, conjunction risk, fuel reserves) are the agent's to apply.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Annotated, Any

from pydantic import Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import after_now, area_codes_valid, not_after_now, ordered, plausible_age
from tests_domains.space.schema import (
    Command,
    CommandKind,
    CommandType,
    Conjunction,
    Contact,
    ManoeuvrePlan,
    Satellite,
    SpaceDB,
    Telemetry,
)

DOMAIN = Domain("space", SpaceDB, now=datetime(2026, 9, 14, 15, 0))
G0 = 9.80665

SatId = Annotated[str, Field(description="the satellite's id, e.g. 'SAT0042' (from find_satellite or list_satellites)")]
ContactId = Annotated[str, Field(description="the caller's contact id, e.g. 'CT10701' (from verify_caller)")]
OrgId = Annotated[str, Field(description="the customer organisation's id, e.g. 'ORG107' (from verify_caller)")]
PlanId = Annotated[str, Field(description="a manoeuvre plan id, e.g. 'MP-0042-09151830' (from list_manoeuvre_plans)")]
AlertId = Annotated[str, Field(description="a conjunction alert id, e.g. 'CA-0042-09160410' (from list_conjunctions)")]
WindowId = Annotated[str, Field(description="a contact window id, e.g. 'CW000812' (from find_next_contact_window or list_contact_windows)")]


def _now() -> str:
    return DOMAIN.now.strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse(text: str, what: str) -> datetime:
    raw = text.strip()
    if raw.endswith("Z"):
        raw = raw[:-1]
    try:
        if len(raw) not in (10, 16, 19):
            raise ValueError(raw)
        parsed = datetime.fromisoformat(raw)
    except ValueError:
        raise ToolError(f"{what} must be a UTC time as YYYY-MM-DDTHH:MM:SSZ, got {text[:40]!r}") from None
    if parsed.tzinfo is not None:
        raise ToolError(f"{what} must be a UTC time without an offset, e.g. 2026-09-14T18:00:00Z")
    return parsed


def _iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def _latest(db: SpaceDB, sat_id: str) -> Telemetry:
    snaps = sorted(db.telemetry.where(sat_id=sat_id), key=lambda s: s.time)
    if not snaps:
        raise ToolError(f"no telemetry received from satellite {sat_id!r}")
    return snaps[-1]


def _manager_of(db: SpaceDB, contact_id: str, sat: Satellite) -> Contact:
    contact = db.contacts.require(contact_id)
    if contact.org_id != sat.org_id:
        raise ToolError(f"contact {contact_id!r} does not belong to the organisation that owns {sat.name}")
    return contact


def _window_view(db: SpaceDB, window_id: str) -> dict[str, Any]:
    w = db.contact_windows.require(window_id)
    station = db.ground_stations.require(w.station_id)
    start, end = _parse(w.start, "start"), _parse(w.end, "end")
    view: dict[str, Any] = w.model_dump(mode="json")
    view["station_name"] = station.name
    view["duration_min"] = round((end - start).total_seconds() / 60, 1)
    return view


def _under_maintenance(db: SpaceDB, station_id: str, start: str, end: str) -> bool:
    return any(m.start < end and start < m.end for m in db.maintenance.where(station_id=station_id))


def _fuel_cost(sat: Satellite, delta_v: float) -> float:
    wet = sat.dry_mass_kg + sat.fuel_kg
    return round(wet * (1 - math.exp(-delta_v / (sat.isp_s * G0))), 3)


# -- callers and assets -------------------------------------------------------------------
@DOMAIN.tool(authenticates=True)
def verify_caller(
    db: SpaceDB,
    first_name: str,
    last_name: str,
    email: Annotated[str, Field(description="the caller's email address")],
    mission_ref: Annotated[str, Field(description="the organisation's mission reference, e.g. 'MRD-4821'")],
) -> dict[str, Any]:
    """Authenticate a caller: the contact whose first and last name and email match, at the
    organisation with that mission reference. Returns the contact (with their role) and the
    organisation."""
    orgs = db.organisations.find(mission_ref=mission_ref)
    if orgs:
        for contact in db.contacts.find(email=email.strip()):
            if (contact.org_id == orgs[0].org_id and contact.first_name.lower() == first_name.strip().lower()
                    and contact.last_name.lower() == last_name.strip().lower()):
                return {"contact": contact, "organisation": orgs[0]}
    raise ToolError("no contact matches that name, email and mission reference; the caller is not verified")


@DOMAIN.tool
def list_satellites(db: SpaceDB, org_id: OrgId) -> list[dict[str, Any]]:
    """List an organisation's satellites (id, name, orbit, status)."""
    db.organisations.require(org_id)
    return [{"sat_id": s.sat_id, "name": s.name, "orbit": s.orbit, "status": s.status}
            for s in sorted(db.satellites.where(org_id=org_id), key=lambda s: s.sat_id)]


@DOMAIN.tool
def find_satellite(db: SpaceDB, name: Annotated[str, Field(description="the satellite's name, e.g. 'KESTREL-3'")]) -> Satellite:
    """Find a satellite by its name: mass, propellant on board, deorbit reserve, thermal limits."""
    found = db.satellites.find(name=name)
    if not found:
        raise ToolError(f"no satellite named {name.strip()[:40]!r}")
    return found[0]


@DOMAIN.tool
def get_telemetry(db: SpaceDB, sat_id: SatId) -> dict[str, Any]:
    """The latest telemetry snapshot of a satellite (battery %, temperature) with its
    operating temperature range."""
    sat = db.satellites.require(sat_id)
    snap = _latest(db, sat_id)
    return {"satellite": sat.name, "latest": snap, "op_temp_min_c": sat.op_temp_min_c,
            "op_temp_max_c": sat.op_temp_max_c, "battery_capacity_wh": sat.battery_capacity_wh}


@DOMAIN.tool
def get_telemetry_history(db: SpaceDB, sat_id: SatId) -> list[Telemetry]:
    """Every telemetry snapshot of a satellite over the last day, oldest first."""
    db.satellites.require(sat_id)
    return sorted(db.telemetry.where(sat_id=sat_id), key=lambda s: s.time)


# -- ground segment -------------------------------------------------------------------------
@DOMAIN.tool
def list_contact_windows(
    db: SpaceDB, sat_id: SatId,
    date: Annotated[str, Field(description="a UTC date as YYYY-MM-DD")],
) -> list[dict[str, Any]]:
    """A satellite's contact windows with our ground stations that start on a UTC date."""
    db.satellites.require(sat_id)
    day = _parse(date, "date").date().isoformat()
    wins = sorted((w for w in db.contact_windows.where(sat_id=sat_id) if w.start.startswith(day)), key=lambda w: w.start)
    return [_window_view(db, w.window_id) for w in wins]


@DOMAIN.tool
def find_next_contact_window(
    db: SpaceDB, sat_id: SatId,
    not_before: Annotated[str, Field(description="earliest start, UTC, YYYY-MM-DDTHH:MM:SSZ")],
    min_minutes: Annotated[float, Field(description="the least duration the window must last, in minutes")],
) -> dict[str, Any]:
    """The earliest contact window of a satellite that starts at or after `not_before`, lasts
    at least `min_minutes`, and whose ground station has no maintenance overlapping it."""
    db.satellites.require(sat_id)
    start_at = _iso(_parse(not_before, "not_before"))
    if not math.isfinite(min_minutes) or min_minutes < 0:
        raise ToolError("min_minutes must be a non-negative number")
    for w in sorted(db.contact_windows.where(sat_id=sat_id), key=lambda w: w.start):
        if w.start < start_at:
            continue
        view = _window_view(db, w.window_id)
        if view["duration_min"] >= min_minutes and not _under_maintenance(db, w.station_id, w.start, w.end):
            return view
    raise ToolError("no contact window in the planning horizon meets that")


@DOMAIN.tool
def get_ground_station(db: SpaceDB, station_id: Annotated[str, Field(description="a station id, e.g. 'GS-KIR'")]) -> dict[str, Any]:
    """A ground station and its scheduled maintenance."""
    station = db.ground_stations.require(station_id)
    maint = sorted(db.maintenance.where(station_id=station_id), key=lambda m: m.start)
    return {"station": station, "maintenance": maint}


# -- commands -------------------------------------------------------------------------------
@DOMAIN.tool
def list_command_types(db: SpaceDB) -> list[CommandType]:
    """The command catalogue: each kind's duration (minutes of contact needed) and energy (Wh)."""
    return sorted(db.command_types.values(), key=lambda c: c.kind)


@DOMAIN.tool
def list_commands(db: SpaceDB, sat_id: SatId) -> list[dict[str, Any]]:
    """A satellite's command queue and history, with each command's window start and station."""
    db.satellites.require(sat_id)
    out = []
    for c in sorted(db.commands.where(sat_id=sat_id), key=lambda c: (c.window_id, c.command_id)):
        view: dict[str, Any] = c.model_dump(mode="json")
        w = _window_view(db, c.window_id)
        view["window_start"] = w["start"]
        view["station_name"] = w["station_name"]
        out.append(view)
    return out


@DOMAIN.tool
def power_budget(
    db: SpaceDB, sat_id: SatId,
    planned_kinds: Annotated[list[CommandKind], Field(description="the command kinds the customer wants to add")],
) -> dict[str, Any]:
    """Battery state of charge after the commands already queued and the planned ones, from
    the latest telemetry. Changes nothing."""
    sat = db.satellites.require(sat_id)
    snap = _latest(db, sat_id)
    queued = round(sum(c.energy_wh for c in db.commands.where(sat_id=sat_id) if c.status == "queued"), 1)
    planned = round(sum(db.command_types.require(k).energy_wh for k in planned_kinds), 1)
    after = round(snap.battery_pct - (queued + planned) / sat.battery_capacity_wh * 100, 1)
    return {"satellite": sat.name, "battery_now_pct": snap.battery_pct, "capacity_wh": sat.battery_capacity_wh,
            "queued_energy_wh": queued, "planned_energy_wh": planned, "battery_after_pct": after}


@DOMAIN.tool(write=True)
def queue_command(db: SpaceDB, sat_id: SatId, kind: CommandKind, window_id: WindowId, requested_by: ContactId) -> Command:
    """Queue a command for uplink in a contact window of the satellite."""
    sat = db.satellites.require(sat_id)
    _manager_of(db, requested_by, sat)
    w = db.contact_windows.require(window_id)
    if w.sat_id != sat_id:
        raise ToolError(f"window {window_id!r} is a window of another satellite")
    if w.start <= _now():
        raise ToolError(f"window {window_id!r} has already started")
    ctype = db.command_types.require(kind)
    key = db.commands.new_key("CMD", sat_id, kind, window_id)
    if key in db.commands:
        raise ToolError("that command is already queued in that window")
    db.commands[key] = Command(command_id=key, sat_id=sat_id, kind=kind, window_id=window_id, requested_by=requested_by,
                               requested_at=_now(), status="queued", energy_wh=ctype.energy_wh)
    return db.commands[key]


@DOMAIN.tool(write=True)
def cancel_command(
    db: SpaceDB,
    command_id: Annotated[str, Field(description="the command's id (from list_commands)")],
    cancelled_by: ContactId,
    reason: Annotated[FreeText, Field(description="why the customer cancels, in their words")],
) -> Command:
    """Cancel a queued command."""
    cmd = db.commands.require(command_id)
    _manager_of(db, cancelled_by, db.satellites.require(cmd.sat_id))
    if cmd.status != "queued":
        raise ToolError(f"command {command_id!r} is {cmd.status}, not queued")
    cmd.status = "cancelled"
    cmd.cancel_reason = reason
    cmd.cancelled_by = _manager_of(db, cancelled_by, db.satellites.require(cmd.sat_id)).contact_id
    db.commands[command_id] = cmd
    return cmd


# -- conjunctions and manoeuvres ------------------------------------------------------------
@DOMAIN.tool
def list_conjunctions(db: SpaceDB, sat_id: SatId) -> list[Conjunction]:
    """A satellite's conjunction alerts: object, time of closest approach, miss distance, probability."""
    db.satellites.require(sat_id)
    return sorted(db.conjunctions.where(sat_id=sat_id), key=lambda a: a.tca)


@DOMAIN.tool
def list_manoeuvre_plans(db: SpaceDB, sat_id: SatId) -> list[ManoeuvrePlan]:
    """A satellite's manoeuvre plans (delta-v, burn start, the alert they answer, status)."""
    db.satellites.require(sat_id)
    return sorted(db.manoeuvres.where(sat_id=sat_id), key=lambda p: p.burn_start)


@DOMAIN.tool
def quote_manoeuvre(db: SpaceDB, plan_id: PlanId) -> dict[str, Any]:
    """Propellant a manoeuvre plan would burn (rocket equation on the current wet mass) and what
    would remain on board. Changes nothing."""
    plan = db.manoeuvres.require(plan_id)
    sat = db.satellites.require(plan.sat_id)
    cost = _fuel_cost(sat, plan.delta_v_ms)
    return {"plan_id": plan_id, "satellite": sat.name, "delta_v_ms": plan.delta_v_ms, "fuel_on_board_kg": sat.fuel_kg,
            "fuel_cost_g": round(cost * 1000, 1), "fuel_remaining_kg": round(sat.fuel_kg - cost, 3),
            "deorbit_reserve_kg": sat.deorbit_reserve_kg}


def _open_plan(db: SpaceDB, plan_id: str, contact_id: str) -> tuple[ManoeuvrePlan, Satellite]:
    plan = db.manoeuvres.require(plan_id)
    sat = db.satellites.require(plan.sat_id)
    _manager_of(db, contact_id, sat)
    if plan.status != "proposed":
        raise ToolError(f"plan {plan_id!r} is already {plan.status}")
    return plan, sat


@DOMAIN.tool(write=True)
def approve_manoeuvre(db: SpaceDB, plan_id: PlanId, approved_by: ContactId) -> dict[str, Any]:
    """Approve a proposed manoeuvre plan for execution; a collision-avoidance plan marks its
    alert mitigated."""
    plan, sat = _open_plan(db, plan_id, approved_by)
    plan.status = "approved"
    plan.decided_by = approved_by
    plan.fuel_cost_kg = _fuel_cost(sat, plan.delta_v_ms)
    db.manoeuvres[plan_id] = plan
    out: dict[str, Any] = {"plan": plan}
    if plan.alert_id:
        alert = db.conjunctions.require(plan.alert_id)
        alert.status = "mitigated"
        db.conjunctions[plan.alert_id] = alert
        out["alert"] = alert
    return out


@DOMAIN.tool(write=True)
def reject_manoeuvre(
    db: SpaceDB, plan_id: PlanId, rejected_by: ContactId,
    reason: Annotated[FreeText, Field(description="why the customer rejects the plan, in their words")],
) -> ManoeuvrePlan:
    """Reject a proposed manoeuvre plan."""
    plan, _ = _open_plan(db, plan_id, rejected_by)
    plan.status = "rejected"
    plan.decided_by = rejected_by
    plan.rejection_reason = reason
    db.manoeuvres[plan_id] = plan
    return plan


@DOMAIN.tool(write=True)
def accept_conjunction_risk(
    db: SpaceDB, alert_id: AlertId, accepted_by: ContactId,
    note: Annotated[FreeText, Field(description="the customer's reasoning, in their words")],
) -> Conjunction:
    """Record that the customer accepts the risk of a conjunction and will not manoeuvre."""
    alert = db.conjunctions.require(alert_id)
    _manager_of(db, accepted_by, db.satellites.require(alert.sat_id))
    if alert.status != "open":
        raise ToolError(f"alert {alert_id!r} is already {alert.status}")
    alert.status = "risk_accepted"
    alert.accepted_by = accepted_by
    alert.acceptance_note = note
    db.conjunctions[alert_id] = alert
    return alert




# -- data invariants: the clock the policy fixes, and what comes after what ---------------
DOMAIN.invariants(
    not_after_now("commands", "requested_at"),
    not_after_now("telemetry", "time"),
    not_after_now("satellites", "launch_date"),
    not_after_now("organisations", "customer_since"),
    plausible_age("contacts", "date_of_birth", low=18, high=80),
    ordered("contact_windows", "start", "end", strict=True),
    after_now("manoeuvres", "burn_start", where=lambda plan: plan.status == "proposed"),
    after_now("conjunctions", "tca", where=lambda alert: alert.status == "open"),
    area_codes_valid("contacts", "phone"),
)


@DOMAIN.invariant
def _commands_requested_before_their_window(db: SpaceDB, now: datetime) -> Any:
    """commands requested before their window; queued ones in a window still to come, executed ones in a past one"""
    for key, command in db.commands.items():
        window = db.contact_windows.get(command.window_id)
        if window is None:
            yield f"commands[{key!r}]: no window {command.window_id}"
            continue
        start = datetime.fromisoformat(window.start.rstrip("Z"))
        if datetime.fromisoformat(command.requested_at.rstrip("Z")) > start:
            yield f"commands[{key!r}]: requested {command.requested_at}, after its window opens {window.start}"
        if command.status == "queued" and start <= now:
            yield f"commands[{key!r}]: queued for a window that opened at {window.start}"
        if command.status == "executed" and start > now:
            yield f"commands[{key!r}]: executed in a window still to come ({window.start})"


# Orders the policy states, graded where a task's gold calls both tools.
DOMAIN.order("find_next_contact_window", "queue_command")  # 4.2: the window comes from the look-up
DOMAIN.order("power_budget", "queue_command")  # 4.3: the power floor is checked before queuing
DOMAIN.order("quote_manoeuvre", "approve_manoeuvre")  # 6.1: quote first
