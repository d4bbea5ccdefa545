"""`python -m pytest_tau.analyze`: fault analysis of a finished run, over the local fake server."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pytest_tau import Domain
from pytest_tau._results import ItemResult
from pytest_tau.analyze import FaultVerdict, VerdictError, ask_verdict, build_messages, parse_verdict
from pytest_tau.testing import OpenAIServer, Reply

TOY_PROJECT = Path(__file__).parent / "toy_project"
CANARY = "sk-canary0123456789abcdef"
FAILED = ["toy-fines_then_loan-t0", "toy-loan_dune-t0", "toy-refuse_loaned-t0"]


@pytest.fixture(scope="module")
def finished_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toy project after one do-nothing run (3 failed items), made once for the module."""
    project = tmp_path_factory.mktemp("analyze") / "project"
    shutil.copytree(TOY_PROJECT, project)
    (project / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\n")
    drop = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "PYTEST_ADDOPTS", "PYTEST_XDIST", "PYTEST_CURRENT_TEST")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--run-dir", "run", "--agent-strategy", "do-nothing"],
        cwd=project, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 1, done.stdout + done.stderr  # 3 failed items
    return project


@pytest.fixture
def project(finished_project: Path, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the finished project (each test writes its own analysis.json)."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    shutil.copytree(finished_project, pytester.path / "project")
    return pytester.path / "project"


def analyze(pytester: pytest.Pytester, run_dir: Path, *args: str) -> pytest.RunResult:
    return pytester.run(sys.executable, "-m", "pytest_tau.analyze", str(run_dir), *args, timeout=120)


def model_args(server: OpenAIServer, project: Path, *extra: str) -> list[str]:
    return ["--model", "openai/fake", "--api-base", server.url, "--domains-root", str(project), *extra]


def task_of(request: dict[str, Any]) -> str:
    match = re.search(r"^# Task (\w+)$", request["messages"][1]["content"], re.MULTILINE)
    assert match, "the prompt names the task"
    return match.group(1)


def scripted(answers: dict[str, list[str]]) -> Callable[[dict[str, Any]], Reply]:
    """Answers per task, in order; the last one repeats. An answer 'RAISE' is a 500."""

    def handler(request: dict[str, Any]) -> Reply:
        queue = answers[task_of(request)]
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        if answer == "RAISE":
            raise RuntimeError("scripted server failure")
        return Reply(content=answer)

    return handler


def verdict(fault: str, fault_type: str, description: str) -> str:
    return json.dumps({"fault": fault, "fault_type": fault_type, "description": description})


# -- end to end ------------------------------------------------------------------------


def test_failed_items_are_classified_and_a_bad_answer_is_asked_again(pytester: pytest.Pytester, project: Path) -> None:
    answers = {
        "fines_then_loan": [verdict("agent", "goal_partially_completed", "Never paid the fines nor loaned B3.")],
        "loan_dune": ["I think the agent is at fault.", verdict("agent", "other", f"Refused; key {CANARY} seen.")],
        "refuse_loaned": ["```json\n" + verdict("user", "wrong_tool", "The user gave up.") + "\n```"],
    }
    with OpenAIServer(scripted(answers)) as server:
        result = analyze(pytester, project / "run", *model_args(server, project))
    assert result.ret == 0, result.stderr.str()
    assert len(server.requests) == 4  # one call per item, plus one retry
    retried = [r for r in server.requests if task_of(r) == "loan_dune"][1]["messages"]
    assert retried[-2] == {"role": "assistant", "content": "I think the agent is at fault."}
    assert "not valid JSON" in retried[-1]["content"]
    prompt = server.requests[0]["messages"][1]["content"]
    for part in ("You are Alan Turing", "pay_fines(member_id='M2', amount=4.5)", "- 4.50 (money)", "fines: expected 0.0, actual 4.5"):
        assert part in prompt
    assert '"fault": "user" | "agent" | "environment"' in server.requests[0]["messages"][0]["content"]

    analysis = json.loads((project / "run" / "analysis.json").read_text())
    assert analysis["model"] == "openai/fake"
    assert [(i["item"], i["task"], i["trial"], i["fault"], i["fault_type"]) for i in analysis["items"]] == [
        ("toy-fines_then_loan-t0", "fines_then_loan", 0, "agent", "goal_partially_completed"),
        ("toy-loan_dune-t0", "loan_dune", 0, "agent", "other"),
        ("toy-refuse_loaned-t0", "refuse_loaned", 0, "user", "none"),  # fault_type only for agent faults
    ]
    assert analysis["items"][1]["description"] == "Refused; key *** seen."
    assert analysis["summary"] == {
        "fault": {"user": 1, "agent": 2, "environment": 0, "unknown": 0},
        "fault_type": {"goal_partially_completed": 1, "wrong_tool": 0, "wrong_argument": 0, "unintended_action": 0, "other": 1},
    }
    result.stdout.fnmatch_lines([
        "error analysis: 3 failed item(s) in *run, model openai/fake",
        "fault * count", "user * 1", "agent * 2", "environment * 0", "unknown * 0",
        "agent fault type * count", "goal_partially_completed * 1", "other * 1",
        "item * fault * fault type * description",
        "toy-fines_then_loan-t0 * agent * goal_partially_completed * Never paid the fines nor loaned B3.",
        "toy-loan_dune-t0 * agent * other * Refused; key *** seen.",
        "toy-refuse_loaned-t0 * user * none * The user gave up.",
        "analysis: *analysis.json",
    ])
    assert CANARY not in result.stdout.str() + result.stderr.str()


def test_unusable_answers_and_failed_calls(pytester: pytest.Pytester, project: Path) -> None:
    answers = {
        "fines_then_loan": [verdict("agent", "goal_partially_completed", "Did nothing.")],
        "loan_dune": ['{"fault": "nobody", "description": "?"}'],  # invalid every time
        "refuse_loaned": ["RAISE"],  # the server fails: an infrastructure error
    }
    with OpenAIServer(scripted(answers)) as server:
        result = analyze(pytester, project / "run", *model_args(server, project, "--llm-retries", "1", "--llm-backoff", "0.01"))
    assert result.ret == 1
    assert [task_of(r) for r in server.requests].count("loan_dune") == 3  # first call + 2 more
    analysis = json.loads((project / "run" / "analysis.json").read_text())
    by_task = {item["task"]: item for item in analysis["items"]}
    assert by_task["loan_dune"]["fault"] == "unknown" and by_task["loan_dune"]["error"] is None
    assert by_task["loan_dune"]["description"] == '{"fault": "nobody", "description": "?"}'
    assert by_task["refuse_loaned"]["fault"] == "unknown"
    assert "model call failed after 2 attempts" in by_task["refuse_loaned"]["error"]
    assert analysis["summary"]["fault"] == {"user": 0, "agent": 1, "environment": 0, "unknown": 2}
    result.stderr.fnmatch_lines(["not analysed: toy-refuse_loaned-t0: model call failed*", "INCOMPLETE: 1 item(s) could not be analysed"])


def test_missing_key_max_items_and_a_missing_domain(pytester: pytest.Pytester, project: Path) -> None:
    result = analyze(pytester, project / "run", "--model", "openai/fake")  # no server, no OPENAI_API_KEY
    assert result.ret == 1
    result.stderr.fnmatch_lines(["error: missing API key for the analysis model 'openai/fake': set OPENAI_API_KEY"])
    assert not (project / "run" / "analysis.json").exists()

    with OpenAIServer(scripted({})) as server:
        result = analyze(pytester, project / "run", *model_args(server, pytester.path, "--max-items", "1"))
    assert result.ret == 1 and not server.requests
    (item,) = json.loads((project / "run" / "analysis.json").read_text())["items"]
    assert item["item"] == FAILED[0] and item["fault"] == "unknown"
    assert "cannot load domain 'toy'" in item["error"]


def test_no_results_and_no_failed_items(pytester: pytest.Pytester, tmp_path: Path) -> None:
    result = analyze(pytester, tmp_path, "--model", "openai/fake")
    assert result.ret == 2
    result.stderr.fnmatch_lines(["error: * has no results.jsonl*"])
    assert not (tmp_path / "analysis.json").exists()

    passed = ItemResult(item="toy-loan_dune-t0", domain="toy", task="loan_dune", trial=0, seed=1, status="passed", reward=1.0, end_reason="user_stop")
    (tmp_path / "results.jsonl").write_text(passed.model_dump_json() + "\n")
    result = analyze(pytester, tmp_path, "--model", f"openai/fake?api_key={CANARY}")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["error analysis: 0 failed item(s) *", "no failed items: nothing to analyse"])
    analysis = json.loads((tmp_path / "analysis.json").read_text())
    assert analysis["items"] == [] and analysis["model"] == "openai/fake?api_key=***"
    assert set(analysis["summary"]["fault"].values()) == {0}
    assert CANARY not in result.stdout.str() + (tmp_path / "analysis.json").read_text()


# -- units -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"fault": "agent", "fault_type": "wrong_argument", "description": "d"}',
        '```json\n{"fault": "agent", "fault_type": "wrong_argument", "description": "d"}\n```',
        '```\n{"fault": " Agent ", "fault_type": "WRONG_ARGUMENT", "description": "d"}```',
        'Here it is: {"fault": "agent", "fault_type": "wrong_argument", "description": "d", "extra": 1} Done.',
    ],
)
def test_parse_verdict_accepts(text: str) -> None:
    assert parse_verdict(text) == FaultVerdict(fault="agent", fault_type="wrong_argument", description="d")


def test_parse_verdict_drops_the_type_of_non_agent_faults() -> None:
    assert parse_verdict('{"fault": "environment", "fault_type": "other", "description": "d"}').fault_type == "none"
    assert parse_verdict('{"fault": "user", "description": "d"}').fault_type == "none"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("the agent", "not valid JSON"),
        ('{"fault": "agent", ', "not valid JSON"),
        ('["agent"]', "must be a JSON object, not list"),
        ('{"fault": "model", "fault_type": "none", "description": "d"}', "fault: Input should be 'user', 'agent' or 'environment'"),
        ('{"fault": "agent", "fault_type": "none", "description": "d"}', "an agent fault needs a fault_type"),
        ('{"fault": "agent", "fault_type": "typo", "description": "d"}', "fault_type: Input should be"),
        ('{"fault": "user", "fault_type": "none"}', "description: Field required"),
        ('{"fault": "user", "description": ""}', "description: String should have at least 1 character"),
    ],
)
def test_parse_verdict_rejects(text: str, message: str) -> None:
    with pytest.raises(VerdictError, match=re.escape(message)):
        parse_verdict(text)


def test_ask_verdict_feeds_the_error_back_then_gives_up() -> None:
    seen: list[list[dict[str, Any]]] = []

    def complete(messages: list[dict[str, Any]], seed: int) -> str:
        seen.append(messages)
        return "nope"

    assert ask_verdict(complete, [{"role": "user", "content": "q"}], seed=3) == "nope"
    assert [len(m) for m in seen] == [1, 3, 5]
    assert seen[2][-1]["role"] == "user" and "not valid JSON" in seen[2][-1]["content"]


def test_prompt_trims_long_tool_results(toy_domain: Domain) -> None:
    task = toy_domain.task("refuse_loaned")
    result = ItemResult(item="toy-refuse_loaned-t0", domain="toy", task=task.id, trial=0, seed=1, status="failed", reward=0.0, end_reason="user_stop", failure="forbidden actions made: loan_book(book_id='B2')")
    long = "x" * 5000
    trajectory = {
        "messages": [
            {"role": "user", "content": "loan me B2"},
            {"role": "assistant", "content": None, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "get_book", "arguments": '{"book_id": "B2"}'}}]},
            {"role": "tool", "tool_call_id": "c", "name": "get_book", "content": long},
        ],
        "tool_calls": [{"name": "get_book", "arguments": {"book_id": "B2"}, "result": long, "error": False}],
    }
    system, case = build_messages(task, toy_domain.policy, result, trajectory)
    assert system["role"] == "system" and "unintended_action" in system["content"]
    text = case["content"]
    assert long not in text and text.count("more characters cut") == 2
    for part in ("insist once", "transfer_to_human_agents(summary='wants loaned book B2')", "- loan_book(book_id='B2')",
                 "forbidden actions made", '[assistant calls] get_book({"book_id": "B2"})', '1. get_book({"book_id": "B2"}) -> ok: xxx'):
        assert part in text
