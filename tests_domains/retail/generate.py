"""Seeded generator of the retail desk's DB: `python -m tests_domains.retail.generate`.

Writes fixtures/retail/db.json byte-for-byte the same on every run. `generate(seed, scale)`
returns the DB as a dict; scale=10 gives a ten times larger DB for benchmarks.
"""

from __future__ import annotations

import itertools
import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pytest_tau import dump_db
from tests_domains.retail.domain import EXCHANGE_NOTE, RESTOCKING_CATEGORY, restocking_fee

SEED = 20260515
TODAY = date(2026, 5, 15)
OUT = Path(__file__).parents[2] / "fixtures" / "retail" / "db.json"

COLORS = ["black", "white", "navy", "red", "green", "grey", "blue", "beige", "pink", "orange"]
SIZES = ["XS", "S", "M", "L", "XL"]
SHOE_SIZES = ["7", "8", "9", "10", "11", "12"]

# name, category, base price, option axes (each axis: name -> values to draw from, how many)
CATALOG = [
    ("T-Shirt", "Apparel", 24, {"color": (COLORS, 3), "size": (SIZES, 4)}),
    ("Hoodie", "Apparel", 58, {"color": (COLORS, 3), "size": (SIZES, 4)}),
    ("Rain Jacket", "Apparel", 119, {"color": (COLORS, 3), "size": (SIZES, 3)}),
    ("Down Vest", "Apparel", 139, {"color": (COLORS, 2), "size": (SIZES, 4)}),
    ("Yoga Pants", "Apparel", 64, {"color": (COLORS, 3), "size": (SIZES, 4)}),
    ("Denim Jeans", "Apparel", 79, {"fit": (["slim", "regular", "relaxed"], 3), "waist": (["28", "30", "32", "34", "36"], 4)}),
    ("Wool Sweater", "Apparel", 96, {"color": (COLORS, 3), "size": (SIZES, 3)}),
    ("Running Shoes", "Footwear", 129, {"color": (COLORS, 3), "size": (SHOE_SIZES, 4)}),
    ("Hiking Boots", "Footwear", 189, {"material": (["leather", "synthetic"], 2), "size": (SHOE_SIZES, 5)}),
    ("Sneakers", "Footwear", 89, {"color": (COLORS, 3), "size": (SHOE_SIZES, 4)}),
    ("Sandals", "Footwear", 45, {"color": (COLORS, 3), "size": (SHOE_SIZES, 3)}),
    ("Wireless Earbuds", "Electronics", 149, {"color": (["black", "white", "blue"], 3), "noise cancelling": (["yes", "no"], 2)}),
    ("Bluetooth Speaker", "Electronics", 99, {"color": (["black", "red", "blue", "green"], 3), "battery life": (["12 hours", "20 hours"], 2)}),
    ("Smart Watch", "Electronics", 279, {"case size": (["41mm", "45mm"], 2), "band": (["silicone", "leather", "metal"], 3)}),
    ("Mechanical Keyboard", "Electronics", 119, {"switch": (["red", "brown", "blue"], 3), "layout": (["full size", "tenkeyless"], 2)}),
    ("Wireless Mouse", "Electronics", 49, {"color": (["black", "white", "grey"], 3), "connection": (["bluetooth", "usb receiver"], 2)}),
    ("E-Reader", "Electronics", 139, {"storage": (["8GB", "16GB", "32GB"], 3), "color": (["black", "white"], 2)}),
    ("Tablet", "Electronics", 429, {"storage": (["64GB", "128GB", "256GB"], 3), "color": (["silver", "space grey"], 2)}),
    ("Laptop Stand", "Electronics", 39, {"material": (["aluminum", "bamboo"], 2), "color": (["silver", "black"], 2)}),
    ("Portable Charger", "Electronics", 35, {"capacity": (["10000mAh", "20000mAh"], 2), "color": (["black", "white"], 2)}),
    ("Headphones", "Electronics", 199, {"color": (["black", "white", "navy"], 3), "type": (["over-ear", "on-ear"], 2)}),
    ("Action Camera", "Electronics", 249, {"resolution": (["4K", "5.3K"], 2), "bundle": (["standard", "adventure kit"], 2)}),
    ("Desk Lamp", "Home", 42, {"color": (["black", "white", "brass"], 3), "bulb": (["LED", "halogen"], 2)}),
    ("Throw Pillow", "Home", 28, {"color": (COLORS, 4), "size": (["16in", "18in", "20in"], 2)}),
    ("Bath Towel Set", "Home", 54, {"color": (COLORS, 4), "material": (["cotton", "bamboo"], 2)}),
    ("Duvet Cover", "Home", 89, {"size": (["twin", "queen", "king"], 3), "color": (COLORS, 3)}),
    ("Office Chair", "Home", 249, {"color": (["black", "grey", "blue"], 3), "armrest": (["fixed", "adjustable"], 2)}),
    ("Wall Clock", "Home", 36, {"style": (["modern", "rustic", "minimalist"], 3), "diameter": (["10in", "14in"], 2)}),
    ("Area Rug", "Home", 159, {"size": (["4x6", "5x8", "8x10"], 3), "pattern": (["geometric", "solid", "floral"], 3)}),
    ("Candle Set", "Home", 26, {"scent": (["lavender", "vanilla", "cedar", "citrus"], 4), "count": (["3 pack", "6 pack"], 2)}),
    ("Coffee Maker", "Kitchen", 89, {"capacity": (["8 cups", "12 cups"], 2), "color": (["black", "stainless", "red"], 3)}),
    ("Electric Kettle", "Kitchen", 45, {"capacity": (["1L", "1.7L"], 2), "material": (["glass", "stainless steel", "plastic"], 3)}),
    ("Chef Knife", "Kitchen", 69, {"blade length": (["6in", "8in", "10in"], 3), "handle": (["wood", "composite"], 2)}),
    ("Cookware Set", "Kitchen", 219, {"pieces": (["5 piece", "10 piece"], 2), "material": (["stainless steel", "nonstick", "cast iron"], 3)}),
    ("Blender", "Kitchen", 119, {"power": (["800W", "1200W"], 2), "color": (["black", "white", "red"], 3)}),
    ("Water Bottle", "Kitchen", 29, {"capacity": (["500ml", "750ml", "1L"], 3), "color": (COLORS, 3)}),
    ("Cutting Board", "Kitchen", 34, {"material": (["maple", "walnut", "bamboo"], 3), "size": (["medium", "large"], 2)}),
    ("Air Fryer", "Kitchen", 129, {"capacity": (["4qt", "6qt"], 2), "color": (["black", "white"], 2)}),
    ("Camping Tent", "Outdoors", 199, {"capacity": (["2 person", "4 person", "6 person"], 3), "color": (["green", "orange", "grey"], 2)}),
    ("Sleeping Bag", "Outdoors", 99, {"temperature rating": (["20F", "35F", "50F"], 3), "size": (["regular", "long"], 2)}),
    ("Hiking Backpack", "Outdoors", 149, {"capacity": (["30L", "45L", "60L"], 3), "color": (["black", "green", "blue"], 2)}),
    ("Camping Stove", "Outdoors", 59, {"fuel": (["propane", "butane"], 2), "burners": (["single", "double"], 2)}),
    ("Trekking Poles", "Outdoors", 79, {"material": (["aluminum", "carbon"], 2), "lock": (["twist", "lever"], 2)}),
    ("Yoga Mat", "Outdoors", 39, {"thickness": (["4mm", "6mm", "8mm"], 3), "color": (COLORS, 3)}),
    ("Bicycle Helmet", "Outdoors", 69, {"size": (["S", "M", "L"], 3), "color": (["black", "white", "red"], 2)}),
    ("Leather Wallet", "Accessories", 49, {"color": (["black", "brown", "tan"], 3), "style": (["bifold", "trifold"], 2)}),
    ("Sunglasses", "Accessories", 89, {"frame": (["round", "square", "aviator"], 3), "lens": (["polarized", "standard"], 2)}),
    ("Backpack", "Accessories", 74, {"color": (COLORS, 3), "size": (["small", "medium", "large"], 2)}),
    ("Wool Scarf", "Accessories", 38, {"color": (COLORS, 4), "pattern": (["solid", "plaid"], 2)}),
    ("Baseball Cap", "Accessories", 25, {"color": (COLORS, 4), "fit": (["adjustable", "fitted"], 2)}),
    ("Jigsaw Puzzle", "Toys", 22, {"pieces": (["500", "1000", "2000"], 3), "theme": (["animals", "landscapes", "art"], 2)}),
    ("Building Blocks Set", "Toys", 59, {"pieces": (["250", "500", "1000"], 3), "theme": (["city", "space", "castle"], 2)}),
    ("Board Game", "Toys", 44, {"edition": (["classic", "deluxe"], 2), "language": (["English", "Spanish"], 2)}),
]

FIRST = ["Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "James", "Isabella", "William", "Mia", "Lucas", "Amelia", "Henry", "Harper", "Theodore", "Evelyn", "Jack", "Abigail", "Levi", "Emily", "Alexander", "Ella", "Mateo", "Elizabeth", "Daniel", "Camila", "Michael", "Luna", "Mason", "Sofia", "Sebastian", "Avery", "Ethan", "Mila", "Logan", "Aria", "Owen", "Scarlett", "Samuel", "Penelope", "Jacob", "Layla", "Asher", "Chloe", "Aiden", "Victoria", "John", "Madison", "Joseph", "Eleanor", "Wyatt", "Grace", "David", "Nora", "Leo", "Riley", "Luke", "Zoey", "Julian", "Hannah", "Hudson", "Hazel", "Grayson", "Lily", "Matthew", "Ellie", "Ezra", "Violet", "Gabriel", "Lucy", "Carter", "Aurora", "Isaac", "Zoe", "Jayden", "Stella", "Aisha", "Yusuf", "Priya", "Arjun", "Mei", "Chen", "Yuki", "Kenji", "Fatima", "Omar", "Sana", "Ravi", "Ines", "Diego", "Lucia", "Marco", "Anya", "Ivan"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Patel", "Kim", "Shah", "Silva", "Khan", "Ito", "Novak", "Cohen", "Murphy", "Kowalski", "Sullivan", "Bennett", "Foster", "Reyes", "Hughes", "Price", "Ward", "Brooks", "Kelly", "Sanders", "Ross", "Morales", "Powell", "Jenkins"]
CITIES = [
    ("Austin", "TX", "787"), ("Denver", "CO", "802"), ("Seattle", "WA", "981"), ("Portland", "OR", "972"),
    ("Chicago", "IL", "606"), ("Boston", "MA", "021"), ("Phoenix", "AZ", "850"), ("Atlanta", "GA", "303"),
    ("Columbus", "OH", "432"), ("San Diego", "CA", "921"), ("Philadelphia", "PA", "191"), ("Charlotte", "NC", "282"),
    ("Minneapolis", "MN", "554"), ("Nashville", "TN", "372"), ("Milwaukee", "WI", "532"), ("Raleigh", "NC", "276"),
    ("Tampa", "FL", "336"), ("Salt Lake City", "UT", "841"), ("Pittsburgh", "PA", "152"), ("Kansas City", "MO", "641"),
    ("Sacramento", "CA", "958"), ("Baltimore", "MD", "212"), ("Louisville", "KY", "402"), ("Albuquerque", "NM", "871"),
]
STREETS = ["Maple", "Oak", "Cedar", "Elm", "Pine", "Willow", "Birch", "Lake", "Hill", "Park", "Sunset", "River", "Spring", "Highland", "Meadow", "Forest", "Church", "Main", "Washington", "Lincoln", "Jefferson", "Madison", "Franklin", "Chestnut", "Walnut", "Laurel", "Juniper"]
STREET_KINDS = ["Street", "Avenue", "Lane", "Drive", "Road", "Court", "Place", "Boulevard"]
CARD_BRANDS = ["visa", "mastercard", "amex", "discover"]
CARRIERS = ["UPS", "FedEx", "USPS"]



def placed_at(day: date, hour: int, minute: int) -> str:
    """When an order was placed; today's orders were placed before the desk's 14:00."""
    return f"{day.isoformat()}T{min(hour, 13) if day == TODAY else hour:02d}:{minute:02d}:00"

def _address(rng: random.Random) -> dict[str, Any]:
    city, state, prefix = rng.choice(CITIES)
    unit = rng.choice(["", "", "", f"Apt {rng.randint(1, 40)}", f"Suite {rng.randint(100, 999)}", f"Unit {rng.randint(1, 20)}"])
    return {
        "address1": f"{rng.randint(10, 9999)} {rng.choice(STREETS)} {rng.choice(STREET_KINDS)}",
        "address2": unit,
        "city": city,
        "state": state,
        "country": "USA",
        "zip": f"{prefix}{rng.randint(1, 99):02d}",
    }


def _products(rng: random.Random, scale: int) -> dict[str, Any]:
    products: dict[str, dict[str, Any]] = {}
    used_ids: set[str] = set()

    def new_id() -> str:
        while True:
            value = str(rng.randint(1_000_000_000, 9_999_999_999))
            if value not in used_ids:
                used_ids.add(value)
                return value

    for copy in range(scale):
        for name, category, base, axes in CATALOG:
            product_id = new_id()
            axis_values = {axis: sorted(rng.sample(values, count), key=values.index) for axis, (values, count) in axes.items()}
            combos = list(itertools.product(*axis_values.values()))
            rng.shuffle(combos)
            combos = combos[: rng.randint(min(4, len(combos)), min(9, len(combos)))]
            variants = {}
            for index, combo in enumerate(combos):
                item_id = new_id()
                price = round(base * rng.uniform(0.85, 1.25), 0) - rng.choice([0.01, 0.05, 0.51, 0.01])
                variants[item_id] = {
                    "item_id": item_id,
                    "options": dict(zip(axis_values, combo, strict=True)),
                    "price": round(price, 2),
                    "available": index == 0 or rng.random() < 0.75,
                }
            products[product_id] = {
                "product_id": product_id,
                "name": name if copy == 0 else f"{name} Series {copy + 1}",
                "category": category,
                "variants": variants,
            }
    return products


def generate(seed: int = SEED, scale: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    products = _products(rng, scale)
    product_list = sorted(products)
    users: dict[str, dict[str, Any]] = {}
    emails: set[str] = set()
    name_zip: set[tuple[str, str, str]] = set()
    card_ids: set[str] = set()

    def method_id(kind: str) -> str:
        while True:
            value = f"{kind}_{rng.randint(1_000_000, 9_999_999)}"
            if value not in card_ids:
                card_ids.add(value)
                return value

    for _ in range(500 * scale):
        while True:
            first, last = rng.choice(FIRST), rng.choice(LAST)
            address = _address(rng)
            if (first, last, address["zip"]) not in name_zip:
                break
        name_zip.add((first, last, address["zip"]))
        user_id = f"{first.lower()}_{last.lower()}_{rng.randint(1000, 9999)}"
        while user_id in users:
            user_id = f"{first.lower()}_{last.lower()}_{rng.randint(1000, 9999)}"
        domain_name = rng.choice(["example.com", "example.net", "example.org"])
        email = f"{first.lower()}.{last.lower()}{rng.randint(1, 999)}@{domain_name}"
        while email in emails:
            email = f"{first.lower()}.{last.lower()}{rng.randint(1, 999)}@{domain_name}"
        emails.add(email)
        methods: dict[str, dict[str, Any]] = {}
        kinds = rng.choice([["credit_card"], ["credit_card", "gift_card"], ["paypal"], ["credit_card", "paypal"],
                            ["gift_card", "paypal"], ["credit_card", "gift_card", "paypal"], ["credit_card", "credit_card"],
                            ["credit_card", "credit_card", "gift_card"]])
        for kind in kinds:
            pid = method_id(kind)
            if kind == "credit_card":
                methods[pid] = {"id": pid, "source": kind, "brand": rng.choice(CARD_BRANDS),
                                "last_four": f"{rng.randint(0, 9999):04d}", "balance": None}
            elif kind == "gift_card":
                methods[pid] = {"id": pid, "source": kind, "brand": None, "last_four": None,
                                "balance": float(rng.choice([0, 15, 25, 40, 50, 75, 100, 150, 200, 250, 300]) + rng.randint(0, 99) / 100)}
            else:
                methods[pid] = {"id": pid, "source": kind, "brand": None, "last_four": None, "balance": None}
        since = date(2018, 1, 1) + timedelta(days=rng.randint(0, 2900))
        users[user_id] = {"user_id": user_id, "name": {"first_name": first, "last_name": last}, "email": email,
                          "address": address, "payment_methods": methods, "orders": [], "member_since": since.isoformat()}

    user_ids = sorted(users)
    orders: dict[str, dict[str, Any]] = {}
    statuses = ["pending"] * 26 + ["processed"] * 18 + ["delivered"] * 40 + ["cancelled"] * 7 + ["return requested"] * 5 + ["exchange requested"] * 4
    for index in range(1000 * scale):
        user_id = user_ids[index] if index < len(user_ids) else rng.choice(user_ids)
        user = users[user_id]
        while True:
            order_id = f"#W{rng.randint(1_000_000, 9_999_999)}"
            if order_id not in orders:
                break
        status = rng.choice(statuses)
        if status == "pending":
            placed = TODAY - timedelta(days=rng.randint(0, 4))
        elif status == "processed":
            placed = TODAY - timedelta(days=rng.randint(2, 7))
        else:
            placed = TODAY - timedelta(days=rng.randint(8, 120))
        delivered = None
        if status in ("delivered", "return requested", "exchange requested"):
            delivered = placed + timedelta(days=rng.randint(3, 7))
        items = []
        for product_id in rng.sample(product_list, rng.choice([1, 1, 2, 2, 2, 3, 3, 4, 5])):
            product = products[product_id]
            variant = products[product_id]["variants"][rng.choice(sorted(product["variants"]))]
            items.append({"item_id": variant["item_id"], "product_id": product_id, "name": product["name"],
                          "options": dict(variant["options"]), "price": variant["price"]})
        total = round(sum(item["price"] for item in items), 2)
        method = rng.choice(sorted(user["payment_methods"]))
        payments = [{"transaction_type": "payment", "amount": total, "payment_method_id": method, "note": "order placed"}]
        order = {"order_id": order_id, "user_id": user_id, "status": status, "placed_at": placed_at(placed, rng.randint(6, 22), rng.randint(0, 59)),
                 "delivered_at": delivered.isoformat() if delivered else None, "address": dict(user["address"]) if rng.random() < 0.85 else _address(rng),
                 "items": items, "payment_history": payments, "fulfillments": [], "items_modified": False,
                 "cancel_reason": None, "return_items": [], "return_refund_amount": None, "return_payment_method_id": None,
                 "exchange_items": [], "exchange_new_items": [], "exchange_payment_method_id": None}
        if status in ("processed", "delivered", "return requested", "exchange requested"):
            order["fulfillments"] = [{"tracking_id": str(rng.randint(100_000_000_000, 999_999_999_999)),
                                      "carrier": rng.choice(CARRIERS), "item_ids": [item["item_id"] for item in items]}]
        if status == "cancelled":
            order["cancel_reason"] = rng.choice(["no longer needed", "ordered by mistake", "found a better price"])
            payments.append({"transaction_type": "refund", "amount": total, "payment_method_id": method, "note": "order cancelled"})
        if status == "return requested":
            order["return_items"] = [items[0]["item_id"]]
            # the refund on file is what the desk quoted: the price less the restocking fee on Electronics (policy 6.4)
            fee = restocking_fee(items[0]["price"]) if products[items[0]["product_id"]]["category"] == RESTOCKING_CATEGORY else 0.0
            refund = round(items[0]["price"] - fee, 2)
            order["return_refund_amount"] = refund
            order["return_payment_method_id"] = method
            payments.append({"transaction_type": "refund", "amount": refund, "payment_method_id": method, "note": "return requested"})
        if status == "exchange requested":
            product = products[items[0]["product_id"]]
            others = sorted(v for v, var in product["variants"].items() if v != items[0]["item_id"] and var["available"])
            if others:
                order["exchange_items"] = [items[0]["item_id"]]
                order["exchange_new_items"] = [others[0]]
                order["exchange_payment_method_id"] = method
                # the price difference settled when the exchange was requested (policy 7.3), as the desk records it
                difference = round(product["variants"][others[0]]["price"] - items[0]["price"], 2)
                if difference:
                    payments.append({"transaction_type": "payment" if difference > 0 else "refund", "amount": abs(difference),
                                     "payment_method_id": method, "note": EXCHANGE_NOTE})
            else:
                order["status"] = "delivered"
        orders[order_id] = order
        user["orders"].append(order_id)
    # The fraud team's account risk score (0-100, one decimal): its own seed, so the rest of the store stays as it was.
    risk = random.Random(seed + 1)
    for account in users.values():
        score = round(1.0 + risk.betavariate(1.5, 9.0) * 99.0, 1)
        account["risk_score"] = score + 0.4 if score == int(score) else score
    return {"users": users, "orders": orders, "products": products}


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(dump_db(generate()))
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
