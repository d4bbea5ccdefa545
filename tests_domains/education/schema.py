"""The student-services desk's database: Larkspur Valley College's catalog, Fall 2026 sections, students,
their registrations (past grades and the current term), the term calendar, tutoring slots, grade appeals and
transcript requests."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, Formatted, FreeText, Table, Unordered

Grade = Literal["A", "A-", "B+", "B", "B-", "C+", "C", "C-", "D+", "D", "F", "P", "NP", "W", "I"]
HoldKind = Literal["financial", "advising", "immunization", "library", "conduct"]


class Course(BaseModel):
    course_code: str
    subject: str
    title: str
    credits: int
    lab_fee: float
    prerequisites: list[str]
    description: str


class Meeting(BaseModel):
    days: str
    start: str
    end: str
    room: str


class Section(BaseModel):
    section_id: str
    course_code: str
    term_id: str
    session_id: str
    section_number: str
    instructor: str
    modality: Literal["in_person", "hybrid", "online"]
    meetings: list[Meeting]
    capacity: int
    enrolled: int
    waitlist: list[str]


class RefundStep(BaseModel):
    start_date: str
    end_date: str
    refund_percent: int


class Session(BaseModel):
    session_id: str
    term_id: str
    name: str
    start_date: str
    end_date: str
    add_deadline: str
    drop_deadline: str
    withdraw_deadline: str
    refund_schedule: list[RefundStep]


class Term(BaseModel):
    term_id: str
    name: str
    start_date: str
    end_date: str
    grades_posted_on: str | None = None
    grade_appeal_deadline: str | None = None
    session_ids: list[str]


class Hold(BaseModel):
    hold_id: str
    kind: HoldKind
    placed_on: str
    amount_due: float | None = None
    office: str
    detail: str


class Address(BaseModel):
    street: str
    city: str
    state: str
    zip: str


class Student(BaseModel):
    student_id: str
    first_name: str
    last_name: str
    date_of_birth: Confidential[str]
    email: str
    phone: str
    mailing_address: Address
    residency: Literal["resident", "nonresident"]
    visa_status: Literal["F-1"] | None = None
    program: str
    first_term: str
    holds: Unordered[Hold]
    prerequisite_waivers: Unordered[str]
    account_balance: float


class Registration(BaseModel):
    registration_id: str
    student_id: str
    term_id: str
    course_code: str
    section_id: str | None = None
    credits: int
    status: Literal["enrolled", "dropped", "withdrawn", "completed"]
    grade: Grade | None = None
    registered_on: str
    tuition_charged: float
    fees_charged: float
    refund_amount: float = 0.0
    status_changed_on: str | None = None


class TutoringSlot(BaseModel):
    slot_id: str
    course_code: str
    tutor: str
    date: str
    start: str
    end: str
    location: str
    booked_by: str | None = None
    booked_on: str | None = None
    topic: FreeText | None = None


class GradeAppeal(BaseModel):
    appeal_id: str
    student_id: str
    registration_id: str
    course_code: str
    term_id: str
    grade: Grade
    reason: FreeText
    filed_on: str
    status: Literal["submitted", "under_review", "upheld", "changed"]


class TranscriptRequest(BaseModel):
    request_id: str
    student_id: str
    delivery: Literal["electronic", "mail", "pickup"]
    recipient: FreeText
    destination: Formatted
    copies: int
    rush: bool
    fee: float
    requested_on: str
    status: Literal["received", "processing", "sent", "ready_for_pickup"]


class EducationDB(BaseModel):
    terms: Table[Term]
    sessions: Table[Session]
    courses: Table[Course]
    sections: Table[Section]
    students: Table[Student]
    registrations: Table[Registration]
    tutoring_slots: Table[TutoringSlot]
    grade_appeals: Table[GradeAppeal]
    transcript_requests: Table[TranscriptRequest]
