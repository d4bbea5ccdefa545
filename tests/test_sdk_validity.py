"""The SDK's validity mechanisms: record look-ups, content ids, free text, unordered lists,
the task writer, and the checks that catch order-dependent, lenient or give-away tasks."""

from __future__ import annotations

import itertools
from datetime import datetime
from pathlib import Path
from typing import Annotated

import pytest
from pydantic import BaseModel, Field

from pytest_tau import Domain, Environment, FreeText, Table, TaskWriter, ToolError, Unordered
from pytest_tau._authoring import GoldActionFailed, dump_tasks
from pytest_tau._tasks import load_tasks
from pytest_tau._validity import (
    MAX_ORDERS,
    _orders,
    check_declared_order_shows,
    check_forbidden_accepted,
    check_oracle_scores_1,
    check_over_eager_scores_0,
    check_transfer_at_once_scores_0,
    check_write_order_free,
)


class Payment(BaseModel):
    amount: float
    note: FreeText


class Ticket(BaseModel):
    ticket_id: str
    customer: str
    topic: str
    reason: FreeText
    payments: Unordered[Payment] = []
    log: list[str] = []


class Customer(BaseModel):
    customer_id: str
    email: str
    name: str


class DeskDB(BaseModel):
    customers: Table[Customer]
    tickets: Table[Ticket]


def make_domain(tmp_path: Path, *, sequential_ids: bool = False) -> Domain[DeskDB]:
    fixtures = tmp_path / "fixtures" / "desk"
    fixtures.mkdir(parents=True)
    (fixtures / "db.json").write_text(
        '{"customers": {"C1": {"customer_id": "C1", "email": "ana@example.com", "name": "Ana Ruiz"}}, "tickets": {}}'
    )
    (fixtures / "policy.md").write_text("Authenticate by email. Refunds over $500 need a supervisor.")
    domain = Domain("desk", DeskDB, now=datetime(2026, 5, 15, 9, 0), fixtures=fixtures)

    @domain.tool
    def find_customer(db: DeskDB, email: Annotated[str, Field(description="the customer's email")]) -> Customer:
        """Find a customer by email."""
        found = db.customers.find(email=email)
        if not found:
            raise ToolError("no customer with that email")
        return found[0]

    @domain.tool(write=True)
    def open_ticket(db: DeskDB, customer_id: str, topic: str, reason: str) -> Ticket:
        """Open a ticket for a customer."""
        db.customers.require(customer_id)
        key = f"T{len(db.tickets) + 1}" if sequential_ids else db.tickets.new_key("T", customer_id, topic)
        db.tickets[key] = Ticket(ticket_id=key, customer=customer_id, topic=topic, reason=reason)
        return db.tickets[key]

    @domain.tool(write=True)
    def refund(db: DeskDB, ticket_id: str, amount: float, note: str) -> Ticket:
        """Refund an amount on a ticket."""
        ticket = db.tickets.require(ticket_id)
        ticket.payments.append(Payment(amount=amount, note=note))
        return ticket

    return domain


def test_require_find_and_labels(tmp_path: Path) -> None:
    domain = make_domain(tmp_path)
    env = Environment(domain)
    assert env.call("find_customer", {"email": "  ANA@example.com "}).error is False
    missing = env.call("refund", {"ticket_id": "T9", "amount": 1.0, "note": "x"})
    assert missing.error and missing.result == "Error: ticket 'T9' not found"
    assert domain.initial_db.customers.require(" c1") .name == "Ana Ruiz"  # case and spaces folded
    with pytest.raises(TypeError):
        domain.initial_db.customers["C2"] = Customer(customer_id="C2", email="b@x", name="B")


def test_content_keys_do_not_depend_on_creation_order(tmp_path: Path) -> None:
    domain = make_domain(tmp_path)
    first, second = Environment(domain), Environment(domain)
    a = {"customer_id": "C1", "topic": "billing", "reason": "charged twice"}
    b = {"customer_id": "C1", "topic": "shipping", "reason": "late"}
    first.call("open_ticket", a), first.call("open_ticket", b)
    second.call("open_ticket", b), second.call("open_ticket", a)
    assert first.state.diff() == second.state.diff()


def test_free_text_and_unordered_lists_are_compared_by_meaning(tmp_path: Path) -> None:
    domain = make_domain(tmp_path)
    compare = domain.canonical("tickets")
    record = {"ticket_id": "T1", "customer": "C1", "topic": "billing", "reason": "Charged twice", "log": ["a", "b"],
              "payments": [{"amount": 2.0, "note": "second"}, {"amount": 1.0, "note": "first"}]}
    reworded = {**record, "reason": "charged TWICE for one order",
                "payments": [{"amount": 1.0, "note": "one"}, {"amount": 2.0, "note": "two"}]}
    assert compare(record) == compare(reworded)
    assert compare(record) != compare({**record, "reason": ""})  # recorded or not still counts
    assert compare(record) != compare({**record, "log": ["b", "a"]})  # plain lists keep their order
    assert compare(record) != compare({**record, "payments": [{"amount": 3.0, "note": "x"}]})


def _write_tasks(domain: Domain[DeskDB], *, forbid_refused: bool = False, ordered: bool = False) -> None:
    writer = TaskWriter(domain)
    draft = writer.task(
        "two_tickets",
        instructions="You are Ana Ruiz (ana@example.com). Open a billing ticket and a shipping ticket.",
        script=["Hi, I'm ana@example.com and I need two tickets opened."],
        ordered=ordered,
    )
    customer = draft.read("find_customer", email="ana@example.com")
    ticket = draft.write("open_ticket", customer_id=customer["customer_id"], topic="billing", reason="double charge")
    draft.write("open_ticket", customer_id=customer["customer_id"], topic="shipping", reason="late parcel")
    draft.output(ticket["ticket_id"], "code")
    draft.forbid("refund", ticket_id="T404" if forbid_refused else ticket["ticket_id"], amount=900.0, note="goodwill")
    writer.save()


def test_task_writer_replays_gold_and_writes_stable_files(tmp_path: Path) -> None:
    domain = make_domain(tmp_path)
    _write_tasks(domain)
    path = domain.fixtures / "tasks.json"
    first = path.read_bytes()
    assert dump_tasks(load_tasks(path)) == first  # load then dump is the identity: byte-stable
    (task,) = load_tasks(path)
    assert task.required_outputs[0].kind == "code" and task.required_outputs[0].value.startswith("T")
    with pytest.raises(GoldActionFailed, match=r"two_tickets2.*not found"):
        TaskWriter(domain).task("two_tickets2", instructions="x" * 30, script=["hi"]).write(
            "refund", ticket_id="T404", amount=1.0, note="n"
        )


def test_checks_pass_a_sound_domain(tmp_path: Path) -> None:
    domain = make_domain(tmp_path)
    _write_tasks(domain)
    for check in (check_oracle_scores_1, check_transfer_at_once_scores_0, check_forbidden_accepted,
                  check_over_eager_scores_0, check_write_order_free):
        assert check(domain) == [], check.__name__


def test_write_order_check_catches_sequential_ids(tmp_path: Path) -> None:
    domain = make_domain(tmp_path, sequential_ids=True)
    _write_tasks(domain)
    (problem,) = check_write_order_free(domain)
    assert "two_tickets" in problem and "another state" in problem


def test_declared_order_must_show_in_the_end_state(tmp_path: Path) -> None:
    """`ordered` with writes whose order leaves no trace tests nothing: flagged. With sequential
    ids the order shows (the billing ticket is T1), so the declaration holds."""
    unmarked = make_domain(tmp_path / "a")
    _write_tasks(unmarked, ordered=True)
    (problem,) = check_declared_order_shows(unmarked)
    assert problem.startswith("two_tickets: declared ordered")
    marked = make_domain(tmp_path / "b", sequential_ids=True)
    _write_tasks(marked, ordered=True)
    assert check_declared_order_shows(marked) == []
    assert check_write_order_free(marked) == []  # ordered tasks are exempt from the order-free check


def test_orders_move_each_write_to_the_front_and_back_first() -> None:
    """With too many permutations to try, a rule such as "block first" is still broken by some
    order tried: each write is moved to every other place before the rest come in turn."""
    orders = _orders((0, 1, 2, 3, 4))
    assert len(orders) == MAX_ORDERS == len(set(orders)) and (0, 1, 2, 3, 4) not in orders
    assert (1, 2, 3, 4, 0) in orders and (4, 0, 1, 2, 3) in orders
    assert sorted(_orders((0, 1, 2))) == sorted(p for p in itertools.permutations((0, 1, 2)) if p != (0, 1, 2))


def test_forbidden_check_catches_a_call_the_tool_refuses(tmp_path: Path) -> None:
    domain = make_domain(tmp_path)
    _write_tasks(domain, forbid_refused=True)
    problems = check_forbidden_accepted(domain)
    assert len(problems) == 2 and all("refused by the tool" in p for p in problems)


def test_standard_tools_come_with_every_domain(tmp_path: Path) -> None:
    domain = make_domain(tmp_path)
    assert {"calculate", "transfer_to_human_agents"} <= set(domain.tools)
    assert domain.tools["transfer_to_human_agents"].transfer
    assert Environment(domain).call("calculate", {"expression": "2 * 3.5"}).result == "7.00"
    assert domain.today.isoformat() == "2026-05-15"


def test_attempt_drops_candidates_that_do_not_fit(tmp_path: Path) -> None:
    domain = make_domain(tmp_path)
    writer = TaskWriter(domain)
    with writer.attempt("fails", instructions="You are Ana Ruiz. You want a refund on a ticket.", script=["Hi."]) as draft:
        draft.write("refund", ticket_id="T404", amount=1.0, note="n")  # GoldActionFailed: dropped
    assert not writer.kept(draft)
    # "$500" is a constant of the policy: strict outputs refuse it
    with writer.attempt("given_away", instructions="You are Ana Ruiz. You ask about the limit.", script=["Hi."]) as draft:
        draft.output(500.0, "money", strict=True)
    with writer.attempt("kept", instructions="You are Ana Ruiz (ana@example.com). You want your id.", script=["Hi."]) as draft:
        customer = draft.read("find_customer", email="ana@example.com")
        draft.output(customer["customer_id"], "code", strict=True)
    assert writer.kept(draft)
    assert [task.id for task in writer.tasks()] == ["kept"]
