"""A run directory holds one run, and every reader of results refuses a line it cannot read
(a skipped line silently changes what --resume reruns and what a summary, a baseline or a
merge counts). Costs nobody can price (NaN, infinity) keep a results line readable."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import orjson
import pytest

from conftest import TOY_PROJECT
from pytest_tau._results import ItemResult, UsageRecord, read_results, summarize

LINE = {
    "item": "toy-loan_dune-t0", "domain": "toy", "task": "loan_dune", "trial": 0, "seed": 1,
    "status": "passed", "reward": 1.0, "end_reason": "user_stop",
}


@pytest.fixture
def toy(pytester: pytest.Pytester) -> pytest.Pytester:
    shutil.copytree(TOY_PROJECT, pytester.path, dirs_exist_ok=True)
    (pytester.path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\n")
    return pytester


def _write(path: Path, *lines: bytes, end: bytes = b"\n") -> Path:
    path.mkdir(parents=True, exist_ok=True)
    (path / "results.jsonl").write_bytes(b"\n".join(lines) + end)
    return path


def test_a_second_run_into_a_run_dir_is_refused_with_the_way_out(toy: pytest.Pytester) -> None:
    run_dir = _write(toy.path / "run", orjson.dumps(LINE))
    result = toy.runpytest("-p", "no:cacheprovider", "--run-dir", str(run_dir), "--agent-strategy", "do-nothing")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--run-dir {run_dir} already holds a run*--resume {run_dir}*new --run-dir*"])
    assert (run_dir / "results.jsonl").read_bytes().count(b"\n") == 1  # untouched


def test_resume_refuses_an_unreadable_line_naming_it(toy: pytest.Pytester) -> None:
    unknown_field = orjson.dumps({**LINE, "item": "toy-loan_dune-t1", "trial": 1, "added_later": 1})
    run_dir = _write(toy.path / "run", orjson.dumps(LINE), unknown_field)
    result = toy.runpytest("-p", "no:cacheprovider", "--resume", str(run_dir))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--resume {run_dir}: {run_dir / 'results.jsonl'}:2: a results line that cannot be read*added_later*"])


def test_baseline_refuses_an_unreadable_line(toy: pytest.Pytester) -> None:
    baseline = _write(toy.path / "base", b"garbage", orjson.dumps(LINE))
    result = toy.runpytest("-p", "no:cacheprovider", "--run-dir", "new", "--baseline", str(baseline))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--baseline {baseline}: {baseline / 'results.jsonl'}:1: a results line that cannot be read*"])


def test_merge_refuses_an_unreadable_line(tmp_path: Path) -> None:
    from pytest_tau.merge import MergeError, _Shard

    shard = _write(tmp_path / "s1", orjson.dumps(LINE), b'{"item": ')
    (shard / "shard.json").write_text(json.dumps({"index": 1, "count": 2, "selection": "x", "tasks": []}))
    (shard / "results.jsonl").write_bytes((shard / "results.jsonl").read_bytes() + orjson.dumps(LINE) + b"\n")
    with pytest.raises(MergeError, match=r"results.jsonl:2: a results line that cannot be read"):
        _Shard(shard)


def test_only_a_last_line_cut_by_a_kill_is_left_out(tmp_path: Path) -> None:
    run_dir = _write(tmp_path, orjson.dumps(LINE), b'{"item": "toy-loan_du', end=b"")
    assert [r.item for r in read_results(run_dir / "results.jsonl")] == ["toy-loan_dune-t0"]


def test_resume_cuts_the_torn_line_so_the_file_stays_readable(toy: pytest.Pytester) -> None:
    """Resuming after a kill mid-line, then resuming again: every line still reads."""
    first = toy.runpytest("-p", "no:cacheprovider", "--run-dir", "run", "-k", "loan_dune")
    assert first.ret == 0
    results = toy.path / "run" / "results.jsonl"
    results.write_bytes(results.read_bytes() + b'{"item": "toy-fines_then_lo')
    for _ in range(2):
        again = toy.runpytest("-p", "no:cacheprovider", "--resume", "run")
        assert again.ret == 0, again.stderr.str()
    assert len(read_results(results)) == len(results.read_bytes().splitlines()) == 3


@pytest.mark.parametrize("cost", [math.nan, math.inf, -math.inf, None])
def test_a_cost_nobody_can_price_keeps_the_line_readable(cost: float | None, tmp_path: Path) -> None:
    result = ItemResult.model_validate({**LINE, "agent_usage": {"calls": 1, "cost": cost}})
    line = orjson.dumps(result.model_dump(mode="json"))
    _write(tmp_path, line)
    (back,) = read_results(tmp_path / "results.jsonl")
    assert back.agent_usage == UsageRecord(calls=1, cost=0.0)
    assert summarize([back], 1).cost == 0.0


def test_collect_only_records_no_lost_item(toy: pytest.Pytester) -> None:
    """Items listed, not meant to run: none is an error (the accounting is for runs)."""
    result = toy.runpytest("-p", "no:cacheprovider", "--run-dir", "run", "--collect-only", "-q")
    assert result.ret == 0
    assert not (toy.path / "run" / "results.jsonl").exists()
