"""The web-task desk's jobs run and its monitors fire: an extraction run returns the rows its pages list,
a submission changes the site's status page, and a monitor created before it (policy 7.3) alerts."""

from __future__ import annotations

from pytest_tau._agents import OracleAgent
from pytest_tau._environment import Environment
from pytest_tau._scoring import play
from pytest_tau._tasks import Action, Task
from pytest_tau._users import ScriptedUser
from tests_domains.web_automation.domain import DOMAIN


def score(task: Task, actions: list[Action]) -> float:
    _, verdict = play(DOMAIN, task, OracleAgent(task, actions), ScriptedUser(task, actions))
    return verdict.reward


def test_a_run_returns_the_listed_entries_and_completes_a_one_time_job() -> None:
    task = DOMAIN.task("run_job_cheapest_1")
    run = next(a for a in task.gold_actions if a.name == "run_extraction")
    env = Environment(DOMAIN, task=task)
    job = env.state.db.extraction_jobs[run.arguments["job_id"]]
    call = env.call("run_extraction", dict(run.arguments))
    assert not call.error
    rows = call.result
    site_pages = [p for p in env.state.db.pages.where(site_id=job.site_id) if p.path.startswith(job.path_prefix)]
    for page in site_pages:
        for item in page.items:
            assert item.title in rows
    after = env.state.db.extraction_jobs[job.job_id]
    assert after.last_run_at is not None and after.rows_last_run == sum(len(p.items) for p in site_pages if not p.path.startswith("/account/"))
    assert after.status == ("completed" if job.schedule == "once" else "scheduled")
    assert env.call("run_extraction", dict(run.arguments)).error == (job.schedule == "once")


def test_the_monitor_must_exist_before_the_submission_it_watches() -> None:
    for task_id in ("watch_then_submit_1", "watch_full_then_submit_1"):
        task = DOMAIN.task(task_id)
        gold = list(task.gold_actions)
        assert score(task, gold) == 1.0
        create = next(i for i, a in enumerate(gold) if a.name == "create_monitor")
        submit = next(i for i, a in enumerate(gold) if a.name == "submit_form")
        swapped = list(gold)
        swapped[create], swapped[submit] = gold[submit], gold[create]
        assert score(task, swapped) == 0.0
        env = Environment(DOMAIN, task=task)
        for action in gold:
            env.call(action.name, dict(action.arguments))
        monitor = next(m for m in env.state.db.monitors.values() if m.page_id == gold[create].arguments["page_id"]
                       and m.customer_id == gold[create].arguments["customer_id"])
        alerts = list(env.state.db.change_alerts.where(monitor_id=monitor.monitor_id))
        assert len(alerts) == 1 and "received" in alerts[0].summary
