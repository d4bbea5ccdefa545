"""Per-item overhead of the remote-agent protocols on loopback: median ms per tool call and per turn.

    python bench/remote_agents.py [domain] [--tasks N]

Runs the oracle through each protocol (http: `HttpAgentServer`; a2a: `A2AOracleServer`
with the tools over the harness's MCP server; dialogflow-cx: `CXOracleServer`, a fake
``detectIntent`` REST endpoint, through Google's client) on the domain's test tasks, one
item at a time, and times the agent's steps from the harness's side:

- per tool call: a step that hands tool results back and gets the agent's next move,
  divided by the results it carried (http sends all of a step's results in one request;
  a2a answers one MCP call per step; dialogflow-cx sends one ``DetectIntent`` per result);
- per turn: a step that carries a customer message and gets text back without a call.

The oracle thinks in microseconds, so both are the protocol's own cost (serialization,
HTTP, the a2a/mcp SDKs, the CX client's protobuf/REST layer) plus scheduling on this machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))

from pytest_tau import AgentStep, ScriptedUser, Settings, StrategyContext, load_domain
from pytest_tau._scoring import play
from pytest_tau.remote import RemoteOptions
from pytest_tau.remote._a2a import A2AAgent
from pytest_tau.remote._cx import DialogflowCXAgent
from pytest_tau.remote._http import HttpAgent
from pytest_tau.remote._mcp import ToolServer
from pytest_tau.testing import HttpAgentServer
from pytest_tau.testing.a2a_agent import A2AOracleServer
from pytest_tau.testing.cx_agent import CXOracleServer


class Timed:
    """Wraps an agent; sorts each step's wall time into per-call and per-turn samples."""

    def __init__(self, agent: Any, per_call: list[float], per_turn: list[float]) -> None:
        self.agent, self.per_call, self.per_turn = agent, per_call, per_turn
        self.usage = agent.usage

    def step(self, messages: list[dict[str, Any]]) -> AgentStep:
        started = time.perf_counter()
        step = self.agent.step(messages)
        elapsed = (time.perf_counter() - started) * 1000
        if messages[-1]["role"] == "tool":
            results = 0
            for message in reversed(messages):
                if message["role"] != "tool":
                    break
                results += 1
            self.per_call.extend([elapsed / results] * results)
        elif not step.tool_calls:
            self.per_turn.append(elapsed)
        return step


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("domain", nargs="?", default="retail")
    parser.add_argument("--tasks", type=int, default=20, help="test tasks to run (default 20)")
    args = parser.parse_args()
    domain = load_domain(args.domain)
    tasks = [t for t in domain.tasks if t.split == "test"][: args.tasks]
    settings = Settings(agent_strategy="http", user_strategy="scripted")
    print(f"{args.domain}: {len(tasks)} tasks, one at a time, oracle behind each protocol, loopback")
    print(f"{'protocol':<10} {'ms/tool call':>13} {'ms/turn':>9} {'calls':>6} {'turns':>6} {'reward':>7}")
    with HttpAgentServer([domain]) as http, A2AOracleServer([domain]) as a2a, ToolServer() as tools, CXOracleServer([domain]) as cx:
        makers = {
            "http": lambda context: HttpAgent(context, RemoteOptions(agent_url=http.url)),
            "a2a+mcp": lambda context: A2AAgent(context, RemoteOptions(agent_url=a2a.url), tools),
            "cx": lambda context: DialogflowCXAgent(context, RemoteOptions(cx_agent=cx.agent, cx_endpoint=cx.url)),
        }
        for name, make in makers.items():
            per_call: list[float] = []
            per_turn: list[float] = []
            rewards = []
            for task in tasks:
                agent = make(StrategyContext(settings=settings, domain=domain, task=task, trial=0, seed=0))
                try:
                    _, verdict = play(domain, task, Timed(agent, per_call, per_turn), ScriptedUser(task))
                finally:
                    agent.close()
                rewards.append(verdict.reward)
            call_ms = statistics.median(per_call) if per_call else float("nan")
            turn_ms = statistics.median(per_turn) if per_turn else float("nan")
            print(f"{name:<10} {call_ms:>13.1f} {turn_ms:>9.1f} {len(per_call):>6} {len(per_turn):>6} {statistics.mean(rewards):>7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
