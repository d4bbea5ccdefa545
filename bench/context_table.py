"""The first agent request of every domain with each built-in model strategy, in tokens.

    python bench/context_table.py [--model gpt-4o] [--window 8192]

The first request (system prompt with the policy, tools or their text form, few-shot
examples, the user's opening) is the smallest an agent sends: a domain over a model's
window cannot run at all on it. Counted with litellm's tokenizer for --model (o200k for
gpt-4o). Marks the cells over --window minus the answer room that a run refuses.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from pytest_tau import discover_domains
from pytest_tau._agents import FewShotAgent, TextActionAgent, ToolCallingAgent, few_shot_examples
from pytest_tau._context import ANSWER_ROOM, first_request, prompt_size
from pytest_tau._llm import LLM, ModelConfig

ROOT = Path(__file__).parents[1]
STRATEGIES = ("tool-calling", "act", "react", "few-shot")


def agent(strategy: str, domain: Any, task: Any) -> Any:
    llm = LLM(ModelConfig(model="gpt-4o"))
    tools = domain.tool_schemas()
    if strategy in ("act", "react"):
        return TextActionAgent(llm, domain.policy, tools, think=strategy == "react")
    if strategy == "few-shot":
        return FewShotAgent(llm, domain.policy, tools, few_shot_examples(domain, exclude=task.id))
    return ToolCallingAgent(llm, domain.policy, tools)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="gpt-4o")
    parser.add_argument("--window", type=int, default=8192)
    args = parser.parse_args()
    limit = args.window - ANSWER_ROOM
    print(f"first agent request, prompt tokens ({args.model}); * = over {args.window} - {ANSWER_ROOM}")
    print(f"{'domain':<18}" + "".join(f"{s:>14}" for s in STRATEGIES))
    over = dict.fromkeys(STRATEGIES, 0)
    for name, domain in sorted(discover_domains(ROOT).items()):
        task = next(t for t in domain.tasks if t.split == "test")
        cells = []
        for strategy in STRATEGIES:
            request = first_request(agent(strategy, domain, task))
            assert request is not None
            tokens = prompt_size(args.model, *request)
            over[strategy] += tokens > limit
            cells.append(f"{tokens:>13,}{'*' if tokens > limit else ' '}")
        print(f"{name:<18}" + "".join(cells), flush=True)
    print(f"{'over ' + str(args.window):<18}" + "".join(f"{over[s]:>13} " for s in STRATEGIES))


if __name__ == "__main__":
    main()
