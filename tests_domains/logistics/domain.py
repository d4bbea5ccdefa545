"""Meridian Parcel, the shipper desk: shipments and their tracking timelines, address changes,
redelivery after failed attempts, service-level upgrades, delivery-guarantee refunds, damage
claims, and warehouse inventory adjustments with incident reports. The policy fixes the current
time: Wednesday 2026-06-10 10:00.

The tools refuse only what the data makes impossible (no such record, not this shipper's, a
parcel already delivered, more units than the bin holds). The policy's rules (which stage allows
what, deadlines, caps, credit holds, who decides) are the agent's to apply. Every figure the
shipper must hear comes from a quote tool.
"""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import area_codes_valid, cents, half_up, no_typos, not_after_now, ordered
from tests_domains.logistics.schema import (
    Address,
    Charge,
    Claim,
    Incident,
    InventoryBin,
    LogisticsDB,
    ServiceLevel,
    Shipment,
    Shipper,
    TrackingEvent,
    Warehouse,
    WriteOff,
)

DOMAIN = Domain("logistics", LogisticsDB, now=datetime(2026, 6, 10, 10, 0))

BASE_LIABILITY = 100.0  # what a shipment with no declared value is covered for
FACILITY_HOLD_DAYS = 5

ShipperId = Annotated[str, Field(description="the shipper account id, e.g. 'SH40213' (from find_shipper)")]
Tracking = Annotated[str, Field(description="the tracking number, e.g. 'MP4820193377'")]
BinId = Annotated[str, Field(description="an inventory bin id, e.g. 'PDX-C14-3' (from list_inventory)")]
ServiceCode = Annotated[
    Literal["ECONOMY", "GROUND", "EXPRESS2", "OVERNIGHT"], Field(description="a service level code (see list_service_levels)")
]
CLOSED = ("delivered", "returning")


class NewAddress(BaseModel):
    """A delivery address in the United States."""

    model_config = ConfigDict(extra="forbid")
    street: Annotated[str, Field(description="street number and name, e.g. '418 Cedar St'")]
    city: str
    state: Annotated[str, Field(description="two-letter state code, e.g. 'OR'")]
    zip: Annotated[str, Field(description="5-digit ZIP code")]


# -- helpers ---------------------------------------------------------------------------
def _money(value: float) -> float:
    """An amount in cents, half a cent up as on a tariff (round() on floats takes 50.785 down)."""
    return float(half_up(value))


def _today() -> date:
    return DOMAIN.today


def _stamp() -> str:
    return DOMAIN.now.strftime("%Y-%m-%dT%H:%M")


def _bday_add(d: date, n: int) -> date:
    while n > 0:
        d += timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d


def _facility(db: LogisticsDB, shipment: Shipment) -> Warehouse:
    return db.warehouses.require(shipment.destination_facility_id)


def _event(db: LogisticsDB, shipment: Shipment, code: Any, detail: str) -> None:
    fac = _facility(db, shipment)
    shipment.events.append(TrackingEvent(at=_stamp(), code=code, location=f"{fac.city}, {fac.state}", detail=detail))


def _charge(db: LogisticsDB, shipper_id: str, tracking: str | None, kind: Any, amount: float, description: str, tag: str) -> Charge:
    charge_id = db.charges.new_key("CH", shipper_id, tracking or "", kind, tag)
    charge = Charge(charge_id=charge_id, shipper_id=shipper_id, tracking_number=tracking, kind=kind, amount=_money(amount),
                    date=_today().isoformat(), description=description)
    db.charges[charge_id] = charge
    return charge


def _clean_address(address: NewAddress) -> Address:
    state = address.state.strip().upper()
    zip_code = address.zip.strip()
    if len(state) != 2 or not state.isalpha():
        raise ToolError(f"{address.state!r} is not a two-letter state code")
    if len(zip_code) != 5 or not zip_code.isdigit():
        raise ToolError(f"{address.zip!r} is not a 5-digit ZIP code")
    if not address.street.strip() or not address.city.strip():
        raise ToolError("the street and city must not be empty")
    return Address(street=" ".join(address.street.split()), city=" ".join(address.city.split()), state=state, zip=zip_code)


def _address_fee(db: LogisticsDB, shipment: Shipment, new: Address) -> dict[str, float]:
    if shipment.status in ("label_created", "picked_up"):
        return {"redirect_fee": 0.0, "cross_state_surcharge": 0.0}
    sv = db.service_levels.require(shipment.service_code)
    fee = _money(sv.redirect_base + sv.redirect_per_lb * shipment.weight_lb)
    cross = sv.cross_state_surcharge if new.state != shipment.recipient.state else 0.0
    return {"redirect_fee": fee, "cross_state_surcharge": cross}


def _serving_facility(db: LogisticsDB, state: str) -> Warehouse:
    for wh in sorted(db.warehouses.values(), key=lambda w: w.warehouse_id):
        if wh.state == state:
            return wh
    raise ToolError(f"Meridian Parcel does not deliver to {state}")


def _redelivery_fee(db: LogisticsDB, shipment: Shipment, shipper: Shipper) -> float:
    if shipment.delivery_attempts <= 1 or shipper.tier == "preferred":
        return 0.0
    return db.service_levels.require(shipment.service_code).redelivery_fee


def _rate(sv: ServiceLevel, weight: float) -> float:
    return _money(sv.base_rate + sv.rate_per_lb * weight)


def _check_date(value: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except ValueError as error:
        raise ToolError(f"{value!r} is not a date in the form YYYY-MM-DD") from error


def _own_bin(db: LogisticsDB, bin_id: str) -> InventoryBin:
    return db.bins.require(bin_id)


# -- accounts and look-ups -------------------------------------------------------------
@DOMAIN.tool(authenticates=True)
def find_shipper(
    db: LogisticsDB,
    email: Annotated[str, Field(description="the email address on the shipper account")],
    billing_zip: Annotated[str, Field(description="the ZIP code of the account's billing address")],
) -> Shipper:
    """Find a shipper account by the account email and the billing ZIP code. Returns the account,
    with its contact person, tier, standing and any past-due balance."""
    for shipper in db.shippers.find(email=email.strip()):
        if shipper.billing_address.zip == billing_zip.strip():
            return shipper
    raise ToolError("no shipper account matches that email and billing ZIP code")


@DOMAIN.tool
def get_shipper(db: LogisticsDB, shipper_id: ShipperId) -> Shipper:
    """Return a shipper account."""
    return db.shippers.require(shipper_id)


@DOMAIN.tool
def list_shipments(
    db: LogisticsDB,
    shipper_id: ShipperId,
    status: Annotated[
        Literal["label_created", "picked_up", "in_transit", "out_for_delivery", "delivered", "delivery_exception",
                "held_at_facility", "returning"] | None,
        Field(description="only shipments in this status"),
    ] = None,
) -> list[dict[str, Any]]:
    """List a shipper's shipments (newest first): tracking number, the shipper's order reference,
    recipient, service, status, ship and promised dates."""
    shipper = db.shippers.require(shipper_id)
    rows = [s for s in db.shipments.where(shipper_id=shipper.shipper_id) if status is None or s.status == status]
    rows.sort(key=lambda s: (s.ship_date, s.tracking_number), reverse=True)
    return [
        {"tracking_number": s.tracking_number, "reference": s.reference, "recipient_name": s.recipient_name,
         "recipient_city": f"{s.recipient.city}, {s.recipient.state}", "service_code": s.service_code, "status": s.status,
         "ship_date": s.ship_date, "promised_date": s.promised_date, "delivered_on": s.delivered_on}
        for s in rows
    ]


@DOMAIN.tool
def find_shipment_by_reference(
    db: LogisticsDB,
    shipper_id: ShipperId,
    reference: Annotated[str, Field(description="the shipper's own order reference, e.g. 'PO-48213'")],
) -> Shipment:
    """Find one of a shipper's shipments by the shipper's order reference."""
    shipper = db.shippers.require(shipper_id)
    for shipment in db.shipments.find(reference=reference.strip()):
        if shipment.shipper_id == shipper.shipper_id:
            return shipment
    raise ToolError(f"shipper {shipper.shipper_id} has no shipment with reference {reference!r}")


@DOMAIN.tool
def track_shipment(db: LogisticsDB, tracking_number: Tracking) -> Shipment:
    """Return a shipment with its full tracking timeline (oldest scan first), status, delivery
    attempts, facility hold date, declared value and shipping charge."""
    return db.shipments.require(tracking_number.strip())


@DOMAIN.tool
def list_service_levels(db: LogisticsDB) -> list[ServiceLevel]:
    """List the service levels with their rates and surcharge tables."""
    return sorted(db.service_levels.values(), key=lambda s: s.transit_business_days, reverse=True)


@DOMAIN.tool
def get_warehouse(db: LogisticsDB, warehouse_id: Annotated[str, Field(description="a warehouse id, e.g. 'WH-PDX'")]) -> Warehouse:
    """Return a warehouse / delivery facility: address, phone and pickup hours."""
    return db.warehouses.require(warehouse_id)


@DOMAIN.tool
def list_charges(db: LogisticsDB, shipper_id: ShipperId, tracking_number: Annotated[str | None, Field(description="only charges of this shipment")] = None) -> list[Charge]:
    """List a shipper's charges and credits (credits are negative), newest first."""
    shipper = db.shippers.require(shipper_id)
    rows = [c for c in db.charges.where(shipper_id=shipper.shipper_id) if tracking_number is None or c.tracking_number == tracking_number]
    return sorted(rows, key=lambda c: (c.date, c.charge_id), reverse=True)


@DOMAIN.tool
def list_claims(db: LogisticsDB, shipper_id: ShipperId) -> list[Claim]:
    """List a shipper's damage claims."""
    shipper = db.shippers.require(shipper_id)
    return sorted(db.claims.where(shipper_id=shipper.shipper_id), key=lambda c: c.claim_id)


# -- address changes -------------------------------------------------------------------
@DOMAIN.tool
def quote_address_change(db: LogisticsDB, tracking_number: Tracking, new_address: NewAddress) -> dict[str, Any]:
    """Preview changing a shipment's delivery address: the fees it would carry at the shipment's
    current stage, the facility that would deliver it and the new promised date. Changes nothing."""
    shipment = db.shipments.require(tracking_number.strip())
    new = _clean_address(new_address)
    fees = _address_fee(db, shipment, new)
    fac = _serving_facility(db, new.state)
    return {"tracking_number": shipment.tracking_number, "status": shipment.status, **fees,
            "total_fee": _money(sum(fees.values())), "delivering_facility_id": fac.warehouse_id,
            "new_promised_date": max(shipment.promised_date, _bday_add(_today(), 1).isoformat()) if fees["cross_state_surcharge"] == 0
            else max(shipment.promised_date, _bday_add(_today(), 2).isoformat())}


@DOMAIN.tool(write=True)
def change_delivery_address(db: LogisticsDB, tracking_number: Tracking, new_address: NewAddress) -> dict[str, Any]:
    """Change a shipment's delivery address (the recipient stays the same). Any fee the change
    carries at the shipment's stage is billed to the shipper's account."""
    shipment = db.shipments.require(tracking_number.strip())
    if shipment.status in CLOSED:
        raise ToolError(f"shipment {shipment.tracking_number} is {shipment.status}; it can no longer be redirected")
    new = _clean_address(new_address)
    quote = quote_address_change(db, shipment.tracking_number, new_address)
    shipment.recipient = new
    shipment.destination_facility_id = quote["delivering_facility_id"]
    shipment.promised_date = quote["new_promised_date"]
    shipment.address_changes += 1
    if shipment.status in ("delivery_exception", "held_at_facility"):
        shipment.status, shipment.exception_reason, shipment.hold_until, shipment.redelivery_date = "in_transit", None, None, None
    _event(db, shipment, "address_changed", f"Delivery address changed to {new.city}, {new.state}")
    charge = None
    if quote["total_fee"] > 0:
        charge = _charge(db, shipment.shipper_id, shipment.tracking_number, "address_change", quote["total_fee"],
                         f"Address change to {new.zip}", f"{shipment.address_changes}")
    return {"shipment": shipment, "fee_charged": quote["total_fee"], "charge": charge}


# -- failed deliveries -----------------------------------------------------------------
@DOMAIN.tool
def quote_redelivery(db: LogisticsDB, tracking_number: Tracking) -> dict[str, Any]:
    """Preview a redelivery of a shipment after a failed attempt: which attempt it would be, its
    fee for this shipper, the last day the facility holds the parcel, and the open weekdays before
    then. Changes nothing."""
    shipment = db.shipments.require(tracking_number.strip())
    shipper = db.shippers.require(shipment.shipper_id)
    days = []
    if shipment.hold_until:
        d = _today() + timedelta(days=1)
        while d.isoformat() <= shipment.hold_until:
            if d.weekday() < 5:
                days.append(d.isoformat())
            d += timedelta(days=1)
    return {"tracking_number": shipment.tracking_number, "status": shipment.status,
            "failed_attempts_so_far": shipment.delivery_attempts, "redelivery_would_be_attempt": shipment.delivery_attempts + 1,
            "fee": _redelivery_fee(db, shipment, shipper), "held_at_facility_until": shipment.hold_until,
            "available_weekdays": days}


@DOMAIN.tool(write=True)
def schedule_redelivery(
    db: LogisticsDB, tracking_number: Tracking, redelivery_date: Annotated[str, Field(description="the redelivery date, YYYY-MM-DD")]
) -> dict[str, Any]:
    """Schedule a redelivery of a shipment waiting at its facility after a failed attempt; the
    redelivery fee for this shipper, if any, is billed to the account."""
    shipment = db.shipments.require(tracking_number.strip())
    if shipment.status not in ("delivery_exception", "held_at_facility"):
        raise ToolError(f"shipment {shipment.tracking_number} is {shipment.status}, not waiting at a facility after a failed attempt")
    when = _check_date(redelivery_date)
    if when <= _today():
        raise ToolError("the redelivery date must be after today")
    if when.weekday() >= 5:
        raise ToolError(f"{when.isoformat()} is a weekend day; there are no deliveries on weekends")
    fee = quote_redelivery(db, shipment.tracking_number)["fee"]
    shipment.redelivery_date = when.isoformat()
    _event(db, shipment, "redelivery_scheduled", f"Redelivery scheduled for {when.isoformat()}")
    charge = None
    if fee > 0:
        charge = _charge(db, shipment.shipper_id, shipment.tracking_number, "redelivery", fee,
                         f"Redelivery, attempt {shipment.delivery_attempts + 1}", str(shipment.delivery_attempts + 1))
    return {"shipment": shipment, "fee_charged": fee, "charge": charge}


@DOMAIN.tool(write=True)
def hold_for_pickup(db: LogisticsDB, tracking_number: Tracking) -> dict[str, Any]:
    """Hold a shipment at its delivery facility for the recipient to collect; returns the facility
    and the last pickup day."""
    shipment = db.shipments.require(tracking_number.strip())
    if shipment.status in CLOSED or shipment.status == "held_at_facility":
        raise ToolError(f"shipment {shipment.tracking_number} is {shipment.status}")
    fac = _facility(db, shipment)
    shipment.status = "held_at_facility"
    shipment.exception_reason = None
    shipment.redelivery_date = None
    shipment.hold_until = (_today() + timedelta(days=FACILITY_HOLD_DAYS + 2)).isoformat()
    _event(db, shipment, "held_for_pickup", f"Held for pickup at {fac.name}")
    return {"shipment": shipment, "facility": fac, "pickup_by": shipment.hold_until}


# -- service level ---------------------------------------------------------------------
@DOMAIN.tool
def quote_service_change(db: LogisticsDB, tracking_number: Tracking, service_code: ServiceCode) -> dict[str, Any]:
    """Preview moving a shipment to another service level: the surcharge (the difference between
    the two rates for this shipment's weight; nothing is refunded for a slower service) and the
    new promised delivery date. Changes nothing."""
    shipment = db.shipments.require(tracking_number.strip())
    old, new = db.service_levels.require(shipment.service_code), db.service_levels.require(service_code)
    surcharge = _money(max(_rate(new, shipment.weight_lb) - _rate(old, shipment.weight_lb), 0.0))
    start = max(_today(), date.fromisoformat(shipment.ship_date))
    return {"tracking_number": shipment.tracking_number, "from_service": old.code, "to_service": new.code,
            "current_rate": _rate(old, shipment.weight_lb), "new_rate": _rate(new, shipment.weight_lb), "surcharge": surcharge,
            "new_promised_date": _bday_add(start, new.transit_business_days).isoformat()}


@DOMAIN.tool(write=True)
def change_service_level(db: LogisticsDB, tracking_number: Tracking, service_code: ServiceCode) -> dict[str, Any]:
    """Move a shipment to another service level; the surcharge is billed to the shipper and the
    promised date is reset."""
    shipment = db.shipments.require(tracking_number.strip())
    if shipment.status in CLOSED:
        raise ToolError(f"shipment {shipment.tracking_number} is {shipment.status}")
    if service_code == shipment.service_code:
        raise ToolError(f"shipment {shipment.tracking_number} already ships {service_code}")
    quote = quote_service_change(db, shipment.tracking_number, service_code)
    shipment.service_code = service_code
    shipment.promised_date = quote["new_promised_date"]
    _event(db, shipment, "service_changed", f"Service changed to {db.service_levels.require(service_code).name}")
    charge = None
    if quote["surcharge"] > 0:
        charge = _charge(db, shipment.shipper_id, shipment.tracking_number, "service_upgrade", quote["surcharge"],
                         f"Upgrade {quote['from_service']} to {service_code}", service_code)
    return {"shipment": shipment, "surcharge_charged": quote["surcharge"], "charge": charge}


@DOMAIN.tool(write=True)
def refund_shipping_charge(db: LogisticsDB, tracking_number: Tracking) -> dict[str, Any]:
    """Credit a shipment's shipping charge back to the shipper (the delivery-guarantee refund)."""
    shipment = db.shipments.require(tracking_number.strip())
    if shipment.guarantee_refunded:
        raise ToolError(f"the shipping charge of {shipment.tracking_number} was already refunded")
    shipment.guarantee_refunded = True
    charge = _charge(db, shipment.shipper_id, shipment.tracking_number, "guarantee_refund", -shipment.shipping_charge,
                     "Delivery guarantee refund", "GTR")
    return {"refunded": shipment.shipping_charge, "charge": charge}


# -- claims ----------------------------------------------------------------------------
@DOMAIN.tool
def quote_claim(
    db: LogisticsDB, tracking_number: Tracking,
    amount_claimed: Annotated[float, Field(description="what the shipper claims the damage cost, in dollars")],
) -> dict[str, Any]:
    """Preview a damage claim: the payout (the claimed amount, capped by the declared value, or by
    the base liability when none was declared) and the last day a claim may be filed. Changes nothing."""
    shipment = db.shipments.require(tracking_number.strip())
    if not (math.isfinite(amount_claimed) and amount_claimed > 0):
        raise ToolError("the claimed amount must be a positive number")
    cap = shipment.declared_value if shipment.declared_value > 0 else BASE_LIABILITY
    deadline = (date.fromisoformat(shipment.delivered_on) + timedelta(days=30)).isoformat() if shipment.delivered_on else None
    return {"tracking_number": shipment.tracking_number, "declared_value": shipment.declared_value, "coverage_limit": cap,
            "amount_claimed": _money(amount_claimed), "payout": _money(min(amount_claimed, cap)),
            "delivered_on": shipment.delivered_on, "filing_deadline": deadline}


@DOMAIN.tool(write=True)
def file_damage_claim(
    db: LogisticsDB, tracking_number: Tracking,
    amount_claimed: Annotated[float, Field(description="what the shipper claims the damage cost, in dollars")],
    description: Annotated[FreeText, Field(description="what was damaged and how, in the shipper's words")],
) -> dict[str, Any]:
    """File a damage claim on a delivered shipment; the payout (as quoted) is approved and credited
    to the shipper's account."""
    shipment = db.shipments.require(tracking_number.strip())
    if shipment.status != "delivered":
        raise ToolError(f"shipment {shipment.tracking_number} was not delivered; damage claims are for delivered parcels")
    claim_id = f"CLM-{shipment.tracking_number[2:]}"
    if claim_id in db.claims:
        raise ToolError(f"shipment {shipment.tracking_number} already has claim {claim_id}")
    quote = quote_claim(db, shipment.tracking_number, amount_claimed)
    claim = Claim(claim_id=claim_id, tracking_number=shipment.tracking_number, shipper_id=shipment.shipper_id,
                  amount_claimed=quote["amount_claimed"], payout=quote["payout"], status="approved",
                  filed_date=_today().isoformat(), description=description)
    db.claims[claim_id] = claim
    charge = _charge(db, shipment.shipper_id, shipment.tracking_number, "claim_payout", -quote["payout"], f"Claim {claim_id}", claim_id)
    return {"claim": claim, "credit": charge}


# -- warehouse inventory ---------------------------------------------------------------
@DOMAIN.tool
def list_inventory(
    db: LogisticsDB, shipper_id: ShipperId,
    warehouse_id: Annotated[str | None, Field(description="only bins in this warehouse, e.g. 'WH-PDX'")] = None,
) -> list[InventoryBin]:
    """List a shipper's inventory bins (SKU, item, quantity on hand, unit value), by warehouse."""
    shipper = db.shippers.require(shipper_id)
    rows = [b for b in db.bins.where(shipper_id=shipper.shipper_id) if warehouse_id is None or b.warehouse_id == warehouse_id]
    return sorted(rows, key=lambda b: (b.warehouse_id, b.bin_id))


@DOMAIN.tool
def list_incidents(db: LogisticsDB, shipper_id: ShipperId) -> list[Incident]:
    """List a shipper's warehouse incident reports."""
    shipper = db.shippers.require(shipper_id)
    return sorted(db.incidents.where(shipper_id=shipper.shipper_id), key=lambda i: i.incident_id)


@DOMAIN.tool
def quote_inventory_credit(db: LogisticsDB, bin_id: BinId, units: Annotated[int, Field(description="number of units")]) -> dict[str, Any]:
    """Preview the account credit for units of a bin lost or damaged in the warehouse's care
    (units times the bin's unit value). Changes nothing."""
    item = _own_bin(db, bin_id)
    if units <= 0:
        raise ToolError("units must be a positive whole number")
    if units > item.quantity:
        raise ToolError(f"bin {item.bin_id} holds only {item.quantity} units")
    return {"bin_id": item.bin_id, "sku": item.sku, "units": units, "unit_value": item.unit_value,
            "credit": _money(units * item.unit_value), "quantity_after_adjustment": item.quantity - units}


@DOMAIN.tool(write=True)
def adjust_inventory(
    db: LogisticsDB, bin_id: BinId, units_removed: Annotated[int, Field(description="units to take off the bin's count")],
    reason: Literal["damaged", "missing"],
) -> InventoryBin:
    """Take units off a bin's on-hand count (written off as damaged or missing)."""
    item = _own_bin(db, bin_id)
    if units_removed <= 0:
        raise ToolError("units_removed must be a positive whole number")
    if units_removed > item.quantity:
        raise ToolError(f"bin {item.bin_id} holds only {item.quantity} units")
    item.quantity -= units_removed
    item.last_counted = _today().isoformat()
    item.write_offs.append(WriteOff(units=units_removed, reason=reason))
    return item


@DOMAIN.tool(write=True)
def file_incident_report(
    db: LogisticsDB, bin_id: BinId, kind: Literal["damaged", "missing", "recount_request"],
    units: Annotated[int, Field(description="units affected (for a recount request: units the shipper believes are off)")],
    description: Annotated[FreeText, Field(description="what happened, in the shipper's words")],
) -> Incident:
    """File a warehouse incident report on a bin."""
    item = _own_bin(db, bin_id)
    if units <= 0:
        raise ToolError("units must be a positive whole number")
    incident_id = db.incidents.new_key("INC", item.bin_id, kind, units, _today().isoformat())
    incident = Incident(incident_id=incident_id, bin_id=item.bin_id, shipper_id=item.shipper_id, kind=kind, units=units,
                        reported_date=_today().isoformat(), description=description)
    db.incidents[incident_id] = incident
    return incident


@DOMAIN.tool(write=True)
def issue_inventory_credit(db: LogisticsDB, incident_id: Annotated[str, Field(description="the incident report's id")]) -> dict[str, Any]:
    """Credit the shipper for the units of an incident report (units times the bin's unit value)."""
    incident = db.incidents.require(incident_id)
    if incident.credited:
        raise ToolError(f"incident {incident.incident_id} was already credited")
    item = _own_bin(db, incident.bin_id)
    incident.credited = True
    amount = _money(incident.units * item.unit_value)
    charge = _charge(db, incident.shipper_id, None, "inventory_credit", -amount, f"Inventory credit {incident.incident_id}", incident.incident_id)
    return {"incident": incident, "credit": charge}


# -- data invariants: the timeline the policy tells the agent to trust ---------------------
DOMAIN.invariants(
    not_after_now("shipments", "events[].at"),
    not_after_now("shipments", "delivered_on"),
    not_after_now("claims", "filed_date"),
    not_after_now("incidents", "reported_date"),
    not_after_now("bins", "last_counted"),
    not_after_now("shippers", "account_opened"),
    ordered("shipments", "ship_date", "delivered_on"),
    ordered("shipments", "ship_date", "promised_date"),
    ordered("claims", "delivered_on", "filed_date", via=("tracking_number", "shipments")),
    cents("shipments", "shipping_charge", computed=lambda rec, db: db.service_levels[rec.service_code].base_rate + db.service_levels[rec.service_code].rate_per_lb * rec.weight_lb),
    cents("charges", "amount"),
    cents("claims", "payout"),
    area_codes_valid("shippers", "phone"),
    area_codes_valid("warehouses", "phone"),
    no_typos("shippers", "company", "billing_address.street", "billing_address.city"),
)


@DOMAIN.invariant
def _scans_in_order(db: LogisticsDB, now: datetime) -> Any:
    """tracking events in time order"""
    for key, shipment in db.shipments.items():
        times = [event.at for event in shipment.events]
        if times != sorted(times):
            yield f"shipments[{key!r}]: events out of time order {times}"
