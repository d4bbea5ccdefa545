"""Granite & Gable Builders, the permit and project office desk of a residential general contractor.
Callers are property owners (their projects, permits, inspections, change orders) and subcontractors
(their subcontracts, payment applications, lien waivers, and inspections of their trade). Anyone on a
project may report a site-safety incident. The policy fixes the current time: Tuesday 2026-04-14 09:00.

The tools refuse only what the data makes impossible (no such record, a slot already taken, an
inspection already passed, a change order already decided, a pay application already paid). The
policy's rules (who may ask, inspection sequence, notice, documents, thresholds, lien waivers) are the
agent's to apply. Every fee, figure and date the caller must hear comes from a tool.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import after_now, area_codes_valid, cents, half_up, not_after_now, ordered, plausible_age
from tests_domains.construction.schema import (
    ChangeOrder,
    ConstructionDB,
    Incident,
    Inspection,
    LienWaiver,
    PayApp,
    Permit,
    Project,
    Subcontract,
)

DOMAIN = Domain("construction", ConstructionDB, now=datetime(2026, 4, 14, 9, 0))

HOLIDAYS = {date(2026, 5, 25), date(2026, 7, 3), date(2026, 9, 7), date(2026, 11, 26), date(2026, 11, 27), date(2026, 12, 25),
            date(2027, 1, 1)}
DISCIPLINE = {"rough_electrical": "electrical", "rough_plumbing": "plumbing", "rough_mechanical": "mechanical"}
CODE = {"footing": "FTG", "foundation": "FND", "framing": "FRM", "rough_electrical": "REL", "rough_plumbing": "RPL",
        "rough_mechanical": "RME", "insulation": "INS", "drywall": "DRW", "final": "FIN"}
PERMIT_PREFIX = {"building": "BLD", "electrical": "ELE", "plumbing": "PLM", "mechanical": "MEC", "demolition": "DEM"}

InspectionKind = Literal["footing", "foundation", "framing", "rough_electrical", "rough_plumbing", "rough_mechanical",
                         "insulation", "drywall", "final"]
PermitKindName = Literal["building", "electrical", "plumbing", "mechanical", "demolition"]
ProjectId = Annotated[str, Field(description="the job number, e.g. 'GG-24117' (from find_owner, find_subcontractor or find_project)")]
SubcontractId = Annotated[str, Field(description="a subcontract id, e.g. 'SC-24117-ELE' (from find_subcontractor)")]
PayAppId = Annotated[str, Field(description="a payment application id, e.g. 'PA-24117-ELE-04' (from get_subcontract)")]
WaiverId = Annotated[str, Field(description="a lien waiver id, e.g. 'LW-24117-ELE-04C' (from list_lien_waivers)")]
ChangeOrderId = Annotated[str, Field(description="a change order id, e.g. 'CO-24117-03' (from list_change_orders)")]
IsoDate = Annotated[str, Field(description="a date as YYYY-MM-DD")]


# -- helpers --------------------------------------------------------------------------------------------
def _money(value: float) -> float:
    return float(half_up(value))  # half a cent up (round() on floats took 4468.025 down)


def _today() -> date:
    return DOMAIN.today


def _date(value: str, what: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise ToolError(f"{what} {value[:40]!r} is not a date in the form YYYY-MM-DD") from None


def _time(value: str) -> str:
    try:
        return datetime.strptime(value.strip(), "%H:%M").strftime("%H:%M")
    except ValueError:
        raise ToolError(f"{value[:20]!r} is not a time in the form HH:MM (24-hour)") from None


def _workdays(start: date, days: int) -> date:
    step = 1 if days >= 0 else -1
    day, left = start, abs(days)
    while left:
        day += timedelta(days=step)
        if day.weekday() < 5 and day not in HOLIDAYS:
            left -= 1
    return day


def _fold(text: str) -> str:
    return " ".join(text.split()).lower()


def _project(db: ConstructionDB, project_id: str) -> Project:
    return db.projects.require(project_id.strip().upper())


def _inspector_name(db: ConstructionDB, inspector_id: str | None) -> str | None:
    if not inspector_id:
        return None
    ins = db.inspectors.get(inspector_id)
    return f"{ins.first_name} {ins.last_name}" if ins else None


def _project_summary(p: Project) -> dict[str, Any]:
    return {"project_id": p.project_id, "name": p.name, "site_address": f"{p.site_address}, {p.city}, CA {p.zip_code}",
            "project_type": p.project_type, "status": p.status}


def _inspection_view(db: ConstructionDB, i: Inspection) -> dict[str, Any]:
    view: dict[str, Any] = i.model_dump(mode="json")
    view["inspector_name"] = _inspector_name(db, i.inspector_id)
    view["history"] = [{**h.model_dump(mode="json"), "inspector_name": _inspector_name(db, h.inspector_id)}
                       for h in sorted(i.history, key=lambda h: h.date)]
    return view


def _sub_totals(db: ConstructionDB, sc: Subcontract) -> dict[str, Any]:
    apps = [a for a in db.pay_apps.where(subcontract_id=sc.subcontract_id) if a.status != "rejected"]
    billed = _money(sum(a.amount_billed for a in apps))
    return {"billed_to_date": billed,
            "retainage_held_to_date": _money(sum(a.retainage_withheld for a in apps)),
            "paid_to_date": _money(sum(a.net_due for a in apps if a.status == "paid")),
            "balance_to_bill": _money(sc.contract_amount - billed)}


def _retainage(amount: float, pct: float, billed_before: float, contract: float) -> tuple[float, float, float]:
    """Retainage at the full rate on billing up to half the subcontract, at half the rate beyond it."""
    half = contract / 2
    full_part = max(0.0, min(amount, half - billed_before))
    rest = amount - full_part
    return _money(full_part), _money(rest), _money(full_part * pct / 100 + rest * pct / 200)


# -- callers and projects ---------------------------------------------------------------------------------
@DOMAIN.tool(authenticates=True)
def find_owner(
    db: ConstructionDB,
    email: Annotated[str, Field(description="the owner's email address on file")],
    last_name: str,
    date_of_birth: Annotated[str, Field(description="the owner's date of birth, YYYY-MM-DD")],
) -> dict[str, Any]:
    """Verify a property owner: the owner whose email, last name and date of birth all match. Returns the
    owner's profile and their projects."""
    for o in db.owners.find(email=email):
        if o.last_name.lower() == last_name.strip().lower() and o.date_of_birth == date_of_birth.strip():
            view: dict[str, Any] = o.model_dump(mode="json")
            view["projects"] = [_project_summary(p) for p in sorted(db.projects.where(owner_id=o.owner_id), key=lambda p: p.project_id)]
            return view
    raise ToolError("no owner matches that email, last name and date of birth; the caller is not verified")


@DOMAIN.tool(authenticates=True)
def find_subcontractor(
    db: ConstructionDB,
    company_name: Annotated[str, Field(description="the subcontractor's company name, e.g. 'Redwire Electric'")],
    email: Annotated[str, Field(description="the contact email on file")],
    license_number: Annotated[str, Field(description="the state contractor's license number, e.g. 'CSLB 1048372'")],
) -> dict[str, Any]:
    """Verify a subcontractor: the company whose name, contact email and license number all match. Returns
    the company and its subcontracts with Granite & Gable (project, scope, amount, retainage rate)."""
    digits = "".join(ch for ch in license_number if ch.isdigit())
    for s in db.subcontractors.find(email=email):
        if _fold(s.company_name) == _fold(company_name) and digits and "".join(ch for ch in s.license_number if ch.isdigit()) == digits:
            view: dict[str, Any] = s.model_dump(mode="json")
            subs = []
            for sc in sorted(db.subcontracts.where(sub_id=s.sub_id), key=lambda x: x.subcontract_id):
                p = db.projects.require(sc.project_id)
                subs.append({**sc.model_dump(mode="json"), "project_name": p.name,
                             "site_address": f"{p.site_address}, {p.city}, CA {p.zip_code}"})
            view["subcontracts"] = subs
            return view
    raise ToolError("no subcontractor matches that company name, email and license number; the caller is not verified")


@DOMAIN.tool
def find_project(
    db: ConstructionDB, site_address: Annotated[str, Field(description="the street address of the job site, e.g. '4410 Oak Ave'")],
) -> list[dict[str, Any]]:
    """Find projects by their site street address (number and street). Returns job numbers, names and status."""
    wanted = _fold(site_address).split(",")[0].strip()
    if len(wanted) < 4:
        raise ToolError("give at least the house number and street")
    out = [_project_summary(p) for p in sorted(db.projects.values(), key=lambda p: p.project_id) if wanted in _fold(p.site_address)]
    if not out:
        raise ToolError("no project at that address")
    return out


@DOMAIN.tool
def get_project(db: ConstructionDB, project_id: ProjectId) -> dict[str, Any]:
    """Return a project: owner id, type, site, status, project manager, original and current contract
    value, start and scheduled completion dates, its inspection plan (the inspections its work needs) and
    its phases."""
    return _project(db, project_id).model_dump(mode="json")


# -- permits ------------------------------------------------------------------------------------------------
@DOMAIN.tool
def get_permit_requirements(db: ConstructionDB, permit_type: PermitKindName) -> dict[str, Any]:
    """Return what a permit type covers, the documents an application needs (by document type), and how
    long an issued permit stays valid."""
    kind = db.permit_kinds.require(permit_type)
    return {"permit_type": kind.permit_type, "description": kind.description, "required_documents": kind.required_documents,
            "valid_days": kind.valid_days}


@DOMAIN.tool
def list_project_documents(db: ConstructionDB, project_id: ProjectId) -> list[dict[str, Any]]:
    """List the documents on file for a project: type, title, date received, expiry date (if any) and
    review status."""
    p = _project(db, project_id)
    return [d.model_dump(mode="json") for d in sorted(db.documents.where(project_id=p.project_id), key=lambda d: d.document_id)]


@DOMAIN.tool
def list_permits(db: ConstructionDB, project_id: ProjectId) -> list[dict[str, Any]]:
    """List a project's permits: type, status, dates applied, issued and expiring, and the fee paid."""
    p = _project(db, project_id)
    return [x.model_dump(mode="json") for x in sorted(db.permits.where(project_id=p.project_id), key=lambda x: x.permit_id)]


def _permit_terms(db: ConstructionDB, p: Project, permit_type: str) -> dict[str, Any]:
    kind = db.permit_kinds.require(permit_type)
    for other in db.permits.where(project_id=p.project_id):
        if other.permit_type == permit_type and other.status in ("submitted", "issued"):
            raise ToolError(f"project {p.project_id} already has a {other.status} {permit_type} permit ({other.permit_id})")
    return {"project_id": p.project_id, "permit_type": permit_type, "valuation": p.contract_value,
            "permit_fee": _money(kind.base_fee + kind.fee_per_thousand * p.contract_value / 1000),
            "required_documents": kind.required_documents}


@DOMAIN.tool
def quote_permit_fee(db: ConstructionDB, project_id: ProjectId, permit_type: PermitKindName) -> dict[str, Any]:
    """Preview a permit application (nothing changes): the valuation used (the current contract value)
    and the permit fee."""
    return _permit_terms(db, _project(db, project_id), permit_type)


@DOMAIN.tool(write=True)
def submit_permit_application(db: ConstructionDB, project_id: ProjectId, permit_type: PermitKindName) -> dict[str, Any]:
    """File a permit application with the building department for a project, paying the quoted fee."""
    p = _project(db, project_id)
    terms = _permit_terms(db, p, permit_type)
    key = db.permits.new_key(f"{PERMIT_PREFIX[permit_type]}-26-", p.project_id, permit_type, length=6)
    db.permits[key] = Permit(permit_id=key, project_id=p.project_id, permit_type=permit_type, status="submitted",
                             applied_on=_today().isoformat(), fee=terms["permit_fee"])
    return db.permits[key].model_dump(mode="json")


# -- inspections ---------------------------------------------------------------------------------------------
@DOMAIN.tool
def list_inspections(db: ConstructionDB, project_id: ProjectId) -> dict[str, Any]:
    """List a project's inspection plan and its inspections: status (scheduled, passed, failed,
    cancelled), the booked slot, and each attempt's date, inspector and result."""
    p = _project(db, project_id)
    found = sorted(db.inspections.where(project_id=p.project_id), key=lambda i: p.inspection_plan.index(i.inspection_type)
                   if i.inspection_type in p.inspection_plan else 99)
    return {"project_id": p.project_id, "inspection_plan": p.inspection_plan, "inspections": [_inspection_view(db, i) for i in found]}


def _qualified(db: ConstructionDB, p: Project, inspection_type: str) -> set[str]:
    discipline = DISCIPLINE.get(inspection_type, "building")
    return {i.inspector_id for i in db.inspectors.values() if discipline in i.disciplines and p.city in i.cities}


@DOMAIN.tool
def search_inspection_slots(
    db: ConstructionDB,
    project_id: ProjectId,
    inspection_type: InspectionKind,
    from_date: Annotated[str, Field(description="the first day to search, YYYY-MM-DD")],
    inspector_id: Annotated[str | None, Field(description="only this inspector's slots, e.g. 'INS-07'")] = None,
) -> list[dict[str, Any]]:
    """Search the inspectors' calendar: open slots from from_date on, earliest first (at most 15), of the
    inspectors who do this kind of inspection and cover the project's city."""
    p = _project(db, project_id)
    start = _date(from_date, "from_date")
    who = _qualified(db, p, inspection_type)
    if inspector_id:
        ins = db.inspectors.require(inspector_id.strip().upper())
        if ins.inspector_id not in who:
            raise ToolError(f"inspector {ins.inspector_id} does not do {inspection_type} inspections in {p.city}")
        who = {ins.inspector_id}
    out = []
    slots = sorted((s for s in db.slots.values() if s.status == "open" and s.inspector_id in who and s.date >= start.isoformat()
                    and s.date > _today().isoformat()), key=lambda s: (s.date, s.start_time, s.inspector_id))
    for s in slots[:15]:
        view: dict[str, Any] = s.model_dump(mode="json")
        view["weekday"] = date.fromisoformat(s.date).strftime("%A")
        view["inspector_name"] = _inspector_name(db, s.inspector_id)
        out.append(view)
    return out


@DOMAIN.tool(write=True)
def schedule_inspection(
    db: ConstructionDB, project_id: ProjectId, inspection_type: InspectionKind,
    slot_id: Annotated[str, Field(description="an open slot id, e.g. 'SL-INS07-0416-0930' (from search_inspection_slots)")],
) -> dict[str, Any]:
    """Book an inspection of a project into an open slot of an inspector's calendar."""
    p = _project(db, project_id)
    if inspection_type not in p.inspection_plan:
        raise ToolError(f"a {inspection_type} inspection is not part of project {p.project_id}'s work")
    slot = db.slots.require(slot_id.strip().upper())
    if slot.status != "open":
        raise ToolError(f"slot {slot.slot_id} is already taken")
    if slot.inspector_id not in _qualified(db, p, inspection_type):
        raise ToolError(f"inspector {slot.inspector_id} does not do {inspection_type} inspections in {p.city}")
    key = f"IN-{p.project_id[3:]}-{CODE[inspection_type]}"
    existing = db.inspections.get(key)
    if existing and existing.status == "passed":
        raise ToolError(f"the {inspection_type} inspection of {p.project_id} has already passed")
    if existing and existing.status == "scheduled":
        raise ToolError(f"the {inspection_type} inspection of {p.project_id} is already booked for {existing.date} {existing.start_time}")
    record = existing or Inspection(inspection_id=key, project_id=p.project_id, inspection_type=inspection_type, status="scheduled")
    record.status, record.slot_id, record.date = "scheduled", slot.slot_id, slot.date
    record.start_time, record.inspector_id = slot.start_time, slot.inspector_id
    db.inspections[key] = record
    slot.status = "booked"
    db.slots[slot.slot_id] = slot
    return _inspection_view(db, db.inspections[key])


@DOMAIN.tool(write=True)
def cancel_inspection(db: ConstructionDB, inspection_id: Annotated[str, Field(description="an inspection id (from list_inspections)")]) -> dict[str, Any]:
    """Cancel a scheduled inspection and give its slot back to the inspector's calendar."""
    i = db.inspections.require(inspection_id.strip().upper())
    if i.status != "scheduled" or not i.slot_id:
        raise ToolError(f"inspection {i.inspection_id} is not scheduled (it is {i.status})")
    slot = db.slots.require(i.slot_id)
    slot.status = "open"
    db.slots[slot.slot_id] = slot
    i.status, i.slot_id, i.date, i.start_time, i.inspector_id = "cancelled", None, None, None, None
    db.inspections[i.inspection_id] = i
    return _inspection_view(db, i)


# -- change orders -----------------------------------------------------------------------------------------------
@DOMAIN.tool
def list_change_orders(db: ConstructionDB, project_id: ProjectId) -> list[dict[str, Any]]:
    """List a project's change orders: title, who asked for it, cost change, working days added, status
    and decision date."""
    p = _project(db, project_id)
    return [c.model_dump(mode="json") for c in sorted(db.change_orders.where(project_id=p.project_id), key=lambda c: c.change_order_id)]


def _co(db: ConstructionDB, change_order_id: str) -> ChangeOrder:
    co = db.change_orders.require(change_order_id.strip().upper())
    if co.status != "pending_owner":
        raise ToolError(f"change order {co.change_order_id} was already {co.status} on {co.decided_on}")
    return co


def _co_terms(db: ConstructionDB, co: ChangeOrder) -> dict[str, Any]:
    p = db.projects.require(co.project_id)
    approved = _money(sum(c.cost_change for c in db.change_orders.where(project_id=p.project_id) if c.status == "approved"))
    after = _money(approved + co.cost_change)
    return {"change_order_id": co.change_order_id, "project_id": p.project_id, "cost_change": co.cost_change,
            "schedule_days": co.schedule_days, "original_contract_value": p.original_contract_value,
            "current_contract_value": p.contract_value, "new_contract_value": _money(p.contract_value + co.cost_change),
            "approved_changes_to_date": approved, "approved_changes_after": after,
            "cumulative_change_pct_of_original": round(after / p.original_contract_value * 100, 2),
            "current_completion": p.scheduled_completion,
            "new_completion": _workdays(date.fromisoformat(p.scheduled_completion), co.schedule_days).isoformat()}


@DOMAIN.tool
def quote_change_order(db: ConstructionDB, change_order_id: ChangeOrderId) -> dict[str, Any]:
    """Preview approving a pending change order (nothing changes): the new contract value, the new
    scheduled completion date (working days added), and approved changes as a share of the original
    contract value."""
    return _co_terms(db, _co(db, change_order_id))


@DOMAIN.tool(write=True)
def approve_change_order(db: ConstructionDB, change_order_id: ChangeOrderId) -> dict[str, Any]:
    """Record the owner's approval of a pending change order: the contract value and scheduled completion
    change as quoted."""
    co = _co(db, change_order_id)
    terms = _co_terms(db, co)
    co.status, co.decided_on = "approved", _today().isoformat()
    db.change_orders[co.change_order_id] = co
    p = db.projects.require(co.project_id)
    p.contract_value, p.scheduled_completion = terms["new_contract_value"], terms["new_completion"]
    db.projects[p.project_id] = p
    return terms


@DOMAIN.tool(write=True)
def reject_change_order(
    db: ConstructionDB, change_order_id: ChangeOrderId,
    reason: Annotated[FreeText, Field(description="the owner's reason, in a few words")],
) -> dict[str, Any]:
    """Record the owner's rejection of a pending change order; the contract does not change."""
    co = _co(db, change_order_id)
    co.status, co.decided_on, co.decision_note = "rejected", _today().isoformat(), " ".join(reason.split())[:300]
    db.change_orders[co.change_order_id] = co
    return co.model_dump(mode="json")


# -- subcontracts, payment applications, lien waivers -------------------------------------------------------
def _sc(db: ConstructionDB, subcontract_id: str) -> Subcontract:
    return db.subcontracts.require(subcontract_id.strip().upper())


@DOMAIN.tool
def get_subcontract(db: ConstructionDB, subcontract_id: SubcontractId) -> dict[str, Any]:
    """Return a subcontract with its payment applications and totals: billed to date, retainage held,
    paid to date and the balance left to bill."""
    sc = _sc(db, subcontract_id)
    view: dict[str, Any] = sc.model_dump(mode="json")
    view.update(_sub_totals(db, sc))
    view["pay_apps"] = [a.model_dump(mode="json") for a in sorted(db.pay_apps.where(subcontract_id=sc.subcontract_id), key=lambda a: a.number)]
    return view


def _pay_terms(db: ConstructionDB, sc: Subcontract, amount: float) -> dict[str, Any]:
    if sc.status != "active":
        raise ToolError(f"subcontract {sc.subcontract_id} is {sc.status}")
    totals = _sub_totals(db, sc)
    amount = _money(amount)
    full, reduced, withheld = _retainage(amount, sc.retainage_pct, totals["billed_to_date"], sc.contract_amount)
    return {"subcontract_id": sc.subcontract_id, "amount_billed": amount, "retainage_pct": sc.retainage_pct,
            "billed_at_full_retainage": full, "billed_at_half_retainage": reduced, "retainage_withheld": withheld,
            "net_due": _money(amount - withheld), "billed_to_date_before": totals["billed_to_date"],
            "billed_to_date_after": _money(totals["billed_to_date"] + amount),
            "balance_to_bill_after": _money(sc.contract_amount - totals["billed_to_date"] - amount)}


Amount = Annotated[float, Field(description="value of work completed in the period, in dollars", gt=0, lt=10_000_000)]


@DOMAIN.tool
def quote_pay_application(db: ConstructionDB, subcontract_id: SubcontractId, amount_billed: Amount) -> dict[str, Any]:
    """Preview a payment application (nothing changes): retainage withheld, net amount due, and billed to
    date and balance left afterwards."""
    return _pay_terms(db, _sc(db, subcontract_id), amount_billed)


@DOMAIN.tool(write=True)
def submit_pay_application(
    db: ConstructionDB, subcontract_id: SubcontractId,
    period_end: Annotated[str, Field(description="the last day of the month billed, YYYY-MM-DD")], amount_billed: Amount,
) -> dict[str, Any]:
    """Submit a subcontractor's payment application for a month's work, with retainage withheld as quoted;
    it waits for the project manager's approval."""
    sc = _sc(db, subcontract_id)
    end = _date(period_end, "period_end")
    terms = _pay_terms(db, sc, amount_billed)
    number = 1 + max((a.number for a in db.pay_apps.where(subcontract_id=sc.subcontract_id)), default=0)
    key = f"PA-{sc.subcontract_id[3:]}-{number:02d}"
    db.pay_apps[key] = PayApp(pay_app_id=key, subcontract_id=sc.subcontract_id, number=number, period_end=end.isoformat(),
                              amount_billed=terms["amount_billed"], retainage_withheld=terms["retainage_withheld"],
                              net_due=terms["net_due"], status="submitted", submitted_on=_today().isoformat())
    return {**terms, "pay_app_id": key, "number": number, "period_end": end.isoformat(), "status": "submitted"}


@DOMAIN.tool
def list_lien_waivers(db: ConstructionDB, subcontract_id: SubcontractId) -> list[dict[str, Any]]:
    """List the lien waivers on file for a subcontract: the pay application, type, amount, through date,
    signer, upload date and review status."""
    sc = _sc(db, subcontract_id)
    return [w.model_dump(mode="json") for w in sorted(db.lien_waivers.where(subcontract_id=sc.subcontract_id), key=lambda w: w.waiver_id)]


def _uploaded(db: ConstructionDB, waiver_id: str) -> LienWaiver:
    w = db.lien_waivers.require(waiver_id.strip().upper())
    if w.status != "uploaded":
        raise ToolError(f"lien waiver {w.waiver_id} was already reviewed ({w.status})")
    return w


@DOMAIN.tool(write=True)
def accept_lien_waiver(db: ConstructionDB, waiver_id: WaiverId) -> dict[str, Any]:
    """Accept an uploaded lien waiver after review."""
    w = _uploaded(db, waiver_id)
    w.status = "accepted"
    db.lien_waivers[w.waiver_id] = w
    return w.model_dump(mode="json")


@DOMAIN.tool(write=True)
def reject_lien_waiver(
    db: ConstructionDB, waiver_id: WaiverId, reason: Annotated[FreeText, Field(description="what is wrong with it, in a few words")],
) -> dict[str, Any]:
    """Reject an uploaded lien waiver after review; the subcontractor must upload a corrected one."""
    w = _uploaded(db, waiver_id)
    w.status, w.review_note = "rejected", " ".join(reason.split())[:300]
    db.lien_waivers[w.waiver_id] = w
    return w.model_dump(mode="json")


@DOMAIN.tool(write=True)
def release_payment(db: ConstructionDB, pay_app_id: PayAppId) -> dict[str, Any]:
    """Release payment of a payment application's net amount due to the subcontractor (paid today by ACH)."""
    a = db.pay_apps.require(pay_app_id.strip().upper())
    if a.status in ("paid", "rejected"):
        raise ToolError(f"payment application {a.pay_app_id} is {a.status}" + (f" (on {a.paid_on})" if a.paid_on else ""))
    a.status, a.paid_on = "paid", _today().isoformat()
    db.pay_apps[a.pay_app_id] = a
    return {"pay_app_id": a.pay_app_id, "amount_paid": a.net_due, "paid_on": a.paid_on, "retainage_withheld": a.retainage_withheld}


# -- site safety ---------------------------------------------------------------------------------------------------
@DOMAIN.tool
def list_incidents(db: ConstructionDB, project_id: ProjectId) -> list[dict[str, Any]]:
    """List the site-safety incidents reported on a project."""
    p = _project(db, project_id)
    return [i.model_dump(mode="json") for i in sorted(db.incidents.where(project_id=p.project_id), key=lambda i: i.incident_id)]


@DOMAIN.tool(write=True)
def file_incident_report(
    db: ConstructionDB, project_id: ProjectId,
    reported_by: Annotated[str, Field(description="the verified caller's owner id or subcontractor id, e.g. 'OW-20418' or 'SUB-118'")],
    category: Literal["near_miss", "first_aid", "recordable_injury", "property_damage"],
    occurred_on: IsoDate,
    occurred_at: Annotated[str, Field(description="the time it happened, HH:MM (24-hour)")],
    injured_persons: Annotated[int, Field(description="how many people were hurt", ge=0, le=50)],
    description: Annotated[FreeText, Field(description="what happened, in the caller's words")],
) -> dict[str, Any]:
    """File a site-safety incident report. Returns the incident number and the due date of the written
    investigation report."""
    p = _project(db, project_id)
    who = reported_by.strip().upper()
    if who not in db.owners and who not in db.subcontractors:
        raise ToolError(f"no owner or subcontractor {who!r}")
    day, at = _date(occurred_on, "occurred_on"), _time(occurred_at)
    if datetime.fromisoformat(f"{day.isoformat()}T{at}") > DOMAIN.now:
        raise ToolError("that time is in the future")
    key = db.incidents.new_key(f"INC-{p.project_id[3:]}-", day.isoformat(), at, category, length=4)
    due = _workdays(day, 3 if category == "recordable_injury" else 5)
    db.incidents[key] = Incident(incident_id=key, project_id=p.project_id, reported_by=who, category=category,
                                 occurred_on=day.isoformat(), occurred_at=at, injured_persons=injured_persons,
                                 description=" ".join(description.split())[:1000], filed_on=_today().isoformat(),
                                 follow_up_due=due.isoformat(), status="open")
    return db.incidents[key].model_dump(mode="json")


# -- data invariants: pay applications by the retainage rule, and the clock ----------------
DOMAIN.invariants(
    not_after_now("pay_apps", "submitted_on"),
    not_after_now("pay_apps", "approved_on"),
    not_after_now("pay_apps", "paid_on"),
    ordered("pay_apps", "period_end", "submitted_on"),
    ordered("pay_apps", "submitted_on", "approved_on"),
    ordered("pay_apps", "approved_on", "paid_on"),
    not_after_now("permits", "applied_on"),
    not_after_now("permits", "issued_on"),
    ordered("permits", "applied_on", "issued_on"),
    not_after_now("change_orders", "submitted_on"),
    not_after_now("change_orders", "decided_on"),
    not_after_now("documents", "received_on"),
    not_after_now("incidents", "occurred_on"),
    ordered("incidents", "occurred_on", "filed_on"),
    not_after_now("inspections", "history[].date"),
    after_now("slots", "date", where=lambda slot: slot.status == "open"),
    plausible_age("owners", "date_of_birth", low=18, high=100),
    cents("pay_apps", "amount_billed"),
    cents("pay_apps", "net_due"),
    cents("lien_waivers", "amount"),
    area_codes_valid("owners", "phone"),
    area_codes_valid("subcontractors", "phone"),
    area_codes_valid("inspectors", "phone"),
)


@DOMAIN.invariant
def _retainage_by_the_rule(db: ConstructionDB, now: datetime) -> Any:
    """pay applications withhold retainage by the rule, rounded half-up, and net = billed - retainage"""
    by_sub: dict[str, list[PayApp]] = {}
    for app in db.pay_apps.values():
        by_sub.setdefault(app.subcontract_id, []).append(app)
    for sub_id, apps in by_sub.items():
        sc = db.subcontracts[sub_id]
        billed = 0.0
        for app in sorted(apps, key=lambda a: a.number):
            expected = _retainage(app.amount_billed, sc.retainage_pct, billed, sc.contract_amount)[2]
            if app.retainage_withheld != expected:
                yield f"pay_apps[{app.pay_app_id!r}]: retainage {app.retainage_withheld}, the rule gives {expected}"
            if half_up(app.amount_billed) - half_up(app.retainage_withheld) != half_up(app.net_due):
                yield f"pay_apps[{app.pay_app_id!r}]: net {app.net_due} is not billed {app.amount_billed} - retainage {app.retainage_withheld}"
            if app.status != "rejected":
                billed += app.amount_billed


# Policy 5, 8 and 10: the documents are checked and the figures quoted before the write they go with.
DOMAIN.order("list_project_documents", "submit_permit_application")
DOMAIN.order("quote_permit_fee", "submit_permit_application")
DOMAIN.order("search_inspection_slots", "schedule_inspection")
DOMAIN.order("quote_change_order", "approve_change_order")
DOMAIN.order("quote_pay_application", "submit_pay_application")
DOMAIN.order("accept_lien_waiver", "release_payment")  # 26: an accepted waiver on file before the release
