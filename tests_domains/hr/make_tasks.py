"""Builds fixtures/hr/tasks.json from the DB: `python -m tests_domains.hr.make_tasks`.

`build()` returns a `TaskWriter`; a test checks that `build().render()` equals tasks.json byte for byte.
Templates per task kind pick employees and records from the DB (sorted candidates, seeded choice); every gold
call runs on the task's own environment as it is added, and every figure a task requires is read from what the
tools returned.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from pytest_tau import Kind, Output, TaskDraft, TaskWriter, output_told
from tests_domains.hr.domain import DOMAIN, leave_days, swap_effects
from tests_domains.hr.schema import Employee, JobPosting, LifeEvent, SwapOffer

DB = DOMAIN.initial_db
TODAY = DOMAIN.today
MOODS = ["You are polite and a little rushed; you are on your break.", "You are friendly and chatty.",
         "You are calm and precise and you like to double-check figures.",
         "You are slightly anxious and ask the agent to repeat key details.",
         "You are matter-of-fact and answer only what you are asked.", "You are cheerful but easily distracted."]
ADDR_DOCS = ("lease", "utility_bill", "mortgage_statement")
HOLIDAYS = ("2026-05-25", "2026-07-03")
OPEN_STATUSES = ("submitted", "under_review", "interview", "offer")
LEVEL_WORDS = {"employee": "just yourself", "employee_spouse": "you and your spouse", "employee_children": "you and your kids",
               "family": "your whole family (spouse and kids)"}


def submit_leave(d: TaskDraft, **request: Any) -> Any:
    """Policy 3.6: the preview whose hours the employee confirms, then the request (the declared order)."""
    d.read("preview_time_off_request", **{k: v for k, v in request.items() if k != "note"})
    return d.write("submit_time_off_request", **request)


def in_policy(value: Any, kind: Kind) -> bool:
    """Whether a figure is said in the policy text (such a figure cannot be a required output)."""
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return output_told(Output(value=text, kind=kind), DOMAIN.policy)


def nice(iso: str) -> str:
    d = date.fromisoformat(iso)
    return d.strftime("%A, %B ") + str(d.day)


def span_text(start: str, end: str) -> str:
    """'on Monday, June 8' or 'from Monday, June 8 to Wednesday, June 10'."""
    return f"on {nice(start)}" if start == end else f"from {nice(start)} to {nice(end)}"


def spoken_dob(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def shift_text(s: Any) -> str:
    return f"{nice(s.date)} {s.start}-{s.end} shift"


def dept(e: Employee) -> Any:
    return DB.departments[e.department_id]


def bal(e: Employee) -> Any:
    return DB.leave_balances[e.employee_id]


def in_blackout(e: Employee, start: date, end: date) -> bool:
    return any(not (end.isoformat() < b.start_date or start.isoformat() > b.end_date) for b in dept(e).blackouts)


def busy(e: Employee, start: date, end: date) -> bool:
    return any(r.status in ("pending", "approved") and not (r.end_date < start.isoformat() or r.start_date > end.isoformat())
               for r in DB.time_off_requests.where(employee_id=e.employee_id))


def span(start: date, days: int) -> date:
    end, n = start, 1
    while n < days:
        end += timedelta(days=1)
        if end.weekday() < 5 and end.isoformat() not in HOLIDAYS:
            n += 1
    return end


def workday_on_or_after(d: date) -> date:
    while d.weekday() >= 5 or d.isoformat() in HOLIDAYS:
        d += timedelta(days=1)
    return d


def hours_of(e: Employee, start: date, end: date) -> float:
    return leave_days(start, end) * e.standard_day_hours


def open_apps(e: Employee) -> list[Any]:
    return [x for x in DB.applications.where(employee_id=e.employee_id) if x.status in OPEN_STATUSES]


def applied_to(e: Employee, p: JobPosting) -> bool:
    return any(x.posting_id == p.posting_id for x in DB.applications.where(employee_id=e.employee_id))


def eligible(e: Employee, p: JobPosting) -> bool:
    return (e.role_start_date <= "2025-05-15" and e.performance_rating is not None and e.performance_rating >= p.min_rating
            and not e.on_performance_plan and len(open_apps(e)) < 3 and not (p.department_id == e.department_id and p.title == e.job_title)
            and not applied_to(e, p))


def level_of(e: Employee, extra: str | None = None) -> str:
    rels = {d.relationship for d in e.dependents} | ({extra} if extra else set())
    s, c = bool(rels & {"spouse", "domestic_partner"}), "child" in rels
    return "family" if s and c else "employee_spouse" if s else "employee_children" if c else "employee"


def active_enrollment(e: Employee, plan_type: str) -> Any:
    found = [x for x in DB.enrollments.where(employee_id=e.employee_id) if x.status == "active" and x.plan_type == plan_type]
    return found[0] if found else None


def parse_addr(detail: str) -> tuple[str, str, str, str]:
    street, city, rest = [s.strip() for s in detail.split(",")]
    state, zip_ = rest.split()
    return street, city, state, zip_


def classify(o: SwapOffer) -> str:
    a, b = DB.employees[o.offered_by], DB.employees[o.offered_to]
    if o.status != "pending" or (a.department_id, a.job_title) != (b.department_id, b.job_title):
        return "bad"
    if DB.shifts[o.take_shift_id].employee_id != o.offered_to or (o.give_shift_id and DB.shifts[o.give_shift_id].employee_id != o.offered_by):
        return "bad"
    ids = [o.take_shift_id] + ([o.give_shift_id] if o.give_shift_id else [])
    if any(DB.shifts[s].date <= TODAY.isoformat() for s in ids):
        return "past"
    eff = swap_effects(DB, o)
    if any(h > v["weekly_cap"] for v in eff.values() for h in v["weekly_hours_after"].values()):
        return "over"
    rests = [v["shortest_rest_hours_around_new_shift"] for v in eff.values() if v["shortest_rest_hours_around_new_shift"] is not None]
    if rests and min(rests) < 0:
        return "double"
    if rests and min(rests) < 10:
        return "short"
    return "valid"


OFFERS = {k: classify(o) for k, o in sorted(DB.swap_offers.items())}
OPEN = [p for k, p in sorted(DB.job_postings.items()) if p.status == "open" and p.closes_on >= TODAY.isoformat()]


def unique_title(p: JobPosting) -> bool:
    return sum(1 for q in OPEN if q.title == p.title) == 1


class Builder:
    """One run of the task templates: a seeded choice, the employees already used, the writer."""

    def __init__(self) -> None:
        self.rng = random.Random(515)
        self.used: set[str] = set()
        self.writer = TaskWriter(DOMAIN)

    # -- plumbing ---------------------------------------------------------------------
    def pick(self, cands: list[Any]) -> Any:
        if not cands:
            raise RuntimeError("no candidate")
        return self.rng.choice(cands)

    def active(self, pred: Callable[[Employee], bool]) -> list[Employee]:
        reserved = {ev.employee_id for ev in DB.life_events.values()}  # kept for the benefits templates
        return [e for k, e in sorted(DB.employees.items()) if e.status == "active" and k not in self.used and k not in reserved
                and e.job_grade not in ("S5", "E1") and pred(e)]

    def style(self) -> int:
        return len(self.writer.drafts) % 2

    def who(self, e: Employee) -> tuple[str, str, tuple[str, dict[str, str]]]:
        art = "an" if e.job_title[0] in "AEIOU" or e.job_title.startswith("HR") else "a"
        if self.style() == 0:
            text = (f"You are {e.first_name} {e.last_name}, {art} {e.job_title} at Kestrel Mills. Your employee number is "
                    f"{e.employee_id} and you were born on {spoken_dob(e.date_of_birth)}.")
            line = f"My employee number is {e.employee_id}, and my date of birth is {spoken_dob(e.date_of_birth)}."
            return text, line, ("find_employee_by_number", {"employee_number": e.employee_id, "date_of_birth": e.date_of_birth})
        text = (f"You are {e.first_name} {e.last_name}, {art} {e.job_title} at Kestrel Mills. Your work email is "
                f"{e.work_email} and the last four digits of your SSN are {e.ssn_last4}.")
        line = f"My work email is {e.work_email} and my SSN ends in {e.ssn_last4}."
        return text, line, ("find_employee_by_email", {"work_email": e.work_email, "ssn_last4": e.ssn_last4})

    def task(self, kind: str, e: Employee, instructions: str, script: list[str], split: str = "test") -> TaskDraft:
        # ids as they have always been numbered: one more than the ids that start with "<kind>_"
        number = sum(1 for task_id in self.writer.drafts if task_id.startswith(kind + "_")) + 1
        self.used.add(e.employee_id)
        mood = MOODS[len(self.writer.drafts) % len(MOODS)]
        return self.writer.task(f"{kind}_{number}", split=split, script=script,
                                instructions=f"{instructions} {mood} Give information only when the agent asks for it.")

    @staticmethod
    def auth(d: TaskDraft, auth: tuple[str, dict[str, str]], required: bool = False) -> Any:
        record = d.read(auth[0], **auth[1])
        if required:
            d.require(auth[0], **auth[1])
        return record

    # ============================================================== time off
    def vacation_ok(self, split: str = "test", holiday: bool = False) -> None:
        if holiday:
            start, end = date(2026, 5, 22), date(2026, 5, 26)
            e = self.pick(self.active(lambda e: not dept(e).shift_based and dept(e).vacation_notice_days == 7
                                      and bal(e).vacation_hours - hours_of(e, start, end) >= 100
                                      and not busy(e, start, end) and not in_blackout(e, start, end)))
        else:
            e = self.pick(self.active(lambda e: bool(dept(e).blackouts) and bal(e).vacation_hours - e.standard_day_hours >= 100))
            most = int((bal(e).vacation_hours - 100) // e.standard_day_hours)
            while True:
                start = workday_on_or_after(TODAY + timedelta(days=dept(e).vacation_notice_days + self.rng.randint(0, 40)))
                end = span(start, min(most, self.rng.choice([1, 2, 3])))
                if not in_blackout(e, start, end) and not busy(e, start, end):
                    break
        note = self.rng.choice(["Cabin trip to Grand Marais", "Brother's wedding in Fargo", "Camping at Jay Cooke",
                                "Boundary Waters canoe trip", "Kids' summer camp drop-off"])
        text, line, auth = self.who(e)
        when = span_text(start.isoformat(), end.isoformat()) + ", 2026"
        extra = (" You know Memorial Day (Monday, May 25) falls in that stretch and you want to be sure you are not charged for it."
                 if holiday else "")
        d = self.task("vacation_request", e, f"{text} You want to book vacation {when}. If asked for a note for your manager, say "
                      f"exactly: '{note}'. You want to know how many vacation hours you will have left after this request.{extra} "
                      f"Confirm when the agent summarizes the request.",
                      ["Hi, I'd like to put in for some vacation.", line, f"I'd like it {span_text(start.isoformat(), end.isoformat())}.",
                       note, "Yes, go ahead."], split)
        d.one_end_state("The 'must' rules hold for the dates asked: the start is at least the department's notice away (3.4),"
                        " no day is in a blackout (3.5), and the balance covers the hours the preview charges, company "
                        "holidays uncharged (3.1, 3.2), so the one request is filed as asked, with the note verbatim (2.2).")
        self.auth(d, auth)
        d.read("get_department", department_id=e.department_id)
        d.read("get_leave_balances", employee_id=e.employee_id)
        result = submit_leave(d, employee_id=e.employee_id, leave_type="vacation", start_date=start.isoformat(),
                         end_date=end.isoformat(), note=note)
        d.output(result["remaining_vacation_hours"], "number")

    def personal_half_day(self, split: str = "test") -> None:
        e = self.pick(self.active(lambda e: bal(e).personal_hours >= e.standard_day_hours / 2))
        while True:
            day = workday_on_or_after(date(2026, 5, 18) + timedelta(days=self.rng.randint(0, 25)))
            if not in_blackout(e, day, day) and not busy(e, day, day):
                break
        half = self.rng.choice(["morning", "afternoon"])
        note = self.rng.choice(["Closing on our house", "Parent-teacher conference", "DMV appointment", "Vet appointment for the dog"])
        text, line, auth = self.who(e)
        d = self.task("personal_half_day", e, f"{text} You need the {half} of {nice(day.isoformat())}, 2026 off as personal time "
                      f"(a half day). Your note for your manager is exactly: '{note}'. Once it is filed, ask for the request's reference "
                      f"number so you can mention it to your manager.",
                      ["Hi, can I take a half personal day?", line, f"The {half} of {nice(day.isoformat())}.", note,
                       "Yes, please submit it."], split)
        d.one_end_state("A half personal day has its 2 days' notice, no blackout and the balance for half the standard day "
                        "(3.1, 3.3-3.5), so it is filed as asked, with the note verbatim.")
        self.auth(d, auth)
        d.read("get_department", department_id=e.department_id)
        d.read("get_leave_balances", employee_id=e.employee_id)
        result = submit_leave(d, employee_id=e.employee_id, leave_type="personal", start_date=day.isoformat(),
                         end_date=day.isoformat(), note=note, half_day=half)
        d.output(result["request"]["request_id"], "code")

    def sick_appointment(self) -> None:
        e = self.pick(self.active(lambda e: bal(e).sick_hours >= 8 and e.standard_day_hours == 8))
        day = workday_on_or_after(TODAY + timedelta(days=self.rng.randint(3, 12)))
        while busy(e, day, day):
            day = workday_on_or_after(day + timedelta(days=1))
        note = "Knee surgery follow-up at St. Luke's"
        text, line, auth = self.who(e)
        d = self.task("sick_appointment", e, f"{text} You have a scheduled medical appointment on {nice(day.isoformat())}, 2026 and "
                      f"want to use a full sick day for it. Your note is exactly: '{note}'. Once it is filed, ask for the request's "
                      f"reference number.",
                      ["I need to book a sick day for a doctor's appointment.", line, f"{nice(day.isoformat())}.", note, "Yes."])
        d.one_end_state("Sick leave needs no notice and may be recorded up to 30 days ahead; one day is covered by the "
                        "balance and is no medical leave (3.1, 3.4, 3.7), so it is filed as asked.")
        self.auth(d, auth)
        d.read("get_leave_balances", employee_id=e.employee_id)
        result = submit_leave(d, employee_id=e.employee_id, leave_type="sick", start_date=day.isoformat(),
                         end_date=day.isoformat(), note=note)
        d.output(result["request"]["request_id"], "code")

    def blackout_refusal(self, alternative: bool, split: str = "test") -> None:
        e = self.pick(self.active(lambda e: dept(e).department_id in ("WHS", "QAC", "ASM", "SEW") and bal(e).vacation_hours >= 40
                                  and e.standard_day_hours == 8))
        b = next(b for b in dept(e).blackouts if b.start_date > "2026-05-29")
        start = workday_on_or_after(date.fromisoformat(b.start_date) + timedelta(days=self.rng.randint(0, 2)))
        end = span(start, 3)
        if busy(e, start, end):
            self.used.add(e.employee_id)
            return self.blackout_refusal(alternative, split)
        text, line, auth = self.who(e)
        wish = "Friend's wedding in Bayfield"
        if alternative:
            alt = workday_on_or_after(date.fromisoformat(b.end_date) + timedelta(days=1))
            while alt.weekday() != 0:
                alt += timedelta(days=1)
            alt_end = span(alt, 3)
            while busy(e, alt, alt_end) or in_blackout(e, alt, alt_end):
                alt += timedelta(days=7)
                alt_end = span(alt, 3)
            note = "Family reunion in Bemidji"
            tail = (f" If the agent says those dates are not possible, accept it and ask instead for vacation from "
                    f"{nice(alt.isoformat())} to {nice(alt_end.isoformat())}, with the note exactly '{note}'. Ask what the blackout "
                    f"period is that blocks your first dates.")
            script = ["I want to book three days of vacation.", line, f"{nice(start.isoformat())} to {nice(end.isoformat())}.",
                      f"OK, then {nice(alt.isoformat())} to {nice(alt_end.isoformat())} instead.", note, "Yes."]
        else:
            tail = (f" If asked for a note, it is exactly '{wish}'. Insist once that it is important. If the agent still refuses, ask "
                    f"until when the blackout runs, thank them and end the call; you do not want other dates.")
            script = ["I want to book three days of vacation.", line, f"{nice(start.isoformat())} to {nice(end.isoformat())}.",
                      "It's really important, it's a wedding.", "Until when is that blackout?", "Fine, thanks."]
        d = self.task("vacation_blackout", e, f"{text} You want vacation from {nice(start.isoformat())} to {nice(end.isoformat())}, "
                      f"2026.{tail}", script, split)
        d.one_end_state("The dates fall in the department's blackout, which grants no exceptions (3.5): they are not filed, "
                        "and the blackout's end is what is asked"
                        + ("; the second dates are after the blackout, with notice and balance (3.1, 3.4)." if alternative else "."))
        self.auth(d, auth)
        department = d.read("get_department", department_id=e.department_id)
        d.require("get_department", department_id=e.department_id)
        blackout = next(x for x in department["blackouts"] if x["start_date"] == b.start_date)
        d.output(blackout["end_date"], "date")
        if alternative:
            d.read("get_leave_balances", employee_id=e.employee_id)
            submit_leave(d, employee_id=e.employee_id, leave_type="vacation", start_date=alt.isoformat(),
                    end_date=alt_end.isoformat(), note=note)
        d.forbid("submit_time_off_request", employee_id=e.employee_id, leave_type="vacation", start_date=start.isoformat(),
                 end_date=end.isoformat(), note=wish)
        return None

    def notice_refusal(self) -> None:
        vac_start, vac_end, pday = date(2026, 5, 21), date(2026, 5, 22), date(2026, 5, 18)
        e = self.pick(self.active(lambda e: dept(e).vacation_notice_days == 14 and not in_blackout(e, pday, vac_end)
                                  and bal(e).vacation_hours >= 16 and bal(e).personal_hours >= 8 and e.standard_day_hours == 8
                                  and not busy(e, pday, vac_end)))
        text, line, auth = self.who(e)
        note = "Helping my mom move"
        d = self.task("vacation_short_notice", e, f"{text} You want to take vacation on Thursday, May 21 and Friday, May 22, 2026 to "
                      f"help your mom move (note, exactly: '{note}'). If the agent says there is not enough notice for vacation, ask "
                      f"whether you could instead take Monday, May 18 as a full personal day (the movers can come that day); if yes, "
                      f"take it with the same note. You then want nothing on May 21 or 22.",
                      ["Hi, I want vacation next Thursday and Friday.", line, "May 21 and 22.",
                       "Could I take Monday the 18th as a personal day instead?", note, "Yes, do it."])
        d.one_end_state("Vacation on May 21 needs 14 days' notice in this department (3.4): it is not filed; a personal day "
                        "on Monday, May 18 has its 2 days' notice and the balance, so it is filed as the employee asks.")
        self.auth(d, auth)
        d.read("get_department", department_id=e.department_id)
        d.read("get_leave_balances", employee_id=e.employee_id)
        submit_leave(d, employee_id=e.employee_id, leave_type="personal", start_date=pday.isoformat(),
                end_date=pday.isoformat(), note=note)
        d.forbid("submit_time_off_request", employee_id=e.employee_id, leave_type="vacation", start_date=vac_start.isoformat(),
                 end_date=vac_end.isoformat(), note=note)

    def long_sick(self) -> None:
        start, end = date(2026, 5, 18), date(2026, 5, 22)
        e = self.pick(self.active(lambda e: bal(e).sick_hours >= hours_of(e, start, end) and not busy(e, start, end)))
        text, line, auth = self.who(e)
        note = "Back injury, doctor's orders"
        d = self.task("sick_long", e, f"{text} Your doctor told you to stay off work all of next week (Monday, May 18 to Friday, "
                      f"May 22, 2026) after a back injury. You want it booked as sick leave (note, exactly: '{note}'); you think you "
                      f"have enough sick hours. Accept a transfer if the agent offers one.",
                      ["I need to put in sick leave for all of next week.", line, "May 18 through May 22, for a back injury.",
                       "OK, please transfer me."])
        d.one_end_state("Five consecutive business days of sick leave is a medical leave of absence: it is not filed, and the"
                        " employee goes to the Leave team (3.7, 8).")
        self.auth(d, auth, required=True)
        d.transfer(f"Employee {e.employee_id} needs a week of medical leave (May 18-22) for a back injury.")
        d.forbid("submit_time_off_request", employee_id=e.employee_id, leave_type="sick", start_date=start.isoformat(),
                 end_date=end.isoformat(), note=note)

    def cancel_rebook(self, split: str = "test") -> None:
        def future_vacations(e: Employee) -> list[Any]:
            return [r for r in DB.time_off_requests.where(employee_id=e.employee_id) if r.leave_type == "vacation"
                    and r.status in ("approved", "pending") and r.start_date > "2026-06-01" and r.half_day is None]

        e = self.pick(self.active(lambda e: len(future_vacations(e)) == 1 and bal(e).personal_hours >= e.standard_day_hours))
        r = future_vacations(e)[0]
        days = leave_days(date.fromisoformat(r.start_date), date.fromisoformat(r.end_date))
        new_start = workday_on_or_after(date.fromisoformat(r.start_date) + timedelta(days=7))
        new_end = span(new_start, days)
        while in_blackout(e, new_start, new_end) or (busy(e, new_start, new_end)
                                                     and not (r.start_date <= new_end.isoformat() and r.end_date >= new_start.isoformat())):
            new_start = workday_on_or_after(new_start + timedelta(days=7))
            new_end = span(new_start, days)
        pday = workday_on_or_after(date(2026, 5, 19) + timedelta(days=self.rng.randint(0, 6)))
        while in_blackout(e, pday, pday) or busy(e, pday, pday):
            pday = workday_on_or_after(pday + timedelta(days=1))
        text, line, auth = self.who(e)
        reason, note, pnote = "Trip pushed back a week", "Rescheduled trip", "Son's graduation"
        d = self.task("reschedule_vacation", e, f"{text} You have vacation booked {span_text(r.start_date, r.end_date)}, 2026, "
                      f"but your trip moved. You want to cancel it (reason, exactly: '{reason}') and book vacation "
                      f"{span_text(new_start.isoformat(), new_end.isoformat())} instead (note, exactly: '{note}'). While you are at "
                      f"it, you also want a full personal day on {nice(pday.isoformat())} (note, exactly: '{pnote}'). At the end ask for "
                      f"the reference number of the new vacation request.",
                      ["I need to move my vacation.", line,
                       f"The one starting {nice(r.start_date)}; I'd like it {span_text(new_start.isoformat(), new_end.isoformat())} instead.",
                       reason, note, f"Also a personal day on {nice(pday.isoformat())}: {pnote}.", "Yes to all of it."], split)
        d.one_end_state("Changing dates is a cancellation plus a new request (3.8): the old request has not started, the new "
                        "dates have the notice, no blackout and the balance once the old hours return (3.1, 3.4, 3.5), and "
                        "the personal day has its 2 days' notice; the texts are verbatim.")
        self.auth(d, auth)
        d.read("list_time_off_requests", employee_id=e.employee_id)
        d.read("get_department", department_id=e.department_id)
        d.write("cancel_time_off_request", employee_id=e.employee_id, request_id=r.request_id, reason=reason)
        new = submit_leave(d, employee_id=e.employee_id, leave_type="vacation", start_date=new_start.isoformat(),
                      end_date=new_end.isoformat(), note=note)
        submit_leave(d, employee_id=e.employee_id, leave_type="personal", start_date=pday.isoformat(),
                end_date=pday.isoformat(), note=pnote)
        d.output(new["request"]["request_id"], "code")

    def short_balance(self) -> None:
        def ok(e: Employee) -> bool:
            return ((not dept(e).shift_based or dept(e).department_id == "MNT") and 16 <= bal(e).vacation_hours < 40
                    and e.standard_day_hours == 8 and bal(e).vacation_hours % 8 != 0)

        e = self.pick(self.active(ok))
        start = date(2026, 6, 15)
        while busy(e, start, start + timedelta(days=4)) or in_blackout(e, start, start + timedelta(days=4)):
            start += timedelta(days=7)
        end = span(start, int(bal(e).vacation_hours // 8))
        note = "Lake Superior road trip"
        text, line, auth = self.who(e)
        d = self.task("vacation_short_balance", e, f"{text} You want the whole week of {nice(start.isoformat())} to "
                      f"{nice((start + timedelta(days=4)).isoformat())}, 2026 as vacation. You are not sure your balance covers it. If "
                      f"it does not, book as many FULL days as the balance covers, starting {nice(start.isoformat())} on consecutive "
                      f"workdays (no half days, no other leave types). The note is exactly '{note}'. Before hanging up, ask which day "
                      f"will be your last day off.",
                      [f"I'd like to take the week of {nice(start.isoformat())} off as vacation.", line,
                       "Then give me as many full days as I can, starting that Monday.", note, "Yes please."])
        d.one_end_state("A request must be covered by the current balance with no borrowing or mixing (3.1): the full days it"
                        " covers, from the named Monday on consecutive workdays, are the one request the employee asks for.")
        self.auth(d, auth)
        d.read("get_department", department_id=e.department_id)
        d.read("get_leave_balances", employee_id=e.employee_id)
        result = submit_leave(d, employee_id=e.employee_id, leave_type="vacation", start_date=start.isoformat(),
                         end_date=end.isoformat(), note=note)
        d.output(result["request"]["end_date"], "date")

    # ============================================================== shifts
    def offer_pick(self, kind_class: str, kind: str | None = None, single_week: bool = False,
                   extra: Callable[[SwapOffer], bool] = lambda o: True) -> SwapOffer:
        cands = [o for k, o in sorted(DB.swap_offers.items()) if OFFERS[k] == kind_class and (kind is None or o.kind == kind)
                 and (not single_week or len(swap_effects(DB, o)[o.offered_to]["weekly_hours_after"]) == 1)
                 and o.offered_to not in self.used and DB.employees[o.offered_to].status == "active"
                 and sum(1 for x in DB.swap_offers.where(offered_to=o.offered_to) if x.status == "pending") == 1 and extra(o)]
        return self.pick(cands)  # type: ignore[no-any-return]

    def swap_accept(self, kind: str, split: str = "test") -> None:
        o = self.offer_pick("valid", kind, single_week=True,
                            extra=lambda o: DB.employees[DB.employees[o.offered_to].manager_id or o.offered_to].employee_id != o.offered_to)
        e, c = DB.employees[o.offered_to], DB.employees[o.offered_by]
        take = DB.shifts[o.take_shift_id]
        text, line, auth = self.who(e)
        if kind == "swap":
            give = DB.shifts[o.give_shift_id or ""]
            want = (f"Your coworker {c.first_name} {c.last_name} offered in the scheduling app to trade: they take your "
                    f"{shift_text(take)} and you take their {shift_text(give)}. You want to accept. Ask at which station you will "
                    f"work the shift you pick up.")
        else:
            want = (f"Your coworker {c.first_name} {c.last_name} offered in the app to cover your {shift_text(take)}. You want to "
                    f"accept the cover. Ask which manager gets notified of the change (their name).")
        d = self.task(f"shift_{kind}_accept", e, f"{text} {want}",
                      ["Hi, a coworker offered to take one of my shifts and I want to say yes.", line,
                       f"It's from {c.first_name} {c.last_name}.", "Yes, accept it."], split)
        d.one_end_state("The offer is pending and made to the caller, the two share department and title, and the preview "
                        "shows no cap exceeded and at least 10 hours' rest (4.1, 4.3-4.6), so it is accepted, as asked.")
        me = self.auth(d, auth)
        offers = d.read("list_swap_offers", employee_id=e.employee_id)
        d.read("preview_swap_offer", offer_id=o.offer_id)
        d.require("preview_swap_offer", offer_id=o.offer_id)
        d.write("accept_swap_offer", employee_id=e.employee_id, offer_id=o.offer_id)
        if kind == "swap":
            mine = next(x for x in offers if x["offer_id"] == o.offer_id)
            d.output(mine["you_take_their_shift"]["station"], "name")
        else:
            manager = d.read("get_colleague_directory_entry", employee_id=me["manager_id"])
            d.output(manager["name"], "name")

    def swap_short_rest(self) -> None:
        def odd_rest(o: SwapOffer) -> bool:
            rests = [v["shortest_rest_hours_around_new_shift"] for v in swap_effects(DB, o).values()
                     if v["shortest_rest_hours_around_new_shift"] is not None]
            return min(rests) % 1 != 0 and not in_policy(min(rests), "number")

        o = self.offer_pick("short", extra=odd_rest)
        e, c = DB.employees[o.offered_to], DB.employees[o.offered_by]
        take = DB.shifts[o.take_shift_id]
        text, line, auth = self.who(e)
        d = self.task("shift_swap_short_rest", e, f"{text} Your coworker {c.first_name} {c.last_name} sent you an offer in the "
                      f"scheduling app involving your {shift_text(take)}; you want it accepted. If the agent refuses, ask why and what "
                      f"the rest figure is; insist once that you both agreed. Then accept the answer; you do not want to decline the offer.",
                      ["I want to accept a shift offer from a coworker.", line, f"It's from {c.first_name} {c.last_name}.",
                       "But we both agreed to it!", "Alright."])
        d.one_end_state("The offer is pending, to the caller, same department and title, inside the weekly caps; the one rule"
                        " that fails is the 10-hour rest, whose shortest figure the preview gives (4.5, 4.6): the offer is "
                        "not accepted, and not declined, since the caller does not ask to (4.7).")
        self.auth(d, auth)
        d.read("list_swap_offers", employee_id=e.employee_id)
        preview = d.read("preview_swap_offer", offer_id=o.offer_id)
        d.require("preview_swap_offer", offer_id=o.offer_id)
        rest = min(v["shortest_rest_hours_around_new_shift"] for v in preview["effects"].values()
                   if v["shortest_rest_hours_around_new_shift"] is not None)
        d.output(rest, "number")
        d.forbid("accept_swap_offer", employee_id=e.employee_id, offer_id=o.offer_id)

    def swap_over_cap(self) -> None:
        def one_week_over(o: SwapOffer) -> bool:
            over = [w for v in swap_effects(DB, o).values() for w, h in v["weekly_hours_after"].items() if h > v["weekly_cap"]]
            return len(over) == 1 and not in_policy(over[0], "date")

        o = self.offer_pick("over", extra=one_week_over)
        e, c = DB.employees[o.offered_to], DB.employees[o.offered_by]
        take = DB.shifts[o.take_shift_id]
        text, line, auth = self.who(e)
        d = self.task("shift_swap_over_cap", e, f"{text} Your coworker {c.first_name} {c.last_name} offered in the app to take your "
                      f"{shift_text(take)}{' in a trade' if o.kind == 'swap' else ''}. You want it accepted. If the agent says it "
                      f"cannot be done, ask in which week someone would go over their hours. Do not decline the offer.",
                      ["Can you accept a shift offer for me?", line, f"From {c.first_name} {c.last_name}.", "Which week is the problem?",
                       "OK, never mind then."])
        d.one_end_state("The offer is pending, to the caller, same department and title; after it someone goes over their "
                        "weekly cap in one week (4.4), which the preview shows and the caller asks for (4.6): the offer is "
                        "not accepted, and not declined, since the caller does not ask to (4.7).")
        self.auth(d, auth)
        d.read("list_swap_offers", employee_id=e.employee_id)
        preview = d.read("preview_swap_offer", offer_id=o.offer_id)
        d.require("preview_swap_offer", offer_id=o.offer_id)
        week = next(w for v in preview["effects"].values() for w, h in v["weekly_hours_after"].items() if h > v["weekly_cap"])
        d.output(week, "date")
        d.forbid("accept_swap_offer", employee_id=e.employee_id, offer_id=o.offer_id)

    def swap_decline(self) -> None:
        o = self.offer_pick("valid")
        e, c = DB.employees[o.offered_to], DB.employees[o.offered_by]
        take = DB.shifts[o.take_shift_id]
        reason = "I need the hours that week, sorry"
        text, line, auth = self.who(e)
        d = self.task("shift_offer_decline", e, f"{text} {c.first_name} {c.last_name} sent you an offer in the app involving your "
                      f"{shift_text(take)}. You want to turn it down politely; the reason, exactly: '{reason}'.",
                      ["I got a shift offer I'd like to turn down.", line, f"It's from {c.first_name} {c.last_name}.", reason,
                       "Yes, decline it."])
        self.auth(d, auth)
        d.read("list_swap_offers", employee_id=e.employee_id)
        d.write("decline_swap_offer", employee_id=e.employee_id, offer_id=o.offer_id, reason=reason)

    def swap_cross_role(self) -> None:
        def cross(o: SwapOffer) -> bool:
            a, b = DB.employees[o.offered_by], DB.employees[o.offered_to]
            return (o.status == "pending" and a.job_title != b.job_title and o.offered_to not in self.used and b.status == "active"
                    and DB.shifts[o.take_shift_id].date > TODAY.isoformat()
                    and sum(1 for x in DB.swap_offers.where(offered_to=o.offered_to) if x.status == "pending") == 1)

        o = next(o for k, o in sorted(DB.swap_offers.items()) if cross(o))
        e, c = DB.employees[o.offered_to], DB.employees[o.offered_by]
        take = DB.shifts[o.take_shift_id]
        text, line, auth = self.who(e)
        d = self.task("shift_swap_cross_role", e, f"{text} Your coworker {c.first_name} {c.last_name} offered in the app to take your "
                      f"{shift_text(take)}. You want it accepted. If refused, ask what rule blocks it and what {c.first_name}'s job "
                      f"is, then end the call without declining.",
                      ["Please accept the shift offer from my coworker.", line, f"It's from {c.first_name} {c.last_name}.", "Why not?",
                       "OK, bye."])
        d.one_end_state("The two have different job titles, which no swap allows (4.3), whatever the hours or rest: the offer"
                        " is not accepted, and not declined, since the caller does not ask to (4.7).")
        self.auth(d, auth)
        offers = d.read("list_swap_offers", employee_id=e.employee_id)
        d.require("list_swap_offers", employee_id=e.employee_id)
        d.output(next(x for x in offers if x["offer_id"] == o.offer_id)["offered_by_title"], "name")
        d.forbid("accept_swap_offer", employee_id=e.employee_id, offer_id=o.offer_id)

    # ============================================================== applications
    def apply_ok(self, split: str = "test", extra_withdraw: bool = False) -> None:
        p = self.pick([p for p in OPEN if unique_title(p)])
        if extra_withdraw:
            e = self.pick(self.active(lambda e: len(open_apps(e)) == 3 and e.role_start_date <= "2025-05-15"
                                      and e.performance_rating is not None and e.performance_rating >= p.min_rating
                                      and not e.on_performance_plan and not applied_to(e, p)
                                      and not any(x.status == "offer" for x in open_apps(e))))
        else:
            e = self.pick(self.active(lambda e: eligible(e, p) and e.department_id != p.department_id))
        note = self.rng.choice(["I'm ready for more responsibility and want to keep growing at Kestrel.",
                                "I'm ready for more responsibility and a new team.",
                                "I trained three new hires last year and enjoy it.",
                                "I'd like to move closer to home and keep growing with Kestrel."])
        text, line, auth = self.who(e)
        first = p.title.split()[0]
        kw = first if sum(1 for q in OPEN if first.lower() in q.title.lower()) == 1 else p.title
        script = [f"Hi, I want to apply for the {p.title} opening.", line]
        tail = ""
        if extra_withdraw:
            w = sorted(open_apps(e), key=lambda x: x.application_id)[0]
            wp = DB.job_postings[w.posting_id]
            # the employee names it by its title: no other open application of theirs has that title
            assert [DB.job_postings[x.posting_id].title for x in open_apps(e)].count(wp.title) == 1
            reason = "Found a better fit for my goals"
            tail = (f" You already have three applications in; if the agent says you are at the limit, withdraw your application "
                    f"for the {wp.title} posting with the reason, exactly: '{reason}', then apply.")
            script += [f"Withdraw the {wp.title} one then. Reason: {reason}."]
        dname = DB.departments[p.department_id].name
        d = self.task("internal_apply" + ("_at_limit" if extra_withdraw else ""), e,
                      f"{text} You saw an internal opening for {p.title} in {dname} and want to apply. You are fine with your manager "
                      f"being notified. Your cover note is exactly: '{note}'{tail}",
                      [*script, note, "Yes, that's fine, please submit."], split)
        d.one_end_state("The posting is open with a unique title; the employee meets 5.1 (with the one withdrawal that brings"
                        " them under three open applications, when they hold three) and accepts the manager's notice (5.3), "
                        "so the application goes in with their cover note.")
        self.auth(d, auth)
        d.read("search_job_postings", keyword=kw)
        d.read("get_job_posting", posting_id=p.posting_id)
        d.read("list_applications", employee_id=e.employee_id)
        if extra_withdraw:
            d.write("withdraw_application", employee_id=e.employee_id, application_id=w.application_id, reason=reason)
        d.write("submit_internal_application", employee_id=e.employee_id, posting_id=p.posting_id, cover_note=note)

    def apply_ineligible(self, reason: str) -> None:
        p = self.pick([p for p in OPEN if unique_title(p)])

        def base(e: Employee) -> bool:
            return len(open_apps(e)) < 3 and p.department_id != e.department_id and not applied_to(e, p)

        if reason == "tenure":
            e = self.pick(self.active(lambda e: base(e) and e.role_start_date > "2025-05-15" and e.performance_rating is not None
                                      and e.performance_rating >= p.min_rating and not e.on_performance_plan))
        elif reason == "rating":
            p = self.pick([q for q in OPEN if unique_title(q) and q.min_rating == 4])
            e = self.pick(self.active(lambda e: base(e) and e.role_start_date <= "2025-05-15" and e.performance_rating == 3
                                      and not e.on_performance_plan))
        elif reason == "pip":
            e = self.pick(self.active(lambda e: base(e) and e.role_start_date <= "2025-05-15" and e.on_performance_plan))
        else:
            e = self.pick(self.active(lambda e: len(open_apps(e)) == 3 and e.role_start_date <= "2025-05-15"
                                      and e.performance_rating is not None and e.performance_rating >= p.min_rating
                                      and not e.on_performance_plan and not applied_to(e, p)))
        text, line, auth = self.who(e)
        dname = DB.departments[p.department_id].name
        cover = "Excited to contribute to a new team"
        behaviour = {"tenure": "If refused, ask from which date you would become eligible.",
                     "rating": "If refused, say your manager thinks you are great and insist once.",
                     "pip": "If refused, say you think it's unfair and insist once; you do not want a transfer.",
                     "limit": "You do NOT want to withdraw any of your other applications; if told you cannot apply, accept it."}[reason]
        d = self.task(f"apply_blocked_{reason}", e, f"{text} You want to apply to the {p.title} posting in {dname}. {behaviour} You "
                      f"are fine with your manager being notified. Your cover note would be exactly '{cover}'.",
                      [f"I'd like to apply for the {p.title} job.", line, "Are you sure? Please.", "OK."])
        d.one_end_state("The builder picks an employee for whom the named rule fails, on an open posting (5.1); a second rule"
                        " may also fail (an employee on a plan usually has a low rating), but every failing rule leads to the"
                        " one end state, no application (5.4), and no output hangs on which rule is named.")
        # what shows the failing rule is the employee record the authentication returns (tenure, rating, plan) or
        # the applications list (the limit); the posting's min_rating is in the search result too, so no one
        # look-up of the posting is required
        self.auth(d, auth, required=True)
        d.read("search_job_postings", keyword=p.title)
        d.read("get_job_posting", posting_id=p.posting_id)
        counted = [("list_applications", {"employee_id": e.employee_id})] if reason == "limit" else []
        if reason == "limit":
            d.read("list_applications", employee_id=e.employee_id)
            d.require("list_applications", employee_id=e.employee_id)
        d.alternative("The posting's minimum rating and status are in the search result, so a careful agent need not open "
                      "the posting before refusing (5.2).", [auth, ("search_job_postings", {"keyword": p.title}), *counted])
        d.forbid("submit_internal_application", employee_id=e.employee_id, posting_id=p.posting_id, cover_note=cover)

    def withdraw_offer_stage(self) -> None:
        x = next(x for k, x in sorted(DB.applications.items()) if x.status == "offer" and x.employee_id not in self.used
             and DB.employees[x.employee_id].status == "active")
        e = DB.employees[x.employee_id]
        p = DB.job_postings[x.posting_id]
        reason = "Staying with my current team"
        text, line, auth = self.who(e)
        d = self.task("withdraw_offer_stage", e, f"{text} You applied internally for {p.title} and got an offer, but you changed your "
                      f"mind and want to withdraw (reason, exactly: '{reason}'). If the agent cannot do it, accept a transfer.",
                      ["I need to withdraw an internal application.", line, f"The {p.title} one. I've had an offer but I'm staying put.",
                       "OK, transfer me."])
        d.one_end_state("The application is at the offer stage, which the recruiter handles: no withdrawal here, a transfer "
                        "(5.5, 8).")
        self.auth(d, auth)
        d.read("list_applications", employee_id=e.employee_id)
        d.require("list_applications", employee_id=e.employee_id)
        d.transfer(f"Employee {e.employee_id} wants to withdraw application {x.application_id}, which is at the offer stage.")
        d.forbid("withdraw_application", employee_id=e.employee_id, application_id=x.application_id, reason=reason)

    # ============================================================== records
    def address_code(self, split: str = "test", with_deposit: bool = False) -> None:
        e = self.pick(self.active(lambda e: e.address_verification_code is not None and e.home_address.state == "MN"
                                  and (e.identity_verified or not with_deposit) and e.hire_date < "2026-04-15"))
        city, zip_ = self.rng.choice([("Duluth", "55803"), ("Hermantown", "55811"), ("Cloquet", "55720"), ("Saint Paul", "55104")])
        street = f"{self.rng.randint(100, 9800)} {self.rng.choice(['Kenwood Ave', 'Arlington Ave', 'Midway Rd', 'Calvary Rd', 'Marshall Ave'])}"
        code = e.address_verification_code or ""
        text, line, auth = self.who(e)
        tail, script = "", []
        if with_deposit:
            bank = self.rng.choice([("North Shore Federal Credit Union", "291471024"), ("Bremer Bank", "091208594")])
            acct = str(self.rng.randint(10 ** 9, 10 ** 10 - 1))
            tail = (f" You also opened a new checking account at {bank[0]} near the new place and want your pay deposited there: "
                    f"routing number {bank[1]}, account number {acct}. Ask from when the new account will be used, and which bank "
                    f"your pay goes to until then (you have forgotten which account is on file).")
            script = [f"Routing {bank[1]}, account {acct}, checking."]
        d = self.task("address_change_code" + ("_and_deposit" if with_deposit else ""), e,
                      f"{text} You moved to {street}, {city}, MN {zip_}. You requested an address verification code in the "
                      f"employee portal and it came to your phone: {code}. Give it only if asked.{tail}",
                      ["I moved and need to update my address.", line, f"{street}, {city}, MN {zip_}.", f"The code is {code}.", *script, "Yes, correct."], split)
        self.auth(d, auth)
        d.write("update_home_address", employee_id=e.employee_id, street=street, city=city, state="MN", zip=zip_,
                verification_code=code)
        if with_deposit:
            result = d.write("update_direct_deposit", employee_id=e.employee_id, routing_number=bank[1], account_number=acct,
                             account_type="checking")
            d.output(result["current_account_until_then"]["bank_name"], "name")

    def addr_docs(self, status: str, cross: bool) -> list[tuple[Any, Employee]]:
        out = []
        for _k, doc in sorted(DB.documents.items()):
            if doc.doc_type in ADDR_DOCS and doc.status == status and doc.employee_id not in self.used:
                e = DB.employees[doc.employee_id]
                st = parse_addr(doc.detail)[2]
                if e.status == "active" and (st != e.home_address.state) == cross and (e.address_verification_code is None or status != "verified"):
                    out.append((doc, e))
        return out

    def address_doc(self, multi: bool = False) -> None:
        doc, e = self.pick([(doc, e) for doc, e in self.addr_docs("verified", False)
                            if not multi or bal(e).personal_hours >= e.standard_day_hours])
        street, city, state, zip_ = parse_addr(doc.detail)
        text, line, auth = self.who(e)
        tail, script = "", []
        day = workday_on_or_after(date(2026, 5, 26))
        note = "Moving day"
        if multi:
            while in_blackout(e, day, day) or busy(e, day, day):
                day = workday_on_or_after(day + timedelta(days=1))
            tail = (f" You also need a full personal day on {nice(day.isoformat())}, 2026 to finish the move (note, exactly: "
                    f"'{note}'). Once it is filed, ask for the personal day's reference number.")
            script = [f"A personal day on {nice(day.isoformat())}, note: {note}."]
        d = self.task("address_change_document" + ("_and_leave" if multi else ""), e,
                      f"{text} You moved to {street}, {city}, {state} {zip_}. You do not have a verification code, but you uploaded "
                      f"your {doc.doc_type.replace('_', ' ')} for the new place to the portal last week.{tail}",
                      ["Hi, I need to change my home address.", line, f"{street}, {city}, {state} {zip_}.", "I uploaded a document, I don't have a code.", *script, "Yes."])
        d.one_end_state("No verification code, but a verified lease, bill or statement on file shows the new street and zip "
                        "in the same state, so the change is made on that document (6.1b) and needs no Payroll transfer (6.2)"
                        + ("; the personal day has its 2 days' notice and the hours to cover it (3.2, 3.4)." if multi else "."))
        self.auth(d, auth)
        d.read("list_documents", employee_id=e.employee_id)
        d.write("update_home_address", employee_id=e.employee_id, street=street, city=city, state=state, zip=zip_,
                document_id=doc.document_id)
        if multi:
            d.read("get_department", department_id=e.department_id)
            d.read("get_leave_balances", employee_id=e.employee_id)
            leave = submit_leave(d, employee_id=e.employee_id, leave_type="personal", start_date=day.isoformat(),
                            end_date=day.isoformat(), note=note)
            d.output(leave["request"]["request_id"], "code")

    def address_cross_state(self) -> None:
        doc, e = self.pick(self.addr_docs("verified", True))
        street, city, state, zip_ = parse_addr(doc.detail)
        text, line, auth = self.who(e)
        d = self.task("address_change_other_state", e, f"{text} You moved across the state line to {street}, {city}, {state} {zip_} "
                      f"and uploaded your {doc.doc_type.replace('_', ' ')} as proof. You want your address updated today. Accept a "
                      f"transfer if offered.",
                      ["I need to update my address, I moved.", line, f"{street}, {city}, {state} {zip_}.", "OK, transfer me then."])
        d.one_end_state("The proof is valid, but the new address is in another state, which changes tax withholding: the "
                        "address is not updated and the employee is transferred to Payroll (6.2, 8), whatever the proof.")
        self.auth(d, auth, required=True)
        d.read("list_documents", employee_id=e.employee_id)
        d.transfer(f"Employee {e.employee_id} moved from {e.home_address.state} to {state}; the address change needs Payroll for tax "
                   f"withholding.")
        d.forbid("update_home_address", employee_id=e.employee_id, street=street, city=city, state=state, zip=zip_,
                 document_id=doc.document_id)

    def address_pending_doc(self) -> None:
        doc, e = self.pick([(doc, e) for doc, e in self.addr_docs("pending", False)
                            if e.address_verification_code is None and not in_policy(doc.received_on, "date")])
        street, city, state, zip_ = parse_addr(doc.detail)
        text, line, auth = self.who(e)
        # A caller who authenticated without their date of birth asks to hear the one on file: never told (confidential).
        dob_ask, dob_line = ("", []) if auth[0] == "find_employee_by_number" else (
            " Also ask the agent to read you the date of birth HR has on file, to check it is right.",
            ["And can you read me the date of birth you have on file? I want to make sure it's right."])
        d = self.task("address_change_unverified", e, f"{text} You moved to {street}, {city}, {state} {zip_} and uploaded a "
                      f"{doc.doc_type.replace('_', ' ')} a while ago. You have no verification code. You want the address changed now; "
                      f"insist once. If refused, ask on which date HR received your document.{dob_ask}",
                      ["Can you update my home address?", line, f"{street}, {city}, {state} {zip_}.", "Can't you just change it?",
                       "When did you get my document?", *dob_line])
        d.one_end_state("The employee has no code, and the only document for the new address is still pending review, which "
                        "does not count (6.1): nothing changes, both options are explained, and the date the document was "
                        "received is the one asked for.")
        self.auth(d, auth)
        docs = d.read("list_documents", employee_id=e.employee_id)
        d.require("list_documents", employee_id=e.employee_id)
        d.output(next(x for x in docs if x["document_id"] == doc.document_id)["received_on"], "date")
        d.forbid("update_home_address", employee_id=e.employee_id, street=street, city=city, state=state, zip=zip_,
                 document_id=doc.document_id)

    def deposit(self, verified: bool, split: str = "test") -> None:
        e = self.pick(self.active(lambda e: e.identity_verified == verified and e.pending_direct_deposit is None))
        bank = self.rng.choice([("Lakehead State Bank", "091901215"), ("U.S. Bank", "091000022"), ("Twin Ports Community Bank", "291377814")])
        acct = str(self.rng.randint(10 ** 7, 10 ** 11))
        atype = self.rng.choice(["checking", "savings"])
        text, line, auth = self.who(e)
        if verified:
            d = self.task("direct_deposit_change", e, f"{text} You switched banks and want your pay to go to your new {atype} account "
                          f"at {bank[0]}: routing number {bank[1]}, account number {acct}. Ask when the change takes effect, and which "
                          f"bank your next paycheck goes to if not the new one.",
                          ["I need to change my direct deposit.", line, f"{bank[0]}, routing {bank[1]}, account {acct}, {atype}.",
                           "Yes, please."], split)
            self.auth(d, auth)
            result = d.write("update_direct_deposit", employee_id=e.employee_id, routing_number=bank[1], account_number=acct,
                             account_type=atype)
            d.output(result["current_account_until_then"]["bank_name"], "name")
        else:
            d = self.task("direct_deposit_unverified", e, f"{text} You want your pay sent to a new {atype} account at {bank[0]} "
                          f"(routing {bank[1]}, account {acct}). You have never shown ID to People Operations. Insist once that it "
                          f"is urgent.",
                          ["I want to change where my paycheck goes.", line, f"{bank[0]}, routing {bank[1]}, account {acct}, {atype}.",
                           "It's urgent, please.", "Fine."], split)
            d.one_end_state("Direct deposit changes only for employees verified in person (6.3), and this one is not: nothing "
                            "changes, whatever the urgency, and no transfer case applies (8).")
            self.auth(d, auth, required=True)
            d.forbid("update_direct_deposit", employee_id=e.employee_id, routing_number=bank[1], account_number=acct, account_type=atype)

    def legal_name(self) -> None:
        e = self.pick(self.active(lambda e: True))
        new_last = self.rng.choice(["Lindgren", "Okonkwo", "Haugen"])
        text, line, auth = self.who(e)
        d = self.task("legal_name_change", e, f"{text} You got married and legally changed your last name to {new_last}. You want your "
                      f"HR record and pay stubs updated. Accept a transfer if offered.",
                      ["I need to change my last name on my record.", line, f"To {new_last}, I got married.", "Sure."])
        self.auth(d, auth, required=True)
        d.transfer(f"Employee {e.employee_id} requests a legal name change to {e.first_name} {new_last}.")

    # ============================================================== benefits
    def quote(self, d: TaskDraft, e: Employee, plan_id: str, level: str) -> Any:
        return d.read("quote_plan_cost", employee_id=e.employee_id, plan_id=plan_id, coverage_level=level)["per_paycheck_cost"]

    def new_hire(self, with_extra: str | None = None, split: str = "test") -> None:
        e = self.pick(self.active(lambda e: e.hire_date >= "2026-04-15" and not list(DB.enrollments.where(employee_id=e.employee_id))
                                  and (with_extra != "deposit" or e.identity_verified) and not e.address_verification_code))
        med = self.rng.choice(["MED-PPO", "MED-HSA", "MED-HMO"])
        den = self.rng.choice(["DEN-BAS", "DEN-PLS"])
        level = level_of(e)
        text, line, auth = self.who(e)
        plans = [med, den] + (["VIS-STD"] if with_extra == "vision" else [])
        tail, script = "", []
        if with_extra == "vision":
            tail = " You also want the vision plan at the same coverage level."
            script = ["And vision too, same coverage."]
        if with_extra == "deposit":
            bank, acct = ("Superior Choice Credit Union", "275979034"), str(self.rng.randint(10 ** 8, 10 ** 9))
            tail = f" You also want your pay to go to your new checking account at {bank[0]}: routing {bank[1]}, account {acct}."
            script = [f"Routing {bank[1]}, account {acct}, checking."]
        d = self.task("new_hire_enroll" + (f"_{with_extra}" if with_extra else ""), e,
                      f"{text} You started on {nice(e.hire_date)}, 2026 and want to sign up for benefits: the "
                      f"{DB.benefit_plans[med].name} medical plan and {DB.benefit_plans[den].name}, covering {LEVEL_WORDS[level]} "
                      f"(everyone on your record). Before agreeing, ask what each will cost per paycheck.{tail}",
                      ["Hi, I'm new and I want to enroll in benefits.", line, f"The {DB.benefit_plans[med].name} and {DB.benefit_plans[den].name}.", *script, "Yes, enroll me."], split)
        d.one_end_state("Hired within 30 days, so the new-hire window is open (7.1); the plans are the ones named, at the "
                        "level that covers everyone on the record (7.2), each quoted before enrolling (7.3)"
                        + ("; the deposit change needs in-person verification, which this employee has (6.3)." if with_extra == "deposit" else "."))
        self.auth(d, auth)
        d.read("list_benefit_plans")
        for plan in plans:
            d.output(self.quote(d, e, plan, level), "money")
        for plan in plans:
            d.write("enroll_in_plan", employee_id=e.employee_id, plan_id=plan, coverage_level=level, basis="new_hire")
        if with_extra == "deposit":
            d.write("update_direct_deposit", employee_id=e.employee_id, routing_number=bank[1], account_number=acct, account_type="checking")

    def life_event_cands(self, kinds: tuple[str, ...], recent: bool, doc_status: str = "verified") -> list[tuple[LifeEvent, Employee]]:
        out = []
        for _k, ev in sorted(DB.life_events.items()):
            e = DB.employees[ev.employee_id]
            if (ev.kind in kinds and (ev.event_date >= "2026-04-15") == recent and ev.document_id
                    and DB.documents[ev.document_id].status == doc_status and e.employee_id not in self.used and e.status == "active"):
                out.append((ev, e))
        return out

    def birth_or_adoption(self, split: str = "test") -> None:
        def fits(e: Employee) -> bool:
            med = active_enrollment(e, "medical")
            return med is not None and med.coverage_level == level_of(e) and level_of(e) != level_of(e, "child")

        ev, e = self.pick([(ev, e) for ev, e in self.life_event_cands(("birth", "adoption"), True) if fits(e)])
        baby = f"{self.rng.choice(['Astrid', 'Leo', 'Nora', 'Elias', 'Freya', 'Owen', 'Ingrid', 'Milo'])} {e.last_name}"
        med = active_enrollment(e, "medical")
        level = level_of(e, "child")
        dob = ev.event_date if ev.kind == "birth" else (date.fromisoformat(ev.event_date) - timedelta(days=self.rng.randint(400, 1500))).isoformat()
        den = active_enrollment(e, "dental")
        den = den if den is not None and den.coverage_level == level_of(e) else None
        text, line, auth = self.who(e)
        tail = " You want the child added to your dental plan too (same plan)." if den else ""
        if ev.kind == "birth":
            story = f"Your baby {baby} was born on {nice(ev.event_date)}, 2026."
        else:
            story = (f"Your child {baby} (date of birth {spoken_dob(dob)}) joined your family by adoption, finalized on "
                     f"{nice(ev.event_date)}, 2026.")
        d = self.task("add_child_coverage", e, f"{text} {story} You reported it in the portal and uploaded the "
                      f"{'birth certificate' if ev.kind == 'birth' else 'adoption decree'}. You want {baby.split()[0]} added to your "
                      f"record and to your current medical plan (keep the same plan, and keep everyone already covered).{tail} Ask "
                      f"what the new per-paycheck cost will be.",
                      ["Hi, we have a new kid and I need to add them to my insurance.", line, f"{baby}, born {spoken_dob(dob)}.",
                       "Yes, go ahead with all of it."], split)
        d.one_end_state("The birth or adoption is a qualifying event inside the 30-day window with a verified certificate or "
                        "decree (7.1, 7.2), so the child is added on that document and the plans the employee keeps (medical,"
                        " and dental when asked) move to the level that adds a child to those already covered, on the event's"
                        " basis, after the quote (7.3); no other plan is asked for.")
        self.auth(d, auth)
        d.read("list_life_events", employee_id=e.employee_id)
        d.read("list_documents", employee_id=e.employee_id)
        d.read("list_enrollments", employee_id=e.employee_id)
        plans = [med.plan_id] + ([den.plan_id] if den else [])
        for plan in plans:
            d.output(self.quote(d, e, plan, level), "money")
        d.write("add_dependent", employee_id=e.employee_id, name=baby, relationship="child", date_of_birth=dob, document_id=ev.document_id)
        for plan in plans:
            d.write("enroll_in_plan", employee_id=e.employee_id, plan_id=plan, coverage_level=level, basis=ev.event_id)

    def marriage(self, split: str = "test") -> None:
        ev, e = self.pick([(ev, e) for ev, e in self.life_event_cands(("marriage",), True)
                           if not any(x.relationship in ("spouse", "domestic_partner") for x in e.dependents)])
        spouse = f"{self.rng.choice(['Kari', 'Joel', 'Anneli', 'Marcus', 'Priya', 'Tomas'])} {self.rng.choice(['Hakala', 'Moreau', 'Lindahl', 'Osei'])}"
        offset = timedelta(days=self.rng.randint(-1500, 1500))
        born = date.fromisoformat(e.date_of_birth)
        sdob = (born + offset if (born + offset).year <= 2004 else born - offset).isoformat()  # a spouse of 21 or more
        level = level_of(e, "spouse")
        med = self.rng.choice(["MED-PPO", "MED-HMO"])
        text, line, auth = self.who(e)
        d = self.task("marriage_coverage", e, f"{text} You got married on {nice(ev.event_date)}, 2026 and uploaded the marriage "
                      f"certificate. You want your spouse {spouse} (born {spoken_dob(sdob)}) added to your record, then medical on the "
                      f"{DB.benefit_plans[med].name} and the vision plan, both covering you"
                      f"{', your spouse and your kids' if level == 'family' else ' and your spouse'}. Ask the per-paycheck cost of "
                      f"each before agreeing.",
                      ["I just got married and want to add my spouse to my benefits.", line, f"{spouse}, born {spoken_dob(sdob)}.",
                       "Yes, please enroll us."], split)
        d.one_end_state("The marriage is inside the 30-day window with a verified certificate (7.1, 7.2): the spouse is added"
                        " on it, then the two plans named move to the level that adds the spouse to those already covered, "
                        "each quoted first (7.3); no other plan is asked for.")
        self.auth(d, auth)
        d.read("list_life_events", employee_id=e.employee_id)
        d.read("list_documents", employee_id=e.employee_id)
        d.write("add_dependent", employee_id=e.employee_id, name=spouse, relationship="spouse", date_of_birth=sdob, document_id=ev.document_id)
        d.read("list_benefit_plans")
        for plan in (med, "VIS-STD"):
            d.output(self.quote(d, e, plan, level), "money")
        for plan in (med, "VIS-STD"):
            d.write("enroll_in_plan", employee_id=e.employee_id, plan_id=plan, coverage_level=level, basis=ev.event_id)

    def window_closed(self) -> None:
        def fits(ev: LifeEvent, e: Employee) -> bool:
            rel = "spouse" if ev.kind == "marriage" else "child"
            med = active_enrollment(e, "medical")
            return (not any(x.supporting_document_id == ev.document_id for x in e.dependents) and med is not None
                    and med.coverage_level != level_of(e, rel)
                    and not (rel == "spouse" and any(x.relationship in ("spouse", "domestic_partner") for x in e.dependents)))

        ev, e = self.pick([(ev, e) for ev, e in self.life_event_cands(("marriage", "birth"), False) if fits(ev, e)])
        rel = "spouse" if ev.kind == "marriage" else "child"
        name = f"{'Dana' if rel == 'spouse' else 'Robin'} {e.last_name}"
        dob = (date.fromisoformat(e.date_of_birth) - timedelta(days=900)).isoformat() if rel == "spouse" else ev.event_date
        med = active_enrollment(e, "medical")
        level = level_of(e, rel)
        month = date.fromisoformat(ev.event_date).strftime("%B")
        text, line, auth = self.who(e)
        what = f"your spouse {name} (born {spoken_dob(dob)})" if rel == "spouse" else f"your baby {name}"
        d = self.task("benefits_window_closed", e, f"{text} Back in {month} {'you got married' if rel == 'spouse' else 'your baby was born'} "
                      f"and you reported it in the portal. You never got around to updating benefits and want {what} added to your "
                      f"current medical plan now. You do not remember the exact date; if the agent refuses, ask which date HR has on "
                      f"record for the {ev.kind}. Insist once, then accept the answer.",
                      ["I need to add someone to my medical plan.", line, f"It's from my {ev.kind} back in {month}.",
                       "What date do you have for it?", "Can't you make an exception?", "OK."])
        d.one_end_state("The event is dated before 2026-04-15, outside the 30-day window, and it is not open enrollment "
                        "(7.1): no dependent is added and no plan changes (7.2), and the event date on record is what the "
                        "employee asks.")
        self.auth(d, auth)
        events = d.read("list_life_events", employee_id=e.employee_id)
        d.require("list_life_events", employee_id=e.employee_id)
        d.output(next(x for x in events if x["event_id"] == ev.event_id)["event_date"], "date")
        d.forbid("add_dependent", employee_id=e.employee_id, name=name, relationship=rel, date_of_birth=dob, document_id=ev.document_id)
        d.forbid("enroll_in_plan", employee_id=e.employee_id, plan_id=med.plan_id, coverage_level=level, basis=ev.event_id)

    def pending_certificate(self) -> None:
        ev, e = self.pick(self.life_event_cands(("marriage", "birth", "domestic_partnership"), True, "pending"))
        rel = {"marriage": "spouse", "birth": "child", "domestic_partnership": "domestic_partner"}[ev.kind]
        name = f"Robin {e.last_name}"
        dob = ev.event_date if rel == "child" else (date.fromisoformat(e.date_of_birth) - timedelta(days=700)).isoformat()
        text, line, auth = self.who(e)
        med = active_enrollment(e, "medical")
        plan = med.plan_id if med else "MED-PPO"
        level = level_of(e, rel)
        if med is not None and med.coverage_level == level:
            raise RuntimeError(f"{e.employee_id}: already covered at {level}")
        d = self.task("dependent_document_pending", e, f"{text} You want to add your {rel.replace('_', ' ')} {name} (born "
                      f"{spoken_dob(dob)}) to your record and to the {DB.benefit_plans[plan].name} medical plan after your "
                      f"{ev.kind.replace('_', ' ')} on {nice(ev.event_date)}, 2026. You uploaded the document in the portal. Insist "
                      f"once; then ask on which date HR received your document.",
                      [f"I want to add my {rel.replace('_', ' ')} to my benefits.", line, f"{name}, born {spoken_dob(dob)}.",
                       "Please, just add them.", "When did you receive my document?"])
        d.one_end_state("The event is inside the window, but its document is still pending, so the dependent cannot be added "
                        "yet, nor the coverage that needs them (7.2); the date HR received the document is what is asked.")
        self.auth(d, auth)
        d.read("list_life_events", employee_id=e.employee_id)
        docs = d.read("list_documents", employee_id=e.employee_id)
        d.require("list_documents", employee_id=e.employee_id)
        d.output(next(x for x in docs if x["document_id"] == ev.document_id)["received_on"], "date")
        d.forbid("add_dependent", employee_id=e.employee_id, name=name, relationship=rel, date_of_birth=dob, document_id=ev.document_id)
        d.forbid("enroll_in_plan", employee_id=e.employee_id, plan_id=plan, coverage_level=level, basis=ev.event_id)

    def loss_of_coverage(self) -> None:
        ev, e = self.pick([(ev, e) for ev, e in self.life_event_cands(("loss_of_other_coverage",), True)
                           if active_enrollment(e, "medical") is None])
        level = level_of(e)
        text, line, auth = self.who(e)
        d = self.task("lost_other_coverage", e, f"{text} The health coverage you had outside Kestrel Mills ended on {nice(ev.event_date)}, "
                      f"2026 and you reported it in the portal with the letter. You now need Kestrel medical for everyone on your record. You are torn between the "
                      f"Core PPO and the HSA Saver: ask how much more per paycheck the PPO costs, then choose the HSA Saver, ask "
                      f"what it will cost per paycheck, and say yes when the agent asks you to confirm the enrollment.",
                      ["I lost my other insurance and need to get on the company medical plan.", line,
                       "How much more is the PPO per paycheck?", "I'll take the HSA Saver.", "Yes, please enroll me in it."])
        d.one_end_state("Loss of other coverage inside the window is a qualifying event (7.1); the employee chooses the HSA "
                        "Saver for everyone on the record (7.2) after both quotes (7.3), and the difference is the two "
                        "quotes' difference.")
        self.auth(d, auth)
        d.read("list_life_events", employee_id=e.employee_id)
        d.read("list_benefit_plans", plan_type="medical")
        hsa = self.quote(d, e, "MED-HSA", level)
        ppo = self.quote(d, e, "MED-PPO", level)
        d.output(d.read("calculate", expression=f"{ppo} - {hsa}"), "money")
        d.output(hsa, "money")
        d.write("enroll_in_plan", employee_id=e.employee_id, plan_id="MED-HSA", coverage_level=level, basis=ev.event_id)

    # ============================================================== combined
    def swap_and_vacation(self) -> None:
        o = self.offer_pick("valid", "swap")
        e, c = DB.employees[o.offered_to], DB.employees[o.offered_by]
        if bal(e).vacation_hours < 2 * e.standard_day_hours or bal(e).personal_hours < e.standard_day_hours:
            self.used.add(e.employee_id)
            return self.swap_and_vacation()
        take, give = DB.shifts[o.take_shift_id], DB.shifts[o.give_shift_id or ""]
        start = workday_on_or_after(TODAY + timedelta(days=dept(e).vacation_notice_days + 10))
        end = span(start, 2)
        while in_blackout(e, start, end) or busy(e, start, end):
            start = workday_on_or_after(start + timedelta(days=7))
            end = span(start, 2)
        pday = workday_on_or_after(date(2026, 5, 27) + timedelta(days=self.rng.randint(0, 4)))
        while in_blackout(e, pday, pday) or busy(e, pday, pday) or start <= pday <= end:
            pday = workday_on_or_after(pday + timedelta(days=1))
        text, line, auth = self.who(e)
        note, pnote = "Anniversary trip", "Car inspection"
        d = self.task("swap_and_leave", e, f"{text} Three things today. (1) {c.first_name} {c.last_name} offered in the app to trade: "
                      f"they take your {shift_text(take)} and you take their {shift_text(give)}; accept it. (2) Vacation from "
                      f"{nice(start.isoformat())} to {nice(end.isoformat())}, 2026, note exactly '{note}'. (3) A full personal day on "
                      f"{nice(pday.isoformat())}, 2026, note exactly '{pnote}'. At the end, ask for the reference number of the vacation "
                      f"request.",
                      ["I have a shift trade to accept and some time off to book.", line, f"The trade is from {c.first_name} {c.last_name}.",
                       f"Vacation from {nice(start.isoformat())} to {nice(end.isoformat())}: {note}.",
                       f"A personal day on {nice(pday.isoformat())}: {pnote}.", "Yes to everything."])
        d.one_end_state("The swap passes 4.3-4.5 on its preview (4.6); the vacation has its notice, no blackout and the "
                        "balance, and the personal day its 2 days' notice (3.1, 3.4, 3.5): three changes, each as asked.")
        self.auth(d, auth)
        d.read("list_swap_offers", employee_id=e.employee_id)
        d.read("preview_swap_offer", offer_id=o.offer_id)
        d.require("preview_swap_offer", offer_id=o.offer_id)
        d.write("accept_swap_offer", employee_id=e.employee_id, offer_id=o.offer_id)
        d.read("get_department", department_id=e.department_id)
        d.read("get_leave_balances", employee_id=e.employee_id)
        vac = submit_leave(d, employee_id=e.employee_id, leave_type="vacation", start_date=start.isoformat(),
                      end_date=end.isoformat(), note=note)
        submit_leave(d, employee_id=e.employee_id, leave_type="personal", start_date=pday.isoformat(),
                end_date=pday.isoformat(), note=pnote)
        d.output(vac["request"]["request_id"], "code")
        return None

    def apply_and_leave(self) -> None:
        p = self.pick([p for p in OPEN if unique_title(p)])
        e = self.pick(self.active(lambda e: eligible(e, p) and e.department_id != p.department_id
                                  and bal(e).personal_hours >= e.standard_day_hours and bal(e).sick_hours >= e.standard_day_hours))
        day = workday_on_or_after(date(2026, 5, 19) + timedelta(days=self.rng.randint(0, 5)))
        while in_blackout(e, day, day) or busy(e, day, day):
            day = workday_on_or_after(day + timedelta(days=1))
        prior = sorted((x for x in DB.applications.where(employee_id=e.employee_id) if x.status in ("submitted", "under_review", "interview")),
                       key=lambda x: x.application_id)
        text, line, auth = self.who(e)
        note = "Interview prep and a family errand"
        cover = "I have wanted to work on this team since I joined Kestrel."
        withdraw_reason = "Focusing on one opening"
        sick_day = workday_on_or_after(day + timedelta(days=1))
        while busy(e, sick_day, sick_day):
            sick_day = workday_on_or_after(sick_day + timedelta(days=1))
        if prior:
            wp = DB.job_postings[prior[0].posting_id]
            tail = f" Also withdraw your earlier application to {wp.title}, reason exactly: '{withdraw_reason}'."
        else:
            tail = (f" You also have a dentist appointment on {nice(sick_day.isoformat())}, 2026: book a full sick day, note exactly "
                    f"'Dentist appointment'.")
        d = self.task("apply_and_time_off", e, f"{text} You want to apply to the internal {p.title} opening in "
                      f"{DB.departments[p.department_id].name} (manager notification is fine; cover note exactly: '{cover}'), and book "
                      f"a full personal day on {nice(day.isoformat())}, 2026 (note exactly: '{note}').{tail}",
                      [f"I want to apply for the {p.title} posting and book a day off.", line, cover, note, "Yes, all of that."])
        d.one_end_state("The employee meets every condition of 5.1 and accepts the manager's notice (5.3); the withdrawal is "
                        "of an application not at the offer stage (5.5); the days off have their notice, no blackout and the "
                        "balance (3.1, 3.4, 3.5).")
        self.auth(d, auth)
        d.read("search_job_postings", keyword=p.title)
        d.read("get_job_posting", posting_id=p.posting_id)
        d.read("list_applications", employee_id=e.employee_id)
        d.write("submit_internal_application", employee_id=e.employee_id, posting_id=p.posting_id, cover_note=cover)
        if prior:
            d.write("withdraw_application", employee_id=e.employee_id, application_id=prior[0].application_id, reason=withdraw_reason)
        d.read("get_department", department_id=e.department_id)
        d.read("get_leave_balances", employee_id=e.employee_id)
        submit_leave(d, employee_id=e.employee_id, leave_type="personal", start_date=day.isoformat(),
                end_date=day.isoformat(), note=note)
        if not prior:
            submit_leave(d, employee_id=e.employee_id, leave_type="sick", start_date=sick_day.isoformat(),
                    end_date=sick_day.isoformat(), note="Dentist appointment")

    def new_hire_address_deposit_enroll(self) -> None:
        e = self.pick(self.active(lambda e: e.hire_date >= "2026-04-15" and e.identity_verified and bool(e.address_verification_code)
                                  and e.home_address.state == "MN" and not list(DB.enrollments.where(employee_id=e.employee_id))))
        level = level_of(e)
        street, city, zip_ = f"{self.rng.randint(100, 999)} Woodland Ave", "Duluth", "55803"
        bank, acct = ("Twin Ports Community Bank", "291377814"), str(self.rng.randint(10 ** 6, 10 ** 8))
        code = e.address_verification_code or ""
        text, line, auth = self.who(e)
        d = self.task("new_hire_setup", e, f"{text} You joined on {nice(e.hire_date)}, 2026 and are finishing your setup: (1) your "
                      f"address is now {street}, {city}, MN {zip_} (portal verification code {code}); (2) pay into your savings "
                      f"account at {bank[0]}, routing {bank[1]}, account {acct}; (3) enroll in the Kestrel Select HMO for everyone on "
                      f"your record; ask its per-paycheck cost first.",
                      ["Hi, I'm new and have a few setup things.", line, f"{street}, {city}, MN {zip_}; the code is {code}.",
                       f"Routing {bank[1]}, account {acct}, savings.", "Yes, the HMO please."])
        d.one_end_state("The portal code proves the same-state address (6.1a); the employee is verified in person, so the "
                        "deposit changes (6.3); the hire is inside the new-hire window and the HMO covers everyone on the "
                        "record (7.1, 7.2) after its quote (7.3).")
        self.auth(d, auth)
        d.write("update_home_address", employee_id=e.employee_id, street=street, city=city, state="MN", zip=zip_, verification_code=code)
        d.write("update_direct_deposit", employee_id=e.employee_id, routing_number=bank[1], account_number=acct, account_type="savings")
        d.read("list_benefit_plans", plan_type="medical")
        d.output(self.quote(d, e, "MED-HMO", level), "money")
        d.write("enroll_in_plan", employee_id=e.employee_id, plan_id="MED-HMO", coverage_level=level, basis="new_hire")

    def two_offers(self) -> None:
        for emp_id in sorted({o.offered_to for o in DB.swap_offers.values()}):
            if emp_id in self.used or DB.employees[emp_id].status != "active":
                continue
            mine = sorted((o for o in DB.swap_offers.where(offered_to=emp_id) if o.status == "pending"), key=lambda o: o.offer_id)
            valid = [o for o in mine if OFFERS[o.offer_id] == "valid"]
            if len(mine) == 2 and valid:
                acc = valid[0]
                dec = next(o for o in mine if o is not acc)
                break
        else:
            raise RuntimeError("no employee with two pending offers")
        e = DB.employees[emp_id]
        ca, cd = DB.employees[acc.offered_by], DB.employees[dec.offered_by]
        reason = "Already accepted another trade"
        day = workday_on_or_after(date(2026, 6, 10) + timedelta(days=self.rng.randint(0, 20)))
        while in_blackout(e, day, day) or busy(e, day, day) or dept(e).vacation_notice_days > (day - TODAY).days:
            day = workday_on_or_after(day + timedelta(days=1))
        book = bal(e).vacation_hours >= e.standard_day_hours
        tail = f" Finally, book one vacation day on {nice(day.isoformat())}, 2026, note exactly 'Long weekend'." if book else ""
        text, line, auth = self.who(e)
        d = self.task("two_swap_offers", e, f"{text} You have two offers in the scheduling app: one from {ca.first_name} {ca.last_name} "
                      f"and one from {cd.first_name} {cd.last_name}. Accept {ca.first_name}'s and decline {cd.first_name}'s with the "
                      f"reason, exactly: '{reason}'.{tail}",
                      ["I have two shift offers to deal with.", line, f"Accept {ca.first_name}'s, decline {cd.first_name}'s.", reason,
                       "Yes."])
        d.one_end_state("The caller names which offer to accept and which to decline; the accepted one passes 4.3-4.5 on its "
                        "preview (4.6) and the other is declined with the caller's words (4.7); the vacation day has the "
                        "notice, no blackout and the balance (3.1, 3.4, 3.5).")
        self.auth(d, auth)
        d.read("list_swap_offers", employee_id=e.employee_id)
        d.read("preview_swap_offer", offer_id=acc.offer_id)
        d.require("preview_swap_offer", offer_id=acc.offer_id)
        d.write("accept_swap_offer", employee_id=e.employee_id, offer_id=acc.offer_id)
        d.write("decline_swap_offer", employee_id=e.employee_id, offer_id=dec.offer_id, reason=reason)
        if book:
            d.read("get_department", department_id=e.department_id)
            d.read("get_leave_balances", employee_id=e.employee_id)
            submit_leave(d, employee_id=e.employee_id, leave_type="vacation", start_date=day.isoformat(),
                    end_date=day.isoformat(), note="Long weekend")


def build() -> TaskWriter:
    b = Builder()
    # test split
    b.vacation_ok(holiday=True)
    b.vacation_ok()
    b.vacation_ok()
    b.personal_half_day()
    b.sick_appointment()
    b.blackout_refusal(False)
    b.blackout_refusal(True)
    b.notice_refusal()
    b.long_sick()
    b.cancel_rebook()
    b.cancel_rebook()
    b.short_balance()
    b.swap_accept("swap")
    b.swap_accept("swap")
    b.swap_accept("cover")
    b.swap_short_rest()
    b.swap_short_rest()
    b.swap_over_cap()
    b.swap_decline()
    b.swap_cross_role()
    b.apply_ok()
    b.apply_ok()
    b.apply_ok(extra_withdraw=True)
    b.apply_ineligible("tenure")
    b.apply_ineligible("rating")
    b.apply_ineligible("pip")
    b.apply_ineligible("limit")
    b.withdraw_offer_stage()
    b.address_code()
    b.address_code(with_deposit=True)
    b.address_doc()
    b.address_doc(multi=True)
    b.address_cross_state()
    b.address_pending_doc()
    b.deposit(True)
    b.deposit(False)
    b.legal_name()
    b.new_hire()
    b.new_hire("vision")
    b.new_hire("deposit")
    b.birth_or_adoption()
    b.birth_or_adoption()
    b.marriage()
    b.marriage()
    b.window_closed()
    b.pending_certificate()
    b.loss_of_coverage()
    b.swap_and_vacation()
    b.swap_and_vacation()
    b.apply_and_leave()
    b.apply_and_leave()
    b.new_hire_address_deposit_enroll()
    b.new_hire_address_deposit_enroll()
    b.two_offers()
    b.swap_and_vacation()
    b.apply_and_leave()
    b.address_doc(multi=True)
    # train split
    b.vacation_ok(split="train")
    b.personal_half_day(split="train")
    b.swap_accept("swap", split="train")
    b.apply_ok(split="train")
    b.deposit(True, split="train")
    b.birth_or_adoption(split="train")
    return b.writer


if __name__ == "__main__":
    print(f"wrote {build().save()}")
