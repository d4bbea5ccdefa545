"""The retail support desk: customers, orders and a product catalog with variants."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from pytest_tau import Domain, ToolError, calculate as _calculate
from tests_domains.retail.schema import Address, Order, Payment, Product, RetailDB, User

DOMAIN = Domain("retail", RetailDB, fixtures=Path(__file__).parents[2] / "fixtures" / "retail")

TODAY = date(2026, 5, 15)  # the policy's current time: 2026-05-15 14:00 EST
RETURN_WINDOW_DAYS = 30
RESTOCKING_FEE_RATE = 0.10
RESTOCKING_CATEGORY = "Electronics"
CANCEL_REASONS = Literal["no longer needed", "ordered by mistake", "found a better price"]

OrderId = Annotated[str, Field(description="the order id, starting with '#W', such as '#W1234567'")]
UserId = Annotated[str, Field(description="the customer's user id, such as 'mia_garcia_1234'")]
ItemIds = Annotated[list[str], Field(description="the item ids of the order's items concerned, each listed once")]
NewItemIds = Annotated[
    list[str],
    Field(description="the new item ids (variants), one per entry of item_ids and in the same order"),
]
PaymentId = Annotated[str, Field(description="a payment method id from the customer's profile, such as 'credit_card_1234567'")]


def _order(db: RetailDB, order_id: str) -> Order:
    order = db.orders.get(order_id.strip())
    if order is None:
        raise ToolError(f"order {order_id!r} not found")
    return order


def _user(db: RetailDB, user_id: str) -> User:
    user = db.users.get(user_id.strip())
    if user is None:
        raise ToolError(f"user {user_id!r} not found")
    return user


def _current_payment_method(order: Order) -> str:
    """The payment method currently paying for the order (the latest payment)."""
    payments = [p for p in order.payment_history if p.transaction_type == "payment" and p.note in ("order placed", "payment method changed")]
    return payments[-1].payment_method_id


def _paid_total(order: Order) -> float:
    return round(sum(item.price for item in order.items), 2)


def _check_items(order: Order, item_ids: list[str]) -> None:
    if not item_ids:
        raise ToolError("item_ids must list at least one item")
    if len(set(item_ids)) != len(item_ids):
        raise ToolError("each item id may be listed only once")
    in_order = {item.item_id for item in order.items}
    for item_id in item_ids:
        if item_id not in in_order:
            raise ToolError(f"item {item_id} is not in order {order.order_id}")


def _check_new_items(db: RetailDB, order: Order, item_ids: list[str], new_item_ids: list[str]) -> float:
    """Validate a variant swap; return the price difference (new minus old)."""
    _check_items(order, item_ids)
    if len(new_item_ids) != len(item_ids):
        raise ToolError("new_item_ids must have exactly one entry per entry of item_ids")
    by_id = {item.item_id: item for item in order.items}
    difference = 0.0
    for old_id, new_id in zip(item_ids, new_item_ids):
        old = by_id[old_id]
        product = db.products.get(old.product_id)
        variant = product.variants.get(new_id) if product else None
        if variant is None:
            raise ToolError(f"item {new_id} is not a variant of {old.name} (product {old.product_id}); only the same product can be swapped")
        if new_id == old_id:
            raise ToolError(f"item {new_id} is the same variant as the one ordered")
        if not variant.available:
            raise ToolError(f"item {new_id} ({old.name}, {variant.options}) is not available")
        difference += variant.price - old.price
    return round(difference, 2)


def _settle(db: RetailDB, order: Order, user: User, payment_method_id: str, difference: float, note: str) -> None:
    """Charge (difference > 0) or refund (difference < 0) a payment method of the user."""
    method = user.payment_methods.get(payment_method_id)
    if method is None:
        raise ToolError(f"payment method {payment_method_id!r} is not on file for this customer")
    if difference > 0 and method.source == "gift_card" and (method.balance or 0) < difference:
        raise ToolError(f"gift card {payment_method_id} balance {method.balance:.2f} does not cover the {difference:.2f} charge")
    if difference == 0:
        return
    if method.source == "gift_card":
        method.balance = round((method.balance or 0) - difference, 2)
    kind = "payment" if difference > 0 else "refund"
    order.payment_history.append(Payment(transaction_type=kind, amount=round(abs(difference), 2), payment_method_id=payment_method_id, note=note))


def _check_window(order: Order) -> None:
    delivered = date.fromisoformat(order.delivered_at or "1900-01-01")
    if TODAY - delivered > timedelta(days=RETURN_WINDOW_DAYS):
        raise ToolError(f"order {order.order_id} was delivered on {order.delivered_at}, more than {RETURN_WINDOW_DAYS} days ago; it is outside the return and exchange window")


# -- lookups ---------------------------------------------------------------------------


@DOMAIN.tool
def find_user_id_by_email(db: RetailDB, email: Annotated[str, Field(description="the customer's email address")]) -> str:
    """Find a customer's user id from their email address."""
    wanted = email.strip().lower()
    for user in db.users.values():
        if user.email == wanted:
            return user.user_id
    raise ToolError("no customer with that email")


@DOMAIN.tool
def find_user_id_by_name_zip(
    db: RetailDB,
    first_name: Annotated[str, Field(description="the customer's first name")],
    last_name: Annotated[str, Field(description="the customer's last name")],
    zip: Annotated[str, Field(description="the 5-digit zip code of the customer's default address")],
) -> str:
    """Find a customer's user id from their first name, last name and the zip code of their default address."""
    first, last, code = first_name.strip().lower(), last_name.strip().lower(), zip.strip()
    for user in db.users.values():
        if user.name.first_name.lower() == first and user.name.last_name.lower() == last and user.address.zip == code:
            return user.user_id
    raise ToolError("no customer with that name and zip code")


@DOMAIN.tool
def get_user_details(db: RetailDB, user_id: UserId) -> User:
    """Get a customer's profile: name, email, default address, payment methods (with gift card balances) and order ids."""
    return _user(db, user_id)


@DOMAIN.tool
def get_order_details(db: RetailDB, order_id: OrderId) -> Order:
    """Get an order: status, dates, shipping address, items with prices, payments, tracking and any return or exchange."""
    return _order(db, order_id)


@DOMAIN.tool
def get_product_details(db: RetailDB, product_id: Annotated[str, Field(description="the 10-digit product id")]) -> Product:
    """Get a product's category and every variant (item id, options, price, availability)."""
    product = db.products.get(product_id.strip())
    if product is None:
        raise ToolError(f"product {product_id!r} not found")
    return product


@DOMAIN.tool
def list_all_product_types(db: RetailDB) -> dict[str, str]:
    """List every product type the store sells: product name -> product id."""
    return {product.name: product.product_id for product in sorted(db.products.values(), key=lambda p: p.name)}


@DOMAIN.tool
def calculate(db: RetailDB, expression: Annotated[str, Field(description="an arithmetic expression, such as '129.99 - 104.5'")]) -> str:
    """Evaluate an arithmetic expression (numbers, + - * / and parentheses); the result is rounded to 2 decimals."""
    return _calculate(expression)


# -- writes ----------------------------------------------------------------------------


@DOMAIN.tool(write=True)
def cancel_pending_order(
    db: RetailDB,
    order_id: OrderId,
    reason: Annotated[CANCEL_REASONS, Field(description="the customer's reason, exactly one of the allowed values")],
) -> Order:
    """Cancel a pending order. Everything paid is refunded to the payment methods that paid it;
    gift card refunds are credited to the gift card at once."""
    order = _order(db, order_id)
    if order.status != "pending":
        raise ToolError(f"order {order.order_id} is {order.status}; only pending orders can be cancelled")
    user = _user(db, order.user_id)
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
    """Swap items of a pending order for other available variants of the same products, all in one call
    (an order's items can be modified only once). The price difference is charged to, or refunded to,
    payment_method_id; a gift card must cover a charge."""
    order = _order(db, order_id)
    if order.status != "pending":
        raise ToolError(f"order {order.order_id} is {order.status}; only pending orders can be modified")
    if order.items_modified:
        raise ToolError(f"the items of order {order.order_id} were already modified once; they cannot be modified again")
    difference = _check_new_items(db, order, item_ids, new_item_ids)
    user = _user(db, order.user_id)
    _settle(db, order, user, payment_method_id, difference, "item modification")
    for old_id, new_id in zip(item_ids, new_item_ids):
        for item in order.items:
            if item.item_id == old_id:
                variant = db.products[item.product_id].variants[new_id]
                item.item_id, item.options, item.price = new_id, dict(variant.options), variant.price
    order.items_modified = True
    return order


@DOMAIN.tool(write=True)
def modify_pending_order_address(
    db: RetailDB,
    order_id: OrderId,
    address1: Annotated[str, Field(description="street address, such as '123 Main Street'")],
    address2: Annotated[str, Field(description="apartment, suite or unit; an empty string if none")],
    city: str,
    state: Annotated[str, Field(description="2-letter state code")],
    country: Annotated[str, Field(description="the country; the store ships only within 'USA'")],
    zip: Annotated[str, Field(description="5-digit zip code")],
) -> Order:
    """Change the shipping address of a pending order."""
    order = _order(db, order_id)
    if order.status != "pending":
        raise ToolError(f"order {order.order_id} is {order.status}; only a pending order's address can be changed")
    order.address = _new_address(address1, address2, city, state, country, zip)
    return order


def _new_address(address1: str, address2: str, city: str, state: str, country: str, zip: str) -> Address:
    if country.strip() != "USA":
        raise ToolError("the store ships only to addresses in the USA (country 'USA')")
    if not (len(zip.strip()) == 5 and zip.strip().isdigit()):
        raise ToolError("zip must be a 5-digit code")
    if not (len(state.strip()) == 2 and state.strip().isalpha()):
        raise ToolError("state must be a 2-letter code")
    if not address1.strip() or not city.strip():
        raise ToolError("address1 and city are required")
    return Address(address1=address1.strip(), address2=address2.strip(), city=city.strip(), state=state.strip().upper(), country="USA", zip=zip.strip())


@DOMAIN.tool(write=True)
def modify_pending_order_payment(db: RetailDB, order_id: OrderId, payment_method_id: PaymentId) -> Order:
    """Pay a pending order with another payment method on file: the new method is charged the order
    total and the current one refunded in full. A gift card must cover the whole total."""
    order = _order(db, order_id)
    if order.status != "pending":
        raise ToolError(f"order {order.order_id} is {order.status}; only a pending order's payment can be changed")
    user = _user(db, order.user_id)
    current = _current_payment_method(order)
    if payment_method_id == current:
        raise ToolError(f"order {order.order_id} is already paid with {current}")
    new = user.payment_methods.get(payment_method_id)
    if new is None:
        raise ToolError(f"payment method {payment_method_id!r} is not on file for this customer")
    total = _paid_total(order)
    if new.source == "gift_card" and (new.balance or 0) < total:
        raise ToolError(f"gift card {payment_method_id} balance {new.balance:.2f} does not cover the order total {total:.2f}")
    if new.source == "gift_card":
        new.balance = round((new.balance or 0) - total, 2)
    old = user.payment_methods.get(current)
    if old is not None and old.source == "gift_card":
        old.balance = round((old.balance or 0) + total, 2)
    order.payment_history.append(Payment(transaction_type="payment", amount=total, payment_method_id=payment_method_id, note="payment method changed"))
    order.payment_history.append(Payment(transaction_type="refund", amount=total, payment_method_id=current, note="payment method changed"))
    return order


@DOMAIN.tool(write=True)
def modify_user_address(
    db: RetailDB,
    user_id: UserId,
    address1: Annotated[str, Field(description="street address, such as '123 Main Street'")],
    address2: Annotated[str, Field(description="apartment, suite or unit; an empty string if none")],
    city: str,
    state: Annotated[str, Field(description="2-letter state code")],
    country: Annotated[str, Field(description="the country; only 'USA'")],
    zip: Annotated[str, Field(description="5-digit zip code")],
) -> User:
    """Change a customer's default address (used for future orders; existing orders keep theirs)."""
    user = _user(db, user_id)
    user.address = _new_address(address1, address2, city, state, country, zip)
    return user


@DOMAIN.tool(write=True)
def return_delivered_order_items(db: RetailDB, order_id: OrderId, item_ids: ItemIds, payment_method_id: PaymentId) -> Order:
    """Request the return of items of a delivered order (once per order, within 30 days of delivery).
    The refund goes to the original payment method or to a gift card on file; Electronics items carry a
    10% restocking fee. Gift card refunds are credited at once."""
    order = _order(db, order_id)
    if order.status != "delivered":
        raise ToolError(f"order {order.order_id} is {order.status}; only delivered orders can have items returned")
    _check_window(order)
    _check_items(order, item_ids)
    user = _user(db, order.user_id)
    original = _current_payment_method(order)
    method = user.payment_methods.get(payment_method_id)
    if method is None:
        raise ToolError(f"payment method {payment_method_id!r} is not on file for this customer")
    if payment_method_id != original and method.source != "gift_card":
        raise ToolError(f"a refund goes to the original payment method ({original}) or to a gift card")
    items = [item for item in order.items if item.item_id in item_ids]
    subtotal = round(sum(item.price for item in items), 2)
    fee_base = sum(item.price for item in items if db.products[item.product_id].category == RESTOCKING_CATEGORY)
    fee = round(fee_base * RESTOCKING_FEE_RATE, 2)
    refund = round(subtotal - fee, 2)
    if method.source == "gift_card":
        method.balance = round((method.balance or 0) + refund, 2)
    order.payment_history.append(Payment(transaction_type="refund", amount=refund, payment_method_id=payment_method_id, note="return requested"))
    order.status = "return requested"
    order.return_items = sorted(item_ids)
    order.return_refund_amount = refund
    order.return_payment_method_id = payment_method_id
    return order


@DOMAIN.tool(write=True)
def exchange_delivered_order_items(
    db: RetailDB, order_id: OrderId, item_ids: ItemIds, new_item_ids: NewItemIds, payment_method_id: PaymentId
) -> Order:
    """Request an exchange of items of a delivered order for other available variants of the same
    products (once per order, within 30 days of delivery). The price difference is charged to, or
    refunded to, payment_method_id; a gift card must cover a charge."""
    order = _order(db, order_id)
    if order.status != "delivered":
        raise ToolError(f"order {order.order_id} is {order.status}; only delivered orders can have items exchanged")
    _check_window(order)
    difference = _check_new_items(db, order, item_ids, new_item_ids)
    user = _user(db, order.user_id)
    _settle(db, order, user, payment_method_id, difference, "exchange price difference")
    order.status = "exchange requested"
    order.exchange_items = list(item_ids)
    order.exchange_new_items = list(new_item_ids)
    order.exchange_payment_method_id = payment_method_id
    return order


@DOMAIN.tool(transfer=True)
def transfer_to_human_agents(
    db: RetailDB, summary: Annotated[str, Field(description="a short summary of the customer and the request")]
) -> str:
    """Transfer the customer to a human agent, with a summary of the issue. Only when the request is outside the policy and the customer insists."""
    return "Transfer successful"
