"""--mt-out DIR: MT-Benchmark trajectories and {model}_scores.jsonl, checked against the shipped schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from pytest_tau._mt import NO_ACTIONS, SCORE_KEYS, format_calls, model_label, mt_task_id, parse_mt_task_id, schema
from pytest_tau._settings import Settings


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_scores_and_trajectories_in_the_schema(tau) -> None:
    result = tau.run("--mt-out", "mt", "--trials", "2")
    result.assert_outcomes(passed=6)
    folder = tau.path / "mt" / "toy"
    rows = _lines(folder / "oracle_scores.jsonl")
    validator = jsonschema.Draft202012Validator(schema("mt_scores"))
    for row in rows:
        validator.validate(row)
        assert tuple(row) == SCORE_KEYS  # the platform's key order
    # Complete, in task order; the second trial carries -t1.
    assert [r["task-id"] for r in rows] == [
        "task-fines_then_loan", "task-fines_then_loan-t1",
        "task-loan_dune", "task-loan_dune-t1",
        "task-refuse_loaned", "task-refuse_loaned-t1",
    ]
    loan = rows[2]
    assert loan["score"] == 1
    assert loan["prompt"].startswith("You are Ada Byron")
    assert loan["result"] == 'find_member({"email": "ada@example.com"}), loan_book({"member_id": "M1", "book_id": "B1"})'
    assert loan["truth"] == loan["result"]
    # The conversation's wall time, as results.jsonl has it (rounded there: a fast toy item can be 0.0).
    items = {row["item"]: row for row in _lines(tau.run_dir / "results.jsonl")}
    for row in rows:
        task, trial = parse_mt_task_id(str(row["task-id"]))
        assert isinstance(row["duration"], float) and row["duration"] >= 0
        assert row["duration"] == items[f"toy-{task}-t{trial or 0}"]["duration"]
    message_schema = jsonschema.Draft202012Validator(schema("mt_trajectory"))
    for row in rows:
        trajectory = folder / f"oracle_task{str(row['task-id'])[5:]}_trajectory.jsonl"
        messages = _lines(trajectory)
        for message in messages:
            message_schema.validate(message)
        assert messages[0]["role"] == "system" and "customer service agent" in str(messages[0]["content"])
        assert messages[1]["role"] == "user"
        assert any(m["role"] == "tool" for m in messages)
        assert any(m.get("tool_calls") for m in messages)


def test_do_nothing_made_no_actions(tau) -> None:
    tau.run("--mt-out", "mt", "--agent-strategy", "do-nothing", "--task-ids", "loan_dune").assert_outcomes(failed=1)
    (row,) = _lines(tau.path / "mt" / "toy" / "do-nothing_scores.jsonl")
    assert row["result"] == NO_ACTIONS and row["score"] == 0 and row["truth"] != NO_ACTIONS


def test_ini_and_resume_keep_every_item(tau) -> None:
    (tau.path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\nmt_out = mt\n")
    # A resume must keep the run's settings (task ids included): stop after the first item, then resume.
    tau.run("--task-ids", "loan_dune,fines_then_loan", "--deselect", "tests_domains/toy/test_toy.py::test_toy[toy-fines_then_loan-t0]")
    tau.run("--resume", str(tau.run_dir), "--task-ids", "loan_dune,fines_then_loan")
    rows = _lines(tau.path / "mt" / "toy" / "oracle_scores.jsonl")
    assert [r["task-id"] for r in rows] == ["task-fines_then_loan", "task-loan_dune"]


def test_without_the_option_nothing_is_written(tau) -> None:
    tau.run("--task-ids", "loan_dune").assert_outcomes(passed=1)
    assert not (tau.path / "mt").exists()


def test_model_label_and_ids() -> None:
    settings = Settings.resolve({"model": "hosted_vllm/meta-llama/Llama-3.1-8B"}, model_agents={"tool-calling"})
    assert model_label(settings) == "hosted_vllm-meta-llama-Llama-3.1-8B"
    assert model_label(Settings.resolve({})) == "oracle"
    assert mt_task_id("cancel_1", 0) == "task-cancel_1"
    assert mt_task_id("cancel_1", 3) == "task-cancel_1-t3"
    assert parse_mt_task_id("task-cancel_1-t3") == ("cancel_1", 3)
    assert parse_mt_task_id("cancel_1") == ("cancel_1", None)
    assert format_calls([]) == NO_ACTIONS
    assert format_calls([("f", {"a": 1}), ("g", "not json")]) == 'f({"a": 1}), g(not json)'


@pytest.mark.parametrize("bad", [
    {"task-id": "task-1", "prompt": "", "result": "", "truth": NO_ACTIONS, "score": 1, "duration": 0},
    {"task-id": "task-1-t0", "prompt": "", "result": NO_ACTIONS, "truth": NO_ACTIONS, "score": 1, "duration": 0},
    {"task-id": "task-1", "prompt": "", "result": NO_ACTIONS, "truth": NO_ACTIONS, "score": 2, "duration": 0},
    {"task-id": "task-1", "prompt": "", "result": NO_ACTIONS, "truth": NO_ACTIONS, "score": 1},
])
def test_schema_rejects(bad: dict[str, object]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema("mt_scores"))
