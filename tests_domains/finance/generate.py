"""Seeded generator for the Harrow & Pike Wealth Management client-desk DB.

    python -m tests_domains.finance.generate            # writes fixtures/finance/db.json

The history is simulated forward from HISTORY_START: opening holdings, then trades, deposits
and withdrawals day by day, so today's holdings, cash and the trade and transfer history agree
(the performance tool rebuilds any past day's value from them).
"""

from __future__ import annotations

import argparse
import math
import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from pytest_tau.invariants import dialable_exchange
from tests_domains.finance.market import (
    IRA_LIMITS,
    PROFILE_BANDS,
    QUESTION_COUNT,
    add_business_days,
    add_lot,
    business_days,
    profile_for,
    questionnaire_score,
    sell_lots,
)
from tests_domains.finance.schema import FinanceDB

SEED = 6162026
TODAY = date(2026, 6, 16)
LAST_CLOSE = date(2026, 6, 15)
HISTORY_START = date(2025, 6, 2)
STOCK_COMMISSION = 4.95
WIRE_FEE = 25.0
Rec = dict[str, Any]
IRA_TYPES = ("traditional_ira", "roth_ira")
OUT = Path(__file__).parents[2] / "fixtures" / "finance" / "db.json"

FIRST = [
    "Eleanor", "Martin", "Grace", "Theodore", "Adele", "Howard", "Priya", "Rajesh", "Mei", "Kenji", "Lucia", "Rafael",
    "Ingrid", "Lars", "Fatima", "Samir", "Colette", "Bernard", "Naomi", "Isaac", "Vivian", "Gordon", "Helena", "Walter",
    "Yvonne", "Douglas", "Camille", "Anton", "Rosalind", "Frederick", "Odette", "Malcolm", "Beatrice", "Stanley", "Miriam",
    "Desmond", "Leonora", "Harold", "Sunita", "Victor", "Margot", "Elliott", "Josephine", "Raymond", "Celeste", "Arthur",
    "Noor", "Tobias", "Lillian", "Conrad", "Aiko", "Dominic", "Paloma", "Russell", "Greta", "Julian", "Marisol", "Clifford",
]
LAST = [
    "Ashworth", "Bellamy", "Castellano", "Devereux", "Ekwueme", "Falkner", "Goldberg", "Hathaway", "Ishikawa", "Jorgensen",
    "Kovalenko", "Lindgren", "Marchetti", "Nakagawa", "Oyelaran", "Pemberton", "Quintana", "Rothschild", "Sandberg",
    "Trevino", "Underhill", "Valdivia", "Wexler", "Yoshida", "Zimmerman", "Abernathy", "Blackwood", "Carmody", "Drummond",
    "Everhart", "Fairbanks", "Galloway", "Hendricks", "Iyer", "Kensington", "Lockhart", "Montague", "Northcott", "Okonkwo",
    "Prescott", "Radcliffe", "Stratton", "Thackeray", "Vanderberg", "Whitmore", "Albrecht", "Bhattacharya", "Cavendish",
    "Delacroix", "Esposito", "Fitzgerald", "Greenberg", "Halvorsen", "Lombardi", "Mukherjee", "Rasmussen", "Sorensen",
]
ADVISORS = ["Catherine Voss", "Daniel Ocampo", "Meredith Lang", "Samuel Achebe", "Hannah Whitlock", "Rohan Mehta", "Julia Fenwick"]
BANKS = [
    "Chase", "Bank of America", "Wells Fargo", "Citibank", "US Bank", "PNC Bank", "Truist", "Capital One",
    "TD Bank", "Citizens Bank", "Fifth Third Bank", "KeyBank", "Ally Bank", "First Republic Savings", "Huntington Bank",
]
EMAIL_DOMAINS = ["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me", "comcast.net"]
AREA = ["212", "917", "646", "203", "914", "617", "312", "415", "310", "206", "303", "404", "305", "512", "973", "201"]

# symbol, name, asset class, sector, risk rating, annual drift, annual volatility, first price
ETFS: list[tuple[str, str, str, str, int, float, float, float]] = [
    ("KTSM", "Keystone Total US Market ETF", "us_equity", "Broad market", 3, 0.09, 0.16, 268.0),
    ("KLGC", "Keystone US Large Cap ETF", "us_equity", "Large cap", 3, 0.10, 0.15, 512.0),
    ("KSMC", "Keystone US Small Cap ETF", "us_equity", "Small cap", 4, 0.06, 0.22, 211.0),
    ("KDIV", "Keystone Dividend Leaders ETF", "us_equity", "Dividend", 3, 0.07, 0.12, 78.0),
    ("KTEC", "Keystone Technology Select ETF", "us_equity", "Technology", 4, 0.15, 0.24, 232.0),
    ("KHLT", "Keystone Health Care ETF", "us_equity", "Health care", 3, 0.04, 0.15, 141.0),
    ("MGRW", "Meridian Growth ETF", "us_equity", "Growth", 4, 0.12, 0.20, 96.0),
    ("MVAL", "Meridian Value ETF", "us_equity", "Value", 3, 0.07, 0.14, 171.0),
    ("MLEV", "Meridian 2x Nasdaq Leveraged ETF", "us_equity", "Leveraged", 5, 0.18, 0.48, 64.0),
    ("KIDX", "Keystone International Developed ETF", "intl_equity", "Developed markets", 3, 0.08, 0.15, 52.0),
    ("KEMX", "Keystone Emerging Markets ETF", "intl_equity", "Emerging markets", 4, 0.06, 0.21, 44.0),
    ("MEUR", "Meridian Europe ETF", "intl_equity", "Europe", 3, 0.07, 0.16, 67.0),
    ("MJPN", "Meridian Japan ETF", "intl_equity", "Japan", 3, 0.05, 0.17, 71.0),
    ("MFRN", "Meridian Frontier Markets ETF", "intl_equity", "Frontier markets", 5, 0.03, 0.27, 29.0),
    ("KAGG", "Keystone Aggregate Bond ETF", "fixed_income", "Core bonds", 2, 0.02, 0.05, 98.0),
    ("KSTB", "Keystone Short-Term Treasury ETF", "fixed_income", "Short-term Treasuries", 1, 0.03, 0.015, 50.0),
    ("KTIP", "Keystone TIPS ETF", "fixed_income", "Inflation-protected", 2, 0.02, 0.05, 108.0),
    ("KMUN", "Keystone National Muni Bond ETF", "fixed_income", "Municipal bonds", 2, 0.015, 0.04, 106.0),
    ("KCRP", "Keystone Corporate Bond ETF", "fixed_income", "Investment-grade corporate", 2, 0.025, 0.07, 82.0),
    ("KHYB", "Keystone High Yield Bond ETF", "fixed_income", "High yield", 3, 0.04, 0.09, 79.0),
    ("MLTB", "Meridian Long Treasury ETF", "fixed_income", "Long-term Treasuries", 3, 0.0, 0.13, 88.0),
    ("MEMB", "Meridian Emerging Markets Bond ETF", "fixed_income", "Emerging-market bonds", 3, 0.04, 0.09, 90.0),
    ("KREI", "Keystone US REIT ETF", "real_estate", "Real estate", 3, 0.05, 0.18, 91.0),
    ("MGRE", "Meridian Global Real Estate ETF", "real_estate", "Real estate", 3, 0.04, 0.17, 45.0),
    ("KCMD", "Keystone Broad Commodity ETF", "commodities", "Commodities", 4, 0.03, 0.18, 24.0),
    ("MGLD", "Meridian Gold Trust", "commodities", "Gold", 3, 0.10, 0.15, 61.0),
    ("MOIL", "Meridian Crude Oil Fund", "commodities", "Oil", 5, -0.02, 0.35, 73.0),
]
STOCK_PREFIXES = [
    "Alderline", "Brightwater", "Cobalt Ridge", "Driftwood", "Emberly", "Fairhaven", "Granite Peak", "Harborview",
    "Ironbridge", "Juniper", "Kestrel", "Lumenis", "Northgate", "Oakridge", "Pinecrest", "Quarryside", "Redfern",
    "Silverline", "Tidewater", "Upland", "Vantage Point", "Westbrook", "Yarrow", "Zephyr", "Bluefin", "Copperhill",
    "Evergreen", "Foxglove", "Highmark", "Larkspur", "Moorland", "Riverstone", "Stonegate", "Thistle", "Wildrose",
    "Ashgrove", "Beacon Hill", "Crestline", "Dunmore", "Glenwood", "Hollis", "Marlowe",
]
SECTORS = [  # sector, name suffixes, rating, drift, volatility
    ("Technology", ["Systems", "Semiconductor", "Software"], 4, 0.14, 0.32),
    ("Health care", ["Therapeutics", "Medical", "Biosciences"], 4, 0.05, 0.30),
    ("Financials", ["Bancorp", "Financial Group", "Capital"], 4, 0.08, 0.22),
    ("Energy", ["Energy", "Petroleum", "Resources"], 4, 0.03, 0.30),
    ("Industrials", ["Industries", "Aerospace", "Logistics"], 4, 0.08, 0.24),
    ("Consumer", ["Brands", "Foods", "Outfitters"], 3, 0.05, 0.18),
    ("Utilities", ["Power & Light", "Water Works", "Utilities"], 3, 0.04, 0.14),
    ("Speculative", ["Quantum Labs", "Fusion Dynamics", "Genomics"], 5, 0.10, 0.60),
]
INTL_STOCKS = [
    ("NRDH", "Nordhavn Shipping ADR", "Industrials", 4),
    ("SAKR", "Sakura Robotics ADR", "Technology", 4),
    ("BVRA", "Bavaria Motorenwerke ADR", "Consumer", 4),
    ("LUSO", "Lusitania Telecom ADR", "Communication", 4),
    ("MNDR", "Mandara Mining ADR", "Materials", 5),
    ("TGRL", "Tigerlily Semiconductor ADR", "Technology", 5),
    ("CLDN", "Caledonian Pharma ADR", "Health care", 4),
    ("PMPA", "Pampas Agro ADR", "Consumer", 5),
    ("HLVT", "Helvetia Precision ADR", "Industrials", 3),
    ("OSKA", "Osaka Consumer Holdings ADR", "Consumer", 3),
]
MODELS: list[tuple[str, str, str, dict[str, float], dict[str, str]]] = [
    ("CAPPRES", "Capital Preservation", "conservative",
     {"us_equity": 10, "intl_equity": 5, "fixed_income": 70, "real_estate": 5, "commodities": 0, "cash": 10},
     {"us_equity": "KDIV", "intl_equity": "KIDX", "fixed_income": "KSTB", "real_estate": "KREI", "commodities": "KCMD"}),
    ("CONSINC", "Conservative Income", "conservative",
     {"us_equity": 20, "intl_equity": 5, "fixed_income": 60, "real_estate": 5, "commodities": 0, "cash": 10},
     {"us_equity": "KDIV", "intl_equity": "KIDX", "fixed_income": "KAGG", "real_estate": "KREI", "commodities": "KCMD"}),
    ("BAL6040", "Balanced 60/40", "moderate",
     {"us_equity": 40, "intl_equity": 15, "fixed_income": 35, "real_estate": 5, "commodities": 0, "cash": 5},
     {"us_equity": "KTSM", "intl_equity": "KIDX", "fixed_income": "KAGG", "real_estate": "KREI", "commodities": "KCMD"}),
    ("MODGRO", "Moderate Growth", "moderate",
     {"us_equity": 45, "intl_equity": 15, "fixed_income": 30, "real_estate": 5, "commodities": 2, "cash": 3},
     {"us_equity": "KTSM", "intl_equity": "KIDX", "fixed_income": "KAGG", "real_estate": "KREI", "commodities": "MGLD"}),
    ("GRO8020", "Growth 80/20", "growth",
     {"us_equity": 55, "intl_equity": 20, "fixed_income": 15, "real_estate": 5, "commodities": 3, "cash": 2},
     {"us_equity": "KLGC", "intl_equity": "KIDX", "fixed_income": "KAGG", "real_estate": "KREI", "commodities": "KCMD"}),
    ("GLBGRO", "Global Growth", "growth",
     {"us_equity": 45, "intl_equity": 30, "fixed_income": 15, "real_estate": 5, "commodities": 3, "cash": 2},
     {"us_equity": "KTSM", "intl_equity": "KEMX", "fixed_income": "KCRP", "real_estate": "MGRE", "commodities": "KCMD"}),
    ("AGGEQ", "Aggressive Equity", "aggressive",
     {"us_equity": 65, "intl_equity": 25, "fixed_income": 0, "real_estate": 5, "commodities": 3, "cash": 2},
     {"us_equity": "KLGC", "intl_equity": "KEMX", "fixed_income": "KAGG", "real_estate": "KREI", "commodities": "KCMD"}),
    ("ALLEQG", "All-Equity Global", "aggressive",
     {"us_equity": 55, "intl_equity": 35, "fixed_income": 0, "real_estate": 5, "commodities": 3, "cash": 2},
     {"us_equity": "KTSM", "intl_equity": "KIDX", "fixed_income": "KAGG", "real_estate": "MGRE", "commodities": "MGLD"}),
]
PROFILES = ["conservative", "moderate", "growth", "aggressive"]
NICKNAMES = {
    "individual": ["Brokerage", "Main investment account", "Taxable account", "Individual brokerage"],
    "joint": ["Joint account", "Family account", "Joint brokerage"],
    "traditional_ira": ["Rollover IRA", "Traditional IRA", "IRA"],
    "roth_ira": ["Roth IRA", "Roth"],
    "trust": ["Family trust", "Living trust", "Trust account"],
}


def _money(x: float) -> float:
    return round(x + 0.0, 2)


def _ticker(prefix: str, used: set[str], rng: random.Random) -> str:
    letters = [c for c in prefix.upper() if c.isalpha()]
    for _ in range(200):
        size = rng.choice([3, 4, 4])
        picks = sorted(rng.sample(range(1, len(letters)), size - 1))
        ticker = letters[0] + "".join(letters[i] for i in picks)
        if ticker not in used:
            used.add(ticker)
            return ticker
    raise RuntimeError(prefix)


def _securities(rng: random.Random, days: list[date]) -> dict[str, Rec]:
    specs: list[tuple[str, str, str, str, str, int, float, float, float]] = []
    for sym, name, cls, sector, rating, mu, sigma, p0 in ETFS:
        specs.append((sym, name, "etf", cls, sector, rating, mu, sigma, p0))
    used = {e[0] for e in ETFS} | {s[0] for s in INTL_STOCKS}
    prefixes = list(STOCK_PREFIXES)
    rng.shuffle(prefixes)
    for i, prefix in enumerate(prefixes):
        sector, suffixes, rating, mu, sigma = SECTORS[i % len(SECTORS)]
        name = f"{prefix} {rng.choice(suffixes)}"
        sector_name = "Technology" if sector == "Speculative" else sector
        p0 = round(math.exp(rng.uniform(math.log(12), math.log(420))), 2)
        specs.append((_ticker(prefix, used, rng), name, "stock", "us_equity", sector_name, rating, mu + rng.uniform(-0.08, 0.08), sigma, p0))
    for sym, name, sector, rating in INTL_STOCKS:
        p0 = round(math.exp(rng.uniform(math.log(15), math.log(160))), 2)
        specs.append((sym, name, "stock", "intl_equity", sector, rating, rng.uniform(-0.05, 0.15), 0.28 + 0.06 * (rating - 3), p0))
    out: dict[str, Rec] = {}
    for sym, name, kind, cls, sector, rating, mu, sigma, p0 in specs:
        price = p0
        prices: dict[str, float] = {}
        daily_mu, daily_sigma = mu / 252, sigma / math.sqrt(252)
        for day in days:
            price = max(1.0, price * math.exp(rng.gauss(daily_mu - daily_sigma**2 / 2, daily_sigma)))
            prices[day.isoformat()] = round(price, 2)
        out[sym] = {"symbol": sym, "name": name, "kind": kind, "asset_class": cls, "sector": sector, "risk_rating": rating, "prices": prices}
    return out


def _answers_for(profile: str, rng: random.Random) -> list[str]:
    index = [p for _, p in PROFILE_BANDS].index(profile)
    low = QUESTION_COUNT if index == 0 else PROFILE_BANDS[index - 1][0] + 1
    target = rng.randint(low, PROFILE_BANDS[index][0])
    points = [1] * QUESTION_COUNT
    while sum(points) < target:
        i = rng.randrange(QUESTION_COUNT)
        if points[i] < 4:
            points[i] += 1
    answers = ["abcd"[p - 1] for p in points]
    assert profile_for(questionnaire_score(answers)) == profile, (profile, answers)
    return answers


class Sim:
    """One account's history, simulated forward."""

    def __init__(self, rng: random.Random, sec: dict[str, Rec], account: Rec) -> None:
        self.rng = rng
        self.sec = sec
        self.account = account
        self.holdings: dict[str, Rec] = {}
        self.trades: list[Rec] = []
        self.transfers: list[Rec] = []
        self.pending_deposits: list[tuple[date, float]] = []

    def price(self, symbol: str, day: date) -> float:
        price: float = self.sec[symbol]["prices"][min(day, LAST_CLOSE).isoformat()]
        return price

    def value(self, day: date) -> float:
        total: float = self.account["cash"] + sum(h["quantity"] * self.price(s, day) for s, h in self.holdings.items())
        return total

    def settle_deposits(self, day: date) -> None:
        keep = []
        for when, amount in self.pending_deposits:
            if when <= day:
                self.account["cash"] = _money(self.account["cash"] + amount)
            else:
                keep.append((when, amount))
        self.pending_deposits = keep

    def trade(self, day: date, symbol: str, side: str, quantity: int, fill_day: date) -> bool:
        if quantity <= 0:
            return False
        price = self.price(symbol, fill_day)
        commission = STOCK_COMMISSION if self.sec[symbol]["kind"] == "stock" else 0.0
        principal = _money(price * quantity)
        realized = None
        if side == "buy":
            net = _money(principal + commission)
            if net > self.account["cash"]:
                return False
            self.account["cash"] = _money(self.account["cash"] - net)
            held = self.holdings.setdefault(symbol, {"quantity": 0, "cost_basis": 0.0, "lots": []})
            held["quantity"] += quantity
            held["lots"] = add_lot(held["lots"], day.isoformat(), quantity, net)
            held["cost_basis"] = _money(sum(lot[2] for lot in held["lots"]))
        else:
            held = self.holdings[symbol]
            if quantity > held["quantity"]:
                return False
            net = _money(principal - commission)
            cost, held["lots"] = sell_lots(held["lots"], quantity)
            realized = _money(net - cost)
            held["quantity"] -= quantity
            held["cost_basis"] = _money(sum(lot[2] for lot in held["lots"]))
            if held["quantity"] == 0:
                del self.holdings[symbol]
            self.account["cash"] = _money(self.account["cash"] + net)
        settle = add_business_days(day, 1)
        self.trades.append({
            "account_id": self.account["account_id"], "symbol": symbol, "side": side, "quantity": quantity, "price": price,
            "commission": commission, "net_amount": net, "realized_gain": realized, "trade_date": day.isoformat(),
            "settlement_date": settle.isoformat(), "status": "settled" if settle <= TODAY else "pending_settlement",
            "origin": "client",
        })
        return True

    def transfer(self, day: date, direction: str, method: str, link: Rec, amount: float) -> None:
        settle = add_business_days(day, 0 if method == "wire" else (3 if direction == "deposit" else 2))
        fee = WIRE_FEE if method == "wire" and direction == "withdrawal" else 0.0
        if direction == "deposit":
            self.pending_deposits.append((settle, amount))
        else:
            if amount + fee > self.account["cash"]:
                return
            self.account["cash"] = _money(self.account["cash"] - amount - fee)
        self.transfers.append({
            "account_id": self.account["account_id"], "client_id": self.account["client_id"], "direction": direction,
            "method": method, "link_id": link["link_id"], "amount": amount, "fee": fee, "requested_date": day.isoformat(),
            "transfer_date": day.isoformat(), "settlement_date": settle.isoformat(),
            "status": "settled" if settle <= TODAY else "pending", "memo": "",
        })


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    days = business_days(HISTORY_START, LAST_CLOSE)
    sec = _securities(rng, days)
    by_class: dict[str, list[str]] = {}
    for sym, s in sorted(sec.items()):
        by_class.setdefault(s["asset_class"], []).append(sym)
    models: dict[str, Rec] = {
        mid: {"model_id": mid, "name": name, "risk_profile": prof, "weights": {k: float(v) for k, v in w.items()}, "core_funds": core}
        for mid, name, prof, w, core in MODELS
    }

    clients: dict[str, Rec] = {}
    accounts: dict[str, Rec] = {}
    holdings: dict[str, Rec] = {}
    trades: dict[str, Rec] = {}
    transfers: dict[str, Rec] = {}
    questionnaires: dict[str, Rec] = {}
    names: set[tuple[str, str]] = set()
    last4s: set[str] = set()
    emails: set[str] = set()
    link_no = 0

    for n in range(280):
        while True:
            first, last = rng.choice(FIRST), rng.choice(LAST)
            if (first, last) not in names:
                names.add((first, last))
                break
        cid = f"CL{40117 + n * 37}"
        age = rng.choice([rng.randint(28, 45), rng.randint(45, 64), rng.randint(60, 84)])
        dob = date(2026 - age, rng.randint(1, 12), rng.randint(1, 28))
        profile = rng.choices(PROFILES, weights=[22, 36, 28, 14])[0]
        if age > 70 and profile == "aggressive":
            profile = "moderate"
        since = date(rng.randint(2008, 2024), rng.randint(1, 12), rng.randint(1, 28))
        since = max(since, date(dob.year + 18, dob.month, dob.day))  # a client opens an account as an adult
        # the questionnaires: most recent sets the profile; some are over three years old
        stale = rng.random() < 0.16
        latest = (date(rng.randint(2019, 2022), rng.randint(1, 12), rng.randint(1, 28)) if stale
                  else TODAY - timedelta(days=rng.randint(20, 1000)))
        latest = max(latest, since)
        dates = [latest]
        if rng.random() < 0.45 and latest.year > since.year + 1:
            dates.insert(0, latest - timedelta(days=rng.randint(500, 1400)))
        for qd in dates:
            qprofile = profile if qd == latest else rng.choice(PROFILES)
            answers = _answers_for(qprofile, rng)
            if qd < since:
                continue  # drawn, but before the client joined: never taken
            qid = f"RQ{cid[2:]}-{qd.strftime('%Y%m%d')}"
            questionnaires[qid] = {
                "questionnaire_id": qid, "client_id": cid, "completed_date": qd.isoformat(), "answers": answers,
                "score": questionnaire_score(answers), "risk_profile": qprofile,
            }
        email = f"{first.lower()}.{last.lower()}@{rng.choice(EMAIL_DOMAINS)}"
        if email in emails:
            email = f"{first.lower()}{last.lower()}{rng.randint(2, 99)}@{rng.choice(EMAIL_DOMAINS)}"
        emails.add(email)
        links: list[Rec] = []
        for _ in range(rng.choice([1, 1, 2, 2, 3])):
            link_no += 1
            added = date(rng.randint(max(since.year, 2018), 2026), rng.randint(1, 12), rng.randint(1, 28))
            added = max(min(added, TODAY - timedelta(days=rng.randint(1, 40))), since)
            fresh = bool(links) and rng.random() < 0.3
            if fresh:
                added = TODAY - timedelta(days=rng.randint(1, 6))
            links.append({
                "link_id": f"BL{70300 + link_no * 11}", "bank_name": rng.choice(BANKS), "account_last4": f"{rng.randint(0, 9999):04d}",
                "holder_name": f"{first} {last}", "status": "pending_verification" if fresh and rng.random() < 0.7 else "verified",
                "added_date": added.isoformat(),
            })
        if links[0]["status"] != "verified":
            links[0]["status"] = "verified"
        client: Rec = {
            "client_id": cid, "first_name": first, "last_name": last, "date_of_birth": dob.isoformat(), "email": email,
            "phone": f"+1-{rng.choice(AREA)}-{dialable_exchange(rng.randint(200, 999))}-{rng.randint(0, 9999):04d}", "risk_profile": profile,
            "risk_profile_date": latest.isoformat(), "kyc_status": "expired" if rng.random() < 0.07 else "current",
            "advisor": rng.choice(ADVISORS), "client_since": since.isoformat(), "bank_links": links, "account_ids": [],
        }
        clients[cid] = client
        types = ["individual"] + rng.sample(["joint", "traditional_ira", "roth_ira", "trust", "individual"], rng.choice([0, 0, 1, 1, 2]))
        if age < 35 and "trust" in types:
            types.remove("trust")
        seen_individual = False
        ira_contributions: dict[int, float] = {}  # by calendar year, across the client's IRAs
        for t_i, atype in enumerate(types):
            if atype == "individual" and seen_individual:
                atype = "roth_ira"
            seen_individual = seen_individual or atype == "individual"
            if atype in [accounts[a]["type"] for a in client["account_ids"]]:
                continue
            aid = f"AC{int(cid[2:]) * 10 + t_i}"
            while True:
                last4 = f"{rng.randint(0, 9999):04d}"
                if last4 not in last4s:
                    last4s.add(last4)
                    break
            allowed = [m for m in models.values() if PROFILES.index(m["risk_profile"]) <= PROFILES.index(profile)]
            own = [m for m in allowed if m["risk_profile"] == profile]
            model = rng.choice(own if rng.random() < 0.8 else allowed)
            opened = max(since, date(2025, 5, 1) - timedelta(days=rng.randint(0, 3000)))
            account = {
                "account_id": aid, "client_id": cid, "account_number": f"HP-{rng.randint(1000, 9999)}-{last4}", "type": atype,
                "nickname": rng.choice(NICKNAMES[atype]), "status": "open", "opened_date": opened.isoformat(), "cash": 0.0,
                "model_id": model["model_id"], "last_rebalanced": None,
            }
            accounts[aid] = account
            client["account_ids"].append(aid)
            sim = Sim(rng, sec, account)
            _open(sim, model, by_class, rng, days[0])
            _history(sim, model, by_class, rng, days, links, ira_contributions, dob)
            for sym, h in sorted(sim.holdings.items()):
                hid = f"{aid}-{sym}"
                holdings[hid] = {"holding_id": hid, "account_id": aid, "symbol": sym, "quantity": h["quantity"], "cost_basis": h["cost_basis"],
                                 "lots": [{"acquired": a, "quantity": q, "cost": c} for a, q, c in h["lots"]]}
            for t in sim.trades:
                tid = f"TR{aid[2:]}{t['trade_date'].replace('-', '')[2:]}{t['symbol']}{t['side'][0].upper()}"
                t["trade_id"] = tid
                assert tid not in trades, tid
                trades[tid] = {"trade_id": tid, **t}
            for x in sim.transfers:
                xid = f"XF{aid[2:]}{x['requested_date'].replace('-', '')[2:]}{x['direction'][0].upper()}"
                assert xid not in transfers, xid
                transfers[xid] = {"transfer_id": xid, **x}
            if rng.random() < 0.35:
                account["last_rebalanced"] = rng.choice(days[: len(days) - 30]).isoformat()

    # a bank link was on file before a transfer first used it: an added date drawn after that moves to two weeks before
    first_use: dict[str, str] = {}
    for x in transfers.values():
        first_use[x["link_id"]] = min(first_use.get(x["link_id"], "9999"), x["requested_date"])
    for client in clients.values():
        for link in client["bank_links"]:
            if link["link_id"] in first_use:
                before_use = (date.fromisoformat(first_use[link["link_id"]]) - timedelta(days=14)).isoformat()
                link["added_date"] = min(link["added_date"], before_use)

    data = {
        "clients": clients, "accounts": accounts, "securities": sec, "holdings": holdings, "models": models,
        "trades": trades, "transfers": transfers, "questionnaires": questionnaires,
    }
    return FinanceDB.model_validate(data).model_dump(mode="json")


def _open(sim: Sim, model: Rec, by_class: dict[str, list[str]], rng: random.Random, day: date) -> None:
    """The account on the first day of history: cash in, then holdings near the model, with drift."""
    total = round(math.exp(rng.uniform(math.log(25_000), math.log(1_400_000))), -2)
    sim.account["cash"] = total
    for cls, weight in model["weights"].items():
        if cls == "cash" or weight == 0:
            continue
        target = total * max(0.0, weight + rng.uniform(-7, 7)) / 100
        core = model["core_funds"][cls]
        parts = [(core, rng.uniform(0.45, 1.0))]
        others = [s for s in by_class[cls] if s != core and sim.sec[s]["risk_rating"] <= 4]
        for sym in rng.sample(others, min(len(others), rng.choice([0, 1, 2, 3]))):
            parts.append((sym, rng.uniform(0.05, 0.3)))
        scale = sum(p for _, p in parts)
        for sym, share in parts:
            qty = int(target * share / scale // sim.price(sym, day))
            if qty > 0:
                cost = _money(qty * sim.price(sym, day) * rng.uniform(0.72, 1.08))
                sim.account["cash"] = _money(sim.account["cash"] - qty * sim.price(sym, day))
                # bought before the history starts: one lot, dated the day the account opened
                held = sim.holdings.setdefault(sym, {"quantity": 0, "cost_basis": 0.0, "lots": []})
                held["quantity"] += qty
                held["lots"] = add_lot(held["lots"], sim.account["opened_date"], qty, cost)
                held["cost_basis"] = _money(sum(lot[2] for lot in held["lots"]))
    sim.account["cash"] = max(_money(sim.account["cash"]), 0.0)


def _ira_room(contributed: dict[int, float], born: date, day: date) -> float:
    under_50, catch_up = IRA_LIMITS[day.year]
    return (catch_up if day.year - born.year >= 50 else under_50) - contributed.get(day.year, 0.0)


def _history(sim: Sim, model: Rec, by_class: dict[str, list[str]], rng: random.Random, days: list[date], links: list[Rec],
             ira_contributions: dict[int, float], born: date) -> None:
    events: list[tuple[date, str]] = []
    for _ in range(rng.randint(2, 8)):
        events.append((rng.choice(days[1:]), "trade"))
    for _ in range(rng.randint(0, 4)):
        events.append((rng.choice(days[1:]), "transfer"))
    if rng.random() < 0.12:
        events.append((TODAY, "sell_today"))
    if rng.random() < 0.12:
        events.append((rng.choice([date(2026, 6, 12), date(2026, 6, 15), TODAY]), "transfer"))
    used_days: set[tuple[date, str]] = set()
    verified = [ln for ln in links if ln["status"] == "verified"]
    for day, kind in sorted(events, key=lambda e: (e[0], e[1])):
        sim.settle_deposits(day)
        fill = min(day, LAST_CLOSE)
        if kind in ("trade", "sell_today"):
            side = "sell" if kind == "sell_today" or (sim.holdings and rng.random() < 0.4) else "buy"
            if side == "sell":
                if not sim.holdings:
                    continue
                sym = rng.choice(sorted(sim.holdings))
                qty = max(1, int(sim.holdings[sym]["quantity"] * rng.uniform(0.15, 1.0)))
            else:
                cls = rng.choice([c for c, w in model["weights"].items() if c != "cash" and w > 0])
                sym = rng.choice(by_class[cls])
                budget = min(sim.account["cash"], sim.value(fill) * rng.uniform(0.01, 0.06))
                qty = int(budget // sim.price(sym, fill))
            if (day, sym) in used_days:
                continue
            if sim.trade(day, sym, side, qty, fill):
                used_days.add((day, sym))
        else:
            direction = "withdrawal" if rng.random() < 0.4 else "deposit"
            if (day, direction) in used_days:
                continue
            method = "wire" if rng.random() < 0.15 else "ach"
            if direction == "deposit":
                amount = float(rng.choice([500, 1000, 2500, 5000, 10000, 20000, 25000, 50000]))
                if sim.account["type"] in IRA_TYPES:  # a contribution, within the year's limit
                    amount = min(amount, _ira_room(ira_contributions, born, day))
                    ira_contributions[day.year] = ira_contributions.get(day.year, 0.0) + max(amount, 0.0)
            else:
                amount = float(min(rng.choice([1000, 2000, 5000, 7500, 15000]), int(sim.account["cash"] * 0.8) // 100 * 100))
            if amount <= 0:
                continue
            used_days.add((day, direction))
            sim.transfer(day, direction, method, rng.choice(verified), amount)
    sim.settle_deposits(TODAY)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(dump_db(generate(args.seed)))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
