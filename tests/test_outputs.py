"""Required outputs: every correct phrasing is told, no wrong value and no look-alike is."""

from __future__ import annotations

import pydantic
import pytest

from pytest_tau._outputs import Kind, Output, infer_kind, near_misses, output_told, spoken

# (value, kind, what the agent told the user, told?)
PHRASINGS: list[tuple[str, Kind, str, bool]] = [
    # ---- money: the audit cases
    ("50.00", "money", "Your flight is departing 14:50.", False),
    ("3.50", "money", "3.5. Refunds are issued within 7 days.", False),
    ("100000", "money", "The coverage limit is $100k.", True),
    # ---- money: ways to say it
    ("50.00", "money", "The fee is $50.", True),
    ("50.00", "money", "The fee is $50.00.", True),
    ("50.00", "money", "The fee is 50 dollars.", True),
    ("50.00", "money", "The fee is fifty dollars.", True),
    ("50.00", "money", "The fee is **$50**.", True),
    ("50.00", "money", "The fee is USD 50.", True),
    ("50.00", "money", "The fee is 50 USD.", True),
    ("50.00", "money", "That comes to 50.", True),
    ("1234.50", "money", "Your total is $1,234.50.", True),
    ("1234.5", "money", "Your total is $1,234.50.", True),
    ("1234.50", "money", "Your total is $1234.5", True),
    ("1200", "money", "about $1.2k", True),
    ("1500000", "money", "a $1.5 million policy", True),
    ("1500000", "money", "a $1.5M policy", True),
    ("0.50", "money", "a surcharge of 50 cents", True),
    ("0.04", "money", "storage is four cents a bushel", True),
    ("0.04", "money", "storage is $.04 per bushel", True),
    ("0.40", "money", "forty cents a bushel", True),
    ("0.04", "money", "four bushels", False),
    ("4.00", "money", "four cents a bushel", False),
    ("0.04", "money", "the $.045 rate", False),
    ("-20.00", "money", "A credit of -$20 was applied.", True),
    ("-20.00", "money", "You'll get a refund of $20.", True),
    ("-20.00", "money", "A $20.00 credit was applied.", True),
    ("20.00", "money", "Statement line: -$20.00", True),
    ("20.00", "money", "The range is $10-$20.", True),
    # ---- money: things that are not the amount
    ("50.00", "money", "Your booking is on 5/24/2050.", False),
    ("24.00", "money", "Your booking is on 5/24/2026.", False),
    ("24.00", "money", "Your booking is on 2026-05-24.", False),
    ("50.00", "money", "Your order is W1250.", False),
    ("50.00", "money", "See order #50.", False),
    ("8.20", "money", "Per §8.2 we cannot refund.", False),
    ("3.50", "money", "Under section 3.5 we cannot refund.", False),
    ("3.50", "money", "## 3.5 Refunds", False),
    ("50.00", "money", "You get 50% off.", False),
    ("50.00", "money", "You get 50 percent off.", False),
    ("50.00", "money", "The fee is $150.", False),
    ("50.00", "money", "The fee is $50.01.", False),
    ("50.00", "money", "The fee is $1,050.", False),
    ("50.00", "money", "Call (800) 555-0050.", False),
    ("555.00", "money", "Call 800-555-1249.", False),
    ("50.00", "money", "It is the 50th anniversary.", False),
    ("50.00", "money", "fifty nights", False),
    ("50.00", "money", "The fee is 5,50 EUR.", False),
    ("1234.50", "money", "$1,234.51", False),
    ("1234.50", "money", "$1.2k", False),
    # ---- number
    ("3", "number", "You have 3 bags.", True),
    ("3", "number", "You have three bags.", True),
    ("2", "number", "A stay of two nights.", True),
    ("12", "number", "Twelve passengers.", True),
    ("25", "number", "twenty-five seats", True),
    ("40", "number", "forty points", True),
    ("3", "number", "a 3-night stay", True),
    ("1", "number", "You have one checked bag.", True),
    ("1", "number", "Please hold on, one moment.", False),
    ("1", "number", "That is the one you booked.", False),
    ("1", "number", "No one can change it.", False),
    ("3.5", "number", "3.50 hours", True),
    ("100000", "number", "100,000 miles", True),
    ("3", "number", "It departs at 3:45.", False),
    ("3", "number", "It departs on 2026-03-01.", False),
    ("3", "number", "Order W3 is late.", False),
    ("3", "number", "You earned 3.5 points.", False),
    ("3", "number", "You earned 13 points.", False),
    ("3", "number", "It departs at 3 PM.", False),
    ("3", "number", "It departs at 3pm.", False),
    ("3", "number", "a 3% fee", False),
    ("3", "number", "It is the 3rd bag.", False),
    ("3", "number", "3. Bags are free.", False),
    ("3", "number", "It departs on March 3.", False),
    ("4", "number", "It departs at quarter to four.", False),
    ("20", "number", "twenty-five seats", False),
    ("1", "number", "a one-way ticket", False),
    ("12", "number", "See you at 12 noon.", False),
    ("1249", "number", "Call (800) 555-1249.", False),
    ("800", "number", "Call +1 800 555 1249.", False),
    ("21", "number", "twenty one nights", True),
    ("5", "number", "five one-way tickets", True),
    # ---- percent
    ("12.5", "percent", "The rate is 12.5%.", True),
    ("12.5", "percent", "The rate is 12.5 percent.", True),
    ("12.5", "percent", "The rate is 12.5 per cent.", True),
    ("12.5", "percent", "The rate is 12.50%.", True),
    ("10", "percent", "a ten percent discount", True),
    ("12.5", "percent", "A rate of 12.5 applies.", False),
    ("12.5", "percent", "The rate is 112.5%.", False),
    ("12.5", "percent", "The rate is 12.6%.", False),
    ("12", "percent", "The rate is 12.5%.", False),
    # ---- date: the audit case and the ways to say it
    ("2026-05-24", "date", "You fly May 24th.", True),
    ("2026-05-24", "date", "You fly 2026-05-24.", True),
    ("2026-05-24", "date", "You fly May 24, 2026.", True),
    ("2026-05-24", "date", "You fly 24 May.", True),
    ("2026-05-24", "date", "You fly on the 24th of May.", True),
    ("2026-05-24", "date", "You fly Sunday, May 24.", True),
    ("2026-05-24", "date", "You fly 5/24/2026.", True),
    ("2026-05-24", "date", "You fly 05/24/2026.", True),
    ("2026-05-24", "date", "You fly 5/24.", True),
    ("2026-05-24", "date", "You fly 5/24/26.", True),
    ("2026-05-24", "date", "You fly May 24 2026.", True),
    ("2026-05-24", "date", "You fly 24/5/2026.", True),
    ("2026-09-03", "date", "You fly Sept. 3.", True),
    ("2026-09-03", "date", "You fly Sep 3rd, 2026.", True),
    ("2026-05-24", "date", "You fly May 24, 2025.", False),
    ("2026-05-24", "date", "You fly May 25.", False),
    ("2026-05-24", "date", "You fly May 241 miles.", False),
    ("2026-05-24", "date", "You fly June 24.", False),
    ("2026-05-24", "date", "You fly 5/25/2026.", False),
    ("2026-05-24", "date", "You fly 2026-05-25.", False),
    ("2026-05-04", "date", "You fly 5/24.", False),
    ("2026-03-05", "date", "You fly 5/3/2026.", False),
    # ---- time: the audit cases
    ("15:45", "time", "Boarding is at 3:45 PM.", True),
    ("08:45", "time", "Boarding is at 8:45.", True),
    ("12:00", "time", "Check-in opens at noon.", True),
    # ---- time: the ways to say it
    ("15:45", "time", "Boarding is at 15:45.", True),
    ("15:45", "time", "Boarding is at 3:45pm.", True),
    ("15:45", "time", "Boarding is at 3:45 p.m.", True),
    ("15:45", "time", "Boarding is at quarter to four.", True),
    ("15:45", "time", "Boarding is at 3:45.", True),
    ("08:45", "time", "Boarding is at 8:45 AM.", True),
    ("08:45", "time", "Boarding is at 08:45.", True),
    ("20:45", "time", "Boarding is at 8:45.", True),
    ("12:00", "time", "Check-in opens at 12 PM.", True),
    ("12:00", "time", "Check-in opens at 12:00 PM.", True),
    ("00:00", "time", "Check-in closes at midnight.", True),
    ("15:00", "time", "Check-in opens at 3 PM.", True),
    ("15:00", "time", "Check-in opens at 3pm.", True),
    ("15:30", "time", "Check-in opens at half past three.", True),
    ("15:45", "time", "Boarding is at a quarter to four pm.", True),
    ("03:45", "time", "Boarding is at a quarter to four pm.", False),
    ("15:45", "time", "Departure 2026-05-24T15:45:00.", True),
    ("15:45", "time", "Boarding is at 3:46 PM.", False),
    ("15:45", "time", "Boarding is at 3:45 AM.", False),
    ("15:45", "time", "Boarding is at 13:45.", False),
    ("15:45", "time", "Boarding is at 03:45.", False),
    ("08:45", "time", "Boarding is at 20:45.", False),
    ("08:45", "time", "Boarding is at 8:45 PM.", False),
    ("12:00", "time", "It is past midnight.", False),
    ("12:00", "time", "It is this afternoon.", False),
    ("15:00", "time", "It costs $3.", False),
    # ---- phone
    ("800-555-1249", "phone", "Call (800) 555-1249.", True),
    ("800-555-1249", "phone", "Call 800.555.1249.", True),
    ("800-555-1249", "phone", "Call 8005551249.", True),
    ("800-555-1249", "phone", "Call +1 800 555 1249.", True),
    ("800-555-1249", "phone", "Call 1-800-555-1249.", True),
    ("(800) 555-1249", "phone", "Call 800-555-1249.", True),
    ("800-555-1249", "phone", "Call (800) 555-1248.", False),
    ("800-555-1249", "phone", "Call 800-555-12490.", False),
    ("800-555-1249", "phone", "Call 900-555-1249.", False),
    # ---- code
    ("W1234567", "code", "Your order W1234567 shipped.", True),
    ("W1234567", "code", "Your order #W1234567 shipped.", True),
    ("W1234567", "code", "Your order `w1234567` shipped.", True),
    ("#W-1234567", "code", "Your order W1234567 shipped.", True),
    ("CONF-8K2P", "code", "Confirmation conf8k2p.", True),
    ("CONF-8K2P", "code", "Confirmation CONF 8K2P.", True),
    ("W1234567", "code", "Your order W12345678 shipped.", False),
    ("W1234567", "code", "Your order XW1234567 shipped.", False),
    ("W1234567", "code", "Your order W1234568 shipped.", False),
    ("CONF-8K2P", "code", "Confirmation CONF-8K2P-2.", False),
    # ---- name and text
    ("Dr. Alana Jones", "name", "Your doctor is Dr Alana Jones.", True),
    ("Dr. Alana Jones", "name", "Your doctor is DR. ALANA JONES.", True),
    ("Dr. Alana Jones", "name", "Your doctor is Alana Jones.", True),
    ("Dr. Jones", "name", "Ask for Dr Jones.", True),
    ("José Núñez", "name", "Ask for Jose Nunez.", True),
    ("Dr. Alana Jones", "name", "Your doctor is Dr. Alana Smith.", False),
    ("Dr. Alana Jones", "name", "Your doctor is Alana Jonesy.", False),
    ("Gold tier", "text", "You are in the **Gold** tier.", True),
    ("Gold tier", "text", "You are now Gold tier.", True),
    ("Gold tier", "text", "You are now GOLD\u00a0TIER.", True),
    ("Gold", "text", "Ask Goldman Sachs.", False),
    ("Gold", "text", "You are \u201cGold\u201d now.", True),
    # ---- look-alikes a word pattern used to accept: another release, a longer word, a negation
    ("3.5.0", "text", "We released 3.5.0.1 last night.", False),
    ("3.5.0", "text", "We released 3.5.0-rc1 last night.", False),
    ("3.5.0", "text", "We tagged release v3.5.0.", True),
    ("3.5.0", "text", "Version 3.5.0 is live.", True),
    ("UPS", "name", "Book your annual check-ups.", False),
    ("UPS", "name", "It ships with UPS.", True),
    ("Dana Whitfield", "name", "I spoke with Dana Whitfield-Smith.", False),
    ("Dana Whitfield", "name", "That is Dana Whitfield's file.", True),
    ("O'Brien", "name", "Ask Mr. O\u2019Brien.", True),
    ("pending", "text", "The claim is no longer pending.", False),
    ("pending", "text", "The claim isn't pending any more.", False),
    ("pending", "text", "The claim is still pending.", True),
    # ---- a ratio stored as a fraction is said as a percent
    ("0.79", "number", "The model's AUC is 79%.", True),
    ("0.79", "number", "The model's AUC is 0.79.", True),
    ("0.79", "number", "The model's AUC is 78%.", False),
]


@pytest.mark.parametrize(("value", "kind", "text", "expected"), PHRASINGS)
def test_phrasing(value: str, kind: Kind, text: str, expected: bool) -> None:
    assert output_told(Output(value=value, kind=kind), text) is expected


def test_table_covers_every_kind_both_ways() -> None:
    assert len(PHRASINGS) >= 120
    assert len({(kind, expected) for _, kind, _, expected in PHRASINGS}) == 2 * 9


# Outputs used for the round trips; each kind with a few shapes (whole, cents, negative, edge times).
SAMPLES = [
    Output(value="1234.50", kind="money"),
    Output(value="100000", kind="money"),
    Output(value="50.00", kind="money"),
    Output(value="0.99", kind="money"),
    Output(value="-20.00", kind="money"),
    Output(value="12", kind="number"),
    Output(value="3.5", kind="number"),
    Output(value="1500000", kind="number"),
    Output(value="0", kind="number"),
    Output(value="12.5", kind="percent"),
    Output(value="20", kind="percent"),
    Output(value="2026-05-24", kind="date"),
    Output(value="2026-01-31", kind="date"),
    Output(value="2028-02-29", kind="date"),
    Output(value="2026-12-31", kind="date"),
    Output(value="15:45", kind="time"),
    Output(value="08:45", kind="time"),
    Output(value="12:00", kind="time"),
    Output(value="00:00", kind="time"),
    Output(value="15:00", kind="time"),
    Output(value="23:59", kind="time"),
    Output(value="800-555-1249", kind="phone"),
    Output(value="+1 (212) 555-0100", kind="phone"),
    Output(value="+44 20 7946 0958", kind="phone"),
    Output(value="W1234567", kind="code"),
    Output(value="#W-1234567", kind="code"),
    Output(value="CONF-8K2P", kind="code"),
    Output(value="Dr. Alana Jones", kind="name"),
    Output(value="Gold", kind="name"),
    Output(value="Gold tier", kind="text"),
]


@pytest.mark.parametrize("output", SAMPLES, ids=str)
@pytest.mark.parametrize("variant", range(4))
def test_spoken_is_told(output: Output, variant: int) -> None:
    said = spoken(output, variant)
    assert output_told(output, said), said
    assert output_told(output, f"Sure! It is {said}. Anything else?"), said


@pytest.mark.parametrize("output", SAMPLES, ids=str)
def test_spoken_differs_from_the_stored_form(output: Output) -> None:
    assert spoken(output) != output.value
    assert [spoken(output, v) for v in range(8)] == [spoken(output, v) for v in range(8)]  # deterministic
    assert len({spoken(output, v) for v in range(4)}) >= 2  # variants really vary


def test_spoken_examples() -> None:
    assert spoken(Output(value="1234.50", kind="money")) == "$1,234.50"
    assert spoken(Output(value="15:45", kind="time")) == "3:45 PM"
    assert spoken(Output(value="2026-05-24", kind="date")) == "May 24th, 2026"
    assert spoken(Output(value="800-555-1249", kind="phone")) == "(800) 555-1249"


@pytest.mark.parametrize("output", SAMPLES, ids=str)
def test_near_misses_are_rejected(output: Output) -> None:
    misses = near_misses(output)
    assert len(misses) >= 2
    for miss in misses:
        assert not output_told(output, miss), miss
        assert not output_told(output, f"Sure! It is {miss}. Anything else?"), miss


def test_near_miss_examples() -> None:
    assert near_misses(Output(value="15:45", kind="time"))[:3] == ["3:46 PM", "3:44 PM", "3:45 AM"]
    assert near_misses(Output(value="1234.50", kind="money"))[::2] == ["$1,234.51", "$1,235.50"]
    assert "May 25th, 2026" in near_misses(Output(value="2026-05-24", kind="date"))
    assert "June 24th, 2026" in near_misses(Output(value="2026-05-24", kind="date"))
    assert "W12345678" in near_misses(Output(value="W1234567", kind="code"))
    assert "Goldman" in near_misses(Output(value="Gold", kind="name"))


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("2026-05-24", "date"),
        ("15:45", "time"),
        ("8:45", "time"),
        ("1234.50", "money"),
        ("$50", "money"),
        ("1,234.50", "money"),
        ("12", "number"),
        ("3.5", "number"),
        ("100000", "number"),
        ("12.5%", "percent"),
        ("800-555-1249", "phone"),
        ("(800) 555-1249", "phone"),
        ("+1 800 555 1249", "phone"),
        ("W1234567", "code"),
        ("#W-1234567", "code"),
        ("CONF-8K2P", "code"),
        ("Dr. Alana Jones", "name"),
        ("Gold", "name"),
        ("Gold tier", "text"),
        ("refund issued", "text"),
        ("2026-02-30", "text"),
        ("25:00", "text"),
    ],
)
def test_infer_kind(value: str, kind: Kind) -> None:
    assert infer_kind(value) == kind


@pytest.mark.parametrize(
    ("value", "kind"),
    [("fifty", "money"), ("2026-13-01", "date"), ("May 24", "date"), ("24:00", "time"), ("555-12", "phone"), ("--", "code"), ("...", "name"), ("", "text")],
)
def test_output_rejects_values_not_of_their_kind(value: str, kind: Kind) -> None:
    with pytest.raises(pydantic.ValidationError):
        Output(value=value, kind=kind)


def test_output_is_frozen_strict_and_printable() -> None:
    output = Output(value="15:45", kind="time")
    assert str(output) == "15:45 (time)"
    with pytest.raises(pydantic.ValidationError):
        output.value = "16:00"  # type: ignore[misc]
    with pytest.raises(pydantic.ValidationError):
        Output(value="15:45", kind="time", note="x")  # type: ignore[call-arg]
    with pytest.raises(pydantic.ValidationError):
        Output.model_validate({"value": "15:45", "kind": "clock"})


def test_found_in_a_long_answer() -> None:
    text = (
        "Thanks for waiting. I checked reservation W7654321 under §4.2 of the policy.\n"
        "1. Your flight departs at 14:50 on 5/24/2026 from gate 12.\n"
        "2. The change fee is **$75.00**, a 3% surcharge applies, and your new total is $1,204.50.\n"
        "Call (800) 555-1249 with questions. Dr. Alana Jones approved it.\n"
    ) * 8
    assert output_told(Output(value="1204.5", kind="money"), text)
    assert output_told(Output(value="75", kind="money"), text)
    assert output_told(Output(value="14:50", kind="time"), text)
    assert not output_told(Output(value="02:50", kind="time"), text)
    assert output_told(Output(value="2026-05-24", kind="date"), text)
    assert output_told(Output(value="12", kind="number"), text)
    assert output_told(Output(value="3", kind="percent"), text)
    assert not output_told(Output(value="50.00", kind="money"), text)
    assert not output_told(Output(value="4.20", kind="money"), text)
    assert not output_told(Output(value="2", kind="number"), text)
    assert not output_told(Output(value="24", kind="number"), text)
    assert not output_told(Output(value="7654321", kind="code"), text)
    assert not output_told(Output(value="3", kind="number"), text)
    assert not output_told(Output(value="approve", kind="text"), text)


def test_a_pull_request_id_is_told_with_its_hash() -> None:
    pr = Output(value="reports-api#30", kind="code")
    assert output_told(pr, "I opened **reports-api#30** for you.")
    assert output_told(pr, "PR reports-api #30 is open and CI passed.")
    assert not output_told(pr, "reports-api#31") and not output_told(pr, "reports-api#300")
