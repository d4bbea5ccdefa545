"""Builds fixtures/finance/tasks.json with a `TaskWriter`: one function per kind of request,
concrete clients and records picked from the initial DB with a seeded RNG. Every gold call runs
as it is added, and every figure a task asks for is read from what the tools returned.

    python -m tests_domains.finance.make_tasks
"""

# Each candidate's task is written by a local make() that b.attempt() calls at once, inside the
# loop iteration that defines it, so binding the loop's variables late is what is meant.
# ruff: noqa: B023

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from datetime import date
from typing import Any

from pytest_tau import Environment, Kind, Output, TaskDraft, TaskWriter, output_told
from tests_domains.finance.domain import DOMAIN
from tests_domains.finance.market import PROFILE_BANDS

Rec = dict[str, Any]
STALE_BEFORE = "2023-06-16"
LIMIT = {"conservative": 2, "moderate": 3, "growth": 4, "aggressive": 5}
ORDER = ["conservative", "moderate", "growth", "aggressive"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
TRADABLE = ("individual", "joint", "trust")
POLICY = DOMAIN.policy


class Skip(Exception):
    """This candidate does not fit the task (a figure the policy states, a failing look-up)."""


class Data:
    """The initial DB as plain dicts, for picking candidates (never for the figures told)."""

    def __init__(self) -> None:
        db = DOMAIN.initial_db
        self.clients: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.clients.items()}
        self.accounts: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.accounts.items()}
        self.securities: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.securities.items()}
        self.holdings: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.holdings.items()}
        self.transfers: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.transfers.items()}
        self.trades: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.trades.items()}
        self.models: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.models.items()}

    def accounts_of(self, cid: str) -> list[Rec]:
        return [self.accounts[a] for a in sorted(self.clients[cid]["account_ids"])]

    def held(self, aid: str) -> list[Rec]:
        return [h for h in self.holdings.values() if h["account_id"] == aid]


D = Data()


def probe(name: str, **arguments: Any) -> Any:
    """A look-up on a fresh environment, for choosing candidates."""
    import orjson

    call = Environment(DOMAIN).call(name, arguments)
    if call.error:
        return None
    return orjson.loads(call.result)


def words(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


def money(x: float) -> str:
    return f"${x:,.2f}"


def ok_client(c: Rec, stale: bool | None = False) -> bool:
    if c["kyc_status"] != "current":
        return False
    if stale is None:
        return True
    return bool(c["risk_profile_date"] < STALE_BEFORE) == stale


def unique_kind(cid: str, account: Rec) -> bool:
    """The account is the client's only one of its type (so 'my trust account' names it)."""
    return sum(1 for a in D.accounts_of(cid) if a["type"] == account["type"]) == 1


TYPE_WORDS = {"individual": "individual brokerage", "joint": "joint", "traditional_ira": "traditional IRA", "roth_ira": "Roth IRA", "trust": "trust"}

PERSONAS = [
    "You are courteous and to the point.",
    "You are an engineer, precise about numbers, and you ask for figures to be repeated.",
    "You are busy and slightly impatient, but polite.",
    "You are cautious with money and want to understand each step before agreeing.",
]
SENIOR_PERSONAS = [
    "You are retired, friendly and chatty; you mention your grandchildren once or twice.",
    "You are retired and a little hard of hearing; you ask the agent to confirm key figures once.",
]


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(61626)
        self.used: set[str] = set()

    def candidates(self, items: list[Any], key: Callable[[Any], str]) -> Iterator[Any]:
        items = sorted((x for x in items if key(x) not in self.used), key=key)
        self.rng.shuffle(items)
        yield from items

    def take(self, cid: str) -> None:
        self.used.add(cid)

    def task(self, task_id: str, c: Rec, account: Rec, situation: str, script: list[str], split: str = "test", ordered: bool = False) -> TaskDraft:
        who = (f"You are {c['first_name']} {c['last_name']}, born {words(c['date_of_birth'])}, a client of Harrow & Pike Wealth "
               f"Management. Your {TYPE_WORDS[account['type']]} account number is {account['account_number']}.")
        senior = c["date_of_birth"] < "1961-01-01"
        persona = self.rng.choice(PERSONAS + (SENIOR_PERSONAS if senior else [])) + " Reveal information only when the agent asks for it; you do not know any internal ids."
        return self.writer.task(task_id, instructions=f"{who} {persona} {situation}", script=script, split=split, ordered=ordered)

    def attempt(self, make: Callable[[], TaskDraft | None]) -> bool:
        before = set(self.writer.drafts)
        try:
            return make() is not None
        except Skip:
            for tid in set(self.writer.drafts) - before:
                self.writer.discard(self.writer.drafts[tid])
            return False


def me(c: Rec, account: Rec) -> str:
    return f"{c['first_name']} {c['last_name']}, born {words(c['date_of_birth'])}; my account number ends in {account['account_number'][-4:]}."


def identify(d: TaskDraft, c: Rec, account: Rec) -> Rec:
    client: Rec = d.read("find_client", first_name=c["first_name"], last_name=c["last_name"], date_of_birth=c["date_of_birth"],
                         account_last4=account["account_number"][-4:])
    return client


def find_security(d: TaskDraft, sec: Rec) -> None:
    """The client names a security as people do; the agent finds its symbol by that name."""
    d.read("search_securities", query=sec["name"])


def out(d: TaskDraft, value: Any, kind: Kind) -> None:
    """A required output, unless the policy or the customer's own words already say it."""
    text = f"{value:.2f}" if isinstance(value, float) and kind == "money" else f"{value:g}" if isinstance(value, float) else str(value)
    said = d.instructions + "\n" + "\n".join(d.script)
    if output_told(Output(value=text, kind=kind), POLICY) or output_told(Output(value=text, kind=kind), said):
        raise Skip(f"{value} is already said")
    d.output(value, kind)


def tradable_accounts(c: Rec) -> list[Rec]:
    return [a for a in D.accounts_of(c["client_id"]) if a["type"] in TRADABLE and a["status"] == "open" and unique_kind(c["client_id"], a)]


def etfs(max_rating: int, min_rating: int = 1) -> list[Rec]:
    return [s for s in D.securities.values() if s["kind"] == "etf" and min_rating <= s["risk_rating"] <= max_rating]


def the(sec: Rec) -> str:
    """How a person names a security: "the Keystone ... ETF", but plain "Alderline Systems"."""
    return f"the {sec['name']}" if sec["kind"] == "etf" else str(sec["name"])


def last_close(symbol: str) -> float:
    prices = D.securities[symbol]["prices"]
    return float(prices[max(prices)])


def verified_link(c: Rec) -> Rec | None:
    links = sorted((ln for ln in c["bank_links"] if ln["status"] == "verified"), key=lambda ln: ln["link_id"])
    banks = [ln["bank_name"] for ln in c["bank_links"]]
    links = [ln for ln in links if banks.count(ln["bank_name"]) == 1]
    return links[0] if links else None


def named_link(c: Rec, link: Rec) -> str:
    """Why the bank link a transfer uses is the only one it may use: the client names its bank, and it is verified."""
    assert link["status"] == "verified" and [ln["bank_name"] for ln in c["bank_links"]].count(link["bank_name"]) == 1, link
    return (f"the client names the bank, and the {link['bank_name']} link is the only one at that bank on the client's "
            "profile and is verified (6.1)")


def bank_words(link: Rec) -> str:
    return f"your {link['bank_name']} account ending in {link['account_last4']}"


# ------------------------------------------------------------------------------------------
def buy_etf(b: Builder, n: int, split_last: bool = False) -> None:
    made = 0
    for c in b.candidates([c for c in D.clients.values() if ok_client(c) and c["risk_profile"] != "conservative"], lambda c: c["client_id"]):
        if made == n:
            return
        for acct in tradable_accounts(c):
            held = {h["symbol"] for h in D.held(acct["account_id"])}
            options = [s for s in etfs(LIMIT[c["risk_profile"]], 2) if s["symbol"] not in held]
            if not options or acct["cash"] < 3000:
                continue
            sec = b.rng.choice(sorted(options, key=lambda s: s["symbol"]))
            qty = int(acct["cash"] * b.rng.uniform(0.2, 0.6) // last_close(sec["symbol"]))
            if qty < 2:
                continue
            split = "train" if split_last and made == n - 1 else "test"

            def make() -> TaskDraft:
                d = b.task(
                    f"buy_etf_{made + 1}", c, acct,
                    f"You want to buy {qty} shares of the {sec['name']} in that account, paid from its cash. Before you agree, "
                    f"ask what the purchase will cost you in total. Agree once you have heard the total.",
                    [f"Hello, I'd like to buy some shares of the {sec['name']}.", me(c, acct), f"{qty} shares, in that account.",
                     "What will that cost me in total?", "Yes, go ahead."],
                    split=split,
                )
                identify(d, c, acct)
                find_security(d, sec)
                preview = d.read("preview_trade", account_id=acct["account_id"], symbol=sec["symbol"], side="buy", quantity=qty)
                out(d, preview["total_cost"], "money")
                d.write("place_trade", account_id=acct["account_id"], symbol=sec["symbol"], side="buy", quantity=qty)
                return d

            if b.attempt(make):
                b.take(c["client_id"])
                made += 1
                break


def concentration(b: Builder, n: int) -> None:
    made = 0
    pool = [c for c in D.clients.values() if ok_client(c) and c["risk_profile"] in ("growth", "aggressive")]
    for c in b.candidates(pool, lambda c: c["client_id"]):
        if made == n:
            return
        for acct in tradable_accounts(c):
            held = {h["symbol"] for h in D.held(acct["account_id"])}
            stocks = sorted((s for s in D.securities.values() if s["kind"] == "stock" and s["risk_rating"] <= LIMIT[c["risk_profile"]]
                             and s["symbol"] not in held and s["asset_class"] == "us_equity"), key=lambda s: s["symbol"])
            if not stocks:
                continue
            sec = b.rng.choice(stocks)
            price = last_close(sec["symbol"])
            account = probe("get_account", account_id=acct["account_id"])
            total = account["total_value"]
            big = int(total * b.rng.uniform(0.125, 0.17) // price)
            small = int(total * b.rng.uniform(0.05, 0.085) // price)
            if small < 3 or big <= small or (big + small) * price + 10 > acct["cash"]:
                continue
            big = big // 5 * 5 if big >= 20 else big
            small = small // 5 * 5 if small >= 20 else small
            p_big = probe("preview_trade", account_id=acct["account_id"], symbol=sec["symbol"], side="buy", quantity=big)
            p_small = probe("preview_trade", account_id=acct["account_id"], symbol=sec["symbol"], side="buy", quantity=small)
            if not p_big or not p_small or p_big["position_weight_after_pct"] <= 10.5 or p_small["position_weight_after_pct"] > 9.5:
                continue

            def make() -> TaskDraft:
                d = b.task(
                    f"stock_concentration_{made + 1}", c, acct,
                    f"You want to buy {big} shares of {sec['name']} (symbol {sec['symbol']}) in that account with its cash. If the agent "
                    f"says that is too much of one stock, ask what share of the account it would come to, then settle for {small} "
                    f"shares instead. Ask what the {small} shares cost in total before agreeing.",
                    [f"Hi, I want to buy {big} shares of {sec['name']}.", me(c, acct), "Why not? What share of the account would that be?",
                     f"Fine, then buy {small} shares. What's the total for those?", "Yes, please place it."],
                )
                identify(d, c, acct)
                find_security(d, sec)
                big_preview = d.read("preview_trade", account_id=acct["account_id"], symbol=sec["symbol"], side="buy", quantity=big)
                out(d, big_preview["position_weight_after_pct"], "percent")
                small_preview = d.read("preview_trade", account_id=acct["account_id"], symbol=sec["symbol"], side="buy", quantity=small)
                out(d, small_preview["total_cost"], "money")
                d.write("place_trade", account_id=acct["account_id"], symbol=sec["symbol"], side="buy", quantity=small)
                d.forbid("place_trade", account_id=acct["account_id"], symbol=sec["symbol"], side="buy", quantity=big)
                d.one_end_state(f"4.3: {big} shares would bring the stock to {big_preview['position_weight_after_pct']}% of the account, "
                                f"over 10%, so that quantity is refused; {small} shares stay under it and the stock is within the client's "
                                "suitability limit (4.2), so the smaller purchase the client then asks for is placed.")
                return d

            if b.attempt(make):
                b.take(c["client_id"])
                made += 1
                break


def unsuitable(b: Builder, n: int) -> None:
    made = 0
    pool = [c for c in D.clients.values() if ok_client(c) and c["risk_profile"] in ("conservative", "moderate", "growth")]
    for c in b.candidates(pool, lambda c: c["client_id"]):
        if made == n:
            return
        for acct in tradable_accounts(c):
            limit = LIMIT[c["risk_profile"]]
            held = {h["symbol"] for h in D.held(acct["account_id"])}
            risky = sorted((s for s in D.securities.values() if s["risk_rating"] > limit and s["symbol"] not in held), key=lambda s: s["symbol"])
            safe = sorted((s for s in etfs(limit) if s["symbol"] not in held and s["asset_class"] != "commodities"), key=lambda s: s["symbol"])
            if not risky or not safe or acct["cash"] < 4000:
                continue
            want, alt = b.rng.choice(risky), b.rng.choice(safe)
            q1 = max(2, int(acct["cash"] * 0.3 // last_close(want["symbol"])))
            q2 = max(2, int(acct["cash"] * 0.3 // last_close(alt["symbol"])))
            q1, q2 = (q1 // 5 * 5 or q1), (q2 // 5 * 5 or q2)

            def make() -> TaskDraft:
                d = b.task(
                    f"unsuitable_buy_{made + 1}", c, acct,
                    f"A friend recommended {the(want)} ({want['symbol']}); you want to buy {q1} shares in that account. If the "
                    f"agent will not do it, accept the reason and instead buy {q2} shares of the {alt['name']}. Ask for the total cost "
                    f"of that purchase before agreeing.",
                    [f"Hi, I'd like to buy {q1} shares of {want['symbol']}.", me(c, acct),
                     f"I see. Then buy {q2} shares of the {alt['name']} instead. What's the total?", "Yes, please."],
                )
                identify(d, c, acct)
                d.read("search_securities", query=want["symbol"])
                find_security(d, alt)
                preview = d.read("preview_trade", account_id=acct["account_id"], symbol=alt["symbol"], side="buy", quantity=q2)
                out(d, preview["total_cost"], "money")
                d.write("place_trade", account_id=acct["account_id"], symbol=alt["symbol"], side="buy", quantity=q2)
                if q1 * last_close(want["symbol"]) + 10 > acct["cash"] - preview["total_cost"]:
                    raise Skip("the forbidden buy must stay possible after gold")
                d.forbid("place_trade", account_id=acct["account_id"], symbol=want["symbol"], side="buy", quantity=q1)
                d.one_end_state(f"4.2: {want['symbol']} is rated {want['risk_rating']}, above the {LIMIT[c['risk_profile']]} a "
                                f"{c['risk_profile']} profile may buy (the profile is current, 3.2), so it is refused whatever else applies; the "
                                f"{alt['name']} is rated {alt['risk_rating']} and an ETF (4.3 exempt), so the purchase the client then asks for is placed.")
                return d

            if b.attempt(make):
                b.take(c["client_id"])
                made += 1
                break


def answers_for(profile: str, rng: random.Random) -> list[str]:
    index = [p for _, p in PROFILE_BANDS].index(profile)
    low = 6 if index == 0 else PROFILE_BANDS[index - 1][0] + 1
    while True:
        points = [rng.randint(1, 4) for _ in range(6)]
        if low <= sum(points) <= PROFILE_BANDS[index][0]:
            return ["abcd"[p - 1] for p in points]


def answer_lines(answers: list[str]) -> str:
    return "; ".join(f"question {i + 1}: ({a})" for i, a in enumerate(answers))


def stale_then_buy(b: Builder, n: int, lowered: int) -> None:
    """Stale profile: the questionnaire first; then the buy is suitable, or (lowered) it no longer is."""
    made = 0
    pool = [c for c in D.clients.values() if ok_client(c, stale=True)]
    for c in b.candidates(pool, lambda c: c["client_id"]):
        if made == n + lowered:
            return
        lower = made >= n
        accts = tradable_accounts(c)
        link = verified_link(c)
        if not accts or not link:
            continue
        acct = accts[0]
        if acct["cash"] < 3000:
            continue
        old = c["risk_profile"]
        if lower:
            if old == "conservative":
                continue
            new = ORDER[ORDER.index(old) - 1]
            want_pool = etfs(LIMIT[old], LIMIT[new] + 1)
        else:
            new = b.rng.choice([p for p in ORDER[1:] if p != old] or ["moderate"])
            want_pool = etfs(LIMIT[new], 2)
        held = {h["symbol"] for h in D.held(acct["account_id"])}
        want_pool = sorted((s for s in want_pool if s["symbol"] not in held), key=lambda s: s["symbol"])
        if not want_pool:
            continue
        sec = b.rng.choice(want_pool)
        qty = max(2, int(acct["cash"] * 0.3 // last_close(sec["symbol"])))
        answers = answers_for(new, b.rng)
        amount = float(b.rng.choice([2000, 3000, 5000, 7500, 10000]))
        i = made + 1 - (n if lower else 0)

        def make() -> TaskDraft:
            if lower:
                situation = (f"You want to buy {qty} shares of the {sec['name']} in that account. If the agent says your risk profile is "
                             f"out of date, agree to retake the questionnaire. Your answers, when each question is read to you, are: "
                             f"{answer_lines(answers)}. Ask for your new score. If the purchase is then not allowed, accept that and end the call.")
                script = [f"Hi, I'd like to buy {qty} shares of the {sec['name']}.", me(c, acct), "Sure, let's do the questionnaire.",
                          *[f"({a})" for a in answers], "Yes, record those. What's my score?", "Understood, thanks."]
            else:
                situation = (f"You want to buy {qty} shares of the {sec['name']} in that account, and you also want to deposit "
                             f"{money(amount)} into the account by ACH from {bank_words(link)}. If the agent says your risk profile is out of "
                             f"date, agree to retake the questionnaire. Your answers, when each question is read to you, are: "
                             f"{answer_lines(answers)}. Ask for your new score, the purchase's total cost and when the deposit settles.")
                script = [f"Hi, I want to buy {qty} shares of the {sec['name']} and add some money to my account.", me(c, acct),
                          "Sure, let's do the questionnaire.", *[f"({a})" for a in answers], "Yes, record those. What's my score?",
                          "Now the purchase: what's the total?", "Yes, buy them.",
                          f"And {money(amount)} by ACH from my {link['bank_name']} account. When will it settle?", "Yes, go ahead."]
            d = b.task(f"stale_profile_{'lowered' if lower else 'buy'}_{i}", c, acct, situation, script)
            client = identify(d, c, acct)
            result = d.write("submit_risk_questionnaire", client_id=client["client_id"], answers=answers)
            if result["risk_profile"] != new:
                raise Skip("profile")
            out(d, result["score"], "number")
            if lower:
                d.forbid("place_trade", account_id=acct["account_id"], symbol=sec["symbol"], side="buy", quantity=qty)
                d.one_end_state(f"3.2: the profile dated {c['risk_profile_date']} is stale, so no purchase before the questionnaire; the "
                                f"answers make the client {new} (7.2), whose limit is {LIMIT[new]}, and the {sec['name']} is rated "
                                f"{sec['risk_rating']} (4.2), so the purchase is refused and the client ends the call.")
                return d
            find_security(d, sec)
            preview = d.read("preview_trade", account_id=acct["account_id"], symbol=sec["symbol"], side="buy", quantity=qty)
            out(d, preview["total_cost"], "money")
            d.write("place_trade", account_id=acct["account_id"], symbol=sec["symbol"], side="buy", quantity=qty)
            tp = d.read("preview_transfer", account_id=acct["account_id"], direction="deposit", method="ach", link_id=link["link_id"], amount=amount)
            out(d, tp["settlement_date"], "date")
            d.write("request_transfer", account_id=acct["account_id"], direction="deposit", method="ach", link_id=link["link_id"], amount=amount)
            d.one_end_state(f"3.2: the profile is stale, so the questionnaire comes before the purchase; the answers make the client "
                            f"{new}, who may buy the {sec['name']} (rated {sec['risk_rating']}, 4.2; an ETF, 4.3 exempt); the deposit is an "
                            f"ACH from the bank the client names, and {named_link(c, link)}.")
            return d

        if b.attempt(make):
            b.take(c["client_id"])
            made += 1


def rebalance(b: Builder, n: int, under: int) -> None:
    made = 0
    pool = [c for c in D.clients.values() if ok_client(c)]
    for c in b.candidates(pool, lambda c: c["client_id"]):
        if made == n + under:
            return
        is_under = made >= n
        for acct in tradable_accounts(c):
            alloc = probe("get_allocation", account_id=acct["account_id"])
            drift = alloc["largest_drift_pct_points"]
            if (is_under and not 1.0 <= drift <= 4.6) or (not is_under and drift < 6.5):
                continue
            plan = probe("preview_rebalance", account_id=acct["account_id"])
            if not plan or not plan["trades"] or (not is_under and len(plan["trades"]) > 6):
                continue
            i = made + 1 - (n if is_under else 0)

            def make() -> TaskDraft:
                if is_under:
                    d = b.task(
                        f"rebalance_not_needed_{i}", c, acct,
                        "You read that portfolios should be rebalanced every year and you want that account rebalanced to its model "
                        "today. If the agent declines, ask how far off the account actually is, accept the answer and end the call.",
                        [f"Hi, I'd like my {TYPE_WORDS[acct['type']]} account rebalanced, please.", me(c, acct),
                         "How far off is it, then?", "All right, thanks."],
                    )
                    identify(d, c, acct)
                    allocation = d.read("get_allocation", account_id=acct["account_id"])
                    out(d, allocation["largest_drift_pct_points"], "percent")
                    d.forbid("rebalance_account", account_id=acct["account_id"])
                    d.one_end_state(f"5.2: the largest drift is {allocation['largest_drift_pct_points']} percentage points, not more than 5, "
                                    "so the rebalance is declined and the drift told; nothing is transferred (9).")
                    return d
                d = b.task(
                    f"rebalance_{i}", c, acct,
                    "You want that account rebalanced to its target model. Ask the agent to tell you which asset class is furthest off "
                    "target and by how much, and to walk you through the trades before you agree. Agree to the plan as presented. "
                    "Afterwards ask how much cash the account holds.",
                    [f"Hello, I'd like my {TYPE_WORDS[acct['type']]} account rebalanced.", me(c, acct),
                     "Which part is furthest off, and by how much?", "OK, that plan is fine. Go ahead.", "How much cash is in the account now?"],
                )
                identify(d, c, acct)
                allocation = d.read("get_allocation", account_id=acct["account_id"])
                out(d, allocation["largest_drift_pct_points"], "percent")
                d.read("preview_rebalance", account_id=acct["account_id"])
                done = d.write("rebalance_account", account_id=acct["account_id"])
                out(d, done["cash_after"], "money")
                d.one_end_state(f"5.2: the largest drift, {allocation['largest_drift_pct_points']} percentage points, is more than 5, so "
                                "the account is rebalanced; 5.3: the whole previewed plan is placed with rebalance_account, not "
                                "trade by trade.")
                return d

            if b.attempt(make):
                b.take(c["client_id"])
                made += 1
                break


def model_switch(b: Builder, n: int) -> None:
    """A stale profile, the questionnaire, a model change allowed by the new profile, then a rebalance: ordered."""
    made = 0
    pool = [c for c in D.clients.values() if ok_client(c, stale=True)]
    for c in b.candidates(pool, lambda c: c["client_id"]):
        if made == n:
            return
        accts = tradable_accounts(c)
        if not accts:
            continue
        acct = accts[0]
        current = D.models[acct["model_id"]]
        new = b.rng.choice(ORDER)
        choices = sorted((m for m in D.models.values() if m["risk_profile"] == new and m["model_id"] != current["model_id"]), key=lambda m: m["model_id"])
        if not choices:
            continue
        model = b.rng.choice(choices)
        answers = answers_for(new, b.rng)

        def make() -> TaskDraft:
            d = b.task(
                f"questionnaire_model_rebalance_{made + 1}", c, acct,
                f"Your circumstances have changed and you want that account to follow the firm's {model['name']} model instead of "
                f"{current['name']}, and then to be rebalanced to it, in that order. If the agent says your risk profile is out of date, "
                f"agree to retake the questionnaire; your answers, when each question is read to you, are: {answer_lines(answers)}. "
                f"Ask for your new score. Agree to the model change and to the rebalancing plan as presented.",
                [f"Hi, I'd like to move my account to the {model['name']} model and rebalance it.", me(c, acct),
                 "OK, let's do the questionnaire.", *[f"({a})" for a in answers], "Yes, record those. What's my score?",
                 f"Yes, switch it to {model['name']}.", "The plan is fine, go ahead and rebalance."],
                ordered=True,
            )
            client = identify(d, c, acct)
            result = d.write("submit_risk_questionnaire", client_id=client["client_id"], answers=answers)
            if result["risk_profile"] != new:
                raise Skip("profile")
            out(d, result["score"], "number")
            d.read("list_models")
            d.write("set_target_model", account_id=acct["account_id"], model_id=model["model_id"])
            plan = d.read("preview_rebalance", account_id=acct["account_id"])
            if not plan["trades"]:
                raise Skip("nothing to rebalance")
            d.write("rebalance_account", account_id=acct["account_id"])
            d.one_end_state(f"3.2: the profile is stale, so the questionnaire comes before the model change; the answers make the "
                            f"client {new}, and {model['name']} is the one model by that name (list_models), built for {new} (5.1); 5.4: "
                            "the model is changed first, then the account rebalanced to it without the drift rule, in the order the client asks.")
            return d

        if b.attempt(make):
            b.take(c["client_id"])
            made += 1


def model_too_risky(b: Builder, n: int) -> None:
    made = 0
    pool = [c for c in D.clients.values() if ok_client(c) and c["risk_profile"] in ("conservative", "moderate")]
    for c in b.candidates(pool, lambda c: c["client_id"]):
        if made == n:
            return
        accts = tradable_accounts(c)
        if not accts:
            continue
        acct = accts[0]
        riskier = sorted((m for m in D.models.values() if ORDER.index(m["risk_profile"]) > ORDER.index(c["risk_profile"])), key=lambda m: m["model_id"])
        model = b.rng.choice(riskier)

        def make() -> TaskDraft:
            d = b.task(
                f"model_too_risky_{made + 1}", c, acct,
                f"Markets have been good and you want that account switched to the firm's {model['name']} model. You do not want to "
                f"retake any questionnaire today. If the agent will not switch it, ask instead how the account has done this year "
                f"(year to date): the investment gain in dollars and the return in percent.",
                [f"Hi, please switch my account to the {model['name']} model.", me(c, acct),
                 "No, I don't want to do a questionnaire now. How has the account done this year, then? Gain and return?", "Thanks."],
            )
            identify(d, c, acct)
            d.read("list_models")
            report = d.read("performance_report", account_id=acct["account_id"], start_date="2025-12-31", end_date="2026-06-16")
            out(d, report["investment_gain"], "money")
            out(d, report["return_pct"], "percent")
            d.forbid("set_target_model", account_id=acct["account_id"], model_id=model["model_id"])
            d.one_end_state(f"5.1: {model['name']} is built for a riskier profile than the client's current {c['risk_profile']} "
                            "one, and the client declines the questionnaire, so the model is not changed (4.2: no change of profile outside "
                            "it); the year-to-date figures are the period 8.1 defines.")
            return d

        if b.attempt(make):
            b.take(c["client_id"])
            made += 1


def sell_buy_deposit(b: Builder, n: int, split_last: bool = False) -> None:
    made = 0
    pool = [c for c in D.clients.values() if ok_client(c) and c["risk_profile"] != "conservative"]
    for c in b.candidates(pool, lambda c: c["client_id"]):
        if made == n:
            return
        link = verified_link(c)
        if not link:
            continue
        for acct in tradable_accounts(c):
            held = sorted(D.held(acct["account_id"]), key=lambda h: h["symbol"])
            sellable = [h for h in held if h["quantity"] >= 10 and D.securities[h["symbol"]]["kind"] == "stock"] or [h for h in held if h["quantity"] >= 10]
            options = [s for s in etfs(LIMIT[c["risk_profile"]], 2) if s["symbol"] not in {h["symbol"] for h in held}]
            if not sellable or not options or acct["cash"] < 2500:
                continue
            h = b.rng.choice(sellable)
            sell_qty = max(5, h["quantity"] // 2 // 5 * 5)
            sec = b.rng.choice(sorted(options, key=lambda s: s["symbol"]))
            buy_qty = int(acct["cash"] * b.rng.uniform(0.3, 0.8) // last_close(sec["symbol"]))
            amount = float(b.rng.choice([1500, 2500, 4000, 6000, 12000, 20000]))
            if buy_qty < 2:
                continue
            sold = D.securities[h["symbol"]]
            split = "train" if split_last and made == n - 1 else "test"

            def make() -> TaskDraft:
                d = b.task(
                    f"sell_buy_deposit_{made + 1}", c, acct,
                    f"In that account you want three things: sell {sell_qty} shares of {sold['name']}; buy {buy_qty} shares of the "
                    f"{sec['name']} with the cash already in the account; and deposit {money(amount)} by ACH from {bank_words(link)}. "
                    f"Before agreeing, ask for the net proceeds of the sale, the total cost of the purchase, and the date the deposit "
                    f"will settle.",
                    [f"Hi, I have a few things to do in my {TYPE_WORDS[acct['type']]} account.", me(c, acct),
                     f"First, sell {sell_qty} shares of {sold['name']}. What would I net?", "Yes, sell them.",
                     f"Next, buy {buy_qty} shares of the {sec['name']}. Total cost?", "Yes, buy them.",
                     f"Last, a deposit of {money(amount)} by ACH from my {link['bank_name']} account. When does it settle?", "Yes, please."],
                    split=split,
                )
                identify(d, c, acct)
                find_security(d, sold)
                ps = d.read("preview_trade", account_id=acct["account_id"], symbol=h["symbol"], side="sell", quantity=sell_qty)
                out(d, ps["net_proceeds"], "money")
                d.write("place_trade", account_id=acct["account_id"], symbol=h["symbol"], side="sell", quantity=sell_qty)
                find_security(d, sec)
                pb = d.read("preview_trade", account_id=acct["account_id"], symbol=sec["symbol"], side="buy", quantity=buy_qty)
                out(d, pb["total_cost"], "money")
                d.write("place_trade", account_id=acct["account_id"], symbol=sec["symbol"], side="buy", quantity=buy_qty)
                d.read("get_client", client_id=c["client_id"])
                tp = d.read("preview_transfer", account_id=acct["account_id"], direction="deposit", method="ach", link_id=link["link_id"], amount=amount)
                out(d, tp["settlement_date"], "date")
                d.write("request_transfer", account_id=acct["account_id"], direction="deposit", method="ach", link_id=link["link_id"], amount=amount)
                d.one_end_state(f"Sales are always allowed (4.1); the {sec['name']} is within the client's limit (4.2) and an ETF "
                                f"(4.3 exempt); the deposit is an ACH from the bank the client names, and {named_link(c, link)}.")
                return d

            if b.attempt(make):
                b.take(c["client_id"])
                made += 1
                break


def withdraw_unsettled(b: Builder, n: int) -> None:
    made = 0
    pending_sales = {t["account_id"] for t in D.trades.values() if t["side"] == "sell" and t["status"] == "pending_settlement"}
    pool = [c for c in D.clients.values() if ok_client(c, stale=None)]
    for c in b.candidates(pool, lambda c: c["client_id"]):
        if made == n:
            return
        link = verified_link(c)
        if not link:
            continue
        for acct in tradable_accounts(c):
            if acct["account_id"] not in pending_sales:
                continue
            summary = probe("get_account", account_id=acct["account_id"])
            cash, withdrawable = summary["cash"], summary["withdrawable_cash"]
            unsettled = summary["unsettled_sale_proceeds"]
            small = float(int(withdrawable * 0.45) // 100 * 100)
            asked = float(int((withdrawable + min(unsettled, cash - small - withdrawable)) // 100 * 100))
            if small < 500 or asked <= withdrawable or asked + small > cash:
                continue

            def make() -> TaskDraft:
                d = b.task(
                    f"withdraw_unsettled_{made + 1}", c, acct,
                    f"You sold some shares in that account this morning and want to take {money(asked)} out by ACH to {bank_words(link)}. "
                    f"If the agent says you cannot take that much, ask how much you can withdraw right now, then take out only "
                    f"{money(small)} and ask when it will arrive.",
                    [f"Hi, I'd like to withdraw {money(asked)} from my account to my bank.", me(c, acct),
                     "Then how much can I take out right now?", f"OK, just withdraw {money(small)} then. When will it settle?", "Yes, do it."],
                )
                identify(d, c, acct)
                summary = d.read("get_account", account_id=acct["account_id"])
                out(d, summary["withdrawable_cash"], "money")
                d.read("get_client", client_id=c["client_id"])
                tp = d.read("preview_transfer", account_id=acct["account_id"], direction="withdrawal", method="ach", link_id=link["link_id"], amount=small)
                out(d, tp["settlement_date"], "date")
                d.write("request_transfer", account_id=acct["account_id"], direction="withdrawal", method="ach", link_id=link["link_id"], amount=small)
                d.forbid("request_transfer", account_id=acct["account_id"], direction="withdrawal", method="ach", link_id=link["link_id"], amount=asked)
                d.one_end_state(f"6.4: {money(asked)} is more than the withdrawable cash (unsettled sale proceeds cannot leave), so it is "
                                f"refused and the withdrawable amount told; the client then takes {money(small)}, within it, and "
                                f"{named_link(c, link)}.")
                return d

            if b.attempt(make):
                b.take(c["client_id"])
                made += 1
                break


def unverified_link(b: Builder, n: int) -> None:
    made = 0
    pool = [c for c in D.clients.values() if ok_client(c, stale=None) and any(ln["status"] == "pending_verification" for ln in c["bank_links"])]
    for c in b.candidates(pool, lambda c: c["client_id"]):
        if made == n:
            return
        good = verified_link(c)
        bad = [ln for ln in c["bank_links"] if ln["status"] == "pending_verification"]
        if not good or len(bad) != 1 or bad[0]["bank_name"] == good["bank_name"]:
            continue
        bad_link = bad[0]
        for acct in tradable_accounts(c):
            summary = probe("get_account", account_id=acct["account_id"])
            amount = float(int(summary["withdrawable_cash"] * 0.35) // 100 * 100)
            if amount < 500:
                continue
            wire = made % 2 == 1

            def make() -> TaskDraft:
                method = "wire" if wire else "ach"
                d = b.task(
                    f"withdraw_unverified_bank_{made + 1}", c, acct,
                    f"You linked {bank_words(bad_link)} a few days ago and want {money(amount)} from that account sent there by "
                    f"{'wire' if wire else 'ACH'}. You have not done anything about trial deposits. If the agent cannot use the new bank, "
                    f"have the money sent the same way to {bank_words(good)} instead. Ask for the fee, if any, and when the money "
                    f"will settle before agreeing.",
                    [f"Hi, I'd like to send {money(amount)} to my new {bad_link['bank_name']} account.", me(c, acct),
                     f"Oh. Then send it to my {good['bank_name']} account instead, same way. Any fee, and when will it settle?", "Yes, go ahead."],
                )
                identify(d, c, acct)
                d.read("get_client", client_id=c["client_id"])
                d.read("get_account", account_id=acct["account_id"])
                tp = d.read("preview_transfer", account_id=acct["account_id"], direction="withdrawal", method=method, link_id=good["link_id"], amount=amount)
                out(d, tp["settlement_date"], "date")
                d.write("request_transfer", account_id=acct["account_id"], direction="withdrawal", method=method, link_id=good["link_id"], amount=amount)
                d.forbid("request_transfer", account_id=acct["account_id"], direction="withdrawal", method=method, link_id=bad_link["link_id"], amount=amount)
                d.one_end_state(f"6.1: the {bad_link['bank_name']} link is pending verification, so it may not be used; the client then "
                                f"names the {good['bank_name']} link, the only one at that bank, verified, and the amount is within the "
                                "withdrawable cash (6.4).")
                return d

            if b.attempt(make):
                b.take(c["client_id"])
                made += 1
                break


def pending_transfers(late: bool) -> list[tuple[Rec, Rec, Rec]]:
    out_: list[tuple[Rec, Rec, Rec]] = []
    for t in D.transfers.values():
        if t["status"] != "pending":
            continue
        if late != (t["settlement_date"] <= "2026-06-17"):
            continue
        c, acct = D.clients[t["client_id"]], D.accounts[t["account_id"]]
        same = [x for x in D.transfers.values() if x["account_id"] == t["account_id"] and x["status"] == "pending"]
        if ok_client(c, stale=None) and len(same) == 1 and acct["type"] in TRADABLE and unique_kind(c["client_id"], acct):
            out_.append((c, acct, t))
    return out_


def cancel_and_replace(b: Builder, n: int) -> None:
    made = 0
    for c, acct, t in b.candidates(pending_transfers(False), lambda x: x[0]["client_id"]):
        if made == n:
            return
        link = next(ln for ln in c["bank_links"] if ln["link_id"] == t["link_id"])
        if link["status"] != "verified" or t["direction"] != "deposit":
            continue
        new_amount = float(t["amount"] / 2 if t["amount"] >= 2000 else t["amount"] * 2)
        held = {h["symbol"] for h in D.held(acct["account_id"])}
        options = [s for s in etfs(LIMIT[c["risk_profile"]], 1) if s["symbol"] not in held]
        if not options or acct["cash"] < 2000 or c["risk_profile_date"] < STALE_BEFORE:
            continue
        sec = b.rng.choice(sorted(options, key=lambda s: s["symbol"]))
        qty = int(acct["cash"] * 0.4 // last_close(sec["symbol"]))
        if qty < 2:
            continue

        def make() -> TaskDraft:
            d = b.task(
                f"replace_deposit_{made + 1}", c, acct,
                f"On {words(t['requested_date'])} you asked for a {money(t['amount'])} ACH deposit from {bank_words(link)} into that "
                f"account. You now want that deposit canceled and replaced by a new ACH deposit of {money(new_amount)} from the same bank, "
                f"and you also want to buy {qty} shares of the {sec['name']} with the cash already in the account. Ask when the new "
                f"deposit will settle and what the purchase costs in total before agreeing.",
                ["Hi, I need to change a deposit I set up and also buy something.", me(c, acct),
                 f"The {money(t['amount'])} deposit from {link['bank_name']}: please cancel it and put in {money(new_amount)} instead. When would that settle?",
                 "Yes, do that.", f"And buy {qty} shares of the {sec['name']}. What's the total?", "Yes, please."],
            )
            identify(d, c, acct)
            d.read("list_transfers", account_id=acct["account_id"], status="pending")
            d.write("cancel_transfer", transfer_id=t["transfer_id"])
            tp = d.read("preview_transfer", account_id=acct["account_id"], direction="deposit", method="ach", link_id=link["link_id"], amount=new_amount)
            out(d, tp["settlement_date"], "date")
            d.write("request_transfer", account_id=acct["account_id"], direction="deposit", method="ach", link_id=link["link_id"], amount=new_amount)
            find_security(d, sec)
            pb = d.read("preview_trade", account_id=acct["account_id"], symbol=sec["symbol"], side="buy", quantity=qty)
            out(d, pb["total_cost"], "money")
            d.write("place_trade", account_id=acct["account_id"], symbol=sec["symbol"], side="buy", quantity=qty)
            d.one_end_state(f"6.6: the deposit settles on {t['settlement_date']}, two or more business days after today, so it may be "
                            f"canceled; the new deposit uses the same bank, and {named_link(c, link)}; the ETF is within the client's limit (4.2).")
            return d

        if b.attempt(make):
            b.take(c["client_id"])
            made += 1


def cancel_too_late(b: Builder, n: int) -> None:
    made = 0
    for c, acct, t in b.candidates(pending_transfers(True), lambda x: x[0]["client_id"]):
        if made == n:
            return
        link = next(ln for ln in c["bank_links"] if ln["link_id"] == t["link_id"])

        def make() -> TaskDraft:
            what = "deposit from" if t["direction"] == "deposit" else "withdrawal to"
            d = b.task(
                f"cancel_too_late_{made + 1}", c, acct,
                f"On {words(t['requested_date'])} you asked for a {money(t['amount'])} ACH {what} {bank_words(link)}, for that account. "
                f"You changed your mind and want it canceled. If the agent says it is too late, ask when it will settle, and accept.",
                [f"Hi, I want to cancel a {t['direction']} I requested.", me(c, acct),
                 f"The {money(t['amount'])} one with {link['bank_name']}.", "Too late? When will it settle then?", "OK, thanks."],
            )
            identify(d, c, acct)
            found = d.read("list_transfers", account_id=acct["account_id"], status="pending")
            mine = [x for x in found["transfers"] if x["transfer_id"] == t["transfer_id"]]
            out(d, mine[0]["settlement_date"], "date")
            d.forbid("cancel_transfer", transfer_id=t["transfer_id"])
            d.one_end_state(f"6.6: the transfer settles on {t['settlement_date']}, today or the next business day, so it is already "
                            "being processed and cannot be canceled; the agent tells its settlement date, and nothing is transferred (9).")
            return d

        if b.attempt(make):
            b.take(c["client_id"])
            made += 1


def ira_withdrawal(b: Builder, n: int) -> None:
    made = 0
    pool = [c for c in D.clients.values() if ok_client(c, stale=None)]
    for c in b.candidates(pool, lambda c: c["client_id"]):
        if made == n:
            return
        link = verified_link(c)
        iras = [a for a in D.accounts_of(c["client_id"]) if a["type"] in ("traditional_ira", "roth_ira") and unique_kind(c["client_id"], a)]
        if not link or not iras or iras[0]["cash"] < 3000:
            continue
        acct = iras[0]
        amount = float(int(acct["cash"] * 0.5) // 100 * 100)

        def make() -> TaskDraft:
            d = b.task(
                f"ira_withdrawal_{made + 1}", c, acct,
                f"You want to take {money(amount)} out of that account by ACH to {bank_words(link)} for a home repair. First ask how much "
                f"cash the account holds. If the agent says someone else must handle the withdrawal, accept a transfer.",
                [f"Hi, how much cash is in my {TYPE_WORDS[acct['type']]}? I want to take some out.", me(c, acct),
                 f"I'd like {money(amount)} of it sent to my {link['bank_name']} account.", "OK, please transfer me."],
            )
            identify(d, c, acct)
            accounts = d.read("list_accounts", client_id=c["client_id"])
            mine = next(a for a in accounts if a["account_id"] == acct["account_id"])
            out(d, mine["cash"], "money")
            d.transfer(f"IRA distribution request: {money(amount)} from the {TYPE_WORDS[acct['type']]} to a linked bank.")
            d.forbid("request_transfer", account_id=acct["account_id"], direction="withdrawal", method="ach", link_id=link["link_id"], amount=amount)
            d.one_end_state("6.5: a withdrawal from an IRA is a distribution the desk does not make; the client is transferred "
                            "after the look-up that finds the account (9), which also answers the cash question.")
            return d

        if b.attempt(make):
            b.take(c["client_id"])
            made += 1


def kyc_expired(b: Builder, n: int) -> None:
    made = 0
    pool = [c for c in D.clients.values() if c["kyc_status"] == "expired"]
    for c in b.candidates(pool, lambda c: c["client_id"]):
        if made == n:
            return
        for acct in [a for a in D.accounts_of(c["client_id"]) if unique_kind(c["client_id"], a)]:
            held = sorted((h for h in D.held(acct["account_id"]) if h["quantity"] >= 10), key=lambda h: h["symbol"])
            if not held:
                continue
            h = b.rng.choice(held)
            qty = max(5, h["quantity"] // 3 // 5 * 5)
            sec = D.securities[h["symbol"]]

            def make() -> TaskDraft:
                d = b.task(
                    f"kyc_expired_sale_{made + 1}", c, acct,
                    f"You want to sell {qty} shares of {sec['name']} in that account. First ask what those shares would bring in after "
                    f"any commission. If the agent says it cannot place trades for you right now, ask to be transferred to someone who can.",
                    [f"Hi, what would I get for selling {qty} shares of {sec['name']}?", me(c, acct), "OK, sell them please.",
                     "Then please transfer me to someone who can sort it out."],
                )
                identify(d, c, acct)
                find_security(d, sec)
                preview = d.read("preview_trade", account_id=acct["account_id"], symbol=h["symbol"], side="sell", quantity=qty)
                out(d, preview["net_proceeds"], "money")
                d.transfer(f"Client's KYC has expired; they want to sell {qty} shares of {h['symbol']}.")
                d.forbid("place_trade", account_id=acct["account_id"], symbol=h["symbol"], side="sell", quantity=qty)
                d.one_end_state("3.1: the client's KYC has expired, so no change of any kind (a sale included) is made; the sale's "
                                "figures may be told, and the client is transferred (9).")
                return d

            if b.attempt(make):
                b.take(c["client_id"])
                made += 1
                break


PERIODS = [
    ("year to date", "so far this year (year to date)", "2025-12-31", "2026-06-16"),
    ("the last twelve months", "over the last twelve months", "2025-06-15", "2026-06-16"),
    ("the first quarter", "in the first quarter of 2026, from the close of December 31, 2025 to the close of March 31, 2026", "2025-12-31", "2026-03-31"),
    ("2025 second half", "from the close of June 30, 2025 to the close of December 31, 2025", "2025-06-30", "2025-12-31"),
]


def performance(b: Builder, n: int, split_last: bool = False) -> None:
    made = 0
    pool = [c for c in D.clients.values()]
    for c in b.candidates(pool, lambda c: c["client_id"]):
        if made == n:
            return
        accts = [a for a in D.accounts_of(c["client_id"]) if unique_kind(c["client_id"], a)]
        if not accts:
            continue
        acct = accts[0]
        _, phrase, start, end = PERIODS[made % len(PERIODS)]
        split = "train" if split_last and made == n - 1 else "test"

        def make() -> TaskDraft:
            d = b.task(
                f"performance_{made + 1}", c, acct,
                f"You are reviewing your finances and want to know how that account did {phrase}: the investment gain in dollars and "
                f"the return in percent. You also want to know the account's value at the end of the period.",
                [f"Hi, I'd like to know how my {TYPE_WORDS[acct['type']]} account has done.", me(c, acct),
                 f"I mean {phrase}. What's the gain, the return, and the ending value?", "Thank you."],
                split=split,
            )
            identify(d, c, acct)
            report = d.read("performance_report", account_id=acct["account_id"], start_date=start, end_date=end)
            if report["return_pct"] is None or abs(report["return_pct"]) < 0.5:
                raise Skip("flat")
            out(d, report["investment_gain"], "money")
            out(d, report["return_pct"], "percent")
            out(d, report["ending_value"], "money")
            return d

        if b.attempt(make):
            b.take(c["client_id"])
            made += 1


def realized(b: Builder, n: int) -> None:
    made = 0
    sellers = {t["account_id"] for t in D.trades.values() if t["side"] == "sell" and t["trade_date"].startswith("2025-")}
    pool = [c for c in D.clients.values()]
    for c in b.candidates(pool, lambda c: c["client_id"]):
        if made == n:
            return
        accts = [a for a in D.accounts_of(c["client_id"]) if a["account_id"] in sellers and a["type"] in TRADABLE and unique_kind(c["client_id"], a)]
        if not accts:
            continue
        acct = accts[0]

        def make() -> TaskDraft:
            d = b.task(
                f"realized_gains_2025_{made + 1}", c, acct,
                "Your accountant needs the net realized gain or loss from sales in that account during calendar year 2025, and how many "
                "sales there were. You want nothing else.",
                [f"Hi, my accountant needs my realized gains for 2025 in my {TYPE_WORDS[acct['type']]} account.", me(c, acct), "Thanks, that's all."],
            )
            identify(d, c, acct)
            report = d.read("realized_gains", account_id=acct["account_id"], year=2025)
            if abs(report["net_realized"]) < 1:
                raise Skip("tiny")
            out(d, report["net_realized"], "money")
            out(d, len(report["sales"]), "number")
            return d

        if b.attempt(make):
            b.take(c["client_id"])
            made += 1


def scheduled_withdrawal(b: Builder, n: int) -> None:
    made = 0
    days = ["2026-07-02", "2026-07-04", "2026-06-18", "2026-07-01"]
    pool = [c for c in D.clients.values() if ok_client(c, stale=None)]
    for c in b.candidates(pool, lambda c: c["client_id"]):
        if made == n:
            return
        link = verified_link(c)
        if not link:
            continue
        for acct in tradable_accounts(c):
            summary = probe("get_account", account_id=acct["account_id"])
            amount = float(int(summary["withdrawable_cash"] * 0.3) // 100 * 100)
            if amount < 800:
                continue
            when = days[made % len(days)]

            def make() -> TaskDraft:
                d = b.task(
                    f"scheduled_withdrawal_{made + 1}", c, acct,
                    f"You want {money(amount)} withdrawn from that account by ACH to {bank_words(link)}, sent on {words(when)} (not "
                    f"earlier: it is for a payment due right after). Ask when the money will settle before agreeing.",
                    [f"Hi, I'd like to schedule a withdrawal of {money(amount)}.", me(c, acct),
                     f"By ACH to my {link['bank_name']} account, sent on {words(when)}. When will it settle?", "Yes, set it up."],
                )
                identify(d, c, acct)
                d.read("get_client", client_id=c["client_id"])
                d.read("get_account", account_id=acct["account_id"])
                tp_args: dict[str, Any] = {"account_id": acct["account_id"], "direction": "withdrawal", "method": "ach",
                                           "link_id": link["link_id"], "amount": amount}
                tp = d.read("preview_transfer", **tp_args, transfer_date=when)
                out(d, tp["settlement_date"], "date")
                d.write("request_transfer", account_id=acct["account_id"], direction="withdrawal", method="ach", link_id=link["link_id"], amount=amount, transfer_date=when)
                if tp["transfer_date"] != when:
                    # the day asked for is no business day: an agent may just as well pass the day it is sent (6.2)
                    sent = tp["transfer_date"]
                    d.alternative(
                        f"6.2: {when} is not a business day, so the withdrawal is sent on {sent}; an agent that asks for {sent} "
                        "itself records the same transfer",
                        [(a.name, a.arguments) for a in d.gold if a.name not in ("preview_transfer", "request_transfer")]
                        + [("preview_transfer", {**tp_args, "transfer_date": sent}), ("request_transfer", {**tp_args, "transfer_date": sent})],
                    )
                d.one_end_state(f"The client fixes the amount, method and day; a day that is not a business day is sent the next "
                                f"business day (6.2), which the tool records either way; the amount is within the withdrawable cash (6.4), and "
                                f"{named_link(c, link)}.")
                return d

            if b.attempt(make):
                b.take(c["client_id"])
                made += 1
                break


def contact_and_sale(b: Builder, n: int) -> None:
    """A new email, a sale, and a wire withdrawal of cash already there: three writes."""
    made = 0
    pool = [c for c in D.clients.values() if ok_client(c, stale=None)]
    for c in b.candidates(pool, lambda c: c["client_id"]):
        if made == n:
            return
        link = verified_link(c)
        if not link:
            continue
        for acct in tradable_accounts(c):
            summary = probe("get_account", account_id=acct["account_id"])
            amount = float(int(summary["withdrawable_cash"] * 0.4) // 500 * 500)
            held = sorted((h for h in D.held(acct["account_id"]) if h["quantity"] >= 8), key=lambda h: h["symbol"])
            if amount < 1000 or not held:
                continue
            h = b.rng.choice(held)
            qty = h["quantity"]
            sec = D.securities[h["symbol"]]
            email = f"{c['first_name'][0].lower()}{c['last_name'].lower().replace(' ', '')}@{b.rng.choice(['fastmail.com', 'hey.com', 'pm.me'])}"

            def make() -> TaskDraft:
                d = b.task(
                    f"email_sale_wire_{made + 1}", c, acct,
                    f"You have three requests: change your email address on file to {email}; sell all your shares of {sec['name']} in "
                    f"that account; and wire {money(amount)} from the account to {bank_words(link)} today, from the cash already there. "
                    f"Ask what the sale will bring in after commission, and what the wire costs and when it settles, before agreeing.",
                    ["Hi, I've got a few things today, starting with my email address.", me(c, acct), f"The new one is {email}.",
                     f"Next, sell all my {sec['name']} shares. What will I net?", "Yes, sell.",
                     f"And wire {money(amount)} to my {link['bank_name']} account. What's the fee and when does it settle?", "Yes, go ahead."],
                )
                identify(d, c, acct)
                d.write("update_contact_info", client_id=c["client_id"], email=email)
                find_security(d, sec)
                ps = d.read("preview_trade", account_id=acct["account_id"], symbol=h["symbol"], side="sell", quantity=qty)
                out(d, ps["net_proceeds"], "money")
                d.write("place_trade", account_id=acct["account_id"], symbol=h["symbol"], side="sell", quantity=qty)
                d.read("get_client", client_id=c["client_id"])
                d.read("preview_transfer", account_id=acct["account_id"], direction="withdrawal", method="wire", link_id=link["link_id"], amount=amount)
                d.write("request_transfer", account_id=acct["account_id"], direction="withdrawal", method="wire", link_id=link["link_id"], amount=amount)
                d.one_end_state(f"Every change is asked for in full: the new email (10.1), the sale of all the shares (4.1), and a "
                                f"wire of cash already withdrawable (6.4) with its $25.00 fee (6.3), and {named_link(c, link)}.")
                return d

            if b.attempt(make):
                b.take(c["client_id"])
                made += 1
                break


def build() -> TaskWriter:
    b = Builder()
    buy_etf(b, 5, split_last=True)
    concentration(b, 4)
    unsuitable(b, 4)
    stale_then_buy(b, 3, lowered=2)
    rebalance(b, 4, under=3)
    model_switch(b, 4)
    model_too_risky(b, 3)
    sell_buy_deposit(b, 6, split_last=True)
    withdraw_unsettled(b, 2)
    unverified_link(b, 3)
    cancel_and_replace(b, 2)
    cancel_too_late(b, 2)
    ira_withdrawal(b, 2)
    kyc_expired(b, 2)
    performance(b, 5, split_last=True)
    realized(b, 2)
    scheduled_withdrawal(b, 3)
    contact_and_sale(b, 2)
    return b.writer


if __name__ == "__main__":
    path = build().save()
    print(f"wrote {path}")
