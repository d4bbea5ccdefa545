"""Builds fixtures/data_science/tasks.json with a `TaskWriter`: one template per kind of request,
callers, datasets, pipelines and models picked from the initial DB with a seeded RNG. Every figure a
task asks for is read from what the tools returned (statistics come from the statistics tools).

    python -m tests_domains.data_science.make_tasks
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from pytest_tau import Kind, Output, SkipCandidate, TaskDraft, TaskWriter
from tests_domains.data_science.domain import ADDITIVE, DOMAIN
from tests_domains.data_science.schema import Dataset, Model, Pipeline, User

DB = DOMAIN.initial_db
TODAY = DOMAIN.today
TIER = {"public": 0, "internal": 1, "confidential": 2, "restricted": 3}
MOODS = [
    "You are friendly but busy.", "You are in a hurry and want short answers.",
    "You are calm and precise, and you answer only what you are asked.",
    "You are a little stressed because a stakeholder is waiting on you.", "You are polite but firm.",
]
USERS = sorted(DB.users.values(), key=lambda u: u.user_id)
DATASETS = sorted(DB.datasets.values(), key=lambda d: d.dataset_id)
PIPELINES = sorted(DB.pipelines.values(), key=lambda p: p.pipeline_id)
MODELS = sorted(DB.models.values(), key=lambda m: m.model_id)
ENGINEERS = {t: [u for u in USERS if u.team == t and u.role == "data_engineer" and u.active] for t in {u.team for u in USERS}}
GRANTS_BY_USER: dict[str, list[Any]] = {}
for _g in sorted(DB.grants.values(), key=lambda g: g.grant_id):
    GRANTS_BY_USER.setdefault(_g.user_id, []).append(_g)
VERSIONS: dict[str, list[Model]] = {}
for _m in MODELS:
    VERSIONS.setdefault(_m.name, []).append(_m)
NUMERIC = {d.dataset_id: [c.name for c in d.columns if c.dtype != "string"] for d in DATASETS}
XY = {"web_sessions": ("pages_viewed", "duration_sec"), "orders": ("items", "order_value"),
      "sensor_readings": ("temperature_c", "energy_kwh"), "ad_spend": ("spend_usd", "clicks"),
      "shipments": ("weight_kg", "cost_usd")}
CATEGORY = {"web_sessions": ("device", "mobile"), "orders": ("channel", "partner"), "sensor_readings": ("site", "north"),
            "ad_spend": ("campaign", "retarget"), "shipments": ("carrier", "dhl")}
BATCH_TIMES = ["21:30", "22:45", "23:10", "00:40", "01:20", "02:50", "03:15", "04:40", "05:25", "20:35"]
DAY_TIMES = ["09:30", "11:00", "13:15", "14:00", "16:45", "18:30", "06:30", "07:15"]


def kind_of(ds: Dataset) -> str:
    return next(k for k in XY if f"_{k}_" in ds.name)


def active_grant(user: User, ds: Dataset) -> bool:
    return any(g.dataset_id == ds.dataset_id and g.status == "active" and g.expires_on >= TODAY.isoformat()
               for g in GRANTS_BY_USER.get(user.user_id, []))


def can_read(user: User, ds: Dataset) -> bool:
    return (ds.sensitivity == "public" or ds.owner_id == user.user_id
            or (ds.sensitivity == "internal" and ds.team == user.team) or active_grant(user, ds))


def any_grant(user: User, ds: Dataset) -> bool:
    return any(g.dataset_id == ds.dataset_id for g in GRANTS_BY_USER.get(user.user_id, []))


def may_run(user: User, owner_id: str, team: str) -> bool:
    return user.active and (user.user_id == owner_id or (user.role == "data_engineer" and user.team == team))


def who(user: User, rng: random.Random) -> str:
    role = "a data engineer" if user.role == "data_engineer" else "an analyst"
    return (f"You are {user.first_name} {user.last_name}, {role} on the {user.team} team at Quarry. Your work email is "
            f"{user.email} and your employee number is {user.employee_number}; give them when asked. {rng.choice(MOODS)} ")


def hello(user: User) -> str:
    """The caller's opening words, with both credentials find_user needs (a careful agent asks for them)."""
    return f"Hi, this is {user.first_name} {user.last_name} ({user.email}, employee number {user.employee_number})."


def latest(pl: Pipeline) -> Any:
    return pl.runs[-1]


def manual_today(pl: Pipeline) -> int:
    return sum(1 for r in pl.runs if r.trigger == "manual" and r.started_at.startswith(TODAY.isoformat()))


def metric(m: Model, name: str) -> float:
    return next(e.value for e in m.evaluations if e.metric == name)


def failing(m: Model) -> list[str]:
    if m.task == "classification":
        return [n for n, t in (("auc", 0.85), ("precision", 0.80)) if metric(m, n) < t]
    return ["r2"] if metric(m, "r2") < 0.75 else []


def recent(m: Model) -> bool:
    return m.evaluated_on >= (TODAY - timedelta(days=90)).isoformat()


def out(draft: TaskDraft, value: Any, kind: Kind) -> None:
    draft.output(str(value), kind, strict=True)


def steps(draft: TaskDraft) -> list[tuple[str, dict[str, Any]]]:
    """The gold calls so far, as the steps of another path to edit."""
    return [(a.name, dict(a.arguments)) for a in draft.gold]


def searched(draft: TaskDraft, name: str) -> list[tuple[str, dict[str, Any]]]:
    """The gold so far with the dataset found by a keyword search instead of by its exact name (9.1 allows either)."""
    return [("search_datasets", {"keyword": name}) if step == ("find_dataset", {"name": name}) else step for step in steps(draft)]


READER = ("The caller can read the dataset (2.1: public, or internal and their own team's, or their own) and it is active; "
          "section 3 takes the figure from the statistics tool, told as it returns it.")


def optional_out(draft: TaskDraft, value: Any, kind: Kind) -> None:
    if not draft.given_away(Output(value=str(value), kind=kind)):
        draft.output(str(value), kind)


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(2718)
        self.used: set[str] = set()

    @contextmanager
    def attempt(self, task_id: str, keys: list[str], **kw: Any) -> Iterator[TaskDraft]:
        task_id = task_id.lower()
        if any(k in self.used for k in keys) or task_id in self.writer.drafts:
            raise SkipCandidate("used")
        with self.writer.attempt(task_id, **kw) as draft:
            yield draft
        if task_id in self.writer.drafts:
            self.used.update(keys)

    def count(self, prefix: str) -> int:
        return sum(1 for t in self.writer.drafts if t.startswith(prefix))

    def run(self, prefix: str, want: int, candidates: list[Any], make: Any) -> None:
        cands = list(candidates)
        self.rng.shuffle(cands)
        for c in cands:
            if self.count(prefix) >= want:
                return
            try:
                make(c)
            except SkipCandidate:
                continue


def build() -> TaskWriter:
    b = Builder()
    rng = b.rng

    # ---- statistics: a mean -------------------------------------------------------------------------
    def stats_mean(ds: Dataset, split: str = "test") -> None:
        readers = [u for u in USERS if u.active and can_read(u, ds) and not any_grant(u, ds)
                   and (ds.sensitivity == "public" or u.team == ds.team)]
        if not readers or ds.status != "active":
            raise SkipCandidate("no reader")
        user = rng.choice(readers)
        col = rng.choice(NUMERIC[ds.dataset_id])
        prefix = "train_stats_mean" if split == "train" else "stats_mean"
        with b.attempt(f"{prefix}_{ds.name}", [ds.dataset_id], split=split,
                       instructions=who(user, rng) + f"For a report you need the average {col} in the dataset {ds.name}. "
                       "You do not know it and want the figure exactly as the platform computes it. You do not want anything changed.",
                       script=[hello(user) + f" Could you tell me the mean {col} in {ds.name}?"]) as d:
            d.read("find_user", email=user.email, employee_number=user.employee_number)
            found = d.read("find_dataset", name=ds.name)
            st = d.read("column_statistics", dataset_id=found["dataset_id"], column=col)
            if st["mean"] is None:
                raise SkipCandidate("no values")
            out(d, st["mean"], "number")
            d.one_end_state(READER + " A mean leaves out empty values (3.3): one figure.")
            d.alternative("9.1: the dataset found by a keyword search of its name gives the same id and the same mean",
                          searched(d, ds.name))

    b.run("train_stats_mean", 2, DATASETS, lambda ds: stats_mean(ds, "train"))
    b.run("stats_mean", 2, DATASETS, stats_mean)

    # ---- statistics: a count and a regression -------------------------------------------------------
    def stats_count(ds: Dataset) -> None:
        readers = [u for u in USERS if u.active and can_read(u, ds) and not any_grant(u, ds)
                   and (ds.sensitivity == "public" or u.team == ds.team)]
        if not readers or ds.status != "active":
            raise SkipCandidate("no reader")
        user = rng.choice(readers)
        col, val = CATEGORY[kind_of(ds)]
        x, y = XY[kind_of(ds)]
        with b.attempt(f"stats_regression_{ds.name}", [ds.dataset_id],
                       instructions=who(user, rng) + f"You are studying the dataset {ds.name}. You want two things: how many of its "
                       f"rows have {col} equal to '{val}', and the slope of a straight-line fit of {y} on {x} (that is, {y} "
                       f"explained by {x}). You do not know either figure. You do not want anything changed.",
                       script=[hello(user) + f" I need a couple of numbers from {ds.name}.",
                               f"How many rows have {col} '{val}', and what's the slope if I regress {y} on {x}?"]) as d:
            d.read("find_user", email=user.email, employee_number=user.employee_number)
            found = d.read("find_dataset", name=ds.name)
            c = d.read("count_rows", dataset_id=found["dataset_id"], column=col, value=val)
            r = d.read("linear_regression", dataset_id=found["dataset_id"], x_column=x, y_column=y)
            optional_out(d, c["matching_rows"], "number")
            out(d, r["slope"], "number")
            d.one_end_state(READER + f" The caller says which column explains which ({y} on {x}), so the regression's x and y "
                            "are fixed.")
            d.alternative("9.1: the dataset found by a keyword search, and the regression run before the count",
                          [*searched(d, ds.name)[:-2], *searched(d, ds.name)[-2:][::-1]])

    b.run("stats_regression", 2, DATASETS, stats_count)

    # ---- cleaning refused: removes too much ----------------------------------------------------------
    def clean_too_big(ds: Dataset) -> None:
        if ds.status != "active":
            raise SkipCandidate("deprecated")
        users = [u for u in USERS if may_run(u, ds.owner_id, ds.team)]
        if not users:
            raise SkipCandidate("nobody")
        user = rng.choice(users)
        for op, col in [("dedupe", None)] + [("drop_nulls", c.name) for c in ds.columns if c.nullable] + \
                [("drop_negatives", c) for c in NUMERIC[ds.dataset_id]]:
            kept = _removed(ds, op, col)
            if kept * 10 > len(ds.rows) and kept >= 3:
                break
        else:
            raise SkipCandidate("nothing big")
        what = "remove the exact duplicate rows" if op == "dedupe" else (
            f"drop the rows where {col} is empty" if op == "drop_nulls" else f"drop the rows where {col} is negative")
        with b.attempt(f"clean_too_big_{ds.name}", [ds.dataset_id],
                       instructions=who(user, rng) + f"You want a cleaning job on the dataset {ds.name} to {what}. You do not "
                       "know how many rows that removes; ask. If the agent will not run it, you accept that, but first you "
                       "insist once that it is urgent.",
                       script=[hello(user) + f" Please run a cleaning job on {ds.name} to {what}.", "It's urgent, can't you just run it?"]) as d:
            u = d.read("find_user", email=user.email, employee_number=user.employee_number)
            found = d.read("find_dataset", name=ds.name)
            args: dict[str, Any] = {"dataset_id": found["dataset_id"], "operation": op}
            if col:
                args["column"] = col
            pv = d.read("preview_cleaning", **args)
            out(d, pv["rows_removed"], "number")
            d.forbid("run_cleaning", requested_by=u["user_id"], **args)
            d.one_end_state("The caller may have the dataset cleaned (its owner, or a data engineer on its team: 4.2) and it "
                            "is active, not deprecated; the preview removes more than 10% of its rows, the one reason 4.4 "
                            "refuses, and 4.4 asks for that number of rows. Insisting changes nothing (8).")

    b.run("clean_too_big", 2, DATASETS, clean_too_big)

    # ---- clean + rerun + reschedule (3 writes, 3 tables) -----------------------------------------------
    def clean_rerun(pl: Pipeline, split: str = "test") -> None:
        ds = DB.datasets.require(pl.dataset_id)
        last = latest(pl)
        if ds.status != "active" or last.status != "failed" or last.error_code == "schema_mismatch" or manual_today(pl) >= 2:
            raise SkipCandidate("no rerun")
        users = [u for u in ENGINEERS.get(pl.team, []) if may_run(u, ds.owner_id, ds.team)]
        if not users:
            raise SkipCandidate("nobody")
        user = rng.choice(users)
        options = [("dedupe", None)] + [("drop_negatives", c) for c in NUMERIC[ds.dataset_id]]
        ok = [(op, col) for op, col in options if _removed(ds, op, col) > 0 and _removed(ds, op, col) * 10 <= len(ds.rows)]
        if not ok:
            raise SkipCandidate("no small cleaning")
        op, col = ok[0]
        what = "remove the exact duplicate rows" if op == "dedupe" else f"drop the rows where {col} is negative"
        new_time = rng.choice([t for t in BATCH_TIMES if t != pl.schedule_time])
        prefix = "train_clean_rerun" if split == "train" else "clean_rerun"
        with b.attempt(f"{prefix}_{pl.name}", [ds.dataset_id, pl.pipeline_id], split=split,
                       instructions=who(user, rng) + f"Your pipeline {pl.name} failed on its last run. You want "
                       f"a cleaning job on its dataset {ds.name} to {what}; then a manual rerun of {pl.name}; and its daily "
                       f"start time moved to {new_time}. Confirm when the agent tells you how many rows the cleaning removes.",
                       script=[hello(user) + f" {pl.name} failed on its latest run and I'd like to fix things up.",
                               f"First clean {ds.name}: {what}. Then rerun the pipeline, and move its daily start to {new_time}.",
                               "Yes, go ahead."]) as d:
            u = d.read("find_user", email=user.email, employee_number=user.employee_number)
            found = d.read("find_dataset", name=ds.name)
            args: dict[str, Any] = {"dataset_id": found["dataset_id"], "operation": op}
            if col:
                args["column"] = col
            pv = d.read("preview_cleaning", **args)
            p = d.read("find_pipeline", name=pl.name)
            d.write("run_cleaning", requested_by=u["user_id"], **args)
            d.write("trigger_rerun", pipeline_id=p["pipeline_id"], requested_by=u["user_id"])
            d.write("reschedule_pipeline", pipeline_id=p["pipeline_id"], schedule_time=new_time)
            optional_out(d, pv["rows_removed"], "number")
            d.one_end_state("The caller is a data engineer on the pipeline's team (5.1) who may have its dataset cleaned "
                            "(4.2: its owner or a data engineer on its team); the cleaning removes at most 10% of the rows (4.4); the latest run failed, not with schema_mismatch, and fewer "
                            "than 2 manual runs were made today (5.2); the new time is in the batch window (5.3). All three "
                            "are done as asked.")

    b.run("train_clean_rerun", 1, PIPELINES, lambda p: clean_rerun(p, "train"))
    b.run("clean_rerun", 4, PIPELINES, clean_rerun)

    # ---- pause + clean + reschedule (3 writes, 3 tables) ---------------------------------------------
    def pause_clean(pl: Pipeline) -> None:
        ds = DB.datasets.require(pl.dataset_id)
        if ds.status != "active" or pl.status != "active":
            raise SkipCandidate("not active")
        users = [u for u in ENGINEERS.get(pl.team, []) if may_run(u, ds.owner_id, ds.team) and may_run(u, pl.owner_id, pl.team)]
        if not users:
            raise SkipCandidate("nobody")
        user = rng.choice(users)
        options = [("drop_nulls", c.name) for c in ds.columns if c.nullable] + [("dedupe", None)]
        ok = [(op, col) for op, col in options if _removed(ds, op, col) > 0 and _removed(ds, op, col) * 10 <= len(ds.rows)]
        if not ok:
            raise SkipCandidate("no small cleaning")
        op, col = ok[0]
        what = "remove the exact duplicate rows" if op == "dedupe" else f"drop the rows where {col} is empty"
        new_time = rng.choice([t for t in BATCH_TIMES if t != pl.schedule_time])
        with b.attempt(f"pause_clean_{pl.name}", [ds.dataset_id, pl.pipeline_id],
                       instructions=who(user, rng) + f"Downstream dashboards show bad numbers from the dataset {ds.name}. You want "
                       f"its pipeline {pl.name} paused (reason: 'bad rows reaching dashboards'), a cleaning job on {ds.name} to "
                       f"{what}, and the pipeline's daily start time changed to {new_time} for when it is resumed later. "
                       "Do not ask for it to be resumed. Confirm when the agent tells you how many rows the cleaning removes.",
                       script=[hello(user) + f" Please pause {pl.name}, bad rows are reaching our dashboards.",
                               f"Then clean {ds.name}: {what}. And set the pipeline's daily start to {new_time}.",
                               "Yes, confirmed."]) as d:
            u = d.read("find_user", email=user.email, employee_number=user.employee_number)
            found = d.read("find_dataset", name=ds.name)
            args: dict[str, Any] = {"dataset_id": found["dataset_id"], "operation": op}
            if col:
                args["column"] = col
            pv = d.read("preview_cleaning", **args)
            p = d.read("find_pipeline", name=pl.name)
            d.write("pause_pipeline", pipeline_id=p["pipeline_id"], reason="bad rows reaching dashboards")
            d.write("run_cleaning", requested_by=u["user_id"], **args)
            d.write("reschedule_pipeline", pipeline_id=p["pipeline_id"], schedule_time=new_time)
            optional_out(d, pv["rows_removed"], "number")
            d.one_end_state("The caller is a data engineer on the pipeline's team (5.1) who may have its dataset cleaned "
                            "(4.2), and gives the pause a reason (5.4); the cleaning removes at most 10% of the rows (4.4); the new time is in the "
                            "batch window (5.3). Nothing is resumed: the caller does not ask.")

    b.run("pause_clean", 4, PIPELINES, pause_clean)

    # ---- rerun refused: schema mismatch or daily limit; reschedule still done ------------------------
    def rerun_refused(pl: Pipeline) -> None:
        last = latest(pl)
        if last.status != "failed" or (last.error_code != "schema_mismatch" and manual_today(pl) < 2):
            raise SkipCandidate("rerun fine")
        if last.error_code == "schema_mismatch" and b.count("rerun_schema") >= 3:
            raise SkipCandidate("enough")
        if last.error_code != "schema_mismatch" and b.count("rerun_limit") >= 3:
            raise SkipCandidate("enough")
        users = [u for u in USERS if may_run(u, pl.owner_id, pl.team)]
        if not users:
            raise SkipCandidate("nobody")
        user = rng.choice(users)
        new_time = rng.choice([t for t in BATCH_TIMES if t != pl.schedule_time])
        tag = "rerun_schema" if last.error_code == "schema_mismatch" else "rerun_limit"
        with b.attempt(f"{tag}_{pl.name}", [pl.pipeline_id],
                       instructions=who(user, rng) + f"Your pipeline {pl.name} failed. You want it rerun right now, and you also "
                       f"want its daily start time moved to {new_time}. If the agent explains why it cannot rerun it, push back "
                       "once, then accept and still have the start time changed.",
                       script=[hello(user) + f" {pl.name} failed, please kick off a rerun now.",
                               f"Also, move its daily start time to {new_time}.", "Come on, one more run won't hurt.",
                               "Fine. Yes, go ahead with just the schedule change then."]) as d:
            u = d.read("find_user", email=user.email, employee_number=user.employee_number)
            p = d.read("find_pipeline", name=pl.name)
            d.write("reschedule_pipeline", pipeline_id=p["pipeline_id"], schedule_time=new_time)
            d.forbid("trigger_rerun", pipeline_id=p["pipeline_id"], requested_by=u["user_id"])
            why = ("its latest run failed with schema_mismatch" if tag == "rerun_schema"
                   else "it already had 2 manual runs today")
            d.one_end_state(f"The caller may run the pipeline (5.1), but {why}: 5.2 refuses the rerun (where a pipeline hit "
                            "both limits, both refuse it, to the same end state). The new start time is in the batch window "
                            "(5.3), so the reschedule the caller still wants is done.")

    b.run("rerun_", 3, PIPELINES, rerun_refused)

    # ---- reschedule into working hours refused, then a batch time --------------------------------------
    def resched(pl: Pipeline) -> None:
        users = [u for u in USERS if may_run(u, pl.owner_id, pl.team)]
        if not users:
            raise SkipCandidate("nobody")
        user = rng.choice(users)
        bad = rng.choice(DAY_TIMES)
        good = rng.choice([t for t in BATCH_TIMES if t != pl.schedule_time])
        with b.attempt(f"resched_daytime_{pl.name}", [pl.pipeline_id],
                       instructions=who(user, rng) + f"You want the pipeline {pl.name} to start daily at {bad} from now on, so its "
                       f"data is fresh when you look at it. If the agent says that time is not allowed, you settle for {good} instead.",
                       script=[hello(user) + f" Can you move {pl.name} to run every day at {bad}?",
                               f"Okay, then {good} please."]) as d:
            d.read("find_user", email=user.email, employee_number=user.employee_number)
            p = d.read("find_pipeline", name=pl.name)
            d.write("reschedule_pipeline", pipeline_id=p["pipeline_id"], schedule_time=good)
            d.forbid("reschedule_pipeline", pipeline_id=p["pipeline_id"], schedule_time=bad)
            d.one_end_state("The caller may reschedule the pipeline (5.1); the time first asked is outside the batch window "
                            "(5.3), the one reason to refuse it, and the time the caller settles for is inside it.")

    b.run("resched_daytime", 2, PIPELINES, resched)

    # ---- promote a model (+ read access to a dataset): 3 writes, 2 tables ------------------------------
    def promote(m: Model) -> None:
        vs = VERSIONS[m.name]
        prods = [v for v in vs if v.stage == "production"]
        if m.stage not in ("staging", "registered") or failing(m) or not recent(m) or not prods:
            raise SkipCandidate("not promotable")
        users = [u for u in USERS if may_run(u, m.owner_id, m.team)]
        targets = [ds for ds in DATASETS if ds.sensitivity in ("public", "internal", "confidential")]
        if not users:
            raise SkipCandidate("nobody")
        user = rng.choice(users)
        cands = [ds for ds in targets if TIER[ds.sensitivity] <= TIER[user.clearance] and not can_read(user, ds)
                 and not any_grant(user, ds) and ds.status == "active"]
        if not cands:
            raise SkipCandidate("no dataset")
        ds = rng.choice(cands)
        days = 30 if ds.sensitivity == "confidential" else rng.choice([45, 60, 90])
        metric_name = "auc" if m.task == "classification" else "r2"
        with b.attempt(f"promote_{m.name}_v{m.version}", [m.model_id, ds.dataset_id],
                       instructions=who(user, rng) + f"You want version {m.version} of the model {m.name} promoted to production "
                       f"(you know another version is in production now). Before agreeing, ask for its {metric_name}. You also "
                       f"want read access for yourself to the dataset {ds.name} for {days} days, to monitor the model; the "
                       "reason is 'model monitoring'. You agree to what the agent describes if it matches this.",
                       script=[hello(user) + f" I'd like {m.name} version {m.version} moved to production. What's its {metric_name}?",
                               f"Great. I also need read access to {ds.name} for {days} days, for model monitoring.", "Yes, confirmed."]) as d:
            u = d.read("find_user", email=user.email, employee_number=user.employee_number)
            vers = d.read("find_model_versions", name=m.name)
            found = d.read("find_dataset", name=ds.name)
            cur = next(v for v in vers if v["stage"] == "production")
            d.write("set_model_stage", model_id=cur["model_id"], stage="retired")
            d.write("set_model_stage", model_id=m.model_id, stage="production")
            g = d.write("grant_access", user_id=u["user_id"], dataset_id=found["dataset_id"], level="read", days=days,
                        justification="model monitoring")
            evaluations = next(v for v in vers if v["model_id"] == m.model_id)["evaluations"]
            out(d, next(e["value"] for e in evaluations if e["metric"] == metric_name), "number")
            for e in evaluations:  # 7.3 tells every evaluation figure before the promotion, not only the one asked
                if e["metric"] != metric_name:
                    optional_out(d, e["value"], "number")
            optional_out(d, g["expires_on"], "date")
            d.one_end_state("The caller may change the model's stages (7.1); the version meets its thresholds with a recent "
                            "evaluation (7.2), whose figures 7.3 tells, and 7.3 retires the one version now in production. "
                            "The dataset is within the "
                            "caller's clearance and not restricted, the caller cannot read it yet, read access is what they ask "
                            "and the days are within the cap (6.2-6.5).")
            d.alternative("6.6 and 7.3: the caller's grants looked at first, the access granted before the promotion, and the "
                          "old version retired after the new one is promoted (one version in production at the end)",
                          [*steps(d)[:3], ("list_user_grants", {"user_id": u["user_id"]}), steps(d)[-1],
                           steps(d)[-2], steps(d)[-3]])

    b.run("promote", 4, MODELS, promote)

    # ---- promotion refused: one metric short ------------------------------------------------------------
    def promote_refused(m: Model) -> None:
        fails = failing(m)
        if m.stage not in ("staging", "registered") or len(fails) != 1 or not recent(m):
            raise SkipCandidate("not a clean refusal")
        users = [u for u in USERS if may_run(u, m.owner_id, m.team)]
        if not users:
            raise SkipCandidate("nobody")
        user = rng.choice(users)
        with b.attempt(f"promote_short_{m.name}_v{m.version}", [m.model_id],
                       instructions=who(user, rng) + f"You want version {m.version} of the model {m.name} promoted to production "
                       "today. You do not remember its evaluation figures. If the agent refuses, ask which figure falls short "
                       "and what it is, then accept.",
                       script=[hello(user) + f" Please promote {m.name} version {m.version} to production.",
                               "Which number is too low, and what is it exactly?"]) as d:
            d.read("find_user", email=user.email, employee_number=user.employee_number)
            vers = d.read("find_model_versions", name=m.name)
            this = next(v for v in vers if v["model_id"] == m.model_id)
            out(d, next(e["value"] for e in this["evaluations"] if e["metric"] == fails[0]), "number")
            d.forbid("set_model_stage", model_id=m.model_id, stage="production")
            d.one_end_state("The caller may change the model's stages (7.1) and the evaluation is recent; exactly one "
                            "threshold fails (7.2), so the refusal has one reason and 7.2 asks for that figure.")

    b.run("promote_short", 4, MODELS, promote_refused)

    # ---- access: granted, capped, refused, transferred ---------------------------------------------------
    def grant_revoke(user: User, split: str = "test") -> None:
        old = [g for g in GRANTS_BY_USER.get(user.user_id, []) if g.status == "active"]
        if not user.active or not old:
            raise SkipCandidate("no old grant")
        o = old[0]
        ods = DB.datasets.require(o.dataset_id)
        cands = [ds for ds in DATASETS if ds.status == "active" and ds.sensitivity != "restricted"
                 and TIER[ds.sensitivity] <= TIER[user.clearance] and not can_read(user, ds) and not any_grant(user, ds)
                 and ds.team != user.team and ods.name != ds.name]
        if not cands or sum(1 for g in old if g.dataset_id == o.dataset_id) != 1:
            raise SkipCandidate("no target")
        ds = rng.choice(cands)
        days = 30 if ds.sensitivity == "confidential" else rng.choice([14, 21, 60])
        prefix = "train_access_swap" if split == "train" else "access_swap"
        with b.attempt(f"{prefix}_{user.user_id}", [user.user_id, ds.dataset_id], split=split,
                       instructions=who(user, rng) + f"You are switching projects. You want read access to the dataset {ds.name} "
                       f"for {days} days (reason: 'new project onboarding'), and you want your existing access to {ods.name} "
                       "removed since you no longer need it. Ask when the new access will expire.",
                       script=[hello(user) + f" I need read access to {ds.name} for {days} days, for new project onboarding.",
                               f"And please remove my access to {ods.name}, I'm done with it. When does the new access expire?",
                               "Yes, please do both."]) as d:
            u = d.read("find_user", email=user.email, employee_number=user.employee_number)
            found = d.read("find_dataset", name=ds.name)
            d.read("list_user_grants", user_id=u["user_id"])
            g = d.write("grant_access", user_id=u["user_id"], dataset_id=found["dataset_id"], level="read", days=days,
                        justification="new project onboarding")
            d.write("revoke_access", grant_id=o.grant_id)
            out(d, g["expires_on"], "date")
            d.one_end_state("The grant revoked is the caller's only grant on the dataset they name (6.6 lets them revoke their "
                            "own). The new dataset is within their clearance and not restricted (6.2, 6.3), another team's so "
                            "read only (6.5), for days within the cap (6.4).")

    b.run("train_access_swap", 1, USERS, lambda u: grant_revoke(u, "train"))
    b.run("access_swap", 2, USERS, grant_revoke)

    def grant_capped(ds: Dataset) -> None:
        if ds.sensitivity != "confidential" or ds.status != "active":
            raise SkipCandidate("not confidential")
        users = [u for u in USERS if u.active and TIER[u.clearance] >= 2 and not can_read(u, ds) and not any_grant(u, ds)
                 and u.team != ds.team]
        if not users:
            raise SkipCandidate("nobody")
        user = rng.choice(users)
        asked = rng.choice([60, 90, 120])
        with b.attempt(f"access_capped_{ds.name}", [ds.dataset_id, user.user_id],
                       instructions=who(user, rng) + f"You want read access to the dataset {ds.name} for {asked} days (reason: "
                       "'quarterly analysis'). If the agent offers a shorter period, accept the longest it offers. You want to "
                       "know the date the access ends.",
                       script=[hello(user) + f" Please give me read access to {ds.name} for {asked} days, for quarterly analysis.",
                               "Okay, I'll take the longest you can do. When would it end?", "Yes, go ahead."]) as d:
            u = d.read("find_user", email=user.email, employee_number=user.employee_number)
            found = d.read("find_dataset", name=ds.name)
            g = d.write("grant_access", user_id=u["user_id"], dataset_id=found["dataset_id"], level="read", days=30,
                        justification="quarterly analysis")
            out(d, g["expires_on"], "date")
            d.forbid("grant_access", user_id=u["user_id"], dataset_id=found["dataset_id"], level="read", days=asked,
                     justification="quarterly analysis")
            d.one_end_state("The dataset is confidential, within the caller's clearance (6.2), another team's, so read only "
                            "(6.5); 30 days is the longest grant (6.4), which the caller accepts; the expiry is today plus 30 "
                            "days (6.6).")

    b.run("access_capped", 2, DATASETS, grant_capped)

    def grant_low_clearance(ds: Dataset) -> None:
        if ds.sensitivity not in ("confidential", "restricted") or ds.status != "active":
            raise SkipCandidate("low")
        users = [u for u in USERS if u.active and TIER[u.clearance] < TIER[ds.sensitivity] and not can_read(u, ds)
                 and not any_grant(u, ds) and u.team != ds.team]
        if not users:
            raise SkipCandidate("nobody")
        user = rng.choice(users)
        with b.attempt(f"access_clearance_{ds.name}", [ds.dataset_id, user.user_id],
                       instructions=who(user, rng) + f"You want read access to the dataset {ds.name} for 30 days (reason: "
                       "'benchmarking'). If the agent refuses, ask who owns the dataset so you can talk to them, then end.",
                       script=[hello(user) + f" Can I get read access to {ds.name} for 30 days? It's for benchmarking.",
                               "Who owns that dataset, then?"]) as d:
            u = d.read("find_user", email=user.email, employee_number=user.employee_number)
            found = d.read("find_dataset", name=ds.name)
            o = d.read("get_user", user_id=found["owner_id"])
            out(d, f"{o['first_name']} {o['last_name']}", "name")
            d.forbid("grant_access", user_id=u["user_id"], dataset_id=found["dataset_id"], level="read", days=30,
                     justification="benchmarking")
            d.one_end_state("The caller's clearance is below the dataset's sensitivity, the one reason (6.2 refuses; 6.3 sends "
                            "only callers with restricted clearance to a human, so no transfer); the caller asks who owns the "
                            "dataset, a name 9.3 lets the desk give.")

    b.run("access_clearance", 2, DATASETS, grant_low_clearance)

    def restricted_transfer(ds: Dataset) -> None:
        if ds.sensitivity != "restricted" or ds.status != "active":
            raise SkipCandidate("not restricted")
        users = [u for u in USERS if u.active and u.clearance == "restricted" and not can_read(u, ds) and not any_grant(u, ds)]
        if not users:
            raise SkipCandidate("nobody")
        user = rng.choice(users)
        with b.attempt(f"access_restricted_{ds.name}", [ds.dataset_id, user.user_id],
                       instructions=who(user, rng) + f"You want read access to the dataset {ds.name} for 14 days (reason: "
                       "'incident review'). You hold restricted clearance. You accept being handed to someone else if needed.",
                       script=[hello(user) + f" I need read access to {ds.name} for two weeks for an incident review."]) as d:
            u = d.read("find_user", email=user.email, employee_number=user.employee_number)
            found = d.read("find_dataset", name=ds.name)
            d.require("find_user", email=user.email)
            d.require_any([("find_dataset", {}), ("search_datasets", {})])
            d.transfer(f"{user.first_name} {user.last_name} (restricted clearance) requests read access to restricted dataset {ds.name}")
            d.forbid("grant_access", user_id=u["user_id"], dataset_id=found["dataset_id"], level="read", days=14,
                     justification="incident review")
            d.one_end_state("A restricted dataset and a caller with restricted clearance: 6.3 grants nothing at the desk and "
                            "transfers once the caller is verified and the dataset looked up (8).")
            d.alternative("9.1: the dataset looked up by a keyword search of its name shows the same restricted tier, so the "
                          "same transfer follows", searched(d, ds.name))

    b.run("access_restricted", 1, DATASETS, restricted_transfer)

    def write_other_team(ds: Dataset) -> None:
        if ds.sensitivity != "internal" or ds.status != "active":
            raise SkipCandidate("tier")
        users = [u for u in USERS if u.active and u.team != ds.team and TIER[u.clearance] >= TIER[ds.sensitivity]
                 and not any_grant(u, ds) and ds.owner_id != u.user_id]
        if not users:
            raise SkipCandidate("nobody")
        user = rng.choice(users)
        with b.attempt(f"access_write_{ds.name}", [ds.dataset_id, user.user_id],
                       instructions=who(user, rng) + f"You want write access to the dataset {ds.name} for 60 days (reason: "
                       "'backfill corrections'). If the agent says write access is not possible, you take read access for the "
                       "same 60 days instead. Ask when it ends.",
                       script=[hello(user) + f" I need write access to {ds.name} for 60 days for backfill corrections.",
                               "Alright, read access for the same 60 days then. Until when?", "Yes."]) as d:
            u = d.read("find_user", email=user.email, employee_number=user.employee_number)
            found = d.read("find_dataset", name=ds.name)
            g = d.write("grant_access", user_id=u["user_id"], dataset_id=found["dataset_id"], level="read", days=60,
                        justification="backfill corrections")
            out(d, g["expires_on"], "date")
            d.forbid("grant_access", user_id=u["user_id"], dataset_id=found["dataset_id"], level="write", days=60,
                     justification="backfill corrections")
            d.one_end_state("The dataset is internal and another team's: 6.5 allows read only, the one reason to refuse write; "
                            "the caller's clearance covers internal (6.2) and 60 days is within the cap (6.4), so read for 60 "
                            "days is granted.")

    b.run("access_write", 1, DATASETS, write_other_team)

    # ---- group comparisons: the group on top and its figure (policy 10.1) ---------------------------------
    def readers_of(ds: Dataset) -> list[User]:
        return [u for u in USERS if u.active and can_read(u, ds) and not any_grant(u, ds) and (ds.sensitivity == "public" or u.team == ds.team)]

    def group_top(ds: Dataset) -> None:
        readers = readers_of(ds)
        if not readers or ds.status != "active":
            raise SkipCandidate("no reader")
        user = rng.choice(readers)
        by, _ = CATEGORY[kind_of(ds)]
        column = rng.choice([c for c in NUMERIC[ds.dataset_id] if c != "converted"])
        function = "sum" if column in ADDITIVE else "mean"
        with b.attempt(f"group_top_{ds.name}", [ds.dataset_id],
                       instructions=who(user, rng) + f"In the dataset {ds.name} you want to know which {by} comes out highest on "
                       f"{column}, and its figure. You do not know how the desk combines the rows. You do not want anything changed.",
                       script=[hello(user) + f" In {ds.name}, which {by} is highest on {column}, and what's the figure?"]) as d:
            d.read("find_user", email=user.email, employee_number=user.employee_number)
            found = d.read("find_dataset", name=ds.name)
            result = d.read("aggregate", dataset_id=found["dataset_id"], column=column, by=by, function=function)
            ranked = sorted(result["groups"].items(), key=lambda kv: -kv[1])
            if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
                raise SkipCandidate("no single top group")
            d.output(ranked[0][0], "text")
            out(d, ranked[0][1], "number")
            d.one_end_state(READER.replace("section 3", "10.1") + f" 10.1 combines {column} by its {function} whatever word "
                            "the caller uses, and one group is strictly highest.")
            d.alternative("9.1: the dataset found by a keyword search gives the same id and the same groups",
                          searched(d, ds.name))

    b.run("group_top", 13, DATASETS, group_top)

    # ---- charts: the kind, the axes, the combination and the filter follow the question (policy 10.2) -------
    def chart(ds: Dataset) -> None:
        readers = readers_of(ds)
        if not readers or ds.status != "active":
            raise SkipCandidate("no reader")
        user = rng.choice(readers)
        kind = kind_of(ds)
        by, value = CATEGORY[kind]
        x, y = XY[kind]
        shape = ["bar", "scatter", "histogram"][b.count("chart_") % 3]
        if shape == "bar":
            column = y
            args: dict[str, Any] = {"chart_type": "bar", "x": by, "y": column, "aggregation": "sum" if column in ADDITIVE else "mean"}
            ask = f"a chart comparing {column} across each {by}"
        elif shape == "scatter":
            args = {"chart_type": "scatter", "x": x, "y": y, "aggregation": "none"}
            ask = f"a chart of how {y} moves with {x} ({x} explaining {y})"
        else:
            args = {"chart_type": "histogram", "x": y, "aggregation": "none"}
            ask = f"a chart of how the {y} values are spread"
        keep = rng.random() < 0.5
        if keep:
            args.update(filter_column=by, filter_value=value)
            ask += f", for the {value} rows only"
        with b.attempt(f"chart_{shape}_{ds.name}", [ds.dataset_id],
                       instructions=who(user, rng) + f"For a dashboard you want the desk to save {ask}, on the dataset {ds.name}. "
                       "You leave the details of the chart to the desk and agree when it describes one that matches.",
                       script=[hello(user) + f" Could you set up {ask} on {ds.name}?", "Yes, save it."]) as d:
            u = d.read("find_user", email=user.email, employee_number=user.employee_number)
            found = d.read("find_dataset", name=ds.name)
            d.write("create_chart", dataset_id=found["dataset_id"], title=f"{ds.name}: {ask}", requested_by=u["user_id"], **args)
            d.one_end_state("The caller can read the dataset (2.1). 10.2 fixes the chart by the question: a numeric column "
                            "across a text column's groups is a bar (aggregated as in 10.1), how one column moves with another "
                            "a scatter with x the one the caller says explains, a spread a histogram without y; the filter "
                            "only when the caller names one value to keep. The title is free.")

    b.run("chart_", 13, DATASETS, chart)

    # ---- training a new version (policy 7.5) ------------------------------------------------------------
    def train(m: Model) -> None:
        if m.task != "regression" or m.version != max(v.version for v in VERSIONS[m.name]):
            raise SkipCandidate("not the latest regression version")
        users = [u for u in USERS if may_run(u, m.owner_id, m.team)]
        rng.shuffle(users)
        for user in users:
            sets = [ds for ds in DATASETS if ds.status == "active" and can_read(user, ds) and not any_grant(user, ds)]
            if sets:
                break
        else:
            raise SkipCandidate("nobody")
        ds = rng.choice(sets)
        x, y = XY[kind_of(ds)]
        with b.attempt(f"retrain_{m.name}_v{m.version + 1}", [m.model_id, ds.dataset_id],
                       instructions=who(user, rng) + f"You want a new version of the model {m.name} trained on the dataset {ds.name}, "
                       f"predicting {y} from {x}, and you want to hear how well it did. Then you want that new version moved to "
                       f"staging for testing, and a chart saved on {ds.name} showing how {y} moves with {x}. You agree when the agent "
                       "describes each change.",
                       script=[hello(user) + f" Please train a new version of {m.name} on {ds.name}, predicting {y} from {x}.",
                               "Yes, train it.", "How did it do? Please move it to staging, and save a chart of how "
                               f"{y} moves with {x} on {ds.name}.", "Yes, do both."]) as d:
            u = d.read("find_user", email=user.email, employee_number=user.employee_number)
            d.read("find_model_versions", name=m.name)
            found = d.read("find_dataset", name=ds.name)
            trained = d.write("train_model", name=m.name, dataset_id=found["dataset_id"], target=y, features=[x], requested_by=u["user_id"])
            for e in trained["evaluations"]:
                out(d, e["value"], "number")
            d.write("set_model_stage", model_id=trained["model_id"], stage="staging")
            d.write("create_chart", dataset_id=found["dataset_id"], chart_type="scatter", x=x, y=y, aggregation="none",
                    title=f"{y} against {x}", requested_by=u["user_id"])
            d.one_end_state("The caller may train the model (7.5: its owner or a data engineer on its team), a regression "
                            "model, on a dataset they can read (2.1), with the target and feature they name; staging needs no "
                            "threshold (7.4); the chart is a scatter with x the explaining column (10.2).")

    b.run("retrain_", 9, MODELS, train)
    return b.writer


def _removed(ds: Dataset, op: str, col: str | None) -> int:
    if op == "dedupe":
        return len(ds.rows) - len({tuple(sorted(r.items())) for r in ds.rows})
    if op == "drop_nulls":
        return sum(1 for r in ds.rows if r.get(col or "") is None)
    return sum(1 for r in ds.rows if isinstance(v := r.get(col or ""), (int, float)) and v < 0)


if __name__ == "__main__":
    build().save()
