"""A toy library desk: the smallest domain that exercises every engine path in tests."""

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from pytest_tau import Domain, ToolError


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
    members: dict[str, Member]
    books: dict[str, Book]


DOMAIN = Domain("toy", LibraryDB, fixtures=Path(__file__).parents[2] / "fixtures" / "toy")


@DOMAIN.tool
def find_member(db: LibraryDB, email: Annotated[str, Field(description="the member's email")]) -> Member:
    """Find a library member by email."""
    for member in db.members.values():
        if member.email == email.strip().lower():
            return member
    raise ToolError("no member with that email")


@DOMAIN.tool
def get_book(db: LibraryDB, book_id: str) -> Book:
    """Look up a book by id.

    Args:
        book_id: the book's id, such as "B1".
    """
    if book_id not in db.books:
        raise ToolError(f"no book {book_id!r}")
    return db.books[book_id]


@DOMAIN.tool(write=True)
def loan_book(db: LibraryDB, member_id: str, book_id: str) -> Book:
    """Loan an available book to a member without fines."""
    if member_id not in db.members:
        raise ToolError(f"no member {member_id!r}")
    if book_id not in db.books:
        raise ToolError(f"no book {book_id!r}")
    book = db.books[book_id]
    if book.status != "available":
        raise ToolError("the book is not available")
    if db.members[member_id].fines > 0:
        raise ToolError("members with unpaid fines cannot borrow")
    book.status, book.holder = "loaned", member_id
    return book


@DOMAIN.tool(write=True)
def pay_fines(db: LibraryDB, member_id: str, amount: float) -> Member:
    """Record a fine payment."""
    if member_id not in db.members:
        raise ToolError(f"no member {member_id!r}")
    member = db.members[member_id]
    if amount <= 0 or amount > member.fines:
        raise ToolError("amount must be positive and at most the fines owed")
    member.fines = round(member.fines - amount, 2)
    return member


@DOMAIN.tool(transfer=True)
def transfer_to_human_agents(db: LibraryDB, summary: str) -> str:
    """Transfer the member to a human librarian."""
    return "Transfer successful"
