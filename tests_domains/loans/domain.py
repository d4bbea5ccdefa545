"""The loan servicing desk of Keystone Ridge Lending: personal and auto loans.

Tools authenticate borrowers, read loans, schedules, payment histories and fees, quote
payoffs, take applications, book approved offers, post payments, grant deferrals, manage
autopay and courtesy late-fee waivers. Hard constraints are enforced here; judgement
(hardship, courtesy-waiver eligibility, confirmation, who is calling) is the agent's job.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from pytest_tau import Domain, ToolError
from pytest_tau import calculate as _calculate
from tests_domains.loans.rules import (
    AUTOPAY_DISCOUNT,
    DEFERRAL_MIN_PAYMENTS,
    MAX_DEFERRALS,
    MIN_EXTRA_PAYMENT,
    OFFER_DAYS,
    PAYOFF_QUOTE_MAX_DAYS,
    TODAY,
    TODAY_S,
    add_months,
    amortized_payment,
    band_for,
    d,
    daily_interest,
    monthly_interest,
    months_between,
)
from tests_domains.loans.schema import (
    Application,
    BankAccount,
    Borrower,
    Deferral,
    Fee,
    Hardship,
    Loan,
    LoansDB,
    Payment,
    Product,
    Purpose,
    RateTier,
    WithdrawalReason,
)

DOMAIN = Domain("loans", LoansDB, fixtures=Path(__file__).parents[2] / "fixtures" / "loans")

LoanNumber = Annotated[str, Field(description="the loan number, such as 'PL12345678' or 'AL87654321'")]
BorrowerId = Annotated[str, Field(description="the borrower id returned by authentication, such as 'BRW123456'")]
AccountId = Annotated[str, Field(description="the id of a bank account on the borrower's profile, such as 'BA000123'")]


# -- helpers ---------------------------------------------------------------------------
def _loan(db: LoansDB, loan_number: str) -> Loan:
    loan = db.loans.get(loan_number.strip().upper())
    if loan is None:
        raise ToolError(f"no loan {loan_number!r}")
    return loan


def _borrower(db: LoansDB, borrower_id: str) -> Borrower:
    borrower = db.borrowers.get(borrower_id.strip())
    if borrower is None:
        raise ToolError(f"no borrower {borrower_id!r}")
    return borrower


def _verified_account(db: LoansDB, borrower_id: str, account_id: str) -> BankAccount:
    borrower = _borrower(db, borrower_id)
    for account in borrower.bank_accounts:
        if account.account_id == account_id:
            if not account.verified:
                raise ToolError(f"bank account {account_id} is not verified yet; it cannot be used for payments or autopay")
            return account
    raise ToolError(f"bank account {account_id!r} is not on this borrower's profile")


def _open(loan: Loan) -> None:
    if loan.status == "paid_off":
        raise ToolError(f"loan {loan.loan_number} is paid off")


def _remaining_installments(loan: Loan) -> int:
    if loan.next_due_date is None:
        return 0
    return months_between(d(loan.next_due_date), d(loan.maturity_date))


def _prepay_fee_pct(db: LoansDB, loan: Loan) -> float:
    product = db.products[loan.product_id]
    if product.prepayment_fee_pct and TODAY < add_months(d(loan.origination_date), product.prepayment_fee_window_months):
        return product.prepayment_fee_pct
    return 0.0


def _new_id(prefix: str, table: dict, width: int) -> str:
    return f"{prefix}{len(table) + 1:0{width}d}"


class PayoffQuote(BaseModel):
    loan_number: str
    payoff_date: str
    principal_balance: float
    interest_paid_through: str
    days_of_interest: int
    daily_interest: float
    accrued_interest: float
    deferred_interest: float
    late_fees_due: float
    prepayment_fee: float
    total_payoff: float


def _quote(db: LoansDB, loan: Loan, day: dt.date) -> PayoffQuote:
    days = (day - d(loan.interest_paid_through)).days
    accrued = daily_interest(loan.principal_balance, loan.apr, days)
    fee = round(loan.principal_balance * _prepay_fee_pct(db, loan) / 100, 2)
    total = round(loan.principal_balance + accrued + loan.deferred_interest + loan.late_fees_due + fee, 2)
    return PayoffQuote(
        loan_number=loan.loan_number, payoff_date=day.isoformat(), principal_balance=loan.principal_balance,
        interest_paid_through=loan.interest_paid_through, days_of_interest=max(days, 0),
        daily_interest=round(loan.principal_balance * loan.apr / 100 / 365, 4), accrued_interest=accrued,
        deferred_interest=loan.deferred_interest, late_fees_due=loan.late_fees_due, prepayment_fee=fee,
        total_payoff=total,
    )


def _reprice(loan: Loan, apr: float) -> None:
    loan.apr = round(apr, 2)
    loan.monthly_payment = amortized_payment(loan.principal_balance, loan.apr, _remaining_installments(loan))


# -- authentication and lookups -------------------------------------------------------------
@DOMAIN.tool
def find_borrower_by_loan_number(
    db: LoansDB,
    loan_number: LoanNumber,
    ssn_last4: Annotated[str, Field(description="the last 4 digits of the borrower's Social Security number")],
) -> str:
    """Authenticate a caller by loan number and the last 4 digits of the borrower's SSN; returns the borrower id."""
    loan = db.loans.get(loan_number.strip().upper())
    if loan is None:
        raise ToolError("no match for that loan number and SSN")
    borrower = db.borrowers[loan.borrower_id]
    if borrower.ssn_last4 != ssn_last4.strip():
        raise ToolError("no match for that loan number and SSN")
    return borrower.borrower_id


@DOMAIN.tool
def find_borrower_by_identity(
    db: LoansDB,
    first_name: str,
    last_name: str,
    date_of_birth: Annotated[str, Field(description="date of birth as YYYY-MM-DD")],
    zip: Annotated[str, Field(description="the 5-digit zip code of the borrower's mailing address")],
) -> str:
    """Authenticate a caller by full name, date of birth and zip code; returns the borrower id."""
    for borrower in db.borrowers.values():
        if (
            borrower.first_name.lower() == first_name.strip().lower()
            and borrower.last_name.lower() == last_name.strip().lower()
            and borrower.date_of_birth == date_of_birth.strip()
            and borrower.zip == zip.strip()
        ):
            return borrower.borrower_id
    raise ToolError("no borrower matches that name, date of birth and zip code")


@DOMAIN.tool
def get_borrower_profile(db: LoansDB, borrower_id: BorrowerId) -> Borrower:
    """Return a borrower's contact details, credit score on file, bank accounts, loan numbers and application ids."""
    return _borrower(db, borrower_id)


@DOMAIN.tool
def get_loan_details(db: LoansDB, loan_number: LoanNumber) -> Loan:
    """Return a loan's terms, balance, status, next due date, autopay and deferral counters."""
    return _loan(db, loan_number)


@DOMAIN.tool
def get_payment_history(
    db: LoansDB,
    loan_number: LoanNumber,
    year: Annotated[int | None, Field(description="only payments posted in this calendar year; omit for all")] = None,
) -> list[Payment]:
    """Return the posted payments of a loan (oldest first) with their principal, interest and fee split."""
    loan = _loan(db, loan_number)
    found = [p for p in db.payments.values() if p.loan_number == loan.loan_number]
    if year is not None:
        found = [p for p in found if p.posted_date.startswith(f"{year}-")]
    return sorted(found, key=lambda p: (p.posted_date, p.payment_id))


@DOMAIN.tool
def list_loan_fees(db: LoansDB, loan_number: LoanNumber) -> list[Fee]:
    """Return every fee ever assessed on a loan (late and prepayment fees) with its status."""
    loan = _loan(db, loan_number)
    found = [f for f in db.fees.values() if f.loan_number == loan.loan_number]
    return sorted(found, key=lambda f: (f.assessed_date, f.fee_id))


@DOMAIN.tool
def list_deferrals(db: LoansDB, loan_number: LoanNumber) -> list[Deferral]:
    """Return the payment deferrals granted on a loan."""
    loan = _loan(db, loan_number)
    return sorted((x for x in db.deferrals.values() if x.loan_number == loan.loan_number), key=lambda x: x.deferral_id)


class ScheduleRow(BaseModel):
    installment: int
    due_date: str
    payment: float
    interest: float
    principal: float
    balance_after: float


@DOMAIN.tool
def get_amortization_schedule(
    db: LoansDB,
    loan_number: LoanNumber,
    installments: Annotated[int, Field(description="how many upcoming installments to show (1-24)")] = 12,
) -> list[ScheduleRow]:
    """Project the upcoming installments of an open loan: due date, payment, interest and principal split.

    The projection uses one month of interest per installment (APR / 12) on the current principal;
    actual interest accrues daily and depends on the date each payment posts.
    """
    loan = _loan(db, loan_number)
    _open(loan)
    if not 1 <= installments <= 24:
        raise ToolError("installments must be between 1 and 24")
    rows, balance = [], loan.principal_balance
    due = d(loan.next_due_date)
    left = _remaining_installments(loan)
    for i in range(min(installments, left)):
        interest = monthly_interest(balance, loan.apr)
        principal = round(loan.monthly_payment - interest, 2)
        payment = loan.monthly_payment
        if principal >= balance or i == left - 1:
            principal = balance
            payment = round(balance + interest, 2)
        balance = round(balance - principal, 2)
        rows.append(ScheduleRow(installment=loan.payments_made + i + 1, due_date=add_months(due, i).isoformat(),
                                payment=payment, interest=interest, principal=principal, balance_after=balance))
        if balance <= 0:
            break
    return rows


@DOMAIN.tool
def get_payoff_quote(
    db: LoansDB,
    loan_number: LoanNumber,
    payoff_date: Annotated[str, Field(description="the date the payoff funds will arrive, YYYY-MM-DD (today to 30 days out)")],
) -> PayoffQuote:
    """Quote the amount that pays a loan off in full on a given date: principal, daily interest accrued
    since the interest-paid-through date, deferred interest, late fees due and any prepayment fee."""
    loan = _loan(db, loan_number)
    _open(loan)
    try:
        day = d(payoff_date.strip())
    except ValueError:
        raise ToolError("payoff_date must be YYYY-MM-DD") from None
    if day < TODAY or (day - TODAY).days > PAYOFF_QUOTE_MAX_DAYS:
        raise ToolError(f"payoff quotes are available from {TODAY_S} to {PAYOFF_QUOTE_MAX_DAYS} days out")
    return _quote(db, loan, day)


class ProductTerms(BaseModel):
    product: Product
    rate_tiers: list[RateTier]


@DOMAIN.tool
def get_product_terms(
    db: LoansDB,
    product_id: Annotated[str, Field(description="PERS-STD, PERS-CONS, AUTO-NEW, AUTO-USED or AUTO-REFI")],
) -> ProductTerms:
    """Return a loan product's terms, fees, eligibility limits and its rate sheet by credit band."""
    product = db.products.get(product_id.strip().upper())
    if product is None:
        raise ToolError(f"no product {product_id!r}; products: {', '.join(sorted(db.products))}")
    tiers = sorted((t for t in db.rate_tiers.values() if t.product_id == product.product_id), key=lambda t: t.band)
    return ProductTerms(product=product, rate_tiers=tiers)


@DOMAIN.tool
def get_application(db: LoansDB, application_id: Annotated[str, Field(description="such as 'APP000123'")]) -> Application:
    """Return a loan application with its decision, offer and status."""
    app = db.applications.get(application_id.strip().upper())
    if app is None:
        raise ToolError(f"no application {application_id!r}")
    return app


@DOMAIN.tool
def calculate(db: LoansDB, expression: Annotated[str, Field(description="e.g. '(1250.40 + 86.12) * 2'")]) -> str:
    """Evaluate an arithmetic expression (numbers, + - * / and parentheses); the result is rounded to 2 decimals."""
    return _calculate(expression)


# -- applications ----------------------------------------------------------------------
@DOMAIN.tool(write=True)
def submit_application(
    db: LoansDB,
    borrower_id: BorrowerId,
    product_id: Annotated[str, Field(description="PERS-STD or PERS-CONS (the only products taken by phone)")],
    requested_amount: Annotated[float, Field(description="the loan amount requested, in dollars")],
    term_months: Annotated[int, Field(description="one of the product's terms")],
    stated_monthly_income: Annotated[float, Field(description="gross (pre-tax) MONTHLY income stated by the applicant")],
    stated_monthly_debts: Annotated[float, Field(description="total MONTHLY debt payments stated by the applicant")],
    purpose: Annotated[Purpose, Field(description="the category that fits what the loan is for")],
) -> Application:
    """Submit a personal loan application and get the automated decision (approved with an offer, or
    declined with the reason). Uses the borrower's credit score on file. Every decision is recorded."""
    borrower = _borrower(db, borrower_id)
    product = db.products.get(product_id.strip().upper())
    if product is None:
        raise ToolError(f"no product {product_id!r}")
    if not product.accepts_phone_applications:
        raise ToolError(f"{product.name} applications are not taken by phone")
    if term_months not in product.terms_months:
        raise ToolError(f"term must be one of {product.terms_months} months for {product.product_id}")
    if not product.min_amount <= requested_amount <= product.max_amount:
        raise ToolError(f"amount must be between {product.min_amount:.2f} and {product.max_amount:.2f}")
    if stated_monthly_income <= 0 or stated_monthly_debts < 0:
        raise ToolError("income must be positive and debts zero or more")
    for app_id in borrower.application_ids:
        other = db.applications[app_id]
        if other.status == "approved" and other.offer_expires and other.offer_expires >= TODAY_S:
            raise ToolError(f"application {app_id} has an open approved offer; book or withdraw it first")
    score = borrower.credit_score
    band = band_for(score)
    dti = round(stated_monthly_debts / stated_monthly_income * 100, 1)
    tier = db.rate_tiers.get(f"{product.product_id}-{band}") if band else None
    reason = "approved"
    if stated_monthly_income < product.min_monthly_income:
        reason = f"stated monthly income ${stated_monthly_income:,.2f} is below the ${product.min_monthly_income:,.0f} minimum"
    elif dti > product.max_dti_pct:
        reason = f"debt-to-income ratio {dti}% exceeds the {product.max_dti_pct:g}% limit"
    elif tier is None:
        reason = f"credit score {score} is below the minimum for {product.product_id}"
    elif any(db.loans[n].status == "past_due" for n in borrower.loan_numbers):
        reason = "an existing loan with us is past due"
    elif requested_amount > tier.max_amount:
        reason = f"requested amount exceeds the band {tier.band} maximum of ${tier.max_amount:,.0f}"
    approved = reason == "approved"
    apr = tier.apr if approved and tier else None
    app = Application(
        application_id=_new_id("APP", db.applications, 6), borrower_id=borrower.borrower_id,
        product_id=product.product_id, requested_amount=round(requested_amount, 2), term_months=term_months,
        stated_monthly_income=round(stated_monthly_income, 2), stated_monthly_debts=round(stated_monthly_debts, 2),
        purpose=purpose, credit_score=score, credit_band=band, dti_pct=dti,
        status="approved" if approved else "declined", decision_reason=reason, apr=apr,
        estimated_payment=amortized_payment(requested_amount, apr, term_months) if apr is not None else None,
        submitted_date=TODAY_S,
        offer_expires=(TODAY + dt.timedelta(days=OFFER_DAYS)).isoformat() if approved else None, loan_number=None,
    )
    db.applications[app.application_id] = app
    borrower.application_ids.append(app.application_id)
    return app


@DOMAIN.tool(write=True)
def withdraw_application(
    db: LoansDB,
    application_id: Annotated[str, Field(description="the approved application to withdraw")],
    reason: Annotated[WithdrawalReason, Field(description="the applicant's reason for withdrawing")],
) -> Application:
    """Withdraw an approved application whose offer has not been booked."""
    app = db.applications.get(application_id.strip().upper())
    if app is None:
        raise ToolError(f"no application {application_id!r}")
    if app.status != "approved":
        raise ToolError(f"only approved, unbooked applications can be withdrawn (this one is {app.status})")
    app.status = "withdrawn"
    app.withdrawal_reason = reason
    return app


@DOMAIN.tool(write=True)
def book_approved_application(
    db: LoansDB,
    application_id: Annotated[str, Field(description="the approved application to accept")],
    disbursement_account_id: AccountId,
) -> Loan:
    """Accept an approved offer: book the loan and disburse the amount, less any origination fee, to a
    verified bank account of the borrower. The first payment is due one month from today."""
    app = db.applications.get(application_id.strip().upper())
    if app is None:
        raise ToolError(f"no application {application_id!r}")
    if app.status != "approved":
        raise ToolError(f"application {app.application_id} is {app.status}; only approved offers can be booked")
    if app.offer_expires is None or app.offer_expires < TODAY_S:
        raise ToolError(f"the offer of application {app.application_id} expired on {app.offer_expires}")
    _verified_account(db, app.borrower_id, disbursement_account_id)
    product = db.products[app.product_id]
    number = f"PL{90000000 + len(db.loans) + 1}"
    fee = round(app.requested_amount * product.origination_fee_pct / 100, 2)
    first_due = add_months(TODAY, 1)
    loan = Loan(
        loan_number=number, borrower_id=app.borrower_id, product_id=app.product_id,
        application_id=app.application_id, status="current", original_principal=app.requested_amount,
        origination_fee=fee, disbursed_amount=round(app.requested_amount - fee, 2),
        disbursement_account_id=disbursement_account_id, origination_date=TODAY_S, term_months=app.term_months,
        base_apr=app.apr, apr=app.apr, monthly_payment=amortized_payment(app.requested_amount, app.apr, app.term_months),
        first_due_date=first_due.isoformat(), next_due_date=first_due.isoformat(),
        maturity_date=add_months(first_due, app.term_months - 1).isoformat(), principal_balance=app.requested_amount,
        interest_paid_through=TODAY_S, deferred_interest=0.0, past_due_amount=0.0, days_past_due=0,
        late_fees_due=0.0, payments_made=0, deferrals_used=0, autopay=False, autopay_account_id=None,
        paid_off_date=None, vehicle=None,
    )
    db.loans[number] = loan
    app.status = "booked"
    app.loan_number = number
    db.borrowers[app.borrower_id].loan_numbers.append(number)
    return loan


# -- payments ----------------------------------------------------------------------------
def _post(db: LoansDB, loan: Loan, kind: str, amount: float, principal: float, interest: float, fees: float,
          account_id: str) -> Payment:
    payment = Payment(payment_id=_new_id("PMT", db.payments, 7), loan_number=loan.loan_number, posted_date=TODAY_S,
                      kind=kind, amount=round(amount, 2), principal=round(principal, 2), interest=round(interest, 2),
                      fees=round(fees, 2), bank_account_id=account_id, channel="phone")
    db.payments[payment.payment_id] = payment
    return payment


def _settle_late_fees(db: LoansDB, loan: Loan) -> None:
    for fee_id, fee in list(db.fees.items()):
        if fee.loan_number == loan.loan_number and fee.kind == "late" and fee.status == "due":
            db.fees[fee_id].status = "paid"
    loan.late_fees_due = 0.0


class PaymentResult(BaseModel):
    payment: Payment
    loan: Loan


@DOMAIN.tool(write=True)
def make_scheduled_payment(db: LoansDB, loan_number: LoanNumber, bank_account_id: AccountId) -> PaymentResult:
    """Pay the next installment (the monthly payment plus any late fees due) from a verified account.
    Interest accrued since the interest-paid-through date is paid first, the rest goes to principal,
    and the next due date moves one month. Only for a past-due installment or one due within 30 days."""
    loan = _loan(db, loan_number)
    _open(loan)
    _verified_account(db, loan.borrower_id, bank_account_id)
    if loan.past_due_amount <= 0 and (d(loan.next_due_date) - TODAY).days > 30:
        raise ToolError(f"the next installment is not due until {loan.next_due_date}; it cannot be paid yet")
    interest = daily_interest(loan.principal_balance, loan.apr, (TODAY - d(loan.interest_paid_through)).days)
    installment = loan.monthly_payment
    principal = round(installment - interest, 2)
    if principal >= loan.principal_balance:
        principal = loan.principal_balance
        installment = round(principal + interest, 2)
    if principal < 0:
        raise ToolError("the installment does not cover accrued interest; transfer to a specialist")
    fees = loan.late_fees_due
    payment = _post(db, loan, "scheduled", installment + fees, principal, interest, fees, bank_account_id)
    _settle_late_fees(db, loan)
    loan.principal_balance = round(loan.principal_balance - principal, 2)
    loan.interest_paid_through = TODAY_S
    loan.payments_made += 1
    if loan.past_due_amount > 0:
        loan.past_due_amount = max(0.0, round(loan.past_due_amount - loan.monthly_payment, 2))
    loan.next_due_date = add_months(d(loan.next_due_date), 1).isoformat()
    if loan.past_due_amount == 0:
        loan.status, loan.days_past_due = "current", 0
    else:
        loan.days_past_due = max(0, (TODAY - d(loan.next_due_date)).days)
    if loan.principal_balance <= 0:
        loan.principal_balance, loan.status, loan.next_due_date = 0.0, "paid_off", None
        loan.paid_off_date, loan.autopay, loan.autopay_account_id = TODAY_S, False, None
    return PaymentResult(payment=payment, loan=loan)


@DOMAIN.tool(write=True)
def make_extra_payment(
    db: LoansDB,
    loan_number: LoanNumber,
    amount: Annotated[float, Field(description="the extra amount to apply to principal, in dollars")],
    bank_account_id: AccountId,
) -> PaymentResult:
    """Make a one-time extra payment applied entirely to principal (the monthly payment and due date do
    not change). Products with a prepayment fee charge it on top of the amount during their fee window.
    The loan must be current, and the amount must be at least $25 and less than the principal balance."""
    loan = _loan(db, loan_number)
    _open(loan)
    _verified_account(db, loan.borrower_id, bank_account_id)
    if loan.status != "current":
        raise ToolError("the loan is past due; bring it current with a scheduled payment before paying extra principal")
    amount = round(amount, 2)
    if amount < MIN_EXTRA_PAYMENT:
        raise ToolError(f"extra payments must be at least ${MIN_EXTRA_PAYMENT:.2f}")
    if amount >= loan.principal_balance:
        raise ToolError("the amount covers the whole principal; use a payoff instead")
    pct = _prepay_fee_pct(db, loan)
    fee = round(amount * pct / 100, 2)
    payment = _post(db, loan, "extra_principal", amount + fee, amount, 0.0, fee, bank_account_id)
    if fee:
        fid = _new_id("FEE", db.fees, 6)
        db.fees[fid] = Fee(fee_id=fid, loan_number=loan.loan_number, kind="prepayment", amount=fee,
                           assessed_date=TODAY_S, status="paid")
    loan.principal_balance = round(loan.principal_balance - amount, 2)
    return PaymentResult(payment=payment, loan=loan)


@DOMAIN.tool(write=True)
def pay_off_loan(db: LoansDB, loan_number: LoanNumber, bank_account_id: AccountId) -> PaymentResult:
    """Pay a loan off in full today from a verified account, for today's payoff quote (principal, accrued
    and deferred interest, late fees due and any prepayment fee). Cancels autopay on the loan."""
    loan = _loan(db, loan_number)
    _open(loan)
    _verified_account(db, loan.borrower_id, bank_account_id)
    quote = _quote(db, loan, TODAY)
    payment = _post(db, loan, "payoff", quote.total_payoff, quote.principal_balance,
                    quote.accrued_interest + quote.deferred_interest, quote.late_fees_due + quote.prepayment_fee,
                    bank_account_id)
    _settle_late_fees(db, loan)
    if quote.prepayment_fee:
        fid = _new_id("FEE", db.fees, 6)
        db.fees[fid] = Fee(fee_id=fid, loan_number=loan.loan_number, kind="prepayment", amount=quote.prepayment_fee,
                           assessed_date=TODAY_S, status="paid")
    loan.principal_balance = 0.0
    loan.deferred_interest = 0.0
    loan.past_due_amount, loan.days_past_due = 0.0, 0
    loan.interest_paid_through = TODAY_S
    loan.status, loan.next_due_date, loan.paid_off_date = "paid_off", None, TODAY_S
    loan.autopay, loan.autopay_account_id = False, None
    return PaymentResult(payment=payment, loan=loan)


# -- servicing ----------------------------------------------------------------------------
class DeferralResult(BaseModel):
    deferral: Deferral
    loan: Loan


@DOMAIN.tool(write=True)
def request_deferral(
    db: LoansDB,
    loan_number: LoanNumber,
    hardship: Annotated[Hardship, Field(description="the category of the borrower's financial hardship")],
) -> DeferralResult:
    """Defer the next installment by one month. One month of interest (principal x APR / 12) is added to the
    deferred-interest balance, due at payoff; the maturity date also moves one month.
    Allowed at most twice per loan, only when the loan is current and 6+ installments have been paid."""
    loan = _loan(db, loan_number)
    _open(loan)
    if loan.status != "current":
        raise ToolError("deferrals require the loan to be current (no past-due amount)")
    if loan.deferrals_used >= MAX_DEFERRALS:
        raise ToolError(f"this loan has already used the maximum of {MAX_DEFERRALS} deferrals")
    if loan.payments_made < DEFERRAL_MIN_PAYMENTS:
        raise ToolError(f"deferrals are available only after {DEFERRAL_MIN_PAYMENTS} installments have been paid "
                        f"({loan.payments_made} paid so far)")
    old = d(loan.next_due_date)
    new = add_months(old, 1)
    interest = monthly_interest(loan.principal_balance, loan.apr)
    deferral = Deferral(deferral_id=_new_id("DEF", db.deferrals, 5), loan_number=loan.loan_number,
                        granted_date=TODAY_S, from_due_date=old.isoformat(), to_due_date=new.isoformat(),
                        interest_added=interest, hardship=hardship)
    db.deferrals[deferral.deferral_id] = deferral
    loan.next_due_date = new.isoformat()
    loan.maturity_date = add_months(d(loan.maturity_date), 1).isoformat()
    loan.deferred_interest = round(loan.deferred_interest + interest, 2)
    loan.deferrals_used += 1
    return DeferralResult(deferral=deferral, loan=loan)


@DOMAIN.tool(write=True)
def enroll_autopay(db: LoansDB, loan_number: LoanNumber, bank_account_id: AccountId) -> Loan:
    """Enroll a loan in autopay from a verified bank account, or switch the autopay account of an enrolled loan.
    A new enrollment lowers the APR by 0.25 percentage points and re-amortizes the monthly payment over
    the remaining installments; switching the account changes nothing else. The loan must be current."""
    loan = _loan(db, loan_number)
    _open(loan)
    _verified_account(db, loan.borrower_id, bank_account_id)
    if loan.autopay:
        if loan.autopay_account_id == bank_account_id:
            raise ToolError("autopay already draws from that account")
        loan.autopay_account_id = bank_account_id
        return loan
    if loan.status != "current":
        raise ToolError("autopay enrollment requires the loan to be current")
    loan.autopay, loan.autopay_account_id = True, bank_account_id
    _reprice(loan, loan.base_apr - AUTOPAY_DISCOUNT)
    return loan


@DOMAIN.tool(write=True)
def cancel_autopay(db: LoansDB, loan_number: LoanNumber) -> Loan:
    """Stop autopay on a loan. The autopay discount ends: the APR returns to the base APR and the monthly
    payment is re-amortized over the remaining installments."""
    loan = _loan(db, loan_number)
    _open(loan)
    if not loan.autopay:
        raise ToolError("the loan is not enrolled in autopay")
    loan.autopay, loan.autopay_account_id = False, None
    _reprice(loan, loan.base_apr)
    return loan


@DOMAIN.tool(write=True)
def waive_late_fee(
    db: LoansDB,
    fee_id: Annotated[str, Field(description="the id of a late fee that is due, such as 'FEE000123'")],
) -> Fee:
    """Waive a late fee that is still due (a courtesy waiver); the loan's late fees due drop by its amount."""
    fee = db.fees.get(fee_id.strip().upper())
    if fee is None:
        raise ToolError(f"no fee {fee_id!r}")
    if fee.kind != "late" or fee.status != "due":
        raise ToolError("only late fees that are still due can be waived")
    fee.status, fee.waiver_reason = "waived", "courtesy waiver"
    loan = db.loans[fee.loan_number]
    loan.late_fees_due = round(max(0.0, loan.late_fees_due - fee.amount), 2)
    return fee


@DOMAIN.tool(write=True)
def add_bank_account(
    db: LoansDB,
    borrower_id: BorrowerId,
    account_type: Literal["checking", "savings"],
    routing_number: Annotated[str, Field(description="the 9-digit ABA routing number")],
    account_last4: Annotated[str, Field(description="the last 4 digits of the account number")],
) -> BankAccount:
    """Add a bank account to a borrower's profile; the bank is identified by its routing number. New accounts are unverified until the two micro-deposits
    (sent within 1 business day) are confirmed online; they cannot be used before then."""
    borrower = _borrower(db, borrower_id)
    routing, last4 = routing_number.strip(), account_last4.strip()
    if len(routing) != 9 or not routing.isdigit():
        raise ToolError("the routing number must be 9 digits")
    if len(last4) != 4 or not last4.isdigit():
        raise ToolError("account_last4 must be 4 digits")
    banks = {a.routing_number: a.bank_name for b in db.borrowers.values() for a in b.bank_accounts}
    bank_name = banks.get(routing)
    if bank_name is None:
        raise ToolError(f"routing number {routing} is not a bank we can draft from")
    for account in borrower.bank_accounts:
        if account.routing_number == routing and account.account_last4 == last4:
            raise ToolError(f"that account is already on file as {account.account_id}")
    count = sum(len(b.bank_accounts) for b in db.borrowers.values())
    account = BankAccount(account_id=f"BA{count + 1:06d}", bank_name=bank_name, account_type=account_type,
                          routing_number=routing, account_last4=last4, verified=False, added_date=TODAY_S)
    borrower.bank_accounts.append(account)
    return account


@DOMAIN.tool(transfer=True)
def transfer_to_human_agents(
    db: LoansDB, summary: Annotated[str, Field(description="who the caller is and what they need")]
) -> str:
    """Transfer the caller to a human loan specialist, with a summary of the issue."""
    return "Transfer successful"
