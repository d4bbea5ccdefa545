"""Relaypoint, a web-task desk: form submissions on simulated sites, page monitors with change
alerts, and extraction jobs, for account holders. The policy fixes the current time:
2026-06-10 09:30 UTC.

Sites, pages and forms are records in the DB: nothing is fetched, run or opened. The tools
refuse only what the data makes impossible (no such record, not this customer's, a field the
form does not have, a monitor already deleted); the policy's rules (robots rules, plan limits,
validation of values, who may ask, confirmations) are the agent's to apply.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pytest_tau import Domain, ToolError
from pytest_tau.invariants import area_codes_valid, cents, not_after_now, ordered, plausible_age
from tests_domains.web_automation.schema import (
    PLANS,
    ChangeAlert,
    Charge,
    Customer,
    ExtractionJob,
    FieldValue,
    Monitor,
    Page,
    Site,
    Submission,
    WebDB,
)

DOMAIN = Domain("web_automation", WebDB, now=datetime(2026, 6, 10, 9, 30))

CustomerId = Annotated[str, Field(description="the customer's id, e.g. 'RP-48213' (from find_customer)")]
SiteId = Annotated[str, Field(description="a site's id, e.g. 'S117' (from search_sites)")]
PageId = Annotated[str, Field(description="a page's id, e.g. 'PG1043' (from list_pages)")]
FormId = Annotated[str, Field(description="a form's id, e.g. 'FRM-117-1' (from list_forms)")]
MonitorId = Annotated[str, Field(description="a monitor's id, e.g. 'MON-70012' (from list_monitors)")]
JobId = Annotated[str, Field(description="an extraction job's id, e.g. 'JOB-5012' (from list_extraction_jobs)")]
PlanName = Annotated[Literal["basic", "plus", "business"], Field(description="a plan")]


class FieldInput(BaseModel):
    """One value to type into a form field."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(description="the field's name as get_form shows it, e.g. 'license_plate'")]
    value: Annotated[str, Field(description="exactly the text to enter")]


def _stamp() -> str:
    return DOMAIN.now.strftime("%Y-%m-%dT%H:%M")


def _money(x: float) -> float:
    return round(x + 0.0, 2)


def _customer(db: WebDB, customer_id: str) -> Customer:
    return db.customers.require(customer_id)


def _cycle(customer: Customer) -> tuple[date, date]:
    """The customer's current billing cycle: [start, next renewal)."""
    today = DOMAIN.today
    day = customer.billing_day
    if today.day >= day:
        start = date(today.year, today.month, day)
    else:
        start = date(today.year - (today.month == 1), (today.month - 2) % 12 + 1, day)
    nxt = date(start.year + (start.month == 12), start.month % 12 + 1, day)
    return start, nxt


def _active_monitors(db: WebDB, customer_id: str) -> int:
    return sum(1 for m in db.monitors.where(customer_id=customer_id) if m.status == "active")


def _submissions_this_month(db: WebDB, customer_id: str) -> int:
    month = DOMAIN.today.isoformat()[:7]
    return sum(1 for s in db.submissions.where(customer_id=customer_id) if s.submitted_at.startswith(month))


def _positive_int(value: int, what: str) -> None:
    if value < 1:
        raise ToolError(f"{what} must be a whole number of at least 1")


# -- customers and plans -------------------------------------------------------------------
@DOMAIN.tool(authenticates=True)
def find_customer(
    db: WebDB,
    first_name: str,
    last_name: str,
    email: Annotated[str, Field(description="the email address on the Relaypoint account")],
    date_of_birth: Annotated[str, Field(description="date of birth as YYYY-MM-DD")],
) -> Customer:
    """Authenticate a caller: the account whose holder's full name, account email and date of
    birth all match. Returns the account's profile."""
    for customer in db.customers.find(email=email.strip()):
        if (customer.first_name.lower(), customer.last_name.lower(), customer.date_of_birth) == (
            first_name.strip().lower(), last_name.strip().lower(), date_of_birth.strip()
        ):
            return customer
    raise ToolError("no account matches that name, email and date of birth; the caller is not verified")


@DOMAIN.tool
def get_account_usage(db: WebDB, customer_id: CustomerId) -> dict[str, Any]:
    """Return the account's plan with its limits, the current billing cycle, how many monitors are
    active, and how many form submissions were made this calendar month."""
    customer = _customer(db, customer_id)
    start, nxt = _cycle(customer)
    return {
        "customer_id": customer.customer_id,
        "plan": customer.plan,
        "status": customer.status,
        "plan_terms": PLANS[customer.plan].model_dump(),
        "billing_cycle_start": start.isoformat(),
        "next_renewal": nxt.isoformat(),
        "active_monitors": _active_monitors(db, customer.customer_id),
        "submissions_this_month": _submissions_this_month(db, customer.customer_id),
    }


@DOMAIN.tool
def get_plan_terms(db: WebDB) -> dict[str, Any]:
    """Return every plan's monthly price and limits."""
    return {name: terms.model_dump() for name, terms in PLANS.items()}


@DOMAIN.tool
def quote_plan_change(db: WebDB, customer_id: CustomerId, new_plan: PlanName) -> dict[str, Any]:
    """Preview a plan change (nothing changes): the prorated amount charged today for the rest
    of the current billing cycle (zero when the new plan costs less) and the new monthly price."""
    customer = _customer(db, customer_id)
    if new_plan == customer.plan:
        raise ToolError(f"the account is already on the {new_plan} plan")
    start, nxt = _cycle(customer)
    left, cycle = (nxt - DOMAIN.today).days, (nxt - start).days
    difference = PLANS[new_plan].monthly_price - PLANS[customer.plan].monthly_price
    charge = _money(max(0.0, difference) * left / cycle)
    return {
        "current_plan": customer.plan,
        "new_plan": new_plan,
        "days_left_in_cycle": left,
        "days_in_cycle": cycle,
        "prorated_charge_today": charge,
        "new_monthly_price": PLANS[new_plan].monthly_price,
        "next_renewal": nxt.isoformat(),
    }


@DOMAIN.tool(write=True)
def change_plan(db: WebDB, customer_id: CustomerId, new_plan: PlanName) -> dict[str, Any]:
    """Move the account to another plan now; an upgrade's prorated amount is charged today."""
    quote = quote_plan_change(db, customer_id, new_plan)
    customer = _customer(db, customer_id)
    customer.plan = new_plan
    charge = None
    if quote["prorated_charge_today"] > 0:
        key = db.charges.new_key("CH-UPG-", customer.customer_id, new_plan)
        charge = Charge(charge_id=key, customer_id=customer.customer_id, kind="plan_upgrade",
                        amount=quote["prorated_charge_today"], date=DOMAIN.today.isoformat(),
                        description=f"Upgrade to {new_plan} plan, prorated")
        db.charges[key] = charge
    return {"customer": customer, "charge": charge, "next_renewal": quote["next_renewal"]}


@DOMAIN.tool
def list_charges(db: WebDB, customer_id: CustomerId) -> list[Charge]:
    """List the account's charges (plan renewals, upgrades, site fees), newest first."""
    customer = _customer(db, customer_id)
    return sorted(db.charges.where(customer_id=customer.customer_id), key=lambda c: (c.date, c.charge_id), reverse=True)


# -- sites, pages, forms ---------------------------------------------------------------------
@DOMAIN.tool
def search_sites(db: WebDB, query: Annotated[str, Field(description="part of the site's name or host, e.g. 'millbrook'")]) -> list[dict[str, Any]]:
    """Find sites by part of their name or host name (at most 20)."""
    needle = " ".join(query.split()).lower()
    if not needle:
        raise ToolError("give part of a site's name or host")
    hits = [s for s in db.sites.values() if needle in s.name.lower() or needle in s.host.lower()]
    hits.sort(key=lambda s: s.site_id)
    return [{"site_id": s.site_id, "name": s.name, "host": s.host, "category": s.category} for s in hits[:20]]


@DOMAIN.tool
def get_site(db: WebDB, site_id: SiteId) -> Site:
    """Return a site's record: its robots rules (disallowed path prefixes and the crawl rate it
    permits), whether its forms show a CAPTCHA, and the path prefixes behind its login."""
    return db.sites.require(site_id)


@DOMAIN.tool
def list_pages(db: WebDB, site_id: SiteId) -> list[dict[str, Any]]:
    """List a site's known pages (path, title, kind, when the page last changed, listing size); get_page shows one's content."""
    site = db.sites.require(site_id)
    return [p.model_dump(mode="json", exclude={"items", "status_text"}, exclude_none=True)
            for p in sorted(db.pages.where(site_id=site.site_id), key=lambda p: p.path)]


@DOMAIN.tool
def list_forms(db: WebDB, site_id: SiteId) -> list[dict[str, Any]]:
    """List a site's forms with the path of the page each one is on and its site fee."""
    site = db.sites.require(site_id)
    forms = sorted(db.forms.where(site_id=site.site_id), key=lambda f: f.form_id)
    return [{"form_id": f.form_id, "name": f.name, "path": db.pages.require(f.page_id).path, "site_fee": f.site_fee} for f in forms]


@DOMAIN.tool
def get_form(db: WebDB, form_id: FormId) -> dict[str, Any]:
    """Return a form: its page path, site fee and every field with its validation rules
    (required, personal data, max length, allowed values, date format)."""
    form = db.forms.require(form_id)
    result: dict[str, Any] = form.model_dump(mode="json", exclude_none=True)
    result["path"] = db.pages.require(form.page_id).path
    return result


@DOMAIN.tool(write=True)
def submit_form(
    db: WebDB,
    customer_id: CustomerId,
    form_id: FormId,
    values: Annotated[list[FieldInput], Field(description="the fields to fill, each once; fields left out stay empty")],
) -> Submission:
    """Fill in and submit a form on the customer's behalf with exactly these values. The form's
    site fee, if any, is charged to the account."""
    customer = _customer(db, customer_id)
    form = db.forms.require(form_id)
    known = {f.name for f in form.fields}
    names = [v.name for v in values]
    for name in names:
        if name not in known:
            raise ToolError(f"form {form.form_id} has no field {name!r}; its fields are {sorted(known)}")
    if len(set(names)) != len(names):
        raise ToolError("each field may be given only once")
    if not values:
        raise ToolError("give at least one field value")
    filled = sorted((v.name, v.value) for v in values)
    key = db.submissions.new_key("SUB-", customer.customer_id, form.form_id, *[f"{n}={v}" for n, v in filled])
    submission = Submission(
        submission_id=key, customer_id=customer.customer_id, form_id=form.form_id,
        values=[FieldValue(name=v.name, value=v.value) for v in values], submitted_at=_stamp(), status="submitted",
        fee_charged=form.site_fee,
    )
    db.submissions[key] = submission
    if form.updates_page is not None:
        _post_status(db, form.updates_page, f"{form.name}: request {key} received {DOMAIN.today.isoformat()}.")
    if form.site_fee > 0:
        charge_key = db.charges.new_key("CH-FEE-", key)
        db.charges[charge_key] = Charge(charge_id=charge_key, customer_id=customer.customer_id, kind="site_fee",
                                        amount=form.site_fee, date=DOMAIN.today.isoformat(),
                                        description=f"Site fee: {form.name} ({key})")
    return submission


def _post_status(db: WebDB, page_id: str, text: str) -> None:
    """The site changes a status page; every active monitor on it whose keyword (if any) the new text
    contains detects the change at once and alerts its customer."""
    page = db.pages.require(page_id)
    page.status_text, page.last_changed_at = text, _stamp()
    db.pages[page.page_id] = page
    for watcher in sorted(db.monitors.where(page_id=page.page_id), key=lambda m: m.monitor_id):
        if watcher.status != "active" or (watcher.keyword and watcher.keyword.casefold() not in text.casefold()):
            continue
        alert_id = db.change_alerts.new_key("CHG-", watcher.monitor_id, page.last_changed_at, text)
        db.change_alerts[alert_id] = ChangeAlert(alert_id=alert_id, monitor_id=watcher.monitor_id, detected_at=page.last_changed_at,
                                                 summary=f"{page.title}: {text}")


@DOMAIN.tool
def list_submissions(db: WebDB, customer_id: CustomerId) -> list[dict[str, Any]]:
    """List the customer's form submissions, newest first, with the form's and site's names."""
    customer = _customer(db, customer_id)
    subs = sorted(db.submissions.where(customer_id=customer.customer_id), key=lambda s: (s.submitted_at, s.submission_id), reverse=True)
    out = []
    for s in subs:
        form = db.forms.require(s.form_id)
        out.append({**s.model_dump(mode="json"), "form_name": form.name, "site_name": db.sites.require(form.site_id).name})
    return out


# -- monitors ----------------------------------------------------------------------------------
def _monitor_view(db: WebDB, m: Monitor) -> dict[str, Any]:
    page = db.pages.require(m.page_id)
    return {**m.model_dump(mode="json"), "site_id": page.site_id, "site_name": db.sites.require(page.site_id).name,
            "path": page.path, "page_title": page.title}


@DOMAIN.tool
def list_monitors(db: WebDB, customer_id: CustomerId) -> list[dict[str, Any]]:
    """List the customer's monitors (active, paused and deleted) with the site and page each watches."""
    customer = _customer(db, customer_id)
    return [_monitor_view(db, m) for m in sorted(db.monitors.where(customer_id=customer.customer_id), key=lambda m: m.monitor_id)]


@DOMAIN.tool
def list_change_alerts(db: WebDB, monitor_id: MonitorId) -> list[ChangeAlert]:
    """List the changes a monitor detected, newest first (times in UTC)."""
    monitor = db.monitors.require(monitor_id)
    return sorted(db.change_alerts.where(monitor_id=monitor.monitor_id), key=lambda a: (a.detected_at, a.alert_id), reverse=True)


@DOMAIN.tool(write=True)
def create_monitor(
    db: WebDB,
    customer_id: CustomerId,
    page_id: PageId,
    interval_hours: Annotated[int, Field(description="hours between two checks of the page")],
    channel: Annotated[Literal["email", "sms"], Field(description="how change alerts are sent")],
    keyword: Annotated[str | None, Field(description="alert only when a change contains this word; omit to alert on any change")] = None,
) -> dict[str, Any]:
    """Start watching a page for changes."""
    customer = _customer(db, customer_id)
    page = db.pages.require(page_id)
    _positive_int(interval_hours, "interval_hours")
    word = keyword.strip() if keyword is not None else None
    key = db.monitors.new_key("MON-", customer.customer_id, page.page_id, interval_hours, channel, word or "")
    db.monitors[key] = Monitor(monitor_id=key, customer_id=customer.customer_id, page_id=page.page_id,
                               interval_hours=interval_hours, channel=channel, keyword=word or None,
                               status="active", created_at=_stamp())
    return _monitor_view(db, db.monitors[key])


@DOMAIN.tool(write=True)
def update_monitor(
    db: WebDB,
    monitor_id: MonitorId,
    interval_hours: Annotated[int | None, Field(description="new hours between checks")] = None,
    channel: Annotated[Literal["email", "sms"] | None, Field(description="new alert channel")] = None,
) -> dict[str, Any]:
    """Change a monitor's check interval and/or alert channel."""
    monitor = db.monitors.require(monitor_id)
    if monitor.status == "deleted":
        raise ToolError(f"monitor {monitor.monitor_id} was deleted")
    if interval_hours is None and channel is None:
        raise ToolError("give an interval or a channel to change")
    if interval_hours is not None:
        _positive_int(interval_hours, "interval_hours")
        monitor.interval_hours = interval_hours
    if channel is not None:
        monitor.channel = channel
    return _monitor_view(db, monitor)


@DOMAIN.tool(write=True)
def set_monitor_status(
    db: WebDB,
    monitor_id: MonitorId,
    status: Annotated[Literal["active", "paused", "deleted"], Field(description="'paused' stops checks, 'active' resumes them, 'deleted' removes the monitor for good")],
) -> dict[str, Any]:
    """Pause, resume or delete a monitor."""
    monitor = db.monitors.require(monitor_id)
    if monitor.status == "deleted":
        raise ToolError(f"monitor {monitor.monitor_id} was deleted")
    if monitor.status == status:
        raise ToolError(f"monitor {monitor.monitor_id} is already {status}")
    monitor.status = status
    return _monitor_view(db, monitor)


# -- extraction jobs ---------------------------------------------------------------------------
@DOMAIN.tool
def list_extraction_jobs(db: WebDB, customer_id: CustomerId) -> list[dict[str, Any]]:
    """List the customer's extraction jobs with the site each one reads."""
    customer = _customer(db, customer_id)
    jobs = sorted(db.extraction_jobs.where(customer_id=customer.customer_id), key=lambda j: j.job_id)
    return [{**j.model_dump(mode="json"), "site_name": db.sites.require(j.site_id).name} for j in jobs]


@DOMAIN.tool(write=True)
def schedule_extraction(
    db: WebDB,
    customer_id: CustomerId,
    site_id: SiteId,
    path_prefix: Annotated[str, Field(description="the part of the site to read: pages whose path starts with this, e.g. '/listings/rent'")],
    max_pages: Annotated[int, Field(description="the most pages one run reads")],
    requests_per_minute: Annotated[int, Field(description="how fast the job fetches pages")],
    schedule: Annotated[Literal["once", "daily", "weekly"], Field(description="run once, or every day or week")],
) -> ExtractionJob:
    """Schedule a job that reads pages of a site into a data file for the customer."""
    customer = _customer(db, customer_id)
    site = db.sites.require(site_id)
    path = path_prefix.strip()
    if not path.startswith("/"):
        raise ToolError("a path prefix starts with '/'")
    _positive_int(max_pages, "max_pages")
    _positive_int(requests_per_minute, "requests_per_minute")
    key = db.extraction_jobs.new_key("JOB-", customer.customer_id, site.site_id, path, max_pages, requests_per_minute, schedule)
    db.extraction_jobs[key] = ExtractionJob(
        job_id=key, customer_id=customer.customer_id, site_id=site.site_id, path_prefix=path, max_pages=max_pages,
        requests_per_minute=requests_per_minute, schedule=schedule, status="scheduled", created_at=_stamp(),
    )
    return db.extraction_jobs[key]


@DOMAIN.tool
def get_page(db: WebDB, page_id: PageId) -> Page:
    """One page as Relaypoint last saw it: a listing's entries (title, price in dollars, date posted), a status page's text."""
    return db.pages.require(page_id)


@DOMAIN.tool(write=True)
def run_extraction(db: WebDB, job_id: JobId) -> dict[str, Any]:
    """Run a scheduled extraction job now: it reads the site's pages under the job's path prefix (in path order, at most
    the job's page limit; pages behind the site's login cannot be read) and returns one row per listed entry. The run is
    recorded on the job; a one-time job is then completed."""
    job = db.extraction_jobs.require(job_id)
    if job.status != "scheduled":
        raise ToolError(f"job {job.job_id} is {job.status}; only a scheduled job can run")
    site = db.sites.require(job.site_id)
    pages = sorted((p for p in db.pages.where(site_id=site.site_id)
                    if p.path.startswith(job.path_prefix) and not any(p.path.startswith(x) for x in site.login_paths)),
                   key=lambda p: p.path)[: job.max_pages]
    rows = [{"page": p.path, "title": item.title, "price": item.price, "posted_on": item.posted_on} for p in pages for item in p.items]
    job.last_run_at, job.rows_last_run = _stamp(), len(rows)
    if job.schedule == "once":
        job.status = "completed"
    db.extraction_jobs[job.job_id] = job
    return {"job_id": job.job_id, "site_name": site.name, "pages_read": [p.path for p in pages], "rows": rows}


@DOMAIN.tool(write=True)
def cancel_extraction(db: WebDB, job_id: JobId) -> ExtractionJob:
    """Cancel a scheduled extraction job."""
    job = db.extraction_jobs.require(job_id)
    if job.status != "scheduled":
        raise ToolError(f"job {job.job_id} is {job.status}; only a scheduled job can be cancelled")
    job.status = "cancelled"
    return job


# Policy 7.3: a monitor meant to catch what a submission changes is created before the submission
# (the site's update alerts only monitors that exist). No other kind of request calls both.
DOMAIN.order("create_monitor", "submit_form")
# Policy 3.3 and 7.1: the room a customer makes (a monitor paused) comes before the new monitor that needs it.
DOMAIN.order("set_monitor_status", "create_monitor")
# Policy 3.5: a downgrade only once the active monitors fit the lower plan: the pauses come first.
DOMAIN.order("set_monitor_status", "change_plan")
# Policy 6.4 and 7.2: what only the higher plan allows (a submission over the month's limit, a shorter interval)
# comes after the upgrade.
DOMAIN.order("change_plan", "submit_form")
DOMAIN.order("change_plan", "update_monitor")


# -- data invariants: the clock, ages, places and money the policy relies on -------------------
DOMAIN.invariants(
    plausible_age("customers", "date_of_birth", low=18, high=105),
    not_after_now("customers", "member_since"),
    not_after_now("pages", "last_changed_at"),
    not_after_now("submissions", "submitted_at"),
    not_after_now("monitors", "created_at"),
    not_after_now("change_alerts", "detected_at"),
    not_after_now("extraction_jobs", "created_at"),
    not_after_now("extraction_jobs", "last_run_at"),
    ordered("extraction_jobs", "created_at", "last_run_at"),
    not_after_now("charges", "date"),
    ordered("charges", "member_since", "date", via=("customer_id", "customers")),
    ordered("submissions", "member_since", "submitted_at", via=("customer_id", "customers")),
    ordered("monitors", "member_since", "created_at", via=("customer_id", "customers")),
    ordered("extraction_jobs", "member_since", "created_at", via=("customer_id", "customers")),
    ordered("change_alerts", "created_at", "detected_at", via=("monitor_id", "monitors")),
    area_codes_valid("customers", "phone"),
    cents("charges", "amount"),
)


@DOMAIN.invariant
def _pages_changed_when_seen(db: WebDB, now: datetime) -> Iterator[str]:
    """a page's last change is no earlier than any change a monitor detected on it"""
    for key, alert in db.change_alerts.items():
        page = db.pages.require(db.monitors.require(alert.monitor_id).page_id)
        if alert.detected_at > page.last_changed_at:
            yield f"change_alerts[{key!r}] detected {alert.detected_at}, after {page.page_id} last changed ({page.last_changed_at})"


@DOMAIN.invariant
def _runs_recorded(db: WebDB, now: datetime) -> Iterator[str]:
    """a completed one-time job has its run on record (policy 5.4: its run completes it)"""
    for key, job in db.extraction_jobs.items():
        if job.status == "completed" and (job.last_run_at is None or job.rows_last_run is None):
            yield f"extraction_jobs[{key!r}] is completed but records no run"
