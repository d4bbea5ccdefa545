"""Larkspur Realty Group's rentals and sales desk: the tools an agent uses to serve clients who call in.

The tools refuse only what the data makes impossible (no such record, not this client's, a slot that is not free,
nothing left to cancel, an offer that is not awaiting the buyer). Every rule of the policy (notice, screening,
deposits, pre-approval, windows, deadlines, priorities, who may ask) is the agent's to apply.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import after_now, area_codes_valid, cents, consistent, not_after_now, ordered, plausible_age, zip_matches_state
from tests_domains.real_estate.schema import (
    Application as RentalApplication,
)
from tests_domains.real_estate.schema import (
    Client,
    Lease,
    Listing,
    MaintenanceRequest,
    Offer,
    OfferRound,
    RealEstateDB,
    Tour,
)

DOMAIN = Domain("real_estate", RealEstateDB, now=datetime(2026, 6, 10, 10, 0))

APPLICATION_FEE = 50.0
EARNEST_RATE = 0.01
BUYER_ROUND_HOURS = 48
RENEWAL_WINDOW_OPENS_DAYS = 120
RENEWAL_LAST_DAY_DAYS = 45
NOTICE_DAYS = 60
SIX_MONTH_PREMIUM_PCT = 2.0
MONTH_TO_MONTH_PREMIUM_PCT = 10.0

ClientId = Annotated[str, Field(description="the client's id from their profile, e.g. 'CL-48213'")]
ListingId = Annotated[str, Field(description="a listing id, e.g. 'RL-5123' (rental) or 'SL-7240' (sale)")]
LeaseId = Annotated[str, Field(description="the lease number, e.g. 'LS-26147'")]
OfferId = Annotated[str, Field(description="the offer number, e.g. 'OF-9253'")]
IsoDate = Annotated[str, Field(description="a date as YYYY-MM-DD")]
Feature = Literal["parking", "garage", "in_unit_laundry", "shared_laundry", "dishwasher", "central_air", "balcony",
                  "yard", "elevator", "doorman", "fireplace", "hardwood_floors", "storage", "gym", "waterfront_view"]
PetKind = Literal["cat", "dog"]
Category = Literal["plumbing", "electrical", "heating_cooling", "appliance", "pest", "lock_and_security", "other"]
Contingency = Literal["inspection", "financing", "appraisal", "home_sale"]


def _today() -> str:
    return DOMAIN.today.isoformat()


def _date(value: str, label: str) -> date:
    try:
        day = date.fromisoformat(value.strip())
    except (AttributeError, TypeError, ValueError):
        raise ToolError(f"{label} must be a date as YYYY-MM-DD, got {value!r}") from None
    if not 2000 <= day.year <= 2100:
        raise ToolError(f"{label} {value!r} is out of range")
    return day


def _moment(value: str, label: str) -> datetime:
    text = value.strip().replace(" ", "T") if isinstance(value, str) else ""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ToolError(f"{label} must be a date and time as YYYY-MM-DDTHH:MM, got {value!r}") from None
    if moment.tzinfo is not None:
        raise ToolError(f"{label} must be local time without a time zone")
    return moment.replace(second=0, microsecond=0)


def _slot(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def _clock(moment: datetime) -> str:
    return moment.strftime("%I:%M %p").lstrip("0")


def _money(value: float) -> float:
    return round(value + 1e-9, 2)


def _client(db: RealEstateDB, client_id: str) -> Client:
    return db.clients.require(client_id)


def _address(listing: Listing) -> str:
    unit = f", {listing.unit}" if listing.unit else ""
    return f"{listing.street}{unit}, {listing.city}, {listing.state} {listing.zip}"


def _summary(listing: Listing) -> dict[str, Any]:
    return {"listing_id": listing.listing_id, "address": _address(listing), "neighborhood": listing.neighborhood,
            "kind": listing.kind, "status": listing.status, "property_type": listing.property_type,
            "bedrooms": listing.bedrooms, "bathrooms": listing.bathrooms, "sqft": listing.sqft, "price": listing.price,
            "features": sorted(listing.features), "pet_policy": listing.pet_policy, "available_from": listing.available_from}


def _business_days_after(start: date, days: int) -> date:
    day, left = start, days
    while left:
        day += timedelta(days=1)
        if day.weekday() < 5:
            left -= 1
    return day


# ----------------------------------------------------------------------------- identity


@DOMAIN.tool(authenticates=True)
def find_client_by_email(
    db: RealEstateDB,
    email: Annotated[str, Field(description="the email address on the client's profile")],
    date_of_birth: IsoDate,
) -> Client:
    """Authenticate a caller by the email on their profile and their date of birth; returns their profile."""
    for client in db.clients.find(email=email):
        if client.date_of_birth == date_of_birth.strip():
            return client
    raise ToolError("no client matches that email and date of birth")


@DOMAIN.tool(authenticates=True)
def find_client_by_reference(
    db: RealEstateDB,
    reference: Annotated[str, Field(description="a lease number (LS-...), offer number (OF-...) or application number (AP-...)")],
    full_name: Annotated[str, Field(description="the caller's first and last name")],
) -> Client:
    """Authenticate a caller by a reference number of theirs (lease, offer or application) and their full name."""
    ref = reference.strip().upper()
    people: list[str] = []
    if ref.startswith("LS-") and ref in db.leases:
        lease = db.leases[ref]
        people = [lease.primary_tenant_id, *lease.co_tenant_ids]
    elif ref.startswith("OF-") and ref in db.offers:
        people = [db.offers[ref].client_id]
    elif ref.startswith("AP-") and ref in db.applications:
        people = [db.applications[ref].client_id]
    wanted = " ".join(full_name.split()).casefold()
    for cid in people:
        client = db.clients[cid]
        if f"{client.first_name} {client.last_name}".casefold() == wanted:
            return client
    raise ToolError("no client with that name holds that reference number")


# ----------------------------------------------------------------------------- listings


@DOMAIN.tool
def search_listings(
    db: RealEstateDB,
    kind: Annotated[Literal["rental", "sale"], Field(description="rentals or homes for sale")],
    city: Annotated[str | None, Field(description="e.g. 'Providence', 'Cranston'")] = None,
    neighborhood: Annotated[str | None, Field(description="e.g. 'Fox Point', 'Edgewood'")] = None,
    min_bedrooms: Annotated[int | None, Field(description="at least this many bedrooms (0 is a studio)")] = None,
    max_bedrooms: Annotated[int | None, Field(description="at most this many bedrooms")] = None,
    max_price: Annotated[float | None, Field(description="highest monthly rent or asking price")] = None,
    property_type: Literal["apartment", "condo", "townhouse", "single_family", "multi_family"] | None = None,
    features: Annotated[list[Feature] | None, Field(description="every one of these features must be present")] = None,
    pets: Annotated[list[PetKind] | None, Field(description="rentals whose pet policy allows these pets")] = None,
) -> dict[str, Any]:
    """Search ACTIVE listings by criteria. Returns how many match and up to 20 of them, cheapest first."""
    rows = db.listings.find(kind=kind, status="active")
    out = []
    for lst in rows:
        if city and lst.city.casefold() != city.strip().casefold():
            continue
        if neighborhood and lst.neighborhood.casefold() != neighborhood.strip().casefold():
            continue
        if min_bedrooms is not None and lst.bedrooms < min_bedrooms:
            continue
        if max_bedrooms is not None and lst.bedrooms > max_bedrooms:
            continue
        if max_price is not None and lst.price > max_price:
            continue
        if property_type and lst.property_type != property_type:
            continue
        if features and not set(features) <= set(lst.features):
            continue
        if pets:
            allowed = {"no_pets": set(), "cats_only": {"cat"}, "cats_and_dogs": {"cat", "dog"}}.get(lst.pet_policy or "", set())
            if not set(pets) <= allowed:
                continue
        out.append(lst)
    out.sort(key=lambda x: (x.price, x.listing_id))
    return {"total_matches": len(out), "listings": [_summary(x) for x in out[:20]]}


@DOMAIN.tool
def find_listing_by_address(
    db: RealEstateDB,
    street: Annotated[str, Field(description="house number and street, e.g. '42 Wickenden St'")],
    unit: Annotated[str | None, Field(description="the unit as written in the listing, e.g. 'Apt 2B', 'Unit 3', '#204'")] = None,
) -> list[dict[str, Any]]:
    """Listings (any status) at a street address; with a unit, only that unit."""
    found = [x for x in db.listings.find(street=street)
             if unit is None or (x.unit or "").casefold().replace(" ", "") == unit.casefold().replace(" ", "")]
    if not found:
        raise ToolError("no listing at that address")
    return [_summary(x) for x in found]


@DOMAIN.tool
def get_listing(db: RealEstateDB, listing_id: ListingId) -> dict[str, Any]:
    """A listing in full: address, status, price, features, pet policy, whether it is occupied, availability, HOA fee,
    and its listing agent's name and phone."""
    lst = db.listings.require(listing_id)
    agent = db.agents.require(lst.listing_agent_id)
    return {**lst.model_dump(), "address": _address(lst),
            "listing_agent": {"agent_id": agent.agent_id, "name": f"{agent.first_name} {agent.last_name}",
                              "phone": agent.phone, "email": agent.email}}


@DOMAIN.tool
def get_agent(db: RealEstateDB, agent_id: Annotated[str, Field(description="e.g. 'AG-112'")]) -> dict[str, Any]:
    """An agent's contact card: name, office, phone, email, focus (rentals or sales)."""
    agent = db.agents.require(agent_id)
    return {"agent_id": agent.agent_id, "name": f"{agent.first_name} {agent.last_name}", "office": agent.office,
            "phone": agent.phone, "email": agent.email, "focus": agent.focus}


# ----------------------------------------------------------------------------- tours


@DOMAIN.tool
def search_tour_slots(
    db: RealEstateDB,
    listing_id: ListingId,
    not_before: Annotated[str, Field(description="earliest start wanted, as YYYY-MM-DDTHH:MM (local time)")],
    on_date: Annotated[str | None, Field(description="only slots on this day, YYYY-MM-DD")] = None,
) -> dict[str, Any]:
    """The listing agent's free 30-minute tour slots starting at or after `not_before`, earliest first (up to 10).
    The calendar shows what is free; it does not check any notice rule."""
    lst = db.listings.require(listing_id)
    agent = db.agents.require(lst.listing_agent_id)
    start = _moment(not_before, "not_before")
    day = _date(on_date, "on_date").isoformat() if on_date else None
    slots = sorted(s for s in agent.free_slots if s >= _slot(start) and (day is None or s.startswith(day)))
    return {"listing_id": lst.listing_id, "agent": f"{agent.first_name} {agent.last_name}",
            "slots": [{"start": s, "weekday": datetime.fromisoformat(s).strftime("%A"), "date": s[:10],
                       "time": _clock(datetime.fromisoformat(s))} for s in slots[:10]]}


@DOMAIN.tool
def list_tours(db: RealEstateDB, client_id: ClientId) -> list[dict[str, Any]]:
    """Every tour of a client (scheduled, completed, cancelled, no-show) with the listing's address."""
    client = _client(db, client_id)
    rows = sorted(db.tours.where(client_id=client.client_id), key=lambda t: (t.start, t.tour_id))
    return [{**t.model_dump(), "address": _address(db.listings[t.listing_id])} for t in rows]


@DOMAIN.tool(write=True)
def book_tour(
    db: RealEstateDB,
    client_id: ClientId,
    listing_id: ListingId,
    start: Annotated[str, Field(description="a free slot of the listing agent, YYYY-MM-DDTHH:MM")],
) -> dict[str, Any]:
    """Book a 30-minute tour of a listing with its listing agent in one of the agent's free slots. The calendar
    checks only that the slot is free; it does not check notice, listing status or the client's pre-approval."""
    client = _client(db, client_id)
    lst = db.listings.require(listing_id)
    agent = db.agents[lst.listing_agent_id]
    slot = _slot(_moment(start, "start"))
    if slot not in agent.free_slots:
        raise ToolError(f"{agent.first_name} {agent.last_name} has no free slot at {slot}")
    agent.free_slots.remove(slot)
    tid = db.tours.new_key("TR-", client.client_id, lst.listing_id, slot)
    db.tours[tid] = Tour(tour_id=tid, client_id=client.client_id, listing_id=lst.listing_id, agent_id=agent.agent_id,
                         start=slot, status="scheduled", booked_on=_today())
    moment = datetime.fromisoformat(slot)
    return {"tour": db.tours[tid].model_dump(), "address": _address(lst), "date": slot[:10], "weekday": moment.strftime("%A"),
            "time": _clock(moment), "agent": f"{agent.first_name} {agent.last_name}", "agent_phone": agent.phone}


@DOMAIN.tool(write=True)
def cancel_tour(
    db: RealEstateDB,
    client_id: ClientId,
    tour_id: Annotated[str, Field(description="e.g. 'TR-310451'")],
    reason: Annotated[FreeText, Field(description="the client's reason, stored on the tour")],
) -> Tour:
    """Cancel a scheduled tour of the client; the slot goes back on the agent's calendar."""
    client = _client(db, client_id)
    tour = db.tours.require(tour_id)
    if tour.client_id != client.client_id:
        raise ToolError(f"tour {tour.tour_id} is not booked by client {client.client_id}")
    if tour.status != "scheduled":
        raise ToolError(f"tour {tour.tour_id} is {tour.status}, not scheduled")
    tour.status = "cancelled"
    tour.cancel_reason = reason
    agent = db.agents[tour.agent_id]
    if tour.start > _slot(DOMAIN.now) and tour.start not in agent.free_slots:
        agent.free_slots.append(tour.start)
    return tour


# ----------------------------------------------------------------------------- rental applications


@DOMAIN.tool
def preview_application(db: RealEstateDB, client_id: ClientId, listing_id: ListingId) -> dict[str, Any]:
    """Screening figures for a rental application, without applying: monthly rent, the client's verified monthly
    income, income-to-rent ratio (income / rent, two decimals), credit score, eviction record, pets on file, the
    listing's pet policy and availability, the application fee and the security deposit (one month's rent)."""
    client = _client(db, client_id)
    lst = db.listings.require(listing_id)
    if lst.kind != "rental":
        raise ToolError(f"listing {lst.listing_id} is for sale, not for rent")
    income = client.verified_monthly_income
    return {"listing_id": lst.listing_id, "address": _address(lst), "listing_status": lst.status, "monthly_rent": lst.price,
            "verified_monthly_income": income, "income_source": client.income_source,
            "income_to_rent_ratio": None if income is None else round(income / lst.price, 2),
            "credit_score": client.credit_score, "eviction_record": client.eviction_record,
            "pets_on_file": sorted(client.pets_on_file), "pet_policy": lst.pet_policy, "available_from": lst.available_from,
            "application_fee": APPLICATION_FEE, "security_deposit": lst.price}


@DOMAIN.tool
def list_applications(db: RealEstateDB, client_id: ClientId) -> list[dict[str, Any]]:
    """Every rental application of a client, with the listing's address and status."""
    client = _client(db, client_id)
    rows = sorted(db.applications.where(client_id=client.client_id), key=lambda a: a.application_id)
    return [{**a.model_dump(), "address": _address(db.listings[a.listing_id])} for a in rows]


@DOMAIN.tool(write=True)
def submit_application(
    db: RealEstateDB,
    client_id: ClientId,
    listing_id: ListingId,
    move_in_date: IsoDate,
    pets: Annotated[list[PetKind], Field(description="every pet that will live in the unit (empty list for none)")],
    security_deposit_months: Annotated[Literal[1, 2], Field(description="security deposit in months of rent")],
) -> RentalApplication:
    """File a rental application (status pending) with the client's verified income; charges the application fee.
    The system refuses only a rental with no verified income on file or a second live application to the same
    listing; it does not check status, screening, pets, deposits or dates."""
    client = _client(db, client_id)
    lst = db.listings.require(listing_id)
    if lst.kind != "rental":
        raise ToolError(f"listing {lst.listing_id} is for sale, not for rent")
    if client.verified_monthly_income is None:
        raise ToolError(f"client {client.client_id} has no verified income on file")
    move_in = _date(move_in_date, "move_in_date")
    for app in db.applications.where(client_id=client.client_id):
        if app.listing_id == lst.listing_id and app.status in ("pending", "approved"):
            raise ToolError(f"client {client.client_id} already has application {app.application_id} for this listing")
    aid = db.applications.new_key("AP-", client.client_id, lst.listing_id)
    db.applications[aid] = RentalApplication(
        application_id=aid, client_id=client.client_id, listing_id=lst.listing_id, monthly_rent=lst.price,
        monthly_income=client.verified_monthly_income,
        income_to_rent_ratio=round(client.verified_monthly_income / lst.price, 2),
        security_deposit=_money(lst.price * security_deposit_months), pets=sorted(pets), move_in_date=move_in.isoformat(),
        application_fee=APPLICATION_FEE, status="pending", submitted_on=_today())
    return db.applications[aid]


@DOMAIN.tool(write=True)
def withdraw_application(
    db: RealEstateDB,
    client_id: ClientId,
    application_id: Annotated[str, Field(description="e.g. 'AP-60747'")],
    reason: Annotated[FreeText, Field(description="the client's reason, stored on the application")],
) -> RentalApplication:
    """Withdraw a pending rental application of the client."""
    client = _client(db, client_id)
    app = db.applications.require(application_id)
    if app.client_id != client.client_id:
        raise ToolError(f"application {app.application_id} is not client {client.client_id}'s")
    if app.status != "pending":
        raise ToolError(f"application {app.application_id} is {app.status}, not pending")
    app.status = "withdrawn"
    app.withdraw_reason = reason
    return app


# ----------------------------------------------------------------------------- purchase offers


@DOMAIN.tool
def preview_offer(
    db: RealEstateDB,
    client_id: ClientId,
    listing_id: ListingId,
    price: Annotated[float, Field(description="the offer price in dollars")],
) -> dict[str, Any]:
    """Figures for a purchase offer, without making it: asking price, the offer as a percent of asking, the
    difference, the earnest money deposit (1% of the price), and the client's pre-approval and proof of funds."""
    client = _client(db, client_id)
    lst = db.listings.require(listing_id)
    if lst.kind != "sale":
        raise ToolError(f"listing {lst.listing_id} is a rental, not for sale")
    if not price > 0:
        raise ToolError("price must be positive")
    return {"listing_id": lst.listing_id, "address": _address(lst), "listing_status": lst.status, "asking_price": lst.price,
            "offer_price": price, "percent_of_asking": round(price / lst.price * 100, 1),
            "below_asking_by": _money(lst.price - price), "earnest_money": _money(price * EARNEST_RATE),
            "preapproval": client.preapproval.model_dump() if client.preapproval else None,
            "proof_of_funds": client.proof_of_funds}


@DOMAIN.tool
def list_offers(db: RealEstateDB, client_id: ClientId) -> list[dict[str, Any]]:
    """Every purchase offer of a client with its full chain of rounds (buyer and seller prices, closing dates and
    expiry times), the listing's address, and whose move it is."""
    client = _client(db, client_id)
    rows = sorted(db.offers.where(client_id=client.client_id), key=lambda o: o.offer_id)
    out = []
    for o in rows:
        waiting = {"submitted": "seller", "countered": "buyer"}.get(o.status)
        out.append({**o.model_dump(), "address": _address(db.listings[o.listing_id]), "awaiting": waiting,
                    "buyer_proposals": sum(1 for r in o.rounds if r.by == "buyer")})
    return out


@DOMAIN.tool(write=True)
def submit_offer(
    db: RealEstateDB,
    client_id: ClientId,
    listing_id: ListingId,
    price: Annotated[float, Field(description="the offer price in dollars")],
    financing: Literal["cash", "mortgage"],
    closing_date: IsoDate,
    contingencies: Annotated[list[Contingency], Field(description="the contingencies the offer includes")],
) -> dict[str, Any]:
    """Send a purchase offer to the seller. It stays open for 48 hours. The system refuses only a second live offer
    by the client on the same listing; it does not check listing status, pre-approval, funds or closing dates."""
    client = _client(db, client_id)
    lst = db.listings.require(listing_id)
    if lst.kind != "sale":
        raise ToolError(f"listing {lst.listing_id} is a rental, not for sale")
    if not 0 < price < 1e9:
        raise ToolError("price must be a positive amount")
    closing = _date(closing_date, "closing_date")
    for o in db.offers.where(client_id=client.client_id):
        if o.listing_id == lst.listing_id and o.status in ("submitted", "countered", "accepted"):
            raise ToolError(f"client {client.client_id} already has live offer {o.offer_id} on this listing")
    oid = db.offers.new_key("OF-", client.client_id, lst.listing_id, price)
    round_ = OfferRound(by="buyer", price=float(price), closing_date=closing.isoformat(), made_on=_today(),
                        expires_at=_slot(DOMAIN.now + timedelta(hours=BUYER_ROUND_HOURS)))
    db.offers[oid] = Offer(offer_id=oid, client_id=client.client_id, listing_id=lst.listing_id, financing=financing,
                           contingencies=sorted(set(contingencies)), status="submitted", rounds=[round_])
    return {"offer": db.offers[oid].model_dump(), "address": _address(lst), "expires_at": round_.expires_at}


def _buyer_offer(db: RealEstateDB, client_id: str, offer_id: str) -> Offer:
    client = _client(db, client_id)
    offer = db.offers.require(offer_id)
    if offer.client_id != client.client_id:
        raise ToolError(f"offer {offer.offer_id} is not client {client.client_id}'s")
    return offer


@DOMAIN.tool(write=True)
def accept_counter_offer(db: RealEstateDB, client_id: ClientId, offer_id: OfferId) -> dict[str, Any]:
    """Accept the seller's latest counter-offer: the offer becomes accepted at the seller's price and closing date,
    the listing goes pending, and earnest money (1% of the price) falls due in 3 business days. The system does not
    check whether the counter has expired."""
    offer = _buyer_offer(db, client_id, offer_id)
    if offer.status != "countered" or offer.rounds[-1].by != "seller":
        raise ToolError(f"offer {offer.offer_id} has no seller counter-offer awaiting the buyer (status {offer.status})")
    last = offer.rounds[-1]
    offer.status = "accepted"
    offer.earnest_money = _money(last.price * EARNEST_RATE)
    offer.earnest_money_due = _business_days_after(DOMAIN.today, 3).isoformat()
    lst = db.listings[offer.listing_id]
    lst.status = "pending"
    return {"offer": offer.model_dump(), "accepted_price": last.price, "closing_date": last.closing_date,
            "earnest_money": offer.earnest_money, "earnest_money_due": offer.earnest_money_due}


@DOMAIN.tool(write=True)
def counter_offer(
    db: RealEstateDB,
    client_id: ClientId,
    offer_id: OfferId,
    price: Annotated[float, Field(description="the buyer's new price in dollars")],
    closing_date: Annotated[str | None, Field(description="a new closing date YYYY-MM-DD; omit to keep the seller's")] = None,
) -> dict[str, Any]:
    """Answer the seller's counter-offer with a buyer counter; it stays open 48 hours. The system does not check the
    price against earlier rounds, the number of rounds, or whether the seller's counter has expired."""
    offer = _buyer_offer(db, client_id, offer_id)
    if offer.status != "countered" or offer.rounds[-1].by != "seller":
        raise ToolError(f"offer {offer.offer_id} has no seller counter-offer awaiting the buyer (status {offer.status})")
    if not 0 < price < 1e9:
        raise ToolError("price must be a positive amount")
    closing = _date(closing_date, "closing_date").isoformat() if closing_date else offer.rounds[-1].closing_date
    round_ = OfferRound(by="buyer", price=float(price), closing_date=closing, made_on=_today(),
                        expires_at=_slot(DOMAIN.now + timedelta(hours=BUYER_ROUND_HOURS)))
    offer.rounds.append(round_)
    offer.status = "submitted"
    return {"offer": offer.model_dump(), "expires_at": round_.expires_at}


@DOMAIN.tool(write=True)
def withdraw_offer(
    db: RealEstateDB,
    client_id: ClientId,
    offer_id: OfferId,
    reason: Annotated[FreeText, Field(description="the client's reason, stored on the offer")],
) -> Offer:
    """Withdraw a purchase offer of the client. An accepted offer's listing goes back to active."""
    offer = _buyer_offer(db, client_id, offer_id)
    if offer.status in ("withdrawn", "rejected"):
        raise ToolError(f"offer {offer.offer_id} is already {offer.status}")
    if offer.status == "accepted":
        db.listings[offer.listing_id].status = "active"
    offer.status = "withdrawn"
    offer.withdraw_reason = reason
    return offer


# ----------------------------------------------------------------------------- leases


def _tenant_lease(db: RealEstateDB, client_id: str, lease_id: str) -> tuple[Client, Lease]:
    client = _client(db, client_id)
    lease = db.leases.require(lease_id)
    if client.client_id not in (lease.primary_tenant_id, *lease.co_tenant_ids):
        raise ToolError(f"client {client.client_id} is not a tenant on lease {lease.lease_id}")
    return client, lease


@DOMAIN.tool
def list_leases(db: RealEstateDB, client_id: ClientId) -> list[dict[str, Any]]:
    """Every lease on which the client is the primary tenant or a co-tenant, with the unit's address and the names
    of the people on the lease."""
    client = _client(db, client_id)
    out = []
    for lease in sorted(db.leases.values(), key=lambda x: x.lease_id):
        if client.client_id in (lease.primary_tenant_id, *lease.co_tenant_ids):
            names = {cid: f"{db.clients[cid].first_name} {db.clients[cid].last_name}"
                     for cid in [lease.primary_tenant_id, *sorted(lease.co_tenant_ids)]}
            out.append({**lease.model_dump(), "address": _address(db.listings[lease.listing_id]),
                        "primary_tenant_name": names[lease.primary_tenant_id],
                        "co_tenant_names": [names[c] for c in sorted(lease.co_tenant_ids)]})
    return out


def _renewal_rent(lease: Lease, extra_pct: float) -> float:
    return float(round(lease.monthly_rent * (1 + (lease.renewal_increase_pct + extra_pct) / 100)))


def _add_months(day: date, months: int) -> date:
    y, m = divmod(day.month - 1 + months, 12)
    return day.replace(year=day.year + y, month=m + 1, day=1)


@DOMAIN.tool
def quote_lease_renewal(db: RealEstateDB, lease_id: LeaseId) -> dict[str, Any]:
    """Renewal terms of a lease, without renewing: the renewal window (opens 120 days and closes 45 days before the
    end date), the new monthly rent for a 12-month and a 6-month renewal and the month-to-month rent that applies if
    the lease is not renewed, the new term dates, and any balance due."""
    lease = db.leases.require(lease_id)
    end = date.fromisoformat(lease.end_date)
    start = end + timedelta(days=1)
    return {"lease_id": lease.lease_id, "address": _address(db.listings[lease.listing_id]), "status": lease.status,
            "current_rent": lease.monthly_rent, "end_date": lease.end_date,
            "renewal_window_opens": (end - timedelta(days=RENEWAL_WINDOW_OPENS_DAYS)).isoformat(),
            "last_day_to_renew": (end - timedelta(days=RENEWAL_LAST_DAY_DAYS)).isoformat(),
            "options": {"12_months": {"monthly_rent": _renewal_rent(lease, 0), "start_date": start.isoformat(),
                                      "end_date": (_add_months(start, 12) - timedelta(days=1)).isoformat()},
                        "6_months": {"monthly_rent": _renewal_rent(lease, SIX_MONTH_PREMIUM_PCT), "start_date": start.isoformat(),
                                     "end_date": (_add_months(start, 6) - timedelta(days=1)).isoformat()}},
            "month_to_month_rent": _renewal_rent(lease, MONTH_TO_MONTH_PREMIUM_PCT), "balance_due": lease.balance_due}


@DOMAIN.tool(write=True)
def renew_lease(
    db: RealEstateDB,
    client_id: ClientId,
    lease_id: LeaseId,
    term: Literal["12_months", "6_months"],
) -> dict[str, Any]:
    """Renew a lease for 6 or 12 months at the quoted rent: a new lease (status upcoming) starts the day after the
    current one ends. The system refuses only a lease already renewed or ended; it does not check the window, the
    balance or who is calling."""
    client, lease = _tenant_lease(db, client_id, lease_id)
    if lease.status in ("renewed", "ended"):
        raise ToolError(f"lease {lease.lease_id} is {lease.status}")
    quote = quote_lease_renewal(db, lease.lease_id)["options"][term]
    new_id = db.leases.new_key("LS-", lease.lease_id, term)
    db.leases[new_id] = Lease(lease_id=new_id, listing_id=lease.listing_id, primary_tenant_id=lease.primary_tenant_id,
                              co_tenant_ids=list(lease.co_tenant_ids), monthly_rent=quote["monthly_rent"],
                              security_deposit=lease.security_deposit, start_date=quote["start_date"], end_date=quote["end_date"],
                              status="upcoming", renewal_increase_pct=lease.renewal_increase_pct, balance_due=0.0,
                              renewal_of=lease.lease_id)
    lease.status = "renewed"
    lease.renewed_by = new_id
    return {"new_lease": db.leases[new_id].model_dump(), "renewed_lease": lease.lease_id, "requested_by": client.client_id}


@DOMAIN.tool
def preview_move_out(db: RealEstateDB, lease_id: LeaseId, move_out_date: IsoDate) -> dict[str, Any]:
    """Notice figures for moving out on a date, without giving notice: the lease end date, the last day to give 60
    days' notice for that move-out date and for the end date, the earliest move-out date 60 days' notice allows from
    today, the days of notice the date gives, and the early-termination fee (two months' rent) if the date is before
    the lease ends."""
    lease = db.leases.require(lease_id)
    move_out = _date(move_out_date, "move_out_date")
    end = date.fromisoformat(lease.end_date)
    early = move_out < end
    return {"lease_id": lease.lease_id, "end_date": lease.end_date, "monthly_rent": lease.monthly_rent,
            "move_out_date": move_out.isoformat(), "days_of_notice_given_today": (move_out - DOMAIN.today).days,
            "notice_deadline_for_this_date": (move_out - timedelta(days=NOTICE_DAYS)).isoformat(),
            "notice_deadline_for_end_date": (end - timedelta(days=NOTICE_DAYS)).isoformat(),
            "earliest_move_out_with_full_notice": (DOMAIN.today + timedelta(days=NOTICE_DAYS)).isoformat(),
            "before_lease_end": early, "early_termination_fee": _money(lease.monthly_rent * 2) if early else 0.0}


@DOMAIN.tool(write=True)
def give_notice_to_vacate(
    db: RealEstateDB,
    client_id: ClientId,
    lease_id: LeaseId,
    move_out_date: IsoDate,
) -> Lease:
    """Record the tenants' notice to vacate on a move-out date. A date before the lease end date charges the
    early-termination fee (two months' rent); a date after it keeps the tenancy month to month until then. The
    system refuses only a lease that is not active; it does not check notice periods or who is calling."""
    _, lease = _tenant_lease(db, client_id, lease_id)
    if lease.status != "active":
        raise ToolError(f"lease {lease.lease_id} is {lease.status}, not active")
    move_out = _date(move_out_date, "move_out_date")
    if move_out <= DOMAIN.today:
        raise ToolError("the move-out date must be after today")
    lease.status = "notice_given"
    lease.move_out_date = move_out.isoformat()
    lease.notice_given_on = _today()
    lease.early_termination_fee = _money(lease.monthly_rent * 2) if move_out.isoformat() < lease.end_date else None
    return lease


# ----------------------------------------------------------------------------- maintenance


@DOMAIN.tool
def list_maintenance_requests(db: RealEstateDB, lease_id: LeaseId) -> list[MaintenanceRequest]:
    """Every maintenance request filed on a lease's unit, newest first."""
    lease = db.leases.require(lease_id)
    rows = db.maintenance_requests.where(lease_id=lease.lease_id)
    return sorted(rows, key=lambda r: (r.created_on, r.request_id), reverse=True)


@DOMAIN.tool(write=True)
def create_maintenance_request(
    db: RealEstateDB,
    client_id: ClientId,
    lease_id: LeaseId,
    category: Category,
    priority: Literal["emergency", "urgent", "routine"],
    description: Annotated[FreeText, Field(description="the problem in the tenant's words")],
    permission_to_enter: Annotated[bool, Field(description="whether maintenance may enter when no one is home")],
) -> MaintenanceRequest:
    """File a maintenance request for the unit of a lease the caller is a tenant on. The system does not check the
    priority, duplicates or the lease's status."""
    client, lease = _tenant_lease(db, client_id, lease_id)
    rid = db.maintenance_requests.new_key("MR-", lease.lease_id, category)
    db.maintenance_requests[rid] = MaintenanceRequest(
        request_id=rid, lease_id=lease.lease_id, client_id=client.client_id, category=category, priority=priority,
        description=description, permission_to_enter=permission_to_enter, status="open", created_on=_today())
    return db.maintenance_requests[rid]


# -- data invariants: Rhode Island's deposit cap, the clock, and addresses ------------------
DOMAIN.invariants(
    not_after_now("applications", "submitted_on"),
    not_after_now("tours", "booked_on"),
    not_after_now("listings", "listed_on"),
    not_after_now("maintenance_requests", "created_on"),
    not_after_now("offers", "rounds[].made_on"),
    not_after_now("leases", "notice_given_on"),
    not_after_now("clients", "preapproval.issued_on"),
    after_now("tours", "start", where=lambda tour: tour.status == "scheduled"),
    not_after_now("tours", "start", where=lambda tour: tour.status in ("completed", "no_show")),
    ordered("tours", "booked_on", "start"),
    ordered("leases", "start_date", "end_date", strict=True),
    plausible_age("clients", "date_of_birth", low=18, high=95),
    zip_matches_state("listings", "zip", "state"),
    consistent("listings", "zip", "city"),
    area_codes_valid("clients", "phone"),
    area_codes_valid("agents", "phone"),
    cents("applications", "security_deposit"),
)


@DOMAIN.invariant
def _deposits_at_most_one_month(db: RealEstateDB, now: datetime) -> Any:
    """security deposits at most one month's rent (R.I. Gen. Laws 34-18-19)"""
    for key, app in db.applications.items():
        if app.security_deposit > app.monthly_rent:
            yield f"applications[{key!r}]: deposit {app.security_deposit} over one month's rent {app.monthly_rent}"
    for key, lease in db.leases.items():
        if lease.security_deposit > lease.monthly_rent:
            yield f"leases[{key!r}]: deposit {lease.security_deposit} over one month's rent {lease.monthly_rent}"
