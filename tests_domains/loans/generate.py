"""Seeded generator of the loan servicing desk's DB: `python -m tests_domains.loans.generate`.

Borrowers with bank accounts and a recent soft-pull credit score; the lender's products and
rate sheet; applications (booked, declined, open offers); loans whose payment histories are
simulated month by month with daily simple interest, late fees, extra principal payments,
deferrals, early payoffs and a few accounts that are past due today (2026-05-15).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from pytest_tau.invariants import dialable_area_code, with_vin_check_digit
from tests_domains.loans.amortization import (
    add_months,
    amortized_payment,
    band_for,
    daily_interest,
    monthly_interest,
)
from tests_domains.loans.schema import LoansDB

TODAY = dt.date(2026, 5, 15)  # the DB's as-of date: the policy's current date

SEED = 20260515
OUT = Path(__file__).parents[2] / "fixtures" / "loans" / "db.json"

FIRST = (  # noqa: SIM905
    "James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph "
    "Jessica Thomas Sarah Christopher Karen Charles Lisa Daniel Nancy Matthew Betty Anthony Sandra Mark Margaret "
    "Donald Ashley Steven Kimberly Andrew Emily Paul Donna Joshua Michelle Kenneth Carol Kevin Amanda Brian Melissa "
    "George Deborah Timothy Stephanie Ronald Rebecca Jason Sharon Edward Laura Jeffrey Cynthia Ryan Dorothy Jacob "
    "Amy Gary Kathleen Nicholas Angela Eric Shirley Jonathan Brenda Stephen Emma Larry Anna Justin Pamela Scott "
    "Nicole Brandon Samantha Benjamin Katherine Samuel Christine Gregory Debra Alexander Rachel Patrick Carolyn "
    "Frank Janet Raymond Maria Jack Olivia Dennis Heather Jerry Helen Tyler Catherine Aaron Diane Jose Julie Adam "
    "Victoria Nathan Joyce Henry Lauren Zachary Kelly Douglas Christina Peter Ruth Kyle Joan Noah Virginia Ethan "
    "Judith Jeremy Evelyn Christian Hannah Walter Andrea Keith Megan Austin Cheryl Roger Jacqueline Terry Madison "
    "Sean Teresa Gerald Abigail Carl Sophia Dylan Martha Harold Sara Jordan Gloria Jesse Janice Bryan Kathryn "
    "Lawrence Ann Arthur Isabella Gabriel Judy Bruce Charlotte Logan Julia Billy Grace Joe Amber Alan Alice Juan "
    "Denise Elijah Danielle Willie Marilyn Albert Beverly Wayne Theresa Randy Diana Mason Natalie Vincent Brittany "
    "Liam Doris Roy Kayla Bobby Alexis Caleb Lori Bradley Tiffany Russell Kristen Lucas Priya Wei Mateo Aisha "
    "Hiroshi Fatima Diego Mei Omar Lucia Rahul Ines Tomasz Yara Kwame Ngozi"
).split()
LAST = (  # noqa: SIM905
    "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson "
    "Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis "
    "Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera "
    "Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart "
    "Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim "
    "Cox Ward Richardson Watson Brooks Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo "
    "Sanders Patel Myers Long Ross Foster Jimenez Powell Jenkins Perry Russell Sullivan Bell Coleman Butler "
    "Henderson Barnes Gonzales Fisher Vasquez Simmons Romero Jordan Patterson Alexander Hamilton Graham Reynolds "
    "Griffin Wallace Moreno West Cole Hayes Bryant Herrera Gibson Ellis Tran Medina Aguilar Stevens Murray Ford "
    "Castro Marshall Owens Harrison Fernandez McDonald Woods Washington Kennedy Wells Vargas Henry Chen Freeman "
    "Webb Tucker Guzman Burns Crawford Olson Simpson Porter Hunter Gordon Mendez Silva Shaw Snyder Mason Dixon "
    "Munoz Hunt Hicks Holmes Palmer Wagner Black Robertson Boyd Rose Stone Salazar Fox Warren Mills Meyer Rice "
    "Schmidt Garza Daniels Ferguson Nichols Stephens Soto Weaver Ryan Gardner Payne Grant Dunn Kowalski Okafor "
    "Nakamura Haddad Lindqvist Brennan Osei Delgado Achterberg"
).split()
PLACES = [
    ("Columbus", "OH", "432"), ("Dayton", "OH", "454"), ("Cleveland", "OH", "441"), ("Pittsburgh", "PA", "152"),
    ("Harrisburg", "PA", "171"), ("Allentown", "PA", "181"), ("Louisville", "KY", "402"), ("Lexington", "KY", "405"),
    ("Indianapolis", "IN", "462"), ("Fort Wayne", "IN", "468"), ("Grand Rapids", "MI", "495"), ("Lansing", "MI", "489"),
    ("Madison", "WI", "537"), ("Milwaukee", "WI", "532"), ("Des Moines", "IA", "503"), ("Omaha", "NE", "681"),
    ("Kansas City", "MO", "641"), ("St. Louis", "MO", "631"), ("Nashville", "TN", "372"), ("Knoxville", "TN", "379"),
    ("Charlotte", "NC", "282"), ("Raleigh", "NC", "276"), ("Richmond", "VA", "232"), ("Roanoke", "VA", "240"),
    ("Atlanta", "GA", "303"), ("Savannah", "GA", "314"), ("Tampa", "FL", "336"), ("Orlando", "FL", "328"),
    ("Austin", "TX", "787"), ("San Antonio", "TX", "782"), ("Tulsa", "OK", "741"), ("Denver", "CO", "802"),
    ("Boise", "ID", "837"), ("Phoenix", "AZ", "850"), ("Albuquerque", "NM", "871"), ("Sacramento", "CA", "958"),
]
STREETS = (  # noqa: SIM905
    "Maple Oak Cedar Pine Elm Walnut Chestnut Birch Willow Hickory Spruce Sycamore Poplar Magnolia Dogwood Laurel "
    "Ridge Meadow Lake Hillcrest Sunset Park Church Mill Spring Valley Highland Forest River Union Franklin Jefferson"
).split()
STREET_KINDS = ["St", "Ave", "Rd", "Dr", "Ln", "Ct", "Blvd", "Way", "Pl"]
BANKS = [
    ("Chase", "044000037"), ("Huntington National Bank", "044000024"), ("PNC Bank", "043000096"),
    ("Fifth Third Bank", "042000314"), ("Wells Fargo", "121000248"), ("Bank of America", "011000138"),
    ("U.S. Bank", "091000022"), ("KeyBank", "041001039"), ("Regions Bank", "062000019"),
    ("Truist", "061000104"), ("Ally Bank", "124003116"), ("Capital One", "056073502"),
    ("Navy Federal Credit Union", "256074974"), ("Citizens Bank", "011500120"),
]
VEHICLES = [
    ("Toyota", ["Camry", "Corolla", "RAV4", "Highlander", "Tacoma"]), ("Honda", ["Civic", "Accord", "CR-V", "Pilot"]),
    ("Ford", ["F-150", "Escape", "Explorer", "Bronco Sport"]), ("Chevrolet", ["Silverado 1500", "Equinox", "Malibu", "Traverse"]),
    ("Hyundai", ["Elantra", "Tucson", "Santa Fe"]), ("Kia", ["Sportage", "Telluride", "Forte"]),
    ("Subaru", ["Outback", "Forester", "Crosstrek"]), ("Nissan", ["Rogue", "Altima", "Sentra"]),
    ("Mazda", ["CX-5", "Mazda3", "CX-30"]), ("Jeep", ["Grand Cherokee", "Wrangler", "Compass"]),
]
# The world manufacturer identifier (VIN positions 1-3) of each model's North American build.
WMI = {
    "Camry": "4T1", "Corolla": "2T1", "RAV4": "2T3", "Highlander": "5TD", "Tacoma": "3TM", "Civic": "2HG", "Accord": "1HG",
    "CR-V": "5J6", "Pilot": "5FN", "F-150": "1FT", "Escape": "1FM", "Explorer": "1FM", "Bronco Sport": "3FM",
    "Silverado 1500": "1GC", "Equinox": "2GN", "Malibu": "1G1", "Traverse": "1GN", "Elantra": "5NP", "Tucson": "5NM",
    "Santa Fe": "5NM", "Sportage": "KND", "Telluride": "5XY", "Forte": "3KP", "Outback": "4S4", "Forester": "JF2",
    "Crosstrek": "JF2", "Rogue": "5N1", "Altima": "1N4", "Sentra": "3N1", "CX-5": "JM3", "Mazda3": "3MZ", "CX-30": "3MV",
    "Grand Cherokee": "1C4", "Wrangler": "1C4", "Compass": "3C4",
}
MODEL_YEAR_CODES = "ABCDEFGHJKLMNPRSTVWXY123456789"  # VIN position 10: 2010 is A, cycling every 30 years
PERSONAL_PURPOSES = [
    "debt_consolidation", "home_improvement", "home_improvement", "medical", "wedding", "moving",
    "major_purchase", "vehicle_repair", "vacation", "education", "other",
]
HARDSHIP = ["job_loss", "reduced_income", "reduced_income", "medical", "disaster", "death_in_family"]
VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"

PRODUCTS: list[dict[str, Any]] = [
    dict(product_id="PERS-STD", name="Personal Installment Loan", kind="personal", terms_months=[24, 36, 48, 60],
         min_amount=2000.0, max_amount=40000.0, min_monthly_income=2000.0, max_dti_pct=40.0,
         origination_fee_pct=0.0, prepayment_fee_pct=0.0, prepayment_fee_window_months=0, late_fee=29.0,
         grace_days=15, accepts_phone_applications=True),
    dict(product_id="PERS-CONS", name="Debt Consolidation Loan", kind="personal", terms_months=[36, 48, 60],
         min_amount=5000.0, max_amount=50000.0, min_monthly_income=2500.0, max_dti_pct=45.0,
         origination_fee_pct=2.0, prepayment_fee_pct=2.0, prepayment_fee_window_months=12, late_fee=29.0,
         grace_days=15, accepts_phone_applications=True),
    dict(product_id="AUTO-NEW", name="New Vehicle Loan", kind="auto", terms_months=[36, 48, 60, 72],
         min_amount=7500.0, max_amount=90000.0, min_monthly_income=1800.0, max_dti_pct=45.0,
         origination_fee_pct=0.0, prepayment_fee_pct=0.0, prepayment_fee_window_months=0, late_fee=35.0,
         grace_days=10, accepts_phone_applications=False),
    dict(product_id="AUTO-USED", name="Used Vehicle Loan", kind="auto", terms_months=[36, 48, 60, 72],
         min_amount=5000.0, max_amount=60000.0, min_monthly_income=1800.0, max_dti_pct=45.0,
         origination_fee_pct=0.0, prepayment_fee_pct=0.0, prepayment_fee_window_months=0, late_fee=35.0,
         grace_days=10, accepts_phone_applications=False),
    dict(product_id="AUTO-REFI", name="Auto Refinance Loan", kind="auto", terms_months=[36, 48, 60],
         min_amount=5000.0, max_amount=70000.0, min_monthly_income=1800.0, max_dti_pct=45.0,
         origination_fee_pct=0.0, prepayment_fee_pct=1.5, prepayment_fee_window_months=12, late_fee=35.0,
         grace_days=10, accepts_phone_applications=False),
]
BANDS = {"A": (740, 850), "B": (680, 739), "C": (620, 679), "D": (580, 619)}
SHEET = {
    "PERS-STD": {"A": (8.99, 40000), "B": (12.49, 25000), "C": (17.99, 15000), "D": (24.99, 7500)},
    "PERS-CONS": {"A": (9.49, 50000), "B": (12.99, 35000), "C": (18.49, 20000)},
    "AUTO-NEW": {"A": (5.49, 90000), "B": (6.99, 70000), "C": (9.99, 50000), "D": (14.49, 30000)},
    "AUTO-USED": {"A": (6.49, 60000), "B": (8.49, 45000), "C": (11.99, 35000), "D": (16.99, 20000)},
    "AUTO-REFI": {"A": (5.99, 70000), "B": (7.49, 50000), "C": (10.99, 35000)},
}


def _date(rng: random.Random, start: dt.date, end: dt.date) -> dt.date:
    return start + dt.timedelta(days=rng.randrange((end - start).days + 1))


class _Gen:
    def __init__(self, seed: int, scale: int) -> None:
        self.rng = random.Random(seed)
        self.scale = scale
        self.borrowers: dict[str, Any] = {}
        self.applications: dict[str, Any] = {}
        self.loans: dict[str, Any] = {}
        self.payments: dict[str, Any] = {}
        self.fees: dict[str, Any] = {}
        self.deferrals: dict[str, Any] = {}
        self.used_numbers: set[str] = set()
        self.identities: set[tuple[str, ...]] = set()
        self.account_seq = 0

    # -- ids -----------------------------------------------------------------------
    def _unique(self, make: Callable[[], str]) -> str:
        while True:
            value = make()
            if value not in self.used_numbers:
                self.used_numbers.add(value)
                return value

    def app_id(self) -> str:
        return f"APP{len(self.applications) + 1:06d}"

    def pay_id(self) -> str:
        return f"PMT{len(self.payments) + 1:07d}"

    def fee_id(self) -> str:
        return f"FEE{len(self.fees) + 1:06d}"

    # -- borrowers -----------------------------------------------------------------
    def borrower(self, index: int) -> dict[str, Any]:
        rng = self.rng
        while True:
            first, last = rng.choice(FIRST), rng.choice(LAST)
            city, state, prefix = rng.choice(PLACES)
            zip_code = f"{prefix}{rng.randrange(1, 100):02d}"
            dob = _date(rng, dt.date(1956, 1, 1), dt.date(2003, 12, 31)).isoformat()
            key = (first, last, dob, zip_code)
            if key not in self.identities:
                self.identities.add(key)
                break
        bid = self._unique(lambda: f"BRW{rng.randrange(100000, 999999)}")
        score = max(545, min(842, int(rng.gauss(705, 55))))
        accounts = []
        for k in range(rng.choice([1, 1, 2, 2, 2, 3])):
            bank, routing = rng.choice(BANKS)
            self.account_seq += 1
            verified = k == 0 or rng.random() < 0.85
            accounts.append(dict(
                account_id=f"BA{self.account_seq:06d}",
                bank_name=bank,
                account_type="checking" if k == 0 or rng.random() < 0.5 else "savings",
                routing_number=routing,
                account_last4=f"{rng.randrange(10000):04d}",
                verified=verified,
                added_date=_date(rng, dt.date(2019, 1, 1), dt.date(2026, 5, 1) if verified else dt.date(2026, 5, 14)).isoformat(),
            ))
        email_user = rng.choice([f"{first}.{last}", f"{first[0]}{last}", f"{first}{last}{rng.randrange(10, 99)}", f"{last}.{first}"])
        domain = rng.choice(["gmail.com", "yahoo.com", "outlook.com", "icloud.com", "aol.com", "proton.me"])
        return dict(
            borrower_id=bid, first_name=first, last_name=last, date_of_birth=dob,
            ssn_last4=f"{rng.randrange(10000):04d}", email=f"{email_user.lower()}@{domain}",
            phone=f"{dialable_area_code(rng.randrange(201, 989))}-555-{rng.randrange(10000):04d}",
            street=f"{rng.randrange(12, 9800)} {rng.choice(STREETS)} {rng.choice(STREET_KINDS)}",
            city=city, state=state, zip=zip_code, credit_score=score,
            credit_score_date=_date(rng, dt.date(2026, 4, 1), dt.date(2026, 5, 10)).isoformat(),
            bank_accounts=accounts, loan_numbers=[], application_ids=[],
        )

    # -- applications ----------------------------------------------------------------
    def application(self, b: dict[str, Any], product: dict[str, Any], amount: float, term: int, score: int, when: dt.date,
                    status: str, reason: str, apr: float | None, income: float, debts: float,
                    loan_number: str | None = None, withdrawal_reason: str | None = None) -> dict[str, Any]:
        band = band_for(score)
        purpose = (self.rng.choice(PERSONAL_PURPOSES) if product["kind"] == "personal"
                   else {"AUTO-NEW": "vehicle_purchase", "AUTO-USED": "vehicle_purchase",
                         "AUTO-REFI": "vehicle_refinance"}[product["product_id"]])
        if product["product_id"] == "PERS-CONS":
            purpose = "debt_consolidation"
        app = dict(
            application_id=self.app_id(), borrower_id=b["borrower_id"], product_id=product["product_id"],
            requested_amount=amount, term_months=term, stated_monthly_income=income, stated_monthly_debts=debts,
            purpose=purpose, credit_score=score, credit_band=band, dti_pct=round(debts / income * 100, 1),
            status=status, decision_reason=reason, apr=apr,
            estimated_payment=amortized_payment(amount, apr, term) if apr is not None else None,
            submitted_date=when.isoformat(),
            offer_expires=(when + dt.timedelta(days=30)).isoformat() if apr is not None else None,
            loan_number=loan_number, withdrawal_reason=withdrawal_reason,
        )
        self.applications[app["application_id"]] = app
        b["application_ids"].append(app["application_id"])
        return app

    def income_debts(self, ok: bool, product: dict[str, Any]) -> tuple[float, float]:
        rng = self.rng
        income = float(rng.randrange(2600, 12500, 50))
        limit = product["max_dti_pct"]
        pct = rng.uniform(8, limit - 2) if ok else rng.uniform(limit + 1, limit + 15)
        return income, float(round(income * pct / 100 / 5) * 5)

    # -- loans -----------------------------------------------------------------------
    def loan(self, b: dict[str, Any], product: dict[str, Any]) -> None:
        rng = self.rng
        pid = product["product_id"]
        sheet = SHEET[pid]
        score_then = max(560, min(845, b["credit_score"] + rng.randrange(-40, 41)))
        band = band_for(score_then)
        if band not in sheet:
            band = min(sheet)  # approved under a better score at the time
            score_then = BANDS[band][0] + rng.randrange(0, 30)
        apr_sheet, band_max = sheet[band]
        apr = round(apr_sheet + rng.choice([-0.5, -0.25, 0.0, 0.0, 0.25, 0.5]), 2)
        term = rng.choice(product["terms_months"])
        hi = min(band_max, product["max_amount"])
        amount = float(round(rng.uniform(product["min_amount"], hi * 0.85) / 100) * 100)
        fate = rng.random()
        young = rng.random() < 0.22
        start = dt.date(2025, 5, 1) if young else dt.date(2021, 6, 1)
        orig = _date(rng, start, dt.date(2026, 4, 20))
        orig = dt.date(orig.year, orig.month, min(orig.day, 28))
        income, debts = self.income_debts(True, product)
        number = self._unique(lambda: f"{'PL' if product['kind'] == 'personal' else 'AL'}{rng.randrange(10000000, 89999999)}")
        app = self.application(b, product, amount, term, score_then, orig - dt.timedelta(days=rng.randrange(3, 20)),
                               "booked", "approved", apr, income, debts, loan_number=number)
        fee = round(amount * product["origination_fee_pct"] / 100, 2)
        accounts = [a for a in b["bank_accounts"] if a["verified"] and a["added_date"] <= orig.isoformat()] or [b["bank_accounts"][0]]
        pay_acct = rng.choice(accounts)["account_id"]
        autopay = rng.random() < 0.45
        eff_apr = round(apr - 0.25, 2) if autopay else apr
        payment = amortized_payment(amount, eff_apr, term)
        first_due = add_months(orig, 1)
        vehicle = None
        if product["kind"] == "auto":
            make, models = rng.choice(VEHICLES)
            # next year's models reach dealers in the second half of the year
            year = orig.year + (orig.month >= 7) if pid == "AUTO-NEW" else orig.year - rng.randrange(2, 9)
            drawn = "".join(rng.choice(VIN_CHARS) for _ in range(17))
            model = rng.choice(models)
            vin = WMI[model] + drawn[3:9] + MODEL_YEAR_CODES[(year - 2010) % 30] + drawn[10:]
            vehicle = dict(vin=with_vin_check_digit(vin), year=year, make=make, model=model)
        # simulate the history
        balance, paid_through, deferred = amount, orig, 0.0
        made, deferrals_used, late_due = 0, 0, 0.0
        status, paid_off_date = "current", None
        past_due_amount, days_past_due = 0.0, 0
        payoff_at = None
        if fate < 0.10 and (TODAY - orig).days > 90:
            payoff_at = _date(rng, orig + dt.timedelta(days=60), TODAY - dt.timedelta(days=3))
        delinquent = 0.10 <= fate < 0.17
        deferral_plan = set()
        if rng.random() < 0.16:
            deferral_plan.add(rng.randrange(6, 30))
            if rng.random() < 0.3:
                deferral_plan.add(rng.randrange(31, 50))
        due = first_due
        k = 0
        first_missed = None
        total_dues = []
        while due <= TODAY and balance > 0.005 and made < term:
            if payoff_at is not None and payoff_at < due:
                break
            if k in deferral_plan and deferrals_used < 2 and made >= 6 and status == "current":
                interest_added = monthly_interest(balance, eff_apr)
                deferred = round(deferred + interest_added, 2)
                did = f"DEF{len(self.deferrals) + 1:05d}"
                new_due = add_months(due, 1)
                self.deferrals[did] = dict(deferral_id=did, loan_number=number,
                                           granted_date=(due - dt.timedelta(days=rng.randrange(3, 14))).isoformat(),
                                           from_due_date=due.isoformat(), to_due_date=new_due.isoformat(),
                                           interest_added=interest_added, hardship=rng.choice(HARDSHIP))
                deferrals_used += 1
                # the deferred month's interest now sits in the deferred balance: daily accrual skips it
                paid_through += new_due - due
                due = new_due
                k += 1
                continue
            if delinquent and first_missed is None and (TODAY - due).days < rng.choice([20, 40, 50]):
                first_missed = due
            if first_missed is not None:
                total_dues.append(due)
                due = add_months(due, 1)
                k += 1
                continue
            late = rng.random() < 0.05 and (TODAY - due).days > product["grace_days"] + 14
            if autopay:
                pay_day = due
            elif late:
                pay_day = due + dt.timedelta(days=product["grace_days"] + rng.randrange(2, 12))
            else:
                pay_day = due - dt.timedelta(days=rng.randrange(0, 6))
            if pay_day > TODAY:
                break
            fees = 0.0
            if late and not autopay:
                fid = self.fee_id()
                waived = rng.random() < 0.2
                self.fees[fid] = dict(fee_id=fid, loan_number=number, kind="late", amount=product["late_fee"],
                                      assessed_date=(due + dt.timedelta(days=product["grace_days"] + 1)).isoformat(),
                                      status="waived" if waived else "paid",
                                      waiver_reason="courtesy waiver" if waived else None)
                fees = 0.0 if waived else product["late_fee"]
            interest = daily_interest(balance, eff_apr, (pay_day - paid_through).days)
            principal = round(payment - interest, 2)
            amt = payment
            if principal >= balance or made == term - 1:
                principal = balance
                amt = round(balance + interest, 2)
            balance = round(balance - principal, 2)
            paid_through = pay_day
            made += 1
            pid_ = self.pay_id()
            self.payments[pid_] = dict(payment_id=pid_, loan_number=number, posted_date=pay_day.isoformat(),
                                       kind="scheduled", amount=round(amt + fees, 2), principal=principal,
                                       interest=interest, fees=fees, bank_account_id=pay_acct,
                                       channel="autopay" if autopay else rng.choice(["online", "online", "phone"]))
            # an occasional extra principal payment on the 20th
            extra_day = dt.date(due.year, due.month, 20)
            if (balance > 1500 and rng.random() < 0.07 and extra_day <= TODAY and extra_day > pay_day
                    and (payoff_at is None or extra_day < payoff_at)):
                extra = float(rng.choice([100, 150, 200, 250, 300, 500, 750, 1000]))
                pfee = 0.0
                if product["prepayment_fee_pct"] and extra_day < add_months(orig, product["prepayment_fee_window_months"]):
                    pfee = round(extra * product["prepayment_fee_pct"] / 100, 2)
                    fid = self.fee_id()
                    self.fees[fid] = dict(fee_id=fid, loan_number=number, kind="prepayment", amount=pfee,
                                          assessed_date=extra_day.isoformat(), status="paid", waiver_reason=None)
                balance = round(balance - extra, 2)
                pid_ = self.pay_id()
                self.payments[pid_] = dict(payment_id=pid_, loan_number=number, posted_date=extra_day.isoformat(),
                                           kind="extra_principal", amount=round(extra + pfee, 2), principal=extra,
                                           interest=0.0, fees=pfee, bank_account_id=pay_acct, channel="online")
            due = add_months(due, 1)
            k += 1
        next_due = due
        if payoff_at is not None and balance > 0.005 and made < term:
            interest = round(daily_interest(balance, eff_apr, (payoff_at - paid_through).days) + deferred, 2)
            pfee = 0.0
            if product["prepayment_fee_pct"] and payoff_at < add_months(orig, product["prepayment_fee_window_months"]):
                pfee = round(balance * product["prepayment_fee_pct"] / 100, 2)
                fid = self.fee_id()
                self.fees[fid] = dict(fee_id=fid, loan_number=number, kind="prepayment", amount=pfee,
                                      assessed_date=payoff_at.isoformat(), status="paid", waiver_reason=None)
            pid_ = self.pay_id()
            self.payments[pid_] = dict(payment_id=pid_, loan_number=number, posted_date=payoff_at.isoformat(),
                                       kind="payoff", amount=round(balance + interest + pfee, 2), principal=balance,
                                       interest=interest, fees=pfee, bank_account_id=pay_acct, channel="online")
            balance, deferred, status, paid_off_date, paid_through = 0.0, 0.0, "paid_off", payoff_at.isoformat(), payoff_at
        elif balance <= 0.005 or made >= term:
            balance, status = 0.0, "paid_off"
            paid_off_date = paid_through.isoformat()
            deferred = 0.0
        if first_missed is not None and status != "paid_off":
            missed = [x for x in total_dues]
            status = "past_due"
            next_due = first_missed
            past_due_amount = round(payment * len(missed), 2)
            days_past_due = (TODAY - first_missed).days
            for m in missed:
                assessed = m + dt.timedelta(days=product["grace_days"] + 1)
                if assessed <= TODAY:
                    fid = self.fee_id()
                    self.fees[fid] = dict(fee_id=fid, loan_number=number, kind="late", amount=product["late_fee"],
                                          assessed_date=assessed.isoformat(), status="due", waiver_reason=None)
                    late_due = round(late_due + product["late_fee"], 2)
        maturity = add_months(first_due, term - 1 + deferrals_used)
        self.loans[number] = dict(
            loan_number=number, borrower_id=b["borrower_id"], product_id=pid, application_id=app["application_id"],
            status=status, original_principal=amount, origination_fee=fee, disbursed_amount=round(amount - fee, 2),
            disbursement_account_id=(accounts[0]["account_id"] if product["kind"] == "personal" else None),
            origination_date=orig.isoformat(), term_months=term, base_apr=apr, apr=eff_apr,
            monthly_payment=payment, first_due_date=first_due.isoformat(),
            next_due_date=None if status == "paid_off" else next_due.isoformat(),
            maturity_date=maturity.isoformat(), principal_balance=balance,
            interest_paid_through=paid_through.isoformat(), deferred_interest=deferred,
            past_due_amount=past_due_amount, days_past_due=days_past_due, late_fees_due=late_due,
            payments_made=made, deferrals_used=deferrals_used,
            autopay=autopay and status != "paid_off", autopay_account_id=pay_acct if autopay and status != "paid_off" else None,
            paid_off_date=paid_off_date, vehicle=vehicle,
        )
        b["loan_numbers"].append(number)

    def extra_applications(self, b: dict[str, Any]) -> None:
        """Declined, withdrawn, expired and open (approved, not yet booked) applications."""
        rng = self.rng
        roll = rng.random()
        if roll > 0.30:
            return
        product = PRODUCTS[0] if rng.random() < 0.7 else PRODUCTS[1]
        term = rng.choice(product["terms_months"])
        amount = float(rng.randrange(int(product["min_amount"]), 20000, 500))
        score = b["credit_score"]
        band = band_for(score)
        sheet = SHEET[product["product_id"]]
        if roll < 0.12:
            income, debts = self.income_debts(False, product)
            when = _date(rng, dt.date(2024, 1, 1), dt.date(2026, 5, 10))
            reason = (f"debt-to-income ratio {round(debts / income * 100, 1)}% exceeds the "
                      f"{product['max_dti_pct']:g}% limit")
            self.application(b, product, amount, term, score, when, "declined", reason, None, income, debts)
            return
        if band not in sheet:
            return
        apr, band_max = sheet[band]
        amount = min(amount, band_max)
        income, debts = self.income_debts(True, product)
        if roll < 0.20:
            when = _date(rng, dt.date(2026, 4, 20), dt.date(2026, 5, 13))
            self.application(b, product, amount, term, score, when, "approved", "approved", apr, income, debts)
        elif roll < 0.25:
            when = _date(rng, dt.date(2025, 1, 1), dt.date(2026, 3, 1))
            self.application(b, product, amount, term, score, when, "expired", "approved", apr, income, debts)
        else:
            when = _date(rng, dt.date(2025, 1, 1), dt.date(2026, 4, 1))
            self.application(b, product, amount, term, score, when, "withdrawn", "approved", apr, income, debts,
                             withdrawal_reason=rng.choice(["found_better_rate", "no_longer_needed",
                                                           "changing_amount_or_terms", "other"]))

    def accounts_on_file_before_use(self) -> None:
        """A bank account was added (and verified) before money first moved through it: an added date drawn
        after the account's first disbursement, payment or autopay draft moves to two weeks before it."""
        first_use: dict[str, str] = {}

        def use(account_id: str | None, day: str) -> None:
            if account_id is not None and day < first_use.get(account_id, "9999"):
                first_use[account_id] = day

        for loan in self.loans.values():
            use(loan["disbursement_account_id"], loan["origination_date"])
            use(loan["autopay_account_id"], loan["origination_date"])
        for payment in self.payments.values():
            use(payment["bank_account_id"], payment["posted_date"])
        for b in self.borrowers.values():
            for account in b["bank_accounts"]:
                if account["account_id"] in first_use:
                    latest = (dt.date.fromisoformat(first_use[account["account_id"]]) - dt.timedelta(days=14)).isoformat()
                    account["added_date"] = min(account["added_date"], latest)

    def run(self) -> dict[str, Any]:
        rng = self.rng
        products = {p["product_id"]: p for p in PRODUCTS}
        tiers = {}
        for pid, bands in SHEET.items():
            for band, (apr, mx) in bands.items():
                lo, hi = BANDS[band]
                tid = f"{pid}-{band}"
                tiers[tid] = dict(tier_id=tid, product_id=pid, band=band, min_score=lo, max_score=hi, apr=apr,
                                  max_amount=float(mx))
        weights = [("PERS-STD", 38), ("PERS-CONS", 17), ("AUTO-NEW", 15), ("AUTO-USED", 20), ("AUTO-REFI", 10)]
        names = [p for p, w in weights for _ in range(w)]
        for i in range(560 * self.scale):
            b = self.borrower(i)
            self.borrowers[b["borrower_id"]] = b
            for _ in range(rng.choice([1, 1, 2, 2, 2, 3])):
                self.loan(b, products[rng.choice(names)])
            self.extra_applications(b)
        self.accounts_on_file_before_use()
        return dict(borrowers=self.borrowers, products=products, rate_tiers=tiers, applications=self.applications,
                    loans=self.loans, payments=self.payments, fees=self.fees, deferrals=self.deferrals)


def generate(seed: int = SEED, scale: int = 1) -> dict[str, Any]:
    data = _Gen(seed, scale).run()
    LoansDB.model_validate(data)
    return data


def main() -> None:
    data = generate()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(dump_db(data))
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KB): " + ", ".join(f"{k}={len(v)}" for k, v in data.items()))


if __name__ == "__main__":
    main()
