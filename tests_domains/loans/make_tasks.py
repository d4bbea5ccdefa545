"""Builds fixtures/loans/tasks.json with a `TaskWriter`: `python -m tests_domains.loans.make_tasks`.

Hand-written templates per task kind; concrete borrowers, loans and offers are picked from the
initial DB with a seeded RNG (each borrower serves one task at most). Every gold call runs as it
is added, and every figure a task asks for is read from what the tools returned.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from pytest_tau import TaskDraft, TaskWriter
from tests_domains.loans.amortization import add_months, band_for, d, months_between
from tests_domains.loans.domain import DOMAIN
from tests_domains.loans.schema import Application, BankAccount, Borrower, Fee, Loan

TODAY = DOMAIN.today
DB = DOMAIN.initial_db
B = DB.borrowers
LOANS: list[Loan] = sorted(DB.loans.values(), key=lambda x: x.loan_number)
FEES: dict[str, list[Fee]] = defaultdict(list)
for _fee in sorted(DB.fees.values(), key=lambda f: f.fee_id):
    FEES[_fee.loan_number].append(_fee)

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
MOODS = [
    "You are polite but a little rushed; you are calling on your lunch break.",
    "You are anxious about money and want figures repeated back clearly.",
    "You are friendly and chatty, but you stay on topic once the agent asks questions.",
    "You are matter-of-fact and give short answers.",
    "You are a bit skeptical and double-check every number the agent gives you.",
    "You are calm and patient.",
]
REVEAL = "Reveal information only when the agent asks for it."


def spoken_date(iso: str) -> str:
    day = d(iso)
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def age(b: Borrower) -> int:
    born = d(b.date_of_birth)
    return TODAY.year - born.year - ((TODAY.month, TODAY.day) < (born.month, born.day))


def verified(b: Borrower) -> list[BankAccount]:
    return [a for a in b.bank_accounts if a.verified]


def your_account(acc: BankAccount) -> str:
    return f"your {acc.bank_name} {acc.account_type} account ending in {acc.account_last4}"


def my_account(acc: BankAccount) -> str:
    return f"my {acc.bank_name} account ending {acc.account_last4}"


def open_loans(b: Borrower) -> list[Loan]:
    return [DB.loans[n] for n in b.loan_numbers if DB.loans[n].status != "paid_off"]


def label(loan: Loan) -> str:
    """How the borrower names the loan: the vehicle, or the product."""
    if loan.vehicle:
        return f"auto loan on the {loan.vehicle.year} {loan.vehicle.make} {loan.vehicle.model}"
    return DB.products[loan.product_id].name


def unique_label(loan: Loan) -> bool:
    return sum(1 for x in open_loans(B[loan.borrower_id]) if label(x) == label(loan)) == 1


def remaining(loan: Loan) -> int:
    return months_between(d(loan.next_due_date), d(loan.maturity_date)) if loan.next_due_date else 0


def in_fee_window(loan: Loan) -> bool:
    p = DB.products[loan.product_id]
    return bool(p.prepayment_fee_pct) and add_months(d(loan.origination_date), p.prepayment_fee_window_months) > TODAY


def open_current(loan: Loan, autopay: bool | None = None, products: set[str] | None = None) -> bool:
    ok = loan.status == "current" and remaining(loan) >= 6 and loan.principal_balance > 3000
    if autopay is not None:
        ok = ok and loan.autopay == autopay
    if products:
        ok = ok and loan.product_id in products
    return ok


def deferral_ok(x: Loan) -> bool:
    return (x.status == "current" and x.payments_made >= 6 and x.deferrals_used < 2 and x.principal_balance > 2000
            and remaining(x) >= 4)


def due_fees(loan: Loan) -> list[Fee]:
    return [f for f in FEES[loan.loan_number] if f.status == "due"]


def one_missed(x: Loan) -> bool:
    return (x.status == "past_due" and abs(x.past_due_amount - x.monthly_payment) < 0.01 and x.late_fees_due > 0
            and len(due_fees(x)) == 1 and bool(verified(B[x.borrower_id])))


def waiver_eligible(x: Loan) -> bool:
    due = due_fees(x)[0]
    day = d(due.assessed_date)
    for f in FEES[x.loan_number]:
        if f is due or f.kind != "late":
            continue
        if f.status == "waived" or day - dt.timedelta(days=365) <= d(f.assessed_date) < day:
            return False
    return True


def can_apply(b: Borrower) -> bool:
    if any(DB.loans[n].status == "past_due" for n in b.loan_numbers):
        return False
    if any(DB.applications[a].status == "approved" for a in b.application_ids):
        return False
    return band_for(b.credit_score) in ("A", "B", "C") and bool(verified(b)) and bool(b.loan_numbers)


POLICY_NUMBERS = {580, 619, 620, 679, 680, 739, 740}


def named_account(b: Borrower, acc: BankAccount) -> str:
    """Why the account a write uses is the only one it may use: the caller names it, and it may be used."""
    same = [a for a in b.bank_accounts if a.bank_name == acc.bank_name and a.account_last4 == acc.account_last4]
    assert same == [acc] and acc.verified, f"{b.borrower_id}: {acc.account_id} is not the one verified account so named"
    return (f"the caller names the account by bank and last four digits, and the {acc.bank_name} account ending "
            f"{acc.account_last4} is the only one on the profile with them and is verified (rules 2.1, 3.1)")


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(4242)
        self.used: set[str] = set()

    def pick(self, candidates: list[Any], key: Callable[[Any], str] = lambda x: x.borrower_id) -> Any:
        pool = [c for c in candidates if key(c) not in self.used]
        if not pool:
            raise SystemExit("no candidate left")
        choice = self.rng.choice(pool)
        self.used.add(key(choice))
        return choice

    def mood(self) -> str:
        return self.rng.choice(MOODS) + " " + REVEAL

    def task(self, task_id: str, b: Borrower, situation: str, know: str, script: list[str], split: str = "test",
             ordered: bool = False) -> TaskDraft:
        text = f"You are {b.first_name} {b.last_name}. {situation} {know} {self.mood()}"
        return self.writer.task(task_id, instructions=text, script=script, split=split, ordered=ordered)

    def auth_mode(self, b: Borrower, loan: Loan | None, mode: str | None = None) -> str:
        mode = mode or self.rng.choice(["loan", "id"])
        if loan is None:
            return "id"
        if not unique_label(loan):
            return "loan"
        return mode

    @staticmethod
    def know(b: Borrower, loan: Loan | None, mode: str) -> tuple[str, str]:
        """What the caller knows to identify themselves, and the line they say when asked."""
        if mode == "loan" and loan is not None:
            return (f"Your loan number is {loan.loan_number} and the last four digits of your Social Security number "
                    f"are {b.ssn_last4}.",
                    f"My loan number is {loan.loan_number}, and the last four of my social are {b.ssn_last4}.")
        return (f"You do not have your loan number handy; you can give your date of birth "
                f"({spoken_date(b.date_of_birth)}) and your zip code ({b.zip}).",
                f"{b.first_name} {b.last_name}, born {spoken_date(b.date_of_birth)}, zip {b.zip}.")

    @staticmethod
    def authenticate(draft: TaskDraft, b: Borrower, loan: Loan | None, mode: str) -> None:
        if mode == "loan" and loan is not None:
            draft.read("find_borrower_by_loan_number", loan_number=loan.loan_number, ssn_last4=b.ssn_last4)
        else:
            draft.read("find_borrower_by_identity", first_name=b.first_name, last_name=b.last_name,
                       date_of_birth=b.date_of_birth, zip=b.zip)


# -- servicing: autopay, extra payments, payoffs ---------------------------------------------------
def autopay_enroll(w: Builder, i: int, split: str = "test") -> None:
    loan = w.pick([x for x in LOANS if open_current(x, autopay=False) and verified(B[x.borrower_id])])
    b = B[loan.borrower_id]
    acc = verified(b)[0]
    mode = w.auth_mode(b, loan)
    know, line = w.know(b, loan, mode)
    t = w.task(f"autopay_enroll_{i}", b,
               f"You have the {label(loan)} with Keystone Ridge Lending and heard that autopay lowers the rate. You want "
               f"it enrolled in autopay from {your_account(acc)}. Before agreeing, ask what your new monthly payment "
               f"would be; then confirm.", know,
               ["Hi, I'd like to set up autopay on my loan, I heard it gets me a discount.", line,
                f"Use {my_account(acc)}. What would my monthly payment be with autopay?", "Okay, yes, go ahead."],
               split=split)
    w.authenticate(t, b, loan, mode)
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    t.read("get_loan_details", loan_number=loan.loan_number)
    t.read("quote_autopay_change", loan_number=loan.loan_number, change="enroll")
    res = t.write("enroll_autopay", loan_number=loan.loan_number, bank_account_id=acc.account_id)
    t.output(res["monthly_payment"], "money")
    t.one_end_state(f"The loan is current and not on autopay, and {named_account(b, acc)}; enrolling is the one change "
                    "asked for (7.1).")


def extra_principal(w: Builder, i: int, split: str = "test") -> None:
    loan = w.pick([x for x in LOANS if open_current(x, products={"PERS-STD", "AUTO-NEW", "AUTO-USED"})
                   and verified(B[x.borrower_id])])
    b = B[loan.borrower_id]
    acc = w.rng.choice(verified(b))
    amount = float(w.rng.choice([300, 450, 500, 750, 1000, 1200, 1500]))
    mode = w.auth_mode(b, loan)
    know, line = w.know(b, loan, mode)
    t = w.task(f"extra_principal_{i}", b,
               f"You got a bonus at work and want to put ${amount:,.0f} extra toward the principal of your {label(loan)}, "
               f"paid from {your_account(acc)}. You do not want to change your regular monthly payment. After the "
               f"payment, ask what your principal balance is now.", know,
               [f"Hello, I want to make an extra ${amount:,.0f} payment on my loan, all to principal.", line,
                f"From {my_account(acc)}.", "Yes, please do it.", "What's my principal balance now?"],
               split=split)
    w.authenticate(t, b, loan, mode)
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    t.read("quote_extra_payment", loan_number=loan.loan_number, amount=amount)
    res = t.write("make_extra_payment", loan_number=loan.loan_number, amount=amount, bank_account_id=acc.account_id)
    t.output(res["loan"]["principal_balance"], "money")
    t.one_end_state(f"The loan is current, its product charges no prepayment fee (4.3), the amount is over $25 and under "
                    f"the principal (4.2), and {named_account(b, acc)}.")


def extra_principal_fee(w: Builder, i: int) -> None:
    loan = w.pick([x for x in LOANS if open_current(x) and in_fee_window(x) and verified(B[x.borrower_id])])
    b = B[loan.borrower_id]
    acc = verified(b)[0]
    p = DB.products[loan.product_id]
    amount = float(w.rng.choice([1150, 1350, 1850, 2150, 2650, 3150]))
    mode = w.auth_mode(b, loan)
    know, line = w.know(b, loan, mode)
    t = w.task(f"extra_principal_fee_{i}", b,
               f"You took out your {label(loan)} on {spoken_date(loan.origination_date)} and want to pay "
               f"${amount:,.0f} extra toward principal from {your_account(acc)}. Before agreeing, ask whether there is "
               f"any fee and what the total charge to your account will be. When told about the fee, grumble a little "
               f"but accept and confirm the payment.", know,
               [f"Hi, I want to pay down ${amount:,.0f} of principal on my {p.name}.", line,
                f"The {acc.bank_name} account ending {acc.account_last4}. Is there any fee for this? What's the total?",
                "Ugh, fine. Yes, go ahead with it."])
    w.authenticate(t, b, loan, mode)
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    t.read("get_loan_details", loan_number=loan.loan_number)
    q = t.read("quote_extra_payment", loan_number=loan.loan_number, amount=amount)
    t.write("make_extra_payment", loan_number=loan.loan_number, amount=amount, bank_account_id=acc.account_id)
    t.output(q["prepayment_fee"], "money")
    t.output(q["total_charge"], "money")
    t.one_end_state(f"The loan is current and inside its product's 12-month prepayment-fee window, so the fee is charged on "
                    f"top of the amount (4.3) once the caller accepts it, and {named_account(b, acc)}.")


def payoff_quote(w: Builder, i: int, split: str = "test") -> None:
    loan = w.pick([x for x in LOANS if open_current(x)])
    b = B[loan.borrower_id]
    day = (TODAY + dt.timedelta(days=w.rng.choice([5, 7, 10, 13, 14, 20, 21]))).isoformat()
    why = w.rng.choice(["you are selling the vehicle" if loan.vehicle else "you are refinancing with your credit union",
                        "a relative offered to lend you the money", "you want to compare it with your savings"])
    mode = w.auth_mode(b, loan)
    know, line = w.know(b, loan, mode)
    t = w.task(f"payoff_quote_{i}", b,
               f"You want to know how much it would take to pay off your {label(loan)} if the funds arrive on "
               f"{spoken_date(day)}, because {why}. You only want the quote today; you do not want to pay anything now.",
               know,
               ["Hi, can I get a payoff quote on my loan?", line, f"For {spoken_date(day)}, please.",
                "Thanks, that's all I needed."], split=split)
    w.authenticate(t, b, loan, mode)
    t.read("get_loan_details", loan_number=loan.loan_number)
    q = t.read("get_payoff_quote", loan_number=loan.loan_number, payoff_date=day)
    t.output(q["total_payoff"], "money")


def payoff_today(w: Builder, i: int) -> None:
    loan = w.pick([x for x in LOANS if x.status == "current" and 800 < x.principal_balance < 6000
                   and verified(B[x.borrower_id]) and not in_fee_window(x)])
    b = B[loan.borrower_id]
    acc = w.rng.choice(verified(b))
    mode = w.auth_mode(b, loan)
    know, line = w.know(b, loan, mode)
    t = w.task(f"payoff_today_{i}", b,
               f"You want to pay off your {label(loan)} in full today from {your_account(acc)}. Ask for the exact "
               f"payoff amount first, then confirm.", know,
               ["Hi, I'm ready to pay my loan off completely today.", line, "How much is it exactly?",
                f"Okay, take it from {my_account(acc)}. Yes, I confirm."])
    w.authenticate(t, b, loan, mode)
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    q = t.read("get_payoff_quote", loan_number=loan.loan_number, payoff_date=TODAY.isoformat())
    t.write("pay_off_loan", loan_number=loan.loan_number, bank_account_id=acc.account_id)
    t.output(q["total_payoff"], "money")
    t.one_end_state(f"The loan is current and outside any prepayment-fee window; a payoff today charges today's quote "
                    f"(5.2), and {named_account(b, acc)}.")


# -- deferrals ------------------------------------------------------------------------------
HARDSHIPS = [
    ("you were laid off from your warehouse job two weeks ago", "I was laid off from my warehouse job two weeks ago.", "job_loss"),
    ("you are on unpaid medical leave after surgery", "I'm on unpaid medical leave after surgery.", "medical"),
    ("your hours at the restaurant were cut in half", "My hours at the restaurant got cut in half.", "reduced_income"),
    ("a storm damaged your roof and you had to pay the deductible", "A storm damaged my roof and I had to pay the deductible.", "disaster"),
]


def deferral_hardship(w: Builder, i: int, split: str = "test") -> None:
    loan = w.pick([x for x in LOANS if deferral_ok(x)])
    b = B[loan.borrower_id]
    hard, said, category = HARDSHIPS[(i - 1) % len(HARDSHIPS)]
    mode = w.auth_mode(b, loan)
    know, line = w.know(b, loan, mode)
    t = w.task(f"deferral_hardship_{i}", b,
               f"You cannot make your next payment on your {label(loan)} because {hard}. You want to skip (defer) the "
               f"next payment. When asked why, explain. Ask how much extra interest the deferral adds and when your "
               f"next payment will then be due; then confirm.", know,
               ["Hi, I need to skip my next loan payment, I'm going through a rough patch.", line, said,
                "How much interest does that add, and when would my next payment be due?", "Okay, yes, please set that up."],
               split=split)
    w.authenticate(t, b, loan, mode)
    t.read("get_loan_details", loan_number=loan.loan_number)
    t.read("list_deferrals", loan_number=loan.loan_number)
    t.read("quote_deferral", loan_number=loan.loan_number)
    res = t.write("request_deferral", loan_number=loan.loan_number, hardship=category)
    t.output(res["deferral"]["interest_added"], "money")
    t.output(res["deferral"]["to_due_date"], "date")
    t.one_end_state("Every condition of 6.2 holds (a hardship the caller describes, a current loan, 6 or more installments "
                    f"paid, {loan.deferrals_used} deferrals used), and the hardship described fits one category of 6.3 "
                    f"({category}); one deferral of the next installment (6.5).")


def deferral_refused(w: Builder, i: int, kind: str) -> None:
    if kind == "early":
        loan = w.pick([x for x in LOANS if x.status == "current" and 1 <= x.payments_made < 6 and x.deferrals_used == 0])
    elif kind == "max":
        loan = w.pick([x for x in LOANS if x.status == "current" and x.deferrals_used >= 2 and x.payments_made >= 6])
    else:
        loan = w.pick([x for x in LOANS if deferral_ok(x)])
    b = B[loan.borrower_id]
    mode = w.auth_mode(b, loan)
    know, line = w.know(b, loan, mode)
    if kind == "vacation":
        why = w.rng.choice(["you are taking the family to Orlando next month and want the cash for the trip",
                            "you want to put the money toward a cruise you just booked"])
        reason = ("I'm taking the family to Orlando next month and want the cash for the trip." if "Orlando" in why
                  else "I want to put the money toward a cruise I just booked.")
        excuse = "You have no hardship; it is purely for the trip, and you say so honestly if asked."
        follow, asked = "your current principal balance", "What's my principal balance right now, then?"
    elif kind == "early":
        why = "money is tight after a car repair and a dental bill"
        reason = "Money is tight after a car repair and a dental bill."
        excuse = "If told you are not eligible, accept it."
        follow, asked = "when your next payment is due and how much it is", "Okay. When is my next payment due, and how much is it?"
    else:
        why = "your hours were cut again at the plant"
        reason = "My hours got cut again at the plant."
        excuse = "You remember deferring before but not how many times. If told you are not eligible, accept it."
        follow, asked = "your regular monthly payment amount", "Okay. What's my regular monthly payment, then?"
    t = w.task(f"deferral_refused_{kind}_{i}", b,
               f"You want to defer (skip) your next payment on your {label(loan)} because {why}. {excuse} Then ask for "
               f"{follow}. You do not want to be transferred to anyone.", know,
               ["Hi, can I skip my next payment on my loan?", line, reason, asked])
    w.authenticate(t, b, loan, mode)
    info = t.read("get_loan_details", loan_number=loan.loan_number)
    if kind == "max":
        t.read("list_deferrals", loan_number=loan.loan_number)
    if kind == "vacation":
        t.output(info["principal_balance"], "money")
    elif kind == "early":
        t.output(info["next_due_date"], "date")
        t.output(info["monthly_payment"], "money")
    else:
        t.output(info["monthly_payment"], "money")
    t.forbid("request_deferral", loan_number=loan.loan_number, hardship="reduced_income")
    t.forbid("transfer_to_human_agents")
    why_not = {"vacation": "the reason is convenience, not a hardship (6.4), while every other condition of 6.2 holds",
               "early": f"only {loan.payments_made} installments have been paid, fewer than the 6 that 6.2 requires",
               "max": f"the loan has used {loan.deferrals_used} deferrals, and 6.2 allows fewer than 2"}[kind]
    t.one_end_state(f"No deferral: {why_not}. Whatever reason the agent gives, the state is unchanged, a refused deferral "
                    "is not transferred (6.4, 10.2), and the caller's follow-up question has one answer in the loan's details.")


def deferral_past_due(w: Builder, i: int) -> None:
    loan = w.pick([x for x in LOANS if one_missed(x) and x.payments_made >= 6 and x.deferrals_used < 2])
    b = B[loan.borrower_id]
    acc = verified(b)[0]
    mode = w.auth_mode(b, loan)
    know, line = w.know(b, loan, mode)
    t = w.task(f"deferral_past_due_{i}", b,
               f"You are behind on your {label(loan)} and want to defer the overdue payment because your hours were cut "
               f"last month. If the agent says a deferral is not possible, ask what you can do instead; you do have "
               f"enough in {your_account(acc)} to pay the overdue payment now, so ask how much it would be, then agree "
               f"to pay it (late fee included). Once it is paid you do not want any deferral or anything else; you will "
               f"manage the next payment yourself. You do not want autopay.", know,
               ["Hi, I'm behind on my loan and I'd like to defer the payment.", line, "My hours got cut last month.",
                f"Okay, how much would it be to pay it now from {my_account(acc)}?",
                "Yes, go ahead and pay it. Nothing else after that, thanks."])
    w.authenticate(t, b, loan, mode)
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    t.read("get_loan_details", loan_number=loan.loan_number)
    q = t.read("quote_scheduled_payment", loan_number=loan.loan_number)
    t.write("make_scheduled_payment", loan_number=loan.loan_number, bank_account_id=acc.account_id)
    t.output(q["total_charge"], "money")
    t.forbid("request_deferral", loan_number=loan.loan_number, hardship="reduced_income")
    t.one_end_state("No deferral: the loan is past due (6.2), though the caller's hardship and the loan's history would "
                    f"qualify; one scheduled payment brings it current (4.1), and {named_account(b, acc)}. Once it is paid the "
                    "caller asks for nothing more, so no deferral follows.")


# -- late fees ------------------------------------------------------------------------------------
def waive_catch_up_autopay(w: Builder, i: int) -> None:
    loan = w.pick([x for x in LOANS if one_missed(x) and waiver_eligible(x) and not x.autopay])
    b = B[loan.borrower_id]
    acc = verified(b)[0]
    fee = due_fees(loan)[0]
    mode = w.auth_mode(b, loan)
    know, line = w.know(b, loan, mode)
    t = w.task(f"waive_catch_up_autopay_{i}", b,
               f"You missed your last payment on your {label(loan)} because you forgot, and you were charged a late fee. "
               f"You want, in this order: (1) the late fee waived as a courtesy (you believe you have never been late "
               f"before), (2) to pay the missed payment now from {your_account(acc)}, and (3) to sign up for autopay "
               f"from that same account so it never happens again. Ask how much the missed payment charged your "
               f"account and what your new monthly payment is with autopay.", know,
               ["Hi, I missed a payment and got hit with a late fee. Can you help me fix this?", line,
                "It's the first time I've ever been late. Could you waive the fee?",
                f"Yes. Then please take the missed payment from {my_account(acc)}.",
                "And after that, sign me up for autopay from the same account. Yes, I confirm all of that.",
                "How much did the payment come to, and what's my new monthly payment?"],
               ordered=True)
    w.authenticate(t, b, loan, mode)
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    t.read("get_loan_details", loan_number=loan.loan_number)
    t.read("list_loan_fees", loan_number=loan.loan_number)
    t.write("waive_late_fee", fee_id=fee.fee_id)
    pay = t.write("make_scheduled_payment", loan_number=loan.loan_number, bank_account_id=acc.account_id)
    res = t.write("enroll_autopay", loan_number=loan.loan_number, bank_account_id=acc.account_id)
    t.output(pay["payment"]["amount"], "money")
    t.output(res["monthly_payment"], "money")
    t.one_end_state("The fee qualifies for the one courtesy waiver (8.2: no waiver ever on the loan, no other late fee in "
                    f"the 12 months before it, shown by list_loan_fees); the caller fixes the order, and {named_account(b, acc)}.")


def waiver_refused(w: Builder, i: int) -> None:
    loan = w.pick([x for x in LOANS if one_missed(x) and not waiver_eligible(x)])
    b = B[loan.borrower_id]
    fee = due_fees(loan)[0]
    mode = w.auth_mode(b, loan)
    know, line = w.know(b, loan, mode)
    t = w.task(f"waiver_refused_{i}", b,
               f"You are behind one payment on your {label(loan)} and there is a late fee. First ask the agent to waive "
               f"the late fee. If the agent refuses, be disappointed but accept it, and ask exactly how much you would "
               f"need to pay today to catch up, fee included. You will pay it online on Friday after payday, so you do "
               f"not want to pay anything on this call, and you do not want to be transferred.", know,
               ["Hi, I'm a payment behind. Can you take off the late fee?", line,
                "That's disappointing. How much would I need to pay to catch up, fee included?",
                "Okay, I'll pay it online Friday after payday. That's all."])
    w.authenticate(t, b, loan, mode)
    t.read("get_loan_details", loan_number=loan.loan_number)
    t.read("list_loan_fees", loan_number=loan.loan_number)
    q = t.read("quote_scheduled_payment", loan_number=loan.loan_number)
    t.output(q["total_charge"], "money")
    t.forbid("waive_late_fee", fee_id=fee.fee_id)
    t.forbid("transfer_to_human_agents")
    earlier = [f for f in FEES[loan.loan_number] if f is not fee and f.kind == "late"]
    if any(f.status == "waived" for f in earlier):
        why_not = "a late fee on this loan was waived before"
    else:
        why_not = "another late fee was assessed on this loan in the 12 months before this one"
    t.one_end_state(f"No waiver: {why_not} (8.2, shown by list_loan_fees), and a refused waiver is not transferred; the "
                    "caller pays nothing on the call, so the one figure is the quoted catch-up charge (4.1).")


# -- applications -----------------------------------------------------------------------------------
PURPOSES = [("replacing the furnace", "replacing my furnace", "home_improvement"),
            ("a kitchen remodel", "a kitchen remodel", "home_improvement"),
            ("paying a dental surgery bill", "paying a dental surgery bill", "medical"),
            ("moving across the state for a new job", "moving across the state for a new job", "moving"),
            ("a used fishing boat", "a used fishing boat", "major_purchase"),
            ("fixing the transmission on your car", "fixing the transmission on my car", "vehicle_repair")]


def submit(t: TaskDraft, b: Borrower, amount: float, term: int, income: float, debts: float, purpose: str,
           product: str = "PERS-STD") -> Any:
    return t.write("submit_application", borrower_id=b.borrower_id, product_id=product, requested_amount=amount,
                   term_months=term, stated_monthly_income=income, stated_monthly_debts=debts, purpose=purpose)


def apply_book_autopay(w: Builder, i: int, split: str = "test") -> None:
    b = w.pick([x for x in B.values() if can_apply(x)])
    tier = DB.rate_tiers[f"PERS-STD-{band_for(b.credit_score)}"]
    amount = float(w.rng.randrange(3, int(min(tier.max_amount, 20000) // 1000) + 1) * 1000)
    term = w.rng.choice([24, 36, 48, 60])
    income = float(w.rng.randrange(4000, 9000, 250))
    debts = float(round(income * w.rng.uniform(0.12, 0.33) / 10) * 10)
    what, said, category = PURPOSES[(i - 1) % len(PURPOSES)]
    acc = verified(b)[0]
    first = DB.loans[b.loan_numbers[0]]
    mode = w.auth_mode(b, first, "loan")
    know, line = w.know(b, first, mode)
    t = w.task(f"apply_book_autopay_{i}", b,
               f"You are an existing Keystone Ridge borrower. You want a Personal Installment Loan of ${amount:,.0f} over "
               f"{term} months for {what}. Your gross monthly income is ${income:,.0f} and your monthly debt payments "
               f"total ${debts:,.0f}. If approved, accept the offer and have the money deposited into {your_account(acc)}, "
               f"then enroll the new loan in autopay from the same account. You want to know your new loan number and "
               f"the monthly payment with autopay.", know,
               [f"Hi, I'd like to apply for a personal loan of ${amount:,.0f}.", line,
                f"{term} months, it's for {said}. I make ${income:,.0f} a month before taxes and pay ${debts:,.0f} a month in debts.",
                f"Great, yes, accept it and deposit it into {my_account(acc)}.",
                "And put it on autopay from the same account, yes. What's the loan number and the payment?"],
               split=split)
    w.authenticate(t, b, first, mode)
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    t.read("get_product_terms", product_id="PERS-STD")
    app = submit(t, b, amount, term, income, debts, category)
    assert app["status"] == "approved", app
    loan = t.write("book_approved_application", application_id=app["application_id"], disbursement_account_id=acc.account_id)
    res = t.write("enroll_autopay", loan_number=loan["loan_number"], bank_account_id=acc.account_id)
    t.output(loan["loan_number"], "code")
    t.output(res["monthly_payment"], "money")
    t.one_end_state(f"The caller asks for a PERS-STD loan within the band's maximum; {category} is the 9.2 category that fits "
                    f"'{what}'; the offer is booked and the new loan enrolled in the order the caller asks, and {named_account(b, acc)}.")


def apply_annual_income(w: Builder, i: int) -> None:
    b = w.pick([x for x in B.values() if can_apply(x)])
    tier = DB.rate_tiers[f"PERS-STD-{band_for(b.credit_score)}"]
    amount = float(min(tier.max_amount, 12000) - 2000)
    annual = float(w.rng.choice([54000, 60000, 66000, 72000, 78000, 84000]))
    debts = float(w.rng.choice([650, 900, 1100, 1250]))
    acc = verified(b)[0]
    know, line = w.know(b, None, "id")
    t = w.task(f"apply_annual_income_{i}", b,
               f"You want a ${amount:,.0f} Personal Installment Loan over 36 months for repairs to your house (a new "
               f"roof and gutters). You only know your salary as a yearly figure: ${annual:,.0f} a year before taxes; "
               f"if the agent asks for monthly income, give the yearly figure and let them work it out. Your monthly "
               f"debt payments are ${debts:,.0f}. If approved, accept and have the funds deposited into "
               f"{your_account(acc)}. Ask for the new loan number, the monthly payment and when the first payment is due.", know,
               [f"Hello, I want to apply for a ${amount:,.0f} personal loan for home repairs.", line,
                f"I make ${annual:,.0f} a year. My debts are ${debts:,.0f} a month. 36 months.",
                f"Yes, accept it, deposit to {acc.bank_name} ending {acc.account_last4}.",
                "What's the loan number, the payment, and when is the first one due?"])
    w.authenticate(t, b, None, "id")
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    t.read("get_product_terms", product_id="PERS-STD")
    app = submit(t, b, amount, 36, round(annual / 12, 2), debts, "home_improvement")
    assert app["status"] == "approved", app
    loan = t.write("book_approved_application", application_id=app["application_id"], disbursement_account_id=acc.account_id)
    t.output(loan["monthly_payment"], "money")
    t.output(loan["loan_number"], "code")
    t.output(loan["first_due_date"], "date")
    t.one_end_state("9.2: the yearly salary divided by 12 is the monthly income submitted; a new roof and gutters are "
                    f"repairs to the home (home_improvement); {named_account(b, acc)}.")


def apply_declined(w: Builder, i: int) -> None:
    b = w.pick([x for x in B.values() if can_apply(x)])
    amount = float(w.rng.choice([4000, 5000, 6000, 7500]))
    income = float(w.rng.choice([3800, 4100, 4450, 5200]))
    debts = float(round(income * w.rng.uniform(0.42, 0.55) / 10) * 10)
    first = DB.loans[b.loan_numbers[0]]
    mode = w.auth_mode(b, first, "loan")
    know, line = w.know(b, first, mode)
    t = w.task(f"apply_declined_dti_{i}", b,
               f"You want a ${amount:,.0f} Personal Installment Loan over 48 months to pay off a hospital bill from your "
               f"appendectomy. Your gross monthly income is ${income:,.0f}; your monthly debt payments (rent, car, "
               f"cards) are ${debts:,.0f}. Go ahead with the application when asked to confirm. If declined, ask exactly "
               f"why and what your debt-to-income ratio came out to.", know,
               [f"Hi, I'd like to apply for a ${amount:,.0f} personal loan.", line,
                f"48 months, for my hospital bill. I earn ${income:,.0f} a month, debts are ${debts:,.0f} a month.",
                "Yes, submit it.", "Why was it declined? What was my ratio?"])
    w.authenticate(t, b, first, mode)
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    t.read("get_product_terms", product_id="PERS-STD")
    app = submit(t, b, amount, 48, income, debts, "medical")
    assert app["status"] == "declined", app
    t.output(app["dti_pct"], "percent")
    t.one_end_state("9.4: every application the caller confirms is submitted, even one the agent expects to be declined, "
                    "so the decision is recorded; a hospital bill is the medical category (9.2).")


def apply_over_band(w: Builder, i: int) -> None:
    b = w.pick([x for x in B.values() if can_apply(x) and band_for(x.credit_score) in ("B", "C")])
    tier = DB.rate_tiers[f"PERS-STD-{band_for(b.credit_score)}"]
    ask = tier.max_amount + w.rng.choice([5000, 10000])
    income = float(w.rng.randrange(6000, 10000, 500))
    debts = float(w.rng.choice([800, 1200, 1500]))
    acc = verified(b)[0]
    first = DB.loans[b.loan_numbers[0]]
    mode = w.auth_mode(b, first, "loan")
    know, line = w.know(b, first, mode)
    t = w.task(f"apply_over_band_max_{i}", b,
               f"You want to borrow ${ask:,.0f} with a Personal Installment Loan over 60 months to install an in-ground "
               f"pool at your home. Gross monthly income ${income:,.0f}, monthly debts ${debts:,.0f}. If the agent says "
               f"you can't get that much, ask what the most you can get is and apply for exactly that maximum instead. "
               f"If approved, accept it into {your_account(acc)} and enroll the new loan in autopay from the same "
               f"account. Ask for the monthly payment with autopay.", know,
               [f"Hi, I want a ${ask:,.0f} personal loan for a pool.", line,
                f"60 months. I make ${income:,.0f} a month, and my debts are ${debts:,.0f} a month.",
                "What's the most I can get then? Okay, apply for the maximum.",
                f"Yes, accept it into {my_account(acc)} and put it on autopay. What's the payment with autopay?"])
    w.authenticate(t, b, first, mode)
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    terms = t.read("get_product_terms", product_id="PERS-STD")
    band_max = next(x["max_amount"] for x in terms["rate_tiers"] if x["band"] == band_for(b.credit_score))
    app = submit(t, b, band_max, 60, income, debts, "home_improvement")
    assert app["status"] == "approved", app
    loan = t.write("book_approved_application", application_id=app["application_id"], disbursement_account_id=acc.account_id)
    res = t.write("enroll_autopay", loan_number=loan["loan_number"], bank_account_id=acc.account_id)
    t.output(band_max, "money")
    t.output(res["monthly_payment"], "money")
    t.forbid("submit_application", borrower_id=b.borrower_id, product_id="PERS-STD", requested_amount=ask,
             term_months=60, stated_monthly_income=income, stated_monthly_debts=debts, purpose="home_improvement")
    t.one_end_state("9.4: the amount asked is over the band's maximum, so the agent tells the maximum and submits only the "
                    "amount the caller then chooses (the maximum), never the first amount; an in-ground pool is an addition to "
                    f"the home (home_improvement, 9.2); {named_account(b, acc)}.")


def auto_application(w: Builder, i: int) -> None:
    b = w.pick([x for x in B.values() if open_loans(x) and x.credit_score not in POLICY_NUMBERS])
    loan = open_loans(b)[0]
    mode = w.auth_mode(b, loan, "loan")
    know, line = w.know(b, loan, mode)
    what, detail, product, purpose = [
        ("a used car loan", "a 2022 Honda CR-V you found at a dealer", "AUTO-USED", "vehicle_purchase"),
        ("an auto refinance", "refinancing your current car loan from another bank", "AUTO-REFI", "vehicle_refinance"),
    ][(i - 1) % 2]
    t = w.task(f"auto_application_transfer_{i}", b,
               f"You are an existing Keystone Ridge borrower. You want to apply for {what} ({detail}), about $18,000 "
               f"over 60 months; you earn $5,200 a month and pay $900 a month in debts. You would like the agent to take "
               f"the application on this call. The dealer asked whether you know your credit score, so before anything "
               f"else ask which credit score Keystone Ridge has on file for you. If told the application must go to "
               f"another team, accept a transfer.", know,
               [f"Hi, I'd like to apply for {what}.", line, "First, what credit score do you have on file for me?",
                "About $18,000, 60 months. I make $5,200 a month and pay $900 in debts. Can you take the application now?",
                "Okay, please transfer me."])
    w.authenticate(t, b, loan, mode)
    profile = t.read("get_borrower_profile", borrower_id=b.borrower_id)
    t.output(profile["credit_score"], "number")
    t.transfer(f"Authenticated borrower {b.first_name} {b.last_name} wants to apply for {what}; auto applications "
               f"go to auto originations.")
    t.forbid("submit_application", borrower_id=b.borrower_id, product_id=product, requested_amount=18000.0,
             term_months=60, stated_monthly_income=5200.0, stated_monthly_debts=900.0, purpose=purpose)
    t.one_end_state("9.1: auto and auto-refinance applications are taken only by the auto originations team, so the one "
                    "end state is no application and a transfer (10.2); the credit score on file answers the caller's question.")


PURPOSE_WORDS = {"debt_consolidation": "consolidating credit cards", "home_improvement": "a home project",
                 "medical": "medical bills", "major_purchase": "a big purchase", "vehicle_repair": "car repairs",
                 "moving": "a move", "wedding": "a wedding", "education": "school costs", "vacation": "a trip",
                 "other": "personal expenses"}


def withdraw_reapply(w: Builder, i: int) -> None:
    cands: list[Application] = []
    for app in sorted(DB.applications.values(), key=lambda a: a.application_id):
        if app.status == "approved" and app.product_id == "PERS-STD" and app.purpose in PURPOSE_WORDS:
            b = B[app.borrower_id]
            if (not any(DB.loans[n].status == "past_due" for n in b.loan_numbers) and band_for(b.credit_score)
                    and verified(b) and b.loan_numbers
                    and sum(DB.applications[a].status == "approved" for a in b.application_ids) == 1):
                cands.append(app)
    app = w.pick(cands)
    b = B[app.borrower_id]
    tier = DB.rate_tiers[f"PERS-STD-{band_for(b.credit_score)}"]
    new_amount = float(min(tier.max_amount, app.requested_amount + w.rng.choice([1000, 2000, 3000])))
    if new_amount == app.requested_amount:
        new_amount = app.requested_amount - 1000
    term = w.rng.choice([t for t in [24, 36, 48, 60] if t != app.term_months])
    acc = verified(b)[0]
    know, line = w.know(b, None, "id")
    t = w.task(f"withdraw_and_reapply_{i}", b,
               f"On {spoken_date(app.submitted_date)} you were approved for a ${app.requested_amount:,.0f} personal "
               f"loan over {app.term_months} months (for {PURPOSE_WORDS[app.purpose]}), but you have not accepted it. "
               f"You now need ${new_amount:,.0f} over {term} months instead, for the same purpose. Your income "
               f"(${app.stated_monthly_income:,.2f} a month) and debts (${app.stated_monthly_debts:,.2f} a month) are "
               f"unchanged. If the agent needs a reason for dropping the old offer, it is that you are changing the "
               f"amount and term. If the new application is approved, accept it right away into {your_account(acc)}. "
               f"Ask for the new monthly payment.", know,
               ["Hi, I was approved for a personal loan recently but I need to change the amount and term.", line,
                f"I need ${new_amount:,.0f} over {term} months instead. Same income and debts; it's for the same thing.",
                f"Yes, withdraw the old one and apply. If it's approved, deposit it to {acc.bank_name} ending "
                f"{acc.account_last4}. What will the monthly payment be?"])
    w.authenticate(t, b, None, "id")
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    t.read("get_application", application_id=app.application_id)
    t.write("withdraw_application", application_id=app.application_id, reason="changing_amount_or_terms")
    new = submit(t, b, new_amount, term, app.stated_monthly_income, app.stated_monthly_debts, app.purpose)
    assert new["status"] == "approved", new
    loan = t.write("book_approved_application", application_id=new["application_id"], disbursement_account_id=acc.account_id)
    t.output(loan["monthly_payment"], "money")
    t.one_end_state("9.5: a borrower holds one open offer, and changing the amount or term means withdrawing it (with the "
                    "reason the caller gives, changing_amount_or_terms) and submitting a new application; "
                    f"{named_account(b, acc)}.")


def book_offer(w: Builder, i: int, split: str = "test") -> None:
    cands = [a for a in sorted(DB.applications.values(), key=lambda a: a.application_id)
             if a.status == "approved" and a.product_id == "PERS-CONS" and verified(B[a.borrower_id])
             and sum(DB.applications[x].status == "approved" for x in B[a.borrower_id].application_ids) == 1]
    app = w.pick(cands)
    b = B[app.borrower_id]
    acc = verified(b)[-1]
    know, line = w.know(b, None, "id")
    t = w.task(f"book_open_offer_{i}", b,
               f"You were approved on {spoken_date(app.submitted_date)} for a ${app.requested_amount:,.0f} "
               f"{DB.products[app.product_id].name} and want to accept it now, with the money going into "
               f"{your_account(acc)}. Ask how much will actually land in your account and what the monthly payment is. "
               f"You do not want autopay right now.", know,
               ["Hi, I got approved for a loan and I'd like to accept the offer.", line,
                f"Deposit it into {my_account(acc)}. Yes, accept it.", "How much will I actually get, and what's the payment?"],
               split=split)
    w.authenticate(t, b, None, "id")
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    t.read("get_application", application_id=app.application_id)
    loan = t.write("book_approved_application", application_id=app.application_id, disbursement_account_id=acc.account_id)
    t.output(loan["disbursed_amount"], "money")
    t.output(loan["monthly_payment"], "money")
    t.one_end_state(f"The caller's one open offer is the one booked (9.5), and {named_account(b, acc)}.")


# -- autopay and accounts ------------------------------------------------------------------------------
def cancel_autopay(w: Builder, i: int) -> None:
    loan = w.pick([x for x in LOANS if open_current(x, autopay=True)])
    b = B[loan.borrower_id]
    mode = w.auth_mode(b, loan)
    know, line = w.know(b, loan, mode)
    t = w.task(f"cancel_autopay_{i}", b,
               f"You are switching banks and want to stop autopay on your {label(loan)}; you will pay manually for now. "
               f"Ask what your monthly payment will be without autopay; when the agent explains the discount goes away, "
               f"still go ahead.", know,
               ["Hi, please turn off autopay on my loan.", line, "What will my payment be without it?",
                "I understand. Yes, cancel it anyway."])
    w.authenticate(t, b, loan, mode)
    t.read("get_loan_details", loan_number=loan.loan_number)
    q = t.read("quote_autopay_change", loan_number=loan.loan_number, change="cancel")
    t.write("cancel_autopay", loan_number=loan.loan_number)
    t.output(q["monthly_payment_after"], "money")


def switch_autopay(w: Builder, i: int) -> None:
    loan = w.pick([x for x in LOANS if open_current(x, autopay=True)
                   and any(a.account_id != x.autopay_account_id for a in verified(B[x.borrower_id]))])
    b = B[loan.borrower_id]
    acc = next(a for a in verified(b) if a.account_id != loan.autopay_account_id)
    mode = w.auth_mode(b, loan)
    know, line = w.know(b, loan, mode)
    t = w.task(f"switch_autopay_account_{i}", b,
               f"Your {label(loan)} is on autopay, and you want future autopay drafts to come from {your_account(acc)} "
               f"instead of the current account. Make sure your autopay discount is kept, and ask what your monthly "
               f"payment is.", know,
               ["Hi, I want to change which bank account my autopay comes out of.", line,
                f"Switch it to my {acc.bank_name} {acc.account_type} ending {acc.account_last4}. Yes, please. "
                f"I keep my discount, right? What's my monthly payment?"])
    w.authenticate(t, b, loan, mode)
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    t.read("get_loan_details", loan_number=loan.loan_number)
    res = t.write("enroll_autopay", loan_number=loan.loan_number, bank_account_id=acc.account_id)
    t.output(res["monthly_payment"], "money")
    t.one_end_state(f"7.2: switching an enrolled loan changes only the account (the discount stays), and {named_account(b, acc)}.")


NEW_BANKS = [("Fifth Third Bank", "042000314"), ("KeyBank", "041001039"), ("PNC Bank", "043000096"), ("Chase", "044000037")]


def new_account_autopay(w: Builder, i: int) -> None:
    loan = w.pick([x for x in LOANS if open_current(x, autopay=False) and verified(B[x.borrower_id])])
    b = B[loan.borrower_id]
    other = verified(b)[0]
    bank, routing = NEW_BANKS[(i - 1) % len(NEW_BANKS)]
    last4 = f"{w.rng.randrange(10000):04d}"
    mode = w.auth_mode(b, loan)
    know, line = w.know(b, loan, mode)
    t = w.task(f"new_account_autopay_{i}", b,
               f"You just opened a checking account at {bank} (routing number {routing}, account number ending {last4}) "
               f"and want your {label(loan)} put on autopay from it today. You want the new account added to your "
               f"profile either way. If the agent says it cannot be used yet, accept that; you do NOT want autopay from "
               f"{your_account(other)} or any other account, you'll call back later.", know,
               ["Hi, I want to set up autopay from a brand-new checking account.", line,
                f"It's {bank}, routing {routing}, account ending {last4}, checking. Yes, add it.",
                "Oh, okay. No, don't use my other accounts, I'll call back once it's verified."])
    w.authenticate(t, b, loan, mode)
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    t.write("add_bank_account", borrower_id=b.borrower_id, account_type="checking", routing_number=routing,
            account_last4=last4)
    t.forbid("enroll_autopay", loan_number=loan.loan_number, bank_account_id=other.account_id)
    t.one_end_state("3.2: the new account is added as asked, but it is unverified until its micro-deposits are confirmed, "
                    "so autopay cannot use it today (3.1), and the caller refuses every other account.")


def interest_paid(w: Builder, i: int) -> None:
    def ok(x: Loan) -> bool:
        return x.status == "current" and x.first_due_date < "2024-12-01" and x.deferrals_used == 0
    loan = w.pick([x for x in LOANS if ok(x)])
    b = B[loan.borrower_id]
    mode = w.auth_mode(b, loan)
    know, line = w.know(b, loan, mode)
    t = w.task(f"interest_paid_2025_{i}", b,
               f"Your tax preparer wants to know the total interest you paid in calendar year 2025 on your {label(loan)}. "
               f"You want one total figure and nothing else.", know,
               ["Hi, I need the total interest I paid on my loan in 2025 for my taxes.", line, "Just the total, thanks."])
    w.authenticate(t, b, loan, mode)
    pays = t.read("get_payment_history", loan_number=loan.loan_number, year=2025)
    total = t.read("calculate", expression=" + ".join(f"{p['interest']:.2f}" for p in pays if p["interest"] > 0))
    t.output(total, "money")


def catch_up_extra_autopay(w: Builder, i: int) -> None:
    loan = w.pick([x for x in LOANS if one_missed(x) and not x.autopay and x.principal_balance > 4000 and not in_fee_window(x)])
    b = B[loan.borrower_id]
    acc = verified(b)[0]
    extra = float(w.rng.choice([500, 750, 1000]))
    mode = w.auth_mode(b, loan)
    know, line = w.know(b, loan, mode)
    t = w.task(f"catch_up_extra_autopay_{i}", b,
               f"You are one payment behind on your {label(loan)}. You want to put ${extra:,.0f} extra toward principal "
               f"from {your_account(acc)}. If the agent says you must catch up first, agree to this order: pay the "
               f"overdue payment (late fee included) from the same account, then make the ${extra:,.0f} principal "
               f"payment, then enroll in autopay from the same account. You do not ask for the fee to be waived. Ask "
               f"for your principal balance after everything and your new monthly payment.", know,
               [f"Hi, I want to pay an extra ${extra:,.0f} on my loan's principal.", line, f"From {my_account(acc)}.",
                "Oh, I'm behind? Okay, pay the overdue one first, then the extra, and then set up autopay. Yes to all.",
                "What's my principal balance now, and my new monthly payment?"],
               ordered=True)
    w.authenticate(t, b, loan, mode)
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    t.read("get_loan_details", loan_number=loan.loan_number)
    t.write("make_scheduled_payment", loan_number=loan.loan_number, bank_account_id=acc.account_id)
    t.write("make_extra_payment", loan_number=loan.loan_number, amount=extra, bank_account_id=acc.account_id)
    res = t.write("enroll_autopay", loan_number=loan.loan_number, bank_account_id=acc.account_id)
    t.output(res["principal_balance"], "money")
    t.output(res["monthly_payment"], "money")
    t.one_end_state("4.2: extra payments are taken only on a current loan, so the overdue installment is paid first; the "
                    f"caller then fixes the order of the extra payment and autopay, and {named_account(b, acc)}.")


def two_loans(w: Builder, i: int) -> None:
    def fits(b: Borrower) -> list[Loan]:
        return [x for x in open_loans(b) if open_current(x, autopay=False) and not in_fee_window(x) and unique_label(x)]
    b = w.pick([x for x in B.values() if len(fits(x)) >= 2 and verified(x)])
    l1, l2 = fits(b)[:2]
    acc = verified(b)[0]
    extra = float(w.rng.choice([400, 600, 800]))
    know, line = w.know(b, None, "id")
    # The installment due within 30 days may be paid now (policy 4.1); it, autopay and the extra payment each
    # change the next one's figures, so the order the caller fixes shows in the end state.
    assert l2.next_due_date and d(l2.next_due_date) <= TODAY + dt.timedelta(days=30), f"two_loans_autopay_extra_{i}: no installment due soon"
    t = w.task(f"two_loans_autopay_extra_{i}", b,
               f"You have two open loans with Keystone Ridge: the {label(l1)} and the {label(l2)}. On the {label(l2)} "
               f"(not the other one), from {your_account(acc)}, you want three things in this order: pay the installment "
               f"coming due now, then enroll the loan in autopay, then pay ${extra:,.0f} extra toward principal. Leave the "
               f"{label(l1)} as it is. Ask for the new monthly payment and for the principal balance after the extra payment.",
               know,
               ["Hi, I want to make a couple of payments on one of my loans and set up autopay on it.", line,
                f"The {label(l2)}, from {my_account(acc)}. Not the other loan.",
                f"First this month's payment, then autopay, then an extra ${extra:,.0f} toward principal. Yes, please do all three.",
                "What's the new monthly payment, and the principal balance after the extra payment?"],
               ordered=True)
    w.authenticate(t, b, None, "id")
    t.read("get_borrower_profile", borrower_id=b.borrower_id)
    t.read("get_loan_details", loan_number=l1.loan_number)
    t.read("get_loan_details", loan_number=l2.loan_number)
    t.read("quote_scheduled_payment", loan_number=l2.loan_number)
    t.write("make_scheduled_payment", loan_number=l2.loan_number, bank_account_id=acc.account_id)
    enrolled = t.write("enroll_autopay", loan_number=l2.loan_number, bank_account_id=acc.account_id)
    paid = t.write("make_extra_payment", loan_number=l2.loan_number, amount=extra, bank_account_id=acc.account_id)
    t.output(enrolled["monthly_payment"], "money")
    t.output(paid["loan"]["principal_balance"], "money")
    t.one_end_state(f"The caller names the loan and fixes the order of the three changes, and {named_account(b, acc)}.")


# -- transfers ---------------------------------------------------------------------------------------
def transfer(w: Builder, i: int, kind: str) -> None:
    loan = w.pick([x for x in LOANS if x.status == "current" and x.principal_balance > 5000 and verified(B[x.borrower_id])])
    b = B[loan.borrower_id]
    acc = verified(b)[0]
    mode = w.auth_mode(b, loan, "loan")
    know, line = w.know(b, loan, mode)
    if kind == "settle":
        offer = round(loan.principal_balance * 0.6 / 100) * 100
        text = (f"You want to settle your {label(loan)} for a lump sum of ${offer:,.0f}, well below what you owe, "
                f"because that is all you can raise. First ask what it would take to pay it off today. Insist once that "
                f"you can only pay ${offer:,.0f}. You do not want to pay anything today. If offered a transfer to a "
                f"specialist, accept.")
        script = ["Hi, I want to talk about settling my loan for less than the balance.", line,
                  "What would it take to pay it off today?", f"I can only pay ${offer:,.0f}. That's all I can raise.",
                  "Okay, please transfer me."]
    elif kind == "bankruptcy":
        text = (f"You filed for Chapter 13 bankruptcy last week and your attorney told you to notify your lenders about "
                f"your {label(loan)}. Your attorney also needs the current principal balance, so ask for it. You do not "
                f"want to make any payment today. Accept a transfer.")
        script = ["Hi, I need to let you know I filed for bankruptcy.", line,
                  "My attorney needs the current principal balance. What is it?", "Okay, please transfer me."]
    else:
        text = (f"You think the APR on your {label(loan)} is too high and want it lowered permanently, or the term "
                f"stretched so the payment drops. You are not interested in a deferral or in autopay; you want a rate "
                f"or term modification. First ask on what date the loan is currently scheduled to be paid off (its "
                f"maturity date). Accept a transfer to someone who can review it.")
        script = ["Hi, I want to get the interest rate on my loan lowered.", line,
                  "When is my loan scheduled to be paid off right now?", "Okay, please transfer me."]
    t = w.task(f"transfer_{kind}_{i}", b, text, know, script)
    w.authenticate(t, b, loan, mode)
    info = t.read("get_loan_details", loan_number=loan.loan_number)
    if kind == "settle":
        q = t.read("get_payoff_quote", loan_number=loan.loan_number, payoff_date=TODAY.isoformat())
        t.output(q["total_payoff"], "money")
        t.transfer(f"Borrower asks to settle loan {loan.loan_number} for ${offer:,.0f}, below the payoff amount.")
        t.forbid("pay_off_loan", loan_number=loan.loan_number, bank_account_id=acc.account_id)
    elif kind == "bankruptcy":
        t.output(info["principal_balance"], "money")
        t.transfer(f"Borrower reports a Chapter 13 bankruptcy filing; loan {loan.loan_number}.")
        t.forbid("make_scheduled_payment", loan_number=loan.loan_number, bank_account_id=acc.account_id)
    else:
        t.output(info["maturity_date"], "date")
        t.transfer(f"Borrower requests a rate or term modification on loan {loan.loan_number}.")
        t.forbid("enroll_autopay", loan_number=loan.loan_number, bank_account_id=acc.account_id)
    why = {"settle": "a request to settle for less than owed", "bankruptcy": "a reported bankruptcy filing",
           "modification": "a request for a rate or term modification"}[kind]
    t.one_end_state(f"10.2: {why} is transferred to a human agent, after the one figure the caller asks for; nothing "
                    "else is changed (10.1).")


def build() -> TaskWriter:
    w = Builder()
    for i in (1, 2, 3):
        autopay_enroll(w, i)
    autopay_enroll(w, 4, split="train")
    for i in (1, 2):
        extra_principal(w, i)
    extra_principal(w, 3, split="train")
    for i in (1, 2):
        extra_principal_fee(w, i)
    for i in (1, 2, 3):
        payoff_quote(w, i)
    payoff_quote(w, 4, split="train")
    for i in (1, 2):
        payoff_today(w, i)
    for i in (1, 2, 3):
        deferral_hardship(w, i)
    deferral_hardship(w, 4, split="train")
    for i in (1, 2):
        deferral_refused(w, i, "early")
    deferral_refused(w, 1, "max")
    for i in (1, 2):
        deferral_refused(w, i, "vacation")
    deferral_past_due(w, 1)
    for i in (1, 2, 3):
        waive_catch_up_autopay(w, i)
    for i in (1, 2):
        waiver_refused(w, i)
    for i in (1, 2, 3):
        apply_book_autopay(w, i)
    apply_book_autopay(w, 4, split="train")
    for i in (1, 2):
        apply_declined(w, i)
    apply_annual_income(w, 1)
    for i in (1, 2):
        apply_over_band(w, i)
    for i in (1, 2):
        auto_application(w, i)
    for i in (1, 2):
        withdraw_reapply(w, i)
    book_offer(w, 1)
    book_offer(w, 2, split="train")
    cancel_autopay(w, 1)
    switch_autopay(w, 1)
    for i in (1, 2):
        new_account_autopay(w, i)
    for i in (1, 2):
        interest_paid(w, i)
    for i in (1, 2):
        catch_up_extra_autopay(w, i)
    for i in (1, 2):
        two_loans(w, i)
    for kind in ("settle", "bankruptcy", "modification"):
        transfer(w, 1, kind)
    return w.writer


if __name__ == "__main__":
    build().save()
