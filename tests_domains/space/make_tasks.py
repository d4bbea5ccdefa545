"""Builds fixtures/space/tasks.json with a `TaskWriter`: hand-written templates per task kind,
concrete callers, satellites, alerts and plans picked from the initial DB with a seeded RNG.
Every figure a task asks for is read from what the tools returned, never computed here.

    python -m tests_domains.space.make_tasks
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from pytest_tau import SkipCandidate, TaskDraft, TaskWriter
from tests_domains.space.domain import DOMAIN, power_budget

Rec = dict[str, Any]
NOT_BEFORE = "2026-09-14T15:30:00Z"
DB = DOMAIN.initial_db


def dump(table: Any) -> dict[str, Rec]:
    return {k: v.model_dump(mode="json") for k, v in table.items()}


ORGS = dump(DB.organisations)
CONTACTS = dump(DB.contacts)
SATS = dump(DB.satellites)
TYPES = dump(DB.command_types)
COMMANDS = dump(DB.commands)
WINDOWS = dump(DB.contact_windows)
ALERTS = dump(DB.conjunctions)
PLANS = dump(DB.manoeuvres)
TELEM: dict[str, Rec] = {}
for snap in sorted(dump(DB.telemetry).values(), key=lambda s: s["time"]):
    TELEM[snap["sat_id"]] = snap
NAMES = {"imaging_pass": "an imaging pass", "downlink_data": "a data downlink", "payload_calibration": "a payload calibration",
         "software_upload": "a software patch upload", "attitude_slew": "an attitude slew", "heater_cycle": "a heater cycle",
         "wheel_desaturation": "a reaction wheel desaturation"}
PERSONAS = ["You are brisk and businesslike.", "You are friendly and a little chatty.",
            "You are calm and precise and answer only what is asked.", "You are under some time pressure but polite."]


def people(org_id: str, role: str) -> list[Rec]:
    return sorted((c for c in CONTACTS.values() if c["org_id"] == org_id and c["role"] == role), key=lambda c: c["contact_id"])


def in_limits(sat: Rec) -> bool:
    t = TELEM[sat["sat_id"]]["temperature_c"]
    return bool(sat["op_temp_min_c"] <= t <= sat["op_temp_max_c"])


def unique_object(alert: Rec) -> bool:
    return sum(1 for a in ALERTS.values() if a["sat_id"] == alert["sat_id"] and a["object_name"] == alert["object_name"]) == 1


def hhmm(iso: str) -> str:
    return iso[11:16]


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(91407)
        self.used: set[str] = set()

    def run(self, tag: str, n: int, cands: list[Any], key: Callable[[Any], str],
            body: Callable[[TaskDraft, Any], None], text: Callable[[Any], tuple[str, list[str]]], train: int = 0) -> None:
        cands = sorted(cands, key=key)
        self.rng.shuffle(cands)
        made = 0
        for cand in cands:
            if made >= n + train:
                break
            if key(cand) in self.used:
                continue
            situation, script = text(cand)
            split = "train" if made >= n else "test"
            before = len(self.writer.tasks())
            tid = f"{tag}_{made + 1}"
            with self.writer.attempt(tid, instructions=situation, script=script, split=split) as d:
                body(d, cand)
            if len(self.writer.tasks()) > before:
                made += 1
                self.used.add(key(cand))
        print(f"{tag}: {made}")


def who(c: Rec, extra: str) -> str:
    org = ORGS[c["org_id"]]
    role = "a mission manager" if c["role"] == "mission_manager" else "a mission analyst"
    rng = random.Random(c["contact_id"])
    return (f"You are {c['first_name']} {c['last_name']}, {role} at {org['name']}. Your email is {c['email']} and your "
            f"organisation's mission reference is {org['mission_ref']}. {rng.choice(PERSONAS)} Give your details only "
            f"when the agent asks for them. {extra}")


def verify(d: TaskDraft, c: Rec) -> None:
    d.read("verify_caller", first_name=c["first_name"], last_name=c["last_name"], email=c["email"],
           mission_ref=ORGS[c["org_id"]]["mission_ref"])


def hello(c: Rec, ask: str) -> list[str]:
    org = ORGS[c["org_id"]]
    return [f"Hello, this is {c['first_name']} {c['last_name']} from {org['name']}. {ask}",
            f"My email is {c['email']} and our mission reference is {org['mission_ref']}.",
            "Yes, please go ahead.", "Thanks, that's all."]


# -- candidates -------------------------------------------------------------------------------
def sat_cands(pred: Callable[[Rec], bool], role: str = "mission_manager") -> list[tuple[Rec, Rec]]:
    out = []
    for s in SATS.values():
        if pred(s):
            staff = people(s["org_id"], role)
            if staff:
                out.append((s, staff[0]))
    return out


def budget(d: TaskDraft, sat: Rec, kinds: list[str]) -> Rec:
    r: Rec = d.read("power_budget", sat_id=sat["sat_id"], planned_kinds=kinds)
    return r


def next_window(d: TaskDraft, sat: Rec, kind: str) -> Rec:
    r: Rec = d.read("find_next_contact_window", sat_id=sat["sat_id"], not_before=NOT_BEFORE,
                    min_minutes=TYPES[kind]["duration_min"])
    return r


def pick_kind(sat: Rec) -> str:
    return ["imaging_pass", "downlink_data", "payload_calibration", "software_upload", "wheel_desaturation"][int(sat["sat_id"][3:]) % 5]


# 1. queue one command, all fine
def queue_ok(d: TaskDraft, x: tuple[Rec, Rec]) -> None:
    sat, c = x
    d.one_end_state("Rules 4.1-4.5: the window is the one find_next_contact_window returns for the kind's duration from 15:30 UTC, the satellite is within its thermal limits and the battery stays above 30%; the requester is the verified manager (2.3).")
    kind = pick_kind(sat)
    verify(d, c)
    sid = d.read("find_satellite", name=sat["name"])["sat_id"]
    d.read("get_telemetry", sat_id=sid)
    w = next_window(d, sat, kind)
    b = budget(d, sat, [kind])
    if b["battery_after_pct"] < 32:
        raise SkipCandidate
    d.write("queue_command", sat_id=sid, kind=kind, window_id=w["window_id"], requested_by=c["contact_id"])
    d.output(hhmm(w["start"]), "time", strict=True)
    d.output(b["battery_after_pct"], "percent", strict=True)


def queue_ok_text(x: tuple[Rec, Rec]) -> tuple[str, list[str]]:
    sat, c = x
    kind = pick_kind(sat)
    return (who(c, f"You want {NAMES[kind]} queued for your satellite {sat['name']} in the next contact window that works. "
                   "Before agreeing, you want to hear when that window starts and what the battery will be afterwards. "
                   "You accept whatever window the agent finds."),
            hello(c, f"I'd like {NAMES[kind]} queued for {sat['name']} at the next window, please."))


# 2. power floor refusal
def power_refuse(d: TaskDraft, x: tuple[Rec, Rec]) -> None:
    sat, c = x
    d.one_end_state("Rule 4.3: power_budget puts the battery below the 30.0% floor, so nothing is queued and its figure is told; the caller is a manager and the satellite within its thermal limits, so the floor is the one reason.")
    verify(d, c)
    sid = d.read("find_satellite", name=sat["name"])["sat_id"]
    d.read("get_telemetry", sat_id=sid)
    w = next_window(d, sat, "imaging_pass")
    b = budget(d, sat, ["imaging_pass"])
    if not b["battery_after_pct"] < 29:
        raise SkipCandidate
    d.output(b["battery_after_pct"], "percent", strict=True)
    d.forbid("queue_command", sat_id=sid, kind="imaging_pass", window_id=w["window_id"], requested_by=c["contact_id"])


def power_text(x: tuple[Rec, Rec]) -> tuple[str, list[str]]:
    sat, c = x
    return (who(c, f"You want an imaging pass queued for {sat['name']} at the next contact window; a client is waiting for "
                   "the pictures. If the agent refuses, ask what the battery would be and accept the answer."),
            hello(c, f"We need an imaging pass on {sat['name']} at the next possible window."))


# 3. thermal refusal
def thermal_refuse(d: TaskDraft, x: tuple[Rec, Rec]) -> None:
    sat, c = x
    d.one_end_state("Rule 4.4: the satellite is out of its thermal limits, so no downlink is queued. Where power_budget would also fall below 30% (4.3), an agent that refuses for that reason first ends in the same state, and the customer asks for the latest temperature either way, so it is told.")
    verify(d, c)
    sid = d.read("find_satellite", name=sat["name"])["sat_id"]
    t = d.read("get_telemetry", sat_id=sid)
    w = next_window(d, sat, "downlink_data")
    d.output(t["latest"]["temperature_c"], "number", strict=True)
    d.forbid("queue_command", sat_id=sid, kind="downlink_data", window_id=w["window_id"], requested_by=c["contact_id"])
    if power_budget(DB, sat_id=sid, planned_kinds=["downlink_data"])["battery_after_pct"] < 30.0:
        ref = ORGS[c["org_id"]]["mission_ref"]
        d.alternative("Rule 4.3 first: power_budget puts the battery below the floor, a second reason to queue nothing; the "
                      "customer still asks for the temperature, which get_telemetry gives.",
                      [("verify_caller", {"first_name": c["first_name"], "last_name": c["last_name"], "email": c["email"],
                                          "mission_ref": ref}),
                       ("find_satellite", {"name": sat["name"]}), ("find_next_contact_window", {
                           "sat_id": sid, "not_before": NOT_BEFORE, "min_minutes": TYPES["downlink_data"]["duration_min"]}),
                       ("power_budget", {"sat_id": sid, "planned_kinds": ["downlink_data"]}),
                       ("get_telemetry", {"sat_id": sid})])


def thermal_text(x: tuple[Rec, Rec]) -> tuple[str, list[str]]:
    sat, c = x
    return (who(c, f"You want a data downlink queued for {sat['name']} at the next contact window. If the agent says it "
                   "cannot, ask for the satellite's latest temperature reading, then accept."),
            hello(c, f"Please queue a data downlink for {sat['name']} at the next window."))


# 4. analyst asks for a command
def analyst_refuse(d: TaskDraft, x: tuple[Rec, Rec]) -> None:
    sat, c = x
    d.one_end_state("Rule 2.2: an analyst may request no change (no transfer), whatever the window or the battery; analysts may receive information, and the customer asks for the window's start, the one find_next_contact_window returns for a slew.")
    verify(d, c)
    sid = d.read("find_satellite", name=sat["name"])["sat_id"]
    w = next_window(d, sat, "attitude_slew")
    d.output(hhmm(w["start"]), "time", strict=True)
    d.forbid("queue_command", sat_id=sid, kind="attitude_slew", window_id=w["window_id"], requested_by=c["contact_id"])


def analyst_text(x: tuple[Rec, Rec]) -> tuple[str, list[str]]:
    sat, c = x
    return (who(c, f"You want an attitude slew queued for {sat['name']} at the next contact window long enough for it, "
                   "and you want to know when that window starts. If the agent declines to queue it, accept, but make "
                   "sure you hear the start time of that window."),
            hello(c, f"Can you queue an attitude slew on {sat['name']} at the next window? When does it start?"))


# 5. approve an avoidance plan, queue a command, cancel another
def multi_cands() -> list[tuple[Rec, Rec, Rec, Rec]]:
    out = []
    for p in PLANS.values():
        if p["purpose"] != "collision_avoidance" or p["status"] != "proposed":
            continue
        a = ALERTS[p["alert_id"]]
        sat = SATS[p["sat_id"]]
        if a["probability"] < 1e-4 or not in_limits(sat):
            continue
        late = [cm for cm in COMMANDS.values() if cm["sat_id"] == sat["sat_id"] and cm["status"] == "queued"
                and WINDOWS[cm["window_id"]]["start"] >= "2026-09-14T19:00:00Z"]
        staff = people(sat["org_id"], "mission_manager")
        if late and staff and unique_object(a):
            out.append((p, sat, staff[0], sorted(late, key=lambda cm: cm["command_id"])[0]))
    return out


def multi(d: TaskDraft, x: tuple[Rec, Rec, Rec, Rec]) -> None:
    p, sat, c, cmd = x
    d.one_end_state("Rules 6.1-6.3, 4.6 and 4.1-4.5: the alert's one proposed avoidance plan is quoted and keeps the deorbit reserve, so it is approved; the command named by kind and window starts after 17:00 UTC, so it may be cancelled; the slew goes in the window find_next_contact_window returns, battery above the floor; the requester is the verified manager.")
    verify(d, c)
    sid = d.read("find_satellite", name=sat["name"])["sat_id"]
    d.read("list_conjunctions", sat_id=sid)
    d.read("list_manoeuvre_plans", sat_id=sid)
    q = d.read("quote_manoeuvre", plan_id=p["plan_id"])
    if q["fuel_remaining_kg"] < sat["deorbit_reserve_kg"]:
        raise SkipCandidate
    d.read("list_commands", sat_id=sid)
    d.read("get_telemetry", sat_id=sid)
    w = next_window(d, sat, "attitude_slew")
    b = budget(d, sat, ["attitude_slew"])
    if b["battery_after_pct"] < 32:
        raise SkipCandidate
    d.write("cancel_command", command_id=cmd["command_id"], cancelled_by=c["contact_id"], reason="replanned around the burn")
    d.write("approve_manoeuvre", plan_id=p["plan_id"], approved_by=c["contact_id"])
    d.write("queue_command", sat_id=sid, kind="attitude_slew", window_id=w["window_id"], requested_by=c["contact_id"])
    d.output(q["fuel_cost_g"], "number", strict=True)


def multi_text(x: tuple[Rec, Rec, Rec, Rec]) -> tuple[str, list[str]]:
    p, sat, c, cmd = x
    a = ALERTS[p["alert_id"]]
    kind = NAMES[cmd["kind"]]
    wstart = WINDOWS[cmd["window_id"]]["start"]
    return (who(c, f"There is a conjunction warning for {sat['name']} with {a['object_name']}, and flight dynamics proposed "
                   f"an avoidance manoeuvre. You want three things: approve the avoidance manoeuvre (after hearing how much "
                   f"propellant it costs), cancel the {kind[kind.index(' ') + 1:]} that is queued for the window starting "
                   f"{wstart[:10]} at {hhmm(wstart)} UTC because the burn changes your plans, and queue an attitude slew "
                   "at the next contact window that fits it. You agree to everything the agent proposes for these."),
            hello(c, f"We got a conjunction warning for {sat['name']} with {a['object_name']}; I want to approve the "
                     "avoidance manoeuvre, and rearrange a couple of commands around it."))


# 6. accept a low-risk alert (reject its plan) and queue a command
def accept_cands() -> list[tuple[Rec, Rec, Rec]]:
    out = []
    for p in PLANS.values():
        if p["purpose"] != "collision_avoidance" or p["status"] != "proposed":
            continue
        a = ALERTS[p["alert_id"]]
        sat = SATS[p["sat_id"]]
        staff = people(sat["org_id"], "mission_manager")
        if a["probability"] < 1e-4 and in_limits(sat) and staff and unique_object(a):
            out.append((p, sat, staff[0]))
    return out


def accept(d: TaskDraft, x: tuple[Rec, Rec, Rec]) -> None:
    p, sat, c = x
    d.one_end_state("Rules 5.1-5.2: the alert (one with that object on the satellite) is low risk, so its risk may be accepted and its one proposed avoidance plan is rejected with it; the calibration goes in the window find_next_contact_window returns (4.2), within thermal and power limits.")
    verify(d, c)
    sid = d.read("find_satellite", name=sat["name"])["sat_id"]
    d.read("list_conjunctions", sat_id=sid)
    d.read("list_manoeuvre_plans", sat_id=sid)
    d.read("get_telemetry", sat_id=sid)
    w = next_window(d, sat, "payload_calibration")
    b = budget(d, sat, ["payload_calibration"])
    if b["battery_after_pct"] < 32:
        raise SkipCandidate
    d.write("accept_conjunction_risk", alert_id=p["alert_id"], accepted_by=c["contact_id"], note="low probability")
    d.write("reject_manoeuvre", plan_id=p["plan_id"], rejected_by=c["contact_id"], reason="risk accepted")
    d.write("queue_command", sat_id=sid, kind="payload_calibration", window_id=w["window_id"], requested_by=c["contact_id"])
    d.output(hhmm(w["start"]), "time", strict=True)


def accept_text(x: tuple[Rec, Rec, Rec]) -> tuple[str, list[str]]:
    p, sat, c = x
    a = ALERTS[p["alert_id"]]
    return (who(c, f"There is a conjunction warning for {sat['name']} with {a['object_name']}. You think it is too unlikely "
                   "to be worth burning propellant: you want to accept the risk and not manoeuvre. You also want a payload "
                   "calibration queued at the next contact window that fits it, and you want to hear when that window starts. "
                   "You agree to what the agent proposes for these."),
            hello(c, f"About the conjunction warning on {sat['name']} with {a['object_name']}: we'd like to accept the risk "
                     "and skip the manoeuvre. And I need a payload calibration queued."))


# 7. high-risk acceptance: transfer
def high_cands() -> list[tuple[Rec, Rec, Rec]]:
    out = []
    for a in ALERTS.values():
        sat = SATS[a["sat_id"]]
        staff = people(sat["org_id"], "mission_manager")
        if a["status"] == "open" and a["probability"] >= 1e-4 and staff and unique_object(a):
            out.append((a, sat, staff[0]))
    return out


def high(d: TaskDraft, x: tuple[Rec, Rec, Rec]) -> None:
    a, sat, c = x
    d.one_end_state("Rule 5.3: a high-risk alert's risk is never accepted at the desk; the customer insists, so after the look-up the transfer to flight dynamics is the one step (7.1).")
    verify(d, c)
    sid = d.read("find_satellite", name=sat["name"])["sat_id"]
    d.require("list_conjunctions", sat_id=sid)
    d.read("list_conjunctions", sat_id=sid)
    d.transfer(f"{c['first_name']} {c['last_name']} wants to accept the risk of high-risk conjunction {a['alert_id']}")
    d.forbid("accept_conjunction_risk", alert_id=a["alert_id"], accepted_by=c["contact_id"], note="accept")


def high_text(x: tuple[Rec, Rec, Rec]) -> tuple[str, list[str]]:
    a, sat, c = x
    return (who(c, f"There is a conjunction warning for {sat['name']} with {a['object_name']}. You do not want to manoeuvre: "
                   "you want the desk to record that you accept the risk, and you do not want any manoeuvre approved. If the "
                   "agent says it cannot record that, insist: you want to speak to someone who can."),
            hello(c, f"We'd like to accept the risk on the {a['object_name']} conjunction with {sat['name']}; no manoeuvre."),)


# 8. reserve breach on a station-keeping / orbit-raise plan
def reserve_cands() -> list[tuple[Rec, Rec, Rec]]:
    out = []
    for p in PLANS.values():
        sat = SATS[p["sat_id"]]
        staff = people(sat["org_id"], "mission_manager")
        if p["purpose"] != "collision_avoidance" and staff:
            out.append((p, sat, staff[0]))
    return out


def reserve(d: TaskDraft, x: tuple[Rec, Rec, Rec]) -> None:
    p, sat, c = x
    d.one_end_state("Rule 6.2: after the burn the propellant would be below the deorbit reserve, so a station-keeping or orbit-raise plan is not approved and no transfer is made; the cost asked for is quote_manoeuvre's.")
    verify(d, c)
    sid = d.read("find_satellite", name=sat["name"])["sat_id"]
    d.read("list_manoeuvre_plans", sat_id=sid)
    q = d.read("quote_manoeuvre", plan_id=p["plan_id"])
    if q["fuel_remaining_kg"] >= q["deorbit_reserve_kg"] or p["status"] != "proposed":  # a decided plan: another answer
        raise SkipCandidate
    d.output(q["fuel_cost_g"], "number", strict=True)
    d.forbid("approve_manoeuvre", plan_id=p["plan_id"], approved_by=c["contact_id"])


def reserve_text(x: tuple[Rec, Rec, Rec]) -> tuple[str, list[str]]:
    p, sat, c = x
    what = p["purpose"].replace("_", "-")
    return (who(c, f"Flight dynamics proposed a {what} manoeuvre for {sat['name']} with burn start {p['burn_start'][:10]} "
                   f"at {hhmm(p['burn_start'])} UTC. You want it approved. Before anything, you want to hear how much "
                   "propellant the burn would cost. If the agent refuses to approve it, accept."),
            hello(c, f"I want to approve the {what} manoeuvre planned for {sat['name']}."))


# 9. cancel a command too close to its window
def late_cands() -> list[tuple[Rec, Rec, Rec]]:
    out = []
    for cm in COMMANDS.values():
        start = WINDOWS[cm["window_id"]]["start"]
        sat = SATS[cm["sat_id"]]
        staff = people(sat["org_id"], "mission_manager")
        if cm["status"] == "queued" and "2026-09-14T15:10:00Z" <= start < "2026-09-14T16:50:00Z" and staff:
            out.append((cm, sat, staff[0]))
    return out


def late(d: TaskDraft, x: tuple[Rec, Rec, Rec]) -> None:
    cm, sat, c = x
    d.one_end_state("Rule 4.6: the command's window starts before 17:00 UTC today, so it cannot be cancelled; the start time is told (the command is the only queued one of its kind on the satellite).")
    if sum(1 for o in COMMANDS.values() if o["sat_id"] == sat["sat_id"] and o["kind"] == cm["kind"] and o["status"] == "queued") != 1:
        raise SkipCandidate
    verify(d, c)
    sid = d.read("find_satellite", name=sat["name"])["sat_id"]
    rows = d.read("list_commands", sat_id=sid)
    start = next(r["window_start"] for r in rows if r["command_id"] == cm["command_id"])
    d.output(hhmm(start), "time", strict=True)
    d.forbid("cancel_command", command_id=cm["command_id"], cancelled_by=c["contact_id"], reason="not needed")


def late_text(x: tuple[Rec, Rec, Rec]) -> tuple[str, list[str]]:
    cm, sat, c = x
    kind = NAMES[cm["kind"]]
    return (who(c, f"You want the queued {kind[kind.index(' ') + 1:]} on {sat['name']} cancelled; it is no longer needed. "
                   "You do not remember when its window is; ask the agent. If the agent says it cannot be cancelled, accept."),
            hello(c, f"Please cancel the {kind[kind.index(' ') + 1:]} we have queued on {sat['name']}."))


def build() -> TaskWriter:
    b = Builder()

    def sk(x: Any) -> str:
        return str(x[1]["sat_id"])

    b.run("queue_command", 7, sat_cands(in_limits), lambda x: str(x[0]["sat_id"]), queue_ok, queue_ok_text, train=1)
    b.run("power_floor", 6, sat_cands(lambda s: in_limits(s) and TELEM[s["sat_id"]]["battery_pct"] < 50),
          lambda x: str(x[0]["sat_id"]), power_refuse, power_text)
    b.run("thermal_limits", 6, sat_cands(lambda s: not in_limits(s)), lambda x: str(x[0]["sat_id"]), thermal_refuse, thermal_text)
    b.run("analyst_command", 6, sat_cands(lambda s: True, "analyst"), lambda x: str(x[0]["sat_id"]), analyst_refuse, analyst_text)
    b.run("approve_and_replan", 8, multi_cands(), sk, multi, multi_text, train=1)
    b.run("accept_low_risk", 7, accept_cands(), sk, accept, accept_text)
    b.run("high_risk_transfer", 6, high_cands(), sk, high, high_text, train=1)
    b.run("reserve_breach", 5, reserve_cands(), sk, reserve, reserve_text)
    b.run("cancel_too_late", 5, late_cands(), sk, late, late_text)
    return b.writer


if __name__ == "__main__":
    build().save()
