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
    check_alternatives_score_1,
    check_declared_order_shows,
    check_end_state_shown,
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


_TWO_TICKETS = (
    '{"TB": {"ticket_id": "TB", "customer": "C1", "topic": "billing", "reason": "x"},'
    ' "TS": {"ticket_id": "TS", "customer": "C1", "topic": "shipping", "reason": "y"}}'
)


def make_domain(tmp_path: Path, *, sequential_ids: bool = False, tickets: str = "{}") -> Domain[DeskDB]:
    fixtures = tmp_path / "fixtures" / "desk"
    fixtures.mkdir(parents=True)
    (fixtures / "db.json").write_text(
        '{"customers": {"C1": {"customer_id": "C1", "email": "ana@example.com", "name": "Ana Ruiz"}}, "tickets": ' + tickets + "}"
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

    @domain.tool
    def list_tickets(db: DeskDB, customer_id: str) -> list[Ticket]:
        """A customer's tickets."""
        return [ticket for ticket in db.tickets.values() if ticket.customer == customer_id]

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


def _write_tasks(domain: Domain[DeskDB], *, forbid_refused: bool = False, ordered: bool = False, shown: str = "") -> None:
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
    if shown == "reason":
        draft.one_end_state("Refunds over $500 need a supervisor, and none is on the call.")
    elif shown in ("other order", "one ticket"):
        steps = [("find_customer", {"email": "ana@example.com"})]
        steps += [("open_ticket", {"customer_id": "C1", "topic": "shipping", "reason": "late parcel"})]
        steps += [("open_ticket", {"customer_id": "C1", "topic": "billing", "reason": "double charge"})] if shown == "other order" else []
        draft.alternative("The customer asked for both tickets in no order.", steps)
    writer.save()


def _write_choice(domain: Domain[DeskDB], *, shown: bool) -> None:
    """A refund on the one of the customer's two tickets that the customer's words do not name."""
    writer = TaskWriter(domain)
    draft = writer.task("refund_billing", instructions="You are Ana Ruiz (ana@example.com). Get $20 back for the double charge.",
                        script=["Hi, ana@example.com, I was charged twice."])
    tickets = draft.read("list_tickets", customer_id="C1")
    draft.write("refund", ticket_id=next(t["ticket_id"] for t in tickets if t["topic"] == "billing"), amount=20.0, note="refund")
    if shown:
        draft.one_end_state("A double charge is a billing matter: only the billing ticket takes the refund.")
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


def test_refusals_and_choices_show_their_one_end_state(tmp_path: Path) -> None:
    """A refusal or a choice between records with neither an alternative nor a reason is
    flagged; either one clears it, and the task file keeps them byte-stable."""
    bare = make_domain(tmp_path / "bare")
    _write_tasks(bare)
    (problem,) = check_end_state_shown(bare)
    assert problem.startswith("two_tickets: a refusal without")
    reasoned = make_domain(tmp_path / "reason")
    _write_tasks(reasoned, shown="reason")
    path = reasoned.fixtures / "tasks.json"
    assert check_end_state_shown(reasoned) == [] and dump_tasks(load_tasks(path)) == path.read_bytes()
    assert '"end_state": "Refunds over $500' in path.read_text()
    choice = make_domain(tmp_path / "choice", tickets=_TWO_TICKETS)
    _write_choice(choice, shown=False)
    (problem,) = check_end_state_shown(choice)
    assert problem.startswith("refund_billing: a choice of TB among records")
    chosen = make_domain(tmp_path / "chosen", tickets=_TWO_TICKETS)
    _write_choice(chosen, shown=True)
    assert check_end_state_shown(chosen) == []


def test_alternatives_must_score_1(tmp_path: Path) -> None:
    """Another order of the writes reaches the gold state and passes; a path that leaves one
    ticket unopened does not, and the check says so."""
    other_order = make_domain(tmp_path / "order")
    _write_tasks(other_order, shown="other order")
    assert check_end_state_shown(other_order) == [] and check_alternatives_score_1(other_order) == []
    path = other_order.fixtures / "tasks.json"
    assert dump_tasks(load_tasks(path)) == path.read_bytes()
    short = make_domain(tmp_path / "short")
    _write_tasks(short, shown="one ticket")
    (problem,) = check_alternatives_score_1(short)
    assert problem.startswith("two_tickets: alternative 0 (The customer asked for both tickets in no order.) scores 0")


def test_a_required_look_up_may_be_met_by_another_the_policy_allows(tmp_path: Path) -> None:
    """`require_any`: either look-up meets the requirement (the other scores 1 as an alternative
    path); a path with neither scores 0; the task file keeps the option byte-stable."""
    domain = make_domain(tmp_path)
    writer = TaskWriter(domain)
    draft = writer.task("find_then_open", instructions="You are Ana Ruiz (ana@example.com). Open a billing ticket.",
                        script=["Hi, ana@example.com, customer C1, please open a billing ticket."])
    draft.read("find_customer", email="ana@example.com")
    draft.write("open_ticket", customer_id="C1", topic="billing", reason="double charge")
    draft.require_any([("find_customer", {"email": "ana@example.com"}), ("list_tickets", {"customer_id": "C1"})])
    opened = ("open_ticket", {"customer_id": "C1", "topic": "billing", "reason": "double charge"})
    draft.alternative("Listing the customer's tickets finds them as well.", [("list_tickets", {"customer_id": "C1"}), opened])
    draft.alternative("No look-up at all.", [opened])
    writer.save()
    path = domain.fixtures / "tasks.json"
    assert dump_tasks(load_tasks(path)) == path.read_bytes() and '"instead": [' in path.read_text()
    (task,) = domain.tasks
    assert str(task.required_actions[0]) == "find_customer(email='ana@example.com') or list_tickets(customer_id='C1')"
    (problem,) = check_alternatives_score_1(domain)
    assert problem.startswith("find_then_open: alternative 1 (No look-up at all.) scores 0")


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
