"""Copy-on-write database state: a fresh environment costs what the task touches.

The domain's initial DB is loaded and validated once per process and never changed.
Each environment sees it through one `Table` per table: reading a record by key copies
it into the environment's private overlay (so a tool may change what it fetched),
inserts and deletes land in the overlay too. The state's *diff* (the records that
differ from the initial DB) is what scoring compares, so neither setting up nor
scoring an item grows with the size of the DB.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any, TypeVar

import orjson
from pydantic import BaseModel

__all__ = ["Table", "State", "Diff", "fingerprint"]

R = TypeVar("R", bound=BaseModel)

_DELETED = object()

# {table: {key: record as JSON-able dict, or None for a deleted record}}
Diff = dict[str, dict[str, Any]]


class Table(MutableMapping[str, R]):
    """A copy-on-write view of one table of the initial DB.

    `table[key]` and `table.get(key)` return the environment's own copy of the record,
    safe to change. Iterating `values()`/`items()` yields records *read-only*: fetch a
    record by key before changing it (iteration does not copy, so scans stay cheap).
    """

    __slots__ = ("name", "_base", "_overlay", "_indexes")

    def __init__(self, name: str, base: Mapping[str, R], indexes: dict[str, dict[Any, list[str]]] | None = None) -> None:
        self.name = name
        self._base = base
        self._overlay: dict[str, Any] = {}
        # field -> {value: keys} over the initial DB; shared by every environment of a process.
        self._indexes = {} if indexes is None else indexes

    def __getitem__(self, key: str) -> R:
        record = self._overlay.get(key)
        if record is _DELETED:
            raise KeyError(key)
        if record is None:
            record = copy.deepcopy(self._base[key])
            self._overlay[key] = record
        return record

    def __contains__(self, key: object) -> bool:
        record = self._overlay.get(key)  # type: ignore[call-overload]
        if record is not None:
            return record is not _DELETED
        return key in self._base

    def __setitem__(self, key: str, record: R) -> None:
        self._overlay[key] = record

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        self._overlay[key] = _DELETED

    def __iter__(self) -> Iterator[str]:
        overlay = self._overlay
        for key in self._base:
            if overlay.get(key) is not _DELETED:
                yield key
        for key, record in overlay.items():
            if key not in self._base and record is not _DELETED:
                yield key

    def __len__(self) -> int:
        deleted = sum(1 for key, r in self._overlay.items() if r is _DELETED and key in self._base)
        added = sum(1 for key, r in self._overlay.items() if r is not _DELETED and key not in self._base)
        return len(self._base) - deleted + added

    def values(self) -> Iterator[R]:  # type: ignore[override]
        """Every record, read-only (fetch by key to change one)."""
        for _, record in self.items():
            yield record

    def items(self) -> Iterator[tuple[str, R]]:  # type: ignore[override]
        """Every (key, record), read-only (fetch by key to change one)."""
        overlay = self._overlay
        for key, record in self._base.items():
            mine = overlay.get(key)
            if mine is None:
                yield key, record
            elif mine is not _DELETED:
                yield key, mine
        for key, mine in overlay.items():
            if key not in self._base and mine is not _DELETED:
                yield key, mine

    def where(self, **criteria: Any) -> Iterator[R]:
        """Records whose fields equal the given values, read-only (fetch by key to change one).

        `db.transactions.where(account_id="A1")` costs what it finds, not the table's size:
        the first criterion is looked up in an index over the initial DB, built once per
        process, and the environment's own changes are checked on top.
        """
        if not criteria:
            yield from self.values()
            return
        field = next(iter(criteria))
        index = self._indexes.get(field)
        if index is None:
            index = {}
            for key, record in self._base.items():
                index.setdefault(getattr(record, field), []).append(key)
            self._indexes[field] = index

        def matches(record: Any) -> bool:
            return all(getattr(record, name) == value for name, value in criteria.items())

        overlay = self._overlay
        for key in index.get(criteria[field], ()):
            mine = overlay.get(key)
            if mine is None and matches(self._base[key]):
                yield self._base[key]
        for key, mine in overlay.items():  # changed, inserted records (deleted ones are skipped)
            if mine is not _DELETED and matches(mine):
                yield mine

    # -- for the engine ------------------------------------------------------------
    def diff(self) -> dict[str, Any]:
        """The records that differ from the initial DB, dumped to JSON-able dicts."""
        changed: dict[str, Any] = {}
        for key, record in self._overlay.items():
            base = self._base.get(key)
            if record is _DELETED:
                if base is not None:
                    changed[key] = None
            elif base is None or record != base:
                changed[key] = record.model_dump(mode="json")
        return changed

    def savepoint(self) -> dict[str, Any]:
        return {key: copy.deepcopy(record) if record is not _DELETED else record for key, record in self._overlay.items()}

    def rollback(self, savepoint: dict[str, Any]) -> None:
        self._overlay = savepoint


class State:
    """A fresh, copy-on-write view of a domain's initial DB for one environment."""

    __slots__ = ("db", "tables")

    def __init__(
        self, db_model: type[BaseModel], initial: BaseModel, indexes: dict[str, dict[str, Any]] | None = None
    ) -> None:
        indexes = {} if indexes is None else indexes
        self.tables = {
            name: Table(name, getattr(initial, name), indexes.setdefault(name, {})) for name in db_model.model_fields
        }
        # model_construct skips validation: the tables are views over validated data.
        self.db = db_model.model_construct(**self.tables)

    def diff(self) -> Diff:
        """The changed records of every table, tables and keys in sorted order."""
        result: Diff = {}
        for name in sorted(self.tables):
            changed = self.tables[name].diff()
            if changed:
                result[name] = {key: changed[key] for key in sorted(changed)}
        return result

    def savepoint(self) -> dict[str, dict[str, Any]]:
        return {name: table.savepoint() for name, table in self.tables.items()}

    def rollback(self, savepoint: dict[str, dict[str, Any]]) -> None:
        for name, table in self.tables.items():
            table.rollback(savepoint[name])


def fingerprint(diff: Diff) -> str:
    """A stable sha256 of a state diff (sorted keys, canonical JSON)."""
    return hashlib.sha256(orjson.dumps(diff, option=orjson.OPT_SORT_KEYS)).hexdigest()
