"""The domain SDK without pytest machinery: schemas, copy-on-write state, tool errors, scoring."""

from __future__ import annotations

import copy
import datetime
import decimal
import enum
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field, PrivateAttr

from pytest_tau import Domain, DomainError, Environment, ToolError, calculate
from pytest_tau._agents import DoNothingAgent, OracleAgent
from pytest_tau._scoring import play
from pytest_tau._state import copy_record
from pytest_tau._tools import Tool
from pytest_tau._users import ScriptedUser
from pytest_tau._validity import check_mutations_score_0


def test_schema_from_signature_and_docstring() -> None:
    def send(db: object, to: Annotated[str, Field(description="recipient email")], count: int = 1) -> str:
        """Send something.

        Args:
            to: overridden by Field.
            count: how many
                (at most 3).
        """
        return "ok"

    schema = Tool.from_function(send, write=True).schema()["function"]
    assert schema["description"] == "Send something."
    assert schema["parameters"]["properties"]["to"] == {"description": "recipient email", "type": "string"}
    assert schema["parameters"]["properties"]["count"]["description"] == "how many (at most 3)."
    assert schema["parameters"]["required"] == ["to"]


class Line(BaseModel):
    quantity: Annotated[int, Field(gt=0, description="units")]


def test_constraints_some_providers_drop_are_also_said_in_words() -> None:
    """Gemini keeps only string enums and inclusive bounds: the rest is stated in the description."""

    def order(db: object, sessions: Literal[5, 10, 20], amount: Annotated[float, Field(gt=0, lt=1000)],
              lines: list[Line], plan: Literal["basic", "plus"], step: Annotated[int, Field(ge=1, multiple_of=5)]) -> str:
        """Order something."""
        return "ok"

    properties = Tool.from_function(order, write=True).schema()["function"]["parameters"]["properties"]
    assert properties["sessions"] == {"enum": [5, 10, 20], "type": "integer", "description": "One of 5, 10, 20."}
    assert properties["amount"]["description"] == "Greater than 0. Less than 1000."
    assert properties["amount"]["exclusiveMinimum"] == 0  # the constraint itself stays for providers that keep it
    assert properties["step"]["description"] == "A multiple of 5."
    assert "description" not in properties["plan"]  # string enums reach every provider as they are
    line = Tool.from_function(order, write=True).schema()["function"]["parameters"]["$defs"]["Line"]
    assert line["properties"]["quantity"]["description"] == "units. Greater than 0."


def test_tools_need_db_docstring_and_annotations() -> None:
    def no_doc(db: object) -> str:
        return ""

    def no_db(x: int) -> str:
        """Doc."""
        return ""

    with pytest.raises(TypeError, match="needs a docstring"):
        Tool.from_function(no_doc, write=False)
    with pytest.raises(TypeError, match="first parameter must be `db`"):
        Tool.from_function(no_db, write=False)


def test_db_fields_must_be_tables() -> None:
    class Bad(BaseModel):
        name: str

    with pytest.raises(DomainError, match="every DB field must be a table"):
        Domain("bad", Bad, fixtures=".")


def test_copy_on_write_leaves_the_initial_db_alone(toy_domain) -> None:
    env = Environment(toy_domain)
    call = env.call("loan_book", {"member_id": "M1", "book_id": "B1"})
    assert not call.error
    assert toy_domain.initial_db.books["B1"].status == "available"
    assert env.state.diff() == {"books": {"B1": {"book_id": "B1", "title": "Dune", "status": "loaned", "holder": "M1"}}}
    assert Environment(toy_domain).state.diff() == {}


def test_reads_leave_no_diff_and_scans_see_changes(toy_domain) -> None:
    env = Environment(toy_domain)
    env.call("get_book", {"book_id": "B2"})
    assert env.state.diff() == {}
    env.call("loan_book", {"member_id": "M1", "book_id": "B3"})
    statuses = {key: book.status for key, book in env.state.db.books.items()}
    assert statuses == {"B1": "available", "B2": "loaned", "B3": "loaned"}


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("loan_book", "{broken", "Error: arguments are not valid JSON"),
        ("loan_book", "[1, 2]", "Error: arguments must be a JSON object"),
        ("lend", {}, "Error: unknown tool 'lend'"),
        ("loan_book", {"member_id": "M1"}, "Error: invalid arguments for loan_book: book_id: Field required"),
        ("loan_book", {"member_id": "M1", "book_id": "B1", "x": 1}, "Error: invalid arguments for loan_book: x: Extra inputs"),
        ("loan_book", {"member_id": 5, "book_id": "B1"}, "Error: invalid arguments for loan_book: member_id: Input should be a valid string"),
        ("loan_book", {"member_id": "M2", "book_id": "B1"}, "Error: members with unpaid fines cannot borrow"),
    ],
)
def test_bad_calls_are_tool_errors_and_change_nothing(toy_domain, name, arguments, message) -> None:
    env = Environment(toy_domain)
    call = env.call(name, arguments)
    assert call.error and call.result.startswith(message)
    assert env.state.diff() == {}


def test_a_failing_write_is_rolled_back(toy_domain) -> None:
    @toy_domain.tool(write=True)
    def half_write(db, book_id: str) -> str:
        """Change a book, then fail (a buggy tool)."""
        db.books[book_id].status = "loaned"
        raise ToolError("failed halfway")

    try:
        env = Environment(toy_domain)
        assert env.call("half_write", {"book_id": "B1"}).result == "Error: failed halfway"
        assert env.state.diff() == {}
    finally:
        del toy_domain.tools["half_write"]


def test_a_failing_write_is_rolled_back_over_the_environments_own_records(toy_domain) -> None:
    # The records the environment already holds (fetched, changed by an earlier write) come back
    # as they were, whether the failing tool changed one fetched by key or, against the rules, by a scan.
    @toy_domain.tool(write=True)
    def half_write(db, book_id: str) -> str:
        """Change a book and its holder's other books, then fail (a buggy tool)."""
        db.books[book_id].status = "lost"
        for book in db.books.where(holder="M1"):
            book.holder = "M9"
        raise ToolError("failed halfway")

    try:
        env = Environment(toy_domain)
        assert not env.call("loan_book", {"member_id": "M1", "book_id": "B1"}).error
        assert not env.call("loan_book", {"member_id": "M1", "book_id": "B3"}).error
        before = env.state.diff()
        assert env.call("half_write", {"book_id": "B1"}).error
        assert env.state.diff() == before
        assert env.state.db.books["B1"].status == "loaned"
        # The next write changes the rolled-back record, and a failing write after it keeps that change.
        env.state.db.books["B1"].status = "returned"
        assert env.call("half_write", {"book_id": "B1"}).error
        assert env.state.diff()["books"]["B1"]["status"] == "returned"
    finally:
        del toy_domain.tools["half_write"]


def test_a_record_copy_is_a_deep_copy() -> None:
    class Colour(enum.Enum):
        RED = "red"

    class Part(BaseModel):
        when: datetime.date
        tags: list[str]

    class Record(BaseModel, extra="allow"):
        name: str
        parts: list[Part] = []
        by_day: dict[str, Part] = {}
        colour: Colour = Colour.RED
        price: decimal.Decimal = decimal.Decimal("1.50")

    class Private(Record):
        _note: str = PrivateAttr(default="private")

    part = Part(when=datetime.date(2026, 1, 2), tags=["a"])
    made = [Record(name="x", parts=[part], by_day={"mon": part}, more=[1]), Record.model_construct(name="y", parts=[part])]
    for original in [*made, Private(name="z", parts=[part])]:
        copied = copy_record(original)
        assert copied == copy.deepcopy(original) and copied.model_fields_set == original.model_fields_set
        assert copied.__pydantic_private__ == original.__pydantic_private__
        copied.parts[0].tags.append("b")
        assert part.tags == ["a"]
        if copied.model_extra:
            copied.model_extra["more"].append(2)
            assert original.model_extra == {"more": [1]}


def test_oracle_scores_1_and_do_nothing_0(toy_domain) -> None:
    for task in toy_domain.tasks:
        assert play(toy_domain, task, OracleAgent(task), ScriptedUser(task))[1].reward == 1.0
        assert play(toy_domain, task, DoNothingAgent(), ScriptedUser(task))[1].reward == 0.0


def test_mutated_gold_writes_score_0(toy_domain) -> None:
    assert check_mutations_score_0(toy_domain) == []


@pytest.mark.parametrize(("expression", "value"), [("2 + 3 * 4", "14.00"), ("(10 - 4) / 4", "1.50"), ("-3.255 + 0", "-3.25")])
def test_calculate(expression, value) -> None:
    assert calculate(expression) == value


@pytest.mark.parametrize("expression", ["__import__('os')", "2 ** 100000", "1 / 0", "x + 1", "9" * 300])
def test_calculate_rejects(expression) -> None:
    with pytest.raises(ToolError):
        calculate(expression)


def test_where_sees_the_environments_own_changes(toy_domain) -> None:
    env = Environment(toy_domain)
    books = env.state.db.books
    assert sorted(b.book_id for b in books.where(status="available")) == ["B1", "B3"]
    env.call("loan_book", {"member_id": "M1", "book_id": "B1"})
    assert sorted(b.book_id for b in books.where(status="available")) == ["B3"]
    assert [b.book_id for b in books.where(status="loaned", holder="M1")] == ["B1"]
    del books["B2"]
    assert [b.book_id for b in books.where(status="loaned")] == ["B1"]
    # A fresh environment sees the initial DB again, through the same shared index.
    assert sorted(b.book_id for b in Environment(toy_domain).state.db.books.where(status="available")) == ["B1", "B3"]
