"""Larkspur Valley College student-services desk: the tools an agent uses to serve students who call or chat.

The tools refuse only what the data makes impossible (no such record, not this student's, no seat left, a slot
someone else holds, nothing to cancel). Every rule of the policy (deadlines, prerequisites, time conflicts, the
credit limit, holds, tutoring limits, appeal windows, who must be transferred) is the agent's to apply.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field

from pytest_tau import Domain, FreeText, ToolError, formatted_form
from pytest_tau.invariants import area_codes_valid, cents, consistent, not_after_now, ordered, plausible_age, zip_matches_state
from tests_domains.education.schema import (
    Course,
    EducationDB,
    GradeAppeal,
    Registration,
    Section,
    Session,
    Student,
    TranscriptRequest,
    TutoringSlot,
)

DOMAIN = Domain("education", EducationDB, now=datetime(2026, 9, 9, 10, 0))

CURRENT_TERM = "FA26"
TUITION_PER_CREDIT = {"resident": 46.0, "nonresident": 346.0}
TRANSCRIPT_FEE = {"electronic": 10.0, "mail": 15.0, "pickup": 15.0}
RUSH_FEE = 20.0
GRADE_POINTS = {"A": 4.0, "A-": 3.7, "B+": 3.3, "B": 3.0, "B-": 2.7, "C+": 2.3, "C": 2.0, "C-": 1.7, "D+": 1.3, "D": 1.0, "F": 0.0}
EARNS_CREDIT = {"A", "A-", "B+", "B", "B-", "C+", "C", "C-", "D+", "D", "P"}
DAY_TOKENS = re.compile(r"Th|Sa|M|T|W|F")

StudentId = Annotated[str, Field(description="the student's 7-digit student ID number, e.g. '2041187'")]
SectionId = Annotated[str, Field(description="the 5-digit section number (CRN), e.g. '43518'")]
IsoDate = Annotated[str, Field(description="a date as YYYY-MM-DD")]


def _today() -> str:
    return DOMAIN.today.isoformat()


def _student(db: EducationDB, student_id: str) -> Student:
    return db.students.require(student_id.strip())


def _section(db: EducationDB, section_id: str) -> Section:
    return db.sections.require(section_id.strip())


def _minutes(hhmm: str) -> int:
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def _current(db: EducationDB, student_id: str) -> list[Registration]:
    return sorted((r for r in db.registrations.where(student_id=student_id) if r.term_id == CURRENT_TERM),
                  key=lambda r: r.registration_id)


def _enrolled(db: EducationDB, student_id: str) -> list[Registration]:
    return [r for r in _current(db, student_id) if r.status == "enrolled"]


def _registration_for(db: EducationDB, student_id: str, section_id: str) -> Registration:
    for r in _enrolled(db, student_id):
        if r.section_id == section_id:
            return db.registrations[r.registration_id]
    raise ToolError(f"student {student_id} is not enrolled in section {section_id}")


def _clashes(db: EducationDB, a: Section, b: Section) -> list[str]:
    sa, sb = db.sessions[a.session_id], db.sessions[b.session_id]
    if sa.end_date < sb.start_date or sb.end_date < sa.start_date:
        return []
    found = []
    for x in a.meetings:
        for y in b.meetings:
            shared = set(DAY_TOKENS.findall(x.days)) & set(DAY_TOKENS.findall(y.days))
            if shared and _minutes(x.start) < _minutes(y.end) and _minutes(y.start) < _minutes(x.end):
                found.append(f"{x.days} {x.start}-{x.end} overlaps {y.days} {y.start}-{y.end}")
    return found


def _money(value: float) -> float:
    return round(value + 0.0, 2)


def _refund_percent(session: Session, on: str) -> int:
    for step in session.refund_schedule:
        if step.start_date <= on <= step.end_date:
            return step.refund_percent
    return 0


def _section_view(db: EducationDB, s: Section) -> dict[str, Any]:
    course = db.courses[s.course_code]
    return {"section_id": s.section_id, "course_code": s.course_code, "title": course.title, "credits": course.credits,
            "session_id": s.session_id, "section_number": s.section_number, "instructor": s.instructor, "modality": s.modality,
            "meetings": [m.model_dump() for m in s.meetings], "capacity": s.capacity, "enrolled": s.enrolled,
            "seats_open": max(0, s.capacity - s.enrolled), "waitlist_length": len(s.waitlist)}


# ----------------------------------------------------------------------------- identity


@DOMAIN.tool(authenticates=True)
def find_student_by_id(db: EducationDB, student_id: StudentId, date_of_birth: IsoDate) -> Student:
    """Authenticate a caller by student ID number and date of birth; returns their student record (holds, waivers,
    account balance)."""
    student = db.students.get(student_id.strip())
    if student is None or student.date_of_birth != date_of_birth.strip():
        raise ToolError("no student matches that student ID and date of birth")
    return student


@DOMAIN.tool(authenticates=True)
def find_student_by_email(
    db: EducationDB,
    email: Annotated[str, Field(description="the student's college email, e.g. maya.lee@mail.larkspur.edu")],
    date_of_birth: IsoDate,
) -> Student:
    """Authenticate a caller by college email and date of birth; returns their student record."""
    for student in db.students.find(email=email):
        if student.date_of_birth == date_of_birth.strip():
            return student
    raise ToolError("no student matches that email and date of birth")


# ----------------------------------------------------------------------------- calendar and catalog


@DOMAIN.tool
def get_term_calendar(
    db: EducationDB, term_id: Annotated[str, Field(description="term code: 'FA26' (Fall 2026, current), 'SU26', 'SP26', 'FA25', ...")],
) -> dict[str, Any]:
    """A term's dates; for a past term, when grades were posted and the last day to file a grade appeal; for the
    current term, each session's dates, add, drop and withdrawal deadlines and its tuition refund schedule."""
    term = db.terms.require(term_id.strip().upper())
    return {"term": term.model_dump(), "sessions": [db.sessions[s].model_dump() for s in term.session_ids]}


@DOMAIN.tool
def search_courses(
    db: EducationDB,
    keyword: Annotated[str | None, Field(description="words of the course title, e.g. 'organic chemistry'")] = None,
    subject: Annotated[str | None, Field(description="subject code, e.g. 'MATH', 'CHEM'")] = None,
) -> list[Course]:
    """Search the course catalog by title words and/or subject."""
    rows = db.courses.find(subject=subject) if subject else sorted(db.courses.values(), key=lambda c: c.course_code)
    words = keyword.lower().split() if keyword else []
    return [c for c in rows if all(w in c.title.lower() for w in words)]


@DOMAIN.tool
def get_course(db: EducationDB, course_code: Annotated[str, Field(description="e.g. 'CHEM 110'")]) -> Course:
    """One catalog course: credits, lab/materials fee and prerequisites (each needed with a C or better)."""
    found = db.courses.find(course_code=" ".join(course_code.split()))
    if not found:
        raise ToolError(f"course {course_code!r} not found")
    return found[0]


@DOMAIN.tool
def search_sections(
    db: EducationDB,
    course_code: Annotated[str, Field(description="e.g. 'MATH 151'")],
    session_id: Annotated[str | None, Field(description="only this session, e.g. 'FA26-B8'")] = None,
) -> list[dict[str, Any]]:
    """Fall 2026 sections of a course: session, meeting days and times, instructor, seats open and waitlist length."""
    code = " ".join(course_code.split())
    rows = [s for s in db.sections.find(course_code=code) if session_id is None or s.session_id == session_id.strip()]
    return [_section_view(db, s) for s in sorted(rows, key=lambda s: s.section_id)]


@DOMAIN.tool
def get_section(db: EducationDB, section_id: SectionId) -> dict[str, Any]:
    """One Fall 2026 section by its section number (CRN)."""
    return _section_view(db, _section(db, section_id))


# ----------------------------------------------------------------------------- records


@DOMAIN.tool
def get_transcript(db: EducationDB, student_id: StudentId) -> dict[str, Any]:
    """The student's academic history before Fall 2026: every course with its term and final grade (W for a
    withdrawal), the cumulative GPA (letter grades only) and the credits earned."""
    student = _student(db, student_id)
    rows = sorted((r for r in db.registrations.where(student_id=student.student_id) if r.term_id != CURRENT_TERM),
                  key=lambda r: (db.terms[r.term_id].start_date, r.course_code))
    points = sum(GRADE_POINTS[r.grade] * r.credits for r in rows if r.grade in GRADE_POINTS)
    attempted = sum(r.credits for r in rows if r.grade in GRADE_POINTS)
    earned = sum(r.credits for r in rows if r.grade in EARNS_CREDIT)
    return {"student_id": student.student_id,
            "courses": [{"registration_id": r.registration_id, "term_id": r.term_id, "course_code": r.course_code,
                         "title": db.courses[r.course_code].title, "credits": r.credits, "grade": r.grade} for r in rows],
            "cumulative_gpa": round(points / attempted, 2) if attempted else None, "credits_earned": earned}


@DOMAIN.tool
def get_schedule(db: EducationDB, student_id: StudentId) -> dict[str, Any]:
    """The student's Fall 2026 registrations (enrolled, dropped, withdrawn) with section details, the credits they
    are enrolled in, and the waitlists they are on."""
    student = _student(db, student_id)
    regs = _current(db, student.student_id)
    rows = []
    for r in regs:
        row = r.model_dump()
        if r.section_id:
            row["section"] = _section_view(db, db.sections[r.section_id])
        rows.append(row)
    waitlists = [{"section_id": s.section_id, "course_code": s.course_code, "position": s.waitlist.index(student.student_id) + 1}
                 for s in sorted(db.sections.values(), key=lambda s: s.section_id) if student.student_id in s.waitlist]
    return {"student_id": student.student_id, "registrations": rows,
            "enrolled_credits": sum(r.credits for r in regs if r.status == "enrolled"), "waitlists": waitlists}


@DOMAIN.tool
def check_schedule_conflict(db: EducationDB, student_id: StudentId, section_id: SectionId) -> dict[str, Any]:
    """Whether a section's meeting times overlap any section the student is enrolled in this term (sessions whose
    dates do not overlap never conflict). A section of a course the student is already enrolled in is listed
    apart, not as a conflict."""
    student = _student(db, student_id)
    target = _section(db, section_id)
    conflicts, same_course = [], None
    for r in _enrolled(db, student.student_id):
        if not r.section_id or r.section_id == target.section_id:
            continue
        if r.course_code == target.course_code:
            same_course = r.section_id
            continue
        overlap = _clashes(db, target, db.sections[r.section_id])
        if overlap:
            conflicts.append({"section_id": r.section_id, "course_code": r.course_code, "overlaps": overlap})
    return {"section_id": target.section_id, "course_code": target.course_code, "has_conflict": bool(conflicts),
            "conflicts": conflicts, "currently_enrolled_section_of_same_course": same_course}


# ----------------------------------------------------------------------------- adds, changes, waitlists


@DOMAIN.tool
def quote_add(db: EducationDB, student_id: StudentId, section_id: SectionId) -> dict[str, Any]:
    """What adding a section would charge, without adding it: tuition (credits x the per-credit rate for the
    student's residency), the course's lab/materials fee, the total, and the student's enrolled credits before
    and after."""
    student = _student(db, student_id)
    s = _section(db, section_id)
    course = db.courses[s.course_code]
    rate = TUITION_PER_CREDIT[student.residency]
    tuition = _money(course.credits * rate)
    now = sum(r.credits for r in _enrolled(db, student.student_id))
    return {"section_id": s.section_id, "course_code": course.course_code, "credits": course.credits,
            "tuition_per_credit": rate, "tuition": tuition, "lab_fee": course.lab_fee,
            "total_charge": _money(tuition + course.lab_fee), "enrolled_credits_now": now,
            "enrolled_credits_after": now + course.credits}


@DOMAIN.tool(write=True)
def add_section(db: EducationDB, student_id: StudentId, section_id: SectionId) -> dict[str, Any]:
    """Enroll the student in a Fall 2026 section and charge tuition and the lab/materials fee to their account.
    The registration system refuses only a section with no open seat or a course the student is already enrolled
    in this term; it does not check deadlines, prerequisites, time conflicts, credit limits or holds."""
    student = _student(db, student_id)
    s = _section(db, section_id)
    if s.enrolled >= s.capacity:
        raise ToolError(f"section {s.section_id} has no open seat ({s.enrolled}/{s.capacity})")
    for r in _enrolled(db, student.student_id):
        if r.course_code == s.course_code:
            raise ToolError(f"student {student.student_id} is already enrolled in {s.course_code} (section {r.section_id})")
    course = db.courses[s.course_code]
    tuition = _money(course.credits * TUITION_PER_CREDIT[student.residency])
    key = db.registrations.new_key("RG-", student.student_id, s.section_id)
    db.registrations[key] = Registration(registration_id=key, student_id=student.student_id, term_id=CURRENT_TERM,
                                         course_code=s.course_code, section_id=s.section_id, credits=course.credits,
                                         status="enrolled", registered_on=_today(), tuition_charged=tuition,
                                         fees_charged=course.lab_fee)
    s.enrolled += 1
    if student.student_id in s.waitlist:
        s.waitlist.remove(student.student_id)
    student.account_balance = _money(student.account_balance + tuition + course.lab_fee)
    return {"registration": db.registrations[key].model_dump(), "charged": _money(tuition + course.lab_fee),
            "account_balance": student.account_balance}


@DOMAIN.tool(write=True)
def change_section(
    db: EducationDB,
    student_id: StudentId,
    from_section_id: Annotated[str, Field(description="the section (CRN) the student is enrolled in now")],
    to_section_id: Annotated[str, Field(description="another section (CRN) of the same course")],
) -> dict[str, Any]:
    """Move the student from one section of a course to another section of the same course, keeping the
    registration and its charges (no refund, no new charge). Refuses a different course or a section with no open
    seat; it does not check deadlines or time conflicts."""
    student = _student(db, student_id)
    old, new = _section(db, from_section_id), _section(db, to_section_id)
    if old.section_id == new.section_id:
        raise ToolError("the two sections are the same")
    if old.course_code != new.course_code:
        raise ToolError(f"section {new.section_id} is {new.course_code}, not {old.course_code}")
    reg = _registration_for(db, student.student_id, old.section_id)
    if new.enrolled >= new.capacity:
        raise ToolError(f"section {new.section_id} has no open seat ({new.enrolled}/{new.capacity})")
    reg.section_id = new.section_id
    reg.status_changed_on = _today()
    old.enrolled -= 1
    new.enrolled += 1
    if student.student_id in new.waitlist:
        new.waitlist.remove(student.student_id)
    return {"registration": reg.model_dump(), "section": _section_view(db, new)}


@DOMAIN.tool(write=True)
def join_waitlist(db: EducationDB, student_id: StudentId, section_id: SectionId) -> dict[str, Any]:
    """Put the student at the end of a section's waitlist; returns their position. Seats that open are offered
    to the waitlist by the registrar overnight. Refuses a section the student is already enrolled in or already
    waitlisted for."""
    student = _student(db, student_id)
    s = _section(db, section_id)
    if student.student_id in s.waitlist:
        raise ToolError(f"student {student.student_id} is already on the waitlist of {s.section_id}")
    if any(r.section_id == s.section_id for r in _enrolled(db, student.student_id)):
        raise ToolError(f"student {student.student_id} is already enrolled in section {s.section_id}")
    s.waitlist.append(student.student_id)
    return {"section_id": s.section_id, "course_code": s.course_code, "position": len(s.waitlist),
            "waitlist_length": len(s.waitlist)}


@DOMAIN.tool(write=True)
def leave_waitlist(db: EducationDB, student_id: StudentId, section_id: SectionId) -> dict[str, Any]:
    """Take the student off a section's waitlist."""
    student = _student(db, student_id)
    s = _section(db, section_id)
    if student.student_id not in s.waitlist:
        raise ToolError(f"student {student.student_id} is not on the waitlist of {s.section_id}")
    s.waitlist.remove(student.student_id)
    return {"section_id": s.section_id, "course_code": s.course_code, "removed": True}


# ----------------------------------------------------------------------------- drops and withdrawals


@DOMAIN.tool
def quote_drop(db: EducationDB, student_id: StudentId, section_id: SectionId) -> dict[str, Any]:
    """What dropping an enrolled section today would refund, without dropping it: the refund percent of the
    session's refund schedule for today's date (0 once the schedule has ended), the tuition and fee refunded,
    the total, the session's drop and withdrawal deadlines, and the student's enrolled credits after."""
    student = _student(db, student_id)
    s = _section(db, section_id)
    reg = _registration_for(db, student.student_id, s.section_id)
    session = db.sessions[s.session_id]
    pct = _refund_percent(session, _today())
    tuition = _money(reg.tuition_charged * pct / 100)
    fee = _money(reg.fees_charged * pct / 100)
    credits = sum(r.credits for r in _enrolled(db, student.student_id))
    return {"section_id": s.section_id, "course_code": s.course_code, "session_id": session.session_id, "today": _today(),
            "refund_percent": pct, "tuition_refund": tuition, "fee_refund": fee, "total_refund": _money(tuition + fee),
            "drop_deadline": session.drop_deadline, "withdraw_deadline": session.withdraw_deadline,
            "enrolled_credits_now": credits, "enrolled_credits_after": credits - reg.credits}


@DOMAIN.tool(write=True)
def drop_section(
    db: EducationDB,
    student_id: StudentId,
    section_id: SectionId,
    action: Annotated[Literal["drop", "withdraw"], Field(description="'drop': removed from the record, refund by the "
                                                                     "session's schedule; 'withdraw': a W on the record, no refund")],
) -> dict[str, Any]:
    """Take the student out of an enrolled section. A drop credits the refund of the session's schedule for today
    to the student's account; a withdrawal records a W and refunds nothing. The seat is released. The system does
    not check deadlines, credit minimums or visa status."""
    student = _student(db, student_id)
    s = _section(db, section_id)
    reg = _registration_for(db, student.student_id, s.section_id)
    refund = 0.0
    if action == "drop":
        pct = _refund_percent(db.sessions[s.session_id], _today())
        refund = _money(_money(reg.tuition_charged * pct / 100) + _money(reg.fees_charged * pct / 100))
        reg.status = "dropped"
    else:
        reg.status, reg.grade = "withdrawn", "W"
    reg.refund_amount = refund
    reg.status_changed_on = _today()
    s.enrolled -= 1
    student.account_balance = _money(student.account_balance - refund)
    return {"registration": reg.model_dump(), "refund": refund, "account_balance": student.account_balance}


# ----------------------------------------------------------------------------- tutoring


@DOMAIN.tool
def search_tutoring_slots(
    db: EducationDB,
    course_code: Annotated[str, Field(description="e.g. 'MATH 151'")],
    on_date: Annotated[str | None, Field(description="only this date, YYYY-MM-DD")] = None,
) -> list[TutoringSlot]:
    """Open (unbooked) Learning Commons tutoring slots for a course from today on, earliest first."""
    code = " ".join(course_code.split())
    rows = [t for t in db.tutoring_slots.find(course_code=code) if t.booked_by is None and t.date >= _today()
            and (on_date is None or t.date == on_date.strip())]
    return sorted(rows, key=lambda t: (t.date, t.start, t.slot_id))


@DOMAIN.tool
def list_tutoring_bookings(db: EducationDB, student_id: StudentId) -> list[TutoringSlot]:
    """The tutoring slots the student has booked, earliest first."""
    student = _student(db, student_id)
    return sorted(db.tutoring_slots.where(booked_by=student.student_id), key=lambda t: (t.date, t.start, t.slot_id))


@DOMAIN.tool(write=True)
def book_tutoring(
    db: EducationDB,
    student_id: StudentId,
    slot_id: Annotated[str, Field(description="e.g. 'TS-30417'")],
    topic: Annotated[FreeText, Field(description="what the student wants to work on, in their words")],
) -> TutoringSlot:
    """Book an open tutoring slot for the student. Refuses a slot that is already booked or already past; it does
    not check enrollment in the course or booking limits."""
    student = _student(db, student_id)
    slot = db.tutoring_slots.require(slot_id.strip())
    if slot.booked_by is not None:
        raise ToolError(f"slot {slot.slot_id} is already booked")
    if (slot.date, slot.start) < (_today(), DOMAIN.now.strftime("%H:%M")):
        raise ToolError(f"slot {slot.slot_id} has already started")
    slot.booked_by, slot.booked_on, slot.topic = student.student_id, _today(), topic
    return slot


@DOMAIN.tool(write=True)
def cancel_tutoring(db: EducationDB, student_id: StudentId, slot_id: Annotated[str, Field(description="e.g. 'TS-30417'")]) -> TutoringSlot:
    """Cancel the student's booking of a tutoring slot; the slot opens again."""
    student = _student(db, student_id)
    slot = db.tutoring_slots.require(slot_id.strip())
    if slot.booked_by != student.student_id:
        raise ToolError(f"slot {slot.slot_id} is not booked by student {student.student_id}")
    slot.booked_by, slot.booked_on, slot.topic = None, None, None
    return slot


# ----------------------------------------------------------------------------- grade appeals


@DOMAIN.tool
def list_grade_appeals(db: EducationDB, student_id: StudentId) -> list[GradeAppeal]:
    """The grade appeals the student has filed, with their status."""
    student = _student(db, student_id)
    return sorted(db.grade_appeals.where(student_id=student.student_id), key=lambda a: a.appeal_id)


@DOMAIN.tool(write=True)
def file_grade_appeal(
    db: EducationDB,
    student_id: StudentId,
    registration_id: Annotated[str, Field(description="the registration of the graded course, from get_transcript, e.g. 'RG-104233'")],
    reason: Annotated[FreeText, Field(description="the student's reason, in their words")],
) -> GradeAppeal:
    """File a grade appeal for a final grade; it goes to the instructor and the department chair. Refuses a
    registration that is not the student's, has no final grade, or already has an appeal; it does not check the
    appeal deadline or the kind of grade."""
    student = _student(db, student_id)
    reg = db.registrations.require(registration_id.strip())
    if reg.student_id != student.student_id:
        raise ToolError(f"registration {reg.registration_id} is not student {student.student_id}'s")
    if reg.grade is None:
        raise ToolError(f"registration {reg.registration_id} has no final grade")
    if any(True for _ in db.grade_appeals.where(registration_id=reg.registration_id)):
        raise ToolError(f"registration {reg.registration_id} already has a grade appeal")
    key = db.grade_appeals.new_key("GA-", reg.registration_id)
    db.grade_appeals[key] = GradeAppeal(appeal_id=key, student_id=student.student_id, registration_id=reg.registration_id,
                                        course_code=reg.course_code, term_id=reg.term_id, grade=reg.grade, reason=reason,
                                        filed_on=_today(), status="submitted")
    return db.grade_appeals[key]


# ----------------------------------------------------------------------------- transcripts


def _transcript_fee(delivery: str, copies: int, rush: bool) -> float:
    if not 1 <= copies <= 10:
        raise ToolError("copies must be between 1 and 10")
    return _money(TRANSCRIPT_FEE[delivery] * copies + (RUSH_FEE if rush else 0.0))


@DOMAIN.tool
def quote_transcript(
    db: EducationDB,
    delivery: Literal["electronic", "mail", "pickup"],
    copies: Annotated[int, Field(description="number of official copies, 1 to 10")],
    rush: Annotated[bool, Field(description="rush processing (next business day)")] = False,
) -> dict[str, Any]:
    """The fee for an official transcript order, without placing it: the per-copy fee for the delivery method
    times the copies, plus the rush fee if asked."""
    return {"delivery": delivery, "copies": copies, "per_copy_fee": TRANSCRIPT_FEE[delivery], "rush_fee": RUSH_FEE if rush else 0.0,
            "total_fee": _transcript_fee(delivery, copies, rush)}


@DOMAIN.tool
def list_transcript_requests(db: EducationDB, student_id: StudentId) -> list[TranscriptRequest]:
    """The student's official transcript orders and their status."""
    student = _student(db, student_id)
    return sorted(db.transcript_requests.where(student_id=student.student_id), key=lambda t: t.request_id)


@DOMAIN.tool(write=True)
def request_transcript(
    db: EducationDB,
    student_id: StudentId,
    delivery: Literal["electronic", "mail", "pickup"],
    recipient: Annotated[FreeText, Field(description="who receives it: an institution's name, or 'Self'")],
    destination: Annotated[str, Field(description="the recipient's email (electronic), postal address (mail), or 'Admissions and Records counter' (pickup)")],
    copies: Annotated[int, Field(description="number of official copies, 1 to 10")],
    rush: Annotated[bool, Field(description="rush processing (next business day)")] = False,
) -> TranscriptRequest:
    """Order official transcripts; the fee is charged to the student's account. The system does not check holds."""
    student = _student(db, student_id)
    fee = _transcript_fee(delivery, copies, rush)
    recipient, destination = " ".join(recipient.split()), " ".join(destination.split())
    if not recipient or not destination:
        raise ToolError("recipient and destination are required")
    key = db.transcript_requests.new_key("TR-", student.student_id, delivery, formatted_form(destination), copies, rush)
    db.transcript_requests[key] = TranscriptRequest(request_id=key, student_id=student.student_id, delivery=delivery,
                                                    recipient=recipient, destination=destination, copies=copies, rush=rush,
                                                    fee=fee, requested_on=_today(), status="received")
    student.account_balance = _money(student.account_balance + fee)
    return db.transcript_requests[key]


# -- data invariants: holds from the student's own time here, the term calendar ------------
DOMAIN.invariants(
    plausible_age("students", "date_of_birth", low=15, high=90),
    not_after_now("students", "holds[].placed_on"),
    not_after_now("registrations", "registered_on"),
    not_after_now("registrations", "status_changed_on"),
    ordered("registrations", "registered_on", "status_changed_on"),
    ordered("terms", "start_date", "end_date"),
    ordered("terms", "end_date", "grades_posted_on"),
    ordered("terms", "grades_posted_on", "grade_appeal_deadline"),
    cents("registrations", "tuition_charged"),
    cents("registrations", "refund_amount"),
    cents("students", "account_balance"),
    area_codes_valid("students", "phone"),
    zip_matches_state("students", "mailing_address.zip", "mailing_address.state"),
    consistent("students", "mailing_address.zip", "mailing_address.city"),
)


@DOMAIN.invariant
def _holds_from_the_students_time(db: EducationDB, now: datetime) -> Any:
    """holds placed no earlier than the student's first term; 'prior term' balances only for returning students"""
    for key, student in db.students.items():
        began = db.terms[student.first_term].start_date
        for hold in student.holds:
            if hold.placed_on < began:
                yield f"students[{key!r}]: hold {hold.hold_id} placed {hold.placed_on}, before their first term began {began}"
            if "prior term" in hold.detail and student.first_term == "FA26":
                yield f"students[{key!r}]: hold {hold.hold_id} says {hold.detail!r}, but this is their first term"


# A swap over the credit limit drops before it adds (the add would exceed the limit first).
DOMAIN.order("drop_section", "add_section")
# Policy 2.1, 4.4 and 5.1: the quote before the change it prices, the conflict check before a seat is taken.
DOMAIN.order("quote_add", "add_section")
DOMAIN.order("quote_drop", "drop_section")
DOMAIN.order("quote_transcript", "request_transcript")
DOMAIN.order("check_schedule_conflict", "add_section")
DOMAIN.order("check_schedule_conflict", "change_section")
DOMAIN.order("check_schedule_conflict", "join_waitlist")
