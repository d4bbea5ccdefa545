"""Prairie Gold Cooperative member desk: the tools a desk agent uses to serve member farmers who call in.

The tools refuse only what the data makes impossible (no such record, not this member's, not an unpriced
ticket, already cancelled). Every rule of the policy (credit, organic inputs, intervals, buffers, deadlines,
liens, delivery notice) is the agent's to apply.
"""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import cents, not_after_now, ordered, plausible_age, zip_matches_state
from tests_domains.agriculture.schema import (
    AgDB,
    CashBid,
    Claim,
    FarmField,
    InputOrder,
    Member,
    OrderLine,
    Product,
    Settlement,
    SprayRecord,
    StorageContract,
    WeatherEvent,
)

DOMAIN = Domain("agriculture", AgDB, now=datetime(2026, 10, 14, 9, 30))

STORAGE_RATE = 0.04
CLAIM_WINDOW_DAYS = {"hail": 14, "windstorm": 14, "flood": 10, "early_frost": 21}
SHRINK_PER_POINT = 0.014
DRYING_PER_POINT = 0.045
TEST_WEIGHT_DISCOUNT = 0.03

MemberNumber = Annotated[str, Field(description="the member's 5-digit member number, e.g. '40233'")]
FieldId = Annotated[str, Field(description="a field id, e.g. 'F-40233-2'")]
IsoDate = Annotated[str, Field(description="a date as YYYY-MM-DD")]
TicketNumbers = Annotated[list[str], Field(description="scale ticket numbers (6 digits each)", min_length=1)]


class LineRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sku: str = Field(description="catalog SKU, e.g. 'FT-POT'")
    quantity: int = Field(description="how many units of the product", gt=0, le=100000)


def _today() -> date:
    return DOMAIN.today


def _date(value: str, label: str) -> date:
    try:
        parsed = date.fromisoformat(value.strip())
    except (AttributeError, TypeError, ValueError):
        raise ToolError(f"{label} must be a date as YYYY-MM-DD, got {value!r}") from None
    if not 2000 <= parsed.year <= 2100:
        raise ToolError(f"{label} {value!r} is out of range")
    return parsed


def _field_of(db: AgDB, member_number: str, field_id: str) -> FarmField:
    db.members.require(member_number)
    field = db.fields.require(field_id)
    if field.member_number != member_number.strip():
        raise ToolError(f"field {field_id!r} does not belong to member {member_number}")
    return field


def _money(value: float) -> float:
    return round(value + 1e-9, 2)


# ----------------------------------------------------------------------------- members and fields


@DOMAIN.tool(authenticates=True)
def find_member_by_email(
    db: AgDB,
    email: Annotated[str, Field(description="the member's email on file")],
    date_of_birth: IsoDate,
) -> Member:
    """Authenticate a caller by email and date of birth; returns their member record."""
    for member in db.members.find(email=email):
        if member.date_of_birth == date_of_birth.strip():
            return member
    raise ToolError("no member matches that email and date of birth")


@DOMAIN.tool(authenticates=True)
def find_member_by_number(db: AgDB, member_number: MemberNumber, date_of_birth: IsoDate) -> Member:
    """Authenticate a caller by member number and date of birth; returns their member record."""
    member = db.members.get(member_number.strip())
    if member is None or member.date_of_birth != date_of_birth.strip():
        raise ToolError("no member matches that member number and date of birth")
    return member


@DOMAIN.tool
def list_fields(db: AgDB, member_number: MemberNumber) -> list[FarmField]:
    """All fields a member farms: name, county, acres, crop, certification, setback, planned harvest, insurance."""
    db.members.require(member_number)
    return sorted(db.fields.where(member_number=member_number.strip()), key=lambda f: f.field_id)


@DOMAIN.tool
def get_field(db: AgDB, field_id: FieldId) -> FarmField:
    """One field's details."""
    return db.fields.require(field_id)


# ----------------------------------------------------------------------------- catalog and input orders


@DOMAIN.tool
def search_products(
    db: AgDB,
    text: Annotated[str, Field(description="words of the product name, e.g. 'potash' or 'soybean'")],
    category: Annotated[Literal["seed", "fertilizer", "herbicide", "fungicide", "insecticide", "desiccant"] | None,
                        Field(description="restrict to one category")] = None,
) -> list[Product]:
    """Search the input catalog by name (and category)."""
    words = text.lower().split()
    found = [p for p in db.products.values()
             if all(w in p.name.lower() for w in words) and (category is None or p.category == category)]
    return sorted(found, key=lambda p: p.sku)


@DOMAIN.tool
def get_product(db: AgDB, sku: Annotated[str, Field(description="catalog SKU, e.g. 'HB-GLY'")]) -> Product:
    """One catalog product: price, unit, crops on the label, organic approval, pre-harvest interval, buffer."""
    return db.products.require(sku)


@DOMAIN.tool
def list_orders(db: AgDB, member_number: MemberNumber) -> list[InputOrder]:
    """A member's input orders (open, delivered, cancelled)."""
    db.members.require(member_number)
    return sorted(db.orders.where(member_number=member_number.strip()), key=lambda o: o.order_id)


def _open_total(db: AgDB, member_number: str) -> float:
    return _money(sum(o.total for o in db.orders.where(member_number=member_number.strip(), status="open")))


def _lines(db: AgDB, lines: list[LineRequest]) -> list[OrderLine]:
    if not lines:
        raise ToolError("an order needs at least one line")
    out = []
    for line in lines:
        product = db.products.require(line.sku)
        out.append(OrderLine(sku=product.sku, quantity=line.quantity, unit_price=product.unit_price,
                             amount=_money(line.quantity * product.unit_price)))
    return out


@DOMAIN.tool
def quote_input_order(db: AgDB, member_number: MemberNumber, lines: list[LineRequest]) -> dict[str, Any]:
    """Price an input order without placing it: line amounts, order total, the member's open-order balance,
    credit limit and the credit available before and after this order."""
    member = db.members.require(member_number)
    priced = _lines(db, lines)
    total = _money(sum(x.amount for x in priced))
    open_total = _open_total(db, member.member_number)
    available = _money(member.credit_limit - open_total)
    return {"lines": [x.model_dump() for x in priced], "order_total": total, "open_orders_total": open_total,
            "credit_limit": member.credit_limit, "available_credit": available,
            "available_after_order": _money(available - total), "account_status": member.account_status}


@DOMAIN.tool(write=True)
def place_input_order(
    db: AgDB,
    member_number: MemberNumber,
    field_id: Annotated[str, Field(description="the field the inputs are for")],
    lines: list[LineRequest],
    delivery_start: Annotated[str, Field(description="first day of the delivery window, YYYY-MM-DD (the window is 5 days)")],
) -> InputOrder:
    """Place an input order on the member's account for one field, delivered in a 5-day window."""
    field = _field_of(db, member_number, field_id)
    start = _date(delivery_start, "delivery_start")
    if start < _today():
        raise ToolError("delivery_start is in the past")
    priced = _lines(db, lines)
    key = db.orders.new_key("IO-", field.field_id, start.isoformat(), *sorted(f"{x.sku}x{x.quantity}" for x in priced))
    db.orders[key] = InputOrder(order_id=key, member_number=field.member_number, field_id=field.field_id, lines=priced,
                                total=_money(sum(x.amount for x in priced)), placed_on=_today().isoformat(),
                                delivery_start=start.isoformat(), delivery_end=(start + timedelta(days=4)).isoformat(),
                                status="open")
    return db.orders[key]


@DOMAIN.tool(write=True)
def cancel_input_order(db: AgDB, member_number: MemberNumber,
                       order_id: Annotated[str, Field(description="the input order id, e.g. 'IO-40233-2609120'")]) -> InputOrder:
    """Cancel an open input order."""
    db.members.require(member_number)
    order = db.orders.require(order_id)
    if order.member_number != member_number.strip():
        raise ToolError(f"order {order_id!r} does not belong to member {member_number}")
    if order.status != "open":
        raise ToolError(f"order {order_id!r} is {order.status}, not open")
    order.status = "cancelled"
    db.orders[order.order_id] = order
    return order


# ----------------------------------------------------------------------------- weather and claims


@DOMAIN.tool
def list_weather_events(
    db: AgDB,
    county: Annotated[str, Field(description="county name, e.g. 'Sioux'")],
    state: Annotated[str, Field(description="two-letter state, e.g. 'IA'")],
) -> list[WeatherEvent]:
    """Recorded weather events in a county this season, newest first."""
    found = [e for e in db.weather_events.values()
             if e.county.lower() == county.strip().lower() and e.state.lower() == state.strip().lower()]
    return sorted(found, key=lambda e: (e.event_date, e.event_id), reverse=True)


@DOMAIN.tool
def get_claim_deadline(db: AgDB, field_id: FieldId,
                       event_id: Annotated[str, Field(description="weather event id, e.g. 'WX-IA-SIO-0921H'")]) -> dict[str, Any]:
    """The crop-insurance reporting deadline for a loss on a field from a weather event (files nothing)."""
    field = db.fields.require(field_id)
    event = db.weather_events.require(event_id)
    deadline = _date(event.event_date, "event_date") + timedelta(days=CLAIM_WINDOW_DAYS[event.kind])
    return {"field_id": field.field_id, "field_county": field.county, "field_state": field.state, "insured": field.insured,
            "policy_number": field.policy_number, "event_id": event.event_id, "event_county": event.county,
            "event_state": event.state, "event_kind": event.kind, "event_date": event.event_date,
            "reporting_deadline": deadline.isoformat()}


@DOMAIN.tool
def list_claims(db: AgDB, member_number: MemberNumber) -> list[Claim]:
    """A member's crop-insurance claims."""
    db.members.require(member_number)
    return sorted(db.claims.where(member_number=member_number.strip()), key=lambda c: c.claim_id)


@DOMAIN.tool(write=True)
def file_claim(
    db: AgDB,
    member_number: MemberNumber,
    field_id: FieldId,
    event_id: Annotated[str, Field(description="the weather event that caused the loss")],
    estimated_loss_percent: Annotated[int, Field(description="the member's estimate of the yield lost, 1-100", ge=1, le=100)],
    description: Annotated[FreeText, Field(description="what the member saw, in their words")],
) -> Claim:
    """File a crop-insurance loss notice on a field for a weather event."""
    field = _field_of(db, member_number, field_id)
    event = db.weather_events.require(event_id)
    if any(c.field_id == field.field_id and c.event_id == event.event_id for c in db.claims.where(member_number=field.member_number)):
        raise ToolError("a claim for this field and event is already on file")
    key = db.claims.new_key("CL-", field.field_id, event.event_id)
    db.claims[key] = Claim(claim_id=key, member_number=field.member_number, field_id=field.field_id, event_id=event.event_id,
                           reported_on=_today().isoformat(), estimated_loss_percent=estimated_loss_percent,
                           description=description, status="reported")
    return db.claims[key]


# ----------------------------------------------------------------------------- grain


@DOMAIN.tool
def list_grain_tickets(db: AgDB, member_number: MemberNumber) -> list[dict[str, Any]]:
    """A member's scale tickets at the elevator this season, with the field each load came from."""
    db.members.require(member_number)
    out = []
    for t in sorted(db.grain_tickets.where(member_number=member_number.strip()), key=lambda t: (t.delivered_on, t.ticket_number)):
        row = t.model_dump()
        row["field_name"] = db.fields.require(t.field_id).name
        out.append(row)
    return out


@DOMAIN.tool
def get_cash_bids(db: AgDB) -> list[CashBid]:
    """Today's cash bid per crop and the base moisture and test weight that discounts are measured from."""
    return sorted(db.cash_bids.values(), key=lambda b: b.crop)


def _tickets(db: AgDB, member_number: str | None, numbers: list[str]) -> list[Any]:
    if not numbers:
        raise ToolError("give at least one ticket number")
    if len({n.strip() for n in numbers}) != len(numbers):
        raise ToolError("a ticket number is repeated")
    tickets = []
    for n in numbers:
        t = db.grain_tickets.require(n)
        if member_number is not None and t.member_number != member_number.strip():
            raise ToolError(f"ticket {n!r} does not belong to member {member_number}")
        tickets.append(t)
    return tickets


def _settle_lines(db: AgDB, tickets: list[Any]) -> tuple[list[dict[str, Any]], float, float]:
    lines, gross_all, disc_all = [], 0.0, 0.0
    for t in tickets:
        bid = db.cash_bids.require(t.crop)
        gross = _money(t.net_bushels * bid.price_per_bushel)
        points = max(0.0, round(t.moisture_percent - bid.base_moisture, 1))
        shrink = _money(t.net_bushels * SHRINK_PER_POINT * points * bid.price_per_bushel)
        drying = _money(t.net_bushels * DRYING_PER_POINT * points)
        lbs = max(0, math.ceil(round(bid.base_test_weight - t.test_weight, 1)))
        tw = _money(t.net_bushels * TEST_WEIGHT_DISCOUNT * lbs)
        disc = _money(shrink + drying + tw)
        lines.append({"ticket_number": t.ticket_number, "crop": t.crop, "status": t.status, "net_bushels": t.net_bushels,
                      "price_per_bushel": bid.price_per_bushel, "gross": gross, "moisture_shrink": shrink, "drying_charge": drying,
                      "test_weight_discount": tw, "net": _money(gross - disc)})
        gross_all += gross
        disc_all += disc
    return lines, _money(gross_all), _money(disc_all)


@DOMAIN.tool
def quote_grain_settlement(db: AgDB, ticket_numbers: TicketNumbers) -> dict[str, Any]:
    """Price scale tickets at today's cash bid without selling: gross, moisture shrink, drying and test-weight
    discounts per ticket, and the net payment."""
    lines, gross, disc = _settle_lines(db, _tickets(db, None, ticket_numbers))
    return {"tickets": lines, "gross": gross, "discounts": disc, "net_payment": _money(gross - disc)}


@DOMAIN.tool(write=True)
def settle_grain_tickets(db: AgDB, member_number: MemberNumber, ticket_numbers: TicketNumbers) -> Settlement:
    """Sell unpriced scale tickets at today's cash bid and issue the payment."""
    tickets = _tickets(db, member_number, ticket_numbers)
    for t in tickets:
        if t.status != "unpriced":
            raise ToolError(f"ticket {t.ticket_number} is {t.status}, not unpriced")
    _, gross, disc = _settle_lines(db, tickets)
    key = db.settlements.new_key("ST-", *sorted(t.ticket_number for t in tickets))
    for t in tickets:
        t.status, t.settlement_id = "settled", key
        db.grain_tickets[t.ticket_number] = t
    db.settlements[key] = Settlement(settlement_id=key, member_number=member_number.strip(),
                                     ticket_numbers=[t.ticket_number for t in tickets], gross=gross, discounts=disc,
                                     storage_fees=0.0, net_payment=_money(gross - disc), paid_on=_today().isoformat())
    return db.settlements[key]


@DOMAIN.tool(write=True)
def open_storage_contract(db: AgDB, member_number: MemberNumber, ticket_numbers: TicketNumbers) -> StorageContract:
    """Put unpriced scale tickets of one crop into storage at the elevator under a new storage contract."""
    tickets = _tickets(db, member_number, ticket_numbers)
    for t in tickets:
        if t.status != "unpriced":
            raise ToolError(f"ticket {t.ticket_number} is {t.status}, not unpriced")
    if len({t.crop for t in tickets}) != 1:
        raise ToolError("a storage contract holds one crop")
    key = db.storage_contracts.new_key("SC-", *sorted(t.ticket_number for t in tickets))
    for t in tickets:
        t.status, t.storage_contract_id = "stored", key
        db.grain_tickets[t.ticket_number] = t
    db.storage_contracts[key] = StorageContract(
        contract_id=key, member_number=member_number.strip(), crop=tickets[0].crop,
        bushels=round(sum(t.net_bushels for t in tickets), 1), start_date=_today().isoformat(),
        rate_per_bushel_month=STORAGE_RATE, status="open", ticket_numbers=[t.ticket_number for t in tickets])
    return db.storage_contracts[key]


@DOMAIN.tool
def list_storage_contracts(db: AgDB, member_number: MemberNumber) -> list[StorageContract]:
    """A member's grain storage contracts at the elevator."""
    db.members.require(member_number)
    return sorted(db.storage_contracts.where(member_number=member_number.strip()), key=lambda c: c.contract_id)


def _storage_sale(db: AgDB, contract: StorageContract) -> dict[str, Any]:
    bid = db.cash_bids.require(contract.crop)
    days = (_today() - _date(contract.start_date, "start_date")).days
    months = max(1, math.ceil(days / 30))
    fees = _money(contract.bushels * contract.rate_per_bushel_month * months)
    gross = _money(contract.bushels * bid.price_per_bushel)
    return {"contract_id": contract.contract_id, "crop": contract.crop, "bushels": contract.bushels,
            "price_per_bushel": bid.price_per_bushel, "gross": gross, "months_charged": months, "storage_fees": fees,
            "net_payment": _money(gross - fees), "pledged_to": contract.pledged_to, "status": contract.status}


@DOMAIN.tool
def quote_stored_grain_sale(db: AgDB, contract_id: Annotated[str, Field(description="storage contract id")]) -> dict[str, Any]:
    """Price the grain under a storage contract at today's cash bid: gross, storage fees accrued to date, net payment."""
    return _storage_sale(db, db.storage_contracts.require(contract_id))


@DOMAIN.tool(write=True)
def sell_stored_grain(db: AgDB, member_number: MemberNumber,
                      contract_id: Annotated[str, Field(description="storage contract id")]) -> Settlement:
    """Sell all the grain under an open storage contract at today's cash bid, less accrued storage fees."""
    db.members.require(member_number)
    contract = db.storage_contracts.require(contract_id)
    if contract.member_number != member_number.strip():
        raise ToolError(f"contract {contract_id!r} does not belong to member {member_number}")
    if contract.status != "open":
        raise ToolError(f"contract {contract_id!r} is already sold")
    sale = _storage_sale(db, contract)
    key = db.settlements.new_key("ST-", contract.contract_id)
    for n in contract.ticket_numbers:
        t = db.grain_tickets.require(n)
        t.status, t.settlement_id = "settled", key
        db.grain_tickets[n] = t
    contract.status = "sold"
    db.storage_contracts[contract.contract_id] = contract
    db.settlements[key] = Settlement(settlement_id=key, member_number=contract.member_number,
                                     ticket_numbers=list(contract.ticket_numbers), storage_contract_id=contract.contract_id,
                                     gross=sale["gross"], discounts=0.0, storage_fees=sale["storage_fees"],
                                     net_payment=sale["net_payment"], paid_on=_today().isoformat())
    return db.settlements[key]


# ----------------------------------------------------------------------------- spraying


@DOMAIN.tool
def list_spray_records(db: AgDB, field_id: FieldId) -> list[SprayRecord]:
    """Pesticide applications recorded on a field this season."""
    db.fields.require(field_id)
    return sorted(db.spray_records.where(field_id=field_id.strip()), key=lambda r: r.application_date)


@DOMAIN.tool
def preview_spray(db: AgDB, field_id: FieldId, sku: Annotated[str, Field(description="the product's catalog SKU")],
                  application_date: IsoDate) -> dict[str, Any]:
    """Preview a co-op custom application on a field (schedules nothing): the product's pre-harvest interval and
    buffer, the earliest harvest date after it, the field's setback, certification and planned harvest."""
    field = db.fields.require(field_id)
    product = db.products.require(sku)
    if product.phi_days is None:
        raise ToolError(f"{product.sku} is not a sprayed product")
    when = _date(application_date, "application_date")
    return {"field_id": field.field_id, "field_name": field.name, "crop": field.crop, "certification": field.certification,
            "setback_ft": field.setback_ft, "planned_harvest": field.planned_harvest, "acres": field.acres,
            "sku": product.sku, "product": product.name, "label_crops": list(product.crops),
            "organic_approved": product.organic_approved, "phi_days": product.phi_days, "buffer_ft": product.buffer_ft,
            "application_date": when.isoformat(), "earliest_harvest": (when + timedelta(days=product.phi_days)).isoformat()}


@DOMAIN.tool(write=True)
def schedule_spray(db: AgDB, member_number: MemberNumber, field_id: FieldId,
                   sku: Annotated[str, Field(description="the product's catalog SKU")], application_date: IsoDate) -> SprayRecord:
    """Schedule a co-op custom application of a product on the whole field."""
    field = _field_of(db, member_number, field_id)
    product = db.products.require(sku)
    if product.phi_days is None:
        raise ToolError(f"{product.sku} is not a sprayed product")
    when = _date(application_date, "application_date")
    if when < _today():
        raise ToolError("application_date is in the past")
    key = db.spray_records.new_key("SP-", field.field_id, product.sku, when.isoformat())
    db.spray_records[key] = SprayRecord(record_id=key, member_number=field.member_number, field_id=field.field_id,
                                        sku=product.sku, application_date=when.isoformat(), acres=field.acres,
                                        applied_by="coop",
                                        earliest_harvest=(when + timedelta(days=product.phi_days)).isoformat())
    return db.spray_records[key]


# -- data invariants: members' ages, harvest before its grain, the clock --------------------
DOMAIN.invariants(
    plausible_age("members", "date_of_birth", low=18, high=100),
    plausible_age("members", "date_of_birth", at="member_since", low=18, high=100),
    not_after_now("members", "member_since"),
    not_after_now("grain_tickets", "delivered_on"),
    not_after_now("settlements", "paid_on"),
    not_after_now("claims", "reported_on"),
    not_after_now("weather_events", "event_date"),
    ordered("claims", "event_date", "reported_on", via=("event_id", "weather_events")),
    not_after_now("orders", "placed_on"),
    ordered("orders", "delivery_start", "delivery_end"),
    zip_matches_state("members", "zip", "state"),
    cents("orders", "total"),
    cents("settlements", "net_payment"),
)


@DOMAIN.invariant
def _grain_after_harvest(db: AgDB, now: datetime) -> Any:
    """grain delivered from a field on or after its harvest began (or from the season before a later planned harvest)"""
    for key, ticket in db.grain_tickets.items():
        field = db.fields.get(ticket.field_id)
        if field is None:
            yield f"grain_tickets[{key!r}]: no field {ticket.field_id}"
        elif ticket.delivered_on < field.planned_harvest and ticket.delivered_on[:4] == field.planned_harvest[:4]:
            yield f"grain_tickets[{key!r}]: delivered {ticket.delivered_on}, before {field.field_id}'s harvest {field.planned_harvest}"


@DOMAIN.invariant
def _sprays_before_harvest(db: AgDB, now: datetime) -> Any:
    """this season's sprays leave their pre-harvest interval before the field's harvest"""
    for key, record in db.spray_records.items():
        field = db.fields.get(record.field_id)
        if field and record.earliest_harvest and record.application_date[:4] == field.planned_harvest[:4] and record.earliest_harvest > field.planned_harvest:
            yield f"spray_records[{key!r}]: earliest harvest {record.earliest_harvest}, after {field.field_id}'s harvest {field.planned_harvest}"
