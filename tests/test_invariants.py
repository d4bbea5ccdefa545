"""Data invariants: the helpers find the records that break them, and validate runs them."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from pydantic import BaseModel

from pytest_tau import Domain, Table
from pytest_tau._invariants import run_invariants
from pytest_tau._validity import CHECKS
from pytest_tau.invariants import (
    after_now,
    area_codes_valid,
    cents,
    consistent,
    half_up,
    no_typos,
    not_after_now,
    ordered,
    plausible_age,
    vin_check_digit,
    vins_valid,
    with_vin_check_digit,
    zip_matches_state,
)

NOW = dt.datetime(2026, 6, 10, 10, 0)


class Scan(BaseModel):
    at: str


class Shipment(BaseModel):
    id: str
    created_at: str
    scans: list[Scan]
    pickup_on: str | None = None
    fee: float
    base: float
    city: str
    zip: str
    state: str
    phone: str
    shipper: str


class Member(BaseModel):
    id: str
    birth_date: dt.date
    joined_on: dt.date


class DB(BaseModel):
    shipments: Table[Shipment]
    members: Table[Member]


def _ship(key: str, **changes: object) -> Shipment:
    fields: dict[str, object] = {
        "id": key, "created_at": "2026-06-01T08:00", "scans": [{"at": "2026-06-02T09:00"}], "pickup_on": "2026-06-11",
        "fee": 4468.02, "base": 4468.015, "city": "Portland", "zip": "97205", "state": "OR",
        "phone": "(503) 555-0100", "shipper": "Acme Freight Inc.",
    }
    return Shipment.model_validate(fields | changes)


def _problems(invariant, **tables) -> list[str]:
    db = DB.model_validate({"shipments": {}, "members": {}} | {name: {k: v.model_dump() for k, v in rows.items()} for name, rows in tables.items()})
    return run_invariants([invariant], db, NOW)


def test_a_clean_record_breaks_nothing() -> None:
    good = {"s1": _ship("s1")}
    for invariant in (
        not_after_now("shipments", "scans[].at"),
        after_now("shipments", "pickup_on"),
        ordered("shipments", "created_at", "scans[].at"),
        cents("shipments", "fee", computed=lambda rec, db: Decimal(str(rec.base))),
        consistent("shipments", "zip", "city", "state"),
        zip_matches_state("shipments", "zip", "state"),
        area_codes_valid("shipments", "phone"),
        no_typos("shipments", "shipper", "city"),
    ):
        assert _problems(invariant, shipments=good) == [], invariant.name


def test_each_helper_names_the_record_that_breaks_it() -> None:
    assert "scans[].at = 2026-06-10T10:01 is after now" in _problems(not_after_now("shipments", "scans[].at"), shipments={"s1": _ship("s1", scans=[{"at": "2026-06-10T10:01"}])})[0]
    assert _problems(after_now("shipments", "pickup_on"), shipments={"s1": _ship("s1", pickup_on="2026-06-09")})
    assert _problems(after_now("shipments", "pickup_on"), shipments={"s1": _ship("s1", pickup_on=None)}) == []  # not recorded
    assert _problems(ordered("shipments", "created_at", "scans[].at"), shipments={"s1": _ship("s1", scans=[{"at": "2026-05-31T09:00"}])})
    assert "rounds half-up to 4468.02" in _problems(cents("shipments", "fee", computed=lambda rec, db: Decimal("4468.015")), shipments={"s1": _ship("s1", fee=4468.01)})[0]
    assert "not a whole number of cents" in _problems(cents("shipments", "fee"), shipments={"s1": _ship("s1", fee=1.005)})[0]
    two_cities = {"s1": _ship("s1"), "s2": _ship("s2", city="Salem")}
    assert _problems(consistent("shipments", "zip", "city", "state"), shipments=two_cities)
    assert "is in OR, not WA" in _problems(zip_matches_state("shipments", "zip", "state"), shipments={"s1": _ship("s1", state="WA")})[0]
    for phone in ("(193) 555-0100", "(911) 555-0100", "(595) 555-0100", "(503) 055-0100", "503-555-010"):
        assert _problems(area_codes_valid("shipments", "phone"), shipments={"s1": _ship("s1", phone=phone)}), phone
    for name in ("Acme Freight Inc..", "Acme  Freight", "Acme , Freight"):
        assert _problems(no_typos("shipments", "shipper"), shipments={"s1": _ship("s1", shipper=name)}), name


def test_plausible_age_at_a_date_of_the_record() -> None:
    def member(born: str, joined: str) -> dict[str, Member]:
        return {"m1": Member(id="m1", birth_date=dt.date.fromisoformat(born), joined_on=dt.date.fromisoformat(joined))}

    invariant = plausible_age("members", "birth_date", at="joined_on", low=18)
    assert _problems(invariant, members=member("1990-06-10", "2008-06-10")) == []  # 18 that day
    assert "age 17" in _problems(invariant, members=member("1990-06-11", "2008-06-10"))[0]
    assert "age -1" in _problems(invariant, members=member("2001-01-01", "2000-01-01"))[0]


def test_half_up_rounds_half_a_cent_up() -> None:
    assert half_up(Decimal("4468.015")) == Decimal("4468.02")
    assert half_up("2.675") == Decimal("2.68")  # round(2.675, 2) is 2.67 in binary floats


def test_a_vin_carries_its_check_digit() -> None:
    # published examples: the ninth character is the check digit, X standing for 10
    assert vin_check_digit("1M8GDM9AXKP042788") == "X"
    assert vin_check_digit("1HGCM82633A004352") == "3"
    assert with_vin_check_digit("1HGCM82603A004352") == "1HGCM82633A004352"
    invariant = vins_valid("shipments", "shipper")  # any text field serves to hold the VIN here
    assert _problems(invariant, shipments={"s1": _ship("s1", shipper="1HGCM82633A004352")}) == []
    assert "check digit 0, but its other characters give 3" in _problems(invariant, shipments={"s1": _ship("s1", shipper="1HGCM82603A004352")})[0]
    for bad in ("1HGCM82633A00435", "1HGCM82633AO04352"):  # 16 characters; a letter O
        assert "not 17 characters" in _problems(invariant, shipments={"s1": _ship("s1", shipper=bad)})[0], bad


def test_validate_runs_what_a_domain_declares(tmp_path) -> None:
    domain = Domain("shop", DB, now=NOW, fixtures=tmp_path)
    (tmp_path / "db.json").write_text('{"shipments": {}, "members": {"m1": {"id": "m1", "birth_date": "2020-01-01", "joined_on": "2019-01-01"}}}')
    (tmp_path / "tasks.json").write_text('{"tasks": [{"id": "t1", "user": {"instructions": "You are a customer of Acme Co.. You want help.", "script": ["Hi."]}, "gold_actions": [], "required_outputs": [{"value": "1", "kind": "number"}]}]}')
    domain.invariants(plausible_age("members", "birth_date", at="joined_on", low=18))

    @domain.invariant
    def everyone_named(db, now):
        """every member has an id"""
        yield from (f"{key} has none" for key, member in db.members.items() if not member.id)

    problems = CHECKS["data_invariants"](domain)
    assert len(problems) == 2 and problems[0].startswith("members: age from birth_date at joined_on in 18..110: members['m1']: age -1 ")
    assert problems[1].startswith("task t1: instructions has a typo") and "Co.." in problems[1]


def test_the_task_writer_ends_a_sentence_on_an_abbreviation_with_one_period() -> None:
    from pytest_tau._authoring import _tidy

    assert _tidy("a dispute with Wapato Cold Storage Inc.. You") == "a dispute with Wapato Cold Storage Inc. You"
    assert _tidy("Well... fine.") == "Well... fine."


def test_a_declaration_naming_a_missing_field_is_a_problem_not_a_crash() -> None:
    problems = _problems(not_after_now("shipments", "shipped_at"), shipments={"s1": _ship("s1")})
    assert len(problems) == 1 and "cannot run" in problems[0] and "shipped_at" in problems[0]
