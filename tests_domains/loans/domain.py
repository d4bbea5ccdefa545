"""The loan servicing desk of Keystone Ridge Lending: personal and auto loans.

Tools authenticate borrowers, read loans, schedules, payment histories and fees, quote
payoffs, payments, autopay changes and deferrals, take applications, book approved offers,
post payments, grant deferrals, manage autopay and waive late fees.

The tools refuse only what the data makes impossible (no such loan, an account that is not
the borrower's, a loan already paid off, a fee no longer due). The policy's rules (deferral
eligibility, courtesy-waiver history, verified accounts, who may apply for what, payment
windows and minimums) are the agent's to apply; a quote tool computes figures, never verdicts.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from pytest_tau import Domain, ToolError
from pytest_tau.invariants import area_codes_valid, cents, not_after_now, ordered, plausible_age, vins_valid
from tests_domains.loans.amortization import (
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

DOMAIN = Domain("loans", LoansDB, now=dt.datetime(2026, 5, 15, 10, 0))

# The lender's price list (what a tool charges or computes, never what it refuses).
AUTOPAY_DISCOUNT = 0.25  # APR percentage points while enrolled
OFFER_DAYS = 30  # an approved offer's expiry date is set this far out

LoanNumber = Annotated[str, Field(description="the loan number, such as 'PL12345678' or 'AL87654321'")]
BorrowerId = Annotated[str, Field(description="the borrower id returned by authentication, such as 'BRW123456'")]
AccountId = Annotated[str, Field(description="the id of a bank account on the borrower's profile, such as 'BA000123'")]
ApplicationId = Annotated[str, Field(description="the application id, such as 'APP000123'")]


# -- helpers ---------------------------------------------------------------------------
def _today() -> dt.date:
    return DOMAIN.today


def _today_s() -> str:
    return DOMAIN.today.isoformat()


def _account(db: LoansDB, borrower_id: str, account_id: str) -> BankAccount:
    """A bank account on the borrower's own profile (verified or not: that is the policy's call)."""
    borrower = db.borrowers.require(borrower_id)
    wanted = account_id.strip().upper()
    for account in borrower.bank_accounts:
        if account.account_id.upper() == wanted:
            return account
    raise ToolError(f"bank account {account_id!r} is not on this borrower's profile")


def _open_loan(db: LoansDB, loan_number: str) -> Loan:
    loan = db.loans.require(loan_number)
    if loan.status == "paid_off":
        raise ToolError(f"loan {loan.loan_number} is paid off")
    return loan


def _remaining_installments(loan: Loan) -> int:
    if loan.next_due_date is None:
        return 0
    return months_between(d(loan.next_due_date), d(loan.maturity_date))


def _prepay_fee_pct(db: LoansDB, loan: Loan) -> float:
    product = db.products[loan.product_id]
    if product.prepayment_fee_pct and _today() < add_months(d(loan.origination_date), product.prepayment_fee_window_months):
        return product.prepayment_fee_pct
    return 0.0


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
    days = max((day - d(loan.interest_paid_through)).days, 0)
    accrued = daily_interest(loan.principal_balance, loan.apr, days)
    fee = round(loan.principal_balance * _prepay_fee_pct(db, loan) / 100, 2)
    total = round(loan.principal_balance + accrued + loan.deferred_interest + loan.late_fees_due + fee, 2)
    return PayoffQuote(
        loan_number=loan.loan_number, payoff_date=day.isoformat(), principal_balance=loan.principal_balance,
        interest_paid_through=loan.interest_paid_through, days_of_interest=days,
        daily_interest=round(loan.principal_balance * loan.apr / 100 / 365, 4), accrued_interest=accrued,
        deferred_interest=loan.deferred_interest, late_fees_due=loan.late_fees_due, prepayment_fee=fee,
        total_payoff=total,
    )


# -- authentication and lookups -------------------------------------------------------------
@DOMAIN.tool(authenticates=True)
def find_borrower_by_loan_number(
    db: LoansDB,
    loan_number: LoanNumber,
    ssn_last4: Annotated[str, Field(description="the last 4 digits of the borrower's Social Security number")],
) -> Borrower:
    """Authenticate a caller by loan number and the last 4 digits of the borrower's SSN; returns the borrower's profile."""
    loan = db.loans.get(loan_number.strip().upper())
    if loan is None or db.borrowers[loan.borrower_id].ssn_last4 != ssn_last4.strip():
        raise ToolError("no match for that loan number and SSN")
    return db.borrowers[loan.borrower_id]


@DOMAIN.tool(authenticates=True)
def find_borrower_by_identity(
    db: LoansDB,
    first_name: str,
    last_name: str,
    date_of_birth: Annotated[str, Field(description="date of birth as YYYY-MM-DD")],
    zip: Annotated[str, Field(description="the 5-digit zip code of the borrower's mailing address")],
) -> Borrower:
    """Authenticate a caller by full name, date of birth and zip code; returns the borrower's profile."""
    found = db.borrowers.find(last_name=last_name, first_name=first_name, date_of_birth=date_of_birth, zip=zip)
    if len(found) != 1:
        raise ToolError("no borrower matches that name, date of birth and zip code")
    return found[0]


@DOMAIN.tool
def get_borrower_profile(db: LoansDB, borrower_id: BorrowerId) -> Borrower:
    """Return a borrower's contact details, credit score on file, bank accounts (with their verified flag),
    loan numbers and application ids."""
    return db.borrowers.require(borrower_id)


@DOMAIN.tool
def get_loan_details(db: LoansDB, loan_number: LoanNumber) -> Loan:
    """Return a loan's terms, balance, status, next due date, autopay and deferral counters."""
    return db.loans.require(loan_number)


@DOMAIN.tool
def get_payment_history(
    db: LoansDB,
    loan_number: LoanNumber,
    year: Annotated[int | None, Field(description="only payments posted in this calendar year; omit for all")] = None,
) -> list[Payment]:
    """Return the posted payments of a loan (oldest first) with their principal, interest and fee split."""
    loan = db.loans.require(loan_number)
    found = list(db.payments.where(loan_number=loan.loan_number))
    if year is not None:
        found = [p for p in found if p.posted_date.startswith(f"{year}-")]
    return sorted(found, key=lambda p: (p.posted_date, p.payment_id))


@DOMAIN.tool
def list_loan_fees(db: LoansDB, loan_number: LoanNumber) -> list[Fee]:
    """Return every fee ever assessed on a loan (late and prepayment fees) with its status and date."""
    loan = db.loans.require(loan_number)
    return sorted(db.fees.where(loan_number=loan.loan_number), key=lambda f: (f.assessed_date, f.fee_id))


@DOMAIN.tool
def list_deferrals(db: LoansDB, loan_number: LoanNumber) -> list[Deferral]:
    """Return the payment deferrals granted on a loan."""
    loan = db.loans.require(loan_number)
    return sorted(db.deferrals.where(loan_number=loan.loan_number), key=lambda x: (x.granted_date, x.deferral_id))


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
    loan = _open_loan(db, loan_number)
    if not 1 <= installments <= 24:
        raise ToolError("installments must be between 1 and 24")
    rows: list[ScheduleRow] = []
    balance = loan.principal_balance
    due = d(loan.next_due_date or loan.maturity_date)
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
    payoff_date: Annotated[str, Field(description="the date the payoff funds will arrive, YYYY-MM-DD")],
) -> PayoffQuote:
    """Quote the amount that pays a loan off in full on a given date: principal, daily interest accrued
    since the interest-paid-through date, deferred interest, late fees due and any prepayment fee."""
    loan = _open_loan(db, loan_number)
    try:
        day = d(payoff_date.strip())
    except ValueError:
        raise ToolError("payoff_date must be YYYY-MM-DD") from None
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
    product = db.products.require(product_id)
    tiers = sorted(db.rate_tiers.where(product_id=product.product_id), key=lambda t: t.band)
    return ProductTerms(product=product, rate_tiers=tiers)


@DOMAIN.tool
def get_application(db: LoansDB, application_id: ApplicationId) -> Application:
    """Return a loan application with its decision, offer and status."""
    return db.applications.require(application_id)


# -- quotes (change nothing) -------------------------------------------------------------------
class ScheduledPaymentQuote(BaseModel):
    loan_number: str
    installment_due_date: str
    installment: float
    late_fees_due: float
    total_charge: float
    interest_portion: float
    principal_portion: float
    next_due_date_after: str


def _scheduled(loan: Loan) -> ScheduledPaymentQuote:
    interest = daily_interest(loan.principal_balance, loan.apr, (_today() - d(loan.interest_paid_through)).days)
    installment = loan.monthly_payment
    principal = round(installment - interest, 2)
    if principal >= loan.principal_balance:
        principal = loan.principal_balance
        installment = round(principal + interest, 2)
    due = loan.next_due_date or loan.maturity_date
    return ScheduledPaymentQuote(
        loan_number=loan.loan_number, installment_due_date=due, installment=installment,
        late_fees_due=loan.late_fees_due, total_charge=round(installment + loan.late_fees_due, 2),
        interest_portion=interest, principal_portion=principal,
        next_due_date_after=add_months(d(due), 1).isoformat(),
    )


@DOMAIN.tool
def quote_scheduled_payment(db: LoansDB, loan_number: LoanNumber) -> ScheduledPaymentQuote:
    """Preview the next installment if paid today (changes nothing): the installment, the late fees due
    that would be collected with it, the total charge, its interest/principal split and the due date after."""
    return _scheduled(_open_loan(db, loan_number))


class ExtraPaymentQuote(BaseModel):
    loan_number: str
    amount: float
    prepayment_fee_pct: float
    prepayment_fee: float
    total_charge: float
    principal_balance_after: float


@DOMAIN.tool
def quote_extra_payment(
    db: LoansDB,
    loan_number: LoanNumber,
    amount: Annotated[float, Field(description="the extra principal amount, in dollars")],
) -> ExtraPaymentQuote:
    """Preview an extra principal payment made today (changes nothing): any prepayment fee charged on top
    of the amount, the total charge to the account and the principal balance afterwards."""
    loan = _open_loan(db, loan_number)
    amount = round(amount, 2)
    pct = _prepay_fee_pct(db, loan)
    fee = round(amount * pct / 100, 2)
    return ExtraPaymentQuote(loan_number=loan.loan_number, amount=amount, prepayment_fee_pct=pct, prepayment_fee=fee,
                             total_charge=round(amount + fee, 2),
                             principal_balance_after=round(loan.principal_balance - amount, 2))


class AutopayQuote(BaseModel):
    loan_number: str
    enrolled_now: bool
    current_apr: float
    current_monthly_payment: float
    apr_after: float
    monthly_payment_after: float


@DOMAIN.tool
def quote_autopay_change(
    db: LoansDB,
    loan_number: LoanNumber,
    change: Annotated[Literal["enroll", "cancel"], Field(description="the change to preview")],
) -> AutopayQuote:
    """Preview the APR and monthly payment a loan would have after enrolling in or cancelling autopay
    (changes nothing). The payment is re-amortized over the remaining installments."""
    loan = _open_loan(db, loan_number)
    apr = round(loan.base_apr - AUTOPAY_DISCOUNT, 2) if change == "enroll" else loan.base_apr
    if change == "enroll" and loan.autopay:
        apr = loan.apr
    return AutopayQuote(loan_number=loan.loan_number, enrolled_now=loan.autopay, current_apr=loan.apr,
                        current_monthly_payment=loan.monthly_payment, apr_after=apr,
                        monthly_payment_after=amortized_payment(loan.principal_balance, apr, _remaining_installments(loan)))


class DeferralQuote(BaseModel):
    loan_number: str
    from_due_date: str
    to_due_date: str
    interest_added: float
    maturity_date_after: str


def _deferral_terms(loan: Loan) -> DeferralQuote:
    old = d(loan.next_due_date or loan.maturity_date)
    return DeferralQuote(loan_number=loan.loan_number, from_due_date=old.isoformat(),
                         to_due_date=add_months(old, 1).isoformat(),
                         interest_added=monthly_interest(loan.principal_balance, loan.apr),
                         maturity_date_after=add_months(d(loan.maturity_date), 1).isoformat())


@DOMAIN.tool
def quote_deferral(db: LoansDB, loan_number: LoanNumber) -> DeferralQuote:
    """Preview a one-month deferral of the next installment (changes nothing): the new due date, the
    interest that would be added to the deferred-interest balance and the new maturity date."""
    return _deferral_terms(_open_loan(db, loan_number))


# -- applications ----------------------------------------------------------------------
@DOMAIN.tool(write=True)
def submit_application(
    db: LoansDB,
    borrower_id: BorrowerId,
    product_id: Annotated[str, Field(description="the product applied for, such as PERS-STD or PERS-CONS")],
    requested_amount: Annotated[float, Field(description="the loan amount requested, in dollars")],
    term_months: Annotated[int, Field(description="one of the product's terms")],
    stated_monthly_income: Annotated[float, Field(description="gross (pre-tax) MONTHLY income stated by the applicant")],
    stated_monthly_debts: Annotated[float, Field(description="total MONTHLY debt payments stated by the applicant")],
    purpose: Annotated[Purpose, Field(description="the category that fits what the loan is for")],
) -> Application:
    """Submit a loan application and record the automated decision (approved with an offer, or declined
    with the reason), using the borrower's credit score on file."""
    borrower = db.borrowers.require(borrower_id)
    product = db.products.require(product_id)
    if term_months not in product.terms_months:
        raise ToolError(f"{product.product_id} is offered for {product.terms_months} months")
    if not product.min_amount <= requested_amount <= product.max_amount:
        raise ToolError(f"{product.product_id} is offered from ${product.min_amount:,.2f} to ${product.max_amount:,.2f}")
    if stated_monthly_income <= 0 or stated_monthly_debts < 0:
        raise ToolError("income must be positive and debts zero or more")
    amount = round(requested_amount, 2)
    income, debts = round(stated_monthly_income, 2), round(stated_monthly_debts, 2)
    score = borrower.credit_score
    band = band_for(score)
    dti = round(debts / income * 100, 1)
    tier = db.rate_tiers.get(f"{product.product_id}-{band}") if band else None
    reason = "approved"
    if income < product.min_monthly_income:
        reason = f"stated monthly income ${income:,.2f} is below the ${product.min_monthly_income:,.0f} minimum"
    elif dti > product.max_dti_pct:
        reason = f"debt-to-income ratio {dti}% exceeds the {product.max_dti_pct:g}% limit"
    elif tier is None:
        reason = f"credit score {score} is below the minimum for {product.product_id}"
    elif any(db.loans[n].status == "past_due" for n in borrower.loan_numbers):
        reason = "an existing loan with us is past due"
    elif amount > tier.max_amount:
        reason = f"requested amount exceeds the band {tier.band} maximum of ${tier.max_amount:,.0f}"
    apr = tier.apr if reason == "approved" and tier else None
    app_id = db.applications.new_key("APP", borrower.borrower_id, product.product_id, amount, term_months, _today_s())
    app = Application(
        application_id=app_id, borrower_id=borrower.borrower_id, product_id=product.product_id,
        requested_amount=amount, term_months=term_months, stated_monthly_income=income, stated_monthly_debts=debts,
        purpose=purpose, credit_score=score, credit_band=band, dti_pct=dti,
        status="approved" if apr is not None else "declined", decision_reason=reason, apr=apr,
        estimated_payment=amortized_payment(amount, apr, term_months) if apr is not None else None,
        submitted_date=_today_s(),
        offer_expires=(_today() + dt.timedelta(days=OFFER_DAYS)).isoformat() if apr is not None else None,
        loan_number=None,
    )
    db.applications[app_id] = app
    db.borrowers[borrower.borrower_id].application_ids.append(app_id)
    return app


@DOMAIN.tool(write=True)
def withdraw_application(
    db: LoansDB,
    application_id: Annotated[str, Field(description="the approved application to withdraw")],
    reason: Annotated[WithdrawalReason, Field(description="the applicant's reason for withdrawing")],
) -> Application:
    """Withdraw an approved application whose offer has not been booked."""
    app = db.applications.require(application_id)
    if app.status not in ("approved", "withdrawn"):
        raise ToolError(f"application {app.application_id} is {app.status}; there is no open offer to withdraw")
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
    bank account of the borrower. The first payment is due one month from today."""
    app = db.applications.require(application_id)
    if app.status != "approved" or app.apr is None:
        raise ToolError(f"application {app.application_id} is {app.status}; it has no offer to book")
    account = _account(db, app.borrower_id, disbursement_account_id)
    product = db.products[app.product_id]
    prefix = "AL" if product.kind == "auto" else "PL"
    number = db.loans.new_key(prefix, app.application_id)
    fee = round(app.requested_amount * product.origination_fee_pct / 100, 2)
    first_due = add_months(_today(), 1)
    loan = Loan(
        loan_number=number, borrower_id=app.borrower_id, product_id=app.product_id,
        application_id=app.application_id, status="current", original_principal=app.requested_amount,
        origination_fee=fee, disbursed_amount=round(app.requested_amount - fee, 2),
        disbursement_account_id=account.account_id, origination_date=_today_s(),
        term_months=app.term_months, base_apr=app.apr, apr=app.apr,
        monthly_payment=amortized_payment(app.requested_amount, app.apr, app.term_months),
        first_due_date=first_due.isoformat(), next_due_date=first_due.isoformat(),
        maturity_date=add_months(first_due, app.term_months - 1).isoformat(), principal_balance=app.requested_amount,
        interest_paid_through=_today_s(), deferred_interest=0.0, past_due_amount=0.0, days_past_due=0,
        late_fees_due=0.0, payments_made=0, deferrals_used=0, autopay=False, autopay_account_id=None,
        paid_off_date=None, vehicle=None,
    )
    db.loans[number] = loan
    app.status = "booked"
    app.loan_number = number
    db.borrowers[app.borrower_id].loan_numbers.append(number)
    return loan


# -- payments ----------------------------------------------------------------------------
def _post(db: LoansDB, loan: Loan, kind: Literal["scheduled", "extra_principal", "payoff"], amount: float,
          principal: float, interest: float, fees: float, account_id: str) -> Payment:
    amount = round(amount, 2)
    payment_id = db.payments.new_key("PMT", loan.loan_number, kind, _today_s(), amount)
    payment = Payment(payment_id=payment_id, loan_number=loan.loan_number, posted_date=_today_s(), kind=kind,
                      amount=amount, principal=round(principal, 2), interest=round(interest, 2), fees=round(fees, 2),
                      bank_account_id=account_id, channel="phone")
    db.payments[payment_id] = payment
    return payment


def _settle_late_fees(db: LoansDB, loan: Loan) -> None:
    for fee in list(db.fees.where(loan_number=loan.loan_number)):
        if fee.kind == "late" and fee.status == "due":
            db.fees[fee.fee_id].status = "paid"
    loan.late_fees_due = 0.0


def _prepayment_fee(db: LoansDB, loan: Loan, amount: float) -> None:
    fee_id = db.fees.new_key("FEE", loan.loan_number, "prepayment", _today_s(), amount)
    db.fees[fee_id] = Fee(fee_id=fee_id, loan_number=loan.loan_number, kind="prepayment", amount=amount,
                          assessed_date=_today_s(), status="paid")


class PaymentResult(BaseModel):
    payment: Payment
    loan: Loan


@DOMAIN.tool(write=True)
def make_scheduled_payment(db: LoansDB, loan_number: LoanNumber, bank_account_id: AccountId) -> PaymentResult:
    """Pay the next installment (the monthly payment plus any late fees due) from one of the borrower's
    accounts. Interest accrued since the interest-paid-through date is paid first, the rest goes to
    principal, and the next due date moves one month."""
    loan = _open_loan(db, loan_number)
    account = _account(db, loan.borrower_id, bank_account_id)
    quote = _scheduled(loan)
    if quote.principal_portion < 0:
        raise ToolError("the installment does not cover the accrued interest")
    payment = _post(db, loan, "scheduled", quote.total_charge, quote.principal_portion, quote.interest_portion,
                    quote.late_fees_due, account.account_id)
    _settle_late_fees(db, loan)
    loan.principal_balance = round(loan.principal_balance - quote.principal_portion, 2)
    loan.interest_paid_through = _today_s()
    loan.payments_made += 1
    if loan.past_due_amount > 0:
        loan.past_due_amount = max(0.0, round(loan.past_due_amount - loan.monthly_payment, 2))
    loan.next_due_date = quote.next_due_date_after
    if loan.past_due_amount == 0:
        loan.status, loan.days_past_due = "current", 0
    else:
        loan.days_past_due = max(0, (_today() - d(loan.next_due_date)).days)
    if loan.principal_balance <= 0:
        loan.principal_balance, loan.status, loan.next_due_date = 0.0, "paid_off", None
        loan.paid_off_date, loan.autopay, loan.autopay_account_id = _today_s(), False, None
    return PaymentResult(payment=payment, loan=loan)


@DOMAIN.tool(write=True)
def make_extra_payment(
    db: LoansDB,
    loan_number: LoanNumber,
    amount: Annotated[float, Field(description="the extra amount to apply to principal, in dollars")],
    bank_account_id: AccountId,
) -> PaymentResult:
    """Make a one-time extra payment applied entirely to principal (the monthly payment and due date do
    not change). Products with a prepayment fee charge it on top of the amount during their fee window."""
    loan = _open_loan(db, loan_number)
    account = _account(db, loan.borrower_id, bank_account_id)
    quote = quote_extra_payment(db, loan.loan_number, amount)
    if quote.amount <= 0:
        raise ToolError("the amount must be positive")
    if quote.amount >= loan.principal_balance:
        raise ToolError(f"the amount is not less than the principal balance of ${loan.principal_balance:,.2f}")
    payment = _post(db, loan, "extra_principal", quote.total_charge, quote.amount, 0.0, quote.prepayment_fee,
                    account.account_id)
    if quote.prepayment_fee:
        _prepayment_fee(db, loan, quote.prepayment_fee)
    loan.principal_balance = quote.principal_balance_after
    return PaymentResult(payment=payment, loan=loan)


@DOMAIN.tool(write=True)
def pay_off_loan(db: LoansDB, loan_number: LoanNumber, bank_account_id: AccountId) -> PaymentResult:
    """Pay a loan off in full today for today's payoff quote (principal, accrued and deferred interest,
    late fees due and any prepayment fee), from one of the borrower's accounts. Cancels autopay on the loan."""
    loan = _open_loan(db, loan_number)
    account = _account(db, loan.borrower_id, bank_account_id)
    quote = _quote(db, loan, _today())
    payment = _post(db, loan, "payoff", quote.total_payoff, quote.principal_balance,
                    quote.accrued_interest + quote.deferred_interest, quote.late_fees_due + quote.prepayment_fee,
                    account.account_id)
    _settle_late_fees(db, loan)
    if quote.prepayment_fee:
        _prepayment_fee(db, loan, quote.prepayment_fee)
    loan.principal_balance = 0.0
    loan.deferred_interest = 0.0
    loan.past_due_amount, loan.days_past_due = 0.0, 0
    loan.interest_paid_through = _today_s()
    loan.status, loan.next_due_date, loan.paid_off_date = "paid_off", None, _today_s()
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
    deferred-interest balance, due at payoff, and the interest-paid-through date moves one month (that month's
    interest is not charged again by daily accrual); the maturity date also moves one month."""
    loan = _open_loan(db, loan_number)
    terms = _deferral_terms(loan)
    deferral_id = db.deferrals.new_key("DEF", loan.loan_number, terms.from_due_date)
    deferral = Deferral(deferral_id=deferral_id, loan_number=loan.loan_number, granted_date=_today_s(),
                        from_due_date=terms.from_due_date, to_due_date=terms.to_due_date,
                        interest_added=terms.interest_added, hardship=hardship)
    db.deferrals[deferral_id] = deferral
    loan.next_due_date = terms.to_due_date
    loan.maturity_date = terms.maturity_date_after
    deferred_days = d(terms.to_due_date) - d(terms.from_due_date)
    loan.interest_paid_through = (d(loan.interest_paid_through) + deferred_days).isoformat()
    loan.deferred_interest = round(loan.deferred_interest + terms.interest_added, 2)
    loan.deferrals_used += 1
    return DeferralResult(deferral=deferral, loan=loan)


@DOMAIN.tool(write=True)
def enroll_autopay(db: LoansDB, loan_number: LoanNumber, bank_account_id: AccountId) -> Loan:
    """Enroll a loan in autopay from one of the borrower's accounts, or switch the autopay account of an
    enrolled loan. A new enrollment lowers the APR by 0.25 percentage points below the base APR and
    re-amortizes the monthly payment over the remaining installments; switching changes only the account."""
    loan = _open_loan(db, loan_number)
    account = _account(db, loan.borrower_id, bank_account_id)
    if loan.autopay:
        loan.autopay_account_id = account.account_id
        return loan
    quote = quote_autopay_change(db, loan.loan_number, "enroll")
    loan.autopay, loan.autopay_account_id = True, account.account_id
    loan.apr, loan.monthly_payment = quote.apr_after, quote.monthly_payment_after
    return loan


@DOMAIN.tool(write=True)
def cancel_autopay(db: LoansDB, loan_number: LoanNumber) -> Loan:
    """Stop autopay on a loan. The autopay discount ends: the APR returns to the base APR and the monthly
    payment is re-amortized over the remaining installments. A loan not on autopay is left as it is."""
    loan = _open_loan(db, loan_number)
    if not loan.autopay:
        return loan
    quote = quote_autopay_change(db, loan.loan_number, "cancel")
    loan.autopay, loan.autopay_account_id = False, None
    loan.apr, loan.monthly_payment = quote.apr_after, quote.monthly_payment_after
    return loan


@DOMAIN.tool(write=True)
def waive_late_fee(
    db: LoansDB,
    fee_id: Annotated[str, Field(description="the id of a fee that is still due, such as 'FEE000123'")],
) -> Fee:
    """Waive a fee that is still due; the loan's late fees due drop by its amount. A fee already
    paid or waived has nothing left to waive."""
    fee = db.fees.require(fee_id)
    if fee.status != "due":
        raise ToolError(f"fee {fee.fee_id} is {fee.status}; nothing is left to waive")
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
    """Add a bank account to a borrower's profile; the bank is identified by its routing number. New accounts
    are unverified until the two micro-deposits (sent within 1 business day) are confirmed online."""
    borrower = db.borrowers.require(borrower_id)
    routing, last4 = routing_number.strip(), account_last4.strip()
    if len(routing) != 9 or not routing.isdigit():
        raise ToolError("the routing number must be 9 digits")
    if len(last4) != 4 or not last4.isdigit():
        raise ToolError("account_last4 must be 4 digits")
    bank_name = next((a.bank_name for b in db.borrowers.values() for a in b.bank_accounts if a.routing_number == routing), None)
    if bank_name is None:
        raise ToolError(f"routing number {routing} is not a bank we can draft from")
    for account in borrower.bank_accounts:
        if account.routing_number == routing and account.account_last4 == last4:
            raise ToolError(f"that account is already on file as {account.account_id}")
    account_id = "BA" + db.borrowers.new_key("", borrower.borrower_id, routing, last4, account_type)
    account = BankAccount(account_id=account_id, bank_name=bank_name, account_type=account_type,
                          routing_number=routing, account_last4=last4, verified=False, added_date=_today_s())
    db.borrowers[borrower.borrower_id].bank_accounts.append(account)
    return account


# -- data invariants: the clock, ages, places and money the policy relies on -------------------
MODEL_YEAR_CODES = "ABCDEFGHJKLMNPRSTVWXY123456789"  # VIN position 10: 2010 is A, cycling every 30 years


@DOMAIN.invariant
def accounts_on_file_before_use(db: LoansDB, now: dt.datetime) -> Iterator[str]:
    """borrowers.bank_accounts: an account was on file before a disbursement or payment used it"""
    added = {a.account_id: a.added_date for b in db.borrowers.values() for a in b.bank_accounts}
    for number, loan in db.loans.items():
        account = loan.disbursement_account_id
        if account is not None and added[account] > loan.origination_date:
            yield f"loans[{number!r}]: disbursed on {loan.origination_date} to {account}, added {added[account]}"
    for key, payment in db.payments.items():
        if added[payment.bank_account_id] > payment.posted_date:
            yield f"payments[{key!r}]: posted {payment.posted_date} from {payment.bank_account_id}, added {added[payment.bank_account_id]}"


@DOMAIN.invariant
def vehicle_years(db: LoansDB, now: dt.datetime) -> Iterator[str]:
    """loans.vehicle: the VIN encodes the model year, and a new vehicle is of a model year on sale when financed
    (the year the loan was made, or the next)."""
    for number, loan in db.loans.items():
        if loan.vehicle is None:
            continue
        if loan.vehicle.vin[9:10] != MODEL_YEAR_CODES[(loan.vehicle.year - 2010) % 30]:
            yield f"loans[{number!r}].vehicle: VIN {loan.vehicle.vin} does not encode model year {loan.vehicle.year}"
        made = d(loan.origination_date).year
        if loan.product_id == "AUTO-NEW" and loan.vehicle.year not in (made, made + 1):
            yield f"loans[{number!r}].vehicle: a new {loan.vehicle.year} vehicle financed in {made}"


DOMAIN.invariants(
    vins_valid("loans", "vehicle.vin"),
    plausible_age("borrowers", "date_of_birth", low=18, high=100),
    not_after_now("borrowers", "credit_score_date"),
    not_after_now("applications", "submitted_date"),
    not_after_now("loans", "origination_date"),
    ordered("loans", "origination_date", "first_due_date", strict=True),
    ordered("loans", "first_due_date", "maturity_date"),
    not_after_now("loans", "paid_off_date"),
    not_after_now("payments", "posted_date"),
    not_after_now("fees", "assessed_date"),
    not_after_now("deferrals", "granted_date"),
    ordered("deferrals", "from_due_date", "to_due_date", strict=True),
    area_codes_valid("borrowers", "phone"),
    cents("loans", "principal_balance"),
    cents("payments", "amount"),
)


# Orders the policy states, graded where a task's gold calls both tools: a charge is quoted before the write
# it prices (4.1, 4.3, 5.2, 6.1, 7.3), the rate sheet is read before an application (9.4) and the fee history
# before a courtesy waiver (8.2).
DOMAIN.order("quote_scheduled_payment", "make_scheduled_payment")
DOMAIN.order("quote_extra_payment", "make_extra_payment")
DOMAIN.order("get_payoff_quote", "pay_off_loan")
DOMAIN.order("quote_deferral", "request_deferral")
DOMAIN.order("quote_autopay_change", "cancel_autopay")
DOMAIN.order("get_product_terms", "submit_application")
DOMAIN.order("list_loan_fees", "waive_late_fee")
