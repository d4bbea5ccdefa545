"""The scores of finished runs, read once from their MT-Benchmark files and served from memory."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import orjson

from .._mt import parse_mt_task_id

__all__ = ["Row", "RunScores", "load_run_scores"]

SUFFIX = "_scores.jsonl"


@dataclass(frozen=True)
class Row:
    task: str
    trial: int
    line: bytes  # the scores line as the run wrote it, newline included


@dataclass
class RunScores:
    """One run's scores: model label -> subset (domain) -> rows in task order."""

    models: dict[str, dict[str, list[Row]]] = field(default_factory=dict)
    # `<subset>/<file>:<line>` of every line that could not be read: reported with the scores, never hidden.
    unreadable: list[str] = field(default_factory=list)
    _joined: dict[tuple[str, str | None], bytes] = field(default_factory=dict)

    def body(self, model: str, subset: str | None) -> bytes:
        """Every row of a model (one subset, or all in subset order), as one JSONL body."""
        key = (model, subset)
        if key not in self._joined:
            subsets = self.models[model]
            chosen = [subsets[subset]] if subset is not None else [subsets[s] for s in sorted(subsets)]
            self._joined[key] = b"".join(row.line for rows in chosen for row in rows)
        return self._joined[key]

    def rows(self, model: str, subset: str | None, task: str, trial: int | None) -> list[Row]:
        subsets = self.models[model]
        chosen = [subsets[subset]] if subset is not None else [subsets[s] for s in sorted(subsets)]
        return [r for rows in chosen for r in rows if r.task == task and (trial is None or r.trial == trial)]


def load_run_scores(mt_dir: Path) -> RunScores:
    """Read `<mt_dir>/<subset>/<model>_scores.jsonl` files; unreadable lines are listed in `unreadable`."""
    scores = RunScores()
    if not mt_dir.is_dir():
        return scores
    for path in sorted(mt_dir.glob(f"*/*{SUFFIX}")):
        model, subset = path.name[: -len(SUFFIX)], path.parent.name
        rows = []
        for number, line in enumerate(path.read_bytes().splitlines(), 1):
            try:
                task_id = orjson.loads(line)["task-id"]
            except (orjson.JSONDecodeError, KeyError, TypeError):
                if line.strip():
                    scores.unreadable.append(f"{subset}/{path.name}:{number}")
                continue
            task, trial = parse_mt_task_id(str(task_id))
            rows.append(Row(task, trial or 0, line + b"\n"))
        scores.models.setdefault(model, {})[subset] = rows
    return scores
