"""A toy library desk: the smallest domain that exercises every engine path in tests."""

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from pytest_tau import Domain, Table, ToolError


class Member(BaseModel):
    member_id: str
    name: str
    email: str
    fines: float


class Book(BaseModel):
    book_id: str
    title: str
    status: Literal["available", "loaned"]
    holder: str | None = None


class LibraryDB(BaseModel):
    members: Table[Member]
    books: Table[Book]


# fixtures/toy/ by convention; `calculate` and `transfer_to_human_agents` come with the SDK.
DOMAIN = Domain("toy", LibraryDB, now=datetime(2026, 5, 15, 10, 0))


@DOMAIN.tool
def find_member(db: LibraryDB, email: Annotated[str, Field(description="the member's email")]) -> Member:
    """Find a library member by email."""
    found = db.members.find(email=email)
    if not found:
        raise ToolError("no member with that email")
    return found[0]


@DOMAIN.tool
def get_book(db: LibraryDB, book_id: str) -> Book:
    """Look up a book by id.

    Args:
        book_id: the book's id, such as "B1".
    """
    return db.books.require(book_id)


@DOMAIN.tool(write=True)
def loan_book(db: LibraryDB, member_id: str, book_id: str) -> Book:
    """Loan an available book to a member without fines."""
    member = db.members.require(member_id)
    book = db.books.require(book_id)
    if book.status != "available":
        raise ToolError("the book is not available")
    if member.fines > 0:
        raise ToolError("members with unpaid fines cannot borrow")
    book.status, book.holder = "loaned", member_id
    return book


@DOMAIN.tool(write=True)
def pay_fines(db: LibraryDB, member_id: str, amount: float) -> Member:
    """Record a fine payment."""
    member = db.members.require(member_id)
    if amount <= 0 or amount > member.fines:
        raise ToolError("amount must be positive and at most the fines owed")
    member.fines = round(member.fines - amount, 2)
    return member
