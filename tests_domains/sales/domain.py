"""Calder & Finch Scientific sales-operations desk: the tools an ops agent uses to serve account reps who call in.

The tools refuse only what the data makes impossible (no such record, a contact of another account, a quote that
is already closed, a change to what is already there). Every rule of the policy (who may claim a lead, stage order
and required fields, discount limits and approvals, quote expiry and extensions, territory moves) is the agent's.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import after_now, area_codes_valid, cents, consistent, no_typos, not_after_now, ordered, zip_matches_state
from tests_domains.sales.pricing import price_lines
from tests_domains.sales.schema import (
    Account,
    Address,
    Approval,
    Contact,
    FollowUp,
    Lead,
    LossReason,
    Opportunity,
    Quote,
    QuoteLine,
    Rep,
    SalesDB,
    Stage,
    StageChange,
)

DOMAIN = Domain("sales", SalesDB, now=datetime(2026, 6, 16, 10, 0))

RepId = Annotated[str, Field(description="a rep id, e.g. 'SR-4127'")]
OppId = Annotated[str, Field(description="an opportunity id, e.g. 'OPP-512208'")]
QuoteId = Annotated[str, Field(description="a quote id, e.g. 'Q-318254'")]
IsoDate = Annotated[str, Field(description="a date as YYYY-MM-DD")]
STAGE_ORDER = ["prospecting", "discovery", "proposal", "negotiation", "closed_won"]


def _today() -> str:
    return DOMAIN.today.isoformat()


def _date(value: str, label: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except (AttributeError, TypeError, ValueError):
        raise ToolError(f"{label} must be a date as YYYY-MM-DD, got {value!r}") from None


def _name(rep: Rep) -> str:
    return f"{rep.first_name} {rep.last_name}"


# ----------------------------------------------------------------------------- reps and territories


@DOMAIN.tool(authenticates=True)
def find_rep_by_email(db: SalesDB, email: Annotated[str, Field(description="the rep's work email, e.g. jenna.park@calderfinch.com")]) -> Rep:
    """Identify a calling rep by their work email; returns their rep record (role, territory, manager, discount limit)."""
    found = db.reps.find(email=email)
    if not found:
        raise ToolError("no rep with that work email")
    return found[0]


@DOMAIN.tool(authenticates=True)
def find_rep_by_id(
    db: SalesDB,
    rep_id: RepId,
    full_name: Annotated[str, Field(description="the rep's first and last name as the caller gives them")],
) -> Rep:
    """Identify a calling rep by their rep id and full name; both must match the same rep."""
    rep = db.reps.get(rep_id.strip().upper())
    if rep is None or " ".join(full_name.split()).casefold() != _name(rep).casefold():
        raise ToolError("no rep matches that rep id and name")
    return rep


@DOMAIN.tool
def get_rep(db: SalesDB, rep_id: RepId) -> dict[str, Any]:
    """Directory entry of any rep or manager: name, role, territory, region, manager, discount approval limit, status."""
    rep = db.reps.require(rep_id)
    return {"rep_id": rep.rep_id, "name": _name(rep), "email": rep.email, "role": rep.role, "territory_id": rep.territory_id,
            "region": rep.region, "manager_rep_id": rep.manager_rep_id, "discount_limit_pct": rep.discount_limit_pct,
            "status": rep.status}


@DOMAIN.tool
def get_territory(
    db: SalesDB,
    territory_id: Annotated[str | None, Field(description="a territory code, e.g. 'E-NENG'")] = None,
    state: Annotated[str | None, Field(description="a two-letter US state code: returns the territory that covers it")] = None,
) -> dict[str, Any]:
    """A territory (by code, or the one covering a state): its states, its intake rep, its manager and its reps."""
    if territory_id:
        t = db.territories.require(territory_id)
    elif state:
        code = state.strip().upper()
        found = [x for x in db.territories.values() if code in x.states]
        if not found:
            raise ToolError(f"no territory covers state {state!r}")
        t = found[0]
    else:
        raise ToolError("give a territory_id or a state")
    members = sorted(r.rep_id for r in db.reps.where(territory_id=t.territory_id))
    return {**t.model_dump(), "reps": [{"rep_id": r, "name": _name(db.reps[r]), "status": db.reps[r].status} for r in members]}


# ----------------------------------------------------------------------------- accounts


@DOMAIN.tool
def search_accounts(db: SalesDB, name: Annotated[str, Field(description="words of the account's name, e.g. 'Helix Genomics'")]) -> list[dict[str, Any]]:
    """Accounts whose name contains all the given words: id, name, city, state, territory and owner."""
    words = name.lower().split()
    if not words:
        raise ToolError("give at least one word of the account name")
    rows = [a for a in db.accounts.values() if all(w in a.name.lower() for w in words)]
    return [{"account_id": a.account_id, "name": a.name, "city": a.billing_address.city, "state": a.billing_address.state,
             "territory_id": a.territory_id, "owner_rep_id": a.owner_rep_id} for a in sorted(rows, key=lambda a: a.account_id)[:20]]


@DOMAIN.tool
def get_account(db: SalesDB, account_id: Annotated[str, Field(description="e.g. 'ACC-418220'")]) -> dict[str, Any]:
    """An account with its billing address (and when it last changed), territory, owner, named-account flag, price book
    and contacts."""
    a = db.accounts.require(account_id)
    people = sorted(db.contacts.where(account_id=a.account_id), key=lambda c: c.contact_id)
    return {"account": a.model_dump(), "contacts": [c.model_dump() for c in people]}


@DOMAIN.tool
def list_opportunities(db: SalesDB, account_id: Annotated[str, Field(description="e.g. 'ACC-418220'")]) -> list[dict[str, Any]]:
    """Every opportunity of an account (open and closed): id, name, owner, stage, amount, close date."""
    a = db.accounts.require(account_id)
    rows = sorted(db.opportunities.where(account_id=a.account_id), key=lambda o: o.opportunity_id)
    return [{"opportunity_id": o.opportunity_id, "name": o.name, "owner_rep_id": o.owner_rep_id, "stage": o.stage,
             "amount": o.amount, "close_date": o.close_date} for o in rows]


# ----------------------------------------------------------------------------- leads


@DOMAIN.tool
def search_leads(
    db: SalesDB,
    last_name: Annotated[str | None, Field(description="the lead's last name")] = None,
    company: Annotated[str | None, Field(description="words of the lead's company name")] = None,
    email: Annotated[str | None, Field(description="the lead's email")] = None,
) -> list[Lead]:
    """Leads matching every criterion given (last name, words of the company, email)."""
    if not (last_name or company or email):
        raise ToolError("give a last name, a company or an email")
    rows: list[Lead] = list(db.leads.find(email=email)) if email else list(db.leads.values())
    if last_name:
        rows = [x for x in rows if x.last_name.casefold() == last_name.strip().casefold()]
    if company:
        words = company.lower().split()
        rows = [x for x in rows if all(w in x.company.lower() for w in words)]
    return sorted(rows, key=lambda x: x.lead_id)[:20]


@DOMAIN.tool
def get_lead(db: SalesDB, lead_id: Annotated[str, Field(description="e.g. 'LD-604311'")]) -> Lead:
    """One lead: company, territory, status, owner, matched account, created and last-activity dates."""
    return db.leads.require(lead_id)


@DOMAIN.tool(write=True)
def assign_lead(db: SalesDB, lead_id: Annotated[str, Field(description="e.g. 'LD-604311'")], owner_rep_id: RepId) -> Lead:
    """Make a rep the owner of a lead (a claim from the queue or a hand-over). A new lead becomes 'working'."""
    lead = db.leads.require(lead_id)
    rep = db.reps.require(owner_rep_id)
    if lead.status in ("converted", "disqualified"):
        raise ToolError(f"lead {lead.lead_id} is {lead.status}")
    if lead.owner_rep_id == rep.rep_id:
        raise ToolError(f"lead {lead.lead_id} is already owned by {rep.rep_id}")
    lead.owner_rep_id = rep.rep_id
    lead.assigned_on = _today()
    if lead.status == "new":
        lead.status = "working"
    return lead


@DOMAIN.tool(write=True)
def convert_lead(
    db: SalesDB,
    lead_id: Annotated[str, Field(description="e.g. 'LD-604311'")],
    opportunity_name: Annotated[FreeText, Field(description="a name for the new opportunity, as the rep words it")],
    amount: Annotated[float, Field(description="the opportunity's estimated amount in US dollars")],
    close_date: Annotated[IsoDate, Field(description="the expected close date, YYYY-MM-DD")],
    account_id: Annotated[str | None, Field(description="an existing account to convert into; omit to create a new account "
                                                        "from the lead's company")] = None,
) -> dict[str, Any]:
    """Convert a lead: a contact (and, without account_id, a new account owned by the lead's owner in the lead's
    territory) and an opportunity at stage 'prospecting' owned by the lead's owner, with the new contact as primary."""
    lead = db.leads.require(lead_id)
    if lead.status in ("converted", "disqualified"):
        raise ToolError(f"lead {lead.lead_id} is {lead.status}")
    if lead.owner_rep_id is None:
        raise ToolError(f"lead {lead.lead_id} has no owner")
    if not amount > 0 or amount > 1e8:
        raise ToolError("amount must be a positive dollar figure")
    _date(close_date, "close_date")
    if account_id:
        account = db.accounts.require(account_id)
    else:
        aid = db.accounts.new_key("ACC-", lead.lead_id)
        book = {"academic": "PB-EDU-2026", "government": "PB-GOV-2026"}.get(lead.sector, "PB-STD-2026")
        account = Account(account_id=aid, name=lead.company, sector=lead.sector, segment=lead.segment,
                          billing_address=Address(**lead.address.model_dump()), address_updated_on=_today(),
                          territory_id=lead.territory_id, owner_rep_id=lead.owner_rep_id, named_account=False,
                          price_book_id=book, customer_since=None, annual_spend=0.0)
        db.accounts[aid] = account
    cid = db.contacts.new_key("CT-", lead.lead_id)
    db.contacts[cid] = Contact(contact_id=cid, account_id=account.account_id, first_name=lead.first_name,
                               last_name=lead.last_name, title=lead.title, email=lead.email, phone=lead.phone)
    oid = db.opportunities.new_key("OPP-", lead.lead_id)
    db.opportunities[oid] = Opportunity(
        opportunity_id=oid, account_id=account.account_id, name=opportunity_name, owner_rep_id=lead.owner_rep_id,
        stage="prospecting", amount=round(float(amount), 2), close_date=close_date.strip(), created_on=_today(),
        primary_contact_id=cid, stage_history=[StageChange(stage="prospecting", entered_on=_today(), changed_by=lead.owner_rep_id)],
        source_lead_id=lead.lead_id)
    lead.status = "converted"
    lead.converted_opportunity_id = oid
    return {"lead": lead.model_dump(), "account_id": account.account_id, "contact_id": cid,
            "opportunity": db.opportunities[oid].model_dump()}


# ----------------------------------------------------------------------------- follow-ups


@DOMAIN.tool
def list_followups(
    db: SalesDB,
    related_id: Annotated[str | None, Field(description="a lead, opportunity or account id")] = None,
    owner_rep_id: Annotated[str | None, Field(description="the rep who owns the follow-ups")] = None,
    status: Annotated[Literal["open", "completed"] | None, Field(description="filter by status")] = None,
) -> list[FollowUp]:
    """Follow-up tasks by the record they are about and/or their owner, optionally only open or completed ones."""
    if related_id:
        rows = list(db.followups.where(related_id=related_id.strip()))
    elif owner_rep_id:
        rows = list(db.followups.where(owner_rep_id=owner_rep_id.strip()))
    else:
        raise ToolError("give a related_id or an owner_rep_id")
    rows = [f for f in rows if (not owner_rep_id or f.owner_rep_id == owner_rep_id.strip()) and (not status or f.status == status)]
    return sorted(rows, key=lambda f: (f.due_date, f.followup_id))


@DOMAIN.tool(write=True)
def create_followup(
    db: SalesDB,
    owner_rep_id: RepId,
    related_id: Annotated[str, Field(description="the lead, opportunity or account the follow-up is about")],
    subject: Annotated[FreeText, Field(description="what to do, in the rep's words")],
    due_date: IsoDate,
) -> FollowUp:
    """Create an open follow-up task for a rep about a lead, an opportunity or an account."""
    rep = db.reps.require(owner_rep_id)
    rid = related_id.strip()
    if rid not in db.leads and rid not in db.opportunities and rid not in db.accounts:
        raise ToolError(f"no lead, opportunity or account {related_id!r}")
    due = _date(due_date, "due_date").isoformat()
    fid = db.followups.new_key("FU-", rep.rep_id, rid, due)
    if fid in db.followups:
        raise ToolError(f"follow-up {fid} already exists for that rep, record and date")
    db.followups[fid] = FollowUp(followup_id=fid, owner_rep_id=rep.rep_id, related_id=rid, subject=subject, due_date=due,
                                 status="open", created_on=_today())
    return db.followups[fid]


@DOMAIN.tool(write=True)
def complete_followup(db: SalesDB, followup_id: Annotated[str, Field(description="e.g. 'FU-204871'")]) -> FollowUp:
    """Mark an open follow-up task completed today."""
    f = db.followups.require(followup_id)
    if f.status == "completed":
        raise ToolError(f"follow-up {f.followup_id} is already completed")
    f.status = "completed"
    f.completed_on = _today()
    return f


# ----------------------------------------------------------------------------- opportunities


@DOMAIN.tool
def get_opportunity(db: SalesDB, opportunity_id: OppId) -> dict[str, Any]:
    """An opportunity with its fields, stage history and its quotes (id, status, expiry, net total)."""
    o = db.opportunities.require(opportunity_id)
    qs = sorted(db.quotes.where(opportunity_id=o.opportunity_id), key=lambda q: q.quote_id)
    return {"opportunity": o.model_dump(), "segment": db.accounts[o.account_id].segment,
            "quotes": [{"quote_id": q.quote_id, "status": q.status, "created_on": q.created_on, "expires_on": q.expires_on,
                        "net_total": q.net_total} for q in qs]}


def _filled(db: SalesDB, o: Opportunity, field: str) -> bool:
    if field == "budget_confirmed":
        return o.budget_confirmed
    quote = db.quotes.get(o.primary_quote_id) if o.primary_quote_id else None
    if field == "primary_quote_accepted":
        return quote is not None and quote.status == "accepted"
    if field == "primary_quote_id":
        return quote is not None and quote.status in ("sent", "accepted")
    return getattr(o, field) not in (None, "")


@DOMAIN.tool
def check_stage_requirements(db: SalesDB, opportunity_id: OppId, target_stage: Stage) -> dict[str, Any]:
    """The fields an opportunity needs to be in a stage (for its account's segment) and which of them are missing now.
    'primary_quote_id' counts only when that quote has been sent; 'primary_quote_accepted' needs it accepted.
    Changes nothing."""
    o = db.opportunities.require(opportunity_id)
    req = db.stage_requirements.require(target_stage)
    segment = db.accounts[o.account_id].segment
    fields = list(req.required_fields) + (list(req.enterprise_extra_fields) if segment == "enterprise" else [])
    return {"opportunity_id": o.opportunity_id, "segment": segment, "current_stage": o.stage, "target_stage": target_stage,
            "required_fields": fields, "missing_fields": [f for f in fields if not _filled(db, o, f)]}


class OpportunityChanges(BaseModel):
    """Fields of an opportunity to set; leave out what does not change."""

    model_config = ConfigDict(extra="forbid")

    primary_contact_id: str | None = Field(default=None, description="a contact of the opportunity's account")
    decision_maker_contact_id: str | None = Field(default=None, description="a contact of the opportunity's account")
    procurement_contact_id: str | None = Field(default=None, description="a contact of the opportunity's account")
    budget_confirmed: bool | None = None
    competitor: str | None = Field(default=None, description="the main competitor, or 'None identified'")
    amount: float | None = Field(default=None, description="estimated amount in US dollars")
    close_date: str | None = Field(default=None, description="expected close date, YYYY-MM-DD")


@DOMAIN.tool(write=True)
def update_opportunity(db: SalesDB, opportunity_id: OppId, changes: OpportunityChanges) -> Opportunity:
    """Set fields of an opportunity (contacts, budget confirmation, competitor, amount, close date)."""
    o = db.opportunities.require(opportunity_id)
    given = changes.model_dump(exclude_none=True)
    if not given:
        raise ToolError("no field to change")
    for key in ("primary_contact_id", "decision_maker_contact_id", "procurement_contact_id"):
        if key in given:
            c = db.contacts.require(given[key])
            if c.account_id != o.account_id:
                raise ToolError(f"contact {c.contact_id} is not a contact of account {o.account_id}")
            given[key] = c.contact_id
    if "close_date" in given:
        given["close_date"] = _date(given["close_date"], "close_date").isoformat()
    if "amount" in given:
        if not 0 < given["amount"] <= 1e8:
            raise ToolError("amount must be a positive dollar figure")
        given["amount"] = round(float(given["amount"]), 2)
    if "competitor" in given:
        given["competitor"] = given["competitor"].strip()
    if all(getattr(o, k) == v for k, v in given.items()):
        raise ToolError("the opportunity already has those values")
    for key, value in given.items():
        setattr(o, key, value)
    return o


@DOMAIN.tool(write=True)
def move_opportunity_stage(
    db: SalesDB,
    opportunity_id: OppId,
    stage: Stage,
    loss_reason: Annotated[LossReason | None, Field(description="why the deal was lost (for closed_lost)")] = None,
) -> Opportunity:
    """Put an opportunity in a stage (recorded in its stage history, dated today, by its owner)."""
    o = db.opportunities.require(opportunity_id)
    if o.stage == stage:
        raise ToolError(f"opportunity {o.opportunity_id} is already at {stage}")
    o.stage = stage
    o.stage_history.append(StageChange(stage=stage, entered_on=_today(), changed_by=o.owner_rep_id))
    if loss_reason is not None:
        o.loss_reason = loss_reason
    return o


@DOMAIN.tool(write=True)
def reassign_opportunity(db: SalesDB, opportunity_id: OppId, new_owner_rep_id: RepId) -> dict[str, Any]:
    """Give an opportunity to another rep; its open follow-ups go with it."""
    o = db.opportunities.require(opportunity_id)
    rep = db.reps.require(new_owner_rep_id)
    if o.owner_rep_id == rep.rep_id:
        raise ToolError(f"opportunity {o.opportunity_id} is already owned by {rep.rep_id}")
    o.owner_rep_id = rep.rep_id
    moved = []
    for f in sorted(db.followups.where(related_id=o.opportunity_id), key=lambda f: f.followup_id):
        if f.status == "open":
            db.followups[f.followup_id].owner_rep_id = rep.rep_id
            moved.append(f.followup_id)
    return {"opportunity": o.model_dump(), "followups_moved": moved}


@DOMAIN.tool(write=True)
def reassign_account(db: SalesDB, account_id: Annotated[str, Field(description="e.g. 'ACC-418220'")], new_owner_rep_id: RepId) -> Account:
    """Give an account to another rep; the account moves to that rep's territory. Opportunities are not moved."""
    a = db.accounts.require(account_id)
    rep = db.reps.require(new_owner_rep_id)
    if a.owner_rep_id == rep.rep_id:
        raise ToolError(f"account {a.account_id} is already owned by {rep.rep_id}")
    a.owner_rep_id = rep.rep_id
    if rep.territory_id:
        a.territory_id = rep.territory_id
    return a


# ----------------------------------------------------------------------------- products and quotes


@DOMAIN.tool
def search_products(
    db: SalesDB,
    keyword: Annotated[str, Field(description="words of the product name or family, e.g. 'freezer'")],
    price_book_id: Annotated[str, Field(description="the account's price book, e.g. 'PB-EDU-2026'")] = "PB-STD-2026",
) -> list[dict[str, Any]]:
    """Products whose name or family contains all the words, with their unit price in a price book."""
    book = db.price_books.require(price_book_id)
    words = keyword.lower().split()
    rows = [p for p in db.products.values() if all(w in (p.name + " " + p.family).lower() for w in words)]
    return [{"sku": p.sku, "name": p.name, "family": p.family, "unit": p.unit, "unit_price": book.prices[p.sku]}
            for p in sorted(rows, key=lambda p: p.sku)]


class LineRequest(BaseModel):
    """One line of a quote."""

    model_config = ConfigDict(extra="forbid")

    sku: str = Field(description="the product's SKU, e.g. 'CFS-FRZ-U86'")
    quantity: int = Field(description="how many units")
    discount_pct: float = Field(default=0.0, description="the line's discount in percent, e.g. 5 for 5%")


Lines = Annotated[list[LineRequest], Field(description="the quote's lines")]
HeaderDiscount = Annotated[float, Field(description="a discount in percent on the whole quote, after line discounts")]


def _price(db: SalesDB, o: Opportunity, lines: list[LineRequest], header: float) -> tuple[dict[str, Any], str]:
    if not lines:
        raise ToolError("a quote needs at least one line")
    book = db.price_books[db.accounts[o.account_id].price_book_id]
    tuples = []
    seen = set()
    for line in lines:
        p = db.products.require(line.sku)
        if p.sku in seen:
            raise ToolError(f"{p.sku} appears twice; put the quantity on one line")
        seen.add(p.sku)
        if not 1 <= line.quantity <= 10000:
            raise ToolError("quantity must be between 1 and 10000")
        if not 0 <= line.discount_pct < 100:
            raise ToolError("a discount is a percentage from 0 to below 100")
        tuples.append((p.sku, line.quantity, float(line.discount_pct)))
    if not 0 <= header < 100:
        raise ToolError("a discount is a percentage from 0 to below 100")
    names = {s: db.products[s].name for s, _, _ in tuples}
    return price_lines(book.prices, names, tuples, float(header)), book.price_book_id


@DOMAIN.tool
def preview_quote(db: SalesDB, opportunity_id: OppId, lines: Lines, header_discount_pct: HeaderDiscount = 0.0) -> dict[str, Any]:
    """Price a quote for an opportunity without creating it: the account's price book, each line's net, the list
    total, the net total, the total discount in dollars, the effective discount percent and the expiry date a quote
    created today would have. Changes nothing."""
    o = db.opportunities.require(opportunity_id)
    priced, book_id = _price(db, o, lines, header_discount_pct)
    book = db.price_books[book_id]
    expires = (DOMAIN.today + timedelta(days=book.validity_days)).isoformat()
    return {"opportunity_id": o.opportunity_id, "price_book_id": book_id, **priced, "expires_on_if_created_today": expires}


@DOMAIN.tool(write=True)
def create_quote(db: SalesDB, opportunity_id: OppId, lines: Lines, header_discount_pct: HeaderDiscount = 0.0) -> Quote:
    """Create a draft quote for an opportunity at its account's price book; it expires after the price book's
    validity period. It is not sent."""
    o = db.opportunities.require(opportunity_id)
    priced, book_id = _price(db, o, lines, header_discount_pct)
    key_lines = sorted((x["sku"], x["quantity"], x["discount_pct"]) for x in priced["lines"])
    qid = db.quotes.new_key("Q-", o.opportunity_id, key_lines, priced["header_discount_pct"])
    if qid in db.quotes:
        raise ToolError(f"the same quote already exists: {qid}")
    book = db.price_books[book_id]
    db.quotes[qid] = Quote(
        quote_id=qid, opportunity_id=o.opportunity_id, account_id=o.account_id, owner_rep_id=o.owner_rep_id,
        price_book_id=book_id, status="draft", created_on=_today(),
        expires_on=(DOMAIN.today + timedelta(days=book.validity_days)).isoformat(),
        lines=[QuoteLine(**x) for x in priced["lines"]], header_discount_pct=priced["header_discount_pct"],
        list_total=priced["list_total"], net_total=priced["net_total"], effective_discount_pct=priced["effective_discount_pct"])
    return db.quotes[qid]


@DOMAIN.tool
def get_quote(db: SalesDB, quote_id: QuoteId) -> dict[str, Any]:
    """A quote: lines, totals, effective discount, status, expiry (and whether it has passed), extensions so far,
    approval, and to whom and when it was sent."""
    q = db.quotes.require(quote_id)
    approval = db.approvals[q.approval_id].model_dump() if q.approval_id else None
    return {"quote": q.model_dump(), "expired": q.expires_on < _today(), "approval": approval}


def _open_quote(db: SalesDB, quote_id: str) -> Quote:
    q = db.quotes.require(quote_id)
    if q.status in ("accepted", "rejected"):
        raise ToolError(f"quote {q.quote_id} is {q.status}")
    return q


@DOMAIN.tool(write=True)
def request_discount_approval(
    db: SalesDB,
    quote_id: QuoteId,
    approver_rep_id: Annotated[str, Field(description="the manager or director asked to approve the discount")],
    justification: Annotated[FreeText, Field(description="why the discount is needed, in the rep's words")],
) -> dict[str, Any]:
    """Ask a manager to approve a quote's discount; the quote waits in 'pending_approval'."""
    q = _open_quote(db, quote_id)
    approver = db.reps.require(approver_rep_id)
    aid = db.approvals.new_key("AP-", q.quote_id, approver.rep_id)
    if aid in db.approvals:
        raise ToolError(f"approval {aid} already requested from {approver.rep_id}")
    db.approvals[aid] = Approval(approval_id=aid, quote_id=q.quote_id, requested_by=q.owner_rep_id,
                                 approver_rep_id=approver.rep_id, discount_pct=q.effective_discount_pct, status="pending",
                                 requested_on=_today(), justification=justification)
    q.status = "pending_approval"
    q.approval_id = aid
    return {"quote": q.model_dump(), "approval": db.approvals[aid].model_dump()}


@DOMAIN.tool(write=True)
def send_quote(db: SalesDB, quote_id: QuoteId, contact_id: Annotated[str, Field(description="the account contact who receives it")]) -> dict[str, Any]:
    """Email a quote to a contact of its account; it becomes the opportunity's primary quote."""
    q = _open_quote(db, quote_id)
    c = db.contacts.require(contact_id)
    if c.account_id != q.account_id:
        raise ToolError(f"contact {c.contact_id} is not a contact of account {q.account_id}")
    q.status = "sent"
    q.sent_to_contact_id = c.contact_id
    q.sent_on = _today()
    o = db.opportunities[q.opportunity_id]
    o.primary_quote_id = q.quote_id
    return {"quote": q.model_dump(), "sent_to": f"{c.first_name} {c.last_name} <{c.email}>"}


@DOMAIN.tool(write=True)
def extend_quote(db: SalesDB, quote_id: QuoteId) -> Quote:
    """Extend a quote: its new expiry is today plus its price book's validity period, at the same prices."""
    q = _open_quote(db, quote_id)
    book = db.price_books[q.price_book_id]
    q.expires_on = (DOMAIN.today + timedelta(days=book.validity_days)).isoformat()
    q.extension_count += 1
    return q



# -- data invariants: the pipeline's chronology and clean addresses ----------------------------
DOMAIN.invariants(
    not_after_now("reps", "hire_date"),
    not_after_now("accounts", "address_updated_on"),
    not_after_now("accounts", "customer_since"),
    not_after_now("leads", "created_on"),
    not_after_now("leads", "last_activity_on"),
    not_after_now("leads", "assigned_on"),
    ordered("leads", "created_on", "last_activity_on"),
    ordered("leads", "created_on", "assigned_on"),
    not_after_now("opportunities", "created_on"),
    not_after_now("opportunities", "stage_history[].entered_on"),
    ordered("opportunities", "created_on", "stage_history[].entered_on"),
    after_now("opportunities", "close_date", where=lambda opp: opp.stage not in ("closed_won", "closed_lost")),
    not_after_now("quotes", "created_on"),
    not_after_now("quotes", "sent_on"),
    ordered("quotes", "created_on", "expires_on"),
    ordered("quotes", "created_on", "sent_on"),
    not_after_now("approvals", "requested_on"),
    cents("quotes", "net_total"),
    cents("quotes", "lines[].net_amount"),
    zip_matches_state("accounts", "billing_address.zip", "billing_address.state"),
    consistent("accounts", "billing_address.zip", "billing_address.city", "billing_address.state"),
    area_codes_valid("reps", "phone"),
    area_codes_valid("contacts", "phone"),
    area_codes_valid("leads", "phone"),
    no_typos("accounts", "name", "billing_address.street", "billing_address.city"),
    no_typos("leads", "company"),
)

# Policy 5.2: the fields a stage requires are filled before the opportunity moves.
DOMAIN.order("update_opportunity", "move_opportunity_stage")
