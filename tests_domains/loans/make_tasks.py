"""Build fixtures/loans/tasks.json from the generated DB: `python -m tests_domains.loans.make_tasks`.

Seeded and deterministic. Each template picks concrete borrowers and loans from the DB (each borrower
is used by one task at most), replays its gold actions to read the figures the user must be told,
and writes second-person instructions in varied wording.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections import defaultdict
from pathlib import Path

from pytest_tau._environment import Environment
from tests_domains.loans.domain import DOMAIN
from tests_domains.loans.rules import TODAY, add_months, band_for, d, months_between

OUT = Path(__file__).parents[2] / "fixtures" / "loans" / "tasks.json"
rng = random.Random(4242)
db = DOMAIN.initial_db
used: set[str] = set()
TASKS: list[dict] = []

FEES = defaultdict(list)
for _f in db.fees.values():
    FEES[_f.loan_number].append(_f)

MOODS = [
    "You are polite but a little rushed; you are calling on your lunch break.",
    "You are anxious about money and want figures repeated back clearly.",
    "You are friendly and chatty, but you stay on topic once the agent asks questions.",
    "You are matter-of-fact and give short answers.",
    "You are a bit skeptical and double-check every number the agent gives you.",
    "You are calm and patient.",
]
MONTHS = "January February March April May June July August September October November December".split()


def spoken_date(iso: str) -> str:
    day = d(iso)
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def money(x: float) -> str:
    return f"{x:,.2f}"


def mood() -> str:
    return rng.choice(MOODS)


def run(actions: list[dict]) -> list:
    env = Environment(DOMAIN)
    out = []
    for a in actions:
        call = env.call(a["name"], dict(a["arguments"]))
        if call.error:
            raise SystemExit(f"gold action failed: {a} -> {call.result}")
        out.append(json.loads(call.result) if call.result[:1] in "{[" else call.result)
    return out


def pick(candidates: list, key=lambda x: x.borrower_id):
    pool = [c for c in candidates if key(c) not in used]
    if not pool:
        raise SystemExit("no candidate left")
    choice = rng.choice(pool)
    used.add(key(choice))
    return choice


def auth(b, loan_number: str | None, mode: str | None = None) -> tuple[dict, str, str]:
    """The authentication action, what the user knows, and the line they say when asked."""
    mode = mode or rng.choice(["loan", "id"])
    if mode == "loan" and loan_number:
        act = {"name": "find_borrower_by_loan_number", "arguments": {"loan_number": loan_number, "ssn_last4": b.ssn_last4}}
        know = (f"Your loan number is {loan_number} and the last four digits of your Social Security number are "
                f"{b.ssn_last4}.")
        line = f"My loan number is {loan_number}, and the last four of my social are {b.ssn_last4}."
    else:
        act = {"name": "find_borrower_by_identity", "arguments": {
            "first_name": b.first_name, "last_name": b.last_name, "date_of_birth": b.date_of_birth, "zip": b.zip}}
        know = (f"You do not have your loan number handy; you can give your name, your date of birth "
                f"({spoken_date(b.date_of_birth)}) and your zip code ({b.zip}).")
        line = f"{b.first_name} {b.last_name}, born {spoken_date(b.date_of_birth)}, zip {b.zip}."
    return act, know, line


def acct_desc(acc) -> str:
    return f"your {acc.bank_name} {acc.account_type} account ending in {acc.account_last4}"


def verified(b):
    return [a for a in b.bank_accounts if a.verified]


def add(tid: str, instructions: str, script: list[str], gold: list[dict], outputs=(), required=(), forbidden=(),
        split: str = "test") -> None:
    TASKS.append({"id": tid, "split": split, "user": {"instructions": instructions, "script": script},
                  "gold_actions": gold, "required_outputs": list(outputs), "required_actions": list(required),
                  "forbidden_actions": list(forbidden)})


def L(n):
    return {"name": "get_loan_details", "arguments": {"loan_number": n}}


def P(bid):
    return {"name": "get_borrower_profile", "arguments": {"borrower_id": bid}}


loans = list(db.loans.values())
B = db.borrowers


def open_current(loan, autopay=None, products=None):
    ok = loan.status == "current"
    if autopay is not None:
        ok = ok and loan.autopay == autopay
    if products:
        ok = ok and loan.product_id in products
    return ok and months_between(d(loan.next_due_date), d(loan.maturity_date)) >= 6 and loan.principal_balance > 3000


def in_fee_window(loan) -> bool:
    p = db.products[loan.product_id]
    return bool(p.prepayment_fee_pct) and TODAY < add_months(d(loan.origination_date), p.prepayment_fee_window_months)


def product_name(loan) -> str:
    p = db.products[loan.product_id]
    if loan.vehicle:
        return f"auto loan on your {loan.vehicle.year} {loan.vehicle.make} {loan.vehicle.model}"
    return f"{p.name.lower()}"


def a_(text: str) -> str:
    return ("an " if text[0].lower() in "aeiou" else "a ") + text


PURPOSE_WORDS = {"debt_consolidation": "consolidating credit cards", "home_improvement": "a home project",
                 "medical": "medical bills", "major_purchase": "a big purchase", "vehicle_repair": "car repairs",
                 "moving": "a move", "wedding": "a wedding", "education": "school costs", "vacation": "a trip",
                 "other": "personal expenses"}


# ---------------------------------------------------------------------------------------------
def t_autopay(i: int, split="test"):
    loan = pick([x for x in loans if open_current(x, autopay=False) and verified(B[x.borrower_id])])
    b = B[loan.borrower_id]
    acc = verified(b)[0]
    a, know, line = auth(b, loan.loan_number)
    gold = [a, P(b.borrower_id), L(loan.loan_number),
            {"name": "enroll_autopay", "arguments": {"loan_number": loan.loan_number, "bank_account_id": acc.account_id}}]
    res = run(gold)[-1]
    add(f"autopay_enroll_{i}",
        f"You are {b.first_name} {b.last_name}. You have {a_(product_name(loan))} with Keystone Ridge Lending and heard "
        f"that autopay lowers your rate. You want to enroll it in autopay from {acct_desc(acc)}. {know} "
        f"You want to know your new monthly payment after enrolling. Reveal information only when asked. {mood()}",
        [f"Hi, I'd like to set up autopay on my loan, I heard it gets me a discount.", line,
         f"Use my {acc.bank_name} account ending {acc.account_last4}. Yes, go ahead.", "What's my new monthly payment?"],
        gold, outputs=[money(res["monthly_payment"])], split=split)


def t_extra_nofee(i: int, split="test"):
    loan = pick([x for x in loans if open_current(x, products={"PERS-STD", "AUTO-NEW", "AUTO-USED"})
                 and verified(B[x.borrower_id])])
    b = B[loan.borrower_id]
    acc = rng.choice(verified(b))
    amount = float(rng.choice([300, 450, 500, 750, 1000, 1200, 1500]))
    a, know, line = auth(b, loan.loan_number)
    gold = [a, P(b.borrower_id), L(loan.loan_number),
            {"name": "make_extra_payment", "arguments": {"loan_number": loan.loan_number, "amount": amount,
                                                           "bank_account_id": acc.account_id}}]
    res = run(gold)[-1]
    add(f"extra_principal_{i}",
        f"You are {b.first_name} {b.last_name}. You got a bonus at work and want to put ${amount:,.0f} extra toward "
        f"the principal of your {product_name(loan)}, paid from {acct_desc(acc)}. {know} You want to know the "
        f"principal balance after the payment. You do not want to change your regular monthly payment. "
        f"Reveal information only when asked. {mood()}",
        [f"Hello, I want to make an extra ${amount:,.0f} payment on my loan, all to principal.", line,
         f"From my {acc.bank_name} account ending {acc.account_last4}.", "Yes, please do it.",
         "What's my balance now?"],
        gold, outputs=[money(res["loan"]["principal_balance"])], split=split)


def t_extra_fee(i: int, split="test"):
    loan = pick([x for x in loans if open_current(x) and in_fee_window(x) and verified(B[x.borrower_id])])
    b = B[loan.borrower_id]
    acc = verified(b)[0]
    p = db.products[loan.product_id]
    amount = float(rng.choice([1000, 1500, 2000, 2500, 3000]))
    a, know, line = auth(b, loan.loan_number)
    gold = [a, P(b.borrower_id), L(loan.loan_number),
            {"name": "get_product_terms", "arguments": {"product_id": loan.product_id}},
            {"name": "calculate", "arguments": {"expression": f"{amount:g} * {p.prepayment_fee_pct:g} / 100"}},
            {"name": "calculate", "arguments": {"expression": f"{amount:g} + {amount:g} * {p.prepayment_fee_pct:g} / 100"}},
            {"name": "make_extra_payment", "arguments": {"loan_number": loan.loan_number, "amount": amount,
                                                           "bank_account_id": acc.account_id}}]
    res = run(gold)
    fee, total = res[4], res[5]
    add(f"extra_principal_fee_{i}",
        f"You are {b.first_name} {b.last_name}. You took out {a_(p.name)} on {spoken_date(loan.origination_date)} and "
        f"want to pay ${amount:,.0f} extra toward principal from {acct_desc(acc)}. {know} Before agreeing, ask whether "
        f"there is any fee and what the total charge to your account will be. When told about the fee, grumble a "
        f"little but accept and confirm the payment. Reveal information only when asked. {mood()}",
        [f"Hi, I want to pay down ${amount:,.0f} of principal on my {p.name.lower()}.", line,
         f"The {acc.bank_name} account ending {acc.account_last4}. Is there any fee for this?",
         "Ugh, fine. Yes, go ahead with it."],
        gold, outputs=[fee, total], split=split)


def t_payoff_quote(i: int, split="test"):
    loan = pick([x for x in loans if open_current(x)])
    b = B[loan.borrower_id]
    day = (TODAY + dt.timedelta(days=rng.choice([5, 7, 10, 13, 14, 20, 21]))).isoformat()
    a, know, line = auth(b, loan.loan_number)
    gold = [a, L(loan.loan_number), {"name": "get_payoff_quote", "arguments": {"loan_number": loan.loan_number,
                                                                               "payoff_date": day}}]
    q = run(gold)[-1]
    why = rng.choice(["you are selling the vehicle" if loan.vehicle else "you are refinancing with your credit union",
                      "a relative offered to lend you the money", "you want to compare it with your savings"])
    add(f"payoff_quote_{i}",
        f"You are {b.first_name} {b.last_name}. You want to know how much it would take to pay off your "
        f"{product_name(loan)} if the funds arrive on {spoken_date(day)}, because {why}. {know} You only want the "
        f"quote today; you do not want to pay anything now. Reveal information only when asked. {mood()}",
        ["Hi, can I get a payoff quote on my loan?", line, f"For {spoken_date(day)}, please.",
         "Thanks, that's all I needed."],
        gold, outputs=[money(q["total_payoff"])], split=split)


def t_payoff_today(i: int, split="test"):
    loan = pick([x for x in loans if x.status == "current" and 800 < x.principal_balance < 6000
                 and verified(B[x.borrower_id]) and not in_fee_window(x)])
    b = B[loan.borrower_id]
    acc = rng.choice(verified(b))
    a, know, line = auth(b, loan.loan_number)
    gold = [a, P(b.borrower_id), L(loan.loan_number),
            {"name": "get_payoff_quote", "arguments": {"loan_number": loan.loan_number, "payoff_date": TODAY.isoformat()}},
            {"name": "pay_off_loan", "arguments": {"loan_number": loan.loan_number, "bank_account_id": acc.account_id}}]
    q = run(gold)[3]
    add(f"payoff_today_{i}",
        f"You are {b.first_name} {b.last_name}. You want to pay off your {product_name(loan)} in full today from "
        f"{acct_desc(acc)}. {know} Ask for the exact payoff amount first, then confirm. Reveal information only when "
        f"asked. {mood()}",
        ["Hi, I'm ready to pay my loan off completely today.", line, "How much is it exactly?",
         f"Okay, take it from my {acc.bank_name} account ending {acc.account_last4}. Yes, I confirm."],
        gold, outputs=[money(q["total_payoff"])], split=split)


def deferral_ok(x) -> bool:
    return (x.status == "current" and x.payments_made >= 6 and x.deferrals_used < 2 and x.principal_balance > 2000
            and months_between(d(x.next_due_date), d(x.maturity_date)) >= 4)


HARD = [("you were laid off from your warehouse job two weeks ago", "job_loss"),
        ("you are on unpaid medical leave after surgery", "medical"),
        ("your hours at the restaurant were cut in half", "reduced_income"),
        ("a storm damaged your roof and you had to pay the deductible", "disaster"),
        ("your father passed away and you paid for the funeral", "death_in_family")]


def t_deferral(i: int, split="test"):
    loan = pick([x for x in loans if deferral_ok(x)])
    b = B[loan.borrower_id]
    hard, category = HARD[(i - 1) % len(HARD)]
    a, know, line = auth(b, loan.loan_number)
    reason = hard.replace("you were", "I was").replace("you are", "I am").replace("your", "my").replace("you ", "I ")
    gold = [a, L(loan.loan_number), {"name": "request_deferral", "arguments": {"loan_number": loan.loan_number,
                                                                                "hardship": category}}]
    res = run(gold)[-1]
    add(f"deferral_hardship_{i}",
        f"You are {b.first_name} {b.last_name}. You cannot make your next payment on your {product_name(loan)} "
        f"because {hard}. You want to skip (defer) this month's payment. {know} When asked why, explain that "
        f"{hard}. Ask how much extra interest the deferral adds. Reveal information only when asked. {mood()}",
        ["Hi, I need to skip this month's loan payment, I'm going through a rough patch.", line, reason,
         "Yes, please set that up. How much interest does that add?"],
        gold, outputs=[money(res["deferral"]["interest_added"])], split=split)


def t_deferral_refused(i: int, kind: str, split="test"):
    if kind == "early":
        loan = pick([x for x in loans if x.status == "current" and x.payments_made < 6 and x.payments_made >= 1])
    elif kind == "max":
        loan = pick([x for x in loans if x.status == "current" and x.deferrals_used >= 2])
    else:  # vacation
        loan = pick([x for x in loans if deferral_ok(x)])
    b = B[loan.borrower_id]
    a, know, line = auth(b, loan.loan_number)
    if kind == "vacation":
        why = rng.choice(["you are taking the family to Orlando next month and want the cash for the trip",
                          "you want to put the money toward a cruise you just booked"])
        gold = [a, L(loan.loan_number)]
        follow = "your current principal balance"
        spoken = "my current principal balance"
        out = [money(loan.principal_balance)]
        excuse = "You have no hardship; it is purely for the trip, and you say so honestly if asked."
    elif kind == "early":
        why = "money is tight after a car repair and a medical bill"
        day = (TODAY + dt.timedelta(days=14)).isoformat()
        gold = [a, L(loan.loan_number), {"name": "get_payoff_quote", "arguments": {"loan_number": loan.loan_number,
                                                                                   "payoff_date": day}}]
        q = run(gold)[-1]
        follow = f"the payoff amount if you paid it all off on {spoken_date(day)} (your sister might lend you the money)"
        spoken = f"the payoff amount if I paid it all off on {spoken_date(day)}"
        out = [money(q["total_payoff"])]
        excuse = "If told you are not eligible, accept it."
    else:
        why = "your hours were cut again at the plant"
        gold = [a, L(loan.loan_number), {"name": "list_deferrals", "arguments": {"loan_number": loan.loan_number}}]
        follow = "your regular monthly payment amount"
        spoken = "my regular monthly payment amount"
        out = [money(loan.monthly_payment)]
        excuse = "You remember having deferred before but not how many times. If told you are not eligible, accept it."
    run(gold)
    add(f"deferral_refused_{kind}_{i}",
        f"You are {b.first_name} {b.last_name}. You want to defer (skip) your next payment on your "
        f"{product_name(loan)} because {why}. {know} {excuse} Then ask for {follow}. Do not ask for a human. "
        f"Reveal information only when asked. {mood()}",
        ["Hi, can I skip next month's payment on my loan?", line, f"It's because {why.replace('you ', 'I ').replace('your', 'my')}.",
         f"Okay. Then can you tell me {spoken}?"],
        gold, outputs=out, forbidden=[{"name": "request_deferral"}], split=split)


def one_missed(x) -> bool:
    return x.status == "past_due" and abs(x.past_due_amount - x.monthly_payment) < 0.01 and x.late_fees_due > 0 \
        and len([f for f in FEES[x.loan_number] if f.status == "due"]) == 1 and verified(B[x.borrower_id])


def waiver_eligible(x) -> bool:
    due = [f for f in FEES[x.loan_number] if f.status == "due"][0]
    fd = d(due.assessed_date)
    for f in FEES[x.loan_number]:
        if f is due or f.kind != "late":
            continue
        if f.status == "waived" or fd - dt.timedelta(days=365) <= d(f.assessed_date) < fd:
            return False
    return True


def t_waive_catchup_autopay(i: int, split="test"):
    loan = pick([x for x in loans if one_missed(x) and waiver_eligible(x) and not x.autopay])
    b = B[loan.borrower_id]
    acc = verified(b)[0]
    fee = [f for f in FEES[loan.loan_number] if f.status == "due"][0]
    a, know, line = auth(b, loan.loan_number)
    gold = [a, P(b.borrower_id), L(loan.loan_number), {"name": "list_loan_fees", "arguments": {"loan_number": loan.loan_number}},
            {"name": "waive_late_fee", "arguments": {"fee_id": fee.fee_id}},
            {"name": "make_scheduled_payment", "arguments": {"loan_number": loan.loan_number, "bank_account_id": acc.account_id}},
            {"name": "enroll_autopay", "arguments": {"loan_number": loan.loan_number, "bank_account_id": acc.account_id}}]
    res = run(gold)
    add(f"waive_catch_up_autopay_{i}",
        f"You are {b.first_name} {b.last_name}. You missed your last payment on your {product_name(loan)} because you "
        f"forgot, and you were charged a late fee. {know} You want, in this order: (1) the late fee waived as a "
        f"courtesy (you have never been late before, you believe), (2) to pay the missed payment now from "
        f"{acct_desc(acc)}, and (3) to sign up for autopay from that same account so it never happens again. "
        f"Ask how much was actually charged for the missed payment and what your new monthly payment is with "
        f"autopay. If the agent asks for a reason for the waiver, say it was your first late payment. "
        f"Reveal information only when asked. {mood()}",
        ["Hi, I missed a payment and got hit with a late fee. Can you help me fix this?", line,
         "It's the first time I've ever been late. Could you waive the fee?",
         f"Yes. And please take the missed payment from my {acc.bank_name} account ending {acc.account_last4}.",
         "Also sign me up for autopay from the same account. Yes, I confirm all of that."],
        gold, outputs=[money(res[5]["payment"]["amount"]), money(res[6]["monthly_payment"])], split=split)


def t_waiver_refused(i: int, split="test"):
    loan = pick([x for x in loans if one_missed(x) and not waiver_eligible(x)])
    b = B[loan.borrower_id]
    acc = verified(b)[0]
    fee = [f for f in FEES[loan.loan_number] if f.status == "due"][0]
    a, know, line = auth(b, loan.loan_number)
    gold = [a, P(b.borrower_id), L(loan.loan_number), {"name": "list_loan_fees", "arguments": {"loan_number": loan.loan_number}},
            {"name": "make_scheduled_payment", "arguments": {"loan_number": loan.loan_number, "bank_account_id": acc.account_id}}]
    res = run(gold)
    add(f"waiver_refused_pay_{i}",
        f"You are {b.first_name} {b.last_name}. You are behind one payment on your {product_name(loan)} and there is "
        f"a late fee. {know} First ask the agent to waive the late fee. If the agent refuses, be disappointed but "
        f"accept it, and pay the missed payment (including the fee) from {acct_desc(acc)}. Ask for the total "
        f"amount charged. Do not ask for a human. Reveal information only when asked. {mood()}",
        ["Hi, I'm a payment behind. Can you take off the late fee?", line,
         "That's disappointing. Fine, let me pay what I owe then.",
         f"Use my {acc.bank_name} account ending {acc.account_last4}. Yes, go ahead. What was the total?"],
        gold, outputs=[money(res[-1]["payment"]["amount"])],
        forbidden=[{"name": "waive_late_fee", "arguments": {"fee_id": fee.fee_id}}], split=split)


def t_deferral_past_due(i: int, split="test"):
    loan = pick([x for x in loans if one_missed(x) and x.payments_made >= 6 and x.deferrals_used < 2])
    b = B[loan.borrower_id]
    acc = verified(b)[0]
    a, know, line = auth(b, loan.loan_number)
    gold = [a, P(b.borrower_id), L(loan.loan_number),
            {"name": "make_scheduled_payment", "arguments": {"loan_number": loan.loan_number, "bank_account_id": acc.account_id}}]
    res = run(gold)
    add(f"deferral_past_due_{i}",
        f"You are {b.first_name} {b.last_name}. You are behind on your {product_name(loan)} and want to defer the "
        f"overdue payment because your hours were cut last month. {know} If the agent says a deferral is not "
        f"possible, ask what you can do instead; you do have enough in {acct_desc(acc)} to pay the overdue "
        f"payment now, so agree to pay it (late fee included). Ask for the total charged. You do not want autopay. "
        f"Reveal information only when asked. {mood()}",
        ["Hi, I'm behind on my loan and I'd like to defer the payment.", line, "My hours got cut last month.",
         f"Okay, I can pay it from my {acc.bank_name} account ending {acc.account_last4}. Yes, go ahead."],
        gold, outputs=[money(res[-1]["payment"]["amount"])], forbidden=[{"name": "request_deferral"}], split=split)


def can_apply(b) -> bool:
    if any(db.loans[n].status == "past_due" for n in b.loan_numbers):
        return False
    if any(db.applications[a].status == "approved" for a in b.application_ids):
        return False
    return band_for(b.credit_score) in ("A", "B", "C") and bool(verified(b))


PURPOSES = [("replacing the furnace", "home_improvement"), ("a kitchen remodel", "home_improvement"),
            ("paying a dental surgery bill", "medical"), ("moving across the state", "moving"),
            ("a used boat", "major_purchase"), ("your daughter's wedding", "wedding"),
            ("your son's community college tuition", "education")]


def t_apply_book_autopay(i: int, split="test"):
    b = pick([x for x in B.values() if can_apply(x)], key=lambda x: x.borrower_id)
    tier = db.rate_tiers[f"PERS-STD-{band_for(b.credit_score)}"]
    amount = float(rng.randrange(3, int(min(tier.max_amount, 20000) // 1000) + 1) * 1000)
    term = rng.choice([24, 36, 48, 60])
    income = float(rng.randrange(4000, 9000, 250))
    debts = float(round(income * rng.uniform(0.12, 0.33) / 10) * 10)
    purpose, category = PURPOSES[(i - 1) % len(PURPOSES)]
    acc = verified(b)[0]
    a, know, line = auth(b, b.loan_numbers[0])
    n = len(db.loans) + 1
    number = f"PL{90000000 + n}"
    app_id = f"APP{len(db.applications) + 1:06d}"
    gold = [a, P(b.borrower_id), {"name": "get_product_terms", "arguments": {"product_id": "PERS-STD"}},
            {"name": "submit_application", "arguments": {
                "borrower_id": b.borrower_id, "product_id": "PERS-STD", "requested_amount": amount, "term_months": term,
                "stated_monthly_income": income, "stated_monthly_debts": debts, "purpose": category}},
            {"name": "book_approved_application", "arguments": {"application_id": app_id, "disbursement_account_id": acc.account_id}},
            {"name": "enroll_autopay", "arguments": {"loan_number": number, "bank_account_id": acc.account_id}}]
    res = run(gold)
    add(f"apply_book_autopay_{i}",
        f"You are {b.first_name} {b.last_name}, an existing Keystone Ridge borrower. You want a Personal Installment "
        f"Loan of ${amount:,.0f} over {term} months for {purpose}. {know} Your gross monthly income is ${income:,.0f} "
        f"and your monthly debt payments total ${debts:,.0f}. If approved, accept the offer and have the money "
        f"deposited into {acct_desc(acc)}, then enroll the new loan in autopay from the same account. You want to "
        f"know your new loan number and the monthly payment with autopay. Reveal information only when asked. {mood()}",
        [f"Hi, I'd like to apply for a personal loan of ${amount:,.0f}.", line,
         f"{term} months, it's for {purpose.replace('your', 'my')}. I make ${income:,.0f} a month before taxes and pay ${debts:,.0f} a month in debts.",
         f"Great, yes, accept it and deposit it into my {acc.bank_name} account ending {acc.account_last4}.",
         "And put it on autopay from the same account, yes."],
        gold, outputs=[number, money(res[-1]["monthly_payment"])], split=split)


def t_apply_annual(i: int, split="test"):
    b = pick([x for x in B.values() if can_apply(x)], key=lambda x: x.borrower_id)
    tier = db.rate_tiers[f"PERS-STD-{band_for(b.credit_score)}"]
    amount = float(min(tier.max_amount, 12000) - 2000)
    annual = float(rng.choice([54000, 60000, 66000, 72000, 78000, 84000]))
    debts = float(rng.choice([650, 900, 1100, 1250]))
    term = 36
    acc = verified(b)[0]
    a, know, line = auth(b, b.loan_numbers[0], "id")
    app_id = f"APP{len(db.applications) + 1:06d}"
    gold = [a, P(b.borrower_id), {"name": "get_product_terms", "arguments": {"product_id": "PERS-STD"}},
            {"name": "submit_application", "arguments": {
                "borrower_id": b.borrower_id, "product_id": "PERS-STD", "requested_amount": amount, "term_months": term,
                "stated_monthly_income": annual / 12, "stated_monthly_debts": debts, "purpose": "home_improvement"}},
            {"name": "book_approved_application", "arguments": {"application_id": app_id, "disbursement_account_id": acc.account_id}}]
    res = run(gold)
    add(f"apply_annual_income_{i}",
        f"You are {b.first_name} {b.last_name}. You want a ${amount:,.0f} Personal Installment Loan over 36 months for "
        f"repairs to your house (a new roof and gutters). {know} You only know your salary "
        f"as a yearly figure: ${annual:,.0f} a year before taxes; if the agent asks for monthly income, tell them the "
        f"yearly figure and let them work it out. Your monthly debt payments are ${debts:,.0f}. If approved, accept "
        f"and have the funds deposited into {acct_desc(acc)}. Ask for the APR and the monthly payment. "
        f"Reveal information only when asked. {mood()}",
        [f"Hello, I want to apply for a ${amount:,.0f} personal loan for home repairs.", line,
         f"I make ${annual:,.0f} a year. My debts are ${debts:,.0f} a month. 36 months.",
         f"Yes, accept it, deposit to {acc.bank_name} ending {acc.account_last4}."],
        gold, outputs=[money(res[-1]["monthly_payment"]), f"{res[-1]['apr']}"], split=split)


def t_apply_declined(i: int, split="test"):
    b = pick([x for x in B.values() if can_apply(x)], key=lambda x: x.borrower_id)
    amount = float(rng.choice([4000, 5000, 6000, 7500]))
    income = float(rng.choice([3800, 4100, 4450, 5200]))
    debts = float(round(income * rng.uniform(0.42, 0.55) / 10) * 10)
    a, know, line = auth(b, b.loan_numbers[0])
    gold = [a, P(b.borrower_id), {"name": "get_product_terms", "arguments": {"product_id": "PERS-STD"}},
            {"name": "submit_application", "arguments": {
                "borrower_id": b.borrower_id, "product_id": "PERS-STD", "requested_amount": amount, "term_months": 48,
                "stated_monthly_income": income, "stated_monthly_debts": debts, "purpose": "medical"}}]
    res = run(gold)[-1]
    assert res["status"] == "declined", res
    add(f"apply_declined_dti_{i}",
        f"You are {b.first_name} {b.last_name}. You want a ${amount:,.0f} Personal Installment Loan over 48 months to "
        f"pay off a hospital bill from your appendectomy. {know} Your gross monthly income is ${income:,.0f}; "
        f"your monthly debt payments (rent, car, cards) are ${debts:,.0f}. Go ahead with the application when asked "
        f"to confirm. If declined, ask exactly why and what your debt-to-income ratio came out to. "
        f"Reveal information only when asked. {mood()}",
        [f"Hi, I'd like to apply for a ${amount:,.0f} personal loan.", line,
         f"48 months, for my hospital bill. I earn ${income:,.0f} a month, debts are ${debts:,.0f} a month.",
         "Yes, submit it. ... Why was it declined? What was my ratio?"],
        gold, outputs=[f"{res['dti_pct']}"], split=split)


def t_apply_over_band(i: int, split="test"):
    b = pick([x for x in B.values() if can_apply(x) and band_for(x.credit_score) in ("B", "C")], key=lambda x: x.borrower_id)
    tier = db.rate_tiers[f"PERS-STD-{band_for(b.credit_score)}"]
    ask = tier.max_amount + rng.choice([5000, 10000])
    income = float(rng.randrange(6000, 10000, 500))
    debts = float(rng.choice([800, 1200, 1500]))
    acc = verified(b)[0]
    a, know, line = auth(b, b.loan_numbers[0])
    app_id = f"APP{len(db.applications) + 1:06d}"
    number = f"PL{90000000 + len(db.loans) + 1}"
    gold = [a, P(b.borrower_id), {"name": "get_product_terms", "arguments": {"product_id": "PERS-STD"}},
            {"name": "submit_application", "arguments": {
                "borrower_id": b.borrower_id, "product_id": "PERS-STD", "requested_amount": tier.max_amount,
                "term_months": 60, "stated_monthly_income": income, "stated_monthly_debts": debts, "purpose": "home_improvement"}},
            {"name": "book_approved_application", "arguments": {"application_id": app_id, "disbursement_account_id": acc.account_id}},
            {"name": "enroll_autopay", "arguments": {"loan_number": number, "bank_account_id": acc.account_id}}]
    res = run(gold)
    add(f"apply_over_band_max_{i}",
        f"You are {b.first_name} {b.last_name}. You want to borrow ${ask:,.0f} with a Personal Installment Loan over "
        f"60 months to install an in-ground pool at your home. {know} Gross monthly income ${income:,.0f}, monthly "
        f"debts ${debts:,.0f}. If the agent says you can't get that much, ask what the most you can get is and apply "
        f"for exactly that maximum instead. If approved, accept it into {acct_desc(acc)} and enroll the new loan in "
        f"autopay from the same account. Ask for the monthly payment with autopay. Reveal information only when "
        f"asked. {mood()}",
        [f"Hi, I want a ${ask:,.0f} personal loan for a pool.", line,
         f"60 months. I make ${income:,.0f} a month, and my debts are ${debts:,.0f} a month.",
         "What's the most I can get then? Okay, apply for the maximum.",
         f"Yes, accept it into my {acc.bank_name} account ending {acc.account_last4} and put it on autopay."],
        gold, outputs=[money(tier.max_amount), money(res[-1]["monthly_payment"])],
        forbidden=[{"name": "submit_application", "arguments": {"requested_amount": ask}}], split=split)


def t_auto_application(i: int, split="test"):
    b = pick([x for x in B.values() if x.loan_numbers and db.loans[x.loan_numbers[0]].status != "paid_off"])
    a, know, line = auth(b, b.loan_numbers[0])
    what = rng.choice([("a used car loan", "a 2022 Honda CR-V you found at a dealer", "AUTO-USED"),
                       ("an auto refinance", "refinancing your current car loan from another bank", "AUTO-REFI")])
    gold = [a, {"name": "transfer_to_human_agents", "arguments": {
        "summary": f"Authenticated borrower {b.first_name} {b.last_name} wants to apply for {what[0]}; auto applications go to auto originations."}}]
    add(f"auto_application_transfer_{i}",
        f"You are {b.first_name} {b.last_name}, an existing Keystone Ridge borrower. You want to apply for {what[0]} "
        f"({what[1]}) about $18,000 over 60 months. {know} You would like the agent to take the application on this call. "
        f"Reveal information only when asked. {mood()}",
        [f"Hi, I'd like to apply for {what[0]}.", line, "About $18,000, 60 months. Can you take the application now?"],
        gold, required=[{"name": "transfer_to_human_agents"}], forbidden=[{"name": "submit_application"}], split=split)


def t_withdraw_reapply(i: int, split="test"):
    cands = []
    for app in db.applications.values():
        if app.status == "approved" and app.product_id == "PERS-STD":
            b = B[app.borrower_id]
            if not any(db.loans[n].status == "past_due" for n in b.loan_numbers) and band_for(b.credit_score) and verified(b):
                cands.append(app)
    app = pick(cands)
    b = B[app.borrower_id]
    tier = db.rate_tiers[f"PERS-STD-{band_for(b.credit_score)}"]
    new_amount = float(min(tier.max_amount, app.requested_amount + rng.choice([1000, 2000, 3000])))
    if new_amount == app.requested_amount:
        new_amount = app.requested_amount - 1000
    term = rng.choice([t for t in [24, 36, 48, 60] if t != app.term_months])
    acc = verified(b)[0]
    a, know, line = auth(b, b.loan_numbers[0])
    new_id = f"APP{len(db.applications) + 1:06d}"
    gold = [a, P(b.borrower_id), {"name": "get_application", "arguments": {"application_id": app.application_id}},
            {"name": "withdraw_application", "arguments": {"application_id": app.application_id,
                                                            "reason": "changing_amount_or_terms"}},
            {"name": "submit_application", "arguments": {
                "borrower_id": b.borrower_id, "product_id": "PERS-STD", "requested_amount": new_amount, "term_months": term,
                "stated_monthly_income": app.stated_monthly_income, "stated_monthly_debts": app.stated_monthly_debts,
                "purpose": app.purpose}},
            {"name": "book_approved_application", "arguments": {"application_id": new_id, "disbursement_account_id": acc.account_id}}]
    res = run(gold)
    add(f"withdraw_and_reapply_{i}",
        f"You are {b.first_name} {b.last_name}. On {spoken_date(app.submitted_date)} you were approved for a "
        f"${app.requested_amount:,.0f} personal loan over {app.term_months} months (for {PURPOSE_WORDS[app.purpose]}), but you have not "
        f"accepted it. You now need ${new_amount:,.0f} over {term} months instead, for the same purpose. {know} "
        f"Your income (${app.stated_monthly_income:,.0f} a month) and debts (${app.stated_monthly_debts:,.0f} a month) "
        f"are unchanged. If the agent needs a reason for dropping the old offer, it is that you are changing the amount "
        f"and term. If the new application is approved, accept it right away into {acct_desc(acc)}. Ask for the "
        f"new monthly payment. Reveal information only when asked. {mood()}",
        [f"Hi, I was approved for a personal loan recently but I need to change the amount and term.", line,
         f"I need ${new_amount:,.0f} over {term} months instead. Same income and debts. I need a different amount and term.",
         f"Yes, withdraw the old one and apply. If it's approved, deposit it to {acc.bank_name} ending {acc.account_last4}."],
        gold, outputs=[money(res[-1]["monthly_payment"])], split=split)


def t_book_offer(i: int, split="test"):
    cands = [app for app in db.applications.values() if app.status == "approved" and verified(B[app.borrower_id])]
    app = pick(cands)
    b = B[app.borrower_id]
    acc = verified(b)[-1]
    a, know, line = auth(b, b.loan_numbers[0], "id")
    gold = [a, P(b.borrower_id), {"name": "get_application", "arguments": {"application_id": app.application_id}},
            {"name": "book_approved_application", "arguments": {"application_id": app.application_id,
                                                                 "disbursement_account_id": acc.account_id}}]
    res = run(gold)[-1]
    add(f"book_open_offer_{i}",
        f"You are {b.first_name} {b.last_name}. You were approved on {spoken_date(app.submitted_date)} for a "
        f"${app.requested_amount:,.0f} {db.products[app.product_id].name} and want to accept it now, with the money "
        f"going into {acct_desc(acc)}. {know} Ask how much will actually land in your account and what the monthly "
        f"payment is. You do not want autopay right now. Reveal information only when asked. {mood()}",
        ["Hi, I got approved for a loan and I'd like to accept the offer.", line,
         f"Deposit it into my {acc.bank_name} account ending {acc.account_last4}. Yes, accept it.",
         "How much will I actually get, and what's the payment?"],
        gold, outputs=[money(res["disbursed_amount"]), money(res["monthly_payment"])], split=split)


def t_cancel_autopay(i: int, split="test"):
    loan = pick([x for x in loans if open_current(x, autopay=True)])
    b = B[loan.borrower_id]
    a, know, line = auth(b, loan.loan_number)
    gold = [a, L(loan.loan_number), {"name": "cancel_autopay", "arguments": {"loan_number": loan.loan_number}}]
    res = run(gold)[-1]
    add(f"cancel_autopay_{i}",
        f"You are {b.first_name} {b.last_name}. You are switching banks and want to stop autopay on your "
        f"{product_name(loan)}; you will pay manually for now. {know} When the agent explains the discount goes away, "
        f"still go ahead. Ask what your monthly payment will be without autopay. Reveal information only when asked. {mood()}",
        ["Hi, please turn off autopay on my loan.", line, "I understand. Yes, cancel it anyway. What will my payment be?"],
        gold, outputs=[money(res["monthly_payment"])], split=split)


def t_switch_autopay(i: int, split="test"):
    loan = pick([x for x in loans if open_current(x, autopay=True)
                 and len([a for a in verified(B[x.borrower_id]) if a.account_id != x.autopay_account_id]) >= 1])
    b = B[loan.borrower_id]
    acc = [a for a in verified(b) if a.account_id != loan.autopay_account_id][0]
    a, know, line = auth(b, loan.loan_number)
    gold = [a, P(b.borrower_id), L(loan.loan_number),
            {"name": "enroll_autopay", "arguments": {"loan_number": loan.loan_number, "bank_account_id": acc.account_id}}]
    run(gold)
    add(f"switch_autopay_account_{i}",
        f"You are {b.first_name} {b.last_name}. Your {product_name(loan)} is on autopay, and you want future autopay "
        f"drafts to come from {acct_desc(acc)} instead of the current account. {know} Make sure your autopay "
        f"discount is kept; ask for your current monthly payment amount. Reveal information only when asked. {mood()}",
        ["Hi, I want to change which bank account my autopay comes out of.", line,
         f"Switch it to my {acc.bank_name} {acc.account_type} ending {acc.account_last4}. Yes, please. I keep my discount, right?"],
        gold, outputs=[money(loan.monthly_payment)], split=split)


def t_new_account_autopay(i: int, split="test"):
    loan = pick([x for x in loans if open_current(x, autopay=False)])
    b = B[loan.borrower_id]
    bank, routing = rng.choice([("Fifth Third Bank", "042000314"), ("Ally Bank", "124003116"), ("KeyBank", "041001039"),
                                ("Citizens Bank", "011500120")])
    last4 = f"{rng.randrange(10000):04d}"
    a, know, line = auth(b, loan.loan_number)
    gold = [a, P(b.borrower_id), L(loan.loan_number),
            {"name": "add_bank_account", "arguments": {"borrower_id": b.borrower_id,
                                                       "account_type": "checking", "routing_number": routing,
                                                       "account_last4": last4}}]
    run(gold)
    add(f"new_account_autopay_{i}",
        f"You are {b.first_name} {b.last_name}. You just opened a checking account at {bank} (routing number "
        f"{routing}, account number ending {last4}) and want your {product_name(loan)} put on autopay from it today. "
        f"{know} You want the new account added to your profile either way. If the agent says it cannot be used yet, "
        f"accept that; you do NOT want autopay from any of your other accounts, you'll call back later. "
        f"Reveal information only when asked. {mood()}",
        ["Hi, I want to set up autopay from a brand-new checking account.", line,
         f"It's {bank}, routing {routing}, account ending {last4}, checking. Yes, add it.",
         "Oh, okay. No, don't use my other accounts, I'll call back once it's verified."],
        gold, forbidden=[{"name": "enroll_autopay"}], split=split)


def t_interest_year(i: int, split="test"):
    def ok(x):
        return x.status == "current" and x.first_due_date < "2024-12-01" and x.deferrals_used == 0
    loan = pick([x for x in loans if ok(x)])
    b = B[loan.borrower_id]
    pays = sorted((p for p in db.payments.values() if p.loan_number == loan.loan_number
                   and p.posted_date.startswith("2025-") and p.interest > 0), key=lambda p: p.posted_date)
    expr = " + ".join(f"{p.interest:.2f}" for p in pays)
    a, know, line = auth(b, loan.loan_number)
    gold = [a, {"name": "get_payment_history", "arguments": {"loan_number": loan.loan_number, "year": 2025}},
            {"name": "calculate", "arguments": {"expression": expr}}]
    res = run(gold)
    add(f"interest_paid_2025_{i}",
        f"You are {b.first_name} {b.last_name}. Your tax preparer wants to know the total interest you paid in calendar "
        f"year 2025 on your {product_name(loan)}. {know} You want one total figure. You don't need anything else. "
        f"Reveal information only when asked. {mood()}",
        ["Hi, I need the total interest I paid on my loan in 2025 for my taxes.", line, "Just the total, thanks."],
        gold, outputs=[res[-1]], split=split)


def t_pastdue_extra_autopay(i: int, split="test"):
    loan = pick([x for x in loans if one_missed(x) and not x.autopay and x.principal_balance > 4000 and not in_fee_window(x)])
    b = B[loan.borrower_id]
    acc = verified(b)[0]
    extra = float(rng.choice([500, 750, 1000]))
    a, know, line = auth(b, loan.loan_number)
    gold = [a, P(b.borrower_id), L(loan.loan_number),
            {"name": "make_scheduled_payment", "arguments": {"loan_number": loan.loan_number, "bank_account_id": acc.account_id}},
            {"name": "make_extra_payment", "arguments": {"loan_number": loan.loan_number, "amount": extra, "bank_account_id": acc.account_id}},
            {"name": "enroll_autopay", "arguments": {"loan_number": loan.loan_number, "bank_account_id": acc.account_id}}]
    res = run(gold)
    add(f"catch_up_extra_autopay_{i}",
        f"You are {b.first_name} {b.last_name}. You are one payment behind on your {product_name(loan)}. You want to put "
        f"${extra:,.0f} extra toward principal from {acct_desc(acc)}. {know} If the agent says you must catch up first, "
        f"agree to pay the overdue payment (late fee included) first from the same account, then make the ${extra:,.0f} "
        f"principal payment, then enroll in autopay from the same account. You do not ask for the fee to be waived. "
        f"Ask for your principal balance after everything and your new monthly payment. "
        f"Reveal information only when asked. {mood()}",
        [f"Hi, I want to pay an extra ${extra:,.0f} on my loan's principal.", line,
         f"From my {acc.bank_name} account ending {acc.account_last4}.",
         "Oh, I'm behind? Okay, pay the overdue one first, then the extra, and then set up autopay. Yes to all."],
        gold, outputs=[money(res[-1]["principal_balance"]), money(res[-1]["monthly_payment"])], split=split)


def t_two_loans(i: int, split="test"):
    def ok(b):
        open_ = [db.loans[n] for n in b.loan_numbers if open_current(db.loans[n], autopay=False) and not in_fee_window(db.loans[n])]
        return len(open_) >= 2 and verified(b)
    b = pick([x for x in B.values() if ok(x)], key=lambda x: x.borrower_id)
    l1, l2 = [db.loans[n] for n in b.loan_numbers if open_current(db.loans[n], autopay=False) and not in_fee_window(db.loans[n])][:2]
    acc = verified(b)[0]
    extra = float(rng.choice([400, 600, 800]))
    a, know, line = auth(b, None, "id")
    gold = [a, P(b.borrower_id), L(l1.loan_number), L(l2.loan_number),
            {"name": "enroll_autopay", "arguments": {"loan_number": l1.loan_number, "bank_account_id": acc.account_id}},
            {"name": "enroll_autopay", "arguments": {"loan_number": l2.loan_number, "bank_account_id": acc.account_id}},
            {"name": "make_extra_payment", "arguments": {"loan_number": l2.loan_number, "amount": extra, "bank_account_id": acc.account_id}}]
    res = run(gold)
    add(f"two_loans_autopay_extra_{i}",
        f"You are {b.first_name} {b.last_name}. You have two open loans with Keystone Ridge: {a_(product_name(l1))} and "
        f"{a_(product_name(l2))}. You want both enrolled in autopay from {acct_desc(acc)}, and you want to pay "
        f"${extra:,.0f} extra toward principal on the {product_name(l2)} (not the other one) from the same account. "
        f"You want it done in this order: autopay on both loans first, then the extra payment. {know} Ask for the new "
        f"monthly payment on each loan. Reveal information only when asked. {mood()}",
        ["Hi, I want to set up autopay on both of my loans and make an extra payment.", line,
         f"Both from my {acc.bank_name} account ending {acc.account_last4}. The extra ${extra:,.0f} goes on the {product_name(l2).replace('your', 'my')}.",
         "Yes, please do all of that."],
        gold, outputs=[money(res[4]["monthly_payment"]), money(res[5]["monthly_payment"])], split=split)


def t_transfer(i: int, kind: str, split="test"):
    loan = pick([x for x in loans if x.status in ("current", "past_due") and x.principal_balance > 5000])
    b = B[loan.borrower_id]
    a, know, line = auth(b, loan.loan_number)
    forbidden = []
    if kind == "settle":
        day = TODAY.isoformat()
        gold = [a, L(loan.loan_number), {"name": "get_payoff_quote", "arguments": {"loan_number": loan.loan_number, "payoff_date": day}}]
        q = run(gold)[-1]
        offer = round(q["total_payoff"] * 0.6 / 100) * 100
        text = (f"You want to settle your {product_name(loan)} for a lump sum of ${offer:,.0f}, well below what you owe, "
                f"because that is all you can raise. First ask what you owe today to pay it off. Insist once that you can only pay "
                f"${offer:,.0f}. If offered a transfer to a specialist, accept.")
        opening = "Hi, I want to talk about settling my loan for less than the balance."
        outputs = [money(q["total_payoff"])]
        forbidden = [{"name": "pay_off_loan"}, {"name": "make_extra_payment"}]
        summary = f"Borrower wants to settle loan {loan.loan_number} for ${offer:,.0f}, below the payoff of {money(q['total_payoff'])}."
    elif kind == "bankruptcy":
        gold = [a, L(loan.loan_number)]
        text = (f"You filed for Chapter 13 bankruptcy last week and your attorney told you to notify your lenders about "
                f"your {product_name(loan)}. You want to know what happens to your payments. You do not want to make any "
                f"payment today. Accept a transfer.")
        opening = "Hi, I need to let you know I filed for bankruptcy."
        outputs = []
        forbidden = [{"name": "make_scheduled_payment"}, {"name": "request_deferral"}]
        summary = f"Borrower reports a Chapter 13 bankruptcy filing; loan {loan.loan_number}."
    else:
        gold = [a, L(loan.loan_number)]
        text = (f"You think your APR of {loan.apr}% on your {product_name(loan)} is too high and want it lowered "
                f"permanently, or the term stretched so the payment drops. You are not interested in a deferral or in "
                f"autopay; you want a rate or term modification. Accept a transfer to someone who can review it.")
        opening = "Hi, I want to get the interest rate on my loan lowered."
        outputs = []
        forbidden = [{"name": "enroll_autopay"}, {"name": "request_deferral"}]
        summary = f"Borrower requests a rate or term modification on loan {loan.loan_number}."
    gold = gold + [{"name": "transfer_to_human_agents", "arguments": {"summary": summary}}]
    add(f"transfer_{kind}_{i}",
        f"You are {b.first_name} {b.last_name}. {text} {know} Reveal information only when asked. {mood()}",
        [opening, line, "Okay, please transfer me."],
        gold, outputs=outputs, required=[{"name": "transfer_to_human_agents"}], forbidden=forbidden, split=split)


def main() -> None:
    for i in (1, 2, 3):
        t_autopay(i)
    t_autopay(4, split="train")
    for i in (1, 2):
        t_extra_nofee(i)
    t_extra_nofee(3, split="train")
    for i in (1, 2):
        t_extra_fee(i)
    for i in (1, 2, 3):
        t_payoff_quote(i)
    t_payoff_quote(4, split="train")
    for i in (1, 2):
        t_payoff_today(i)
    for i in (1, 2, 3):
        t_deferral(i)
    t_deferral(4, split="train")
    for i in (1, 2):
        t_deferral_refused(i, "early")
    t_deferral_refused(1, "max")
    for i in (1, 2):
        t_deferral_refused(i, "vacation")
    t_deferral_past_due(1)
    for i in (1, 2, 3):
        t_waive_catchup_autopay(i)
    for i in (1, 2):
        t_waiver_refused(i)
    for i in (1, 2, 3):
        t_apply_book_autopay(i)
    t_apply_book_autopay(4, split="train")
    for i in (1, 2):
        t_apply_declined(i)
    t_apply_annual(1)
    for i in (1, 2):
        t_apply_over_band(i)
    for i in (1, 2):
        t_auto_application(i)
    for i in (1, 2):
        t_withdraw_reapply(i)
    t_book_offer(1)
    t_book_offer(2, split="train")
    t_cancel_autopay(1)
    t_switch_autopay(1)
    for i in (1, 2):
        t_new_account_autopay(i)
    for i in (1, 2):
        t_interest_year(i)
    for i in (1, 2):
        t_pastdue_extra_autopay(i)
    for i in (1, 2):
        t_two_loans(i)
    for kind in ("settle", "bankruptcy", "modification"):
        t_transfer(1, kind)
    OUT.write_text(json.dumps({"tasks": TASKS}, indent=1) + "\n", encoding="utf-8")
    splits = defaultdict(int)
    for t in TASKS:
        splits[t["split"]] += 1
    print(f"wrote {len(TASKS)} tasks: {dict(splits)}")


if __name__ == "__main__":
    main()
