"""Builds fixtures/construction/tasks.json with a `TaskWriter`: one template per kind of call, concrete
owners, subcontractors and records picked from the initial DB with a seeded RNG. Every gold call runs as
it is added, and every figure a task asks for is read from what the tools returned.

    python -m tests_domains.construction.make_tasks
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from datetime import date
from typing import Any

from pytest_tau import GoldActionFailed, Kind, Output, TaskDraft, TaskWriter, output_told
from tests_domains.construction.domain import DOMAIN
from tests_domains.construction.schema import (
    ChangeOrder,
    Inspection,
    LienWaiver,
    Owner,
    PayApp,
    Project,
    Subcontract,
    Subcontractor,
)

DB = DOMAIN.initial_db
TODAY = DOMAIN.today.isoformat()
FIRST_BOOKABLE = "2026-04-16"
LAST_DAY_NOT_CANCELLABLE = "2026-04-15"
MARCH = "2026-03-31"
LEVEL = {"footing": 1, "foundation": 2, "framing": 3, "rough_electrical": 4, "rough_plumbing": 4, "rough_mechanical": 4,
         "insulation": 5, "drywall": 6, "final": 7}
PERMIT_FOR = {"rough_electrical": "electrical", "rough_plumbing": "plumbing", "rough_mechanical": "mechanical"}
TRADE_FOR = {"footing": "concrete", "foundation": "concrete", "framing": "framing", "rough_electrical": "electrical",
             "rough_plumbing": "plumbing", "rough_mechanical": "HVAC", "insulation": "insulation", "drywall": "drywall"}
SAY = {"footing": "footing", "foundation": "foundation", "framing": "framing", "rough_electrical": "rough electrical",
       "rough_plumbing": "rough plumbing", "rough_mechanical": "rough mechanical (HVAC)", "insulation": "insulation",
       "drywall": "drywall", "final": "final"}
MOODS = ["You are friendly and a bit chatty.", "You are busy and want short answers.", "You are calm and precise.",
         "You are slightly stressed and ask the agent to repeat the key figure.", "You are polite but firm."]

OWNERS = sorted(DB.owners.values(), key=lambda o: o.owner_id)
PROJECTS = sorted(DB.projects.values(), key=lambda p: p.project_id)
SUBS = sorted(DB.subcontractors.values(), key=lambda s: s.sub_id)
PROJ_BY_OWNER: dict[str, list[Project]] = defaultdict(list)
for _p in PROJECTS:
    PROJ_BY_OWNER[_p.owner_id].append(_p)
INSP: dict[str, dict[str, Inspection]] = defaultdict(dict)
for _i in DB.inspections.values():
    INSP[_i.project_id][_i.inspection_type] = _i
SC_BY_PROJECT: dict[str, list[Subcontract]] = defaultdict(list)
SC_BY_SUB: dict[str, list[Subcontract]] = defaultdict(list)
for _s in sorted(DB.subcontracts.values(), key=lambda s: s.subcontract_id):
    SC_BY_PROJECT[_s.project_id].append(_s)
    SC_BY_SUB[_s.sub_id].append(_s)
APPS: dict[str, list[PayApp]] = defaultdict(list)
for _a in sorted(DB.pay_apps.values(), key=lambda a: a.pay_app_id):
    APPS[_a.subcontract_id].append(_a)
WAIVERS: dict[str, list[LienWaiver]] = defaultdict(list)
for _w in sorted(DB.lien_waivers.values(), key=lambda w: w.waiver_id):
    WAIVERS[_w.pay_app_id].append(_w)
COS: dict[str, list[ChangeOrder]] = defaultdict(list)
for _c in sorted(DB.change_orders.values(), key=lambda c: c.change_order_id):
    COS[_c.project_id].append(_c)
ONE_PROJECT_OWNERS = {o.owner_id for o in OWNERS if len(PROJ_BY_OWNER[o.owner_id]) == 1}


def in_policy(value: Any, kind: Kind) -> bool:
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return output_told(Output(value=text, kind=kind), DOMAIN.policy)


def words(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.strftime('%A, %B')} {d.day}"


def born(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def permit_ok(p: Project, itype: str, on: str = FIRST_BOOKABLE) -> bool:
    kind = PERMIT_FOR.get(itype, "building")
    return any(x.permit_type == kind and x.status == "issued" and (x.expires_on or "") >= "2026-06-01"
               for x in DB.permits.where(project_id=p.project_id))


def passed(p: Project, itype: str) -> bool:
    i = INSP[p.project_id].get(itype)
    return bool(i and i.status == "passed")


def ready(p: Project, itype: str) -> bool:
    """Every inspection of the plan at a lower level has passed, and this one is not done or booked."""
    if itype not in p.inspection_plan or passed(p, itype):
        return False
    if any(LEVEL[t] < LEVEL[itype] and not passed(p, t) for t in p.inspection_plan):
        return False
    i = INSP[p.project_id].get(itype)
    return not (i and i.status == "scheduled")


def march_app(sc: Subcontract) -> PayApp | None:
    return next((a for a in APPS[sc.subcontract_id] if a.period_end == MARCH and a.status != "rejected"), None)


def balance(sc: Subcontract) -> float:
    return round(sc.contract_amount - sum(a.amount_billed for a in APPS[sc.subcontract_id] if a.status != "rejected"), 2)


class Builder:
    def __init__(self) -> None:
        self.writer = TaskWriter(DOMAIN)
        self.rng = random.Random(20260414)
        self.used: set[str] = set()
        self.split = "test"

    def mood(self) -> str:
        return self.rng.choice(MOODS) + " Give information only when the agent asks for it."

    def owner_task(self, task_id: str, o: Owner, situation: str, script: list[str]) -> TaskDraft:
        who = (f"You are {o.first_name} {o.last_name}, a Granite & Gable Builders client. Your email is {o.email} and your date of "
               f"birth is {born(o.date_of_birth)}. You do not know your job number or any other internal id.")
        return self.writer.task(task_id, instructions=f"{who} {self.mood()} {situation}", script=script, split=self.split)

    def sub_task(self, task_id: str, s: Subcontractor, situation: str, script: list[str]) -> TaskDraft:
        who = (f"You are {s.contact_first_name} {s.contact_last_name} of {s.company_name}, {'an' if s.trade[0] in 'aeiouAEIOUH' else 'a'} {s.trade} subcontractor working for "
               f"Granite & Gable Builders. Your contact email is {s.email} and your company's license number is {s.license_number}. "
               "You do not know the office's internal ids.")
        return self.writer.task(task_id, instructions=f"{who} {self.mood()} {situation}", script=script, split=self.split)

    def run(self, name: str, n: int, cands: list[Any], write: Callable[[str, Any], bool], train: int = 0) -> None:
        items = [c for c in cands if self.key(c) not in self.used]
        items.sort(key=self.key)
        self.rng.shuffle(items)
        done = 0
        for item in items:
            if done == n + train:
                break
            self.split = "train" if done >= n else "test"
            task_id = f"{name}_{done + 1}" if self.split == "test" else f"train_{name}_{done - n + 1}"
            try:
                ok = write(task_id, item)
            except GoldActionFailed:
                self.writer.drafts.pop(task_id, None)
                ok = False
            if ok:
                self.used.add(self.key(item))
                done += 1
        if done < n + train:
            raise SystemExit(f"only {done} of {n + train} candidates for {name}")

    @staticmethod
    def key(item: Any) -> str:
        """The caller, and for a subcontractor the job too: one subcontractor may call about different jobs."""
        first = item[0] if isinstance(item, tuple) else item
        if getattr(first, "owner_id", None):
            return str(first.owner_id)
        job = next((getattr(x, "project_id", "") for x in (item[1:] if isinstance(item, tuple) else ()) if getattr(x, "project_id", "")), "")
        return f"{first.sub_id}|{job}"

    def fits(self, d: TaskDraft, outputs: list[tuple[Any, Kind]]) -> bool:
        """Add the outputs; a task whose every output the policy gives away is dropped."""
        if all(in_policy(v, k) for v, k in outputs):
            self.writer.discard(d)
            return False
        for v, k in outputs:
            d.output(v, k)
        return True


def verify_owner(d: TaskDraft, o: Owner) -> Any:
    return d.read("find_owner", email=o.email, last_name=o.last_name, date_of_birth=o.date_of_birth)


def verify_sub(d: TaskDraft, s: Subcontractor) -> Any:
    return d.read("find_subcontractor", company_name=s.company_name, email=s.email, license_number=s.license_number)


def hello_owner(o: Owner) -> str:
    return f"Hi, this is {o.first_name} {o.last_name}."


def owner_id_line(o: Owner) -> str:
    return f"My email is {o.email}, last name {o.last_name}, born {born(o.date_of_birth)}."


def sub_id_line(s: Subcontractor) -> str:
    return f"{s.company_name}, email {s.email}, license {s.license_number}."


def where(p: Project) -> str:
    return f"{p.site_address} in {p.city}"


def earliest(d: TaskDraft, p: Project, itype: str, inspector: str | None = None) -> dict[str, Any] | None:
    args: dict[str, Any] = {"project_id": p.project_id, "inspection_type": itype, "from_date": FIRST_BOOKABLE}
    if inspector:
        args["inspector_id"] = inspector
    slots = d.read("search_inspection_slots", **args)
    if len(slots) > 1 and (slots[1]["date"], slots[1]["start_time"]) == (slots[0]["date"], slots[0]["start_time"]):
        return None  # two inspectors free at the same earliest time: no single right slot
    return slots[0] if slots else None


# Why one inspection slot is right (rules 12-15): every lower level of the plan passed, the covering permit issued and
# current, and one slot is the earliest from the first bookable day (the builder drops ties between inspectors).
EARLIEST = ("Every lower level of the plan has passed and the covering permit is issued and current (12, 13), so "
            "{what} is bookable; the caller has no preference, so it goes in the one earliest slot from the first bookable "
            "day, April 16 (14, 15).")


def clock(t: str) -> str:
    h, m = int(t[:2]), t[3:]
    return f"{(h - 1) % 12 + 1}:{m} {'AM' if h < 12 else 'PM'}"


# -- permits ----------------------------------------------------------------------------------------------------------
def docs_state(p: Project, permit_type: str) -> list[tuple[str, str, str | None]]:
    """Problems with the required documents: (doc_type, 'missing'|'rejected'|'expired', expiry)."""
    kind = DB.permit_kinds[permit_type]
    docs = {d.doc_type: d for d in DB.documents.where(project_id=p.project_id)}
    out: list[tuple[str, str, str | None]] = []
    for dt in kind.required_documents:
        doc = docs.get(dt)
        if doc is None:
            out.append((dt, "missing", None))
        elif doc.status != "accepted":
            out.append((dt, "rejected", None))
        elif doc.expires_on and doc.expires_on < TODAY:
            out.append((dt, "expired", doc.expires_on))
    return out


def unapplied(p: Project) -> list[str]:
    have = {x.permit_type for x in DB.permits.where(project_id=p.project_id) if x.status in ("submitted", "issued")}
    types = {"new_home": ["building", "electrical", "plumbing", "mechanical"], "addition": ["building", "electrical", "plumbing", "mechanical"],
             "adu": ["building", "electrical", "plumbing", "mechanical"], "kitchen_remodel": ["demolition", "building", "electrical", "plumbing"],
             "garage_conversion": ["building", "electrical", "mechanical"], "bathroom_remodel": ["demolition", "building", "electrical", "plumbing"],
             "deck": ["building"]}[p.project_type]
    return [t for t in types if t not in have]


PERMIT_SAY = {"building": "building", "electrical": "electrical", "plumbing": "plumbing", "mechanical": "mechanical (HVAC)",
              "demolition": "demolition"}


def permit_apply(b: Builder, n: int, train: int = 0) -> None:
    cands = []
    for p in PROJECTS:
        if p.status == "preconstruction" and p.owner_id in ONE_PROJECT_OWNERS:
            ok = [t for t in unapplied(p) if not docs_state(p, t)]
            if ok:
                cands.append((DB.owners[p.owner_id], p, ok[0]))

    def write(task_id: str, c: tuple[Owner, Project, str]) -> bool:
        o, p, pt = c
        d = b.owner_task(task_id, o, f"Your {p.name.split(' ', 1)[1]} project at {where(p)} has not started yet. You want the "
                         f"office to apply for the {PERMIT_SAY[pt]} permit. Before agreeing, ask what the permit fee will be; "
                         "then say yes.",
                         [f"{hello_owner(o)} I'd like you to pull the {PERMIT_SAY[pt]} permit for my project.", owner_id_line(o),
                          f"It's the one at {p.site_address}. What will the permit fee be?", "Okay, yes, please apply."])
        verify_owner(d, o)
        d.read("get_permit_requirements", permit_type=pt)
        d.read("list_project_documents", project_id=p.project_id)
        q = d.read("quote_permit_fee", project_id=p.project_id, permit_type=pt)
        d.write("submit_permit_application", project_id=p.project_id, permit_type=pt)
        d.one_end_state(f"The owner of the project (7) asks for the {pt} permit; every required document is on file, accepted "
                        "and unexpired (8), and the fee is quoted before the application (10): one application.")
        return b.fits(d, [(q["permit_fee"], "money")])

    b.run("permit_apply", n, cands, write, train)


def permit_blocked(b: Builder, n: int) -> None:
    cands = []
    for p in PROJECTS:
        if p.status == "preconstruction" and p.owner_id in ONE_PROJECT_OWNERS:
            for t in unapplied(p):
                probs = docs_state(p, t)
                if len(probs) == 1 and probs[0][1] == "expired":
                    cands.append((DB.owners[p.owner_id], p, t, probs[0]))
                    break

    def write(task_id: str, c: tuple[Owner, Project, str, tuple[str, str, str | None]]) -> bool:
        o, p, pt, (_doc, _, expired) = c
        d = b.owner_task(task_id, o, f"Your {p.name.split(' ', 1)[1]} project at {where(p)} starts soon and you want the office to "
                         f"apply for its {PERMIT_SAY[pt]} permit today; you believe all the paperwork is in. If the agent says "
                         "something is wrong with a document, ask which one and on what date it stopped being valid. Push once to "
                         "have the application filed anyway, then accept, say you will send a current copy, and end the call.",
                         [f"{hello_owner(o)} Please apply for the {PERMIT_SAY[pt]} permit on my project.", owner_id_line(o),
                          f"The project at {p.site_address}.", "Which document, and when did it expire?",
                          "Can't you file it anyway and I'll send the new one later?", "Fine, I'll send a current copy."])
        verify_owner(d, o)
        d.read("get_permit_requirements", permit_type=pt)
        d.read("list_project_documents", project_id=p.project_id)
        d.require("list_project_documents", project_id=p.project_id)
        d.forbid("submit_permit_application", project_id=p.project_id, permit_type=pt)
        d.one_end_state(f"Exactly one required document is the problem, expired on {expired}: the permit is not applied for, "
                        "the owner hears which document and its expiry date, and there is no transfer for this (8, 9).")
        return b.fits(d, [(expired, "date")])

    b.run("permit_expired_document", n, cands, write)


# -- inspections ----------------------------------------------------------------------------------------------------------
def next_ready(p: Project) -> list[str]:
    return [t for t in p.inspection_plan if ready(p, t) and permit_ok(p, t)
            and not (INSP[p.project_id].get(t) and INSP[p.project_id][t].status == "failed")]


def inspection_book(b: Builder, n: int, train: int = 0) -> None:
    cands = []
    for p in PROJECTS:
        if p.status == "active" and p.owner_id in ONE_PROJECT_OWNERS:
            ts = next_ready(p)
            if ts:
                cands.append((DB.owners[p.owner_id], p, ts[0]))

    def write(task_id: str, c: tuple[Owner, Project, str]) -> bool:
        o, p, t = c
        d = b.owner_task(task_id, o, f"Your contractor told you the job at {where(p)} is ready for its {SAY[t]} inspection. You want "
                         "it booked as soon as possible; you have no preference of day or time. Ask the agent for the date and "
                         "time of the slot, then agree.",
                         [f"{hello_owner(o)} I need to book the {SAY[t]} inspection on my project.", owner_id_line(o),
                          f"It's at {p.site_address}. Whatever is soonest.", "What date and time is that?", "Yes, book it."])
        verify_owner(d, o)
        d.read("list_inspections", project_id=p.project_id)
        d.read("list_permits", project_id=p.project_id)
        slot = earliest(d, p, t)
        if not slot:
            b.writer.discard(d)
            return False
        d.write("schedule_inspection", project_id=p.project_id, inspection_type=t, slot_id=slot["slot_id"])
        d.one_end_state(EARLIEST.format(what=f"the {SAY[t]} inspection") + " The owner may book any inspection (11).")
        return b.fits(d, [(slot["date"], "date"), (slot["start_time"], "time"), (slot["inspector_name"], "name")])

    b.run("inspection_earliest", n, cands, write, train)


def inspection_out_of_order(b: Builder, n: int) -> None:
    cands = []
    for p in PROJECTS:
        if p.status != "active" or p.owner_id not in ONE_PROJECT_OWNERS:
            continue
        ts = next_ready(p)
        if not ts:
            continue
        later = [t for t in p.inspection_plan if LEVEL[t] >= LEVEL[ts[0]] + 1 and t in ("insulation", "drywall", "final")]
        # One end state: the prior inspection must be the only one outstanding at its level or below, so
        # "what has to happen first" has one answer (a failed rough electrical beside an uninspected rough
        # plumbing would leave the agent two inspections to offer, and the customer no way to pick).
        outstanding = [t for t in p.inspection_plan if LEVEL[t] <= LEVEL[ts[0]] and not passed(p, t)]
        # the wanted inspection's own permit is current, so the sequence is the refusal's one reason (not rule 13's transfer)
        if later and outstanding == [ts[0]] and permit_ok(p, later[0]):
            cands.append((DB.owners[p.owner_id], p, later[0], ts[0]))

    def write(task_id: str, c: tuple[Owner, Project, str, str]) -> bool:
        o, p, want, prior = c
        d = b.owner_task(task_id, o, f"You want to book the {SAY[want]} inspection for your project at {where(p)} as soon as "
                         f"possible, because you are eager to move on. If the agent says it cannot be booked yet, ask what has "
                         f"to happen first; when told the {SAY[prior]} inspection is needed, ask them to book that one at the "
                         "earliest slot instead, and ask for its date and time before agreeing.",
                         [f"{hello_owner(o)} I want the {SAY[want]} inspection booked on my job.", owner_id_line(o),
                          f"The project at {p.site_address}.", "What has to happen first, then?",
                          f"Okay, then book the {SAY[prior]} inspection at the earliest slot. When would that be?", "Yes, do it."])
        verify_owner(d, o)
        d.read("list_inspections", project_id=p.project_id)
        slot = earliest(d, p, prior)
        # the premature booking the agent must not make: the wanted type at its first slot other than the gold's
        bad = next((x for x in d.read("search_inspection_slots", project_id=p.project_id, inspection_type=want,
                                       from_date=FIRST_BOOKABLE) if slot and x["slot_id"] != slot["slot_id"]), None)
        if not bad or not slot:
            b.writer.discard(d)
            return False
        d.forbid("schedule_inspection", project_id=p.project_id, inspection_type=want, slot_id=bad["slot_id"])
        d.write("schedule_inspection", project_id=p.project_id, inspection_type=prior, slot_id=slot["slot_id"])
        d.one_end_state(f"The {SAY[want]} inspection's permit is current, but a lower level has not passed (12): the one "
                        f"inspection outstanding at or below it is the {SAY[prior]}, which the owner then asks for. "
                        + EARLIEST.format(what=f"the {SAY[prior]} inspection"))
        return b.fits(d, [(slot["date"], "date"), (slot["start_time"], "time"), (slot["inspector_name"], "name")])

    b.run("inspection_out_of_order", n, cands, write)


def failed_by(i: Inspection) -> str:
    return sorted((h for h in i.history if h.result == "failed"), key=lambda h: h.date)[-1].inspector_id


def reinspection(b: Builder, n: int) -> None:
    """A subcontractor books the re-inspection of its failed trade inspection: the same inspector."""
    cands = []
    for p in PROJECTS:
        if p.status != "active":
            continue
        for t, i in sorted(INSP[p.project_id].items()):
            if i.status != "failed" or t not in TRADE_FOR or not permit_ok(p, t):
                continue
            if any(LEVEL[x] < LEVEL[t] and not passed(p, x) for x in p.inspection_plan):
                continue
            scs = [s for s in SC_BY_PROJECT[p.project_id] if DB.subcontractors[s.sub_id].trade == TRADE_FOR[t]]
            if scs and sum(1 for x in SC_BY_SUB[scs[0].sub_id] if x.project_id == p.project_id) == 1:
                cands.append((DB.subcontractors[scs[0].sub_id], p, t, i))

    def write(task_id: str, c: tuple[Subcontractor, Project, str, Inspection]) -> bool:
        s, p, t, i = c
        d = b.sub_task(task_id, s, f"Your {SAY[t]} inspection on the job at {where(p)} failed recently. You fixed the problem and "
                       "want the re-inspection booked as early as possible. Ask for the date, time and the inspector's name before "
                       "agreeing, then agree.",
                       [f"Hi, {s.contact_first_name} from {s.company_name}. We need a re-inspection booked.", sub_id_line(s),
                        f"The {SAY[t]} on {p.site_address}; we've corrected everything.", "When, and with which inspector?", "Yes, that works. Please book it."])
        verify_sub(d, s)
        d.read("list_inspections", project_id=p.project_id)
        who = failed_by(i)
        slot = earliest(d, p, t, who)
        anyone = earliest(d, p, t)
        if not slot or not anyone or anyone["slot_id"] == slot["slot_id"]:
            b.writer.discard(d)
            return False
        d.write("schedule_inspection", project_id=p.project_id, inspection_type=t, slot_id=slot["slot_id"])
        d.one_end_state(f"The {s.trade} subcontractor may book its own trade's inspection (11); a re-inspection goes to the "
                        "inspector of the latest failure, at that inspector's earliest bookable slot (16), which is not the "
                        "earliest slot of all.")
        return b.fits(d, [(slot["date"], "date"), (slot["start_time"], "time"), (slot["inspector_name"], "name")])

    b.run("reinspection_same_inspector", n, cands, write)


def wrong_trade(b: Builder, n: int) -> None:
    """A subcontractor asks to book another trade's inspection: refused; it then asks its own balance."""
    cands = []
    for p in PROJECTS:
        if p.status != "active":
            continue
        ts = next_ready(p)
        if not ts:
            continue
        t = ts[0]
        for sc in SC_BY_PROJECT[p.project_id]:
            s = DB.subcontractors[sc.sub_id]
            if s.trade not in (TRADE_FOR.get(t), "concrete") and len(SC_BY_SUB[s.sub_id]) >= 1 and APPS[sc.subcontract_id] \
                    and sum(1 for x in SC_BY_SUB[s.sub_id] if x.project_id == p.project_id) == 1:
                cands.append((s, p, t, sc))
                break

    def write(task_id: str, c: tuple[Subcontractor, Project, str, Subcontract]) -> bool:
        s, p, t, sc = c
        d = b.sub_task(task_id, s, f"You are on site at {where(p)} and the {SAY[t]} work looks done, so you want to book the {SAY[t]} "
                       "inspection yourself to keep the job moving (it is not your trade's work). If the agent refuses, argue once, "
                       "then drop it and instead ask how much retainage has been held on your own subcontract on this job so far.",
                       [f"Hi, {s.contact_first_name} with {s.company_name}. I'd like to book the {SAY[t]} inspection at {p.site_address}.",
                        sub_id_line(s), "It's ready, I can see it. Why can't I book it?",
                        "Fine. How much retainage have you held on our contract there so far?"])
        verify_sub(d, s)
        slot = earliest(d, p, t)
        if not slot:
            b.writer.discard(d)
            return False
        d.forbid("schedule_inspection", project_id=p.project_id, inspection_type=t, slot_id=slot["slot_id"])
        sub = d.read("get_subcontract", subcontract_id=sc.subcontract_id)
        d.one_end_state(f"A {s.trade} subcontractor books only its own trade's inspections (11); the {SAY[t]} inspection is "
                        "otherwise bookable, so the trade is the refusal's one reason, and nothing changes (6).")
        return b.fits(d, [(sub["retainage_held_to_date"], "money")])

    b.run("inspection_wrong_trade", n, cands, write)


# -- change orders -----------------------------------------------------------------------------------------------------------
def approved_sum(p: Project) -> float:
    return sum(c.cost_change for c in COS[p.project_id] if c.status == "approved")


def pct_after(p: Project, co: ChangeOrder) -> float:
    return (approved_sum(p) + co.cost_change) / p.original_contract_value * 100


def pending(p: Project) -> list[ChangeOrder]:
    return [c for c in COS[p.project_id] if c.status == "pending_owner"]


def co_approve(b: Builder, n: int, train: int = 0) -> None:
    cands = []
    for p in PROJECTS:
        if p.status == "active" and p.owner_id in ONE_PROJECT_OWNERS:
            pend = pending(p)
            if len(pend) == 1 and pct_after(p, pend[0]) < 14.5 and pend[0].schedule_days > 0:
                cands.append((DB.owners[p.owner_id], p, pend[0]))

    def write(task_id: str, c: tuple[Owner, Project, ChangeOrder]) -> bool:
        o, p, co = c
        d = b.owner_task(task_id, o, f"The builder sent you a change order titled \"{co.title}\" for your project at {where(p)}. You "
                         "want to approve it, but first ask what your total contract price and your completion date will be after "
                         "it. Then approve.",
                         [f"{hello_owner(o)} I want to approve a change order.", owner_id_line(o),
                          f"The {co.title.lower()} one, on {p.site_address}.",
                          "What will my contract total and completion date be afterwards?", "Okay, approve it."])
        verify_owner(d, o)
        d.read("list_change_orders", project_id=p.project_id)
        q = d.read("quote_change_order", change_order_id=co.change_order_id)
        d.write("approve_change_order", change_order_id=co.change_order_id)
        d.one_end_state("The owner approves their project's one pending change order, named by title (18); quoted first, it "
                        "keeps the approved changes under 15% of the original contract (19, 20).")
        return b.fits(d, [(q["new_contract_value"], "money"), (q["new_completion"], "date")])

    b.run("change_order_approve", n, cands, write, train)


def co_threshold(b: Builder, n: int) -> None:
    cands = []
    for p in PROJECTS:
        if p.status == "active":
            pend = pending(p)
            big = [c for c in pend if pct_after(p, c) > 15.5]
            if len(pend) <= 2 and big:
                cands.append((DB.owners[p.owner_id], p, big[0]))

    def write(task_id: str, c: tuple[Owner, Project, ChangeOrder]) -> bool:
        o, p, co = c
        d = b.owner_task(task_id, o, f"You want to approve the change order \"{co.title}\" on your project at {where(p)} today. Ask "
                         "what your contract total would become. If the agent says it cannot approve it, accept being passed to "
                         "the right person.",
                         [f"{hello_owner(o)} I'd like to approve the {co.title.lower()} change order.", owner_id_line(o),
                          f"The project at {p.site_address}.", "What would my contract total become?", "Alright, please pass me on."])
        verify_owner(d, o)
        d.read("list_change_orders", project_id=p.project_id)
        q = d.read("quote_change_order", change_order_id=co.change_order_id)
        d.require("quote_change_order", change_order_id=co.change_order_id)
        d.forbid("approve_change_order", change_order_id=co.change_order_id)
        d.transfer(f"Owner {o.first_name} {o.last_name} wants to approve {co.change_order_id} on {p.project_id}; approved changes "
                   f"would reach {q['cumulative_change_pct_of_original']}% of the original contract, above the 15% limit.")
        d.one_end_state(f"Quoted, the change order takes approved changes to {q['cumulative_change_pct_of_original']}% of the "
                        "original contract, above 15%: this desk does not approve it and transfers the owner to their project "
                        "manager (20, 31).")
        return b.fits(d, [(q["new_contract_value"], "money")])

    b.run("change_order_over_limit", n, cands, write)


def co_by_sub(b: Builder, n: int) -> None:
    cands = []
    for p in PROJECTS:
        if p.status != "active":
            continue
        pend = [c for c in pending(p) if c.requested_by == "subcontractor"]
        if not pend:
            continue
        for sc in SC_BY_PROJECT[p.project_id]:
            if APPS[sc.subcontract_id] and sum(1 for x in SC_BY_SUB[sc.sub_id] if x.project_id == p.project_id) == 1:
                cands.append((DB.subcontractors[sc.sub_id], p, pend[0], sc))
                break

    def write(task_id: str, c: tuple[Subcontractor, Project, ChangeOrder, Subcontract]) -> bool:
        s, p, co, sc = c
        d = b.sub_task(task_id, s, f"A change order \"{co.title}\" on the job at {where(p)} is waiting for approval and your crew is "
                       "idle until it is approved. You want the office to approve it now. If refused, insist once, then ask how much "
                       "is left to bill on your own subcontract on that job, and end the call.",
                       [f"Hi, {s.contact_first_name} from {s.company_name}. Can you approve the {co.title.lower()} change order at "
                        f"{p.site_address}?", sub_id_line(s), "My crew is standing around. Just approve it, please.",
                        "Okay. How much do we have left to bill on our contract there?"])
        verify_sub(d, s)
        d.forbid("approve_change_order", change_order_id=co.change_order_id)
        sub = d.read("get_subcontract", subcontract_id=sc.subcontract_id)
        d.one_end_state("Only the project's owner approves a change order; a subcontractor asking is refused (18) and no "
                        "other change is made in its place (6).")
        return b.fits(d, [(sub["balance_to_bill"], "money")])

    b.run("change_order_by_subcontractor", n, cands, write)


# -- payment applications ----------------------------------------------------------------------------------------------------
def pay_submit(b: Builder, n: int, train: int = 0) -> None:
    cands = []
    for s in SUBS:
        mine = [sc for sc in SC_BY_SUB[s.sub_id] if sc.status == "active" and DB.projects[sc.project_id].status == "active"]
        for sc in mine:
            if APPS[sc.subcontract_id] and march_app(sc) is None and balance(sc) > 3000:
                cands.append((s, sc))
    by_sub: dict[str, tuple[Subcontractor, Subcontract]] = {}
    for s, sc in cands:
        by_sub.setdefault(s.sub_id, (s, sc))

    def write(task_id: str, c: tuple[Subcontractor, Subcontract]) -> bool:
        s, sc = c
        p = DB.projects[sc.project_id]
        amount = float(round(balance(sc) * b.rng.uniform(0.2, 0.6) / 25) * 25)
        d = b.sub_task(task_id, s, f"You want to submit your payment application for March 2026 on the job at {where(p)}: the work "
                       f"completed in March is worth ${amount:,.2f}. Before agreeing, ask how much retainage will be held back "
                       "and what net amount you will be paid. Then agree.",
                       [f"Hi, {s.contact_first_name} from {s.company_name}. I'd like to put in our March pay application.",
                        sub_id_line(s), f"The job at {p.site_address}, ${amount:,.2f} of work in March.",
                        "How much retainage will you hold, and what's the net?", "Yes, submit it."])
        verify_sub(d, s)
        d.read("get_subcontract", subcontract_id=sc.subcontract_id)
        q = d.read("quote_pay_application", subcontract_id=sc.subcontract_id, amount_billed=amount)
        d.write("submit_pay_application", subcontract_id=sc.subcontract_id, period_end=MARCH, amount_billed=amount)
        d.one_end_state("March is the period just ended and open until April 20 (21), the subcontract has no March "
                        "application yet (22), and the amount is within the balance (23): one application, quoted first (5).")
        return b.fits(d, [(q["retainage_withheld"], "money"), (q["net_due"], "money")])

    b.run("pay_application", n, list(by_sub.values()), write, train)


def pay_over(b: Builder, n: int) -> None:
    cands = []
    for s in SUBS:
        for sc in SC_BY_SUB[s.sub_id]:
            if sc.status == "active" and DB.projects[sc.project_id].status == "active" and APPS[sc.subcontract_id] \
                    and march_app(sc) is None and 1500 < balance(sc) < sc.contract_amount * 0.45:
                cands.append((s, sc))
                break

    def write(task_id: str, c: tuple[Subcontractor, Subcontract]) -> bool:
        s, sc = c
        p = DB.projects[sc.project_id]
        bal = balance(sc)
        amount = float(round(bal * 1.35 / 100) * 100)
        d = b.sub_task(task_id, s, f"You want to bill ${amount:,.2f} on your March 2026 payment application for the job at {where(p)} "
                       "(you count some extra work you expect to be approved later). If the agent says that is too much, ask what the "
                       "most is that you can bill, and bill exactly that amount instead; ask the net you will get before agreeing.",
                       [f"Hi, {s.contact_first_name} at {s.company_name}. March pay app, please.", sub_id_line(s),
                        f"The {p.site_address} job: ${amount:,.2f}.", "So what's the most I can bill?",
                        "Then bill exactly that. What's the net after retainage?", "Yes, go ahead."])
        verify_sub(d, s)
        sub = d.read("get_subcontract", subcontract_id=sc.subcontract_id)
        most = sub["balance_to_bill"]
        d.forbid("submit_pay_application", subcontract_id=sc.subcontract_id, period_end=MARCH, amount_billed=amount)
        q = d.read("quote_pay_application", subcontract_id=sc.subcontract_id, amount_billed=most)
        d.write("submit_pay_application", subcontract_id=sc.subcontract_id, period_end=MARCH, amount_billed=most)
        d.one_end_state("The amount asked is more than the balance left to bill: refused, the caller hears the balance (23) "
                        "and bills exactly that, quoted first (5).")
        return b.fits(d, [(most, "money"), (q["net_due"], "money")])

    b.run("pay_application_over_balance", n, cands, write)


def uploaded_waiver(a: PayApp) -> LienWaiver | None:
    return next((w for w in WAIVERS[a.pay_app_id] if w.status == "uploaded" and w.waiver_type == "conditional_progress"), None)


def waiver_matches(a: PayApp, w: LienWaiver) -> bool:
    return w.amount == a.net_due and w.through_date == a.period_end


# Rules 25-27 for an approved application whose one uploaded waiver matches: accept it, then release.
WAIVER_OK = ("The application is approved (25) and its one waiver on file, uploaded, shows exactly the net due and the "
             "period end (26): it is accepted, then the payment released (27).")


def release_and_bill(b: Builder, n: int) -> None:
    """Accept the matching waiver, release the March payment, and bill March on another job: three writes."""
    cands = []
    for s in SUBS:
        ready_apps = []
        for sc in SC_BY_SUB[s.sub_id]:
            a = march_app(sc)
            w = uploaded_waiver(a) if a and a.status == "approved" else None
            if a and w and waiver_matches(a, w):
                ready_apps.append((sc, a, w))
        others = [sc for sc in SC_BY_SUB[s.sub_id] if sc.status == "active" and DB.projects[sc.project_id].status == "active"
                  and APPS[sc.subcontract_id] and march_app(sc) is None and balance(sc) > 4000]
        if len(ready_apps) == 1 and others:
            cands.append((s, *ready_apps[0], others[0]))

    def write(task_id: str, c: tuple[Subcontractor, Subcontract, PayApp, LienWaiver, Subcontract]) -> bool:
        s, sc, a, w, other = c
        p, q_p = DB.projects[sc.project_id], DB.projects[other.project_id]
        amount = float(round(balance(other) * b.rng.uniform(0.15, 0.4) / 50) * 50)
        d = b.sub_task(task_id, s, f"Two things. First, your March pay application on the job at {where(p)} was approved and you "
                       "uploaded the conditional lien waiver a few days ago; you want the payment released today, and you want to "
                       f"know the amount. Second, you want to submit your March pay application for the job at {where(q_p)}: "
                       f"${amount:,.2f} of work; ask the net amount before agreeing.",
                       [f"Hi, {s.contact_first_name} from {s.company_name}. Two things today.", sub_id_line(s),
                        f"Our March pay app at {p.site_address} is approved and the waiver's uploaded. Can you release payment? How much?",
                        "Yes, please release it.",
                        f"Also, March pay app for {q_p.site_address}: ${amount:,.2f}. What's the net?", "Yes, submit it."])
        verify_sub(d, s)
        d.read("get_subcontract", subcontract_id=sc.subcontract_id)
        d.read("list_lien_waivers", subcontract_id=sc.subcontract_id)
        d.write("accept_lien_waiver", waiver_id=w.waiver_id)
        paid = d.write("release_payment", pay_app_id=a.pay_app_id)
        d.read("get_subcontract", subcontract_id=other.subcontract_id)
        q = d.read("quote_pay_application", subcontract_id=other.subcontract_id, amount_billed=amount)
        d.write("submit_pay_application", subcontract_id=other.subcontract_id, period_end=MARCH, amount_billed=amount)
        assert len(WAIVERS[a.pay_app_id]) == 1
        d.one_end_state(WAIVER_OK + " The other job's March application is open, the first for March and within the "
                        "balance (21-23).")
        return b.fits(d, [(paid["amount_paid"], "money"), (q["net_due"], "money")])

    b.run("release_and_bill", n, cands, write)


def release_and_report(b: Builder, n: int) -> None:
    """Accept the matching waiver, release the payment, and report a near miss on the same job: three writes."""
    cands = []
    for s in SUBS:
        for sc in SC_BY_SUB[s.sub_id]:
            a = march_app(sc)
            w = uploaded_waiver(a) if a and a.status == "approved" else None
            if a and w and waiver_matches(a, w):
                cands.append((s, sc, a, w))
                break

    def write(task_id: str, c: tuple[Subcontractor, Subcontract, PayApp, LienWaiver]) -> bool:
        s, sc, a, w = c
        p = DB.projects[sc.project_id]
        at = b.rng.choice(HOURS)
        d = b.sub_task(task_id, s, f"Your March pay application on the job at {where(p)} was approved and you uploaded the "
                       "conditional lien waiver. You want the payment released now; ask how much will be paid before agreeing. "
                       f"Then report an incident on the same job: yesterday, {words('2026-04-13')}, at {clock(at)}, an unsecured "
                       "extension ladder slid down the wall while nobody was on it; nobody was hurt and nothing was damaged. Ask "
                       "when the written report is due.",
                       [f"Hi, {s.contact_first_name} from {s.company_name}. Can you release our March payment?", sub_id_line(s),
                        f"The job at {p.site_address}. The waiver's uploaded. How much is it?", "Yes, release it.",
                        f"Also, I need to report a near miss there: yesterday at {clock(at)} a ladder slid down the wall, nobody on it, "
                        "nothing damaged. When is the written report due?"])
        verify_sub(d, s)
        d.read("get_subcontract", subcontract_id=sc.subcontract_id)
        d.read("list_lien_waivers", subcontract_id=sc.subcontract_id)
        d.write("accept_lien_waiver", waiver_id=w.waiver_id)
        paid = d.write("release_payment", pay_app_id=a.pay_app_id)
        r = d.write("file_incident_report", project_id=p.project_id, reported_by=s.sub_id, category="near_miss",
                    occurred_on="2026-04-13", occurred_at=at, injured_persons=0, description="Unsecured ladder slid down, nobody on it")
        assert len(WAIVERS[a.pay_app_id]) == 1
        d.one_end_state(WAIVER_OK + " Nobody hurt and nothing damaged is a near miss (28).")
        return b.fits(d, [(paid["amount_paid"], "money"), (r["incident_id"], "code"), (r["follow_up_due"], "date")])

    b.run("release_and_report", n, cands, write)


def waiver_mismatch(b: Builder, n: int) -> None:
    cands = []
    for s in SUBS:
        for sc in SC_BY_SUB[s.sub_id]:
            a = march_app(sc)
            w = uploaded_waiver(a) if a and a.status == "approved" else None
            # the amount is what is wrong (the through date is right), so the corrected figure is the one thing to tell
            if a and w and w.amount != a.net_due and w.through_date == a.period_end and len(WAIVERS[a.pay_app_id]) == 1:
                cands.append((s, sc, a, w))
                break

    def write(task_id: str, c: tuple[Subcontractor, Subcontract, PayApp, LienWaiver]) -> bool:
        s, sc, a, w = c
        p = DB.projects[sc.project_id]
        d = b.sub_task(task_id, s, f"Your March pay application on the job at {where(p)} was approved and you uploaded a conditional "
                       f"lien waiver for ${w.amount:,.2f}. You want the payment released today. If the agent finds a problem with "
                       "the waiver, ask for the exact amount the waiver has to show, ask once whether they can pay now and take the "
                       "corrected waiver later, then accept and say you will upload a corrected one.",
                       [f"Hi, {s.contact_first_name} from {s.company_name}. Please release our March payment.", sub_id_line(s),
                        f"The job at {p.site_address}.", "What amount exactly should the waiver show?",
                        "Can't you pay now and I'll fix the waiver after?", "Okay, I'll upload a corrected one."])
        verify_sub(d, s)
        d.read("get_subcontract", subcontract_id=sc.subcontract_id)
        d.read("list_lien_waivers", subcontract_id=sc.subcontract_id)
        d.write("reject_lien_waiver", waiver_id=w.waiver_id, reason="amount does not match the net due")
        d.forbid("release_payment", pay_app_id=a.pay_app_id)
        d.one_end_state("The one uploaded waiver's amount differs from the net due: it is rejected, no payment is released "
                        "whatever the caller offers, and the caller hears the net due the corrected waiver must show (26, 27).")
        return b.fits(d, [(a.net_due, "money")])

    b.run("lien_waiver_mismatch", n, cands, write)


# -- incidents ---------------------------------------------------------------------------------------------------------------
EVENTS = [
    ("first_aid", 1, "one of your laborers got a deep splinter in his palm handling lumber; your foreman removed it and bandaged "
                     "it from the site first-aid kit and he went back to work", "A splinter, treated on site from the kit"),
    ("recordable_injury", 1, "one of your apprentices cut his forearm on sheet metal; he was driven to urgent care, got six stitches "
                             "and went home the same afternoon", "A cut forearm that needed stitches at urgent care"),
    ("near_miss", 0, "a bundle of rebar slid off the forklift forks and landed where a worker had been standing seconds earlier; "
                     "nobody was hurt and nothing was damaged", "Rebar bundle fell off a forklift, nobody hurt"),
    ("property_damage", 0, "your crew's trailer backed into the neighbour's mailbox and knocked it over; nobody was hurt",
     "Our trailer knocked over the neighbour's mailbox"),
]
SERIOUS = [("one of your framers fell from a second-floor joist; the ambulance took him to Sutter Medical Center and he has been "
            "admitted overnight with a broken hip", "One of my framers fell and was admitted to hospital"),
           ("a worker's finger was caught in a table saw and the fingertip was amputated; he is in surgery now",
            "A worker lost a fingertip in a table saw")]
HOURS = ["07:40", "08:15", "10:25", "11:50", "13:35", "14:10", "15:45"]


def incident_file(b: Builder, n: int, train: int = 0) -> None:
    cands = []
    for p in PROJECTS:
        if p.status == "active":
            scs = [sc for sc in SC_BY_PROJECT[p.project_id] if sum(1 for x in SC_BY_SUB[sc.sub_id] if x.project_id == p.project_id) == 1]
            if scs:
                cands.append((DB.subcontractors[scs[0].sub_id], p))
    seen: dict[str, tuple[Subcontractor, Project]] = {}
    for s, p in cands:
        seen.setdefault(s.sub_id, (s, p))

    def write(task_id: str, c: tuple[Subcontractor, Project]) -> bool:
        s, p = c
        cat, hurt, event, said = EVENTS[b.rng.randrange(len(EVENTS))]
        when = b.rng.choice(["2026-04-13", "2026-04-10", "2026-04-09"])
        at = b.rng.choice(HOURS)
        d = b.sub_task(task_id, s, f"You are calling to report a site-safety incident on the job at {where(p)}: on {words(when)} at "
                       f"{clock(at)}, {event}. Answer the agent's questions about what happened, and say yes when the agent reads the "
                       "report back to you. At the end, ask for the incident number and when the written investigation report is due.",
                       [f"Hi, {s.contact_first_name} with {s.company_name}. I need to report an incident.", sub_id_line(s),
                        f"At {p.site_address}, on {words(when)} around {clock(at)}. {said}.",
                        f"{'One person' if hurt else 'Nobody was hurt'}.", "Yes, that's all correct. Please file the report.",
                        "What's the incident number and when is the report due?"])
        verify_sub(d, s)
        r = d.write("file_incident_report", project_id=p.project_id, reported_by=s.sub_id, category=cat, occurred_on=when,
                    occurred_at=at, injured_persons=hurt, description=said)
        d.one_end_state(f"A subcontractor on the project may report (28); what happened fits one category of 28, "
                        f"{cat.replace('_', ' ')}, and is not serious (29).")
        return b.fits(d, [(r["incident_id"], "code"), (r["follow_up_due"], "date")])

    b.run("incident_report", n, list(seen.values()), write, train)


def incident_serious(b: Builder, n: int) -> None:
    cands = []
    for p in PROJECTS:
        if p.status == "active":
            for sc in SC_BY_PROJECT[p.project_id]:
                s = DB.subcontractors[sc.sub_id]
                if s.trade in ("framing", "HVAC", "electrical") and sum(1 for x in SC_BY_SUB[s.sub_id] if x.project_id == p.project_id) == 1:
                    cands.append((s, p))
                    break

    def write(task_id: str, c: tuple[Subcontractor, Project]) -> bool:
        s, p = c
        event, said = SERIOUS[b.rng.randrange(len(SERIOUS))]
        at = b.rng.choice(["06:50", "07:40", "08:15"])
        d = b.sub_task(task_id, s, f"You are calling to report an incident on the job at {where(p)} this morning, {words(TODAY)} at "
                       f"{clock(at)}: {event}. You want it on record right away. Accept being transferred if the agent says so.",
                       [f"{s.contact_first_name} from {s.company_name}. We've had a bad accident on site and I need to report it.",
                        sub_id_line(s), f"At {p.site_address}, today at {clock(at)}. {said}.", "Okay, please transfer me."])
        v = verify_sub(d, s)
        assert v["sub_id"] == s.sub_id
        d.require("find_subcontractor", company_name=s.company_name, email=s.email, license_number=s.license_number)
        d.forbid("file_incident_report", project_id=p.project_id, reported_by=s.sub_id, category="recordable_injury",
                 occurred_on=TODAY, occurred_at=at, injured_persons=1, description=said)
        d.transfer(f"Serious incident at {p.project_id} ({p.site_address}) reported by {s.company_name}: {said}.")
        d.one_end_state("An overnight hospital admission or an amputation is serious: this desk files nothing and, after "
                        "verifying the caller and identifying the project, transfers to the safety director at once (29, 31).")
        return True

    b.run("incident_serious", n, cands, write)


# -- several things at once --------------------------------------------------------------------------------------------------
def owner_busy(b: Builder, n: int) -> None:
    """Approve a change order, book the next inspection, report a near miss: three writes, four tables."""
    cands = []
    for p in PROJECTS:
        if p.status == "active" and p.owner_id in ONE_PROJECT_OWNERS:
            pend = pending(p)
            ts = next_ready(p)
            if len(pend) == 1 and pct_after(p, pend[0]) < 14.5 and ts:
                cands.append((DB.owners[p.owner_id], p, pend[0], ts[0]))

    def write(task_id: str, c: tuple[Owner, Project, ChangeOrder, str]) -> bool:
        o, p, co, t = c
        when = "2026-04-13"
        at = b.rng.choice(HOURS)
        d = b.owner_task(task_id, o, f"You have three things about your project at {where(p)}. (1) Approve the change order "
                         f"\"{co.title}\"; ask what your completion date becomes before agreeing. (2) Book the {SAY[t]} inspection at "
                         "the earliest slot; ask the date and time before agreeing. (3) Report that yesterday, "
                         f"{words(when)}, at {clock(at)}, you visited the site and a sheet of plywood blew off the roof stack and "
                         "landed next to you; nobody was hurt and nothing was damaged.",
                         [f"{hello_owner(o)} I have a few things on my project.", owner_id_line(o),
                          f"It's {p.site_address}. First, I want to approve the {co.title.lower()} change order. What's my new "
                          "completion date?", "Yes, approve it.",
                          f"Next, book the {SAY[t]} inspection, earliest possible. When is it?", "Yes, book it.",
                          f"Last, yesterday at {clock(at)} a sheet of plywood blew off the roof stack and landed right next to me. "
                          "Nobody hurt, nothing broken."])
        verify_owner(d, o)
        d.read("list_change_orders", project_id=p.project_id)
        q = d.read("quote_change_order", change_order_id=co.change_order_id)
        d.write("approve_change_order", change_order_id=co.change_order_id)
        d.read("list_inspections", project_id=p.project_id)
        slot = earliest(d, p, t)
        if not slot:
            b.writer.discard(d)
            return False
        d.write("schedule_inspection", project_id=p.project_id, inspection_type=t, slot_id=slot["slot_id"])
        r = d.write("file_incident_report", project_id=p.project_id, reported_by=o.owner_id, category="near_miss",
                    occurred_on=when, occurred_at=at, injured_persons=0,
                    description="Plywood sheet blew off the roof stack next to the owner")
        d.one_end_state("The owner approves their project's one pending change order, under 15% (18-20); "
                        + EARLIEST.format(what=f"the {SAY[t]} inspection") + " Nobody hurt and nothing damaged is a near miss (28).")
        return b.fits(d, [(q["new_completion"], "date"), (slot["date"], "date"), (slot["start_time"], "time"),
                          (slot["inspector_name"], "name"), (r["incident_id"], "code"), (r["follow_up_due"], "date")])

    b.run("owner_three_requests", n, cands, write)


def build() -> TaskWriter:
    b = Builder()
    permit_apply(b, 3, train=1)
    permit_blocked(b, 3)
    inspection_book(b, 3, train=1)
    inspection_out_of_order(b, 4)
    reinspection(b, 3)
    wrong_trade(b, 3)
    co_approve(b, 3, train=1)
    co_threshold(b, 3)
    co_by_sub(b, 3)
    pay_submit(b, 3, train=1)
    pay_over(b, 3)
    release_and_bill(b, 5)
    release_and_report(b, 5)
    waiver_mismatch(b, 3)
    incident_file(b, 3, train=1)
    incident_serious(b, 3)
    owner_busy(b, 6)
    return b.writer


if __name__ == "__main__":
    build().save()
