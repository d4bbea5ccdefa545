"""Kestrel Freight's IT security desk (dual control): the agent works the directory, the
device registry, incidents, access reviews and audit reports; the employee changes their
own laptop through user tools, following the agent's instructions. The policy fixes the
current time: 2026-03-10 14:00.

The tools refuse only what the data makes impossible (no such record, not this person's,
nothing to change); the policy's rules (who may ask, what must be contained first, what
may be restored and when) are the agent's to apply.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Annotated, Literal

from pydantic import Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import after_now, not_after_now, ordered
from tests_domains.cybersecurity.schema import (
    AccessGrant,
    AuditReport,
    Category,
    Device,
    Employee,
    Incident,
    Laptop,
    LaptopDB,
    NetworkAccess,
    SecurityDB,
    Severity,
)

DOMAIN = Domain("cybersecurity", SecurityDB, now=datetime(2026, 3, 10, 14, 0), user_db=LaptopDB)

CERTIFY_DAYS = 180  # a certified grant runs this long from today...
SHORT_CERTIFY_DAYS = 90  # ...or this long on systems with payment or payroll data (policy 6.3)
SHORT_CERTIFY_SYSTEMS = frozenset({"BillingHub", "LedgerPro", "PayrollCore"})

EmployeeId = Annotated[str, Field(description="the employee's badge number, e.g. 'E40213'")]
AssetTag = Annotated[str, Field(description="the laptop's asset tag, e.g. 'KF-51234'")]
GrantId = Annotated[str, Field(description="an access grant id, e.g. 'AG-482913'")]
IncidentId = Annotated[str, Field(description="an incident id, e.g. 'INC-730112'")]


def _stamp() -> str:
    return DOMAIN.now.strftime("%Y-%m-%dT%H:%M")


# -- the agent's tools ---------------------------------------------------------------


@DOMAIN.tool(authenticates=True)
def find_employee(db: SecurityDB, email: Annotated[str, Field(description="the employee's work email")]) -> Employee:
    """Find an employee by work email."""
    found = db.employees.find(email=email)
    if not found:
        raise ToolError("no employee with that email")
    return found[0]


@DOMAIN.tool
def search_employees(db: SecurityDB, full_name: Annotated[str, Field(description="first and last name")]) -> list[Employee]:
    """Find employees by full name (a manager names a direct report this way)."""
    return db.employees.find(full_name=full_name)


@DOMAIN.tool
def get_employee(db: SecurityDB, employee_id: EmployeeId) -> Employee:
    """An employee's directory record by badge number."""
    return db.employees.require(employee_id)


@DOMAIN.tool
def get_device(db: SecurityDB, asset_tag: AssetTag) -> Device:
    """The registry's record of a laptop: owner, model, network access, escrowed recovery key, last check-in."""
    return db.devices.require(asset_tag)


@DOMAIN.tool
def list_incidents(db: SecurityDB, employee_id: EmployeeId) -> list[Incident]:
    """Every incident recorded for an employee, oldest first."""
    db.employees.require(employee_id)
    return sorted(db.incidents.where(employee_id=employee_id), key=lambda i: i.opened_at)


@DOMAIN.tool
def get_incident(db: SecurityDB, incident_id: IncidentId) -> Incident:
    """One incident by id."""
    return db.incidents.require(incident_id)


@DOMAIN.tool
def list_access_grants(db: SecurityDB, employee_id: EmployeeId) -> list[AccessGrant]:
    """An employee's access grants (system, role, privileged or not, expiry, review status)."""
    db.employees.require(employee_id)
    return sorted(db.access_grants.where(employee_id=employee_id), key=lambda g: g.grant_id)


@DOMAIN.tool
def list_audit_reports(db: SecurityDB, incident_id: IncidentId) -> list[AuditReport]:
    """The audit reports filed for an incident."""
    db.incidents.require(incident_id)
    return sorted(db.audit_reports.where(incident_id=incident_id), key=lambda r: r.report_id)


@DOMAIN.tool(write=True)
def set_network_access(db: SecurityDB, asset_tag: AssetTag, access: Annotated[NetworkAccess, Field(description="full, restricted or blocked")]) -> Device:
    """Set a laptop's network access on the corporate network (blocked isolates it)."""
    device = db.devices.require(asset_tag)
    if device.network_access == access:
        raise ToolError(f"{asset_tag} already has {access} access")
    device.network_access = access
    return device


@DOMAIN.tool(write=True)
def lock_account(db: SecurityDB, employee_id: EmployeeId) -> Employee:
    """Lock an employee's account (a security hold)."""
    employee = db.employees.require(employee_id)
    if employee.account_locked:
        raise ToolError(f"account {employee_id} is already locked")
    employee.account_locked = True
    employee.lock_reason = "security_hold"
    return employee


@DOMAIN.tool(write=True)
def unlock_account(db: SecurityDB, employee_id: EmployeeId) -> Employee:
    """Unlock an employee's account."""
    employee = db.employees.require(employee_id)
    if not employee.account_locked:
        raise ToolError(f"account {employee_id} is not locked")
    employee.account_locked = False
    employee.lock_reason = None
    return employee


@DOMAIN.tool(write=True)
def force_password_reset(db: SecurityDB, employee_id: EmployeeId) -> Employee:
    """Expire an employee's password: they must set a new one at next sign-in."""
    employee = db.employees.require(employee_id)
    employee.password_reset_required = True
    return employee


@DOMAIN.tool(write=True)
def issue_mfa_enrollment_code(db: SecurityDB, employee_id: EmployeeId) -> Employee:
    """Issue a one-time MFA enrollment code for the employee to enter on their laptop."""
    employee = db.employees.require(employee_id)
    digest = hashlib.sha256(f"mfa:{employee_id}:{employee.email}".encode()).hexdigest()
    employee.mfa_code_issued = str(int(digest[:10], 16) % 900000 + 100000)
    return employee


@DOMAIN.tool(write=True)
def escrow_recovery_key(db: SecurityDB, asset_tag: AssetTag, recovery_key_id: Annotated[str, Field(description="the key id the laptop shows, e.g. 'RK-1A2B3C4D'")]) -> Device:
    """Record a laptop's disk-encryption recovery key id in the registry."""
    device = db.devices.require(asset_tag)
    device.recovery_key_id = recovery_key_id.strip().upper()
    return device


@DOMAIN.tool(write=True)
def open_incident(
    db: SecurityDB,
    employee_id: EmployeeId,
    asset_tag: AssetTag,
    category: Category,
    severity: Severity,
    summary: Annotated[FreeText, Field(description="what happened, in a sentence or two")],
) -> Incident:
    """Open a security incident for an employee and their laptop."""
    employee = db.employees.require(employee_id)
    device = db.devices.require(asset_tag)
    if employee.asset_tag != asset_tag:
        raise ToolError(f"laptop {asset_tag} is not assigned to {employee_id}")
    key = db.incidents.new_key("INC-", employee_id, asset_tag, category)
    db.incidents[key] = Incident(
        incident_id=key, employee_id=employee_id, asset_tag=asset_tag, category=category, severity=severity,
        status="open", opened_at=_stamp(), summary=summary, network_access_at_open=device.network_access,
    )
    return db.incidents[key]


@DOMAIN.tool(write=True)
def set_incident_status(db: SecurityDB, incident_id: IncidentId, status: Literal["open", "contained", "closed"]) -> Incident:
    """Change an incident's status."""
    incident = db.incidents.require(incident_id)
    if incident.status == status:
        raise ToolError(f"incident {incident_id} is already {status}")
    incident.status = status
    return incident


@DOMAIN.tool(write=True)
def file_audit_report(
    db: SecurityDB,
    incident_id: IncidentId,
    report_type: Literal["privacy_notification", "security_review"],
    summary: Annotated[FreeText, Field(description="what the report says")],
) -> AuditReport:
    """File an audit report on an incident; returns the report with its filing time."""
    db.incidents.require(incident_id)
    key = db.audit_reports.new_key("AR-", incident_id, report_type)
    db.audit_reports[key] = AuditReport(report_id=key, incident_id=incident_id, report_type=report_type, filed_at=_stamp(), summary=summary)
    return db.audit_reports[key]


@DOMAIN.tool(write=True)
def certify_access(db: SecurityDB, grant_id: GrantId) -> AccessGrant:
    """Certify an access grant after review; it then runs 180 days from today (90 on payment and payroll systems)."""
    grant = db.access_grants.require(grant_id)
    if grant.review_status == "revoked":
        raise ToolError(f"grant {grant_id} has been revoked")
    grant.review_status = "certified"
    days = SHORT_CERTIFY_DAYS if grant.system in SHORT_CERTIFY_SYSTEMS else CERTIFY_DAYS
    grant.expires_on = (DOMAIN.today + timedelta(days=days)).isoformat()
    return grant


@DOMAIN.tool(write=True)
def revoke_access(db: SecurityDB, grant_id: GrantId, note: Annotated[FreeText, Field(description="why it is revoked")]) -> AccessGrant:
    """Revoke an access grant."""
    grant = db.access_grants.require(grant_id)
    if grant.review_status == "revoked":
        raise ToolError(f"grant {grant_id} is already revoked")
    grant.review_status = "revoked"
    grant.expires_on = DOMAIN.today.isoformat()
    grant.note = note
    return grant


# -- the employee's tools: their own laptop --------------------------------------------


@DOMAIN.user_tool
def check_laptop_status(db: LaptopDB, asset_tag: AssetTag) -> Laptop:
    """Open the laptop's security panel: OS version and available update, disk encryption, firewall,
    MFA enrolment, VPN profile, and the running processes (flagged ones marked)."""
    return db.laptops.require(asset_tag)


@DOMAIN.user_tool(write=True)
def install_os_update(db: LaptopDB, asset_tag: AssetTag) -> Laptop:
    """Install the OS update the laptop offers."""
    laptop = db.laptops.require(asset_tag)
    if laptop.available_update is None:
        raise ToolError("no update available")
    laptop.os_version, laptop.available_update = laptop.available_update, None
    return laptop


@DOMAIN.user_tool(write=True)
def turn_on_disk_encryption(db: LaptopDB, asset_tag: AssetTag) -> Laptop:
    """Turn on full-disk encryption; the laptop shows a recovery key id."""
    from tests_domains.cybersecurity.generate import recovery_key

    laptop = db.laptops.require(asset_tag)
    if laptop.disk_encrypted:
        raise ToolError("the disk is already encrypted")
    laptop.disk_encrypted = True
    laptop.recovery_key_id = recovery_key(asset_tag)
    return laptop


@DOMAIN.user_tool(write=True)
def turn_on_firewall(db: LaptopDB, asset_tag: AssetTag) -> Laptop:
    """Turn the laptop's firewall on."""
    laptop = db.laptops.require(asset_tag)
    if laptop.firewall_on:
        raise ToolError("the firewall is already on")
    laptop.firewall_on = True
    return laptop


@DOMAIN.user_tool(write=True)
def end_process(db: LaptopDB, asset_tag: AssetTag, pid: Annotated[int, Field(description="the process id shown in the status")]) -> Laptop:
    """End a running process."""
    laptop = db.laptops.require(asset_tag)
    for process in laptop.processes:
        if process.pid == pid:
            if not process.running:
                raise ToolError(f"process {pid} is not running")
            process.running = False
            return laptop
    raise ToolError(f"no process {pid}")


@DOMAIN.user_tool(write=True)
def enroll_mfa(db: LaptopDB, asset_tag: AssetTag, code: Annotated[str, Field(description="the six-digit enrollment code the IT desk gives")]) -> Laptop:
    """Enrol the laptop's authenticator with a one-time code from the IT desk."""
    laptop = db.laptops.require(asset_tag)
    laptop.mfa_enrolled = True
    laptop.mfa_code_entered = code.strip()
    return laptop


@DOMAIN.user_tool(write=True)
def install_vpn_profile(db: LaptopDB, asset_tag: AssetTag, profile: Annotated[str, Field(description="the profile name, e.g. 'kestrel-2026'")]) -> Laptop:
    """Install a VPN profile (it replaces the current one)."""
    laptop = db.laptops.require(asset_tag)
    if laptop.vpn_profile == profile.strip():
        raise ToolError(f"{profile} is already installed")
    laptop.vpn_profile = profile.strip()
    return laptop


# The policy's order rules (sections 3.3, 4.1, 4.2), graded where a task's gold calls both tools.
for _then in ("end_process", "lock_account", "force_password_reset", "open_incident"):
    DOMAIN.order("set_network_access", _then)  # containment first: block before any other change
DOMAIN.order("end_process", "open_incident")  # end the flagged processes, then open the incident
for _step in ("install_os_update", "turn_on_disk_encryption", "escrow_recovery_key", "turn_on_firewall"):
    DOMAIN.order(_step, "set_network_access")  # full access only once the laptop is compliant
DOMAIN.order("search_employees", "certify_access")  # 6.2: the report's manager is checked before certifying


# -- data invariants: the desk's clock ------------------------------------------------------------
DOMAIN.invariants(
    not_after_now("employees", "hire_date"),
    not_after_now("incidents", "opened_at"),
    not_after_now("audit_reports", "filed_at"),
    not_after_now("access_grants", "granted_on"),
    ordered("access_grants", "granted_on", "expires_on", strict=True),
    after_now("access_grants", "expires_on", where=lambda grant: grant.review_status == "due"),
)
