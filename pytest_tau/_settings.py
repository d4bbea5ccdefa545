"""Run settings: command-line options, each also an ini option, resolved into one model."""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from pathlib import Path
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field

__all__ = ["OPTIONS", "Option", "Settings", "item_seed"]


class Option(BaseModel):
    """One option: `--name` on the command line, `name` (dashes as underscores) in the ini file."""

    model_config = ConfigDict(frozen=True)

    name: str
    help: str
    type: Literal["string", "int", "float", "path"] = "string"
    choices: tuple[str, ...] | None = None

    @property
    def dest(self) -> str:
        return "tau_" + self.name.replace("-", "_")

    @property
    def ini(self) -> str:
        return self.name.replace("-", "_")


OPTIONS: tuple[Option, ...] = (
    Option(name="model", help="agent model (litellm name, e.g. gpt-4o); without it the offline self-check runs"),
    Option(name="model-provider", help="litellm provider of the agent model (openai, anthropic, hosted_vllm, ...)"),
    Option(name="user-model", help="model of the simulated user (default: the agent model)"),
    Option(name="user-model-provider", help="litellm provider of the user model (default: the agent's provider)"),
    # Strategy names come from plugins (pytest_tau_declare_strategies), checked in pytest_configure.
    Option(name="agent-strategy", help="agent strategy: tool-calling (default with --model), oracle (default without), or any other a plugin provides; listed at the end of -h and by --tau-strategies"),
    Option(name="user-strategy", help="simulated-user strategy: llm (default with a model agent), scripted (default without), or any other a plugin provides; listed at the end of -h and by --tau-strategies"),
    Option(name="trials", help="trials per task, for pass^k (default 1)", type="int"),
    Option(name="task-ids", help="comma-separated task ids to run (default: every task of the split)"),
    Option(name="task-split", help="task split to run: test (default), train or dev", choices=("test", "train", "dev")),
    Option(name="temperature", help="sampling temperature of the agent and the user (default 0.0)", type="float"),
    Option(name="max-tokens", help="most tokens a model may write in one answer, agent and user; an agent answer cut there ends the conversation as max_tokens, scored 0 (default 4096)", type="int"),
    Option(name="user-max-tokens", help="most tokens the user model may write in one answer (default: --max-tokens)", type="int"),
    Option(name="max-steps", help="agent model calls per conversation before it ends as max_steps (default 30)", type="int"),
    Option(name="seed", help="base seed; each item's seed is derived from it, the domain, task and trial (default 0)", type="int"),
    Option(name="api-base", help="OpenAI-compatible base URL of the agent model (vLLM and the like)"),
    Option(name="user-api-base", help="OpenAI-compatible base URL of the user model (default: --api-base when the user model defaults to the agent's)"),
    Option(name="llm-timeout", help="seconds per model call before it counts as a timeout (default 120)", type="float"),
    Option(name="llm-retries", help="retries of a model call on 429/5xx/timeouts/dropped connections (default 8)", type="int"),
    Option(name="llm-backoff", help="first retry delay in seconds, doubled each retry, capped at 60 (default 1.0)", type="float"),
    Option(name="concurrency", help="conversations played at once in each process, on threads; items still report one by one, in order (default 8 with a model, built-in strategies and no -n; else 1)", type="int"),
    Option(name="record", help="store every model call (agent and user) in this folder, keyed on the request and the item", type="path"),
    Option(name="replay", help="answer every model call from a --record folder: zero network calls; a miss is an error", type="path"),
    Option(name="resume", help="continue the run in this run directory: rerun only its items without a result (missing or error)", type="path"),
    Option(name="run-dir", help="where results.jsonl, summary.json and trajectories go (default .tau/runs/<time>)", type="path"),
)


class Settings(BaseModel):
    """Every option resolved: command line over ini over defaults, checked once."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str | None = None
    model_provider: str | None = None
    user_model: str | None = None
    user_model_provider: str | None = None
    agent_strategy: str = Field(min_length=1)
    user_strategy: str = Field(min_length=1)
    # Whether the chosen strategies call a model: from their declarations, not options.
    agent_uses_model: bool = Field(False, exclude=True)
    user_uses_model: bool = Field(False, exclude=True)
    trials: int = Field(1, ge=1, le=1000)
    task_ids: tuple[str, ...] = ()
    task_split: Literal["test", "train", "dev"] = "test"
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    max_tokens: int = Field(4096, ge=16, le=1_000_000)
    user_max_tokens: int | None = Field(None, ge=16, le=1_000_000)  # None: --max-tokens
    max_steps: int = Field(30, ge=1, le=1000)
    seed: int = 0
    api_base: str | None = None
    user_api_base: str | None = None
    llm_timeout: float = Field(120.0, gt=0)
    llm_retries: int = Field(8, ge=0, le=100)
    llm_backoff: float = Field(1.0, ge=0)
    # None: the default of _prefetch.effective_concurrency (depends on -n and the model).
    concurrency: int | None = Field(None, ge=1, le=1024)
    record: Path | None = None
    replay: Path | None = None
    resume: Path | None = None
    run_dir: Path | None = None

    def __repr_args__(self) -> Any:
        # Tracebacks show fixture arguments (`tau_settings = Settings(model=...)`): a model
        # string or URL may carry a key, so the repr is redacted at the root.
        from ._redact import redact

        for name, value in super().__repr_args__():
            yield name, (redact(value) if isinstance(value, str) else value)

    @classmethod
    def resolve(
        cls,
        raw: dict[str, Any],
        *,
        model_agents: Collection[str] = (),
        model_users: Collection[str] = (),
        model_user_agents: Collection[str] = (),
    ) -> Settings:
        """Apply the defaults that depend on other options, then validate.

        ``model_agents`` and ``model_users`` are the strategy names declared as using a
        model: a model agent gets a model user by default.
        """
        values = {key: value for key, value in raw.items() if value not in (None, "")}
        for key in ("agent_uses_model", "user_uses_model"):
            values.pop(key, None)  # never an option
        if isinstance(values.get("task_ids"), str):
            values["task_ids"] = tuple(sorted({t.strip() for t in values["task_ids"].split(",") if t.strip()}))
        values.setdefault("agent_strategy", "tool-calling" if values.get("model") else "oracle")
        values["agent_uses_model"] = values["agent_strategy"] in model_agents
        # A remote agent meets a model customer when a model is named, else the scripted one
        # (its lines hold every credential and confirmation a careful agent asks for: validate's
        # script_answers).
        remote_with_model = values["agent_strategy"] in model_user_agents and bool(values.get("user_model") or values.get("model"))
        wants_model_user = values["agent_uses_model"] or remote_with_model
        values.setdefault("user_strategy", "llm" if wants_model_user else "scripted")
        values["user_uses_model"] = values["user_strategy"] in model_users
        if "user_model" not in values and "model" in values:
            values["user_model"] = values["model"]
            values.setdefault("user_model_provider", values.get("model_provider"))
            values.setdefault("user_api_base", values.get("api_base"))
        return cls.model_validate(values)

    def problems(self) -> list[str]:
        """What makes these settings unusable, before any item runs."""
        problems = []
        if self.agent_uses_model and not self.model:
            problems.append(f"--agent-strategy {self.agent_strategy} needs --model (e.g. --model gpt-4o)")
        if self.user_uses_model and not self.user_model:
            problems.append(f"--user-strategy {self.user_strategy} needs --user-model or --model")
        if self.record and self.replay:
            problems.append("--record and --replay exclude each other")
        if self.resume and self.run_dir and self.resume.resolve() != self.run_dir.resolve():
            problems.append("--resume DIR is the run directory; do not also pass another --run-dir")
        if self.resume and not (self.resume / "results.jsonl").is_file():
            problems.append(f"--resume {self.resume}: no results.jsonl there (is it a pytest-tau run directory?)")
        if self.replay and not self.replay.is_dir():
            problems.append(f"--replay {self.replay}: no such folder (make one with --record)")
        return problems


def settings_error(error: pydantic.ValidationError, ini_file: str | None, from_ini: set[str]) -> str:
    """Name the option, and the ini file and key when the value came from there."""
    lines = []
    for item in error.errors():
        key = str(item["loc"][0]) if item["loc"] else ""
        name = "--" + key.replace("_", "-") if key else "options"
        if key in from_ini and ini_file:
            name += f" ({ini_file}: {key})"
        lines.append(f"{name}: {item['msg']} (got {item.get('input')!r})")
    return "; ".join(lines)


def item_seed(base: int, domain: str, task_id: str, trial: int) -> int:
    """A per-item seed from sha256 of its identity (never `hash()`, which varies per process)."""
    digest = hashlib.sha256(f"{base}:{domain}:{task_id}:{trial}".encode()).digest()
    return int.from_bytes(digest[:4], "big")
