"""The retail desk's database: customers, their orders, and the product catalog."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from pytest_tau import Confidential, Formatted, Table, Unordered


class Address(BaseModel):
    address1: Formatted
    address2: Formatted
    city: Formatted
    state: str
    country: Formatted
    zip: str


class Name(BaseModel):
    first_name: str
    last_name: str


class PaymentMethod(BaseModel):
    id: str
    source: Literal["credit_card", "gift_card", "paypal"]
    brand: str | None = None
    last_four: str | None = None
    balance: float | None = None


class User(BaseModel):
    user_id: str
    name: Name
    email: str
    address: Address
    payment_methods: dict[str, PaymentMethod]
    orders: list[str]
    member_since: str
    risk_score: Confidential[float]  # the fraud team's account score: never told to anyone (policy 1.6)


class Variant(BaseModel):
    item_id: str
    options: dict[str, str]
    price: float
    available: bool


class Product(BaseModel):
    product_id: str
    name: str
    category: Literal["Apparel", "Footwear", "Electronics", "Home", "Kitchen", "Outdoors", "Accessories", "Toys"]
    variants: dict[str, Variant]


class OrderItem(BaseModel):
    item_id: str
    product_id: str
    name: str
    options: dict[str, str]
    price: float


class Payment(BaseModel):
    transaction_type: Literal["payment", "refund"]
    amount: float
    payment_method_id: str
    note: str


class Fulfillment(BaseModel):
    tracking_id: str
    carrier: str
    item_ids: list[str]


OrderStatus = Literal["pending", "processed", "delivered", "cancelled", "return requested", "exchange requested"]


class Order(BaseModel):
    order_id: str
    user_id: str
    status: OrderStatus
    placed_at: str
    delivered_at: str | None = None
    address: Address
    items: list[OrderItem]
    payment_history: Unordered[Payment]  # appended by independent writes: order means nothing
    fulfillments: list[Fulfillment] = Field(default_factory=list)
    items_modified: bool = False
    cancel_reason: str | None = None
    return_items: list[str] = Field(default_factory=list)  # sorted by the tool
    return_refund_amount: float | None = None
    return_payment_method_id: str | None = None
    # paired lists (exchange_items[i] becomes exchange_new_items[i]), sorted by the old item id by the tool
    exchange_items: list[str] = Field(default_factory=list)
    exchange_new_items: list[str] = Field(default_factory=list)
    exchange_payment_method_id: str | None = None


class RetailDB(BaseModel):
    users: Table[User]
    orders: Table[Order]
    products: Table[Product]
