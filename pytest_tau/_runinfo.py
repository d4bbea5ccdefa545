"""A run directory's identity (`run.json`): what `--resume` must match.

Written when the run's first result is stored, so even a killed run has it. Resuming with
other settings would mix two experiments in one pass^k, so it is refused with the
options that differ.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from ._redact import redact_json

if TYPE_CHECKING:
    from ._settings import Settings

__all__ = ["IDENTITY_FIELDS", "identity", "resume_problems", "reuse_problems", "write_run_info"]

RUN_INFO = "run.json"
# What changes what is measured. Not here: where files go, retry and timeout knobs.
IDENTITY_FIELDS = (
    "model", "model_provider", "user_model", "user_model_provider", "agent_strategy", "user_strategy",
    "trials", "task_split", "task_ids", "temperature", "max_steps", "max_tokens", "user_max_tokens", "seed",
)


def identity(settings: Settings) -> dict[str, Any]:
    data = settings.model_dump(mode="json", include=set(IDENTITY_FIELDS))
    return dict(redact_json(data))


def write_run_info(run_dir: Path, settings: Settings) -> None:
    path = run_dir / RUN_INFO
    if not path.exists():
        path.write_bytes(orjson.dumps({"identity": identity(settings)}, option=orjson.OPT_INDENT_2))


def _stored_identity(run_dir: Path) -> dict[str, Any] | None:
    for name, key in ((RUN_INFO, "identity"), ("summary.json", "settings")):
        path = run_dir / name
        if path.is_file():
            try:
                data = orjson.loads(path.read_bytes()).get(key)
            except (orjson.JSONDecodeError, AttributeError):
                continue
            if isinstance(data, dict):
                return {field: data.get(field) for field in IDENTITY_FIELDS if field in data}
    return None


def resume_problems(run_dir: Path, settings: Settings) -> list[str]:
    """Why this run cannot continue the one in `run_dir` (other settings), or nothing."""
    stored = _stored_identity(run_dir)
    if stored is None:
        return []  # a run directory from before run.json: nothing to compare
    current = identity(settings)
    differ = [f for f in IDENTITY_FIELDS if f in stored and stored[f] != current.get(f)]
    if not differ:
        return []
    details = ", ".join(f"--{f.replace('_', '-')} was {stored[f]!r}, now {current.get(f)!r}" for f in differ)
    return [
        f"--resume {run_dir}: that run was made with other settings ({details}); "
        "resume with the same options, or start a new run without --resume"
    ]


def reuse_problems(run_dir: Path) -> list[str]:
    """A run directory holds one run: another run into it, without --resume, would append
    its results to the earlier ones (and --resume, --baseline, merge would read both)."""
    results = run_dir / "results.jsonl"
    try:
        held = results.stat().st_size > 0
    except OSError:  # no such file: an empty or new folder
        return []
    if not held:
        return []
    return [
        f"--run-dir {run_dir} already holds a run (its results.jsonl); a run directory holds one run: "
        f"continue that run with --resume {run_dir}, or give a new --run-dir (or delete {run_dir} to start over)"
    ]
