"""--max-steps: a conversation whose agent never stops ends after that many agent model calls."""

from __future__ import annotations

from typing import Any

import orjson

from pytest_tau.testing import OpenAIServer, OracleModel, Reply, ToolCallReply


def test_a_runaway_agent_is_cut_at_max_steps(tau, toy_domain) -> None:
    oracle = OracleModel([toy_domain])

    def handler(request: dict[str, Any]) -> Reply:
        if request.get("tools"):  # the agent looks the same book up forever
            return Reply(tool_calls=[ToolCallReply("get_book", {"book_id": "B1"})])
        return oracle(request)

    with OpenAIServer(handler) as server:
        result = tau.run("--model", "openai/fake", "--api-base", server.url, "--max-steps", "4")
    result.assert_outcomes(failed=3)
    results = [orjson.loads(line) for line in (tau.run_dir / "results.jsonl").read_bytes().splitlines()]
    assert {r["end_reason"] for r in results} == {"max_steps"}
    agent_calls = [r for r in server.requests if r.get("tools")]
    assert len(agent_calls) == 3 * 4
