"""DB differences in failure messages: full nested paths, never two identical-looking values."""

from __future__ import annotations

from typing import Any

from pytest_tau._evaluate import RecordDifference, Verdict, diff_records


def _order(status: str, note: str = "x" * 300) -> dict[str, Any]:
    items = [{"sku": f"S{i}", "status": "delivered", "note": note} for i in range(4)]
    items[2]["status"] = status
    return {"id": "O-12", "customer": {"name": "Ada", "address": {"city": "Paris"}}, "items": items}


def _lines(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    differences = diff_records({"orders": {"O-12": expected}}, {"orders": {"O-12": actual}}, lambda t, k: None)
    return Verdict(state_differences=differences).explain().splitlines()


def test_a_nested_change_names_its_full_path() -> None:
    lines = _lines(_order("returned"), _order("delivered"))
    assert "  orders['O-12'].items[2].status: expected 'returned', actual 'delivered'" in lines
    assert len(lines) == 2  # the header and the one leaf that differs, not the whole list


def test_values_that_differ_past_any_cut_are_shown_differing() -> None:
    # The old message cut both values at 120 characters and printed the same text twice.
    long_exp = "a" * 200 + "-returned"
    long_act = "a" * 200 + "-delivered"
    expected, actual = _order("returned", note=long_exp), _order("returned", note=long_act)
    lines = [line for line in _lines(expected, actual) if "expected" in line and "from gold" not in line]
    assert [line.split(":")[0].strip() for line in lines] == [f"orders['O-12'].items[{i}].note" for i in range(4)]
    for line in lines:
        shown_exp, shown_act = line.split(": expected ", 1)[1].split(", actual ")
        assert shown_exp != shown_act
        assert "returned" in shown_exp and "delivered" in shown_act
        assert len(shown_exp) < 130 and len(shown_act) < 130


def test_added_removed_and_odd_keys_are_named() -> None:
    expected = {"tags": ["a", "b"], "meta": {"a key": 1}, "level": 2}
    actual = {"tags": ["a"], "meta": {}, "level": 2, "extra": True}
    text = RecordDifference("t", "k", expected, actual).describe()
    assert text.splitlines() == [
        "t['k'].extra: expected <missing>, actual True",
        "t['k'].meta['a key']: expected 1, actual <missing>",
        "t['k'].tags[1]: expected 'b', actual <missing>",
    ]


def test_many_differences_are_capped_with_a_count() -> None:
    expected = {f"f{i}": i for i in range(12)}
    actual = {f"f{i}": -i - 1 for i in range(12)}
    lines = RecordDifference("t", "k", expected, actual).describe(limit=8).splitlines()
    assert len(lines) == 9 and lines[-1] == "... 4 more differences in t['k']"


def test_an_item_lost_from_a_list_is_named_alone() -> None:
    # Position by position, every later item would read as edited: items[1] 'b'->'c', items[2] 'c'->missing.
    text = RecordDifference("t", "k", {"tags": ["a", "b", "c", "d"]}, {"tags": ["a", "c", "d"]}).describe()
    assert text.splitlines() == ["t['k'].tags[1]: expected 'b', actual <missing>"]


def test_an_item_added_to_an_unordered_list_is_named_alone() -> None:
    # Unordered lists are compared sorted: the added hold lands first and shifts the others.
    expected = {"holds": [{"member": "M2", "rank": 1}, {"member": "M3", "rank": 2}]}
    actual = {"holds": [{"member": "M1", "rank": 3}, {"member": "M2", "rank": 1}, {"member": "M3", "rank": 2}]}
    text = RecordDifference("t", "k", expected, actual).describe()
    assert text.splitlines() == ["t['k'].holds[0]: expected <missing>, actual {'member': 'M1', 'rank': 3}"]


def test_an_item_replaced_names_the_fields_that_changed() -> None:
    expected = {"lines": [{"sku": "A", "qty": 1}, {"sku": "B", "qty": 2}, {"sku": "C", "qty": 1}]}
    actual = {"lines": [{"sku": "A", "qty": 1}, {"sku": "C", "qty": 1}, {"sku": "D", "qty": 2}]}
    text = RecordDifference("t", "k", expected, actual).describe()
    assert text.splitlines() == ["t['k'].lines[1].sku: expected 'B', actual 'D'"]


def test_the_same_items_in_another_order_show_both_orders() -> None:
    text = RecordDifference("t", "k", {"steps": ["block", "open"]}, {"steps": ["open", "block"]}).describe()
    assert text.splitlines() == ["t['k'].steps: expected ['block', 'open'], actual ['open', 'block']"]
