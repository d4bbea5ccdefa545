"""--junitxml: one testcase per item; per-item data where the family's schema allows it; the run's
identity and pass^k on the suite; valid against Jenkins' junit-10.xsd under xunit2."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pytest_tau.testing import Faults, OpenAIServer, OracleModel, Reply

XSD = Path(__file__).parent / "data" / "jenkins-junit-10.xsd"


def read_suite(tau):
    return ET.parse(tau.path / "junit.xml").getroot().find("testsuite")


def assert_valid_junit_10(path: Path) -> None:
    from lxml import etree

    schema = etree.XMLSchema(etree.parse(str(XSD)))
    document = etree.parse(str(path))
    assert schema.validate(document), schema.error_log


def fields(case: ET.Element) -> dict[str, str]:
    lines = (case.find("system-out").text or "").splitlines()
    return dict(line[len("tau."):].split("=", 1) for line in lines if line.startswith("tau."))


def test_xunit2_validates_against_jenkins_junit_10(tau) -> None:
    tau.run("--trials", "2", "--junitxml", "junit.xml").assert_outcomes(passed=6)
    assert_valid_junit_10(tau.path / "junit.xml")
    suite = read_suite(tau)
    cases = suite.findall("testcase")
    assert sorted(c.get("name") for c in cases) == sorted(
        f"test_toy[toy-{task}-t{trial}]" for task in ("fines_then_loan", "loan_dune", "refuse_loaned") for trial in (0, 1)
    )
    assert all(c.find("properties") is None for c in cases)
    data = fields(cases[0])
    assert set(data) == {"reward", "status", "domain", "task", "trial", "cost", "turns", "end_reason"}
    assert data["reward"] == "1" and data["domain"] == "toy"
    suite_props = {p.get("name"): p.get("value") for p in suite.find("properties")}
    assert suite_props["tau.pass^1"] == "1.000" and suite_props["tau.pass^2"] == "1.000"
    assert suite_props["tau.toy.pass^2"] == "1.000" and suite_props["tau.items"] == "6"
    assert suite_props["tau.agent_strategy"] == "oracle" and suite_props["tau.user_strategy"] == "scripted"
    assert suite_props["tau.trials"] == "2" and suite_props["tau.seed"] == "0"
    assert suite_props["tau.model"].startswith("none")


@pytest.mark.parametrize("family", ["xunit1", "legacy"])
def test_testcase_properties_only_under_xunit1(tau, family) -> None:
    tau.run("--junitxml", "junit.xml", "-o", f"junit_family={family}").assert_outcomes(passed=3)
    cases = read_suite(tau).findall("testcase")
    props = {p.get("name"): p.get("value") for p in cases[0].find("properties")}
    assert props["reward"] == "1" and props["domain"] == "toy" and props["trial"] == "0"


def test_failure_message_names_records_outputs_and_actions(tau) -> None:
    tau.run("--agent-strategy", "do-nothing", "--junitxml", "junit.xml").assert_outcomes(failed=3)
    assert_valid_junit_10(tau.path / "junit.xml")
    cases = {c.get("name"): c for c in read_suite(tau).findall("testcase")}
    fines = cases["test_toy[toy-fines_then_loan-t0]"].find("failure").get("message")
    assert "members['M2'].fines: expected 0.0, actual 4.5" in fines
    assert "required outputs never told to the user: '4.50 (money)'" in fines
    refuse = cases["test_toy[toy-refuse_loaned-t0]"].find("failure").get("message")
    assert "required actions never made: transfer_to_human_agents()" in refuse


def test_infra_errors_are_one_line_errors_with_nan_values(tau, toy_domain) -> None:
    with OpenAIServer(OracleModel([toy_domain]), Faults(p503=1.0)) as server:
        result = tau.run("--model", "openai/fake", "--api-base", server.url, "--llm-retries", "0", "--junitxml", "junit.xml")
    assert result.ret == 6
    assert_valid_junit_10(tau.path / "junit.xml")
    suite = read_suite(tau)
    for case in suite.findall("testcase"):
        error = case.find("error")
        assert error is not None and case.find("failure") is None
        assert len(error.text.strip().splitlines()) == 1, error.text
        assert fields(case)["reward"] == "nan"
    suite_props = {p.get("name"): p.get("value") for p in suite.find("properties")}
    assert suite_props["tau.pass^1"] == "nan" and suite_props["tau.model"] == "openai/fake"


def test_reruns_score_the_last_attempt_everywhere(tau, toy_domain) -> None:
    # Every item's first agent call fails the task; its rerun passes it. The terminal, JUnit,
    # results.jsonl and the cost all tell the same story: the last attempt is the verdict, the
    # cost is every attempt's, the first attempt's trajectory is kept beside the last one.
    oracle = OracleModel([toy_domain])
    calls: dict[int, int] = {}

    def first_attempt_fails(request):
        if request.get("tools") and not any(m["role"] == "assistant" for m in request["messages"]):
            seed = request.get("seed", 0)
            calls[seed] = calls.get(seed, 0) + 1
            if calls[seed] == 1:
                return Reply(content="Sorry, I cannot do that.")
        return oracle(request)

    with OpenAIServer(first_attempt_fails) as server:
        result = tau.run("--model", "openai/fake", "--api-base", server.url, "--reruns", "2", "--junitxml", "junit.xml")
    assert result.ret == 0, result.stdout.str()[-2000:]
    result.stdout.fnmatch_lines(["toy * 3 * 3 * 0 * 1.000", "*--reruns: 3 item(s) were run again; their last attempt is scored*"])
    assert_valid_junit_10(tau.path / "junit.xml")
    suite = read_suite(tau)
    cases = suite.findall("testcase")
    assert len(cases) == 3 and all(c.find("failure") is None for c in cases)
    assert suite.get("tests") == "3" and suite.get("failures") == "0"
    lines = [json.loads(line) for line in (tau.run_dir / "results.jsonl").read_text().splitlines()]
    last = {line["item"]: line for line in lines}
    assert all(line["attempts"] == 2 and line["status"] == "passed" for line in last.values())
    assert len(lines) == 6  # one line per attempt, each with its own usage
    for item in last:
        assert (tau.run_dir / "trajectories" / f"{item}.attempt1.json").is_file()
    summary = json.loads((tau.run_dir / "summary.json").read_text())
    assert summary["agent_usage"]["calls"] == sum(line["agent_usage"]["calls"] for line in lines)  # every attempt paid
