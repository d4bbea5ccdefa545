"""Property-based fuzzing of every tool of every domain through `Environment.call`.

For each (domain, tool) pair found under tests_domains/ (a dual-control domain's user tools too,
called as the user):

1. Malformed calls (a wrong type for an argument, a missing required argument, an extra
   argument, arguments as broken JSON, as non-object JSON, nested garbage) come back as the
   engine's clean errors and never raise; odd but well-typed text (10^5-character strings,
   RTL/zero-width/emoji text, injection-like text, impossible dates) never crashes a tool.
2. A call that fails leaves the DB unchanged: `env.state.diff()` is the same before and
   after, both on a fresh DB and on one already changed by a successful gold write.
3. Nothing escapes to the filesystem, a subprocess or the network during a call; the
   attempts are recorded (the environment turns the marker exception into a tool error).
4. Well-typed random calls (valid per each tool's pydantic model; values drawn from the DB's
   keys, the tasks' gold arguments and random text) never raise; when they fail they change
   nothing, a read-only tool never changes the DB, and no non-finite number is ever stored.

Strategies are built from each tool's argument model (its JSON schema), so a "wrong type"
is a value that pydantic's lax mode really rejects. Runs are derandomized (deterministic CI).
"""

from __future__ import annotations

import builtins
import contextlib
import io
import math
import os
import signal
import socket
import subprocess
import threading
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from pytest_tau import Domain, discover_domains, fingerprint
from pytest_tau._environment import Environment, ToolCall
from pytest_tau._tools import Tool

ROOT = Path(__file__).parents[1]
DOMAINS = discover_domains(ROOT)
# agent and user tools (dual control) share one namespace per domain
PAIRS = [(d, t) for d in sorted(DOMAINS) for t in sorted({*DOMAINS[d].tools, *DOMAINS[d].user_tools})]
PAIR_IDS = [f"{d}-{t}" for d, t in PAIRS]

# TAU_FUZZ_SCALE=20 multiplies the example counts for a deeper (still deterministic) local run
SCALE = float(os.environ.get("TAU_FUZZ_SCALE", "1"))
MALFORMED_EXAMPLES = max(1, round(25 * SCALE))
VALID_EXAMPLES = max(1, round(15 * SCALE))
CALL_TIMEOUT = 5.0  # seconds; a tool that loops on a huge argument is a finding, not a hang

FUZZ = settings(
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=False,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
        HealthCheck.large_base_example,
    ],
)

INVALID_JSON = "Error: arguments are not valid JSON"
NOT_OBJECT = "Error: arguments must be a JSON object"


def invalid_arguments(tool: Tool) -> str:
    return f"Error: invalid arguments for {tool.name}: "


def crashed(tool: Tool) -> str:
    """The engine's message for an exception other than ToolError escaping a tool."""
    return f"Error: {tool.name} failed:"


# -- odd text -----------------------------------------------------------------------
INJECTIONS = [
    "'; DROP TABLE users; --",
    "' OR '1'='1",
    "../../etc/passwd",
    "..\\..\\windows\\system32\\config",
    "/dev/zero",
    "file:///etc/shadow",
    "{{7*7}}",
    "${7*7}",
    "#{7*7}",
    "{0.__class__.__mro__}",
    "%s%s%s%n%x",
    "__import__('os').system('id')",
    "$(rm -rf /)",
    "`id`",
    "; cat /etc/passwd",
    "<script>alert(1)</script>",
    "http://169.254.169.254/latest/meta-data/",
    "\x00",
    "null",
    "None",
    "NaN",
    "true",
    "[]",
    "{}",
    "\\",
    "'",
    '"',
    "\n\r\t",
    "   ",
    "",
]
UNICODE = [
    "مرحبا بالعالم",
    "שלום עולם",
    "\u202eevil\u202c.txt",
    "zero\u200bwidth\u200c\u200djoin\u2060",
    "\ufeffbom",
    "😀🎉👨‍👩‍👧‍👦",
    "🏳️‍🌈",
    "Ω≈ç√∫˜µ≤≥÷",
    "ｆｕｌｌｗｉｄｔｈ１２３",
    "e\u0301\u0301\u0301\u0301",
    "İıßẞ",
    "𝕳𝖊𝖑𝖑𝖔",
    "ﷺ",
    "\u0000\u0001\u001f\u007f",
    "\u2028\u2029",
    "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇",
]
ODD_DATES = [
    "2026-02-30",
    "2026-13-01",
    "2026-00-10",
    "0001-01-01",
    "9999-12-31",
    "2026-5-1",
    "20260515",
    "2026-05-15T10:00:00",
    "2026-05-15 ",
    "15/05/2026",
    "yesterday",
    "-2026-05-15",
]
HUGE = [unit * (100_000 // len(unit)) for unit in ("x", "é", "😀", "'; DROP TABLE t; --", "0", " ", "\u200b")]


def choice(values: list[Any]) -> st.SearchStrategy[Any]:
    """`sampled_from` without a repr of every value (key lists and 10^5-character strings)."""
    values = list(values)

    def pick(index: int) -> Any:
        return values[index]

    return st.integers(0, len(values) - 1).map(pick)


WORDS = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)
ODD_STRINGS = st.one_of(
    st.sampled_from(INJECTIONS),
    st.sampled_from(UNICODE),
    st.sampled_from(ODD_DATES),
    choice(HUGE),
    WORDS,
)
# never numeric, boolean-like or an enum value: pydantic's lax mode cannot coerce these
NON_NUMERIC = WORDS.map(lambda s: "x" + s)
JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    WORDS,
)
GARBAGE = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(WORDS, inner, max_size=4),
    max_leaves=20,
)
GARBAGE_DICT = st.dictionaries(WORDS, GARBAGE, min_size=1, max_size=4)
BROKEN_JSON = [
    "{",
    "}",
    "{]",
    '{"a": }',
    '{"a" 1}',
    '{"a": 1,}',
    "{'a': 1}",
    '{"a": NaN}',
    '{"a": Infinity}',
    '{"a": 1e400}',
    '{"a": 1} trailing',
    '{"a": "unterminated}',
    '{"a": "\\x"}',
    '{"a": "\\ud800"}',
    "\x00{}",
    "{}{}",
    "[1, 2",
    "undefined",
    "None",
    "True",
    '{"a": 01}',
    "{" * 10_000,
    "[" * 100_000,
]
NON_OBJECT_JSON = ["[]", "[{}]", "1", "-0.5", '"{}"', '"text"', "true", "false", '"  "', "[[[[[]]]]]", '[{"a": 1}]']


# -- the schema ---------------------------------------------------------------------
def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        target = defs[schema["$ref"].rsplit("/", 1)[-1]]
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    if "allOf" in schema and len(schema["allOf"]) == 1:
        rest = {k: v for k, v in schema.items() if k != "allOf"}
        schema = {**_resolve(schema["allOf"][0], defs), **rest}
    return schema


def _branches(schema: dict[str, Any], defs: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives of a schema (anyOf/oneOf flattened), each resolved."""
    schema = _resolve(schema, defs)
    alternatives = schema.get("anyOf") or schema.get("oneOf")
    if alternatives:
        return [b for alt in alternatives for b in _branches(alt, defs)]
    if isinstance(schema.get("type"), list):
        return [{**schema, "type": t} for t in schema["type"]]
    return [schema]


_JSON_TYPE = {str: "string", bool: "boolean", int: "integer", float: "number", type(None): "null"}


def _kind(branch: dict[str, Any]) -> str:
    if "const" in branch:
        return _JSON_TYPE.get(type(branch["const"]), "any")
    if "enum" in branch:
        kinds = {_JSON_TYPE.get(type(v), "any") for v in branch["enum"]}
        return kinds.pop() if len(kinds) == 1 else "any"
    return branch.get("type", "any")


def _restricted(branch: dict[str, Any]) -> bool:
    return "enum" in branch or "const" in branch


class Arguments:
    """A tool's argument model as a JSON schema, with the domain's sample values."""

    def __init__(self, domain: Domain, tool: Tool) -> None:
        self.domain = domain
        self.tool = tool
        schema = tool.arguments.model_json_schema()
        self.defs: dict[str, Any] = schema.get("$defs", {})
        self.properties: dict[str, Any] = schema.get("properties", {})
        self.required: list[str] = list(schema.get("required", []))
        self.optional = [k for k in self.properties if k not in self.required]
        self.pool = _domain_pool(domain.name)

    # -- valid values --------------------------------------------------------------
    def valid(self, schema: dict[str, Any], key: str | None = None) -> st.SearchStrategy[Any]:
        return st.one_of([self._valid_branch(b, key) for b in _branches(schema, self.defs)])

    def _valid_branch(self, branch: dict[str, Any], key: str | None) -> st.SearchStrategy[Any]:
        if "const" in branch:
            return st.just(branch["const"])
        if "enum" in branch:
            return st.sampled_from(branch["enum"])
        samples = self.pool.values.get(key or "", [])
        kind = branch.get("type")
        if kind == "string":
            return self._valid_string(branch, samples)
        if kind in ("integer", "number"):
            return self._valid_number(branch, kind, samples)
        if kind == "boolean":
            return st.booleans() | st.sampled_from(["true", "false", "yes", "no", 0, 1])
        if kind == "null":
            return st.none()
        if kind == "array":
            items = self.valid(branch.get("items", {}), key)
            low, high = branch.get("minItems", 0), branch.get("maxItems", 5)
            return st.lists(items, min_size=low, max_size=max(low, min(high, 5)))
        if kind == "object":
            props = branch.get("properties", {})
            if props:
                required = set(branch.get("required", []))
                return st.fixed_dictionaries(
                    {k: self.valid(s, k) for k, s in props.items() if k in required},
                    optional={k: self.valid(s, k) for k, s in props.items() if k not in required},
                )
            extra = branch.get("additionalProperties", {})
            return st.dictionaries(WORDS, self.valid(extra if isinstance(extra, dict) else {}, key), max_size=3)
        return GARBAGE  # no type: anything goes

    def _valid_string(self, branch: dict[str, Any], samples: list[Any]) -> st.SearchStrategy[Any]:
        low, high = branch.get("minLength", 0), branch.get("maxLength")
        if "pattern" in branch:
            return st.from_regex(branch["pattern"], fullmatch=True).filter(
                lambda s: len(s) >= low and (high is None or len(s) <= high)
            )
        if branch.get("format") == "date":
            return st.dates().map(lambda d: d.isoformat())
        if branch.get("format") == "date-time":
            return st.datetimes().map(lambda d: d.isoformat())
        if low or high is not None:
            return st.text(st.characters(exclude_categories=("Cs",)), min_size=low, max_size=high or low + 30)
        strings = [s for s in samples if isinstance(s, str)]
        options: list[st.SearchStrategy[Any]] = [WORDS, st.sampled_from(ODD_DATES)]
        if strings:
            options += [choice(strings)] * 3
            options.append(choice(strings).flatmap(_near_miss))
        if self.pool.keys:
            options.append(choice(self.pool.keys))
            options.append(choice(self.pool.keys).flatmap(_near_miss))
        return st.one_of(options)

    def _valid_number(self, branch: dict[str, Any], kind: str, samples: list[Any]) -> st.SearchStrategy[Any]:
        bounds = {k: branch[k] for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") if k in branch}
        integer = kind == "integer"
        if bounds or "multipleOf" in branch:
            low = bounds.get("minimum", bounds.get("exclusiveMinimum"))
            high = bounds.get("maximum", bounds.get("exclusiveMaximum"))
            if integer:
                lo = None if low is None else math.floor(low) + ("exclusiveMinimum" in bounds)
                hi = None if high is None else math.ceil(high) - ("exclusiveMaximum" in bounds)
                base = st.integers(lo, hi)
            else:
                base = st.floats(
                    low,
                    high,
                    exclude_min="exclusiveMinimum" in bounds,
                    exclude_max="exclusiveMaximum" in bounds,
                    allow_nan=False,
                    allow_infinity=False,
                )
            if "multipleOf" in branch:
                step = branch["multipleOf"]
                base = st.integers(-1000, 1000).map(lambda n: n * step)
            return base.filter(lambda v: _within(v, branch))
        numbers = [s for s in samples if isinstance(s, (int, float)) and not isinstance(s, bool)]
        special_ints = [0, -1, 1, 24, 25, 10**9, 2**31, 2**53, -(2**62), 2**63 - 1, "7", 3.0]
        options: list[st.SearchStrategy[Any]] = [
            st.integers(-100, 100),
            st.integers(-(2**63), 2**63 - 1),
            st.sampled_from(special_ints),
        ]
        if not integer:
            options += [
                st.floats(-1e9, 1e9, allow_nan=False),
                # what a model can send in JSON and pydantic's lax mode accepts as a float
                st.sampled_from([-0.0, 0.001, 0.005, 1e-300, 1e308, -1e308, "nan", "inf", "-inf", "1e400", "12.5"]),
            ]
        if numbers:
            options += [choice(numbers)] * 3
        return st.one_of(options)

    def valid_arguments(self) -> st.SearchStrategy[dict[str, Any]]:
        random = st.fixed_dictionaries(
            {k: self.valid(self.properties[k], k) for k in self.required},
            optional={k: self.valid(self.properties[k], k) for k in self.optional},
        )
        golds = self.pool.calls.get(self.tool.name, [])
        if not golds:
            return random

        def perturb(gold: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
            return st.fixed_dictionaries(
                {
                    k: st.just(v) | self.valid(self.properties[k], k) if k in self.properties else st.just(v)
                    for k, v in gold.items()
                }
            )

        # real arguments of the tasks, some replaced: calls that get past the lookups
        return st.one_of(random, choice(golds), choice(golds).flatmap(perturb))

    # -- wrong values --------------------------------------------------------------
    def wrong(self, schema: dict[str, Any]) -> st.SearchStrategy[Any] | None:
        """A value pydantic rejects for this schema, even in lax mode; None if all go."""
        branches = _branches(schema, self.defs)
        kinds = {_kind(b) for b in branches}
        if "any" in kinds:
            return None
        plain = {_kind(b) for b in branches if not _restricted(b)}
        allowed: set[Any] = {v for b in branches for v in b.get("enum", [b["const"]] if "const" in b else [])}
        numeric = kinds & {"integer", "number"}
        options: list[st.SearchStrategy[Any]] = []
        if "string" not in plain:
            strings = NON_NUMERIC if (numeric or "boolean" in kinds) else NON_NUMERIC | WORDS
            options.append(strings.filter(lambda s: s not in allowed))
            upper = sorted({v.upper() for v in allowed if isinstance(v, str)} - {v for v in allowed if isinstance(v, str)})
            if upper and not numeric and "boolean" not in kinds:
                options.append(st.sampled_from(upper))
        if not numeric:
            if "boolean" in kinds:
                options.append(st.integers(2, 2**62) | st.integers(-(2**62), -1))
                options.append(st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: f not in (0.0, 1.0)))
            else:
                options.append(st.integers(-(2**63), 2**63 - 1))
                options.append(st.floats(allow_nan=False, allow_infinity=False))
        elif "number" not in kinds:  # integers only: a fraction is wrong
            options.append(st.floats(-1e15, 1e15, allow_nan=False).filter(lambda f: not f.is_integer()))
        if not (kinds & {"boolean", "integer", "number"}):
            options.append(st.booleans())
        if "null" not in kinds:
            options.append(st.none())
        if "array" not in kinds:
            options.append(st.lists(GARBAGE, max_size=3))
        else:
            for b in branches:
                if _kind(b) == "array" and len(kinds) == 1:
                    item = self.wrong(b.get("items", {}))
                    if item is not None:
                        options.append(st.lists(item, min_size=1, max_size=3))
        if "object" not in kinds:
            options.append(GARBAGE_DICT)
        else:
            for b in branches:
                if _kind(b) == "object" and len(kinds) == 1 and b.get("required"):
                    options.append(self._wrong_object(b))
        return st.one_of(options) if options else None

    def _wrong_object(self, branch: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
        props, required = branch.get("properties", {}), branch["required"]
        full = st.fixed_dictionaries({k: self.valid(props[k], k) for k in required})

        def drop(value: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
            return st.sampled_from(required).map(lambda k: {n: v for n, v in value.items() if n != k})

        return full.flatmap(drop)

    def malformed(self) -> st.SearchStrategy[tuple[str, Any, str | None]]:
        """(what, arguments, expected error prefix or None for "any clean outcome")."""
        base = self.valid_arguments()
        cases: list[st.SearchStrategy[tuple[str, Any, str | None]]] = []
        bad = invalid_arguments(self.tool)
        wrong = {k: s for k in self.properties if (s := self.wrong(self.properties[k])) is not None}
        if wrong:

            def wrong_type(args: dict[str, Any]) -> st.SearchStrategy[tuple[str, Any, str | None]]:
                return st.sampled_from(sorted(wrong)).flatmap(
                    lambda k: wrong[k].map(lambda v: (f"wrong type for {k}", {**args, k: v}, bad))
                )

            cases.append(base.flatmap(wrong_type))
        if self.required:
            cases.append(
                st.tuples(base, st.sampled_from(self.required)).map(
                    lambda p: (f"missing {p[1]}", {k: v for k, v in p[0].items() if k != p[1]}, bad)
                )
            )
        extra_key = (WORDS | st.sampled_from(["db", "self", "__class__", "__raw__", "kwargs", "function"])).filter(
            lambda k: k not in self.properties
        )
        cases.append(
            st.tuples(base, extra_key, GARBAGE).map(lambda p: (f"extra {p[1]!r}", {**p[0], p[1]: p[2]}, bad))
        )
        string_keys = sorted(k for k in self.properties if "string" in self._plain_kinds(self.properties[k]))
        if string_keys:

            def odd(args: dict[str, Any]) -> st.SearchStrategy[tuple[str, Any, str | None]]:
                return st.dictionaries(st.sampled_from(string_keys), ODD_STRINGS, min_size=1).map(
                    lambda odd: ("odd text", {**args, **odd}, None)
                )

            cases.append(base.flatmap(odd))
        cases.append(choice(BROKEN_JSON).map(lambda t: ("broken JSON", t, INVALID_JSON)))
        cases.append(
            base.flatmap(
                lambda args: st.integers(1, max(1, len(_dumps(args)) - 1)).map(
                    lambda n: ("truncated JSON", _dumps(args)[:n], INVALID_JSON)
                )
            )
        )
        cases.append(st.sampled_from(NON_OBJECT_JSON).map(lambda t: ("non-object JSON", t, NOT_OBJECT)))
        cases.append(
            st.one_of(st.lists(GARBAGE, max_size=3), JSON_SCALARS.filter(lambda v: v is not None and v != "")).map(
                lambda v: ("non-object JSON", _dumps(v), NOT_OBJECT)
            )
        )
        cases.append(GARBAGE_DICT.map(lambda g: ("garbage object", g, None)))
        # every malformed dict again, sent as the JSON text a model produces
        as_dict = st.one_of(cases[: len(cases)])
        cases.append(
            as_dict.filter(lambda c: isinstance(c[1], dict)).map(lambda c: (c[0] + " (as JSON)", _dumps(c[1]), c[2]))
        )
        return st.one_of(cases)

    def _plain_kinds(self, schema: dict[str, Any]) -> set[str]:
        return {_kind(b) for b in _branches(schema, self.defs) if not _restricted(b)}

    # -- one deterministic valid call (for the corner-case table) ------------------
    def example(self) -> dict[str, Any]:
        golds = self.pool.calls.get(self.tool.name)
        if golds:
            return dict(golds[0])
        return {k: self._example_value(self.properties[k], k) for k in self.required}

    def _example_value(self, schema: dict[str, Any], key: str) -> Any:
        branches = [b for b in _branches(schema, self.defs) if _kind(b) != "null"] or [{"type": "null"}]
        branch = branches[0]
        if "const" in branch:
            return branch["const"]
        if "enum" in branch:
            return branch["enum"][0]
        samples = self.pool.values.get(key, [])
        kind = branch.get("type")
        if samples and kind in ("string", "integer", "number", "boolean"):
            return samples[0]
        if kind == "object":
            props = branch.get("properties", {})
            return {k: self._example_value(props[k], k) for k in branch.get("required", [])}
        return {"string": "x", "integer": 1, "number": 1.0, "boolean": True, "array": [], "null": None}.get(kind, "x")


def _within(value: Any, branch: dict[str, Any]) -> bool:
    return (
        ("minimum" not in branch or value >= branch["minimum"])
        and ("maximum" not in branch or value <= branch["maximum"])
        and ("exclusiveMinimum" not in branch or value > branch["exclusiveMinimum"])
        and ("exclusiveMaximum" not in branch or value < branch["exclusiveMaximum"])
    )


def _near_miss(value: str) -> st.SearchStrategy[str]:
    """A real id, slightly off: spaced, cased, zero-width, truncated."""
    return st.sampled_from(
        [f" {value} ", value.lower(), value.upper(), value + "\u200b", value[:-1], value + value[-1:], "#" + value]
    )


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


class _Pool:
    """A domain's sample values: every table key, and the scalar values used under each
    argument name by the tasks' actions (gold, required, forbidden)."""

    def __init__(self, domain: Domain) -> None:
        db = domain.initial_db
        self.keys = sorted({k for name in type(db).model_fields for k in getattr(db, name)})
        values: dict[str, list[Any]] = {}
        self.calls: dict[str, list[dict[str, Any]]] = {}

        def collect(key: str, value: Any) -> None:
            if isinstance(value, dict):
                for k, v in value.items():
                    collect(k, v)
            elif isinstance(value, list):
                for v in value:
                    collect(key, v)
            elif value not in values.setdefault(key, []):
                values[key].append(value)

        for task in domain.tasks:
            for action in (*task.gold_actions, *task.required_actions, *task.forbidden_actions):
                collect("", dict(action.arguments))
                if action in task.gold_actions and dict(action.arguments) not in self.calls.get(action.name, []):
                    self.calls.setdefault(action.name, []).append(dict(action.arguments))
        self.values = values


@cache
def _domain_pool(name: str) -> _Pool:
    return _Pool(DOMAINS[name])


@cache
def _arguments(domain: str, tool: str) -> Arguments:
    found = DOMAINS[domain]
    return Arguments(found, found.tools.get(tool) or found.user_tools[tool])


@cache
def first_gold_write(domain_name: str) -> tuple[str, dict[str, Any]] | None:
    """The first gold write of the first task whose first gold write succeeds on a fresh DB
    and changes it: replayed to give the environment a non-empty state."""
    domain = DOMAINS[domain_name]
    for task in domain.tasks:
        writes = [a for a in task.gold_actions if a.actor == "agent" and domain.tools[a.name].write]
        if writes:
            env = Environment(domain)
            call = env.call(writes[0].name, dict(writes[0].arguments))
            if not call.error and env.state.diff():
                return writes[0].name, dict(writes[0].arguments)
    return None


def new_environment(domain_name: str, dirty: bool) -> Environment:
    env = Environment(DOMAINS[domain_name])
    gold = first_gold_write(domain_name) if dirty else None
    if gold is not None:
        call = env.call(*gold)
        assert not call.error and env.state.diff(), f"the gold write {gold} no longer works: {call.result[:300]}"
    return env


# -- nothing escapes ----------------------------------------------------------------
class Escape(Exception):
    """Raised by the guard instead of touching the filesystem, a process or the network."""


_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


@contextlib.contextmanager
def guard() -> Iterator[list[str]]:
    """Make writes, deletes, subprocesses and network connections raise `Escape` (and
    tool calls that run over CALL_TIMEOUT), recording each attempt in the yielded list."""
    attempts: list[str] = []
    patches: list[tuple[Any, str, Any]] = []

    def block(what: str) -> None:
        attempts.append(what)
        raise Escape(what)

    def patch(owner: Any, name: str, replacement: Any) -> None:
        patches.append((owner, name, getattr(owner, name)))
        setattr(owner, name, replacement)

    real_open, real_os_open = builtins.open, os.open

    def guarded_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if any(c in mode for c in "wax+"):
            block(f"open({file!r}, {mode!r})")
        return real_open(file, mode, *args, **kwargs)

    def guarded_os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> Any:
        if flags & _WRITE_FLAGS:
            block(f"os.open({path!r}, {flags:#o})")
        return real_os_open(path, flags, *args, **kwargs)

    def blocked(what: str) -> Any:
        return lambda *args, **kwargs: block(f"{what}{args!r}")

    patch(builtins, "open", guarded_open)
    patch(io, "open", guarded_open)
    patch(os, "open", guarded_os_open)
    patch(os, "system", blocked("os.system"))
    patch(os, "popen", blocked("os.popen"))
    patch(subprocess, "Popen", blocked("subprocess.Popen"))
    for name in ("remove", "unlink", "rename", "replace", "mkdir", "makedirs", "rmdir"):
        patch(os, name, blocked(f"os.{name}"))
    patch(socket.socket, "connect", blocked("socket.connect"))
    patch(socket.socket, "connect_ex", blocked("socket.connect_ex"))
    patch(socket.socket, "sendto", blocked("socket.sendto"))
    patch(socket, "create_connection", blocked("socket.create_connection"))
    patch(socket, "getaddrinfo", blocked("socket.getaddrinfo"))
    timer = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    if timer:

        def on_alarm(signum: int, frame: Any) -> None:
            block(f"a call running over {CALL_TIMEOUT}s")

        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, CALL_TIMEOUT)
    try:
        yield attempts
    finally:
        if timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        for owner, name, original in reversed(patches):
            setattr(owner, name, original)


# -- the checks ---------------------------------------------------------------------
def _non_finite(value: Any, path: str = "") -> list[str]:
    if isinstance(value, float) and not math.isfinite(value):
        return [f"{path}={value}"]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _non_finite(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _non_finite(v, f"{path}[{i}]")]
    return []


def check_call(env: Environment, tool: Tool, arguments: Any, expected: str | None, what: str = "") -> ToolCall:
    """One call with every invariant checked; returns it."""
    before = env.state.diff()
    actor = "user" if tool.name in env.domain.user_tools else "agent"
    with guard() as attempts:
        call = env.call(tool.name, arguments, actor=actor)  # an exception here fails the test: calls never raise
    where = f"{env.domain.name}.{tool.name} [{what}] arguments={_short(arguments)}"
    assert not attempts, f"{where}: the call tried to escape: {attempts}"
    assert isinstance(call, ToolCall) and isinstance(call.result, str), where
    assert not call.result.startswith(crashed(tool)), f"{where}: the tool crashed: {call.result}"
    if expected is not None:
        assert call.error, f"{where}: expected {expected!r}, got a success: {call.result[:300]}"
        assert call.result.startswith(expected), f"{where}: expected {expected!r}, got {call.result[:300]!r}"
    after = env.state.diff()
    if call.error:
        assert after == before, f"{where}: a failed call changed the DB: {call.result[:300]}"
    if not tool.write:
        assert after == before, f"{where}: the read-only tool changed the DB"
    bad_numbers = _non_finite(after)
    assert not bad_numbers, f"{where}: stored non-finite numbers {bad_numbers}"
    fingerprint(after)  # the diff stays serializable
    return call


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 400 else text[:400] + f"... ({len(text)} chars)"


# -- the tests ----------------------------------------------------------------------
@pytest.mark.parametrize(("domain", "tool"), PAIRS, ids=PAIR_IDS)
def test_malformed_calls_are_clean_errors(domain: str, tool: str) -> None:
    """Properties 1-3 on hypothesis-generated malformed calls, on a clean and a changed DB."""
    spec = _arguments(domain, tool)

    @settings(FUZZ, max_examples=MALFORMED_EXAMPLES)
    @given(case=spec.malformed(), dirty=st.booleans())
    def run(case: tuple[str, Any, str | None], dirty: bool) -> None:
        what, arguments, expected = case
        env = new_environment(domain, dirty)
        check_call(env, spec.tool, arguments, expected, what)

    run()


@pytest.mark.parametrize(("domain", "tool"), PAIRS, ids=PAIR_IDS)
def test_valid_calls_never_raise(domain: str, tool: str) -> None:
    """Property 4: well-typed random calls pass validation, never raise or escape, and a
    failure changes nothing (also after a successful gold write)."""
    spec = _arguments(domain, tool)

    @settings(FUZZ, max_examples=VALID_EXAMPLES)
    @given(arguments=spec.valid_arguments(), as_json=st.booleans(), dirty=st.booleans())
    def run(arguments: dict[str, Any], as_json: bool, dirty: bool) -> None:
        env = new_environment(domain, dirty)
        sent = _dumps(arguments) if as_json else arguments
        call = check_call(env, spec.tool, sent, None, "valid")
        assert not call.result.startswith(invalid_arguments(spec.tool)), (
            f"{domain}.{tool}: the strategy made arguments the model rejects: {_short(arguments)}: {call.result}"
        )

    run()


@pytest.mark.parametrize(("domain", "tool"), PAIRS, ids=PAIR_IDS)
def test_corner_cases(domain: str, tool: str) -> None:
    """Every category of malformed call for every argument, deterministically (hypothesis
    samples a few per run; this table covers them all). Every failing case is reported."""
    spec = _arguments(domain, tool)
    bad = invalid_arguments(spec.tool)
    base = spec.example()
    cases: list[tuple[str, Any, str | None]] = [("example", base, None)]
    for key in spec.required:
        cases.append((f"missing {key}", {k: v for k, v in base.items() if k != key}, bad))
    for key, schema in spec.properties.items():
        kinds = {_kind(b) for b in _branches(schema, spec.defs)}
        if "any" in kinds:
            continue
        samples: list[Any] = []
        if "string" not in spec._plain_kinds(schema):
            samples += ["xyz"]
        if not kinds & {"integer", "number"}:
            samples += [7, -2.5]  # also wrong for a boolean: only 0 and 1 coerce
        elif "number" not in kinds:
            samples += [2.5]
        if not kinds & {"boolean", "integer", "number"}:
            samples += [True]
        if "null" not in kinds:
            samples += [None]
        if "array" not in kinds:
            samples += [[], ["x"], [[{}]]]
        if "object" not in kinds:
            samples += [{}, {"a": {"b": [1, None]}}]
        for value in samples:
            cases.append((f"wrong type for {key}", {**base, key: value}, bad))
    for extra in ("db", "__class__", "unexpected"):
        if extra not in spec.properties:
            cases.append((f"extra {extra}", {**base, extra: 1}, bad))
    cases += [("broken JSON", text, INVALID_JSON) for text in BROKEN_JSON]
    cases += [("non-object JSON", text, NOT_OBJECT) for text in NON_OBJECT_JSON]
    cases += [("non-object", value, NOT_OBJECT) for value in ([], [base], 1, 2.5, True)]
    cases += [(what + " (as JSON)", _dumps(args), exp) for what, args, exp in list(cases) if isinstance(args, dict)]
    for key, schema in spec.properties.items():  # odd but well-typed text: any clean outcome
        if "string" in spec._plain_kinds(schema):
            for text in (*INJECTIONS, *UNICODE, *ODD_DATES, *HUGE[:3]):
                cases.append((f"odd text for {key}", {**base, key: text}, None))
    failures: list[str] = []
    # a failed write must also restore the changes made before it
    for dirty in (False, True) if spec.tool.write else (False,):
        for what, arguments, expected in cases:
            try:
                check_call(new_environment(domain, dirty), spec.tool, arguments, expected, what)
            except AssertionError as exc:
                failures.append(f"{'changed DB: ' if dirty else ''}{str(exc).splitlines()[0]}")
    assert not failures, f"{len(failures)} of {len(cases)} cases fail:\n" + "\n".join(failures[:30])


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_a_gold_write_gives_a_changed_state(domain: str) -> None:
    """The 'dirty' environments above really start from a changed DB (when the domain has
    a gold write at all)."""
    gold = first_gold_write(domain)
    if gold is None:
        pytest.skip(f"{domain} has no gold write that succeeds on a fresh DB")
    assert new_environment(domain, True).state.diff()


def test_errors_do_not_echo_huge_arguments() -> None:
    """An error sent back to the model stays short whatever the model sent."""
    limit = 2_000
    offenders = []
    for domain, tool in PAIRS:
        spec = _arguments(domain, tool)
        base = spec.example()
        for key in spec.properties:
            if "string" not in spec._plain_kinds(spec.properties[key]):
                continue
            call = Environment(DOMAINS[domain]).call(tool, {**base, key: HUGE[0]})
            if call.error and len(call.result) > limit:
                offenders.append(f"{domain}.{tool}({key}=<10^5 chars>): {len(call.result)} chars")
    assert not offenders, f"{len(offenders)} errors over {limit} chars:\n" + "\n".join(offenders)


# -- the guard itself -----------------------------------------------------------------
def test_the_guard_records_escapes(tmp_path: Path) -> None:
    with guard() as attempts:
        with pytest.raises(Escape):
            open(tmp_path / "x", "w")  # noqa: SIM115 - the guard must stop the open itself
        with pytest.raises(Escape):
            (tmp_path / "y").write_text("leak")
        with pytest.raises(Escape):
            os.open(tmp_path / "z", os.O_WRONLY | os.O_CREAT)
        with pytest.raises(Escape):
            os.system("true")
        with pytest.raises(Escape):
            subprocess.run(["true"])
        with pytest.raises(Escape):
            socket.create_connection(("127.0.0.1", 9))
        with socket.socket() as sock, pytest.raises(Escape):
            sock.connect(("127.0.0.1", 9))
        open(__file__).close()  # reading is fine
    assert len(attempts) == 7
    assert not list(tmp_path.iterdir())
    assert builtins.open is io.open and os.system.__name__ == "system"  # restored


class _Row(BaseModel):
    name: str


class LeakDB(BaseModel):
    rows: dict[str, _Row]


def test_a_leaking_tool_is_caught(tmp_path: Path) -> None:
    """End to end: a tool that writes a file is recorded, and the environment's error for
    it is the crash message check_call rejects."""

    (tmp_path / "db.json").write_text('{"rows": {"a": {"name": "a"}}}')
    leaky = Domain("leaky", LeakDB, fixtures=tmp_path)

    @leaky.tool(write=True)
    def leak(db: LeakDB, path: str) -> str:
        """Write a file."""
        db.rows["a"].name = "changed"
        with open(path, "w") as f:
            f.write("leak")
        return "ok"

    env = Environment(leaky)
    with guard() as attempts:
        call = env.call("leak", {"path": str(tmp_path / "leak.txt")})
    assert attempts and call.error and call.result.startswith("Error: leak failed: Escape")
    assert env.state.diff() == {} and not (tmp_path / "leak.txt").exists()
    with pytest.raises(AssertionError, match="tried to escape"):
        check_call(Environment(leaky), leaky.tools["leak"], {"path": str(tmp_path / "leak.txt")}, None)
