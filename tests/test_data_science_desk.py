"""The data-science desk computes what an analyst asks: group comparisons, charts graded on their
specification, and model versions trained deterministically from the data and the settings."""

from __future__ import annotations

from pytest_tau._agents import OracleAgent
from pytest_tau._environment import Environment
from pytest_tau._scoring import play
from pytest_tau._tasks import Action, Task
from pytest_tau._users import ScriptedUser
from tests_domains.data_science.domain import DOMAIN


def score(task: Task, actions: list[Action]) -> float:
    _, verdict = play(DOMAIN, task, OracleAgent(task, actions), ScriptedUser(task, actions))
    return verdict.reward


def first(prefix: str) -> Task:
    return next(t for t in DOMAIN.tasks if t.id.startswith(prefix) and t.split == "test")


def test_datasets_hold_what_their_pipelines_last_wrote() -> None:
    db = DOMAIN.initial_db
    for pipeline in db.pipelines.values():
        written = [r.rows_written or 0 for r in pipeline.runs if r.status == "succeeded"]
        rows = len(db.datasets[pipeline.dataset_id].rows)
        assert rows >= 180
        if written:
            assert written[-1] == rows and written == sorted(written)


def test_a_chart_is_graded_on_its_specification_not_its_title() -> None:
    task = first("chart_bar")
    gold = list(task.gold_actions)
    chart = next(i for i, a in enumerate(gold) if a.name == "create_chart")
    retitled = gold[:chart] + [Action(name="create_chart", arguments={**gold[chart].arguments, "title": "Another title",
                                                                       "x": gold[chart].arguments["x"].upper()})]
    assert score(task, retitled) == 1.0
    wrong = "mean" if gold[chart].arguments["aggregation"] == "sum" else "sum"
    assert score(task, gold[:chart] + [Action(name="create_chart", arguments={**gold[chart].arguments, "aggregation": wrong})]) == 0.0
    assert score(task, gold[:chart] + [Action(name="create_chart", arguments={**gold[chart].arguments, "chart_type": "scatter"})]) == 0.0


def test_training_is_deterministic_and_its_metrics_follow_the_settings() -> None:
    task = first("retrain_")
    train = next(a for a in task.gold_actions if a.name == "train_model")
    results = []
    for _ in range(2):
        env = Environment(DOMAIN, task=task)
        results.append(env.call("train_model", dict(train.arguments)).result)
    assert results[0] == results[1] and '"r2"' in results[0]
    env = Environment(DOMAIN, task=task)
    ds = env.state.db.datasets[train.arguments["dataset_id"]]
    other = next(c.name for c in ds.columns if c.dtype != "string" and c.name not in (train.arguments["target"], *train.arguments["features"]))
    changed = env.call("train_model", {**train.arguments, "features": [*train.arguments["features"], other]})
    assert not changed.error and changed.result != results[0]  # another feature set, other figures
