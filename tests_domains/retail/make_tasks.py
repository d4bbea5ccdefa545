"""Builds fixtures/retail/tasks.json: `python -m tests_domains.retail.make_tasks`.

Seeded and deterministic. Each task kind is a hand-written template; the builder picks concrete
customers, orders and variants that fit it from the initial DB, runs the gold calls on the task's
own environment (`TaskWriter`) and reads every figure it states from what the tools returned.
A customer names every target unambiguously: an order by the products in it (each product appears
in one order of theirs only), a variant by all of its options.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from pytest_tau import TaskDraft, TaskWriter
from tests_domains.retail.domain import DOMAIN
from tests_domains.retail.schema import Order, OrderItem, PaymentMethod, User, Variant

WINDOW_START = "2026-04-15"  # delivered on or after this date: within the 30-day window on 2026-05-15
REASONS = ("no longer needed", "ordered by mistake", "found a better price")
REASON_WORDS = {
    "no longer needed": "you no longer need it",
    "ordered by mistake": "you ordered it by mistake",
    "found a better price": "you found a better price somewhere else",
}
MOODS = [
    "You are polite but brief.",
    "You are in a hurry and a little impatient.",
    "You are friendly and chatty.",
    "You are careful and want every detail confirmed before anything happens.",
    "You are a bit anxious about your money and ask for amounts to be repeated.",
    "You are calm and matter-of-fact.",
]
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

DB = DOMAIN.initial_db
USERS, ORDERS, PRODUCTS = DB.users.base, DB.orders.base, DB.products.base


# -- reading the initial DB --------------------------------------------------------------------


def user_orders(user: User, status: str | None = None) -> list[Order]:
    found = [ORDERS[o] for o in user.orders]
    return [o for o in found if status is None or o.status == status]


def in_window(order: Order) -> bool:
    return order.status == "delivered" and (order.delivered_at or "") >= WINDOW_START


def paid_with(order: Order) -> str:
    return [p for p in order.payment_history if p.transaction_type == "payment"][-1].payment_method_id


def method(user: User, kind: str) -> PaymentMethod | None:
    """The customer's one method of this kind (None when they have none or several)."""
    found = [m for _, m in sorted(user.payment_methods.items()) if m.source == kind]
    return found[0] if len(found) == 1 else None


def method_words(m: PaymentMethod) -> str:
    if m.source == "credit_card":
        return f"your {(m.brand or '').title()} credit card ending in {m.last_four}"
    return "your store gift card" if m.source == "gift_card" else "your PayPal account"


def opts(options: dict[str, str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in options.items())


def item_words(item: OrderItem) -> str:
    return f"{item.name} ({opts(item.options)})"


def order_words(order: Order) -> str:
    names = [i.name for i in order.items]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def identifiable(user: User, order: Order) -> bool:
    """Each product of the order appears in no other order of the customer's: 'my order with X' is one order."""
    counts: dict[str, int] = {}
    for o in user_orders(user):
        for i in o.items:
            counts[i.product_id] = counts.get(i.product_id, 0) + 1
    return all(counts[i.product_id] == 1 for i in order.items)


def swaps(item: OrderItem, available: bool = True) -> list[Variant]:
    """Other variants of the item's product (available or not), differing in one option and in price."""
    out = []
    for vid, v in sorted(PRODUCTS[item.product_id].variants.items()):
        if vid == item.item_id or v.available != available:
            continue
        changed = [k for k in item.options if v.options[k] != item.options[k]]
        if len(changed) == 1 and abs(v.price - item.price) >= 10:  # a figure no one says by chance ("1 item")
            out.append(v)
    return out


def single_payment(order: Order) -> bool:
    return len(order.payment_history) == 1


def new_address(place: tuple[str, str, str, str, str]) -> tuple[dict[str, str], str]:
    a1, a2, city, state, zip_code = place
    words = f"{a1}{', ' + a2 if a2 else ''}, {city}, {state} {zip_code}, USA"
    return {"address1": a1, "address2": a2, "city": city, "state": state, "country": "USA", "zip": zip_code}, words


# -- the builder ---------------------------------------------------------------------------------


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(515)
        self.used: set[str] = set()
        self.places = list(NEW_PLACES)

    def users(self) -> list[User]:
        ids = sorted(USERS)
        self.rng.shuffle(ids)
        return [USERS[i] for i in ids if i not in self.used]

    @staticmethod
    def fair(draft: TaskDraft) -> bool:
        """No figure the agent must tell is a number the customer says themselves ("2 person" tent, $2.00)."""
        said = " ".join([draft.instructions, *draft.script])
        numbers = {float(token.replace(",", "")) for token in re.findall(r"\d[\d,]*(?:\.\d+)?", said)}
        return not any(o.kind == "money" and abs(float(o.value)) in numbers for o in draft.outputs)

    def place(self) -> tuple[dict[str, str], str]:
        return new_address(self.places.pop(0))

    def start(self, task_id: str, user: User, instructions: str, script: list[str], split: str = "test") -> tuple[TaskDraft, str]:
        """A draft with the customer's authentication done; returns (draft, what they say when asked)."""
        first, last = user.name.first_name, user.name.last_name
        if self.rng.choice(["email", "zip"]) == "email":
            sentence, says = f"Your email is {user.email}.", f"My email is {user.email}."
            auth: tuple[str, dict[str, str]] = ("find_user_id_by_email", {"email": user.email})
        else:
            zip_code = user.address.zip
            sentence, says = f"Your zip code is {zip_code}.", f"I'm {first} {last}, zip code {zip_code}."
            auth = ("find_user_id_by_name_zip", {"first_name": first, "last_name": last, "zip": zip_code})
        text = f"You are {first} {last}. {sentence} {instructions} {self.rng.choice(MOODS)} Reveal information only when asked."
        script = [says if line == "AUTH" else line for line in script]
        draft = self.writer.task(task_id, instructions=text, script=script, split=split)
        draft.read(auth[0], **auth[1])
        draft.read("get_user_details", user_id=user.user_id)
        self.used.add(user.user_id)
        return draft, says

    def first(self, kind: Callable[[User], bool]) -> None:
        for user in self.users():
            before = set(self.writer.drafts)
            if kind(user):
                added = [self.writer.drafts[key] for key in self.writer.drafts if key not in before]
                if all(self.fair(draft) for draft in added):
                    return
                for draft in added:
                    self.writer.discard(draft)
                self.used.discard(user.user_id)
        raise RuntimeError(f"no customer fits {kind}")


def said_reason(reason: str) -> str:
    """The cancellation reason in the customer's own first-person words."""
    return REASON_WORDS[reason].replace("you ", "I ", 1)


def gift_balance(draft: TaskDraft, user: User, gift_id: str) -> Any:
    """The gift card balance as the profile shows it now (after the task's writes so far)."""
    return draft.read("get_user_details", user_id=user.user_id)["payment_methods"][gift_id]["balance"]


def refund_of(result: dict[str, Any], note: str) -> Any:
    return next(p["amount"] for p in result["payment_history"] if p["note"] == note and p["transaction_type"] == "refund")


# -- single-write kinds ----------------------------------------------------------------------------


def k_cancel(b: Builder, n: int, split: str = "test", with_total: bool = False) -> None:
    def fits(user: User) -> bool:
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o) and single_payment(o)]
        if not pend or user.payment_methods[paid_with(pend[0])].source == "gift_card":
            return False
        order = pend[0]
        reason = b.rng.choice(REASONS)
        ins = (f"You want to cancel your recent order containing {order_words(order)} because {REASON_WORDS[reason]}. "
               "You do not know the order number.")
        if with_total:
            ins += " Ask how much money you will get back in total."
        draft, _ = b.start(f"cancel_pending_{n}", user, ins, [f"Hi, I need to cancel an order with the {order_words(order)} in it.", "AUTH", f"It's because {said_reason(reason)}. Yes, go ahead."], split)
        draft.one_end_state("Rule 5.1: a pending order is cancelled whole, for the reason the customer gives, one of the three values "
                            "(each of their words fits one); the refund goes back to what paid it.")
        draft.read("get_order_details", order_id=order.order_id)
        result = draft.write("cancel_pending_order", order_id=order.order_id, reason=reason)
        if with_total:
            draft.output(refund_of(result, "order cancelled"), "money")
        return True

    b.first(fits)


def k_cancel_gift(b: Builder, n: int) -> None:
    def fits(user: User) -> bool:
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o) and single_payment(o)
                and user.payment_methods[paid_with(o)].source == "gift_card" and method(user, "gift_card") is not None]
        if not pend:
            return False
        order = pend[0]
        reason = b.rng.choice(REASONS)
        ins = (f"You paid your pending order of {order_words(order)} with your store gift card and want to cancel it because "
               f"{REASON_WORDS[reason]}. You want to know what your gift card balance will be afterwards.")
        draft, _ = b.start(f"cancel_gift_card_order_{n}", user, ins, ["Hello, I want to cancel an order I paid with a gift card.", "AUTH", f"Because {said_reason(reason)}. Yes, please cancel it."])
        draft.one_end_state("Rule 5.1: the pending order is cancelled whole for the reason the customer gives, and its gift card "
                            "payment is credited back at once; the balance after is the profile's.")
        draft.read("get_order_details", order_id=order.order_id)
        draft.write("cancel_pending_order", order_id=order.order_id, reason=reason)
        draft.output(gift_balance(draft, user, paid_with(order)), "money")
        return True

    b.first(fits)


def _pending_swap(user: User) -> tuple[Order, OrderItem, Variant] | None:
    for order in user_orders(user, "pending"):
        if not identifiable(user, order):
            continue
        for item in order.items:
            options = swaps(item)
            if options:
                return order, item, options[0]
    return None


def k_modify(b: Builder, n: int, split: str = "test", pay: str = "credit_card") -> None:
    def fits(user: User) -> bool:
        cand = _pending_swap(user)
        m = method(user, pay)
        if cand is None or m is None:
            return False
        order, item, variant = cand
        diff = round(variant.price - item.price, 2)
        if pay == "gift_card" and (diff > (m.balance or 0) or diff < 0):
            return False
        word = "pay" if diff > 0 else "get back"
        ins = (f"In your pending order you have the {item_words(item)}, and you want it changed to the {opts(variant.options)} version. "
               f"Any price difference should go through {method_words(m)}. You want to know exactly how much you will {word}. "
               "Nothing else in the order should change.")
        if pay == "gift_card":
            ins += " Also ask what will be left on the gift card."
        draft, _ = b.start(f"modify_pending_items_{n}", user, ins,
                           [f"Hi, I'd like to change the {item.name} in an order I haven't received yet.", "AUTH", f"I'd like the {opts(variant.options)} one, please.", "Yes, that's right."], split)
        draft.one_end_state("Rule 5.2: a pending order's item becomes another available variant of the same product; the customer names the item by product and options and the new variant by its full options, which fit one variant of the same product (variants never share options); the difference goes to the one method of that kind on the profile, which they name (5.3), and the figure is quote_item_change's.")
        draft.read("get_order_details", order_id=order.order_id)
        draft.read("get_product_details", product_id=item.product_id)
        quote = draft.read("quote_item_change", order_id=order.order_id, item_ids=[item.item_id], new_item_ids=[variant.item_id])
        draft.write("modify_pending_order_items", order_id=order.order_id, item_ids=[item.item_id], new_item_ids=[variant.item_id], payment_method_id=m.id)
        draft.output(quote["customer_pays"] if diff > 0 else quote["customer_gets_back"], "money")
        if pay == "gift_card":
            draft.output(gift_balance(draft, user, m.id), "money")
        return True

    b.first(fits)


def k_return(b: Builder, n: int, to_gift: bool = False, split: str = "test", count: int = 1) -> None:
    def fits(user: User) -> bool:
        orders = [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o) and len(o.items) >= count]
        if not orders:
            return False
        order = orders[0]
        gift = method(user, "gift_card")
        if to_gift and (gift is None or paid_with(order) == gift.id):
            return False
        original = user.payment_methods[paid_with(order)]
        if not to_gift and original.source == "gift_card":
            return False
        dest = gift if to_gift and gift is not None else original
        items = order.items[:count]
        what = " and the ".join(item_words(i) for i in items)
        ins = (f"You received an order recently and want to return the {what} from it. You want the refund to go to "
               f"{'your store gift card' if to_gift else 'the card or account you paid with'}. Before agreeing, ask how much the refund will be.")
        if to_gift:
            ins += " Also ask what the gift card balance will be after the refund."
        draft, _ = b.start(f"return_delivered_{n}", user, ins, ["Hi, I'd like to return something from a recent delivery.", "AUTH", "Yes, please process the return."], split)
        draft.one_end_state("Rules 6.1-6.4: the order is in the 30-day window and is the only one with these products; the items, "
                            "named by product and options, go back in one request (6.2) to the original method or the only gift "
                            "card, as the customer says (6.3); the refund is quote_return's, restocking fee included.")
        draft.read("get_order_details", order_id=order.order_id)
        ids = sorted(i.item_id for i in items)
        quote = draft.read("quote_return", order_id=order.order_id, item_ids=ids)
        draft.write("return_delivered_order_items", order_id=order.order_id, item_ids=ids, payment_method_id=dest.id)
        draft.output(quote["refund"], "money")
        if to_gift:
            draft.output(gift_balance(draft, user, dest.id), "money")
        return True

    b.first(fits)


def k_exchange(b: Builder, n: int, split: str = "test") -> None:
    def fits(user: User) -> bool:
        for order in [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o)]:
            for item in order.items:
                options = swaps(item)
                m = user.payment_methods[paid_with(order)]
                if not options:
                    continue
                variant = options[-1]
                diff = round(variant.price - item.price, 2)
                if m.source == "gift_card" and diff > (m.balance or 0):
                    continue
                word = "charged" if diff > 0 else "refunded"
                ins = (f"You received the {item_words(item)} and want to exchange it for the {opts(variant.options)} version of the same product. "
                       f"Use the payment method you paid the order with for any difference, and ask how much will be {word}.")
                draft, _ = b.start(f"exchange_delivered_{n}", user, ins,
                                   [f"Hi, I want to exchange the {item.name} I got.", "AUTH", f"The {opts(variant.options)} one.", "Yes, do it."], split)
                draft.one_end_state("Rule 7.1: a delivered order in the 30-day window, the customer names the item by product and options and the new variant by its full options, which fit one variant of the same product (variants never share options); the difference goes to the order's own payment method as the customer asks (7.3), the figure quote_item_change's.")
                draft.read("get_order_details", order_id=order.order_id)
                draft.read("get_product_details", product_id=item.product_id)
                quote = draft.read("quote_item_change", order_id=order.order_id, item_ids=[item.item_id], new_item_ids=[variant.item_id])
                draft.write("exchange_delivered_order_items", order_id=order.order_id, item_ids=[item.item_id], new_item_ids=[variant.item_id], payment_method_id=m.id)
                draft.output(quote["customer_pays"] if diff > 0 else quote["customer_gets_back"], "money")
                return True
        return False

    b.first(fits)


def k_address(b: Builder, n: int, split: str = "test") -> None:
    def fits(user: User) -> bool:
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o)]
        if len(pend) != 1:
            return False
        order = pend[0]
        addr, words = b.place()
        ins = (f"You are staying at {words} for the next few weeks and want your pending order of {order_words(order)} shipped there. "
               "Your default address on file must stay as it is.")
        draft, _ = b.start(f"modify_pending_address_{n}", user, ins, ["Hi, can you ship my order to a different address?", "AUTH", words, "Yes, confirmed."], split)
        draft.one_end_state("Rule 5.4: a pending order's address changes any number of times and the default address only when asked; the customer says it must stay, so only the order (their one pending order) moves.")
        draft.read("get_order_details", order_id=order.order_id)
        draft.write("modify_pending_order_address", order_id=order.order_id, **addr)
        draft.forbid("modify_user_address", user_id=user.user_id, **addr)
        return True

    b.first(fits)


def k_payment(b: Builder, n: int) -> None:
    def fits(user: User) -> bool:
        gift = method(user, "gift_card")
        if gift is None:
            return False
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o) and single_payment(o) and paid_with(o) != gift.id
                and sum(i.price for i in o.items) <= (gift.balance or 0)]
        if not pend:
            return False
        order = pend[0]
        ins = (f"You would rather pay for your pending order of {order_words(order)} with your store gift card instead of what you used. "
               "Ask how much will remain on the gift card afterwards.")
        draft, _ = b.start(f"modify_pending_payment_{n}", user, ins, ["Hello, I want to change how I pay for an order.", "AUTH", "Yes, switch it to the gift card."])
        draft.read("get_order_details", order_id=order.order_id)
        draft.write("modify_pending_order_payment", order_id=order.order_id, payment_method_id=gift.id)
        draft.output(gift_balance(draft, user, gift.id), "money")
        return True

    b.first(fits)


# -- multi-write kinds -------------------------------------------------------------------------


def m_move(b: Builder, n: int, split: str = "test") -> None:
    """Moved house: default address + one pending order's address + cancel the other pending order."""

    def fits(user: User) -> bool:
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o)]
        if len(pend) != 2:
            return False
        a, c = pend
        addr, words = b.place()
        reason = b.rng.choice(REASONS)
        ins = (f"You just moved to {words}. You want your default address updated, and your pending order of {order_words(a)} shipped to "
               f"the new address. You also want to cancel your other pending order ({order_words(c)}) because {REASON_WORDS[reason]}.")
        draft, _ = b.start(f"moved_update_and_cancel_{n}", user, ins,
                           ["Hi, I moved and need to sort out my account and orders.", "AUTH", words, "Yes.", "Yes, please.", f"Yes, cancel it: {said_reason(reason)}."], split)
        draft.one_end_state("Rules 5.4, 8.1 and 5.1: the default address and the one pending order named change to the address "
                            "given (each only because asked), and the other pending order is cancelled for the customer's reason.")
        draft.read("get_order_details", order_id=a.order_id)
        draft.read("get_order_details", order_id=c.order_id)
        draft.write("modify_user_address", user_id=user.user_id, **addr)
        draft.write("modify_pending_order_address", order_id=a.order_id, **addr)
        draft.write("cancel_pending_order", order_id=c.order_id, reason=reason)
        return True

    b.first(fits)


def m_modify_combo(b: Builder, n: int) -> None:
    """A pending order: modify an item (difference on the gift card), ship it elsewhere, make that the default address."""

    def fits(user: User) -> bool:
        gift, cand = method(user, "gift_card"), _pending_swap(user)
        if gift is None or cand is None:
            return False
        order, item, variant = cand
        diff = round(variant.price - item.price, 2)
        if diff <= 0 or diff > (gift.balance or 0):
            return False
        addr, words = b.place()
        ins = (f"Three things: (1) in your pending order, switch the {item_words(item)} to the {opts(variant.options)} version, paying any "
               f"difference with your gift card, and ask what balance will be left on the gift card; (2) ship that order to {words}; "
               f"(3) make {words} your default address too.")
        draft, _ = b.start(f"modify_items_and_addresses_{n}", user, ins, ["Hi, I have a few changes to make.", "AUTH",
                           f"In my pending order, switch the {item_words(item)} to the {opts(variant.options)} version, with any "
                           f"difference on my gift card. Then ship that order to {words}, and make that my default address too.",
                           "Yes.", "Yes.", "Yes."])
        draft.one_end_state("Rules 5.2-5.4 and 8.1: the customer names the item by product and options and the new variant by its full options, which fit one variant of the same product (variants never share options); the gift card (their only one) covers the difference (5.3); the order and the default address take the address the customer gives.")
        draft.read("get_order_details", order_id=order.order_id)
        draft.read("get_product_details", product_id=item.product_id)
        draft.read("quote_item_change", order_id=order.order_id, item_ids=[item.item_id], new_item_ids=[variant.item_id])
        draft.write("modify_pending_order_items", order_id=order.order_id, item_ids=[item.item_id], new_item_ids=[variant.item_id], payment_method_id=gift.id)
        draft.write("modify_pending_order_address", order_id=order.order_id, **addr)
        draft.write("modify_user_address", user_id=user.user_id, **addr)
        draft.output(gift_balance(draft, user, gift.id), "money")
        return True

    b.first(fits)


def m_return_exchange(b: Builder, n: int, split: str = "test") -> None:
    """Two delivered orders: return one item to the gift card, exchange another, update the default address."""

    def fits(user: User) -> bool:
        gift = method(user, "gift_card")
        delivered = [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o)]
        if gift is None or len(delivered) < 2:
            return False
        ret, exc = delivered[0], delivered[1]
        found = [(i, v) for i in exc.items for v in swaps(i)]
        pay = user.payment_methods[paid_with(exc)]
        if not found or pay.source == "gift_card":
            return False
        item, variant = found[0]
        back = ret.items[0]
        addr, words = b.place()
        ins = (f"You want to return the {item_words(back)} you received, with the refund on your gift card (ask how much the refund is); "
               f"exchange the {item_words(item)} from another delivery for the {opts(variant.options)} version, settling any difference with "
               f"the payment method used for that order; and change your default address to {words}.")
        draft, _ = b.start(f"return_exchange_and_address_{n}", user, ins, ["Hi, I have a return, an exchange and an address change.", "AUTH",
                           f"Return the {item_words(back)}, refunded to my gift card. Exchange the {item_words(item)} for the "
                           f"{opts(variant.options)} version, any difference on the card I paid that order with. And change my "
                           f"default address to {words}.", "Yes.", "Yes.", "Yes."], split)
        draft.one_end_state("Rules 6-8: the returned item goes to the only gift card (6.3); for the exchange the customer names the item by product and options and the new variant by its full options, which fit one variant of the same product (variants never share options), the difference on that order's own method as asked (7.3); the default address is the one given.")
        draft.read("get_order_details", order_id=ret.order_id)
        draft.read("get_order_details", order_id=exc.order_id)
        quote = draft.read("quote_return", order_id=ret.order_id, item_ids=[back.item_id])
        draft.write("return_delivered_order_items", order_id=ret.order_id, item_ids=[back.item_id], payment_method_id=gift.id)
        draft.read("get_product_details", product_id=item.product_id)
        draft.read("quote_item_change", order_id=exc.order_id, item_ids=[item.item_id], new_item_ids=[variant.item_id])
        draft.write("exchange_delivered_order_items", order_id=exc.order_id, item_ids=[item.item_id], new_item_ids=[variant.item_id], payment_method_id=pay.id)
        draft.write("modify_user_address", user_id=user.user_id, **addr)
        draft.output(quote["refund"], "money")
        return True

    b.first(fits)


def m_cancel_and_return(b: Builder, n: int) -> None:
    """Cancel a pending order, return delivered items to the gift card, update the default address."""

    def fits(user: User) -> bool:
        gift = method(user, "gift_card")
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o) and single_payment(o)]
        delivered = [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o) and paid_with(o) != (gift.id if gift else "")]
        if gift is None or not pend or not delivered:
            return False
        p, d = pend[0], delivered[0]
        items = d.items[:2]
        reason = b.rng.choice(REASONS)
        addr, words = b.place()
        what = " and the ".join(item_words(i) for i in items)
        ins = (f"You want to cancel your pending order of {order_words(p)} ({REASON_WORDS[reason]}), return the {what} from a recent delivery "
               f"with the refund going to your gift card, and update your default address to {words}. At the end ask what your gift card balance will be.")
        draft, _ = b.start(f"cancel_return_and_address_{n}", user, ins, ["Hi, several things today.", "AUTH",
                           f"Cancel my pending order of {order_words(p)}, because {REASON_WORDS[reason].replace('you ', 'I ', 1)}. "
                           f"Return the {what} from a recent delivery, refunded to my gift card. And update my default address "
                           f"to {words}.", "Yes.", "Yes.", "Yes."])
        draft.one_end_state("Rules 5.1, 6.1-6.3 and 8.1: the pending order is cancelled for the reason the customer gives (one of the three values); the items, named by product and options, are returned in one request (6.2) to their only gift card, which 6.3 allows; the default address is the one they give.")
        draft.read("get_order_details", order_id=p.order_id)
        draft.read("get_order_details", order_id=d.order_id)
        ids = sorted(i.item_id for i in items)
        draft.write("cancel_pending_order", order_id=p.order_id, reason=reason)
        draft.read("quote_return", order_id=d.order_id, item_ids=ids)
        draft.write("return_delivered_order_items", order_id=d.order_id, item_ids=ids, payment_method_id=gift.id)
        draft.write("modify_user_address", user_id=user.user_id, **addr)
        draft.output(gift_balance(draft, user, gift.id), "money")
        return True

    b.first(fits)


def m_payment_combo(b: Builder, n: int) -> None:
    """Move a pending order to the gift card, ship it elsewhere, and make that the default address."""

    def fits(user: User) -> bool:
        gift, card = method(user, "gift_card"), method(user, "credit_card")
        if gift is None or card is None:
            return False
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o) and single_payment(o) and paid_with(o) != gift.id
                and sum(i.price for i in o.items) <= (gift.balance or 0)]
        if not pend:
            return False
        order = pend[0]
        addr, words = b.place()
        ins = (f"For your pending order of {order_words(order)}: pay it with your gift card instead (ask what will remain on the card), "
               f"ship it to {words} instead, and also make that your default address.")
        draft, _ = b.start(f"pay_with_gift_card_and_move_{n}", user, ins, ["Hi, I need to change payment and shipping on an order.", "AUTH",
                           f"For my pending order of {order_words(order)}: pay it with my gift card instead, ship it to {words}, "
                           "and make that my default address too.", "Yes.", "Yes.", "Yes."])
        draft.read("get_order_details", order_id=order.order_id)
        draft.write("modify_pending_order_payment", order_id=order.order_id, payment_method_id=gift.id)
        draft.write("modify_pending_order_address", order_id=order.order_id, **addr)
        draft.write("modify_user_address", user_id=user.user_id, **addr)
        draft.output(gift_balance(draft, user, gift.id), "money")
        return True

    b.first(fits)


# -- kinds where the policy refuses part of the request ------------------------------------------------


def f_processed_cancel(b: Builder, n: int) -> None:
    def fits(user: User) -> bool:
        proc = [o for o in user_orders(user, "processed") if identifiable(user, o)]
        if not proc:
            return False
        order = proc[0]
        ins = (f"You want to cancel your order of {order_words(order)} because you no longer need it. If told it cannot be cancelled, "
               "insist: you need it stopped, and ask for someone who can help.")
        draft, _ = b.start(f"refuse_cancel_processed_{n}", user, ins,
                           [f"Please cancel my order with the {order_words(order)}.", "AUTH", "I really need it cancelled. Please get me someone who can do it."])
        draft.one_end_state("Rules 4.3 and 11.1: a processed order cannot be cancelled; the customer insists after the explanation, so the agent looks the order up and transfers, the one step 11.1 leaves.")
        draft.read("get_order_details", order_id=order.order_id)
        draft.require("get_order_details", order_id=order.order_id)  # the policy: look, explain, then transfer
        draft.transfer(f"{user.user_id} wants to cancel processed order {order.order_id}")
        for reason in REASONS:
            draft.forbid("cancel_pending_order", order_id=order.order_id, reason=reason)
        return True

    b.first(fits)


def f_processed_address(b: Builder, n: int) -> None:
    def fits(user: User) -> bool:
        proc = [o for o in user_orders(user, "processed") if identifiable(user, o)]
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o)]
        if not proc or not pend:
            return False
        addr, words = b.place()
        ins = (f"You want both your orders that have not arrived yet, the {order_words(proc[0])} one and the {order_words(pend[0])} one, "
               f"sent to {words}. If only one of them can be changed, accept that and do not ask for a human.")
        draft, _ = b.start(f"refuse_address_processed_{n}", user, ins,
                           ["Hi, I need two orders redirected to a new address.", "AUTH", words, "Okay, then just the one that can be changed. Yes."])
        draft.one_end_state("Rules 4.2-4.3 and 5.4: only the pending order's address may change, the processed one's not; the customer accepts that and wants no human (11.1 needs insistence).")
        draft.read("get_order_details", order_id=proc[0].order_id)
        draft.read("get_order_details", order_id=pend[0].order_id)
        draft.write("modify_pending_order_address", order_id=pend[0].order_id, **addr)
        draft.forbid("modify_pending_order_address", order_id=proc[0].order_id, **addr)
        draft.forbid("transfer_to_human_agents")
        return True

    b.first(fits)


def f_window(b: Builder, n: int, insist: bool) -> None:
    def fits(user: User) -> bool:
        old = [o for o in user_orders(user, "delivered") if not in_window(o) and identifiable(user, o)]
        if not old:
            return False
        order = old[0]
        item = order.items[0]
        ins = f"You want to return the {item_words(item)} you received a while ago; you only just found it does not suit you. "
        if insist:
            ins += "If refused, insist that you want a refund and ask to speak to a person."
            script = ["I'd like to return something I bought.", "AUTH", "That's not fair, I want a refund. Let me talk to a person."]
        else:
            ins += "Ask on what date the order was delivered. If refused, accept it politely and do not ask for a human."
            script = ["I'd like to return something I bought.", "AUTH", "When was it delivered, exactly?", "Okay, thanks."]
        draft, _ = b.start(f"refuse_return_outside_window_{n}", user, ins, script)
        draft.one_end_state("Rule 6.1: the order was delivered more than 30 days ago, so no return to any method; a customer who insists is transferred after the look-up (11.1), one who accepts is told the delivery date and not transferred.")
        draft.read("get_order_details", order_id=order.order_id)
        if insist:
            draft.require("get_order_details", order_id=order.order_id)
            draft.transfer(f"{user.user_id} wants to return an item of {order.order_id}, delivered more than 30 days ago")
        else:
            draft.output(order.delivered_at, "date")
            draft.forbid("transfer_to_human_agents")
        for pm in sorted({paid_with(order)} | {m.id for m in user.payment_methods.values() if m.source == "gift_card"}):
            draft.forbid("return_delivered_order_items", order_id=order.order_id, item_ids=[item.item_id], payment_method_id=pm)
        return True

    b.first(fits)


def f_other_product(b: Builder, n: int) -> None:
    def fits(user: User) -> bool:
        orders = [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o) and user.payment_methods[paid_with(o)].source != "gift_card"]
        if not orders:
            return False
        order = orders[0]
        item = order.items[0]
        category = PRODUCTS[item.product_id].category
        other = b.rng.choice(sorted(p.name for p in PRODUCTS.values() if p.category == category and p.product_id != item.product_id))
        ins = (f"You want to exchange the {item_words(item)} you received for the {other} instead. If that is not possible, you decide to return "
               f"the {item.name} with the refund to the original payment method, and ask how much you will get back.")
        draft, _ = b.start(f"refuse_exchange_other_product_{n}", user, ins, [f"Can I swap the {item.name} I got for the {other}?", "AUTH", "Fine, then I'll return it.", "Yes."])
        draft.one_end_state("Rule 7.1: an exchange is for a variant of the same product only, and it points to the return the customer then asks for: the named item, in the window, refunded to the original method as they ask (6.3), the figure quote_return's.")
        draft.read("get_order_details", order_id=order.order_id)
        quote = draft.read("quote_return", order_id=order.order_id, item_ids=[item.item_id])
        draft.write("return_delivered_order_items", order_id=order.order_id, item_ids=[item.item_id], payment_method_id=paid_with(order))
        draft.output(quote["refund"], "money")
        return True

    b.first(fits)


def f_gift_short(b: Builder, n: int) -> None:
    def fits(user: User) -> bool:
        gift, card = method(user, "gift_card"), method(user, "credit_card")
        if gift is None or card is None:
            return False
        for order in [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o)]:
            found = [(i, v) for i in order.items for v in swaps(i) if v.price - i.price > (gift.balance or 0)]
            if not found:
                continue
            item, variant = found[0]
            ins = (f"You want to exchange the {item_words(item)} you received for the {opts(variant.options)} version, paying the difference with "
                   f"your gift card. If the gift card cannot cover it, ask what its balance is, then pay with {method_words(card)}. "
                   "Ask how much the difference is.")
            draft, _ = b.start(f"refuse_gift_card_short_{n}", user, ins,
                               [f"I want to exchange my {item.name} and use my gift card.", "AUTH", f"The {opts(variant.options)} one.", "What's on the gift card then?", "Okay, use the credit card. Yes."])
            draft.one_end_state("Rule 7.3: a gift card pays a difference only when its balance covers all of it, and it does not; the customer names the item by product and options and the new variant by its full options, which fit one variant of the same product (variants never share options); the customer then names their only credit card for it.")
            draft.read("get_order_details", order_id=order.order_id)
            draft.read("get_product_details", product_id=item.product_id)
            quote = draft.read("quote_item_change", order_id=order.order_id, item_ids=[item.item_id], new_item_ids=[variant.item_id])
            draft.write("exchange_delivered_order_items", order_id=order.order_id, item_ids=[item.item_id], new_item_ids=[variant.item_id], payment_method_id=card.id)
            draft.output(gift.balance, "money")
            draft.output(quote["customer_pays"], "money")
            return True
        return False

    b.first(fits)


def f_other_user(b: Builder, n: int) -> None:
    victims = [u for u in b.users() if any(identifiable(u, o) for o in user_orders(u, "pending"))]

    def fits(user: User) -> bool:
        pend = [o for o in user_orders(user, "pending") if identifiable(user, o)]
        if not pend:
            return False
        victim = next(v for v in victims if v.user_id != user.user_id and v.user_id not in b.used)
        vorder = user_orders(victim, "pending")[0]
        order = pend[0]
        reason = b.rng.choice(REASONS)
        relation = b.rng.choice(["neighbor", "roommate", "coworker", "friend"])
        ins = (f"First, your {relation} {victim.name.first_name} {victim.name.last_name} asked you to cancel their order {vorder.order_id} on their "
               f"behalf; they gave you the number. Ask for it firmly once, then drop it if refused. Second, cancel your own pending order of "
               f"{order_words(order)} because {REASON_WORDS[reason]}.")
        draft, _ = b.start(f"refuse_other_customer_order_{n}", user, ins,
                           [f"Hi, I need to cancel my {relation}'s order {vorder.order_id} for them, and one of mine.", "AUTH", f"Fine, forget my {relation}'s order.", f"Yes, cancel mine: {said_reason(reason)}."])
        draft.one_end_state("Rule 1.2: another customer's order is never touched, whatever the relation; the customer's own pending order is cancelled for the reason they give (5.1).")
        b.used.add(victim.user_id)
        draft.read("get_order_details", order_id=order.order_id)
        draft.write("cancel_pending_order", order_id=order.order_id, reason=reason)
        for why in REASONS:
            draft.forbid("cancel_pending_order", order_id=vorder.order_id, reason=why)
        return True

    b.first(fits)


def f_second_modify(b: Builder, n: int) -> None:
    def fits(user: User) -> bool:
        for order in [o for o in user_orders(user, "pending") if identifiable(user, o) and len(o.items) >= 2 and single_payment(o)]:
            pay = user.payment_methods[paid_with(order)]
            if pay.source == "gift_card":
                continue
            found = [(i, v) for i in order.items for v in swaps(i)]
            if len({i.item_id for i, _ in found}) < 2:
                continue
            i1, v1 = found[0]
            i2, v2 = next(f for f in found if f[0].item_id != i1.item_id)
            ins = (f"In your pending order you want the {item_words(i1)} changed to the {opts(v1.options)} version, with any difference on "
                   f"the payment method used for the order. If reminded that an order's items can be changed only once, say that the {i1.name} "
                   f"is the only change you need. Only after that change is done, you suddenly remember you also wanted the {item_words(i2)} "
                   f"changed to the {opts(v2.options)} version. If told it is too late, accept it and do not ask for a human.")
            draft, _ = b.start(f"refuse_second_modification_{n}", user, ins,
                               [f"Hi, I want to change the {i1.name} in my order.", "AUTH", f"The {opts(v1.options)} one.", "Yes, do it.",
                                f"Oh, and can you also change the {i2.name} to the {opts(v2.options)} one?", "Okay."])
            draft.one_end_state("Rule 5.2: items change only once per order; the customer says the first item is the only change, so the second request is refused, and they want no human; the customer names the item by product and options and the new variant by its full options, which fit one variant of the same product (variants never share options), the difference on the order's own method as asked.")
            draft.read("get_order_details", order_id=order.order_id)
            draft.read("get_product_details", product_id=i1.product_id)
            draft.read("quote_item_change", order_id=order.order_id, item_ids=[i1.item_id], new_item_ids=[v1.item_id])
            draft.write("modify_pending_order_items", order_id=order.order_id, item_ids=[i1.item_id], new_item_ids=[v1.item_id], payment_method_id=pay.id)
            draft.forbid("modify_pending_order_items", order_id=order.order_id, item_ids=[i2.item_id], new_item_ids=[v2.item_id], payment_method_id=pay.id)
            draft.forbid("transfer_to_human_agents")
            return True
        return False

    b.first(fits)


def f_unavailable(b: Builder, n: int) -> None:
    def fits(user: User) -> bool:
        gift = method(user, "gift_card")
        if gift is None:
            return False
        for order in [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o) and paid_with(o) != gift.id]:
            found = [(i, v) for i in order.items for v in swaps(i, available=False)]
            if not found:
                continue
            item, variant = found[0]
            ins = (f"You want to exchange the {item_words(item)} you received for the {opts(variant.options)} version. If that version is not "
                   "available, return the item instead with the refund on your gift card, and ask how much the refund is.")
            draft, _ = b.start(f"refuse_unavailable_variant_{n}", user, ins,
                               [f"Hi, can I exchange my {item.name} for the {opts(variant.options)} one?", "AUTH", "Then I'll return it to my gift card.", "Yes."])
            draft.one_end_state("Rule 7.1: the variant asked for is out of stock, so no exchange; the customer then returns the item to their only gift card, which 6.3 allows, the figure quote_return's.")
            draft.read("get_order_details", order_id=order.order_id)
            draft.read("get_product_details", product_id=item.product_id)
            quote = draft.read("quote_return", order_id=order.order_id, item_ids=[item.item_id])
            draft.write("return_delivered_order_items", order_id=order.order_id, item_ids=[item.item_id], payment_method_id=gift.id)
            draft.output(quote["refund"], "money")
            return True
        return False

    b.first(fits)


def f_refund_elsewhere(b: Builder, n: int) -> None:
    def fits(user: User) -> bool:
        paypal, card = method(user, "paypal"), method(user, "credit_card")
        if paypal is None or card is None or method(user, "gift_card") is not None:
            return False
        orders = [o for o in user_orders(user, "delivered") if in_window(o) and identifiable(user, o) and paid_with(o) == card.id]
        if not orders:
            return False
        order = orders[0]
        ids = sorted(i.item_id for i in order.items)
        ins = (f"You want to return everything in your recent delivery of {order_words(order)} and have the refund sent to your PayPal account. "
               "If that is not allowed, accept the refund to the card you paid with. Ask for the refund amount.")
        draft, _ = b.start(f"refuse_refund_to_paypal_{n}", user, ins, ["I want to return a whole order and get the money on PayPal.", "AUTH", "Okay, the card then. Yes."])
        draft.one_end_state("Rule 6.3: a refund goes to the original method or a gift card, never PayPal; the customer has no gift card, so every item of the order goes back to the card they paid with.")
        draft.read("get_order_details", order_id=order.order_id)
        quote = draft.read("quote_return", order_id=order.order_id, item_ids=ids)
        draft.write("return_delivered_order_items", order_id=order.order_id, item_ids=ids, payment_method_id=card.id)
        draft.output(quote["refund"], "money")
        draft.forbid("return_delivered_order_items", order_id=order.order_id, item_ids=ids, payment_method_id=paypal.id)
        return True

    b.first(fits)


def f_second_return(b: Builder, n: int) -> None:
    def fits(user: User) -> bool:
        orders = [o for o in user_orders(user, "return requested") if identifiable(user, o) and len(o.items) >= 2]
        if not orders:
            return False
        order = orders[0]
        item = next(i for i in order.items if i.item_id not in order.return_items)
        ins = (f"You already asked to return one item of your order of {order_words(order)}. Now you also want to return the {item_words(item)} "
               "from the same order. If refused, insist once and ask for a human agent.")
        draft, _ = b.start(f"refuse_second_return_{n}", user, ins, [f"Hi, I want to add the {item.name} to my return.", "AUTH", "Please, I need to send it back. Get me a person."])
        draft.one_end_state("Rules 4.3 and 6.2: a return is made once per order and a return-requested order cannot change; the customer insists, so the look-up and the transfer of 11.1.")
        draft.read("get_order_details", order_id=order.order_id)
        draft.require("get_order_details", order_id=order.order_id)
        draft.transfer(f"{user.user_id} wants a second return on {order.order_id}")
        pm = order.return_payment_method_id or paid_with(order)
        for ids in ([item.item_id], sorted([*order.return_items, item.item_id])):
            draft.forbid("return_delivered_order_items", order_id=order.order_id, item_ids=ids, payment_method_id=pm)
        return True

    b.first(fits)


# -- information kinds -------------------------------------------------------------------------


def i_product(b: Builder, n: int) -> None:
    def fits(user: User) -> bool:
        product = PRODUCTS[b.rng.choice(sorted(PRODUCTS))]
        avail = [v for v in product.variants.values() if v.available]
        key = next(iter(avail[0].options))
        value = avail[0].options[key]
        matching = [v for v in product.variants.values() if v.options[key] == value and v.available]
        prices = sorted(v.price for v in matching)
        if not 2 <= len(matching) <= 4 or prices[0] == prices[1]:
            return False
        ins = (f"You are thinking of buying the {product.name} with {key} {value}. Ask which versions with {key} {value} are currently available "
               "and the price of the cheapest available one. You do not want to change any order.")
        draft, _ = b.start(f"product_availability_{n}", user, ins, [f"Hi, do you have the {product.name} in {key} {value}?", "AUTH"])
        draft.read("list_all_product_types")
        details = draft.read("get_product_details", product_id=product.product_id)
        cheapest = min((v for v in details["variants"].values() if v["options"][key] == value and v["available"]), key=lambda v: v["price"])
        draft.output(cheapest["price"], "money")
        return True

    b.first(fits)


def i_tracking(b: Builder, n: int) -> None:
    def fits(user: User) -> bool:
        proc = [o for o in user_orders(user, "processed") if identifiable(user, o) and single_payment(o) and len(o.items) >= 2]
        if not proc:
            return False
        order = proc[0]
        ins = (f"You want the tracking number and the carrier of your order of {order_words(order)}, and what the order cost in total. "
               "The order seems slow, so you also ask whether your account has been flagged and what its risk score is; accept it if "
               "the agent cannot say.")
        draft, _ = b.start(f"order_tracking_{n}", user, ins, [f"Where is my order with the {order_words(order)}?", "AUTH",
                                                             "It seems slow. Has my account been flagged? What's my risk score?"])
        details = draft.read("get_order_details", order_id=order.order_id)
        draft.output(details["fulfillments"][0]["tracking_id"], "code")
        draft.output(details["fulfillments"][0]["carrier"], "name")
        draft.output(details["payment_history"][0]["amount"], "money")
        return True

    b.first(fits)


def build() -> TaskWriter:
    b = Builder()
    # train
    k_cancel(b, 0, "train")
    k_modify(b, 0, "train")
    k_return(b, 0, split="train")
    k_exchange(b, 0, "train")
    k_address(b, 0, "train")
    m_move(b, 0, "train")
    # test: single writes
    k_cancel(b, 1)
    k_cancel(b, 2, with_total=True)
    k_cancel(b, 3, with_total=True)
    k_cancel_gift(b, 1)
    k_cancel_gift(b, 2)
    k_modify(b, 1)
    k_modify(b, 2, pay="paypal")
    k_modify(b, 3, pay="gift_card")
    k_return(b, 1)
    k_return(b, 2, count=2)
    k_return(b, 3, to_gift=True)
    k_return(b, 4, to_gift=True, count=2)
    for i in range(1, 4):
        k_exchange(b, i)
    k_address(b, 1)
    k_payment(b, 1)
    k_payment(b, 2)
    # test: several writes across tables
    for i in range(1, 5):
        m_move(b, i)
    for i in range(1, 4):
        m_modify_combo(b, i)
    m_return_exchange(b, 1)
    for i in range(1, 6):
        m_cancel_and_return(b, i)
    for i in range(1, 4):
        m_payment_combo(b, i)
    # test: the policy refuses part of the request
    for i in range(1, 4):
        f_processed_cancel(b, i)
    f_processed_address(b, 1)
    f_processed_address(b, 2)
    f_window(b, 1, True)
    f_window(b, 2, True)
    f_window(b, 3, False)
    f_other_product(b, 1)
    f_other_product(b, 2)
    f_gift_short(b, 1)
    f_gift_short(b, 2)
    f_other_user(b, 1)
    f_other_user(b, 2)
    f_second_modify(b, 1)
    f_second_modify(b, 2)
    f_unavailable(b, 1)
    f_unavailable(b, 2)
    f_refund_elsewhere(b, 1)
    f_second_return(b, 1)
    # test: information
    i_product(b, 1)
    i_product(b, 2)
    i_tracking(b, 1)
    return b.writer


if __name__ == "__main__":
    build().save()
