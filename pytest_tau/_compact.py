"""The initial DB in a compact form: the same records, with what they repeat stored once.

Measured on the shipped domains (bench/memory.py --db), a validated DB took 7.7 MiB of
RSS per MB of db.json. Almost half was pydantic's per-record `__pydantic_fields_set__`
(a `set` of field names, 200-700 bytes, the same for nearly every record of a model),
most of the rest strings and floats repeated across records (statuses, names, dates,
prices). `compact` walks a freshly validated DB once and makes equal immutable values
one object, and equal fields-sets of one model one set. Nothing observable changes: the
values are equal and immutable, and the initial DB is read-only (an environment
deep-copies a record before changing it, and pydantic copies the fields-set with it).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

__all__ = ["compact"]


class _Memo:
    """One shared object per equal immutable value, per DB."""

    __slots__ = ("fields_sets", "values")

    def __init__(self) -> None:
        self.values: dict[Any, Any] = {}
        self.fields_sets: dict[tuple[type, frozenset[str]], set[str]] = {}

    def value(self, value: Any) -> Any:
        kind = type(value)
        if kind is str:
            return self.values.setdefault(value, value)
        if kind is float:
            if value == 0.0:  # 0.0 == -0.0 (and they print differently): leave zeros alone
                return value
            return self.values.setdefault((float, value), value)
        if kind is int and not -5 <= value <= 256:  # small ints are shared by Python already
            return self.values.setdefault((int, value), value)
        if kind is list:
            for i, item in enumerate(value):
                value[i] = self.value(item)
            return value
        if kind is dict:
            return {self.value(k): self.value(v) for k, v in value.items()}
        if isinstance(value, BaseModel):
            self.model(value)
        return value

    def model(self, record: BaseModel) -> None:
        fields = record.__dict__
        for name, item in fields.items():
            fields[name] = self.value(item)
        own = record.__pydantic_fields_set__
        shared = self.fields_sets.setdefault((type(record), frozenset(own)), own)
        if shared is not own:
            object.__setattr__(record, "__pydantic_fields_set__", shared)


def compact(db: BaseModel) -> None:
    """Share the repeated values and fields-sets of a validated DB, in place."""
    from ._state import Table

    memo = _Memo()
    for name in type(db).model_fields:
        table = getattr(db, name)
        records = table.base if isinstance(table, Table) else table
        rebuilt = {memo.value(key): record for key, record in records.items()}
        for record in rebuilt.values():
            memo.value(record)
        if isinstance(table, Table):
            table._base = rebuilt
        elif isinstance(table, dict):
            table.clear()
            table.update(rebuilt)
