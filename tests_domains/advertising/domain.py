"""Lumenreach Ads advertiser desk: the tools an agent uses to serve advertisers who contact support.

The tools refuse only what the data makes impossible (no such record, not this advertiser's, an ended
campaign, a report already credited, an invoice already paid). Every rule of the policy (budget step
limits, once-a-day changes, age floors, sensitive segments, when a test winner may be declared, billing
threshold eligibility, IVT credit windows and hand-offs) is the agent's to apply.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import area_codes_valid, cents, half_up, money_decimal, no_typos, not_after_now, ordered
from tests_domains.advertising.schema import (
    AdSet,
    Advertiser,
    AdvertisingDB,
    Campaign,
    Creative,
    Credit,
    Experiment,
    IVTReport,
)

DOMAIN = Domain("advertising", AdvertisingDB, now=datetime(2026, 6, 10, 10, 0))

INTEREST_SEGMENTS = [
    "outdoor recreation", "cycling", "coffee", "cooking", "home improvement", "travel", "fashion", "pets", "gardening",
    "fitness", "technology", "parenting", "music festivals", "photography", "personal finance", "craft beer", "wine",
    "sports betting", "online dating", "healthy eating", "health conditions", "religious beliefs", "political affiliation",
    "sexual orientation", "financial hardship", "luxury goods", "gaming", "books", "home buyers", "small business owners",
]
COUNTRY_CODES = ["US", "CA", "GB", "IE", "AU", "NZ"]

AdvertiserId = Annotated[str, Field(description="the advertiser account number, e.g. 'LR-4821-9930'")]
CampaignId = Annotated[str, Field(description="the campaign id, e.g. 'CMP-482913'")]
Money = Annotated[float, Field(description="an amount in US dollars, e.g. 150.0")]


def _today() -> date:
    return DOMAIN.today


def _money(x: float) -> float:
    return round(x + 1e-9, 2)


def _ivt_credit(rep: IVTReport) -> float:
    """The invalid share of the clicks times what the period cost, rounded half a cent up (exact, not binary)."""
    return float(half_up(money_decimal(rep.cost_in_period) * rep.invalid_clicks / rep.total_clicks))


def _advertiser(db: AdvertisingDB, advertiser_id: str) -> Advertiser:
    return db.advertisers.require(advertiser_id)


def _own_campaign(db: AdvertisingDB, advertiser_id: str, campaign_id: str) -> Campaign:
    adv = _advertiser(db, advertiser_id)
    cmp = db.campaigns.require(campaign_id)
    if cmp.advertiser_id != adv.advertiser_id:
        raise ToolError(f"campaign {campaign_id!r} does not belong to advertiser {advertiser_id}")
    return cmp


def _days_left_after_today(cmp: Campaign) -> int:
    end = date.fromisoformat(cmp.end_date)
    start = max(date.fromisoformat(cmp.start_date), _today() + timedelta(days=1))
    return max(0, (end - start).days + 1)


def _runs_today(cmp: Campaign) -> bool:
    return cmp.start_date <= _today().isoformat() <= cmp.end_date


# ----------------------------------------------------------------------------- accounts


@DOMAIN.tool(authenticates=True)
def find_advertiser(
    db: AdvertisingDB,
    email: Annotated[str, Field(description="the login email of the advertiser account")],
    card_last4: Annotated[str, Field(description="the last four digits of the payment card on file")],
) -> Advertiser:
    """Authenticate a caller by the account's login email and the last four digits of the card on file; returns
    the advertiser account."""
    for adv in db.advertisers.find(email=email):
        if adv.card_last4 == card_last4.strip():
            return adv
    raise ToolError("no advertiser account matches that email and card")


@DOMAIN.tool
def get_advertiser(db: AdvertisingDB, advertiser_id: AdvertiserId) -> Advertiser:
    """An advertiser account: status, creation date, billing threshold, credit balance, card on file."""
    return _advertiser(db, advertiser_id)


@DOMAIN.tool
def list_invoices(db: AdvertisingDB, advertiser_id: AdvertiserId) -> list[dict[str, Any]]:
    """Every invoice of an advertiser, newest first, with the amount still due on each."""
    adv = _advertiser(db, advertiser_id)
    out = []
    for inv in sorted(db.invoices.where(advertiser_id=adv.advertiser_id), key=lambda i: i.issued_on, reverse=True):
        due = 0.0 if inv.status == "paid" else _money(inv.amount - inv.credits_applied)
        out.append({**inv.model_dump(), "amount_due": due})
    return out


@DOMAIN.tool(write=True)
def pay_invoice(
    db: AdvertisingDB,
    advertiser_id: AdvertiserId,
    invoice_id: Annotated[str, Field(description="the invoice number, e.g. 'INV-2605-48213'")],
) -> dict[str, Any]:
    """Charge the card on file for what is still due on an open or overdue invoice and mark it paid."""
    adv = _advertiser(db, advertiser_id)
    inv = db.invoices.require(invoice_id)
    if inv.advertiser_id != adv.advertiser_id:
        raise ToolError(f"invoice {invoice_id!r} does not belong to advertiser {advertiser_id}")
    if inv.status == "paid":
        raise ToolError(f"invoice {inv.invoice_id} is already paid")
    charged = _money(inv.amount - inv.credits_applied)
    inv = db.invoices[inv.invoice_id]
    inv.status = "paid"
    inv.paid_on = _today().isoformat()
    return {"invoice_id": inv.invoice_id, "charged": charged, "card": f"{adv.card_brand} ending {adv.card_last4}", "status": "paid"}


@DOMAIN.tool(write=True)
def set_billing_threshold(
    db: AdvertisingDB,
    advertiser_id: AdvertiserId,
    new_threshold: Annotated[Literal[250, 500, 1000, 2500, 5000], Field(description="the new billing threshold in dollars")],
) -> Advertiser:
    """Set the account's billing threshold (the accrued spend at which an invoice is raised and charged)."""
    adv = db.advertisers[_advertiser(db, advertiser_id).advertiser_id]
    if float(new_threshold) == adv.billing_threshold:
        raise ToolError(f"the billing threshold is already {adv.billing_threshold:.2f}")
    adv.billing_threshold = float(new_threshold)
    adv.threshold_changed_on = _today().isoformat()
    return adv


# ----------------------------------------------------------------------------- campaigns


@DOMAIN.tool
def list_campaigns(db: AdvertisingDB, advertiser_id: AdvertiserId) -> list[Campaign]:
    """Every campaign of an advertiser (active, paused and ended), by start date."""
    adv = _advertiser(db, advertiser_id)
    return sorted(db.campaigns.where(advertiser_id=adv.advertiser_id), key=lambda c: (c.start_date, c.campaign_id))


@DOMAIN.tool
def get_campaign_pacing(db: AdvertisingDB, campaign_id: CampaignId) -> dict[str, Any]:
    """Pacing of a campaign: days delivered before today, the spend expected from the daily budget over those
    days, actual spend, pacing as a percent of expected, and the projected total spend at the end date if the
    campaign keeps its current pace (today included)."""
    cmp = db.campaigns.require(campaign_id)
    start, end = date.fromisoformat(cmp.start_date), date.fromisoformat(cmp.end_date)
    elapsed = max(0, (min(_today(), end + timedelta(days=1)) - start).days)
    expected = _money(cmp.daily_budget * elapsed)
    pace = cmp.spend_to_date / expected if expected else 1.0
    remaining = _days_left_after_today(cmp) + (1 if _runs_today(cmp) else 0)
    projected = cmp.spend_to_date if cmp.status == "ended" else cmp.spend_to_date + remaining * cmp.daily_budget * min(pace, 1.0)
    return {
        "campaign_id": cmp.campaign_id, "name": cmp.name, "status": cmp.status, "daily_budget": cmp.daily_budget,
        "days_delivered": elapsed, "expected_spend_to_date": expected, "spend_to_date": cmp.spend_to_date,
        "spend_today": cmp.spend_today, "pacing_percent": round(pace * 100, 1) if expected else None,
        "days_remaining_including_today": remaining, "projected_total_spend": _money(projected),
    }


@DOMAIN.tool
def quote_budget_change(
    db: AdvertisingDB,
    campaign_id: CampaignId,
    new_daily_budget: Money,
) -> dict[str, Any]:
    """What a new daily budget would mean, without changing anything: the change as a percent of the current
    budget and the most the campaign could spend in total by its end date at the new budget (spend to date,
    today's budget, and every remaining day at the new budget)."""
    cmp = db.campaigns.require(campaign_id)
    if not math.isfinite(new_daily_budget) or new_daily_budget <= 0:
        raise ToolError("new_daily_budget must be a positive amount")
    today = max(new_daily_budget, cmp.spend_today) if _runs_today(cmp) else 0.0
    max_total = cmp.spend_to_date + today + _days_left_after_today(cmp) * new_daily_budget
    return {
        "campaign_id": cmp.campaign_id, "current_daily_budget": cmp.daily_budget, "new_daily_budget": _money(new_daily_budget),
        "change_percent": round((new_daily_budget - cmp.daily_budget) / cmp.daily_budget * 100, 1),
        "last_budget_change": cmp.budget_changed_on, "max_total_spend_by_end_date": _money(max_total),
        "end_date": cmp.end_date,
    }


@DOMAIN.tool(write=True)
def update_daily_budget(
    db: AdvertisingDB,
    advertiser_id: AdvertiserId,
    campaign_id: CampaignId,
    new_daily_budget: Money,
) -> Campaign:
    """Set a campaign's daily budget (effective immediately, today included)."""
    cmp = _own_campaign(db, advertiser_id, campaign_id)
    if cmp.status == "ended":
        raise ToolError(f"campaign {cmp.campaign_id} has ended")
    if not math.isfinite(new_daily_budget) or new_daily_budget <= 0:
        raise ToolError("new_daily_budget must be a positive amount")
    cmp = db.campaigns[cmp.campaign_id]
    cmp.daily_budget = _money(new_daily_budget)
    cmp.budget_changed_on = _today().isoformat()
    return cmp


def _delivers(cmp: Campaign, ad_set: AdSet, cr: Creative) -> bool:
    """A creative serves now: approved, in an active ad set of an active campaign that runs today."""
    return cmp.status == "active" and _runs_today(cmp) and ad_set.status == "active" and cr.review_status == "approved"


def _set_delivery(db: AdvertisingDB, cmp: Campaign) -> None:
    for ad_set in db.ad_sets.where(campaign_id=cmp.campaign_id):
        for cr in list(db.creatives.where(ad_set_id=ad_set.ad_set_id)):
            on = _delivers(cmp, ad_set, cr)
            if cr.delivering != on:
                db.creatives[cr.creative_id].delivering = on


@DOMAIN.tool(write=True)
def pause_campaign(db: AdvertisingDB, advertiser_id: AdvertiserId, campaign_id: CampaignId) -> Campaign:
    """Pause an active campaign; its creatives stop delivering."""
    cmp = _own_campaign(db, advertiser_id, campaign_id)
    if cmp.status != "active":
        raise ToolError(f"campaign {cmp.campaign_id} is {cmp.status}, not active")
    cmp = db.campaigns[cmp.campaign_id]
    cmp.status = "paused"
    _set_delivery(db, cmp)
    return cmp


@DOMAIN.tool(write=True)
def resume_campaign(db: AdvertisingDB, advertiser_id: AdvertiserId, campaign_id: CampaignId) -> Campaign:
    """Resume a paused campaign; approved creatives in its active ad sets deliver again."""
    cmp = _own_campaign(db, advertiser_id, campaign_id)
    if cmp.status != "paused":
        raise ToolError(f"campaign {cmp.campaign_id} is {cmp.status}, not paused")
    cmp = db.campaigns[cmp.campaign_id]
    cmp.status = "active"
    _set_delivery(db, cmp)
    return cmp


# ----------------------------------------------------------------------------- targeting and creatives


@DOMAIN.tool
def list_ad_sets(db: AdvertisingDB, campaign_id: CampaignId) -> list[AdSet]:
    """The ad sets of a campaign with their targeting (ages, countries, interest segments)."""
    cmp = db.campaigns.require(campaign_id)
    return sorted(db.ad_sets.where(campaign_id=cmp.campaign_id), key=lambda a: a.ad_set_id)


@DOMAIN.tool
def list_interest_segments(db: AdvertisingDB) -> list[str]:
    """Every interest segment the platform can target, and the country codes it serves."""
    return INTEREST_SEGMENTS + [f"country:{c}" for c in COUNTRY_CODES]


@DOMAIN.tool(write=True)
def update_ad_set_targeting(
    db: AdvertisingDB,
    advertiser_id: AdvertiserId,
    ad_set_id: Annotated[str, Field(description="the ad set id, e.g. 'AS-4829131'")],
    min_age: Annotated[int, Field(description="youngest age targeted, 13-65")],
    max_age: Annotated[int, Field(description="oldest age targeted, 13-65 (65 means 65 and over)")],
    countries: Annotated[list[str], Field(description="two-letter country codes to target, e.g. ['US', 'CA']")],
    interests: Annotated[list[str], Field(description="the complete list of interest segments to target")],
) -> AdSet:
    """Replace an ad set's targeting: age range, countries and interest segments (send the full lists)."""
    ad_set = db.ad_sets.require(ad_set_id)
    _own_campaign(db, advertiser_id, ad_set.campaign_id)
    if not 13 <= min_age <= max_age <= 65:
        raise ToolError("ages must satisfy 13 <= min_age <= max_age <= 65")
    codes = sorted({c.strip().upper() for c in countries})
    if not codes or any(c not in COUNTRY_CODES for c in codes):
        raise ToolError(f"countries must be a non-empty list of {', '.join(COUNTRY_CODES)}")
    segs = sorted({i.strip().lower() for i in interests})
    unknown = [i for i in segs if i not in INTEREST_SEGMENTS]
    if unknown:
        raise ToolError(f"unknown interest segment(s): {', '.join(unknown)}")
    ad_set = db.ad_sets[ad_set.ad_set_id]
    ad_set.min_age, ad_set.max_age, ad_set.countries, ad_set.interests = min_age, max_age, codes, segs
    return ad_set


@DOMAIN.tool
def list_creatives(db: AdvertisingDB, campaign_id: CampaignId) -> list[Creative]:
    """Every creative in a campaign's ad sets, with review status, rejection reason and submissions so far."""
    cmp = db.campaigns.require(campaign_id)
    out: list[Creative] = []
    for ad_set in sorted(db.ad_sets.where(campaign_id=cmp.campaign_id), key=lambda a: a.ad_set_id):
        out += sorted(db.creatives.where(ad_set_id=ad_set.ad_set_id), key=lambda c: c.creative_id)
    return out


@DOMAIN.tool(write=True)
def resubmit_creative(
    db: AdvertisingDB,
    advertiser_id: AdvertiserId,
    creative_id: Annotated[str, Field(description="the creative id, e.g. 'CR-48291311'")],
    headline: Annotated[FreeText, Field(description="the headline to submit (the current one if unchanged)")],
    landing_url: Annotated[str, Field(description="the landing page URL to submit (the current one if unchanged)")],
) -> Creative:
    """Send a rejected creative back to review with its (corrected) headline and landing page."""
    cr = db.creatives.require(creative_id)
    _own_campaign(db, advertiser_id, db.ad_sets.require(cr.ad_set_id).campaign_id)
    if cr.review_status != "rejected":
        raise ToolError(f"creative {cr.creative_id} is {cr.review_status}, not rejected")
    url = landing_url.strip()
    if not url.startswith("https://") or " " in url:
        raise ToolError("landing_url must be an https:// address")
    cr = db.creatives[cr.creative_id]
    cr.headline, cr.landing_url = headline, url
    cr.review_status, cr.rejection_reason, cr.delivering = "pending_review", None, False
    cr.submissions += 1
    return cr


# ----------------------------------------------------------------------------- experiments


@DOMAIN.tool
def list_experiments(db: AdvertisingDB, advertiser_id: AdvertiserId) -> list[Experiment]:
    """Every A/B experiment on the advertiser's campaigns."""
    adv = _advertiser(db, advertiser_id)
    out: list[Experiment] = []
    for cmp in sorted(db.campaigns.where(advertiser_id=adv.advertiser_id), key=lambda c: c.campaign_id):
        out += sorted(db.experiments.where(campaign_id=cmp.campaign_id), key=lambda e: e.experiment_id)
    return out


def _rate(metric: str, v: Any) -> tuple[int, int]:
    return (v.conversions, v.clicks) if metric == "conversion_rate" else (v.clicks, v.impressions)


@DOMAIN.tool
def analyze_experiment(db: AdvertisingDB, experiment_id: Annotated[str, Field(description="e.g. 'EXP-48213'")]) -> dict[str, Any]:
    """Results of an A/B experiment on its metric: each variant's rate, each challenger's lift over the control
    (variant A) and the statistical confidence of that difference (two-sided two-proportion z-test), the leading
    variant, and the days it has run."""
    exp = db.experiments.require(experiment_id)
    control = exp.variants[0]
    cx, cn = _rate(exp.metric, control)
    rows = []
    for v in exp.variants:
        x, n = _rate(exp.metric, v)
        rate = x / n if n else 0.0
        row: dict[str, Any] = {"label": v.label, "creative_id": v.creative_id, "impressions": v.impressions,
                               "rate_percent": round(rate * 100, 2)}
        if v is not control:
            crate = cx / cn if cn else 0.0
            pooled = (x + cx) / (n + cn) if n + cn else 0.0
            se = math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / cn)) if n and cn and 0 < pooled < 1 else 0.0
            z = (rate - crate) / se if se else 0.0
            p = math.erfc(abs(z) / math.sqrt(2))
            row["lift_percent"] = round((rate - crate) / crate * 100, 1) if crate else None
            row["confidence_percent"] = round((1 - p) * 100, 1)
        rows.append(row)
    leading = max(rows, key=lambda r: (r["rate_percent"], -ord(r["label"][0])))
    return {"experiment_id": exp.experiment_id, "metric": exp.metric, "status": exp.status, "started_on": exp.started_on,
            "days_running": (_today() - date.fromisoformat(exp.started_on)).days, "variants": rows,
            "leading_variant": leading["label"], "winner": exp.winner}


@DOMAIN.tool(write=True)
def declare_experiment_winner(
    db: AdvertisingDB,
    advertiser_id: AdvertiserId,
    experiment_id: Annotated[str, Field(description="e.g. 'EXP-48213'")],
    winner_label: Annotated[str, Field(description="the winning variant's label, e.g. 'B'")],
) -> Experiment:
    """Conclude a running experiment with a winner: the losing variants' creatives stop delivering."""
    exp = db.experiments.require(experiment_id)
    _own_campaign(db, advertiser_id, exp.campaign_id)
    if exp.status != "running":
        raise ToolError(f"experiment {exp.experiment_id} is already concluded")
    label = winner_label.strip().upper()
    if label not in [v.label for v in exp.variants]:
        raise ToolError(f"experiment {exp.experiment_id} has no variant {winner_label!r}")
    exp = db.experiments[exp.experiment_id]
    exp.status, exp.winner, exp.concluded_on = "concluded", label, _today().isoformat()
    for v in exp.variants:
        if v.label != label and db.creatives.require(v.creative_id).delivering:
            db.creatives[v.creative_id].delivering = False
    return exp


@DOMAIN.tool(write=True)
def end_experiment_without_winner(
    db: AdvertisingDB,
    advertiser_id: AdvertiserId,
    experiment_id: Annotated[str, Field(description="e.g. 'EXP-48213'")],
) -> Experiment:
    """Stop a running experiment with no winner; every variant's creative keeps delivering as an ordinary ad."""
    exp = db.experiments.require(experiment_id)
    _own_campaign(db, advertiser_id, exp.campaign_id)
    if exp.status != "running":
        raise ToolError(f"experiment {exp.experiment_id} is already concluded")
    exp = db.experiments[exp.experiment_id]
    exp.status, exp.concluded_on = "concluded", _today().isoformat()
    return exp


# ----------------------------------------------------------------------------- invalid traffic


@DOMAIN.tool
def list_ivt_reports(db: AdvertisingDB, advertiser_id: AdvertiserId) -> list[IVTReport]:
    """Every invalid-traffic report on the advertiser's campaigns, newest period first."""
    adv = _advertiser(db, advertiser_id)
    return sorted(db.ivt_reports.where(advertiser_id=adv.advertiser_id), key=lambda r: (r.period_end, r.report_id), reverse=True)


@DOMAIN.tool
def quote_ivt_credit(db: AdvertisingDB, report_id: Annotated[str, Field(description="e.g. 'IVT-0512-4821'")]) -> dict[str, Any]:
    """The credit an invalid-traffic report is worth, without issuing it: the invalid share of the clicks times
    what the campaign was charged in the report's period."""
    rep = db.ivt_reports.require(report_id)
    amount = _ivt_credit(rep)
    return {"report_id": rep.report_id, "status": rep.status, "period_end": rep.period_end,
            "invalid_share_percent": round(rep.invalid_clicks / rep.total_clicks * 100, 1), "credit_amount": amount}


@DOMAIN.tool(write=True)
def issue_ivt_credit(
    db: AdvertisingDB,
    advertiser_id: AdvertiserId,
    report_id: Annotated[str, Field(description="e.g. 'IVT-0512-4821'")],
    destination: Annotated[Literal["account_balance", "card_refund"], Field(description="where the credit goes")],
    note: Annotated[FreeText, Field(description="a short note on the credit for the account history")],
) -> Credit:
    """Issue the credit for an invalid-traffic report (the amount quote_ivt_credit gives) to the account balance
    (applied to the next invoice) or as a refund to the card on file; the report is marked credited."""
    adv = _advertiser(db, advertiser_id)
    rep = db.ivt_reports.require(report_id)
    if rep.advertiser_id != adv.advertiser_id:
        raise ToolError(f"report {report_id!r} does not belong to advertiser {advertiser_id}")
    if rep.status == "credited":
        raise ToolError(f"report {rep.report_id} has already been credited")
    amount = _ivt_credit(rep)
    key = db.credits.new_key("CRD-", rep.report_id)
    db.credits[key] = Credit(credit_id=key, advertiser_id=adv.advertiser_id, report_id=rep.report_id, amount=amount,
                             destination=destination, issued_on=_today().isoformat(), note=note)
    db.ivt_reports[rep.report_id].status = "credited"
    if destination == "account_balance":
        db.advertisers[adv.advertiser_id].credit_balance = _money(adv.credit_balance + amount)
    return db.credits[key]


# -- data invariants: the clock, places, and money the policy relies on -------------------
DOMAIN.invariants(
    not_after_now("advertisers", "created_on"),
    not_after_now("advertisers", "threshold_changed_on"),
    ordered("advertisers", "created_on", "threshold_changed_on"),
    ordered("campaigns", "start_date", "end_date"),
    ordered("campaigns", "created_on", "start_date", via=("advertiser_id", "advertisers")),
    not_after_now("campaigns", "budget_changed_on"),
    not_after_now("experiments", "started_on"),
    not_after_now("experiments", "concluded_on"),
    ordered("experiments", "start_date", "started_on", via=("campaign_id", "campaigns")),
    not_after_now("invoices", "issued_on"),
    not_after_now("invoices", "paid_on"),
    ordered("invoices", "issued_on", "paid_on"),
    ordered("invoices", "issued_on", "due_on"),
    ordered("invoices", "period_start", "period_end"),
    ordered("invoices", "period_end", "issued_on", strict=True),
    ordered("invoices", "created_on", "period_start", via=("advertiser_id", "advertisers")),
    not_after_now("ivt_reports", "period_end"),
    ordered("ivt_reports", "period_start", "period_end"),
    ordered("ivt_reports", "start_date", "period_start", via=("campaign_id", "campaigns")),
    ordered("ivt_reports", "period_end", "confirmed_on"),
    not_after_now("ivt_reports", "confirmed_on"),
    not_after_now("credits", "issued_on"),
    area_codes_valid("advertisers", "phone"),
    cents("invoices", "amount"),
    cents("invoices", "lines[].amount"),
    cents("invoices", "credits_applied"),
    cents("campaigns", "spend_to_date"),
    cents("ivt_reports", "cost_in_period"),
    cents("credits", "amount", computed=lambda rec, db: money_decimal(db.ivt_reports[rec.report_id].cost_in_period)
          * db.ivt_reports[rec.report_id].invalid_clicks / db.ivt_reports[rec.report_id].total_clicks),
    cents("advertisers", "unbilled_spend"),
    cents("advertisers", "credit_balance"),
    no_typos("advertisers", "business_name"),
)

# A country's calling code and the length of its national numbers (the digits after the calling code).
_PHONE_PLANS = {"US": ("+1", 10), "CA": ("+1", 10), "GB": ("+44", 10), "IE": ("+353", 8), "AU": ("+61", 9), "NZ": ("+64", 8)}
# North American area codes in service in Canada: a "+1" number is Canadian exactly when its area code is one of them.
_CANADIAN_AREA_CODES = frozenset({
    204, 226, 236, 249, 250, 257, 263, 289, 306, 343, 354, 365, 367, 368, 382, 387, 403, 416, 418, 428,
    431, 437, 438, 450, 460, 468, 474, 506, 514, 519, 548, 579, 581, 584, 587, 604, 613, 639, 647, 672,
    683, 705, 709, 742, 753, 778, 780, 782, 807, 819, 825, 867, 873, 879, 902, 905,
})


@DOMAIN.invariant
def _phones_in_their_country(db: AdvertisingDB, now: datetime) -> Iterator[str]:
    """an account's phone number is dialled in the account's country"""
    for key, adv in db.advertisers.items():
        code, length = _PHONE_PLANS[adv.country]
        digits = "".join(ch for ch in adv.phone if ch.isdigit())
        national = digits[len(code) - 1:]
        if not adv.phone.startswith(code + " ") or len(national) != length:
            yield f"advertisers[{key!r}].phone = {adv.phone!r} is not a {adv.country} number ({code}, then {length} digits)"
        elif code == "+1" and (int(national[:3]) in _CANADIAN_AREA_CODES) != (adv.country == "CA"):
            yield f"advertisers[{key!r}].phone = {adv.phone!r}: area code {national[:3]} is not in {adv.country}"


@DOMAIN.invariant
def _invoices_bill_delivered_spend(db: AdvertisingDB, now: datetime) -> Iterator[str]:
    """an invoice bills spend its campaigns delivered in its period; an account's invoices and its unbilled spend add
    up to everything its campaigns delivered"""
    billed: dict[str, Decimal] = defaultdict(Decimal)
    for key, inv in db.invoices.items():
        lines = sum((money_decimal(line.amount) for line in inv.lines), Decimal(0))
        if money_decimal(inv.amount) != lines:
            yield f"invoices[{key!r}]: amount {inv.amount} but its lines add up to {lines}"
        if inv.period_start[:7] != inv.period_end[:7]:
            yield f"invoices[{key!r}]: period {inv.period_start}..{inv.period_end} spans a month end, which closes a bill"
        if inv.reason == "monthly" and (date.fromisoformat(inv.period_end) + timedelta(days=1)).day != 1:
            yield f"invoices[{key!r}]: a monthly invoice whose period ends {inv.period_end}, not on a month's last day"
        if date.fromisoformat(inv.issued_on) != date.fromisoformat(inv.period_end) + timedelta(days=1):
            yield f"invoices[{key!r}]: issued {inv.issued_on}, not the day after its period ends ({inv.period_end})"
        if date.fromisoformat(inv.due_on) != date.fromisoformat(inv.issued_on) + timedelta(days=15):
            yield f"invoices[{key!r}]: due {inv.due_on}, not 15 days after it was issued ({inv.issued_on})"
        adv = db.advertisers[inv.advertiser_id]
        if inv.reason == "threshold" and (adv.threshold_changed_on is None or inv.period_end >= adv.threshold_changed_on) \
                and money_decimal(inv.amount) < money_decimal(adv.billing_threshold):
            yield f"invoices[{key!r}]: raised at the threshold but bills {inv.amount}, under the threshold {adv.billing_threshold}"
        for line in inv.lines:
            cmp = db.campaigns.get(line.campaign_id)
            if cmp is None or cmp.advertiser_id != inv.advertiser_id:
                yield f"invoices[{key!r}]: bills campaign {line.campaign_id}, which is not the account's"
            elif not (cmp.start_date <= inv.period_end and inv.period_start <= cmp.end_date) or line.amount <= 0:
                yield f"invoices[{key!r}]: bills {line.amount} of campaign {line.campaign_id}, which delivered nothing then"
            else:
                billed[line.campaign_id] += money_decimal(line.amount)
    month_start = now.date().replace(day=1).isoformat()
    delivered: dict[str, Decimal] = defaultdict(Decimal)
    for key, cmp in db.campaigns.items():
        spent = money_decimal(cmp.spend_to_date)
        delivered[cmp.advertiser_id] += spent
        if billed[key] > spent:
            yield f"campaigns[{key!r}]: invoices bill {billed[key]}, more than the {spent} it delivered"
        elif cmp.end_date < month_start and billed[key] != spent:
            yield f"campaigns[{key!r}]: ended {cmp.end_date} but only {billed[key]} of its {spent} is invoiced"
    for key, adv in db.advertisers.items():
        invoiced = sum((money_decimal(inv.amount) for inv in db.invoices.where(advertiser_id=key)), Decimal(0))
        if invoiced + money_decimal(adv.unbilled_spend) != delivered[key]:
            yield (f"advertisers[{key!r}]: invoices {invoiced} plus unbilled {adv.unbilled_spend} is not the "
                   f"{delivered[key]} its campaigns delivered")
        if money_decimal(adv.unbilled_spend) >= money_decimal(adv.billing_threshold):
            yield f"advertisers[{key!r}]: unbilled spend {adv.unbilled_spend} reached the threshold {adv.billing_threshold} uninvoiced"


@DOMAIN.invariant
def _delivery_follows_status(db: AdvertisingDB, now: datetime) -> Iterator[str]:
    """a creative delivers exactly when it is approved in an active ad set of an active campaign running today, on an
    account that is not suspended"""
    for key, cr in db.creatives.items():
        ad_set = db.ad_sets[cr.ad_set_id]
        cmp = db.campaigns[ad_set.campaign_id]
        serving = _delivers(cmp, ad_set, cr) and db.advertisers[cmp.advertiser_id].status == "active"
        if cr.delivering != serving:
            yield f"creatives[{key!r}]: delivering {cr.delivering}, but its campaign is {cmp.status}, ad set {ad_set.status}, review {cr.review_status}"
    for key, cmp in db.campaigns.items():
        if db.advertisers[cmp.advertiser_id].status == "suspended" and (cmp.status == "active" or cmp.spend_today):
            yield f"campaigns[{key!r}]: {cmp.status}, {cmp.spend_today} spent today, on a suspended account"


@DOMAIN.invariant
def _invoice_status_follows_dates(db: AdvertisingDB, now: datetime) -> Iterator[str]:
    """paid invoices have a payment date; unpaid ones are overdue exactly when their due date has passed"""
    today = now.date().isoformat()
    for key, inv in db.invoices.items():
        if (inv.status == "paid") != (inv.paid_on is not None):
            yield f"invoices[{key!r}]: status {inv.status} with paid_on {inv.paid_on}"
        elif inv.status == "overdue" and inv.due_on >= today:
            yield f"invoices[{key!r}]: overdue, but due {inv.due_on}"
        elif inv.status == "open" and inv.due_on < today:
            yield f"invoices[{key!r}]: open, but its due date {inv.due_on} has passed"
        if money_decimal(inv.credits_applied) > money_decimal(inv.amount):
            yield f"invoices[{key!r}]: {inv.credits_applied} of credits applied to an invoice of {inv.amount}"


@DOMAIN.invariant
def _credits_reach_invoices(db: AdvertisingDB, now: datetime) -> Iterator[str]:
    """every IVT credit left on the account balance is deducted from a later invoice or still on the balance"""
    for key, adv in db.advertisers.items():
        issued = sum((money_decimal(c.amount) for c in db.credits.where(advertiser_id=key) if c.destination == "account_balance"), Decimal(0))
        applied = sum((money_decimal(inv.credits_applied) for inv in db.invoices.where(advertiser_id=key)), Decimal(0))
        if issued != applied + money_decimal(adv.credit_balance):
            yield f"advertisers[{key!r}]: credits {issued} to the balance, but {applied} applied plus {adv.credit_balance} waiting"
    for key, rep in db.ivt_reports.items():
        cmp = db.campaigns[rep.campaign_id]
        if rep.period_end > cmp.end_date or money_decimal(rep.cost_in_period) > money_decimal(cmp.spend_to_date):
            yield f"ivt_reports[{key!r}]: period or cost {rep.cost_in_period} outside what campaign {cmp.campaign_id} delivered"
