"""``python -m pytest_tau.analyze RUN_DIR --model MODEL``: who is at fault for each failed item.

For every failed item of a finished run (the last result of each item in
``RUN_DIR/results.jsonl``), one model call reads the task (user instructions, gold,
required and forbidden actions), the verdict's failure text and the trajectory, and
answers in JSON which party caused the failure (the user, the agent or the environment)
and, for agent faults, what kind of mistake it was. An answer that is not valid JSON or
not a valid verdict is fed back to the model with the error, at most twice; after that
the item is recorded as ``unknown`` with the raw answer.

Writes ``RUN_DIR/analysis.json`` (items and counts) and prints a table. Exit codes:
0 done, 1 some item could not be analysed (model service failed past its retries, a
missing trajectory or domain), 2 no ``results.jsonl`` in RUN_DIR. Every string written
or printed goes through the redactor; litellm is imported only through ``_llm``, when a
call is made.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args

import orjson
import pydantic
from pydantic import BaseModel, ConfigDict

from ._conversation import InfraError
from ._discovery import load_domain
from ._domain import AnyDomain
from ._outputs import Output
from ._redact import redact, redact_json
from ._results import ItemResult, ResultsError, read_results
from ._tasks import Action, Task

if TYPE_CHECKING:
    from ._llm import ModelConfig

__all__ = [
    "Analysis",
    "AnalysisSummary",
    "Fault",
    "FaultType",
    "FaultVerdict",
    "ItemAnalysis",
    "VerdictError",
    "analyze_items",
    "analyze_run",
    "build_messages",
    "main",
    "parse_verdict",
    "select_items",
]

Fault = Literal["user", "agent", "environment"]
RecordedFault = Literal["user", "agent", "environment", "unknown"]
AgentFaultType = Literal["goal_partially_completed", "wrong_tool", "wrong_argument", "unintended_action", "other"]
FaultType = Literal["goal_partially_completed", "wrong_tool", "wrong_argument", "unintended_action", "other", "none"]

FAULTS: tuple[str, ...] = get_args(RecordedFault)
AGENT_FAULT_TYPES: tuple[str, ...] = get_args(AgentFaultType)

EXTRA_ATTEMPTS = 2  # calls after the first when an answer is not a valid verdict
TOOL_RESULT_CHARS = 600
MESSAGE_CHARS = 2000
POLICY_CHARS = 8000
ANALYSIS_FILE = "analysis.json"

EXIT_OK, EXIT_INCOMPLETE, EXIT_NO_RESULTS = 0, 1, 2


# -- the typed boundary ------------------------------------------------------------------


class FaultVerdict(BaseModel):
    """What the model must answer, validated."""

    model_config = ConfigDict(extra="ignore")

    fault: Fault
    fault_type: FaultType = "none"
    description: str = pydantic.Field(min_length=1)

    @pydantic.field_validator("fault", "fault_type", mode="before")
    @classmethod
    def _normalize(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @pydantic.model_validator(mode="after")
    def _type_matches_fault(self) -> FaultVerdict:
        if self.fault == "agent" and self.fault_type == "none":
            raise ValueError(f"an agent fault needs a fault_type, one of: {', '.join(AGENT_FAULT_TYPES)}")
        if self.fault != "agent" and self.fault_type != "none":
            self.fault_type = "none"  # only meaningful for agent faults
        return self


class ItemAnalysis(BaseModel):
    """One failed item's analysis: one entry of analysis.json's items."""

    model_config = ConfigDict(extra="forbid")

    item: str
    domain: str
    task: str
    trial: int
    fault: RecordedFault
    fault_type: FaultType
    description: str
    error: str | None = None  # why the item could not be analysed (then fault is "unknown")


class AnalysisSummary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    fault: dict[str, int]
    fault_type: dict[str, int]  # over agent faults only


class Analysis(BaseModel):
    """The whole of analysis.json."""

    model_config = ConfigDict(extra="forbid")

    model: str
    items: list[ItemAnalysis]
    summary: AnalysisSummary


class VerdictError(ValueError):
    """The model's answer is not a valid verdict; the message is fed back to it."""


# -- parsing the answer ------------------------------------------------------------------

_FENCE = re.compile(r"^\s*```[A-Za-z0-9_-]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


def _strip_fences(text: str) -> str:
    match = _FENCE.match(text)
    return match.group(1) if match else text.strip()


def _json_object(text: str) -> Any:
    """The JSON value of the text, else the widest {...} inside it."""
    body = _strip_fences(text)
    try:
        return json.loads(body)
    except json.JSONDecodeError as exc:
        start, end = body.find("{"), body.rfind("}")
        if 0 <= start < end:
            try:
                return json.loads(body[start : end + 1])
            except json.JSONDecodeError:
                pass
        raise VerdictError(f"the answer is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None


def _validation_text(error: pydantic.ValidationError) -> str:
    parts = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"]) or "answer"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


def parse_verdict(text: str) -> FaultVerdict:
    """The verdict in a model's answer (code fences and surrounding prose tolerated).

    Raises `VerdictError` with a message meant for the model when the answer is not a
    JSON object with a valid fault, fault_type and description.
    """
    data = _json_object(text)
    if not isinstance(data, dict):
        raise VerdictError(f"the answer must be a JSON object, not {type(data).__name__}")
    try:
        return FaultVerdict.model_validate(data)
    except pydantic.ValidationError as exc:
        raise VerdictError(f"invalid verdict: {_validation_text(exc)}") from None


# -- the prompt --------------------------------------------------------------------------

SYSTEM_PROMPT = f"""\
You analyse failed conversations of a customer-service benchmark. An agent (an LLM with \
tools and a policy) served a simulated user (another LLM or a script, following \
instructions). The conversation failed: the final database state, what the agent told \
the user, or the actions it made did not match the task's gold. Decide who caused the \
failure and how.

Fault (who caused the failure):
- "user": the simulated user deviated from its instructions: it asked for something \
else, gave wrong or missing information, changed its mind, or ended the conversation \
before the goal could be reached, while the agent behaved reasonably.
- "agent": the agent made the mistake: it did not do what the user asked and the policy \
allowed, did it wrongly, did something it should not have, or told the user wrong \
information.
- "environment": neither party is to blame: a tool failed or returned wrong data although \
it was called correctly, or the task, its gold or its policy is wrong, ambiguous or \
impossible to satisfy.

Fault type (only for fault "agent"; use "none" for the other faults):
- "goal_partially_completed": the agent did part of what was needed, or nothing, and \
left required actions or required outputs undone.
- "wrong_tool": the agent called a tool other than the one the task needed.
- "wrong_argument": the agent called the right tool with wrong arguments.
- "unintended_action": the agent made a change or call the user did not ask for or the \
policy forbids (including forbidden actions).
- "other": any other agent mistake.

Answer with a single JSON object and nothing else (no prose, no code fence):
{{"fault": "user" | "agent" | "environment", "fault_type": {" | ".join(f'"{t}"' for t in (*AGENT_FAULT_TYPES, "none"))}, "description": "one or two sentences: what went wrong and why"}}
"""


def _trim(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]} ... [{len(text) - limit} more characters cut]"


def _actions(actions: Sequence[Action]) -> str:
    return "\n".join(f"- {action}" for action in actions) or "(none)"


def _outputs(outputs: Sequence[Output]) -> str:
    return "\n".join(f"- {output}" for output in outputs) or "(none)"


def _compact(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def _render_message(message: dict[str, Any]) -> str:
    role = str(message.get("role", "?"))
    content = _compact(message.get("content") or "")
    if role == "tool":
        name = message.get("name") or "tool"
        return f"[tool result {name}] {_trim(content, TOOL_RESULT_CHARS)}"
    lines = [f"[{role}] {_trim(content, MESSAGE_CHARS)}"] if content else []
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        lines.append(f"[{role} calls] {function.get('name', '?')}({_trim(_compact(function.get('arguments', '')), MESSAGE_CHARS)})")
    return "\n".join(lines) or f"[{role}] (empty)"


def _render_conversation(messages: Sequence[dict[str, Any]]) -> str:
    return "\n".join(_render_message(message) for message in messages) or "(no messages)"


def _render_tool_calls(calls: Sequence[dict[str, Any]]) -> str:
    lines = []
    for index, call in enumerate(calls, 1):
        status = "ERROR" if call.get("error") else "ok"
        arguments = _trim(_compact(call.get("arguments", {})), MESSAGE_CHARS)
        result = _trim(_compact(call.get("result", "")), TOOL_RESULT_CHARS)
        who = "user: " if call.get("actor") == "user" else ""  # dual control: the customer's own tool
        lines.append(f"{index}. {who}{call.get('name', '?')}({arguments}) -> {status}: {result}")
    return "\n".join(lines) or "(no tool calls)"


def build_messages(task: Task, policy: str, result: ItemResult, trajectory: dict[str, Any]) -> list[dict[str, str]]:
    """The analysis request for one failed item: a system prompt and the case."""
    case = f"""\
# Agent policy (may be cut)
{_trim(policy, POLICY_CHARS)}

# Task {task.id}
## User instructions
{task.user.instructions}

## Gold actions (what a correct agent does)
{_actions(task.gold_actions)}

## Required outputs (must be told to the user)
{_outputs(task.required_outputs)}

## Required actions (must be made)
{_actions(task.required_actions)}

## Forbidden actions (must not be made)
{_actions(task.forbidden_actions)}

# Verdict: reward {result.reward}, end reason {result.end_reason}
{result.failure or "(no failure text)"}

# Conversation (tool results may be cut)
{_render_conversation(trajectory.get("messages") or [])}

# Tool calls as executed
{_render_tool_calls(trajectory.get("tool_calls") or [])}

Who caused this failure? Answer with the JSON object only."""
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": case}]


# -- one item --------------------------------------------------------------------------

Complete = Callable[[list[dict[str, Any]], int], str]  # (messages, seed) -> answer text


def _retry_messages(messages: list[dict[str, Any]], answer: str, error: VerdictError) -> list[dict[str, Any]]:
    feedback = f"Your answer cannot be used: {error}. Answer again with the JSON object only, as specified."
    return [*messages, {"role": "assistant", "content": answer}, {"role": "user", "content": feedback}]


def ask_verdict(complete: Complete, messages: list[dict[str, Any]], seed: int) -> FaultVerdict | str:
    """The model's verdict, asked again with the error at most `EXTRA_ATTEMPTS` times;
    the last raw answer when none was valid. `InfraError` propagates."""
    answer = ""
    for _ in range(1 + EXTRA_ATTEMPTS):
        answer = complete(messages, seed)
        try:
            return parse_verdict(answer)
        except VerdictError as error:
            messages = _retry_messages(messages, answer, error)
    return answer


def _entry(result: ItemResult, fault: str, fault_type: str, description: str, error: str | None = None) -> ItemAnalysis:
    return ItemAnalysis(
        item=result.item,
        domain=result.domain,
        task=result.task,
        trial=result.trial,
        fault=fault,
        fault_type=fault_type,
        description=redact(description),
        error=redact(error) if error else None,
    )


def _failed_entry(result: ItemResult, error: str) -> ItemAnalysis:
    return _entry(result, "unknown", "none", f"not analysed: {error}", error)


def _load_trajectory(run_dir: Path, item: str) -> dict[str, Any]:
    path = run_dir / "trajectories" / f"{item}.json"
    try:
        data = orjson.loads(path.read_bytes())
    except OSError as exc:
        raise LookupError(f"cannot read the trajectory {path}: {exc.strerror}") from None
    except orjson.JSONDecodeError as exc:
        raise LookupError(f"the trajectory {path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise LookupError(f"the trajectory {path} is not a JSON object")
    return data


@dataclass
class DomainCache:
    """Domains loaded once each from a project root; a failed load is remembered."""

    root: Path

    def __post_init__(self) -> None:
        self._loaded: dict[str, AnyDomain | str] = {}

    def get(self, name: str) -> AnyDomain:
        if name not in self._loaded:
            try:
                self._loaded[name] = load_domain(name, self.root)
            except Exception as exc:  # a broken or missing domain: every item of it says why
                self._loaded[name] = f"cannot load domain {name!r} from {self.root}: {type(exc).__name__}: {exc}"
        loaded = self._loaded[name]
        if isinstance(loaded, str):
            raise LookupError(loaded)
        return loaded


def analyze_item(result: ItemResult, run_dir: Path, domains: DomainCache, complete: Complete) -> ItemAnalysis:
    """One failed item's analysis; problems (missing files, model service down) are
    recorded on the entry as `error`, never raised."""
    try:
        trajectory = _load_trajectory(run_dir, result.item)
        domain = domains.get(result.domain)
        task = domain.task(result.task)
        messages = build_messages(task, domain.policy, result, trajectory)
    except Exception as exc:  # a missing trajectory, domain or task: this item says why
        known = isinstance(exc, LookupError) and exc.args
        return _failed_entry(result, str(exc.args[0]) if known else f"{type(exc).__name__}: {exc}")
    try:
        verdict = ask_verdict(complete, messages, result.seed)
    except InfraError as exc:
        return _failed_entry(result, f"model call failed: {exc}")
    if isinstance(verdict, str):
        return _entry(result, "unknown", "none", verdict)
    return _entry(result, verdict.fault, verdict.fault_type, verdict.description)


# -- the run -------------------------------------------------------------------------


def failed_items(results: Sequence[ItemResult]) -> list[ItemResult]:
    """The failed items, the last result of each item winning, sorted by item id."""
    latest = {result.item: result for result in results}
    return [latest[key] for key in sorted(latest) if latest[key].status == "failed"]


def summarize(items: Sequence[ItemAnalysis]) -> AnalysisSummary:
    faults: Counter[str] = Counter(item.fault for item in items)
    types: Counter[str] = Counter(item.fault_type for item in items if item.fault == "agent")
    return AnalysisSummary(
        fault={name: faults[name] for name in FAULTS},
        fault_type={name: types[name] for name in AGENT_FAULT_TYPES},
    )


def analyze_run(
    run_dir: Path, model: str, complete: Complete, root: Path, max_items: int | None = None
) -> Analysis:
    """The analysis of every failed item of a run directory (at most `max_items`)."""
    return analyze_items(run_dir, select_items(run_dir, max_items), model, complete, root)


def select_items(run_dir: Path, max_items: int | None = None) -> list[ItemResult]:
    """The failed items of a run directory to analyse, at most `max_items`."""
    failed = failed_items(read_results(run_dir / "results.jsonl"))
    return failed if max_items is None else failed[:max_items]


def analyze_items(
    run_dir: Path, failed: Sequence[ItemResult], model: str, complete: Complete, root: Path
) -> Analysis:
    domains = DomainCache(root)
    items = [analyze_item(result, run_dir, domains, complete) for result in failed]
    return Analysis(model=redact(model), items=items, summary=summarize(items))


def write_analysis(run_dir: Path, analysis: Analysis) -> Path:
    path = run_dir / ANALYSIS_FILE
    document = redact_json(analysis.model_dump(mode="json"))
    path.write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2))
    return path


# -- the table ---------------------------------------------------------------------------


def _one_line(text: str, limit: int = 120) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def render_table(analysis: Analysis, run_dir: Path) -> str:
    """Counts by fault and by agent fault type, then one line per item."""
    items = analysis.items
    lines = [f"error analysis: {len(items)} failed item(s) in {run_dir}, model {analysis.model}"]
    if not items:
        lines.append("no failed items: nothing to analyse")
        return redact("\n".join(lines))
    lines += ["", f"{'fault':<26}{'count':>6}"]
    lines += [f"{name:<26}{count:>6}" for name, count in analysis.summary.fault.items()]
    lines += ["", f"{'agent fault type':<26}{'count':>6}"]
    lines += [f"{name:<26}{count:>6}" for name, count in analysis.summary.fault_type.items()]
    width = max(len("item"), *(len(item.item) for item in items)) + 2
    lines += ["", f"{'item':<{width}}{'fault':<13}{'fault type':<26}description"]
    for item in items:
        lines.append(f"{item.item:<{width}}{item.fault:<13}{item.fault_type:<26}{_one_line(item.description)}")
    return redact("\n".join(lines))


# -- the command -------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m pytest_tau.analyze",
        description="Assign the fault (user, agent, environment) of each failed item of a run, with a model.",
    )
    parser.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="a run directory (with results.jsonl)")
    parser.add_argument("--model", required=True, help="the analysing model, a litellm name")
    parser.add_argument("--model-provider", default=None, help="its litellm provider (default: inferred)")
    parser.add_argument("--api-base", default=None, help="an OpenAI-compatible server of the model")
    parser.add_argument("--llm-timeout", type=float, default=120.0, help="seconds per model call (default 120)")
    parser.add_argument("--llm-retries", type=int, default=8, help="retries on 429, 5xx, timeouts (default 8)")
    parser.add_argument("--llm-backoff", type=float, default=1.0, help="first retry delay in seconds (default 1)")
    parser.add_argument("--domains-root", type=Path, default=None, help="the project with tests_domains/ (default: .)")
    parser.add_argument("--max-items", type=int, default=None, help="analyse at most this many failed items")
    return parser


def model_config(args: argparse.Namespace) -> ModelConfig:
    from ._llm import ModelConfig

    return ModelConfig(
        model=args.model,
        provider=args.model_provider,
        api_base=args.api_base,
        timeout=args.llm_timeout,
        retries=args.llm_retries,
        backoff=args.llm_backoff,
    )


def model_problem(config: ModelConfig) -> str | None:
    """Why the model cannot be used (unknown provider, missing key), or None; imports litellm."""
    from ._llm import check_model

    return check_model(config, "analysis")


def model_caller(config: ModelConfig) -> Complete:
    """A `Complete` over the harness's LLM layer (litellm imported at the first call)."""
    from ._llm import LLM

    def complete(messages: list[dict[str, Any]], seed: int) -> str:
        return LLM(config, seed=seed).complete(messages).content

    return complete


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.max_items is not None and args.max_items < 0:
        parser.error("--max-items must be 0 or more")
    run_dir: Path = args.run_dir
    if not (run_dir / "results.jsonl").is_file():
        print(redact(f"error: {run_dir} has no results.jsonl: not a run directory, or the run recorded nothing"), file=sys.stderr)
        return EXIT_NO_RESULTS
    try:
        failed = select_items(run_dir, args.max_items)
    except ResultsError as exc:
        print(redact(f"error: {exc}"), file=sys.stderr)
        return EXIT_NO_RESULTS
    config = model_config(args)
    problem = model_problem(config) if failed else None
    if problem:
        print(redact(f"error: {problem}"), file=sys.stderr)
        return EXIT_INCOMPLETE
    root = (args.domains_root or Path.cwd()).resolve()
    analysis = analyze_items(run_dir, failed, args.model, model_caller(config), root)
    path = write_analysis(run_dir, analysis)
    print(render_table(analysis, run_dir))
    print(redact(f"analysis: {path}"))
    return _report_unanalysed(analysis)


def _report_unanalysed(analysis: Analysis) -> int:
    unanalysed = [item for item in analysis.items if item.error]
    for item in unanalysed:
        print(redact(f"not analysed: {item.item}: {item.error}"), file=sys.stderr)
    if unanalysed:
        print(f"INCOMPLETE: {len(unanalysed)} item(s) could not be analysed", file=sys.stderr)
        return EXIT_INCOMPLETE
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
