"""Builds fixtures/hr/tasks.json from the generated DB: `python -m tests_domains.hr.make_tasks`.

Deterministic: templates per task kind pick employees and records from the DB (sorted, seeded choice), replay
the gold actions on a fresh environment to learn new ids and figures, and write the tasks.
"""

from __future__ import annotations

import json
import random
from datetime import date, timedelta
from pathlib import Path

from pytest_tau import Environment
from tests_domains.hr.domain import DOMAIN, TODAY, _leave_days, _swap_effects

OUT = Path(__file__).parents[2] / "fixtures" / "hr" / "tasks.json"
DB = DOMAIN.initial_db
RNG = random.Random(515)
USED: set[str] = set()
TASKS: list[dict] = []
MOODS = ["You are polite and a little rushed; you are on your break.", "You are friendly and chatty.",
         "You are calm and precise and you like to double-check figures.", "You are slightly anxious and ask the agent to repeat key details.",
         "You are matter-of-fact and answer only what you are asked.", "You are cheerful but easily distracted."]
ADDR_DOCS = ("lease", "utility_bill", "mortgage_statement")


def a(_tool: str, **arguments) -> dict:
    return {"name": _tool, "arguments": {k: v for k, v in arguments.items() if v is not None}}


def run(actions: list[dict]) -> list:
    env = Environment(DOMAIN)
    out = []
    for act in actions:
        call = env.call(act["name"], dict(act["arguments"]))
        if call.error:
            raise RuntimeError(f"{act}: {call.result}")
        out.append(json.loads(call.result) if call.result[:1] in "[{" else call.result)
    return out


def nice(iso: str) -> str:
    d = date.fromisoformat(iso)
    return d.strftime("%A, %B ") + str(d.day)


def fmt(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def who(e, style: int) -> tuple[str, str, dict]:
    dob = date.fromisoformat(e.date_of_birth)
    art = "an" if e.job_title[0] in "AEIOU" else "a"
    if style == 0:
        text = (f"You are {e.first_name} {e.last_name}, {art} {e.job_title} at Kestrel Mills. Your employee number is "
                f"{e.employee_id} and you were born on {dob.strftime('%B')} {dob.day}, {dob.year}.")
        line = f"My employee number is {e.employee_id}, date of birth {e.date_of_birth}."
        act = a("find_employee_by_number", employee_number=e.employee_id, date_of_birth=e.date_of_birth)
    else:
        text = (f"You are {e.first_name} {e.last_name}, {art} {e.job_title} at Kestrel Mills. Your work email is "
                f"{e.work_email} and the last four digits of your SSN are {e.ssn_last4}.")
        line = f"My work email is {e.work_email} and my SSN ends in {e.ssn_last4}."
        act = a("find_employee_by_email", work_email=e.work_email, ssn_last4=e.ssn_last4)
    return text, line, act


def add(kind: str, instructions: str, script: list[str], gold: list[dict], outputs=(), required=(), forbidden=(),
        split: str = "test", emp=None) -> list:
    results = run(gold)
    if emp is not None:
        USED.add(emp.employee_id)
    n = sum(1 for t in TASKS if t["id"].startswith(kind + "_")) + 1
    mood = MOODS[len(TASKS) % len(MOODS)]
    TASKS.append({"id": f"{kind}_{n}", "split": split,
                  "user": {"instructions": instructions + " " + mood + " Reveal information only when the agent asks for it.",
                           "script": script},
                  "gold_actions": gold, "required_outputs": list(outputs), "required_actions": list(required),
                  "forbidden_actions": list(forbidden)})
    return results


def style() -> int:
    return len(TASKS) % 2


def pick(cands: list, key=lambda x: x):
    cands = [c for c in cands]
    if not cands:
        raise RuntimeError("no candidate")
    return RNG.choice(cands)


def active(pred) -> list:
    return [e for k, e in sorted(DB.employees.items()) if e.status == "active" and k not in USED and e.job_grade not in ("S5", "E1") and pred(e)]


def dept(e):
    return DB.departments[e.department_id]


def bal(e):
    return DB.leave_balances[e.employee_id]


def in_blackout(e, start: date, end: date) -> bool:
    return any(not (end.isoformat() < b.start_date or start.isoformat() > b.end_date) for b in dept(e).blackouts)


def busy(e, start: date, end: date) -> bool:
    return any(r.employee_id == e.employee_id and r.status in ("pending", "approved")
               and not (r.end_date < start.isoformat() or r.start_date > end.isoformat()) for r in DB.time_off_requests.values())


def span(start: date, days: int) -> date:
    end, n = start, 1
    while n < days:
        end += timedelta(days=1)
        if end.weekday() < 5 and end.isoformat() not in ("2026-05-25", "2026-07-03"):
            n += 1
    return end


def weekday_on_or_after(d: date) -> date:
    while d.weekday() >= 5 or d.isoformat() in ("2026-05-25", "2026-07-03"):
        d += timedelta(days=1)
    return d


def shift_text(s: dict) -> str:
    return f"{nice(s['date'])} {s['start']}-{s['end']} shift"


# ============================================================== time off
def vacation_ok(split="test", holiday=False):
    if holiday:
        cands = active(lambda e: not dept(e).shift_based and dept(e).vacation_notice_days == 7 and bal(e).vacation_hours >= 5 * e.standard_day_hours
                       and not busy(e, date(2026, 5, 22), date(2026, 5, 29)))
        e = pick(cands)
        start, end = date(2026, 5, 22), date(2026, 5, 29)
    else:
        def ok(e):
            d = dept(e)
            return d.blackouts and bal(e).vacation_hours >= 24
        e = pick(active(ok))
        while True:
            start = weekday_on_or_after(TODAY + timedelta(days=dept(e).vacation_notice_days + RNG.randint(0, 40)))
            days = RNG.choice([1, 2, 3])
            end = span(start, days)
            if not in_blackout(e, start, end) and not busy(e, start, end) and _leave_days(start, end) * e.standard_day_hours <= bal(e).vacation_hours:
                break
    note = RNG.choice(["Cabin trip to Grand Marais", "Brother's wedding in Fargo", "Camping at Jay Cooke", "Boundary Waters canoe trip", "Kids' summer camp drop-off"])
    text, line, auth = who(e, style())
    hours = _leave_days(start, end) * e.standard_day_hours
    gold = [auth, a("get_department", department_id=e.department_id), a("get_leave_balances", employee_id=e.employee_id),
            a("submit_time_off_request", employee_id=e.employee_id, leave_type="vacation", start_date=start.isoformat(),
              end_date=end.isoformat(), note=note),
            a("calculate", expression=f"{fmt(bal(e).vacation_hours)} - {fmt(hours)}")]
    remaining = bal(e).vacation_hours - hours
    extra = (" You know Memorial Day falls in that week and you want to be sure you are not charged for it; ask how many hours the request costs."
             if holiday else "")
    when = f"on {nice(start.isoformat())}, 2026" if start == end else f"from {nice(start.isoformat())} to {nice(end.isoformat())}, 2026"
    add("vacation_request", f"{text} You want to book vacation {when}. "
        f"If asked for a note for your manager, say exactly: '{note}'. You want to know how many vacation hours you will have left "
        f"after this request.{extra} Confirm when the agent summarizes the request.",
        [f"Hi, I'd like to put in for some vacation.", line, f"{start.isoformat()} through {end.isoformat()}.", note, "Yes, go ahead."],
        gold, outputs=[fmt(remaining)] + ([fmt(hours)] if holiday else []), split=split, emp=e)


def personal_half_day(split="test"):
    e = pick(active(lambda e: bal(e).personal_hours >= e.standard_day_hours / 2))
    while True:
        day = weekday_on_or_after(date(2026, 5, 18) + timedelta(days=RNG.randint(0, 25)))
        if not in_blackout(e, day, day) and not busy(e, day, day):
            break
    half = RNG.choice(["morning", "afternoon"])
    note = RNG.choice(["Closing on our house", "Parent-teacher conference", "DMV appointment", "Vet appointment for the dog"])
    text, line, auth = who(e, style())
    hours = e.standard_day_hours / 2
    gold = [auth, a("get_department", department_id=e.department_id), a("get_leave_balances", employee_id=e.employee_id),
            a("submit_time_off_request", employee_id=e.employee_id, leave_type="personal", start_date=day.isoformat(),
              end_date=day.isoformat(), note=note, half_day=half)]
    add("personal_half_day", f"{text} You need the {half} of {nice(day.isoformat())}, 2026 off as personal time (a half day). "
        f"Your note for your manager is exactly: '{note}'. Ask how many personal hours you will have left afterwards.",
        ["Hi, can I take a half personal day?", line, f"The {half} of {day.isoformat()}.", note, "Yes, please submit it."],
        gold, outputs=[fmt(bal(e).personal_hours - hours)], split=split, emp=e)


def sick_appointment():
    e = pick(active(lambda e: bal(e).sick_hours >= 8 and e.standard_day_hours == 8))
    day = weekday_on_or_after(TODAY + timedelta(days=RNG.randint(3, 12)))
    while busy(e, day, day):
        day = weekday_on_or_after(day + timedelta(days=1))
    note = "Knee surgery follow-up at St. Luke's"
    text, line, auth = who(e, style())
    gold = [auth, a("get_leave_balances", employee_id=e.employee_id),
            a("submit_time_off_request", employee_id=e.employee_id, leave_type="sick", start_date=day.isoformat(), end_date=day.isoformat(), note=note)]
    add("sick_appointment", f"{text} You have a scheduled medical appointment on {nice(day.isoformat())}, 2026 and want to use a full sick day for it. "
        f"Your note is exactly: '{note}'. Ask how many sick hours remain afterwards.",
        ["I need to book a sick day for a doctor's appointment.", line, day.isoformat(), note, "Yes."],
        gold, outputs=[fmt(bal(e).sick_hours - 8)], emp=e)


def blackout_refusal(alternative: bool, split="test"):
    cands = active(lambda e: dept(e).department_id in ("WHS", "QAC", "ASM", "SEW") and bal(e).vacation_hours >= 40)
    e = pick(cands)
    b = [b for b in dept(e).blackouts if b.start_date > "2026-05-29"][0]
    bstart = date.fromisoformat(b.start_date)
    start = weekday_on_or_after(bstart + timedelta(days=RNG.randint(0, 2)))
    end = span(start, 3)
    text, line, auth = who(e, style())
    gold = [auth, a("get_department", department_id=e.department_id)]
    forbidden = [a("submit_time_off_request", employee_id=e.employee_id, start_date=start.isoformat())]
    if alternative:
        alt = weekday_on_or_after(date.fromisoformat(b.end_date) + timedelta(days=1))
        while alt.weekday() != 0:
            alt += timedelta(days=1)
        alt_end = span(alt, 3)
        while busy(e, alt, alt_end):
            alt += timedelta(days=7)
            alt_end = span(alt, 3)
        note = "Family reunion in Bemidji"
        gold += [a("get_leave_balances", employee_id=e.employee_id),
                 a("submit_time_off_request", employee_id=e.employee_id, leave_type="vacation", start_date=alt.isoformat(),
                   end_date=alt_end.isoformat(), note=note)]
        tail = (f" If the agent says those dates are not possible, accept it and ask instead for vacation from "
                f"{nice(alt.isoformat())} to {nice(alt_end.isoformat())}, with the note exactly '{note}'.")
        script = ["I want to book three days of vacation.", line, f"{start.isoformat()} to {end.isoformat()}.",
                  f"OK, then {alt.isoformat()} to {alt_end.isoformat()} instead.", note, "Yes."]
    else:
        tail = " Insist once that it is important (a friend's wedding). If the agent still refuses, thank them and end the call; you do not want other dates."
        script = ["I want to book three days of vacation.", line, f"{start.isoformat()} to {end.isoformat()}.", "It's really important, it's a wedding.", "Fine, thanks."]
    add("vacation_blackout", f"{text} You want vacation from {nice(start.isoformat())} to {nice(end.isoformat())}, 2026.{tail}",
        script, gold, required=[a("get_department", department_id=e.department_id)], forbidden=forbidden, split=split, emp=e)


def notice_refusal():
    cands = active(lambda e: dept(e).vacation_notice_days == 14 and not in_blackout(e, date(2026, 5, 21), date(2026, 5, 22))
                   and bal(e).vacation_hours >= 16 and bal(e).personal_hours >= 8 and e.standard_day_hours == 8
                   and not busy(e, date(2026, 5, 21), date(2026, 5, 22)))
    e = pick(cands)
    text, line, auth = who(e, style())
    note = "Helping my mom move"
    gold = [auth, a("get_department", department_id=e.department_id), a("get_leave_balances", employee_id=e.employee_id),
            a("submit_time_off_request", employee_id=e.employee_id, leave_type="personal", start_date="2026-05-22",
              end_date="2026-05-22", note=note)]
    add("vacation_short_notice", f"{text} You want to take vacation on Thursday May 21 and Friday May 22, 2026. If the agent says "
        f"there is not enough notice for vacation, ask whether you could at least take Friday May 22 as a full personal day; if yes, "
        f"take it, with the note exactly '{note}'. You do not want anything on May 21 then.",
        ["Hi, I want vacation next Thursday and Friday.", line, "May 21 and 22.", "Could I take Friday the 22nd as a personal day then?", note, "Yes, do it."],
        gold, forbidden=[a("submit_time_off_request", employee_id=e.employee_id, leave_type="vacation")], emp=e)


def long_sick():
    e = pick(active(lambda e: bal(e).sick_hours >= 40))
    text, line, auth = who(e, style())
    add("sick_long", f"{text} Your doctor told you to stay off work for two weeks (Monday May 18 to Friday May 29, 2026) after a back injury. "
        f"You want it booked as sick leave; you have plenty of sick hours, you think.",
        ["I need to put in sick leave for the next two weeks.", line, "May 18 through May 29, back injury.", "OK, please transfer me."],
        [auth, a("transfer_to_human_agents", summary=f"Employee {e.employee_id} needs two weeks of medical leave (May 18-29) for a back injury.")],
        required=[a("transfer_to_human_agents")], forbidden=[a("submit_time_off_request", employee_id=e.employee_id)], emp=e)


def cancel_rebook(split="test"):
    def ok(e):
        reqs = [r for r in DB.time_off_requests.values() if r.employee_id == e.employee_id and r.leave_type == "vacation"
                and r.status in ("approved", "pending") and r.start_date > "2026-06-01" and r.half_day is None]
        return len(reqs) == 1 and bal(e).personal_hours >= e.standard_day_hours
    e = pick(active(ok))
    r = [r for r in DB.time_off_requests.values() if r.employee_id == e.employee_id and r.leave_type == "vacation"
         and r.status in ("approved", "pending") and r.start_date > "2026-06-01"][0]
    days = _leave_days(date.fromisoformat(r.start_date), date.fromisoformat(r.end_date))
    new_start = date.fromisoformat(r.start_date) + timedelta(days=7)
    new_start = weekday_on_or_after(new_start)
    new_end = span(new_start, days)
    while in_blackout(e, new_start, new_end) or busy(e, new_start, new_end) and not (r.start_date <= new_end.isoformat() and r.end_date >= new_start.isoformat()):
        new_start = weekday_on_or_after(new_start + timedelta(days=7))
        new_end = span(new_start, days)
    pday = weekday_on_or_after(date(2026, 5, 19) + timedelta(days=RNG.randint(0, 6)))
    while in_blackout(e, pday, pday) or busy(e, pday, pday):
        pday = weekday_on_or_after(pday + timedelta(days=1))
    text, line, auth = who(e, style())
    reason, note, pnote = "Trip pushed back a week", "Rescheduled trip", "Son's graduation"
    new_hours = _leave_days(new_start, new_end) * e.standard_day_hours
    after = bal(e).vacation_hours + r.hours - new_hours
    gold = [auth, a("list_time_off_requests", employee_id=e.employee_id), a("get_department", department_id=e.department_id),
            a("cancel_time_off_request", employee_id=e.employee_id, request_id=r.request_id, reason=reason),
            a("submit_time_off_request", employee_id=e.employee_id, leave_type="vacation", start_date=new_start.isoformat(),
              end_date=new_end.isoformat(), note=note),
            a("submit_time_off_request", employee_id=e.employee_id, leave_type="personal", start_date=pday.isoformat(),
              end_date=pday.isoformat(), note=pnote),
            a("get_leave_balances", employee_id=e.employee_id)]
    add("reschedule_vacation", f"{text} You have vacation booked from {nice(r.start_date)} to {nice(r.end_date)}, 2026, but your trip moved. "
        f"You want to cancel it (reason, exactly: '{reason}') and book vacation from {nice(new_start.isoformat())} to {nice(new_end.isoformat())} instead "
        f"(note, exactly: '{note}'). While you are at it, you also want a full personal day on {nice(pday.isoformat())} (note, exactly: '{pnote}'). "
        f"At the end ask how many vacation hours you will have left.",
        ["I need to move my vacation.", line, f"The one starting {r.start_date}; new dates {new_start.isoformat()} to {new_end.isoformat()}.", reason, note,
         f"Also a personal day on {pday.isoformat()}: {pnote}.", "Yes to all of it."],
        gold, outputs=[fmt(after)], split=split, emp=e)


def short_balance():
    def ok(e):
        return (not dept(e).shift_based or dept(e).department_id in ("MNT",)) and 16 <= bal(e).vacation_hours < 40 and e.standard_day_hours == 8 \
            and bal(e).vacation_hours % 8 != 0
    e = pick(active(ok))
    start = date(2026, 6, 15)
    while busy(e, start, start + timedelta(days=4)) or in_blackout(e, start, start + timedelta(days=4)):
        start += timedelta(days=7)
    full_days = int(bal(e).vacation_hours // 8)
    end = span(start, full_days)
    note = "Lake Superior road trip"
    text, line, auth = who(e, style())
    gold = [auth, a("get_department", department_id=e.department_id), a("get_leave_balances", employee_id=e.employee_id),
            a("submit_time_off_request", employee_id=e.employee_id, leave_type="vacation", start_date=start.isoformat(),
              end_date=end.isoformat(), note=note)]
    add("vacation_short_balance", f"{text} You want the whole week of {nice(start.isoformat())} to {nice((start + timedelta(days=4)).isoformat())}, 2026 as vacation. "
        f"You are not sure your balance covers it. If it does not, ask the agent for your exact vacation balance, then book as many FULL days as the balance "
        f"covers, starting {nice(start.isoformat())} on consecutive workdays (no half days, no other leave types). The note is exactly '{note}'.",
        ["I'd like to take the week of June 15th off as vacation.", line, "Then give me as many full days as I can, starting Monday.", note, "Yes please."],
        gold, outputs=[fmt(bal(e).vacation_hours)], emp=e)


# ============================================================== shifts
def classify(o):
    a_, b_ = DB.employees[o.offered_by], DB.employees[o.offered_to]
    if o.status != "pending" or (a_.department_id, a_.job_title) != (b_.department_id, b_.job_title):
        return "bad"
    ids = [o.take_shift_id] + ([o.give_shift_id] if o.give_shift_id else [])
    if any(DB.shifts[s].date <= "2026-05-15" for s in ids):
        return "past"
    eff = _swap_effects(DB, o)
    if any(h > v["weekly_cap"] for v in eff.values() for h in v["weekly_hours_after"].values()):
        return "over"
    rests = [v["shortest_rest_hours_around_new_shift"] for v in eff.values() if v["shortest_rest_hours_around_new_shift"] is not None]
    if rests and min(rests) < 0:
        return "double"
    if rests and min(rests) < 10:
        return "short"
    return "valid"


OFFERS = {k: classify(o) for k, o in sorted(DB.swap_offers.items())}


def offer_pick(kind_class: str, kind: str | None = None, single_week: bool = False):
    cands = [o for k, o in sorted(DB.swap_offers.items()) if OFFERS[k] == kind_class and (kind is None or o.kind == kind)
             and (not single_week or len(_swap_effects(DB, o)[o.offered_to]["weekly_hours_after"]) == 1)
             and o.offered_to not in USED and DB.employees[o.offered_to].status == "active"
             and sum(1 for x in DB.swap_offers.values() if x.offered_to == o.offered_to and x.status == "pending") == 1]
    return pick(cands)


def swap_accept(kind: str, split="test"):
    o = offer_pick("valid", kind, single_week=True)
    e, c = DB.employees[o.offered_to], DB.employees[o.offered_by]
    take = DB.shifts[o.take_shift_id].model_dump()
    text, line, auth = who(e, style())
    gold = [auth, a("list_swap_offers", employee_id=e.employee_id), a("preview_swap_offer", offer_id=o.offer_id),
            a("accept_swap_offer", employee_id=e.employee_id, offer_id=o.offer_id)]
    if kind == "swap":
        give = DB.shifts[o.give_shift_id].model_dump()
        want = (f"Your coworker {c.first_name} {c.last_name} offered in the scheduling app to trade: they take your {shift_text(take)} and you take "
                f"their {shift_text(give)}. You want to accept.")
    else:
        want = f"Your coworker {c.first_name} {c.last_name} offered in the app to cover your {shift_text(take)}. You want to accept the cover."
    add(f"shift_{kind}_accept", f"{text} {want} Ask the agent how many hours you will be scheduled that week once it goes through.",
        ["Hi, a coworker offered to take one of my shifts and I want to say yes.", line, f"It's from {c.first_name} {c.last_name}.", "Yes, accept it."],
        gold, outputs=[fmt(list(_swap_effects(DB, o)[e.employee_id]["weekly_hours_after"].values())[0])], split=split, emp=e)


def swap_short_rest():
    o = offer_pick("short")
    e, c = DB.employees[o.offered_to], DB.employees[o.offered_by]
    take = DB.shifts[o.take_shift_id].model_dump()
    eff = _swap_effects(DB, o)
    rest = min(v["shortest_rest_hours_around_new_shift"] for v in eff.values() if v["shortest_rest_hours_around_new_shift"] is not None)
    text, line, auth = who(e, style())
    gold = [auth, a("list_swap_offers", employee_id=e.employee_id), a("preview_swap_offer", offer_id=o.offer_id)]
    add("shift_swap_short_rest", f"{text} Your coworker {c.first_name} {c.last_name} sent you an offer in the scheduling app involving your {shift_text(take)}; "
        f"you want it accepted. If the agent refuses, ask why and what the rest figure is; insist once that you both agreed. Then accept the answer; you do not "
        f"want to decline the offer.",
        ["I want to accept a shift offer from a coworker.", line, f"{c.first_name} {c.last_name}.", "But we both agreed to it!", "Alright."],
        gold, outputs=[fmt(rest)], required=[a("preview_swap_offer", offer_id=o.offer_id)],
        forbidden=[a("accept_swap_offer", offer_id=o.offer_id)], emp=e)


def swap_over_cap():
    o = offer_pick("over")
    e, c = DB.employees[o.offered_to], DB.employees[o.offered_by]
    take = DB.shifts[o.take_shift_id].model_dump()
    eff = _swap_effects(DB, o)
    over = [h for v in eff.values() for h in v["weekly_hours_after"].values() if h > v["weekly_cap"]][0]
    text, line, auth = who(e, style())
    gold = [auth, a("list_swap_offers", employee_id=e.employee_id), a("preview_swap_offer", offer_id=o.offer_id)]
    add("shift_swap_over_cap", f"{text} Your coworker {c.first_name} {c.last_name} offered in the app to take your {shift_text(take)}"
        f"{' in a trade' if o.kind == 'swap' else ''}. You want it accepted. If the agent says it cannot be done, ask how many hours someone would end up "
        f"with that week. Do not decline the offer.",
        ["Can you accept a shift offer for me?", line, f"From {c.first_name} {c.last_name}.", "How many hours would that be?", "OK, never mind then."],
        gold, outputs=[fmt(over)], required=[a("preview_swap_offer", offer_id=o.offer_id)],
        forbidden=[a("accept_swap_offer", offer_id=o.offer_id)], emp=e)


def swap_decline():
    o = offer_pick("valid")
    e, c = DB.employees[o.offered_to], DB.employees[o.offered_by]
    take = DB.shifts[o.take_shift_id].model_dump()
    reason = "I need the hours that week, sorry"
    text, line, auth = who(e, style())
    gold = [auth, a("list_swap_offers", employee_id=e.employee_id), a("decline_swap_offer", employee_id=e.employee_id, offer_id=o.offer_id, reason=reason)]
    add("shift_offer_decline", f"{text} {c.first_name} {c.last_name} sent you an offer in the app involving your {shift_text(take)}. You want to turn it "
        f"down politely; the reason, exactly: '{reason}'.",
        ["I got a shift offer I'd like to turn down.", line, f"From {c.first_name} {c.last_name}.", reason, "Yes, decline it."],
        gold, emp=e)


def swap_cross_role():
    o = [o for k, o in sorted(DB.swap_offers.items()) if o.status == "pending" and
         (DB.employees[o.offered_by].department_id, DB.employees[o.offered_by].job_title) != (DB.employees[o.offered_to].department_id, DB.employees[o.offered_to].job_title)
         and o.offered_to not in USED][0]
    e, c = DB.employees[o.offered_to], DB.employees[o.offered_by]
    take = DB.shifts[o.take_shift_id].model_dump()
    text, line, auth = who(e, style())
    gold = [auth, a("list_swap_offers", employee_id=e.employee_id)]
    add("shift_swap_cross_role", f"{text} {c.first_name} {c.last_name} (a {c.job_title}) offered in the app to take your {shift_text(take)}. You want it accepted. "
        f"If refused, ask what rule blocks it, then end the call without declining.",
        ["Please accept the shift offer from my coworker.", line, f"{c.first_name} {c.last_name}.", "Why not?", "OK, bye."],
        gold, outputs=[c.job_title], required=[a("list_swap_offers", employee_id=e.employee_id)],
        forbidden=[a("accept_swap_offer", offer_id=o.offer_id)], emp=e)


# ============================================================== applications
OPEN = [p for k, p in sorted(DB.job_postings.items()) if p.status == "open" and p.closes_on >= "2026-05-15"]


def unique_title(p) -> bool:
    return sum(1 for q in OPEN if q.title == p.title) == 1


def open_apps(e) -> list:
    return [x for x in DB.applications.values() if x.employee_id == e.employee_id and x.status in ("submitted", "under_review", "interview", "offer")]


def eligible(e, p) -> bool:
    return (e.role_start_date <= "2025-05-15" and e.performance_rating is not None and e.performance_rating >= p.min_rating
            and not e.on_performance_plan and len(open_apps(e)) < 3 and not (p.department_id == e.department_id and p.title == e.job_title)
            and not any(x.posting_id == p.posting_id for x in DB.applications.values() if x.employee_id == e.employee_id))


def apply_ok(split="test", extra_withdraw=False):
    p = pick([p for p in OPEN if unique_title(p)])
    if extra_withdraw:
        e = pick(active(lambda e: len(open_apps(e)) == 3 and e.role_start_date <= "2025-05-15" and e.performance_rating is not None
                        and e.performance_rating >= p.min_rating and not e.on_performance_plan
                        and not any(x.posting_id == p.posting_id for x in DB.applications.values() if x.employee_id == e.employee_id)
                        and not any(x.status == "offer" for x in open_apps(e))))
    else:
        e = pick(active(lambda e: eligible(e, p) and e.department_id != p.department_id))
    note = RNG.choice(["I'm ready for more responsibility and want to keep growing at Kestrel.", "I'm ready for more responsibility and a new team.",
                       "I trained three new hires last year and enjoy it.", "I'd like to move closer to home and keep growing with Kestrel."])
    text, line, auth = who(e, style())
    kw = p.title.split()[0] if unique_title(p) and sum(1 for q in OPEN if p.title.split()[0].lower() in q.title.lower()) == 1 else p.title
    gold = [auth, a("search_job_postings", keyword=kw), a("get_job_posting", posting_id=p.posting_id), a("list_applications", employee_id=e.employee_id)]
    script = [f"Hi, I want to apply for the {p.title} opening.", line]
    tail = ""
    if extra_withdraw:
        w = sorted(open_apps(e), key=lambda x: x.application_id)[0]
        wp = DB.job_postings[w.posting_id]
        reason = "Found a better fit for my goals"
        gold += [a("withdraw_application", employee_id=e.employee_id, application_id=w.application_id, reason=reason)]
        tail = (f" You already have three applications in; if the agent says you are at the limit, withdraw your application for the {wp.title} posting "
                f"({w.posting_id}) with the reason, exactly: '{reason}', then apply.")
        script += [f"Withdraw the {wp.title} one then. Reason: {reason}."]
    gold += [a("submit_internal_application", employee_id=e.employee_id, posting_id=p.posting_id, cover_note=note)]
    dname = DB.departments[p.department_id].name
    add("internal_apply" + ("_at_limit" if extra_withdraw else ""), f"{text} You saw an internal opening for {p.title} in {dname} and want to apply. "
        f"You are fine with your manager being notified. Your cover note is exactly: '{note}'{tail}",
        script + [note, "Yes, that's fine, please submit."], gold, split=split, emp=e)


def apply_ineligible(reason: str):
    p = pick([p for p in OPEN if unique_title(p)])
    base = lambda e: (len(open_apps(e)) < 3 and p.department_id != e.department_id
                      and not any(x.posting_id == p.posting_id for x in DB.applications.values() if x.employee_id == e.employee_id))
    if reason == "tenure":
        e = pick(active(lambda e: base(e) and e.role_start_date > "2025-05-15" and e.performance_rating is not None
                        and e.performance_rating >= p.min_rating and not e.on_performance_plan))
        out = []
    elif reason == "rating":
        p = pick([q for q in OPEN if unique_title(q) and q.min_rating == 4])
        e = pick(active(lambda e: base(e) and e.role_start_date <= "2025-05-15" and e.performance_rating == 3 and not e.on_performance_plan))
        out = []
    elif reason == "pip":
        e = pick(active(lambda e: base(e) and e.role_start_date <= "2025-05-15" and e.on_performance_plan))
        out = []
    else:  # limit
        e = pick(active(lambda e: len(open_apps(e)) == 3 and e.role_start_date <= "2025-05-15" and e.performance_rating is not None
                        and e.performance_rating >= p.min_rating and not e.on_performance_plan
                        and not any(x.posting_id == p.posting_id for x in DB.applications.values() if x.employee_id == e.employee_id)))
        out = []
    text, line, auth = who(e, style())
    gold = [auth, a("search_job_postings", keyword=p.title), a("get_job_posting", posting_id=p.posting_id)]
    if reason == "limit":
        gold.append(a("list_applications", employee_id=e.employee_id))
    dname = DB.departments[p.department_id].name
    behaviour = {"tenure": "If refused, ask when you would become eligible.",
                 "rating": "If refused, say your manager thinks you are great and insist once.",
                 "pip": "If refused, say you think it's unfair and insist once; you do not want a transfer.",
                 "limit": "You do NOT want to withdraw any of your other applications; if told you cannot apply, accept it."}[reason]
    add(f"apply_blocked_{reason}", f"{text} You want to apply to the {p.title} posting in {dname}. {behaviour} You are fine with your manager being notified. "
        f"Your cover note would be 'Excited to contribute'.",
        [f"I'd like to apply for the {p.title} job.", line, "Are you sure? Please.", "OK."], gold, outputs=out,
        required=[a("get_job_posting", posting_id=p.posting_id)], forbidden=[a("submit_internal_application", employee_id=e.employee_id)], emp=e)


def withdraw_offer_stage():
    x = [x for k, x in sorted(DB.applications.items()) if x.status == "offer" and x.employee_id not in USED][0]
    e = DB.employees[x.employee_id]
    p = DB.job_postings[x.posting_id]
    text, line, auth = who(e, style())
    gold = [auth, a("list_applications", employee_id=e.employee_id),
            a("transfer_to_human_agents", summary=f"Employee {e.employee_id} wants to withdraw application {x.application_id}, which is at the offer stage.")]
    add("withdraw_offer_stage", f"{text} You applied internally for {p.title} and got an offer, but you changed your mind and want to withdraw "
        f"(you decided to stay in your current team). If the agent cannot do it, accept a transfer.",
        ["I need to withdraw an internal application.", line, f"The {p.title} one. I've had an offer but I'm staying put.", "OK, transfer me."],
        gold, required=[a("transfer_to_human_agents")], forbidden=[a("withdraw_application", application_id=x.application_id)], emp=e)


# ============================================================== records
def parse_addr(detail: str):
    street, city, rest = [s.strip() for s in detail.split(",")]
    state, zip_ = rest.split()
    return street, city, state, zip_


def address_code(split="test", with_deposit=False):
    e = pick(active(lambda e: e.address_verification_code is not None and e.home_address.state == "MN" and (e.identity_verified or not with_deposit)))
    city, zip_ = RNG.choice([("Duluth", "55803"), ("Hermantown", "55811"), ("Cloquet", "55720"), ("Saint Paul", "55104")])
    street = f"{RNG.randint(100, 9800)} {RNG.choice(['Kenwood Ave', 'Arlington Ave', 'Midway Rd', 'Calvary Rd', 'Marshall Ave'])}"
    text, line, auth = who(e, style())
    gold = [auth, a("update_home_address", employee_id=e.employee_id, street=street, city=city, state="MN", zip=zip_,
                    verification_code=e.address_verification_code)]
    tail, script = "", []
    if with_deposit:
        bank = RNG.choice([("North Shore Federal Credit Union", "291471024"), ("Bremer Bank", "091208598")])
        acct = str(RNG.randint(10 ** 9, 10 ** 10 - 1))
        gold += [a("update_direct_deposit", employee_id=e.employee_id, routing_number=bank[1], account_number=acct, account_type="checking")]
        tail = (f" You also opened a new checking account at {bank[0]} near the new place and want your pay deposited there: routing number {bank[1]}, "
                f"account number {acct}. Ask from when the new account will be used.")
        script = [f"Routing {bank[1]}, account {acct}, checking."]
    add("address_change_code" + ("_and_deposit" if with_deposit else ""), f"{text} You moved to {street}, {city}, MN {zip_}. You requested an address "
        f"verification code in the employee portal and it came to your phone: {e.address_verification_code}. Give it only if asked.{tail}",
        ["I moved and need to update my address.", line, f"{street}, {city}, MN {zip_}.", e.address_verification_code] + script + ["Yes, correct."],
        gold, outputs=["May 24"] if with_deposit else [], split=split, emp=e)


def addr_docs(status: str, cross: bool):
    out = []
    for k, d in sorted(DB.documents.items()):
        if d.doc_type in ADDR_DOCS and d.status == status and d.employee_id not in USED:
            e = DB.employees[d.employee_id]
            st = parse_addr(d.detail)[2]
            if e.status == "active" and (st != e.home_address.state) == cross and (e.address_verification_code is None or status != "verified"):
                out.append((d, e))
    return out


def address_doc(multi=False):
    d, e = pick([(d, e) for d, e in addr_docs("verified", False) if not multi or bal(e).personal_hours >= e.standard_day_hours])
    street, city, state, zip_ = parse_addr(d.detail)
    text, line, auth = who(e, style())
    gold = [auth, a("list_documents", employee_id=e.employee_id),
            a("update_home_address", employee_id=e.employee_id, street=street, city=city, state=state, zip=zip_, document_id=d.document_id)]
    tail, script, outs = "", [], []
    if multi:
        day = weekday_on_or_after(date(2026, 5, 26))
        while in_blackout(e, day, day) or busy(e, day, day):
            day = weekday_on_or_after(day + timedelta(days=1))
        note = "Moving day"
        gold += [a("get_department", department_id=e.department_id), a("get_leave_balances", employee_id=e.employee_id)]
        if bal(e).personal_hours >= e.standard_day_hours:
            gold += [a("submit_time_off_request", employee_id=e.employee_id, leave_type="personal", start_date=day.isoformat(), end_date=day.isoformat(), note=note)]
            kind = "personal"
        else:
            gold += [a("submit_time_off_request", employee_id=e.employee_id, leave_type="sick", start_date=day.isoformat(), end_date=day.isoformat(), note=note)] if False else []
            raise RuntimeError("no personal hours")
        tail = (f" You also need a full personal day on {nice(day.isoformat())}, 2026 to finish the move (note, exactly: '{note}').")
        script = [f"Personal day on {day.isoformat()}, note: {note}."]
    add("address_change_document" + ("_and_leave" if multi else ""), f"{text} You moved to {street}, {city}, {state} {zip_}. You do not have a verification code, "
        f"but you uploaded your {d.doc_type.replace('_', ' ')} for the new place to the portal last week.{tail}",
        ["Hi, I need to change my home address.", line, f"{street}, {city}, {state} {zip_}.", "I uploaded a document, no code."] + script + ["Yes."],
        gold, outputs=outs, emp=e)


def address_cross_state():
    d, e = pick(addr_docs("verified", True))
    street, city, state, zip_ = parse_addr(d.detail)
    text, line, auth = who(e, style())
    gold = [auth, a("list_documents", employee_id=e.employee_id),
            a("transfer_to_human_agents", summary=f"Employee {e.employee_id} moved from {e.home_address.state} to {state}; address change needs Payroll for tax withholding.")]
    add("address_change_other_state", f"{text} You moved across the state line to {street}, {city}, {state} {zip_} and uploaded your {d.doc_type.replace('_', ' ')} "
        f"as proof. You want your address updated today. Accept a transfer if offered.",
        ["I need to update my address, I moved.", line, f"{street}, {city}, {state} {zip_}.", "OK, transfer me then."],
        gold, required=[a("transfer_to_human_agents")], forbidden=[a("update_home_address", employee_id=e.employee_id)], emp=e)


def address_pending_doc():
    d, e = pick([(d, e) for d, e in addr_docs("pending", False) if e.address_verification_code is None])
    street, city, state, zip_ = parse_addr(d.detail)
    text, line, auth = who(e, style())
    gold = [auth, a("list_documents", employee_id=e.employee_id)]
    add("address_change_unverified", f"{text} You moved to {street}, {city}, {state} {zip_} and uploaded a {d.doc_type.replace('_', ' ')} a few days ago. "
        f"You have no verification code. You want the address changed now; insist once. If refused, ask what the status of your document is.",
        ["Can you update my home address?", line, f"{street}, {city}, {state} {zip_}.", "Can't you just change it?", "What's the status of my document?"],
        gold, outputs=["pending"], required=[a("list_documents", employee_id=e.employee_id)],
        forbidden=[a("update_home_address", employee_id=e.employee_id)], emp=e)


def deposit(verified: bool, split="test"):
    e = pick(active(lambda e: e.identity_verified == verified and e.pending_direct_deposit is None))
    bank = RNG.choice([("Lakehead State Bank", "091901215"), ("U.S. Bank", "091000022"), ("Twin Ports Community Bank", "291377812")])
    acct = str(RNG.randint(10 ** 7, 10 ** 11))
    atype = RNG.choice(["checking", "savings"])
    text, line, auth = who(e, style())
    if verified:
        gold = [auth, a("update_direct_deposit", employee_id=e.employee_id, routing_number=bank[1], account_number=acct, account_type=atype)]
        add("direct_deposit_change", f"{text} You switched banks and want your pay to go to your new {atype} account at {bank[0]}: routing number {bank[1]}, "
            f"account number {acct}. Ask when the change takes effect and whether your next paycheck goes there.",
            ["I need to change my direct deposit.", line, f"{bank[0]}, routing {bank[1]}, account {acct}, {atype}.", "Yes, please."],
            gold, outputs=["May 24"], split=split, emp=e)
    else:
        gold = [auth]
        add("direct_deposit_unverified", f"{text} You want your pay sent to a new {atype} account at {bank[0]} (routing {bank[1]}, account {acct}). "
            f"You have never shown ID to People Operations. Insist once that it is urgent.",
            ["I want to change where my paycheck goes.", line, f"{bank[0]}, routing {bank[1]}, account {acct}.", "It's urgent, please.", "Fine."],
            gold, required=[auth], forbidden=[a("update_direct_deposit", employee_id=e.employee_id)], emp=e)


def legal_name():
    e = pick(active(lambda e: e.dependents == [] or True))
    new_last = RNG.choice(["Lindgren", "Okonkwo", "Haugen"])
    text, line, auth = who(e, style())
    gold = [auth, a("transfer_to_human_agents", summary=f"Employee {e.employee_id} requests a legal name change to {e.first_name} {new_last}.")]
    add("legal_name_change", f"{text} You got married and legally changed your last name to {new_last}. You want your HR record and pay stubs updated. "
        f"Accept a transfer if offered.",
        ["I need to change my last name on my record.", line, f"To {new_last}, I got married.", "Sure."],
        gold, required=[a("transfer_to_human_agents")], forbidden=[], emp=e)


# ============================================================== benefits
def cost(e, plan_id: str, level: str) -> tuple[str, float]:
    p = DB.benefit_plans[plan_id]
    share = p.employer_share_full_time if e.employment_type == "full_time" else p.employer_share_part_time
    expr = f"{fmt(p.monthly_premium[level])} * 12 * (1 - {fmt(share)}) / 26"
    return expr, round(p.monthly_premium[level] * 12 * (1 - share) / 26, 2)


def level_of(e, extra: str | None = None) -> str:
    rels = {d.relationship for d in e.dependents} | ({extra} if extra else set())
    s, c = bool(rels & {"spouse", "domestic_partner"}), "child" in rels
    return "family" if s and c else "employee_spouse" if s else "employee_children" if c else "employee"


def new_hire(with_extra: str | None = None, split="test"):
    e = pick(active(lambda e: e.hire_date >= "2026-04-15" and not any(x.employee_id == e.employee_id for x in DB.enrollments.values())
                    and (with_extra != "deposit" or e.identity_verified) and (with_extra != "code" or e.address_verification_code)))
    med = RNG.choice(["MED-PPO", "MED-HSA", "MED-HMO"])
    den = RNG.choice(["DEN-BAS", "DEN-PLS"])
    level = level_of(e)
    text, line, auth = who(e, style())
    e1, c1 = cost(e, med, level)
    e2, c2 = cost(e, den, level)
    gold = [auth, a("list_benefit_plans"), a("calculate", expression=e1), a("calculate", expression=e2),
            a("enroll_in_plan", employee_id=e.employee_id, plan_id=med, coverage_level=level, basis="new_hire"),
            a("enroll_in_plan", employee_id=e.employee_id, plan_id=den, coverage_level=level, basis="new_hire")]
    who_cov = {"employee": "just yourself", "employee_spouse": "you and your spouse", "employee_children": "you and your kids", "family": "your whole family (spouse and kids)"}[level]
    tail, script = "", []
    if with_extra == "vision":
        e3, c3 = cost(e, "VIS-STD", level)
        gold[3:3] = [a("calculate", expression=e3)]
        gold.append(a("enroll_in_plan", employee_id=e.employee_id, plan_id="VIS-STD", coverage_level=level, basis="new_hire"))
        tail = " You also want the vision plan at the same coverage level."
        script = ["And vision too, same coverage."]
        outs = [fmt(c1), fmt(c2), fmt(c3)]
    else:
        outs = [fmt(c1), fmt(c2)]
    if with_extra == "deposit":
        bank, acct = ("Superior Choice Credit Union", "275979034"), str(RNG.randint(10 ** 8, 10 ** 9))
        gold.append(a("update_direct_deposit", employee_id=e.employee_id, routing_number=bank[1], account_number=acct, account_type="checking"))
        tail = f" You also want your pay to go to your new checking account at {bank[0]}: routing {bank[1]}, account {acct}."
        script = [f"Routing {bank[1]}, account {acct}, checking."]
    add("new_hire_enroll" + (f"_{with_extra}" if with_extra else ""), f"{text} You started on {nice(e.hire_date)}, 2026 and want to sign up for benefits: the "
        f"{DB.benefit_plans[med].name} medical plan and {DB.benefit_plans[den].name}, covering {who_cov} (everyone on your record). Before agreeing, ask "
        f"what each will cost per paycheck.{tail}",
        ["Hi, I'm new and I want to enroll in benefits.", line, f"{DB.benefit_plans[med].name} and {DB.benefit_plans[den].name}."] + script + ["Yes, enroll me."],
        gold, outputs=outs, split=split, emp=e)


def life_event_cands(kind: tuple, recent: bool, doc_status: str = "verified"):
    out = []
    for k, ev in sorted(DB.life_events.items()):
        e = DB.employees[ev.employee_id]
        if ev.kind in kind and (ev.event_date >= "2026-04-15") == recent and DB.documents[ev.document_id].status == doc_status \
                and e.employee_id not in USED and e.status == "active":
            out.append((ev, e))
    return out


def birth_or_adoption(split="test"):
    ev, e = pick([(ev, e) for ev, e in life_event_cands(("birth", "adoption"), True)
                  if any(x.employee_id == e.employee_id and x.status == "active" and x.plan_type == "medical" and x.coverage_level == level_of(e)
                         and x.coverage_level != level_of(e, "child")
                         for x in DB.enrollments.values())])
    baby = f"{RNG.choice(['Astrid', 'Leo', 'Nora', 'Elias', 'Freya', 'Owen', 'Ingrid', 'Milo'])} {e.last_name}"
    med = [x for x in DB.enrollments.values() if x.employee_id == e.employee_id and x.status == "active" and x.plan_type == "medical"][0]
    level = level_of(e, "child")
    dob = ev.event_date if ev.kind == "birth" else (date.fromisoformat(ev.event_date) - timedelta(days=RNG.randint(400, 1500))).isoformat()
    text, line, auth = who(e, style())
    expr, c = cost(e, med.plan_id, level)
    gold = [auth, a("list_life_events", employee_id=e.employee_id), a("list_documents", employee_id=e.employee_id), a("list_enrollments", employee_id=e.employee_id),
            a("add_dependent", employee_id=e.employee_id, name=baby, relationship="child", date_of_birth=dob, document_id=ev.document_id),
            a("calculate", expression=expr),
            a("enroll_in_plan", employee_id=e.employee_id, plan_id=med.plan_id, coverage_level=level, basis=ev.event_id)]
    den = [x for x in DB.enrollments.values() if x.employee_id == e.employee_id and x.status == "active" and x.plan_type == "dental"
           and x.coverage_level == level_of(e) and x.coverage_level != level]
    outs = [fmt(c)]
    tail = ""
    if den:
        expr2, c2 = cost(e, den[0].plan_id, level)
        gold += [a("calculate", expression=expr2),
                 a("enroll_in_plan", employee_id=e.employee_id, plan_id=den[0].plan_id, coverage_level=level, basis=ev.event_id)]
        outs.append(fmt(c2))
        tail = " You want the child added to your dental plan too (same plan)."
    word = "was born" if ev.kind == "birth" else "joined your family by adoption (the adoption was finalized)"
    add("add_child_coverage", f"{text} Your child {baby} (date of birth {dob}) {word} on {nice(ev.event_date)}, 2026. You reported it in the portal and uploaded the "
        f"{'birth certificate' if ev.kind == 'birth' else 'adoption decree'}. You want {baby.split()[0]} added to your record and to your current medical plan "
        f"(keep the same plan, and keep everyone already covered).{tail} Ask what the new per-paycheck cost will be.",
        ["Hi, we have a new kid and I need to add them to my insurance.", line, f"{baby}, born {dob}.", "Yes, go ahead with all of it."],
        gold, outputs=outs, split=split, emp=e)


def marriage(split="test"):
    ev, e = pick([(ev, e) for ev, e in life_event_cands(("marriage",), True)
                  if not any(d.relationship in ("spouse", "domestic_partner") for d in e.dependents)])
    spouse = f"{RNG.choice(['Kari', 'Joel', 'Anneli', 'Marcus', 'Priya', 'Tomas'])} {RNG.choice(['Hakala', 'Moreau', 'Lindahl', 'Osei'])}"
    sdob = (date.fromisoformat(e.date_of_birth) + timedelta(days=RNG.randint(-1500, 1500))).isoformat()
    level = level_of(e, "spouse")
    med = RNG.choice(["MED-PPO", "MED-HMO"])
    text, line, auth = who(e, style())
    expr, c = cost(e, med, level)
    ev2, c2 = cost(e, "VIS-STD", level)
    gold = [auth, a("list_life_events", employee_id=e.employee_id), a("list_documents", employee_id=e.employee_id),
            a("add_dependent", employee_id=e.employee_id, name=spouse, relationship="spouse", date_of_birth=sdob, document_id=ev.document_id),
            a("list_benefit_plans"), a("calculate", expression=expr), a("calculate", expression=ev2),
            a("enroll_in_plan", employee_id=e.employee_id, plan_id=med, coverage_level=level, basis=ev.event_id),
            a("enroll_in_plan", employee_id=e.employee_id, plan_id="VIS-STD", coverage_level=level, basis=ev.event_id)]
    add("marriage_coverage", f"{text} You got married on {nice(ev.event_date)}, 2026 and uploaded the marriage certificate. You want your spouse {spouse} "
        f"(born {sdob}) added to your record, then medical on the {DB.benefit_plans[med].name} and the vision plan, both covering you"
        f"{', your spouse and your kids' if level == 'family' else ' and your spouse'}. Ask the per-paycheck cost of each before agreeing.",
        ["I just got married and want to add my spouse to my benefits.", line, f"{spouse}, born {sdob}.", "Yes, please enroll us."],
        gold, outputs=[fmt(c), fmt(c2)], split=split, emp=e)


def window_closed():
    ev, e = pick(life_event_cands(("marriage", "birth"), False))
    text, line, auth = who(e, style())
    gold = [auth, a("list_life_events", employee_id=e.employee_id)]
    what = "your spouse" if ev.kind == "marriage" else "your baby"
    add("benefits_window_closed", f"{text} A while ago ({nice(ev.event_date)}, 2026) {'you got married' if ev.kind == 'marriage' else 'your baby was born'}. You never got around to updating benefits and want "
        f"{what} added to your medical plan now. Insist once; then ask when you can make the change.",
        ["I need to add someone to my medical plan.", line, f"It's from my {ev.kind} on {ev.event_date}.", "Can't you make an exception?", "When can I do it then?"],
        gold, required=[a("list_life_events", employee_id=e.employee_id)], forbidden=[a("enroll_in_plan", employee_id=e.employee_id), a("add_dependent", employee_id=e.employee_id)], emp=e)


def pending_certificate():
    ev, e = pick([(ev, e) for ev, e in life_event_cands(("marriage", "birth", "domestic_partnership"), True, "pending")])
    rel = {"marriage": "spouse", "birth": "child", "domestic_partnership": "domestic partner"}[ev.kind]
    name = f"Robin {e.last_name}"
    text, line, auth = who(e, style())
    gold = [auth, a("list_life_events", employee_id=e.employee_id), a("list_documents", employee_id=e.employee_id)]
    add("dependent_document_pending", f"{text} You want to add your {rel} {name} to your record and your benefits after your {ev.kind.replace('_', ' ')} on "
        f"{nice(ev.event_date)}, 2026. You uploaded the document a few days ago. Insist once; then ask what is holding it up.",
        [f"I want to add my {rel} to my benefits.", line, f"{name}.", "Please, just add them.", "What's holding it up?"],
        gold, outputs=["pending"], required=[a("list_documents", employee_id=e.employee_id)],
        forbidden=[a("add_dependent", employee_id=e.employee_id), a("enroll_in_plan", employee_id=e.employee_id)], emp=e)


def loss_of_coverage():
    ev, e = pick([(ev, e) for ev, e in life_event_cands(("loss_of_other_coverage",), True)
                  if not any(x.employee_id == e.employee_id and x.status == "active" and x.plan_type == "medical" for x in DB.enrollments.values())])
    level = level_of(e)
    text, line, auth = who(e, style())
    expr_a, ca = cost(e, "MED-HSA", level)
    expr_b, cb = cost(e, "MED-PPO", level)
    gold = [auth, a("list_life_events", employee_id=e.employee_id), a("list_benefit_plans", plan_type="medical"),
            a("calculate", expression=expr_a), a("calculate", expression=expr_b), a("calculate", expression=f"{fmt(cb)} - {fmt(ca)}"),
            a("enroll_in_plan", employee_id=e.employee_id, plan_id="MED-HSA", coverage_level=level, basis=ev.event_id)]
    add("lost_other_coverage", f"{text} Your spouse's employer coverage ended on {nice(ev.event_date)}, 2026 and you reported it with the letter. You now need "
        f"Kestrel medical for everyone on your record. You are torn between the Core PPO and the HSA Saver: ask how much more per paycheck the PPO costs, "
        f"then choose the HSA Saver.",
        ["I lost my other insurance and need to get on the company medical plan.", line, "How much more is the PPO per paycheck?", "I'll take the HSA Saver."],
        gold, outputs=[fmt(round(cb - ca, 2)), fmt(ca)], emp=e)


# ============================================================== combined
def swap_and_vacation():
    o = offer_pick("valid", "swap")
    e = DB.employees[o.offered_to]
    c = DB.employees[o.offered_by]
    take = DB.shifts[o.take_shift_id].model_dump()
    give = DB.shifts[o.give_shift_id].model_dump()
    start = weekday_on_or_after(TODAY + timedelta(days=dept(e).vacation_notice_days + 10))
    end = span(start, 2)
    while in_blackout(e, start, end) or busy(e, start, end):
        start = weekday_on_or_after(start + timedelta(days=7))
        end = span(start, 2)
    if bal(e).vacation_hours < 2 * e.standard_day_hours or bal(e).personal_hours < e.standard_day_hours:
        USED.add(e.employee_id)
        return swap_and_vacation()
    pday = weekday_on_or_after(date(2026, 5, 27) + timedelta(days=RNG.randint(0, 4)))
    while in_blackout(e, pday, pday) or busy(e, pday, pday):
        pday = weekday_on_or_after(pday + timedelta(days=1))
    text, line, auth = who(e, style())
    note, pnote = "Anniversary trip", "Car inspection"
    gold = [auth, a("list_swap_offers", employee_id=e.employee_id), a("preview_swap_offer", offer_id=o.offer_id),
            a("accept_swap_offer", employee_id=e.employee_id, offer_id=o.offer_id),
            a("get_department", department_id=e.department_id), a("get_leave_balances", employee_id=e.employee_id),
            a("submit_time_off_request", employee_id=e.employee_id, leave_type="vacation", start_date=start.isoformat(), end_date=end.isoformat(), note=note),
            a("submit_time_off_request", employee_id=e.employee_id, leave_type="personal", start_date=pday.isoformat(), end_date=pday.isoformat(), note=pnote)]
    add("swap_and_leave", f"{text} Three things today. (1) {c.first_name} {c.last_name} offered in the app to trade: they take your {shift_text(take)} and you take "
        f"their {shift_text(give)}; accept it. (2) Vacation from {nice(start.isoformat())} to {nice(end.isoformat())}, 2026, note exactly '{note}'. "
        f"(3) A full personal day on {nice(pday.isoformat())}, 2026, note exactly '{pnote}'. Ask how many vacation hours remain at the end.",
        ["I have a shift trade to accept and some time off to book.", line, f"The trade is from {c.first_name} {c.last_name}.",
         f"Vacation {start.isoformat()} to {end.isoformat()}, {note}.", f"Personal day {pday.isoformat()}, {pnote}.", "Yes to everything."],
        gold, outputs=[fmt(bal(e).vacation_hours - _leave_days(start, end) * e.standard_day_hours)], emp=e)


def apply_and_leave():
    p = pick([p for p in OPEN if unique_title(p)])
    e = pick(active(lambda e: eligible(e, p) and e.department_id != p.department_id and bal(e).personal_hours >= e.standard_day_hours
                    and bal(e).sick_hours >= e.standard_day_hours))
    day = weekday_on_or_after(date(2026, 5, 19) + timedelta(days=RNG.randint(0, 5)))
    while in_blackout(e, day, day) or busy(e, day, day):
        day = weekday_on_or_after(day + timedelta(days=1))
    prior = [x for x in DB.applications.values() if x.employee_id == e.employee_id and x.status in ("submitted", "under_review", "interview")]
    text, line, auth = who(e, style())
    note = "Interview prep and a family errand"
    cover = "I have wanted to work on this team since I joined Kestrel."
    gold = [auth, a("search_job_postings", keyword=p.title), a("get_job_posting", posting_id=p.posting_id), a("list_applications", employee_id=e.employee_id),
            a("submit_internal_application", employee_id=e.employee_id, posting_id=p.posting_id, cover_note=cover)]
    tail = ""
    if prior:
        w = sorted(prior, key=lambda x: x.application_id)[0]
        wp = DB.job_postings[w.posting_id]
        gold.append(a("withdraw_application", employee_id=e.employee_id, application_id=w.application_id, reason="Focusing on one opening"))
        tail = f" Also withdraw your earlier application to {wp.title} ({w.posting_id}), reason exactly: 'Focusing on one opening'."
    gold += [a("get_department", department_id=e.department_id),
             a("submit_time_off_request", employee_id=e.employee_id, leave_type="personal", start_date=day.isoformat(), end_date=day.isoformat(), note=note)]
    if not prior:
        gold.insert(-1, a("get_leave_balances", employee_id=e.employee_id))
        sick_day = weekday_on_or_after(day + timedelta(days=1))
        while busy(e, sick_day, sick_day):
            sick_day = weekday_on_or_after(sick_day + timedelta(days=1))
        if bal(e).sick_hours < e.standard_day_hours:
            raise RuntimeError("no sick hours")
        gold.append(a("submit_time_off_request", employee_id=e.employee_id, leave_type="sick", start_date=sick_day.isoformat(), end_date=sick_day.isoformat(),
                      note="Dentist appointment"))
        tail = f" You also have a dentist appointment on {nice(sick_day.isoformat())}, 2026: book a full sick day, note exactly 'Dentist appointment'."
    add("apply_and_time_off", f"{text} You want to apply to the internal {p.title} opening in {DB.departments[p.department_id].name} (manager notification is fine; "
        f"cover note exactly: '{cover}'), and book a full personal day on {nice(day.isoformat())}, 2026 (note exactly: '{note}').{tail}",
        [f"I want to apply for the {p.title} posting and book a day off.", line, cover, note, "Yes, all of that."], gold, emp=e)


def new_hire_address_deposit_enroll():
    e = pick(active(lambda e: e.hire_date >= "2026-04-15" and e.identity_verified and e.address_verification_code and e.home_address.state == "MN"
                    and not any(x.employee_id == e.employee_id for x in DB.enrollments.values())))
    level = level_of(e)
    expr, c = cost(e, "MED-HMO", level)
    street, city, zip_ = f"{RNG.randint(100, 999)} Woodland Ave", "Duluth", "55803"
    bank, acct = ("Twin Ports Community Bank", "291377812"), str(RNG.randint(10 ** 6, 10 ** 8))
    text, line, auth = who(e, style())
    gold = [auth, a("update_home_address", employee_id=e.employee_id, street=street, city=city, state="MN", zip=zip_, verification_code=e.address_verification_code),
            a("update_direct_deposit", employee_id=e.employee_id, routing_number=bank[1], account_number=acct, account_type="savings"),
            a("list_benefit_plans", plan_type="medical"), a("calculate", expression=expr),
            a("enroll_in_plan", employee_id=e.employee_id, plan_id="MED-HMO", coverage_level=level, basis="new_hire")]
    if e.home_address.state != "MN":
        raise RuntimeError("cross-state")
    add("new_hire_setup", f"{text} You joined on {nice(e.hire_date)}, 2026 and are finishing your setup: (1) your address is now {street}, {city}, MN {zip_} "
        f"(portal verification code {e.address_verification_code}); (2) pay into your savings account at {bank[0]}, routing {bank[1]}, account {acct}; "
        f"(3) enroll in the Kestrel Select HMO for everyone on your record; ask its per-paycheck cost first.",
        ["Hi, I'm new and have a few setup things.", line, f"{street}, {city}, MN {zip_}; code {e.address_verification_code}.",
         f"Routing {bank[1]}, account {acct}, savings.", "Yes, HMO please."], gold, outputs=[fmt(c)], emp=e)


def two_offers():
    # one employee with two pending offers: accept the valid one, decline the other
    for emp_id in sorted({o.offered_to for o in DB.swap_offers.values()}):
        if emp_id in USED or DB.employees[emp_id].status != "active":
            continue
        mine = [o for k, o in sorted(DB.swap_offers.items()) if o.offered_to == emp_id and o.status == "pending"]
        valid = [o for o in mine if OFFERS[o.offer_id] == "valid"]
        if len(mine) == 2 and len(valid) >= 1:
            acc = valid[0]
            dec = [o for o in mine if o is not acc][0]
            break
    else:
        raise RuntimeError("none")
    e = DB.employees[emp_id]
    ca, cd = DB.employees[acc.offered_by], DB.employees[dec.offered_by]
    reason = "Already accepted another trade"
    day = weekday_on_or_after(date(2026, 6, 10) + timedelta(days=RNG.randint(0, 20)))
    while in_blackout(e, day, day) or busy(e, day, day) or dept(e).vacation_notice_days > (day - TODAY).days:
        day = weekday_on_or_after(day + timedelta(days=1))
    text, line, auth = who(e, style())
    gold = [auth, a("list_swap_offers", employee_id=e.employee_id), a("preview_swap_offer", offer_id=acc.offer_id),
            a("accept_swap_offer", employee_id=e.employee_id, offer_id=acc.offer_id),
            a("decline_swap_offer", employee_id=e.employee_id, offer_id=dec.offer_id, reason=reason)]
    if bal(e).vacation_hours >= e.standard_day_hours:
        gold += [a("get_department", department_id=e.department_id), a("get_leave_balances", employee_id=e.employee_id),
                 a("submit_time_off_request", employee_id=e.employee_id, leave_type="vacation", start_date=day.isoformat(), end_date=day.isoformat(), note="Long weekend")]
        tail = f" Finally, book one vacation day on {nice(day.isoformat())}, 2026, note exactly 'Long weekend'."
    else:
        tail = ""
    add("two_swap_offers", f"{text} You have two offers in the scheduling app: one from {ca.first_name} {ca.last_name} and one from {cd.first_name} {cd.last_name}. "
        f"Accept {ca.first_name}'s and decline {cd.first_name}'s with the reason, exactly: '{reason}'.{tail}",
        ["I have two shift offers to deal with.", line, f"Accept {ca.first_name}'s, decline {cd.first_name}'s.", reason, "Yes."], gold, emp=e)


def build():
    # test split
    vacation_ok(holiday=True)
    vacation_ok()
    vacation_ok()
    personal_half_day()
    sick_appointment()
    blackout_refusal(False)
    blackout_refusal(True)
    notice_refusal()
    long_sick()
    cancel_rebook()
    cancel_rebook()
    short_balance()
    swap_accept("swap")
    swap_accept("swap")
    swap_accept("cover")
    swap_short_rest()
    swap_short_rest()
    swap_over_cap()
    swap_decline()
    swap_cross_role()
    apply_ok()
    apply_ok()
    apply_ok(extra_withdraw=True)
    apply_ineligible("tenure")
    apply_ineligible("rating")
    apply_ineligible("pip")
    apply_ineligible("limit")
    withdraw_offer_stage()
    address_code()
    address_code(with_deposit=True)
    address_doc()
    address_doc(multi=True)
    address_cross_state()
    address_pending_doc()
    deposit(True)
    deposit(False)
    legal_name()
    new_hire()
    new_hire("vision")
    new_hire("deposit")
    birth_or_adoption()
    birth_or_adoption()
    marriage()
    marriage()
    window_closed()
    pending_certificate()
    loss_of_coverage()
    swap_and_vacation()
    swap_and_vacation()
    apply_and_leave()
    apply_and_leave()
    new_hire_address_deposit_enroll()
    new_hire_address_deposit_enroll()
    two_offers()
    swap_and_vacation()
    apply_and_leave()
    address_doc(multi=True)
    # train split
    vacation_ok(split="train")
    personal_half_day(split="train")
    swap_accept("swap", split="train")
    apply_ok(split="train")
    deposit(True, split="train")
    birth_or_adoption(split="train")


def main() -> None:
    build()
    OUT.write_text(json.dumps({"tasks": TASKS}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(TASKS)} tasks to {OUT}")


if __name__ == "__main__":
    main()
