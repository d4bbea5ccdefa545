"""Harborline Mutual's policyholder desk (auto and home): tools over the insurance DB.

The tools refuse only what the data makes impossible (no such record, not on this policy,
already removed, no rate for that value). Every business rule of the policy (who may be
added, when a deductible may be lowered, what the desk may file or cancel) is the agent's
to apply; the quote tools give the figures the agent must state before a change.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from pytest_tau import Domain, ToolError
from pytest_tau.invariants import (
    area_codes_valid,
    cents,
    not_after_now,
    ordered,
    plausible_age,
    vins_valid,
    zip_matches_state,
)
from tests_domains.insurance import rating as R
from tests_domains.insurance.schema import (
    Adjuster,
    AutoLoss,
    BillingTransaction,
    Cancellation,
    CancelReason,
    Claim,
    Coverage,
    Driver,
    Endorsement,
    HomeLoss,
    InsuranceDB,
    Policy,
    Policyholder,
    Property,
    Vehicle,
)

DOMAIN = Domain("insurance", InsuranceDB, now=datetime(2026, 5, 15, 14, 0))

PolicyNumber = Annotated[str, Field(description="the policy number, such as 'HMA-1234567' (auto) or 'HMH-7654321' (home)")]
ISODate = Annotated[str, Field(description="a date as YYYY-MM-DD")]
DriverId = Annotated[str, Field(description="the driver's id from list_drivers, such as 'DRV-400123'")]
VehicleId = Annotated[str, Field(description="the vehicle's id from list_vehicles, such as 'VEH-200123'")]
DeductibleCode = Annotated[
    Literal["COLL", "COMP", "DWELL"], Field(description="COLL or COMP on auto; DWELL (the all-peril deductible) on home")
]
Relationship = Annotated[
    Literal["spouse", "child", "parent", "other_household"], Field(description="relationship to the named insured")
]


class PolicyDetails(Policy):
    days_in_term: int
    days_remaining: int


class VehicleModelRate(BaseModel):
    model_id: str
    make: str
    model: str
    vehicle_class: str
    class_rate_per_term: float


class ChangeQuote(BaseModel):
    """What a mid-term change would cost (positive) or credit (negative); nothing is changed."""

    policy_number: str
    change: str
    term_premium_change: float
    prorated_change: float
    days_in_term: int
    days_remaining: int
    new_term_premium: float


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


def _coverage(policy: Policy, code: str) -> Coverage | None:
    return next((cov for cov in policy.coverages if cov.code == code), None)


def _active_vehicles(db: InsuranceDB, policy: Policy) -> list[Vehicle]:
    return [v for v in db.vehicles.where(policy_number=policy.policy_number) if v.status == "active"]


def _auto(policy: Policy, what: str) -> None:
    if policy.line != "auto":
        raise ToolError(f"policy {policy.policy_number} is a home policy; it has no {what}")


def _term_days(policy: Policy) -> tuple[int, int]:
    start, end = date.fromisoformat(policy.effective_date), date.fromisoformat(policy.expiration_date)
    return (end - start).days, max(0, (end - DOMAIN.today).days)


def _quote_change(policy: Policy, change: str, term_change: float) -> ChangeQuote:
    days, remaining = _term_days(policy)
    return ChangeQuote(
        policy_number=policy.policy_number,
        change=change,
        term_premium_change=round(term_change, 2),
        prorated_change=R.prorate(term_change, policy.effective_date, policy.expiration_date, DOMAIN.today),
        days_in_term=days,
        days_remaining=remaining,
        new_term_premium=round(policy.term_premium + term_change, 2),
    )


def _per_vehicle_rate(policy: Policy, vehicle_class: str) -> float:
    """Per-term premium one vehicle adds: its class rate plus the per-vehicle coverages."""
    rate = R.VEHICLE_CLASS_RATE[vehicle_class]
    coll, comp = _coverage(policy, "COLL"), _coverage(policy, "COMP")
    if coll is not None and coll.deductible is not None:
        rate += R.COLL_DEDUCTIBLE_RATE[coll.deductible]
    if comp is not None and comp.deductible is not None:
        rate += R.COMP_DEDUCTIBLE_RATE[comp.deductible]
    if _coverage(policy, "RENT") is not None:
        rate += 21.0
    if _coverage(policy, "ROAD") is not None:
        rate += 9.0
    return rate


def _bill(db: InsuranceDB, policy_number: str, kind: str, amount: float, memo: str) -> None:
    key = db.billing.new_key("TXN-", policy_number, kind, memo)
    db.billing[key] = BillingTransaction(
        txn_id=key, policy_number=policy_number, date=DOMAIN.today.isoformat(), kind=kind, amount=round(amount, 2), memo=memo
    )


def _endorse(db: InsuranceDB, policy: Policy, change_type: str, detail: str, term_change: float) -> Endorsement:
    quote = _quote_change(policy, detail, term_change)
    key = db.endorsements.new_key("END-", policy.policy_number, change_type, detail)
    endorsement = Endorsement(
        endorsement_id=key,
        policy_number=policy.policy_number,
        effective_date=DOMAIN.today.isoformat(),
        change_type=change_type,
        detail=detail,
        term_premium_change=quote.term_premium_change,
        prorated_change=quote.prorated_change,
    )
    db.endorsements[key] = endorsement
    policy.term_premium = quote.new_term_premium
    kind = "endorsement_charge" if quote.prorated_change >= 0 else "endorsement_credit"
    _bill(db, policy.policy_number, kind, quote.prorated_change, f"endorsement {key}")
    return endorsement


def _driver_of(db: InsuranceDB, policy: Policy, driver_id: str) -> Driver:
    driver = db.drivers.require(driver_id)
    if driver.policy_number != policy.policy_number:
        raise ToolError(f"driver {driver.driver_id} is not on policy {policy.policy_number}")
    if driver.status != "active":
        raise ToolError(f"driver {driver.driver_id} was already removed on {driver.removed_on}")
    return driver


def _vehicle_of(db: InsuranceDB, policy: Policy, vehicle_id: str) -> Vehicle:
    vehicle = db.vehicles.require(vehicle_id)
    if vehicle.policy_number != policy.policy_number:
        raise ToolError(f"vehicle {vehicle.vehicle_id} is not on policy {policy.policy_number}")
    if vehicle.status != "active":
        raise ToolError(f"vehicle {vehicle.vehicle_id} was already removed on {vehicle.removed_on}")
    return vehicle


def _driver_age(date_of_birth: str) -> tuple[str, int]:
    born = _date(date_of_birth, "date_of_birth")
    if born > DOMAIN.today:
        raise ToolError(f"date of birth {born} is in the future")
    age = R.age_on(born.isoformat(), DOMAIN.today)
    if age > 110:
        raise ToolError(f"date of birth {born} gives an age of {age}; check the date")
    return born.isoformat(), age


def _catalog(db: InsuranceDB, make: str, model: str) -> VehicleModelRate:
    found = db.vehicle_models.find(make=make, model=model)
    if not found:
        raise ToolError(f"{make} {model} is not in the rating catalog")
    entry = found[0]
    return VehicleModelRate(**entry.model_dump(), class_rate_per_term=R.VEHICLE_CLASS_RATE[entry.vehicle_class])


def _deductible_change(db: InsuranceDB, policy: Policy, code: str, new_deductible: int) -> tuple[Coverage, float]:
    """The coverage whose deductible changes and the per-term premium change."""
    table = {"COLL": R.COLL_DEDUCTIBLE_RATE, "COMP": R.COMP_DEDUCTIBLE_RATE, "DWELL": R.HOME_DEDUCTIBLE_RATE}[code]
    if (code == "DWELL") != (policy.line == "home"):
        raise ToolError(f"{code} is not a deductible of a {policy.line} policy")
    coverage = _coverage(policy, code)
    if coverage is None or coverage.deductible is None:
        raise ToolError(f"policy {policy.policy_number} does not carry {code}")
    if new_deductible not in table:
        raise ToolError(f"there is no {code} rate for a ${new_deductible:,} deductible; rated values: {sorted(table)}")
    if new_deductible == coverage.deductible:
        raise ToolError(f"the {code} deductible is already {new_deductible}")
    units = len(_active_vehicles(db, policy)) if policy.line == "auto" else 1
    return coverage, (table[new_deductible] - table[coverage.deductible]) * units


def _cancellation(policy: Policy, cancellation_date: str, reason: str) -> CancellationQuote:
    if policy.status != "active":
        raise ToolError(f"policy {policy.policy_number} is already {policy.status}")
    day = _date(cancellation_date, "cancellation_date")
    start, end = date.fromisoformat(policy.effective_date), date.fromisoformat(policy.expiration_date)
    if not start <= day < end:
        raise ToolError(f"the cancellation date must fall in the policy term ({policy.effective_date} to {policy.expiration_date})")
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


# -- authentication and lookups -------------------------------------------------------


@DOMAIN.tool(authenticates=True)
def find_policyholder_by_policy_number(db: InsuranceDB, policy_number: PolicyNumber, date_of_birth: ISODate) -> Policyholder:
    """Authenticate a caller by a policy number and the policyholder's date of birth; returns the policyholder."""
    policy = db.policies.require(policy_number)
    holder = db.policyholders.require(policy.policyholder_id)
    if holder.date_of_birth != _date(date_of_birth, "date_of_birth").isoformat():
        raise ToolError("the policy number and date of birth do not match our records")
    return holder


@DOMAIN.tool(authenticates=True)
def find_policyholder_by_name_zip(
    db: InsuranceDB,
    first_name: str,
    last_name: str,
    zip: Annotated[str, Field(description="the 5-digit zip code of the policyholder's mailing address")],
    date_of_birth: ISODate,
) -> Policyholder:
    """Authenticate a caller by full name, mailing zip code and date of birth; returns the policyholder."""
    dob = _date(date_of_birth, "date_of_birth").isoformat()
    found = [
        holder
        for holder in db.policyholders.find(date_of_birth=dob, first_name=first_name, last_name=last_name)
        if holder.address.zip == zip.strip()
    ]
    if not found:
        raise ToolError("no policyholder matches that name, zip code and date of birth")
    return found[0]


@DOMAIN.tool
def get_policyholder(db: InsuranceDB, policyholder_id: Annotated[str, Field(description="such as 'PH-100123'")]) -> Policyholder:
    """Return a policyholder's contact details and policy numbers."""
    return db.policyholders.require(policyholder_id)


@DOMAIN.tool
def get_policy(db: InsuranceDB, policy_number: PolicyNumber) -> PolicyDetails:
    """Return a policy: status, term dates, premium, payment plan, coverages with limits and deductibles,
    discounts, vehicle/driver ids or property id, cancellation details, and the days in the term and days
    remaining in the term as of today."""
    policy = db.policies.require(policy_number)
    days, remaining = _term_days(policy)
    return PolicyDetails(**policy.model_dump(), days_in_term=days, days_remaining=remaining if policy.status == "active" else 0)


@DOMAIN.tool
def list_vehicles(db: InsuranceDB, policy_number: PolicyNumber) -> list[Vehicle]:
    """List the vehicles on an auto policy (active and removed), with their rating class."""
    policy = db.policies.require(policy_number)
    return sorted(db.vehicles.where(policy_number=policy.policy_number), key=lambda v: (v.added_on, v.vehicle_id))


@DOMAIN.tool
def list_drivers(db: InsuranceDB, policy_number: PolicyNumber) -> list[Driver]:
    """List the drivers on an auto policy (active and removed), with dates of birth and relationship."""
    policy = db.policies.require(policy_number)
    return sorted(db.drivers.where(policy_number=policy.policy_number), key=lambda d: (d.added_on, d.driver_id))


@DOMAIN.tool
def get_property(db: InsuranceDB, property_id: Annotated[str, Field(description="such as 'PRP-600123'")]) -> Property:
    """Return the insured property of a home policy."""
    return db.properties.require(property_id)


@DOMAIN.tool
def list_claims(db: InsuranceDB, policy_number: PolicyNumber) -> list[Claim]:
    """List every claim filed on a policy, oldest loss first, with each claim's status."""
    policy = db.policies.require(policy_number)
    return sorted(db.claims.where(policy_number=policy.policy_number), key=lambda c: (c.date_of_loss, c.claim_id))


@DOMAIN.tool
def get_claim(db: InsuranceDB, claim_id: Annotated[str, Field(description="the claim number, such as 'CLM-100123'")]) -> Claim:
    """Return a claim's status, amounts, deductible and assigned adjuster id."""
    return db.claims.require(claim_id)


@DOMAIN.tool
def get_adjuster(db: InsuranceDB, adjuster_id: Annotated[str, Field(description="such as 'ADJ-301'")]) -> Adjuster:
    """Return a claims adjuster's name, unit and direct contact details."""
    return db.adjusters.require(adjuster_id)


@DOMAIN.tool
def lookup_vehicle_model(db: InsuranceDB, make: str, model: str) -> VehicleModelRate:
    """Find a make and model in the rating catalog: its rating class and per-term class rate.

    Args:
        make: the manufacturer, such as "Subaru".
        model: the model name, such as "Outback".
    """
    return _catalog(db, make, model)


@DOMAIN.tool
def get_billing_history(db: InsuranceDB, policy_number: PolicyNumber) -> list[BillingTransaction]:
    """List a policy's billing transactions (payments, endorsement charges and credits, refunds), oldest first."""
    policy = db.policies.require(policy_number)
    return sorted(db.billing.where(policy_number=policy.policy_number), key=lambda t: (t.date, t.txn_id))


# -- quotes: the figures to state before a change; nothing is changed -------------------------


@DOMAIN.tool
def quote_add_driver(db: InsuranceDB, policy_number: PolicyNumber, date_of_birth: ISODate) -> ChangeQuote:
    """Quote adding a driver born on that date to an auto policy today: the per-term surcharge and the
    pro-rated amount billed now for the rest of the term. Changes nothing."""
    policy = db.policies.require(policy_number)
    _auto(policy, "drivers")
    _, age = _driver_age(date_of_birth)
    return _quote_change(policy, f"add a driver aged {age}", R.driver_surcharge(age))


@DOMAIN.tool
def quote_remove_driver(db: InsuranceDB, policy_number: PolicyNumber, driver_id: DriverId) -> ChangeQuote:
    """Quote removing a driver from an auto policy today: the per-term credit and the pro-rated credit for the
    rest of the term (negative figures are credits). Changes nothing."""
    policy = db.policies.require(policy_number)
    driver = _driver_of(db, policy, driver_id)
    age = R.age_on(driver.date_of_birth, DOMAIN.today)
    return _quote_change(policy, f"remove driver {driver.driver_id}", -R.driver_surcharge(age))


@DOMAIN.tool
def quote_add_vehicle(db: InsuranceDB, policy_number: PolicyNumber, make: str, model: str) -> ChangeQuote:
    """Quote adding a vehicle of that make and model to an auto policy today: its per-term rate (class rate plus
    the policy's per-vehicle collision, comprehensive, rental and roadside premiums) and the pro-rated amount
    billed now. Changes nothing."""
    policy = db.policies.require(policy_number)
    _auto(policy, "vehicles")
    entry = _catalog(db, make, model)
    return _quote_change(policy, f"add a {entry.make} {entry.model} ({entry.vehicle_class})", _per_vehicle_rate(policy, entry.vehicle_class))


@DOMAIN.tool
def quote_remove_vehicle(db: InsuranceDB, policy_number: PolicyNumber, vehicle_id: VehicleId) -> ChangeQuote:
    """Quote removing a vehicle from an auto policy today: the per-term credit and the pro-rated credit for the
    rest of the term (negative figures are credits). Changes nothing."""
    policy = db.policies.require(policy_number)
    vehicle = _vehicle_of(db, policy, vehicle_id)
    return _quote_change(policy, f"remove vehicle {vehicle.vehicle_id}", -_per_vehicle_rate(policy, vehicle.vehicle_class))


@DOMAIN.tool
def quote_deductible_change(db: InsuranceDB, policy_number: PolicyNumber, coverage_code: DeductibleCode, new_deductible: int) -> ChangeQuote:
    """Quote changing a deductible today: the per-term premium change (per active vehicle on auto) and the
    pro-rated amount billed (positive) or credited (negative) now. Changes nothing."""
    policy = db.policies.require(policy_number)
    coverage, change = _deductible_change(db, policy, coverage_code, new_deductible)
    return _quote_change(policy, f"{coverage_code} deductible {coverage.deductible} -> {new_deductible}", change)


@DOMAIN.tool
def quote_cancellation(db: InsuranceDB, policy_number: PolicyNumber, cancellation_date: ISODate, reason: CancelReason) -> CancellationQuote:
    """Quote a cancellation without making it: earned and unearned premium, the short-rate fee, and the
    refund (or the amount the policyholder would still owe)."""
    return _cancellation(db.policies.require(policy_number), cancellation_date, reason)


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
    relationship: Relationship,
) -> Endorsement:
    """Add a driver to an auto policy, effective today. The age-band surcharge is added to the term premium
    and its pro-rated share for the rest of the term is billed now."""
    policy = db.policies.require(policy_number)
    _auto(policy, "drivers")
    dob, age = _driver_age(date_of_birth)
    state = license_state.strip().upper()
    if not re.fullmatch(r"[A-Z]{2}", state):
        raise ToolError("license_state must be a two-letter state code")
    lic = license_number.strip().upper()
    if len(lic) < 6 or not lic.isalnum():
        raise ToolError("license_number must be at least 6 letters or digits")
    listed = db.drivers.where(policy_number=policy.policy_number, license_number=lic)
    if any(d.status == "active" for d in listed):
        raise ToolError("a driver with that license number is already on the policy")
    key = db.drivers.new_key("DRV-", policy.policy_number, lic)
    first, last = first_name.strip(), last_name.strip()
    db.drivers[key] = Driver(
        driver_id=key, policy_number=policy.policy_number, first_name=first, last_name=last, date_of_birth=dob,
        license_number=lic, license_state=state, relationship=relationship, status="active", added_on=DOMAIN.today.isoformat(),
    )
    policy.driver_ids.append(key)
    # The endorsement names the driver by id: the name is on the driver record, as the caller spelled it.
    return _endorse(db, policy, "add_driver", f"added driver {key}, age {age}", R.driver_surcharge(age))


@DOMAIN.tool(write=True)
def remove_driver(db: InsuranceDB, policy_number: PolicyNumber, driver_id: DriverId) -> Endorsement:
    """Remove a driver from an auto policy, effective today; the age-band surcharge is credited pro-rata for
    the rest of the term."""
    policy = db.policies.require(policy_number)
    driver = db.drivers[_driver_of(db, policy, driver_id).driver_id]
    driver.status, driver.removed_on = "removed", DOMAIN.today.isoformat()
    surcharge = R.driver_surcharge(R.age_on(driver.date_of_birth, DOMAIN.today))
    return _endorse(db, policy, "remove_driver", f"removed driver {driver.driver_id} {driver.first_name} {driver.last_name}", -surcharge)


@DOMAIN.tool(write=True)
def add_vehicle(
    db: InsuranceDB,
    policy_number: PolicyNumber,
    vin: Annotated[str, Field(description="the 17-character vehicle identification number")],
    year: Annotated[int, Field(description="model year")],
    make: str,
    model: str,
) -> Endorsement:
    """Add a vehicle to an auto policy, effective today, garaged at the policyholder's zip. Its per-term rate
    (class rate plus the policy's per-vehicle collision, comprehensive, rental and roadside premiums) is
    added to the term premium and the pro-rated share is billed now."""
    policy = db.policies.require(policy_number)
    _auto(policy, "vehicles")
    entry = _catalog(db, make, model)
    code = vin.strip().upper()
    if not re.fullmatch(r"[A-HJ-NPR-Z0-9]{17}", code):
        raise ToolError("a VIN has exactly 17 letters and digits (never I, O or Q)")
    if not 1981 <= year <= DOMAIN.today.year + 1:
        raise ToolError(f"model year {year} is not a valid model year")
    if any(v.status == "active" for v in db.vehicles.where(policy_number=policy.policy_number, vin=code)):
        raise ToolError("that VIN is already on the policy")
    key = db.vehicles.new_key("VEH-", policy.policy_number, code)
    db.vehicles[key] = Vehicle(
        vehicle_id=key, policy_number=policy.policy_number, vin=code, year=year, make=entry.make, model=entry.model,
        vehicle_class=entry.vehicle_class,
        garaging_zip=db.policyholders.require(policy.policyholder_id).address.zip,
        status="active", added_on=DOMAIN.today.isoformat(),
    )
    policy.vehicle_ids.append(key)
    rate = _per_vehicle_rate(policy, entry.vehicle_class)
    return _endorse(db, policy, "add_vehicle", f"added {key} {year} {entry.make} {entry.model} ({entry.vehicle_class})", rate)


@DOMAIN.tool(write=True)
def remove_vehicle(db: InsuranceDB, policy_number: PolicyNumber, vehicle_id: VehicleId) -> Endorsement:
    """Remove a vehicle from an auto policy, effective today; its per-term rate is credited pro-rata."""
    policy = db.policies.require(policy_number)
    vehicle = db.vehicles[_vehicle_of(db, policy, vehicle_id).vehicle_id]
    vehicle.status, vehicle.removed_on = "removed", DOMAIN.today.isoformat()
    rate = _per_vehicle_rate(policy, vehicle.vehicle_class)
    return _endorse(db, policy, "remove_vehicle", f"removed {vehicle.vehicle_id} {vehicle.year} {vehicle.make} {vehicle.model}", -rate)


@DOMAIN.tool(write=True)
def change_deductible(db: InsuranceDB, policy_number: PolicyNumber, coverage_code: DeductibleCode, new_deductible: int) -> Endorsement:
    """Change a deductible, effective today. The per-term premium difference (per active vehicle on auto) is
    applied and its pro-rated share billed or credited now."""
    policy = db.policies.require(policy_number)
    coverage, change = _deductible_change(db, policy, coverage_code, new_deductible)
    old, coverage.deductible = coverage.deductible, new_deductible
    return _endorse(db, policy, "deductible_change", f"{coverage_code} deductible {old} -> {new_deductible}", change)


@DOMAIN.tool(write=True)
def file_claim(
    db: InsuranceDB,
    policy_number: PolicyNumber,
    loss_type: Annotated[
        AutoLoss | HomeLoss,
        Field(
            description="auto: collision, theft, vandalism, glass, hail, animal_strike, fire, uninsured_motorist; "
            "home: fire, wind, hail, lightning, water_damage, water_backup, theft, vandalism, earthquake, flood"
        ),
    ],
    date_of_loss: ISODate,
    estimated_amount: Annotated[float, Field(description="the caller's estimate of the loss in dollars")],
    vehicle_id: Annotated[str | None, Field(description="auto claims: the damaged or stolen vehicle's id")] = None,
    police_report_number: Annotated[str | None, Field(description="the police report number, for theft and vandalism")] = None,
) -> Claim:
    """File a first notice of loss. The claim opens unassigned under the coverage the loss type falls under,
    with the deductible that applies and the estimated payout (estimate minus deductible, capped at the limit;
    nothing when the policy does not carry that coverage)."""
    policy = db.policies.require(policy_number)
    table = R.AUTO_LOSS_COVERAGE if policy.line == "auto" else R.HOME_LOSS_COVERAGE
    if loss_type not in table:
        raise ToolError(f"{loss_type!r} is not a {policy.line} loss type; use one of {sorted(table)}")
    dol = _date(date_of_loss, "date_of_loss")
    if dol > DOMAIN.today:
        raise ToolError("the date of loss cannot be in the future")
    if estimated_amount <= 0:
        raise ToolError("estimated_amount must be positive")
    property_id = None
    if policy.line == "auto":
        if vehicle_id is None:
            raise ToolError("auto claims need the vehicle_id of the vehicle involved")
        vehicle_id = db.vehicles.require(vehicle_id).vehicle_id
        if db.vehicles[vehicle_id].policy_number != policy.policy_number:
            raise ToolError(f"vehicle {vehicle_id} is not on policy {policy.policy_number}")
    else:
        if vehicle_id is not None:
            raise ToolError("home claims take no vehicle_id")
        property_id = policy.property_id
    same = [c for c in db.claims.where(policy_number=policy.policy_number, date_of_loss=dol.isoformat(), loss_type=loss_type,
                                       vehicle_id=vehicle_id) if c.status != "withdrawn"]
    if same:
        raise ToolError(f"this loss is already reported as claim {min(c.claim_id for c in same)}")
    code = table[loss_type]
    coverage = _coverage(policy, code)
    if coverage is None:
        deductible, payout = 0, 0.0
    else:
        dwell = _coverage(policy, "DWELL")
        if policy.line == "auto" or code == "EQ":
            deductible = coverage.deductible or 0
        else:
            deductible = (dwell.deductible or 0) if dwell is not None else 0
        limit = coverage.limit_per_occurrence or estimated_amount
        payout = round(max(0.0, min(estimated_amount - deductible, limit)), 2)
    key = db.claims.new_key("CLM-", policy.policy_number, loss_type, dol.isoformat(), vehicle_id)
    report = police_report_number.strip() if police_report_number and police_report_number.strip() else None
    db.claims[key] = Claim(
        claim_id=key, policy_number=policy.policy_number, line=policy.line, loss_type=loss_type, coverage_code=code,
        date_of_loss=dol.isoformat(), reported_date=DOMAIN.today.isoformat(), status="open",
        estimated_amount=round(estimated_amount, 2), deductible=deductible, estimated_payout=payout, paid_amount=0.0,
        vehicle_id=vehicle_id, property_id=property_id, police_report_number=report,
    )
    return db.claims[key]


@DOMAIN.tool(write=True)
def withdraw_claim(db: InsuranceDB, claim_id: Annotated[str, Field(description="the claim number, such as 'CLM-100123'")]) -> Claim:
    """Withdraw a claim at the policyholder's request."""
    claim = db.claims[db.claims.require(claim_id).claim_id]
    if claim.status == "withdrawn":
        raise ToolError(f"claim {claim.claim_id} is already withdrawn")
    claim.status = "withdrawn"
    return claim


@DOMAIN.tool(write=True)
def cancel_policy(db: InsuranceDB, policy_number: PolicyNumber, cancellation_date: ISODate, reason: CancelReason) -> Policy:
    """Cancel a policy as of a date within its term. Refunds the paid premium minus the earned premium and the
    short-rate fee (or records the balance still owed)."""
    policy = db.policies.require(policy_number)
    quote = _cancellation(policy, cancellation_date, reason)
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
    holder = db.policyholders.require(policyholder_id)
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


# Policy 7.4: a loss takes the deductible in force on its date of loss, so a claim is filed before a
# deductible change made in the same call (the tools apply the deductible on file when the claim is filed).
DOMAIN.order("file_claim", "change_deductible")
# 2.2: every premium change, refund and fee is quoted before the change is made; 8.3: the coverage is checked
# before a claim is filed; 11.1 and 9.4: the policy's claims are looked up before a cancellation.
DOMAIN.order("quote_add_driver", "add_driver")
DOMAIN.order("quote_remove_driver", "remove_driver")
DOMAIN.order("quote_add_vehicle", "add_vehicle")
DOMAIN.order("quote_remove_vehicle", "remove_vehicle")
DOMAIN.order("quote_deductible_change", "change_deductible")
DOMAIN.order("quote_cancellation", "cancel_policy")
DOMAIN.order("get_policy", "file_claim")
DOMAIN.order("list_claims", "cancel_policy")


# -- data invariants: the clock, ages, places and money the policy relies on -------------------
# The financial-responsibility minimums of the five states (bodily injury per person / per accident, property
# damage) and the personal injury protection Oregon and Utah require on every auto policy.
STATE_MINIMUMS = {"WA": (25000, 50000, 10000), "OR": (25000, 50000, 20000), "ID": (25000, 50000, 15000),
                  "MT": (25000, 50000, 20000), "UT": (25000, 65000, 15000)}
PIP_REQUIRED = {"OR": 15000, "UT": 3000}


@DOMAIN.invariant
def state_minimums(db: InsuranceDB, now: datetime) -> Iterator[str]:
    """policies: every auto policy carries its state's liability minimums, and PIP where the state requires it."""
    for number, policy in db.policies.items():
        if policy.line != "auto":
            continue
        state = db.policyholders[policy.policyholder_id].address.state
        covs = {c.code: c for c in policy.coverages}
        per_person, per_accident, damage = STATE_MINIMUMS[state]
        bi, pd = covs["BI"], covs["PD"]
        if (bi.limit_per_person or 0) < per_person or (bi.limit_per_occurrence or 0) < per_accident:
            yield f"policies[{number!r}]: BI {bi.limit_per_person}/{bi.limit_per_occurrence} is below {state}'s {per_person}/{per_accident}"
        if (pd.limit_per_occurrence or 0) < damage:
            yield f"policies[{number!r}]: PD {pd.limit_per_occurrence} is below {state}'s {damage}"
        pip = covs["PIP"].limit_per_person or 0 if "PIP" in covs else 0
        if state in PIP_REQUIRED and pip < PIP_REQUIRED[state]:
            yield f"policies[{number!r}]: {state} requires personal injury protection of at least {PIP_REQUIRED[state]}"


@DOMAIN.invariant
def claims_while_on_policy(db: InsuranceDB, now: datetime) -> Iterator[str]:
    """claims: an auto loss happened while its vehicle was on the policy, which had a vehicle from its first day"""
    for key, claim in db.claims.items():
        if claim.vehicle_id is None:
            continue
        vehicle = db.vehicles.require(claim.vehicle_id)
        if claim.date_of_loss < vehicle.added_on or (vehicle.removed_on and claim.date_of_loss > vehicle.removed_on):
            yield f"claims[{key!r}]: loss of {claim.date_of_loss} on {vehicle.vehicle_id}, on the policy from {vehicle.added_on}"
    for number, policy in db.policies.items():
        if policy.line == "auto" and not any(db.vehicles.require(v).added_on <= policy.effective_date for v in policy.vehicle_ids):
            yield f"policies[{number!r}]: no vehicle from its effective date {policy.effective_date}"


@DOMAIN.invariant
def model_years_on_sale(db: InsuranceDB, now: datetime) -> Iterator[str]:
    """vehicles: a vehicle's model year was on sale when it joined the policy (the next year's models from July)"""
    for key, vehicle in db.vehicles.items():
        added = date.fromisoformat(vehicle.added_on)
        if vehicle.year > added.year + (added.month >= 7):
            yield f"vehicles[{key!r}]: a {vehicle.year} {vehicle.make} {vehicle.model} added on {vehicle.added_on}"


DOMAIN.invariants(
    vins_valid("vehicles", "vin"),
    plausible_age("policyholders", "date_of_birth", low=18, high=105),
    plausible_age("policyholders", "date_of_birth", at="member_since", low=18),
    ordered("policies", "member_since", "effective_date", via=("policyholder_id", "policyholders")),
    plausible_age("drivers", "date_of_birth", low=15, high=100),
    not_after_now("policyholders", "member_since"),
    ordered("policies", "effective_date", "expiration_date", strict=True),
    not_after_now("vehicles", "added_on"),
    not_after_now("drivers", "added_on"),
    not_after_now("claims", "date_of_loss"),
    not_after_now("claims", "reported_date"),
    ordered("claims", "date_of_loss", "reported_date"),
    not_after_now("billing", "date"),
    area_codes_valid("policyholders", "phone"),
    area_codes_valid("adjusters", "phone"),
    zip_matches_state("policyholders", "address.zip", "address.state"),
    cents("billing", "amount"),
)
