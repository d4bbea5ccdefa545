"""Harrow & Pike Wealth Management, the client desk: the database (one table per field)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, FreeText, Table, Unordered

RiskProfile = Literal["conservative", "moderate", "growth", "aggressive"]
AssetClass = Literal["us_equity", "intl_equity", "fixed_income", "real_estate", "commodities"]
AccountType = Literal["individual", "joint", "traditional_ira", "roth_ira", "trust"]


class BankLink(BaseModel):
    """An outside bank account linked for deposits and withdrawals."""

    link_id: str
    bank_name: str
    account_last4: str
    holder_name: str
    status: Literal["verified", "pending_verification"]
    added_date: str


class Client(BaseModel):
    client_id: str
    first_name: str
    last_name: str
    date_of_birth: Confidential[str]  # YYYY-MM-DD
    email: str
    phone: str
    risk_profile: RiskProfile
    risk_profile_date: str  # date of the questionnaire that set it
    kyc_status: Literal["current", "expired"]
    advisor: str
    client_since: str
    bank_links: Unordered[BankLink]
    account_ids: Unordered[str]


class Account(BaseModel):
    account_id: str
    client_id: str
    account_number: str  # printed on statements, e.g. "HP-5521-0397"
    type: AccountType
    nickname: str
    status: Literal["open", "closed"]
    opened_date: str
    cash: float  # settled and unsettled cash in the account's sweep
    model_id: str  # the target allocation the account follows
    last_rebalanced: str | None = None


class Security(BaseModel):
    symbol: str
    name: str
    kind: Literal["stock", "etf"]
    asset_class: AssetClass
    sector: str
    risk_rating: int  # 1 (lowest) to 5 (highest)
    prices: dict[str, float]  # closing price by business day, YYYY-MM-DD


class TaxLot(BaseModel):
    acquired: str  # the purchase's trade date
    quantity: int
    cost: float  # what the lot's shares cost, commission included


class Holding(BaseModel):
    holding_id: str  # "<account_id>-<symbol>"
    account_id: str
    symbol: str
    quantity: int
    cost_basis: float  # total cost of the shares held: the sum of the open lots
    lots: list[TaxLot]  # open tax lots, oldest first; a sale closes the oldest first (FIFO)


class TargetModel(BaseModel):
    model_id: str
    name: str
    risk_profile: RiskProfile  # the riskiest profile it is built for
    weights: dict[str, float]  # percent by asset class, plus "cash"; sums to 100
    core_funds: dict[str, str]  # asset class -> the fund a rebalance trades


class Trade(BaseModel):
    trade_id: str
    account_id: str
    symbol: str
    side: Literal["buy", "sell"]
    quantity: int
    price: float
    commission: float
    net_amount: float  # buy: principal + commission paid; sell: principal - commission received
    realized_gain: float | None = None  # sells only
    trade_date: str
    settlement_date: str
    status: Literal["settled", "pending_settlement"]
    origin: Literal["client", "rebalance"]


class Transfer(BaseModel):
    transfer_id: str
    account_id: str
    client_id: str
    direction: Literal["deposit", "withdrawal"]
    method: Literal["ach", "wire"]
    link_id: str
    amount: float
    fee: float
    requested_date: str
    transfer_date: str  # the business day the transfer is sent
    settlement_date: str
    status: Literal["pending", "settled", "canceled"]
    memo: FreeText = ""


class Questionnaire(BaseModel):
    questionnaire_id: str
    client_id: str
    completed_date: str
    answers: list[str]  # one letter a-d per question, in question order
    score: int
    risk_profile: RiskProfile


class FinanceDB(BaseModel):
    clients: Table[Client]
    accounts: Table[Account]
    securities: Table[Security]
    holdings: Table[Holding]
    models: Table[TargetModel]
    trades: Table[Trade]
    transfers: Table[Transfer]
    questionnaires: Table[Questionnaire]
