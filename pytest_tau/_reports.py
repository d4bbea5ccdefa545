"""Building an item's result and writing its trajectory file (in the process that ran it)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from ._conversation import MODEL_LIMIT_ENDS
from ._redact import redact, redact_json
from ._results import ItemResult, UsageRecord

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ._case import Case
    from ._conversation import Trajectory
    from ._environment import Environment
    from ._evaluate import Verdict
    from ._gate import GateReport
    from ._results import RunSummary

__all__ = ["error_result", "item_result", "write_run_outputs", "write_trajectory"]


def _identity(case: Case) -> dict[str, object]:
    return {"item": case.item_id, "domain": case.domain.name, "task": case.task.id, "trial": case.trial, "seed": case.seed}


def item_result(case: Case, trajectory: Trajectory, verdict: Verdict) -> ItemResult:
    errored = trajectory.end_reason == "error"
    # The agent's model ran out of room: scored 0 whatever state it left (it did not finish).
    limited = trajectory.end_reason in MODEL_LIMIT_ENDS
    passed = verdict.reward == 1.0 and not limited
    return ItemResult(
        **_identity(case),
        status="error" if errored else ("passed" if passed else "failed"),
        reward=None if errored else (0.0 if limited else verdict.reward),
        reward_parts={} if errored else verdict.parts(),
        end_reason=trajectory.end_reason,
        steps=trajectory.steps,
        turns=trajectory.turns,
        duration=round(trajectory.duration, 4),
        agent_usage=UsageRecord(**trajectory.agent_usage.to_json()),
        user_usage=UsageRecord(**trajectory.user_usage.to_json()),
        error=redact(trajectory.error) if trajectory.error else None,
        failure=None if errored or passed else _failure(trajectory, verdict),
    )


def _failure(trajectory: Trajectory, verdict: Verdict) -> str:
    if trajectory.end_reason in MODEL_LIMIT_ENDS:
        return f"the agent's model stopped the conversation ({trajectory.end_reason}): {trajectory.error}\n{verdict.explain()}".strip()
    return verdict.explain()


def error_result(case: Case, message: str) -> ItemResult:
    return ItemResult(
        **_identity(case),
        status="error",
        end_reason="error",
        error=redact(message)[:2000],
    )


def write_trajectory(
    run_dir: Path,
    result: ItemResult,
    trajectory: Trajectory,
    env: Environment,
    verdict: Verdict | None = None,
    attempt: int = 1,
) -> None:
    """One JSON file per item: messages, tool calls, final diff, the records that differ from gold, usage.

    `attempt` > 1 (--reruns): the earlier attempt's file is kept as `<item>.attempt<N>.json`."""
    folder = run_dir / "trajectories"
    folder.mkdir(parents=True, exist_ok=True)
    if attempt > 1 and (folder / f"{result.item}.json").is_file():
        (folder / f"{result.item}.json").replace(folder / f"{result.item}.attempt{attempt - 1}.json")
    document = {
        "result": result.model_dump(mode="json"),
        "messages": trajectory.messages,
        "tool_calls": [call.to_json() for call in trajectory.calls],
        "final_diff": env.state.diff(),
        # Whole records (expected per gold, actual per the run), so the HTML report shows every field.
        "gold_differences": [
            {"table": d.table, "key": d.key, "expected": d.expected, "actual": d.actual}
            for d in (verdict.state_differences if verdict is not None else [])
        ],
    }
    options = orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS
    try:
        redacted = redact_json(document)
        data = orjson.dumps(redacted, option=options)
    except (orjson.JSONEncodeError, RecursionError):
        # Whatever a model or a tool produced, the trajectory is written: what JSON cannot
        # hold (nesting past the writer's limit, values that are not JSON) is cut, marked.
        redacted = redact_json(_writable(document))
        data = orjson.dumps(redacted, option=options)
    if len(data) > _LARGE_TRAJECTORY:
        data = orjson.dumps(_writable(redacted), option=options)  # very long strings cut, marked
    (folder / f"{result.item}.json").write_bytes(data)


_LARGE_TRAJECTORY = 4_000_000  # bytes: past this, strings longer than _MAX_STRING are cut
_MAX_STRING = 100_000
_MAX_DEPTH = 64


def _writable(value: object, depth: int = 0) -> object:
    """`value` with what JSON cannot hold replaced by marked stand-ins: subtrees past
    `_MAX_DEPTH` levels, strings past `_MAX_STRING` characters, values that are not JSON."""
    if isinstance(value, str):
        if len(value) <= _MAX_STRING:
            return value
        return value[:_MAX_STRING] + f"... [truncated: {len(value) - _MAX_STRING} more characters]"
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, (dict, list, tuple)) and depth >= _MAX_DEPTH:
        return f"[truncated: nested deeper than {_MAX_DEPTH} levels]"
    if isinstance(value, dict):
        return {str(key): _writable(item, depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_writable(item, depth + 1) for item in value]
    return f"[not JSON: a {type(value).__name__}]"


def write_run_outputs(
    out: Path, summary: RunSummary, gate: GateReport, results: Sequence[ItemResult], html: Path, run_dirs: Sequence[Path]
) -> Path:
    """The files of a finished run (or of a merge of shards): `summary.json`, the GitHub step
    summary when `$GITHUB_STEP_SUMMARY` names one, step outputs (`summary`, `pass-hat-<k>`,
    `complete`, `gate`) when `$GITHUB_OUTPUT` does, and the HTML report at `html` (returned)."""
    import os

    from ._html import write_report

    (out / "summary.json").write_bytes(orjson.dumps(summary.model_dump(mode="json"), option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS))
    step_summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if step_summary:
        from ._summary_md import markdown

        with open(step_summary, "a", encoding="utf-8") as handle:
            handle.write(markdown(summary, gate, results))
    step_outputs = os.environ.get("GITHUB_OUTPUT")
    if step_outputs:
        # Step outputs a workflow passes on, e.g. to mikepenz/action-junit-report's `summary` input.
        from ._junit import suite_title

        lines = [f"summary={suite_title(summary)}", f"complete={str(summary.complete).lower()}"]
        lines += [f"pass-hat-{k}={'nan' if v is None else f'{v:.3f}'}" for k, v in summary.pass_hat_k.items()]
        if gate.configured:
            lines.append(f"gate={'failed' if gate.failed else 'passed'}")
        with open(step_outputs, "a", encoding="utf-8") as handle:
            handle.write("".join(line.replace("\n", " ") + "\n" for line in lines))
    return write_report(html, summary, results, run_dirs)
