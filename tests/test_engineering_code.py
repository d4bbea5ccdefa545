"""The engineering desk's code interpreter: runs the subset, refuses everything else, always ends."""

from __future__ import annotations

import pytest

from tests_domains.engineering.codelang import Program, RunError

FEES = '''"""Fees."""
from billing.rates import RATE

def fee(amount, express=False):
    base = round(amount * RATE, 2)
    if express:
        base += 5
    return base

def label(amount):
    return f"{fee(amount):.2f} EUR"
'''
RATES = "RATE = 0.05\n"
TESTS = '''from billing.fees import fee, label

def test_fee():
    assert fee(100) == 5.0

def test_express():
    assert fee(100, express=True) == 10.0

def test_label_wrong():
    assert label(100) == "5 EUR"

def test_missing():
    assert nothing(1) == 1
'''


def program(**extra: str) -> Program:
    files = {"src/billing/fees.py": FEES, "src/billing/rates.py": RATES, "tests/test_fees.py": TESTS, "docs/fees.md": "`fee(amount)`"}
    files.update(extra)
    return Program(files)


def test_calls_across_modules_with_defaults_and_keywords() -> None:
    p = program()
    assert p.call("billing.fees", "fee", [200]) == 10.0
    assert p.call("billing.fees", "label", [10]) == "0.50 EUR"
    assert [f.name for f in p.functions() if f.module == "billing.fees"] == ["fee", "label"]


def test_tests_pass_fail_and_error_with_their_reasons() -> None:
    results = {r.name: r for r in program().run_tests()}
    assert results["test_fee"].status == "passed"
    assert results["test_express"].status == "passed"
    assert results["test_label_wrong"].status == "failed"
    assert "left: '5.00 EUR', right: '5 EUR'" in results["test_label_wrong"].message
    assert results["test_missing"].status == "error" and "'nothing' is not defined" in results["test_missing"].message


def test_unresolved_names_after_a_rename() -> None:
    renamed = FEES.replace("def fee(", "def compute_fee(").replace("{fee(", "{compute_fee(")
    p = program(**{"src/billing/fees.py": renamed})
    problems = p.unresolved()
    assert any("imports 'fee' from 'billing.fees'" in line for line in problems)
    assert any("'nothing' is not defined" in line for line in problems)
    assert {r.name: r.status for r in p.run_tests()}["test_fee"] == "error"


@pytest.mark.parametrize(
    "source",
    [
        "import os\n",
        "from os import path as p\n",
        "def f():\n    return open('x')\n",  # allowed to parse, refused when run (not a builtin here)
        "def f():\n    return ().__class__\n",
        "def f():\n    return [x for x in range(3)]\n",
        "def f():\n    while True:\n        pass\n",
        "def f():\n    return lambda: 1\n",
        "@decorator\ndef f():\n    return 1\n",
        "class A:\n    pass\n",
        "x = len('a')\n",
        "def f(*args):\n    return args\n",
        "def f():\n    try:\n        return 1\n    except Exception:\n        return 2\n",
    ],
)
def test_outside_the_subset_never_runs(source: str) -> None:
    p = Program({"src/m.py": source})
    if "src/m.py" in p.broken:
        return
    assert p.outcome("m", "f", []) == "error"


@pytest.mark.parametrize(
    "body",
    [
        "    for i in range(10000):\n        x = i\n        y = x\n    return 1\n",  # step budget
        "    return f()\n",  # endless recursion
        "    return 'a' * 100000\n",
        "    return 10 ** 10\n",
        "    return 99999999999 * 99999999999\n",
        "    return f'{1:99999999}'\n",
        "    return ('a' * 5000).replace('a', 'aaaaaaaaaa')\n",
    ],
)
def test_runaway_code_ends_as_an_error(body: str) -> None:
    p = Program({"src/m.py": "def f():\n" + body})
    with pytest.raises(RunError):
        p.call("m", "f", [])


def test_outcome_is_a_behaviour_fingerprint() -> None:
    a = Program({"src/m.py": "def net(x, d):\n    return x - x * d / 100\n"})
    b = Program({"src/m.py": "def net(x, d):\n    factor = 1 - d / 100\n    return x * factor\n"})
    probes = [[100, 10], [80, 25], [0, 50]]
    assert [a.outcome("m", "net", p) for p in probes] == [b.outcome("m", "net", p) for p in probes]
    assert a.outcome("m", "net", ["x", 1]) == "error"


def test_a_stubbed_function_shows_which_tests_notice() -> None:
    p = program()
    stubbed = {r.name: r.status for r in p.stubbed("billing.fees", "label").run_tests()}
    assert stubbed["test_fee"] == "passed" and stubbed["test_label_wrong"] == "failed"
    assert {r.name: r.status for r in p.run_tests()}["test_fee"] == "passed"  # the original is untouched
