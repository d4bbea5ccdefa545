"""Calder Voss & Ng LLP's client-intake and matter desk: the tools a desk agent uses to serve clients who call in.

The tools refuse only what the data makes impossible (no such record, not this matter's, already docketed, more
than the balance). Every rule of the policy (who may hear or receive what, conflicts, windows, limits, privilege)
is the agent's to apply.
"""

from __future__ import annotations

import functools
import re
from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import area_codes_valid, cents, money_decimal, not_after_now, ordered, plausible_age
from tests_domains.legal.schema import (
    Client,
    Contact,
    Court,
    CreditNote,
    Disclosure,
    Dispute,
    DocketEntry,
    Document,
    EngagementLetter,
    FeeSchedule,
    Invoice,
    LegalDB,
    Matter,
    Party,
    PracticeArea,
    TrustAccount,
    TrustTransaction,
)

DOMAIN = Domain("legal", LegalDB, now=datetime(2026, 4, 14, 10, 0))

ClientId = Annotated[str, Field(description="the client number, e.g. 'CV-48213'")]
MatterId = Annotated[str, Field(description="the matter number, e.g. 'M-25-4471'")]
InvoiceId = Annotated[str, Field(description="the invoice number, e.g. 'INV-604218'")]
IsoDate = Annotated[str, Field(description="a date as YYYY-MM-DD")]
LineNumbers = Annotated[list[int], Field(description="invoice line numbers, e.g. [2, 5]")]
FEE_BY_AREA = {"estate_planning": "flat_fee", "personal_injury": "contingency"}


def _today() -> str:
    return DOMAIN.today.isoformat()


def _date(value: str, label: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except (AttributeError, TypeError, ValueError):
        raise ToolError(f"{label} must be a date as YYYY-MM-DD, got {value!r}") from None


def _fold(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.casefold()).split())


@functools.lru_cache(maxsize=1 << 16)
def _name_words(name: str) -> frozenset[str]:
    """A name's words, folded; a conflict check compares every name of the firm's records, again and again."""
    return frozenset(_fold(name).split())


def _money(value: float) -> float:
    return round(value + 0.0, 2)


def _client_status(db: LegalDB, client_id: str) -> str:
    return "current" if any(m.status in ("open", "intake") for m in db.matters.where(client_id=client_id)) else "former"


def _schedule_on(db: LegalDB, day: str) -> FeeSchedule:
    for s in sorted(db.fee_schedules.values(), key=lambda s: s.effective_from):
        if s.effective_from <= day and (s.effective_to is None or day <= s.effective_to):
            return s
    raise ToolError(f"no fee schedule in force on {day}")


def _closed_days(court: Court) -> set[str]:
    return {h.date for h in court.holidays}


def _is_court_day(day: date, closed: set[str]) -> bool:
    return day.weekday() < 5 and day.isoformat() not in closed


# ----------------------------------------------------------------------------- identity


@DOMAIN.tool(authenticates=True)
def find_client(
    db: LegalDB,
    client_number: ClientId,
    date_of_birth: Annotated[str, Field(description="the individual client's date of birth, YYYY-MM-DD")],
) -> Client:
    """Identify an individual client (a person, not an organization) by client number and date of birth; returns the
    client record with the contacts on file."""
    client = db.clients.get(client_number.strip().upper())
    if client is None or client.kind != "individual" or client.date_of_birth != date_of_birth.strip():
        raise ToolError("no individual client matches that client number and date of birth")
    return client


@DOMAIN.tool(authenticates=True)
def find_client_contact(
    db: LegalDB,
    email: Annotated[str, Field(description="the caller's email address")],
    client_number: ClientId,
) -> dict[str, Any]:
    """Identify a caller who is a contact on file for a client (an organization's staff, or a person an individual
    client has listed) by their email and the client number; returns the contact (with their access level) and the
    client."""
    client = db.clients.get(client_number.strip().upper())
    if client is not None:
        for contact in client.contacts:
            if contact.email.casefold() == email.strip().casefold():
                return {"contact": contact.model_dump(), "client": client.model_dump()}
    raise ToolError("no contact with that email is on file for that client number")


@DOMAIN.tool
def get_client(db: LegalDB, client_id: ClientId) -> Client:
    """A client's record: kind, name, contact details, standing discount and contacts with their access levels."""
    return db.clients.require(client_id)


@DOMAIN.tool
def list_client_matters(db: LegalDB, client_id: ClientId) -> list[dict[str, Any]]:
    """Every matter of a client (number, title, practice area, status, court, case number), oldest first."""
    client = db.clients.require(client_id)
    rows = sorted(db.matters.where(client_id=client.client_id), key=lambda m: (m.opened_on, m.matter_id))
    return [{"matter_id": m.matter_id, "title": m.title, "practice_area": m.practice_area, "status": m.status,
             "opened_on": m.opened_on, "court_id": m.court_id, "case_number": m.case_number} for m in rows]


@DOMAIN.tool
def get_matter(db: LegalDB, matter_id: MatterId) -> Matter:
    """A matter in full: client, parties, status, court and case number, fee arrangement, discount and the court events
    (service of papers, motions, judgments) with their dates and service method."""
    return db.matters.require(matter_id)


# ----------------------------------------------------------------------------- conflicts and intake


@DOMAIN.tool
def run_conflict_check(
    db: LegalDB,
    names: Annotated[list[str], Field(description="the people and organizations to check, e.g. the adverse parties of a new matter")],
) -> list[dict[str, Any]]:
    """Search the firm's records for each name: clients of the firm (current: with an open or intake matter; former:
    only closed matters) and parties named in any matter (adverse, co-party, related) with that matter's status.
    A name matches a record when every word of the name appears in it (case and punctuation ignored)."""
    if not names:
        raise ToolError("give at least one name")
    out = []
    for name in names:
        words = _fold(name).split()
        if not words:
            raise ToolError(f"name {name!r} has no letters")
        wanted = frozenset(words)
        hits_c = [{"client_id": c.client_id, "name": c.name, "kind": c.kind, "client_status": _client_status(db, c.client_id)}
                  for c in sorted(db.clients.values(), key=lambda c: c.client_id) if wanted <= _name_words(c.name)]
        hits_p = []
        for m in sorted(db.matters.values(), key=lambda m: m.matter_id):
            for p in m.parties:
                if p.role != "client" and wanted <= _name_words(p.name):
                    hits_p.append({"matter_id": m.matter_id, "party_name": p.name, "party_role": p.role, "matter_status": m.status,
                                   "matter_client_id": m.client_id})
        out.append({"name": name, "client_matches": hits_c, "party_matches": hits_p})
    return out


@DOMAIN.tool
def quote_engagement(db: LegalDB, client_id: ClientId, practice_area: PracticeArea) -> dict[str, Any]:
    """The engagement terms a new matter of this client in this practice area would get under the current fee
    schedule: fee arrangement, the client's standing discount, the retainer to deposit and the hourly rates after
    the discount. Changes nothing."""
    client = db.clients.require(client_id)
    sched = _schedule_on(db, _today())
    disc = client.standing_discount_percent
    return {"client_id": client.client_id, "practice_area": practice_area, "fee_arrangement": FEE_BY_AREA.get(practice_area, "hourly"),
            "fee_schedule": sched.schedule_id, "standing_discount_percent": disc,
            "retainer": _money(sched.retainers[practice_area] * (100 - disc) / 100),
            "hourly_rates_after_discount": {r: _money(v * (100 - disc) / 100) for r, v in sched.hourly_rates.items()}}


@DOMAIN.tool(write=True)
def open_matter(
    db: LegalDB,
    client_id: ClientId,
    practice_area: PracticeArea,
    title: Annotated[FreeText, Field(description="a short matter title, e.g. 'Cascade Builders v. Alder Freight (unpaid invoices)'")],
    adverse_parties: Annotated[list[str], Field(description="every adverse party's full name, as checked for conflicts (empty for non-adversarial work)")],
    court_id: Annotated[str | None, Field(description="the court's id if a case is already filed, e.g. 'MULT'")] = None,
) -> Matter:
    """Open a new matter for a client in intake status (it becomes open when the engagement letter is signed). The fee
    arrangement follows the practice area and the client's standing discount applies. The system does not run a
    conflict check."""
    client = db.clients.require(client_id)
    if court_id is not None:
        db.courts.require(court_id)
    parties = [Party(name=client.name, role="client")] + [Party(name=" ".join(n.split()), role="adverse") for n in adverse_parties]
    key = db.matters.new_key("M-26-", client.client_id, practice_area, sorted(_fold(n) for n in adverse_parties), length=6)
    db.matters[key] = Matter(matter_id=key, client_id=client.client_id, title=title, practice_area=practice_area, status="intake",
                             opened_on=_today(), responsible_attorney="unassigned", court_id=court_id, case_number=None,
                             fee_arrangement=FEE_BY_AREA.get(practice_area, "hourly"),
                             discount_percent=client.standing_discount_percent, parties=parties, events=[])
    return db.matters[key]


@DOMAIN.tool(write=True)
def send_engagement_letter(
    db: LegalDB,
    matter_id: MatterId,
    retainer: Annotated[float, Field(description="the retainer the client will deposit, in dollars")],
    recipient_email: Annotated[str, Field(description="where the letter is emailed for signature")],
) -> EngagementLetter:
    """Email the engagement letter for a matter (fee arrangement of the matter, the retainer given) for e-signature."""
    matter = db.matters.require(matter_id)
    if retainer < 0:
        raise ToolError("retainer cannot be negative")
    if any(True for _ in db.engagement_letters.where(matter_id=matter.matter_id)):
        raise ToolError(f"matter {matter.matter_id} already has an engagement letter")
    key = db.engagement_letters.new_key("EL-", matter.matter_id)
    db.engagement_letters[key] = EngagementLetter(letter_id=key, matter_id=matter.matter_id, fee_arrangement=matter.fee_arrangement,
                                                  retainer=_money(retainer), sent_to_email=recipient_email.strip().lower(),
                                                  sent_on=_today(), status="sent")
    return db.engagement_letters[key]


@DOMAIN.tool(write=True)
def add_client_contact(
    db: LegalDB,
    client_id: ClientId,
    name: Annotated[str, Field(description="the new contact's full name")],
    email: str,
    phone: Annotated[str, Field(description="e.g. '503-555-0142'")],
    title: Annotated[str, Field(description="their title or relationship to the client, e.g. 'Controller', 'Spouse'")],
    access: Annotated[Literal["full", "billing"], Field(description="'full' (matters, documents, deadlines and billing) or 'billing' (billing only)")],
) -> Client:
    """Add a person to the client's contacts with an access level."""
    client = db.clients.require(client_id)
    if any(c.email.casefold() == email.strip().casefold() for c in client.contacts):
        raise ToolError(f"{email.strip()} is already a contact of client {client.client_id}")
    cid = db.clients.new_key("CT-", client.client_id, email.strip().casefold(), length=6)
    if not phone.strip() or any(not (ch.isdigit() or ch in " ()-+.") for ch in phone):
        raise ToolError(f"phone {phone!r} is not a phone number")
    digits = "".join(ch for ch in phone if ch.isdigit())[-10:]
    shown = f"{digits[:3]}-{digits[3:6]}-{digits[6:]}" if len(digits) == 10 else phone.strip()
    client.contacts.append(Contact(contact_id=cid, name=" ".join(name.split()), email=email.strip().lower(), phone=shown,
                                   title=" ".join(title.split()).title(), access=access))
    return client


# ----------------------------------------------------------------------------- court calendar and deadlines


@DOMAIN.tool
def get_court(db: LegalDB, court_id: Annotated[str, Field(description="e.g. 'MULT', 'WASH', 'CLAC', 'USDC'")]) -> Court:
    """A court's name and its calendar of holidays and closure days (the days it is closed besides weekends)."""
    return db.courts.require(court_id)


@DOMAIN.tool
def compute_deadline(
    db: LegalDB,
    court_id: Annotated[str, Field(description="the court whose calendar applies, e.g. 'MULT'")],
    start_date: Annotated[str, Field(description="the triggering date (YYYY-MM-DD); it is not counted")],
    days: Annotated[int, Field(description="how many days to count, 1 to 365")],
    count: Annotated[Literal["calendar_days", "court_days"], Field(description="'calendar_days' (every day counts; a due date on a weekend or closure day moves to the next court day) or 'court_days' (only days the court is open count)")],
) -> dict[str, Any]:
    """Count a deadline on a court's calendar from a triggering date. Court days are weekdays on which the court is not
    closed (its holidays and closure days). Changes nothing."""
    court = db.courts.require(court_id)
    start = _date(start_date, "start_date")
    if not 1900 <= start.year <= 2100:
        raise ToolError("start_date must be between 1900 and 2100")
    if not 1 <= days <= 365:
        raise ToolError("days must be between 1 and 365")
    closed = _closed_days(court)
    rolled = None
    if count == "calendar_days":
        due = start + timedelta(days=days)
        if not _is_court_day(due, closed):
            rolled = due.isoformat()
            while not _is_court_day(due, closed):
                due += timedelta(days=1)
    else:
        due, n = start, 0
        while n < days:
            due += timedelta(days=1)
            if _is_court_day(due, closed):
                n += 1
    return {"court_id": court.court_id, "start_date": start.isoformat(), "days": days, "count": count, "due_date": due.isoformat(),
            "due_weekday": due.strftime("%A"), "moved_from_non_court_day": rolled}


@DOMAIN.tool
def list_docket(db: LegalDB, matter_id: MatterId) -> list[DocketEntry]:
    """The deadlines docketed on a matter's calendar."""
    matter = db.matters.require(matter_id)
    return sorted(db.docket.where(matter_id=matter.matter_id), key=lambda d: (d.due_date, d.docket_id))


@DOMAIN.tool(write=True)
def docket_deadline(
    db: LegalDB,
    matter_id: MatterId,
    event_id: Annotated[str, Field(description="the court event the deadline answers, e.g. 'EV-48120'")],
    due_date: IsoDate,
    description: Annotated[FreeText, Field(description="what is due, e.g. 'Answer to complaint due'")],
) -> DocketEntry:
    """Put a deadline for a court event of the matter on the firm's docket (calendar) and the responsible attorney's."""
    matter = db.matters.require(matter_id)
    event = next((e for e in matter.events if e.event_id == event_id.strip().upper()), None)
    if event is None:
        raise ToolError(f"event {event_id!r} is not an event of matter {matter.matter_id}")
    due = _date(due_date, "due_date")
    if any(d.event_id == event.event_id for d in db.docket.where(matter_id=matter.matter_id)):
        raise ToolError(f"a deadline for event {event.event_id} is already docketed")
    key = db.docket.new_key("DK-", matter.matter_id, event.event_id)
    db.docket[key] = DocketEntry(docket_id=key, matter_id=matter.matter_id, event_id=event.event_id, due_date=due.isoformat(),
                                 description=description, docketed_on=_today(), status="pending")
    return db.docket[key]


# ----------------------------------------------------------------------------- documents


@DOMAIN.tool
def list_documents(db: LegalDB, matter_id: MatterId) -> list[Document]:
    """The documents in a matter's file with their date, privilege flag (none, attorney_client, work_product) and
    whether a protective order covers them."""
    matter = db.matters.require(matter_id)
    return sorted(db.documents.where(matter_id=matter.matter_id), key=lambda d: (d.dated, d.document_id))


@DOMAIN.tool(write=True)
def send_documents(
    db: LegalDB,
    matter_id: MatterId,
    document_ids: Annotated[list[str], Field(description="the documents to send, e.g. ['DOC-418230']")],
    recipient_name: Annotated[FreeText, Field(description="the recipient's name as it goes on the cover note")],
    recipient_email: str,
    note: Annotated[FreeText, Field(description="a short cover note")],
) -> Disclosure:
    """Email copies of documents from a matter's file to a recipient; the disclosure is logged on the matter."""
    matter = db.matters.require(matter_id)
    if not document_ids:
        raise ToolError("give at least one document")
    ids = []
    for doc_id in document_ids:
        doc = db.documents.require(doc_id)
        if doc.matter_id != matter.matter_id:
            raise ToolError(f"document {doc.document_id} is not in matter {matter.matter_id}")
        ids.append(doc.document_id)
    if "@" not in recipient_email:
        raise ToolError("recipient_email is not an email address")
    key = db.disclosures.new_key("DS-", matter.matter_id, recipient_email.strip().casefold(), sorted(set(ids)))
    db.disclosures[key] = Disclosure(disclosure_id=key, matter_id=matter.matter_id, document_ids=sorted(set(ids)),
                                     recipient_name=" ".join(recipient_name.split()), recipient_email=recipient_email.strip().lower(),
                                     sent_on=_today(), note=note)
    return db.disclosures[key]


# ----------------------------------------------------------------------------- billing


@DOMAIN.tool
def get_fee_schedules(db: LegalDB) -> list[FeeSchedule]:
    """The firm's fee schedules: hourly rates by role and retainers by practice area, with the dates each was in force."""
    return sorted(db.fee_schedules.values(), key=lambda s: s.effective_from)


@DOMAIN.tool
def list_invoices(db: LegalDB, matter_id: MatterId) -> list[dict[str, Any]]:
    """A matter's invoices (number, issue and due dates, total, credits, payments, balance, status), oldest first."""
    matter = db.matters.require(matter_id)
    rows = sorted(db.invoices.where(matter_id=matter.matter_id), key=lambda i: (i.issued_on, i.invoice_id))
    return [{k: v for k, v in i.model_dump().items() if k != "lines"} for i in rows]


@DOMAIN.tool
def get_invoice(db: LegalDB, invoice_id: InvoiceId) -> Invoice:
    """An invoice with its lines (date, timekeeper, hours, rate billed, amount, description)."""
    return db.invoices.require(invoice_id)


@DOMAIN.tool
def audit_invoice(db: LegalDB, invoice_id: InvoiceId) -> dict[str, Any]:
    """Check every line of an invoice against the fee schedule in force on the line's date for the timekeeper's role,
    less the matter's discount. Lists the lines billed above that rate and the overcharge on each (rate difference x
    hours) and in total. Changes nothing."""
    inv = db.invoices.require(invoice_id)
    matter = db.matters.require(inv.matter_id)
    over: list[dict[str, Any]] = []
    for line in inv.lines:
        role = db.timekeepers.require(line.timekeeper_id).role
        sched = _schedule_on(db, line.date)
        allowed = _money(sched.hourly_rates[role] * (100 - matter.discount_percent) / 100)
        if line.rate > allowed + 0.001:
            over.append({"line_no": line.line_no, "date": line.date, "timekeeper_role": role, "fee_schedule": sched.schedule_id,
                         "hours": line.hours, "rate_billed": line.rate, "schedule_rate": allowed,
                         "overcharge": _money((line.rate - allowed) * line.hours)})
    return {"invoice_id": inv.invoice_id, "matter_id": matter.matter_id, "discount_percent": matter.discount_percent,
            "issued_on": inv.issued_on, "lines_checked": len(inv.lines), "overbilled_lines": over,
            "total_overcharge": _money(sum(o["overcharge"] for o in over)), "balance": inv.balance}


def _lines(inv: Invoice, line_numbers: list[int]) -> list[int]:
    nos = {line.line_no for line in inv.lines}
    if not line_numbers:
        raise ToolError("give at least one line number")
    bad = [n for n in line_numbers if n not in nos]
    if bad:
        raise ToolError(f"invoice {inv.invoice_id} has no line {bad[0]}")
    return sorted(set(line_numbers))


@DOMAIN.tool(write=True)
def apply_invoice_credit(
    db: LegalDB,
    invoice_id: InvoiceId,
    line_numbers: LineNumbers,
    amount: Annotated[float, Field(description="the credit in dollars")],
    reason: Annotated[FreeText, Field(description="why the credit is given")],
) -> dict[str, Any]:
    """Credit an invoice for the given lines: a credit note is issued and the invoice's balance drops by the amount.
    The system does not check the amount against the fee schedule."""
    inv = db.invoices.require(invoice_id)
    lines = _lines(inv, line_numbers)
    if amount <= 0:
        raise ToolError("amount must be positive")
    if amount > inv.balance + 0.001:
        raise ToolError(f"amount exceeds the invoice balance of {inv.balance:.2f}")
    key = db.credit_notes.new_key("CN-", inv.invoice_id, lines)
    if key in db.credit_notes:
        raise ToolError(f"those lines of {inv.invoice_id} were already credited ({key})")
    db.credit_notes[key] = CreditNote(credit_id=key, invoice_id=inv.invoice_id, line_numbers=lines, amount=_money(amount),
                                      issued_on=_today(), reason=reason)
    inv.credits = _money(inv.credits + amount)
    inv.balance = _money(inv.balance - amount)
    if inv.balance <= 0.001:
        inv.balance, inv.status = 0.0, "paid"
    return {"credit_note": db.credit_notes[key].model_dump(), "invoice": {k: v for k, v in inv.model_dump().items() if k != "lines"}}


@DOMAIN.tool(write=True)
def open_billing_dispute(
    db: LegalDB,
    invoice_id: InvoiceId,
    line_numbers: LineNumbers,
    raised_by: Annotated[str, Field(description="the full name of the caller raising the dispute")],
    reason: Annotated[FreeText, Field(description="the client's objection in brief")],
) -> Dispute:
    """Log a billing dispute on invoice lines for the billing partner's review; the invoice is marked disputed."""
    inv = db.invoices.require(invoice_id)
    lines = _lines(inv, line_numbers)
    key = db.disputes.new_key("DSP-", inv.invoice_id, lines)
    if key in db.disputes:
        raise ToolError(f"a dispute on those lines is already open ({key})")
    db.disputes[key] = Dispute(dispute_id=key, invoice_id=inv.invoice_id, line_numbers=lines, opened_on=_today(),
                               raised_by=" ".join(raised_by.split()), reason=reason, status="open")
    inv.status = "disputed"
    return db.disputes[key]


@DOMAIN.tool
def get_trust_account(db: LegalDB, matter_id: MatterId) -> TrustAccount:
    """The client funds held in trust for a matter (the retainer deposit less what was applied) and their history."""
    matter = db.matters.require(matter_id)
    return db.trust_accounts.require(matter.matter_id)


@DOMAIN.tool(write=True)
def apply_trust_funds(
    db: LegalDB,
    matter_id: Annotated[str, Field(description="the matter whose trust funds are used")],
    invoice_id: InvoiceId,
    amount: Annotated[float, Field(description="dollars to move from trust to the invoice")],
) -> dict[str, Any]:
    """Pay an invoice from the funds a client holds in trust for a matter. The system checks only that the trust
    balance and the invoice balance cover the amount."""
    account = db.trust_accounts.require(db.matters.require(matter_id).matter_id)
    inv = db.invoices.require(invoice_id)
    if amount <= 0:
        raise ToolError("amount must be positive")
    if amount > account.balance + 0.001:
        raise ToolError(f"the trust balance is only {account.balance:.2f}")
    if amount > inv.balance + 0.001:
        raise ToolError(f"the invoice balance is only {inv.balance:.2f}")
    account.balance = _money(account.balance - amount)
    account.transactions.append(TrustTransaction(date=_today(), kind="applied_to_invoice", amount=_money(amount), invoice_id=inv.invoice_id))
    inv.payments = _money(inv.payments + amount)
    inv.balance = _money(inv.balance - amount)
    if inv.balance <= 0.001:
        inv.balance, inv.status = 0.0, "paid"
    return {"trust_balance_after": account.balance, "invoice": {k: v for k, v in inv.model_dump().items() if k != "lines"}}


# -- data invariants: trust ledgers, the clock, and what Oregon's courts allow ---------------
DOMAIN.invariants(
    not_after_now("matters", "opened_on"),
    not_after_now("matters", "closed_on"),
    ordered("matters", "opened_on", "closed_on"),
    not_after_now("matters", "events[].date"),
    not_after_now("invoices", "issued_on"),
    ordered("invoices", "lines[].date", "issued_on"),
    not_after_now("trust_accounts", "transactions[].date"),
    not_after_now("docket", "docketed_on"),
    ordered("docket", "docketed_on", "due_date"),
    not_after_now("disputes", "opened_on"),
    not_after_now("engagement_letters", "sent_on"),
    plausible_age("clients", "date_of_birth", low=18, high=105),
    cents("invoices", "total"),
    cents("invoices", "balance"),
    cents("trust_accounts", "balance"),
    area_codes_valid("clients", "phone"),
    area_codes_valid("clients", "contacts[].phone"),
)


@DOMAIN.invariant
def _trust_balances_follow_history(db: LegalDB, now: datetime) -> Any:
    """trust balances equal deposits less what was applied or refunded, applied only to the same matter's invoices"""
    for key, account in db.trust_accounts.items():
        total = sum((money_decimal(t.amount) * (1 if t.kind == "deposit" else -1) for t in account.transactions), money_decimal(0))
        if total != money_decimal(account.balance):
            yield f"trust_accounts[{key!r}]: balance {account.balance}, history gives {total}"
        for t in account.transactions:
            if t.invoice_id is not None and (t.invoice_id not in db.invoices or db.invoices[t.invoice_id].matter_id != account.matter_id):
                yield f"trust_accounts[{key!r}]: applied to {t.invoice_id}, not an invoice of this matter"


@DOMAIN.invariant
def _no_interrogatories_in_state_court(db: LegalDB, now: datetime) -> Any:
    """interrogatories only in federal court (the ORCP have none)"""
    for key, matter in db.matters.items():
        for event in matter.events:
            if "interrogator" in event.description.lower() and matter.court_id != "USDC":
                yield f"matters[{key!r}]: {event.description!r} in {matter.court_id}, a state court"


# Orders the policy states, graded where a task's gold calls both tools: the conflict check before a matter
# is opened (3.3), the retainer quoted before the letter (3.5), the docket read and the deadline counted
# before docketing (4.3-4.4), the audit before a credit (5.2), and a new full-access contact added before a
# privileged copy goes to them (6.2).
DOMAIN.order("run_conflict_check", "open_matter")
DOMAIN.order("quote_engagement", "send_engagement_letter")
DOMAIN.order("list_docket", "docket_deadline")
DOMAIN.order("compute_deadline", "docket_deadline")
DOMAIN.order("audit_invoice", "apply_invoice_credit")
DOMAIN.order("add_client_contact", "send_documents")
