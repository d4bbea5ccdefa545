"""The retail support desk: customers, orders and a product catalog with variants.

The tools refuse only what the data makes impossible (no such record, a payment method not on
the customer's profile, an item not in the order, a variant out of stock, a gift card that
cannot cover a charge, an order with nothing left to cancel or return). The rules of the policy
(which statuses may be changed, the return window, once-only modifications, where a refund may
go, whose order it is) are the agent's to apply.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, ToolError
from pytest_tau.invariants import Invariant, cents, half_up, not_after_now, ordered, zip_matches_state
from tests_domains.retail.schema import Address, Order, Payment, Product, RetailDB, User

DOMAIN = Domain("retail", RetailDB, now=datetime(2026, 5, 15, 14, 0))

RESTOCKING_FEE_RATE = 0.10
RESTOCKING_CATEGORY = "Electronics"
CANCEL_REASONS = Literal["no longer needed", "ordered by mistake", "found a better price"]
NOT_YET_DELIVERED = ("pending", "processed")
RETURN_NOTE = "return requested"
EXCHANGE_NOTE = "exchange price difference"

OrderId = Annotated[str, Field(description="the order id, starting with '#W', such as '#W1234567'")]
UserId = Annotated[str, Field(description="the customer's user id, such as 'mia_garcia_1234'")]
ItemIds = Annotated[list[str], Field(description="the item ids of the order's items concerned, each listed once")]
NewItemIds = Annotated[
    list[str],
    Field(description="the new item ids (variants), one per entry of item_ids and in the same order"),
]
PaymentId = Annotated[str, Field(description="a payment method id from the customer's profile, such as 'credit_card_1234567'")]
Street = Annotated[str, Field(description="street address, such as '123 Main Street'")]
Unit = Annotated[str, Field(description="apartment, suite or unit; an empty string if none")]
State = Annotated[str, Field(description="2-letter state code")]
Country = Annotated[str, Field(description="the country, such as 'USA'")]
Zip = Annotated[str, Field(description="5-digit zip code")]


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _current_payment_method(order: Order) -> str:
    """The payment method currently paying for the order (the latest placement or change)."""
    payments = [p for p in order.payment_history if p.transaction_type == "payment" and p.note in ("order placed", "payment method changed")]
    return payments[-1].payment_method_id


def _method(user: User, payment_method_id: str) -> Any:
    method = user.payment_methods.get(payment_method_id.strip())
    if method is None:
        raise ToolError(f"payment method {payment_method_id!r} is not on file for customer {user.user_id}")
    return method


def _check_items(order: Order, item_ids: list[str]) -> None:
    if not item_ids:
        raise ToolError("item_ids must list at least one item")
    if len(set(item_ids)) != len(item_ids):
        raise ToolError("each item id may be listed only once")
    in_order = {item.item_id for item in order.items}
    for item_id in item_ids:
        if item_id not in in_order:
            raise ToolError(f"item {item_id!r} is not in order {order.order_id}")


def _swaps(db: RetailDB, order: Order, item_ids: list[str], new_item_ids: list[str]) -> list[dict[str, Any]]:
    """Each requested variant swap with its old and new price (checked against the catalog)."""
    _check_items(order, item_ids)
    if len(new_item_ids) != len(item_ids):
        raise ToolError("new_item_ids must have exactly one entry per entry of item_ids")
    by_id = {item.item_id: item for item in order.items}
    swaps = []
    for old_id, new_id in zip(item_ids, new_item_ids, strict=True):
        old = by_id[old_id]
        variant = db.products.require(old.product_id).variants.get(new_id.strip())
        if variant is None:
            raise ToolError(f"item {new_id!r} is not a variant of {old.name} (product {old.product_id})")
        if variant.item_id == old_id:
            raise ToolError(f"item {new_id} is the variant already in the order")
        if not variant.available:
            raise ToolError(f"item {new_id} ({old.name}, {variant.options}) is out of stock")
        swaps.append({"item_id": old_id, "new_item_id": variant.item_id, "name": old.name, "old_options": old.options,
                      "new_options": variant.options, "old_price": old.price, "new_price": variant.price})
    return swaps


def _difference(swaps: list[dict[str, Any]]) -> float:
    return round(float(sum(s["new_price"] for s in swaps)) - float(sum(s["old_price"] for s in swaps)), 2)


def _settle(order: Order, user: User, payment_method_id: str, difference: float, note: str) -> None:
    """Charge (difference > 0) or refund (difference < 0) a payment method of the user."""
    method = _method(user, payment_method_id)
    if difference > 0 and method.source == "gift_card" and (method.balance or 0) < difference:
        raise ToolError(f"gift card {method.id} has a balance of {method.balance:.2f}, less than the {difference:.2f} charge")
    if difference == 0:
        return
    if method.source == "gift_card":
        method.balance = round((method.balance or 0) - difference, 2)
    kind: Literal["payment", "refund"] = "payment" if difference > 0 else "refund"
    order.payment_history.append(Payment(transaction_type=kind, amount=round(abs(difference), 2), payment_method_id=method.id, note=note))


def _undo(order: Order, user: User, note: str) -> None:
    """Take back the payments and refunds of an earlier request (a request made again replaces it)."""
    for payment in [p for p in order.payment_history if p.note == note]:
        method = user.payment_methods.get(payment.payment_method_id)
        if method is not None and method.source == "gift_card":
            sign = 1 if payment.transaction_type == "payment" else -1
            method.balance = round((method.balance or 0) + sign * payment.amount, 2)
    order.payment_history = [p for p in order.payment_history if p.note != note]


def restocking_fee(electronics_total: float) -> float:
    """10% of the returned Electronics items' prices, half a cent rounded up as on any invoice (a binary-float
    round() would turn 14.995 into 14.99)."""
    return float(half_up(electronics_total * RESTOCKING_FEE_RATE))


def _return_refund_exact(order: Order, db: RetailDB) -> float | None:
    """The refund a return request on file must hold: the returned items' prices less the restocking fee."""
    if order.return_refund_amount is None:
        return None
    items = [item for item in order.items if item.item_id in order.return_items]
    electronics = sum(item.price for item in items if db.products.require(item.product_id).category == RESTOCKING_CATEGORY)
    return float(sum(item.price for item in items)) - restocking_fee(electronics)


def _return_quote(db: RetailDB, order: Order, item_ids: list[str]) -> dict[str, Any]:
    _check_items(order, item_ids)
    items = [item for item in order.items if item.item_id in item_ids]
    subtotal = round(sum(item.price for item in items), 2)
    fee_base = sum(item.price for item in items if db.products.require(item.product_id).category == RESTOCKING_CATEGORY)
    fee = restocking_fee(fee_base)
    return {
        "order_id": order.order_id,
        "items": [{"item_id": i.item_id, "name": i.name, "options": i.options, "price": i.price,
                   "category": db.products.require(i.product_id).category} for i in items],
        "items_total": subtotal,
        "restocking_fee": fee,
        "refund": round(subtotal - fee, 2),
    }


def _new_address(address1: str, address2: str, city: str, state: str, country: str, zip: str) -> Address:
    if not (len(zip.strip()) == 5 and zip.strip().isdigit()):
        raise ToolError("zip must be a 5-digit code")
    if not (len(state.strip()) == 2 and state.strip().isalpha()):
        raise ToolError("state must be a 2-letter code")
    if not address1.strip() or not city.strip() or not country.strip():
        raise ToolError("address1, city and country are required")
    return Address(address1=address1.strip(), address2=address2.strip(), city=city.strip(), state=state.strip().upper(),
                   country=country.strip(), zip=zip.strip())


def _not_shipping(order: Order) -> None:
    """An order that is already delivered or cancelled has no shipment left to change."""
    if order.status not in NOT_YET_DELIVERED:
        raise ToolError(f"order {order.order_id} is {order.status}: there is no shipment left to change")


# -- lookups ---------------------------------------------------------------------------


@DOMAIN.tool(authenticates=True)
def find_user_id_by_email(db: RetailDB, email: Annotated[str, Field(description="the customer's email address")]) -> str:
    """Find a customer's user id from their email address."""
    found = db.users.find(email=email)
    if not found:
        raise ToolError("no customer with that email")
    return found[0].user_id


@DOMAIN.tool(authenticates=True)
def find_user_id_by_name_zip(
    db: RetailDB,
    first_name: Annotated[str, Field(description="the customer's first name")],
    last_name: Annotated[str, Field(description="the customer's last name")],
    zip: Annotated[str, Field(description="the 5-digit zip code of the customer's default address")],
) -> str:
    """Find a customer's user id from their first name, last name and the zip code of their default address."""
    first, last, code = _fold(first_name), _fold(last_name), zip.strip()
    for user in db.users.values():
        if _fold(user.name.first_name) == first and _fold(user.name.last_name) == last and user.address.zip == code:
            return user.user_id
    raise ToolError("no customer with that name and zip code")


@DOMAIN.tool
def get_user_details(db: RetailDB, user_id: UserId) -> User:
    """Get a customer's profile: name, email, default address, payment methods (with gift card balances) and order ids."""
    return db.users.require(user_id)


@DOMAIN.tool
def get_order_details(db: RetailDB, order_id: OrderId) -> Order:
    """Get an order: status, dates, shipping address, items with prices, payments, tracking and any return or exchange."""
    return db.orders.require(order_id)


@DOMAIN.tool
def get_product_details(db: RetailDB, product_id: Annotated[str, Field(description="the 10-digit product id")]) -> Product:
    """Get a product's category and every variant (item id, options, price, availability)."""
    return db.products.require(product_id)


@DOMAIN.tool
def list_all_product_types(db: RetailDB) -> dict[str, str]:
    """List every product type the store sells: product name -> product id."""
    return {product.name: product.product_id for product in sorted(db.products.values(), key=lambda p: p.name)}


@DOMAIN.tool
def quote_return(db: RetailDB, order_id: OrderId, item_ids: ItemIds) -> dict[str, Any]:
    """Preview the refund for returning items of an order, without changing anything: the items' total,
    the restocking fee (10% of the price of Electronics items) and the refund."""
    return _return_quote(db, db.orders.require(order_id), item_ids)


@DOMAIN.tool
def quote_item_change(db: RetailDB, order_id: OrderId, item_ids: ItemIds, new_item_ids: NewItemIds) -> dict[str, Any]:
    """Preview swapping items of an order for other variants of the same products (a modification or an
    exchange), without changing anything: each swap's prices and the price difference to charge or refund."""
    swaps = _swaps(db, db.orders.require(order_id), item_ids, new_item_ids)
    difference = _difference(swaps)
    return {"order_id": order_id.strip(), "swaps": swaps, "price_difference": difference,
            "customer_pays": max(difference, 0.0), "customer_gets_back": max(-difference, 0.0)}


# -- writes ----------------------------------------------------------------------------


@DOMAIN.tool(write=True)
def cancel_pending_order(
    db: RetailDB,
    order_id: OrderId,
    reason: Annotated[CANCEL_REASONS, Field(description="the customer's reason, exactly one of the allowed values")],
) -> Order:
    """Cancel an order that has not been delivered. Everything paid is refunded to the payment methods that
    paid it; gift card refunds are credited to the gift card at once."""
    order = db.orders.require(order_id)
    _not_shipping(order)
    user = db.users.require(order.user_id)
    net: dict[str, float] = {}
    for payment in order.payment_history:
        sign = 1 if payment.transaction_type == "payment" else -1
        net[payment.payment_method_id] = net.get(payment.payment_method_id, 0.0) + sign * payment.amount
    for method_id in sorted(net):
        amount = round(net[method_id], 2)
        if amount <= 0:
            continue
        order.payment_history.append(Payment(transaction_type="refund", amount=amount, payment_method_id=method_id, note="order cancelled"))
        method = user.payment_methods.get(method_id)
        if method is not None and method.source == "gift_card":
            method.balance = round((method.balance or 0) + amount, 2)
    order.status = "cancelled"
    order.cancel_reason = reason
    return order


@DOMAIN.tool(write=True)
def modify_pending_order_items(
    db: RetailDB, order_id: OrderId, item_ids: ItemIds, new_item_ids: NewItemIds, payment_method_id: PaymentId
) -> Order:
    """Swap items of an order not yet delivered for other available variants of the same products, all in
    one call. The price difference is charged to, or refunded to, payment_method_id; a gift card must have
    the balance to cover a charge."""
    order = db.orders.require(order_id)
    _not_shipping(order)
    swaps = _swaps(db, order, item_ids, new_item_ids)
    user = db.users.require(order.user_id)
    _settle(order, user, payment_method_id, _difference(swaps), "item modification")
    for swap in swaps:
        for item in order.items:
            if item.item_id == swap["item_id"]:
                item.item_id, item.options, item.price = swap["new_item_id"], dict(swap["new_options"]), swap["new_price"]
    order.items_modified = True
    return order


@DOMAIN.tool(write=True)
def modify_pending_order_address(
    db: RetailDB, order_id: OrderId, address1: Street, address2: Unit, city: str, state: State, country: Country, zip: Zip
) -> Order:
    """Change the shipping address of an order not yet delivered."""
    order = db.orders.require(order_id)
    _not_shipping(order)
    order.address = _new_address(address1, address2, city, state, country, zip)
    return order


@DOMAIN.tool(write=True)
def modify_pending_order_payment(db: RetailDB, order_id: OrderId, payment_method_id: PaymentId) -> Order:
    """Pay an order not yet delivered with another payment method on the profile: the new method is charged
    the order total and the current one refunded in full. A gift card must have the balance to cover the total."""
    order = db.orders.require(order_id)
    _not_shipping(order)
    user = db.users.require(order.user_id)
    current = _current_payment_method(order)
    new = _method(user, payment_method_id)
    if new.id == current:
        raise ToolError(f"order {order.order_id} is already paid with {current}")
    total = round(sum(item.price for item in order.items), 2)
    if new.source == "gift_card" and (new.balance or 0) < total:
        raise ToolError(f"gift card {new.id} has a balance of {new.balance:.2f}, less than the order total {total:.2f}")
    if new.source == "gift_card":
        new.balance = round((new.balance or 0) - total, 2)
    old = user.payment_methods.get(current)
    if old is not None and old.source == "gift_card":
        old.balance = round((old.balance or 0) + total, 2)
    order.payment_history.append(Payment(transaction_type="payment", amount=total, payment_method_id=new.id, note="payment method changed"))
    order.payment_history.append(Payment(transaction_type="refund", amount=total, payment_method_id=current, note="payment method changed"))
    return order


@DOMAIN.tool(write=True)
def modify_user_address(
    db: RetailDB, user_id: UserId, address1: Street, address2: Unit, city: str, state: State, country: Country, zip: Zip
) -> User:
    """Change a customer's default address (used for future orders; existing orders keep theirs)."""
    user = db.users.require(user_id)
    user.address = _new_address(address1, address2, city, state, country, zip)
    return user


@DOMAIN.tool(write=True)
def return_delivered_order_items(db: RetailDB, order_id: OrderId, item_ids: ItemIds, payment_method_id: PaymentId) -> Order:
    """Request the return of items of a delivered order, refunded (items total minus the restocking fee, as
    `quote_return` shows) to payment_method_id. Gift card refunds are credited at once. A return requested
    again for the same order replaces the earlier request."""
    order = db.orders.require(order_id)
    if order.status not in ("delivered", "return requested"):
        raise ToolError(f"order {order.order_id} is {order.status}: it has no delivered items to return")
    user = db.users.require(order.user_id)
    quote = _return_quote(db, order, item_ids)
    method = _method(user, payment_method_id)
    _undo(order, user, RETURN_NOTE)
    if method.source == "gift_card":
        method.balance = round((method.balance or 0) + quote["refund"], 2)
    order.payment_history.append(Payment(transaction_type="refund", amount=quote["refund"], payment_method_id=method.id, note=RETURN_NOTE))
    order.status = "return requested"
    order.return_items = sorted(item_ids)
    order.return_refund_amount = quote["refund"]
    order.return_payment_method_id = method.id
    return order


@DOMAIN.tool(write=True)
def exchange_delivered_order_items(
    db: RetailDB, order_id: OrderId, item_ids: ItemIds, new_item_ids: NewItemIds, payment_method_id: PaymentId
) -> Order:
    """Request an exchange of items of a delivered order for other available variants of the same products.
    The price difference is charged to, or refunded to, payment_method_id; a gift card must have the balance
    to cover a charge. An exchange requested again for the same order replaces the earlier request."""
    order = db.orders.require(order_id)
    if order.status not in ("delivered", "exchange requested"):
        raise ToolError(f"order {order.order_id} is {order.status}: it has no delivered items to exchange")
    swaps = _swaps(db, order, item_ids, new_item_ids)
    user = db.users.require(order.user_id)
    _undo(order, user, EXCHANGE_NOTE)
    _settle(order, user, payment_method_id, _difference(swaps), EXCHANGE_NOTE)
    pairs = sorted((s["item_id"], s["new_item_id"]) for s in swaps)
    order.status = "exchange requested"
    order.exchange_items = [old for old, _ in pairs]
    order.exchange_new_items = [new for _, new in pairs]
    order.exchange_payment_method_id = payment_method_id.strip()
    return order


# -- data invariants: the clock, ages, places and money the policy relies on -------------------
def _exchanges_settled(db: RetailDB, now: datetime) -> Iterator[str]:
    """An exchange request on file settled its price difference (policy 7.3) as the exchange tool records it."""
    for order_id, order in db.orders.items():
        if not order.exchange_items:
            continue
        product_of = {item.item_id: item.product_id for item in order.items}
        old = sum(item.price for item in order.items if item.item_id in order.exchange_items)
        new = sum(db.products.require(product_of[old_id]).variants[new_id].price
                  for old_id, new_id in zip(order.exchange_items, order.exchange_new_items, strict=True))
        expected = float(half_up(new - old))
        settled = sum(p.amount if p.transaction_type == "payment" else -p.amount
                      for p in order.payment_history if p.note == EXCHANGE_NOTE)
        if float(half_up(settled)) != expected:
            yield f"orders[{order_id!r}]: exchange price difference {expected:.2f}, but {settled:.2f} settled"


DOMAIN.invariants(
    Invariant("orders: an exchange request settled its price difference", _exchanges_settled),
    not_after_now("users", "member_since"),
    not_after_now("orders", "placed_at"),
    not_after_now("orders", "delivered_at"),
    ordered("orders", "placed_at", "delivered_at"),
    zip_matches_state("users", "address.zip", "address.state"),
    cents("orders", "items[].price"),
    cents("orders", "return_refund_amount", computed=_return_refund_exact),
)

# Orders the policy states, graded where a task's gold calls both tools.
DOMAIN.order("quote_return", "return_delivered_order_items")  # 6.4: the refund is quoted and told before the return
DOMAIN.order("quote_item_change", "exchange_delivered_order_items")  # 7.3: the difference is quoted and told first
DOMAIN.order("quote_item_change", "modify_pending_order_items")  # 5.3: the difference is quoted before confirming
