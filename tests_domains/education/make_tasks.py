"""Builds fixtures/education/tasks.json from the DB: `python -m tests_domains.education.make_tasks`.

`build()` returns a `TaskWriter`; a test checks that `build().render()` equals tasks.json byte for byte. Each
template picks a student and records from the DB (sorted candidates, seeded choice); every gold call runs on the
task's own environment as it is added, and every figure a task requires is read from what the tools returned.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from datetime import date, timedelta
from functools import cache
from typing import Any

from pytest_tau import Kind, Output, TaskDraft, TaskWriter, output_told
from tests_domains.education.domain import DOMAIN, _clashes
from tests_domains.education.schema import Registration, Section, Student, TutoringSlot

DB = DOMAIN.initial_db
TODAY = DOMAIN.today.isoformat()
PASS = {"A", "A-", "B+", "B", "B-", "C+", "C", "P"}
ADD_BLOCK = {"financial", "advising", "immunization", "conduct"}
MOODS = ["You are polite and between classes.", "You are friendly and a bit chatty.",
         "You are precise and like to double-check figures.", "You are a little stressed about the semester.",
         "You are matter-of-fact and answer only what you are asked.", "You are cheerful but easily sidetracked."]
TOPICS = ["Reviewing for the first midterm", "Going over the homework I got wrong", "Questions from this week's lecture",
          "Help getting started on the first assignment", "Practice problems for the quiz"]


def in_policy(value: Any, kind: Kind) -> bool:
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return output_told(Output(value=text, kind=kind), DOMAIN.policy)


def nice(iso: str) -> str:
    d = date.fromisoformat(iso)
    return d.strftime("%A, %B ") + str(d.day)


def spoken_dob(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def hm(t: str) -> str:
    h, m = (int(x) for x in t.split(":"))
    return f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


def when(s: Section) -> str:
    if not s.meetings:
        return "online (no set meeting time)"
    return " and ".join(f"{m.days} {hm(m.start)}-{hm(m.end)}" for m in s.meetings)


def regs(st: Student) -> list[Registration]:
    return _regs(st.student_id)


@cache
def _regs(student_id: str) -> list[Registration]:
    return sorted(DB.registrations.where(student_id=student_id), key=lambda r: r.registration_id)


def passed(st: Student) -> set[str]:
    return _passed(st.student_id)


@cache
def _passed(student_id: str) -> set[str]:
    return {r.course_code for r in _regs(student_id) if r.term_id != "FA26" and r.grade in PASS}


def enrolled(st: Student) -> list[Registration]:
    return _enrolled(st.student_id)


@cache
def _enrolled(student_id: str) -> list[Registration]:
    return [r for r in _regs(student_id) if r.term_id == "FA26" and r.status == "enrolled"]


def credits(st: Student) -> int:
    return sum(r.credits for r in enrolled(st))


def kinds(st: Student) -> set[str]:
    return {h.kind for h in st.holds}


WAITING = [w for s in DB.sections.values() for w in s.waitlist]


def waitlists(st: Student) -> int:
    return WAITING.count(st.student_id)


def _unused_waitlists(st: Student) -> int:
    return sum(1 for s in DB.sections.values() if st.student_id in s.waitlist)


def conflicts(st: Student, s: Section) -> bool:
    return _conflicts(st.student_id, s.section_id)


@cache
def _conflicts(student_id: str, section_id: str) -> bool:
    st, s = DB.students[student_id], DB.sections[section_id]
    return any(r.section_id and r.course_code != s.course_code and _clashes(DB, s, DB.sections[r.section_id]) for r in enrolled(st))


def prereqs_ok(st: Student, code: str) -> bool:
    return code in st.prerequisite_waivers or all(p in passed(st) for p in DB.courses[code].prerequisites)


def can_add(st: Student, s: Section, *, seat: bool = True, extra_credits: int = 0) -> bool:
    c = DB.courses[s.course_code]
    return (DB.sessions[s.session_id].add_deadline >= TODAY and prereqs_ok(st, s.course_code) and s.course_code not in passed(st)
            and not any(r.course_code == s.course_code for r in enrolled(st)) and not conflicts(st, s)
            and credits(st) + c.credits + extra_credits <= 18 and not kinds(st) & ADD_BLOCK
            and (s.enrolled < s.capacity) == seat and st.student_id not in s.waitlist)


@cache
def open_slots(code: str) -> list[TutoringSlot]:
    return sorted((t for t in DB.tutoring_slots.where(course_code=code) if t.booked_by is None and t.date > "2026-09-10"),
                  key=lambda t: (t.date, t.start, t.slot_id))


def bookings(st: Student) -> list[TutoringSlot]:
    return list(DB.tutoring_slots.where(booked_by=st.student_id))


def week(iso: str) -> str:
    d = date.fromisoformat(iso)
    return (d - timedelta(days=d.weekday())).isoformat()


def free_week(st: Student, iso: str, extra: int = 1) -> bool:
    return sum(1 for b in bookings(st) if week(b.date) == week(iso)) + extra <= 2


SECTIONS = [s for _, s in sorted(DB.sections.items())]
STUDENTS = [s for _, s in sorted(DB.students.items())]


class Builder:
    def __init__(self) -> None:
        self.rng = random.Random(909)
        self.used: set[str] = set()
        self.writer = TaskWriter(DOMAIN)

    def students(self, pred: Callable[[Student], bool]) -> list[Student]:
        waiting = {w for s in SECTIONS for w in s.waitlist}
        return [s for s in STUDENTS if s.student_id not in self.used and s.student_id not in waiting and pred(s)]

    def pick(self, cands: list[Any]) -> Any:
        if not cands:
            raise RuntimeError("no candidate")
        return self.rng.choice(cands)

    def who(self, st: Student) -> tuple[str, str, tuple[str, dict[str, str]]]:
        base = f"You are {st.first_name} {st.last_name}, a student at Larkspur Valley College ({st.program})."
        if len(self.writer.drafts) % 2 == 0:
            return (f"{base} Your student ID is {st.student_id} and you were born on {spoken_dob(st.date_of_birth)}.",
                    f"My student ID is {st.student_id} and my birthday is {spoken_dob(st.date_of_birth)}.",
                    ("find_student_by_id", {"student_id": st.student_id, "date_of_birth": st.date_of_birth}))
        return (f"{base} Your college email is {st.email} and you were born on {spoken_dob(st.date_of_birth)}.",
                f"It's {st.email}, born {spoken_dob(st.date_of_birth)}.",
                ("find_student_by_email", {"email": st.email, "date_of_birth": st.date_of_birth}))

    def task(self, kind: str, st: Student, instructions: str, script: list[str], split: str = "test") -> TaskDraft:
        number = sum(1 for t in self.writer.drafts if t.rsplit("_", 1)[0] == kind) + 1
        self.used.add(st.student_id)
        mood = MOODS[len(self.writer.drafts) % len(MOODS)]
        return self.writer.task(f"{kind}_{number}", split=split, script=script,
                                instructions=f"{instructions} {mood} Give information only when the agent asks for it.")

    @staticmethod
    def auth(d: TaskDraft, auth: tuple[str, dict[str, str]], required: bool = False) -> None:
        d.read(auth[0], **auth[1])
        if required:
            d.require(auth[0], **auth[1])

    def addable(self, st: Student, pred: Callable[[Section], bool] = lambda s: True, extra_credits: int = 0) -> list[Section]:
        # a course with exactly one section the student could add, so the request names one target
        out = []
        for s in SECTIONS:
            if pred(s) and can_add(st, s, extra_credits=extra_credits) and s.session_id in ("FA26-FULL", "FA26-B8"):
                out.append(s)
        return out

    # ================================================================ adds
    def add_ok(self, split: str = "test") -> None:
        st = self.pick(self.students(lambda s: credits(s) <= 12 and bool(self.addable(s))))
        s = self.pick(self.addable(st))
        c = DB.courses[s.course_code]
        text, line, auth = self.who(st)
        d = self.task("add_section", st, f"{text} You want to add {s.course_code} ({c.title}), section number {s.section_id}, which "
                      f"meets {when(s)}. Before saying yes, you want to know the total it will cost you; accept it.",
                      [f"Hi, I'd like to add section {s.section_id} of {s.course_code}.", line, "How much will that cost?", "Yes, add it."],
                      split)
        d.one_end_state("Every 'must' of section 4 holds for the section named (deadline, prerequisites, no repeat, no "
                        "conflict, 18 credits, an open seat) and no hold blocks adds, so the one add is made after its quote "
                        "(2.1).")
        self.auth(d, auth)
        d.read("get_course", course_code=s.course_code)
        d.read("get_transcript", student_id=st.student_id)
        d.read("check_schedule_conflict", student_id=st.student_id, section_id=s.section_id)
        q = d.read("quote_add", student_id=st.student_id, section_id=s.section_id)
        d.write("add_section", student_id=st.student_id, section_id=s.section_id)
        if not in_policy(q["total_charge"], "money"):
            d.output(q["total_charge"], "money")

    def add_and_tutor(self) -> None:
        def ok(st: Student) -> bool:
            return credits(st) <= 12 and any(open_slots(s.course_code) for s in self.addable(st)) and not bookings(st)
        st = self.pick(self.students(ok))
        s = self.pick([x for x in self.addable(st) if len(open_slots(x.course_code)) >= 2])
        slots = open_slots(s.course_code)
        first = slots[0]
        second = next((t for t in slots if week(t.date) != week(first.date)), None) or slots[1]
        topic1, topic2 = self.rng.sample(TOPICS, 2)
        text, line, auth = self.who(st)
        d = self.task("add_with_tutoring", st, f"{text} You want to add {s.course_code}, section {s.section_id} ({when(s)}), and "
                      f"then book two tutoring sessions for it: the first open slot on {nice(first.date)} (topic, exactly: "
                      f"'{topic1}') and the first open slot on {nice(second.date)} (topic, exactly: '{topic2}'). Ask what the add "
                      f"costs before agreeing, and agree to all of it.",
                      [f"I want to add {s.course_code} section {s.section_id} and set up tutoring for it.", line,
                       f"Tutoring on {nice(first.date)} and {nice(second.date)}, first open slot each day.", topic1, topic2,
                       "Yes, go ahead with all of it."])
        d.one_end_state("The section passes 4.1-4.5 and section 3 with an open seat, so it is added after its quote (2.1); "
                        "tutoring needs the enrolment, so the two slots follow it, each the earliest open slot of the day "
                        "named, in two different weeks (6.1, 6.2), with the topics verbatim.")
        self.auth(d, auth)
        d.read("get_transcript", student_id=st.student_id)
        d.read("check_schedule_conflict", student_id=st.student_id, section_id=s.section_id)
        q = d.read("quote_add", student_id=st.student_id, section_id=s.section_id)
        d.write("add_section", student_id=st.student_id, section_id=s.section_id)
        d.read("search_tutoring_slots", course_code=s.course_code)
        d.write("book_tutoring", student_id=st.student_id, slot_id=first.slot_id, topic=topic1)
        d.write("book_tutoring", student_id=st.student_id, slot_id=second.slot_id, topic=topic2)
        if not in_policy(q["total_charge"], "money"):
            d.output(q["total_charge"], "money")

    def waitlist(self) -> None:
        def full(st: Student) -> list[Section]:
            return [s for s in SECTIONS if s.session_id in ("FA26-FULL", "FA26-B8") and can_add(st, s, seat=False)]
        st = self.pick(self.students(lambda s: waitlists(s) == 0 and bool(full(s))))
        s = self.pick(full(st))
        text, line, auth = self.who(st)
        d = self.task("waitlist_join", st, f"{text} You want section {s.section_id} of {s.course_code} ({when(s)}). If it is full, "
                      f"you want to go on its waitlist and to know your position on it.",
                      [f"I'm trying to get into {s.course_code}, section {s.section_id}.", line, "Then put me on the waitlist please.",
                       "Yes."])
        d.one_end_state("The section is full and the student could add it under 4.1-4.5 and section 3, with no other "
                        "waitlist, so they join its waitlist, as they ask (4.6).")
        self.auth(d, auth)
        d.read("get_section", section_id=s.section_id)
        d.read("get_transcript", student_id=st.student_id)
        d.read("check_schedule_conflict", student_id=st.student_id, section_id=s.section_id)
        r = d.write("join_waitlist", student_id=st.student_id, section_id=s.section_id)
        if not in_policy(r["position"], "number"):
            d.output(r["position"], "number")

    def conflict_alt(self) -> None:
        def pairs(st: Student) -> list[tuple[Section, Section]]:
            out = []
            for a in SECTIONS:
                if a.session_id != "FA26-FULL" or not conflicts(st, a):
                    continue
                alts = [b for b in SECTIONS if b.course_code == a.course_code and b.section_id != a.section_id and can_add(st, b)
                        and b.session_id == "FA26-FULL" and b.meetings]
                others_ok = DB.sessions[a.session_id].add_deadline >= TODAY and prereqs_ok(st, a.course_code) \
                    and a.course_code not in passed(st) and not any(r.course_code == a.course_code for r in enrolled(st)) \
                    and not kinds(st) & ADD_BLOCK and a.enrolled < a.capacity
                if len(alts) == 1 and others_ok:
                    out.append((a, alts[0]))
            return out
        st = self.pick(self.students(lambda s: bool(pairs(s))))
        a, b = self.pick(pairs(st))
        text, line, auth = self.who(st)
        d = self.task("add_time_conflict", st, f"{text} You want to add {a.course_code}, section {a.section_id} ({when(a)}). You do "
                      f"not remember your own class times. If the agent says it clashes with your schedule, ask whether another "
                      f"section works; you would take section {b.section_id} ({when(b)}). Agree to the cost.",
                      [f"Can you add me to {a.course_code} section {a.section_id}?", line, f"What about section {b.section_id}?",
                       "Yes, add that one."])
        d.one_end_state("The first section clashes with the student's schedule (4.4), the only rule that fails for it; the "
                        "other section of the course the student then names passes every rule, so it is the one added.")
        self.auth(d, auth)
        d.read("check_schedule_conflict", student_id=st.student_id, section_id=a.section_id)
        d.require("check_schedule_conflict", student_id=st.student_id, section_id=a.section_id)
        d.read("check_schedule_conflict", student_id=st.student_id, section_id=b.section_id)
        d.read("quote_add", student_id=st.student_id, section_id=b.section_id)
        d.write("add_section", student_id=st.student_id, section_id=b.section_id)

    def prereq_refusal(self) -> None:
        def target(st: Student) -> list[tuple[Section, str, Section]]:
            out = []
            failed = {r.course_code: r.grade for r in regs(st) if r.term_id != "FA26" and r.grade in ("C-", "D+", "D", "F", "W")}
            for s in SECTIONS:
                pre = DB.courses[s.course_code].prerequisites
                missing = [p for p in pre if p not in passed(st)]
                if len(missing) != 1 or missing[0] not in failed or s.course_code in st.prerequisite_waivers:
                    continue
                if s.session_id != "FA26-FULL" or s.enrolled >= s.capacity or conflicts(st, s) or kinds(st) & ADD_BLOCK:
                    continue
                if any(r.course_code == s.course_code for r in enrolled(st)):
                    continue
                need = missing[0]
                retakes = self.addable(st, lambda x, need=need: x.course_code == need)  # type: ignore[misc]
                if len(retakes) == 1:
                    out.append((s, missing[0], retakes[0]))
            return out
        st = self.pick(self.students(lambda s: credits(s) <= 10 and bool(target(s))))
        s, pre, retake = self.pick(target(st))
        text, line, auth = self.who(st)
        d = self.task("add_missing_prerequisite", st, f"{text} You want to add {s.course_code}, section {s.section_id}. You took "
                      f"{pre} before and think that is enough. If the agent explains you do not meet the prerequisite, ask to "
                      f"retake {pre} instead in section {retake.section_id} ({when(retake)}), and ask what that will cost.",
                      [f"I'd like to add {s.course_code}, section {s.section_id}.", line, f"Then can I retake {pre}, section {retake.section_id}?",
                       "OK, yes, add it."])
        d.one_end_state("The one missing prerequisite was taken with a grade that does not satisfy it and no waiver is on "
                        "file (4.2): the section is not added; the retake the student then asks for is the one section of "
                        "that course they may add (4.1-4.5; a failed course may be repeated, 4.3), quoted first (2.1).")
        self.auth(d, auth)
        d.read("get_course", course_code=s.course_code)
        d.read("get_transcript", student_id=st.student_id)
        d.require("get_transcript", student_id=st.student_id)
        d.read("check_schedule_conflict", student_id=st.student_id, section_id=retake.section_id)
        q = d.read("quote_add", student_id=st.student_id, section_id=retake.section_id)
        d.write("add_section", student_id=st.student_id, section_id=retake.section_id)
        if not in_policy(q["total_charge"], "money"):
            d.output(q["total_charge"], "money")
        d.forbid("add_section", student_id=st.student_id, section_id=s.section_id)

    def a8_late(self) -> None:
        def target(st: Student) -> list[Section]:
            return [s for s in SECTIONS if s.session_id == "FA26-A8" and s.enrolled < s.capacity and prereqs_ok(st, s.course_code)
                    and s.course_code not in passed(st) and not any(r.course_code == s.course_code for r in enrolled(st))
                    and not conflicts(st, s) and not kinds(st) & ADD_BLOCK and credits(st) + DB.courses[s.course_code].credits <= 18]
        st = self.pick(self.students(lambda s: bool(target(s))))
        s = self.pick(target(st))
        text, line, auth = self.who(st)
        d = self.task("add_after_deadline", st, f"{text} You want to add {s.course_code}, section {s.section_id}, which runs in the "
                      f"first eight weeks of the term. If the agent says it is too late, insist once, then ask on what date the last "
                      f"day to add it was, and end the call. You do not want any other section.",
                      [f"Hi, I need to add {s.course_code}, section {s.section_id}.", line, "Can't you make an exception? I just need it.",
                       "When was the last day to add it?", "OK, thanks anyway."])
        d.one_end_state("The section's first-eight-weeks session closed its adds before today and every other rule of section"
                        " 4 holds, so the deadline is the one reason (4.1): nothing is added, no other section is wanted, and"
                        " the deadline is the date asked.")
        self.auth(d, auth)
        cal = d.read("get_term_calendar", term_id="FA26")
        d.require("get_term_calendar", term_id="FA26")
        deadline = next(x["add_deadline"] for x in cal["sessions"] if x["session_id"] == "FA26-A8")
        d.output(deadline, "date")
        d.forbid("add_section", student_id=st.student_id, section_id=s.section_id)

    def hold_add(self) -> None:
        st = self.pick(self.students(lambda s: "financial" in kinds(s) and len(s.holds) == 1))
        s = self.pick([x for x in SECTIONS if x.session_id == "FA26-FULL" and x.enrolled < x.capacity and prereqs_ok(st, x.course_code)
                       and x.course_code not in passed(st) and not conflicts(st, x)
                       and not any(r.course_code == x.course_code for r in enrolled(st))
                       and credits(st) + DB.courses[x.course_code].credits <= 18])
        text, line, auth = self.who(st)
        d = self.task("add_blocked_by_hold", st, f"{text} You want to add {s.course_code}, section {s.section_id}. You vaguely know "
                      f"you owe the college something from last year but not how much. If the agent refuses, ask exactly how much you "
                      f"owe, then end the call; you cannot pay today.",
                      [f"I want to add {s.course_code}, section {s.section_id}.", line, "How much do I owe exactly?", "OK, I'll sort it out."])
        d.one_end_state("The student's only hold is financial, which blocks adds (3.1), and every rule of section 4 holds, so"
                        " the hold is the one reason: nothing is added and its amount due is told (3.3).")
        self.auth(d, auth)
        hold = next(h for h in st.holds if h.kind == "financial")
        d.output(hold.amount_due, "money")
        d.forbid("add_section", student_id=st.student_id, section_id=s.section_id)

    def conduct_transfer(self) -> None:
        st = self.pick(self.students(lambda s: "conduct" in kinds(s) and bool(enrolled(s))))
        r = self.pick([x for x in enrolled(st) if DB.sections[x.section_id or ""].session_id == "FA26-FULL"])
        text, line, auth = self.who(st)
        d = self.task("conduct_hold_transfer", st, f"{text} You want to drop {r.course_code} (section {r.section_id}). Accept a "
                      f"transfer if the agent offers one.",
                      [f"I need to drop {r.course_code}.", line, "Alright, transfer me."])
        d.one_end_state("A conduct hold turns a drop request into a transfer to the Office of Student Conduct (8.1), whatever"
                        " the drop would refund: no drop.")
        self.auth(d, auth, required=True)
        d.transfer(f"Student {st.student_id} has a conduct hold and asks to drop {r.course_code} section {r.section_id}.")
        d.forbid("drop_section", student_id=st.student_id, section_id=r.section_id, action="drop")

    # ================================================================ drops
    def full_regs(self, st: Student, session: str = "FA26-FULL") -> list[Registration]:
        return [r for r in enrolled(st) if r.section_id and DB.sections[r.section_id].session_id == session]

    def drop_full(self, split: str = "test") -> None:
        st = self.pick(self.students(lambda s: s.visa_status is None and "conduct" not in kinds(s) and bool(self.full_regs(s))))
        r = self.pick(self.full_regs(st))
        text, line, auth = self.who(st)
        d = self.task("drop_refund", st, f"{text} You want to drop {r.course_code} (section {r.section_id}). Before you agree you want to "
                      f"know how much will be refunded to your account. Then agree.",
                      [f"I want to drop {r.course_code}.", line, "How much do I get back?", "Yes, drop it."], split)
        d.one_end_state("Before the full-term drop deadline a drop refunds the schedule's amount (5.1); the student is not on"
                        " an F-1 visa and has no conduct hold, so the drop is made after its quote.")
        self.auth(d, auth)
        d.read("get_schedule", student_id=st.student_id)
        q = d.read("quote_drop", student_id=st.student_id, section_id=r.section_id)
        d.write("drop_section", student_id=st.student_id, section_id=r.section_id, action="drop")
        d.output(q["total_refund"], "money")

    def withdraw_qs(self) -> None:
        st = self.pick(self.students(lambda s: s.visa_status is None and "conduct" not in kinds(s) and bool(self.full_regs(s, "FA26-QS"))))
        r = self.full_regs(st, "FA26-QS")[0]
        text, line, auth = self.who(st)
        d = self.task("withdraw_fast_track", st, f"{text} You want to drop {r.course_code} (section {r.section_id}), a four-week "
                      f"fast-track class, and you hope to get your money back. If the agent says only a withdrawal with a W and no "
                      f"refund is possible now, accept that and say yes to the withdrawal.",
                      [f"I want to drop my {r.course_code} class and get a refund.", line, "Fine. Yes, withdraw me then."])
        d.one_end_state("The fast-track session's drop deadline has passed and its withdrawal deadline has not, so only a "
                        "withdrawal with a W and no refund is possible (5.1), which the student accepts.")
        self.auth(d, auth)
        d.read("get_schedule", student_id=st.student_id)
        d.read("quote_drop", student_id=st.student_id, section_id=r.section_id)
        d.require("quote_drop", student_id=st.student_id, section_id=r.section_id)
        d.write("drop_section", student_id=st.student_id, section_id=r.section_id, action="withdraw")

    def f1_transfer(self) -> None:
        def ok(st: Student) -> bool:
            return st.visa_status == "F-1" and not st.holds and any(credits(st) - r.credits < 12 for r in self.full_regs(st))
        st = self.pick(self.students(ok))
        r = self.pick([x for x in self.full_regs(st) if credits(st) - x.credits < 12])
        text, line, auth = self.who(st)
        d = self.task("international_drop", st, f"{text} You are an international student on an F-1 visa. You want to drop "
                      f"{r.course_code} (section {r.section_id}). Accept a transfer if the agent offers one.",
                      [f"I want to drop {r.course_code}, section {r.section_id}.", line, "OK, please transfer me."])
        d.one_end_state("The student is on an F-1 visa and the drop would leave them below 12 credits, which the quote shows:"
                        " transfer to International Student Services, no drop (5.3, 8.2).")
        self.auth(d, auth)
        d.read("quote_drop", student_id=st.student_id, section_id=r.section_id)
        d.require("quote_drop", student_id=st.student_id, section_id=r.section_id)
        d.transfer(f"F-1 student {st.student_id} asks to drop {r.course_code}; they would fall below 12 credits.")
        d.forbid("drop_section", student_id=st.student_id, section_id=r.section_id, action="drop")

    def petition(self) -> None:
        st = self.pick(self.students(lambda s: s.visa_status is None and not s.holds and bool(self.full_regs(s))))
        r = self.pick(self.full_regs(st))
        text, line, auth = self.who(st)
        d = self.task("refund_petition", st, f"{text} You were hospitalized last week and want to drop {r.course_code} (section "
                      f"{r.section_id}) with a FULL refund because of it. You do not want the course dropped unless you get all "
                      f"your money back. Accept a transfer if offered.",
                      [f"I was in the hospital and need to drop {r.course_code} with a full refund.", line,
                       "I only want to drop it if I get everything back.", "OK, transfer me."])
        d.one_end_state("A refund beyond the schedule for a hospital stay is a petition: transfer to the petitions team "
                        "(8.3); the student wants no drop without a full refund, so none is made.")
        self.auth(d, auth, required=True)
        d.read("quote_drop", student_id=st.student_id, section_id=r.section_id)
        d.transfer(f"Student {st.student_id} requests a medical refund petition for {r.course_code} section {r.section_id}.")
        d.forbid("drop_section", student_id=st.student_id, section_id=r.section_id, action="drop")

    # ================================================================ multi
    def swap_course(self) -> None:
        def opts(st: Student) -> list[tuple[Registration, Section]]:
            out = []
            for r in self.full_regs(st):
                for s in self.addable(st, lambda x: x.session_id == "FA26-FULL" and len(open_slots(x.course_code)) >= 1, extra_credits=-r.credits):
                    # the refund must not equal the add's charge, or quoting the charge alone would pass
                    same_cost = (DB.courses[r.course_code].credits, DB.courses[r.course_code].lab_fee) == \
                        (DB.courses[s.course_code].credits, DB.courses[s.course_code].lab_fee)
                    if not conflicts(st, s) and not same_cost:
                        out.append((r, s))
            return out
        st = self.pick(self.students(lambda s: s.visa_status is None and not bookings(s) and bool(opts(s))))
        r, s = self.pick(opts(st))
        slot = open_slots(s.course_code)[0]
        topic = self.rng.choice(TOPICS)
        text, line, auth = self.who(st)
        d = self.task("swap_course_with_tutoring", st, f"{text} You want to drop {r.course_code} (section {r.section_id}) and add "
                      f"{s.course_code}, section {s.section_id} ({when(s)}) instead, and book the first open tutoring slot for "
                      f"{s.course_code} on {nice(slot.date)} (topic, exactly: '{topic}'). Ask how much the drop refunds; agree to all.",
                      [f"I want to swap {r.course_code} for {s.course_code}, section {s.section_id}.", line, "What's my refund on the drop?",
                       f"Also tutoring for {s.course_code} on {nice(slot.date)}, first open slot.", topic, "Yes to everything."])
        d.one_end_state("The drop is before the deadline, with its refund (5.1); the new course passes 4.1-4.5 once the "
                        "dropped credits are gone; tutoring is for the course now enrolled, the earliest open slot of the day"
                        " (6.1, 6.2).")
        self.auth(d, auth)
        q = d.read("quote_drop", student_id=st.student_id, section_id=r.section_id)
        d.read("check_schedule_conflict", student_id=st.student_id, section_id=s.section_id)
        d.read("quote_add", student_id=st.student_id, section_id=s.section_id)
        d.write("drop_section", student_id=st.student_id, section_id=r.section_id, action="drop")
        d.write("add_section", student_id=st.student_id, section_id=s.section_id)
        d.read("search_tutoring_slots", course_code=s.course_code, on_date=slot.date)
        d.write("book_tutoring", student_id=st.student_id, slot_id=slot.slot_id, topic=topic)
        d.output(q["total_refund"], "money")

    def credit_limit(self) -> None:
        def opts(st: Student) -> list[tuple[Section, Registration]]:
            out = []
            for s in SECTIONS:
                c = DB.courses[s.course_code]
                if s.session_id != "FA26-FULL" or credits(st) + c.credits <= 18:
                    continue
                for r in self.full_regs(st):
                    if can_add(st, s, extra_credits=-r.credits) and r.credits >= c.credits - (18 - credits(st)) \
                            and open_slots(s.course_code):
                        out.append((s, r))
            return out
        st = self.pick(self.students(lambda s: s.visa_status is None and credits(s) >= 15 and not bookings(s) and bool(opts(s))))
        s, r = self.pick(opts(st))
        slot = open_slots(s.course_code)[0]
        topic = self.rng.choice(TOPICS)
        text, line, auth = self.who(st)
        d = self.task("credit_limit_swap", st, f"{text} You want to add {s.course_code}, section {s.section_id}. If the agent says it "
                      f"would put you over the credit limit, drop {r.course_code} (section {r.section_id}) to make room, then add "
                      f"{s.course_code}. Ask what the drop refunds; agree. Once {s.course_code} is added, you also want the first open "
                      f"{s.course_code} tutoring slot on {nice(slot.date)} (topic, exactly: '{topic}').",
                      [f"Please add {s.course_code}, section {s.section_id}.", line, f"Then drop {r.course_code} and add it.", "Yes.",
                       f"And tutoring for {s.course_code} on {nice(slot.date)}, first open slot.", topic, "Yes."])
        d.one_end_state("The add alone would exceed 18 credits (4.5): the student drops the course they name first, with its "
                        "refund (5.1), then the add passes every rule; tutoring follows the enrolment (6.1, 6.2).")
        self.auth(d, auth)
        d.read("quote_add", student_id=st.student_id, section_id=s.section_id)
        d.require("quote_add", student_id=st.student_id, section_id=s.section_id)
        q = d.read("quote_drop", student_id=st.student_id, section_id=r.section_id)
        d.write("drop_section", student_id=st.student_id, section_id=r.section_id, action="drop")
        d.read("check_schedule_conflict", student_id=st.student_id, section_id=s.section_id)
        d.write("add_section", student_id=st.student_id, section_id=s.section_id)
        d.read("search_tutoring_slots", course_code=s.course_code, on_date=slot.date)
        d.write("book_tutoring", student_id=st.student_id, slot_id=slot.slot_id, topic=topic)
        d.output(q["total_refund"], "money")

    def section_change(self) -> None:
        def opts(st: Student) -> list[tuple[Registration, Section]]:
            out = []
            for r in self.full_regs(st):
                others = [b for b in SECTIONS if b.course_code == r.course_code and b.section_id != r.section_id
                          and b.session_id == "FA26-FULL" and b.enrolled < b.capacity and b.meetings and not conflicts(st, b)]
                if len(others) == 1 and open_slots(r.course_code):
                    out.append((r, others[0]))
            return out
        st = self.pick(self.students(lambda s: not kinds(s) & (ADD_BLOCK | {"library"}) and not bookings(s) and bool(opts(s))))
        r, b = self.pick(opts(st))
        slot = open_slots(r.course_code)[0]
        topic = self.rng.choice(TOPICS)
        recipient = self.rng.choice(["Sonoma State University", "UC Davis", "San Francisco State University"])
        email = {"Sonoma State University": "transcripts@sonoma.example.edu", "UC Davis": "ug-transcripts@ucdavis.example.edu",
                 "San Francisco State University": "records@sfsu.example.edu"}[recipient]
        text, line, auth = self.who(st)
        d = self.task("section_change_combo", st, f"{text} Three things: (1) move from your current {r.course_code} section "
                      f"({r.section_id}) to section {b.section_id} ({when(b)}); (2) book the first open {r.course_code} tutoring slot on "
                      f"{nice(slot.date)} (topic, exactly: '{topic}'); (3) send one official transcript electronically to {recipient} "
                      f"at {email}, no rush. Ask what the transcript costs; agree to everything.",
                      [f"I need to switch my {r.course_code} section, book tutoring and order a transcript.", line,
                       f"Section {b.section_id}.", topic, f"One copy, electronic, to {recipient}, {email}.", "Yes, all of that."])
        d.one_end_state("A move within a course is a section change, never a drop and an add (4.7); the new section has its "
                        "session's deadline, no clash, an open seat and no blocking hold; tutoring is the earliest open slot "
                        "of the day (6.2); no hold blocks the transcript, quoted first (7.3).")
        self.auth(d, auth)
        d.read("check_schedule_conflict", student_id=st.student_id, section_id=b.section_id)
        d.write("change_section", student_id=st.student_id, from_section_id=r.section_id, to_section_id=b.section_id)
        d.read("search_tutoring_slots", course_code=r.course_code, on_date=slot.date)
        d.write("book_tutoring", student_id=st.student_id, slot_id=slot.slot_id, topic=topic)
        q = d.read("quote_transcript", delivery="electronic", copies=1, rush=False)
        d.write("request_transcript", student_id=st.student_id, delivery="electronic", recipient=recipient, destination=email, copies=1,
                rush=False)
        # a $10 fee beside CS 10 or a 10:00 section would be read off the customer's own words
        if not in_policy(q["total_fee"], "money") and not re.search(rf"\b{q['total_fee']:.0f}\b", f"{r.course_code} {when(b)}"):
            d.output(q["total_fee"], "money")

    # ================================================================ tutoring
    def tutoring_limit(self) -> None:
        def opts(st: Student) -> list[tuple[str, list[TutoringSlot]]]:
            out = []
            for r in enrolled(st):
                by_day: dict[str, TutoringSlot] = {}
                for t in open_slots(r.course_code):
                    if "2026-09-14" <= t.date <= "2026-09-18":
                        by_day.setdefault(t.date, t)
                if len(by_day) >= 3:
                    out.append((r.course_code, [by_day[k] for k in sorted(by_day)][:3]))
            return out
        st = self.pick(self.students(lambda s: not bookings(s) and bool(opts(s))))
        code, three = self.pick(opts(st))
        topic = self.rng.choice(TOPICS)
        text, line, auth = self.who(st)
        days = ", ".join(nice(t.date) for t in three)
        d = self.task("tutoring_weekly_limit", st, f"{text} You want {code} tutoring on each of {days} (the first open slot each day), "
                      f"all with the topic, exactly: '{topic}'. If the agent says you can only have two that week, keep the first and "
                      f"the last of those days.",
                      [f"Can I book {code} tutoring for {days}?", line, topic, "Then the first and the last day, please.", "Yes."])
        d.one_end_state("The student holds no booking that week, so two of the three fit the weekly limit (6.1): the first "
                        "and the last day, as the student then asks, each the earliest open slot of its day (6.2).")
        self.auth(d, auth)
        d.read("list_tutoring_bookings", student_id=st.student_id)
        d.read("search_tutoring_slots", course_code=code)
        d.write("book_tutoring", student_id=st.student_id, slot_id=three[0].slot_id, topic=topic)
        d.write("book_tutoring", student_id=st.student_id, slot_id=three[2].slot_id, topic=topic)
        d.forbid("book_tutoring", student_id=st.student_id, slot_id=three[1].slot_id, topic=topic)

    def late_cancel(self) -> None:
        def opts(st: Student) -> tuple[TutoringSlot, TutoringSlot] | None:
            mine = sorted(bookings(st), key=lambda t: (t.date, t.start))
            soon = [t for t in mine if (t.date, t.start) < ("2026-09-10", "10:00")]
            later = [t for t in mine if t.date >= "2026-09-12"]
            return (soon[0], later[0]) if len(soon) == 1 and later else None
        st = self.pick(self.students(lambda s: opts(s) is not None))
        pair = opts(st)
        assert pair is not None
        soon, later = pair
        text, line, auth = self.who(st)
        d = self.task("tutoring_cancel", st, f"{text} You want to cancel two tutoring bookings: the {soon.course_code} one on "
                      f"{nice(soon.date)} at {hm(soon.start)} and the {later.course_code} one on {nice(later.date)} at {hm(later.start)}. "
                      f"If the agent cannot cancel one of them, accept that and ask them to cancel the other.",
                      ["I need to cancel my tutoring sessions.", line, f"The {nice(soon.date)} one and the {nice(later.date)} one.",
                       "OK, cancel the one you can.", "Yes."])
        d.one_end_state("One booking starts less than 24 hours from now, so it is not cancelled here (6.3); the other starts "
                        "later and is cancelled, as the student asks.")
        self.auth(d, auth)
        d.read("list_tutoring_bookings", student_id=st.student_id)
        d.write("cancel_tutoring", student_id=st.student_id, slot_id=later.slot_id)
        d.forbid("cancel_tutoring", student_id=st.student_id, slot_id=soon.slot_id)

    # ================================================================ appeals and transcripts
    def graded(self, st: Student, term: str) -> list[Registration]:
        appealed = {a.registration_id for a in DB.grade_appeals.values()}
        return [r for r in regs(st) if r.term_id == term and r.grade in ("B-", "C+", "C", "C-", "D+", "D", "F")
                and r.registration_id not in appealed]

    def appeal_ok(self, split: str = "test") -> None:
        st = self.pick(self.students(lambda s: "conduct" not in kinds(s) and len({r.course_code for r in self.graded(s, "SU26")}) == len(self.graded(s, "SU26")) >= 1))
        r = self.pick(self.graded(st, "SU26"))
        reason = self.rng.choice(["My final project was graded as late but I submitted it on time.",
                                  "Two of my quiz scores were never entered in the gradebook.",
                                  "The final exam curve announced in class was not applied."])
        text, line, auth = self.who(st)
        d = self.task("grade_appeal", st, f"{text} You got a {r.grade} in {r.course_code} this past summer and want to appeal it. Your "
                      f"reason, exactly: '{reason}'. Ask for the appeal's reference number.",
                      [f"I want to appeal my {r.course_code} grade from the summer.", line, reason, "Yes, file it."], split)
        d.one_end_state("The summer grade is a final letter grade, the summer appeal deadline has not passed and no appeal is"
                        " on file (7.1): the appeal is filed with the student's words (7.2) on the one registration of that "
                        "course.")
        self.auth(d, auth)
        d.read("get_transcript", student_id=st.student_id)
        d.read("get_term_calendar", term_id="SU26")
        a = d.write("file_grade_appeal", student_id=st.student_id, registration_id=r.registration_id, reason=reason)
        d.output(a["appeal_id"], "code")

    def appeal_late(self) -> None:
        st = self.pick(self.students(lambda s: len({r.course_code for r in self.graded(s, "SP26")}) == len(self.graded(s, "SP26")) >= 1
                                     and not self.graded(s, "SU26")))
        r = self.pick(self.graded(st, "SP26"))
        reason = "I think my final paper was mixed up with someone else's."
        text, line, auth = self.who(st)
        d = self.task("grade_appeal_late", st, f"{text} You want to appeal your {r.grade} in {r.course_code} from Spring 2026; your "
                      f"reason, exactly: '{reason}'. If the agent says it is too late, ask on what date the window closed, and end the "
                      f"call.",
                      [f"I want to appeal my {r.course_code} grade from last spring.", line, reason, "When did the window close?", "OK."])
        d.one_end_state("The Spring 2026 appeal deadline has passed, the one reason (7.1): no appeal, and the deadline is the"
                        " date asked.")
        self.auth(d, auth)
        d.read("get_transcript", student_id=st.student_id)
        cal = d.read("get_term_calendar", term_id="SP26")
        d.require("get_term_calendar", term_id="SP26")
        d.output(cal["term"]["grade_appeal_deadline"], "date")
        d.forbid("file_grade_appeal", student_id=st.student_id, registration_id=r.registration_id, reason=reason)

    def transcript_ok(self, split: str = "test") -> None:
        st = self.pick(self.students(lambda s: not kinds(s) & {"financial", "library", "conduct"}))
        copies = self.rng.choice([2, 3])
        addr = "1 Shields Ave, Davis, CA 95616"
        text, line, auth = self.who(st)
        d = self.task("transcript_mail", st, f"{text} You want {copies} official transcripts mailed, rush, to UC Davis at '{addr}'. "
                      f"Ask what it costs before agreeing; agree.",
                      ["I need to order official transcripts.", line, f"{copies} copies, by mail with rush, to UC Davis: {addr}.",
                       "Yes, please order them."], split)
        d.one_end_state("No financial, library or conduct hold blocks transcripts, and rush exists for mail (7.3): the order "
                        "is the one asked, quoted first.")
        self.auth(d, auth)
        q = d.read("quote_transcript", delivery="mail", copies=copies, rush=True)
        d.write("request_transcript", student_id=st.student_id, delivery="mail", recipient="UC Davis", destination=addr, copies=copies,
                rush=True)
        if not in_policy(q["total_fee"], "money"):
            d.output(q["total_fee"], "money")

    def transcript_hold(self) -> None:
        st = self.pick(self.students(lambda s: len(s.holds) == 1 and s.holds[0].kind in ("library", "financial")))
        hold = st.holds[0]
        text, line, auth = self.who(st)
        d = self.task("transcript_blocked", st, f"{text} You want one official transcript sent electronically to Sonoma State "
                      f"University at admissions@sonoma.example.edu. If the agent refuses because of a hold, ask how much you owe on "
                      f"it and end the call.",
                      ["I'd like an official transcript sent to Sonoma State.", line, "How much do I owe on that hold?", "OK, thanks."])
        d.one_end_state("The student's only hold is a library or financial one, which blocks official transcripts (3.1, 7.4):"
                        " nothing is ordered, and the hold's amount due is told (3.3).")
        self.auth(d, auth)
        d.output(hold.amount_due, "money")
        d.forbid("request_transcript", student_id=st.student_id, delivery="electronic", recipient="Sonoma State University",
                 destination="admissions@sonoma.example.edu", copies=1, rush=False)

    def rush_electronic(self) -> None:
        st = self.pick(self.students(lambda s: not kinds(s) & {"financial", "library", "conduct"}))
        copies = self.rng.choice([2, 3, 4])
        text, line, auth = self.who(st)
        d = self.task("transcript_rush_email", st, f"{text} You want {copies} official transcripts sent electronically with rush "
                      f"processing to Cal Poly Humboldt at apply@humboldt.example.edu. If the agent says rush is not available that "
                      f"way, take regular electronic delivery instead (still {copies} copies). Ask the cost before agreeing.",
                      ["I need transcripts sent rush by email.", line, f"{copies} copies to Cal Poly Humboldt, apply@humboldt.example.edu.",
                       "Fine, regular electronic then.", "Yes."])
        d.one_end_state("Rush processing exists only for mail (7.3): the rush electronic order is refused and the regular "
                        "electronic order the student falls back on is placed, after its quote (2.1).")
        self.auth(d, auth)
        q = d.read("quote_transcript", delivery="electronic", copies=copies, rush=False)
        d.write("request_transcript", student_id=st.student_id, delivery="electronic", recipient="Cal Poly Humboldt",
                destination="apply@humboldt.example.edu", copies=copies, rush=False)
        if not in_policy(q["total_fee"], "money"):
            d.output(q["total_fee"], "money")
        d.forbid("request_transcript", student_id=st.student_id, delivery="electronic", recipient="Cal Poly Humboldt",
                 destination="apply@humboldt.example.edu", copies=copies, rush=True)

    def appeal_combo(self) -> None:
        def ok(st: Student) -> bool:
            g = self.graded(st, "SU26")
            return (not kinds(st) & {"financial", "library", "conduct"} and len(g) == 1 and not bookings(st)
                    and any(open_slots(r.course_code) for r in enrolled(st)))
        st = self.pick(self.students(ok))
        r = self.graded(st, "SU26")[0]
        course = self.pick([x for x in enrolled(st) if open_slots(x.course_code)])
        slot = open_slots(course.course_code)[0]
        reason = "My lab practical score was recorded as zero even though I took it."
        topic = self.rng.choice(TOPICS)
        text, line, auth = self.who(st)
        d = self.task("appeal_transcript_tutoring", st, f"{text} Three things today: (1) appeal your summer {r.course_code} grade "
                      f"({r.grade}) with the reason, exactly: '{reason}'; (2) book the first open {course.course_code} tutoring slot on "
                      f"{nice(slot.date)} (topic, exactly: '{topic}'); (3) order one official transcript for pickup at the Admissions "
                      f"and Records counter (for yourself, no rush). Ask for the appeal's reference number and the transcript cost. "
                      f"Agree to everything.",
                      ["I have a few things: a grade appeal, tutoring and a transcript.", line, reason,
                       f"{course.course_code} tutoring, the first open slot on {nice(slot.date)}. Topic: {topic}",
                       "One copy, I'll pick it up myself.", "Yes, do all three."])
        d.one_end_state("The summer letter grade is inside its appeal window with no appeal on file (7.1, 7.2); tutoring is "
                        "for a course the student is enrolled in, the earliest open slot of the day named (6.1, 6.2); no "
                        "financial, library or conduct hold blocks the pickup transcript, quoted first (7.3, 2.1).")
        self.auth(d, auth)
        d.read("get_transcript", student_id=st.student_id)
        d.read("get_term_calendar", term_id="SU26")
        a = d.write("file_grade_appeal", student_id=st.student_id, registration_id=r.registration_id, reason=reason)
        d.read("search_tutoring_slots", course_code=course.course_code, on_date=slot.date)
        d.write("book_tutoring", student_id=st.student_id, slot_id=slot.slot_id, topic=topic)
        d.read("quote_transcript", delivery="pickup", copies=1, rush=False)
        d.write("request_transcript", student_id=st.student_id, delivery="pickup", recipient="Self",
                destination="Admissions and Records counter", copies=1, rush=False)
        d.output(a["appeal_id"], "code")


def build() -> TaskWriter:
    b = Builder()
    plan: list[tuple[Callable[..., None], int]] = [
        (b.add_ok, 3), (b.add_and_tutor, 3), (b.waitlist, 3), (b.conflict_alt, 2), (b.prereq_refusal, 3), (b.a8_late, 2),
        (b.hold_add, 2), (b.conduct_transfer, 2), (b.drop_full, 3), (b.withdraw_qs, 2), (b.f1_transfer, 2), (b.petition, 2),
        (b.swap_course, 4), (b.credit_limit, 3), (b.section_change, 3), (b.tutoring_limit, 2), (b.late_cancel, 2),
        (b.appeal_ok, 2), (b.appeal_late, 3), (b.transcript_ok, 2), (b.transcript_hold, 3), (b.rush_electronic, 2),
        (b.appeal_combo, 4),
    ]
    for make, n in plan:
        for _ in range(n):
            make()
    b.add_ok("train")
    b.drop_full("train")
    b.appeal_ok("train")
    b.transcript_ok("train")
    return b.writer


if __name__ == "__main__":
    build().save()
