"""Seeded generator for the Lumenreach Ads advertiser desk DB.

    python -m tests_domains.advertising.generate            # writes fixtures/advertising/db.json
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from pytest_tau.invariants import dialable_exchange
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
        threshold = rng.choices(THRESHOLDS, weights=[4, 5, 4, 2, 1])[0]
        advertisers[adv_id] = {
            "advertiser_id": adv_id, "business_name": business, "contact_first_name": first, "contact_last_name": last,
            "email": email, "phone": f"{PHONE_AREA[country]} {dialable_exchange(rng.randint(200, 999))} {rng.randint(1000, 9999)}",
            "country": country, "created_on": iso(created), "status": "suspended" if rng.random() < 0.03 else "active",
            "card_brand": rng.choice(CARDS), "card_last4": f"{rng.randint(0, 9999):04d}", "billing_threshold": threshold,
            "credit_balance": 0.0, "threshold_changed_on": None,
        }
        if rng.random() < 0.15:
            advertisers[adv_id]["threshold_changed_on"] = iso(TODAY - timedelta(days=rng.randint(3, 200)))

        # invoices: one every few weeks since the account opened
        n_inv = min(max(1, (TODAY - created).days // 30), rng.randint(2, 9))
        day = TODAY - timedelta(days=rng.randint(2, 12))
        for k in range(n_inv):
            issued = day - timedelta(days=k * rng.randint(18, 35))
            if issued < created:
                break
            inv_id = f"INV-{issued.strftime('%y%m')}-{rng.randint(10000, 99999)}"
            due = issued + timedelta(days=15)
            if due >= TODAY:
                status = "open"
            else:
                status = "overdue" if rng.random() < 0.06 else "paid"
            amount = money(threshold * rng.uniform(1.0, 1.12)) if rng.random() < 0.8 else money(threshold * rng.uniform(0.3, 0.95))
            invoices[inv_id] = {
                "invoice_id": inv_id, "advertiser_id": adv_id, "issued_on": iso(issued), "due_on": iso(due), "amount": amount,
                "credits_applied": money(rng.uniform(5, 60)) if rng.random() < 0.08 else 0.0, "status": status,
                "paid_on": iso(issued + timedelta(days=rng.randint(0, 6))) if status == "paid" else None,
            }

        # campaigns
        themes = rng.sample(CAMPAIGN_THEMES, rng.randint(2, 5))
        for theme in themes:
            cmp_id = f"CMP-{rng.randint(100000, 999999)}"
            while cmp_id in campaigns:
                cmp_id = f"CMP-{rng.randint(100000, 999999)}"
            start = TODAY + timedelta(days=rng.randint(-75, 6))
            length = rng.choice([14, 21, 28, 30, 45, 60, 90])
            end = start + timedelta(days=length - 1)
            budget = float(rng.choice([20, 25, 30, 40, 50, 60, 75, 80, 100, 120, 150, 200, 250, 300, 400, 500]))
            elapsed = max(0, min((TODAY - start).days, length))
            if end < TODAY:
                status = "ended"
            elif start > TODAY:
                status = "active" if rng.random() < 0.7 else "paused"
            else:
                status = rng.choices(["active", "paused"], weights=[5, 1])[0]
            pace = rng.uniform(0.45, 1.0)
            spend = money(budget * elapsed * pace)
            today_spend = money(budget * rng.uniform(0.1, 0.5)) if status == "active" and start <= TODAY <= end else 0.0
            category = vertical if rng.random() < 0.85 else "general"
            campaigns[cmp_id] = {
                "campaign_id": cmp_id, "advertiser_id": adv_id, "name": f"{theme} {start.year}",
                "objective": rng.choice(["conversions", "traffic", "awareness", "app_installs"]), "category": category,
                "status": status, "start_date": iso(start), "end_date": iso(end), "daily_budget": budget,
                "spend_to_date": spend, "spend_today": today_spend,
                "budget_changed_on": iso(TODAY - timedelta(days=rng.randint(0, 10))) if rng.random() < 0.12 and start < TODAY else None,
            }
            if status == "ended" and campaigns[cmp_id]["budget_changed_on"] and campaigns[cmp_id]["budget_changed_on"] > iso(end):
                campaigns[cmp_id]["budget_changed_on"] = None
            # ad sets
            sets = rng.sample(CHANNEL, rng.choice([1, 2, 2, 3]))
            cmp_creatives: list[str] = []
            for channel in sets:
                as_id = f"AS-{rng.randint(1000000, 9999999)}"
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
                    cr_id = f"CR-{rng.randint(10000000, 99999999)}"
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
                exp_id = f"EXP-{rng.randint(10000, 99999)}"
                started = max(start, TODAY - timedelta(days=rng.randint(3, 30)))
                metric = rng.choice(["conversion_rate", "click_through_rate"])
                base_ctr, base_cvr = rng.uniform(0.006, 0.025), rng.uniform(0.02, 0.08)
                variants = []
                for i, cr in enumerate(approved[: rng.choice([2, 2, 3])]):
                    imps = rng.choice([rng.randint(300, 999), rng.randint(1500, 6000), rng.randint(6000, 60000)])
                    lift = 1.0 if i == 0 else rng.choice([0.85, 1.0, 1.05, 1.2, 1.35, 1.6])
                    clicks = max(1, int(imps * base_ctr * (lift if metric == "click_through_rate" else 1.0) * rng.uniform(0.92, 1.08)))
                    convs = int(clicks * base_cvr * 6 * (lift if metric == "conversion_rate" else 1.0) * rng.uniform(0.9, 1.1))
                    variants.append({"label": chr(65 + i), "creative_id": cr, "impressions": imps, "clicks": clicks,
                                     "conversions": min(convs, clicks)})
                experiments[exp_id] = {
                    "experiment_id": exp_id, "campaign_id": cmp_id, "name": f"{theme} creative test",
                    "metric": metric, "started_on": iso(started), "status": "running", "variants": variants,
                    "winner": None, "concluded_on": None,
                }
            # invalid-traffic reports
            if elapsed >= 7 and rng.random() < 0.4:
                p_end = min(end, TODAY - timedelta(days=rng.randint(1, 80)))
                p_start = max(start, p_end - timedelta(days=rng.choice([6, 13, 29])))
                if p_end > p_start:
                    days = (p_end - p_start).days + 1
                    clicks = int(budget * days * pace / rng.uniform(0.6, 2.4))
                    if clicks >= 50:
                        cost = money(budget * days * pace * rng.uniform(0.9, 1.0))
                        rep_id = f"IVT-{p_end.strftime('%m%d')}-{rng.randint(1000, 9999)}"
                        st = rng.choices(["confirmed", "under_review", "credited", "dismissed"], weights=[5, 2, 2, 1])[0]
                        reports[rep_id] = {
                            "report_id": rep_id, "advertiser_id": adv_id, "campaign_id": cmp_id, "period_start": iso(p_start),
                            "period_end": iso(p_end), "total_clicks": clicks,
                            "invalid_clicks": max(3, int(clicks * rng.uniform(0.02, 0.3))), "cost_in_period": cost, "status": st,
                            "confirmed_on": iso(min(p_end + timedelta(days=rng.randint(1, 5)), TODAY)) if st in ("confirmed", "credited") else None,
                        }
                        if st == "credited":
                            r = reports[rep_id]
                            amount = money(r["cost_in_period"] * r["invalid_clicks"] / r["total_clicks"])
                            cid = f"CRD-{rng.randint(100000, 999999)}"
                            credits[cid] = {"credit_id": cid, "advertiser_id": adv_id, "report_id": rep_id, "amount": amount,
                                            "destination": "account_balance", "issued_on": r["confirmed_on"],
                                            "note": "invalid traffic credit"}
    # credits waiting on accounts
    for c in credits.values():
        if c["issued_on"] >= iso(TODAY - timedelta(days=10)):
            advertisers[c["advertiser_id"]]["credit_balance"] = money(advertisers[c["advertiser_id"]]["credit_balance"] + c["amount"])
    # Trust & safety's internal note on each account: its own seed, so the rest of the platform stays as it was.
    reviews = random.Random(seed + 1)
    for adv in advertisers.values():
        created = date.fromisoformat(adv["created_on"])
        if adv["status"] == "suspended":
            when, finding = TODAY - timedelta(days=reviews.randint(2, min(60, (TODAY - created).days))), reviews.choice(SUSPENSIONS)
        else:
            when, finding = created + timedelta(days=reviews.randint(1, (TODAY - created).days - 1)), reviews.choice(REVIEWS)
        adv["risk_review_note"] = f"{iso(when)}: {finding} Reviewer {reviews.choice(REVIEWERS)}."
    return {"advertisers": advertisers, "campaigns": campaigns, "ad_sets": ad_sets, "creatives": creatives,
            "experiments": experiments, "invoices": invoices, "ivt_reports": reports, "credits": credits}


if __name__ == "__main__":
    data = generate()
    AdvertisingDB.model_validate(data)
    OUT.write_bytes(dump_db(data))
    print(OUT, OUT.stat().st_size, {k: len(v) for k, v in data.items()})
