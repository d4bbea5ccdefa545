"""Builds fixtures/insurance/tasks.json from the generated DB (seeded, deterministic).

    python -m tests_domains.insurance.make_tasks

Each task kind has a hand-written template; the records are chosen from the DB by the
conditions the policy cares about, and every figure is taken from replaying the gold
actions through the real tools.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

import orjson

from pytest_tau._environment import Environment
from tests_domains.insurance import rating as R
from tests_domains.insurance.domain import DOMAIN

OUT = Path(__file__).parents[2] / "fixtures" / "insurance" / "tasks.json"
rng = random.Random(77)
DB = DOMAIN.initial_db
USED: set[str] = set()
TASKS: list[dict] = []
OPEN = ("open", "under_investigation")
VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"

MOODS = [
    "You are friendly but busy and keep answers short.",
    "You are polite and a little anxious about costs.",
    "You are matter-of-fact and slightly impatient.",
    "You are chatty and cheerful.",
    "You are careful and want every figure explained.",
    "You are calm and to the point.",
]


def spoken(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def run(actions: list[dict]) -> list:
    env = Environment(DOMAIN)
    out = []
    for a in actions:
        call = env.call(a["name"], dict(a["arguments"]))
        assert not call.error, (a, call.result)
        out.append(orjson.loads(call.result) if call.result[:1] in "[{" else call.result)
    return out


def holder_of(pol) -> object:
    return DB.policyholders[pol.policyholder_id]


def open_claims(pnum: str) -> list:
    return [c for c in DB.claims.values() if c.policy_number == pnum and c.status in OPEN]


def active_vehicles(pol) -> list:
    return [DB.vehicles[v] for v in pol.vehicle_ids if DB.vehicles[v].status == "active"]


def active_drivers(pol) -> list:
    return [DB.drivers[d] for d in pol.driver_ids if DB.drivers[d].status == "active"]


def has_sporty(pol) -> bool:
    return any(v.vehicle_class in ("sports", "luxury") for v in active_vehicles(pol))


def has_young(pol) -> bool:
    return any(R.age_on(d.date_of_birth) < 25 for d in active_drivers(pol))


def cov(pol, code):
    return next((c for c in pol.coverages if c.code == code), None)


def pick(cond, line: str | None = None):
    """A fresh active policy (its holder not used by another task) meeting `cond`."""
    pols = sorted(DB.policies.values(), key=lambda p: p.policy_number)
    rng.shuffle(pols)
    for pol in pols:
        if pol.status != "active" or (line and pol.line != line) or pol.policyholder_id in USED:
            continue
        if cond(pol):
            USED.add(pol.policyholder_id)
            return pol
    raise RuntimeError("no policy fits")


def auth(pol, style: int) -> tuple[str, dict, str]:
    """(how the user identifies, the gold auth action, the scripted line)."""
    h = holder_of(pol)
    if style % 2 == 0:
        return (
            f"Your policy number is {pol.policy_number} and your date of birth is {spoken(h.date_of_birth)}.",
            {"name": "find_policyholder_by_policy_number", "arguments": {"policy_number": pol.policy_number, "date_of_birth": h.date_of_birth}},
            f"My policy number is {pol.policy_number}, and my date of birth is {spoken(h.date_of_birth)}.",
        )
    return (
        f"You do not have your policy number handy; you identify yourself by name, your zip code {h.address.zip} and your date of birth, {spoken(h.date_of_birth)}.",
        {"name": "find_policyholder_by_name_zip", "arguments": {"first_name": h.first_name, "last_name": h.last_name, "zip": h.address.zip, "date_of_birth": h.date_of_birth}},
        f"I'm {h.first_name} {h.last_name}, zip {h.address.zip}, born {spoken(h.date_of_birth)}.",
    )


def new_vin(wmi: str, year: int) -> str:
    code = "ABCDEFGHJKLMNPRSTVWXY123456789"[(year - 2010) % 30]
    return wmi + "".join(rng.choice(VIN_CHARS) for _ in range(5)) + rng.choice("0123456789") + code + rng.choice(VIN_CHARS) + f"{rng.randint(0, 999999):06d}"


def new_license(state: str) -> str:
    if state == "WA":
        return "WDL" + "".join(rng.choice(VIN_CHARS) for _ in range(9))
    if state == "ID":
        return "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(2)) + f"{rng.randint(100000, 999999)}" + rng.choice("ABCDEFGH")
    if state == "MT":
        return f"{rng.randint(10**12, 10**13 - 1)}"
    if state == "OR":
        return f"{rng.randint(1000000, 9999999)}"
    return f"{rng.randint(100000000, 999999999)}"


WMI = {("Toyota", "RAV4"): "2T3", ("Honda", "CR-V"): "5J6", ("Subaru", "Outback"): "4S4", ("Ford", "Mustang"): "1FA",
       ("Mazda", "CX-5"): "JM3", ("Hyundai", "Elantra"): "5NP", ("Toyota", "Camry"): "4T1", ("Kia", "Telluride"): "5XY",
       ("Ford", "Maverick"): "3FT", ("Chevrolet", "Camaro"): "1G1", ("BMW", "330i"): "3MW", ("Tesla", "Model 3"): "5YJ",
       ("Subaru", "WRX"): "JF1", ("Honda", "Civic"): "2HG", ("Nissan", "Rogue"): "5N1", ("Toyota", "Tacoma"): "3TM",
       ("Volkswagen", "Golf GTI"): "3VW", ("Honda", "Odyssey"): "5FN"}
EVERYDAY = [("Toyota", "RAV4"), ("Honda", "CR-V"), ("Subaru", "Outback"), ("Mazda", "CX-5"), ("Hyundai", "Elantra"),
            ("Toyota", "Camry"), ("Kia", "Telluride"), ("Ford", "Maverick"), ("Honda", "Civic"), ("Nissan", "Rogue"),
            ("Toyota", "Tacoma"), ("Honda", "Odyssey")]
USED_CARS = [("Toyota", "RAV4"), ("Honda", "CR-V"), ("Subaru", "Outback"), ("Mazda", "CX-5"), ("Hyundai", "Elantra"),
             ("Toyota", "Camry"), ("Honda", "Civic"), ("Nissan", "Rogue"), ("Toyota", "Tacoma")]
SPORTY = [("Ford", "Mustang"), ("Chevrolet", "Camaro"), ("BMW", "330i"), ("Tesla", "Model 3"), ("Subaru", "WRX"), ("Volkswagen", "Golf GTI")]
KID_NAMES = ["Harper", "Eli", "Sadie", "Rowan", "Jude", "Piper", "Asher", "Wren", "Beckett", "Juniper", "Ezra", "Marlowe"]


def vehicle_label(v) -> str:
    return f"{v.year} {v.make} {v.model}"


def unique_vehicle(pol, v) -> bool:
    return sum((x.make, x.model) == (v.make, v.model) for x in active_vehicles(pol)) == 1


def add(task_id: str, instructions: str, script: list[str], gold: list[dict], outputs=(), required=(), forbidden=(), split="test"):
    results = run(gold)
    TASKS.append({
        "id": task_id, "split": split,
        "user": {"instructions": instructions, "script": script},
        "gold_actions": gold,
        "required_outputs": [o(results) if callable(o) else o for o in outputs],
        "required_actions": list(required),
        "forbidden_actions": list(forbidden),
    })
    return results


def money(x: float) -> str:
    return f"{abs(x):.2f}"


def fig(index: int, key: str):
    return lambda res: money(res[index][key])


def calc_expr(values: list[float]) -> str:
    return " + ".join(f"{v:.2f}" if v >= 0 else f"({v:.2f})" for v in values)


# ---------------------------------------------------------------------------------------- templates


def coverage_lookup_auto(n: int, split="test"):
    pol = pick(lambda p: cov(p, "COLL") is not None and cov(p, "RENT") is None, "auto")
    h = holder_of(pol)
    who, a, line = auth(pol, n)
    bi = cov(pol, "BI")
    add(
        f"coverage_lookup_auto_{n}",
        f"You are {h.first_name} {h.last_name}, a Harborline Mutual auto policyholder. {who} {MOODS[n % 6]} "
        "You just got a quote from another company and want to compare: ask what your collision and comprehensive deductibles are, "
        "and what your bodily injury liability limits are (per person and per accident). Also ask whether you have rental reimbursement. "
        "You do not want to change anything today; if offered changes, decline.",
        [f"Hi, I want to double-check my auto coverage. {line}", "Just the collision and comprehensive deductibles, my bodily injury limits, and whether I have rental car coverage.", "No changes, thanks."],
        [a, {"name": "get_policy", "arguments": {"policy_number": pol.policy_number}}],
        [str(cov(pol, "COLL").deductible), str(cov(pol, "COMP").deductible), str(bi.limit_per_person), str(bi.limit_per_occurrence)],
        split=split,
    )


def coverage_lookup_home(n: int):
    pol = pick(lambda p: cov(p, "WBU") is not None, "home")
    h = holder_of(pol)
    who, a, line = auth(pol, n)
    add(
        f"coverage_lookup_home_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[n % 6]} Your neighbor's basement flooded from a sewer backup and you "
        "want to know where you stand on your homeowners policy: ask what your all-peril deductible is, what your dwelling coverage limit is, "
        "and what limit you have for water backup. You are not making changes.",
        [f"Hello, I have a question about my homeowners policy. {line}", "What's my deductible, how much is the house covered for, and do I have water backup coverage? How much?", "That's all, thank you."],
        [a, {"name": "get_policy", "arguments": {"policy_number": pol.policy_number}}],
        [str(cov(pol, "DWELL").deductible), str(cov(pol, "DWELL").limit_per_occurrence), str(cov(pol, "WBU").limit_per_occurrence)],
    )


def claim_status(n: int, split="test"):
    def ok(p):
        return any(c.status == "open" and c.adjuster_id for c in open_claims(p.policy_number))
    pol = pick(ok)
    h = holder_of(pol)
    claim = next(c for c in open_claims(pol.policy_number) if c.status == "open" and c.adjuster_id)
    adj = DB.adjusters[claim.adjuster_id]
    who, a, line = auth(pol, n + 1)
    what = f"the {claim.loss_type.replace('_', ' ')} loss on {spoken(claim.date_of_loss)}"
    add(
        f"claim_status_{n}",
        f"You are {h.first_name} {h.last_name}. {who} You reported {what} and your claim number is {claim.claim_id}. {MOODS[(n + 2) % 6]} "
        "You have not heard from anyone in a while. You want to know whether an adjuster is handling it, and if so the adjuster's name and direct "
        "phone number so you can call them. You do not want anything else.",
        [f"Hi, I'm calling about claim {claim.claim_id}. {line}", "Who is my adjuster, and what's their direct number?", "Great, thanks."],
        [a, {"name": "get_claim", "arguments": {"claim_id": claim.claim_id}}, {"name": "get_adjuster", "arguments": {"adjuster_id": adj.adjuster_id}}],
        [adj.name, adj.phone],
        split=split,
    )


def add_driver_single(n: int, rel: str, split="test"):
    if rel == "child":
        cond = lambda p: not has_sporty(p) and len(active_drivers(p)) < 4 and R.age_on(holder_of(p).date_of_birth) > 42
    else:
        cond = lambda p: len(active_drivers(p)) == 1 and R.age_on(holder_of(p).date_of_birth) > 30
    pol = pick(cond, "auto")
    h = holder_of(pol)
    state = h.address.state
    if rel == "child":
        first = rng.choice(KID_NAMES)
        dob = (R.TODAY - timedelta(days=rng.randint(16 * 365 + 20, 17 * 365 + 300))).isoformat()
        last = h.last_name
        about = f"your child {first} {last}, born {spoken(dob)}, who just got a driver's license"
    else:
        first = rng.choice(["Maria", "Daniel", "Priya", "Colin", "Renata", "Graham"])
        dob = (date.fromisoformat(h.date_of_birth) + timedelta(days=rng.randint(-1500, 1500))).isoformat()
        last = h.last_name
        about = f"your spouse {first} {last}, born {spoken(dob)}, whom you recently married"
    lic = new_license(state)
    who, a, line = auth(pol, n)
    gold = [a, {"name": "get_policy", "arguments": {"policy_number": pol.policy_number}},
            {"name": "list_drivers", "arguments": {"policy_number": pol.policy_number}},
            {"name": "add_driver", "arguments": {"policy_number": pol.policy_number, "first_name": first, "last_name": last,
                                                 "date_of_birth": dob, "license_number": lic, "license_state": state, "relationship": rel}}]
    add(
        f"add_driver_{rel}_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[n % 6]} You want to add {about}, to your auto policy. "
        f"The license is {state} license number {lic}. Give these details only when asked. Before agreeing, you want to know how much it will cost "
        "you for the rest of this policy term; accept the change once you hear the figure.",
        [f"Hi, I need to add a driver to my car insurance. {line}", f"{first} {last}, born {spoken(dob)}, {state} license {lic}.", "OK, that's fine, go ahead."],
        gold, [fig(3, "prorated_change")], split=split,
    )


def add_vehicle_single(n: int):
    pol = pick(lambda p: len(active_vehicles(p)) < 3 and cov(p, "COLL") is not None and not open_claims(p.policy_number), "auto")
    h = holder_of(pol)
    make, model = EVERYDAY[n * 3 % len(EVERYDAY)]
    year = rng.randint(2019, 2026)
    vin = new_vin(WMI[(make, model)], year)
    who, a, line = auth(pol, n)
    gold = [a, {"name": "get_policy", "arguments": {"policy_number": pol.policy_number}},
            {"name": "lookup_vehicle_model", "arguments": {"make": make, "model": model}},
            {"name": "add_vehicle", "arguments": {"policy_number": pol.policy_number, "vin": vin, "year": year, "make": make, "model": model}}]
    add(
        f"add_vehicle_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[(n + 3) % 6]} You bought a {year} {make} {model} yesterday and need it on your "
        f"auto policy starting today, keeping everything you already have. The VIN is {vin} (read it out when asked). "
        "Ask what the added premium is for the rest of the term, then approve it.",
        [f"Hello, I just bought a car and need to add it to my policy. {line}", f"It's a {year} {make} {model}, VIN {vin}.", "Yes, please add it."],
        gold, [fig(3, "prorated_change")],
    )


def raise_deductible(n: int, line_: str):
    if line_ == "auto":
        pol = pick(lambda p: cov(p, "COLL") is not None and cov(p, "COLL").deductible in (250, 500) and len(active_vehicles(p)) >= 2, "auto")
        code, new = "COLL", 1000
        what = "collision deductible"
    else:
        pol = pick(lambda p: cov(p, "DWELL").deductible in (500, 1000), "home")
        code, new = "DWELL", 2500
        what = "homeowners deductible"
    h = holder_of(pol)
    who, a, line = auth(pol, n)
    gold = [a, {"name": "get_policy", "arguments": {"policy_number": pol.policy_number}},
            {"name": "change_deductible", "arguments": {"policy_number": pol.policy_number, "coverage_code": code, "new_deductible": new}}]
    add(
        f"raise_deductible_{line_}_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[(n + 1) % 6]} Money is tight and you want to raise your {what} to ${new:,}. You want to know how much you will get back "
        "for the rest of this term before you agree, then you agree.",
        [f"I'd like to raise my {what}. {line}", f"${new:,}, please.", "Yes, go ahead."],
        gold, [fig(2, "prorated_change")],
    )


def recent_vehicle(pol, dol: str):
    for v in active_vehicles(pol):
        if v.added_on <= dol and unique_vehicle(pol, v):
            return v
    return None


def file_claim_auto(n: int, loss: str, split="test"):
    dol = (R.TODAY - timedelta(days=3 + n * 4)).isoformat()
    pol = pick(lambda p: cov(p, "COLL") is not None and p.effective_date <= dol and recent_vehicle(p, dol) is not None, "auto")
    h = holder_of(pol)
    veh = recent_vehicle(pol, dol)
    est = float(rng.randint(18, 110) * 50)
    who, a, line = auth(pol, n)
    args = {"policy_number": pol.policy_number, "loss_type": loss, "date_of_loss": dol, "estimated_amount": est, "vehicle_id": veh.vehicle_id}
    extra, say = "", ""
    if loss == "theft":
        report = f"PD-26-{rng.randint(10000, 99999)}"
        args["police_report_number"] = report
        story = f"Your {vehicle_label(veh)} was broken into overnight on {spoken(dol)}: a window was smashed and the factory stereo and speakers were ripped out; the shop quotes about ${est:,.0f}. You filed police report {report}."
        say = f"Police report number is {report}."
        short = "someone smashed a window and stole the stereo and speakers"
    else:
        story = f"On {spoken(dol)} you backed your {vehicle_label(veh)} into a concrete pillar in a parking garage. The body shop estimated ${est:,.0f}. Nobody else was involved and no one was hurt."
        short = "I backed into a concrete pillar in a parking garage"
    gold = [a, {"name": "get_policy", "arguments": {"policy_number": pol.policy_number}},
            {"name": "list_vehicles", "arguments": {"policy_number": pol.policy_number}},
            {"name": "file_claim", "arguments": args}]
    add(
        f"file_claim_auto_{loss}_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[(n + 4) % 6]} {story} Nobody was injured. You want to report the claim; "
        "at the end you want the claim number, your deductible and roughly what Harborline will pay.",
        [f"Hi, I need to file a claim. {line}", f"It's my {vehicle_label(veh)}, on {spoken(dol)}: {short}. About ${est:,.0f}. {say}".strip(), "No injuries. Yes, please file it."],
        gold, [lambda r: r[3]["claim_id"], fig(3, "deductible"), fig(3, "estimated_payout")], split=split,
    )


def file_claim_home(n: int):
    dol = (R.TODAY - timedelta(days=11 + n)).isoformat()
    pol = pick(lambda p: p.effective_date <= dol, "home")
    h = holder_of(pol)
    est = float(rng.randint(60, 300) * 50)
    who, a, line = auth(pol, n)
    gold = [a, {"name": "get_policy", "arguments": {"policy_number": pol.policy_number}},
            {"name": "file_claim", "arguments": {"policy_number": pol.policy_number, "loss_type": "water_damage", "date_of_loss": dol, "estimated_amount": est}}]
    add(
        f"file_claim_home_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[n % 6]} On {spoken(dol)} the supply line under your kitchen sink burst while you were at work "
        f"and soaked the kitchen floor and cabinets (sudden water damage, not a flood or sewer backup). A restoration company estimated ${est:,.0f}. "
        "No one was hurt. You want to file a claim and learn the claim number, your deductible and the estimated payout.",
        [f"Hi, a pipe burst in my kitchen and I need to file a claim. {line}", f"It happened on {spoken(dol)}; the supply line under the sink burst. Estimate is ${est:,.0f}. Nobody was hurt.", "Yes, file it please."],
        gold, [lambda r: r[2]["claim_id"], fig(2, "deductible"), fig(2, "estimated_payout")],
    )


def cancel_single(n: int, reason: str, when: str, split="test"):
    line_ = "home" if reason == "sold_property" else "auto"
    pol = pick(lambda p: not open_claims(p.policy_number) and p.expiration_date > "2026-06-20"
               and (reason != "sold_vehicle" or len(active_vehicles(p)) == 1), line_)
    h = holder_of(pol)
    who, a, line = auth(pol, n)
    why = {
        "sold_vehicle": "You sold your only car last week and won't replace it.",
        "switched_carrier": "You found cheaper coverage with another insurer, which starts on that date.",
        "cost": "You can't afford the premium anymore.",
        "sold_property": "You closed on the sale of your house and the new owners have their own insurance.",
    }[reason]
    gold = [a, {"name": "get_policy", "arguments": {"policy_number": pol.policy_number}},
            {"name": "list_claims", "arguments": {"policy_number": pol.policy_number}},
            {"name": "quote_cancellation", "arguments": {"policy_number": pol.policy_number, "cancellation_date": when, "reason": reason}},
            {"name": "cancel_policy", "arguments": {"policy_number": pol.policy_number, "cancellation_date": when, "reason": reason}}]
    day = "today" if when == R.TODAY_ISO else spoken(when)
    results = run(gold)
    quote = results[3]
    owed = quote["amount_due"] > 0
    add(
        f"cancel_{reason}_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[(n + 5) % 6]} You want to cancel your {line_} policy effective {day}. {why} "
        f"Give that reason if asked. Before you agree you want to know {'whether there is a fee and how much you will get back' if not owed else 'the fee and what you will get back'}; "
        "then confirm the cancellation.",
        [f"I need to cancel my {line_} insurance. {line}", f"Effective {day}. {why.replace('You ', 'I ').replace('your ', 'my ')}", "Understood. Yes, cancel it."],
        gold, [money(quote["amount_due"] if owed else quote["refund_amount"])] + ([money(quote["short_rate_fee"])] if quote["short_rate_fee"] else []),
        split=split,
    )


# ---------------------------------------------------------------------------------------- multi-write


def teen_car_deductible(n: int, split="test"):
    pol = pick(lambda p: not has_sporty(p) and len(active_drivers(p)) <= 3 and len(active_vehicles(p)) <= 2
               and cov(p, "COLL") is not None and cov(p, "COLL").deductible in (250, 500) and R.age_on(holder_of(p).date_of_birth) > 42, "auto")
    h = holder_of(pol)
    state = h.address.state
    first = KID_NAMES[(n * 5) % len(KID_NAMES)]
    dob = (R.TODAY - timedelta(days=rng.randint(16 * 365 + 40, 18 * 365 - 30))).isoformat()
    lic = new_license(state)
    make, model = USED_CARS[(n * 7 + 2) % len(USED_CARS)]
    year = rng.randint(2014, 2019)
    vin = new_vin(WMI[(make, model)], year)
    who, a, line = auth(pol, n + 1)
    pn = pol.policy_number
    gold = [a, {"name": "get_policy", "arguments": {"policy_number": pn}},
            {"name": "add_driver", "arguments": {"policy_number": pn, "first_name": first, "last_name": h.last_name, "date_of_birth": dob,
                                                 "license_number": lic, "license_state": state, "relationship": "child"}},
            {"name": "add_vehicle", "arguments": {"policy_number": pn, "vin": vin, "year": year, "make": make, "model": model}},
            {"name": "change_deductible", "arguments": {"policy_number": pn, "coverage_code": "COLL", "new_deductible": 1000}}]
    res = run(gold)
    figures = [res[2]["prorated_change"], res[3]["prorated_change"], res[4]["prorated_change"]]
    gold.append({"name": "calculate", "arguments": {"expression": calc_expr(figures)}})
    add(
        f"teen_driver_car_deductible_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[n % 6]} Your child {first} {h.last_name} (born {spoken(dob)}) just passed the driving test: "
        f"{state} license {lic}. You bought {first} a used {year} {make} {model}, VIN {vin}. In this order you want to: (1) add {first} as a driver, "
        "(2) add the car, and (3) raise your collision deductible to $1,000 to soften the blow. Share details only when asked. "
        "You want to hear what each change costs or saves for the rest of the term and, at the end, the total net amount for all three together.",
        [f"Hi, my kid just got their license and I need to update my auto policy. {line}",
         f"{first} {h.last_name}, born {spoken(dob)}, {state} license {lic}. Then add the {year} {make} {model}, VIN {vin}, and raise my collision deductible to $1,000.",
         "Yes, please do all three. What's the total?"],
        gold, [fig(2, "prorated_change"), fig(3, "prorated_change"), lambda r: r[-1].lstrip("-")], split=split,
    )


def replace_vehicle(n: int):
    def ok(p):
        vs = [v for v in active_vehicles(p) if unique_vehicle(p, v) and not any(c.vehicle_id == v.vehicle_id for c in open_claims(p.policy_number))]
        return len(active_vehicles(p)) < 4 and bool(vs) and not has_young(p)
    pol = pick(ok, "auto")
    h = holder_of(pol)
    old = next(v for v in active_vehicles(pol) if unique_vehicle(pol, v) and not any(c.vehicle_id == v.vehicle_id for c in open_claims(pol.policy_number)))
    make, model = EVERYDAY[(n * 5 + 1) % len(EVERYDAY)]
    if (make, model) == (old.make, old.model):
        make, model = EVERYDAY[(n * 5 + 2) % len(EVERYDAY)]
    year = rng.randint(2022, 2026)
    vin = new_vin(WMI[(make, model)], year)
    email = f"{h.first_name.lower()}.{h.last_name.lower()}{rng.randint(10, 99)}@{rng.choice(['fastmail.com', 'gmail.com', 'hey.com'])}"
    who, a, line = auth(pol, n)
    pn = pol.policy_number
    gold = [a, {"name": "list_vehicles", "arguments": {"policy_number": pn}},
            {"name": "add_vehicle", "arguments": {"policy_number": pn, "vin": vin, "year": year, "make": make, "model": model}},
            {"name": "remove_vehicle", "arguments": {"policy_number": pn, "vehicle_id": old.vehicle_id}},
            {"name": "update_contact_info", "arguments": {"policyholder_id": h.policyholder_id, "email": email}}]
    res = run(gold)
    gold.insert(5, {"name": "calculate", "arguments": {"expression": calc_expr([res[2]["prorated_change"], res[3]["prorated_change"]])}})
    add(
        f"replace_vehicle_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[(n + 2) % 6]} You traded in your {vehicle_label(old)} today for a new {year} {make} {model} "
        f"(VIN {vin}). You want the new car added and the old one taken off — add the new one first so you are never without coverage. "
        f"You also want your email on file changed to {email}. You want to know the net premium change for the rest of the term from the swap.",
        [f"Hi, I traded in my {old.make} {old.model} for a new car. {line}", f"The new one is a {year} {make} {model}, VIN {vin}. Please add it first, then take the {old.make} off.",
         f"Also please change my email to {email}.", "Yes, go ahead with all of that."],
        gold, [lambda r: r[5].lstrip("-")],
    )


def claim_phone_deductible(n: int):
    dol = (R.TODAY - timedelta(days=6 + n * 5)).isoformat()
    pol = pick(lambda p: cov(p, "COMP") is not None and cov(p, "COMP").deductible in (100, 250) and p.effective_date <= dol and recent_vehicle(p, dol) is not None, "auto")
    h = holder_of(pol)
    veh = recent_vehicle(pol, dol)
    est = float(rng.randint(8, 28) * 50)
    phone = f"{h.phone[:3]}-{rng.randint(200, 989)}-{rng.randint(0, 9999):04d}"
    loss = ["glass", "hail", "animal_strike"][n % 3]
    story = {"glass": f"a rock cracked the windshield of your {vehicle_label(veh)} on the interstate",
             "hail": f"a hailstorm dented the hood and roof of your {vehicle_label(veh)}",
             "animal_strike": f"you hit a deer on a county road at dusk in your {vehicle_label(veh)}"}[loss]
    new = 500
    who, a, line = auth(pol, n)
    pn = pol.policy_number
    gold = [a, {"name": "get_policy", "arguments": {"policy_number": pn}},
            {"name": "list_vehicles", "arguments": {"policy_number": pn}},
            {"name": "file_claim", "arguments": {"policy_number": pn, "loss_type": loss, "date_of_loss": dol, "estimated_amount": est, "vehicle_id": veh.vehicle_id}},
            {"name": "update_contact_info", "arguments": {"policyholder_id": h.policyholder_id, "phone": phone}},
            {"name": "change_deductible", "arguments": {"policy_number": pn, "coverage_code": "COMP", "new_deductible": new}}]
    add(
        f"claim_phone_deductible_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[(n + 1) % 6]} On {spoken(dol)} {story}; the repair estimate is ${est:,.0f}. "
        f"Nobody was hurt. First you want to report that claim and hear the claim number and the estimated payout. Then you want your phone number changed to {phone} "
        "so the adjuster can reach you. Finally, now that the claim is in, you want to raise your comprehensive deductible to $500 going forward, and hear what that saves this term.",
        [f"Hi, I need to report some damage to my car. {line}", f"On {spoken(dol)} {story.replace('you ', 'I ').replace('your ', 'my ')}. Estimate ${est:,.0f}. Nobody hurt.",
         f"Also update my phone to {phone}, and raise my comprehensive deductible to $500.", "Yes to all of it."],
        gold, [lambda r: r[3]["claim_id"], fig(3, "estimated_payout"), fig(5, "prorated_change")],
    )


def withdraw_and_cancel(n: int):
    def ok(p):
        oc = open_claims(p.policy_number)
        return len(oc) == 1 and oc[0].status == "open" and oc[0].paid_amount == 0 and p.expiration_date > "2026-06-01"
    pol = pick(ok, "auto")
    h = holder_of(pol)
    claim = open_claims(pol.policy_number)[0]
    email = f"{h.first_name[0].lower()}{h.last_name.lower()}{rng.randint(100, 999)}@{rng.choice(['outlook.com', 'icloud.com'])}"
    reason = ["sold_vehicle", "switched_carrier"][n % 2]
    why = {"sold_vehicle": "you sold the vehicles on the policy and will share a partner's car, which is insured elsewhere",
           "switched_carrier": "you switched to another insurer whose policy starts today"}[reason]
    who, a, line = auth(pol, n + 1)
    pn = pol.policy_number
    gold = [a, {"name": "list_claims", "arguments": {"policy_number": pn}},
            {"name": "withdraw_claim", "arguments": {"claim_id": claim.claim_id}},
            {"name": "update_contact_info", "arguments": {"policyholder_id": h.policyholder_id, "email": email}},
            {"name": "quote_cancellation", "arguments": {"policy_number": pn, "cancellation_date": R.TODAY_ISO, "reason": reason}},
            {"name": "cancel_policy", "arguments": {"policy_number": pn, "cancellation_date": R.TODAY_ISO, "reason": reason}}]
    res = run(gold)
    owed = res[4]["amount_due"] > 0
    add(
        f"withdraw_claim_then_cancel_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[(n + 3) % 6]} You have an open claim for the {claim.loss_type.replace('_', ' ')} on {spoken(claim.date_of_loss)} "
        f"that you decided to pay for yourself, so you want to withdraw it. Then you want to change your email to {email} so the final paperwork reaches you, "
        f"and finally cancel your auto policy effective today because {why}. You want to know what you get back (or owe) before confirming the cancellation.",
        [f"Hi, a few things on my auto policy. {line}", f"First, I want to withdraw my open claim for the {claim.loss_type.replace('_', ' ')}; I'll cover it myself.",
         f"Then change my email to {email}, and cancel the policy as of today — {why.replace('you ', 'I ').replace('your ', 'my ')}.", "Yes, please go ahead."],
        gold, [money(res[4]["amount_due"] if owed else res[4]["refund_amount"])],
    )


def child_moves_out(n: int):
    def ok(p):
        kids = [d for d in active_drivers(p) if d.relationship == "child"]
        vs = [v for v in active_vehicles(p) if unique_vehicle(p, v) and not any(c.vehicle_id == v.vehicle_id for c in open_claims(p.policy_number))]
        c = cov(p, "COMP")
        return len(kids) == 1 and len(active_vehicles(p)) >= 2 and vs and c is not None and c.deductible in (500, 1000) and not open_claims(p.policy_number)
    pol = pick(ok, "auto")
    h = holder_of(pol)
    kid = next(d for d in active_drivers(pol) if d.relationship == "child")
    veh = [v for v in active_vehicles(pol) if unique_vehicle(pol, v)][-1]
    new = 250
    who, a, line = auth(pol, n)
    pn = pol.policy_number
    gold = [a, {"name": "list_drivers", "arguments": {"policy_number": pn}}, {"name": "list_vehicles", "arguments": {"policy_number": pn}},
            {"name": "list_claims", "arguments": {"policy_number": pn}},
            {"name": "remove_driver", "arguments": {"policy_number": pn, "driver_id": kid.driver_id}},
            {"name": "remove_vehicle", "arguments": {"policy_number": pn, "vehicle_id": veh.vehicle_id}},
            {"name": "change_deductible", "arguments": {"policy_number": pn, "coverage_code": "COMP", "new_deductible": new}}]
    res = run(gold)
    gold.append({"name": "calculate", "arguments": {"expression": calc_expr([res[4]["prorated_change"], res[5]["prorated_change"], res[6]["prorated_change"]])}})
    add(
        f"child_moves_out_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[(n + 4) % 6]} Your child {kid.first_name} moved across the country for a job and took the {vehicle_label(veh)} "
        f"(it is being registered and insured there). In this order you want to: remove {kid.first_name} as a driver, remove the {veh.make} {veh.model}, and then "
        "lower your comprehensive deductible to $250 with part of the savings. You want the net total of the three changes for the rest of the term.",
        [f"Hi, my kid {kid.first_name} moved out and took a car with them. {line}",
         f"Please take {kid.first_name} off as a driver and remove the {veh.year} {veh.make} {veh.model}. Then lower my comprehensive deductible to $250.",
         "Yes, do all three. What's the net?"],
        gold, [lambda r: r[-1].lstrip("-")],
    )


def spouse_and_home(n: int):
    def ok(p):
        h = holder_of(p)
        homes = [DB.policies[x] for x in h.policy_numbers if DB.policies[x].line == "home" and DB.policies[x].status == "active"]
        return (len(active_drivers(p)) == 1 and homes and cov(homes[0], "DWELL").deductible in (500, 1000, 2500)
                and R.age_on(h.date_of_birth) > 30)
    pol = pick(ok, "auto")
    h = holder_of(pol)
    home = next(DB.policies[x] for x in h.policy_numbers if DB.policies[x].line == "home" and DB.policies[x].status == "active")
    new = {500: 1000, 1000: 2500, 2500: 5000}[cov(home, "DWELL").deductible]
    first = ["Alicia", "Marcus", "Ingrid", "Tobias", "Lena", "Rafael"][n % 6]
    dob = (date.fromisoformat(h.date_of_birth) + timedelta(days=rng.randint(-1200, 1200))).isoformat()
    state = h.address.state
    lic = new_license(state)
    phone = f"{h.phone[:3]}-{rng.randint(200, 989)}-{rng.randint(0, 9999):04d}"
    who, a, line = auth(pol, n)
    gold = [a, {"name": "get_policyholder", "arguments": {"policyholder_id": h.policyholder_id}},
            {"name": "add_driver", "arguments": {"policy_number": pol.policy_number, "first_name": first, "last_name": h.last_name, "date_of_birth": dob,
                                                 "license_number": lic, "license_state": state, "relationship": "spouse"}},
            {"name": "get_policy", "arguments": {"policy_number": home.policy_number}},
            {"name": "change_deductible", "arguments": {"policy_number": home.policy_number, "coverage_code": "DWELL", "new_deductible": new}},
            {"name": "update_contact_info", "arguments": {"policyholder_id": h.policyholder_id, "phone": phone}}]
    add(
        f"spouse_home_deductible_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[(n + 5) % 6]} You just got married. Your spouse {first} {h.last_name} (born {spoken(dob)}, {state} license {lic}) "
        f"should be added to your auto policy. To balance the budget you want the deductible on your homeowners policy raised to ${new:,}. "
        f"Also your household now uses {first}'s number as the main line: change your phone to {phone}. You want to hear the figure for the driver and for the deductible change.",
        [f"Hi! I just got married and have some updates. {line}", f"Add my spouse {first} {h.last_name}, born {spoken(dob)}, {state} license {lic}, to my car insurance.",
         f"Then raise the deductible on my home policy to ${new:,}, and change my phone number to {phone}.", "Yes, please make those changes."],
        gold, [fig(2, "prorated_change"), fig(4, "prorated_change")],
    )


# ---------------------------------------------------------------------------------------- policy refusals

TRANSFER = {"name": "transfer_to_human_agents"}


def cancel_with_open_claim(n: int, split="test"):
    pol = pick(lambda p: bool(open_claims(p.policy_number)))
    h = holder_of(pol)
    claim = open_claims(pol.policy_number)[0]
    who, a, line = auth(pol, n)
    pn = pol.policy_number
    add(
        f"cancel_blocked_open_claim_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[n % 6]} You want to cancel your {pol.line} policy effective today because you found a cheaper carrier. "
        f"You have a claim still in progress (the {claim.loss_type.replace('_', ' ')} from {spoken(claim.date_of_loss)}) but you assume that doesn't matter. "
        "If the agent says it can't be done at this desk, insist once, then accept being transferred to someone who can help.",
        [f"I want to cancel my {pol.line} policy today. {line}", "I switched to a cheaper company.", "Can't you just do it? ... Fine, transfer me."],
        [a, {"name": "list_claims", "arguments": {"policy_number": pn}}, {"name": "transfer_to_human_agents", "arguments": {"summary": f"Policyholder wants to cancel {pn} effective today (switched carrier); policy has open claim {claim.claim_id}."}}],
        required=[TRANSFER], forbidden=[{"name": "cancel_policy"}], split=split,
    )


def lower_deductible_open_claim(n: int):
    def ok(p):
        c = cov(p, "COLL") if p.line == "auto" else cov(p, "DWELL")
        return c is not None and c.deductible in (1000, 2000, 2500, 5000) and len(open_claims(p.policy_number)) == 1
    pol = pick(ok, ["auto", "home"][n % 2])
    h = holder_of(pol)
    claim = open_claims(pol.policy_number)[0]
    code = "COLL" if pol.line == "auto" else "DWELL"
    new = 500 if code == "COLL" else 1000
    what = "collision deductible" if code == "COLL" else "home deductible"
    who, a, line = auth(pol, n + 1)
    pn = pol.policy_number
    add(
        f"lower_deductible_blocked_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[(n + 2) % 6]} You want to lower your {what} to ${new:,} starting today. "
        f"You have an open claim (the {claim.loss_type.replace('_', ' ')} on {spoken(claim.date_of_loss)}) and you are secretly hoping the lower deductible will help with it. "
        "If refused, ask which claim is the problem, then accept the answer and end the call. You do not want any other change.",
        [f"I'd like to lower my {what} to ${new:,}. {line}", "Why not? Which claim are you talking about?", "OK, I understand."],
        [a, {"name": "get_policy", "arguments": {"policy_number": pn}}, {"name": "list_claims", "arguments": {"policy_number": pn}}],
        [claim.claim_id], forbidden=[{"name": "change_deductible", "arguments": {"policy_number": pn}}],
    )


def sporty_with_young_driver(n: int):
    pol = pick(lambda p: has_young(p) and not has_sporty(p) and len(active_vehicles(p)) < 4, "auto")
    h = holder_of(pol)
    young = next(d for d in active_drivers(pol) if R.age_on(d.date_of_birth) < 25)
    make, model = SPORTY[n % len(SPORTY)]
    year = rng.randint(2018, 2025)
    vin = new_vin(WMI[(make, model)], year)
    who, a, line = auth(pol, n)
    pn = pol.policy_number
    add(
        f"sports_car_young_driver_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[(n + 1) % 6]} You bought a {year} {make} {model} (VIN {vin}) and want it added to your auto policy today. "
        f"{young.first_name} ({R.age_on(young.date_of_birth)}) is a listed driver on the policy and will not be removed. If the agent cannot add the car, "
        "accept a transfer to someone who can review it.",
        [f"I want to add a car to my policy. {line}", f"It's a {year} {make} {model}, VIN {vin}.", "Keep everyone on the policy. If you can't do it, please transfer me."],
        [a, {"name": "list_drivers", "arguments": {"policy_number": pn}}, {"name": "lookup_vehicle_model", "arguments": {"make": make, "model": model}},
         {"name": "transfer_to_human_agents", "arguments": {"summary": f"Add {year} {make} {model} to {pn}; policy lists a driver under 25: underwriting review."}}],
        required=[TRANSFER], forbidden=[{"name": "add_vehicle"}],
    )


def young_driver_sporty_car(n: int):
    pol = pick(lambda p: has_sporty(p) and not has_young(p) and len(active_drivers(p)) < 4 and R.age_on(holder_of(p).date_of_birth) > 40, "auto")
    h = holder_of(pol)
    sporty = next(v for v in active_vehicles(pol) if v.vehicle_class in ("sports", "luxury"))
    first = KID_NAMES[(n + 7) % len(KID_NAMES)]
    dob = (R.TODAY - timedelta(days=rng.randint(18 * 365 + 30, 21 * 365))).isoformat()
    lic = new_license(h.address.state)
    who, a, line = auth(pol, n + 1)
    pn = pol.policy_number
    add(
        f"young_driver_with_sports_car_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[(n + 3) % 6]} Your {first} {h.last_name} (born {spoken(dob)}, {h.address.state} license {lic}) moved back home "
        f"and you want them added as a driver on your auto policy, which includes your {vehicle_label(sporty)}. You will not remove that car. "
        "If the agent can't do it, accept a transfer.",
        [f"Hi, I need to add my {first} to my auto policy. {line}", f"{first} {h.last_name}, born {spoken(dob)}, license {lic}. We're keeping all the cars.", "OK, transfer me then."],
        [a, {"name": "list_vehicles", "arguments": {"policy_number": pn}},
         {"name": "transfer_to_human_agents", "arguments": {"summary": f"Add driver under 25 to {pn}, which has a {sporty.vehicle_class} vehicle: underwriting review."}}],
        required=[TRANSFER], forbidden=[{"name": "add_driver"}],
    )


def claim_needs_specialist(n: int, kind: str):
    line_ = "home" if kind == "large_home" else "auto"
    if kind == "late":
        dol = (R.TODAY - timedelta(days=41 + n)).isoformat()
    else:
        dol = (R.TODAY - timedelta(days=2 + n)).isoformat()
    if line_ == "auto":
        pol = pick(lambda p: cov(p, "COLL") is not None and p.effective_date <= dol and recent_vehicle(p, dol) is not None, "auto")
        veh = recent_vehicle(pol, dol)
    else:
        pol = pick(lambda p: p.effective_date <= dol, "home")
        veh = None
    h = holder_of(pol)
    who, a, line = auth(pol, n)
    pn = pol.policy_number
    if kind == "large_auto":
        story = f"On {spoken(dol)} your {vehicle_label(veh)} slid on black ice into a guardrail; the body shop says the repairs will run about $18,400. No one was hurt."
    elif kind == "large_home":
        story = f"On {spoken(dol)} a windstorm tore off a large part of your roof and rain ruined the upstairs; the contractor estimates $41,000. No one was hurt."
    elif kind == "late":
        story = f"On {spoken(dol)} someone sideswiped your parked {vehicle_label(veh)} while you were at work and drove off; you kept meaning to call. The estimate is $2,300. No one was hurt."
    else:
        story = f"On {spoken(dol)} you rear-ended another car at a light in your {vehicle_label(veh)}; damage to your car is about $4,200, and the other driver went to urgent care with neck pain."
    gold = [a, {"name": "get_policy", "arguments": {"policy_number": pn}},
            {"name": "transfer_to_human_agents", "arguments": {"summary": f"New {line_} loss on {pn} dated {dol} ({kind}); needs a claims specialist."}}]
    add(
        f"claim_to_specialist_{kind}_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[(n + 2) % 6]} {story} You want to file a claim today. Answer the agent's questions truthfully. "
        "If told the desk can't file it, accept a transfer to a claims specialist.",
        [f"I need to report a claim. {line}", story.replace("your ", "my ").replace("you ", "I ").replace("You ", "I "), "Alright, please transfer me."],
        gold, required=[TRANSFER], forbidden=[{"name": "file_claim"}],
    )


def remove_vehicle_open_claim(n: int):
    def ok(p):
        oc = [c for c in open_claims(p.policy_number) if c.vehicle_id]
        return len(active_vehicles(p)) >= 2 and len(oc) == 1 and unique_vehicle(p, DB.vehicles[oc[0].vehicle_id])
    pol = pick(ok, "auto")
    h = holder_of(pol)
    claim = next(c for c in open_claims(pol.policy_number) if c.vehicle_id)
    veh = DB.vehicles[claim.vehicle_id]
    email = f"{h.first_name.lower()}{h.last_name[0].lower()}.{rng.randint(1970, 2005)}@gmail.com"
    who, a, line = auth(pol, n)
    pn = pol.policy_number
    add(
        f"remove_vehicle_blocked_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[(n + 4) % 6]} You want to take your {vehicle_label(veh)} off your auto policy today because it sits in a "
        f"body shop waiting on the claim from {spoken(claim.date_of_loss)} and you don't want to pay for it meanwhile. You also want your email changed to {email}. "
        "If the car can't come off, ask for the claim number involved; accept and keep the email change.",
        [f"Hi, two things. {line}", f"Remove my {veh.make} {veh.model} from the policy, it's in the shop. And change my email to {email}.", "Which claim is it? OK. Yes, do the email."],
        [a, {"name": "list_vehicles", "arguments": {"policy_number": pn}}, {"name": "list_claims", "arguments": {"policy_number": pn}},
         {"name": "update_contact_info", "arguments": {"policyholder_id": h.policyholder_id, "email": email}}],
        [claim.claim_id], forbidden=[{"name": "remove_vehicle"}],
    )


def backdated_cancel(n: int):
    pol = pick(lambda p: not open_claims(p.policy_number) and p.effective_date < "2026-04-01" and len(active_vehicles(p)) == 1, "auto")
    h = holder_of(pol)
    back = "2026-05-01"
    who, a, line = auth(pol, n)
    pn = pol.policy_number
    gold = [a, {"name": "list_claims", "arguments": {"policy_number": pn}},
            {"name": "quote_cancellation", "arguments": {"policy_number": pn, "cancellation_date": R.TODAY_ISO, "reason": "sold_vehicle"}},
            {"name": "cancel_policy", "arguments": {"policy_number": pn, "cancellation_date": R.TODAY_ISO, "reason": "sold_vehicle"}}]
    res = run(gold)
    add(
        f"backdated_cancel_{n}",
        f"You are {h.first_name} {h.last_name}. {who} {MOODS[(n + 5) % 6]} You sold your car on {spoken(back)} and forgot to call. You want your auto policy cancelled "
        f"back to {spoken(back)} and the premium refunded from then. If told it can't be backdated, grumble, then accept cancelling effective today, "
        "as long as you hear the refund amount first.",
        [f"I need to cancel my auto policy, back to {spoken(back)}. {line}", "I sold the car that day.", "Fine, today then. How much do I get back? ... OK, cancel it."],
        gold, [money(res[2]["refund_amount"] if res[2]["refund_amount"] else res[2]["amount_due"])],
        forbidden=[{"name": "cancel_policy", "arguments": {"policy_number": pn, "cancellation_date": back}}],
    )


def main() -> None:
    for n in (1, 2):
        coverage_lookup_auto(n)
    coverage_lookup_home(1)
    for n in (1, 2, 3):
        claim_status(n)
    add_driver_single(1, "child")
    add_driver_single(2, "spouse")
    add_driver_single(3, "child")
    add_vehicle_single(1)
    add_vehicle_single(2)
    raise_deductible(1, "auto")
    raise_deductible(2, "home")
    file_claim_auto(1, "collision")
    file_claim_auto(2, "theft")
    file_claim_home(1)
    cancel_single(1, "sold_vehicle", R.TODAY_ISO)
    cancel_single(2, "switched_carrier", "2026-06-01")
    cancel_single(3, "sold_property", "2026-05-31")
    for n in (1, 2, 3):
        teen_car_deductible(n)
        replace_vehicle(n)
    for n in (1, 2):
        claim_phone_deductible(n)
        withdraw_and_cancel(n)
        child_moves_out(n)
        spouse_and_home(n)
    for n in (1, 2):
        cancel_with_open_claim(n)
        lower_deductible_open_claim(n)
        sporty_with_young_driver(n)
    young_driver_sporty_car(1)
    claim_needs_specialist(1, "large_auto")
    claim_needs_specialist(2, "large_home")
    claim_needs_specialist(3, "late")
    claim_needs_specialist(4, "injury")
    remove_vehicle_open_claim(1)
    backdated_cancel(1)
    # train split: worked examples of each kind
    coverage_lookup_auto(3, split="train")
    claim_status(4, split="train")
    add_driver_single(4, "child", split="train")
    file_claim_auto(3, "collision", split="train")
    cancel_single(4, "cost", "2026-05-20", split="train")
    cancel_with_open_claim(3, split="train")
    teen_car_deductible(4, split="train")
    OUT.write_bytes(orjson.dumps({"tasks": TASKS}, option=orjson.OPT_INDENT_2))
    print(f"wrote {len(TASKS)} tasks to {OUT}")


if __name__ == "__main__":
    main()
