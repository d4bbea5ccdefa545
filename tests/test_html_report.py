"""The HTML report: the pure renderer (content, escaping, redaction) and the page in a real
headless Chromium (Debian's `chromium` package), checked for content, not pixels."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path
from typing import Any

import orjson
import pytest

from pytest_tau._gate import GateOptions, evaluate_gate
from pytest_tau._html import CHUNK, TrajectoryFiles, read_details, render_report, write_report
from pytest_tau._results import ItemResult, RunSummary, summarize

SECRET = "sk-" + "abcdefghijklmnop0123456789"
ATTACK = "</script><script>document.body.setAttribute('data-pwned','1')</script><img src=x onerror=\"document.body.setAttribute('data-pwned','2')\">"


def _result(domain: str, task: str, trial: int, status: str, **extra: Any) -> ItemResult:
    return ItemResult(
        item=f"{domain}-{task}-t{trial}", domain=domain, task=task, trial=trial, seed=trial, status=status,  # type: ignore[arg-type]
        reward=None if status == "error" else float(status == "passed"), end_reason=extra.pop("end_reason", "user_stop" if status != "error" else "error"),
        steps=3, turns=2, **extra,
    )


def _run() -> tuple[RunSummary, list[ItemResult], dict[str, Any]]:
    results = [
        _result("retail", "t1", 0, "passed"),
        _result("retail", "t1", 1, "passed"),
        _result("retail", "t2", 0, "failed", failure=f"final DB state differs from gold; told {ATTACK}"),
        _result("retail", "t2", 1, "passed"),
        _result("airline", "t1", 0, "failed", failure="required outputs never told to the user: '4.50'", end_reason="max_steps"),
        _result("airline", "t1", 1, "failed", failure="required outputs never told to the user: '4.50'"),
        _result("airline", "t2", 0, "error", error=f"cannot reach model openai/x?api_key={SECRET}"),
        _result("airline", "t2", 1, "passed"),
    ]
    summary = summarize(results, 2, {"agent_strategy": "tool-calling", "user_strategy": "llm", "seed": 11, "task_split": "test"})
    summary.model = "openai/gpt-test"
    evaluate_gate(summary, results, 2, GateOptions())  # records its verdict in summary.gate
    trajectories = {
        "retail-t2-t0": {
            "messages": [
                {"role": "user", "content": f"Hi, my key is {SECRET}. {ATTACK}"},
                {"role": "assistant", "content": "Looking.", "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "find_order", "arguments": "{\"order_id\": \"#W1\"}"}}]},
                {"role": "tool", "tool_call_id": "c1", "name": "find_order", "content": "{\"order_id\": \"#W1\", \"status\": \"pending\"}"},
                {"role": "assistant", "content": "Your order is cancelled."},
            ],
            "final_diff": {"orders": {"#W1": {"order_id": "#W1", "status": "pending"}}},
            "gold_differences": [{"table": "orders", "key": "#W1", "expected": {"order_id": "#W1", "status": "cancelled"},
                                  "actual": {"order_id": "#W1", "status": "pending"}}],
        },
    }
    return summary, results, trajectories


def _details(page: str) -> dict[str, Any]:
    """The per-item JSON elements of a page, by element id."""
    return {f"t{index}": detail for index, detail in enumerate(read_details(page))}


def test_report_has_the_overview_and_every_item() -> None:
    summary, results, trajectories = _run()
    page = render_report(summary, results, trajectories)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "openai/gpt-test" in page and ">tool-calling<" in page and 'data-key="seed">11<' in page
    # pass^k per domain, with the bootstrap interval the gate computed
    retail = re.search(r'<tr data-domain="retail">(.*?)</tr>', page)
    assert retail is not None
    interval = summary.gate["intervals"]["retail"]["1"]  # type: ignore[index]
    assert f"{summary.domains['retail'].pass_hat_k[1]:.3f}" in retail.group(1)
    assert f"[{interval[0]:.2f}, {interval[1]:.2f}]" in retail.group(1)
    assert '<tr class="overall" data-domain="overall">' in page
    # the curves: one series per domain and overall, a point per k with a value
    assert page.count('<g class="series"') == 3 and "<svg" in page
    assert 'pass^2 = ' in page
    table = orjson.loads(re.search(r'<script type="application/json" id="tau-items">(.*?)</script>', page).group(1))  # type: ignore[union-attr]
    assert [row[0] for row in table["rows"]] == sorted(r.item for r in results)
    assert table["domains"] == ["airline", "retail"] and "max_steps" in table["ends"]
    details = _details(page)
    assert len(details) == len(results)
    index = [row[0] for row in table["rows"]].index("retail-t2-t0")
    opened = details[f"t{index}"]
    assert opened["gold_differences"][0]["expected"]["status"] == "cancelled"
    assert opened["messages"][2]["name"] == "find_order"
    assert "messages" not in details["t0"]  # no trajectory: the result only


def test_last_result_of_an_item_wins() -> None:
    summary, results, trajectories = _run()
    rerun = results[4].model_copy(update={"status": "passed", "reward": 1.0, "failure": None})
    page = render_report(summary, [*results, rerun], trajectories)
    table = orjson.loads(re.search(r'id="tau-items">(.*?)</script>', page).group(1))  # type: ignore[union-attr]
    assert len(table["rows"]) == len(results)
    assert next(r for r in table["rows"] if r[0] == rerun.item)[4] == "passed"


def test_model_output_cannot_inject_markup() -> None:
    summary, results, trajectories = _run()
    summary.model = "openai/<b>bold</b>"
    page = render_report(summary, results, trajectories)
    # Our own script elements only: the table, one per item, and the page's code.
    assert page.count("<script") == 1 + -(-len(results) // CHUNK) + 1
    assert "</script><script>document" not in page and "<img" not in page and "<b>bold" not in page
    assert "openai/&lt;b&gt;bold&lt;/b&gt;" in page
    # ...and the text itself survives, as data.
    assert any(ATTACK in m["content"] for d in _details(page).values() for m in d.get("messages", []))


def test_secrets_are_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    env_secret = "envsecretvalue-123456"
    monkeypatch.setenv("MY_SERVICE_TOKEN", env_secret)
    summary, results, trajectories = _run()
    summary.model = f"openai/x?api_key={SECRET}"
    trajectories["retail-t2-t0"]["messages"].append({"role": "user", "content": f"token {env_secret}"})
    page = render_report(summary, results, trajectories)
    details = orjson.dumps(read_details(page)).decode()
    assert SECRET not in page + details and env_secret not in page + details
    assert "api_key=***" in page and "my key is ***" in details


def test_write_report_reads_trajectory_files(tmp_path: Path) -> None:
    summary, results, trajectories = _run()
    folder = tmp_path / "run" / "trajectories"
    folder.mkdir(parents=True)
    (folder / "retail-t2-t0.json").write_bytes(orjson.dumps(trajectories["retail-t2-t0"]))
    (folder / "retail-t1-t0.json").write_bytes(b'{"messages": [')  # cut short by a killed worker
    files = TrajectoryFiles([tmp_path / "run"])
    assert set(files) == {"retail-t2-t0", "retail-t1-t0"} and "retail-t1-t0" not in files
    path = write_report(tmp_path / "out" / "report.html", summary, results, [tmp_path / "run"])
    details = _details(path.read_text(encoding="utf-8"))
    assert sum("messages" in d for d in details.values()) == 1


# -- a real browser ------------------------------------------------------------------------


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium binary on PATH (Debian: apt-get install -y chromium); the browser test needs one")


def _browse(page: Path, fragment: str, tmp_path: Path, *extra: str) -> str:
    cmd = [
        _chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1280,1600",
        "--virtual-time-budget=10000",  # the page inflates an opened item's conversation asynchronously
        *extra, page.as_uri() + fragment,
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def _png_colors(path: Path) -> tuple[int, int, dict[bytes, int]]:
    """Width, height and the count of each colour of an 8-bit RGB/RGBA PNG (unfiltered rows)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 4
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6)
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * channels
    colors: dict[bytes, int] = {}
    previous = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):  # the five PNG filters, undone
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 4 == 0:  # every 4th row is plenty to tell a blank page from a report
            for x in range(0, stride, channels * 2):
                pixel = bytes(line[x:x + 3])
                colors[pixel] = colors.get(pixel, 0) + 1
        previous = line
    return width, height, colors


def test_page_in_headless_chromium(tmp_path: Path) -> None:
    summary, results, trajectories = _run()
    page = tmp_path / "report.html"
    page.write_text(render_report(summary, results, trajectories), encoding="utf-8")

    dom = _browse(page, "#status=failed&domain=airline", tmp_path, "--dump-dom")
    assert 'id="tau-ready"' in dom, "the page's script did not finish"
    retail = re.search(r'<tr data-domain="retail">(.*?)</tr>', dom)
    assert retail is not None and f"{summary.domains['retail'].pass_hat_k[1]:.3f}" in retail.group(1)
    rows = re.findall(r'data-item="([^"]+)" data-status="([^"]+)"', dom)
    assert sorted(rows) == [("airline-t1-t0", "failed"), ("airline-t1-t1", "failed")]
    assert "2 of 8 items" in dom

    dom = _browse(page, "#q=cancelled%20nothing", tmp_path, "--dump-dom")
    assert re.findall(r'data-item="([^"]+)"', dom) == [] and "0 of 8 items" in dom
    dom = _browse(page, "#q=final%20db", tmp_path, "--dump-dom")
    assert re.findall(r'data-item="([^"]+)"', dom) == ["retail-t2-t0"]

    # An opened item: its conversation, tool call and result, and the diff against gold; the
    # <script> a model wrote is shown as text and never runs.
    dom = _browse(page, "#item=retail-t2-t0", tmp_path, "--dump-dom")
    detail = dom[dom.index('<div id="detail">'):]
    assert "→ find_order(" in detail and "tool result: find_order" in detail
    assert '<tr class="differs"><td>status</td><td>"cancelled"</td><td>"pending"</td></tr>' in detail
    assert "&lt;/script&gt;&lt;script&gt;document.body.setAttribute" in detail
    assert "data-pwned" not in dom.split("<body", 1)[1].split(">", 1)[0]
    assert SECRET not in dom

    shot = tmp_path / "shot.png"
    _browse(page, "#item=retail-t2-t0", tmp_path, f"--screenshot={shot}")
    width, height, colors = _png_colors(shot)
    assert (width, height) == (1280, 1600)
    # Non-blank: a blank page is one colour; the report has text (anti-aliased: many colours),
    # its dark header and no colour covering nearly everything.
    assert len(colors) > 20 and max(colors.values()) < 0.95 * sum(colors.values())
    assert colors.get(bytes((0x26, 0x32, 0x38)), 0) > 1000  # the header bar
