"""The run's static HTML report: one self-contained file (inline CSS, JS and SVG; no network).

`render_report` is a pure function of a run's summary, its results and its trajectories, so
the end of a run and a merge of shards build the same page. Scale: the item table is one
JSON blob rendered by JS a screenful at a time; the items' conversations are gzip-compressed
in chunks of `CHUNK` items (base64 in `<script type="application/gzip">` elements; the
browser's DecompressionStream opens a chunk when one of its items is opened), which keeps a
10,000-item report a small fraction of its plain size. Every string goes through `redact`,
and data reaches the page only as escaped JSON, base64, or escaped text (the JS writes it
with textContent, never as markup).
"""

from __future__ import annotations

import base64
import gzip
import html
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from ._redact import json_redactor, redact, redact_json

if TYPE_CHECKING:
    from ._results import ItemResult, RunSummary

__all__ = ["CHUNK", "TrajectoryFiles", "add_options", "read_details", "render_report", "write_report"]

# Items per compressed chunk of conversations: big enough to compress well (items of a run
# repeat their tools and wording), small enough that opening one item inflates little.
CHUNK = 32

COLUMNS = ("item", "domain", "task", "trial", "status", "reward", "end_reason", "steps", "turns", "cost", "duration", "note")
_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22")


def add_options(group: Any) -> None:
    group.addoption("--tau-html", dest="tau_html", default=None, metavar="PATH",
                    help="write the run's HTML report to PATH (default: report.html in the run directory)")


class TrajectoryFiles(Mapping[str, Any]):
    """Trajectories read on demand from the `trajectories/` folders of run directories
    (a later directory wins for an item in several, as a later result does)."""

    def __init__(self, run_dirs: Sequence[Path]) -> None:
        self.folders = [Path(d) / "trajectories" for d in run_dirs]

    def _path(self, item: str) -> Path | None:
        if "/" in item or "\\" in item or item.startswith("."):
            return None
        for folder in reversed(self.folders):
            path = folder / f"{item}.json"
            if path.is_file():
                return path
        return None

    def __getitem__(self, item: str) -> Any:
        path = self._path(item)
        if path is None:
            raise KeyError(item)
        try:
            return orjson.loads(path.read_bytes())
        except ValueError:  # a file cut short by a killed worker: shown as missing
            raise KeyError(item) from None

    def __iter__(self) -> Iterator[str]:
        seen: set[str] = set()
        for folder in self.folders:
            for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
                if path.stem not in seen:
                    seen.add(path.stem)
                    yield path.stem

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _script_json(value: Any, element_id: str) -> str:
    # Inside JSON, <, > and & occur only in strings, where \u escapes mean the same: no
    # "</script>" or "<!--" in model output can end the element early.
    text = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def _chunk_script(details: Sequence[dict[str, Any]], number: int) -> str:
    # base64 holds no <, > or &: no model output can end the element early. mtime 0: the
    # same run gives the same page, byte for byte.
    packed = gzip.compress(orjson.dumps(list(details), option=orjson.OPT_NON_STR_KEYS), compresslevel=6, mtime=0)
    return f'<script type="application/gzip" id="c{number}">{base64.b64encode(packed).decode()}</script>'


def read_details(page: str) -> list[dict[str, Any]]:
    """Every item's detail document of a rendered page, in table order (for tests and tools)."""
    import re

    found = re.findall(r'<script type="application/gzip" id="c(\d+)">([^<]*)</script>', page)
    out: list[dict[str, Any]] = []
    for _, packed in sorted(found, key=lambda pair: int(pair[0])):
        out += orjson.loads(gzip.decompress(base64.b64decode(packed)))
    return out


def _e(value: object) -> str:
    return html.escape(redact(str(value)), quote=True)


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _intervals(summary: RunSummary) -> dict[str, dict[int, tuple[float, float]]]:
    """The bootstrap intervals the gate computed (summary.gate), by scope ("overall" or a domain) and k."""
    raw = (summary.gate or {}).get("intervals") or {}
    out: dict[str, dict[int, tuple[float, float]]] = {}
    if isinstance(raw, dict):
        for scope, ks in raw.items():
            if isinstance(ks, dict):
                out[str(scope)] = {int(k): (float(v[0]), float(v[1])) for k, v in ks.items() if isinstance(v, (list, tuple)) and len(v) == 2}
    return out


def _overview(summary: RunSummary, latest: Sequence[ItemResult]) -> str:
    settings = summary.settings
    identity = [
        ("model", summary.model or "offline self-check"),
        ("user model", summary.user_model or "–"),
        ("agent strategy", settings.get("agent_strategy", "–")),
        ("user strategy", settings.get("user_strategy", "–")),
        ("trials", summary.trials),
        ("seed", settings.get("seed", "–")),
        ("split", settings.get("task_split", "–")),
        ("temperature", settings.get("temperature", "–")),
        ("max steps", settings.get("max_steps", "–")),
    ]
    state = "complete" if summary.complete else "INCOMPLETE" + (f" ({summary.stopped})" if summary.stopped else f" ({summary.errors} errors)")
    totals = [
        ("items", summary.items), ("passed", summary.passed), ("failed", summary.failed), ("errors", summary.errors),
        ("run", state), ("cost", f"${summary.cost:.4f}"),
    ]
    parts = ['<section id="overview"><h2>Run</h2><dl class="identity">']
    parts += [f'<div><dt>{_e(k)}</dt><dd data-key="{_e(k)}">{_e(v)}</dd></div>' for k, v in identity + totals]
    parts.append("</dl>")
    ks = list(range(1, summary.trials + 1))
    intervals = _intervals(summary)
    parts.append('<h2>pass^k</h2><p class="hint">95% bootstrap interval over tasks in brackets, where the summary has one.</p>')
    parts.append('<table id="passk"><thead><tr><th>domain</th><th>tasks</th><th>items</th><th>errors</th>')
    parts += [f"<th>pass^{k}</th>" for k in ks]
    parts.append("</tr></thead><tbody>")
    scopes: list[tuple[str, int, int, int, Mapping[int, float | None]]] = [
        (name, d.tasks, d.items, d.errors, d.pass_hat_k) for name, d in summary.domains.items()
    ]
    scopes.append(("overall", sum(d.tasks for d in summary.domains.values()), summary.items, summary.errors, summary.pass_hat_k))
    for name, tasks, items, errors, values in scopes:
        css = ' class="overall"' if name == "overall" else ""
        cells = []
        for k in ks:
            interval = intervals.get(name, {}).get(k)
            extra = f' <span class="ci">[{interval[0]:.2f}, {interval[1]:.2f}]</span>' if interval else ""
            cells.append(f'<td data-k="{k}">{_fmt(values.get(k))}{extra}</td>')
        parts.append(f'<tr{css} data-domain="{_e(name)}"><th>{_e(name)}</th><td>{tasks}</td><td>{items}</td><td>{errors}</td>{"".join(cells)}</tr>')
    parts.append("</tbody></table>")
    parts.append(_curves(scopes, ks, intervals))
    parts.append(_gate(summary))
    ends = Counter(r.end_reason for r in latest)
    parts.append('<h2>End reasons</h2><p id="ends">' + ", ".join(f"{_e(reason)}: {count}" for reason, count in sorted(ends.items())) + "</p>")
    parts.append("</section>")
    return "".join(parts)


def _gate(summary: RunSummary) -> str:
    gate = summary.gate or {}
    failures = gate.get("failures") or []
    comparisons = gate.get("comparisons") or []
    if not failures and not comparisons:
        return ""
    parts = ['<h2>Gate</h2><div id="gate">']
    if isinstance(comparisons, list) and comparisons:
        parts.append(f"<p>Against the baseline {_e(gate.get('baseline'))} (paired bootstrap over tasks):</p><ul>")
        for c in comparisons:
            if isinstance(c, dict):
                low, high = c.get("interval") or (0.0, 0.0)
                parts.append(f"<li>pass^{_e(c.get('k'))}: {float(c.get('delta', 0.0)):+.3f} over {_e(c.get('tasks'))} tasks, "
                             f"95% interval [{float(low):+.3f}, {float(high):+.3f}]{' <b>regressed</b>' if c.get('regressed') else ''}</li>")
        parts.append("</ul>")
    if isinstance(failures, list) and failures:
        parts.append('<ul class="failures">' + "".join(f"<li>gate failed: {_e(f)}</li>" for f in failures) + "</ul>")
    parts.append("</div>")
    return "".join(parts)


def _curves(
    scopes: Sequence[tuple[str, int, int, int, Mapping[int, float | None]]], ks: Sequence[int], intervals: Mapping[str, Mapping[int, tuple[float, float]]]
) -> str:
    """pass^k against k, one line per domain and overall, with interval bars: an inline SVG."""
    width, height, left, right, top, bottom = 560, 280, 44, 16, 12, 34
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(k: int) -> float:
        return left + (plot_w / 2 if len(ks) == 1 else (k - ks[0]) * plot_w / (len(ks) - 1))

    def y(v: float) -> float:
        return top + (1.0 - v) * plot_h

    out = [f'<h2>pass^k by k</h2><div class="curves"><svg id="curves" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="pass^k by k">']
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" class="grid"/>')
        out.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:g}</text>')
    for k in ks:
        out.append(f'<text x="{x(k):.1f}" y="{height - bottom + 16}" text-anchor="middle">{k}</text>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 4}" text-anchor="middle">k (trials that must all pass)</text>')
    legend = []
    for index, (name, _, _, _, values) in enumerate(scopes):
        overall = name == "overall"
        color = "#000" if overall else _PALETTE[index % len(_PALETTE)]
        dash = "" if overall or index < len(_PALETTE) else ' stroke-dasharray="5 3"'
        points = [(k, v) for k in ks if (v := values.get(k)) is not None]
        group = [f'<g class="series" data-domain="{_e(name)}" stroke="{color}" fill="{color}">']
        for k, _v in points:
            interval = intervals.get(name, {}).get(k)
            if interval:  # shifted a little per series, so the bars of several domains stay apart
                bar = x(k) + (index - (len(scopes) - 1) / 2) * min(4.0, 40.0 / len(scopes))
                group.append(f'<line class="ci" x1="{bar:.1f}" x2="{bar:.1f}" y1="{y(interval[0]):.1f}" y2="{y(interval[1]):.1f}"/>')
        if len(points) > 1:
            coords = " ".join(f"{x(k):.1f},{y(v):.1f}" for k, v in points)
            group.append(f'<polyline fill="none" stroke-width="{3 if overall else 1.6}"{dash} points="{coords}"/>')
        for k, v in points:
            group.append(f'<circle cx="{x(k):.1f}" cy="{y(v):.1f}" r="{4 if overall else 3}"><title>{_e(name)} pass^{k} = {v:.3f}</title></circle>')
        group.append("</g>")
        out += group
        legend.append(f'<li><span class="swatch" style="background:{color}"></span>{_e(name)}</li>')
    out.append('</svg><ul class="legend">' + "".join(legend) + "</ul></div>")
    return "".join(out)


def _detail(result: ItemResult, trajectory: Any, redactor: Callable[[Any], Any]) -> dict[str, Any]:
    detail: dict[str, Any] = {
        "result": result.model_dump(mode="json", exclude={"nodeid"}),
    }
    if isinstance(trajectory, dict):
        detail["messages"] = trajectory.get("messages") or []
        detail["final_diff"] = trajectory.get("final_diff") or {}
        detail["gold_differences"] = trajectory.get("gold_differences")  # absent in trajectories of older runs
    return redactor(detail)  # type: ignore[no-any-return]


def _row(r: ItemResult) -> list[Any]:
    note = (r.error or r.failure or "").strip()
    return [r.item, r.domain, r.task, r.trial, r.status, r.reward, r.end_reason, r.steps, r.turns,
            round(r.cost, 6), round(r.duration, 3), note[:300]]


def render_report(
    summary: RunSummary,
    results: Sequence[ItemResult],
    trajectories: Mapping[str, Any] | None = None,
    *,
    title: str | None = None,
) -> str:
    """The whole report page as a string.

    summary: the run's roll-up (pass^k per domain; bootstrap intervals from summary.gate when set).
    results: every ItemResult (the last one per item wins, as in `summarize`).
    trajectories: item id -> the item's trajectory document as `write_trajectory` writes it
      (e.g. `TrajectoryFiles([run_dir, ...])`, read on demand); items without one show their result only.
    """
    by_item: dict[str, ItemResult] = {}
    for result in results:
        by_item[result.item] = result
    latest = [by_item[key] for key in sorted(by_item)]
    trajectories = trajectories or {}
    table = redact_json({
        "columns": list(COLUMNS),
        "rows": [_row(r) for r in latest],
        "domains": sorted({r.domain for r in latest}),
        "ends": sorted({r.end_reason for r in latest}),
    })
    heading = title or f"pytest-tau: {summary.model or 'offline self-check'}"
    chunks = []
    redactor = json_redactor()  # the environment's secrets read once, not once per item
    for start in range(0, len(latest), CHUNK):
        documents = []
        for result in latest[start : start + CHUNK]:
            try:
                trajectory = trajectories[result.item]
            except KeyError:
                trajectory = None
            documents.append(_detail(result, trajectory, redactor))
        chunks.append(_chunk_script(documents, start // CHUNK))
    return "".join([
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        # No network: a CSP that allows only this page's own inline style and script.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">",
        f"<title>{_e(heading)}</title><style>{_CSS}</style></head><body>",
        f"<header><h1>{_e(heading)}</h1></header><main>",
        _overview(summary, latest),
        _ITEMS_HTML,
        "</main>",
        _script_json(table, "tau-items"),
        '<div id="tau-details" hidden>',
        "".join(chunks),
        "</div>",
        f"<script>{_JS.replace('__CHUNK__', str(CHUNK))}</script></body></html>\n",
    ])


def write_report(path: Path, summary: RunSummary, results: Sequence[ItemResult], run_dirs: Sequence[Path]) -> Path:
    """Render the report with the trajectories of `run_dirs` and write it to `path`."""
    page = render_report(summary, results, TrajectoryFiles(run_dirs))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path


_ITEMS_HTML = """
<section id="items"><h2>Items</h2>
<div class="filters">
<label>domain <select id="f-domain"><option value="">all</option></select></label>
<label>status <select id="f-status"><option value="">all</option><option>passed</option><option>failed</option><option>error</option></select></label>
<label>end reason <select id="f-end"><option value="">all</option></select></label>
<label>search <input id="f-q" type="search" placeholder="item, task, failure text"></label>
<span id="count"></span>
</div>
<div class="row head"><span>item</span><span>domain</span><span>status</span><span>reward</span><span>end reason</span><span>steps</span><span>turns</span><span>cost</span><span>note</span></div>
<div id="viewport"><div id="spacer"></div></div>
<div id="detail"><p class="hint">Select an item to see its conversation and its final state against gold.</p></div>
</section>
<noscript><p>The item table needs JavaScript; the overview above does not.</p></noscript>
"""

_CSS = """
body{font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#222;background:#fafafa}
header{background:#263238;color:#fff;padding:8px 16px}h1{font-size:18px;margin:0}
main{padding:8px 16px;max-width:1400px}h2{font-size:16px;margin:16px 0 6px}
dl.identity{display:flex;flex-wrap:wrap;gap:4px 18px;margin:0}dl.identity div{display:flex;gap:6px}dt{color:#666}dd{margin:0;font-weight:600}
table{border-collapse:collapse;background:#fff}th,td{border:1px solid #ddd;padding:3px 8px;text-align:right}th:first-child{text-align:left}
tr.overall{font-weight:700;background:#f0f0f0}.ci{color:#777;font-weight:400;font-size:12px}.hint{color:#777;margin:2px 0}
.curves{display:flex;gap:12px;align-items:flex-start}svg text{font-size:11px;fill:#444}svg .grid{stroke:#e3e3e3}svg .ci{stroke-width:1;opacity:.55}
.legend{list-style:none;padding:0;margin:0;font-size:12px}.swatch{display:inline-block;width:12px;height:12px;margin-right:6px;vertical-align:middle}
.filters{display:flex;flex-wrap:wrap;gap:12px;align-items:center;margin-bottom:6px}#count{color:#555}
.row{display:grid;grid-template-columns:minmax(180px,2fr) 110px 64px 56px 110px 48px 48px 70px minmax(120px,3fr);gap:6px;height:24px;line-height:24px;padding:0 6px;white-space:nowrap;overflow:hidden;box-sizing:border-box}
.row span{overflow:hidden;text-overflow:ellipsis}.row.head{font-weight:700;background:#eceff1}
#viewport{height:432px;overflow-y:auto;position:relative;background:#fff;border:1px solid #ddd}#spacer{position:relative}
#viewport .row{position:absolute;left:0;right:0;cursor:pointer;border-bottom:1px solid #f0f0f0}#viewport .row:hover{background:#e3f2fd}
#viewport .row.sel{background:#bbdefb}.st-passed{color:#2e7d32}.st-failed{color:#c62828}.st-error{color:#ef6c00;font-weight:700}
#detail{margin-top:10px;background:#fff;border:1px solid #ddd;padding:8px 12px}
.msg{margin:6px 0;padding:6px 8px;border-radius:6px;border-left:4px solid #90a4ae;background:#f5f7f8}
.msg.user{border-color:#42a5f5}.msg.assistant{border-color:#66bb6a}.msg.tool{border-color:#ffa726;background:#fff8e1}.msg.system{border-color:#ab47bc}
.msg .who{font-weight:700;font-size:12px;color:#555}pre{white-space:pre-wrap;word-break:break-word;margin:2px 0;font:12px/1.35 ui-monospace,Menlo,Consolas,monospace}
.call{color:#6a1b9a}table.diff td,table.diff th{text-align:left;vertical-align:top}table.diff tr.differs{background:#ffebee}
"""

# The page's code. Data is only ever written with textContent (no markup from results).
_JS = r"""
(function () {
  "use strict";
  var ROW = 24, data = JSON.parse(document.getElementById("tau-items").textContent);
  var C = {}; data.columns.forEach(function (name, i) { C[name] = i; });
  var rows = data.rows, hay = new Array(rows.length), view = [], shown = {};
  var state = { domain: "", status: "", end: "", q: "", item: "" };
  var $ = function (id) { return document.getElementById(id); };
  var viewport = $("viewport"), spacer = $("spacer"), detail = $("detail");

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function readHash() {
    location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
      var i = pair.indexOf("="); if (i < 0) return;
      var key = decodeURIComponent(pair.slice(0, i)), value = decodeURIComponent(pair.slice(i + 1).replace(/\+/g, " "));
      if (Object.prototype.hasOwnProperty.call(state, key)) state[key] = value;
    });
  }
  function writeHash() {
    var parts = [];
    Object.keys(state).forEach(function (key) { if (state[key]) parts.push(key + "=" + encodeURIComponent(state[key])); });
    try { history.replaceState(null, "", parts.length ? "#" + parts.join("&") : location.pathname); } catch (e) { /* file:// in some browsers */ }
  }
  function fill(select, values) {
    values.forEach(function (v) { var o = el("option", "", v); o.value = v; select.appendChild(o); });
  }
  function haystack(i) {
    if (hay[i] === undefined) {
      var r = rows[i];
      hay[i] = [r[C.item], r[C.domain], r[C.task], r[C.status], r[C.end_reason], r[C.note]].join(" ").toLowerCase();
    }
    return hay[i];
  }
  function filter() {
    var q = state.q.toLowerCase().trim();
    view = [];
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      if (state.domain && r[C.domain] !== state.domain) continue;
      if (state.status && r[C.status] !== state.status) continue;
      if (state.end && r[C.end_reason] !== state.end) continue;
      if (q && haystack(i).indexOf(q) < 0) continue;
      view.push(i);
    }
    $("count").textContent = view.length + " of " + rows.length + " items";
    spacer.style.height = view.length * ROW + "px";
    viewport.scrollTop = 0;
    shown = {}; spacer.textContent = "";
    draw();
  }
  function rowNode(i, pos) {
    var r = rows[i], node = el("div", "row" + (r[C.item] === state.item ? " sel" : ""));
    node.style.top = pos * ROW + "px";
    node.setAttribute("data-item", r[C.item]);
    node.setAttribute("data-status", r[C.status]);
    var reward = r[C.reward] === null ? "–" : r[C.reward];
    [r[C.item], r[C.domain], r[C.status], reward, r[C.end_reason], r[C.steps], r[C.turns], "$" + Number(r[C.cost]).toFixed(4), r[C.note]]
      .forEach(function (value, j) {
        var cell = el("span", j === 2 ? "st-" + r[C.status] : "", value);
        if (j === 0 || j === 8) cell.title = String(value);
        node.appendChild(cell);
      });
    node.addEventListener("click", function () { open(i); });
    return node;
  }
  function draw() {
    var height = viewport.clientHeight || 432;
    var first = Math.max(0, Math.floor(viewport.scrollTop / ROW) - 10);
    var last = Math.min(view.length, first + Math.ceil(height / ROW) + 20);
    var keep = {};
    for (var p = first; p < last; p++) {
      keep[p] = shown[p] || spacer.appendChild(rowNode(view[p], p));
    }
    Object.keys(shown).forEach(function (p) { if (!keep[p]) spacer.removeChild(shown[p]); });
    shown = keep;
  }
  function pre(text, cls) { return el("pre", cls || "", text); }
  function pretty(value) {
    if (typeof value === "string") {
      try { return JSON.stringify(JSON.parse(value), null, 2); } catch (e) { return value; }
    }
    return JSON.stringify(value, null, 2);
  }
  function message(m) {
    var role = String(m.role || "?"), box = el("div", "msg " + role);
    var who = role === "tool" ? "tool result" + (m.name ? ": " + m.name : "") : role;
    box.appendChild(el("div", "who", who));
    if (m.content !== undefined && m.content !== null && m.content !== "") {
      box.appendChild(pre(role === "tool" ? pretty(m.content) : typeof m.content === "string" ? m.content : pretty(m.content)));
    }
    (m.tool_calls || []).forEach(function (call) {
      var f = call.function || call;
      box.appendChild(pre("→ " + f.name + "(" + pretty(f.arguments) + ")", "call"));
    });
    return box;
  }
  function goldTable(d) {
    var box = el("div", "record");
    box.appendChild(el("h4", "", d.table + "[" + d.key + "]"));
    if (d.expected === null || d.actual === null) {
      box.appendChild(pre(d.expected === null ? "expected: no such record\nactual: " + pretty(d.actual)
                                              : "expected: " + pretty(d.expected) + "\nactual: missing (deleted or never created)"));
      return box;
    }
    var table = el("table", "diff"), head = el("tr");
    ["field", "expected (gold)", "actual"].forEach(function (h) { head.appendChild(el("th", "", h)); });
    table.appendChild(head);
    var keys = Object.keys(d.expected).concat(Object.keys(d.actual)).filter(function (k, i, a) { return a.indexOf(k) === i; }).sort();
    keys.forEach(function (k) {
      var e = k in d.expected ? JSON.stringify(d.expected[k]) : "<missing>", a = k in d.actual ? JSON.stringify(d.actual[k]) : "<missing>";
      var tr = el("tr", e === a ? "" : "differs");
      tr.appendChild(el("td", "", k)); tr.appendChild(el("td", "", e)); tr.appendChild(el("td", "", a));
      table.appendChild(tr);
    });
    box.appendChild(table);
    return box;
  }
  // Conversations come in gzip chunks of CHUNK items, inflated (once) when an item of theirs is opened.
  var CHUNK = __CHUNK__, chunks = {}, opening = 0;
  function documentOf(i) {
    var n = Math.floor(i / CHUNK);
    if (!chunks[n]) {
      var source = $("c" + n);
      if (!source || typeof DecompressionStream === "undefined") return Promise.resolve({});
      var text = atob(source.textContent), bytes = new Uint8Array(text.length);
      for (var j = 0; j < text.length; j++) bytes[j] = text.charCodeAt(j);
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      chunks[n] = new Response(stream).text().then(JSON.parse);
    }
    return chunks[n].then(function (list) { return list[i % CHUNK] || {}; });
  }
  function open(i) {
    var r = rows[i], ticket = ++opening;
    state.item = r[C.item]; writeHash();
    Object.keys(shown).forEach(function (p) { shown[p].classList.toggle("sel", view[p] === i); });
    return documentOf(i).then(function (doc) {
      if (ticket === opening) render(i, doc);  // a later click wins
    });
  }
  function render(i, doc) {
    var r = rows[i];
    detail.textContent = "";
    var result = doc.result || {};
    detail.appendChild(el("h3", "", r[C.item]));
    var parts = result.reward_parts || {};
    detail.appendChild(el("p", "st-" + r[C.status], r[C.status] + " · reward " + (r[C.reward] === null ? "–" : r[C.reward]) +
      " · end " + r[C.end_reason] + " · steps " + r[C.steps] + " · turns " + r[C.turns] + " · seed " + result.seed +
      (Object.keys(parts).length ? " · " + Object.keys(parts).map(function (k) { return k + " " + parts[k]; }).join(", ") : "")));
    if (result.error) { detail.appendChild(el("h4", "", "Error")); detail.appendChild(pre(result.error)); }
    if (result.failure) { detail.appendChild(el("h4", "", "Why it failed")); detail.appendChild(pre(result.failure)); }
    var gold = doc.gold_differences;
    detail.appendChild(el("h4", "", "Final state against gold"));
    if (gold === undefined || gold === null) detail.appendChild(el("p", "hint", "not recorded in this trajectory"));
    else if (!gold.length) detail.appendChild(el("p", "", "matches gold"));
    else gold.forEach(function (d) { detail.appendChild(goldTable(d)); });
    var conversation = el("div", "conversation");
    detail.appendChild(el("h4", "", "Conversation"));
    if (!doc.messages) conversation.appendChild(el("p", "hint", "no trajectory recorded for this item"));
    (doc.messages || []).forEach(function (m) { conversation.appendChild(message(m)); });
    detail.appendChild(conversation);
    if (doc.final_diff && Object.keys(doc.final_diff).length) {
      detail.appendChild(el("h4", "", "Records the run changed"));
      detail.appendChild(pre(JSON.stringify(doc.final_diff, null, 2)));
    }
  }

  fill($("f-domain"), data.domains);
  fill($("f-end"), data.ends);
  readHash();
  var controls = { domain: $("f-domain"), status: $("f-status"), end: $("f-end") };
  Object.keys(controls).forEach(function (key) {
    controls[key].value = state[key];
    controls[key].addEventListener("change", function () { state[key] = controls[key].value; writeHash(); filter(); });
  });
  var q = $("f-q"), timer = null;
  q.value = state.q;
  q.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { state.q = q.value; writeHash(); filter(); }, 120);
  });
  viewport.addEventListener("scroll", function () { window.requestAnimationFrame(draw); });
  filter();
  var opened = Promise.resolve();
  if (state.item) {
    for (var i = 0; i < rows.length; i++) if (rows[i][C.item] === state.item) { opened = open(i); break; }
  }
  opened.then(function () {  // ready once the item named in the address is shown
    var ready = el("span", "", ""); ready.id = "tau-ready"; ready.hidden = true;
    ready.setAttribute("data-ms", String(Math.round(performance.now())));
    document.body.appendChild(ready);
  });
})();
"""
