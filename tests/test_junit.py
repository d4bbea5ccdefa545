"""--junitxml: a testcase per item with properties, pass^k on the suite, no rerun duplicates."""

from __future__ import annotations

import xml.etree.ElementTree as ET


def read_suite(tau):
    return ET.parse(tau.path / "junit.xml").getroot().find("testsuite")


def test_testcase_per_item_with_properties(tau) -> None:
    tau.run("--trials", "2", "--junitxml", "junit.xml").assert_outcomes(passed=6)
    suite = read_suite(tau)
    cases = suite.findall("testcase")
    assert sorted(c.get("name") for c in cases) == sorted(
        f"test_toy[toy-{task}-t{trial}]" for task in ("fines_then_loan", "loan_dune", "refuse_loaned") for trial in (0, 1)
    )
    props = {p.get("name"): p.get("value") for p in cases[0].find("properties")}
    assert set(props) == {"reward", "domain", "task", "trial", "cost", "turns", "end_reason"}
    assert props["reward"] == "1" and props["domain"] == "toy"
    suite_props = {p.get("name"): p.get("value") for p in suite.find("properties")}
    assert suite_props["tau.pass^1"] == "1.000" and suite_props["tau.pass^2"] == "1.000"
    assert suite_props["tau.toy.pass^2"] == "1.000" and suite_props["tau.items"] == "6"


def test_failure_message_names_records_outputs_and_actions(tau) -> None:
    tau.run("--agent-strategy", "do-nothing", "--junitxml", "junit.xml").assert_outcomes(failed=3)
    cases = {c.get("name"): c for c in read_suite(tau).findall("testcase")}
    fines = cases["test_toy[toy-fines_then_loan-t0]"].find("failure").get("message")
    assert "members['M2']:" in fines and "fines: expected 0.0, actual 4.5" in fines
    assert "required outputs never told to the user: '4.50'" in fines
    refuse = cases["test_toy[toy-refuse_loaned-t0]"].find("failure").get("message")
    assert "required actions never made: transfer_to_human_agents()" in refuse


def test_reruns_leave_one_testcase_per_item(tau) -> None:
    result = tau.run("--agent-strategy", "do-nothing", "--reruns", "2", "--junitxml", "junit.xml")
    assert result.parseoutcomes() == {"failed": 3, "rerun": 6}
    names = [c.get("name") for c in read_suite(tau).findall("testcase")]
    assert len(names) == len(set(names)) == 3
    lines = (tau.run_dir / "results.jsonl").read_text().splitlines()
    assert len(lines) == 3  # reruns are not results
