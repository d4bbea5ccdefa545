"""Tallyhouse Bookkeeping, the client desk: vendor invoices and their approvals, payments
matched to invoices, bank reconciliations, tax codes, period close and budgets. The policy
fixes the current time: Monday 2026-05-18 10:00 Eastern.

The tools refuse only what the data makes impossible (no such record, not this client's,
more than a payment has left or an invoice still owes, a line already matched). The
policy's rules (approval limits, who may do what, closed periods, matching rules, when a
reconciliation may be completed) are the agent's to apply.
"""

from __future__ import annotations

import math
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import cents, half_up, money_decimal, not_after_now, ordered
from tests_domains.accounting.schema import (
    AccountingDB,
    Application,
    Approval,
    Budget,
    Client,
    Contact,
    Invoice,
    JournalEntry,
    LedgerAccount,
    Payment,
    Period,
    Statement,
    StatementLine,
    TaxCode,
    Vendor,
)

DOMAIN = Domain("accounting", AccountingDB, now=datetime(2026, 5, 18, 10, 0))

ClientId = Annotated[str, Field(description="the client company's id, e.g. 'CL0117' (from verify_contact)")]
ContactId = Annotated[str, Field(description="a contact's id, e.g. 'CT011702' (from verify_contact or list_contacts)")]
InvoiceId = Annotated[str, Field(description="our invoice id, e.g. 'BL300412' (from list_invoices)")]
PaymentId = Annotated[str, Field(description="a payment id, e.g. 'PM700231' (from list_payments)")]
Month = Annotated[str, Field(description="a month as YYYY-MM, e.g. '2026-04'")]
AccountCode = Annotated[str, Field(description="a chart-of-accounts code, e.g. '6100' (from list_accounts)")]


# -- helpers ---------------------------------------------------------------------------
def _money(value: float) -> float:
    if not math.isfinite(value) or abs(value) >= 1e13:
        raise ToolError("the amount is not a realistic sum of money")
    return float(Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)) + 0.0


def _tax(amount: float, rate: float) -> float:
    return _money(float(Decimal(str(amount)) * Decimal(str(rate)) / 100))


def _month(text: str, what: str = "month") -> str:
    text = text.strip()
    try:
        if len(text) != 7:
            raise ValueError(text)
        date.fromisoformat(text + "-01")
    except ValueError:
        raise ToolError(f"{what} must be YYYY-MM, got {text[:40]!r}") from None
    return text


def _date(text: str, what: str = "date") -> str:
    text = text.strip()
    try:
        if len(text) != 10:
            raise ValueError(text)
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise ToolError(f"{what} must be YYYY-MM-DD, got {text[:40]!r}") from None


def _amount(value: float) -> float:
    if not (math.isfinite(value) and value > 0):
        raise ToolError("the amount must be a positive number")
    if round(value, 2) != value:
        raise ToolError("the amount must be in whole cents")
    return _money(value)


def _same_client(record_client: str, client_id: str, what: str) -> None:
    if record_client != client_id:
        raise ToolError(f"{what} belongs to another client")


def _open_balance(invoice: Invoice) -> float:
    return _money(invoice.total - invoice.amount_paid)


def _invoice_view(invoice: Invoice) -> dict[str, Any]:
    view: dict[str, Any] = invoice.model_dump(mode="json")
    view["approvals"] = sorted(view["approvals"], key=lambda a: (a["date"], a["contact_id"]))
    view["open_balance"] = _open_balance(invoice)
    return view


def _payment_view(payment: Payment) -> dict[str, Any]:
    view: dict[str, Any] = payment.model_dump(mode="json")
    view["applications"] = sorted(view["applications"], key=lambda a: (a["date"], a["invoice_id"], a["amount"]))
    return view


def _recompute(invoice: Invoice) -> None:
    """The vendor's sales tax is on the payable; self-assessed use tax is accrued for the state, not the vendor."""
    invoice.subtotal = _money(sum(x.amount for x in invoice.lines))
    invoice.tax_total = _money(sum(x.tax for x in invoice.lines if not x.tax_code.startswith("USE-")))
    invoice.use_tax = _money(sum(x.tax for x in invoice.lines if x.tax_code.startswith("USE-")))
    invoice.total = _money(invoice.subtotal + invoice.tax_total)


# -- callers and the client's set-up ---------------------------------------------------
@DOMAIN.tool(authenticates=True)
def verify_contact(
    db: AccountingDB,
    first_name: str,
    last_name: str,
    email: Annotated[str, Field(description="the caller's work email address")],
    client_code: Annotated[str, Field(description="the client reference the caller quotes, e.g. 'TH-4821'")],
) -> dict[str, Any]:
    """Authenticate a caller: find the client's staff member whose first and last name, work
    email and client reference all match. Returns the contact (with their approval role) and
    their client company."""
    clients = db.clients.find(client_code=client_code)
    if clients:
        for contact in db.contacts.find(email=email.strip()):
            if (contact.client_id == clients[0].client_id and contact.first_name.lower() == first_name.strip().lower()
                    and contact.last_name.lower() == last_name.strip().lower()):
                return {"contact": contact, "client": clients[0]}
    raise ToolError("no staff member of a client matches that name, email and client reference; the caller is not verified")


@DOMAIN.tool
def get_client(db: AccountingDB, client_id: ClientId) -> Client:
    """Return a client company's profile: name, state, resale certificate on file, bookkeeper."""
    return db.clients.require(client_id)


@DOMAIN.tool
def list_contacts(db: AccountingDB, client_id: ClientId) -> list[Contact]:
    """List the client's registered staff with their titles, approval roles and whether they are active."""
    client = db.clients.require(client_id)
    return sorted(db.contacts.where(client_id=client.client_id), key=lambda c: c.contact_id)


@DOMAIN.tool
def list_accounts(db: AccountingDB, client_id: ClientId) -> list[LedgerAccount]:
    """Return the client's chart of accounts (codes, names and types; expense accounts are the expense categories)."""
    client = db.clients.require(client_id)
    return sorted(db.accounts.where(client_id=client.client_id), key=lambda a: a.code)


@DOMAIN.tool
def list_periods(db: AccountingDB, client_id: ClientId) -> list[Period]:
    """List the client's monthly accounting periods, each open or closed (with the date it was closed)."""
    client = db.clients.require(client_id)
    return sorted(db.periods.where(client_id=client.client_id), key=lambda p: p.month)


@DOMAIN.tool
def find_vendor(
    db: AccountingDB, client_id: ClientId, name: Annotated[str, Field(description="part of the vendor's name, case-insensitive")]
) -> list[Vendor]:
    """Find the client's vendors whose name contains the text."""
    client = db.clients.require(client_id)
    needle = " ".join(name.split()).lower()
    if not needle:
        raise ToolError("give part of the vendor's name")
    found = sorted((v for v in db.vendors.where(client_id=client.client_id) if needle in v.name.lower()), key=lambda v: v.vendor_id)
    if not found:
        raise ToolError(f"client {client.client_id} has no vendor whose name contains {name.strip()[:60]!r}")
    return found


@DOMAIN.tool
def lookup_tax_code(
    db: AccountingDB,
    code: Annotated[str, Field(description="a tax code, e.g. 'GS-CA', 'USE-TX', 'EX-SVC'")],
    amount: Annotated[float | None, Field(description="a pre-tax line amount to compute the tax on")] = None,
) -> dict[str, Any]:
    """Look up a tax code (what it is for, its rate) and, given a pre-tax amount, the tax on it."""
    tax_code = db.tax_codes.require(code)
    result: dict[str, Any] = tax_code.model_dump(mode="json")
    if amount is not None:
        if not math.isfinite(amount) or amount < 0:
            raise ToolError("the amount must be a non-negative number")
        result["amount"] = _money(amount)
        result["tax"] = _tax(_money(amount), tax_code.rate_percent)
        result["amount_with_tax"] = _money(result["amount"] + result["tax"])
    return result


@DOMAIN.tool
def list_tax_codes(db: AccountingDB) -> list[TaxCode]:
    """List every tax code with its rate and what it applies to."""
    return sorted(db.tax_codes.values(), key=lambda t: t.code)


# -- invoices --------------------------------------------------------------------------
@DOMAIN.tool
def list_invoices(
    db: AccountingDB,
    client_id: ClientId,
    vendor_id: Annotated[str | None, Field(description="only this vendor's invoices (from find_vendor)")] = None,
    status: Literal["awaiting_approval", "posted", "rejected"] | None = None,
    vendor_invoice_number: Annotated[str | None, Field(description="the number printed on the vendor's invoice")] = None,
) -> list[dict[str, Any]]:
    """List the client's vendor invoices (newest first, at most 40): vendor, the vendor's
    invoice number, dates, total, open balance, status and number of approvals."""
    client = db.clients.require(client_id)
    hits = list(db.invoices.where(client_id=client.client_id))
    if vendor_id:
        hits = [i for i in hits if i.vendor_id == vendor_id.strip()]
    if status:
        hits = [i for i in hits if i.status == status]
    if vendor_invoice_number:
        wanted = vendor_invoice_number.strip().lower()
        hits = [i for i in hits if i.vendor_invoice_number.lower() == wanted]
    hits.sort(key=lambda i: (i.invoice_date, i.invoice_id), reverse=True)
    return [
        {"invoice_id": i.invoice_id, "vendor_id": i.vendor_id, "vendor_name": i.vendor_name,
         "vendor_invoice_number": i.vendor_invoice_number, "invoice_date": i.invoice_date, "due_date": i.due_date,
         "total": i.total, "open_balance": _open_balance(i), "status": i.status, "approvals": len(i.approvals)}
        for i in hits[:40]
    ]


@DOMAIN.tool
def get_invoice(db: AccountingDB, invoice_id: InvoiceId) -> dict[str, Any]:
    """Return one invoice in full: its lines (category account, amount, tax code, tax), totals,
    who submitted it, the approvals recorded so far, posting date, amount paid and open balance."""
    return _invoice_view(db.invoices.require(invoice_id))


@DOMAIN.tool(write=True)
def approve_invoice(db: AccountingDB, invoice_id: InvoiceId, contact_id: ContactId) -> dict[str, Any]:
    """Record an approval of an invoice awaiting approval, in the name of the given contact
    (dated today). Returns the invoice with all its approvals."""
    invoice = db.invoices.require(invoice_id)
    contact = db.contacts.require(contact_id)
    _same_client(contact.client_id, invoice.client_id, f"contact {contact.contact_id}")
    if invoice.status != "awaiting_approval":
        raise ToolError(f"invoice {invoice.invoice_id} is {invoice.status}, not awaiting approval")
    if any(a.contact_id == contact.contact_id for a in invoice.approvals):
        raise ToolError(f"{contact.first_name} {contact.last_name} has already approved invoice {invoice.invoice_id}")
    invoice.approvals.append(Approval(contact_id=contact.contact_id, name=f"{contact.first_name} {contact.last_name}",
                                      role=contact.role, date=DOMAIN.today.isoformat()))
    return _invoice_view(invoice)


@DOMAIN.tool(write=True)
def reject_invoice(
    db: AccountingDB,
    invoice_id: InvoiceId,
    contact_id: ContactId,
    reason: Literal["duplicate", "wrong_amount", "not_ordered", "wrong_vendor"],
    note: Annotated[FreeText, Field(description="a short note in the caller's words")],
) -> dict[str, Any]:
    """Reject an invoice awaiting approval, in the name of the given contact. It will not be posted or paid."""
    invoice = db.invoices.require(invoice_id)
    contact = db.contacts.require(contact_id)
    _same_client(contact.client_id, invoice.client_id, f"contact {contact.contact_id}")
    if invoice.status != "awaiting_approval":
        raise ToolError(f"invoice {invoice.invoice_id} is {invoice.status}, not awaiting approval")
    invoice.status = "rejected"
    invoice.rejection_reason = reason
    invoice.rejection_note = note
    return _invoice_view(invoice)


@DOMAIN.tool(write=True)
def post_invoice(
    db: AccountingDB,
    invoice_id: InvoiceId,
    posting_date: Annotated[str, Field(description="the date the invoice is posted to the ledger, YYYY-MM-DD")],
) -> dict[str, Any]:
    """Post an invoice to the client's ledger (accounts payable and its expense categories) on
    the given posting date, in the accounting period of that date."""
    invoice = db.invoices.require(invoice_id)
    day = _date(posting_date, "posting_date")
    if invoice.status != "awaiting_approval":
        raise ToolError(f"invoice {invoice.invoice_id} is {invoice.status}; only an invoice awaiting approval can be posted")
    period_id = f"PER-{invoice.client_id}-{day[:7]}"
    if period_id not in db.periods:
        raise ToolError(f"client {invoice.client_id} has no accounting period for {day[:7]}")
    invoice.status = "posted"
    invoice.posting_date = day
    result = _invoice_view(invoice)
    result["period"] = db.periods[period_id]
    return result


@DOMAIN.tool(write=True)
def update_invoice_line(
    db: AccountingDB,
    invoice_id: InvoiceId,
    line_no: Annotated[int, Field(description="the line's number on the invoice (1, 2, ...)")],
    account_code: Annotated[str, Field(description="the expense category (chart-of-accounts code) for the line")],
    tax_code: Annotated[str, Field(description="the tax code for the line")],
) -> dict[str, Any]:
    """Change one invoice line's category account and tax code; the line's tax and the
    invoice's totals are recomputed from the tax code's rate. Returns the updated invoice."""
    invoice = db.invoices.require(invoice_id)
    tax_code_rec = db.tax_codes.require(tax_code)
    code = account_code.strip()
    if f"AC{invoice.client_id[2:]}-{code}" not in db.accounts:
        raise ToolError(f"client {invoice.client_id} has no account {code[:20]!r} in its chart of accounts")
    line = next((x for x in invoice.lines if x.line_no == line_no), None)
    if line is None:
        raise ToolError(f"invoice {invoice.invoice_id} has no line {line_no}")
    line.account_code = code
    line.tax_code = tax_code_rec.code
    line.tax = _tax(line.amount, tax_code_rec.rate_percent)
    _recompute(invoice)
    return _invoice_view(invoice)


# -- payments --------------------------------------------------------------------------
@DOMAIN.tool
def list_payments(
    db: AccountingDB,
    client_id: ClientId,
    vendor_id: Annotated[str | None, Field(description="only payments to this vendor")] = None,
    unapplied_only: Annotated[bool, Field(description="only payments with an amount not yet applied to invoices")] = False,
) -> list[dict[str, Any]]:
    """List the client's payments to vendors (newest first, at most 40): date, amount, method,
    reference (check number, ACH trace, wire confirmation), invoices applied and unapplied amount."""
    client = db.clients.require(client_id)
    hits = list(db.payments.where(client_id=client.client_id))
    if vendor_id:
        hits = [p for p in hits if p.vendor_id == vendor_id.strip()]
    if unapplied_only:
        hits = [p for p in hits if p.unapplied > 0]
    hits.sort(key=lambda p: (p.date, p.payment_id), reverse=True)
    return [_payment_view(p) for p in hits[:40]]


@DOMAIN.tool
def get_payment(db: AccountingDB, payment_id: PaymentId) -> dict[str, Any]:
    """Return one payment with the invoices it has been applied to and its unapplied amount."""
    return _payment_view(db.payments.require(payment_id))


def _check_application(db: AccountingDB, payment: Payment, invoice: Invoice) -> None:
    _same_client(invoice.client_id, payment.client_id, f"invoice {invoice.invoice_id}")
    if invoice.vendor_id != payment.vendor_id:
        raise ToolError(f"payment {payment.payment_id} went to {payment.vendor_name}; invoice {invoice.invoice_id} is from {invoice.vendor_name}")
    if invoice.status == "rejected":
        raise ToolError(f"invoice {invoice.invoice_id} was rejected; nothing is owed on it")


@DOMAIN.tool
def preview_payment_application(db: AccountingDB, payment_id: PaymentId, invoice_id: InvoiceId) -> dict[str, Any]:
    """Preview applying a payment to an invoice (nothing changes): the most that can be applied
    (the smaller of the payment's unapplied amount and the invoice's open balance), and the
    invoice's open balance and the payment's unapplied amount after applying that much."""
    payment = db.payments.require(payment_id)
    invoice = db.invoices.require(invoice_id)
    _check_application(db, payment, invoice)
    most = _money(min(payment.unapplied, _open_balance(invoice)))
    return {
        "payment_id": payment.payment_id, "invoice_id": invoice.invoice_id, "invoice_status": invoice.status,
        "payment_unapplied": payment.unapplied, "invoice_open_balance": _open_balance(invoice), "max_applicable": most,
        "invoice_open_balance_after": _money(_open_balance(invoice) - most),
        "payment_unapplied_after": _money(payment.unapplied - most),
    }


@DOMAIN.tool(write=True)
def apply_payment(db: AccountingDB, payment_id: PaymentId, invoice_id: InvoiceId, amount: float) -> dict[str, Any]:
    """Apply part or all of a payment to an invoice of the same vendor. Returns the payment
    and the invoice's new open balance."""
    payment = db.payments.require(payment_id)
    invoice = db.invoices.require(invoice_id)
    _check_application(db, payment, invoice)
    value = _amount(amount)
    if value > payment.unapplied:
        raise ToolError(f"payment {payment.payment_id} has only {payment.unapplied:.2f} left to apply")
    if value > _open_balance(invoice):
        raise ToolError(f"invoice {invoice.invoice_id} has only {_open_balance(invoice):.2f} open")
    payment.applications.append(Application(invoice_id=invoice.invoice_id, amount=value, date=DOMAIN.today.isoformat()))
    payment.unapplied = _money(payment.unapplied - value)
    invoice.amount_paid = _money(invoice.amount_paid + value)
    return {"payment": _payment_view(payment), "invoice_id": invoice.invoice_id, "invoice_open_balance": _open_balance(invoice)}


# -- bank reconciliation ---------------------------------------------------------------
def _statement(db: AccountingDB, client_id: str, month: str) -> Statement:
    client = db.clients.require(client_id)
    sid = f"ST-{client.client_id}-{_month(month)}"
    if sid not in db.statements:
        raise ToolError(f"no bank statement for client {client.client_id} for {month.strip()[:10]}")
    return db.statements[sid]


@DOMAIN.tool
def preview_reconciliation(db: AccountingDB, client_id: ClientId, month: Month) -> dict[str, Any]:
    """Preview the reconciliation of the client's operating bank account against its statement
    for a month (nothing changes): the statement's opening and closing balances, the cleared
    balance (opening balance plus every matched line), the difference between the closing
    and cleared balances, the unmatched statement lines, and the client's payments from that
    month (or the 10 days before it) not yet matched to any statement line."""
    statement = _statement(db, client_id, month)
    lines = sorted(db.statement_lines.where(statement_id=statement.statement_id), key=lambda x: (x.date, x.line_id))
    matched = _money(sum(x.amount for x in lines if x.matched_to is not None))
    cleared = _money(statement.opening_balance + matched)
    start = date.fromisoformat(statement.month + "-01")
    window_start = date.fromordinal(start.toordinal() - 10).isoformat()
    month_end = (date(start.year + start.month // 12, start.month % 12 + 1, 1)).isoformat()
    used = {x.matched_to for x in db.statement_lines.where(client_id=statement.client_id) if x.matched_to}
    uncleared = sorted(
        (p for p in db.payments.where(client_id=statement.client_id)
         if p.payment_id not in used and window_start <= p.date < month_end),
        key=lambda p: (p.date, p.payment_id),
    )
    return {
        "statement": statement,
        "cleared_balance": cleared,
        "difference": _money(statement.closing_balance - cleared),
        "unmatched_lines": [x for x in lines if x.matched_to is None],
        "matched_line_count": sum(1 for x in lines if x.matched_to is not None),
        "uncleared_payments": [
            {"payment_id": p.payment_id, "vendor_name": p.vendor_name, "date": p.date, "amount": p.amount,
             "method": p.method, "reference": p.reference}
            for p in uncleared
        ],
    }


@DOMAIN.tool(write=True)
def match_statement_line(
    db: AccountingDB,
    line_id: Annotated[str, Field(description="a statement line's id, e.g. 'SL901234' (from preview_reconciliation)")],
    payment_id: PaymentId,
) -> StatementLine:
    """Match a bank statement line to the client's payment it records."""
    line = db.statement_lines.require(line_id)
    payment = db.payments.require(payment_id)
    _same_client(payment.client_id, line.client_id, f"payment {payment.payment_id}")
    if line.matched_to is not None:
        raise ToolError(f"statement line {line.line_id} is already matched to {line.matched_to}")
    if any(True for x in db.statement_lines.where(client_id=line.client_id, matched_to=payment.payment_id)):
        raise ToolError(f"payment {payment.payment_id} is already matched to another statement line")
    line.matched_to = payment.payment_id
    return line


@DOMAIN.tool(write=True)
def record_bank_charge(
    db: AccountingDB,
    line_id: Annotated[str, Field(description="the statement line of the bank's charge")],
) -> dict[str, Any]:
    """Record a charge the bank took (shown on the statement, not yet in the books) as an
    expense to Bank Service Charges (6050), dated on the statement line's date, and match the
    line to the new journal entry."""
    line = db.statement_lines.require(line_id)
    if line.matched_to is not None:
        raise ToolError(f"statement line {line.line_id} is already matched to {line.matched_to}")
    if line.amount >= 0:
        raise ToolError(f"statement line {line.line_id} is money coming in, not a charge")
    entry_id = db.journal.new_key("JE-BC", line.line_id)
    entry = JournalEntry(entry_id=entry_id, client_id=line.client_id, date=line.date, debit_account_code="6050",
                         credit_account_code="1010", amount=_money(-line.amount), memo=line.description, source="bank_charge")
    db.journal[entry_id] = entry
    line.matched_to = entry_id
    return {"journal_entry": entry, "statement_line": line}


@DOMAIN.tool(write=True)
def complete_reconciliation(db: AccountingDB, client_id: ClientId, month: Month, contact_id: ContactId) -> Statement:
    """Mark the client's bank statement for a month reconciled, signed off by the given contact (today)."""
    statement = _statement(db, client_id, month)
    contact = db.contacts.require(contact_id)
    _same_client(contact.client_id, statement.client_id, f"contact {contact.contact_id}")
    if statement.status == "reconciled":
        raise ToolError(f"the {statement.month} statement is already reconciled")
    statement.status = "reconciled"
    statement.reconciled_by = contact.contact_id
    statement.reconciled_date = DOMAIN.today.isoformat()
    return statement


# -- budgets ---------------------------------------------------------------------------
def _actuals(db: AccountingDB, client_id: str, month: str) -> dict[str, float]:
    totals: dict[str, float] = {}
    for invoice in db.invoices.where(client_id=client_id):
        if invoice.status == "posted" and (invoice.posting_date or "").startswith(month):
            for line in invoice.lines:
                totals[line.account_code] = totals.get(line.account_code, 0.0) + line.amount
    for entry in db.journal.where(client_id=client_id):
        if entry.date.startswith(month):
            totals[entry.debit_account_code] = totals.get(entry.debit_account_code, 0.0) + entry.amount
    return {k: _money(v) for k, v in totals.items()}


@DOMAIN.tool
def budget_report(
    db: AccountingDB,
    client_id: ClientId,
    month: Month,
    account_code: Annotated[str | None, Field(description="only this expense category")] = None,
) -> list[dict[str, Any]]:
    """Budget versus actual for a month, per budgeted expense category: the budget, the actual
    (pre-tax amounts of invoices posted in that month plus bank charges), the variance (budget
    minus actual; negative means over budget) and the variance as a percent of the budget."""
    client = db.clients.require(client_id)
    wanted = _month(month)
    names = {a.code: a.name for a in db.accounts.where(client_id=client.client_id)}
    actuals = _actuals(db, client.client_id, wanted)
    rows = []
    for budget in sorted(db.budgets.where(client_id=client.client_id, month=wanted), key=lambda b: b.account_code):
        if account_code and budget.account_code != account_code.strip():
            continue
        actual = actuals.get(budget.account_code, 0.0)
        variance = _money(budget.amount - actual)
        rows.append({
            "account_code": budget.account_code, "category": names.get(budget.account_code, ""), "month": wanted,
            "budget": budget.amount, "actual": actual, "variance": variance,
            "variance_percent": round(variance / budget.amount * 100, 1) if budget.amount else None,
        })
    if not rows:
        raise ToolError(f"client {client.client_id} has no budget for {wanted}" + (f" in category {account_code.strip()[:20]}" if account_code else ""))
    return rows


@DOMAIN.tool(write=True)
def move_budget(
    db: AccountingDB,
    client_id: ClientId,
    month: Month,
    from_account_code: AccountCode,
    to_account_code: AccountCode,
    amount: float,
) -> list[Budget]:
    """Move budget from one expense category to another within the same month. Returns both budgets."""
    client = db.clients.require(client_id)
    wanted = _month(month)
    value = _amount(amount)
    src = db.budgets.require(f"BU-{client.client_id}-{from_account_code.strip()}-{wanted}")
    dst = db.budgets.require(f"BU-{client.client_id}-{to_account_code.strip()}-{wanted}")
    if src.budget_id == dst.budget_id:
        raise ToolError("the two categories must differ")
    if value > src.amount:
        raise ToolError(f"the {src.account_code} budget for {wanted} is only {src.amount:.2f}")
    src.amount = _money(src.amount - value)
    dst.amount = _money(dst.amount + value)
    return [src, dst]


# -- data invariants: invoices add up (use tax to the state), statements follow their lines --
DOMAIN.invariants(
    not_after_now("invoices", "invoice_date"),
    not_after_now("invoices", "posting_date"),
    not_after_now("invoices", "approvals[].date"),
    ordered("invoices", "invoice_date", "due_date"),
    ordered("invoices", "invoice_date", "posting_date"),
    not_after_now("payments", "date"),
    not_after_now("payments", "applications[].date"),
    not_after_now("journal", "date"),
    not_after_now("statement_lines", "date"),
    not_after_now("statements", "reconciled_date"),
    not_after_now("periods", "closed_date"),
    cents("invoices", "total"),
    cents("invoices", "lines[].tax"),
    cents("payments", "amount"),
    cents("statement_lines", "amount"),
)


@DOMAIN.invariant
def _invoices_add_up(db: AccountingDB, now: datetime) -> Any:
    """each line's tax is its rate rounded half-up; the payable holds the vendor's sales tax, the use tax is the state's"""
    for key, invoice in db.invoices.items():
        for line in invoice.lines:
            rate = db.tax_codes[line.tax_code].rate_percent
            if money_decimal(line.tax) != half_up(money_decimal(line.amount) * money_decimal(rate) / 100):
                yield f"invoices[{key!r}] line {line.line_no}: tax {line.tax} is not {rate}% of {line.amount}"
        sales = sum((money_decimal(x.tax) for x in invoice.lines if not x.tax_code.startswith("USE-")), money_decimal(0))
        use = sum((money_decimal(x.tax) for x in invoice.lines if x.tax_code.startswith("USE-")), money_decimal(0))
        subtotal = sum((money_decimal(x.amount) for x in invoice.lines), money_decimal(0))
        if (money_decimal(invoice.tax_total), money_decimal(invoice.use_tax)) != (sales, use):
            yield f"invoices[{key!r}]: tax_total {invoice.tax_total} / use_tax {invoice.use_tax}, lines give {sales} / {use}"
        if money_decimal(invoice.total) != subtotal + sales:
            yield f"invoices[{key!r}]: total {invoice.total}, but subtotal {subtotal} + vendor's sales tax {sales} = {subtotal + sales}"


@DOMAIN.invariant
def _statements_follow_their_lines(db: AccountingDB, now: datetime) -> Any:
    """a statement's closing balance is its opening balance plus its lines"""
    moved: dict[str, Decimal] = {}
    for line in db.statement_lines.values():
        moved[line.statement_id] = moved.get(line.statement_id, Decimal(0)) + money_decimal(line.amount)
    for key, statement in db.statements.items():
        expected = money_decimal(statement.opening_balance) + moved.get(key, Decimal(0))
        if expected != money_decimal(statement.closing_balance):
            yield f"statements[{key!r}]: closing {statement.closing_balance}, opening plus lines gives {expected}"


# Orders the policy states, graded where a task's gold calls both tools: the periods are read before a posting
# (4.1-4.2), a line's new tax is told before the correction (5.4), an application is previewed before it is
# made (6.3), a payment applies only to a posted invoice (6.1), and a fresh preview shows the difference
# before a reconciliation is completed (7.5).
DOMAIN.order("list_periods", "post_invoice")
DOMAIN.order("lookup_tax_code", "update_invoice_line")
DOMAIN.order("preview_payment_application", "apply_payment")
DOMAIN.order("post_invoice", "apply_payment")
DOMAIN.order("preview_reconciliation", "complete_reconciliation")
