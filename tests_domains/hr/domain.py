"""Kestrel Mills HR desk: the tools an HR agent uses to serve employees who call in.

The tools refuse only what the data makes impossible (no such record, not this employee's, nothing left to
cancel, not enough hours in the balance). Every rule of the policy (notice, blackouts, windows, eligibility,
rest, caps, who handles what) is the agent's to apply.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import Invariant, area_codes_valid, not_after_now, ordered, plausible_age, zip_matches_state
from tests_domains.hr.schema import (
    HRDB,
    Address,
    Application,
    BenefitPlan,
    Department,
    Dependent,
    Document,
    Employee,
    Enrollment,
    JobPosting,
    LeaveBalance,
    LifeEvent,
    Notification,
    PendingDeposit,
    Shift,
    SwapOffer,
    TimeOffRequest,
)

DOMAIN = Domain("hr", HRDB, now=datetime(2026, 5, 15, 14, 0))

NEXT_PAY_PERIOD_START = "2026-05-24"
BENEFITS_EFFECTIVE = "2026-06-01"
BENEFITS_PRIOR_END = "2026-05-31"
BIRTH_EVENTS = ("birth", "adoption")  # special enrollment effective on the event's day (HIPAA)
HOLIDAYS = {"2026-05-25", "2026-07-03", "2026-09-07", "2026-11-26", "2026-11-27", "2026-12-24", "2026-12-25"}
PART_TIME_WEEKLY_CAP = 32.0
PAYCHECKS_PER_YEAR = 26

EmployeeId = Annotated[str, Field(description="the employee's id (their employee number), e.g. '40211'")]
IsoDate = Annotated[str, Field(description="a date as YYYY-MM-DD")]
LeaveType = Literal["vacation", "sick", "personal"]
HalfDay = Annotated[Literal["morning", "afternoon"] | None, Field(description="only for a single-day request taken as half a day")]
CoverageLevel = Literal["employee", "employee_spouse", "employee_children", "family"]


def aba_check_digit_ok(routing_number: str) -> bool:
    """An ABA routing number's digits, weighted 3, 7, 1 in turn, sum to a multiple of 10 (no bank has another)."""
    digits = [int(c) for c in routing_number]
    return len(digits) == 9 and sum(w * d for w, d in zip(itertools.cycle((3, 7, 1)), digits)) % 10 == 0


def _today() -> str:
    return DOMAIN.today.isoformat()


def _date(value: str, label: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except (AttributeError, TypeError, ValueError):
        raise ToolError(f"{label} must be a date as YYYY-MM-DD, got {value!r}") from None


def _own(record: Any, employee_id: str, label: str, key: str) -> None:
    if record.employee_id != employee_id.strip():
        raise ToolError(f"{label} {key!r} does not belong to employee {employee_id}")


def _notify(db: HRDB, recipient: str | None, about: str, kind: str, reference: str, message: str) -> None:
    if not recipient:
        return
    nid = db.notifications.new_key("NT-", recipient, kind, reference)
    db.notifications[nid] = Notification(notification_id=nid, recipient_id=recipient, about_employee_id=about, kind=kind,
                                         reference_id=reference, sent_on=_today(), message=message)


def leave_days(start: date, end: date) -> int:
    """Business days from start to end inclusive: Monday-Friday, company holidays excluded."""
    if end < start:
        return 0
    total = (end - start).days + 1
    weeks, rest = divmod(total, 7)
    days = weeks * 5 + sum(1 for i in range(rest) if (start.weekday() + i) % 7 < 5)
    return days - sum(1 for h in HOLIDAYS if start.isoformat() <= h <= end.isoformat())


def _hours(value: float) -> float | int:
    """Hours as people write them: 104, not 104.0."""
    return int(value) if float(value).is_integer() else value


def _leave_charge(emp: Employee, start_date: str, end_date: str, half_day: str | None) -> tuple[int, float]:
    start, end = _date(start_date, "start_date"), _date(end_date, "end_date")
    if end < start:
        raise ToolError("end_date is before start_date")
    if half_day and start != end:
        raise ToolError("a half day is a single-day request (start_date equal to end_date)")
    days = leave_days(start, end)
    if days == 0:
        raise ToolError("the requested dates contain no business days (weekends and company holidays are not charged)")
    return days, emp.standard_day_hours * days / (2 if half_day else 1)


# ----------------------------------------------------------------------------- identity


@DOMAIN.tool(authenticates=True)
def find_employee_by_number(
    db: HRDB,
    employee_number: Annotated[str, Field(description="the 5-digit employee number printed on the badge and pay stub")],
    date_of_birth: IsoDate,
) -> Employee:
    """Authenticate a caller by employee number and date of birth; returns their employee record."""
    emp = db.employees.get(employee_number.strip())
    if emp is None or emp.date_of_birth != date_of_birth.strip():
        raise ToolError("no employee matches that employee number and date of birth")
    return emp


@DOMAIN.tool(authenticates=True)
def find_employee_by_email(
    db: HRDB,
    work_email: Annotated[str, Field(description="the caller's work email, e.g. jenna.olsen@kestrelmills.com")],
    ssn_last4: Annotated[str, Field(description="the last four digits of the caller's Social Security number")],
) -> Employee:
    """Authenticate a caller by work email and the last four digits of their SSN; returns their employee record."""
    for emp in db.employees.find(work_email=work_email):
        if emp.ssn_last4 == ssn_last4.strip():
            return emp
    raise ToolError("no employee matches that work email and SSN last four")


@DOMAIN.tool
def get_colleague_directory_entry(db: HRDB, employee_id: EmployeeId) -> dict[str, Any]:
    """Directory entry of any employee (name, department, title, manager, employment type); no private data."""
    emp = db.employees.require(employee_id)
    return {"employee_id": emp.employee_id, "name": f"{emp.first_name} {emp.last_name}", "department_id": emp.department_id,
            "job_title": emp.job_title, "employment_type": emp.employment_type, "manager_id": emp.manager_id,
            "work_email": emp.work_email}


@DOMAIN.tool
def get_department(db: HRDB, department_id: Annotated[str, Field(description="department code, e.g. 'WHS'")]) -> Department:
    """A department's site, whether it runs shifts, vacation notice days, weekly hour cap and blackout periods."""
    return db.departments.require(department_id)


# ----------------------------------------------------------------------------- time off


@DOMAIN.tool
def get_leave_balances(db: HRDB, employee_id: EmployeeId) -> LeaveBalance:
    """Current vacation, sick and personal hour balances (as of the last closed pay period) and accrual rates."""
    emp = db.employees.require(employee_id)
    return db.leave_balances.require(emp.employee_id)


@DOMAIN.tool
def list_time_off_requests(db: HRDB, employee_id: EmployeeId) -> list[TimeOffRequest]:
    """Every time-off request of an employee, oldest first."""
    emp = db.employees.require(employee_id)
    return sorted(db.time_off_requests.where(employee_id=emp.employee_id), key=lambda r: r.request_id)


@DOMAIN.tool
def preview_time_off_request(
    db: HRDB,
    employee_id: EmployeeId,
    leave_type: LeaveType,
    start_date: IsoDate,
    end_date: IsoDate,
    half_day: HalfDay = None,
) -> dict[str, Any]:
    """What a time-off request would charge, without filing it: business days counted (Mon-Fri, company holidays
    excluded), hours charged at the employee's standard daily hours, and the balance of that leave type before and
    after."""
    emp = db.employees.require(employee_id)
    days, hours = _leave_charge(emp, start_date, end_date, half_day)
    available = getattr(db.leave_balances.require(emp.employee_id), f"{leave_type}_hours")
    return {"leave_type": leave_type, "start_date": start_date, "end_date": end_date, "half_day": half_day,
            "business_days": days, "hours_charged": _hours(hours), f"{leave_type}_hours_now": _hours(available),
            f"{leave_type}_hours_after": _hours(round(available - hours, 2))}


@DOMAIN.tool(write=True)
def submit_time_off_request(
    db: HRDB,
    employee_id: EmployeeId,
    leave_type: LeaveType,
    start_date: IsoDate,
    end_date: IsoDate,
    note: Annotated[FreeText, Field(description="the employee's reason or note for the manager, stored on the request")],
    half_day: HalfDay = None,
) -> dict[str, Any]:
    """File a time-off request for manager approval (status pending). Hours are charged per business day (Mon-Fri,
    company holidays excluded) at the employee's standard daily hours (half that for a half day) and are reserved
    from the balance at once; the employee's manager is notified. The leave system checks only the balance and
    overlaps with other pending or approved requests."""
    emp = db.employees.require(employee_id)
    _, hours = _leave_charge(emp, start_date, end_date, half_day)
    start_date, end_date = start_date.strip(), end_date.strip()
    for req in db.time_off_requests.where(employee_id=emp.employee_id):
        if req.status in ("pending", "approved") and not (req.end_date < start_date or req.start_date > end_date):
            raise ToolError(f"overlaps existing request {req.request_id} ({req.start_date} to {req.end_date}, {req.status})")
    bal = db.leave_balances.require(emp.employee_id)
    field = f"{leave_type}_hours"
    available = getattr(bal, field)
    if hours > available:
        raise ToolError(f"not enough {leave_type} hours: {hours:g} needed, {available:g} in the balance")
    setattr(bal, field, round(available - hours, 2))
    rid = db.time_off_requests.new_key("TOR-", emp.employee_id, leave_type, start_date, end_date, half_day)
    req = TimeOffRequest(request_id=rid, employee_id=emp.employee_id, leave_type=leave_type, start_date=start_date,
                         end_date=end_date, half_day=half_day, hours=hours, status="pending", submitted_on=_today(), note=note)
    db.time_off_requests[rid] = req
    _notify(db, emp.manager_id, emp.employee_id, "time_off_request", rid,
            f"{emp.first_name} {emp.last_name} requested {hours:g} h of {leave_type} leave, {start_date} to {end_date}.")
    return {"request": req.model_dump(), "hours_charged": _hours(hours), f"remaining_{leave_type}_hours": _hours(getattr(bal, field))}


@DOMAIN.tool(write=True)
def cancel_time_off_request(
    db: HRDB,
    employee_id: EmployeeId,
    request_id: Annotated[str, Field(description="the request id, e.g. 'TOR-100245'")],
    reason: Annotated[FreeText, Field(description="why the employee is cancelling, stored on the request")],
) -> dict[str, Any]:
    """Cancel a pending or approved time-off request; its hours return to the balance."""
    req = db.time_off_requests.require(request_id)
    _own(req, employee_id, "time-off request", request_id)
    if req.status not in ("pending", "approved"):
        raise ToolError(f"request {req.request_id} is {req.status}; there is nothing to cancel")
    bal = db.leave_balances.require(req.employee_id)
    field = f"{req.leave_type}_hours"
    setattr(bal, field, round(getattr(bal, field) + req.hours, 2))
    req.status = "cancelled"
    req.cancel_reason = reason
    return {"request": req.model_dump(), "hours_returned": _hours(req.hours), f"{req.leave_type}_hours_now": _hours(getattr(bal, field))}


# ----------------------------------------------------------------------------- shifts


def _span(shift: Shift) -> tuple[datetime, datetime]:
    start = datetime.fromisoformat(f"{shift.date}T{shift.start}")
    end = datetime.fromisoformat(f"{shift.date}T{shift.end}")
    if end <= start:
        end += timedelta(days=1)
    return start, end


def _week(day: str) -> str:
    d = date.fromisoformat(day)
    return (d - timedelta(days=d.weekday())).isoformat()


def swap_effects(db: HRDB, offer: SwapOffer) -> dict[str, Any]:
    """Each party's schedule after the offer is accepted: weekly hours of the affected weeks and the rest gaps."""
    take = db.shifts[offer.take_shift_id]
    give = db.shifts[offer.give_shift_id] if offer.give_shift_id else None
    moves = {offer.take_shift_id: offer.offered_by}
    if give is not None:
        moves[give.shift_id] = offer.offered_to
    effects = {}
    for party in (offer.offered_by, offer.offered_to):
        emp = db.employees[party]
        mine = [s for s in db.shifts.where(employee_id=party) if moves.get(s.shift_id, s.employee_id) == party]
        for sid, to in moves.items():
            if to == party:
                mine += [s for s in db.shifts.where(shift_id=sid) if s.employee_id != party]
        mine.sort(key=lambda s: s.shift_id)
        gained = [s for s in mine if s.shift_id in moves and s.employee_id != party]
        weeks = sorted({_week(s.date) for s in gained} | {_week(take.date)} | ({_week(give.date)} if give else set()))
        hours = {w: sum(s.hours for s in mine if _week(s.date) == w) for w in weeks}
        mine.sort(key=lambda s: _span(s)[0])
        rests = []
        for before, after in itertools.pairwise(mine):
            if before in gained or after in gained:
                rests.append(round((_span(after)[0] - _span(before)[1]).total_seconds() / 3600, 2))
        cap = float(db.departments[emp.department_id].max_weekly_hours) if emp.employment_type == "full_time" else PART_TIME_WEEKLY_CAP
        effects[party] = {"name": f"{emp.first_name} {emp.last_name}", "department_id": emp.department_id,
                          "job_title": emp.job_title, "employment_type": emp.employment_type,
                          "weekly_hours_after": hours, "weekly_cap": cap,
                          "shortest_rest_hours_around_new_shift": min(rests) if rests else None}
    return effects


@DOMAIN.tool
def list_shifts(db: HRDB, employee_id: EmployeeId, from_date: IsoDate, to_date: IsoDate) -> list[Shift]:
    """An employee's scheduled shifts between two dates (inclusive), in date order. Night shifts end the next morning."""
    emp = db.employees.require(employee_id)
    rows = [s for s in db.shifts.where(employee_id=emp.employee_id) if from_date <= s.date <= to_date]
    return sorted(rows, key=lambda s: (s.date, s.start, s.shift_id))


@DOMAIN.tool
def list_swap_offers(db: HRDB, employee_id: EmployeeId) -> list[dict[str, Any]]:
    """Shift swap and cover offers colleagues have made TO this employee (any status), with the shifts involved."""
    emp = db.employees.require(employee_id)
    out = []
    for offer in sorted(db.swap_offers.where(offered_to=emp.employee_id), key=lambda o: o.offer_id):
        by = db.employees[offer.offered_by]
        take = db.shifts[offer.take_shift_id]
        give = db.shifts[offer.give_shift_id] if offer.give_shift_id else None
        out.append({"offer_id": offer.offer_id, "status": offer.status, "kind": offer.kind,
                    "offered_by": offer.offered_by, "offered_by_name": f"{by.first_name} {by.last_name}",
                    "offered_by_department": by.department_id, "offered_by_title": by.job_title,
                    "created_on": offer.created_on, "message": offer.message,
                    "colleague_takes_your_shift": take.model_dump(),
                    "you_take_their_shift": give.model_dump() if give else None})
    return out


@DOMAIN.tool
def preview_swap_offer(db: HRDB, offer_id: Annotated[str, Field(description="the offer id, e.g. 'SWP-5012'")]) -> dict[str, Any]:
    """What accepting an offer would do: both people's department and title, their weekly hours in the affected
    weeks against their cap, and the shortest rest (hours) between a newly assigned shift and its neighbours."""
    offer = db.swap_offers.require(offer_id)
    return {"offer": offer.model_dump(), "effects": swap_effects(db, offer)}


@DOMAIN.tool(write=True)
def accept_swap_offer(
    db: HRDB,
    employee_id: Annotated[str, Field(description="the employee the offer was made to (the caller)")],
    offer_id: Annotated[str, Field(description="the offer id, e.g. 'SWP-5012'")],
) -> dict[str, Any]:
    """Accept a colleague's pending swap or cover offer on the caller's behalf: the shifts change hands at once and
    the caller's manager is notified. The scheduler checks only that the offer is pending and the shifts are still
    held by the two people; it does not check roles, dates, weekly hours or rest."""
    offer = db.swap_offers.require(offer_id)
    if offer.offered_to != employee_id.strip():
        raise ToolError(f"swap offer {offer.offer_id} was not made to employee {employee_id}")
    if offer.status != "pending":
        raise ToolError(f"offer {offer.offer_id} is {offer.status}, not pending")
    a, b = db.employees[offer.offered_by], db.employees[offer.offered_to]
    if db.shifts[offer.take_shift_id].employee_id != offer.offered_to or (
            offer.give_shift_id and db.shifts[offer.give_shift_id].employee_id != offer.offered_by):
        raise ToolError("the schedule changed since the offer was made; the offer no longer applies")
    db.shifts[offer.take_shift_id].employee_id = offer.offered_by
    if offer.give_shift_id:
        db.shifts[offer.give_shift_id].employee_id = offer.offered_to
    offer.status = "accepted"
    _notify(db, b.manager_id, b.employee_id, "shift_swap", offer.offer_id,
            f"{b.first_name} {b.last_name} accepted {offer.kind} offer {offer.offer_id} from {a.first_name} {a.last_name}.")
    ids = [offer.take_shift_id] + ([offer.give_shift_id] if offer.give_shift_id else [])
    return {"offer": offer.model_dump(), "shifts": [db.shifts[s].model_dump() for s in ids]}


@DOMAIN.tool(write=True)
def decline_swap_offer(
    db: HRDB,
    employee_id: Annotated[str, Field(description="the employee the offer was made to (the caller)")],
    offer_id: Annotated[str, Field(description="the offer id, e.g. 'SWP-5012'")],
    reason: Annotated[FreeText, Field(description="the reason given to the colleague, stored on the offer")],
) -> SwapOffer:
    """Decline a colleague's pending swap or cover offer made to the caller."""
    offer = db.swap_offers.require(offer_id)
    if offer.offered_to != employee_id.strip():
        raise ToolError(f"swap offer {offer.offer_id} was not made to employee {employee_id}")
    if offer.status != "pending":
        raise ToolError(f"offer {offer.offer_id} is {offer.status}, not pending")
    offer.status = "declined"
    offer.decline_reason = reason
    return offer


# ----------------------------------------------------------------------------- internal mobility


@DOMAIN.tool
def search_job_postings(
    db: HRDB,
    keyword: Annotated[str | None, Field(description="words to find in the title, e.g. 'forklift'")] = None,
    department_id: Annotated[str | None, Field(description="department code, e.g. 'QAC'")] = None,
    open_only: bool = True,
) -> list[JobPosting]:
    """Search internal job postings by title keyword and/or department; by default only open postings."""
    if department_id:
        rows = list(db.job_postings.find(department_id=department_id))
    elif open_only:
        rows = sorted(db.job_postings.where(status="open"), key=lambda p: p.posting_id)
    else:
        rows = sorted(db.job_postings.values(), key=lambda p: p.posting_id)
    words = keyword.lower().split() if keyword else []
    return [p for p in rows if (not open_only or p.status == "open") and all(w in p.title.lower() for w in words)]


@DOMAIN.tool
def get_job_posting(db: HRDB, posting_id: Annotated[str, Field(description="e.g. 'JP-26-317'")]) -> JobPosting:
    """One internal job posting: department, grade, pay range, minimum performance rating, closing date, status."""
    return db.job_postings.require(posting_id)


@DOMAIN.tool
def list_applications(db: HRDB, employee_id: EmployeeId) -> list[Application]:
    """Every internal application an employee has made, with its status."""
    emp = db.employees.require(employee_id)
    return sorted(db.applications.where(employee_id=emp.employee_id), key=lambda a: a.application_id)


@DOMAIN.tool(write=True)
def submit_internal_application(
    db: HRDB,
    employee_id: EmployeeId,
    posting_id: Annotated[str, Field(description="e.g. 'JP-26-317'")],
    cover_note: Annotated[FreeText, Field(description="a short note from the employee to the hiring manager, stored on the application")],
) -> dict[str, Any]:
    """Apply to an internal posting. The employee's current manager is notified automatically. The system refuses
    only a second live application to the same posting; it does not check the posting's status or any eligibility
    rule (tenure, rating, performance plan, number of open applications)."""
    emp = db.employees.require(employee_id)
    p = db.job_postings.require(posting_id)
    for app in db.applications.where(employee_id=emp.employee_id):
        if app.posting_id == p.posting_id and app.status != "withdrawn":
            raise ToolError(f"employee {emp.employee_id} already applied to {p.posting_id} ({app.application_id})")
    aid = db.applications.new_key("APP-", emp.employee_id, p.posting_id)
    app = Application(application_id=aid, employee_id=emp.employee_id, posting_id=p.posting_id, status="submitted",
                      submitted_on=_today(), cover_note=cover_note, manager_notified=bool(emp.manager_id))
    db.applications[aid] = app
    _notify(db, emp.manager_id, emp.employee_id, "internal_application", aid,
            f"{emp.first_name} {emp.last_name} applied to {p.title} ({p.posting_id}).")
    return {"application": app.model_dump(), "manager_notified": emp.manager_id}


@DOMAIN.tool(write=True)
def withdraw_application(
    db: HRDB,
    employee_id: EmployeeId,
    application_id: Annotated[str, Field(description="e.g. 'APP-8042'")],
    reason: Annotated[FreeText, Field(description="why the employee withdraws, stored on the application")],
) -> Application:
    """Withdraw an internal application that is still live (submitted, under review, interview or offer); the hiring
    manager is told."""
    app = db.applications.require(application_id)
    _own(app, employee_id, "application", application_id)
    if app.status in ("withdrawn", "rejected"):
        raise ToolError(f"application {app.application_id} is already {app.status}")
    app.status = "withdrawn"
    app.withdraw_reason = reason
    emp = db.employees[app.employee_id]
    _notify(db, db.job_postings[app.posting_id].hiring_manager_id, emp.employee_id, "application_withdrawn", app.application_id,
            f"{emp.first_name} {emp.last_name} withdrew from {app.posting_id}.")
    return app


# ----------------------------------------------------------------------------- personal records


@DOMAIN.tool
def list_documents(db: HRDB, employee_id: EmployeeId) -> list[Document]:
    """Documents the employee has uploaded (leases, bills, certificates...) with their review status."""
    emp = db.employees.require(employee_id)
    return sorted(db.documents.where(employee_id=emp.employee_id), key=lambda d: d.document_id)


@DOMAIN.tool(write=True)
def update_home_address(
    db: HRDB,
    employee_id: EmployeeId,
    street: str,
    city: str,
    state: Annotated[str, Field(description="two-letter state code")],
    zip: Annotated[str, Field(description="5-digit zip code")],
    verification_code: Annotated[str | None, Field(description="the 6-digit address verification code HR texted to the employee's personal phone")] = None,
    document_id: Annotated[str | None, Field(description="the proof-of-address document on file for the new address")] = None,
) -> Employee:
    """Change an employee's home address, citing one proof: the verification code on file (single use, it is
    cleared) or a document on file. The system checks that the code matches the one on file and that the
    document is the employee's; it does not review the document."""
    emp = db.employees.require(employee_id)
    if (verification_code is None) == (document_id is None):
        raise ToolError("give exactly one of verification_code or document_id")
    if not (len(zip.strip()) == 5 and zip.strip().isdigit()) or len(state.strip()) != 2:
        raise ToolError("zip must be 5 digits and state a two-letter code")
    if verification_code is not None:
        if not emp.address_verification_code or emp.address_verification_code != verification_code.strip():
            raise ToolError("the verification code does not match the code on file")
        emp.address_verification_code = None
        emp.address_proof_document_id = None
    else:
        doc = db.documents.require(document_id or "")
        _own(doc, emp.employee_id, "document", doc.document_id)
        emp.address_proof_document_id = doc.document_id
    emp.home_address = Address(street=street.strip(), city=city.strip(), state=state.strip().upper(), zip=zip.strip())
    return emp


@DOMAIN.tool(write=True)
def update_direct_deposit(
    db: HRDB,
    employee_id: EmployeeId,
    routing_number: Annotated[str, Field(description="9-digit bank routing number")],
    account_number: Annotated[str, Field(description="the full account number, 4 to 17 digits")],
    account_type: Literal["checking", "savings"],
) -> dict[str, Any]:
    """Schedule a new direct-deposit account. It takes effect at the start of the next pay period; the current
    account stays in use until then. Returns the new and the current account."""
    emp = db.employees.require(employee_id)
    routing_number, account_number = routing_number.strip(), account_number.strip()
    if not (len(routing_number) == 9 and routing_number.isdigit()):
        raise ToolError("routing number must be 9 digits")
    if not aba_check_digit_ok(routing_number):
        raise ToolError(f"routing number {routing_number} is not a valid ABA routing number (its check digit does not "
                        f"match); ask the employee to read it again from a check or their bank")
    if not (4 <= len(account_number) <= 17 and account_number.isdigit()):
        raise ToolError("account number must be 4 to 17 digits")
    current = emp.direct_deposit
    if current.routing_number == routing_number and current.account_last4 == account_number[-4:] and current.account_type == account_type:
        raise ToolError("that is already the account on file")
    emp.pending_direct_deposit = PendingDeposit(routing_number=routing_number, account_number=account_number,
                                                account_type=account_type, effective_date=NEXT_PAY_PERIOD_START,
                                                requested_on=_today())
    return {"pending_direct_deposit": emp.pending_direct_deposit.model_dump(), "effective_date": NEXT_PAY_PERIOD_START,
            "current_account_until_then": {"bank_name": current.bank_name, "account_last4": current.account_last4,
                                           "account_type": current.account_type}}


# ----------------------------------------------------------------------------- benefits


@DOMAIN.tool
def list_benefit_plans(
    db: HRDB, plan_type: Annotated[Literal["medical", "dental", "vision"] | None, Field(description="filter by type")] = None,
) -> list[BenefitPlan]:
    """Benefit plans with monthly premiums per coverage level and the employer's share for full- and part-time staff."""
    if plan_type is None:
        return sorted(db.benefit_plans.values(), key=lambda p: p.plan_id)
    return db.benefit_plans.find(plan_type=plan_type)


def _per_paycheck(plan: BenefitPlan, emp: Employee, level: str) -> float:
    share = plan.employer_share_full_time if emp.employment_type == "full_time" else plan.employer_share_part_time
    return round(plan.monthly_premium[level] * 12 * (1 - share) / PAYCHECKS_PER_YEAR, 2)


@DOMAIN.tool
def quote_plan_cost(
    db: HRDB,
    employee_id: EmployeeId,
    plan_id: Annotated[str, Field(description="e.g. 'MED-PPO'")],
    coverage_level: CoverageLevel,
) -> dict[str, Any]:
    """The employee's per-paycheck cost of a plan at a coverage level (monthly premium x 12 x (1 - employer share)
    / 26, with the full- or part-time share), without enrolling."""
    emp = db.employees.require(employee_id)
    plan = db.benefit_plans.require(plan_id)
    share = plan.employer_share_full_time if emp.employment_type == "full_time" else plan.employer_share_part_time
    return {"plan_id": plan.plan_id, "plan_name": plan.name, "coverage_level": coverage_level,
            "monthly_premium": plan.monthly_premium[coverage_level], "employer_share": share,
            "per_paycheck_cost": _per_paycheck(plan, emp, coverage_level)}


@DOMAIN.tool
def list_enrollments(db: HRDB, employee_id: EmployeeId) -> list[Enrollment]:
    """An employee's benefit enrollments (active and ended) with per-paycheck costs."""
    emp = db.employees.require(employee_id)
    return sorted(db.enrollments.where(employee_id=emp.employee_id), key=lambda e: e.enrollment_id)


@DOMAIN.tool
def list_life_events(db: HRDB, employee_id: EmployeeId) -> list[LifeEvent]:
    """Qualifying life events the employee has reported (marriage, birth, adoption, ...)."""
    emp = db.employees.require(employee_id)
    return sorted(db.life_events.where(employee_id=emp.employee_id), key=lambda e: e.event_id)


@DOMAIN.tool(write=True)
def add_dependent(
    db: HRDB,
    employee_id: EmployeeId,
    name: Annotated[str, Field(description="the dependent's full name")],
    relationship: Literal["spouse", "domestic_partner", "child"],
    date_of_birth: IsoDate,
    document_id: Annotated[str, Field(description="the certificate on file that supports the dependent")],
) -> Employee:
    """Add a dependent to the employee's record, citing the supporting document on file (one document supports one
    dependent). The system does not review the document's kind or status."""
    emp = db.employees.require(employee_id)
    doc = db.documents.require(document_id)
    _own(doc, emp.employee_id, "document", doc.document_id)
    if any(d.supporting_document_id == doc.document_id for d in emp.dependents):
        raise ToolError(f"document {doc.document_id} already supports a dependent on file")
    _date(date_of_birth, "date_of_birth")
    emp.dependents.append(Dependent(name=name.strip(), relationship=relationship, date_of_birth=date_of_birth.strip(),
                                    supporting_document_id=doc.document_id))
    return emp


@DOMAIN.tool(write=True)
def enroll_in_plan(
    db: HRDB,
    employee_id: EmployeeId,
    plan_id: Annotated[str, Field(description="e.g. 'MED-PPO'")],
    coverage_level: CoverageLevel,
    basis: Annotated[str, Field(description="'new_hire', or the id of the qualifying life event (e.g. 'QLE-3012')")],
) -> dict[str, Any]:
    """Enroll in a plan outside open enrollment, on the basis of the hire ('new_hire') or of a reported life event.
    Any active plan of the same type ends on 2026-05-31; the new coverage starts 2026-06-01 (on the basis of a
    birth or an adoption, it starts on the day of the event and the replaced plan ends the day before). Returns the
    per-paycheck cost (26 paychecks). The system does not check enrollment windows or dependents on file."""
    emp = db.employees.require(employee_id)
    plan = db.benefit_plans.require(plan_id)
    basis = basis.strip()
    if basis != "new_hire":
        event = db.life_events.require(basis)
        _own(event, emp.employee_id, "life event", basis)
        basis = event.event_id
    mine = sorted(db.enrollments.where(employee_id=emp.employee_id), key=lambda e: e.enrollment_id)
    for enr in mine:
        if enr.status == "active" and enr.plan_id == plan.plan_id and enr.coverage_level == coverage_level:
            raise ToolError(f"already enrolled in {plan.plan_id} at {coverage_level} ({enr.enrollment_id})")
    starts, prior_end = BENEFITS_EFFECTIVE, BENEFITS_PRIOR_END
    if basis != "new_hire" and db.life_events[basis].kind in BIRTH_EVENTS:
        # HIPAA special enrollment: coverage for a birth or an adoption starts on the day of the event
        starts = db.life_events[basis].event_date
        prior_end = (date.fromisoformat(starts) - timedelta(days=1)).isoformat()
    ended = []
    for enr in mine:
        if enr.status == "active" and enr.plan_type == plan.plan_type:
            old = db.enrollments[enr.enrollment_id]
            old.status, old.end_date = "ended", max(prior_end, old.effective_date)
            ended.append(enr.enrollment_id)
    cost = _per_paycheck(plan, emp, coverage_level)
    eid = db.enrollments.new_key("ENR-", emp.employee_id, plan.plan_id, coverage_level, basis)
    db.enrollments[eid] = Enrollment(enrollment_id=eid, employee_id=emp.employee_id, plan_id=plan.plan_id, plan_type=plan.plan_type,
                                     coverage_level=coverage_level, per_paycheck_cost=cost, effective_date=starts,
                                     status="active", basis=basis)
    return {"enrollment": db.enrollments[eid].model_dump(), "ended_enrollments": ended, "per_paycheck_cost": cost}


# -- data invariants: the clock, ages, places and money the policy relies on -------------------
def _esst_accrual(db: HRDB, now: datetime) -> Iterator[str]:
    """Minnesota's Earned Sick and Safe Time: at least one hour per 30 hours worked, for staff at a Minnesota site
    (a two-week pay period is ten standard days)."""
    for emp in db.employees.values():
        site = db.departments[emp.department_id].site
        balance = db.leave_balances.get(emp.employee_id)
        if site == "Superior Distribution Center" or balance is None:
            continue
        if balance.sick_accrual_per_period * 30 < emp.standard_day_hours * 10 - 0.5:
            yield (f"leave_balances[{emp.employee_id!r}]: {balance.sick_accrual_per_period} sick hours a period at {site}, "
                   f"under one per 30 of {emp.standard_day_hours * 10:g} hours worked")


def _routing_numbers_valid(db: HRDB, now: datetime) -> Iterator[str]:
    for emp in db.employees.values():
        for account in (emp.direct_deposit, emp.pending_direct_deposit):
            if account is not None and not aba_check_digit_ok(account.routing_number):
                yield f"employees[{emp.employee_id!r}]: routing number {account.routing_number} fails the ABA check digit"


DOMAIN.invariants(
    plausible_age("employees", "date_of_birth", low=16, high=80),
    plausible_age("employees", "date_of_birth", at="hire_date", low=16, high=80),
    not_after_now("employees", "hire_date"),
    ordered("employees", "hire_date", "role_start_date"),
    not_after_now("time_off_requests", "submitted_on"),
    ordered("time_off_requests", "start_date", "end_date"),
    not_after_now("job_postings", "posted_on"),
    ordered("job_postings", "posted_on", "closes_on"),
    not_after_now("applications", "submitted_on"),
    not_after_now("notifications", "sent_on"),
    not_after_now("life_events", "reported_on"),
    ordered("life_events", "event_date", "reported_on"),
    not_after_now("documents", "received_on"),
    area_codes_valid("employees", "personal_phone"),
    zip_matches_state("employees", "home_address.zip", "home_address.state"),
    Invariant("employees: routing numbers pass the ABA check digit", _routing_numbers_valid),
    Invariant("leave_balances: Minnesota sites accrue sick time at one hour per 30 worked (ESST)", _esst_accrual),
)


# Policy 3.6, 4.6 and 7.3: the preview or quote before the write whose figures the employee confirms.
DOMAIN.order("preview_time_off_request", "submit_time_off_request")
DOMAIN.order("preview_swap_offer", "accept_swap_offer")
DOMAIN.order("quote_plan_cost", "enroll_in_plan")
