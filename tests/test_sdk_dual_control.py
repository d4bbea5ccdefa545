"""Dual control: user tools over a user-side DB, gold actions by actor, the oracle and the
scripted user sharing the work, LLM users acting through function calling, and the
validity checks over user actions. A toy help desk: the agent unlocks accounts, the
customer switches things on their own phone."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import orjson
import pytest
from pydantic import BaseModel, Field

from pytest_tau import Action, Domain, DomainError, Environment, Table, TaskWriter, ToolError, fingerprint
from pytest_tau._agents import DoNothingAgent, OracleAgent
from pytest_tau._conversation import RequestedCall, Usage
from pytest_tau._llm import Completion
from pytest_tau._scoring import play
from pytest_tau._tasks import TaskFileError, load_tasks
from pytest_tau._users import USER_TOOL_GUIDELINES, LLMUser, ScriptedUser, user_runs
from pytest_tau._validity import (
    check_do_nothing_scores_0,
    check_eager_user_scores_0,
    check_forbidden_accepted,
    check_gold_actions_succeed,
    check_initial_db_untouched,
    check_mutations_score_0,
    check_oracle_scores_1,
    check_over_eager_scores_0,
    check_write_order_free,
)


class Account(BaseModel):
    account_id: str
    email: str
    locked: bool
    notes: list[str] = []


class DeskDB(BaseModel):
    accounts: Table[Account]


class Phone(BaseModel):
    phone_id: str
    wifi: bool
    app_version: str


class PhoneDB(BaseModel):
    phones: Table[Phone]


def make_domain(tmp_path: Path) -> Domain[DeskDB]:
    fixtures = tmp_path / "fixtures" / "duo"
    fixtures.mkdir(parents=True)
    (fixtures / "db.json").write_text(
        '{"accounts": {"A1": {"account_id": "A1", "email": "ana@example.com", "locked": true},'
        ' "A2": {"account_id": "A2", "email": "bo@example.com", "locked": true}}}'
    )
    (fixtures / "user_db.json").write_text('{"phones": {"P1": {"phone_id": "P1", "wifi": false, "app_version": "1.0"}}}')
    (fixtures / "policy.md").write_text("Unlock an account only after the phone runs app 2.0. Never unlock bo@example.com.")
    domain = Domain("duo", DeskDB, now=datetime(2026, 5, 15, 9, 0), fixtures=fixtures, user_db=PhoneDB)

    @domain.tool
    def find_account(db: DeskDB, email: Annotated[str, Field(description="the customer's email")]) -> Account:
        """Find an account by email."""
        found = db.accounts.find(email=email)
        if not found:
            raise ToolError("no account with that email")
        return found[0]

    @domain.tool(write=True)
    def unlock_account(db: DeskDB, account_id: str) -> Account:
        """Unlock an account."""
        account = db.accounts.require(account_id)
        account.locked = False
        return account

    @domain.tool(write=True)
    def add_note(db: DeskDB, account_id: str, note: str) -> Account:
        """Add a note to an account."""
        account = db.accounts.require(account_id)
        account.notes.append(note)
        return account

    @domain.user_tool
    def check_phone(db: PhoneDB) -> Phone:
        """Show my phone's status."""
        return db.phones.require("P1")

    @domain.user_tool(write=True)
    def set_wifi(db: PhoneDB, on: bool) -> Phone:
        """Switch wifi on or off."""
        phone = db.phones.require("P1")
        phone.wifi = on
        return phone

    @domain.user_tool(write=True)
    def update_app(db: PhoneDB, version: str) -> Phone:
        """Update the app to a version."""
        phone = db.phones.require("P1")
        if not phone.wifi:
            raise ToolError("no connection: switch wifi on first")
        phone.app_version = version
        return phone

    return domain


def write_tasks(domain: Domain[DeskDB]) -> None:
    writer = TaskWriter(domain)
    joint = writer.task(
        "joint_fix",
        instructions="You are Ana (ana@example.com). Your account is locked and your app is old.",
        script=["Hi, I'm ana@example.com and I'm locked out.", "Thanks."],
    )
    account = joint.read("find_account", email="ana@example.com")
    joint.read("check_phone")
    joint.write("set_wifi", on=True)
    joint.write("update_app", version="2.0")
    joint.write("unlock_account", account_id=account["account_id"])
    joint.write("add_note", account_id=account["account_id"], note="app updated")
    joint.forbid("unlock_account", account_id="A2")

    user_only = writer.task(
        "user_only",
        instructions="You are Ana (ana@example.com). Your wifi is off and you want to know your app version.",
        script=["Hi, my wifi is off, can you help?"],
    )
    phone = user_only.read("check_phone")
    user_only.write("set_wifi", on=True)
    user_only.output(phone["app_version"], "number")
    user_only.forbid("set_wifi", on=False)
    writer.save()


@pytest.fixture
def duo(tmp_path: Path) -> Domain[DeskDB]:
    domain = make_domain(tmp_path)
    write_tasks(domain)
    return domain


def test_single_control_task_files_keep_their_form() -> None:
    # An agent action dumps without "actor": every existing tasks.json stays byte-identical.
    assert Action(name="x", arguments={"a": 1}).model_dump() == {"name": "x", "arguments": {"a": 1}}
    assert Action(name="x", actor="user").model_dump(mode="json") == {"name": "x", "arguments": {}, "actor": "user"}
    assert Action.model_validate({"name": "x"}).actor == "agent"


def test_task_file_records_the_actor(duo: Domain[DeskDB]) -> None:
    data = orjson.loads((duo.fixtures / "tasks.json").read_bytes())
    joint = next(t for t in data["tasks"] if t["id"] == "joint_fix")
    assert [a.get("actor", "agent") for a in joint["gold_actions"]] == ["agent", "user", "user", "user", "agent", "agent"]
    assert "actor" not in joint["forbidden_actions"][0]
    assert [a.actor for a in duo.task("user_only").forbidden_actions] == ["user"]


def test_a_user_tool_in_an_agent_action_is_refused_at_load(duo: Domain[DeskDB], tmp_path: Path) -> None:
    data = orjson.loads((duo.fixtures / "tasks.json").read_bytes())
    data["tasks"][0]["gold_actions"][1].pop("actor")  # check_phone, now claimed by the agent
    (duo.fixtures / "tasks.json").write_bytes(orjson.dumps(data))
    duo.__dict__.pop("tasks", None)
    with pytest.raises(TaskFileError, match="unknown tool 'check_phone'"):
        _ = duo.tasks
    assert load_tasks(duo.fixtures / "tasks.json")  # the schema itself is fine


def test_user_tools_need_a_user_db_and_share_the_namespace(tmp_path: Path) -> None:
    single = Domain("solo", DeskDB, fixtures=tmp_path)
    with pytest.raises(DomainError, match="user-side DB"):
        single.user_tool(lambda db: None)
    duo = make_domain(tmp_path)
    with pytest.raises(DomainError, match="defined twice"):

        @duo.user_tool
        def find_account(db: PhoneDB) -> str:
            """Clash."""
            return ""

    assert not single.dual_control and duo.dual_control
    assert [s["function"]["name"] for s in duo.user_tool_schemas()] == ["check_phone", "set_wifi", "update_app"]
    assert not {"check_phone", "set_wifi"} & {s["function"]["name"] for s in duo.tool_schemas()}


def test_each_side_calls_only_its_own_tools(duo: Domain[DeskDB]) -> None:
    env = Environment(duo)
    assert env.call("set_wifi", {"on": True}).error  # the agent has no such tool
    assert env.call("unlock_account", {"account_id": "A1"}, actor="user").error  # nor the customer this one
    call = env.call("set_wifi", {"on": True}, actor="user")
    assert not call.error and call.actor == "user" and call.to_json()["actor"] == "user"
    assert "actor" not in env.calls[0].to_json()
    assert env.state.diff() == {"user:phones": {"P1": {"phone_id": "P1", "wifi": True, "app_version": "1.0"}}}


def test_the_failed_user_write_is_rolled_back(duo: Domain[DeskDB]) -> None:
    env = Environment(duo)
    assert env.call("update_app", {"version": "2.0"}, actor="user").error
    assert env.state.diff() == {}


def test_gold_and_fingerprints_cover_both_sides(duo: Domain[DeskDB]) -> None:
    gold = duo.gold("joint_fix")
    assert set(gold.diff) == {"accounts", "user:phones"}
    assert gold.diff["user:phones"]["P1"]["app_version"] == "2.0"
    assert duo.initial_compared("user:phones", "P1") == {"phone_id": "P1", "wifi": False, "app_version": "1.0"}
    only_agent = {k: v for k, v in gold.compared.items() if k == "accounts"}
    assert fingerprint(gold.compared) != fingerprint(only_agent)


def test_oracle_instructs_and_the_scripted_user_acts(duo: Domain[DeskDB]) -> None:
    task = duo.task("joint_fix")
    trajectory, verdict = play(duo, task, OracleAgent(task), ScriptedUser(task))
    assert verdict.reward == 1.0, verdict.explain()
    # The gold order holds across the two sides.
    assert [(c.actor, c.name) for c in trajectory.calls] == [
        ("agent", "find_account"),
        ("user", "check_phone"),
        ("user", "set_wifi"),
        ("user", "update_app"),
        ("agent", "unlock_account"),
        ("agent", "add_note"),
    ]
    # The agent sees what the customer says, never the customer's tool results.
    assert not any(m["role"] == "tool" and m["name"] in duo.user_tools for m in trajectory.messages)


def test_the_scripted_user_acts_only_when_told(duo: Domain[DeskDB]) -> None:
    task = duo.task("user_only")
    trajectory, verdict = play(duo, task, DoNothingAgent(), ScriptedUser(task))
    assert verdict.reward == 0.0 and trajectory.calls == []
    assert user_runs(task.gold_actions) == [list(task.gold_actions)]


def test_validity_checks_cover_user_actions(duo: Domain[DeskDB]) -> None:
    for check in (
        check_oracle_scores_1,
        check_do_nothing_scores_0,
        check_gold_actions_succeed,
        check_forbidden_accepted,
        check_over_eager_scores_0,
        check_write_order_free,
        check_initial_db_untouched,
        check_eager_user_scores_0,
    ):
        assert check(duo) == [], check.__name__
    problems = check_mutations_score_0(duo)
    # Two tasks only: user_only has no write of another task that succeeds after its gold.
    assert all("untested" in p for p in problems), problems


def test_mutating_or_dropping_a_user_write_scores_0(duo: Domain[DeskDB]) -> None:
    task = duo.task("joint_fix")
    gold = list(task.gold_actions)
    dropped = [a for a in gold if a.name != "set_wifi"]  # update_app then fails: the app stays old
    changed = [a.model_copy(update={"arguments": {"version": "2.1"}}) if a.name == "update_app" else a for a in gold]
    for actions in (dropped, changed):
        _, verdict = play(duo, task, OracleAgent(task, actions), ScriptedUser(task, actions))
        assert verdict.reward == 0.0
        assert any(d.table == "user:phones" for d in verdict.state_differences)


def test_a_customer_acting_unasked_is_caught(duo: Domain[DeskDB]) -> None:
    # Without the required output, the user-only task passes a do-nothing agent whose
    # customer fixes their phone on their own: the eager-user check names it.
    data = orjson.loads((duo.fixtures / "tasks.json").read_bytes())
    for task in data["tasks"]:
        if task["id"] == "user_only":
            task["required_outputs"] = []
    (duo.fixtures / "tasks.json").write_bytes(orjson.dumps(data))
    duo.__dict__.pop("tasks", None)
    duo.gold.cache_clear()
    assert check_eager_user_scores_0(duo) == ["user_only: a do-nothing agent passes when the customer does their part unasked"]


def test_the_forbidden_user_step_fails_the_agent(duo: Domain[DeskDB]) -> None:
    task = duo.task("user_only")
    actions = [*task.gold_actions, *task.forbidden_actions]
    _, verdict = play(duo, task, OracleAgent(task, actions), ScriptedUser(task, actions))
    assert verdict.reward == 0.0 and verdict.forbidden_calls == ["user: set_wifi(on=False)"]


class FakeLLM:
    """Answers from a queue; records what it was given."""

    def __init__(self, answers: list[Completion]) -> None:
        self.usage = Usage()
        self.answers = answers
        self.seen: list[tuple[list[dict[str, Any]], list[dict[str, Any]] | None]] = []

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> Completion:
        self.seen.append((list(messages), tools))
        return self.answers.pop(0)


def _text(content: str) -> Completion:
    return Completion(content=content, tool_calls=[], message={"role": "assistant", "content": content}, usage=Usage())


def _tool_call(name: str, arguments: str) -> Completion:
    call = RequestedCall(id="c1", name=name, arguments=arguments)
    message = {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": name, "arguments": arguments}}]}
    return Completion(content="", tool_calls=[call], message=message, usage=Usage())


def test_an_llm_user_acts_through_function_calling(duo: Domain[DeskDB]) -> None:
    from pytest_tau._conversation import run_conversation

    task = duo.task("user_only")
    llm = FakeLLM([_text("My wifi is off."), _tool_call("set_wifi", '{"on": true}'), _text("Done, wifi is on. ###STOP###")])
    user = LLMUser(llm, task)  # type: ignore[arg-type]

    class Instructing:
        usage = Usage()

        def step(self, messages: list[dict[str, Any]]) -> Any:
            from pytest_tau import AgentStep

            return AgentStep(content="Please switch your wifi on.")

    env = Environment(duo)
    trajectory = run_conversation(env, Instructing(), user, max_steps=5)
    assert [(c.actor, c.name, c.error) for c in trajectory.calls] == [("user", "set_wifi", False)]
    assert env.state.diff()["user:phones"]["P1"]["wifi"] is True
    system = llm.seen[0][0][0]["content"]
    assert USER_TOOL_GUIDELINES.strip() in system
    assert [t["function"]["name"] for t in llm.seen[1][1] or []] == ["check_phone", "set_wifi", "update_app"]
    assert llm.seen[2][0][-1] == {"role": "tool", "tool_call_id": "c1", "name": "set_wifi", "content": env.calls[0].result}
    assert trajectory.end_reason == "user_stop"


def test_an_llm_user_in_a_single_control_domain_gets_no_tools(duo: Domain[DeskDB], tmp_path: Path) -> None:
    task = duo.task("user_only")
    llm = FakeLLM([_text("Hello.")])
    user = LLMUser(llm, task)  # type: ignore[arg-type]
    assert user.start() == "Hello."
    assert llm.seen[0][1] is None and USER_TOOL_GUIDELINES.strip() not in llm.seen[0][0][0]["content"]


def test_error_analysis_marks_the_customers_calls(duo: Domain[DeskDB]) -> None:
    from pytest_tau.analyze import _render_tool_calls

    task = duo.task("joint_fix")
    trajectory, _ = play(duo, task, OracleAgent(task), ScriptedUser(task))
    rendered = _render_tool_calls([call.to_json() for call in trajectory.calls]).splitlines()
    assert rendered[0].startswith("1. find_account(") and rendered[2].startswith("3. user: set_wifi(")


def test_a_task_can_start_from_its_own_state_and_calls_can_sync_both_sides(duo: Domain[DeskDB], monkeypatch: pytest.MonkeyPatch) -> None:
    """`Domain.prepare_state` sets a task's starting point (τ² telecom's initial_state) for the
    conversation, gold and validity alike; `Domain.after_call` runs after each successful call."""
    task = duo.task("joint_fix")
    synced: list[str] = []

    def prepare(state: Any, t: Any) -> None:
        if t.id == "joint_fix":
            state.db.accounts["A1"].notes.append("called before")

    def after(state: Any) -> None:
        synced.append(state.user_db.phones["P1"].app_version)

    monkeypatch.setattr(duo, "prepare_state", prepare)
    monkeypatch.setattr(duo, "after_call", after)
    assert Environment(duo).state.diff() == {}  # no task: the initial DB, as before
    assert Environment(duo, task=duo.task("user_only")).state.diff() == {}
    env = Environment(duo, task=task)
    assert env.state.diff()["accounts"]["A1"]["notes"] == ["called before"]
    env.call("update_app", {"version": "2.0"}, actor="user")  # fails: wifi is off
    env.call("set_wifi", {"on": True}, actor="user")
    env.call("unlock_account", {"account_id": "NOPE"})  # fails
    env.call("update_app", {"version": "2.0"}, actor="user")
    assert synced == ["1.0", "2.0"]  # after the two successful calls only

    duo.gold.cache_clear()
    assert duo.gold("joint_fix").diff["accounts"]["A1"]["notes"] == ["called before", "app updated"]
    _, verdict = play(duo, task, OracleAgent(task), ScriptedUser(task))
    assert verdict.reward == 1.0, verdict.explain()
    _, verdict = play(duo, task, DoNothingAgent(), ScriptedUser(task))
    assert verdict.reward == 0.0
    assert check_write_order_free(duo) == []  # validity replays from the task's start too


@pytest.mark.parametrize(("agent_name", "user_name"), [("tool-calling", "llm"), ("react", "react")])
def test_the_oracle_model_plays_both_sides(duo: Domain[DeskDB], agent_name: str, user_name: str) -> None:
    """`pytest_tau.testing.OracleModel` over the real model path: its agent makes the agent's
    gold calls and asks for the rest, its user makes the customer's gold calls with its own
    tools; every task scores 1 (benches and model tests can cover dual-control domains)."""
    from pytest_tau._builtin_strategies import BuiltinStrategies
    from pytest_tau._conversation import run_conversation
    from pytest_tau._scoring import judge
    from pytest_tau._settings import Settings
    from pytest_tau._strategies import StrategyContext
    from pytest_tau.testing import OpenAIServer, OracleModel

    strategies = BuiltinStrategies()
    with OpenAIServer(OracleModel([duo])) as server:
        settings = Settings.resolve({"model": "openai/fake", "api_base": server.url},
                                    model_agents=(agent_name,), model_users=(user_name,))
        for task in duo.tasks:
            context = StrategyContext(settings=settings, domain=duo, task=task, trial=0, seed=1)
            agent = strategies.pytest_tau_make_agent(None, agent_name, context)  # type: ignore[arg-type]
            user = strategies.pytest_tau_make_user(None, user_name, context)  # type: ignore[arg-type]
            env = Environment(duo, task=task)
            trajectory = run_conversation(env, agent, user, max_steps=20)
            verdict = judge(duo, task, env, trajectory)
            assert trajectory.error is None and verdict.reward == 1.0, (task.id, verdict.explain())
            actors = {(c.actor, c.name) for c in trajectory.calls}
            assert {(a.actor, a.name) for a in task.gold_actions} <= actors
