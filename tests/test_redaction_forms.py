"""Every credential form, planted in the settings and echoed back by a failing endpoint, is
absent from every output of the run: terminal, JUnit, results, trajectories, summary.json,
the HTML report, the MT-Benchmark files, the log file and the step summary."""

from __future__ import annotations

import base64
import json
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from pytest_tau._redact import redact

TOY_PROJECT = Path(__file__).parent / "toy_project"

USERINFO = "ghpUserinfoToken0123"  # https://TOKEN@host
PASSWORD = "pwBasicSecret0123"  # https://user:PASSWORD@host, and echoed as Authorization: Basic
QUERY_KEY = "xApiKeyQuerySecret01"  # ?x-api-key=
QUERY_CODE = "oauthCodeSecret0123"  # &code=
HEADER_KEY = "headerApiKeySecret01"  # an echoed x-api-key: header
BASIC = base64.b64encode(f"proxyuser:{PASSWORD}".encode()).decode()
ENV_KEY = "sk-envCanary0123456789abcdef"  # the provider key, sent as Authorization: Bearer
PLANTED = [USERINFO, PASSWORD, QUERY_KEY, QUERY_CODE, HEADER_KEY, BASIC, ENV_KEY]


class _Echo(BaseHTTPRequestHandler):
    """A proxy that refuses every request and echoes what it got, credentials included."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length") or 0))
        body = json.dumps({"error": {
            "message": (
                f"unauthorized: {self.path}; Authorization: {self.headers.get('authorization')}; "
                f"proxy saw Authorization: Basic {BASIC}; x-api-key: {HEADER_KEY}; headers {dict(self.headers)!r}"
            ),
            "type": "invalid_request_error", "code": "invalid_api_key",
        }}).encode()
        self.send_response(401)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def echo_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_unit_every_form() -> None:
    text = (
        f"https://{USERINFO}@api.example.com/v1 http://user:{PASSWORD}@h/v1 "
        f"http://h/v1?model=x&x-api-key={QUERY_KEY}&code={QUERY_CODE} "
        f"Authorization: Basic {BASIC} 'x-api-key': '{HEADER_KEY}' Authorization: Bearer {ENV_KEY[3:]}"
    )
    cleaned = redact(text)
    assert not [secret for secret in PLANTED if secret in cleaned]
    assert "https://***@api.example.com/v1" in cleaned and "model=x&x-api-key=***&code=***" in cleaned
    assert "Authorization: Basic ***" in cleaned and "'x-api-key': '***'" in cleaned
    # prose and ordinary values stay
    for kept in ("Authorization: ask the caller first", "country_code=US is kept? no: code=401", "Retry-After: 3", "the key: a value"):
        assert redact(kept).startswith(kept.split("?")[0][:12])


def test_every_output_is_clean(pytester: pytest.Pytester, monkeypatch, echo_server, tmp_path) -> None:
    shutil.copytree(TOY_PROJECT, pytester.path, dirs_exist_ok=True)
    (pytester.path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\n")
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    step = tmp_path / "step.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step))
    api_base = f"http://{USERINFO}@{echo_server}/v1?x-api-key={QUERY_KEY}&code={QUERY_CODE}"
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--run-dir=run", "--model", "openai/gpt-4o-mini", "--api-base", api_base,
        "--user-model", "openai/gpt-4o-mini", "--user-api-base", f"http://proxyuser:{PASSWORD}@{echo_server}/v1",
        "--llm-retries", "0", "--junitxml=junit.xml", "--mt-out=mt", "--log-file=run.log", "--log-file-level=DEBUG",
        "-rA", "--tb=long",
    )
    assert result.ret != 0
    outputs = {"terminal": result.stdout.str() + result.stderr.str(), "step summary": step.read_text() if step.exists() else ""}
    for path in pytester.path.rglob("*"):
        if path.is_file() and path.suffix in (".xml", ".json", ".jsonl", ".html", ".log", ".md", ".txt", ""):
            outputs[str(path.relative_to(pytester.path))] = path.read_text(errors="replace")
    written = [name for name in outputs if name.startswith(("run/", "mt/")) or name in ("junit.xml", "run.log")]
    assert {"run/summary.json", "run/results.jsonl", "junit.xml", "run.log"} <= set(written), sorted(outputs)
    assert any(name.startswith("run/trajectories/") for name in written) and any(name.startswith("mt/") for name in written)
    assert "401" in outputs["terminal"] or "unauthorized" in outputs["terminal"].lower()
    leaks = {name: [s for s in PLANTED if s in text] for name, text in outputs.items() if name != "pytest.ini"}
    assert not {name: found for name, found in leaks.items() if found}
