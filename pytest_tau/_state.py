"""Copy-on-write database state: a fresh environment costs what the task touches.

The domain's initial DB is loaded and validated once per process and never changed.
Each environment sees it through one `Table` per table: reading a record by key copies
it into the environment's private overlay (so a tool may change what it fetched),
inserts and deletes land in the overlay too. The state's *diff* (the records that
differ from the initial DB) is what scoring compares, so neither setting up nor
scoring an item grows with the size of the DB.
"""

from __future__ import annotations

import base64
import copy
import datetime
import decimal
import enum
import hashlib
import re
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any, Generic, TypeVar

import orjson
from pydantic import BaseModel, GetCoreSchemaHandler
from pydantic_core import core_schema

from ._tools import ToolError

__all__ = ["USER_PREFIX", "Diff", "State", "Table", "fingerprint"]

R = TypeVar("R", bound=BaseModel)

_DELETED = object()

# {table: {key: record as JSON-able dict, or None for a deleted record}}
Diff = dict[str, dict[str, Any]]


# Types whose values a record copy shares with its original (nothing changes them in place);
# enumerations join on first sight.
_SHARED = {str, int, float, bool, type(None), bytes, decimal.Decimal, datetime.date, datetime.datetime, datetime.time, datetime.timedelta}
_PLAIN_MODELS: dict[type, bool] = {}  # model class -> copied field by field (no __deepcopy__ of its own)


def copy_record(value: Any) -> Any:
    """A deep copy of a record: what `copy.deepcopy` gives, for a fraction of its cost on
    pydantic models of plain values (no memo: a record validated from JSON shares no parts).
    Anything else (a model with its own `__deepcopy__` or private attributes, a set, a custom
    class) goes to `copy.deepcopy`."""
    kind = type(value)
    shared = _SHARED
    if kind in shared:
        return value
    if kind is list:
        return [item if type(item) in shared else copy_record(item) for item in value]
    if kind is dict:
        return {key: item if type(item) in shared else copy_record(item) for key, item in value.items()}
    plain = _PLAIN_MODELS.get(kind)
    if plain is None:
        if issubclass(kind, enum.Enum):
            shared.add(kind)
            return value
        plain = _PLAIN_MODELS[kind] = issubclass(kind, BaseModel) and kind.__deepcopy__ is BaseModel.__deepcopy__
    if plain and getattr(value, "__pydantic_private__", None) is None:
        new = object.__new__(kind)
        fields = {key: item if type(item) in shared else copy_record(item) for key, item in value.__dict__.items()}
        object.__setattr__(new, "__dict__", fields)
        extra = value.__pydantic_extra__
        object.__setattr__(new, "__pydantic_extra__", None if extra is None else copy_record(extra))
        object.__setattr__(new, "__pydantic_fields_set__", set(value.__pydantic_fields_set__))
        object.__setattr__(new, "__pydantic_private__", None)
        return new
    return copy.deepcopy(value)


def _record_label(model: type[BaseModel] | None, table: str) -> str:
    """'InsurancePolicy' -> 'insurance policy': how a not-found error names a record."""
    if model is None:
        return table.rstrip("s")
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", model.__name__).lower()


def _fold(value: Any) -> Any:
    return " ".join(value.split()).casefold() if isinstance(value, str) else value


class Table(MutableMapping[str, R], Generic[R]):
    """A copy-on-write view of one table of the initial DB.

    Declare tables in a DB model as `Table[Record]`; the file holds `{key: record}`.
    `table[key]` and `table.get(key)` return the environment's own copy of the record,
    safe to change. Iterating `values()`/`items()` yields records *read-only*: fetch a
    record by key before changing it (iteration does not copy, so scans stay cheap).

    For tools: `require(key)` is the one not-found convention, `find(**fields)` looks
    records up by the natural keys a customer says (case and spacing folded), and
    `new_key(prefix, *parts)` mints ids from content, so the order in which an agent
    creates independent records never changes their ids.
    """

    __slots__ = ("_base", "_frozen", "_indexes", "_overlay", "_shared", "label", "name")

    def __init__(
        self,
        name: str,
        base: Mapping[str, R],
        indexes: dict[str, dict[Any, list[str]]] | None = None,
        record_model: type[BaseModel] | None = None,
    ) -> None:
        self.name = name
        self.label = _record_label(record_model, name)
        self._base = base
        self._frozen = False  # the initial DB's own tables: read in place, never written
        self._overlay: dict[str, Any] = {}
        # Keys whose overlay record the latest savepoint holds too: copied before being handed
        # out, so a write that fails can roll back without a copy of every record up front.
        self._shared: set[str] = set()
        # field -> {value: keys} over the initial DB; shared by every environment of a process.
        self._indexes = {} if indexes is None else indexes

    # -- pydantic: a table field validates and dumps as a plain {key: record} mapping --------
    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        args = getattr(source, "__args__", ())
        record = args[0] if args else Any
        mapping = handler.generate_schema(dict[str, record])  # type: ignore[valid-type]

        def wrap(value: dict[str, Any]) -> Table[Any]:
            table = cls("", value, None, record if isinstance(record, type) and issubclass(record, BaseModel) else None)
            table._frozen = True
            return table

        def unwrap(value: Any) -> Any:
            return dict(value._base) if isinstance(value, Table) and not value._overlay else dict(value.items())

        return core_schema.no_info_after_validator_function(
            wrap,
            mapping,
            serialization=core_schema.plain_serializer_function_ser_schema(unwrap, return_schema=mapping),
        )

    @property
    def base(self) -> Mapping[str, R]:
        """The initial records under this view (read-only)."""
        return self._base

    # -- look-ups for tools --------------------------------------------------------------
    def require(self, key: str) -> R:
        """The record under `key` (surrounding spaces and, failing an exact match, case
        ignored), or a `ToolError` "<record> '<key>' not found" for the agent."""
        found = self.get(key.strip()) if isinstance(key, str) else None
        if found is None and isinstance(key, str):
            folded = _fold(key)
            index = self._key_index()
            candidates = [k for k in index.get(folded, ()) if k in self]
            candidates += [k for k in self._overlay if k not in self._base and _fold(k) == folded and k in self]
            if len(candidates) == 1:
                found = self[candidates[0]]
        if found is None:
            raise ToolError(f"{self.label} {key!r} not found")
        return found

    def _key_index(self) -> dict[str, list[str]]:
        index = self._indexes.get("\0keys")
        if index is None:
            index = {}
            for key in self._base:
                index.setdefault(_fold(key), []).append(key)
            self._indexes["\0keys"] = index
        return index

    def find(self, **criteria: Any) -> list[R]:
        """Records whose fields equal the given values, strings compared without case or
        extra spaces (`db.users.find(email="Ana@Example.com ")`), read-only, in key order."""
        if not criteria:
            return list(self.values())
        folded = {name: _fold(value) for name, value in criteria.items()}
        field = next(iter(folded))
        index_name = "\0fold:" + field
        index = self._indexes.get(index_name)
        if index is None:
            index = {}
            for key, record in self._base.items():
                index.setdefault(_fold(getattr(record, field)), []).append(key)
            self._indexes[index_name] = index

        def matches(record: Any) -> bool:
            return all(_fold(getattr(record, name)) == value for name, value in folded.items())

        found: dict[str, R] = {}
        overlay = self._overlay
        for key in index.get(folded[field], ()):
            if overlay.get(key) is None and matches(self._base[key]):
                found[key] = self._base[key]
        for key, mine in overlay.items():
            if mine is not _DELETED and matches(mine):
                found[key] = self._own(key) if key in self._shared else mine
        return [found[key] for key in sorted(found)]

    def new_key(self, prefix: str, *parts: Any, length: int = 8) -> str:
        """A key for a new record, derived from what identifies it (`parts`), never from
        how many records exist: two agents that create the same records in another order
        get the same keys. Identical parts get `-2`, `-3`... (the records are alike, so
        which is which does not change the state)."""
        digest = hashlib.sha256(orjson.dumps([str(part) for part in parts])).digest()
        stem = prefix + base64.b32encode(digest).decode()[:length]
        key, n = stem, 1
        while key in self:
            n += 1
            key = f"{stem}-{n}"
        return key

    def __getitem__(self, key: str) -> R:
        if self._frozen:
            return self._base[key]
        record = self._overlay.get(key)
        if record is _DELETED:
            raise KeyError(key)
        if record is None:
            record = copy_record(self._base[key])
            self._overlay[key] = record
        elif key in self._shared:
            record = self._own(key)
        return record

    def _own(self, key: str) -> R:
        """The overlay's record under `key`, copied from the one the latest savepoint holds."""
        self._shared.discard(key)
        record: R = copy_record(self._overlay[key])
        self._overlay[key] = record
        return record

    def __contains__(self, key: object) -> bool:
        record = self._overlay.get(key)  # type: ignore[call-overload]
        if record is not None:
            return record is not _DELETED
        return key in self._base

    def __setitem__(self, key: str, record: R) -> None:
        if self._frozen:
            raise TypeError("the initial DB is read-only: tools change an environment's tables")
        self._shared.discard(key)
        self._overlay[key] = record

    def __delitem__(self, key: str) -> None:
        if self._frozen:
            raise TypeError("the initial DB is read-only: tools change an environment's tables")
        if key not in self:
            raise KeyError(key)
        self._shared.discard(key)
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
        overlay, shared = self._overlay, self._shared
        for key, record in self._base.items():
            mine = overlay.get(key)
            if mine is None:
                yield key, record
            elif mine is not _DELETED:
                yield key, self._own(key) if key in shared else mine
        for key, mine in overlay.items():
            if key not in self._base and mine is not _DELETED:
                yield key, self._own(key) if key in shared else mine

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
                yield self._own(key) if key in self._shared else mine

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
        """The overlay as it is: its records stay untouched, since from now on the table hands
        out a copy of each (copy on first use, not of every record up front)."""
        saved = dict(self._overlay)
        self._shared = {key for key, record in saved.items() if record is not _DELETED}
        return saved

    def release(self) -> None:
        """The latest savepoint will not be rolled back to: its records are the table's again."""
        self._shared = set()

    def rollback(self, savepoint: dict[str, Any]) -> None:
        self._overlay = savepoint
        self._shared = set()


USER_PREFIX = "user:"
"""How a user-side table is named in a state's diff (dual control): ``user:<table>``."""


class State:
    """A fresh, copy-on-write view of a domain's initial DB for one environment.

    A dual-control domain also has a user-side DB (the customer's own device): its tables
    sit beside the agent's as ``user:<table>``, so a diff, a savepoint and a fingerprint
    cover both sides; tools see ``db`` (the agent's) or ``user_db`` (the customer's).
    """

    __slots__ = ("db", "tables", "user_db")

    def __init__(
        self,
        db_model: type[BaseModel],
        initial: BaseModel,
        indexes: dict[str, dict[str, Any]] | None = None,
        user: tuple[type[BaseModel], BaseModel, dict[str, dict[str, Any]]] | None = None,
    ) -> None:
        indexes = {} if indexes is None else indexes
        self.tables: dict[str, Table[Any]] = {}
        self.db = self._views(db_model, initial, indexes, "")
        self.user_db: BaseModel | None = None
        if user is not None:
            self.user_db = self._views(user[0], user[1], user[2], USER_PREFIX)

    def _views(self, model: type[BaseModel], initial: BaseModel, indexes: dict[str, dict[str, Any]], prefix: str) -> Any:
        mine: dict[str, Table[Any]] = {}
        for name in model.model_fields:
            base = getattr(initial, name)
            table: Table[Any] = Table(prefix + name, base.base if isinstance(base, Table) else base, indexes.setdefault(name, {}))
            if isinstance(base, Table):
                table.label = base.label
            mine[name] = table
            self.tables[prefix + name] = table
        # model_construct skips validation: the tables are views over validated data.
        return model.model_construct(None, **mine)

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

    def release(self) -> None:
        """The latest savepoint will not be rolled back to (the write succeeded)."""
        for table in self.tables.values():
            table.release()

    def rollback(self, savepoint: dict[str, dict[str, Any]]) -> None:
        for name, table in self.tables.items():
            table.rollback(savepoint[name])


def fingerprint(diff: Diff) -> str:
    """A stable sha256 of a state diff (sorted keys, canonical JSON)."""
    return hashlib.sha256(orjson.dumps(diff, option=orjson.OPT_SORT_KEYS)).hexdigest()
