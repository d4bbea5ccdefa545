"""Seeded generator for the Lumenreach Ads advertiser desk DB.

    python -m tests_domains.advertising.generate            # writes fixtures/advertising/db.json
"""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from pytest_tau.invariants import dialable_exchange, half_up
from tests_domains.advertising.schema import AdvertisingDB

SEED = 6110
TODAY = date(2026, 6, 10)  # a Wednesday; the desk's clock reads 10:00
OUT = Path(__file__).parents[2] / "fixtures" / "advertising" / "db.json"
Rec = dict[str, Any]

FIRST = [
    "Adaeze", "Bartholomew", "Celestine", "Dariusz", "Esmeralda", "Florian", "Gwendolyn", "Henrik", "Imogen", "Jaroslav",
    "Keziah", "Lorcan", "Madhuri", "Nikolai", "Ottilie", "Percival", "Quilla", "Rafferty", "Saoirse", "Tiberius", "Ulrike",
    "Vikram", "Wren", "Xavi", "Yolanda", "Zebedee", "Anouk", "Bastian", "Consuelo", "Desmond", "Elodie", "Fenella",
    "Gideon", "Halima", "Ignatius", "Jessamy", "Kwabena", "Leocadia", "Marisol", "Nathaniel", "Orla", "Priyanka",
    "Radek", "Sigrid", "Teodoro", "Ulysses", "Veronika", "Winifred", "Yusuf", "Zuzana", "Ambrose", "Bettina", "Caspian",
]
LAST = [
    "Achterberg", "Bellweather", "Castellanos", "Drummond", "Eberhardt", "Fairbanks", "Goldsworthy", "Hargreaves",
    "Ilves", "Jankowski", "Kettering", "Lachance", "Montgomery", "Nwachukwu", "Ostrowski", "Prendergast", "Quintana",
    "Rutherford", "Szymanski", "Tremblay", "Uchenna", "Valdivia", "Whitcombe", "Yardley", "Zamora", "Abernathy",
    "Brightwater", "Coulibaly", "Delacroix", "Esposito", "Fitzgerald", "Gunawardena", "Halvorsen", "Iwasaki", "Jovanovic",
    "Kowalczyk", "Lindqvist", "Marchetti", "Nakagawa", "Oyelaran", "Pemberton", "Rosenthal", "Sokolova", "Thackeray",
]
BIZ_A = ["Copper", "Juniper", "Northwind", "Saltmarsh", "Bluegate", "Harbor", "Ember", "Tidewater", "Oakhollow", "Silverline",
         "Foxglove", "Granite", "Lantern", "Meadowlark", "Redcliff", "Sable", "Thistle", "Wildrose", "Ironbark", "Larkspur",
         "Marigold", "Birchwood", "Cobalt", "Driftwood", "Evergreen", "Fernhill", "Goldcrest", "Hollybush"]
BIZ_B = [("Coffee Roasters", "general"), ("Outdoor Supply", "general"), ("Bike Works", "general"), ("Pet Pantry", "general"),
         ("Home Goods", "general"), ("Skincare", "general"), ("Toy Company", "general"), ("Brewing Co.", "alcohol"),
         ("Distillery", "alcohol"), ("Wine Cellars", "alcohol"), ("Sportsbook", "gambling"), ("Poker Club", "gambling"),
         ("Matchmakers", "dating"), ("Singles Network", "dating"), ("Nutrition Labs", "weight_loss"),
         ("Slim Kitchen", "weight_loss"), ("Credit Union", "financial_services"), ("Lending", "financial_services"),
         ("Insurance Brokers", "financial_services"), ("Furniture", "general"), ("Bakery", "general"),
         ("Language School", "general"), ("Fitness Studio", "general"), ("Garden Centre", "general")]
COUNTRIES = ["US", "CA", "GB", "IE", "AU", "NZ"]
PHONE_AREA = {"US": "+1 (415)", "CA": "+1 (604)", "GB": "+44 20", "IE": "+353 1", "AU": "+61 2", "NZ": "+64 9"}
CARDS = ["Visa", "Mastercard", "Amex"]
THRESHOLDS = [250.0, 500.0, 1000.0, 2500.0, 5000.0]
BUDGETS = [20, 25, 30, 40, 50, 60, 75, 80, 100, 120, 150, 200, 250, 300, 400, 500]
FLOOR = {"general": 13, "financial_services": 18, "dating": 18, "weight_loss": 18, "alcohol": 21, "gambling": 21}
CAMPAIGN_THEMES = ["Summer Sale", "Back to School", "Spring Launch", "Brand Awareness", "Retargeting", "Loyalty Push",
                   "New Arrivals", "Clearance", "Holiday Preview", "App Install Drive", "Newsletter Signups",
                   "Weekend Flash", "Lookalike Prospecting", "Local Footfall", "Gift Guide", "Member Drive"]
CHANNEL = ["Feed", "Stories", "Video", "Search Partners", "Carousel"]
GENERAL_INTERESTS = ["outdoor recreation", "cycling", "coffee", "cooking", "home improvement", "travel", "fashion",
                     "pets", "gardening", "fitness", "technology", "parenting", "music festivals", "photography",
                     "personal finance", "craft beer", "wine", "sports betting", "online dating", "healthy eating"]
HEADLINES = ["Save 20% this week only", "Meet your new favourite", "Free shipping over $50", "Try it risk free",
             "Made by hand, built to last", "Your weekend starts here", "Join 10,000 happy customers",
             "New season, new look", "Book a free consultation", "Limited batch, just released", "See why locals love us",
             "Everything you need, nothing you don't", "Start today, feel the difference", "Upgrade your routine"]
REJECTIONS = ["prohibited_content", "misleading_claim", "text_overlay", "broken_landing_page"]
# What trust & safety wrote after its last look at an account (internal: the desk reads it, never tells it).
REVIEWS = [
    "onboarding verification passed; business registration matches the cardholder.",
    "automated spend-spike alert cleared as a seasonal promotion.",
    "two declined card charges; cleared after the card on file was updated.",
    "landing-page audit of product claims; substantiated, no action.",
    "click-pattern review after an invalid-traffic report; advertiser not involved.",
    "card issuer chargeback on an invoice; resolved in the advertiser's favour.",
    "login from a new country flagged; owner confirmed the trip, no action.",
    "manual review of a new payment card; identity documents matched.",
]
SUSPENSIONS = [
    "suspended for circumventing systems: the landing page showed reviewers different content than users.",
    "suspended after the card issuer reported an unauthorised payment.",
    "suspended for repeated prohibited-content rejections across ad sets.",
    "suspended: the business registration could not be verified against the cardholder.",
]
REVIEWERS = ["A. Mbeki", "J. Lindgren", "P. Okonkwo", "S. Ferreira", "D. Castellano", "H. Yamamoto", "R. Kowalski", "T. Nguyen"]


def iso(d: date) -> str:
    return d.isoformat()


def money(x: float) -> float:
    return round(x + 1e-9, 2)


def ivt_credit(cost_in_period: float, invalid_clicks: int, total_clicks: int) -> Decimal:
    """An invalid-traffic credit: the invalid share of the clicks times what the period cost, half a cent up."""
    return half_up(Decimal(str(cost_in_period)) * invalid_clicks / total_clicks)


def dollars(cents: int) -> float:
    return float(Decimal(cents) / 100)


def phone_number(rng: random.Random, country: str) -> str:
    """A landline in the account's country, as long as that country's numbering plan makes it."""
    if country in ("US", "CA"):
        return f"{PHONE_AREA[country]} {dialable_exchange(rng.randint(200, 999))} {rng.randint(1000, 9999)}"
    if country == "GB":  # London: 020, then eight digits starting 3, 7 or 8
        return f"{PHONE_AREA[country]} {rng.choice('378')}{rng.randint(100, 999)} {rng.randint(1000, 9999)}"
    if country == "AU":  # Sydney: 02, then eight digits starting 8 or 9
        return f"{PHONE_AREA[country]} {rng.choice('89')}{rng.randint(100, 999)} {rng.randint(1000, 9999)}"
    return f"{PHONE_AREA[country]} {rng.randint(200, 999)} {rng.randint(1000, 9999)}"  # Dublin 01, Auckland 09: seven digits


def deliver(rng: random.Random, delivered: dict[date, dict[str, int]], cmp_id: str, start: date, last_day: date,
            budget: float, pace: float) -> int:
    """Record the spend a campaign delivered from its start through last_day, day by day in cents (its daily budget
    is a hard cap), in delivered[day][campaign]; the total."""
    cap = int(budget * 100)
    total = 0
    day = start
    while day <= last_day:
        cents = min(cap, int(Decimal(cap * pace * rng.uniform(0.85, 1.15)).quantize(Decimal(1), rounding=ROUND_HALF_UP)))
        delivered[day][cmp_id] = cents
        total += cents
        day += timedelta(days=1)
    return total


def stop_delivery(suspended_on: date, adv_id: str, delivered: dict[date, dict[str, int]], campaigns: dict[str, Rec],
                  reports: dict[str, Rec], credits: dict[str, Rec]) -> None:
    """A suspended account's ads stopped the day it was suspended: no spend from then on, its live campaigns paused,
    its invalid-traffic reports cover only what was delivered."""
    for day in [d for d in delivered if d >= suspended_on]:
        del delivered[day]
    for cmp in campaigns.values():
        if cmp["advertiser_id"] != adv_id:
            continue
        cmp["spend_to_date"] = dollars(sum(spend.get(cmp["campaign_id"], 0) for spend in delivered.values()))
        cmp["spend_today"] = 0.0
        if cmp["status"] == "active":
            cmp["status"] = "paused"
    for rep_id, rep in list(reports.items()):
        if rep["advertiser_id"] != adv_id:
            continue
        if rep["period_end"] >= iso(suspended_on):
            del reports[rep_id]  # a period running into the suspension: the account never got that report
            for cid in [c for c, credit in credits.items() if credit["report_id"] == rep_id]:
                del credits[cid]


def month_end(d: date) -> bool:
    return (d + timedelta(days=1)).day == 1


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    advertisers: dict[str, Rec] = {}
    campaigns: dict[str, Rec] = {}
    ad_sets: dict[str, Rec] = {}
    creatives: dict[str, Rec] = {}
    experiments: dict[str, Rec] = {}
    invoices: dict[str, Rec] = {}
    reports: dict[str, Rec] = {}
    credits: dict[str, Rec] = {}
    emails: set[str] = set()
    businesses: set[str] = set()
    yesterday = TODAY - timedelta(days=1)

    def new_id(pattern: str, low: int, high: int, table: dict[str, Rec]) -> str:
        key = pattern.format(rng.randint(low, high))
        while key in table:
            key = pattern.format(rng.randint(low, high))
        return key

    # Trust & safety's internal note on each account and the invoices' payment dates: their own seeds, so the rest
    # of the platform stays as it was.
    reviews = random.Random(seed + 1)
    payments = random.Random(seed + 2)
    for _ in range(330):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        while True:
            a, (b, vertical) = rng.choice(BIZ_A), rng.choice(BIZ_B)
            business = f"{a} {b}"
            if business not in businesses:
                businesses.add(business)
                break
        domain = business.lower().replace(" co.", "").replace(" ", "").replace(".", "") + rng.choice([".com", ".co", ".shop", ".io"])
        email = f"{first.lower()}@{domain}"
        if email in emails:
            email = f"{first.lower()}.{last.lower()}@{domain}"
        emails.add(email)
        adv_id = f"LR-{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}"
        while adv_id in advertisers:
            adv_id = f"LR-{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}"
        country = rng.choice(COUNTRIES)
        created = TODAY - timedelta(days=rng.randint(20, 1400))
        age = (TODAY - created).days
        threshold = rng.choices(THRESHOLDS, weights=[4, 5, 4, 3, 2])[0]
        changed = TODAY - timedelta(days=rng.randint(3, min(rng.choice([40, 200]), age - 1))) if rng.random() < 0.15 else None
        # The threshold before the last change: one step down (an account grows into higher thresholds).
        step = THRESHOLDS.index(threshold)
        earlier_threshold = THRESHOLDS[step - 1] if step else THRESHOLDS[1]
        advertisers[adv_id] = {
            "advertiser_id": adv_id, "business_name": business, "contact_first_name": first, "contact_last_name": last,
            "email": email, "phone": phone_number(rng, country),
            "country": country, "created_on": iso(created), "status": "suspended" if rng.random() < 0.03 else "active",
            "card_brand": rng.choice(CARDS), "card_last4": f"{rng.randint(0, 9999):04d}", "billing_threshold": threshold,
            "credit_balance": 0.0, "threshold_changed_on": iso(changed) if changed else None, "unbilled_spend": 0.0,
        }
        suspended_on = None
        if advertisers[adv_id]["status"] == "suspended":
            suspended_on = TODAY - timedelta(days=reviews.randint(2, min(60, age)))
            when, finding = suspended_on, reviews.choice(SUSPENSIONS)
        else:
            when, finding = created + timedelta(days=reviews.randint(1, age - 1)), reviews.choice(REVIEWS)
        advertisers[adv_id]["risk_review_note"] = f"{iso(when)}: {finding} Reviewer {reviews.choice(REVIEWERS)}."
        # An account's budgets fit its threshold (platforms raise thresholds as spend grows), so an invoice
        # comes every few days or weeks rather than every day; its campaigns spend at the account's scale.
        top_budget = max(20.0, threshold * rng.uniform(0.05, 0.2))
        late_payer = rng.random() < 0.15
        delivered: dict[date, dict[str, int]] = defaultdict(dict)  # day -> campaign -> cents of spend delivered
        names: set[str] = set()

        # campaigns of the current quarter (and a few about to start)
        for theme in rng.sample(CAMPAIGN_THEMES, rng.randint(2, 5)):
            cmp_id = new_id("CMP-{}", 100000, 999999, campaigns)
            start = TODAY + timedelta(days=rng.randint(-min(75, age - 1), 6))
            length = rng.choice([14, 21, 28, 30, 45, 60, 90])
            end = start + timedelta(days=length - 1)
            budget = float(rng.choice([x for x in BUDGETS if x <= top_budget][-6:]))
            elapsed = max(0, min((TODAY - start).days, length))
            if end < TODAY:
                status = "ended"
            elif start > TODAY:
                status = "active" if rng.random() < 0.7 else "paused"
            else:
                status = rng.choices(["active", "paused"], weights=[5, 1])[0]
            pace = rng.uniform(0.45, 1.0)
            # a paused campaign delivered until the day it was paused
            last_day = min(end, yesterday)
            if status == "paused" and elapsed:
                last_day = start + timedelta(days=rng.randint(0, elapsed) - 1)
            spend = deliver(rng, delivered, cmp_id, start, last_day, budget, pace)
            today_spend = money(budget * rng.uniform(0.1, 0.5)) if status == "active" and start <= TODAY <= end else 0.0
            category = vertical if rng.random() < 0.85 else "general"
            names.add(f"{theme} {start.year}")
            campaigns[cmp_id] = {
                "campaign_id": cmp_id, "advertiser_id": adv_id, "name": f"{theme} {start.year}",
                "objective": rng.choice(["conversions", "traffic", "awareness", "app_installs"]), "category": category,
                "status": status, "start_date": iso(start), "end_date": iso(end), "daily_budget": budget,
                "spend_to_date": dollars(spend), "spend_today": today_spend,
                "budget_changed_on": iso(TODAY - timedelta(days=rng.choice([0, 0, 1, 2, 3, 5, 7, 10]))) if rng.random() < 0.12 and start < TODAY else None,
            }
            if status == "ended" and campaigns[cmp_id]["budget_changed_on"] and campaigns[cmp_id]["budget_changed_on"] > iso(end):
                campaigns[cmp_id]["budget_changed_on"] = None
            # ad sets
            sets = rng.sample(CHANNEL, rng.choice([1, 2, 2, 3]))
            cmp_creatives: list[str] = []
            for channel in sets:
                as_id = new_id("AS-{}", 1000000, 9999999, ad_sets)
                min_age = rng.choice([18, 18, 21, 25, 13, 16]) if category == "general" else rng.choice([18, 21, 21, 25, 18])
                max_age = rng.choice([34, 44, 54, 65, 65])
                interests = rng.sample(GENERAL_INTERESTS[:16], rng.randint(1, 3))
                ad_sets[as_id] = {
                    "ad_set_id": as_id, "campaign_id": cmp_id, "name": f"{theme} - {channel}", "min_age": min_age,
                    "max_age": max_age, "countries": sorted(rng.sample(COUNTRIES, rng.randint(1, 3)) + ([country] if rng.random() < 0.5 else [])),
                    "interests": interests, "status": "active" if rng.random() < 0.85 else "paused",
                }
                ad_sets[as_id]["countries"] = sorted(set(ad_sets[as_id]["countries"]))
                for n in range(rng.randint(1, 3)):
                    cr_id = new_id("CR-{}", 10000000, 99999999, creatives)
                    fmt = rng.choice(["image", "video", "carousel"])
                    review = rng.choices(["approved", "pending_review", "rejected"], weights=[8, 1, 2])[0]
                    subs = 1 if review == "approved" and rng.random() < 0.8 else rng.randint(1, 3)
                    creatives[cr_id] = {
                        "creative_id": cr_id, "ad_set_id": as_id, "name": f"{channel} {fmt} {chr(65 + n)}", "format": fmt,
                        "headline": rng.choice(HEADLINES), "review_status": review,
                        "rejection_reason": rng.choice(REJECTIONS) if review == "rejected" else None, "submissions": subs,
                        "delivering": review == "approved" and status == "active",
                        "landing_url": f"https://{domain}/{theme.lower().replace(' ', '-')}",
                    }
                    cmp_creatives.append(cr_id)
            # experiments on some running campaigns
            approved = [c for c in cmp_creatives if creatives[c]["review_status"] == "approved"]
            if status != "ended" and start < TODAY - timedelta(days=2) and len(approved) >= 2 and rng.random() < 0.55:
                exp_id = new_id("EXP-{}", 10000, 99999, experiments)
                started = max(start, TODAY - timedelta(days=rng.randint(3, 30)))
                metric = rng.choice(["conversion_rate", "click_through_rate"])
                # click-through 0.6-2.5%, conversions 3-12% of clicks: the ranges ad accounts report
                base_ctr, base_cvr = rng.uniform(0.006, 0.025), rng.uniform(0.03, 0.12)
                variants = []
                for i, cr in enumerate(approved[: rng.choice([2, 2, 3])]):
                    imps = rng.choice([rng.randint(300, 999), rng.randint(1500, 6000), rng.randint(6000, 60000)])
                    lift = 1.0 if i == 0 else rng.choice([0.85, 1.0, 1.05, 1.2, 1.35, 1.6])
                    clicks = max(1, int(imps * base_ctr * (lift if metric == "click_through_rate" else 1.0) * rng.uniform(0.92, 1.08)))
                    convs = int(clicks * base_cvr * (lift if metric == "conversion_rate" else 1.0) * rng.uniform(0.9, 1.1))
                    variants.append({"label": chr(65 + i), "creative_id": cr, "impressions": imps, "clicks": clicks,
                                     "conversions": min(convs, clicks)})
                experiments[exp_id] = {
                    "experiment_id": exp_id, "campaign_id": cmp_id, "name": f"{theme} creative test",
                    "metric": metric, "started_on": iso(started), "status": "running", "variants": variants,
                    "winner": None, "concluded_on": None,
                }
            # invalid-traffic reports: a stretch of delivered days, charged what those days delivered (click fraud
            # follows the money: the bigger a campaign's budget, the likelier a report)
            if elapsed >= 7 and rng.random() < (0.7 if budget >= 200 else 0.35):
                p_end = min(last_day, TODAY - timedelta(days=rng.randint(1, 80)))
                p_start = max(start, p_end - timedelta(days=rng.choice([6, 13, 29])))
                if p_end > p_start:
                    cost = sum(delivered[p_start + timedelta(days=k)].get(cmp_id, 0) for k in range((p_end - p_start).days + 1))
                    clicks = int(cost / 100 / rng.uniform(0.6, 2.4))  # every campaign is billed per click (CPC)
                    if clicks >= 50:
                        rep_id = new_id(f"IVT-{p_end.strftime('%m%d')}-{{}}", 1000, 9999, reports)
                        st = rng.choices(["confirmed", "under_review", "credited", "dismissed"], weights=[5, 2, 2, 1])[0]
                        reports[rep_id] = {
                            "report_id": rep_id, "advertiser_id": adv_id, "campaign_id": cmp_id, "period_start": iso(p_start),
                            "period_end": iso(p_end), "total_clicks": clicks,
                            "invalid_clicks": max(3, int(clicks * rng.uniform(0.02, 0.3))), "cost_in_period": dollars(cost), "status": st,
                            "confirmed_on": iso(min(p_end + timedelta(days=rng.randint(1, 5)), TODAY)) if st in ("confirmed", "credited") else None,
                        }
                        if st == "credited":
                            r = reports[rep_id]
                            cid = new_id("CRD-{}", 100000, 999999, credits)
                            credits[cid] = {"credit_id": cid, "advertiser_id": adv_id, "report_id": rep_id,
                                            "amount": float(ivt_credit(r["cost_in_period"], r["invalid_clicks"], r["total_clicks"])),
                                            "destination": "account_balance", "issued_on": r["confirmed_on"],
                                            "note": "invalid traffic credit"}

        # earlier campaigns, over the account's life before this quarter: a seasonal push now and then
        window = TODAY - timedelta(days=75)
        start = created + timedelta(days=rng.randint(1, 30))
        while True:
            length = rng.choice([14, 21, 28, 30, 45, 60])
            end = start + timedelta(days=length - 1)
            if end >= window:
                break
            themes = [t for t in CAMPAIGN_THEMES if f"{t} {start.year}" not in names]
            theme = rng.choice(themes)
            names.add(f"{theme} {start.year}")
            cmp_id = new_id("CMP-{}", 100000, 999999, campaigns)
            budget = float(rng.choice([x for x in BUDGETS if x <= top_budget][-6:]))
            spend = deliver(rng, delivered, cmp_id, start, end, budget, rng.uniform(0.45, 1.0))
            category = vertical if rng.random() < 0.85 else "general"
            campaigns[cmp_id] = {
                "campaign_id": cmp_id, "advertiser_id": adv_id, "name": f"{theme} {start.year}",
                "objective": rng.choice(["conversions", "traffic", "awareness", "app_installs"]), "category": category,
                "status": "ended", "start_date": iso(start), "end_date": iso(end), "daily_budget": budget,
                "spend_to_date": dollars(spend), "spend_today": 0.0, "budget_changed_on": None,
            }
            channel = rng.choice(CHANNEL)
            as_id = new_id("AS-{}", 1000000, 9999999, ad_sets)
            ad_sets[as_id] = {
                "ad_set_id": as_id, "campaign_id": cmp_id, "name": f"{theme} - {channel}",
                "min_age": max(FLOOR[category], rng.choice([18, 21, 25])), "max_age": rng.choice([44, 54, 65]),
                "countries": sorted({country, *rng.sample(COUNTRIES, rng.randint(0, 2))}),
                "interests": rng.sample(GENERAL_INTERESTS[:16], rng.randint(1, 3)), "status": "active",
            }
            cr_id = new_id("CR-{}", 10000000, 99999999, creatives)
            fmt = rng.choice(["image", "video", "carousel"])
            creatives[cr_id] = {
                "creative_id": cr_id, "ad_set_id": as_id, "name": f"{channel} {fmt} A", "format": fmt,
                "headline": rng.choice(HEADLINES), "review_status": "approved", "rejection_reason": None, "submissions": 1,
                "delivering": False, "landing_url": f"https://{domain}/{theme.lower().replace(' ', '-')}",
            }
            start = end + timedelta(days=rng.randint(20, 200))

        if suspended_on:
            stop_delivery(suspended_on, adv_id, delivered, campaigns, reports, credits)

        # billing: spend accrues day by day; an invoice is raised the day after the accrued spend reaches the
        # threshold in force, or on the 1st for what the month before accrued
        account_invoices: list[Rec] = []
        unbilled: dict[str, int] = defaultdict(int)
        period_start: date | None = None
        day = min(delivered, default=TODAY)
        while day <= yesterday:
            for cmp_id, cents in delivered.get(day, {}).items():
                unbilled[cmp_id] += cents
                period_start = period_start or day
            total = sum(unbilled.values())
            limit = threshold if changed is None or day >= changed else earlier_threshold
            if period_start and (total >= limit * 100 or month_end(day)):
                issued = day + timedelta(days=1)
                inv_id = new_id(f"INV-{issued.strftime('%y%m')}-{{}}", 10000, 99999, invoices)
                account_invoices.append({
                    "invoice_id": inv_id, "advertiser_id": adv_id, "reason": "threshold" if total >= limit * 100 else "monthly",
                    "period_start": iso(period_start), "period_end": iso(day), "issued_on": iso(issued),
                    "due_on": iso(issued + timedelta(days=15)), "amount": dollars(total), "credits_applied": 0.0,
                    "status": "open", "paid_on": None,
                    "lines": [{"campaign_id": c, "amount": dollars(unbilled[c])} for c in sorted(unbilled)],
                })
                unbilled, period_start = defaultdict(int), None
            day += timedelta(days=1)
        advertisers[adv_id]["unbilled_spend"] = dollars(sum(unbilled.values()))
        # IVT credits on the account balance come off the next invoice raised after them
        waiting = sorted((c["issued_on"], int(Decimal(str(c["amount"])) * 100)) for c in credits.values() if c["advertiser_id"] == adv_id)
        pool = 0
        last_due = next((inv for inv in reversed(account_invoices) if inv["due_on"] < iso(TODAY)), None)
        for inv in account_invoices:
            while waiting and waiting[0][0] < inv["issued_on"]:
                pool += waiting.pop(0)[1]
            applied = min(pool, int(Decimal(str(inv["amount"])) * 100))
            pool -= applied
            inv["credits_applied"] = dollars(applied)
            issued, due = date.fromisoformat(inv["issued_on"]), date.fromisoformat(inv["due_on"])
            if applied == int(Decimal(str(inv["amount"])) * 100):
                inv["status"], inv["paid_on"] = "paid", inv["issued_on"]  # nothing left to pay
            elif due < TODAY:
                if inv is last_due and late_payer and due >= TODAY - timedelta(days=30):
                    inv["status"] = "overdue"  # the charge of the latest invoice past its due date failed
                else:
                    inv["status"], inv["paid_on"] = "paid", iso(issued + timedelta(days=payments.randint(0, 14)))
            elif issued < TODAY and payments.random() < 0.35:
                inv["status"], inv["paid_on"] = "paid", iso(issued + timedelta(days=payments.randint(0, (TODAY - issued).days - 1)))
            invoices[inv["invoice_id"]] = inv
        pool += sum(cents for _, cents in waiting)
        advertisers[adv_id]["credit_balance"] = dollars(pool)
    # A creative delivers now when it is approved, its ad set is active and its campaign active and running today.
    for creative in creatives.values():
        ad_set = ad_sets[creative["ad_set_id"]]
        cmp = campaigns[ad_set["campaign_id"]]
        creative["delivering"] = (creative["review_status"] == "approved" and ad_set["status"] == "active"
                                  and cmp["status"] == "active" and cmp["start_date"] <= iso(TODAY) <= cmp["end_date"])
    return {"advertisers": advertisers, "campaigns": campaigns, "ad_sets": ad_sets, "creatives": creatives,
            "experiments": experiments, "invoices": invoices, "ivt_reports": reports, "credits": credits}


if __name__ == "__main__":
    data = generate()
    AdvertisingDB.model_validate(data)
    OUT.write_bytes(dump_db(data))
    print(OUT, OUT.stat().st_size, {k: len(v) for k, v in data.items()})
