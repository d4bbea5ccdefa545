"""Builds fixtures/advertising/tasks.json with a `TaskWriter`: one template per kind of request, concrete
advertisers and records picked from the initial DB with a seeded RNG. Every gold call runs as it is added,
and every figure a task asks for is read from what the tools returned.

    python -m tests_domains.advertising.make_tasks
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import orjson

from pytest_tau import Environment, GoldActionFailed, Kind, Output, TaskDraft, TaskWriter, output_told
from tests_domains.advertising.domain import DOMAIN
from tests_domains.advertising.schema import AdSet, Advertiser, Campaign, Creative, Experiment, Invoice, IVTReport

DB = DOMAIN.initial_db
TODAY = DOMAIN.today
T = TODAY.isoformat()
IVT_CUTOFF = (TODAY - timedelta(days=55)).isoformat()  # clear of the 60-day edge
STEPS = [250.0, 500.0, 1000.0, 2500.0, 5000.0]
FLOOR = {"general": 13, "financial_services": 18, "dating": 18, "weight_loss": 18, "alcohol": 21, "gambling": 21}
SENSITIVE = ["health conditions", "religious beliefs", "political affiliation", "sexual orientation", "financial hardship"]
SAFE_INTERESTS = ["travel", "technology", "books", "luxury goods", "small business owners", "photography", "gaming"]
MOODS = [
    "You are friendly and a little chatty.", "You are busy and want short answers.",
    "You are calm and precise, and you answer only what you are asked.",
    "You are a bit anxious about money and ask the agent to repeat the key figure.", "You are polite but firm.",
]

SCRATCH = Environment(DOMAIN)


def tool(name: str, **arguments: Any) -> Any:
    call = SCRATCH.call(name, arguments)
    assert not call.error, call.result
    return orjson.loads(call.result)


ADVERTISERS = sorted(DB.advertisers.values(), key=lambda a: a.advertiser_id)
CAMPAIGNS: dict[str, list[Campaign]] = defaultdict(list)
for _c in sorted(DB.campaigns.values(), key=lambda c: c.campaign_id):
    CAMPAIGNS[_c.advertiser_id].append(_c)
INVOICES: dict[str, list[Invoice]] = defaultdict(list)
for _i in sorted(DB.invoices.values(), key=lambda i: i.invoice_id):
    INVOICES[_i.advertiser_id].append(_i)
REPORTS: dict[str, list[IVTReport]] = defaultdict(list)
for _r in sorted(DB.ivt_reports.values(), key=lambda r: r.report_id):
    REPORTS[_r.advertiser_id].append(_r)
AD_SETS: dict[str, list[AdSet]] = defaultdict(list)
for _s in sorted(DB.ad_sets.values(), key=lambda s: s.ad_set_id):
    AD_SETS[_s.campaign_id].append(_s)
CREATIVES: dict[str, list[Creative]] = defaultdict(list)
for _cr in sorted(DB.creatives.values(), key=lambda c: c.creative_id):
    CREATIVES[DB.ad_sets[_cr.ad_set_id].campaign_id].append(_cr)
EXPERIMENTS: dict[str, list[Experiment]] = defaultdict(list)
for _e in sorted(DB.experiments.values(), key=lambda e: e.experiment_id):
    EXPERIMENTS[DB.campaigns[_e.campaign_id].advertiser_id].append(_e)
ANALYSIS = {e: tool("analyze_experiment", experiment_id=e) for e in sorted(DB.experiments)}
IVT_QUOTE = {r: tool("quote_ivt_credit", report_id=r) for r in sorted(DB.ivt_reports)}


def in_policy(value: Any, kind: Kind) -> bool:
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return output_told(Output(value=text, kind=kind), DOMAIN.policy)


def words(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.strftime('%B')} {d.day}"


def dollars(x: float) -> str:
    return f"${x:,.0f}" if float(x).is_integer() else f"${x:,.2f}"


def overdue(a: Advertiser) -> list[Invoice]:
    return [i for i in INVOICES[a.advertiser_id] if i.status == "overdue"]


def unpaid(a: Advertiser) -> list[Invoice]:
    return [i for i in INVOICES[a.advertiser_id] if i.status != "paid"]


def flying(c: Campaign) -> bool:
    """Active, in flight with days left, budget not yet changed today."""
    return c.status == "active" and c.start_date < T < c.end_date and c.budget_changed_on != T


def paused_ok(c: Campaign) -> bool:
    return c.status == "paused" and c.end_date > T and c.budget_changed_on != T and any(
        cr.review_status == "approved" for cr in CREATIVES[c.campaign_id])


def delivering(c: Campaign) -> bool:
    return any(cr.delivering for cr in CREATIVES[c.campaign_id])


def clean(a: Advertiser) -> bool:
    return a.status == "active" and not overdue(a)


def unique_names(a: Advertiser) -> bool:
    names = [c.name for c in CAMPAIGNS[a.advertiser_id]]
    return len(names) == len(set(names))


def threshold_ok(a: Advertiser) -> bool:
    changed = a.threshold_changed_on
    return (date.fromisoformat(a.created_on) <= TODAY - timedelta(days=190)
            and sum(1 for i in INVOICES[a.advertiser_id] if i.status == "paid") >= 3 and not overdue(a)
            and (changed is None or changed < (TODAY - timedelta(days=35)).isoformat()))


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(20260610)
        self.used: set[str] = set()
        self.split = "test"

    def mood(self) -> str:
        return self.rng.choice(MOODS) + " Give information only when the agent asks for it."

    def task(self, task_id: str, a: Advertiser, situation: str, script: list[str]) -> TaskDraft:
        who = (f"You are {a.contact_first_name} {a.contact_last_name}, who runs advertising for {a.business_name} on "
               f"Lumenreach Ads. The account's login email is {a.email} and the card on file ends in {a.card_last4}. "
               "You do not know your account number or any internal ids.")
        return self.writer.task(task_id, instructions=f"{who} {self.mood()} {situation}", script=script, split=self.split)

    def run(self, name: str, n: int, cands: list[Any], write: Callable[[str, Any], bool], train: int = 0) -> None:
        items = [c for c in cands if key(c) not in self.used]
        self.rng.shuffle(items)
        done = 0
        for item in items:
            if done == n + train:
                break
            self.split = "train" if done >= n else "test"
            task_id = f"{name}_{done + 1}" if self.split == "test" else f"train_{name}_{done - n + 1}"
            try:
                ok = write(task_id, item)
            except GoldActionFailed:
                ok = False
            if not ok:
                self.writer.drafts.pop(task_id, None)
                continue
            self.used.add(key(item))
            done += 1
        if done < n + train:
            raise SystemExit(f"only {done} of {n + train} candidates for {name}")


def key(item: Any) -> str:
    a = item[0] if isinstance(item, tuple) else item
    return str(a.advertiser_id)


def hello(a: Advertiser) -> str:
    return f"Hi, this is {a.contact_first_name} {a.contact_last_name} from {a.business_name}."


def creds(a: Advertiser) -> str:
    return f"The login is {a.email} and the card ends in {a.card_last4}."


def verify(d: TaskDraft, a: Advertiser) -> Any:
    d.read("find_advertiser", email=a.email, card_last4=a.card_last4)
    return d.read("list_campaigns", advertiser_id=a.advertiser_id)


def steps(d: TaskDraft, *, skip: tuple[str, ...] = ()) -> list[tuple[str, dict[str, Any]]]:
    """The gold calls so far (less the tools named in skip), as the steps of another path."""
    return [(a.name, dict(a.arguments)) for a in d.gold if a.name not in skip]


def fits(d: TaskDraft, value: Any, kind: Kind) -> bool:
    if in_policy(value, kind):
        return False
    d.output(value, kind)
    return True


def accounts(pred: Callable[[Advertiser], bool]) -> list[Advertiser]:
    return [a for a in ADVERTISERS if a.status == "active" and unique_names(a) and pred(a)]


# -- budgets ------------------------------------------------------------------------------------------------
def budget_raise(b: Builder, n: int, train: int = 0) -> None:
    cands = [(a, c) for a in accounts(clean) for c in CAMPAIGNS[a.advertiser_id] if flying(c)]

    def write(task_id: str, item: tuple[Advertiser, Campaign]) -> bool:
        a, c = item
        new = float(round(c.daily_budget * (1 + b.rng.choice([0.2, 0.25, 0.3, 0.4]))))
        d = b.task(task_id, a, f"Your '{c.name}' campaign is doing well and you want its daily budget raised to "
                   f"{dollars(new)}. Before agreeing, ask what the most is that the campaign could spend in total by its "
                   "end date at the new budget. Then agree.",
                   [f"{hello(a)} I'd like to raise a campaign's daily budget.", creds(a),
                    f"It's the '{c.name}' campaign; I want {dollars(new)} a day. What's the most it could spend in total by the end?",
                    "Yes, go ahead."])
        verify(d, a)
        q = d.read("quote_budget_change", campaign_id=c.campaign_id, new_daily_budget=new)
        d.write("update_daily_budget", advertiser_id=a.advertiser_id, campaign_id=c.campaign_id, new_daily_budget=new)
        d.one_end_state("The customer names the campaign (names are unique on the account) and a raise of 20-40%, within 3.2's "
                        "50%; the campaign is active and its budget was not changed today (3.1) and the account has no overdue "
                        "invoice (3.3), so the raise is made at the amount asked, after the quote's max total is told (2.2).")
        return fits(d, q["max_total_spend_by_end_date"], "money")

    b.run("budget_raise", n, cands, write, train)


def budget_over_cap(b: Builder, n: int) -> None:
    cands = [(a, c) for a in accounts(clean) for c in CAMPAIGNS[a.advertiser_id] if flying(c) and c.daily_budget >= 40]

    def write(task_id: str, item: tuple[Advertiser, Campaign]) -> bool:
        a, c = item
        ask, cap = c.daily_budget * 2, c.daily_budget * 1.5
        d = b.task(task_id, a, f"You want the daily budget of your '{c.name}' campaign doubled to {dollars(ask)} today. If the "
                   "agent says that is too much at once, ask for the largest increase allowed today, ask what that would "
                   "let the campaign spend in total by its end date at most, and accept it.",
                   [f"{hello(a)} I need to double a campaign's daily budget.", creds(a),
                    f"The '{c.name}' campaign, to {dollars(ask)} a day.",
                    "Then give me the most you can today. What's the most it could spend by the end date at that budget?",
                    "Yes, do that."])
        verify(d, a)
        q = d.read("quote_budget_change", campaign_id=c.campaign_id, new_daily_budget=cap)
        d.write("update_daily_budget", advertiser_id=a.advertiser_id, campaign_id=c.campaign_id, new_daily_budget=cap)
        d.forbid("update_daily_budget", advertiser_id=a.advertiser_id, campaign_id=c.campaign_id, new_daily_budget=ask)
        d.one_end_state("Doubling is over 3.2's 50% cap, the one reason to refuse it (the campaign is active, its budget not "
                        "changed today (3.1), the account has no overdue invoice (3.3)); the customer then takes the largest "
                        "increase 3.2 allows, exactly 150% of the current budget, made after its quote is told (2.2).")
        return fits(d, q["max_total_spend_by_end_date"], "money")

    b.run("budget_over_cap", n, cands, write)


def budget_changed_today(b: Builder, n: int) -> None:
    cands = [(a, c) for a in accounts(clean) for c in CAMPAIGNS[a.advertiser_id]
             if c.status == "active" and c.budget_changed_on == T and c.start_date < T < c.end_date]

    def write(task_id: str, item: tuple[Advertiser, Campaign]) -> bool:
        a, c = item
        new = float(round(c.daily_budget * 1.2))
        d = b.task(task_id, a, f"Your colleague already adjusted the '{c.name}' campaign this morning, but you want its daily "
                   f"budget at {dollars(new)} now. If the agent refuses, accept it and ask instead how the campaign is pacing: "
                   "you want the pacing percentage and the projected total spend.",
                   [f"{hello(a)} I want to change a campaign's daily budget.", creds(a),
                    f"The '{c.name}' campaign, to {dollars(new)} a day.",
                    "OK. Then how is it pacing? What's the pacing percentage and the projected total spend?"])
        verify(d, a)
        p = d.read("get_campaign_pacing", campaign_id=c.campaign_id)
        d.forbid("update_daily_budget", advertiser_id=a.advertiser_id, campaign_id=c.campaign_id, new_daily_budget=new)
        d.one_end_state("The campaign's budget_changed_on is today, so 3.1 refuses another change today: the one reason (the "
                        "20% raise is within 3.2 and the account has no overdue invoice, 3.3). The customer then asks how it "
                        "paces, and 3.4 tells get_campaign_pacing's pacing percent and projected total spend.")
        return p["pacing_percent"] is not None and fits(d, p["pacing_percent"], "percent") and fits(d, p["projected_total_spend"], "money")

    b.run("budget_changed_today", n, cands, write)


def pacing(b: Builder, n: int) -> None:
    cands = [(a, c) for a in accounts(lambda a: True) for c in CAMPAIGNS[a.advertiser_id]
             if c.status == "active" and c.start_date < (TODAY - timedelta(days=3)).isoformat() and c.end_date > T]

    def write(task_id: str, item: tuple[Advertiser, Campaign]) -> bool:
        a, c = item
        d = b.task(task_id, a, f"You want to know how your '{c.name}' campaign is pacing: how much it has spent before today, "
                   "its pacing percentage, and the total it is projected to spend by the end. You change nothing.",
                   [f"{hello(a)} How is one of my campaigns pacing?", creds(a),
                    f"The '{c.name}' campaign. How much has it spent so far, what's the pacing percentage and the projected total?"])
        verify(d, a)
        p = d.read("get_campaign_pacing", campaign_id=c.campaign_id)
        return (fits(d, p["spend_to_date"], "money") and fits(d, p["pacing_percent"], "percent")
                and fits(d, p["projected_total_spend"], "money"))

    b.run("pacing", n, cands, write)


def pause_and_shift(b: Builder, n: int, train: int = 0) -> None:
    cands = []
    for a in accounts(clean):
        live = [c for c in CAMPAIGNS[a.advertiser_id] if flying(c)]
        stop = [c for c in live if delivering(c)]
        if len(live) >= 3 and stop:
            cands.append((a, stop[0], [c for c in live if c is not stop[0]]))

    def write(task_id: str, item: tuple[Advertiser, Campaign, list[Campaign]]) -> bool:
        a, stop, rest = item
        up, down = rest[0], rest[1]
        new_up = float(round(up.daily_budget * 1.3))
        new_down = float(round(down.daily_budget * 0.6))
        if new_down < 10:
            return False
        d = b.task(task_id, a, f"You are moving money between campaigns: pause '{stop.name}', raise the daily budget of "
                   f"'{up.name}' to {dollars(new_up)} and lower '{down.name}' to {dollars(new_down)} a day. Before agreeing "
                   f"to the budget changes, ask what the most is that '{up.name}' could spend in total by its end date at "
                   "the new budget. Then agree to everything.",
                   [f"{hello(a)} I want to shuffle budgets across three campaigns.", creds(a),
                    f"Pause '{stop.name}', put '{up.name}' up to {dollars(new_up)} a day and '{down.name}' down to "
                    f"{dollars(new_down)} a day. What's the most '{up.name}' could spend by its end date then?",
                    "Yes, do all three."])
        verify(d, a)
        q = d.read("quote_budget_change", campaign_id=up.campaign_id, new_daily_budget=new_up)
        q_down = d.read("quote_budget_change", campaign_id=down.campaign_id, new_daily_budget=new_down)
        d.write("pause_campaign", advertiser_id=a.advertiser_id, campaign_id=stop.campaign_id)
        d.write("update_daily_budget", advertiser_id=a.advertiser_id, campaign_id=up.campaign_id, new_daily_budget=new_up)
        d.write("update_daily_budget", advertiser_id=a.advertiser_id, campaign_id=down.campaign_id, new_daily_budget=new_down)
        d.one_end_state("The customer names all three campaigns (names are unique on the account): 3.5 always allows the "
                        "pause, 3.2 allows the 30% raise and the cut (not below $10), no budget was changed today (3.1) and "
                        "the account has no overdue invoice (3.3), so all three writes are made. 2.2 has the caller hear each "
                        "budget change's max total before confirming, so both quotes' figures are told, the cut's unasked.")
        return fits(d, q["max_total_spend_by_end_date"], "money") and fits(d, q_down["max_total_spend_by_end_date"], "money")

    b.run("pause_and_shift", n, cands, write, train)


def overdue_then_raise(b: Builder, n: int) -> None:
    cands = []
    for a in accounts(lambda a: len(overdue(a)) == 1):
        live = [c for c in CAMPAIGNS[a.advertiser_id] if flying(c)]
        held = [c for c in CAMPAIGNS[a.advertiser_id] if paused_ok(c)]
        if live and held:
            cands.append((a, live[0], held[0]))

    def write(task_id: str, item: tuple[Advertiser, Campaign, Campaign]) -> bool:
        a, up, held = item
        new = float(round(up.daily_budget * 1.25))
        d = b.task(task_id, a, f"You want the daily budget of '{up.name}' raised to {dollars(new)} and your paused campaign "
                   f"'{held.name}' switched back on. You forgot an invoice: if the agent says an overdue invoice is in the way, "
                   "ask how much is due and agree to pay it now with the card on file, then have both changes made. Ask "
                   f"what the most is that '{up.name}' could spend by its end date at the new budget before agreeing to it.",
                   [f"{hello(a)} I want to raise a budget and restart a paused campaign.", creds(a),
                    f"Raise '{up.name}' to {dollars(new)} a day and resume '{held.name}'.",
                    "Oh, I didn't realise. How much is due? I'll pay it now with the card on file.",
                    f"Yes. And what's the most '{up.name}' could spend by the end at the new budget?", "Yes, do both."])
        verify(d, a)
        inv = overdue(a)[0]
        rows = d.read("list_invoices", advertiser_id=a.advertiser_id)
        due = next(r["amount_due"] for r in rows if r["invoice_id"] == inv.invoice_id)
        d.write("pay_invoice", advertiser_id=a.advertiser_id, invoice_id=inv.invoice_id)
        q = d.read("quote_budget_change", campaign_id=up.campaign_id, new_daily_budget=new)
        d.write("update_daily_budget", advertiser_id=a.advertiser_id, campaign_id=up.campaign_id, new_daily_budget=new)
        d.write("resume_campaign", advertiser_id=a.advertiser_id, campaign_id=held.campaign_id)
        d.one_end_state("The account's one overdue invoice blocks the raise and the resume (3.3) until it is paid; the customer "
                        "pays it in the call after hearing its amount due (7.2), which lifts 3.3 at once. Then the raise is "
                        "within 3.2's 50% and quoted first (2.2), and the paused campaign has days left and an approved "
                        "creative (3.5), neither budget changed today (3.1): both changes are made.")
        return fits(d, due, "money") and fits(d, q["max_total_spend_by_end_date"], "money")

    b.run("overdue_then_raise", n, cands, write)


def overdue_refuse(b: Builder, n: int) -> None:
    cands = []
    for a in accounts(lambda a: len(overdue(a)) == 1):
        held = [c for c in CAMPAIGNS[a.advertiser_id] if paused_ok(c)]
        if held:
            cands.append((a, held[0]))

    def write(task_id: str, item: tuple[Advertiser, Campaign]) -> bool:
        a, held = item
        d = b.task(task_id, a, f"You want your paused campaign '{held.name}' switched back on today. If the agent says "
                   "something is in the way, ask exactly how much is overdue, but you do not want to pay anything today (your "
                   "finance team pays invoices on Fridays). Insist once that the campaign be resumed anyway, then accept and end the call.",
                   [f"{hello(a)} Please resume one of my paused campaigns.", creds(a), f"It's '{held.name}'.",
                    "How much is overdue exactly? Finance pays on Fridays, I'm not paying today. Can't you just switch it on?",
                    "Fine, I'll wait."])
        verify(d, a)
        rows = d.read("list_invoices", advertiser_id=a.advertiser_id)
        inv = overdue(a)[0]
        due = next(r["amount_due"] for r in rows if r["invoice_id"] == inv.invoice_id)
        d.forbid("resume_campaign", advertiser_id=a.advertiser_id, campaign_id=held.campaign_id)
        d.one_end_state("The account's one overdue invoice is the one reason 3.3 refuses the resume (the campaign has days left "
                        "and an approved creative, 3.5); the customer will not pay today, so nothing is written and that "
                        "invoice's amount due, which the customer asks for, is told.")
        return fits(d, due, "money")

    b.run("overdue_refuse", n, cands, write)


# -- targeting ----------------------------------------------------------------------------------------------
def targeting_args(a: Advertiser, s: AdSet, **change: Any) -> dict[str, Any]:
    args = {"advertiser_id": a.advertiser_id, "ad_set_id": s.ad_set_id, "min_age": s.min_age, "max_age": s.max_age,
            "countries": sorted(s.countries), "interests": sorted(s.interests)}
    args.update(change)
    return args


def age_floor(b: Builder, n: int, train: int = 0) -> None:
    cands = []
    for a in accounts(lambda a: True):
        for c in CAMPAIGNS[a.advertiser_id]:
            sets = AD_SETS[c.campaign_id]
            if (c.status != "ended" and c.category in ("alcohol", "gambling") and len(sets) == 1 and sets[0].min_age == 21
                    and {"GB", "IE", "AU"} & set(sets[0].countries)):
                cands.append((a, c, sets[0]))

    def write(task_id: str, item: tuple[Advertiser, Campaign, AdSet]) -> bool:
        a, c, s = item
        extra = next((x for x in b.rng.sample(SAFE_INTERESTS, len(SAFE_INTERESTS)) if x not in s.interests), None)
        if extra is None:
            return False
        # a country the ad set targets where the caller's claim is true: drinking and betting are legal at 18 in the UK,
        # Ireland and Australia (not in most Canadian provinces, where drinking is 19, nor in the US)
        country = next(name for code, name in [("GB", "the UK"), ("IE", "Ireland"), ("AU", "Australia")] if code in s.countries)
        age_of = "drinking" if c.category == "alcohol" else "betting"
        d = b.task(task_id, a, f"In your '{c.name}' campaign (it has a single ad set) you want the minimum age lowered to 18, "
                   f"because the legal {age_of} age in {country} is 18. If the agent refuses, argue once, then accept and ask "
                   f"instead to add the '{extra}' interest segment to that ad set, keeping everything else as it is.",
                   [f"{hello(a)} I want to widen the audience of a campaign.", creds(a),
                    f"The '{c.name}' campaign: drop the minimum age to 18. It's legal at 18 in {country}.",
                    f"Really? OK then, add the '{extra}' interest instead and leave the rest alone.", "Yes, please."])
        verify(d, a)
        d.read("list_ad_sets", campaign_id=c.campaign_id)
        d.write("update_ad_set_targeting", **targeting_args(a, s, interests=sorted([*s.interests, extra])))
        d.forbid("update_ad_set_targeting", **targeting_args(a, s, min_age=18))
        d.one_end_state("4.1 keeps alcohol and gambling ad sets at 21 or older whatever the local law, the one reason the 18 is "
                        "refused; the interest added is neither sensitive (4.2) nor restricted (4.3), and 4.4 sends the single "
                        "ad set's current ages, countries and interests with only that interest added.")
        return True

    b.run("age_floor", n, cands, write, train)


def sensitive_interest(b: Builder, n: int) -> None:
    cands = []
    for a in accounts(lambda a: True):
        for c in CAMPAIGNS[a.advertiser_id]:
            sets = AD_SETS[c.campaign_id]
            if (c.status != "ended" and c.category in ("weight_loss", "financial_services", "dating") and len(sets) == 1
                    and len(sets[0].countries) < 6):
                cands.append((a, c, sets[0]))

    def write(task_id: str, item: tuple[Advertiser, Campaign, AdSet]) -> bool:
        a, c, s = item
        seg = "health conditions" if c.category == "weight_loss" else "financial hardship" if c.category == "financial_services" else "sexual orientation"
        country = next(x for x in ["NZ", "IE", "AU", "CA", "GB", "US"] if x not in s.countries)
        names = {"NZ": "New Zealand", "IE": "Ireland", "AU": "Australia", "CA": "Canada", "GB": "the United Kingdom", "US": "the United States"}
        d = b.task(task_id, a, f"Your '{c.name}' campaign has a single ad set. You want the '{seg}' interest segment added to "
                   f"it, because those people convert best, and you also want {names[country]} added to its countries. If the "
                   "agent refuses the segment, accept that and have only the country added.",
                   [f"{hello(a)} I want to change a campaign's targeting.", creds(a),
                    f"The '{c.name}' campaign: add the '{seg}' interest and add {names[country]} ({country}) as a country.",
                    "Fine, just the country then.", "Yes, go ahead."])
        verify(d, a)
        d.read("list_ad_sets", campaign_id=c.campaign_id)
        d.write("update_ad_set_targeting", **targeting_args(a, s, countries=sorted([*s.countries, country])))
        d.forbid("update_ad_set_targeting", **targeting_args(a, s, countries=sorted([*s.countries, country]),
                                                           interests=sorted([*s.interests, seg])))
        d.one_end_state("4.2 never adds a sensitive segment, the one reason that part is refused; the country is one the "
                        "platform serves, so 4.4 sends the single ad set's current targeting with only the country added.")
        return True

    b.run("sensitive_interest", n, cands, write)


# -- experiments --------------------------------------------------------------------------------------------
def declarable(e: Experiment) -> bool:
    r = ANALYSIS[e.experiment_id]
    lead = r["leading_variant"]
    return (e.status == "running" and r["days_running"] >= 7 and all(v["impressions"] >= 1000 for v in r["variants"])
            and lead != "A" and next(v for v in r["variants"] if v["label"] == lead)["confidence_percent"] >= 95)


def not_significant(e: Experiment) -> bool:
    r = ANALYSIS[e.experiment_id]
    lead = r["leading_variant"]
    return (e.status == "running" and r["days_running"] >= 7 and all(v["impressions"] >= 1000 for v in r["variants"])
            and lead != "A" and next(v for v in r["variants"] if v["label"] == lead)["confidence_percent"] < 95)


def exp_campaign(e: Experiment) -> Campaign:
    return DB.campaigns[e.campaign_id]


def declare_winner(b: Builder, n: int) -> None:
    cands = []
    for a in accounts(clean):
        exps = EXPERIMENTS[a.advertiser_id]
        for e in exps:
            c = exp_campaign(e)
            if declarable(e) and len([x for x in exps if x.campaign_id == c.campaign_id]) == 1 and flying(c):
                cands.append((a, e))

    def write(task_id: str, item: tuple[Advertiser, Experiment]) -> bool:
        a, e = item
        c = exp_campaign(e)
        lead = ANALYSIS[e.experiment_id]["leading_variant"]
        new = float(round(c.daily_budget * 1.2))
        d = b.task(task_id, a, f"You run an A/B test on the '{c.name}' campaign. You want to know which variant is ahead and "
                   "by how much (its lift over the control), and, if the agent says a winner can be declared, have it "
                   f"declared. Then you want that campaign's daily budget raised to {dollars(new)}; ask what the most is that "
                   "it could spend by its end date at that budget before agreeing.",
                   [f"{hello(a)} I'd like to wrap up an A/B test.", creds(a),
                    f"It's the test on the '{c.name}' campaign. Which variant is winning, and by how much?",
                    "Great, declare it the winner.",
                    f"And raise that campaign to {dollars(new)} a day. What's the most it could spend by the end?", "Yes, do it."])
        verify(d, a)
        d.read("list_experiments", advertiser_id=a.advertiser_id)
        r = d.read("analyze_experiment", experiment_id=e.experiment_id)
        lift = next(v for v in r["variants"] if v["label"] == lead)["lift_percent"]
        d.write("declare_experiment_winner", advertiser_id=a.advertiser_id, experiment_id=e.experiment_id, winner_label=lead)
        q = d.read("quote_budget_change", campaign_id=c.campaign_id, new_daily_budget=new)
        d.write("update_daily_budget", advertiser_id=a.advertiser_id, campaign_id=c.campaign_id, new_daily_budget=new)
        d.one_end_state("The campaign has one experiment; it has run 7+ days, every variant has 1,000+ impressions and the "
                        "leading challenger's confidence is 95% or more, so 6.2 allows declaring exactly the tool's "
                        "leading_variant, whose lift is told (6.1). The raise is within 3.2's 50%, the budget unchanged today "
                        "(3.1), the account without an overdue invoice (3.3), made after its quote (2.2).")
        return fits(d, lift, "percent") and fits(d, q["max_total_spend_by_end_date"], "money")

    b.run("declare_winner", n, cands, write)


def too_early(b: Builder, n: int, train: int = 0) -> None:
    cands = []
    for a in accounts(lambda a: True):
        exps = EXPERIMENTS[a.advertiser_id]
        for e in exps:
            if not_significant(e) and len([x for x in exps if x.campaign_id == e.campaign_id]) == 1:
                cands.append((a, e))

    def write(task_id: str, item: tuple[Advertiser, Experiment]) -> bool:
        a, e = item
        c = exp_campaign(e)
        lead = ANALYSIS[e.experiment_id]["leading_variant"]
        d = b.task(task_id, a, f"Your A/B test on the '{c.name}' campaign shows variant {lead} ahead and you want {lead} declared "
                   "the winner today. If the agent refuses, ask how confident the result is, push back once, then accept and "
                   "let the test keep running (you do not want it ended).",
                   [f"{hello(a)} I want to declare the winner of an A/B test.", creds(a),
                    f"The test on '{c.name}'. Variant {lead} is clearly ahead, declare it the winner.",
                    "How confident is the result then? It looks obvious to me.", "Alright, leave it running."])
        verify(d, a)
        d.read("list_experiments", advertiser_id=a.advertiser_id)
        r = d.read("analyze_experiment", experiment_id=e.experiment_id)
        conf = next(v for v in r["variants"] if v["label"] == lead)["confidence_percent"]
        d.forbid("declare_experiment_winner", advertiser_id=a.advertiser_id, experiment_id=e.experiment_id, winner_label=lead)
        d.one_end_state("The campaign has one experiment; it has run 7+ days and every variant has 1,000+ impressions, so the "
                        "one unmet condition of 6.2 is the leading challenger's confidence under 95%, told as the tool gives "
                        "it (6.3). The customer keeps the test running, so nothing is written.")
        d.alternative("the experiment found from list_experiments alone (its campaign id), without listing the campaigns",
                      steps(d, skip=("list_campaigns",)))
        return fits(d, conf, "percent")

    b.run("too_early", n, cands, write, train)


# -- creatives ----------------------------------------------------------------------------------------------
def relaunch(b: Builder, n: int) -> None:
    cands = []
    for a in accounts(clean):
        for c in CAMPAIGNS[a.advertiser_id]:
            rej = [cr for cr in CREATIVES[c.campaign_id] if cr.review_status == "rejected"]
            if (paused_ok(c) and len(rej) == 1 and rej[0].rejection_reason in ("misleading_claim", "text_overlay")
                    and rej[0].submissions < 3):
                cands.append((a, c, rej[0]))

    def write(task_id: str, item: tuple[Advertiser, Campaign, Creative]) -> bool:
        a, c, cr = item
        new = float(round(c.daily_budget * 1.2))
        if cr.rejection_reason == "misleading_claim":
            headline = b.rng.choice(["Handmade goods, honest prices", "See what our customers say", "New season range now in",
                                     "Quality you can see up close", "Find your fit with us"])
            why, change = "a misleading claim", f"with the new headline \"{headline}\" (same landing page)"
            line = f"The rejected creative should go back with the headline \"{headline}\", same landing page."
        else:  # the image with too much text was already replaced in the ads manager; headline and page stay
            headline = cr.headline
            why, change = "too much text on the image", "as it is now (you already replaced the image; same headline and landing page)"
            line = "I've already swapped the image on the rejected creative, so send it back to review as it is."
        d = b.task(task_id, a, f"Your paused campaign '{c.name}' has one creative that was rejected for {why}. "
                   f"You want it resubmitted {change}, the campaign's daily "
                   f"budget set to {dollars(new)}, and the campaign resumed. Ask what the most is that the campaign could spend "
                   "by its end date at the new budget before agreeing.",
                   [f"{hello(a)} I want to relaunch a paused campaign.", creds(a),
                    f"It's '{c.name}'. {line} "
                    f"Then set the budget to {dollars(new)} a day and switch the campaign back on.",
                    "What's the most it could spend by its end date at that budget?", "Yes, all of it."])
        verify(d, a)
        d.read("list_creatives", campaign_id=c.campaign_id)
        d.write("resubmit_creative", advertiser_id=a.advertiser_id, creative_id=cr.creative_id, headline=headline,
                landing_url=cr.landing_url)
        q = d.read("quote_budget_change", campaign_id=c.campaign_id, new_daily_budget=new)
        d.write("update_daily_budget", advertiser_id=a.advertiser_id, campaign_id=c.campaign_id, new_daily_budget=new)
        d.write("resume_campaign", advertiser_id=a.advertiser_id, campaign_id=c.campaign_id)
        d.one_end_state("The campaign's one rejected creative was turned down for a reason 5.2 lets it resubmit (a misleading "
                        "claim with the new headline the customer gives, or text overlay as it is) and has fewer than 3 "
                        "submissions; the raise is within 3.2's 50% and quoted first (2.2); the campaign has days left and an "
                        "approved creative and the account no overdue invoice, so 3.5 allows the resume.")
        return fits(d, q["max_total_spend_by_end_date"], "money")

    b.run("relaunch", n, cands, write)


def prohibited_dispute(b: Builder, n: int) -> None:
    cands = []
    for a in accounts(lambda a: True):
        for c in CAMPAIGNS[a.advertiser_id]:
            rej = [cr for cr in CREATIVES[c.campaign_id] if cr.review_status == "rejected"]
            if c.status != "ended" and len(rej) == 1 and rej[0].rejection_reason == "prohibited_content":
                cands.append((a, c, rej[0]))

    def write(task_id: str, item: tuple[Advertiser, Campaign, Creative]) -> bool:
        a, c, cr = item
        d = b.task(task_id, a, f"One creative of your '{c.name}' campaign (the only rejected one) was turned down and you want it "
                   "sent back to review unchanged. If the agent refuses, say you think the rejection is simply wrong and you "
                   "want it looked at by a person.",
                   [f"{hello(a)} One of my ads got rejected and I want it resubmitted.", creds(a),
                    f"It's in the '{c.name}' campaign, the rejected one. Resubmit it as it is.",
                    "That rejection is wrong. I want a person to look at it."])
        verify(d, a)
        d.read("list_creatives", campaign_id=c.campaign_id)
        d.require("list_creatives", campaign_id=c.campaign_id)
        d.forbid("resubmit_creative", advertiser_id=a.advertiser_id, creative_id=cr.creative_id, headline=cr.headline,
                 landing_url=cr.landing_url)
        d.transfer(f"{a.business_name} disputes the prohibited_content rejection of creative {cr.creative_id}.")
        d.one_end_state("The campaign's one rejected creative was turned down for prohibited_content: 5.3 never resubmits it, "
                        "and the customer disputes the rejection, which 5.3 and 9 send to a human after list_creatives shows "
                        "the reason (the look-up 9 asks for).")
        return True

    b.run("prohibited_dispute", n, cands, write)


# -- billing ------------------------------------------------------------------------------------------------
def threshold_step(b: Builder, n: int) -> None:
    cands = [a for a in accounts(threshold_ok) if a.billing_threshold <= 1000]

    def write(task_id: str, a: Advertiser) -> bool:
        i = STEPS.index(a.billing_threshold)
        nxt, two = STEPS[i + 1], STEPS[i + 2]
        d = b.task(task_id, a, f"Your account is invoiced every time its spend reaches the billing threshold and you find it too "
                   f"frequent: you want the threshold raised to {dollars(two)}. If the agent offers less, accept the highest "
                   "they can do today.",
                   [f"{hello(a)} I'd like a higher billing threshold.", creds(a),
                    f"I want it at {dollars(two)}.", "OK, whatever the highest is you can do today. Go ahead."])
        d.read("find_advertiser", email=a.email, card_last4=a.card_last4)
        d.read("list_invoices", advertiser_id=a.advertiser_id)
        d.write("set_billing_threshold", advertiser_id=a.advertiser_id, new_threshold=int(nxt))
        d.forbid("set_billing_threshold", advertiser_id=a.advertiser_id, new_threshold=int(two))
        d.one_end_state("The account is 190+ days old, has 3+ paid invoices and none overdue, and its threshold was not changed "
                        "in the last 35 days, so 7.3 allows a raise of one step only: the next step up, which the customer takes.")
        return True

    b.run("threshold_step", n, cands, write)


def threshold_recent(b: Builder, n: int) -> None:
    cutoff = (TODAY - timedelta(days=25)).isoformat()
    cands = [a for a in ADVERTISERS if a.status == "active" and a.threshold_changed_on and a.threshold_changed_on >= cutoff
             and a.billing_threshold < 5000 and not overdue(a) and a.created_on <= (TODAY - timedelta(days=190)).isoformat()
             and sum(1 for i in INVOICES[a.advertiser_id] if i.status == "paid") >= 3]

    def write(task_id: str, a: Advertiser) -> bool:
        nxt = STEPS[STEPS.index(a.billing_threshold) + 1]
        d = b.task(task_id, a, f"You want your billing threshold raised to {dollars(nxt)}. If the agent refuses, ask on which "
                   "date it was last changed, then accept and end the call.",
                   [f"{hello(a)} Can you raise my billing threshold?", creds(a), f"To {dollars(nxt)}, please.",
                    "Hm. When was it last changed, then?"])
        adv = d.read("find_advertiser", email=a.email, card_last4=a.card_last4)
        d.forbid("set_billing_threshold", advertiser_id=a.advertiser_id, new_threshold=int(nxt))
        d.one_end_state("The threshold was changed less than 30 days ago, the one unmet condition of 7.3 (the account is 190+ "
                        "days old, has 3+ paid invoices and none overdue); the customer then asks the date of that change, "
                        "find_advertiser's threshold_changed_on.")
        d.alternative("the invoices read to check 7.3's other conditions before refusing",
                      [*steps(d), ("list_invoices", {"advertiser_id": a.advertiser_id})])
        return fits(d, adv["threshold_changed_on"], "date")

    b.run("threshold_recent", n, cands, write)


# -- invalid traffic ----------------------------------------------------------------------------------------
def creditable(r: IVTReport) -> bool:
    return r.status == "confirmed" and r.period_end >= IVT_CUTOFF


def ivt_credit_pause(b: Builder, n: int, train: int = 0) -> None:
    cands = []
    for a in accounts(clean):
        for r in REPORTS[a.advertiser_id]:
            c = DB.campaigns[r.campaign_id]
            if (creditable(r) and IVT_QUOTE[r.report_id]["credit_amount"] <= 500 and flying(c) and delivering(c)
                    and c.daily_budget * 0.5 >= 10):
                cands.append((a, r))

    def write(task_id: str, item: tuple[Advertiser, IVTReport]) -> bool:
        a, r = item
        c = DB.campaigns[r.campaign_id]
        new = float(round(c.daily_budget * 0.5))
        d = b.task(task_id, a, f"You got an email that invalid clicks were found on your '{c.name}' campaign for "
                   f"{words(r.period_start)} to {words(r.period_end)}. You want the credit you are owed, on your account "
                   f"balance, and ask how much it is. You also want '{c.name}' paused and its daily budget cut to "
                   f"{dollars(new)} until you have looked into it; ask what the most is that it could spend by its end date "
                   "at that budget before agreeing.",
                   [f"{hello(a)} You found invalid clicks on one of my campaigns and I want my credit.", creds(a),
                    f"It's '{c.name}', {words(r.period_start)} to {words(r.period_end)}. How much is the credit? On the account balance is fine.",
                    f"Yes. Also pause '{c.name}' and cut its budget to {dollars(new)} a day. What's the most it could spend by the end then?",
                    "Yes, do it."])
        verify(d, a)
        d.read("list_ivt_reports", advertiser_id=a.advertiser_id)
        q = d.read("quote_ivt_credit", report_id=r.report_id)
        d.write("issue_ivt_credit", advertiser_id=a.advertiser_id, report_id=r.report_id, destination="account_balance",
                note="invalid traffic credit")
        bq = d.read("quote_budget_change", campaign_id=c.campaign_id, new_daily_budget=new)
        d.write("pause_campaign", advertiser_id=a.advertiser_id, campaign_id=c.campaign_id)
        d.write("update_daily_budget", advertiser_id=a.advertiser_id, campaign_id=c.campaign_id, new_daily_budget=new)
        d.one_end_state("The customer names the campaign and the report's dates (one report per campaign): it is confirmed and "
                        "ended within 60 days (8.2), its credit is $500 or less (8.4) and goes to the account balance as asked "
                        "(8.3); 3.5 always allows the pause and 3.2 the cut (not below $10), made after its quote (2.2).")
        return fits(d, q["credit_amount"], "money") and fits(d, bq["max_total_spend_by_end_date"], "money")

    b.run("ivt_credit_pause", n, cands, write, train)


def ivt_card_refund(b: Builder, n: int) -> None:
    cands = [(a, r) for a in accounts(lambda a: bool(unpaid(a))) for r in REPORTS[a.advertiser_id]
             if creditable(r) and IVT_QUOTE[r.report_id]["credit_amount"] <= 500]

    def write(task_id: str, item: tuple[Advertiser, IVTReport]) -> bool:
        a, r = item
        c = DB.campaigns[r.campaign_id]
        d = b.task(task_id, a, f"Invalid clicks were found on your '{c.name}' campaign for {words(r.period_start)} to "
                   f"{words(r.period_end)}. You want the credit refunded to your card, not left on the account, and you ask "
                   "how much it is. If the agent says a card refund is not possible, you do not want it on the account "
                   "balance either for now: say you will call back after talking to your accountant, and end the call.",
                   [f"{hello(a)} I want a refund for invalid clicks.", creds(a),
                    f"The '{c.name}' campaign, {words(r.period_start)} to {words(r.period_end)}. How much is it? I want it back on my card.",
                    "Then leave it for now, I'll talk to my accountant and call back."])
        verify(d, a)
        d.read("list_ivt_reports", advertiser_id=a.advertiser_id)
        d.read("list_invoices", advertiser_id=a.advertiser_id)
        q = d.read("quote_ivt_credit", report_id=r.report_id)
        d.forbid("issue_ivt_credit", advertiser_id=a.advertiser_id, report_id=r.report_id, destination="card_refund",
                 note="invalid traffic refund")
        d.one_end_state("The account has an open or overdue invoice, so 8.3 refuses a refund to the card: the one reason (the "
                        "report is confirmed and ended within 60 days, 8.2, and its credit is $500 or less, 8.4). The customer "
                        "declines the balance, so nothing is written and the quoted credit is told.")
        d.alternative("the report found from list_ivt_reports alone (its campaign id and dates), without listing the campaigns",
                      steps(d, skip=("list_campaigns",)))
        return fits(d, q["credit_amount"], "money")

    b.run("ivt_card_refund", n, cands, write)


def ivt_large(b: Builder, n: int) -> None:
    cands = [(a, r) for a in accounts(lambda a: True) for r in REPORTS[a.advertiser_id]
             if creditable(r) and IVT_QUOTE[r.report_id]["credit_amount"] > 500]

    def write(task_id: str, item: tuple[Advertiser, IVTReport]) -> bool:
        a, r = item
        c = DB.campaigns[r.campaign_id]
        d = b.task(task_id, a, f"Invalid clicks were found on your '{c.name}' campaign for {words(r.period_start)} to "
                   f"{words(r.period_end)}. You want the credit on your account balance and ask how much it is. If the agent "
                   "says someone else has to handle it, agree to be handed over.",
                   [f"{hello(a)} I'm owed a credit for invalid clicks.", creds(a),
                    f"The '{c.name}' campaign, {words(r.period_start)} to {words(r.period_end)}. How much is it? Put it on the account.",
                    "OK, hand me over then."])
        verify(d, a)
        d.read("list_ivt_reports", advertiser_id=a.advertiser_id)
        q = d.read("quote_ivt_credit", report_id=r.report_id)
        d.require("quote_ivt_credit", report_id=r.report_id)
        d.forbid("issue_ivt_credit", advertiser_id=a.advertiser_id, report_id=r.report_id, destination="account_balance",
                 note="invalid traffic credit")
        d.transfer(f"IVT credit of {q['credit_amount']} for report {r.report_id} exceeds the desk's limit.")
        d.one_end_state("The report is confirmed and ended within 60 days (8.2) but its credit is over $500, so 8.4 has the "
                        "agent quote it, tell the amount and transfer to the billing team (9); nothing is issued.")
        d.alternative("the report found from list_ivt_reports alone (its campaign id and dates), without listing the campaigns",
                      steps(d, skip=("list_campaigns",)))
        return fits(d, q["credit_amount"], "money")

    b.run("ivt_large", n, cands, write)


def suspended(b: Builder, n: int) -> None:
    cands = [(a, c) for a in ADVERTISERS if a.status == "suspended" and unique_names(a)
             for c in CAMPAIGNS[a.advertiser_id] if c.status == "paused" and c.end_date > T]

    def write(task_id: str, item: tuple[Advertiser, Campaign]) -> bool:
        a, c = item
        d = b.task(task_id, a, f"You want your paused campaign '{c.name}' resumed today. If the agent says the account is "
                   "suspended, insist you did nothing wrong, ask what exactly your file says you did and who decided it, "
                   "and ask for the suspension to be reviewed by someone.",
                   [f"{hello(a)} Please switch my campaign '{c.name}' back on.", creds(a),
                    "Suspended? We've done nothing wrong. What does my file say we did, and who decided that?",
                    "Then I want someone to review that."])
        d.read("find_advertiser", email=a.email, card_last4=a.card_last4)
        d.require("find_advertiser", email=a.email, card_last4=a.card_last4)
        d.forbid("resume_campaign", advertiser_id=a.advertiser_id, campaign_id=c.campaign_id)
        d.transfer(f"{a.business_name} ({a.advertiser_id}) asks for a review of the account suspension.")
        d.one_end_state("The account is suspended: 1.3 makes no change and sends the owner's review request to a human (9), "
                        "and 10.1 keeps the risk review note unsaid, so the transfer is the one end state.")
        d.alternative("the campaigns listed first to find the one named, before the suspension is seen",
                      [*steps(d, skip=("transfer_to_human_agents",)), ("list_campaigns", {"advertiser_id": a.advertiser_id}),
                       ("transfer_to_human_agents", {"summary": "The suspended account's owner asks for a review."})])
        return True

    b.run("suspended", n, cands, write)


def build() -> TaskWriter:
    b = Builder()
    budget_raise(b, 3, train=1)
    budget_over_cap(b, 3)
    budget_changed_today(b, 3)
    pacing(b, 2)
    pause_and_shift(b, 4, train=1)
    overdue_then_raise(b, 4)
    overdue_refuse(b, 3)
    age_floor(b, 3, train=1)
    sensitive_interest(b, 3)
    declare_winner(b, 3)
    too_early(b, 3, train=1)
    relaunch(b, 3)
    prohibited_dispute(b, 3)
    threshold_step(b, 3)
    threshold_recent(b, 3)
    ivt_credit_pause(b, 4)
    ivt_card_refund(b, 3)
    ivt_large(b, 3)
    suspended(b, 2)
    return b.writer


if __name__ == "__main__":
    print(build().save())
