"""What a state comparison may not depend on: free text and the order of unordered lists.

A DB model marks fields:

    class Visit(BaseModel):
        reason: FreeText                  # the customer's words: compared as "said or not"
        notes: FreeText | None = None
        payments: Unordered[Payment]      # a list whose order carries no meaning

`canonical(model)` builds, once per record model, a function that turns a record's JSON
into the form states are compared in: free text becomes `"<free text>"` when non-empty
(so "a reason was recorded" still counts, its wording never does), unordered lists are
sorted by their canonical JSON. Gold and actual go through the same function.
"""

from __future__ import annotations

import functools
import re
import typing
import unicodedata
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import orjson
from pydantic import BaseModel

__all__ = [
    "CONFIDENTIAL",
    "FORMATTED",
    "FREE_TEXT",
    "UNORDERED",
    "Canonical",
    "Confidential",
    "Formatted",
    "FreeText",
    "Unordered",
    "canonical",
    "confidential_fields",
    "free_text_fields",
]

T = TypeVar("T")


class _Marker:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


FREE_TEXT = _Marker("FREE_TEXT")
UNORDERED = _Marker("UNORDERED")
CONFIDENTIAL = _Marker("CONFIDENTIAL")
FORMATTED = _Marker("FORMATTED")

FreeText = Annotated[str, FREE_TEXT]
"""A string in someone's own words (a reason, a note): never compared word for word."""

Unordered = Annotated[list[T], UNORDERED]
"""A list whose order carries no meaning: compared as a multiset."""

Confidential = Annotated[T, CONFIDENTIAL]
"""A field the policy forbids telling the customer (a risk score, an internal note): the agent
may read it, and a conversation in which it was told scores 0. Compared like any other field."""

Formatted = Annotated[str, FORMATTED]
"""A string a person formats (a title, an address, a version): compared without case,
punctuation, the usual abbreviations or a "v" before a version number."""

FREE_TEXT_PLACEHOLDER = "<free text>"

_SHORT_FORMS = {
    "corporation": "corp", "incorporated": "inc", "company": "co", "limited": "ltd", "street": "st",
    "avenue": "ave", "road": "rd", "boulevard": "blvd", "suite": "ste", "department": "dept",
    "and": "&", "versus": "v", "vs": "v", "apartment": "apt", "drive": "dr", "lane": "ln",
}
_PUNCTUATION = re.compile(r"[^\w&\s]+")


def formatted_form(value: str) -> str:
    """The compared form of a `Formatted` string: "Acme Corp. v. Smith" and "acme corporation vs smith"
    are the same; "v3.0.1" and "3.0.1" are the same."""
    text = unicodedata.normalize("NFKD", value).casefold()
    text = re.sub(r"(?<![\w.])v(?=\d)", "", text)
    text = re.sub(r"(?<=\d)\.(?=\d)", "_", text)  # keep a version's dots apart from punctuation
    words = _PUNCTUATION.sub(" ", text).split()
    return " ".join(_SHORT_FORMS.get(word, word) for word in words)

Canonical = Callable[[Any], Any]


def _identity(value: Any) -> Any:
    return value


def _markers(annotation: Any, metadata: list[Any]) -> set[_Marker]:
    found = {m for m in metadata if isinstance(m, _Marker)}
    for arg in (annotation, *typing.get_args(annotation)):
        found |= {m for m in getattr(arg, "__metadata__", ()) if isinstance(m, _Marker)}
    return found


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """Record models nested in an annotation (X, X | None, list[X], dict[str, X])."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        found += _models_in(arg)
    return found


def _sort_key(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def _shape(annotation: Any) -> tuple[str, Any]:
    """('list' | 'dict' | 'model' | 'plain', inner annotation), looking through Optional and Annotated."""
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _shape(typing.get_args(annotation)[0])
    if origin in (list, tuple, set, frozenset):
        args = typing.get_args(annotation)
        return "list", args[0] if args else Any
    if origin is dict:
        args = typing.get_args(annotation)
        return "dict", args[1] if len(args) == 2 else Any
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "model", annotation
    if origin is not None:  # a union: the first non-None member that is structured
        for arg in typing.get_args(annotation):
            if arg is not type(None):
                kind, inner = _shape(arg)
                if kind != "plain":
                    return kind, inner
    return "plain", None


def _for_annotation(annotation: Any, metadata: list[Any]) -> Canonical:
    markers = _markers(annotation, metadata)
    if FREE_TEXT in markers:
        return lambda value: FREE_TEXT_PLACEHOLDER if isinstance(value, str) and value.strip() else value
    if FORMATTED in markers:
        return lambda value: formatted_form(value) if isinstance(value, str) else value
    kind, inner_annotation = _shape(annotation)
    unordered = UNORDERED in markers
    if kind == "model":
        return canonical(inner_annotation)
    inner = _for_annotation(inner_annotation, []) if kind in ("list", "dict") else _identity
    if kind == "list":

        def convert_list(value: Any) -> Any:
            if not isinstance(value, list):
                return value
            items = [inner(item) for item in value] if inner is not _identity else value
            return sorted(items, key=_sort_key) if unordered else items

        return convert_list if (unordered or inner is not _identity) else _identity
    if kind == "dict" and inner is not _identity:
        return lambda value: {k: inner(v) for k, v in value.items()} if isinstance(value, dict) else value
    return _identity


@functools.cache
def canonical(model: type[BaseModel]) -> Canonical:
    """The function that turns a JSON record of `model` into its compared form."""
    fields: dict[str, Canonical] = {}
    for name, field in model.model_fields.items():
        convert = _for_annotation(field.annotation, list(field.metadata))
        if convert is not _identity:
            fields[field.alias or name] = convert
    if not fields:
        return _identity

    def convert_record(record: Any) -> Any:
        if not isinstance(record, dict):
            return record
        return {key: fields[key](value) if key in fields and value is not None else value for key, value in record.items()}

    return convert_record


def free_text_fields(model: type[BaseModel], prefix: str = "") -> list[str]:
    """Dotted paths of the free-text fields of a record model (nested models included)."""
    paths: list[str] = []
    for name, field in model.model_fields.items():
        if FREE_TEXT in _markers(field.annotation, list(field.metadata)):
            paths.append(prefix + name)
        for nested in _models_in(field.annotation):
            if nested is not model:
                paths += free_text_fields(nested, f"{prefix}{name}.")
    return paths


def confidential_fields(model: type[BaseModel], seen: frozenset[type[BaseModel]] = frozenset()) -> dict[str, set[frozenset[str]]]:
    """The confidential fields of a record model and of the models nested in it: each name with the
    field names of the models that mark it (a passenger's `dob` is not a member's `dob`)."""
    found: dict[str, set[frozenset[str]]] = {}
    shape = frozenset(field.alias or name for name, field in model.model_fields.items())
    for name, field in model.model_fields.items():
        if CONFIDENTIAL in _markers(field.annotation, list(field.metadata)):
            found.setdefault(field.alias or name, set()).add(shape)
        for nested in _models_in(field.annotation):
            if nested is not model and nested not in seen:
                for nested_name, shapes in confidential_fields(nested, seen | {model}).items():
                    found.setdefault(nested_name, set()).update(shapes)
    return found
