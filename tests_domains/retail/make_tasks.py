"""Builds fixtures/retail/tasks.json from the generated DB: `python -m tests_domains.retail.make_tasks`.

Seeded and deterministic. Each task kind is a hand-written template; the builder picks concrete
customers, orders and variants that fit it from the DB and computes every figure the way the tools do.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

FIXTURES = Path(__file__).parents[2] / "fixtures" / "retail"
WINDOW_START = "2026-04-15"  # delivered on or after this date: within the 30-day window on 2026-05-15
RNG = random.Random(515)

DB = json.loads((FIXTURES / "db.json").read_text())
USERS, ORDERS, PRODUCTS = DB["users"], DB["orders"], DB["products"]
USED: set[str] = set()
TASKS: list[dict] = []

MOODS = [
    "You are polite but brief.",
    "You are in a hurry and a little impatient.",
    "You are friendly and chatty.",
    "You are careful and want every detail confirmed before anything happens.",
    "You are a bit anxious about your money and ask for amounts to be repeated.",
    "You are calm and matter-of-fact.",
]


# -- DB helpers ------------------------------------------------------------------------------


def money(value: float) -> str:
    return f"{value:.2f}"


def user_orders(user: dict, status: str | None = None) -> list[dict]:
    found = [ORDERS[o] for o in user["orders"]]
    return [o for o in found if status is None or o["status"] == status]


def in_window(order: dict) -> bool:
    return order["status"] == "delivered" and order["delivered_at"] >= WINDOW_START


def paid_with(order: dict) -> str:
    payments = [p for p in order["payment_history"] if p["transaction_type"] == "payment"]
    return payments[-1]["payment_method_id"]


def method(user: dict, kind: str) -> dict | None:
    found = [m for _, m in sorted(user["payment_methods"].items()) if m["source"] == kind]
    return found[0] if len(found) == 1 else None


def method_words(m: dict) -> str:
    if m["source"] == "credit_card":
        return f"your {m['brand'].title()} credit card ending in {m['last_four']}"
    if m["source"] == "gift_card":
        return "your store gift card"
    return "your PayPal account"


def total(order: dict) -> float:
    return round(sum(i["price"] for i in order["items"]), 2)


def opts(options: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in options.items())


def item_words(item: dict) -> str:
    return f"{item['name']} ({opts(item['options'])})"


def unique_product(user: dict, order: dict, item: dict) -> bool:
    """The item's product appears in no other order of the customer, and once in this one."""
    count = sum(1 for o in user_orders(user) for i in o["items"] if i["product_id"] == item["product_id"])
    return count == 1


def order_words(order: dict) -> str:
    names = [i["name"] for i in order["items"]]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def identifiable(user: dict, order: dict) -> bool:
    return all(unique_product(user, order, i) for i in order["items"])


def swaps(item: dict, need_diff: bool = True) -> list[tuple[dict, str, str]]:
    """Available variants of the item's product that differ in exactly one option."""
    out = []
    for vid, v in sorted(PRODUCTS[item["product_id"]]["variants"].items()):
        if vid == item["item_id"] or not v["available"]:
            continue
        diff = [k for k in item["options"] if v["options"][k] != item["options"][k]]
        if len(diff) == 1 and (not need_diff or abs(v["price"] - item["price"]) >= 0.5):
            out.append((v, diff[0], v["options"][diff[0]]))
    return out


def unavailable_swaps(item: dict) -> list[tuple[dict, str, str]]:
    out = []
    for vid, v in sorted(PRODUCTS[item["product_id"]]["variants"].items()):
        if vid == item["item_id"] or v["available"]:
            continue
        diff = [k for k in item["options"] if v["options"][k] != item["options"][k]]
        if len(diff) == 1:
            out.append((v, diff[0], v["options"][diff[0]]))
    return out


def refund_of(items: list[dict]) -> tuple[float, str]:
    subtotal = round(sum(i["price"] for i in items), 2)
    fee_base = sum(i["price"] for i in items if PRODUCTS[i["product_id"]]["category"] == "Electronics")
    refund = round(subtotal - round(fee_base * 0.10, 2), 2)
    plain = " + ".join(money(i["price"]) for i in items if PRODUCTS[i["product_id"]]["category"] != "Electronics")
    elec = " + ".join(money(i["price"]) for i in items if PRODUCTS[i["product_id"]]["category"] == "Electronics")
    if elec and plain:
        expression = f"{plain} + ({elec}) * 0.9"
    elif elec:
        expression = f"({elec}) * 0.9"
    else:
        expression = plain
    return refund, expression


def calc(expression: str) -> str:
    from pytest_tau import calculate

    return calculate(expression)


def users_shuffled() -> list[dict]:
    ids = sorted(USERS)
    RNG.shuffle(ids)
    return [USERS[i] for i in ids if i not in USED]


def auth(user: dict, how: str | None = None) -> tuple[str, dict, str]:
    """(instruction sentence, gold action, what the user says when asked)."""
    how = how or RNG.choice(["email", "zip"])
    first, last = user["name"]["first_name"], user["name"]["last_name"]
    if how == "email":
        return (f"Your email is {user['email']}.",
                {"name": "find_user_id_by_email", "arguments": {"email": user["email"]}},
                f"My email is {user['email']}.")
    zip_code = user["address"]["zip"]
    return (f"Your zip code is {zip_code}.",
            {"name": "find_user_id_by_name_zip", "arguments": {"first_name": first, "last_name": last, "zip": zip_code}},
            f"I'm {first} {last}, zip code {zip_code}.")


def reads(user: dict, *order_list: dict) -> list[dict]:
    out = [{"name": "get_user_details", "arguments": {"user_id": user["user_id"]}}]
    out += [{"name": "get_order_details", "arguments": {"order_id": o["order_id"]}} for o in order_list]
    return out


def product_read(item: dict) -> dict:
    return {"name": "get_product_details", "arguments": {"product_id": item["product_id"]}}


def add(task_id: str, user: dict, instructions: str, script: list[str], gold: list[dict], outputs=(), required=(), forbidden=(), split="test"):
    USED.add(user["user_id"])
    TASKS.append({
        "id": task_id, "split": split,
        "user": {"instructions": instructions + " " + RNG.choice(MOODS) + " Reveal information only when asked.", "script": script},
        "gold_actions": gold, "required_outputs": list(outputs),
        "required_actions": list(required), "forbidden_actions": list(forbidden),
    })


def intro(user: dict) -> str:
    return f"You are {user['name']['first_name']} {user['name']['last_name']}."


NEW_PLACES = [
    ("482 Harbor View Drive", "", "San Diego", "CA", "92109"),
    ("77 Orchard Lane", "Apt 5", "Madison", "WI", "53703"),
    ("1910 Prairie Avenue", "Unit 12", "Omaha", "NE", "68102"),
    ("35 Beacon Street", "Apt 3B", "Boston", "MA", "02108"),
    ("2600 Copper Ridge Road", "", "Boulder", "CO", "80301"),
    ("918 Magnolia Court", "", "Savannah", "GA", "31401"),
    ("4410 Riverbend Way", "Suite 210", "Austin", "TX", "78746"),
    ("63 Lakeshore Drive", "Apt 904", "Chicago", "IL", "60611"),
    ("1205 Cypress Street", "", "Durham", "NC", "27701"),
    ("300 Alder Place", "Apt 7", "Eugene", "OR", "97401"),
    ("58 Birchwood Terrace", "", "Burlington", "VT", "05401"),
    ("7721 Mesa Verde Road", "", "Tucson", "AZ", "85718"),
    ("14 Canal Street", "Apt 2", "New Orleans", "LA", "70130"),
    ("2209 Hawthorne Boulevard", "", "Portland", "OR", "97214"),
    ("845 Summit Avenue", "Unit 4", "Saint Paul", "MN", "55105"),
    ("31 Foxglove Lane", "", "Ann Arbor", "MI", "48104"),
    ("5120 Sandpiper Way", "", "Charleston", "SC", "29412"),
    ("86 Quarry Road", "Apt 11", "Providence", "RI", "02903"),
    ("1733 Bluebonnet Trail", "", "Plano", "TX", "75024"),
    ("402 Evergreen Terrace", "Unit 3", "Spokane", "WA", "99201"),
    ("9 Wharf Street", "Apt 6C", "Portland", "ME", "04101"),
    ("2718 Sycamore Drive", "", "Lexington", "KY", "40503"),
    ("640 Aspen Circle", "", "Fort Collins", "CO", "80521"),
    ("1550 Palmetto Avenue", "Suite 120", "Orlando", "FL", "32803"),
    ("27 Gristmill Lane", "", "Lancaster", "PA", "17602"),
    ("3302 Juniper Hills Road", "", "Reno", "NV", "89509"),
    ("118 Cobblestone Way", "Apt 2A", "Richmond", "VA", "23220"),
    ("4901 Prospect Street", "", "Des Moines", "IA", "50312"),
]


def new_place() -> tuple[dict, str]:
    a1, a2, city, state, zip_code = NEW_PLACES.pop(0)
    words = f"{a1}{', ' + a2 if a2 else ''}, {city}, {state} {zip_code}, USA"
    return {"address1": a1, "address2": a2, "city": city, "state": state, "country": "USA", "zip": zip_code}, words


# -- task kinds ------------------------------------------------------------------------------

REASON_WORDS = {
    "no longer needed": "you no longer need it",
    "ordered by mistake": "you ordered it by mistake",
    "found a better price": "you found a better price somewhere else",
}


def k_cancel(n: int, split: str = "test", with_total: bool = False) -> None:
    for user in users_shuffled():
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o)]
        if not pend or USERS[user["user_id"]]["payment_methods"][paid_with(pend[0])]["source"] == "gift_card":
            continue
        order = pend[0]
        reason = RNG.choice(sorted(REASON_WORDS))
        sentence, gold_auth, says = auth(user)
        ins = (f"{intro(user)} {sentence} You want to cancel your recent order containing {order_words(order)} because "
               f"{REASON_WORDS[reason]}. You do not know the order number.")
        gold = [gold_auth] + reads(user, order)
        outputs = []
        if with_total:
            ins += " Ask how much money you will get back in total."
            outputs = [money(total(order))]
        gold.append({"name": "cancel_pending_order", "arguments": {"order_id": order["order_id"], "reason": reason}})
        add(f"cancel_pending_{n}", user, ins, [f"Hi, I need to cancel an order with {order_words(order)} in it.", says, "Yes, go ahead."], gold, outputs, split=split)
        return


def k_cancel_gift(n: int) -> None:
    for user in users_shuffled():
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o) and user["payment_methods"][paid_with(o)]["source"] == "gift_card"]
        if not pend:
            continue
        order = pend[0]
        card = user["payment_methods"][paid_with(order)]
        reason = RNG.choice(sorted(REASON_WORDS))
        sentence, gold_auth, says = auth(user)
        expr = f"{money(card['balance'])} + {money(total(order))}"
        ins = (f"{intro(user)} {sentence} You paid your pending order of {order_words(order)} with your store gift card and "
               f"want to cancel it because {REASON_WORDS[reason]}. You want to know what your gift card balance will be afterwards.")
        gold = [gold_auth] + reads(user, order) + [{"name": "calculate", "arguments": {"expression": expr}},
                                                   {"name": "cancel_pending_order", "arguments": {"order_id": order["order_id"], "reason": reason}}]
        add(f"cancel_gift_card_order_{n}", user, ins, ["Hello, I want to cancel an order I paid with a gift card.", says, "Yes, please cancel it."], gold, [calc(expr)])
        return


def _modify_candidate(user: dict, pay_kind: str | None = None):
    for order in user_orders(user, "pending"):
        if not identifiable(user, order):
            continue
        for item in order["items"]:
            options = swaps(item)
            if options:
                return order, item, options[0]
    return None


def k_modify(n: int, split: str = "test", pay: str = "credit_card") -> None:
    for user in users_shuffled():
        cand = _modify_candidate(user)
        if not cand:
            continue
        order, item, (variant, key, value) = cand
        m = method(user, pay)
        if m is None:
            continue
        diff = round(variant["price"] - item["price"], 2)
        if pay == "gift_card" and (diff > m["balance"] or diff < 0):
            continue
        sentence, gold_auth, says = auth(user)
        expr = f"{money(variant['price'])} - {money(item['price'])}" if diff > 0 else f"{money(item['price'])} - {money(variant['price'])}"
        word = "pay" if diff > 0 else "get back"
        ins = (f"{intro(user)} {sentence} In your pending order you ordered the {item_words(item)}, but you want it with {key} {value} "
               f"instead, everything else the same. Any price difference should go through {method_words(m)}. "
               f"You want to know exactly how much you will {word}. Nothing else in the order should change.")
        gold = [gold_auth] + reads(user, order) + [product_read(item), {"name": "calculate", "arguments": {"expression": expr}},
                                                   {"name": "modify_pending_order_items", "arguments": {"order_id": order["order_id"], "item_ids": [item["item_id"]], "new_item_ids": [variant["item_id"]], "payment_method_id": m["id"]}}]
        outputs = [calc(expr)]
        if pay == "gift_card":
            expr2 = f"{money(m['balance'])} - {money(diff)}"
            gold.insert(-1, {"name": "calculate", "arguments": {"expression": expr2}})
            outputs.append(calc(expr2))
            ins += " Also ask what will be left on the gift card."
        add(f"modify_pending_items_{n}", user, ins, [f"Hi, I'd like to change the {item['name']} in an order I haven't received yet.", says, f"{key.capitalize()} {value}, please.", "Yes, that's right."], gold, outputs, split=split)
        return


def k_return(n: int, to_gift: bool = False, split: str = "test", count: int = 1) -> None:
    for user in users_shuffled():
        orders = [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o) and len(o["items"]) >= count + (0 if count == 1 else 0)]
        if not orders:
            continue
        order = orders[0]
        gift = method(user, "gift_card")
        if to_gift and (gift is None or paid_with(order) == gift["id"]):
            continue
        if not to_gift and user["payment_methods"][paid_with(order)]["source"] == "gift_card":
            continue
        items = order["items"][:count]
        refund, expr = refund_of(items)
        if calc(expr) != money(refund):
            continue
        dest = gift if to_gift else user["payment_methods"][paid_with(order)]
        sentence, gold_auth, says = auth(user)
        what = " and the ".join(item_words(i) for i in items)
        ins = (f"{intro(user)} {sentence} You received an order recently and want to return the {what} from it. "
               f"You want the refund to go to {'your store gift card' if to_gift else 'the card or account you paid with'}. "
               f"Before agreeing, ask how much the refund will be.")
        gold = [gold_auth] + reads(user, order) + [{"name": "calculate", "arguments": {"expression": expr}}]
        outputs = [money(refund)]
        if to_gift:
            expr2 = f"{money(gift['balance'])} + {money(refund)}"
            gold.append({"name": "calculate", "arguments": {"expression": expr2}})
            outputs.append(calc(expr2))
            ins += " Also ask what the gift card balance will be after the refund."
        gold.append({"name": "return_delivered_order_items", "arguments": {"order_id": order["order_id"], "item_ids": sorted(i["item_id"] for i in items), "payment_method_id": dest["id"]}})
        add(f"return_delivered_{n}", user, ins, [f"Hi, I'd like to return something from a recent delivery.", says, "Yes, please process the return."], gold, outputs, split=split)
        return


def k_exchange(n: int, split: str = "test") -> None:
    for user in users_shuffled():
        for order in [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o)]:
            for item in order["items"]:
                options = swaps(item)
                if not options:
                    continue
                variant, key, value = options[-1]
                m = user["payment_methods"][paid_with(order)]
                diff = round(variant["price"] - item["price"], 2)
                if m["source"] == "gift_card" and diff > m["balance"]:
                    continue
                expr = f"{money(variant['price'])} - {money(item['price'])}" if diff > 0 else f"{money(item['price'])} - {money(variant['price'])}"
                sentence, gold_auth, says = auth(user)
                word = "charged" if diff > 0 else "refunded"
                ins = (f"{intro(user)} {sentence} You received the {item_words(item)} and want to exchange it for the same item with {key} {value}. "
                       f"Use the payment method you paid the order with for any difference, and ask how much will be {word}.")
                gold = [gold_auth] + reads(user, order) + [product_read(item), {"name": "calculate", "arguments": {"expression": expr}},
                                                           {"name": "exchange_delivered_order_items", "arguments": {"order_id": order["order_id"], "item_ids": [item["item_id"]], "new_item_ids": [variant["item_id"]], "payment_method_id": m["id"]}}]
                add(f"exchange_delivered_{n}", user, ins, [f"Hi, I want to exchange the {item['name']} I got.", says, f"{key.capitalize()} {value}.", "Yes, do it."], gold, [calc(expr)], split=split)
                return


def k_address(n: int, split: str = "test") -> None:
    for user in users_shuffled():
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o)]
        if len(pend) != 1:
            continue
        order = pend[0]
        addr, words = new_place()
        sentence, gold_auth, says = auth(user)
        ins = (f"{intro(user)} {sentence} You are staying at {words} for the next few weeks and want your pending order of "
               f"{order_words(order)} shipped there. Your default address on file should stay as it is.")
        gold = [gold_auth] + reads(user, order) + [{"name": "modify_pending_order_address", "arguments": {"order_id": order["order_id"], **addr}}]
        add(f"modify_pending_address_{n}", user, ins, ["Hi, can you ship my order to a different address?", says, words, "Yes, confirmed."], gold,
            forbidden=[{"name": "modify_user_address"}], split=split)
        return


def k_payment(n: int) -> None:
    for user in users_shuffled():
        gift = method(user, "gift_card")
        if gift is None:
            continue
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o) and paid_with(o) != gift["id"] and total(o) <= gift["balance"]]
        if not pend:
            continue
        order = pend[0]
        expr = f"{money(gift['balance'])} - {money(total(order))}"
        sentence, gold_auth, says = auth(user)
        ins = (f"{intro(user)} {sentence} You would rather pay for your pending order of {order_words(order)} with your store gift card "
               f"instead of what you used. Ask how much will remain on the gift card afterwards.")
        gold = [gold_auth] + reads(user, order) + [{"name": "calculate", "arguments": {"expression": expr}},
                                                   {"name": "modify_pending_order_payment", "arguments": {"order_id": order["order_id"], "payment_method_id": gift["id"]}}]
        add(f"modify_pending_payment_{n}", user, ins, ["Hello, I want to change how I pay for an order.", says, "Yes, switch it to the gift card."], gold, [calc(expr)])
        return


# -- multi-write kinds -------------------------------------------------------------------------


def m_move(n: int, split: str = "test") -> None:
    """Moved house: default address + every pending order's address (+ cancel one if 2)."""
    for user in users_shuffled():
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o)]
        if len(pend) < 2:
            continue
        addr, words = new_place()
        sentence, gold_auth, says = auth(user)
        a, b = pend[0], pend[1]
        reason = RNG.choice(sorted(REASON_WORDS))
        ins = (f"{intro(user)} {sentence} You just moved to {words}. You want your default address updated, and your pending order of "
               f"{order_words(a)} shipped to the new address. You also want to cancel your other pending order ({order_words(b)}) because "
               f"{REASON_WORDS[reason]}.")
        gold = [gold_auth] + reads(user, a, b) + [
            {"name": "modify_user_address", "arguments": {"user_id": user["user_id"], **addr}},
            {"name": "modify_pending_order_address", "arguments": {"order_id": a["order_id"], **addr}},
            {"name": "cancel_pending_order", "arguments": {"order_id": b["order_id"], "reason": reason}},
        ]
        add(f"moved_update_and_cancel_{n}", user, ins, ["Hi, I moved and need to sort out my account and orders.", says, words, "Yes.", "Yes, please.", "Yes, cancel it."], gold, split=split)
        return


def m_modify_combo(n: int) -> None:
    """Pending order: modify an item (diff on gift card), change its address, update the default address."""
    for user in users_shuffled():
        gift = method(user, "gift_card")
        if gift is None:
            continue
        cand = _modify_candidate(user)
        if not cand:
            continue
        order, item, (variant, key, value) = cand
        diff = round(variant["price"] - item["price"], 2)
        if diff <= 0 or diff > gift["balance"]:
            continue
        addr, words = new_place()
        expr = f"{money(gift['balance'])} - ({money(variant['price'])} - {money(item['price'])})"
        sentence, gold_auth, says = auth(user)
        ins = (f"{intro(user)} {sentence} Three things: (1) in your pending order, switch the {item_words(item)} to {key} {value}, paying any "
               f"difference with your gift card, and ask what balance will be left on the gift card; (2) ship that order to {words}; "
               f"(3) make {words} your default address too.")
        gold = [gold_auth] + reads(user, order) + [product_read(item), {"name": "calculate", "arguments": {"expression": expr}},
            {"name": "modify_pending_order_items", "arguments": {"order_id": order["order_id"], "item_ids": [item["item_id"]], "new_item_ids": [variant["item_id"]], "payment_method_id": gift["id"]}},
            {"name": "modify_pending_order_address", "arguments": {"order_id": order["order_id"], **addr}},
            {"name": "modify_user_address", "arguments": {"user_id": user["user_id"], **addr}},
        ]
        add(f"modify_items_and_addresses_{n}", user, ins, ["Hi, I have a few changes to make.", says, "Yes.", "Yes.", "Yes."], gold, [calc(expr)])
        return


def m_return_exchange(n: int, split: str = "test") -> None:
    """Two delivered orders: return one item to the gift card, exchange another, update the default address."""
    for user in users_shuffled():
        gift = method(user, "gift_card")
        delivered = [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o)]
        if gift is None or len(delivered) < 2:
            continue
        ret, exc = delivered[0], delivered[1]
        ex = [(i, s) for i in exc["items"] for s in swaps(i)]
        if not ex:
            continue
        item, (variant, key, value) = ex[0]
        refund, rexpr = refund_of([ret["items"][0]])
        if calc(rexpr) != money(refund):
            continue
        pay = user["payment_methods"][paid_with(exc)]
        diff = round(variant["price"] - item["price"], 2)
        if pay["source"] == "gift_card":
            continue
        addr, words = new_place()
        sentence, gold_auth, says = auth(user)
        ins = (f"{intro(user)} {sentence} You want to return the {item_words(ret['items'][0])} you received, with the refund on your gift card "
               f"(ask how much the refund is); exchange the {item_words(item)} from another delivery for the one with {key} {value}, settling any "
               f"difference with the payment method used for that order; and change your default address to {words}.")
        gold = [gold_auth] + reads(user, ret, exc) + [{"name": "calculate", "arguments": {"expression": rexpr}},
            {"name": "return_delivered_order_items", "arguments": {"order_id": ret["order_id"], "item_ids": [ret["items"][0]["item_id"]], "payment_method_id": gift["id"]}},
            product_read(item),
            {"name": "exchange_delivered_order_items", "arguments": {"order_id": exc["order_id"], "item_ids": [item["item_id"]], "new_item_ids": [variant["item_id"]], "payment_method_id": pay["id"]}},
            {"name": "modify_user_address", "arguments": {"user_id": user["user_id"], **addr}},
        ]
        add(f"return_exchange_and_address_{n}", user, ins, ["Hi, I have a return, an exchange and an address change.", says, "Yes.", "Yes.", "Yes."], gold, [money(refund)], split=split)
        return


def m_cancel_and_return(n: int) -> None:
    """Cancel a pending order, return delivered items to the gift card, and update the default address."""
    for user in users_shuffled():
        gift = method(user, "gift_card")
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o)]
        delivered = [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o)]
        if gift is None or not pend or not delivered:
            continue
        p, d = pend[0], delivered[0]
        items = d["items"][:2]
        refund, rexpr = refund_of(items)
        if calc(rexpr) != money(refund):
            continue
        reason = RNG.choice(sorted(REASON_WORDS))
        paid_gift = paid_with(p) == gift["id"]
        balance = round(gift["balance"] + refund + (total(p) if paid_gift else 0), 2)
        expr = f"{money(gift['balance'])} + {money(refund)}" + (f" + {money(total(p))}" if paid_gift else "")
        addr, words = new_place()
        sentence, gold_auth, says = auth(user)
        what = " and the ".join(item_words(i) for i in items)
        ins = (f"{intro(user)} {sentence} You want to cancel your pending order of {order_words(p)} ({REASON_WORDS[reason]}), return the {what} "
               f"from a recent delivery with the refund going to your gift card, and update your default address to {words}. "
               f"At the end ask what your gift card balance will be.")
        gold = [gold_auth] + reads(user, p, d) + [
            {"name": "cancel_pending_order", "arguments": {"order_id": p["order_id"], "reason": reason}},
            {"name": "calculate", "arguments": {"expression": rexpr}},
            {"name": "return_delivered_order_items", "arguments": {"order_id": d["order_id"], "item_ids": sorted(i["item_id"] for i in items), "payment_method_id": gift["id"]}},
            {"name": "modify_user_address", "arguments": {"user_id": user["user_id"], **addr}},
            {"name": "calculate", "arguments": {"expression": expr}},
        ]
        assert calc(expr) == money(balance)
        add(f"cancel_return_and_address_{n}", user, ins, ["Hi, several things today.", says, "Yes.", "Yes.", "Yes."], gold, [money(balance)])
        return


def m_payment_combo(n: int) -> None:
    """Move a pending order to the gift card, ship it elsewhere, and make that the default address."""
    for user in users_shuffled():
        gift, card = method(user, "gift_card"), method(user, "credit_card")
        if gift is None or card is None:
            continue
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o) and paid_with(o) != gift["id"] and total(o) <= gift["balance"]]
        if not pend:
            continue
        order = pend[0]
        addr, words = new_place()
        expr = f"{money(gift['balance'])} - {money(total(order))}"
        sentence, gold_auth, says = auth(user)
        ins = (f"{intro(user)} {sentence} For your pending order of {order_words(order)}: pay it with your gift card instead (ask what will remain on the card), "
               f"ship it to {words} instead, and also make that your default address.")
        gold = [gold_auth] + reads(user, order) + [{"name": "calculate", "arguments": {"expression": expr}},
            {"name": "modify_pending_order_payment", "arguments": {"order_id": order["order_id"], "payment_method_id": gift["id"]}},
            {"name": "modify_pending_order_address", "arguments": {"order_id": order["order_id"], **addr}},
            {"name": "modify_user_address", "arguments": {"user_id": user["user_id"], **addr}},
        ]
        add(f"pay_with_gift_card_and_move_{n}", user, ins, ["Hi, I need to change payment and shipping on an order.", says, "Yes.", "Yes.", "Yes."], gold, [calc(expr)])
        return


# -- forbidden kinds ---------------------------------------------------------------------------


def f_processed_cancel(n: int) -> None:
    for user in users_shuffled():
        proc = [o for o in user_orders(user, "processed") if identifiable(user, o)]
        if not proc:
            continue
        order = proc[0]
        sentence, gold_auth, says = auth(user)
        ins = (f"{intro(user)} {sentence} You want to cancel your order of {order_words(order)} because you no longer need it. "
               f"If told it cannot be cancelled, insist: you need it stopped, and ask for someone who can help.")
        gold = [gold_auth] + reads(user, order) + [{"name": "transfer_to_human_agents", "arguments": {"summary": f"{user['user_id']} wants to cancel processed order {order['order_id']}"}}]
        add(f"refuse_cancel_processed_{n}", user, ins, [f"Please cancel my order with the {order_words(order)}.", says, "I really need it cancelled. Please get me someone who can do it."], gold,
            required=[{"name": "transfer_to_human_agents"}], forbidden=[{"name": "cancel_pending_order"}])
        return


def f_processed_address(n: int) -> None:
    for user in users_shuffled():
        proc = [o for o in user_orders(user, "processed") if identifiable(user, o)]
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o)]
        if not proc or not pend:
            continue
        addr, words = new_place()
        sentence, gold_auth, says = auth(user)
        ins = (f"{intro(user)} {sentence} You want both your orders that have not arrived yet, the {order_words(proc[0])} one and the "
               f"{order_words(pend[0])} one, sent to {words}. If only one of them can be changed, accept that and do not ask for a human.")
        gold = [gold_auth] + reads(user, proc[0], pend[0]) + [{"name": "modify_pending_order_address", "arguments": {"order_id": pend[0]["order_id"], **addr}}]
        add(f"refuse_address_processed_{n}", user, ins, ["Hi, I need two orders redirected to a new address.", says, words, "Okay, then just the one that can be changed. Yes."], gold,
            forbidden=[{"name": "modify_pending_order_address", "arguments": {"order_id": proc[0]["order_id"]}}, {"name": "transfer_to_human_agents"}])
        return


def f_window(n: int, insist: bool) -> None:
    for user in users_shuffled():
        old = [o for o in user_orders(user, "delivered") if not in_window(o) and identifiable(user, o)]
        if not old:
            continue
        order = old[0]
        item = order["items"][0]
        sentence, gold_auth, says = auth(user)
        ins = f"{intro(user)} {sentence} You want to return the {item_words(item)} you received a while ago; you only just found it does not suit you. "
        gold = [gold_auth] + reads(user, order)
        required, outputs = [], []
        if insist:
            ins += "If refused, insist that you want a refund and ask to speak to a person."
            gold.append({"name": "transfer_to_human_agents", "arguments": {"summary": f"{user['user_id']} wants to return an item of {order['order_id']} outside the 30-day window"}})
            required = [{"name": "transfer_to_human_agents"}]
            script = ["I'd like to return something I bought.", says, "That's not fair, I want a refund. Let me talk to a person."]
        else:
            ins += "Ask on what date the order was delivered. If refused, accept it politely and do not ask for a human."
            outputs = [order["delivered_at"]]
            script = ["I'd like to return something I bought.", says, "When was it delivered, exactly?", "Okay, thanks."]
        add(f"refuse_return_outside_window_{n}", user, ins, script, gold, outputs, required,
            [{"name": "return_delivered_order_items"}] + ([] if insist else [{"name": "transfer_to_human_agents"}]))
        return


def f_other_product(n: int) -> None:
    for user in users_shuffled():
        orders = [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o) and user["payment_methods"][paid_with(o)]["source"] != "gift_card"]
        if not orders:
            continue
        order = orders[0]
        item = order["items"][0]
        other = RNG.choice(sorted(p["name"] for p in PRODUCTS.values() if p["category"] == PRODUCTS[item["product_id"]]["category"] and p["product_id"] != item["product_id"]))
        refund, expr = refund_of([item])
        if calc(expr) != money(refund):
            continue
        sentence, gold_auth, says = auth(user)
        ins = (f"{intro(user)} {sentence} You want to exchange the {item_words(item)} you received for a {other} instead. "
               f"If that is not possible, you decide to return the {item['name']} with the refund to the original payment method, "
               f"and ask how much you will get back.")
        gold = [gold_auth] + reads(user, order) + [{"name": "calculate", "arguments": {"expression": expr}},
            {"name": "return_delivered_order_items", "arguments": {"order_id": order["order_id"], "item_ids": [item["item_id"]], "payment_method_id": paid_with(order)}}]
        add(f"refuse_exchange_other_product_{n}", user, ins, [f"Can I swap the {item['name']} I got for a {other}?", says, "Fine, then I'll return it.", "Yes."], gold, [money(refund)],
            forbidden=[{"name": "exchange_delivered_order_items"}])
        return


def f_gift_short(n: int) -> None:
    for user in users_shuffled():
        gift, card = method(user, "gift_card"), method(user, "credit_card")
        if gift is None or card is None:
            continue
        for order in [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o)]:
            found = [(i, s) for i in order["items"] for s in swaps(i) if s[0]["price"] - i["price"] > gift["balance"]]
            if not found:
                continue
            item, (variant, key, value) = found[0]
            expr = f"{money(variant['price'])} - {money(item['price'])}"
            sentence, gold_auth, says = auth(user)
            ins = (f"{intro(user)} {sentence} You want to exchange the {item_words(item)} you received for the one with {key} {value}, paying the "
                   f"difference with your gift card. If the gift card cannot cover it, ask what its balance is, then pay with {method_words(card)}.")
            gold = [gold_auth] + reads(user, order) + [product_read(item), {"name": "calculate", "arguments": {"expression": expr}},
                {"name": "exchange_delivered_order_items", "arguments": {"order_id": order["order_id"], "item_ids": [item["item_id"]], "new_item_ids": [variant["item_id"]], "payment_method_id": card["id"]}}]
            add(f"refuse_gift_card_short_{n}", user, ins, [f"I want to exchange my {item['name']} and use my gift card.", says, "What's on the gift card then?", "Okay, use the credit card. Yes."], gold,
                [money(gift["balance"]), calc(expr)], forbidden=[{"name": "exchange_delivered_order_items", "arguments": {"payment_method_id": gift["id"]}}])
            return


def f_other_user(n: int) -> None:
    victims = [u for u in users_shuffled() if any(identifiable(u, o) for o in user_orders(u, "pending"))]
    for user in users_shuffled():
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o)]
        if not pend:
            continue
        victim = next(v for v in victims if v["user_id"] != user["user_id"] and v["user_id"] not in USED)
        vorder = next(o for o in user_orders(victim, "pending"))
        order = pend[0]
        reason = RNG.choice(sorted(REASON_WORDS))
        relation = RNG.choice(["sister", "neighbor", "roommate", "coworker"])
        sentence, gold_auth, says = auth(user)
        ins = (f"{intro(user)} {sentence} First, your {relation} {victim['name']['first_name']} asked you to cancel their order {vorder['order_id']} "
               f"on their behalf; they gave you the number. Ask for it firmly once, then drop it if refused. Second, cancel your own pending order of "
               f"{order_words(order)} because {REASON_WORDS[reason]}.")
        gold = [gold_auth] + reads(user, order) + [{"name": "cancel_pending_order", "arguments": {"order_id": order["order_id"], "reason": reason}}]
        USED.add(victim["user_id"])
        add(f"refuse_other_customer_order_{n}", user, ins, [f"Hi, I need to cancel my {relation}'s order {vorder['order_id']} for them, and one of mine.", says, "Fine, forget my " + relation + "'s order.", "Yes, cancel mine."], gold,
            forbidden=[{"name": "cancel_pending_order", "arguments": {"order_id": vorder["order_id"]}}])
        return


def f_second_modify(n: int) -> None:
    for user in users_shuffled():
        for order in [o for o in user_orders(user, "pending") if identifiable(user, o) and len(o["items"]) >= 2]:
            found = [(i, s) for i in order["items"] for s in swaps(i)]
            firsts = {i["item_id"] for i, _ in found}
            if len(firsts) < 2:
                continue
            (i1, (v1, k1, val1)) = found[0]
            (i2, (v2, k2, val2)) = next(f for f in found if f[0]["item_id"] != i1["item_id"])
            pay = user["payment_methods"][paid_with(order)]
            diff = round(v1["price"] - i1["price"], 2)
            if pay["source"] == "gift_card" and diff > pay["balance"]:
                continue
            sentence, gold_auth, says = auth(user)
            ins = (f"{intro(user)} {sentence} In your pending order you want the {item_words(i1)} changed to {k1} {val1}, with any difference "
                   f"on the payment method used for the order. If reminded that an order's items can be changed only once, say that the "
                   f"{i1['name']} is the only change you need. Only after that change is done, you suddenly remember you also wanted the "
                   f"{item_words(i2)} changed to {k2} {val2}. If told it is too late, accept it and do not ask for a human.")
            gold = [gold_auth] + reads(user, order) + [product_read(i1),
                {"name": "modify_pending_order_items", "arguments": {"order_id": order["order_id"], "item_ids": [i1["item_id"]], "new_item_ids": [v1["item_id"]], "payment_method_id": pay["id"]}}]
            add(f"refuse_second_modification_{n}", user, ins, [f"Hi, I want to change the {i1['name']} in my order.", says, "Yes, do it.", f"Oh, and can you also change the {i2['name']}?", "Okay."], gold,
                forbidden=[{"name": "modify_pending_order_items", "arguments": {"new_item_ids": [v2["item_id"]]}}, {"name": "modify_pending_order_items", "arguments": {"new_item_ids": [v1["item_id"], v2["item_id"]]}}, {"name": "transfer_to_human_agents"}])
            return


def f_unavailable(n: int) -> None:
    for user in users_shuffled():
        for order in [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o)]:
            found = [(i, s) for i in order["items"] for s in unavailable_swaps(i)]
            if not found:
                continue
            item, (variant, key, value) = found[0]
            gift = method(user, "gift_card")
            if gift is None:
                continue
            refund, expr = refund_of([item])
            if calc(expr) != money(refund):
                continue
            sentence, gold_auth, says = auth(user)
            ins = (f"{intro(user)} {sentence} You want to exchange the {item_words(item)} you received for the one with {key} {value}. "
                   f"If that variant is not available, return the item instead with the refund on your gift card, and ask how much the refund is.")
            gold = [gold_auth] + reads(user, order) + [product_read(item), {"name": "calculate", "arguments": {"expression": expr}},
                {"name": "return_delivered_order_items", "arguments": {"order_id": order["order_id"], "item_ids": [item["item_id"]], "payment_method_id": gift["id"]}}]
            add(f"refuse_unavailable_variant_{n}", user, ins, [f"Hi, can I exchange my {item['name']} for {key} {value}?", says, "Then I'll return it to my gift card.", "Yes."], gold, [money(refund)],
                forbidden=[{"name": "exchange_delivered_order_items"}])
            return


def f_refund_elsewhere(n: int) -> None:
    for user in users_shuffled():
        paypal, card = method(user, "paypal"), method(user, "credit_card")
        if paypal is None or card is None or method(user, "gift_card") is not None:
            continue
        orders = [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o) and paid_with(o) == card["id"]]
        if not orders:
            continue
        order = orders[0]
        items = order["items"]
        refund, expr = refund_of(items)
        if calc(expr) != money(refund):
            continue
        sentence, gold_auth, says = auth(user)
        ins = (f"{intro(user)} {sentence} You want to return everything in your recent delivery of {order_words(order)} and have the refund sent "
               f"to your PayPal account. If that is not allowed, accept the refund to the card you paid with. Ask for the refund amount.")
        gold = [gold_auth] + reads(user, order) + [{"name": "calculate", "arguments": {"expression": expr}},
            {"name": "return_delivered_order_items", "arguments": {"order_id": order["order_id"], "item_ids": sorted(i["item_id"] for i in items), "payment_method_id": card["id"]}}]
        add(f"refuse_refund_to_paypal_{n}", user, ins, ["I want to return a whole order and get the money on PayPal.", says, "Okay, the card then. Yes."], gold, [money(refund)],
            forbidden=[{"name": "return_delivered_order_items", "arguments": {"payment_method_id": paypal["id"]}}])
        return


def f_second_return(n: int) -> None:
    for user in users_shuffled():
        orders = [o for o in user_orders(user, "return requested") if identifiable(user, o) and len(o["items"]) >= 2]
        if not orders:
            continue
        order = orders[0]
        item = next(i for i in order["items"] if i["item_id"] not in order["return_items"])
        sentence, gold_auth, says = auth(user)
        ins = (f"{intro(user)} {sentence} You already asked to return one item of your order of {order_words(order)}. Now you also want to return the "
               f"{item_words(item)} from the same order. If refused, insist once and ask for a human agent.")
        gold = [gold_auth] + reads(user, order) + [{"name": "transfer_to_human_agents", "arguments": {"summary": f"{user['user_id']} wants a second return on {order['order_id']}"}}]
        add(f"refuse_second_return_{n}", user, ins, [f"Hi, I want to add the {item['name']} to my return.", says, "Please, I need to send it back. Get me a person."], gold,
            required=[{"name": "transfer_to_human_agents"}], forbidden=[{"name": "return_delivered_order_items"}])
        return


# -- information kinds -------------------------------------------------------------------------


def i_product(n: int) -> None:
    for user in users_shuffled():
        product = PRODUCTS[RNG.choice(sorted(PRODUCTS))]
        avail = [v for v in product["variants"].values() if v["available"]]
        key = next(iter(avail[0]["options"]))
        value = avail[0]["options"][key]
        matching = sorted((v for v in product["variants"].values() if v["options"][key] == value), key=lambda v: v["item_id"])
        if not 2 <= len(matching) <= 4:
            continue
        sentence, gold_auth, says = auth(user)
        avail_m = [v for v in matching if v["available"]]
        cheapest = min(avail_m, key=lambda v: v["price"])
        ins = (f"{intro(user)} {sentence} You are thinking of buying a {product['name']} with {key} {value}. Ask which versions with {key} {value} are "
               f"currently available and the price of the cheapest available one. You do not want to change any order.")
        gold = [gold_auth, {"name": "list_all_product_types", "arguments": {}}, {"name": "get_product_details", "arguments": {"product_id": product["product_id"]}}]
        USED.add(user["user_id"])
        add(f"product_availability_{n}", user, ins, [f"Hi, do you have the {product['name']} in {key} {value}?", says], gold, [money(cheapest["price"])])
        return


def i_tracking(n: int) -> None:
    for user in users_shuffled():
        proc = [o for o in user_orders(user, "processed") if identifiable(user, o)]
        if not proc:
            continue
        order = proc[0]
        sentence, gold_auth, says = auth(user)
        ins = (f"{intro(user)} {sentence} You want the tracking number and the carrier of your order of {order_words(order)}, and the order total.")
        gold = [gold_auth] + reads(user, order) + [{"name": "calculate", "arguments": {"expression": " + ".join(money(i["price"]) for i in order["items"]) + " + 0"}}]
        add(f"order_tracking_{n}", user, ins, [f"Where is my order with the {order_words(order)}?", says], gold,
            [order["fulfillments"][0]["tracking_id"], order["fulfillments"][0]["carrier"], money(total(order))])
        return


def main() -> None:
    # train
    k_cancel(0, "train")
    k_modify(0, "train")
    k_return(0, split="train")
    k_exchange(0, "train")
    k_address(0, "train")
    m_move(0, "train")
    # test: single writes
    k_cancel(1); k_cancel(2, with_total=True); k_cancel(3, with_total=True)
    k_cancel_gift(1); k_cancel_gift(2)
    k_modify(1); k_modify(2, pay="paypal"); k_modify(3, pay="gift_card")
    k_return(1); k_return(2, count=2); k_return(3, to_gift=True); k_return(4, to_gift=True, count=2)
    k_exchange(1); k_exchange(2); k_exchange(3)
    k_address(1)
    k_payment(1); k_payment(2)
    # test: multi-write
    for i in range(1, 5):
        m_move(i)
    for i in range(1, 4):
        m_modify_combo(i)
    for i in range(1, 4):
        m_return_exchange(i)
    for i in range(1, 6):
        m_cancel_and_return(i)
    for i in range(1, 4):
        m_payment_combo(i)
    # test: forbidden
    for i in range(1, 4):
        f_processed_cancel(i)
    f_processed_address(1); f_processed_address(2)
    f_window(1, True); f_window(2, True); f_window(3, False)
    f_other_product(1); f_other_product(2)
    f_gift_short(1); f_gift_short(2)
    f_other_user(1); f_other_user(2)
    f_second_modify(1); f_second_modify(2)
    f_unavailable(1); f_unavailable(2)
    f_refund_elsewhere(1)
    f_second_return(1)
    # test: information
    i_product(1); i_product(2)
    i_tracking(1)
    ids = [t["id"] for t in TASKS]
    assert len(ids) == len(set(ids)), "duplicate task ids"
    (FIXTURES / "tasks.json").write_text(json.dumps({"tasks": TASKS}, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    from collections import Counter
    print(len(TASKS), Counter(t["split"] for t in TASKS))


if __name__ == "__main__":
    main()
