"""MT-Benchmark output (`--mt-out DIR`): the files an MT-Benchmark evaluation platform reads.

Per domain (the platform's *subset*), in `DIR/<domain>/`:

- `{model}_task{id}_trajectory.jsonl`: one message per line, the agent's system prompt
  first, then the conversation (user, assistant with tool calls, tool results) as the
  agent saw it.
- `{model}_scores.jsonl`: one object per item with the keys, in this order, `task-id`,
  `prompt`, `result`, `truth`, `score`, `duration`.

`{model}` is the agent model string (redacted) with `/`, `:`, `?`, `*` and every other
character a file name or a CI artifact cannot carry replaced by `-` (the agent
strategy's name in a run without a model). The first trial of a task is `task-<id>`, a
later trial `n` is `task-<id>-t<n>` (task ids never contain `-`, so the suffix cannot be
mistaken for part of an id); the trajectory file uses the same id after `task`.

Written on the controller (also under xdist) through the `pytest_tau_item_result` and
`pytest_tau_run_summary` hooks: a row and a trajectory as each item finishes, then every
scores file rewritten in task order once the run's summary is known.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import orjson

from ._redact import redact, redact_json
from ._results import ItemResult, read_results

if TYPE_CHECKING:
    import pytest

    from ._domain import Domain
    from ._results import RunSummary
    from ._settings import Settings
    from ._tasks import Task

__all__ = [
    "NO_ACTIONS",
    "SCORE_KEYS",
    "MTWriter",
    "format_calls",
    "model_label",
    "mt_task_id",
    "parse_mt_task_id",
    "schema",
    "scores_file",
    "scores_row",
    "trajectory_file",
]

SCORE_KEYS = ("task-id", "prompt", "result", "truth", "score", "duration")
NO_ACTIONS = "No actions executed"
SCHEMAS = Path(__file__).parent / "schemas"


def schema(name: str = "mt_scores") -> dict[str, Any]:
    """A JSON Schema shipped with the package: `mt_scores` (one scores line) or `mt_trajectory` (one message)."""
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    return loaded


def model_label(settings: Settings) -> str:
    """The `{model}` of the file names: the agent model with `/` as `-`, secrets masked."""
    return label_for(settings.model if settings.agent_uses_model else None, settings.agent_strategy)


_MAX_LABEL = 120  # file names hold 255 bytes; the label shares one with a task id and a suffix


def label_for(model: str | None, strategy: str) -> str:
    """The model string (or, for an agent without a model, its strategy) as a file-name part
    every system and CI artifact store accepts: `/`, `\\`, `:`, `?`, `*` and the other
    characters Windows or `actions/upload-artifact` refuse become `-` (Bedrock's
    `...-v1:0`, Ollama's `llama3:8b`); a label too long for a file name keeps its start and a
    digest of the whole."""
    label = re.sub(r"[^A-Za-z0-9._+=@-]+", "-", redact(model or strategy)).strip("-.") or "model"
    if len(label) <= _MAX_LABEL:
        return label
    digest = hashlib.sha256(label.encode()).hexdigest()[:12]
    return label[: _MAX_LABEL - 13] + "-" + digest


def mt_task_id(task: str, trial: int) -> str:
    """`task-<id>` for the first trial, `task-<id>-t<n>` for trial n >= 1."""
    return f"task-{task}" + (f"-t{trial}" if trial else "")


def parse_mt_task_id(value: str) -> tuple[str, int | None]:
    """The task and trial of an MT id (`task-` optional); trial None when not given."""
    if value.startswith("task-"):
        value = value[len("task-") :]
    task, sep, trial = value.rpartition("-t")
    if sep and task and trial.isdigit():
        return task, int(trial)
    return value, None


def scores_file(out: Path, domain: str, label: str) -> Path:
    return out / domain / f"{label}_scores.jsonl"


def trajectory_file(out: Path, domain: str, label: str, task: str, trial: int) -> Path:
    return out / domain / f"{label}_task{mt_task_id(task, trial)[len('task-'):]}_trajectory.jsonl"


def format_calls(calls: Iterable[tuple[str, Any]]) -> str:
    """Tool calls as `name(<json args>)`, joined by ", "; `No actions executed` when none.

    Arguments the model sent as text that is not a JSON object are kept as that text.
    """
    parts = []
    for name, arguments in calls:
        args = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
        parts.append(f"{name}({args})")
    return ", ".join(parts) if parts else NO_ACTIONS


def scores_row(result: ItemResult, task: Task | None, calls: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """One line of `{model}_scores.jsonl`, keys in the platform's order.

    `score` is the item's reward, or null for an item that ended in an infrastructure
    error (not scored, as pass^k leaves it out); `duration` is the conversation's wall time.
    """
    row = {
        "task-id": mt_task_id(result.task, result.trial),
        "prompt": task.user.instructions if task is not None else "",
        "result": format_calls(calls),
        "truth": format_calls((a.name, a.arguments) for a in task.gold_actions) if task is not None else NO_ACTIONS,
        "score": result.reward,
        "duration": result.duration,
    }
    redacted: dict[str, Any] = redact_json(row)
    return redacted


def system_prompt(domain: Domain[Any] | None) -> dict[str, Any]:
    """The system message a tool-calling agent of this domain is given."""
    if domain is None:
        return {"role": "system", "content": ""}
    from . import _agents

    template = getattr(_agents, "AGENT_INSTRUCTIONS", "{policy}")
    try:
        content = template.format(policy=domain.policy)
    except (KeyError, IndexError, ValueError):
        content = domain.policy
    return {"role": "system", "content": content}


def _dump_line(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS) + b"\n"


class MTWriter:
    """The `--mt-out` plugin object, registered on the controller."""

    def __init__(self, config: pytest.Config, settings: Settings, out: Path, run_dir: Path) -> None:
        self.root = config.rootpath
        self.out = out
        self.run_dir = run_dir
        self.label = model_label(settings)
        # --resume: the earlier items belong in the files too (the last result per item wins).
        self.results: list[ItemResult] = read_results(run_dir / "results.jsonl") if settings.resume else []
        self._domains: dict[str, Domain[Any] | None] = {}
        self._files: dict[str, IO[bytes]] = {}

    def _domain(self, name: str) -> Domain[Any] | None:
        if name not in self._domains:
            from ._discovery import load_domain

            try:
                self._domains[name] = load_domain(name, self.root)
            except Exception:  # a domain that cannot load here still gets its rows, with empty prompt and truth
                self._domains[name] = None
        return self._domains[name]

    def _task(self, domain: Domain[Any] | None, task_id: str) -> Task | None:
        if domain is None:
            return None
        return next((t for t in domain.tasks if t.id == task_id), None)

    def _trajectory(self, result: ItemResult) -> Mapping[str, Any]:
        path = self.run_dir / "trajectories" / f"{result.item}.json"
        try:
            document: Mapping[str, Any] = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            return {}  # an item that failed before its conversation ran
        return document

    def _write_item(self, result: ItemResult) -> bytes:
        """Write the item's trajectory file; return its scores line."""
        domain = self._domain(result.domain)
        document = self._trajectory(result)
        messages = [system_prompt(domain), *document.get("messages", [])]
        path = trajectory_file(self.out, result.domain, self.label, result.task, result.trial)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"".join(_dump_line(redact_json(m)) for m in messages))
        calls = [(c.get("name", ""), c.get("arguments", {})) for c in document.get("tool_calls", [])]
        return _dump_line(scores_row(result, self._task(domain, result.task), calls))

    def pytest_tau_item_result(self, config: pytest.Config, result: ItemResult) -> None:
        self.results.append(result)
        line = self._write_item(result)
        handle = self._files.get(result.domain)
        if handle is None:
            path = scores_file(self.out, result.domain, self.label)
            path.parent.mkdir(parents=True, exist_ok=True)
            handle = self._files[result.domain] = open(path, "ab")  # noqa: SIM115 - open for the run
        handle.write(line)
        handle.flush()  # a crash keeps every finished item's row

    def pytest_tau_run_summary(self, config: pytest.Config, summary: RunSummary) -> None:
        """Rewrite each scores file complete and in task order (the last result per item)."""
        for handle in self._files.values():
            handle.close()
        self._files.clear()
        latest = {r.item: r for r in self.results}
        by_domain: dict[str, list[ItemResult]] = {}
        for result in sorted(latest.values(), key=lambda r: (r.domain, r.task, r.trial)):
            by_domain.setdefault(result.domain, []).append(result)
        for domain, results in by_domain.items():
            lines = b"".join(self._write_item(r) for r in results)
            path = scores_file(self.out, domain, self.label)
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_name(path.name + ".tmp")
            temporary.write_bytes(lines)
            os.replace(temporary, path)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        for handle in self._files.values():
            handle.close()
        self._files.clear()
