"""The code in the repositories' working trees: four small libraries, each written per repository with its
own constants and package name, some with a known bug, a docs page that has drifted from the code, or a
function no test checks. `generate.py` calls `make_code`; the task builder reads `CodePlan` to know which
repository has what.

Every library has a core module, a second module that calls the core across files, a test module and
a docs page whose backticked signatures are checked against the code (`codelang.doc_mismatches`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from tests_domains.engineering.codelang import code_health

# Probe arguments by arity: what every public function is run on to fingerprint its behaviour. They
# include each planted bug's trigger (19.99 at 10% off, 101 items at 25 a page, attempt 10, status 500,
# exactly 80% used), so a fix that misses the case reaches another state.
PROBES: dict[str, list[list[Any]]] = {
    "1": [[0], [1], [7], [19.99], [250]],
    "2": [[200, 10], [19.99, 10], [101, 25], [100, 25], [0, 25], [10, 3], [5, 9], [100, 80], [10, 1], [3, 2], [2, 10], [1, 0], [7, 7]],
    "3": [[50, 2, 0], [19.99, 3, 15], [500, 1, 3], [503, 4, 5], [429, 1, 3], [404, 0, 3], [2, 10, 5], [100, 80, 3]],
}


@dataclass(frozen=True)
class Library:
    kind: str
    core: str  # module file stem of the core module
    caller: str  # module file stem of the module that calls the core
    rename: tuple[str, str]  # a core function callers use, and the name a rename gives it
    untested: str  # a caller-module function no test checks
    bug: str  # what the planted bug does, as the issue says it
    bug_fix: tuple[str, str]  # (buggy line, fixed line) in the core or caller module
    bug_file: str  # "core" or "caller"
    bug_test: str  # a regression test body line for tests/test_<core>.py ({pkg} filled in)
    doc_drift: tuple[str, str]  # (signature as the drifted doc writes it, as the code has it)


def _pricing(tax: int) -> dict[str, str]:
    return {
        "core": f'''"""Prices after discounts and tax."""

TAX_RATE = {tax}


def net_price(amount, discount_pct):
    """The amount after a percentage discount, to the cent."""
    return round(amount - amount * discount_pct / 100, 2)


def with_tax(amount):
    """The amount with TAX_RATE percent tax added, to the cent."""
    return round(amount * (100 + TAX_RATE) / 100, 2)
''',
        "caller": '''"""Invoice lines."""
from {pkg}.pricing import net_price, with_tax


def line_total(unit_price, quantity, discount_pct):
    """What one invoice line costs, tax included."""
    return with_tax(net_price(unit_price * quantity, discount_pct))


def describe_line(unit_price, quantity, discount_pct):
    """One invoice line as text."""
    return f"{quantity} x {unit_price:.2f} = {line_total(unit_price, quantity, discount_pct):.2f}"
''',
        "tests": f'''from {{pkg}}.invoice import line_total
from {{pkg}}.pricing import net_price, with_tax


def test_discount_comes_off():
    assert net_price(200, 10) == 180.0


def test_tax_is_added():
    assert with_tax(100) == {100 + tax}.0


def test_a_line_has_both():
    assert line_total(50, 2, 0) == {100 + tax}.0
''',
        "doc": f'''# Pricing

- `net_price(amount, discount_pct)`: the amount after a percentage discount, rounded to the cent.
- `with_tax(amount)`: the amount with the {tax}% tax added, rounded to the cent.
- `line_total(unit_price, quantity, discount_pct)`: one invoice line, tax included.
- `describe_line(unit_price, quantity, discount_pct)`: the line as text, e.g. "2 x 50.00 = 121.00".
''',
    }


def _paging(size: int) -> dict[str, str]:
    return {
        "core": f'''"""Splitting results into pages."""

DEFAULT_PAGE_SIZE = {size}


def page_count(total, per_page):
    """How many pages `total` results fill, the last one possibly partial."""
    return (total + per_page - 1) // per_page


def page_bounds(page, per_page):
    """The first and one-past-last result index of a page (pages count from 1)."""
    start = (page - 1) * per_page
    return [start, start + per_page]
''',
        "caller": '''"""The listing screen's pager."""
from {pkg}.paging import DEFAULT_PAGE_SIZE, page_bounds, page_count


def last_page(total):
    """The last page number of a listing (an empty listing still has page 1)."""
    return max(page_count(total, DEFAULT_PAGE_SIZE), 1)


def page_label(page, total):
    """The pager's caption."""
    return f"page {page} of {last_page(total)}"
''',
        "tests": '''from {pkg}.listing import last_page
from {pkg}.paging import page_bounds, page_count


def test_full_pages():
    assert page_count(100, 25) == 4


def test_second_page():
    assert page_bounds(2, 10) == [10, 20]


def test_an_empty_listing_has_one_page():
    assert last_page(0) == 1
''',
        "doc": f'''# Paging

- `page_count(total, per_page)`: how many pages the results fill; a partial last page counts.
- `page_bounds(page, per_page)`: the first and one-past-last index of a page; pages count from 1.
- `last_page(total)`: the last page at the default size of {size}; never less than 1.
- `page_label(page, total)`: the pager's caption, e.g. "page 2 of 7".
''',
    }


def _retry(cap: int) -> dict[str, str]:
    return {
        "core": f'''"""When to retry a failed call and how long to wait."""

MAX_DELAY = {cap}


def backoff_delay(attempt, base):
    """Seconds to wait before retry number `attempt` (from 0): doubling from `base`, at most MAX_DELAY."""
    delay = base
    for step in range(attempt):
        delay = delay * 2
    return min(delay, MAX_DELAY)


def should_retry(status, attempt, max_attempts):
    """Retry a rate limit (429) or a server error (500 and up) while attempts remain."""
    return attempt < max_attempts and (status == 429 or status >= 500)
''',
        "caller": '''"""The HTTP client's retry loop."""
from {pkg}.retry import backoff_delay, should_retry


def next_wait(status, attempt):
    """Seconds to wait before the next attempt, or -1 to give up."""
    if should_retry(status, attempt, 5):
        return backoff_delay(attempt, 1)
    return -1


def wait_plan(attempts):
    """The waits of the first `attempts` retries."""
    plan = []
    for attempt in range(attempts):
        plan = plan + [backoff_delay(attempt, 1)]
    return plan
''',
        "tests": '''from {pkg}.client import next_wait
from {pkg}.retry import backoff_delay, should_retry


def test_backoff_doubles():
    assert backoff_delay(3, 2) == 16


def test_server_errors_are_retried():
    assert should_retry(503, 1, 3)


def test_client_errors_are_not_retried():
    assert not should_retry(404, 1, 3)


def test_success_means_no_wait():
    assert next_wait(200, 0) == -1
''',
        "doc": f'''# Retries

- `backoff_delay(attempt, base)`: seconds before retry `attempt`, doubling from `base`, capped at {cap}.
- `should_retry(status, attempt, max_attempts)`: true for 429 and for 500 and above while attempts remain.
- `next_wait(status, attempt)`: the client's wait before its next attempt, or -1 to give up.
- `wait_plan(attempts)`: the list of waits of the first retries.
''',
    }


def _quota(warn: int) -> dict[str, str]:
    return {
        "core": '''"""Usage against a quota."""


def remaining(quota, used):
    """What is left of a quota (never below zero)."""
    return max(quota - used, 0)


def usage_pct(quota, used):
    """Percent of the quota used, to one decimal (a zero quota counts as full)."""
    if quota == 0:
        return 100.0
    return round(used * 100 / quota, 1)
''',
        "caller": f'''"""Quota alerts."""
from {{pkg}}.quota import remaining, usage_pct

WARN_AT_PCT = {warn}


def needs_warning(quota, used):
    """Warn once usage reaches WARN_AT_PCT percent of the quota."""
    return usage_pct(quota, used) >= WARN_AT_PCT


def status_line(quota, used):
    """The alert's text."""
    return f"{{remaining(quota, used)}} left ({{usage_pct(quota, used)}}% used)"
''',
        "tests": '''from {pkg}.alerts import needs_warning
from {pkg}.quota import remaining, usage_pct


def test_nothing_left_is_zero():
    assert remaining(5, 9) == 0


def test_percent_to_one_decimal():
    assert usage_pct(200, 50) == 25.0


def test_high_usage_warns():
    assert needs_warning(100, 95)
''',
        "doc": f'''# Quota

- `remaining(quota, used)`: what is left, never below zero.
- `usage_pct(quota, used)`: percent used, to one decimal; a zero quota counts as full.
- `needs_warning(quota, used)`: true from {warn}% used.
- `status_line(quota, used)`: the alert's text, e.g. "20 left (80.0% used)".
''',
    }


LIBRARIES = {
    "pricing": Library("pricing", "pricing", "invoice", ("net_price", "discounted_price"), "describe_line",
                       "net_price drops the cents: net_price(19.99, 10) returns 18 instead of 17.99",
                       ("    return round(amount - amount * discount_pct / 100, 2)", "    return round(amount - amount * discount_pct / 100)"),
                       "core", "    assert net_price(19.99, 10) == 17.99",
                       ("`with_tax(amount, rate)`", "`with_tax(amount)`")),
    "paging": Library("paging", "paging", "listing", ("page_count", "count_pages"), "page_label",
                      "page_count loses a partial last page: page_count(101, 25) returns 4 instead of 5",
                      ("    return (total + per_page - 1) // per_page", "    return total // per_page"),
                      "core", "    assert page_count(101, 25) == 5",
                      ("`page_bounds(page)`", "`page_bounds(page, per_page)`")),
    "retry": Library("retry", "retry", "client", ("should_retry", "is_retryable"), "wait_plan",
                     "a plain 500 is never retried: should_retry(500, 1, 3) returns false",
                     ("    return attempt < max_attempts and (status == 429 or status >= 500)",
                      "    return attempt < max_attempts and (status == 429 or status > 500)"),
                     "core", "    assert should_retry(500, 1, 3)",
                     ("`next_wait(status)`", "`next_wait(status, attempt)`")),
    "quota": Library("quota", "quota", "alerts", ("usage_pct", "percent_used"), "status_line",
                     "no warning at exactly the threshold: needs_warning(100, 80) is false where 80% should warn",
                     ("    return usage_pct(quota, used) >= WARN_AT_PCT", "    return usage_pct(quota, used) > WARN_AT_PCT"),
                     "caller", "    assert needs_warning(100, 80)",
                     ("`remaining(quota)`", "`remaining(quota, used)`")),
}
_TEXTS = {"pricing": lambda rng: _pricing(rng.choice([7, 9, 19, 20, 21, 25])),
          "paging": lambda rng: _paging(rng.choice([10, 20, 25, 50])),
          "retry": lambda rng: _retry(rng.choice([30, 60, 120])),
          "quota": lambda rng: _quota(80)}


@dataclass(frozen=True)
class CodePlan:
    """What a repository's tree holds: which library, under which package, and what is wrong with it."""

    repo: str
    package: str
    library: Library
    flaw: str  # "none", "bug", "doc_drift"

    def path(self, which: str) -> str:
        if which == "tests":
            return f"tests/test_{self.library.core}.py"
        if which == "doc":
            return f"docs/{self.library.core}.md"
        return f"src/{self.package}/{getattr(self.library, which)}.py"


def package_of(repo: str) -> str:
    return repo.rsplit("-", 1)[0].replace("-", "_")


def plan_code(repos: list[str], seed: int) -> list[CodePlan]:
    """Which library and flaw each repository gets (a pure function of the names and the seed)."""
    rng = random.Random(seed)
    kinds = sorted(LIBRARIES)
    return [CodePlan(repo, package_of(repo), LIBRARIES[rng.choice(kinds)], rng.choices(["none", "bug", "doc_drift"], [2, 1, 1])[0])
            for repo in sorted(repos)]


def make_code(plans: list[CodePlan], seed: int, day: dict[str, str]) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The `files` and `code_health` tables for these plans; `day` is when each repository's tree last changed."""
    rng = random.Random(seed)
    files: dict[str, dict[str, Any]] = {}
    health: dict[str, dict[str, Any]] = {}
    for plan in plans:
        texts = {key: value.replace("{pkg}", plan.package) for key, value in _TEXTS[plan.library.kind](rng).items()}
        if plan.flaw == "bug":
            good, bad = plan.library.bug_fix
            which = plan.library.bug_file
            assert good in texts[which], (plan.repo, good)
            texts[which] = texts[which].replace(good, bad)
        elif plan.flaw == "doc_drift":
            drifted, actual = plan.library.doc_drift
            assert actual in texts["doc"], (plan.repo, actual)
            texts["doc"] = texts["doc"].replace(actual, drifted)
        tree = {plan.path(key): text for key, text in texts.items()}
        for path, text in sorted(tree.items()):
            key = f"{plan.repo}:{path}"
            files[key] = {"file_id": key, "repo": plan.repo, "path": path, "content": text, "updated_on": day[plan.repo], "updated_by": None}
        health[plan.repo] = code_health(plan.repo, tree, tree, PROBES)
    return files, health
