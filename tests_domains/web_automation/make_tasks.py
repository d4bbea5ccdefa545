"""Builds fixtures/web_automation/tasks.json with a `TaskWriter`: one template per kind of
request, customers and records picked from the initial DB with a seeded RNG. Every gold call
runs as it is added, and every figure a task asks for is read from what the tools returned.

    python -m tests_domains.web_automation.make_tasks
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import date
from typing import Any

from pytest_tau import Output, TaskDraft, TaskWriter
from tests_domains.web_automation.domain import DOMAIN
from tests_domains.web_automation.schema import PLANS

Rec = dict[str, Any]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
JUNE = "2026-06"
PERSONAS = [
    "You are polite and a little rushed.",
    "You are calm and precise, and you answer exactly what is asked.",
    "You are chatty and friendly, and you thank the agent often.",
    "You are mildly impatient but never rude.",
    "You are careful and ask the agent to repeat important figures.",
]


class Data:
    """The initial DB as plain dicts, indexed once for picking candidates (never for figures)."""

    def __init__(self) -> None:
        db = DOMAIN.initial_db
        self.cus: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.customers.items()}
        self.sites: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.sites.items()}
        self.pages: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.pages.items()}
        self.forms: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.forms.items()}
        self.mons: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.monitors.items()}
        self.jobs: dict[str, Rec] = {k: v.model_dump(mode="json") for k, v in db.extraction_jobs.items()}
        self.alerts_by_mon: dict[str, list[Rec]] = defaultdict(list)
        for a in sorted((v.model_dump(mode="json") for v in db.change_alerts.values()), key=lambda a: a["alert_id"]):
            self.alerts_by_mon[a["monitor_id"]].append(a)
        self.mons_by_cus: dict[str, list[Rec]] = defaultdict(list)
        for m in sorted(self.mons.values(), key=lambda m: m["monitor_id"]):
            self.mons_by_cus[m["customer_id"]].append(m)
        self.jobs_by_cus: dict[str, list[Rec]] = defaultdict(list)
        for j in sorted(self.jobs.values(), key=lambda j: j["job_id"]):
            self.jobs_by_cus[j["customer_id"]].append(j)
        self.june_subs: dict[str, int] = defaultdict(int)
        for s in db.submissions.values():
            if s.submitted_at.startswith(JUNE):
                self.june_subs[s.customer_id] += 1
        self.pages_by_site: dict[str, list[Rec]] = defaultdict(list)
        for p in sorted(self.pages.values(), key=lambda p: p["path"]):
            self.pages_by_site[p["site_id"]].append(p)
        names: dict[str, int] = defaultdict(int)
        for site in self.sites.values():
            names[site["name"].lower()] += 1
        self.unique_site = {k for k, site in self.sites.items() if names[site["name"].lower()] == 1}


D = Data()


def blocked(page: Rec) -> bool:
    site = D.sites[page["site_id"]]
    return any(page["path"].startswith(d) for d in site["disallowed_paths"])


def behind_login(page: Rec) -> bool:
    return any(page["path"].startswith(p) for p in D.sites[page["site_id"]]["login_paths"])


def open_page(page: Rec) -> bool:
    return page["kind"] != "form" and not blocked(page) and not behind_login(page)


def active(cid: str) -> list[Rec]:
    return [m for m in D.mons_by_cus[cid] if m["status"] == "active"]


def words(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


def fmt(d: date, form: str) -> str:
    if form == "MM/DD/YYYY":
        return d.strftime("%m/%d/%Y")
    if form == "DD/MM/YYYY":
        return d.strftime("%d/%m/%Y")
    return d.isoformat()


def site_of(page: Rec) -> Rec:
    return D.sites[page["site_id"]]


def mon_page(m: Rec) -> Rec:
    return D.pages[m["page_id"]]


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(20260610)
        self.used: set[str] = set()
        self.used_sites: set[str] = set()

    def candidates(self, cands: list[Any], key: Callable[[Any], str] = lambda x: x[0]["customer_id"]) -> list[Any]:
        cands = [x for x in cands if key(x) not in self.used]
        self.rng.shuffle(cands)
        return cands

    def persona(self) -> str:
        return self.rng.choice(PERSONAS) + " Reveal information only when the agent asks for it."

    def attempt(self, task_id: str, c: Rec, situation: str, script: list[str], split: str = "test",
                ordered: bool = False) -> AbstractContextManager[TaskDraft]:
        who = (f"You are {c['first_name']} {c['last_name']}, born {words(c['date_of_birth'])}; your Relaypoint account "
               f"email is {c['email']}.")
        return self.writer.attempt(task_id, instructions=f"{who} {self.persona()} {situation}", script=script, split=split, ordered=ordered)

    def done(self, c: Rec, *sites: str) -> None:
        self.used.add(c["customer_id"])
        self.used_sites.update(sites)


def me(c: Rec) -> str:
    return f"I'm {c['first_name']} {c['last_name']}, {c['email']}, born {words(c['date_of_birth'])}."


def verify(d: TaskDraft, c: Rec) -> Any:
    return d.read("find_customer", first_name=c["first_name"], last_name=c["last_name"], email=c["email"], date_of_birth=c["date_of_birth"])


def told_speed(d: TaskDraft, rate: int) -> None:
    """Policy 5.2: the speed the agent chose (the highest allowed) is said in its confirmation; a figure of the policy's
    own plan table is no finding, so only a site's own rate is required."""
    if not d.given_away(Output(value=str(rate), kind="number")):
        d.output(rate, "number")


def extraction_terms(d: TaskDraft, c: Rec, site: Rec) -> tuple[Any, int]:
    """The gold reads before an extraction job: the plan's terms, and the crawl speed allowed
    (the lower of the site's and the plan's)."""
    verify(d, c)
    usage = d.read("get_account_usage", customer_id=c["customer_id"])
    d.read("search_sites", query=site["name"])
    got = d.read("get_site", site_id=site["site_id"])
    return usage, min(got["max_requests_per_minute"], usage["plan_terms"]["max_requests_per_minute"])


# -- form values --------------------------------------------------------------------------
STREETS = ["Alder St", "Quarry Rd", "Hollis Ave", "Ferry Ln", "Marsh Rd", "Juniper Ct", "Tillman Way", "Osprey Dr"]


def form_values(rng: random.Random, form: Rec, c: Rec) -> tuple[list[Rec], list[str]]:
    """Gold values for a form, and how the customer says each one (by the field's label)."""
    gold: list[Rec] = []
    said: list[str] = []
    start = DOMAIN.today
    for f in form["fields"]:
        if not f["required"] and rng.random() < 0.5:
            continue
        name, label, kind = f["name"], f["label"], f["type"]
        if kind == "select":
            value = rng.choice(f["allowed_values"])
            say = f"{label}: {value}"
        elif kind == "date":
            if name == "from_date":  # a records range lies in the past, in order
                d = date(2026, rng.choice([1, 2, 3]), rng.randint(13, 28))
                start = d
            elif name == "to_date":
                d = date(2026, start.month + rng.randint(1, 2), rng.randint(13, 28))
            elif name == "travel_date":  # a delayed trip already taken
                d = date(2026, rng.choice([4, 5]), rng.randint(13, 28))
            else:  # appointments, start dates, pickups: ahead
                d = date(2026, rng.choice([6, 7, 8]), rng.randint(13, 28))
                if d <= DOMAIN.today:
                    d = date(2026, 7, d.day)
            value = fmt(d, f["date_format"])
            say = f"{label}: {words(d.isoformat())}"
        elif kind == "number":
            n = rng.randint(2, 6)
            value, say = str(n), f"{label}: {NUMBER_WORDS[n]}"
        elif kind == "email":
            value = c["email"]
            say = f"{label}: {value}"
        elif kind == "phone":
            value = c["phone"][3:]
            say = f"{label}: {value}"
        elif name in ("full_name", "requester_name", "owner_name"):
            value = f"{c['first_name']} {c['last_name']}"
            say = f"{label}: {value}"
        elif "address" in name:
            value = f"{rng.randint(12, 9800)} {rng.choice(STREETS)}"
            say = f"{label}: {value}"
        elif name == "license_plate":
            value = f"{rng.choice('BCDFGHKLMNPRSTVWXZ')}{rng.choice('BCDFGHKLMNPRSTVWXZ')}{rng.choice('BCDFGHKLMNPRSTVWXZ')}{rng.randint(1000, 9999)}"
            say = f"{label}: {value}"
        elif name == "dog_name":
            value = rng.choice(["Biscuit", "Juniper", "Moose", "Pepper", "Otis", "Hazel"])
            say = f"{label}: {value}"
        else:
            size = min(6, f.get("max_length") or 6)
            value = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ23456789") for _ in range(size))
            say = f"{label}: {value}"
        gold.append({"name": name, "value": value})
        said.append(say)
    return gold, said


def forms_ok(captcha: bool, login: bool) -> list[Rec]:
    out = []
    for f in sorted(D.forms.values(), key=lambda f: f["form_id"]):
        site = D.sites[f["site_id"]]
        page = D.pages[f["page_id"]]
        if f["site_id"] not in D.unique_site:
            continue
        alike = sum(1 for g in D.forms.values() if g["site_id"] == f["site_id"] and g["name"] == f["name"])
        if site["captcha_on_forms"] == captcha and behind_login(page) == login and alike == 1:
            out.append(f)
    return out


# Why a form's values have one right entry (policy 6.2-6.3): the end-state reason of every submitting task.
FORM_VALUES = ("The customer gives every value (personal ones too, 6.2) and leaves the rest empty; each is entered as "
               "6.3 fixes it: dates in the field's date_format, numbers as digits, select values as listed, the rest as said.")


def money(x: float) -> str:
    return f"${x:,.2f}"


# -- templates ------------------------------------------------------------------------------
def submit_ok(b: Builder, n: int, train: int = 0) -> None:
    forms = forms_ok(captcha=False, login=False)
    custs = [c for c in D.cus.values() if c["status"] == "active" and D.june_subs[c["customer_id"]] < PLANS[c["plan"]].submissions_per_month]
    made = 0
    for c in b.candidates([(c,) for c in custs]):
        if made == n:
            break
        c = c[0]
        form = b.rng.choice([f for f in forms if f["site_id"] not in b.used_sites] or forms)
        site = D.sites[form["site_id"]]
        gold, said = form_values(b.rng, form, c)
        fee = form["site_fee"]
        fee_line = "Ask what the site charges for it before you agree." if fee > 0 else "Ask whether there is any fee."
        split = "train" if made >= n - train else "test"
        with b.attempt(
            f"submit_form_{made + 1}", c,
            f"You want Relaypoint to submit the '{form['name']}' form on the {site['name']} site for you. When the agent asks "
            f"for the values, give exactly these (field label: value): {'; '.join(said)}. Any field not in this list you leave "
            f"empty. {fee_line} Check that the agent reads the values back; if everything matches, say yes. At the end, ask "
            f"for the submission reference.",
            [f"Hi, can you fill in the {form['name'].lower()} on {site['name']} for me?", me(c),
             "Here are my details: " + "; ".join(said) + ".", "Yes, that's all correct, go ahead.", "What's the reference?"],
            split=split,
        ) as d:
            verify(d, c)
            d.read("get_account_usage", customer_id=c["customer_id"])
            d.read("search_sites", query=site["name"])
            d.read("list_forms", site_id=site["site_id"])
            got = d.read("get_form", form_id=form["form_id"])
            sub = d.write("submit_form", customer_id=c["customer_id"], form_id=form["form_id"], values=gold)
            d.output(sub["submission_id"], "code")
            if fee > 0:
                d.output(got["site_fee"], "money", strict=True)
            d.one_end_state(FORM_VALUES + " The account is under its monthly submissions (6.4) and the site has no "
                            "CAPTCHA and the form no login (8.1), so the one state is this submission.")

        if b.writer.kept(d):
            b.done(c, site["site_id"])
            made += 1


# path sections that read as restricted to a person: used in tasks only as blocked examples
RESTRICTED_LOOKING = ("/members/", "/private/", "/internal/", "/staff/", "/admin/", "/api/", "/search", "/archive/")


def open_pages_of(site_id: str) -> list[Rec]:
    return [p for p in D.pages_by_site[site_id] if open_page(p) and not p["path"].startswith(RESTRICTED_LOOKING)]


def upgrade_monitors(b: Builder, n: int) -> None:
    custs = [c for c in D.cus.values() if c["status"] == "active" and c["plan"] == "basic" and len(active(c["customer_id"])) == 3]
    made = 0
    for (c,) in b.candidates([(c,) for c in custs]):
        if made == n:
            break
        watched = {m["page_id"] for m in D.mons_by_cus[c["customer_id"]]}
        sites = [s for s in sorted(D.unique_site) if s not in b.used_sites and len([p for p in open_pages_of(s) if p["page_id"] not in watched and p["path"] != "/"]) >= 2]
        site = D.sites[b.rng.choice(sites)]
        p1, p2 = b.rng.sample([p for p in open_pages_of(site["site_id"]) if p["page_id"] not in watched and p["path"] != "/"], 2)
        with b.attempt(
            f"upgrade_for_monitors_{made + 1}", c,
            f"You are on the basic plan and want two new page monitors on the {site['name']} site: the '{p1['title']}' page "
            f"({p1['path']}) checked every 6 hours, and the '{p2['title']}' page ({p2['path']}) checked every 12 hours, both "
            f"alerting you by text message (SMS). You do not want to give up any of your existing monitors. If the agent says "
            f"your plan does not allow this, ask what upgrading to the plus plan would cost you today; once you hear the "
            f"amount, agree to the upgrade and the two monitors.",
            [f"Hi, I need two more monitors on {site['name']}.", me(c),
             f"'{p1['title']}' every 6 hours and '{p2['title']}' every 12 hours, by text message.",
             "I don't want to drop any of my current ones. What would the plus plan cost me today?",
             "OK, upgrade me and set up both monitors."],
        ) as d:
            verify(d, c)
            d.read("get_account_usage", customer_id=c["customer_id"])
            d.read("search_sites", query=site["name"])
            d.read("get_site", site_id=site["site_id"])
            d.read("list_pages", site_id=site["site_id"])
            quote = d.read("quote_plan_change", customer_id=c["customer_id"], new_plan="plus")
            d.output(quote["prorated_charge_today"], "money", strict=True)
            d.write("change_plan", customer_id=c["customer_id"], new_plan="plus")
            d.write("create_monitor", customer_id=c["customer_id"], page_id=p1["page_id"], interval_hours=6, channel="sms")
            d.write("create_monitor", customer_id=c["customer_id"], page_id=p2["page_id"], interval_hours=12, channel="sms")
            d.one_end_state("Basic allows 3 active monitors at 24 hours or more (3.1) and all 3 are in use; the customer "
                            "keeps every monitor and chooses the plus upgrade they asked about (3.3, 3.4), which allows both "
                            "intervals and the room for two more (7.1).")

        if b.writer.kept(d):
            b.done(c, site["site_id"])
            made += 1


def unique_monitors(cid: str) -> list[Rec]:
    """Active monitors that are the customer's only monitor (any status) on their site's name."""
    return [m for m in active(cid) if mon_page(m)["site_id"] in D.unique_site and not mon_page(m)["path"].startswith(RESTRICTED_LOOKING)
            and sum(1 for x in D.mons_by_cus[cid] if mon_page(x)["site_id"] == mon_page(m)["site_id"]) == 1]


def daily_unique_monitors(cid: str) -> list[Rec]:
    return [m for m in unique_monitors(cid) if m["interval_hours"] == 24]


def quota_upgrade_submit(b: Builder, n: int) -> None:
    forms = forms_ok(captcha=False, login=False)
    custs = [c for c in D.cus.values() if c["status"] == "active" and c["plan"] == "basic" and D.june_subs[c["customer_id"]] == 5
             and daily_unique_monitors(c["customer_id"])]
    made = 0
    for (c,) in b.candidates([(c,) for c in custs]):
        if made == n:
            break
        mon = daily_unique_monitors(c["customer_id"])[0]
        mpage = mon_page(mon)
        msite = site_of(mpage)
        form = b.rng.choice([f for f in forms if f["site_id"] not in b.used_sites and f["site_id"] != msite["site_id"]])
        site = D.sites[form["site_id"]]
        gold, said = form_values(b.rng, form, c)
        with b.attempt(
            f"quota_upgrade_and_submit_{made + 1}", c,
            f"You want the '{form['name']}' form on {site['name']} submitted for you today. You have used Relaypoint a lot this "
            f"month. The values (field label: value) are: {'; '.join(said)}; leave any other field empty. If the agent says you "
            f"cannot submit more this month on your plan, ask what moving to the plus plan would cost today, and accept it. "
            f"Once on plus, you also want your existing monitor on {msite['name']} to check every 12 hours instead of daily. "
            f"Confirm when the agent reads everything back correctly, and ask for the submission reference at the end.",
            [f"Hello, I need the {form['name'].lower()} on {site['name']} submitted.", me(c),
             "Here are the details: " + "; ".join(said) + ".",
             "Ugh, how much is the plus plan today then?",
             f"Fine, upgrade me, submit the form, and make my {msite['name']} monitor check every 12 hours.",
             "Yes, all correct.", "And the reference?"],
        ) as d:
            verify(d, c)
            d.read("get_account_usage", customer_id=c["customer_id"])
            d.read("search_sites", query=site["name"])
            d.read("list_forms", site_id=site["site_id"])
            d.read("get_form", form_id=form["form_id"])
            quote = d.read("quote_plan_change", customer_id=c["customer_id"], new_plan="plus")
            d.output(quote["prorated_charge_today"], "money", strict=True)
            d.write("change_plan", customer_id=c["customer_id"], new_plan="plus")
            sub = d.write("submit_form", customer_id=c["customer_id"], form_id=form["form_id"], values=gold)
            d.read("list_monitors", customer_id=c["customer_id"])
            d.write("update_monitor", monitor_id=mon["monitor_id"], interval_hours=12)
            d.output(sub["submission_id"], "code")
            d.one_end_state("Basic's 5 submissions this month are used, so the form goes only after the plus upgrade the "
                            "customer accepts (6.4, 3.4), and 12 hours is allowed only on plus (7.2); the monitor is the "
                            f"customer's only one on {msite['name']}. " + FORM_VALUES)

        if b.writer.kept(d):
            b.done(c, site["site_id"], msite["site_id"])
            made += 1


def swap_monitor(b: Builder, n: int, train: int = 0) -> None:
    custs = []
    for c in D.cus.values():
        cid = c["customer_id"]
        if c["status"] != "active" or c["plan"] != "basic" or len(active(cid)) != 3:
            continue
        mons = unique_monitors(cid)
        jobs = [j for j in D.jobs_by_cus[cid] if j["status"] == "scheduled" and j["site_id"] in D.unique_site
                and sum(1 for x in D.jobs_by_cus[cid] if x["site_id"] == j["site_id"]) == 1]
        if mons and jobs:
            custs.append((c, mons[0], jobs[0]))
    made = 0
    for c, mon, job in b.candidates(custs):
        if made == n:
            break
        msite, jsite = site_of(mon_page(mon)), D.sites[job["site_id"]]
        watched = {m["page_id"] for m in D.mons_by_cus[c["customer_id"]]}
        sites = [s for s in sorted(D.unique_site) if s not in b.used_sites and s not in (msite["site_id"], jsite["site_id"])
                 and any(p["page_id"] not in watched and p["path"] != "/" for p in open_pages_of(s))]
        site = D.sites[b.rng.choice(sites)]
        page = b.rng.choice([p for p in open_pages_of(site["site_id"]) if p["page_id"] not in watched and p["path"] != "/"])
        channel = b.rng.choice(["email", "sms"])
        said = {"email": "email", "sms": "text message"}[channel]
        split = "train" if made >= n - train else "test"
        with b.attempt(
            f"swap_monitor_cancel_job_{made + 1}", c,
            f"You want a new monitor on the '{page['title']}' page ({page['path']}) of {site['name']}, checked once a day, "
            f"alerts by {said}. You are on the basic plan and do not want to pay for an upgrade: to make room, you are happy to "
            f"pause your monitor on {msite['name']} (do not delete it). You also want to cancel your scheduled extraction job "
            f"on {jsite['name']}, which you no longer need. Confirm the plan when the agent lists it correctly.",
            [f"Hi, I'd like to set up a daily monitor on {site['name']}.", me(c),
             f"The '{page['title']}' page, daily, by {said}.",
             f"No upgrade. Just pause my {msite['name']} monitor instead. And please cancel my extraction job on {jsite['name']}.",
             "Yes, do all three."],
            split=split,
        ) as d:
            verify(d, c)
            d.read("get_account_usage", customer_id=c["customer_id"])
            d.read("list_monitors", customer_id=c["customer_id"])
            d.read("search_sites", query=site["name"])
            d.read("get_site", site_id=site["site_id"])
            d.read("list_pages", site_id=site["site_id"])
            d.read("list_extraction_jobs", customer_id=c["customer_id"])
            d.write("set_monitor_status", monitor_id=mon["monitor_id"], status="paused")
            d.write("create_monitor", customer_id=c["customer_id"], page_id=page["page_id"], interval_hours=24, channel=channel)
            d.write("cancel_extraction", job_id=job["job_id"])
            d.one_end_state(f"Basic's 3 active monitors are in use and the customer will not upgrade: the room comes from the "
                            f"pause they choose (3.3, 7.1), of their only monitor on {msite['name']}, before the new daily one "
                            f"(24 hours is basic's shortest, 3.1); the job cancelled is their only one on {jsite['name']} (5.3).")

        if b.writer.kept(d):
            b.done(c, site["site_id"], msite["site_id"], jsite["site_id"])
            made += 1


def robots_split(b: Builder, n: int) -> None:
    sites = []
    for sid in sorted(D.unique_site):
        bads = [p for p in D.pages_by_site[sid] if p["kind"] == "listing" and blocked(p) and not behind_login(p)]
        goods = [p for p in open_pages_of(sid) if p["kind"] == "listing"]
        if bads and goods:
            sites.append((D.sites[sid], bads[0], goods[0]))
    custs = [c for c in D.cus.values() if c["status"] == "active" and c["plan"] in ("plus", "business")]
    made = 0
    for (c,) in b.candidates([(c,) for c in custs]):
        if made == n:
            break
        avail = [x for x in sites if x[0]["site_id"] not in b.used_sites]
        site, bad, good = b.rng.choice(avail)
        pages = b.rng.choice([100, 150, 250, 400])
        with b.attempt(
            f"robots_blocked_extraction_{made + 1}", c,
            f"You want two one-time extraction jobs on {site['name']}, each reading at most {pages} pages: one for the "
            f"'{good['title']}' section ({good['path']}) and one for the '{bad['title']}' section ({bad['path']}). You want them "
            f"to run as fast as is allowed; you do not know the exact speed. If the agent refuses one of them, push back once "
            f"(say it is public data anyway), then accept the explanation and keep the other job.",
            [f"Hi, I want to pull data from {site['name']}: {good['path']} and {bad['path']}.", me(c),
             f"Once each, at most {pages} pages, as fast as you're allowed.", "Come on, it's public data anyway.",
             "Fine, yes, go ahead with the one you can then."],
        ) as d:
            _, rate = extraction_terms(d, c, site)
            d.write("schedule_extraction", customer_id=c["customer_id"], site_id=site["site_id"], path_prefix=good["path"],
                    max_pages=pages, requests_per_minute=rate, schedule="once")
            told_speed(d, rate)
            d.forbid("schedule_extraction", customer_id=c["customer_id"], site_id=site["site_id"], path_prefix=bad["path"],
                     max_pages=pages, requests_per_minute=rate, schedule="once")
            d.one_end_state(f"{bad['path']} starts with a disallowed prefix, which no customer's argument opens (4.2); "
                            f"{good['path']} is open and {pages} pages is within the plan (5.1); with no speed given, the job runs "
                            "at the highest allowed, the lower of the site's and the plan's (5.2).")

        if b.writer.kept(d):
            b.done(c, site["site_id"])
            made += 1


def rate_cap(b: Builder, n: int, train: int = 0) -> None:
    custs = [c for c in D.cus.values() if c["status"] == "active" and c["plan"] == "plus"]
    made = 0
    for (c,) in b.candidates([(c,) for c in custs]):
        if made == n:
            break
        sites = [s for s in sorted(D.unique_site) if s not in b.used_sites and D.sites[s]["max_requests_per_minute"] < 30
                 and any(p["kind"] == "listing" for p in open_pages_of(s))]
        site = D.sites[b.rng.choice(sites)]
        page = next(p for p in open_pages_of(site["site_id"]) if p["kind"] == "listing")
        split = "train" if made >= n - train else "test"
        with b.attempt(
            f"extraction_over_limits_{made + 1}", c,
            f"You want a daily extraction job on {site['name']} reading the '{page['title']}' section ({page['path']}): 5000 "
            f"pages per run at 60 requests per minute. If the agent says that is more than allowed, do not upgrade; ask for "
            f"the highest values that are allowed and accept them.",
            [f"I want a daily scrape of {page['path']} on {site['name']}, 5000 pages at 60 requests a minute.", me(c),
             "No upgrade. Then use the most that's allowed.", "Yes, schedule it."],
            split=split,
        ) as d:
            usage, rate = extraction_terms(d, c, site)
            d.write("schedule_extraction", customer_id=c["customer_id"], site_id=site["site_id"], path_prefix=page["path"],
                    max_pages=usage["plan_terms"]["max_pages_per_job"], requests_per_minute=rate, schedule="daily")
            told_speed(d, rate)
            d.forbid("schedule_extraction", customer_id=c["customer_id"], site_id=site["site_id"], path_prefix=page["path"],
                     max_pages=5000, requests_per_minute=60, schedule="daily")
            d.one_end_state("5000 pages and 60 requests a minute exceed plus's 2,000 pages and the site's own rate (5.1); the "
                            "customer refuses an upgrade and accepts the highest allowed values (5.2): the plan's page limit "
                            "and the lower of the site's and the plan's speed, daily as plus allows.")

        if b.writer.kept(d):
            b.done(c, site["site_id"])
            made += 1


def latest_alert(mon: Rec) -> Rec | None:
    alerts = D.alerts_by_mon[mon["monitor_id"]]
    return max(alerts, key=lambda a: a["detected_at"]) if alerts else None


def interval_too_short(b: Builder, n: int) -> None:
    custs = []
    for c in D.cus.values():
        cid = c["customer_id"]
        if c["status"] != "active" or c["plan"] != "basic" or len(active(cid)) not in (1, 2):
            continue
        mons = [m for m in unique_monitors(cid) if latest_alert(m)]
        if mons:
            custs.append((c, mons[0]))
    made = 0
    for c, mon in b.candidates(custs):
        if made == n:
            break
        msite = site_of(mon_page(mon))
        watched = {m["page_id"] for m in D.mons_by_cus[c["customer_id"]]}
        sites = [s for s in sorted(D.unique_site) if s not in b.used_sites and s != msite["site_id"]
                 and any(p["page_id"] not in watched and p["path"] != "/" for p in open_pages_of(s))]
        site = D.sites[b.rng.choice(sites)]
        page = b.rng.choice([p for p in open_pages_of(site["site_id"]) if p["page_id"] not in watched and p["path"] != "/"])
        with b.attempt(
            f"hourly_monitor_on_basic_{made + 1}", c,
            f"You want a monitor on the '{page['title']}' page ({page['path']}) of {site['name']} that checks every hour and "
            f"emails you. You will not upgrade or pay more under any circumstances; if hourly is not possible, accept the most "
            f"frequent checking your plan allows. You also have a monitor on {msite['name']}: ask on what date and at what "
            f"time (UTC) it last detected a change.",
            [f"Hi, I want an hourly monitor on {site['name']}.", me(c),
             f"The '{page['title']}' page, email alerts. No upgrades, I won't pay more.",
             "OK, go with the most frequent my plan allows.",
             f"Also, when did my {msite['name']} monitor last spot a change?"],
        ) as d:
            verify(d, c)
            d.read("get_account_usage", customer_id=c["customer_id"])
            d.read("search_sites", query=site["name"])
            d.read("get_site", site_id=site["site_id"])
            d.read("list_pages", site_id=site["site_id"])
            d.write("create_monitor", customer_id=c["customer_id"], page_id=page["page_id"], interval_hours=24, channel="email")
            d.forbid("create_monitor", customer_id=c["customer_id"], page_id=page["page_id"], interval_hours=1, channel="email")
            d.read("list_monitors", customer_id=c["customer_id"])
            alerts = d.read("list_change_alerts", monitor_id=mon["monitor_id"])
            stamp = alerts[0]["detected_at"]
            d.output(stamp[:10], "date")
            d.output(stamp[11:16], "time")
            d.one_end_state("Basic's shortest interval is 24 hours (3.1, 7.1) and the customer refuses an upgrade, choosing "
                            "the most frequent checking the plan allows (3.3); the account has room under 3 active monitors. "
                            f"The monitor asked about is the customer's only one on {msite['name']} (7.4).")

        if b.writer.kept(d):
            b.done(c, site["site_id"], msite["site_id"])
            made += 1


def form_transfer(b: Builder, n: int, login: bool) -> None:
    forms = forms_ok(captcha=not login, login=login)
    custs = [c for c in D.cus.values() if c["status"] == "active" and D.june_subs[c["customer_id"]] < PLANS[c["plan"]].submissions_per_month]
    made = 0
    for (c,) in b.candidates([(c,) for c in custs]):
        if made == n:
            break
        avail = [f for f in forms if f["site_id"] not in b.used_sites]
        form = b.rng.choice(avail)
        site = D.sites[form["site_id"]]
        gold, said = form_values(b.rng, form, c)
        kind = "login" if login else "captcha"
        extra = ("If the agent asks you for your password for that site, say you would rather not give it out." if login
                 else "You have heard the site has some kind of robot check, but you want Relaypoint to handle it anyway.")
        with b.attempt(
            f"form_needs_human_{kind}_{made + 1}", c,
            f"You want the '{form['name']}' form on {site['name']} submitted for you. The values (field label: value) are: "
            f"{'; '.join(said)}. {extra} If the agent cannot do it, accept being passed to someone who can.",
            [f"Can you submit the {form['name'].lower()} on {site['name']} for me?", me(c),
             "Here are the details: " + "; ".join(said) + ".", "OK, pass me on then."],
        ) as d:
            verify(d, c)
            d.read("search_sites", query=site["name"])
            d.read("get_site", site_id=site["site_id"])
            d.read("list_forms", site_id=site["site_id"])
            d.require("find_customer", email=c["email"])
            d.require("list_forms" if login else "get_site", site_id=site["site_id"])
            d.transfer(f"Customer wants the {form['name']} on {site['name']} submitted; it needs the Assisted Tasks team.")
            d.forbid("submit_form", customer_id=c["customer_id"], form_id=form["form_id"], values=gold)
            d.one_end_state(("The form's path is behind the site's login, where Relaypoint uses no password (4.3)" if login else
                             "The site's forms show a CAPTCHA")
                            + ": this desk does not submit it and transfers to the Assisted Tasks team after verifying and "
                            "the look-up that shows it (8.1).")

        if b.writer.kept(d):
            b.done(c, site["site_id"])
            made += 1


def suspended(b: Builder, n: int) -> None:
    custs = [c for c in D.cus.values() if c["status"] == "suspended"]
    made = 0
    for (c,) in b.candidates([(c,) for c in custs]):
        if made == n:
            break
        watched = {m["page_id"] for m in D.mons_by_cus[c["customer_id"]]}
        sites = [s for s in sorted(D.unique_site) if s not in b.used_sites and any(p["page_id"] not in watched and p["path"] != "/" for p in open_pages_of(s))]
        site = D.sites[b.rng.choice(sites)]
        page = b.rng.choice([p for p in open_pages_of(site["site_id"]) if p["page_id"] not in watched and p["path"] != "/"])
        interval = max(24, PLANS[c["plan"]].min_interval_hours)
        with b.attempt(
            f"suspended_account_change_{made + 1}", c,
            f"You want a new monitor on the '{page['title']}' page ({page['path']}) of {site['name']}, checked every {interval} "
            f"hours, alerts by email. You also want to know the date your plan next renews. You do not know that your last "
            f"renewal payment failed. If the agent says it cannot make changes, accept being transferred.",
            [f"Hi, please add a monitor on {site['name']}, the '{page['title']}' page.", me(c),
             f"Every {interval} hours, email alerts. And when does my plan renew next?", "OK, transfer me."],
        ) as d:
            verify(d, c)
            usage = d.read("get_account_usage", customer_id=c["customer_id"])
            d.output(usage["next_renewal"], "date", strict=True)
            d.require("find_customer", email=c["email"])
            d.transfer("Suspended account (failed renewal) asks to add a monitor; needs billing.")
            d.forbid("create_monitor", customer_id=c["customer_id"], page_id=page["page_id"], interval_hours=interval, channel="email")
            d.one_end_state("A suspended account may hear about its account (the next renewal) but gets no change of any "
                            "kind: asked for one, the agent transfers to billing (2.3, 8.2).")

        if b.writer.kept(d):
            b.done(c, site["site_id"])
            made += 1


def downgrade_refused(b: Builder, n: int) -> None:
    custs = [c for c in D.cus.values() if c["status"] == "active" and c["plan"] == "plus" and len(active(c["customer_id"])) in (4, 7)]
    made = 0
    for (c,) in b.candidates([(c,) for c in custs]):
        if made == n:
            break
        with b.attempt(
            f"downgrade_too_many_monitors_{made + 1}", c,
            "You want to move from the plus plan down to the basic plan today to save money. If the agent says you cannot "
            "right now, ask how many of your monitors are active. You need every one of your monitors and will not pause or "
            "delete any; in that case you keep your current plan.",
            ["Hi, I'd like to downgrade to the basic plan.", me(c), "How many monitors do I have running?",
             "I need all of them. Leave my plan as it is then."],
        ) as d:
            verify(d, c)
            usage = d.read("get_account_usage", customer_id=c["customer_id"])
            d.output(usage["active_monitors"], "number", strict=True)
            d.forbid("change_plan", customer_id=c["customer_id"], new_plan="basic")
            d.one_end_state("Basic allows 3 active monitors and more are active; the plan is not changed until enough are "
                            "paused or deleted (3.5), which the customer refuses, so nothing changes.")

        if b.writer.kept(d):
            b.done(c)
            made += 1


def downgrade_after_pausing(b: Builder, n: int) -> None:
    custs = []
    for c in D.cus.values():
        cid = c["customer_id"]
        act = active(cid)
        if c["status"] != "active" or c["plan"] != "plus" or len(act) != 5:
            continue
        unique = unique_monitors(cid)
        if len(unique) >= 2:
            custs.append((c, unique[0], unique[1]))
    made = 0
    for c, m1, m2 in b.candidates(custs):
        if made == n:
            break
        s1, s2 = site_of(mon_page(m1)), site_of(mon_page(m2))
        with b.attempt(
            f"pause_then_downgrade_{made + 1}", c,
            f"You want to move from the plus plan down to the basic plan today. If the agent says you have too many active "
            f"monitors for basic, you are willing to pause (not delete) your monitors on {s1['name']} and on {s2['name']}, and "
            f"then downgrade. You do not want anything else changed.",
            ["Hi, I want to switch down to the basic plan.", me(c),
             f"Then pause my monitors on {s1['name']} and {s2['name']}, and downgrade me.", "Yes, go ahead."],
        ) as d:
            verify(d, c)
            d.read("get_account_usage", customer_id=c["customer_id"])
            d.read("list_monitors", customer_id=c["customer_id"])
            d.read("quote_plan_change", customer_id=c["customer_id"], new_plan="basic")
            d.write("set_monitor_status", monitor_id=m1["monitor_id"], status="paused")
            d.write("set_monitor_status", monitor_id=m2["monitor_id"], status="paused")
            d.write("change_plan", customer_id=c["customer_id"], new_plan="basic")
            d.one_end_state(f"Five active monitors exceed basic's 3 (3.5): the customer names the two to pause, their only "
                            f"ones on {s1['name']} and {s2['name']}, which leaves 3, and only then is the plan downgraded.")

        if b.writer.kept(d):
            b.done(c, s1["site_id"], s2["site_id"])
            made += 1


def last_change_channel(b: Builder, n: int, train: int = 0) -> None:
    custs = []
    for c in D.cus.values():
        cid = c["customer_id"]
        if c["status"] != "active":
            continue
        mons = [m for m in unique_monitors(cid) if latest_alert(m) and m["channel"] == "email"]
        if mons:
            custs.append((c, mons[0]))
    made = 0
    for c, mon in b.candidates(custs):
        if made == n:
            break
        page = mon_page(mon)
        site = site_of(page)
        if site["site_id"] in b.used_sites:
            continue
        split = "train" if made >= n - train else "test"
        with b.attempt(
            f"last_change_and_sms_{made + 1}", c,
            f"You watch the '{page['title']}' page of {site['name']} with a Relaypoint monitor. You missed the last alert email: "
            f"ask on what date and at what time (UTC) the monitor last detected a change. Then you want that monitor's alerts "
            f"sent by text message (SMS) from now on, with nothing else changed.",
            [f"Hi, when did my {site['name']} monitor last pick up a change?", me(c),
             "Thanks. Can you switch that monitor to text message alerts?", "Yes please."],
            split=split,
        ) as d:
            verify(d, c)
            d.read("list_monitors", customer_id=c["customer_id"])
            alerts = d.read("list_change_alerts", monitor_id=mon["monitor_id"])
            stamp = alerts[0]["detected_at"]
            d.output(stamp[:10], "date")
            d.output(stamp[11:16], "time")
            d.write("update_monitor", monitor_id=mon["monitor_id"], channel="sms")
            d.one_end_state(f"The monitor is the customer's only one on {site['name']}; its newest alert is the last change "
                            "(7.4), and only the channel changes (2.1).")

        if b.writer.kept(d):
            b.done(c, site["site_id"])
            made += 1


def recurring_on_basic(b: Builder, n: int) -> None:
    custs = [c for c in D.cus.values() if c["status"] == "active" and c["plan"] == "basic"]
    made = 0
    for (c,) in b.candidates([(c,) for c in custs]):
        if made == n:
            break
        sites = [s for s in sorted(D.unique_site) if s not in b.used_sites and any(p["kind"] == "listing" for p in open_pages_of(s))]
        site = D.sites[b.rng.choice(sites)]
        page = next(p for p in open_pages_of(site["site_id"]) if p["kind"] == "listing")
        pages = b.rng.choice([60, 80, 120, 150])
        with b.attempt(
            f"weekly_extraction_on_basic_{made + 1}", c,
            f"You want Relaypoint to read the '{page['title']}' section ({page['path']}) of {site['name']} every week, at most "
            f"{pages} pages per run; you have no preference about speed. You are on the basic plan and refuse to upgrade; if a "
            f"weekly job is not possible, accept a single one-time run with the same page count instead.",
            [f"Can you set up a weekly extraction of {page['path']} on {site['name']}?", me(c),
             f"At most {pages} pages. Speed doesn't matter to me.", "No upgrade. OK, just run it once then.", "Yes."],
        ) as d:
            _, rate = extraction_terms(d, c, site)
            d.write("schedule_extraction", customer_id=c["customer_id"], site_id=site["site_id"], path_prefix=page["path"],
                    max_pages=pages, requests_per_minute=rate, schedule="once")
            told_speed(d, rate)
            d.forbid("schedule_extraction", customer_id=c["customer_id"], site_id=site["site_id"], path_prefix=page["path"],
                     max_pages=pages, requests_per_minute=rate, schedule="weekly")
            d.one_end_state("Recurring jobs need plus or business (3.1, 5.1); the customer refuses an upgrade and takes a "
                            f"one-time run of {pages} pages (within basic's 200), at the highest allowed speed since they gave "
                            "none (5.2).")

        if b.writer.kept(d):
            b.done(c, site["site_id"])
            made += 1


def blocked_monitor(b: Builder, n: int) -> None:
    sites = []
    for sid in sorted(D.unique_site):
        bads = [p for p in D.pages_by_site[sid] if p["kind"] != "form" and blocked(p) and not behind_login(p)]
        goods = [p for p in open_pages_of(sid) if p["path"] != "/"]
        if bads and goods:
            sites.append((D.sites[sid], bads[0], goods[0]))
    custs = [c for c in D.cus.values() if c["status"] == "active" and c["plan"] in ("plus", "business")
             and len(active(c["customer_id"])) <= PLANS[c["plan"]].max_active_monitors - 2]
    made = 0
    for (c,) in b.candidates([(c,) for c in custs]):
        if made == n:
            break
        watched = {m["page_id"] for m in D.mons_by_cus[c["customer_id"]]}
        avail = [x for x in sites if x[0]["site_id"] not in b.used_sites and x[1]["page_id"] not in watched and x[2]["page_id"] not in watched]
        site, bad, good = b.rng.choice(avail)
        with b.attempt(
            f"monitor_blocked_page_{made + 1}", c,
            f"You want two monitors on {site['name']}, each checked every 12 hours with email alerts: one on the "
            f"'{good['title']}' page ({good['path']}) and one on the '{bad['title']}' page ({bad['path']}). You say you have "
            f"permission from the site's owner. If the agent refuses one, accept the other one alone.",
            [f"Hi, I need monitors on {site['name']}: {good['path']} and {bad['path']}.", me(c),
             "Every 12 hours, email. And I have the site owner's permission, by the way.", "Fine, yes, set up the one you can."],
        ) as d:
            verify(d, c)
            d.read("get_account_usage", customer_id=c["customer_id"])
            d.read("search_sites", query=site["name"])
            d.read("get_site", site_id=site["site_id"])
            d.read("list_pages", site_id=site["site_id"])
            d.write("create_monitor", customer_id=c["customer_id"], page_id=good["page_id"], interval_hours=12, channel="email")
            d.forbid("create_monitor", customer_id=c["customer_id"], page_id=bad["page_id"], interval_hours=12, channel="email")
            d.one_end_state(f"{bad['path']} is blocked by the site's robots rules, whatever permission the customer claims "
                            f"(4.2); {good['path']} is open, 12 hours is allowed on the plan and there is room (7.1).")

        if b.writer.kept(d):
            b.done(c, site["site_id"])
            made += 1


LONG_PREFIX = {"license_plate": ("WA-", "the state code and a dash in front, as on your registration card"),
               "booking_reference": ("BK-", "the letters BK and a dash in front, as printed on your ticket")}


def too_long_value(b: Builder, n: int) -> None:
    forms = [f for f in forms_ok(captcha=False, login=False) if any(x["name"] in LONG_PREFIX for x in f["fields"])]
    custs = [c for c in D.cus.values() if c["status"] == "active" and D.june_subs[c["customer_id"]] < PLANS[c["plan"]].submissions_per_month]
    made = 0
    for (c,) in b.candidates([(c,) for c in custs]):
        if made == n:
            break
        avail = [f for f in forms if f["site_id"] not in b.used_sites]
        if not avail:
            break
        form = b.rng.choice(avail)
        site = D.sites[form["site_id"]]
        gold, said = form_values(b.rng, form, c)
        field = next(x for x in form["fields"] if x["name"] in LONG_PREFIX)
        prefix, how = LONG_PREFIX[field["name"]]
        short = next(v["value"] for v in gold if v["name"] == field["name"])
        long = prefix + short
        said = [f"{field['label']}: {long}" if line.startswith(field["label"] + ":") else line for line in said]
        with b.attempt(
            f"value_too_long_{made + 1}", c,
            f"You want the '{form['name']}' form on {site['name']} submitted for you. The values (field label: value) are: "
            f"{'; '.join(said)}; leave any other field empty. You give the {field['label'].lower()} as {long}, with {how}. "
            f"If the agent says it is too long for the form, tell them to use it without that prefix: {short}. Confirm when "
            f"the agent reads the values back correctly, and ask for the submission reference at the end.",
            [f"Hi, please submit the {form['name'].lower()} on {site['name']} for me.", me(c),
             "Here are the details: " + "; ".join(said) + ".", f"Oh, then just {short}, without the prefix.",
             "Yes, that's right, submit it.", "What's the reference?"],
        ) as d:
            verify(d, c)
            d.read("get_account_usage", customer_id=c["customer_id"])
            d.read("search_sites", query=site["name"])
            d.read("list_forms", site_id=site["site_id"])
            d.read("get_form", form_id=form["form_id"])
            sub = d.write("submit_form", customer_id=c["customer_id"], form_id=form["form_id"], values=gold)
            d.output(sub["submission_id"], "code")
            wrong = [dict(v, value=long) if v["name"] == field["name"] else v for v in gold]
            d.forbid("submit_form", customer_id=c["customer_id"], form_id=form["form_id"], values=wrong)
            d.one_end_state(f"{long} is longer than the field's max_length; the agent does not shorten it but asks (6.3), "
                            f"and the customer gives {short}. " + FORM_VALUES)

        if b.writer.kept(d):
            b.done(c, site["site_id"])
            made += 1


# -- running jobs, status pages that change ------------------------------------------------
def job_rows(job: Rec) -> list[Rec]:
    """The rows a run of the job would return (for picking candidates; the task's figures come from the run)."""
    site = D.sites[job["site_id"]]
    pages = [p for p in D.pages_by_site[site["site_id"]] if p["path"].startswith(job["path_prefix"])
             and not any(p["path"].startswith(x) for x in site["login_paths"])][: job["max_pages"]]
    return [item for p in pages for item in p.get("items", [])]


def job_keeps_rules(job: Rec, c: Rec) -> bool:
    site, terms = D.sites[job["site_id"]], PLANS[c["plan"]]
    return (job["requests_per_minute"] <= min(site["max_requests_per_minute"], terms.max_requests_per_minute)
            and job["max_pages"] <= terms.max_pages_per_job and (job["schedule"] == "once" or c["plan"] != "basic")
            and not any(job["path_prefix"].startswith(x) or x.startswith(job["path_prefix"]) for x in site["disallowed_paths"]))


def run_job_cheapest(b: Builder, n: int) -> None:
    cands = []
    for job in sorted(D.jobs.values(), key=lambda j: j["job_id"]):
        c = D.cus[job["customer_id"]]
        same_site = [j for j in D.jobs_by_cus[c["customer_id"]] if j["site_id"] == job["site_id"] and j["status"] == "scheduled"]
        rows = job_rows(job)
        prices = sorted(r["price"] for r in rows)
        titles = [r["title"] for r in rows]
        if (job["status"] == "scheduled" and c["status"] == "active" and len(same_site) == 1 and job["site_id"] in D.unique_site
                and job_keeps_rules(job, c) and len(rows) >= 3 and prices[0] != prices[1] and len(set(titles)) == len(titles)):
            cands.append((c, job))
    made = 0
    for c, job in b.candidates(cands):
        if made == n:
            break
        site = D.sites[job["site_id"]]
        with b.attempt(
            f"run_job_cheapest_{made + 1}", c,
            f"You have an extraction job that reads {site['name']} (the part under {job['path_prefix']}). You want it run now, "
            "and you want to know the cheapest entry it finds: its title and its price. You do not need the other entries.",
            [f"Hi, could you run my {site['name']} extraction job right now? I'm after the cheapest listing it finds.", me(c),
             "Yes, please run it now."],
        ) as d:
            verify(d, c)
            d.read("get_account_usage", customer_id=c["customer_id"])
            d.read("list_extraction_jobs", customer_id=c["customer_id"])
            d.read("get_site", site_id=site["site_id"])
            run = d.write("run_extraction", job_id=job["job_id"])
            cheapest = min(run["rows"], key=lambda r: r["price"])
            d.output(cheapest["title"], "text")
            d.output(cheapest["price"], "money")
            d.one_end_state(f"The job is the customer's only scheduled one on {site['name']}, and it still keeps within the "
                            "site's robots rules and the plan's limits (5.1, 5.4), so it runs; one row has the lowest price "
                            "(5.5).")
        if b.writer.kept(d):
            b.done(c, site["site_id"])
            made += 1
    if made < n:
        raise SystemExit(f"only {made} of {n} run_job_cheapest tasks")


def watch_then_submit(b: Builder, n: int, at_limit: bool) -> None:
    """Submit a form whose site posts each request on a status page, with a monitor on that page created first
    (policy 7.3); a customer at their monitor limit first pauses a monitor they name to make room."""
    forms = [f for f in forms_ok(captcha=False, login=False) if f.get("updates_page")]
    custs = [c for c in D.cus.values() if c["status"] == "active" and D.june_subs[c["customer_id"]] < PLANS[c["plan"]].submissions_per_month
             and (len(active(c["customer_id"])) == PLANS[c["plan"]].max_active_monitors) == at_limit
             and (not at_limit or unique_monitors(c["customer_id"]))]
    made = 0
    name = "watch_full_then_submit" if at_limit else "watch_then_submit"
    for (c,) in b.candidates([(c,) for c in custs]):
        if made == n:
            break
        form = b.rng.choice([f for f in forms if f["site_id"] not in b.used_sites] or forms)
        site = D.sites[form["site_id"]]
        gold, said = form_values(b.rng, form, c)
        channel = b.rng.choice(["sms", "email"])
        by = "a text message" if channel == "sms" else "an email"
        pause = unique_monitors(c["customer_id"])[0] if at_limit else None
        room = ""
        room_line: list[str] = []
        if pause is not None:
            mpage = mon_page(pause)
            where = f"the '{mpage['title']}' page of {site_of(mpage)['name']}"
            room = f" You already use every monitor your plan allows; to make room, you want your monitor on {where} paused."
            room_line = [f"I'm at my monitor limit, so please pause my monitor on {where} to make room. Yes, pause it."]
        with b.attempt(
            f"{name}_{made + 1}", c,
            f"You want Relaypoint to submit the '{form['name']}' form on the {site['name']} site for you, and you want {by} "
            f"whenever the site's status page for your request changes, checked once a day, starting with the site receiving "
            f"this request.{room} When the agent asks for the form's values, give exactly these (field label: value): "
            f"{'; '.join(said)}. Any field not in this list you leave empty. Agree to each change the agent describes if it "
            "matches. At the end, ask for the submission reference.",
            [f"Hi, I need to send the {form['name'].lower()} on {site['name']}, and I want {by} when the status of my request "
             "changes, checked once a day.", me(c), *room_line, "Here are my details: " + "; ".join(said) + ".",
             "Yes, set up that alert.", "Yes, that's all correct, submit it.", "What's the reference?"],
            ordered=True,  # the monitor before the submission (policy 7.3): the alert exists only then
        ) as d:
            verify(d, c)
            d.read("get_account_usage", customer_id=c["customer_id"])
            if pause is not None:
                d.read("list_monitors", customer_id=c["customer_id"])
                d.write("set_monitor_status", monitor_id=pause["monitor_id"], status="paused")
            d.read("search_sites", query=site["name"])
            d.read("list_forms", site_id=site["site_id"])
            got = d.read("get_form", form_id=form["form_id"])
            d.write("create_monitor", customer_id=c["customer_id"], page_id=got["updates_page"], interval_hours=24, channel=channel)
            sub = d.write("submit_form", customer_id=c["customer_id"], form_id=form["form_id"], values=gold)
            d.output(sub["submission_id"], "code")
            if form["site_fee"] > 0:
                d.output(got["site_fee"], "money", strict=True)
            d.one_end_state("The alert the customer wants comes only from a monitor on the form's updates page made before "
                            "the submission (7.3), checked daily as asked"
                            + (f"; the room for it is the pause the customer names, of their only monitor on "
                               f"{site_of(mon_page(pause))['name']} (3.3, 7.1)" if pause is not None else "")
                            + ". " + FORM_VALUES)
        if b.writer.kept(d):
            b.done(c, site["site_id"])
            made += 1
    if made < n:
        raise SystemExit(f"only {made} of {n} {name} tasks")


def build() -> TaskWriter:
    b = Builder()
    submit_ok(b, 3, train=1)
    upgrade_monitors(b, 2)
    quota_upgrade_submit(b, 2)
    swap_monitor(b, 3, train=1)
    robots_split(b, 2)
    rate_cap(b, 3, train=1)
    interval_too_short(b, 2)
    form_transfer(b, 2, login=False)
    form_transfer(b, 1, login=True)
    suspended(b, 2)
    downgrade_refused(b, 2)
    downgrade_after_pausing(b, 2)
    last_change_channel(b, 3, train=1)
    recurring_on_basic(b, 1)
    blocked_monitor(b, 2)
    too_long_value(b, 2)
    run_job_cheapest(b, 15)
    watch_then_submit(b, 7, at_limit=False)
    watch_then_submit(b, 8, at_limit=True)
    return b.writer


if __name__ == "__main__":
    path = build().save()
    print(f"wrote {path}")
