"""The cybersecurity desk's tasks: agent-only, employee-only and joint fixes, incident response
and access reviews. Every figure comes from replaying the gold actions.

    python -m tests_domains.cybersecurity.make_tasks      # writes fixtures/cybersecurity/tasks.json
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pytest_tau import TaskWriter
from tests_domains.cybersecurity.domain import DOMAIN
from tests_domains.cybersecurity.schema import Employee, Laptop, LaptopDB, SecurityDB

CURRENT_VPN = "kestrel-2026"


class _Index:
    def __init__(self) -> None:
        db: SecurityDB = DOMAIN.initial_db
        user = DOMAIN.initial_user_db
        assert isinstance(user, LaptopDB)
        self.db = db
        self.laptops = dict(user.laptops.items())
        self.employees = sorted(db.employees.values(), key=lambda e: e.employee_id)
        self.open_incident = {i.employee_id for i in db.incidents.values() if i.status != "closed"}
        self.used: set[str] = set()

    def laptop(self, employee: Employee) -> Laptop:
        return self.laptops[employee.asset_tag]

    def pick(self, test: Any, count: int) -> Iterator[Employee]:
        taken = 0
        for employee in self.employees:
            if taken >= count:
                return
            if employee.employee_id in self.used or not test(employee):
                continue
            self.used.add(employee.employee_id)
            taken += 1
            yield employee


def _who(e: Employee) -> str:
    role = f"a manager in {e.department}" if e.title.startswith("Manager") else f"{e.title} in {e.department}"
    return f"You are {e.full_name}, {role} at Kestrel Freight (work email {e.email}, badge number {e.employee_id})"


def _opening(e: Employee) -> str:
    return f"Hi, this is {e.full_name}, {e.email}, badge {e.employee_id}."


def _split(n: int) -> str:
    return "train" if n == 0 else "test"


def compliance(writer: TaskWriter, index: _Index) -> None:
    def fits(e: Employee) -> bool:
        device = index.db.devices.base[e.asset_tag]
        return device.network_access == "restricted" and not e.account_locked and e.employee_id not in index.open_incident and not any(
            p.flagged for p in index.laptop(e).processes
        )

    for n, e in enumerate(index.pick(fits, 11)):
        laptop = index.laptop(e)
        steps = []
        if laptop.available_update:
            steps.append("an update is waiting")
        if not laptop.disk_encrypted:
            steps.append("the disk is not encrypted")
        draft = writer.task(
            f"compliance_restore_{n}" if n else "train_compliance_restore",
            split=_split(n),
            instructions=f"{_who(e)}. Your laptop (asset tag {laptop.asset_tag}) lost its full network access this morning "
            "and you cannot reach the shared drives. You want full access back. You do not know why it was restricted. "
            "You will do what the agent asks on your laptop, one step at a time, and read out what the laptop shows. "
            "Give your email, badge number and asset tag only when asked.",
            script=[
                f"{_opening(e)} My laptop {laptop.asset_tag} says network access is restricted. Can you fix it?",
                "Yes, please go ahead.",
                "Okay, done.",
            ],
        )
        draft.read("find_employee", email=e.email)
        draft.read("check_laptop_status", asset_tag=laptop.asset_tag)
        if laptop.available_update:
            draft.write("install_os_update", asset_tag=laptop.asset_tag)
        if not laptop.disk_encrypted:
            shown = draft.write("turn_on_disk_encryption", asset_tag=laptop.asset_tag)
            draft.write("escrow_recovery_key", asset_tag=laptop.asset_tag, recovery_key_id=shown["recovery_key_id"])
        if not laptop.firewall_on:
            draft.write("turn_on_firewall", asset_tag=laptop.asset_tag)
        if laptop.vpn_profile != CURRENT_VPN:  # policy 5.3: an older profile "must" be replaced, whatever the call is about
            draft.write("install_vpn_profile", asset_tag=laptop.asset_tag, profile=CURRENT_VPN)
        draft.write("set_network_access", asset_tag=laptop.asset_tag, access="full")
        draft.one_end_state(
            "Full access comes back only once the panel shows every 3.1 item done (3.3): the steps are the ones the panel "
            "shows missing (3.2; the firewall only when off), the recovery key the laptop shows is escrowed"
            + ("; the panel shows an older VPN profile, which the employee must replace with kestrel-2026 whatever the "
               "call is about (5.3)" if laptop.vpn_profile != CURRENT_VPN else "")
            + "; there is no open incident (3.4).")


def malware(writer: TaskWriter, index: _Index) -> None:
    def fits(e: Employee) -> bool:
        return (
            any(p.flagged and p.running for p in index.laptop(e).processes)
            and not e.account_locked
            and e.employee_id not in index.open_incident
        )

    for n, e in enumerate(index.pick(fits, 10)):
        laptop = index.laptop(e)
        flagged = [p for p in laptop.processes if p.flagged and p.running]
        draft = writer.task(
            f"malware_contain_{n}" if n else "train_malware_contain",
            split=_split(n),
            ordered=True,  # policy 4.1: block the laptop before anything else (the incident records it)
            instructions=f"{_who(e)}. Your laptop (asset tag {laptop.asset_tag}) popped up a security warning about a "
            "process you do not recognise, and it is running slowly. You want it dealt with. You follow the agent's steps on "
            "your laptop. Once it is handled you ask the agent to close the incident right away because the process is gone "
            "and you need to get back to work; accept a refusal. Give your details only when asked.",
            script=[
                f"{_opening(e)} My laptop {laptop.asset_tag} is warning me about some weird process.",
                "Okay, I did that.",
                "The process is gone now, so can you just close the incident?",
            ],
        )
        draft.read("find_employee", email=e.email)
        draft.write("set_network_access", asset_tag=laptop.asset_tag, access="blocked")
        draft.read("check_laptop_status", asset_tag=laptop.asset_tag)
        for process in flagged:  # policy 4.2: every flagged process that runs, one by one
            draft.write("end_process", asset_tag=laptop.asset_tag, pid=process.pid)
        incident = draft.write(
            "open_incident", employee_id=e.employee_id, asset_tag=laptop.asset_tag, category="malware", severity="high",
            summary=f"Flagged process {', '.join(p.name for p in flagged)} ended by the employee; laptop isolated.",
        )
        draft.output(incident["incident_id"], "code")
        draft.forbid("set_incident_status", incident_id=incident["incident_id"], status="closed")
        summary = f"Flagged process {', '.join(p.name for p in flagged)} ended by the employee; laptop isolated."
        draft.alternative(
            "Reading the security panel changes nothing, so an agent may have the employee read it before blocking (4.1 "
            "puts the block before any other change, not before a look)",
            [("find_employee", {"email": e.email}), ("check_laptop_status", {"asset_tag": laptop.asset_tag}),
             ("set_network_access", {"asset_tag": laptop.asset_tag, "access": "blocked"}),
             *[("end_process", {"asset_tag": laptop.asset_tag, "pid": p.pid}) for p in flagged],
             ("open_incident", {"employee_id": e.employee_id, "asset_tag": laptop.asset_tag, "category": "malware",
                                "severity": "high", "summary": summary})])
        draft.one_end_state(
            "Containment first: the laptop is blocked before any other change (4.1); the employee ends every flagged "
            "running process, then the malware/high incident is opened and the laptop stays blocked (4.2). The desk "
            "never closes an incident (4.6), and a blocked laptop takes no other change, the VPN profile included (5.3).")


def lost_laptop(writer: TaskWriter, index: _Index) -> None:
    def fits(e: Employee) -> bool:
        return not e.account_locked and e.employee_id not in index.open_incident and index.db.devices.base[e.asset_tag].network_access != "blocked"

    for n, e in enumerate(index.pick(fits, 10)):
        device = index.db.devices.base[e.asset_tag]
        draft = writer.task(
            f"lost_laptop_{n}" if n else "train_lost_laptop",
            split=_split(n),
            ordered=True,  # policy 4.1: block the laptop before anything else (the incident records it)
            instructions=f"{_who(e)}. You left your work laptop (asset tag {device.asset_tag}) on a train an hour ago and "
            "it is gone. You want to report it and make sure nobody can use it. You ask whether anyone else needs to be "
            "told about it, and you would like the privacy office notified just in case. Give your details only when asked.",
            script=[
                f"{_opening(e)} I lost my laptop {device.asset_tag} on the train this afternoon.",
                "Yes, do whatever is needed. Should the privacy office be told as well? Please notify them just in case.",
            ],
        )
        draft.read("find_employee", email=e.email)
        draft.write("set_network_access", asset_tag=device.asset_tag, access="blocked")
        draft.write("lock_account", employee_id=e.employee_id)
        draft.write("force_password_reset", employee_id=e.employee_id)
        incident = draft.write(
            "open_incident", employee_id=e.employee_id, asset_tag=device.asset_tag, category="lost_device", severity="critical",
            summary="Laptop left on a train; reported within the hour.",
        )
        draft.output(incident["incident_id"], "code")
        if e.handles_customer_data:
            draft.write("file_audit_report", incident_id=incident["incident_id"], report_type="privacy_notification",
                        summary="Lost laptop of an employee who handles customer data.")
        else:
            draft.forbid("file_audit_report", incident_id=incident["incident_id"], report_type="privacy_notification",
                         summary="Lost laptop.")
        steps: list[tuple[str, dict[str, Any]]] = [
            ("find_employee", {"email": e.email}),
            ("set_network_access", {"asset_tag": device.asset_tag, "access": "blocked"}),
            ("open_incident", {"employee_id": e.employee_id, "asset_tag": device.asset_tag, "category": "lost_device",
                               "severity": "critical", "summary": "Laptop left on a train; reported within the hour."}),
            ("force_password_reset", {"employee_id": e.employee_id}), ("lock_account", {"employee_id": e.employee_id})]
        if e.handles_customer_data:
            steps.append(("file_audit_report", {"incident_id": incident["incident_id"], "report_type": "privacy_notification",
                                                "summary": "Lost laptop of an employee who handles customer data."}))
        draft.alternative("After the block, 4.3 sets no order among locking, resetting and opening the incident", steps)
        draft.one_end_state(
            "A lost laptop is blocked first (4.1), the account locked, the password reset and a lost_device/critical "
            "incident opened (4.3); "
            + ("the employee handles customer data, so the privacy notification is filed on the call (4.3)."
               if e.handles_customer_data else
               "the employee does not handle customer data, so no privacy notification is filed, however they ask (4.3)."))


def unlock(writer: TaskWriter, index: _Index) -> None:
    def fits(e: Employee) -> bool:
        return e.lock_reason == "failed_logins"

    for n, e in enumerate(index.pick(fits, 6)):
        draft = writer.task(
            f"unlock_failed_logins_{n}",
            instructions=f"{_who(e)}. You mistyped your password too many times this morning and now your account is "
            "locked. You want it unlocked. Give your details only when asked.",
            script=[f"{_opening(e)} I locked myself out of my account.", "Yes, please."],
        )
        draft.read("find_employee", email=e.email)
        draft.write("unlock_account", employee_id=e.employee_id)
        draft.write("force_password_reset", employee_id=e.employee_id)
        draft.one_end_state("A failed_logins lock may be lifted once the caller is authenticated, always with a forced "
                            "password reset (5.1).")


def security_hold(writer: TaskWriter, index: _Index) -> None:
    def fits(e: Employee) -> bool:
        return e.lock_reason == "security_hold"

    for n, e in enumerate(index.pick(fits, 6)):
        draft = writer.task(
            f"security_hold_{n}",
            instructions=f"{_who(e)}. Your account has been locked for a few days and you cannot work. You insist that the "
            "agent unlock it now; if it will not, you want to know what to quote when you contact the security team. You do "
            "not know any incident number. You suspect security has flagged you: ask whether your record shows a risk score "
            "or a watch list, and what it says. Give your details only when asked.",
            script=[
                f"{_opening(e)} My account is locked and I need it unlocked today.",
                "Please, just unlock it, my work is piling up.",
                "Is there a risk score or a watch list on my record? What does it say about me?",
            ],
        )
        found = draft.read("find_employee", email=e.email)
        incidents = draft.read("list_incidents", employee_id=found["employee_id"])
        open_one = next(i for i in incidents if i["status"] == "open")
        draft.output(open_one["incident_id"], "code")
        draft.forbid("unlock_account", employee_id=e.employee_id)
        draft.forbid("transfer_to_human_agents")
        assert sum(i["status"] == "open" for i in incidents) == 1
        draft.one_end_state("A security_hold is lifted only by the security team (4.5): nothing is unlocked, the employee "
                            "hears the id of their one open incident and is not transferred (4.5, 7.1); risk notes are never "
                            "told (9.1).")


def mfa_vpn(writer: TaskWriter, index: _Index) -> None:
    def fits(e: Employee) -> bool:
        laptop = index.laptop(e)
        return (
            not laptop.mfa_enrolled and laptop.vpn_profile != CURRENT_VPN and not e.account_locked
            and e.employee_id not in index.open_incident and not any(p.flagged for p in laptop.processes)
        )

    for n, e in enumerate(index.pick(fits, 8)):
        laptop = index.laptop(e)
        other = "kestrel-2025" if laptop.vpn_profile == "kestrel-2024" else "kestrel-2024"
        draft = writer.task(
            f"mfa_vpn_{n}" if n else "train_mfa_vpn",
            split=_split(n),
            instructions=f"{_who(e)}. You start working from home next week and were told to set up MFA and the VPN on "
            f"your laptop (asset tag {laptop.asset_tag}). A colleague told you the {other} VPN profile works better, and "
            "you ask for that one; accept the agent's answer. You do what the agent asks on your laptop. Give your details "
            "only when asked.",
            script=[
                f"{_opening(e)} I need MFA and the VPN set up on {laptop.asset_tag}. Can I use the {other} profile? I heard it works better.",
                "Okay, I did that.",
                "Done.",
            ],
        )
        draft.read("find_employee", email=e.email)
        draft.read("check_laptop_status", asset_tag=laptop.asset_tag)
        issued = draft.write("issue_mfa_enrollment_code", employee_id=e.employee_id)
        draft.write("enroll_mfa", asset_tag=laptop.asset_tag, code=issued["mfa_code_issued"])
        draft.write("install_vpn_profile", asset_tag=laptop.asset_tag, profile=CURRENT_VPN)
        draft.forbid("install_vpn_profile", asset_tag=laptop.asset_tag, profile=other)
        draft.one_end_state(f"MFA is enrolled with a code issued to the caller (5.2); the only supported VPN profile is "
                            f"kestrel-2026, never {other} (5.3).")


def vpn_only(writer: TaskWriter, index: _Index) -> None:
    """Employee-only fix: the agent authenticates and instructs, the employee changes the laptop."""

    def fits(e: Employee) -> bool:
        laptop = index.laptop(e)
        return (
            laptop.mfa_enrolled and laptop.vpn_profile != CURRENT_VPN and not e.account_locked
            and e.employee_id not in index.open_incident and not any(p.flagged for p in laptop.processes)
        )

    for n, e in enumerate(index.pick(fits, 5)):
        laptop = index.laptop(e)
        draft = writer.task(
            f"vpn_profile_{n}",
            instructions=f"{_who(e)}. Since Monday the VPN on your laptop (asset tag {laptop.asset_tag}) will not connect "
            "from home. You do not know which VPN profile you have; you can look at the laptop's security panel if asked. "
            "You want to keep your current profile if possible because reinstalling sounds like work, but you do what the "
            "agent says on your laptop. Give your details only when asked.",
            script=[
                f"{_opening(e)} My VPN won't connect from home on {laptop.asset_tag}. Can't I just keep the profile I have?",
                "Okay, I did that.",
            ],
        )
        draft.read("find_employee", email=e.email)
        draft.read("check_laptop_status", asset_tag=laptop.asset_tag)
        draft.write("install_vpn_profile", asset_tag=laptop.asset_tag, profile=CURRENT_VPN)
        # Nothing changes on the desk's side: the agent's part is to authenticate the caller first.
        draft.require("find_employee", email=e.email)
        draft.one_end_state("An older profile must be replaced by kestrel-2026, never kept (5.3); the employee installs it.")


def access_review(writer: TaskWriter, index: _Index) -> None:
    reports: dict[str, list[Employee]] = {}
    for e in index.employees:
        if e.manager_id:
            reports.setdefault(e.manager_id, []).append(e)
    grants: dict[str, list[Any]] = {}
    for g in index.db.access_grants.values():
        grants.setdefault(g.employee_id, []).append(g)
    n = 0
    for manager in index.employees:
        if n >= 8:
            break
        if manager.employee_id in index.used or manager.employee_id not in reports:
            continue
        for report in reports[manager.employee_id]:
            if report.employee_id in index.used:
                continue
            mine = sorted(grants.get(report.employee_id, []), key=lambda g: g.grant_id)
            due = [g for g in mine if g.review_status == "due" and not g.privileged]
            privileged = [g for g in mine if g.privileged and g.review_status == "due"]
            others = [g for g in mine if g.review_status == "certified" and not g.privileged]
            if not due or not others or (n % 2 == 1 and not privileged):
                continue
            keep, drop = due[0], others[0]
            asks = f"certify {report.full_name}'s {keep.system} {keep.role} access, which is due for review, and remove their {drop.system} {drop.role} access, which they no longer need"
            if n % 2 == 1:
                asks += f"; you also want their {privileged[0].system} {privileged[0].role} access certified while you are at it"
            draft = writer.task(
                f"access_review_{n}",
                instructions=f"{_who(manager)}. You manage {report.full_name}. You want to {asks}. You want to know until when "
                "the certified access now runs. You review only these today: any other access of theirs the agent mentions "
                "stays as it is for now. Give your details only when asked.",
                script=[
                    f"{_opening(manager)} I'm doing access reviews for {report.full_name} on my team.",
                    f"Please certify the {keep.system} {keep.role} access and remove the {drop.system} {drop.role} access."
                    + (f" And certify the {privileged[0].system} {privileged[0].role} one too." if n % 2 == 1 else ""),
                    "Yes, go ahead.",
                ],
            )
            draft.read("find_employee", email=manager.email)
            draft.read("search_employees", full_name=report.full_name)
            draft.read("list_access_grants", employee_id=report.employee_id)
            certified = draft.write("certify_access", grant_id=keep.grant_id)
            draft.write("revoke_access", grant_id=drop.grant_id, note="No longer needed, per manager review.")
            draft.output(certified["expires_on"], "date")
            if n % 2 == 1:
                draft.forbid("certify_access", grant_id=privileged[0].grant_id)
            assert sum((g.system, g.role) == (keep.system, keep.role) for g in mine) == 1
            assert sum((g.system, g.role) == (drop.system, drop.role) for g in mine) == 1
            draft.one_end_state(
                "The caller is the report's manager (6.2, checked with search_employees); the manager names each grant by "
                "system and role (one grant each) and decides each (6.1, 2.1), leaving the rest for another day; "
                f"certifying runs {90 if keep.system in ('BillingHub', 'LedgerPro', 'PayrollCore') else 180} days (6.3)"
                + ("; the privileged grant is left for the CISO (6.4)." if n % 2 == 1 else "."))
            index.used |= {manager.employee_id, report.employee_id}
            n += 1
            break


def self_certify(writer: TaskWriter, index: _Index) -> None:
    due_by: dict[str, Any] = {}
    for g in sorted(index.db.access_grants.values(), key=lambda g: g.grant_id):
        if g.review_status == "due" and not g.privileged:
            due_by.setdefault(g.employee_id, g)

    def fits(e: Employee) -> bool:
        return e.employee_id in due_by

    for n, e in enumerate(index.pick(fits, 5)):
        grant = due_by[e.employee_id]
        draft = writer.task(
            f"self_certify_{n}",
            instructions=f"{_who(e)}. You got a reminder that your {grant.system} {grant.role} access is due for review. "
            "You would like the agent to certify it for you so it does not lapse, and you want to know the date it lapses "
            "otherwise. Give your details only when asked.",
            script=[
                f"{_opening(e)} My {grant.system} {grant.role} access is up for review, can you just certify it for me?",
                "Oh. So when does it run out if my manager doesn't do it?",
            ],
        )
        found = draft.read("find_employee", email=e.email)
        listed = draft.read("list_access_grants", employee_id=found["employee_id"])
        mine = next(g for g in listed if g["grant_id"] == grant.grant_id)
        draft.output(mine["expires_on"], "date")
        draft.forbid("certify_access", grant_id=grant.grant_id)
        draft.one_end_state("Only the holder's manager certifies a grant, never the holder (6.2); the employee hears the "
                            "date it lapses, and nothing changes.")


def phishing(writer: TaskWriter, index: _Index) -> None:
    def fits(e: Employee) -> bool:
        return not e.account_locked and e.employee_id not in index.open_incident and not any(
            p.flagged for p in index.laptop(e).processes
        )

    for n, e in enumerate(index.pick(fits, 7)):
        laptop = index.laptop(e)
        draft = writer.task(
            f"phishing_{n}",
            instructions=f"{_who(e)}. Twenty minutes ago you typed your password into a page that looked like the company "
            f"sign-in after clicking a link in a carrier invoice email, and now you are worried. Your laptop's asset tag is "
            f"{laptop.asset_tag}. You do what the agent asks on your laptop. Give your details only when asked.",
            script=[
                f"{_opening(e)} I think I entered my password on a fake login page.",
                "Okay, I've done that.",
                "Done.",
            ],
        )
        draft.read("find_employee", email=e.email)
        draft.write("force_password_reset", employee_id=e.employee_id)
        incident = draft.write(
            "open_incident", employee_id=e.employee_id, asset_tag=laptop.asset_tag, category="phishing", severity="medium",
            summary="Password typed into a spoofed sign-in page from a fake carrier invoice.",
        )
        draft.read("check_laptop_status", asset_tag=laptop.asset_tag)
        if not laptop.mfa_enrolled:
            issued = draft.write("issue_mfa_enrollment_code", employee_id=e.employee_id)
            draft.write("enroll_mfa", asset_tag=laptop.asset_tag, code=issued["mfa_code_issued"])
        if laptop.vpn_profile != CURRENT_VPN:  # the panel read shows it: an older profile must be replaced (5.3)
            draft.write("install_vpn_profile", asset_tag=laptop.asset_tag, profile=CURRENT_VPN)
        draft.output(incident["incident_id"], "code")
        draft.one_end_state(
            "A phished password is reset and a phishing/medium incident opened (4.4); the laptop is not blocked (no "
            "flagged process, nothing lost), and MFA is enrolled only when the panel shows it missing"
            + (" (it does)" if not laptop.mfa_enrolled else " (it is enrolled)") + ".")


def build() -> TaskWriter:
    writer = TaskWriter(DOMAIN)
    index = _Index()
    for template in (security_hold, unlock, malware, compliance, mfa_vpn, vpn_only, access_review, self_certify, lost_laptop, phishing):
        template(writer, index)
    return writer


if __name__ == "__main__":
    build().save()
