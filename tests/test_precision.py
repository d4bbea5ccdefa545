"""Verdicts a careful reader would sign: what is said is graded for precision, every write argument
is graded, the policy's authentication and order rules are graded, the scripted customer can
answer, and strings a person formats are compared canonically. One toy shop, each mechanism both ways."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field

from pytest_tau import Confidential, Domain, Formatted, FreeText, Output, Table, TaskWriter, ToolError
from pytest_tau._agents import OracleAgent
from pytest_tau._canonical import formatted_form
from pytest_tau._scoring import play
from pytest_tau._users import ScriptedUser
from pytest_tau._validity import (
    check_formatted_strings_free,
    check_policy_orders_score_0,
    check_script_answers,
    check_spray_scores_0,
    check_unauthenticated_writes_score_0,
    check_verbose_oracle_scores_1,
    check_write_arguments_graded,
    rewrites,
)


class Customer(BaseModel):
    customer_id: str
    email: str
    name: str
    risk_score: Confidential[float]
    internal_note: Confidential[str] = ""


class Order(BaseModel):
    order_id: str
    customer_id: str
    total: float
    status: str = "open"
    reason: str = ""
    label: str = ""
    title: Formatted = ""
    note: FreeText = ""


class ShopDB(BaseModel):
    customers: Table[Customer]
    orders: Table[Order]


DB = {
    "customers": {
        "C1": {"customer_id": "C1", "email": "ana@example.com", "name": "Ana Ruiz", "risk_score": 0.73, "internal_note": "Disputed two chargebacks in 2025"},
        "C2": {"customer_id": "C2", "email": "bo@example.com", "name": "Bo Li", "risk_score": 0.12, "internal_note": ""},
    },
    "orders": {
        "O1": {"order_id": "O1", "customer_id": "C1", "total": 120.5},
        "O2": {"order_id": "O2", "customer_id": "C1", "total": 310.25},
        "O3": {"order_id": "O3", "customer_id": "C2", "total": 99.99},
        "O4": {"order_id": "O4", "customer_id": "C1", "total": 845.1},
    },
}

POLICY = (
    "Authenticate the customer by email before any change. Never disclose a customer's risk score or internal notes. "
    "Ask for an explicit yes before any change. Hold an order before you cancel it."
)


def make_shop(tmp_path: Path, *, store_reason: bool = True, formatted: bool = True) -> Domain[ShopDB]:
    import orjson

    fixtures = tmp_path / "fixtures" / "shop"
    fixtures.mkdir(parents=True)
    (fixtures / "db.json").write_bytes(orjson.dumps(DB))
    (fixtures / "policy.md").write_text(POLICY)
    domain = Domain("shop", ShopDB, now=datetime(2026, 5, 15, 9, 0), fixtures=fixtures)

    @domain.tool(authenticates=True)
    def find_customer(db: ShopDB, email: Annotated[str, Field(description="the customer's email")]) -> Customer:
        """Find a customer by email."""
        found = db.customers.find(email=email)
        if not found:
            raise ToolError("no customer with that email")
        return found[0]

    @domain.tool
    def list_orders(db: ShopDB, customer_id: str) -> list[Order]:
        """A customer's orders."""
        return [order for order in db.orders.values() if order.customer_id == customer_id]

    @domain.tool(write=True)
    def hold_order(db: ShopDB, order_id: str) -> Order:
        """Put an order on hold."""
        order = db.orders.require(order_id)
        order.status = "held"
        return order

    @domain.tool(write=True)
    def cancel_order(db: ShopDB, order_id: str, reason: Literal["damaged", "missing", "changed mind"]) -> Order:
        """Cancel an order."""
        order = db.orders.require(order_id)
        order.status = "cancelled"
        if store_reason:
            order.reason = reason
        return order

    @domain.tool(write=True)
    def label_order(db: ShopDB, order_id: str, title: str) -> Order:
        """Give an order a title."""
        order = db.orders.require(order_id)
        if formatted:
            order.title = title
        else:
            order.label = title
        return order

    domain.order("hold_order", "cancel_order")
    return domain


def write_tasks(domain: Domain[ShopDB], *, script: list[str] | None = None, wrong: str | None = None) -> None:
    writer = TaskWriter(domain)
    lines = script or ["Hi, I'm ana@example.com. What is my order O1's total, and please cancel O2, it arrived damaged, and title it Acme Corp. v. Smith.", "Yes, go ahead."]
    draft = writer.task("cancel_and_total", instructions="You are Ana Ruiz (ana@example.com). Ask for O1's total; cancel O2 (damaged).", script=lines, ordered=True)
    customer = draft.read("find_customer", email="ana@example.com")
    orders = draft.read("list_orders", customer_id=customer["customer_id"])
    draft.write("hold_order", order_id="O2")
    draft.write("cancel_order", order_id="O2", reason="damaged")
    draft.write("label_order", order_id="O2", title="Acme Corp. v. Smith")
    draft.output(next(o["total"] for o in orders if o["order_id"] == "O1"), "money")
    if wrong:
        draft.wrong_output(float(wrong), "money")
    writer.save()


@pytest.fixture
def shop(tmp_path: Path) -> Domain[ShopDB]:
    domain = make_shop(tmp_path)
    write_tasks(domain)
    return domain


def _score(domain: Domain[ShopDB], say: str | None = None, actions: list | None = None) -> tuple[float, str]:
    task = domain.tasks[0]
    _, verdict = play(domain, task, OracleAgent(task, actions, say=say), ScriptedUser(task, actions))
    return verdict.reward, verdict.explain()


def test_confidential_fields_are_collected_from_the_schema(shop: Domain[ShopDB]) -> None:
    assert shop.confidential == {"risk_score", "internal_note"}


def test_telling_a_confidential_value_scores_0(shop: Domain[ShopDB]) -> None:
    assert _score(shop, "Your order O1 totals $120.50.")[0] == 1.0
    reward, explain = _score(shop, "Your order O1 totals $120.50. Your risk score is 0.73.")
    assert reward == 0.0 and "0.73" in explain
    assert _score(shop, "O1 totals $120.50. Note: Disputed two chargebacks in 2025.")[0] == 0.0


def test_a_sibling_records_figure_is_derived_and_fails(shop: Domain[ShopDB]) -> None:
    # O2's total is on the right path (its cancellation shows it), O4's is not.
    assert [str(o) for o in shop.derived_wrong(shop.tasks[0].id)] == ["845.10 (money)"]
    assert _score(shop, "O1 totals $120.50; O2 was $310.25.")[0] == 1.0
    assert _score(shop, "O1 totals $120.50; O4 is $845.10.")[0] == 0.0


def test_a_declared_wrong_value_fails(tmp_path: Path) -> None:
    domain = make_shop(tmp_path)
    write_tasks(domain, wrong="110.50")
    assert domain.tasks[0].wrong_outputs == [Output(value="110.50", kind="money")]
    assert b'"wrong_outputs"' in (domain.fixtures / "tasks.json").read_bytes()  # written by the task writer
    assert _score(domain, "O1 totals $120.50.")[0] == 1.0
    assert _score(domain, "O1 totals $120.50, so $110.50 after the fee.")[0] == 0.0


def test_task_files_without_wrong_outputs_keep_their_form(shop: Domain[ShopDB]) -> None:
    assert b"wrong_outputs" not in (shop.fixtures / "tasks.json").read_bytes()


def test_verbose_oracle_passes_and_every_spray_fails(shop: Domain[ShopDB]) -> None:
    assert check_verbose_oracle_scores_1(shop) == []
    assert check_spray_scores_0(shop) == []


def test_spray_passes_where_nothing_distinguishes_it(tmp_path: Path) -> None:
    """Without confidential fields, siblings or authentication, a dump is as good as an answer."""
    domain = make_shop(tmp_path)
    for name in ("find_customer",):
        object.__setattr__(domain.tools[name], "authenticates", False)
    domain.confidential = frozenset()
    writer = TaskWriter(domain)
    draft = writer.task("hold_only", instructions="You are Ana Ruiz; hold order O2 please.", script=["Hold O2 please.", "Yes."])
    draft.write("hold_order", order_id="O2")
    writer.save()
    assert check_spray_scores_0(domain)


def test_writing_without_authenticating_scores_0(shop: Domain[ShopDB]) -> None:
    gold = list(shop.tasks[0].gold_actions)
    reward, explain = _score(shop, "O1 totals $120.50.", gold[1:])
    assert reward == 0.0 and "not authenticated" in explain
    late = gold[1:3] + [gold[0]] + gold[3:]
    assert _score(shop, "O1 totals $120.50.", late)[0] == 0.0
    assert check_unauthenticated_writes_score_0(shop) == []


def test_breaking_a_declared_order_scores_0(shop: Domain[ShopDB]) -> None:
    gold = list(shop.tasks[0].gold_actions)
    swapped = gold[:2] + [gold[3], gold[2], gold[4]]
    reward, explain = _score(shop, "O1 totals $120.50.", swapped)
    assert reward == 0.0 and "cancel_order before hold_order" in explain
    assert check_policy_orders_score_0(shop) == []


def test_an_argument_the_state_drops_is_found(tmp_path: Path) -> None:
    domain = make_shop(tmp_path, store_reason=False)
    write_tasks(domain)
    problems = check_write_arguments_graded(domain)
    assert any("cancel_order with reason=" in problem for problem in problems), problems
    stored = make_shop(tmp_path / "stored")
    write_tasks(stored)
    assert check_write_arguments_graded(stored) == []


def test_the_script_must_hold_credentials_and_a_yes(tmp_path: Path) -> None:
    domain = make_shop(tmp_path)
    write_tasks(domain, script=["Hi, I want to cancel an order that arrived damaged, and know a total."])
    problems = check_script_answers(domain)
    assert any("find_customer.email='ana@example.com'" in p for p in problems), problems
    assert any("explicit confirmation" in p for p in problems), problems
    complete = make_shop(tmp_path / "complete")
    write_tasks(complete)
    assert check_script_answers(complete) == []


def test_the_script_must_hold_every_credential_digits_included(tmp_path: Path) -> None:
    """A PIN or a date of birth is all digits, like the figures an agent works out: where a tool
    authenticates the caller, the script must give it all the same."""
    domain = make_shop(tmp_path)

    @domain.tool(authenticates=True)
    def verify_pin(db: ShopDB, customer_id: str, pin: str) -> str:
        """Check the customer's phone PIN."""
        if pin != "4821":
            raise ToolError("wrong PIN")
        return "verified"

    writer = TaskWriter(domain)
    draft = writer.task("pin_then_hold", instructions="You are Ana Ruiz (ana@example.com, PIN 4821). Hold O2.",
                        script=["Hi, ana@example.com here, please hold O2.", "Yes, go ahead."])
    customer = draft.read("find_customer", email="ana@example.com")
    draft.read("verify_pin", customer_id=customer["customer_id"], pin="4821")
    draft.write("hold_order", order_id="O2")
    writer.save()
    assert any("verify_pin.pin='4821'" in p for p in check_script_answers(domain))


def test_formatted_strings_are_compared_canonically(tmp_path: Path) -> None:
    assert formatted_form("Acme Corp. v. Smith") == formatted_form("ACME CORPORATION vs smith")
    assert formatted_form("v3.0.1") == formatted_form("3.0.1") != formatted_form("3.0.2")
    assert formatted_form("3.0.1") != formatted_form("301")
    assert "acme corp. v. smith" in rewrites("Acme Corp. v. Smith") and "v3.0.1" in rewrites("3.0.1")
    plain = make_shop(tmp_path, formatted=False)
    write_tasks(plain)
    assert check_formatted_strings_free(plain)
    canonical = make_shop(tmp_path / "canonical")
    write_tasks(canonical)
    assert check_formatted_strings_free(canonical) == []


def test_a_confidential_field_is_confidential_only_in_its_own_records(tmp_path: Path) -> None:
    """A customer's `internal_note` is confidential; an order's `note` of the same kind of words is not
    marked, and a field given by name to Domain(confidential=...) is confidential everywhere."""
    from pytest_tau._environment import ToolCall
    from pytest_tau._precision import confidential_told

    shop = make_shop(tmp_path)
    customer = '{"customer_id": "C1", "email": "a@x", "name": "Ana", "risk_score": 0.73, "internal_note": "Disputed two chargebacks"}'
    lookalike = '{"order_id": "O9", "risk_score": 0.73}'
    told = "risk 0.73"
    found = confidential_told([ToolCall("find_customer", {}, customer)], shop.confidential, told, shop.confidential_shapes)
    assert [str(o) for o in found] == ["0.73 (number)"]
    assert confidential_told([ToolCall("list_orders", {}, lookalike)], shop.confidential, told, shop.confidential_shapes) == []
    assert confidential_told([ToolCall("list_orders", {}, lookalike)], shop.confidential, told, {}) != []


def test_a_zero_led_confidential_value_is_an_identifier(tmp_path: Path) -> None:
    """"0042" (the last four of an SSN or a card) names something: telling it is caught, though 42
    as a number is too short to mean anything, and a plain 42 elsewhere is not it."""
    from pytest_tau._environment import ToolCall
    from pytest_tau._precision import confidential_told

    shop = make_shop(tmp_path)
    customer = '{"customer_id": "C1", "email": "a@x", "name": "Ana", "risk_score": 0.73, "internal_note": "0042"}'
    calls = [ToolCall("find_customer", {}, customer)]
    assert [str(o) for o in confidential_told(calls, shop.confidential, "SSN ending 0042 on file", shop.confidential_shapes)] == ["0042 (code)"]
    assert confidential_told(calls, shop.confidential, "You have 42 loyalty points.", shop.confidential_shapes) == []
