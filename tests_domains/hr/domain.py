"""Kestrel Mills HR desk: the tools an HR agent uses to serve employees who call in."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from pytest_tau import Domain, ToolError, calculate as _calculate
from tests_domains.hr.schema import (
    HRDB,
    Address,
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
    Application,
)

DOMAIN = Domain("hr", HRDB, fixtures=Path(__file__).parents[2] / "fixtures" / "hr")

TODAY = date(2026, 5, 15)
TODAY_TEXT = TODAY.isoformat()
NEXT_PAY_PERIOD_START = "2026-05-24"
BENEFITS_EFFECTIVE = "2026-06-01"
BENEFITS_PRIOR_END = "2026-05-31"
HOLIDAYS = {"2026-05-25", "2026-07-03", "2026-09-07", "2026-11-26", "2026-11-27", "2026-12-24", "2026-12-25"}
PART_TIME_WEEKLY_CAP = 32.0
MAX_OPEN_APPLICATIONS = 3
OPEN_APP_STATUSES = ("submitted", "under_review", "interview", "offer")
ADDRESS_DOCS = ("lease", "utility_bill", "mortgage_statement")
DEPENDENT_DOCS = {"spouse": ("marriage_certificate",), "domestic_partner": ("partnership_affidavit",),
                  "child": ("birth_certificate", "adoption_decree")}

EmployeeId = Annotated[str, Field(description="the employee's id (their employee number), e.g. '40211'")]
IsoDate = Annotated[str, Field(description="a date as YYYY-MM-DD")]


def _employee(db: HRDB, employee_id: str) -> Employee:
    emp = db.employees.get(employee_id)
    if emp is None:
        raise ToolError(f"no employee with id {employee_id!r}")
    return emp


def _date(value: str, label: str) -> date:
    try:
        return date.fromisoformat(value)
    except (TypeError, ValueError):
        raise ToolError(f"{label} must be a date as YYYY-MM-DD, got {value!r}") from None


def _notify(db: HRDB, recipient: str | None, about: str, kind: str, reference: str, message: str) -> None:
    if not recipient:
        return
    nid = f"NT-{40001 + len(db.notifications)}"
    db.notifications[nid] = Notification(notification_id=nid, recipient_id=recipient, about_employee_id=about, kind=kind,
                                         reference_id=reference, sent_on=TODAY_TEXT, message=message)


def _leave_days(start: date, end: date) -> int:
    days, day = 0, start
    while day <= end:
        if day.weekday() < 5 and day.isoformat() not in HOLIDAYS:
            days += 1
        day += timedelta(days=1)
    return days


# ----------------------------------------------------------------------------- identity


@DOMAIN.tool
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


@DOMAIN.tool
def find_employee_by_email(
    db: HRDB,
    work_email: Annotated[str, Field(description="the caller's work email, e.g. jenna.olsen@kestrelmills.com")],
    ssn_last4: Annotated[str, Field(description="the last four digits of the caller's Social Security number")],
) -> Employee:
    """Authenticate a caller by work email and the last four digits of their SSN; returns their employee record."""
    email = work_email.strip().lower()
    for emp in sorted(db.employees.where(work_email=email), key=lambda e: e.employee_id):
        if emp.work_email == email:
            if emp.ssn_last4 != ssn_last4.strip():
                break
            return emp
    raise ToolError("no employee matches that work email and SSN last four")


@DOMAIN.tool
def get_colleague_directory_entry(db: HRDB, employee_id: EmployeeId) -> dict:
    """Directory entry of any employee (name, department, title, manager, employment type); no private data."""
    emp = _employee(db, employee_id)
    return {"employee_id": emp.employee_id, "name": f"{emp.first_name} {emp.last_name}", "department_id": emp.department_id,
            "job_title": emp.job_title, "employment_type": emp.employment_type, "manager_id": emp.manager_id,
            "work_email": emp.work_email}


@DOMAIN.tool
def get_department(db: HRDB, department_id: Annotated[str, Field(description="department code, e.g. 'WHS'")]) -> Department:
    """A department's site, whether it runs shifts, vacation notice days, weekly hour cap and blackout periods."""
    dept = db.departments.get(department_id)
    if dept is None:
        raise ToolError(f"no department {department_id!r}")
    return dept


# ----------------------------------------------------------------------------- time off


@DOMAIN.tool
def get_leave_balances(db: HRDB, employee_id: EmployeeId) -> LeaveBalance:
    """Current vacation, sick and personal hour balances (as of the last closed pay period) and accrual rates."""
    _employee(db, employee_id)
    bal = db.leave_balances.get(employee_id)
    if bal is None:
        raise ToolError(f"no leave balances for employee {employee_id}")
    return bal


@DOMAIN.tool
def list_time_off_requests(db: HRDB, employee_id: EmployeeId) -> list[TimeOffRequest]:
    """Every time-off request of an employee, oldest first."""
    _employee(db, employee_id)
    return sorted(db.time_off_requests.where(employee_id=employee_id), key=lambda r: r.request_id)


@DOMAIN.tool(write=True)
def submit_time_off_request(
    db: HRDB,
    employee_id: EmployeeId,
    leave_type: Literal["vacation", "sick", "personal"],
    start_date: IsoDate,
    end_date: IsoDate,
    note: Annotated[str, Field(description="the employee's reason or note for the manager, stored on the request")],
    half_day: Annotated[Literal["morning", "afternoon"] | None, Field(description="only for a single-day request taken as half a day")] = None,
) -> dict:
    """Submit a time-off request for manager approval. Hours are charged per business day (Mon-Fri, company
    holidays excluded) at the employee's standard daily hours (half that for a half day) and are reserved from the
    balance at once; the employee's manager is notified. Notice periods and blackout dates are NOT checked here."""
    emp = _employee(db, employee_id)
    if emp.status != "active":
        raise ToolError("employees on leave cannot file time-off requests; transfer to the Leave team")
    start, end = _date(start_date, "start_date"), _date(end_date, "end_date")
    if end < start:
        raise ToolError("end_date is before start_date")
    if half_day and start != end:
        raise ToolError("a half day must be a single-day request (start_date equal to end_date)")
    if leave_type == "sick":
        if start < TODAY - timedelta(days=7) or start > TODAY + timedelta(days=30):
            raise ToolError("sick leave may be recorded from 7 days back up to 30 days ahead")
    elif start <= TODAY:
        raise ToolError(f"{leave_type} leave must start after today ({TODAY_TEXT})")
    if (end - start).days > 60:
        raise ToolError("a single request may span at most 60 calendar days")
    days = _leave_days(start, end)
    if days == 0:
        raise ToolError("the requested dates contain no business days (weekends and company holidays are not charged)")
    hours = emp.standard_day_hours * days / (2 if half_day else 1)
    for req in sorted(db.time_off_requests.where(employee_id=employee_id), key=lambda r: r.request_id):
        if req.employee_id == employee_id and req.status in ("pending", "approved") and not (
                req.end_date < start_date or req.start_date > end_date):
            raise ToolError(f"overlaps existing request {req.request_id} ({req.start_date} to {req.end_date}, {req.status})")
    bal = db.leave_balances[employee_id]
    field = f"{leave_type}_hours"
    available = getattr(bal, field)
    if hours > available:
        raise ToolError(f"insufficient {leave_type} balance: {hours:g} hours needed, {available:g} available")
    setattr(bal, field, round(available - hours, 2))
    rid = f"TOR-{100001 + len(db.time_off_requests)}"
    req = TimeOffRequest(request_id=rid, employee_id=employee_id, leave_type=leave_type, start_date=start_date,
                         end_date=end_date, half_day=half_day, hours=hours, status="pending", submitted_on=TODAY_TEXT,
                         note=note)
    db.time_off_requests[rid] = req
    _notify(db, emp.manager_id, employee_id, "time_off_request", rid,
            f"{emp.first_name} {emp.last_name} requested {hours:g} h of {leave_type} leave, {start_date} to {end_date}.")
    return {"request": req.model_dump(), "hours_charged": hours, f"remaining_{leave_type}_hours": getattr(bal, field)}


@DOMAIN.tool(write=True)
def cancel_time_off_request(
    db: HRDB,
    employee_id: EmployeeId,
    request_id: Annotated[str, Field(description="the request id, e.g. 'TOR-100245'")],
    reason: Annotated[str, Field(description="why the employee is cancelling, stored on the request")],
) -> dict:
    """Cancel a pending or approved time-off request that has not started yet; its hours return to the balance."""
    req = db.time_off_requests.get(request_id)
    if req is None or req.employee_id != employee_id:
        raise ToolError(f"employee {employee_id} has no time-off request {request_id!r}")
    if req.status not in ("pending", "approved"):
        raise ToolError(f"request {request_id} is {req.status}; only pending or approved requests can be cancelled")
    if req.start_date <= TODAY_TEXT:
        raise ToolError("leave that has already started cannot be cancelled here; payroll corrects taken leave")
    bal = db.leave_balances[employee_id]
    field = f"{req.leave_type}_hours"
    setattr(bal, field, round(getattr(bal, field) + req.hours, 2))
    req.status = "cancelled"
    req.cancel_reason = reason
    return {"request": req.model_dump(), "hours_returned": req.hours, f"{req.leave_type}_hours_now": getattr(bal, field)}


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


def _swap_effects(db: HRDB, offer: SwapOffer) -> dict:
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
        mine.sort(key=lambda s: s.shift_id)  # the table's key order, as a scan would see them
        gained = [s for s in mine if s.shift_id in moves and s.employee_id != party]
        weeks = sorted({_week(s.date) for s in gained} | {_week(take.date)} | ({_week(give.date)} if give else set()))
        hours = {w: sum(s.hours for s in mine if _week(s.date) == w) for w in weeks}
        mine.sort(key=lambda s: _span(s)[0])
        rests = []
        for before, after in zip(mine, mine[1:]):
            if before in gained or after in gained:
                rests.append(round((_span(after)[0] - _span(before)[1]).total_seconds() / 3600, 2))
        cap = float(db.departments[emp.department_id].max_weekly_hours) if emp.employment_type == "full_time" else PART_TIME_WEEKLY_CAP
        effects[party] = {"name": f"{emp.first_name} {emp.last_name}", "weekly_hours_after": hours, "weekly_cap": cap,
                          "shortest_rest_hours_around_new_shift": min(rests) if rests else None}
    return effects


@DOMAIN.tool
def list_shifts(
    db: HRDB,
    employee_id: EmployeeId,
    from_date: IsoDate,
    to_date: IsoDate,
) -> list[Shift]:
    """An employee's scheduled shifts between two dates (inclusive), in date order. Night shifts end the next morning."""
    _employee(db, employee_id)
    rows = [s for s in db.shifts.where(employee_id=employee_id) if from_date <= s.date <= to_date]
    return sorted(rows, key=lambda s: (s.date, s.start, s.shift_id))


@DOMAIN.tool
def list_swap_offers(db: HRDB, employee_id: EmployeeId) -> list[dict]:
    """Shift swap and cover offers colleagues have made TO this employee (any status), with the shifts involved."""
    _employee(db, employee_id)
    out = []
    for offer in sorted(db.swap_offers.where(offered_to=employee_id), key=lambda o: o.offer_id):
        if offer.offered_to != employee_id:
            continue
        by = db.employees[offer.offered_by]
        take = db.shifts[offer.take_shift_id]
        give = db.shifts[offer.give_shift_id] if offer.give_shift_id else None
        out.append({"offer_id": offer.offer_id, "status": offer.status, "kind": offer.kind,
                    "offered_by": offer.offered_by, "offered_by_name": f"{by.first_name} {by.last_name}",
                    "offered_by_title": by.job_title, "created_on": offer.created_on, "message": offer.message,
                    "colleague_takes_your_shift": take.model_dump(),
                    "you_take_their_shift": give.model_dump() if give else None})
    return out


@DOMAIN.tool
def preview_swap_offer(db: HRDB, offer_id: Annotated[str, Field(description="the offer id, e.g. 'SWP-5012'")]) -> dict:
    """What accepting an offer would do: both people's weekly hours in the affected weeks against their cap, and the
    shortest rest between the newly assigned shift and their neighbouring shifts (hours)."""
    offer = db.swap_offers.get(offer_id)
    if offer is None:
        raise ToolError(f"no swap offer {offer_id!r}")
    return {"offer": offer.model_dump(), "effects": _swap_effects(db, offer)}


@DOMAIN.tool(write=True)
def accept_swap_offer(
    db: HRDB,
    employee_id: Annotated[str, Field(description="the employee the offer was made to (the caller)")],
    offer_id: Annotated[str, Field(description="the offer id, e.g. 'SWP-5012'")],
) -> dict:
    """Accept a colleague's pending swap or cover offer on the caller's behalf: the shifts change hands at once and
    the department manager is notified. Checks department, job title, dates and weekly hour caps; it does NOT check
    rest between shifts."""
    offer = db.swap_offers.get(offer_id)
    if offer is None or offer.offered_to != employee_id:
        raise ToolError(f"employee {employee_id} has no swap offer {offer_id!r}")
    if offer.status != "pending":
        raise ToolError(f"offer {offer_id} is {offer.status}, not pending")
    a, b = db.employees[offer.offered_by], db.employees[offer.offered_to]
    if (a.department_id, a.job_title) != (b.department_id, b.job_title):
        raise ToolError("shift swaps are only allowed between employees with the same department and job title")
    ids = [offer.take_shift_id] + ([offer.give_shift_id] if offer.give_shift_id else [])
    for sid in ids:
        if db.shifts[sid].date <= TODAY_TEXT:
            raise ToolError(f"shift {sid} is today or in the past; only future shifts can be swapped")
    if db.shifts[offer.take_shift_id].employee_id != offer.offered_to or (
            offer.give_shift_id and db.shifts[offer.give_shift_id].employee_id != offer.offered_by):
        raise ToolError("the schedule changed since the offer was made; the offer no longer applies")
    effects = _swap_effects(db, offer)
    for party, eff in effects.items():
        for week, hours in eff["weekly_hours_after"].items():
            if hours > eff["weekly_cap"]:
                raise ToolError(f"{eff['name']} would be scheduled {hours:g} h in the week of {week}, over the {eff['weekly_cap']:g} h cap")
        if eff["shortest_rest_hours_around_new_shift"] is not None and eff["shortest_rest_hours_around_new_shift"] < 0:
            raise ToolError(f"{eff['name']} would be double-booked")
    db.shifts[offer.take_shift_id].employee_id = offer.offered_by
    if offer.give_shift_id:
        db.shifts[offer.give_shift_id].employee_id = offer.offered_to
    offer = db.swap_offers[offer_id]
    offer.status = "accepted"
    _notify(db, b.manager_id, employee_id, "shift_swap", offer_id,
            f"{b.first_name} {b.last_name} accepted {offer.kind} offer {offer_id} from {a.first_name} {a.last_name}.")
    return {"offer": offer.model_dump(), "shifts": [db.shifts[s].model_dump() for s in ids]}


@DOMAIN.tool(write=True)
def decline_swap_offer(
    db: HRDB,
    employee_id: Annotated[str, Field(description="the employee the offer was made to (the caller)")],
    offer_id: str,
    reason: Annotated[str, Field(description="the reason given to the colleague, stored on the offer")],
) -> SwapOffer:
    """Decline a colleague's pending swap or cover offer made to the caller."""
    offer = db.swap_offers.get(offer_id)
    if offer is None or offer.offered_to != employee_id:
        raise ToolError(f"employee {employee_id} has no swap offer {offer_id!r}")
    if offer.status != "pending":
        raise ToolError(f"offer {offer_id} is {offer.status}, not pending")
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
    out = []
    if department_id:
        rows = sorted(db.job_postings.where(department_id=department_id), key=lambda p: p.posting_id)
    elif open_only:
        rows = sorted(db.job_postings.where(status="open"), key=lambda p: p.posting_id)
    else:
        rows = db.job_postings.values()
    for p in rows:
        if open_only and p.status != "open":
            continue
        if department_id and p.department_id != department_id:
            continue
        if keyword and not all(w in p.title.lower() for w in keyword.lower().split()):
            continue
        out.append(p)
    return out


@DOMAIN.tool
def get_job_posting(db: HRDB, posting_id: Annotated[str, Field(description="e.g. 'JP-26-317'")]) -> JobPosting:
    """One internal job posting: department, grade, pay range, minimum performance rating, closing date, status."""
    p = db.job_postings.get(posting_id)
    if p is None:
        raise ToolError(f"no job posting {posting_id!r}")
    return p


@DOMAIN.tool
def list_applications(db: HRDB, employee_id: EmployeeId) -> list[Application]:
    """Every internal application an employee has made, with its status."""
    _employee(db, employee_id)
    return sorted(db.applications.where(employee_id=employee_id), key=lambda a: a.application_id)


@DOMAIN.tool(write=True)
def submit_internal_application(
    db: HRDB,
    employee_id: EmployeeId,
    posting_id: Annotated[str, Field(description="e.g. 'JP-26-317'")],
    cover_note: Annotated[str, Field(description="a short note from the employee to the hiring manager, stored on the application")],
) -> dict:
    """Apply to an open internal posting. The employee's current manager is notified automatically. Checks the
    posting is open, no duplicate application and the open-application limit; it does NOT check tenure in role,
    performance rating or performance plans."""
    emp = _employee(db, employee_id)
    p = db.job_postings.get(posting_id)
    if p is None:
        raise ToolError(f"no job posting {posting_id!r}")
    if p.status != "open" or p.closes_on < TODAY_TEXT:
        raise ToolError(f"posting {posting_id} is not open for applications (status {p.status}, closes {p.closes_on})")
    if p.department_id == emp.department_id and p.title == emp.job_title:
        raise ToolError("the employee already holds this job title in this department")
    mine = sorted(db.applications.where(employee_id=employee_id), key=lambda a: a.application_id)
    if any(a.posting_id == posting_id and a.status not in ("withdrawn",) for a in mine):
        raise ToolError(f"employee {employee_id} already applied to {posting_id}")
    open_count = sum(1 for a in mine if a.status in OPEN_APP_STATUSES)
    if open_count >= MAX_OPEN_APPLICATIONS:
        raise ToolError(f"employee already has {open_count} open applications; the limit is {MAX_OPEN_APPLICATIONS}")
    aid = f"APP-{8001 + len(db.applications)}"
    app = Application(application_id=aid, employee_id=employee_id, posting_id=posting_id, status="submitted",
                      submitted_on=TODAY_TEXT, cover_note=cover_note, manager_notified=bool(emp.manager_id))
    db.applications[aid] = app
    _notify(db, emp.manager_id, employee_id, "internal_application", aid,
            f"{emp.first_name} {emp.last_name} applied to {p.title} ({posting_id}).")
    return {"application": app.model_dump(), "manager_notified": emp.manager_id}


@DOMAIN.tool(write=True)
def withdraw_application(
    db: HRDB,
    employee_id: EmployeeId,
    application_id: Annotated[str, Field(description="e.g. 'APP-8042'")],
    reason: Annotated[str, Field(description="why the employee withdraws, stored on the application")],
) -> Application:
    """Withdraw an internal application that is submitted, under review or at interview; the hiring manager is told."""
    app = db.applications.get(application_id)
    if app is None or app.employee_id != employee_id:
        raise ToolError(f"employee {employee_id} has no application {application_id!r}")
    if app.status == "offer":
        raise ToolError("an application with an offer out cannot be withdrawn here; the recruiter handles it")
    if app.status not in ("submitted", "under_review", "interview"):
        raise ToolError(f"application {application_id} is already {app.status}")
    app.status = "withdrawn"
    app.withdraw_reason = reason
    emp = db.employees[employee_id]
    _notify(db, db.job_postings[app.posting_id].hiring_manager_id, employee_id, "application_withdrawn", application_id,
            f"{emp.first_name} {emp.last_name} withdrew from {app.posting_id}.")
    return app


# ----------------------------------------------------------------------------- personal records


@DOMAIN.tool
def list_documents(db: HRDB, employee_id: EmployeeId) -> list[Document]:
    """Documents the employee has uploaded (leases, bills, certificates...) with their review status."""
    _employee(db, employee_id)
    return sorted(db.documents.where(employee_id=employee_id), key=lambda d: d.document_id)


@DOMAIN.tool(write=True)
def update_home_address(
    db: HRDB,
    employee_id: EmployeeId,
    street: str,
    city: str,
    state: Annotated[str, Field(description="two-letter state code")],
    zip: Annotated[str, Field(description="5-digit zip code")],
    verification_code: Annotated[str | None, Field(description="the 6-digit address verification code HR texted to the employee's personal phone")] = None,
    document_id: Annotated[str | None, Field(description="a verified proof-of-address document on file showing the new address")] = None,
) -> Employee:
    """Change an employee's home address. Needs exactly one proof: the verification code on file (single use, it is
    cleared) or a verified lease, utility bill or mortgage statement on file that shows the new street and zip."""
    emp = _employee(db, employee_id)
    if (verification_code is None) == (document_id is None):
        raise ToolError("give exactly one of verification_code or document_id")
    if not (len(zip) == 5 and zip.isdigit()) or len(state) != 2:
        raise ToolError("zip must be 5 digits and state a two-letter code")
    if verification_code is not None:
        if not emp.address_verification_code or emp.address_verification_code != verification_code.strip():
            raise ToolError("the verification code does not match the code on file")
        emp.address_verification_code = None
    else:
        doc = db.documents.get(document_id or "")
        if doc is None or doc.employee_id != employee_id:
            raise ToolError(f"employee {employee_id} has no document {document_id!r}")
        if doc.doc_type not in ADDRESS_DOCS:
            raise ToolError(f"a {doc.doc_type} is not proof of address")
        if doc.status != "verified":
            raise ToolError(f"document {document_id} is {doc.status}, not verified")
        if street.lower() not in doc.detail.lower() or zip not in doc.detail:
            raise ToolError(f"document {document_id} does not show that street and zip")
    emp.home_address = Address(street=street, city=city, state=state.upper(), zip=zip)
    return emp


@DOMAIN.tool(write=True)
def update_direct_deposit(
    db: HRDB,
    employee_id: EmployeeId,
    routing_number: Annotated[str, Field(description="9-digit bank routing number")],
    account_number: Annotated[str, Field(description="the full account number, 4 to 17 digits")],
    account_type: Literal["checking", "savings"],
) -> dict:
    """Schedule a new direct-deposit account. Requires identity verified in person; the change takes effect at the
    start of the next pay period and the current account stays in use until then."""
    emp = _employee(db, employee_id)
    if not emp.identity_verified:
        raise ToolError("identity not verified in person; direct deposit cannot be changed by phone")
    if not (len(routing_number) == 9 and routing_number.isdigit()):
        raise ToolError("routing number must be 9 digits")
    if not (4 <= len(account_number) <= 17 and account_number.isdigit()):
        raise ToolError("account number must be 4 to 17 digits")
    if emp.direct_deposit.routing_number == routing_number and emp.direct_deposit.account_last4 == account_number[-4:] \
            and emp.direct_deposit.account_type == account_type:
        raise ToolError("that is already the account on file")
    emp.pending_direct_deposit = PendingDeposit(routing_number=routing_number, account_number=account_number,
                                                account_type=account_type, effective_date=NEXT_PAY_PERIOD_START,
                                                requested_on=TODAY_TEXT)
    return {"pending_direct_deposit": emp.pending_direct_deposit.model_dump(), "effective_date": NEXT_PAY_PERIOD_START,
            "effective": "Sunday, May 24, 2026 (first day of the next pay period); the May 29 paycheck goes to the current account"}


# ----------------------------------------------------------------------------- benefits


@DOMAIN.tool
def list_benefit_plans(
    db: HRDB, plan_type: Annotated[Literal["medical", "dental", "vision"] | None, Field(description="filter by type")] = None,
) -> list[BenefitPlan]:
    """Benefit plans with monthly premiums per coverage level and the employer's share for full- and part-time staff."""
    if plan_type is None:
        return list(db.benefit_plans.values())
    return sorted(db.benefit_plans.where(plan_type=plan_type), key=lambda p: p.plan_id)


@DOMAIN.tool
def list_enrollments(db: HRDB, employee_id: EmployeeId) -> list[Enrollment]:
    """An employee's benefit enrollments (active and ended) with per-paycheck costs."""
    _employee(db, employee_id)
    return sorted(db.enrollments.where(employee_id=employee_id), key=lambda e: e.enrollment_id)


@DOMAIN.tool
def list_life_events(db: HRDB, employee_id: EmployeeId) -> list[LifeEvent]:
    """Qualifying life events the employee has reported (marriage, birth, adoption, ...)."""
    _employee(db, employee_id)
    return sorted(db.life_events.where(employee_id=employee_id), key=lambda e: e.event_id)


@DOMAIN.tool(write=True)
def add_dependent(
    db: HRDB,
    employee_id: EmployeeId,
    name: Annotated[str, Field(description="the dependent's full name")],
    relationship: Literal["spouse", "domestic_partner", "child"],
    date_of_birth: IsoDate,
    document_id: Annotated[str, Field(description="the verified certificate on file that supports the dependent")],
) -> Employee:
    """Add a dependent to the employee's record, backed by a verified document of the matching kind
    (marriage certificate for a spouse, partnership affidavit for a domestic partner, birth certificate or adoption
    decree for a child)."""
    emp = _employee(db, employee_id)
    doc = db.documents.get(document_id)
    if doc is None or doc.employee_id != employee_id:
        raise ToolError(f"employee {employee_id} has no document {document_id!r}")
    if doc.doc_type not in DEPENDENT_DOCS[relationship]:
        raise ToolError(f"a {doc.doc_type} does not support adding a {relationship}")
    if doc.status != "verified":
        raise ToolError(f"document {document_id} is {doc.status}, not verified")
    if any(d.supporting_document_id == document_id for d in emp.dependents):
        raise ToolError(f"document {document_id} already supports a dependent")
    if relationship in ("spouse", "domestic_partner") and any(d.relationship in ("spouse", "domestic_partner") for d in emp.dependents):
        raise ToolError("a spouse or domestic partner is already on file")
    _date(date_of_birth, "date_of_birth")
    emp.dependents.append(Dependent(name=name, relationship=relationship, date_of_birth=date_of_birth,
                                    supporting_document_id=document_id))
    return emp


@DOMAIN.tool(write=True)
def enroll_in_plan(
    db: HRDB,
    employee_id: EmployeeId,
    plan_id: Annotated[str, Field(description="e.g. 'MED-PPO'")],
    coverage_level: Literal["employee", "employee_spouse", "employee_children", "family"],
    basis: Annotated[str, Field(description="'new_hire', or the id of the qualifying life event (e.g. 'QLE-3012')")],
) -> dict:
    """Enroll in a plan outside open enrollment. Allowed within 30 days of the hire date (basis 'new_hire') or of a
    reported qualifying life event. Any active plan of the same type ends on 2026-05-31; the new coverage starts
    2026-06-01. The coverage level must match the dependents on file. Returns the per-paycheck cost (26 paychecks)."""
    emp = _employee(db, employee_id)
    plan = db.benefit_plans.get(plan_id)
    if plan is None:
        raise ToolError(f"no plan {plan_id!r}")
    if basis == "new_hire":
        if (TODAY - date.fromisoformat(emp.hire_date)).days > 30:
            raise ToolError(f"hired {emp.hire_date}: the 30-day new-hire window has closed")
    else:
        event = db.life_events.get(basis)
        if event is None or event.employee_id != employee_id:
            raise ToolError(f"employee {employee_id} has no life event {basis!r}")
        if (TODAY - date.fromisoformat(event.event_date)).days > 30:
            raise ToolError(f"life event {basis} was on {event.event_date}: the 30-day window has closed")
    rels = {d.relationship for d in emp.dependents}
    spouse, child = bool(rels & {"spouse", "domestic_partner"}), "child" in rels
    needs = {"employee": (False, False), "employee_spouse": (True, False), "employee_children": (False, True), "family": (True, True)}[coverage_level]
    if (needs[0] and not spouse) or (needs[1] and not child):
        raise ToolError(f"coverage level {coverage_level} needs a spouse/partner and/or child on file as dependents")
    mine = sorted(db.enrollments.where(employee_id=employee_id), key=lambda e: e.enrollment_id)
    for enr in mine:
        if enr.employee_id == employee_id and enr.status == "active" and enr.plan_type == plan.plan_type and enr.plan_id == plan_id \
                and enr.coverage_level == coverage_level:
            raise ToolError(f"already enrolled in {plan_id} at {coverage_level} ({enr.enrollment_id})")
    ended = []
    for enr in mine:
        key = enr.enrollment_id  # the record's key
        if enr.employee_id == employee_id and enr.status == "active" and enr.plan_type == plan.plan_type:
            old = db.enrollments[key]
            old.status, old.end_date = "ended", BENEFITS_PRIOR_END
            ended.append(key)
    share = plan.employer_share_full_time if emp.employment_type == "full_time" else plan.employer_share_part_time
    cost = round(plan.monthly_premium[coverage_level] * 12 * (1 - share) / 26, 2)
    eid = f"ENR-{60001 + len(db.enrollments)}"
    db.enrollments[eid] = Enrollment(enrollment_id=eid, employee_id=employee_id, plan_id=plan_id, plan_type=plan.plan_type,
                                     coverage_level=coverage_level, per_paycheck_cost=cost, effective_date=BENEFITS_EFFECTIVE,
                                     status="active", basis=basis)
    return {"enrollment": db.enrollments[eid].model_dump(), "ended_enrollments": ended, "per_paycheck_cost": cost}


# ----------------------------------------------------------------------------- misc


@DOMAIN.tool
def calculate(db: HRDB, expression: Annotated[str, Field(description="arithmetic with numbers, + - * / and parentheses")]) -> str:
    """Evaluate an arithmetic expression; the result is rounded to 2 decimals."""
    return _calculate(expression)


@DOMAIN.tool(transfer=True)
def transfer_to_human_agents(
    db: HRDB, summary: Annotated[str, Field(description="who the employee is and what they need")],
) -> str:
    """Hand the call to a human HR specialist (payroll, leave team, recruiter, benefits) with a summary."""
    return "Transfer successful"
