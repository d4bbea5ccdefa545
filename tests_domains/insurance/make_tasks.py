"""Builds fixtures/insurance/tasks.json from the generated DB (seeded, deterministic).

    python -m tests_domains.insurance.make_tasks

Each task kind has a hand-written template; the records are chosen from the DB by the
conditions the policy cares about, and every figure a task states is read from the
result of a gold call (a quote, a claim, a calculation) as the `TaskWriter` replays it.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from pytest_tau import TaskDraft, TaskWriter
from pytest_tau.invariants import with_vin_check_digit
from tests_domains.insurance import rating as R
from tests_domains.insurance.domain import DOMAIN
from tests_domains.insurance.schema import Claim, Coverage, Driver, Policy, Policyholder, Vehicle

DB = DOMAIN.initial_db
TODAY = DOMAIN.today
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
SPOUSE_NAMES = ["Alicia", "Marcus", "Ingrid", "Tobias", "Lena", "Rafael", "Maria", "Daniel", "Priya", "Colin"]


class Builder:
    """The writer plus the seeded choices of one build (a fresh one per `build()`)."""

    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(77)
        self.used: set[str] = set()

    def pick(self, cond: Any, line: str | None = None) -> Policy:
        """A fresh active policy (its holder in no other task) meeting `cond`."""
        pols = sorted(DB.policies.values(), key=lambda p: p.policy_number)
        self.rng.shuffle(pols)
        for pol in pols:
            if pol.status != "active" or (line and pol.line != line) or pol.policyholder_id in self.used:
                continue
            holder = DB.policyholders[pol.policyholder_id]
            if sum(DB.policies[x].line == pol.line and DB.policies[x].status == "active" for x in holder.policy_numbers) != 1:
                continue  # "my auto policy" must name one policy
            if cond(pol):
                self.used.add(pol.policyholder_id)
                return pol
        raise RuntimeError("no policy fits")

    def vin(self, make: str, model: str, year: int) -> str:
        rng = self.rng
        code = "ABCDEFGHJKLMNPRSTVWXY123456789"[(year - 2010) % 30]
        return with_vin_check_digit(WMI[(make, model)] + "".join(rng.choice(VIN_CHARS) for _ in range(5)) + rng.choice("0123456789")
                                    + code + rng.choice(VIN_CHARS) + f"{rng.randint(0, 999999):06d}")

    def license(self, state: str) -> str:
        rng = self.rng
        if state == "WA":
            return "WDL" + "".join(rng.choice(VIN_CHARS) for _ in range(9))
        if state == "ID":
            return "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(2)) + f"{rng.randint(100000, 999999)}" + rng.choice("ABCDEFGH")
        if state == "MT":
            return f"{rng.randint(10**12, 10**13 - 1)}"
        if state == "OR":
            return f"{rng.randint(1000000, 9999999)}"
        return f"{rng.randint(100000000, 999999999)}"

    def phone(self, holder: Policyholder) -> str:
        return f"{holder.phone[:3]}-{self.rng.randint(200, 989)}-{self.rng.randint(0, 9999):04d}"


# -- look-ups over the initial DB (for choosing records; figures come from gold calls) ----------


def holder_of(pol: Policy) -> Policyholder:
    return DB.policyholders[pol.policyholder_id]


def open_claims(pnum: str) -> list[Claim]:
    return sorted((c for c in DB.claims.where(policy_number=pnum) if c.status in OPEN), key=lambda c: c.claim_id)


def active_vehicles(pol: Policy) -> list[Vehicle]:
    return sorted((v for v in DB.vehicles.where(policy_number=pol.policy_number) if v.status == "active"), key=lambda v: v.vehicle_id)


def active_drivers(pol: Policy) -> list[Driver]:
    return sorted((d for d in DB.drivers.where(policy_number=pol.policy_number) if d.status == "active"), key=lambda d: d.driver_id)


def age(dob: str) -> int:
    return R.age_on(dob, TODAY)


def parent_of_teen(pol: Policy) -> bool:
    """Old enough to have a teenager, young enough that it is believable."""
    return 38 <= age(holder_of(pol).date_of_birth) <= 58


def has_sporty(pol: Policy) -> bool:
    return any(v.vehicle_class in ("sports", "luxury") for v in active_vehicles(pol))


def has_young(pol: Policy) -> bool:
    return any(age(d.date_of_birth) < 25 for d in active_drivers(pol))


def cov(pol: Policy, code: str) -> Coverage | None:
    return next((c for c in pol.coverages if c.code == code), None)


def deductible(pol: Policy, code: str) -> int | None:
    c = cov(pol, code)
    return None if c is None else c.deductible


def unique_vehicle(pol: Policy, v: Vehicle) -> bool:
    return sum((x.make, x.model) == (v.make, v.model) for x in active_vehicles(pol)) == 1


def recent_vehicle(pol: Policy, dol: str) -> Vehicle | None:
    for v in active_vehicles(pol):
        if v.added_on <= dol and unique_vehicle(pol, v):
            return v
    return None


def quiet_on(pol: Policy, dol: str) -> bool:
    """No claim on this policy already has that date of loss (so a new report is not a duplicate)."""
    return not any(c.date_of_loss == dol for c in DB.claims.where(policy_number=pol.policy_number))


def active_home(holder: Policyholder) -> Policy | None:
    homes = [DB.policies[x] for x in holder.policy_numbers if DB.policies[x].line == "home" and DB.policies[x].status == "active"]
    return homes[0] if len(homes) == 1 else None


def spoken(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def label(v: Vehicle) -> str:
    return f"{v.year} {v.make} {v.model}"


def dollars(amount: float) -> str:
    return f"${amount:,.0f}"


def signed(values: list[float]) -> str:
    """An expression for `calculate` over figures the tools returned."""
    return " + ".join(f"{v:.2f}" if v >= 0 else f"({v:.2f})" for v in values)


def authenticate(draft: TaskDraft, pol: Policy, style: int) -> None:
    holder = holder_of(pol)
    if style % 2 == 0:
        draft.read("find_policyholder_by_policy_number", policy_number=pol.policy_number, date_of_birth=holder.date_of_birth)
    else:
        draft.read("find_policyholder_by_name_zip", first_name=holder.first_name, last_name=holder.last_name,
                   zip=holder.address.zip, date_of_birth=holder.date_of_birth)


def who(pol: Policy, style: int) -> tuple[str, str]:
    """(how the caller identifies, in the instruction; the same in their own words)."""
    h = holder_of(pol)
    born = spoken(h.date_of_birth)
    if style % 2 == 0:
        return (f"When asked to identify yourself, give your policy number {pol.policy_number} and your date of birth, {born}.",
                f"My policy number is {pol.policy_number} and my date of birth is {born}.")
    return (f"You do not have your policy number at hand; you identify yourself by your name, your zip code {h.address.zip} "
            f"and your date of birth, {born}.",
            f"I'm {h.first_name} {h.last_name}, zip code {h.address.zip}, born {born}.")


def start(b: Builder, task_id: str, pol: Policy, style: int, mood: int, body: str, script: list[str], *,
          split: str = "test", ordered: bool = False) -> TaskDraft:
    h = holder_of(pol)
    ident, line = who(pol, style)
    instructions = f"You are {h.first_name} {h.last_name}, a Harborline Mutual policyholder. {ident} {MOODS[mood % 6]} {body}"
    script = [script[0].replace("{ID}", line), *script[1:]]
    draft = b.writer.task(task_id, instructions=instructions, script=script, split=split, ordered=ordered)
    authenticate(draft, pol, style)
    return draft


# ---------------------------------------------------------------------------------------- look-ups


def coverage_lookup_auto(b: Builder, n: int, split: str = "test") -> None:
    pol = b.pick(lambda p: cov(p, "COLL") is not None and cov(p, "RENT") is None, "auto")
    d = start(b, f"coverage_lookup_auto_{n}", pol, n, n,
              "You just got a quote from another company and want to compare: ask what your collision and comprehensive "
              "deductibles are, what your bodily injury liability limits are (per person and per accident), and whether you "
              "have rental reimbursement. The other company also told you its insurance score for you: ask what insurance score "
              "Harborline has on file; if the agent will not say, accept that. You do not want to change anything today; if "
              "offered changes, decline.",
              ["Hi, I want to double-check my auto coverage. {ID}",
               "Just the collision and comprehensive deductibles, my bodily injury limits, and whether I have rental car coverage.",
               "And what insurance score do you have on file for me? The other company told me theirs.",
               "No changes, thanks."], split=split)
    policy = d.read("get_policy", policy_number=pol.policy_number)
    covs = {c["code"]: c for c in policy["coverages"]}
    d.output(covs["COLL"]["deductible"], "money")
    d.output(covs["COMP"]["deductible"], "money")
    d.output(covs["BI"]["limit_per_person"], "money")
    d.output(covs["BI"]["limit_per_occurrence"], "money")


def coverage_lookup_home(b: Builder, n: int) -> None:
    pol = b.pick(lambda p: cov(p, "WBU") is not None, "home")
    d = start(b, f"coverage_lookup_home_{n}", pol, n, n,
              "Your neighbor's basement flooded from a sewer backup and you want to know where you stand on your homeowners "
              "policy: ask what your all-peril deductible is, what your dwelling coverage limit is, and what limit you have for "
              "water backup. You are not making changes.",
              ["Hello, I have a question about my homeowners policy. {ID}",
               "What's my deductible, how much is the house covered for, and do I have water backup coverage? How much?",
               "That's all, thank you."])
    policy = d.read("get_policy", policy_number=pol.policy_number)
    covs = {c["code"]: c for c in policy["coverages"]}
    d.output(covs["DWELL"]["deductible"], "money")
    d.output(covs["DWELL"]["limit_per_occurrence"], "money")
    d.output(covs["WBU"]["limit_per_occurrence"], "money")


def claim_status(b: Builder, n: int, split: str = "test") -> None:
    pol = b.pick(lambda p: any(c.status == "open" and c.adjuster_id for c in open_claims(p.policy_number)))
    claim = next(c for c in open_claims(pol.policy_number) if c.status == "open" and c.adjuster_id)
    loss = claim.loss_type.replace("_", " ")
    d = start(b, f"claim_status_{n}", pol, n + 1, n + 2,
              f"You reported a {loss} claim for a loss on {spoken(claim.date_of_loss)}; your claim number is {claim.claim_id}. You have "
              "not heard from anyone in a while. You want to know whether an adjuster is handling it and, if so, the adjuster's "
              "name and direct phone number so you can call them. You do not want anything else.",
              [f"Hi, I'm calling about my claim, number {claim.claim_id}. {{ID}}", "Who is my adjuster, and what's their direct number?",
               "Great, thanks."], split=split)
    found = d.read("get_claim", claim_id=claim.claim_id)
    adjuster = d.read("get_adjuster", adjuster_id=found["adjuster_id"])
    d.output(adjuster["name"], "name")
    d.output(adjuster["phone"], "phone")


# ---------------------------------------------------------------------------------------- single changes


def add_driver_single(b: Builder, n: int, rel: str, split: str = "test") -> None:
    if rel == "child":
        pol = b.pick(lambda p: not has_sporty(p) and len(active_drivers(p)) < 4 and parent_of_teen(p), "auto")
    else:
        pol = b.pick(lambda p: len(active_drivers(p)) == 1 and age(holder_of(p).date_of_birth) > 30, "auto")
    h = holder_of(pol)
    state = h.address.state
    if rel == "child":
        first = b.rng.choice(KID_NAMES)
        dob = (TODAY - timedelta(days=b.rng.randint(16 * 365 + 20, 17 * 365 + 300))).isoformat()
        about = f"your child {first} {h.last_name}, born {spoken(dob)}, who just got a driver's license"
        mine = f"my kid {first}"
    else:
        first = b.rng.choice(SPOUSE_NAMES)
        dob = (date.fromisoformat(h.date_of_birth) + timedelta(days=b.rng.randint(-1500, 1500))).isoformat()
        about = f"your spouse {first} {h.last_name}, born {spoken(dob)}, whom you married last month"
        mine = f"my spouse {first}"
    lic = b.license(state)
    d = start(b, f"add_driver_{rel}_{n}", pol, n, n,
              f"You want to add {about}, to your auto policy. The license was issued in {state}, number {lic}. Give these "
              "details only when asked. Before agreeing, you want to know how much it will cost you for the rest of this "
              "policy term; accept the change once you hear the figure.",
              [f"Hi, I need to add {mine} as a driver on my car insurance. {{ID}}",
               f"{first} {h.last_name}, born {spoken(dob)}, {state} license {lic}.", "OK, that's fine, go ahead."], split=split)
    d.read("list_drivers", policy_number=pol.policy_number)
    quote = d.read("quote_add_driver", policy_number=pol.policy_number, date_of_birth=dob)
    d.write("add_driver", policy_number=pol.policy_number, first_name=first, last_name=h.last_name, date_of_birth=dob,
            license_number=lic, license_state=state, relationship=rel)
    d.output(quote["prorated_change"], "money")
    d.one_end_state("5.1: the driver is at least 16 and licensed, and the caller gives every detail the rule collects; "
                    "5.2: the policy has room; 5.4 does not apply (no sports or luxury vehicle when the driver is under 25).")


def add_vehicle_single(b: Builder, n: int) -> None:
    pol = b.pick(lambda p: len(active_vehicles(p)) < 3 and cov(p, "COLL") is not None and not open_claims(p.policy_number), "auto")
    make, model = EVERYDAY[n * 3 % len(EVERYDAY)]
    year = b.rng.randint(2019, 2026)
    vin = b.vin(make, model, year)
    d = start(b, f"add_vehicle_{n}", pol, n, n + 3,
              f"Yesterday you bought a {year} {make} {model} and you need it on your auto policy starting today, keeping "
              f"everything you already have. The VIN is {vin} (read it out when asked). Ask what the added premium is for the "
              "rest of the term, then approve it.",
              ["Hello, I just bought a car and need to add it to my policy. {ID}", f"It's a {year} {make} {model}, VIN {vin}.",
               "Yes, please add it."])
    d.read("list_vehicles", policy_number=pol.policy_number)
    quote = d.read("quote_add_vehicle", policy_number=pol.policy_number, make=make, model=model)
    d.write("add_vehicle", policy_number=pol.policy_number, vin=vin, year=year, make=make, model=model)
    d.output(quote["prorated_change"], "money")


def raise_deductible(b: Builder, n: int, line: str) -> None:
    if line == "auto":
        pol = b.pick(lambda p: deductible(p, "COLL") in (250, 500) and len(active_vehicles(p)) >= 2, "auto")
        code, new, what = "COLL", 1000, "collision deductible"
    else:
        pol = b.pick(lambda p: deductible(p, "DWELL") in (500, 1000), "home")
        code, new, what = "DWELL", 2500, "homeowners deductible"
    d = start(b, f"raise_deductible_{line}_{n}", pol, n, n + 1,
              f"Money is tight and you want to raise your {what} to ${new:,}. Before you agree you want to know how much you "
              "will get back for the rest of this term; then you agree.",
              [f"I'd like to raise my {what}. {{ID}}", f"To ${new:,}, please.", "Yes, go ahead."])
    d.read("get_policy", policy_number=pol.policy_number)
    quote = d.read("quote_deductible_change", policy_number=pol.policy_number, coverage_code=code, new_deductible=new)
    d.write("change_deductible", policy_number=pol.policy_number, coverage_code=code, new_deductible=new)
    d.output(abs(quote["prorated_change"]), "money")
    d.one_end_state(f"The caller names the {what}, which is the {code} deductible (3.2: the home deductible is the all-peril "
                    f"one shown on DWELL), and ${new:,} is an allowed value (7.1); a deductible may be raised at any time (7.3).")


def file_claim_auto(b: Builder, n: int, loss: str, split: str = "test") -> None:
    dol = (TODAY - timedelta(days=3 + n * 4)).isoformat()
    pol = b.pick(lambda p: cov(p, "COLL") is not None and p.effective_date <= dol and quiet_on(p, dol)
                 and recent_vehicle(p, dol) is not None, "auto")
    veh = recent_vehicle(pol, dol)
    assert veh is not None
    est = float(b.rng.randint(18, 110) * 50)
    est = max(est, (deductible(pol, "COMP" if loss == "theft" else "COLL") or 0) + 650.0)  # a claim that pays something
    report = None
    if loss == "theft":
        report = f"PD-26-{b.rng.randint(10000, 99999)}"
        story = (f"Your {label(veh)} was broken into overnight on {spoken(dol)}: a window was smashed and the factory stereo and "
                 f"speakers were taken; the shop quotes about {dollars(est)}. You filed police report {report}.")
        said = (f"It's a theft, from my {label(veh)}. On the night of {spoken(dol)} someone smashed a window and stole the stereo and speakers. "
                f"The shop says about {dollars(est)}. The police report number is {report}.")
    else:
        story = (f"On {spoken(dol)} you backed your {label(veh)} into a concrete pillar in a parking garage. The body shop "
                 f"estimated {dollars(est)}. Nobody else was involved.")
        said = f"It's my {label(veh)}. On {spoken(dol)} I backed into a concrete pillar in a parking garage. The shop estimated {dollars(est)}."
    d = start(b, f"file_claim_auto_{loss}_{n}", pol, n, n + 4,
              f"{story} Nobody was injured. You want to report the claim; at the end you want the claim number, your "
              "deductible and roughly what Harborline will pay.",
              ["Hi, I need to file a claim on my car. {ID}", said, "No one was hurt. Yes, please file it."], split=split)
    d.read("get_policy", policy_number=pol.policy_number)
    d.read("list_vehicles", policy_number=pol.policy_number)
    args: dict[str, Any] = {"policy_number": pol.policy_number, "loss_type": loss, "date_of_loss": dol, "estimated_amount": est,
                            "vehicle_id": veh.vehicle_id}
    if report:
        args["police_report_number"] = report
    claim = d.write("file_claim", **args)
    d.output(claim["claim_id"], "code")
    d.output(claim["deductible"], "money")
    d.output(claim["estimated_payout"], "money")
    d.one_end_state(f"The caller names the car, the only {veh.make} {veh.model} on the policy; the loss is covered "
                    f"({loss} falls under {'COMP' if loss == 'theft' else 'COLL'}, 8.2) and inside the term, and no desk limit of "
                    f"8.3 applies (no injury, {dollars(est)} is under $15,000, reported within 30 days), so the desk files it.")


def file_claim_home(b: Builder, n: int) -> None:
    dol = (TODAY - timedelta(days=11 + n)).isoformat()
    pol = b.pick(lambda p: p.effective_date <= dol and quiet_on(p, dol), "home")
    est = float(b.rng.randint(60, 300) * 50)
    d = start(b, f"file_claim_home_{n}", pol, n, n,
              f"On {spoken(dol)} the supply line under your kitchen sink burst while you were at work and soaked the kitchen "
              f"floor and cabinets (sudden water damage, not a flood or a sewer backup). A restoration company estimated "
              f"{dollars(est)}. No one was hurt. You want to file a claim and learn the claim number, your deductible and the "
              "estimated payout.",
              ["Hi, a pipe burst in my kitchen and I need to file a claim. {ID}",
               f"It happened on {spoken(dol)}; the supply line under the sink burst. The estimate is {dollars(est)}. Nobody was hurt.",
               "Yes, file it please."])
    d.read("get_policy", policy_number=pol.policy_number)
    claim = d.write("file_claim", policy_number=pol.policy_number, loss_type="water_damage", date_of_loss=dol, estimated_amount=est)
    d.output(claim["claim_id"], "code")
    d.output(claim["deductible"], "money")
    d.output(claim["estimated_payout"], "money")
    d.one_end_state("8.2: the date of loss is inside the policy period and a burst supply line is sudden water damage "
                    "(DWELL, not a flood or water backup), so the loss is covered; no desk limit of 8.3 applies (no injury, under "
                    "$25,000, reported within 60 days), so the desk files it.")


CANCEL_WHY = {
    "sold_vehicle": ("You sold your only car last week and won't replace it.", "I sold my only car last week and I'm not replacing it."),
    # the caller names the switch and nothing about the price, so 9.3 leaves one reason (not cost)
    "switched_carrier": ("You have moved your car insurance to another insurer, whose policy starts on that date.",
                         "I've moved my car insurance to another company, and their policy starts that day."),
    "cost": ("You can't afford the premium anymore.", "I just can't afford the premium anymore."),
    "sold_property": ("You closed on the sale of your house and the new owners have their own insurance.",
                      "I sold the house; the new owners have their own insurance."),
}


def cancel_single(b: Builder, n: int, reason: str, when: str, split: str = "test") -> None:
    line = "home" if reason == "sold_property" else "auto"
    pol = b.pick(lambda p: not open_claims(p.policy_number) and p.expiration_date > "2026-06-20"
                 and (reason != "sold_vehicle" or len(active_vehicles(p)) == 1), line)
    day = "today" if when == TODAY.isoformat() else spoken(when)
    why, mine = CANCEL_WHY[reason]
    d = start(b, f"cancel_{reason}_{n}", pol, n, n + 5,
              f"You want to cancel your {line} policy effective {day}. {why} Give that reason if asked. Before you agree you "
              "want to know whether there is a fee and how much you will get back (or owe); then you confirm the cancellation.",
              [f"I need to cancel my {line} insurance. {{ID}}", f"Effective {day}. {mine}", "Understood. Yes, cancel it."], split=split)
    d.read("get_policy", policy_number=pol.policy_number)
    d.read("list_claims", policy_number=pol.policy_number)
    quote = d.read("quote_cancellation", policy_number=pol.policy_number, cancellation_date=when, reason=reason)
    d.write("cancel_policy", policy_number=pol.policy_number, cancellation_date=when, reason=reason)
    d.output(quote["amount_due"] if quote["amount_due"] > 0 else quote["refund_amount"], "money")
    if quote["short_rate_fee"]:
        d.output(quote["short_rate_fee"], "money")
    d.one_end_state(f"9.1: the date is today or later and before expiration; 9.3: {reason} is the one reason the caller "
                    f"gives, which sets the fee (9.2); 9.4: the policy has no open claim.")


# ---------------------------------------------------------------------------------------- several changes


def teen_driver_and_car(b: Builder, n: int, split: str = "test") -> None:
    pol = b.pick(lambda p: not has_sporty(p) and len(active_drivers(p)) <= 3 and len(active_vehicles(p)) <= 2
                 and cov(p, "COLL") is not None and parent_of_teen(p), "auto")
    h = holder_of(pol)
    pn, state = pol.policy_number, h.address.state
    first = KID_NAMES[(n * 5) % len(KID_NAMES)]
    dob = (TODAY - timedelta(days=b.rng.randint(16 * 365 + 40, 18 * 365 - 30))).isoformat()
    lic = b.license(state)
    make, model = USED_CARS[(n * 7 + 2) % len(USED_CARS)]
    year = b.rng.randint(2014, 2019)
    vin = b.vin(make, model, year)
    email = f"{h.first_name.lower()}.{h.last_name.lower()}.home@{b.rng.choice(['fastmail.com', 'gmail.com', 'outlook.com'])}"
    d = start(b, f"teen_driver_and_car_{n}", pol, n + 1, n,
              f"Your child {first} {h.last_name} (born {spoken(dob)}) just passed the driving test: {state} license {lic}. You "
              f"bought {first} a used {year} {make} {model}, VIN {vin}. You want {first} added as a driver and the car added to "
              f"your auto policy, and you want your email on file changed to {email} so the new ID cards reach the family "
              "inbox. Share details only when asked. You want to hear what each of the two policy changes costs for the rest "
              "of the term and the total of the two before you say yes.",
              ["Hi, my kid just got their license and I need to update my auto policy. {ID}",
               f"{first} {h.last_name}, born {spoken(dob)}, {state} license {lic}. And I bought a {year} {make} {model} for "
               f"{first}, VIN {vin}.", f"Also please change my email to {email}.", "Yes, please do all of it."], split=split)
    d.read("list_drivers", policy_number=pn)
    driver_quote = d.read("quote_add_driver", policy_number=pn, date_of_birth=dob)
    car_quote = d.read("quote_add_vehicle", policy_number=pn, make=make, model=model)
    total = d.read("calculate", expression=signed([driver_quote["prorated_change"], car_quote["prorated_change"]]))
    d.write("add_driver", policy_number=pn, first_name=first, last_name=h.last_name, date_of_birth=dob, license_number=lic,
            license_state=state, relationship="child")
    d.write("add_vehicle", policy_number=pn, vin=vin, year=year, make=make, model=model)
    d.write("update_contact_info", policyholder_id=h.policyholder_id, email=email)
    d.output(driver_quote["prorated_change"], "money")
    d.output(car_quote["prorated_change"], "money")
    d.output(abs(float(total)), "money")
    d.one_end_state("5.1: the teen is 16 or older and licensed; the car is in the rating catalog and neither sports nor "
                    "luxury, and the policy has none, so 5.4 does not apply; 5.2 and 6.1 leave room for both additions.")


def replace_vehicle(b: Builder, n: int) -> None:
    def swappable(p: Policy) -> list[Vehicle]:
        busy = {c.vehicle_id for c in open_claims(p.policy_number)}
        return [v for v in active_vehicles(p) if unique_vehicle(p, v) and v.vehicle_id not in busy]

    pol = b.pick(lambda p: len(active_vehicles(p)) < 4 and bool(swappable(p)) and not has_young(p), "auto")
    h = holder_of(pol)
    pn = pol.policy_number
    old = swappable(pol)[0]
    # a car of another rating class, so the swap has a net figure to state
    candidates = [m for m in EVERYDAY if DB.vehicle_models.find(make=m[0], model=m[1])[0].vehicle_class != old.vehicle_class]
    make, model = candidates[(n * 5 + 1) % len(candidates)]
    year = b.rng.randint(2022, 2026)
    vin = b.vin(make, model, year)
    email = f"{h.first_name.lower()}.{h.last_name.lower()}{b.rng.randint(10, 99)}@{b.rng.choice(['fastmail.com', 'gmail.com', 'hey.com'])}"
    d = start(b, f"replace_vehicle_{n}", pol, n, n + 2,
              f"Today you traded in your {label(old)} for a new {year} {make} {model} (VIN {vin}). You want the new car added and "
              f"the old one taken off. You also want your email on file changed to {email}. Before you say yes you want to "
              "know the net premium change for the rest of the term from the swap.",
              [f"Hi, I traded in my {old.make} {old.model} for a new car. {{ID}}",
               f"The new one is a {year} {make} {model}, VIN {vin}. Please add it and take the {old.make} off.",
               f"Also please change my email to {email}.", "Yes, go ahead with all of that."])
    d.read("list_vehicles", policy_number=pn)
    add_quote = d.read("quote_add_vehicle", policy_number=pn, make=make, model=model)
    remove_quote = d.read("quote_remove_vehicle", policy_number=pn, vehicle_id=old.vehicle_id)
    net = d.read("calculate", expression=signed([add_quote["prorated_change"], remove_quote["prorated_change"]]))
    d.write("add_vehicle", policy_number=pn, vin=vin, year=year, make=make, model=model)
    d.write("remove_vehicle", policy_number=pn, vehicle_id=old.vehicle_id)
    d.write("update_contact_info", policyholder_id=h.policyholder_id, email=email)
    d.output(abs(float(net)), "money")
    d.one_end_state(f"6.4: a replacement is a removal and an addition; the caller names the old car, the only {old.make} "
                    f"{old.model} on the policy, with no open claim (6.3) and not the last vehicle (6.2); the new car is in the "
                    "rating catalog and not sports or luxury (4.3, 5.4).")


def claim_phone_deductible(b: Builder, n: int) -> None:
    dol = (TODAY - timedelta(days=6 + n * 5)).isoformat()
    pol = b.pick(lambda p: deductible(p, "COMP") in (100, 250) and p.effective_date <= dol and quiet_on(p, dol)
                 and recent_vehicle(p, dol) is not None, "auto")
    h = holder_of(pol)
    pn = pol.policy_number
    veh = recent_vehicle(pol, dol)
    assert veh is not None
    est = float(b.rng.randint(8, 28) * 50)
    phone = b.phone(h)
    loss = ["glass", "hail", "animal_strike"][n % 3]
    story = {"glass": (f"a rock cracked the windshield of your {label(veh)} on the interstate",
                       f"a rock cracked the windshield of my {label(veh)} on the interstate"),
             "hail": (f"a hailstorm dented the hood and roof of your {label(veh)}", f"a hailstorm dented the hood and roof of my {label(veh)}"),
             "animal_strike": (f"you hit a deer on a county road at dusk in your {label(veh)}",
                               f"I hit a deer on a county road at dusk in my {label(veh)}")}[loss]
    d = start(b, f"claim_phone_deductible_{n}", pol, n, n + 1,
              f"On {spoken(dol)} {story[0]}; the repair estimate is {dollars(est)}. Nobody was hurt. You want "
              "to report that claim and hear the claim number and the estimated payout; you want your phone number changed "
              f"to {phone} so the adjuster can reach you; and, only once the claim is in, you want your comprehensive "
              "deductible raised to $500 going forward, and you want to hear what that saves this term before you agree to it.",
              ["Hi, I need to report some damage to my car. {ID}", f"On {spoken(dol)} {story[1]}. The estimate is {dollars(est)}. Nobody was hurt.",
               f"Next, please update my phone to {phone}. And once the claim is filed, raise my comprehensive deductible to $500.",
               "Yes to all of it."], ordered=True)
    d.read("get_policy", policy_number=pn)
    d.read("list_vehicles", policy_number=pn)
    claim = d.write("file_claim", policy_number=pn, loss_type=loss, date_of_loss=dol, estimated_amount=est, vehicle_id=veh.vehicle_id)
    d.write("update_contact_info", policyholder_id=h.policyholder_id, phone=phone)
    quote = d.read("quote_deductible_change", policy_number=pn, coverage_code="COMP", new_deductible=500)
    d.write("change_deductible", policy_number=pn, coverage_code="COMP", new_deductible=500)
    d.output(claim["claim_id"], "code")
    d.output(claim["estimated_payout"], "money")
    d.output(abs(quote["prorated_change"]), "money")
    d.one_end_state(f"The caller names the car, the only {veh.make} {veh.model} on the policy; {loss.replace('_', ' ')} falls "
                    "under COMP (8.2) and no desk limit of 8.3 applies; the caller names the comprehensive deductible, and 7.4 puts "
                    "the claim before the deductible change, the order the caller also asks for.")


def withdraw_and_cancel(b: Builder, n: int) -> None:
    def ok(p: Policy) -> bool:
        oc = open_claims(p.policy_number)
        return len(oc) == 1 and oc[0].status == "open" and oc[0].paid_amount == 0 and p.expiration_date > "2026-06-01"

    pol = b.pick(ok, "auto")
    h = holder_of(pol)
    pn = pol.policy_number
    claim = open_claims(pn)[0]
    loss = claim.loss_type.replace("_", " ")
    email = f"{h.first_name[0].lower()}{h.last_name.lower()}{b.rng.randint(100, 999)}@{b.rng.choice(['outlook.com', 'icloud.com'])}"
    reason = ["sold_vehicle", "switched_carrier"][n % 2]
    why = {"sold_vehicle": ("you sold the vehicles on the policy and will share your partner's car, which is insured elsewhere",
                            "I sold the cars and I'll share my partner's car, which is insured elsewhere"),
           "switched_carrier": ("you switched to another insurer whose policy starts today",
                                "I switched to another insurer and their policy starts today")}[reason]
    d = start(b, f"withdraw_claim_then_cancel_{n}", pol, n + 1, n + 3,
              f"You have an open claim for the {loss} on {spoken(claim.date_of_loss)} that you decided to pay for yourself, so you "
              f"want to withdraw it. You also want your email changed to {email} so the final paperwork reaches you, and you want "
              f"your auto policy cancelled effective today because {why[0]}. You want to know what you get back (or owe) before "
              "confirming the cancellation.",
              ["Hi, a few things on my auto policy. {ID}", f"First, I want to withdraw my open claim for the {loss}; I'll cover it myself.",
               f"Then change my email to {email}, and cancel the policy as of today. {why[1][0].upper()}{why[1][1:]}.",
               "Yes, please go ahead."])
    d.read("list_claims", policy_number=pn)
    d.write("withdraw_claim", claim_id=claim.claim_id)
    d.write("update_contact_info", policyholder_id=h.policyholder_id, email=email)
    quote = d.read("quote_cancellation", policy_number=pn, cancellation_date=TODAY.isoformat(), reason=reason)
    d.write("cancel_policy", policy_number=pn, cancellation_date=TODAY.isoformat(), reason=reason)
    d.output(quote["amount_due"] if quote["amount_due"] > 0 else quote["refund_amount"], "money")
    if quote["short_rate_fee"]:
        d.output(quote["short_rate_fee"], "money")
    d.one_end_state(f"8.6: {claim.claim_id} is the policy's one open claim and nothing has been paid on it, so it may be "
                    "withdrawn; with no open claim left, the policy may be cancelled at the desk (9.4) today, for the reason the "
                    f"caller gives ({reason}, 9.3), which sets the fee (9.2).")


def child_moves_out(b: Builder, n: int) -> None:
    def car_of(p: Policy) -> Vehicle | None:
        busy = {c.vehicle_id for c in open_claims(p.policy_number)}
        cars = [v for v in active_vehicles(p) if unique_vehicle(p, v) and v.vehicle_id not in busy]
        return cars[-1] if cars else None

    def ok(p: Policy) -> bool:
        kids = [d for d in active_drivers(p) if d.relationship == "child"]
        gap = age(holder_of(p).date_of_birth) - age(kids[0].date_of_birth) if kids else 0
        return len(kids) == 1 and 20 <= gap <= 45 and len(active_vehicles(p)) >= 2 and car_of(p) is not None

    pol = b.pick(ok, "auto")
    h = holder_of(pol)
    pn = pol.policy_number
    kid = next(d for d in active_drivers(pol) if d.relationship == "child")
    veh = car_of(pol)
    assert veh is not None
    phone = b.phone(h)
    d = start(b, f"child_moves_out_{n}", pol, n, n + 4,
              f"Your child {kid.first_name} moved across the country for a job and took the {label(veh)} (it is being registered "
              f"and insured there). You want {kid.first_name} removed as a driver and the {veh.make} {veh.model} removed from your "
              f"auto policy. The phone number on file was {kid.first_name}'s cell, so you want it changed to your own number, "
              f"{phone}. You want to hear the net total of the two policy changes for the rest of the term before you say yes.",
              [f"Hi, my kid {kid.first_name} moved out and took one of our cars. {{ID}}",
               f"Please take {kid.first_name} off as a driver and remove the {label(veh)}. And the phone number on file is "
               f"{kid.first_name}'s, so please change it to mine: {phone}.", "Yes, do all of it. What's the net?"])
    d.read("list_drivers", policy_number=pn)
    d.read("list_vehicles", policy_number=pn)
    driver_quote = d.read("quote_remove_driver", policy_number=pn, driver_id=kid.driver_id)
    car_quote = d.read("quote_remove_vehicle", policy_number=pn, vehicle_id=veh.vehicle_id)
    net = d.read("calculate", expression=signed([driver_quote["prorated_change"], car_quote["prorated_change"]]))
    d.write("remove_driver", policy_number=pn, driver_id=kid.driver_id)
    d.write("remove_vehicle", policy_number=pn, vehicle_id=veh.vehicle_id)
    d.write("update_contact_info", policyholder_id=h.policyholder_id, phone=phone)
    d.output(abs(float(net)), "money")
    d.one_end_state(f"5.3: {kid.first_name} is the one child listed and no longer lives in the household; the caller names the "
                    f"car, the only {veh.make} {veh.model} on the policy, with no open claim (6.3) and not the last vehicle (6.2).")


def spouse_and_home(b: Builder, n: int) -> None:
    def ok(p: Policy) -> bool:
        h = holder_of(p)
        home = active_home(h)
        return (len(active_drivers(p)) == 1 and home is not None and deductible(home, "DWELL") in (500, 1000, 2500)
                and age(h.date_of_birth) > 30)

    pol = b.pick(ok, "auto")
    h = holder_of(pol)
    home = active_home(h)
    assert home is not None
    new = {500: 1000, 1000: 2500, 2500: 5000}[deductible(home, "DWELL") or 0]
    first = SPOUSE_NAMES[n % 6]
    dob = (date.fromisoformat(h.date_of_birth) + timedelta(days=b.rng.randint(-1200, 1200))).isoformat()
    state = h.address.state
    lic = b.license(state)
    phone = b.phone(h)
    d = start(b, f"spouse_home_deductible_{n}", pol, n, n + 5,
              f"You just got married. Your spouse {first} {h.last_name} (born {spoken(dob)}, {state} license {lic}) should be "
              f"added to your auto policy. To balance the budget you want the deductible on your homeowners policy raised to "
              f"${new:,}. Your household now uses {first}'s number as the main line, so you want your phone changed to {phone}. "
              "You want to hear the figure for the driver and the figure for the deductible change before you say yes.",
              ["Hi! I just got married and have some updates. {ID}",
               f"Add my spouse {first} {h.last_name}, born {spoken(dob)}, {state} license {lic}, to my car insurance.",
               f"Then raise the deductible on my home policy to ${new:,}, and change my phone number to {phone}.",
               "Yes, please make those changes."])
    driver_quote = d.read("quote_add_driver", policy_number=pol.policy_number, date_of_birth=dob)
    d.read("get_policy", policy_number=home.policy_number)
    home_quote = d.read("quote_deductible_change", policy_number=home.policy_number, coverage_code="DWELL", new_deductible=new)
    d.write("add_driver", policy_number=pol.policy_number, first_name=first, last_name=h.last_name, date_of_birth=dob,
            license_number=lic, license_state=state, relationship="spouse")
    d.write("change_deductible", policy_number=home.policy_number, coverage_code="DWELL", new_deductible=new)
    d.write("update_contact_info", policyholder_id=h.policyholder_id, phone=phone)
    d.output(driver_quote["prorated_change"], "money")
    d.output(abs(home_quote["prorated_change"]), "money")
    d.one_end_state("The caller's one active home policy has one deductible the desk changes, the all-peril deductible on "
                    f"DWELL (3.2, 7.1), raised to ${new:,} (7.3); the spouse is over 25 and the auto policy has room (5.2, 5.4).")


# ---------------------------------------------------------------------------------------- policy refusals


def cancel_with_open_claim(b: Builder, n: int, split: str = "test") -> None:
    pol = b.pick(lambda p: bool(open_claims(p.policy_number)) and p.expiration_date > "2026-05-20")
    pn = pol.policy_number
    claim = open_claims(pn)[0]
    d = start(b, f"cancel_blocked_open_claim_{n}", pol, n, n,
              f"You want to cancel your {pol.line} policy effective today because you found a cheaper carrier. You have a claim "
              f"still in progress (the {claim.loss_type.replace('_', ' ')} claim from {spoken(claim.date_of_loss)}) but you assume that "
              "doesn't matter. If the agent says it can't be done at this desk, insist once, then accept being transferred to "
              "someone who can help.",
              [f"I want to cancel my {pol.line} policy, effective today. {{ID}}", "I switched to a cheaper company.",
               "Can't you just do it? ... Fine, transfer me."], split=split)
    d.read("list_claims", policy_number=pn)
    d.require("list_claims", policy_number=pn)
    d.transfer(f"Policyholder wants to cancel {pn} effective today (switched carrier); the policy has open claim {claim.claim_id}.")
    d.forbid("cancel_policy", policy_number=pn, cancellation_date=TODAY.isoformat(), reason="switched_carrier")
    d.one_end_state(f"9.4: the policy has open claim {claim.claim_id}, so it cannot be cancelled at the desk: the caller is "
                    "transferred after the claims look-up that shows it (11.1).")


LOWER = {"COLL": {1000: 500, 2000: 1000}, "DWELL": {1000: 500, 2500: 1000, 5000: 2500}}


def lower_deductible_open_claim(b: Builder, n: int) -> None:
    line = ["auto", "home"][n % 2]
    code = "COLL" if line == "auto" else "DWELL"
    pol = b.pick(lambda p: deductible(p, code) in LOWER[code] and len(open_claims(p.policy_number)) == 1, line)
    pn = pol.policy_number
    claim = open_claims(pn)[0]
    new = LOWER[code][deductible(pol, code) or 0]
    what = "collision deductible" if code == "COLL" else "home deductible"
    d = start(b, f"lower_deductible_blocked_{n}", pol, n + 1, n + 2,
              f"You want to lower your {what} to ${new:,} starting today. You have an open claim (the "
              f"{claim.loss_type.replace('_', ' ')} claim from {spoken(claim.date_of_loss)}) and you are secretly hoping the lower "
              "deductible will help with it. If refused, ask which claim is the problem, then accept the answer and end the "
              "call. You do not want any other change.",
              [f"I'd like to lower my {what} to ${new:,}. {{ID}}", "Why not? Which claim are you talking about?", "OK, I understand."])
    d.read("get_policy", policy_number=pn)
    claims = d.read("list_claims", policy_number=pn)
    d.output(next(c["claim_id"] for c in claims if c["status"] in OPEN), "code")
    d.forbid("change_deductible", policy_number=pn, coverage_code=code, new_deductible=new)
    d.one_end_state(f"7.3: the policy has open claim {claim.claim_id}, so the deductible may not be lowered; the caller hears "
                    "the claim number and asks for nothing else, and a refusal under 7.3 is not a transfer (11.1).")


def sporty_with_young_driver(b: Builder, n: int) -> None:
    pol = b.pick(lambda p: has_young(p) and not has_sporty(p) and len(active_vehicles(p)) < 4, "auto")
    pn = pol.policy_number
    young = next(d for d in active_drivers(pol) if age(d.date_of_birth) < 25)
    make, model = SPORTY[n % len(SPORTY)]
    year = b.rng.randint(2018, 2025)
    vin = b.vin(make, model, year)
    relation = {"child": "your child", "spouse": "your spouse", "named_insured": "you"}.get(young.relationship, "a household member")
    d = start(b, f"sports_car_young_driver_{n}", pol, n, n + 1,
              f"You bought a {year} {make} {model} (VIN {vin}) and want it added to your auto policy today. Everyone listed on the "
              f"policy stays on it, including {young.first_name} {young.last_name} ({relation}, {age(young.date_of_birth)} years "
              "old); mention that only if asked about the drivers. If the agent cannot add the car, accept a transfer to someone "
              "who can review it.",
              ["I want to add a car to my policy. {ID}", f"It's a {year} {make} {model}, VIN {vin}.",
               "Everyone on the policy stays on it. If you can't add the car yourself, please transfer me."])
    d.read("list_drivers", policy_number=pn)
    d.read("lookup_vehicle_model", make=make, model=model)
    d.require("list_drivers", policy_number=pn)
    d.transfer(f"Add {year} {make} {model} to {pn}; the policy lists a driver under 25: underwriting review.")
    d.forbid("add_vehicle", policy_number=pn, vin=vin, year=year, make=make, model=model)
    d.one_end_state(f"5.4: the {make} {model} rates sports or luxury (lookup_vehicle_model) and the policy lists "
                    f"{young.first_name}, under 25, so adding it needs underwriting review: a transfer after the drivers look-up (11.1).")


def young_driver_sporty_car(b: Builder, n: int) -> None:
    pol = b.pick(lambda p: has_sporty(p) and not has_young(p) and len(active_drivers(p)) < 4
                 and 42 <= age(holder_of(p).date_of_birth) <= 62, "auto")
    h = holder_of(pol)
    pn = pol.policy_number
    first = KID_NAMES[(n + 7) % len(KID_NAMES)]
    dob = (TODAY - timedelta(days=b.rng.randint(18 * 365 + 30, 21 * 365))).isoformat()
    lic = b.license(h.address.state)
    d = start(b, f"young_driver_with_sports_car_{n}", pol, n + 1, n + 3,
              f"Your child {first} {h.last_name} (born {spoken(dob)}, {h.address.state} license {lic}) moved back home and you "
              "want them added as a driver on your auto policy. You are keeping every car on the policy. If the agent can't add "
              f"{first}, accept a transfer.",
              [f"Hi, my kid {first} moved back home and I need to add them to my auto policy. {{ID}}",
               f"{first} {h.last_name}, born {spoken(dob)}, {h.address.state} license {lic}. We're keeping all the cars.",
               "OK, transfer me then."])
    vehicles = d.read("list_vehicles", policy_number=pn)
    sporty = next(v for v in vehicles if v["status"] == "active" and v["vehicle_class"] in ("sports", "luxury"))
    d.require("list_vehicles", policy_number=pn)
    d.transfer(f"Add a driver under 25 to {pn}, which has a {sporty['vehicle_class']} vehicle: underwriting review.")
    d.forbid("add_driver", policy_number=pn, first_name=first, last_name=h.last_name, date_of_birth=dob, license_number=lic,
             license_state=h.address.state, relationship="child")
    d.one_end_state(f"5.4: {first} is under 25 and the policy has a {sporty['vehicle_class']} vehicle the caller keeps, so "
                    "adding the driver needs underwriting review: a transfer after the vehicles look-up (11.1).")


def claim_needs_specialist(b: Builder, n: int, kind: str) -> None:
    line = "home" if kind == "large_home" else "auto"
    dol = (TODAY - timedelta(days=41 + n if kind == "late" else 2 + n)).isoformat()
    if line == "auto":
        pol = b.pick(lambda p: cov(p, "COLL") is not None and p.effective_date <= dol and quiet_on(p, dol)
                 and recent_vehicle(p, dol) is not None, "auto")
        veh = recent_vehicle(pol, dol)
        assert veh is not None
        car = label(veh)
    else:
        pol = b.pick(lambda p: p.effective_date <= dol and quiet_on(p, dol), "home")
        veh, car = None, ""
    pn = pol.policy_number
    when = spoken(dol)
    if kind == "large_auto":
        est, loss = 18400.0, "collision"
        story = (f"On {when} your {car} slid on black ice into a guardrail; the body shop says the repairs will run about "
                 f"{dollars(est)}. No one was hurt.",
                 f"On {when} my {car} slid on black ice into a guardrail. The body shop says about {dollars(est)}. No one was hurt.")
    elif kind == "large_home":
        est, loss = 41000.0, "wind"
        story = (f"On {when} a windstorm tore off a large part of your roof and rain ruined the upstairs; the contractor "
                 f"estimates {dollars(est)}. No one was hurt.",
                 f"On {when} a windstorm tore off a big part of my roof and the rain ruined the upstairs. The contractor says "
                 f"{dollars(est)}. No one was hurt.")
    elif kind == "late":
        est, loss = 2300.0, "collision"
        story = (f"On {when} someone sideswiped your parked {car} while you were at work and drove off; you kept meaning to "
                 f"call. The estimate is {dollars(est)}. No one was hurt.",
                 f"On {when} someone sideswiped my parked {car} while I was at work and drove off. I kept meaning to call. "
                 f"The estimate is {dollars(est)}. No one was hurt.")
    else:
        est, loss = 4200.0, "collision"
        story = (f"On {when} you rear-ended another car at a light in your {car}; damage to your car is about {dollars(est)}, "
                 "and the other driver went to urgent care with neck pain.",
                 f"On {when} I rear-ended another car at a light in my {car}. Damage to my car is about {dollars(est)}, and "
                 "the other driver went to urgent care with neck pain.")
    d = start(b, f"claim_to_specialist_{kind}_{n}", pol, n, n + 2,
              f"{story[0]} You want to file a claim today. Answer the agent's questions truthfully. If told the desk can't file "
              "it, accept a transfer to a claims specialist.",
              ["I need to report a claim. {ID}", story[1], "Alright, please transfer me."])
    d.read("get_policy", policy_number=pn)
    d.require("get_policy", policy_number=pn)
    d.transfer(f"New {line} loss on {pn} dated {dol} ({kind.replace('_', ' ')}); needs a claims specialist.")
    args: dict[str, Any] = {"policy_number": pn, "loss_type": loss, "date_of_loss": dol, "estimated_amount": est}
    if veh is not None:
        args["vehicle_id"] = veh.vehicle_id
    d.forbid("file_claim", **args)
    why = {"large_auto": "the estimate is over $15,000 on an auto claim (8.3 b)",
           "large_home": "the estimate is over $25,000 on a home claim (8.3 b)",
           "late": "the loss is reported more than 30 days after it happened on an auto policy (8.3 c)",
           "injury": "someone was injured (8.3 a)"}[kind]
    d.one_end_state(f"The loss is covered ({loss} under the policy's coverage, 8.2), so it is not declined; {why}, so the "
                    "desk does not file it and transfers the caller after checking the policy (11.1).")


def remove_vehicle_open_claim(b: Builder, n: int) -> None:
    def ok(p: Policy) -> bool:
        oc = [c for c in open_claims(p.policy_number) if c.vehicle_id]
        return len(active_vehicles(p)) >= 2 and len(oc) == 1 and unique_vehicle(p, DB.vehicles[oc[0].vehicle_id or ""])

    pol = b.pick(ok, "auto")
    h = holder_of(pol)
    pn = pol.policy_number
    claim = next(c for c in open_claims(pn) if c.vehicle_id)
    veh = DB.vehicles[claim.vehicle_id or ""]
    email = f"{h.first_name.lower()}{h.last_name[0].lower()}.{b.rng.randint(1970, 2005)}@gmail.com"
    d = start(b, f"remove_vehicle_blocked_{n}", pol, n, n + 4,
              f"You want your {label(veh)} taken off your auto policy today: it sits in a body shop waiting on the claim from "
              f"{spoken(claim.date_of_loss)} and you don't want to pay for it meanwhile. You also want your email changed to "
              f"{email}. If the car can't come off, ask for the number of the claim involved; accept that and keep the email change.",
              ["Hi, two things. {ID}", f"Remove my {veh.make} {veh.model} from the policy, it's in the shop. And change my email to {email}.",
               "Which claim is it? OK. Yes, do the email."])
    d.read("list_vehicles", policy_number=pn)
    claims = d.read("list_claims", policy_number=pn)
    d.write("update_contact_info", policyholder_id=h.policyholder_id, email=email)
    d.output(next(c["claim_id"] for c in claims if c["vehicle_id"] == veh.vehicle_id and c["status"] in OPEN), "code")
    d.forbid("remove_vehicle", policy_number=pn, vehicle_id=veh.vehicle_id)
    d.one_end_state(f"6.3: {claim.claim_id} is open on the {veh.make} {veh.model}, so it cannot come off the policy; the "
                    "caller hears the claim number and keeps the email change (10.1), and nothing is transferred.")


def backdated_cancel(b: Builder, n: int) -> None:
    pol = b.pick(lambda p: not open_claims(p.policy_number) and p.effective_date < "2026-04-01" and len(active_vehicles(p)) == 1, "auto")
    pn = pol.policy_number
    back = "2026-05-01"
    d = start(b, f"backdated_cancel_{n}", pol, n, n + 5,
              f"You sold your car on {spoken(back)} and forgot to call. You want your auto policy cancelled back to "
              f"{spoken(back)} and the premium refunded from then. If told it can't be backdated, grumble, then accept cancelling "
              "effective today, as long as you hear the refund amount first.",
              [f"I need to cancel my auto policy, back to {spoken(back)}. {{ID}}", "I sold the car that day.",
               "Fine, today then. How much do I get back? ... OK, cancel it."])
    d.read("list_claims", policy_number=pn)
    quote = d.read("quote_cancellation", policy_number=pn, cancellation_date=TODAY.isoformat(), reason="sold_vehicle")
    d.write("cancel_policy", policy_number=pn, cancellation_date=TODAY.isoformat(), reason="sold_vehicle")
    d.output(quote["amount_due"] if quote["amount_due"] > 0 else quote["refund_amount"], "money")
    d.one_end_state("9.1: a cancellation can never be backdated, so it takes effect today, which the caller accepts; "
                    "sold_vehicle is the reason given (9.3), which waives the fee (9.2); the policy has no open claim (9.4).")


def build() -> TaskWriter:
    b = Builder()
    for n in (1, 2):
        coverage_lookup_auto(b, n)
    coverage_lookup_home(b, 1)
    for n in (1, 2, 3):
        claim_status(b, n)
    add_driver_single(b, 1, "child")
    add_driver_single(b, 2, "spouse")
    add_driver_single(b, 3, "child")
    add_vehicle_single(b, 1)
    add_vehicle_single(b, 2)
    raise_deductible(b, 1, "auto")
    raise_deductible(b, 2, "home")
    file_claim_auto(b, 1, "collision")
    file_claim_auto(b, 2, "theft")
    file_claim_home(b, 1)
    cancel_single(b, 1, "sold_vehicle", TODAY.isoformat())
    cancel_single(b, 2, "switched_carrier", "2026-06-01")
    cancel_single(b, 3, "sold_property", "2026-05-31")
    for n in (1, 2, 3):
        teen_driver_and_car(b, n)
        replace_vehicle(b, n)
    for n in (1, 2):
        claim_phone_deductible(b, n)
        withdraw_and_cancel(b, n)
        child_moves_out(b, n)
        spouse_and_home(b, n)
    for n in (1, 2):
        cancel_with_open_claim(b, n)
        lower_deductible_open_claim(b, n)
        sporty_with_young_driver(b, n)
    young_driver_sporty_car(b, 1)
    claim_needs_specialist(b, 1, "large_auto")
    claim_needs_specialist(b, 2, "large_home")
    claim_needs_specialist(b, 3, "late")
    claim_needs_specialist(b, 4, "injury")
    remove_vehicle_open_claim(b, 1)
    backdated_cancel(b, 1)
    # train split: worked examples of each kind
    coverage_lookup_auto(b, 3, split="train")
    claim_status(b, 4, split="train")
    add_driver_single(b, 4, "child", split="train")
    file_claim_auto(b, 3, "collision", split="train")
    cancel_single(b, 4, "cost", "2026-05-20", split="train")
    cancel_with_open_claim(b, 3, split="train")
    teen_driver_and_car(b, 4, split="train")
    return b.writer


if __name__ == "__main__":
    path = build().save()
    print(f"wrote {path}")
