"""Harrow & Pike Wealth Management, the client desk: portfolios and holdings, trades, rebalancing
to a target allocation, transfers with settlement dates, risk questionnaires and performance.
The policy fixes the current time: Tuesday 2026-06-16, 10:30 Eastern.

The tools refuse only what the data makes impossible (no such record, not this client's, not
enough shares or cash, already settled or canceled). Every rule of the policy (suitability,
concentration, drift, stale profiles, cancellation windows, who may do what) is the agent's.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import area_codes_valid, not_after_now, ordered, plausible_age
from tests_domains.finance.market import (
    IRA_LIMITS,
    QUESTION_COUNT,
    Lot,
    add_business_days,
    add_lot,
    is_business_day,
    next_business_day,
    profile_for,
    questionnaire_score,
    sell_lots,
)
from tests_domains.finance.schema import (
    Account,
    Client,
    FinanceDB,
    Holding,
    Questionnaire,
    Security,
    TargetModel,
    TaxLot,
    Trade,
    Transfer,
)

DOMAIN = Domain("finance", FinanceDB, now=datetime(2026, 6, 16, 10, 30))

# The firm's price list (what a tool charges, never what it refuses).
STOCK_COMMISSION = 4.95
WIRE_WITHDRAWAL_FEE = 25.0
HISTORY_START = "2025-06-02"
LAST_SCHEDULE_DATE = date(2026, 12, 31)

ClientId = Annotated[str, Field(description="the client's id, e.g. 'CL40117' (from find_client)")]
AccountId = Annotated[str, Field(description="an account id, e.g. 'AC401171' (from list_accounts)")]
Symbol = Annotated[str, Field(description="a security's ticker symbol, e.g. 'KTSM'")]
IsoDate = Annotated[str, Field(description="a date as YYYY-MM-DD")]
Quantity = Annotated[int, Field(description="number of whole shares, at least 1")]


# -- helpers ---------------------------------------------------------------------------
def _money(value: float) -> float:
    return round(value + 0.0, 2)


def _pct(part: float, whole: float) -> float:
    return round(part / whole * 100 + 0.0, 2) if whole else 0.0


def _today() -> date:
    return DOMAIN.today


def _date(value: str, label: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except (AttributeError, TypeError, ValueError):
        raise ToolError(f"{label} must be a date as YYYY-MM-DD, got {value!r}") from None


def _security(db: FinanceDB, symbol: str) -> Security:
    found = db.securities.get(symbol.strip().upper())
    if found is None:
        raise ToolError(f"no security with symbol {symbol!r}; use search_securities")
    return found


def _last_close(security: Security) -> tuple[str, float]:
    day = max(security.prices)
    return day, security.prices[day]


def _close_on(security: Security, day: date) -> float:
    """The close of the latest business day on or before `day`."""
    iso = day.isoformat()
    if iso in security.prices:
        return security.prices[iso]
    earlier = [d for d in security.prices if d <= iso]
    if not earlier:
        raise ToolError(f"no price for {security.symbol} on or before {iso}")
    return security.prices[max(earlier)]


def _open_account(db: FinanceDB, account_id: str) -> Account:
    account = db.accounts.require(account_id)
    if account.status != "open":
        raise ToolError(f"account {account.account_id} is {account.status}")
    return account


def _holdings(db: FinanceDB, account_id: str) -> list[Holding]:
    return sorted(db.holdings.where(account_id=account_id), key=lambda h: h.symbol)


def _market_value(db: FinanceDB, account_id: str) -> float:
    return _money(sum(h.quantity * _last_close(db.securities.require(h.symbol))[1] for h in _holdings(db, account_id)))


def _unsettled_sales(db: FinanceDB, account_id: str) -> float:
    return _money(sum(t.net_amount for t in db.trades.where(account_id=account_id) if t.side == "sell" and t.status == "pending_settlement"))


def _pending(db: FinanceDB, account_id: str, direction: str) -> float:
    return _money(sum(t.amount for t in db.transfers.where(account_id=account_id) if t.direction == direction and t.status == "pending"))


def _commission(security: Security) -> float:
    return STOCK_COMMISSION if security.kind == "stock" else 0.0


def _class_values(db: FinanceDB, account: Account) -> dict[str, float]:
    values: dict[str, float] = {}
    for h in _holdings(db, account.account_id):
        sec = db.securities.require(h.symbol)
        values[sec.asset_class] = values.get(sec.asset_class, 0.0) + h.quantity * _last_close(sec)[1]
    return {k: _money(v) for k, v in values.items()}


def _check_quantity(quantity: int) -> None:
    if quantity < 1 or quantity > 10_000_000:
        raise ToolError("the quantity must be a whole number of shares from 1 to 10,000,000")


def _check_amount(amount: float) -> None:
    if not (math.isfinite(amount) and 0 < amount <= 100_000_000):
        raise ToolError("the amount must be a positive number of dollars")
    if round(amount, 2) != amount:
        raise ToolError("the amount must be in whole cents")


# -- clients and accounts --------------------------------------------------------------
@DOMAIN.tool(authenticates=True)
def find_client(
    db: FinanceDB,
    first_name: str,
    last_name: str,
    date_of_birth: IsoDate,
    account_last4: Annotated[str, Field(description="the last 4 digits of any of the client's account numbers")],
) -> Client:
    """Identify a caller: the client whose full name, date of birth and the last 4 digits of one
    of their account numbers all match. Returns the client's profile."""
    last4 = account_last4.strip()
    for client in db.clients.find(last_name=last_name, first_name=first_name, date_of_birth=date_of_birth.strip()):
        for account_id in sorted(client.account_ids):
            account = db.accounts.get(account_id)
            if account is not None and account.account_number.endswith("-" + last4):
                return client
    raise ToolError("no client matches that name, date of birth and account number; the caller is not identified")


@DOMAIN.tool
def get_client(db: FinanceDB, client_id: ClientId) -> dict[str, Any]:
    """Return a client's profile (contact details, risk profile and the date of the questionnaire
    that set it, KYC status, advisor, linked bank accounts, account ids) and their questionnaires."""
    client = db.clients.require(client_id)
    result: dict[str, Any] = client.model_dump(mode="json")
    result["questionnaires"] = [
        q.model_dump(mode="json") for q in sorted(db.questionnaires.where(client_id=client.client_id), key=lambda q: q.completed_date)
    ]
    return result


def _account_summary(db: FinanceDB, account: Account) -> dict[str, Any]:
    market = _market_value(db, account.account_id)
    unsettled = _unsettled_sales(db, account.account_id)
    model = db.models.require(account.model_id)
    return {
        **account.model_dump(mode="json"),
        "model_name": model.name,
        "market_value": market,
        "total_value": _money(market + account.cash),
        "unsettled_sale_proceeds": unsettled,
        "withdrawable_cash": _money(max(0.0, account.cash - unsettled)),
        "pending_deposits": _pending(db, account.account_id, "deposit"),
        "pending_withdrawals": _pending(db, account.account_id, "withdrawal"),
    }


@DOMAIN.tool
def list_accounts(db: FinanceDB, client_id: ClientId) -> list[dict[str, Any]]:
    """List a client's accounts: number, type, nickname, target model, cash, market value,
    total value, unsettled sale proceeds, withdrawable cash and pending transfers."""
    client = db.clients.require(client_id)
    return [_account_summary(db, db.accounts.require(a)) for a in sorted(client.account_ids)]


@DOMAIN.tool
def get_account(db: FinanceDB, account_id: AccountId) -> dict[str, Any]:
    """Return an account with every holding valued at the last close (quantity, price, market
    value, cost basis, unrealized gain, weight of the account's total value in percent), and
    the account's cash, withdrawable cash and pending transfers."""
    account = db.accounts.require(account_id)
    summary = _account_summary(db, account)
    total = summary["total_value"]
    rows = []
    for h in _holdings(db, account.account_id):
        sec = db.securities.require(h.symbol)
        day, price = _last_close(sec)
        value = _money(h.quantity * price)
        rows.append({
            "symbol": h.symbol, "name": sec.name, "kind": sec.kind, "asset_class": sec.asset_class, "quantity": h.quantity,
            "last_close": price, "price_date": day, "market_value": value, "cost_basis": h.cost_basis,
            "unrealized_gain": _money(value - h.cost_basis), "weight_pct": _pct(value, total),
        })
    summary["holdings"] = rows
    return summary


# -- securities and models -------------------------------------------------------------
def _security_row(sec: Security) -> dict[str, Any]:
    day, price = _last_close(sec)
    return {"symbol": sec.symbol, "name": sec.name, "kind": sec.kind, "asset_class": sec.asset_class, "sector": sec.sector,
            "risk_rating": sec.risk_rating, "last_close": price, "price_date": day}


@DOMAIN.tool
def search_securities(
    db: FinanceDB,
    query: Annotated[str, Field(description="part of a security's name or its symbol, case-insensitive")],
    asset_class: Annotated[
        Literal["us_equity", "intl_equity", "fixed_income", "real_estate", "commodities"] | None,
        Field(description="only securities of this asset class"),
    ] = None,
) -> list[dict[str, Any]]:
    """Search the securities the firm trades by name or symbol: kind, asset class, sector, risk
    rating (1 lowest to 5 highest) and last closing price. At most 20 results."""
    needle = " ".join(query.split()).casefold()
    if not needle:
        raise ToolError("give part of a name or a symbol")
    hits = [
        s for s in db.securities.values()
        if (needle in s.name.casefold() or needle == s.symbol.casefold()) and (asset_class is None or s.asset_class == asset_class)
    ]
    return [_security_row(s) for s in sorted(hits, key=lambda s: s.symbol)[:20]]


@DOMAIN.tool
def get_price_history(db: FinanceDB, symbol: Symbol, start_date: IsoDate, end_date: IsoDate) -> dict[str, Any]:
    """Closing prices of a security between two dates (business days only, both included), with
    the first and last close in the range and the price change in dollars and percent."""
    sec = _security(db, symbol)
    start, end = _date(start_date, "start_date"), _date(end_date, "end_date")
    if end < start:
        raise ToolError("end_date is before start_date")
    closes = {d: p for d, p in sorted(sec.prices.items()) if start.isoformat() <= d <= end.isoformat()}
    if not closes:
        raise ToolError(f"no closing prices for {sec.symbol} between {start} and {end} (history runs {min(sec.prices)} to {max(sec.prices)})")
    days = list(closes)
    first, last = closes[days[0]], closes[days[-1]]
    return {
        "symbol": sec.symbol, "first_date": days[0], "first_close": first, "last_date": days[-1], "last_close": last,
        "change": _money(last - first), "change_pct": _pct(last - first, first), "high": max(closes.values()),
        "low": min(closes.values()), "closes": closes if len(closes) <= 31 else dict(list(closes.items())[-31:]),
    }


@DOMAIN.tool
def list_models(db: FinanceDB) -> list[TargetModel]:
    """List the firm's target allocation models: name, the risk profile each is built for,
    weights by asset class (percent, cash included) and the core fund for each asset class."""
    return sorted(db.models.values(), key=lambda m: m.model_id)


def _allocation(db: FinanceDB, account: Account) -> dict[str, Any]:
    model = db.models.require(account.model_id)
    values = _class_values(db, account)
    total = _money(sum(values.values()) + account.cash)
    rows: list[dict[str, Any]] = []
    for cls, target in model.weights.items():
        value = account.cash if cls == "cash" else values.get(cls, 0.0)
        current = _pct(value, total)
        rows.append({"asset_class": cls, "value": _money(value), "current_pct": current, "target_pct": target,
                     "drift_pct_points": round(current - target + 0.0, 2)})
    widest = max(rows, key=lambda r: (abs(r["drift_pct_points"]), r["asset_class"]))
    return {
        "account_id": account.account_id, "model_id": model.model_id, "model_name": model.name, "total_value": total,
        "allocation": rows, "largest_drift_asset_class": widest["asset_class"],
        "largest_drift_pct_points": abs(widest["drift_pct_points"]), "last_rebalanced": account.last_rebalanced,
    }


@DOMAIN.tool
def get_allocation(db: FinanceDB, account_id: AccountId) -> dict[str, Any]:
    """Compare an account's current allocation with its target model: value, current percent,
    target percent and drift (current minus target, in percentage points) for each asset class
    and cash, and the largest drift in either direction."""
    return _allocation(db, db.accounts.require(account_id))


# -- trades ----------------------------------------------------------------------------
def _lots(held: Holding) -> list[Lot]:
    return [(lot.acquired, lot.quantity, lot.cost) for lot in held.lots]


def _set_lots(held: Holding, lots: list[Lot]) -> None:
    held.lots = [TaxLot(acquired=a, quantity=q, cost=c) for a, q, c in lots]
    held.cost_basis = _money(sum(c for _, _, c in lots))


def _trade_figures(db: FinanceDB, account: Account, sec: Security, side: str, quantity: int) -> dict[str, Any]:
    day, price = _last_close(sec)
    principal = _money(price * quantity)
    commission = _commission(sec)
    held = db.holdings.get(f"{account.account_id}-{sec.symbol}")
    held_qty = held.quantity if held is not None else 0
    if side == "sell" and quantity > held_qty:
        raise ToolError(f"account {account.account_id} holds {held_qty} shares of {sec.symbol}; it cannot sell {quantity}")
    market = _market_value(db, account.account_id)
    total_before = _money(market + account.cash)
    if side == "buy":
        net = _money(principal + commission)
        if net > account.cash:
            raise ToolError(f"not enough cash: the buy needs {net:.2f} and the account has {account.cash:.2f}")
        cash_after = _money(account.cash - net)
        qty_after = held_qty + quantity
        realized = None
    else:
        net = _money(principal - commission)
        cash_after = _money(account.cash + net)
        qty_after = held_qty - quantity
        cost = sell_lots(_lots(held), quantity)[0] if held is not None else 0.0
        realized = _money(net - cost)
    total_after = _money(total_before - commission)
    position_after = _money(qty_after * price)
    class_after = _money(_class_values(db, account).get(sec.asset_class, 0.0) + (principal if side == "buy" else -principal))
    return {
        "account_id": account.account_id, "symbol": sec.symbol, "name": sec.name, "kind": sec.kind, "risk_rating": sec.risk_rating,
        "side": side, "quantity": quantity, "price": price, "price_date": day, "principal": principal, "commission": commission,
        "total_cost" if side == "buy" else "net_proceeds": net, "estimated_realized_gain": realized,
        "cash_after": cash_after, "shares_after": qty_after, "position_value_after": position_after,
        "position_weight_after_pct": _pct(position_after, total_after), "asset_class": sec.asset_class,
        "asset_class_weight_after_pct": _pct(class_after, total_after), "account_value_after": total_after,
        "settlement_date": add_business_days(_today(), 1).isoformat(),
    }


@DOMAIN.tool
def preview_trade(db: FinanceDB, account_id: AccountId, symbol: Symbol, side: Literal["buy", "sell"], quantity: Quantity) -> dict[str, Any]:
    """Preview a market order at the last closing price (nothing is traded): principal,
    commission, total cost of a buy or net proceeds of a sale, estimated realized gain of a sale
    (its shares taken from the oldest tax lots first),
    cash after, the position's and its asset class's weight of the account after the trade
    (percent), and the settlement date."""
    _check_quantity(quantity)
    return _trade_figures(db, _open_account(db, account_id), _security(db, symbol), side, quantity)


def _execute(db: FinanceDB, account: Account, sec: Security, side: Literal["buy", "sell"], quantity: int, origin: Literal["client", "rebalance"]) -> Trade:
    figures = _trade_figures(db, account, sec, side, quantity)
    net = figures["total_cost" if side == "buy" else "net_proceeds"]
    hid = f"{account.account_id}-{sec.symbol}"
    held = db.holdings.get(hid)
    if side == "buy":
        if held is None:
            held = db.holdings[hid] = Holding(holding_id=hid, account_id=account.account_id, symbol=sec.symbol, quantity=0, cost_basis=0.0, lots=[])
        held.quantity += quantity
        _set_lots(held, add_lot(_lots(held), _today().isoformat(), quantity, net))
        account.cash = _money(account.cash - net)
    else:
        assert held is not None
        if quantity == held.quantity:
            del db.holdings[hid]
        else:
            held.quantity -= quantity
            _set_lots(held, sell_lots(_lots(held), quantity)[1])
        account.cash = _money(account.cash + net)
    parts: list[Any] = [account.account_id, sec.symbol, side, quantity] + (["rebalance"] if origin == "rebalance" else [])
    trade_id = db.trades.new_key("TRD", *parts)
    trade = Trade(
        trade_id=trade_id, account_id=account.account_id, symbol=sec.symbol, side=side, quantity=quantity, price=figures["price"],
        commission=figures["commission"], net_amount=net, realized_gain=figures["estimated_realized_gain"],
        trade_date=_today().isoformat(), settlement_date=figures["settlement_date"], status="pending_settlement", origin=origin,
    )
    db.trades[trade_id] = trade
    return trade


@DOMAIN.tool(write=True)
def place_trade(db: FinanceDB, account_id: AccountId, symbol: Symbol, side: Literal["buy", "sell"], quantity: Quantity) -> dict[str, Any]:
    """Place a market order for whole shares, filled at the last closing price. A buy is paid
    from the account's cash (stock trades carry a commission); a sale's proceeds go to cash and
    settle on the settlement date. Returns the trade and the account's cash after."""
    _check_quantity(quantity)
    account = _open_account(db, account_id)
    trade = _execute(db, account, _security(db, symbol), side, quantity, "client")
    return {"trade": trade, "cash_after": account.cash}


@DOMAIN.tool
def list_trades(
    db: FinanceDB,
    account_id: AccountId,
    start_date: Annotated[str | None, Field(description="earliest trade date, YYYY-MM-DD (inclusive)")] = None,
    end_date: Annotated[str | None, Field(description="latest trade date, YYYY-MM-DD (inclusive)")] = None,
    symbol: Annotated[str | None, Field(description="only trades of this symbol")] = None,
) -> dict[str, Any]:
    """An account's trade history, newest first (at most 40), with the count of matches."""
    account = db.accounts.require(account_id)
    hits = list(db.trades.where(account_id=account.account_id))
    if start_date:
        hits = [t for t in hits if t.trade_date >= _date(start_date, "start_date").isoformat()]
    if end_date:
        hits = [t for t in hits if t.trade_date <= _date(end_date, "end_date").isoformat()]
    if symbol:
        hits = [t for t in hits if t.symbol == symbol.strip().upper()]
    hits.sort(key=lambda t: (t.trade_date, t.trade_id), reverse=True)
    return {"count": len(hits), "trades": hits[:40]}


@DOMAIN.tool
def realized_gains(db: FinanceDB, account_id: AccountId, year: Annotated[int, Field(description="calendar year, e.g. 2026")]) -> dict[str, Any]:
    """Realized gains and losses of an account's sales in a calendar year (by trade date), each
    sale's cost taken from the oldest tax lots first (FIFO): each sale, the total gains, the
    total losses and the net."""
    account = db.accounts.require(account_id)
    sales = sorted(
        (t for t in db.trades.where(account_id=account.account_id) if t.side == "sell" and t.trade_date.startswith(f"{year:04d}-")),
        key=lambda t: (t.trade_date, t.trade_id),
    )
    gains = _money(sum(t.realized_gain or 0.0 for t in sales if (t.realized_gain or 0.0) > 0))
    losses = _money(sum(t.realized_gain or 0.0 for t in sales if (t.realized_gain or 0.0) < 0))
    return {
        "account_id": account.account_id, "year": year,
        "sales": [{"trade_id": t.trade_id, "trade_date": t.trade_date, "symbol": t.symbol, "quantity": t.quantity,
                   "net_proceeds": t.net_amount, "realized_gain": t.realized_gain} for t in sales],
        "total_gains": gains, "total_losses": losses, "net_realized": _money(gains + losses),
    }


# -- rebalancing -----------------------------------------------------------------------
def _plan(db: FinanceDB, account: Account) -> list[tuple[Security, Literal["buy", "sell"], int]]:
    model = db.models.require(account.model_id)
    values = _class_values(db, account)
    total = _money(sum(values.values()) + account.cash)
    sells: list[tuple[Security, Literal["buy", "sell"], int]] = []
    buys: list[tuple[Security, Literal["buy", "sell"], int]] = []
    classes = sorted(set(values) | {c for c in model.weights if c != "cash"})
    for cls in classes:
        diff = total * model.weights.get(cls, 0.0) / 100 - values.get(cls, 0.0)
        if diff > 0:
            core = db.securities.require(model.core_funds[cls])
            qty = int(diff // _last_close(core)[1])
            if qty > 0:
                buys.append((core, "buy", qty))
        elif diff < 0:
            remaining = -diff
            held = [(h, db.securities.require(h.symbol)) for h in _holdings(db, account.account_id)]
            held = [(h, s) for h, s in held if s.asset_class == cls]
            held.sort(key=lambda hs: (-hs[0].quantity * _last_close(hs[1])[1], hs[1].symbol))
            for h, sec in held:
                price = _last_close(sec)[1]
                qty = min(h.quantity, int(remaining // price))
                if qty > 0:
                    sells.append((sec, "sell", qty))
                    remaining -= qty * price
    # the buys must fit the cash the plan leaves: trim the largest buy while they do not
    def cash_after(plan: list[tuple[Security, Literal["buy", "sell"], int]]) -> float:
        cash = account.cash
        for sec, side, qty in plan:
            principal = _last_close(sec)[1] * qty
            cash += principal - _commission(sec) if side == "sell" else -(principal + _commission(sec))
        return cash

    while buys and cash_after(sells + buys) < 0:
        i = max(range(len(buys)), key=lambda k: (buys[k][2] * _last_close(buys[k][0])[1], buys[k][0].symbol))
        sec, side, qty = buys[i]
        buys[i] = (sec, side, qty - 1)
        buys = [b for b in buys if b[2] > 0]
    return sells + buys


@DOMAIN.tool
def preview_rebalance(db: FinanceDB, account_id: AccountId) -> dict[str, Any]:
    """Preview rebalancing an account to its target model (nothing is traded): the current
    allocation and drift, and the plan: sales from the largest holdings of each overweight asset
    class and purchases of the model's core fund for each underweight one (whole shares at the
    last close), with the estimated total bought, total sold, commissions and cash after."""
    account = _open_account(db, account_id)
    allocation = _allocation(db, account)
    plan = _plan(db, account)
    rows = []
    bought = sold = commissions = 0.0
    for sec, side, qty in plan:
        price = _last_close(sec)[1]
        principal = _money(price * qty)
        commission = _commission(sec)
        commissions += commission
        if side == "buy":
            bought += principal
        else:
            sold += principal
        rows.append({"symbol": sec.symbol, "name": sec.name, "asset_class": sec.asset_class, "side": side, "quantity": qty,
                     "price": price, "principal": principal, "commission": commission})
    return {
        **allocation, "trades": rows, "total_bought": _money(bought), "total_sold": _money(sold),
        "total_commissions": _money(commissions), "cash_after": _money(account.cash + sold - bought - commissions),
    }


@DOMAIN.tool(write=True)
def rebalance_account(db: FinanceDB, account_id: AccountId) -> dict[str, Any]:
    """Rebalance an account to its target model: places every trade of preview_rebalance's plan
    (sales first, then purchases) and records today as the last rebalance date. Returns the
    trades and the account's cash after."""
    account = _open_account(db, account_id)
    plan = _plan(db, account)
    if not plan:
        raise ToolError(f"account {account.account_id} already matches its model to within one share; there is nothing to trade")
    trades = [_execute(db, account, sec, side, qty, "rebalance") for sec, side, qty in plan]
    account.last_rebalanced = _today().isoformat()
    return {"trades": trades, "cash_after": account.cash, "last_rebalanced": account.last_rebalanced}


@DOMAIN.tool(write=True)
def set_target_model(
    db: FinanceDB,
    account_id: AccountId,
    model_id: Annotated[str, Field(description="a model id from list_models, e.g. 'BAL6040'")],
) -> dict[str, Any]:
    """Change the target allocation model an account follows (no trades are placed)."""
    account = _open_account(db, account_id)
    model = db.models.require(model_id.strip().upper())
    if account.model_id == model.model_id:
        raise ToolError(f"account {account.account_id} already follows {model.name}")
    previous = account.model_id
    account.model_id = model.model_id
    return {"account_id": account.account_id, "previous_model_id": previous, "model_id": model.model_id, "model_name": model.name}


# -- transfers -------------------------------------------------------------------------
def _transfer_figures(
    db: FinanceDB, account: Account, direction: str, method: str, link_id: str, amount: float, transfer_date: str | None
) -> dict[str, Any]:
    _check_amount(amount)
    client = db.clients.require(account.client_id)
    link = next((ln for ln in client.bank_links if ln.link_id == link_id.strip()), None)
    if link is None:
        raise ToolError(f"bank link {link_id!r} is not linked to the owner of account {account.account_id}")
    requested = _date(transfer_date, "transfer_date") if transfer_date else _today()
    if requested < _today():
        raise ToolError("transfer_date is in the past")
    if requested > LAST_SCHEDULE_DATE:
        raise ToolError(f"transfers can be scheduled up to {LAST_SCHEDULE_DATE.isoformat()}")
    sent = next_business_day(requested)
    days = 0 if method == "wire" else 3 if direction == "deposit" else 2
    settle = add_business_days(sent, days)
    fee = WIRE_WITHDRAWAL_FEE if method == "wire" and direction == "withdrawal" else 0.0
    unsettled = _unsettled_sales(db, account.account_id)
    if direction == "withdrawal" and _money(amount + fee) > account.cash:
        raise ToolError(f"not enough cash: the withdrawal and its fee come to {amount + fee:.2f} and the account has {account.cash:.2f}")
    cash_after = _money(account.cash - amount - fee) if direction == "withdrawal" else account.cash
    return {
        "account_id": account.account_id, "direction": direction, "method": method, "amount": _money(amount), "fee": fee,
        "bank": {"link_id": link.link_id, "bank_name": link.bank_name, "account_last4": link.account_last4, "status": link.status},
        "transfer_date": sent.isoformat(), "settlement_date": settle.isoformat(),
        "rolled_to_next_business_day": not is_business_day(requested),
        "cash_after": cash_after, "withdrawable_cash_after": _money(max(0.0, cash_after - unsettled)),
    }


Direction = Annotated[Literal["deposit", "withdrawal"], Field(description="deposit: from the bank into the account; withdrawal: out to the bank")]
Method = Annotated[Literal["ach", "wire"], Field(description="ach (bank transfer) or wire")]
LinkId = Annotated[str, Field(description="the linked bank account's id, e.g. 'BL70311' (from get_client)")]
TransferDate = Annotated[str | None, Field(description="the day to send it, YYYY-MM-DD; omitted: today")]


@DOMAIN.tool
def preview_transfer(
    db: FinanceDB, account_id: AccountId, direction: Direction, method: Method, link_id: LinkId, amount: float, transfer_date: TransferDate = None
) -> dict[str, Any]:
    """Preview a deposit or withdrawal (nothing is moved): the business day it is sent, its
    settlement date, the fee, and the account's cash and withdrawable cash after."""
    return _transfer_figures(db, _open_account(db, account_id), direction, method, link_id, amount, transfer_date)


@DOMAIN.tool(write=True)
def request_transfer(
    db: FinanceDB,
    account_id: AccountId,
    direction: Direction,
    method: Method,
    link_id: LinkId,
    amount: float,
    transfer_date: TransferDate = None,
    memo: Annotated[FreeText | None, Field(description="a note in the client's words (optional)")] = None,
) -> dict[str, Any]:
    """Request a deposit from, or a withdrawal to, a linked bank account. A withdrawal and its
    fee leave the account's cash at once; a deposit reaches cash when it settles."""
    account = _open_account(db, account_id)
    figures = _transfer_figures(db, account, direction, method, link_id, amount, transfer_date)
    transfer_id = db.transfers.new_key("XFR", account.account_id, direction, method, figures["bank"]["link_id"], figures["amount"], figures["transfer_date"])
    transfer = Transfer(
        transfer_id=transfer_id, account_id=account.account_id, client_id=account.client_id, direction=direction, method=method,
        link_id=figures["bank"]["link_id"], amount=figures["amount"], fee=figures["fee"], requested_date=_today().isoformat(),
        transfer_date=figures["transfer_date"], settlement_date=figures["settlement_date"], status="pending", memo=memo or "",
    )
    db.transfers[transfer_id] = transfer
    if direction == "withdrawal":
        account.cash = figures["cash_after"]
    return {"transfer": transfer, "cash_after": account.cash}


@DOMAIN.tool
def list_transfers(
    db: FinanceDB,
    account_id: AccountId,
    status: Annotated[Literal["pending", "settled", "canceled"] | None, Field(description="only transfers with this status")] = None,
) -> dict[str, Any]:
    """An account's deposits and withdrawals, newest first (at most 40), with the count of matches."""
    account = db.accounts.require(account_id)
    hits = [t for t in db.transfers.where(account_id=account.account_id) if status is None or t.status == status]
    hits.sort(key=lambda t: (t.requested_date, t.transfer_id), reverse=True)
    return {"count": len(hits), "transfers": hits[:40]}


@DOMAIN.tool(write=True)
def cancel_transfer(db: FinanceDB, transfer_id: Annotated[str, Field(description="the transfer's id (from list_transfers)")]) -> dict[str, Any]:
    """Cancel a pending transfer. A withdrawal's amount and fee go back to the account's cash."""
    transfer = db.transfers.require(transfer_id)
    if transfer.status != "pending":
        raise ToolError(f"transfer {transfer.transfer_id} is {transfer.status}; only a pending transfer can be canceled")
    account = db.accounts.require(transfer.account_id)
    transfer.status = "canceled"
    if transfer.direction == "withdrawal":
        account.cash = _money(account.cash + transfer.amount + transfer.fee)
    return {"transfer": transfer, "cash_after": account.cash}


# -- performance -----------------------------------------------------------------------
def _state_on(db: FinanceDB, account: Account, day: date) -> tuple[dict[str, int], float]:
    """Holdings and cash at the end of `day`, rebuilt from today's by undoing what came after."""
    iso = day.isoformat()
    quantities = {h.symbol: h.quantity for h in _holdings(db, account.account_id)}
    cash = account.cash
    for t in db.trades.where(account_id=account.account_id):
        if t.trade_date > iso:
            if t.side == "buy":
                quantities[t.symbol] = quantities.get(t.symbol, 0) - t.quantity
                cash += t.net_amount
            else:
                quantities[t.symbol] = quantities.get(t.symbol, 0) + t.quantity
                cash -= t.net_amount
    for x in db.transfers.where(account_id=account.account_id):
        if x.direction == "deposit" and x.status == "settled" and x.settlement_date > iso:
            cash -= x.amount
        if x.direction == "withdrawal" and x.status != "canceled" and x.requested_date > iso:
            cash += x.amount + x.fee
    return {s: q for s, q in quantities.items() if q}, _money(cash)


def _value_on(db: FinanceDB, account: Account, day: date) -> float:
    quantities, cash = _state_on(db, account, day)
    return _money(cash + sum(q * _close_on(db.securities.require(s), day) for s, q in sorted(quantities.items())))


@DOMAIN.tool
def performance_report(db: FinanceDB, account_id: AccountId, start_date: IsoDate, end_date: IsoDate) -> dict[str, Any]:
    """An account's performance over a period, valued at closing prices: value at the end of
    the start date and of the end date, deposits and withdrawals in between, investment gain
    (change in value less net deposits) and the money-weighted return in percent (Modified Dietz:
    each deposit or withdrawal weighted by the share of the period it was in the account).
    Dates from 2025-06-02 to today."""
    account = db.accounts.require(account_id)
    start, end = _date(start_date, "start_date"), _date(end_date, "end_date")
    if not (HISTORY_START <= start.isoformat() < end.isoformat() <= _today().isoformat()):
        raise ToolError(f"the period must run forward from {HISTORY_START} or later to {_today().isoformat()} or earlier")
    begin_value, end_value = _value_on(db, account, start), _value_on(db, account, end)
    span = (end - start).days
    flows: list[tuple[date, float]] = []
    for x in db.transfers.where(account_id=account.account_id):
        if x.direction == "deposit" and x.status == "settled":
            flows.append((date.fromisoformat(x.settlement_date), x.amount))
        if x.direction == "withdrawal" and x.status != "canceled":
            flows.append((date.fromisoformat(x.requested_date), -x.amount))
    flows = [(d, a) for d, a in flows if start < d <= end]
    deposits = _money(sum(a for _, a in flows if a > 0))
    withdrawals = _money(-sum(a for _, a in flows if a < 0))
    net = _money(deposits - withdrawals)
    gain = _money(end_value - begin_value - net)
    weighted = sum(a * (end - d).days / span for d, a in flows)
    base = begin_value + weighted
    return {
        "account_id": account.account_id, "start_date": start.isoformat(), "end_date": end.isoformat(),
        "starting_value": begin_value, "ending_value": end_value, "deposits": deposits, "withdrawals": withdrawals,
        "net_contributions": net, "investment_gain": gain, "return_pct": _pct(gain, base) if base > 0 else None,
    }


# -- the client's profile --------------------------------------------------------------
Answer = Literal["a", "b", "c", "d"]


@DOMAIN.tool(write=True)
def submit_risk_questionnaire(
    db: FinanceDB,
    client_id: ClientId,
    answers: Annotated[list[Answer], Field(description="the client's answers to the six questions of the policy, in order, one letter each")],
) -> dict[str, Any]:
    """Record a completed risk questionnaire: scores the answers, sets the client's risk profile
    from the score and dates it today. Returns the score and the resulting profile."""
    client = db.clients.require(client_id)
    if len(answers) != QUESTION_COUNT:
        raise ToolError(f"the questionnaire has {QUESTION_COUNT} questions; got {len(answers)} answers")
    score = questionnaire_score(list(answers))
    profile = profile_for(score)
    qid = db.questionnaires.new_key("RQ", client.client_id, _today().isoformat(), *answers)
    db.questionnaires[qid] = Questionnaire(
        questionnaire_id=qid, client_id=client.client_id, completed_date=_today().isoformat(), answers=list(answers),
        score=score, risk_profile=profile,
    )
    previous = client.risk_profile
    client.risk_profile = profile  # type: ignore[assignment]
    client.risk_profile_date = _today().isoformat()
    return {"questionnaire_id": qid, "score": score, "risk_profile": profile, "previous_risk_profile": previous}


@DOMAIN.tool(write=True)
def update_contact_info(
    db: FinanceDB,
    client_id: ClientId,
    email: Annotated[str | None, Field(description="new email address")] = None,
    phone: Annotated[str | None, Field(description="new phone number, e.g. +1-212-555-0143")] = None,
) -> Client:
    """Change a client's email address and/or phone number."""
    client = db.clients.require(client_id)
    if email is None and phone is None:
        raise ToolError("give an email or a phone number to change")
    if email is not None:
        email = email.strip().lower()
        if email.count("@") != 1 or "." not in email.split("@")[1] or " " in email:
            raise ToolError(f"{email!r} is not a valid email address")
        client.email = email
    if phone is not None:
        if any(not (c.isdigit() or c in "+-(). ") for c in phone):
            raise ToolError(f"{phone!r} is not a valid US phone number")
        digits = "".join(c for c in phone if c.isdigit())
        if len(digits) == 10:
            digits = "1" + digits
        if len(digits) != 11 or digits[0] != "1":
            raise ToolError(f"{phone!r} is not a valid US phone number")
        client.phone = f"+1-{digits[1:4]}-{digits[4:7]}-{digits[7:]}"
    return client


# -- the policy's order (rule 3.2): a client who retakes the questionnaire does so because the profile is
# stale or has changed, and no purchase, model change or rebalance may come before the new profile. The
# tools do not record which profile a change was made under, so the order is graded here. (Sales before
# the questionnaire are allowed: no task may both sell and take the questionnaire with this rule as is.)
DOMAIN.order("submit_risk_questionnaire", "set_target_model")
DOMAIN.order("submit_risk_questionnaire", "rebalance_account")
DOMAIN.order("submit_risk_questionnaire", "place_trade")
# 2.1: the client hears the figure of a change before it is made, from its preview; 5.2-5.3: the drift is read and
# the plan shown before a rebalance; 5.4: a model change comes before the rebalance to it.
DOMAIN.order("preview_trade", "place_trade")
DOMAIN.order("preview_transfer", "request_transfer")
DOMAIN.order("preview_rebalance", "rebalance_account")
DOMAIN.order("set_target_model", "rebalance_account")


# -- data invariants: the clock, ages, places and money the policy relies on -------------------
DOMAIN.invariants(
    plausible_age("clients", "date_of_birth", low=18, high=105),
    plausible_age("clients", "date_of_birth", at="client_since", low=18),
    ordered("clients", "client_since", "bank_links[].added_date"),
    ordered("questionnaires", "client_since", "completed_date", via=("client_id", "clients")),
    not_after_now("clients", "client_since"),
    not_after_now("clients", "risk_profile_date"),
    not_after_now("accounts", "opened_date"),
    not_after_now("accounts", "last_rebalanced"),
    ordered("accounts", "opened_date", "last_rebalanced"),
    not_after_now("trades", "trade_date"),
    ordered("trades", "trade_date", "settlement_date"),
    not_after_now("transfers", "requested_date"),
    ordered("transfers", "requested_date", "settlement_date"),
    not_after_now("questionnaires", "completed_date"),
    area_codes_valid("clients", "phone"),
)


@DOMAIN.invariant
def ira_contributions_within_limit(db: FinanceDB, now: datetime) -> Iterator[str]:
    """clients: a year's deposits into a client's IRAs stay within the IRS contribution limit"""
    totals: dict[tuple[str, int], float] = {}
    for x in db.transfers.values():
        account = db.accounts.require(x.account_id)
        if x.direction == "deposit" and x.status != "canceled" and account.type in ("traditional_ira", "roth_ira"):
            key = (account.client_id, int(x.requested_date[:4]))
            totals[key] = totals.get(key, 0.0) + x.amount
    for (client_id, year), total in sorted(totals.items()):
        born = date.fromisoformat(db.clients.require(client_id).date_of_birth)
        under_50, catch_up = IRA_LIMITS[year]
        limit = catch_up if year - born.year >= 50 else under_50
        if total > limit:
            yield f"clients[{client_id!r}]: {total:.2f} deposited into IRAs in {year}, over the {limit:.2f} limit"


@DOMAIN.invariant
def links_on_file_before_use(db: FinanceDB, now: datetime) -> Iterator[str]:
    """transfers: the bank link a transfer uses was on file when it was requested"""
    added = {link.link_id: link.added_date for client in db.clients.values() for link in client.bank_links}
    for key, x in db.transfers.items():
        if added[x.link_id] > x.requested_date:
            yield f"transfers[{key!r}]: requested {x.requested_date} through {x.link_id}, added {added[x.link_id]}"


@DOMAIN.invariant
def holdings_equal_their_lots(db: FinanceDB, now: datetime) -> Iterator[str]:
    """holdings: the shares and the cost basis are the sums of the open tax lots"""
    for key, held in db.holdings.items():
        shares, cost = sum(lot.quantity for lot in held.lots), _money(sum(lot.cost for lot in held.lots))
        if shares != held.quantity or cost != held.cost_basis:
            yield f"holdings[{key!r}]: {held.quantity} shares costing {held.cost_basis}, but the lots hold {shares} costing {cost}"
