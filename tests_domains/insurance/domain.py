"""Harborline Mutual's policyholder desk (auto and home): tools over the insurance DB."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from pytest_tau import Domain, ToolError, calculate as _calculate
from tests_domains.insurance import rating as R
from tests_domains.insurance.schema import (
    Adjuster,
    AutoLoss,
    BillingTransaction,
    Cancellation,
    CancelReason,
    Claim,
    Driver,
    Endorsement,
    HomeLoss,
    InsuranceDB,
    Policy,
    Policyholder,
    Property,
    Vehicle,
)

DOMAIN = Domain("insurance", InsuranceDB, fixtures=Path(__file__).parents[2] / "fixtures" / "insurance")

PolicyNumber = Annotated[str, Field(description="the policy number, such as 'HMA-1234567' (auto) or 'HMH-7654321' (home)")]
ISODate = Annotated[str, Field(description="a date as YYYY-MM-DD")]


class PolicyDetails(Policy):
    days_in_term: int
    days_remaining: int


class VehicleModelRate(BaseModel):
    model_id: str
    make: str
    model: str
    vehicle_class: str
    class_rate_per_term: float


class CancellationQuote(BaseModel):
    policy_number: str
    cancellation_date: str
    reason: str
    term_premium: float
    premium_paid: float
    days_in_term: int
    days_elapsed: int
    earned_premium: float
    unearned_premium: float
    short_rate_fee: float
    refund_amount: float
    amount_due: float


# -- helpers ------------------------------------------------------------------------


def _date(value: str, what: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise ToolError(f"{what} must be a date as YYYY-MM-DD, got {value!r}") from None


def _policy(db: InsuranceDB, policy_number: str) -> Policy:
    policy = db.policies.get(policy_number.strip().upper())
    if policy is None:
        raise ToolError(f"policy {policy_number!r} not found")
    return policy


def _active(policy: Policy) -> None:
    if policy.status != "active":
        raise ToolError(f"policy {policy.policy_number} is {policy.status}; only active policies can be changed")


def _coverage(policy: Policy, code: str):
    for cov in policy.coverages:
        if cov.code == code:
            return cov
    return None


def _active_vehicles(db: InsuranceDB, policy: Policy) -> list[Vehicle]:
    return [db.vehicles[v] for v in policy.vehicle_ids if db.vehicles[v].status == "active"]


def _active_drivers(db: InsuranceDB, policy: Policy) -> list[Driver]:
    return [db.drivers[d] for d in policy.driver_ids if db.drivers[d].status == "active"]


def _per_vehicle_rate(policy: Policy, vehicle_class: str) -> float:
    """Per-term premium one vehicle adds: its class rate plus the per-vehicle coverages."""
    rate = R.VEHICLE_CLASS_RATE[vehicle_class]
    coll, comp = _coverage(policy, "COLL"), _coverage(policy, "COMP")
    if coll is not None:
        rate += R.COLL_DEDUCTIBLE_RATE[coll.deductible]
    if comp is not None:
        rate += R.COMP_DEDUCTIBLE_RATE[comp.deductible]
    if _coverage(policy, "RENT") is not None:
        rate += 21.0
    if _coverage(policy, "ROAD") is not None:
        rate += 9.0
    return rate


def _endorse(db: InsuranceDB, policy: Policy, change_type: str, detail: str, term_change: float) -> Endorsement:
    prorated = R.prorate(term_change, policy.effective_date, policy.expiration_date)
    eid = f"END-{500000 + len(db.endorsements) + 1}"
    endorsement = Endorsement(
        endorsement_id=eid, policy_number=policy.policy_number, effective_date=R.TODAY_ISO, change_type=change_type,
        detail=detail, term_premium_change=round(term_change, 2), prorated_change=prorated,
    )
    db.endorsements[eid] = endorsement
    policy.term_premium = round(policy.term_premium + term_change, 2)
    _bill(db, policy.policy_number, "endorsement_charge" if prorated >= 0 else "endorsement_credit", prorated, f"endorsement {eid}")
    return endorsement


def _bill(db: InsuranceDB, policy_number: str, kind: str, amount: float, memo: str) -> None:
    tid = f"TXN-{len(db.billing) + 1:07d}"
    db.billing[tid] = BillingTransaction(txn_id=tid, policy_number=policy_number, date=R.TODAY_ISO, kind=kind, amount=round(amount, 2), memo=memo)


def _quote(policy: Policy, cancellation_date: str, reason: str) -> CancellationQuote:
    day = _date(cancellation_date, "cancellation_date")
    start, end = date.fromisoformat(policy.effective_date), date.fromisoformat(policy.expiration_date)
    if day < R.TODAY:
        raise ToolError(f"a cancellation cannot be backdated: the earliest effective date is today, {R.TODAY_ISO}")
    if day >= end:
        raise ToolError(f"the cancellation date must be before the policy's expiration date {policy.expiration_date}")
    term_days, elapsed = (end - start).days, (day - start).days
    earned = round(policy.term_premium * elapsed / term_days, 2)
    unearned = round(policy.term_premium - earned, 2)
    if reason in R.FEE_WAIVED_REASONS:
        fee = 0.0
    else:
        fee = round(min(max(unearned * R.SHORT_RATE_PERCENT / 100, R.SHORT_RATE_MIN), R.SHORT_RATE_MAX), 2)
    net = round(policy.premium_paid - earned - fee, 2)
    return CancellationQuote(
        policy_number=policy.policy_number, cancellation_date=day.isoformat(), reason=reason,
        term_premium=policy.term_premium, premium_paid=policy.premium_paid, days_in_term=term_days,
        days_elapsed=elapsed, earned_premium=earned, unearned_premium=unearned, short_rate_fee=fee,
        refund_amount=max(net, 0.0), amount_due=round(max(-net, 0.0), 2),
    )


def _order_independent(items: list, key) -> bool:
    """True when no two *different* items of a sorted list tie on the key, so the order they were found in
    (a search's order, not the table's) cannot show in the sorted result."""
    return all(a == b or key(a) != key(b) for a, b in zip(items, items[1:]))


# -- authentication and lookups -------------------------------------------------------


@DOMAIN.tool
def find_policyholder_by_policy_number(db: InsuranceDB, policy_number: PolicyNumber, date_of_birth: ISODate) -> Policyholder:
    """Authenticate a caller by a policy number and the policyholder's date of birth; returns the policyholder."""
    policy = _policy(db, policy_number)
    holder = db.policyholders[policy.policyholder_id]
    if holder.date_of_birth != _date(date_of_birth, "date_of_birth").isoformat():
        raise ToolError("the policy number and date of birth do not match our records")
    return holder


@DOMAIN.tool
def find_policyholder_by_name_zip(
    db: InsuranceDB,
    first_name: str,
    last_name: str,
    zip: Annotated[str, Field(description="the 5-digit zip code of the policyholder's mailing address")],
    date_of_birth: ISODate,
) -> Policyholder:
    """Authenticate a caller by full name, mailing zip code and date of birth; returns the policyholder."""
    dob = _date(date_of_birth, "date_of_birth").isoformat()

    def matches(holder: Policyholder) -> bool:
        return (
            holder.first_name.lower() == first_name.strip().lower()
            and holder.last_name.lower() == last_name.strip().lower()
            and holder.address.zip == zip.strip()
            and holder.date_of_birth == dob
        )

    found = [holder for holder in db.policyholders.where(date_of_birth=dob) if matches(holder)]
    if found and all(holder == found[0] for holder in found):  # the answer does not depend on the order of the matches
        return found[0]
    if found:  # different policyholders match: the first in table order, as always
        for holder in db.policyholders.values():
            if matches(holder):
                return holder
    raise ToolError("no policyholder matches that name, zip code and date of birth")


@DOMAIN.tool
def get_policyholder(db: InsuranceDB, policyholder_id: Annotated[str, Field(description="such as 'PH-100123'")]) -> Policyholder:
    """Return a policyholder's contact details and policy numbers."""
    holder = db.policyholders.get(policyholder_id.strip())
    if holder is None:
        raise ToolError(f"policyholder {policyholder_id!r} not found")
    return holder


@DOMAIN.tool
def get_policy(db: InsuranceDB, policy_number: PolicyNumber) -> PolicyDetails:
    """Return a policy: status, term dates, premium, payment plan, coverages with limits and deductibles,
    discounts, vehicle/driver ids or property id, cancellation details, and the days in the term and days
    remaining in the term as of today."""
    policy = _policy(db, policy_number)
    start, end = date.fromisoformat(policy.effective_date), date.fromisoformat(policy.expiration_date)
    remaining = max(0, (end - R.TODAY).days) if policy.status == "active" else 0
    return PolicyDetails(**policy.model_dump(), days_in_term=(end - start).days, days_remaining=remaining)


@DOMAIN.tool
def list_vehicles(db: InsuranceDB, policy_number: PolicyNumber) -> list[Vehicle]:
    """List the vehicles on an auto policy (active and removed)."""
    policy = _policy(db, policy_number)
    return [db.vehicles[v] for v in policy.vehicle_ids]


@DOMAIN.tool
def list_drivers(db: InsuranceDB, policy_number: PolicyNumber) -> list[Driver]:
    """List the drivers on an auto policy (active and removed), with dates of birth and relationship."""
    policy = _policy(db, policy_number)
    return [db.drivers[d] for d in policy.driver_ids]


@DOMAIN.tool
def get_property(db: InsuranceDB, property_id: Annotated[str, Field(description="such as 'PRP-600123'")]) -> Property:
    """Return the insured property of a home policy."""
    prop = db.properties.get(property_id.strip())
    if prop is None:
        raise ToolError(f"property {property_id!r} not found")
    return prop


@DOMAIN.tool
def list_claims(db: InsuranceDB, policy_number: PolicyNumber) -> list[Claim]:
    """List every claim filed on a policy, oldest first."""
    policy = _policy(db, policy_number)
    def key(c: Claim) -> tuple[str, str]:
        return (c.date_of_loss, c.claim_id)

    claims = sorted(db.claims.where(policy_number=policy.policy_number), key=key)
    if _order_independent(claims, key):
        return claims
    # different claims tie on the sort key: keep the table's order among them, as always
    claims = [c for c in db.claims.values() if c.policy_number == policy.policy_number]
    return sorted(claims, key=key)


@DOMAIN.tool
def get_claim(db: InsuranceDB, claim_id: Annotated[str, Field(description="such as 'CLM-100123'")]) -> Claim:
    """Return a claim's status, amounts, deductible and assigned adjuster id."""
    claim = db.claims.get(claim_id.strip().upper())
    if claim is None:
        raise ToolError(f"claim {claim_id!r} not found")
    return claim


@DOMAIN.tool
def get_adjuster(db: InsuranceDB, adjuster_id: Annotated[str, Field(description="such as 'ADJ-301'")]) -> Adjuster:
    """Return a claims adjuster's name, unit and direct contact details."""
    adjuster = db.adjusters.get(adjuster_id.strip().upper())
    if adjuster is None:
        raise ToolError(f"adjuster {adjuster_id!r} not found")
    return adjuster


@DOMAIN.tool
def lookup_vehicle_model(db: InsuranceDB, make: str, model: str) -> VehicleModelRate:
    """Find a make and model in the rating catalog: its rating class and per-term class rate.

    Args:
        make: the manufacturer, such as "Subaru".
        model: the model name, such as "Outback".
    """
    for entry in db.vehicle_models.values():
        if entry.make.lower() == make.strip().lower() and entry.model.lower() == model.strip().lower():
            return VehicleModelRate(**entry.model_dump(), class_rate_per_term=R.VEHICLE_CLASS_RATE[entry.vehicle_class])
    raise ToolError(f"{make} {model} is not in the rating catalog; it cannot be rated at this desk")


@DOMAIN.tool
def get_billing_history(db: InsuranceDB, policy_number: PolicyNumber) -> list[BillingTransaction]:
    """List a policy's billing transactions (payments, endorsement charges and credits, refunds), oldest first."""
    policy = _policy(db, policy_number)
    def key(t: BillingTransaction) -> tuple[str, str]:
        return (t.date, t.txn_id)

    txns = sorted(db.billing.where(policy_number=policy.policy_number), key=key)
    if _order_independent(txns, key):
        return txns
    # different transactions tie on the sort key: keep the table's order among them, as always
    txns = [t for t in db.billing.values() if t.policy_number == policy.policy_number]
    return sorted(txns, key=key)


@DOMAIN.tool
def quote_cancellation(db: InsuranceDB, policy_number: PolicyNumber, cancellation_date: ISODate, reason: CancelReason) -> CancellationQuote:
    """Quote a cancellation without making it: earned and unearned premium, the short-rate fee, and the
    refund (or the amount the policyholder would still owe)."""
    policy = _policy(db, policy_number)
    _active(policy)
    return _quote(policy, cancellation_date, reason)


@DOMAIN.tool
def calculate(db: InsuranceDB, expression: Annotated[str, Field(description="numbers, parentheses and + - * /")]) -> str:
    """Evaluate an arithmetic expression; the result is rounded to 2 decimals."""
    return _calculate(expression)


# -- writes -------------------------------------------------------------------------------


@DOMAIN.tool(write=True)
def add_driver(
    db: InsuranceDB,
    policy_number: PolicyNumber,
    first_name: str,
    last_name: str,
    date_of_birth: ISODate,
    license_number: str,
    license_state: Annotated[str, Field(description="two-letter state that issued the license")],
    relationship: Annotated[Literal["spouse", "child", "parent", "other_household"], Field(description="relationship to the named insured")],
) -> Endorsement:
    """Add a licensed household driver to an active auto policy, effective today. The age-band surcharge is
    added to the term premium and its pro-rated share for the rest of the term is billed now."""
    policy = _policy(db, policy_number)
    _active(policy)
    if policy.line != "auto":
        raise ToolError("drivers can only be added to auto policies")
    dob = _date(date_of_birth, "date_of_birth").isoformat()
    age = R.age_on(dob)
    if age < R.MIN_DRIVER_AGE:
        raise ToolError(f"drivers must be at least {R.MIN_DRIVER_AGE}; this driver is {age}")
    if age > 110:
        raise ToolError(f"date of birth {date_of_birth} gives an age of {age}; check the date")
    active = _active_drivers(db, policy)
    if len(active) >= R.MAX_DRIVERS:
        raise ToolError(f"an auto policy can list at most {R.MAX_DRIVERS} active drivers")
    state = license_state.strip().upper()
    if not re.fullmatch(r"[A-Z]{2}", state):
        raise ToolError("license_state must be a two-letter state code")
    lic = license_number.strip().upper()
    if len(lic) < 6 or not lic.isalnum():
        raise ToolError("license_number must be at least 6 letters or digits")
    if any(d.license_number == lic for d in active):
        raise ToolError("a driver with that license number is already on the policy")
    did = f"DRV-{400000 + len(db.drivers) + 1}"
    db.drivers[did] = Driver(
        driver_id=did, policy_number=policy.policy_number, first_name=first_name.strip(), last_name=last_name.strip(),
        date_of_birth=dob, license_number=lic, license_state=state, relationship=relationship, status="active",
        added_on=R.TODAY_ISO,
    )
    policy.driver_ids.append(did)
    surcharge = R.driver_surcharge(age)
    return _endorse(db, policy, "add_driver", f"added driver {did} {first_name.strip()} {last_name.strip()}, age {age}", surcharge)


@DOMAIN.tool(write=True)
def remove_driver(db: InsuranceDB, policy_number: PolicyNumber, driver_id: Annotated[str, Field(description="such as 'DRV-400123'")]) -> Endorsement:
    """Remove a driver from an active auto policy, effective today; the age-band surcharge is credited
    pro-rata for the rest of the term."""
    policy = _policy(db, policy_number)
    _active(policy)
    if driver_id not in policy.driver_ids:
        raise ToolError(f"driver {driver_id!r} is not on policy {policy.policy_number}")
    driver = db.drivers[driver_id]
    if driver.status != "active":
        raise ToolError("that driver was already removed")
    if driver.relationship == "named_insured":
        raise ToolError("the named insured cannot be removed from their own policy")
    driver.status, driver.removed_on = "removed", R.TODAY_ISO
    surcharge = R.driver_surcharge(R.age_on(driver.date_of_birth))
    return _endorse(db, policy, "remove_driver", f"removed driver {driver_id} {driver.first_name} {driver.last_name}", -surcharge)


@DOMAIN.tool(write=True)
def add_vehicle(
    db: InsuranceDB,
    policy_number: PolicyNumber,
    vin: Annotated[str, Field(description="the 17-character vehicle identification number")],
    year: Annotated[int, Field(description="model year")],
    make: str,
    model: str,
) -> Endorsement:
    """Add a vehicle to an active auto policy, effective today, garaged at the policyholder's zip. Its per-term
    rate (class rate plus the policy's per-vehicle collision, comprehensive, rental and roadside premiums) is
    added to the term premium and the pro-rated share is billed now."""
    policy = _policy(db, policy_number)
    _active(policy)
    if policy.line != "auto":
        raise ToolError("vehicles can only be added to auto policies")
    entry = lookup_vehicle_model(db, make, model)
    code = vin.strip().upper()
    if not re.fullmatch(r"[A-HJ-NPR-Z0-9]{17}", code):
        raise ToolError("a VIN has exactly 17 letters and digits (never I, O or Q)")
    if not 1981 <= year <= R.TODAY.year + 1:
        raise ToolError(f"model year {year} is not valid")
    active = _active_vehicles(db, policy)
    if len(active) >= R.MAX_VEHICLES:
        raise ToolError(f"an auto policy can list at most {R.MAX_VEHICLES} active vehicles")
    if any(v.vin == code for v in active):
        raise ToolError("that VIN is already on the policy")
    vid = f"VEH-{200000 + len(db.vehicles) + 1}"
    db.vehicles[vid] = Vehicle(
        vehicle_id=vid, policy_number=policy.policy_number, vin=code, year=year, make=entry.make, model=entry.model,
        vehicle_class=entry.vehicle_class, garaging_zip=db.policyholders[policy.policyholder_id].address.zip,
        status="active", added_on=R.TODAY_ISO,
    )
    policy.vehicle_ids.append(vid)
    rate = _per_vehicle_rate(policy, entry.vehicle_class)
    return _endorse(db, policy, "add_vehicle", f"added {vid} {year} {entry.make} {entry.model} ({entry.vehicle_class})", rate)


@DOMAIN.tool(write=True)
def remove_vehicle(db: InsuranceDB, policy_number: PolicyNumber, vehicle_id: Annotated[str, Field(description="such as 'VEH-200123'")]) -> Endorsement:
    """Remove a vehicle from an active auto policy, effective today; its per-term rate is credited pro-rata."""
    policy = _policy(db, policy_number)
    _active(policy)
    if vehicle_id not in policy.vehicle_ids:
        raise ToolError(f"vehicle {vehicle_id!r} is not on policy {policy.policy_number}")
    vehicle = db.vehicles[vehicle_id]
    if vehicle.status != "active":
        raise ToolError("that vehicle was already removed")
    if len(_active_vehicles(db, policy)) == 1:
        raise ToolError("the last vehicle cannot be removed; the policy would have to be cancelled instead")
    vehicle.status, vehicle.removed_on = "removed", R.TODAY_ISO
    rate = _per_vehicle_rate(policy, vehicle.vehicle_class)
    return _endorse(db, policy, "remove_vehicle", f"removed {vehicle_id} {vehicle.year} {vehicle.make} {vehicle.model}", -rate)


@DOMAIN.tool(write=True)
def change_deductible(
    db: InsuranceDB,
    policy_number: PolicyNumber,
    coverage_code: Annotated[Literal["COLL", "COMP", "DWELL"], Field(description="COLL or COMP on auto; DWELL (the all-peril deductible) on home")],
    new_deductible: int,
) -> Endorsement:
    """Change a deductible on an active policy, effective today. The per-term premium difference (per active
    vehicle on auto) is applied and its pro-rated share billed or credited now."""
    policy = _policy(db, policy_number)
    _active(policy)
    table = {"COLL": R.COLL_DEDUCTIBLE_RATE, "COMP": R.COMP_DEDUCTIBLE_RATE, "DWELL": R.HOME_DEDUCTIBLE_RATE}[coverage_code]
    if (coverage_code == "DWELL") != (policy.line == "home"):
        raise ToolError(f"{coverage_code} is not a deductible of a {policy.line} policy")
    coverage = _coverage(policy, coverage_code)
    if coverage is None:
        raise ToolError(f"policy {policy.policy_number} does not carry {coverage_code}")
    if new_deductible not in table:
        raise ToolError(f"{coverage_code} deductible must be one of {sorted(table)}")
    if new_deductible == coverage.deductible:
        raise ToolError(f"the {coverage_code} deductible is already {new_deductible}")
    units = len(_active_vehicles(db, policy)) if policy.line == "auto" else 1
    change = (table[new_deductible] - table[coverage.deductible]) * units
    old = coverage.deductible
    coverage.deductible = new_deductible
    return _endorse(db, policy, "deductible_change", f"{coverage_code} deductible {old} -> {new_deductible}", change)


@DOMAIN.tool(write=True)
def file_claim(
    db: InsuranceDB,
    policy_number: PolicyNumber,
    loss_type: Annotated[AutoLoss | HomeLoss, Field(description="auto: collision, theft, vandalism, glass, hail, animal_strike, fire, uninsured_motorist; home: fire, wind, hail, lightning, water_damage, water_backup, theft, vandalism, earthquake, flood")],
    date_of_loss: ISODate,
    estimated_amount: Annotated[float, Field(description="the caller's estimate of the loss in dollars")],
    vehicle_id: Annotated[str | None, Field(description="auto claims: the damaged or stolen vehicle's id")] = None,
    police_report_number: Annotated[str | None, Field(description="required for theft and vandalism")] = None,
) -> Claim:
    """File a first notice of loss. Checks the date of loss falls in the policy period, the loss type is
    covered, and the required details are given; the claim opens unassigned with the applicable deductible."""
    policy = _policy(db, policy_number)
    table = R.AUTO_LOSS_COVERAGE if policy.line == "auto" else R.HOME_LOSS_COVERAGE
    if loss_type not in table:
        raise ToolError(f"{loss_type!r} is not a {policy.line} loss type; use one of {sorted(table)}")
    dol = _date(date_of_loss, "date_of_loss")
    if dol > R.TODAY:
        raise ToolError("the date of loss cannot be in the future")
    start, end = date.fromisoformat(policy.effective_date), date.fromisoformat(policy.expiration_date)
    if policy.cancellation is not None:
        end = min(end, date.fromisoformat(policy.cancellation.effective_date))
    if not start <= dol < end:
        raise ToolError(f"the date of loss {dol} is outside the policy period ({policy.effective_date} to {end.isoformat()}); not covered")
    code = table[loss_type]
    coverage = _coverage(policy, code)
    if coverage is None:
        raise ToolError(f"{loss_type} losses fall under {code}, which policy {policy.policy_number} does not carry; not covered")
    if estimated_amount <= 0:
        raise ToolError("estimated_amount must be positive")
    if loss_type in R.POLICE_REPORT_REQUIRED and not (police_report_number or "").strip():
        raise ToolError(f"a police report number is required for {loss_type} claims")
    property_id = None
    if policy.line == "auto":
        if vehicle_id is None or vehicle_id not in policy.vehicle_ids:
            raise ToolError("auto claims need the vehicle_id of a vehicle on this policy")
        vehicle = db.vehicles[vehicle_id]
        if vehicle.added_on > dol.isoformat() or (vehicle.removed_on is not None and vehicle.removed_on <= dol.isoformat()):
            raise ToolError(f"vehicle {vehicle_id} was not on the policy on {dol}")
        deductible = coverage.deductible or 0
    else:
        if vehicle_id is not None:
            raise ToolError("home claims take no vehicle_id")
        property_id = policy.property_id
        deductible = coverage.deductible if code == "EQ" else _coverage(policy, "DWELL").deductible
    same = (policy.policy_number, dol.isoformat(), loss_type, vehicle_id)
    dupes = {other.claim_id for other in db.claims.where(policy_number=same[0], date_of_loss=same[1], loss_type=same[2],
                                                        vehicle_id=same[3]) if other.status != "withdrawn"}
    if len(dupes) == 1:  # the message does not depend on the order of the matches
        raise ToolError(f"this loss is already reported as claim {dupes.pop()}")
    if dupes:  # several claims match: name the first in table order, as always
        for other in db.claims.values():
            if (other.policy_number, other.date_of_loss, other.loss_type, other.vehicle_id) == same and other.status != "withdrawn":
                raise ToolError(f"this loss is already reported as claim {other.claim_id}")
    limit = coverage.limit_per_occurrence or estimated_amount
    payout = round(max(0.0, min(estimated_amount - deductible, limit)), 2)
    cid = f"CLM-{100000 + len(db.claims) + 1}"
    claim = Claim(
        claim_id=cid, policy_number=policy.policy_number, line=policy.line, loss_type=loss_type, coverage_code=code,
        date_of_loss=dol.isoformat(), reported_date=R.TODAY_ISO, status="open", estimated_amount=round(estimated_amount, 2),
        deductible=deductible, estimated_payout=payout, paid_amount=0.0, vehicle_id=vehicle_id, property_id=property_id,
        police_report_number=police_report_number.strip() if police_report_number else None,
    )
    db.claims[cid] = claim
    return claim


@DOMAIN.tool(write=True)
def withdraw_claim(db: InsuranceDB, claim_id: Annotated[str, Field(description="such as 'CLM-100123'")]) -> Claim:
    """Withdraw an open claim at the policyholder's request (only open claims with nothing paid)."""
    claim = db.claims.get(claim_id.strip().upper())
    if claim is None:
        raise ToolError(f"claim {claim_id!r} not found")
    if claim.status != "open" or claim.paid_amount > 0:
        raise ToolError(f"claim {claim.claim_id} is {claim.status}; only open claims with no payment can be withdrawn")
    claim.status = "withdrawn"
    return claim


@DOMAIN.tool(write=True)
def cancel_policy(db: InsuranceDB, policy_number: PolicyNumber, cancellation_date: ISODate, reason: CancelReason) -> Policy:
    """Cancel an active policy as of a date (today or later, before expiration). Refunds the paid premium
    minus the earned premium and the short-rate fee (or records the balance still owed)."""
    policy = _policy(db, policy_number)
    _active(policy)
    quote = _quote(policy, cancellation_date, reason)
    policy.status = "cancelled"
    policy.cancellation = Cancellation(
        effective_date=quote.cancellation_date, reason=reason, earned_premium=quote.earned_premium,
        unearned_premium=quote.unearned_premium, short_rate_fee=quote.short_rate_fee,
        refund_amount=quote.refund_amount, amount_due=quote.amount_due,
    )
    if quote.refund_amount > 0:
        _bill(db, policy.policy_number, "cancellation_refund", -quote.refund_amount, f"refund on cancellation ({reason})")
    elif quote.amount_due > 0:
        _bill(db, policy.policy_number, "cancellation_balance_due", quote.amount_due, f"balance due on cancellation ({reason})")
    return policy


@DOMAIN.tool(write=True)
def update_contact_info(
    db: InsuranceDB,
    policyholder_id: Annotated[str, Field(description="such as 'PH-100123'")],
    email: Annotated[str | None, Field(description="new email address, or omit to keep")] = None,
    phone: Annotated[str | None, Field(description="new phone as NNN-NNN-NNNN, or omit to keep")] = None,
) -> Policyholder:
    """Update a policyholder's email address and/or phone number."""
    holder = db.policyholders.get(policyholder_id.strip())
    if holder is None:
        raise ToolError(f"policyholder {policyholder_id!r} not found")
    if email is None and phone is None:
        raise ToolError("give a new email, a new phone, or both")
    if email is not None:
        if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}", email.strip()):
            raise ToolError(f"{email!r} is not a valid email address")
        holder.email = email.strip().lower()
    if phone is not None:
        if not re.fullmatch(r"\d{3}-\d{3}-\d{4}", phone.strip()):
            raise ToolError("phone must look like 503-555-0142")
        holder.phone = phone.strip()
    return holder


@DOMAIN.tool(transfer=True)
def transfer_to_human_agents(db: InsuranceDB, summary: Annotated[str, Field(description="a short summary of the caller's issue")]) -> str:
    """Transfer the caller to a licensed human agent or claims specialist, with a summary of the issue."""
    return "Transfer successful"
