"""Meridian Orbital Services, the mission desk: the database (pydantic models, one table per field).

Customer organisations fly satellites that we operate. Their mission managers and analysts
call the desk about telemetry, contact windows with our ground stations, the command queue,
conjunction warnings and the manoeuvre plans that answer them, and station maintenance.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, FreeText, Table

Role = Literal["mission_manager", "analyst"]
CommandKind = Literal[
    "imaging_pass", "downlink_data", "payload_calibration", "software_upload",
    "attitude_slew", "heater_cycle", "wheel_desaturation", "manoeuvre_burn",
]


class Organisation(BaseModel):
    org_id: str
    name: str
    mission_ref: str  # the reference the customer quotes, e.g. "MRD-4821"
    country: str
    customer_since: str


class Contact(BaseModel):
    contact_id: str
    org_id: str
    first_name: str
    last_name: str
    date_of_birth: Confidential[str]
    email: str
    phone: str
    role: Role


class Satellite(BaseModel):
    sat_id: str
    org_id: str
    name: str  # e.g. "KESTREL-3"
    norad_id: int
    orbit: str  # e.g. "SSO 540 km"
    launch_date: str
    status: Literal["operational", "safe_mode"]
    battery_capacity_wh: float
    op_temp_min_c: float
    op_temp_max_c: float
    dry_mass_kg: float
    fuel_kg: float
    isp_s: float
    deorbit_reserve_kg: float  # propellant that must stay on board for end-of-life disposal


class Telemetry(BaseModel):
    snapshot_id: str
    sat_id: str
    time: str  # UTC, ISO
    battery_pct: float
    temperature_c: float
    mode: Literal["nominal", "safe_mode"]


class GroundStation(BaseModel):
    station_id: str
    name: str
    location: str
    band: Literal["S", "X", "S/X"]


class StationMaintenance(BaseModel):
    maintenance_id: str
    station_id: str
    start: str  # UTC, ISO
    end: str
    work: str


class ContactWindow(BaseModel):
    window_id: str
    sat_id: str
    station_id: str
    start: str  # UTC, ISO
    end: str
    max_elevation_deg: float


class CommandType(BaseModel):
    kind: CommandKind
    description: str
    duration_min: int
    energy_wh: float
    payload: bool  # uses the payload (imaging, downlink, calibration)


class Command(BaseModel):
    command_id: str
    sat_id: str
    kind: CommandKind
    window_id: str
    requested_by: str  # contact id
    requested_at: str
    status: Literal["queued", "cancelled", "executed"]
    energy_wh: float
    cancel_reason: FreeText | None = None
    cancelled_by: str | None = None  # the contact who asked for the cancellation


class Conjunction(BaseModel):
    alert_id: str
    sat_id: str
    object_name: str
    object_norad_id: int
    tca: str  # time of closest approach, UTC ISO
    miss_distance_m: float
    probability: float
    status: Literal["open", "mitigated", "risk_accepted"]
    accepted_by: str | None = None
    acceptance_note: FreeText | None = None


class ManoeuvrePlan(BaseModel):
    plan_id: str
    sat_id: str
    alert_id: str | None = None
    purpose: Literal["collision_avoidance", "station_keeping", "orbit_raise"]
    delta_v_ms: float
    burn_start: str  # UTC, ISO
    status: Literal["proposed", "approved", "rejected"]
    decided_by: str | None = None
    fuel_cost_kg: float | None = None
    burn_command_id: str | None = None
    rejection_reason: FreeText | None = None


class SpaceDB(BaseModel):
    organisations: Table[Organisation]
    contacts: Table[Contact]
    satellites: Table[Satellite]
    telemetry: Table[Telemetry]
    ground_stations: Table[GroundStation]
    maintenance: Table[StationMaintenance]
    contact_windows: Table[ContactWindow]
    command_types: Table[CommandType]
    commands: Table[Command]
    conjunctions: Table[Conjunction]
    manoeuvres: Table[ManoeuvrePlan]
