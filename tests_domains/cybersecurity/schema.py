"""Kestrel Freight's IT security desk: the agent's side (directory, device registry,
incidents, access grants, audit reports) and the employee's side (their own laptop)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from pytest_tau import Confidential, FreeText, Table, Unordered

NetworkAccess = Literal["full", "restricted", "blocked"]
Category = Literal["malware", "lost_device", "phishing", "policy_violation"]
Severity = Literal["low", "medium", "high", "critical"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Employee(_Record):
    employee_id: str  # the badge number
    full_name: str
    email: str
    department: str
    title: str
    manager_id: str | None
    hire_date: str
    account_locked: bool
    lock_reason: Literal["failed_logins", "security_hold"] | None
    password_reset_required: bool
    mfa_code_issued: str | None
    handles_customer_data: bool
    asset_tag: str
    # The security team's behaviour-analytics risk and phishing-simulation record: never told (policy 9.1).
    risk_notes: Confidential[str]


class Device(_Record):
    """The registry's record of a laptop (what the desk sees: not the laptop itself)."""

    asset_tag: str
    owner_id: str
    model: str
    os_family: Literal["macOS", "Windows"]
    network_access: NetworkAccess
    recovery_key_id: str | None
    last_checkin: str


class Incident(_Record):
    incident_id: str
    employee_id: str
    asset_tag: str
    category: Category
    severity: Severity
    status: Literal["open", "contained", "closed"]
    opened_at: str
    summary: FreeText
    # The laptop's registry access when the incident was opened: the record of "containment
    # comes first" (policy 4.1). Incidents from before the desk recorded it have None.
    network_access_at_open: NetworkAccess | None = None


class AccessGrant(_Record):
    grant_id: str
    employee_id: str
    system: str
    role: str
    privileged: bool
    granted_on: str
    expires_on: str
    review_status: Literal["due", "certified", "revoked"]
    note: FreeText = ""


class AuditReport(_Record):
    report_id: str
    incident_id: str
    report_type: Literal["privacy_notification", "security_review"]
    filed_at: str
    summary: FreeText


class SecurityDB(BaseModel):
    employees: Table[Employee]
    devices: Table[Device]
    incidents: Table[Incident]
    access_grants: Table[AccessGrant]
    audit_reports: Table[AuditReport]


class Process(_Record):
    pid: int
    name: str
    flagged: bool
    running: bool


class Laptop(_Record):
    """The employee's own laptop: only its owner changes it."""

    asset_tag: str
    os_version: str
    available_update: str | None
    disk_encrypted: bool
    recovery_key_id: str | None
    firewall_on: bool
    mfa_enrolled: bool
    mfa_code_entered: str | None
    vpn_profile: str
    processes: Unordered[Process]


class LaptopDB(BaseModel):
    laptops: Table[Laptop]


__all__ = ["AccessGrant", "AuditReport", "Device", "Employee", "Incident", "Laptop", "LaptopDB", "Process", "SecurityDB"]
